// RUN: not xesim run --check-races %s
// The race detector sees XeTile accesses (xesim/observe/races_xetile.py): two VC threads store a tile into the same
// SLM buffer and read it back with no barrier between them.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%X: memref<16x64xf32>) kernel attributes {VectorComputeFunctionINTEL} {
      %c0 = arith.constant 0 : index
      %slm = memref.alloc() : memref<16x64xf32, 3>
      %t = xetile.init_tile %X[%c0, %c0] : memref<16x64xf32> -> !xetile.tile<16x64xf32>
      %v = xetile.load_tile %t : !xetile.tile<16x64xf32> -> vector<16x64xf32>
      %ts = xetile.init_tile %slm[%c0, %c0] : memref<16x64xf32, 3> -> !xetile.tile<16x64xf32, #xetile.tile_attr<memory_space = 3 : i64>>
      xetile.store_tile %v, %ts : vector<16x64xf32>, !xetile.tile<16x64xf32, #xetile.tile_attr<memory_space = 3 : i64>>
      %w = xetile.load_tile %ts : !xetile.tile<16x64xf32, #xetile.tile_attr<memory_space = 3 : i64>> -> vector<16x64xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %d = gpu.alloc () : memref<16x64xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%d : memref<16x64xf32>)
    return
  }
}
