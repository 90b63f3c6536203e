"""Batched (rank 3-5) block descriptors at lane level and under the observers (issue 30): the values are checked by
tests/e2e/lane_batched_descriptors.mlir; here the race detector, the memory checker and the tracer see one 2-D
block per plane that exists (upstream-xegpu-xevm.md §2.3 "Batched descriptors": planes are independent, a plane
index outside the source has no elements)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import xesim.trace
from tests.conftest import run_xesim


def _program(body: str, threads: int = 16) -> str:
    """One workgroup of ``threads`` lanes running ``body`` with %t = a 2x8x16 descriptor of %buf (4x16x32 f16),
    %lane, %sg (the subgroup id) and %v = a vector<16xf16> of ones."""
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k(%buf: memref<4x16x32xf16>) kernel {{
      %sg = gpu.subgroup_id : index
      %v = arith.constant dense<1.0> : vector<16xf16>
      %t = xegpu.create_nd_tdesc %buf : memref<4x16x32xf16> -> !xegpu.tensor_desc<2x8x16xf16>
{body}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %cT = arith.constant {threads} : index
    %d = gpu.alloc () : memref<4x16x32xf16>
    %z = arith.constant 0.0 : f16
    gpu.memset %d, %z : memref<4x16x32xf16>, f16
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%cT, %c1, %c1) args(%d : memref<4x16x32xf16>)
    gpu.dealloc %d : memref<4x16x32xf16>
    return
  }}
}}
"""


def _run(tmp_path: Path, text: str, *flags: str) -> tuple[int, str, str]:
    f = tmp_path / "p.mlir"
    f.write_text(text)
    return run_xesim(["run", *flags, str(f)])


def test_two_subgroups_storing_overlapping_planes_race(tmp_path: Path) -> None:
    """Subgroup 0 stores 1s to planes 0-1, subgroup 1 stores 2s to planes 1-2 at the same rows and columns: plane 1
    is written by both with different values, unordered: a race (the store's footprint is per plane)."""
    body = ("      %si = arith.index_cast %sg : index to i32\n"
            "      %sf = arith.sitofp %si : i32 to f16\n"
            "      %sv = vector.broadcast %sf : f16 to vector<16xf16>\n"
            "      %w = arith.addf %v, %sv : vector<16xf16>\n"
            "      xegpu.store_nd %w, %t[%sg, 0, 0] : vector<16xf16>, !xegpu.tensor_desc<2x8x16xf16>")
    status, out, err = _run(tmp_path, _program(body, threads=32), "--check-races")
    assert status != 0 and "race" in err.lower(), err


def test_two_subgroups_storing_disjoint_planes_do_not_race(tmp_path: Path) -> None:
    """Subgroup s stores planes 2s and 2s+1: no byte is shared, no race (a footprint spanning the planes between
    the first and last would report one)."""
    body = ("      %c2 = arith.constant 2 : index\n"
            "      %p = arith.muli %sg, %c2 : index\n"
            "      xegpu.store_nd %v, %t[%p, 0, 0] : vector<16xf16>, !xegpu.tensor_desc<2x8x16xf16>")
    status, out, err = _run(tmp_path, _program(body, threads=32), "--check-races")
    assert status == 0, err


def test_memory_checker_reports_a_block_outside_its_plane_not_a_missing_plane(tmp_path: Path) -> None:
    """Planes 3 and 4 at rows 12..19: plane 3's block is partly outside its plane (rows 16..19: a bounds warning
    naming 32 of 128 elements dropped); plane 4 does not exist (no finding for it)."""
    body = "      xegpu.store_nd %v, %t[3, 12, 0] : vector<16xf16>, !xegpu.tensor_desc<2x8x16xf16>"
    status, out, err = _run(tmp_path, _program(body), "--check-memory=bounds")
    assert status == 0, err
    findings = [ln for ln in err.splitlines() if "partly outside" in ln or "entirely outside" in ln]
    assert len(findings) == 1, err
    assert "a block of 8x16 elements at (row 12, column 0) partly outside" in findings[0]
    assert "64 of its 128 elements are dropped" in findings[0], findings[0]


def test_tracer_records_one_block_window_per_existing_plane(tmp_path: Path) -> None:
    body = ("      xegpu.store_nd %v, %t[1, 0, 16] : vector<16xf16>, !xegpu.tensor_desc<2x8x16xf16>\n"
            "      xegpu.store_nd %v, %t[3, 0, 0] : vector<16xf16>, !xegpu.tensor_desc<2x8x16xf16>")
    trace = tmp_path / "t.xetrace"
    status, out, err = _run(tmp_path, _program(body), "--trace", str(trace))
    assert status == 0, err
    blocks = xesim.trace.load(trace).blocks
    offsets = sorted(int(o) for o in np.asarray(blocks["surface_offset"]))
    plane = 16 * 32 * 2  # bytes per plane
    # first store: planes 1 and 2; second: plane 3 only (plane 4 does not exist)
    assert offsets == [plane, 2 * plane, 3 * plane], offsets
    assert sorted(int(x) for x in np.asarray(blocks["x"])) == [0, 16, 16]
