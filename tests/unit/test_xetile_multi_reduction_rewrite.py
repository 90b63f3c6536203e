"""shared/spec/xetile.md §5 Q15: in a module with XeTile ops, IMEX rewrites a 2-D single-dimension
``vector.multi_reduction <k>, %src, %acc`` into ``xetile.reduction <k>`` plus an *add* of ``%acc`` (target parameter
``xetile.pipeline_multi_reduction_acc``, default ``add``); ``kind`` keeps upstream's semantics (``%acc`` combined
with ``<k>``).  Expected values written out by hand from those two definitions."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_xesim


def _program(with_xetile: bool) -> str:
    """<maximumf> over dim 1 of [[1, 5, 2, 3], [-4, -1, -7, -2]] with accumulators [10, -3] (printed), and <add>
    over dim 0 with accumulators [100, 0, 0, 0]; ``with_xetile`` adds an unused XeTile function to the module."""
    xetile = """
  func.func @unused(%m: memref<64x64xf32>) {
    %t = xetile.init_tile %m[0, 0] : memref<64x64xf32> -> !xetile.tile<8x16xf32>
    return
  }""" if with_xetile else ""
    return f"""module {{{xetile}
  func.func @main() {{
    %x = arith.constant dense<[[1.0, 5.0, 2.0, 3.0], [-4.0, -1.0, -7.0, -2.0]]> : vector<2x4xf32>
    %a = arith.constant dense<[10.0, -3.0]> : vector<2xf32>
    %m = vector.multi_reduction <maximumf>, %x, %a [1] : vector<2x4xf32> to vector<2xf32>
    vector.print %m : vector<2xf32>
    %b = arith.constant dense<[100.0, 0.0, 0.0, 0.0]> : vector<4xf32>
    %s = vector.multi_reduction <add>, %x, %b [0] : vector<2x4xf32> to vector<4xf32>
    vector.print %s : vector<4xf32>
    return
  }}
}}
"""


def _run(tmp_path: Path, text: str, *flags: str) -> tuple[int, str, str]:
    f = tmp_path / "p.mlir"
    f.write_text(text)
    return run_xesim(["run", *flags, str(f)])


def test_in_an_xetile_module_the_accumulator_is_added_with_a_warning(tmp_path: Path) -> None:
    status, out, err = _run(tmp_path, _program(True))
    assert status == 0, err
    # max rows: 5 + 10 = 15, -1 + -3 = -4 (upstream: max(10, 5) = 10, max(-3, -1) = -1); sums: acc + column sums
    assert out.split("\n")[:2] == ["( 15, -4 )", "( 97, 4, -5, 1 )"], out
    assert err.count("warning:") == 1 and "xetile.pipeline_multi_reduction_acc" in err and "<maximumf>" in err


def test_upstream_semantics_outside_xetile_modules_and_with_kind(tmp_path: Path) -> None:
    for text, flags in ((_program(False), ()),
                        (_program(True), ("--target-param", "xetile.pipeline_multi_reduction_acc=kind"))):
        status, out, err = _run(tmp_path, text, *flags)
        assert status == 0, err
        assert out.split("\n")[:2] == ["( 10, -1 )", "( 97, 4, -5, 1 )"], out
        assert "warning" not in err
