// XeTile workgroup-level GEMM 4096^3 f16 -> f32 (shared/spec/xetile.md §1.6 second program, §4):
// written once per workgroup on 256x256 tiles of C with wg_map sg_layout = [8, 4]; 16x16 workgroups of 32 VC threads; xesim runs it on whole tiles (xetile.wg.semantics).
// A[i][k] = (3i + 5k) mod 13 - 4, B[k][j] = (2k + 3j) mod 11 - 3 (host loops); every sum is exact.
// Checked: a weighted checksum of all of C (host loops, exact in f64) and printed windows.
// CHECK lines: tools/gen_xetile_e2e.py (numpy).
// RUN: xesim run %s | filecheck %s

module @xetile_wg_gemm_4k_f16 attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %ctk = arith.constant 32 : index
      %cwg = arith.constant 256 : index
      %ck = arith.constant 4096 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %m = arith.muli %bx, %cwg : index
      %n = arith.muli %by, %cwg : index
      %tcw = xetile.init_tile %C[%m, %n] : memref<4096x4096xf32> -> !xetile.tile<256x256xf32, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 64]>>>
      %z = arith.constant {map = #xetile.wg_map<sg_layout = [8, 4], sg_data = [32, 64]>} dense<0.0> : vector<256x256xf32>
      %taw = xetile.init_tile %A[%m, %c0] : memref<4096x4096xf16> -> !xetile.tile<256x32xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 32]>>>
      %tbw = xetile.init_tile %B[%c0, %n] : memref<4096x4096xf16> -> !xetile.tile<32x256xf16, #xetile.tile_attr<wg_map = <sg_layout = [8, 4], sg_data = [32, 64]>>>
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
    %c11 = arith.constant 11 : index
    %c13 = arith.constant 13 : index
    %c16 = arith.constant 16 : index
    %c4096 = arith.constant 4096 : index
    %cq3 = arith.constant 3 : i32
    %cq4 = arith.constant 4 : i32
    %czero32 = arith.constant 0 : i32
    %A = memref.alloc() : memref<4096x4096xf16>
    %B = memref.alloc() : memref<4096x4096xf16>
    scf.for %i = %c0 to %c4096 step %c1 {
      scf.for %j = %c0 to %c4096 step %c1 {
        %ia = arith.muli %i, %c3 : index
        %jb = arith.muli %j, %c5 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c13 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq4 : i32
        %v = arith.sitofp %d : i32 to f16
        memref.store %v, %A[%i, %j] : memref<4096x4096xf16>
      }
    }
    scf.for %i = %c0 to %c4096 step %c1 {
      scf.for %j = %c0 to %c4096 step %c1 {
        %ia = arith.muli %i, %c2 : index
        %jb = arith.muli %j, %c3 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c11 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq3 : i32
        %v = arith.sitofp %d : i32 to f16
        memref.store %v, %B[%i, %j] : memref<4096x4096xf16>
      }
    }
    %dA = gpu.alloc () : memref<4096x4096xf16>
    %dB = gpu.alloc () : memref<4096x4096xf16>
    %dC = gpu.alloc () : memref<4096x4096xf32>
    gpu.memcpy %dA, %A : memref<4096x4096xf16>, memref<4096x4096xf16>
    gpu.memcpy %dB, %B : memref<4096x4096xf16>, memref<4096x4096xf16>
    gpu.launch_func @kernels::@gemm blocks in (%c16, %c16, %c1) threads in (%c4, %c8, %c1) args(%dA : memref<4096x4096xf16>, %dB : memref<4096x4096xf16>, %dC : memref<4096x4096xf32>)
    %C = memref.alloc() : memref<4096x4096xf32>
    gpu.memcpy %C, %dC : memref<4096x4096xf32>, memref<4096x4096xf32>
    %sum0 = arith.constant 0.0 : f64
    %sum = scf.for %i = %c0 to %c4096 step %c1 iter_args(%si = %sum0) -> (f64) {
      %sj = scf.for %j = %c0 to %c4096 step %c1 iter_args(%sa = %si) -> (f64) {
        %ia = arith.muli %i, %c7 : index
        %jb = arith.muli %j, %c13 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c11 : index
        %m1 = arith.addi %m, %c1 : index
        %mi = arith.index_cast %m1 : index to i32
        %w = arith.sitofp %mi : i32 to f64
        %x = memref.load %C[%i, %j] : memref<4096x4096xf32>
        %xd = arith.extf %x : f32 to f64
        %t = arith.mulf %xd, %w : f64
        %sn = arith.addf %sa, %t : f64
        scf.yield %sn : f64
      }
      scf.yield %sj : f64
    }
    %sumi = arith.fptosi %sum : f64 to i64
    vector.print %sumi : i64
    %w0 = memref.subview %C[0, 0] [2, 16] [1, 1] : memref<4096x4096xf32> to memref<2x16xf32, strided<[4096, 1]>>
    %u0 = memref.cast %w0 : memref<2x16xf32, strided<[4096, 1]>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %w1 = memref.subview %C[4094, 4080] [2, 16] [1, 1] : memref<4096x4096xf32> to memref<2x16xf32, strided<[4096, 1], offset: 16773104>>
    %u1 = memref.cast %w1 : memref<2x16xf32, strided<[4096, 1], offset: 16773104>> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    %w2 = memref.subview %C[255, 248] [2, 16] [1, 1] : memref<4096x4096xf32> to memref<2x16xf32, strided<[4096, 1], offset: 1044728>>
    %u2 = memref.cast %w2 : memref<2x16xf32, strided<[4096, 1], offset: 1044728>> to memref<*xf32>
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

// CHECK: {{^}}1649267753634{{$}}
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 16] strides = [4096, 1] data =
// CHECK-NEXT: {{\[\[}}16335,   16374,   16446,   16408,   16315,   16310,   16415,   16377,   16383,   16356,   16373,   16335,   16374,   16446,   16408,   16315],
// CHECK-NEXT: {{\[}}16317,   16431,   16402,   16373,   16322,   16392,   16363,   16367,   16415,   16430,   16346,   16317,   16431,   16402,   16373,   16322]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 16773104 sizes = [2, 16] strides = [4096, 1] data =
// CHECK-NEXT: {{\[\[}}16309,   16444,   16447,   16373,   16365,   16412,   16371,   16363,   16465,   16468,   16295,   16309,   16444,   16447,   16373,   16365],
// CHECK-NEXT: {{\[}}16373,   16335,   16374,   16446,   16408,   16315,   16310,   16415,   16377,   16383,   16356,   16373,   16335,   16374,   16446,   16408]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 1044728 sizes = [2, 16] strides = [4096, 1] data =
// CHECK-NEXT: {{\[\[}}16402,   16375,   16392,   16376,   16404,   16399,   16427,   16367,   16362,   16423,   16407,   16402,   16375,   16392,   16376,   16404],
// CHECK-NEXT: {{\[}}16376,   16352,   16372,   16359,   16390,   16355,   16419,   16362,   16327,   16391,   16411,   16376,   16352,   16372,   16359,   16390]]
