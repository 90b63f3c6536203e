"""Layers do not leak (ARCHITECTURE.md principle 3): ir/ never imports execution; hw/ and numerics/ never
import the IR (or execution)."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "xesim"
FORBIDDEN = {
    "ir": ("xesim.exec", "xesim.hw", "xesim.runtime", "xesim.trace"),
    "hw": ("xesim.ir", "xesim.exec", "xesim.verify", "xesim.runtime"),
    "numerics": ("xesim.ir", "xesim.exec", "xesim.verify", "xesim.runtime", "xesim.hw"),
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_layers_do_not_leak() -> None:
    bad = []
    for layer, forbidden in FORBIDDEN.items():
        for f in sorted((PKG / layer).rglob("*.py")):
            for name in _imports(f):
                if name.startswith(forbidden):
                    bad.append(f"{f.relative_to(PKG)} imports {name}")
    assert bad == []
