"""Scalar rules: the semantics of scalar ``arith``/``index``/``math`` ops, each written once (ARCHITECTURE.md,
Numerics; "Compiled host loops").

Every rule here is a plain Python function that two engines execute:

* the reference interpreter (``xesim/exec/ops/{arith,index,math}.py``) runs it in CPython, specialised for its
  constant parameters with the callees inlined (:mod:`xesim.numerics.specialize`: the generated code is the
  rule's own syntax tree), and
* compiled host loops (``xesim/exec/jit``) call the very same function object compiled by numba
  (``xesim/exec/jit/rt.py`` registers each rule with ``numba.extending.register_jitable``; generated nests call
  them by name and LLVM inlines them, folding the constant width/predicate arguments).

so ``XESIM_ENGINE=both`` compares plumbing (value representation, memory, fault reporting), not two
definitions.  :data:`RULES` maps each op to the rules that define it; :func:`lookup` is how both engines obtain
them (and records which engine used which rule, see ``tools/rule_table.py``).

Value domains (what a rule receives and returns)
    *Integers* are held in their **signless stored form**: a width-``w`` value (1 <= w <= 64, ``w`` a constant
    argument) is the sign-extended two's-complement value in ``[-2^(w-1), 2^(w-1))`` for w >= 2 and ``0``/``1``
    for ``i1`` -- Python ``int`` in CPython, ``int64`` under numba.  Every intermediate a rule forms stays in
    the int64 range in both (arithmetic that could leave it goes through the wrapping primitives
    :func:`add64` ...), so the two executions see the same numbers.  Unsigned readings of 64-bit values never
    appear as numbers (they would not fit an int64): the unsigned 64-bit rules use :func:`ult64`,
    :func:`udiv64`, ... on the bit pattern.  The interpreter's unsigned types (``ui32``) convert to and from
    the signless form around the rule (``xesim/exec/ops/arith.py``).
    *Floats* are values: a binary64 Python ``float`` in CPython, numba ``float32``/``float64`` in compiled code.
    An f32 (f16, bf16) op receives its operands as binary32 values in compiled code (f16/bf16 widened exactly)
    and as their exact binary64 values in CPython; the arithmetic rules compute in the operand format and
    round the result once to binary32 with :func:`to_f32` (a no-op on binary32), which gives the same value
    either way (double rounding through binary64 is innocuous for one +, -, *, / or sqrt of binary32
    operands: 53 >= 2*24 + 2, Figueroa 1995, "When is double rounding innocuous?").  f16/bf16 results are
    then rounded from binary32 to their 16-bit pattern (:func:`f32_to_f16`, :func:`f32_to_bf16`): innocuous
    again since 24 >= 2*11 + 2 and 24 >= 2*8 + 2.  f16/bf16 storage is the 16-bit pattern (an int); f32
    storage is ``numpy.float32`` in CPython (the interpreter's value type) and ``float32`` under numba.
    NaN operands: a rule's result never depends on an operand NaN's quiet bit (widening may set it: x86
    ``cvtss2sd``/``vcvtph2ps`` do, numpy's half -> double does not), because every NaN result is quieted.

Primitives
    The functions marked ``@primitive`` are machine operations (wrapping 64-bit integer arithmetic, bit casts,
    IEEE binary64 -> binary32 conversion, IEEE division/sqrt): their CPython body here is the reference
    implementation, and ``xesim/exec/jit/rt.py`` lowers each to the corresponding LLVM instruction for numba
    (a primitive has no other semantics than the instruction's).  ``tests/numerics/test_scalar_rules.py``
    checks every primitive and every rule for identical results in CPython and under numba on edge cases.
    Two rules have a *hardware* implementation under numba besides their own body: :func:`f32_to_f16` and
    :func:`f16_to_f32` use the F16C conversions (``vcvtps2ph``/``vcvtph2ps``) when the CPU has them, checked
    against the rule over every binary32 exponent with all 2^23 significands, and all 2^16 halves.

Faults
    MLIR's undefined cases are reported, not given a value (ARCHITECTURE.md): the rules :func:`div_fault`,
    :func:`shift_fault`, :func:`overflow_signed`, :func:`overflow_unsigned` return a status that the
    interpreter turns into an :class:`~xesim.exec.faults.ExecFault` and compiled code into a fault site;
    the value rules (:func:`divsi` ...) are only evaluated when the status is 0.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import Any

import numpy as np

from xesim.numerics.specialize import inlinable

#: op name -> the rules that define it (in the order the op applies them)
RULES: dict[str, list[Callable]] = {}
#: every rule and primitive by name (a rule's ``__name__`` is the name compiled code calls it by)
BY_NAME: dict[str, Callable] = {}
#: the primitives (rt.py gives each a numba lowering)
PRIMITIVES: dict[str, Callable] = {}
#: notes shown by the rule table: rule name -> how it is computed when that is not obvious from its body
NOTES: dict[str, str] = {}
#: which engine looked up which rule for which op: (op, engine) -> set of rule names (see :func:`lookup`)
USAGE: dict[tuple[str, str], set[str]] = {}
#: rules that compiled loop nests call rather than inline (long bodies: one numba compilation instead of a copy
#: per use, which would make cold compiles of nests with many f16/bf16 ops several times slower)
CALLED_IN_NESTS: set[str] = set()


def rule(note: str = "", inline_in_nests: bool = True) -> Callable[[Callable], Callable]:
    """Register a rule (which ops use it is :data:`OP_RULES`); it is also inlinable by
    :mod:`xesim.numerics.specialize`."""

    def deco(fn: Callable) -> Callable:
        BY_NAME[fn.__name__] = fn
        if note:
            NOTES[fn.__name__] = note
        if not inline_in_nests:
            CALLED_IN_NESTS.add(fn.__name__)
        fn.__rule_ops__ = ()
        return inlinable(fn)

    return deco


def primitive(fn: Callable) -> Callable:
    """Register a primitive: CPython reference body here, LLVM lowering in ``xesim/exec/jit/rt.py``."""
    BY_NAME[fn.__name__] = fn
    PRIMITIVES[fn.__name__] = fn
    fn.__rule_ops__ = ()
    return inlinable(fn)


def lookup(op: str, name: str, engine: str) -> Callable:
    """The rule ``name`` of op ``op`` for ``engine`` (``interpreter`` or ``compiled``); KeyError when the rule
    is not registered for that op.  Records the use for the rule table."""
    fn = BY_NAME[name]
    if fn not in RULES.get(op, ()):
        raise KeyError(f"{name} is not a rule of {op}")
    USAGE.setdefault((op, engine), set()).add(name)
    return fn


# ================================================================================================ constants
# Module-level constants are int64/float values (numba freezes globals as constants; an int above 2^63 - 1
# would become uint64 there).  Upper-case names are folded into the code the specialiser generates.
I64_MIN = -9223372036854775807 - 1
I64_MAX = 9223372036854775807
F32_MAX = 3.4028234663852886e38
TWO63 = 9223372036854775808.0
#: x86's default NaN (the result of an invalid operation such as 0/0 or sqrt(-1)): sign set, quiet
DEFAULT_NAN64_BITS = -2251799813685248  # 0xFFF8000000000000 as an int64
QUIET64 = 0x0008000000000000

# cmpi / cmpf predicate numbers: MLIR's CmpIPredicate / CmpFPredicate enum values
CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF_PREDICATES = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
                   "une", "uno", "true")

# overflow-flag operations
OV_ADD, OV_SUB, OV_MUL, OV_SHL = 0, 1, 2, 3
# fault statuses
OK, DIV_BY_ZERO, DIV_OVERFLOW, SHIFT_TOO_BIG = 0, 1, 2, 3

_M64 = (1 << 64) - 1  # CPython primitive bodies only
_pack_d = struct.Struct("<d").pack
_unpack_d = struct.Struct("<d").unpack
_pack_q = struct.Struct("<q").pack
_unpack_q = struct.Struct("<q").unpack
_W32 = np.zeros(1, np.uint32)  # a binary32 as its bits and as a float (no FP conversion on either side)
_W32F = _W32.view(np.float32)
_F32 = np.zeros(1, np.float32)


# ================================================================================================ primitives
@primitive
def add64(x: int, y: int) -> int:
    """``x + y`` modulo 2^64 as a signed int64 (LLVM ``add`` without ``nsw``)."""
    r = x + y
    if -9223372036854775808 <= r <= 9223372036854775807:
        return r
    return ((r + 9223372036854775808) & 18446744073709551615) - 9223372036854775808


@primitive
def sub64(x: int, y: int) -> int:
    """``x - y`` modulo 2^64 (LLVM ``sub``)."""
    r = x - y
    if -9223372036854775808 <= r <= 9223372036854775807:
        return r
    return ((r + 9223372036854775808) & 18446744073709551615) - 9223372036854775808


@primitive
def mul64(x: int, y: int) -> int:
    """``x * y`` modulo 2^64 (LLVM ``mul``)."""
    r = x * y
    if -9223372036854775808 <= r <= 9223372036854775807:
        return r
    return ((r + 9223372036854775808) & 18446744073709551615) - 9223372036854775808


@primitive
def shl64(x: int, n: int) -> int:
    """``x << n`` modulo 2^64 for ``0 <= n < 64`` (LLVM ``shl``)."""
    r = x << n
    if -9223372036854775808 <= r <= 9223372036854775807:
        return r
    return ((r + 9223372036854775808) & 18446744073709551615) - 9223372036854775808


@primitive
def ashr64(x: int, n: int) -> int:
    """Arithmetic ``x >> n`` for ``0 <= n < 64`` (LLVM ``ashr``)."""
    return x >> n


@primitive
def lshr64(x: int, n: int) -> int:
    """Logical shift right of the 64-bit pattern, ``0 <= n < 64`` (LLVM ``lshr``)."""
    r = (x & 18446744073709551615) >> n
    return r - 18446744073709551616 if r > 9223372036854775807 else r


@primitive
def sdiv64(x: int, y: int) -> int:
    """Signed division truncating toward zero (LLVM ``sdiv``; callers exclude ``y == 0`` and MIN / -1)."""
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


@primitive
def srem64(x: int, y: int) -> int:
    """Remainder of :func:`sdiv64`, with the dividend's sign (LLVM ``srem``)."""
    r = abs(x) % abs(y)
    return -r if x < 0 else r


@primitive
def udiv64(x: int, y: int) -> int:
    """Unsigned division of the 64-bit patterns (LLVM ``udiv``; ``y != 0``)."""
    r = (x & 18446744073709551615) // (y & 18446744073709551615)
    return r - 18446744073709551616 if r > 9223372036854775807 else r


@primitive
def urem64(x: int, y: int) -> int:
    """Unsigned remainder of the 64-bit patterns (LLVM ``urem``; ``y != 0``)."""
    r = (x & 18446744073709551615) % (y & 18446744073709551615)
    return r - 18446744073709551616 if r > 9223372036854775807 else r


@primitive
def ult64(x: int, y: int) -> bool:
    """Unsigned ``x < y`` of the 64-bit patterns (LLVM ``icmp ult``)."""
    return (x & 18446744073709551615) < (y & 18446744073709551615)


@primitive
def ule64(x: int, y: int) -> bool:
    """Unsigned ``x <= y`` of the 64-bit patterns (LLVM ``icmp ule``)."""
    return (x & 18446744073709551615) <= (y & 18446744073709551615)


@primitive
def clz64(x: int) -> int:
    """Leading zero bits of the 64-bit pattern, 64 for 0 (LLVM ``ctlz``)."""
    return 64 - (x & 18446744073709551615).bit_length()


@primitive
def ctz64(x: int) -> int:
    """Trailing zero bits of the 64-bit pattern, 64 for 0 (LLVM ``cttz``)."""
    if x == 0:
        return 64
    return (x & -x & 18446744073709551615).bit_length() - 1


@primitive
def popcount64(x: int) -> int:
    """Set bits of the 64-bit pattern (LLVM ``ctpop``)."""
    return (x & 18446744073709551615).bit_count()


@primitive
def f64(x: int | float) -> float:
    """The binary64 value of ``x`` (an int: one correctly rounded conversion, LLVM ``sitofp``; a float: exact
    widening, LLVM ``fpext``)."""
    return float(x)


@primitive
def u2f64(x: int) -> float:
    """The 64-bit pattern ``x`` read as unsigned, rounded once to binary64 (LLVM ``uitofp``; CPython's
    int -> float conversion rounds to nearest even)."""
    return float(x & 18446744073709551615)


@primitive
def f2i64(t: float) -> int:
    """An integral binary64 ``t`` with ``-2^63 <= t < 2^64`` as the 64-bit pattern of its integer (LLVM
    ``fptosi`` below 2^63, ``fptoui`` above)."""
    r = int(t)
    return r - 18446744073709551616 if r > 9223372036854775807 else r


@primitive
def to_f32(x: float) -> float:
    """``x`` rounded once to binary32, round to nearest even (x86 ``cvtsd2ss``, LLVM ``fptrunc``; a binary32
    operand is returned unchanged).  A NaN keeps its sign and top payload bits and gets the quiet bit.
    CPython: numpy's C cast (the same instruction), returning ``numpy.float32``."""
    if -3.4028234663852886e38 <= x <= 3.4028234663852886e38:
        _F32[0] = x
        return _F32[0]
    return _to_f32_slow(x)


def _to_f32_slow(x: float) -> float:
    with np.errstate(all="ignore"):
        return np.float32(x)


@primitive
def f32_bits(x: float) -> int:
    """The binary32 pattern (0 .. 2^32-1) of an f32 value (LLVM ``bitcast``)."""
    _W32F[0] = x
    return int(_W32[0])


@primitive
def f32_from_bits(b: int) -> float:
    """The f32 value with pattern ``b`` (low 32 bits; LLVM ``bitcast``)."""
    _W32[0] = b & 0xFFFFFFFF
    return _W32F[0]


@primitive
def f64_bits(x: float) -> int:
    """The binary64 pattern of ``x`` as an int64 (LLVM ``bitcast``)."""
    return _unpack_q(_pack_d(x))[0]


@primitive
def f64_from_bits(b: int) -> float:
    """The binary64 value with the int64 pattern ``b`` (LLVM ``bitcast``)."""
    return _unpack_d(_pack_q(b))[0]


@primitive
def quiet(x: float) -> float:
    """A NaN ``x`` with its quiet bit set (binary64: bit 51; under numba binary32 operands get bit 22)."""
    return _unpack_d(_pack_q(_unpack_q(_pack_d(x))[0] | 0x0008000000000000))[0]


@primitive
def default_nan(x: float) -> float:
    """x86's default NaN (``0xFFF8...``; binary32 ``0xFFC00000`` for a binary32 ``x``)."""
    return _unpack_d(_pack_q(-2251799813685248))[0]


@primitive
def fdiv(a: float, b: float) -> float:
    """IEEE division ``a / b`` (x86 ``divsd``/``divss``): by zero gives infinity of the sign of ``a * b``, 0/0
    the default NaN, a NaN ``a`` itself quieted (CPython raises instead, hence the cases here)."""
    if b != 0.0:
        return a / b
    if a != a:
        return quiet(a)
    if a == 0.0:
        return default_nan(a)
    return math.inf if (math.copysign(1.0, a) < 0.0) == (math.copysign(1.0, b) < 0.0) else -math.inf


@primitive
def ffloor(x: float) -> float:
    """IEEE roundToIntegralTowardNegative of a binary64 (exact; LLVM ``llvm.floor``; a NaN is quieted)."""
    if x != x:
        return quiet(x)
    return float(np.floor(x))


@primitive
def fceil(x: float) -> float:
    """IEEE roundToIntegralTowardPositive (exact; LLVM ``llvm.ceil``)."""
    if x != x:
        return quiet(x)
    return float(np.ceil(x))


@primitive
def ftrunc(x: float) -> float:
    """IEEE roundToIntegralTowardZero (exact; LLVM ``llvm.trunc``)."""
    if x != x:
        return quiet(x)
    return float(np.trunc(x))


@primitive
def frint(x: float) -> float:
    """IEEE roundToIntegralTiesToEven (exact; LLVM ``llvm.rint`` in the default rounding mode)."""
    if x != x:
        return quiet(x)
    return float(np.rint(x))


@primitive
def fmod(a: float, b: float) -> float:
    """C ``fmod`` of a finite ``a`` and a non-zero ``b``: exact (|r| < |b|, the dividend's sign)."""
    return math.fmod(a, b)


@primitive
def fsqrt(x: float) -> float:
    """IEEE square root (x86 ``sqrtsd``/``sqrtss``, correctly rounded): a NaN is quieted, a negative operand
    gives the default NaN, ``sqrt(-0) = -0``."""
    if x >= 0.0:
        return math.sqrt(x)
    if x != x:
        return quiet(x)
    return default_nan(x)


# ================================================================================================ integers
@rule()
def smin(w: int) -> int:
    """``-2^(w-1)``, the most negative signed value of width ``w``, in stored form (``1`` for ``i1``)."""
    if w == 1:
        return 1
    if w == 64:
        return I64_MIN
    return -(1 << (w - 1))


@rule()
def smax(w: int) -> int:
    """``2^(w-1) - 1`` in stored form (``0`` for ``i1``)."""
    if w == 64:
        return I64_MAX
    return (1 << (w - 1)) - 1


@rule()
def wrap(v: int, w: int) -> int:
    """The stored form of ``v`` modulo 2^w: sign-extended from bit ``w - 1`` (``((v & M) ^ H) - H`` with
    ``M = 2^w - 1``, ``H = 2^(w-1)``: no step can overflow an int64), ``v & 1`` for ``i1``, ``v`` itself for
    64 bits.  (Branch-free on purpose: a range test first would let LLVM vectorise nothing.)"""
    if w == 64:
        return v
    if w == 1:
        return v & 1
    return ((v & ((1 << w) - 1)) ^ (1 << (w - 1))) - (1 << (w - 1))


@rule()
def sread(v: int, w: int) -> int:
    """The signed (two's complement) reading of a stored value: ``-v`` for ``i1`` (so 1 reads -1)."""
    if w == 1:
        return -v
    return v


@rule()
def uread(v: int, w: int) -> int:
    """The unsigned reading of a stored value of width ``w < 64`` (non-negative, below 2^63)."""
    if w == 1:
        return v
    return v & ((1 << w) - 1)


@rule()
def ubits(v: int, w: int) -> int:
    """The bit pattern of a stored value: its unsigned reading below 64 bits, the int64 pattern at 64."""
    if w == 64:
        return v
    return uread(v, w)


@rule()
def addi(x: int, y: int, w: int) -> int:
    """``x + y`` modulo 2^w.  Below 63 bits the exact sum fits an int64 (|x|, |y| < 2^61)."""
    if w <= 62:
        return wrap(x + y, w)
    return wrap(add64(x, y), w)


@rule()
def subi(x: int, y: int, w: int) -> int:
    """``x - y`` modulo 2^w (exact in int64 below 63 bits)."""
    if w <= 62:
        return wrap(x - y, w)
    return wrap(sub64(x, y), w)


@rule()
def muli(x: int, y: int, w: int) -> int:
    """``x * y`` modulo 2^w; up to 32 bits the exact product fits an int64 (|x|, |y| <= 2^31)."""
    if w <= 32:
        return wrap(x * y, w)
    return wrap(mul64(x, y), w)


@rule(note="the operator & (bitwise and of stored forms is a stored form)")
def andi(x: int, y: int) -> int:
    """Bitwise and: of two sign-extended (or 0/1) values it is again one, so no wrap is needed."""
    return x & y


@rule(note="the operator |")
def ori(x: int, y: int) -> int:
    """Bitwise or of stored forms (a stored form)."""
    return x | y


@rule(note="the operator ^")
def xori(x: int, y: int) -> int:
    """Bitwise exclusive or of stored forms (a stored form)."""
    return x ^ y


@rule()
def ult(x: int, y: int, w: int) -> bool:
    """Unsigned ``x < y`` of width-``w`` values."""
    if w == 64:
        return ult64(x, y)
    return uread(x, w) < uread(y, w)


@rule()
def ule(x: int, y: int, w: int) -> bool:
    """Unsigned ``x <= y`` of width-``w`` values."""
    if w == 64:
        return ule64(x, y)
    return uread(x, w) <= uread(y, w)


@rule()
def cmpi(pred: int, x: int, y: int, w: int) -> int:
    """``arith.cmpi`` / ``index.cmp``: 1 or 0.  ``pred`` is the CmpIPredicate number (:data:`CMPI_PREDICATES`):
    eq/ne compare the stored forms, s* the signed readings, u* the unsigned ones."""
    if pred == 0:
        c = x == y
    elif pred == 1:
        c = x != y
    elif pred == 2:
        c = sread(x, w) < sread(y, w)
    elif pred == 3:
        c = sread(x, w) <= sread(y, w)
    elif pred == 4:
        c = sread(x, w) > sread(y, w)
    elif pred == 5:
        c = sread(x, w) >= sread(y, w)
    elif pred == 6:
        c = ult(x, y, w)
    elif pred == 7:
        c = ule(x, y, w)
    elif pred == 8:
        c = ult(y, x, w)
    else:
        c = ule(y, x, w)
    return 1 if c else 0


@rule()
def minsi(x: int, y: int, w: int) -> int:
    """The operand with the smaller signed reading (``x`` on a tie)."""
    return x if sread(x, w) <= sread(y, w) else y


@rule()
def maxsi(x: int, y: int, w: int) -> int:
    """The operand with the larger signed reading."""
    return x if sread(x, w) >= sread(y, w) else y


@rule()
def minui(x: int, y: int, w: int) -> int:
    """The operand with the smaller unsigned reading."""
    return y if ult(y, x, w) else x


@rule()
def maxui(x: int, y: int, w: int) -> int:
    """The operand with the larger unsigned reading."""
    return y if ult(x, y, w) else x


@rule(note="the conditional expression")
def select(c: int | bool, a: Any, b: Any) -> Any:
    """``arith.select`` on scalars: ``a`` when the i1 condition is 1, else ``b``."""
    return a if c != 0 else b


# ------------------------------------------------------------------------------------------------ division
@rule()
def div_fault(x: int, y: int, w: int, signed: bool) -> int:
    """The undefined cases of integer division and remainder (MLIR gives them no value; xesim reports them):
    :data:`DIV_BY_ZERO`, or :data:`DIV_OVERFLOW` for a signed ``-2^(w-1) / -1`` (divsi, ceildivsi, floordivsi,
    and remsi, which LLVM's ``srem`` also leaves undefined); :data:`OK` otherwise."""
    if y == 0:
        return DIV_BY_ZERO
    if signed and sread(y, w) == -1 and x == smin(w):
        return DIV_OVERFLOW
    return OK


@rule()
def divsi(x: int, y: int, w: int) -> int:
    """Signed division truncating toward zero (after :func:`div_fault` returned OK)."""
    return wrap(sdiv64(sread(x, w), sread(y, w)), w)


@rule()
def remsi(x: int, y: int, w: int) -> int:
    """Remainder of :func:`divsi` (the dividend's sign)."""
    return wrap(srem64(sread(x, w), sread(y, w)), w)


@rule()
def ceildivsi(x: int, y: int, w: int) -> int:
    """Signed division rounding toward +infinity: the truncated quotient plus one when the remainder is
    non-zero and the exact quotient positive (|q| <= 2^62 whenever that adds 1: no overflow)."""
    sx, sy = sread(x, w), sread(y, w)
    q = sdiv64(sx, sy)
    if srem64(sx, sy) != 0 and (sx < 0) == (sy < 0):
        q = q + 1
    return wrap(q, w)


@rule()
def floordivsi(x: int, y: int, w: int) -> int:
    """Signed division rounding toward -infinity (the truncated quotient minus one when the remainder is
    non-zero and the exact quotient negative)."""
    sx, sy = sread(x, w), sread(y, w)
    q = sdiv64(sx, sy)
    if srem64(sx, sy) != 0 and (sx < 0) != (sy < 0):
        q = q - 1
    return wrap(q, w)


@rule()
def divui(x: int, y: int, w: int) -> int:
    """Unsigned division (the readings are below 2^63 under 64 bits, so truncating division is exact)."""
    if w == 64:
        return udiv64(x, y)
    return wrap(sdiv64(uread(x, w), uread(y, w)), w)


@rule()
def remui(x: int, y: int, w: int) -> int:
    """Unsigned remainder."""
    if w == 64:
        return urem64(x, y)
    return wrap(srem64(uread(x, w), uread(y, w)), w)


@rule()
def ceildivui(x: int, y: int, w: int) -> int:
    """Unsigned division rounding up (quotient plus one when the remainder is non-zero)."""
    if w == 64:
        q = udiv64(x, y)
        if urem64(x, y) != 0:
            q = add64(q, 1)
        return q
    ux, uy = uread(x, w), uread(y, w)
    q = sdiv64(ux, uy)
    if srem64(ux, uy) != 0:
        q = q + 1
    return wrap(q, w)


# ------------------------------------------------------------------------------------------------ shifts
@rule()
def shift_fault(y: int, w: int) -> int:
    """:data:`SHIFT_TOO_BIG` when the unsigned reading of the amount is >= ``w`` (MLIR: poison), else OK."""
    if w == 64:
        return OK if ult64(y, 64) else SHIFT_TOO_BIG
    return OK if uread(y, w) < w else SHIFT_TOO_BIG


@rule()
def shift_amount(y: int, w: int) -> int:
    """The shift amount (unsigned reading; < ``w`` once :func:`shift_fault` returned OK)."""
    if w == 64:
        return y
    return uread(y, w)


@rule()
def shli(x: int, y: int, w: int) -> int:
    """``x << n`` modulo 2^w."""
    return wrap(shl64(x, shift_amount(y, w)), w)


@rule()
def shrsi(x: int, y: int, w: int) -> int:
    """Arithmetic shift right of the signed reading."""
    return wrap(ashr64(sread(x, w), shift_amount(y, w)), w)


@rule()
def shrui(x: int, y: int, w: int) -> int:
    """Logical shift right of the unsigned reading."""
    if w == 64:
        return lshr64(x, y)
    return wrap(uread(x, w) >> uread(y, w), w)


# ------------------------------------------------------------------------------------------------ overflow flags
@rule()
def overflow_signed(op: int, x: int, y: int, w: int) -> bool:
    """``overflow<nsw>``: True when the exact result of ``op`` (:data:`OV_ADD` ...) on the signed readings does
    not fit ``w`` bits (the result is poison in MLIR; xesim reports it).  Exact in int64 where the operands
    are narrow enough; otherwise from the wrapped result: a 64-bit sum overflowed iff both operands differ
    in sign from it; a product ``r = x*y mod 2^w`` is exact iff ``x == 0`` or ``r / x == y`` (with ``x == -1``
    apart: then only ``y = -2^(w-1)`` overflows); a shift iff shifting the result back changes it."""
    sx, sy = sread(x, w), sread(y, w)
    if op == OV_SHL:
        r = sread(wrap(shl64(sx, y), w), w)
        return ashr64(r, y) != sx
    if op == OV_MUL:
        if w <= 32:
            p = sx * sy
            return p < sread(smin(w), w) or p > smax(w)
        if sx == 0:
            return False
        if sx == -1:
            return sy == sread(smin(w), w)
        return sdiv64(wrap(mul64(sx, sy), w), sx) != sy
    if w <= 63:
        r = sx + sy if op == OV_ADD else sx - sy
        return r < sread(smin(w), w) or r > smax(w)
    if op == OV_ADD:
        r = add64(x, y)
        return ((x ^ r) & (y ^ r)) < 0
    r = sub64(x, y)
    return ((x ^ y) & (x ^ r)) < 0


@rule()
def overflow_unsigned(op: int, x: int, y: int, w: int) -> bool:
    """``overflow<nuw>``: True when the exact result on the unsigned readings does not fit ``w`` bits (a
    difference when ``x < y``; a product ``r = x*y mod 2^w`` is exact iff ``x == 0`` or ``r / x == y``)."""
    if w == 64:
        if op == OV_ADD:
            return ult64(add64(x, y), x)
        if op == OV_SUB:
            return ult64(x, y)
        if op == OV_MUL:
            if x == 0:
                return False
            return udiv64(mul64(x, y), x) != y
        return lshr64(shl64(x, y), y) != x
    ux, uy = uread(x, w), uread(y, w)
    m = (1 << w) - 1
    if op == OV_SUB:
        return ux < uy
    if op == OV_ADD:
        if w <= 62:
            return ux + uy > m
        return ult64(m, add64(ux, uy))
    if op == OV_MUL:
        if w <= 31:
            return ux * uy > m
        if ux == 0:
            return False
        return sdiv64(mul64(ux, uy) & m, ux) != uy
    return (shl64(ux, y) & m) >> y != ux


# ------------------------------------------------------------------------------------------------ casts
@rule()
def extsi(x: int, ws: int, wd: int) -> int:
    """Sign-extend or truncate a width-``ws`` value to ``wd`` bits (a sign-extended value of ``ws >= 2`` bits is
    already the stored form at every wider width)."""
    if ws >= 2 and wd >= ws:
        return x
    return wrap(sread(x, ws), wd)


@rule()
def extui(x: int, ws: int, wd: int) -> int:
    """Zero-extend or truncate a width-``ws`` value to ``wd`` bits."""
    return wrap(ubits(x, ws), wd)


# ------------------------------------------------------------------------------------------------ integer math
@rule()
def absi(x: int, w: int) -> int:
    """|signed reading| modulo 2^w: ``absi(-2^(w-1)) = -2^(w-1)`` (LLVM ``abs`` with ``is_int_min_poison =
    false``, MLIR's lowering)."""
    sx = sread(x, w)
    if sx < 0:
        return wrap(sub64(0, sx), w)
    return wrap(sx, w)


@rule()
def ctlz(x: int, w: int) -> int:
    """Leading zero bits of the width-``w`` pattern (``w`` for 0)."""
    return wrap(clz64(ubits(x, w)) - (64 - w), w)


@rule()
def cttz(x: int, w: int) -> int:
    """Trailing zero bits of the width-``w`` pattern (``w`` for 0)."""
    u = ubits(x, w)
    if u == 0:
        return wrap(w, w)
    return wrap(ctz64(u), w)


@rule()
def ctpop(x: int, w: int) -> int:
    """Set bits of the width-``w`` pattern."""
    return wrap(popcount64(ubits(x, w)), w)


# ================================================================================================ floats
@rule()
def nan_pick(a: float, b: float, r: float) -> float:
    """The NaN an x86 SSE ``+ - * /`` returns when its result ``r`` is NaN: the first NaN operand, quieted, else
    ``r`` (the default NaN of an invalid operation such as inf - inf).  LLVM may commute ``fadd``/``fmul``, which
    would pick the other payload, and CPython's C arithmetic follows the SSE rule (Intel SDM vol. 1, table
    4-7): stating it makes both engines agree whatever the compiler does."""
    if a != a:
        return quiet(a)
    if b != b:
        return quiet(b)
    return r


@rule()
def addf(a: float, b: float) -> float:
    """IEEE ``a + b`` in the operands' format, correctly rounded (round to nearest even), NaN by
    :func:`nan_pick`; the caller rounds once more to the op's type (see the module docstring)."""
    r = a + b
    if r != r:
        return nan_pick(a, b, r)
    return r


@rule()
def subf(a: float, b: float) -> float:
    """IEEE ``a - b`` (as :func:`addf`)."""
    r = a - b
    if r != r:
        return nan_pick(a, b, r)
    return r


@rule()
def mulf(a: float, b: float) -> float:
    """IEEE ``a * b`` (as :func:`addf`)."""
    r = a * b
    if r != r:
        return nan_pick(a, b, r)
    return r


@rule()
def divf(a: float, b: float) -> float:
    """IEEE ``a / b`` (x/0 is an infinity, 0/0 the default NaN; as :func:`addf`)."""
    r = fdiv(a, b)
    if r != r:
        return nan_pick(a, b, r)
    return r


@rule()
def remf(a: float, b: float) -> float:
    """``arith.remf``: C ``fmod`` -- exact (|r| < |b|, the dividend's sign), so no rounding happens; a NaN
    operand gives it quieted (:func:`nan_pick`), ``fmod(x, 0)`` and ``fmod(inf, y)`` the default NaN,
    ``fmod(x, inf) = x``."""
    if a != a or b != b:
        return nan_pick(a, b, a)
    if b == 0.0 or math.isinf(a):
        return default_nan(a)
    if math.isinf(b):
        return a
    return fmod(a, b)


@rule(note="IEEE binary64 -> binary32 conversion (x86 cvtsd2ss / LLVM fptrunc)")
def narrow_f32(x: float) -> float:
    """Round a binary64 value once to binary32 (RNE; NaN keeps sign and top payload bits, gets the quiet bit)."""
    return to_f32(x)


@rule(inline_in_nests=False)
def round_narrow(x: float, p: int, emin: int, emax: int, nbits: int) -> int:
    """Round the binary64 ``x`` once (round to nearest even) to the IEEE format with precision ``p``, normal
    exponents ``emin .. emax`` and ``nbits`` bits; return its bit pattern.  Exact integer arithmetic on the
    significand ``m`` (53 bits) and exponent: ``q = m >> s`` with the dropped bits ``r`` compared with half an
    ulp; a carry out of the significand bumps the exponent; above ``emax`` the result is infinity.  NaNs keep
    their sign and top payload bits and get the quiet bit (x86 ``cvtsd2ss``, APFloat);  a binary64 subnormal
    lies far below half the smallest subnormal of every narrower format, so it rounds to a signed zero."""
    b = f64_bits(x)
    sbit = lshr64(b, 63) << (nbits - 1)
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
        return sbit
    m = frac | (1 << 52)
    e = expf - 1023
    qe = (e if e > emin else emin) - mb
    s = qe - (e - 52)
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
        eres = qe + mb
        if eres > emax:
            return sbit | expall
        return sbit | ((eres + 1 - emin) << mb) | (q - (1 << mb))
    return sbit | q


@rule()
def f64_to_f16(x: float) -> int:
    """Round a binary64 value once to f16 (its bit pattern)."""
    return round_narrow(x, 11, -14, 15, 16)


@rule()
def f64_to_bf16(x: float) -> int:
    """Round a binary64 value once to bf16 (its bit pattern)."""
    return round_narrow(x, 8, -126, 127, 16)


@rule(note="numba: F16C vcvtps2ph on binary32 operands when the CPU has it (checked against the rule)")
def f32_to_f16(x: float) -> int:
    """Round a binary32 value once to f16, round to nearest even (its bit pattern): :func:`round_narrow` of the
    exact binary64 value; NaN as there (quiet bit set, like ``vcvtps2ph``)."""
    return round_narrow(f64(x), 11, -14, 15, 16)


@rule()
def f32_to_bf16(x: float) -> int:
    """Round a binary32 value once to bf16 (its bit pattern): adding ``0x7FFF`` plus the kept part's last bit
    to the pattern and dropping 16 bits rounds to nearest even (a carry into the exponent is the correct
    binade change, into infinity the correct overflow); a NaN keeps its sign and top payload bits and gets
    the quiet bit."""
    b = f32_bits(x)
    if (b & 0x7FFFFFFF) > 0x7F800000:
        return (b >> 16) | 0x40
    return (b + 0x7FFF + ((b >> 16) & 1)) >> 16


@rule(note="numba: F16C vcvtph2ps when the CPU has it (checked against the rule for all 2^16 inputs)")
def f16_to_f32(h: int) -> float:
    """f16 pattern -> binary32 value (exact; a NaN keeps sign and payload and gets the quiet bit, as
    ``vcvtph2ps``)."""
    return f32_from_bits(f16_to_f32_bits(h))


@rule(inline_in_nests=False)
def f16_to_f32_bits(h: int) -> int:
    """The binary32 pattern of the f16 pattern ``h`` (exact; NaNs quieted)."""
    s = (h & 0x8000) << 16
    e = (h >> 10) & 0x1F
    m = h & 0x3FF
    if e == 0x1F:
        if m == 0:
            return s | 0x7F800000
        return s | 0x7FC00000 | (m << 13)
    if e == 0:
        if m == 0:
            return s
        k = clz64(m) - 53  # m has 10 - k significant bits: m * 2^-24 = 2^(-14-k) * (m << k) / 2^10
        return s | ((113 - k) << 23) | (((m << k) & 0x3FF) << 13)
    return s | ((e + 112) << 23) | (m << 13)


@rule()
def f16_to_f64(h: int) -> float:
    """``arith.extf`` f16 -> f64: exact; a NaN keeps sign and payload *without* quieting (the interpreter has
    always widened with numpy's bit-level half -> double conversion)."""
    if (h & 0x7FFF) > 0x7C00:
        return f64_from_bits(shl64(h & 0x8000, 48) | 0x7FF0000000000000 | ((h & 0x3FF) << 42))
    return f64(f16_to_f32(h))


@rule()
def f32_to_f64(x: float) -> float:
    """``arith.extf`` f32 -> f64: exact (LLVM ``fpext``, x86 ``cvtss2sd``: a NaN gets the quiet bit)."""
    return f64(x)


@rule()
def bf16_to_f64(h: int) -> float:
    """``arith.extf`` bf16 -> f64: exact, through binary32 (so NaNs are quieted, as f32 -> f64)."""
    return f64(bf16_to_f32(h))


@rule()
def bf16_to_f32(h: int) -> float:
    """bf16 pattern -> binary32 value, exact (the pattern shifted to the top half; NaNs unchanged)."""
    return f32_from_bits(h << 16)


@rule()
def bf16_to_f32_quiet(h: int) -> float:
    """``arith.extf`` bf16 -> f32: exact, NaNs quieted (the interpreter has always widened through a C float ->
    double conversion, which sets the quiet bit)."""
    if (h & 0x7FFF) > 0x7F80:
        h = h | 0x40
    return f32_from_bits(h << 16)


# ------------------------------------------------------------------------------------------------ tf32
# tf32 (1 sign, 8 exponent, 10 fraction bits: spec/dpas-numerics.md; xesim/numerics/conversions.py ``tf32``) lives
# in a float32 container with the low 13 fraction bits zero (xesim/exec/values.py), so its values are binary32
# values and these rules take and return binary32 values, like the f32 rules.
@rule()
def f32_to_tf32(x: float) -> float:
    """``arith.truncf`` f32 -> tf32: round the binary32 value once to tf32, round to nearest even, in its
    float32 container.  Adding ``0xFFF`` plus the kept part's last bit to the pattern and clearing the low 13
    bits rounds to nearest even (a carry into the exponent is the correct binade change, into infinity the
    correct overflow: tf32 has binary32's exponent range; binary32 subnormals are spaced linearly like tf32's);
    a NaN keeps its sign and top 10 fraction bits and gets the quiet bit -- what
    :func:`xesim.numerics.conversions.round_float` gives (``tests/numerics/test_scalar_rules.py`` compares)."""
    b = f32_bits(x)
    if (b & 0x7FFFFFFF) > 0x7F800000:
        return f32_from_bits((b & 0xFFFFE000) | 0x400000)
    return f32_from_bits((b + 0xFFF + ((b >> 13) & 1)) & 0xFFFFE000)


@rule()
def f64_to_tf32(x: float) -> float:
    """``arith.truncf`` f64 -> tf32: :func:`round_narrow` of the binary64 value to tf32's 19 bits (precision 11,
    exponents -126 .. 127), placed in the top of its float32 container."""
    return f32_from_bits(round_narrow(x, 11, -126, 127, 19) << 13)


@rule()
def tf32_to_f32(x: float) -> float:
    """``arith.extf`` tf32 -> f32: exact (the container's value); a NaN gets the quiet bit (the interpreter
    widens through binary64, whose x86 conversion sets it)."""
    b = f32_bits(x)
    if (b & 0x7FFFFFFF) > 0x7F800000:
        return f32_from_bits(b | 0x400000)
    return x


# ------------------------------------------------------------------------------------------------ int <-> float
@rule(inline_in_nests=False)
def odd64(mag: int, neg: bool) -> float:
    """The integer with unsigned 64-bit pattern ``mag`` (negated when ``neg``) as a binary64 rounded to odd:
    exact below 2^53; above, the dropped bits are ORed into the last kept one.  Rounding that value once more
    to p <= 51 bits is the correctly rounded result (Boldo & Melquiond, "Emulation of FMA and correctly rounded
    sums: proved algorithms using rounding to odd", IEEE TC 2008)."""
    if mag == 0:
        return 0.0
    bl = 64 - clz64(mag)
    if bl <= 53:
        v = f64(mag)
    else:
        sh = bl - 53
        q = lshr64(mag, sh)
        if (mag & ((1 << sh) - 1)) != 0:
            q = q | 1
        v = f64(q) * (2.0 ** sh)
    return -v if neg else v


@rule()
def itof64(x: int, w: int, signed: bool) -> float:
    """The signed or unsigned reading of a width-``w`` value rounded once to binary64 (LLVM ``sitofp`` /
    ``uitofp`` are single correctly rounded conversions; so is CPython's int -> float)."""
    if signed:
        return f64(sread(x, w))
    if w == 64:
        return u2f64(x)
    return f64(uread(x, w))


@rule()
def itof32(x: int, w: int, signed: bool) -> float:
    """The reading rounded once to binary32: exact in binary64 below 2^53 (then one rounding), else through a
    round-to-odd binary64 (:func:`odd64`; 53 >= 24 + 2)."""
    if w <= 53:
        return to_f32(itof64(x, w, signed))
    if signed:
        v = sread(x, w)
        if v < 0:
            return to_f32(odd64(sub64(0, v), True))
        return to_f32(odd64(v, False))
    return to_f32(odd64(ubits(x, w), False))


@rule()
def itof16(x: int, w: int, signed: bool) -> int:
    """The reading rounded once to f16: through binary32 -- exact below 2^24, and every integer at or above
    2^24 (even after rounding to binary32) exceeds the f16 range, so both give infinity."""
    return f32_to_f16(itof32(x, w, signed))


@rule()
def itobf16(x: int, w: int, signed: bool) -> int:
    """The reading rounded once to bf16: exact binary64 below 2^53, else the round-to-odd binary64
    (:func:`odd64`: 53 >= 8 + 2), then :func:`round_narrow` (a binary32 step could round twice)."""
    if w <= 53:
        return f64_to_bf16(itof64(x, w, signed))
    if signed:
        v = sread(x, w)
        if v < 0:
            return f64_to_bf16(odd64(sub64(0, v), True))
        return f64_to_bf16(odd64(v, False))
    return f64_to_bf16(odd64(ubits(x, w), False))


@rule(note="saturating, NaN -> 0: the Intel GPU rule (xesim/numerics/conversions.py FPTOINT_RULE)")
def ftoi(x: float, w: int, signed: bool) -> int:
    """``arith.fptosi``/``fptoui`` of the binary64 value ``x`` to width ``w``: truncate toward zero, saturate to
    the signed/unsigned range, NaN -> 0 (``conversions.FPTOINT_RULE``: MLIR leaves these cases undefined).  The
    bounds ``2^(w-1)``, ``2^w`` are exact binary64 values; the result is in stored form."""
    if x != x:
        return 0
    t = ftrunc(x)
    if signed:
        if t < -(2.0 ** (w - 1)):
            return smin(w)
        if t >= 2.0 ** (w - 1):
            return smax(w)
        return wrap(f2i64(t), w)
    if t < 0.0:
        return 0
    if t >= 2.0 ** w:
        return wrap(-1, w)
    return wrap(f2i64(t), w)


# ------------------------------------------------------------------------------------------------ compare, min/max
@rule()
def cmpf(pred: int, a: float, b: float) -> int:
    """``arith.cmpf``: 1 or 0.  ``pred`` is the CmpFPredicate number (:data:`CMPF_PREDICATES`).  IEEE 754 §5.11:
    an ordered predicate is false and an unordered one true when an operand is NaN."""
    if pred == 0:
        c = False
    elif pred == 1:
        c = a == b
    elif pred == 2:
        c = a > b
    elif pred == 3:
        c = a >= b
    elif pred == 4:
        c = a < b
    elif pred == 5:
        c = a <= b
    elif pred == 6:
        c = a < b or a > b
    elif pred == 7:
        c = a == a and b == b
    elif pred == 8:
        c = not (a < b or a > b)
    elif pred == 9:
        c = not a <= b
    elif pred == 10:
        c = not a < b
    elif pred == 11:
        c = not a >= b
    elif pred == 12:
        c = not a > b
    elif pred == 13:
        c = a != b
    elif pred == 14:
        c = a != a or b != b
    else:
        c = True
    return 1 if c else 0


@rule()
def neg_sign(x: float) -> bool:
    """The sign bit of ``x`` (also of zeros and NaNs)."""
    return math.copysign(1.0, x) < 0.0


@rule()
def pick_minimum(a: float, b: float) -> bool:
    """``arith.minimumf`` (IEEE 754-2019 minimum) takes ``b`` (True) or ``a``: NaN if either is NaN (the first
    NaN), -0 < +0.  The chosen operand is returned unchanged (payload and zero sign kept)."""
    if a != a:
        return False
    return b != b or b < a or (a == b and neg_sign(b) and not neg_sign(a))


@rule()
def pick_maximum(a: float, b: float) -> bool:
    """``arith.maximumf`` (IEEE 754-2019 maximum) takes ``b``: NaN if either is NaN, +0 > -0."""
    if a != a:
        return False
    return b != b or b > a or (a == b and not neg_sign(b) and neg_sign(a))


@rule()
def pick_minnum(a: float, b: float) -> bool:
    """``arith.minnumf`` (IEEE 754-2008 minNum) takes ``b``: the other operand when one is NaN; -0 < +0
    (an assumption: LLVM allows either operand when they compare equal)."""
    if b != b:
        return False
    return a != a or b < a or (a == b and neg_sign(b) and not neg_sign(a))


@rule()
def pick_maxnum(a: float, b: float) -> bool:
    """``arith.maxnumf`` (IEEE 754-2008 maxNum) takes ``b``; +0 > -0 (assumption, as :func:`pick_minnum`)."""
    if b != b:
        return False
    return a != a or b > a or (a == b and not neg_sign(b) and neg_sign(a))


# ------------------------------------------------------------------------------------------------ sign bits
@rule()
def sign_bit(nbits: int) -> int:
    """The sign bit of an ``nbits``-wide float pattern (as an int64)."""
    if nbits == 64:
        return I64_MIN
    return 1 << (nbits - 1)


@rule()
def flip_sign(b: int, nbits: int) -> int:
    """``arith.negf`` on the bit pattern: flip the sign bit (also of NaN)."""
    return b ^ sign_bit(nbits)


@rule()
def clear_sign(b: int, nbits: int) -> int:
    """``math.absf`` on the bit pattern: clear the sign bit (also of NaN)."""
    return b & ~sign_bit(nbits)


@rule()
def copy_sign(b: int, s: int, nbits: int) -> int:
    """``math.copysign`` on the bit patterns: the magnitude bits of ``b`` with the sign bit of ``s``."""
    m = sign_bit(nbits)
    return (b & ~m) | (s & m)


# ------------------------------------------------------------------------------------------------ math
@rule(note="IEEE square root (x86 sqrtsd/sqrtss)")
def sqrtf(x: float) -> float:
    """``math.sqrt`` in the operand's format (correctly rounded, IEEE 754); a NaN is quieted, a negative operand
    gives the default NaN.  f16/bf16/f32 computed in binary64 and rounded once to binary32 is the same value
    (53 >= 2*24 + 2: Figueroa's theorem covers sqrt)."""
    return fsqrt(x)


@rule(note="IEEE roundToIntegralTowardNegative (LLVM llvm.floor)")
def floorf(x: float) -> float:
    """``math.floor`` of a binary64 value (exact; the caller narrows the representable result)."""
    return ffloor(x)


@rule(note="IEEE roundToIntegralTowardPositive (LLVM llvm.ceil)")
def ceilf(x: float) -> float:
    """``math.ceil`` of a binary64 value (exact)."""
    return fceil(x)


@rule(note="IEEE roundToIntegralTowardZero (LLVM llvm.trunc)")
def truncf(x: float) -> float:
    """``math.trunc`` of a binary64 value (exact)."""
    return ftrunc(x)


@rule(note="IEEE roundToIntegralTiesToEven (LLVM llvm.rint in the default rounding mode)")
def roundevenf(x: float) -> float:
    """``math.roundeven`` of a binary64 value (round half to even; exact)."""
    return frint(x)


@rule()
def roundf(x: float) -> float:
    """``math.round`` of a binary64 value: half away from zero (exact: ``x - trunc(x)`` is exact in binary
    floating point)."""
    t = ftrunc(x)
    if abs(x - t) >= 0.5:
        return t + math.copysign(1.0, x)
    return t


@rule(inline_in_nests=False)
def fma_odd(a: float, b: float, c: float) -> float:
    """``a * b + c`` for binary64 operands holding values of a format with p <= 24, rounded to odd in binary64:
    the product is exact (<= 48 bits), TwoSum gives the sum's exact error, an inexact sum with an even last
    bit moves one ulp toward the error; narrowing the result once is then the correctly rounded fma (Boldo &
    Melquiond 2008).  NaN: the first NaN of a, b, then an invalid product (default NaN), then c, quieted
    (numpy's order, which the interpreter follows)."""
    p = a * b
    s = p + c
    if s != s:
        if a != a or b != b:
            return nan_pick(a, b, s)
        if p != p:
            return p
        return nan_pick(c, c, s)
    bb = s - p
    e = (p - (s - bb)) + (c - bb)
    if math.isfinite(a) and math.isfinite(b) and math.isfinite(c) and math.isfinite(s) and e != 0.0 \
            and (f64_bits(s) & 1) == 0:
        s = np.nextafter(s, math.copysign(math.inf, e))
    return s


@rule()
def isnanf(x: float) -> int:
    """1 when ``x`` is a NaN."""
    return 1 if x != x else 0


@rule()
def isinff(x: float) -> int:
    """1 when ``x`` is an infinity."""
    return 1 if math.isinf(x) else 0


@rule()
def isfinitef(x: float) -> int:
    """1 when ``x`` is finite."""
    return 1 if math.isfinite(x) else 0


@rule()
def isnormalf(x: float, tiny: float) -> int:
    """1 when ``x`` is finite with ``|x| >= tiny``, the smallest normal magnitude of its format."""
    return 1 if math.isfinite(x) and abs(x) >= tiny else 0


# ================================================================================================ the rule table
_NARROW_OP = ("narrow_f32", "f32_to_f16", "f32_to_bf16")  # results computed in the operands' format
_NARROW_F64 = ("narrow_f32", "f64_to_f16", "f64_to_bf16")  # results computed (or exact) in binary64


def _int_ops(arith: str, index: str | None, *rules: str) -> dict[str, tuple[str, ...]]:
    out = {f"arith.{arith}": (*rules, "wrap")}
    if index:
        out[f"index.{index}"] = (*rules, "wrap")
    return out


#: op -> the rules that define its scalar semantics, in the order they apply.  The interpreter's steps and
#: compiled code obtain every rule they use through :func:`lookup`, which refuses a rule not listed here for the
#: op.  ``wrap`` appears with every integer op: it converts the interpreter's unsigned types to the signless
#: form.  Widening an f16/bf16 operand to its value (exact) is value representation, not listed.
OP_RULES: dict[str, tuple[str, ...]] = {
    **_int_ops("addi", "add", "addi", "overflow_signed", "overflow_unsigned"),
    **_int_ops("subi", "sub", "subi", "overflow_signed", "overflow_unsigned"),
    **_int_ops("muli", "mul", "muli", "overflow_signed", "overflow_unsigned"),
    **_int_ops("andi", "and", "andi"), **_int_ops("ori", "or", "ori"), **_int_ops("xori", "xor", "xori"),
    **_int_ops("minsi", "mins", "minsi"), **_int_ops("maxsi", "maxs", "maxsi"),
    **_int_ops("minui", "minu", "minui"), **_int_ops("maxui", "maxu", "maxui"),
    **_int_ops("divsi", "divs", "div_fault", "divsi"), **_int_ops("divui", "divu", "div_fault", "divui"),
    **_int_ops("ceildivsi", "ceildivs", "div_fault", "ceildivsi"),
    **_int_ops("ceildivui", "ceildivu", "div_fault", "ceildivui"),
    **_int_ops("floordivsi", "floordivs", "div_fault", "floordivsi"),
    **_int_ops("remsi", "rems", "div_fault", "remsi"), **_int_ops("remui", "remu", "div_fault", "remui"),
    **_int_ops("shli", "shl", "shift_fault", "shift_amount", "overflow_signed", "overflow_unsigned", "shli"),
    **_int_ops("shrsi", "shrs", "shift_fault", "shrsi"), **_int_ops("shrui", "shru", "shift_fault", "shrui"),
    **_int_ops("cmpi", "cmp", "cmpi"),
    **_int_ops("extsi", "casts", "extsi"), **_int_ops("trunci", None, "extsi"),
    **_int_ops("index_cast", None, "extsi"), **_int_ops("extui", "castu", "extui"),
    **_int_ops("index_castui", None, "extui"),
    **_int_ops("sitofp", None, "itof64", "itof32", "itof16", "itobf16"),
    **_int_ops("uitofp", None, "itof64", "itof32", "itof16", "itobf16"),
    **_int_ops("fptosi", None, "ftoi"), **_int_ops("fptoui", None, "ftoi"),
    **_int_ops("bitcast", None, "ubits"),
    "arith.select": ("select",),
    **{f"math.{n}": (n, "wrap") for n in ("absi", "ctlz", "cttz", "ctpop")},
    **{f"arith.{n}": (n, *_NARROW_OP) for n in ("addf", "subf", "mulf", "divf")},
    "arith.remf": ("remf", *_NARROW_F64),
    **{f"arith.{n}f": (f"pick_{n}", "select") for n in ("minimum", "maximum", "minnum", "maxnum")},
    "arith.cmpf": ("cmpf",),
    "arith.negf": ("flip_sign",),
    "math.absf": ("clear_sign",),
    "math.copysign": ("copy_sign",),
    "arith.extf": ("f16_to_f32", "f16_to_f64", "bf16_to_f32_quiet", "bf16_to_f64", "f32_to_f64", "tf32_to_f32"),
    "arith.truncf": ("narrow_f32", "f64_to_f16", "f64_to_bf16", "f32_to_f16", "f32_to_bf16", "f32_to_tf32",
                     "f64_to_tf32"),
    "math.sqrt": ("sqrtf", *_NARROW_OP),
    **{f"math.{n}": (f"{n}f", *_NARROW_F64) for n in ("floor", "ceil", "trunc", "roundeven", "round")},
    "math.fma": ("fma_odd", *_NARROW_F64),
    **{f"math.{n}": (f"{n}f",) for n in ("isnan", "isinf", "isfinite", "isnormal")},
    # the host libm's functions (xesim/numerics/mathfuncs.py LIBM_UNARY/LIBM_BINARY, numba-compiled in both
    # engines), rounded once from binary64
    **{f"math.{n}": _NARROW_F64 for n in ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
                                          "tan", "atan", "tanh", "erf", "powf", "atan2")},
}

#: what an op's row of the table does not say by itself
OP_NOTES: dict[str, str] = {
    **{f"math.{n}": f"the host libm's {n} of the binary64 operand(s) (xesim/numerics/mathfuncs.py LIBM_UNARY / "
                    "LIBM_BINARY), compiled by numba in both engines, then rounded once by these rules"
       for n in ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "atan", "tanh", "erf",
                 "powf", "atan2")},
    "math.fma": "f16/bf16/f32 only: f64 fma is exact rational arithmetic in the interpreter (mathfuncs.fma), "
                "compiled loops leave it to the interpreter",
    "arith.select": "scalars; vectors select element-wise with numpy",
}

for _op, _names in OP_RULES.items():
    RULES[_op] = [BY_NAME[_n] for _n in _names]
    for _n in _names:
        BY_NAME[_n].__rule_ops__ = (*BY_NAME[_n].__rule_ops__, _op)
