// RUN: %python_executable %imex_runner --requires=l0-runtime -i %s --pass-pipeline-file=%p/xegpu-to-func-vc.pp \
// RUN:                                       --runner imex-cpu-runner -e main \
// RUN:                                       --entry-point-result=void \
// RUN:                                       --shared-libs=%irunner_utils,%mlir_runner_utils,%mlir_c_runner_utils,%levelzero_runtime --filecheck
// RUN: %python_executable %imex_runner --requires=sycl-runtime -i %s --pass-pipeline-file=%p/xegpu-to-func-vc.pp \
// RUN:                                        --runner imex-cpu-runner -e main \
// RUN:                                        --entry-point-result=void \
// RUN:                                        --shared-libs=%irunner_utils,%mlir_runner_utils,%mlir_c_runner_utils,%sycl_runtime --filecheck

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%x: memref<64xf32>, %y: memref<64xf32>, %a: f32) kernel {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %xv = memref.load %x[%i] : memref<64xf32>
      %yv = memref.load %y[%i] : memref<64xf32>
      %p = arith.mulf %a, %xv : f32
      %r = arith.addf %p, %yv : f32
      memref.store %r, %y[%i] : memref<64xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %a = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %X = memref.alloc() : memref<64xf32>
    %Y = memref.alloc() : memref<64xf32>
    %R = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %X[%i] : memref<64xf32>
      memref.store %one, %Y[%i] : memref<64xf32>
      %ref = arith.mulf %a, %f : f32
      %ref1 = arith.addf %ref, %one : f32
      memref.store %ref1, %R[%i] : memref<64xf32>
    }
    %dX = gpu.alloc () : memref<64xf32>
    %dY = gpu.alloc () : memref<64xf32>
    gpu.memcpy %dX, %X : memref<64xf32>, memref<64xf32>
    gpu.memcpy %dY, %Y : memref<64xf32>, memref<64xf32>
    gpu.launch_func @kernels::@saxpy blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%dX : memref<64xf32>, %dY : memref<64xf32>, %a : f32)
    gpu.wait
    gpu.memcpy %Y, %dY : memref<64xf32>, memref<64xf32>
    %yu = memref.cast %Y : memref<64xf32> to memref<*xf32>
    %ru = memref.cast %R : memref<64xf32> to memref<*xf32>
    call @printAllcloseF32(%yu, %ru) : (memref<*xf32>, memref<*xf32>) -> ()
    %first = memref.subview %Y[0] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1]>>
    %fu = memref.cast %first : memref<8xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%fu) : (memref<*xf32>) -> ()
    gpu.dealloc %dX : memref<64xf32>
    gpu.dealloc %dY : memref<64xf32>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: [ALLCLOSE: TRUE]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [1,  1.5,  2,  2.5,  3,  3.5,  4,  4.5]
