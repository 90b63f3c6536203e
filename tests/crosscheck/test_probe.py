"""The probe kit and calibration (issue 29 item 3): the probe programs verify and use only upstream ops; for every
DPAS model preset, the probe outputs xesim produces under it calibrate back to it (every parameter either
recovered or reported undecidable, never a wrong value); the overlay is a usable --target file."""

from __future__ import annotations

from pathlib import Path

import pytest

from xesim.api import load
from xesim.cli import main
from xesim.crosscheck.runs import run_logged
from xesim.hw.params import TargetError, load_target
from xesim.numerics.dpas_models import PARAM_NAMES, PRESETS
from xesim.probe.calibrate import CalibrationError, fit, read_outputs, run_checks
from xesim.probe.checks import MATH_FUNCTIONS
from xesim.probe.emit import emit, probe_groups

HERE = Path(__file__).parent

#: The ops of upstream MLIR the probe programs may use (XeGPU at subgroup level, host and GPU dialect ops).
UPSTREAM_OPS = {
    "builtin.module", "gpu.module", "gpu.func", "gpu.return", "gpu.block_id", "gpu.alloc", "gpu.memcpy",
    "gpu.launch_func", "gpu.wait", "func.func", "func.call", "func.return", "arith.constant", "arith.muli",
    "arith.addi", "arith.bitcast", "arith.extui", "arith.truncf", "memref.global", "memref.get_global",
    "memref.alloc", "memref.load", "memref.store", "memref.cast", "scf.for", "scf.yield", "xegpu.create_nd_tdesc",
    "xegpu.load_nd", "xegpu.store_nd", "xegpu.dpas", "vector.shape_cast", "arith.uitofp", "arith.sitofp",
    "arith.index_cast", "arith.subi", "arith.mulf", "arith.extf", *(f"math.{f}" for f in MATH_FUNCTIONS),
}


@pytest.fixture(scope="module")
def probe_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("probes")
    emit(str(d))
    return d


def _run_all(d: Path, model: str) -> None:
    for prog in sorted(d.glob("dpas_*.mlir")):
        text, _, _ = run_logged(load(prog).module, dpas_model=model, jobs=1)
        prog.with_name(prog.name + ".out").write_text(text)


def test_probe_programs_verify_and_use_only_upstream_ops(probe_dir):
    groups, skipped = probe_groups()
    names = sorted(p.name for p in probe_dir.glob("*.mlir"))
    assert names == sorted([f"{g.name}.mlir" for g in groups] + ["block_oob.mlir", "math_points.mlir"])
    assert [s.split(":")[0] for s in skipped] == ["F14"]
    for prog in probe_dir.glob("*.mlir"):
        text = prog.read_text()
        assert ("// PROBE: dpas a=" in text or "// CHECK-PROBE: " in text) and "--gpu-lower-to-xevm-pipeline" in text
        used = {op.name for op in load(prog).walk()}
        assert used <= UPSTREAM_OPS, used - UPSTREAM_OPS


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_probe_outputs_made_under_a_preset_calibrate_back_to_it(probe_dir, tmp_path, preset):
    for prog in probe_dir.glob("*.mlir"):
        (tmp_path / prog.name).write_text(prog.read_text())
    _run_all(tmp_path, preset)
    result = fit(read_outputs(str(tmp_path)))
    assert preset in [m.name for m in result.fitting]
    for p in PARAM_NAMES:
        want = PRESETS[preset][p]
        if p in result.measured:
            assert result.measured[p] == want, (p, result.measured[p], want)
        else:
            assert want in result.undecidable[p], p
    if PRESETS[preset]["group"] == "stage":  # the vectors were chosen to decide these (spec/dpas-numerics.md §6.2)
        assert {"group", "rounding", "src0_order", "stage_order", "in_ftz_bf16"} <= set(result.measured)


def test_calibrate_writes_an_overlay_that_runs_programs_with_the_measured_model(probe_dir, tmp_path, capsys):
    for prog in probe_dir.glob("*.mlir"):
        (tmp_path / prog.name).write_text(prog.read_text())
    _run_all(tmp_path, "single_rounding")
    assert main(["calibrate", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert "presets that fit: single_rounding" in out.out and "measured  acc_format = 'dst'" in out.out
    overlay = tmp_path / "pvc-measured.toml"
    text = overlay.read_text()
    assert 'inherits = "pvc"' in text and 'acc_format = { value = "dst", source = "measured' in text
    # T1 under a single rounding: 1 + 2^-21 (0x3F800004), where the default per-stage model keeps 1.0
    assert main(["run", "--target", str(overlay), str(HERE / "dpas_t1_bf16.mlir")]) == 0
    assert capsys.readouterr().out.rstrip().endswith("1065353220")


def test_calibrate_reports_missing_and_malformed_outputs(probe_dir, tmp_path, capsys):
    with pytest.raises(CalibrationError, match="no probe program with an output"):
        read_outputs(str(tmp_path))
    prog = next(probe_dir.glob("dpas_bf16_f32.mlir"))
    (tmp_path / prog.name).write_text(prog.read_text())
    (tmp_path / (prog.name + ".out")).write_text("hello\n")
    assert main(["calibrate", str(tmp_path)]) == 1
    assert "expected the printMemrefI32 of a 14x2 memref" in capsys.readouterr().err
    with pytest.raises(TargetError, match="no target file"):
        load_target(str(tmp_path / "none.toml"))


def test_check_probes_compare_the_gpu_output_with_xesims_prediction(probe_dir, tmp_path):
    for name in ("block_oob.mlir", "math_points.mlir"):
        text = (probe_dir / name).read_text()
        (tmp_path / name).write_text(text)
        out, _, _ = run_logged(load(tmp_path / name).module, jobs=1)
        (tmp_path / (name + ".out")).write_text(out)
    # what xesim predicts for the block loads, written from the program's comment: S[i][j] = 16i + j + 1, and the
    # 8x16 plain load at [12, 8] of the 16x16 surface reads rows 12..15, columns 8..15, zeros elsewhere
    first = (tmp_path / "block_oob.mlir.out").read_text().split("\n")[1]
    assert first.startswith("[[201,   202,") and first.count("   0") == 8
    lines = run_checks(str(tmp_path))
    assert "  block_oob: the GPU printed what xesim predicts (512 elements)" in lines
    assert "  math.sin: identical to xesim at all 128 points" in lines
    # a GPU whose sin differs in the last bit at one point, and whose plain load fills with garbage
    out = (tmp_path / "math_points.mlir.out").read_text().split("\n")
    row = 1 + 8 * MATH_FUNCTIONS.index("sin") + 3
    first_value = out[row][2:].split(",")[0]
    out[row] = out[row].replace(first_value, str(int(first_value) + 1), 1)
    (tmp_path / "math_points.mlir.out").write_text("\n".join(out))
    oob = (tmp_path / "block_oob.mlir.out").read_text().replace("208,   0,", "208,   7,", 1)
    (tmp_path / "block_oob.mlir.out").write_text(oob)
    lines = run_checks(str(tmp_path))
    assert "  math.sin: 1 of 128 points differ from xesim (max 1 ulp)" in lines
    assert "  block_oob: 1 of 512 elements differ from xesim's prediction" in lines


def test_an_overlay_refines_the_chip_a_program_names(tmp_path, capsys):
    """A program whose gpu.module names chip "pvc" still runs with a --target overlay that inherits pvc."""
    overlay = tmp_path / "pvc-measured.toml"
    overlay.write_text('[target]\nname = "pvc-measured"\ninherits = "pvc"\n\n[dpas.numerics]\n'
                       'group = { value = "all", source = "test" }\nacc_format = { value = "dst", source = "test" }\n')
    text = (HERE / "dpas_t1_bf16.mlir").read_text().replace("gpu.module @kernels {",
                                                             'gpu.module @kernels [#xevm.target<chip = "pvc">] {')
    prog = tmp_path / "t1.mlir"
    prog.write_text(text)
    assert main(["run", "--target", str(overlay), str(prog)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("1065353220")  # the overlay's single rounding
    assert main(["run", str(prog)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("1065353216")
