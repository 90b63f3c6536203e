// XeTile reductions along dimension 0 and broadcasts along dimension 0 (shared/spec/xetile.md §3.9, §3.10):
// per 32x32 tile of X, Y = X - broadcast(column maxima); W = the product over the tile's first 8 rows of
// max(|X|, 1) per column (a <mul> reduction).  X[i][j] = (i + 5j) mod 7 - 3 (host loops).
// CHECK lines: tools/gen_xetile_e2e.py (numpy).
// RUN: xesim run %s | filecheck %s

module @xetile_reduce_broadcast_cols attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%X: memref<64x64xf32>, %Y: memref<64x64xf32>, %W: memref<2x64xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
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
      %tx0 = xetile.init_tile %X[%r0, %q0] : memref<64x64xf32> -> !xetile.tile<32x32xf32>
      %x = xetile.load_tile %tx0 : !xetile.tile<32x32xf32> -> vector<32x32xf32>
      %m = xetile.reduction <maximumf>, %x [0] : vector<32x32xf32> -> vector<1x32xf32>
      %mb = xetile.broadcast %m [0] : vector<1x32xf32> -> vector<32x32xf32>
      %y = arith.subf %x, %mb : vector<32x32xf32>
      %ty0 = xetile.init_tile %Y[%r0, %q0] : memref<64x64xf32> -> !xetile.tile<32x32xf32>
      xetile.store_tile %y, %ty0 : vector<32x32xf32>, !xetile.tile<32x32xf32>
      %one = arith.constant dense<1.0> : vector<8x32xf32>
      %t8 = xetile.init_tile %X[%r0, %q0] : memref<64x64xf32> -> !xetile.tile<8x32xf32>
      %x8 = xetile.load_tile %t8 : !xetile.tile<8x32xf32> -> vector<8x32xf32>
      %a8 = math.absf %x8 : vector<8x32xf32>
      %c8 = arith.maximumf %a8, %one : vector<8x32xf32>
      %p = xetile.reduction <mul>, %c8 [0] : vector<8x32xf32> -> vector<1x32xf32>
      %tw = xetile.init_tile %W[%bx, %q0] : memref<2x64xf32> -> !xetile.tile<1x32xf32>
      xetile.store_tile %p, %tw : vector<1x32xf32>, !xetile.tile<1x32xf32>
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
    %czero32 = arith.constant 0 : i32
    %X = memref.alloc() : memref<64x64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %ia = arith.muli %i, %c1 : index
        %jb = arith.muli %j, %c5 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c7 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq3 : i32
        %v = arith.sitofp %d : i32 to f32
        memref.store %v, %X[%i, %j] : memref<64x64xf32>
      }
    }
    %dX = gpu.alloc () : memref<64x64xf32>
    gpu.memcpy %dX, %X : memref<64x64xf32>, memref<64x64xf32>
    %dY = gpu.alloc () : memref<64x64xf32>
    %dW = gpu.alloc () : memref<2x64xf32>
    gpu.launch_func @kernels::@kernel blocks in (%c2, %c2, %c1) threads in (%c1, %c1, %c1) args(%dX : memref<64x64xf32>, %dY : memref<64x64xf32>, %dW : memref<2x64xf32>)
    %Y = memref.alloc() : memref<64x64xf32>
    gpu.memcpy %Y, %dY : memref<64x64xf32>, memref<64x64xf32>
    %W = memref.alloc() : memref<2x64xf32>
    gpu.memcpy %W, %dW : memref<2x64xf32>, memref<2x64xf32>
    %w0 = memref.subview %Y[0, 0] [2, 16] [1, 1] : memref<64x64xf32> to memref<2x16xf32, strided<[64, 1]>>
    %u0 = memref.cast %w0 : memref<2x16xf32, strided<[64, 1]>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %w1 = memref.subview %Y[62, 48] [2, 16] [1, 1] : memref<64x64xf32> to memref<2x16xf32, strided<[64, 1], offset: 4016>>
    %u1 = memref.cast %w1 : memref<2x16xf32, strided<[64, 1], offset: 4016>> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    %w2 = memref.subview %W[0, 0] [2, 16] [1, 1] : memref<2x64xf32> to memref<2x16xf32, strided<[64, 1]>>
    %u2 = memref.cast %w2 : memref<2x16xf32, strided<[64, 1]>> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    %w3 = memref.subview %W[0, 48] [2, 16] [1, 1] : memref<2x64xf32> to memref<2x16xf32, strided<[64, 1], offset: 48>>
    %u3 = memref.cast %w3 : memref<2x16xf32, strided<[64, 1], offset: 48>> to memref<*xf32>
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
// CHECK-NEXT: {{\[\[}}-6,   -1,   -3,   -5,   0,   -2,   -4,   -6,   -1,   -3,   -5,   0,   -2,   -4,   -6,   -1],
// CHECK-NEXT: {{\[}}-5,   0,   -2,   -4,   -6,   -1,   -3,   -5,   0,   -2,   -4,   -6,   -1,   -3,   -5,   0]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 4016 sizes = [2, 16] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}-5,   0,   -2,   -4,   -6,   -1,   -3,   -5,   0,   -2,   -4,   -6,   -1,   -3,   -5,   0],
// CHECK-NEXT: {{\[}}-4,   -6,   -1,   -3,   -5,   0,   -2,   -4,   -6,   -1,   -3,   -5,   0,   -2,   -4,   -6]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 16] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}108,   72,   36,   72,   108,   36,   36,   108,   72,   36,   72,   108,   36,   36,   108,   72],
// CHECK-NEXT: {{\[}}36,   36,   108,   72,   36,   72,   108,   36,   36,   108,   72,   36,   72,   108,   36,   36]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 48 sizes = [2, 16] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}36,   108,   72,   36,   72,   108,   36,   36,   108,   72,   36,   72,   108,   36,   36,   108],
// CHECK-NEXT: {{\[}}108,   36,   36,   108,   72,   36,   72,   108,   36,   36,   108,   72,   36,   72,   108,   36]]
