"""CLI behaviour: diagnostics with caret and exit status 1, never a traceback; stdin; --version; --help."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import run_xesim

ROOT = Path(__file__).resolve().parents[2]


def test_version_and_help() -> None:
    status, out, _ = run_xesim(["--version"])
    assert status == 0 and out.startswith("xesim ")
    status, out, _ = run_xesim(["--help"])
    assert status == 0 and "xesim verify" in out and "examples:" in out


def test_bad_input_gives_located_error_and_exit_1(tmp_path: Path) -> None:
    f = tmp_path / "bad.mlir"
    f.write_text("func.func @f() {\n  %0 = arith.addi %a, : i32\n}\n")
    status, _, err = run_xesim(["verify", str(f)])
    assert status == 1
    first = err.splitlines()[0]
    assert first.startswith(f"{f}:2:")
    assert ": error: " in first
    assert "Traceback" not in err
    assert err.splitlines()[2].strip() == "^"


def test_unknown_op_is_named(tmp_path: Path) -> None:
    f = tmp_path / "unk.xegpu"
    f.write_text("func.func @f() {\n  foo.bar\n  func.return\n}\n")
    status, _, err = run_xesim(["verify", str(f)])
    assert status == 1
    assert "unknown.xegpu" not in err
    assert f"{f}:2:3: error: unknown operation 'foo.bar'" in err


def test_several_verifier_errors_are_all_reported(tmp_path: Path) -> None:
    f = tmp_path / "two.mlir"
    f.write_text(
        "func.func @f(%a: i32) -> i32 {\n"
        '  %0 = "func.call"(%a) {callee = @f} : (i32) -> i32\n'
        "  func.return %0, %0 : i32, i32\n"
        "}\n"
        "func.func @g(%a: i32) -> i32 {\n"
        "  func.return %a, %a : i32, i32\n"
        "}\n"
    )
    status, _, err = run_xesim(["verify", str(f)])
    assert status == 1
    assert err.count("error:") >= 2, err


def test_stdin_and_missing_file(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "xesim.cli", "fmt", "-"], input="func.func private @f(i32)\n",
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "func.func private @f(i32)" in proc.stdout
    status, _, err = run_xesim(["verify", str(tmp_path / "nope.mlir")])
    assert status == 1 and "no such file" in err


def test_fmt_is_a_fixed_point_on_examples(tmp_path: Path) -> None:
    for ex in sorted((ROOT / "examples").glob("*.mlir")):
        status, once, err = run_xesim(["fmt", str(ex)])
        assert status == 0, err
        f = tmp_path / ex.name
        f.write_text(once)
        status, twice, err = run_xesim(["fmt", str(f)])
        assert status == 0, err
        assert twice == once
