// A workgroup-level kernel launched with fewer subgroups than its layout needs: sg_layout [2, 2] distributes the
// 32x32 tile over 4 subgroups, but the launch has 32 work-items = 2 subgroups, so part of the tile would have no
// owner (spec/programs-and-runner.md §3.2 WG: launches use 16 x prod(sg_layout) threads or more).  The launch
// stops with a located error at the first op carrying the layout.
// RUN: not xesim run %s 2>&1 | filecheck %s
// CHECK: xegpu_error_wg_level.mlir:12:7: error: 'xegpu.create_nd_tdesc' op the workgroup layout needs 4 subgroups (sg_layout [2, 2]) but the launch has 2 subgroups

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
    %c32 = arith.constant 32 : index
    %a = gpu.alloc () : memref<32x32xf32>
    %o = gpu.alloc () : memref<32x32xf32>
    gpu.launch_func @kernels::@wg blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<32x32xf32>, %o : memref<32x32xf32>)
    return
  }
}
