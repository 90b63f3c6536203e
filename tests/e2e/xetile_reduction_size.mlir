// XeTile partial reductions with reduction_size = 8 (shared/spec/xetile.md §3.9): along dimension 1 the groups
// are contiguous (res[i][b] = sum of X[i][8b .. 8b+7]); along dimension 0 they are IMEX's interleaved groups
// (res[b][j] = sum over t of X[4t + b][j]; xetile.reduction.size_dim0 = interleaved, §5 Q3).
// X[i][j] = (7i + 3j) mod 13 - 6.  CHECK lines: tools/gen_xetile_e2e.py (numpy).
// RUN: xesim run %s | filecheck %s

module @xetile_reduction_size attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%X: memref<32x32xf32>, %G1: memref<32x4xf32>, %G0: memref<4x32xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tx0 = xetile.init_tile %X[%c0, %c0] : memref<32x32xf32> -> !xetile.tile<32x32xf32>
      %x = xetile.load_tile %tx0 : !xetile.tile<32x32xf32> -> vector<32x32xf32>
      %r1 = xetile.reduction <add>, %x [1] {reduction_size = 8 : i64} : vector<32x32xf32> -> vector<32x4xf32>
      %r0 = xetile.reduction <add>, %x [0] {reduction_size = 8 : i64} : vector<32x32xf32> -> vector<4x32xf32>
      %t1 = xetile.init_tile %G1[%c0, %c0] : memref<32x4xf32> -> !xetile.tile<32x4xf32>
      %t0 = xetile.init_tile %G0[%c0, %c0] : memref<4x32xf32> -> !xetile.tile<4x32xf32>
      xetile.store_tile %r1, %t1 : vector<32x4xf32>, !xetile.tile<32x4xf32>
      xetile.store_tile %r0, %t0 : vector<4x32xf32>, !xetile.tile<4x32xf32>
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
    %c32 = arith.constant 32 : index
    %cq2 = arith.constant 2 : i32
    %cq3 = arith.constant 3 : i32
    %cq4 = arith.constant 4 : i32
    %cq6 = arith.constant 6 : i32
    %czero32 = arith.constant 0 : i32
    %X = memref.alloc() : memref<32x32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %ia = arith.muli %i, %c7 : index
        %jb = arith.muli %j, %c3 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c13 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq6 : i32
        %v = arith.sitofp %d : i32 to f32
        memref.store %v, %X[%i, %j] : memref<32x32xf32>
      }
    }
    %dX = gpu.alloc () : memref<32x32xf32>
    gpu.memcpy %dX, %X : memref<32x32xf32>, memref<32x32xf32>
    %dG1 = gpu.alloc () : memref<32x4xf32>
    %dG0 = gpu.alloc () : memref<4x32xf32>
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dX : memref<32x32xf32>, %dG1 : memref<32x4xf32>, %dG0 : memref<4x32xf32>)
    %G1 = memref.alloc() : memref<32x4xf32>
    gpu.memcpy %G1, %dG1 : memref<32x4xf32>, memref<32x4xf32>
    %G0 = memref.alloc() : memref<4x32xf32>
    gpu.memcpy %G0, %dG0 : memref<4x32xf32>, memref<4x32xf32>
    %w0 = memref.subview %G1[0, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1]>>
    %u0 = memref.cast %w0 : memref<4x4xf32, strided<[4, 1]>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %w1 = memref.subview %G1[28, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: 112>>
    %u1 = memref.cast %w1 : memref<4x4xf32, strided<[4, 1], offset: 112>> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    %w2 = memref.subview %G0[0, 0] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1]>>
    %u2 = memref.cast %w2 : memref<4x16xf32, strided<[32, 1]>> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    %w3 = memref.subview %G0[0, 16] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1], offset: 16>>
    %u3 = memref.cast %w3 : memref<4x16xf32, strided<[32, 1], offset: 16>> to memref<*xf32>
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

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}-3,   -6,   4,   1],
// CHECK-NEXT: {{\[}}1,   -2,   8,   -8],
// CHECK-NEXT: {{\[}}-8,   2,   -1,   -4],
// CHECK-NEXT: {{\[}}-4,   6,   3,   0]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 112 sizes = [4, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}-8,   2,   -1,   -4],
// CHECK-NEXT: {{\[}}-4,   6,   3,   0],
// CHECK-NEXT: {{\[}}0,   -3,   -6,   4],
// CHECK-NEXT: {{\[}}4,   1,   -2,   8]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 16] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}-5,   -7,   4,   2,   0,   -2,   -4,   7,   5,   -10,   1,   -1,   10,   -5,   -7,   4],
// CHECK-NEXT: {{\[}}-1,   10,   -5,   -7,   4,   2,   0,   -2,   -4,   7,   5,   -10,   1,   -1,   10,   -5],
// CHECK-NEXT: {{\[}}-10,   1,   -1,   10,   -5,   -7,   4,   2,   0,   -2,   -4,   7,   5,   -10,   1,   -1],
// CHECK-NEXT: {{\[}}7,   5,   -10,   1,   -1,   10,   -5,   -7,   4,   2,   0,   -2,   -4,   7,   5,   -10]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 16 sizes = [4, 16] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}2,   0,   -2,   -4,   7,   5,   -10,   1,   -1,   10,   -5,   -7,   4,   2,   0,   -2],
// CHECK-NEXT: {{\[}}-7,   4,   2,   0,   -2,   -4,   7,   5,   -10,   1,   -1,   10,   -5,   -7,   4,   2],
// CHECK-NEXT: {{\[}}10,   -5,   -7,   4,   2,   0,   -2,   -4,   7,   5,   -10,   1,   -1,   10,   -5,   -7],
// CHECK-NEXT: {{\[}}1,   -1,   10,   -5,   -7,   4,   2,   0,   -2,   -4,   7,   5,   -10,   1,   -1,   10]]
