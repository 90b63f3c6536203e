"""Issue 30, "Why": N-D descriptors that today's upstream (and late-2025 programs) use — batched 3-D block
descriptors (upstream-xegpu-xevm.md §2.1, §2.3: each leading index an independent plane, bounds per plane) and the
legacy 3-D scattered descriptor with chunks (§2.19; the same as rank-2 offsets with chunk_size).  Expected values
are numpy slices of the inputs."""

from __future__ import annotations

import numpy as np

from tests.unit.test_exec_xegpu import error_of, run

BATCHED = """
func.func @main(%m: memref<4x32x32xf16>, %o: memref<4x32x32xf16>) -> vector<2x16x16xf16> {
  %c1 = arith.constant 1 : index
  %t = xegpu.create_nd_tdesc %m : memref<4x32x32xf16> -> !xegpu.tensor_desc<2x16x16xf16>
  %v = xegpu.load_nd %t[%c1, 8, 16] : !xegpu.tensor_desc<2x16x16xf16> -> vector<2x16x16xf16>
  %to = xegpu.create_nd_tdesc %o : memref<4x32x32xf16> -> !xegpu.tensor_desc<2x16x16xf16>
  xegpu.store_nd %v, %to[3, 24, 0] : vector<2x16x16xf16>, !xegpu.tensor_desc<2x16x16xf16>
  %w = xegpu.load_nd %t[3, 24, 24] : !xegpu.tensor_desc<2x16x16xf16> -> vector<2x16x16xf16>
  return %w : vector<2x16x16xf16>
}
"""


def test_batched_block_descriptor_loads_and_stores_planes_with_per_plane_bounds() -> None:
    m = (np.arange(4 * 32 * 32) % 2000).astype(np.float16).reshape(4, 32, 32)
    o = np.zeros((4, 32, 32), np.float16)
    r = run(BATCHED, m, o)
    out = r.arrays[1]
    # plane 3 gets plane 1's rows 8..15 at rows 24..31 (rows 32..39 fall outside the plane and are dropped, not
    # written into another plane); plane 4 does not exist: plane 2's block is dropped
    want = np.zeros((4, 32, 32), np.float16)
    want[3, 24:32, 0:16] = m[1, 8:16, 16:32]
    np.testing.assert_array_equal(out, want)
    # plane 3 rows 24..39, cols 24..39: only the 8x8 corner inside the plane; plane 4 reads zeros
    w = np.zeros((2, 16, 16), np.float16)
    w[0, :8, :8] = m[3, 24:32, 24:32]
    np.testing.assert_array_equal(r.values[0], w)


def test_batched_block_descriptor_shape_must_match_the_value() -> None:
    src = """
func.func @main(%m: memref<4x32x32xf16>) -> vector<16x16xf16> {
  %t = xegpu.create_nd_tdesc %m : memref<4x32x32xf16> -> !xegpu.tensor_desc<2x16x16xf16>
  %v = xegpu.load_nd %t[0, 0, 0] : !xegpu.tensor_desc<2x16x16xf16> -> vector<16x16xf16>
  return %v : vector<16x16xf16>
}
"""
    assert "t.mlir:4:3: error: 'xegpu.load_nd' op Result shape [16, 16] is not consistent with tensor descriptor " \
           "!xegpu.tensor_desc<2x16x16xf16>" in error_of(run, src, np.zeros((4, 32, 32), np.float16))


SCATTERED_3D = """
func.func @main(%m: memref<64xf16>) -> (vector<2x4x2xf16>, vector<2x4x2xf16>) {
  %off = arith.constant dense<[[0, 4, 8, 12], [16, 20, 24, 28]]> : vector<2x4xindex>
  %mask = arith.constant dense<[[true, true, false, true], [true, true, true, true]]> : vector<2x4xi1>
  %t = xegpu.create_tdesc %m, %off : memref<64xf16>, vector<2x4xindex> -> !xegpu.tensor_desc<2x4x2xf16, #xegpu.scatter_tdesc_attr<chunk_size = 2>>
  %v = xegpu.load %t, %mask : !xegpu.tensor_desc<2x4x2xf16, #xegpu.scatter_tdesc_attr<chunk_size = 2>>, vector<2x4xi1> -> vector<2x4x2xf16>
  %w = xegpu.load %m[%off], %mask <{chunk_size = 2}> : memref<64xf16>, vector<2x4xindex>, vector<2x4xi1> -> vector<2x4x2xf16>
  return %v, %w : vector<2x4x2xf16>, vector<2x4x2xf16>
}
"""


def test_legacy_3d_scattered_descriptor_with_chunks_equals_rank_2_offsets() -> None:
    m = np.arange(64, dtype=np.float16)
    v, w = run(SCATTERED_3D, m).values
    offs = np.array([[0, 4, 8, 12], [16, 20, 24, 28]])
    mask = np.array([[1, 1, 0, 1], [1, 1, 1, 1]], bool)
    want = np.where(mask[..., None], m[offs[..., None] + np.arange(2)], 0)
    np.testing.assert_array_equal(v, want)
    np.testing.assert_array_equal(w, want)
