// Batched (3-D) block descriptors at lane level (upstream-xegpu-xevm.md §2.3 "Batched descriptors", §2.20): each
// lane holds its fragment of every plane of the tile, planes in row-major order (lane i: column i of the 8x16
// plane, 8 f16 per plane).  Two workgroups of one subgroup; workgroup w works on columns 16w .. 16w+15.
// src[p][r][c] = 32p + r + c/8 (f16, exact); dst starts at -1 everywhere.
//   1. tile 1x8x16 at [1, 4, 16w]:  dst[0, 0:8]  = 2 * src[1, 4:12]         (lane fragment vector<8xf16>)
//   2. tile 2x8x16 at [1, 8, 16w]:  dst[1:3, 0:8] = src[1:3, 8:16]          (vector<16xf16>: plane 1 then plane 2)
//   3. tile 2x8x16 at [2, 0, 16w]:  plane 3 does not exist and reads 0 -> stored at [0, 8, 16w]:
//                                   dst[0, 8:16] = src[2, 0:8]; dst[1, 8:16] = 0
//   4. the same value stored at [2, 8, 16w]: dst[2, 8:16] = src[2, 0:8]; its plane 3 is dropped (no plane 3)
// Printed: dst[:, :, 14:18] (the columns where the two workgroups meet).
// Kernel @packed (one subgroup): a packed (VNNI) load of a 2x16x16 tile of src[:, 0:16, 0:16]: each lane's
// fragment is its VNNI fragment of plane 0 then of plane 1 (lane_data [2, 1]: lane i holds column i in k order);
// lane i writes its 32 values to frag[i, :].  Expected: frag[i, k] = src[k // 16, k % 16, i].
// Expected (numpy): p, r, c = np.indices((3, 16, 32)); src = (32*p + r + c/8).astype(np.float16)
//   dst = np.full((3, 16, 32), -1, np.float16); dst[0, 0:8] = 2*src[1, 4:12]; dst[1:3, 0:8] = src[1:3, 8:16]
//   dst[0, 8:16] = src[2, 0:8]; dst[1, 8:16] = 0; dst[2, 8:16] = src[2, 0:8]; print(dst[:, :, 14:18])
// RUN: xesim run %s | filecheck %s

module @lane_batched attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%src: memref<3x16x32xf16>, %dst: memref<3x16x32xf16>) kernel {
      %w = gpu.block_id x
      %c16 = arith.constant 16 : index
      %col = arith.muli %w, %c16 : index
      %t1 = xegpu.create_nd_tdesc %src : memref<3x16x32xf16> -> !xegpu.tensor_desc<1x8x16xf16>
      %d1 = xegpu.create_nd_tdesc %dst : memref<3x16x32xf16> -> !xegpu.tensor_desc<1x8x16xf16>
      %a = xegpu.load_nd %t1[1, 4, %col] : !xegpu.tensor_desc<1x8x16xf16> -> vector<8xf16>
      %a2 = arith.addf %a, %a : vector<8xf16>
      xegpu.store_nd %a2, %d1[0, 0, %col] : vector<8xf16>, !xegpu.tensor_desc<1x8x16xf16>
      %t2 = xegpu.create_nd_tdesc %src : memref<3x16x32xf16> -> !xegpu.tensor_desc<2x8x16xf16>
      %d2 = xegpu.create_nd_tdesc %dst : memref<3x16x32xf16> -> !xegpu.tensor_desc<2x8x16xf16>
      %b = xegpu.load_nd %t2[1, 8, %col] : !xegpu.tensor_desc<2x8x16xf16> -> vector<16xf16>
      xegpu.store_nd %b, %d2[1, 0, %col] : vector<16xf16>, !xegpu.tensor_desc<2x8x16xf16>
      %c = xegpu.load_nd %t2[2, 0, %col] : !xegpu.tensor_desc<2x8x16xf16> -> vector<16xf16>
      xegpu.store_nd %c, %d2[0, 8, %col] : vector<16xf16>, !xegpu.tensor_desc<2x8x16xf16>
      xegpu.store_nd %c, %d2[2, 8, %col] : vector<16xf16>, !xegpu.tensor_desc<2x8x16xf16>
      gpu.return
    }
    gpu.func @packed(%src: memref<3x16x32xf16>, %frag: memref<16x32xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %lane = gpu.lane_id
      %t = xegpu.create_nd_tdesc %src : memref<3x16x32xf16> -> !xegpu.tensor_desc<2x16x16xf16>
      %v = xegpu.load_nd %t[0, 0, 0] <{packed}> : !xegpu.tensor_desc<2x16x16xf16> -> vector<32xf16>
      scf.for %k = %c0 to %c32 step %c1 {
        %e = vector.extract %v[%k] : f16 from vector<32xf16>
        memref.store %e, %frag[%lane, %k] : memref<16x32xf16>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %m1 = arith.constant -1.0 : f16
    %eighth = arith.constant 0.125 : f32
    %S = memref.alloc() : memref<3x16x32xf16>
    %D = memref.alloc() : memref<3x16x32xf16>
    scf.for %p = %c0 to %c3 step %c1 {
      scf.for %r = %c0 to %c16 step %c1 {
        scf.for %c = %c0 to %c32 step %c1 {
          %p32 = arith.muli %p, %c32 : index
          %pr = arith.addi %p32, %r : index
          %pri = arith.index_cast %pr : index to i32
          %prf = arith.sitofp %pri : i32 to f32
          %ci = arith.index_cast %c : index to i32
          %cf = arith.sitofp %ci : i32 to f32
          %c8 = arith.mulf %cf, %eighth : f32
          %v = arith.addf %prf, %c8 : f32
          %h = arith.truncf %v : f32 to f16
          memref.store %h, %S[%p, %r, %c] : memref<3x16x32xf16>
          memref.store %m1, %D[%p, %r, %c] : memref<3x16x32xf16>
        }
      }
    }
    %dS = gpu.alloc () : memref<3x16x32xf16>
    %dD = gpu.alloc () : memref<3x16x32xf16>
    gpu.memcpy %dS, %S : memref<3x16x32xf16>, memref<3x16x32xf16>
    gpu.memcpy %dD, %D : memref<3x16x32xf16>, memref<3x16x32xf16>
    gpu.launch_func @kernels::@k blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1) args(%dS : memref<3x16x32xf16>, %dD : memref<3x16x32xf16>)
    gpu.memcpy %D, %dD : memref<3x16x32xf16>, memref<3x16x32xf16>
    %sv = memref.subview %D[0, 0, 14] [3, 16, 4] [1, 1, 1] : memref<3x16x32xf16> to memref<3x16x4xf16, strided<[512, 32, 1], offset: 14>>
    %u = memref.cast %sv : memref<3x16x4xf16, strided<[512, 32, 1], offset: 14>> to memref<*xf16>
    call @printMemrefF16(%u) : (memref<*xf16>) -> ()
    %dF = gpu.alloc () : memref<16x32xf16>
    gpu.launch_func @kernels::@packed blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dS : memref<3x16x32xf16>, %dF : memref<16x32xf16>)
    %F = memref.alloc() : memref<16x32xf16>
    gpu.memcpy %F, %dF : memref<16x32xf16>, memref<16x32xf16>
    %fu = memref.cast %F : memref<16x32xf16> to memref<*xf16>
    call @printMemrefF16(%fu) : (memref<*xf16>) -> ()
    return
  }
  func.func private @printMemrefF16(%p : memref<*xf16>) attributes {llvm.emit_c_interface}
}

// CHECK: sizes = [3, 16, 4] strides = [512, 32, 1] data =
// CHECK-NEXT: [75.5, 75.75, 76, 76.25]
// CHECK-NEXT: [77.5, 77.75, 78, 78.25]
// CHECK-NEXT: [79.5, 79.75, 80, 80.25]
// CHECK-NEXT: [81.5, 81.75, 82, 82.25]
// CHECK-NEXT: [83.5, 83.75, 84, 84.25]
// CHECK-NEXT: [85.5, 85.75, 86, 86.25]
// CHECK-NEXT: [87.5, 87.75, 88, 88.25]
// CHECK-NEXT: [89.5, 89.75, 90, 90.25]
// CHECK-NEXT: [65.75, 65.875, 66, 66.125]
// CHECK-NEXT: [66.75, 66.875, 67, 67.125]
// CHECK-NEXT: [67.75, 67.875, 68, 68.125]
// CHECK-NEXT: [68.75, 68.875, 69, 69.125]
// CHECK-NEXT: [69.75, 69.875, 70, 70.125]
// CHECK-NEXT: [70.75, 70.875, 71, 71.125]
// CHECK-NEXT: [71.75, 71.875, 72, 72.125]
// CHECK-NEXT: [72.75, 72.875, 73, 73.125]
// CHECK-NEXT: [41.75, 41.875, 42, 42.125]
// CHECK-NEXT: [42.75, 42.875, 43, 43.125]
// CHECK-NEXT: [43.75, 43.875, 44, 44.125]
// CHECK-NEXT: [44.75, 44.875, 45, 45.125]
// CHECK-NEXT: [45.75, 45.875, 46, 46.125]
// CHECK-NEXT: [46.75, 46.875, 47, 47.125]
// CHECK-NEXT: [47.75, 47.875, 48, 48.125]
// CHECK-NEXT: [48.75, 48.875, 49, 49.125]
// CHECK-NEXT: [0, 0, 0, 0]
// CHECK-NEXT: [0, 0, 0, 0]
// CHECK-NEXT: [0, 0, 0, 0]
// CHECK-NEXT: [0, 0, 0, 0]
// CHECK-NEXT: [0, 0, 0, 0]
// CHECK-NEXT: [0, 0, 0, 0]
// CHECK-NEXT: [0, 0, 0, 0]
// CHECK-NEXT: [0, 0, 0, 0]
// CHECK-NEXT: [73.75, 73.875, 74, 74.125]
// CHECK-NEXT: [74.75, 74.875, 75, 75.125]
// CHECK-NEXT: [75.75, 75.875, 76, 76.125]
// CHECK-NEXT: [76.75, 76.875, 77, 77.125]
// CHECK-NEXT: [77.75, 77.875, 78, 78.125]
// CHECK-NEXT: [78.75, 78.875, 79, 79.125]
// CHECK-NEXT: [79.75, 79.875, 80, 80.125]
// CHECK-NEXT: [80.75, 80.875, 81, 81.125]
// CHECK-NEXT: [65.75, 65.875, 66, 66.125]
// CHECK-NEXT: [66.75, 66.875, 67, 67.125]
// CHECK-NEXT: [67.75, 67.875, 68, 68.125]
// CHECK-NEXT: [68.75, 68.875, 69, 69.125]
// CHECK-NEXT: [69.75, 69.875, 70, 70.125]
// CHECK-NEXT: [70.75, 70.875, 71, 71.125]
// CHECK-NEXT: [71.75, 71.875, 72, 72.125]
// CHECK-NEXT: [72.75, 72.875, 73, 73.125]
// CHECK: sizes = [16, 32] strides = [32, 1] data =
// CHECK-NEXT: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47]
// CHECK-NEXT: [0.125, 1.125, 2.125, 3.125, 4.125, 5.125, 6.125, 7.125, 8.125, 9.125, 10.125, 11.125, 12.125, 13.125, 14.125, 15.125, 32.125, 33.125, 34.125, 35.125, 36.125, 37.125, 38.125, 39.125, 40.125, 41.125, 42.125, 43.125, 44.125, 45.125, 46.125, 47.125]
// CHECK-NEXT: [0.25, 1.25, 2.25, 3.25, 4.25, 5.25, 6.25, 7.25, 8.25, 9.25, 10.25, 11.25, 12.25, 13.25, 14.25, 15.25, 32.25, 33.25, 34.25, 35.25, 36.25, 37.25, 38.25, 39.25, 40.25, 41.25, 42.25, 43.25, 44.25, 45.25, 46.25, 47.25]
// CHECK-NEXT: [0.375, 1.375, 2.375, 3.375, 4.375, 5.375, 6.375, 7.375, 8.375, 9.375, 10.375, 11.375, 12.375, 13.375, 14.375, 15.375, 32.375, 33.375, 34.375, 35.375, 36.375, 37.375, 38.375, 39.375, 40.375, 41.375, 42.375, 43.375, 44.375, 45.375, 46.375, 47.375]
// CHECK-NEXT: [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 32.5, 33.5, 34.5, 35.5, 36.5, 37.5, 38.5, 39.5, 40.5, 41.5, 42.5, 43.5, 44.5, 45.5, 46.5, 47.5]
// CHECK-NEXT: [0.625, 1.625, 2.625, 3.625, 4.625, 5.625, 6.625, 7.625, 8.625, 9.625, 10.625, 11.625, 12.625, 13.625, 14.625, 15.625, 32.625, 33.625, 34.625, 35.625, 36.625, 37.625, 38.625, 39.625, 40.625, 41.625, 42.625, 43.625, 44.625, 45.625, 46.625, 47.625]
// CHECK-NEXT: [0.75, 1.75, 2.75, 3.75, 4.75, 5.75, 6.75, 7.75, 8.75, 9.75, 10.75, 11.75, 12.75, 13.75, 14.75, 15.75, 32.75, 33.75, 34.75, 35.75, 36.75, 37.75, 38.75, 39.75, 40.75, 41.75, 42.75, 43.75, 44.75, 45.75, 46.75, 47.75]
// CHECK-NEXT: [0.875, 1.875, 2.875, 3.875, 4.875, 5.875, 6.875, 7.875, 8.875, 9.875, 10.875, 11.875, 12.875, 13.875, 14.875, 15.875, 32.875, 33.875, 34.875, 35.875, 36.875, 37.875, 38.875, 39.875, 40.875, 41.875, 42.875, 43.875, 44.875, 45.875, 46.875, 47.875]
// CHECK-NEXT: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48]
// CHECK-NEXT: [1.125, 2.125, 3.125, 4.125, 5.125, 6.125, 7.125, 8.125, 9.125, 10.125, 11.125, 12.125, 13.125, 14.125, 15.125, 16.125, 33.125, 34.125, 35.125, 36.125, 37.125, 38.125, 39.125, 40.125, 41.125, 42.125, 43.125, 44.125, 45.125, 46.125, 47.125, 48.125]
// CHECK-NEXT: [1.25, 2.25, 3.25, 4.25, 5.25, 6.25, 7.25, 8.25, 9.25, 10.25, 11.25, 12.25, 13.25, 14.25, 15.25, 16.25, 33.25, 34.25, 35.25, 36.25, 37.25, 38.25, 39.25, 40.25, 41.25, 42.25, 43.25, 44.25, 45.25, 46.25, 47.25, 48.25]
// CHECK-NEXT: [1.375, 2.375, 3.375, 4.375, 5.375, 6.375, 7.375, 8.375, 9.375, 10.375, 11.375, 12.375, 13.375, 14.375, 15.375, 16.375, 33.375, 34.375, 35.375, 36.375, 37.375, 38.375, 39.375, 40.375, 41.375, 42.375, 43.375, 44.375, 45.375, 46.375, 47.375, 48.375]
// CHECK-NEXT: [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 33.5, 34.5, 35.5, 36.5, 37.5, 38.5, 39.5, 40.5, 41.5, 42.5, 43.5, 44.5, 45.5, 46.5, 47.5, 48.5]
// CHECK-NEXT: [1.625, 2.625, 3.625, 4.625, 5.625, 6.625, 7.625, 8.625, 9.625, 10.625, 11.625, 12.625, 13.625, 14.625, 15.625, 16.625, 33.625, 34.625, 35.625, 36.625, 37.625, 38.625, 39.625, 40.625, 41.625, 42.625, 43.625, 44.625, 45.625, 46.625, 47.625, 48.625]
// CHECK-NEXT: [1.75, 2.75, 3.75, 4.75, 5.75, 6.75, 7.75, 8.75, 9.75, 10.75, 11.75, 12.75, 13.75, 14.75, 15.75, 16.75, 33.75, 34.75, 35.75, 36.75, 37.75, 38.75, 39.75, 40.75, 41.75, 42.75, 43.75, 44.75, 45.75, 46.75, 47.75, 48.75]
// CHECK-NEXT: [1.875, 2.875, 3.875, 4.875, 5.875, 6.875, 7.875, 8.875, 9.875, 10.875, 11.875, 12.875, 13.875, 14.875, 15.875, 16.875, 33.875, 34.875, 35.875, 36.875, 37.875, 38.875, 39.875, 40.875, 41.875, 42.875, 43.875, 44.875, 45.875, 46.875, 47.875, 48.875]
