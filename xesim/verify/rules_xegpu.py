"""XeGPU verifier rules (``shared/spec/programs-and-runner.md`` §4.4, following upstream
``mlir/lib/Dialect/XeGPU/IR/XeGPUOps.cpp``, ``XeGPUDialect.cpp`` and ``XeGPUTypes``; messages use the upstream
wording where it is known).

Every XeGPU predicate first checks what MLIR checks when it builds types and attributes: each
``!xegpu.tensor_desc`` operand/result type (``TensorDescType::verify``) and each layout attribute on the op
(``LayoutAttr::verify``, ``SliceAttr::verify``).  Those diagnostics carry no ``'xegpu.op' op`` prefix, as in
MLIR, and stop the op's own checks (the first problem found is reported, as ``emitOpError`` does).
Layout arithmetic lives in :mod:`xesim.verify.xegpu_layout`.

Deliberate differences from upstream, each for real programs: a memref in address space 1 (SPIR-V global)
counts as global memory; legacy ``#xegpu.sg_map`` tensor descriptors accept any SIMT fragment shape with the
right element count; legacy ``transpose_bit_width = 32`` acts as ``packed`` after the transpose (IMEX's
obsolete downstream patch); legacy ``transpose`` on scattered loads/stores swaps the value's two dims.
"""

from __future__ import annotations

from math import prod
from typing import Any

from xesim.decode.xegpu import decode_block_access
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.core import Operation
from xesim.verify import xegpu_layout as xl
from xesim.verify.predicates import RuleError, rule_registrar
from xesim.verify.rules_memref import canonical_strides, strides_and_offset

# xegpu dialect docs (shared/seeds/xegpu-dialect-reference.txt, alloc_nbarrier / init_nbarrier): named barrier
# ids are 0~31, so at most 32 barriers can be allocated.
NBARRIER_LIMIT = 32
# TensorDescType::verify: low-precision scattered data is packed in 32-bit units (targetinfo constant).
PACKED_BITS_GATHER_SCATTER = 32

READ_HINTS = ("cached", "uncached", "streaming", "read_invalidate")
WRITE_HINTS = ("cached", "uncached", "write_back", "write_through")


_RuleError = RuleError
#: registers a rule, preceded by the type/attribute checks every XeGPU op gets (xesim/verify/predicates.py)
_rule = rule_registrar(lambda op: _check_types_and_attrs(op))


# ============================================================================== shared helpers


def _shape(t: T.Type) -> list[int]:
    return list(t.shape) if isinstance(t, (T.VectorType, T.TensorDescType, T.MemDescType, T.MemRefType)) else []


def _elems(t: T.Type) -> int:
    return prod(_shape(t)) if isinstance(t, (T.VectorType, T.TensorDescType)) else 1


def _operand(op: Operation, name: str) -> Any:
    group = op.operand_group(name)
    return group[0] if group else None


def _enc(t: T.TensorDescType) -> A.DialectAttr | None:
    enc = t.encoding
    return enc if isinstance(enc, A.DialectAttr) else None


def array_length(t: T.TensorDescType) -> int:
    enc = _enc(t)
    v = enc.get_param("array_length") if enc is not None else None
    return v.value if isinstance(v, A.IntegerAttr) else 1


def _space_number(v: A.Attribute | None) -> int:
    """0 (global) or 3 (SLM) for a memory-space attribute; integers are kept as written."""
    if v is None:
        return 0
    if isinstance(v, A.IntegerAttr):
        return v.value
    if isinstance(v, A.EnumValue):
        return 3 if v.enum_value in ("slm", "workgroup") else 0
    if isinstance(v, A.DialectAttr):
        case = v.positional(0)
        if isinstance(case, A.EnumValue) and case.enum_value in ("slm", "workgroup"):
            return 3
    return 0


def tdesc_memory_space(t: T.TensorDescType) -> int:
    enc = _enc(t)
    if enc is None:
        return 0
    v = enc.get_param("memory_space")
    if v is None:
        v = enc.get_param("memory_scope")  # older IMEX spelling
    return _space_number(v)


def source_memory_space(t: T.Type) -> int:
    """``getSourceMemorySpace``: a memref's memory space (``#gpu.address_space<workgroup>`` is SLM); an
    integer address is global."""
    if isinstance(t, T.MemRefType):
        return _space_number(t.memory_space)
    return 0


def _is_slm(space: int) -> bool:
    return space == 3


def _layout_of(attr: A.Attribute | None) -> xl.Layout | None:
    if attr is None or not xl.is_layout_attr(attr):
        return None
    return xl.read_layout(attr)


def _tdesc_layout(t: T.TensorDescType) -> xl.Layout | None:
    return _layout_of(t.layout)


def _check_layout_attr(attr: A.Attribute) -> xl.Layout:
    try:
        lay = xl.read_layout(attr)
    except xl.LayoutError as exc:
        raise _RuleError(str(exc), on_op=False) from None
    msg = xl.layout_error(lay)
    if msg is not None:
        raise _RuleError(msg, on_op=False)
    return lay


# Types that passed check_tensor_desc_type, by identity (types are immutable and the parser shares equal
# ones; the table keeps each type alive, so an id is not reused while it is in the table).
_TDESC_OK: dict[int, T.TensorDescType] = {}


def check_tensor_desc_type(t: T.TensorDescType) -> None:
    """``TensorDescType::verify`` (+ the encoding's parameters).  Raises _RuleError (no op prefix).
    The check depends on the type alone, so types that passed are remembered."""
    if _TDESC_OK.get(id(t)) is t:
        return
    _check_tensor_desc_type(t)
    if len(_TDESC_OK) > 4096:
        _TDESC_OK.clear()
    _TDESC_OK[id(t)] = t


def _check_tensor_desc_type(t: T.TensorDescType) -> None:
    rank = len(t.shape)
    if rank == 0:
        raise _RuleError("expected non-zero rank tensor", on_op=False)
    if any(d <= 0 for d in t.shape):
        raise _RuleError(f"expected positive dimensions in tensor_desc shape {xl.shape_str(t.shape)}", on_op=False)
    if not isinstance(t.element_type, (T.IntegerType, T.FloatType)):
        raise _RuleError(f"expected integer or float element type for tensor_desc, got '{t.element_type}'", on_op=False)
    enc = t.encoding
    if enc is not None and not isinstance(enc, A.DialectAttr):
        raise _RuleError(f"unexpected tensor_desc encoding {enc}", on_op=False)
    scattered = t.is_scattered
    if enc is not None:
        allowed = ({"memory_space", "memory_scope", "chunk_size", "scattered"} if scattered
                   else {"memory_space", "memory_scope", "array_length", "boundary_check", "scattered"})
        for k, v in enc.params:
            if k not in allowed:
                raise _RuleError(f"unknown parameter '{k}' in {enc.qualified_name}", on_op=False)
            if k in ("array_length", "chunk_size") and not (isinstance(v, A.IntegerAttr) and v.value > 0):
                raise _RuleError(f"expected a positive integer for {k}, got {v}", on_op=False)
            if k in ("memory_space", "memory_scope"):
                case = v.enum_value if isinstance(v, A.EnumValue) else None
                if case not in ("global", "slm"):
                    raise _RuleError(f"expected memory_space to be global or slm, got {v}", on_op=False)
    if not scattered and rank > 1 and _is_slm(tdesc_memory_space(t)):
        raise _RuleError("SLM is only supported for 1D block tensor", on_op=False)
    bits = T.bit_width(t.element_type)
    factor = PACKED_BITS_GATHER_SCATTER // bits if bits < PACKED_BITS_GATHER_SCATTER else 1
    chunk = t.chunk_size if scattered else 1
    if scattered:
        if rank == 1 and chunk != 1:
            raise _RuleError("expected non-contiguous elements for 1D tensor", on_op=False)
        if chunk > 1:
            if t.shape[-1] != chunk:
                raise _RuleError("expected last dim of tensor to match chunk size", on_op=False)
            if t.shape[-1] % factor:
                raise _RuleError(f"expected last dim of tensor to be a multiple of {factor}", on_op=False)
    if t.layout is None:
        return
    lay = _check_layout_attr(t.layout)
    if lay.kind == "sg_map":
        return  # legacy: always 2-D, also for 1-D descriptors (IMEX XeGPU RFC)
    if lay.rank != rank:
        raise _RuleError("expected layout rank to match tensor rank", on_op=False)
    lane_data = lay.effective_lane_data
    if scattered and lane_data and chunk > 1 and lane_data[-1] % factor:
        raise _RuleError(f"expected last dim of lane_data to be a multiple of: {factor}", on_op=False)
    if not xl.is_evenly_distributable(t.shape, lay):
        raise _RuleError(f"cannot distribute {xl.shape_str(t.shape)} using {t.layout}", on_op=False)


def _check_types_and_attrs(op: Operation) -> None:
    for vals in (op.operands, op.results):
        for v in vals:
            t = v.type
            if t.__class__ is T.TensorDescType and _TDESC_OK.get(id(t)) is not t:
                check_tensor_desc_type(t)
    od = op.opdef
    for name, a in op.attributes.items():
        if a.__class__ is A.DialectAttr and xl.is_layout_attr(a):
            _check_layout_attr(a)
        elif od is not None and name in od.attr_by_name and od.attr_by_name[name].kind == "layout":
            raise _RuleError(f"attribute '{name}' must be a #xegpu.layout or #xegpu.slice attribute, got {a}")


def _same_element_type(op: Operation, a: T.Type, b: T.Type, names: str) -> None:
    """MLIR's ``AllElementTypesMatch`` trait (its message, upstream-xegpu-xevm.md §2.0)."""
    if T.element_type_of(a) != T.element_type_of(b):
        raise _RuleError(f"failed to verify that all of {{{names}}} have same element type")


def _check_hints(op: Operation, allowed: tuple[str, ...]) -> None:
    for name in ("l1_hint", "l2_hint", "l3_hint"):
        a = op.attributes.get(name)
        if a is None:
            continue
        case = a.positional(0) if isinstance(a, A.DialectAttr) else None
        if not isinstance(case, A.EnumValue) or case.enum_value not in allowed:
            raise _RuleError(f"invalid {name}: {a}")


def _check_anchor(op: Operation, name: str, shape: list[int], what: str) -> None:
    """An anchor layout attribute must evenly distribute ``shape``; upstream's message names ``what``
    (``TensorDesc shape``, ``Value shape``, ``offset shape``: upstream-xegpu-xevm.md §2.2-2.7, §2.17)."""
    a = op.attributes.get(name)
    lay = _layout_of(a)
    if lay is None:
        return
    if lay.kind != "sg_map" and (lay.rank != len(shape) or not xl.is_evenly_distributable(shape, lay)):
        raise _RuleError(f"{what} is not distributable with the layout")


def _offset_count(op: Operation) -> int:
    const = A.int_list(op.attributes.get("const_offsets"))
    return len(const) if const is not None else len(op.operand_group("offsets"))


def _check_offsets_rank(op: Operation, rank: int) -> None:
    dyn = len(op.operand_group("offsets"))
    const = A.int_list(op.attributes.get("const_offsets"))
    n_const = len(const) if const is not None else 0
    if (dyn and dyn != rank and n_const == 0) or (n_const and n_const != rank):
        raise _RuleError("Mismatched ranks between offsets and tensor descriptor")


def _check_block_tdesc(t: T.TensorDescType) -> None:
    """A block descriptor of any rank (upstream-xegpu-xevm.md §3.1: rank 3-5 are batched 2D blocks; the old
    ``Expects a 1D or 2D TensorDesc.`` is gone); a legacy scattered descriptor is not one."""
    if t.is_scattered:
        raise _RuleError("Expects a non-scattered TensorDesc.")


# ============================================================================== block (nd) ops


def _mixed_count(op: Operation, dyn: str, static: str) -> int | None:
    const = A.int_list(op.attributes.get(static))
    if const is not None:
        return len(const)
    n = len(op.operand_group(dyn))
    return n if n else None


@_rule("xegpu_create_nd_tdesc")
def _create_nd_tdesc(op: Operation, ctx: Any) -> None:
    """CreateNdDescOp::verify (upstream-xegpu-xevm.md §2.1, messages verbatim, in upstream's order): memory
    spaces agree; an integer source needs shape and strides of one rank; a memref source takes neither; the
    descriptor rank does not exceed the source's; element types agree.

    Legacy forms real programs still use: offsets on the op (their count must match the source rank, with the
    mid-2025 message), and shape/strides on a *dynamic* memref (mid-2025 upstream allowed them; today's rejects
    them — a static memref with shape/strides gets today's message)."""
    src_t = _operand(op, "source").type
    td = op.results[0].type
    assert isinstance(td, T.TensorDescType)
    src_space = source_memory_space(src_t)
    td_space = tdesc_memory_space(td)
    if _is_slm(src_space) != _is_slm(td_space):
        raise _RuleError(f"Memory space mismatch. Source: {src_space}, TensorDesc: {td_space}")
    n_shape = _mixed_count(op, "shape", "const_shape")
    n_strides = _mixed_count(op, "strides", "const_strides")
    if isinstance(src_t, T.IntegerType):
        if not n_shape or not n_strides:
            raise _RuleError("expecting strides and shape to be present for integer source.")
        if n_shape != n_strides:
            raise _RuleError("Expecting the rank of shape and strides to match.")
    memref_rank = src_t.rank if isinstance(src_t, T.MemRefType) else None
    if memref_rank is not None and (n_shape or n_strides):
        if src_t.has_static_shape:
            raise _RuleError("shape and strides should not be specified for a memref source; they are inferred "
                             "from the memref.")
        if n_shape != n_strides or n_shape != memref_rank:
            raise _RuleError("Expecting the rank of shape and strides to match.")
    rank = n_shape if n_shape is not None else (memref_rank or 0)
    n_off = _offset_count(op)
    if n_off and n_off != rank:
        raise _RuleError("Expecting the rank of shape, strides, offsets, and source (if source is a memref) "
                         "should match with each other.")
    if td.rank > rank:
        raise _RuleError("Expecting the TensorDesc rank is not greater than the ranks of shape, strides or the "
                         "memref source.")
    if isinstance(src_t, T.MemRefType) and src_t.element_type != td.element_type:
        raise _RuleError("TensorDesc should have the same element type with the source if it is a memref.\n")
    if td.is_scattered:
        raise _RuleError("Expects a non-scattered TensorDesc.")


def _legacy_sg_map_ok(td: T.TensorDescType, value_t: T.VectorType) -> bool:
    lay = _tdesc_layout(td)
    if lay is None or lay.kind != "sg_map":
        return False
    lanes = prod(lay.effective_lane_layout)
    return lanes > 0 and value_t.num_elements * lanes == td.num_elements * array_length(td)


@_rule("xegpu_load_nd")
def _load_nd(op: Operation, ctx: Any) -> None:
    """LoadNdOp::verify (spec §4.4): SIMT fragments (1-D, fewer elements, divisible, no tdesc layout) or
    the SIMD shape after transpose / packed / array_length (3-D ``[a, ...]`` or stacked ``[a·R, ...]``)."""
    td = _operand(op, "TensorDesc").type
    vt = op.results[0].type
    _same_element_type(op, vt, td, "value, TensorDesc")
    _check_block_tdesc(td)
    _check_hints(op, READ_HINTS)
    tbw = op.attributes.get("transpose_bit_width")
    if tbw is not None:
        if not isinstance(tbw, A.IntegerAttr) or tbw.value != 32:
            raise _RuleError(f"transpose_bit_width must be 32, got {tbw}")
        if "transpose" not in op.attributes:
            raise _RuleError("transpose_bit_width requires transpose")
    a_len = array_length(td)
    td_elems = td.num_elements * a_len
    v_elems = vt.num_elements
    if _legacy_sg_map_ok(td, vt):
        _check_offsets_rank(op, td.rank)
        return
    if v_elems < td_elems and vt.rank == 1:
        if td.layout is not None:
            raise _RuleError("TensorDesc doesn't need LayoutAttr for SIMT code")
        if td_elems % v_elems:
            raise _RuleError(f"Result shape {xl.shape_str(vt.shape)} is not a valid distribution for tensor "
                        f"descriptor {td}")
        _check_offsets_rank(op, td.rank)
        return
    value_shape = list(vt.shape)
    acc = decode_block_access(op)
    if acc.transpose_ignored:
        ctx.warning(op, "Invalid transpose attr. It is ignored.")
    if acc.packed_result and not (td.rank == 2 and value_shape and value_shape[-1] > 0):
        ctx.warning(op, "Invalid Packed Attr. It is ignored (available for 2D TensorDesc only).")
    candidates = acc.simd_shapes()
    if value_shape not in candidates:
        raise _RuleError(f"Result shape {xl.shape_str(value_shape)} is not consistent with tensor descriptor {td}")
    _check_offsets_rank(op, td.rank)
    _check_anchor(op, "layout", list(td.shape), "TensorDesc shape")


@_rule("xegpu_store_nd")
def _store_nd(op: Operation, ctx: Any) -> None:
    """StoreNdOp::verify: no array_length; SIMT fragment rule as for load_nd; SIMD value shape == tdesc."""
    td = _operand(op, "TensorDesc").type
    vt = _operand(op, "value").type
    _same_element_type(op, vt, td, "value, TensorDesc")
    _check_block_tdesc(td)
    _check_hints(op, WRITE_HINTS)
    if array_length(td) > 1:
        raise _RuleError("array length is not supported by store_nd.")
    if _legacy_sg_map_ok(td, vt):
        _check_offsets_rank(op, td.rank)
        return
    if vt.rank == 1 and vt.num_elements < td.num_elements:
        if td.layout is not None:
            raise _RuleError("TensorDesc doesn't need LayoutAttr for SIMT code")
        if td.num_elements % vt.num_elements:
            raise _RuleError(f"Value shape {xl.shape_str(vt.shape)} is not a valid distribution for tensor "
                        f"descriptor {td}")
        _check_offsets_rank(op, td.rank)
        return
    if list(vt.shape) != list(td.shape):
        raise _RuleError(f"Value shape {xl.shape_str(vt.shape)} is not consistent with tensor descriptor {td}")
    _check_offsets_rank(op, td.rank)
    _check_anchor(op, "layout", list(td.shape), "TensorDesc shape")


@_rule("xegpu_prefetch_nd")
def _prefetch_nd(op: Operation, ctx: Any) -> None:
    """PrefetchNdOp::verify: block tdesc, read hints, offsets rank, anchor layout distributes the shape."""
    td = _operand(op, "TensorDesc").type
    _check_block_tdesc(td)
    _check_hints(op, READ_HINTS)
    _check_offsets_rank(op, td.rank)
    _check_anchor(op, "layout", list(td.shape), "TensorDesc shape")


@_rule("xegpu_update_nd_offset")
def _update_nd_offset(op: Operation, ctx: Any) -> None:
    """UpdateNdOffsetOp::verify: block tdesc and one offset per tdesc dim."""
    td = op.results[0].type
    if td.is_scattered:
        raise _RuleError("Expects a non-scattered TensorDesc.")
    if _offset_count(op) != td.rank:
        raise _RuleError("Invalid number of offsets.")


# ============================================================================== scattered ops


@_rule("xegpu_create_tdesc")
def _create_tdesc(op: Operation, ctx: Any) -> None:
    """CreateDescOp::verify: scattered tdesc, memory spaces agree, shape = offsets shape (+ chunk)."""
    src_t = _operand(op, "source").type
    off_t = _operand(op, "offsets").type
    td = op.results[0].type
    if not td.is_scattered:
        raise _RuleError("Expects a scattered TensorDesc.")
    src_space, td_space = source_memory_space(src_t), tdesc_memory_space(td)
    if _is_slm(src_space) != _is_slm(td_space):
        raise _RuleError(f"Memory space mismatch. Source: {src_space}, TensorDesc: {td_space}")
    if isinstance(src_t, T.MemRefType) and src_t.element_type != td.element_type:
        raise _RuleError("TensorDesc should have the same element type with the source if it is a memref.")
    expected = list(off_t.shape)
    if td.chunk_size != 1:
        expected.append(td.chunk_size)
    if expected != list(td.shape):
        raise _RuleError(f"Incorrect TensorDesc shape. Expected is {xl.shape_str(expected)}")


@_rule("xegpu_update_offset")
def _update_offset(op: Operation, ctx: Any) -> None:
    """UpdateOffsetOp::verify: scattered tdesc; offsets shape = tdesc shape without the chunk dim."""
    td = _operand(op, "TensorDesc").type
    off_t = _operand(op, "offsets").type
    if not td.is_scattered:
        raise _RuleError("Expects a scattered TensorDesc.")
    expected = list(td.shape)
    if td.chunk_size > 1:
        expected.pop()
    if list(off_t.shape) != expected:
        raise _RuleError("Offsets should match TensorDesc except the chunk size dim.")


def _gather_scatter_tdesc(op: Operation, td: T.TensorDescType, mask_t: T.Type, value_t: T.Type, what: str) -> None:
    """isValidGatherScatterParams (tensor_desc form)."""
    if not td.is_scattered:
        raise _RuleError("Expects a scattered TensorDesc.")
    chunk = td.chunk_size
    if not isinstance(value_t, T.VectorType):
        if chunk > 1:
            raise _RuleError(f"Expecting chunk size == 1 for scalar {what}")
        if isinstance(mask_t, T.VectorType):
            raise _RuleError(f"Expecting a vector type {what}.")
        return
    if value_t.element_type != td.element_type:
        raise _RuleError("Value should have the same element type as TensorDesc.")
    td_shape = list(td.shape)
    expected_mask = td_shape[:-1] if chunk > 1 else list(td_shape)
    if _shape(mask_t) != expected_mask:
        raise _RuleError("Mask should match TensorDesc except the chunk size dim.")
    if value_t.rank == 1 and value_t.num_elements == chunk:
        if td.layout is not None:
            raise _RuleError("TensorDesc doesn't need LayoutAttr for SIMT code")
        return
    value_shape = list(value_t.shape)
    if "transpose" in op.attributes and len(value_shape) == 2:
        value_shape = value_shape[::-1]  # legacy: [chunk, lanes]
    if value_shape != td_shape:
        raise _RuleError(f"Value shape {xl.shape_str(value_t.shape)} is neither a valid distribution for SIMT nor "
                    f"consistent with the tensor descriptor for SIMD {td}")


def _gather_scatter_buffer(offsets_t: T.Type, mask_t: T.Type, value_t: T.Type, chunk: int, what: str) -> None:
    """isValidGatherScatterBufferParams (memref / pointer + offsets form, spec §4.4)."""
    mask_vec = isinstance(mask_t, T.VectorType)
    off_vec = isinstance(offsets_t, T.VectorType)
    if not isinstance(value_t, T.VectorType):
        if chunk > 1:
            raise _RuleError(f"Expecting chunk size == 1 for scalar {what}")
        if mask_vec or off_vec:
            raise _RuleError("Expecting scalar mask and offsets.")
        return
    value_size = value_t.num_elements
    if not mask_vec and not off_vec:
        if value_size != chunk:
            raise _RuleError(f"value elements must match chunk size {chunk}")
        return
    if not mask_vec:
        raise _RuleError("Expecting a vector type mask.")
    mask_size = mask_t.num_elements
    if chunk > 1:
        if value_t.rank <= 1 and value_size != chunk:
            raise _RuleError(f"value elements must match chunk size {chunk}")
    elif value_size != mask_size:
        raise _RuleError("Mask should match value except the chunk size dim.")
    if mask_size == 1:
        return
    expected = list(value_t.shape)
    if chunk > 1:
        expected.pop()
    if expected != list(mask_t.shape):
        raise _RuleError("Mask should match value except the chunk size dim.")
    if off_vec and list(offsets_t.shape) != list(mask_t.shape):
        raise _RuleError("Offsets should match the mask shape.")


def _check_contiguity(op: Operation, offsets_t: T.Type) -> None:
    """The ``contiguity`` hint (upstream-xegpu-xevm.md §2.6): vector offsets, at least 2, dividing the innermost
    offsets dim."""
    c = op.attributes.get("contiguity")
    if not isinstance(c, A.IntegerAttr):
        return
    if not isinstance(offsets_t, T.VectorType):
        raise _RuleError("contiguity requires vector offsets (one per lane).")
    if c.value < 2:
        raise _RuleError(f"contiguity = {c.value} (must be >= 2)")
    inner = offsets_t.shape[-1]
    if inner % c.value:
        raise _RuleError(f"contiguity = {c.value} (must divide the innermost offsets dim {inner})")


def _check_chunk_attr(op: Operation) -> int:
    a = op.attributes.get("chunk_size")
    if a is None:
        return 1
    if not isinstance(a, A.IntegerAttr) or a.value <= 0:
        raise _RuleError(f"chunk_size must be positive, got {a}")
    return a.value


def _scatter_access(op: Operation, src_name: str, value_t: T.Type, hints: tuple[str, ...], what: str) -> None:
    src_t = _operand(op, src_name).type
    mask_t = _operand(op, "mask").type
    offsets = _operand(op, "offsets")
    _check_hints(op, hints)
    chunk = _check_chunk_attr(op)
    if isinstance(src_t, T.TensorDescType):
        if offsets is not None:
            raise _RuleError("offsets are not allowed with a TensorDesc source (they come from create_tdesc)")
        _gather_scatter_tdesc(op, src_t, mask_t, value_t, what)
        if isinstance(value_t, T.VectorType):
            _check_anchor(op, "layout", list(value_t.shape), "Value shape")
    else:
        if offsets is None:
            raise _RuleError("Expects offsets.")
        if isinstance(src_t, T.MemRefType) and T.element_type_of(value_t) != src_t.element_type:
            raise _RuleError("Value should have the same element type as MemRef.", on_op=False)
        if isinstance(value_t, T.VectorType):
            _check_anchor(op, "layout", list(value_t.shape), "Value shape")
        _check_contiguity(op, offsets.type)
        _gather_scatter_buffer(offsets.type, mask_t, value_t, chunk, what)


@_rule("xegpu_load")
def _load(op: Operation, ctx: Any) -> None:
    """LoadGatherOp::verify (upstream-xegpu-xevm.md §2.6, upstream's order): read hints; memref/pointer + offsets
    form (element types, anchor layout, contiguity, chunk size, mask and value shapes) or the legacy tensor_desc
    form."""
    _scatter_access(op, "source", op.results[0].type, READ_HINTS, "result")


@_rule("xegpu_store")
def _store(op: Operation, ctx: Any) -> None:
    """StoreScatterOp::verify: as xegpu.load, with write hints."""
    _scatter_access(op, "dest", _operand(op, "value").type, WRITE_HINTS, "value")


@_rule("xegpu_prefetch")
def _prefetch(op: Operation, ctx: Any) -> None:
    """PrefetchOp::verify: scattered tdesc or 1-D memref/pointer + offsets; offset_align_byte exactly with
    an integer source."""
    src_t = _operand(op, "source").type
    offsets = _operand(op, "offsets")
    if isinstance(src_t, T.TensorDescType):
        if not src_t.is_scattered:
            raise _RuleError("Expects a scattered TensorDesc.")
        if offsets is not None:
            raise _RuleError("offsets are not allowed with a TensorDesc source (they come from create_tdesc)")
    elif offsets is None:
        raise _RuleError("Expects offsets.")
    _check_hints(op, READ_HINTS)
    align = op.attributes.get("offset_align_byte")
    if isinstance(src_t, T.IntegerType) and align is None:
        raise _RuleError("offset_align_byte is required with integer source.")
    if align is not None and not isinstance(src_t, T.IntegerType):
        raise _RuleError("offset_align_byte only allowed with integer source.")
    if isinstance(align, A.IntegerAttr) and align.value <= 0:
        raise _RuleError(f"offset_align_byte must be positive, got {align.value}")
    if offsets is not None and isinstance(offsets.type, T.VectorType):
        _check_anchor(op, "layout", list(offsets.type.shape), "offset shape")


_FLOAT_KINDS = {"addf", "maximumf", "maxnumf", "minimumf", "minnumf", "mulf"}
_INT_KINDS = {"addi", "andi", "maxs", "maxu", "mins", "minu", "muli", "ori", "xori"}
_RMW_KINDS = ["addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu", "minimumf", "minnumf",
              "mins", "minu", "mulf", "muli", "ori", "xori"]


@_rule("xegpu_atomic_rmw")
def _atomic_rmw(op: Operation, ctx: Any) -> None:
    """Atomic RMW on a descriptor: today's form takes a block descriptor (upstream-xegpu-xevm.md §2.12, traits only:
    tensorDesc, value and result of one element type and shape); the legacy form a scattered one (mask = tdesc
    shape without the chunk dim, value and result shaped like the tdesc or a SIMT chunk).  Both: the kind fits the
    element type, the mask has one flag per element (xesim's check: the mask's shape is otherwise unconstrained
    upstream, and one flag per element is what its semantics need)."""
    td = _operand(op, "tensorDesc").type
    mask_t = _operand(op, "mask").type
    val_t = _operand(op, "value").type
    res_t = op.results[0].type
    _same_element_type(op, td, val_t, "tensorDesc, value, result")
    _same_element_type(op, td, res_t, "tensorDesc, value, result")
    simt_chunk = val_t.rank == 1 and val_t.num_elements == td.chunk_size and td.num_elements > td.chunk_size
    if not simt_chunk and not (list(val_t.shape) == list(td.shape) == list(res_t.shape)):
        raise _RuleError("failed to verify that all of {tensorDesc, value, result} have same shape")
    if res_t != val_t:
        raise _RuleError(f"Expecting the result type ({res_t}) to be the same as the value type ({val_t}).")
    if val_t.element_type != td.element_type:
        raise _RuleError("Value should have the same element type as TensorDesc.")
    kind_attr = op.attributes.get("kind")
    kind = _RMW_KINDS[kind_attr.value] if isinstance(kind_attr, A.IntegerAttr) and 0 <= kind_attr.value < 16 else ""
    if kind in _FLOAT_KINDS and not isinstance(val_t.element_type, T.FloatType):
        raise _RuleError(f"with kind '{kind}' expects a floating-point type")
    if kind in _INT_KINDS and not isinstance(val_t.element_type, T.IntegerType):
        raise _RuleError(f"with kind '{kind}' expects an integer type")
    chunk = td.chunk_size
    expected_mask = list(td.shape[:-1]) if chunk > 1 else list(td.shape)
    if _shape(mask_t) != expected_mask and _elems(mask_t) != 1:
        raise _RuleError("Mask should match TensorDesc except the chunk size dim.")
    if list(val_t.shape) != list(td.shape) and not (val_t.rank == 1 and val_t.num_elements == chunk):
        raise _RuleError(f"Value shape {xl.shape_str(val_t.shape)} is neither a valid distribution for SIMT nor "
                    f"consistent with the tensor descriptor for SIMD {td}")


# ============================================================================== compute


def _dpas_shapes(op: Operation) -> tuple[list[int], list[int], list[int]] | None:
    """DpasOp::verify / DpasMxOp::verify (upstream-xegpu-xevm.md §2.8, messages verbatim, in upstream's order):
    the anchor layouts distribute their operands; acc type == result type; all-1-D (lane form) accepted; A, B,
    result at least 2-D; a B one rank above A is VNNI-packed (upstream accepts it without further checks; xesim
    also checks its K, M and N, with the same messages, because the executor relies on them); equal ranks,
    batch dims, then K, M, N.  Returns (A, B, D) shapes, or None for the lane form."""
    res_t = op.results[0].type
    a_t, b_t = _operand(op, "lhs").type, _operand(op, "rhs").type
    a, b, d = _shape(a_t), _shape(b_t), _shape(res_t)
    vnni = len(b) == len(a) + 1
    _check_anchor(op, "layout_cd", d, "Result shape")
    _check_anchor(op, "layout_a", a, "A shape")
    _check_anchor(op, "layout_b", (b[:-3] + [b[-3] * b[-1], b[-2]]) if vnni and len(b) >= 3 else b, "B shape")
    acc = _operand(op, "acc")
    if acc is not None and acc.type != res_t:
        raise _RuleError("Accumulator type must match result type.")
    if len(a) == 1 and len(b) == 1 and len(d) == 1:
        return None
    if len(a) < 2:
        raise _RuleError("A operand must be at least a 2D vector.")
    if len(b) < 2:
        raise _RuleError("B operand must be at least a 2D vector.")
    if len(d) < 2:
        raise _RuleError("Result must be at least a 2D vector.")
    if vnni:
        b_k, b_n = b[-3] * b[-1], b[-2]
    else:
        if not len(a) == len(b) == len(d):
            raise _RuleError("Rank mismatch among A, B, and result.")
        for i in range(len(a) - 2):
            if a[i] != d[i]:
                raise _RuleError(f"Batch dimension mismatch at dim {i}: A has {a[i]} but result has {d[i]}.")
            if a[i] != b[i]:
                raise _RuleError(f"Batch dimension mismatch at dim {i}: A has {a[i]} but B has {b[i]}.")
        b_k, b_n = b[-2], b[-1]
    if a[-1] != b_k:
        raise _RuleError(f"K-dimension mismatch: A has K={a[-1]} but B has K={b_k}.")
    if a[-2] != d[-2]:
        raise _RuleError(f"M-dimension mismatch: A has M={a[-2]} but result has M={d[-2]}.")
    if b_n != d[-1]:
        raise _RuleError(f"N-dimension mismatch: B has N={b_n} but result has N={d[-1]}.")
    return a, b, d


@_rule("xegpu_dpas")
def _dpas(op: Operation, ctx: Any) -> None:
    """DpasOp::verify (upstream-xegpu-xevm.md §2.8), after the trait's same element type of A and B (dpas_mx
    dropped that trait).  Deliberate difference: integer A and B of different widths or signedness (u8 x s8, s4 x
    u8, ...) are accepted, as the hardware's DPAS takes any integer mix (spec/pvc-hardware.md §3.2)."""
    a_et = T.element_type_of(_operand(op, "lhs").type)
    b_et = T.element_type_of(_operand(op, "rhs").type)
    if not (isinstance(a_et, T.IntegerType) and isinstance(b_et, T.IntegerType)):
        _same_element_type(op, a_et, b_et, "lhs, rhs")
    _dpas_shapes(op)


@_rule("xegpu_dpas_mx")
def _dpas_mx(op: Operation, ctx: Any) -> None:
    """DpasMxOp::verify (upstream-xegpu-xevm.md §2.9): the dpas rules, then each scale that is a vector of rank
    > 1 (scalars and 1-D scales are not checked): its layout, its M (second-to-last) dim against A's M, its N
    (last) dim against B's N, and the two scales' K dims against each other.  Scales must be f8E8M0FNU (the
    operand type constraint of upstream; message xesim's)."""
    shapes = _dpas_shapes(op)
    sa, sb = _operand(op, "scale_a"), _operand(op, "scale_b")
    for name, v in (("scale_a", sa), ("scale_b", sb)):
        if v is not None and T.element_type_of(v.type) != T.FloatType("f8E8M0FNU"):
            raise _RuleError(f"{name} must be f8E8M0FNU or a vector of f8E8M0FNU, got {v.type}")
    if shapes is None:
        return
    a, b, _ = shapes
    vnni = len(b) == len(a) + 1
    b_n = b[-2] if vnni else b[-1]
    sa_s = _shape(sa.type) if sa is not None else []
    sb_s = _shape(sb.type) if sb is not None else []
    if len(sa_s) > 1:
        _check_anchor(op, "layout_a_scale", sa_s, "ScaleA shape")
        if sa_s[-2] != a[-2]:
            raise _RuleError(f"Scale A M dimension [{sa_s[-2]}] must match A M dimension [{a[-2]}].")
    if len(sb_s) > 1:
        _check_anchor(op, "layout_b_scale", sb_s, "ScaleB shape")
        if sb_s[-1] != b_n:
            raise _RuleError(f"Scale B N dimension [{sb_s[-1]}] must match B N dimension [{b_n}].")
    if len(sa_s) > 1 and len(sb_s) > 1 and sa_s[-1] != sb_s[-2]:
        raise _RuleError(f"Scale K dimension mismatch: scale_a has K={sa_s[-1]} but scale_b has K={sb_s[-2]}.")


@_rule("xegpu_convert_layout")
def _convert_layout(op: Operation, ctx: Any) -> None:
    """ConvertLayoutOp::verify (upstream-xegpu-xevm.md §2.15): a target layout (the input one defaults to it),
    both WG or both SG, each distributes the shape."""
    dst = op.attributes.get("target_layout", op.attributes.get("resMap"))
    if dst is None:
        raise _RuleError("expected target layout.")
    src = op.attributes.get("input_layout", op.attributes.get("srcMap", dst))  # defaults to the target (§2.15)
    s, d = _layout_of(src), _layout_of(dst)
    if s is None or d is None:
        raise _RuleError("expected input and target layouts to be #xegpu.layout or #xegpu.slice attributes.")
    if not ((s.is_for_workgroup and d.is_for_workgroup) or (s.is_for_subgroup and d.is_for_subgroup)):
        raise _RuleError("expected input layout and target layout be WgLayout or SgLayout at the same time.")
    shape = list(_operand(op, "source").type.shape)
    if not xl.is_evenly_distributable(shape, s):
        raise _RuleError("invalid input layout, data cannot be evenly distributed.")
    if not xl.is_evenly_distributable(shape, d):
        raise _RuleError("invalid target layout, data cannot be evenly distributed.")


@_rule("xegpu_truncf")
def _truncf(op: Operation, ctx: Any) -> None:
    """TruncfOp (upstream-xegpu-xevm.md §2.10): the traits' same rank / same shape, then a narrower result."""
    src_t, res_t = _operand(op, "source").type, op.results[0].type
    if src_t.rank != res_t.rank:
        raise _RuleError("failed to verify that all of {source, result} have same rank")
    if list(src_t.shape) != list(res_t.shape):
        raise _RuleError("failed to verify that all of {source, result} have same shape")
    if T.bit_width(res_t.element_type) >= T.bit_width(src_t.element_type):
        raise _RuleError("input type must be wider than result type.")


@_rule("xegpu_lane_shuffle")
def _lane_shuffle(op: Operation, ctx: Any) -> None:
    """LaneShuffleOp::verify (upstream-xegpu-xevm.md §2.11): a fragment of at least 2 elements."""
    if _operand(op, "source").type.num_elements < 2:
        raise _RuleError("requires a source vector with at least 2 elements.")


# ============================================================================== named barriers


@_rule("xegpu_alloc_nbarrier")
def _alloc_nbarrier(op: Operation, ctx: Any) -> None:
    """nbarrier_num is 1..32 (barrier ids 0~31, xegpu dialect docs)."""
    n = op.attributes["nbarrier_num"].value
    if not 1 <= n <= NBARRIER_LIMIT:
        raise _RuleError(f"nbarrier_num must be in [1, {NBARRIER_LIMIT}], got {n}")


# ============================================================================== SLM matrices


def _mem_layout_param(t: T.MemDescType, key: str) -> list[int] | None:
    ml = t.mem_layout
    if not isinstance(ml, A.DialectAttr):
        return None
    v = ml.get_param(key)
    try:
        return A.int_list(v) if v is not None else None
    except TypeError:
        return None


def mem_desc_strides(t: T.MemDescType) -> list[int]:
    """``MemDescType::getStrides``: the mem_layout ``stride`` or the row-major strides of the shape."""
    s = _mem_layout_param(t, "stride")
    if s is not None:
        return s
    out, acc = [], 1
    for d in reversed(t.shape):
        out.append(acc)
        acc *= d
    return out[::-1]


def _check_mem_desc_type(t: T.MemDescType) -> None:
    if not t.shape or any(d <= 0 for d in t.shape):
        raise _RuleError(f"expected a non-empty static shape for mem_desc, got {xl.shape_str(t.shape)}", on_op=False)
    ml = t.mem_layout
    if ml is None:
        return
    if not (isinstance(ml, A.DialectAttr) and ml.qualified_name == "xegpu.mem_layout"):
        raise _RuleError(f"expected #xegpu.mem_layout in mem_desc type, got {ml}", on_op=False)
    for key in ("stride", "block"):
        v = ml.get_param(key)
        if v is None:
            continue
        vals = _mem_layout_param(t, key)
        if vals is None or len(vals) != len(t.shape):
            raise _RuleError(f"expected {key} of rank {len(t.shape)} in {ml}", on_op=False)


@_rule("xegpu_create_mem_desc")
def _create_mem_desc(op: Operation, ctx: Any) -> None:
    """CreateMemDescOp::verify (upstream-xegpu-xevm.md §2.16): a static memref in SLM of the mem_desc's size in
    bits (the trait's message), contiguous row-major."""
    src_t = _operand(op, "source").type
    md = op.results[0].type
    _check_mem_desc_type(md)
    if not _is_slm(source_memory_space(src_t)):
        raise _RuleError("source must be in shared local memory (memory space 3)")
    if prod(src_t.shape) * T.bit_width(src_t.element_type) != prod(md.shape) * T.bit_width(md.element_type):
        raise _RuleError("failed to verify that all of {source, mem_desc} have same size in bits")
    so = strides_and_offset(src_t)
    if so is not None and list(so[0]) != canonical_strides(src_t.shape):
        raise _RuleError("source memref must be contiguous.")


@_rule("xegpu_mem_desc_subview")
def _mem_desc_subview(op: Operation, ctx: Any) -> None:
    """MemDescSubviewOp::verify: rank and shape do not exceed the source's; strides are inherited."""
    src_t = _operand(op, "src").type
    res_t = op.results[0].type
    _check_mem_desc_type(src_t)
    _check_mem_desc_type(res_t)
    if _offset_count(op) != src_t.rank:
        raise _RuleError(f"expected {src_t.rank} offsets, got {_offset_count(op)}")
    if src_t.rank < res_t.rank:
        raise _RuleError("result rank must not exceed source rank.")
    tail = list(src_t.shape[src_t.rank - res_t.rank:])
    if any(r > s for r, s in zip(res_t.shape, tail, strict=True)):
        raise _RuleError("result shape must not exceed source shape.")
    if src_t.element_type != res_t.element_type:
        raise _RuleError("result element type must match the source element type.")
    if mem_desc_strides(src_t)[src_t.rank - res_t.rank:] != mem_desc_strides(res_t):
        raise _RuleError("result must inherit the source strides.")


def _matrix_params(op: Operation, data_t: T.Type, md: T.MemDescType) -> None:
    """IsValidMatrixOpParams + element type and offsets checks (spec §4.4 load_matrix / store_matrix)."""
    _check_mem_desc_type(md)
    _same_element_type(op, md, data_t, "mem_desc, res" if op.name == "xegpu.load_matrix" else "mem_desc, data")
    if _offset_count(op) != md.rank:
        raise _RuleError(f"expected {md.rank} offsets, got {_offset_count(op)}")
    sbio = "subgroup_block_io" in op.attributes
    if not isinstance(data_t, T.VectorType):
        if sbio:
            raise _RuleError("subgroup_block_io are only allowed when result is a VectorType.")
        return
    if md.rank < 2:
        raise _RuleError("mem_desc must be at least 2D.")
    block = _mem_layout_param(md, "block") or []
    strides = mem_desc_strides(md)
    lay = _layout_of(op.attributes.get("layout"))
    if sbio and lay is not None:
        lane_data = lay.effective_lane_data
        lane_layout = lay.effective_lane_layout
        if lane_data and len(lane_data) != md.rank:
            raise _RuleError(f"expected a layout of rank {md.rank} with subgroup_block_io, "
                             f"got {op.attributes['layout']}")
        if lane_data:
            if any(x != 1 for x in lane_data[:-1]):
                raise _RuleError("With subgroup_block_io, accessed data must be contiguous and coalesced.")
            for i in range(len(lane_data)):
                if i >= len(block) or lane_layout[i] != block[i]:
                    raise _RuleError("With subgroup_block_io, the block shape must match the lane layout.")
                if lane_layout[i] != 1 and strides[i] != 1:
                    raise _RuleError("With subgroup_block_io, the distributed dimensions must be contiguous.")
    if data_t.rank == 2:
        tail = list(md.shape[-2:])
        if any(d > m for d, m in zip(data_t.shape, tail, strict=True)):
            raise _RuleError("data shape must not exceed mem_desc shape.")
    else:
        if sbio and not block:
            raise _RuleError("mem_desc must have block attribute when subgroup_block_io is set.")
        if sbio and strides[0] == 1:
            raise _RuleError("mem_desc should be row major when subgroup_block_io is set.")
    if data_t.rank == 2 or (lay is not None and lay.rank == data_t.rank):
        _check_anchor(op, "layout", list(data_t.shape), "Value shape")


@_rule("xegpu_load_matrix")
def _load_matrix(op: Operation, ctx: Any) -> None:
    """LoadMatrixOp::verify."""
    _matrix_params(op, op.results[0].type, _operand(op, "mem_desc").type)


@_rule("xegpu_store_matrix")
def _store_matrix(op: Operation, ctx: Any) -> None:
    """StoreMatrixOp::verify."""
    _matrix_params(op, _operand(op, "data").type, _operand(op, "mem_desc").type)
