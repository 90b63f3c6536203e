"""xegpu.lane_shuffle (shared/spec/upstream-xegpu-xevm.md §2.11): the spec's own 4-lane example, and a lane-level
kernel whose 16 lanes pack and unpack their fragments (expected values from the spec's formulas, written here)."""

from __future__ import annotations

import numpy as np

from tests.conftest import run_xesim
from xesim.exec.ops.xegpu_mx import shuffle_fragments


def test_the_spec_example_with_four_lanes_of_three() -> None:
    before = np.array([[0, 4, 8], [1, 5, 9], [2, 6, 10], [3, 7, 11]])
    after = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]])
    np.testing.assert_array_equal(shuffle_fragments(before, "pack"), after)
    np.testing.assert_array_equal(shuffle_fragments(after, "unpack"), before)


KERNEL = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%out: memref<16x4xi32>, %back: memref<16x4xi32>) kernel {
      %lane = gpu.lane_id
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %l = arith.index_cast %lane : index to i32
      %c16 = arith.constant 16 : i32
      %s0 = vector.broadcast %l : i32 to vector<4xi32>
      %step = arith.constant dense<[0, 16, 32, 48]> : vector<4xi32>
      %frag = arith.addi %s0, %step : vector<4xi32>
      %p = xegpu.lane_shuffle %frag pack : vector<4xi32>
      %u = xegpu.lane_shuffle %p unpack : vector<4xi32>
      vector.store %p, %out[%lane, %c0] : memref<16x4xi32>, vector<4xi32>
      vector.store %u, %back[%lane, %c0] : memref<16x4xi32>, vector<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %o = gpu.alloc () : memref<16x4xi32>
    %b = gpu.alloc () : memref<16x4xi32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%o : memref<16x4xi32>, %b : memref<16x4xi32>)
    %O = memref.alloc() : memref<16x4xi32>
    %B = memref.alloc() : memref<16x4xi32>
    gpu.memcpy %O, %o : memref<16x4xi32>, memref<16x4xi32>
    gpu.memcpy %B, %b : memref<16x4xi32>, memref<16x4xi32>
    %ou = memref.cast %O : memref<16x4xi32> to memref<*xi32>
    %bu = memref.cast %B : memref<16x4xi32> to memref<*xi32>
    call @printMemrefI32(%ou) : (memref<*xi32>) -> ()
    call @printMemrefI32(%bu) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
}
"""


def test_pack_in_a_lane_level_kernel_puts_logical_positions_in_lane_order(tmp_path) -> None:
    """Lane i element j holds logical position j·16 + i (component-major); after pack lane i element j holds
    position i·4 + j (spec §2.11), i.e. each lane's fragment becomes 4 consecutive positions; unpack restores."""
    p = tmp_path / "k.mlir"
    p.write_text(KERNEL)
    status, out, err = run_xesim(["run", str(p)])
    assert status == 0, err
    rows = [list(map(int, r)) for r in
            (line.strip(" [],").replace(" ", "").split(",") for line in out.splitlines() if line.strip().startswith("["))]
    packed, back = rows[:16], rows[16:]
    assert packed == [[4 * i + j for j in range(4)] for i in range(16)]
    assert back == [[16 * j + i for j in range(4)] for i in range(16)]
