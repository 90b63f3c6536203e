"""ULP distances (xesim/numerics/ulp.py), against counts made with np.nextafter."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from xesim.numerics.ulp import ulp_distance, within_ulps


def _steps(a: np.float32, b: np.float32) -> int:
    """How many np.nextafter steps lead from a to b (the definition of the distance)."""
    n, x = 0, a
    while x != b:
        x = np.nextafter(x, b)
        n += 1
    return n


def test_distance_counts_representable_values_across_zero_and_binades():
    f = np.float32
    pairs = [(f(1), f(1.0000005)), (f(-1e-45), f(1e-45)), (f(0.99999994), f(1.0000001)), (f(-2), f(-1.9999998))]
    a = np.array([p[0] for p in pairs], f)
    b = np.array([p[1] for p in pairs], f)
    assert list(ulp_distance(a, b)) == [_steps(x, y) for x, y in pairs] == [4, 2, 2, 2]


def test_zeros_nans_bf16_and_integers():
    f = np.float32
    assert list(ulp_distance(np.array([0.0, np.nan, 1.0], f), np.array([-0.0, 1.0, np.nan], f))) == [0, -1, -1]
    h = np.array([1.0], ml_dtypes.bfloat16)
    assert list(ulp_distance(h, np.array([1.0078125], ml_dtypes.bfloat16))) == [1]
    assert list(ulp_distance(np.array([3, -5], np.int32), np.array([7, 5], np.int32))) == [4, 10]


def test_within_ulps_is_bit_equality_at_zero_tolerance():
    f = np.float32
    a = np.array([0.0, 1.0, np.nan], f)
    b = np.array([-0.0, np.nextafter(f(1), f(2)), np.nan], f)
    assert list(within_ulps(a, b, 0)) == [False, False, True]
    assert list(within_ulps(a, b, 1)) == [True, True, True]
    other_nan = np.array([0x7FC00001], np.uint32).view(f)
    assert list(within_ulps(a[2:], other_nan, 5)) == [False]
