"""xegpu dialect semantics (spec/programs-and-runner.md §3.2–§3.4, spec/pvc-hardware.md §1–§4): the helpers every
xegpu op module shares, the named barriers, fences, SLM matrices and the ops without a value effect.

Descriptors are the run-time values of :mod:`xesim.exec.tdesc`.  Each op is one implementation over the instance
axis (:mod:`xesim.exec.axis`): it decodes its attributes and types when compiled and calls the hardware models at
run time.  The other modules:

* :mod:`xesim.exec.ops.xegpu_block` — 2-D / 1-D block descriptors, ``load_nd`` / ``store_nd`` / ``prefetch_nd``;
* :mod:`xesim.exec.ops.xegpu_scatter` — scattered descriptors, ``load`` / ``store`` / ``prefetch``, ``atomic_rmw``;
* :mod:`xesim.exec.ops.xegpu_dpas` — ``dpas``.

Here:

* ``fence``, ``compile_hint``: no value effect (``fence`` is a scheduling point); ``convert_layout``: identity.
* **Named barriers**: ``alloc_nbarrier`` checks the count against the target, ``init_nbarrier`` makes a
  :class:`~xesim.exec.tdesc.NamedBarrier`, ``nbarrier_arrive`` signals the current phase and ``nbarrier_wait``
  blocks until that phase completed (the scheduler or the lockstep batch, ``kstate.nbarrier_arrive`` /
  ``nbarrier_wait``; spec §4.1: producers = consumers = participants).
* **SLM matrices** (``create_mem_desc``/``mem_desc_subview``/``load_matrix``/``store_matrix``): element
  ``[i, j]`` of the view lives at the linear offset ``#xegpu.mem_layout<stride, block>`` gives it
  (:func:`xesim.exec.tdesc.blocked_strides`; row-major by default).
* :mod:`xesim.exec.ops.xegpu_mx` — ``dpas_mx``, ``truncf``, ``lane_shuffle`` (MX formats, today's lane ops).

Workgroup-level ops (``sg_layout`` layouts) run on the whole workgroup tile (the launcher runs a WG kernel once
per workgroup; xesim/exec/workgroup.py explains why that equals the distributed program); their layouts must
distribute their tiles, and a scattered access is checked as one message per ``inst_data``/``sg_data`` tile.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.axis import Varying, active_stack, run_per_slot, scatter_active, stack_or_list
from xesim.exec.faults import ExecFault
from xesim.exec.ops.memref import compile_error, enum_text, mixed_list
from xesim.exec.registry import impl
from xesim.exec.tdesc import MemDesc, NamedBarrier, blocked_strides, linear_offsets
from xesim.exec.values import MemRefValue, dtype_of
from xesim.hw.memory import MemoryFault
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

ADDR_MASK = (1 << 64) - 1
LANE_LEVEL = "lane-level XeGPU programs are not supported yet"
WG_LEVEL = "workgroup-level XeGPU programs are not supported yet"


# ============================================================================ compile-time helpers
def _operand(op: Any, name: str) -> Any:
    try:
        g = op.operand_group(name)
    except KeyError:
        return None
    return g[0] if g else None


def _elem_info(op: Any, et: T.Type) -> tuple[np.dtype, int]:
    """numpy dtype and byte size of an element; sub-byte elements are not block-addressable here."""
    try:
        dt = dtype_of(et)
    except NotImplementedError as exc:
        raise compile_error(op, str(exc)) from None
    bits = T.bit_width(et)
    if bits < 8:
        raise compile_error(op, f"{bits}-bit elements in memory descriptors are not supported yet")
    return dt, bits // 8


def _level_guard(op: Any) -> None:
    """Workgroup-level layouts (with ``sg_layout``): the op runs on the whole workgroup tile (whole-tile view,
    xesim/exec/workgroup.py); its layouts must distribute the tiles they describe (spec §3.4)."""
    from xesim.exec.levels import workgroup_layout_in

    if workgroup_layout_in(op):
        from xesim.exec.workgroup import layout_problem

        problem = layout_problem(op)
        if problem:
            raise compile_error(op, problem)


def _note(engine: Any, text: str) -> None:
    notes = engine.__dict__.setdefault("notes", [])
    if text not in notes:
        notes.append(text)


def _space_of(engine: Any, slm: bool) -> Any:
    if not slm:
        return engine.memory
    ks = engine.kstate
    if ks.slm is None:
        raise ExecFault("shared local memory is not available here (SLM exists only inside a kernel)")
    return ks.slm


def _addr_origin(space: Any, addr: int) -> str:
    a = space.allocation_at(addr)
    if a is None:
        return f"address 0x{addr:x}"
    return f"address 0x{addr:x} in {a.describe()}"


# ============================================================================ misc
@impl("xegpu.convert_layout")
def _convert_layout(op: Any, cx: Any):
    """Identity on values (spec §3.3); the layouts only steer distribution."""
    src = cx.slot(_operand(op, "source"))
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[res] = fr[src]

    return step


@impl("xegpu.compile_hint")
def _compile_hint(op: Any, cx: Any):
    return None


@impl("xegpu.fence")
def _fence(op: Any, cx: Any):
    """Memory fence: the simulator is sequentially consistent, so no value effect (spec §4.3); the memory
    kind and scope are checked when compiled."""
    kind = enum_text(op, "memory_kind")
    scope = enum_text(op, "fence_scope")
    if kind not in ("global", "slm") or scope not in ("workgroup", "gpu"):
        raise compile_error(op, f"unknown fence memory_kind {kind} / fence_scope {scope}")
    ks = cx.engine.kstate

    def step(fr: list) -> None:
        ks.yield_point(op)  # no value effect (sequentially consistent memory); a scheduling point

    return step


# ============================================================================ named barriers
@impl("xegpu.alloc_nbarrier")
def _alloc_nbarrier(op: Any, cx: Any):
    """Allocates named barriers for the workgroup; at most ``nbarrier.count`` (PVC: 32, spec §4.1)."""
    engine = cx.engine
    n = A.attr_int(op.attributes.get("nbarrier_num"), 0) or 0
    limit = engine.target.nbarrier.count
    if not 1 <= n <= limit:
        raise compile_error(op, f"{n} named barriers requested; the target has {limit} "
                                f"({engine.target.source_of('nbarrier.count')})")
    ks = engine.kstate

    def step(fr: list) -> None:
        ks.__dict__["nbarrier_count"] = (ks.kernel_name, ks.block_id, n)  # per workgroup of this launch

    return step


@impl("xegpu.init_nbarrier")
def _init_nbarrier(op: Any, cx: Any):
    """Binds barrier ``nbarrier_id`` shared by ``participant_thread_num`` threads (subgroups)."""
    engine = cx.engine
    ks = engine.kstate
    s_id = cx.slot(_operand(op, "nbarrier_id"))
    s_n = cx.slot(_operand(op, "participant_thread_num"))
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        bid, n = int(fr[s_id]) & 0xFF, int(fr[s_n]) & 0xFF
        alloc = ks.__dict__.get("nbarrier_count")
        if alloc is not None and alloc[:2] == (ks.kernel_name, ks.block_id):
            limit = alloc[2]
        else:  # no xegpu.alloc_nbarrier in this workgroup: the target's count bounds the id
            limit = engine.target.nbarrier.count
        if bid >= limit:
            raise ExecFault(f"named barrier id {bid} is not below the {limit} barriers allocated")
        if n < 1:
            raise ExecFault(f"a named barrier needs at least one participating thread, got {n}")
        fr[res] = NamedBarrier(bid, n)

    return step


def _barrier_of(v: Any, ks: Any, inst: int) -> Any:
    """The named barrier of instance ``inst`` of a lockstep batch (at lane level the active lanes of a subgroup
    must name the same one)."""
    g = ks.group
    items = [v.lanes[i] for i in range(inst * g, (inst + 1) * g) if i in ks.mask] if g > 1 else [v.lanes[inst]]
    if any(x != items[0] for x in items[1:]):
        raise ExecFault("the named barrier differs between the lanes of a subgroup")
    return items[0]


def _named_barrier_op(method: str):
    """``nbarrier_arrive`` / ``nbarrier_wait``: the subgroup signals, or waits for the phase it signalled in; many
    instances with different barriers (a lockstep batch) each use their own."""
    def compile_fn(op: Any, cx: Any):
        ks = cx.engine.kstate
        s = cx.slot(_operand(op, "nbarrier"))

        def step(fr: list) -> None:
            nb = fr[s]
            if not isinstance(nb, Varying):
                if method == "arrive":
                    ks.nbarrier_arrive(nb.barrier_id, nb.participants, op)
                else:
                    ks.nbarrier_wait(nb.barrier_id, op)
                return
            sync = ks.lockstep
            if sync is None:
                raise ExecFault("the named barrier differs between the lanes of a subgroup")
            each = [(i, _barrier_of(nb, ks, i)) for i in sync.instances(ks.mask)]
            if method == "arrive":
                for i, b in each:
                    sync.arrive([i], b.barrier_id, b.participants)
            else:
                sync.wait([(i, b.barrier_id) for i, b in each], op)

        return step

    return compile_fn


#: Signal the named barrier (spec/pvc-hardware.md §4.1): counts towards the current phase.
impl("xegpu.nbarrier_arrive", axis=True)(_named_barrier_op("arrive"))
#: Wait until the phase this thread signalled in has been signalled by all participants (§4.1); a wait without a
#: preceding signal is an error; the scheduler yields here.
impl("xegpu.nbarrier_wait", axis=True)(_named_barrier_op("wait"))


# ============================================================================ SLM matrices
def _mem_layout(t: T.MemDescType) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    ml = t.mem_layout
    if not isinstance(ml, A.DialectAttr):
        return None, None
    st, bl = ml.get_param("stride"), ml.get_param("block")
    return (tuple(A.int_list(st)) if st is not None else None, tuple(A.int_list(bl)) if bl is not None else None)


@impl("xegpu.create_mem_desc")
def _create_mem_desc(op: Any, cx: Any):
    """A matrix view of an SLM byte buffer with ``#xegpu.mem_layout<stride, block>`` (row-major default)."""
    src = _operand(op, "source")
    md: T.MemDescType = op.results[0].type
    _, isz = _elem_info(op, md.element_type)
    stride, block = _mem_layout(md)
    shape = tuple(md.shape)
    strides, blk = blocked_strides(shape, stride, block)
    s = cx.slot(src)
    res = cx.slot(op.results[0])
    name = f"%{src.name}" if getattr(src, "name", None) else "the buffer"

    def step(fr: list) -> None:
        m: MemRefValue = fr[s]
        nbytes = 1
        for d in m.sizes:
            nbytes *= d
        fr[res] = MemDesc(m.space, m.aligned + m.offset, shape, strides, blk, (0,) * len(shape), isz, nbytes, name)

    return step


@impl("xegpu.mem_desc_subview")
def _mem_desc_subview(op: Any, cx: Any):
    """A view at the given offsets; a lower-rank result keeps the source's trailing dimensions."""
    s = cx.slot(_operand(op, "src"))
    res = cx.slot(op.results[0])
    get_off, _ = mixed_list(cx, op, ("offsets",), ("const_offsets",))

    def step(fr: list) -> None:
        d: MemDesc = fr[s]
        offs = get_off(fr)
        n = len(d.coords)
        coords = tuple(c + o for c, o in zip(d.coords, list(offs)[-n:]))
        fr[res] = MemDesc(d.space, d.base, d.root_shape, d.strides, d.block, coords, d.elem_bytes,
                          d.limit_bytes, d.origin)

    return step


def matrix_access(op: Any, cx: Any, md_v: Any, vt: Any) -> MatrixAccess:
    md: T.MemDescType = md_v.type
    if not isinstance(vt, T.VectorType) or vt.rank != 2:
        raise compile_error(op, LANE_LEVEL)
    lay = op.attributes.get("layout")
    if lay is not None:
        from xesim.verify import xegpu_layout as xl

        if xl.is_layout_attr(lay) and xl.read_layout(lay).is_for_workgroup:
            raise compile_error(op, WG_LEVEL)
    dt, isz = _elem_info(op, md.element_type)
    get_off, _ = mixed_list(cx, op, ("offsets",), ("const_offsets",))
    return MatrixAccess(cx.slot(md_v), get_off, tuple(vt.shape), md.rank, dt, isz, cx.width // cx.banks)


class MatrixAccess:
    """Where a ``load_matrix``/``store_matrix`` block lives: element offsets in the matrix's buffer through the
    ``mem_layout`` (:func:`~xesim.exec.tdesc.linear_offsets`), for one instance (:meth:`one`) or for the active
    instances of a batch at once (:meth:`many`), each in its own workgroup's copy of banked SLM."""

    def __init__(self, s_md: int, get_off: Any, shape: tuple[int, int], view_rank: int, dt: np.dtype, isz: int,
                 slots_per_bank: int) -> None:
        self.s_md, self.get_off, self.view_rank = s_md, get_off, view_rank
        self.rows, self.cols = shape
        self.rr = np.arange(self.rows, dtype=np.int64)[:, None]
        self.cc = np.arange(self.cols, dtype=np.int64)[None, :]
        self.dt, self.isz, self.slots_per_bank = dt, isz, slots_per_bank

    def one(self, fr: list) -> tuple[MemDesc, np.ndarray]:
        """One instance's descriptor and block element offsets ``[R, C]`` (located faults when out of bounds)."""
        d: MemDesc = fr[self.s_md]
        offs = list(self.get_off(fr))
        root_rank = len(d.root_shape)
        full = list(d.coords)
        for i, o in enumerate(offs):
            full[root_rank - self.view_rank + i] += o
        y0, x0 = full[-2], full[-1]
        rows, cols = self.rows, self.cols
        if y0 < 0 or x0 < 0 or y0 + rows > d.root_shape[-2] or x0 + cols > d.root_shape[-1]:
            raise ExecFault(f"the {rows}x{cols} block at [{y0}, {x0}] is outside the "
                            f"{d.root_shape[-2]}x{d.root_shape[-1]} matrix")
        lin = linear_offsets(d.strides, d.block, self.rr + y0, self.cc + x0, tuple(full[:-2]))
        if lin.min() < 0 or (lin.max() + 1) * self.isz > d.limit_bytes:
            raise ExecFault(f"the block at [{y0}, {x0}] reaches outside the {d.limit_bytes}-byte buffer {d.origin}")
        return d, lin

    def elements_one(self, fr: list) -> tuple[np.ndarray, np.ndarray]:
        """One instance's ``(elements, index)``: a typed view of the buffer span its block reaches (in the current
        bank of banked SLM) and the block's element offsets ``[R, C]`` in it."""
        d, lin = self.one(fr)
        lo, hi = int(lin.min()), int(lin.max()) + 1
        isz = self.isz
        alloc, off = d.space.resolve(d.base + lo * isz, (hi - lo) * isz)
        return alloc.data[off:off + (hi - lo) * isz].view(self.dt), lin - lo

    def many(self, fr: list, sel: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray] | None:
        """For the instances ``sel`` of ``n`` slots: ``(elements, index)`` — a flat typed view of every bank's copy of
        the buffer's allocation and each instance's block as indices into it ``[k, R, C]`` (its own workgroup's
        copy); None when an instance's block is out of bounds, the descriptors differ in more than their position,
        or the buffer is not aligned to its elements (the instances then run one at a time, which reports any
        fault)."""
        d = fr[self.s_md]
        k = len(sel)
        if isinstance(d, Varying):
            lanes = d.lanes
            d0 = lanes[int(sel[0])]
            if not isinstance(d0, MemDesc):
                return None
            for i in sel:
                di = lanes[int(i)]
                if not (isinstance(di, MemDesc) and di.space is d0.space and di.base == d0.base
                        and di.root_shape == d0.root_shape and di.strides == d0.strides and di.block == d0.block
                        and di.limit_bytes == d0.limit_bytes):
                    return None
            coords = np.array([lanes[int(i)].coords for i in sel], np.int64)
        else:
            d0 = d
            coords = np.tile(np.array(d.coords, np.int64), (k, 1))
        root_rank = len(d0.root_shape)
        for i, o in enumerate(self.get_off(fr)):
            col = root_rank - self.view_rank + i
            coords[:, col] += active_stack(o, sel, n).astype(np.int64) if isinstance(o, Varying) else int(o)
        y0, x0 = coords[:, -2], coords[:, -1]
        if (y0 < 0).any() or (x0 < 0).any() or (y0 + self.rows > d0.root_shape[-2]).any() or \
                (x0 + self.cols > d0.root_shape[-1]).any():
            return None
        if len(d0.strides) == root_rank:  # no blocks: every block is one offset pattern, shifted per instance
            st = np.asarray(d0.strides, np.int64)
            shift = coords @ st  # [k]
            pattern = self.rr * st[-2] + self.cc * st[-1]  # [R, C]
            lo, hi = int(shift.min()) + int(pattern.min()), int(shift.max()) + int(pattern.max()) + 1
        else:
            lead = tuple(coords[:, j, None, None] for j in range(root_rank - 2))
            lin = linear_offsets(d0.strides, d0.block, self.rr + y0[:, None, None], self.cc + x0[:, None, None],
                                 lead)
            lo, hi = int(lin.min()), int(lin.max()) + 1
        isz = self.isz
        if lo < 0 or hi * isz > d0.limit_bytes:
            return None
        try:
            alloc, _ = d0.space.resolve(d0.base + lo * isz, (hi - lo) * isz)
        except MemoryFault:
            return None
        start, size = d0.base - alloc.base, alloc.size
        if start % isz or size % isz:
            return None
        if alloc.banked:
            flat = alloc.rows.reshape(-1).view(self.dt)
            first = (sel // self.slots_per_bank) * (size // isz) + start // isz
        else:
            flat = alloc.data.view(self.dt)
            first = np.full(k, start // isz, np.int64)
        if len(d0.strides) == root_rank:
            return flat, (first + shift)[:, None, None] + pattern
        return flat, first[:, None, None] + lin


def _active(ks: Any) -> np.ndarray:
    return np.arange(ks.slots) if len(ks.mask) == ks.slots else np.array(ks.mask, np.int64)


@impl("xegpu.load_matrix", axis=True, banked=True)
def _load_matrix(op: Any, cx: Any):
    """Load a 2-D block of an SLM matrix (element-wise through the mem_layout); a batch's instances gather theirs
    at once, each from its workgroup's SLM."""
    ks = cx.engine.kstate
    md_v = _operand(op, "mem_desc")
    acc = matrix_access(op, cx, md_v, op.results[0].type)
    res = cx.slot(op.results[0])

    def one(fr: list) -> None:
        elems, idx = acc.elements_one(fr)
        fr[res] = elems[idx]

    if cx.width == 1:
        return one
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))

    def step(fr: list) -> None:
        n = ks.slots
        sel = _active(ks)
        got = acc.many(fr, sel, n)
        if got is None:
            vals = run_per_slot(fr, ks, one, in_slots, [res])[0]
            fr[res] = stack_or_list(vals) if len(sel) == n else Varying(vals)
            return
        flat, index = got
        out = flat[index]
        fr[res] = Varying.from_stack(out) if len(sel) == n else scatter_active(out, sel, n)

    return step


@impl("xegpu.store_matrix", axis=True, banked=True)
def _store_matrix(op: Any, cx: Any):
    """Store a 2-D block into an SLM matrix (element-wise through the mem_layout); a batch's instances scatter
    theirs at once, each into its workgroup's SLM — in instance order where their blocks overlap."""
    ks = cx.engine.kstate
    md_v = _operand(op, "mem_desc")
    val = _operand(op, "data")
    acc = matrix_access(op, cx, md_v, val.type)
    s_val = cx.slot(val)
    dt = acc.dt

    def one(fr: list) -> None:
        elems, idx = acc.elements_one(fr)
        elems[idx] = np.asarray(fr[s_val], dt)

    if cx.width == 1:
        return one
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))

    def step(fr: list) -> None:
        n = ks.slots
        sel = _active(ks)
        got = acc.many(fr, sel, n)
        if got is None:
            run_per_slot(fr, ks, one, in_slots, [])
            return
        flat, index = got
        vals = np.asarray(active_stack(fr[s_val], sel, n), dt).reshape(index.shape)
        if _distinct(index.reshape(-1), flat.size):
            flat[index] = vals
        else:  # overlapping blocks: the later instance's elements win, as in instance order
            for j in range(len(sel)):
                flat[index[j]] = vals[j]

    return step


def _distinct(keys: np.ndarray, size: int) -> bool:
    """Whether the indices ``keys`` into ``size`` elements are all different."""
    seen = np.zeros(size, np.bool_)
    seen[keys] = True
    return int(np.count_nonzero(seen)) == keys.size
