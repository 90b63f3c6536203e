// The lane-level (SIMT) form of sg_gemm_f16.mlir: the same GEMM written per work-item, as the XeGPU pipelines
// emit it after lane distribution. Each work-item holds its fragment: lane l holds column l of the 8x16 A tile
// (vector<8xf16>), column l of the 16x16 B tile loaded packed (vector<16xf16>, pairs of consecutive rows) and
// column l of the 8x16 C tile (vector<8xf32>); the dpas is executed by the whole subgroup together.
// It prints exactly what the SG form prints (tests/unit/test_lane_level.py compares the two); the CHECK lines are
// those of the SG form, derived by hand: C[i][j] = A[i][j] + A[i][j-1] with A[i][k] = (i + k) mod 8.
// RUN: xesim run %s | filecheck %s

module @lane_gemm attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %c: memref<32x32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %m = arith.muli %bx, %c8 : index
      %n = arith.muli %by, %c16 : index
      %a_td = xegpu.create_nd_tdesc %a : memref<32x32xf16> -> !xegpu.tensor_desc<8x16xf16>
      %b_td = xegpu.create_nd_tdesc %b : memref<32x32xf16> -> !xegpu.tensor_desc<16x16xf16>
      %c_td = xegpu.create_nd_tdesc %c : memref<32x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      %zero = arith.constant dense<0.000000e+00> : vector<8xf32>
      %acc = scf.for %k = %c0 to %c32 step %c16 iter_args(%sum = %zero) -> (vector<8xf32>) {
        %av = xegpu.load_nd %a_td[%m, %k] : !xegpu.tensor_desc<8x16xf16> -> vector<8xf16>
        %bv = xegpu.load_nd %b_td[%k, %n] <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<16xf16>
        %d = xegpu.dpas %av, %bv, %sum : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>
        scf.yield %d : vector<8xf32>
      }
      xegpu.store_nd %acc, %c_td[%m, %n] <{l1_hint = #xegpu.cache_hint<write_back>}> : vector<8xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1.0 : f16
    %zero = arith.constant 0.0 : f16
    %A = memref.alloc() : memref<32x32xf16>
    %B = memref.alloc() : memref<32x32xf16>
    %C = memref.alloc() : memref<32x32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %s = arith.addi %i, %j : index
        %r = arith.remui %s, %c8 : index
        %r32 = arith.index_cast %r : index to i32
        %v = arith.sitofp %r32 : i32 to f16
        memref.store %v, %A[%i, %j] : memref<32x32xf16>
        %jm1 = arith.subi %j, %c1 : index
        %diag = arith.cmpi eq, %i, %j : index
        %super = arith.cmpi eq, %i, %jm1 : index
        %on = arith.ori %diag, %super : i1
        %bv = arith.select %on, %one, %zero : f16
        memref.store %bv, %B[%i, %j] : memref<32x32xf16>
      }
    }
    %dA = gpu.alloc () : memref<32x32xf16>
    %dB = gpu.alloc () : memref<32x32xf16>
    %dC = gpu.alloc () : memref<32x32xf32>
    gpu.memcpy %dA, %A : memref<32x32xf16>, memref<32x32xf16>
    gpu.memcpy %dB, %B : memref<32x32xf16>, memref<32x32xf16>
    gpu.launch_func @kernels::@gemm blocks in (%c4, %c2, %c1) threads in (%c16, %c1, %c1) args(%dA : memref<32x32xf16>, %dB : memref<32x32xf16>, %dC : memref<32x32xf32>)
    gpu.wait
    gpu.memcpy %C, %dC : memref<32x32xf32>, memref<32x32xf32>
    %cast = memref.cast %C : memref<32x32xf32> to memref<*xf32>
    call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
    gpu.dealloc %dA : memref<32x32xf16>
    gpu.dealloc %dB : memref<32x32xf16>
    gpu.dealloc %dC : memref<32x32xf32>
    memref.dealloc %A : memref<32x32xf16>
    memref.dealloc %B : memref<32x32xf16>
    memref.dealloc %C : memref<32x32xf32>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [32, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}0,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13],
// CHECK-NEXT:  [1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7],
// CHECK-NEXT:  [2,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1],
// CHECK-NEXT:  [3,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3],
// CHECK-NEXT:  [4,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5],
// CHECK-NEXT:  [5,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7],
// CHECK-NEXT:  [6,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9],
// CHECK-NEXT:  [7,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11],
// CHECK-NEXT:  [0,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13],
// CHECK-NEXT:  [1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7],
// CHECK-NEXT:  [2,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1],
// CHECK-NEXT:  [3,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3],
// CHECK-NEXT:  [4,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5],
// CHECK-NEXT:  [5,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7],
// CHECK-NEXT:  [6,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9],
// CHECK-NEXT:  [7,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11],
// CHECK-NEXT:  [0,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13],
// CHECK-NEXT:  [1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7],
// CHECK-NEXT:  [2,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1],
// CHECK-NEXT:  [3,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3],
// CHECK-NEXT:  [4,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5],
// CHECK-NEXT:  [5,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7],
// CHECK-NEXT:  [6,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9],
// CHECK-NEXT:  [7,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11],
// CHECK-NEXT:  [0,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13],
// CHECK-NEXT:  [1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7],
// CHECK-NEXT:  [2,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1],
// CHECK-NEXT:  [3,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3],
// CHECK-NEXT:  [4,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5],
// CHECK-NEXT:  [5,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7],
// CHECK-NEXT:  [6,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9],
// CHECK-NEXT:  [7,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11]]
