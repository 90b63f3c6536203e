"""Verifier rules of ``vector.interleave`` / ``vector.deinterleave`` (MLIR vector dialect: the result's trailing
dimension is twice the operands' (interleave) or half the source's (deinterleave), other dimensions and the
element type equal; a 0-D operand interleaves to ``vector<2>``).  Message wording is xesim's: the expected type is
named, as MLIR's inferred-type mismatch does."""

from __future__ import annotations

from typing import Any

from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.core import Operation
from xesim.verify.predicates import predicate


@predicate("vector_interleave")
def _interleave(op: Operation, ctx: Any) -> None:
    """The result is the operand type with the trailing dimension doubled."""
    src, res = op.operands[0].type, op.results[0].type
    shape = list(src.shape) or [1]
    want = T.VectorType(tuple(shape[:-1] + [shape[-1] * 2]), src.element_type)
    if res != want:
        ctx.error(op, f"expected result type {want}, got {res}")


@predicate("vector_deinterleave")
def _deinterleave(op: Operation, ctx: Any) -> None:
    """The source has an even, non-zero trailing dimension; each result is the source with it halved."""
    src, res = op.operands[0].type, op.results[0].type
    shape = list(src.shape)
    if not shape or shape[-1] % 2:
        ctx.error(op, "failed to verify that trailing dimension of source vector must be an even number")
        return
    want = T.VectorType(tuple(shape[:-1] + [shape[-1] // 2]), src.element_type)
    if res != want:
        ctx.error(op, f"expected result type {want}, got {res}")
