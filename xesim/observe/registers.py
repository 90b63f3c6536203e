"""The register file (GRF) of every subgroup thread during kernel execution (ARCHITECTURE.md "Register file").

spec/pvc-hardware.md §5: a hardware thread (one subgroup) owns ``grf.count`` registers of ``grf.register_bytes``
bytes (PVC 128 x 64 B), ``grf.count_large`` (256) in large-GRF mode.  :class:`RegisterFileObserver` follows a run
through the executor's hook (xesim/exec/hooks.py; subscribed by :func:`xesim.api.make_engine` when the run
configuration's ``grf`` is ``track`` or ``checked``: ``XESIM_GRF``, ``xesim run --stats``): every kernel op's step is
wrapped (:func:`instrument`) so that, per kernel instance (one :class:`xesim.hw.regfile.RegisterFile` per subgroup,
switched at each instance event, :class:`GrfLaunch`):

* each result of a register type (integer/index/float scalars and vectors; ``i1`` predicates live in flag
  registers and are not modelled; descriptors and memrefs are not values in registers here) is allocated and
  its register image written after the op ran, with the layout its producer implies:

  - SG/VC level ``xegpu.load_nd`` on a 2-D descriptor: the §1.5 images of the hardware messages the tile is split
    into (:func:`xesim.hw.block2d.split_tile`), one after another, with their padding (:func:`load_nd_layout`);
  - SG/VC level ``xegpu.dpas`` result with 32-bit elements: the §3.3 C/D layout, one row per register, the tile
    cut into column blocks of the execution size (:func:`dpas_layout`);
  - lane level: a per-lane value (:class:`~xesim.exec.axis.Varying`) or a vector every lane holds is SIMT
    fragments, lane ``i`` component ``k`` at element slot ``k·16 + i`` (§1.6);
  - uniform scalars: one element slot (aligned to its size);
  - SG/VC level ``xetile.tile_mma`` result (XeTile, shared/spec/xetile.md §3.6): the same C/D layout, as IMEX lowers
    it to DPAS chains, when the target's ``xetile.grf.value_layout`` is ``dpas`` (the default; ``row_major``: plain);
    other XeTile values (loaded tiles, element-wise results) row-major: the spec leaves the block images of IMEX's
    blocking unstated (§4.6: ``sg_map`` is a hint), and the register count is the same;
  - other vectors: row-major, starting on a register boundary.

  ``scf.for`` iteration arguments and results take the layout of the value the loop yields (else of its init).
* block arguments (kernel arguments, loop iteration values) are allocated when their block starts executing (before
  its first op); a value the frame rebinds behind the model's back (an enclosing op running its region per lane)
  is re-written;
* each read of such a value by an op (operands, successor and yield operands) finds it in the GRF; in ``checked``
  mode the GRF bytes are compared with the image of the SSA value in the frame (same layout) and the first
  difference is a located fault naming the op, the subgroup, the register and the byte range;
* each value is freed at its last use, computed per block at compile time (a use inside a nested region counts
  as a use by the enclosing op, so values used in a loop stay live across the whole loop; operands not used
  inside the op's regions are freed before the op runs, so a result may reuse their registers); unused
  results are freed right after their definition.  A value used in another block of a multi-block region is
  not freed before it is redefined (xesim's kernels are structured; ``cf`` branches are rare).

An allocation that does not fit is a spill: the value goes to an overflow area (the run goes on) and the op gets
a warning once.  Per kernel the peak register use, where it peaked and the spills are collected in the observer's
``stats`` (``xesim run --stats``, :meth:`RegisterFileObserver.report`).  :meth:`RegisterFileObserver.ownership`
answers, for any value of a
recorded instance (every subgroup of workgroup (0, 0, 0) of a kernel's latest launch), which lane, register and
byte hold each element.

Large GRF: ``--large-grf`` (``engine.config.large_grf``) or a kernel whose attributes or ``gpu.module`` attributes (e.g.
the ``#xevm.target`` options) contain one of ``grf.large_grf_options`` of the target.  Workgroup-level kernels (one
execution per workgroup on whole-workgroup tiles) are not modelled: no subgroup thread holds their values.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from xesim.exec.faults import ExecFault
from xesim.exec.hooks import Observer
from xesim.exec.values import dtype_of
from xesim.hw.regfile import (
    Placement,
    RegisterFile,
    block_load_offsets,
    dpas_operand_offsets,
    simt_offsets,
)
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

MODES = ("off", "track", "checked")

__all__ = ["MODES", "GrfLaunch", "KernelStats", "Layout", "Ownership", "RegisterFileObserver", "dpas_layout",
           "instrument", "large_grf_requested", "load_nd_layout"]


# --------------------------------------------------------------------------------------------------- layouts
class Layout:
    """Where the elements of a value go in its register image: ``offsets`` (byte offset of every element, in the
    value's row-major order; for SIMT values ``[lanes, k]`` order), the image size ``nbytes``, the allocation
    alignment (None: a register boundary), the element ``dtype``, ``lanes`` (0 for a uniform scalar) and the
    ``channel`` width in bytes: the byte at image offset o belongs to lane ``(o // channel) % lanes`` (the element
    size, or 4 for data packed into dwords: VNNI and 32-bit transposed loads of narrow types)."""

    __slots__ = ("kind", "offsets", "nbytes", "align", "dtype", "lanes", "channel", "_index", "_identity")

    def __init__(self, kind: str, offsets: np.ndarray, nbytes: int, dtype: np.dtype, lanes: int,
                 align: int | None = None, channel: int | None = None) -> None:
        self.kind = kind
        self.offsets = np.asarray(offsets, dtype=np.int64).reshape(-1)
        self.nbytes = int(nbytes)
        self.align = align
        self.dtype = np.dtype(dtype)
        self.lanes = lanes
        s = self.dtype.itemsize
        self.channel = channel or s
        self._identity = bool(self.nbytes == self.offsets.size * s
                              and np.array_equal(self.offsets, np.arange(self.offsets.size) * s))
        self._index = None if self._identity else (self.offsets.reshape(-1, 1) + np.arange(s)).reshape(-1)

    def image(self, elems: np.ndarray) -> np.ndarray:
        """The uint8 register image of ``elems`` (the value's elements in this layout's order, any shape)."""
        raw = np.ascontiguousarray(elems, dtype=self.dtype).reshape(-1).view(np.uint8)
        if self._identity:
            return raw
        img = np.zeros(self.nbytes, np.uint8)
        img[self._index] = raw
        return img


def plain_layout(shape: tuple[int, ...], dtype: np.dtype, lanes: int = 16) -> Layout:
    """Row-major elements from a register boundary (element slot i belongs to lane i % lanes)."""
    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    s = np.dtype(dtype).itemsize
    return Layout("plain", np.arange(n) * s, n * s, dtype, lanes)


def scalar_layout(dtype: np.dtype) -> Layout:
    """A uniform scalar: one element slot aligned to its size."""
    s = np.dtype(dtype).itemsize
    return Layout("scalar", np.zeros(1), s, dtype, 0, align=s)


def simt_layout(lanes: int, components: int, dtype: np.dtype) -> Layout:
    """Per-lane fragments ``[lanes, components]``: lane i component k at element slot k·lanes + i (§1.6)."""
    s = np.dtype(dtype).itemsize
    return Layout("simt", simt_offsets(lanes, components, s), lanes * components * s, dtype, lanes)


def dpas_layout(shape: tuple[int, ...], dtype: np.dtype, target: Any) -> Layout | None:
    """The §3.3 C/D layout of a DPAS result tile ``[M, N]`` (32-bit elements, N a multiple of the execution size):
    column block j (N / exec_size of them) holds rows 0..M-1 in M registers, one row per register
    (:func:`xesim.hw.regfile.dpas_operand_offsets`).  None when the value is not such a tile."""
    dt = np.dtype(dtype)
    n = int(target.dpas.exec_size)
    rb = int(target.grf.register_bytes)
    if len(shape) != 2 or dt.itemsize != 4 or shape[1] % n or 4 * n > rb:
        return None
    m, cols = shape
    offs = np.empty((m, cols), np.int64)
    block_bytes = 0
    for j in range(cols // n):
        o, block_bytes = dpas_operand_offsets("d", (m, n), 4, target)
        offs[:, j * n:(j + 1) * n] = o + j * block_bytes
    return Layout("dpas", offs, block_bytes * (cols // n), dt, n)


def load_nd_layout(op: Any, target: Any) -> Layout | None:
    """The GRF layout of a subgroup-level ``xegpu.load_nd`` result on a 2-D descriptor: the §1.5 image of every
    hardware message of the tile (:func:`xesim.hw.block2d.split_tile`, as the op issues them), one after the
    other, each starting on a register boundary, with its padding.  The value conventions (plain, ``packed``
    VNNI, transposed, narrow transposed as 32-bit units, ``array_length``) are those of
    :class:`xesim.exec.ops.xegpu_block.BlockLoad`.  None when the op is not such a load."""
    from xesim.decode.xegpu import decode_block_access
    from xesim.hw.block2d import split_tile

    td_v = next((v for v in op.operands if isinstance(v.type, T.TensorDescType)), None)
    vt = op.results[0].type
    if td_v is None or td_v.type.rank != 2 or not isinstance(vt, T.VectorType):
        return None
    acc = decode_block_access(op)
    td = td_v.type
    dt = dtype_of(td.element_type)
    isz = dt.itemsize
    rows, cols = td.shape
    a = acc.array_length
    mode, v = acc.mode(int(target.get("block2d.transpose_emulation_bytes")))
    packed = mode == "vnni"
    n = int(np.prod(vt.shape))
    ids = np.arange(n)
    if mode in ("tvnni", "tnarrow"):
        unit, mcols = isz * v, cols // v
        blocks = (ids.reshape(a, cols // v, rows, v).transpose(0, 2, 1, 3).reshape(a, rows, cols) if mode == "tvnni"
                  else ids.reshape(a, cols, rows).transpose(0, 2, 1))
        kw = {"transpose": True}
    elif mode == "transpose":
        unit, mcols = isz, cols
        blocks = ids.reshape(a, cols, rows).transpose(0, 2, 1)
        kw = {"transpose": True}
    elif packed:
        k = v
        rp = -(-rows // k) * k
        unit, mcols = isz, cols
        blocks = ids.reshape(a, rp // k, cols, k).transpose(0, 1, 3, 2).reshape(a, rp, cols)
        kw = {"vnni": True}
    else:
        unit, mcols = isz, cols
        blocks = ids.reshape(a, rows, cols)
        kw = {}
    per = unit // isz  # value elements per message element
    # memory-order tile of value element ids in message units: [rows (+ VNNI padding), a * mcols, per]
    mem = blocks.transpose(1, 0, 2).reshape(blocks.shape[1], a * mcols, per)
    msgs = split_tile(target, unit, rows, a * mcols, "load", array_length=a, **kw)
    rb = int(target.grf.register_bytes)
    offs = np.full(n, -1, np.int64)
    base = 0
    for msg in msgs:
        blk = msg.block
        pos, nbytes = block_load_offsets(blk, rb)
        if blk.transpose:
            om = pos.transpose(0, 2, 1)  # [B, H, W] memory order
        elif blk.vnni:
            b, r2, w, k = pos.shape
            om = pos.transpose(0, 1, 3, 2).reshape(b, r2 * k, w)  # rows past H are the VNNI padding
        else:
            om = pos
        # rows of this message; the last row band also takes the VNNI padding rows of the value
        hh = blk.height if msg.y_off + blk.height < rows else min(om.shape[1], mem.shape[0] - msg.y_off)
        for j in range(blk.count):
            c0 = msg.x_off + j * blk.width
            sub = mem[msg.y_off:msg.y_off + hh, c0:c0 + blk.width, :]  # [hh, W, per]
            offs[sub] = (base + om[j, :hh, :, None] + np.arange(per) * isz)
        base += nbytes
    if (offs < 0).any():
        return None
    return Layout("block", offs, base, dt, int(target.subgroup.size), channel=4 if (packed or per > 1) else isz)


def _reg_type(t: Any) -> bool:
    """Values of this type live in GRF registers (i1 predicates live in flag registers: not modelled)."""
    if isinstance(t, T.VectorType):
        t = t.element_type
    if isinstance(t, T.IntegerType):
        return t.width > 1
    return isinstance(t, (T.IndexType, T.FloatType))


# --------------------------------------------------------------------------------------------------- liveness
class _Liveness:
    """Per op: the values freed before it runs, after it ran, and its results that are never used."""

    def __init__(self, func_op: Any) -> None:
        self.before: dict[int, list] = {}
        self.after: dict[int, list] = {}
        self.dead: set[int] = set()
        for op in func_op.walk():
            for region in op.regions:
                for block in region.blocks:
                    self._block(block)

    def _block(self, block: Any) -> None:
        pos = {id(op): i for i, op in enumerate(block.ops)}
        defined = list(block.args) + [r for op in block.ops for r in op.results]
        for v in defined:
            if not _reg_type(v.type):
                continue
            last, nested, escapes = -1, False, False
            for u in v.uses:
                o, inner = u, False
                while o is not None and o.parent is not block:
                    o, inner = o.parent_op(), True
                if o is None:
                    escapes = True
                    break
                i = pos[id(o)]
                if i > last:
                    last, nested = i, inner
                elif i == last:
                    nested = nested or inner
            if escapes:
                continue
            if last < 0:
                self.dead.add(id(v))
                continue
            (self.after if nested else self.before).setdefault(id(block.ops[last]), []).append(v)


# --------------------------------------------------------------------------------------------------- instances
class _FastRegisterFile(RegisterFile):
    """:class:`~xesim.hw.regfile.RegisterFile` with the same placement and counting, found faster: the model runs
    on every kernel op.  ``_refs[r]`` counts the live values touching register r and ``_occ[r]`` is 1 when that
    count is not 0 (kept up to date by :meth:`_count_live`, which the base class calls after every allocate and
    free), so a register-aligned first fit searches the register occupancy instead of the byte map."""

    def __init__(self, target: Any, large_grf: bool = False) -> None:
        super().__init__(target, large_grf)
        self._seen: dict = {}
        self._refs: list[int] = [0] * self.count
        self._occ = bytearray(self.count)
        self._live = 0
        self._freeing: Any = None

    def _first_fit(self, lo: int, hi: int, nbytes: int, align: int) -> int | None:
        if hi - lo < nbytes:
            return None
        rb = self.register_bytes
        if align % rb == 0 and lo % rb == 0:
            # start register r is valid when registers r .. r+nf-1 hold nothing and the first rem bytes of
            # register r+nf are free (exactly the byte-map condition)
            nf, rem = divmod(nbytes, rb)
            step = align // rb
            occ = self._occ
            if len(occ) * rb < hi:
                occ.extend(bytes(-(-hi // rb) - len(occ)))
            zeros = bytes(nf)
            r = lo // rb
            last = (hi - nbytes) // rb
            used = self._used
            while r <= last:
                if nf:
                    r = occ.find(zeros, r)
                    if r < 0 or r > last:
                        return None
                    if r % step:
                        r += step - r % step
                        continue
                if rem and occ[r + nf] and used[(r + nf) * rb:(r + nf) * rb + rem].any():
                    r += step
                    continue
                return r * rb
            return None
        used = self._used[lo:hi].view(np.uint8).tobytes()
        pattern = bytes(nbytes)
        pos = used.find(pattern)
        while pos >= 0:
            if pos % align == 0:
                return lo + pos
            pos = used.find(pattern, pos + (align - pos % align))
        return None

    def free(self, key: Any) -> None:
        self._freeing = key
        super().free(key)

    def _count_live(self) -> int:
        # registers holding a byte of a live value = the union of the live placements' registers, kept up to date
        # from the one placement the calling allocate added (the newest) or free removed
        places, seen, refs, occ = self._places, self._seen, self._refs, self._occ
        if len(places) > len(seen):
            k = next(reversed(places))
            regs = seen[k] = places[k].registers
            if regs.stop > len(occ):
                occ.extend(bytes(regs.stop - len(occ)))
            if regs.stop > len(refs):
                refs.extend([0] * (regs.stop - len(refs)))
            for r in regs:
                n = refs[r]
                refs[r] = n + 1
                if not n:
                    occ[r] = 1
                    self._live += 1
        elif len(places) < len(seen):
            for r in seen.pop(self._freeing):
                n = refs[r] - 1
                refs[r] = n
                if not n:
                    occ[r] = 0
                    self._live -= 1
        return self._live

    def same(self, key: Any, image: np.ndarray) -> bool:
        """Fast equality of ``key``'s bytes with ``image`` (the caller then asks :meth:`check` for the details)."""
        place = self._places[key]
        return bool(memoryview(self._data[place.offset:place.offset + image.size]) == memoryview(image))


class _Instance:
    """The register file of one kernel instance (a subgroup thread) and what it holds."""

    __slots__ = ("rf", "objs", "history", "launch", "where")

    def __init__(self, launch: GrfLaunch, where: tuple) -> None:
        self.launch = launch
        self.where = where  # (workgroup id, subgroup id)
        self.rf = _FastRegisterFile(launch.engine.target, launch.large)
        self.objs: dict[Any, tuple] = {}  # value -> (frame object, layout) of the live allocation
        self.history: dict[Any, tuple] = {}  # value -> (placement, layout) of its latest definition

    def define(self, v: Any, obj: Any, layout: Layout, elems: np.ndarray, label: str, op: Any) -> None:
        rf = self.rf
        if v in self.objs:
            rf.free(v)
        img = layout.image(elems)
        place = rf.allocate(v, max(img.size, 1), layout.align, label)
        rf.write(v, img)
        self.objs[v] = (obj, layout)
        self.history[v] = (place, layout)
        self.launch.observer.placed(v, place, layout, img, label)
        if place.spilled:
            self.launch.spilled(op, place, img.size, rf)

    def free(self, v: Any) -> None:
        if self.objs.pop(v, None) is not None:
            self.rf.free(v)
            self.launch.observer.freed(v)


@dataclass
class KernelStats:
    """Register use of one kernel over all its instances and launches."""

    name: str
    registers: int  # the register file size (normal or large GRF)
    register_bytes: int
    large_grf: bool
    peak: int = 0
    peak_label: str = ""
    peak_where: tuple = ()
    spills: int = 0  # allocations that did not fit
    spilled_instances: int = 0
    instances: int = 0
    spill_ops: list[str] = field(default_factory=list)
    note: str = ""  # why the kernel is not modelled (workgroup level)


class GrfLaunch:
    """The register files of one kernel launch (created by the launcher, :func:`launch`; ``activate`` is called
    whenever an instance starts or resumes, ``finish`` at the end of the launch)."""

    def __init__(self, observer: RegisterFileObserver, engine: Any, kernel: Any, name: str, level: str) -> None:
        self.observer = observer
        self.engine = engine
        self.kernel = kernel
        self.level = level
        self.checked = observer.checked
        self.large = bool(engine.config.large_grf) or large_grf_requested(engine.target, kernel)
        count = int(engine.target.grf.count_large if self.large else engine.target.grf.count)
        stats = observer.stats.get(name)
        if stats is None or stats.large_grf != self.large:
            stats = observer.stats[name] = KernelStats(name, count, int(engine.target.grf.register_bytes), self.large)
        self.stats = stats
        self.instances: dict[tuple, _Instance] = {}
        self.workgroup: tuple | None = None
        self.current: _Instance | None = None

    def activate(self, ks: Any) -> None:
        wg = ks.block_id
        if wg != self.workgroup:
            self._fold()
            self.workgroup = wg
        key = (wg, ks.subgroup_id)
        inst = self.instances.get(key)
        if inst is None:
            inst = self.instances[key] = _Instance(self, key)
        self.current = inst

    def finish(self) -> None:
        """Fold the statistics of the last workgroup's instances."""
        self._fold()
        self.current = None

    def _fold(self) -> None:
        st = self.stats
        for key, inst in self.instances.items():
            rf = inst.rf
            st.instances += 1
            if rf.peak_registers > st.peak:
                st.peak, st.peak_label, st.peak_where = rf.peak_registers, rf.peak_label, key
            if rf.spills:
                st.spills += len(rf.spills)
                st.spilled_instances += 1
            if key[0] == (0, 0, 0):
                self.observer.records[(id(self.kernel), key[1])] = inst.history
        self.instances = {}

    def spilled(self, op: Any, place: Placement, nbytes: int, rf: RegisterFile) -> None:
        st = self.stats
        where = f"{op.name} at {op.loc}"
        if where not in st.spill_ops:
            st.spill_ops.append(where)
        key = (id(op), "grf-spill")
        if key in self.engine._warned:
            return
        self.engine._warned.add(key)
        from xesim.diagnostics import Diagnostic

        hint = ("" if self.large else
                f"; large-GRF mode has {int(self.engine.target.grf.count_large)} (--large-grf, or a kernel option "
                f"{' / '.join(self.engine.target.get('grf.large_grf_options'))})")
        msg = (f"'{op.name}' op would spill on the hardware: its value of {nbytes} bytes does not fit in the "
               f"{rf.count} registers of {rf.register_bytes} bytes ({rf.live_registers} registers live with it; "
               f"spec/pvc-hardware.md §5){hint}")
        print(Diagnostic("warning", op.loc, msg).render(), file=self.engine.err)


def large_grf_requested(target: Any, kernel: Any) -> bool:
    """True when the kernel's attributes or its ``gpu.module``'s attributes (e.g. ``#xevm.target`` options) name
    one of the target's ``grf.large_grf_options`` (as an attribute name or inside an attribute's text)."""
    markers = [str(m) for m in target.get("grf.large_grf_options")]
    texts: list[str] = []
    op = kernel
    while op is not None:
        for k, a in op.attributes.items():
            texts.append(k)
            texts.append(str(a))
        op = op.parent_op() if op.name != "gpu.module" else None
    return any(m in t for m in markers for t in texts)


# --------------------------------------------------------------------------------------------------- compile
class _Plan:
    """Compile-time facts of one kernel function: its level, liveness, labels and static layouts."""

    def __init__(self, cx: Any) -> None:
        from xesim.exec.levels import classify_kernel

        self.level = classify_kernel(cx.func_op)[0]
        self.lane = cx.group > 1
        self.live = _Liveness(cx.func_op)
        self.target = cx.engine.target
        self.lanes = int(self.target.subgroup.size)
        self._static: dict[int, tuple] = {}

    def static_layout(self, v: Any, depth: int = 0) -> Layout | None:
        """The producer-implied layout of an SG/VC-level vector value (None: row-major)."""
        key = id(v)
        if key in self._static:
            return self._static[key][0]
        lay = None
        t = v.type
        if isinstance(t, T.VectorType) and depth < 8:
            op = v.owner_op
            try:
                if op is not None and op.name == "xegpu.load_nd":
                    lay = load_nd_layout(op, self.target)
                elif op is not None and op.name == "xegpu.dpas":
                    lay = dpas_layout(tuple(t.shape), dtype_of(t.element_type), self.target)
                elif op is not None and op.name == "xetile.tile_mma" and self.xetile_layout() == "dpas":
                    lay = dpas_layout(tuple(t.shape), dtype_of(t.element_type), self.target)
                elif op is not None and op.name == "scf.for":
                    lay = self._for_layout(op, v.index, depth)
                elif op is None and getattr(v.block, "parent", None) is not None:
                    parent = v.block.parent.parent
                    if parent is not None and parent.name == "scf.for" and v.index >= 1:
                        lay = self._for_layout(parent, v.index - 1, depth)
            except (ValueError, KeyError, AttributeError, IndexError):
                lay = None
            if lay is not None and lay.offsets.size != t.num_elements:
                lay = None
        self._static[key] = (lay, v)  # keeps v alive so its id stays unique
        return lay

    def xetile_layout(self) -> str:
        """``xetile.grf.value_layout`` (isa/targets): how XeTile values sit in registers (module docstring)."""
        return str(self.target.get("xetile.grf.value_layout"))

    def _for_layout(self, for_op: Any, i: int, depth: int) -> Layout | None:
        body = for_op.regions[0].blocks[0]
        term = body.terminator
        if term is not None and i < len(term.operands):
            lay = self.static_layout(term.operands[i], depth + 1)
            if lay is not None:
                return lay
        inits = for_op.operands[3:]
        return self.static_layout(inits[i], depth + 1) if i < len(inits) else None


def _plan(cx: Any) -> _Plan:
    p = getattr(cx, "_grf_plan", None)
    if p is None:
        p = cx._grf_plan = _Plan(cx)
    return p


def _label(v: Any, op: Any | None) -> str:
    name = f"%{v.name}" if v.name else "a value"
    if op is not None:
        return f"{name} ({op.name} at {op.loc})"
    return f"{name} (argument at {getattr(v, 'loc', None) or 'the block entry'})"


def _describer(plan: _Plan, v: Any) -> Callable[[Any], tuple[Layout, np.ndarray]]:
    """``obj -> (layout, elements)`` for a value of register type ``v.type`` (see the module docstring)."""
    t = v.type
    et = t.element_type if isinstance(t, T.VectorType) else t
    dt = dtype_of(et)
    lanes = plan.lanes
    if isinstance(t, T.VectorType):
        shape = tuple(t.shape)
        k = int(np.prod(shape, dtype=np.int64)) if shape else 1
    else:
        shape, k = (), 1
    scal = scalar_layout(dt)
    if plan.lane:
        from xesim.exec.axis import Varying

        simt = simt_layout(lanes, k, dt)

        def lane_desc(obj: Any) -> tuple[Layout, np.ndarray]:
            if isinstance(obj, Varying):
                return simt, _lane_stack(obj, lanes, k, dt)
            if shape or isinstance(obj, np.ndarray):
                a = np.asarray(obj, dtype=dt).reshape(1, k)
                return simt, np.broadcast_to(a, (lanes, k))
            return scal, np.asarray(obj, dtype=dt)

        return lane_desc
    if not isinstance(t, T.VectorType):
        return lambda obj: (scal, np.asarray(obj, dtype=dt))
    lay = plan.static_layout(v) or plain_layout(shape, dt, lanes)
    return lambda obj: (lay, np.asarray(obj, dtype=dt))


def _lane_stack(obj: Any, lanes: int, k: int, dt: np.dtype) -> np.ndarray:
    """``[lanes, k]`` elements of a per-lane value (lanes without a value read 0)."""
    arr = obj.arr
    if arr is not None and arr.shape[0] == lanes:
        return np.asarray(arr, dtype=dt).reshape(lanes, k)
    out = np.zeros((lanes, k), dt)
    for i, x in enumerate(obj.lanes[:lanes]):
        if x is not None:
            out[i] = np.asarray(x, dtype=dt).reshape(k)
    return out


def instrument(observer: RegisterFileObserver, op: Any, cx: Any, compiled: Any, is_term: bool) -> Any:
    """Wrap the step (or terminator) ``compiled`` of kernel op ``op`` with the register-file bookkeeping (module
    docstring) of the observer's current launch."""
    plan = _plan(cx)
    if plan.level == "workgroup":
        return compiled
    live = plan.live
    reads = []
    seen: set[int] = set()
    for v in op.operands:
        if id(v) in seen or not _reg_type(v.type):
            continue
        seen.add(id(v))
        reads.append((cx.slot(v), v, _describer(plan, v), _label(v, v.owner_op)))
    blk = op.parent
    if blk is not None and blk.ops and blk.ops[0] is op:  # block arguments are allocated when the block starts
        for v in blk.args:
            if _reg_type(v.type) and id(v) not in live.dead and id(v) not in seen:
                seen.add(id(v))
                reads.insert(0, (cx.slot(v), v, _describer(plan, v), _label(v, None)))
    before = list(live.before.get(id(op), ()))
    after = list(live.after.get(id(op), ()))
    results = [(cx.slot(r), r, _describer(plan, r), _label(r, op), id(r) in live.dead)
               for r in op.results if _reg_type(r.type)]
    if not (reads or before or after or results):
        return compiled
    if compiled is None:
        compiled = _noop

    def prologue(inst: _Instance, fr: list) -> None:
        objs = inst.objs
        for slot, v, desc, label in reads:
            obj = fr[slot]
            rec = objs.get(v)
            if rec is None or rec[0] is not obj:  # an argument, or rebound by an enclosing op's lane execution
                lay, elems = _describe(desc, obj)
                if lay is not None:
                    inst.define(v, obj, lay, elems, label, op)
            elif inst.launch.checked:
                lay = rec[1]
                _, elems = _describe(desc, obj)
                if elems is None:
                    continue
                img = lay.image(elems)
                bad = None if inst.rf.same(v, img) else inst.rf.check(v, img)
                if bad is not None:
                    raise ExecFault(f"reads {bad} (checked register file, spec/pvc-hardware.md §5)", op)
        for v in before:
            inst.free(v)

    def epilogue(inst: _Instance, fr: list) -> None:
        for v in after:
            inst.free(v)
        for slot, r, desc, label, dead in results:
            obj = fr[slot]
            lay, elems = _describe(desc, obj)
            if lay is None:
                inst.free(r)
                continue
            inst.define(r, obj, lay, elems, label, op)
            if dead:
                inst.free(r)

    if is_term:
        def term(fr: list) -> tuple:
            g = observer.launch
            inst = None if g is None else g.current
            if inst is None:
                return compiled(fr)
            prologue(inst, fr)
            out = compiled(fr)
            epilogue(inst, fr)
            return out

        return term

    def step(fr: list) -> None:
        g = observer.launch
        inst = None if g is None else g.current
        if inst is None:  # no launch, or a workgroup the observer does not follow (batched)
            compiled(fr)
            return
        prologue(inst, fr)
        compiled(fr)
        epilogue(inst, fr)

    return step


def _describe(desc: Callable[[Any], tuple], obj: Any) -> tuple:
    """``desc(obj)``, or (None, None) for a run-time form without a register image (e.g. a poison value)."""
    try:
        return desc(obj)
    except (TypeError, ValueError, AttributeError):
        return None, None


def _noop(fr: list) -> None:
    return None


# --------------------------------------------------------------------------------------------------- queries
@dataclass
class Ownership:
    """Where each element of a value lived at its latest definition: ``lane`` (-1 for a uniform scalar held
    once for the whole subgroup), ``register`` and ``byte`` (first byte of the element in that register), arrays
    shaped like the value (``[lanes, *shape]`` for a lane-level value held as SIMT fragments); ``layout`` is the
    layout kind (plain, block, dpas, simt, scalar) and ``spilled`` whether it lived in the overflow area."""

    lane: np.ndarray
    register: np.ndarray
    byte: np.ndarray
    layout: str
    spilled: bool


class RegisterFileObserver(Observer):
    """The register-file model as an observer of kernel launches (module docstring).  ``checked``: every read
    compares the registers with the value; ``stats``: kernel name -> :class:`KernelStats`; ``records``: (kernel op
    id, subgroup) -> value placements of workgroup (0, 0, 0), for :meth:`ownership`."""

    name = "the register-file model (XESIM_GRF, --stats)"
    per_instance = True

    def __init__(self, checked: bool) -> None:
        self.checked = checked
        self.stats: dict[str, KernelStats] = {}
        self.records: dict[tuple, Any] = {}
        self.launch: GrfLaunch | None = None
        self._counted: tuple | None = None  # (stats, instances, spills, spilled instances) when the launch began
        self._last: tuple | None = None  # what the latest launch added: (name, stats, instances, spills, spilled)

    @property
    def needs_execution(self) -> bool:  # type: ignore[override]
        """Only the checking model (``XESIM_GRF=checked``) must see every launch run; the statistics of a launch
        that takes an identical earlier launch's writes are that launch's again (it would execute identically,
        xesim/exec/launch_reuse.py), added by :meth:`launch_reused`."""
        return self.checked

    def instrument(self, op: Any, cx: Any, step: Any, is_term: bool) -> Any:
        if cx.func_op.name != "gpu.func":
            return step
        return instrument(self, op, cx, step, is_term)

    def launch_begin(self, engine: Any, kernel: Any, name: str, level: str) -> None:
        if level == "workgroup":  # one execution per workgroup on whole tiles: no subgroup thread holds the values
            self.stats.setdefault(name, KernelStats(name, 0, 0, False, note="a workgroup-level kernel (whole-"
                                                    "workgroup tiles): its subgroups' registers are not modelled"))
            self.launch = None
            self._counted = None
            return
        self.launch = GrfLaunch(self, engine, kernel, name, level)
        st = self.launch.stats
        self._counted = (st, st.instances, st.spills, st.spilled_instances)

    def launch_end(self, engine: Any) -> None:
        self._last = None
        if self.launch is not None:
            self.launch.finish()
            self.launch = None
            st, instances, spills, spilled = self._counted
            self._last = (st, st.instances - instances, st.spills - spills, st.spilled_instances - spilled)

    def launch_record(self) -> Any:
        """What the launch that just ended added to its kernel's statistics (None for a workgroup-level kernel)."""
        return self._last

    def launch_reused(self, engine: Any, record: Any) -> None:
        """Count a reused launch as the identical launch ``record`` describes: its instances and spills again
        (the peak and its place are that launch's, already counted)."""
        st, instances, spills, spilled = record
        st.instances += instances
        st.spills += spills
        st.spilled_instances += spilled

    def workgroup_begin(self, ks: Any) -> None:
        if self.launch is not None:  # until one of its subgroups starts (never, in a batch)
            self.launch.current = None

    def instance_begin(self, ks: Any) -> None:
        if self.launch is not None:
            self.launch.activate(ks)

    def placed(self, value: Any, place: Placement, layout: Layout, image: np.ndarray, label: str) -> None:
        """The current instance placed ``value`` (its register image ``image``) at ``place`` (a subclass's hook:
        the tracer records it)."""

    def freed(self, value: Any) -> None:
        """The current instance freed ``value``'s registers (a subclass's hook)."""

    def save(self) -> Any:
        return copy.deepcopy(self.stats), dict(self.records)

    def restore(self, state: Any) -> None:
        self.stats, self.records = state

    def ownership(self, value: Any, subgroup: int = 0) -> Ownership:
        """The ownership map of SSA ``value`` (a kernel value of register type) at its latest definition in
        subgroup ``subgroup`` of workgroup (0, 0, 0) of the kernel's latest launch.  Raises KeyError when that
        instance never defined the value."""
        func = value.owner_op if value.owner_op is not None else value.block.parent_op()
        while func is not None and func.name != "gpu.func":
            func = func.parent_op()
        hist = self.records.get((id(func), subgroup)) if func is not None else None
        if hist is None or value not in hist:
            raise KeyError(f"no register-file record of {value!r} in subgroup {subgroup}")
        place, lay = hist[value]
        reg, byte = np.divmod(place.offset + lay.offsets, place.register_bytes)
        lane = (lay.offsets // lay.channel) % lay.lanes if lay.lanes else np.full(lay.offsets.shape, -1)
        t = value.type
        shape = tuple(t.shape) if isinstance(t, T.VectorType) else ()
        if lay.kind == "simt":
            shape = (lay.lanes, *shape)
        return Ownership(lane.reshape(shape), reg.reshape(shape), byte.reshape(shape), lay.kind, place.spilled)

    def report(self) -> str:
        """The ``--stats`` report: per kernel the peak GRF use, the allocation that reached it and the spills."""
        lines = ["xesim: register file (GRF) use per kernel (spec/pvc-hardware.md §5):"]
        if not self.stats:
            lines.append("  no kernel ran with the register-file model")
        for st in self.stats.values():
            if st.note:
                lines.append(f"  {st.name}: {st.note}")
                continue
            mode = "large GRF" if st.large_grf else "GRF"
            wg, sg = st.peak_where if st.peak_where else ((0, 0, 0), 0)
            lines.append(f"  {st.name}: peak {st.peak} of {st.registers} registers ({mode}, {st.register_bytes} B "
                         f"each) at {st.peak_label or '-'} in workgroup ({', '.join(map(str, wg))}) subgroup {sg}; "
                         f"{st.instances} instance(s)")
            if st.spills:
                lines.append(f"    would spill: {st.spills} allocation(s) in {st.spilled_instances} instance(s) "
                             f"did not fit, at {'; '.join(st.spill_ops)}")
            else:
                lines.append("    no spills")
        return "\n".join(lines)
