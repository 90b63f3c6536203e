"""Exact conversions between floating-point formats and integers (ARCHITECTURE.md, Numerics).

Pure functions on numpy values; nothing here knows about the IR.  Every function takes numpy arrays (any
shape; 0-d arrays work) or numpy scalars and returns arrays of the exact destination dtype.

Float -> float (``round_float``)
    The source is widened exactly to float64 (every supported source format is a subset of binary64),
    decomposed into ``(-1)^s * m * 2^e`` with an integer ``m``, and rounded *once* to the destination
    format with integer arithmetic on ``m``; the destination bit pattern is then assembled directly.  No
    step goes through numpy's or ml_dtypes' own narrowing casts, which matters: ml_dtypes converts
    float64 -> bfloat16 through float32 (a double rounding: 1 + 2^-8 + 2^-40 gives 1.0 instead of
    1 + 2^-7).  Rounding modes are MLIR's ``arith`` ``RoundingMode`` names: ``to_nearest_even``,
    ``downward``, ``upward``, ``toward_zero``, ``to_nearest_away`` (IEEE 754-2019 §4.3).
    Overflow follows IEEE 754 §7.4: the round-to-nearest modes give infinity, ``toward_zero`` the largest
    finite value, ``upward``/``downward`` infinity only in their own direction.  Formats without an
    infinity follow LLVM APFloat's rules (``fltNonfiniteBehavior``): NaN-only formats (``f8E4M3FN`` and the
    ``FNUZ`` formats) give NaN where IEEE would give infinity (an infinite input also becomes NaN);
    finite-only formats (``f4E2M1FN``, ``f6E2M3FN``, ``f6E3M2FN``) saturate to the largest finite value.
    ``FNUZ`` formats have no negative zero: a result of -0 is +0.
    NaN: IEEE-like destinations keep the sign and the top payload bits and set the quiet bit (what
    x86 ``cvtsd2ss`` and APFloat do); ``f8E4M3FN`` gives ``S.1111.111``, ``FNUZ`` formats ``0x80``; a
    finite-only destination has no NaN and xesim gives +0 (MLIR leaves it undefined; assumption).

Integer -> float (``int_to_float``)
    Round-to-nearest-even of the exact integer (MLIR ``arith.sitofp``/``uitofp``, LLVM ``sitofp``), done
    with the same integer rounding core, so 64-bit integers are rounded once (converting through float64
    first would round twice: 2^63 + 2^39 + 1 must become 2^63 + 2^40 in f32, not 2^63).

Float -> integer (``float_to_int_sat``)
    Round toward zero, then **saturate** to the destination range; NaN gives 0.  MLIR (``arith.fptosi``,
    ``fptoui``) and LLVM give out-of-range inputs no value (poison).  The rule is the Intel GPU one:
    Intel Graphics PRM (Gen/Xe "EU Overview", *Type Conversion*): "float-to-integer conversion ...
    out-of-range values are saturated to the destination range; NaN converts to 0", which is also what the
    OpenCL ``convert_<int>_sat`` built-ins compiled by IGC produce (a ``mov`` with saturation).
    ``shared/spec/pvc-hardware.md`` does not cover conversions, so this is a documented assumption
    (``FPTOINT_RULE`` below); host code on x86 would give 0x80000000 instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

ROUNDING_MODES = ("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away")
RNE = "to_nearest_even"

FPTOINT_RULE = (
    "float -> integer conversions truncate toward zero, saturate out-of-range values to the integer range "
    "and convert NaN to 0 (Intel GPU mov/convert_sat behaviour; MLIR leaves these cases undefined)"
)


@dataclass(frozen=True)
class FloatFormat:
    """A binary floating-point format.

    ``p`` is the precision in bits (hidden bit included), ``emin``/``emax`` the exponents of the smallest
    and largest normal binades, ``bits`` the format width (the sign is bit ``bits - 1``), ``max_mant`` the
    largest trailing-significand field allowed in the ``emax`` binade, ``nonfinite`` one of ``ieee``
    (infinities and NaNs), ``nan_only`` (NaN = all ones, no infinity), ``fnuz`` (NaN = 0x80, no infinity,
    no negative zero), ``finite`` (neither).  ``shift`` is how far the trailing significand sits above
    bit 0 of the container (13 for tf32 held in a float32 container), ``dtype`` the numpy container."""

    name: str
    p: int
    emin: int
    emax: int
    bits: int
    max_mant: int
    nonfinite: str
    dtype: Any
    shift: int = 0

    @property
    def bias(self) -> int:
        return 1 - self.emin

    @property
    def uint(self) -> Any:
        return np.dtype(f"u{np.dtype(self.dtype).itemsize}")

    @property
    def max_value(self) -> float:
        return float(np.ldexp(float((1 << (self.p - 1)) + self.max_mant), self.emax - (self.p - 1)))


def _fmt(name: str, p: int, emin: int, emax: int, bits: int, nonfinite: str, dtype: Any, max_mant: int | None = None,
         shift: int = 0) -> FloatFormat | None:
    if dtype is None:
        return None
    if max_mant is None:
        max_mant = (1 << (p - 1)) - 1
    return FloatFormat(name, p, emin, emax, bits, max_mant, nonfinite, np.dtype(dtype), shift)


def _md(name: str) -> Any:
    """An ml_dtypes type, or None when the installed ml_dtypes predates it."""
    return getattr(ml_dtypes, name, None)


FORMATS: dict[str, FloatFormat] = {
    f.name: f
    for f in (
        _fmt("f64", 53, -1022, 1023, 64, "ieee", np.float64),
        _fmt("f32", 24, -126, 127, 32, "ieee", np.float32),
        _fmt("tf32", 11, -126, 127, 19, "ieee", np.float32, shift=13),
        _fmt("f16", 11, -14, 15, 16, "ieee", np.float16),
        _fmt("bf16", 8, -126, 127, 16, "ieee", ml_dtypes.bfloat16),
        _fmt("f8E5M2", 3, -14, 15, 8, "ieee", ml_dtypes.float8_e5m2),
        _fmt("f8E4M3", 4, -6, 7, 8, "ieee", _md("float8_e4m3")),
        _fmt("f8E3M4", 5, -2, 3, 8, "ieee", _md("float8_e3m4")),
        _fmt("f8E4M3FN", 4, -6, 8, 8, "nan_only", ml_dtypes.float8_e4m3fn, max_mant=0b110),
        _fmt("f8E4M3FNUZ", 4, -7, 7, 8, "fnuz", ml_dtypes.float8_e4m3fnuz),
        _fmt("f8E5M2FNUZ", 3, -15, 15, 8, "fnuz", ml_dtypes.float8_e5m2fnuz),
        _fmt("f8E4M3B11FNUZ", 4, -10, 4, 8, "fnuz", _md("float8_e4m3b11fnuz")),
        _fmt("f4E2M1FN", 2, 0, 2, 4, "finite", _md("float4_e2m1fn")),
        _fmt("f6E2M3FN", 4, 0, 2, 6, "finite", _md("float6_e2m3fn")),
        _fmt("f6E3M2FN", 3, -2, 4, 6, "finite", _md("float6_e3m2fn")),
    )
    if f is not None
}


def float_format(name: str) -> FloatFormat:
    """The :class:`FloatFormat` of an MLIR float type name (``f32``, ``bf16``, ``f8E4M3FN`` ...)."""
    f = FORMATS.get(name)
    if f is None:
        raise ValueError(f"rounding to {name} is not supported")
    return f


_U64 = np.uint64


def _bit_length(m: np.ndarray) -> np.ndarray:
    """Bit length of each element of a uint64 array (0 for 0)."""
    with np.errstate(all="ignore"):
        est = np.frexp(m.astype(np.float64))[1].astype(np.int64)  # >= true length, too big by at most 1
    sh = np.clip(est - 1, 0, 63).astype(_U64)
    too_big = (est >= 1) & (((m >> sh) == 0) | (est == 65))
    return np.where(too_big, est - 1, est)


def _round_core(neg: np.ndarray, m: np.ndarray, e: np.ndarray, fmt: FloatFormat, mode: str) -> np.ndarray:
    """Round the exact values ``(-1)^neg * m * 2^e`` (``m`` uint64 > 0, ``e`` int64) to ``fmt``.

    Returns the destination bit patterns (uint64, format layout, container shift applied)."""
    if mode not in ROUNDING_MODES:
        raise ValueError(f"unknown rounding mode {mode!r}")
    p = fmt.p
    bl = _bit_length(m)
    E = e + bl - 1  # exponent of the leading bit
    qe = np.maximum(E, fmt.emin) - (p - 1)  # exponent of the destination's last significand bit
    s = qe - e  # number of low bits of m that are dropped
    # exact part (s <= 0): shift left
    left = np.clip(-s, 0, 63).astype(_U64)
    n_exact = m << left
    # rounded part (s > 0)
    sc = np.clip(s, 1, 64)
    sh = np.minimum(sc, 63).astype(_U64)
    q = np.where(sc >= 64, _U64(0), m >> sh)
    r = np.where(sc >= 64, m, m & ((_U64(1) << sh) - _U64(1)))
    half = np.where(sc >= 64, _U64(1 << 63), _U64(1) << (sh - _U64(1)))
    beyond = s > 64  # half = 2^(s-1) > 2^63 > r: strictly below the midpoint
    above = (r > half) & ~beyond
    at = (r == half) & ~beyond
    inexact = r != 0
    if mode == "to_nearest_even":
        inc = above | (at & ((q & _U64(1)) == 1))
    elif mode == "to_nearest_away":
        inc = above | at
    elif mode == "toward_zero":
        inc = np.zeros(q.shape, bool)
    elif mode == "upward":
        inc = inexact & ~neg
    else:  # downward
        inc = inexact & neg
    n = np.where(s > 0, q + inc.astype(_U64), n_exact)  # value = n * 2^qe in both cases
    # carry out of the significand: N = 2^p
    carry = n >= _U64(1 << p)
    n = np.where(carry, n >> _U64(1), n)
    qe = qe + carry
    normal = n >= _U64(1 << (p - 1))
    E_res = qe + (p - 1)
    mant = np.where(normal, n - _U64(1 << (p - 1)), n)
    biased = np.where(normal, E_res + fmt.bias, 0).astype(_U64)
    overflow = normal & ((E_res > fmt.emax) | ((E_res == fmt.emax) & (mant > _U64(fmt.max_mant))))
    sign = neg.astype(_U64) << _U64(fmt.bits - 1)
    zero = n == 0
    mant_bits = p - 1
    bits = sign | (biased << _U64(mant_bits)) | mant
    if fmt.nonfinite == "fnuz":
        bits = np.where(zero, _U64(0), bits)
    if overflow.any():
        to_inf = {
            "to_nearest_even": np.ones(n.shape, bool),
            "to_nearest_away": np.ones(n.shape, bool),
            "toward_zero": np.zeros(n.shape, bool),
            "upward": ~neg,
            "downward": neg,
        }[mode]
        big = _special_bits(fmt, neg, "inf")
        maxf = sign | (_U64(fmt.emax + fmt.bias) << _U64(mant_bits)) | _U64(fmt.max_mant)
        bits = np.where(overflow, np.where(to_inf, big, maxf), bits)
    return bits << _U64(fmt.shift)


def _special_bits(fmt: FloatFormat, neg: np.ndarray, what: str, payload: np.ndarray | None = None) -> np.ndarray:
    """Bit patterns (before the container shift) of infinity (``what='inf'``, the format's substitute
    when it has none) or NaN (with the top bits of a float64 NaN ``payload``)."""
    mb = fmt.p - 1
    sign = neg.astype(_U64) << _U64(fmt.bits - 1)
    exp_all = _U64((1 << (fmt.bits - 1 - mb)) - 1) << _U64(mb)
    maxf = sign | (_U64(fmt.emax + fmt.bias) << _U64(mb)) | _U64(fmt.max_mant)
    if what == "inf":
        if fmt.nonfinite == "ieee":
            return sign | exp_all
        if fmt.nonfinite == "finite":
            return maxf
        what = "nan"
    # NaN
    if fmt.nonfinite == "ieee":
        top = np.zeros(neg.shape, _U64) if payload is None else (payload >> _U64(52 - mb))
        return sign | exp_all | top | _U64(1 << (mb - 1))
    if fmt.nonfinite == "nan_only":
        return sign | exp_all | _U64((1 << mb) - 1)
    if fmt.nonfinite == "fnuz":
        return np.full(neg.shape, _U64(1 << (fmt.bits - 1)))
    return np.zeros(neg.shape, _U64)  # finite-only formats have no NaN: +0 (documented assumption)


def _to_dtype(bits: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    return np.asarray(np.asarray(bits).astype(fmt.uint)).view(fmt.dtype)


def round_scaled(neg: Any, m: Any, e: Any, dst: str, mode: str = RNE) -> np.ndarray:
    """Round the exact values ``(-1)^neg * m * 2^e`` (``m``: positive integers below 2^64) to ``dst``."""
    fmt = float_format(dst)
    bits = _round_core(np.asarray(neg, bool), np.asarray(m, np.uint64), np.asarray(e, np.int64), fmt, mode)
    return _to_dtype(bits, fmt)


E8M0 = "f8E8M0FNU"


def e8m0_codes_apfloat(x: Any) -> np.ndarray:
    """E8M0 codes (``uint8``) of float values by APFloat's rule (shared/spec/upstream-xegpu-xevm.md §5.2 A): the
    magnitude rounded to the nearest power of two — a tie (``1.5·2^k``) goes up, the 1-bit significand being always
    odd — clamped to ``[2^-127, 2^127]``; zero gives ``0x00`` (``2^-127``: the format has no zero), Inf and NaN
    ``0xFF``.  Negative inputs are not settled upstream: the magnitude is used (assumption)."""
    with np.errstate(all="ignore"):
        d = np.abs(np.asarray(x).astype(np.float64))
    bad = ~np.isfinite(d)
    pos = (d > 0) & ~bad
    mant, exp = np.frexp(np.where(pos, d, 1.0))  # d = mant · 2^exp, mant in [0.5, 1)
    k = exp.astype(np.int64) - 1 + (2.0 * mant >= 1.5)  # nearest power of two 2^k, ties up
    code = np.where(pos, np.clip(k + 127, 0, 254), 0)
    return np.where(bad, 0xFF, code).astype(np.uint8)


def round_float(x: Any, dst: str, mode: str = RNE) -> np.ndarray:
    """Round float values ``x`` (any supported float dtype) to format ``dst`` with ``mode``; exact.  ``f8E8M0FNU``
    (round to nearest only) follows :func:`e8m0_codes_apfloat`."""
    if dst == E8M0 and _md("float8_e8m0fnu") is not None:
        if mode != RNE:
            raise ValueError(f"rounding mode {mode} to {E8M0} is not modelled (only to_nearest_even)")
        return e8m0_codes_apfloat(x).view(_md("float8_e8m0fnu"))
    fmt = float_format(dst)
    a = np.asarray(x)
    with np.errstate(all="ignore"):
        d = a.astype(np.float64)
    bits = d.view(np.uint64)
    neg = (bits >> _U64(63)).astype(bool)
    expf = ((bits >> _U64(52)) & _U64(0x7FF)).astype(np.int64)
    frac = bits & _U64((1 << 52) - 1)
    is_nan = (expf == 0x7FF) & (frac != 0)
    is_inf = (expf == 0x7FF) & (frac == 0)
    is_zero = (expf == 0) & (frac == 0)
    special = is_nan | is_inf | is_zero
    m = np.where(expf == 0, frac, frac | _U64(1 << 52))
    m = np.where(special, _U64(1), m)
    e = np.where(expf == 0, -1074, expf - 1075)
    out = _round_core(neg, m, e, fmt, mode)
    if special.any():
        sh = _U64(fmt.shift)
        zero_bits = np.where(neg & (fmt.nonfinite != "fnuz"), _U64(1 << (fmt.bits - 1)), _U64(0))
        out = np.where(is_zero, zero_bits << sh, out)
        out = np.where(is_inf, _special_bits(fmt, neg, "inf") << sh, out)
        out = np.where(is_nan, _special_bits(fmt, neg, "nan", frac | _U64(1 << 51)) << sh, out)
    return _to_dtype(out, fmt)


def int_to_float(x: Any, signed: bool, dst: str, mode: str = RNE, width: int = 64) -> np.ndarray:
    """Convert integers to format ``dst`` with one rounding (``arith.sitofp``/``uitofp``: RNE).

    ``x`` is an integer array (or Python int / nested list) holding values of a ``width``-bit integer;
    ``signed`` selects how the bits are read (two's complement or unsigned)."""
    fmt = float_format(dst)
    a = np.asarray(x)
    if a.dtype == object or a.dtype.kind not in "iub":
        a = np.vectorize(lambda v: int(v) & ((1 << 64) - 1), otypes=[np.uint64])(a) if a.size else a.astype(np.uint64)
    u = a.astype(np.int64).view(np.uint64) if a.dtype.kind in "ib" else a.astype(np.uint64)
    mask = _U64((1 << width) - 1) if width < 64 else _U64((1 << 64) - 1)
    u = u & mask
    if signed:
        top = _U64(1 << (width - 1))
        neg = (u & top) != 0
        mag = np.where(neg, ((~u) + _U64(1)) & mask, u)  # two's complement magnitude (MIN -> 2^(w-1))
    else:
        neg = np.zeros(u.shape, bool)
        mag = u
    zero = mag == 0
    out = _round_core(neg, np.where(zero, _U64(1), mag), np.zeros(u.shape, np.int64), fmt, mode)
    out = np.where(zero, _U64(0), out)
    return _to_dtype(out, fmt)


def float_to_int_sat(x: Any, width: int, signed: bool) -> np.ndarray:
    """Truncate floats toward zero and saturate to the ``width``-bit signed/unsigned range; NaN -> 0.

    Returns int64 (signed) or uint64 (unsigned) values; see :data:`FPTOINT_RULE` for the source."""
    with np.errstate(all="ignore"):
        d = np.asarray(x).astype(np.float64)
        t = np.trunc(d)
    if signed:
        lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
    else:
        lo, hi = 0, (1 << width) - 1
    nan = np.isnan(t)
    below = t < float(lo)  # lo is a power of two (or 0): exact in float64
    above = t >= float(hi + 1)  # hi + 1 is a power of two: exact
    safe = np.where(nan | below | above, 0.0, t)
    if signed:
        res = safe.astype(np.int64)
        res = np.where(below, np.int64(lo), res)
        res = np.where(above, np.int64(hi), res)
        return np.where(nan, np.int64(0), res)
    res = safe.astype(np.uint64)
    res = np.where(below, _U64(0), res)
    res = np.where(above, _U64(hi), res)
    return np.where(nan, _U64(0), res)


def float_to_int_scalar(v: float, width: int, signed: bool) -> int:
    """Scalar :func:`float_to_int_sat` on a Python float, returning a Python int in the unsigned or signed
    range (``signed`` picks both the interpretation and the returned representation)."""
    if v != v:
        return 0
    if signed:
        lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
    else:
        lo, hi = 0, (1 << width) - 1
    if v == float("inf"):
        return hi
    if v == float("-inf"):
        return lo
    t = int(v)  # truncation toward zero, exact for any finite float
    return lo if t < lo else hi if t > hi else t


def extend_float(x: Any, dst: str) -> np.ndarray:
    """Widen floats exactly (``arith.extf``): every value of a narrower format is a value of ``dst``."""
    fmt = float_format(dst)
    a = np.asarray(x)
    if fmt.name == "f64":
        with np.errstate(all="ignore"):
            return a.astype(np.float64)
    if fmt.name == "f32" and a.dtype in (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)):
        with np.errstate(all="ignore"):
            return a.astype(np.float32)  # exact widening (f16/bf16 are subsets of f32)
    return round_float(a, dst, RNE)  # no rounding happens: the values are representable


def float_bits(x: Any) -> np.ndarray:
    """The bit patterns of a float array as unsigned integers of the container width."""
    a = np.asarray(x)
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


def from_bits(bits: Any, dst: str) -> np.ndarray:
    """Float values of format ``dst`` from their bit patterns (container layout)."""
    fmt = float_format(dst)
    return np.asarray(bits).astype(fmt.uint).view(fmt.dtype)
