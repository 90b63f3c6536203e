// Workgroup-level GEMM with a transposed B: C[128x128] = A[128x64] * Bt^T, where Bt[128x64] holds B transposed
// (Bt[n][k] = B[k][n]).  The kernel receives raw i64 device addresses (create_nd_tdesc on an integer source with
// shape/strides), loads Bt tiles with the layout #bt and transposes them with vector.transpose to the dpas B
// layout; boundary_check = false (every block is inside its surface).  Launched as a 2-D block of 16 x 8
// work-items = 8 subgroups for sg_layout [2, 4] (spec/programs-and-runner.md §3.2 WG).
// A[i][k] = ((3i + k) mod 7) - 3, Bt[n][k] = ((n + 2k) mod 4) - 1: small integers, every sum exact in f32.
// Expected elements computed with numpy (A @ Bt.T in int64); the whole matrix is compared with gemmF16F16F32 on
// the host-transposed B.
// RUN: xesim run %s | filecheck %s

#a = #xegpu.layout<sg_layout = [2, 4], sg_data = [64, 32], inst_data = [8, 16]>
#b = #xegpu.layout<sg_layout = [2, 4], sg_data = [32, 32], inst_data = [16, 16]>
#bt = #xegpu.layout<sg_layout = [4, 2], sg_data = [32, 32], inst_data = [16, 16], order = [0, 1]>
#c = #xegpu.layout<sg_layout = [2, 4], sg_data = [64, 32], inst_data = [8, 16]>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm_bt(%pa: i64, %pbt: i64, %pc: i64) kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %a_td = xegpu.create_nd_tdesc %pa, shape : [128, 64], strides : [64, 1] : i64
          -> !xegpu.tensor_desc<128x32xf16, #xegpu.block_tdesc_attr<boundary_check = false>, #a>
      %bt_td = xegpu.create_nd_tdesc %pbt, shape : [128, 64], strides : [64, 1] : i64
          -> !xegpu.tensor_desc<128x32xf16, #xegpu.block_tdesc_attr<boundary_check = false>, #bt>
      %c_td = xegpu.create_nd_tdesc %pc, shape : [128, 128], strides : [128, 1] : i64
          -> !xegpu.tensor_desc<128x128xf32, #xegpu.block_tdesc_attr<boundary_check = false>, #c>
      %zero = arith.constant {layout_result_0 = #c} dense<0.0> : vector<128x128xf32>
      %r = scf.for %k = %c0 to %c64 step %c32 iter_args(%acc = %zero) -> (vector<128x128xf32>) {
        %av = xegpu.load_nd %a_td[%c0, %k] : !xegpu.tensor_desc<128x32xf16, #xegpu.block_tdesc_attr<boundary_check = false>, #a> -> vector<128x32xf16>
        %btv = xegpu.load_nd %bt_td[%c0, %k] : !xegpu.tensor_desc<128x32xf16, #xegpu.block_tdesc_attr<boundary_check = false>, #bt> -> vector<128x32xf16>
        %bv = vector.transpose %btv, [1, 0] {layout_result_0 = #b} : vector<128x32xf16> to vector<32x128xf16>
        %d = xegpu.dpas %av, %bv, %acc {layout_a = #a, layout_b = #b, layout_cd = #c}
            : vector<128x32xf16>, vector<32x128xf16>, vector<128x128xf32> -> vector<128x128xf32>
        scf.yield %d : vector<128x128xf32>
      }
      xegpu.store_nd %r, %c_td[%c0, %c0] : vector<128x128xf32>, !xegpu.tensor_desc<128x128xf32, #xegpu.block_tdesc_attr<boundary_check = false>, #c>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %A = memref.alloc() : memref<128x64xf16>
    %Bt = memref.alloc() : memref<128x64xf16>
    %B = memref.alloc() : memref<64x128xf16>
    %C = memref.alloc() : memref<128x128xf32>
    %R = memref.alloc() : memref<128x128xf32>
    %z = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %k = %c0 to %c64 step %c1 {
        %i3 = arith.muli %i, %c3 : index
        %s = arith.addi %i3, %k : index
        %r = arith.remui %s, %c7 : index
        %r32 = arith.index_cast %r : index to i32
        %v = arith.sitofp %r32 : i32 to f16
        %three = arith.constant 3.0 : f16
        %w = arith.subf %v, %three : f16
        memref.store %w, %A[%i, %k] : memref<128x64xf16>
        %k2 = arith.muli %k, %c2 : index
        %t = arith.addi %i, %k2 : index
        %q = arith.remui %t, %c4 : index
        %q32 = arith.index_cast %q : index to i32
        %u = arith.sitofp %q32 : i32 to f16
        %one = arith.constant 1.0 : f16
        %x = arith.subf %u, %one : f16
        memref.store %x, %Bt[%i, %k] : memref<128x64xf16>
        memref.store %x, %B[%k, %i] : memref<64x128xf16>
      }
    }
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %j = %c0 to %c128 step %c1 {
        memref.store %z, %R[%i, %j] : memref<128x128xf32>
      }
    }
    %dA = gpu.alloc () : memref<128x64xf16>
    %dBt = gpu.alloc () : memref<128x64xf16>
    %dC = gpu.alloc () : memref<128x128xf32>
    gpu.memcpy %dA, %A : memref<128x64xf16>, memref<128x64xf16>
    gpu.memcpy %dBt, %Bt : memref<128x64xf16>, memref<128x64xf16>
    %ia = memref.extract_aligned_pointer_as_index %dA : memref<128x64xf16> -> index
    %ib = memref.extract_aligned_pointer_as_index %dBt : memref<128x64xf16> -> index
    %ic = memref.extract_aligned_pointer_as_index %dC : memref<128x128xf32> -> index
    %pa = arith.index_cast %ia : index to i64
    %pb = arith.index_cast %ib : index to i64
    %pc = arith.index_cast %ic : index to i64
    gpu.launch_func @kernels::@gemm_bt blocks in (%c1, %c1, %c1) threads in (%c16, %c8, %c1)
        args(%pa : i64, %pb : i64, %pc : i64)
    gpu.memcpy %C, %dC : memref<128x128xf32>, memref<128x128xf32>
    %cA = memref.cast %A : memref<128x64xf16> to memref<?x?xf16>
    %cB = memref.cast %B : memref<64x128xf16> to memref<?x?xf16>
    %cR = memref.cast %R : memref<128x128xf32> to memref<?x?xf32>
    call @gemmF16F16F32(%cA, %cB, %cR) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()
    %uC = memref.cast %C : memref<128x128xf32> to memref<*xf32>
    %uR = memref.cast %R : memref<128x128xf32> to memref<*xf32>
    call @printMaxErrorF32(%uC, %uR) : (memref<*xf32>, memref<*xf32>) -> ()
    %s = memref.subview %C[61, 62] [3, 4] [1, 1] : memref<128x128xf32> to memref<3x4xf32, strided<[128, 1], offset: 7870>>
    %us = memref.cast %s : memref<3x4xf32, strided<[128, 1], offset: 7870>> to memref<*xf32>
    call @printMemrefF32(%us) : (memref<*xf32>) -> ()
    return
  }
  func.func private @gemmF16F16F32(memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>)
  func.func private @printMaxErrorF32(memref<*xf32>, memref<*xf32>)
  func.func private @printMemrefF32(memref<*xf32>)
}

// CHECK: Max absolute error 0 at idx=0
// CHECK-NEXT: Max relative error 0 at idx=0
// CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 7870 sizes = [3, 4] strides = [128, 1] data =
// CHECK-NEXT: {{\[\[}}-4,   -6,   4,   2],
// CHECK-NEXT:  [3,   4,   -3,   -2],
// CHECK-NEXT:  [3,   0,   -3,   -6]]
