"""``xesim fmt`` is a fixed point on every program the project has (issue 27 item 5): every file under
examples/ and tests/ (each ``// -----`` chunk of split files) and every saved fuzzing reproducer that parses and
verifies prints to text that parses, verifies and prints again unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_xesim
from xesim.deep import call_deep
from xesim.diagnostics import DiagnosticError
from xesim.ir.parser import parse_source
from xesim.ir.printer import print_module
from xesim.sources import decode_source
from xesim.verify.expectations import split_chunks
from xesim.verify.structural import verify_module

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted((ROOT / "examples").rglob("*.mlir")) + sorted((ROOT / "tests").rglob("*.mlir"))


def _fmt(text: str, name: str) -> str:
    module = parse_source(text, name)
    verify_module(module)
    return print_module(module)


def _check_all() -> tuple[int, list[str]]:
    checked, problems = 0, []
    for path in PROGRAMS:
        name = str(path.relative_to(ROOT))
        try:
            text = decode_source(path.read_bytes(), name)
        except DiagnosticError:
            continue  # a reproducer that is not UTF-8 (tests/fuzz_corpus)
        for line, chunk in split_chunks(text) if "// -----" in text else [(1, text)]:
            try:
                once = _fmt(chunk, name)
            except DiagnosticError:
                continue  # an invalid program (tests/mlir/invalid_*.mlir, reproducers)
            checked += 1
            try:
                twice = _fmt(once, name + " (formatted)")
            except DiagnosticError as exc:
                problems.append(f"{name}:{line}: fmt output does not parse back: {exc.render()[:500]}")
                continue
            if twice != once:
                problems.append(f"{name}:{line}: fmt(fmt(x)) != fmt(x)")
    return checked, problems


def test_fmt_is_a_fixed_point_on_every_program() -> None:
    checked, problems = call_deep(_check_all)
    assert not problems, "\n".join(problems)
    assert checked >= 100  # examples, e2e programs, round-trip files, reproducers


def test_vector_print_punctuation_newline_keeps_its_keyword(tmp_path: Path) -> None:
    f = tmp_path / "p.mlir"
    f.write_text("func.func @main() {\n  %c = arith.constant 1 : index\n  vector.print punctuation <newline>\n"
                 "  %d = arith.addi %c, %c : index\n  vector.print %d : index\n  vector.print\n  return\n}\n")
    status, once, err = run_xesim(["fmt", str(f)])
    assert status == 0, err
    lines = [ln.strip() for ln in once.splitlines()]
    assert "vector.print punctuation <newline>" in lines  # was a bare `vector.print`, then `%d` read as its operand
    assert "vector.print" in lines  # a bare one stays bare
    g = tmp_path / "again.mlir"
    g.write_text(once)
    status, twice, err = run_xesim(["fmt", str(g)])
    assert status == 0 and twice == once, err
    status, out, err = run_xesim(["run", str(g)])
    assert status == 0 and out == "\n2\n\n", err


@pytest.mark.parametrize("program", ["tests/e2e/host_vector_shapes.mlir", "tests/mlir/roundtrip_vector.mlir"])
def test_programs_with_print_punctuation_round_trip(program: str) -> None:
    text = (ROOT / program).read_text()
    once = _fmt(text, program)
    assert "punctuation <newline>" in once
    assert _fmt(once, program) == once
