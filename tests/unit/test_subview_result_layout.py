"""Issue 30, "Why": ``memref.subview %src[5] [251] [1] : memref<256xf32> to memref<251xf32, strided<[1]>>`` (a
result layout with offset 0 for a view at offset 5).  The issue reports today's upstream accepting it; shared/spec
states no rule, so the reading is the target parameter ``verify.subview_result_layout`` (isa/targets/pvc.toml):
``exact`` (default, MLIR's SubViewOp verifier as known) rejects it, ``operands`` accepts it with a warning and the
view is what its operands describe."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_xesim

PROGRAM = """module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %m = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %m[%i] : memref<256xf32>
    }
    %s = memref.subview %m[5] [251] [1] : memref<256xf32> to memref<251xf32, strided<[1]>>
    %x = memref.load %s[%c0] : memref<251xf32, strided<[1]>>
    %y = memref.load %s[%c1] : memref<251xf32, strided<[1]>>
    vector.print %x : f32
    vector.print %y : f32
    return
  }
}
"""


def _run(tmp_path: Path, *flags: str) -> tuple[int, str, str]:
    f = tmp_path / "p.mlir"
    f.write_text(PROGRAM)
    return run_xesim([*flags, str(f)])


def test_the_default_rejects_a_result_layout_that_differs_from_the_operands(tmp_path: Path) -> None:
    status, out, err = _run(tmp_path, "run")
    assert status == 1
    assert ("p.mlir:12:5: error: 'memref.subview' op expected result type to be 'memref<251xf32, strided<[1], "
            "offset: 5>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<251xf32, "
            "strided<[1]>>'") in err, err


def test_operands_reading_accepts_it_with_a_warning_and_views_elements_5_on(tmp_path: Path) -> None:
    status, out, err = _run(tmp_path, "run", "--target-param", "verify.subview_result_layout=operands")
    assert status == 0, err
    assert out.split() == ["5", "6"]
    assert "warning:" in err and "mismatch of result layout" in err and "verify.subview_result_layout" in err


def test_verify_takes_the_setting_and_explain_assumptions_lists_it(tmp_path: Path) -> None:
    status, _, err = _run(tmp_path, "verify", "--target-param", "verify.subview_result_layout=operands")
    assert status == 0, err
    status, out, err = _run(tmp_path, "run", "--explain-assumptions", "--target-param",
                            "verify.subview_result_layout=operands")
    assert status == 0, err
    assert "verify.subview_result_layout" in out + err
