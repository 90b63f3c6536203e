"""The memory checker (``--check-memory``): what compute-sanitizer's initcheck, memcheck and leak check report, for
the memory xesim simulates.  Off by default; ``--check-memory=init,bounds,leaks`` selects checks (a bare
``--check-memory`` runs all three).

**Checks.**

* ``init`` — a read of bytes that nothing has written.  xesim zero-fills every allocation (spec/programs-and-runner.md
  §3.2), so such a read silently gives 0 here; on the GPU and the real runner it may not.  Every memory op of host
  code and kernels is followed with its exact byte footprint (:data:`xesim.observe.races.FOOTPRINTS`, plus
  ``gpu.memset`` and the runtime utilities' declared effects, xesim/runtime/externals.py): reads are checked
  against a per-allocation shadow of written bytes, writes mark bytes written.  A copy (``memref.copy``,
  ``gpu.memcpy``) is not a use: it carries its source bytes' state to its destination, as MemorySanitizer does for
  memcpy, so copying a partly written buffer is silent and a later read of the copy's unwritten bytes is reported
  (real programs copy whole buffers of which they initialised a part), with the severity of where the bytes came
  from.  Allocations count as unwritten when the checker saw them made by ``memref.alloc``/``alloca``,
  ``gpu.alloc`` or an uninitialized ``memref.global``, and always for shared local memory and private
  attributions; memory made elsewhere (``xesim.launch``'s array arguments) counts as written.
* ``bounds`` — a 2D (or 1D) block load or store (``xegpu.load_nd``/``store_nd``) whose block falls partly or wholly
  outside its surface: the hardware reads those elements as 0 and drops them on stores, silently
  (spec/pvc-hardware.md §1.4); and a scattered load, store or atomic (``xegpu.load``/``store``/``atomic_rmw``)
  whose *masked-off* lanes carry addresses outside the source: they access nothing (§2.2; atomics only where the
  target honours their mask, ``atomics.honour_mask``, and not at the lane level).  An *enabled* lane out of bounds is already an
  error of the op itself (undefined on the hardware, §6 item 16), naming the lane.  Prefetches have no
  architectural effect and are not checked.
* ``leaks`` — allocations made by ``memref.alloc`` or ``gpu.alloc`` (in host code or kernels) still live when the
  entry function returns, grouped by the op that made them.

**Errors and warnings.**  A finding is an *error* (the run stops, exit status 1) when the program's result is
undefined on the real platform, and a *warning* (reported, the run goes on) when the platform defines what happens
and the simulation reproduces it:

* ``init`` on memory the real platform does not clear — ``memref.alloc``/``alloca`` (malloc / stack on the host,
  private memory in kernels), shared local memory (it keeps what an earlier workgroup left), private attributions,
  uninitialized globals: **error**.  On ``gpu.alloc`` memory: **warning** — fresh device memory reads as zero on
  PVC in practice and real programs' CHECK lines rely on it (spec/programs-and-runner.md §3.2), but nothing
  guarantees it.  Unwritten bytes a copy moved keep the severity of the memory they came from (a shadow byte is
  written, undefined or fresh device memory);
* ``bounds``: **warning** — out-of-surface block elements and masked-off lanes are defined behaviour (§1.4,
  §2.2), the usual way to handle the edges of a matrix, and often not what the author meant;
* ``leaks``: **warning** — the results are not affected; the process's end releases the memory.

``--strict`` makes every warning an error (as for the other hardware rules real programs break harmlessly).  Each
op reports its first finding of each check, located and naming the kernel, workgroup, subgroup and (for scattered
accesses and lane-level code) the lane, the address and the allocation; later findings of the same op and check are
counted, and a summary at the end of the run gives the counts.

**Cost.**  Nothing when off: the checker is an observer (xesim/exec/hooks.py) subscribed by
:func:`xesim.api.standard_observers` only when the run configuration has ``check_memory``.  When on, ``init`` and
``bounds`` follow subgroups one at a time (no batches, one process: ``per_instance``) and ``init`` runs host loop
nests in the interpreter, where each load and store is seen (``sees_host_ops``; a scalar ``memref.load``/``store``
then costs about as much again for its check); ``leaks`` alone costs nothing per op.  The shadow is one byte per
allocated byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from xesim.exec.faults import ExecFault
from xesim.exec.hooks import Observer
from xesim.hw.memory import Allocation
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.observe.races import ATOMIC, FOOTPRINTS, READ, WRITE, _scatter_bits

I64 = np.int64

#: ops whose results are fresh allocations (their bytes unwritten unless initialised)
ALLOCATING = ("memref.alloc", "memref.alloca", "gpu.alloc", "memref.get_global")
#: ops whose allocations must be freed (the leak check)
MUST_FREE = ("memref.alloc", "gpu.alloc")
#: ops that free allocations (their shadows and leak records are dropped)
FREEING = ("memref.dealloc", "gpu.dealloc")
BLOCK_OPS = ("xegpu.load_nd", "xegpu.store_nd")
#: copies: the written-ness of the source's bytes is carried to the destination's (not a use of either)
COPY_OPS = ("memref.copy", "gpu.memcpy")
SCATTER_OPS = ("xegpu.load", "xegpu.store")

#: the state of a shadow byte: written; never written, its value undefined on the real platform; never written
#: but in fresh ``gpu.alloc`` memory, which reads as zero on PVC in practice
WRITTEN, UNDEFINED, FRESH_DEVICE = 1, 0, 2

#: what reading unwritten bytes of each kind of allocation means on the real platform: (error?, explanation)
UNWRITTEN = {
    "device": (False, "fresh gpu.alloc memory reads as 0 here, as it does on PVC in practice "
                      "(spec/programs-and-runner.md §3.2), but nothing guarantees it"),
    "host": (True, "they read as 0 here; memref.alloc/alloca memory is not cleared on the real platform, so the "
                   "values are undefined"),
    "slm": (True, "they read as 0 here; shared local memory is not cleared between workgroups, so the values are "
                  "undefined on the hardware"),
    "private": (True, "they read as 0 here; private memory is not cleared, so the values are undefined on the "
                      "hardware"),
    "global": (True, "they read as 0 here; an uninitialized memref.global has no defined contents"),
}
#: unwritten bytes a copy brought into an allocation of another kind
COPIED = {
    UNDEFINED: (True, "they read as 0 here; they were copied from memory nothing wrote, so the values are undefined "
                      "on the real platform"),
    FRESH_DEVICE: (False, "they were copied from fresh gpu.alloc memory, which reads as 0 here as it does on PVC in "
                          "practice (spec/programs-and-runner.md §3.2), but nothing guarantees it"),
}


class _Shadow:
    """The state of each byte of ``alloc`` (``state[i]``: :data:`WRITTEN`, :data:`UNDEFINED` or
    :data:`FRESH_DEVICE`; ``raw`` is the same bytes as a bytearray, for scalar accesses), and the op that made it
    (None: not seen)."""

    __slots__ = ("alloc", "raw", "state", "op")

    def __init__(self, alloc: Allocation, fill: int, op: Any = None, raw: bytearray | None = None) -> None:
        self.alloc = alloc
        self.raw = bytearray([fill]) * alloc.size if raw is None else raw
        self.state = np.frombuffer(self.raw, np.uint8)
        self.op = op

    def copy(self) -> _Shadow:
        return _Shadow(self.alloc, 0, self.op, bytearray(self.raw))


@dataclass
class _Finding:
    op: Any
    check: str
    count: int
    error: bool


class MemoryChecker(Observer):
    """``--check-memory`` as an observer (module docstring); ``checks`` is a subset of
    :data:`xesim.config.MEMORY_CHECKS`."""

    name = "the memory checker (--check-memory)"

    def __init__(self, checks: Any) -> None:
        self.checks = frozenset(checks)
        self.init, self.bounds, self.leaks = ("init" in self.checks, "bounds" in self.checks,
                                              "leaks" in self.checks)
        self.per_instance = self.init or self.bounds
        self.sees_host_ops = self.init
        self.shadows: dict[int, _Shadow] = {}  # global memory, by id(allocation) (allocations are never collected)
        self.slm_shadows: dict[int, _Shadow] = {}  # the executing workgroup's shared local memory
        self.made: dict[int, tuple[Allocation, Any]] = {}  # allocations that must be freed, with their op
        self.findings: dict[tuple[int, str], _Finding] = {}
        self.engine: Any = None
        self.epoch = 0  # changes whenever the shadow tables are replaced (scalar accesses cache their shadow)

    # ------------------------------------------------------------------ the hook
    def instrument(self, op: Any, cx: Any, step: Any, is_term: bool) -> Any:
        if step is None or is_term:
            return step
        self.engine = cx.engine
        name = op.name
        if name in ALLOCATING:
            return self._allocating(op, cx, step)
        if name in FREEING:
            return self._freeing(op, cx, step)
        if name in BLOCK_OPS and (self.bounds or self.init):
            return self._block(op, cx, step)
        if name in SCATTER_OPS and (self.bounds or self.init):
            return self._scatter(op, cx, step)
        if name == "xegpu.atomic_rmw" and self.bounds:
            return self._atomic(op, cx, self._followed(op, cx, step, FOOTPRINTS[name](op, cx)) if self.init else step)
        if not self.init:
            return step
        if name in COPY_OPS:
            return self._copying(op, cx, step)
        if name in ("memref.load", "memref.store"):
            return self._scalar(op, cx, step)
        make = FOOTPRINTS.get(name) or HOST_FOOTPRINTS.get(name)
        fp = make(op, cx) if make is not None else None
        if fp is None:
            return step
        return self._followed(op, cx, step, fp)

    def workgroup_begin(self, ks: Any) -> None:
        self.slm_shadows = {}  # a fresh shared local memory
        self.epoch += 1

    def run_end(self, engine: Any) -> None:
        self.engine = engine
        if self.leaks:
            self._leak_check(engine)
        self._summary(engine)

    def save(self) -> Any:
        """Copies of the shadows, the allocations to free and the findings (the engine cross-check runs a launch
        twice and keeps the first run's observations)."""
        return (_copy_shadows(self.shadows), _copy_shadows(self.slm_shadows), dict(self.made),
                {k: _Finding(f.op, f.check, f.count, f.error) for k, f in self.findings.items()})

    def restore(self, state: Any) -> None:
        shadows, slm, made, findings = state
        self.shadows, self.slm_shadows = _copy_shadows(shadows), _copy_shadows(slm)
        self.made = dict(made)
        self.epoch += 1
        self.findings = {k: _Finding(f.op, f.check, f.count, f.error) for k, f in findings.items()}

    # ------------------------------------------------------------------ shadows
    def _table(self, alloc: Allocation) -> dict[int, _Shadow]:
        return self.slm_shadows if alloc.kind == "slm" else self.shadows

    def _shadow(self, alloc: Allocation) -> _Shadow | None:
        """The shadow of ``alloc``; None when the checker did not see it made (its bytes count as written), except
        shared local memory and private attributions, which are always fresh when first seen."""
        table = self._table(alloc)
        sh = table.get(id(alloc))
        if sh is not None and sh.alloc is alloc:
            return sh
        if alloc.kind in ("slm", "private"):
            sh = table[id(alloc)] = _Shadow(alloc, UNDEFINED)
            return sh
        return None

    def _made(self, alloc: Allocation, op: Any, written: bool) -> None:
        table = self._table(alloc)
        sh = table.get(id(alloc))
        if sh is not None and sh.alloc is alloc:  # the same buffer again (SLM of the workgroup, a global)
            return
        if self.init:
            fresh = FRESH_DEVICE if alloc.kind == "device" else UNDEFINED
            table[id(alloc)] = _Shadow(alloc, WRITTEN if written else fresh, op)
        if self.leaks and op.name in MUST_FREE and alloc.kind in ("host", "device") \
                and not alloc.extra.get("alloca"):
            self.made[id(alloc)] = (alloc, op)

    def _reads(self, op: Any, ks: Any, lane: int | None, alloc: Allocation, sel: Any) -> None:
        sh = self._shadow(alloc)
        if sh is None:
            return
        st = sh.state[sel]
        if (st == WRITTEN).all():
            return
        offs = np.arange(alloc.size, dtype=I64)[sel] if isinstance(sel, slice) else sel
        worst = UNDEFINED if (st == UNDEFINED).any() else FRESH_DEVICE  # undefined bytes decide, when there are some
        bad = offs[st == worst]
        first = int(bad.min())
        own = FRESH_DEVICE if alloc.kind == "device" else UNDEFINED  # what this allocation's own fresh bytes are
        error, why = UNWRITTEN.get(alloc.kind, UNWRITTEN["host"]) if worst == own else COPIED[worst]
        made = f", made at {sh.op.loc}" if sh.op is not None else ""
        msg = (f"reads {bad.size} byte(s) that nothing has written, the first at 0x{alloc.base + first:x} (byte "
               f"{first} of {alloc.describe()}{made}): {why}")
        self._report(op, "init", msg, error, _context(ks, lane))

    def _writes(self, alloc: Allocation, sel: Any) -> None:
        sh = self._shadow(alloc)
        if sh is not None:
            sh.state[sel] = WRITTEN

    # ------------------------------------------------------------------ reports
    def _report(self, op: Any, check: str, message: str, error: bool, context: str) -> None:
        """The first finding of ``check`` at ``op`` is reported (an error stops the run); later ones are counted."""
        key = (id(op), check)
        f = self.findings.get(key)
        if f is not None:
            f.count += 1
            return
        engine = self.engine
        strict = engine.config.strict and not error
        self.findings[key] = _Finding(op, check, 1, error or strict)
        text = f"{message} (--check-memory={check}{', error because of --strict' if strict else ''})"
        if error or strict:
            raise ExecFault(text, op, context)
        engine.warn(op, f"{text} ({context})" if context else text)

    def _summary(self, engine: Any) -> None:
        which = ",".join(c for c in ("init", "bounds", "leaks") if c in self.checks)
        head = f"xesim: memory check (--check-memory={which}):"
        if not self.findings:
            print(f"{head} no findings", file=engine.err)
            return
        n = sum(f.count for f in self.findings.values())
        lines = [f"{head} {n} finding(s) at {len(self.findings)} op(s); the first of each is shown above"]
        for f in self.findings.values():
            lines.append(f"  {f.op.loc}: '{f.op.name}' {f.check}: {f.count} time(s)")
        print("\n".join(lines), file=engine.err)

    def _leak_check(self, engine: Any) -> None:
        by_op: dict[int, list] = {}
        for alloc, op in self.made.values():
            if alloc.alive:
                by_op.setdefault(id(op), [op, []])[1].append(alloc)
        for op, allocs in by_op.values():
            free = "gpu.dealloc" if op.name == "gpu.alloc" else "memref.dealloc"
            total = sum(a.size for a in allocs)
            if len(allocs) == 1:
                what = f"{allocs[0].describe()} made here is"
            else:
                what = f"{len(allocs)} allocations made here ({total} bytes in all; the first {allocs[0].describe()}) are"
            msg = f"{what} never freed: no {free} before the run ended"
            self._report(op, "leaks", msg, False, "")
            self.findings[(id(op), "leaks")].count = len(allocs)

    # ------------------------------------------------------------------ instrumented ops
    def _allocating(self, op: Any, cx: Any, step: Any) -> Any:
        written = False
        if op.name == "memref.get_global":
            written = _global_initialized(op)
        slots = cx.slots([r for r in op.results])

        def allocating(fr: list) -> None:
            step(fr)
            for s in slots:
                for v in _items(fr[s]):
                    a = getattr(v, "alloc", None)
                    if isinstance(a, Allocation):
                        self._made(a, op, written)

        return allocating

    def _freeing(self, op: Any, cx: Any, step: Any) -> Any:
        """``memref.dealloc`` / ``gpu.dealloc``: once the op has freed the allocation, its shadow and leak record
        go (a program that allocates and frees in a loop keeps nothing)."""
        from xesim.exec.values import MemRefValue

        slots = [cx.slot(v) for v in op.operands if isinstance(v.type, T.MemRefType)]

        def freeing(fr: list) -> None:
            values = [x for s in slots for x in _items(fr[s])]
            step(fr)
            for m in values:
                a = m.alloc if isinstance(m, MemRefValue) else None
                if a is not None and not a.alive:
                    sh = self._table(a).get(id(a))
                    if sh is not None and sh.alloc is a:
                        del self._table(a)[id(a)]
                        self.epoch += 1
                    self.made.pop(id(a), None)

        return freeing

    def _followed(self, op: Any, cx: Any, step: Any, fp: Any) -> Any:
        """An op with a footprint ``fp(fr) -> [(space, starts, nbytes, kind)]``: its reads checked before it runs,
        its writes marked after."""
        by_lane = _per_lane(op, cx, fp)
        ks = cx.engine.kstate

        def followed(fr: list) -> None:
            try:
                parts = [(lane, _resolve(entries)) for lane, entries in by_lane(fr)]
            except Exception as exc:  # noqa: BLE001 - the op reports its own fault first, if it has one
                step(fr)
                raise ExecFault(f"internal error: --check-memory could not compute the bytes this op accesses "
                                f"({type(exc).__name__}: {exc}); please report it") from exc
            for lane, accesses in parts:
                for _, alloc, sel, kind in accesses:
                    if kind in (READ, ATOMIC):
                        self._reads(op, ks, lane, alloc, sel)
            step(fr)
            for _, accesses in parts:
                for _, alloc, sel, kind in accesses:
                    if kind in (WRITE, ATOMIC):
                        self._writes(alloc, sel)

        return followed

    def _scalar(self, op: Any, cx: Any, step: Any) -> Any:
        """``memref.load`` / ``memref.store`` of one element with uniform operands (host code, most kernel code):
        the element's shadow bytes checked or set directly, the rest (lane-varying operands, an address outside
        the allocation, which the op reports, a finding) through :meth:`_followed`."""
        from xesim.exec.ops.memref import group
        from xesim.exec.values import MemRefValue, dtype_of

        load = op.name == "memref.load"
        mem = op.operands[0] if load else op.operands[1]
        ms, idx = cx.slot(mem), cx.slots(group(op, "indices"))
        isz = dtype_of(mem.type.element_type).itemsize
        full = bytes([WRITTEN]) * isz
        slow = self._followed(op, cx, step, FOOTPRINTS[op.name](op, cx))
        cache: list = [None, None, -1]  # allocation, its shadow, the epoch they were looked up in

        def scalar(fr: list) -> None:
            m = fr[ms]
            if type(m) is not MemRefValue or m.alloc is None:
                return slow(fr)
            a = m.alloc
            if a is not cache[0] or cache[2] != self.epoch:
                cache[0], cache[1], cache[2] = a, self._shadow(a), self.epoch
            sh = cache[1]
            if sh is None:
                return step(fr)
            lin = m.offset
            for s, st in zip(idx, m.strides):
                i = fr[s]
                if type(i) is not int:
                    return slow(fr)
                lin += i * st
            lo = m.aligned + lin * isz - a.base
            if lo < 0 or lo + isz > a.size:
                return slow(fr)
            if load:
                if sh.raw[lo:lo + isz] != full:
                    return slow(fr)
                return step(fr)
            step(fr)
            sh.raw[lo:lo + isz] = full

        return scalar

    def _copying(self, op: Any, cx: Any, step: Any) -> Any:
        """``memref.copy`` / ``gpu.memcpy``: after the copy, each destination byte has its source byte's state
        (MemorySanitizer's rule for memcpy): copying a partly written buffer is not a use of it, reading
        the copy's unwritten bytes is."""
        if op.name == "gpu.memcpy":
            from xesim.exec.ops.gpu import _group

            src, dst = cx.slot(_group(op, "src")[0]), cx.slot(_group(op, "dst")[0])
        else:
            src, dst = cx.slot(op.operands[0]), cx.slot(op.operands[1])
        pairs = _per_lane(op, cx, lambda fr: (fr[src], fr[dst]))

        def copying(fr: list) -> None:
            todo = pairs(fr)
            step(fr)  # the op's own faults (shapes, bounds, liveness) come first
            for _, (a, b) in todo:
                self._propagate(a, b)

        return copying

    def _propagate(self, a: Any, b: Any) -> None:
        """Destination memref ``b``'s bytes take the states of source memref ``a``'s (element by element in
        row-major order, as the copy goes)."""
        if getattr(b, "alloc", None) is None:
            return
        dsh = self._shadow(b.alloc)
        if dsh is None:
            return
        dst = _byte_selection(b)
        ssh = self._shadow(a.alloc) if getattr(a, "alloc", None) is not None else None
        dsh.state[dst] = WRITTEN if ssh is None else ssh.state[_byte_selection(a)]

    def _block(self, op: Any, cx: Any, step: Any) -> Any:
        """A 2D/1D block load or store: its block against the surface (``bounds``) and its in-surface bytes
        (``init``)."""
        window = _per_lane(op, cx, _block_window(op, cx))
        inner = self._followed(op, cx, step, FOOTPRINTS[op.name](op, cx)) if self.init else step
        if not self.bounds:
            return inner
        ks = cx.engine.kstate
        load = op.name == "xegpu.load_nd"

        def bounded(fr: list) -> None:
            for lane, ws in window(fr):
                for w in ws:
                    msg = _block_message(w, load)
                    if msg is not None:
                        self._report(op, "bounds", msg, False, _context(ks, lane))
            inner(fr)

        return bounded

    def _scatter(self, op: Any, cx: Any, step: Any) -> Any:
        """A scattered load or store: masked-off lanes out of bounds (``bounds``), enabled lanes' bytes
        (``init``)."""
        lanes_of = _scatter_lanes(op, cx)
        ks = cx.engine.kstate
        load = op.name == "xegpu.load"

        def scattered(fr: list) -> None:
            lanes = lanes_of(fr)
            if self.bounds:
                self._masked_outside(op, ks, lanes)
            inside = [ln for ln in lanes if ln.enabled and not ln.outside] if self.init else []
            if load:
                for ln in inside:
                    for alloc, sel in _slices(ln.space, ln.address, ln.nbytes):
                        self._reads(op, ks, ln.lane, alloc, sel)
            step(fr)
            if not load:
                for ln in inside:
                    for alloc, sel in _slices(ln.space, ln.address, ln.nbytes):
                        self._writes(alloc, sel)

        return scattered

    def _atomic(self, op: Any, cx: Any, inner: Any) -> Any:
        """``xegpu.atomic_rmw`` at the SG/VC level: masked-off lanes out of bounds (``bounds``; ``inner`` follows
        its bytes for ``init``).  At the lane level each lane's mask is its own operand: not checked."""
        from xesim.decode.xegpu import decode_scatter_access
        from xesim.exec.ops.xegpu_scatter import atomic_target

        if decode_scatter_access(op).simt:
            return inner
        target_of = atomic_target(op, cx)
        engine = cx.engine
        ks = engine.kstate

        def atomic(fr: list) -> None:
            d, mask = target_of(fr)
            self._masked_outside(op, ks, _lanes(engine, d.space, d.base, np.asarray(d.offsets, I64).reshape(-1),
                                                mask, d.elem_bytes, d.chunk, d.limit, d.origin, None))
            inner(fr)

        return atomic

    def _masked_outside(self, op: Any, ks: Any, lanes: list[_Lane]) -> None:
        """The ``bounds`` finding of a scattered message: its masked-off lanes whose elements lie outside the
        source (the first one named, the others counted in the message)."""
        masked = [ln for ln in lanes if not ln.enabled and ln.outside]
        if masked:
            first = masked[0]
            more = f"; {len(masked) - 1} more masked-off lane(s) likewise" if len(masked) > 1 else ""
            msg = (f"lane {first.lane} is masked off and its {first.chunk} element(s) at element offset "
                   f"{first.offset} (address 0x{first.address:x}) lie outside {first.where}: a masked-off "
                   f"lane accesses nothing (spec/pvc-hardware.md §2.2){more}")
            self._report(op, "bounds", msg, False, _context(ks, first.lane))


# ================================================================================== helpers
def _copy_shadows(table: dict[int, _Shadow]) -> dict[int, _Shadow]:
    return {k: sh.copy() for k, sh in table.items()}


def _items(v: Any) -> list:
    """The per-slot values of a kernel value (one item when uniform)."""
    from xesim.exec.axis import Varying

    if isinstance(v, Varying):
        return [x for x in v.lanes if x is not None]
    return [v]


def _context(ks: Any, lane: int | None) -> str:
    """Kernel, workgroup, subgroup (not at workgroup level, which runs whole workgroups) and lane of a finding in a
    kernel; empty in host code."""
    if not ks.active:
        return ""
    parts = [f"kernel {ks.kernel_name}", f"workgroup ({', '.join(map(str, ks.block_id))})"]
    if ks.level != "workgroup":
        parts.append(f"subgroup {ks.subgroup_id}")
    if lane is not None:
        parts.append(f"lane {lane}")
    return ", ".join(parts)


def _per_lane(op: Any, cx: Any, fn: Any) -> Any:
    """``get(fr) -> [(lane, fn(fr))]``: at the lane level an operand may differ between lanes, and ``fn`` then runs
    once per active lane with that lane's operand values (as the op does); with uniform operands once, lane None."""
    from xesim.exec.axis import Varying

    slots = list(dict.fromkeys(cx.slots(op.operands)))
    ks = cx.engine.kstate

    def get(fr: list) -> list:
        varying = [s for s in slots if isinstance(fr[s], Varying)]
        if not varying:
            return [(None, fn(fr))]
        saved = [fr[s] for s in varying]
        out: list = []
        try:
            for i in ks.mask:
                for s, v in zip(varying, saved):
                    fr[s] = v.lanes[i]
                out.append((i % ks.group, fn(fr)))
        finally:
            for s, v in zip(varying, saved):
                fr[s] = v
        return out

    return get


def _slices(space: Any, start: int, nbytes: int) -> list:
    """``[(allocation, slice)]`` of the bytes ``[start, start + nbytes)`` inside allocations (bytes outside every
    allocation are left out: the op reports them itself)."""
    a = space.allocation_at(start)
    if a is None:
        return []
    lo = start - a.base
    return [(a, slice(lo, min(lo + nbytes, a.size)))]


def _resolve(entries: list) -> list:
    """A footprint ``[(space, starts, nbytes, kind)]`` as ``[(space, allocation, selection, kind)]``: a slice for
    one range, else the byte offsets."""
    out: list = []
    for space, starts, nbytes, kind in entries:
        if type(starts) is list and len(starts) == 1 and type(nbytes) is int:
            out += [(space, a, sel, kind) for a, sel in _slices(space, int(starts[0]), nbytes)]
            continue
        starts = np.asarray(starts, I64).reshape(-1)
        if not starts.size:
            continue
        n = int(nbytes)
        lo, hi = int(starts.min()), int(starts.max()) + n
        a = space.allocation_at(lo)
        if a is not None and hi <= a.end:
            out.append((space, a, ((starts - a.base)[:, None] + np.arange(n, dtype=I64)[None, :]).reshape(-1), kind))
            continue
        groups: dict[int, tuple[Allocation, list]] = {}
        for s in starts.tolist():
            for a, sel in _slices(space, s, n):
                groups.setdefault(id(a), (a, []))[1].append(np.arange(sel.start, sel.stop, dtype=I64))
        out += [(space, a, np.concatenate(parts), kind) for a, parts in groups.values()]
    return out


def _global_initialized(op: Any) -> bool:
    """Whether the ``memref.global`` a ``memref.get_global`` names has an initial value."""
    from xesim.exec.ops.memref import _find_global, global_initial_values
    from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias

    ref = op.attributes.get("name")
    name = ref.leaf if isinstance(ref, A.SymbolRefAttr) else str(ref).lstrip("@")
    gop = _find_global(op, name)
    if gop is None:
        return True
    ta = gop.attributes.get("type")
    t = ta.type if isinstance(ta, A.TypeAttr) else op.results[0].type
    return global_initial_values(gop, t) is not None


# ---------------------------------------------------------------------------------- blocks
@dataclass(frozen=True)
class _Window:
    """A block of ``rows`` x ``cols`` elements at (``y``, ``x``) of a ``height`` x ``width`` surface."""

    y: int
    x: int
    rows: int
    cols: int
    height: int
    width: int
    rank: int
    surface: str


def _block_window(op: Any, cx: Any) -> Any:
    """``window(fr) -> _Window`` of a ``load_nd``/``store_nd``: the descriptor's offsets plus the op's, the block
    (``array_length`` blocks side by side for loads) and the surface (spec/pvc-hardware.md §1.1, §1.4)."""
    from xesim.decode.xegpu import decode_block_access
    from xesim.exec.ops.xegpu import _operand
    from xesim.exec.ops.xegpu_block import offsets_getter

    acc = decode_block_access(op)
    s_td = cx.slot(_operand(op, "TensorDesc"))
    get_off = offsets_getter(cx, op, acc.rank)
    a = acc.array_length if acc.kind == "load" else 1

    def one(d: Any, off: Any) -> _Window:
        alloc = d.space.allocation_at(d.base)
        surface = d.describe() + (f" in {alloc.describe()}" if alloc is not None else "")
        if acc.rank == 1:
            return _Window(0, d.offsets[0] + off[0], 1, acc.cols * a, 1, d.width, 1, surface)
        return _Window(d.offsets[0] + off[-2], d.offsets[1] + off[-1], acc.rows, acc.cols * a, d.height, d.width, 2,
                       surface)

    def window(fr: list) -> list[_Window]:
        """One window per 2-D block: a batched (rank 3-5) descriptor has one per plane that exists (a plane
        outside the source has no elements and is not a bounds finding: it is the op's defined behaviour)."""
        d, off = fr[s_td], list(get_off(fr))
        if acc.rank <= 2:
            return [one(d, off)]
        off = off or [0] * acc.rank
        lead = _operand(op, "TensorDesc").type.shape[: acc.rank - 2]
        return [one(p, off) for _, p in d.tile_planes(tuple(lead), off[:len(lead)])]

    return window


def _block_message(w: _Window, load: bool) -> str | None:
    """What a block partly or wholly outside its surface does (spec/pvc-hardware.md §1.4), or None when inside."""
    r0, r1 = max(w.y, 0), min(w.y + w.rows, w.height)
    c0, c1 = max(w.x, 0), min(w.x + w.cols, w.width)
    inside = max(r1 - r0, 0) * max(c1 - c0, 0)
    total = w.rows * w.cols
    if inside == total:
        return None
    if w.rank == 1:
        block = f"a block of {w.cols} elements at element {w.x}"
    else:
        block = f"a block of {w.rows}x{w.cols} elements at (row {w.y}, column {w.x})"
    verb = "loads" if load else "stores"
    effect = "read as 0" if load else "are dropped"
    if inside == 0:
        return (f"{verb} {block} entirely outside its {w.surface}: all {total} elements {effect} "
                f"(spec/pvc-hardware.md §1.4)")
    return (f"{verb} {block} partly outside its {w.surface}: {total - inside} of its {total} elements {effect} "
            f"(spec/pvc-hardware.md §1.4)")


# ---------------------------------------------------------------------------------- scattered accesses
@dataclass(frozen=True)
class _Lane:
    """One lane of a scattered message: ``chunk`` elements at element ``offset`` (byte ``address``, ``nbytes``
    bytes) of ``where``; ``enabled`` by the mask; ``outside`` the source (its element range for a memref, else
    every live allocation)."""

    lane: int
    space: Any
    address: int
    offset: int
    chunk: int
    nbytes: int
    enabled: bool
    outside: bool
    where: str


def _outside(space: Any, address: int, nbytes: int, offset: int, chunk: int, limit: int | None) -> bool:
    """Whether a lane's elements lie outside its source: the memref's element range, or (a raw address) one live
    allocation — the rule the op applies to enabled lanes (xesim/exec/ops/xegpu_scatter.py ``_lane_check``)."""
    if limit is not None:
        return offset < 0 or offset + chunk > limit
    a = space.allocation_at(address)
    return a is None or not a.alive or address + nbytes > a.end


def _lanes(engine: Any, space: Any, base: int, offs: np.ndarray, mask: np.ndarray, isz: int, chunk: int,
           limit: int | None, origin: str, numbers: Any) -> list[_Lane]:
    """The lanes of one scattered message (``numbers``: the lanes to keep, None for all): ``chunk`` elements of
    ``isz`` bytes at element offset ``offs[i]`` from ``base``, enabled by ``mask[i]``."""
    from xesim.hw.scatter import lane_addresses

    where = f"{origin} ({limit} elements)" if limit is not None else origin
    addrs = lane_addresses(base, offs, isz, _scatter_bits(engine, space))
    out = []
    for i, (o, en, addr) in enumerate(zip(offs.tolist(), mask.tolist(), addrs)):
        if numbers is not None and i not in numbers:
            continue
        n = chunk * isz
        out.append(_Lane(i, space, addr, o, chunk, n, bool(en), _outside(space, addr, n, o, chunk, limit), where))
    return out


def _scatter_lanes(op: Any, cx: Any) -> Any:
    """``lanes(fr) -> [_Lane]`` of an ``xegpu.load``/``store`` at the SG/VC level (one message, vector offsets and
    mask) or the lane level (each active lane's offset and mask), from the op's own operand decoding."""
    from xesim.decode.xegpu import decode_scatter_access
    from xesim.exec.ops.xegpu import _operand
    from xesim.exec.ops.xegpu_scatter import _groups, _lane_mask, _lane_scatter_plan, _mask_getter, _scatter_operands

    load = op.name == "xegpu.load"
    src = "source" if load else "dest"
    vt = op.results[0].type if load else _operand(op, "value").type
    engine = cx.engine
    ks = engine.kstate

    if decode_scatter_access(op).simt:
        get, isz, chunk = _lane_scatter_plan(op, cx, src, vt)
        get_mask = _lane_mask(op, cx)
        lanes = cx.group

        def simt(fr: list) -> list[_Lane]:
            out: list[_Lane] = []
            for first, active in _groups(ks):
                space, base, offs, limit, origin = get(fr, first, active, lanes)
                mask = get_mask(fr, first, active, lanes)
                out += _lanes(engine, space, base, np.asarray(offs, I64), mask, isz, chunk, limit, origin,
                                {i - first for i in active})
            return out

        return simt
    get, isz, chunk, lane_shape = _scatter_operands(op, cx, src, vt)
    get_mask = _mask_getter(cx, op, lane_shape)

    def sg(fr: list) -> list[_Lane]:
        space, base, offs, limit, origin = get(fr)
        mask = np.asarray(get_mask(fr), bool).reshape(-1)
        return _lanes(engine, space, base, np.asarray(offs, I64).reshape(-1), mask, isz, chunk, limit, origin, None)

    return sg


# ---------------------------------------------------------------------------------- host-only memory ops
def _memref_ranges(m: Any) -> tuple[Any, int]:
    """``(starts, bytes each)`` of a memref's elements: one range when it is contiguous."""
    if _contiguous(m):
        return [m.aligned + m.offset * m.itemsize], _count(m) * m.itemsize
    return m.element_addresses(), m.itemsize


def _byte_selection(m: Any) -> Any:
    """The bytes of memref ``m``'s elements in its allocation, in row-major element order: a slice when they are
    contiguous, else byte offsets."""
    if _contiguous(m):
        lo = m.aligned + m.offset * m.itemsize - m.alloc.base
        return slice(lo, lo + _count(m) * m.itemsize)
    starts = m.element_addresses() - m.alloc.base
    return (starts[:, None] + np.arange(m.itemsize, dtype=I64)[None, :]).reshape(-1)


def _count(m: Any) -> int:
    n = 1
    for s in m.sizes:
        n *= s
    return n


def _contiguous(m: Any) -> bool:
    """Whether ``m``'s elements are dense in row-major order (strides of size-1 dimensions do not matter)."""
    return all(st == want for st, want, size in zip(m.strides, _dense_strides(m.sizes), m.sizes) if size > 1)


def _dense_strides(sizes: Any) -> list[int]:
    out, acc = [], 1
    for s in reversed(list(sizes)):
        out.append(acc)
        acc *= s
    return out[::-1]


def _fp_memset(op: Any, cx: Any) -> Any:
    from xesim.exec.ops.gpu import _group

    dst = cx.slot(_group(op, "dst")[0])

    def fp(fr: list) -> list:
        b = fr[dst]
        return [(b.space, *_memref_ranges(b), WRITE)]

    return fp


def _fp_call(op: Any, cx: Any) -> Any:
    """A call of a runtime utility: the memref arguments it declares it reads and writes, whole
    (xesim/runtime/externals.py ``memory_effects``); calls of functions with a body are followed inside them.  A
    utility that declares nothing is taken to write every memref it gets (no false report)."""
    from xesim.exec.values import MemRefValue

    engine = cx.engine
    callee_ref = op.attributes["callee"]
    callee = engine.lookup(tuple(callee_ref.path))
    if callee is not None and not callee.regions[0].empty:
        return None
    name = callee_ref.leaf
    fn = engine.externals.get(name[len("_mlir_ciface_"):] if name.startswith("_mlir_ciface_") else name)
    if fn is None:
        return None
    effects = getattr(fn, "memory_effects", None)
    slots = cx.slots(op.operands)

    def fp(fr: list) -> list:
        out = []
        reads, writes = effects if effects is not None else ((), range(len(slots)))
        for kind, which in ((READ, reads), (WRITE, writes)):
            for i in which:
                m = fr[slots[i]] if i < len(slots) else None
                if isinstance(m, MemRefValue) and m.alloc is not None:
                    out.append((m.space, *_memref_ranges(m), kind))
        return out

    return fp


#: ops followed by the init check besides :data:`xesim.observe.races.FOOTPRINTS` (which covers kernels' memory ops)
HOST_FOOTPRINTS: dict[str, Any] = {
    "gpu.memset": _fp_memset,
    "func.call": _fp_call,
}
