"""FileCheck semantics at run time through the one adapter (xesim/testing/filecheck.py; issue 26 item 4)."""

from __future__ import annotations

import pytest

from xesim.testing.filecheck import FileCheckUsageError, check

CHECKS = """\
// RUN: xesim run %s | FileCheck %s
// CHECK: alpha
// CHECK-NEXT: beta [[X:[0-9]+]]
// CHECK-SAME: end
// CHECK: gamma [[X]]
// OTHER: delta
"""


def test_all_matching() -> None:
    r = check(CHECKS, "t.mlir", "noise\nalpha\nbeta 12   end\nmore\ngamma 12\n")
    assert r.ok and r.summary() == "all CHECK lines matched"


@pytest.mark.parametrize(("output", "line"), [
    ("alpha\nnoise\nbeta 1 end\ngamma 1\n", 3),      # CHECK-NEXT not on the next line
    ("alpha\nbeta 1 stop\ngamma 1\n", 4),            # CHECK-SAME
    ("alpha\nbeta 1 end\ngamma 2\n", 5),             # the variable's value differs
    ("beta 1 end\n", 2),
])
def test_first_failing_check_line_is_named(output: str, line: int) -> None:
    r = check(CHECKS, "t.mlir", output)
    assert not r.ok and r.line == line
    assert r.directive == CHECKS.splitlines()[line - 1].strip()
    assert r.summary() == f"line {line}: {r.directive}"
    assert f"t.mlir:{line}:" in r.report and "\x1b[" not in r.report


def test_check_prefix_option() -> None:
    assert check(CHECKS, "t.mlir", "delta\n", ["--check-prefix", "OTHER"]).ok
    r = check(CHECKS, "t.mlir", "epsilon\n", ["--check-prefix=OTHER"])
    assert not r.ok and r.line == 6


def test_whitespace_is_collapsed_unless_strict() -> None:
    text = "// CHECK: a b\n"
    assert check(text, "w.mlir", "a \t  b\n").ok
    assert not check(text, "w.mlir", "a \t  b\n", ["--strict-whitespace"]).ok


def test_no_check_lines_fails_with_a_message() -> None:
    r = check("// nothing\n", "n.mlir", "x\n")
    assert not r.ok and r.line == 0 and "CHECK" in r.summary()


def test_bad_option_is_a_usage_error() -> None:
    with pytest.raises(FileCheckUsageError):
        check(CHECKS, "t.mlir", "", ["--no-such-option"])


def test_xesim_check_needs_no_filecheck_program(tmp_path) -> None:
    """After the quick start (``pip install -e .``), no ``filecheck`` program on PATH: xesim check still works."""
    import os
    import subprocess
    import sys

    p = tmp_path / "p.mlir"
    p.write_text("func.func @main() {\n  %c = arith.constant 7 : i32\n  vector.print %c : i32\n  return\n}\n"
                 "// CHECK: 7\n")
    env = {**os.environ, "PATH": str(tmp_path)}
    ok = subprocess.run([sys.executable, "-m", "xesim", "check", str(p)], env=env, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    p.write_text(p.read_text().replace("CHECK: 7", "CHECK: 8"))
    bad = subprocess.run([sys.executable, "-m", "xesim", "check", str(p)], env=env, capture_output=True, text=True)
    assert bad.returncode == 1 and "p.mlir:6:" in bad.stderr
    assert "first unmatched CHECK line: line 6: // CHECK: 8" in bad.stderr
