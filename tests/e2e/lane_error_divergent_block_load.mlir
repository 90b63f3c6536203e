// A block load is one message for the whole subgroup: executed under divergent control flow (only lanes 0..7
// take the scf.if) it is reported with the op and the active lanes instead of computing anything
// (spec/programs-and-runner.md §3.2 SIMT: subgroup-collective ops; issue 5).
// RUN: not xesim run %s 2>&1 | filecheck %s
// CHECK: lane_error_divergent_block_load.mlir:16:9: error: 'xegpu.load_nd' op is subgroup-collective but executes under divergent control flow with only lanes [0, 1, 2, 3, 4, 5, 6, 7] of 16 active (the hardware needs the whole subgroup) (kernel @kernels::@simt, workgroup (0, 0, 0), subgroup 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @simt(%a: memref<8x32xf16>, %o: memref<8x32xf16>) kernel {
      %t = xegpu.create_nd_tdesc %a : memref<8x32xf16> -> !xegpu.tensor_desc<8x16xf16>
      %to = xegpu.create_nd_tdesc %o : memref<8x32xf16> -> !xegpu.tensor_desc<8x16xf16>
      %lane = gpu.lane_id
      %c8 = arith.constant 8 : index
      %low = arith.cmpi ult, %lane, %c8 : index
      scf.if %low {
        %v = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8xf16>
        xegpu.store_nd %v, %to[0, 0] : vector<8xf16>, !xegpu.tensor_desc<8x16xf16>
      }
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
