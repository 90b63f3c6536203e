"""Comparing a project's arrays with xesim's bit-exact results, with a diff a person can act on (issue 26 item 3).

:func:`array_diff` describes how two arrays differ: shape or dtype, how many elements differ, the first differing
elements (index, xesim's value, the other value, the ULP distance for floating point: the number of
representable values between them), the largest ULP distance, and a map of where the mismatches are (the array
seen as rows x columns, each map cell covering a block of elements: ``X`` where any differs, ``.`` where none).

Equality is bit equality (two NaNs with the same bits are equal; +0 and -0 differ), loosened by ``ulp``: floating
point elements within that many ULPs are equal (:func:`xesim.numerics.ulp.within_ulps`: a NaN only equals the
same bits; -0 and +0 are 0 ULPs apart).  Used by the pytest fixtures (:mod:`xesim.testing.pytest_plugin`)."""

from __future__ import annotations

import numpy as np

from xesim.crosscheck.compare import mismatch_map as map_lines
from xesim.numerics.ulp import is_float, ulp_distance, within_ulps


def _mismatches(expected: np.ndarray, actual: np.ndarray, ulp: int) -> tuple[np.ndarray, np.ndarray | None]:
    if is_float(expected.dtype):
        return ~within_ulps(expected, actual, ulp), ulp_distance(expected, actual)
    return expected != actual, None


def mismatch_map(mask: np.ndarray) -> str:
    """Where ``mask`` is true, drawn as at most 16 x 64 cells (``X``: a mismatch in the cell's block)."""
    return "\n".join(map_lines(mask))


def array_diff(expected: np.ndarray, actual: np.ndarray, ulp: int = 0, first: int = 8,
               names: tuple[str, str] = ("xesim", "yours")) -> str:
    """How ``actual`` differs from ``expected`` ("" when equal: bit for bit, or within ``ulp`` ULPs)."""
    expected, actual = np.asarray(expected), np.asarray(actual)
    if expected.shape != actual.shape:
        return f"shape differs: {names[0]} {expected.shape}, {names[1]} {actual.shape}"
    if expected.dtype != actual.dtype:
        return f"dtype differs: {names[0]} {expected.dtype}, {names[1]} {actual.dtype}"
    if expected.size == 0:
        return ""
    mask, dist = _mismatches(expected, actual, ulp)
    n = int(mask.sum())
    if n == 0:
        return ""
    idx = np.argwhere(mask)[:first]
    tol = f" (more than {ulp} ULP apart)" if ulp and dist is not None else ""
    finite = dist[mask & (dist >= 0)] if dist is not None else np.zeros(0)
    out = [f"{n} of {expected.size} elements differ{tol}"
           + (f"; largest ULP distance {int(finite.max())}" if finite.size else "")]
    w = max(len(str(tuple(int(i) for i in ix))) for ix in idx)
    out.append(f"  {'index':<{w}}  {names[0]:>16}  {names[1]:>16}" + ("  ULP" if dist is not None else ""))
    for ix in idx:
        t = tuple(int(i) for i in ix)
        e, a = expected[t], actual[t]
        line = f"  {str(t):<{w}}  {e!s:>16}  {a!s:>16}"
        if dist is not None:
            d = int(dist[t])
            line += f"  {'NaN' if d < 0 else d}"
        out.append(line)
    if n > first:
        out.append(f"  ... {n - first} more")
    out.append(mismatch_map(mask))
    return "\n".join(out)


def assert_same(expected: np.ndarray, actual: np.ndarray, ulp: int = 0, what: str = "array") -> None:
    """Raise AssertionError with :func:`array_diff`'s report unless ``actual`` equals ``expected``."""
    __tracebackhide__ = True  # pytest: show the report, not this function
    diff = array_diff(expected, actual, ulp)
    if diff:
        raise AssertionError(f"{what} differs from xesim's result:\n{diff}")
