"""Verifier predicates of the cf dialect (MLIR ``ControlFlowOps.cpp`` and ``BranchOpInterface``).

A branch's successor operands are the operand group named ``<successor>Operands`` (``destOperands``,
``trueDestOperands``, ``falseDestOperands``); they must match the target block's arguments in number and
type (MLIR ``detail::verifyBranchSuccessorOperands``).  The entry block of a region may not be a branch
target (MLIR Verifier: "entry block of region may not have predecessors").
"""

from __future__ import annotations

from typing import Any

from xesim.verify.predicates import predicate


def successor_operands(op: Any, index: int) -> list:
    """The operands forwarded to successor ``index`` of a branch op (empty if the op has no such group)."""
    od = op.opdef
    if od is None or index >= len(od.successors):
        return []
    group = f"{od.successors[index]}Operands"
    return op.operand_group(group) if group in od.operand_names else []


@predicate("cf_successor_operands")
def branch_successor_operands(op: Any, ctx: Any) -> None:
    """Successor count, operand counts and types against each target block's arguments."""
    od = op.opdef
    if len(op.successors) != len(od.successors):
        ctx.error(op, f"requires {len(od.successors)} successors but found {len(op.successors)}")
        return
    for i, block in enumerate(op.successors):
        operands = successor_operands(op, i)
        if len(operands) != len(block.args):
            ctx.error_at(
                op.loc,
                f"branch has {len(operands)} operands for successor #{i}, but target block has {len(block.args)}",
            )
            continue
        for j, (v, arg) in enumerate(zip(operands, block.args, strict=True)):
            if v.type != arg.type:
                ctx.error_at(
                    op.loc,
                    f"type mismatch for bb argument #{j} of successor #{i}: '{v.type}' vs '{arg.type}'",
                )
    _check_entry_predecessor(op, ctx)


def _check_entry_predecessor(op: Any, ctx: Any) -> None:
    """Report a branch to the entry block once per region, at the region's parent op (as MLIR does)."""
    block = op.parent
    region = block.parent if block is not None else None
    if region is None or not region.blocks:
        return
    entry = region.blocks[0]
    if entry not in op.successors:
        return
    for b in region.blocks:
        term = b.terminator
        if term is not None and entry in term.successors:
            if term is op:
                owner = region.parent
                loc = owner.loc if owner is not None else op.loc
                ctx.error_at(loc, "entry block of region may not have predecessors")
            return
