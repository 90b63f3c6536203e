"""Subgroups in lockstep, and the groups they split into around barriers (ARCHITECTURE.md "Lockstep and scheduling").

A lockstep batch (:mod:`xesim.exec.batch`) runs whole workgroups' subgroups as the slots of one instance axis.  While
every instance runs the same code — nearly always — a ``gpu.barrier`` is a point they all reach together: everything
before it has executed when anything after it does, and it costs nothing.  Named barriers count each instance's
signal per workgroup (instances in order: one interleaving the hardware may produce).

Subgroups that take different branches (``scf.if`` on the subgroup id) around barriers must be interleaved: the
producers of a pipeline signal and wait for the consumers, which signal and wait in the other branch.  When a
divergent ``scf.if`` has a barrier in either branch, :meth:`Lockstep.fork` runs the two branches as *tasks* —
greenlets, each with its own active mask, so each branch still runs all its instances together — that yield to each
other where a barrier or a named-barrier wait cannot complete yet.  A ``gpu.barrier`` completes when every instance
of the workgroups it spans waits at it; a named-barrier wait when the phases its instances signalled in have
completed.  When no task can go on, the batch stops (:class:`~xesim.exec.axis.Diverged`) and its workgroups run again
one subgroup at a time (:mod:`xesim.exec.scheduler`), which reports a real deadlock with every subgroup's position.

An instance is a subgroup (a WG-level batch: a workgroup): ``group`` slots (the lanes at lane level, else one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from greenlet import greenlet

from xesim.exec.axis import Diverged
from xesim.exec.scheduler import NamedBarriers


class _Abort(BaseException):
    """Unwinds a task of a batch being abandoned (not an error of the program)."""


class _Task:
    """A group of instances running a region: its greenlet, its active slots while it is suspended, its state
    (``ready``, ``barrier``: waiting at ``at``, ``wait``: until ``until()``, ``join``: until its children are done,
    ``done``) and its result."""

    __slots__ = ("glet", "mask", "slot", "state", "at", "until", "children", "result")

    def __init__(self, mask: tuple[int, ...]) -> None:
        self.glet: Any = None
        self.mask = mask
        self.slot: int | None = None
        self.state = "ready"
        self.at: Any = None
        self.until: Callable[[], bool] | None = None
        self.children: list[_Task] = []
        self.result: Any = None


class Lockstep:
    """The synchronisation of one lockstep batch of ``workgroups`` x ``per_wg`` instances of ``group`` slots each
    (module docstring); ``who(i)`` names instance ``i``.  Installed as the kernel state's yield points while the
    batch runs (:meth:`run`)."""

    def __init__(self, ks: Any, workgroups: int, per_wg: int, group: int, who: Callable[[int], str]) -> None:
        self.ks = ks
        self.per_wg, self.group, self.workgroups = per_wg, group, workgroups
        self.tables = [NamedBarriers(who) for _ in range(workgroups)]
        self.tasks: list[_Task] = []
        self.current: _Task | None = None
        self._main: Any = None

    # ------------------------------------------------------------------ instances
    def instances(self, mask: tuple[int, ...]) -> list[int]:
        """The instances with an active slot in ``mask`` (at lane level every lane of each must be active: a
        barrier needs the whole subgroup)."""
        g = self.group
        if g == 1:
            return list(mask)
        out = sorted({i // g for i in mask})
        if len(out) * g != len(mask) and self.ks.level == "lane":
            full = set(self.ks.full)
            for inst in out:
                if any((inst * g + lane) in full and (inst * g + lane) not in mask for lane in range(g)):
                    raise Diverged("a barrier under lane-divergent control flow")
        return out

    def _everyone(self, insts: list[int]) -> bool:
        return len(insts) == self.workgroups * self.per_wg

    # ------------------------------------------------------------------ yield points (the ops call them)
    def barrier(self, op: Any) -> None:
        insts = self.instances(self.ks.mask)
        if self._everyone(insts):
            return  # every instance of every workgroup is here, in lockstep
        task = self.current
        if task is None:
            raise Diverged("a gpu.barrier reached by some subgroups of a workgroup only")
        task.state, task.at = "barrier", (op, insts)
        self._block(task)

    def yield_point(self, op: Any) -> None:
        return None

    def arrive(self, ids: list[int], bid: int, participants: int) -> None:
        """Instances ``ids`` (in order) signal named barrier ``bid``."""
        for table, group in self._by_workgroup(ids):
            table.arrive_many(group, bid, participants)

    def wait(self, pairs: list[tuple[int, int]], op: Any) -> None:
        """Instances ``i`` wait for the phase of named barrier ``bid`` they signalled in (``pairs`` of (i, bid)):
        at once when every phase has completed, else this task waits until they have."""
        by_bid: dict[int, list[int]] = {}
        for i, bid in pairs:
            by_bid.setdefault(bid, []).append(i)
        got = [table.take_many(group, bid) for bid, ids in by_bid.items()
               for table, group in self._by_workgroup(ids)]
        if all(nb.phase > phase for nb, phase in got):
            return
        task = self.current
        if task is None:
            raise Diverged("a named-barrier wait whose phase needs subgroups outside the lockstep")
        task.state, task.until = "wait", (lambda: all(nb.phase > phase for nb, phase in got))
        self._block(task)

    def _by_workgroup(self, ids: list[int]) -> list[tuple[Any, list[int]]]:
        """``ids`` (ascending) split by workgroup: (that workgroup's barrier table, its instances)."""
        per_wg = self.per_wg
        if len(ids) <= 1:
            return [(self.tables[i // per_wg], [i]) for i in ids]
        wg = np.asarray(ids, np.int64) // per_wg
        cuts = [0, *(np.flatnonzero(wg[1:] != wg[:-1]) + 1).tolist(), len(ids)]
        tables, first = self.tables, wg[cuts[:-1]].tolist()
        return [(tables[w], ids[a:b]) for w, a, b in zip(first, cuts, cuts[1:])]

    def arrive_all(self, bid: int, participants: int, op: Any) -> None:
        self.arrive(list(self.instances(self.ks.mask)), bid, participants)

    def wait_all(self, bid: int, op: Any) -> None:
        self.wait([(i, bid) for i in self.instances(self.ks.mask)], op)

    # ------------------------------------------------------------------ tasks
    def fork(self, branches: list[tuple[tuple[int, ...], Callable[[], Any]]]) -> list:
        """Run ``branches`` — (active slots, region runner) — as tasks that interleave at barriers; their results,
        in order, once all have finished."""
        parent = self.current
        if parent is None:  # not running as a task: no interleaving, one branch after the other
            return [self._run_masked(mask, fn) for mask, fn in branches]
        kids = parent.children = [self._task(fn, mask) for mask, fn in branches]
        parent.state = "join"
        self._block(parent)
        parent.children = []
        self.tasks = [t for t in self.tasks if t not in kids]
        return [k.result for k in kids]

    def _run_masked(self, mask: tuple[int, ...], fn: Callable[[], Any]) -> Any:
        ks = self.ks
        saved = ks.mask
        ks.mask = mask
        try:
            return fn()
        finally:
            ks.mask = saved

    def _task(self, fn: Callable[[], Any], mask: tuple[int, ...]) -> _Task:
        task = _Task(mask)

        def body() -> None:
            try:
                task.result = fn()
            except _Abort:
                return
            task.state = "done"

        task.glet = greenlet(body, parent=self._main)
        self.tasks.append(task)
        return task

    def _block(self, task: _Task) -> None:
        """Suspend the running task (keeping its mask) until the loop of :meth:`run` resumes it."""
        task.mask, task.slot = self.ks.mask, self.ks.slot
        if self._main.switch() is _Abort:
            raise _Abort()

    def run(self, body: Callable[[], None]) -> None:
        """Run the batch's code as the first task and every task it forks until the first is done."""
        self._main = greenlet.getcurrent()
        ks = self.ks
        root = self._task(body, ks.mask)
        saved = (ks.mask, ks.slot)
        try:
            while root.state != "done":
                task = self._pick()
                if task is None:
                    raise Diverged("the subgroups' groups wait for each other in lockstep (they run again one at a "
                                   "time, which reports a deadlock if there is one)")
                self.current = task
                ks.mask, ks.slot = task.mask, task.slot
                task.glet.switch()
                self.current = None
        finally:
            for t in self.tasks:  # unwind suspended tasks now (their cleanup must not run later, at collection)
                if t.glet and not t.glet.dead:
                    t.glet.switch(_Abort)
            self.tasks = []
            ks.mask, ks.slot = saved

    def _pick(self) -> _Task | None:
        """The first task that can run (tasks in creation order), after releasing completed barriers and waits."""
        for t in self.tasks:
            if t.state == "join" and all(k.state == "done" for k in t.children):
                t.state = "ready"
            elif t.state == "wait" and t.until():
                t.state, t.until = "ready", None
        waiting: dict[int, list[_Task]] = {}
        for t in self.tasks:
            if t.state == "barrier":
                waiting.setdefault(id(t.at[0]), []).append(t)
        for group in waiting.values():
            here = np.zeros(self.workgroups * self.per_wg, bool)
            for t in group:
                here[t.at[1]] = True
            complete = here.reshape(self.workgroups, self.per_wg).all(axis=1)
            for t in group:
                if all(complete[i // self.per_wg] for i in t.at[1]):
                    t.state, t.at = "ready", None
        return next((t for t in self.tasks if t.state == "ready"), None)
