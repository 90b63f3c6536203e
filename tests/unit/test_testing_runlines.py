"""Reading lit test files: RUN lines, continuations, conditions, feature expressions, substitutions
(xesim/testing/runlines.py; issue 26 item 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from xesim.testing.runlines import RunLineError, evaluate, read_test, substitute, substitutions

SRC = """\
// RUN: mlir-opt %s --pass-pipeline="builtin.module(x)" \\
// RUN: | mlir-runner -e main --entry-point-result=void \\
// RUN:   --shared-libs=%mlir_runner_utils | FileCheck %s
// RUN-DISABLED: mlir-opt %s | FileCheck %s
// REQUIRES: levelzero-runtime, !cuda
// UNSUPPORTED: windows
// XFAIL: *
func.func @main() { return }
"""


def test_continuations_join_into_one_command_at_the_first_line() -> None:
    tf = read_test(Path("/d/t.mlir"), SRC)
    assert tf.runs == [(1, 'mlir-opt %s --pass-pipeline="builtin.module(x)" | mlir-runner -e main '
                           '--entry-point-result=void --shared-libs=%mlir_runner_utils | FileCheck %s')]
    assert tf.requires == ["levelzero-runtime", "!cuda"]
    assert tf.unsupported == ["windows"]
    assert tf.xfail == ["*"]


def test_dangling_continuation_is_an_error_naming_the_line() -> None:
    with pytest.raises(RunLineError, match=r"t.mlir:2: RUN line ends with"):
        read_test(Path("t.mlir"), "x\n// RUN: xesim run %s \\\nfunc.func @f() { return }\n")


@pytest.mark.parametrize(("expr", "want"), [
    ("a", True), ("b", False), ("!b", True), ("a && b", False), ("a || b", True), ("!(a && b) && c", True),
    ("true", True), ("false", False), ("*", True), ("(b || c) && !a", False), ("x-y.z", True),
])
def test_feature_expressions(expr: str, want: bool) -> None:
    assert evaluate(expr, {"a", "c", "x-y.z"}) is want


@pytest.mark.parametrize("expr", ["a &&", "(a", "a b", "a ) b", "a @ b"])
def test_malformed_feature_expression_is_an_error(expr: str) -> None:
    with pytest.raises(RunLineError, match="feature expression"):
        evaluate(expr, {"a"})


def test_substitutions_expand_lits_own_and_the_table(tmp_path: Path) -> None:
    path = Path("/suite/dir/t.mlir")
    subs = substitutions(path, tmp_path, [("%custom", "CUSTOM")])
    got = substitute("%s %S %p %t %T %%x %mlir_runner_utils %irunner_utils %custom %s.out", subs, "t.mlir:1")
    assert got == (f"/suite/dir/t.mlir /suite/dir /suite/dir {tmp_path}/t.mlir.tmp {tmp_path} %x "
                   "libmlir_runner_utils.so libimex_runner_utils.so CUSTOM /suite/dir/t.mlir.out")


def test_unknown_substitution_is_reported_not_guessed(tmp_path: Path) -> None:
    subs = substitutions(Path("/d/t.mlir"), tmp_path)
    with pytest.raises(RunLineError, match=r"t.mlir:3: unknown lit substitution '%mlir_cuda_runtime'"):
        substitute("mlir-runner --shared-libs=%mlir_cuda_runtime %s", subs, "t.mlir:3")


def test_a_percent_before_a_non_name_is_literal(tmp_path: Path) -> None:
    subs = substitutions(Path("/d/t.mlir"), tmp_path)
    assert substitute("echo 50% done %", subs, "x") == "echo 50% done %"
