"""cf dialect semantics: unconditional and conditional branches with block arguments, assert.

On the instance axis (:mod:`xesim.exec.axis`) a branch needs a condition (switch flag) every active slot agrees on:
divergent unstructured control flow is reported (structured control flow, :mod:`xesim.exec.ops.scf`, is what the
XeGPU pipelines emit)."""

from __future__ import annotations

from typing import Any

from xesim.exec.axis import Varying, uniform_value
from xesim.exec.faults import ExecFault
from xesim.exec.registry import impl


def _backward(op: Any, cx: Any, successor: Any) -> bool:
    """Whether the branch goes to its own block or an earlier one: every cycle of a control-flow graph has such an
    edge, so counting these as steps bounds every cf loop (xesim/exec/guard.py)."""
    return cx.successor_index(successor) <= cx.successor_index(op.parent)


@impl("cf.br")
def _br(op: Any, cx: Any):
    target = cx.successor_index(op.successors[0])
    slots = cx.slots(op.operands)
    if not _backward(op, cx, op.successors[0]):
        return lambda fr: (target, [fr[s] for s in slots])
    g = cx.engine.guard

    def back(fr: list) -> tuple:
        if g.left <= g.check:
            g.poll_steps(op)
        g.left -= 1
        return target, [fr[s] for s in slots]

    return back


@impl("cf.cond_br", axis=True)
def _cond_br(op: Any, cx: Any):
    t = cx.successor_index(op.successors[0])
    f = cx.successor_index(op.successors[1])
    c = cx.slot(op.operands[0])
    tslots = cx.slots(op.operand_group("trueDestOperands"))
    fslots = cx.slots(op.operand_group("falseDestOperands"))
    ks = cx.engine.kstate
    back_t, back_f = _backward(op, cx, op.successors[0]), _backward(op, cx, op.successors[1])
    g = cx.engine.guard

    def term(fr: list) -> tuple:
        if one_value(fr[c], ks, "the branch condition"):
            if back_t:
                if g.left <= g.check:
                    g.poll_steps(op)
                g.left -= 1
            return t, [fr[s] for s in tslots]
        if back_f:
            if g.left <= g.check:
                g.poll_steps(op)
            g.left -= 1
        return f, [fr[s] for s in fslots]

    return term


def one_value(v: Any, ks: Any, what: str) -> Any:
    """The value a branch selects on, which every active slot must agree on."""
    if not isinstance(v, Varying):
        return v
    return uniform_value(v, ks.mask, what + " (divergent unstructured control flow is not supported at lane level; "
                                           "use scf.if)")


@impl("cf.assert")
def _assert(op: Any, cx: Any):
    c = cx.slot(op.operands[0])
    msg = op.attributes.get("msg")
    text = msg.value if msg is not None else ""

    def step(fr: list) -> None:
        if not fr[c]:
            raise ExecFault(f"assertion failed: {text}")

    return step
