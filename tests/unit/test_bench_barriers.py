"""The barrier benchmark's programs (tools/bench_barriers.py): each with-barrier program, at its ``--quick`` size,
runs in xesim with the output numpy predicts; the without-barrier text differs only by the barrier ops."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import xesim

ROOT = Path(__file__).resolve().parents[2]


def _load_tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_tools_{name}", ROOT / "tools" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


bb = _load_tool("bench_barriers")


def test_expected_output_from_a_plain_integer_product():
    m, n, k = 24, 40, 33
    a = (np.arange(m)[:, None] + np.arange(k)[None, :]) % 7
    b = (3 * np.arange(k)[:, None] + np.arange(n)[None, :]) % 5
    c = a.astype(np.int64) @ b.astype(np.int64)
    w = (7 * np.arange(m)[:, None] + 3 * np.arange(n)[None, :]) % 11 + 1
    assert bb.expected_output(m, n, k) == f"{int((c * w).sum())}\n{c[0, 0]}\n{c[m - 1, n - 1]}\n"


@pytest.mark.parametrize("key", sorted(bb.WORKLOADS))
def test_with_barrier_program_at_quick_size(key):
    w = bb.WORKLOADS[key]
    p = w.quick
    text = w.program(p, True)
    assert xesim.load(text).run().output == bb.expected_output(p["m"], p["n"], p["k"])


@pytest.mark.parametrize("key", sorted(bb.WORKLOADS))
def test_without_barriers_removes_only_the_barrier_ops(key):
    w = bb.WORKLOADS[key]
    with_b = w.program(w.quick, True).splitlines()
    without = w.program(w.quick, False).splitlines()
    gone = [ln.strip().split()[0] if "=" not in ln else ln.split("=", 1)[1].split()[0]
            for ln in with_b if ln not in without]
    assert gone and set(gone) <= set(bb.BARRIER_OPS)
    assert [ln for ln in with_b if ln in set(without)] == without
    assert not any(op in "\n".join(without) for op in bb.BARRIER_OPS)


def test_generators_reject_untileable_sizes():
    with pytest.raises(ValueError):
        bb.sg_barrier_program({"m": 64, "n": 128, "k": 64})
    with pytest.raises(ValueError):
        bb.vc_nbarrier_program({"m": 256, "n": 128, "k": 24})
    with pytest.raises(ValueError):
        bb.producer_consumer_program({"m": 64, "n": 64, "k": 16})  # the loop body is two K steps
