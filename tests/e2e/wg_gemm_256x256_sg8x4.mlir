// Workgroup-level GEMM: C[256x512] = A[256x256] * B[256x512] (f16 inputs, f32 accumulation), two workgroups of
// 32 subgroups (sg_layout [8, 4]) each computing one 256x256 tile of C; inst_data gives the per-instruction tiles
// (xegpu-blocking).  The A tile (256x32) is smaller than sg_layout * sg_data along dim 1 (4 * 32 = 128 > 32), so
// the four subgroups of a row share it (spec/programs-and-runner.md §3.4 wrap-around); the B tile (32x256) is
// shared by the eight subgroups of a column.
// A[i][k] = ((i + 2k) mod 5) - 2 and B[k][j] = ((k + 3j) mod 3) - 1 are small integers, so every product and sum
// is exact in f32: the result does not depend on the DPAS accumulation model.  The expected elements below were
// computed with numpy (A.astype(int64) @ B.astype(int64)); the whole matrix is compared with the CPU reference
// gemmF16F16F32.
// RUN: xesim run %s | filecheck %s

#a = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], inst_data = [8, 16]>
#b = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [16, 16]>
#c = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data = [8, 16]>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%a: memref<256x256xf16>, %b: memref<256x512xf16>, %c: memref<256x512xf32>) kernel
        attributes {intel_reqd_sub_group_size = 16 : i32} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %m = arith.muli %by, %c256 : index
      %n = arith.muli %bx, %c256 : index
      %c_td = xegpu.create_nd_tdesc %c : memref<256x512xf32> -> !xegpu.tensor_desc<256x256xf32, #c>
      %c_init = xegpu.load_nd %c_td[%m, %n] : !xegpu.tensor_desc<256x256xf32, #c> -> vector<256x256xf32>
      %a_td = xegpu.create_nd_tdesc %a : memref<256x256xf16> -> !xegpu.tensor_desc<256x32xf16, #a>
      %b_td = xegpu.create_nd_tdesc %b : memref<256x512xf16> -> !xegpu.tensor_desc<32x256xf16, #b>
      xegpu.prefetch_nd %a_td[%m, %c0] : !xegpu.tensor_desc<256x32xf16, #a>
      xegpu.prefetch_nd %b_td[%c0, %n] : !xegpu.tensor_desc<32x256xf16, #b>
      %r = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %c_init) -> (vector<256x256xf32>) {
        %av = xegpu.load_nd %a_td[%m, %k] : !xegpu.tensor_desc<256x32xf16, #a> -> vector<256x32xf16>
        %bv = xegpu.load_nd %b_td[%k, %n] : !xegpu.tensor_desc<32x256xf16, #b> -> vector<32x256xf16>
        %d = xegpu.dpas %av, %bv, %acc {layout_a = #a, layout_b = #b, layout_cd = #c}
            : vector<256x32xf16>, vector<32x256xf16>, vector<256x256xf32> -> vector<256x256xf32>
        scf.yield %d : vector<256x256xf32>
      }
      xegpu.store_nd %r, %c_td[%m, %n] : vector<256x256xf32>, !xegpu.tensor_desc<256x256xf32, #c>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %A = memref.alloc() : memref<256x256xf16>
    %B = memref.alloc() : memref<256x512xf16>
    %C = memref.alloc() : memref<256x512xf32>
    %R = memref.alloc() : memref<256x512xf32>
    %z = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c256 step %c1 {
      scf.for %k = %c0 to %c256 step %c1 {
        %k2 = arith.muli %k, %c2 : index
        %s = arith.addi %i, %k2 : index
        %r = arith.remui %s, %c5 : index
        %r32 = arith.index_cast %r : index to i32
        %v = arith.sitofp %r32 : i32 to f16
        %two = arith.constant 2.0 : f16
        %w = arith.subf %v, %two : f16
        memref.store %w, %A[%i, %k] : memref<256x256xf16>
      }
    }
    scf.for %k = %c0 to %c256 step %c1 {
      scf.for %j = %c0 to %c512 step %c1 {
        %j3 = arith.muli %j, %c3 : index
        %s = arith.addi %k, %j3 : index
        %r = arith.remui %s, %c3 : index
        %r32 = arith.index_cast %r : index to i32
        %v = arith.sitofp %r32 : i32 to f16
        %one = arith.constant 1.0 : f16
        %w = arith.subf %v, %one : f16
        memref.store %w, %B[%k, %j] : memref<256x512xf16>
      }
    }
    scf.for %i = %c0 to %c256 step %c1 {
      scf.for %j = %c0 to %c512 step %c1 {
        memref.store %z, %R[%i, %j] : memref<256x512xf32>
      }
    }
    %dA = gpu.alloc () : memref<256x256xf16>
    %dB = gpu.alloc () : memref<256x512xf16>
    %dC = gpu.alloc () : memref<256x512xf32>
    gpu.memcpy %dA, %A : memref<256x256xf16>, memref<256x256xf16>
    gpu.memcpy %dB, %B : memref<256x512xf16>, memref<256x512xf16>
    %c512t = arith.constant 512 : index
    gpu.launch_func @kernels::@gemm blocks in (%c2, %c1, %c1) threads in (%c512t, %c1, %c1)
        args(%dA : memref<256x256xf16>, %dB : memref<256x512xf16>, %dC : memref<256x512xf32>)
    gpu.memcpy %C, %dC : memref<256x512xf32>, memref<256x512xf32>
    %cA = memref.cast %A : memref<256x256xf16> to memref<?x?xf16>
    %cB = memref.cast %B : memref<256x512xf16> to memref<?x?xf16>
    %cR = memref.cast %R : memref<256x512xf32> to memref<?x?xf32>
    call @gemmF16F16F32(%cA, %cB, %cR) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()
    %uC = memref.cast %C : memref<256x512xf32> to memref<*xf32>
    %uR = memref.cast %R : memref<256x512xf32> to memref<*xf32>
    call @printMaxErrorF32(%uC, %uR) : (memref<*xf32>, memref<*xf32>) -> ()
    // a few elements: C[0][0], C[1][2], C[37][300], C[255][511], C[128][256]
    %e0 = memref.load %C[%c0, %c0] : memref<256x512xf32>
    %i1 = arith.constant 1 : index
    %e1 = memref.load %C[%i1, %c2] : memref<256x512xf32>
    %i37 = arith.constant 37 : index
    %j300 = arith.constant 300 : index
    %e2 = memref.load %C[%i37, %j300] : memref<256x512xf32>
    %i255 = arith.constant 255 : index
    %j511 = arith.constant 511 : index
    %e3 = memref.load %C[%i255, %j511] : memref<256x512xf32>
    %i128 = arith.constant 128 : index
    %e4 = memref.load %C[%i128, %c256] : memref<256x512xf32>
    %vec = vector.from_elements %e0, %e1, %e2, %e3, %e4 : vector<5xf32>
    vector.print %vec : vector<5xf32>
    gpu.dealloc %dA : memref<256x256xf16>
    gpu.dealloc %dB : memref<256x512xf16>
    gpu.dealloc %dC : memref<256x512xf32>
    return
  }
  func.func private @gemmF16F16F32(memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>)
  func.func private @printMaxErrorF32(memref<*xf32>, memref<*xf32>)
}

// CHECK: Max absolute error 0 at idx=0
// CHECK-NEXT: Max relative error 0 at idx=0
// CHECK-NEXT: ( 2, 1, 0, 2, -1 )
