"""cf dialect semantics: unconditional and conditional branches with block arguments, assert."""

from __future__ import annotations

from typing import Any

from xesim.exec.interpreter import ExecFault
from xesim.exec.registry import impl


@impl("cf.br")
def _br(op: Any, cx: Any):
    target = cx.successor_index(op.successors[0])
    slots = cx.slots(op.operands)
    return lambda fr: (target, [fr[s] for s in slots])


@impl("cf.cond_br")
def _cond_br(op: Any, cx: Any):
    t = cx.successor_index(op.successors[0])
    f = cx.successor_index(op.successors[1])
    c = cx.slot(op.operands[0])
    tslots = cx.slots(op.operand_group("trueDestOperands"))
    fslots = cx.slots(op.operand_group("falseDestOperands"))

    def term(fr: list) -> tuple:
        if fr[c]:
            return t, [fr[s] for s in tslots]
        return f, [fr[s] for s in fslots]

    return term


@impl("cf.assert")
def _assert(op: Any, cx: Any):
    c = cx.slot(op.operands[0])
    msg = op.attributes.get("msg")
    text = msg.value if msg is not None else ""

    def step(fr: list) -> None:
        if not fr[c]:
            raise ExecFault(f"assertion failed: {text}")

    return step
