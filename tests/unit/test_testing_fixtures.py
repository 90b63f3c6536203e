"""The pytest fixtures xesim_run / xesim_launch and the array diff (xesim/testing/pytest_plugin.py,
xesim/testing/arraydiff.py; issue 26 item 3)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xesim.testing.arraydiff import array_diff, assert_same, mismatch_map, ulp_distance

ROOT = Path(__file__).resolve().parents[2]


def test_equal_arrays_have_no_diff() -> None:
    a = np.linspace(-1, 1, 64, dtype=np.float32)
    assert array_diff(a, a.copy()) == ""
    nan = np.array([np.nan], dtype=np.float32)
    assert array_diff(nan, nan.copy()) == ""            # the same bits


def test_diff_lists_first_elements_with_ulp_distance() -> None:
    a = np.zeros((4, 8), dtype=np.float32)
    b = a.copy()
    b[1, 2] = np.nextafter(np.float32(0), np.float32(1))   # 1 ULP
    b[3, 7] = np.float32(1.0)
    d = array_diff(a, b)
    lines = d.splitlines()
    assert lines[0] == "2 of 32 elements differ; largest ULP distance 1065353216"
    assert lines[2].split() == ["(1,", "2)", "0.0", "1e-45", "1"]
    assert lines[3].split()[:2] == ["(3,", "7)"]
    assert lines[4] == "mismatch map (4 x 8 elements, each cell 1 x 1):"
    assert lines[5:] == ["  ........", "  ..X.....", "  ........", "  .......X"]


def test_ulp_tolerance_and_signed_zero() -> None:
    a = np.array([1.0, 0.0], dtype=np.float32)
    b = np.array([np.nextafter(np.float32(1), np.float32(2)), -0.0], dtype=np.float32)
    assert "2 of 2 elements differ" in array_diff(a, b)
    assert array_diff(a, b, ulp=1) == ""
    assert list(ulp_distance(a, b)) == [1, 0]  # the zeros are equal values (their bits differ)


def test_bfloat16_and_integers() -> None:
    h = np.ones(4, dtype=ml_dtypes.bfloat16)
    g = h.copy()
    g[1] = ml_dtypes.bfloat16(1.0078125)
    assert array_diff(h, g).startswith("1 of 4 elements differ; largest ULP distance 1")
    i = np.arange(6, dtype=np.int32)
    assert array_diff(i, i + (i == 4)).splitlines()[0] == "1 of 6 elements differ"


def test_shape_and_dtype_mismatch() -> None:
    assert array_diff(np.zeros(3), np.zeros(4)) == "shape differs: xesim (3,), yours (4,)"
    assert array_diff(np.zeros(3, np.float32), np.zeros(3)) == "dtype differs: xesim float32, yours float64"


def test_map_blocks_large_arrays() -> None:
    m = np.zeros((256, 512), dtype=bool)
    m[255, 511] = True
    text = mismatch_map(m).splitlines()
    assert text[0] == "mismatch map (256 x 512 elements, each cell 16 x 8):"
    assert len(text) == 17 and text[-1] == "  " + "." * 63 + "X" and set(text[1]) == {" ", "."}


def test_assert_same_raises_with_the_report() -> None:
    with pytest.raises(AssertionError, match=r"out differs from xesim's result:\n1 of 2 elements differ"):
        assert_same(np.zeros(2, np.float32), np.array([0, 1], np.float32), what="out")


SAXPY = ROOT / "examples" / "lane_saxpy.mlir"
USER_TEST = f'''
import numpy as np

PROG = {str(SAXPY)!r}

def test_run(xesim_run):
    assert "[ALLCLOSE: TRUE]" in xesim_run(PROG).output

def test_launch_matches(xesim_launch):
    x = np.arange(64, dtype=np.float32)
    y = np.ones(64, dtype=np.float32)
    r = xesim_launch(PROG, "kernels::saxpy", (4, 1, 1), (16, 1, 1), [x, y, 0.5])
    r.assert_same(1, np.float32(0.5) * x + y)

def test_launch_mismatch(xesim_launch):
    x = np.arange(64, dtype=np.float32)
    y = np.ones(64, dtype=np.float32)
    r = xesim_launch(PROG, "kernels::saxpy", (4, 1, 1), (16, 1, 1), [x, y, 0.5])
    mine = np.float32(0.5) * x + y
    mine[40] += 1
    r.assert_same(1, mine)
'''


def test_fixtures_in_a_users_test_file(tmp_path: Path) -> None:
    (tmp_path / "test_kernel.py").write_text(USER_TEST)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p",
                           "xesim.testing.pytest_plugin", "-q", str(tmp_path / "test_kernel.py")],
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT), "XESIM_JOBS": "1",
                                             # this worktree's plugin, not an installed copy's entry point
                                             "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
                          capture_output=True, text=True, timeout=600)
    assert "1 failed, 2 passed" in proc.stdout, proc.stdout + proc.stderr
    assert "1 of 64 elements differ; largest ULP distance 524288" \
        in proc.stdout
    assert "(40,)" in proc.stdout and "21.0" in proc.stdout and "22.0" in proc.stdout
    assert "mismatch map (1 x 64 elements, each cell 1 x 1):" in proc.stdout
    assert "  " + "." * 40 + "X" + "." * 23 in proc.stdout
    assert "expected = array(" not in proc.stdout     # the report, not the helper's locals


def test_entry_points_name_what_exists() -> None:
    """pyproject.toml's pytest11 plugin and xesim-runner script point at real objects (an installed xesim
    registers them)."""
    import importlib
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    plugin = importlib.import_module(project["entry-points"]["pytest11"]["xesim"])
    assert callable(plugin.pytest_addoption) and callable(plugin.xesim_launch)
    mod, _, func = project["scripts"]["xesim-runner"].partition(":")
    assert callable(getattr(importlib.import_module(mod), func))
    assert any(d.startswith("filecheck") for d in project["dependencies"])   # xesim check after the quick start
