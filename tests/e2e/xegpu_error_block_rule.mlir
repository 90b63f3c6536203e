// A 2D block load whose surface base is not 64-byte aligned (the descriptor is made on a subview that starts
// one f32 element into its buffer): spec/pvc-hardware.md §1.2 gives such a message no defined result, so the
// simulator refuses it with a located error naming the rule and its source.
// RUN: not xesim run %s 2>&1 | filecheck %s
// CHECK: xegpu_error_block_rule.mlir:13:7: error: 'xegpu.load_nd' op 2D block load of 8x16x1 at [0, 0]: surface base address 0x{{[0-9a-f]+}}4 is not 64-byte aligned (spec/pvc-hardware.md §1.2
// CHECK-SAME: kernel @kernels::@k, workgroup (0, 0, 0), subgroup 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8x32xf32>) kernel {
      %s = memref.subview %a[0, 1] [8, 16] [1, 1] : memref<8x32xf32> to memref<8x16xf32, strided<[32, 1], offset: 1>>
      %t = xegpu.create_nd_tdesc %s : memref<8x16xf32, strided<[32, 1], offset: 1>> -> !xegpu.tensor_desc<8x16xf32>
      %v = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc () : memref<8x32xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<8x32xf32>)
    return
  }
}
