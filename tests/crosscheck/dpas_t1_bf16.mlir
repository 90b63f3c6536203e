// Test vector T1 of spec/dpas-test-vectors.md in one SG-level DPAS: D[0][0] = 1 + eight products 2^-12 * 2^-12
// (one in each systolic stage: A[0][k] and B[k][0] are 2^-12 for even k < 16, every other element 0; C = 1).
// Per-stage rounding (the default model, M0) keeps 1 (0x3F800000 = 1065353216); a single rounding at the end
// (M4, single_rounding) gives 1 + 2^-21 (0x3F800004 = 1065353220). The host prints D and the bits of D[0][0].
module @dpas_t1 attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @dpas(%a: memref<8x32xbf16>, %b: memref<16x32xbf16>, %c: memref<8x16xf32>) kernel {
      %a_td = xegpu.create_nd_tdesc %a : memref<8x32xbf16> -> !xegpu.tensor_desc<8x16xbf16>
      %b_td = xegpu.create_nd_tdesc %b : memref<16x32xbf16> -> !xegpu.tensor_desc<16x16xbf16>
      %c_td = xegpu.create_nd_tdesc %c : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %av = xegpu.load_nd %a_td[0, 0] : !xegpu.tensor_desc<8x16xbf16> -> vector<8x16xbf16>
      %bv = xegpu.load_nd %b_td[0, 0] : !xegpu.tensor_desc<16x16xbf16> -> vector<16x16xbf16>
      %cv = xegpu.load_nd %c_td[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %dv = xegpu.dpas %av, %bv, %cv : vector<8x16xbf16>, vector<16x16xbf16>, vector<8x16xf32> -> vector<8x16xf32>
      xegpu.store_nd %dv, %c_td[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : bf16
    %tiny = arith.constant 2.44140625e-04 : bf16
    %one = arith.constant 1.0 : f32
    %A = memref.alloc() : memref<8x32xbf16>
    %B = memref.alloc() : memref<16x32xbf16>
    %C = memref.alloc() : memref<8x16xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        memref.store %zero, %A[%i, %j] : memref<8x32xbf16>
      }
      scf.for %j = %c0 to %c16 step %c1 {
        memref.store %one, %C[%i, %j] : memref<8x16xf32>
      }
    }
    scf.for %k = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        memref.store %zero, %B[%k, %j] : memref<16x32xbf16>
      }
    }
    scf.for %k = %c0 to %c16 step %c2 {
      memref.store %tiny, %A[%c0, %k] : memref<8x32xbf16>
      memref.store %tiny, %B[%k, %c0] : memref<16x32xbf16>
    }
    %dA = gpu.alloc () : memref<8x32xbf16>
    %dB = gpu.alloc () : memref<16x32xbf16>
    %dC = gpu.alloc () : memref<8x16xf32>
    gpu.memcpy %dA, %A : memref<8x32xbf16>, memref<8x32xbf16>
    gpu.memcpy %dB, %B : memref<16x32xbf16>, memref<16x32xbf16>
    gpu.memcpy %dC, %C : memref<8x16xf32>, memref<8x16xf32>
    gpu.launch_func @kernels::@dpas blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dA : memref<8x32xbf16>, %dB : memref<16x32xbf16>, %dC : memref<8x16xf32>)
    gpu.wait
    gpu.memcpy %C, %dC : memref<8x16xf32>, memref<8x16xf32>
    %cast = memref.cast %C : memref<8x16xf32> to memref<*xf32>
    call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
    %d00 = memref.load %C[%c0, %c0] : memref<8x16xf32>
    %bits = arith.bitcast %d00 : f32 to i32
    vector.print %bits : i32
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
}
