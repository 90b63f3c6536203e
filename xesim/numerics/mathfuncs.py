"""Math functions and the IEEE operations that are not a single numpy ufunc (ARCHITECTURE.md, Numerics).

Pure functions on numpy arrays / Python floats; nothing here knows about the IR.

Accuracy of the transcendental functions (exp, exp2, expm1, log, log2, log10, log1p, rsqrt, cbrt, sin, cos,
tan, atan, atan2, tanh, erf, powf, fpowi) -- an **assumption**, not bit-exact to the hardware:
    Each is evaluated in float64 and the float64 result is rounded *once* (round-to-nearest-even) to the
    destination type.  The float64 value comes from the host's C math library (glibc's ``exp``, ``log``, ...,
    within about one float64 ulp of the exact value) called from numba-compiled code (:data:`LIBM_UNARY`,
    :data:`LIBM_BINARY`): the same function on the same machine code path here (numba ufuncs) and in compiled
    host loops (xesim/exec/jit), so both engines give the same bits; ``cbrt`` and ``fpowi`` use numpy.  For
    f32/f16/bf16 this is the correctly rounded result unless the exact value lies within about a float64 ulp
    of a rounding boundary of the destination format (for f32 a relative window of about 2^-52 around each
    midpoint); for f64 the error is libm's.  Intel's GPU math library (IGC OpenCL built-ins; OpenCL C §7.4
    allows e.g. 3 ulp for ``exp`` in f32, more for ``native_*``/fast-math variants) can differ from xesim by
    a few ulp.  ``rsqrt`` is ``1 / sqrt(x)`` in float64 (two IEEE float64 roundings) then rounded once.

Correctly rounded (exact) operations:
    ``sqrt``: float64 sqrt is correctly rounded (IEEE 754), and for p <= 24 rounding the float64 result
    to the p-bit type is correctly rounded because 53 >= 2p + 2 (Figueroa, "When is double rounding
    innocuous?", 1995; the theorem covers +, -, *, / and sqrt).  ``fma``: one rounding of the exact
    ``a * b + c`` (see :func:`fma`).  ``floor``, ``ceil``, ``trunc``, ``round`` (half away from zero),
    ``roundeven``, ``absf``, ``copysign``, ``fmod`` (``arith.remf``): their results are representable, so they
    are exact.  NaN inputs propagate (NaN in, NaN out).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from xesim.numerics.conversions import RNE, float_format, round_float, round_scaled


def f64(x: Any) -> np.ndarray:
    """Exact widening to float64 (quietly: numpy flags signaling NaNs as 'invalid' on casts)."""
    with np.errstate(all="ignore"):
        return np.asarray(x).astype(np.float64)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    """``math.round``: round half away from zero (exact: ``x - trunc(x)`` is exact for binary floats)."""
    t = np.trunc(x)
    frac = np.abs(x - t)
    return np.where(frac >= 0.5, t + np.copysign(1.0, x), t)


def _rsqrt(x: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(x)


# ----------------------------------------------------------------------- functions of the host's libm
# Plain Python functions of float64 arguments that numba compiles (``math.*`` in nopython mode are calls of the
# C library's functions, with C semantics: no exceptions, NaN or infinity results); compiled host loops inline
# them (xesim/exec/jit/rt.py), the interpreter maps them over arrays as numba ufuncs (:class:`_LibmUfunc`).

def _exp(x: float) -> float:
    return math.exp(x)


def _exp2(x: float) -> float:
    return math.exp2(x)


def _expm1(x: float) -> float:
    return math.expm1(x)


def _log(x: float) -> float:
    return math.log(x)


def _log2(x: float) -> float:
    return math.log2(x)


def _log10(x: float) -> float:
    return math.log10(x)


def _log1p(x: float) -> float:
    return math.log1p(x)


def _sin(x: float) -> float:
    return math.sin(x)


def _cos(x: float) -> float:
    return math.cos(x)


def _tan(x: float) -> float:
    return math.tan(x)


def _atan(x: float) -> float:
    return math.atan(x)


def _tanh(x: float) -> float:
    return math.tanh(x)


def _erf(x: float) -> float:
    return math.erf(x)


def _pow(x: float, y: float) -> float:
    return math.pow(x, y)


def _atan2(y: float, x: float) -> float:
    return math.atan2(y, x)


#: ``math`` dialect functions (op name without ``math.``) evaluated by the host's libm, one and two arguments
LIBM_UNARY: dict[str, Callable[[float], float]] = {
    "exp": _exp, "exp2": _exp2, "expm1": _expm1, "log": _log, "log2": _log2, "log10": _log10, "log1p": _log1p,
    "sin": _sin, "cos": _cos, "tan": _tan, "atan": _atan, "tanh": _tanh, "erf": _erf}
LIBM_BINARY: dict[str, Callable[[float, float], float]] = {"powf": _pow, "atan2": _atan2}


class _LibmUfunc:
    """A :data:`LIBM_UNARY` / :data:`LIBM_BINARY` function mapped over float64 arrays: a numba ufunc made (or
    loaded from numba's cache) on first use, so importing this module compiles nothing."""

    def __init__(self, fn: Callable[..., float], nargs: int) -> None:
        self.fn, self.nargs = fn, nargs
        self.ufunc: Any = None
        self.compiled: Any = None

    def __call__(self, *xs: np.ndarray) -> np.ndarray:
        if self.ufunc is None:
            import numba

            sig = "float64(" + ", ".join(["float64"] * self.nargs) + ")"
            self.ufunc = numba.vectorize([sig], cache=True)(self.fn)
        return self.ufunc(*xs)

    def scalar(self) -> Callable[..., float]:
        """The function compiled by numba for float64 scalars (the very function compiled host loops call:
        ``libm_<name>`` in xesim/exec/jit/rt.py); made on first use."""
        if self.compiled is None:
            import numba

            self.compiled = numba.njit(cache=True)(self.fn)
        return self.compiled


#: Unary functions on float64 arrays, by ``math`` dialect op name (without ``math.``).
UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    **{name: _LibmUfunc(fn, 1) for name, fn in LIBM_UNARY.items()},
    "sqrt": np.sqrt,
    "rsqrt": _rsqrt,
    "cbrt": np.cbrt,
    "floor": np.floor,
    "ceil": np.ceil,
    "trunc": np.trunc,
    "round": _round_half_away,
    "roundeven": np.rint,  # rint rounds with the current mode, which is round-to-nearest-even
}

#: Binary functions on float64 arrays.
BINARY: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    name: _LibmUfunc(fn, 2) for name, fn in LIBM_BINARY.items()}


def narrow(x64: np.ndarray, dst: str) -> np.ndarray:
    """Round float64 values once (RNE) to the float type ``dst`` (exact rounding, see conversions)."""
    if dst == "f64":
        return np.asarray(x64, dtype=np.float64)
    if dst == "f32":
        with np.errstate(all="ignore"):
            return np.asarray(x64, dtype=np.float64).astype(np.float32)  # C cast: correctly rounded (RNE)
    return round_float(x64, dst, RNE)


def unary(name: str, x: Any, dst: str) -> np.ndarray:
    """``math.<name>`` of the float array ``x`` (type ``dst``), computed in float64 and rounded once."""
    fn = UNARY[name]
    with np.errstate(all="ignore"):
        r = fn(f64(x))
    return narrow(r, dst)


def binary(name: str, x: Any, y: Any, dst: str) -> np.ndarray:
    """``math.<name>`` of two float arrays of type ``dst``, computed in float64 and rounded once."""
    fn = BINARY[name]
    with np.errstate(all="ignore"):
        r = fn(f64(x), f64(y))
    return narrow(r, dst)


def fpowi(x: Any, n: Any, dst: str) -> np.ndarray:
    """``math.fpowi``: ``x ** n`` for a signed integer exponent ``n`` (IEEE ``pown``): ``|x| ** n`` in float64
    with the sign of ``x`` when ``n`` is odd, then one rounding.  (LLVM's ``powi`` multiplies repeatedly
    in the type, so hardware/libraries may differ by a few ulp; an assumption like the other functions.)"""
    xs = f64(x)
    ns = np.asarray(n).astype(np.int64)
    with np.errstate(all="ignore"):
        mag = np.power(np.abs(xs), ns.astype(np.float64))
        r = np.where((ns & 1) == 1, np.copysign(mag, xs), mag)
    return narrow(r, dst)


# --------------------------------------------------------------------------- fma


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Knuth's TwoSum: ``s = fl(a + b)`` and the exact error ``e`` with ``a + b = s + e`` (no overflow)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def fma(a: Any, b: Any, c: Any, dst: str) -> np.ndarray:
    """``math.fma``: ``a * b + c`` with a single rounding to ``dst``.

    For p <= 24 (f32, tf32, f16, bf16, fp8): ``a * b`` is exact in float64 (at most 48 significant bits,
    exponents within float64's normal range); the sum is formed in float64 *rounded to odd* (TwoSum gives
    the exact error; an inexact sum with an even last bit moves one ulp toward the error), and rounding a
    round-to-odd value with >= p + 2 bits to p bits is the correctly rounded result (Boldo & Melquiond,
    "Emulation of FMA and correctly rounded sums: proved algorithms using rounding to odd", IEEE TC
    2008).  A float64 fma (p = 53) is computed exactly with Python integers and rounded once.
    Infinities and NaNs follow plain IEEE arithmetic on the float64 values."""
    fmt = float_format(dst)
    A = f64(a)
    B = f64(b)
    Cc = f64(c)
    if fmt.p > 24:
        return _fma_exact(A, B, Cc, dst)
    with np.errstate(all="ignore"):
        p = A * B
        s, e = _two_sum(p, Cc)
        finite = np.isfinite(A) & np.isfinite(B) & np.isfinite(Cc) & np.isfinite(s)
        even = (s.view(np.uint64) & np.uint64(1)) == 0
        fix = finite & (e != 0) & even
        if fix.any():
            s = np.where(fix, np.nextafter(s, np.copysign(np.inf, e)), s)
    return narrow(s, dst)


def _fma_exact_scalar(a: float, b: float, c: float) -> float:
    """Exact ``a * b + c`` rounded once to float64 (Python integers; special values by IEEE rules)."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    na, da = a.as_integer_ratio()
    nb, db = b.as_integer_ratio()
    nc, dc = c.as_integer_ratio()
    num = na * nb * dc + nc * da * db
    den = da * db * dc  # a power of two
    if num == 0:
        # exact zero: +0 unless both addends are -0 (IEEE 754 §6.3)
        prod_neg = math.copysign(1.0, a) * math.copysign(1.0, b) < 0
        if a * b == 0 and prod_neg and math.copysign(1.0, c) < 0:
            return -0.0
        return 0.0
    neg = num < 0
    m = -num if neg else num
    e = -(den.bit_length() - 1)
    extra = m.bit_length() - 64
    if extra > 0:  # keep 64 bits and a sticky bit: enough for one correct rounding to 53 bits
        sticky = 1 if m & ((1 << extra) - 1) else 0
        m = (m >> extra) | sticky
        e += extra
    return float(round_scaled(neg, m, e, "f64", RNE))


_fma_exact_v = np.frompyfunc(_fma_exact_scalar, 3, 1)


def _fma_exact(A: np.ndarray, B: np.ndarray, Cc: np.ndarray, dst: str) -> np.ndarray:
    with np.errstate(all="ignore"):
        r = np.asarray(_fma_exact_v(A, B, Cc), dtype=np.float64)
    return narrow(r, dst)


# --------------------------------------------------------------------------- min / max / fmod / sign


def minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``arith.minimumf`` (IEEE 754-2019 minimum): NaN if either operand is NaN, -0 < +0.  Returns one of
    the operands' elements unchanged (so NaN payloads and zero signs are kept)."""
    fa, fb = f64(a), f64(b)
    na, nb = np.isnan(fa), np.isnan(fb)
    pick_b = (fb < fa) | (nb & ~na) | ((fa == fb) & np.signbit(fb) & ~np.signbit(fa))
    return np.where(pick_b, b, a)


def maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``arith.maximumf`` (IEEE 754-2019 maximum): NaN if either operand is NaN, +0 > -0."""
    fa, fb = f64(a), f64(b)
    na, nb = np.isnan(fa), np.isnan(fb)
    pick_b = (fb > fa) | (nb & ~na) | ((fa == fb) & ~np.signbit(fb) & np.signbit(fa))
    return np.where(pick_b, b, a)


def minnum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``arith.minnumf`` (IEEE 754-2008 minNum): the other operand when one is NaN, NaN only when both
    are.  Signed zeros: -0 < +0 (assumption: LLVM allows either operand when they compare equal)."""
    fa, fb = f64(a), f64(b)
    na, nb = np.isnan(fa), np.isnan(fb)
    pick_b = (fb < fa) | (na & ~nb) | ((fa == fb) & np.signbit(fb) & ~np.signbit(fa))
    return np.where(pick_b, b, a)


def maxnum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``arith.maxnumf`` (IEEE 754-2008 maxNum); signed zeros: +0 > -0 (assumption, as :func:`minnum`)."""
    fa, fb = f64(a), f64(b)
    na, nb = np.isnan(fa), np.isnan(fb)
    pick_b = (fb > fa) | (na & ~nb) | ((fa == fb) & ~np.signbit(fb) & np.signbit(fa))
    return np.where(pick_b, b, a)


def _sb(x: float) -> bool:
    return math.copysign(1.0, x) < 0


def minimum_scalar(a: Any, b: Any) -> Any:
    """Scalar :func:`minimum`: returns ``a`` or ``b`` itself."""
    fa, fb = float(a), float(b)
    if fa != fa:
        return a
    if fb != fb or fb < fa or (fa == fb and _sb(fb) and not _sb(fa)):
        return b
    return a


def maximum_scalar(a: Any, b: Any) -> Any:
    """Scalar :func:`maximum`: returns ``a`` or ``b`` itself."""
    fa, fb = float(a), float(b)
    if fa != fa:
        return a
    if fb != fb or fb > fa or (fa == fb and not _sb(fb) and _sb(fa)):
        return b
    return a


def minnum_scalar(a: Any, b: Any) -> Any:
    """Scalar :func:`minnum`: returns ``a`` or ``b`` itself."""
    fa, fb = float(a), float(b)
    if fb != fb:
        return a
    if fa != fa or fb < fa or (fa == fb and _sb(fb) and not _sb(fa)):
        return b
    return a


def maxnum_scalar(a: Any, b: Any) -> Any:
    """Scalar :func:`maxnum`: returns ``a`` or ``b`` itself."""
    fa, fb = float(a), float(b)
    if fb != fb:
        return a
    if fa != fa or fb > fa or (fa == fb and not _sb(fb) and _sb(fa)):
        return b
    return a


def fmod(a: np.ndarray, b: np.ndarray, dst: str) -> np.ndarray:
    """``arith.remf``: C ``fmod`` (result has the dividend's sign, |r| < |b|); exact, so computing it in
    float64 and converting back involves no rounding.  fmod(x, 0), fmod(inf, y) are NaN; fmod(x, inf) = x."""
    with np.errstate(all="ignore"):
        r = np.fmod(f64(a), f64(b))
    return narrow(r, dst)


def sign_mask(dst: str) -> int:
    """The sign bit of format ``dst`` in its container."""
    fmt = float_format(dst)
    return 1 << (fmt.bits - 1 + fmt.shift)


def negate(a: np.ndarray, dst: str) -> np.ndarray:
    """``arith.negf``: flip the sign bit (also of NaN).  FNUZ formats have no -0 and one NaN (0x80), which
    negation leaves unchanged."""
    fmt = float_format(dst)
    bits = np.asarray(a).view(fmt.uint)
    sm = fmt.uint.type(sign_mask(dst))
    out = bits ^ sm
    if fmt.nonfinite == "fnuz":
        out = np.where((bits & ~sm) == 0, bits, out)
    return np.asarray(out).view(fmt.dtype)


def absolute(a: np.ndarray, dst: str) -> np.ndarray:
    """``math.absf``: clear the sign bit (also of NaN; the FNUZ NaN stays NaN)."""
    fmt = float_format(dst)
    bits = np.asarray(a).view(fmt.uint)
    sm = fmt.uint.type(sign_mask(dst))
    out = bits & ~sm
    if fmt.nonfinite == "fnuz":
        out = np.where(bits == sm, bits, out)
    return np.asarray(out).view(fmt.dtype)


def copysign(a: np.ndarray, b: np.ndarray, dst: str) -> np.ndarray:
    """``math.copysign``: magnitude of ``a`` with the sign bit of ``b`` (bit operation, exact)."""
    fmt = float_format(dst)
    ab = np.asarray(a).view(fmt.uint)
    bb = np.asarray(b).view(fmt.uint)
    sm = fmt.uint.type(sign_mask(dst))
    out = (ab & ~sm) | (bb & sm)
    if fmt.nonfinite == "fnuz":
        out = np.where((ab & ~sm) == 0, ab, out)  # zero and NaN keep their only encoding
    return np.asarray(out).view(fmt.dtype)
