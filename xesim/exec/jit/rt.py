"""Run-time helpers for compiled host loop nests (numba intrinsics and small ``@njit`` functions).

Every generated nest module does ``from xesim.exec.jit.rt import *``.  The helpers reproduce the reference
interpreter's semantics (``xesim/exec/ops/arith.py``, ``xesim/numerics/conversions.py``) bit for bit:

Integers
    Every integer value lives in an ``int64`` holding the interpreter's representation: the sign-extended
    two's-complement value for signless/signed types and ``index``, ``0``/``1`` for ``i1``.  numba emits
    ``add nsw``/``mul nsw`` for ``int64`` arithmetic, i.e. signed overflow would be *undefined* in LLVM, so
    arithmetic that can leave the int64 range goes through intrinsics emitting plain ``add``/``sub``/
    ``mul``/``shl`` (LLVM LangRef: without ``nsw``/``nuw`` the result is the value modulo 2^n); the code
    generator uses numba's own operators only where the exact result provably fits (e.g. ``+`` on values
    of <= 62 bits) and wraps to ``w`` bits with ``((x & (2^w - 1)) ^ 2^(w-1)) - 2^(w-1)``, which cannot
    overflow.  Unsigned comparisons and division use LLVM's ``icmp ult``/``udiv``/``urem`` on the 64-bit
    pattern.  Both ways the result is the interpreter's (Python integers wrapped to the width).

Floats
    f32/f64 values are numba ``float32``/``float64`` (LLVM ``fadd float`` etc.: IEEE binary32/binary64 with
    round-to-nearest-even; compiled without fast-math, so no contraction into FMA and no reassociation).
    f16 and bf16 values are their 16-bit patterns held in an ``int64`` (memory holds them as ``uint16``).
    f16 -> f32 uses LLVM ``fpext half`` (x86 F16C ``vcvtph2ps``: exact) and f32 -> f16 ``fptrunc``
    (``vcvtps2ph`` with the MXCSR rounding mode, which numba leaves at round-to-nearest-even), or, on a CPU
    without F16C, the integer routines below.  bf16 <-> f32 is integer bit manipulation.  f16/bf16
    ``+ - * /`` and ``sqrt`` are computed in f32 and rounded once: f32 carries 24 >= 2p + 2 bits for
    p = 11 (f16) and p = 8 (bf16), so the double rounding is innocuous (Figueroa 1995) and the result is the
    correctly rounded one -- the same value the interpreter gets through float64.
    Narrowing from f64 to f16/bf16 (:func:`f64_to_narrow`) rounds the exact binary64 value once with
    integer arithmetic, like :func:`xesim.numerics.conversions.round_float`; NaNs keep their sign and top
    payload bits and get the quiet bit (x86 ``cvtsd2ss`` / APFloat behaviour, the interpreter's rule).
    Integer -> float conversions round once: LLVM ``sitofp``/``uitofp`` are single correctly rounded
    conversions (x86 ``cvtsi2ss`` with a 64-bit operand); bf16 gets a round-to-odd float64 first
    (Boldo & Melquiond 2008: rounding a round-to-odd value with >= p + 2 bits to p bits is correct).
    Float -> integer conversions saturate and map NaN to 0 (``conversions.FPTOINT_RULE``).
"""

from __future__ import annotations

import math

import llvmlite.ir as ir
import numpy as np
from numba import njit
from numba.core import types
from numba.extending import intrinsic

from xesim.numerics import mathfuncs as _mathfuncs

# Generated modules do ``from xesim.exec.jit.rt import *``: every public name here (and ``np``, ``math``).

_I64 = ir.IntType(64)


def _has_f16c() -> bool:
    try:
        import llvmlite.binding as llvm

        return bool(llvm.get_host_cpu_features().get("f16c", False))
    except Exception:  # noqa: BLE001 - feature query unavailable: use the integer routines
        return False


HAVE_F16C = _has_f16c()


# ---------------------------------------------------------------------------------------------- integers
def _binop(name: str):
    def typer(typingctx, a, b):
        sig = types.int64(types.int64, types.int64)

        def codegen(context, builder, signature, args):
            x, y = (context.cast(builder, v, t, types.int64) for v, t in zip(args, signature.args))
            return getattr(builder, name)(x, y)

        return sig, codegen

    typer.__name__ = name
    return typer


@intrinsic
def iadd(typingctx, a, b):
    """``a + b`` modulo 2^64 (plain LLVM ``add``)."""
    return _binop("add")(typingctx, a, b)


@intrinsic
def isub(typingctx, a, b):
    return _binop("sub")(typingctx, a, b)


@intrinsic
def imul(typingctx, a, b):
    return _binop("mul")(typingctx, a, b)


@intrinsic
def ishl(typingctx, a, b):
    """``a << b`` modulo 2^64; callers guarantee ``0 <= b < 64``."""
    return _binop("shl")(typingctx, a, b)


@intrinsic
def iashr(typingctx, a, b):
    return _binop("ashr")(typingctx, a, b)


@intrinsic
def ilshr(typingctx, a, b):
    return _binop("lshr")(typingctx, a, b)


@intrinsic
def isdiv(typingctx, a, b):
    """Signed division truncating toward zero (callers exclude b == 0 and MIN / -1)."""
    return _binop("sdiv")(typingctx, a, b)


@intrinsic
def isrem(typingctx, a, b):
    return _binop("srem")(typingctx, a, b)


@intrinsic
def iudiv(typingctx, a, b):
    """Unsigned division of the 64-bit patterns (callers exclude b == 0)."""
    return _binop("udiv")(typingctx, a, b)


@intrinsic
def iurem(typingctx, a, b):
    return _binop("urem")(typingctx, a, b)


def _ucmp(op: str):
    def typer(typingctx, a, b):
        sig = types.boolean(types.int64, types.int64)

        def codegen(context, builder, signature, args):
            x, y = (context.cast(builder, v, t, types.int64) for v, t in zip(args, signature.args))
            return builder.icmp_unsigned(op, x, y)

        return sig, codegen

    return typer


@intrinsic
def iult(typingctx, a, b):
    """Unsigned ``a < b`` of the 64-bit patterns."""
    return _ucmp("<")(typingctx, a, b)


@intrinsic
def iule(typingctx, a, b):
    return _ucmp("<=")(typingctx, a, b)


@intrinsic
def sext(typingctx, x, w):
    """Wrap ``x`` to ``w`` bits, sign-extended (``w`` an integer literal, 1 <= w <= 64)."""
    if not isinstance(w, types.IntegerLiteral):
        return None
    n = w.literal_value
    sig = types.int64(types.int64, w)

    def codegen(context, builder, signature, args):
        v = context.cast(builder, args[0], signature.args[0], types.int64)
        if n >= 64:
            return v
        return builder.sext(builder.trunc(v, ir.IntType(n)), _I64)

    return sig, codegen


@intrinsic
def zext(typingctx, x, w):
    """The low ``w`` bits of ``x`` as a non-negative value (``w`` an integer literal < 64)."""
    if not isinstance(w, types.IntegerLiteral):
        return None
    n = w.literal_value
    sig = types.int64(types.int64, w)

    def codegen(context, builder, signature, args):
        v = context.cast(builder, args[0], signature.args[0], types.int64)
        if n >= 64:
            return v
        return builder.zext(builder.trunc(v, ir.IntType(n)), _I64)

    return sig, codegen


@intrinsic
def sel(typingctx, c, a, b):
    """``a if c != 0 else b`` as one LLVM ``select`` (``c`` an integer; ``a``, ``b`` of one type)."""
    a, b = types.unliteral(a), types.unliteral(b)
    if a != b:
        return None
    sig = a(types.int64, a, b)

    def codegen(context, builder, signature, args):
        cv = context.cast(builder, args[0], signature.args[0], types.int64)
        return builder.select(builder.icmp_signed("!=", cv, ir.Constant(_I64, 0)), args[1], args[2])

    return sig, codegen


@intrinsic
def cttz64(typingctx, x):
    """Trailing zero bits of the 64-bit pattern (64 for 0)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def ctpop64(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def clz64(typingctx, x):
    """Leading zero bits of the 64-bit pattern (64 for 0)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


# ---------------------------------------------------------------------------------------------- bit casts
@intrinsic
def f32_from_bits(typingctx, b):
    sig = types.float32(types.int64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(builder.trunc(args[0], ir.IntType(32)), ir.FloatType())

    return sig, codegen


@intrinsic
def f32_bits(typingctx, x):
    """The binary32 pattern of ``x`` (0 .. 2^32-1)."""
    sig = types.int64(types.float32)

    def codegen(context, builder, signature, args):
        return builder.zext(builder.bitcast(args[0], ir.IntType(32)), _I64)

    return sig, codegen


@intrinsic
def f64_from_bits(typingctx, b):
    sig = types.float64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return sig, codegen


@intrinsic
def f64_bits(typingctx, x):
    sig = types.int64(types.float64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], _I64)

    return sig, codegen


@intrinsic
def h2f_hw(typingctx, b):
    """f16 bits -> f32 (exact; LLVM ``fpext half``)."""
    sig = types.float32(types.int64)

    def codegen(context, builder, signature, args):
        h = builder.bitcast(builder.trunc(args[0], ir.IntType(16)), ir.HalfType())
        return builder.fpext(h, ir.FloatType())

    return sig, codegen


@intrinsic
def f2h_hw(typingctx, x):
    """f32 -> f16 bits, round to nearest even (LLVM ``fptrunc``)."""
    sig = types.int64(types.float32)

    def codegen(context, builder, signature, args):
        h = builder.fptrunc(args[0], ir.HalfType())
        return builder.zext(builder.bitcast(h, ir.IntType(16)), _I64)

    return sig, codegen


def _conv(name: str, src, dst, lldst):
    def typer(typingctx, x):
        sig = dst(src)

        def codegen(context, builder, signature, args):
            return getattr(builder, name)(args[0], lldst)

        return sig, codegen

    return typer


@intrinsic
def sitofp32(typingctx, x):
    """Signed int64 -> f32 with one rounding (``sitofp``)."""
    return _conv("sitofp", types.int64, types.float32, ir.FloatType())(typingctx, x)


@intrinsic
def sitofp64(typingctx, x):
    return _conv("sitofp", types.int64, types.float64, ir.DoubleType())(typingctx, x)


@intrinsic
def uitofp32(typingctx, x):
    """Unsigned 64-bit pattern -> f32 with one rounding (``uitofp``)."""
    return _conv("uitofp", types.int64, types.float32, ir.FloatType())(typingctx, x)


@intrinsic
def uitofp64(typingctx, x):
    return _conv("uitofp", types.int64, types.float64, ir.DoubleType())(typingctx, x)


@intrinsic
def fptoui64(typingctx, x):
    """f64 in [0, 2^64) -> its integer part as a 64-bit pattern (``fptoui``)."""
    return _conv("fptoui", types.float64, types.int64, _I64)(typingctx, x)


# ---------------------------------------------------------------------------------------------- narrowing
@njit(cache=True)
def f64_to_narrow(x, p, emin, emax, nbits):
    """Round the binary64 ``x`` once (RNE) to an IEEE format with precision ``p``, normal exponents
    ``emin..emax`` and ``nbits`` bits; return its bit pattern (as ``conversions.round_float``)."""
    b = f64_bits(x)
    sbit = ilshr(b, 63) << (nbits - 1)
    expf = (b >> 52) & 0x7FF
    frac = b & 0xFFFFFFFFFFFFF
    mb = p - 1
    expall = ((1 << (nbits - 1 - mb)) - 1) << mb
    if expf == 0x7FF:
        if frac == 0:
            return sbit | expall
        top = (frac | (1 << 51)) >> (52 - mb)
        return sbit | expall | top | (1 << (mb - 1))
    if expf == 0:
        return sbit  # zero, or a binary64 subnormal: far below half the smallest subnormal of the format
    m = frac | (1 << 52)
    E = expf - 1023
    qe = (E if E > emin else emin) - mb
    s = qe - (E - 52)
    if s >= 54:
        return sbit  # m < 2^53 <= half an ulp: rounds to zero
    q = m >> s
    r = m & ((1 << s) - 1)
    half = 1 << (s - 1)
    if r > half or (r == half and (q & 1) == 1):
        q += 1
    if q >= (1 << p):
        q >>= 1
        qe += 1
    if q >= (1 << mb):
        Eres = qe + mb
        if Eres > emax:
            return sbit | expall
        return sbit | ((Eres + 1 - emin) << mb) | (q - (1 << mb))
    return sbit | q


@njit(cache=True)
def f64_to_f16(x):
    return f64_to_narrow(x, 11, -14, 15, 16)


@njit(cache=True)
def f64_to_bf16(x):
    return f64_to_narrow(x, 8, -126, 127, 16)


@njit(cache=True)
def f32_to_bf16(x):
    """f32 -> bf16 bits, round to nearest even; NaN keeps sign and top payload bits, gets the quiet bit."""
    b = f32_bits(x)
    if (b & 0x7FFFFFFF) > 0x7F800000:
        return (b >> 16) | 0x40
    return (b + 0x7FFF + ((b >> 16) & 1)) >> 16


@njit(cache=True)
def bf2f(h):
    """bf16 bits -> f32 (exact)."""
    return f32_from_bits(h << 16)


@njit(cache=True)
def bf2f_quiet(h):
    """``arith.extf`` bf16 -> f32: exact, NaNs quieted (the interpreter widens through a C float->double
    conversion, which sets the quiet bit)."""
    if (h & 0x7FFF) > 0x7F80:
        h |= 0x40
    return f32_from_bits(h << 16)


@njit(cache=True)
def h2d(h):
    """``arith.extf`` f16 -> f64: exact, NaN payloads kept *without* quieting (the interpreter widens with
    numpy's bit-level half -> double conversion)."""
    if (h & 0x7FFF) > 0x7C00:
        return f64_from_bits(((h & 0x8000) << 48) | 0x7FF0000000000000 | ((h & 0x3FF) << 42))
    return np.float64(h2f(h))


@njit(cache=True)
def h2f_sw(h):
    """f16 bits -> f32 without F16C (exact; NaN payload kept, quiet bit set like ``vcvtph2ps``)."""
    s = (h & 0x8000) << 16
    e = (h >> 10) & 0x1F
    m = h & 0x3FF
    if e == 0x1F:
        if m == 0:
            return f32_from_bits(s | 0x7F800000)
        return f32_from_bits(s | 0x7FC00000 | (m << 13))
    if e == 0:
        v = np.float32(m) * np.float32(5.9604644775390625e-08)  # m * 2^-24, exact
        return f32_from_bits(s | f32_bits(v))
    return f32_from_bits(s | ((e + 112) << 23) | (m << 13))


@njit(cache=True)
def f2h_sw(x):
    """f32 -> f16 bits without F16C (RNE; the f32 value is exact in f64)."""
    return f64_to_f16(np.float64(x))


@njit(cache=True)
def _odd64(mag, neg):
    """The integer with unsigned 64-bit pattern ``mag`` (negated when ``neg``) as a binary64 rounded to odd
    (exact below 2^53): rounding it once more to <= 51 bits is the correctly rounded result."""
    if mag == 0:
        return 0.0
    bl = 64 - clz64(mag)
    if bl <= 53:
        v = sitofp64(mag)
    else:
        sh = bl - 53
        q = ilshr(mag, sh)
        if (mag & ((1 << sh) - 1)) != 0:
            q |= 1
        v = sitofp64(q) * (2.0 ** sh)
    return -v if neg else v


@njit(cache=True)
def int_to_bf16(v):
    """Signed int64 -> bf16 bits with one RNE rounding."""
    if v < 0:
        return f64_to_bf16(_odd64(isub(0, v), True))
    return f64_to_bf16(_odd64(v, False))


@njit(cache=True)
def uint_to_bf16(v):
    """Unsigned 64-bit pattern -> bf16 bits with one RNE rounding."""
    return f64_to_bf16(_odd64(v, False))


@njit(cache=True)
def fp_to_si(x, lo, hi1, lo_i, hi_i):
    """Truncate the f64 ``x`` toward zero and saturate to [lo_i, hi_i] (``lo`` = -2^(w-1) and ``hi1`` =
    2^(w-1) as exact floats); NaN -> 0."""
    if x != x:
        return 0
    t = np.trunc(x)
    if t < lo:
        return lo_i
    if t >= hi1:
        return hi_i
    return np.int64(t)


@njit(cache=True)
def fp_to_ui(x, hi1, hi_i):
    """Truncate toward zero and saturate to [0, 2^w - 1] (``hi1`` = 2^w as an exact float, ``hi_i`` the
    64-bit pattern of 2^w - 1); NaN -> 0.  Returns the unsigned value's 64-bit pattern."""
    if x != x:
        return 0
    t = np.trunc(x)
    if t < 0.0:
        return 0
    if t >= hi1:
        return hi_i
    if t >= 9223372036854775808.0:
        return fptoui64(t)
    return np.int64(t)


# ---------------------------------------------------------------------------------------------- float helpers
@njit(cache=True)
def _neg_sign(x):
    return math.copysign(1.0, x) < 0.0


@njit(cache=True)
def pick_minimum(a, b):
    """True when ``arith.minimumf(a, b)`` is ``b`` (``mathfuncs.minimum_scalar``)."""
    if a != a:
        return False
    return b != b or b < a or (a == b and _neg_sign(b) and not _neg_sign(a))


@njit(cache=True)
def pick_maximum(a, b):
    if a != a:
        return False
    return b != b or b > a or (a == b and not _neg_sign(b) and _neg_sign(a))


@njit(cache=True)
def pick_minnum(a, b):
    if b != b:
        return False
    return a != a or b < a or (a == b and _neg_sign(b) and not _neg_sign(a))


@njit(cache=True)
def pick_maxnum(a, b):
    if b != b:
        return False
    return a != a or b > a or (a == b and not _neg_sign(b) and _neg_sign(a))


@njit(cache=True)
def nan2_32(a, b, r):
    """The NaN an x86 SSE ``+ - * /`` returns for f32 operands ``a``, ``b`` (called when the result ``r``
    is NaN): the first NaN operand, quieted, else ``r`` (the default NaN of an invalid operation).  LLVM
    may commute ``fadd``/``fmul``, which would pick the other operand's payload; the interpreter (C
    ``a + b`` on doubles) follows the SSE rule (Intel SDM vol. 1, table 4-7)."""
    if a != a:
        return f32_from_bits(f32_bits(a) | 0x400000)
    if b != b:
        return f32_from_bits(f32_bits(b) | 0x400000)
    return r


@njit(cache=True)
def nan2_64(a, b, r):
    """:func:`nan2_32` for f64."""
    if a != a:
        return f64_from_bits(f64_bits(a) | 0x8000000000000)
    if b != b:
        return f64_from_bits(f64_bits(b) | 0x8000000000000)
    return r


@njit(cache=True)
def fmod_nan(a, b):
    """``np.fmod`` of f64 values with the interpreter's NaN choice (the first NaN operand, quieted)."""
    r = np.fmod(a, b)
    if r != r:
        return nan2_64(a, b, r)
    return r


@njit(cache=True)
def fma_odd(a, b, c):
    """``a * b + c`` for f64 operands holding values of a format with p <= 24, rounded to odd in f64, as
    ``mathfuncs.fma``: the product is exact, TwoSum gives the sum's exact error, an inexact sum with an even
    last bit moves one ulp toward the error.  Narrowing the result once is the correctly rounded fma."""
    p = a * b
    s = p + c
    if s != s:  # NaN: numpy's order -- the first NaN of a, b, then an invalid product, then c (quieted)
        if a != a or b != b:
            return nan2_64(a, b, s)
        if p != p:
            return p
        return nan2_64(c, c, s)
    bb = s - p
    e = (p - (s - bb)) + (c - bb)
    if np.isfinite(a) and np.isfinite(b) and np.isfinite(c) and np.isfinite(s) and e != 0.0 \
            and (f64_bits(s) & 1) == 0:
        s = np.nextafter(s, math.copysign(np.inf, e))
    return s


@njit(cache=True)
def round_half_away(x):
    """``math.round`` on a binary64 (``mathfuncs._round_half_away``; exact)."""
    t = np.trunc(x)
    if abs(x - t) >= 0.5:
        return t + math.copysign(1.0, x)
    return t


@njit(cache=True)
def neg32(x):
    return f32_from_bits(f32_bits(x) ^ 0x80000000)


@njit(cache=True)
def neg64(x):
    return f64_from_bits(f64_bits(x) ^ (-0x7FFFFFFFFFFFFFFF - 1))


@njit(cache=True)
def abs32(x):
    return f32_from_bits(f32_bits(x) & 0x7FFFFFFF)


@njit(cache=True)
def abs64(x):
    return f64_from_bits(f64_bits(x) & 0x7FFFFFFFFFFFFFFF)


@njit(cache=True)
def copysign32(x, y):
    return f32_from_bits((f32_bits(x) & 0x7FFFFFFF) | (f32_bits(y) & 0x80000000))


@njit(cache=True)
def copysign64(x, y):
    return f64_from_bits((f64_bits(x) & 0x7FFFFFFFFFFFFFFF) | (f64_bits(y) & (-0x7FFFFFFFFFFFFFFF - 1)))


# the host libm's functions of float64 values (math.exp, ...), the very ones the interpreter maps over arrays
# (xesim/numerics/mathfuncs.py LIBM_UNARY / LIBM_BINARY): libm_exp, libm_powf, ...
for _name, _fn in {**_mathfuncs.LIBM_UNARY, **_mathfuncs.LIBM_BINARY}.items():
    globals()[f"libm_{_name}"] = njit(cache=True)(_fn)


# f16 <-> f32 used by generated code: the F16C instructions when the host has them (numba compiles for the
# host CPU; its cache is keyed by the CPU's features), else the exact integer routines.
h2f = h2f_hw if HAVE_F16C else h2f_sw
f2h = f2h_hw if HAVE_F16C else f2h_sw
