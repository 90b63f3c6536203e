// load_tile with array_length = 2 (shared/spec/xetile.md §2.2, §3.2): a 32x16 tile stands for two adjacent
// 32x16 blocks and returns two vectors; in a loop moved by 32 columns, Y[:, 16k + j] = X[:, 32k + j] +
// 2 X[:, 32k + 16 + j].  X[i][j] = (3i + j) mod 13 - 6.  CHECK lines: tools/gen_xetile_e2e.py (numpy).
// RUN: xesim run %s | filecheck %s

module @xetile_array_length attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%X: memref<32x64xf32>, %Y: memref<32x32xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c2 = arith.constant 2 : index
      %t = xetile.init_tile %X[%c0, %c0] : memref<32x64xf32> -> !xetile.tile<32x16xf32, #xetile.tile_attr<array_length = 2 : i64>>
      %ty1 = xetile.init_tile %Y[%c0, %c0] : memref<32x32xf32> -> !xetile.tile<32x16xf32>
      %e:2 = scf.for %it = %c0 to %c2 step %c1 iter_args(%at = %t, %yt = %ty1) -> (!xetile.tile<32x16xf32, #xetile.tile_attr<array_length = 2 : i64>>, !xetile.tile<32x16xf32>) {
        %v0, %v1 = xetile.load_tile %at : !xetile.tile<32x16xf32, #xetile.tile_attr<array_length = 2 : i64>> -> vector<32x16xf32>, vector<32x16xf32>
        %d = arith.addf %v1, %v1 : vector<32x16xf32>
        %s = arith.addf %v0, %d : vector<32x16xf32>
        xetile.store_tile %s, %yt : vector<32x16xf32>, !xetile.tile<32x16xf32>
        %an = xetile.update_tile_offset %at, [%c0, %c32] : !xetile.tile<32x16xf32, #xetile.tile_attr<array_length = 2 : i64>>
        %yn = xetile.update_tile_offset %yt, [%c0, %c16] : !xetile.tile<32x16xf32>
        scf.yield %an, %yn : !xetile.tile<32x16xf32, #xetile.tile_attr<array_length = 2 : i64>>, !xetile.tile<32x16xf32>
      }
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
    %c64 = arith.constant 64 : index
    %cq2 = arith.constant 2 : i32
    %cq3 = arith.constant 3 : i32
    %cq4 = arith.constant 4 : i32
    %cq6 = arith.constant 6 : i32
    %czero32 = arith.constant 0 : i32
    %X = memref.alloc() : memref<32x64xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %ia = arith.muli %i, %c3 : index
        %jb = arith.muli %j, %c1 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c13 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq6 : i32
        %v = arith.sitofp %d : i32 to f32
        memref.store %v, %X[%i, %j] : memref<32x64xf32>
      }
    }
    %dX = gpu.alloc () : memref<32x64xf32>
    gpu.memcpy %dX, %X : memref<32x64xf32>, memref<32x64xf32>
    %dY = gpu.alloc () : memref<32x32xf32>
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dX : memref<32x64xf32>, %dY : memref<32x32xf32>)
    %Y = memref.alloc() : memref<32x32xf32>
    gpu.memcpy %Y, %dY : memref<32x32xf32>, memref<32x32xf32>
    %w0 = memref.subview %Y[0, 0] [2, 32] [1, 1] : memref<32x32xf32> to memref<2x32xf32, strided<[32, 1]>>
    %u0 = memref.cast %w0 : memref<2x32xf32, strided<[32, 1]>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %w1 = memref.subview %Y[30, 0] [2, 32] [1, 1] : memref<32x32xf32> to memref<2x32xf32, strided<[32, 1], offset: 960>>
    %u1 = memref.cast %w1 : memref<2x32xf32, strided<[32, 1], offset: 960>> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmF16F16F32(memref<*xf16>, memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmBF16BF16F32(memref<*xbf16>, memref<*xbf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}-12,   -9,   -6,   -3,   0,   3,   6,   9,   12,   15,   -8,   -5,   -2,   -12,   -9,   -6,   6,   9,   12,   15,   -8,   -5,   -2,   -12,   -9,   -6,   -3,   0,   3,   6,   9,   12],
// CHECK-NEXT: {{\[}}-3,   0,   3,   6,   9,   12,   15,   -8,   -5,   -2,   -12,   -9,   -6,   -3,   0,   3,   15,   -8,   -5,   -2,   -12,   -9,   -6,   -3,   0,   3,   6,   9,   12,   15,   -8,   -5]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 960 sizes = [2, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}-2,   -12,   -9,   -6,   -3,   0,   3,   6,   9,   12,   15,   -8,   -5,   -2,   -12,   -9,   3,   6,   9,   12,   15,   -8,   -5,   -2,   -12,   -9,   -6,   -3,   0,   3,   6,   9],
// CHECK-NEXT: {{\[}}-6,   -3,   0,   3,   6,   9,   12,   15,   -8,   -5,   -2,   -12,   -9,   -6,   -3,   0,   12,   15,   -8,   -5,   -2,   -12,   -9,   -6,   -3,   0,   3,   6,   9,   12,   15,   -8]]
