"""The lane-level XeVM programs of tests/e2e/xevm_*.mlir are what tools/gen_xevm_programs.py generates: their CHECK
lines come from the generator's own numpy / ml_dtypes / Fraction model of the spec's rules (upstream-xegpu-xevm.md
§4.1-§4.6), never from xesim."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"xevm_blockload2d_plain.mlir", "xevm_blockload2d_vblocks.mlir", "xevm_blockload2d_transpose.mlir",
         "xevm_blockload2d_pack_register.mlir", "xevm_blockstore2d.mlir", "xevm_mma.mlir", "xevm_mma_mx.mlir",
         "xevm_mma_mx_e2m1.mlir"}


def test_xevm_programs_are_up_to_date_with_their_generator() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_xevm_programs.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert NAMES <= {p.name for p in (ROOT / "tests" / "e2e").glob("xevm_*.mlir")}


def test_the_generator_does_not_import_xesim() -> None:
    text = (ROOT / "tools" / "gen_xevm_programs.py").read_text()
    assert "import xesim" not in text and "from xesim" not in text


def test_the_programs_are_lane_level_xevm_with_check_lines() -> None:
    for name in NAMES:
        text = (ROOT / "tests" / "e2e" / name).read_text()
        assert "// RUN: xesim check %s" in text and "// CHECK-NEXT:" in text
        assert "xevm." in text and "!llvm.ptr<1>" in text and "gpu.launch_func" in text
