// Workgroup-level reductions across subgroups: a 32x64 f32 tile over sg_layout [4, 4] (sg_data [8, 16]); row sums
// (multi_reduction over dim 1, result laid out by #xegpu.slice<#l, dims = [1]>: the 4 subgroups of a layout row
// share a row's sum), column maxima (dim 0, #xegpu.slice<#l, dims = [0]>), and the total (both dims, a scalar
// stored with memref.store by "every thread").  convert_layout moves the sliced results to 1-D layouts for the
// 1-D block stores (spec/programs-and-runner.md §3.2 WG, §3.4 slices).
// X[i][j] = ((5i + 3j) mod 37) - 18 (exact small integers); expected values by hand/numpy:
//   rowsum[i] = 0.5 + sum_j X[i][j], colmax[j] = max_i X[i][j] (accumulator -100), total = sum X.
// RUN: xesim run %s | filecheck %s

#l = #xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>
#rows = #xegpu.slice<#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>, dims = [1]>
#cols = #xegpu.slice<#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>, dims = [0]>
#r1 = #xegpu.layout<sg_layout = [4], sg_data = [8]>
#c1 = #xegpu.layout<sg_layout = [4], sg_data = [16]>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%x: memref<32x64xf32>, %rs: memref<32xf32>, %cm: memref<64xf32>, %tot: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = xegpu.create_nd_tdesc %x : memref<32x64xf32> -> !xegpu.tensor_desc<32x64xf32, #l>
      %v = xegpu.load_nd %t[%c0, %c0] : !xegpu.tensor_desc<32x64xf32, #l> -> vector<32x64xf32>
      %half = arith.constant {layout_result_0 = #rows} dense<0.5> : vector<32xf32>
      %sum = vector.multi_reduction <add>, %v, %half {layout_result_0 = #rows} [1] : vector<32x64xf32> to vector<32xf32>
      %low = arith.constant {layout_result_0 = #cols} dense<-100.0> : vector<64xf32>
      %max = vector.multi_reduction <maximumf>, %v, %low {layout_result_0 = #cols} [0] : vector<32x64xf32> to vector<64xf32>
      %zero = arith.constant 0.0 : f32
      %all = vector.multi_reduction <add>, %v, %zero [0, 1] : vector<32x64xf32> to f32
      %sum1 = xegpu.convert_layout %sum <{input_layout = #rows, target_layout = #r1}> : vector<32xf32>
      %max1 = xegpu.convert_layout %max <{input_layout = #cols, target_layout = #c1}> : vector<64xf32>
      %rt = xegpu.create_nd_tdesc %rs : memref<32xf32> -> !xegpu.tensor_desc<32xf32, #r1>
      xegpu.store_nd %sum1, %rt[%c0] : vector<32xf32>, !xegpu.tensor_desc<32xf32, #r1>
      %ct = xegpu.create_nd_tdesc %cm : memref<64xf32> -> !xegpu.tensor_desc<64xf32, #c1>
      xegpu.store_nd %max1, %ct[%c0] : vector<64xf32>, !xegpu.tensor_desc<64xf32, #c1>
      memref.store %all, %tot[%c0] : memref<1xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c37 = arith.constant 37 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %X = memref.alloc() : memref<32x64xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %i5 = arith.muli %i, %c5 : index
        %j3 = arith.muli %j, %c3 : index
        %s = arith.addi %i5, %j3 : index
        %r = arith.remui %s, %c37 : index
        %r32 = arith.index_cast %r : index to i32
        %v = arith.sitofp %r32 : i32 to f32
        %five = arith.constant 18.0 : f32
        %w = arith.subf %v, %five : f32
        memref.store %w, %X[%i, %j] : memref<32x64xf32>
      }
    }
    %dX = gpu.alloc () : memref<32x64xf32>
    %dR = gpu.alloc () : memref<32xf32>
    %dC = gpu.alloc () : memref<64xf32>
    %dT = gpu.alloc () : memref<1xf32>
    gpu.memcpy %dX, %X : memref<32x64xf32>, memref<32x64xf32>
    gpu.launch_func @kernels::@reduce blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%dX : memref<32x64xf32>, %dR : memref<32xf32>, %dC : memref<64xf32>, %dT : memref<1xf32>)
    %R = memref.alloc() : memref<32xf32>
    %C = memref.alloc() : memref<64xf32>
    %T = memref.alloc() : memref<1xf32>
    gpu.memcpy %R, %dR : memref<32xf32>, memref<32xf32>
    gpu.memcpy %C, %dC : memref<64xf32>, memref<64xf32>
    gpu.memcpy %T, %dT : memref<1xf32>, memref<1xf32>
    %uR = memref.cast %R : memref<32xf32> to memref<*xf32>
    %uC = memref.cast %C : memref<64xf32> to memref<*xf32>
    %uT = memref.cast %T : memref<1xf32> to memref<*xf32>
    call @printMemrefF32(%uR) : (memref<*xf32>) -> ()
    call @printMemrefF32(%uC) : (memref<*xf32>) -> ()
    call @printMemrefF32(%uT) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [-24.5,  -37.5,  -13.5,  10.5,  -2.5,  21.5,  45.5,  -4.5,  -17.5,  -30.5,  -6.5,  17.5,  4.5,  28.5,  15.5,  -34.5,  -10.5,  -23.5,  0.5,  24.5,  11.5,  35.5,  -14.5,  -27.5,  -3.5,  -16.5,  7.5,  31.5,  18.5,  5.5,  -44.5,  -20.5]
// CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [64] strides = [1] data =
// CHECK-NEXT: [18,  18,  18,  17,  18,  18,  18,  18,  17,  18,  18,  18,  18,  18,  18,  18,  18,  17,  18,  18,  18,  18,  18,  18,  18,  18,  17,  18,  18,  18,  18,  17,  18,  18,  18,  18,  18,  18,  18,  18,  17,  18,  18,  18,  18,  17,  18,  18,  18,  18,  18,  18,  18,  18,  17,  18,  18,  18,  18,  18,  18,  18,  18,  17]
// CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [1] strides = [1] data =
// CHECK-NEXT: [-70]
