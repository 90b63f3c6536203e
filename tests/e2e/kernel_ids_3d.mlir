// Every id of every work-item of a 3-D grid (2x1x2) of 3-D workgroups (4x2x3 = 24 work-items = 2 subgroups)
// is written to a buffer: out[wg][linear][field], fields = block_id x y z, thread_id x y z, subgroup_id, lane_id,
// num_subgroups, subgroup_size, global_id x y z, block_dim x, grid_dim x.
// The CHECK lines were computed from the definitions of spec/programs-and-runner.md §3.2
// (linear = x + y*bx + z*bx*by, subgroup_id = linear / 16, lane_id = linear mod 16), not by xesim.
// RUN: xesim run %s | filecheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ids(%out: memref<4x24x15xi32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %sg = gpu.subgroup_id : index
      %lane = gpu.lane_id
      %nsg = gpu.num_subgroups : index
      %sgs = gpu.subgroup_size : index
      %gidx = gpu.global_id x
      %gidy = gpu.global_id y
      %gidz = gpu.global_id z
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %gdx = gpu.grid_dim x
      %gdy = gpu.grid_dim y
      %t1 = arith.muli %ty, %bdx : index
      %t2 = arith.muli %bdx, %bdy : index
      %t3 = arith.muli %tz, %t2 : index
      %t4 = arith.addi %tx, %t1 : index
      %lin = arith.addi %t4, %t3 : index
      %w1 = arith.muli %by, %gdx : index
      %w2 = arith.muli %gdx, %gdy : index
      %w3 = arith.muli %bz, %w2 : index
      %w4 = arith.addi %bx, %w1 : index
      %wg = arith.addi %w4, %w3 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %c10 = arith.constant 10 : index
      %c11 = arith.constant 11 : index
      %c12 = arith.constant 12 : index
      %c13 = arith.constant 13 : index
      %c14 = arith.constant 14 : index
      %v0 = arith.index_cast %bx : index to i32
      memref.store %v0, %out[%wg, %lin, %c0] : memref<4x24x15xi32>
      %v1 = arith.index_cast %by : index to i32
      memref.store %v1, %out[%wg, %lin, %c1] : memref<4x24x15xi32>
      %v2 = arith.index_cast %bz : index to i32
      memref.store %v2, %out[%wg, %lin, %c2] : memref<4x24x15xi32>
      %v3 = arith.index_cast %tx : index to i32
      memref.store %v3, %out[%wg, %lin, %c3] : memref<4x24x15xi32>
      %v4 = arith.index_cast %ty : index to i32
      memref.store %v4, %out[%wg, %lin, %c4] : memref<4x24x15xi32>
      %v5 = arith.index_cast %tz : index to i32
      memref.store %v5, %out[%wg, %lin, %c5] : memref<4x24x15xi32>
      %v6 = arith.index_cast %sg : index to i32
      memref.store %v6, %out[%wg, %lin, %c6] : memref<4x24x15xi32>
      %v7 = arith.index_cast %lane : index to i32
      memref.store %v7, %out[%wg, %lin, %c7] : memref<4x24x15xi32>
      %v8 = arith.index_cast %nsg : index to i32
      memref.store %v8, %out[%wg, %lin, %c8] : memref<4x24x15xi32>
      %v9 = arith.index_cast %sgs : index to i32
      memref.store %v9, %out[%wg, %lin, %c9] : memref<4x24x15xi32>
      %v10 = arith.index_cast %gidx : index to i32
      memref.store %v10, %out[%wg, %lin, %c10] : memref<4x24x15xi32>
      %v11 = arith.index_cast %gidy : index to i32
      memref.store %v11, %out[%wg, %lin, %c11] : memref<4x24x15xi32>
      %v12 = arith.index_cast %gidz : index to i32
      memref.store %v12, %out[%wg, %lin, %c12] : memref<4x24x15xi32>
      %v13 = arith.index_cast %bdx : index to i32
      memref.store %v13, %out[%wg, %lin, %c13] : memref<4x24x15xi32>
      %v14 = arith.index_cast %gdx : index to i32
      memref.store %v14, %out[%wg, %lin, %c14] : memref<4x24x15xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4x24x15xi32>
    gpu.launch_func @kernels::@ids blocks in (%c2, %c1, %c2) threads in (%c4, %c2, %c3) args(%d : memref<4x24x15xi32>)
    %h = memref.alloc() : memref<4x24x15xi32>
    gpu.memcpy %h, %d : memref<4x24x15xi32>, memref<4x24x15xi32>
    %u = memref.cast %h : memref<4x24x15xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %d : memref<4x24x15xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 3 offset = 0 sizes = [4, 24, 15] strides = [360, 15, 1] data =
// CHECK-NEXT: {{\[\[\[}}0, 0, 0, 0, 0, 0, 0, 0, 2, 16, 0, 0, 0, 4, 2],
// CHECK-NEXT: [0, 0, 0, 1, 0, 0, 0, 1, 2, 16, 1, 0, 0, 4, 2],
// CHECK-NEXT: [0, 0, 0, 2, 0, 0, 0, 2, 2, 16, 2, 0, 0, 4, 2],
// CHECK-NEXT: [0, 0, 0, 3, 0, 0, 0, 3, 2, 16, 3, 0, 0, 4, 2],
// CHECK-NEXT: [0, 0, 0, 0, 1, 0, 0, 4, 2, 16, 0, 1, 0, 4, 2],
// CHECK-NEXT: [0, 0, 0, 1, 1, 0, 0, 5, 2, 16, 1, 1, 0, 4, 2],
// CHECK-NEXT: [0, 0, 0, 2, 1, 0, 0, 6, 2, 16, 2, 1, 0, 4, 2],
// CHECK-NEXT: [0, 0, 0, 3, 1, 0, 0, 7, 2, 16, 3, 1, 0, 4, 2],
// CHECK-NEXT: [0, 0, 0, 0, 0, 1, 0, 8, 2, 16, 0, 0, 1, 4, 2],
// CHECK-NEXT: [0, 0, 0, 1, 0, 1, 0, 9, 2, 16, 1, 0, 1, 4, 2],
// CHECK-NEXT: [0, 0, 0, 2, 0, 1, 0, 10, 2, 16, 2, 0, 1, 4, 2],
// CHECK-NEXT: [0, 0, 0, 3, 0, 1, 0, 11, 2, 16, 3, 0, 1, 4, 2],
// CHECK-NEXT: [0, 0, 0, 0, 1, 1, 0, 12, 2, 16, 0, 1, 1, 4, 2],
// CHECK-NEXT: [0, 0, 0, 1, 1, 1, 0, 13, 2, 16, 1, 1, 1, 4, 2],
// CHECK-NEXT: [0, 0, 0, 2, 1, 1, 0, 14, 2, 16, 2, 1, 1, 4, 2],
// CHECK-NEXT: [0, 0, 0, 3, 1, 1, 0, 15, 2, 16, 3, 1, 1, 4, 2],
// CHECK-NEXT: [0, 0, 0, 0, 0, 2, 1, 0, 2, 16, 0, 0, 2, 4, 2],
// CHECK-NEXT: [0, 0, 0, 1, 0, 2, 1, 1, 2, 16, 1, 0, 2, 4, 2],
// CHECK-NEXT: [0, 0, 0, 2, 0, 2, 1, 2, 2, 16, 2, 0, 2, 4, 2],
// CHECK-NEXT: [0, 0, 0, 3, 0, 2, 1, 3, 2, 16, 3, 0, 2, 4, 2],
// CHECK-NEXT: [0, 0, 0, 0, 1, 2, 1, 4, 2, 16, 0, 1, 2, 4, 2],
// CHECK-NEXT: [0, 0, 0, 1, 1, 2, 1, 5, 2, 16, 1, 1, 2, 4, 2],
// CHECK-NEXT: [0, 0, 0, 2, 1, 2, 1, 6, 2, 16, 2, 1, 2, 4, 2],
// CHECK-NEXT: [0, 0, 0, 3, 1, 2, 1, 7, 2, 16, 3, 1, 2, 4, 2]],
// CHECK-NEXT: {{\[\[}}1, 0, 0, 0, 0, 0, 0, 0, 2, 16, 4, 0, 0, 4, 2],
// CHECK-NEXT: [1, 0, 0, 1, 0, 0, 0, 1, 2, 16, 5, 0, 0, 4, 2],
// CHECK-NEXT: [1, 0, 0, 2, 0, 0, 0, 2, 2, 16, 6, 0, 0, 4, 2],
// CHECK-NEXT: [1, 0, 0, 3, 0, 0, 0, 3, 2, 16, 7, 0, 0, 4, 2],
// CHECK-NEXT: [1, 0, 0, 0, 1, 0, 0, 4, 2, 16, 4, 1, 0, 4, 2],
// CHECK-NEXT: [1, 0, 0, 1, 1, 0, 0, 5, 2, 16, 5, 1, 0, 4, 2],
// CHECK-NEXT: [1, 0, 0, 2, 1, 0, 0, 6, 2, 16, 6, 1, 0, 4, 2],
// CHECK-NEXT: [1, 0, 0, 3, 1, 0, 0, 7, 2, 16, 7, 1, 0, 4, 2],
// CHECK-NEXT: [1, 0, 0, 0, 0, 1, 0, 8, 2, 16, 4, 0, 1, 4, 2],
// CHECK-NEXT: [1, 0, 0, 1, 0, 1, 0, 9, 2, 16, 5, 0, 1, 4, 2],
// CHECK-NEXT: [1, 0, 0, 2, 0, 1, 0, 10, 2, 16, 6, 0, 1, 4, 2],
// CHECK-NEXT: [1, 0, 0, 3, 0, 1, 0, 11, 2, 16, 7, 0, 1, 4, 2],
// CHECK-NEXT: [1, 0, 0, 0, 1, 1, 0, 12, 2, 16, 4, 1, 1, 4, 2],
// CHECK-NEXT: [1, 0, 0, 1, 1, 1, 0, 13, 2, 16, 5, 1, 1, 4, 2],
// CHECK-NEXT: [1, 0, 0, 2, 1, 1, 0, 14, 2, 16, 6, 1, 1, 4, 2],
// CHECK-NEXT: [1, 0, 0, 3, 1, 1, 0, 15, 2, 16, 7, 1, 1, 4, 2],
// CHECK-NEXT: [1, 0, 0, 0, 0, 2, 1, 0, 2, 16, 4, 0, 2, 4, 2],
// CHECK-NEXT: [1, 0, 0, 1, 0, 2, 1, 1, 2, 16, 5, 0, 2, 4, 2],
// CHECK-NEXT: [1, 0, 0, 2, 0, 2, 1, 2, 2, 16, 6, 0, 2, 4, 2],
// CHECK-NEXT: [1, 0, 0, 3, 0, 2, 1, 3, 2, 16, 7, 0, 2, 4, 2],
// CHECK-NEXT: [1, 0, 0, 0, 1, 2, 1, 4, 2, 16, 4, 1, 2, 4, 2],
// CHECK-NEXT: [1, 0, 0, 1, 1, 2, 1, 5, 2, 16, 5, 1, 2, 4, 2],
// CHECK-NEXT: [1, 0, 0, 2, 1, 2, 1, 6, 2, 16, 6, 1, 2, 4, 2],
// CHECK-NEXT: [1, 0, 0, 3, 1, 2, 1, 7, 2, 16, 7, 1, 2, 4, 2]],
// CHECK-NEXT: {{\[\[}}0, 0, 1, 0, 0, 0, 0, 0, 2, 16, 0, 0, 3, 4, 2],
// CHECK-NEXT: [0, 0, 1, 1, 0, 0, 0, 1, 2, 16, 1, 0, 3, 4, 2],
// CHECK-NEXT: [0, 0, 1, 2, 0, 0, 0, 2, 2, 16, 2, 0, 3, 4, 2],
// CHECK-NEXT: [0, 0, 1, 3, 0, 0, 0, 3, 2, 16, 3, 0, 3, 4, 2],
// CHECK-NEXT: [0, 0, 1, 0, 1, 0, 0, 4, 2, 16, 0, 1, 3, 4, 2],
// CHECK-NEXT: [0, 0, 1, 1, 1, 0, 0, 5, 2, 16, 1, 1, 3, 4, 2],
// CHECK-NEXT: [0, 0, 1, 2, 1, 0, 0, 6, 2, 16, 2, 1, 3, 4, 2],
// CHECK-NEXT: [0, 0, 1, 3, 1, 0, 0, 7, 2, 16, 3, 1, 3, 4, 2],
// CHECK-NEXT: [0, 0, 1, 0, 0, 1, 0, 8, 2, 16, 0, 0, 4, 4, 2],
// CHECK-NEXT: [0, 0, 1, 1, 0, 1, 0, 9, 2, 16, 1, 0, 4, 4, 2],
// CHECK-NEXT: [0, 0, 1, 2, 0, 1, 0, 10, 2, 16, 2, 0, 4, 4, 2],
// CHECK-NEXT: [0, 0, 1, 3, 0, 1, 0, 11, 2, 16, 3, 0, 4, 4, 2],
// CHECK-NEXT: [0, 0, 1, 0, 1, 1, 0, 12, 2, 16, 0, 1, 4, 4, 2],
// CHECK-NEXT: [0, 0, 1, 1, 1, 1, 0, 13, 2, 16, 1, 1, 4, 4, 2],
// CHECK-NEXT: [0, 0, 1, 2, 1, 1, 0, 14, 2, 16, 2, 1, 4, 4, 2],
// CHECK-NEXT: [0, 0, 1, 3, 1, 1, 0, 15, 2, 16, 3, 1, 4, 4, 2],
// CHECK-NEXT: [0, 0, 1, 0, 0, 2, 1, 0, 2, 16, 0, 0, 5, 4, 2],
// CHECK-NEXT: [0, 0, 1, 1, 0, 2, 1, 1, 2, 16, 1, 0, 5, 4, 2],
// CHECK-NEXT: [0, 0, 1, 2, 0, 2, 1, 2, 2, 16, 2, 0, 5, 4, 2],
// CHECK-NEXT: [0, 0, 1, 3, 0, 2, 1, 3, 2, 16, 3, 0, 5, 4, 2],
// CHECK-NEXT: [0, 0, 1, 0, 1, 2, 1, 4, 2, 16, 0, 1, 5, 4, 2],
// CHECK-NEXT: [0, 0, 1, 1, 1, 2, 1, 5, 2, 16, 1, 1, 5, 4, 2],
// CHECK-NEXT: [0, 0, 1, 2, 1, 2, 1, 6, 2, 16, 2, 1, 5, 4, 2],
// CHECK-NEXT: [0, 0, 1, 3, 1, 2, 1, 7, 2, 16, 3, 1, 5, 4, 2]],
// CHECK-NEXT: {{\[\[}}1, 0, 1, 0, 0, 0, 0, 0, 2, 16, 4, 0, 3, 4, 2],
// CHECK-NEXT: [1, 0, 1, 1, 0, 0, 0, 1, 2, 16, 5, 0, 3, 4, 2],
// CHECK-NEXT: [1, 0, 1, 2, 0, 0, 0, 2, 2, 16, 6, 0, 3, 4, 2],
// CHECK-NEXT: [1, 0, 1, 3, 0, 0, 0, 3, 2, 16, 7, 0, 3, 4, 2],
// CHECK-NEXT: [1, 0, 1, 0, 1, 0, 0, 4, 2, 16, 4, 1, 3, 4, 2],
// CHECK-NEXT: [1, 0, 1, 1, 1, 0, 0, 5, 2, 16, 5, 1, 3, 4, 2],
// CHECK-NEXT: [1, 0, 1, 2, 1, 0, 0, 6, 2, 16, 6, 1, 3, 4, 2],
// CHECK-NEXT: [1, 0, 1, 3, 1, 0, 0, 7, 2, 16, 7, 1, 3, 4, 2],
// CHECK-NEXT: [1, 0, 1, 0, 0, 1, 0, 8, 2, 16, 4, 0, 4, 4, 2],
// CHECK-NEXT: [1, 0, 1, 1, 0, 1, 0, 9, 2, 16, 5, 0, 4, 4, 2],
// CHECK-NEXT: [1, 0, 1, 2, 0, 1, 0, 10, 2, 16, 6, 0, 4, 4, 2],
// CHECK-NEXT: [1, 0, 1, 3, 0, 1, 0, 11, 2, 16, 7, 0, 4, 4, 2],
// CHECK-NEXT: [1, 0, 1, 0, 1, 1, 0, 12, 2, 16, 4, 1, 4, 4, 2],
// CHECK-NEXT: [1, 0, 1, 1, 1, 1, 0, 13, 2, 16, 5, 1, 4, 4, 2],
// CHECK-NEXT: [1, 0, 1, 2, 1, 1, 0, 14, 2, 16, 6, 1, 4, 4, 2],
// CHECK-NEXT: [1, 0, 1, 3, 1, 1, 0, 15, 2, 16, 7, 1, 4, 4, 2],
// CHECK-NEXT: [1, 0, 1, 0, 0, 2, 1, 0, 2, 16, 4, 0, 5, 4, 2],
// CHECK-NEXT: [1, 0, 1, 1, 0, 2, 1, 1, 2, 16, 5, 0, 5, 4, 2],
// CHECK-NEXT: [1, 0, 1, 2, 0, 2, 1, 2, 2, 16, 6, 0, 5, 4, 2],
// CHECK-NEXT: [1, 0, 1, 3, 0, 2, 1, 3, 2, 16, 7, 0, 5, 4, 2],
// CHECK-NEXT: [1, 0, 1, 0, 1, 2, 1, 4, 2, 16, 4, 1, 5, 4, 2],
// CHECK-NEXT: [1, 0, 1, 1, 1, 2, 1, 5, 2, 16, 5, 1, 5, 4, 2],
// CHECK-NEXT: [1, 0, 1, 2, 1, 2, 1, 6, 2, 16, 6, 1, 5, 4, 2],
// CHECK-NEXT: [1, 0, 1, 3, 1, 2, 1, 7, 2, 16, 7, 1, 5, 4, 2]]]
