"""Workgroups of one kernel launch spread over processes (``--jobs N``, ``XESIM_JOBS``, ``Engine.jobs``; issue 7
§3; ARCHITECTURE.md "Lockstep and scheduling", docs/performance.md "Parallel workgroups").

:func:`run_workgroups` is called by the launcher with the launch's workgroups in grid order (x fastest, spec
§3.2) and ``runner(subset)``, which runs a list of workgroups in this process.  The result -- memory, printed
output (``gpu.printf``, ``vector.print``), warnings, assumption notes, the fault reported -- is the one of
``runner(workgroups)`` for every program whose workgroups do not race with each other (no workgroup reads or
writes bytes another one writes; workgroups have no ordering guarantee on the GPU, ARCHITECTURE.md
"Scheduling").

How (Linux ``os.fork``):

1. when spreading would save less than :data:`MIN_PARALLEL_SECONDS` plus the children's memory comparison
   (:data:`SECONDS_PER_BYTE` per byte), the launch runs here: the time per workgroup comes from the kernel's
   previous launch or, for a first launch whose comparison alone would cost more than
   :data:`MIN_PARALLEL_SECONDS`, from running the first workgroup here first; a first launch with little memory
   is spread (a fork costs a few milliseconds);
2. otherwise the (remaining) workgroups are cut into contiguous pieces (:func:`cut_into_pieces`: as many for each
   process, at least :data:`PIECES_PER_PROCESS` each when there are enough batches, each of whole batches of a
   batched runner unless equal shares need a batch cut) and
   ``n = min(jobs, count)`` processes -- this one and ``n - 1`` forked children -- take them one at a time from a
   pipe holding their numbers (a 4-byte read is atomic), each taking the next as soon as it is free: on a machine
   whose cores run at different speeds (a busy host), the process on the slower core takes fewer pieces instead
   of holding the launch up;
3. before forking, the parent copies the global allocations the kernel can write (every live one; only those of
   its memref arguments that xesim/exec/kernel_writes.py does not prove read-only, when ``run_workgroups`` is
   given the kernel's arguments and none is an integer, which may be an address): the launch's starting bytes,
   which every process only reads -- the children diff against them, and every process's first piece uses them
   as its roll-back snapshot (so their pages stay shared: no copy-on-write, no copy per process);
   every process runs each piece with its output kept aside: a record of what it wrote to ``engine.out``, its
   ``gpu.printf`` text, its warnings (keyed like ``Engine.warn``), new assumption notes and its fault; a process
   whose piece faults takes no more pieces.  A child works on its copy-on-write image of the process and, when no
   piece is left, sends back the bytes it changed (per 4 KiB block: the block's bytes and a bit mask of the
   changed ones; xesim/exec/memdiff.py) in anonymous shared memory mapped before the fork, and through a pipe
   (pickle) the number of changed blocks per allocation, its pieces' records and the target parameters it read;
4. the parent, when no piece is left (or its own piece faulted: it then takes every piece left, so the children
   stop after their current one), takes the children's results (a child with a complete result is reaped by a
   thread, without waiting for its exit: :func:`reap_children`), writes their changed bytes into its memory (only changed
   bytes, so the pieces' disjoint writes merge), and replays every piece's record in piece order -- output
   appended, warnings printed once, notes added -- up to the first fault, which it raises: the first faulting
   workgroup in grid order, with the output before it, as ``--jobs 1`` would.  Memory after a fault may hold
   writes of later pieces (the program stops there anyway).

Because a child never writes shared memory, in-process roll-backs (a batched runner restoring a snapshot after a
divergence) cannot clobber other pieces' writes.  Which process runs which piece depends on timing, so a racy
program (workgroups writing bytes another one reads or writes; ``--check-races`` finds them) may give different
memory from run to run with N > 1, as it may on the GPU; race-free programs give the result of ``--jobs 1``.

The launch runs in **one process** (no fork) when: the platform has no ``fork``; ``jobs <= 1``; fewer than two
workgroups; ``--check-races`` (detectors are per process); the register-file model is on (``XESIM_GRF``,
``--stats``: statistics are per process); ``--schedule random`` (one generator); tracing is on; or the kernel
(or a function it calls) has an atomic on global memory (cross-process atomicity is not modelled), allocates or
frees global memory (``memref.alloc``/``alloca``/``realloc``/``dealloc``/``get_global``, ``gpu.alloc``/
``dealloc`` outside SLM, private attributions: addresses must be the ones ``--jobs 1`` hands out), or calls a
function without a body (runtime utilities print and allocate).  :func:`one_process_reason` names the reason.

A batched workgroup- or subgroup-level launch of a GEMM-like kernel (:func:`threaded_kernel`) is not spread: it runs here with
numba's DPAS rows, B decoding and block copies split over the threads (its time is in those kernels; processes
would each repeat the per-op work and pay the fork, copy-on-write faults and the merge) -- unless another
process is running at the launch's start (:func:`other_running_threads`, :func:`crowded`): every threaded
kernel call waits for all its threads, and a thread sharing a core with another busy process is off that core
for milliseconds at a time, at every op.  Measured on the 1024^3 SG GEMM with a busy process pinned to one of
two cores: 0.79 x of one job on threads against 1.11 x spread over processes (session 14).  Such a launch is
spread like any other, and a launch in one process then gives numba one thread.

``--jobs N`` means N cores: a launch in one process lets numba's parallel kernels use up to N threads; a spread
launch runs every process, the parent included, with one. A child sets numba to one thread, never returns
into the caller (``os._exit`` after sending its result: no atexit handlers, no test-runner teardown) and leaves
stdout/stderr alone; buffered output is flushed before the fork so it is not duplicated. A child that dies
without a result (killed, crashed) is an internal error naming the workgroups it was running (each process
notes its current piece in shared memory), never a hang.  Children die with their parent
(:func:`die_with_parent`: a SIGKILL or a CI timeout of the parent leaves no worker running) and ignore SIGINT:
the parent, interrupted or terminated, kills and reaps them (xesim/exec/guard.py); a child's compiled loops see
the run's stop flag too.  Each process counts steps against the run's ``--max-steps`` budget as it was at the
launch's start; the children's steps are added to the parent's count when their results come back.

Every spread launch leaves its :class:`Timeline` (which process ran which piece, when, with how much CPU time and
how many page faults) in :data:`LAST_TIMELINE`; ``XESIM_JOBS_DEBUG=1`` prints it and tools/bench_jobs.py sums it
up (docs/performance.md "Measuring").
"""

from __future__ import annotations

import io
import os
import pickle
import resource
import signal
import struct
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from xesim.exec.faults import ExecFault
from xesim.exec.guard import in_child_process
from xesim.exec.hooks import per_instance_reason
from xesim.exec.kernel_writes import launch_allocations
from xesim.exec.registry import THREADED
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.core import Operation

Workgroup = tuple[int, int, int]
Runner = Callable[[Sequence[Workgroup]], None]

#: processes can be forked (the package targets Linux; elsewhere every launch runs in one process)
CAN_FORK = hasattr(os, "fork") and sys.platform.startswith("linux")
#: a launch is spread unless the time it would save (the serial time its kernel's last launch measured per
#: workgroup, times workgroups x (n-1)/n) is below this many seconds plus SECONDS_PER_BYTE per byte a child must
#: snapshot and compare
MIN_PARALLEL_SECONDS = 0.05
SECONDS_PER_BYTE = 1e-9
#: pieces per process a spread launch is cut into when it has enough batches (:func:`cut_into_pieces`), handed out
#: one at a time
PIECES_PER_PROCESS = 4

#: counts since start: launches run in one process for a reason / because they were too short, launches spread,
#: worker processes forked, batched SG/WG-level launches run on numba's threads (:func:`threaded_kernel`), and
#: such launches spread over processes instead because another process was running (:func:`crowded`)
STATS = {"one_process": 0, "too_short": 0, "spread": 0, "forked": 0, "threads": 0, "crowded": 0}



@dataclass
class PieceTime:
    """One piece as run by one process: the process slot (0: the launching process), the piece number, its start
    and end (``time.perf_counter``: CLOCK_MONOTONIC, one clock for every process of the machine), the process's
    CPU seconds over it and the page faults it took (minor and major; a forked process's first writes to pages it
    shares with the others are copy-on-write faults)."""

    slot: int
    piece: int
    start: float
    end: float
    cpu: float
    faults: int


@dataclass
class Timeline:
    """Where a spread launch's time went (``time.perf_counter`` seconds): its start, the moment the last worker
    was forked, every piece (:class:`PieceTime`), and its end (the workers' results merged and replayed).
    :data:`LAST_TIMELINE` holds the last one; ``XESIM_JOBS_DEBUG=1`` prints :meth:`text`; tools/bench_jobs.py
    reads it."""

    start: float
    forked: float = 0.0
    end: float = 0.0
    pieces: list[PieceTime] = field(default_factory=list)

    def busy(self) -> dict[int, float]:
        """Seconds each process slot spent running its pieces."""
        out: dict[int, float] = {}
        for p in self.pieces:
            out[p.slot] = out.get(p.slot, 0.0) + p.end - p.start
        return out

    def finished(self) -> dict[int, float]:
        """When each process slot finished its last piece, in seconds after the launch's start."""
        out: dict[int, float] = {}
        for p in self.pieces:
            out[p.slot] = max(out.get(p.slot, 0.0), p.end - self.start)
        return out

    def text(self) -> str:
        """One line per process and one for the whole launch, times in milliseconds."""
        lines = [f"{self.end - self.start:.3f} s: workers forked after {1e3 * (self.forked - self.start):.0f} ms, "
                 f"results merged {1e3 * (self.end - self.start - max(self.finished().values(), default=0)):.0f} "
                 "ms after the last piece"]
        busy, finished = self.busy(), self.finished()
        for slot in sorted(busy):
            mine = [p for p in self.pieces if p.slot == slot]
            lines.append(f"  process {slot}: {len(mine)} piece(s), busy {1e3 * busy[slot]:.0f} ms (CPU "
                         f"{1e3 * sum(p.cpu for p in mine):.0f} ms, {sum(p.faults for p in mine)} page faults), "
                         f"done at {1e3 * finished[slot]:.0f} ms")
        return "\n".join(lines)


#: the last spread launch's :class:`Timeline` (None before the first)
LAST_TIMELINE: Timeline | None = None


def _faults() -> int:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_minflt + usage.ru_majflt




# ================================================================================================ the job count
def usable_cores() -> int:
    """The number of cores this process may run on (its CPU affinity; ``os.cpu_count()`` where unknown)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def jobs_of(engine: Any) -> int:
    """The processes (or threads) a launch of ``engine`` may use: ``--jobs`` / ``XESIM_JOBS`` (the run
    configuration's ``jobs``), else :func:`usable_cores`."""
    return engine.config.jobs or usable_cores()


# ================================================================================================ the decision
def one_process_reason(engine: Any, kernel: Any, workgroups: Sequence[Workgroup]) -> str | None:
    """Why this launch runs in one process (module docstring), or None when it may be spread over processes."""
    if not CAN_FORK:
        return "processes cannot be forked on this platform"
    if jobs_of(engine) <= 1:
        return "one job"
    if len(workgroups) < 2:
        return "fewer than two workgroups"
    watcher = per_instance_reason(engine)
    if watcher is not None:
        return f"{watcher} follows the launch's subgroups in one process"
    if engine.config.schedule == "random":
        return "the random schedule (--schedule random) uses one generator"
    if any(getattr(engine, name, None) for name in ("trace", "tracer", "listener")):
        return "tracing is on"
    cache: dict[int, str | None] = engine.__dict__.setdefault("_one_process_kernels", {})
    key = id(kernel)
    if key not in cache:
        cache[key] = kernel_reason(engine, kernel)
    return cache[key]


def kernel_reason(engine: Any, kernel: Any) -> str | None:
    """Why the kernel's own code keeps a launch in one process (global atomics, global allocations, calls of
    functions without a body; functions it calls are included), or None."""
    ft = kernel.attributes["function_type"].type
    n_wg_attr = kernel.attributes.get("workgroup_attributions")
    n_wg = n_wg_attr.value if n_wg_attr is not None else 0
    entry = kernel.regions[0].blocks[0] if kernel.regions and kernel.regions[0].blocks else None
    if entry is not None and len(entry.args) > len(ft.inputs) + n_wg:
        return "the kernel has private attributions (global memory allocated per subgroup)"
    seen = {id(kernel)}
    todo = [kernel]
    while todo:
        for op in todo.pop().walk():
            name = op.name
            traits = op.opdef.traits if op.opdef is not None else frozenset()
            if "atomic" in traits and not _all_slm(op.operands):
                return f"{name} ({op.loc}) updates global memory atomically (not modelled across processes)"
            if ("allocates" in traits or "materializes_global" in traits) and not _all_slm(op.results):
                return f"{name} ({op.loc}) allocates global memory"
            if "frees" in traits and not _all_slm(op.operands):
                return f"{name} ({op.loc}) frees global memory"
            if "calls" in traits:
                ref = op.attributes.get("callee")
                callee = engine.lookup(tuple(ref.path)) if ref is not None else None
                if callee is None or not callee.regions or callee.regions[0].empty:
                    leaf = getattr(ref, "leaf", "?")
                    return f"func.call ({op.loc}) calls @{leaf}, a function without a body"
                if id(callee) not in seen:
                    seen.add(id(callee))
                    todo.append(callee)
    return None


#: levels whose batched launches of a :func:`threaded_kernel` run on threads: an instance is a subgroup's or a
#: workgroup's whole tile, so each op is one large numba call for the batch.  VC and lane-level launches keep
#: per-op Python and numpy work (operand slicing, fragment permutations) that processes split and threads do
#: not: measured on the 1024^3 GEMMs with two jobs, VC 0.60 s on threads against 0.55 s on processes, lane
#: level 1.1 s against 0.83 s (tools/bench_jobs.py); again for lane level after its fragments became lazy
#: (``Varying.permuted``), alternating launches: 0.55-0.85 s on threads, 0.48-0.68 s on processes
THREADED_LEVELS = frozenset({"workgroup", "subgroup"})


def threaded_kernel(engine: Any, kernel: Any) -> bool:
    """Whether every op of the kernel that touches a vector value is threaded or plumbing
    (:func:`_threaded_or_plumbing`; cached per kernel).  A batched workgroup- or subgroup-level launch of such a
    kernel (:data:`THREADED_LEVELS`) -- a GEMM-like kernel: each op runs once for all instances of a batch, and its
    time is in DPAS and block copies -- runs in one process with ``--jobs`` numba threads instead of forked
    processes: processes would each repeat the per-op work and pay the fork, copy-on-write faults and the merge
    (about 15-40 ms per launch on a 2-core machine, measured with tools/bench_jobs.py), while the threads split the
    kernels' work.  Other kernels (element-wise math, reductions: numpy on one core) are spread over processes.  The
    choice depends on the kernel alone, never on timing."""
    cache: dict[int, bool] = engine.__dict__.setdefault("_threaded_kernels", {})
    key = id(kernel)
    if key not in cache:
        def vector(v: Any) -> bool:
            return isinstance(v.type, T.VectorType)

        cache[key] = all(_threaded_or_plumbing(op) for op in kernel.walk()
                         if op is not kernel and (any(map(vector, op.operands)) or any(map(vector, op.results))))
    return cache[key]


def _threaded_or_plumbing(op: Any) -> bool:
    """An op whose batched implementation splits its work over numba's threads (registered ``threaded``: DPAS, block
    loads and stores), or one that only carries vectors or makes a constant (control flow, terminators, ops without
    operands)."""
    traits = op.opdef.traits if op.opdef is not None else frozenset()
    return op.name in THREADED or bool(op.regions) or "terminator" in traits or not op.operands


def _all_slm(values: Any) -> bool:
    """True when every memref / tensor_desc among ``values`` is in shared local memory (and there is one)."""
    from xesim.exec.values import is_workgroup_space

    found = False
    for v in values:
        t = v.type
        if isinstance(t, T.TensorDescType):
            if t.memory_space != "slm":
                return False
        elif isinstance(t, (T.MemRefType, T.UnrankedMemRefType)):
            if not is_workgroup_space(t.memory_space):
                return False
        else:
            continue
        found = True
    return found


# ================================================================================================ running
def run_workgroups(engine: Any, kernel: Any, workgroups: Sequence[Workgroup], runner: Runner,
                   args: list | None = None) -> None:
    """Run ``workgroups`` (grid order) through ``runner`` in ``engine.jobs`` processes when the launch allows it
    (module docstring), with the result of ``runner(workgroups)``.  ``args`` (the kernel's argument values)
    narrows the memory a child snapshots and compares (default: every live global allocation)."""
    busy = crowded(engine)
    prev = set_numba_threads(1 if busy else jobs_of(engine))  # --jobs N: N cores, also for numba's threads
    try:
        _run_workgroups(engine, kernel, workgroups, runner, args, busy)
    finally:
        set_numba_threads(prev)


def other_running_threads(proc: str = "/proc") -> int:
    """Threads of other processes running or waiting for a core right now: the kernel's count of runnable
    threads (``proc``/loadavg, fourth field; the least of three readings, so a thread that runs for a moment, a
    kernel worker, is seldom counted) less this process's own (state ``R`` in ``proc``/self/task/*/stat).  0
    where they are not readable."""
    try:
        running = []
        for _ in range(3):
            with open(f"{proc}/loadavg") as f:
                running.append(int(f.read().split()[3].split("/")[0]))
        own = 0
        for task in os.listdir(f"{proc}/self/task"):
            try:
                with open(f"{proc}/self/task/{task}/stat") as f:
                    own += f.read().rsplit(")", 1)[1].split()[0] == "R"
            except OSError:  # the thread ended
                pass
    except (OSError, ValueError, IndexError):
        return 0
    return max(0, min(running) - own)


#: seconds a :func:`crowded` reading is reused (reading /proc takes about 0.1 ms; a program may launch thousands
#: of small kernels)
CROWDED_FOR = 1.0
_CROWDED: list = [-1e9, False]  # the last reading: when (time.monotonic), what


def crowded(engine: Any) -> bool:
    """Whether a launch with ``engine.jobs`` > 1 shares the machine with another busy process
    (:func:`other_running_threads`, read at most every :data:`CROWDED_FOR` seconds): then it is not run on numba's
    threads (module docstring)."""
    if jobs_of(engine) <= 1 or not CAN_FORK:
        return False
    now = time.monotonic()
    if now - _CROWDED[0] > CROWDED_FOR:
        _CROWDED[:] = [now, other_running_threads() > 0]
    return bool(_CROWDED[1])


def set_numba_threads(n: int | None) -> int | None:
    """Give numba's parallel layer ``n`` threads (at most its configured number); return the previous count
    (None: numba's parallel layer is not available, nothing changed)."""
    numba = sys.modules.get("numba")
    if numba is None or n is None:
        return None
    try:
        prev = numba.get_num_threads()
        want = max(1, min(n, numba.config.NUMBA_NUM_THREADS))
        if want != prev:
            numba.set_num_threads(want)
        return prev
    except Exception:  # noqa: BLE001 - numba internals differ between versions; threads are only a cost
        return None


def _run_workgroups(engine: Any, kernel: Any, workgroups: Sequence[Workgroup], runner: Runner,
                    args: list | None, busy: bool) -> None:
    reason = one_process_reason(engine, kernel, workgroups)
    if reason is not None:
        STATS["one_process"] += 1
        _debug(engine, f"{len(workgroups)} workgroup(s) in one process: {reason}")
        runner(workgroups)
        return
    if getattr(runner, "level", None) in THREADED_LEVELS and threaded_kernel(engine, kernel):
        if not busy:
            STATS["threads"] += 1
            _debug(engine, f"{len(workgroups)} workgroups in one process, numba on {jobs_of(engine)} threads: its "
                           "vector work is all in ops with threaded kernels")
            runner(workgroups)
            return
        STATS["crowded"] += 1
        _debug(engine, "another process is running: spread over processes, not numba's threads")
    n = min(jobs_of(engine), len(workgroups))
    allocs = launch_allocations(engine, kernel, args)
    nbytes = sum(a.size for a in allocs)
    overhead = MIN_PARALLEL_SECONDS + SECONDS_PER_BYTE * nbytes
    timing: dict[int, float] = engine.__dict__.setdefault("_jobs_seconds_per_workgroup", {})
    per_wg = timing.get(id(kernel))  # measured in this kernel's previous launch
    if per_wg is None and SECONDS_PER_BYTE * nbytes > MIN_PARALLEL_SECONDS:  # much memory: time workgroup 0 first
        t0 = time.perf_counter()
        runner(workgroups[:1])
        per_wg = timing[id(kernel)] = time.perf_counter() - t0
        workgroups = workgroups[1:]
        n = min(n, len(workgroups))
    if n < 2 or (per_wg is not None and per_wg * len(workgroups) * (n - 1) / n < overhead):
        STATS["too_short"] += 1
        work = f"about {per_wg * len(workgroups):.3f} s of work" if per_wg is not None else "one workgroup left"
        _debug(engine, f"{len(workgroups)} workgroup(s) in one process: {work}, {n} process(es) would save less "
                       f"than {overhead:.3f} s")
        t0 = time.perf_counter()
        runner(workgroups)
        timing[id(kernel)] = (time.perf_counter() - t0) / len(workgroups)
        return
    STATS["spread"] += 1
    pieces = cut_into_pieces(workgroups, n, getattr(runner, "wgs_per_batch", 1))
    _debug(engine, f"{len(workgroups)} workgroups in {len(pieces)} pieces for {n} processes ({nbytes} bytes to "
                   "compare per process)")
    seconds, done = _Launch(engine, pieces, n, runner, allocs).run()
    if done:
        timing[id(kernel)] = seconds / done


def cut_into_pieces(workgroups: Sequence[Workgroup], n: int, wgs_per_batch: int = 1) -> list[Sequence[Workgroup]]:
    """``workgroups`` (grid order) cut into contiguous pieces of nearly equal size for ``n`` processes.

    A batched runner runs ``wgs_per_batch`` workgroups as one batch, and every batch pays the same per-op Python
    cost however few instances it holds (xesim/exec/batch.py): a piece smaller than a batch adds a batch that one
    process alone would not run.  So pieces are whole batches -- several per piece when there are at least
    :data:`PIECES_PER_PROCESS` batches per process -- and their number is rounded up to a multiple of ``n`` (equal
    shares; only then is a batch cut).  Measured on the lane-level 1024^3 GEMMs (8192 workgroups, batches of
    2048, two processes), alternating launches: 4 pieces of one batch 1.84-1.86 x over one job against 1.69-1.70
    x for 8 pieces of half a batch (the two processes' CPU time 1.04-1.06 x one job's against 1.13-1.14 x), and
    1.24 against 1.17 x with a busy process pinned to one core (session 14, tools/bench_jobs.py).  With one
    workgroup per batch (unbatched runners) this is about :data:`PIECES_PER_PROCESS` per process."""
    count = len(workgroups)
    batches = -(-count // max(1, wgs_per_batch))
    per_piece = max(1, batches // (n * PIECES_PER_PROCESS))  # whole batches per piece
    p = -(-batches // per_piece)
    p = min(count, -(-p // n) * n)
    return [workgroups[i * count // p:(i + 1) * count // p] for i in range(p)]


def _debug(engine: Any, text: str) -> None:
    """Say on stderr how a launch was run and why (``jobs`` among the configuration's debug topics,
    ``XESIM_JOBS_DEBUG=1``)."""
    if "jobs" in engine.config.debug:
        print(f"xesim jobs: kernel {engine.kstate.kernel_name}: {text}", file=sys.stderr)


class _Launch:
    """One spread launch: ``pieces`` handed out one at a time to this process and ``procs - 1`` forked children
    (module docstring)."""

    def __init__(self, engine: Any, pieces: list[Sequence[Workgroup]], procs: int, runner: Runner, allocs: list) -> None:
        self.engine, self.pieces, self.procs, self.runner, self.allocs = engine, pieces, procs, runner, allocs
        self.children: dict[int, tuple[int, int]] = {}  # process slot -> (pid, read end of its result pipe)
        self.shared: dict[int, np.ndarray] = {}  # process slot -> memory shared with its child (changed bytes)
        self.slots: list[int] = [0]
        self.before: list[np.ndarray] = []  # the starting bytes of allocs (run())
        self.queue = -1  # read end of the pipe holding the pieces not taken yet
        #: per process slot (shared with the children, run()): the piece it is running, the first piece it took
        self.progress = np.full((procs, 2), -1, np.int64)

    def run(self) -> tuple[float, int]:
        """Run the launch; the seconds this process spent on its pieces and how many workgroups they held."""
        global LAST_TIMELINE
        timeline = Timeline(time.perf_counter())
        engine = self.engine
        _flush(engine.out, engine.err, sys.stdout, sys.stderr)
        from xesim.exec import memdiff

        # compiled or not decided once, here, and compiled loops loaded once, not in every child
        memdiff.warm_up(sum(a.size for a in self.allocs) * self.procs)
        self.slots = _record_slots(self.allocs)
        self.before = [a.data.copy() for a in self.allocs]  # the starting bytes (module docstring, step 3)
        self.progress = _shared_int64(engine, "progress", 2 * self.procs).reshape(self.procs, 2)
        self.progress[:] = -1
        warned = set(engine._warned)
        self.queue = _piece_queue(len(self.pieces))
        first = _take(self.queue)  # piece 0 is this process's, as with one job
        try:
            for i in range(1, self.procs):
                timeline.forked = time.perf_counter()  # before the fork: a child may start a piece before it returns
                self._fork(i)
            set_numba_threads(1)  # one core per process (the caller restores the count)
            t0 = time.perf_counter()
            records = _work(engine, self.runner, self.pieces, self.queue, self.progress, 0,
                            dict(zip(map(id, self.allocs), self.before)), Exception, first)
            seconds = time.perf_counter() - t0
            if records and records[-1]["fault"] is not None:
                self._stop_later_pieces(records[-1]["piece"])
            for i in sorted(self.children):
                result = self._collect(i)
                engine.guard.left -= result["steps"]  # the budget is the run's (xesim/exec/guard.py)
                _apply_memory(engine, result, self.shared[i])
                engine.target.used |= result["used"]
                records += result["records"]
        finally:
            os.close(self.queue)
            self._kill_all()
        fault = _emit(engine, records, warned)
        timeline.end = time.perf_counter()
        timeline.pieces = [r["time"] for r in records]
        LAST_TIMELINE = timeline
        _debug(engine, timeline.text())
        if fault is not None:
            raise fault
        return seconds, sum(len(self.pieces[r["piece"]]) for r in records if r["here"])

    def _fork(self, i: int) -> None:
        self.shared[i] = _shared_buffer(self.engine, i, self.slots[-1])
        r, w = os.pipe()
        _widen_pipe(w)
        parent = os.getpid()
        try:
            pid = os.fork()
        except OSError:  # no more processes: the others take its pieces
            os.close(r)
            os.close(w)
            return
        if pid == 0:  # the child: never returns
            status = 70
            try:
                private_numba_init_lock()  # first: before anything in the child can call numba's thread API
                die_with_parent(parent)
                in_child_process()  # the parent handles SIGINT and SIGTERM (xesim/exec/guard.py)
                os.close(r)
                for _, fd in self.children.values():
                    os.close(fd)
                try:
                    payload = _child_run(self.engine, self.runner, self.pieces, self.queue, self.progress, i,
                                         self.allocs, self.before, self.shared[i], self.slots)
                except BaseException:  # noqa: BLE001 - a failure of this module's child code
                    payload = pickle.dumps({"crash": traceback.format_exc()})
                _write_all(w, payload)
                status = 0
            finally:
                _flush(sys.stdout, sys.stderr)
                os._exit(status)
        os.close(w)
        self.children[i] = (pid, r)
        STATS["forked"] += 1

    def _collect(self, i: int) -> dict:
        pid, r = self.children.pop(i)
        try:
            data = _read_all(r)
        except BaseException:  # interrupted: the child goes too
            os.close(r)
            _kill(pid)
            raise
        os.close(r)
        result = None
        try:
            result = _loads(self.engine, data) if data else None
        except Exception:  # noqa: BLE001 - a truncated result: the child died while writing it
            result = None
        if isinstance(result, dict) and "crash" not in result:
            _reap_later(pid)  # its result is complete; tearing its address space down takes milliseconds
            return result
        _, status = os.waitpid(pid, 0)
        why = _status_text(status)
        if isinstance(result, dict):
            why += f"; its last words:\n{result['crash']}"
        raise self._internal_error(i, why)

    def _internal_error(self, i: int, why: str) -> ExecFault:
        k = int(self.progress[i, 0])
        if 0 <= k < len(self.pieces):
            piece = self.pieces[k]
            wgs = f"workgroup {piece[0]}" if len(piece) == 1 else f"workgroups {piece[0]} to {piece[-1]}"
            what = f"the worker process running {wgs} (piece {k + 1} of {len(self.pieces)} of this launch)"
        else:
            what = f"a worker process of this launch (between pieces; {self.procs} processes)"
        ks = self.engine.kstate
        return ExecFault(f"internal error: {what} ended without a result ({why}); please report it "
                         "(--jobs 1 runs the launch in one process)", None, f"kernel {ks.kernel_name}")

    def _stop_later_pieces(self, k: int) -> None:
        """This process's piece ``k`` faulted (and the queue is drained): kill the children whose every piece comes
        after it (nothing they ran can be replayed); the others stop after their current piece.  A child that has
        noted no piece yet is waited for: it may have just taken one from before ``k``."""
        for i in list(self.children):
            if self.progress[i, 1] > k:
                pid, r = self.children.pop(i)
                os.close(r)
                _kill(pid)

    def _kill_all(self) -> None:
        """Stop and reap every child not collected yet (after an error or an interrupt)."""
        while self.children:
            _, (pid, r) = self.children.popitem()
            os.close(r)
            _kill(pid)


def _piece_queue(count: int) -> int:
    """A pipe holding the piece numbers ``0 .. count - 1`` (4 bytes each, in order) whose write end is closed: the
    read end, inherited by the children, hands each number to exactly one process (a pipe read of 4 bytes is
    atomic), and reads end-of-file once all are taken."""
    r, w = os.pipe()
    _widen_pipe(w)
    _write_all(w, struct.pack(f"<{count}i", *range(count)))  # closes w
    return r


def _take(queue: int) -> int | None:
    """The next piece nobody has taken, or None when all are taken."""
    data = os.read(queue, 4)
    return struct.unpack("<i", data)[0] if len(data) == 4 else None


def _drain(queue: int) -> None:
    """Take every piece left (so no process starts another)."""
    while os.read(queue, 1 << 16):
        pass


def _work(engine: Any, runner: Runner, pieces: list[Sequence[Workgroup]], queue: int, progress: np.ndarray,
          slot: int, pristine: dict, catch: type[BaseException], first: int | None = None) -> list[dict]:
    """Run piece ``first`` (if given), then take pieces from ``queue`` and run each (:func:`_run_piece`) until
    none is left or one faults (the queue is then drained); their records.  ``progress[slot]`` holds the piece
    being run (-1 after the last) and the first piece this process took (pieces are taken in increasing order, so
    every piece it ran is at least that one).  ``pristine``: the starting bytes
    of the memory the launch may write, by allocation id, equal to this process's memory before its first piece
    only (that piece's roll-back snapshot: xesim/exec/batch.py reads ``engine.pristine_copies``)."""
    records: list[dict] = []
    k = _take(queue) if first is None else first
    while k is not None:
        progress[slot, 0] = k
        if progress[slot, 1] < 0:
            progress[slot, 1] = k
        records.append(_run_piece(engine, runner, k, pieces[k], pristine if not records else None, catch, slot))
        if records[-1]["fault"] is not None:
            _drain(queue)  # no piece starts any more: later ones cannot matter
            break
        k = _take(queue)
    progress[slot, 0] = -1
    return records


def _run_piece(engine: Any, runner: Runner, index: int, piece: Sequence[Workgroup], pristine: dict | None,
               catch: type[BaseException], slot: int = 0) -> dict:
    """Run one piece with its output, ``gpu.printf`` text, warnings (with ``Engine.warn``'s key) and new
    assumption notes kept aside, and its fault (an exception of class ``catch``) caught: the piece's record, for
    :func:`_emit` to replay in piece order, with its :class:`PieceTime` (run by process ``slot``)."""
    ks = engine.kstate
    n_printf, n_notes = len(ks.printf_buffer), len(engine.assumption_notes)
    out, log = io.StringIO(), _ErrLog()
    saved_out, saved_err = engine.out, engine.err
    own_warn = engine.__dict__.get("warn")
    warn = engine.warn

    def keyed_warn(op: Any, message: str) -> None:
        log.key = (id(op), message)  # Engine.warn's key: printed once per op and text
        try:
            warn(op, message)
        finally:
            log.key = None

    engine.out, engine.err, engine.warn = out, log, keyed_warn
    if pristine:
        engine.pristine_copies = pristine
    fault: BaseException | None = None
    tb = ""
    t0, cpu0, faults0 = time.perf_counter(), time.process_time(), _faults()
    try:
        runner(piece)
    except catch as exc:  # every fault is replayed in piece order
        if isinstance(exc, ExecFault) and not exc.context:
            exc.context = ks.context()  # as the launcher does, with this piece's kernel state
        fault, tb = exc, "".join(traceback.format_exception(exc))
    finally:
        engine.__dict__.pop("pristine_copies", None)  # a runner that is not batched leaves them
        engine.out, engine.err = saved_out, saved_err
        if own_warn is None:
            engine.__dict__.pop("warn", None)
        else:
            engine.warn = own_warn
        printf = ks.printf_buffer[n_printf:]
        del ks.printf_buffer[n_printf:]
        notes = engine.assumption_notes[n_notes:]
        del engine.assumption_notes[n_notes:]
    spent = PieceTime(slot, index, t0, time.perf_counter(), time.process_time() - cpu0, _faults() - faults0)
    return {"piece": index, "here": True, "out": out.getvalue(), "printf": printf, "err": log.items,
            "notes": notes, "fault": fault, "traceback": tb, "time": spent}


def _emit(engine: Any, records: list[dict], warned: set) -> BaseException | None:
    """Replay the pieces' records in piece order, as one process running them in turn would have printed them, up
    to the first fault, which is returned.  ``warned``: ``Engine.warn``'s keys printed before the launch."""
    engine._warned = set(warned)  # this process's pieces added theirs: what counts is which piece printed first
    for rec in sorted(records, key=lambda r: r["piece"]):
        if rec["out"]:
            engine.out.write(rec["out"])
        engine.kstate.printf_buffer.extend(rec["printf"])
        for key, text in rec["err"]:
            if key is None:
                engine.err.write(text)
            elif key not in engine._warned:
                engine._warned.add(key)
                engine.err.write(text)
        for note in rec["notes"]:
            if note not in engine.assumption_notes:
                engine.assumption_notes.append(note)
        fault = rec["fault"]
        if fault is not None:
            if not rec["here"] and rec["traceback"]:
                fault.__cause__ = RemoteTraceback(rec["traceback"])
            return fault
    return None


#: children whose result was taken but which had not exited yet, each waited for by a thread of its own
_UNREAPED: dict[int, threading.Thread] = {}


def _reap_later(pid: int) -> None:
    """Reap child ``pid`` now if it has exited, else have a daemon thread wait for it: its result is complete, and
    tearing its address space down takes milliseconds the launch need not wait for, but no zombie may remain
    (issue 27 item 4)."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return
    if not done:
        thread = threading.Thread(target=_reap, args=(pid,), name=f"xesim-reap-{pid}", daemon=True)
        _UNREAPED[pid] = thread
        thread.start()


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
    _UNREAPED.pop(pid, None)


def reap_children(block: bool = False) -> None:
    """Wait until the children :func:`_reap_later` handed to threads are reaped (with ``block``; else return at
    once: the threads reap them as they exit)."""
    if block:
        for thread in list(_UNREAPED.values()):
            thread.join()


def die_with_parent(parent: int) -> None:
    """In a child forked by process ``parent``: be killed when the parent goes, however it goes (SIGKILL, a CI
    timeout, a crash): Linux's ``PR_SET_PDEATHSIG`` with SIGKILL; and exit at once if the parent is already gone
    (it died between the fork and the ``prctl``: the child was reparented)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1 (linux/prctl.h)
    except (OSError, AttributeError):  # not Linux: the parent's polls and kills remain
        pass
    if os.getppid() != parent:
        os._exit(70)


def _kill(pid: int) -> None:
    """Stop and reap child ``pid``."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _status_text(status: int) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            return f"killed by signal {signal.Signals(sig).name}"
        except ValueError:
            return f"killed by signal {sig}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def _flush(*streams: Any) -> None:
    for s in streams:
        try:
            s.flush()
        except Exception:  # noqa: BLE001 - closed or odd streams
            pass


def _widen_pipe(fd: int) -> None:
    """Give the pipe a 1 MiB buffer where Linux allows it (fewer switches between writer and reader for results of
    megabytes); a smaller default buffer only costs time."""
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except (OSError, ImportError):
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]
    os.close(fd)


def _read_all(fd: int) -> bytes:
    parts = []
    while True:
        b = os.read(fd, 1 << 20)
        if not b:
            return b"".join(parts)
        parts.append(b)


# ================================================================================================ the child side
class _ErrLog:
    """Stands for ``engine.err`` in a child: keeps what is written, tagged with the warning key being printed."""

    def __init__(self) -> None:
        self.items: list[tuple[Any, str]] = []
        self.key: Any = None

    def write(self, s: str) -> int:
        if s:
            if self.items and self.items[-1][0] == self.key and self.key is not None:
                self.items[-1] = (self.key, self.items[-1][1] + s)
            else:
                self.items.append((self.key, s))
        return len(s)

    def flush(self) -> None:
        pass


def _child_run(engine: Any, runner: Runner, pieces: list[Sequence[Workgroup]], queue: int, progress: np.ndarray,
               slot: int, allocs: list, before: list[np.ndarray], shared: np.ndarray, slots: list[int]) -> bytes:
    """Take and run pieces in this (forked) process (:func:`_work`); the pickled result (module docstring, step
    3): the pieces' records, and the bytes of ``allocs[j]`` that differ from ``before[j]`` (the launch's starting
    bytes, never written) placed in ``shared`` at ``slots[j]`` (the result says how many blocks each has)."""
    from xesim.exec import memdiff

    _one_numba_thread()
    left = engine.guard.left  # the run's step budget at the launch's start (xesim/exec/guard.py)
    records = _work(engine, runner, pieces, queue, progress, slot, dict(zip(map(id, allocs), before)),
                    catch=BaseException)
    for rec in records:
        rec["here"] = False
    result = {
        "memory": [(a.base, _blocks(memdiff.changes(a.data, b, shared, s)))
                   for a, b, s in zip(allocs, before, slots)], "slots": slots,
        "records": records, "used": set(engine.target.used), "steps": left - engine.guard.left,
    }
    try:
        return _dumps(engine, result)
    except Exception:  # noqa: BLE001 - an exception that does not pickle: keep its text, op and context
        for rec in records:
            fault = rec["fault"]
            if fault is not None:
                rec["fault"] = ExecFault(str(fault) or type(fault).__name__, getattr(fault, "op", None),
                                         getattr(fault, "context", ""))
        return _dumps(engine, result)


def private_numba_init_lock() -> None:
    """In a forked child: give numba's threading layer a lock of this process's own.

    numba guards its threading-layer start-up with a process-shared lock (a ``multiprocessing`` semaphore made
    when the parent first used ``numba.get_num_threads``/``set_num_threads``; both take it at every call).  A
    child inherits that semaphore; when the parent kills a child that holds it (``_kill_all``: an interrupt, or an
    error while collecting), it stays taken and the parent's next ``get_num_threads`` waits for ever -- seen
    as a hung test run.  The child is single-threaded and its layer is the parent's, already started (or never
    to be: it runs with one thread), so a private lock protects all there is to protect."""
    par = sys.modules.get("numba.np.ufunc.parallel")
    if par is not None and hasattr(par, "_backend_init_process_lock"):
        par._backend_init_process_lock = threading.RLock()


def _one_numba_thread() -> None:
    """N processes must not each start a thread per core: numba's parallel layer gets one thread."""
    os.environ["NUMBA_NUM_THREADS"] = "1"
    numba = sys.modules.get("numba")
    if numba is None:
        return
    try:
        numba.config.NUMBA_NUM_THREADS = 1
        par = sys.modules.get("numba.np.ufunc.parallel")
        if par is not None and getattr(par, "_is_initialized", False):
            numba.set_num_threads(1)
        elif par is not None:
            par.NUM_THREADS = 1
    except Exception:  # noqa: BLE001 - numba internals differ between versions; threads are only a cost
        pass


# ================================================================================================ results
class _Pickler(pickle.Pickler):
    """Sends ops of the module by identity (the parent has the same objects: the child is its fork) and
    exceptions with their attributes, whatever their constructor's signature."""

    def __init__(self, file: Any, module: Any) -> None:
        super().__init__(file, pickle.HIGHEST_PROTOCOL)
        self.module = module
        self.ops: set[int] | None = None

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, Operation):
            if self.ops is None:
                self.ops = {id(op) for op in self.module.walk()}
            if id(obj) in self.ops:
                return ("op", id(obj))
        return None

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, BaseException):
            return _rebuild_exception, (type(obj), obj.args, dict(vars(obj)))
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: Any, module: Any) -> None:
        super().__init__(file)
        self.module = module
        self.ops: dict[int, Any] | None = None

    def persistent_load(self, pid: Any) -> Any:
        if self.ops is None:
            self.ops = {id(op): op for op in self.module.walk()}
        return self.ops.get(pid[1])


def _rebuild_exception(cls: type, args: tuple, state: dict) -> BaseException:
    exc = cls.__new__(cls, *args)
    exc.args = args
    exc.__dict__.update(state)
    return exc


def _dumps(engine: Any, result: dict) -> bytes:
    buf = io.BytesIO()
    _Pickler(buf, engine.module).dump(result)
    return buf.getvalue()


def _loads(engine: Any, data: bytes) -> Any:
    return _Unpickler(io.BytesIO(data), engine.module).load()


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker process (the ``__cause__`` of the re-raised fault, shown
    by ``--debug``)."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0]) if self.args else ""


def _blocks(record: Any) -> int:
    return 0 if record is None else len(record[0])


def _record_slots(allocs: list) -> list[int]:
    """Where the changed bytes of each of ``allocs`` go in a child's shared memory (offsets; the last one is the
    size needed)."""
    from xesim.exec import memdiff

    slots = [0]
    for a in allocs:
        slots.append(slots[-1] + memdiff.record_bytes(a.size))
    return slots


def _shared_buffer(engine: Any, i: int, size: int) -> np.ndarray:
    """At least ``size`` bytes of anonymous memory shared with the children forked from now on, for the child
    in process slot ``i``; kept for the engine's later launches (pages stay mapped)."""
    import mmap

    pool: dict[int, np.ndarray] = engine.__dict__.setdefault("_jobs_shared", {})
    buf = pool.get(i)
    if buf is None or buf.size < size:
        buf = pool[i] = np.frombuffer(mmap.mmap(-1, max(size, 1 << 16)), np.uint8)  # MAP_SHARED | MAP_ANONYMOUS
    return buf


def _shared_int64(engine: Any, name: str, count: int) -> np.ndarray:
    """``count`` int64 in anonymous memory shared with the children forked from now on (kept by the engine)."""
    import mmap

    pool: dict[str, np.ndarray] = engine.__dict__.setdefault("_jobs_shared_ints", {})
    arr = pool.get(name)
    if arr is None or arr.size < count:
        arr = pool[name] = np.frombuffer(mmap.mmap(-1, max(8 * count, 4096)), np.int64)
    return arr[:count]


def _apply_memory(engine: Any, result: dict, shared: np.ndarray) -> None:
    """Write a child's changed bytes into this process's memory (module docstring, step 4)."""
    from xesim.exec import memdiff

    for (base, k), slot in zip(result["memory"], result["slots"]):
        if k:
            memdiff.merge(engine.memory.allocation_at(base).data, memdiff.placed_record(shared, slot, k))
