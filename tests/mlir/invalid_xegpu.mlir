// RUN: xesim verify --split-input-file --verify-diagnostics %s
// XeGPU verifier rules (shared/spec/programs-and-runner.md §4.4): one case per rule at least.

// ----------------------------------------------------------------------------- create_nd_tdesc

func.func @create_nd_tdesc_memory_space(%src: memref<24xf32>) {
  // expected-error@+1 {{Memory space mismatch. Source: 0, TensorDesc: 3}}
  %0 = xegpu.create_nd_tdesc %src : memref<24xf32> -> !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>
  return
}

// -----

func.func @create_nd_tdesc_integer_needs_shape(%p: i64) {
  // expected-error@+1 {{expecting strides and shape to be present for integer source}}
  %0 = xegpu.create_nd_tdesc %p : i64 -> !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @create_nd_tdesc_shape_strides_rank(%p: ui64, %h: index, %w: index) {
  // expected-error@+1 {{'xegpu.create_nd_tdesc' op Expecting the rank of shape and strides to match.}}
  %0 = xegpu.create_nd_tdesc %p, shape : [%h, %w], strides : [1] : ui64 -> !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @create_nd_tdesc_offsets_rank(%src: memref<64x64xf32>) {
  // expected-error@+1 {{Expecting the rank of shape, strides, offsets}}
  %0 = xegpu.create_nd_tdesc %src[0, 0, 0] : memref<64x64xf32> -> !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @create_nd_tdesc_tdesc_rank(%src: memref<64xf32>) {
  // expected-error@+1 {{'xegpu.create_nd_tdesc' op Expecting the TensorDesc rank is not greater than the ranks of shape, strides or the memref source.}}
  %0 = xegpu.create_nd_tdesc %src : memref<64xf32> -> !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @create_nd_tdesc_element_type(%src: memref<64x64xf16>) {
  // expected-error@+1 {{TensorDesc should have the same element type with the source if it is a memref}}
  %0 = xegpu.create_nd_tdesc %src : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @create_nd_tdesc_scattered(%src: memref<64x64xf32>) {
  // expected-error@+1 {{'xegpu.create_nd_tdesc' op Expects a non-scattered TensorDesc}}
  %0 = xegpu.create_nd_tdesc %src : memref<64x64xf32> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
  return
}

// -----

func.func @create_nd_tdesc_bad_source(%v: vector<16xf32>) {
  // expected-error@+1 {{operand #0 must be ranked memref or integer pointer}}
  %0 = xegpu.create_nd_tdesc %v : vector<16xf32> -> !xegpu.tensor_desc<16xf32>
  return
}

// ----------------------------------------------------------------------------- TensorDescType

// -----

func.func @tdesc_rank_zero(%src: memref<64x64xf32>) {
  // expected-error@+1 {{expected non-zero rank tensor}}
  %0 = xegpu.create_nd_tdesc %src : memref<64x64xf32> -> !xegpu.tensor_desc<f32>
  return
}

// -----

func.func @tdesc_slm_2d(%src: memref<64x64xf32, 3>) {
  // expected-error@+1 {{SLM is only supported for 1D block tensor}}
  %0 = xegpu.create_nd_tdesc %src : memref<64x64xf32, 3> -> !xegpu.tensor_desc<8x16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>
  return
}

// -----

func.func @tdesc_index_element(%src: memref<64x64xindex>) {
  // expected-error@+1 {{expected integer or float element type for tensor_desc, got 'index'}}
  %0 = xegpu.create_nd_tdesc %src : memref<64x64xindex> -> !xegpu.tensor_desc<8x16xindex>
  return
}

// -----

func.func @tdesc_layout_rank(%src: memref<64x64xf32>) {
  // expected-error@+1 {{expected layout rank to match tensor rank}}
  %0 = xegpu.create_nd_tdesc %src : memref<64x64xf32> -> !xegpu.tensor_desc<8x16xf32, #xegpu.layout<lane_layout = [16], lane_data = [1]>>
  return
}

// -----

func.func @tdesc_layout_distribution(%src: memref<64x64xf32>) {
  // expected-error@+1 {{cannot distribute [4, 8] using #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>}}
  %0 = xegpu.create_nd_tdesc %src : memref<64x64xf32> -> !xegpu.tensor_desc<4x8xf32, #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>>
  return
}

// -----

func.func @tdesc_wg_layout_distribution(%src: memref<256x256xf32>) {
  // expected-error@+1 {{cannot distribute [128, 96] using}}
  %0 = xegpu.create_nd_tdesc %src : memref<256x256xf32> -> !xegpu.tensor_desc<128x96xf32, #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32]>>
  return
}

// -----

func.func @tdesc_scatter_1d_chunk(%src: memref<1024xf32>, %off: vector<16xindex>) {
  // expected-error@+1 {{expected non-contiguous elements for 1D tensor}}
  %0 = xegpu.create_tdesc %src, %off : memref<1024xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<chunk_size = 2 : i64>>
  return
}

// -----

func.func @tdesc_scatter_chunk_dim(%src: memref<1024xf32>, %off: vector<16xindex>) {
  // expected-error@+1 {{expected last dim of tensor to match chunk size}}
  %0 = xegpu.create_tdesc %src, %off : memref<1024xf32>, vector<16xindex> -> !xegpu.tensor_desc<16x4xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>
  return
}

// -----

func.func @tdesc_scatter_chunk_packing(%src: memref<1024xf16>, %off: vector<16xindex>) {
  // expected-error@+1 {{expected last dim of tensor to be a multiple of 2}}
  %0 = xegpu.create_tdesc %src, %off : memref<1024xf16>, vector<16xindex> -> !xegpu.tensor_desc<16x3xf16, #xegpu.scatter_tdesc_attr<chunk_size = 3 : i64>>
  return
}

// -----

func.func @tdesc_scatter_lane_data(%src: memref<1024xf16>, %off: vector<16xindex>) {
  // expected-error@+1 {{expected last dim of lane_data to be a multiple of: 2}}
  %0 = xegpu.create_tdesc %src, %off : memref<1024xf16>, vector<16xindex> -> !xegpu.tensor_desc<16x8xf16, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>, #xegpu.layout<lane_layout = [16, 1], lane_data = [1, 1]>>
  return
}

// ----------------------------------------------------------------------------- layout attributes

// -----

func.func @layout_sg_data_missing(%src: memref<256x256xf32>) {
  // expected-error@+1 {{sg_layout and sg_data must be used together}}
  %0 = xegpu.create_nd_tdesc %src : memref<256x256xf32> -> !xegpu.tensor_desc<128x128xf32, #xegpu.layout<sg_layout = [4, 4]>>
  return
}

// -----

func.func @layout_lane_data_missing(%src: memref<64x64xf32>) {
  // expected-error@+1 {{lane_layout and lane_data must be used together}}
  %0 = xegpu.create_nd_tdesc %src : memref<64x64xf32> -> !xegpu.tensor_desc<8x16xf32, #xegpu.layout<lane_layout = [1, 16]>>
  return
}

// -----

func.func @layout_nothing(%src: memref<64x64xf32>) {
  // expected-error@+1 {{expected at least one of sg_layout, inst_data or lane_layout}}
  %0 = xegpu.create_nd_tdesc %src : memref<64x64xf32> -> !xegpu.tensor_desc<8x16xf32, #xegpu.layout<order = [1, 0]>>
  return
}

// -----

func.func @layout_ranks_agree(%src: memref<256x256xf32>) {
  // expected-error@+1 {{expected sg_layout and lane_layout to have the same rank}}
  %0 = xegpu.create_nd_tdesc %src : memref<256x256xf32> -> !xegpu.tensor_desc<128x128xf32, #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32], lane_layout = [16], lane_data = [1]>>
  return
}

// -----

func.func @layout_sg_data_rank(%src: memref<256x256xf32>) {
  // expected-error@+1 {{expected sg_data and sg_layout to have the same rank}}
  %0 = xegpu.create_nd_tdesc %src : memref<256x256xf32> -> !xegpu.tensor_desc<128x128xf32, #xegpu.layout<sg_layout = [4, 4], sg_data = [32]>>
  return
}

// -----

func.func @layout_order_without_layout(%src: memref<64x64xf32>) {
  // expected-error@+1 {{expected sg_layout/lane_layout being used with order}}
  %0 = xegpu.create_nd_tdesc %src : memref<64x64xf32> -> !xegpu.tensor_desc<8x16xf32, #xegpu.layout<inst_data = [8, 16], order = [1, 0]>>
  return
}

// -----

func.func @layout_order_rank(%src: memref<64x64xf32>) {
  // expected-error@+1 {{expected order and lane_layout to have the same rank}}
  %0 = xegpu.create_nd_tdesc %src : memref<64x64xf32> -> !xegpu.tensor_desc<8x16xf32, #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1], order = [0]>>
  return
}

// -----

func.func @layout_unknown_parameter(%src: memref<64x64xf32>) {
  // expected-error@+1 {{unknown parameter 'lane_layot' in #xegpu.layout}}
  %0 = xegpu.create_nd_tdesc %src : memref<64x64xf32> -> !xegpu.tensor_desc<8x16xf32, #xegpu.layout<lane_layot = [1, 16], lane_data = [1, 1]>>
  return
}

// -----

#l = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32]>
func.func @slice_repeated_dim(%v: vector<256x128xf32>) {
  // expected-error@+1 {{repeated dim (0) in slice attribute.}}
  %0 = xegpu.convert_layout %v <{input_layout = #xegpu.slice<#l, dims = [0, 0]>, target_layout = #l}> : vector<256x128xf32>
  return
}

// -----

#l = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32]>
func.func @slice_dim_range(%v: vector<128xf32>) {
  // expected-error@+1 {{invalid dim (2) in slice attribute.}}
  %0 = xegpu.convert_layout %v <{input_layout = #xegpu.slice<#l, dims = [2]>, target_layout = #xegpu.slice<#l, dims = [0]>}> : vector<128xf32>
  return
}

// ----------------------------------------------------------------------------- load_nd

// -----

func.func @load_nd_batched_shape(%t: !xegpu.tensor_desc<2x8x16xf32>) {
  // expected-error@+1 {{'xegpu.load_nd' op Result shape [8, 16] is not consistent with tensor descriptor !xegpu.tensor_desc<2x8x16xf32>}}
  %0 = xegpu.load_nd %t[0, 0, 0] : !xegpu.tensor_desc<2x8x16xf32> -> vector<8x16xf32>
  return
}

// -----

func.func @load_nd_hint(%t: !xegpu.tensor_desc<8x16xf32>) {
  // expected-error@+1 {{invalid l1_hint: #xegpu.cache_hint<write_back>}}
  %0 = xegpu.load_nd %t <{l1_hint = #xegpu.cache_hint<write_back>}> : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  return
}

// -----

func.func @load_nd_hint_l2(%t: !xegpu.tensor_desc<8x16xf32>) {
  // expected-error@+1 {{invalid l2_hint: #xegpu.cache_hint<write_through>}}
  %0 = xegpu.load_nd %t {l2_hint = #xegpu.cache_hint<write_through>} : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  return
}

// -----

func.func @load_nd_unknown_hint(%t: !xegpu.tensor_desc<8x16xf32>) {
  // expected-error@+1 {{invalid value #xegpu.cache_hint<hot> for attribute 'l1_hint'}}
  %0 = xegpu.load_nd %t <{l1_hint = #xegpu.cache_hint<hot>}> : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  return
}

// -----

func.func @load_nd_simt_layout(%t: !xegpu.tensor_desc<8x16xf32, #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>>) {
  // expected-error@+1 {{TensorDesc doesn't need LayoutAttr for SIMT code}}
  %0 = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf32, #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>> -> vector<8xf32>
  return
}

// -----

func.func @load_nd_simt_distribution(%t: !xegpu.tensor_desc<8x16xf32>) {
  // expected-error@+1 {{Result shape [3] is not a valid distribution for tensor descriptor !xegpu.tensor_desc<8x16xf32>}}
  %0 = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf32> -> vector<3xf32>
  return
}

// -----

func.func @load_nd_simd_shape(%t: !xegpu.tensor_desc<8x16xf32>) {
  // expected-error@+1 {{Result shape [16, 8] is not consistent with tensor descriptor !xegpu.tensor_desc<8x16xf32>}}
  %0 = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf32> -> vector<16x8xf32>
  return
}

// -----

func.func @load_nd_packed_shape(%t: !xegpu.tensor_desc<16x16xf16>) {
  // expected-error@+1 {{Result shape [16, 16, 2] is not consistent with tensor descriptor}}
  %0 = xegpu.load_nd %t <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<16x16x2xf16>
  return
}

// -----

func.func @load_nd_transpose_shape(%t: !xegpu.tensor_desc<16x8xf32>) {
  // expected-error@+1 {{Result shape [16, 8] is not consistent with tensor descriptor}}
  %0 = xegpu.load_nd %t <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x8xf32> -> vector<16x8xf32>
  return
}

// -----

func.func @load_nd_array_length(%t: !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>) {
  // expected-error@+1 {{Result shape [32, 16] is not consistent with tensor descriptor}}
  %0 = xegpu.load_nd %t : !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<32x16xf16>
  return
}

// -----

func.func @load_nd_offsets_rank(%t: !xegpu.tensor_desc<8x16xf32>) {
  // expected-error@+1 {{Mismatched ranks between offsets and tensor descriptor}}
  %0 = xegpu.load_nd %t[0, 0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  return
}

// -----

func.func @load_nd_invalid_transpose(%t: !xegpu.tensor_desc<8x16xf32>) {
  // expected-warning@+1 {{Invalid transpose attr. It is ignored.}}
  %0 = xegpu.load_nd %t <{transpose = array<i64: 2, 0>}> : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  return
}

// -----

func.func @load_nd_packed_1d(%t: !xegpu.tensor_desc<32xf16>) {
  // expected-warning@+1 {{Invalid Packed Attr. It is ignored (available for 2D TensorDesc only).}}
  %0 = xegpu.load_nd %t <{packed}> : !xegpu.tensor_desc<32xf16> -> vector<32xf16>
  return
}

// -----

func.func @load_nd_transpose_bit_width(%t: !xegpu.tensor_desc<16x16xf16>) {
  // expected-error@+1 {{transpose_bit_width must be 32}}
  %0 = xegpu.load_nd %t {transpose = [1, 0], transpose_bit_width = 16 : i32} : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
  return
}

// -----

func.func @load_nd_scattered(%t: !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>) {
  // expected-error@+1 {{'xegpu.load_nd' op Expects a non-scattered TensorDesc}}
  %0 = xegpu.load_nd %t : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>> -> vector<16xf32>
  return
}

// -----

func.func @load_nd_anchor_layout(%t: !xegpu.tensor_desc<8x8xf32>) {
  // expected-error@+1 {{'xegpu.load_nd' op TensorDesc shape is not distributable with the layout}}
  %0 = xegpu.load_nd %t <{layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>}> : !xegpu.tensor_desc<8x8xf32> -> vector<8x8xf32>
  return
}

// ----------------------------------------------------------------------------- store_nd

// -----

func.func @store_nd_array_length(%v: vector<64x16xf16>, %t: !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>) {
  // expected-error@+1 {{array length is not supported by store_nd}}
  xegpu.store_nd %v, %t : vector<64x16xf16>, !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>
  return
}

// -----

func.func @store_nd_hint(%v: vector<8x16xf32>, %t: !xegpu.tensor_desc<8x16xf32>) {
  // expected-error@+1 {{invalid l3_hint: #xegpu.cache_hint<read_invalidate>}}
  xegpu.store_nd %v, %t <{l3_hint = #xegpu.cache_hint<read_invalidate>}> : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @store_nd_streaming(%v: vector<8x16xf32>, %t: !xegpu.tensor_desc<8x16xf32>) {
  // expected-error@+1 {{invalid l1_hint: #xegpu.cache_hint<streaming>}}
  xegpu.store_nd %v, %t {l1_hint = #xegpu.cache_hint<streaming>} : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @store_nd_simt_layout(%v: vector<8xf32>, %t: !xegpu.tensor_desc<8x16xf32, #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>>) {
  // expected-error@+1 {{TensorDesc doesn't need LayoutAttr for SIMT code}}
  xegpu.store_nd %v, %t : vector<8xf32>, !xegpu.tensor_desc<8x16xf32, #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>>
  return
}

// -----

func.func @store_nd_simt_distribution(%v: vector<5xf32>, %t: !xegpu.tensor_desc<8x16xf32>) {
  // expected-error@+1 {{Value shape [5] is not a valid distribution for tensor descriptor}}
  xegpu.store_nd %v, %t : vector<5xf32>, !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @store_nd_shape(%v: vector<16x8xf32>, %t: !xegpu.tensor_desc<8x16xf32>) {
  // expected-error@+1 {{Value shape [16, 8] is not consistent with tensor descriptor}}
  xegpu.store_nd %v, %t : vector<16x8xf32>, !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @store_nd_batched_offsets(%v: vector<2x8x16xf32>, %t: !xegpu.tensor_desc<2x8x16xf32>) {
  // expected-error@+1 {{'xegpu.store_nd' op Mismatched ranks between offsets and tensor descriptor}}
  xegpu.store_nd %v, %t[0, 0] : vector<2x8x16xf32>, !xegpu.tensor_desc<2x8x16xf32>
  return
}

// ----------------------------------------------------------------------------- prefetch_nd, update_nd_offset

// -----

func.func @prefetch_nd_offsets(%t: !xegpu.tensor_desc<8x16xf16>, %x: index) {
  // expected-error@+1 {{Mismatched ranks between offsets and tensor descriptor}}
  xegpu.prefetch_nd %t[%x] : !xegpu.tensor_desc<8x16xf16>
  return
}

// -----

func.func @prefetch_nd_hint(%t: !xegpu.tensor_desc<8x16xf16>) {
  // expected-error@+1 {{invalid l1_hint: #xegpu.cache_hint<write_back>}}
  xegpu.prefetch_nd %t <{l1_hint = #xegpu.cache_hint<write_back>}> : !xegpu.tensor_desc<8x16xf16>
  return
}

// -----

func.func @prefetch_nd_layout(%t: !xegpu.tensor_desc<24x16xf16>) {
  // expected-error@+1 {{'xegpu.prefetch_nd' op TensorDesc shape is not distributable with the layout}}
  xegpu.prefetch_nd %t <{layout = #xegpu.layout<inst_data = [16, 16]>}> : !xegpu.tensor_desc<24x16xf16>
  return
}

// -----

func.func @update_nd_offset_count(%t: !xegpu.tensor_desc<8x16xf32>, %c16: index) {
  // expected-error@+1 {{Invalid number of offsets.}}
  %0 = xegpu.update_nd_offset %t, [%c16] : !xegpu.tensor_desc<8x16xf32>
  return
}

// ----------------------------------------------------------------------------- create_tdesc, update_offset

// -----

func.func @create_tdesc_not_scattered(%src: memref<1024xf32>, %off: vector<16xindex>) {
  // expected-error@+1 {{Expects a scattered TensorDesc.}}
  %0 = xegpu.create_tdesc %src, %off : memref<1024xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32>
  return
}

// -----

func.func @create_tdesc_shape(%src: memref<1024xf32>, %off: vector<8xindex>) {
  // expected-error@+1 {{Incorrect TensorDesc shape. Expected is [8, 8]}}
  %0 = xegpu.create_tdesc %src, %off : memref<1024xf32>, vector<8xindex> -> !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>
  return
}

// -----

func.func @create_tdesc_offsets(%src: memref<1024xf32>, %off: vector<16xi32>) {
  // expected-error@+1 {{operand #1 must be vector of index values}}
  %0 = xegpu.create_tdesc %src, %off : memref<1024xf32>, vector<16xi32> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
  return
}

// -----

func.func @create_tdesc_2d_source(%src: memref<32x32xf32>, %off: vector<16xindex>) {
  // expected-error@+1 {{operand #0 must be 1-D memref or integer pointer}}
  %0 = xegpu.create_tdesc %src, %off : memref<32x32xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
  return
}

// -----

func.func @update_offset_shape(%t: !xegpu.tensor_desc<16x2xf32, #xegpu.scatter_tdesc_attr<chunk_size = 2 : i64>>, %off: vector<8xindex>) {
  // expected-error@+1 {{Offsets should match TensorDesc except the chunk size dim.}}
  %0 = xegpu.update_offset %t, %off : !xegpu.tensor_desc<16x2xf32, #xegpu.scatter_tdesc_attr<chunk_size = 2 : i64>>, vector<8xindex>
  return
}

// ----------------------------------------------------------------------------- load / store / prefetch (scatter)

// -----

func.func @load_element_type(%src: memref<1024xf16>, %off: vector<16xindex>, %m: vector<16xi1>) {
  // expected-error@+1 {{Value should have the same element type as MemRef.}}
  %0 = xegpu.load %src[%off], %m : memref<1024xf16>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
  return
}

// -----

func.func @load_mask_shape(%src: memref<1024xf32>, %off: vector<16xindex>, %m: vector<8xi1>) {
  // expected-error@+1 {{Mask should match value except the chunk size dim}}
  %0 = xegpu.load %src[%off], %m : memref<1024xf32>, vector<16xindex>, vector<8xi1> -> vector<16xf32>
  return
}

// -----

func.func @load_chunk_mask_shape(%src: memref<1024xf32>, %off: vector<16xindex>, %m: vector<8xi1>) {
  // expected-error@+1 {{Mask should match value except the chunk size dim}}
  %0 = xegpu.load %src[%off], %m <{chunk_size = 4 : i64}> : memref<1024xf32>, vector<16xindex>, vector<8xi1> -> vector<16x4xf32>
  return
}

// -----

func.func @load_simt_chunk(%src: memref<128xf32>, %off: index, %m: i1) {
  // expected-error@+1 {{value elements must match chunk size 2}}
  %0 = xegpu.load %src[%off], %m <{chunk_size = 2 : i64}> : memref<128xf32>, index, i1 -> vector<4xf32>
  return
}

// -----

func.func @load_chunk_1d(%src: memref<1024xf32>, %off: vector<16xindex>, %m: vector<16xi1>) {
  // expected-error@+1 {{value elements must match chunk size 8}}
  %0 = xegpu.load %src[%off], %m <{chunk_size = 8 : i64}> : memref<1024xf32>, vector<16xindex>, vector<16xi1> -> vector<4xf32>
  return
}

// -----

func.func @load_scalar_chunk(%src: memref<128xf32>, %off: index, %m: i1) {
  // expected-error@+1 {{Expecting chunk size == 1 for scalar result}}
  %0 = xegpu.load %src[%off], %m <{chunk_size = 2 : i64}> : memref<128xf32>, index, i1 -> f32
  return
}

// -----

func.func @load_scalar_vector_mask(%src: memref<128xf32>, %off: index, %m: vector<1xi1>) {
  // expected-error@+1 {{Expecting scalar mask and offsets.}}
  %0 = xegpu.load %src[%off], %m : memref<128xf32>, index, vector<1xi1> -> f32
  return
}

// -----

func.func @load_needs_offsets(%src: memref<1024xf32>, %m: vector<16xi1>) {
  // expected-error@+1 {{Expects offsets.}}
  %0 = xegpu.load %src, %m : memref<1024xf32>, vector<16xi1> -> vector<16xf32>
  return
}

// -----

func.func @load_2d_memref(%src: memref<32x32xf32>, %off: vector<16xindex>, %m: vector<16xi1>) {
  // expected-error@+1 {{operand #0 must be !xegpu.tensor_desc or 1-D memref or integer pointer}}
  %0 = xegpu.load %src[%off], %m : memref<32x32xf32>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
  return
}

// -----

func.func @load_tdesc_mask(%t: !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, %m: vector<8xi1>) {
  // expected-error@+1 {{Mask should match TensorDesc except the chunk size dim.}}
  %0 = xegpu.load %t, %m : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, vector<8xi1> -> vector<16x8xf32>
  return
}

// -----

func.func @load_tdesc_element(%t: !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, %m: vector<16xi1>) {
  // expected-error@+1 {{Value should have the same element type as TensorDesc.}}
  %0 = xegpu.load %t, %m : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1> -> vector<16xf16>
  return
}

// -----

func.func @load_tdesc_value_shape(%t: !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, %m: vector<16xi1>) {
  // expected-error@+1 {{Value shape [8, 16] is neither a valid distribution for SIMT nor consistent with the tensor descriptor for SIMD}}
  %0 = xegpu.load %t, %m : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, vector<16xi1> -> vector<8x16xf32>
  return
}

// -----

func.func @store_hint(%v: vector<16xf32>, %dst: memref<1024xf32>, %off: vector<16xindex>, %m: vector<16xi1>) {
  // expected-error@+1 {{invalid l1_hint: #xegpu.cache_hint<streaming>}}
  xegpu.store %v, %dst[%off], %m <{l1_hint = #xegpu.cache_hint<streaming>}> : vector<16xf32>, memref<1024xf32>, vector<16xindex>, vector<16xi1>
  return
}

// -----

func.func @store_simt_chunk(%v: vector<4xf32>, %dst: memref<256xf32>, %off: index, %m: i1) {
  // expected-error@+1 {{value elements must match chunk size 8}}
  xegpu.store %v, %dst[%off], %m <{chunk_size = 8 : i64}> : vector<4xf32>, memref<256xf32>, index, i1
  return
}

// -----

func.func @store_layout(%v: vector<16xf32>, %dst: i64, %off: vector<16xindex>, %m: vector<16xi1>) {
  // expected-error@+1 {{'xegpu.store' op Value shape is not distributable with the layout}}
  xegpu.store %v, %dst[%off], %m <{layout = #xegpu.layout<lane_layout = [32], lane_data = [1]>}> : vector<16xf32>, i64, vector<16xindex>, vector<16xi1>
  return
}

// -----

func.func @prefetch_align_required(%p: i64, %off: vector<16xindex>) {
  // expected-error@+1 {{offset_align_byte is required with integer source.}}
  xegpu.prefetch %p[%off] : i64, vector<16xindex>
  return
}

// -----

func.func @prefetch_align_memref(%src: memref<256xf32>, %off: vector<16xindex>) {
  // expected-error@+1 {{offset_align_byte only allowed with integer source.}}
  xegpu.prefetch %src[%off] <{offset_align_byte = 4 : i64}> : memref<256xf32>, vector<16xindex>
  return
}

// -----

func.func @prefetch_block_tdesc(%t: !xegpu.tensor_desc<16xf32>) {
  // expected-error@+1 {{Expects a scattered TensorDesc.}}
  xegpu.prefetch %t : !xegpu.tensor_desc<16xf32>
  return
}

// ----------------------------------------------------------------------------- atomic_rmw

// -----

func.func @atomic_rmw_kind(%t: !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, %m: vector<16xi1>, %v: vector<16xi32>) {
  // expected-error@+1 {{with kind 'addf' expects a floating-point type}}
  %0 = xegpu.atomic_rmw addf %t, %m, %v : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
  return
}

// -----

// A block descriptor is today's form (upstream-xegpu-xevm.md §2.12); its mask needs one flag per element.
func.func @atomic_rmw_block_mask(%t: !xegpu.tensor_desc<16xf32>, %m: vector<8xi1>, %v: vector<16xf32>) {
  // expected-error@+1 {{Mask should match TensorDesc except the chunk size dim.}}
  %0 = xegpu.atomic_rmw addf %t, %m, %v : !xegpu.tensor_desc<16xf32>, vector<8xi1>, vector<16xf32> -> vector<16xf32>
  return
}

// ----------------------------------------------------------------------------- dpas, dpas_mx

// -----

func.func @dpas_k(%a: vector<8x16xf16>, %b: vector<8x16xf16>) {
  // expected-error@+1 {{K-dimension mismatch: A has K=16 but B has K=8}}
  %0 = xegpu.dpas %a, %b : vector<8x16xf16>, vector<8x16xf16> -> vector<8x16xf32>
  return
}

// -----

func.func @dpas_k_packed(%a: vector<8x16xf16>, %b: vector<4x16x2xf16>) {
  // expected-error@+1 {{K-dimension mismatch: A has K=16 but B has K=8}}
  %0 = xegpu.dpas %a, %b : vector<8x16xf16>, vector<4x16x2xf16> -> vector<8x16xf32>
  return
}

// -----

func.func @dpas_m(%a: vector<8x16xf16>, %b: vector<16x16xf16>) {
  // expected-error@+1 {{M-dimension mismatch}}
  %0 = xegpu.dpas %a, %b : vector<8x16xf16>, vector<16x16xf16> -> vector<16x16xf32>
  return
}

// -----

func.func @dpas_n(%a: vector<8x16xf16>, %b: vector<16x16xf16>) {
  // expected-error@+1 {{N-dimension mismatch}}
  %0 = xegpu.dpas %a, %b : vector<8x16xf16>, vector<16x16xf16> -> vector<8x8xf32>
  return
}

// -----

func.func @dpas_acc(%a: vector<8x16xf16>, %b: vector<16x16xf16>, %c: vector<8x16xf16>) {
  // expected-error@+1 {{'xegpu.dpas' op Accumulator type must match result type.}}
  %0 = xegpu.dpas %a, %b, %c : vector<8x16xf16>, vector<16x16xf16>, vector<8x16xf16> -> vector<8x16xf32>
  return
}

// -----

func.func @dpas_ranks(%a: vector<2x8x16xf16>, %b: vector<16x16xf16>) {
  // expected-error@+1 {{'xegpu.dpas' op Rank mismatch among A, B, and result.}}
  %0 = xegpu.dpas %a, %b : vector<2x8x16xf16>, vector<16x16xf16> -> vector<8x16xf32>
  return
}

// -----

func.func @dpas_layout(%a: vector<64x64xf16>, %b: vector<64x64xf16>) {
  // expected-error@+1 {{'xegpu.dpas' op A shape is not distributable with the layout}}
  %0 = xegpu.dpas %a, %b <{layout_a = #xegpu.layout<sg_layout = [3, 2], sg_data = [32, 32]>}> : vector<64x64xf16>, vector<64x64xf16> -> vector<64x64xf32>
  return
}

// -----

func.func @dpas_mx_scale_m(%a: vector<8x64xf8E5M2>, %b: vector<64x16xf8E5M2>, %sa: vector<16x2xf8E8M0FNU>, %sb: vector<2x16xf8E8M0FNU>) {
  // expected-error@+1 {{'xegpu.dpas_mx' op Scale A M dimension [16] must match A M dimension [8].}}
  %0 = xegpu.dpas_mx %a, %b scale_a = %sa scale_b = %sb : (vector<8x64xf8E5M2>, vector<64x16xf8E5M2>, vector<16x2xf8E8M0FNU>, vector<2x16xf8E8M0FNU>) -> vector<8x16xf32>
  return
}

// -----

func.func @dpas_mx_scale_k(%a: vector<8x64xf8E5M2>, %b: vector<64x16xf8E5M2>, %sa: vector<8x2xf8E8M0FNU>, %sb: vector<4x16xf8E8M0FNU>) {
  // expected-error@+1 {{'xegpu.dpas_mx' op Scale K dimension mismatch: scale_a has K=2 but scale_b has K=4.}}
  %0 = xegpu.dpas_mx %a, %b scale_a = %sa scale_b = %sb : (vector<8x64xf8E5M2>, vector<64x16xf8E5M2>, vector<8x2xf8E8M0FNU>, vector<4x16xf8E8M0FNU>) -> vector<8x16xf32>
  return
}

// -----

func.func @dpas_mx_scale_n(%a: vector<8x64xf8E5M2>, %b: vector<64x16xf8E5M2>, %sa: vector<8x2xf8E8M0FNU>, %sb: vector<2x8xf8E8M0FNU>) {
  // expected-error@+1 {{'xegpu.dpas_mx' op Scale B N dimension [8] must match B N dimension [16].}}
  %0 = xegpu.dpas_mx %a, %b scale_a = %sa scale_b = %sb : (vector<8x64xf8E5M2>, vector<64x16xf8E5M2>, vector<8x2xf8E8M0FNU>, vector<2x8xf8E8M0FNU>) -> vector<8x16xf32>
  return
}

// ----------------------------------------------------------------------------- convert_layout

// -----

func.func @convert_layout_scopes(%v: vector<32x64xf32>) {
  // expected-error@+1 {{expected input layout and target layout be WgLayout or SgLayout at the same time.}}
  %0 = xegpu.convert_layout %v <{input_layout = #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>, target_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>}> : vector<32x64xf32>
  return
}

// -----

func.func @convert_layout_distribution(%v: vector<32x64xf32>) {
  // expected-error@+1 {{invalid input layout, data cannot be evenly distributed.}}
  %0 = xegpu.convert_layout %v <{input_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [3, 1]>, target_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>}> : vector<32x64xf32>
  return
}

// -----

func.func @convert_layout_missing(%v: vector<32x64xf32>) {
  // expected-error@+1 {{expected target layout.}}
  %0 = xegpu.convert_layout %v <{input_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>}> : vector<32x64xf32>
  return
}

// ----------------------------------------------------------------------------- named barriers

// -----

func.func @alloc_nbarrier_count() {
  // expected-error@+1 {{nbarrier_num must be in [1, 32], got 64}}
  xegpu.alloc_nbarrier 64
  return
}

// -----

func.func @init_nbarrier_types(%id: i32, %n: i8) {
  // expected-error@+1 {{operand #0 must be i8, but got 'i32'}}
  %0 = xegpu.init_nbarrier %id, %n : i32, i8 -> !xegpu.nbarrier
  return
}

// ----------------------------------------------------------------------------- SLM matrices

// -----

func.func @create_mem_desc_not_slm(%m: memref<2048xf16>) {
  // expected-error@+1 {{source must be in shared local memory (memory space 3)}}
  %0 = xegpu.create_mem_desc %m : memref<2048xf16> -> !xegpu.mem_desc<32x64xf16>
  return
}

// -----

func.func @create_mem_desc_size(%m: memref<1024xi8, 3>) {
  // expected-error@+1 {{'xegpu.create_mem_desc' op failed to verify that all of {source, mem_desc} have same size in bits}}
  %0 = xegpu.create_mem_desc %m : memref<1024xi8, 3> -> !xegpu.mem_desc<32x64xf16>
  return
}

// -----

func.func @mem_desc_subview_strides(%md: !xegpu.mem_desc<32x64xf16>) {
  // expected-error@+1 {{result must inherit the source strides.}}
  %0 = xegpu.mem_desc_subview %md[0, 16] : !xegpu.mem_desc<32x64xf16> -> !xegpu.mem_desc<16x16xf16>
  return
}

// -----

// -----

func.func @load_matrix_shape(%md: !xegpu.mem_desc<32x64xf16>) {
  // expected-error@+1 {{data shape must not exceed mem_desc shape.}}
  %0 = xegpu.load_matrix %md[0, 0] : !xegpu.mem_desc<32x64xf16> -> vector<64x16xf16>
  return
}

// -----

func.func @store_matrix_block_io(%v: vector<16xf16>, %md: !xegpu.mem_desc<32x64xf16>) {
  // expected-error@+1 {{mem_desc must have block attribute when subgroup_block_io is set.}}
  xegpu.store_matrix %v, %md[0, 0] <{subgroup_block_io}> : vector<16xf16>, !xegpu.mem_desc<32x64xf16>
  return
}

// -----

func.func @load_matrix_block_io_layout(%md: !xegpu.mem_desc<32x64xf16, #xegpu.mem_layout<block = [16, 16]>>) {
  // expected-error@+1 {{With subgroup_block_io, the block shape must match the lane layout.}}
  %0 = xegpu.load_matrix %md[0, 0] <{layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>, subgroup_block_io}> : !xegpu.mem_desc<32x64xf16, #xegpu.mem_layout<block = [16, 16]>> -> vector<16x16xf16>
  return
}
