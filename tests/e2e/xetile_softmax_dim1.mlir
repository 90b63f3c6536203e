// XeTile softmax along dimension 1 of each 32x32 tile (shared/spec/xetile.md §3.9, §3.10): maximum,
// exp(x - max), sum, divide, as IMEX's softmax tests do; the sums of the result along the same dimension
// are printed (1 each, %g precision) and the result is compared with a CPU softmax in host loops.
// X[i][j] = (3i + 2j) mod 5 - 2.  CHECK lines: tools/gen_xetile_e2e.py (numpy).
// RUN: xesim run %s | filecheck %s

module @xetile_softmax_dim1 attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%X: memref<64x64xf32>, %Y: memref<64x64xf32>, %T: memref<64x2xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
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
      %m = xetile.reduction <maximumf>, %x [1] : vector<32x32xf32> -> vector<32x1xf32>
      %mb = xetile.broadcast %m [1] : vector<32x1xf32> -> vector<32x32xf32>
      %d = arith.subf %x, %mb : vector<32x32xf32>
      %e = math.exp %d : vector<32x32xf32>
      %s = xetile.reduction <add>, %e [1] : vector<32x32xf32> -> vector<32x1xf32>
      %sb = xetile.broadcast %s [1] : vector<32x1xf32> -> vector<32x32xf32>
      %y = arith.divf %e, %sb : vector<32x32xf32>
      %ty0 = xetile.init_tile %Y[%r0, %q0] : memref<64x64xf32> -> !xetile.tile<32x32xf32>
      xetile.store_tile %y, %ty0 : vector<32x32xf32>, !xetile.tile<32x32xf32>
      %t = xetile.reduction <add>, %y [1] : vector<32x32xf32> -> vector<32x1xf32>
      %tt = xetile.init_tile %T[%r0, %by] : memref<64x2xf32> -> !xetile.tile<32x1xf32>
      xetile.store_tile %t, %tt : vector<32x1xf32>, !xetile.tile<32x1xf32>
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
        %ia = arith.muli %i, %c3 : index
        %jb = arith.muli %j, %c2 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c5 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq2 : i32
        %v = arith.sitofp %d : i32 to f32
        memref.store %v, %X[%i, %j] : memref<64x64xf32>
      }
    }
    %dX = gpu.alloc () : memref<64x64xf32>
    gpu.memcpy %dX, %X : memref<64x64xf32>, memref<64x64xf32>
    %dY = gpu.alloc () : memref<64x64xf32>
    %dT = gpu.alloc () : memref<64x2xf32>
    gpu.launch_func @kernels::@kernel blocks in (%c2, %c2, %c1) threads in (%c1, %c1, %c1) args(%dX : memref<64x64xf32>, %dY : memref<64x64xf32>, %dT : memref<64x2xf32>)
    %Y = memref.alloc() : memref<64x64xf32>
    gpu.memcpy %Y, %dY : memref<64x64xf32>, memref<64x64xf32>
    %T = memref.alloc() : memref<64x2xf32>
    gpu.memcpy %T, %dT : memref<64x2xf32>, memref<64x2xf32>
    %w0 = memref.subview %T[0, 0] [2, 2] [1, 1] : memref<64x2xf32> to memref<2x2xf32, strided<[2, 1]>>
    %u0 = memref.cast %w0 : memref<2x2xf32, strided<[2, 1]>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %w1 = memref.subview %T[62, 0] [2, 2] [1, 1] : memref<64x2xf32> to memref<2x2xf32, strided<[2, 1], offset: 124>>
    %u1 = memref.cast %w1 : memref<2x2xf32, strided<[2, 1], offset: 124>> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    %R = memref.alloc() : memref<64x64xf32>
    %c32 = arith.constant 32 : index
    %ninf = arith.constant 0xFF800000 : f32
    %fz = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %jb = %c0 to %c64 step %c32 {
        %jend = arith.addi %jb, %c32 : index
        %ib = arith.divui %i, %c32 : index
        %mx = scf.for %j = %jb to %jend step %c1 iter_args(%acc = %ninf) -> (f32) {
          %v = memref.load %X[%i, %j] : memref<64x64xf32>
          %n = arith.maximumf %acc, %v : f32
          scf.yield %n : f32
        }
        %sm = scf.for %j = %jb to %jend step %c1 iter_args(%acc = %fz) -> (f32) {
          %v = memref.load %X[%i, %j] : memref<64x64xf32>
          %dd = arith.subf %v, %mx : f32
          %ee = math.exp %dd : f32
          %n = arith.addf %acc, %ee : f32
          scf.yield %n : f32
        }
        scf.for %j = %jb to %jend step %c1 {
          %v = memref.load %X[%i, %j] : memref<64x64xf32>
          %dd = arith.subf %v, %mx : f32
          %ee = math.exp %dd : f32
          %q = arith.divf %ee, %sm : f32
          memref.store %q, %R[%i, %j] : memref<64x64xf32>
        }
      }
    }
    %uy = memref.cast %Y : memref<64x64xf32> to memref<*xf32>
    %ur = memref.cast %R : memref<64x64xf32> to memref<*xf32>
    call @printAllcloseF32(%uy, %ur) : (memref<*xf32>, memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmF16F16F32(memref<*xf16>, memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmBF16BF16F32(memref<*xbf16>, memref<*xbf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[\[}}1,   1],
// CHECK-NEXT: {{\[}}1,   1]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 124 sizes = [2, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[\[}}1,   1],
// CHECK-NEXT: {{\[}}1,   1]]
// CHECK: [ALLCLOSE: TRUE]
