// Workgroup-level 3-D layout: a 256x64 f32 tile is viewed as 8x32x64 (vector.shape_cast) with
// sg_layout [2, 2, 4] (sg_data [4, 16, 16]); y = x * cos(pi * ((i + k) mod 2)) (math.cos of 0 and of f32(pi):
// exactly +1 and -1 after rounding to f32) on the 3-D value, doubled on a 4-D view (8x2x16x64, a 4-D layout),
// reduced over dim 1 (multi_reduction <add>, result
// #xegpu.slice<#l3, dims = [1]>), moved to a 2-D layout with convert_layout and stored.
// X[r][c] = (r mod 13) - 6 with r = 32i + j the 2-D row of element (i, j, k): small integers, exact sums.
// Expected values by numpy: out[i][k] = 2 * sum_j X[32i + j][k] * (-1)^((i + k) mod 2).
// RUN: xesim run %s | filecheck %s

#l2 = #xegpu.layout<sg_layout = [4, 4], sg_data = [64, 16]>
#l3 = #xegpu.layout<sg_layout = [2, 2, 4], sg_data = [4, 16, 16]>
#l4 = #xegpu.layout<sg_layout = [2, 1, 2, 4], sg_data = [4, 2, 8, 16]>
#red = #xegpu.slice<#xegpu.layout<sg_layout = [2, 2, 4], sg_data = [4, 16, 16]>, dims = [1]>
#o = #xegpu.layout<sg_layout = [2, 4], sg_data = [4, 16]>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k3(%x: memref<256x64xf32>, %out: memref<8x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %xt = xegpu.create_nd_tdesc %x : memref<256x64xf32> -> !xegpu.tensor_desc<256x64xf32, #l2>
      %v = xegpu.load_nd %xt[%c0, %c0] : !xegpu.tensor_desc<256x64xf32, #l2> -> vector<256x64xf32>
      %v3 = vector.shape_cast %v {layout_result_0 = #l3} : vector<256x64xf32> to vector<8x32x64xf32>
      // parity p[i][j][k] = (i + k) mod 2 from two vector.step values broadcast to 3-D
      %si = vector.step : vector<8xindex>
      %sk = vector.step : vector<64xindex>
      %bi = vector.broadcast %si : vector<8xindex> to vector<64x32x8xindex>
      %bit = vector.transpose %bi, [2, 1, 0] {layout_result_0 = #l3} : vector<64x32x8xindex> to vector<8x32x64xindex>
      %bk = vector.broadcast %sk {layout_result_0 = #l3} : vector<64xindex> to vector<8x32x64xindex>
      %s = arith.addi %bit, %bk {layout_result_0 = #l3} : vector<8x32x64xindex>
      %two = arith.constant {layout_result_0 = #l3} dense<2> : vector<8x32x64xindex>
      %p = arith.remui %s, %two {layout_result_0 = #l3} : vector<8x32x64xindex>
      %pi32 = arith.index_cast %p {layout_result_0 = #l3} : vector<8x32x64xindex> to vector<8x32x64xi32>
      %pf = arith.sitofp %pi32 {layout_result_0 = #l3} : vector<8x32x64xi32> to vector<8x32x64xf32>
      %pi = arith.constant {layout_result_0 = #l3} dense<3.14159274> : vector<8x32x64xf32>
      %ang = arith.mulf %pf, %pi {layout_result_0 = #l3} : vector<8x32x64xf32>
      %sign = math.cos %ang {layout_result_0 = #l3} : vector<8x32x64xf32>
      %y = arith.mulf %v3, %sign {layout_result_0 = #l3} : vector<8x32x64xf32>
      // a 4-D view: y + y on vector<8x2x16x64xf32> with a 4-D layout, then back to 3-D
      %y4 = vector.shape_cast %y {layout_result_0 = #l4} : vector<8x32x64xf32> to vector<8x2x16x64xf32>
      %y4d = arith.addf %y4, %y4 {layout_result_0 = #l4} : vector<8x2x16x64xf32>
      %y3 = vector.shape_cast %y4d {layout_result_0 = #l3} : vector<8x2x16x64xf32> to vector<8x32x64xf32>
      %zero = arith.constant {layout_result_0 = #red} dense<0.0> : vector<8x64xf32>
      %r = vector.multi_reduction <add>, %y3, %zero {layout_result_0 = #red} [1] : vector<8x32x64xf32> to vector<8x64xf32>
      %r2 = xegpu.convert_layout %r <{input_layout = #red, target_layout = #o}> : vector<8x64xf32>
      %ot = xegpu.create_nd_tdesc %out : memref<8x64xf32> -> !xegpu.tensor_desc<8x64xf32, #o>
      xegpu.store_nd %r2, %ot[%c0, %c0] : vector<8x64xf32>, !xegpu.tensor_desc<8x64xf32, #o>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c13 = arith.constant 13 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %X = memref.alloc() : memref<256x64xf32>
    scf.for %r = %c0 to %c256 step %c1 {
      scf.for %c = %c0 to %c64 step %c1 {
        %m = arith.remui %r, %c13 : index
        %m32 = arith.index_cast %m : index to i32
        %f = arith.sitofp %m32 : i32 to f32
        %six = arith.constant 6.0 : f32
        %v = arith.subf %f, %six : f32
        memref.store %v, %X[%r, %c] : memref<256x64xf32>
      }
    }
    %dX = gpu.alloc () : memref<256x64xf32>
    %dO = gpu.alloc () : memref<8x64xf32>
    gpu.memcpy %dX, %X : memref<256x64xf32>, memref<256x64xf32>
    gpu.launch_func @kernels::@k3 blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%dX : memref<256x64xf32>, %dO : memref<8x64xf32>)
    %O = memref.alloc() : memref<8x64xf32>
    gpu.memcpy %O, %dO : memref<8x64xf32>, memref<8x64xf32>
    %s = memref.subview %O[0, 0] [8, 4] [1, 1] : memref<8x64xf32> to memref<8x4xf32, strided<[64, 1]>>
    %u = memref.cast %s : memref<8x4xf32, strided<[64, 1]>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 4] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}-42,   42,   -42,   42],
// CHECK-NEXT:  [-30,   30,   -30,   30],
// CHECK-NEXT:  [-28,   28,   -28,   28],
// CHECK-NEXT:  [-18,   18,   -18,   18],
// CHECK-NEXT:  [-14,   14,   -14,   14],
// CHECK-NEXT:  [-6,   6,   -6,   6],
// CHECK-NEXT:  [0,   0,   0,   0],
// CHECK-NEXT:  [6,   -6,   6,   -6]]
