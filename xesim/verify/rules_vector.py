"""Verifier predicates of the vector dialect, following MLIR's ``VectorOps.cpp`` (``verify()`` of each op,
``isBroadcastableTo``, ``verifyTransferOp`` / ``verifyPermutationMap``, ``ContractionOp::verify``,
``isSupportedCombiningKind``) and the ODS constraints of ``VectorOps.td``, with MLIR's wording (types in
messages are quoted as MLIR's diagnostics quote them).

xesim has no scalable vectors: ``vector_no_scalable`` rejects any ``vector<[4]xf32>`` operand or result, and
the other predicates skip such ops so only that diagnostic is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xesim.ir import affine as AF  # noqa: N812 - the codebase-wide alias
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.directives.common import DYNAMIC_INDEX
from xesim.ir.directives.vector import iterator_type_name, transfer_mask_type
from xesim.verify import rules_memref  # module import: the rule modules load each other while initializing
from xesim.verify.predicates import predicate

POISON = -1  # MLIR kPoisonIndex in static positions and shuffle masks


def q(t: Any) -> str:
    """A type quoted as in MLIR diagnostics."""
    return f"'{t}'"


def _scalable_type(t: T.Type) -> bool:
    if isinstance(t, T.VectorType):
        return any(t.scalable) or _scalable_type(t.element_type)
    if isinstance(t, (T.MemRefType, T.UnrankedMemRefType)):
        return _scalable_type(t.element_type)
    return False


def _has_scalable(op: Any) -> bool:
    return any(_scalable_type(v.type) for v in op.operands) or any(_scalable_type(r.type) for r in op.results)


def vpredicate(name: str) -> Callable:
    """Register a vector predicate that is skipped for ops with scalable vector types."""

    def wrap(fn: Callable) -> Callable:
        def run(op: Any, ctx: Any) -> None:
            if not _has_scalable(op):
                fn(op, ctx)

        run.__doc__ = fn.__doc__
        predicate(name)(run)
        return fn

    return wrap


@predicate("vector_no_scalable")
def no_scalable(op: Any, ctx: Any) -> None:
    """Reject scalable vector types (``vector<[4]xf32>``): xesim models fixed-width Xe vectors only."""
    for v in list(op.operands) + list(op.results):
        if _scalable_type(v.type):
            ctx.error(op, f"scalable vectors are not supported by xesim (found {q(v.type)})")
            return


def _ints(op: Any, ctx: Any, name: str, what: str = "64-bit integer array attribute") -> list[int] | None:
    try:
        vals = A.int_list(op.attributes.get(name))
    except TypeError:
        vals = None
    if vals is None:
        ctx.error(op, f"attribute '{name}' failed to satisfy constraint: {what}")
    return vals


def combining_kind(op: Any, ctx: Any, name: str = "kind") -> str | None:
    from xesim.ir.formatengine import enum_cases

    a = op.attributes.get(name)
    if a is None:
        return "add"
    cases = enum_cases(ctx.registry.enums["CombiningKind"], a)
    if cases is None:
        ctx.error(op, f"attribute '{name}' failed to satisfy constraint: Kind of combining function for contractions "
                      "and reductions")
        return None
    return cases[0]


def supported_kind(kind: str, et: T.Type) -> bool:
    """MLIR isSupportedCombiningKind."""
    if kind in ("add", "mul"):
        return isinstance(et, (T.IntegerType, T.IndexType, T.FloatType))
    if kind in ("minui", "minsi", "maxui", "maxsi", "and", "or", "xor"):
        return isinstance(et, (T.IntegerType, T.IndexType))
    return isinstance(et, T.FloatType)


def _bits(t: T.Type) -> int:
    try:
        return T.bit_width(t)
    except TypeError:
        return 0


# ------------------------------------------------------------------------------------------ memory


def _last_dim_unit_stride(t: T.MemRefType) -> bool:
    so = rules_memref.strides_and_offset(t)
    return so is not None and (not so[0] or so[0][-1] == 1)


def _load_store(op: Any, ctx: Any, vec: T.VectorType, what: str) -> None:
    mt = op.operand("base").type
    if not (vec.rank == 0 or vec.num_elements == 1) and not _last_dim_unit_stride(mt):
        ctx.error(op, "most minor memref dim must have unit stride")
        return
    met = mt.element_type
    if isinstance(met, T.VectorType):
        if met != vec:
            ctx.error(op, f"base memref and {what} vector types should match")
            return
        met = met.element_type
    if vec.element_type != met:
        ctx.error(op, "base and result element types should match" if what == "result"
                  else "base and valueToStore element type should match")
        return
    if len(op.operand_group("indices")) != mt.rank:
        ctx.error(op, f"requires {mt.rank} indices")


@vpredicate("vector_load")
def load(op: Any, ctx: Any) -> None:
    """vector.load (MLIR LoadOp::verify)."""
    _load_store(op, ctx, op.results[0].type, "result")


@vpredicate("vector_store")
def store(op: Any, ctx: Any) -> None:
    """vector.store (MLIR StoreOp::verify)."""
    _load_store(op, ctx, op.operand("valueToStore").type, "valueToStore")


# ------------------------------------------------------------------------------------------ broadcast / positions


@vpredicate("vector_broadcast")
def broadcast(op: Any, ctx: Any) -> None:
    """vector.broadcast (MLIR BroadcastOp::verify / isBroadcastableTo)."""
    src = op.operands[0].type
    dst = op.results[0].type
    if T.element_type_of(src) != dst.element_type:
        ctx.error(op, "failed to verify that source operand and result have same element type")
        return
    if not isinstance(src, T.VectorType):
        if T.is_scalar(src):
            return
        ctx.error(op, "source type is not a vector")
        return
    if src.rank > dst.rank:
        ctx.error(op, "source rank higher than destination rank")
        return
    lead = dst.rank - src.rank
    for i, s in enumerate(src.shape):
        d = dst.shape[lead + i]
        if s != 1 and s != d:
            ctx.error(op, f"dimension mismatch ({s} vs. {d})")
            return


def _positions(op: Any, ctx: Any) -> list[int] | None:
    static = _ints(op, ctx, "static_position", "i64 dense array attribute")
    if static is None:
        return None
    n_dyn = sum(1 for s in static if s == DYNAMIC_INDEX)
    if n_dyn != len(op.operand_group("dynamic_position")):
        ctx.error(op, "mismatch between dynamic and static positions")
        return None
    return static


def _check_static_positions(op: Any, ctx: Any, pos: list[int], vt: T.VectorType, what: str) -> bool:
    for i, p in enumerate(pos):
        if p == DYNAMIC_INDEX:
            continue
        if not (p == POISON or 0 <= p < vt.shape[i]):
            ctx.error(op, f"expected position attribute #{i + 1} to be a non-negative integer smaller than the "
                          f"corresponding {what} or poison (-1)")
            return False
    return True


@vpredicate("vector_extract")
def extract(op: Any, ctx: Any) -> None:
    """vector.extract (MLIR ExtractOp::verify and inferReturnTypes): positions index the leading dims; the
    result is the element (all dims indexed) or the trailing sub-vector (a 1-element vector may stand for the
    scalar)."""
    res = op.results[0].type
    vt = op.operand("vector").type
    if isinstance(res, T.VectorType) and res.rank == 0:
        ctx.error(op, "expected a scalar instead of a 0-d vector as the result type")
        return
    pos = _positions(op, ctx)
    if pos is None:
        return
    if len(pos) > vt.rank:
        ctx.error(op, "expected position attribute of rank no greater than vector rank")
        return
    if not _check_static_positions(op, ctx, pos, vt, "vector dimension"):
        return
    inferred = vt.element_type if len(pos) == vt.rank else T.VectorType(vt.shape[len(pos):], vt.element_type)

    def one_elem(a: T.Type, b: T.Type) -> bool:
        return isinstance(a, T.VectorType) and a.shape == (1,) and a.element_type == b

    if inferred != res and not one_elem(inferred, res) and not one_elem(res, inferred):
        ctx.error(op, f"inferred type(s) {q(inferred)} are incompatible with return type(s) of operation {q(res)}")


@vpredicate("vector_insert")
def insert(op: Any, ctx: Any) -> None:
    """vector.insert (MLIR InsertOp::verify): position rank + source rank = dest rank; the source matches the
    element type and the trailing dims of the dest."""
    src = op.operand("valueToStore").type
    dest = op.operand("dest").type
    if isinstance(src, T.VectorType) and src.rank == 0:
        ctx.error(op, "expected a scalar instead of a 0-d vector as the source operand")
        return
    pos = _positions(op, ctx)
    if pos is None:
        return
    if len(pos) > dest.rank:
        ctx.error(op, "expected position attribute of rank no greater than dest vector rank")
        return
    if isinstance(src, T.VectorType) and src.rank + len(pos) != dest.rank:
        ctx.error(op, "expected position attribute rank + source rank to match dest vector rank")
        return
    if not isinstance(src, T.VectorType) and len(pos) != dest.rank:
        ctx.error(op, "expected position attribute rank to match the dest vector rank")
        return
    if not _check_static_positions(op, ctx, pos, dest, "dest vector dimension"):
        return
    if T.element_type_of(src) != dest.element_type:
        ctx.error(op, "failed to verify that source operand and result have same element type")
        return
    if isinstance(src, T.VectorType) and src.shape != dest.shape[len(pos):]:
        ctx.error(op, f"expected source type {q(src)} to match the trailing dimensions of the dest vector type "
                      f"{q(dest)}")


def _confined(op: Any, ctx: Any, vals: list[int], shape: tuple[int, ...], name: str, lo: int = 0,
              half_open: bool = True) -> bool:
    """MLIR isIntegerArrayAttrConfinedToShape (the message always shows the half-open range)."""
    for i, (v, d) in enumerate(zip(vals, shape, strict=False)):
        hi = d if half_open else d + 1
        if v < lo or v >= hi:
            ctx.error(op, f"expected {name} dimension {i} to be confined to [{lo}, {hi})")
            return False
    return True


def _unit_strides(op: Any, ctx: Any, strides: list[int], name: str = "strides") -> bool:
    """MLIR isIntegerArrayAttrConfinedToRange(strides, 1, 1, halfOpen=false)."""
    for v in strides:
        if v != 1:
            ctx.error(op, f"expected {name} to be confined to [1, 2)")
            return False
    return True


def _sum_confined(op: Any, ctx: Any, a: list[int], b: list[int], shape: tuple[int, ...], na: str, nb: str) -> bool:
    """MLIR isSumOfIntegerArrayAttrConfinedToShape (halfOpen = false: 0 <= a + b <= dim)."""
    for i, (x, y, d) in enumerate(zip(a, b, shape, strict=False)):
        if x + y < 0 or x + y >= d + 1:
            ctx.error(op, f"expected sum({na}, {nb}) dimension {i} to be confined to [1, {d + 1})")
            return False
    return True


@vpredicate("vector_extract_strided_slice")
def extract_strided_slice(op: Any, ctx: Any) -> None:
    """vector.extract_strided_slice (MLIR ExtractStridedSliceOp::verify)."""
    vt = op.operand("vector").type
    offsets, sizes, strides = (_ints(op, ctx, n) for n in ("offsets", "sizes", "strides"))
    if offsets is None or sizes is None or strides is None:
        return
    if not (len(offsets) == len(sizes) == len(strides)):
        ctx.error(op, "expected offsets, sizes and strides attributes of same size")
        return
    for vals, name in ((offsets, "offsets"), (sizes, "sizes"), (strides, "strides")):
        if len(vals) > vt.rank:
            ctx.error(op, f"expected {name} attribute of rank no greater than vector rank")
            return
    if not (_confined(op, ctx, offsets, vt.shape, "offsets")
            and _confined(op, ctx, sizes, vt.shape, "sizes", lo=1, half_open=False)
            and _unit_strides(op, ctx, strides)
            and _sum_confined(op, ctx, offsets, sizes, vt.shape, "offsets", "sizes")):
        return
    expected = T.VectorType(tuple(sizes) + vt.shape[len(sizes):], vt.element_type)
    if op.results[0].type != expected:
        ctx.error(op, f"expected result type to be {q(expected)}")


@vpredicate("vector_insert_strided_slice")
def insert_strided_slice(op: Any, ctx: Any) -> None:
    """vector.insert_strided_slice (MLIR InsertStridedSliceOp::verify)."""
    src = op.operand("valueToStore").type
    dest = op.operand("dest").type
    offsets, strides = _ints(op, ctx, "offsets"), _ints(op, ctx, "strides")
    if offsets is None or strides is None:
        return
    if len(offsets) != dest.rank:
        ctx.error(op, "expected offsets of same size as destination vector rank")
        return
    if len(strides) != src.rank:
        ctx.error(op, "expected strides of same size as source vector rank")
        return
    if src.rank > dest.rank:
        ctx.error(op, "expected source rank to be no greater than destination rank")
        return
    as_dest = [0] * (dest.rank - src.rank) + list(src.shape)
    if not (_confined(op, ctx, offsets, dest.shape, "offsets")
            and _unit_strides(op, ctx, strides)
            and _sum_confined(op, ctx, offsets, as_dest, dest.shape, "offsets", "source vector shape")):
        return
    if src.element_type != dest.element_type:
        ctx.error(op, "failed to verify that all of {valueToStore, dest} have same element type")


@vpredicate("vector_shuffle")
def shuffle(op: Any, ctx: Any) -> None:
    """vector.shuffle (MLIR ShuffleOp::verify): same trailing dims, mask length = result leading dim, mask
    entries index the concatenated leading dims (or -1)."""
    v1, v2 = op.operand("v1").type, op.operand("v2").type
    res = op.results[0].type
    if not (v1.element_type == v2.element_type == res.element_type):
        ctx.error(op, "failed to verify that all of {v1, v2, result} have same element type")
        return
    ok0 = v1.rank == 0 and v2.rank == 0 and res.rank == 1
    okn = v1.rank == res.rank and v2.rank == res.rank
    if not (ok0 or okn):
        ctx.error(op, "rank mismatch")
        return
    for r in range(1, v1.rank):
        if not (res.shape[r] == v1.shape[r] == v2.shape[r]):
            ctx.error(op, "dimension mismatch")
            return
    mask = _ints(op, ctx, "mask", "i64 dense array attribute")
    if mask is None:
        return
    if len(mask) <= 0:
        ctx.error(op, "invalid mask length")
        return
    if len(mask) != res.shape[0]:
        ctx.error(op, "mask length mismatch")
        return
    size = (v1.shape[0] if v1.rank else 1) + (v2.shape[0] if v2.rank else 1)
    for i, m in enumerate(mask):
        if not (m == POISON or 0 <= m < size):
            ctx.error(op, f"mask index #{i + 1} out of range")
            return


# ------------------------------------------------------------------------------------------ shape ops


@vpredicate("vector_shape_cast")
def shape_cast(op: Any, ctx: Any) -> None:
    """vector.shape_cast (MLIR ShapeCastOp::verify)."""
    s, r = op.operands[0].type, op.results[0].type
    if s.element_type != r.element_type:
        ctx.error(op, "has different source and result element types")
    elif s.num_elements != r.num_elements:
        ctx.error(op, f"has different number of elements at source ({s.num_elements}) and result ({r.num_elements})")


@vpredicate("vector_transpose")
def transpose(op: Any, ctx: Any) -> None:
    """vector.transpose (MLIR TransposeOp::verify): result dim i = source dim permutation[i]."""
    s, r = op.operands[0].type, op.results[0].type
    if s.element_type != r.element_type:
        ctx.error(op, "failed to verify that all of {vector, result} have same element type")
        return
    if s.rank != r.rank:
        ctx.error(op, f"vector result rank mismatch: {r.rank}")
        return
    perm = _ints(op, ctx, "permutation", "i64 dense array attribute")
    if perm is None:
        return
    if len(perm) != r.rank:
        ctx.error(op, f"transposition length mismatch: {len(perm)}")
        return
    seen = [False] * r.rank
    for i, p in enumerate(perm):
        if p < 0 or p >= r.rank:
            ctx.error(op, f"transposition index out of range: {p}")
            return
        if seen[p]:
            ctx.error(op, f"duplicate position index: {p}")
            return
        seen[p] = True
        if r.shape[i] != s.shape[p]:
            ctx.error(op, f"dimension size mismatch at: {p}")
            return


@vpredicate("vector_bitcast")
def bitcast(op: Any, ctx: Any) -> None:
    """vector.bitcast (MLIR BitCastOp::verify): same rank and leading dims, same bit width of the minor dim."""
    s, r = op.operands[0].type, op.results[0].type
    if s.rank != r.rank:
        ctx.error(op, "failed to verify that all of {source, result} have same rank")
        return
    for i in range(s.rank - 1):
        if s.shape[i] != r.shape[i]:
            ctx.error(op, f"dimension size mismatch at: {i}")
            return
    sb, rb = _bits(s.element_type), _bits(r.element_type)
    if s.rank == 0:
        if sb != rb:
            ctx.error(op, "source/result bitwidth of the 0-D vector element types must be equal")
    elif sb * s.shape[-1] != rb * r.shape[-1]:
        ctx.error(op, "source/result bitwidth of the minor 1-D vectors must be equal")


# ------------------------------------------------------------------------------------------ reductions


@vpredicate("vector_reduction")
def reduction(op: Any, ctx: Any) -> None:
    """vector.reduction (MLIR ReductionOp::verify): 0-D/1-D source, result = element type = acc type, a kind
    supported by that type."""
    vt = op.operand("vector").type
    dest = op.results[0].type
    if vt.element_type != dest:
        ctx.error(op, "failed to verify that source operand and result have same element type")
        return
    acc = op.operand("acc")
    if acc is not None and acc.type != dest:
        ctx.error(op, "failed to verify that dest and acc have the same type")
        return
    if vt.rank > 1:
        ctx.error(op, f"unsupported reduction rank: {vt.rank}")
        return
    kind = combining_kind(op, ctx)
    if kind is not None and not supported_kind(kind, dest):
        ctx.error(op, f"unsupported reduction type {q(dest)} for kind '{kind}'")


@vpredicate("vector_multi_reduction")
def multi_reduction(op: Any, ctx: Any) -> None:
    """vector.multi_reduction (MLIR MultiDimReductionOp::verify): the result keeps the non-reduced dims (a
    scalar when all are reduced)."""
    src = op.operand("source").type
    dims = _ints(op, ctx, "reduction_dims", "i64 dense array attribute")
    if dims is None:
        return
    for d in dims:
        if d < 0 or d >= src.rank:
            ctx.error(op, f"reduction dimension {d} is out of range for a source of rank {src.rank}")
            return
    kept = tuple(s for i, s in enumerate(src.shape) if i not in dims)
    inferred = T.VectorType(kept, src.element_type) if kept else src.element_type
    if op.results[0].type != inferred:
        ctx.error(op, f"destination type {q(op.results[0].type)} is incompatible with source type {q(src)}")
        return
    kind = combining_kind(op, ctx)
    if kind is not None and not supported_kind(kind, src.element_type):
        ctx.error(op, f"unsupported reduction type {q(src.element_type)} for kind '{kind}'")


# ------------------------------------------------------------------------------------------ constants, masks, misc


@vpredicate("vector_step")
def step(op: Any, ctx: Any) -> None:
    """vector.step: the result is a 1-D vector of index."""
    t = op.results[0].type
    if t.rank != 1 or not isinstance(t.element_type, T.IndexType):
        ctx.error(op, f"result #0 must be vector of index values of ranks 1, but got {q(t)}")


@vpredicate("vector_create_mask")
def create_mask(op: Any, ctx: Any) -> None:
    """vector.create_mask (MLIR CreateMaskOp::verify): one bound per result dimension."""
    t = op.results[0].type
    n = len(op.operands)
    if t.rank == 0:
        if n != 1:
            ctx.error(op, "must specify exactly one operand for 0-D create_mask")
    elif n != t.rank:
        ctx.error(op, "must specify an operand for each result vector dimension")


@vpredicate("vector_constant_mask")
def constant_mask(op: Any, ctx: Any) -> None:
    """vector.constant_mask (MLIR ConstantMaskOp::verify)."""
    t = op.results[0].type
    sizes = _ints(op, ctx, "mask_dim_sizes", "i64 dense array attribute")
    if sizes is None:
        return
    if t.rank == 0:
        if len(sizes) != 1:
            ctx.error(op, "array attr must have length 1 for 0-D vectors")
        elif sizes[0] not in (0, 1):
            ctx.error(op, "mask dim size must be either 0 or 1 for 0-D vectors")
        return
    if len(sizes) != t.rank:
        ctx.error(op, "must specify array attr of size equal vector result rank")
        return
    for s, d in zip(sizes, t.shape, strict=True):
        if s < 0 or s > d:
            ctx.error(op, "array attr of size out of bounds of vector result dimension size")
            return
    if 0 in sizes and any(sizes):
        ctx.error(op, "expected all mask dim sizes to be zeros, as a result of conjunction with zero mask dim")


@vpredicate("vector_from_elements")
def from_elements(op: Any, ctx: Any) -> None:
    """vector.from_elements: one operand of the element type per element."""
    t = op.results[0].type
    els = op.operands
    if len(els) != t.num_elements or any(v.type != t.element_type for v in els):
        ctx.error(op, f"failed to verify that operand types match result element type ({len(els)} operands for "
                      f"{q(t)})")


@vpredicate("vector_element_position")
def element_position(op: Any, ctx: Any) -> None:
    """vector.extractelement / insertelement (MLIR verify): no position for 0-D, one for 1-D, rank <= 1."""
    vt = op.operand("vector").type if op.name == "vector.extractelement" else op.operand("dest").type
    pos = op.operand("position")
    if vt.rank == 0:
        if pos is not None:
            ctx.error(op, "expected position to be empty with 0-D vector")
    elif vt.rank != 1:
        ctx.error(op, "unexpected >1 vector rank")
    elif pos is None:
        ctx.error(op, "expected position for 1-D vector")


# ------------------------------------------------------------------------------------------ transfers


_PROJECTED = ("requires a projected permutation_map (at most one dim or the zero constant can appear in each "
              "result)")


def _verify_transfer(op: Any, ctx: Any, shaped: T.MemRefType, vec: T.VectorType) -> AF.AffineMap | None:
    """MLIR verifyTransferOp + verifyPermutationMap; returns the map when everything holds."""
    if "masked" in op.attributes:
        ctx.error(op, "masked attribute has been removed. Use in_bounds instead.")
        return None
    pa = op.attributes.get("permutation_map")
    if not isinstance(pa, A.AffineMapAttr):
        return None
    pmap = pa.map
    et = shaped.element_type
    if isinstance(et, T.VectorType):
        if _bits(vec.element_type) * (vec.shape[-1] if vec.rank else 1) % (
                _bits(et.element_type) * (et.shape[-1] if et.rank else 1) or 1):
            ctx.error(op, "requires the bitwidth of the minor 1-D vector to be an integral multiple of the bitwidth "
                          "of the minor 1-D vector of the source")
            return None
        if et.rank > vec.rank:
            ctx.error(op, "requires source vector element and vector result ranks to match.")
            return None
        if len(pmap.results) != vec.rank - et.rank:
            ctx.error(op, "requires a permutation_map with result dims of the same rank as the vector type")
            return None
    else:
        minor = vec.shape[-1] if vec.rank else 1
        eb = _bits(et)
        if eb and (_bits(vec.element_type) * minor) % eb:
            ctx.error(op, "requires the bitwidth of the minor 1-D vector to be an integral multiple of the bitwidth "
                          "of the source element type")
            return None
        if len(pmap.results) != vec.rank:
            ctx.error(op, "requires a permutation_map with result dims of the same rank as the vector type")
            return None
    if pmap.num_syms:
        ctx.error(op, "requires permutation_map without symbols")
        return None
    if pmap.num_dims != shaped.rank:
        ctx.error(op, "requires a permutation_map with input dims of the same rank as the source type")
        return None
    mask = op.operand("mask")
    if mask is not None and not isinstance(et, T.VectorType):
        inferred = transfer_mask_type(vec, pmap)
        if mask.type != inferred:
            ctx.error(op, f"inferred mask type ({q(inferred)}) and mask operand type ({q(mask.type)}) don't match")
            return None
    inb = op.attributes.get("in_bounds")
    flags = inb.elements if isinstance(inb, A.ArrayAttr) else ()
    if not isinstance(inb, A.ArrayAttr) or not all(isinstance(f, A.IntegerAttr) for f in flags):
        ctx.error(op, "attribute 'in_bounds' failed to satisfy constraint: 1-bit boolean array attribute")
        return None
    if len(pmap.results) != len(flags):
        ctx.error(op, f"expects the in_bounds attr of same rank as permutation_map results: {pa} vs inBounds of "
                      f"size: {len(flags)}")
        return None
    for r, f in zip(pmap.results, flags, strict=True):
        if isinstance(r, AF.Const) and not f.value:
            ctx.error(op, "requires broadcast dimensions to be in-bounds")
            return None
    seen = [False] * pmap.num_dims
    for r in pmap.results:
        if isinstance(r, AF.Const):
            if r.value != 0:
                ctx.error(op, _PROJECTED)
                return None
            continue
        if not isinstance(r, AF.Dim):
            ctx.error(op, _PROJECTED)
            return None
        if seen[r.index]:
            ctx.error(op, "requires a permutation_map that is a permutation (found one dim used more than once)")
            return None
        seen[r.index] = True
    return pmap


@vpredicate("vector_transfer_read")
def transfer_read(op: Any, ctx: Any) -> None:
    """vector.transfer_read (MLIR TransferReadOp::verify)."""
    shaped = op.operand("base").type
    vec = op.results[0].type
    if len(op.operand_group("indices")) != shaped.rank:
        ctx.error(op, f"requires {shaped.rank} indices")
        return
    if _verify_transfer(op, ctx, shaped, vec) is None:
        return
    pad = op.operand("padding").type
    et = shaped.element_type
    if isinstance(et, T.VectorType):
        if pad != et:
            ctx.error(op, "requires source element type and padding type to match.")
    elif not T.is_scalar(pad):
        ctx.error(op, "requires valid padding vector elemental type")
    elif pad != et:
        ctx.error(op, "requires formal padding and source of the same elemental type")


@vpredicate("vector_transfer_write")
def transfer_write(op: Any, ctx: Any) -> None:
    """vector.transfer_write (MLIR TransferWriteOp::verify): no broadcast dims."""
    shaped = op.operand("base").type
    vec = op.operand("valueToStore").type
    if len(op.operand_group("indices")) != shaped.rank:
        ctx.error(op, f"requires {shaped.rank} indices")
        return
    pa = op.attributes.get("permutation_map")
    if isinstance(pa, A.AffineMapAttr) and any(isinstance(r, AF.Const) for r in pa.map.results):
        ctx.error(op, "should not have broadcast dimensions")
        return
    _verify_transfer(op, ctx, shaped, vec)


# ------------------------------------------------------------------------------------------ contract


@vpredicate("vector_contract")
def contract(op: Any, ctx: Any) -> None:
    """vector.contract (MLIR ContractionOp::verify): three projected-permutation maps over the iteration
    space, at least one contracting (reduction) dim shared by lhs and rhs with equal sizes, batch dims of
    equal sizes, and an accumulator/result shape given by the acc map over the free and batch dims."""
    maps_attr = op.attributes.get("indexing_maps")
    iters_attr = op.attributes.get("iterator_types")
    if not isinstance(maps_attr, A.ArrayAttr) or not all(isinstance(m, A.AffineMapAttr) for m in maps_attr.elements):
        ctx.error(op, "attribute 'indexing_maps' failed to satisfy constraint: AffineMap array attribute")
        return
    if not isinstance(iters_attr, A.ArrayAttr):
        ctx.error(op, "attribute 'iterator_types' failed to satisfy constraint: Iterator type should be an enum.")
        return
    iters = [iterator_type_name(e) for e in iters_attr.elements]
    if any(i is None for i in iters):
        ctx.error(op, "attribute 'iterator_types' failed to satisfy constraint: Iterator type should be an enum.")
        return
    maps = [m.map for m in maps_attr.elements]
    if len(maps) != 3:
        ctx.error(op, "expected an indexing map for each vector operand")
        return
    lhs, rhs = op.operand("lhs").type, op.operand("rhs").type
    acc, res = op.operand("acc").type, op.results[0].type
    if acc != res:
        ctx.error(op, "failed to verify that acc and result have same type")
        return
    n_iter = len(iters)
    for i, (m, t) in enumerate(zip(maps, (lhs, rhs, acc), strict=True)):
        rank = t.rank if isinstance(t, T.VectorType) else 0
        if m.num_syms:
            ctx.error(op, f"expected indexing map {i} to have no symbols")
            return
        if m.num_dims != n_iter:
            ctx.error(op, f"expected indexing map {i} to have {n_iter} number of inputs")
            return
        if len(m.results) != rank:
            ctx.error(op, f"expected indexing map {i} to have {rank} number of outputs")
            return
        dims = [r.index for r in m.results if isinstance(r, AF.Dim)]
        if len(dims) != len(m.results) or len(set(dims)) != len(dims):
            ctx.error(op, f"expected indexing map {i} to be a projected permutation of its inputs")
            return
    lhs_dims = [r.index for r in maps[0].results]
    rhs_dims = [r.index for r in maps[1].results]
    shared = [d for d in lhs_dims if d in rhs_dims]
    contracting = [d for d in shared if iters[d] == "reduction"]
    batch = [d for d in shared if iters[d] == "parallel"]
    if not contracting:
        ctx.error(op, "expected at least one contracting dimension pair")
        return
    for group, what in ((contracting, "contracting"), (batch, "batch")):
        for d in group:
            if lhs.shape[lhs_dims.index(d)] != rhs.shape[rhs_dims.index(d)]:
                ctx.error(op, f"invalid {what} dimension map")
                return
    extent: dict[int, int] = {}
    for dims, t in ((lhs_dims, lhs), (rhs_dims, rhs)):
        for pos, d in enumerate(dims):
            extent.setdefault(d, t.shape[pos])
    free_or_batch = [d for d in range(n_iter) if d in extent and d not in contracting]
    acc_dims = [r.index for r in maps[2].results]
    if not free_or_batch:
        if isinstance(res, T.VectorType):
            ctx.error(op, "invalid accumulator/result vector shape")
            return
    else:
        if not isinstance(res, T.VectorType):
            ctx.error(op, "invalid accumulator/result vector shape")
            return
        if any(d not in extent for d in acc_dims):
            ctx.error(op, "expected all dimensions to get an extent as either a LHS or RHS dimension")
            return
        expected = T.VectorType(tuple(extent[d] for d in acc_dims), res.element_type)
        if res.shape != expected.shape:
            ctx.error(op, f"invalid accumulator/result vector shape, expected: {q(expected)}")
            return
    kind = combining_kind(op, ctx)
    if kind is not None and not supported_kind(kind, T.element_type_of(res)):
        ctx.error(op, "unsupported contraction type")
