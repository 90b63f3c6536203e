"""tools/op_impls.py: every op defined in isa/dialects has exactly one semantic implementation (issue 25)."""

from __future__ import annotations

import importlib.util
import io
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("op_impls", ROOT / "tools" / "op_impls.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(tool, argv: list[str]) -> tuple[int, str]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        status = tool.main(argv)
    return status, buf.getvalue()


def test_every_op_has_exactly_one_implementation() -> None:
    from xesim.ir.opdefs import load_registry

    status, out = _run(_tool(), ["--quiet"])
    n = len(load_registry().ops)
    assert status == 0, out
    assert out.startswith(f"{n} ops defined; {n} with exactly one semantic implementation"), out


def test_a_second_registration_is_reported(monkeypatch) -> None:
    """An op registered a second time with another decorator (as the lane-level and batched forms once were) is
    named, and the tool fails."""
    tool = _tool()
    real = tool._decorator_registrations

    def with_extra(ops: set[str]) -> dict:
        got = real(ops)
        got["xegpu.load_nd"] = [*got.get("xegpu.load_nd", []), "xesim/exec/lanes.py:1 lane_impl"]
        return got

    monkeypatch.setattr(tool, "_decorator_registrations", with_extra)
    status, out = _run(tool, [])
    assert status == 1
    assert "NOT ONE IMPLEMENTATION: xegpu.load_nd: an @impl; other registrations: xesim/exec/lanes.py:1 lane_impl" in out


def test_architecture_quotes_the_current_summary_and_its_sections_exist() -> None:
    """ARCHITECTURE.md stays true: it quotes the tool's summary line as it is today, and every reference of the
    code to one of its sections (the file name, then the section title in double quotes) names a section it has."""
    import re

    _, out = _run(_tool(), ["--quiet"])
    doc = (ROOT / "ARCHITECTURE.md").read_text()
    quoted = " ".join(line.lstrip("> ").strip() for line in doc.splitlines() if line.lstrip().startswith(">"))
    assert out.strip().splitlines()[0] in quoted
    sections = {m.group(1) for m in re.finditer(r"^## (.+)$", doc, re.M)}
    cited = set()
    for path in [*ROOT.glob("xesim/**/*.py"), *ROOT.glob("tools/*.py"), *ROOT.glob("tests/**/*.py")]:
        cited |= {(m.group(1), path.name) for m in re.finditer(r'ARCHITECTURE\.md "([^"]+)"', path.read_text())}
    assert [c for c in cited if c[0] not in sections] == []
