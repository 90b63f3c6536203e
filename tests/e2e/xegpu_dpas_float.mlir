// DPAS with every float type combination of PVC (spec/pvc-hardware.md §3.2), at subgroup level:
//   D1: f16 x f16 -> f32, 8x32 by 32x16 (two K steps), B loaded packed (VNNI 16x16x2), f32 accumulator
//   D2: bf16 x bf16 -> f32, 8x32 by 32x16 plain B, no accumulator (= +0)
//   D3: f16 x f16 -> f16 with an f16 accumulator, 8x16 by 16x16
//   D4: bf16 x bf16 -> bf16 with a bf16 accumulator, 8x16 by 16x16
//   D5: tf32 x tf32 -> f32, 16x8 by 8x16 (two repeat blocks of 8 rows), f32 accumulator
// Inputs are small integers (A in -2..2, B in -1..2, C in -3..3; tf32 A in quarters), so every product and
// partial sum is exact in every type involved and the result does not depend on the DPAS rounding model.
// A[i][k] = (i + 2k) mod 5 - 2, B[k][j] = (3k + j) mod 4 - 1, C[i][j] = (16i + j) mod 7 - 3.
// Expected values (numpy, exact integer arithmetic):
//   A = (np.arange(16)[:,None] + 2*np.arange(32)) % 5 - 2; B = (3*np.arange(32)[:,None] + np.arange(16)) % 4 - 1
//   C = (16*np.arange(16)[:,None] + np.arange(16)) % 7 - 3
//   D1 = A[0:8] @ B + C[0:8]; D2 = A[8:16] @ B; D3 = A[0:8, 0:16] @ B[0:16] + C[8:16]
//   D4 = A[8:16, 16:32] @ B[16:32] + C[0:8]; D5 = (A[:, 0:8] / 4) @ B[0:8] + C
//   printed: np.concatenate([D1, D2, D3, D4, D5])   (48x16)
// RUN: xesim run %s | filecheck %s

module @dpas_float attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<16x32xf32>, %b: memref<32x16xf32>, %c: memref<16x16xf32>, %b16: memref<32x32xf16>, %out: memref<48x16xf32>) kernel {
      %ta = xegpu.create_nd_tdesc %a : memref<16x32xf32> -> !xegpu.tensor_desc<8x32xf32>
      %tb = xegpu.create_nd_tdesc %b : memref<32x16xf32> -> !xegpu.tensor_desc<32x16xf32>
      %tc = xegpu.create_nd_tdesc %c : memref<16x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %tc16 = xegpu.create_nd_tdesc %c : memref<16x16xf32> -> !xegpu.tensor_desc<16x16xf32>
      %tb16 = xegpu.create_nd_tdesc %b16 : memref<32x32xf16> -> !xegpu.tensor_desc<32x16xf16>
      %to = xegpu.create_nd_tdesc %out : memref<48x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %to16 = xegpu.create_nd_tdesc %out : memref<48x16xf32> -> !xegpu.tensor_desc<16x16xf32>
      %a0 = xegpu.load_nd %ta[0, 0] : !xegpu.tensor_desc<8x32xf32> -> vector<8x32xf32>
      %a1 = xegpu.load_nd %ta[8, 0] : !xegpu.tensor_desc<8x32xf32> -> vector<8x32xf32>
      %bv = xegpu.load_nd %tb[0, 0] : !xegpu.tensor_desc<32x16xf32> -> vector<32x16xf32>
      %c0 = xegpu.load_nd %tc[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %c1 = xegpu.load_nd %tc[8, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %cc = xegpu.load_nd %tc16[0, 0] : !xegpu.tensor_desc<16x16xf32> -> vector<16x16xf32>
      // D1: f16, VNNI B from memory
      %a0h = arith.truncf %a0 : vector<8x32xf32> to vector<8x32xf16>
      %bp = xegpu.load_nd %tb16[0, 0] <{packed}> : !xegpu.tensor_desc<32x16xf16> -> vector<16x16x2xf16>
      %d1 = xegpu.dpas %a0h, %bp, %c0 : vector<8x32xf16>, vector<16x16x2xf16>, vector<8x16xf32> -> vector<8x16xf32>
      xegpu.store_nd %d1, %to[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      // D2: bf16, plain B, no accumulator
      %a1b = arith.truncf %a1 : vector<8x32xf32> to vector<8x32xbf16>
      %bb = arith.truncf %bv : vector<32x16xf32> to vector<32x16xbf16>
      %d2 = xegpu.dpas %a1b, %bb : vector<8x32xbf16>, vector<32x16xbf16> -> vector<8x16xf32>
      xegpu.store_nd %d2, %to[8, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      // D3: f16 -> f16
      %a0h16 = vector.extract_strided_slice %a0h {offsets = [0, 0], sizes = [8, 16], strides = [1, 1]} : vector<8x32xf16> to vector<8x16xf16>
      %bh = arith.truncf %bv : vector<32x16xf32> to vector<32x16xf16>
      %bh16 = vector.extract_strided_slice %bh {offsets = [0, 0], sizes = [16, 16], strides = [1, 1]} : vector<32x16xf16> to vector<16x16xf16>
      %c1h = arith.truncf %c1 : vector<8x16xf32> to vector<8x16xf16>
      %d3 = xegpu.dpas %a0h16, %bh16, %c1h : vector<8x16xf16>, vector<16x16xf16>, vector<8x16xf16> -> vector<8x16xf16>
      %d3f = arith.extf %d3 : vector<8x16xf16> to vector<8x16xf32>
      xegpu.store_nd %d3f, %to[16, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      // D4: bf16 -> bf16
      %a1b16 = vector.extract_strided_slice %a1b {offsets = [0, 16], sizes = [8, 16], strides = [1, 1]} : vector<8x32xbf16> to vector<8x16xbf16>
      %bb16 = vector.extract_strided_slice %bb {offsets = [16, 0], sizes = [16, 16], strides = [1, 1]} : vector<32x16xbf16> to vector<16x16xbf16>
      %c0b = arith.truncf %c0 : vector<8x16xf32> to vector<8x16xbf16>
      %d4 = xegpu.dpas %a1b16, %bb16, %c0b : vector<8x16xbf16>, vector<16x16xbf16>, vector<8x16xbf16> -> vector<8x16xbf16>
      %d4f = arith.extf %d4 : vector<8x16xbf16> to vector<8x16xf32>
      xegpu.store_nd %d4f, %to[24, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      // D5: tf32, A = A[:, 0:8] / 4
      %a01 = vector.shape_cast %a0 : vector<8x32xf32> to vector<8x32xf32>
      %ra = vector.extract_strided_slice %a01 {offsets = [0, 0], sizes = [8, 8], strides = [1, 1]} : vector<8x32xf32> to vector<8x8xf32>
      %rb = vector.extract_strided_slice %a1 {offsets = [0, 0], sizes = [8, 8], strides = [1, 1]} : vector<8x32xf32> to vector<8x8xf32>
      %z = arith.constant dense<0.0> : vector<16x8xf32>
      %a5a = vector.insert_strided_slice %ra, %z {offsets = [0, 0], strides = [1, 1]} : vector<8x8xf32> into vector<16x8xf32>
      %a5 = vector.insert_strided_slice %rb, %a5a {offsets = [8, 0], strides = [1, 1]} : vector<8x8xf32> into vector<16x8xf32>
      %q = arith.constant dense<0.25> : vector<16x8xf32>
      %a5q = arith.mulf %a5, %q : vector<16x8xf32>
      %a5t = arith.truncf %a5q : vector<16x8xf32> to vector<16x8xtf32>
      %b8 = vector.extract_strided_slice %bv {offsets = [0, 0], sizes = [8, 16], strides = [1, 1]} : vector<32x16xf32> to vector<8x16xf32>
      %b8t = arith.truncf %b8 : vector<8x16xf32> to vector<8x16xtf32>
      %d5 = xegpu.dpas %a5t, %b8t, %cc : vector<16x8xtf32>, vector<8x16xtf32>, vector<16x16xf32> -> vector<16x16xf32>
      xegpu.store_nd %d5, %to16[32, 0] : vector<16x16xf32>, !xegpu.tensor_desc<16x16xf32>
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
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %A = memref.alloc() : memref<16x32xf32>
    %B = memref.alloc() : memref<32x16xf32>
    %C = memref.alloc() : memref<16x16xf32>
    %B16 = memref.alloc() : memref<32x32xf16>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %i_small = arith.cmpi ult, %i, %c16 : index
        %j_small = arith.cmpi ult, %j, %c16 : index
        scf.if %i_small {
          %j2 = arith.muli %j, %c2 : index
          %s = arith.addi %i, %j2 : index
          %m = arith.remui %s, %c5 : index
          %mi = arith.index_cast %m : index to i32
          %mf = arith.sitofp %mi : i32 to f32
          %two = arith.constant 2.0 : f32
          %v = arith.subf %mf, %two : f32
          memref.store %v, %A[%i, %j] : memref<16x32xf32>
        }
        scf.if %j_small {
          %i3 = arith.muli %i, %c3 : index
          %s = arith.addi %i3, %j : index
          %m = arith.remui %s, %c4 : index
          %mi = arith.index_cast %m : index to i32
          %mf = arith.sitofp %mi : i32 to f32
          %one = arith.constant 1.0 : f32
          %v = arith.subf %mf, %one : f32
          memref.store %v, %B[%i, %j] : memref<32x16xf32>
          %vh = arith.truncf %v : f32 to f16
          memref.store %vh, %B16[%i, %j] : memref<32x32xf16>
          scf.if %i_small {
            %i16 = arith.muli %i, %c16 : index
            %t = arith.addi %i16, %j : index
            %tm = arith.remui %t, %c7 : index
            %ti = arith.index_cast %tm : index to i32
            %tf = arith.sitofp %ti : i32 to f32
            %three = arith.constant 3.0 : f32
            %cv = arith.subf %tf, %three : f32
            memref.store %cv, %C[%i, %j] : memref<16x16xf32>
          }
        }
      }
    }
    %dA = gpu.alloc () : memref<16x32xf32>
    %dB = gpu.alloc () : memref<32x16xf32>
    %dC = gpu.alloc () : memref<16x16xf32>
    %dB16 = gpu.alloc () : memref<32x32xf16>
    %dO = gpu.alloc () : memref<48x16xf32>
    gpu.memcpy %dA, %A : memref<16x32xf32>, memref<16x32xf32>
    gpu.memcpy %dB, %B : memref<32x16xf32>, memref<32x16xf32>
    gpu.memcpy %dC, %C : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %dB16, %B16 : memref<32x32xf16>, memref<32x32xf16>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dA : memref<16x32xf32>, %dB : memref<32x16xf32>, %dC : memref<16x16xf32>, %dB16 : memref<32x32xf16>, %dO : memref<48x16xf32>)
    %O = memref.alloc() : memref<48x16xf32>
    gpu.memcpy %O, %dO : memref<48x16xf32>, memref<48x16xf32>
    %p = memref.cast %O : memref<48x16xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [48, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}-3,   0,   -1,   -6,   1,   4,   3,   -9,   -2,   1,   0,   -5,   2,   5,   -3,   -8],
// CHECK-NEXT:  [0,   -7,   2,   7,   4,   -10,   -1,   4,   1,   -6,   3,   8,   -2,   -9,   0,   5],
// CHECK-NEXT:  [3,   6,   5,   -7,   0,   3,   2,   -3,   4,   7,   -1,   -6,   1,   4,   3,   -2],
// CHECK-NEXT:  [-4,   -3,   1,   1,   -7,   1,   5,   5,   -10,   -2,   2,   2,   -6,   2,   6,   -1],
// CHECK-NEXT:  [2,   0,   -6,   4,   6,   4,   -9,   1,   3,   1,   -5,   5,   7,   -2,   -8,   2],
// CHECK-NEXT:  [0,   3,   2,   -3,   -3,   0,   -1,   -6,   1,   4,   3,   -9,   -2,   1,   0,   -5],
// CHECK-NEXT:  [3,   -4,   -2,   3,   0,   -7,   2,   7,   4,   -10,   -1,   4,   1,   -6,   3,   8],
// CHECK-NEXT:  [-1,   2,   1,   -4,   3,   6,   5,   -7,   0,   3,   2,   -3,   4,   7,   -1,   -6],
// CHECK-NEXT:  [-7,   0,   3,   2,   -7,   0,   3,   2,   -7,   0,   3,   2,   -7,   0,   3,   2],
// CHECK-NEXT:  [4,   1,   -6,   3,   4,   1,   -6,   3,   4,   1,   -6,   3,   4,   1,   -6,   3],
// CHECK-NEXT:  [0,   2,   0,   -6,   0,   2,   0,   -6,   0,   2,   0,   -6,   0,   2,   0,   -6],
// CHECK-NEXT:  [1,   -7,   1,   5,   1,   -7,   1,   5,   1,   -7,   1,   5,   1,   -7,   1,   5],
// CHECK-NEXT:  [2,   4,   2,   -4,   2,   4,   2,   -4,   2,   4,   2,   -4,   2,   4,   2,   -4],
// CHECK-NEXT:  [-7,   0,   3,   2,   -7,   0,   3,   2,   -7,   0,   3,   2,   -7,   0,   3,   2],
// CHECK-NEXT:  [4,   1,   -6,   3,   4,   1,   -6,   3,   4,   1,   -6,   3,   4,   1,   -6,   3],
// CHECK-NEXT:  [0,   2,   0,   -6,   0,   2,   0,   -6,   0,   2,   0,   -6,   0,   2,   0,   -6],
// CHECK-NEXT:  [-4,   3,   -2,   1,   0,   0,   -5,   -2,   -3,   4,   -1,   2,   -6,   1,   -4,   -1],
// CHECK-NEXT:  [6,   -2,   -2,   -1,   3,   -5,   -5,   3,   7,   -1,   -8,   0,   4,   -4,   -4,   4],
// CHECK-NEXT:  [6,   -4,   1,   -6,   3,   0,   5,   -2,   0,   -3,   2,   -5,   4,   1,   6,   -8],
// CHECK-NEXT:  [-6,   -4,   6,   4,   -2,   0,   3,   1,   -5,   -3,   7,   5,   -1,   -6,   4,   2],
// CHECK-NEXT:  [-1,   6,   1,   4,   -4,   3,   -2,   1,   0,   7,   2,   -2,   -3,   4,   -1,   2],
// CHECK-NEXT:  [-1,   6,   -6,   -3,   -4,   3,   -2,   1,   0,   0,   -5,   -2,   -3,   4,   -1,   2],
// CHECK-NEXT:  [2,   -6,   -6,   2,   6,   -2,   -2,   -1,   3,   -5,   -5,   3,   7,   -1,   -8,   0],
// CHECK-NEXT:  [2,   -1,   4,   -3,   6,   -4,   1,   -6,   3,   0,   5,   -2,   0,   -3,   2,   -5],
// CHECK-NEXT:  [-6,   1,   -4,   -1,   -2,   5,   0,   -4,   -5,   2,   -3,   0,   -1,   6,   -6,   -3],
// CHECK-NEXT:  [4,   -4,   -4,   4,   8,   -7,   -7,   1,   5,   -3,   -3,   5,   2,   -6,   -6,   2],
// CHECK-NEXT:  [4,   1,   6,   -8,   1,   -2,   3,   -4,   5,   2,   0,   -7,   2,   -1,   4,   -3],
// CHECK-NEXT:  [-1,   -6,   4,   2,   -4,   -2,   8,   6,   -7,   -5,   5,   3,   -3,   -1,   9,   0],
// CHECK-NEXT:  [-3,   4,   -1,   2,   1,   8,   -4,   -1,   -2,   5,   0,   3,   2,   2,   -3,   0],
// CHECK-NEXT:  [-3,   4,   -1,   2,   -6,   1,   -4,   -1,   -2,   5,   0,   -4,   -5,   2,   -3,   0],
// CHECK-NEXT:  [7,   -1,   -8,   0,   4,   -4,   -4,   4,   8,   -7,   -7,   1,   5,   -3,   -3,   5],
// CHECK-NEXT:  [0,   -3,   2,   -5,   4,   1,   6,   -8,   1,   -2,   3,   -4,   5,   2,   0,   -7],
// CHECK-NEXT:  [-3.25,   -0.25,   -1.25,   -1.25,   0.75,   3.75,   2.75,   -4.25,   -2.25,   0.75,   -0.25,   -0.25,   1.75,   4.75,   -3.25,   -3.25],
// CHECK-NEXT:  [-1.5,   -1,   0.5,   3,   2.5,   -4,   -2.5,   0,   -0.5,   0,   1.5,   4,   -3.5,   -3,   -1.5,   1],
// CHECK-NEXT:  [2.75,   2,   2.25,   -3.5,   -0.25,   -1,   -0.75,   0.5,   3.75,   3,   -3.75,   -2.5,   0.75,   0,   0.25,   1.5],
// CHECK-NEXT:  [2,   -3.25,   -0.5,   -1.75,   -1,   0.75,   3.5,   2.25,   -4,   -2.25,   0.5,   -0.75,   0,   1.75,   4.5,   -3.75],
// CHECK-NEXT:  [-2,   -1.5,   0,   2.5,   2,   2.5,   -3,   -0.5,   -1,   -0.5,   1,   3.5,   3,   -3.5,   -2,   0.5],
// CHECK-NEXT:  [-0.25,   2.75,   1.75,   1.75,   -3.25,   -0.25,   -1.25,   -1.25,   0.75,   3.75,   2.75,   -4.25,   -2.25,   0.75,   -0.25,   -0.25],
// CHECK-NEXT:  [1.5,   2,   -3.5,   -1,   -1.5,   -1,   0.5,   3,   2.5,   -4,   -2.5,   0,   -0.5,   0,   1.5,   4],
// CHECK-NEXT:  [-1.25,   -2,   -1.75,   -0.5,   2.75,   2,   2.25,   -3.5,   -0.25,   -1,   -0.75,   0.5,   3.75,   3,   -3.75,   -2.5],
// CHECK-NEXT:  [-2,   -0.25,   2.5,   1.25,   2,   -3.25,   -0.5,   -1.75,   -1,   0.75,   3.5,   2.25,   -4,   -2.25,   0.5,   -0.75],
// CHECK-NEXT:  [1,   1.5,   3,   -1.5,   -2,   -1.5,   0,   2.5,   2,   2.5,   -3,   -0.5,   -1,   -0.5,   1,   3.5],
// CHECK-NEXT:  [2.75,   -1.25,   -2.25,   -2.25,   -0.25,   2.75,   1.75,   1.75,   -3.25,   -0.25,   -1.25,   -1.25,   0.75,   3.75,   2.75,   -4.25],
// CHECK-NEXT:  [-2.5,   -2,   -0.5,   2,   1.5,   2,   -3.5,   -1,   -1.5,   -1,   0.5,   3,   2.5,   -4,   -2.5,   0],
// CHECK-NEXT:  [1.75,   1,   1.25,   2.5,   -1.25,   -2,   -1.75,   -0.5,   2.75,   2,   2.25,   -3.5,   -0.25,   -1,   -0.75,   0.5],
// CHECK-NEXT:  [1,   2.75,   -1.5,   -2.75,   -2,   -0.25,   2.5,   1.25,   2,   -3.25,   -0.5,   -1.75,   -1,   0.75,   3.5,   2.25],
// CHECK-NEXT:  [-3,   -2.5,   -1,   1.5,   1,   1.5,   3,   -1.5,   -2,   -1.5,   0,   2.5,   2,   2.5,   -3,   -0.5],
// CHECK-NEXT:  [-1.25,   1.75,   0.75,   0.75,   2.75,   -1.25,   -2.25,   -2.25,   -0.25,   2.75,   1.75,   1.75,   -3.25,   -0.25,   -1.25,   -1.25]]
