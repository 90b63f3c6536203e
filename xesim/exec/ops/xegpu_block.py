"""XeGPU block access: ``create_nd_tdesc``, ``update_nd_offset``, ``load_nd``, ``store_nd``, ``prefetch_nd``
(spec/pvc-hardware.md §1, spec/programs-and-runner.md §3.2–§3.4), each one implementation over the instance axis
(:mod:`xesim.exec.axis`).

**Values.**  At the SG, VC and WG levels the op's value is the subgroup's (workgroup's) whole tile; at lane level
(SIMT) each lane holds a 1-D fragment of its subgroup's tile, and the block ops are subgroup-collective (one send
for the whole subgroup): every lane must be active, and the descriptor and offsets must be the same for the lanes
of a subgroup.  The fragment layout applies to the descriptor's tile in memory order: an explicit lane layout
(``#xegpu.layout`` or ``#xegpu.sg_map`` on the descriptor type or the op, with ``order``) or the PVC default of
§3.4 for the access (:func:`fragment_layout`).  ``array_length = a``: block 0's fragment, then block 1's.  1-D
descriptors: lane ``l`` gets elements ``l, l + 16, ...``.  Batched (rank 3-5) descriptors: the plane's layout
extended by unit leading dimensions, so a lane holds its fragment of each plane, planes in row-major order.

**2D block loads/stores/prefetches** (2-D descriptors): the tile is split into legal hardware messages once, when
the op is compiled (:class:`xesim.exec.blocks.BlockPlan`, in the order the hardware issues them); every message is
checked against the target's rules (§1.2–§1.3): an ``error`` violation is a located fault naming the rule and its
source, a ``warning`` goes through ``Engine.warn`` (an error under ``--strict``).  Out-of-surface elements read 0
and are dropped on store (§1.4).  The load's value in the SG conventions (§3.3), decoded once into a
:class:`BlockLoad`:

- plain: ``[R, C]``;
- ``packed`` (VNNI, 8/16-bit): ``[R/v, C, v]``, ``res[k][n][p] = T[v·k + p][n]``, v = 32 / bits;
- ``transpose = [1, 0]`` on 32/64-bit data: ``[C, R]`` (native transposed message);
- ``transpose = [1, 0]`` on 8/16-bit data with ``transpose_bit_width = 32`` (legacy VC) or ``packed``:
  ``[C/v, R, v]``, ``res[k][n][p] = T[n][v·k + p]`` (the VNNI form of Tᵀ) — a 32-bit transposed message over
  v-element units, as XeGPU→XeVM and IMEX lower it (§1.3 "8/16-bit transpose is not native");
- ``transpose = [1, 0]`` alone on 8/16-bit data: ``[C, R]``, loaded by the same 32-bit transposed messages and
  split back;
- ``array_length = a``: a blocks side by side in memory (block j starts at column x + j·C); the result is
  ``[a, ...]`` (VC convention) or the blocks stacked along the first dimension (SG convention) — both are the same
  row-major data.

``boundary_check = false`` declares the block in bounds (IMEX XeGPU RFC): a block reaching outside the surface is
reported as undefined behaviour instead of being padded.  Offsets given on the op are added to the descriptor's
own offsets (legacy ``create_nd_tdesc`` offsets / ``update_nd_offset``); in both upstream forms one of the two is
zero.

**1-D descriptors** (global or SLM) lower to subgroup block reads/writes, not 2D messages (§1.7): elements
``x .. x + W`` of the 1-D surface; out-of-surface elements read 0 and are dropped on store, and the start address
must meet the alignment of ``[block1d]`` in the target.

**Many instances.**  Descriptors of instances that differ only in their offsets are one
:class:`~xesim.exec.blocks.NdBatch`; their blocks are copied between memory and a ``[n, ...]`` stack by
:class:`~xesim.exec.blocks.Block2D` (the block model for any block reaching outside its surface, and for every
block under the reference engine).  Stores of blocks that overlap run instance by instance, in instance order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from xesim.decode.xegpu import decode_block_access
from xesim.exec import axis, blocks
from xesim.exec.axis import (
    Varying,
    active_stack,
    require_whole_subgroup,
    scatter_active,
    stack_or_list,
    stacked,
    uniform_value,
)
from xesim.exec.blocks import (
    Block2D,
    BlockPlan,
    NdBatch,
    block_starts,
    check_1d,
    checker,
    desc_and_offsets,
    group_block_starts,
    message_text,
    nd_batch,
    oob_region,
    report,
    surface,
)
from xesim.exec.faults import ExecFault
from xesim.exec.ops.memref import compile_error, mixed_list, mixed_list_template
from xesim.exec.ops.xegpu import ADDR_MASK, LANE_LEVEL, _elem_info, _level_guard, _operand, _space_of
from xesim.exec.registry import impl
from xesim.exec.tdesc import NdDesc, NdPlanes
from xesim.exec.values import MemRefValue, dtype_of
from xesim.hw.layout import LaneLayout, LayoutMapError, target_lane_layout
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias


# ============================================================================ operands
def offsets_getter(cx: Any, op: Any, rank: int):
    """``get(fr) -> offsets`` of the op's own offsets (zeros when it has none)."""
    get_off, static = mixed_list(cx, op, ("offsets",), ("const_offsets",))
    if not static:
        zero = [0] * rank
        return lambda fr: zero
    return get_off


def simt_value(op: Any) -> bool:
    """A 1-D value with fewer elements than the descriptor's tile: a SIMT (lane) fragment."""
    return decode_block_access(op).simt


def _varying_in(fr: list, slots: list[int]) -> bool:
    for s in slots:
        if isinstance(fr[s], Varying):
            return True
    return False


def _per_slot(fr: list, ks: Any, step: Any, in_slots: list[int], out_slots: list[int]) -> list:
    """Each active slot's result of the one-instance ``step`` (per result slot)."""
    return axis.run_per_slot(fr, ks, step, in_slots, out_slots)


# ============================================================================ descriptors
@impl("xegpu.create_nd_tdesc", axis=True)
def _create_nd_tdesc(op: Any, cx: Any):
    """Descriptor of a 1-D/2-D block of a memref or raw address (spec/pvc-hardware.md §1.1, §1.7): shape and
    strides from the operands when given, else from the memref descriptor; leading dims folded into the base.

    Many instances: when only the descriptor's own offsets differ (the operands of its last ``rank`` offsets; the
    source, shape, strides and leading offsets are the same), the descriptor is made once, for the first instance,
    and the others differ from it only in their offsets (one :class:`NdBatch`); otherwise one per instance."""
    engine = cx.engine
    _level_guard(op)
    src = _operand(op, "source")
    src_t = src.type
    td: T.TensorDescType = op.results[0].type
    dt, isz = _elem_info(op, td.element_type)
    s_src = cx.slot(src)
    res = cx.slot(op.results[0])
    get_off, static_off = mixed_list(cx, op, ("offsets",), ("const_offsets",))
    get_shape, static_shape = mixed_list(cx, op, ("shape",), ("const_shape",))
    get_strides, static_strides = mixed_list(cx, op, ("strides",), ("const_strides",))
    has_off, has_shape = bool(static_off), bool(static_shape)
    is_memref = isinstance(src_t, T.MemRefType)
    slm = td.memory_space == "slm"
    td_rank = td.rank
    name = f"%{src.name}" if getattr(src, "name", None) else "the source"

    def one(fr: list) -> None:
        s = fr[s_src]
        if is_memref:
            m: MemRefValue = s
            shape = tuple(get_shape(fr)) if has_shape else tuple(m.sizes)
            strides = tuple(get_strides(fr)) if has_shape else tuple(m.strides)
            base = m.aligned + m.offset * isz
            space = m.space
            origin = name
        else:
            addr = int(s) & ADDR_MASK
            shape, strides = tuple(get_shape(fr)), tuple(get_strides(fr))
            space = _space_of(engine, slm)
            # Creating a descriptor is not an access (upstream-xegpu-xevm.md §2.1 "Builds a descriptor value; no
            # memory access"): an address outside every live allocation (e.g. made only for a prefetch that
            # runs past the end) is accepted here; the loads and stores through it are checked.
            a = space.allocation_at(addr)
            base = addr
            if a is None:
                origin = f"address 0x{addr:x} (no {space.name} allocation)"
            elif not a.alive:
                origin = f"address 0x{addr:x} (freed memory)"
            else:
                origin = f"address 0x{addr:x} ({a.describe()})"
        rank = len(shape)
        if len(strides) != rank or rank < td_rank:
            raise ExecFault(f"shape {list(shape)} and strides {list(strides)} do not describe a {td_rank}-D surface")
        if strides[-1] != 1:
            raise ExecFault(f"the innermost stride of a block tensor descriptor must be 1, got {strides[-1]}")
        offs = list(get_off(fr)) if has_off else [0] * rank
        if len(offs) != rank:
            raise ExecFault(f"{len(offs)} offsets for a {rank}-D source")
        lead = rank - td_rank
        for o, st in zip(offs[:lead], strides[:lead]):
            base += o * st * isz
        if td_rank >= 2:
            height, width, pitch = shape[-2], shape[-1], strides[-2]
        else:
            height, width, pitch = 1, shape[-1], shape[-1]
        if td_rank > 2:  # batched: the descriptor's own leading dims index planes (legacy offsets move them)
            planes = list(range(lead, rank - 2))
            for d_ in planes:
                base += offs[d_] * strides[d_] * isz
            fr[res] = NdPlanes(NdDesc(space, base, height, width, pitch, tuple(offs[-2:]), isz, origin),
                               tuple(shape[d_] - offs[d_] for d_ in planes), tuple(strides[d_] * isz for d_ in planes))
            return
        fr[res] = NdDesc(space, base, height, width, pitch, tuple(offs[lead:]), isz, origin)

    if cx.width == 1:
        return one
    ks = engine.kstate
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    template, _ = mixed_list_template(cx, op, ("offsets",), ("const_offsets",))
    own = template[len(template) - td_rank:] if len(template) >= td_rank else []
    elsewhere = set(cx.slots(op.operands)) - {v for dyn, v in own if dyn}
    elsewhere |= {v for dyn, v in template[:len(template) - len(own)] if dyn}
    movable = frozenset(v for dyn, v in own if dyn and v not in elsewhere)  # varying: offsets differ only

    def step(fr: list) -> None:
        varying = [s for s in in_slots if isinstance(fr[s], Varying)]
        if not varying:
            one(fr)
            return
        n = ks.slots
        if len(own) != td_rank or not movable.issuperset(varying) or len(ks.mask) != n:
            fr[res] = nd_batch(_per_slot(fr, ks, one, in_slots, [res])[0])
            return
        saved = {s: fr[s] for s in varying}
        try:
            for s in varying:
                fr[s] = saved[s].lanes[0]
            one(fr)
        finally:
            for s, v in saved.items():
                fr[s] = v
        cols = [stacked(fr[v], n).astype(np.int64) if dyn else np.full(n, v, np.int64) for dyn, v in own]
        fr[res] = NdBatch(fr[res], np.stack(cols, axis=1))

    return step


@impl("xegpu.update_nd_offset", axis=True)
def _update_nd_offset(op: Any, cx: Any):
    """The descriptor with its offsets moved by the operands (legacy VC programs)."""
    s_td = cx.slot(_operand(op, "TensorDesc"))
    res = cx.slot(op.results[0])
    get_off, _ = mixed_list(cx, op, ("offsets",), ("const_offsets",))

    def one(fr: list) -> None:
        fr[res] = fr[s_td].moved(get_off(fr))

    if cx.width == 1:
        return one
    ks = cx.engine.kstate
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))

    def step(fr: list) -> None:
        if not _varying_in(fr, in_slots):
            one(fr)
            return
        if isinstance(fr[s_td], (NdBatch, NdDesc)) and len(ks.mask) == ks.slots:
            got = desc_and_offsets(fr, s_td, get_off, ks.slots)
            if got is not None:
                fr[res] = NdBatch(got[0], np.ascontiguousarray(got[1]))
                return
        fr[res] = nd_batch(_per_slot(fr, ks, one, in_slots, [res])[0])

    return step


# ============================================================================ decoding
@dataclass(frozen=True)
class BlockLoad:
    """A 2-D block load decoded once (module docstring): the memory-order tile is ``rows`` x ``width_units`` in units
    of ``mdt`` (``per_unit`` elements per unit of a transposed narrow load), split into ``plan``'s messages; ``mode``
    (plain, vnni, transpose, tnarrow, tvnni) and ``v`` say how it becomes the op's value of shape ``out_shape``
    (None: the memory-order blocks ``[a, R, C]``, which lane fragments are taken from)."""

    rows: int
    cols: int
    a: int
    dt: np.dtype
    isz: int
    mode: str
    v: int
    mdt: np.dtype
    per_unit: int
    width_units: int
    plan: BlockPlan
    check: bool
    bits: int
    out_shape: tuple[int, ...] | None

    @classmethod
    def decode(cls, op: Any, engine: Any, td: T.TensorDescType, out_shape: tuple[int, ...] | None) -> BlockLoad:
        """Decode ``op``'s load of 2-D descriptor type ``td`` (a located compile error for an illegal one)."""
        dt, isz = _elem_info(op, td.element_type)
        acc = decode_block_access(op)
        a, rows, cols = acc.array_length, acc.rows, acc.cols
        bits = isz * 8
        emu = engine.target.get("block2d.transpose_emulation_bytes")
        mode, v = acc.mode(emu)
        try:
            if mode in ("tvnni", "tnarrow"):
                # spec §1.3: X2X / IMEX load narrow data transposed as emu-byte units (X and W scaled)
                if cols % v:
                    raise compile_error(op, f"a transposed {bits}-bit load needs a multiple of {v} columns, got {cols}")
                unit, mcols = emu, cols // v
                plan = BlockPlan(engine.target, emu, rows, a * mcols, "load", a, transpose=True)
                mdt = np.dtype(f"u{emu}")
            elif mode == "transpose":
                unit, mcols, mdt = isz, cols, dt
                plan = BlockPlan(engine.target, isz, rows, a * cols, "load", a, transpose=True)
            elif mode == "vnni":
                vnni_bytes = engine.target.block2d.load_vnni.element_bytes
                if isz not in vnni_bytes:
                    raise compile_error(op, f"packed (VNNI) loads need {' or '.join(f'{8 * b}-bit' for b in vnni_bytes)} "
                                            f"elements, not {bits}-bit "
                                            f"({engine.target.source_of('block2d.load_vnni.element_bytes')})")
                unit, mcols, mdt = isz, cols, dt
                plan = BlockPlan(engine.target, isz, rows, a * cols, "load", a, vnni=True)
            else:
                unit, mcols, mdt = isz, cols, dt
                plan = BlockPlan(engine.target, isz, rows, a * cols, "load", a)
        except ValueError as exc:
            raise compile_error(op, str(exc)) from None
        per_unit = unit // isz if unit > isz else 1
        if out_shape is not None:
            if mode in ("vnni", "tvnni") and out_shape[-1] != v:
                raise compile_error(op, f"expected a packed result with {v} elements in the last dimension")
            want = {"plain": rows * cols, "transpose": rows * cols, "tnarrow": rows * cols, "tvnni": rows * cols,
                    "vnni": -(-rows // v) * v * cols}[mode] * a
            if int(np.prod(out_shape)) != want:
                vt = op.results[0].type
                raise compile_error(op, f"result {vt} does not hold the {a} x {rows}x{cols} block(s) of the descriptor")
        return cls(rows, cols, a, dt, isz, mode, v, mdt, per_unit, a * mcols, plan, td.boundary_check, bits,
                   out_shape)

    def arrange(self, mem: np.ndarray) -> np.ndarray:
        """Memory-order tiles ``[..., rows, width_units]`` (``mdt``) -> the op's value (leading axes kept)."""
        rows, a, cols, v, dt = self.rows, self.a, self.cols, self.v, self.dt
        if self.mdt != dt:
            mem = mem.view(dt)  # little-endian: the lower-addressed element is in the lower bits
        lead = mem.shape[:-2]
        blocks = np.swapaxes(mem.reshape(*lead, rows, a, cols), -2, -3)  # [..., a, R, C]
        if self.out_shape is None:
            return np.ascontiguousarray(blocks)
        mode = self.mode
        if mode == "plain":
            out = blocks
        elif mode == "vnni":
            rp = -(-rows // v) * v
            if rp != rows:
                blocks = np.concatenate([blocks, np.zeros((*lead, a, rp - rows, cols), dt)], axis=-2)
            from xesim.exec import vnni  # numba: imported when a packed load first runs

            out = vnni.pack(blocks, v)  # [..., a, rp/v, C, v]
        elif mode in ("transpose", "tnarrow"):
            out = np.swapaxes(blocks, -1, -2)
        else:  # tvnni: res[k][n][p] = T[n][v*k + p]
            out = np.swapaxes(blocks.reshape(*lead, a, rows, cols // v, v), -3, -2)
        return np.ascontiguousarray(out).reshape(*lead, *self.out_shape)

    def unit_x(self, x: Any) -> Any:
        """A block start's column in message units (transposed narrow loads move ``per_unit`` elements a unit)."""
        if self.per_unit == 1:
            return x
        if np.any(np.asarray(x) % self.per_unit):
            first = int(np.asarray(x).reshape(-1)[np.argmax(np.asarray(x).reshape(-1) % self.per_unit != 0)])
            raise ExecFault(f"the column offset {first} of a transposed {self.bits}-bit load must be a multiple of "
                            f"{self.per_unit} (it is loaded as 32-bit units)")
        return x // self.per_unit

    def one(self, engine: Any, op: Any, d: NdDesc, y: int, x: int) -> np.ndarray:
        """One instance's value: the block at (y, x) (elements)."""
        if not self.check:
            bad = oob_region(d, x, y, self.rows, self.a * self.cols)
            if bad:
                raise ExecFault(bad)
        mem = blocks.load_2d_memory(engine, op, self.plan, d, self.unit_x(x), y, self.rows, self.width_units, self.mdt)
        return self.arrange(mem)

    def many(self, engine: Any, op: Any, d: NdDesc, y: Any, x: Any, n: int) -> np.ndarray:
        """``n`` instances' values ``[n, ...]``: the blocks at (y, x) (ints when the same for all, else ``[n]``
        arrays): wholly inside blocks copied at once, the others (and all under the reference engine) through the
        block model one by one."""
        if blocks.REFERENCE_LOADS or engine.config.kernel_reference:
            ys, xs = np.broadcast_to(y, n), np.broadcast_to(x, n)
            return np.stack([self.one(engine, op, d, int(ys[i]), int(xs[i])) for i in range(n)])
        where = Block2D(engine, op, d, y, x, n, self.rows, self.width_units, self.mdt.itemsize, self.per_unit,
                        self.check, self.plan, "load", self.bits)
        if where.flat is not None and where.all_inside:
            return self.arrange(where.gather(None).view(self.mdt))
        out = None
        if where.flat is not None:
            sel = np.nonzero(where.inside)[0]
            if len(sel):
                tiles = self.arrange(where.gather(sel).view(self.mdt))
                out = np.empty((n, *tiles.shape[1:]), tiles.dtype)
                out[sel] = tiles
        rest = np.nonzero(~where.inside)[0] if out is not None else np.arange(n)
        ys, xs = np.broadcast_to(y, n), np.broadcast_to(x, n)
        for i in rest:
            tile = self.one(engine, op, d, int(ys[i]), int(xs[i]))
            if out is None:
                out = np.empty((n, *tile.shape), tile.dtype)
            out[i] = tile
        return out


def _load_1d(engine: Any, op: Any, d: NdDesc, x: int, n: int, dt: np.dtype, isz: int, check: bool) -> np.ndarray:
    """One instance's 1-D block load of ``n`` elements at column ``x``."""
    lo, hi = check_1d(engine, op, d, x, n, "load", check)
    out = np.zeros(n, dt)
    if hi > lo:
        out[lo - x : hi - x] = d.space.read(d.base + lo * isz, (hi - lo) * isz).view(dt)
    return out


def _store_1d(engine: Any, op: Any, d: NdDesc, x: int, v: np.ndarray, isz: int, check: bool) -> None:
    w = v.size
    lo, hi = check_1d(engine, op, d, x, w, "store", check)
    if hi > lo:
        d.space.write(d.base + lo * isz, v.reshape(w)[lo - x : hi - x])


# ============================================================================ lane fragments
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


def _default_block_layout(target: Any, isz: int, cols: int, packed: bool, transposed: bool) -> LaneLayout:
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


def _batch_layout(plane: LaneLayout, nlead: int) -> LaneLayout:
    """A plane's lane layout extended over ``nlead`` leading (batch) dimensions of one lane and one element each:
    by the general rule of upstream-xegpu-xevm.md §2.20 a lane's fragment of a batched tile is then its fragment of
    each plane, planes in row-major order (the leading dimensions are the slowest)."""
    if nlead == 0:
        return plane
    order = plane.order
    if order is not None:
        order = tuple(o + nlead for o in order) + tuple(reversed(range(nlead)))
    return LaneLayout((1,) * nlead + tuple(plane.lane_layout), (1,) * nlead + tuple(plane.lane_data), order)


def fragment_layout(op: Any, cx: Any, td: T.TensorDescType, frag_len: int) -> tuple[LaneLayout, np.ndarray]:
    """(layout, index map ``[lanes, fragment]`` into the memory-order tile) of a SIMT block access."""
    _, isz = _elem_info(op, td.element_type)
    a = td.array_length
    lanes = cx.engine.target.subgroup.size
    if td.rank == 1:
        layout = _explicit_lane_layout(op, td) or LaneLayout((lanes,), (1,))
        shape: tuple[int, ...] = (td.shape[0],)
    else:
        acc = decode_block_access(op)
        layout = _explicit_lane_layout(op, td) or _batch_layout(
            _default_block_layout(cx.engine.target, isz, td.shape[-1], acc.packed, acc.transpose), td.rank - 2)
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


def _collective_starts(fr: list, ks: Any, s_td: int, get_off: Any, what: str) -> tuple[NdDesc, np.ndarray]:
    """The block descriptor and each subgroup's start ``[groups, rank]`` of a collective block op: the descriptor
    and offsets must be the same for the lanes of a subgroup."""
    if ks.groups == 1:
        d = fr[s_td]
        if isinstance(d, Varying):
            d = uniform_value(d, ks.mask, what)
        offs = [uniform_value(o, ks.mask, what) for o in get_off(fr)]
        if not isinstance(d, NdDesc):
            raise ExecFault("not a block descriptor")
        start = np.array(d.offsets, np.int64)
        if offs:
            if len(offs) != len(start):
                raise ExecFault("offsets do not match the descriptor's rank")
            start = start + np.array([int(o) for o in offs], np.int64)
        return d, start[None, :]
    return group_block_starts(fr, s_td, get_off, ks.groups, ks.group)


# ============================================================================ load / store / prefetch
@impl("xegpu.load_nd", axis=True, threaded=True)
def _load_nd(op: Any, cx: Any):
    """Block load of the descriptor's tile (module docstring)."""
    engine = cx.engine
    ks = engine.kstate
    _level_guard(op)
    td_v = _operand(op, "TensorDesc")
    td: T.TensorDescType = td_v.type
    vt = op.results[0].type
    simt = simt_value(op)
    if simt and cx.group == 1:
        raise compile_error(op, LANE_LEVEL)
    res = cx.slot(op.results[0])
    s_td = cx.slot(td_v)
    get_off = offsets_getter(cx, op, td.rank)
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    dt, isz = _elem_info(op, td.element_type)
    if td.rank > 2:
        return _batched_load(op, cx, td, vt, s_td, res, get_off, simt)
    if td.rank == 1:
        n1 = td.shape[0] * td.array_length
        out_shape = (n1,) if simt else tuple(vt.shape)
        if int(np.prod(out_shape)) != n1:
            raise compile_error(op, f"result does not hold the {td.array_length} x {td.shape[0]} elements of the "
                                    "descriptor")
        acc = None

        def value(d: NdDesc, y: int, x: int) -> np.ndarray:
            return _load_1d(engine, op, d, x, n1, dt, isz, td.boundary_check).reshape(out_shape)
    else:
        acc = BlockLoad.decode(op, engine, td, None if simt else tuple(vt.shape))

        def value(d: NdDesc, y: int, x: int) -> np.ndarray:
            return acc.one(engine, op, d, y, x)

    if simt:
        _, idx = fragment_layout(op, cx, td, vt.num_elements)
        flat_idx = idx.reshape(-1)
        out_dt = dtype_of(vt.element_type)

        def simt_step(fr: list) -> None:
            require_whole_subgroup(ks)
            d, offs = _collective_starts(fr, ks, s_td, get_off, "the descriptor or offset of a block load")
            g = len(offs)
            if acc is not None:
                tiles = acc.many(engine, op, d, offs[:, 0], offs[:, 1], g)
            else:
                tiles = np.stack([value(d, 0, int(offs[i, 0])) for i in range(g)])
            fr[res] = Varying.permuted(tiles.reshape(g, -1).astype(out_dt, copy=False), flat_idx, g * ks.group)

        return simt_step

    def one(fr: list) -> None:
        d: NdDesc = fr[s_td]
        off = get_off(fr)
        if td.rank == 2:
            fr[res] = value(d, d.offsets[0] + off[0], d.offsets[1] + off[1])
        else:
            fr[res] = value(d, 0, d.offsets[0] + off[0])

    if cx.width == 1:
        return one

    def step(fr: list) -> None:
        if not _varying_in(fr, in_slots):
            one(fr)
            return
        n = ks.slots
        sel = None if len(ks.mask) == n else np.array(ks.mask, np.int64)  # divergence: the active instances
        got = block_starts(fr, s_td, get_off, n, sel) if acc is not None else None
        if got is None:
            vals = _per_slot(fr, ks, one, in_slots, [res])[0]
            fr[res] = stack_or_list(vals) if sel is None else Varying(vals)
            return
        d, y, x = got
        if sel is None:
            fr[res] = Varying.from_stack(acc.many(engine, op, d, y, x, n))
        else:
            fr[res] = scatter_active(acc.many(engine, op, d, y, x, len(sel)), sel, n)

    return step


@impl("xegpu.store_nd", axis=True, threaded=True)
def _store_nd(op: Any, cx: Any):
    """Block store: the value's in-surface elements are written, the rest dropped (spec §1.4); 2-D tiles are split
    into legal store messages (at most 8 rows, 64 bytes wide on PVC, §1.3).  The value is any shape with the
    descriptor's element count, in row-major memory order."""
    engine = cx.engine
    ks = engine.kstate
    _level_guard(op)
    td_v = _operand(op, "TensorDesc")
    td: T.TensorDescType = td_v.type
    val = _operand(op, "value")
    simt = simt_value(op)
    if simt and cx.group == 1:
        raise compile_error(op, LANE_LEVEL)
    dt, isz = _elem_info(op, td.element_type)
    s_td, s_val = cx.slot(td_v), cx.slot(val)
    get_off = offsets_getter(cx, op, td.rank)
    check = td.boundary_check
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    plan = None
    if td.rank >= 2:
        rows, cols = td.shape[-2:]
        try:
            plan = BlockPlan(engine.target, isz, rows, cols, "store")
        except ValueError as exc:
            raise compile_error(op, str(exc)) from None

    def store(d: NdDesc, y: int, x: int, v: Any) -> None:
        """One instance's store of tile ``v`` at (y, x)."""
        if plan is None:
            _store_1d(engine, op, d, x, np.asarray(v, dt), isz, check)
            return
        from xesim.hw.block2d import store_values

        if not check:
            bad = oob_region(d, x, y, rows, cols)
            if bad:
                raise ExecFault(bad)
        tile = np.asarray(v, dt).reshape(rows, cols)
        surf = surface(d)
        check_msg = checker(engine)
        for msg in plan.messages:
            blk = msg.block
            bx, by = x + msg.x_off, y + msg.y_off
            viol = check_msg(surf, blk, bx, by, "store")
            if viol:
                report(engine, op, viol, message_text("store", blk, by, bx))
        if blocks.store_in_place(engine, d, x, y, tile, isz):
            return
        for msg in plan.messages:
            blk = msg.block
            bx, by = x + msg.x_off, y + msg.y_off
            part = tile[msg.y_off : msg.y_off + blk.height, msg.x_off : msg.x_off + blk.width * blk.count]
            store_values(d.space, surf, blk, bx, by, part)

    def store_many(d: NdDesc, y: Any, x: Any, tiles: np.ndarray) -> None:
        """``n`` instances' stores of ``tiles [n, ...]``: at once when every block is inside its surface and no two
        overlap (the order cannot matter), else one after another in instance order."""
        n = len(tiles)
        if plan is not None and not (blocks.REFERENCE_LOADS or engine.config.kernel_reference):
            where = Block2D(engine, op, d, y, x, n, rows, cols, isz, 1, check, plan, "store", isz * 8)
            if where.flat is not None and where.all_inside and not where.overlap():
                vals = np.ascontiguousarray(tiles, dtype=dt).reshape(n, rows, cols)
                where.scatter(vals.view(where.flat.dtype))
                return
        ys, xs = np.broadcast_to(y, n), np.broadcast_to(x, n)
        for i in range(n):
            store(d, int(ys[i]), int(xs[i]), tiles[i])

    if td.rank > 2:
        return _batched_store(op, cx, td, s_td, s_val, get_off, store, simt)
    if simt:
        _, idx = fragment_layout(op, cx, td, val.type.num_elements)
        size = idx.size
        flat_idx = idx.reshape(-1)
        shape = tuple(td.shape) if td.rank == 2 else (size,)

        def simt_step(fr: list) -> None:
            require_whole_subgroup(ks)
            d, offs = _collective_starts(fr, ks, s_td, get_off, "the descriptor or offset of a block store")
            g = len(offs)
            tiles = np.empty((g, size), dt)
            tiles[:, flat_idx] = stacked(fr[s_val], g * ks.group).reshape(g, -1)
            if plan is None:
                for i in range(g):
                    store(d, 0, int(offs[i, 0]), tiles[i])
                return
            store_many(d, offs[:, 0], offs[:, 1], tiles.reshape(g, *shape))

        return simt_step

    def one(fr: list) -> None:
        d: NdDesc = fr[s_td]
        off = get_off(fr)
        if td.rank == 2:
            store(d, d.offsets[0] + off[0], d.offsets[1] + off[1], fr[s_val])
        else:
            store(d, 0, d.offsets[0] + off[0], fr[s_val])

    if cx.width == 1:
        return one

    def step(fr: list) -> None:
        if not _varying_in(fr, in_slots):
            one(fr)  # every instance stores the same bytes: once is the same
            return
        n = ks.slots
        sel = None if len(ks.mask) == n else np.array(ks.mask, np.int64)  # divergence: the active instances
        got = block_starts(fr, s_td, get_off, n, sel) if plan is not None else None
        if got is None:
            _per_slot(fr, ks, one, in_slots, [])  # in instance order
            return
        d, y, x = got
        store_many(d, y, x, stacked(fr[s_val], n) if sel is None else active_stack(fr[s_val], sel, n))

    return step


@impl("xegpu.prefetch_nd", axis=True, threaded=True)
def _prefetch_nd(op: Any, cx: Any):
    """Prefetch: the messages are validated like loads; no architectural effect (spec §1.3 Prefetch;
    out-of-surface prefetches are legal, §1.4)."""
    engine = cx.engine
    ks = engine.kstate
    _level_guard(op)
    td_v = _operand(op, "TensorDesc")
    td: T.TensorDescType = td_v.type
    _, isz = _elem_info(op, td.element_type)
    s_td = cx.slot(td_v)
    get_off = offsets_getter(cx, op, td.rank)
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    plan = None
    if td.rank == 2:
        rows, cols = td.shape
        try:
            plan = BlockPlan(engine.target, isz, rows, cols * td.array_length, "prefetch")
        except ValueError as exc:
            raise compile_error(op, str(exc)) from None

    def validate(d: NdDesc, y: Any, x: Any, n: int) -> None:
        if plan is None:
            if d.space is not engine.memory:
                raise ExecFault("prefetch of a shared local memory descriptor (prefetch is for global memory)")
            return
        Block2D(engine, op, d, y, x, n, rows, cols * td.array_length, isz, 1, True, plan, "prefetch", isz * 8,
                locate=False)

    def one(fr: list) -> None:
        d: NdDesc = fr[s_td]
        off = get_off(fr)
        if td.rank > 2:
            return  # batched: no architectural effect, planes are not validated
        if td.rank == 2:
            validate(d, d.offsets[0] + off[0], d.offsets[1] + off[1], 1)
        else:
            validate(d, 0, 0, 1)

    if cx.group > 1:  # lane level: collective, like the block load
        def simt_step(fr: list) -> None:
            require_whole_subgroup(ks)
            d, offs = _collective_starts(fr, ks, s_td, get_off, "the descriptor or offset of a block prefetch")
            if td.rank == 2:
                validate(d, offs[:, 0], offs[:, 1], len(offs))
            else:
                validate(d, 0, 0, 1)

        return simt_step
    if cx.width == 1:
        return one

    def step(fr: list) -> None:
        if not _varying_in(fr, in_slots):
            one(fr)
            return
        n = ks.slots
        sel = None if len(ks.mask) == n else np.array(ks.mask, np.int64)
        got = block_starts(fr, s_td, get_off, n, sel) if plan is not None else None
        if got is None:
            _per_slot(fr, ks, one, in_slots, [])
            return
        d, y, x = got
        validate(d, y, x, n if sel is None else len(sel))

    return step


# ============================================================================ batched (rank 3-5) descriptors
def _plane_starts(fr: list, ks: Any, s_td: int, get_off: Any, nlead: int, what: str) -> list[tuple[NdPlanes, list]]:
    """Lane level: each subgroup's batched descriptor and offsets (a collective op: the same for every lane of a
    subgroup, else a fault naming the lanes)."""
    d, offs = fr[s_td], list(get_off(fr))
    out = []
    for g in range(ks.groups):
        lanes = tuple(range(g * ks.group, (g + 1) * ks.group))
        p = uniform_value(d, lanes, what)
        if not isinstance(p, NdPlanes):
            raise ExecFault("not a batched block descriptor")
        out.append((p, [int(uniform_value(o, lanes, what)) for o in offs] or [0] * (nlead + 2)))
    return out


def _batched_load(op: Any, cx: Any, td: T.TensorDescType, vt: Any, s_td: int, res: int, get_off: Any,
                  simt: bool = False):
    """``load_nd`` of a batched descriptor (spec §2.3 "Batched descriptors"): each leading tile index reads its own
    plane with the 2-D load of the trailing tile; planes outside the source read 0.  At lane level each lane holds
    its fragment of every plane, planes in row-major order (:func:`_batch_layout`)."""
    engine = cx.engine
    ks = engine.kstate
    nlead = td.rank - 2
    lead = tuple(td.shape[:nlead])
    acc = BlockLoad.decode(op, engine, td, None if simt else tuple(vt.shape[nlead:]))
    dt = dtype_of(vt.element_type)

    def planes(p: NdPlanes, off: list) -> np.ndarray:
        out = None
        for idx, d in p.tile_planes(lead, off[:nlead]):
            v = acc.one(engine, op, d, d.offsets[0] + off[-2], d.offsets[1] + off[-1])
            if out is None:
                out = np.zeros(lead + v.shape, v.dtype)
            out[idx] = v
        return out

    if simt:
        _, idx_map = fragment_layout(op, cx, td, vt.num_elements)
        flat_idx = idx_map.reshape(-1)
        size = int(np.prod(td.shape)) * td.array_length

        def simt_step(fr: list) -> None:
            require_whole_subgroup(ks)
            starts = _plane_starts(fr, ks, s_td, get_off, nlead, "the descriptor or offset of a block load")
            tiles = np.zeros((len(starts), size), dt)
            for g, (p, off) in enumerate(starts):
                got = planes(p, off)
                if got is not None:
                    tiles[g] = got.reshape(-1).view(dt) if got.dtype != dt else got.reshape(-1)
            fr[res] = Varying.permuted(tiles, flat_idx, len(starts) * ks.group)

        return simt_step

    def one(fr: list) -> None:
        got = planes(fr[s_td], list(get_off(fr)))
        fr[res] = np.zeros(tuple(vt.shape), dt) if got is None else got.reshape(vt.shape)

    return one if cx.width == 1 else axis.lift(op, cx, one)


def _batched_store(op: Any, cx: Any, td: T.TensorDescType, s_td: int, s_val: int, get_off: Any, store: Any,
                   simt: bool = False):
    """``store_nd`` of a batched descriptor: each leading tile index writes its own plane (planes outside the source
    are dropped).  At lane level the subgroup's tile is gathered from the lanes' fragments first."""
    ks = cx.engine.kstate
    nlead = td.rank - 2
    lead = tuple(td.shape[:nlead])
    dt = dtype_of(td.element_type)

    def write(p: NdPlanes, off: list, v: np.ndarray) -> None:
        v = v.reshape(*lead, *td.shape[-2:])
        for idx, d in p.tile_planes(lead, off[:nlead]):
            store(d, d.offsets[0] + off[-2], d.offsets[1] + off[-1], v[idx])

    if simt:
        _, idx_map = fragment_layout(op, cx, td, _operand(op, "value").type.num_elements)
        flat_idx = idx_map.reshape(-1)
        size = int(np.prod(td.shape))

        def simt_step(fr: list) -> None:
            require_whole_subgroup(ks)
            starts = _plane_starts(fr, ks, s_td, get_off, nlead, "the descriptor or offset of a block store")
            g = len(starts)
            tiles = np.empty((g, size), dt)
            tiles[:, flat_idx] = stacked(fr[s_val], g * ks.group).reshape(g, -1)
            for i, (p, off) in enumerate(starts):
                write(p, off, tiles[i])

        return simt_step

    def one(fr: list) -> None:
        write(fr[s_td], list(get_off(fr)), np.asarray(fr[s_val]))

    return one if cx.width == 1 else axis.lift(op, cx, one)
