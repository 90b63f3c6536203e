"""``xesim run --compare-with LOWERED prog.mlir`` (issue 30 item 5, xesim/observe/readback.py): the subgroup-level GEMM
and its lane-level form agree; a lane-level form with an off-by-one store offset is caught, naming the first
differing element.  Expected values: C[i][j] = A[i][j] + A[i][j-1] with A[i][k] = (i + k) mod 8 (the examples'
header), so C[0][1] = 1; the wrong lowering never writes row 0 (device memory starts zeroed)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_xesim

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_sg_gemm_and_its_lane_level_form_agree() -> None:
    status, out, err = run_xesim(["run", "--compare-with", str(EXAMPLES / "lane_gemm_f16.mlir"),
                                  str(EXAMPLES / "sg_gemm_f16.mlir")])
    assert status == 0, err
    assert "the 1 buffer(s) read back agree with" in err
    assert out.count("Unranked Memref") == 1  # the program's own output, once (the other run's is not printed)


def test_an_off_by_one_lowering_is_caught_at_its_first_differing_element(tmp_path: Path) -> None:
    lane = (EXAMPLES / "lane_gemm_f16.mlir").read_text()
    wrong = lane.replace("      %n = arith.muli %by, %c16 : index\n",
                         "      %n = arith.muli %by, %c16 : index\n      %one = arith.constant 1 : index\n"
                         "      %m1 = arith.addi %m, %one : index\n", 1)
    wrong = wrong.replace("xegpu.store_nd %acc, %c_td[%m, %n]", "xegpu.store_nd %acc, %c_td[%m1, %n]", 1)
    assert wrong != lane
    bad = tmp_path / "lowered.mlir"
    bad.write_text(wrong)
    status, _, err = run_xesim(["run", "--compare-with", str(bad), str(EXAMPLES / "sg_gemm_f16.mlir")])
    assert status == 1
    assert "xesim: error: --compare-with: read-back #1 (gpu.memcpy at " in err
    assert "sg_gemm_f16.mlir:" in err and "lowered.mlir:" in err
    assert "first difference at element [0, 1]: 1.0 here, 0.0 in " in err


def test_a_different_number_of_read_backs_is_reported(tmp_path: Path) -> None:
    lane = (EXAMPLES / "lane_gemm_f16.mlir").read_text()
    twice = lane.replace("    %cast = memref.cast", "    gpu.memcpy %C, %dC : memref<32x32xf32>, memref<32x32xf32>\n"
                                                       "    %cast = memref.cast", 1)
    assert twice != lane
    other = tmp_path / "twice.mlir"
    other.write_text(twice)
    status, _, err = run_xesim(["run", "--compare-with", str(other), str(EXAMPLES / "sg_gemm_f16.mlir")])
    assert status == 1 and "the program reads back 1 buffer(s)" in err and " 2: the first 1 agree" in err
