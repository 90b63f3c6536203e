// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s
// XeGPU ops print back unchanged (the mem_desc ops with ` : ` as today's upstream formats print it,
// upstream-xegpu-xevm.md §2.16-2.18). Every op of isa/dialects/xegpu.toml, at VC/SG, SIMT and WG level.

// CHECK: #wg = #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16], lane_layout = [1, 16], lane_data = [1, 1]>
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @block_ops(%src: memref<64x64xf16>, %dyn: memref<?x?xf32>, %ptr: i64, %h: index, %w: index, %x: index, %y: index) {
// CHECK-NEXT: %a = xegpu.create_nd_tdesc %src : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>
// CHECK-NEXT: %b = xegpu.create_nd_tdesc %src : memref<64x64xf16> -> !xegpu.tensor_desc<16x16xf16>
// CHECK-NEXT: %c = xegpu.create_nd_tdesc %dyn, shape : [%h, %w], strides : [%w, 1] : memref<?x?xf32> -> !xegpu.tensor_desc<8x16xf32>
// CHECK-NEXT: %d = xegpu.create_nd_tdesc %ptr, shape : [64, 64], strides : [64, 1] : i64 -> !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>
// CHECK-NEXT: %e = xegpu.create_nd_tdesc %ptr, shape : [64, 64], strides : [64, 1] : i64 -> !xegpu.tensor_desc<16x8xf32, #xegpu.block_tdesc_attr<boundary_check = false>>
// CHECK-NEXT: xegpu.prefetch_nd %a[%x, %y] <{l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<cached>}> : !xegpu.tensor_desc<8x16xf16>
// CHECK-NEXT: %va = xegpu.load_nd %a[%x, %y] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
// CHECK-NEXT: %vb = xegpu.load_nd %b[0, 16] <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
// CHECK-NEXT: %vc = xegpu.load_nd %c[%x, 0] <{l1_hint = #xegpu.cache_hint<cached>, l3_hint = #xegpu.cache_hint<streaming>}> : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
// CHECK-NEXT: %vd = xegpu.load_nd %d[0, 0] : !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<64x16xf16>
// CHECK-NEXT: %vd3 = xegpu.load_nd %d[0, 0] <{packed}> : !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<2x16x16x2xf16>
// CHECK-NEXT: %ve = xegpu.load_nd %e[0, 0] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x8xf32, #xegpu.block_tdesc_attr<boundary_check = false>> -> vector<8x16xf32>
// CHECK-NEXT: %acc = xegpu.dpas %va, %vb, %vc : vector<8x16xf16>, vector<8x16x2xf16>, vector<8x16xf32> -> vector<8x16xf32>
// CHECK-NEXT: %r = xegpu.dpas %va, %vb : vector<8x16xf16>, vector<8x16x2xf16> -> vector<8x16xf32>
// CHECK-NEXT: xegpu.store_nd %acc, %c[%x, %y] <{l1_hint = #xegpu.cache_hint<write_back>, l2_hint = #xegpu.cache_hint<uncached>}> : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
// CHECK-NEXT: xegpu.store_nd %ve, %c : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @simt(%a_td: !xegpu.tensor_desc<8x16xf16>, %b_td: !xegpu.tensor_desc<16x16xf16>, %c_td: !xegpu.tensor_desc<8x16xf32>, %t_td: !xegpu.tensor_desc<16x8xf32>) {
// CHECK-NEXT: %a = xegpu.load_nd %a_td[0, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8xf16>
// CHECK-NEXT: %b = xegpu.load_nd %b_td[0, 0] <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<16xf16>
// CHECK-NEXT: %c = xegpu.load_nd %c_td[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8xf32>
// CHECK-NEXT: %t = xegpu.load_nd %t_td[0, 0] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x8xf32> -> vector<8xf32>
// CHECK-NEXT: %d = xegpu.dpas %a, %b, %c : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>
// CHECK-NEXT: xegpu.store_nd %d, %c_td[0, 0] : vector<8xf32>, !xegpu.tensor_desc<8x16xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @scatter(%src: memref<1024xf32>, %ptr: i64, %off: vector<16xindex>, %mask: vector<16xi1>, %soff: index, %smask: i1, %v: vector<16xf32>) {
// CHECK-NEXT: %t = xegpu.create_tdesc %src, %off : memref<1024xf32>, vector<16xindex> -> !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>
// CHECK-NEXT: %t1 = xegpu.create_tdesc %src, %off : memref<1024xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
// CHECK-NEXT: %t2 = xegpu.update_offset %t, %off : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, vector<16xindex>
// CHECK-NEXT: xegpu.prefetch %t2 <{l1_hint = #xegpu.cache_hint<cached>}> : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>
// CHECK-NEXT: %l = xegpu.load %t2, %mask <{l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<uncached>}> : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, vector<16xi1> -> vector<16x8xf32>
// CHECK-NEXT: xegpu.store %l, %t2, %mask <{l1_hint = #xegpu.cache_hint<write_back>}> : vector<16x8xf32>, !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, vector<16xi1>
// CHECK-NEXT: %old = xegpu.atomic_rmw addf %t1, %mask, %v : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
// CHECK-NEXT: %g = xegpu.load %src[%off], %mask : memref<1024xf32>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
// CHECK-NEXT: %gp = xegpu.load %ptr[%off], %mask <{chunk_size = 2 : i64}> : i64, vector<16xindex>, vector<16xi1> -> vector<16x2xf32>
// CHECK-NEXT: xegpu.store %gp, %ptr[%off], %mask <{chunk_size = 2 : i64}> : vector<16x2xf32>, i64, vector<16xindex>, vector<16xi1>
// CHECK-NEXT: %s = xegpu.load %src[%soff], %smask <{chunk_size = 2 : i64, l1_hint = #xegpu.cache_hint<cached>}> : memref<1024xf32>, index, i1 -> vector<2xf32>
// CHECK-NEXT: %s1 = xegpu.load %src[%soff], %smask : memref<1024xf32>, index, i1 -> f32
// CHECK-NEXT: xegpu.store %s1, %src[%soff], %smask : f32, memref<1024xf32>, index, i1
// CHECK-NEXT: xegpu.prefetch %src[%off] : memref<1024xf32>, vector<16xindex>
// CHECK-NEXT: xegpu.prefetch %ptr[%soff] <{offset_align_byte = 4 : i64}> : i64, index
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @workgroup(%ptr: i64, %v: vector<128x128xf32>) {
// CHECK-NEXT: %t = xegpu.create_nd_tdesc %ptr, shape : [256, 256], strides : [256, 1] : i64 -> !xegpu.tensor_desc<32x64xf32, #wg>
// CHECK-NEXT: %x = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<32x64xf32, #wg> -> vector<32x64xf32>
// CHECK-NEXT: %y = xegpu.convert_layout %v <{input_layout = #xegpu.layout<sg_layout = [8, 4], sg_data = [16, 32]>, target_layout = #xegpu.layout<sg_layout = [8, 4], sg_data = [16, 32], order = [0, 1]>}> : vector<128x128xf32>
// CHECK-NEXT: %z = xegpu.convert_layout %y <{input_layout = #xegpu.slice<#xegpu.layout<sg_layout = [8, 4, 2], sg_data = [16, 32, 8]>, dims = [2]>, target_layout = #xegpu.layout<sg_layout = [8, 4], sg_data = [16, 32]>}> : vector<128x128xf32>
// CHECK-NEXT: %p = xegpu.dpas %z, %z, %z <{layout_a = #xegpu.layout<sg_layout = [8, 4], sg_data = [16, 32]>, layout_cd = #xegpu.layout<sg_layout = [8, 4], sg_data = [16, 32]>}> : vector<128x128xf32>, vector<128x128xf32>, vector<128x128xf32> -> vector<128x128xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @barriers_and_slm(%id: i8, %n: i8, %m: memref<4096xi8, 3>, %x: index) {
// CHECK-NEXT: xegpu.alloc_nbarrier 16
// CHECK-NEXT: %nb = xegpu.init_nbarrier %id, %n : i8, i8 -> !xegpu.nbarrier
// CHECK-NEXT: xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
// CHECK-NEXT: xegpu.nbarrier_wait %nb : !xegpu.nbarrier
// CHECK-NEXT: xegpu.fence memory_kind = global, fence_scope = workgroup
// CHECK-NEXT: xegpu.fence memory_kind = slm, fence_scope = gpu
// CHECK-NEXT: %md = xegpu.create_mem_desc %m : memref<4096xi8, 3> -> !xegpu.mem_desc<32x64xf16>
// CHECK-NEXT: %sub = xegpu.mem_desc_subview %md[0, 16]: !xegpu.mem_desc<32x64xf16> -> !xegpu.mem_desc<16x16xf16, #xegpu.mem_layout<stride = [64, 1]>>
// CHECK-NEXT: %v = xegpu.load_matrix %md[8, %x] : !xegpu.mem_desc<32x64xf16>, index -> vector<8x16xf16>
// CHECK-NEXT: xegpu.store_matrix %v, %md[0, 0] <{layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>}> : vector<8x16xf16>, !xegpu.mem_desc<32x64xf16>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

#wg = #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16], lane_layout = [1, 16], lane_data = [1, 1]>
func.func @block_ops(%src: memref<64x64xf16>, %dyn: memref<?x?xf32>, %ptr: i64, %h: index, %w: index, %x: index, %y: index) {
  %a = xegpu.create_nd_tdesc %src : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>
  %b = xegpu.create_nd_tdesc %src : memref<64x64xf16> -> !xegpu.tensor_desc<16x16xf16>
  %c = xegpu.create_nd_tdesc %dyn, shape : [%h, %w], strides : [%w, 1] : memref<?x?xf32> -> !xegpu.tensor_desc<8x16xf32>
  %d = xegpu.create_nd_tdesc %ptr, shape : [64, 64], strides : [64, 1] : i64 -> !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>
  %e = xegpu.create_nd_tdesc %ptr, shape : [64, 64], strides : [64, 1] : i64 -> !xegpu.tensor_desc<16x8xf32, #xegpu.block_tdesc_attr<boundary_check = false>>
  xegpu.prefetch_nd %a[%x, %y] <{l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<cached>}> : !xegpu.tensor_desc<8x16xf16>
  %va = xegpu.load_nd %a[%x, %y] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
  %vb = xegpu.load_nd %b[0, 16] <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
  %vc = xegpu.load_nd %c[%x, 0] <{l1_hint = #xegpu.cache_hint<cached>, l3_hint = #xegpu.cache_hint<streaming>}> : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  %vd = xegpu.load_nd %d[0, 0] : !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<64x16xf16>
  %vd3 = xegpu.load_nd %d[0, 0] <{packed}> : !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<2x16x16x2xf16>
  %ve = xegpu.load_nd %e[0, 0] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x8xf32, #xegpu.block_tdesc_attr<boundary_check = false>> -> vector<8x16xf32>
  %acc = xegpu.dpas %va, %vb, %vc : vector<8x16xf16>, vector<8x16x2xf16>, vector<8x16xf32> -> vector<8x16xf32>
  %r = xegpu.dpas %va, %vb : vector<8x16xf16>, vector<8x16x2xf16> -> vector<8x16xf32>
  xegpu.store_nd %acc, %c[%x, %y] <{l1_hint = #xegpu.cache_hint<write_back>, l2_hint = #xegpu.cache_hint<uncached>}> : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
  xegpu.store_nd %ve, %c : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
  return
}
func.func @simt(%a_td: !xegpu.tensor_desc<8x16xf16>, %b_td: !xegpu.tensor_desc<16x16xf16>, %c_td: !xegpu.tensor_desc<8x16xf32>, %t_td: !xegpu.tensor_desc<16x8xf32>) {
  %a = xegpu.load_nd %a_td[0, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8xf16>
  %b = xegpu.load_nd %b_td[0, 0] <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<16xf16>
  %c = xegpu.load_nd %c_td[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8xf32>
  %t = xegpu.load_nd %t_td[0, 0] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x8xf32> -> vector<8xf32>
  %d = xegpu.dpas %a, %b, %c : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>
  xegpu.store_nd %d, %c_td[0, 0] : vector<8xf32>, !xegpu.tensor_desc<8x16xf32>
  return
}
func.func @scatter(%src: memref<1024xf32>, %ptr: i64, %off: vector<16xindex>, %mask: vector<16xi1>, %soff: index, %smask: i1, %v: vector<16xf32>) {
  %t = xegpu.create_tdesc %src, %off : memref<1024xf32>, vector<16xindex> -> !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>
  %t1 = xegpu.create_tdesc %src, %off : memref<1024xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
  %t2 = xegpu.update_offset %t, %off : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, vector<16xindex>
  xegpu.prefetch %t2 <{l1_hint = #xegpu.cache_hint<cached>}> : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>
  %l = xegpu.load %t2, %mask <{l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<uncached>}> : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, vector<16xi1> -> vector<16x8xf32>
  xegpu.store %l, %t2, %mask <{l1_hint = #xegpu.cache_hint<write_back>}> : vector<16x8xf32>, !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, vector<16xi1>
  %old = xegpu.atomic_rmw addf %t1, %mask, %v : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
  %g = xegpu.load %src[%off], %mask : memref<1024xf32>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
  %gp = xegpu.load %ptr[%off], %mask <{chunk_size = 2 : i64}> : i64, vector<16xindex>, vector<16xi1> -> vector<16x2xf32>
  xegpu.store %gp, %ptr[%off], %mask <{chunk_size = 2 : i64}> : vector<16x2xf32>, i64, vector<16xindex>, vector<16xi1>
  %s = xegpu.load %src[%soff], %smask <{chunk_size = 2 : i64, l1_hint = #xegpu.cache_hint<cached>}> : memref<1024xf32>, index, i1 -> vector<2xf32>
  %s1 = xegpu.load %src[%soff], %smask : memref<1024xf32>, index, i1 -> f32
  xegpu.store %s1, %src[%soff], %smask : f32, memref<1024xf32>, index, i1
  xegpu.prefetch %src[%off] : memref<1024xf32>, vector<16xindex>
  xegpu.prefetch %ptr[%soff] <{offset_align_byte = 4 : i64}> : i64, index
  return
}
func.func @workgroup(%ptr: i64, %v: vector<128x128xf32>) {
  %t = xegpu.create_nd_tdesc %ptr, shape : [256, 256], strides : [256, 1] : i64 -> !xegpu.tensor_desc<32x64xf32, #wg>
  %x = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<32x64xf32, #wg> -> vector<32x64xf32>
  %y = xegpu.convert_layout %v <{input_layout = #xegpu.layout<sg_layout = [8, 4], sg_data = [16, 32]>, target_layout = #xegpu.layout<sg_layout = [8, 4], sg_data = [16, 32], order = [0, 1]>}> : vector<128x128xf32>
  %z = xegpu.convert_layout %y <{input_layout = #xegpu.slice<#xegpu.layout<sg_layout = [8, 4, 2], sg_data = [16, 32, 8]>, dims = [2]>, target_layout = #xegpu.layout<sg_layout = [8, 4], sg_data = [16, 32]>}> : vector<128x128xf32>
  %p = xegpu.dpas %z, %z, %z {layout_a = #xegpu.layout<sg_layout = [8, 4], sg_data = [16, 32]>, layout_cd = #xegpu.layout<sg_layout = [8, 4], sg_data = [16, 32]>} : vector<128x128xf32>, vector<128x128xf32>, vector<128x128xf32> -> vector<128x128xf32>
  return
}
func.func @barriers_and_slm(%id: i8, %n: i8, %m: memref<4096xi8, 3>, %x: index) {
  xegpu.alloc_nbarrier 16
  %nb = xegpu.init_nbarrier %id, %n : i8, i8 -> !xegpu.nbarrier
  xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
  xegpu.nbarrier_wait %nb : !xegpu.nbarrier
  xegpu.fence memory_kind = global, fence_scope = workgroup
  xegpu.fence memory_kind = slm, fence_scope = gpu
  %md = xegpu.create_mem_desc %m : memref<4096xi8, 3> -> !xegpu.mem_desc<32x64xf16>
  %sub = xegpu.mem_desc_subview %md[0, 16] : !xegpu.mem_desc<32x64xf16> -> !xegpu.mem_desc<16x16xf16, #xegpu.mem_layout<stride = [64, 1]>>
  %v = xegpu.load_matrix %md[8, %x] : !xegpu.mem_desc<32x64xf16>, index -> vector<8x16xf16>
  xegpu.store_matrix %v, %md[0, 0] <{layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>}> : vector<8x16xf16>, !xegpu.mem_desc<32x64xf16>
  return
}
