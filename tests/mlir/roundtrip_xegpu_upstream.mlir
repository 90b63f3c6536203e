// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s
// Every op form of today's upstream XeGPU dialect (shared/spec/upstream-xegpu-xevm.md §2, state of Sept 2026: see
// isa/README.md "Upstream states") prints back unchanged: 3-D (batched) block descriptors, offsets on the *_nd ops,
// scattered access from a buffer with rank-1/2 offsets, chunks, contiguity and one-element lane vectors, batched
// DPAS, dpas_mx with keyword scales and a functional type (also scalar scales and no scales), truncf, lane_shuffle,
// convert_layout without an input layout.  The CHECK lines are the input lines (written from the spec's syntax).

// CHECK: module {
// CHECK-NEXT:   func.func @block(%src: memref<64x64xf16>, %src3: memref<4x32x32xf16>, %ptr: ui64, %h: index, %x: index, %y: index, %v3: vector<2x16x16xf16>) {
// CHECK-NEXT:     %a = xegpu.create_nd_tdesc %src : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>
// CHECK-NEXT:     %b = xegpu.create_nd_tdesc %ptr, shape : [%h, 128], strides : [128, 1] : ui64 -> !xegpu.tensor_desc<16x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>
// CHECK-NEXT:     %c = xegpu.create_nd_tdesc %src3 : memref<4x32x32xf16> -> !xegpu.tensor_desc<2x16x16xf16>
// CHECK-NEXT:     %w = xegpu.create_nd_tdesc %src : memref<64x64xf16> -> !xegpu.tensor_desc<32x64xf16, #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>>
// CHECK-NEXT:     xegpu.prefetch_nd %a[%x, 0] <{l1_hint = #xegpu.cache_hint<cached>}> : !xegpu.tensor_desc<8x16xf16>
// CHECK-NEXT:     %va = xegpu.load_nd %a[%x, %y] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
// CHECK-NEXT:     %vp = xegpu.load_nd %b[0, 16] <{packed}> : !xegpu.tensor_desc<16x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<16x16x2xf16>
// CHECK-NEXT:     %vs = xegpu.load_nd %b[%x, 0] : !xegpu.tensor_desc<16x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<2x16x16xf16>
// CHECK-NEXT:     %vl = xegpu.load_nd %a[0, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8xf16>
// CHECK-NEXT:     %vc = xegpu.load_nd %c[1, 0, 16] : !xegpu.tensor_desc<2x16x16xf16> -> vector<2x16x16xf16>
// CHECK-NEXT:     xegpu.store_nd %v3, %c[2, %x, 0] <{l1_hint = #xegpu.cache_hint<write_back>}> : vector<2x16x16xf16>, !xegpu.tensor_desc<2x16x16xf16>
// CHECK-NEXT:     xegpu.store_nd %vl, %a[0, 0] : vector<8xf16>, !xegpu.tensor_desc<8x16xf16>
// CHECK-NEXT:     %vw = xegpu.load_nd %w[0, 0] <{layout = #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>}> : !xegpu.tensor_desc<32x64xf16, #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>> -> vector<32x64xf16>
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @scattered(%buf: memref<1024xf32>, %p: i64, %offs: vector<16xindex>, %m: vector<16xi1>, %o2: vector<2x16xindex>, %m2: vector<2x16xi1>, %o: index, %b: i1, %o1: vector<1xindex>, %m1: vector<1xi1>, %v: vector<16xf32>) {
// CHECK-NEXT:     xegpu.prefetch %buf[%offs] <{l1_hint = #xegpu.cache_hint<cached>}> : memref<1024xf32>, vector<16xindex>
// CHECK-NEXT:     xegpu.prefetch %p[%o] <{offset_align_byte = 4 : i64}> : i64, index
// CHECK-NEXT:     %g = xegpu.load %buf[%offs], %m : memref<1024xf32>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
// CHECK-NEXT:     %g8 = xegpu.load %p[%offs], %m <{chunk_size = 8 : i64}> : i64, vector<16xindex>, vector<16xi1> -> vector<16x8xf16>
// CHECK-NEXT:     %g2 = xegpu.load %buf[%o2], %m2 <{chunk_size = 4 : i64}> : memref<1024xf32>, vector<2x16xindex>, vector<2x16xi1> -> vector<2x16x4xf32>
// CHECK-NEXT:     %gc = xegpu.load %buf[%offs], %m <{contiguity = 4 : i64}> : memref<1024xf32>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
// CHECK-NEXT:     %ls = xegpu.load %buf[%o], %b <{chunk_size = 8 : i64}> : memref<1024xf32>, index, i1 -> vector<8xf32>
// CHECK-NEXT:     %l1 = xegpu.load %buf[%o1], %m1 <{chunk_size = 2 : i64}> : memref<1024xf32>, vector<1xindex>, vector<1xi1> -> vector<2xf32>
// CHECK-NEXT:     xegpu.store %v, %buf[%offs], %m <{l1_hint = #xegpu.cache_hint<write_back>}> : vector<16xf32>, memref<1024xf32>, vector<16xindex>, vector<16xi1>
// CHECK-NEXT:     xegpu.store %ls, %buf[%o], %b <{chunk_size = 8 : i64}> : vector<8xf32>, memref<1024xf32>, index, i1
// CHECK-NEXT:     xegpu.store %l1, %buf[%o1], %m1 <{chunk_size = 2 : i64}> : vector<2xf32>, memref<1024xf32>, vector<1xindex>, vector<1xi1>
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @compute(%a: vector<8x16xf16>, %bp: vector<8x16x2xf16>, %c: vector<8x16xf32>, %fa: vector<8xf16>, %fb: vector<16xf16>, %fc: vector<8xf32>, %a4: vector<4x8x16xbf16>, %b4: vector<4x16x16xbf16>, %c4: vector<4x8x16xf32>, %h: vector<16xf16>, %frag: vector<2xi16>) {
// CHECK-NEXT:     %d = xegpu.dpas %a, %bp, %c : vector<8x16xf16>, vector<8x16x2xf16>, vector<8x16xf32> -> vector<8x16xf32>
// CHECK-NEXT:     %e = xegpu.dpas %a, %bp : vector<8x16xf16>, vector<8x16x2xf16> -> vector<8x16xf32>
// CHECK-NEXT:     %f = xegpu.dpas %fa, %fb, %fc : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>
// CHECK-NEXT:     %g = xegpu.dpas %a4, %b4, %c4 : vector<4x8x16xbf16>, vector<4x16x16xbf16>, vector<4x8x16xf32> -> vector<4x8x16xf32>
// CHECK-NEXT:     %q = xegpu.truncf %h : vector<16xf16> -> vector<16xf8E5M2>
// CHECK-NEXT:     %q4 = xegpu.truncf %h : vector<16xf16> -> vector<16xf4E2M1FN>
// CHECK-NEXT:     %p = xegpu.lane_shuffle %frag pack : vector<2xi16>
// CHECK-NEXT:     %u = xegpu.lane_shuffle %p unpack : vector<2xi16>
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @mx(%a: vector<8x32xf8E5M2>, %b: vector<32x16xf8E5M2>, %c: vector<8x16xf32>, %sa: vector<8x1xf8E8M0FNU>, %sb: vector<1x16xf8E8M0FNU>, %a4: vector<8x64xf4E2M1FN>, %b4: vector<64x16xf4E2M1FN>, %sa2: vector<8x2xf8E8M0FNU>, %sb2: vector<2x16xf8E8M0FNU>, %fa: vector<16xf8E4M3FN>, %fb: vector<32xf8E5M2>, %fc: vector<8xf32>, %ls: vector<1xf8E8M0FNU>, %s: f8E8M0FNU) {
// CHECK-NEXT:     %d = xegpu.dpas_mx %a, %b, %c scale_a = %sa scale_b = %sb : (vector<8x32xf8E5M2>, vector<32x16xf8E5M2>, vector<8x16xf32>, vector<8x1xf8E8M0FNU>, vector<1x16xf8E8M0FNU>) -> vector<8x16xf32>
// CHECK-NEXT:     %e = xegpu.dpas_mx %a4, %b4 scale_a = %sa2 scale_b = %sb2 : (vector<8x64xf4E2M1FN>, vector<64x16xf4E2M1FN>, vector<8x2xf8E8M0FNU>, vector<2x16xf8E8M0FNU>) -> vector<8x16xf32>
// CHECK-NEXT:     %f = xegpu.dpas_mx %fa, %fb, %fc scale_a = %ls scale_b = %ls : (vector<16xf8E4M3FN>, vector<32xf8E5M2>, vector<8xf32>, vector<1xf8E8M0FNU>, vector<1xf8E8M0FNU>) -> vector<8xf32>
// CHECK-NEXT:     %g = xegpu.dpas_mx %a, %b, %c scale_a = %s scale_b = %s : (vector<8x32xf8E5M2>, vector<32x16xf8E5M2>, vector<8x16xf32>, f8E8M0FNU, f8E8M0FNU) -> vector<8x16xf32>
// CHECK-NEXT:     %h = xegpu.dpas_mx %a, %b, %c : (vector<8x32xf8E5M2>, vector<32x16xf8E5M2>, vector<8x16xf32>) -> vector<8x16xf32>
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @sync_and_slm(%v: vector<128x128xf16>, %slm: memref<4096xi8, 3>, %t: vector<8x16xf16>, %i: index, %id: i8, %n: i8) {
// CHECK-NEXT:     xegpu.alloc_nbarrier 16
// CHECK-NEXT:     %nb = xegpu.init_nbarrier %id, %n : i8, i8 -> !xegpu.nbarrier
// CHECK-NEXT:     xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
// CHECK-NEXT:     xegpu.nbarrier_wait %nb : !xegpu.nbarrier
// CHECK-NEXT:     xegpu.fence memory_kind = global, fence_scope = workgroup
// CHECK-NEXT:     %r = xegpu.convert_layout %v <{input_layout = #xegpu.layout<sg_layout = [8, 8], sg_data = [16, 128]>, target_layout = #xegpu.layout<sg_layout = [8, 8], sg_data = [16, 16]>}> : vector<128x128xf16>
// CHECK-NEXT:     %r2 = xegpu.convert_layout %v <{target_layout = #xegpu.layout<sg_layout = [8, 8], sg_data = [16, 16]>}> : vector<128x128xf16>
// CHECK-NEXT:     %md = xegpu.create_mem_desc %slm : memref<4096xi8, 3> -> !xegpu.mem_desc<32x64xf16>
// CHECK-NEXT:     %lm = xegpu.load_matrix %md[8, 16] : !xegpu.mem_desc<32x64xf16> -> vector<8x16xf16>
// CHECK-NEXT:     xegpu.store_matrix %t, %md[%i, 0] : vector<8x16xf16>, !xegpu.mem_desc<32x64xf16>, index
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @atomic(%buf: memref<256xf32>, %m: vector<16xi1>, %v: vector<16xf32>) {
// CHECK-NEXT:     %t = xegpu.create_nd_tdesc %buf : memref<256xf32> -> !xegpu.tensor_desc<16xf32>
// CHECK-NEXT:     %o = xegpu.atomic_rmw addf %t, %m, %v : !xegpu.tensor_desc<16xf32>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
// CHECK-NEXT:     %o2 = xegpu.atomic_rmw maximumf %t, %m, %v <{layout = #xegpu.layout<lane_layout = [16], lane_data = [1]>}> : !xegpu.tensor_desc<16xf32>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }

module {
  func.func @block(%src: memref<64x64xf16>, %src3: memref<4x32x32xf16>, %ptr: ui64, %h: index, %x: index, %y: index, %v3: vector<2x16x16xf16>) {
    %a = xegpu.create_nd_tdesc %src : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>
    %b = xegpu.create_nd_tdesc %ptr, shape : [%h, 128], strides : [128, 1] : ui64 -> !xegpu.tensor_desc<16x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>
    %c = xegpu.create_nd_tdesc %src3 : memref<4x32x32xf16> -> !xegpu.tensor_desc<2x16x16xf16>
    %w = xegpu.create_nd_tdesc %src : memref<64x64xf16> -> !xegpu.tensor_desc<32x64xf16, #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>>
    xegpu.prefetch_nd %a[%x, 0] <{l1_hint = #xegpu.cache_hint<cached>}> : !xegpu.tensor_desc<8x16xf16>
    %va = xegpu.load_nd %a[%x, %y] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
    %vp = xegpu.load_nd %b[0, 16] <{packed}> : !xegpu.tensor_desc<16x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<16x16x2xf16>
    %vs = xegpu.load_nd %b[%x, 0] : !xegpu.tensor_desc<16x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<2x16x16xf16>
    %vl = xegpu.load_nd %a[0, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8xf16>
    %vc = xegpu.load_nd %c[1, 0, 16] : !xegpu.tensor_desc<2x16x16xf16> -> vector<2x16x16xf16>
    xegpu.store_nd %v3, %c[2, %x, 0] <{l1_hint = #xegpu.cache_hint<write_back>}> : vector<2x16x16xf16>, !xegpu.tensor_desc<2x16x16xf16>
    xegpu.store_nd %vl, %a[0, 0] : vector<8xf16>, !xegpu.tensor_desc<8x16xf16>
    %vw = xegpu.load_nd %w[0, 0] <{layout = #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>}> : !xegpu.tensor_desc<32x64xf16, #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>> -> vector<32x64xf16>
    return
  }
  func.func @scattered(%buf: memref<1024xf32>, %p: i64, %offs: vector<16xindex>, %m: vector<16xi1>, %o2: vector<2x16xindex>, %m2: vector<2x16xi1>, %o: index, %b: i1, %o1: vector<1xindex>, %m1: vector<1xi1>, %v: vector<16xf32>) {
    xegpu.prefetch %buf[%offs] <{l1_hint = #xegpu.cache_hint<cached>}> : memref<1024xf32>, vector<16xindex>
    xegpu.prefetch %p[%o] <{offset_align_byte = 4 : i64}> : i64, index
    %g = xegpu.load %buf[%offs], %m : memref<1024xf32>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
    %g8 = xegpu.load %p[%offs], %m <{chunk_size = 8 : i64}> : i64, vector<16xindex>, vector<16xi1> -> vector<16x8xf16>
    %g2 = xegpu.load %buf[%o2], %m2 <{chunk_size = 4 : i64}> : memref<1024xf32>, vector<2x16xindex>, vector<2x16xi1> -> vector<2x16x4xf32>
    %gc = xegpu.load %buf[%offs], %m <{contiguity = 4 : i64}> : memref<1024xf32>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
    %ls = xegpu.load %buf[%o], %b <{chunk_size = 8 : i64}> : memref<1024xf32>, index, i1 -> vector<8xf32>
    %l1 = xegpu.load %buf[%o1], %m1 <{chunk_size = 2 : i64}> : memref<1024xf32>, vector<1xindex>, vector<1xi1> -> vector<2xf32>
    xegpu.store %v, %buf[%offs], %m <{l1_hint = #xegpu.cache_hint<write_back>}> : vector<16xf32>, memref<1024xf32>, vector<16xindex>, vector<16xi1>
    xegpu.store %ls, %buf[%o], %b <{chunk_size = 8 : i64}> : vector<8xf32>, memref<1024xf32>, index, i1
    xegpu.store %l1, %buf[%o1], %m1 <{chunk_size = 2 : i64}> : vector<2xf32>, memref<1024xf32>, vector<1xindex>, vector<1xi1>
    return
  }
  func.func @compute(%a: vector<8x16xf16>, %bp: vector<8x16x2xf16>, %c: vector<8x16xf32>, %fa: vector<8xf16>, %fb: vector<16xf16>, %fc: vector<8xf32>, %a4: vector<4x8x16xbf16>, %b4: vector<4x16x16xbf16>, %c4: vector<4x8x16xf32>, %h: vector<16xf16>, %frag: vector<2xi16>) {
    %d = xegpu.dpas %a, %bp, %c : vector<8x16xf16>, vector<8x16x2xf16>, vector<8x16xf32> -> vector<8x16xf32>
    %e = xegpu.dpas %a, %bp : vector<8x16xf16>, vector<8x16x2xf16> -> vector<8x16xf32>
    %f = xegpu.dpas %fa, %fb, %fc : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>
    %g = xegpu.dpas %a4, %b4, %c4 : vector<4x8x16xbf16>, vector<4x16x16xbf16>, vector<4x8x16xf32> -> vector<4x8x16xf32>
    %q = xegpu.truncf %h : vector<16xf16> -> vector<16xf8E5M2>
    %q4 = xegpu.truncf %h : vector<16xf16> -> vector<16xf4E2M1FN>
    %p = xegpu.lane_shuffle %frag pack : vector<2xi16>
    %u = xegpu.lane_shuffle %p unpack : vector<2xi16>
    return
  }
  func.func @mx(%a: vector<8x32xf8E5M2>, %b: vector<32x16xf8E5M2>, %c: vector<8x16xf32>, %sa: vector<8x1xf8E8M0FNU>, %sb: vector<1x16xf8E8M0FNU>, %a4: vector<8x64xf4E2M1FN>, %b4: vector<64x16xf4E2M1FN>, %sa2: vector<8x2xf8E8M0FNU>, %sb2: vector<2x16xf8E8M0FNU>, %fa: vector<16xf8E4M3FN>, %fb: vector<32xf8E5M2>, %fc: vector<8xf32>, %ls: vector<1xf8E8M0FNU>, %s: f8E8M0FNU) {
    %d = xegpu.dpas_mx %a, %b, %c scale_a = %sa scale_b = %sb : (vector<8x32xf8E5M2>, vector<32x16xf8E5M2>, vector<8x16xf32>, vector<8x1xf8E8M0FNU>, vector<1x16xf8E8M0FNU>) -> vector<8x16xf32>
    %e = xegpu.dpas_mx %a4, %b4 scale_a = %sa2 scale_b = %sb2 : (vector<8x64xf4E2M1FN>, vector<64x16xf4E2M1FN>, vector<8x2xf8E8M0FNU>, vector<2x16xf8E8M0FNU>) -> vector<8x16xf32>
    %f = xegpu.dpas_mx %fa, %fb, %fc scale_a = %ls scale_b = %ls : (vector<16xf8E4M3FN>, vector<32xf8E5M2>, vector<8xf32>, vector<1xf8E8M0FNU>, vector<1xf8E8M0FNU>) -> vector<8xf32>
    %g = xegpu.dpas_mx %a, %b, %c scale_a = %s scale_b = %s : (vector<8x32xf8E5M2>, vector<32x16xf8E5M2>, vector<8x16xf32>, f8E8M0FNU, f8E8M0FNU) -> vector<8x16xf32>
    %h = xegpu.dpas_mx %a, %b, %c : (vector<8x32xf8E5M2>, vector<32x16xf8E5M2>, vector<8x16xf32>) -> vector<8x16xf32>
    return
  }
  func.func @sync_and_slm(%v: vector<128x128xf16>, %slm: memref<4096xi8, 3>, %t: vector<8x16xf16>, %i: index, %id: i8, %n: i8) {
    xegpu.alloc_nbarrier 16
    %nb = xegpu.init_nbarrier %id, %n : i8, i8 -> !xegpu.nbarrier
    xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
    xegpu.nbarrier_wait %nb : !xegpu.nbarrier
    xegpu.fence memory_kind = global, fence_scope = workgroup
    %r = xegpu.convert_layout %v <{input_layout = #xegpu.layout<sg_layout = [8, 8], sg_data = [16, 128]>, target_layout = #xegpu.layout<sg_layout = [8, 8], sg_data = [16, 16]>}> : vector<128x128xf16>
    %r2 = xegpu.convert_layout %v <{target_layout = #xegpu.layout<sg_layout = [8, 8], sg_data = [16, 16]>}> : vector<128x128xf16>
    %md = xegpu.create_mem_desc %slm : memref<4096xi8, 3> -> !xegpu.mem_desc<32x64xf16>
    %lm = xegpu.load_matrix %md[8, 16] : !xegpu.mem_desc<32x64xf16> -> vector<8x16xf16>
    xegpu.store_matrix %t, %md[%i, 0] : vector<8x16xf16>, !xegpu.mem_desc<32x64xf16>, index
    return
  }
  func.func @atomic(%buf: memref<256xf32>, %m: vector<16xi1>, %v: vector<16xf32>) {
    %t = xegpu.create_nd_tdesc %buf : memref<256xf32> -> !xegpu.tensor_desc<16xf32>
    %o = xegpu.atomic_rmw addf %t, %m, %v : !xegpu.tensor_desc<16xf32>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
    %o2 = xegpu.atomic_rmw maximumf %t, %m, %v <{layout = #xegpu.layout<lane_layout = [16], lane_data = [1]>}> : !xegpu.tensor_desc<16xf32>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
    return
  }
}
