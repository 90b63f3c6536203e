"""Verifier predicates of the memref dialect, following MLIR's ``MemRefOps.cpp`` (``verify()`` of each op,
``CastOp::areCastCompatible``, ``verifyAllocLikeOp``, ``verifyCollapsedShape``,
``computeCollapsedLayoutMap`` / ``computeExpandedLayoutMap``, ``SubViewOp::inferResultType`` and the
``OffsetSizeAndStrideOpInterface`` checks) with MLIR's wording.  Types in messages are quoted as MLIR's
diagnostics quote them.

The layout helpers (:func:`strides_and_offset`, :func:`canonical_strides`) implement MLIR's
``getStridesAndOffset``: an identity layout has row-major strides (dynamic to the left of a dynamic
dimension), a ``strided<>`` layout its own strides and offset, a linear ``affine_map`` layout the
coefficients of its single result (a symbol term is dynamic).  Dynamic strides/offsets/sizes are
``types.DYNAMIC``; entries of static index lists use MLIR's ``kDynamic`` (``DYNAMIC_INDEX``).
"""

from __future__ import annotations

import itertools
from typing import Any

from xesim.ir import affine as AF  # noqa: N812 - the codebase-wide alias
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.directives.common import DYNAMIC_INDEX
from xesim.verify.predicates import predicate

DYN = T.DYNAMIC


# ------------------------------------------------------------------------------------------ helpers


def q(t: Any) -> str:
    """A type quoted as in MLIR diagnostics."""
    return f"'{t}'"


def memory_space(t: T.Type) -> A.Attribute | None:
    """The memory space of a memref type, with MLIR's default space (integer 0) normalized to None."""
    ms = getattr(t, "memory_space", None)
    if isinstance(ms, A.IntegerAttr) and ms.value == 0:
        return None
    return ms


def static_list(op: Any, name: str) -> list[int]:
    """A static index list attribute with kDynamic entries mapped to ``types.DYNAMIC``."""
    vals = A.int_list(op.attributes.get(name)) or []
    return [DYN if v == DYNAMIC_INDEX else v for v in vals]


def raw_static_list(op: Any, name: str) -> list[int] | None:
    try:
        return A.int_list(op.attributes.get(name))
    except TypeError:
        return None


def canonical_strides(shape: tuple[int, ...] | list[int]) -> list[int]:
    """Row-major strides of an identity layout; dynamic left of (and including the stride over) a `?` dim."""
    strides = [1] * len(shape)
    running = 1
    for i in range(len(shape) - 1, -1, -1):
        strides[i] = running
        if running != DYN:
            running = DYN if shape[i] == DYN else running * shape[i]
    return strides


def _linear(e: AF.AffineExpr, n_dims: int) -> tuple[list[int], int] | None:
    """Coefficients of each dim and the constant term of a linear affine expression (DYN when a symbol
    multiplies in); None when the expression is not linear."""
    if isinstance(e, AF.Dim):
        c = [0] * n_dims
        c[e.index] = 1
        return c, 0
    if isinstance(e, AF.Const):
        return [0] * n_dims, e.value
    if isinstance(e, AF.Sym):
        return [0] * n_dims, DYN
    if isinstance(e, AF.BinOp):
        if e.op in ("+", "-"):
            a = _linear(e.lhs, n_dims)
            b = _linear(e.rhs, n_dims)
            if a is None or b is None:
                return None
            sign = 1 if e.op == "+" else -1

            def add(x: int, y: int) -> int:
                return DYN if DYN in (x, y) else x + sign * y

            return [add(x, y) for x, y in zip(a[0], b[0], strict=True)], add(a[1], b[1])
        if e.op == "*":
            for lhs, rhs in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
                if isinstance(rhs, (AF.Const, AF.Sym)):
                    a = _linear(lhs, n_dims)
                    if a is None:
                        return None
                    k = rhs.value if isinstance(rhs, AF.Const) else DYN
                    return [_scale(x, k) for x in a[0]], _scale(a[1], k)
    return None


def _scale(x: int, k: int) -> int:
    if x == 0:
        return 0
    return DYN if DYN in (x, k) else x * k


def strides_and_offset(t: T.Type) -> tuple[list[int], int] | None:
    """MLIR getStridesAndOffset: (strides, offset) of a ranked memref, None if its layout is not strided."""
    if not isinstance(t, T.MemRefType):
        return None
    lay = t.layout
    if lay is None:
        return canonical_strides(t.shape), 0
    if isinstance(lay, A.StridedLayoutAttr):
        if len(lay.strides) != t.rank:
            return None
        return list(lay.strides), lay.offset
    if isinstance(lay, A.AffineMapAttr):
        m = lay.map
        if m.num_dims != t.rank or len(m.results) != 1:
            return None
        lin = _linear(m.results[0], m.num_dims)
        if lin is None:
            return None
        return lin[0], lin[1]
    return None


def is_identity_layout(t: T.MemRefType) -> bool:
    return t.layout is None or (isinstance(t.layout, A.AffineMapAttr) and t.layout.map.is_identity)


def _sat_mul(a: int, b: int) -> int:
    return DYN if DYN in (a, b) else a * b


def layout_symbol_count(t: T.MemRefType) -> int:
    """Number of symbols of the layout's affine map (a strided layout's dynamic offset and strides)."""
    lay = t.layout
    if lay is None:
        return 0
    if isinstance(lay, A.AffineMapAttr):
        return lay.map.num_syms
    if isinstance(lay, A.StridedLayoutAttr):
        return int(lay.offset == DYN) + sum(1 for s in lay.strides if s == DYN)
    return 0


def reassociation(op: Any, ctx: Any) -> list[list[int]] | None:
    """The ``reassociation`` attribute as lists of ints (reports a constraint error otherwise)."""
    a = op.attributes.get("reassociation")
    groups: list[list[int]] = []
    ok = isinstance(a, A.ArrayAttr)
    if ok:
        for g in a.elements:
            if not isinstance(g, A.ArrayAttr) or not all(isinstance(x, A.IntegerAttr) for x in g.elements):
                ok = False
                break
            groups.append([x.value for x in g.elements])
    if not ok:
        ctx.error(op, "attribute 'reassociation' failed to satisfy constraint: Array of 64-bit integer array "
                      "attributes")
        return None
    return groups


def compute_rank_reduction_masks(original: list[int], reduced: list[int]) -> list[set[int]]:
    """Every set of unit dimensions of ``original`` whose removal gives ``reduced`` (MLIR
    computeRankReductionMask, enumerating the ambiguous choices between unit dims)."""
    drop = len(original) - len(reduced)
    if drop < 0:
        return []
    masks = []
    ones = [i for i, d in enumerate(original) if d == 1]
    for combo in itertools.combinations(ones, drop):
        kept = [d for i, d in enumerate(original) if i not in combo]
        if kept == list(reduced):
            masks.append(set(combo))
    return masks


# ------------------------------------------------------------------------------------------ alloc / load / store


@predicate("memref_alloc_like")
def alloc_like(op: Any, ctx: Any) -> None:
    """memref.alloc / alloca (MLIR verifyAllocLikeOp): one size per `?` dim, one symbol per layout symbol,
    a power-of-two alignment."""
    t = op.results[0].type
    if not isinstance(t, T.MemRefType):
        return
    n_dyn = sum(1 for d in t.shape if d == DYN)
    sizes = op.operand_group("dynamicSizes")
    if len(sizes) != n_dyn:
        ctx.error(op, "dimension operand count does not equal memref dynamic dimension count")
        return
    n_sym = layout_symbol_count(t)
    syms = op.operand_group("symbolOperands")
    if len(syms) != n_sym:
        ctx.error(op, f"symbol operand count does not equal memref symbol count: expected {n_sym}, got {len(syms)}")
        return
    _check_alignment(op, ctx)


def _check_alignment(op: Any, ctx: Any) -> None:
    a = op.attributes.get("alignment")
    if isinstance(a, A.IntegerAttr) and (a.value <= 0 or a.value & (a.value - 1)):
        ctx.error(op, "attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute "
                      "whose value is positive and whose value is a power of two > 0")


@predicate("memref_load")
def load(op: Any, ctx: Any) -> None:
    """memref.load: one index per dimension (MLIR LoadOp::verify)."""
    t = op.operand("memref").type
    n = len(op.operand_group("indices"))
    if n != t.rank:
        ctx.error(op, f"incorrect number of indices for load, expected {t.rank} but got {n}")
    elif op.results[0].type != t.element_type:
        ctx.error(op, "result type must match element type of memref")
    _check_alignment(op, ctx)


@predicate("memref_store")
def store(op: Any, ctx: Any) -> None:
    """memref.store: one index per dimension (MLIR StoreOp::verify); the value has the element type."""
    t = op.operand("memref").type
    if len(op.operand_group("indices")) != t.rank:
        ctx.error(op, "store index operand count not equal to memref rank")
    elif op.operand("value").type != t.element_type:
        ctx.error(op, "failed to verify that type of 'value' matches element type of 'memref'")
    _check_alignment(op, ctx)


# ------------------------------------------------------------------------------------------ casts


def cast_compatible(a: T.Type, b: T.Type) -> bool:
    """MLIR memref::CastOp::areCastCompatible."""
    if isinstance(a, T.MemRefType) and isinstance(b, T.MemRefType):
        if a.element_type != b.element_type:
            return False
        if a.layout != b.layout:
            sa, sb = strides_and_offset(a), strides_and_offset(b)
            if sa is None or sb is None or len(sa[0]) != len(sb[0]):
                return False

            def ok(x: int, y: int) -> bool:
                return x == DYN or y == DYN or x == y

            if not ok(sa[1], sb[1]) or not all(ok(x, y) for x, y in zip(sa[0], sb[0], strict=True)):
                return False
        if memory_space(a) != memory_space(b):
            return False
        if a.rank != b.rank:
            return False
        return all(x == DYN or y == DYN or x == y for x, y in zip(a.shape, b.shape, strict=True))
    if isinstance(a, T.UnrankedMemRefType) and isinstance(b, T.UnrankedMemRefType):
        return False  # unranked to unranked casting is unsupported
    memrefs = (T.MemRefType, T.UnrankedMemRefType)
    if not isinstance(a, memrefs) or not isinstance(b, memrefs):
        return False
    return a.element_type == b.element_type and memory_space(a) == memory_space(b)


def _cast_error(op: Any, ctx: Any) -> None:
    a, b = op.operands[0].type, op.results[0].type
    ctx.error(op, f"operand type {q(a)} and result type {q(b)} are cast incompatible")


@predicate("memref_cast")
def cast(op: Any, ctx: Any) -> None:
    """memref.cast: static/dynamic dims and strides may be exchanged, ranked <-> unranked (not both unranked)."""
    if not cast_compatible(op.operands[0].type, op.results[0].type):
        _cast_error(op, ctx)


@predicate("memref_memory_space_cast")
def memory_space_cast(op: Any, ctx: Any) -> None:
    """memref.memory_space_cast: only the memory space may change (MLIR MemorySpaceCastOp::areCastCompatible)."""
    a, b = op.operands[0].type, op.results[0].type
    if isinstance(a, T.MemRefType) and isinstance(b, T.MemRefType):
        ok = a.element_type == b.element_type and a.layout == b.layout and a.shape == b.shape
    elif isinstance(a, T.UnrankedMemRefType) and isinstance(b, T.UnrankedMemRefType):
        ok = a.element_type == b.element_type
    else:
        ok = False
    if not ok:
        _cast_error(op, ctx)


# ------------------------------------------------------------------------------------------ offsets / sizes / strides


def _verify_offset_size_stride(op: Any, ctx: Any, max_ranks: tuple[int, int, int]) -> bool:
    """MLIR verifyOffsetSizeAndStrideOp + verifyListOfOperandsOrIntegers."""
    lists = {}
    for name in ("offsets", "sizes", "strides"):
        vals = raw_static_list(op, f"static_{name}")
        if vals is None:
            ctx.error(op, f"attribute 'static_{name}' failed to satisfy constraint: i64 dense array attribute")
            return False
        lists[name] = vals
    no, ns, nt = len(lists["offsets"]), len(lists["sizes"]), len(lists["strides"])
    if not (no == 1 and max_ranks[0] == 1) and no != ns:
        ctx.error(op, f"expected mixed offsets rank to match mixed sizes rank ({no} vs {ns}) so the rank of the "
                      "result type is well-formed.")
        return False
    if ns != nt:
        ctx.error(op, f"expected mixed sizes rank to match mixed strides rank ({ns} vs {nt}) so the rank of the "
                      "result type is well-formed.")
        return False
    names = (("offsets", "offset"), ("sizes", "size"), ("strides", "stride"))
    for (name, single), rank in zip(names, max_ranks, strict=True):
        vals = lists[name]
        if len(vals) != rank:
            ctx.error(op, f"expected {rank} {single} values, got {len(vals)}")
            return False
        n_dyn = sum(1 for v in vals if v == DYNAMIC_INDEX)
        if len(op.operand_group(name)) != n_dyn:
            ctx.error(op, f"expected {n_dyn} dynamic {single} values")
            return False
    for s in lists["sizes"]:
        if s < 0 and s != DYNAMIC_INDEX:
            ctx.error(op, f"expected sizes to be non-negative, but got {s}")
            return False
    return True


def subview_result_type(src: T.MemRefType, offsets: list[int], sizes: list[int],
                        strides: list[int]) -> T.MemRefType | None:
    """MLIR SubViewOp::inferResultType (strided layout; DYN for anything not known statically)."""
    so = strides_and_offset(src)
    if so is None:
        return None
    src_strides, src_offset = so
    offset = src_offset
    for off, st in zip(offsets, src_strides, strict=True):
        offset = DYN if DYN in (offset, off, st) else offset + off * st
    new_strides = [_sat_mul(a, b) for a, b in zip(strides, src_strides, strict=True)]
    layout = A.StridedLayoutAttr(tuple(new_strides), offset)
    return T.MemRefType(tuple(sizes), src.element_type, layout, src.memory_space)


def _slice_mismatch(expected: T.MemRefType, cand: T.MemRefType) -> str | None:
    """MLIR isRankReducedMemRefType: None when ``cand`` is ``expected`` or a rank-reduced version of it,
    else the kind of mismatch (rank / sizes / element / space / layout)."""
    if expected == cand:
        return None
    if cand.rank > expected.rank:
        return "rank"
    masks = compute_rank_reduction_masks(list(expected.shape), list(cand.shape))
    if not masks:
        return "sizes"
    if expected.element_type != cand.element_type:
        return "elem"
    if memory_space(expected) != memory_space(cand):
        return "space"
    se, sc = strides_and_offset(expected), strides_and_offset(cand)
    if se is None or sc is None or se[1] != sc[1]:
        return "layout"
    for mask in masks:
        kept = [s for i, s in enumerate(se[0]) if i not in mask]
        if kept == sc[0]:
            return None
    return "layout"


@predicate("memref_subview")
def subview(op: Any, ctx: Any) -> None:
    """memref.subview: offset/size/stride lists of the source rank, an in-bounds static slice, and a result
    type equal to the inferred strided type or a rank-reduced version of it (MLIR SubViewOp::verify)."""
    src = op.operand("source").type
    res = op.results[0].type
    if not _verify_offset_size_stride(op, ctx, (src.rank, src.rank, src.rank)):
        return
    if memory_space(src) != memory_space(res):
        ctx.error(op, f"different memory spaces specified for base memref type {q(src)} and subview memref type "
                      f"{q(res)}")
        return
    if strides_and_offset(src) is None:
        ctx.error(op, f"base type {q(src)} is not strided")
        return
    offsets, sizes, strides = (static_list(op, f"static_{n}") for n in ("offsets", "sizes", "strides"))
    expected = subview_result_type(src, offsets, sizes, strides)
    assert expected is not None
    kind = _slice_mismatch(expected, res)
    if kind == "rank":
        ctx.error(op, f"expected result rank to be smaller or equal to the source rank, but got {q(res)}")
        return
    if kind == "sizes":
        ctx.error(op, f"expected result type to be {q(expected)} or a rank-reduced version. (mismatch of result "
                      f"sizes), but got {q(res)}")
        return
    if kind == "elem":
        ctx.error(op, f"expected result element type to be {q(expected.element_type)}, but got {q(res)}")
        return
    if kind == "space":
        ctx.error(op, f"expected result and source memory spaces to match, but got {q(res)}")
        return
    if kind == "layout":
        msg = (f"expected result type to be {q(expected)} or a rank-reduced version. (mismatch of result layout), "
               f"but got {q(res)}")
        if ctx.settings.subview_result_layout != "operands":
            ctx.error(op, msg)
            return
        ctx.warning(op, msg + "; accepted (verify.subview_result_layout = operands): the view is the one its "
                              "operands describe")
    for i, dim in enumerate(src.shape):
        if dim == DYN or offsets[i] == DYN:
            continue
        if offsets[i] >= dim and not (sizes[i] == 0):
            ctx.error(op, f"offset {i} is out-of-bounds: {offsets[i]} >= {dim}")
            return
        if DYN in (sizes[i], strides[i]) or sizes[i] == 0:
            continue
        last = offsets[i] + (sizes[i] - 1) * strides[i]
        if last >= dim:
            ctx.error(op, f"slice along dimension {i} runs out-of-bounds: {last} >= {dim}")
            return


@predicate("memref_reinterpret_cast")
def reinterpret_cast(op: Any, ctx: Any) -> None:
    """memref.reinterpret_cast: the result type's sizes, offset and strides agree with the static lists
    (MLIR ReinterpretCastOp::verify)."""
    src = op.operand("source").type
    res = op.results[0].type
    if not _verify_offset_size_stride(op, ctx, (1, res.rank, res.rank)):
        return
    if memory_space(src) != memory_space(res):
        ctx.error(op, f"different memory spaces specified for source type {q(src)} and result type {q(res)}")
        return
    if src.element_type != res.element_type:
        ctx.error(op, f"different element types specified for source type {q(src)} and result type {q(res)}")
        return

    def show(v: int) -> str:
        return "dynamic" if v == DYN else str(v)

    sizes = static_list(op, "static_sizes")
    for i, (rs, es) in enumerate(zip(res.shape, sizes, strict=True)):
        if rs != DYN and rs != es:
            ctx.error(op, f"expected result type with size = {show(es)} instead of {rs} in dim = {i}")
            return
    so = strides_and_offset(res)
    if so is None:
        ctx.error(op, f"expected result type to have strided layout but found {q(res)}")
        return
    r_strides, r_offset = so
    e_offset = static_list(op, "static_offsets")[0]
    if r_offset != DYN and r_offset != e_offset:
        ctx.error(op, f"expected result type with offset = {show(e_offset)} instead of {r_offset}")
        return
    for i, (rs, es) in enumerate(zip(r_strides, static_list(op, "static_strides"), strict=True)):
        if rs != DYN and rs != es:
            ctx.error(op, f"expected result type with stride = {show(es)} instead of {rs} in dim = {i}")
            return


# ------------------------------------------------------------------------------------------ reshapes


def _verify_collapsed_shape(op: Any, ctx: Any, collapsed: tuple[int, ...], expanded: tuple[int, ...],
                            groups: list[list[int]]) -> bool:
    """MLIR verifyCollapsedShape (multiple dynamic dims per group allowed, as for memrefs)."""
    if len(collapsed) != len(groups):
        ctx.error(op, f"invalid number of reassociation groups: found {len(groups)}, expected {len(collapsed)}")
        return False
    nxt = 0
    for ci, group in enumerate(groups):
        dynamic = False
        for d in group:
            if d != nxt:
                ctx.error(op, "reassociation indices must be contiguous")
                return False
            nxt += 1
            if d >= len(expanded):
                ctx.error(op, f"reassociation index {d} is out of bounds")
                return False
            if expanded[d] == DYN:
                dynamic = True
        if (collapsed[ci] == DYN) != dynamic:
            ctx.error(op, f"collapsed dim ({ci}) must be dynamic if and only if reassociation group is dynamic")
            return False
        if not dynamic:
            size = 1
            for d in group:
                size *= expanded[d]
            if size != collapsed[ci]:
                ctx.error(op, f"collapsed dim size ({collapsed[ci]}) must equal reassociation group size ({size})")
                return False
    if not collapsed:
        if any(d != 1 for d in expanded):
            ctx.error(op, "rank 0 memrefs can only be extended/collapsed with/from ones")
            return False
    elif nxt != len(expanded):
        ctx.error(op, f"expanded rank ({len(expanded)}) inconsistent with number of reassociation indices ({nxt})")
        return False
    return True


def collapsed_layout(src: T.MemRefType, groups: list[list[int]]) -> A.StridedLayoutAttr | None:
    """MLIR computeCollapsedLayoutMap (non-strict): None when non-contiguous dims are collapsed."""
    so = strides_and_offset(src)
    if so is None:
        return None
    strides, offset = so
    shape = src.shape
    result: list[int] = []
    for g in groups:
        ref = list(g)
        while len(ref) > 1 and shape[ref[-1]] == 1:
            ref.pop()
        result.append(strides[ref[-1]] if shape[ref[-1]] != DYN or len(ref) == 1 else DYN)
    for gi in range(len(groups) - 1, -1, -1):
        g = groups[gi]
        stride = result[gi]
        for idx in reversed(g[1:]):
            stride = _sat_mul(stride, shape[idx])
            src_stride = strides[idx - 1]
            if shape[idx - 1] == 1:
                continue
            if DYN not in (stride, src_stride) and stride != src_stride:
                return None
    return A.StridedLayoutAttr(tuple(result), offset)


def expanded_layout(src: T.MemRefType, shape: tuple[int, ...], groups: list[list[int]]) -> A.StridedLayoutAttr | None:
    """MLIR computeExpandedLayoutMap."""
    so = strides_and_offset(src)
    if so is None or len(so[0]) != len(groups):
        return None
    strides, offset = so
    rev: list[int] = []
    idx = len(shape) - 1
    for g, st in reversed(list(zip(groups, strides, strict=True))):
        cur = st
        for _ in g:
            rev.append(cur)
            cur = _sat_mul(cur, shape[idx]) if idx >= 0 else cur
            idx -= 1
    res = list(reversed(rev))
    res += [1] * (len(shape) - len(res))
    return A.StridedLayoutAttr(tuple(res[: len(shape)]), offset)


@predicate("memref_collapse_shape")
def collapse_shape(op: Any, ctx: Any) -> None:
    """memref.collapse_shape (MLIR CollapseShapeOp::verify)."""
    src = op.operand("src").type
    res = op.results[0].type
    groups = reassociation(op, ctx)
    if groups is None:
        return
    if src.rank < res.rank:
        ctx.error(op, f"has source rank {src.rank} and result rank {res.rank}. This is not a collapse "
                      f"({src.rank} < {res.rank}).")
        return
    if not _verify_collapsed_shape(op, ctx, res.shape, src.shape, groups):
        return
    if is_identity_layout(src):
        expected = T.MemRefType(res.shape, src.element_type, None, src.memory_space)
    else:
        lay = collapsed_layout(src, groups)
        if lay is None:
            ctx.error(op, "invalid source layout map or collapsing non-contiguous dims")
            return
        expected = T.MemRefType(res.shape, src.element_type, lay, src.memory_space)
    if expected != res:
        ctx.error(op, f"expected collapsed type to be {q(expected)} but found {q(res)}")


@predicate("memref_expand_shape")
def expand_shape(op: Any, ctx: Any) -> None:
    """memref.expand_shape (MLIR ExpandShapeOp::verify); without ``output_shape`` (older syntax) the result
    must be static."""
    src = op.operand("src").type
    res = op.results[0].type
    groups = reassociation(op, ctx)
    if groups is None:
        return
    if src.rank > res.rank:
        ctx.error(op, f"has source rank {src.rank} and result rank {res.rank}. This is not an expansion "
                      f"({src.rank} > {res.rank}).")
        return
    if not _verify_collapsed_shape(op, ctx, src.shape, res.shape, groups):
        return
    if is_identity_layout(src):
        expected = T.MemRefType(res.shape, src.element_type, None, src.memory_space)
    else:
        lay = expanded_layout(src, res.shape, groups)
        if lay is None:
            ctx.error(op, "invalid source layout map")
            return
        expected = T.MemRefType(res.shape, src.element_type, lay, src.memory_space)
    if expected != res:
        ctx.error(op, f"expected expanded type to be {q(expected)} but found {q(res)}")
        return
    if "static_output_shape" not in op.attributes:
        if DYN in res.shape:
            ctx.error(op, "expected output_shape operands for the dynamic dimensions of the result")
        return
    static = raw_static_list(op, "static_output_shape") or []
    if len(static) != res.rank:
        ctx.error(op, f"expected number of static shape bounds to be equal to the output rank ({res.rank}) but found "
                      f"{len(static)} inputs instead")
        return
    n_dyn = sum(1 for v in static if v == DYNAMIC_INDEX)
    n_ops = len(op.operand_group("output_shape"))
    if n_ops != n_dyn:
        ctx.error(op, f"mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has "
                      f"{n_dyn} dynamic dims while output_shape has {n_ops} values")
        return
    for pos, dim in enumerate(res.shape):
        if dim != DYN and dim != static[pos]:
            ctx.error(op, f"invalid output shape provided at pos {pos}")
            return


# ------------------------------------------------------------------------------------------ view / globals / misc


@predicate("memref_view")
def view(op: Any, ctx: Any) -> None:
    """memref.view (MLIR ViewOp::verify): identity layouts, same memory space, one size per `?` dim."""
    base = op.operand("source").type
    res = op.results[0].type
    if not is_identity_layout(base):
        ctx.error(op, f"unsupported map for base memref type {q(base)}")
    elif not is_identity_layout(res):
        ctx.error(op, f"unsupported map for result memref type {q(res)}")
    elif memory_space(base) != memory_space(res):
        ctx.error(op, f"different memory spaces specified for base memref type {q(base)} and view memref type {q(res)}")
    elif len(op.operand_group("sizes")) != sum(1 for d in res.shape if d == DYN):
        ctx.error(op, f"incorrect number of size operands for type {q(res)}")


@predicate("memref_global")
def global_(op: Any, ctx: Any) -> None:
    """memref.global (MLIR GlobalOp::verify): a static memref type; the initializer is ``uninitialized`` or
    elements of that shape and element type; a power-of-two alignment."""
    ta = op.attributes.get("type")
    t = ta.type if isinstance(ta, A.TypeAttr) else None
    if not isinstance(t, T.MemRefType) or not t.has_static_shape:
        ctx.error(op, f"type should be static shaped memref, but got {q(t if t is not None else ta)}")
        return
    init = op.attributes.get("initial_value")
    if init is not None:
        if not isinstance(init, (A.UnitAttr, A.DenseElementsAttr)):
            ctx.error(op, f"initial value should be a unit or elements attribute, but got {init}")
            return
        if isinstance(init, A.DenseElementsAttr):
            et = T.element_type_of(init.type)
            if et != t.element_type:
                ctx.error(op, f"initial value element expected to be of type {q(t.element_type)}, but was of "
                              f"type {q(et)}")
                return
            shape = tuple(getattr(init.type, "shape", ()))
            if shape != t.shape:
                ctx.error(op, f"initial value shape expected to be {', '.join(map(str, t.shape))} but was "
                              f"{', '.join(map(str, shape))}")
                return
    a = op.attributes.get("alignment")
    if isinstance(a, A.IntegerAttr) and (a.value <= 0 or a.value & (a.value - 1)):
        ctx.error_at(op.loc, f"alignment attribute value {a.value} is not a power of 2")


@predicate("memref_get_global")
def get_global(op: Any, ctx: Any) -> None:
    """memref.get_global: the symbol names a memref.global of the result type (MLIR verifySymbolUses)."""
    ref = op.attributes.get("name")
    name = ref.leaf if isinstance(ref, A.SymbolRefAttr) else str(ref)
    g = ctx.lookup_symbol(op, ref) if isinstance(ref, A.SymbolRefAttr) else None
    if g is None or g.name != "memref.global":
        ctx.error(op, f"'{name}' does not reference a valid global memref")
        return
    gt = g.attributes.get("type")
    gt = gt.type if isinstance(gt, A.TypeAttr) else gt
    rt = op.results[0].type
    if gt != rt:
        ctx.error(op, f"result type {q(rt)} does not match type {q(gt)} of the global memref @{name}")


@predicate("memref_extract_strided_metadata")
def extract_strided_metadata(op: Any, ctx: Any) -> None:
    """Results: rank-0 base buffer of the element type and memory space, offset, rank sizes, rank strides
    (MLIR ExtractStridedMetadataOp::inferReturnTypes)."""
    src = op.operand("source").type
    inferred = [T.MemRefType((), src.element_type, None, src.memory_space), T.INDEX] + [T.INDEX] * (2 * src.rank)
    actual = [r.type for r in op.results]
    if inferred != actual:
        ctx.error(op, f"inferred type(s) {', '.join(q(t) for t in inferred)} are incompatible with return type(s) "
                      f"of operation {', '.join(q(t) for t in actual)}")


@predicate("memref_dim")
def dim(op: Any, ctx: Any) -> None:
    """memref.dim: a non-0-ranked source; a constant index must be smaller than the rank."""
    t = op.operand("source").type
    if isinstance(t, T.MemRefType) and t.rank == 0:
        ctx.error(op, f"operand #0 must be non-0-ranked or unranked memref, but got {q(t)}")
        return
    idx = op.operand("index")
    d = idx.owner_op
    if d is not None and d.name == "arith.constant" and isinstance(t, T.MemRefType):
        v = d.attributes.get("value")
        if isinstance(v, A.IntegerAttr) and not 0 <= v.value < t.rank:
            ctx.error(op, "index is out of range")


@predicate("memref_copy")
def copy(op: Any, ctx: Any) -> None:
    """memref.copy: SameOperandsElementType and SameOperandsShape."""
    a, b = op.operand("source").type, op.operand("target").type
    if a.element_type != b.element_type:
        ctx.error(op, "requires the same element type for all operands")
    elif isinstance(a, T.MemRefType) and isinstance(b, T.MemRefType) and (
        a.rank != b.rank or any(DYN not in (x, y) and x != y for x, y in zip(a.shape, b.shape, strict=True))
    ):
        ctx.error(op, "requires the same shape for all operands")
