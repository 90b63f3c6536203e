// XeTile reductions along dimension 1 and broadcasts along dimension 1 (shared/spec/xetile.md §3.9, §3.10):
// per 32x32 tile of X, Y = broadcast(row sums) - X, and each row's maximum and minimum stored as 32x1 tiles.
// X[i][j] = (3i + j) mod 11 - 5 (host loops); sums are exact.  CHECK lines: tools/gen_xetile_e2e.py (numpy).
// RUN: xesim run %s | filecheck %s

module @xetile_reduce_broadcast_rows attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%X: memref<64x64xf32>, %Y: memref<64x64xf32>, %Z: memref<64x4xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %ctr = arith.constant 32 : index
      %ctc = arith.constant 32 : index
      %r0 = arith.muli %bx, %ctr : index
      %q0 = arith.muli %by, %ctc : index
      %c2 = arith.constant 2 : index
      %z0 = arith.muli %by, %c2 : index
      %tx0 = xetile.init_tile %X[%r0, %q0] : memref<64x64xf32> -> !xetile.tile<32x32xf32>
      %x = xetile.load_tile %tx0 : !xetile.tile<32x32xf32> -> vector<32x32xf32>
      %s = xetile.reduction <add>, %x [1] : vector<32x32xf32> -> vector<32x1xf32>
      %sb = xetile.broadcast %s [1] : vector<32x1xf32> -> vector<32x32xf32>
      %y = arith.subf %sb, %x : vector<32x32xf32>
      %ty0 = xetile.init_tile %Y[%r0, %q0] : memref<64x64xf32> -> !xetile.tile<32x32xf32>
      xetile.store_tile %y, %ty0 : vector<32x32xf32>, !xetile.tile<32x32xf32>
      %mx = xetile.reduction <maximumf>, %x [1] : vector<32x32xf32> -> vector<32x1xf32>
      %mn = xetile.reduction <minimumf>, %x [1] : vector<32x32xf32> -> vector<32x1xf32>
      %tz0 = xetile.init_tile %Z[%r0, %z0] : memref<64x4xf32> -> !xetile.tile<32x1xf32>
      %cz1 = arith.addi %z0, %c1 : index
      %tz1 = xetile.init_tile %Z[%r0, %cz1] : memref<64x4xf32> -> !xetile.tile<32x1xf32>
      xetile.store_tile %mx, %tz0 : vector<32x1xf32>, !xetile.tile<32x1xf32>
      xetile.store_tile %mn, %tz1 : vector<32x1xf32>, !xetile.tile<32x1xf32>
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
    %c9 = arith.constant 9 : index
    %c11 = arith.constant 11 : index
    %c13 = arith.constant 13 : index
    %c64 = arith.constant 64 : index
    %cq2 = arith.constant 2 : i32
    %cq3 = arith.constant 3 : i32
    %cq4 = arith.constant 4 : i32
    %cq5 = arith.constant 5 : i32
    %czero32 = arith.constant 0 : i32
    %X = memref.alloc() : memref<64x64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %ia = arith.muli %i, %c3 : index
        %jb = arith.muli %j, %c1 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c11 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq5 : i32
        %v = arith.sitofp %d : i32 to f32
        memref.store %v, %X[%i, %j] : memref<64x64xf32>
      }
    }
    %dX = gpu.alloc () : memref<64x64xf32>
    gpu.memcpy %dX, %X : memref<64x64xf32>, memref<64x64xf32>
    %dY = gpu.alloc () : memref<64x64xf32>
    %dZ = gpu.alloc () : memref<64x4xf32>
    gpu.launch_func @kernels::@kernel blocks in (%c2, %c2, %c1) threads in (%c1, %c1, %c1) args(%dX : memref<64x64xf32>, %dY : memref<64x64xf32>, %dZ : memref<64x4xf32>)
    %Y = memref.alloc() : memref<64x64xf32>
    gpu.memcpy %Y, %dY : memref<64x64xf32>, memref<64x64xf32>
    %Z = memref.alloc() : memref<64x4xf32>
    gpu.memcpy %Z, %dZ : memref<64x4xf32>, memref<64x4xf32>
    %w0 = memref.subview %Y[0, 0] [2, 16] [1, 1] : memref<64x64xf32> to memref<2x16xf32, strided<[64, 1]>>
    %u0 = memref.cast %w0 : memref<2x16xf32, strided<[64, 1]>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %w1 = memref.subview %Y[62, 48] [2, 16] [1, 1] : memref<64x64xf32> to memref<2x16xf32, strided<[64, 1], offset: 4016>>
    %u1 = memref.cast %w1 : memref<2x16xf32, strided<[64, 1], offset: 4016>> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    %w2 = memref.subview %Z[0, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1]>>
    %u2 = memref.cast %w2 : memref<4x4xf32, strided<[4, 1]>> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    %w3 = memref.subview %Z[60, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: 240>>
    %u3 = memref.cast %w3 : memref<4x4xf32, strided<[4, 1], offset: 240>> to memref<*xf32>
    call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmF16F16F32(memref<*xf16>, memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmBF16BF16F32(memref<*xbf16>, memref<*xbf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 16] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}0,   -1,   -2,   -3,   -4,   -5,   -6,   -7,   -8,   -9,   -10,   0,   -1,   -2,   -3,   -4],
// CHECK-NEXT: {{\[}}5,   4,   3,   2,   1,   0,   -1,   -2,   8,   7,   6,   5,   4,   3,   2,   1]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 4016 sizes = [2, 16] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}-1,   -2,   -3,   -4,   -5,   -6,   -7,   -8,   2,   1,   0,   -1,   -2,   -3,   -4,   -5],
// CHECK-NEXT: {{\[}}4,   3,   2,   1,   0,   10,   9,   8,   7,   6,   5,   4,   3,   2,   1,   0]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}5,   -5,   5,   -5],
// CHECK-NEXT: {{\[}}5,   -5,   5,   -5],
// CHECK-NEXT: {{\[}}5,   -5,   5,   -5],
// CHECK-NEXT: {{\[}}5,   -5,   5,   -5]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 240 sizes = [4, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}5,   -5,   5,   -5],
// CHECK-NEXT: {{\[}}5,   -5,   5,   -5],
// CHECK-NEXT: {{\[}}5,   -5,   5,   -5],
// CHECK-NEXT: {{\[}}5,   -5,   5,   -5]]
