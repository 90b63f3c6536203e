"""Python API for tests and notebooks.

    import xesim
    prog = xesim.load("program.mlir")          # or MLIR text; parsed and verified
    result = prog.run()                         # runs @main; result.output is what it printed
    out = xesim.launch(prog, "kernels::scale", grid=(4, 1, 1), block=(16, 1, 1),
                       args=[np.arange(64, dtype=np.float32), 2.0])
    out.arrays[0]                               # the first array argument after the kernel ran

``launch`` copies numpy arrays into device allocations, passes scalars as they are, runs the kernel and
copies every array back (``out.arrays`` holds them in argument order).
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from xesim.config import ConfigError, RunConfig
from xesim.ir.core import Module

#: environment variables that are aliases of run options (read here and by xesim.cli, nowhere else)
ENVIRONMENT = {
    "XESIM_ENGINE": "engine", "XESIM_GRF": "grf", "XESIM_JOBS": "jobs", "XESIM_BATCH": "batch",
    "XESIM_BATCH_DEBUG": "debug batch", "XESIM_JOBS_DEBUG": "debug jobs", "XESIM_JIT_DEBUG": "debug jit",
    "XESIM_MAX_CALL_DEPTH": "max_call_depth",
    "XESIM_MAX_STEPS": "max_steps", "XESIM_TIMEOUT": "timeout", "XESIM_MEMORY_LIMIT": "memory_limit",
}
ENVIRONMENT["XESIM_NO_LAUNCH_REUSE"] = "launch_reuse off"  # xesim/exec/launch_reuse.py


def config_from_environment(environ: Mapping[str, str] | None = None, **options: Any) -> RunConfig:
    """The run configuration of ``options`` (keyword arguments named as :class:`xesim.config.RunConfig`'s
    fields), with the environment-variable aliases of :data:`ENVIRONMENT` for the options not given: ``XESIM_ENGINE``
    (fast | reference | both), ``XESIM_GRF`` (off | track | checked), ``XESIM_JOBS`` (a positive integer),
    ``XESIM_BATCH`` (instances per batch; below 2: no batching), ``XESIM_MAX_CALL_DEPTH`` (a positive integer),
    ``XESIM_BATCH_DEBUG`` / ``XESIM_JOBS_DEBUG`` / ``XESIM_JIT_DEBUG`` (non-empty: report on stderr),
    ``XESIM_NO_LAUNCH_REUSE`` (1: ``launch_reuse`` off), the limits ``XESIM_MAX_STEPS``, ``XESIM_TIMEOUT``,
    ``XESIM_MEMORY_LIMIT``.  A bad value is a :class:`~xesim.diagnostics.DiagnosticError` naming the variable."""
    from xesim.diagnostics import Diagnostic, DiagnosticError, Location

    env = os.environ if environ is None else environ

    def bad(name: str, raw: str, what: str) -> DiagnosticError:
        return DiagnosticError(Diagnostic("error", Location.unknown(), f"{name} must be {what}, not {raw!r}"))

    found: dict[str, Any] = {}
    raw = env.get("XESIM_ENGINE", "").strip()
    if raw and options.get("engine") is None:
        if raw not in ("fast", "reference", "both"):
            raise bad("XESIM_ENGINE", raw, "fast, reference or both")
        found["engine"] = raw
    raw = env.get("XESIM_GRF", "").strip()
    if raw and options.get("grf") is None:
        if raw not in ("off", "track", "checked"):
            raise bad("XESIM_GRF", raw, "off, track or checked")
        found["grf"] = raw
    for name, key in (("XESIM_JOBS", "jobs"), ("XESIM_BATCH", "batch"), ("XESIM_MAX_CALL_DEPTH", "max_call_depth")):
        raw = env.get(name, "").strip()
        if raw and options.get(key) is None:
            try:
                n = int(raw)
            except ValueError:
                n = -1
            if n < (0 if key == "batch" else 1):
                raise bad(name, raw, "a non-negative integer" if key == "batch" else "a positive integer")
            found[key] = n
    # launch reuse (xesim/exec/launch_reuse.py): XESIM_NO_LAUNCH_REUSE=1 is --no-launch-reuse
    raw = env.get("XESIM_NO_LAUNCH_REUSE", "").strip().lower()
    if raw and options.get("launch_reuse") is None:
        if raw not in ("1", "true", "yes", "0", "false", "no"):
            raise bad("XESIM_NO_LAUNCH_REUSE", raw, "1 (reuse off) or 0")
        found["launch_reuse"] = raw in ("0", "false", "no")
    found.update(_limits_from_environment(env, options, bad))
    debug = set(options.pop("debug", ()) or ())
    debug |= {topic for name, topic in (("XESIM_BATCH_DEBUG", "batch"), ("XESIM_JOBS_DEBUG", "jobs"),
                                        ("XESIM_JIT_DEBUG", "jit")) if env.get(name, "").strip()}
    given = {k: v for k, v in options.items() if v is not None}
    try:
        return RunConfig(**{**found, **given, "debug": frozenset(debug)})
    except ConfigError as exc:
        raise DiagnosticError(Diagnostic("error", Location.unknown(), str(exc))) from None


def _limits_from_environment(env: Mapping[str, str], options: Mapping[str, Any], bad: Any) -> dict[str, Any]:
    """The run limits the environment sets and ``options`` leave unset: ``XESIM_MAX_STEPS`` (a positive integer),
    ``XESIM_TIMEOUT`` (positive seconds), ``XESIM_MEMORY_LIMIT`` (a size: ``512M``, ``16G``; xesim/exec/limits.py)."""
    from xesim.exec.limits import parse_size

    found: dict[str, Any] = {}
    for name, key, parse, what in (("XESIM_MAX_STEPS", "max_steps", int, "a positive integer"),
                                   ("XESIM_TIMEOUT", "timeout", float, "a positive number of seconds"),
                                   ("XESIM_MEMORY_LIMIT", "memory_limit", parse_size, "a size such as 512M or 16G")):
        raw = env.get(name, "").strip()
        if raw and options.get(key) is None:
            try:
                value = parse(raw)
            except ValueError:
                value = 0
            if not 0 < value < float("inf"):
                raise bad(name, raw, what)
            found[key] = value
    return found


def make_engine(module: Module, out: TextIO | None = None, err: TextIO | None = None, **options: Any) -> Any:
    """An :class:`xesim.exec.engine.Engine` for ``module`` configured by ``options`` and the environment
    (:func:`config_from_environment`), with the observers the configuration asks for subscribed
    (:func:`standard_observers`)."""
    from xesim.exec.engine import Engine
    from xesim.runtime.externals import EXTERNALS

    engine = Engine(module, config_from_environment(**options), out=out, err=err, externals=EXTERNALS)
    for obs in standard_observers(engine.config):
        engine.subscribe(obs)
    return engine


def standard_observers(config: RunConfig) -> list:
    """The observers a run configuration asks for: the race detector (``check_races``), the memory checker
    (``check_memory``, xesim/observe/memcheck.py), the register-file model
    (``grf`` track or checked; ``stats``) and the engine cross-check (``engine`` both, last: it wraps the others'
    launches), in that order (xesim/observe)."""
    out: list = []
    if config.check_races:
        from xesim.observe.races import RaceObserver

        out.append(RaceObserver())
    if config.check_memory:
        from xesim.observe.memcheck import MemoryChecker

        out.append(MemoryChecker(config.check_memory))
    if config.grf != "off":
        from xesim.observe.registers import RegisterFileObserver

        out.append(RegisterFileObserver(checked=config.grf == "checked"))
    if config.check_distribution:  # issue 31: XeTile wg_map programs against their distributed view
        from xesim.observe.xetile_distribution import DistributionCheck

        out.append(DistributionCheck())
    if config.trace is not None:  # after the others: its steps wrap theirs (recorded times include them)
        from xesim.observe.tracer import Tracer

        out.append(Tracer(config.trace))
    if config.progress:
        from xesim.observe.progress import LaunchProgress

        out.append(LaunchProgress())
    if config.engine == "both":
        from xesim.observe.crosscheck import EngineCrossCheck

        out.append(EngineCrossCheck())
    return out


def trace_spec(trace: Any) -> Any:
    """The :class:`xesim.trace.spec.TraceSpec` of a ``trace=`` argument: None, a path (record everything) or a
    TraceSpec."""
    from xesim.trace.spec import TraceSpec

    if trace is None or isinstance(trace, TraceSpec):
        return trace
    return TraceSpec(str(trace))


def finish_trace(engine: Any, program: str = "", error: BaseException | None = None) -> Any:
    """Write the engine's trace, if it records one (:class:`xesim.observe.tracer.Tracer`); returns the tracer or
    None.  ``error``: the fault that ended the run (noted in the trace)."""
    from xesim.observe.tracer import Tracer

    tracer = engine.observer(Tracer)
    if tracer is None or tracer.closed:
        return None
    msg = None
    if error is not None:
        msg = error.render() if hasattr(error, "render") else str(error)
    from xesim import __version__

    tracer.file_size = tracer.close(program, msg, __version__)
    return tracer


def register_file(engine: Any) -> Any:
    """The engine's register-file observer (:class:`xesim.observe.registers.RegisterFileObserver`), or None."""
    from xesim.observe.registers import RegisterFileObserver

    return engine.observer(RegisterFileObserver)


@dataclass
class RunResult:
    """What a run produced: the printed ``output`` and the entry function's returned ``values``."""

    output: str
    values: tuple = ()
    engine: Any = None  # the Engine that ran it (register-file statistics, ownership queries)
    trace: Any = None  # the recorded trace (xesim.trace.format.Trace) when run with trace=

    def ownership(self, value: Any, subgroup: int = 0) -> Any:
        """Which lane, register and byte held each element of kernel value ``value`` at its latest definition in
        subgroup ``subgroup`` of workgroup (0, 0, 0) (needs ``grf``: the register-file model)."""
        rf = register_file(self.engine)
        if rf is None:
            raise KeyError("no register-file records: run with the register-file model on (grf='track' or "
                           "'checked', XESIM_GRF=track or checked, or xesim run --stats)")
        return rf.ownership(value, subgroup)


@dataclass
class LaunchResult:
    output: str
    arrays: list[np.ndarray] = field(default_factory=list)
    engine: Any = None  # the Engine that ran it (register-file statistics, ownership queries)
    trace: Any = None  # the recorded trace (xesim.trace.format.Trace) when launched with trace=

    ownership = RunResult.ownership


class Program:
    """A parsed and verified program (wraps the IR :class:`~xesim.ir.core.Module`)."""

    def __init__(self, module: Module, name: str = "") -> None:
        self.module = module
        self.name = name  # the file it came from ('' for text)

    def walk(self):
        return self.module.walk()

    def text(self) -> str:
        from xesim.deep import call_deep
        from xesim.ir.printer import print_module

        return call_deep(print_module, self.module)

    def run(self, entry: str = "main", args: list | tuple = (), seed: int = 0, target: str = "pvc",
            check_races: bool = False, grf: str | None = None, large_grf: bool = False,
            jobs: int | None = None, check_memory: Any = None, trace: Any = None,
            max_call_depth: int | None = None) -> RunResult:
        """Run ``entry`` (default ``main``); raises :class:`xesim.diagnostics.DiagnosticError` on faults (a data
        race between subgroups too when ``check_races``, xesim/observe/races.py).  ``grf`` ("off", "track",
        "checked"; default: the ``XESIM_GRF`` environment variable) runs kernels with the register-file model
        (xesim/observe/registers.py; ``large_grf``: 256 registers): ``register_file(result.engine).stats``,
        ``result.ownership(v)``.
        ``jobs``: processes for the workgroups of each launch (default: ``XESIM_JOBS`` or the number of cores;
        xesim/exec/parallel.py); the results do not depend on it.  ``check_memory``: the memory checker's checks
        (``"all"``/True, or ``"init,bounds,leaks"``; xesim/observe/memcheck.py): warnings on stderr, errors
        raised.  ``trace``: a file path or a :class:`xesim.trace.spec.TraceSpec`: record a trace
        (traces/FORMAT.md), written even when the run faults, and loaded as ``result.trace``.
        ``max_call_depth``: the most nested calls (default: ``XESIM_MAX_CALL_DEPTH`` or 10,000; deeper is a "call
        depth exceeded" error)."""
        buf = io.StringIO()
        spec = trace_spec(trace)
        engine = make_engine(self.module, out=buf, seed=seed, target=target, check_races=check_races, grf=grf,
                             large_grf=large_grf, jobs=jobs, check_memory=check_memory, trace=spec,
                             max_call_depth=max_call_depth)
        try:
            values = engine.run(entry, list(args))
        except Exception as exc:
            finish_trace(engine, self.name, exc)
            raise
        finish_trace(engine, self.name)
        return RunResult(buf.getvalue(), tuple(values), engine, _load_trace(spec))





def load(path_or_text: str | Path, verify: bool = True) -> Program:
    """Parse (and verify) a file path, or MLIR text when the argument contains a newline or a brace."""
    from xesim.deep import call_deep
    from xesim.sources import read_source

    s = str(path_or_text)
    if isinstance(path_or_text, Path) or ("\n" not in s and "{" not in s):
        name, text = read_source(s)  # missing, unreadable, non-UTF-8: a diagnostic (xesim/sources.py)
    else:
        name, text = "<string>", s
    module = call_deep(_front_end, text, name, verify)  # room for deep nesting (xesim/deep.py)
    return Program(module, name if name != "<string>" else "")


def _front_end(text: str, name: str, verify: bool) -> Module:
    from xesim.ir.parser import parse_source
    from xesim.verify.structural import verify_module

    module = parse_source(text, name)
    if verify:
        verify_module(module)
    return module


def _load_trace(spec: Any) -> Any:
    if spec is None:
        return None
    from xesim.trace.format import load as load_trace

    return load_trace(spec.path)


def launch(program: Program, kernel: str, grid: tuple = (1, 1, 1), block: tuple = (16, 1, 1),
           args: list | tuple = (), seed: int = 0, target: str = "pvc", check_races: bool = False,
           grf: str | None = None, large_grf: bool = False, jobs: int | None = None,
           check_memory: Any = None, trace: Any = None) -> LaunchResult:
    """Launch ``kernel`` (``"module::func"``) with numpy arrays (copied in and out) and scalars; ``check_races``
    reports unsynchronised conflicting accesses of its subgroups (xesim/observe/races.py); ``jobs``,
    ``check_memory`` and ``trace`` as in :meth:`Program.run` (the arrays count as written; no leak check: nothing
    ends a run; ``result.trace``)."""
    from xesim.diagnostics import Diagnostic, DiagnosticError, Location
    from xesim.exec.faults import ExecFault
    from xesim.exec.values import MemRefValue, identity_strides, scalar
    from xesim.ir import types as T

    path = tuple(p.lstrip("@") for p in kernel.split("::"))
    func = program.module.lookup_symbol(path)
    if func is None or func.name != "gpu.func":
        raise DiagnosticError(Diagnostic("error", Location.unknown(), f"no gpu.func kernel {kernel}"))
    ftype = func.attributes["function_type"].type
    if len(args) != len(ftype.inputs):
        raise DiagnosticError(Diagnostic("error", func.loc,
                                         f"kernel {kernel} takes {len(ftype.inputs)} arguments, {len(args)} given"))
    buf = io.StringIO()
    spec = trace_spec(trace)
    engine = make_engine(program.module, out=buf, seed=seed, target=target, check_races=check_races, grf=grf,
                         large_grf=large_grf, jobs=jobs, check_memory=check_memory, trace=spec)
    values: list[Any] = []
    buffers: list[tuple[MemRefValue, np.ndarray]] = []
    for a, t in zip(args, ftype.inputs):
        if isinstance(t, T.MemRefType):
            arr = np.ascontiguousarray(a)
            from xesim.exec.values import dtype_of

            want = dtype_of(t.element_type)
            if arr.dtype != want:
                raise DiagnosticError(Diagnostic("error", func.loc,
                                                 f"argument of type {t} needs a {want} array, got {arr.dtype}"))
            alloc = engine.memory.allocate(arr.nbytes, "device", "argument")
            mv = MemRefValue(engine.memory, alloc, alloc.base, 0, tuple(arr.shape), identity_strides(arr.shape),
                             t.element_type)
            mv.write_logical(arr)
            values.append(mv)
            buffers.append((mv, arr))
        else:
            values.append(scalar(a, t))
    g = tuple(grid) + (1,) * (3 - len(grid))
    b = tuple(block) + (1,) * (3 - len(block))
    from xesim.exec.engine import stop_diagnostic
    from xesim.exec.guard import Stopped

    try:
        engine.launch(func, kernel, g, b, values, func)  # cross-checked under XESIM_ENGINE=both
    except ExecFault as exc:
        err = DiagnosticError(exc.to_diagnostic())
        finish_trace(engine, program.name, err)
        raise err from exc
    except Stopped as exc:  # --max-steps, --timeout
        err = DiagnosticError(stop_diagnostic(exc))
        finish_trace(engine, program.name, err)
        raise err from None
    finish_trace(engine, program.name)
    return LaunchResult(buf.getvalue(), [mv.logical_array() for mv, _ in buffers], engine, _load_trace(spec))
