// XeTile SG-level GEMM 64x64x128, f16 x f16 -> f16 (shared/spec/xetile.md §1.6, §3.6): a grid of 2x2 VC threads, each computing a 32x32 block of C with a K loop of step 64.
// f16 output: tile_mma's K-chunks of 16 accumulate in increasing order, each rounded to f16 (§3.6); 14 of the 32 values of each printed window differ from one final rounding of the exact sum.
// A[i][k] = (3i + 5k) mod 31 - 0, B[k][j] = (2k + 3j) mod 17 - 0 (host loops); every product and K-chunk sum is an exact integer; the f16 running sum is rounded after each chunk of 16 (numpy emulates it).
// CHECK lines: tools/gen_xetile_e2e.py (numpy, A @ B from the same formulas).
// RUN: xesim run %s | filecheck %s

module @xetile_gemm_f16_out_chunks attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%A: memref<64x128xf16>, %B: memref<128x64xf16>, %C: memref<64x64xf16>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ctk = arith.constant 64 : index
      %ck = arith.constant 128 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %ctm = arith.constant 32 : index
      %ctn = arith.constant 32 : index
      %m0 = arith.muli %bx, %ctm : index
      %n0 = arith.muli %by, %ctn : index
      %tc = xetile.init_tile %C[%m0, %n0] : memref<64x64xf16> -> !xetile.tile<32x32xf16>
      %zero = arith.constant dense<0.0> : vector<32x32xf16>
      %ta = xetile.init_tile %A[%m0, %c0] : memref<64x128xf16> -> !xetile.tile<32x64xf16>
      %tb = xetile.init_tile %B[%c0, %n0] : memref<128x64xf16> -> !xetile.tile<64x32xf16>
      %r:3 = scf.for %kk = %c0 to %ck step %ctk iter_args(%at = %ta, %bt = %tb, %acc = %zero) -> (!xetile.tile<32x64xf16>, !xetile.tile<64x32xf16>, vector<32x32xf16>) {
        xetile.prefetch_tile %at : !xetile.tile<32x64xf16>
        %a0 = xetile.load_tile %at : !xetile.tile<32x64xf16> -> vector<32x64xf16>
        %b0 = xetile.load_tile %bt : !xetile.tile<64x32xf16> -> vector<64x32xf16>
        %d = xetile.tile_mma %a0, %b0, %acc : vector<32x64xf16>, vector<64x32xf16>, vector<32x32xf16> -> vector<32x32xf16>
        %an = xetile.update_tile_offset %at, [%c0, %ctk] : !xetile.tile<32x64xf16>
        %bn = xetile.update_tile_offset %bt, [%ctk, %c0] : !xetile.tile<64x32xf16>
        scf.yield %an, %bn, %d : !xetile.tile<32x64xf16>, !xetile.tile<64x32xf16>, vector<32x32xf16>
      }
      xetile.store_tile %r#2, %tc : vector<32x32xf16>, !xetile.tile<32x32xf16>
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
    %c17 = arith.constant 17 : index
    %c31 = arith.constant 31 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %cq0 = arith.constant 0 : i32
    %cq2 = arith.constant 2 : i32
    %cq3 = arith.constant 3 : i32
    %cq4 = arith.constant 4 : i32
    %czero32 = arith.constant 0 : i32
    %A = memref.alloc() : memref<64x128xf16>
    %B = memref.alloc() : memref<128x64xf16>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c128 step %c1 {
        %ia = arith.muli %i, %c3 : index
        %jb = arith.muli %j, %c5 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c31 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq0 : i32
        %v = arith.sitofp %d : i32 to f16
        memref.store %v, %A[%i, %j] : memref<64x128xf16>
      }
    }
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %ia = arith.muli %i, %c2 : index
        %jb = arith.muli %j, %c3 : index
        %s = arith.addi %ia, %jb : index
        %m = arith.remui %s, %c17 : index
        %mi = arith.index_cast %m : index to i32
        %d = arith.subi %mi, %cq0 : i32
        %v = arith.sitofp %d : i32 to f16
        memref.store %v, %B[%i, %j] : memref<128x64xf16>
      }
    }
    %dA = gpu.alloc () : memref<64x128xf16>
    %dB = gpu.alloc () : memref<128x64xf16>
    %dC = gpu.alloc () : memref<64x64xf16>
    gpu.memcpy %dA, %A : memref<64x128xf16>, memref<64x128xf16>
    gpu.memcpy %dB, %B : memref<128x64xf16>, memref<128x64xf16>
    gpu.launch_func @kernels::@gemm blocks in (%c2, %c2, %c1) threads in (%c1, %c1, %c1) args(%dA : memref<64x128xf16>, %dB : memref<128x64xf16>, %dC : memref<64x64xf16>)
    %C = memref.alloc() : memref<64x64xf16>
    gpu.memcpy %C, %dC : memref<64x64xf16>, memref<64x64xf16>
    %w0 = memref.subview %C[0, 0] [2, 16] [1, 1] : memref<64x64xf16> to memref<2x16xf16, strided<[64, 1]>>
    %u0 = memref.cast %w0 : memref<2x16xf16, strided<[64, 1]>> to memref<*xf16>
    call @printMemrefF16(%u0) : (memref<*xf16>) -> ()
    %w1 = memref.subview %C[62, 48] [2, 16] [1, 1] : memref<64x64xf16> to memref<2x16xf16, strided<[64, 1], offset: 4016>>
    %u1 = memref.cast %w1 : memref<2x16xf16, strided<[64, 1], offset: 4016>> to memref<*xf16>
    call @printMemrefF16(%u1) : (memref<*xf16>) -> ()
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
// CHECK-NEXT: {{\[\[}}14832,   15472,   15128,   15304,   14760,   15008,   15088,   15512,   15312,   15016,   14888,   14928,   15584,   15016,   15480,   14456],
// CHECK-NEXT: {{\[}}15488,   14992,   15656,   14696,   15192,   14832,   15336,   15200,   15456,   15128,   14904,   15448,   15496,   15376,   15280,   15232]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 4016 sizes = [2, 16] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}15480,   14456,   15264,   14832,   15472,   15128,   15304,   14760,   15008,   15088,   15512,   15312,   15016,   14888,   14928,   15584],
// CHECK-NEXT: {{\[}}15280,   15232,   14944,   15488,   14992,   15656,   14696,   15192,   14832,   15336,   15200,   15456,   15128,   14904,   15448,   15496]]
