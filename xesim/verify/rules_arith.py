"""Verifier predicates of the arith dialect (also used by math), following MLIR's ``ArithOps.cpp`` /
``ArithOps.td``: ODS type-equality constraints (``SameOperandsAndResultType``, ``AllTypesMatch``), cast
compatibility (``areCastCompatible``), extension / truncation width rules (``verifyExtOp`` /
``verifyTruncateOp``), ``arith.constant`` and ``arith.select`` verifiers.  Messages use MLIR's wording.

Most type equalities cannot be violated in the custom syntax (the format infers the types); they matter
for IR written in MLIR's generic form.
"""

from __future__ import annotations

from typing import Any

from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.constraints import i1_like
from xesim.verify.predicates import predicate


def _shape(t: T.Type) -> tuple[tuple[int, ...], tuple[bool, ...]] | None:
    """Shape (and scalable flags) of a vector type; None for a scalar."""
    if isinstance(t, T.VectorType):
        return t.shape, t.scalable
    return None


def _width(t: T.Type) -> int | None:
    e = T.element_type_of(t)
    if isinstance(e, (T.IntegerType, T.FloatType)):
        return e.width
    return None


def cast_incompatible(op: Any, ctx: Any) -> None:
    """MLIR's CastOpInterface diagnostic."""
    ctx.error(op, f"operand type '{op.operands[0].type}' and result type '{op.results[0].type}' are cast incompatible")


@predicate("arith_same_type")
def same_operands_and_result_type(op: Any, ctx: Any) -> None:
    """SameOperandsAndResultType: every operand and result has one type."""
    types = [v.type for v in op.operands] + [r.type for r in op.results]
    t0 = types[0]
    for t in types[1:]:
        if t is not t0 and t != t0:
            ctx.error(op, "requires the same type for all operands and results")
            return


@predicate("arith_cast_same_shape")
def cast_same_shape(op: Any, ctx: Any) -> None:
    """SameOperandsAndResultShape of the arith casts: scalar to scalar or vector to vector of one shape."""
    if _shape(op.operands[0].type) != _shape(op.results[0].type):
        ctx.error(op, "requires the same shape for all operands and results")


@predicate("arith_ext_width")
def ext_width(op: Any, ctx: Any) -> None:
    """extsi / extui / extf: the result element type must be strictly wider (MLIR verifyExtOp)."""
    src = T.element_type_of(op.operands[0].type)
    dst = T.element_type_of(op.results[0].type)
    ws, wd = _width(src), _width(dst)
    if ws is not None and wd is not None and wd <= ws:
        ctx.error(op, f"result type '{dst}' must be wider than operand type '{src}'")


@predicate("arith_trunc_width")
def trunc_width(op: Any, ctx: Any) -> None:
    """trunci / truncf: the result element type must be strictly narrower (MLIR verifyTruncateOp)."""
    src = T.element_type_of(op.operands[0].type)
    dst = T.element_type_of(op.results[0].type)
    ws, wd = _width(src), _width(dst)
    if ws is not None and wd is not None and wd >= ws:
        ctx.error(op, f"result type '{dst}' must be shorter than operand type '{src}'")


@predicate("arith_bitcast")
def bitcast_width(op: Any, ctx: Any) -> None:
    """arith.bitcast: operand and result elements have the same bit width (BitcastOp::areCastCompatible)."""
    if _width(op.operands[0].type) != _width(op.results[0].type):
        cast_incompatible(op, ctx)


@predicate("arith_index_cast")
def index_cast(op: Any, ctx: Any) -> None:
    """index_cast / index_castui (and index.casts / index.castu): exactly one side is ``index``, the other
    a signless integer (MLIR areIndexCastCompatible)."""
    src = T.element_type_of(op.operands[0].type)
    dst = T.element_type_of(op.results[0].type)
    if isinstance(src, T.IndexType) == isinstance(dst, T.IndexType):
        cast_incompatible(op, ctx)


@predicate("arith_constant")
def constant(op: Any, ctx: Any) -> None:
    """arith.constant: a typed integer / float / elements value whose type is the result type
    (ConstantOp::verify and ``AllTypesMatch<["value", "result"]>``)."""
    value = op.attributes.get("value")
    ty = op.results[0].type
    if isinstance(ty, T.IntegerType) and not ty.is_signless:
        ctx.error(op, "integer return type must be signless")
        return
    if not isinstance(value, (A.IntegerAttr, A.FloatAttr, A.DenseElementsAttr)):
        ctx.error(op, "value must be an integer, float, or elements attribute")
        return
    if value.type != ty:
        ctx.error(op, "failed to verify that all of {value, result} have same type")
        return
    if isinstance(ty, T.VectorType) and any(ty.scalable) and not getattr(value, "splat", False):
        ctx.error(
            op, "intializing scalable vectors with elements attribute is not supported unless it's a vector splat"
        )


@predicate("arith_cmp")
def cmp_types(op: Any, ctx: Any) -> None:
    """cmpi / cmpf: operands of one type; the result is i1 (or vector of i1) of the operands' shape."""
    lhs, rhs = op.operands[0].type, op.operands[1].type
    if lhs != rhs:
        ctx.error(op, "failed to verify that all of {lhs, rhs} have same type")
        return
    if op.results[0].type != i1_like(lhs):
        ctx.error(op, "failed to verify that result type has i1 element type and same shape as operands")


@predicate("arith_select")
def select(op: Any, ctx: Any) -> None:
    """arith.select: both values and the result share one type; the condition is ``i1`` or, for a vector
    result, ``i1`` or an i1 vector of the result's shape (SelectOp::verify)."""
    cond = op.operands[0].type
    tv, fv, res = op.operands[1].type, op.operands[2].type, op.results[0].type
    if not (tv == fv == res):
        ctx.error(op, "failed to verify that all of {true_value, false_value, result} have same type")
        return
    if cond == T.I1:
        return
    if not isinstance(res, T.VectorType):
        ctx.error(op, f"expected condition to be a signless i1, but got '{cond}'")
        return
    expected = i1_like(res)
    if cond != expected:
        ctx.error(
            op,
            f"expected condition type to have the same shape as the result type, expected '{expected}', "
            f"but got '{cond}'",
        )


@predicate("math_fpowi")
def fpowi(op: Any, ctx: Any) -> None:
    """math.fpowi: the result has the base's type; the exponent has the base's shape."""
    base, exp = op.operands[0].type, op.operands[1].type
    if op.results[0].type != base:
        ctx.error(op, "failed to verify that all of {lhs, result} have same type")
    elif _shape(base) != _shape(exp):
        ctx.error(op, "failed to verify that all of {lhs, rhs} have same shape")


@predicate("math_i1_result")
def i1_result(op: Any, ctx: Any) -> None:
    """math.isnan / isinf / isfinite / isnormal: i1 (or vector of i1) of the operand's shape."""
    if op.results[0].type != i1_like(op.operands[0].type):
        ctx.error(op, "failed to verify that result type has i1 element type and same shape as operands")
