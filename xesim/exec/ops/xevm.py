"""XeVM ops (shared/spec/upstream-xegpu-xevm.md §4) at lane level (SIMT, §2.20): each work-item holds its fragment;
the subgroup-collective ops see the whole subgroup on the instance axis (:mod:`xesim.exec.axis`) and run on the
existing hardware models — never a second copy of them:

* ``blockload2d`` (§4.1): the GRF image of :func:`xesim.hw.block2d.load_image` (surface bounds, zero fill,
  transpose, VNNI = ``pack_register``, the target's rules checked by :mod:`xesim.exec.blocks`), cut per block (no
  padding between blocks, §4.1) into per-lane units by :func:`xesim.hw.layout.lane_component_of_image`: plain and
  transposed rows padded to a power of two, one element per lane (``Wp <= 16``) or ``Wp/16`` adjacent ones, VNNI
  one dword per lane per register row.  The lane's bytes, in order, are the result vector (little-endian).
* ``blockstore2d`` (§4.2): the inverse of the plain mapping, written by :func:`xesim.hw.block2d.store_values`
  (elements outside the surface dropped).  ``blockprefetch2d`` and ``prefetch``: no functional effect.
* ``blockload`` / ``blockstore`` (§4.4): lane i, component k <-> element ``ptr[i + 16 k]``.
* ``mma`` (§4.5): the containers (``vector<8xi16>`` A, ``vector<8xi32>`` B...) read as the element types of
  ``types`` (sub-byte types: two or four per byte, lowest first), put together by
  :class:`xesim.hw.layout.DpasLayout` and multiplied by the target's DPAS model (:class:`xesim.numerics.dpas.DpasCall`).
* ``mma_mx`` (§4.6, §5.3): the lane rule of :func:`xesim.exec.ops.xegpu_mx.lane_dpas_mx` (scales of A row i on lane
  i < M, of B column j on lane j; vector component s = K block s) and :func:`xesim.numerics.mx.dpas_mx`.
* ``truncf`` / ``extf`` (§4.7, §4.8): round-to-nearest-even with the overflow/NaN rules of ``arith.truncf``
  (§5.2 A, :func:`xesim.numerics.conversions.round_float`); a bf16 source is first rounded to f16 when the target's
  ``xevm.truncf_bf16_via_f16`` says so (the lowering's double rounding, §4.7); e2m1 codes two per byte, element
  2j in the low nibble.
* ``bitcast_shuffle`` (§4.9): the subgroup's units ``c·16 + i`` (component c of lane i) re-cut into result-sized
  units in the same order.
* ``memfence``: a scheduling point (memory is sequentially consistent); special registers as the ``gpu`` ids.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.axis import Varying, require_whole_subgroup, stacked
from xesim.exec.faults import ExecFault
from xesim.exec.ops.gpu import _ids, _thread, _uniform_id
from xesim.exec.ops.memref import compile_error, enum_text
from xesim.exec.registry import impl
from xesim.exec.values import dtype_of
from xesim.hw.memory import MemoryFault
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.numerics import conversions as C

SUBGROUP = 16  # XeVM's subgroup size (§4.0)
NEEDS_LANES = "needs a lane-level kernel: every work-item of the subgroup holds its fragment (§4)"

#: xevm::ElemType names (§4.0) as MLIR element types
ELEM_TYPES = {"bf16": T.BF16, "f16": T.F16, "s8": T.IntegerType(8), "u8": T.IntegerType(8, "u"),
              "s4": T.IntegerType(4), "u4": T.IntegerType(4, "u"), "tf32": T.FloatType("tf32"), "f32": T.F32,
              "s32": T.I32, "e2m1": T.FloatType("f4E2M1FN"), "bf8": T.FloatType("f8E5M2"),
              "f8": T.FloatType("f8E4M3FN")}
BITS = {"bf16": 16, "f16": 16, "s8": 8, "u8": 8, "s4": 4, "u4": 4, "tf32": 32, "f32": 32, "s32": 32, "e2m1": 4,
        "bf8": 8, "f8": 8}


# ============================================================================ helpers
def _require_lanes(op: Any, cx: Any) -> None:
    if cx.group != SUBGROUP:
        raise compile_error(op, NEEDS_LANES)


def _lane_bytes(v: Any, total: int, t: T.Type) -> np.ndarray:
    """``[total, bytes]``: every lane's value of type ``t`` as bytes."""
    dt = dtype_of(T.element_type_of(t))
    arr = np.ascontiguousarray(np.asarray(stacked(v, total)).astype(dt, copy=False))
    return arr.reshape(total, -1).view(np.uint8)


def _from_lane_bytes(raw: np.ndarray, t: T.Type) -> Varying:
    """Per-lane values of type ``t`` from ``[lanes, bytes]``."""
    et = T.element_type_of(t)
    arr = np.ascontiguousarray(raw).view(dtype_of(et))
    if isinstance(t, T.VectorType):
        return Varying.from_stack(arr.reshape(raw.shape[0], *t.shape))
    return Varying.from_stack(arr.reshape(-1))


def _uniform_ints(fr: list, slots: list[int], groups: int) -> np.ndarray:
    """``[groups, len(slots)]``: operands every lane of a subgroup must agree on (cooperative ops, §4.1)."""
    from xesim.exec.blocks import group_ints

    return np.stack([group_ints(fr[s], groups, SUBGROUP) for s in slots], axis=1)


def unpack_codes(raw: np.ndarray, bits: int) -> np.ndarray:
    """Sub-byte codes of bytes ``raw [..., n]`` -> ``[..., n·8/bits]`` (lowest bits first, §4.5, §4.7)."""
    raw = np.asarray(raw, np.uint8)
    if bits == 8:
        return raw
    per = 8 // bits
    shifts = np.arange(per, dtype=np.uint8) * bits
    out = (raw[..., None] >> shifts) & ((1 << bits) - 1)
    return out.reshape(*raw.shape[:-1], -1).astype(np.uint8)


def pack_codes(codes: np.ndarray, bits: int) -> np.ndarray:
    """Inverse of :func:`unpack_codes`."""
    codes = np.asarray(codes, np.uint8)
    if bits == 8:
        return codes
    per = 8 // bits
    c = codes.reshape(*codes.shape[:-1], -1, per).astype(np.uint8)
    out = np.zeros(c.shape[:-1], np.uint8)
    for j in range(per):
        out |= (c[..., j] & ((1 << bits) - 1)) << (j * bits)
    return out


def typed_elements(raw: np.ndarray, name: str) -> np.ndarray:
    """Bytes ``[..., n]`` read as elements of the ``xevm::ElemType`` ``name`` (sub-byte types unpacked; signed
    4-bit values sign-extended; e2m1 as ml_dtypes float4)."""
    et = ELEM_TYPES[name]
    bits = BITS[name]
    if bits >= 8:
        return np.ascontiguousarray(raw).view(dtype_of(et))
    codes = unpack_codes(raw, bits)
    if name == "e2m1":
        return codes.view(dtype_of(et))
    if name == "s4":
        return ((codes.astype(np.int8) << 4) >> 4).astype(np.int8)
    return codes


# ============================================================================ 2D block messages
def _block(op: Any) -> Any:
    from xesim.hw.block2d import Block

    a = op.attributes
    esz = a["elem_size_in_bits"].value // 8
    vb = a["v_blocks"].value if "v_blocks" in a else 1
    tr = bool(a["transpose"].value) if "transpose" in a else False
    pk = bool(a["pack_register"].value) if "pack_register" in a else False
    return Block(esz, a["tile_width"].value, a["tile_height"].value, vb, tr, pk)


def lane_units_of_image(image: np.ndarray, block: Any, grf_bytes: int) -> np.ndarray:
    """``[16, bytes]``: the bytes each lane receives from a 2D block load image (module docstring, §4.1)."""
    from xesim.hw.block2d import geometry
    from xesim.hw.layout import lane_unit_elems

    g = geometry(block, grf_bytes)
    s = block.elem_bytes
    blocks = image.reshape(block.count, -1)[:, : g.block_size * s]
    unit = 4 if block.vnni else lane_unit_elems(g.row_pitch, SUBGROUP) * s
    per_lane = []
    for b in blocks:
        units = -(-b.size // unit)
        units = -(-units // SUBGROUP) * SUBGROUP  # rows missing at the end of the last register row: 0
        buf = np.zeros(units * unit, np.uint8)
        buf[: b.size] = b
        # unit c·16 + i goes to lane i as its component c (spec/pvc-hardware.md §1.6, layout.lane_component_of_image)
        per_lane.append(np.swapaxes(buf.reshape(units // SUBGROUP, SUBGROUP, unit), 0, 1).reshape(SUBGROUP, -1))
    return np.concatenate(per_lane, axis=1)


def _block_fault(exc: Exception) -> ExecFault:
    return ExecFault(f"{exc} (a 2D block message reads or writes only inside live allocations; elements outside the "
                     "surface are not accessed)")


@impl("xevm.blockload2d", axis=True)
def _blockload2d(op: Any, cx: Any):
    """2D block load (module docstring)."""
    from xesim.exec.blocks import checker, report
    from xesim.hw.block2d import Surface, load_image

    _require_lanes(op, cx)
    engine = cx.engine
    ks = engine.kstate
    block = _block(op)
    ins = cx.slots(op.operands)
    res = cx.slot(op.results[0])
    rt = op.results[0].type
    nbytes = rt.num_elements * dtype_of(rt.element_type).itemsize
    grf = engine.target.grf.register_bytes

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        g = ks.groups
        vals = _uniform_ints(fr, ins, g)
        out = np.zeros((g, SUBGROUP, nbytes), np.uint8)
        for gi in range(g):
            ptr, bw, bh, bp, x, y = (int(v) for v in vals[gi])
            surf = Surface(ptr, bw, bh, bp)
            what = f"2D block load ({block.height}x{block.width}x{block.count}, {8 * block.elem_bytes}-bit) at " \
                   f"({x}, {y})"
            report(engine, op, checker(engine)(surf, block, x, y, "load"), what)
            try:
                img = load_image(engine.memory, surf, block, x, y, target=engine.target)
            except MemoryFault as exc:
                raise _block_fault(exc) from None
            lanes = lane_units_of_image(img, block, grf)
            take = min(nbytes, lanes.shape[1])
            out[gi, :, :take] = lanes[:, :take]
        fr[res] = _from_lane_bytes(out.reshape(g * SUBGROUP, nbytes), rt)

    return step


@impl("xevm.blockstore2d", axis=True)
def _blockstore2d(op: Any, cx: Any):
    """2D block store: the inverse of the plain load mapping (module docstring)."""
    from xesim.exec.blocks import checker, report
    from xesim.hw.block2d import Surface, next_pow2, store_values
    from xesim.hw.layout import lane_unit_elems

    _require_lanes(op, cx)
    engine = cx.engine
    ks = engine.kstate
    block = _block(op)
    ins = cx.slots(op.operands[:6])
    s_val = cx.slot(op.operands[6])
    vt = op.operands[6].type
    s = block.elem_bytes
    wp = next_pow2(block.width)
    unit = lane_unit_elems(wp, SUBGROUP) * s
    need = -(-(wp * block.height * s) // (unit * SUBGROUP)) * unit  # bytes per lane the message takes
    mdt = np.dtype(f"u{s}")

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        g = ks.groups
        vals = _uniform_ints(fr, ins, g)
        raw = _lane_bytes(fr[s_val], g * SUBGROUP, vt).reshape(g, SUBGROUP, -1)
        if raw.shape[2] < need:
            raise ExecFault(f"the stored value holds {raw.shape[2]} bytes per lane, the {block.height}x{block.width} "
                            f"block of {8 * s}-bit elements takes {need} (upstream-xegpu-xevm.md §4.2)")
        for gi in range(g):
            ptr, bw, bh, bp, x, y = (int(v) for v in vals[gi])
            surf = Surface(ptr, bw, bh, bp)
            what = f"2D block store ({block.height}x{block.width}, {8 * s}-bit) at ({x}, {y})"
            report(engine, op, checker(engine)(surf, block, x, y, "store"), what)
            lanes = raw[gi, :, :need].reshape(SUBGROUP, -1, unit)
            image = np.swapaxes(lanes, 0, 1).reshape(-1)  # unit c·16 + i = lane i's component c
            tile = image[: wp * block.height * s].view(mdt).reshape(block.height, wp)[:, : block.width]
            try:
                store_values(engine.memory, surf, type(block)(s, block.width, block.height), x, y, tile)
            except MemoryFault as exc:
                raise _block_fault(exc) from None

    return step


@impl("xevm.blockprefetch2d", "xevm.prefetch")
def _prefetch(op: Any, cx: Any):
    return None  # a cache hint: no functional effect (§4.3, §4.10)


# ============================================================================ 1-D block I/O
def _block_io_shape(t: T.Type) -> tuple[np.dtype, int]:
    et = T.element_type_of(t)
    return dtype_of(et), (t.num_elements if isinstance(t, T.VectorType) else 1)


@impl("xevm.blockload", axis=True)
def _blockload(op: Any, cx: Any):
    """Lane i, component k <- element ``ptr[i + 16 k]`` (§4.4)."""
    _require_lanes(op, cx)
    engine = cx.engine
    ks = engine.kstate
    s_p, res = cx.slot(op.operands[0]), cx.slot(op.results[0])
    rt = op.results[0].type
    dt, n = _block_io_shape(rt)

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        g = ks.groups
        ptrs = _uniform_ints(fr, [s_p], g)[:, 0]
        out = np.empty((g, SUBGROUP, n), dt)
        for gi in range(g):
            try:
                raw = engine.memory.read(int(ptrs[gi]), SUBGROUP * n * dt.itemsize)
            except MemoryFault as exc:
                raise ExecFault(f"subgroup block read of {SUBGROUP} x {n} elements: {exc}") from None
            out[gi] = raw.view(dt).reshape(n, SUBGROUP).T
        fr[res] = _from_lane_bytes(out.reshape(g * SUBGROUP, -1).view(np.uint8), rt)

    return step


@impl("xevm.blockstore", axis=True)
def _blockstore(op: Any, cx: Any):
    """Element ``ptr[i + 16 k]`` <- lane i, component k (§4.4)."""
    _require_lanes(op, cx)
    engine = cx.engine
    ks = engine.kstate
    s_p, s_v = cx.slot(op.operands[0]), cx.slot(op.operands[1])
    vt = op.operands[1].type
    dt, n = _block_io_shape(vt)

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        g = ks.groups
        ptrs = _uniform_ints(fr, [s_p], g)[:, 0]
        vals = _lane_bytes(fr[s_v], g * SUBGROUP, vt).view(dt).reshape(g, SUBGROUP, n)
        for gi in range(g):
            try:
                engine.memory.write(int(ptrs[gi]), np.ascontiguousarray(vals[gi].T).reshape(-1))
            except MemoryFault as exc:
                raise ExecFault(f"subgroup block write of {SUBGROUP} x {n} elements: {exc}") from None

    return step


# ============================================================================ DPAS
def _struct(op: Any, name: str) -> dict[str, Any]:
    from xesim.verify.rules_xevm import struct_fields

    return struct_fields(op, name)


@impl("xevm.mma", axis=True)
def _mma(op: Any, cx: Any):
    """``D = C + A·B`` on lane fragments through the DPAS lane layout and the target's DPAS model (§4.5)."""
    from xesim.exec.ops.xegpu_dpas import _FragmentsToMatrix
    from xesim.hw.layout import DpasLayout, LayoutMapError
    from xesim.numerics.dpas import DpasCall, model_from_target

    _require_lanes(op, cx)
    engine = cx.engine
    ks = engine.kstate
    target = engine.target
    shape, types = _struct(op, "shape"), _struct(op, "types")
    m, n, k = shape["m"], shape["n"], shape["k"]
    names = {x: types.get(x) for x in ("a", "b", "c", "d")}
    names["c"] = names["c"] or names["d"]
    from xesim.decode.xegpu import dpas_type_name

    model_names = {x: dpas_type_name(ELEM_TYPES[v]) for x, v in names.items()}
    if n != target.dpas.exec_size:
        raise compile_error(op, f"n = {n}, but the DPAS of {target.name} has execution size {target.dpas.exec_size}")
    try:
        model = model_from_target(target, engine.config.dpas_model)
        layout = DpasLayout(m, n, k)
    except (ValueError, KeyError, LayoutMapError) as exc:
        raise compile_error(op, f"no DPAS for shape m={m} n={n} k={k}: {exc}") from None
    opnds = {"a": op.operand_group("a")[0], "b": op.operand_group("b")[0]}
    c_v = op.operand_group("c")
    if c_v:
        opnds["c"] = c_v[0]
    for x, v in opnds.items():
        have = v.type.num_elements * T.bit_width(v.type.element_type)
        want = layout.fragment_length(x) * BITS[names[x]]
        if have != want:
            raise compile_error(op, f"operand {x.upper()} holds {have} bits per lane; a {m}x{n}x{k} {names[x]} "
                                    f"fragment takes {want} (spec/pvc-hardware.md §3.4)")
    rt = op.results[0].type
    if rt.num_elements * T.bit_width(rt.element_type) != m * BITS[names["d"]]:
        raise compile_error(op, f"the result holds {rt.num_elements * T.bit_width(rt.element_type)} bits per lane; "
                                f"{m} {names['d']} values take {m * BITS[names['d']]}")
    call = DpasCall(model_names["a"], model_names["b"], model_names["c"], model_names["d"], model, target)
    to = {x: _FragmentsToMatrix(layout, x) for x in opnds}
    slots = {x: cx.slot(v) for x, v in opnds.items()}
    res = cx.slot(op.results[0])
    d_idx = layout.index_map("d")
    d_dt = dtype_of(ELEM_TYPES[names["d"]])

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        g = ks.groups
        mats = {}
        for x, v in opnds.items():
            raw = _lane_bytes(fr[slots[x]], g * SUBGROUP, v.type)
            frags = typed_elements(raw, names[x]).reshape(g, SUBGROUP, -1)
            mats[x] = to[x](frags)
        try:
            d = np.asarray(call(mats["a"], mats["b"], mats.get("c")))
        except ValueError as exc:
            raise ExecFault(str(exc)) from None
        d = d.astype(d_dt, copy=False).reshape(g, -1)
        frags = np.take(d, d_idx.reshape(-1), axis=1).reshape(g * SUBGROUP, m)
        fr[res] = _from_lane_bytes(np.ascontiguousarray(frags).view(np.uint8), rt)

    return step


@impl("xevm.mma_mx", axis=True)
def _mma_mx(op: Any, cx: Any):
    """Block-scaled DPAS on lane fragments (§4.6, §5.3), the model of ``xegpu.dpas_mx``."""
    from xesim.exec.ops.xegpu_mx import lane_dpas_mx

    _require_lanes(op, cx)
    engine = cx.engine
    ks = engine.kstate
    target = engine.target
    model = target.get("dpas_mx.numerics")
    if not target.get("dpas_mx.available"):
        engine.warn(op, f"the target {target.name} has no scaled DPAS (upstream-xegpu-xevm.md §4.12: only cri has "
                        f"it); mma_mx runs with the '{model}' model of dpas_mx.numerics")
    shape, types = _struct(op, "shape"), _struct(op, "types")
    m, k = shape["m"], shape["k"]
    if shape["n"] != SUBGROUP or k % SUBGROUP or k % 32 and k != 16:
        raise compile_error(op, f"shape m={m} n={shape['n']} k={k}: the scaled DPAS has n = 16 and k = 16, 32 or 64 "
                                "(upstream-xegpu-xevm.md §4.6)")
    a_name, b_name = types["a"], types["b"]
    dst = str(ELEM_TYPES[types["d"]])
    opnds = [op.operand_group(x) for x in ("a", "b", "c", "scale_a", "scale_b")]
    vals = [g[0] if g else None for g in opnds]
    slots = [cx.slot(v) if v is not None else None for v in vals]
    for v, name, want in ((vals[0], a_name, m * k // SUBGROUP), (vals[1], b_name, k)):
        have = v.type.num_elements * T.bit_width(v.type.element_type)
        if have != want * BITS[name]:
            raise compile_error(op, f"a {m}x16x{k} {name} operand takes {want * BITS[name]} bits per lane, "
                                    f"{v.type} holds {have}")
    rt = op.results[0].type
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        g = ks.groups
        total = g * SUBGROUP

        def lanes(i: int, name: str | None) -> np.ndarray | None:
            v = vals[i]
            if v is None:
                return None
            raw = _lane_bytes(fr[slots[i]], total, v.type)
            out = typed_elements(raw, name) if name is not None else raw
            return out.reshape(g, SUBGROUP, -1)

        af, bf = lanes(0, a_name), lanes(1, b_name)
        cf = None if vals[2] is None else stacked(fr[slots[2]], total).reshape(g, SUBGROUP, -1)
        saf, sbf = lanes(3, None), lanes(4, None)
        out = np.empty((g, SUBGROUP, m), dtype_of(rt.element_type))
        for gi in range(g):
            out[gi] = lane_dpas_mx(af[gi], bf[gi], cf[gi] if cf is not None else None, saf[gi], sbf[gi], m, dst,
                                   model)
        fr[res] = Varying.from_stack(out.reshape(total, m))

    return step


# ============================================================================ conversions
def _etype(op: Any, name: str) -> str:
    return (enum_text(op, name) or "").split()[-1]


@impl("xevm.truncf")
def _truncf(op: Any, cx: Any):
    """f16/bf16 -> fp8 / e2m1 codes (module docstring)."""
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    src, dst = _etype(op, "src_etype"), _etype(op, "dst_etype")
    fmt = str(ELEM_TYPES[dst])
    via_f16 = src == "bf16" and bool(cx.engine.target.get("xevm.truncf_bf16_via_f16"))
    rt = op.results[0].type
    bits = T.bit_width(T.element_type_of(rt))

    def step(fr: list) -> None:
        x = np.atleast_1d(np.asarray(fr[a]))
        if via_f16:
            x = C.round_float(x, "f16")
        codes = np.asarray(C.round_float(x, fmt)).view(np.uint8)
        if dst == "e2m1":
            codes = codes & 0xF
            if bits == 8:
                codes = pack_codes(codes, 4)
        raw = codes.astype(np.uint8)
        if bits == 4:  # one i4 per value: the code sign-extended into its container
            vals = ((raw.astype(np.int8) << 4) >> 4).astype(dtype_of(T.element_type_of(rt)))
        else:
            vals = raw.view(dtype_of(T.element_type_of(rt)))
        fr[o] = vals.reshape(rt.shape).copy() if isinstance(rt, T.VectorType) else int(vals[0])

    return step


@impl("xevm.extf")
def _extf(op: Any, cx: Any):
    """fp8 / e2m1 codes -> f16/bf16, exact (module docstring)."""
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    src = _etype(op, "src_etype")
    st, rt = op.operands[0].type, op.results[0].type
    bits = T.bit_width(T.element_type_of(st))
    out_dt = dtype_of(T.element_type_of(rt))
    code_dt = dtype_of(ELEM_TYPES[src])

    def step(fr: list) -> None:
        raw = np.atleast_1d(np.asarray(fr[a])).astype(np.int64).astype(np.uint8)
        codes = raw & 0xF if bits == 4 else (unpack_codes(raw, 4) if src == "e2m1" else raw)
        vals = codes.view(code_dt).astype(np.float32).astype(out_dt)
        fr[o] = vals.reshape(rt.shape) if isinstance(rt, T.VectorType) else vals[0]

    return step


@impl("xevm.bitcast_shuffle", axis=True)
def _bitcast_shuffle(op: Any, cx: Any):
    """Subgroup-wide re-cut of the lanes' bits (module docstring, §4.9)."""
    _require_lanes(op, cx)
    ks = cx.engine.kstate
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    st, rt = op.operands[0].type, op.results[0].type
    if T.bit_width(T.element_type_of(st)) % 8 or T.bit_width(T.element_type_of(rt)) % 8:
        raise compile_error(op, "bitcast_shuffle of sub-byte elements is not modelled")
    r_dt = dtype_of(T.element_type_of(rt))

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        g = ks.groups
        raw = _lane_bytes(fr[a], g * SUBGROUP, st).reshape(g, SUBGROUP, -1)
        s_item = dtype_of(T.element_type_of(st)).itemsize
        units = raw.reshape(g, SUBGROUP, -1, s_item).transpose(0, 2, 1, 3).reshape(g, -1)  # unit c·16 + i
        r = units.reshape(g, -1, SUBGROUP, r_dt.itemsize).transpose(0, 2, 1, 3).reshape(g * SUBGROUP, -1)
        fr[o] = _from_lane_bytes(np.ascontiguousarray(r), rt)

    return step


@impl("xevm.memfence")
def _memfence(op: Any, cx: Any):
    """No value effect (sequentially consistent memory); a scheduling point, as ``xegpu.fence``."""
    ks = cx.engine.kstate

    def step(fr: list) -> None:
        ks.yield_point(op)

    return step


# ============================================================================ special registers (§4.11)
for _d, _c in enumerate("xyz"):
    impl(f"xevm.local_id.{_c}", axis=True)(_ids(lambda ks, d, blk, lin, lane, sg, _d=_d: _thread(ks, lin, _d)))
    impl(f"xevm.group_id.{_c}", axis=True)(_ids(lambda ks, d, blk, lin, lane, sg, _d=_d: blk[:, _d]))
    impl(f"xevm.local_size.{_c}")(_uniform_id(lambda ks, d, _d=_d: ks.block[_d]))
    impl(f"xevm.group_count.{_c}")(_uniform_id(lambda ks, d, _d=_d: ks.grid[_d]))
impl("xevm.lane_id", axis=True)(_ids(lambda ks, d, blk, lin, lane, sg: lane))
impl("xevm.subgroup_id", axis=True)(_ids(lambda ks, d, blk, lin, lane, sg: sg))
impl("xevm.subgroup_size")(_uniform_id(lambda ks, d: ks.subgroup_size))
