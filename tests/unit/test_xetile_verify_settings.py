"""The verifier's settings ``xetile.verify.strict`` and ``xetile.verify.imex_quirks`` (shared/spec/xetile.md §5 Q6 and
Q16; xesim/verify/settings.py): both values of each, the executor's refusal of ops accepted only by the lenient
verifier, ``--target-param`` and ``--explain-assumptions``.  tests/mlir/xetile_verify_lenient.mlir has the
diagnostics of the lenient settings case by case."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_xesim
from xesim.hw.params import TargetError, load_target
from xesim.ir.parser import parse_source
from xesim.verify.settings import VerifySettings, default_settings
from xesim.verify.structural import verify_module

LOAD_16 = """
func.func @f(%t: !xetile.tile<32x32xf16>) {
  %0 = xetile.load_tile %t : !xetile.tile<32x32xf16> -> vector<16x32xf16>
  return
}
"""

# a kernel whose load_tile result is half the tile: IMEX's verifier accepts it, the spec's recommended check not
PROGRAM = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%A: memref<32x32xf16>, %B: memref<16x32xf16>) kernel attributes {VectorComputeFunctionINTEL} {
      %t = xetile.init_tile %A[0, 0] : memref<32x32xf16> -> !xetile.tile<32x32xf16>
      %v = xetile.load_tile %t : !xetile.tile<32x32xf16> -> vector<16x32xf16>
      %o = xetile.init_tile %B[0, 0] : memref<16x32xf16> -> !xetile.tile<16x32xf16>
      xetile.store_tile %v, %o : vector<16x32xf16>, !xetile.tile<16x32xf16>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %a = gpu.alloc () : memref<32x32xf16>
    %b = gpu.alloc () : memref<16x32xf16>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<32x32xf16>, %b : memref<16x32xf16>)
    return
  }
}
"""


def _diagnostics(text: str, settings: VerifySettings) -> list[tuple[str, str]]:
    ctx = verify_module(parse_source(text, "t.mlir"), raise_on_error=False, settings=settings)
    return [(d.severity, d.message) for d in ctx.diagnostics]


def test_defaults_are_the_spec_recommendations() -> None:
    assert default_settings() == VerifySettings(xetile_strict=True, xetile_imex_quirks=True)
    t = load_target("pvc")
    assert t.params["xetile.verify.strict"].assumed and t.params["xetile.verify.imex_quirks"].assumed
    assert load_target("bmg").get("xetile.verify.strict") is True  # inherited


def test_strict_rejects_and_lenient_warns() -> None:
    strict = _diagnostics(LOAD_16, VerifySettings(True, True))
    lenient = _diagnostics(LOAD_16, VerifySettings(False, True))
    assert [s for s, _ in strict] == ["error"]
    assert [s for s, _ in lenient] == ["warning"]
    assert "result shape [16, 32] must equal the tile shape [32, 32]" in strict[0][1]
    assert lenient[0][1].startswith(strict[0][1]) and "xetile.verify.strict = false" in lenient[0][1]


@pytest.mark.parametrize(("strides", "order", "quirks", "error"), [
    ("[1, 32]", "<order = [0, 1]>", True, None),                  # IMEX's [1, S[1]]
    ("[1, 64]", "<order = [0, 1]>", True, "column-major layout"),
    ("[1, 64]", "<order = [0, 1]>", False, None),                 # the layout [1, S[0]] describes
    ("[1, 32]", "<order = [0, 1]>", False, "column-major layout"),
    ("[1, 32]", "<>", True, "row-major layout"),
    ("[48, 1]", "<>", False, None),
    ("[1, 64]", "<>", False, "row-major layout"),
])
def test_imex_quirks_on_integer_sources(strides: str, order: str, quirks: bool, error: str | None) -> None:
    text = (f"func.func @f(%p: i64) {{\n  %0 = xetile.init_tile %p[0, 0], [64, 32], {strides} : i64 -> "
            f"!xetile.tile<8x16xf16, #xetile.tile_attr{order}>\n  return\n}}\n")
    got = _diagnostics(text, VerifySettings(True, quirks))
    if error is None:
        assert got == []
    else:
        assert len(got) == 1 and got[0][0] == "error" and error in got[0][1]


def test_lenient_run_refuses_the_op_with_a_located_error(tmp_path: Path) -> None:
    p = tmp_path / "prog.mlir"
    p.write_text(PROGRAM)
    status, _, err = run_xesim(["run", str(p)])
    assert status == 1 and "prog.mlir:6:" in err and "error: 'xetile.load_tile' op result shape" in err
    status, _, err = run_xesim(["run", "--target-param", "xetile.verify.strict=false", str(p)])
    assert status == 1
    assert "prog.mlir:6:7: warning: 'xetile.load_tile' op result shape [16, 32]" in err
    assert "prog.mlir:6:7: error: 'xetile.load_tile' op cannot execute this op: result shape [16, 32]" in err
    assert "Traceback" not in err


def test_explain_assumptions_lists_both_settings(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    status, _, err = run_xesim(["run", "--explain-assumptions", str(root / "tests/e2e/xetile_reduction_size.mlir")])
    assert status == 0
    assert "xetile.verify.strict = True" in err and "xetile.verify.imex_quirks = True" in err


def test_target_param_errors(tmp_path: Path) -> None:
    with pytest.raises(TargetError, match="unknown parameter 'xetile.verify.nope'"):
        load_target("pvc").with_overrides({"xetile.verify.nope": True})
    with pytest.raises(TargetError, match="unknown parameter 'no.such.section'"):
        load_target("pvc").with_overrides({"no.such.section": 1})
    with pytest.raises(TargetError, match="one of true | false, not 'maybe'"):
        load_target("pvc").with_overrides({"xetile.verify.strict": "maybe"})
    p = tmp_path / "f.mlir"
    p.write_text(LOAD_16)
    status, _, err = run_xesim(["verify", "--target-param", "xetile.verify.nope=1", str(p)])
    assert status == 1 and "xesim: error: unknown parameter 'xetile.verify.nope'" in err
    status, _, err = run_xesim(["verify", "--target-param", "junk", str(p)])
    assert status == 2 and "expected NAME=VALUE" in err
