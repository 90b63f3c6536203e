// A racy SLM exchange (the negative example of --check-races): two subgroups (SG level, 32 work-items) each
// store their 16 values 100*sg + i into their half of an SLM buffer and then, with no barrier, load the other
// half.  Round-robin runs subgroup 0 to the end first, so its load of half 1 happens before subgroup 1's store
// into it, with nothing ordering the two: --check-races stops at the store (the second access) and names both
// ops, both subgroups and the address (SLM base 0x1000 + 64 bytes = half 1).  tests/e2e/race_slm_exchange_barrier.mlir
// and race_slm_exchange_nbarrier.mlir are the same exchange, correctly synchronised.
// RUN: not xesim run --check-races %s 2>&1 | filecheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @exchange(%out: memref<32xf32>) kernel {
      %slm = memref.alloc() : memref<32xf32, 3>
      %sg = gpu.subgroup_id : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %hundred = arith.constant 100.0 : f32
      %mine = arith.muli %sg, %c16 : index
      %other = arith.subi %c1, %sg : index
      %theirs = arith.muli %other, %c16 : index
      %sgi = arith.index_cast %sg : index to i32
      %sgf = arith.sitofp %sgi : i32 to f32
      %base = arith.mulf %sgf, %hundred : f32
      %step = vector.step : vector<16xindex>
      %stepi = arith.index_cast %step : vector<16xindex> to vector<16xi32>
      %stepf = arith.sitofp %stepi : vector<16xi32> to vector<16xf32>
      %bv = vector.broadcast %base : f32 to vector<16xf32>
      %vals = arith.addf %stepf, %bv : vector<16xf32>
      %ts = xegpu.create_nd_tdesc %slm[%mine] : memref<32xf32, 3> -> !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>
      xegpu.store_nd %vals, %ts : vector<16xf32>, !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>
      %tt = xegpu.create_nd_tdesc %slm[%theirs] : memref<32xf32, 3> -> !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>
      %w = xegpu.load_nd %tt : !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>> -> vector<16xf32>
      %tg = xegpu.create_nd_tdesc %out[%mine] : memref<32xf32> -> !xegpu.tensor_desc<16xf32>
      xegpu.store_nd %w, %tg : vector<16xf32>, !xegpu.tensor_desc<16xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %d = gpu.alloc () : memref<32xf32>
    gpu.launch_func @kernels::@exchange blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<32xf32>)
    %h = memref.alloc() : memref<32xf32>
    gpu.memcpy %h, %d : memref<32xf32>, memref<32xf32>
    %u = memref.cast %h : memref<32xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: race_slm_exchange_racy.mlir:29:7: error: 'xegpu.store_nd' op data race: subgroup 1 writes 64 byte(s) at 0x1040 (shared local memory, byte 64 of slm allocation %slm [0x1000, 0x1080) of 128 bytes) that subgroup 0 read with 'xegpu.load_nd' at {{.*}}race_slm_exchange_racy.mlir:31:7; no barrier orders the two accesses (--check-races) (kernel @kernels::@exchange, workgroup (0, 0, 0), subgroup 1)
// CHECK: race_slm_exchange_racy.mlir:31:7: note: 'xegpu.load_nd' op: the conflicting access: subgroup 0 read 0x1040 here
