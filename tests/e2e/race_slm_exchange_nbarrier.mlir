// The SLM exchange of race_slm_exchange_racy.mlir, synchronised with named barrier 3 (both subgroups participate;
// spec/pvc-hardware.md §4.1): each subgroup's store happens before its nbarrier_arrive, the other's load after its
// nbarrier_wait of the same phase, so --check-races stays silent under any schedule; out = [100..115, 0..15].
// RUN: xesim run --check-races %s | filecheck %s
// RUN: xesim run --check-races --schedule random --seed 7 %s | filecheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @exchange(%out: memref<32xf32>) kernel {
      %slm = memref.alloc() : memref<32xf32, 3>
      xegpu.alloc_nbarrier 4
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
      %id = arith.constant 3 : i8
      %two = arith.constant 2 : i8
      %nb = xegpu.init_nbarrier %id, %two : i8, i8 -> !xegpu.nbarrier
      xegpu.fence memory_kind = slm, fence_scope = workgroup
      xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
      xegpu.nbarrier_wait %nb : !xegpu.nbarrier
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

// CHECK: rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [100,  101,  102,  103,  104,  105,  106,  107,  108,  109,  110,  111,  112,  113,  114,  115,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15]
