"""Interleaving the subgroups of one workgroup at barriers: coroutines in one OS thread (ARCHITECTURE.md
"Scheduling").

Most kernels never need this: their subgroups run in lockstep along the instance axis, where a barrier is a
point every instance reaches together (:mod:`xesim.exec.batch`).  A workgroup whose subgroups run one at a time
(the reference engine, an observer that follows single subgroups, a random schedule, or a batch that diverged
around a barrier) runs each subgroup as a *task*: a greenlet (a coroutine with its own Python stack, switched
in the same OS thread — microseconds per switch, no locks).  A task gives up control at the yield points:
``gpu.barrier``, ``xegpu.nbarrier_wait`` and ``xegpu.fence``.

``policy`` ``round-robin`` (default, deterministic) resumes the next ready task after the one that yielded;
``random`` picks any ready task with the seeded generator, so programs whose result depends on the
interleaving show it.  Named barriers follow spec/pvc-hardware.md §4.1 (producers = consumers = participants:
a phase completes when ``participants`` threads have signalled; the barrier is then free for the next phase).
When no task can run but some wait, the launch stops with a deadlock report that lists every subgroup, where it
waits, and the barrier state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from greenlet import greenlet

from xesim.exec.faults import ExecFault


class _Abort(BaseException):
    """Unwinds a task whose workgroup is being torn down (not an error of the program)."""


class NamedBarrierState:
    """One named barrier of a workgroup: ``participants`` threads per phase; ``phase`` is the phase collecting
    arrivals, ``arrived`` the threads counted in it so far."""

    def __init__(self, participants: int) -> None:
        self.participants = participants
        self.phase = 0
        self.arrived: list[int] = []


class NamedBarriers:
    """The named barriers of one workgroup and the phase each thread signalled in (spec/pvc-hardware.md §4.1:
    producers = consumers = participants; a phase completes when ``participants`` threads have signalled, and
    the barrier then collects the next phase).  Threads are numbered by the caller; ``who(i)`` names one."""

    def __init__(self, who: Callable[[int], str]) -> None:
        self.who = who
        self.bars: dict[int, NamedBarrierState] = {}
        self.pending: dict[tuple[int, int], int] = {}  # (thread, barrier id) -> phase it signalled in

    def arrive(self, i: int, bid: int, participants: int) -> int:
        """Thread ``i`` signals barrier ``bid``; returns the phase it signalled in."""
        self.arrive_many([i], bid, participants)
        return self.pending[(i, bid)]

    def arrive_many(self, ids: list[int], bid: int, participants: int) -> None:
        """Threads ``ids`` signal barrier ``bid``, one after another (a phase completes after its
        ``participants``-th signal and the next ones count in the next phase)."""
        nb = self.bars.get(bid)
        if nb is None:
            nb = self.bars[bid] = NamedBarrierState(participants)
        elif nb.participants != participants:
            raise ExecFault(f"named barrier {bid}: {self.who(ids[0])} signals with {participants} participants, "
                            f"others with {nb.participants}")
        pending = self.pending
        keys = [(i, bid) for i in ids]
        if not pending.keys().isdisjoint(keys) or len(set(ids)) != len(ids):
            again = next(k for n, k in enumerate(keys) if k in pending or k in keys[:n])
            phase = pending.get(again, nb.phase)
            raise ExecFault(f"named barrier {bid}: {self.who(again[0])} signals again before waiting for phase "
                            f"{phase}")
        pos = 0
        while pos < len(keys):
            room = nb.participants - len(nb.arrived)
            chunk = keys[pos:pos + room]
            pending.update(dict.fromkeys(chunk, nb.phase))
            nb.arrived.extend(k[0] for k in chunk)
            if len(nb.arrived) == nb.participants:
                nb.phase += 1
                nb.arrived = []
            pos += len(chunk)

    def take(self, i: int, bid: int) -> tuple[NamedBarrierState, int]:
        """Thread ``i`` starts waiting on barrier ``bid``: the barrier and the phase it waits for (the one it
        signalled in; a wait without a signal is an error)."""
        return self.take_many([i], bid)

    def take_many(self, ids: list[int], bid: int) -> tuple[NamedBarrierState, int]:
        """Threads ``ids`` start waiting on barrier ``bid``: the barrier and the last phase one of them waits for
        (each waits for the phase it signalled in; a wait without a signal is an error)."""
        pending = self.pending
        last = -1
        for i in ids:
            phase = pending.pop((i, bid), None)
            if phase is None:
                raise ExecFault(f"named barrier {bid}: {self.who(i)} waits without having signalled "
                                "(xegpu.nbarrier_arrive) in this phase")
            if phase > last:
                last = phase
        return self.bars[bid], last

    def state(self) -> str:
        """``; named barrier B: phase P, A of N arrived`` for every barrier (deadlock reports)."""
        parts = [f"named barrier {bid}: phase {nb.phase}, {len(nb.arrived)} of {nb.participants} arrived"
                 for bid, nb in sorted(self.bars.items())]
        return ("; " + "; ".join(parts)) if parts else ""


class Scheduler:
    """Runs ``n`` tasks (one per subgroup, ``run_task(i)`` runs subgroup ``i`` to its end) as greenlets.

    ``resume(i)`` is called before a suspended task continues (it makes ``i`` the executing instance again);
    ``who(i)`` names it in reports; ``context()`` gives the located context of a fault; ``events`` receives
    the synchronisation events an observer may follow (``barrier()``, ``arrive(i, bid, phase)``,
    ``acquire(i, bid, phase)``), or is None.
    """

    def __init__(self, n: int, run_task: Callable[[int], None], resume: Callable[[int], None],
                 who: Callable[[int], str], context: Callable[[], str], policy: str, rng: Any,
                 events: Any = None) -> None:
        self.n = n
        self.run_task, self.resume, self.who, self.context = run_task, resume, who, context
        self.policy, self.rng, self.events = policy, rng, events
        self.state = ["ready"] * n  # ready | waiting | done
        self.where: list[Any] = [None] * n  # the op a task waits at
        self.cond: list[Any] = [None] * n  # named-barrier waits: a callable telling whether the task may go on
        self.nbars = NamedBarriers(who)
        self.current = -1
        self._main: Any = None

    # ------------------------------------------------------------------ reports
    def _describe(self, i: int) -> str:
        if self.state[i] == "done":
            return f"{self.who(i)}: finished"
        op = self.where[i]
        return f"{self.who(i)}: waiting at {op.name} ({op.loc})" if op is not None else f"{self.who(i)}: ready"

    # ------------------------------------------------------------------ choosing the next task
    def _pick(self, after: int) -> int:
        """The next task to run after ``after`` yielded or finished; -1 when every task has finished.  Raises the
        deadlock fault when tasks wait but none can go on."""
        for j in range(self.n):  # named-barrier waits whose phase has completed become ready
            if self.state[j] == "waiting" and self.cond[j] is not None and self.cond[j]():
                self.state[j], self.where[j], self.cond[j] = "ready", None, None
        ready = [j for j in range(self.n) if self.state[j] == "ready"]
        if not ready:
            waiting = [j for j in range(self.n) if self.state[j] == "waiting"]
            if not waiting:
                return -1
            at_barrier = [j for j in waiting if self.cond[j] is None]
            sites = {id(self.where[j]) for j in at_barrier}
            if len(at_barrier) == self.n and len(sites) == 1:  # every task at the same gpu.barrier
                for j in at_barrier:
                    self.state[j], self.where[j] = "ready", None
                if self.events is not None:  # everything before happens before everything after
                    self.events.barrier()
                ready = at_barrier
            else:
                detail = "; ".join(self._describe(j) for j in range(self.n)) + self.nbars.state()
                if len(sites) > 1:
                    why = "instances wait at different barriers"
                elif any(self.state[j] == "done" for j in range(self.n)) and at_barrier:
                    why = "a barrier can never complete because some instances finished without reaching it"
                else:
                    why = "every live instance is blocked"
                raise ExecFault(f"deadlock: {why} ({detail})", self.where[waiting[0]], self.context())
        if self.policy == "random":
            return ready[int(self.rng.integers(len(ready)))]
        return next((j for k in range(1, self.n + 1) if (j := (after + k) % self.n) in ready), ready[0])

    def _yield(self) -> None:
        """Give control back to the scheduler loop; returns when this task is resumed."""
        if self._main.switch() is _Abort:
            raise _Abort()

    # ------------------------------------------------------------------ yield points (called by ops)
    def barrier(self, op: Any) -> None:
        i = self.current
        self.state[i], self.where[i], self.cond[i] = "waiting", op, None
        self._yield()

    def yield_point(self, op: Any) -> None:
        self._yield()

    def nbarrier_arrive(self, bid: int, participants: int, op: Any) -> None:
        i = self.current
        phase = self.nbars.arrive(i, bid, participants)
        if self.events is not None:  # the arrive releases into this phase
            self.events.arrive(i, bid, phase)

    def nbarrier_wait(self, bid: int, op: Any) -> None:
        i = self.current
        nb, phase = self.nbars.take(i, bid)
        if nb.phase <= phase or self.policy == "random":
            self.state[i], self.where[i] = "waiting", op
            self.cond[i] = lambda nb=nb, phase=phase: nb.phase > phase
            self._yield()
        if self.events is not None:  # the completed phase is acquired
            self.events.acquire(i, bid, phase)

    # ------------------------------------------------------------------ running
    def _body(self, i: int) -> None:
        try:
            self.run_task(i)
        except _Abort:
            return
        self.state[i], self.where[i] = "done", None

    def run(self) -> None:
        """Run every task to its end (or to the first fault, which is raised here)."""
        self._main = greenlet.getcurrent()
        tasks = [greenlet(lambda i=i: self._body(i), parent=self._main) for i in range(self.n)]
        started = [False] * self.n
        try:
            nxt = self._pick(self.n - 1)
            while nxt >= 0:
                self.current = nxt
                if started[nxt]:
                    self.resume(nxt)
                started[nxt] = True
                tasks[nxt].switch()
                nxt = self._pick(nxt)
        finally:
            for t in tasks:  # unwind suspended tasks now (their cleanup must not run later, at collection)
                if t and not t.dead:
                    t.switch(_Abort)
