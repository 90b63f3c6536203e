// Lane-level gather/scatter with one lane's offset and mask written as one-element vectors (vector<1xindex>,
// vector<1xi1>), as upstream lane-level programs write them (upstream-xegpu-xevm.md §2.6, "scalar or 1-element
// offsets/mask"): each of the 16 lanes copies its own 8 elements (chunk_size = 8), so dst == src; and a
// chunk_size = 1 gather/scatter with vector<1xf32> values: aux[lane] = -src[lane].
// Before issue 30 the kernel was taken for subgroup level and only lane 0's chunk was copied, silently.
// RUN: xesim run %s | filecheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @copy(%src: memref<128xf32>, %dst: memref<128xf32>, %aux: memref<16xf32>) kernel {
      %lane = gpu.lane_id
      %c8 = arith.constant 8 : index
      %o = arith.muli %lane, %c8 : index
      %off = vector.broadcast %o : index to vector<1xindex>
      %m = arith.constant dense<true> : vector<1xi1>
      %v = xegpu.load %src[%off], %m <{chunk_size = 8 : i64}> : memref<128xf32>, vector<1xindex>, vector<1xi1> -> vector<8xf32>
      xegpu.store %v, %dst[%off], %m <{chunk_size = 8 : i64}> : vector<8xf32>, memref<128xf32>, vector<1xindex>, vector<1xi1>
      %lv = vector.broadcast %lane : index to vector<1xindex>
      %one = xegpu.load %src[%lv], %m : memref<128xf32>, vector<1xindex>, vector<1xi1> -> vector<1xf32>
      %neg = arith.negf %one : vector<1xf32>
      xegpu.store %neg, %aux[%lv], %m : vector<1xf32>, memref<16xf32>, vector<1xindex>, vector<1xi1>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %S = memref.alloc() : memref<128xf32>
    scf.for %i = %c0 to %c128 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %S[%i] : memref<128xf32>
    }
    %dS = gpu.alloc () : memref<128xf32>
    %dD = gpu.alloc () : memref<128xf32>
    %dA = gpu.alloc () : memref<16xf32>
    gpu.memcpy %dS, %S : memref<128xf32>, memref<128xf32>
    gpu.launch_func @k::@copy blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dS : memref<128xf32>, %dD : memref<128xf32>, %dA : memref<16xf32>)
    %D = memref.alloc() : memref<128xf32>
    %Aux = memref.alloc() : memref<16xf32>
    gpu.memcpy %D, %dD : memref<128xf32>, memref<128xf32>
    gpu.memcpy %Aux, %dA : memref<16xf32>, memref<16xf32>
    %su = memref.cast %S : memref<128xf32> to memref<*xf32>
    %du = memref.cast %D : memref<128xf32> to memref<*xf32>
    call @printAllcloseF32(%du, %su) : (memref<*xf32>, memref<*xf32>) -> ()
    %sv = memref.subview %D[120] [8] [1] : memref<128xf32> to memref<8xf32, strided<[1], offset: 120>>
    %u = memref.cast %sv : memref<8xf32, strided<[1], offset: 120>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %au = memref.cast %Aux : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%au) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(%p : memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF32(%a : memref<*xf32>, %b : memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: [ALLCLOSE: TRUE]
// CHECK: offset = 120 sizes = [8] strides = [1] data =
// CHECK-NEXT: [120,  121,  122,  123,  124,  125,  126,  127]
// CHECK: sizes = [16] strides = [1] data =
// CHECK-NEXT: [-0,  -1,  -2,  -3,  -4,  -5,  -6,  -7,  -8,  -9,  -10,  -11,  -12,  -13,  -14,  -15]
