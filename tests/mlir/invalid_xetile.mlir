// RUN: xesim verify --split-input-file --verify-diagnostics %s
// XeTile verifier rules (shared/spec/xetile.md §2-§3, Appendix A.1): IMEX's checks with IMEX's messages, then the
// checks the spec recommends (§5 Q16 strict mode, Q17, Q20). One case per rule at least.

func.func @type_encoding(%A: memref<64x64xf16>) {
  // expected-error@+1 {{failed to parse XeTile encoding parameter which is to be a `::imex::xetile::XeTileAttr`}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16> -> !xetile.tile<8x16xf16, #xetile.wg_map<sg_layout = [2, 2], sg_data = [4, 8]>>
  return
}

// -----

func.func @attr_order_size(%A: memref<64x64xf16>) {
  // expected-error@+1 {{expect integer array of size 2 for order}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16> -> !xetile.tile<8x16xf16, #xetile.tile_attr<order = [1, 0, 2]>>
  return
}

// -----

func.func @attr_array_length_scattered(%A: memref<64xf16>, %i: vector<8x16xindex>) {
  // expected-error@+1 {{array_length cannot be used with scattered attribute}}
  %0 = xetile.init_tile %A, %i : memref<64xf16>, vector<8x16xindex> -> !xetile.tile<8x16xf16, #xetile.tile_attr<array_length = 2, scattered = true>>
  return
}

// -----

func.func @attr_array_length_zero(%A: memref<64x64xf16>) {
  // expected-error@+1 {{expect integer greater than 0 for array_length}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16> -> !xetile.tile<8x16xf16, #xetile.tile_attr<array_length = 0>>
  return
}

// -----

func.func @wg_map_layout(%A: memref<64x64xf16>) {
  // expected-error@+1 {{expect integer array of size 2 for sg_layout}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16> -> !xetile.tile<8x16xf16, #xetile.tile_attr<wg_map = <sg_layout = [2], sg_data = [4, 8]>>>
  return
}

// -----

func.func @wg_map_data(%A: memref<64x64xf16>) {
  // expected-error@+1 {{expect integer array of size 2 for sg_data}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16> -> !xetile.tile<8x16xf16, #xetile.tile_attr<wg_map = <sg_layout = [2, 2], sg_data = [4, 8, 1]>>>
  return
}

// -----

func.func @sg_map_layout(%A: memref<64x64xf16>) {
  // expected-error@+1 {{expect integer array of size 2 for wi_layout}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16> -> !xetile.tile<8x16xf16, #xetile.tile_attr<sg_map = <wi_layout = [16], wi_data = [1, 1]>>>
  return
}

// -----

func.func @sg_map_data(%A: memref<64x64xf16>) {
  // expected-error@+1 {{expect integer array of size 2 for wi_data}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16> -> !xetile.tile<8x16xf16, #xetile.tile_attr<sg_map = <wi_layout = [1, 16], wi_data = [1]>>>
  return
}

// -----

func.func @order_values(%A: memref<64x64xf16>) {
  // expected-error@+1 {{order must be [1, 0] or [0, 1], got [1, 1]}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16> -> !xetile.tile<8x16xf16, #xetile.tile_attr<order = [1, 1]>>
  return
}

// -----

func.func @dynamic_tile_dim(%A: memref<64x64xf16>) {
  // expected-error@+1 {{tile shape must be static and positive}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16> -> !xetile.tile<?x16xf16>
  return
}

// -----

func.func @base_type(%A: memref<64x64xvector<2xf16>>) {
  // expected-error@+1 {{operand #0 must be memref of scalar values or 64-bit signless integer}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xvector<2xf16>> -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @offsets_count(%A: memref<64x64xf16>) {
  // expected-error@+1 {{expected 2 offset values, got 3}}
  %0 = xetile.init_tile %A[0, 0, 0] : memref<64x64xf16> -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @offsets_sizes_rank(%p: i64) {
  // expected-error@+1 {{expected mixed offsets rank to match mixed sizes rank (2 vs 1) so the rank of the result type is well-formed.}}
  %0 = xetile.init_tile %p[0, 0], [64], [64] : i64 -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @sizes_strides_rank(%p: i64) {
  // expected-error@+1 {{expected mixed sizes rank to match mixed strides rank (2 vs 1) so the rank of the result type is well-formed.}}
  %0 = xetile.init_tile %p[0, 0], [64, 64], [64] : i64 -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @negative_offset(%A: memref<64x64xf16>) {
  // expected-error@+1 {{expected offsets to be non-negative, but got -4}}
  %0 = xetile.init_tile %A[-4, 0] : memref<64x64xf16> -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @negative_size(%p: i64) {
  // expected-error@+1 {{expected sizes to be non-negative, but got -64}}
  %0 = xetile.init_tile %p[0, 0], [-64, 64], [64, 1] : i64 -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @memory_space(%A: memref<64x64xf16, 3>) {
  // expected-error@+1 {{memory space of the tile doesn't match with the source.}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16, 3> -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @scattered_source_rank(%A: memref<64x64xf16>, %i: vector<8x16xindex>) {
  // expected-error@+1 {{Expecting a 0-D or 1-D memref as source.}}
  %0 = xetile.init_tile %A, %i : memref<64x64xf16>, vector<8x16xindex> -> !xetile.tile<8x16xf16, #xetile.tile_attr<scattered = true>>
  return
}

// -----

func.func @scattered_type(%A: memref<64xf16>, %i: vector<8x16xindex>) {
  // expected-error@+1 {{Expecting a scattered TileType.}}
  %0 = xetile.init_tile %A, %i : memref<64xf16>, vector<8x16xindex> -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @scattered_indices_shape(%A: memref<64xf16>, %i: vector<4x16xindex>) {
  // expected-error@+1 {{indices shape [4, 16] must equal the tile shape [8, 16]}}
  %0 = xetile.init_tile %A, %i : memref<64xf16>, vector<4x16xindex> -> !xetile.tile<8x16xf16, #xetile.tile_attr<scattered = true>>
  return
}

// -----

func.func @static_with_sizes(%A: memref<64x64xf16>) {
  // expected-error@+1 {{dynamic sizes are not allowed with a static shaped memref as source}}
  %0 = xetile.init_tile %A[0, 0], [64, 64], [64, 1] : memref<64x64xf16> -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @dynamic_missing_shape(%A: memref<?x?xf16>) {
  // expected-error@+1 {{memref with a dynamic shape or raw address is used as source but dynamic shape argument missing or it is not of valid rank}}
  %0 = xetile.init_tile %A[0, 0] : memref<?x?xf16> -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @row_major_layout(%A: memref<64x64xf16, strided<[1, 64]>>) {
  // expected-error@+1 {{memref operand is expected to have a row-major layout}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16, strided<[1, 64]>> -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @row_major_pitch(%A: memref<32x64xf16, strided<[1024, 1]>>) {
  // expected-error@+1 {{memref operand is expected to have a row-major layout}}
  %0 = xetile.init_tile %A[0, 0] : memref<32x64xf16, strided<[1024, 1]>> -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @column_major_layout(%A: memref<64x64xf16>) {
  // expected-error@+1 {{memref operand is expected to have a column-major layout}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16> -> !xetile.tile<8x16xf16, #xetile.tile_attr<order = [0, 1]>>
  return
}

// -----

func.func @affine_row_major(%A: memref<64x32xf16, affine_map<(d0, d1) -> (d1, d0)>>) {
  // expected-error@+1 {{memref operand is expected to have a row-major layout}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x32xf16, affine_map<(d0, d1) -> (d1, d0)>> -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @affine_column_major(%A: memref<64x32xf16, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>) {
  // expected-error@+1 {{memref operand is expected to have a column-major layout}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x32xf16, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>> -> !xetile.tile<8x16xf16, #xetile.tile_attr<order = [0, 1]>>
  return
}

// -----

func.func @int_shape_empty(%p: i64) {
  // expected-error@+1 {{dynamic shape and strides must not be empty}}
  %0 = xetile.init_tile %p[] : i64 -> !xetile.tile<f16>
  return
}

// -----

func.func @int_row_major_quirk(%p: i64) {
  // expected-error@+1 {{memref operand is expected to have a row-major layout}}
  %0 = xetile.init_tile %p[0, 0], [64, 32], [1, 32] : i64 -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @int_column_major_quirk(%p: i64) {
  // expected-error@+1 {{memref operand is expected to have a column-major layout}}
  %0 = xetile.init_tile %p[0, 0], [64, 32], [1, 64] : i64 -> !xetile.tile<8x16xf16, #xetile.tile_attr<order = [0, 1]>>
  return
}

// -----

func.func @block_rank(%A: memref<64x64xf16>) {
  // expected-error@+1 {{a block tile must have rank 2}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16> -> !xetile.tile<16xf16>
  return
}

// -----

func.func @load_padding_type(%t: !xetile.tile<8x16xf32>) {
  // expected-error@+1 {{attribute 'padding' failed to satisfy constraint: 32-bit signless integer attribute or 32-bit float attribute}}
  %0 = xetile.load_tile %t {padding = 1.0} : !xetile.tile<8x16xf32> -> vector<8x16xf32>
  return
}

// -----

func.func @load_results(%t: !xetile.tile<8x16xf32, #xetile.tile_attr<array_length = 2>>) {
  // expected-error@+1 {{expected 2 result(s) (array_length), got 1}}
  %0 = xetile.load_tile %t : !xetile.tile<8x16xf32, #xetile.tile_attr<array_length = 2>> -> vector<8x16xf32>
  return
}

// -----

func.func @load_shape(%t: !xetile.tile<8x16xf32>) {
  // expected-error@+1 {{result shape [16, 8] must equal the tile shape [8, 16]}}
  %0 = xetile.load_tile %t : !xetile.tile<8x16xf32> -> vector<16x8xf32>
  return
}

// -----

func.func @load_elem(%t: !xetile.tile<8x16xf32>) {
  // expected-error@+1 {{result element type f16 must equal the tile element type f32}}
  %0 = xetile.load_tile %t : !xetile.tile<8x16xf32> -> vector<8x16xf16>
  return
}

// -----

func.func @load_rank(%t: !xetile.tile<8x16xf32>) {
  // expected-error@+1 {{result #0 must be 2D vector of scalar values, but got}}
  %0 = xetile.load_tile %t : !xetile.tile<8x16xf32> -> vector<128xf32>
  return
}

// -----

func.func @load_hint(%t: !xetile.tile<8x16xf32>) {
  // expected-error@+1 {{attribute 'l1_hint' failed to satisfy constraint: XeTile cache hint attribute}}
  %0 = xetile.load_tile %t {l1_hint = 3 : i32} : !xetile.tile<8x16xf32> -> vector<8x16xf32>
  return
}

// -----

func.func @load_scattered(%t: !xetile.tile<8x16xf32, #xetile.tile_attr<scattered = true>>) {
  // expected-error@+1 {{load_tile expects a block tile; use xetile.load for a scattered tile}}
  %0 = xetile.load_tile %t : !xetile.tile<8x16xf32, #xetile.tile_attr<scattered = true>> -> vector<8x16xf32>
  return
}

// -----

func.func @store_elem(%t: !xetile.tile<8x16xf32>, %v: vector<8x16xf16>) {
  // expected-error@+1 {{failed to verify that all of {value, tile} have same element type}}
  xetile.store_tile %v, %t : vector<8x16xf16>, !xetile.tile<8x16xf32>
  return
}

// -----

func.func @store_shape(%t: !xetile.tile<8x16xf32>, %v: vector<16x8xf32>) {
  // expected-error@+1 {{failed to verify that all of {value, tile} have same shape}}
  xetile.store_tile %v, %t : vector<16x8xf32>, !xetile.tile<8x16xf32>
  return
}

// -----

func.func @store_wg_distribution(%t: !xetile.tile<128x128xf32, #xetile.tile_attr<wg_map = <sg_layout = [2, 2], sg_data = [32, 128]>>>, %v: vector<128x128xf32>) {
  // expected-error@+1 {{data is not evenly distributed to each subgroup.}}
  xetile.store_tile %v, %t : vector<128x128xf32>, !xetile.tile<128x128xf32, #xetile.tile_attr<wg_map = <sg_layout = [2, 2], sg_data = [32, 128]>>>
  return
}

// -----

func.func @store_array_length(%t: !xetile.tile<8x16xf32, #xetile.tile_attr<array_length = 2>>, %v: vector<8x16xf32>) {
  // expected-error@+1 {{store_tile writes one block: array_length must be 1}}
  xetile.store_tile %v, %t : vector<8x16xf32>, !xetile.tile<8x16xf32, #xetile.tile_attr<array_length = 2>>
  return
}

// -----

func.func @update_mixed(%t: !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, %a: index) {
  // expected-error@+1 {{row and column offsets apply to block tiles; a scattered tile takes an index vector}}
  %0 = xetile.update_tile_offset %t, [%a, %a] : !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>
  return
}

// -----

func.func @update_vector_block(%t: !xetile.tile<4x16xf32>, %d: vector<4x16xindex>) {
  // expected-error@+1 {{an index vector applies to scattered tiles; a block tile takes [row, column] offsets}}
  %0 = xetile.update_tile_offset %t, %d : !xetile.tile<4x16xf32>, vector<4x16xindex>
  return
}

// -----

func.func @update_vector_shape(%t: !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, %d: vector<64xindex>) {
  // expected-error@+1 {{index vector shape [64] must equal the tile shape [4, 16]}}
  %0 = xetile.update_tile_offset %t, %d : !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, vector<64xindex>
  return
}

// -----

func.func @mma_types(%a: vector<8x16xf16>, %b: vector<16x16xbf16>) {
  // expected-error@+1 {{A and B inputs must have the same type.}}
  %0 = xetile.tile_mma %a, %b : vector<8x16xf16>, vector<16x16xbf16> -> vector<8x16xf32>
  return
}

// -----

func.func @mma_c_type(%a: vector<8x16xf16>, %b: vector<16x16xf16>, %c: vector<8x16xf16>) {
  // expected-error@+1 {{C and output vector must have the same type.}}
  %0 = xetile.tile_mma %a, %b, %c : vector<8x16xf16>, vector<16x16xf16>, vector<8x16xf16> -> vector<8x16xf32>
  return
}

// -----

func.func @mma_sizes(%a: vector<8x16xf16>, %b: vector<32x16xf16>) {
  // expected-error@+1 {{incompatible A, B and output sizes for 2D tile mma op. 2D tile mma should have the shape (m x k) x (k x n) = (m x n).}}
  %0 = xetile.tile_mma %a, %b : vector<8x16xf16>, vector<32x16xf16> -> vector<8x16xf32>
  return
}

// -----

func.func @mma_c_shape(%a: vector<8x16xf16>, %b: vector<16x16xf16>, %c: vector<16x16xf32>) {
  // expected-error@+1 {{input C must have the same shape as output.}}
  %0 = xetile.tile_mma %a, %b, %c : vector<8x16xf16>, vector<16x16xf16>, vector<16x16xf32> -> vector<8x16xf32>
  return
}

// -----

func.func @mma_combination(%a: vector<8x16xf32>, %b: vector<16x16xf32>) {
  // expected-error@+1 {{unsupported tile_mma types: f32 inputs with f32 output}}
  %0 = xetile.tile_mma %a, %b : vector<8x16xf32>, vector<16x16xf32> -> vector<8x16xf32>
  return
}

// -----

func.func @transpose_index(%v: vector<8x16xf32>) {
  // expected-error@+1 {{permutation index out of bounds}}
  %0 = xetile.transpose %v, [1, 2] : vector<8x16xf32> -> vector<16x8xf32>
  return
}

// -----

func.func @transpose_shape(%v: vector<8x16xf32>) {
  // expected-error@+1 {{Incorrect transpose permutation}}
  %0 = xetile.transpose %v, [1, 0] : vector<8x16xf32> -> vector<8x16xf32>
  return
}

// -----

func.func @transpose_not_permutation(%v: vector<16x16xf32>) {
  // expected-error@+1 {{permutation must be [1, 0] or [0, 1], got [1, 1]}}
  %0 = xetile.transpose %v, [1, 1] : vector<16x16xf32> -> vector<16x16xf32>
  return
}

// -----

func.func @reduction_size_dims(%v: vector<16x64xf32>) {
  // expected-error@+1 {{when reduction size is specified, only a single reduction dimension is allowed.}}
  %0 = xetile.reduction <add>, %v [0, 1] {reduction_size = 16 : i64} : vector<16x64xf32> -> vector<1x4xf32>
  return
}

// -----

func.func @reduction_size_result(%v: vector<16x64xf32>) {
  // expected-error@+1 {{reduction size does not match the expected size of the result dimension after reduction.}}
  %0 = xetile.reduction <add>, %v [1] {reduction_size = 16 : i64} : vector<16x64xf32> -> vector<16x8xf32>
  return
}

// -----

func.func @reduction_result_one(%v: vector<16x64xf32>) {
  // expected-error@+1 {{reduction dimension of result must have size 1}}
  %0 = xetile.reduction <add>, %v [1] : vector<16x64xf32> -> vector<16x2xf32>
  return
}

// -----

func.func @reduction_dim_range(%v: vector<16x64xf32>) {
  // expected-error@+1 {{reduction dimension 2 out of range [0, 1]}}
  %0 = xetile.reduction <add>, %v [2] : vector<16x64xf32> -> vector<16x64xf32>
  return
}

// -----

func.func @reduction_kept_dim(%v: vector<16x64xf32>) {
  // expected-error@+1 {{dimension 0 is not reduced: result size 8 must equal source size 16}}
  %0 = xetile.reduction <add>, %v [1] : vector<16x64xf32> -> vector<8x1xf32>
  return
}

// -----

func.func @reduction_size_divides(%v: vector<16x60xf32>) {
  // expected-error@+1 {{source dimension 1 (60) is not a multiple of reduction_size 16}}
  %0 = xetile.reduction <add>, %v [1] {reduction_size = 16 : i64} : vector<16x60xf32> -> vector<16x3xf32>
  return
}

// -----

func.func @reduction_kind_type(%v: vector<16x64xf32>) {
  // expected-error@+1 {{combining kind 'maxsi' applies to integers, not f32}}
  %0 = xetile.reduction <maxsi>, %v [1] : vector<16x64xf32> -> vector<16x1xf32>
  return
}

// -----

func.func @reduction_float_kind_int(%v: vector<16x64xi32>) {
  // expected-error@+1 {{combining kind 'maximumf' applies to floats, not i32}}
  %0 = xetile.reduction <maximumf>, %v [1] : vector<16x64xi32> -> vector<16x1xi32>
  return
}

// -----

func.func @broadcast_source_one(%v: vector<2x64xf32>) {
  // expected-error@+1 {{broadcast dimension of source must have size 1}}
  %0 = xetile.broadcast %v [0] : vector<2x64xf32> -> vector<32x64xf32>
  return
}

// -----

func.func @broadcast_size(%v: vector<1x64xf32>) {
  // expected-error@+1 {{'broadcast_size' is not implemented by XeTile}}
  %0 = xetile.broadcast %v [0] {broadcast_size = 32 : i64} : vector<1x64xf32> -> vector<32x64xf32>
  return
}

// -----

func.func @broadcast_other_dim(%v: vector<1x64xf32>) {
  // expected-error@+1 {{dimension 1 is not broadcast: result size 32 must equal source size 64}}
  %0 = xetile.broadcast %v [0] : vector<1x64xf32> -> vector<32x32xf32>
  return
}

// -----

func.func @convert_layout_required(%v: vector<256x256xf32>) {
  // expected-error@+1 {{requires attribute 'wg_map_result'}}
  %0 = xetile.convert_layout %v : vector<256x256xf32>
  return
}

// -----

func.func @convert_layout_source(%v: vector<256x256xf32>) {
  // expected-error@+1 {{data is not evenly distributed to each subgroup.}}
  %0 = xetile.convert_layout %v {wg_map_result = #xetile.wg_map<sg_layout = [32, 1], sg_data = [8, 256]>, wg_map_source = #xetile.wg_map<sg_layout = [8, 4], sg_data = [32, 48]>} : vector<256x256xf32>
  return
}

// -----

func.func @gather_elem(%t: !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, %m: vector<4x16xi1>) {
  // expected-error@+1 {{failed to verify that all of {tile, value} have same element type}}
  %0 = xetile.load %t, %m : !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, vector<4x16xi1> -> vector<4x16xf16>
  return
}

// -----

func.func @gather_mask_shape(%t: !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, %m: vector<64xi1>) {
  // expected-error@+1 {{failed to verify that all of {value, mask} have same shape}}
  %0 = xetile.load %t, %m : !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, vector<64xi1> -> vector<4x16xf32>
  return
}

// -----

func.func @gather_block_tile(%t: !xetile.tile<4x16xf32>, %m: vector<4x16xi1>) {
  // expected-error@+1 {{expects a scattered tile}}
  %0 = xetile.load %t, %m : !xetile.tile<4x16xf32>, vector<4x16xi1> -> vector<4x16xf32>
  return
}

// -----

func.func @scatter_elem(%t: !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, %m: vector<4x16xi1>, %v: vector<4x16xi32>) {
  // expected-error@+1 {{failed to verify that all of {value, tile} have same element type}}
  xetile.store %v, %t, %m : vector<4x16xi32>, !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, vector<4x16xi1>
  return
}

// -----

func.func @scatter_shape(%t: !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, %m: vector<4x16xi1>, %v: vector<64xf32>) {
  // expected-error@+1 {{failed to verify that all of {value, mask} have same shape}}
  xetile.store %v, %t, %m : vector<64xf32>, !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, vector<4x16xi1>
  return
}

// -----

func.func @atomic_result(%t: !xetile.tile<8x16xf32>, %v: vector<8x16xf32>) {
  // expected-error@+1 {{result type must equal the value type}}
  %0 = xetile.atomic_rmw addf %v, %t : vector<8x16xf32>, !xetile.tile<8x16xf32> -> vector<8x16xi32>
  return
}

// -----

func.func @atomic_shape(%t: !xetile.tile<8x16xf32>, %v: vector<16x8xf32>) {
  // expected-error@+1 {{value shape and element type must equal the tile's}}
  %0 = xetile.atomic_rmw addf %v, %t : vector<16x8xf32>, !xetile.tile<8x16xf32> -> vector<16x8xf32>
  return
}

// -----

func.func @atomic_kind(%t: !xetile.tile<8x16xi32>, %v: vector<8x16xi32>) {
  // expected-error@+1 {{atomic kind 'addf' does not apply to i32 elements}}
  %0 = xetile.atomic_rmw addf %v, %t : vector<8x16xi32>, !xetile.tile<8x16xi32> -> vector<8x16xi32>
  return
}

// -----

func.func @atomic_kind_name(%t: !xetile.tile<8x16xi32>, %v: vector<8x16xi32>) {
  // expected-error@+1 {{expected kind to be one of: addf, addi}}
  %0 = xetile.atomic_rmw "addx" %v, %t : vector<8x16xi32>, !xetile.tile<8x16xi32> -> vector<8x16xi32>
  return
}

// -----

func.func @pack_elem(%v: vector<32x64xf16>) {
  // expected-error@+1 {{input and output vector element type mismatch.}}
  %0 = xetile.tile_pack %v {inner_blocks = array<i64: 8, 16>} : vector<32x64xf16> -> vector<4x4x8x16xf32>
  return
}

// -----

func.func @pack_inner(%v: vector<32x64xf16>) {
  // expected-error@+1 {{innermost 2 dimensions of output vector must satisfy : [8, 16]}}
  %0 = xetile.tile_pack %v {inner_blocks = array<i64: 8, 16>} : vector<32x64xf16> -> vector<4x2x8x32xf16>
  return
}

// -----

func.func @pack_outer(%v: vector<32x64xf16>) {
  // expected-error@+1 {{outermost 2 dimensions of the output vector must satisfy : [4, 4]}}
  %0 = xetile.tile_pack %v {inner_blocks = array<i64: 8, 16>} : vector<32x64xf16> -> vector<4x2x8x16xf16>
  return
}

// -----

func.func @unpack_shape(%v: vector<4x4x8x16xf16>) {
  // expected-error@+1 {{output vector must satisfy : [32, 64]}}
  %0 = xetile.tile_unpack %v {inner_blocks = array<i64: 8, 16>} : vector<4x4x8x16xf16> -> vector<32x32xf16>
  return
}

// -----

// Appendix A.1 (legacy 4-D blocked values)
func.func @blocked_load_shape(%t: !xetile.tile<32x64xf16, #xetile.tile_attr<inner_blocks = [8, 16]>>) {
  // expected-error@+1 {{shapes of the source tile, output value and inner_blocks must satisfy : [32, 64] = [4, 4, 8, 16] blocked by [8, 16]}}
  %0 = xetile.load_tile %t : !xetile.tile<32x64xf16, #xetile.tile_attr<inner_blocks = [8, 16]>> -> vector<4x2x8x16xf16>
  return
}

// -----

func.func @blocked_load_without_inner_blocks(%t: !xetile.tile<32x64xf16>) {
  // expected-error@+1 {{result #0 must be 2D vector of scalar values, but got 'vector<4x4x8x16xf16>' (a 4-D blocked vector needs inner_blocks}}
  %0 = xetile.load_tile %t : !xetile.tile<32x64xf16> -> vector<4x4x8x16xf16>
  return
}

// -----

func.func @blocked_store_2d(%v: vector<32x64xf16>, %t: !xetile.tile<32x64xf16, #xetile.tile_attr<inner_blocks = [8, 16]>>) {
  // expected-error@+1 {{value must be a 4D vector if inner_blocks is used in tile_attr.}}
  xetile.store_tile %v, %t : vector<32x64xf16>, !xetile.tile<32x64xf16, #xetile.tile_attr<inner_blocks = [8, 16]>>
  return
}

// -----

func.func @blocked_mma(%a: vector<4x2x8x16xf16>, %b: vector<4x2x16x16xf16>) {
  // expected-error@+1 {{incompatible A, B and output sizes for 4D tile mma op. 4D tile mma should have the shape (m x k x Bm x Bk) x (k x n x Bk x Bn) = (m x n x Bm x Bn).}}
  %0 = xetile.tile_mma %a, %b : vector<4x2x8x16xf16>, vector<4x2x16x16xf16> -> vector<4x2x8x16xf32>
  return
}

// -----

func.func @rank3(%a: vector<4x8x16xf16>, %b: vector<16x16xf16>) {
  // expected-error@+1 {{operand #0 must be 2D vector of scalar values, but got 'vector<4x8x16xf16>'}}
  %0 = xetile.tile_mma %a, %b : vector<4x8x16xf16>, vector<16x16xf16> -> vector<8x16xf32>
  return
}
