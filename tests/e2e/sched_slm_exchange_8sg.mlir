// Eight subgroups (SG level, 128 work-items) exchange data through SLM with gpu.barrier: subgroup s writes
// 100*s + i (i = 0..15) into SLM row s, waits at the barrier, then copies row (s + 1) mod 8 into global row s.
// Expected by hand: out[s][i] = 100*((s + 1) mod 8) + i.  The same output under any schedule
// (tests/unit/test_scheduling.py runs it under 20 random schedules too).  The prefetch_nd makes this an
// SG-level kernel (one execution per subgroup).
// RUN: xesim run %s | filecheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @exchange(%out: memref<8x16xi32>) kernel {
      %slm = memref.alloc() : memref<8x16xi32, 3>
      %sg = gpu.subgroup_id : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c100 = arith.constant 100 : index
      %base = arith.muli %sg, %c100 : index
      scf.for %i = %c0 to %c16 step %c1 {
        %v = arith.addi %base, %i : index
        %vi = arith.index_cast %v : index to i32
        memref.store %vi, %slm[%sg, %i] : memref<8x16xi32, 3>
      }
      gpu.barrier
      %n1 = arith.addi %sg, %c1 : index
      %n = arith.remui %n1, %c8 : index
      scf.for %i = %c0 to %c16 step %c1 {
        %w = memref.load %slm[%n, %i] : memref<8x16xi32, 3>
        memref.store %w, %out[%sg, %i] : memref<8x16xi32>
      }
      %t = xegpu.create_nd_tdesc %out : memref<8x16xi32> -> !xegpu.tensor_desc<8x16xi32>
      xegpu.prefetch_nd %t[0, 0] : !xegpu.tensor_desc<8x16xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %d = gpu.alloc () : memref<8x16xi32>
    gpu.launch_func @kernels::@exchange blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%d : memref<8x16xi32>)
    %h = memref.alloc() : memref<8x16xi32>
    gpu.memcpy %h, %d : memref<8x16xi32>, memref<8x16xi32>
    %u = memref.cast %h : memref<8x16xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
}

// CHECK: rank = 2 offset = 0 sizes = [8, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115],
// CHECK-NEXT: [200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215],
// CHECK-NEXT: [300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 311, 312, 313, 314, 315],
// CHECK-NEXT: [400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415],
// CHECK-NEXT: [500, 501, 502, 503, 504, 505, 506, 507, 508, 509, 510, 511, 512, 513, 514, 515],
// CHECK-NEXT: [600, 601, 602, 603, 604, 605, 606, 607, 608, 609, 610, 611, 612, 613, 614, 615],
// CHECK-NEXT: [700, 701, 702, 703, 704, 705, 706, 707, 708, 709, 710, 711, 712, 713, 714, 715],
// CHECK-NEXT: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]
