// An unmasked scattered load outside its memref: lane 5's offset 64 is past the 64-element buffer.  The spec
// leaves unmasked out-of-range gathers undefined (spec/pvc-hardware.md §6 item 16); the simulator refuses them
// with a located error naming the lane.  (Lane 9's offset 100 is masked off and never accessed.)
// RUN: not xesim run %s 2>&1 | filecheck %s
// CHECK: xegpu_error_scatter_oob.mlir:12:7: error: 'xegpu.load' op lane 5: elements [64, 65) are out of bounds of %src (64 elements); the lane is not masked off

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%src: memref<64xf32>) kernel {
      %off = arith.constant dense<[0, 1, 2, 3, 4, 64, 6, 7, 8, 100, 10, 11, 12, 13, 14, 15]> : vector<16xindex>
      %m = arith.constant dense<[true, true, true, true, true, true, true, true, true, false, true, true, true, true, true, true]> : vector<16xi1>
      %v = xegpu.load %src[%off], %m : memref<64xf32>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc () : memref<64xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<64xf32>)
    return
  }
}
