"""2-D block data movement along the instance axis (:mod:`xesim.exec.axis`): where every instance's block lies,
its messages validated once per class of starts, and the bytes copied between an allocation and a ``[n, rows,
units]`` stack by numba row copies (spec/pvc-hardware.md §1.1–§1.5).

Used by the block ops (:mod:`xesim.exec.ops.xegpu`) for many instances at once — the subgroups of a batch, or the
subgroups of a lane-level batch whose lanes hold fragments — and for one.  A block wholly inside its surface and
inside one live allocation is copied straight from memory: every element is then in bounds and the hardware
messages tile the block exactly, so the bytes are those of the message-by-message block model
(:mod:`xesim.hw.block2d`), which the ops use for any block reaching outside its surface.

Block descriptors of many instances that differ only in their offsets are one :class:`NdBatch`.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from xesim.exec import twins
from xesim.exec.axis import Varying, active_stack, stacked
from xesim.exec.faults import ExecFault
from xesim.exec.tdesc import NdDesc
from xesim.hw.memory import MemoryFault
from xesim.numerics import tiers
from xesim.numerics.work_queue import chunk_count, claim


def _varies(v: Any) -> bool:
    return isinstance(v, Varying)


# ============================================================================================ one block
def report(engine: Any, op: Any, violations: list, what: str) -> None:
    """Hardware-rule violations of one message: errors fault (``what`` names the message and where it was
    issued), warnings go through ``engine.warn`` (once per op and rule: the text leaves out the position)."""
    for v in violations:
        if v.severity == "error":
            raise ExecFault(f"{what}: {v.rule} ({v.source})")
        kind = what.split(" at ")[0]
        engine.warn(op, f"{kind}: {v.rule} ({v.source})")


class BlockChecker:
    """``check_block`` with a memo.  Its rules read the start offsets only through the signed-range check
    (``block2d.offset_bits``) and ``x mod block2d.x_multiple`` (spec/pvc-hardware.md §1.1–§1.2), so the result
    is cached per (surface, block, kind, x mod L, offsets in range) with L the lcm of the target's
    ``x_multiple`` values; everything else it reads is the surface and the block.  Violations that mention the
    offsets (reported as errors) are recomputed, so messages stay exact."""

    def __init__(self, target: Any) -> None:
        from math import lcm

        self.target = target
        mult = target.get("block2d.x_multiple")
        self.modulus = lcm(*[int(v) for v in mult.values()]) if isinstance(mult, dict) else int(mult)
        bits = target.get("block2d.offset_bits")
        self.lo, self.hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        self.memo: dict[tuple, list] = {}
        #: (surface, plan, kind, x mod L * 2 + in range) whose every message had no violation (batched loads)
        self.clean: set[tuple] = set()

    def __call__(self, surf: Any, blk: Any, x: int, y: int, kind: str) -> list:
        from xesim.hw.block2d import check_block

        inside = self.lo <= x <= self.hi and self.lo <= y <= self.hi
        key = (surf, blk, kind, x % self.modulus, inside)
        v = self.memo.get(key)
        if v is None:
            v = check_block(self.target, surf, blk, x, y, kind)
            if len(self.memo) < 65536:
                self.memo[key] = v
        elif any(e.severity == "error" for e in v):
            v = check_block(self.target, surf, blk, x, y, kind)
        return v


def checker(engine: Any) -> BlockChecker:
    c = engine.__dict__.get("_xegpu_block_checker")
    if c is None or c.target is not engine.target:
        c = engine.__dict__["_xegpu_block_checker"] = BlockChecker(engine.target)
    return c


#: Force every block load/store through the per-message GRF model (tests compare it with the direct in-bounds path);
#: ``engine.config.kernel_reference`` (XESIM_ENGINE=reference, and the second run under both) does the same per engine.
REFERENCE_LOADS = False


def window_view(space: Any, base: int, pitch: int, x: int, y: int, rows: int, cols: int, unit: int
                ) -> np.ndarray | None:
    """The ``rows`` x ``cols`` window of ``unit``-byte elements at element (``x``, ``y``) of the surface at
    ``base`` with row pitch ``pitch`` bytes, as a writable ``[rows, cols * unit]`` uint8 view of its allocation —
    when the window spans one live allocation and its rows are element-aligned; None otherwise (the caller then
    takes the block model's path, which reports faults).  The caller has checked the window lies inside its
    surface: every element is then in bounds, so copying the view moves the bytes the block model's messages
    move."""
    try:
        alloc, off = space.resolve(base + y * pitch + x * unit, (rows - 1) * pitch + cols * unit)
    except MemoryFault:
        return None
    if pitch % unit or off % unit:
        return None
    return np.ndarray((rows, cols * unit), np.uint8, alloc.data, off, (pitch, 1))


def surface(d: NdDesc) -> Any:
    s = d._surface
    if s is None:
        from xesim.hw.block2d import Surface

        s = d._surface = Surface(d.base, d.width_bytes, d.height, d.pitch_bytes)
    return s


def oob_region(d: NdDesc, x: int, y: int, h: int, w: int) -> str | None:
    if x < 0 or y < 0 or x + w > d.width or y + h > d.height:
        return (f"the {h}x{w} block at [{y}, {x}] reaches outside the {d.height}x{d.width} surface, "
                f"but the descriptor has boundary_check = false (undefined behaviour)")
    return None


def image_to_memory(vals: np.ndarray, blk: Any) -> np.ndarray:
    """A message's values in memory order ``[count, H, W]`` (the inverse of the block load's layout)."""
    if blk.transpose:
        return vals.transpose(0, 2, 1)
    if blk.vnni:
        b, rows, w, k = vals.shape
        return vals.transpose(0, 1, 3, 2).reshape(b, rows * k, w)[:, : blk.height, :]
    return vals


class BlockPlan:
    """The hardware messages covering a subgroup tile (decided once, when the op is compiled) and the unit they are
    counted in: :func:`xesim.hw.block2d.split_tile` (spec/pvc-hardware.md §1.3); ValueError when the tile cannot
    be split into legal messages."""

    def __init__(self, target: Any, isz: int, rows: int, cols: int, kind: str, array_length: int = 1,
                 transpose: bool = False, vnni: bool = False) -> None:
        from xesim.hw.block2d import split_tile

        self.unit = isz
        try:
            self.messages = split_tile(target, isz, rows, cols, kind, array_length=array_length,
                                       transpose=transpose, vnni=vnni)
        except ValueError as exc:
            raise ValueError(f"cannot split the {rows}x{cols} tile into 2D block {kind} messages: {exc}") from None


def load_2d_memory(engine: Any, op: Any, plan: BlockPlan, d: NdDesc, x: int, y: int, rows: int, cols: int,
                    mdt: np.dtype) -> np.ndarray:
    """Issue the plan's load messages at (x, y) (message units) and return the memory-order tile
    ``[rows, cols]`` they read (0 outside the surface).

    Every message is validated.  Its values come from the block model (GRF image of spec §1.5, per-element
    bounds of §1.4) — or, when the whole tile lies inside the surface and inside one live allocation, straight
    from memory: every element is then in bounds and the messages tile the block exactly, so the memory-order
    tile is the same (``REFERENCE_LOADS`` forces the model path; the tests compare the two)."""
    from xesim.hw.block2d import load_values

    surf = surface(d)
    target = engine.target
    check = checker(engine)
    space = d.space
    for msg in plan.messages:
        blk = msg.block
        bx, by = x + msg.x_off, y + msg.y_off
        v = check(surf, blk, bx, by, "load")
        if v:
            report(engine, op, v, message_text("load", blk, by, bx))
    unit = mdt.itemsize
    if (not (REFERENCE_LOADS or engine.config.kernel_reference) and x >= 0 and y >= 0
            and (x + cols) * unit <= d.width_bytes and y + rows <= d.height):
        view = window_view(space, d.base, d.pitch_bytes, x, y, rows, cols, unit)
        if view is not None:
            return view.copy().view(mdt)
    out = np.zeros((rows, cols), mdt)
    for msg in plan.messages:
        blk = msg.block
        bx, by = x + msg.x_off, y + msg.y_off
        vals = load_values(space, surf, blk, bx, by, mdt, target=target)
        mem = image_to_memory(np.asarray(vals), blk)
        w = blk.width
        for b in range(blk.count):
            c0 = msg.x_off + b * w
            out[msg.y_off : msg.y_off + blk.height, c0 : c0 + w] = mem[b]
    return out


def check_1d(engine: Any, op: Any, d: NdDesc, x: int, n: int, kind: str, check: bool) -> tuple[int, int]:
    """Validate a 1-D block access of ``n`` elements at column ``x`` (start alignment from the target's
    ``[block1d]``); return the in-surface element range."""
    if not check and (x < 0 or x + n > d.width):
        raise ExecFault(f"the {n}-element block at [{x}] reaches outside the {d.width}-element surface, but the "
                        f"descriptor has boundary_check = false (undefined behaviour)")
    target = engine.target
    key = "slm_alignment_bytes" if d.space is not engine.memory else f"{kind}_alignment_bytes"
    align = target.get(f"block1d.{key}")
    addr = d.base + x * d.elem_bytes
    if addr % align:
        msg = (f"1-D block {kind} at address 0x{addr:x} is not {align}-byte aligned "
               f"({target.source_of(f'block1d.{key}')})")
        if target.get("block1d.severity") == "error":
            raise ExecFault(msg)
        engine.warn(op, msg)
    return max(x, 0), min(x + n, d.width)


def store_in_place(engine: Any, d: NdDesc, x: int, y: int, v: np.ndarray, isz: int) -> bool:
    """Write a validated store tile straight into memory when it lies wholly inside the surface and one live
    allocation: every element is then in bounds and the messages tile the block exactly, so memory ends up the
    same as with the block model's message-by-message stores (``REFERENCE_LOADS`` forces the model path, and so
    does ``--check-races``, whose detector watches the model's accesses)."""
    rows, cols = v.shape
    if REFERENCE_LOADS or engine.config.kernel_reference or engine.config.check_races:
        return False
    if x < 0 or y < 0 or (x + cols) * isz > d.width_bytes or y + rows > d.height:
        return False
    view = window_view(d.space, d.base, d.pitch_bytes, x, y, rows, cols, isz)
    if view is None:
        return False
    view[...] = np.ascontiguousarray(v).view(np.uint8).reshape(rows, cols * isz)
    return True


# ============================================================================================ descriptors
class NdBatch(Varying):
    """Block descriptors of a batch that differ only in their offsets: ``desc`` (any instance's descriptor) and
    ``offs`` ``[B, rank]``; ``lanes`` gives the per-instance :class:`NdDesc` values."""

    __slots__ = ("desc", "offs")

    def __init__(self, desc: NdDesc, offs: np.ndarray) -> None:
        super().__init__(None, None)
        self.desc = desc
        self.offs = offs

    @property
    def lanes(self) -> list:
        if self._lanes is None:
            d = self.desc
            self._lanes = [NdDesc(d.space, d.base, d.height, d.width, d.pitch, tuple(int(x) for x in o),
                                  d.elem_bytes, d.origin, d._surface) for o in self.offs]
        return self._lanes


def nd_batch(vals: list) -> Varying:
    d0 = vals[0]
    if all(isinstance(d, NdDesc) and d.space is d0.space and d.base == d0.base and d.height == d0.height
           and d.width == d0.width and d.pitch == d0.pitch and d.elem_bytes == d0.elem_bytes for d in vals):
        b = NdBatch(d0, np.array([d.offsets for d in vals], np.int64))
        b._lanes = vals
        return b
    return Varying(vals)



# ============================================================================================ block starts
def op_offsets(fr: list, get_off: Any, n: int) -> np.ndarray | None:
    """The op's offset operands as int64 ``[n, rank]``, or ``[rank]`` when they are the same for every instance
    (it broadcasts against ``[n, rank]``); None when there are none."""
    offs = get_off(fr)
    if not offs:
        return None
    if not any(_varies(o) for o in offs):
        return np.array([int(o) for o in offs], np.int64)
    cols = [stacked(o, n).astype(np.int64) if _varies(o) else np.full(n, int(o), np.int64) for o in offs]
    return np.stack(cols, axis=1)


def desc_and_offsets(fr: list, s_td: int, get_off: Any, n: int) -> tuple[NdDesc, np.ndarray] | None:
    """The batch's common descriptor and every instance's block start ``[n, rank]``, or None when the
    descriptors differ in more than their offsets."""
    d = fr[s_td]
    if isinstance(d, NdBatch):
        base, offs = d.desc, d.offs
    elif isinstance(d, NdDesc):
        base, offs = d, np.broadcast_to(np.array(d.offsets, np.int64), (n, len(d.offsets)))
    else:
        return None
    extra = op_offsets(fr, get_off, n)
    if extra is not None:
        if extra.shape[-1] != offs.shape[1]:
            return None
        offs = offs + extra
    return base, offs


def block_starts(fr: list, s_td: int, get_off: Any, n: int,
                 sel: np.ndarray | None = None) -> tuple[NdDesc, Any, Any] | None:
    """A 2-D block op's common descriptor and every instance's block start as (descriptor, y, x): each an int
    when it is the same for every instance, else an int64 array ``[n]`` (``sel``: only the instances of these
    slots, ``[len(sel)]``); None when the descriptors differ in more than their offsets or the op's offsets do not
    match the descriptor's rank."""
    d = fr[s_td]
    if isinstance(d, NdBatch):
        offs = d.offs if sel is None else d.offs[sel]
        base, y, x = d.desc, offs[:, 0], offs[:, 1]
    elif isinstance(d, NdDesc):
        base, (y, x) = d, d.offsets
    else:
        return None
    offs = get_off(fr)
    if offs:
        if len(offs) != 2:
            return None
        oy, ox = offs
        y = y + (_ints(oy, n, sel) if _varies(oy) else int(oy))
        x = x + (_ints(ox, n, sel) if _varies(ox) else int(ox))
    return base, y, x


def _ints(v: Any, n: int, sel: np.ndarray | None) -> np.ndarray:
    return (stacked(v, n) if sel is None else active_stack(v, sel, n)).astype(np.int64)


#: group_ints results of the last lane values it saw (kept alive: compared by identity), newest last; a loop's
#: loads take the same offset values (e.g. a tile row computed before the loop) at every iteration
_RECENT_GROUPS: list = []


def forget_groups() -> None:
    """Release the lane values :func:`group_ints` keeps (end of a batch)."""
    _RECENT_GROUPS.clear()


def group_ints(v: Any, groups: int, size: int) -> np.ndarray:
    """Batched lane level: the value of each of ``groups`` subgroups (``size`` lanes each) of an integer lane value
    that is uniform within every subgroup (read-only); ExecFault (the batch falls back) when it is not."""
    if not _varies(v):
        return np.full(groups, int(v), np.int64)
    for rv, rg, rs, got in _RECENT_GROUPS:
        if rv is v and rg == groups and rs == size:
            return got
    got = _group_ints(v, groups, size)
    got.flags.writeable = False
    _RECENT_GROUPS.append((v, groups, size, got))
    del _RECENT_GROUPS[:-8]
    return got


def _group_ints(v: Any, groups: int, size: int) -> np.ndarray:
    arr = v.arr if v.arr is not None and v.arr.ndim == 1 else np.array(v.lanes, dtype=object)
    try:
        g = np.asarray(arr, np.int64).reshape(groups, size)
    except (TypeError, ValueError) as exc:
        raise ExecFault(f"a subgroup-uniform operand is not an integer per lane ({exc})") from None
    if not (g == g[:, :1]).all():
        raise ExecFault("an operand of a collective op differs between the lanes of a subgroup")
    return g[:, 0]


def group_block_starts(fr: list, s_td: int, get_off: Any, groups: int, size: int) -> tuple[NdDesc, np.ndarray]:
    """Batched lane level: the common block descriptor and each subgroup's block start ``[groups, rank]``
    (descriptor offsets + op offsets), or ExecFault when they are not uniform within every subgroup or the
    subgroups' descriptors differ in more than their offsets."""
    d = fr[s_td]
    if isinstance(d, NdDesc):
        base, offs = d, np.broadcast_to(np.array(d.offsets, np.int64), (groups, len(d.offsets)))
    elif isinstance(d, NdBatch) and len(d.offs) == groups * size:
        o = d.offs.reshape(groups, size, -1)
        if not (o == o[:, :1]).all():
            raise ExecFault("the descriptor of a collective op differs between the lanes of a subgroup")
        base, offs = d.desc, o[:, 0]
    elif _varies(d):
        lanes = d.lanes
        reps = lanes[::size]
        if any(lanes[i] != reps[i // size] for i in range(len(lanes))):
            raise ExecFault("the descriptor of a collective op differs between the lanes of a subgroup")
        b = nd_batch(reps)
        if not isinstance(b, NdBatch):
            raise ExecFault("the subgroups' descriptors differ in more than their offsets")
        base, offs = b.desc, b.offs
    else:
        raise ExecFault("not a block descriptor")
    extra = [group_ints(o, groups, size) for o in get_off(fr)]
    if extra:
        if len(extra) != offs.shape[1]:
            raise ExecFault("offsets do not match the descriptor's rank")
        offs = offs + np.stack(extra, axis=1)
    return base, offs


# ============================================================================================ copies
#: a read-only all-True mask for batches whose blocks are all inside their surface
_ALL_TRUE = np.ones(4096, np.bool_)
_ALL_TRUE.flags.writeable = False


@numba.njit(cache=True)
def _range_residue(v, mod):  # noqa: ANN001, ANN202
    """Least and greatest element of the int64 array ``v`` and, when every element has the same residue modulo
    ``mod`` (> 0), that residue, else -1: one pass instead of three numpy reductions."""
    lo = v[0]
    hi = v[0]
    r0 = v[0] % mod
    same = True
    for i in range(1, v.shape[0]):
        e = v[i]
        lo = min(lo, e)
        hi = max(hi, e)
        if same and e % mod != r0:
            same = False
    return lo, hi, r0 if same else -1


def _stats(v: Any, mod: int) -> tuple[int, int, int]:
    """(least, greatest, common residue modulo ``mod`` or -1) of ``v``: an int, or a non-empty int64 array."""
    if isinstance(v, np.ndarray):
        lo, hi, r = _range_residue(v, mod) if RANGE_TIER.compiled(v.shape[0]) else twins.range_residue(v, mod)
        return int(lo), int(hi), int(r)
    return v, v, v % mod


def message_text(kind: str, blk: Any, y: int, x: int) -> str:
    """How reports name one 2D block message: ``2D block load of HxWxC at [y, x]`` (C blocks side by side; a store
    moves one block, named ``HxW``)."""
    size = f"{blk.height}x{blk.width}" if kind == "store" else f"{blk.height}x{blk.width}x{blk.count}"
    return f"2D block {kind} of {size} at [{y}, {x}]"


def validate_messages(engine: Any, op: Any, d: NdDesc, y: Any, x: Any, plan: Any, kind: str,
                       ys: tuple[int, int, int] | None = None, xs: tuple[int, int, int] | None = None) -> None:
    """Check every message of ``plan`` at every block start (``y``, ``x`` in message units: ints when the same
    for every instance, else int64 arrays) against the target's 2-D block rules and report what they find
    (``xegpu._report``).  The rules read a start only through ``x mod L`` and whether it is in the offset range
    (``_BlockChecker``): one start per such class is checked, and a class whose messages all passed is remembered
    per (surface, plan, kind) and not checked again.  ``ys``/``xs``: :func:`_stats` of ``y``/``x`` modulo the
    checker's ``L`` when the caller has them."""
    chk = checker(engine)
    lo, hi, mod = chk.lo, chk.hi, chk.modulus
    xlo, xhi, xres = xs if xs is not None else _stats(x, mod)
    ylo, yhi, _ = ys if ys is not None else _stats(y, mod)
    if xlo >= lo and xhi <= hi and ylo >= lo and yhi <= hi:
        if not isinstance(x, np.ndarray):
            starts: Any = [(x % mod * 2 + 1, x, ylo)]
        else:
            if xres >= 0:
                starts = [(xres * 2 + 1, int(x[0]), ylo)]
            else:
                xm = x % mod
                keys, first = np.unique(xm * 2 + 1, return_index=True)
                starts = [(int(k), int(x[i]), int(np.broadcast_to(y, x.shape)[i])) for k, i in zip(keys, first)]
    else:
        n = max(np.size(x), np.size(y))
        xs, ys = np.broadcast_to(x, n), np.broadcast_to(y, n)
        inside = (xs >= lo) & (xs <= hi) & (ys >= lo) & (ys <= hi)
        keys, first = np.unique(xs % mod * 2 + inside, return_index=True)
        starts = [(int(k), int(xs[i]), int(ys[i])) for k, i in zip(keys, first)]
    surf = surface(d)
    clean = chk.clean  # classes whose messages all passed before: nothing to report again
    for key, xi, yi in starts:
        ck = (surf, plan, kind, key)
        if ck in clean:
            continue
        found = False
        for msg in plan.messages:
            blk = msg.block
            bx, by = xi + msg.x_off, yi + msg.y_off
            v = chk(surf, blk, bx, by, kind)
            if v:
                found = True
                report(engine, op, v, message_text(kind, blk, by, bx))
        if not found and len(clean) < 65536:
            clean.add(ck)


class Block2D:
    """Where a batch's 2-D blocks lie: every instance's start (x in message units, y) and whether its whole
    block is inside the surface (then it is read / written straight from the allocation's bytes).

    Every message is validated (:func:`_validate_messages`).  ``locate=False`` (prefetches) stops there: no
    bounds, no allocation.  ``all_inside`` says whether every block is inside the surface; ``inside`` is the
    per-instance mask."""

    def __init__(self, engine: Any, op: Any, d: NdDesc, y: Any, x: Any, n: int, rows: int, width_units: int,
                 unit: int, per_unit: int, check: bool, plan: Any, kind: str, bits: int,
                 locate: bool = True) -> None:
        """``y``/``x``: the ``n`` instances' block starts in elements (an int when the same for all, else an
        int64 array ``[n]``)."""
        cols_el = width_units * per_unit
        self.flat = None
        self.rows, self.width_units = rows, width_units
        mod = checker(engine).modulus
        xs, ys = _stats(x, mod), _stats(y, mod)
        if locate:
            xmin, xmax, _ = xs
            ymin, ymax, _ = ys
            self.all_inside = xmin >= 0 and ymin >= 0 and xmax + cols_el <= d.width and ymax + rows <= d.height
            if self.all_inside:
                self.inside = _ALL_TRUE[:n] if n <= len(_ALL_TRUE) else np.ones(n, np.bool_)
            else:
                self.inside = np.broadcast_to((x >= 0) & (y >= 0) & (x + cols_el <= d.width) & (y + rows <= d.height),
                                              n)
                if not check:
                    i = int(np.argmin(self.inside))
                    xi, yi = int(np.broadcast_to(x, n)[i]), int(np.broadcast_to(y, n)[i])
                    raise ExecFault(oob_region(d, xi, yi, rows, cols_el) or "out of bounds")
        if per_unit > 1:
            if np.any(x % per_unit):
                raise ExecFault(f"a column offset of a transposed {bits}-bit load is not a multiple of {per_unit}")
            x = x // per_unit
            xs = _stats(x, mod)
        self.x, self.y, self.n = x, y, n
        validate_messages(engine, op, d, y, x, plan, kind, ys, xs)
        if not locate:
            return
        # the allocation holding the whole surface, as a flat array of units
        pitch = d.pitch_bytes
        if pitch % unit == 0 and d.height > 0:
            try:
                alloc, off = d.space.resolve(d.base, (d.height - 1) * pitch + d.width_bytes)
            except MemoryFault:
                alloc = None
            if alloc is not None and off % unit == 0:
                size = alloc.data.size // unit * unit
                self.flat = alloc.data[:size].view(np.dtype(f"u{unit}") if unit in (1, 2, 4, 8) else np.uint8)
                start = off // unit + y * (pitch // unit) + x
                self.start = start if isinstance(start, np.ndarray) else np.full(n, start, np.int64)
                self.pitch_units = pitch // unit

    def gather(self, sel: np.ndarray | None) -> np.ndarray:
        """The blocks of instances ``sel`` (None: all) as ``[len(sel), rows, width_units]`` units (numba row
        copies, on numba's threads for large batches)."""
        start = self.start if sel is None else self.start[sel]
        out = np.empty((len(start), self.rows, self.width_units), self.flat.dtype)
        if not COPY_TIER.compiled(out.size):
            twins.gather_blocks(self.flat, start, self.pitch_units, out)
            return out
        threads = _copy_threads(out.nbytes, len(start))
        if threads > 1:
            _copy_blocks_parallel(self.flat, np.ascontiguousarray(start), self.pitch_units, out, False, threads,
                                  chunk_count(threads, len(start)))
        else:
            _gather_blocks(self.flat, np.ascontiguousarray(start), self.pitch_units, out)
        return out

    def overlap(self) -> bool:
        """Whether two instances' blocks share a unit (same-shaped rectangles of one surface)."""
        x, y = np.broadcast_to(self.x, self.n), np.broadcast_to(self.y, self.n)
        order = np.lexsort((x, y))
        if not OVERLAP_TIER.compiled(self.n * self.n):
            return twins.rectangles_overlap(y[order], x[order], self.rows, self.width_units)
        return bool(_rectangles_overlap(np.ascontiguousarray(y[order]), np.ascontiguousarray(x[order]),
                                        self.rows, self.width_units))

    def scatter(self, tiles: np.ndarray) -> None:
        """Write every instance's block from ``tiles [n, rows, width_units]`` (flat's unit type; blocks do not
        overlap: :meth:`overlap`)."""
        start, tiles = np.ascontiguousarray(self.start), np.ascontiguousarray(tiles)
        if not COPY_TIER.compiled(tiles.size):
            twins.scatter_blocks(self.flat, start, self.pitch_units, tiles)
            return
        threads = _copy_threads(tiles.nbytes, len(start))
        if threads > 1:
            _copy_blocks_parallel(self.flat, start, self.pitch_units, tiles, True, threads,
                                  chunk_count(threads, len(start)))
        else:
            _scatter_blocks(self.flat, start, self.pitch_units, tiles)


#: compiled loops or their uncompiled twins (xesim/numerics/tiers.py, xesim/exec/twins.py): block copies (unit: one
#: unit copied), the start statistics (one start) and the overlap test (one pair of starts); twin seconds per call and
#: per unit, compile and load seconds measured by tools/bench_tiers.py
COPY_TIER = tiers.Family("block-copies", per_call_s=1e-5, per_unit_s=2e-9, compile_s=0.9, load_s=0.2,
                         dispatchers=lambda: (_gather_blocks, _scatter_blocks))
RANGE_TIER = tiers.Family("block-starts", per_call_s=5e-6, per_unit_s=3e-9, compile_s=0.25, load_s=0.02,
                          dispatchers=lambda: (_range_residue,))
OVERLAP_TIER = tiers.Family("block-overlap", per_call_s=1e-5, per_unit_s=2e-9, compile_s=0.25, load_s=0.02,
                            dispatchers=lambda: (_rectangles_overlap,))

#: bytes a batched block copy must move before it is split over numba's threads
PARALLEL_COPY_BYTES = 1 << 17


def _copy_threads(nbytes: int, blocks: int) -> int:
    """Threads for a block copy of ``nbytes`` over ``blocks`` instances: numba's thread count (``--jobs``) for
    large copies, else 1."""
    if nbytes < PARALLEL_COPY_BYTES or blocks < 2:
        return 1
    return min(numba.get_num_threads(), blocks)


@numba.njit(cache=True)
def _gather_blocks(flat, start, pitch, out):  # noqa: ANN001, ANN202
    _gather_range(flat, start, pitch, out, 0, out.shape[0])


@numba.njit(cache=True)
def _gather_range(flat, start, pitch, out, lo, hi):  # noqa: ANN001, ANN202
    rows, w = out.shape[1], out.shape[2]
    for b in range(lo, hi):
        for r in range(rows):
            o = start[b] + r * pitch
            for c in range(w):
                out[b, r, c] = flat[o + c]


@numba.njit(cache=True)
def _scatter_blocks(flat, start, pitch, tiles):  # noqa: ANN001, ANN202
    _scatter_range(flat, start, pitch, tiles, 0, tiles.shape[0])


@numba.njit(cache=True)
def _scatter_range(flat, start, pitch, tiles, lo, hi):  # noqa: ANN001, ANN202
    rows, w = tiles.shape[1], tiles.shape[2]
    for b in range(lo, hi):
        for r in range(rows):
            o = start[b] + r * pitch
            for c in range(w):
                flat[o + c] = tiles[b, r, c]


@numba.njit(cache=True, parallel=True)
def _copy_blocks_parallel(flat, start, pitch, tiles, to_flat, threads, nchunks):  # noqa: ANN001, ANN202
    """:func:`_scatter_blocks` (``to_flat``) or :func:`_gather_blocks` (into ``tiles``) in ``nchunks`` ranges of
    blocks handed out to ``threads`` threads one at a time (xesim/numerics/work_queue.py).  A scatter's blocks do
    not overlap (the caller checked): the chunks write disjoint units."""
    n = tiles.shape[0]
    next_chunk = np.zeros(1, np.int64)
    for _ in numba.prange(threads):
        ch = claim(next_chunk, nchunks)
        while ch >= 0:
            lo, hi = ch * n // nchunks, (ch + 1) * n // nchunks
            if to_flat:
                _scatter_range(flat, start, pitch, tiles, lo, hi)
            else:
                _gather_range(flat, start, pitch, tiles, lo, hi)
            ch = claim(next_chunk, nchunks)


@numba.njit(cache=True)
def _rectangles_overlap(ys, xs, rows, w):  # noqa: ANN001, ANN202
    """``rows`` x ``w`` rectangles at (ys[i], xs[i]), sorted by y then x: does any pair overlap?"""
    n = ys.shape[0]
    for i in range(n):
        j = i + 1
        while j < n and ys[j] < ys[i] + rows:
            if abs(xs[j] - xs[i]) < w:
                return True
            j += 1
    return False
