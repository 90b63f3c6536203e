"""Custom format directives (``custom<Name>(...)`` in an assembly format).

Each directive is an object with ``parse(p, st, args)``, ``present(p, st, args)`` (for optional groups),
``print(pr, op, args, fp)``, ``print_present(pr, op, args)`` and ``can_print(pr, op, args)``.  ``args`` are
the format's :class:`~xesim.ir.format.Ref` / :class:`~xesim.ir.format.TypeOf` arguments.  A directive with
``handles_types = True`` also sets the types of the operands it parses.  Directives live in one module per
dialect; this package's ``DIRECTIVES`` maps names to instances.
"""

from __future__ import annotations

from typing import Any

DIRECTIVES: dict[str, Any] = {}


def directive(name: str):
    """Class decorator registering a directive instance under ``name``."""

    def wrap(cls):
        DIRECTIVES[name] = cls()
        return cls

    return wrap


class Directive:
    handles_types = False

    def parse(self, p: Any, st: Any, args: list) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def present(self, p: Any, st: Any, args: list) -> bool:
        return True

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return True

    def can_print(self, pr: Any, op: Any, args: list) -> bool:
        return True


from xesim.ir.directives import common  # noqa: E402,F401

for _mod in ("builtin", "func", "scf", "cf", "gpu", "memref", "vector", "arith", "xegpu", "affine"):
    try:
        __import__(f"xesim.ir.directives.{_mod}")
    except ModuleNotFoundError as _exc:  # a dialect without custom directives
        if _exc.name != f"xesim.ir.directives.{_mod}":
            raise
