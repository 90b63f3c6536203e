// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s
// gpu ops in upstream MLIR syntax print back as mlir-opt prints them (gpu ops inside gpu.module and gpu.func
// keep their dialect prefix).

// CHECK: module @host attributes {gpu.container_module} {
module @host attributes {gpu.container_module} {
  // CHECK-NEXT: gpu.module @kernels [#xevm.target<O = 3, chip = "pvc">] {
  gpu.module @kernels [#xevm.target<O = 3, chip = "pvc">] {
    // CHECK-NEXT: gpu.func @gemm(%a: memref<32x32xf16>, %n: i32) kernel {
    gpu.func @gemm(%a: memref<32x32xf16>, %n: i64) kernel {
      // CHECK-NEXT: %tx = gpu.thread_id x
      // CHECK-NEXT: %ty = gpu.thread_id y upper_bound 16
      // CHECK-NEXT: %bx = gpu.block_id x
      // CHECK-NEXT: %bd = gpu.block_dim y
      // CHECK-NEXT: %gd = gpu.grid_dim z
      // CHECK-NEXT: %gid = gpu.global_id x
      // CHECK-NEXT: %sg = gpu.subgroup_id : index
      // CHECK-NEXT: %lane = gpu.lane_id
      // CHECK-NEXT: %sgs = gpu.subgroup_size : index
      // CHECK-NEXT: %nsg = gpu.num_subgroups upper_bound 4 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y upper_bound 16
      %bx = gpu.block_id x
      %bd = gpu.block_dim y
      %gd = gpu.grid_dim z
      %gid = gpu.global_id x
      %sg = gpu.subgroup_id : index
      %lane = gpu.lane_id
      %sgs = gpu.subgroup_size : index
      %nsg = gpu.num_subgroups upper_bound 4 : index
      // CHECK-NEXT: gpu.barrier
      // CHECK-NEXT: gpu.barrier memfence [#gpu.address_space<workgroup>]
      gpu.barrier
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      // CHECK-NEXT: gpu.return
      gpu.return
    }
    // CHECK: gpu.func @reduce(%v: f32, %off: i32, %width: i32) kernel attributes {intel_reqd_sub_group_size = 16 : i32} {
    // CHECK-NEXT: %r, %ok = gpu.shuffle xor %v, %off, %width : f32
    // CHECK-NEXT: %d, %ok2 = gpu.shuffle down %r, %off, %width : f32
    // CHECK-NEXT: gpu.printf "r = %f\0A", %d : f32
    // CHECK-NEXT: gpu.printf "old form %d", %off : i32
    // CHECK-NEXT: gpu.printf "no args"
    gpu.func @reduce(%v: f32, %off: i32, %width: i32) kernel attributes {intel_reqd_sub_group_size = 16 : i32} {
      %r, %ok = gpu.shuffle xor %v, %off, %width : f32
      %d, %ok2 = gpu.shuffle down %r, %off, %width : f32
      gpu.printf "r = %f\n", %d : f32
      gpu.printf "old form %d" %off : i32
      gpu.printf "no args"
      gpu.return
    }
    // CHECK: gpu.func @slm(%a: memref<16xf32>) workgroup(%w : memref<16xf32, #gpu.address_space<workgroup>>) private(%p : memref<4xf32, #gpu.address_space<private>>) kernel {
    gpu.func @slm(%a: memref<16xf32>) workgroup(%w : memref<16xf32, #gpu.address_space<workgroup>>) private(%p : memref<4xf32, #gpu.address_space<private>>) kernel {
      gpu.return
    }
    // CHECK: gpu.func @helper(%x: f32) -> f32 {
    // CHECK-NEXT: gpu.return %x : f32
    gpu.func @helper(%x: f32) -> f32 {
      gpu.return %x : f32
    }
  }

  // CHECK-LABEL: func.func @main
  func.func @main(%c1: index, %c4: index, %c16: index, %n: i64, %v: f32, %d: index, %sz: i32, %i1: i32) {
    // CHECK: %dA = gpu.alloc () : memref<32x32xf16>
    // CHECK-NEXT: %hs = gpu.alloc host_shared () : memref<16xf32>
    // CHECK-NEXT: %t0 = gpu.wait async
    // CHECK-NEXT: %dyn, %t1 = gpu.alloc async [%t0] (%d) : memref<?xf32>
    %dA = gpu.alloc () : memref<32x32xf16>
    %hs = gpu.alloc host_shared () : memref<16xf32>
    %t0 = gpu.wait async
    %dyn, %t1 = gpu.alloc async [%t0] (%d) : memref<?xf32>
    // CHECK-NEXT: gpu.memcpy %dA, %dA : memref<32x32xf16>, memref<32x32xf16>
    // CHECK-NEXT: %t2 = gpu.memcpy async [%t1] %dyn, %hs : memref<?xf32>, memref<16xf32>
    // CHECK-NEXT: gpu.memset %hs, %v : memref<16xf32>, f32
    // CHECK-NEXT: %t3 = gpu.memset async [%t2] %dyn, %v : memref<?xf32>, f32
    gpu.memcpy %dA, %dA : memref<32x32xf16>, memref<32x32xf16>
    %t2 = gpu.memcpy async [%t1] %dyn, %hs : memref<?xf32>, memref<16xf32>
    gpu.memset %hs, %v : memref<16xf32>, f32
    %t3 = gpu.memset async [%t2] %dyn, %v : memref<?xf32>, f32
    // CHECK-NEXT: gpu.launch_func @kernels::@gemm blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%dA : memref<32x32xf16>, %n : i64)
    gpu.launch_func @kernels::@gemm blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%dA : memref<32x32xf16>, %n : i64)
    // CHECK-NEXT: %t4 = gpu.launch_func async [%t3] @kernels::@slm blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) dynamic_shared_memory_size %sz args(%hs : memref<16xf32>)
    %t4 = gpu.launch_func async [%t3] @kernels::@slm blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) dynamic_shared_memory_size %sz args(%hs : memref<16xf32>)
    // CHECK-NEXT: gpu.launch_func @kernels::@reduce blocks in (%i1, %i1, %i1) threads in (%i1, %i1, %i1) : i32 args(%v : f32, %sz : i32, %sz : i32)
    gpu.launch_func @kernels::@reduce blocks in (%i1, %i1, %i1) threads in (%i1, %i1, %i1) : i32 args(%v : f32, %sz : i32, %sz : i32)
    // CHECK-NEXT: gpu.wait [%t4]
    // CHECK-NEXT: gpu.wait
    // CHECK-NEXT: %t5 = gpu.wait async [%t3, %t4]
    gpu.wait [%t4]
    gpu.wait
    %t5 = gpu.wait async [%t3, %t4]
    // CHECK-NEXT: %t6 = gpu.dealloc async [%t5] %dyn : memref<?xf32>
    // CHECK-NEXT: gpu.dealloc %dA : memref<32x32xf16>
    %t6 = gpu.dealloc async [%t5] %dyn : memref<?xf32>
    gpu.dealloc %dA : memref<32x32xf16>
    return
  }
}
