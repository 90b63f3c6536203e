// XeTile gathers and scatters with masks (shared/spec/xetile.md §3.12, §3.13): a scattered tile over the
// flattened X with indices (37e + 5) mod 512, gathered under a mask (disabled elements read the padding, 0),
// moved by update_tile_offset's vector form (+7) and gathered again; the sum is scattered into Y (which the
// host set to -1) at indices (5e + 11) mod 256 under another mask.  X[i][j] = (3i + j) mod 17 - 8.
// CHECK lines: tools/gen_xetile_e2e.py (numpy).
// RUN: xesim run %s | filecheck %s

module @xetile_gather_scatter attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%X: memref<16x32xf32>, %Y: memref<8x32xf32>, %G: memref<8x16xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %idx = arith.constant dense<[[5, 42, 79, 116, 153, 190, 227, 264, 301, 338, 375, 412, 449, 486, 11, 48], [85, 122, 159, 196, 233, 270, 307, 344, 381, 418, 455, 492, 17, 54, 91, 128], [165, 202, 239, 276, 313, 350, 387, 424, 461, 498, 23, 60, 97, 134, 171, 208], [245, 282, 319, 356, 393, 430, 467, 504, 29, 66, 103, 140, 177, 214, 251, 288]]> : vector<4x16xindex>
      %mask = arith.constant dense<[[false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false], [true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true], [true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true], [false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false]]> : vector<4x16xi1>
      %delta = arith.constant dense<7> : vector<4x16xindex>
      %sidx = arith.constant dense<[[11, 16, 21, 26, 31, 36, 41, 46, 51, 56, 61, 66, 71, 76, 81, 86], [91, 96, 101, 106, 111, 116, 121, 126, 131, 136, 141, 146, 151, 156, 161, 166], [171, 176, 181, 186, 191, 196, 201, 206, 211, 216, 221, 226, 231, 236, 241, 246], [251, 0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70]]> : vector<4x16xindex>
      %smask = arith.constant dense<[[true, false, true, true, true, false, true, true, true, false, true, true, true, false, true, true], [true, false, true, true, true, false, true, true, true, false, true, true, true, false, true, true], [true, false, true, true, true, false, true, true, true, false, true, true, true, false, true, true], [true, false, true, true, true, false, true, true, true, false, true, true, true, false, true, true]]> : vector<4x16xi1>
      %xf = memref.collapse_shape %X [[0, 1]] : memref<16x32xf32> into memref<512xf32>
      %yf = memref.collapse_shape %Y [[0, 1]] : memref<8x32xf32> into memref<256xf32>
      %t = xetile.init_tile %xf, %idx : memref<512xf32>, vector<4x16xindex> -> !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>
      %g1 = xetile.load %t, %mask : !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, vector<4x16xi1> -> vector<4x16xf32>
      %t2 = xetile.update_tile_offset %t, %delta : !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, vector<4x16xindex>
      %g2 = xetile.load %t2, %mask : !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, vector<4x16xi1> -> vector<4x16xf32>
      %s = arith.addf %g1, %g2 : vector<4x16xf32>
      %ts = xetile.init_tile %yf, %sidx : memref<256xf32>, vector<4x16xindex> -> !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>
      xetile.store %s, %ts, %smask : vector<4x16xf32>, !xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>, vector<4x16xi1>
      %tg = xetile.init_tile %G[%c0, %c0] : memref<8x16xf32> -> !xetile.tile<4x16xf32>
      %c4 = arith.constant 4 : index
      %tg2 = xetile.init_tile %G[%c4, %c0] : memref<8x16xf32> -> !xetile.tile<4x16xf32>
      xetile.store_tile %g1, %tg : vector<4x16xf32>, !xetile.tile<4x16xf32>
      xetile.store_tile %g2, %tg2 : vector<4x16xf32>, !xetile.tile<4x16xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %c11 = arith.constant 11 : index
    %c13 = arith.constant 13 : index
    %c16 = arith.constant 16 : index
    %c17 = arith.constant 17 : index
    %c32 = arith.constant 32 : index
    %cq1 = arith.constant 1 : i32
    %cq2 = arith.constant 2 : i32
    %cq3 = arith.constant 3 : i32
    %cq4 = arith.constant 4 : i32
    %cq8 = arith.constant 8 : i32
    %czero32 = arith.constant 0 : i32
    %X = memref.alloc() : memref<16x32xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %ia = arith.muli %i, %c3 : index
        %jb = arith.muli %j, %c1 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c17 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq8 : i32
        %v = arith.sitofp %d : i32 to f32
        memref.store %v, %X[%i, %j] : memref<16x32xf32>
      }
    }
    %dX = gpu.alloc () : memref<16x32xf32>
    gpu.memcpy %dX, %X : memref<16x32xf32>, memref<16x32xf32>
    %Y = memref.alloc() : memref<8x32xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %ia = arith.muli %i, %c0 : index
        %jb = arith.muli %j, %c0 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c1 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq1 : i32
        %v = arith.sitofp %d : i32 to f32
        memref.store %v, %Y[%i, %j] : memref<8x32xf32>
      }
    }
    %dY = gpu.alloc () : memref<8x32xf32>
    gpu.memcpy %dY, %Y : memref<8x32xf32>, memref<8x32xf32>
    %dG = gpu.alloc () : memref<8x16xf32>
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dX : memref<16x32xf32>, %dY : memref<8x32xf32>, %dG : memref<8x16xf32>)
    %G = memref.alloc() : memref<8x16xf32>
    gpu.memcpy %Y, %dY : memref<8x32xf32>, memref<8x32xf32>
    gpu.memcpy %G, %dG : memref<8x16xf32>, memref<8x16xf32>
    %w0 = memref.subview %G[0, 0] [8, 16] [1, 1] : memref<8x16xf32> to memref<8x16xf32, strided<[16, 1]>>
    %u0 = memref.cast %w0 : memref<8x16xf32, strided<[16, 1]>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %wy = memref.subview %Y[0, 0] [8, 32] [1, 1] : memref<8x32xf32> to memref<8x32xf32, strided<[32, 1]>>
    %uy = memref.cast %wy : memref<8x32xf32, strided<[32, 1]>> to memref<*xf32>
    call @printMemrefF32(%uy) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmF16F16F32(memref<*xf16>, memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmBF16BF16F32(memref<*xbf16>, memref<*xbf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}0,   5,   -4,   0,   -5,   3,   0,   7,   -2,   0,   -3,   5,   0,   -8,   3,   0],
// CHECK-NEXT: {{\[}}2,   -7,   0,   -3,   5,   0,   4,   -5,   0,   -1,   7,   0,   -8,   0,   0,   4],
// CHECK-NEXT: {{\[}}-5,   0,   -6,   2,   0,   1,   -3,   0,   -4,   4,   0,   6,   2,   0,   1,   -8],
// CHECK-NEXT: {{\[}}0,   8,   -1,   0,   3,   -6,   0,   -7,   4,   0,   8,   -1,   0,   -2,   6,   0],
// CHECK-NEXT: {{\[}}0,   -5,   3,   0,   7,   -2,   0,   -3,   5,   0,   4,   0,   0,   -1,   -7,   0],
// CHECK-NEXT: {{\[}}-8,   5,   0,   4,   -5,   0,   -6,   2,   0,   6,   -3,   0,   -1,   7,   0,   -6],
// CHECK-NEXT: {{\[}}2,   0,   1,   -8,   0,   -4,   4,   0,   3,   -6,   0,   1,   -8,   0,   8,   -1],
// CHECK-NEXT: {{\[}}0,   3,   -6,   0,   -7,   1,   0,   0,   -1,   0,   -2,   6,   0,   5,   1,   0]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}-1,   -1,   -1,   -1,   -1,   -7,   -1,   -1,   -1,   -1,   0,   0,   -1,   -1,   -1,   -4,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   0,   0,   -1,   -1,   -1,   -7,   2],
// CHECK-NEXT: {{\[}}-1,   -1,   -1,   3,   -1,   -1,   -1,   -1,   -1,   0,   -1,   -1,   -1,   6,   4,   -1,   -1,   -1,   5,   3,   -1,   -1,   -1,   0,   -1,   -1,   -1,   -1,   -1,   1,   -1,   -1],
// CHECK-NEXT: {{\[}}-1,   7,   5,   -1,   -1,   -1,   0,   0,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -4,   -1,   -1,   -1,   -1,   0,   -1,   -1,   -1,   -1,   -6,   -1,   -1,   -1,   -1],
// CHECK-NEXT: {{\[}}-1,   -1,   -1,   -1,   -1,   0,   -1,   -1,   -1,   -1,   1,   -1,   -1,   -1,   -1,   0,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -2,   -1,   -1,   -1,   -1,   -3,   -1],
// CHECK-NEXT: {{\[}}-1,   -1,   -1,   0,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   4,   -1,   -1,   -1,   -1,   0,   -1,   -1,   -1,   -1,   -9,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1],
// CHECK-NEXT: {{\[}}-1,   0,   -1,   -1,   -1,   -1,   -2,   -1,   -1,   -1,   -1,   -3,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -5,   -1,   -1,   -1,   -1,   -6,   -1,   -1,   -1,   -1,   0],
// CHECK-NEXT: {{\[}}-1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   1,   -1,   -1,   -1,   -1,   0,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   0,   -1,   -1],
// CHECK-NEXT: {{\[}}-1,   -1,   7,   -1,   -1,   -1,   -1,   -6,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   9,   -1,   -1,   -1,   -1,   -9,   -1,   -1,   -1,   -1,   0,   -1,   -1,   -1,   -1]]
