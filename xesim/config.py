"""One frozen run configuration (ARCHITECTURE.md "Layers").

Every option of a run — from command-line flags (:mod:`xesim.cli`), Python keyword arguments (:mod:`xesim.api`)
or their environment-variable aliases, which only those two modules read — ends up in one :class:`RunConfig`.
Nothing below them reads the environment: the engine, the executor and the observers take their options from
the configuration they are given.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

ENGINE_MODES = ("fast", "reference", "both")
GRF_MODES = ("off", "track", "checked")
SCHEDULES = ("round-robin", "random")
#: what ``debug`` may name: ``batch`` (why a batch fell back), ``jobs`` (what each launch did with --jobs),
#: ``jit`` (why a host loop nest was not compiled)
DEBUG_TOPICS = ("batch", "jobs", "jit")
#: the checks of the memory checker (``--check-memory``, xesim/observe/memcheck.py): reads of bytes nothing wrote,
#: 2D block / scattered accesses out of bounds, allocations never freed
MEMORY_CHECKS = ("init", "bounds", "leaks")


class ConfigError(ValueError):
    """An option has a value outside its range (the message names the option and the allowed values)."""


@dataclass(frozen=True)
class RunConfig:
    """How a program runs.

    ``target`` / ``overrides``: hardware parameters (``isa/targets/<target>.toml``, with named overrides);
    ``seed``: the random schedule's and the runtime's generators; ``strict``: hardware rules that real programs
    break harmlessly become errors; ``dpas_model``: a DPAS numerics preset (None: the target's default);
    ``schedule``: how subgroups that wait at barriers are interleaved (``random`` runs them one at a time);
    ``check_races``: the race detector follows every kernel (subgroups one at a time); ``grf``: the register-file
    model (``checked`` compares registers with values on every read); ``large_grf``: 256 registers per thread;
    ``engine``: ``fast`` (compiled loops, batched kernels), ``reference`` (the interpreter alone, one subgroup at
    a time) or ``both`` (each compiled nest and each launch also run the reference way, compared bit for bit);
    ``kernel_reference``: kernels take their reference paths (set for the second run of ``both``); ``jobs``:
    processes (or threads) per launch, None for the number of usable cores; ``batch``: the most instances one
    batch runs together (below 2: no batching); ``debug``: topics reported on stderr; ``stats``: per-kernel
    register statistics after the run.  ``launch_reuse``: a launch identical to its kernel's previous one (same
    arguments, same bytes in everything it may read or write, deterministic kernel) takes that launch's writes
    instead of running (xesim/exec/launch_reuse.py); ``check_memory``: the memory checker's checks (a subset of
    :data:`MEMORY_CHECKS`; given as a comma list, ``"all"``, True or an iterable; empty: off); ``trace``: a
    :class:`xesim.trace.spec.TraceSpec` to record a trace of the run (xesim/observe/tracer.py), or None;
    ``progress``: a progress bar for long launches (xesim/observe/progress.py); ``max_call_depth``: the most
    nested ``func.call``s a run may make (deeper recursion is a located "call depth exceeded" error).

    Limits (xesim/exec/guard.py, xesim/exec/limits.py): ``max_steps``: loop iterations the run may take (None: no
    limit); ``timeout``: seconds the run may take (None: no limit); ``memory_limit``: bytes of global memory the
    program may have allocated at once (None: :data:`xesim.exec.limits.MEMORY_SHARE` of the machine's memory).
    """

    target: str = "pvc"
    overrides: tuple[tuple[str, Any], ...] = ()
    seed: int = 0
    strict: bool = False
    dpas_model: str | None = None
    schedule: str = "round-robin"
    check_races: bool = False
    grf: str = "off"
    large_grf: bool = False
    engine: str = "fast"
    kernel_reference: bool = False
    jobs: int | None = None
    batch: int = 2048
    debug: frozenset[str] = field(default_factory=frozenset)
    stats: bool = False
    launch_reuse: bool = True
    check_memory: frozenset[str] = field(default_factory=frozenset)
    trace: Any = None  # xesim.trace.spec.TraceSpec (issue 28)
    progress: bool = False  # a progress bar on stderr for launches over a second (xesim/observe/progress.py)
    #: workgroup-level XeTile kernels compared op by op with their distributed view (issue 31;
    #: xesim/observe/xetile_distribution.py)
    check_distribution: bool = False

    max_call_depth: int = 10_000
    max_steps: int | None = None
    timeout: float | None = None
    memory_limit: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "check_memory", memory_checks(self.check_memory))
        for name, allowed in (("engine", ENGINE_MODES), ("grf", GRF_MODES), ("schedule", SCHEDULES)):
            value = getattr(self, name)
            if value not in allowed:
                raise ConfigError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
        unknown = set(self.debug) - set(DEBUG_TOPICS)
        if unknown:
            raise ConfigError(f"unknown debug topic(s) {', '.join(sorted(unknown))} (known: {', '.join(DEBUG_TOPICS)})")
        if self.jobs is not None and self.jobs < 1:
            raise ConfigError(f"jobs must be at least 1, not {self.jobs}")
        if self.max_call_depth < 1:
            raise ConfigError(f"max_call_depth must be at least 1, not {self.max_call_depth}")
        for name in ("max_steps", "timeout", "memory_limit"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ConfigError(f"{name} must be positive, not {value}")
        if self.engine == "reference" and not self.kernel_reference:
            object.__setattr__(self, "kernel_reference", True)
        if self.stats and self.grf == "off":  # --stats reports what the register-file model tracks
            object.__setattr__(self, "grf", "track")

    def with_options(self, **changes: Any) -> RunConfig:
        """This configuration with some options changed (checked again)."""
        return replace(self, **changes)


def memory_checks(value: Any) -> frozenset[str]:
    """The memory checks ``value`` selects: ``"all"`` or True for every one of :data:`MEMORY_CHECKS`, a comma list
    (``"init,leaks"``) or an iterable of names, None/False/empty for none.  An unknown name is a
    :class:`ConfigError`."""
    if value is None or value is False:
        return frozenset()
    if value is True:
        return frozenset(MEMORY_CHECKS)
    names = [n.strip() for n in value.split(",")] if isinstance(value, str) else [str(n).strip() for n in value]
    names = [n for n in names if n]
    if "all" in names:
        return frozenset(MEMORY_CHECKS)
    unknown = sorted(set(names) - set(MEMORY_CHECKS))
    if unknown:
        raise ConfigError(f"unknown memory check(s) {', '.join(unknown)} (known: {', '.join(MEMORY_CHECKS)}, all)")
    return frozenset(names)
