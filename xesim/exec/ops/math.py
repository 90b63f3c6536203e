"""math dialect semantics (mlir/docs/Dialects/MathOps.md).

Float functions are computed in float64 and rounded once to the operand type; their accuracy (not
bit-exact to Intel's math library: an assumption) is stated in :mod:`xesim.numerics.mathfuncs`.  On scalars of
the types compiled host loops support, sqrt, floor, ceil, trunc, round, roundeven, fma (f16/bf16/f32), absf,
copysign, the float classes and the integer functions absi/ctlz/cttz/ctpop are the rules of
:mod:`xesim.numerics.scalar_rules` (the very functions compiled loops call); the libm functions are the numba
functions of ``mathfuncs.LIBM_UNARY``/``LIBM_BINARY`` in both engines.  sqrt,
fma, floor, ceil, trunc, round (half away from zero), roundeven, absf and copysign are exact / correctly
rounded.  ``fastmath`` flags are accepted and ignored.

Integer functions read the operand bits as MLIR's lowering does: ``absi`` signed (``absi(INT_MIN)`` is
``INT_MIN``, LLVM ``abs`` with ``is_int_min_poison = false``); ``ctlz``/``cttz`` of 0 give the bit width
(``is_zero_poison = false``); ``ipowi`` is signed with wrap-around, and for a negative exponent gives
``1``/``-1``/``0`` as MLIR's ``math-to-funcs`` expansion does (``x = 1``, ``x = -1``, ``|x| > 1``), while
``0 ** negative`` -- a division by zero there -- is an :class:`ExecFault`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.faults import ExecFault
from xesim.exec.ops.arith import (
    _BITS_OF,
    _FROM_F64,
    _FROM_OP,
    _OF_BITS,
    FLOAT_BITS,
    RULE_FLOATS,
    elem,
    fix0d,
    float_info,
    impl,
    int_info,
    int_operand,
    int_result,
    is_vec,
    rule_step,
    rules_cover_int,
)
from xesim.numerics import mathfuncs as M  # noqa: N812 - short alias

#: math functions whose scalar form is a rule (xesim.numerics.scalar_rules): op -> (rule, computed in the
#: operands' format ("op": sqrt, correctly rounded) or exactly in binary64 ("f64"))
_UNARY_RULES = {"sqrt": ("sqrtf", "op"), "floor": ("floorf", "f64"), "ceil": ("ceilf", "f64"),
                "trunc": ("truncf", "f64"), "roundeven": ("roundevenf", "f64"), "round": ("roundf", "f64")}

# --------------------------------------------------------------------------- float unary


def _unary_float(op: Any, cx: Any):
    name = op.name.split(".", 1)[1]
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    t = op.results[0].type
    tname = float_info(elem(t)).name
    if is_vec(t):
        def vstep(fr: list) -> None:
            fr[o] = M.unary(name, fr[a], tname)

        return vstep
    if name in _UNARY_RULES and tname in RULE_FLOATS:
        fn, how = _UNARY_RULES[name]
        out = _FROM_OP if how == "op" else _FROM_F64
        return rule_step(op.name, "fr[_o] = " + out[tname].format(f"{fn}(float(fr[_a]))"), {"_o": o, "_a": a})
    if name in M.LIBM_UNARY and tname in RULE_FLOATS:  # the numba-compiled libm function, rounded by the rules
        return rule_step(op.name, "fr[_o] = " + _FROM_F64[tname].format("float(_fn(float(fr[_a])))"),
                         {"_o": o, "_a": a, "_fn": M.UNARY[name].scalar()})

    def step(fr: list) -> None:
        fr[o] = M.unary(name, fr[a], tname)[()]

    return step


for _n in M.UNARY:
    impl(f"math.{_n}")(_unary_float)


@impl("math.absf")
def _absf(op: Any, cx: Any):
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    t = op.results[0].type
    tname = float_info(elem(t)).name
    if is_vec(t):
        def vstep(fr: list) -> None:
            fr[o] = M.absolute(fr[a], tname)

        return vstep

    if tname in RULE_FLOATS:
        body = "fr[_o] = " + _OF_BITS[tname].format(f"clear_sign({_BITS_OF[tname].format('fr[_a]')}, NB)")
        return rule_step("math.absf", body, {"_o": o, "_a": a}, NB=FLOAT_BITS[tname])

    def step(fr: list) -> None:
        fr[o] = M.absolute(np.asarray(fr[a]), tname)[()]

    return step


# --------------------------------------------------------------------------- float binary / ternary


def _binary_float(op: Any, cx: Any):
    name = op.name.split(".", 1)[1]
    a, b = cx.slots(op.operands)
    o = cx.slot(op.results[0])
    t = op.results[0].type
    tname = float_info(elem(t)).name
    if name == "copysign":
        fn = lambda x, y: M.copysign(np.asarray(x), np.asarray(y), tname)  # noqa: E731
    else:
        fn = lambda x, y: M.binary(name, x, y, tname)  # noqa: E731
    if is_vec(t):
        def vstep(fr: list) -> None:
            fr[o] = fn(fr[a], fr[b])

        return vstep
    if name in M.LIBM_BINARY and tname in RULE_FLOATS and not is_vec(t):
        return rule_step(op.name, "fr[_o] = " + _FROM_F64[tname].format("float(_fn(float(fr[_a]), float(fr[_b])))"),
                         {"_o": o, "_a": a, "_b": b, "_fn": M.BINARY[name].scalar()})
    if name == "copysign" and tname in RULE_FLOATS:
        bits = _BITS_OF[tname]
        body = "fr[_o] = " + _OF_BITS[tname].format(
            f"copy_sign({bits.format('fr[_a]')}, {bits.format('fr[_b]')}, NB)")
        return rule_step("math.copysign", body, {"_o": o, "_a": a, "_b": b}, NB=FLOAT_BITS[tname])

    def step(fr: list) -> None:
        fr[o] = fn(fr[a], fr[b])[()]

    return step


for _n in (*M.BINARY, "copysign"):
    impl(f"math.{_n}")(_binary_float)


@impl("math.fma")
def _fma(op: Any, cx: Any):
    a, b, c = cx.slots(op.operands)
    o = cx.slot(op.results[0])
    t = op.results[0].type
    tname = float_info(elem(t)).name
    if is_vec(t):
        def vstep(fr: list) -> None:
            fr[o] = M.fma(fr[a], fr[b], fr[c], tname)

        return vstep

    if tname in ("f32", "f16", "bf16"):  # f64: exact rational arithmetic (mathfuncs.fma), interpreter only
        body = "fr[_o] = " + _FROM_F64[tname].format("fma_odd(float(fr[_a]), float(fr[_b]), float(fr[_c]))")
        return rule_step("math.fma", body, {"_o": o, "_a": a, "_b": b, "_c": c})

    def step(fr: list) -> None:
        fr[o] = M.fma(fr[a], fr[b], fr[c], tname)[()]

    return step


@impl("math.fpowi")
def _fpowi(op: Any, cx: Any):
    a, b = cx.slots(op.operands)
    o = cx.slot(op.results[0])
    t = op.results[0].type
    tname = float_info(elem(t)).name
    ii = int_info(elem(op.operands[1].type))
    if is_vec(t):
        ii.need_array()

        def vstep(fr: list) -> None:
            fr[o] = M.fpowi(fr[a], ii.s64(fr[b]), tname)

        return vstep

    def step(fr: list) -> None:
        fr[o] = M.fpowi(fr[a], ii.s(fr[b]), tname)[()]

    return step


# --------------------------------------------------------------------------- float classification


@impl("math.isnan", "math.isinf", "math.isfinite", "math.isnormal")
def _isclass(op: Any, cx: Any):
    name = op.name.split(".", 1)[1]
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    t = op.operands[0].type
    tiny = float(np.ldexp(1.0, float_info(elem(t)).fmt.emin))  # smallest normal magnitude

    def f(x: Any) -> Any:
        with np.errstate(all="ignore"):
            d = np.asarray(x).astype(np.float64)
            if name == "isnan":
                return np.isnan(d)
            if name == "isinf":
                return np.isinf(d)
            if name == "isfinite":
                return np.isfinite(d)
            return np.isfinite(d) & (np.abs(d) >= tiny)

    if is_vec(t):
        def vstep(fr: list) -> None:
            fr[o] = np.asarray(f(fr[a]))

        return vstep
    call = f"isnormalf(float(fr[_a]), {tiny!r})" if name == "isnormal" else f"{name}f(float(fr[_a]))"
    return rule_step(op.name, f"fr[_o] = {call}", {"_o": o, "_a": a})


# --------------------------------------------------------------------------- integer functions


def _ipow(x: int, n: int) -> int:
    if n >= 0:
        return x**n
    if x == 0:
        raise ExecFault("division by zero: 0 raised to a negative power")
    if x == 1:
        return 1
    if x == -1:
        return -1 if n & 1 else 1
    return 0


def _int_unary_fn(name: str, w: int):
    if name == "absi":
        return "s", abs
    if name == "ctlz":
        return "u", lambda u: w - u.bit_length()
    if name == "cttz":
        return "u", lambda u: (u & -u).bit_length() - 1 if u else w
    if name == "ctpop":
        return "u", lambda u: u.bit_count()
    raise KeyError(name)


@impl("math.absi", "math.ctlz", "math.cttz", "math.ctpop")
def _int_unary(op: Any, cx: Any):
    name = op.name.split(".", 1)[1]
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    t = op.results[0].type
    info = int_info(elem(t))
    interp, fn = _int_unary_fn(name, info.width)
    rd = info.s if interp == "s" else info.u
    wrap = info.wrap
    if is_vec(t):
        info.need_array()
        arr_rd = info.s64 if interp == "s" else info.u64

        def g(x: np.ndarray) -> np.ndarray:
            vals = [wrap(fn(int(v))) & info.mask for v in np.asarray(arr_rd(x)).reshape(-1).tolist()]
            return info.pack(np.array(vals, dtype=np.uint64).reshape(np.shape(x)))

        g2 = fix0d(g, t)

        def vstep(fr: list) -> None:
            fr[o] = g2(fr[a])

        return vstep

    if rules_cover_int(info):
        body = "fr[_o] = " + int_result(info, f"{name}({int_operand(info, '_a')}, W)")
        return rule_step(op.name, body, {"_o": o, "_a": a}, W=info.width)

    def step(fr: list) -> None:
        fr[o] = wrap(fn(rd(fr[a])))

    return step


@impl("math.ipowi")
def _ipowi(op: Any, cx: Any):
    a, b = cx.slots(op.operands)
    o = cx.slot(op.results[0])
    t = op.results[0].type
    info = int_info(elem(t))
    m = info.mask

    def pw(x: int, n: int) -> int:
        if n >= 0:
            return pow(x, n, 1 << info.width)  # wraps like repeated multiplication
        return _ipow(x, n)

    if is_vec(t):
        info.need_array()

        def g(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            xs = np.asarray(info.s64(x)).reshape(-1).tolist()
            ys = np.asarray(info.s64(y)).reshape(-1).tolist()
            vals = [info.wrap(pw(int(p), int(q))) & m for p, q in zip(xs, ys)]
            return info.pack(np.array(vals, dtype=np.uint64).reshape(np.shape(x)))

        g2 = fix0d(g, t)

        def vstep(fr: list) -> None:
            fr[o] = g2(fr[a], fr[b])

        return vstep

    def step(fr: list) -> None:
        fr[o] = info.wrap(pw(info.s(fr[a]), info.s(fr[b])))

    return step
