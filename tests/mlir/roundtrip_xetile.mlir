// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s
// XeTile spellings (shared/spec/xetile.md §2-§3, Appendix A) print in the canonical form of §2.2/§3: full
// #xetile.tile_attr<...> in types with nested maps bare, integer attributes typed, legacy parameters (memory_scope,
// xe_map, mma_block_size), legacy op spellings (reduce, transpose without comma, the old update_tile_offset type
// list, a string atomic kind, #vector.kind<...>) normalised.

#wg = #xetile.wg_map<sg_layout = [8, 4], sg_data = [32, 32]>
#ta = #xetile.tile_attr<wg_map = #wg>
func.func @spellings(%A: memref<1024x1024xf16>, %S: memref<64x32xf16, 3>, %flat: memref<4096xf32>, %idx: vector<4x16xindex>, %m: vector<4x16xi1>, %p: i64, %c0: index, %c32: index, %x: vector<16x64xf32>, %v: vector<32x32xf32>) {
  %t0 = xetile.init_tile %A[%c0, 0] : memref<1024x1024xf16> -> !xetile.tile<256x32xf16, #ta>
  %t1 = xetile.init_tile %A[%c0, 0] : memref<1024x1024xf16> -> !xetile.tile<32x32xf16, <sg_map = <wi_layout = [1, 16], wi_data = [1, 1]>, array_length = 2>>
  %t2 = xetile.init_tile %S[0, 16] : memref<64x32xf16, 3> -> !xetile.tile<64x16xf16, #xetile.tile_attr<memory_scope = 3 : i64>>
  %t3 = xetile.init_tile %A[%c0, 0] : memref<1024x1024xf16> -> !xetile.tile<32x32xf16, #xetile.xe_map<wg = #xetile.wg_map<sg_layout = [2, 2], sg_data = [16, 16]>, sg = #xetile.sg_map<mma_block_size = [8, 16], wi_layout = [1, 16], wi_data = [1, 1]>>>
  %t4 = xetile.init_tile %flat, %idx : memref<4096xf32>, vector<4x16xindex> -> !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>
  %t5 = xetile.update_tile_offset %t0, [%c0, %c32] : !xetile.tile<256x32xf16, #ta>, index, index -> !xetile.tile<256x32xf16, #ta>
  %r = xetile.reduce <add>, %x [1] : vector<16x64xf32> -> vector<16x1xf32>
  %tr = xetile.transpose %x [1, 0] : vector<16x64xf32> -> vector<64x16xf32>
  %ts = xetile.init_tile %p[%c0, 0], [%c32, %c32], [%c32, 1] : i64 -> !xetile.tile<32x32xf32>
  %o = xetile.atomic_rmw "addf" %v, %ts : vector<32x32xf32>, !xetile.tile<32x32xf32> -> vector<32x32xf32>
  %rk = xetile.reduction #vector.kind<maximumf>, %x [0] : vector<16x64xf32> -> vector<1x64xf32>
  return
}

// CHECK: module {
// CHECK-NEXT: func.func @spellings(%A: memref<1024x1024xf16>, %S: memref<64x32xf16, 3>, %flat: memref<4096xf32>, %idx: vector<4x16xindex>, %m: vector<4x16xi1>, %p: i64, %c0: index, %c32: index, %x: vector<16x64xf32>, %v: vector<32x32xf32>) {
// CHECK-NEXT: %t0 = xetile.init_tile %A[%c0, 0] : memref<1024x1024xf16> -> !xetile.tile<256x32xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 32]>>>
// CHECK-NEXT: %t1 = xetile.init_tile %A[%c0, 0] : memref<1024x1024xf16> -> !xetile.tile<32x32xf16, #xetile.tile_attr<sg_map = <wi_layout = [1, 16], wi_data = [1, 1]>, array_length = 2 : i64>>
// CHECK-NEXT: %t2 = xetile.init_tile %S[0, 16] : memref<64x32xf16, 3> -> !xetile.tile<64x16xf16, #xetile.tile_attr<memory_space = 3 : i64>>
// CHECK-NEXT: %t3 = xetile.init_tile %A[%c0, 0] : memref<1024x1024xf16> -> !xetile.tile<32x32xf16, #xetile.tile_attr<sg_map = <wi_layout = [1, 16], wi_data = [1, 1]>, wg_map = <sg_layout = [2, 2], sg_data = [16, 16]>>>
// CHECK-NEXT: %t4 = xetile.init_tile %flat, %idx : memref<4096xf32>, vector<4x16xindex> -> !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>
// CHECK-NEXT: %t5 = xetile.update_tile_offset %t0, [%c0, %c32] : !xetile.tile<256x32xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 32]>>>
// CHECK-NEXT: %r = xetile.reduce <add>, %x [1] : vector<16x64xf32> -> vector<16x1xf32>
// CHECK-NEXT: %tr = xetile.transpose %x, [1, 0] : vector<16x64xf32> -> vector<64x16xf32>
// CHECK-NEXT: %ts = xetile.init_tile %p[%c0, 0], [%c32, %c32], [%c32, 1] : i64 -> !xetile.tile<32x32xf32>
// CHECK-NEXT: %o = xetile.atomic_rmw addf %v, %ts : vector<32x32xf32>, !xetile.tile<32x32xf32> -> vector<32x32xf32>
// CHECK-NEXT: %rk = xetile.reduction <maximumf>, %x [0] : vector<16x64xf32> -> vector<1x64xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
