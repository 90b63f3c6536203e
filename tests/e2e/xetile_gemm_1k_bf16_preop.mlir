// XeTile SG-level GEMM 1024x1024x1024, bf16 x bf16 -> f32 (shared/spec/xetile.md §1.6, §3.6): a grid of 32x16 VC threads, each computing a 32x64 block of C with a K loop of step 32.
// Pre-op: every A tile is doubled (arith.addf a, a).
// A[i][k] = (3i + 5k) mod 7 - 3, B[k][j] = (2k + 3j) mod 5 - 2 (host loops); every product and K-chunk sum is an exact integer, so the values do not depend on the DPAS rounding.
// CHECK lines: tools/gen_xetile_e2e.py (numpy, A @ B from the same formulas).
// RUN: xesim run %s | filecheck %s

module @xetile_gemm_1k_bf16_preop attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %C: memref<1024x1024xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ctk = arith.constant 32 : index
      %ck = arith.constant 1024 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %ctm = arith.constant 32 : index
      %ctn = arith.constant 64 : index
      %m0 = arith.muli %bx, %ctm : index
      %n0 = arith.muli %by, %ctn : index
      %tc = xetile.init_tile %C[%m0, %n0] : memref<1024x1024xf32> -> !xetile.tile<32x64xf32>
      %zero = arith.constant dense<0.0> : vector<32x64xf32>
      %ta = xetile.init_tile %A[%m0, %c0] : memref<1024x1024xbf16> -> !xetile.tile<32x32xbf16>
      %tb = xetile.init_tile %B[%c0, %n0] : memref<1024x1024xbf16> -> !xetile.tile<32x64xbf16>
      %r:3 = scf.for %kk = %c0 to %ck step %ctk iter_args(%at = %ta, %bt = %tb, %acc = %zero) -> (!xetile.tile<32x32xbf16>, !xetile.tile<32x64xbf16>, vector<32x64xf32>) {
        xetile.prefetch_tile %at : !xetile.tile<32x32xbf16>
        %a0 = xetile.load_tile %at : !xetile.tile<32x32xbf16> -> vector<32x32xbf16>
        %b0 = xetile.load_tile %bt : !xetile.tile<32x64xbf16> -> vector<32x64xbf16>
        %a2 = arith.addf %a0, %a0 : vector<32x32xbf16>
        %d = xetile.tile_mma %a2, %b0, %acc : vector<32x32xbf16>, vector<32x64xbf16>, vector<32x64xf32> -> vector<32x64xf32>
        %an = xetile.update_tile_offset %at, [%c0, %ctk] : !xetile.tile<32x32xbf16>
        %bn = xetile.update_tile_offset %bt, [%ctk, %c0] : !xetile.tile<32x64xbf16>
        scf.yield %an, %bn, %d : !xetile.tile<32x32xbf16>, !xetile.tile<32x64xbf16>, vector<32x64xf32>
      }
      xetile.store_tile %r#2, %tc : vector<32x64xf32>, !xetile.tile<32x64xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c9 = arith.constant 9 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c1024 = arith.constant 1024 : index
    %cq2 = arith.constant 2 : i32
    %cq3 = arith.constant 3 : i32
    %cq4 = arith.constant 4 : i32
    %czero32 = arith.constant 0 : i32
    %A = memref.alloc() : memref<1024x1024xbf16>
    %B = memref.alloc() : memref<1024x1024xbf16>
    scf.for %i = %c0 to %c1024 step %c1 {
      scf.for %j = %c0 to %c1024 step %c1 {
        %ia = arith.muli %i, %c3 : index
        %jb = arith.muli %j, %c5 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c7 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq3 : i32
        %f = arith.sitofp %d : i32 to f32
        %v = arith.truncf %f : f32 to bf16
        memref.store %v, %A[%i, %j] : memref<1024x1024xbf16>
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
        %f = arith.sitofp %d : i32 to f32
        %v = arith.truncf %f : f32 to bf16
        memref.store %v, %B[%i, %j] : memref<1024x1024xbf16>
      }
    }
    %dA = gpu.alloc () : memref<1024x1024xbf16>
    %dB = gpu.alloc () : memref<1024x1024xbf16>
    %dC = gpu.alloc () : memref<1024x1024xf32>
    gpu.memcpy %dA, %A : memref<1024x1024xbf16>, memref<1024x1024xbf16>
    gpu.memcpy %dB, %B : memref<1024x1024xbf16>, memref<1024x1024xbf16>
    gpu.launch_func @kernels::@gemm blocks in (%c32, %c16, %c1) threads in (%c1, %c1, %c1) args(%dA : memref<1024x1024xbf16>, %dB : memref<1024x1024xbf16>, %dC : memref<1024x1024xf32>)
    %C = memref.alloc() : memref<1024x1024xf32>
    gpu.memcpy %C, %dC : memref<1024x1024xf32>, memref<1024x1024xf32>
    %w0 = memref.subview %C[0, 0] [2, 16] [1, 1] : memref<1024x1024xf32> to memref<2x16xf32, strided<[1024, 1]>>
    %u0 = memref.cast %w0 : memref<2x16xf32, strided<[1024, 1]>> to memref<*xf32>
    call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %w1 = memref.subview %C[1022, 1008] [2, 16] [1, 1] : memref<1024x1024xf32> to memref<2x16xf32, strided<[1024, 1], offset: 1047536>>
    %u1 = memref.cast %w1 : memref<2x16xf32, strided<[1024, 1], offset: 1047536>> to memref<*xf32>
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

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 16] strides = [1024, 1] data =
// CHECK-NEXT: {{\[\[}}2,   -14,   30,   -16,   -2,   2,   -14,   30,   -16,   -2,   2,   -14,   30,   -16,   -2,   2],
// CHECK-NEXT: {{\[}}24,   -8,   -10,   -2,   -4,   24,   -8,   -10,   -2,   -4,   24,   -8,   -10,   -2,   -4,   24]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 1047536 sizes = [2, 16] strides = [1024, 1] data =
// CHECK-NEXT: {{\[\[}}-16,   -2,   2,   -14,   30,   -16,   -2,   2,   -14,   30,   -16,   -2,   2,   -14,   30,   -16],
// CHECK-NEXT: {{\[}}-2,   -4,   24,   -8,   -10,   -2,   -4,   24,   -8,   -10,   -2,   -4,   24,   -8,   -10,   -2]]
