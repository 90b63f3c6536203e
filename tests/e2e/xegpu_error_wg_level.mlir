// A workgroup-level XeGPU kernel (tensor descriptors with #xegpu.layout<sg_layout, sg_data>): the whole 32x32
// workgroup tile is split over 2x2 subgroups.  Workgroup-level execution comes with a later issue; until then
// the launch fails with a located error at the first op that carries a workgroup layout.
// RUN: not xesim run %s | filecheck %s
// CHECK: xegpu_error_wg_level.mlir:11:7: error: 'xegpu.create_nd_tdesc' op workgroup-level XeGPU programs are not supported yet

#wg = #xegpu.layout<sg_layout = [2, 2], sg_data = [16, 16]>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @wg(%a: memref<32x32xf32>, %o: memref<32x32xf32>) kernel {
      %t = xegpu.create_nd_tdesc %a : memref<32x32xf32> -> !xegpu.tensor_desc<32x32xf32, #wg>
      %to = xegpu.create_nd_tdesc %o : memref<32x32xf32> -> !xegpu.tensor_desc<32x32xf32, #wg>
      %v = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<32x32xf32, #wg> -> vector<32x32xf32>
      xegpu.store_nd %v, %to[0, 0] : vector<32x32xf32>, !xegpu.tensor_desc<32x32xf32, #wg>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %a = gpu.alloc () : memref<32x32xf32>
    %o = gpu.alloc () : memref<32x32xf32>
    gpu.launch_func @kernels::@wg blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<32x32xf32>, %o : memref<32x32xf32>)
    return
  }
}
