"""The example programs in examples/ pass `xesim check` (their own CHECK lines).  simt_dpas_f16.mlir is a
lane-level XeGPU program: until lane-level execution exists (issue 5) it must stop with the located
"not supported yet" error — this test then fails and the example joins the passing list."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_xesim

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LANE_LEVEL_PENDING = {"simt_dpas_f16.mlir"}
ALL = sorted(p.name for p in EXAMPLES.glob("*.mlir"))


@pytest.mark.parametrize("name", [n for n in ALL if n not in LANE_LEVEL_PENDING])
def test_example_passes_its_check_lines(name: str) -> None:
    status, _, err = run_xesim(["check", str(EXAMPLES / name)])
    assert status == 0, err


@pytest.mark.parametrize("name", sorted(LANE_LEVEL_PENDING))
def test_lane_level_example_is_reported_as_not_supported_yet(name: str) -> None:
    status, _, err = run_xesim(["run", str(EXAMPLES / name)])
    assert status == 1
    assert "lane-level XeGPU programs are not supported yet" in err.splitlines()[0]
