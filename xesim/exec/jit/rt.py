"""numba plumbing for compiled host loop nests: the LLVM lowering of the scalar-rule primitives, bit casts and the
f16 hardware conversions.  No semantics is defined here: the ops' semantics are the rules of
:mod:`xesim.numerics.scalar_rules`, which the interpreter runs in CPython and which this module registers with
numba (``register_jitable``), so generated code calls the same function objects.

Every generated nest module does ``from xesim.exec.jit.rt import *``: it sees every rule and primitive by its
name (the plain Python functions; numba compiles them at the call site and LLVM inlines them, folding the
constant width/predicate arguments), ``np``, ``math``, the libm functions ``libm_<name>`` and ``HAVE_F16C``.

Primitives (``@primitive`` in scalar_rules.py) are lowered to single LLVM instructions:
    numba emits ``add nsw``/``sub nsw``/``mul nsw`` for int64 ``+ - *`` (signed overflow would be *undefined*),
    so the wrapping primitives emit plain ``add``/``sub``/``mul``/``shl`` (LLVM LangRef: without ``nsw``/``nuw``
    the result is the value modulo 2^64); ``sdiv``/``srem``/``udiv``/``urem``, ``icmp ult/ule``, ``ctlz``,
    ``cttz``, ``ctpop``, ``bitcast``, ``sitofp``/``uitofp``/``fptoui``, ``fptrunc`` (binary64 -> binary32, RNE:
    numba leaves MXCSR at round to nearest even and compiles without fast-math, so no contraction into FMA and
    no reassociation), ``fdiv`` and ``llvm.sqrt``.
    Under numba a binary32 operand stays binary32 (the arithmetic rules then run ``fadd float`` etc.); the
    CPython bodies see binary64 values (``scalar_rules`` module docstring: same results).
F16C
    :func:`~xesim.numerics.scalar_rules.f32_to_f16` and :func:`~xesim.numerics.scalar_rules.f16_to_f32` use
    LLVM ``fptrunc``/``fpext`` of ``half`` (x86 ``vcvtps2ph`` with the MXCSR rounding mode, round to nearest
    even, and ``vcvtph2ps``, exact) on binary32 operands when the CPU has F16C (numba compiles for the host CPU
    and keys its cache by the CPU's features), else the rules' own integer bodies;
    ``tests/numerics/test_scalar_rules.py`` compares the instructions with the rules.
"""

from __future__ import annotations

import inspect
import math  # noqa: F401 - for generated code (``from xesim.exec.jit.rt import *``)

import llvmlite.ir as ir
import numpy as np  # noqa: F401 - for generated code
from numba import njit
from numba.core import types
from numba.core.imputils import lower_builtin
from numba.extending import intrinsic, register_jitable, type_callable

from xesim.numerics import mathfuncs as _mathfuncs
from xesim.numerics import scalar_rules as R  # noqa: N812 - short alias

_I64 = ir.IntType(64)
_JIT = {"error_model": "numpy"}


def _has_f16c() -> bool:
    try:
        import llvmlite.binding as llvm

        return bool(llvm.get_host_cpu_features().get("f16c", False))
    except Exception:  # noqa: BLE001 - feature query unavailable: use the integer routines
        return False


HAVE_F16C = _has_f16c()


# ---------------------------------------------------------------------------------------------- primitives
# Each primitive is typed and lowered directly (numba's low-level extension API): a call emits its instruction
# in the caller, with no function of its own to compile.
def _int_args(*args) -> bool:
    return all(isinstance(a, (types.Integer, types.Boolean)) for a in args)


def _float_arg(x) -> bool:
    return isinstance(x, types.Float)


def _prim(fn, typer, lower) -> None:
    """Register primitive ``fn``: ``typer(*argtypes)`` gives the result type (None: no match), ``lower(context,
    builder, sig, args)`` the value."""

    params = ", ".join(inspect.signature(fn).parameters)
    ns: dict = {"typer": typer}
    exec(f"def typ({params}):\n    return typer({params})\n", ns)  # numba wants the exact arity  # noqa: S102
    type_callable(fn)(lambda context: ns["typ"])
    lower_builtin(fn, *[types.Any] * len(inspect.signature(fn).parameters))(lower)


def _ints(context, builder, sig):
    return sig.args


def _as_i64(context, builder, sig, args):
    return [context.cast(builder, v, t, types.int64) for v, t in zip(args, sig.args)]


def _int_op(name: str):
    def lower(context, builder, sig, args):
        x, y = _as_i64(context, builder, sig, args)
        return getattr(builder, name)(x, y)

    return lower


def _int_cmp(op: str):
    def lower(context, builder, sig, args):
        x, y = _as_i64(context, builder, sig, args)
        return builder.icmp_unsigned(op, x, y)

    return lower


def _bit_count(name: str):
    def lower(context, builder, sig, args):
        (x,) = _as_i64(context, builder, sig, args)
        if name == "ctpop":
            return builder.ctpop(x)
        return getattr(builder, name)(x, ir.Constant(ir.IntType(1), 0))

    return lower


def _i2(a, b):
    return types.int64 if _int_args(a, b) else None


def _i1(a):
    return types.int64 if _int_args(a) else None


for _fn, _name in ((R.add64, "add"), (R.sub64, "sub"), (R.mul64, "mul"), (R.shl64, "shl"), (R.ashr64, "ashr"),
                   (R.lshr64, "lshr"), (R.sdiv64, "sdiv"), (R.srem64, "srem"), (R.udiv64, "udiv"),
                   (R.urem64, "urem")):
    _prim(_fn, _i2, _int_op(_name))
_prim(R.ult64, lambda a, b: types.boolean if _int_args(a, b) else None, _int_cmp("<"))
_prim(R.ule64, lambda a, b: types.boolean if _int_args(a, b) else None, _int_cmp("<="))
_prim(R.clz64, _i1, _bit_count("ctlz"))
_prim(R.ctz64, _i1, _bit_count("cttz"))
_prim(R.popcount64, _i1, _bit_count("ctpop"))


def _lower_f64(context, builder, sig, args):
    return context.cast(builder, args[0], sig.args[0], types.float64)


def _lower_u2f64(context, builder, sig, args):
    (x,) = _as_i64(context, builder, sig, args)
    return builder.uitofp(x, ir.DoubleType())


def _lower_f2i64(context, builder, sig, args):
    t = context.cast(builder, args[0], sig.args[0], types.float64)
    big = builder.fcmp_ordered(">=", t, ir.Constant(ir.DoubleType(), 9223372036854775808.0))
    return builder.select(big, builder.fptoui(t, _I64), builder.fptosi(t, _I64))


def _lower_to_f32(context, builder, sig, args):
    return context.cast(builder, args[0], sig.args[0], types.float32)  # fptrunc (or nothing for float32)


def _lower_f32_bits(context, builder, sig, args):
    x = context.cast(builder, args[0], sig.args[0], types.float32)
    return builder.zext(builder.bitcast(x, ir.IntType(32)), _I64)


def _lower_f32_from_bits(context, builder, sig, args):
    (b,) = _as_i64(context, builder, sig, args)
    return builder.bitcast(builder.trunc(b, ir.IntType(32)), ir.FloatType())


def _lower_f64_bits(context, builder, sig, args):
    return builder.bitcast(context.cast(builder, args[0], sig.args[0], types.float64), _I64)


def _lower_f64_from_bits(context, builder, sig, args):
    (b,) = _as_i64(context, builder, sig, args)
    return builder.bitcast(b, ir.DoubleType())


def _lower_quiet(context, builder, sig, args):
    x = args[0]
    if sig.args[0] == types.float32:
        b = builder.or_(builder.bitcast(x, ir.IntType(32)), ir.Constant(ir.IntType(32), 0x400000))
        return builder.bitcast(b, ir.FloatType())
    b = builder.or_(builder.bitcast(x, _I64), ir.Constant(_I64, R.QUIET64))
    return builder.bitcast(b, ir.DoubleType())


def _lower_default_nan(context, builder, sig, args):
    if sig.return_type == types.float32:
        return builder.bitcast(ir.Constant(ir.IntType(32), 0xFFC00000), ir.FloatType())
    return builder.bitcast(ir.Constant(_I64, R.DEFAULT_NAN64_BITS), ir.DoubleType())


def _same_float(a):
    return a if _float_arg(a) else None


def _float_pair(a, b):
    return a if _float_arg(a) and a == b else None


def _lower_fdiv(context, builder, sig, args):
    return builder.fdiv(args[0], args[1])


def _lower_intrinsic(name: str):
    def lower(context, builder, sig, args):
        ty = args[0].type
        f = builder.module.declare_intrinsic(name, [ty])
        return builder.call(f, args)

    return lower


def _lower_frem(context, builder, sig, args):
    return builder.frem(args[0], args[1])


_prim(R.f64, lambda a: types.float64 if _int_args(a) or _float_arg(a) else None, _lower_f64)
_prim(R.u2f64, lambda a: types.float64 if _int_args(a) else None, _lower_u2f64)
_prim(R.f2i64, lambda a: types.int64 if _float_arg(a) else None, _lower_f2i64)
_prim(R.to_f32, lambda a: types.float32 if _float_arg(a) else None, _lower_to_f32)
_prim(R.f32_bits, lambda a: types.int64 if _float_arg(a) else None, _lower_f32_bits)
_prim(R.f32_from_bits, lambda a: types.float32 if _int_args(a) else None, _lower_f32_from_bits)
_prim(R.f64_bits, lambda a: types.int64 if _float_arg(a) else None, _lower_f64_bits)
_prim(R.f64_from_bits, lambda a: types.float64 if _int_args(a) else None, _lower_f64_from_bits)
_prim(R.quiet, _same_float, _lower_quiet)
_prim(R.default_nan, _same_float, _lower_default_nan)
_prim(R.fdiv, _float_pair, _lower_fdiv)
_prim(R.fsqrt, _same_float, _lower_intrinsic("llvm.sqrt"))
_prim(R.ffloor, _same_float, _lower_intrinsic("llvm.floor"))
_prim(R.fceil, _same_float, _lower_intrinsic("llvm.ceil"))
_prim(R.ftrunc, _same_float, _lower_intrinsic("llvm.trunc"))
_prim(R.frint, _same_float, _lower_intrinsic("llvm.rint"))
_prim(R.fmod, _float_pair, _lower_frem)


def _lower_f2h(context, builder, sig, args):
    h = builder.fptrunc(args[0], ir.HalfType())
    return builder.zext(builder.bitcast(h, ir.IntType(16)), _I64)


def _lower_h2f(context, builder, sig, args):
    (b,) = _as_i64(context, builder, sig, args)
    h = builder.bitcast(builder.trunc(b, ir.IntType(16)), ir.HalfType())
    return builder.fpext(h, ir.FloatType())


def _hardware_or_rule(rule, use_hw, hw_lower) -> None:
    """Rule ``rule`` lowered to the F16C instruction when ``use_hw(argtype)``, else compiled from its own body."""

    @type_callable(rule)
    def _typer(context):
        def typ(x):
            return types.int64 if rule is R.f32_to_f16 else types.float32

        return typ

    def lower(context, builder, sig, args):
        if use_hw(sig.args[0]):
            return hw_lower(context, builder, sig, args)
        return context.compile_internal(builder, rule, sig, args)

    lower_builtin(rule, types.Any)(lower)


_hardware_or_rule(R.f32_to_f16, lambda t: HAVE_F16C and t == types.float32, _lower_f2h)
_hardware_or_rule(R.f16_to_f32, lambda t: HAVE_F16C and isinstance(t, types.Integer), _lower_h2f)

#: rules numba runs as an instruction rather than their body (kept as calls when nests are inlined)
HARDWARE_RULES = frozenset({"f32_to_f16", "f16_to_f32"})
_HARDWARE = HARDWARE_RULES
for _name, _fn in R.BY_NAME.items():
    if _name not in R.PRIMITIVES and _name not in _HARDWARE:
        register_jitable(**_JIT)(_fn)
    globals()[_name] = _fn  # generated code calls every rule and primitive by its name
# the rules' module constants (I64_MIN ...), so that rule bodies inlined into generated code read the same values
globals().update({_k: _v for _k, _v in vars(R).items() if _k.isupper()})


@intrinsic
def stop_requested(typingctx, flag):  # noqa: ARG001 - numba's intrinsic signature
    """``flag[0] != 0`` for the run's stop flag (xesim/exec/guard.py), read with an atomic *monotonic* load: the
    other threads and processes that set it are seen, and LLVM may not hoist the read out of the loop that polls
    it (it would for a plain load in a loop that writes no memory)."""
    if not (isinstance(flag, types.Array) and flag.dtype == types.int64):
        return None

    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        value = builder.load_atomic(ary.data, "monotonic", 8)
        return builder.icmp_signed("!=", value, ir.Constant(value.type, 0))

    return types.boolean(flag), codegen


# the host libm's functions of float64 values (math.exp, ...), the very ones the interpreter maps over arrays
# (xesim/numerics/mathfuncs.py LIBM_UNARY / LIBM_BINARY): libm_exp, libm_powf, ...
for _name, _fn in {**_mathfuncs.LIBM_UNARY, **_mathfuncs.LIBM_BINARY}.items():
    globals()[f"libm_{_name}"] = njit(cache=True)(_fn)
