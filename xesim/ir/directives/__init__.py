"""Custom format directives (``custom<Name>(...)`` in an assembly format).

Each directive is an object with ``parse(p, st, args)``, ``present(p, st, args)`` (for optional groups),
``print(pr, op, args, fp)``, ``print_present(pr, op, args)`` and ``can_print(pr, op, args)``.  ``args`` are
the format's :class:`~xesim.ir.format.Ref` / :class:`~xesim.ir.format.TypeOf` arguments.  A directive with
``handles_types = True`` also sets the types of the operands it parses.  Directives live in one module per
dialect; this package's ``DIRECTIVES`` maps names to instances.
"""

from __future__ import annotations

from xesim.ir.directives.base import DIRECTIVES, Directive, directive

__all__ = ["DIRECTIVES", "Directive", "directive"]

for _mod in ("common", "builtin", "func", "scf", "cf", "gpu", "memref", "vector", "arith", "xegpu", "affine", "xetile",
             "llvm", "xevm"):
    try:
        __import__(f"xesim.ir.directives.{_mod}")
    except ModuleNotFoundError as _exc:  # a dialect without custom directives
        if _exc.name != f"xesim.ir.directives.{_mod}":
            raise
