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


class RuleError(Exception):
    """One diagnostic of a rule written with :func:`rule_registrar`; ``on_op`` adds MLIR's ``'dialect.op' op``
    prefix (else the message stands at the op's location alone)."""

    def __init__(self, message: str, on_op: bool = True) -> None:
        super().__init__(message)
        self.message = message
        self.on_op = on_op


Rule = Callable[[Any, Any], None]


def rule_registrar(precheck: Callable[[Any], None]) -> Callable[[str], Callable[[Rule], Rule]]:
    """A decorator factory for a dialect's rules: ``rule(name)(fn)`` registers predicate ``name``, which runs
    ``precheck(op)`` (the checks every op of the dialect gets) and then ``fn(op, ctx)``; either may raise
    :class:`RuleError`, which becomes one diagnostic."""

    def rule(name: str) -> Callable[[Rule], Rule]:
        def wrap(fn: Rule) -> Rule:
            def run(op: Any, ctx: Any) -> None:
                try:
                    precheck(op)
                    fn(op, ctx)
                except RuleError as f:
                    if f.on_op:
                        ctx.error(op, f.message)
                    else:
                        ctx.error_at(op.loc, f.message)

            run.__doc__ = fn.__doc__
            predicate(name)(run)
            return fn

        return wrap

    return rule


def _load_rule_modules() -> None:
    import importlib
    import pkgutil

    import xesim.verify as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("rules_"):
            importlib.import_module(f"xesim.verify.{info.name}")


_load_rule_modules()
