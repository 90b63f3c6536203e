"""Checking an XeGPU-to-XeVM lowering with ``xesim run --compare-with`` (issue 30 items 4-5): the lane-level XeGPU
GEMM (examples/lane_gemm_f16.mlir) and its hand-written XeVM lowering (examples/xevm_gemm_f16.mlir: 2D block
messages, xevm.mma, llvm pointers; shared/spec/upstream-xegpu-xevm.md §4) agree buffer for buffer; a lowering whose
store is one row off is caught at its first differing element.  Expected values: C[i][j] = A[i][j] + A[i][j-1] with
A[i][k] = (i + k) mod 8 (the examples' header), so C[0][1] = 1; the wrong lowering writes every tile one row lower,
so row 0 keeps the zeros of fresh device memory."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_xesim

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
XEVM = EXAMPLES / "xevm_gemm_f16.mlir"


def test_the_xegpu_gemm_and_its_xevm_lowering_agree() -> None:
    status, out, err = run_xesim(["run", "--compare-with", str(XEVM), str(EXAMPLES / "lane_gemm_f16.mlir")])
    assert status == 0, err
    assert f"the 1 buffer(s) read back agree with {XEVM}" in err
    assert out.count("Unranked Memref") == 1


def test_the_subgroup_level_gemm_and_the_xevm_lowering_agree() -> None:
    status, _, err = run_xesim(["run", "--compare-with", str(XEVM), str(EXAMPLES / "sg_gemm_f16.mlir")])
    assert status == 0, err
    assert "agree with" in err


def test_an_off_by_one_xevm_lowering_is_caught_at_its_first_differing_element(tmp_path: Path) -> None:
    text = XEVM.read_text()
    wrong = text.replace("      %n32 = arith.index_cast %n : index to i32\n",
                         "      %n32 = arith.index_cast %n : index to i32\n      %one = arith.constant 1 : i32\n"
                         "      %m1 = arith.addi %m32, %one : i32\n", 1)
    wrong = wrong.replace("%pc, %w32, %h, %w32, %n32, %m32, %acc", "%pc, %w32, %h, %w32, %n32, %m1, %acc", 1)
    assert wrong.count("%m1") == 2
    bad = tmp_path / "lowered.mlir"
    bad.write_text(wrong)
    status, _, err = run_xesim(["run", "--compare-with", str(bad), str(EXAMPLES / "lane_gemm_f16.mlir")])
    assert status == 1
    assert "xesim: error: --compare-with: read-back #1 (gpu.memcpy at " in err
    assert "lane_gemm_f16.mlir:" in err and "lowered.mlir:" in err
    assert "first difference at element [0, 1]: 1.0 here, 0.0 in " in err
