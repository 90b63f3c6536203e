// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s
// Legacy XeGPU syntax still used by real (IMEX VC / older SIMT) programs parses, verifies and prints in the
// current upstream form: offsets on create_nd_tdesc, the oldest [shape], [strides] form, attribute dictionaries
// instead of <{properties}>, transpose = [1, 0] with transpose_bit_width = 32, update_nd_offset, compile_hint,
// #xegpu.sg_map fragments, dpas a_layout/b_layout/c_layout, transposed chunked gathers, convert_layout srcMap/resMap.

// CHECK: #sg_map_a = #xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @vc_gemm(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %C: memref<1024x1024xf32>, %dyn: memref<?x?xf32>, %ptr: ui64, %h: index, %w: index, %c0: index, %c1: index, %c16: index) {
// CHECK-NEXT: %a = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<1024x1024xf16> -> !xegpu.tensor_desc<8x16xf16>
// CHECK-NEXT: %b = xegpu.create_nd_tdesc %B[0, 0] : memref<1024x1024xf16> -> !xegpu.tensor_desc<16x16xf16>
// CHECK-NEXT: %c = xegpu.create_nd_tdesc %C[%c0, %c16] : memref<1024x1024xf32> -> !xegpu.tensor_desc<8x16xf32>
// CHECK-NEXT: %d = xegpu.create_nd_tdesc %dyn[%c0, %c0], shape : [%h, %w], strides : [%w, %c1] : memref<?x?xf32> -> !xegpu.tensor_desc<8x16xf32>
// CHECK-NEXT: %p = xegpu.create_nd_tdesc %ptr[%c0, %c0], shape : [%h, %w], strides : [%w, %c1] : ui64 -> !xegpu.tensor_desc<8x16xf32>
// CHECK-NEXT: xegpu.prefetch_nd %a <{l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<cached>}> : !xegpu.tensor_desc<8x16xf16>
// CHECK-NEXT: %va = xegpu.load_nd %a <{l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<uncached>}> : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
// CHECK-NEXT: %vb = xegpu.load_nd %b <{l1_hint = #xegpu.cache_hint<cached>, packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
// CHECK-NEXT: %vt = xegpu.load_nd %b <{transpose = array<i64: 1, 0>, transpose_bit_width = 32 : i32}> : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
// CHECK-NEXT: %vt2 = xegpu.load_nd %b <{l1_hint = #xegpu.cache_hint<cached>, transpose = array<i64: 1, 0>, transpose_bit_width = 32 : i32}> : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
// CHECK-NEXT: %vt3 = xegpu.load_nd %a <{transpose = array<i64: 1, 0>, transpose_bit_width = 32 : i32}> : !xegpu.tensor_desc<8x16xf16> -> vector<8x8x2xf16>
// CHECK-NEXT: %vc = xegpu.load_nd %c : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
// CHECK-NEXT: %r = xegpu.dpas %va, %vb, %vc : vector<8x16xf16>, vector<8x16x2xf16>, vector<8x16xf32> -> vector<8x16xf32>
// CHECK-NEXT: xegpu.compile_hint
// CHECK-NEXT: xegpu.store_nd %r, %c <{l1_hint = #xegpu.cache_hint<write_back>, l2_hint = #xegpu.cache_hint<uncached>}> : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
// CHECK-NEXT: %a2 = xegpu.update_nd_offset %a, [%c0, %c16] : !xegpu.tensor_desc<8x16xf16>
// CHECK-NEXT: %b2 = xegpu.update_nd_offset %b, [16, 0] : !xegpu.tensor_desc<16x16xf16>
// CHECK-NEXT: xegpu.alloc_nbarrier 8
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @simt_legacy(%t: !xegpu.tensor_desc<8x16xf16, #sg_map_a>, %a: vector<8xf16>, %b: vector<16xf16>, %c: vector<8xf32>) {
// CHECK-NEXT: %v = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf16, #sg_map_a> -> vector<8x1xf16>
// CHECK-NEXT: %d = xegpu.dpas %a, %b, %c <{a_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>, b_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [2, 1]>, c_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>}> : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @scatter_legacy(%src: memref<1024xf32>, %off: vector<16xindex>, %mask: vector<16xi1>) {
// CHECK-NEXT: %t = xegpu.create_tdesc %src, %off : memref<1024xf32>, vector<16xindex> -> !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space = global, chunk_size = 8 : i64>>
// CHECK-NEXT: %v = xegpu.load %t, %mask <{l1_hint = #xegpu.cache_hint<cached>, transpose}> : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space = global, chunk_size = 8 : i64>>, vector<16xi1> -> vector<8x16xf32>
// CHECK-NEXT: xegpu.store %v, %t, %mask <{l1_hint = #xegpu.cache_hint<write_back>, transpose}> : vector<8x16xf32>, !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space = global, chunk_size = 8 : i64>>, vector<16xi1>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @convert_legacy(%v: vector<32x64xf32>) {
// CHECK-NEXT: %0 = xegpu.convert_layout %v <{resMap = #xegpu.layout<sg_layout = [4, 2], sg_data = [8, 32]>, srcMap = #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>}> : vector<32x64xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

#sg_map_a = #xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>
func.func @vc_gemm(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %C: memref<1024x1024xf32>, %dyn: memref<?x?xf32>, %ptr: ui64, %h: index, %w: index, %c0: index, %c1: index, %c16: index) {
  %a = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<1024x1024xf16> -> !xegpu.tensor_desc<8x16xf16>
  %b = xegpu.create_nd_tdesc %B[0, 0] : memref<1024x1024xf16> -> !xegpu.tensor_desc<16x16xf16>
  %c = xegpu.create_nd_tdesc %C[%c0, %c16] : memref<1024x1024xf32> -> !xegpu.tensor_desc<8x16xf32>
  %d = xegpu.create_nd_tdesc %dyn[%c0, %c0], [%h, %w], [%w, %c1] : memref<?x?xf32> -> !xegpu.tensor_desc<8x16xf32>
  %p = xegpu.create_nd_tdesc %ptr[%c0, %c0], shape : [%h, %w], strides : [%w, %c1] : ui64 -> !xegpu.tensor_desc<8x16xf32>
  xegpu.prefetch_nd %a {l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<cached>} : !xegpu.tensor_desc<8x16xf16>
  %va = xegpu.load_nd %a {l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<uncached>} : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
  %vb = xegpu.load_nd %b {packed, l1_hint = #xegpu.cache_hint<cached>} : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
  %vt = xegpu.load_nd %b {transpose = [1, 0], transpose_bit_width = 32 : i32} : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
  %vt2 = xegpu.load_nd %b <{transpose = array<i64: 1, 0>, transpose_bit_width = 32 : i32, l1_hint = #xegpu.cache_hint<cached>}> : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
  %vt3 = xegpu.load_nd %a {transpose = array<i64: 1, 0>, transpose_bit_width = 32 : i32} : !xegpu.tensor_desc<8x16xf16> -> vector<8x8x2xf16>
  %vc = xegpu.load_nd %c : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  %r = xegpu.dpas %va, %vb, %vc : vector<8x16xf16>, vector<8x16x2xf16>, vector<8x16xf32> -> vector<8x16xf32>
  xegpu.compile_hint
  xegpu.store_nd %r, %c {l1_hint = #xegpu.cache_hint<write_back>, l2_hint = #xegpu.cache_hint<uncached>} : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
  %a2 = xegpu.update_nd_offset %a, [%c0, %c16] : !xegpu.tensor_desc<8x16xf16>
  %b2 = xegpu.update_nd_offset %b, [16, 0] : !xegpu.tensor_desc<16x16xf16>
  xegpu.alloc_nbarrier 8
  return
}
func.func @simt_legacy(%t: !xegpu.tensor_desc<8x16xf16, #sg_map_a>, %a: vector<8xf16>, %b: vector<16xf16>, %c: vector<8xf32>) {
  %v = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf16, #sg_map_a> -> vector<8x1xf16>
  %d = xegpu.dpas %a, %b, %c {a_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>, b_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [2, 1]>, c_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>} : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>
  return
}
func.func @scatter_legacy(%src: memref<1024xf32>, %off: vector<16xindex>, %mask: vector<16xi1>) {
  %t = xegpu.create_tdesc %src, %off : memref<1024xf32>, vector<16xindex> -> !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space = global, chunk_size = 8 : i64>>
  %v = xegpu.load %t, %mask {transpose, l1_hint = #xegpu.cache_hint<cached>} : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space = global, chunk_size = 8 : i64>>, vector<16xi1> -> vector<8x16xf32>
  xegpu.store %v, %t, %mask {transpose, l1_hint = #xegpu.cache_hint<write_back>} : vector<8x16xf32>, !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space = global, chunk_size = 8 : i64>>, vector<16xi1>
  return
}
func.func @convert_legacy(%v: vector<32x64xf32>) {
  %0 = xegpu.convert_layout %v <{resMap = #xegpu.layout<sg_layout = [4, 2], sg_data = [8, 32]>, srcMap = #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>}> : vector<32x64xf32>
  return
}
