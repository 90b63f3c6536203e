"""The hardware target a program names (shared/spec/upstream-xegpu-xevm.md §4.12): the ``chip`` of the
``#xevm.target<...>`` attributes of its ``gpu.module`` ops (``gpu.module @m [#xevm.target<chip = "cri">]``).
Known chips are the target files of ``isa/targets`` (pvc, bmg, cri).  A program that names none runs on the
configured target (``--target``, default pvc); a program whose modules name different chips, or an unknown one, is a
located error at the module."""

from __future__ import annotations

import re
from typing import Any

from xesim.diagnostics import Diagnostic, DiagnosticError
from xesim.paths import ISA_DIR


def known_chips() -> list[str]:
    return sorted(p.stem for p in (ISA_DIR / "targets").glob("*.toml"))


_CHIP = re.compile(r'\bchip\s*=\s*"([^"]*)"')


def _chips(op: Any) -> list[str]:
    """The chips of the op's ``#xevm.target`` attributes (kept as text: xesim does not model the XeVM target
    attribute); XeVM's default chip is ``bmg`` (§4.12)."""
    targets = op.attributes.get("targets")
    out = []
    for t in getattr(targets, "elements", ()) or ():
        text = str(t)
        if text.startswith("#xevm.target"):
            m = _CHIP.search(text)
            out.append(m.group(1) if m else "bmg")
    return out


def program_target(module: Any) -> str | None:
    """The chip the program's gpu.module targets name, or None."""
    found: tuple[str, Any] | None = None
    for op in module.walk():
        if op.name != "gpu.module":
            continue
        for chip in _chips(op):
            if chip not in known_chips():
                raise DiagnosticError(Diagnostic("error", op.loc, f"unknown target chip '{chip}' in #xevm.target "
                                                                  f"(xesim models {', '.join(known_chips())})"))
            if found is not None and found[0] != chip:
                raise DiagnosticError(Diagnostic("error", op.loc, f"gpu.module targets chip '{chip}' but another "
                                                                  f"module targets '{found[0]}'"))
            found = (chip, op)
    return found[0] if found else None
