"""External functions a program may declare and call (``func.func private @printMemrefF32(...)``):
the runner utilities of spec/programs-and-runner.md §1-§2.  Each is registered with :func:`external` as
``fn(engine, args, arg_types) -> result``; ``_mlir_ciface_`` prefixes are stripped before lookup.
Calling a name that is not registered is a located error at the call.

Each registration also says which memref arguments the function reads and which it writes, all of their elements
(``fn.memory_effects = (reads, writes)``, argument positions): the memory checker (``--check-memory``,
xesim/observe/memcheck.py) reads it from the engine's externals, as it cannot see inside the function."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

EXTERNALS: dict[str, Callable[[Any, list, list], Any]] = {}


def external(*names: str, reads: tuple[int, ...] = (), writes: tuple[int, ...] = ()):
    """Register ``fn`` under ``names``; ``reads`` / ``writes``: the positions of the memref arguments whose every
    element it reads / writes (module docstring)."""
    def wrap(fn):
        fn.memory_effects = (tuple(reads), tuple(writes))
        for n in names:
            EXTERNALS[n] = fn
        return fn

    return wrap


def _load() -> None:
    import importlib
    import pkgutil

    import xesim.runtime as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("utils_"):
            importlib.import_module(f"xesim.runtime.{info.name}")


_load()
