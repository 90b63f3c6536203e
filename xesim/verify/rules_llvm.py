"""Verifier rules of the LLVM-dialect ops XeVM kernels use (shared/spec/upstream-xegpu-xevm.md §4.13).

MLIR's LLVM dialect leaves most of these to LLVM's own IR verifier (run when the module is translated); xesim runs
the module directly, so it checks them here, with xesim's wording (the spec quotes no upstream message):
integer casts change the width in the right direction and keep the shape, a bit cast keeps the total bit width,
a GEP has one index (or a leading constant 0 and one index: the array-of-elements form) and a sized element type,
a constant's value fits the result type.
"""

from __future__ import annotations

from typing import Any

from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.verify.predicates import predicate


def _shape(t: T.Type) -> tuple[int, ...]:
    return tuple(t.shape) if isinstance(t, T.VectorType) else ()


def _bits(t: T.Type) -> int:
    n = 1
    for d in _shape(t):
        n *= d
    return n * T.bit_width(T.element_type_of(t))


def _int_cast(op: Any, ctx: Any, wider: bool) -> None:
    src, dst = op.operands[0].type, op.results[0].type
    if _shape(src) != _shape(dst):
        ctx.error(op, f"operand type '{src}' and result type '{dst}' must have the same shape")
        return
    ws, wd = T.bit_width(T.element_type_of(src)), T.bit_width(T.element_type_of(dst))
    if wider and wd <= ws:
        ctx.error(op, f"result type '{dst}' must be wider than operand type '{src}'")
    elif not wider and wd >= ws:
        ctx.error(op, f"result type '{dst}' must be narrower than operand type '{src}'")


@predicate("llvm_int_cast_wider")
def _wider(op: Any, ctx: Any) -> None:
    """``zext`` / ``sext``: a strictly wider integer of the same shape."""
    _int_cast(op, ctx, True)


@predicate("llvm_int_cast_narrower")
def _narrower(op: Any, ctx: Any) -> None:
    """``trunc``: a strictly narrower integer of the same shape."""
    _int_cast(op, ctx, False)


@predicate("llvm_bitcast")
def _bitcast(op: Any, ctx: Any) -> None:
    """``bitcast``: the same total bit width (LLVM's ``castIsValid``)."""
    src, dst = op.operands[0].type, op.results[0].type
    try:
        same = _bits(src) == _bits(dst)
    except TypeError:
        same = False
    if not same:
        ctx.error(op, f"cannot bit cast '{src}' to '{dst}': their bit widths differ")


@predicate("llvm_getelementptr")
def _gep(op: Any, ctx: Any) -> None:
    """``getelementptr`` as XeVM kernels write it: ``%p[i]`` or ``%p[0, i]`` over a scalar or vector element type;
    the result is in the base pointer's address space."""
    raw = A.int_list(op.attributes.get("rawConstantIndices")) or []
    et = op.attributes.get("elem_type")
    ety = et.type if isinstance(et, A.TypeAttr) else None
    if not (isinstance(ety, (T.IntegerType, T.FloatType)) or
            (isinstance(ety, T.VectorType) and isinstance(ety.element_type, (T.IntegerType, T.FloatType)))):
        ctx.error(op, f"element type '{ety}' is not a sized scalar or vector type (xesim supports GEPs over "
                      "scalar and vector element types)")
        return
    if not (len(raw) == 1 or (len(raw) == 2 and raw[0] == 0)):
        ctx.error(op, f"expected one index, or a constant 0 and one index, got {len(raw)} indices (xesim supports "
                      "GEPs over scalar and vector element types)")
        return
    if op.results[0].type != op.operands[0].type:
        ctx.error(op, f"result type '{op.results[0].type}' differs from the base pointer type '{op.operands[0].type}'")


@predicate("llvm_constant")
def _constant(op: Any, ctx: Any) -> None:
    """``mlir.constant``: an integer value for an integer result, a float value for a float result."""
    v, rt = op.attributes.get("value"), op.results[0].type
    et = T.element_type_of(rt)
    if isinstance(v, A.IntegerAttr) and isinstance(et, (T.IntegerType, T.IndexType)):
        return
    if isinstance(v, A.FloatAttr) and isinstance(et, T.FloatType):
        return
    if isinstance(v, A.DenseElementsAttr) and isinstance(rt, T.VectorType):
        return
    ctx.error(op, f"value {v} does not fit the result type '{rt}'")
