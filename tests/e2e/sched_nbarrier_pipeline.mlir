// A named-barrier producer/consumer pipeline (spec/pvc-hardware.md §4.1) between two subgroups through one
// SLM buffer: for step = 0..3 the producer (subgroup 0) fills the buffer with 10*step + i, both signal and wait
// (phase "data ready"), the consumer (subgroup 1) copies the buffer to out[step], both signal and wait again
// (phase "buffer free").  Expected by hand: out[step][i] = 10*step + i.  Without the barriers the consumer
// would see other steps' data under some schedules; tests/unit/test_scheduling.py runs 20 random schedules.
// RUN: xesim run %s | filecheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @pipeline(%out: memref<4x16xi32>) kernel {
      %buf = memref.alloc() : memref<16xi32, 3>
      %sg = gpu.subgroup_id : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c10 = arith.constant 10 : index
      %c16 = arith.constant 16 : index
      %id = arith.constant 0 : i8
      %two = arith.constant 2 : i8
      xegpu.alloc_nbarrier 1
      %nb = xegpu.init_nbarrier %id, %two : i8, i8 -> !xegpu.nbarrier
      %is_producer = arith.cmpi eq, %sg, %c0 : index
      scf.for %step = %c0 to %c4 step %c1 {
        scf.if %is_producer {
          %base = arith.muli %step, %c10 : index
          scf.for %i = %c0 to %c16 step %c1 {
            %v = arith.addi %base, %i : index
            %vi = arith.index_cast %v : index to i32
            memref.store %vi, %buf[%i] : memref<16xi32, 3>
          }
        }
        xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
        xegpu.nbarrier_wait %nb : !xegpu.nbarrier
        scf.if %is_producer {
        } else {
          scf.for %i = %c0 to %c16 step %c1 {
            %w = memref.load %buf[%i] : memref<16xi32, 3>
            memref.store %w, %out[%step, %i] : memref<4x16xi32>
          }
        }
        xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
        xegpu.nbarrier_wait %nb : !xegpu.nbarrier
      }
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %d = gpu.alloc () : memref<4x16xi32>
    gpu.launch_func @kernels::@pipeline blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<4x16xi32>)
    %h = memref.alloc() : memref<4x16xi32>
    gpu.memcpy %h, %d : memref<4x16xi32>, memref<4x16xi32>
    %u = memref.cast %h : memref<4x16xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
}

// CHECK: rank = 2 offset = 0 sizes = [4, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
// CHECK-NEXT: [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25],
// CHECK-NEXT: [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35],
// CHECK-NEXT: [30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45]]
