"""Process-wide speed settings applied on import (xesim/process_tuning.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROBE = """
import resource, numpy as np, xesim
def faults(): return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
def step():  # a kernel step's tiles: three live at once (4 + 4 + 2 MiB), written, then freed
    a, b, c = np.ones(1 << 20, np.float32), np.ones(1 << 20, np.float32), np.ones(1 << 19, np.float32)
for _ in range(3):
    step()
f0 = faults()
for _ in range(20):
    step()
print(faults() - f0)
"""


def _faults(env_extra: dict) -> int:
    env = {k: v for k, v in os.environ.items() if k != "XESIM_MALLOC_TUNING"}
    env.update(env_extra)
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=True)
    return int(out.stdout.strip())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc malloc tuning is Linux-only")
def test_megabyte_tiles_reuse_heap_memory_instead_of_fresh_pages() -> None:
    """20 steps that each allocate, write and free 10 MiB of tiles: with xesim's malloc settings the memory is
    reused (almost no page faults); with XESIM_MALLOC_TUNING=0 glibc returns it and maps fresh pages every step
    (2,560 faults for 10 MiB when nothing is reused)."""
    tuned, untuned = _faults({}), _faults({"XESIM_MALLOC_TUNING": "0"})
    assert tuned < 100
    assert untuned > 20 * 500


@pytest.mark.parametrize("user", [None, "77"])
def test_openmp_workers_spin_through_a_launch_unless_the_user_says_otherwise(user: str | None) -> None:
    """Importing xesim sets GOMP_SPINCOUNT (numba's OpenMP workers stay awake between the parallel kernels of a
    launch) only when the environment does not set it."""
    env = {k: v for k, v in os.environ.items() if k != "GOMP_SPINCOUNT"}
    if user is not None:
        env["GOMP_SPINCOUNT"] = user
    out = subprocess.run([sys.executable, "-c", "import os, xesim; print(os.environ['GOMP_SPINCOUNT'])"],
                         capture_output=True, text=True, env=env, check=True).stdout.strip()
    assert out == (user or "1000000")
