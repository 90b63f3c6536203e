"""Compiled or uncompiled: which form of a numba kernel runs a call (issue 32 item 3, a cheap first run).

numba compiles a kernel at its first call in a process unless numba's on-disk cache holds its machine code.  On a
fresh install (a new clone, every CI job) that costs from 0.2 s (a block copy) to about 15 s (the DPAS row kernel
with its exact fallback) per kernel family: far more than the small launches of most programs take to run.  So
every kernel family on the paths ordinary programs take has an *uncompiled twin* -- vectorised numpy, or the
interpreter for host loop nests -- that computes the same bits (the tests compare the two on every DPAS test
vector, on block loads and stores with out-of-bounds blocks, transposes and VNNI packing, and on host loops), and a
:class:`Family` decides for each call which of the two runs:

* the twin runs while the *estimated* time of the family's twin calls in this process, this call included, stays
  within the family's **budget**; from the first call that would pass it -- or that alone would take a quarter of
  it (:data:`LARGE_CALL`) -- the compiled form runs, for the rest of the process (its compilation is paid once);
* the budget is a tenth (:data:`SHARE`) of the time compiling the family takes on a fresh install, or, when
  numba's cache already holds the family's machine code (a later run), a tenth of the time loading it takes.  Not
  the whole compile (load) time, as renting until the rent paid equals the purchase price would have it for one
  call: compiled code stays in numba's cache for every later run and, once loaded, serves every later call of the
  process, while a twin's time is paid again on each call of each run -- so a program whose twin work is more than
  a small fraction of a compilation compiles on its first run and loads afterwards.  (Measured with the whole
  compile and load times as budgets: a 512^3 GEMM program's cached runs took 6.0 s against 3.9 s for the previous
  commit at load 7, its DPAS twin running each run before loading anyway);
* the estimate is a linear cost model (seconds per call plus seconds per work unit; each family names its unit)
  whose constants were measured with ``tools/bench_tiers.py`` on the development machine (2 shared cores, load
  average about 4: absolute figures about twice a quiet machine's, their ratios, which decide, alike).  The decision depends
  only on work counts and the cache's presence, never on a clock: runs are reproducible, and the decision function
  :func:`choose` is tested directly.

Both forms give the same bits, so which one runs changes only the time a run takes.  :func:`force` (a block) and
:func:`set_default` (a process) pin every family to one form (tests; ``tools/bench_tiers.py``).  This module
imports nothing from xesim, so every layer may use it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

COMPILED, UNCOMPILED = "compiled", "uncompiled"

_FORCED: list[str] = []  # a stack of force() modes; the last one applies
_DEFAULT: list[str | None] = [None]  # set_default(): the mode outside every force() block (None: decide per call)
_LOCK = threading.Lock()


#: the share of a family's compile time (load time when cached) its twin may take in a process (module docstring)
SHARE = 0.1

#: a call whose twin estimate alone is more than this fraction of the budget compiles at once: such a call is a
#: large batch, and a large batch comes with others like it (the steps of a GEMM's K loop, the next launch), so
#: renting until the budget is spent would pay nearly the budget again for nothing
LARGE_CALL = 0.25


def choose(spent_s: float, call_s: float, budget_s: float) -> bool:
    """True (compiled) when the twin time already spent (``spent_s``) plus this call's estimate (``call_s``) would
    pass the budget, or the call alone would take more than :data:`LARGE_CALL` of it; False (uncompiled twin)
    otherwise."""
    return spent_s + call_s > budget_s or call_s > LARGE_CALL * budget_s


def on_disk(dispatcher: Any) -> bool:
    """Whether numba's on-disk cache holds machine code of ``dispatcher`` (a ``numba.njit(cache=True)`` function)
    that is current for its source: the cache index exists and is not stale.  False when it cannot tell (a numba
    version with another cache layout, no cache directory)."""
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - numba's internals differ between versions; False only costs time
        return False


class Family:
    """One kernel family: a compiled form and its uncompiled twin.

    ``per_call_s`` / ``per_unit_s``: the twin's estimated seconds per call and per work unit; ``compile_s``: seconds
    compiling the family's kernels takes on a fresh install (first numba use in the process included);
    ``load_s``: seconds loading them from numba's cache (the budget is :data:`SHARE` of one of the two);
    ``dispatchers``: a function returning the family's main
    numba dispatchers (called once, at the first decision: it may import numba modules), whose on-disk cache
    decides between the two budgets (every one must be cached)."""

    def __init__(self, name: str, per_call_s: float, per_unit_s: float, compile_s: float, load_s: float,
                 dispatchers: Callable[[], Iterable[Any]] | None = None) -> None:
        self.name = name
        self.per_call_s, self.per_unit_s = per_call_s, per_unit_s
        self.compile_s, self.load_s = compile_s, load_s
        self._dispatchers = dispatchers
        self.budget_s: float | None = None  # decided at the first call
        self.spent_s = 0.0  # estimated twin seconds so far
        self.compiled_now = False  # switched to compiled for good
        self.calls = {COMPILED: 0, UNCOMPILED: 0}

    def estimate(self, work: float) -> float:
        """Estimated twin seconds of a call doing ``work`` units."""
        return self.per_call_s + self.per_unit_s * work

    def budget(self) -> float:
        """The family's budget (module docstring), decided once per process."""
        if self.budget_s is None:
            cached = False
            if self._dispatchers is not None:
                found = list(self._dispatchers())
                cached = bool(found) and all(on_disk(d) for d in found)
            self.budget_s = SHARE * (self.load_s if cached else self.compile_s)
        return self.budget_s

    def compiled(self, work: float) -> bool:
        """Whether a call doing ``work`` units runs compiled (True) or as the twin (False); counts the call."""
        forced = _FORCED[-1] if _FORCED else _DEFAULT[0]
        if forced is not None:
            use = forced == COMPILED
        else:
            with _LOCK:
                if not self.compiled_now:
                    call_s = self.estimate(work)
                    if choose(self.spent_s, call_s, self.budget()):
                        self.compiled_now = True
                    else:
                        self.spent_s += call_s
                use = self.compiled_now
        self.calls[COMPILED if use else UNCOMPILED] += 1
        return use

    def reset(self) -> None:
        """Forget this process's decisions (tests)."""
        self.budget_s, self.spent_s, self.compiled_now = None, 0.0, False
        self.calls = {COMPILED: 0, UNCOMPILED: 0}


@contextlib.contextmanager
def force(mode: str) -> Iterator[None]:
    """Within the block every family runs its ``mode`` form (:data:`COMPILED` or :data:`UNCOMPILED`)."""
    if mode not in (COMPILED, UNCOMPILED):
        raise ValueError(f"tiers.force: mode must be {COMPILED!r} or {UNCOMPILED!r}, got {mode!r}")
    _FORCED.append(mode)
    try:
        yield
    finally:
        _FORCED.pop()


def set_default(mode: str | None) -> None:
    """Pin every family to ``mode`` (:data:`COMPILED` or :data:`UNCOMPILED`) outside :func:`force` blocks for the
    rest of the process, or with None let each family decide per call again (the test suite pins the compiled
    forms, which its tests were written for, and forces the twins where it compares the two)."""
    if mode not in (COMPILED, UNCOMPILED, None):
        raise ValueError(f"tiers.set_default: mode must be {COMPILED!r}, {UNCOMPILED!r} or None, got {mode!r}")
    _DEFAULT[0] = mode


def forced() -> str | None:
    """The mode :func:`force` or :func:`set_default` pins, or None."""
    return _FORCED[-1] if _FORCED else _DEFAULT[0]
