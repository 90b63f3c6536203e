"""The mlir-runner and lit conventions xesim follows, read from ``isa/runner.toml``.

Each entry is a :class:`Convention`: its value, its source and, for those the project's spec does not establish
(spec/programs-and-runner.md describes output formats, not mlir-runner's command line), ``assumed`` with the
evidence.  Code reads a value with :func:`value`; nothing else in xesim spells these facts out."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from xesim.paths import ISA_DIR


@dataclass(frozen=True)
class Convention:
    """One parameter of ``isa/runner.toml``: ``path`` ("section.name"), value, source, assumed, evidence."""

    path: str
    value: Any
    source: str
    assumed: bool = False
    evidence: str = ""


@cache
def conventions() -> dict[str, Convention]:
    """Every parameter of ``isa/runner.toml`` by path."""
    data = tomllib.loads((ISA_DIR / "runner.toml").read_text())
    out: dict[str, Convention] = {}
    for section, entries in data.items():
        for name, entry in entries.items():
            path = f"{section}.{name}"
            out[path] = Convention(path, entry["value"], entry.get("source", ""), bool(entry.get("assumed", False)),
                                   entry.get("evidence", ""))
    return out


def value(path: str) -> Any:
    """The value of parameter ``path`` ("section.name") of ``isa/runner.toml``."""
    return conventions()[path].value


def assumptions() -> list[Convention]:
    """The parameters that are assumptions (with their evidence), in file order."""
    return [c for c in conventions().values() if c.assumed]
