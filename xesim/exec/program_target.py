"""The hardware target a program names (shared/spec/upstream-xegpu-xevm.md §4.12): the ``chip`` of the
``#xevm.target<...>`` attributes of its ``gpu.module`` ops (``gpu.module @m [#xevm.target<chip = "cri">]``).
Known chips are the target files of ``isa/targets`` (pvc, bmg, cri).  A program that names none runs on the
configured target (``--target``, default pvc) — unless a comment passes ``zebin-chip=NAME`` to the
lowering pipeline, as upstream's tests do in their RUN lines.  Modules naming different chips, or an unknown chip,
are a located error."""

from __future__ import annotations

import re
from typing import Any

from xesim.diagnostics import Diagnostic, DiagnosticError, Location
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


_ZEBIN_CHIP = re.compile(r"^[ \t]*//.*?\bzebin-chip=([A-Za-z0-9_]+)", re.M)


def _zebin_chip(module: Any) -> str | None:
    """The ``zebin-chip=NAME`` option of the pipeline a comment (an upstream test's RUN line, e.g.
    ``--gpu-lower-to-xevm-pipeline="xegpu-op-level=lane zebin-chip=cri"``) passes; unknown chips are located errors
    at the comment."""
    src = next((op.loc.source for op in module.walk() if op.loc.source is not None), None)
    text = src.text if src is not None else None
    if not text:
        return None
    m = _ZEBIN_CHIP.search(text)
    if m is None:
        return None
    chip = m.group(1)
    if chip not in known_chips():
        raise DiagnosticError(Diagnostic("error", Location(src, m.start(1)),
                                         f"unknown target chip '{chip}' in zebin-chip= (xesim models "
                                         f"{', '.join(known_chips())})"))
    return chip


def program_target(module: Any) -> str | None:
    """The chip the program's gpu.module targets name, else the ``zebin-chip=`` of its RUN comment, or None."""
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
    return found[0] if found else _zebin_chip(module)
