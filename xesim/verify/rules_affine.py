"""Verifier predicates of the affine dialect (MLIR ``AffineOps.cpp``: AffineApplyOp::verify,
verifyAffineMinMaxOp): the map's dimension + symbol count equals the operand count; ``affine.apply``'s
map produces exactly one value; ``affine.min`` / ``affine.max`` need at least one result expression."""

from __future__ import annotations

from typing import Any

from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.verify.predicates import predicate


def _map_of(op: Any) -> Any:
    a = op.attributes.get("map")
    return a.map if isinstance(a, A.AffineMapAttr) else None


def _check_operand_count(op: Any, ctx: Any, amap: Any) -> bool:
    if amap.num_dims + amap.num_syms != len(op.operands):
        ctx.error(op, "operand count and affine map dimension and symbol count must match")
        return False
    return True


@predicate("affine_apply")
def affine_apply(op: Any, ctx: Any) -> None:
    """affine.apply: operands match the map's inputs and the map has a single result."""
    amap = _map_of(op)
    if amap is None or not _check_operand_count(op, ctx, amap):
        return
    if len(amap.results) != 1:
        ctx.error(op, "mapping must produce one value")


@predicate("affine_min_max")
def affine_min_max(op: Any, ctx: Any) -> None:
    """affine.min / affine.max: operands match the map's inputs; the map has at least one result."""
    amap = _map_of(op)
    if amap is None or not _check_operand_count(op, ctx, amap):
        return
    if not amap.results:
        ctx.error(op, "affine map expect at least one result")
