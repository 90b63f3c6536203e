"""XeGPU ops at lane level (SIMT fragments), spec/programs-and-runner.md §3.2 "SIMT / lane level" and §3.4.

Each work-item holds a 1-D fragment of the subgroup's tile (:mod:`xesim.exec.lanes`: a :class:`Varying` value).
The ops below are executed once per subgroup; each uses the SG-level hardware path of
:mod:`xesim.exec.ops.xegpu` on the whole tile and moves the data between the tile and the lanes with the layout
maps of :mod:`xesim.hw.layout` (the only place layout knowledge lives):

* ``load_nd`` / ``store_nd`` / ``prefetch_nd`` are subgroup-collective (a 2D block message is one send for the
  whole subgroup): every lane must be active and the descriptor and offsets must be the same for all lanes.  The
  fragment layout applies to the descriptor's tile in memory order: an explicit lane layout (``#xegpu.layout``
  or ``#xegpu.sg_map`` on the descriptor type or the op, with ``order``) or the PVC default of §3.4 for the
  access: transposed loads ``load_transpose_32bit`` (lane ``l`` gets row ``l``), ``packed`` loads
  ``dpas_b_16bit`` / ``dpas_b_8bit`` (lane ``l`` gets column ``l``: pairs / quadruples of consecutive rows),
  other 8-bit loads ``dpas_a_8bit`` (two adjacent columns per lane), other loads ``dpas_a_16bit`` /
  ``dpas_cd_32bit`` (lane ``l`` gets column ``l``).  ``array_length = a``: block 0's fragment, then block 1's.
  1-D descriptors: lane ``l`` gets elements ``l, l + 16, ...`` (lane_layout [16], lane_data [1]).
* ``dpas`` is subgroup-collective: the A/B/C fragments are put together into the operand matrices with
  :class:`xesim.hw.layout.DpasLayout` (spec/pvc-hardware.md §3.4: M = the accumulator fragment length, N = the
  execution size, K = systolic depth x ops per channel), multiplied by the target's DPAS model, and D is split
  back into fragments.
* Scattered ``load`` / ``store`` with a scalar offset and mask per lane (memref or address source) or a
  scattered descriptor: lane ``i`` accesses ``chunk`` elements at its offset when its mask bit is set *and* it is
  active (the execution mask); other lanes read 0 (spec §3.3 Scatter) and write nothing.  Not collective: the
  hardware runs scattered messages under any channel mask.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec import batch
from xesim.exec.interpreter import ExecFault
from xesim.exec.lanes import Varying, lane_impl, lane_value, per_lane, require_whole_subgroup, stacked, uniform_value
from xesim.exec.ops.memref import compile_error, int_list_attr
from xesim.exec.ops.xegpu import (
    _BlockPlan,
    _elem_info,
    _lane_check,
    _lane_fault,
    _offsets_getter,
    _operand,
    _scatter_checks,
    _scatter_source,
    _simt_value,
    _type_name,
    compile_load_nd,
    compile_store_nd,
)
from xesim.exec.registry import IMPLS
from xesim.exec.values import dtype_of, scalar
from xesim.hw.layout import DpasLayout, LaneLayout, LayoutMapError, target_lane_layout
from xesim.hw.memory import MemoryFault
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias


# ============================================================================ helpers
def _explicit_lane_layout(op: Any, td: T.TensorDescType) -> LaneLayout | None:
    """A lane layout written in the IR: on the descriptor type, else on the op (``layout``, ``layout_result_0``
    / ``layout_operand_0`` and similar attributes)."""
    from xesim.verify import xegpu_layout as xl

    cands = [td.layout] + [v for k, v in op.attributes.items() if "layout" in k]
    for attr in cands:
        if attr is None or not xl.is_layout_attr(attr):
            continue
        try:
            lay = xl.read_layout(attr)
        except xl.LayoutError:
            continue
        if lay.kind == "slice" or lay.lane_layout is None or lay.lane_data is None:
            continue
        try:
            return LaneLayout(tuple(lay.lane_layout), tuple(lay.lane_data), tuple(lay.order) if lay.order else None)
        except LayoutMapError as exc:
            raise compile_error(op, f"lane layout {attr}: {exc}") from None
    return None


def _default_block_layout(op: Any, target: Any, isz: int, cols: int, packed: bool, transposed: bool) -> LaneLayout:
    """The PVC default lane layout for a block access (spec/programs-and-runner.md §3.4 "PVC rules")."""
    if transposed:
        return target_lane_layout(target, "load_transpose_32bit")
    if packed:
        return target_lane_layout(target, "dpas_b_8bit" if isz == 1 else "dpas_b_16bit")
    if isz == 1:
        lay = target_lane_layout(target, "dpas_a_8bit")
        if cols % lay.unit[1] == 0:
            return lay
    return target_lane_layout(target, "dpas_cd_32bit" if isz >= 4 else "dpas_a_16bit")


def _block_layout(op: Any, cx: Any, td: T.TensorDescType, frag_len: int) -> tuple[LaneLayout, np.ndarray]:
    """(layout, index map [lanes, fragment] into the memory-order tile) of a SIMT block access; compile-time."""
    _, isz = _elem_info(op, td.element_type)
    a = td.array_length
    lanes = cx.engine.target.subgroup.size
    if td.rank == 1:
        layout = _explicit_lane_layout(op, td) or LaneLayout((lanes,), (1,))
        shape: tuple[int, ...] = (td.shape[0],)
    else:
        transposed = int_list_attr(op, "transpose") == [1, 0]
        packed = "packed" in op.attributes
        layout = _explicit_lane_layout(op, td) or _default_block_layout(op, cx.engine.target, isz, td.shape[1],
                                                                        packed, transposed)
        shape = tuple(td.shape)
    if layout.num_lanes != lanes:
        raise compile_error(op, f"lane layout {list(layout.lane_layout)} has {layout.num_lanes} lanes but the "
                                f"subgroup has {lanes}")
    try:
        idx = layout.index_map(shape, a)
    except LayoutMapError as exc:
        raise compile_error(op, f"cannot distribute the {'x'.join(map(str, shape))} tile to lanes: {exc}") from None
    if idx.shape[1] != frag_len:
        raise compile_error(op, f"each lane holds {idx.shape[1]} elements of this tile with lane_layout "
                                f"{list(layout.lane_layout)} and lane_data {list(layout.lane_data)}, but the value "
                                f"has {frag_len} (spec/programs-and-runner.md §3.4)")
    return layout, idx


def _uniform_operands(op: Any, cx: Any, names: tuple[str, ...]) -> list[int]:
    """Slots of the operands that must hold one value for the whole subgroup."""
    slots = []
    for name in names:
        try:
            vals = op.operand_group(name)
        except KeyError:
            continue
        slots.extend(cx.slot(v) for v in vals)
    return slots


def _make_uniform(fr: list, slots: list[int], ks: Any, what: str) -> list:
    """Replace lane-dependent values in ``slots`` by their common value; returns the saved values to restore."""
    saved = []
    for s in slots:
        v = fr[s]
        if type(v) is Varying:
            saved.append((s, v))
            fr[s] = uniform_value(v, ks.lane_mask, what)
    return saved


def _restore(fr: list, saved: list) -> None:
    for s, v in saved:
        fr[s] = v


# ============================================================================ block access
@lane_impl("xegpu.load_nd")
def _load_nd(op: Any, cx: Any):
    td = _operand(op, "TensorDesc").type
    vt = op.results[0].type
    if not _simt_value(op, td, vt):
        return per_lane(op, cx, IMPLS[op.name](op, cx))
    ks = cx.engine.kstate
    _, idx = _block_layout(op, cx, td, vt.num_elements)
    tmp = cx.temp_slot()
    info: dict = {}
    load = compile_load_nd(op, cx, tmp, None, info)
    res = cx.slot(op.results[0])
    uni = _uniform_operands(op, cx, ("TensorDesc", "offsets"))
    out_dt = dtype_of(vt.element_type)
    s_td, get_off = cx.slot(_operand(op, "TensorDesc")), _offsets_getter(cx, op, td.rank)
    flat_idx = idx.reshape(-1)

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        if ks.lane_batch > 1:  # B subgroups at once (xesim/exec/batch.py)
            if not info:
                raise ExecFault("1-D block loads are not batched")
            b, sg = ks.lane_batch, ks.subgroup_size
            d, offs = batch.group_block_starts(fr, s_td, get_off, b, sg)
            tiles = batch.block_gather(cx.engine, op, d, offs, info).reshape(b, -1)  # a new array
            fr[res] = Varying.permuted(tiles.astype(out_dt, copy=False), flat_idx, b * sg)  # fragments on use
            return
        saved = _make_uniform(fr, uni, ks, "the descriptor or offset of a block load")
        try:
            load(fr)
        finally:
            _restore(fr, saved)
        tile = fr[tmp]
        fr[tmp] = None
        fr[res] = Varying.from_stack(np.ascontiguousarray(tile.reshape(-1)[idx]).astype(out_dt, copy=False))

    return step


@lane_impl("xegpu.store_nd")
def _store_nd(op: Any, cx: Any):
    val = _operand(op, "value")
    td = _operand(op, "TensorDesc").type
    if not _simt_value(op, td, val.type):
        return per_lane(op, cx, IMPLS[op.name](op, cx))
    ks = cx.engine.kstate
    _, idx = _block_layout(op, cx, td, val.type.num_elements)
    tmp = cx.temp_slot()
    store = compile_store_nd(op, cx, tmp)
    s_val = cx.slot(val)
    uni = _uniform_operands(op, cx, ("TensorDesc", "offsets"))
    dt = dtype_of(td.element_type)
    size = idx.size
    s_td, get_off = cx.slot(_operand(op, "TensorDesc")), _offsets_getter(cx, op, td.rank)
    plan = _BlockPlan(op, cx.engine, dt.itemsize, td.shape[0], td.shape[1], "store") if td.rank == 2 else None

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        if ks.lane_batch > 1:  # B subgroups at once (xesim/exec/batch.py)
            if plan is None or td.array_length != 1:
                raise ExecFault("this block store is not batched")
            b, sg = ks.lane_batch, ks.subgroup_size
            d, offs = batch.group_block_starts(fr, s_td, get_off, b, sg)
            tiles = np.empty((b, size), dt)
            tiles[:, idx.reshape(-1)] = stacked(fr[s_val], b * sg).reshape(b, -1)
            batch.block_scatter(cx.engine, op, d, offs, tiles.reshape(b, *td.shape), plan, td.boundary_check)
            return
        frags = stacked(fr[s_val], idx.shape[0])
        tile = np.empty(size, dt)
        tile[idx] = frags
        fr[tmp] = tile
        saved = _make_uniform(fr, uni, ks, "the descriptor or offset of a block store")
        try:
            store(fr)
        finally:
            _restore(fr, saved)
            fr[tmp] = None

    return step


@lane_impl("xegpu.prefetch_nd")
def _prefetch_nd(op: Any, cx: Any):
    ks = cx.engine.kstate
    inner = IMPLS[op.name](op, cx)
    uni = _uniform_operands(op, cx, ("TensorDesc", "offsets"))

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        if ks.lane_batch > 1:  # B subgroups: each subgroup's prefetch (validation only) in turn
            b, sg = ks.lane_batch, ks.subgroup_size
            saved = [(s, fr[s]) for s in uni]
            try:
                for g in range(b):
                    for s, v in saved:
                        fr[s] = v.lanes[g * sg] if type(v) is Varying else v
                    if inner is not None:
                        inner(fr)
            finally:
                _restore(fr, saved)
            return
        saved = _make_uniform(fr, uni, ks, "the descriptor or offset of a block prefetch")
        try:
            if inner is not None:
                inner(fr)
        finally:
            _restore(fr, saved)

    return step


# ============================================================================ dpas
@lane_impl("xegpu.dpas")
def _dpas(op: Any, cx: Any):
    from xesim.numerics.dpas import DpasCall, dpas, model_from_target

    lhs, rhs, acc = _operand(op, "lhs"), _operand(op, "rhs"), _operand(op, "acc")
    lt, bt, rt = lhs.type, rhs.type, op.results[0].type
    if not (lt.rank == 1 and bt.rank == 1 and rt.rank == 1):
        return per_lane(op, cx, IMPLS[op.name](op, cx))
    engine = cx.engine
    ks = engine.kstate
    target = engine.target
    a_name, b_name, d_name = _type_name(lt.element_type), _type_name(bt.element_type), _type_name(rt.element_type)
    c_name = _type_name(acc.type.element_type) if acc is not None else d_name
    opc = target.dpas.ops_per_channel
    try:
        ops = min(opc[a_name], opc[b_name])
    except KeyError as exc:
        raise compile_error(op, f"no DPAS ops-per-channel entry for {exc.args[0]} "
                                f"({target.source_of('dpas.ops_per_channel')})") from None
    n = target.dpas.exec_size
    k = target.dpas.systolic_depth * ops
    m = rt.shape[0]
    try:
        layout = DpasLayout(m, n, k)
        want = {"A": layout.fragment_length("a"), "B": layout.fragment_length("b"), "D": layout.fragment_length("d")}
    except LayoutMapError as exc:
        raise compile_error(op, str(exc)) from None
    got = {"A": lt.shape[0], "B": bt.shape[0], "D": m}
    if acc is not None:
        got["C"], want["C"] = acc.type.shape[0], want["D"]
    for name, w in want.items():
        if got[name] != w:
            raise compile_error(op, f"the {name} fragment has {got[name]} elements per lane; a {m}x{n}x{k} "
                                    f"{a_name} DPAS needs {w} (spec/pvc-hardware.md §3.4)")
    if n != ks.subgroup_size and n != target.subgroup.size:
        raise compile_error(op, f"DPAS execution size {n} differs from the subgroup size")
    try:
        model = model_from_target(target, engine.config.dpas_model)
    except (ValueError, KeyError) as exc:
        raise compile_error(op, f"no DPAS model: {exc}") from None
    s_a, s_b = cx.slot(lhs), cx.slot(rhs)
    s_c = cx.slot(acc) if acc is not None else None
    res = cx.slot(op.results[0])
    rdt = dtype_of(rt.element_type)

    to_a, to_b, to_c = (_FragmentsToMatrix(layout, x) for x in ("a", "b", "c"))
    d_idx = layout.index_map("d")
    d_flat = d_idx.reshape(-1)
    batched_call = DpasCall(a_name, b_name, c_name, d_name, model, target)

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        if ks.lane_batch > 1:  # B subgroups at once (xesim/exec/batch.py): one batched DPAS call
            g = ks.lane_batch
            bv = fr[s_b]
            a = to_a.of_value(fr[s_a], g, n)
            b = to_b.of_value(bv, g, n)
            c = to_c.of_value(fr[s_c], g, n) if s_c is not None else None
            try:  # the Varying stands for B's value: dpas reuses its decoding of B for the next op with it
                d = batched_call(a, b, c, b_token=bv)
            except ValueError as exc:
                raise ExecFault(str(exc)) from None
            d = np.asarray(d).astype(rdt, copy=False).reshape(g, -1)  # a new array
            fr[res] = Varying.permuted(d, d_flat, g * n)  # fragments on use; the next DPAS takes d as it is
            return
        a = to_a(stacked(fr[s_a], n))
        b = to_b(stacked(fr[s_b], n))
        c = to_c(stacked(fr[s_c], n)) if s_c is not None else None
        try:
            d = dpas(a, b, c, a_name, b_name, c_name, d_name, model, target)
        except ValueError as exc:
            raise ExecFault(str(exc)) from None
        d = np.asarray(d).astype(rdt, copy=False).reshape(-1)
        fr[res] = Varying.from_stack(d[d_idx])

    return step


class _FragmentsToMatrix:
    """``frags [lanes, fragment] -> matrix`` for one DPAS operand: a precomputed gather when every fragment slot
    holds an element (:meth:`DpasLayout.scatter` otherwise, e.g. the tf32 A padding slots)."""

    def __init__(self, layout: DpasLayout, operand: str) -> None:
        self.layout, self.operand = layout, operand
        idx = layout.index_map(operand)
        self.rows, self.cols = layout.operand_shape(operand)
        self.inv: np.ndarray | None = None
        if not ((idx < 0).any() or idx.size != self.rows * self.cols):
            self.inv = np.empty(self.rows * self.cols, np.int64)
            self.inv[idx.reshape(-1)] = np.arange(idx.size)
        self._composed: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}

    def __call__(self, frags: np.ndarray) -> np.ndarray:
        """``[lanes, fragment]`` -> the matrix; ``[B, lanes, fragment]`` -> ``[B, rows, cols]``."""
        layout, operand, rows, cols = self.layout, self.operand, self.rows, self.cols
        if self.inv is None:
            if frags.ndim == 3:
                return np.stack([layout.scatter(operand, f) for f in frags])
            return layout.scatter(operand, frags)
        if frags.ndim == 3:
            # np.take returns C order; frags[:, inv] would be laid out batch-innermost, and every later
            # contiguous copy (the DPAS batch) would transpose it
            return np.take(frags.reshape(len(frags), -1), self.inv, axis=1).reshape(len(frags), rows, cols)
        return frags.reshape(-1)[self.inv].reshape(rows, cols)

    def of_value(self, v: Any, groups: int, lanes: int) -> np.ndarray:
        """The ``[groups, rows, cols]`` matrices of value ``v`` (``groups`` subgroups of ``lanes`` lanes).  For
        fragments made by :meth:`Varying.permuted` from matrices ``base`` the matrix is ``base[:, index[inv]]``:
        one gather of ``base`` instead of two, none when the composed index is the identity (a DPAS result fed
        back as the next accumulator, a block loaded in the operand's layout)."""
        perm = v.perm if type(v) is Varying else None
        if perm is not None and self.inv is not None:
            base, index, count = perm
            if count == groups * lanes and base.shape[0] == groups and index.size == self.inv.size:
                comp = self._compose(index)
                if comp is None and base.shape[1] == index.size:
                    return base.reshape(groups, self.rows, self.cols)
                return np.take(base, index if comp is None else comp, axis=1).reshape(groups, self.rows, self.cols)
        return self(stacked(v, groups * lanes).reshape(groups, lanes, -1))

    def _compose(self, index: np.ndarray) -> np.ndarray | None:
        """``index[inv]``, None when it is the identity (cached per index array: the ops' constants)."""
        got = self._composed.get(id(index))
        if got is None or got[0] is not index:
            comp = index[self.inv]
            got = (index, None if np.array_equal(comp, np.arange(comp.size)) else comp)
            if len(self._composed) > 16:
                self._composed.clear()
            self._composed[id(index)] = got
        return got[1]


# ============================================================================ scattered access
def _lane_scatter_plan(op: Any, cx: Any, src_name: str, vt: Any):
    """Compile the addressing of a SIMT scattered access: returns ``(get(fr, lanes) -> (space, base, offsets[lanes],
    limit, origin), isz, chunk)``."""
    src = _operand(op, src_name)
    st = src.type
    ks = cx.engine.kstate
    s_src = cx.slot(src)
    if isinstance(st, T.TensorDescType):
        if not st.is_scattered:
            raise compile_error(op, "expects a scattered tensor descriptor")
        _, isz = _elem_info(op, st.element_type)
        chunk = st.chunk_size

        def get_td(fr: list, lanes: int) -> tuple:
            d = fr[s_src]
            if type(d) is Varying:  # one descriptor per lane, each with that lane's offset
                descs = [d.lanes[i] for i in ks.lane_mask]
                first = descs[0]
                offs = np.zeros(lanes, np.int64)
                for i in ks.lane_mask:
                    di = d.lanes[i]
                    if di.base != first.base or di.space is not first.space:
                        raise ExecFault("the lanes' scattered descriptors have different bases")
                    offs[i] = int(np.asarray(di.offsets).reshape(-1)[0])
                return first.space, first.base, offs, first.limit, first.origin
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
    from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias

    chunk = A.attr_int(op.attributes.get("chunk_size"), 1) or 1
    get_src = _scatter_source(op, cx, src, False)
    s_off = cx.slot(offsets)

    def get_buf(fr: list, lanes: int) -> tuple:
        v = fr[s_src]
        if type(v) is Varying:
            fr[s_src] = uniform_value(v, ks.lane_mask, "the base of a scattered access")
        try:
            space, base, limit, origin = get_src(fr)
        finally:
            fr[s_src] = v
        off = fr[s_off]
        offs = np.array([int(np.asarray(lane_value(off, i)).reshape(-1)[0]) if i in ks.lane_mask else 0
                         for i in range(lanes)], np.int64)
        return space, base, offs, limit, origin

    return get_buf, isz, chunk


def _lane_mask(op: Any, cx: Any):
    m = _operand(op, "mask")
    s = cx.slot(m) if m is not None else None
    ks = cx.engine.kstate

    def get(fr: list, lanes: int) -> np.ndarray:
        out = np.zeros(lanes, bool)
        v = fr[s] if s is not None else True
        if type(v) is not Varying and isinstance(v, np.ndarray) and v.size == lanes:
            full = v.reshape(-1).astype(bool)  # one uniform vector: bit i is lane i's
            for i in ks.lane_mask:
                out[i] = full[i]
            return out
        for i in ks.lane_mask:
            out[i] = bool(np.asarray(lane_value(v, i)).reshape(-1)[0])
        return out

    return get


def _simt_scatter(op: Any, vt: Any, src_name: str) -> bool:
    offsets = _operand(op, "offsets")
    mask = _operand(op, "mask")
    if offsets is not None and not isinstance(offsets.type, T.VectorType):
        return True
    if mask is not None and not isinstance(mask.type, T.VectorType):
        return True
    st = _operand(op, src_name).type
    if isinstance(st, T.TensorDescType) and st.chunk_size > 1 and isinstance(vt, T.VectorType):
        return vt.rank == 1 and vt.num_elements == st.chunk_size and st.num_elements > st.chunk_size
    return not isinstance(vt, T.VectorType)


def _lane_value_of(vals: np.ndarray, t: Any) -> Any:
    if isinstance(t, T.VectorType):
        return vals.reshape(t.shape)
    return scalar(vals.reshape(-1)[0].item() if vals.dtype.kind in "iub" else vals.reshape(-1)[0], t)


def _scatter_access(op: Any, cx: Any, src_name: str, vt: Any, kind: str):
    """Compile a SIMT scattered load / store: ``(prepare(fr) -> (lanes, space, base, offsets, mask, address bits),
    chunk, dtype)``; ``prepare`` validates every active, unmasked lane (bounds, message rules, alignment)."""
    engine = cx.engine
    ks = engine.kstate
    get, isz, chunk = _lane_scatter_plan(op, cx, src_name, vt)
    if (vt.num_elements if isinstance(vt, T.VectorType) else 1) != chunk:
        what = "result" if kind == "load" else "value"
        raise compile_error(op, f"each lane {kind}s {chunk} element(s) (chunk_size) but the {what} is {vt}")
    get_mask = _lane_mask(op, cx)

    def prepare(fr: list) -> tuple:
        lanes = ks.subgroup_size
        space, base, offs, limit, origin = get(fr, lanes)
        mask = get_mask(fr, lanes)
        _lane_check(space, base, offs, mask, chunk, isz, limit, origin)
        bits = _scatter_checks(engine, op, isz, chunk, lanes, space, kind, base, offs, mask)
        return lanes, space, base, offs, mask, bits

    return prepare, chunk, dtype_of(T.element_type_of(vt))


@lane_impl("xegpu.load")
def _load(op: Any, cx: Any):
    vt = op.results[0].type
    if not _simt_scatter(op, vt, "source"):
        return per_lane(op, cx, IMPLS[op.name](op, cx))
    engine = cx.engine
    ks = engine.kstate
    prepare, chunk, dt = _scatter_access(op, cx, "source", vt, "load")
    res = cx.slot(op.results[0])
    masked = engine.target.scatter.masked_load_value

    def step(fr: list) -> None:
        from xesim.hw.scatter import gather

        lanes, space, base, offs, mask, bits = prepare(fr)
        try:
            vals = gather(space, base, offs, mask, chunk, dt, masked_value=masked,
                          previous=np.zeros((lanes, chunk), dt), address_bits=bits)
        except MemoryFault as exc:
            raise _lane_fault(exc) from None
        vals = np.asarray(vals).reshape(lanes, chunk)
        out: list = [None] * lanes
        for i in ks.lane_mask:
            out[i] = _lane_value_of(vals[i].copy(), vt)
        fr[res] = Varying(out)

    return step


@lane_impl("xegpu.store")
def _store(op: Any, cx: Any):
    val = _operand(op, "value")
    vt = val.type
    if not _simt_scatter(op, vt, "dest"):
        return per_lane(op, cx, IMPLS[op.name](op, cx))
    engine = cx.engine
    ks = engine.kstate
    prepare, chunk, dt = _scatter_access(op, cx, "dest", vt, "store")
    s_val = cx.slot(val)
    order = engine.target.scatter.store_lane_order

    def step(fr: list) -> None:
        from xesim.hw.scatter import scatter

        lanes, space, base, offs, mask, bits = prepare(fr)
        v = fr[s_val]
        data = np.zeros((lanes, chunk), dt)
        for i in ks.lane_mask:
            data[i] = np.asarray(lane_value(v, i), dt).reshape(chunk)
        try:
            scatter(space, base, offs, mask, chunk, data, lane_order=order, address_bits=bits)
        except MemoryFault as exc:
            raise _lane_fault(exc) from None

    return step


@lane_impl("xegpu.prefetch")
def _prefetch(op: Any, cx: Any):
    """Scattered prefetch: no architectural effect at any level (xesim/exec/ops/xegpu.py)."""
    src = _operand(op, "source")
    if not isinstance(src.type, (T.TensorDescType, T.MemRefType, T.IntegerType, T.IndexType)):
        raise compile_error(op, f"unsupported prefetch source {src.type}")
    return None


@lane_impl("xegpu.atomic_rmw")
def _atomic_rmw(op: Any, cx: Any):
    """SIMT atomic read-modify-write: lane ``i`` updates its ``chunk`` elements at its descriptor offset when its
    mask bit is set and it is active; each lane gets the old values (spec/pvc-hardware.md §2.4, as the SG form)."""
    from xesim.exec.ops.memref import enum_text

    val = _operand(op, "value")
    vt = val.type
    td = _operand(op, "tensorDesc").type
    chunk = td.chunk_size
    simt = (not isinstance(vt, T.VectorType)) or (vt.rank == 1 and vt.num_elements == chunk
                                                  and td.num_elements > chunk)
    if not simt:
        return per_lane(op, cx, IMPLS[op.name](op, cx))
    engine = cx.engine
    ks = engine.kstate
    target = engine.target
    get, isz, chunk = _lane_scatter_plan(op, cx, "tensorDesc", vt)
    kind = enum_text(op, "kind")
    et = td.element_type
    dt = dtype_of(et)
    get_mask = _lane_mask(op, cx)
    s_val = cx.slot(val)
    res = cx.slot(op.results[0])
    rt = op.results[0].type

    def step(fr: list) -> None:
        from xesim.hw.atomics import atomic_lane_mask, atomic_options, atomic_rmw

        lanes = ks.subgroup_size
        space, base, offs, limit, origin = get(fr, lanes)
        mask = atomic_lane_mask(target, get_mask(fr, lanes), lanes)
        mask &= np.isin(np.arange(lanes), ks.lane_mask)  # inactive lanes never execute the instruction
        _lane_check(space, base, offs, mask, chunk, isz, limit, origin)
        slm = space is not engine.memory
        eoffs = offs.reshape(lanes, 1) + np.arange(chunk, dtype=np.int64)[None, :]
        emask = np.repeat(mask.reshape(lanes, 1), chunk, axis=1)
        v = fr[s_val]
        data = np.zeros((lanes, chunk), dt)
        for i in ks.lane_mask:
            data[i] = np.asarray(lane_value(v, i), dt).reshape(chunk)
        try:
            old = atomic_rmw(space, base, eoffs.reshape(-1), emask.reshape(-1), kind, data.reshape(-1), dt,
                             address_bits=target.scatter.slm_address_bits if slm else 64, **atomic_options(target))
        except MemoryFault as exc:
            raise _lane_fault(exc) from None
        except ValueError as exc:
            raise ExecFault(str(exc)) from None
        old = np.asarray(old, dt).reshape(lanes, chunk)
        out: list = [None] * lanes
        for i in ks.lane_mask:
            out[i] = _lane_value_of(old[i].copy(), rt)
        fr[res] = Varying(out)

    return step
