// Cooperative transpose through SLM (shared/spec/xetile.md §3.8, §4.4 'convert_layout' pattern): the four VC
// threads of one workgroup each load a 32x32 f16 block (tx, ty) of X, xetile.transpose it, store it to SLM
// block (ty, tx); after gpu.barrier each copies SLM block (tx, ty) to Y (as f32): Y = Xᵀ.
// X[i][j] = (i + 7j) mod 13 - 6.  CHECK lines: tools/gen_xetile_e2e.py (numpy).
// RUN: xesim run %s | filecheck %s

module @xetile_coop_transpose attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%X: memref<64x64xf16>, %Y: memref<64x64xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c32 = arith.constant 32 : index
      %slm = memref.alloc() : memref<64x64xf16, 3>
      %r = arith.muli %tx, %c32 : index
      %q = arith.muli %ty, %c32 : index
      %t0 = xetile.init_tile %X[%r, %q] : memref<64x64xf16> -> !xetile.tile<32x32xf16>
      %x = xetile.load_tile %t0 : !xetile.tile<32x32xf16> -> vector<32x32xf16>
      %xt = xetile.transpose %x, [1, 0] : vector<32x32xf16> -> vector<32x32xf16>
      %ts = xetile.init_tile %slm[%q, %r] : memref<64x64xf16, 3> -> !xetile.tile<32x32xf16, #xetile.tile_attr<memory_space = 3 : i64>>
      xetile.store_tile %xt, %ts : vector<32x32xf16>, !xetile.tile<32x32xf16, #xetile.tile_attr<memory_space = 3 : i64>>
      gpu.barrier
      %tl = xetile.init_tile %slm[%r, %q] : memref<64x64xf16, 3> -> !xetile.tile<32x32xf16, #xetile.tile_attr<memory_space = 3 : i64>>
      %v = xetile.load_tile %tl : !xetile.tile<32x32xf16, #xetile.tile_attr<memory_space = 3 : i64>> -> vector<32x32xf16>
      %w = arith.extf %v : vector<32x32xf16> to vector<32x32xf32>
      %ty0 = xetile.init_tile %Y[%r, %q] : memref<64x64xf32> -> !xetile.tile<32x32xf32>
      xetile.store_tile %w, %ty0 : vector<32x32xf32>, !xetile.tile<32x32xf32>
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
    %cq6 = arith.constant 6 : i32
    %czero32 = arith.constant 0 : i32
    %X = memref.alloc() : memref<64x64xf16>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %ia = arith.muli %i, %c1 : index
        %jb = arith.muli %j, %c7 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c13 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq6 : i32
        %v = arith.sitofp %d : i32 to f16
        memref.store %v, %X[%i, %j] : memref<64x64xf16>
      }
    }
    %dX = gpu.alloc () : memref<64x64xf16>
    gpu.memcpy %dX, %X : memref<64x64xf16>, memref<64x64xf16>
    %dY = gpu.alloc () : memref<64x64xf32>
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1) args(%dX : memref<64x64xf16>, %dY : memref<64x64xf32>)
    %Y = memref.alloc() : memref<64x64xf32>
    gpu.memcpy %Y, %dY : memref<64x64xf32>, memref<64x64xf32>
    %w0 = memref.subview %Y[0, 0] [2, 16] [1, 1] : memref<64x64xf32> to memref<2x16xf32, strided<[64, 1]>>
    %u0 = memref.cast %w0 : memref<2x16xf32, strided<[64, 1]>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %w1 = memref.subview %Y[30, 30] [4, 4] [1, 1] : memref<64x64xf32> to memref<4x4xf32, strided<[64, 1], offset: 1950>>
    %u1 = memref.cast %w1 : memref<4x4xf32, strided<[64, 1], offset: 1950>> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    %w2 = memref.subview %Y[40, 8] [2, 16] [1, 1] : memref<64x64xf32> to memref<2x16xf32, strided<[64, 1], offset: 2568>>
    %u2 = memref.cast %w2 : memref<2x16xf32, strided<[64, 1], offset: 2568>> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    %w3 = memref.subview %Y[62, 48] [2, 16] [1, 1] : memref<64x64xf32> to memref<2x16xf32, strided<[64, 1], offset: 4016>>
    %u3 = memref.cast %w3 : memref<2x16xf32, strided<[64, 1], offset: 4016>> to memref<*xf32>
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
// CHECK-NEXT: {{\[\[}}-6,   -5,   -4,   -3,   -2,   -1,   0,   1,   2,   3,   4,   5,   6,   -6,   -5,   -4],
// CHECK-NEXT: {{\[}}1,   2,   3,   4,   5,   6,   -6,   -5,   -4,   -3,   -2,   -1,   0,   1,   2,   3]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 1950 sizes = [4, 4] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}0,   1,   2,   3],
// CHECK-NEXT: {{\[}}-6,   -5,   -4,   -3],
// CHECK-NEXT: {{\[}}1,   2,   3,   4],
// CHECK-NEXT: {{\[}}-5,   -4,   -3,   -2]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 2568 sizes = [2, 16] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}-4,   -3,   -2,   -1,   0,   1,   2,   3,   4,   5,   6,   -6,   -5,   -4,   -3,   -2],
// CHECK-NEXT: {{\[}}3,   4,   5,   6,   -6,   -5,   -4,   -3,   -2,   -1,   0,   1,   2,   3,   4,   5]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 4016 sizes = [2, 16] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}-5,   -4,   -3,   -2,   -1,   0,   1,   2,   3,   4,   5,   6,   -6,   -5,   -4,   -3],
// CHECK-NEXT: {{\[}}2,   3,   4,   5,   6,   -6,   -5,   -4,   -3,   -2,   -1,   0,   1,   2,   3,   4]]
