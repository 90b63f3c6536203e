"""Distances between values of one number type in units in the last place (ULP): how many representable values
lie between two floats, the measure every cross-check reports (``xesim crosscheck``, the pytest fixtures).

Floats (numpy floats and the ml_dtypes types) are mapped to integers ordered like their values, the sign-magnitude
bits turned into a signed count with both zeros at 0: so -0 and +0 are 0 ULP apart (equal values; their bits still
differ, which bit-exact comparisons report), the smallest subnormals of either sign are 1 ULP from zero, and a
NaN has no distance (-1).  Integers are their difference.
"""

from __future__ import annotations

import numpy as np


def is_float(dt: np.dtype) -> bool:
    """A floating-point element type (numpy's or one of ml_dtypes')."""
    return dt.kind == "f" or dt.kind == "V" or dt.name.startswith(("bfloat16", "float"))


def ordered(a: np.ndarray) -> np.ndarray:
    """The floats of ``a`` as int64 ordered like their values, both zeros 0."""
    a = np.asarray(a)
    width = 8 * a.dtype.itemsize
    bits = a.view(f"u{a.dtype.itemsize}").astype(np.int64)
    sign = np.int64(1) << (width - 1)
    mag = bits & (sign - 1)
    return np.where(bits & sign, -mag, mag)


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise distance of two arrays of one type in ULPs (-1 where either float is a NaN)."""
    a, b = np.asarray(a), np.asarray(b)
    if not is_float(a.dtype):
        return np.abs(a.astype(np.int64) - b.astype(np.int64))
    d = np.abs(ordered(a) - ordered(b))
    nan = np.isnan(a.astype(np.float32)) | np.isnan(b.astype(np.float32))
    return np.where(nan, -1, d)


def within_ulps(a: np.ndarray, b: np.ndarray, ulp: int) -> np.ndarray:
    """Elementwise: the same bits, or (with ``ulp`` > 0) at most ``ulp`` ULPs apart; a NaN only matches the same
    bits."""
    a, b = np.asarray(a), np.asarray(b)
    same = a.view(f"u{a.dtype.itemsize}") == b.view(f"u{b.dtype.itemsize}") if is_float(a.dtype) else a == b
    if ulp <= 0:
        return same
    d = ulp_distance(a, b)
    return same | ((d >= 0) & (d <= ulp))
