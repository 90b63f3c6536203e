// RUN: xesim verify --split-input-file --verify-diagnostics %s
// Upstream XeGPU verifier diagnostics with upstream's wording (shared/spec/upstream-xegpu-xevm.md §2-§3, messages
// quoted from XeGPUOps.cpp / XeGPUDialect.cpp), the ones invalid_xegpu.mlir does not already cover.  Coverage of
// the whole list: tests/unit/test_xegpu_diagnostic_coverage.py; the ones not produced: isa/README.md.

func.func @integer_source_needs_shape(%p: i64) {
  // expected-error@+1 {{'xegpu.create_nd_tdesc' op expecting strides and shape to be present for integer source.}}
  %0 = xegpu.create_nd_tdesc %p : i64 -> !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @static_memref_with_shape(%m: memref<64x64xf32>) {
  // expected-error@+1 {{'xegpu.create_nd_tdesc' op shape and strides should not be specified for a memref source; they are inferred from the memref.}}
  %0 = xegpu.create_nd_tdesc %m, shape : [64, 64], strides : [64, 1] : memref<64x64xf32> -> !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @element_type(%m: memref<64x64xf16>) {
  // expected-error@+1 {{'xegpu.create_nd_tdesc' op TensorDesc should have the same element type with the source if it is a memref.}}
  %0 = xegpu.create_nd_tdesc %m : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @store_nd_array_length(%v: vector<8x16xf32>, %t: !xegpu.tensor_desc<8x16xf32, #xegpu.block_tdesc_attr<array_length = 2>>) {
  // expected-error@+1 {{'xegpu.store_nd' op array length is not supported by store_nd.}}
  xegpu.store_nd %v, %t[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32, #xegpu.block_tdesc_attr<array_length = 2>>
  return
}

// -----

func.func @prefetch_layout(%m: memref<256xf32>, %o: vector<16xindex>) {
  // expected-error@+1 {{'xegpu.prefetch' op offset shape is not distributable with the layout}}
  xegpu.prefetch %m[%o] <{layout = #xegpu.layout<lane_layout = [32], lane_data = [1]>}> : memref<256xf32>, vector<16xindex>
  return
}

// -----

func.func @contiguity_scalar(%m: memref<256xf32>, %o: index, %b: i1) {
  // expected-error@+1 {{'xegpu.load' op contiguity requires vector offsets (one per lane).}}
  %0 = xegpu.load %m[%o], %b <{chunk_size = 4 : i64, contiguity = 2 : i64}> : memref<256xf32>, index, i1 -> vector<4xf32>
  return
}

// -----

func.func @contiguity_small(%m: memref<256xf32>, %o: vector<16xindex>, %k: vector<16xi1>) {
  // expected-error@+1 {{'xegpu.load' op contiguity = 1 (must be >= 2)}}
  %0 = xegpu.load %m[%o], %k <{contiguity = 1 : i64}> : memref<256xf32>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
  return
}

// -----

func.func @contiguity_divides(%m: memref<256xf32>, %o: vector<16xindex>, %k: vector<16xi1>, %v: vector<16xf32>) {
  // expected-error@+1 {{'xegpu.store' op contiguity = 3 (must divide the innermost offsets dim 16)}}
  xegpu.store %v, %m[%o], %k <{contiguity = 3 : i64}> : vector<16xf32>, memref<256xf32>, vector<16xindex>, vector<16xi1>
  return
}

// -----

func.func @vector_mask(%m: memref<256xf32>, %o: vector<16xindex>, %k: i1) {
  // expected-error@+1 {{'xegpu.load' op Expecting a vector type mask.}}
  %0 = xegpu.load %m[%o], %k : memref<256xf32>, vector<16xindex>, i1 -> vector<16xf32>
  return
}

// -----

func.func @mask_shape(%m: memref<256xf32>, %o: vector<16xindex>, %k: vector<8xi1>) {
  // expected-error@+1 {{'xegpu.load' op Mask should match value except the chunk size dim.}}
  %0 = xegpu.load %m[%o], %k : memref<256xf32>, vector<16xindex>, vector<8xi1> -> vector<16xf32>
  return
}

// -----

func.func @dpas_result_layout(%a: vector<64x64xf16>, %b: vector<64x64xf16>) {
  // expected-error@+1 {{'xegpu.dpas' op Result shape is not distributable with the layout}}
  %0 = xegpu.dpas %a, %b <{layout_cd = #xegpu.layout<sg_layout = [3, 2], sg_data = [32, 32]>}> : vector<64x64xf16>, vector<64x64xf16> -> vector<64x64xf32>
  return
}

// -----

func.func @dpas_b_layout(%a: vector<64x64xf16>, %b: vector<64x64xf16>) {
  // expected-error@+1 {{'xegpu.dpas' op B shape is not distributable with the layout}}
  %0 = xegpu.dpas %a, %b <{layout_b = #xegpu.layout<sg_layout = [3, 2], sg_data = [32, 32]>}> : vector<64x64xf16>, vector<64x64xf16> -> vector<64x64xf32>
  return
}

// -----

func.func @dpas_a_rank(%a: vector<16xf16>, %b: vector<16x16xf16>) {
  // expected-error@+1 {{'xegpu.dpas' op A operand must be at least a 2D vector.}}
  %0 = xegpu.dpas %a, %b : vector<16xf16>, vector<16x16xf16> -> vector<8x16xf32>
  return
}

// -----

func.func @dpas_b_rank(%a: vector<8x16xf16>, %b: vector<16xf16>) {
  // expected-error@+1 {{'xegpu.dpas' op B operand must be at least a 2D vector.}}
  %0 = xegpu.dpas %a, %b : vector<8x16xf16>, vector<16xf16> -> vector<8x16xf32>
  return
}

// -----

func.func @dpas_result_rank(%a: vector<8x16xf16>, %b: vector<16x16xf16>) {
  // expected-error@+1 {{'xegpu.dpas' op Result must be at least a 2D vector.}}
  %0 = xegpu.dpas %a, %b : vector<8x16xf16>, vector<16x16xf16> -> vector<128xf32>
  return
}

// -----

func.func @dpas_batch_result(%a: vector<4x8x16xbf16>, %b: vector<4x16x16xbf16>) {
  // expected-error@+1 {{'xegpu.dpas' op Batch dimension mismatch at dim 0: A has 4 but result has 2.}}
  %0 = xegpu.dpas %a, %b : vector<4x8x16xbf16>, vector<4x16x16xbf16> -> vector<2x8x16xf32>
  return
}

// -----

func.func @dpas_batch_b(%a: vector<4x8x16xbf16>, %b: vector<3x16x16xbf16>) {
  // expected-error@+1 {{'xegpu.dpas' op Batch dimension mismatch at dim 0: A has 4 but B has 3.}}
  %0 = xegpu.dpas %a, %b : vector<4x8x16xbf16>, vector<3x16x16xbf16> -> vector<4x8x16xf32>
  return
}

// -----

func.func @dpas_m(%a: vector<8x16xf16>, %b: vector<16x16xf16>) {
  // expected-error@+1 {{'xegpu.dpas' op M-dimension mismatch: A has M=8 but result has M=4.}}
  %0 = xegpu.dpas %a, %b : vector<8x16xf16>, vector<16x16xf16> -> vector<4x16xf32>
  return
}

// -----

func.func @dpas_n(%a: vector<8x16xf16>, %b: vector<16x16xf16>) {
  // expected-error@+1 {{'xegpu.dpas' op N-dimension mismatch: B has N=16 but result has N=8.}}
  %0 = xegpu.dpas %a, %b : vector<8x16xf16>, vector<16x16xf16> -> vector<8x8xf32>
  return
}

// -----

func.func @dpas_mx_scale_a_layout(%a: vector<64x32xf8E5M2>, %b: vector<32x64xf8E5M2>, %sa: vector<64x1xf8E8M0FNU>, %sb: vector<1x64xf8E8M0FNU>) {
  // expected-error@+1 {{'xegpu.dpas_mx' op ScaleA shape is not distributable with the layout}}
  %0 = xegpu.dpas_mx %a, %b scale_a = %sa scale_b = %sb <{layout_a_scale = #xegpu.layout<sg_layout = [3, 1], sg_data = [16, 1]>}> : (vector<64x32xf8E5M2>, vector<32x64xf8E5M2>, vector<64x1xf8E8M0FNU>, vector<1x64xf8E8M0FNU>) -> vector<64x64xf32>
  return
}

// -----

func.func @dpas_mx_scale_b_layout(%a: vector<64x32xf8E5M2>, %b: vector<32x64xf8E5M2>, %sa: vector<64x1xf8E8M0FNU>, %sb: vector<1x64xf8E8M0FNU>) {
  // expected-error@+1 {{'xegpu.dpas_mx' op ScaleB shape is not distributable with the layout}}
  %0 = xegpu.dpas_mx %a, %b scale_a = %sa scale_b = %sb <{layout_b_scale = #xegpu.layout<sg_layout = [1, 3], sg_data = [1, 16]>}> : (vector<64x32xf8E5M2>, vector<32x64xf8E5M2>, vector<64x1xf8E8M0FNU>, vector<1x64xf8E8M0FNU>) -> vector<64x64xf32>
  return
}

// -----

func.func @truncf_wider(%h: vector<16xf16>) {
  // expected-error@+1 {{'xegpu.truncf' op input type must be wider than result type.}}
  %0 = xegpu.truncf %h : vector<16xf16> -> vector<16xf32>
  return
}

// -----

func.func @truncf_rank(%h: vector<16xf16>) {
  // expected-error@+1 {{'xegpu.truncf' op failed to verify that all of {source, result} have same rank}}
  %0 = xegpu.truncf %h : vector<16xf16> -> vector<2x8xf8E5M2>
  return
}

// -----

func.func @truncf_shape(%h: vector<16xf16>) {
  // expected-error@+1 {{'xegpu.truncf' op failed to verify that all of {source, result} have same shape}}
  %0 = xegpu.truncf %h : vector<16xf16> -> vector<8xf8E5M2>
  return
}

// -----

func.func @lane_shuffle_one(%v: vector<1xi32>) {
  // expected-error@+1 {{'xegpu.lane_shuffle' op requires a source vector with at least 2 elements.}}
  %0 = xegpu.lane_shuffle %v pack : vector<1xi32>
  return
}

// -----

func.func @convert_target_distribution(%v: vector<32x64xf32>) {
  // expected-error@+1 {{'xegpu.convert_layout' op invalid target layout, data cannot be evenly distributed.}}
  %0 = xegpu.convert_layout %v <{input_layout = #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>, target_layout = #xegpu.layout<sg_layout = [3, 2], sg_data = [8, 32]>}> : vector<32x64xf32>
  return
}

// -----

func.func @mem_desc_size(%m: memref<2048xi8, 3>) {
  // expected-error@+1 {{'xegpu.create_mem_desc' op failed to verify that all of {source, mem_desc} have same size in bits}}
  %0 = xegpu.create_mem_desc %m : memref<2048xi8, 3> -> !xegpu.mem_desc<32x64xf16>
  return
}

// -----

func.func @mem_desc_contiguous(%m: memref<32x64xf16, strided<[128, 1]>, 3>) {
  // expected-error@+1 {{'xegpu.create_mem_desc' op source memref must be contiguous.}}
  %0 = xegpu.create_mem_desc %m : memref<32x64xf16, strided<[128, 1]>, 3> -> !xegpu.mem_desc<32x64xf16>
  return
}

// -----

func.func @scalar_block_io(%md: !xegpu.mem_desc<32x64xf16, #xegpu.mem_layout<block = [16, 16]>>) {
  // expected-error@+1 {{subgroup_block_io are only allowed when result is a VectorType.}}
  %0 = xegpu.load_matrix %md[0, 0] <{subgroup_block_io}> : !xegpu.mem_desc<32x64xf16, #xegpu.mem_layout<block = [16, 16]>> -> f16
  return
}

// -----

func.func @block_io_coalesced(%md: !xegpu.mem_desc<32x64xf16, #xegpu.mem_layout<block = [1, 16]>>) {
  // expected-error@+1 {{With subgroup_block_io, accessed data must be contiguous and coalesced.}}
  %0 = xegpu.load_matrix %md[0, 0] <{layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [2, 1]>, subgroup_block_io}> : !xegpu.mem_desc<32x64xf16, #xegpu.mem_layout<block = [1, 16]>> -> vector<2x16xf16>
  return
}

// -----

func.func @block_io_contiguous(%md: !xegpu.mem_desc<32x64xf16, #xegpu.mem_layout<stride = [1, 32], block = [1, 16]>>) {
  // expected-error@+1 {{With subgroup_block_io, the distributed dimensions must be contiguous.}}
  %0 = xegpu.load_matrix %md[0, 0] <{layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>, subgroup_block_io}> : !xegpu.mem_desc<32x64xf16, #xegpu.mem_layout<stride = [1, 32], block = [1, 16]>> -> vector<1x16xf16>
  return
}

// -----

func.func @load_matrix_element(%md: !xegpu.mem_desc<32x64xf16>) {
  // expected-error@+1 {{'xegpu.load_matrix' op failed to verify that all of {mem_desc, res} have same element type}}
  %0 = xegpu.load_matrix %md[0, 0] : !xegpu.mem_desc<32x64xf16> -> vector<8x16xf32>
  return
}

// -----

func.func @store_matrix_element(%md: !xegpu.mem_desc<32x64xf16>, %v: vector<8x16xf32>) {
  // expected-error@+1 {{'xegpu.store_matrix' op failed to verify that all of {mem_desc, data} have same element type}}
  xegpu.store_matrix %v, %md[0, 0] : vector<8x16xf32>, !xegpu.mem_desc<32x64xf16>
  return
}

// -----

func.func @load_nd_element(%t: !xegpu.tensor_desc<8x16xf16>) {
  // expected-error@+1 {{'xegpu.load_nd' op failed to verify that all of {value, TensorDesc} have same element type}}
  %0 = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf32>
  return
}

// -----

func.func @dpas_element(%a: vector<8x16xf16>, %b: vector<16x16xbf16>) {
  // expected-error@+1 {{'xegpu.dpas' op failed to verify that all of {lhs, rhs} have same element type}}
  %0 = xegpu.dpas %a, %b : vector<8x16xf16>, vector<16x16xbf16> -> vector<8x16xf32>
  return
}

// -----

func.func @atomic_element(%t: !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, %m: vector<16xi1>, %v: vector<16xf16>) {
  // expected-error@+1 {{'xegpu.atomic_rmw' op failed to verify that all of {tensorDesc, value, result} have same element type}}
  %0 = xegpu.atomic_rmw addf %t, %m, %v : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xf16> -> vector<16xf16>
  return
}

// -----

func.func @atomic_shape(%t: !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, %m: vector<16xi1>, %v: vector<8xf32>) {
  // expected-error@+1 {{'xegpu.atomic_rmw' op failed to verify that all of {tensorDesc, value, result} have same shape}}
  %0 = xegpu.atomic_rmw addf %t, %m, %v : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<8xf32> -> vector<8xf32>
  return
}

// -----

func.func @layout_sg_inst(%v: vector<32x64xf32>) {
  // expected-error@+1 {{expected sg_layout and inst_data to have the same rank}}
  %0 = xegpu.convert_layout %v <{target_layout = #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16], inst_data = [8]>}> : vector<32x64xf32>
  return
}

// -----

func.func @layout_inst_lane(%v: vector<32x64xf32>) {
  // expected-error@+1 {{expected inst_data and lane_layout to have the same rank, got inst_data 2, lane_layout 1}}
  %0 = xegpu.convert_layout %v <{target_layout = #xegpu.layout<inst_data = [8, 16], lane_layout = [16], lane_data = [1]>}> : vector<32x64xf32>
  return
}

// -----

func.func @layout_lane_data_rank(%v: vector<32x64xf32>) {
  // expected-error@+1 {{expected lane_data and lane_layout to have the same rank}}
  %0 = xegpu.convert_layout %v <{target_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1]>}> : vector<32x64xf32>
  return
}

// -----

func.func @layout_order_sg(%v: vector<32x64xf32>) {
  // expected-error@+1 {{expected order and sg_layout to have the same rank}}
  %0 = xegpu.convert_layout %v <{target_layout = #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16], order = [0]>}> : vector<32x64xf32>
  return
}
