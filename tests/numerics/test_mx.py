"""MX numerics (xesim/numerics/mx.py) against references written here from shared/spec/upstream-xegpu-xevm.md §5:
E8M0 codes from the spec's sentences, the block-scaled DPAS from exact rationals (``fractions.Fraction``) rounded
once with ml_dtypes / numpy casts of exactly representable intermediates."""

from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xesim.numerics import mx


# ------------------------------------------------------------------------------------------------ E8M0
@pytest.mark.parametrize("x, code", [
    (1.0, 127), (2.0, 128), (0.5, 126), (3.0, 129),  # 3 = 1.5·2: a tie, goes up to 4
    (2.9, 128), (1.4, 127), (1.5, 128), (6.0, 130), (-4.0, 129),
    (0.0, 0), (2.0 ** -130, 0), (2.0 ** 127, 254), (2.0 ** 128 * 0.9, 254), (float("inf"), 255), (float("nan"), 255),
])
def test_e8m0_apfloat_rounds_to_the_nearest_power_of_two(x: float, code: int) -> None:
    """§5.2 A: nearest power of two, ties up, clamped to [2^-127, 2^127]; zero -> 0x00; Inf/NaN -> 0xFF."""
    assert int(mx.truncf_e8m0(np.float32(x), "apfloat")) == code


@pytest.mark.parametrize("x, code", [
    (1.0, 127), (2.9, 128), (3.0, 128), (3.99, 128), (0.75, 126), (-8.0, 130),
    (0.0, 0), (1e-40, 0), (float("inf"), 255), (float("nan"), 255),
])
def test_e8m0_arith_expand_keeps_the_f32_exponent_field(x: float, code: int) -> None:
    """§5.2 B: the f32 exponent field: the magnitude rounded down; zero and f32 subnormals -> 0x00."""
    assert int(mx.truncf_e8m0(np.float32(x), "arith_expand")) == code


def test_e8m0_values_are_powers_of_two_and_ff_is_nan() -> None:
    v = mx.e8m0_value(np.array([0, 127, 254, 255], np.uint8))
    assert v[0] == 2.0 ** -127 and v[1] == 1.0 and v[2] == 2.0 ** 127 and np.isnan(v[3])


def test_unknown_rules_are_rejected() -> None:
    with pytest.raises(ValueError):
        mx.truncf_e8m0(np.float32(1), "nearest")
    with pytest.raises(ValueError):
        mx.dpas_mx(np.zeros((1, 32)), np.zeros((32, 1)), None, None, None, "f32", "fast")


# ------------------------------------------------------------------------------------------------ dpas_mx
def reference(a, b, c, sa, sb) -> np.ndarray:
    """§5.3 with exact rationals, then one RNE rounding to f32 (float64 holds the exact sum of these small cases,
    checked, so numpy's float64 -> float32 cast is the single rounding)."""
    m, k = a.shape
    n = b.shape[1]
    ks = sa.shape[1]
    blk = k // ks
    out = np.empty((m, n), np.float32)
    for i in range(m):
        for j in range(n):
            total = Fraction(float(c[i, j]))
            for s in range(ks):
                part = sum(Fraction(float(a[i, kk])) * Fraction(float(b[kk, j])) for kk in range(s * blk, (s + 1) * blk))
                total += part * Fraction(2) ** (int(sa[i, s]) - 127) * Fraction(2) ** (int(sb[s, j]) - 127)
            assert Fraction(float(total)) == total  # exact in float64
            out[i, j] = np.float32(float(total))
    return out


FORMATS = {"f8E5M2": ml_dtypes.float8_e5m2, "f8E4M3FN": ml_dtypes.float8_e4m3fn, "f4E2M1FN": ml_dtypes.float4_e2m1fn}


@pytest.mark.parametrize("fa, fb", [("f8E5M2", "f8E5M2"), ("f8E4M3FN", "f8E5M2"), ("f4E2M1FN", "f4E2M1FN")])
@settings(max_examples=15)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_dpas_mx_exact_model_matches_exact_rationals(fa: str, fb: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    k = 64 if fa == "f4E2M1FN" else 32
    ks = k // 32
    a = rng.uniform(-6, 6, (4, k)).astype(FORMATS[fa])
    b = rng.uniform(-6, 6, (k, 16)).astype(FORMATS[fb])
    c = rng.uniform(-100, 100, (4, 16)).astype(np.float32)
    sa = rng.integers(120, 135, (4, ks)).astype(np.uint8)
    sb = rng.integers(120, 135, (ks, 16)).astype(np.uint8)
    got = mx.dpas_mx(a, b, c, sa, sb, "f32", "exact")
    np.testing.assert_array_equal(got, reference(a, b, c, sa, sb))


def test_dpas_mx_rounds_once_in_the_exact_model_and_per_block_in_block_f32() -> None:
    """C = 1, block 0 sums to 2^-24 (times scale 1), block 1 to 2^-24: exactly 1 + 2^-23 overall (representable);
    block_f32 adds each 2^-24 to 1 separately: each add is a tie to even, so 1 stays 1."""
    k = 64
    a = np.zeros((1, k), ml_dtypes.float8_e5m2)
    b = np.zeros((k, 1), ml_dtypes.float8_e5m2)
    a[0, 0] = a[0, 32] = 2.0 ** -12
    b[0, 0] = b[32, 0] = 2.0 ** -12
    c = np.ones((1, 1), np.float32)
    s1 = np.full((1, 2), 127, np.uint8)
    s2 = np.full((2, 1), 127, np.uint8)
    assert mx.dpas_mx(a, b, c, s1, s2, "f32", "exact")[0, 0] == np.float32(1 + 2.0 ** -23)
    assert mx.dpas_mx(a, b, c, s1, s2, "f32", "block_f32")[0, 0] == np.float32(1.0)


def test_dpas_mx_nan_scale_gives_nan_and_absent_scales_are_one() -> None:
    a = np.ones((2, 32), ml_dtypes.float8_e4m3fn)
    b = np.ones((32, 2), ml_dtypes.float8_e4m3fn)
    sa = np.array([[127], [255]], np.uint8)
    sb = np.full((1, 2), 128, np.uint8)
    d = mx.dpas_mx(a, b, None, sa, sb, "f32")
    assert d[0, 0] == 64.0 and np.isnan(d[1]).all()
    np.testing.assert_array_equal(mx.dpas_mx(a, b, None, None, None, "f32"), np.full((2, 2), 32.0, np.float32))


def test_scales_that_do_not_fit_are_rejected_with_the_shapes() -> None:
    a = np.ones((8, 64), ml_dtypes.float8_e5m2)
    b = np.ones((64, 16), ml_dtypes.float8_e5m2)
    with pytest.raises(ValueError, match=r"do not fit \[M, KS\] = \[8, 2\]"):
        mx.dpas_mx(a, b, None, np.zeros((8, 2), np.uint8), np.zeros((1, 16), np.uint8), "f32")
    with pytest.raises(ValueError, match="K = 64 is not a multiple of the 3 scale blocks"):
        mx.dpas_mx(a, b, None, np.zeros((8, 3), np.uint8), np.zeros((3, 16), np.uint8), "f32")


def test_wide_range_e5m2_data_take_the_python_integer_path_and_stay_exact() -> None:
    """Values from 2^-16 to 57344 (E5M2's whole range): the block sums need more than 62 bits, so the model sums
    Python integers; the result is still the exactly rounded one."""
    rng = np.random.default_rng(5)
    grid = np.array([2.0 ** -16, -(2.0 ** -14), 0.75, 57344.0, -49152.0, 3.0], np.float32)
    a = rng.choice(grid, (4, 32)).astype(ml_dtypes.float8_e5m2)
    b = rng.choice(grid, (32, 16)).astype(ml_dtypes.float8_e5m2)
    c = np.full((4, 16), 0.1, np.float32)
    sa = np.full((4, 1), 127, np.uint8)
    sb = np.full((1, 16), 100, np.uint8)
    for model in ("exact", "block_f32"):
        got = mx.dpas_mx(a, b, c, sa, sb, "f32", model)
        for i in range(4):
            for j in range(16):
                total = Fraction(float(c[i, j])) + sum(Fraction(float(a[i, k])) * Fraction(float(b[k, j]))
                                                       for k in range(32)) * Fraction(2) ** (100 - 127)
                want = np.float32(float(total))  # float64 first: a double rounding, checked to be harmless below
                if Fraction(float(want)) != total:  # inexact: compare with the neighbours of the exact value
                    lo, hi = np.nextafter(want, np.float32(-np.inf)), np.nextafter(want, np.float32(np.inf))
                    best = min((abs(Fraction(float(x)) - total), x) for x in (lo, want, hi))[1]
                    if model == "exact":
                        assert got[i, j] == best
                else:
                    assert got[i, j] == want
