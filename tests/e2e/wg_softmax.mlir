// Workgroup-level softmax-like chain on a 32x64 f32 tile over sg_layout [4, 4] (sg_data [8, 16]): row max
// (multi_reduction <maximumf> across the 4 subgroups of a layout row), broadcast back through
// #xegpu.slice<#l, dims = [1]>, subtract, exponentiate, row sum, divide.  Two variants: exp2 (X holds integers,
// so x - max is an integer <= 0 and exp2 of it is an exact power of two; sums exact; one correctly rounded
// division) and math.exp (printed to 6 significant digits).
// X[i][j] = -((i + j) mod 9); row i holds 2^-((i+j) mod 9) / S_i.  Expected values computed with numpy
// (float64, rounded to f32, printed with %g).
// RUN: xesim run %s | filecheck %s

#l = #xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16], inst_data = [8, 16]>
#r = #xegpu.slice<#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16], inst_data = [8, 16]>, dims = [1]>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @softmax(%x: memref<32x64xf32>, %y2: memref<32x64xf32>, %ye: memref<32x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %xt = xegpu.create_nd_tdesc %x : memref<32x64xf32> -> !xegpu.tensor_desc<32x64xf32, #l>
      %v = xegpu.load_nd %xt[%c0, %c0] : !xegpu.tensor_desc<32x64xf32, #l> -> vector<32x64xf32>
      %ninf = arith.constant {layout_result_0 = #r} dense<0xFF800000> : vector<32xf32>
      %m = vector.multi_reduction <maximumf>, %v, %ninf {layout_result_0 = #r} [1] : vector<32x64xf32> to vector<32xf32>
      %mb = vector.broadcast %m {layout_result_0 = #l} : vector<32xf32> to vector<64x32xf32>
      %mt = vector.transpose %mb, [1, 0] {layout_result_0 = #l} : vector<64x32xf32> to vector<32x64xf32>
      %d = arith.subf %v, %mt {layout_result_0 = #l} : vector<32x64xf32>
      %zero = arith.constant {layout_result_0 = #r} dense<0.0> : vector<32xf32>
      // exp2 variant
      %e2 = math.exp2 %d {layout_result_0 = #l} : vector<32x64xf32>
      %s2 = vector.multi_reduction <add>, %e2, %zero {layout_result_0 = #r} [1] : vector<32x64xf32> to vector<32xf32>
      %s2b = vector.broadcast %s2 {layout_result_0 = #l} : vector<32xf32> to vector<64x32xf32>
      %s2t = vector.transpose %s2b, [1, 0] {layout_result_0 = #l} : vector<64x32xf32> to vector<32x64xf32>
      %o2 = arith.divf %e2, %s2t {layout_result_0 = #l} : vector<32x64xf32>
      %t2 = xegpu.create_nd_tdesc %y2 : memref<32x64xf32> -> !xegpu.tensor_desc<32x64xf32, #l>
      xegpu.store_nd %o2, %t2[%c0, %c0] : vector<32x64xf32>, !xegpu.tensor_desc<32x64xf32, #l>
      // exp variant (fastmath flags as in real programs)
      %ee = math.exp %d fastmath<fast> {layout_result_0 = #l} : vector<32x64xf32>
      %se = vector.multi_reduction <add>, %ee, %zero {layout_result_0 = #r} [1] : vector<32x64xf32> to vector<32xf32>
      %seb = vector.broadcast %se {layout_result_0 = #l} : vector<32xf32> to vector<64x32xf32>
      %set = vector.transpose %seb, [1, 0] {layout_result_0 = #l} : vector<64x32xf32> to vector<32x64xf32>
      %oe = arith.divf %ee, %set {layout_result_0 = #l} : vector<32x64xf32>
      %te = xegpu.create_nd_tdesc %ye : memref<32x64xf32> -> !xegpu.tensor_desc<32x64xf32, #l>
      xegpu.store_nd %oe, %te[%c0, %c0] : vector<32x64xf32>, !xegpu.tensor_desc<32x64xf32, #l>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c9 = arith.constant 9 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %X = memref.alloc() : memref<32x64xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %s = arith.addi %i, %j : index
        %r = arith.remui %s, %c9 : index
        %r32 = arith.index_cast %r : index to i32
        %v = arith.sitofp %r32 : i32 to f32
        %n = arith.negf %v : f32
        memref.store %n, %X[%i, %j] : memref<32x64xf32>
      }
    }
    %dX = gpu.alloc () : memref<32x64xf32>
    %d2 = gpu.alloc () : memref<32x64xf32>
    %de = gpu.alloc () : memref<32x64xf32>
    gpu.memcpy %dX, %X : memref<32x64xf32>, memref<32x64xf32>
    gpu.launch_func @kernels::@softmax blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%dX : memref<32x64xf32>, %d2 : memref<32x64xf32>, %de : memref<32x64xf32>)
    %Y2 = memref.alloc() : memref<32x64xf32>
    %YE = memref.alloc() : memref<32x64xf32>
    gpu.memcpy %Y2, %d2 : memref<32x64xf32>, memref<32x64xf32>
    gpu.memcpy %YE, %de : memref<32x64xf32>, memref<32x64xf32>
    %s2 = memref.subview %Y2[5, 0] [2, 10] [1, 1] : memref<32x64xf32> to memref<2x10xf32, strided<[64, 1], offset: 320>>
    %u2 = memref.cast %s2 : memref<2x10xf32, strided<[64, 1], offset: 320>> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    %se = memref.subview %YE[31, 0] [1, 10] [1, 1] : memref<32x64xf32> to memref<1x10xf32, strided<[64, 1], offset: 1984>>
    %ue = memref.cast %se : memref<1x10xf32, strided<[64, 1], offset: 1984>> to memref<*xf32>
    call @printMemrefF32(%ue) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 320 sizes = [2, 10] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}0.00223152,   0.00111576,   0.00055788,   0.00027894,   0.0714086,   0.0357043,   0.0178522,   0.00892608,   0.00446304,   0.00223152],
// CHECK-NEXT:  [0.00111701,   0.000558503,   0.000279252,   0.0714884,   0.0357442,   0.0178721,   0.00893605,   0.00446803,   0.00223401,   0.00111701]]
// CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 1984 sizes = [1, 10] strides = [64, 1] data =
// CHECK-NEXT: {{\[\[}}0.00165143,   0.000607527,   0.000223497,   8.22198e-05,   3.0247e-05,   0.0901649,   0.0331698,   0.0122025,   0.00448905,   0.00165143]]
