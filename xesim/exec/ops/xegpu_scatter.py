r"""XeGPU scattered access: ``create_tdesc``, ``update_offset``, ``load``, ``store``, ``prefetch`` and
``atomic_rmw`` (spec/pvc-hardware.md §2, spec/programs-and-runner.md §3.3), one implementation each.

A scattered message serves one subgroup: lane ``i`` accesses ``chunk`` consecutive elements at element offset
``offsets[i]`` (§2.1); masked-off lanes do not access memory and loads return 0 for them (XeGPU→XeVM lowering,
§2.2); an unmasked lane outside its memref or allocation is a located fault naming the lane.  The message's rules
(lane count, chunk, alignment: ``[scatter]`` target parameters) are checked for every access.  Two ways of
forming the message's operands lead to the same access:

* SG, VC and WG levels: the op's operands are the subgroup's vectors — offsets and mask per lane, values
  ``[lanes, chunk]`` (``[chunk, lanes]`` with the legacy ``transpose`` unit attribute);
* lane level (SIMT): each work-item gives its own scalar offset (or its descriptor) and mask, and holds its
  ``chunk`` elements; lane ``i`` takes part when its mask bit is set *and* it is active (the execution mask).  Not
  collective: the hardware runs scattered messages under any channel mask.

``atomic_rmw``: all 16 ``arith::AtomicRMWKind``\ s under the mask, returning the old values
(:func:`xesim.hw.atomics.atomic_rmw`).  Kinds PVC has no native instruction for still execute by their definition
(a compiler emulates them with compare-and-swap loops); such uses are recorded in ``engine.notes``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.decode.xegpu import decode_scatter_access
from xesim.exec.axis import Varying, lift, slot_value, uniform_value
from xesim.exec.blocks import report
from xesim.exec.faults import ExecFault
from xesim.exec.ops.memref import compile_error, enum_text
from xesim.exec.ops.xegpu import ADDR_MASK, LANE_LEVEL, _elem_info, _level_guard, _note, _operand, _space_of
from xesim.exec.registry import impl
from xesim.exec.tdesc import NdDesc, ScatterDesc
from xesim.exec.values import MemRefValue, dtype_of, scalar
from xesim.hw.memory import MemoryFault
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias


# ============================================================================ the message
def _scatter_source(op: Any, cx: Any, src: Any, slm: bool):
    """Compile a scattered-access source (1-D memref or integer address): ``get(fr) -> (space, base,
    limit_elems | None, origin)``."""
    engine = cx.engine
    s = cx.slot(src)
    t = src.type
    if isinstance(t, T.MemRefType):
        _, isz = _elem_info(op, t.element_type)
        name = f"%{src.name}" if getattr(src, "name", None) else "the memref"

        def get_m(fr: list) -> tuple:
            m: MemRefValue = fr[s]
            n = 1
            for d in m.sizes:
                n *= d
            if m.rank == 1 and m.strides and m.strides[0] != 1:
                n = (m.sizes[0] - 1) * m.strides[0] + 1
            return m.space, m.aligned + m.offset * isz, n, name

        return get_m
    if isinstance(t, (T.IntegerType, T.IndexType)):
        def get_p(fr: list) -> tuple:
            addr = int(fr[s]) & ADDR_MASK
            space = _space_of(engine, slm)
            return space, addr, None, f"address 0x{addr:x}"

        return get_p
    raise compile_error(op, f"unsupported scattered source type {t}")


def _lane_check(space: Any, base: int, offs: np.ndarray, mask: np.ndarray, chunk: int, isz: int,
                limit: int | None, origin: str) -> None:
    """Every unmasked lane's ``chunk`` elements lie inside the source: its memref (element range) or, for a
    raw address, one live allocation.  The fault names the lane (spec §6 item 16: undefined on hardware)."""
    flat_o = offs.reshape(-1)
    flat_m = mask.reshape(-1)
    if limit is not None:
        bad = np.nonzero(flat_m & ((flat_o < 0) | (flat_o + chunk > limit)))[0]
        if bad.size:
            i = int(bad[0])
            o = int(flat_o[i])
            raise ExecFault(f"lane {i}: elements [{o}, {o + chunk}) are out of bounds of {origin} "
                            f"({limit} elements); the lane is not masked off")
        return
    for i in np.nonzero(flat_m)[0]:
        o = int(flat_o[i])
        try:
            space.resolve(base + o * isz, chunk * isz)
        except MemoryFault as exc:
            raise ExecFault(f"lane {int(i)}: element offset {o} from {origin}: {exc}") from None


def _scatter_checks(engine: Any, op: Any, isz: int, chunk: int, lanes: int, space: Any, kind: str,
                    base: int, offs: np.ndarray, mask: np.ndarray) -> int:
    """The message rules (``check_scatter``) and natural alignment (``check_alignment``) of a scattered access;
    returns the address width of the space (``[scatter]`` target parameters, spec §2.1–§2.3)."""
    from xesim.hw.scatter import check_alignment, check_scatter

    if "layout" in op.attributes:  # workgroup level: one message per instruction tile (xesim/exec/workgroup.py)
        from xesim.exec.workgroup import scatter_message_lanes

        lanes = scatter_message_lanes(op, tuple(offs.shape), chunk, lanes)
    target = engine.target
    slm = space is not engine.memory
    bits = target.scatter.slm_address_bits if slm else 64
    report(engine, op, check_scatter(target, isz, chunk, lanes, "slm" if slm else "global", kind),
            f"scattered {kind} of {lanes} lanes x {chunk} elements")
    if target.scatter.natural_alignment:
        report(engine, op, check_alignment(base, offs.reshape(-1), mask.reshape(-1), isz, address_bits=bits,
                                            severity=target.scatter.severity.alignment), f"scattered {kind}")
    return bits


def _lane_fault(exc: Exception) -> ExecFault:
    lane = getattr(exc, "lane", None)
    if lane is None:
        return ExecFault(str(exc))
    return ExecFault(f"lane {lane} (address 0x{exc.address:x}) is not masked off but: {exc}")  # type: ignore[attr-defined]


def _checked(engine: Any, op: Any, kind: str, space: Any, base: int, offs: np.ndarray, mask: np.ndarray, chunk: int,
             isz: int, limit: int | None, origin: str, lanes: int) -> int:
    """Validate one message: every unmasked lane in bounds, the message rules and alignment; its address width."""
    _lane_check(space, base, offs, mask, chunk, isz, limit, origin)
    return _scatter_checks(engine, op, isz, chunk, lanes, space, kind, base, offs, mask)


def _gather(engine: Any, space: Any, base: int, offs: np.ndarray, mask: np.ndarray, chunk: int, dt: np.dtype,
            lanes: int, bits: int) -> np.ndarray:
    """The message's ``[lanes, chunk]`` values (masked-off lanes: the target's ``scatter.masked_load_value``;
    "unchanged" keeps the destination registers, which an SSA result does not have: they read 0)."""
    from xesim.hw.scatter import gather

    try:
        vals = gather(space, base, offs.reshape(-1), mask.reshape(-1), chunk, dt,
                      masked_value=engine.target.scatter.masked_load_value, previous=np.zeros((lanes, chunk), dt),
                      address_bits=bits)
    except MemoryFault as exc:
        raise _lane_fault(exc) from None
    return np.asarray(vals).reshape(lanes, chunk)


def _scatter(engine: Any, space: Any, base: int, offs: np.ndarray, mask: np.ndarray, chunk: int, data: np.ndarray,
             bits: int) -> None:
    """Write the unmasked lanes' ``data [lanes, chunk]`` (lanes in the target's ``scatter.store_lane_order``)."""
    from xesim.hw.scatter import scatter

    try:
        scatter(space, base, offs.reshape(-1), mask.reshape(-1), chunk, np.ascontiguousarray(data),
                lane_order=engine.target.scatter.store_lane_order, address_bits=bits)
    except MemoryFault as exc:
        raise _lane_fault(exc) from None


def _atomic(engine: Any, op: Any, kind: str, space: Any, base: int, offs: np.ndarray, mask: np.ndarray, chunk: int,
            isz: int, limit: int | None, origin: str, data: np.ndarray, dt: np.dtype, noted: set) -> np.ndarray:
    """The atomic message (spec §2.4): every unmasked lane's ``chunk`` elements updated; the old ``[lanes, chunk]``."""
    from xesim.hw.atomics import atomic_notes, atomic_options, atomic_rmw

    target = engine.target
    lanes = len(offs)
    _lane_check(space, base, offs, mask, chunk, isz, limit, origin)
    slm = space is not engine.memory
    sname = "slm" if slm else "global"
    if sname not in noted:
        noted.add(sname)
        try:
            texts = atomic_notes(target, kind, str(op.operand_group("tensorDesc")[0].type.element_type), sname)
        except ValueError as exc:
            raise ExecFault(str(exc)) from None
        for text in texts:
            _note(engine, f"{op.loc}: {text}")
    eoffs = offs.reshape(lanes, 1) + np.arange(chunk, dtype=np.int64)[None, :]
    emask = np.repeat(mask.reshape(lanes, 1), chunk, axis=1)
    try:
        old = atomic_rmw(space, base, eoffs.reshape(-1), emask.reshape(-1), kind, data.reshape(-1), dt,
                         address_bits=target.scatter.slm_address_bits if slm else 64, **atomic_options(target))
    except MemoryFault as exc:
        raise _lane_fault(exc) from None
    except ValueError as exc:
        raise ExecFault(str(exc)) from None
    return np.asarray(old, dt).reshape(lanes, chunk)


# ============================================================================ operands of a subgroup
@impl("xegpu.create_tdesc")
def _create_tdesc(op: Any, cx: Any):
    """Scattered descriptor: base + per-lane element offsets (+ chunk size from the type)."""
    _level_guard(op)
    src = _operand(op, "source")
    td: T.TensorDescType = op.results[0].type
    _, isz = _elem_info(op, td.element_type)
    get_src = _scatter_source(op, cx, src, td.memory_space == "slm")
    s_off = cx.slot(_operand(op, "offsets"))
    res = cx.slot(op.results[0])
    chunk = td.chunk_size

    def step(fr: list) -> None:
        space, base, limit, origin = get_src(fr)
        offs = np.asarray(fr[s_off], np.int64).copy()
        fr[res] = ScatterDesc(space, base, offs, chunk, isz, limit, origin)

    return step


@impl("xegpu.update_offset")
def _update_offset(op: Any, cx: Any):
    """A scattered descriptor with its per-lane offsets moved."""
    s_td = cx.slot(_operand(op, "TensorDesc"))
    s_off = cx.slot(_operand(op, "offsets"))
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[res] = fr[s_td].moved(np.asarray(fr[s_off], np.int64))

    return step


def _scatter_operands(op: Any, cx: Any, src_name: str, vt: Any):
    """Common decoding of xegpu.load / store / prefetch: returns ``get(fr) -> (space, base, offsets, limit,
    origin)`` plus the element info, chunk, lane shape and the legacy transpose flag."""
    src = _operand(op, src_name)
    st = src.type
    offsets = _operand(op, "offsets")
    if isinstance(st, T.TensorDescType):
        if not st.is_scattered:
            raise compile_error(op, "expects a scattered tensor descriptor")
        _, isz = _elem_info(op, st.element_type)
        acc = decode_scatter_access(op)
        chunk, lane_shape = acc.chunk, acc.lane_shape
        s = cx.slot(src)

        def get_td(fr: list) -> tuple:
            d: ScatterDesc = fr[s]
            return d.space, d.base, d.offsets, d.limit, d.origin

        return get_td, isz, chunk, lane_shape
    if offsets is None:
        raise compile_error(op, "expects offsets")
    if not isinstance(offsets.type, T.VectorType):
        raise compile_error(op, LANE_LEVEL)
    et = st.element_type if isinstance(st, T.MemRefType) else T.element_type_of(vt) if vt is not None else T.I8
    _, isz = _elem_info(op, et)
    acc = decode_scatter_access(op)
    chunk, lane_shape = acc.chunk, acc.lane_shape
    get_src = _scatter_source(op, cx, src, False)
    s_off = cx.slot(offsets)

    def get_buf(fr: list) -> tuple:
        space, base, limit, origin = get_src(fr)
        return space, base, np.asarray(fr[s_off], np.int64), limit, origin

    return get_buf, isz, chunk, lane_shape


def _mask_getter(cx: Any, op: Any, lane_shape: tuple[int, ...]):
    m = _operand(op, "mask")
    if not isinstance(m.type, T.VectorType):
        s = cx.slot(m)
        return lambda fr: np.full(lane_shape, bool(fr[s]))
    s = cx.slot(m)
    if m.type.num_elements == 1 and tuple(m.type.shape) != lane_shape:
        return lambda fr: np.full(lane_shape, bool(np.asarray(fr[s]).reshape(-1)[0]))
    return lambda fr: np.asarray(fr[s], bool)




# ============================================================================ operands of the lanes (SIMT)
def _groups(ks: Any) -> list[tuple[int, tuple[int, ...]]]:
    """Each subgroup on the axis with active lanes: (its first slot, its active slots)."""
    g = ks.group
    out: list[tuple[int, list[int]]] = []
    for i in ks.mask:
        first = i - i % g
        if not out or out[-1][0] != first:
            out.append((first, []))
        out[-1][1].append(i)
    return [(first, tuple(active)) for first, active in out]


def _lane_scatter_plan(op: Any, cx: Any, src_name: str, vt: Any):
    """Compile the addressing of a SIMT scattered access: returns ``(get(fr, first, active, lanes) -> (space, base,
    offsets[lanes], limit, origin), isz, chunk)`` for the subgroup whose first slot is ``first`` and whose active
    slots are ``active``."""
    src = _operand(op, src_name)
    st = src.type
    s_src = cx.slot(src)
    if isinstance(st, T.TensorDescType):
        if not st.is_scattered:
            raise compile_error(op, "expects a scattered tensor descriptor")
        _, isz = _elem_info(op, st.element_type)
        chunk = decode_scatter_access(op).chunk

        def get_td(fr: list, first: int, active: tuple[int, ...], lanes: int) -> tuple:
            d = fr[s_src]
            if isinstance(d, Varying):  # one descriptor per lane, each with that lane's offset
                d0 = d.lanes[active[0]]
                offs = np.zeros(lanes, np.int64)
                for i in active:
                    di = d.lanes[i]
                    if di.base != d0.base or di.space is not d0.space:
                        raise ExecFault("the lanes' scattered descriptors have different bases")
                    offs[i - first] = int(np.asarray(di.offsets).reshape(-1)[0])
                return d0.space, d0.base, offs, d0.limit, d0.origin
            o = np.asarray(d.offsets, np.int64).reshape(-1)
            if o.size != lanes:
                raise ExecFault(f"the scattered descriptor has {o.size} offsets for a subgroup of {lanes} lanes")
            return d.space, d.base, o, d.limit, d.origin

        return get_td, isz, chunk
    offsets = _operand(op, "offsets")
    if offsets is None:
        raise compile_error(op, "expects offsets")
    et = st.element_type if isinstance(st, T.MemRefType) else T.element_type_of(vt)
    _, isz = _elem_info(op, et)
    chunk = decode_scatter_access(op).chunk
    get_src = _scatter_source(op, cx, src, False)
    s_off = cx.slot(offsets)

    def get_buf(fr: list, first: int, active: tuple[int, ...], lanes: int) -> tuple:
        v = fr[s_src]
        if isinstance(v, Varying):
            fr[s_src] = uniform_value(v, active, "the base of a scattered access")
        try:
            space, base, limit, origin = get_src(fr)
        finally:
            fr[s_src] = v
        off = fr[s_off]
        offs = np.zeros(lanes, np.int64)
        for i in active:
            offs[i - first] = int(np.asarray(slot_value(off, i)).reshape(-1)[0])
        return space, base, offs, limit, origin

    return get_buf, isz, chunk


def _lane_mask(op: Any, cx: Any):
    m = _operand(op, "mask")
    s = cx.slot(m) if m is not None else None

    def get(fr: list, first: int, active: tuple[int, ...], lanes: int) -> np.ndarray:
        out = np.zeros(lanes, bool)
        v = fr[s] if s is not None else True
        if not isinstance(v, Varying) and isinstance(v, np.ndarray) and v.size == lanes:
            full = v.reshape(-1).astype(bool)  # one uniform vector: bit i is lane i's
            for i in active:
                out[i - first] = full[i - first]
            return out
        for i in active:
            out[i - first] = bool(np.asarray(slot_value(v, i)).reshape(-1)[0])
        return out

    return get


def _lane_value_of(vals: np.ndarray, t: Any) -> Any:
    if isinstance(t, T.VectorType):
        return vals.reshape(t.shape)
    return scalar(vals.reshape(-1)[0].item() if vals.dtype.kind in "iub" else vals.reshape(-1)[0], t)


def _scatter_access(op: Any, cx: Any, src_name: str, vt: Any, kind: str):
    """Compile a SIMT scattered load / store: ``(prepare(fr, first, active) -> (lanes, space, base, offsets, mask,
    address bits), chunk, dtype)``; ``prepare`` validates every active, unmasked lane of the subgroup (bounds,
    message rules, alignment)."""
    engine = cx.engine
    get, isz, chunk = _lane_scatter_plan(op, cx, src_name, vt)
    if (vt.num_elements if isinstance(vt, T.VectorType) else 1) != chunk:
        what = "result" if kind == "load" else "value"
        raise compile_error(op, f"each lane {kind}s {chunk} element(s) (chunk_size) but the {what} is {vt}")
    get_mask = _lane_mask(op, cx)
    lanes = cx.group

    def prepare(fr: list, first: int, active: tuple[int, ...]) -> tuple:
        space, base, offs, limit, origin = get(fr, first, active, lanes)
        mask = get_mask(fr, first, active, lanes)
        _lane_check(space, base, offs, mask, chunk, isz, limit, origin)
        bits = _scatter_checks(engine, op, isz, chunk, lanes, space, kind, base, offs, mask)
        return lanes, space, base, offs, mask, bits

    return prepare, chunk, dtype_of(T.element_type_of(vt))


# ============================================================================ the ops
@impl("xegpu.load", axis=True)
def _load(op: Any, cx: Any):
    """Gather (module docstring)."""
    engine = cx.engine
    ks = engine.kstate
    _level_guard(op)
    vt = op.results[0].type
    res = cx.slot(op.results[0])
    if decode_scatter_access(op).simt:
        if cx.group == 1:
            raise compile_error(op, LANE_LEVEL)
        prepare, chunk, dt = _scatter_access(op, cx, "source", vt, "load")

        def simt_step(fr: list) -> None:
            out: list = [None] * ks.slots
            for first, active in _groups(ks):
                lanes, space, base, offs, mask, bits = prepare(fr, first, active)
                vals = _gather(engine, space, base, offs, mask, chunk, dt, lanes, bits)
                for i in active:
                    out[i] = _lane_value_of(vals[i - first].copy(), vt)
            fr[res] = Varying(out)

        return simt_step
    if not isinstance(vt, T.VectorType) or not isinstance(_operand(op, "mask").type, T.VectorType):
        raise compile_error(op, LANE_LEVEL)
    get, isz, chunk, lane_shape = _scatter_operands(op, cx, "source", vt)
    dt = dtype_of(vt.element_type)
    get_mask = _mask_getter(cx, op, lane_shape)
    lanes = int(np.prod(lane_shape))
    transposed = "transpose" in op.attributes
    out_shape = tuple(vt.shape)

    def one(fr: list) -> None:
        space, base, offs, limit, origin = get(fr)
        mask = get_mask(fr)
        bits = _checked(engine, op, "load", space, base, offs, mask, chunk, isz, limit, origin, lanes)
        vals = _gather(engine, space, base, offs, mask, chunk, dt, lanes, bits)
        if transposed:
            vals = vals.T
        fr[res] = np.ascontiguousarray(vals).reshape(out_shape)

    return one if cx.width == 1 else lift(op, cx, one)


@impl("xegpu.store", axis=True)
def _store(op: Any, cx: Any):
    """Scatter: unmasked lanes write their ``chunk`` elements (module docstring)."""
    engine = cx.engine
    ks = engine.kstate
    _level_guard(op)
    val = _operand(op, "value")
    vt = val.type
    s_val = cx.slot(val)
    if decode_scatter_access(op).simt:
        if cx.group == 1:
            raise compile_error(op, LANE_LEVEL)
        prepare, chunk, dt = _scatter_access(op, cx, "dest", vt, "store")

        def simt_step(fr: list) -> None:
            v = fr[s_val]
            for first, active in _groups(ks):
                lanes, space, base, offs, mask, bits = prepare(fr, first, active)
                data = np.zeros((lanes, chunk), dt)
                for i in active:
                    data[i - first] = np.asarray(slot_value(v, i), dt).reshape(chunk)
                _scatter(engine, space, base, offs, mask, chunk, data, bits)

        return simt_step
    if not isinstance(vt, T.VectorType) or not isinstance(_operand(op, "mask").type, T.VectorType):
        raise compile_error(op, LANE_LEVEL)
    get, isz, chunk, lane_shape = _scatter_operands(op, cx, "dest", vt)
    dt = dtype_of(vt.element_type)
    get_mask = _mask_getter(cx, op, lane_shape)
    lanes = int(np.prod(lane_shape))
    transposed = "transpose" in op.attributes

    def one(fr: list) -> None:
        space, base, offs, limit, origin = get(fr)
        mask = get_mask(fr)
        bits = _checked(engine, op, "store", space, base, offs, mask, chunk, isz, limit, origin, lanes)
        v = np.asarray(fr[s_val], dt)
        v = v.T if transposed else v
        _scatter(engine, space, base, offs, mask, chunk, np.ascontiguousarray(v).reshape(lanes, chunk), bits)

    return one if cx.width == 1 else lift(op, cx, one)


@impl("xegpu.prefetch", axis=True)
def _prefetch(op: Any, cx: Any):
    """Scattered prefetch: no architectural effect at any level (the addresses are not checked: prefetches of bad
    addresses are dropped by the hardware)."""
    _level_guard(op)
    src = _operand(op, "source")
    offsets = _operand(op, "offsets")
    if cx.group == 1 and offsets is not None and not isinstance(offsets.type, T.VectorType):
        raise compile_error(op, LANE_LEVEL)
    if not isinstance(src.type, (T.TensorDescType, T.MemRefType, T.IntegerType, T.IndexType)):
        raise compile_error(op, f"unsupported prefetch source {src.type}")
    return None


def atomic_target(op: Any, cx: Any):
    """``get(fr) -> (ScatterDesc, mask)`` of a subgroup-level ``xegpu.atomic_rmw``: the elements it updates (a
    rank-1 block descriptor's tile as one element per lane, :meth:`NdDesc.as_elements`, spec §2.12) and the lanes'
    flags as the instruction applies them (``atomics.honour_mask`` outside VC).  The one definition the executor,
    the race detector and the memory checker share."""
    from xesim.hw.atomics import atomic_lane_mask

    access = decode_scatter_access(op)
    lanes = int(np.prod(access.lane_shape))
    get_mask = _mask_getter(cx, op, access.lane_shape)
    s_td = cx.slot(_operand(op, "tensorDesc"))
    engine = cx.engine
    ks = engine.kstate

    def get(fr: list) -> tuple[ScatterDesc, np.ndarray]:
        d = fr[s_td]
        if isinstance(d, NdDesc):
            d = d.as_elements(lanes)
        mask = np.asarray(get_mask(fr), bool).reshape(-1)
        if ks.level != "vc":
            mask = np.asarray(atomic_lane_mask(engine.target, mask, lanes), bool).reshape(-1)
        return d, mask

    return get


@impl("xegpu.atomic_rmw", axis=True)
def _atomic_rmw(op: Any, cx: Any):
    """Atomic read-modify-write per element under the mask; returns the old values (spec §2.4).  The mask: VC
    programs go through IMEX's VC lowering, which honours it; otherwise the target decides (``atomics.honour_mask``:
    the upstream XeGPU->XeVM lowering ignores it, spec §6 item 8).  At lane level only active lanes execute."""
    from xesim.hw.atomics import atomic_lane_mask

    engine = cx.engine
    ks = engine.kstate
    target = engine.target
    _level_guard(op)
    td_v = _operand(op, "tensorDesc")
    td: T.TensorDescType = td_v.type
    val = _operand(op, "value")
    vt = val.type
    access = decode_scatter_access(op)
    chunk = access.chunk
    kind = enum_text(op, "kind")
    dt, isz = _elem_info(op, td.element_type)
    s_val = cx.slot(val)
    res = cx.slot(op.results[0])
    noted: set[str] = set()
    block = not td.is_scattered
    if block and (td.rank != 1 or access.simt):
        raise compile_error(op, "atomic_rmw on a block descriptor is supported for a rank-1 descriptor at the "
                                "subgroup level (its whole tile, one element per lane); upstream lowers only that "
                                "form (upstream-xegpu-xevm.md §2.12)")
    if access.simt:
        if cx.group == 1:
            raise compile_error(op, LANE_LEVEL)
        get, isz, chunk = _lane_scatter_plan(op, cx, "tensorDesc", vt)
        get_lane_mask = _lane_mask(op, cx)
        rt = op.results[0].type

        def simt_step(fr: list) -> None:
            lanes = cx.group
            v = fr[s_val]
            out: list = [None] * ks.slots
            for first, active in _groups(ks):
                space, base, offs, limit, origin = get(fr, first, active, lanes)
                mask = atomic_lane_mask(target, get_lane_mask(fr, first, active, lanes), lanes)
                live = np.zeros(lanes, bool)
                live[[i - first for i in active]] = True
                mask &= live  # inactive lanes never execute the instruction
                data = np.zeros((lanes, chunk), dt)
                for i in active:
                    data[i - first] = np.asarray(slot_value(v, i), dt).reshape(chunk)
                old = _atomic(engine, op, kind, space, base, offs, mask, chunk, isz, limit, origin, data, dt, noted)
                for i in active:
                    out[i] = _lane_value_of(old[i - first].copy(), rt)
            fr[res] = Varying(out)

        return simt_step
    lanes = int(np.prod(access.lane_shape))
    target_of = atomic_target(op, cx)
    out_shape = tuple(vt.shape)

    def one(fr: list) -> None:
        d, mask = target_of(fr)
        data = np.asarray(fr[s_val], dt).reshape(lanes, chunk)
        old = _atomic(engine, op, kind, d.space, d.base, d.offsets.reshape(-1), mask, chunk, isz, d.limit, d.origin,
                      data, dt, noted)
        fr[res] = old.reshape(out_shape)

    return one if cx.width == 1 else lift(op, cx, one)
