"""The fuzzing harness tools/fuzz.py (issue 27 item 7): its mutations do what they say, it tells findings from
diagnostics, it catches a hang, and a short seeded round (the CI's) finds no internal error, fmt difference,
hang or memory blow-up."""

from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _fuzz():
    spec = importlib.util.spec_from_file_location("xesim_fuzz_tool", ROOT / "tools" / "fuzz.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


fuzz = _fuzz()
TEXT = "func.func @main() {\n  %a = arith.constant 7 : i32\n  %b = arith.addi %a, %a : i32\n  return\n}\n"


def test_seed_programs_are_every_mlir_file_of_examples_and_tests() -> None:
    seeds = fuzz.seed_programs()
    assert ROOT / "examples" / "lane_saxpy.mlir" in seeds
    assert ROOT / "tests" / "e2e" / "host_loops.mlir" in seeds
    assert any(p.parent.name == "fuzz_corpus" for p in seeds)


def test_number_type_and_ssa_mutations() -> None:
    rng = random.Random(3)
    numbers = {fuzz._number(rng, TEXT) for _ in range(40)}
    assert any("arith.constant 9223372036854775808 : i32" in t for t in numbers)
    assert any("arith.constant 1e309 : i32" in t for t in numbers)
    types = {fuzz._type(rng, TEXT) for _ in range(40)}
    assert {t.count("i32") for t in types} == {1, 2} and len(types) > 3  # one of the i32s (or none) changed
    swapped = fuzz._ssa_swap(rng, TEXT)
    assert swapped != TEXT and sorted(re.findall(r"%[ab]", swapped)) != sorted(re.findall(r"%[ab]", TEXT))


def test_line_token_truncation_and_byte_mutations() -> None:
    rng = random.Random(5)
    cut = fuzz._truncate(random.Random(1), TEXT)
    assert TEXT.startswith(cut) and len(cut) < len(TEXT)
    lines = {fuzz._lines(rng, TEXT).count("\n") for _ in range(30)}
    assert lines >= {4, 6}  # deletions and duplications of lines
    tokens = {fuzz._tokens(rng, TEXT) for _ in range(30)}
    assert len(tokens) > 10
    seen_bad_utf8 = False
    for k in range(60):
        data, names = fuzz.mutate(random.Random(k), TEXT.encode())
        if "not_utf8" in names:
            with pytest.raises(UnicodeDecodeError):
                data.decode("utf-8")
            seen_bad_utf8 = True
    assert seen_bad_utf8


def test_classify_tells_findings_from_diagnostics() -> None:
    assert fuzz.classify((1, "", "x.mlir:1:1: error: expected op\n...\n^")) is None
    assert fuzz.classify((0, "ok\n", "")) is None
    assert fuzz.classify((2, "", "xesim: internal error: KeyError: 'x'")) == "internal"
    assert fuzz.classify((1, "", "x.mlir:3:5: error: 'gpu.alloc' op internal error while executing this op")) \
        == "internal"
    assert fuzz.classify((-2, "", "MemoryError")) == "memory"
    assert fuzz.classify("hang") == "hang"


def test_runner_reports_a_hang_and_goes_on(tmp_path: Path) -> None:
    forever = tmp_path / "forever.mlir"
    forever.write_text("func.func @main() {\n  %t = arith.constant true\n  scf.while : () -> () {\n"
                       "    scf.condition(%t)\n  } do {\n    scf.yield\n  }\n  return\n}\n")
    runner = fuzz.Runner(memory_mb=3000)
    try:
        assert runner.run(str(forever), "verify", 60) == (0, "", "")
        assert runner.run(str(forever), "run", 3) == "hang"
        status, _, err = runner.run(str(tmp_path / "missing.mlir"), "verify", 60)  # a fresh worker
        assert status == 1 and "no such file" in err
    finally:
        runner.stop()


def test_short_seeded_round_finds_nothing(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The CI round: 40 seeded mutants through verify, fmt and run; every finding would be saved to tmp_path."""
    status = fuzz.main(["--count", "40", "--seed", "27", "--timeout", "30", "--corpus", str(tmp_path)])
    out = capsys.readouterr().out
    summary = out.strip().splitlines()[-1]
    assert summary.startswith("fuzz: 40 mutants") and status == 0, out
    assert "0 internal errors, 0 fmt differences, 0 hangs, 0 memory blow-ups" in summary
    verify, fmt, run = map(int, re.search(r"commands: (\d+) verify, (\d+) fmt, (\d+) run", out).groups())
    assert verify == 40 and fmt == 40 and run > 0
    assert not list(tmp_path.iterdir())
