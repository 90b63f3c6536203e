"""Named type constraints and type-inference rules referenced from ``isa/dialects/*.toml``.

A constraint string in an op definition is one name or several joined by ``|`` (any may match).  The loader
rejects unknown names.  Inference rules (``infer`` tables) compute the type of an operand or result that
the assembly format does not print, as MLIR's ODS type constraints (``AllTypesMatch``,
``TypesMatchWith``) do.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from xesim.ir.types import (
    DYNAMIC,
    I1,
    INDEX,
    AsyncTokenType,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    LLVMPointerType,
    MemDescType,
    MemRefType,
    NbarrierType,
    OpaqueType,
    TensorDescType,
    TileType,
    Type,
    UnrankedMemRefType,
    VectorType,
    element_type_of,
)


def _scalar_or_vector(pred: Callable[[Type], bool]) -> Callable[[Type], bool]:
    def check(t: Type) -> bool:
        if isinstance(t, VectorType):
            return pred(t.element_type)
        return pred(t)

    return check


def _is_signless_int(t: Type) -> bool:
    return isinstance(t, IntegerType) and t.signedness == ""


def _is_int_or_index(t: Type) -> bool:
    return isinstance(t, (IntegerType, IndexType))


def _is_scalar(t: Type) -> bool:
    return isinstance(t, (IntegerType, IndexType, FloatType))


def _is_pointer(t: Type) -> bool:
    return isinstance(t, IntegerType) and t.width in (32, 64)


def _is_memref_1d(t: Type) -> bool:
    return isinstance(t, MemRefType) and t.rank == 1


def _is_xetile_scalar(t: Type) -> bool:
    """XeTile's scalar types (shared/spec/xetile.md §2.10): i1..i64 of any signedness, f16/f32/f64/bf16/tf32, index."""
    if isinstance(t, IntegerType):
        return t.width in (1, 8, 16, 32, 64)
    if isinstance(t, FloatType):
        return t.name in ("f16", "f32", "f64", "bf16", "tf32")
    return isinstance(t, IndexType)


def _is_xevm_matrix_elem(t: Type) -> bool:
    """XeVM's matrix element types (upstream-xegpu-xevm.md §4.1, §4.5): i8/i16/i32 of any signedness, f32, tf32, f16,
    bf16."""
    if isinstance(t, IntegerType):
        return t.width in (8, 16, 32)
    return isinstance(t, FloatType) and t.name in ("f32", "tf32", "f16", "bf16")


def _is_1d_vector_of(pred: Callable[[Type], bool]) -> Callable[[Type], bool]:
    return lambda t: isinstance(t, VectorType) and t.rank == 1 and pred(t.element_type)


def _scalar_or_1d_vector(pred: Callable[[Type], bool]) -> Callable[[Type], bool]:
    return lambda t: pred(t) or _is_1d_vector_of(pred)(t)


def _is_int_of(*widths: int) -> Callable[[Type], bool]:
    return lambda t: isinstance(t, IntegerType) and t.width in widths


def _is_xegpu_elem(t: Type) -> bool:
    return isinstance(t, (IntegerType, FloatType))


CONSTRAINTS: dict[str, tuple[Callable[[Type], bool], str]] = {
    "Any": (lambda t: True, "any type"),
    "Index": (lambda t: isinstance(t, IndexType), "index"),
    "I1": (lambda t: t == I1, "i1"),
    "I8": (lambda t: isinstance(t, IntegerType) and t.width == 8 and t.signedness == "", "i8"),
    "I32": (lambda t: isinstance(t, IntegerType) and t.width == 32 and t.signedness == "", "i32"),
    "I64": (lambda t: isinstance(t, IntegerType) and t.width == 64 and t.signedness == "", "i64"),
    "AnyInteger": (lambda t: isinstance(t, IntegerType), "integer"),
    "SignlessInteger": (_is_signless_int, "signless integer"),
    "SignlessIntegerLike": (_scalar_or_vector(_is_signless_int), "signless-fixed-width-integer-like"),
    "SignlessIntegerOrIndex": (lambda t: _is_signless_int(t) or isinstance(t, IndexType), "signless integer or index"),
    "SignlessIntegerOrIndexLike": (
        _scalar_or_vector(lambda t: _is_signless_int(t) or isinstance(t, IndexType)),
        "signless-integer-like or index-like",
    ),
    "IntegerOrIndex": (_is_int_or_index, "integer or index"),
    "IntegerOrIndexLike": (_scalar_or_vector(_is_int_or_index), "integer-like or index-like"),
    "IndexLike": (_scalar_or_vector(lambda t: isinstance(t, IndexType)), "index-like"),
    "AnyFloat": (lambda t: isinstance(t, FloatType), "floating-point"),
    "FloatLike": (_scalar_or_vector(lambda t: isinstance(t, FloatType)), "floating-point-like"),
    "BoolLike": (_scalar_or_vector(lambda t: t == I1), "bool-like (i1 or vector of i1)"),
    "AnyScalar": (_is_scalar, "integer, index or float"),
    "ScalarLike": (_scalar_or_vector(_is_scalar), "integer, index or float (or a vector of them)"),
    "AnyVector": (lambda t: isinstance(t, VectorType), "vector"),
    "IndexVector": (
        lambda t: isinstance(t, VectorType) and isinstance(t.element_type, IndexType),
        "vector of index values",
    ),
    "AnyVectorOrScalar": (
        lambda t: isinstance(t, VectorType) or _is_scalar(t),
        "vector or scalar",
    ),
    "AnyMemRef": (lambda t: isinstance(t, MemRefType), "ranked memref"),
    "AnyUnrankedMemRef": (lambda t: isinstance(t, UnrankedMemRefType), "unranked memref"),
    "AnyRankedOrUnrankedMemRef": (
        lambda t: isinstance(t, (MemRefType, UnrankedMemRefType)),
        "ranked or unranked memref",
    ),
    "MemRef1D": (_is_memref_1d, "1-D memref"),
    "MemRefI8Rank1": (  # memref.view's source (MLIR MemRefRankOf<[I8], [1]>)
        lambda t: _is_memref_1d(t) and t.element_type == IntegerType(8),
        "1D memref of 8-bit signless integer values",
    ),
    "VectorOfI1": (
        lambda t: isinstance(t, VectorType) and t.element_type == I1,
        "vector of 1-bit signless integer values",
    ),
    "VectorOfFloat": (
        lambda t: isinstance(t, VectorType) and isinstance(t.element_type, FloatType),
        "vector of floating-point values",
    ),
    "StaticMemRef": (lambda t: isinstance(t, MemRefType) and t.has_static_shape, "statically shaped memref"),
    "TensorDesc": (lambda t: isinstance(t, TensorDescType), "!xegpu.tensor_desc"),
    "Nbarrier": (lambda t: isinstance(t, NbarrierType), "!xegpu.nbarrier"),
    "MemDesc": (lambda t: isinstance(t, MemDescType), "!xegpu.mem_desc"),
    "AsyncToken": (lambda t: isinstance(t, AsyncTokenType), "!gpu.async.token"),
    "FunctionType": (lambda t: isinstance(t, FunctionType), "function type"),
    "Pointer": (_is_pointer, "integer pointer (i64, ui64, i32, ui32)"),
    "XeGPUElement": (_is_xegpu_elem, "integer or float element"),
    "XeGPUVector": (
        lambda t: isinstance(t, VectorType) and _is_xegpu_elem(t.element_type),
        "vector of integer or float",
    ),
    "XeGPUValue": (
        lambda t: (isinstance(t, VectorType) and _is_xegpu_elem(t.element_type)) or _is_xegpu_elem(t),
        "vector or scalar of integer or float",
    ),
    "OpaqueLLVMPointer": (lambda t: isinstance(t, OpaqueType), "opaque dialect type"),
    # LLVM / XeVM (shared/spec/upstream-xegpu-xevm.md §4)
    "LLVMPointer": (lambda t: isinstance(t, LLVMPointerType), "LLVM pointer type"),
    "I32OrI64": (lambda t: isinstance(t, IntegerType) and t.signedness == "" and t.width in (32, 64),
                 "32-bit signless integer or 64-bit signless integer"),
    "XeVMMatrixVector": (_is_1d_vector_of(_is_xevm_matrix_elem),
                         "1D vector of 8-bit integer or 16-bit integer or 32-bit integer or 32-bit float or tf32 "
                         "type or 16-bit float or bfloat16 type values"),
    "XeVMBlockIO": (_scalar_or_1d_vector(_is_int_of(8, 16, 32, 64)),
                    "8-bit, 16-bit, 32-bit or 64-bit integer, or a 1D vector of them"),
    "I8OrVectorOfI8": (_scalar_or_1d_vector(_is_int_of(8)), "8-bit integer or 1D vector of 8-bit integer values"),
    "XeVMHalfLike": (_scalar_or_1d_vector(lambda t: isinstance(t, FloatType) and t.name in ("f16", "bf16")),
                     "16-bit float or bfloat16 type, or a 1D vector of them"),
    "XeVMCodeLike": (_scalar_or_1d_vector(_is_int_of(8, 4)), "8-bit or 4-bit integer, or a 1D vector of them"),
    "XeVMIntLike": (_scalar_or_1d_vector(_is_int_of(8, 16, 32, 64)),
                    "8-bit, 16-bit, 32-bit or 64-bit integer, or a 1D vector of them"),
    # XeTile (shared/spec/xetile.md §2.10)
    "XeTile": (lambda t: isinstance(t, TileType), "XeTile"),
    "XeTile2DVector": (
        lambda t: isinstance(t, VectorType) and t.rank == 2 and _is_xetile_scalar(t.element_type),
        "2D vector of scalar values",
    ),
    # legacy (shared/spec/xetile.md Appendix A.1): load_tile/store_tile/tile_mma (and, to be refused with a reason,
    # reduction/broadcast) also took 4-D blocked vectors; any other rank gets the 2-D message
    "XeTileBlockedVector": (
        lambda t: isinstance(t, VectorType) and t.rank in (2, 4) and _is_xetile_scalar(t.element_type),
        "2D vector of scalar values",
    ),
    "XeTile1Or2DVector": (
        lambda t: isinstance(t, VectorType) and t.rank in (1, 2) and _is_xetile_scalar(t.element_type),
        "1D or 2D vector of scalar values",
    ),
    "XeTileMask": (
        lambda t: isinstance(t, VectorType) and t.rank in (1, 2) and t.element_type == I1,
        "1D or 2D vector of 1-bit signless integer values",
    ),
    "XeTileIndexVector": (
        lambda t: isinstance(t, VectorType) and t.rank in (1, 2) and isinstance(t.element_type, IndexType),
        "1D or 2D vector of index values",
    ),
    "XeTileBase": (
        lambda t: (isinstance(t, MemRefType) and _is_xetile_scalar(t.element_type))
        or (isinstance(t, IntegerType) and t.width in (32, 64) and t.signedness in ("", "u")),
        "memref of scalar values or 64-bit signless integer or 64-bit unsigned integer or 32-bit signless integer "
        "or 32-bit unsigned integer",
    ),
}


def constraint_names(spec: str) -> list[str]:
    return [s.strip() for s in spec.split("|")]


@functools.cache
def _predicates(spec: str) -> tuple:
    return tuple(CONSTRAINTS[name][0] for name in constraint_names(spec))


def check_constraint(spec: str, t: Type) -> bool:
    for pred in _predicates(spec):
        if pred(t):
            return True
    return False


def describe_constraint(spec: str) -> str:
    return " or ".join(CONSTRAINTS[name][1] for name in constraint_names(spec))


# ------------------------------------------------------------------------------------------ inference


def i1_like(t: Type) -> Type:
    """i1 for a scalar, vector<...xi1> with the same shape for a vector (result of cmpi/cmpf)."""
    if isinstance(t, VectorType):
        return VectorType(t.shape, I1, t.scalable)
    return I1


def elem(t: Type) -> Type:
    return element_type_of(t)


def memref_dynamic_count(t: Type) -> int:
    return sum(1 for d in getattr(t, "shape", ()) if d == DYNAMIC)


# Inference functions take the referenced types and return one type.
INFER_FUNCTIONS: dict[str, Callable[..., Type]] = {
    "elem": elem,
    "i1like": i1_like,
}

# Literal types usable in inference rules.
INFER_LITERALS: dict[str, Type] = {"index": INDEX, "i1": I1, "i32": IntegerType(32), "i64": IntegerType(64),
                                    "i8": IntegerType(8), "!gpu.async.token": AsyncTokenType()}
