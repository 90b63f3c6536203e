"""Data-race detection between the subgroups of a workgroup (``--check-races``, ARCHITECTURE.md "Lockstep and scheduling").

**What is a race.**  Two accesses to the same byte of SLM or global memory by *different subgroups* of one
workgroup, at least one of them a write, that no synchronisation orders (spec/pvc-hardware.md §4): neither
happens before the other.  Lanes of one subgroup are one thread here (they execute in lockstep), so accesses by
lanes of the same subgroup never race.  Workgroups are not compared with each other (the issue's scope).

**Happens-before** is tracked with vector clocks, one per subgroup (``vc[t]``; ``vc[t][u]`` is the last epoch
of subgroup ``u`` that subgroup ``t`` is ordered after):

* program order within a subgroup;
* ``gpu.barrier`` (§4.2): when it completes, every subgroup's clock becomes the join of all clocks, then each
  subgroup starts a new epoch — everything before the barrier happens before everything after it;
* named barriers (§4.1, producers = consumers = participants): ``nbarrier_arrive`` *releases* (the arriving
  subgroup's clock joins the phase's clock, then the subgroup starts a new epoch); the return of
  ``nbarrier_wait`` for that phase *acquires* (joins the phase's clock, complete because the phase has
  completed).  So every participant's accesses before its arrive happen before every participant's accesses
  after its wait, and accesses between a subgroup's arrive and wait are ordered with nothing new;
* ``xegpu.fence`` (§4.3) orders nothing between subgroups by itself (no report is silenced by a fence alone);
* atomics (``xegpu.atomic_rmw``) never race with each other, and each one is treated as acquire-release on the
  bytes it touches.  This adds orderings (a flag protocol ``store data; fence; atomic`` / ``atomic; fence; load
  data`` is recognised) and can hide a race that relaxed hardware atomics without fences would not prevent: the
  choice errs towards no false reports.  An atomic and a plain access to the same bytes, unordered, race.

**Benign write-write conflicts.**  Two unordered writes of the *same* bytes with the *same* values leave memory
identical in either order (e.g. every subgroup storing the same tile of constants).  A write-write conflict is
reported only when the later write changes bytes of the conflict (its values differ from the ones in memory);
read-write and atomic conflicts are always reported.

**Which accesses are seen.**  Every kernel op that touches memory is instrumented at the op level
(:data:`FOOTPRINTS`: the exact bytes the op reads or writes, computed from its operands with the same decoding
helpers as its implementation), so fast paths that read allocation bytes through numpy views and
read-modify-write implementations (``store_matrix``) are seen with their architectural footprint, not the bytes
the simulator happens to touch.  Out-of-surface and masked-off elements are not accesses.  If the footprint of
an op cannot be computed while the op itself succeeds, the run stops with an internal error rather than
silently missing an access (``tests/unit/test_races.py`` checks every memory op defined in ``isa/`` has an
entry or a reason not to).

**Cost.**  Nothing when the option is off: :class:`RaceObserver` follows a run through the executor's hook
(xesim/exec/hooks.py; subscribed by :func:`xesim.api.make_engine` when the run configuration has ``check_races``)
and instruments ops when they are compiled, only inside ``gpu.func`` kernels.  When on, each workgroup keeps,
per (subgroup, epoch, op, allocation, kind), the merged byte intervals it accessed, and per allocation a byte
map of which subgroup touched each byte; an access is compared only with the records of the other subgroups the map names that are
not ordered before it; records ordered before every subgroup are dropped at synchronisation points (all of
them at a ``gpu.barrier``).  Measured: a kernel of 512 subgroups doing 25k block and scalar accesses runs about
2.3x slower with the check (roughly 75 us per access on the 2-core CI machine).

**A race is an error** (exit status 1): the first conflicting pair stops the launch with a located diagnostic
at the second access, naming both ops with their ``file:line:col``, both subgroups, the address, the
allocation and the number of conflicting bytes, plus a note at the first access.  A program whose result
depends on the interleaving gives no trustworthy output, and the first race is usually the cause of the next.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.decode.xegpu import decode_block_access, decode_scatter_access
from xesim.diagnostics import Diagnostic
from xesim.exec.faults import ExecFault
from xesim.exec.hooks import Observer
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.observe.races_xetile import footprints as xetile_footprints
from xesim.observe.races_xevm import footprints as xevm_footprints

I64 = np.int64
READ, WRITE, ATOMIC = "r", "w", "a"
#: For a new access of kind k: the kinds of earlier records it conflicts with.
CONFLICTS = {READ: (WRITE, ATOMIC), WRITE: (WRITE, READ, ATOMIC), ATOMIC: (WRITE, READ)}
VERB = {READ: "reads", WRITE: "writes", ATOMIC: "atomically updates"}
PAST = {READ: "read", WRITE: "wrote", ATOMIC: "atomically updated"}


class RaceFault(ExecFault):
    """A data race: located at the second access, with a note at the first."""

    def __init__(self, message: str, op: Any, other: Any, note: str) -> None:
        super().__init__(message, op)
        self.other, self.note = other, note

    def to_diagnostic(self) -> Diagnostic:
        d = super().to_diagnostic()
        d.notes.append(Diagnostic("note", self.other.loc, self.note))
        return d


# ================================================================================== interval sets
def merge(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted, disjoint, non-adjacent intervals covering the union of ``[starts[i], ends[i])`` (empty ones
    dropped)."""
    keep = ends > starts
    if not keep.all():
        starts, ends = starts[keep], ends[keep]
    if starts.size <= 1 or bool(np.all(starts[1:] > ends[:-1])):  # already sorted, disjoint, not adjacent
        return starts.astype(I64, copy=False), ends.astype(I64, copy=False)
    order = np.argsort(starts, kind="stable")
    s, e = starts[order], ends[order]
    emax = np.maximum.accumulate(e)
    new = np.empty(s.size, bool)
    new[0] = True
    new[1:] = s[1:] > emax[:-1]
    idx = np.flatnonzero(new)
    return s[idx], np.maximum.reduceat(e, idx)


def first_overlap(qs: np.ndarray, qe: np.ndarray, s: np.ndarray, e: np.ndarray) -> tuple[int, int] | None:
    """The lowest byte range ``(start, end)`` common to two merged interval sets, or None."""
    if not qs.size or not s.size:
        return None
    j = np.searchsorted(e, qs, side="right")  # first interval of (s, e) ending after each query start
    jj = np.minimum(j, s.size - 1)
    hit = (j < s.size) & (s[jj] < qe)
    if not hit.any():
        return None
    cand_lo = np.maximum(qs[hit], s[jj[hit]])
    cand_hi = np.minimum(qe[hit], e[jj[hit]])
    k = int(np.argmin(cand_lo))
    return int(cand_lo[k]), int(cand_hi[k])


class _Record:
    """The bytes one op of one subgroup accessed in one allocation during one epoch."""

    __slots__ = ("tid", "clk", "op", "kind", "alloc", "pending", "s", "e")

    def __init__(self, tid: int, clk: int, op: Any, kind: str, alloc: Any) -> None:
        self.tid, self.clk, self.op, self.kind, self.alloc = tid, clk, op, kind, alloc
        self.pending: list[tuple[np.ndarray, np.ndarray]] = []
        self.s = self.e = np.zeros(0, I64)

    def add(self, s: np.ndarray, e: np.ndarray) -> None:
        self.pending.append((s, e))
        if len(self.pending) > 64:
            self.intervals()

    def intervals(self) -> tuple[np.ndarray, np.ndarray]:
        if self.pending:
            ss = np.concatenate([self.s] + [p[0] for p in self.pending])
            ee = np.concatenate([self.e] + [p[1] for p in self.pending])
            self.pending = []
            self.s, self.e = merge(ss, ee)
        return self.s, self.e


class _Access:
    """One access of an op resolved to an allocation: merged byte intervals relative to its base, every byte
    offset (``idx``); for writes the bytes before the op ran; for atomics the element start offsets (their
    synchronisation keys)."""

    __slots__ = ("alloc", "space", "kind", "s", "e", "idx", "old", "keys")

    def __init__(self, alloc: Any, space: Any, kind: str, s: np.ndarray, e: np.ndarray, keys: Any) -> None:
        self.alloc, self.space, self.kind, self.s, self.e, self.keys = alloc, space, kind, s, e, keys
        self.idx = _byte_index(s, e)
        self.old: np.ndarray | None = None


class _Shadow:
    """Per allocation: the live records by kind and subgroup, and per kind a byte map of which subgroup accessed
    each byte since the last ``gpu.barrier`` (-1 none, ``t`` only subgroup t, -2 several).  The map is a filter:
    records are scanned only when another subgroup touched some of the bytes (it is never narrower than the
    records, so it cannot hide a race)."""

    __slots__ = ("alloc", "recs", "owner")

    def __init__(self, alloc: Any) -> None:
        self.alloc = alloc
        self.recs: dict[str, dict[int, list[_Record]]] = {READ: {}, WRITE: {}, ATOMIC: {}}
        self.owner: dict[str, np.ndarray] = {}

    def mark(self, kind: str, tid: int, idx: np.ndarray) -> None:
        o = self.owner.get(kind)
        if o is None:
            o = self.owner[kind] = np.full(self.alloc.size, -1, np.int16)
        cur = o[idx]
        o[idx] = np.where((cur == -1) | (cur == tid), tid, -2)

    def others(self, kind: str, tid: int, idx: np.ndarray) -> list[int]:
        """The subgroups other than ``tid`` that may have accessed some of the bytes ``idx`` as ``kind``."""
        o = self.owner.get(kind)
        if o is None:
            return []
        cur = o[idx]
        oth = cur[(cur != -1) & (cur != tid)]
        if not oth.size:
            return []
        u = np.unique(oth)
        if u[0] == -2:
            return [u2 for u2 in self.recs[kind] if u2 != tid]
        return u.tolist()

    def reset(self) -> None:
        """Forget every record (a ``gpu.barrier`` ordered them all)."""
        for kind, by_tid in self.recs.items():
            o = self.owner.get(kind)
            for recs in by_tid.values():
                for r in recs:
                    if o is not None:
                        s, e = r.intervals()
                        o[_byte_index(s, e)] = -1
            by_tid.clear()


def _byte_index(s: np.ndarray, e: np.ndarray) -> np.ndarray:
    """Every byte offset of merged intervals, in order."""
    if s.size == 1:
        return np.arange(int(s[0]), int(e[0]), dtype=I64)
    lens = e - s
    rep = np.repeat(s - np.concatenate(([0], np.cumsum(lens)[:-1])), lens)
    return rep + np.arange(int(lens.sum()), dtype=I64)


# ================================================================================== the detector
class RaceDetector:
    """Happens-before race detection for the subgroups of one workgroup (see the module docstring).

    ``nthreads`` is the number of subgroups; the executing subgroup is read from ``ks.subgroup_id``.  The
    observer forwards the scheduler's :meth:`barrier`, :meth:`arrive` and :meth:`acquire`; instrumented ops call
    :meth:`before` and :meth:`after`.
    """

    def __init__(self, nthreads: int, ks: Any) -> None:
        self.n, self.ks = nthreads, ks
        self.vc = np.eye(nthreads, dtype=I64)  # epoch 1 for everyone, nothing ordered
        self.index: dict[int, _Shadow] = {}
        self.records: dict[tuple, _Record] = {}
        self.phase_clock: dict[tuple[int, int], np.ndarray] = {}
        self.atomic_clock: dict[tuple[int, int], np.ndarray] = {}
        self._gc_at = 256

    # ------------------------------------------------------------------ synchronisation (from the Scheduler)
    def barrier(self) -> None:
        """A ``gpu.barrier`` completed: everyone is ordered after everything before it."""
        join = self.vc.max(axis=0)
        self.vc[:] = join
        self.vc[np.arange(self.n), np.arange(self.n)] += 1
        for sh in self.index.values():
            sh.reset()
        self.records.clear()

    def arrive(self, tid: int, bid: int, phase: int) -> None:
        """Subgroup ``tid`` signals named barrier ``bid`` in ``phase`` (release)."""
        key = (bid, phase)
        pc = self.phase_clock.get(key)
        self.phase_clock[key] = self.vc[tid].copy() if pc is None else np.maximum(pc, self.vc[tid])
        self.vc[tid, tid] += 1

    def acquire(self, tid: int, bid: int, phase: int) -> None:
        """Subgroup ``tid``'s wait for ``phase`` of named barrier ``bid`` returned (acquire)."""
        pc = self.phase_clock.get((bid, phase))
        if pc is not None:
            np.maximum(self.vc[tid], pc, out=self.vc[tid])
        if len(self.records) > self._gc_at:
            self._collect()

    def _collect(self) -> None:
        """Drop records every subgroup is ordered after (no future access can race with them)."""
        floor = self.vc.min(axis=0)
        dead = [k for k, r in self.records.items() if r.clk <= floor[r.tid]]
        for k in dead:
            r = self.records.pop(k)
            self.index[id(r.alloc)].recs[r.kind][r.tid].remove(r)
        self._gc_at = max(256, 2 * len(self.records))

    # ------------------------------------------------------------------ accesses (from instrumented ops)
    def before(self, footprint: list) -> list[_Access]:
        """Resolve an op's footprint ``[(space, starts, nbytes, kind)]`` to allocations; snapshot the bytes
        writes will overwrite.  Bytes outside every allocation are left out (the op reports them itself)."""
        out: list[_Access] = []
        for space, starts, nbytes, kind in footprint:
            if type(starts) is list and len(starts) == 1 and type(nbytes) is int:  # one element (scalar access)
                lo = int(starts[0])
                a = space.allocation_at(lo)
                if a is not None and lo + nbytes <= a.base + a.size and kind != ATOMIC:
                    acc = _Access(a, space, kind, np.array([lo - a.base], I64), np.array([lo - a.base + nbytes], I64),
                                  None)
                    if kind == WRITE:
                        acc.old = a.data[lo - a.base : lo - a.base + nbytes].copy()
                    out.append(acc)
                    continue
            starts = np.asarray(starts, I64).reshape(-1)
            if not starts.size:
                continue
            ends = starts + np.asarray(nbytes, I64)
            lo, hi = int(starts.min()), int(ends.max())
            a = space.allocation_at(lo)
            if a is not None and hi <= a.base + a.size:
                groups = [(a, starts, ends)]
            else:
                groups = self._split(space, starts, ends)
            for alloc, s0, e0 in groups:
                s, e = merge(s0 - alloc.base, e0 - alloc.base)
                if not s.size:
                    continue
                acc = _Access(alloc, space, kind, s, e, np.unique(s0 - alloc.base) if kind == ATOMIC else None)
                if kind == WRITE:
                    acc.old = alloc.data[acc.idx]
                out.append(acc)
        return out

    @staticmethod
    def _split(space: Any, starts: np.ndarray, ends: np.ndarray) -> list:
        groups: dict[int, tuple[Any, list, list]] = {}
        for s, e in zip(starts.tolist(), ends.tolist()):
            a = space.allocation_at(s)
            if a is None or not a.alive:
                continue
            g = groups.setdefault(id(a), (a, [], []))
            g[1].append(s)
            g[2].append(min(e, a.base + a.size))
        return [(a, np.asarray(s, I64), np.asarray(e, I64)) for a, s, e in groups.values()]

    def after(self, op: Any, accesses: list[_Access]) -> None:
        """The op ran: check its accesses against unordered accesses of other subgroups, then record them."""
        tid = self.ks.subgroup_id
        vc = self.vc[tid]
        for acc in accesses:
            if acc.kind == ATOMIC:  # acquire before the access (see the module docstring)
                for k in acc.keys.tolist():
                    c = self.atomic_clock.get((id(acc.alloc), k))
                    if c is not None:
                        np.maximum(vc, c, out=vc)
            self._check(op, tid, vc, acc)
        for acc in accesses:
            key = (tid, int(vc[tid]), id(op), id(acc.alloc), acc.kind)
            rec = self.records.get(key)
            if rec is None:
                rec = self.records[key] = _Record(tid, int(vc[tid]), op, acc.kind, acc.alloc)
                sh = self.index.get(id(acc.alloc))
                if sh is None:
                    sh = self.index[id(acc.alloc)] = _Shadow(acc.alloc)
                sh.recs[acc.kind].setdefault(tid, []).append(rec)
            rec.add(acc.s, acc.e)
            self.index[id(acc.alloc)].mark(acc.kind, tid, acc.idx)
        if any(acc.kind == ATOMIC for acc in accesses):  # release after the access
            for acc in accesses:
                if acc.kind == ATOMIC:
                    for k in acc.keys.tolist():
                        key2 = (id(acc.alloc), k)
                        c = self.atomic_clock.get(key2)
                        self.atomic_clock[key2] = vc.copy() if c is None else np.maximum(c, vc)
            vc[tid] += 1

    def _check(self, op: Any, tid: int, vc: np.ndarray, acc: _Access) -> None:
        sh = self.index.get(id(acc.alloc))
        if sh is None:
            return
        changed: tuple[np.ndarray, np.ndarray] | None = None
        for kind in CONFLICTS[acc.kind]:
            for u in sh.others(kind, tid, acc.idx):
                for rec in sh.recs[kind].get(u, ()):
                    if rec.clk <= vc[u]:  # ordered before this access
                        continue
                    qs, qe = acc.s, acc.e
                    if acc.kind == WRITE and kind == WRITE:  # only bytes this write changed (benign otherwise)
                        if changed is None:
                            changed = self._changed(acc)
                        qs, qe = changed
                    s, e = rec.intervals()
                    hit = first_overlap(qs, qe, s, e)
                    if hit is None:
                        continue
                    if qs is not acc.s:  # report the whole conflicting range around the first changed byte
                        i = int(np.searchsorted(acc.s, hit[0], side="right")) - 1
                        j = int(np.searchsorted(s, hit[0], side="right")) - 1
                        hit = (max(int(acc.s[i]), int(s[j])), min(int(acc.e[i]), int(e[j])))
                    raise self._report(op, tid, acc, rec, hit)

    @staticmethod
    def _changed(acc: _Access) -> tuple[np.ndarray, np.ndarray]:
        idx = acc.idx
        diff = idx[acc.alloc.data[idx] != acc.old]
        return merge(diff, diff + 1)

    def _report(self, op: Any, tid: int, acc: _Access, rec: _Record, hit: tuple[int, int]) -> RaceFault:
        a = acc.alloc
        lo, hi = hit
        addr = a.base + lo
        where = f"{acc.space.name}, byte {lo} of {a.describe()}"
        msg = (f"data race: subgroup {tid} {VERB[acc.kind]} {hi - lo} byte(s) at 0x{addr:x} ({where}) that "
               f"subgroup {rec.tid} {PAST[rec.kind]} with '{rec.op.name}' at {rec.op.loc}; no barrier orders the "
               f"two accesses (--check-races)")
        note = (f"'{rec.op.name}' op: the conflicting access: subgroup {rec.tid} {PAST[rec.kind]} 0x{addr:x} here")
        return RaceFault(msg, op, rec.op, note)


# ================================================================================== instrumentation
class RaceObserver(Observer):
    """``--check-races`` as an observer: one :class:`RaceDetector` per workgroup, fed by the instrumented memory
    ops and the scheduler's synchronisation events (module docstring)."""

    name = "race detection (--check-races)"
    per_instance = True

    def __init__(self) -> None:
        self.detector: RaceDetector | None = None

    def instrument(self, op: Any, cx: Any, step: Any, is_term: bool) -> Any:
        if is_term or cx.func_op.name != "gpu.func":
            return step
        return instrument(self, op, cx, step)

    def launch_end(self, engine: Any) -> None:
        self.detector = None

    def workgroup_begin(self, ks: Any) -> None:
        self.detector = RaceDetector(ks.num_subgroups, ks)

    def barrier(self, ks: Any) -> None:
        if self.detector is not None:
            self.detector.barrier()

    def arrive(self, ks: Any, subgroup: int, bid: int, phase: int) -> None:
        if self.detector is not None:
            self.detector.arrive(subgroup, bid, phase)

    def acquire(self, ks: Any, subgroup: int, bid: int, phase: int) -> None:
        if self.detector is not None:
            self.detector.acquire(subgroup, bid, phase)


def footprint_of(op: Any, cx: Any) -> Any:
    """The footprint function of a memory op compiled by ``cx`` (``fp(frame) -> [(space, starts, nbytes, kind)]``,
    lane by lane where operands vary, see :func:`_lanewise`), or None for an op that touches no memory."""
    make = FOOTPRINTS.get(op.name)
    fp = make(op, cx) if make is not None else None
    return _lanewise(op, cx, fp) if fp is not None else None


def instrument(observer: RaceObserver, op: Any, cx: Any, step: Any) -> Any:
    """Wrap the compiled ``step`` of a kernel op that accesses memory so the workgroup's detector sees its
    footprint; other ops are returned unchanged."""
    fp = footprint_of(op, cx) if step is not None else None
    if fp is None:
        return step

    def checked(fr: list) -> None:
        det = observer.detector
        if det is None:
            step(fr)
            return
        try:
            accesses = det.before(fp(fr))
        except Exception as exc:  # noqa: BLE001 - the op reports its own fault first, if it has one
            step(fr)
            raise ExecFault(f"internal error: --check-races could not compute the bytes this op accesses "
                            f"({type(exc).__name__}: {exc}); please report it") from exc
        step(fr)
        det.after(op, accesses)

    return checked


def footprint(op: Any, cx: Any) -> Any:
    """``fp(fr) -> [(space, start addresses, bytes each, kind)]``: the exact bytes kernel op ``op`` accesses when it
    runs with frame ``fr`` (every active lane's at the lane level), or None for an op that accesses no memory
    (:data:`FOOTPRINTS`; also read by the tracer, xesim/observe/tracer.py)."""
    make = FOOTPRINTS.get(op.name)
    fp = make(op, cx) if make is not None else None
    return None if fp is None else _lanewise(op, cx, fp)


def _lanewise(op: Any, cx: Any, fp: Any) -> Any:
    """At the lane level (xesim/exec/axis.py) an operand may vary between lanes: the footprint is then the
    union of every active lane's footprint computed with that lane's operand values (as the op executes per
    lane); with uniform operands the op executes once and so is its footprint computed."""
    slots = list(dict.fromkeys(cx.slots(op.operands)))
    ks = cx.engine.kstate

    def fp_lanes(fr: list) -> list:
        from xesim.exec.axis import Varying

        varying = [s for s in slots if isinstance(fr[s], Varying)]
        if not varying:
            return fp(fr)
        saved = [fr[s] for s in varying]
        out: list = []
        try:
            for i in ks.mask:
                for s, v in zip(varying, saved):
                    fr[s] = v.lanes[i]
                out += fp(fr)
        finally:
            for s, v in zip(varying, saved):
                fr[s] = v
        return out

    return fp_lanes


# ---------------------------------------------------------------------------------- memref / vector
def _fp_memref_load(op: Any, cx: Any):
    from xesim.exec.ops.memref import group

    ms = cx.slot(op.operands[0])
    idx = cx.slots(group(op, "indices"))

    def fp(fr: list) -> list:
        m = fr[ms]
        return [(m.space, [m.element_address([fr[s] for s in idx])], m.itemsize, READ)]

    return fp


def _fp_memref_store(op: Any, cx: Any):
    from xesim.exec.ops.memref import group

    ms = cx.slot(op.operands[1])
    idx = cx.slots(group(op, "indices"))

    def fp(fr: list) -> list:
        m = fr[ms]
        return [(m.space, [m.element_address([fr[s] for s in idx])], m.itemsize, WRITE)]

    return fp


def _fp_memref_copy(op: Any, cx: Any):
    src, dst = cx.slot(op.operands[0]), cx.slot(op.operands[1])

    def fp(fr: list) -> list:
        a, b = fr[src], fr[dst]
        return [(a.space, a.element_addresses(), a.itemsize, READ), (b.space, b.element_addresses(), b.itemsize, WRITE)]

    return fp


def _fp_transfer(op: Any, cx: Any):
    """vector.load/store/transfer_read/transfer_write: the elements ``compile_transfer`` locates (in bounds
    and, for masked transfers, enabled)."""
    from xesim.exec.ops import vector as V  # noqa: N812
    from xesim.exec.ops.memref import group, opt_operand

    name = op.name
    reads = name in ("vector.load", "vector.transfer_read")
    mem_v = op.operands[0] if reads else op.operands[1]
    vt = op.results[0].type if reads else op.operands[0].type
    mt = mem_v.type
    vshape = tuple(vt.shape)
    r = len(vshape)
    if name in ("vector.load", "vector.store"):
        perm: list = [mt.rank - r + k for k in range(r)]
        in_bounds, mask_v = [True] * r, None
    else:
        perm = V._perm_of(op, r, mt.rank)
        in_bounds = V._bool_list(op.attributes.get("in_bounds"), r)
        in_bounds = [ib or p is None for ib, p in zip(in_bounds, perm)]
        mask_v = opt_operand(op, "mask")
    locate = V.compile_transfer(op, name, vshape, mt.rank, perm, in_bounds, mask_v is not None)
    ms = cx.slot(mem_v)
    idx = cx.slots(group(op, "indices"))
    mk = cx.slot(mask_v) if mask_v is not None else None
    kind = READ if reads else WRITE

    def fp(fr: list) -> list:
        m = fr[ms]
        _, flat, valid = locate(m, [fr[s] for s in idx], fr[mk] if mk is not None else None)
        flat = np.asarray(flat, I64)
        if valid is not None:
            flat = flat[np.broadcast_to(valid, flat.shape)]
        isz = m.itemsize
        view_base = m.alloc.base + (m.aligned - m.alloc.base) % isz
        return [(m.space, view_base + flat.reshape(-1) * isz, isz, kind)]

    return fp


# ---------------------------------------------------------------------------------- xegpu
def _fp_block(op: Any, cx: Any):
    """load_nd / store_nd: the in-surface elements of the block (2-D: ``rows x (array_length * cols)`` for
    loads, ``rows x cols`` for stores at [y, x]; 1-D: ``array_length * width`` elements at x); out-of-surface
    elements are not accessed (spec/pvc-hardware.md §1.4)."""
    from xesim.exec.ops.xegpu import _operand
    from xesim.exec.ops.xegpu_block import offsets_getter as _offsets_getter

    acc = decode_block_access(op)  # the decoding the verifier checked and the executor runs
    load = acc.kind == "load"
    td_v = _operand(op, "TensorDesc")
    s_td = cx.slot(td_v)
    get_off = _offsets_getter(cx, op, acc.rank)
    a = acc.array_length if load else 1
    kind = READ if load else WRITE
    if acc.rank == 1:
        n = acc.cols * a

        def fp1(fr: list) -> list:
            d = fr[s_td]
            x = d.offsets[0] + get_off(fr)[0]
            lo, hi = max(x, 0), min(x + n, d.width)
            if hi <= lo:
                return []
            return [(d.space, [d.base + lo * d.elem_bytes], (hi - lo) * d.elem_bytes, kind)]

        return fp1
    rows, cols = acc.rows, acc.cols
    width = a * cols

    def block(d: Any, off: Any) -> list:
        y, x = d.offsets[0] + off[-2], d.offsets[1] + off[-1]
        r0, r1 = max(y, 0), min(y + rows, d.height)
        c0, c1 = max(x, 0), min(x + width, d.width)
        if r1 <= r0 or c1 <= c0:
            return []
        isz = d.elem_bytes
        starts = d.base + np.arange(r0, r1, dtype=I64) * d.pitch_bytes + c0 * isz
        return [(d.space, starts, (c1 - c0) * isz, kind)]

    def fp2(fr: list) -> list:
        return block(fr[s_td], get_off(fr))

    if acc.rank == 2:
        return fp2
    lead = tuple(_operand(op, "TensorDesc").type.shape[: acc.rank - 2])

    def fp_planes(fr: list) -> list:
        """Batched (rank 3-5): each leading tile index is its own plane; planes outside the source: no access."""
        p, off = fr[s_td], list(get_off(fr)) or [0] * acc.rank
        return [fp for _, d in p.tile_planes(lead, off[:len(lead)]) for fp in block(d, off)]

    return fp_planes


def _scatter_bits(engine: Any, space: Any) -> int:
    return engine.target.scatter.slm_address_bits if space is not engine.memory else 64


def _fp_scatter(op: Any, cx: Any):
    """xegpu.load / store: ``chunk`` elements at every enabled lane's address (spec/pvc-hardware.md §2.1)."""
    from xesim.exec.ops.xegpu import _operand
    from xesim.exec.ops.xegpu_scatter import _mask_getter, _scatter_operands
    from xesim.hw.scatter import lane_addresses

    load = op.name == "xegpu.load"
    vt = op.results[0].type if load else _operand(op, "value").type
    offsets = _operand(op, "offsets")
    if offsets is not None and not isinstance(offsets.type, T.VectorType):
        return _fp_scatter_lane(op, cx, load, vt)
    get, isz, chunk, lane_shape = _scatter_operands(op, cx, "source" if load else "dest", vt)
    get_mask = _mask_getter(cx, op, lane_shape)
    engine = cx.engine
    kind = READ if load else WRITE

    def fp(fr: list) -> list:
        space, base, offs, _, _ = get(fr)
        en = np.asarray(get_mask(fr), bool).reshape(-1)
        offs = np.asarray(offs, I64).reshape(-1)
        addrs = lane_addresses(base, offs[en], isz, _scatter_bits(engine, space))
        return [(space, addrs, chunk * isz, kind)]

    return fp


def _fp_scatter_lane(op: Any, cx: Any, load: bool, vt: Any):
    """SIMT xegpu.load / store with one scalar offset (and mask) per lane: evaluated per lane by
    :func:`_lanewise`, so the operands here are one lane's: ``chunk`` elements at ``base + offset``."""
    from xesim.exec.ops.xegpu import _elem_info, _operand
    from xesim.exec.ops.xegpu_scatter import _scatter_source
    from xesim.hw.scatter import lane_addresses

    src = _operand(op, "source" if load else "dest")
    st = src.type
    et = st.element_type if isinstance(st, T.MemRefType) else T.element_type_of(vt)
    _, isz = _elem_info(op, et)
    chunk = decode_scatter_access(op).chunk
    get_src = _scatter_source(op, cx, src, False)
    s_off = cx.slot(_operand(op, "offsets"))
    mask_v = _operand(op, "mask")
    s_mask = cx.slot(mask_v) if mask_v is not None else None
    engine = cx.engine
    kind = READ if load else WRITE

    def fp(fr: list) -> list:
        if s_mask is not None and not bool(np.asarray(fr[s_mask]).reshape(-1)[0]):
            return []
        space, base, _, _ = get_src(fr)
        off = int(np.asarray(fr[s_off]).reshape(-1)[0])
        return [(space, lane_addresses(base, [off], isz, _scatter_bits(engine, space)), chunk * isz, kind)]

    return fp


def _fp_atomic(op: Any, cx: Any):
    """xegpu.atomic_rmw: every enabled lane's ``chunk`` elements (the elements and mask as the implementation
    applies them, :func:`~xesim.exec.ops.xegpu_scatter.atomic_target`)."""
    from xesim.exec.ops.xegpu_scatter import atomic_target
    from xesim.hw.scatter import lane_addresses

    chunk = decode_scatter_access(op).chunk
    target_of = atomic_target(op, cx)
    engine = cx.engine

    def fp(fr: list) -> list:
        d, mask = target_of(fr)
        lanes = len(mask)
        offs = np.asarray(d.offsets, I64).reshape(lanes, 1) + np.arange(chunk, dtype=I64)[None, :]
        en = np.repeat(mask.reshape(lanes, 1), chunk, axis=1)
        isz = d.elem_bytes
        addrs = lane_addresses(d.base, offs[en], isz, _scatter_bits(engine, d.space))
        return [(d.space, addrs, isz, ATOMIC)]

    return fp


def _fp_matrix(op: Any, cx: Any):
    """load_matrix / store_matrix: the block's elements through the mem_layout (not the byte range the
    implementation reads and writes back)."""
    from xesim.exec.ops.xegpu import _operand, matrix_access

    load = op.name == "xegpu.load_matrix"
    md_v = _operand(op, "mem_desc")
    vt = op.results[0].type if load else _operand(op, "data").type
    acc = matrix_access(op, cx, md_v, vt)
    kind = READ if load else WRITE

    def fp(fr: list) -> list:
        d, lin = acc.one(fr)
        return [(d.space, d.base + np.asarray(lin, I64).reshape(-1) * acc.isz, acc.isz, kind)]

    return fp


#: op name -> ``make(op, cx) -> footprint(fr) -> [(space, start addresses, bytes each, kind)]``.
FOOTPRINTS: dict[str, Any] = {
    "memref.load": _fp_memref_load,
    "memref.store": _fp_memref_store,
    "memref.copy": _fp_memref_copy,
    "vector.load": _fp_transfer,
    "vector.store": _fp_transfer,
    "vector.transfer_read": _fp_transfer,
    "vector.transfer_write": _fp_transfer,
    "xegpu.load_nd": _fp_block,
    "xegpu.store_nd": _fp_block,
    "xegpu.load": _fp_scatter,
    "xegpu.store": _fp_scatter,
    "xegpu.atomic_rmw": _fp_atomic,
    "xegpu.load_matrix": _fp_matrix,
    "xegpu.store_matrix": _fp_matrix,
}

FOOTPRINTS.update(xetile_footprints(READ, WRITE, ATOMIC))
FOOTPRINTS.update(xevm_footprints(READ, WRITE))

#: Ops with memory traits in ``isa/`` that need no footprint, and why.
NOT_ACCESSES: dict[str, str] = {
    "xetile.prefetch_tile": "a prefetch has no architectural effect (shared/spec/xetile.md §3.4)",
    "xegpu.prefetch_nd": "a prefetch has no architectural effect (spec/pvc-hardware.md §1.3)",
    "xegpu.prefetch": "a prefetch has no architectural effect",
    "gpu.printf": "writes the printf buffer, not memory",
    "vector.print": "writes the output stream, not memory",
    "gpu.memcpy": "host-only",
    "gpu.memset": "host-only",
}
