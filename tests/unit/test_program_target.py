"""The target a program names (#xevm.target<chip = ...> on its gpu.module; upstream-xegpu-xevm.md §4.12) and the cri
target file: cri has the scaled DPAS and 4-byte 2D-block surface granularity (§2.1), pvc has neither."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_xesim
from xesim.hw.params import load_target

# A 2D block load from a 16-byte-wide surface (pvc: surface width >= 64 bytes, spec/pvc-hardware.md §1.2; cri: only a
# multiple of 4 bytes) and a dpas_mx, in a module whose target is TARGET.
PROGRAM = """module attributes {gpu.container_module} {
  gpu.module @k TARGET {
    gpu.func @f(%m: memref<8x16xi8>, %out: memref<8x16xi8>) kernel {
      %t = xegpu.create_nd_tdesc %m : memref<8x16xi8> -> !xegpu.tensor_desc<8x16xi8>
      %v = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xi8> -> vector<8x16xi8>
      %o = xegpu.create_nd_tdesc %out : memref<8x16xi8> -> !xegpu.tensor_desc<8x16xi8>
      xegpu.store_nd %v, %o[0, 0] : vector<8x16xi8>, !xegpu.tensor_desc<8x16xi8>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %a = arith.constant dense<1.0> : vector<8x32xf8E4M3FN>
    %b = arith.constant dense<1.0> : vector<32x16xf8E4M3FN>
    %s = arith.constant 2.0 : f8E8M0FNU
    %d = xegpu.dpas_mx %a, %b scale_a = %s scale_b = %s : (vector<8x32xf8E4M3FN>, vector<32x16xf8E4M3FN>, f8E8M0FNU, f8E8M0FNU) -> vector<8x16xf32>
    %e = vector.extract %d[0, 0] : f32 from vector<8x16xf32>
    vector.print %e : f32
    %m = gpu.alloc () : memref<8x16xi8>
    %out = gpu.alloc () : memref<8x16xi8>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%m : memref<8x16xi8>, %out : memref<8x16xi8>)
    return
  }
}
"""


def run(tmp_path: Path, target: str, *flags: str) -> tuple[int, str, str]:
    p = tmp_path / "t.mlir"
    p.write_text(PROGRAM.replace("TARGET", target))
    return run_xesim(["run", *flags, str(p)])


def test_cri_program_runs_dpas_mx_and_narrow_surfaces_without_complaint(tmp_path: Path) -> None:
    status, out, err = run(tmp_path, '[#xevm.target<chip = "cri">]')
    assert status == 0, err
    assert out == "128\n"  # 32 products of 1 · 1, times 2^1 · 2^1 (scale codes of 2.0: 128 = 2^1)
    assert err == ""


def test_pvc_program_warns_about_dpas_mx_and_the_narrow_surface(tmp_path: Path) -> None:
    status, out, err = run(tmp_path, "")
    assert status == 0 and out == "128\n"
    assert "t.mlir:17:5: warning: 'xegpu.dpas_mx' op the target pvc has no scaled DPAS" in err
    assert "t.mlir:5:7: warning: 'xegpu.load_nd' op 2D block load of 8x16x1: surface width 16 bytes is below the " \
           "minimum of 64 bytes" in err
    status, _, err = run(tmp_path, "", "--strict")
    assert status != 0 and "t.mlir:17:5: error: 'xegpu.dpas_mx' op the target pvc has no scaled DPAS" in err


def test_the_program_target_wins_over_the_default_and_unknown_chips_are_located(tmp_path: Path) -> None:
    status, _, err = run(tmp_path, '[#xevm.target<chip = "xe9">]')
    assert status != 0 and "t.mlir:2:3: error: unknown target chip 'xe9' in #xevm.target" in err


def test_cri_target_file_cites_or_marks_every_parameter() -> None:
    t = load_target("cri")
    assert t.get("dpas_mx.available") is True and load_target("pvc").get("dpas_mx.available") is False
    assert t.get("block2d.base_alignment_bytes") == 4 and t.get("subgroup.size") == 16
    for name in ("block2d.surface_width_min_bytes", "block2d.pitch_min_bytes"):
        assert t.params[name].assumed


@pytest.mark.parametrize("chip", ["pvc", "bmg", "cri"])
def test_every_known_chip_loads(chip: str) -> None:
    assert load_target(chip).get("subgroup.size") == 16


def test_explain_assumptions_names_the_dpas_mx_model_and_the_assumed_cri_parameters(tmp_path: Path) -> None:
    status, _, err = run(tmp_path, '[#xevm.target<chip = "cri">]', "--explain-assumptions")
    assert status == 0, err
    assert "dpas_mx.numerics = 'exact'" in err and "block2d.surface_width_min_bytes = 4" in err


def test_a_zebin_chip_option_in_a_run_comment_selects_the_target(tmp_path: Path) -> None:
    """Upstream tests name the chip in their RUN line's pipeline options (zebin-chip=cri)."""
    run_line = '// RUN: mlir-opt %s --gpu-lower-to-xevm-pipeline="xegpu-op-level=lane zebin-chip=cri"\n'
    p = tmp_path / "t.mlir"
    p.write_text(run_line + PROGRAM.replace("TARGET", ""))
    status, out, err = run_xesim(["run", str(p)])
    assert status == 0 and out == "128\n" and err == ""  # cri: no dpas_mx warning, no surface warnings
    p.write_text(run_line.replace("cri", "xe9") + PROGRAM.replace("TARGET", ""))
    status, _, err = run_xesim(["run", str(p)])
    assert status != 0 and "t.mlir:1:" in err and "unknown target chip 'xe9' in zebin-chip=" in err


def test_dpas_mx_scales_that_do_not_divide_k_are_a_located_fault(tmp_path: Path) -> None:
    src = PROGRAM.replace("TARGET", "").replace(
        "%s = arith.constant 2.0 : f8E8M0FNU", "%s = arith.constant dense<2.0> : vector<8x3xf8E8M0FNU>\n"
        "    %s2 = arith.constant dense<2.0> : vector<3x16xf8E8M0FNU>").replace(
        "scale_a = %s scale_b = %s : (vector<8x32xf8E4M3FN>, vector<32x16xf8E4M3FN>, f8E8M0FNU, f8E8M0FNU)",
        "scale_a = %s scale_b = %s2 : (vector<8x32xf8E4M3FN>, vector<32x16xf8E4M3FN>, vector<8x3xf8E8M0FNU>, "
        "vector<3x16xf8E8M0FNU>)")
    p = tmp_path / "t.mlir"
    p.write_text(src)
    status, _, err = run_xesim(["run", str(p)])
    assert status == 1 and "internal error" not in err
    assert "t.mlir:18:5: error: 'xegpu.dpas_mx' op K = 32 is not a multiple of the 3 scale blocks" in err
