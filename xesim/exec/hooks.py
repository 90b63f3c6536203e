"""The one hook through which observers follow a run (ARCHITECTURE.md "One hook").

The executor calls its observers at fixed points and imports none of them:

* **ops** — every op of a function is compiled once into a step; each observer's :meth:`Observer.instrument`
  may wrap that step (in subscription order).  This is where an observer sees an op execute, with the frame of
  values it reads and writes: the register-file model places values in registers, the race detector records
  footprints, a tracer records what ran;
* **launches** — :meth:`Observer.wrap_launch` may wrap a whole launch (the engine cross-check of ``XESIM_ENGINE=both``
  runs it twice and compares); :meth:`Observer.launch_begin` / :meth:`Observer.launch_end` around each kernel launch
  that runs, :meth:`Observer.launch_reused` instead for one that takes an identical earlier launch's writes (with
  what :meth:`Observer.launch_record` kept after that launch),
  :meth:`Observer.workgroup_begin` when a workgroup starts, :meth:`Observer.instance_begin` whenever a subgroup
  instance starts or resumes (after another one ran);
* **synchronisation** — :meth:`Observer.barrier` when every subgroup of the workgroup has passed a
  ``gpu.barrier``, :meth:`Observer.arrive` / :meth:`Observer.acquire` for named-barrier phases;
* **the end of a run** — :meth:`Observer.run_end` when the entry function has returned (a last look at memory:
  the memory checker's leak check).

An observer that follows subgroups one at a time sets :attr:`Observer.per_instance`: launches then run in one
process, and the workgroups it follows (:meth:`Observer.follows`; by default all of them) run their subgroups
one at a time, as coroutines when they synchronise, not in lockstep, so the instance events above describe each
subgroup.  The other workgroups of the launch may run batched: a tracer that records one workgroup costs the
rest of the launch nothing but the single process.
An observer that must see every op of host code execute sets :attr:`Observer.sees_host_ops`: host loop nests then
run in the interpreter, whose steps it wraps, instead of as compiled code (xesim/exec/jit), which loads and stores
memory inside one step.
``Engine.subscribe`` adds an observer; :func:`xesim.api.make_engine` subscribes the ones the run configuration
asks for (``--check-races``, the register-file model, ``XESIM_ENGINE=both``), and anyone may write their own.
"""

from __future__ import annotations

from typing import Any


class Observer:
    """Base class of observers: every event does nothing by default."""

    #: how reports name it ("the register-file model", "race detection (--check-races)")
    name = "an observer"
    #: the observer follows single subgroups: the launches it watches stay in one process, and the workgroups it
    #: :meth:`follows` never batch (read at each launch's start: an observer may change it in :meth:`launch_begin`)
    per_instance = False
    #: the observer must see every launch execute: while it is subscribed no launch takes an identical earlier
    #: launch's writes instead of running (xesim/exec/launch_reuse.py).  True unless an observer says otherwise.
    needs_execution = True
    #: the observer must see each host op's step (host ``scf.for`` nests are interpreted, not compiled)
    sees_host_ops = False

    def instrument(self, op: Any, cx: Any, step: Any, is_term: bool) -> Any:
        """The step (``step(frame)``; for a terminator ``term(frame) -> (target, values)``) to run for ``op``
        instead of ``step``, which may be None for ops without a run-time effect.  ``cx`` is the compiler (frame
        slots of values: ``cx.slot(v)``; the function being compiled: ``cx.func_op``)."""
        return step

    def follows(self, workgroup: tuple[int, int, int]) -> bool:
        """Whether the observer (with :attr:`per_instance` set) follows the subgroups of ``workgroup`` of the launch
        in progress one at a time; a workgroup no observer follows may run in a lockstep batch, where the
        observer's wrapped steps still run but :meth:`instance_begin` is not called.  Default: every workgroup."""
        return True

    def wrap_launch(self, engine: Any, launch: Any) -> Any:
        """The launch function to use instead of ``launch(kernel, name, grid, block, args, launch_op)`` (each observer
        wraps the previous one's, in subscription order)."""
        return launch

    def launch_begin(self, engine: Any, kernel: Any, name: str, level: str) -> None:
        """A launch of ``kernel`` (``name``, program ``level``) starts; ``engine.kstate`` describes it."""

    def launch_end(self, engine: Any) -> None:
        """The launch ended (normally or with a fault)."""

    def workgroup_begin(self, ks: Any) -> None:
        """Workgroup ``ks.block_id`` starts (a lockstep batch calls it for each of its workgroups as it starts)."""

    def instance_begin(self, ks: Any) -> None:
        """Subgroup ``ks.subgroup_id`` of workgroup ``ks.block_id`` starts or resumes."""

    def barrier(self, ks: Any) -> None:
        """Every subgroup of the workgroup passed a ``gpu.barrier``."""

    def arrive(self, ks: Any, subgroup: int, bid: int, phase: int) -> None:
        """``subgroup`` signalled ``phase`` of named barrier ``bid``."""

    def acquire(self, ks: Any, subgroup: int, bid: int, phase: int) -> None:
        """``subgroup``'s wait for ``phase`` of named barrier ``bid`` returned."""

    def run_end(self, engine: Any) -> None:
        """The entry function of :meth:`xesim.exec.engine.Engine.run` returned normally (not called when the run
        stops with a fault).  May raise :class:`xesim.diagnostics.DiagnosticError`."""

    def launch_record(self) -> Any:
        """After a launch ran (its :meth:`launch_end` was called): what an observer that does not need execution
        (:attr:`needs_execution` False) must keep to count a later identical launch as if it ran, e.g. its
        figures of this launch; None (the default) when it keeps nothing."""
        return None

    def launch_reused(self, engine: Any, record: Any) -> None:
        """A launch identical to an earlier one took that launch's writes instead of running
        (xesim/exec/launch_reuse.py); ``record`` is what :meth:`launch_record` returned after the earlier launch
        (not called when that was None).  No other event is sent for the reused launch."""

    def save(self) -> Any:
        """A copy of what the observer has gathered so far (the engine cross-check runs a launch twice and keeps
        only the first run's observations: :meth:`restore` brings them back)."""
        return None

    def restore(self, state: Any) -> None:
        """Return to ``state`` from :meth:`save`."""


def per_instance_reason(engine: Any) -> str | None:
    """The name of the first subscribed observer that follows subgroups one at a time, or None."""
    return next((obs.name for obs in engine.observers if obs.per_instance), None)


def host_ops_reason(engine: Any) -> str | None:
    """The name of the first subscribed observer that must see every host op execute, or None."""
    return next((obs.name for obs in engine.observers if obs.sees_host_ops), None)


def follows_workgroup(engine: Any, workgroup: tuple[int, int, int]) -> bool:
    """Whether a subscribed observer follows the subgroups of ``workgroup`` one at a time (it must not batch)."""
    return any(obs.per_instance and obs.follows(workgroup) for obs in engine.observers)


class SchedulerEvents:
    """The coroutine scheduler's synchronisation events for the observers (subgroup ids instead of task
    numbers); ``subgroups[i]`` is task ``i``'s subgroup id."""

    def __init__(self, observers: list, ks: Any, subgroups: list[int]) -> None:
        self.observers, self.ks, self.subgroups = observers, ks, subgroups

    def barrier(self) -> None:
        for obs in self.observers:
            obs.barrier(self.ks)

    def arrive(self, i: int, bid: int, phase: int) -> None:
        for obs in self.observers:
            obs.arrive(self.ks, self.subgroups[i], bid, phase)

    def acquire(self, i: int, bid: int, phase: int) -> None:
        for obs in self.observers:
            obs.acquire(self.ks, self.subgroups[i], bid, phase)
