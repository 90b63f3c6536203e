// Lane-level kernel with a workgroup (SLM) attribution and gpu.barrier, launched with the async host API.
// Each work-item t of workgroup b stores 100*b + t into SLM, waits at the barrier, then reads its
// neighbour's slot (t + 1) mod 16: out[16*b + t] = 100*b + (t + 1) mod 16 (values derived by hand).
// The barrier makes the neighbour's store visible; without it the later work-items' slots would still be 0.
// RUN: xesim run %s | filecheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rotate(%out: memref<32xi32>) workgroup(%slm : memref<16xi32, 3>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %c100 = arith.constant 100 : index
      %c1 = arith.constant 1 : index
      %base = arith.muli %b, %c100 : index
      %v = arith.addi %base, %t : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %slm[%t] : memref<16xi32, 3>
      gpu.barrier
      %n1 = arith.addi %t, %c1 : index
      %n = arith.remui %n1, %c16 : index
      %w = memref.load %slm[%n] : memref<16xi32, 3>
      %o1 = arith.muli %b, %c16 : index
      %o = arith.addi %o1, %t : index
      memref.store %w, %out[%o] : memref<32xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<32xi32>
    %t2 = gpu.launch_func async [%t1] @kernels::@rotate blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1) args(%d : memref<32xi32>)
    %h = memref.alloc() : memref<32xi32>
    %t3 = gpu.memcpy async [%t2] %h, %d : memref<32xi32>, memref<32xi32>
    gpu.wait [%t3]
    %u = memref.cast %h : memref<32xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %t4 = gpu.dealloc async %d : memref<32xi32>
    gpu.wait [%t4]
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 100]
