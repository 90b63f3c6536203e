"""Saved fuzzing reproducers are regression tests (issue 27 item 7): every file of tests/fuzz_corpus goes
through ``verify``, ``fmt`` and ``run`` without an internal error, and what ``fmt`` prints prints again unchanged.

``runaway-*`` files are programs that run forever (a mutated loop bound): only ``--max-steps`` / ``--timeout``
(issue 27 item 3, another branch) can stop them, so they are verified and formatted here but not run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_xesim

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted(p for p in (ROOT / "tests" / "fuzz_corpus").glob("*.mlir"))


def test_the_corpus_holds_the_issue_cases() -> None:
    names = {p.name for p in CORPUS}
    assert {"issue27-latin1-comment.mlir", "issue27-utf16.mlir", "issue27-print-punctuation.mlir",
            "issue27-index-2p65.mlir", "issue27-hex-f16.mlir"} <= names


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_reproducer_ends_in_a_diagnostic_or_success(path: Path, tmp_path: Path) -> None:
    commands = ["verify", "fmt"] + ([] if path.name.startswith("runaway-") else ["run"])
    for command in commands:
        status, out, err = run_xesim([command, str(path)] + (["--jobs", "1"] if command == "run" else []))
        assert status in (0, 1), (command, err[-2000:])
        assert "internal error" not in err and "Traceback" not in err, (command, err[-2000:])
        if status == 1:
            assert ": error: " in err, (command, err[-2000:])
        if command == "fmt" and status == 0:
            again = tmp_path / "again.mlir"
            again.write_text(out)
            status2, out2, err2 = run_xesim(["fmt", str(again)])
            assert status2 == 0 and out2 == out, err2[-2000:]
