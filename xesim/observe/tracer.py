"""Trace recording (``xesim run --trace OUT.xetrace``; issue 28; the format: traces/FORMAT.md, xesim/trace/format.py).

:class:`Tracer` follows a run through the executor's hook (xesim/exec/hooks.py); :func:`xesim.api.standard_observers`
subscribes it when the run configuration has a ``trace`` (:class:`xesim.trace.spec.TraceSpec`).  For every kernel op
of a selected launch, workgroup and subgroup it records, in execution order:

* the op execution (table ``events``): launch, workgroup, subgroup, op, active-lane mask, start and end times;
* operand and result values of register types (table ``values``; up to the spec's element limit; per-lane values as
  ``[lanes, ...]`` stacks), so DPAS operand and result tiles are in it;
* the bytes the op reads, writes or updates atomically per allocation (table ``memory``), from the same footprint
  functions the race detector uses (:func:`xesim.observe.races.footprint`), and for 2D block messages their window
  over the surface with transpose and VNNI packing (table ``blocks``);
* the register-file model's placements and frees with their layouts and register images (tables ``grf``,
  ``layouts``): the tracer *is* a :class:`~xesim.observe.registers.RegisterFileObserver` (track mode) that
  follows only the selected subgroups;
* barrier releases and named-barrier arrivals and acquisitions (table ``sync``).

**Cost.**  Launches of kernels not selected run as without tracing (batched, in one process).  In a selected
launch only the selected workgroups run subgroup by subgroup (:meth:`Tracer.follows`); the others still run in
lockstep batches, where the tracer's wrapped steps only test a flag.  Unselected ops are not wrapped at all.

**Size cap.**  Recording stops when the recorded data reaches ``limit_mb``: a warning says so once, the run goes
on, and the trace's ``truncated`` meta entry says why it ends early.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from xesim.decode.xegpu import decode_block_access
from xesim.exec.values import dtype_of
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.observe.races import ATOMIC, READ, footprint, merge
from xesim.observe.registers import RegisterFileObserver, _reg_type
from xesim.trace import format as F  # noqa: N812 - the format module
from xesim.trace.spec import TraceSpec

KINDS = {READ: "read", "w": "write", ATOMIC: "atomic"}
BLOCK_OPS = ("xegpu.load_nd", "xegpu.store_nd", "xegpu.prefetch_nd")
ROW_BYTES = 48  # the size-cap estimate of one recorded row
REGISTRIES = ("ops", "allocs", "layouts")  # tables that number things once for the whole recording


class Tracer(RegisterFileObserver):
    """Records what the selected subgroups execute (module docstring); :meth:`close` writes the file."""

    name = "the tracer (--trace)"
    per_instance = True
    needs_execution = True  # it records what runs (the register-file model it extends does not need that)

    def __init__(self, spec: TraceSpec) -> None:
        super().__init__(checked=False)
        self.spec = spec
        self.strings = F.Strings()
        self.rows: dict[str, list] = {t: [] for t in F.TABLES}
        self.value_blob = bytearray()
        self.grf_blob = bytearray()
        self.layout_blob: list[np.ndarray] = []
        self.layout_size = 0
        self.t0 = time.perf_counter_ns()
        self.size = 0
        self.limit = int(spec.limit_mb * (1 << 20))
        self.truncated: str | None = None
        self.sources: dict[str, str] = {}
        self.program = ""
        self.engine: Any = None
        self.launch_no = -1
        self.launch_row: list | None = None
        self.traced = False  # the current launch is selected
        self.grid = (1, 1, 1)
        self.recording = False  # the current instance is selected
        self.where = (0, 0, 0, 0, 0)  # launch, wg x, y, z, subgroup
        self.seq = -1  # the latest event
        self.barriers: dict[tuple, int] = {}
        self._ops: dict[int, tuple[int, Any]] = {}
        self._allocs: dict[tuple, int] = {}
        self._layouts: dict[int, tuple[int, Any]] = {}
        self._labels: dict[Any, int] = {}
        self._op_depth: list[int] = []
        self.closed = False

    # ------------------------------------------------------------------------------------------- selection
    def launch_begin(self, engine: Any, kernel: Any, name: str, level: str) -> None:
        self.engine = engine
        self.launch_no += 1
        ks = engine.kstate
        self.grid = tuple(ks.grid)
        self.traced = self.truncated is None and self.spec.kernel_selected(name)
        self.per_instance = self.traced
        self.recording = False
        t = engine.target
        self.launch_row = [self.launch_no, self.strings(name), self.strings(level), *ks.grid, *ks.block,
                           ks.num_subgroups, ks.subgroup_size, int(t.grf.count), int(t.grf.register_bytes),
                           int(self.traced), self._now(), 0]
        self.rows["launches"].append(self.launch_row)
        if self.traced:
            super().launch_begin(engine, kernel, name, level)
            if self.launch is not None:
                self.launch_row[11] = int(t.grf.count_large if self.launch.large else t.grf.count)
        else:
            self.launch = None

    def launch_end(self, engine: Any) -> None:
        if self.launch_row is not None:
            self.launch_row[-1] = self._now()
        self.recording = False
        super().launch_end(engine)

    def follows(self, workgroup: tuple[int, int, int]) -> bool:
        return self.traced and self.spec.workgroup_selected(tuple(workgroup), self.grid)

    def workgroup_begin(self, ks: Any) -> None:
        super().workgroup_begin(ks)
        self.recording = False

    def instance_begin(self, ks: Any) -> None:
        wg = tuple(ks.block_id)
        self.recording = (self.traced and self.truncated is None and self.spec.workgroup_selected(wg, self.grid)
                          and self.spec.subgroup_selected(ks.subgroup_id))
        if self.recording:
            self.where = (self.launch_no, *wg, ks.subgroup_id)
            super().instance_begin(ks)
        elif self.launch is not None:
            self.launch.current = None

    # ------------------------------------------------------------------------------------------- ops
    def instrument(self, op: Any, cx: Any, step: Any, is_term: bool) -> Any:
        if cx.func_op.name != "gpu.func":
            return step
        inner = super().instrument(op, cx, step, is_term)
        if not self.spec.op_selected(op.name):
            return inner
        if inner is None:
            inner = _noop
        opno = self._op_number(op)
        fp = footprint(op, cx)
        block = _block_window(self, op, cx) if op.name in BLOCK_OPS else None
        dpas = op.name == "xegpu.dpas"
        operands = [(i, cx.slot(v), v.type) for i, v in enumerate(op.operands) if _reg_type(v.type)]
        results = [(i, cx.slot(v), v.type) for i, v in enumerate(op.results) if _reg_type(v.type)]
        if self.spec.values == 0:
            operands, results = [], []
        ks = cx.engine.kstate
        lane_level = cx.group > 1
        full_mask = (1 << int(cx.engine.target.subgroup.size)) - 1
        rows_events = self.rows["events"]
        clock = time.perf_counter_ns
        t0 = self.t0

        def traced(fr: list) -> Any:
            if not self.recording:
                return inner(fr)
            self.seq = seq = len(rows_events)
            mask = sum(1 << i for i in ks.mask) if lane_level else full_mask
            ev = [seq, *self.where, opno, mask, clock() - t0, 0]
            rows_events.append(ev)
            accesses = None
            try:
                for i, slot, t in operands:
                    self._value(seq, 1, i, fr[slot], t, dpas)
                if fp is not None:
                    try:
                        accesses = fp(fr)
                    except Exception:  # noqa: BLE001 - the op reports its own fault
                        accesses = None
                if block is not None:
                    try:
                        block(fr, seq)
                    except Exception:  # noqa: BLE001 - the op reports its own fault
                        pass
                out = inner(fr)
            finally:
                ev[-1] = clock() - t0
            if accesses:
                self._memory(seq, accesses)
            for i, slot, t in results:
                self._value(seq, 0, i, fr[slot], t, dpas)
            self._account(ROW_BYTES)
            return out

        return traced

    def _op_number(self, op: Any) -> int:
        rec = self._ops.get(id(op))
        if rec is not None:
            return rec[0]
        n = len(self._ops)
        self._ops[id(op)] = (n, op)
        loc = op.loc
        src = getattr(loc, "source", None)
        line, col = loc.line_col() if src is not None else (0, 0)
        fname = src.name if src is not None else ""
        if src is not None and fname not in self.sources:
            self.sources[fname] = src.text
        depth, p = 0, op.parent_op()
        while p is not None and p.name != "gpu.func":
            depth, p = depth + 1, p.parent_op()
        results = ", ".join(f"%{r.name or '?'}: {r.type}" for r in op.results)
        self.rows["ops"].append((n, self.strings(op.name), self.strings(fname), line, col, self.strings(results)))
        self._op_depth.append(depth)
        return n

    # ------------------------------------------------------------------------------------------- payloads
    def _value(self, seq: int, role: int, index: int, obj: Any, t: Any, always: bool) -> None:
        from xesim.exec.axis import Varying

        et = t.element_type if isinstance(t, T.VectorType) else t
        try:
            dt = dtype_of(et)
        except (NotImplementedError, KeyError, TypeError):
            return
        shape = tuple(t.shape) if isinstance(t, T.VectorType) else ()
        if isinstance(obj, Varying):
            arr = obj.arr
            if arr is None:
                return
            lanes = int(arr.shape[0])
        else:
            lanes = 0
            arr = obj
        try:
            arr = np.ascontiguousarray(np.asarray(arr, dtype=dt))
        except (TypeError, ValueError, OverflowError):
            return
        if not (always and self.spec.values != 0) and not self.spec.value_selected(arr.size):
            return
        if lanes:
            if arr.size != lanes * int(np.prod(shape, dtype=np.int64)):
                return
        elif arr.size != int(np.prod(shape, dtype=np.int64)):
            return
        raw = arr.reshape(-1).view(np.uint8)
        off = len(self.value_blob)
        self.value_blob += raw.tobytes()
        self.rows["values"].append((seq, role, index, self.strings(dt.name), self.strings(F.shape_text(shape)),
                                    lanes, off, raw.size))
        self._account(ROW_BYTES + raw.size)

    def _memory(self, seq: int, accesses: list) -> None:
        groups: dict[tuple, tuple[int, list, list]] = {}
        for space, starts, nbytes, kind in accesses:
            s = np.asarray(starts, np.int64).reshape(-1)
            if not s.size:
                continue
            e = np.broadcast_to(s + np.asarray(nbytes, np.int64), s.shape)
            while s.size:  # usually one allocation holds them all
                alloc = space.allocation_at(int(s[0]))
                if alloc is None:
                    inside = s == s[0]
                else:
                    inside = (s >= alloc.base) & (s < alloc.base + alloc.size)
                    no = self._alloc_number(space, alloc)
                    g = groups.setdefault((no, kind), (alloc.base, [], []))
                    g[1].append(s[inside])
                    g[2].append(np.minimum(e[inside], alloc.base + alloc.size))
                s, e = s[~inside], e[~inside]
        rows = self.rows["memory"]
        for (no, kind), (base, ss, ee) in groups.items():
            ms, me = merge(np.concatenate(ss) - base, np.concatenate(ee) - base)
            k = self.strings(KINDS[kind])
            for a, b in zip(ms.tolist(), me.tolist()):
                rows.append((seq, k, no, a, b))
            self._account(ROW_BYTES * ms.size)

    def _alloc_number(self, space: Any, alloc: Any) -> int:
        slm = self.engine is None or space is not self.engine.memory
        key = ("slm", self.where[:4], alloc.base) if slm else ("global", alloc.base, alloc.size)
        n = self._allocs.get(key)
        if n is None:
            n = self._allocs[key] = len(self._allocs)
            self.rows["allocs"].append((n, self.strings("slm" if slm else "global"), alloc.base, alloc.size,
                                        self.strings(alloc.kind), self.strings(alloc.label)))
        return n

    # ------------------------------------------------------------------------------------------- registers
    def placed(self, value: Any, place: Any, layout: Any, image: np.ndarray, label: str) -> None:
        if not self.recording:
            return
        lab = self._labels.get(value)
        if lab is None:
            lab = self._labels[value] = self.strings(label)
        lay = self._layouts.get(id(layout))
        if lay is None:
            n = len(self._layouts)
            offs = np.asarray(layout.offsets, np.int32)
            self.rows["layouts"].append((n, self.strings(layout.kind), self.strings(layout.dtype.name),
                                         layout.lanes, layout.channel, offs.size, self.layout_size))
            self.layout_blob.append(offs)
            self.layout_size += offs.size
            self._account(ROW_BYTES + 4 * offs.size)
            lay = self._layouts[id(layout)] = (n, layout)
        img_off = -1
        if self.spec.values != 0 and self.spec.value_selected(layout.offsets.size):
            img_off = len(self.grf_blob)
            self.grf_blob += image.tobytes()
        self.rows["grf"].append((self.seq, self.strings("place"), lab, place.offset, image.size, lay[0],
                                 int(place.spilled), img_off))
        self._account(ROW_BYTES + (image.size if img_off >= 0 else 0))

    def freed(self, value: Any) -> None:
        if not self.recording:
            return
        lab = self._labels.get(value)
        self.rows["grf"].append((self.seq, self.strings("free"), lab if lab is not None else self.strings("?"),
                                 -1, 0, -1, 0, -1))

    # ------------------------------------------------------------------------------------------- synchronisation
    def barrier(self, ks: Any) -> None:
        if self.traced and self.truncated is None and self.spec.workgroup_selected(tuple(ks.block_id), self.grid):
            key = (self.launch_no, tuple(ks.block_id))
            n = self.barriers.get(key, 0)
            self.barriers[key] = n + 1
            self._sync(ks, -1, "barrier", -1, n)

    def arrive(self, ks: Any, subgroup: int, bid: int, phase: int) -> None:
        self._sync(ks, subgroup, "arrive", bid, phase)

    def acquire(self, ks: Any, subgroup: int, bid: int, phase: int) -> None:
        self._sync(ks, subgroup, "acquire", bid, phase)

    def _sync(self, ks: Any, sg: int, kind: str, bid: int, phase: int) -> None:
        if not (self.traced and self.truncated is None and self.spec.workgroup_selected(tuple(ks.block_id), self.grid)):
            return
        if sg >= 0 and not self.spec.subgroup_selected(sg):
            return
        self.rows["sync"].append((self.seq, self.launch_no, *ks.block_id, sg, self.strings(kind), bid, phase,
                                  self._now()))

    # ------------------------------------------------------------------------------------------- save / restore
    def save(self) -> Any:
        """What was recorded so far (the engine cross-check, ``XESIM_ENGINE=both``, runs a launch twice and keeps
        the first run's observations).  The op, allocation and layout registries only grow and are kept."""
        rows = {t: list(r) for t, r in self.rows.items() if t not in REGISTRIES}
        return (super().save(), rows, bytes(self.value_blob), bytes(self.grf_blob), self.launch_no, self.seq,
                dict(self.barriers), self.truncated, self.size)

    def restore(self, state: Any) -> None:
        base, rows, values, grf, self.launch_no, self.seq, barriers, self.truncated, self.size = state
        super().restore(base)
        for t, r in rows.items():
            self.rows[t][:] = r
        self.value_blob, self.grf_blob, self.barriers = bytearray(values), bytearray(grf), dict(barriers)

    # ------------------------------------------------------------------------------------------- limits, output
    def _now(self) -> int:
        return time.perf_counter_ns() - self.t0

    def _account(self, nbytes: int) -> None:
        self.size += nbytes
        if self.size > self.limit and self.truncated is None:
            ev = len(self.rows["events"])
            self.truncated = (f"recording stopped after {ev} op executions: the trace reached its size cap of "
                              f"{self.spec.limit_mb:g} MB (--trace-limit); narrow it with --trace-kernel, "
                              "--trace-wg, --trace-sg or --trace-ops")
            self.recording = False
            self.traced = False
            if self.launch is not None:
                self.launch.current = None
            if self.engine is not None:
                print(f"xesim: warning: trace {self.spec.path}: {self.truncated}; the run goes on",
                      file=self.engine.err)

    def close(self, program: str = "", error: str | None = None, version: str = "") -> int:
        """Write the trace file (atomically); ``error``: the fault that ended the run, if any.  Returns the file
        size in bytes.  A second call does nothing (returns 0)."""
        if self.closed:
            return 0
        self.closed = True
        rows = dict(self.rows)
        depth = self._op_depth
        rows["events"] = [(r[0], r[1], r[2], r[3], r[4], r[5], r[6], depth[r[6]], r[7], r[8], r[9])
                          for r in rows["events"]]
        blobs = {
            "value_bytes": np.frombuffer(bytes(self.value_blob), np.uint8),
            "grf_bytes": np.frombuffer(bytes(self.grf_blob), np.uint8),
            "layout_offsets": (np.concatenate(self.layout_blob) if self.layout_blob else np.zeros(0, np.int32)),
        }
        meta = {"xesim": version, "program": program, "sources": self.sources, "options": self.spec.describe(),
                "truncated": self.truncated, "error": error, "wall_ns": self._now()}
        return F.write(self.spec.path, meta, rows, self.strings, blobs)



def _noop(fr: list) -> None:
    return None


def _block_window(tracer: Tracer, op: Any, cx: Any) -> Any:
    """``record(fr, seq)`` appending the 2D block message's window (table ``blocks``) of a load/store/prefetch_nd."""
    from xesim.exec.ops.xegpu import _operand
    from xesim.exec.ops.xegpu_block import offsets_getter

    acc = decode_block_access(op)
    td_v = _operand(op, "TensorDesc")
    if td_v is None:
        return None
    s_td = cx.slot(td_v)
    get_off = offsets_getter(cx, op, acc.rank)
    kind = acc.kind

    lead = tuple(td_v.type.shape[: acc.rank - 2]) if acc.rank > 2 else ()

    def record(fr: list, seq: int) -> None:
        d, off = fr[s_td], list(get_off(fr))
        if lead:  # batched: one window per plane that exists (traces/FORMAT.md, table blocks)
            off = off or [0] * acc.rank
            for _, p in d.tile_planes(lead, off[:len(lead)]):
                one(p, off[-2:], seq)
            return
        one(d, off, seq)

    def one(d: Any, off: list, seq: int) -> None:
        if acc.rank == 1:
            y, x, rows = 0, d.offsets[0] + off[0], 1
        else:
            y, x, rows = d.offsets[0] + off[0], d.offsets[1] + off[1], acc.rows
        alloc = d.space.allocation_at(d.base)
        no = tracer._alloc_number(d.space, alloc) if alloc is not None else -1
        surf_off = d.base - alloc.base if alloc is not None else d.base
        tracer.rows["blocks"].append((seq, tracer.strings(kind), no, surf_off, d.width, d.height if acc.rank >= 2 else 1,
                                      d.pitch, d.elem_bytes, x, y, rows, acc.cols, acc.array_length,
                                      int(acc.transpose), int(acc.packed_result)))

    return record
