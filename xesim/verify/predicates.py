"""Registry of named verifier predicates referenced by op definitions (``verifiers = [...]``).

A predicate is ``fn(op, ctx) -> None`` that reports problems with ``ctx.error(op, message)`` (or
``ctx.error_at(loc, message)``).  Predicates are grouped in one module per dialect
(``xesim/verify/rules_<dialect>.py``) and registered with :func:`predicate`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

PREDICATES: dict[str, Callable[[Any, Any], None]] = {}


def predicate(name: str):
    def wrap(fn):
        if name in PREDICATES:
            raise ValueError(f"duplicate verifier predicate '{name}'")
        PREDICATES[name] = fn
        return fn

    return wrap


def _load_rule_modules() -> None:
    import importlib
    import pkgutil

    import xesim.verify as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("rules_"):
            importlib.import_module(f"xesim.verify.{info.name}")


_load_rule_modules()
