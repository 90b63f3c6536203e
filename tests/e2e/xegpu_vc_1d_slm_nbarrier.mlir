// VC-level 1-D tensor descriptors in global memory and in SLM, with a named barrier.
// Two VC threads of one workgroup; thread t:
//  1. loads tensor_desc<16xf32> at element 16 of a 30-element buffer of ones: elements 30, 31 are outside and
//     read 0 -> vector.print shows ( 1, ..., 1, 0, 0 ) (as a real program checks);
//  2. stores 16 values 100t + i into SLM (memref<32xf32, 3>, a 1-D SLM descriptor) at [16t];
//  3. waits at named barrier 1 (both threads participate), then loads the other thread's 16 SLM values and
//     stores them with a 1-D global descriptor at out[16t], so out[16t + i] = 100(1 - t) + i;
//  4. stores a 16-element 1-D block at out2[24]: elements 32..39 are outside the 32-element buffer and dropped.
// Expected (by hand): two lines ( 1 x14, 0, 0 ); out = [100..115, 0..15]; out2 = [0 x24, 0..7]
// RUN: xesim run %s | filecheck %s

module @vc_1d attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%ones: memref<30xf32>, %out: memref<32xf32>, %out2: memref<32xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c24 = arith.constant 24 : index
      %t = gpu.thread_id x
      %to = xegpu.create_nd_tdesc %ones[%c16] : memref<30xf32> -> !xegpu.tensor_desc<16xf32>
      %v = xegpu.load_nd %to : !xegpu.tensor_desc<16xf32> -> vector<16xf32>
      vector.print %v : vector<16xf32>
      %slm = memref.alloc() : memref<32xf32, 3>
      %mine = arith.muli %t, %c16 : index
      %ts = xegpu.create_nd_tdesc %slm[%mine] : memref<32xf32, 3> -> !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>
      %step = vector.step : vector<16xindex>
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %hundred = arith.constant 100.0 : f32
      %base = arith.mulf %tf, %hundred : f32
      %stepi = arith.index_cast %step : vector<16xindex> to vector<16xi32>
      %stepf = arith.sitofp %stepi : vector<16xi32> to vector<16xf32>
      %bv = vector.broadcast %base : f32 to vector<16xf32>
      %vals = arith.addf %stepf, %bv : vector<16xf32>
      xegpu.store_nd %vals, %ts : vector<16xf32>, !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>
      xegpu.alloc_nbarrier 2
      %id = arith.constant 1 : i8
      %n = arith.constant 2 : i8
      %nb = xegpu.init_nbarrier %id, %n : i8, i8 -> !xegpu.nbarrier
      xegpu.fence memory_kind = slm, fence_scope = workgroup
      xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
      xegpu.nbarrier_wait %nb : !xegpu.nbarrier
      %other = arith.subi %c1, %t : index
      %theirs = arith.muli %other, %c16 : index
      %tt = xegpu.create_nd_tdesc %slm[%theirs] : memref<32xf32, 3> -> !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>
      %w = xegpu.load_nd %tt : !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>> -> vector<16xf32>
      %tg = xegpu.create_nd_tdesc %out[%mine] : memref<32xf32> -> !xegpu.tensor_desc<16xf32>
      xegpu.store_nd %w, %tg : vector<16xf32>, !xegpu.tensor_desc<16xf32>
      %t2 = xegpu.create_nd_tdesc %out2[%c24] : memref<32xf32> -> !xegpu.tensor_desc<16xf32>
      %ws = vector.extract_strided_slice %stepf {offsets = [0], sizes = [16], strides = [1]} : vector<16xf32> to vector<16xf32>
      xegpu.store_nd %ws, %t2 : vector<16xf32>, !xegpu.tensor_desc<16xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %one = arith.constant 1.0 : f32
    %O = memref.alloc() : memref<30xf32>
    %d = gpu.alloc () : memref<30xf32>
    %do = gpu.alloc () : memref<32xf32>
    %do2 = gpu.alloc () : memref<32xf32>
    %Ou = memref.cast %O : memref<30xf32> to memref<*xf32>
    call @fillResource1DF32(%Ou, %one) : (memref<*xf32>, f32) -> ()
    gpu.memcpy %d, %O : memref<30xf32>, memref<30xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%d : memref<30xf32>, %do : memref<32xf32>, %do2 : memref<32xf32>)
    %R = memref.alloc() : memref<32xf32>
    %R2 = memref.alloc() : memref<32xf32>
    gpu.memcpy %R, %do : memref<32xf32>, memref<32xf32>
    gpu.memcpy %R2, %do2 : memref<32xf32>, memref<32xf32>
    %p = memref.cast %R : memref<32xf32> to memref<*xf32>
    %p2 = memref.cast %R2 : memref<32xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    call @printMemrefF32(%p2) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @fillResource1DF32(memref<*xf32>, f32) attributes {llvm.emit_c_interface}
}

// CHECK-COUNT-2: ( 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0 )
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [100,  101,  102,  103,  104,  105,  106,  107,  108,  109,  110,  111,  112,  113,  114,  115,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [32] strides = [1] data =
// CHECK-NEXT: [0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  1,  2,  3,  4,  5,  6,  7]
