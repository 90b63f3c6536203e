// XeTile tiles on shared local memory (shared/spec/xetile.md §3.1 'SLM tile', memory_space = 3): each of the
// two VC threads of a workgroup stores its 16x64 half of a 32x64 block of X into a memref<32x64xf32, 3>,
// gpu.barrier, then loads the other thread's half and stores it: Y = X with the halves of each block swapped.
// X[i][j] = (5i + 3j) mod 11 - 5.  CHECK lines: tools/gen_xetile_e2e.py (numpy).
// RUN: xesim run %s | filecheck %s

module @xetile_slm_copy attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%X: memref<64x64xf32>, %Y: memref<64x64xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %slm = memref.alloc() : memref<32x64xf32, 3>
      %row = arith.muli %bx, %c32 : index
      %half = arith.muli %tx, %c16 : index
      %r = arith.addi %row, %half : index
      %tx0 = xetile.init_tile %X[%r, %c0] : memref<64x64xf32> -> !xetile.tile<16x64xf32>
      %x = xetile.load_tile %tx0 : !xetile.tile<16x64xf32> -> vector<16x64xf32>
      %ts = xetile.init_tile %slm[%half, %c0] : memref<32x64xf32, 3> -> !xetile.tile<16x64xf32, #xetile.tile_attr<memory_space = 3 : i64>>
      xetile.store_tile %x, %ts : vector<16x64xf32>, !xetile.tile<16x64xf32, #xetile.tile_attr<memory_space = 3 : i64>>
      gpu.barrier
      %other = arith.subi %c16, %half : index
      %tl = xetile.init_tile %slm[%other, %c0] : memref<32x64xf32, 3> -> !xetile.tile<16x64xf32, #xetile.tile_attr<memory_space = 3 : i64>>
      %v = xetile.load_tile %tl : !xetile.tile<16x64xf32, #xetile.tile_attr<memory_space = 3 : i64>> -> vector<16x64xf32>
      %ty0 = xetile.init_tile %Y[%r, %c0] : memref<64x64xf32> -> !xetile.tile<16x64xf32>
      xetile.store_tile %v, %ty0 : vector<16x64xf32>, !xetile.tile<16x64xf32>
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
        %ia = arith.muli %i, %c5 : index
        %jb = arith.muli %j, %c3 : index
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
    gpu.launch_func @kernels::@kernel blocks in (%c2, %c1, %c1) threads in (%c2, %c1, %c1) args(%dX : memref<64x64xf32>, %dY : memref<64x64xf32>)
    %Y = memref.alloc() : memref<64x64xf32>
    gpu.memcpy %Y, %dY : memref<64x64xf32>, memref<64x64xf32>
    %w0 = memref.subview %Y[0, 0] [2, 16] [1, 1] : memref<64x64xf32> to memref<2x16xf32, strided<[64, 1]>>
    %u0 = memref.cast %w0 : memref<2x16xf32, strided<[64, 1]>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %w1 = memref.subview %Y[16, 48] [2, 16] [1, 1] : memref<64x64xf32> to memref<2x16xf32, strided<[64, 1], offset: 1072>>
    %u1 = memref.cast %w1 : memref<2x16xf32, strided<[64, 1], offset: 1072>> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    %w2 = memref.subview %Y[46, 0] [4, 16] [1, 1] : memref<64x64xf32> to memref<4x16xf32, strided<[64, 1], offset: 2944>>
    %u2 = memref.cast %w2 : memref<4x16xf32, strided<[64, 1], offset: 2944>> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    %w3 = memref.subview %Y[62, 32] [2, 16] [1, 1] : memref<64x64xf32> to memref<2x16xf32, strided<[64, 1], offset: 4000>>
    %u3 = memref.cast %w3 : memref<2x16xf32, strided<[64, 1], offset: 4000>> to memref<*xf32>
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
// CHECK-NEXT: {{\[\[}}-2,   1,   4,   -4,   -1,   2,   5,   -3,   0,   3,   -5,   -2,   1,   4,   -4,   -1],
// CHECK-NEXT: {{\[}}3,   -5,   -2,   1,   4,   -4,   -1,   2,   5,   -3,   0,   3,   -5,   -2,   1,   4]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 1072 sizes = [2, 16] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}-4,   -1,   2,   5,   -3,   0,   3,   -5,   -2,   1,   4,   -4,   -1,   2,   5,   -3],
// CHECK-NEXT: {{\[}}1,   4,   -4,   -1,   2,   5,   -3,   0,   3,   -5,   -2,   1,   4,   -4,   -1,   2]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 2944 sizes = [4, 16] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}-3,   0,   3,   -5,   -2,   1,   4,   -4,   -1,   2,   5,   -3,   0,   3,   -5,   -2],
// CHECK-NEXT: {{\[}}2,   5,   -3,   0,   3,   -5,   -2,   1,   4,   -4,   -1,   2,   5,   -3,   0,   3],
// CHECK-NEXT: {{\[}}1,   4,   -4,   -1,   2,   5,   -3,   0,   3,   -5,   -2,   1,   4,   -4,   -1,   2],
// CHECK-NEXT: {{\[}}-5,   -2,   1,   4,   -4,   -1,   2,   5,   -3,   0,   3,   -5,   -2,   1,   4,   -4]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 4000 sizes = [2, 16] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}2,   5,   -3,   0,   3,   -5,   -2,   1,   4,   -4,   -1,   2,   5,   -3,   0,   3],
// CHECK-NEXT: {{\[}}-4,   -1,   2,   5,   -3,   0,   3,   -5,   -2,   1,   4,   -4,   -1,   2,   5,   -3]]
