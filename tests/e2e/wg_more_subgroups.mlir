// A workgroup-level reduction launched with more subgroups than its layout has (spec/programs-and-runner.md §3.2
// WG: "1024 threads for sg_layout = [1, 4, 4]" — the extra subgroups take their ids modulo the layout and
// duplicate work).  A 128x64 f32 tile is viewed as 4x32x64 with sg_layout [1, 4, 4] and summed over dim 0; the
// same kernel is launched with 16 subgroups (256 work-items, the layout's size) and with 64 subgroups (1024
// work-items): both results must be the same.  The gpu.block_dim / gpu.grid_dim reads are workgroup-uniform;
// the kernel stores block_dim x * grid_dim x into info[0] (256 and 1024 for the two launches).
// X[r][c] = ((r + 2c) mod 9) - 4; out[j][c] = sum_i X[32i + j][c] (numpy).
// RUN: xesim run %s | filecheck %s

#l2 = #xegpu.layout<sg_layout = [4, 4], sg_data = [32, 16]>
#l3 = #xegpu.layout<sg_layout = [1, 4, 4], sg_data = [4, 8, 16]>
#red = #xegpu.slice<#xegpu.layout<sg_layout = [1, 4, 4], sg_data = [4, 8, 16]>, dims = [0]>
#o = #xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16]>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce3(%x: memref<128x64xf32>, %out: memref<32x64xf32>, %info: memref<1xindex>) kernel {
      %c0 = arith.constant 0 : index
      %xt = xegpu.create_nd_tdesc %x : memref<128x64xf32> -> !xegpu.tensor_desc<128x64xf32, #l2>
      %v = xegpu.load_nd %xt[%c0, %c0] : !xegpu.tensor_desc<128x64xf32, #l2> -> vector<128x64xf32>
      %v3 = vector.shape_cast %v {layout_result_0 = #l3} : vector<128x64xf32> to vector<4x32x64xf32>
      %zero = arith.constant {layout_result_0 = #red} dense<0.0> : vector<32x64xf32>
      %r = vector.multi_reduction <add>, %v3, %zero {layout_result_0 = #red} [0] : vector<4x32x64xf32> to vector<32x64xf32>
      %r2 = xegpu.convert_layout %r <{input_layout = #red, target_layout = #o}> : vector<32x64xf32>
      %ot = xegpu.create_nd_tdesc %out : memref<32x64xf32> -> !xegpu.tensor_desc<32x64xf32, #o>
      xegpu.store_nd %r2, %ot[%c0, %c0] : vector<32x64xf32>, !xegpu.tensor_desc<32x64xf32, #o>
      %bd = gpu.block_dim x
      %gd = gpu.grid_dim x
      %n = arith.muli %bd, %gd : index
      memref.store %n, %info[%c0] : memref<1xindex>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c9 = arith.constant 9 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %X = memref.alloc() : memref<128x64xf32>
    scf.for %r = %c0 to %c128 step %c1 {
      scf.for %c = %c0 to %c64 step %c1 {
        %c2c = arith.muli %c, %c2 : index
        %s = arith.addi %r, %c2c : index
        %m = arith.remui %s, %c9 : index
        %m32 = arith.index_cast %m : index to i32
        %f = arith.sitofp %m32 : i32 to f32
        %four = arith.constant 4.0 : f32
        %v = arith.subf %f, %four : f32
        memref.store %v, %X[%r, %c] : memref<128x64xf32>
      }
    }
    %dX = gpu.alloc () : memref<128x64xf32>
    %dA = gpu.alloc () : memref<32x64xf32>
    %dB = gpu.alloc () : memref<32x64xf32>
    %iA = gpu.alloc () : memref<1xindex>
    %iB = gpu.alloc () : memref<1xindex>
    gpu.memcpy %dX, %X : memref<128x64xf32>, memref<128x64xf32>
    gpu.launch_func @kernels::@reduce3 blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%dX : memref<128x64xf32>, %dA : memref<32x64xf32>, %iA : memref<1xindex>)
    gpu.launch_func @kernels::@reduce3 blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1)
        args(%dX : memref<128x64xf32>, %dB : memref<32x64xf32>, %iB : memref<1xindex>)
    %A = memref.alloc() : memref<32x64xf32>
    %B = memref.alloc() : memref<32x64xf32>
    gpu.memcpy %A, %dA : memref<32x64xf32>, memref<32x64xf32>
    gpu.memcpy %B, %dB : memref<32x64xf32>, memref<32x64xf32>
    %uA = memref.cast %A : memref<32x64xf32> to memref<*xf32>
    %uB = memref.cast %B : memref<32x64xf32> to memref<*xf32>
    call @printMaxErrorF32(%uA, %uB) : (memref<*xf32>, memref<*xf32>) -> ()
    %s = memref.subview %B[0, 0] [3, 6] [1, 1] : memref<32x64xf32> to memref<3x6xf32, strided<[64, 1]>>
    %u = memref.cast %s : memref<3x6xf32, strided<[64, 1]>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %IA = memref.alloc() : memref<1xindex>
    %IB = memref.alloc() : memref<1xindex>
    gpu.memcpy %IA, %iA : memref<1xindex>, memref<1xindex>
    gpu.memcpy %IB, %iB : memref<1xindex>, memref<1xindex>
    %na = memref.load %IA[%c0] : memref<1xindex>
    %nb = memref.load %IB[%c0] : memref<1xindex>
    vector.print %na : index
    vector.print %nb : index
    return
  }
  func.func private @printMaxErrorF32(memref<*xf32>, memref<*xf32>)
  func.func private @printMemrefF32(memref<*xf32>)
}
// CHECK: Max absolute error 0 at idx=0
// CHECK-NEXT: Max relative error 0 at idx=0
// CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [3, 6] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}-4,   4,   -6,   2,   1,   0],
// CHECK-NEXT:  [0,   -1,   -2,   6,   -4,   4],
// CHECK-NEXT:  [4,   -6,   2,   1,   0,   -1]]
// CHECK-NEXT: 256
// CHECK-NEXT: 1024
