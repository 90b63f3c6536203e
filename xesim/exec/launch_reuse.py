"""Launch reuse: a launch identical to the previous launch of its kernel takes that launch's writes instead of
running again (issue 32; upstream performance programs launch one kernel many times on unchanged inputs).

**When.**  A launch of kernel ``K`` over ``grid`` x ``block`` with arguments ``args`` is *identical* to the latest
executed launch of ``K`` over the same grid and block when

* the arguments are equal: memref descriptors (address, offset, sizes, strides, element type) and scalars
  (integers by value, floats by their bits);
* every byte of every allocation the launch may read **or write** is equal to that allocation's bytes when the
  earlier launch started.  The allocations are those of the memref arguments at the positions the kernel may read
  or write (:func:`xesim.exec.kernel_writes.read_arguments`, :func:`~xesim.exec.kernel_writes.written_arguments`,
  static walks over the kernel's uses of its arguments driven by the ``reads_memory``/``writes_memory`` traits);
  every live allocation when an argument is an integer (it may be an address).  Allocations the kernel only
  writes are compared too, because the earlier launch's writes are kept as the bytes it *changed*: those
  reproduce the launch only from the same starting bytes.  The bytes are compared in full against a copy taken
  when the earlier launch started (the strongest "content hash": no collision is possible; a copy and a
  ``memcmp`` also cost less than a cryptographic hash of the same bytes);

and the kernel is *deterministic*: :func:`kernel_reason` finds no op with the traits ``atomic`` (each instance's
update counts, in the order of execution), ``prints`` (output is an effect of every launch), ``calls`` (effects
of another function), ``materializes_global`` (memory outside the arguments), ``allocates``/``frees`` outside
shared local memory (fresh addresses per launch), and no op without a definition.  The simulator runs a
race-free or racy kernel identically on identical inputs, except under ``--schedule random``, whose generator
advances with every launch: that schedule turns reuse off (a random source).

**Effect.**  A reused launch writes, into each allocation it may write, the bytes the earlier launch changed
there (kept as positions and values, or as the whole image when more than a ninth of the bytes changed, which
gives the same bytes because the unchanged ones equal the starting bytes); by the two conditions its memory
afterwards equals what executing it gives, bit for bit (``tests/unit/test_launch_reuse.py`` compares runs with
and without reuse).  A launch that faults is not kept.

**Observers.**  An observer that must see launches execute (:attr:`xesim.exec.hooks.Observer.needs_execution`,
true by default: the checking register-file model, the race detector, the engine cross-check of
``XESIM_ENGINE=both``, tracers) turns reuse off for every launch while it is subscribed; the reason is reported by
``--stats``.  The others are told of a reused launch by :meth:`~xesim.exec.hooks.Observer.launch_reused`, with what
their :meth:`~xesim.exec.hooks.Observer.launch_record` returned after the earlier launch ran (the register-file
model of ``--stats`` counts the reused launch's instances and spills again: an identical launch executes
identically).  An observer subscribed after the earlier launch ran has no record of it and is not told.

**Off switch.**  ``RunConfig.launch_reuse`` (``--no-launch-reuse``, ``XESIM_NO_LAUNCH_REUSE=1``).

**Cost.**  One copy of the compared bytes per executed launch and one comparison per launch; at most
:data:`KEEP_BYTES` of copies are kept per engine (oldest kernels dropped first), and a launch whose compared bytes
exceed it is executed without being kept.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from xesim.exec.kernel_writes import read_arguments, written_arguments
from xesim.exec.values import MemRefValue, in_shared_local_memory

#: bytes of copies (starting bytes and changed bytes) kept per engine
KEEP_BYTES = 2 << 30

#: traits of an op that make a kernel's launch not reusable, with why (isa/README.md "Traits")
_NOT_REUSABLE = {
    "atomic": "atomic read-modify-writes",
    "prints": "prints",
    "calls": "calls another function",
    "materializes_global": "reads memory outside its arguments (memref.global)",
}


def kernel_reason(kernel: Any) -> str | None:
    """Why launches of ``kernel`` are never reused (module docstring), or None when they may be."""
    for op in kernel.walk():
        if op is kernel:
            continue
        if op.opdef is None:
            return f"contains {op.name}, an op without a definition"
        traits = op.opdef.traits
        effect = next((t for t in _NOT_REUSABLE if t in traits), None)
        if effect is not None:
            return f"contains {op.name} ({_NOT_REUSABLE[effect]})"
        if ("allocates" in traits and not all(in_shared_local_memory(v.type) for v in op.results)) or \
                ("frees" in traits and not all(in_shared_local_memory(v.type) for v in op.operands)):
            return f"contains {op.name} of global memory"
    return None


def run_reason(engine: Any) -> str | None:
    """Why no launch of ``engine`` is reused now (configuration, schedule, observers), or None."""
    if not engine.config.launch_reuse:
        return "turned off (--no-launch-reuse)"
    if engine.config.schedule == "random":
        return "the random schedule (--schedule random) is a random source"
    watcher = next((obs for obs in engine.observers if getattr(obs, "needs_execution", True)), None)
    if watcher is not None:
        return f"{watcher.name} watches every launch"
    return None


def _argument_key(v: Any) -> Any:
    """A hashable description of one kernel argument, or raise TypeError for a kind not compared."""
    if isinstance(v, MemRefValue):
        return ("memref", id(v.space), v.aligned, v.offset, tuple(v.sizes), tuple(v.strides), str(v.element_type))
    if isinstance(v, (bool, np.bool_)):
        return ("bool", bool(v))
    if isinstance(v, (int, np.integer)):
        return ("int", int(v))
    if isinstance(v, (float, np.floating)):
        a = np.asarray(v)
        return ("float", a.dtype.str, a.tobytes())
    if isinstance(v, np.ndarray):
        return ("array", v.dtype.str, v.shape, v.tobytes())
    raise TypeError(type(v).__name__)


@dataclass
class _Kept:
    """One executed launch: its arguments, the starting bytes of what it may read or write, what it changed."""

    args: tuple
    compared: list  # [(allocation, bytes when the launch started)]
    changes: list  # [(allocation, changed positions int64[k] or slice(None) for all, their new bytes)]
    nbytes: int = 0
    records: list = field(default_factory=list)  # [(observer, its launch_record() after the launch)]


@dataclass
class LaunchReuse:
    """The kept launches of one engine and the counts ``--stats`` reports."""

    kept: OrderedDict = field(default_factory=OrderedDict)  # (id(kernel), grid, block) -> _Kept
    kernels: dict = field(default_factory=dict)  # id(kernel) -> (kernel, reason or None, read ∪ written positions)
    launches: int = 0
    reused: int = 0
    reasons: dict = field(default_factory=dict)  # reason -> launches it kept from reuse
    kept_bytes: int = 0

    def report(self) -> str:
        """The ``--stats`` line(s)."""
        lines = [f"xesim: launches: {self.launches - self.reused} executed, {self.reused} reused (a reused launch "
                 "takes the writes of an identical earlier launch instead of running)"]
        for reason, n in self.reasons.items():
            lines.append(f"  {n} launch(es) not eligible: {reason}")
        return "\n".join(lines)

    # ------------------------------------------------------------------------------------------ the decision
    def _kernel(self, kernel: Any) -> tuple:
        info = self.kernels.get(id(kernel))
        if info is None or info[0] is not kernel:
            reason = kernel_reason(kernel)
            positions = read_arguments(kernel) | written_arguments(kernel) if reason is None else frozenset()
            info = self.kernels[id(kernel)] = (kernel, reason, positions)
        return info

    def _not_eligible(self, reason: str) -> None:
        self.reasons[reason] = self.reasons.get(reason, 0) + 1

    def launch(self, engine: Any, run: Any, kernel: Any, name: str, grid: tuple, block: tuple, args: list,
               launch_op: Any) -> None:
        """Run the launch through ``run`` (the observers' wrapped launch), or reuse an identical earlier one."""
        self.launches += 1
        reason = run_reason(engine)
        _, kreason, positions = self._kernel(kernel)
        reason = reason or (f"kernel {name} {kreason}" if kreason else None)
        try:
            akey = tuple(_argument_key(v) for v in args)
        except TypeError as exc:
            akey, reason = None, reason or f"an argument of kind {exc} is not compared"
        if reason is not None:
            self._not_eligible(reason)
            run(kernel, name, grid, block, args, launch_op)
            return
        key = (id(kernel), tuple(grid), tuple(block))
        allocs = _compared_allocations(engine, args, positions)
        old = self.kept.get(key)
        if old is not None and old.args == akey and _same_bytes(old.compared, allocs):
            for alloc, where, values in old.changes:
                alloc.data[where] = values
            for obs, record in old.records:
                if any(o is obs for o in engine.observers):
                    obs.launch_reused(engine, record)
            self.kept.move_to_end(key)
            self.reused += 1
            return
        if old is not None:
            self._drop(key)
        size = sum(a.size for a in allocs)
        before = [(a, a.data.copy()) for a in allocs] if size <= KEEP_BYTES else None
        run(kernel, name, grid, block, args, launch_op)
        if before is None:
            return
        changes = []
        for alloc, start in before:
            if not alloc.alive:
                return
            changed = alloc.data != start
            count = int(np.count_nonzero(changed))
            if count * 9 > alloc.size:  # positions would cost more than the whole image: keep the image
                changes.append((alloc, slice(None), alloc.data.copy()))
            elif count:
                where = np.flatnonzero(changed)
                changes.append((alloc, where, alloc.data[where].copy()))
        records = [(obs, rec) for obs in engine.observers
                   if (rec := getattr(obs, "launch_record", lambda: None)()) is not None]
        kept = _Kept(akey, before, changes, records=records)
        kept.nbytes = size + sum(getattr(w, "nbytes", 0) + v.nbytes for _, w, v in changes)
        while self.kept and self.kept_bytes + kept.nbytes > KEEP_BYTES:
            self._drop(next(iter(self.kept)))
        self.kept[key] = kept
        self.kept_bytes += kept.nbytes

    def _drop(self, key: tuple) -> None:
        self.kept_bytes -= self.kept.pop(key).nbytes


def _compared_allocations(engine: Any, args: list, positions: frozenset[int]) -> list:
    """The live allocations whose bytes decide the launch (module docstring): those of the memref arguments at
    ``positions``, or every live one when an argument is an integer (possibly an address)."""
    space = engine.memory
    if any(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in args):
        return [a for a in space.live_allocations() if a.size > 0]
    out: dict = {}
    for i, v in enumerate(args):
        if i in positions and isinstance(v, MemRefValue) and v.space is space:
            a = v.alloc if v.alloc is not None else space.allocation_at(v.aligned)
            if a is not None and a.alive and a.size > 0:
                out[id(a)] = a
    return list(out.values())


def _same_bytes(kept: list, allocs: list) -> bool:
    """Whether ``allocs`` are the kept allocations, alive, each holding the kept starting bytes."""
    if len(kept) != len(allocs) or any(a is not b for (a, _), b in zip(kept, allocs)):
        return False
    return all(a.alive and np.array_equal(a.data, start) for a, start in kept)


def reuse_state(engine: Any) -> LaunchReuse:
    """The engine's :class:`LaunchReuse` (made on first use)."""
    state = engine.__dict__.get("_launch_reuse")
    if state is None:
        state = engine.__dict__["_launch_reuse"] = LaunchReuse()
    return state
