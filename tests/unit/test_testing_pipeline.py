"""RUN-line pipelines run by xesim (xesim/testing/pipeline.py): each form's verdict, `not`, `2>&1`, XFAIL/XPASS,
conditions, and what makes a test UNSUPPORTED or UNRESOLVED."""

from __future__ import annotations

from pathlib import Path

import pytest

from xesim.testing.pipeline import Context, run_test, split_count

PROG = """\
func.func @main() {
  %c = arith.constant 7 : i32
  vector.print %c : i32
  return
}
func.func @seven() -> i64 {
  %c = arith.constant 7 : i64
  return %c : i64
}
func.func @oob() {
  %m = memref.alloc() : memref<4xf32>
  %c4 = arith.constant 4 : index
  %v = memref.load %m[%c4] : memref<4xf32>
  return
}
// CHECK: 7
// BAD: 8
// OOB: error: 'memref.load' op index 4 is out of bounds
"""


def _test(tmp_path: Path, head: str, body: str = PROG, ctx: Context | None = None):
    p = tmp_path / "t.mlir"
    p.write_text(head + "\n" + body)
    return run_test(p, ctx or Context())


@pytest.mark.parametrize(("run", "verdict"), [
    ("// RUN: mlir-opt %s --gpu-lower-to-xevm-pipeline=\"xegpu-op-level=subgroup\" | mlir-runner -e main "
     "--entry-point-result=void --shared-libs=%mlir_levelzero_runtime,%mlir_runner_utils | FileCheck %s", "PASS"),
    ("// RUN: imex-opt %s -pass-pipeline='builtin.module(convert-xegpu-to-vc)' | mlir-cpu-runner -e seven "
     "-entry-point-result=i64 | FileCheck %s", "PASS"),
    ("// RUN: mlir-runner %s -e main --entry-point-result=void | FileCheck %s --check-prefix=BAD", "FAIL"),
    ("// RUN: mlir-runner %s -e main --entry-point-result=void | not FileCheck %s --check-prefix=BAD", "PASS"),
    ("// RUN: mlir-runner %s -e main --entry-point-result=void | not FileCheck %s", "FAIL"),
    ("// RUN: not mlir-runner %s -e oob --entry-point-result=void 2>&1 | FileCheck %s --check-prefix=OOB", "PASS"),
    ("// RUN: not mlir-runner %s -e oob --entry-point-result=void | FileCheck %s --check-prefix=OOB", "FAIL"),
    ("// RUN: mlir-runner %s -e oob --entry-point-result=void", "FAIL"),
    ("// RUN: not mlir-runner %s -e main --entry-point-result=void", "FAIL"),
    ("// RUN: mlir-runner %s -e seven --shared-libs=libcuda.so | FileCheck %s", "FAIL"),
    ("// RUN: %python_executable %imex_runner --requires=no-such-runtime -i %s --runner imex-cpu-runner -e main "
     "--entry-point-result=void --filecheck", "UNSUPPORTED"),
    ("// RUN: %python_executable %imex_runner -i %s -e main --entry-point-result=void --filecheck", "PASS"),
    ("// RUN: mlir-opt %s -xegpu-blocking -split-input-file -verify-diagnostics", "UNSUPPORTED"),
    ("// RUN: mlir-opt %s | FileCheck %s", "UNSUPPORTED"),
    ("// RUN: mlir-opt %s -split-input-file -verify-diagnostics | FileCheck %s", "UNSUPPORTED"),
    ("// RUN: mlir-runner %s -e main && echo hi", "UNSUPPORTED"),
    ("// RUN: xesim run %s | FileCheck %s", "PASS"),
    ("// RUN: not xesim run %s --entry oob 2>&1 | FileCheck %s --check-prefix=OOB", "PASS"),
    ("// RUN: mlir-runner %s -e main --entry-point-result=void | FileCheck", "UNRESOLVED"),
    ("// RUN: mlir-runner %s -e main --entry-point-result=void | FileCheck %s --bogus-option", "UNRESOLVED"),
    ("// RUN: mlir-runner %s -e main --entry-point-result=void | FileCheck %s\n// XFAIL: *", "XPASS"),
    ("// RUN: mlir-runner %s -e main --entry-point-result=void | FileCheck %s --check-prefix=BAD\n// XFAIL: *",
     "XFAIL"),
    ("// RUN: mlir-runner %s -e main --entry-point-result=void | FileCheck %s\n// UNSUPPORTED: xesim", "UNSUPPORTED"),
    ("// RUN: mlir-runner %s -e main --entry-point-result=void | FileCheck %s\n// REQUIRES: xesim && !cuda", "PASS"),
    ("// just a comment", "UNRESOLVED"),
])
def test_pipeline_forms(tmp_path: Path, run: str, verdict: str) -> None:
    outcome = _test(tmp_path, run)
    assert outcome.verdict == verdict, outcome


def test_failure_reason_and_details(tmp_path: Path) -> None:
    o = _test(tmp_path, "// RUN: mlir-runner %s -e main --entry-point-result=void | FileCheck %s --check-prefix=BAD")
    assert (o.check_line, o.check_text) == (18, "// BAD: 8")
    assert o.reason == "RUN line 1: first unmatched CHECK line: line 18: // BAD: 8"
    assert "--- output checked ---\n7\n" in o.details
    o = _test(tmp_path, "// RUN: mlir-runner %s -e oob --entry-point-result=void")
    assert "exited with status 1" in o.reason and "t.mlir:14:" in o.details


def test_directory_context(tmp_path: Path) -> None:
    run = "// RUN: mlir-runner %s -e main --entry-point-result=void | %mycheck %s\n// REQUIRES: gpu-x"
    ctx = Context(frozenset({"gpu-x"}), (("%mycheck", "FileCheck"),))
    assert _test(tmp_path, run, ctx=ctx).verdict == "PASS"
    assert _test(tmp_path, run.replace("gpu-x", "gpu-y"), ctx=ctx).reason == "REQUIRES: gpu-y not satisfied"
    off = Context(unsupported="marked by lit.local.cfg")
    assert _test(tmp_path, run, ctx=off).verdict == "UNSUPPORTED"


def test_diagnostic_test_splits(tmp_path: Path) -> None:
    good = ("func.func @f(%a: i32, %b: i64) {\n  // expected-error @below {{requires the same type}}\n"
            "  %0 = \"arith.addi\"(%a, %b) : (i32, i64) -> i32\n  return\n}\n")
    bad = good.replace("// expected-error @below {{requires the same type}}", "// no annotation")
    p = tmp_path / "d.mlir"
    p.write_text("// RUN: mlir-opt %s -split-input-file -verify-diagnostics\n" + good + "// -----\n" + bad)
    assert split_count(p) == 2
    assert run_test(p).verdict == "FAIL"
    assert run_test(p, chunk=0).verdict == "PASS"
    o = run_test(p, chunk=1)
    assert o.verdict == "FAIL" and "unexpected error" in o.reason and "d.mlir:10:" in o.details


def test_unreadable_test_file_is_unresolved(tmp_path: Path) -> None:
    p = tmp_path / "bin.mlir"
    p.write_bytes(b"// RUN: mlir-runner %s\n\xff\xfe")
    o = run_test(p)
    assert o.verdict == "UNRESOLVED" and "is not UTF-8 text" in o.reason
    assert split_count(p) == 0
    o = run_test(tmp_path / "gone.mlir")
    assert o.verdict == "UNRESOLVED" and "cannot read" in o.reason
