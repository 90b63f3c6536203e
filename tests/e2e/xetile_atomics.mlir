// XeTile atomic_rmw (shared/spec/xetile.md §3.7) from four workgroups on the same memory: addf of X onto Y
// (Y = Y0 + 4X), maxs of I + (block id) onto Z (Z = max(Z0, I + 3)), and addi of 1 through a scattered
// 4x16 tile whose indices hit 8 counters 8 times each (duplicates within one op apply one after the other):
// each counter ends at 32.  The inputs come from host loops; CHECK lines: tools/gen_xetile_e2e.py (numpy).
// RUN: xesim run %s | filecheck %s

module @xetile_atomics attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%X: memref<32x32xf32>, %Y: memref<32x32xf32>, %I: memref<32x32xi32>, %Z: memref<32x32xi32>, %Cnt: memref<1x16xi32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %t = xetile.init_tile %X[%c0, %c0] : memref<32x32xf32> -> !xetile.tile<32x32xf32>
      %x = xetile.load_tile %t : !xetile.tile<32x32xf32> -> vector<32x32xf32>
      %tyy = xetile.init_tile %Y[%c0, %c0] : memref<32x32xf32> -> !xetile.tile<32x32xf32>
      %o = xetile.atomic_rmw addf %x, %tyy : vector<32x32xf32>, !xetile.tile<32x32xf32> -> vector<32x32xf32>
      %ti = xetile.init_tile %I[%c0, %c0] : memref<32x32xi32> -> !xetile.tile<32x32xi32>
      %i = xetile.load_tile %ti : !xetile.tile<32x32xi32> -> vector<32x32xi32>
      %bxi = arith.index_cast %bx : index to i32
      %bv = vector.broadcast %bxi : i32 to vector<32x32xi32>
      %ib = arith.addi %i, %bv : vector<32x32xi32>
      %tz = xetile.init_tile %Z[%c0, %c0] : memref<32x32xi32> -> !xetile.tile<32x32xi32>
      %oz = xetile.atomic_rmw maxs %ib, %tz : vector<32x32xi32>, !xetile.tile<32x32xi32> -> vector<32x32xi32>
      %cidx = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]]> : vector<4x16xindex>
      %cf = memref.collapse_shape %Cnt [[0, 1]] : memref<1x16xi32> into memref<16xi32>
      %tc = xetile.init_tile %cf, %cidx : memref<16xi32>, vector<4x16xindex> -> !xetile.tile<4x16xi32, #xetile.tile_attr<scattered = true>>
      %ones = arith.constant dense<1> : vector<4x16xi32>
      %oc = xetile.atomic_rmw addi %ones, %tc : vector<4x16xi32>, !xetile.tile<4x16xi32, #xetile.tile_attr<scattered = true>> -> vector<4x16xi32>
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
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %cq0 = arith.constant 0 : i32
    %cq2 = arith.constant 2 : i32
    %cq3 = arith.constant 3 : i32
    %cq4 = arith.constant 4 : i32
    %cq5 = arith.constant 5 : i32
    %czero32 = arith.constant 0 : i32
    %X = memref.alloc() : memref<32x32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %ia = arith.muli %i, %c3 : index
        %jb = arith.muli %j, %c5 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c7 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq3 : i32
        %v = arith.sitofp %d : i32 to f32
        memref.store %v, %X[%i, %j] : memref<32x32xf32>
      }
    }
    %dX = gpu.alloc () : memref<32x32xf32>
    gpu.memcpy %dX, %X : memref<32x32xf32>, memref<32x32xf32>
    %Y = memref.alloc() : memref<32x32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %ia = arith.muli %i, %c1 : index
        %jb = arith.muli %j, %c1 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c5 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq2 : i32
        %v = arith.sitofp %d : i32 to f32
        memref.store %v, %Y[%i, %j] : memref<32x32xf32>
      }
    }
    %dY = gpu.alloc () : memref<32x32xf32>
    gpu.memcpy %dY, %Y : memref<32x32xf32>, memref<32x32xf32>
    %I = memref.alloc() : memref<32x32xi32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %ia = arith.muli %i, %c5 : index
        %jb = arith.muli %j, %c3 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c9 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq4 : i32
        %v = arith.addi %d, %czero32 : i32
        memref.store %v, %I[%i, %j] : memref<32x32xi32>
      }
    }
    %dI = gpu.alloc () : memref<32x32xi32>
    gpu.memcpy %dI, %I : memref<32x32xi32>, memref<32x32xi32>
    %Z = memref.alloc() : memref<32x32xi32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %ia = arith.muli %i, %c2 : index
        %jb = arith.muli %j, %c7 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c11 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq5 : i32
        %v = arith.addi %d, %czero32 : i32
        memref.store %v, %Z[%i, %j] : memref<32x32xi32>
      }
    }
    %dZ = gpu.alloc () : memref<32x32xi32>
    gpu.memcpy %dZ, %Z : memref<32x32xi32>, memref<32x32xi32>
    %Cnt = memref.alloc() : memref<1x16xi32>
    scf.for %i = %c0 to %c1 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %ia = arith.muli %i, %c0 : index
        %jb = arith.muli %j, %c0 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c1 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq0 : i32
        %v = arith.addi %d, %czero32 : i32
        memref.store %v, %Cnt[%i, %j] : memref<1x16xi32>
      }
    }
    %dCnt = gpu.alloc () : memref<1x16xi32>
    gpu.memcpy %dCnt, %Cnt : memref<1x16xi32>, memref<1x16xi32>
    gpu.launch_func @kernels::@kernel blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%dX : memref<32x32xf32>, %dY : memref<32x32xf32>, %dI : memref<32x32xi32>, %dZ : memref<32x32xi32>, %dCnt : memref<1x16xi32>)
    gpu.memcpy %Y, %dY : memref<32x32xf32>, memref<32x32xf32>
    gpu.memcpy %Z, %dZ : memref<32x32xi32>, memref<32x32xi32>
    gpu.memcpy %Cnt, %dCnt : memref<1x16xi32>, memref<1x16xi32>
    %wy = memref.subview %Y[0, 0] [2, 16] [1, 1] : memref<32x32xf32> to memref<2x16xf32, strided<[32, 1]>>
    %uy = memref.cast %wy : memref<2x16xf32, strided<[32, 1]>> to memref<*xf32>
    call @printMemrefF32(%uy) : (memref<*xf32>) -> ()
    %wy2 = memref.subview %Y[30, 16] [2, 16] [1, 1] : memref<32x32xf32> to memref<2x16xf32, strided<[32, 1], offset: 976>>
    %uy2 = memref.cast %wy2 : memref<2x16xf32, strided<[32, 1], offset: 976>> to memref<*xf32>
    call @printMemrefF32(%uy2) : (memref<*xf32>) -> ()
    %wz = memref.subview %Z[0, 0] [2, 16] [1, 1] : memref<32x32xi32> to memref<2x16xi32, strided<[32, 1]>>
    %uz = memref.cast %wz : memref<2x16xi32, strided<[32, 1]>> to memref<*xi32>
    call @printMemrefI32(%uz) : (memref<*xi32>) -> ()
    %wc = memref.subview %Cnt[0, 0] [1, 16] [1, 1] : memref<1x16xi32> to memref<1x16xi32, strided<[16, 1]>>
    %uc = memref.cast %wc : memref<1x16xi32, strided<[16, 1]>> to memref<*xi32>
    call @printMemrefI32(%uc) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmF16F16F32(memref<*xf16>, memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmBF16BF16F32(memref<*xbf16>, memref<*xbf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 16] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}-14,   7,   0,   -7,   14,   2,   -5,   -12,   9,   2,   -10,   11,   4,   -3,   -10,   6],
// CHECK-NEXT: {{\[}}-1,   -8,   13,   6,   -6,   -13,   8,   1,   -6,   10,   3,   -4,   -11,   10,   -2,   -9]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 976 sizes = [2, 16] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}-5,   -12,   9,   2,   -10,   11,   4,   -3,   -10,   6,   -1,   -8,   13,   6,   -6,   -13],
// CHECK-NEXT: {{\[}}8,   1,   -6,   10,   3,   -4,   -11,   10,   -2,   -9,   12,   5,   -2,   -14,   7,   0]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 16] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}-1,   2,   5,   5,   2,   5,   4,   2,   5,   3,   2,   5,   2,   2,   5,   1],
// CHECK-NEXT: {{\[}}4,   7,   1,   4,   7,   1,   4,   7,   1,   5,   7,   1,   4,   7,   1,   4]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [1, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}32,   32,   32,   32,   32,   32,   32,   32,   0,   0,   0,   0,   0,   0,   0,   0]]
