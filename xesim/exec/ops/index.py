"""index dialect semantics (mlir/docs/Dialects/IndexOps.md) with a 64-bit ``index`` (the width of the
runner's host and of Intel GPU kernels' ``index`` after lowering; ``index.sizeof`` gives 64).

The arithmetic shares the arith implementations (``xesim/exec/ops/arith.py``) and their rules
(:mod:`xesim.numerics.scalar_rules`, registered for the ``index.*`` op names too): results wrap at 64 bits;
division by zero, ``INT64_MIN / -1`` and shifts by >= 64 are reported as :class:`ExecFault` (the index
dialect gives them no value).  ``index.casts`` sign-extends or truncates, ``index.castu`` zero-extends or
truncates; ``index.cmp`` reads the operands as signed or unsigned according to its predicate.
"""

from __future__ import annotations

from typing import Any

from xesim.exec.ops.arith import (
    CMPI_CASES,
    compile_cmpi,
    compile_int_binary,
    compile_int_cast,
    enum_case,
    impl,
    int_info,
)
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

INDEX_BITS = 64

#: index op -> the arith op with the same semantics
_BINARY = {
    "add": "addi",
    "sub": "subi",
    "mul": "muli",
    "divs": "divsi",
    "divu": "divui",
    "ceildivs": "ceildivsi",
    "ceildivu": "ceildivui",
    "floordivs": "floordivsi",
    "rems": "remsi",
    "remu": "remui",
    "maxs": "maxsi",
    "maxu": "maxui",
    "mins": "minsi",
    "minu": "minui",
    "shl": "shli",
    "shrs": "shrsi",
    "shru": "shrui",
    "and": "andi",
    "or": "ori",
    "xor": "xori",
}


def _binary(op: Any, cx: Any):
    base = _BINARY[op.name.split(".", 1)[1]]
    a, b = cx.slots(op.operands)
    return compile_int_binary(base, T.INDEX, a, b, cx.slot(op.results[0]), op_name=op.name)


for _n in _BINARY:
    impl(f"index.{_n}")(_binary)


@impl("index.cmp")
def _cmp(op: Any, cx: Any):
    pred = enum_case(op.attributes.get("pred"), CMPI_CASES)
    a, b = cx.slots(op.operands)
    return compile_cmpi(pred, T.INDEX, a, b, cx.slot(op.results[0]), op.name)


@impl("index.constant")
def _constant(op: Any, cx: Any):
    o = cx.slot(op.results[0])
    attr = op.attributes["value"]
    value = int_info(T.INDEX).wrap(int(getattr(attr, "value", attr)))

    def step(fr: list) -> None:
        fr[o] = value

    return step


@impl("index.bool.constant")
def _bool_constant(op: Any, cx: Any):
    o = cx.slot(op.results[0])
    attr = op.attributes["value"]
    value = 1 if getattr(attr, "value", attr) else 0

    def step(fr: list) -> None:
        fr[o] = value

    return step


@impl("index.sizeof")
def _sizeof(op: Any, cx: Any):
    o = cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[o] = INDEX_BITS

    return step


@impl("index.casts")
def _casts(op: Any, cx: Any):
    return compile_int_cast("s", op.operands[0].type, op.results[0].type, cx.slot(op.operands[0]),
                            cx.slot(op.results[0]), op.name)


@impl("index.castu")
def _castu(op: Any, cx: Any):
    return compile_int_cast("u", op.operands[0].type, op.results[0].type, cx.slot(op.operands[0]),
                            cx.slot(op.results[0]), op.name)
