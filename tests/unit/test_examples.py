"""The example programs in examples/ pass `xesim check` (their own CHECK lines), including the lane-level
(SIMT) ones: simt_dpas_f16.mlir from the spec and the lane-level rewrites of the SG examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_xesim

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ALL = sorted(p.name for p in EXAMPLES.glob("*.mlir"))


def test_the_lane_level_examples_are_there() -> None:
    assert {"simt_dpas_f16.mlir", "lane_gemm_f16.mlir", "lane_block_loads.mlir"} <= set(ALL)


@pytest.mark.parametrize("name", ALL)
def test_example_passes_its_check_lines(name: str) -> None:
    status, _, err = run_xesim(["check", str(EXAMPLES / name)])
    assert status == 0, err
