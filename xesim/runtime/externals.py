"""External functions a program may declare and call (``func.func private @printMemrefF32(...)``):
the runner utilities of spec/programs-and-runner.md §1-§2.  Each is registered with :func:`external` as
``fn(engine, args, arg_types) -> result``; ``_mlir_ciface_`` prefixes are stripped before lookup.
Calling a name that is not registered is a located error at the call."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

EXTERNALS: dict[str, Callable[[Any, list, list], Any]] = {}


def external(*names: str):
    def wrap(fn):
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
