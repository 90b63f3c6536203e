"""Bounded runs: the step budget (``--max-steps``), the deadline (``--timeout``) and interruption (SIGINT, SIGTERM)
of a running program, in interpreted and compiled code alike (issue 27 items 3 and 4).

**Steps.**  A step is one iteration of a loop as xesim executes it: an ``scf.for``, ``scf.while`` or ``scf.parallel``
iteration, or a ``cf`` branch to a block at or before its own (every cycle of a control-flow graph has such an
edge), in host code and in kernels.  A kernel loop that runs for a batch of instances together
(xesim/exec/batch.py) counts once per iteration, so the count depends on how the run is executed
(``XESIM_ENGINE``, ``XESIM_BATCH``), never on timing; worker processes of a ``--jobs`` launch count on from the
launch's start and report their steps back.  Ops outside loops run a bounded number of times and are not counted.
When a run would take step ``max_steps + 1`` it stops with a located error naming the loop.

**Deadline.**  ``timeout`` seconds after the run started (``time.monotonic``), the next check stops it with a located
error naming the op being executed and the loop it is in.

**Checks.**  Interpreted loops count each iteration (a decrement and a comparison) and poll the stop flag and the
clock every :data:`POLL_INTERPRETED` steps; kernel launches poll before every workgroup and batch.  Compiled host
loop nests (xesim/exec/jit) count every iteration in native code (an innermost loop of at most
:data:`POLL_COMPILED` iterations that fit the budget counts them all as it starts) and read the stop flag every
:data:`POLL_COMPILED` iterations (an atomic load, which LLVM may not hoist out of the loop); a nest that must stop
returns at once with the number of the loop it was in.

**Signals.**  Python raises ``KeyboardInterrupt`` for SIGINT in the main thread only between bytecodes; native code
(a compiled 10^12-iteration loop) runs on meanwhile.  While a run is active in the main thread the guard therefore
has CPython's signal handler write each signal number to a pipe (``signal.set_wakeup_fd``), and a watcher thread
blocked on that pipe sets the *stop flag* the moment SIGINT or SIGTERM arrives; the compiled nest sees it within
:data:`POLL_COMPILED` iterations and returns, and Python's handler then raises the exception where the nest was called.
The same thread sets the flag at the deadline.  The flag lives in anonymous shared memory, so worker processes forked
by ``--jobs`` (xesim/exec/parallel.py) see it too.

:func:`locate` finds where an interrupted run was: the op the exception left (``xesim_op``, set by the guard and
the compiled nests; else the innermost frame of the region runner or of an op's step) and the loop around it.
"""

from __future__ import annotations

import mmap
import os
import select
import signal
import threading
import time
from typing import Any

import numpy as np

from xesim.ir.core import Operation

#: interpreted loop iterations between two polls of the stop flag and the clock (an iteration takes microseconds)
POLL_INTERPRETED = 256
#: compiled loop iterations between two reads of the stop flag (an iteration may take a nanosecond: 16384 of them
#: take well under a millisecond, and a read costs one load)
POLL_COMPILED = 1 << 14
#: the steps a run without ``--max-steps`` may take (never reached: 2^62 iterations take centuries)
UNLIMITED = 1 << 62
#: the stop flag's value once the deadline has passed (signals set their own number)
TIMEOUT = 1000

#: ops that are loops: a stop names the innermost one around the op where the run stopped
LOOP_OPS = frozenset({"scf.for", "scf.while", "scf.parallel", "scf.forall", "affine.for", "affine.parallel"})


class Stopped(BaseException):
    """A run stopped by its limits: ``reason`` is ``max-steps`` or ``timeout``.  A ``BaseException`` so that no
    ``except Exception`` on the way (an op's fault handling, a batch falling back to one instance at a time) takes it
    for a fault of the program; :meth:`xesim.exec.engine.Engine.run` makes it a located diagnostic."""

    def __init__(self, reason: str, message: str, op: Operation | None = None, context: str = "") -> None:
        super().__init__(reason, message)
        self.reason = reason
        self.message = message
        self.xesim_op = op
        self.xesim_context = context


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised by the command line's handler (xesim/cli.py) and by compiled nests that saw it: cleaned up
    like an interrupt (worker processes killed), reported as "terminated", exit status 143."""


def new_stop_flag() -> np.ndarray:
    """One int64 in anonymous shared memory (MAP_SHARED | MAP_ANONYMOUS): 0 while the run may go on, else a signal
    number or :data:`TIMEOUT`.  Processes forked later share it."""
    return np.frombuffer(mmap.mmap(-1, mmap.PAGESIZE), np.int64)[:1]


class RunGuard:
    """The budget, deadline and stop flag of one engine's runs (module docstring).

    ``left`` is the number of steps the run may still take and ``check`` the value of ``left`` at which the next
    poll is due; loops do ``if g.left <= g.check: g.poll_steps(op)`` then ``g.left -= 1`` per iteration."""

    __slots__ = ("max_steps", "timeout", "left", "check", "flag", "deadline", "kstate", "launch_op", "_depth",
                 "_watcher")

    def __init__(self, max_steps: int | None = None, timeout: float | None = None, kstate: Any = None) -> None:
        self.max_steps = max_steps
        self.timeout = timeout
        self.kstate = kstate
        self.flag = new_stop_flag()
        self.left = UNLIMITED if max_steps is None else max_steps
        self.check = max(self.left - POLL_INTERPRETED, 0)
        self.deadline: float | None = None
        #: the launch op of the kernel running (set by the launcher): where a stop between batches is reported
        self.launch_op: Operation | None = None
        self._depth = 0
        self._watcher: _Watcher | None = None

    # ------------------------------------------------------------------------------------------- a run
    def __enter__(self) -> RunGuard:
        """Start a run (nested entries, a launch inside a run, count once): the budget and the deadline start now,
        and in the main thread the watcher follows signals and the clock."""
        self._depth += 1
        if self._depth == 1:
            self.flag[0] = 0
            self.left = UNLIMITED if self.max_steps is None else self.max_steps
            self.check = max(self.left - POLL_INTERPRETED, 0)
            self.deadline = None if self.timeout is None else time.monotonic() + self.timeout
            self._watcher = _Watcher.start(self.flag, self.deadline)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._depth -= 1
        if self._depth == 0:
            if self._watcher is not None:
                self._watcher.stop()
                self._watcher = None
            self.flag[0] = 0

    # ------------------------------------------------------------------------------------------- checks
    def poll_steps(self, op: Operation) -> None:
        """Called by a loop when ``left`` reached ``check``: stop when the budget is spent, else poll."""
        if self.left <= 0:
            raise self.out_of_steps(op)
        self.poll(op)
        self.check = max(self.left - POLL_INTERPRETED, 0)

    def poll(self, op: Operation | None) -> None:
        """Stop if the deadline has passed or the flag says so (a signal's own exception is raised by Python's
        handler in this thread; a compiled nest saw the flag: :meth:`stopped_in_nest`)."""
        reason = int(self.flag[0])
        if not reason and self.deadline is not None and time.monotonic() >= self.deadline:
            self.flag[0] = reason = TIMEOUT
        if reason == TIMEOUT:
            raise self.out_of_time(op)

    def stopped_in_nest(self, loop: Operation) -> BaseException:
        """The exception for a compiled nest that returned because it had to stop, in ``loop``: the flag's reason,
        else the budget."""
        reason = int(self.flag[0])
        if reason == TIMEOUT or (not reason and self.deadline is not None and time.monotonic() >= self.deadline):
            return self.out_of_time(loop)
        if reason == signal.SIGTERM:
            exc: BaseException = Terminated()
        elif reason:
            exc = KeyboardInterrupt()
        else:
            return self.out_of_steps(loop)
        exc.xesim_op = loop  # type: ignore[attr-defined]
        return exc

    def out_of_steps(self, op: Operation) -> Stopped:
        n = self.max_steps
        return Stopped("max-steps", f"the run reached its limit of {n} step{'' if n == 1 else 's'} (loop iterations; "
                       "--max-steps, XESIM_MAX_STEPS)", op, self._context())

    def out_of_time(self, op: Operation | None) -> Stopped:
        return Stopped("timeout", f"the run reached its time limit of {self.timeout:g} s (--timeout, XESIM_TIMEOUT)",
                       op, self._context())

    def _context(self) -> str:
        ks = self.kstate
        return ks.context() if ks is not None else ""

    def steps_taken(self) -> int:
        """Steps counted since the run started."""
        return (UNLIMITED if self.max_steps is None else self.max_steps) - self.left


class _Watcher:
    """The thread that turns signals (through CPython's wakeup fd) and the deadline into the stop flag."""

    def __init__(self, flag: np.ndarray, deadline: float | None, r: int, w: int, old: int) -> None:
        self.flag, self.deadline, self.r, self.w, self.old = flag, deadline, r, w, old
        self.closing = False
        self.thread = threading.Thread(target=self._watch, name="xesim-guard", daemon=True)
        self.thread.start()

    @classmethod
    def start(cls, flag: np.ndarray, deadline: float | None) -> _Watcher | None:
        """A watcher, or None outside the main thread (signals are delivered there only; a deadline is then seen
        by the polls alone) or when someone else already owns the wakeup fd (an event loop)."""
        if threading.current_thread() is not threading.main_thread():
            return None
        r, w = os.pipe()
        os.set_blocking(w, False)
        try:
            old = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        except (ValueError, OSError):
            old = None
        if old is None or old != -1:
            if old is not None:
                signal.set_wakeup_fd(old)
            os.close(r)
            os.close(w)
            return None
        return cls(flag, deadline, r, w, old)

    def _watch(self) -> None:
        deadline = self.deadline
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.r], [], [], wait)
            if self.closing:
                return
            if not ready:  # the deadline passed
                if not self.flag[0]:
                    self.flag[0] = TIMEOUT
                deadline = None
                continue
            for signum in os.read(self.r, 512):
                if signum in (signal.SIGINT, signal.SIGTERM) and not self.flag[0]:
                    self.flag[0] = signum

    def stop(self) -> None:
        self.closing = True
        try:
            signal.set_wakeup_fd(self.old)
        except (ValueError, OSError):
            pass
        os.write(self.w, b"\0")
        self.thread.join()
        os.close(self.r)
        os.close(self.w)


def in_child_process() -> None:
    """In a worker process forked during a run: the parent decides about interruption (it kills its workers), so
    SIGINT is ignored and SIGTERM kills; the parent's wakeup pipe is not this process's to write."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        signal.set_wakeup_fd(-1)
    except (ValueError, OSError):
        pass


# ================================================================================================ where it stopped
def locate(exc: BaseException) -> tuple[Operation | None, Operation | None]:
    """The op an interrupted or stopped run was executing and the innermost loop around it (None when unknown): the
    op the exception carries (``xesim_op``), else the innermost frame of its traceback that is executing an op --
    the region runner (:func:`xesim.exec.region.run_region`: block ``b``, step ``i``), a loop's own step list
    (``ops``, ``i``) or an op's step closure (``op``)."""
    op = getattr(exc, "xesim_op", None)
    if op is None:
        frames = []
        tb = exc.__traceback__
        while tb is not None:
            frames.append(tb.tb_frame)
            tb = tb.tb_next
        for f in reversed(frames):
            op = _op_of_frame(f.f_locals)
            if op is not None:
                break
    return op, enclosing_loop(op)


def _op_of_frame(local: dict) -> Operation | None:
    i = local.get("i")
    if isinstance(i, int):
        for name in ("b", "cb"):
            ops = getattr(local.get(name), "ops", None)
            if isinstance(ops, list) and 0 <= i < len(ops) and isinstance(ops[i], Operation):
                return ops[i]
        ops = local.get("ops")
        if isinstance(ops, list) and 0 <= i < len(ops) and isinstance(ops[i], Operation):
            return ops[i]
    op = local.get("op")
    return op if isinstance(op, Operation) else None


def enclosing_loop(op: Operation | None) -> Operation | None:
    """``op`` if it is a loop, else the innermost loop op around it, else None."""
    while op is not None:
        if op.name in LOOP_OPS:
            return op
        op = op.parent_op()
    return None
