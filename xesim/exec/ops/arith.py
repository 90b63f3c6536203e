"""arith dialect semantics (mlir/docs/Dialects/ArithOps.md; ARCHITECTURE.md "Numerics").

Values (``xesim/exec/values.py``): integer/index scalars are Python ints wrapped to their width (signless
and signed types hold the two's-complement signed value, unsigned types the unsigned value, i1 is 0/1);
float scalars are numpy scalars of the exact type; vectors are numpy arrays (i1 vectors are bool arrays).
Every op works element-wise on vectors of any shape.  All type dispatch happens at compile time: each op
compiles to a closure specialised for its element type.

Integers
    Arithmetic wraps at the width.  Signed/unsigned ops read the bits as two's complement / unsigned.
    MLIR gives no value to division by zero, to the signed overflow ``INT_MIN / -1`` (divsi, ceildivsi,
    floordivsi, and remsi, which LLVM's ``srem`` also leaves undefined), to shifts by >= the bit width, and
    to results that overflow an ``overflow<nsw|nuw>`` flag (poison); xesim reports each as an
    :class:`ExecFault` (ARCHITECTURE.md: undefined cases are reported, not given a value).

Floats
    IEEE 754 with round-to-nearest-even in the exact type.  Scalar f16/bf16/f32 +, -, *, / are computed on
    Python floats (binary64) and rounded once to the type; vectors use numpy's/ml_dtypes' loops, which
    compute f16/bf16 in float32 and round once.  Both are correctly rounded: the exact result of +, -, *, /
    on p-bit operands, rounded first to q >= 2p + 2 bits and then to p bits, equals the direct rounding
    (Figueroa 1995, "When is double rounding innocuous?"); float64 has q = 53 >= 2*24 + 2 and float32 has
    q = 24 >= 2*11 + 2.  The binary64 -> type step is itself a single rounding (C cast for f32, numpy's
    direct double -> half for f16; ml_dtypes rounds double -> float -> bfloat16, which by the same theorem,
    applied twice, still equals the direct rounding for results of one +, -, *, / on bf16 operands).
    Overflow, infinities and NaN take a slow path evaluated in float64 under ``np.errstate`` and rounded
    exactly by :mod:`xesim.numerics.conversions`, so numpy never warns.  Other float types (fp8, tf32)
    always take that path.  NaN results are whatever the host's IEEE arithmetic produces (x86: the
    default NaN has the sign bit set, printed ``-nan``); this is an assumption.  ``fastmath`` flags are
    accepted and ignored: xesim always computes the IEEE result (the flags only permit deviations).
    remf = C fmod; negf flips the sign bit (also of NaN); minimumf/maximumf propagate NaN and order
    -0 < +0; minnumf/maxnumf return the non-NaN operand (see :mod:`xesim.numerics.mathfuncs`).

Conversions: see :mod:`xesim.numerics.conversions` (truncf honours ``roundingmode``; fptosi/fptoui saturate
and map NaN to 0, the Intel GPU rule).

Scalars are computed by the rules of :mod:`xesim.numerics.scalar_rules` -- the functions compiled host loops
call -- for integers of 1..64 bits and f16/bf16/f32/f64 (:func:`rule_step`: each op's step is generated from
the rules' own code, specialised for the op's types).  Only wider integers (Python big ints) and the other
float formats (fp8; tf32 apart from ``truncf``/``extf``), which compiled code never handles, keep the element-type
paths below, as do vectors
(numpy/ml_dtypes loops; the module docstring's arguments above apply to them).
"""

from __future__ import annotations

import functools
import math
import operator
import re
from typing import Any

import numpy as np

from xesim.diagnostics import Diagnostic, DiagnosticError
from xesim.exec import values as V  # noqa: N812 - the codebase-wide alias
from xesim.exec.faults import ExecFault
from xesim.exec.registry import impl as _register
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.numerics import conversions as C  # noqa: N812 - short alias
from xesim.numerics import mathfuncs as M  # noqa: N812 - short alias
from xesim.numerics import scalar_rules as R  # noqa: N812 - short alias
from xesim.numerics.specialize import build as _build
from xesim.numerics.specialize import inlinable as _inlinable


def impl(*names: str):
    """``@impl`` for these modules: compile-time problems (an element type xesim cannot represent, an
    unknown enum case) become a located diagnostic instead of a Python traceback."""

    def wrap(fn):
        @functools.wraps(fn)
        def guarded(op: Any, cx: Any):
            try:
                return fn(op, cx)
            except (ValueError, NotImplementedError, KeyError, IndexError) as exc:
                msg = exc.args[0] if exc.args else type(exc).__name__
                raise DiagnosticError(Diagnostic("error", op.loc, f"'{op.name}' op {msg}")) from None

        _register(*names)(guarded)
        return fn

    return wrap


# =========================================================================== element type information


class IntInfo:
    """Compile-time facts about an integer or index element type.

    ``kind`` is ``signed`` (signless width >= 2, signed types, index: stored as the signed value), ``bit``
    (width 1: stored 0/1) or ``unsigned`` (unsigned types: stored as the unsigned value)."""

    def __init__(self, t: T.Type) -> None:
        self.type = t
        w = 64 if isinstance(t, T.IndexType) else t.width  # type: ignore[attr-defined]
        self.width = w
        self.mask = (1 << w) - 1
        self.half = 1 << (w - 1)
        self.smin = -self.half
        self.smax = self.half - 1
        self.umax = self.mask
        if w == 1:
            self.kind = "bit"
        elif isinstance(t, T.IntegerType) and t.signedness == "u":
            self.kind = "unsigned"
        else:
            self.kind = "signed"
        try:
            self.dtype = V.dtype_of(t)
        except NotImplementedError:
            self.dtype = None  # wider than 64 bits: scalars only
        self.std = w in (8, 16, 32, 64)

    def __str__(self) -> str:
        return str(self.type)

    # ---------------------------------------------------------------- scalars
    def s(self, v: int) -> int:
        """Signed (two's complement) reading of a stored value."""
        if self.kind == "signed":
            return v
        v &= self.mask
        return v - (1 << self.width) if v >= self.half else v

    def u(self, v: int) -> int:
        """Unsigned reading of a stored value."""
        return v & self.mask

    def wrap(self, v: int) -> int:
        """Stored representation of the integer ``v`` modulo 2^width."""
        v &= self.mask
        if self.kind == "signed" and v >= self.half:
            v -= 1 << self.width
        return v

    def signed_reader(self):
        """``s`` as a fast callable (None when it is the identity)."""
        return None if self.kind == "signed" else self.s

    def unsigned_reader(self):
        m = self.mask
        return lambda v: v & m

    def wrapper(self):
        """A fast ``wrap`` closure."""
        m, h, full = self.mask, self.half, 1 << self.width
        if self.kind == "signed":
            lo, hi = -h, h - 1

            def wrap_signed(v: int) -> int:
                if lo <= v <= hi:
                    return v
                v &= m
                return v - full if v >= h else v

            return wrap_signed
        return lambda v: v & m

    # ---------------------------------------------------------------- arrays
    def need_array(self) -> None:
        if self.dtype is None or self.width > 64:
            raise NotImplementedError(f"vectors of {self.type} are not supported")

    def s64(self, a: np.ndarray) -> np.ndarray:
        """Signed reading of a stored array, as int64 (unsigned types: the rule ``wrap`` applied to the array --
        its formula is exact on int64 arrays too)."""
        if self.kind == "bit":
            return -a.astype(np.int64)
        v = a.astype(np.int64)
        if self.kind == "unsigned" and self.width < 64:
            v = R.wrap(v, self.width)
        return v

    def u64(self, a: np.ndarray) -> np.ndarray:
        """Unsigned reading of a stored array, as uint64."""
        if self.kind == "bit":
            return a.astype(np.uint64)
        v = a.astype(np.int64).view(np.uint64) if a.dtype.kind == "i" else a.astype(np.uint64)
        if self.width < 64:
            v = v & np.uint64(self.mask)
        return v

    def pack(self, v: np.ndarray) -> np.ndarray:
        """Wrap an int64/uint64 array (any values) to this type's stored representation."""
        if self.kind == "bit":
            return (v & 1).astype(bool)
        if self.std:
            return v.astype(self.dtype)
        v = v.astype(np.int64)
        if self.kind == "signed":
            return R.wrap(v, self.width).astype(self.dtype)  # the scalar rule, on the whole array
        return (v & np.int64(self.mask)).astype(self.dtype)


class FloatInfo:
    """Compile-time facts about a float element type."""

    def __init__(self, t: T.FloatType) -> None:
        self.type = t
        self.name = t.name
        self.fmt = C.float_format(t.name)
        self.dtype = self.fmt.dtype
        self.scalar = self.dtype.type
        self.lim = self.fmt.max_value
        self.fast = self.name in ("f16", "bf16", "f32", "f64")

    def __str__(self) -> str:
        return self.name

    def from_f64(self, r: Any) -> Any:
        """Round float64 value(s) once (RNE) to this type; 0-d input gives a numpy scalar."""
        out = M.narrow(np.asarray(r, dtype=np.float64), self.name)
        return out[()] if out.ndim == 0 else out

    def converter(self):
        """A fast exact-for-representable / correctly-rounded converter from a Python float (finite and
        within ``lim``) to a numpy scalar of this type."""
        if self.name == "f64":
            return np.float64
        buf = np.zeros(1, self.dtype)

        def conv(r: float) -> Any:
            buf[0] = r
            return buf[0]

        return conv


@functools.cache
def int_info(t: T.Type) -> IntInfo:
    return IntInfo(t)


@functools.cache
def float_info(t: T.Type) -> FloatInfo:
    return FloatInfo(t)  # type: ignore[arg-type]


def elem(t: T.Type) -> T.Type:
    return T.element_type_of(t)


def is_vec(t: T.Type) -> bool:
    return isinstance(t, T.VectorType)


def rank0(t: T.Type) -> bool:
    return isinstance(t, T.VectorType) and len(t.shape) == 0


def fix0d(fn, t: T.Type):
    """numpy ufuncs return scalars for 0-d inputs; keep 0-d vectors as arrays."""
    if not rank0(t):
        return fn
    return lambda *xs: np.asarray(fn(*xs))


def where_first(mask: np.ndarray) -> str:
    """``" (vector element [i, j])"`` for the first set element of ``mask`` ('' for 0-d)."""
    if mask.ndim == 0:
        return ""
    idx = np.argwhere(mask)[0]
    return " (vector element [" + ", ".join(str(int(i)) for i in idx) + "])"


def enum_case(attr: A.Attribute | None, cases: list[str], default: str | None = None) -> str:
    """The case name of an enum attribute stored as an IntegerAttr index, a keyword, a string or opaque
    text such as ``#index<cmp_predicate slt>``."""
    if attr is None:
        if default is None:
            raise ValueError("missing enum attribute")
        return default
    if isinstance(attr, A.IntegerAttr):
        return cases[attr.value]
    if isinstance(attr, A.EnumValue):
        return attr.enum_value
    if isinstance(attr, A.StringAttr):
        return attr.value
    words = re.findall(r"[A-Za-z_][A-Za-z_0-9]*", str(attr))
    for w in reversed(words):
        if w in cases:
            return w
    raise ValueError(f"cannot read enum case from {attr}")


def flag_set(attr: A.Attribute | None) -> set[str]:
    """Cases of a flags attribute such as ``#arith.overflow<nsw, nuw>``."""
    if attr is None:
        return set()
    if isinstance(attr, A.DialectAttr):
        return {str(v) for _, v in attr.params} - {"none"}
    return set(re.findall(r"\b(nsw|nuw)\b", str(attr)))


# =========================================================================== scalar steps from the rules

_H16 = np.zeros(1, np.uint16)  # a 16-bit float as its bits and as a value (no FP conversion either way)
_H16F = _H16.view(np.float16)
_H16B = _H16.view(C.float_format("bf16").dtype)


@_inlinable
def _f16_of(b):
    """The interpreter's f16 value (numpy.float16) with bit pattern ``b``."""
    _H16[0] = b
    return _H16F[0]


@_inlinable
def _bf16_of(b):
    """The interpreter's bf16 value with bit pattern ``b``."""
    _H16[0] = b
    return _H16B[0]


@_inlinable
def _f16_bits(x):
    """The bit pattern of an f16 value."""
    _H16F[0] = x
    return int(_H16[0])


@_inlinable
def _bf16_bits(x):
    """The bit pattern of a bf16 value."""
    _H16B[0] = x
    return int(_H16[0])


def _div_error(st: int, info: IntInfo) -> ExecFault:
    if st == R.DIV_BY_ZERO:
        return ExecFault("division by zero")
    return ExecFault(f"signed division overflow: {info.smin} / -1 does not fit in {info}")


def _shift_error(y: int, info: IntInfo) -> ExecFault:
    return ExecFault(f"shift amount {y & info.mask} is not less than the bit width {info.width}")


def _overflow_error(base: str, flag: str, x: int, y: int, info: IntInfo) -> ExecFault:
    """The message of a poison result (the exact result computed with Python integers, for the text only)."""
    exact = {"addi": operator.add, "subi": operator.sub, "muli": operator.mul, "shli": operator.lshift}[base]
    if flag == "nsw":
        r = exact(info.s(x), y if base == "shli" else info.s(y))
        return ExecFault(f"signed overflow in {base} with overflow<nsw> (poison in MLIR): result {r} does not fit in "
                         f"{info}")
    r = exact(info.u(x), info.u(y))
    return ExecFault(f"unsigned overflow in {base} with overflow<nuw> (poison in MLIR): result {r} does not fit in "
                     f"{info}")


_RULE_GLOBALS: dict[str, Any] = {k: v for k, v in vars(R).items() if not k.startswith("__")}
_RULE_GLOBALS.update({"_H16": _H16, "_H16F": _H16F, "_H16B": _H16B, "_F64": np.float64, "_f16_of": _f16_of,
                      "_bf16_of": _bf16_of, "_f16_bits": _f16_bits,
                      "_bf16_bits": _bf16_bits, "_div_error": _div_error, "_shift_error": _shift_error,
                      "_overflow_error": _overflow_error})

#: float types the rules cover (the types compiled host loops support)
RULE_FLOATS = ("f16", "bf16", "f32", "f64")

#: the step expression of a float result, by type: from a value computed in the operands' format (``op``,
#: rounded once to binary32 for f16/bf16/f32) or from a binary64 value (``f64``, rounded once to the type)
_FROM_OP = {"f32": "narrow_f32({})", "f64": "_F64({})", "f16": "_f16_of(f32_to_f16(narrow_f32({})))",
            "bf16": "_bf16_of(f32_to_bf16(narrow_f32({})))"}
_FROM_F64 = {"f32": "narrow_f32({})", "f64": "_F64({})", "f16": "_f16_of(f64_to_f16({}))",
             "bf16": "_bf16_of(f64_to_bf16({}))"}
#: bits of / value from a float of each type (interpreter values <-> the rules' bit patterns)
_BITS_OF = {"f32": "f32_bits({})", "f64": "f64_bits({})", "f16": "_f16_bits({})", "bf16": "_bf16_bits({})"}
_OF_BITS = {"f32": "f32_from_bits({})", "f64": "_F64(f64_from_bits({}))", "f16": "_f16_of({})", "bf16": "_bf16_of({})"}
FLOAT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


def rule_step(op_name: str, body: str, slots: dict[str, int], **consts: Any):
    """The step of a scalar op generated from the rules (:mod:`xesim.numerics.specialize`).

    ``body`` is the step's code reading and writing the frame ``fr``; the names in ``slots`` are frame slots
    (``_o``, ``_a`` ...), the upper-case names in ``consts`` constants (a width ``W``, a predicate ``PRED``),
    every other name a rule, a primitive or one of the value conversions above.  The rules the body calls are
    looked up for ``op_name`` (:func:`xesim.numerics.scalar_rules.lookup`: they must be rules of that op) and
    inlined, so the step computes exactly what calling them computes."""
    names = sorted(slots)
    for fname in _called_rules(body):
        R.lookup(op_name, fname, "interpreter")
    src = (f"def _make({', '.join(names)}):\n    def step(fr):\n"
           + "".join(f"        {line}\n" for line in body.strip().splitlines()) + "    return step\n")
    return _build(src, _RULE_GLOBALS, consts, persist=True)(*[slots[n] for n in names])


@functools.cache
def _called_rules(body: str) -> tuple[str, ...]:
    """Names of the rules (not primitives or helpers) a step body calls."""
    import ast

    out = []
    for node in ast.walk(ast.parse(body.strip())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            fn = R.BY_NAME.get(node.func.id)
            if fn is not None and fn.__rule_ops__ and node.func.id not in out:
                out.append(node.func.id)
    return tuple(out)


def int_operand(info: IntInfo, slot: str) -> str:
    """The expression of an integer operand in the rules' signless stored form (unsigned types are stored as
    their unsigned value in the interpreter)."""
    return f"wrap(fr[{slot}], {info.width})" if info.kind == "unsigned" else f"fr[{slot}]"


def int_result(info: IntInfo, expr: str) -> str:
    """The interpreter's stored form of a rule's integer result."""
    return f"({expr}) & {info.mask}" if info.kind == "unsigned" else expr


def rules_cover_int(info: IntInfo) -> bool:
    return info.width <= 64


# =========================================================================== integer binary ops


def _trunc_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def _check_div(name: str, signed: bool, info: IntInfo):
    """Scalar division semantic with MLIR's undefined cases reported."""
    smin = info.smin

    def check(x: int, y: int) -> None:
        if y == 0:
            raise ExecFault("division by zero")
        if signed and y == -1 and x == smin:
            raise ExecFault(f"signed division overflow: {x} / -1 does not fit in {info}")

    return check


def _scalar_divs(kind: str, info: IntInfo):
    check = _check_div(kind, kind.endswith("s"), info)
    if kind == "divs":
        def f(x: int, y: int) -> int:
            check(x, y)
            return _trunc_div(x, y)
    elif kind == "rems":
        def f(x: int, y: int) -> int:
            check(x, y)
            r = abs(x) % abs(y)
            return -r if x < 0 else r
    elif kind == "ceildivs":
        def f(x: int, y: int) -> int:
            check(x, y)
            return -((-x) // y)
    elif kind == "floordivs":
        def f(x: int, y: int) -> int:
            check(x, y)
            return x // y
    elif kind == "divu":
        def f(x: int, y: int) -> int:
            check(x, y)
            return x // y
    elif kind == "remu":
        def f(x: int, y: int) -> int:
            check(x, y)
            return x % y
    elif kind == "ceildivu":
        def f(x: int, y: int) -> int:
            check(x, y)
            return -((-x) // y)
    else:  # pragma: no cover
        raise KeyError(kind)
    return f


def _array_divs(kind: str, info: IntInfo):
    signed = kind.endswith("s")

    def f(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        zero = b == 0
        if zero.any():
            raise ExecFault("division by zero" + where_first(zero))
        if signed:
            ov = (a == info.smin) & (b == -1)
            if ov.any():
                raise ExecFault(f"signed division overflow: {info.smin} / -1 does not fit in {info}" + where_first(ov))
        q = np.floor_divide(a, b)
        r = a - q * b
        if kind in ("divs", "rems"):
            adj = (r != 0) & ((a < 0) != (b < 0))
            if kind == "divs":
                return q + adj
            return np.fmod(a, b)
        if kind in ("ceildivs", "ceildivu"):
            return q + (r != 0)
        if kind == "floordivs":
            return q
        if kind == "divu":
            return q
        return r  # remu

    return f


#: name -> (reading of the operands: raw/s/u, scalar fn, array fn builder or ufunc)
_INT_BIN_SIMPLE = {
    "addi": (operator.add, np.add),
    "subi": (operator.sub, np.subtract),
    "muli": (operator.mul, np.multiply),
    "andi": (operator.and_, np.bitwise_and),
    "ori": (operator.or_, np.bitwise_or),
    "xori": (operator.xor, np.bitwise_xor),
}
_INT_BIN_MINMAX = {
    "minsi": ("s", min, np.minimum),
    "maxsi": ("s", max, np.maximum),
    "minui": ("u", min, np.minimum),
    "maxui": ("u", max, np.maximum),
}
_INT_DIV = {
    "divsi": "divs",
    "divui": "divu",
    "ceildivsi": "ceildivs",
    "ceildivui": "ceildivu",
    "floordivsi": "floordivs",
    "remsi": "rems",
    "remui": "remu",
}


def compile_int_binary(base: str, t: T.Type, a: int, b: int, o: int, flags: set[str] | frozenset = frozenset(),
                       op_name: str | None = None):
    """Step for integer binary op ``base`` (arith name without prefix, e.g. ``addi``, ``divsi``, ``shli``) on
    type ``t`` (scalar or vector) reading slots ``a``, ``b`` and writing ``o``.  Shared by the index dialect
    (``op_name`` names the op whose rules are used; default ``arith.<base>``)."""
    info = int_info(elem(t))
    vec = is_vec(t)
    if vec:
        info.need_array()
        return _compile_int_binary_vec(base, t, info, a, b, o, flags)
    if rules_cover_int(info):
        return _int_binary_rule_step(op_name or f"arith.{base}", base, info, a, b, o, flags)
    return _compile_int_binary_wide(base, info, a, b, o, flags)


_SIGNED_DIV = {"divsi", "ceildivsi", "floordivsi", "remsi"}
_OV_OPS = {"addi": R.OV_ADD, "subi": R.OV_SUB, "muli": R.OV_MUL, "shli": R.OV_SHL}


def _int_binary_rule_step(op_name: str, base: str, info: IntInfo, a: int, b: int, o: int, flags):
    """A scalar integer binary op of 1..64 bits: its rule (the same name as the arith op), after the rules
    reporting its undefined cases (division, shift amount, overflow flags)."""
    if base not in _INT_BIN_SIMPLE and base not in _INT_BIN_MINMAX and base not in _INT_DIV \
            and base not in ("shli", "shrsi", "shrui"):
        raise KeyError(base)
    lines = [f"x = {int_operand(info, '_a')}", f"y = {int_operand(info, '_b')}"]
    if base in _INT_DIV:
        lines += [f"st = div_fault(x, y, W, {base in _SIGNED_DIV})", "if st:", "    raise _div_error(st, _info)"]
    if base in ("shli", "shrsi", "shrui"):
        lines += ["if shift_fault(y, W):", "    raise _shift_error(y, _info)"]
    if flags:
        if base not in _OV_OPS:
            raise KeyError(f"{base} with overflow flags")
        amount = "shift_amount(y, W)" if base == "shli" else "y"
        for flag, fn in (("nsw", "overflow_signed"), ("nuw", "overflow_unsigned")):
            if flag in flags:
                lines += [f"if {fn}({_OV_OPS[base]}, x, {amount}, W):",
                          f"    raise _overflow_error({base!r}, {flag!r}, x, {amount}, _info)"]
    call = f"{base}(x, y)" if base in ("andi", "ori", "xori") else f"{base}(x, y, W)"
    lines.append(f"fr[_o] = {int_result(info, call)}")
    return rule_step(op_name, "\n".join(lines), {"_o": o, "_a": a, "_b": b, "_info": info}, W=info.width)


def _compile_int_binary_wide(base: str, info: IntInfo, a: int, b: int, o: int, flags):
    """Integers wider than 64 bits (Python integers; compiled code never sees them): the element-type path."""
    wrap = info.wrapper()
    if flags:
        return _compile_int_flags(base, info, a, b, o, flags)
    if base in _INT_BIN_SIMPLE:
        fn = _INT_BIN_SIMPLE[base][0]
        if info.kind == "signed":
            lo, hi, m, h, full = info.smin, info.smax, info.mask, info.half, 1 << info.width
            if base == "addi":
                def step(fr: list) -> None:
                    r = fr[a] + fr[b]
                    if lo <= r <= hi:
                        fr[o] = r
                    else:
                        r &= m
                        fr[o] = r - full if r >= h else r
                return step
            if base == "subi":
                def step(fr: list) -> None:
                    r = fr[a] - fr[b]
                    if lo <= r <= hi:
                        fr[o] = r
                    else:
                        r &= m
                        fr[o] = r - full if r >= h else r
                return step
            if base == "muli":
                def step(fr: list) -> None:
                    r = fr[a] * fr[b]
                    if lo <= r <= hi:
                        fr[o] = r
                    else:
                        r &= m
                        fr[o] = r - full if r >= h else r
                return step
            # and/or/xor of in-range signed values stay in range
            def step(fr: list) -> None:
                fr[o] = fn(fr[a], fr[b])
            return step

        def step(fr: list) -> None:
            fr[o] = wrap(fn(fr[a], fr[b]))
        return step
    if base in _INT_BIN_MINMAX:
        interp, fn, _ = _INT_BIN_MINMAX[base]
        rd = info.signed_reader() if interp == "s" else info.unsigned_reader()
        if rd is None:
            def step(fr: list) -> None:
                fr[o] = fn(fr[a], fr[b])
            return step

        def step(fr: list) -> None:
            fr[o] = wrap(fn(rd(fr[a]), rd(fr[b])))
        return step
    if base in _INT_DIV:
        kind = _INT_DIV[base]
        f = _scalar_divs(kind, info)
        rd = info.signed_reader() if kind.endswith("s") else info.unsigned_reader()
        if rd is None:
            def step(fr: list) -> None:
                fr[o] = wrap(f(fr[a], fr[b]))
            return step

        def step(fr: list) -> None:
            fr[o] = wrap(f(rd(fr[a]), rd(fr[b])))
        return step
    if base in ("shli", "shrsi", "shrui"):
        w = info.width
        urd = info.unsigned_reader()
        srd = info.signed_reader() or (lambda v: v)

        def amount(v: int) -> int:
            n = urd(v)
            if n >= w:
                raise ExecFault(f"shift amount {n} is not less than the bit width {w}")
            return n

        if base == "shli":
            def step(fr: list) -> None:
                fr[o] = wrap(fr[a] << amount(fr[b]))
        elif base == "shrsi":
            def step(fr: list) -> None:
                fr[o] = wrap(srd(fr[a]) >> amount(fr[b]))
        else:
            def step(fr: list) -> None:
                fr[o] = wrap(urd(fr[a]) >> amount(fr[b]))
        return step
    raise KeyError(base)


def _compile_int_flags(base: str, info: IntInfo, a: int, b: int, o: int, flags: set[str] | frozenset):
    """Scalar addi/subi/muli/shli with ``overflow<nsw, nuw>``: a result that overflows a flag is poison
    in MLIR; xesim reports it."""
    exact = {"addi": operator.add, "subi": operator.sub, "muli": operator.mul,
             "shli": operator.lshift}[base]
    wrap = info.wrapper()
    w = info.width

    def step(fr: list) -> None:
        x, y = fr[a], fr[b]
        if base == "shli":
            n = info.u(y)
            if n >= w:
                raise ExecFault(f"shift amount {n} is not less than the bit width {w}")
            ys = yu = n
        else:
            ys, yu = info.s(y), info.u(y)
        if "nsw" in flags:
            r = exact(info.s(x), ys)
            if not info.smin <= r <= info.smax:
                raise ExecFault(f"signed overflow in {base} with overflow<nsw> (poison in MLIR): result {r} "
                                f"does not fit in {info}")
        if "nuw" in flags:
            r = exact(info.u(x), yu)
            if not 0 <= r <= info.umax:
                raise ExecFault(f"unsigned overflow in {base} with overflow<nuw> (poison in MLIR): result {r} "
                                f"does not fit in {info}")
        fr[o] = wrap(exact(x, ys))

    return step


def _compile_int_binary_vec(base: str, t: T.Type, info: IntInfo, a: int, b: int, o: int, flags):
    pack, s64, u64 = info.pack, info.s64, info.u64
    w = info.width
    if base in _INT_BIN_SIMPLE:
        uf = _INT_BIN_SIMPLE[base][1]

        def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            return pack(uf(u64(x), u64(y)))
    elif base in _INT_BIN_MINMAX:
        interp, _, uf = _INT_BIN_MINMAX[base]
        rd = s64 if interp == "s" else u64

        def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            return pack(uf(rd(x), rd(y)))
    elif base in _INT_DIV:
        kind = _INT_DIV[base]
        af = _array_divs(kind, info)
        rd = s64 if kind.endswith("s") else u64

        def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            return pack(af(rd(x), rd(y)))
    elif base in ("shli", "shrsi", "shrui"):
        def amounts(y: np.ndarray) -> np.ndarray:
            n = u64(y)
            bad = n >= np.uint64(w)
            if bad.any():
                k = int(n[bad].flat[0]) if n.ndim else int(n)
                raise ExecFault(f"shift amount {k} is not less than the bit width {w}" + where_first(bad))
            return n

        if base == "shli":
            def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
                return pack(np.left_shift(u64(x), amounts(y)))
        elif base == "shrsi":
            def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
                return pack(np.right_shift(s64(x), amounts(y).astype(np.int64)))
        else:
            def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
                return pack(np.right_shift(u64(x), amounts(y)))
    else:
        raise KeyError(base)
    if flags:
        scalar = _compile_int_flags(base, info, 0, 1, 2, flags)

        def checked(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            fr3: list = [None, None, None]
            for xv, yv in zip(np.asarray(x).reshape(-1).tolist(), np.asarray(y).reshape(-1).tolist()):
                fr3[0], fr3[1] = info.wrap(int(xv)), info.wrap(int(yv))
                scalar(fr3)
            return f(x, y)

        g = checked
    else:
        g = f
    g = fix0d(g, t)

    def step(fr: list) -> None:
        fr[o] = g(fr[a], fr[b])

    return step


def _int_binary_impl(op: Any, cx: Any):
    base = op.name.split(".", 1)[1]
    flags = flag_set(op.attributes.get("overflowFlags"))
    a, b = cx.slots(op.operands)
    return compile_int_binary(base, op.results[0].type, a, b, cx.slot(op.results[0]), flags)


for _n in list(_INT_BIN_SIMPLE) + list(_INT_BIN_MINMAX) + list(_INT_DIV) + ["shli", "shrsi", "shrui"]:
    impl(f"arith.{_n}")(_int_binary_impl)


# =========================================================================== integer comparison

CMPI_CASES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
_CMP_OPS = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
            "ge": operator.ge}


def compile_cmpi(pred: str, t: T.Type, a: int, b: int, o: int, op_name: str = "arith.cmpi"):
    """Step for an integer comparison with predicate ``pred`` (MLIR CmpIPredicate names) on type ``t``."""
    info = int_info(elem(t))
    if not is_vec(t) and rules_cover_int(info):
        body = f"fr[_o] = cmpi(PRED, {int_operand(info, '_a')}, {int_operand(info, '_b')}, W)"
        return rule_step(op_name, body, {"_o": o, "_a": a, "_b": b}, PRED=CMPI_CASES.index(pred), W=info.width)
    if pred in ("eq", "ne"):
        interp, rel = "raw", pred
    else:
        interp, rel = pred[0], pred[1:]
    opf = _CMP_OPS[rel]
    if is_vec(t):
        info.need_array()
        rd = {"raw": info.u64, "s": info.s64, "u": info.u64}[interp]
        g = fix0d(lambda x, y: opf(rd(x), rd(y)), t)

        def vstep(fr: list) -> None:
            fr[o] = g(fr[a], fr[b])

        return vstep
    if interp == "u" or (interp == "s" and info.kind != "signed"):
        rd = info.unsigned_reader() if interp == "u" else info.s

        def step(fr: list) -> None:
            fr[o] = 1 if opf(rd(fr[a]), rd(fr[b])) else 0

        return step
    if rel == "lt":
        def step(fr: list) -> None:
            fr[o] = 1 if fr[a] < fr[b] else 0
    elif rel == "eq":
        def step(fr: list) -> None:
            fr[o] = 1 if fr[a] == fr[b] else 0
    elif rel == "ne":
        def step(fr: list) -> None:
            fr[o] = 1 if fr[a] != fr[b] else 0
    else:
        def step(fr: list) -> None:
            fr[o] = 1 if opf(fr[a], fr[b]) else 0
    return step


@impl("arith.cmpi")
def _cmpi(op: Any, cx: Any):
    pred = enum_case(op.attributes.get("predicate"), CMPI_CASES)
    a, b = cx.slots(op.operands)
    return compile_cmpi(pred, op.operands[0].type, a, b, cx.slot(op.results[0]))


# =========================================================================== float binary ops


def _pydiv(x: float, y: float) -> float:
    return x / y if y else math.nan  # NaN sends division by zero to the exact slow path


_FLOAT_BIN = {
    "addf": (operator.add, np.add),
    "subf": (operator.sub, np.subtract),
    "mulf": (operator.mul, np.multiply),
    "divf": (_pydiv, np.divide),
}


def float_vec_binary(npop, info: FloatInfo):
    """Element-wise ``npop`` on arrays of the float type, correctly rounded (see module docstring)."""
    if info.name in ("f32", "f64", "f16"):
        def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            with np.errstate(all="ignore"):
                return npop(x, y)
    elif info.name == "bf16":
        dt = info.dtype

        def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            with np.errstate(all="ignore"):
                return npop(x.astype(np.float32), y.astype(np.float32)).astype(dt)
    else:
        name = info.name

        def f(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            with np.errstate(all="ignore"):
                r = npop(np.asarray(x).astype(np.float64), np.asarray(y).astype(np.float64))
            return M.narrow(r, name)
    return f


def compile_float_binary(base: str, t: T.Type, a: int, b: int, o: int):
    info = float_info(elem(t))
    pyop, npop = _FLOAT_BIN[base]
    if is_vec(t):
        g = fix0d(float_vec_binary(npop, info), t)

        def vstep(fr: list) -> None:
            fr[o] = g(fr[a], fr[b])

        return vstep

    if info.name in RULE_FLOATS:
        body = "fr[_o] = " + _FROM_OP[info.name].format(f"{base}(float(fr[_a]), float(fr[_b]))")
        return rule_step(f"arith.{base}", body, {"_o": o, "_a": a, "_b": b})

    def slow(x: Any, y: Any) -> Any:
        with np.errstate(all="ignore"):
            r = npop(np.float64(x), np.float64(y))
        return info.from_f64(r)

    if not info.fast:
        def sstep(fr: list) -> None:
            fr[o] = slow(fr[a], fr[b])

        return sstep
    lim = info.lim
    conv = info.converter()

    def step(fr: list) -> None:
        x = fr[a]
        y = fr[b]
        r = pyop(float(x), float(y))
        if -lim <= r <= lim:
            fr[o] = conv(r)
        else:
            fr[o] = slow(x, y)

    return step


def _float_binary_impl(op: Any, cx: Any):
    a, b = cx.slots(op.operands)
    return compile_float_binary(op.name.split(".", 1)[1], op.results[0].type, a, b, cx.slot(op.results[0]))


for _n in _FLOAT_BIN:
    impl(f"arith.{_n}")(_float_binary_impl)


_MINMAX_F = {
    "minimumf": (M.minimum_scalar, M.minimum),
    "maximumf": (M.maximum_scalar, M.maximum),
    "minnumf": (M.minnum_scalar, M.minnum),
    "maxnumf": (M.maxnum_scalar, M.maxnum),
}


@impl("arith.minimumf", "arith.maximumf", "arith.minnumf", "arith.maxnumf")
def _fminmax(op: Any, cx: Any):
    a, b = cx.slots(op.operands)
    o = cx.slot(op.results[0])
    t = op.results[0].type
    name = op.name.split(".", 1)[1]
    if is_vec(t):
        g = fix0d(_MINMAX_F[name][1], t)

        def vstep(fr: list) -> None:
            fr[o] = g(fr[a], fr[b])

        return vstep
    pick = {"minimumf": "pick_minimum", "maximumf": "pick_maximum", "minnumf": "pick_minnum",
            "maxnumf": "pick_maxnum"}[name]
    return rule_step(op.name, f"fr[_o] = select({pick}(float(fr[_a]), float(fr[_b])), fr[_b], fr[_a])",
                     {"_o": o, "_a": a, "_b": b})


@impl("arith.remf")
def _remf(op: Any, cx: Any):
    a, b = cx.slots(op.operands)
    o = cx.slot(op.results[0])
    t = op.results[0].type
    info = float_info(elem(t))
    name = info.name
    if is_vec(t):
        g = fix0d(lambda x, y: M.fmod(x, y, name), t)

        def vstep(fr: list) -> None:
            fr[o] = g(fr[a], fr[b])

        return vstep

    if name in RULE_FLOATS:
        body = "fr[_o] = " + _FROM_F64[name].format("remf(float(fr[_a]), float(fr[_b]))")
        return rule_step("arith.remf", body, {"_o": o, "_a": a, "_b": b})

    def step(fr: list) -> None:
        fr[o] = M.fmod(fr[a], fr[b], name)[()]

    return step


@impl("arith.negf")
def _negf(op: Any, cx: Any):
    a = cx.slot(op.operands[0])
    o = cx.slot(op.results[0])
    t = op.results[0].type
    name = float_info(elem(t)).name
    if is_vec(t):
        def vstep(fr: list) -> None:
            fr[o] = M.negate(fr[a], name)

        return vstep
    if name in RULE_FLOATS:
        body = "fr[_o] = " + _OF_BITS[name].format(f"flip_sign({_BITS_OF[name].format('fr[_a]')}, NB)")
        return rule_step("arith.negf", body, {"_o": o, "_a": a}, NB=FLOAT_BITS[name])

    def gstep(fr: list) -> None:
        fr[o] = M.negate(np.asarray(fr[a]), name)[()]

    return gstep


# =========================================================================== float comparison

CMPF_CASES = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une",
              "uno", "true"]

# Ordered predicates are false when an operand is NaN; unordered ones are true (IEEE 754 §5.11).
_CMPF_SCALAR = {
    "false": lambda x, y: False,
    "oeq": lambda x, y: x == y,
    "ogt": lambda x, y: x > y,
    "oge": lambda x, y: x >= y,
    "olt": lambda x, y: x < y,
    "ole": lambda x, y: x <= y,
    "one": lambda x, y: x < y or x > y,
    "ord": lambda x, y: x == x and y == y,
    "ueq": lambda x, y: not (x < y or x > y),
    "ugt": lambda x, y: not (x <= y),
    "uge": lambda x, y: not (x < y),
    "ult": lambda x, y: not (x >= y),
    "ule": lambda x, y: not (x > y),
    "une": lambda x, y: x != y,
    "uno": lambda x, y: x != x or y != y,
    "true": lambda x, y: True,
}
_CMPF_ARRAY = {
    "false": lambda x, y: np.zeros(np.broadcast(x, y).shape, bool),
    "oeq": lambda x, y: x == y,
    "ogt": lambda x, y: x > y,
    "oge": lambda x, y: x >= y,
    "olt": lambda x, y: x < y,
    "ole": lambda x, y: x <= y,
    "one": lambda x, y: (x < y) | (x > y),
    "ord": lambda x, y: ~(np.isnan(x) | np.isnan(y)),
    "ueq": lambda x, y: ~((x < y) | (x > y)),
    "ugt": lambda x, y: ~(x <= y),
    "uge": lambda x, y: ~(x < y),
    "ult": lambda x, y: ~(x >= y),
    "ule": lambda x, y: ~(x > y),
    "une": lambda x, y: x != y,
    "uno": lambda x, y: np.isnan(x) | np.isnan(y),
    "true": lambda x, y: np.ones(np.broadcast(x, y).shape, bool),
}


def compile_cmpf(pred: str, t: T.Type, a: int, b: int, o: int):
    info = float_info(elem(t))
    if not is_vec(t):
        return rule_step("arith.cmpf", "fr[_o] = cmpf(PRED, float(fr[_a]), float(fr[_b]))", {"_o": o, "_a": a, "_b": b},
                         PRED=CMPF_CASES.index(pred))
    if is_vec(t):
        pf = _CMPF_ARRAY[pred]
        wide = info.name in ("f32", "f64")

        def g(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            with np.errstate(all="ignore"):
                if not wide:
                    x, y = x.astype(np.float64), y.astype(np.float64)  # exact
                return np.asarray(pf(x, y))

        def vstep(fr: list) -> None:
            fr[o] = g(fr[a], fr[b])

        return vstep
    sp = _CMPF_SCALAR[pred]
    if pred == "olt":
        def step(fr: list) -> None:
            fr[o] = 1 if float(fr[a]) < float(fr[b]) else 0
        return step

    def gstep(fr: list) -> None:
        fr[o] = 1 if sp(float(fr[a]), float(fr[b])) else 0

    return gstep


@impl("arith.cmpf")
def _cmpf(op: Any, cx: Any):
    pred = enum_case(op.attributes.get("predicate"), CMPF_CASES)
    a, b = cx.slots(op.operands)
    return compile_cmpf(pred, op.operands[0].type, a, b, cx.slot(op.results[0]))


# =========================================================================== select


@impl("arith.select")
def _select(op: Any, cx: Any):
    c, tv, fv = cx.slots(op.operands)
    o = cx.slot(op.results[0])
    if is_vec(op.operands[0].type):
        rdt = V.dtype_of(elem(op.results[0].type))

        def vstep(fr: list) -> None:
            r = np.where(fr[c], fr[tv], fr[fv])
            fr[o] = r if r.dtype == rdt else r.astype(rdt)

        return vstep

    return rule_step("arith.select", "fr[_o] = select(fr[_c], fr[_t], fr[_f])", {"_o": o, "_c": c, "_t": tv, "_f": fv})


# =========================================================================== constant


def constant_value(attr: A.Attribute, t: T.Type) -> Any:
    """The runtime value of a constant attribute of type ``t`` (vectors come back read-only)."""
    if isinstance(t, T.VectorType):
        if not isinstance(attr, A.DenseElementsAttr):
            raise ValueError(f"expected a dense elements attribute for {t}, got {attr}")
        et = t.element_type
        n = 1
        for d in t.shape:
            n *= d
        if attr.hex_text is not None:
            raw = bytes.fromhex(attr.hex_text[2:])
            dt = V.dtype_of(et)
            arr = np.frombuffer(raw, dtype=dt).copy()  # little-endian host, as MLIR's blob layout
            if arr.size == 1 and n != 1:
                arr = np.full(n, arr[0], dt)
        else:
            vals = attr.values if not attr.splat else (attr.values[0],)
            arr = _constant_elements(list(vals), et)
            if attr.splat or (arr.size == 1 and n != 1):
                arr = np.full(n, arr[0], arr.dtype)
        arr = np.array(arr.reshape(t.shape))
        arr.flags.writeable = False
        return arr
    if isinstance(t, T.FloatType) and t.name == C.E8M0 and isinstance(attr, (A.FloatAttr, A.IntegerAttr)):
        if isinstance(attr, A.FloatAttr) and attr.bits is not None:  # the code itself (0x..)
            return np.array(attr.bits, np.uint8).view(V.dtype_of(t))[()]
        return C.round_float(np.float64(attr.value), t.name)[()]  # APFloat: nearest power of two (§5.2 A)
    if isinstance(t, T.FloatType):
        if isinstance(attr, A.FloatAttr):
            if attr.bits is not None:
                return C.from_bits(np.array(attr.bits, dtype=np.uint64), t.name)[()]
            return float_info(t).from_f64(np.float64(attr.value))
        if isinstance(attr, A.IntegerAttr):
            return float_info(t).from_f64(np.float64(attr.value))
    if isinstance(t, (T.IntegerType, T.IndexType)):
        if isinstance(attr, A.IntegerAttr):
            return int_info(t).wrap(int(attr.value))
    raise ValueError(f"unsupported constant {attr} of type {t}")


def _constant_elements(vals: list, et: T.Type) -> np.ndarray:
    if isinstance(et, T.FloatType) and et.name == C.E8M0:
        return C.round_float(np.array([float(v) for v in vals], dtype=np.float64), et.name)
    if isinstance(et, T.FloatType):
        return np.asarray(M.narrow(np.array([float(v) for v in vals], dtype=np.float64), et.name))
    info = int_info(et)
    info.need_array()
    return info.pack(np.array([info.wrap(int(v)) & ((1 << 64) - 1) for v in vals], dtype=np.uint64))


@impl("arith.constant")
def _constant(op: Any, cx: Any):
    o = cx.slot(op.results[0])
    value = constant_value(op.attributes["value"], op.results[0].type)

    def step(fr: list) -> None:
        fr[o] = value

    return step


# =========================================================================== integer casts


def compile_int_cast(mode: str, src: T.Type, dst: T.Type, a: int, o: int, op_name: str = "arith.extsi"):
    """``mode``: ``s`` (sign-extend / truncate), ``u`` (zero-extend / truncate)."""
    si, di = int_info(elem(src)), int_info(elem(dst))
    if is_vec(src):
        si.need_array()
        di.need_array()
        rd = si.s64 if mode == "s" else si.u64
        g = fix0d(lambda x: di.pack(rd(x)), src)

        def vstep(fr: list) -> None:
            fr[o] = g(fr[a])

        return vstep
    if rules_cover_int(si) and rules_cover_int(di):
        fn = "extsi" if mode == "s" else "extui"
        x = int_operand(si, "_a")
        body = "fr[_o] = " + int_result(di, f"{fn}({x}, WS, WD)")
        return rule_step(op_name, body, {"_o": o, "_a": a}, WS=si.width, WD=di.width)
    wrap = di.wrapper()
    if mode == "s":
        rd = si.signed_reader()
        if rd is None and di.kind == "signed" and di.width >= si.width:
            def copy(fr: list) -> None:
                fr[o] = fr[a]
            return copy
        if rd is None:
            def step(fr: list) -> None:
                fr[o] = wrap(fr[a])
            return step
    else:
        rd = si.unsigned_reader()

    def rstep(fr: list) -> None:
        fr[o] = wrap(rd(fr[a]))

    return rstep


@impl("arith.extsi", "arith.trunci", "arith.index_cast")
def _cast_s(op: Any, cx: Any):
    return compile_int_cast("s", op.operands[0].type, op.results[0].type, cx.slot(op.operands[0]),
                            cx.slot(op.results[0]), op.name)


@impl("arith.extui", "arith.index_castui")
def _cast_u(op: Any, cx: Any):
    return compile_int_cast("u", op.operands[0].type, op.results[0].type, cx.slot(op.operands[0]),
                            cx.slot(op.results[0]), op.name)


# =========================================================================== float <-> float / int casts

ROUNDING_CASES = list(C.ROUNDING_MODES)


#: arith.extf between the rules' types: (source, destination) -> the step's expression
_EXTF_RULES = {
    ("f16", "f32"): "f16_to_f32(_f16_bits(fr[_a]))",
    ("f16", "f64"): "_F64(f16_to_f64(_f16_bits(fr[_a])))",
    ("bf16", "f32"): "bf16_to_f32_quiet(_bf16_bits(fr[_a]))",
    ("bf16", "f64"): "_F64(bf16_to_f64(_bf16_bits(fr[_a])))",
    ("f32", "f64"): "_F64(f32_to_f64(fr[_a]))",
    ("tf32", "f32"): "tf32_to_f32(fr[_a])",
    ("tf32", "f64"): "_F64(f32_to_f64(fr[_a]))",
}
#: arith.truncf (round to nearest even) between the rules' types
_TRUNCF_RULES = {
    ("f64", "f32"): "narrow_f32(float(fr[_a]))",
    ("f64", "f16"): "_f16_of(f64_to_f16(float(fr[_a])))",
    ("f64", "bf16"): "_bf16_of(f64_to_bf16(float(fr[_a])))",
    ("f32", "f16"): "_f16_of(f32_to_f16(fr[_a]))",
    ("f32", "bf16"): "_bf16_of(f32_to_bf16(fr[_a]))",
    ("f32", "tf32"): "f32_to_tf32(fr[_a])",
    ("f64", "tf32"): "f64_to_tf32(float(fr[_a]))",
}


@impl("arith.extf")
def _extf(op: Any, cx: Any):
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    src, dst = op.operands[0].type, op.results[0].type
    dname = elem(dst).name  # type: ignore[attr-defined]
    if elem(src).name == "f8E8M0FNU":  # type: ignore[attr-defined]
        from xesim.numerics import mx

        def e8m0_step(fr: list) -> None:  # 2^(e-127) (exact in f64), then one RNE rounding (f16 only rounds)
            r = C.round_float(mx.e8m0_value(mx.e8m0_codes(fr[a])), dname)
            fr[o] = r if is_vec(src) else r[()]

        return e8m0_step
    if is_vec(src):
        def vstep(fr: list) -> None:
            fr[o] = C.extend_float(fr[a], dname)

        return vstep
    sname = elem(src).name  # type: ignore[attr-defined]
    ext = _EXTF_RULES.get((sname, dname))
    if ext is not None:
        return rule_step("arith.extf", f"fr[_o] = {ext}", {"_o": o, "_a": a})
    if dname == "f64":
        F64 = np.float64

        def step64(fr: list) -> None:
            fr[o] = F64(float(fr[a]))  # exact: every narrower value is a float64

        return step64
    if dname == "f32" and elem(src).name in ("f16", "bf16"):  # type: ignore[attr-defined]
        conv = float_info(elem(dst)).converter()

        def step32(fr: list) -> None:
            fr[o] = conv(float(fr[a]))  # exact

        return step32

    def step(fr: list) -> None:
        fr[o] = C.extend_float(fr[a], dname)[()]

    return step


@impl("arith.truncf")
def _truncf(op: Any, cx: Any):
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    src, dst = op.operands[0].type, op.results[0].type
    mode = enum_case(op.attributes.get("roundingmode"), ROUNDING_CASES, C.RNE)
    if elem(dst).name == "f8E8M0FNU":  # type: ignore[attr-defined]
        # shared/spec/upstream-xegpu-xevm.md §5.2: two upstream definitions, the target's mx.e8m0_truncf picks one
        from xesim.numerics import mx

        if mode != C.RNE:
            raise NotImplementedError(f"rounding mode {mode} to f8E8M0FNU is not modelled (only the default)")
        rule = cx.engine.target.get("mx.e8m0_truncf")
        e8m0 = V.dtype_of(elem(dst))

        def e8m0_step(fr: list) -> None:
            r = mx.truncf_e8m0(fr[a], rule).view(e8m0)
            fr[o] = r if is_vec(src) else r[()]

        return e8m0_step
    dinfo = float_info(elem(dst))
    dname = dinfo.name
    sname = elem(src).name  # type: ignore[attr-defined]
    if is_vec(src):
        if mode == C.RNE and (dname == "f16" or (dname == "bf16" and sname == "f32")):
            dt = dinfo.dtype

            def fast(fr: list) -> None:
                x = fr[a]
                with np.errstate(all="ignore"):
                    out = x.astype(dt)  # numpy f32/f64->f16 and ml_dtypes f32->bf16: one RNE rounding
                nan = np.isnan(x)
                if nan.any():  # numpy keeps a NaN signalling, ml_dtypes drops its payload: the rules' NaN instead
                    out[nan] = C.round_float(x[nan], dname, mode)
                fr[o] = out

            return fast

        def vstep(fr: list) -> None:
            fr[o] = C.round_float(fr[a], dname, mode)

        return vstep
    trunc = _TRUNCF_RULES.get((sname, dname)) if mode == C.RNE else None
    if trunc is not None:
        return rule_step("arith.truncf", f"fr[_o] = {trunc}", {"_o": o, "_a": a})
    if mode == C.RNE and (dname in ("f32", "f16") or (dname == "bf16" and sname == "f32")):
        # One RNE rounding: C double->float cast (f32), numpy's direct double->half (f16), ml_dtypes'
        # float->bfloat16 (bf16 from f32); the float64 value is exact.  Overflow/NaN: exact slow path.
        lim = dinfo.lim
        conv = dinfo.converter()

        def step(fr: list) -> None:
            x = fr[a]
            if -lim <= x <= lim:
                fr[o] = conv(float(x))
            else:
                fr[o] = C.round_float(x, dname, mode)[()]

        return step

    def gstep(fr: list) -> None:
        fr[o] = C.round_float(fr[a], dname, mode)[()]

    return gstep


def compile_int_to_float(signed: bool, src: T.Type, dst: T.Type, a: int, o: int, op_name: str = "arith.sitofp"):
    si = int_info(elem(src))
    dinfo = float_info(elem(dst))
    dname, w = dinfo.name, si.width
    if is_vec(src):
        si.need_array()
        rd = si.s64 if signed else si.u64
        direct = dname == "f64" and w <= 53 or dname == "f32" and w <= 24 or dname == "f16" and w <= 11
        if direct:
            dt = dinfo.dtype
            g = fix0d(lambda x: rd(x).astype(dt), src)  # exact: every value is representable
        else:
            g = fix0d(lambda x: C.int_to_float(rd(x), signed, dname, C.RNE, 64), src)

        def vstep(fr: list) -> None:
            fr[o] = g(fr[a])

        return vstep
    if rules_cover_int(si) and dname in RULE_FLOATS:
        call = {"f64": "_F64(itof64({}, W, SIGNED))", "f32": "itof32({}, W, SIGNED)",
                "f16": "_f16_of(itof16({}, W, SIGNED))", "bf16": "_bf16_of(itobf16({}, W, SIGNED))"}[dname]
        return rule_step(op_name, "fr[_o] = " + call.format(int_operand(si, "_a")), {"_o": o, "_a": a}, W=w,
                         SIGNED=signed)
    rd = (si.signed_reader() or (lambda v: v)) if signed else si.unsigned_reader()
    exact_bits = {"f64": 53, "f32": 24, "f16": 11, "bf16": 8}.get(dname, 0)
    if exact_bits:
        conv = dinfo.converter()
        bound = 1 << exact_bits

        def step(fr: list) -> None:
            v = rd(fr[a])
            if -bound <= v <= bound:
                fr[o] = conv(float(v))  # exactly representable
            else:
                fr[o] = _int_to_float_scalar(v, dname)

        return step

    def gstep(fr: list) -> None:
        fr[o] = _int_to_float_scalar(rd(fr[a]), dname)

    return gstep


def _int_to_float_scalar(v: int, dname: str) -> Any:
    """One RNE rounding of the integer ``v`` (a signed or unsigned reading, at most 64 bits)."""
    if v < 0:
        return C.int_to_float(np.array(v, np.int64), True, dname)[()]
    return C.int_to_float(np.array(v, np.uint64), False, dname)[()]


@impl("arith.sitofp", "arith.uitofp")
def _itofp(op: Any, cx: Any):
    return compile_int_to_float(op.name == "arith.sitofp", op.operands[0].type, op.results[0].type,
                                cx.slot(op.operands[0]), cx.slot(op.results[0]), op.name)


def compile_float_to_int(signed: bool, src: T.Type, dst: T.Type, a: int, o: int, op_name: str = "arith.fptosi"):
    """fptosi/fptoui: truncate toward zero, saturate, NaN -> 0 (``C.FPTOINT_RULE``)."""
    di = int_info(elem(dst))
    w = di.width
    if is_vec(src):
        di.need_array()
        g = fix0d(lambda x: di.pack(C.float_to_int_sat(x, w, signed)), src)

        def vstep(fr: list) -> None:
            fr[o] = g(fr[a])

        return vstep
    if rules_cover_int(di):
        body = "fr[_o] = " + int_result(di, "ftoi(float(fr[_a]), W, SIGNED)")
        return rule_step(op_name, body, {"_o": o, "_a": a}, W=w, SIGNED=signed)
    wrap = di.wrapper()
    conv = C.float_to_int_scalar

    def step(fr: list) -> None:
        fr[o] = wrap(conv(float(fr[a]), w, signed))

    return step


@impl("arith.fptosi", "arith.fptoui")
def _fptoi(op: Any, cx: Any):
    return compile_float_to_int(op.name == "arith.fptosi", op.operands[0].type, op.results[0].type,
                                cx.slot(op.operands[0]), cx.slot(op.results[0]), op.name)


# =========================================================================== bitcast


def _bits_dtype(t: T.Type) -> np.dtype:
    return np.dtype(f"u{V.dtype_of(t).itemsize}")


@impl("arith.bitcast")
def _bitcast(op: Any, cx: Any):
    """Reinterpret the bits (same width).  Integers are read as their unsigned bit pattern."""
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    src, dst = op.operands[0].type, op.results[0].type
    se, de = elem(src), elem(dst)
    if is_vec(src):
        if isinstance(se, T.FloatType):
            def to_bits(x: np.ndarray) -> np.ndarray:
                return x.view(_bits_dtype(se)).astype(np.uint64)
        else:
            to_bits = int_info(se).u64
        if isinstance(de, T.FloatType):
            fmt_d = C.float_format(de.name)

            def from_bits(u: np.ndarray) -> np.ndarray:
                return u.astype(fmt_d.uint).view(fmt_d.dtype)
        else:
            from_bits = int_info(de).pack

        def vstep(fr: list) -> None:
            fr[o] = from_bits(to_bits(fr[a]))

        return vstep
    sbits_expr = _BITS_OF.get(se.name) if isinstance(se, T.FloatType) else (  # type: ignore[attr-defined]
        f"ubits({int_operand(int_info(se), '_a')}, {int_info(se).width})" if rules_cover_int(int_info(se)) else None)
    if sbits_expr is not None and isinstance(se, T.FloatType):
        sbits_expr = sbits_expr.format("fr[_a]")
    dexpr = _OF_BITS.get(de.name) if isinstance(de, T.FloatType) else (  # type: ignore[attr-defined]
        int_result(int_info(de), f"wrap({{}}, {int_info(de).width})") if rules_cover_int(int_info(de)) else None)
    if sbits_expr is not None and dexpr is not None:
        return rule_step("arith.bitcast", "fr[_o] = " + dexpr.format(sbits_expr), {"_o": o, "_a": a})
    if isinstance(se, T.FloatType):
        bd = _bits_dtype(se)

        def sbits(x: Any) -> int:
            return int(np.asarray(x).view(bd)[()])
    else:
        sbits = int_info(se).unsigned_reader()
    if isinstance(de, T.FloatType):
        fmt_d = C.float_format(de.name)

        def dval(u: int) -> Any:
            return np.array(u, dtype=fmt_d.uint).view(fmt_d.dtype)[()]
    else:
        dval = int_info(de).wrapper()

    def step(fr: list) -> None:
        fr[o] = dval(sbits(fr[a]))

    return step
