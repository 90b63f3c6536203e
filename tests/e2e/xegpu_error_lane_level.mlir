// A lane-level (SIMT) XeGPU kernel: load_nd gives each work-item a per-lane fragment (vector<8xf16> of an 8x16
// tile).  Lane-level XeGPU execution comes with a later issue; until then the launch fails with a located error
// at the op that makes the kernel lane-level, instead of computing wrong values.
// RUN: not xesim run %s | filecheck %s
// CHECK: xegpu_error_lane_level.mlir:12:7: error: 'xegpu.load_nd' op lane-level XeGPU programs are not supported yet (kernel @kernels::@simt is lane-level because of this op)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @simt(%a: memref<8x32xf16>, %o: memref<8x32xf16>) kernel {
      %t = xegpu.create_nd_tdesc %a : memref<8x32xf16> -> !xegpu.tensor_desc<8x16xf16>
      %to = xegpu.create_nd_tdesc %o : memref<8x32xf16> -> !xegpu.tensor_desc<8x16xf16>
      %v = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8xf16>
      xegpu.store_nd %v, %to[0, 0] : vector<8xf16>, !xegpu.tensor_desc<8x16xf16>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc () : memref<8x32xf16>
    %o = gpu.alloc () : memref<8x32xf16>
    gpu.launch_func @kernels::@simt blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<8x32xf16>, %o : memref<8x32xf16>)
    return
  }
}
