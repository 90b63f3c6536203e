"""Conversions (xesim/numerics/conversions.py and the arith cast ops) against exact rational arithmetic.

The reference rounds a ``fractions.Fraction`` to a format described by hand below (precision, exponent
range, largest finite value, non-finite behaviour), following IEEE 754-2019 §4.3 (rounding) and §7.4
(overflow), with LLVM APFloat's rules for formats without infinities.  Inputs are random bit patterns
(so NaN, infinities, signed zeros and subnormals all occur) plus values constructed next to rounding
midpoints, where a double rounding would show.
"""

from __future__ import annotations

import io
import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from xesim.api import make_engine
from xesim.ir.parser import parse_source
from xesim.numerics import conversions as C  # noqa: N812 - short alias
from xesim.verify.structural import verify_module

MODES = ["to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away"]

# name: (precision p incl. hidden bit, emin, emax, largest finite value, non-finite kind, numpy dtype)
FMT = {
    "f64": (53, -1022, 1023, None, "ieee", np.float64),
    "f32": (24, -126, 127, None, "ieee", np.float32),
    "tf32": (11, -126, 127, None, "ieee", np.float32),
    "f16": (11, -14, 15, None, "ieee", np.float16),
    "bf16": (8, -126, 127, None, "ieee", ml_dtypes.bfloat16),
    "f8E5M2": (3, -14, 15, None, "ieee", ml_dtypes.float8_e5m2),
    "f8E4M3FN": (4, -6, 8, Fraction(448), "nan_only", ml_dtypes.float8_e4m3fn),
    "f8E4M3FNUZ": (4, -7, 7, Fraction(240), "fnuz", ml_dtypes.float8_e4m3fnuz),
    "f8E5M2FNUZ": (3, -15, 15, Fraction(57344), "fnuz", ml_dtypes.float8_e5m2fnuz),
    "f4E2M1FN": (2, 0, 2, Fraction(6), "finite", ml_dtypes.float4_e2m1fn),
}


def max_finite(name: str) -> Fraction:
    p, _, emax, mx, _, _ = FMT[name]
    if mx is not None:
        return mx
    return (2 - Fraction(1, 2 ** (p - 1))) * Fraction(2) ** emax


# --------------------------------------------------------------------------- reference


def decode(v) -> tuple:
    """('nan',) | ('inf', negative) | ('fin', Fraction, signbit) of a numpy float value (exact)."""
    with np.errstate(all="ignore"):
        f = float(np.asarray(v).astype(np.float64))
    if math.isnan(f):
        return ("nan",)
    if math.isinf(f):
        return ("inf", f < 0)
    return ("fin", Fraction(f), math.copysign(1.0, f) < 0)


def ref_zero(name: str, neg: bool) -> tuple:
    return ("fin", Fraction(0), neg and FMT[name][4] != "fnuz")


def ref_special(name: str, kind: str, neg: bool) -> tuple:
    """An infinity (or the format's substitute) or a NaN."""
    nf = FMT[name][4]
    if kind == "nan" or nf in ("nan_only", "fnuz"):
        return ("nan",) if nf != "finite" else ("fin", Fraction(0), False)
    if nf == "finite":
        m = max_finite(name)
        return ("fin", -m if neg else m, neg)
    return ("inf", neg)


def ref_round(x: Fraction, name: str, mode: str, neg_zero: bool = False) -> tuple:
    """Round the exact value ``x`` to format ``name`` (``neg_zero``: sign of an exact zero)."""
    p, emin, _, _, nf, _ = FMT[name]
    if x == 0:
        return ref_zero(name, neg_zero)
    neg = x < 0
    a = -x if neg else x
    E = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** E > a:
        E -= 1
    while Fraction(2) ** (E + 1) <= a:
        E += 1
    q = Fraction(2) ** (max(E, emin) - (p - 1))
    n = a / q
    fl = n.numerator // n.denominator
    rem = n - fl
    half = Fraction(1, 2)
    up = {
        "to_nearest_even": rem > half or (rem == half and fl % 2 == 1),
        "to_nearest_away": rem >= half,
        "toward_zero": False,
        "upward": rem > 0 and not neg,
        "downward": rem > 0 and neg,
    }[mode]
    r = (fl + up) * q
    mx = max_finite(name)
    if r > mx:
        to_inf = mode in ("to_nearest_even", "to_nearest_away") or (mode == "upward" and not neg) or (
            mode == "downward" and neg)
        if to_inf:
            return ref_special(name, "inf", neg)
        return ("fin", -mx if neg else mx, neg)
    if r == 0:
        return ref_zero(name, neg)
    return ("fin", -r if neg else r, neg)


def ref_convert(v, name: str, mode: str) -> tuple:
    d = decode(v)
    if d[0] == "nan":
        return ref_special(name, "nan", False)
    if d[0] == "inf":
        return ref_special(name, "inf", d[1])
    return ref_round(d[1], name, mode, d[2])


def check_same(got, ref: tuple, what: str) -> None:
    g = decode(got)
    assert g == ref, f"{what}: got {g}, expected {ref}"


def of_bits(bits, dtype):
    dt = np.dtype(dtype)
    return np.array(bits, dtype=np.uint64).astype(f"u{dt.itemsize}").view(dt)


# --------------------------------------------------------------------------- format table


@pytest.mark.parametrize("name", [n for n in FMT if n not in ("tf32",)])
def test_format_parameters_match_ml_dtypes(name):
    p, emin, _, _, _, dt = FMT[name]
    fi = ml_dtypes.finfo(dt)
    assert Fraction(float(fi.max)) == max_finite(name)
    assert Fraction(float(fi.smallest_normal)) == Fraction(2) ** emin
    assert C.float_format(name).max_value == float(max_finite(name))


def test_known_values():
    # Hand-derived: 1 + 2^-8 + 2^-40 is just above the bf16 midpoint between 1 and 1 + 2^-7.
    x = np.float64(1 + 2**-8 + 2**-40)
    assert float(C.round_float(x, "bf16")) == 1 + 2**-7
    # exact midpoint: ties to even (1.0), or away (1 + 2^-7)
    m = np.float64(1 + 2**-8)
    assert float(C.round_float(m, "bf16")) == 1.0
    assert float(C.round_float(m, "bf16", "to_nearest_away")) == 1 + 2**-7
    # f16 overflow: 65520 is the midpoint between 65504 and 2^16
    assert np.isinf(C.round_float(np.float32(65520), "f16"))
    assert float(C.round_float(np.float32(65519), "f16")) == 65504
    assert float(C.round_float(np.float32(1e9), "f16", "toward_zero")) == 65504
    assert float(C.round_float(np.float32(-1e9), "f16", "upward")) == -65504
    assert np.isneginf(C.round_float(np.float32(-1e9), "f16", "downward"))
    # e4m3fn: 464 is a tie between 448 and 480 (NaN encoding) -> 448; 470 overflows -> NaN
    assert float(C.round_float(np.float32(464), "f8E4M3FN")) == 448
    assert np.isnan(C.round_float(np.float32(470), "f8E4M3FN"))
    # the smallest f16 subnormal is 2^-24; 2^-26 rounds to 0 (RNE) or up to 2^-24 (upward)
    assert float(C.round_float(np.float32(2**-26), "f16")) == 0.0
    assert float(C.round_float(np.float32(2**-26), "f16", "upward")) == 2**-24
    assert np.signbit(C.round_float(np.float32(-(2**-26)), "f16"))
    # tf32 keeps 10 fraction bits in an f32 container
    t = C.round_float(np.float32(1 + 2**-11 + 2**-20), "tf32")
    assert float(t) == 1 + 2**-10 and t.dtype == np.float32
    # 2^63 + 2^39 + 1 must round once (to 2^63 + 2^40), not via float64 (which gives 2^63)
    assert float(C.int_to_float(np.uint64(2**63 + 2**39 + 1), False, "f32")) == 2.0**63 + 2.0**40


def test_nan_payload_and_sign():
    x = of_bits([0xFFC00123], np.float32)  # negative quiet NaN with a payload
    r = C.round_float(x, "f16")
    assert int(r.view(np.uint16)[0]) & 0xFE00 == 0xFE00  # sign, exponent all ones, quiet bit
    assert int(C.round_float(x, "f8E4M3FN").view(np.uint8)[0]) == 0xFF
    assert int(C.round_float(x, "f8E5M2FNUZ").view(np.uint8)[0]) == 0x80


# --------------------------------------------------------------------------- float -> float

NARROW_FROM_F32 = ["f16", "bf16", "tf32", "f8E5M2", "f8E4M3FN", "f8E4M3FNUZ", "f8E5M2FNUZ", "f4E2M1FN"]
u32s = st.integers(0, 2**32 - 1)
u64s = st.integers(0, 2**64 - 1)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(u32s, min_size=1, max_size=32), st.sampled_from(NARROW_FROM_F32), st.sampled_from(MODES))
@example([0x7F800000, 0xFF800000, 0x80000000, 0, 0x7FC00000, 1, 0x807FFFFF, 0x477FF000, 0x477FEFFF], "f16",
         "to_nearest_even")
def test_truncf_from_f32_all_modes(bits, dst, mode):
    x = of_bits(bits, np.float32)
    got = C.round_float(x, dst, mode)
    assert got.dtype == np.dtype(FMT[dst][5])
    for xi, gi in zip(x, got):
        check_same(gi, ref_convert(xi, dst, mode), f"{float(xi)!r} -> {dst} {mode}")


@settings(max_examples=300, deadline=None)
@given(st.lists(u64s, min_size=1, max_size=32), st.sampled_from(["f32", "f16", "bf16"]), st.sampled_from(MODES))
def test_truncf_from_f64_all_modes(bits, dst, mode):
    x = of_bits(bits, np.float64)
    got = C.round_float(x, dst, mode)
    for xi, gi in zip(x, got):
        check_same(gi, ref_convert(xi, dst, mode), f"{float(xi)!r} -> {dst} {mode}")


def near_midpoints(dst: str):
    """f64 values at, just below and just above the midpoint between two consecutive ``dst`` values."""
    p, emin, emax, _, _, _ = FMT[dst]

    @st.composite
    def strat(draw):
        e = draw(st.integers(emin - p, emax))
        mant = draw(st.integers(2 ** (p - 1), 2**p - 1))
        delta = draw(st.sampled_from([0, 1, -1]))
        scale = draw(st.integers(1, 20))
        neg = draw(st.booleans())
        mid = (Fraction(2 * mant + 1, 2)) * Fraction(2) ** (e - (p - 1))
        x = mid + delta * mid / Fraction(2) ** (52 - scale)
        f = float(x)
        return -f if neg else f

    return strat()


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["f16", "bf16", "f32"]).flatmap(lambda d: st.tuples(st.just(d), near_midpoints(d))),
       st.sampled_from(MODES))
def test_truncf_near_midpoints(dst_x, mode):
    dst, xf = dst_x
    x = np.float64(xf)
    check_same(C.round_float(x, dst, mode)[()], ref_convert(x, dst, mode), f"{xf!r} -> {dst} {mode}")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**16 - 1), min_size=1, max_size=32), st.sampled_from(["f16", "bf16"]),
       st.sampled_from(["f32", "f64"]))
def test_extf_exact(bits, src, dst):
    x = of_bits(bits, FMT[src][5])
    got = C.extend_float(x, dst)
    assert got.dtype == np.dtype(FMT[dst][5])
    for xi, gi in zip(x, got):
        d = decode(xi)
        g = decode(gi)
        assert g == d or (d[0] == "nan" and g[0] == "nan")


@pytest.mark.parametrize("src", ["f8E5M2", "f8E4M3FN", "f8E4M3FNUZ", "f8E5M2FNUZ", "f4E2M1FN"])
def test_extf_small_formats_exhaustive(src):
    n = 16 if src == "f4E2M1FN" else 256
    x = of_bits(list(range(n)), FMT[src][5])
    for dst in ("f16", "bf16", "f32"):
        got = C.extend_float(x, dst)
        for xi, gi in zip(x, got):
            d, g = decode(xi), decode(gi)
            assert g == d or (d[0] == "nan" and g[0] == "nan"), (src, dst, d, g)


# --------------------------------------------------------------------------- int -> float

INT_EDGES = [0, 1, -1, 2**24 + 1, 2**53 + 1, -(2**63), 2**63 - 1, 2**31 - 1, -(2**31), 65519, 65520, 2**30 + 2**22 + 1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=32), st.sampled_from(["f16", "bf16", "f32", "f64"]))
@example(INT_EDGES, "bf16")
@example(INT_EDGES, "f32")
def test_sitofp_i64(vals, dst):
    got = C.int_to_float(np.array(vals, np.int64), True, dst)
    for v, g in zip(vals, got):
        check_same(g, ref_round(Fraction(v), dst, "to_nearest_even"), f"{v} -> {dst}")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=32), st.sampled_from(["f16", "bf16", "f32", "f64"]))
@example([2**64 - 1, 2**63 + 2**39 + 1, 2**63], "f32")
def test_uitofp_u64(vals, dst):
    got = C.int_to_float(np.array(vals, np.uint64), False, dst)
    for v, g in zip(vals, got):
        check_same(g, ref_round(Fraction(v), dst, "to_nearest_even"), f"{v} -> {dst}")


# --------------------------------------------------------------------------- float -> int


def ref_fptoi(v, width: int, signed: bool) -> int:
    lo, hi = (-(2 ** (width - 1)), 2 ** (width - 1) - 1) if signed else (0, 2**width - 1)
    d = decode(v)
    if d[0] == "nan":
        return 0
    if d[0] == "inf":
        return lo if d[1] else hi
    x = d[1]
    t = math.trunc(x)  # Fraction truncation toward zero
    return min(max(t, lo), hi)


@settings(max_examples=300, deadline=None)
@given(st.lists(u32s, min_size=1, max_size=32), st.sampled_from([8, 16, 32, 64]), st.booleans())
@example([0x7FC00000, 0x7F800000, 0xFF800000, 0x4F000000, 0xCF000000, 0xBF7FFFFF, 0x5F000000], 32, True)
@example([0x7FC00000, 0xBF7FFFFF, 0x5F800000, 0x5F7FFFFF], 64, False)
def test_fptoi_saturates(bits, width, signed):
    x = of_bits(bits, np.float32)
    got = C.float_to_int_sat(x, width, signed)
    for xi, gi in zip(x, got):
        assert int(gi) == ref_fptoi(xi, width, signed), float(xi)
        assert C.float_to_int_scalar(float(xi), width, signed) == ref_fptoi(xi, width, signed)


# --------------------------------------------------------------------------- the arith cast ops

CAST_SRC = """
func.func @trunc16(%x: f32, %v: vector<4xf32>) -> (f16, f16, f16, f16, f16, vector<4xf16>, vector<4xf16>) {
  %a = arith.truncf %x : f32 to f16
  %b = arith.truncf %x downward : f32 to f16
  %c = arith.truncf %x upward : f32 to f16
  %d = arith.truncf %x toward_zero : f32 to f16
  %e = arith.truncf %x to_nearest_away : f32 to f16
  %f = arith.truncf %v : vector<4xf32> to vector<4xf16>
  %g = arith.truncf %v toward_zero : vector<4xf32> to vector<4xf16>
  return %a, %b, %c, %d, %e, %f, %g : f16, f16, f16, f16, f16, vector<4xf16>, vector<4xf16>
}
func.func @truncbf(%x: f64, %y: f32, %v: vector<4xf64>) -> (bf16, bf16, bf16, vector<4xbf16>, f16, f32, vector<4xf16>, vector<4xf32>) {
  %a = arith.truncf %x : f64 to bf16
  %b = arith.truncf %y : f32 to bf16
  %c = arith.truncf %x upward : f64 to bf16
  %d = arith.truncf %v : vector<4xf64> to vector<4xbf16>
  %e = arith.truncf %x : f64 to f16
  %f = arith.truncf %x : f64 to f32
  %g = arith.truncf %v : vector<4xf64> to vector<4xf16>
  %h = arith.truncf %v : vector<4xf64> to vector<4xf32>
  return %a, %b, %c, %d, %e, %f, %g, %h : bf16, bf16, bf16, vector<4xbf16>, f16, f32, vector<4xf16>, vector<4xf32>
}
func.func @itof(%i: i32, %j: i64, %v: vector<4xi64>, %w: vector<4xi32>) -> (f32, f16, bf16, f32, bf16, f32, vector<4xbf16>, vector<4xf32>, f64) {
  %a = arith.sitofp %i : i32 to f32
  %b = arith.sitofp %i : i32 to f16
  %c = arith.sitofp %i : i32 to bf16
  %d = arith.uitofp %i : i32 to f32
  %e = arith.sitofp %j : i64 to bf16
  %f = arith.uitofp %j : i64 to f32
  %g = arith.sitofp %v : vector<4xi64> to vector<4xbf16>
  %h = arith.uitofp %w : vector<4xi32> to vector<4xf32>
  %k = arith.sitofp %j : i64 to f64
  return %a, %b, %c, %d, %e, %f, %g, %h, %k : f32, f16, bf16, f32, bf16, f32, vector<4xbf16>, vector<4xf32>, f64
}
func.func @ftoi(%x: f32, %h: f16, %v: vector<4xf32>) -> (i32, i8, i32, i8, i64, i16, vector<4xi8>, vector<4xi8>, i1) {
  %a = arith.fptosi %x : f32 to i32
  %b = arith.fptosi %x : f32 to i8
  %c = arith.fptoui %x : f32 to i32
  %d = arith.fptoui %x : f32 to i8
  %e = arith.fptosi %x : f32 to i64
  %f = arith.fptosi %h : f16 to i16
  %g = arith.fptosi %v : vector<4xf32> to vector<4xi8>
  %k = arith.fptoui %v : vector<4xf32> to vector<4xi8>
  %l = arith.fptosi %x : f32 to i1
  return %a, %b, %c, %d, %e, %f, %g, %k, %l : i32, i8, i32, i8, i64, i16, vector<4xi8>, vector<4xi8>, i1
}
"""


@pytest.fixture(scope="module")
def cast_engine():
    m = parse_source(CAST_SRC, "casts.mlir")
    verify_module(m)
    return make_engine(m, out=io.StringIO())


def _wrapped(v: int, width: int) -> int:
    """Stored form of a signless integer: the signed value (i1: 0/1)."""
    v &= (1 << width) - 1
    if width > 1 and v >= 1 << (width - 1):
        v -= 1 << width
    return v


@settings(max_examples=150, deadline=None)
@given(st.lists(u32s, min_size=5, max_size=5))
def test_truncf_op_modes(cast_engine, bits):
    xs = of_bits(bits, np.float32)
    a, b, c, d, e, f, g = cast_engine.run("trunc16", [xs[0], xs[1:]])
    for got, mode in zip((a, b, c, d, e), MODES):
        assert isinstance(got, np.float16)
        check_same(got, ref_convert(xs[0], "f16", mode), mode)
    for i in range(4):
        check_same(f[i], ref_convert(xs[1 + i], "f16", "to_nearest_even"), "vector")
        check_same(g[i], ref_convert(xs[1 + i], "f16", "toward_zero"), "vector rtz")


@settings(max_examples=150, deadline=None)
@given(st.lists(u64s, min_size=5, max_size=5), u32s)
@example([int(np.float64(1 + 2**-8 + 2**-40).view(np.uint64))] * 5, 0x3F808000)
def test_truncf_op_bf16(cast_engine, bits, b32):
    xs = of_bits(bits, np.float64)
    y = of_bits([b32], np.float32)[0]
    a, b, c, d, e, f, g, h = cast_engine.run("truncbf", [xs[0], y, xs[1:]])
    R = "to_nearest_even"
    check_same(a, ref_convert(xs[0], "bf16", R), "f64->bf16")
    check_same(b, ref_convert(y, "bf16", R), "f32->bf16")
    check_same(c, ref_convert(xs[0], "bf16", "upward"), "f64->bf16 up")
    check_same(e, ref_convert(xs[0], "f16", R), "f64->f16")
    check_same(f, ref_convert(xs[0], "f32", R), "f64->f32")
    for i in range(4):
        check_same(d[i], ref_convert(xs[1 + i], "bf16", R), "vector")
        check_same(g[i], ref_convert(xs[1 + i], "f16", R), "vector f64->f16")
        check_same(h[i], ref_convert(xs[1 + i], "f32", R), "vector f64->f32")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["f16", "bf16", "f32"]).flatmap(lambda d: near_midpoints(d)))
def test_truncf_op_near_midpoints(cast_engine, xf):
    x = np.float64(xf)
    a, b, c, d, e, f, g, h = cast_engine.run("truncbf", [x, np.float32(0), np.full(4, x)])
    R = "to_nearest_even"
    check_same(a, ref_convert(x, "bf16", R), "f64->bf16")
    check_same(e, ref_convert(x, "f16", R), "f64->f16")
    check_same(f, ref_convert(x, "f32", R), "f64->f32")
    check_same(d[0], ref_convert(x, "bf16", R), "vector f64->bf16")
    check_same(g[0], ref_convert(x, "f16", R), "vector f64->f16")
    check_same(h[0], ref_convert(x, "f32", R), "vector f64->f32")


@settings(max_examples=150, deadline=None)
@given(st.integers(-(2**31), 2**31 - 1), st.integers(-(2**63), 2**63 - 1),
       st.lists(st.integers(-(2**63), 2**63 - 1), min_size=4, max_size=4),
       st.lists(st.integers(-(2**31), 2**31 - 1), min_size=4, max_size=4))
@example(2**30 + 2**22 + 1, 2**62 + 2**38 + 1, [2**30 + 2**22 + 1, -(2**63), 0, -1], [-1, 0, 16777217, -(2**31)])
def test_itofp_ops(cast_engine, i, j, v, w):
    a, b, c, d, e, f, g, h, k = cast_engine.run("itof", [i, j, np.array(v, np.int64), np.array(w, np.int32)])
    R = "to_nearest_even"
    check_same(a, ref_round(Fraction(i), "f32", R), "sitofp f32")
    check_same(b, ref_round(Fraction(i), "f16", R), "sitofp f16")
    check_same(c, ref_round(Fraction(i), "bf16", R), "sitofp bf16")
    check_same(d, ref_round(Fraction(i % 2**32), "f32", R), "uitofp f32")
    check_same(e, ref_round(Fraction(j), "bf16", R), "sitofp i64 bf16")
    check_same(f, ref_round(Fraction(j % 2**64), "f32", R), "uitofp i64 f32")
    check_same(k, ref_round(Fraction(j), "f64", R), "sitofp i64 f64")
    for n in range(4):
        check_same(g[n], ref_round(Fraction(v[n]), "bf16", R), "vector sitofp")
        check_same(h[n], ref_round(Fraction(w[n] % 2**32), "f32", R), "vector uitofp")


@settings(max_examples=150, deadline=None)
@given(st.lists(u32s, min_size=5, max_size=5), st.integers(0, 2**16 - 1))
@example([0x7FC00000, 0x7F800000, 0xFF800000, 0x4F000000, 0xC3000000], 0x7C00)
def test_fptoi_ops(cast_engine, bits, hbits):
    xs = of_bits(bits, np.float32)
    h = of_bits([hbits], np.float16)[0]
    a, b, c, d, e, f, g, k, l1 = cast_engine.run("ftoi", [xs[0], h, xs[1:]])
    x = xs[0]
    assert a == ref_fptoi(x, 32, True)
    assert b == ref_fptoi(x, 8, True)
    assert c == _wrapped(ref_fptoi(x, 32, False), 32)
    assert d == _wrapped(ref_fptoi(x, 8, False), 8)
    assert e == ref_fptoi(x, 64, True)
    assert f == ref_fptoi(h, 16, True)
    assert l1 == _wrapped(ref_fptoi(x, 1, True), 1)
    assert g.dtype == np.int8 and k.dtype == np.int8
    for n in range(4):
        assert int(g[n]) == ref_fptoi(xs[1 + n], 8, True)
        assert int(k[n]) == _wrapped(ref_fptoi(xs[1 + n], 8, False), 8)
