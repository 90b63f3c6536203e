// XeTile workgroup-level GEMM 1024^3 f16 -> f32 (shared/spec/xetile.md §1.6 second program, §4):
// written once per workgroup on 256x256 tiles of C with wg_map sg_layout = [8, 4]; 4x4 workgroups of 32 VC threads; xesim runs it on whole tiles (xetile.wg.semantics).
// A[i][k] = (3i + 5k) mod 7 - 3, B[k][j] = (2k + 3j) mod 5 - 2 (host loops); every sum is exact.
// CHECK lines: tools/gen_xetile_e2e.py (numpy).
// RUN: xesim run %s | filecheck %s

module @xetile_wg_gemm_1k_f16 attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %C: memref<1024x1024xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %ctk = arith.constant 32 : index
      %cwg = arith.constant 256 : index
      %ck = arith.constant 1024 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %m = arith.muli %bx, %cwg : index
      %n = arith.muli %by, %cwg : index
      %tcw = xetile.init_tile %C[%m, %n] : memref<1024x1024xf32> -> !xetile.tile<256x256xf32, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 64]>>>
      %z = arith.constant {map = #xetile.wg_map<sg_layout = [8, 4], sg_data = [32, 64]>} dense<0.0> : vector<256x256xf32>
      %taw = xetile.init_tile %A[%m, %c0] : memref<1024x1024xf16> -> !xetile.tile<256x32xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 32]>>>
      %tbw = xetile.init_tile %B[%c0, %n] : memref<1024x1024xf16> -> !xetile.tile<32x256xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 64]>>>
      %o:3 = scf.for %k = %c0 to %ck step %ctk iter_args(%at = %taw, %bt = %tbw, %acc = %z) -> (!xetile.tile<256x32xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 32]>>>, !xetile.tile<32x256xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 64]>>>, vector<256x256xf32>) {
        %a = xetile.load_tile %at : !xetile.tile<256x32xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 32]>>> -> vector<256x32xf16>
        %b = xetile.load_tile %bt : !xetile.tile<32x256xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 64]>>> -> vector<32x256xf16>
        %d = xetile.tile_mma %a, %b, %acc {wg_map_a = #xetile.wg_map<sg_layout = [8, 4], sg_data = [32, 32]>, wg_map_b = #xetile.wg_map<sg_layout = [8, 4], sg_data = [32, 64]>, wg_map_c = #xetile.wg_map<sg_layout = [8, 4], sg_data = [32, 64]>} : vector<256x32xf16>, vector<32x256xf16>, vector<256x256xf32> -> vector<256x256xf32>
        %an = xetile.update_tile_offset %at, [%c0, %ctk] : !xetile.tile<256x32xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 32]>>>
        %bn = xetile.update_tile_offset %bt, [%ctk, %c0] : !xetile.tile<32x256xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 64]>>>
        scf.yield %an, %bn, %d : !xetile.tile<256x32xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 32]>>>, !xetile.tile<32x256xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 64]>>>, vector<256x256xf32>
      }
      xetile.store_tile %o#2, %tcw : vector<256x256xf32>, !xetile.tile<256x256xf32, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 64]>>>
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
    %c1024 = arith.constant 1024 : index
    %cq2 = arith.constant 2 : i32
    %cq3 = arith.constant 3 : i32
    %czero32 = arith.constant 0 : i32
    %A = memref.alloc() : memref<1024x1024xf16>
    %B = memref.alloc() : memref<1024x1024xf16>
    scf.for %i = %c0 to %c1024 step %c1 {
      scf.for %j = %c0 to %c1024 step %c1 {
        %ia = arith.muli %i, %c3 : index
        %jb = arith.muli %j, %c5 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c7 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq3 : i32
        %v = arith.sitofp %d : i32 to f16
        memref.store %v, %A[%i, %j] : memref<1024x1024xf16>
      }
    }
    scf.for %i = %c0 to %c1024 step %c1 {
      scf.for %j = %c0 to %c1024 step %c1 {
        %ia = arith.muli %i, %c2 : index
        %jb = arith.muli %j, %c3 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c5 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq2 : i32
        %v = arith.sitofp %d : i32 to f16
        memref.store %v, %B[%i, %j] : memref<1024x1024xf16>
      }
    }
    %dA = gpu.alloc () : memref<1024x1024xf16>
    %dB = gpu.alloc () : memref<1024x1024xf16>
    %dC = gpu.alloc () : memref<1024x1024xf32>
    gpu.memcpy %dA, %A : memref<1024x1024xf16>, memref<1024x1024xf16>
    gpu.memcpy %dB, %B : memref<1024x1024xf16>, memref<1024x1024xf16>
    gpu.launch_func @kernels::@gemm blocks in (%c4, %c4, %c1) threads in (%c4, %c8, %c1) args(%dA : memref<1024x1024xf16>, %dB : memref<1024x1024xf16>, %dC : memref<1024x1024xf32>)
    %C = memref.alloc() : memref<1024x1024xf32>
    gpu.memcpy %C, %dC : memref<1024x1024xf32>, memref<1024x1024xf32>
    %R = memref.alloc() : memref<1024x1024xf32>
    %ua = memref.cast %A : memref<1024x1024xf16> to memref<*xf16>
    %ub = memref.cast %B : memref<1024x1024xf16> to memref<*xf16>
    %ur = memref.cast %R : memref<1024x1024xf32> to memref<*xf32>
    %uc = memref.cast %C : memref<1024x1024xf32> to memref<*xf32>
    call @gemmF16F16F32(%ua, %ub, %ur) : (memref<*xf16>, memref<*xf16>, memref<*xf32>) -> ()
    call @printAllcloseF32(%uc, %ur) : (memref<*xf32>, memref<*xf32>) -> ()
    %w0 = memref.subview %C[0, 0] [2, 16] [1, 1] : memref<1024x1024xf32> to memref<2x16xf32, strided<[1024, 1]>>
    %u0 = memref.cast %w0 : memref<2x16xf32, strided<[1024, 1]>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %w1 = memref.subview %C[1022, 1008] [2, 16] [1, 1] : memref<1024x1024xf32> to memref<2x16xf32, strided<[1024, 1], offset: 1047536>>
    %u1 = memref.cast %w1 : memref<2x16xf32, strided<[1024, 1], offset: 1047536>> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    %w2 = memref.subview %C[255, 248] [2, 16] [1, 1] : memref<1024x1024xf32> to memref<2x16xf32, strided<[1024, 1], offset: 261368>>
    %u2 = memref.cast %w2 : memref<2x16xf32, strided<[1024, 1], offset: 261368>> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmF16F16F32(memref<*xf16>, memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmBF16BF16F32(memref<*xbf16>, memref<*xbf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: [ALLCLOSE: TRUE]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 16] strides = [1024, 1] data =
// CHECK-NEXT: {{\[\[}}1,   -7,   15,   -8,   -1,   1,   -7,   15,   -8,   -1,   1,   -7,   15,   -8,   -1,   1],
// CHECK-NEXT: {{\[}}12,   -4,   -5,   -1,   -2,   12,   -4,   -5,   -1,   -2,   12,   -4,   -5,   -1,   -2,   12]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 1047536 sizes = [2, 16] strides = [1024, 1] data =
// CHECK-NEXT: {{\[\[}}-8,   -1,   1,   -7,   15,   -8,   -1,   1,   -7,   15,   -8,   -1,   1,   -7,   15,   -8],
// CHECK-NEXT: {{\[}}-1,   -2,   12,   -4,   -5,   -1,   -2,   12,   -4,   -5,   -1,   -2,   12,   -4,   -5,   -1]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 261368 sizes = [2, 16] strides = [1024, 1] data =
// CHECK-NEXT: {{\[\[}}13,   -4,   -1,   2,   -10,   13,   -4,   -1,   2,   -10,   13,   -4,   -1,   2,   -10,   13],
// CHECK-NEXT: {{\[}}-1,   -5,   -4,   12,   -2,   -1,   -5,   -4,   12,   -2,   -1,   -5,   -4,   12,   -2,   -1]]
