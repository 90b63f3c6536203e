"""mlir-runner compatibility (issue 26 item 1): every flag of `xesim run` / `xesim-runner`, the printed result of
i32, i64 and f32 entry points, shared-library checks (xesim/testing/mlir_runner.py)."""

from __future__ import annotations

import contextlib
import io
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import run_xesim
from xesim.cli import runner_main
from xesim.testing.mlir_runner import (
    RunnerUsageError,
    format_result,
    library_stem,
    normalize_dashes,
    parse_command_line,
)

PROGRAM = """\
func.func @neg_i32() -> i32 {
  %c = arith.constant -7 : i32
  return %c : i32
}
func.func @big_i64() -> i64 {
  %c = arith.constant 5000000000 : i64
  return %c : i64
}
func.func @third() -> f32 {
  %a = arith.constant 1.0 : f32
  %b = arith.constant 3.0 : f32
  %c = arith.divf %a, %b : f32
  return %c : f32
}
func.func @two() -> (i32, i32) {
  %c = arith.constant 1 : i32
  return %c, %c : i32, i32
}
func.func @takes(%x: i32) {
  return
}
func.func @main() {
  %c = arith.constant 42 : i32
  vector.print %c : i32
  return
}
"""


@pytest.fixture
def prog(tmp_path: Path) -> str:
    p = tmp_path / "prog.mlir"
    p.write_text(PROGRAM)
    return str(p)


@pytest.mark.parametrize(("argv", "out"), [
    (["-e", "neg_i32"], "-7\n"),
    (["--entry-point", "big_i64"], "5000000000\n"),
    (["--entry", "third"], "3.333333e-01\n"),
    (["-e", "neg_i32", "--entry-point-result=i32"], "-7\n"),
    (["-e", "big_i64", "-entry-point-result=i64"], "5000000000\n"),
    (["-e", "third", "--entry-point-result", "f32"], "3.333333e-01\n"),
    (["-e", "main", "--entry-point-result=void"], "42\n"),
    (["-e", "main"], "42\n"),
])
def test_run_prints_the_entry_result_as_mlir_runner(prog: str, argv: list[str], out: str) -> None:
    status, got, err = run_xesim(["run", prog, *argv])
    assert (status, got) == (0, out), err


@pytest.mark.parametrize("flag", ["-O0", "-O1", "-O2", "-O3"])
def test_opt_levels_are_accepted_without_effect(prog: str, flag: str) -> None:
    assert run_xesim(["run", prog, "-e", "neg_i32", flag])[:2] == (0, "-7\n")


@pytest.mark.parametrize("libs", [
    "--shared-libs=/opt/llvm/lib/libmlir_runner_utils.so,/opt/llvm/lib/libmlir_c_runner_utils.so.20",
    "-shared-libs=libmlir_levelzero_runtime.so",
    "--shared-libs=build/lib/liblevel-zero-runtime.so,libimex_runner_utils.so,libsycl-runtime.so",
    "--shared-libs=mlir_sycl_runtime.dll",
])
def test_known_shared_libs_are_accepted(prog: str, libs: str) -> None:
    assert run_xesim(["run", prog, "-e", "main", libs])[:2] == (0, "42\n")


def test_unknown_shared_lib_is_an_error_naming_it(prog: str) -> None:
    status, out, err = run_xesim(["run", prog, "--shared-libs=libmlir_runner_utils.so,/x/libcuda_runtime.so"])
    assert status == 2 and out == ""
    assert "xesim does not provide '/x/libcuda_runtime.so'" in err


def test_unexpanded_substitution_in_shared_libs_is_named(prog: str) -> None:
    status, _, err = run_xesim(["run", prog, "--shared-libs=%mlir_runner_utils"])
    assert status == 2 and "'%mlir_runner_utils' is a lit substitution that was not expanded" in err


@pytest.mark.parametrize(("argv", "line", "msg"), [
    (["-e", "third", "--entry-point-result=i32"], 9,
     "--entry-point-result=i32 needs a function with a single i32 result; @third returns f32"),
    (["-e", "main", "--entry-point-result=f32"], 22, "--entry-point-result=f32 needs a function with a single f32 result; @main returns nothing"),
    (["-e", "two"], 15, "entry point @two returns i32, i32; mlir-runner returns nothing, one i32, one i64 or one f32"),
    (["-e", "takes"], 19, "entry point @takes takes arguments (i32)"),
])
def test_entry_mismatch_is_a_located_error(prog: str, argv: list[str], line: int, msg: str) -> None:
    status, out, err = run_xesim(["run", prog, *argv])
    assert status == 1 and out == ""
    assert f"prog.mlir:{line}:1: error: {msg}" in err
    assert "^" in err


def test_missing_entry_is_an_error(prog: str) -> None:
    status, _, err = run_xesim(["run", prog, "-e", "nope"])
    assert status == 1 and "entry point @nope not found" in err


def test_bad_result_kind_is_a_usage_error(prog: str) -> None:
    status, _, err = run_xesim(["run", prog, "--entry-point-result=f64"])
    assert status == 2 and "f64" in err


def test_check_sees_the_printed_result(tmp_path: Path) -> None:
    p = tmp_path / "c.mlir"
    p.write_text(PROGRAM + "// CHECK: -7\n")
    assert run_xesim(["check", str(p), "-e", "neg_i32"])[0] == 0
    p.write_text(PROGRAM + "// CHECK: -8\n")
    assert run_xesim(["check", str(p), "-e", "neg_i32"])[0] == 1


@pytest.mark.parametrize(("values", "kind", "text"), [
    ((np.int32(-1),), "i32", "-1\n"),
    ((0xFFFFFFFF,), "i32", "-1\n"),                    # the bits as a signed i32
    ((-(2**63),), "i64", "-9223372036854775808\n"),
    ((np.float32(3.0),), "f32", "3.000000e+00\n"),
    ((np.float32(-1.5e-7),), "f32", "-1.500000e-07\n"),
    ((np.float32(math.inf),), "f32", "INF\n"),
    ((np.float32(-math.inf),), "f32", "-INF\n"),
    ((np.float32(math.nan),), "f32", "nan\n"),
    ((), "void", ""),
])
def test_format_result(values: tuple, kind: str, text: str) -> None:
    assert format_result(values, kind) == text


def _runner(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = runner_main(argv)
    return status, out.getvalue(), err.getvalue()


def test_xesim_runner_takes_mlir_runners_command_line(prog: str) -> None:
    argv = ["-e", "main", "-entry-point-result=void", "-shared-libs=libmlir_runner_utils.so", "-O3", prog]
    assert _runner(argv)[:2] == (0, "42\n")
    # without --entry-point-result, mlir-runner's default (entry_point.default_result: f32)
    assert _runner([prog, "-e", "third"])[:2] == (0, "3.333333e-01\n")
    status, _, err = _runner([prog, "-e", "neg_i32"])
    assert status == 1 and "--entry-point-result=f32 needs a function with a single f32 result" in err


def test_xesim_runner_reads_stdin(prog: str) -> None:
    proc = subprocess.run([sys.executable, "-c", "import sys; from xesim.cli import runner_main; "
                           "sys.exit(runner_main())", "-e", "big_i64", "--entry-point-result=i64"],
                          input=Path(prog).read_text(), capture_output=True, text=True)
    assert (proc.returncode, proc.stdout) == (0, "5000000000\n"), proc.stderr


@pytest.mark.parametrize(("argv", "msg"), [
    (["--bogus", "x.mlir"], "unknown option '--bogus'"),
    (["a.mlir", "b.mlir"], "one input file expected, got 2"),
    (["-e"], "option '-e' needs a value"),
    (["--entry-point-result=f16"], "--entry-point-result=f16: expected one of void, i32, i64, f32"),
])
def test_xesim_runner_rejects_what_mlir_runner_rejects(argv: list[str], msg: str) -> None:
    status, _, err = _runner(argv)
    assert status == 2 and msg in err


def test_parse_command_line_forms() -> None:
    with pytest.raises(RunnerUsageError, match="xesim does not provide 'a.so'"):
        parse_command_line(["--shared-libs", "a.so"])
    o = parse_command_line(["--entry-point=f", "--shared-libs", "libmlir_runner_utils.so",
                            "-shared-libs=libmlir_c_runner_utils.so", "-O2", "--entry-point-result", "i64", "in.mlir"])
    assert (o.input, o.entry, o.result, o.opt_level) == ("in.mlir", "f", "i64", 2)
    assert o.shared_libs == ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")
    assert parse_command_line(["--seed", "3", "x"], allow_extra=True).extra == ("--seed", "3", "x")


@pytest.mark.parametrize(("path", "stem"), [
    ("/x/libmlir_runner_utils.so.20.1", "mlir_runner_utils"), ("liblevel-zero-runtime.so", "level_zero_runtime"),
    ("mlir_c_runner_utils.dll", "mlir_c_runner_utils"), ("libimex_runner_utils.dylib", "imex_runner_utils"),
])
def test_library_stem(path: str, stem: str) -> None:
    assert library_stem(path) == stem


def test_normalize_dashes_only_touches_llvm_long_options() -> None:
    assert normalize_dashes(["-split-input-file", "-verify-diagnostics", "-e", "-shared-libs=x", "-O3", "-"]) == \
        ["--split-input-file", "--verify-diagnostics", "-e", "--shared-libs=x", "-O3", "-"]
