// Lane-level (SIMT) divergence (issue 5): every work-item runs the kernel; xesim runs one subgroup at a time with
// an active-lane mask (spec/programs-and-runner.md §3.2 SIMT).  Expected values derived by hand:
// 1. scf.if on the lane id: even lanes store 10 * lane, odd lanes take the else branch and store -1.
// 2. scf.for with a per-lane trip count (0 to lane): sum of 0..lane-1 = lane * (lane - 1) / 2.
// 3. scf.while with a per-lane condition: x = lane; while x > 0 { x -= 3; n += 1 } gives n = ceil(lane / 3).
// 4. A reduction through gpu.shuffle xor (offsets 8, 4, 2, 1) of lane + 1: every lane gets 1 + ... + 16 = 136.
// 5. gpu.shuffle down by 1 with width 16: lane l gets l + 1 from lane l + 1; lane 15's source (16) is outside the
//    width, so its valid flag is 0 (stored as valid * 100 + value; lane 15 keeps its own value, 15).
// 6. A partial subgroup: 20 work-items = subgroup 0 (16 lanes) + subgroup 1 (4 lanes); each stores its global id.
// RUN: xesim run %s | filecheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @diverge(%o1: memref<16xi32>, %o2: memref<16xi32>, %o3: memref<16xi32>, %o4: memref<16xi32>,
                      %o5: memref<16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c3_i32 = arith.constant 3 : i32
      %c10_i32 = arith.constant 10 : i32
      %c100_i32 = arith.constant 100 : i32
      %m1 = arith.constant -1 : i32
      %lane = gpu.lane_id
      %l32 = arith.index_cast %lane : index to i32
      // 1. divergent scf.if with results
      %par = arith.remui %lane, %c2 : index
      %even = arith.cmpi eq, %par, %c0 : index
      %v1 = scf.if %even -> (i32) {
        %t = arith.muli %l32, %c10_i32 : i32
        scf.yield %t : i32
      } else {
        scf.yield %m1 : i32
      }
      memref.store %v1, %o1[%lane] : memref<16xi32>
      // 2. per-lane trip count
      %s = scf.for %i = %c0 to %lane step %c1 iter_args(%acc = %c0_i32) -> (i32) {
        %i32 = arith.index_cast %i : index to i32
        %n = arith.addi %acc, %i32 : i32
        scf.yield %n : i32
      }
      memref.store %s, %o2[%lane] : memref<16xi32>
      // 3. per-lane while
      %r:2 = scf.while (%x = %l32, %cnt = %c0_i32) : (i32, i32) -> (i32, i32) {
        %more = arith.cmpi sgt, %x, %c0_i32 : i32
        scf.condition(%more) %x, %cnt : i32, i32
      } do {
      ^bb0(%x2: i32, %cnt2: i32):
        %x3 = arith.subi %x2, %c3_i32 : i32
        %cnt3 = arith.addi %cnt2, %c1_i32 : i32
        scf.yield %x3, %cnt3 : i32, i32
      }
      memref.store %r#1, %o3[%lane] : memref<16xi32>
      // 4. butterfly reduction
      %w = arith.constant 16 : i32
      %one = arith.constant 1 : i32
      %v = arith.addi %l32, %one : i32
      %o8 = arith.constant 8 : i32
      %o4c = arith.constant 4 : i32
      %o2c = arith.constant 2 : i32
      %x8, %ok8 = gpu.shuffle xor %v, %o8, %w : i32
      %a8 = arith.addi %v, %x8 : i32
      %x4, %ok4 = gpu.shuffle xor %a8, %o4c, %w : i32
      %a4 = arith.addi %a8, %x4 : i32
      %x2, %ok2 = gpu.shuffle xor %a4, %o2c, %w : i32
      %a2 = arith.addi %a4, %x2 : i32
      %x1, %ok1 = gpu.shuffle xor %a2, %one, %w : i32
      %a1 = arith.addi %a2, %x1 : i32
      memref.store %a1, %o4[%lane] : memref<16xi32>
      // 5. shuffle down with the valid flag
      %d, %dok = gpu.shuffle down %l32, %one, %w : i32
      %dok32 = arith.extui %dok : i1 to i32
      %dv = arith.muli %dok32, %c100_i32 : i32
      %dd = arith.addi %dv, %d : i32
      memref.store %dd, %o5[%lane] : memref<16xi32>
      gpu.return
    }
    gpu.func @partial(%o: memref<20xi32>) kernel {
      %g = gpu.global_id x
      %g32 = arith.index_cast %g : index to i32
      memref.store %g32, %o[%g] : memref<20xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c20 = arith.constant 20 : index
    %o1 = gpu.alloc () : memref<16xi32>
    %o2 = gpu.alloc () : memref<16xi32>
    %o3 = gpu.alloc () : memref<16xi32>
    %o4 = gpu.alloc () : memref<16xi32>
    %o5 = gpu.alloc () : memref<16xi32>
    %o6 = gpu.alloc () : memref<20xi32>
    gpu.launch_func @kernels::@diverge blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%o1 : memref<16xi32>, %o2 : memref<16xi32>, %o3 : memref<16xi32>, %o4 : memref<16xi32>, %o5 : memref<16xi32>)
    gpu.launch_func @kernels::@partial blocks in (%c1, %c1, %c1) threads in (%c20, %c1, %c1) args(%o6 : memref<20xi32>)
    %h1 = memref.cast %o1 : memref<16xi32> to memref<*xi32>
    %h2 = memref.cast %o2 : memref<16xi32> to memref<*xi32>
    %h3 = memref.cast %o3 : memref<16xi32> to memref<*xi32>
    %h4 = memref.cast %o4 : memref<16xi32> to memref<*xi32>
    %h5 = memref.cast %o5 : memref<16xi32> to memref<*xi32>
    %h6 = memref.cast %o6 : memref<20xi32> to memref<*xi32>
    call @printMemrefI32(%h1) : (memref<*xi32>) -> ()
    call @printMemrefI32(%h2) : (memref<*xi32>) -> ()
    call @printMemrefI32(%h3) : (memref<*xi32>) -> ()
    call @printMemrefI32(%h4) : (memref<*xi32>) -> ()
    call @printMemrefI32(%h5) : (memref<*xi32>) -> ()
    call @printMemrefI32(%h6) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
}

// CHECK: data =
// CHECK-NEXT: [0,  -1,  20,  -1,  40,  -1,  60,  -1,  80,  -1,  100,  -1,  120,  -1,  140,  -1]
// CHECK: data =
// CHECK-NEXT: [0,  0,  1,  3,  6,  10,  15,  21,  28,  36,  45,  55,  66,  78,  91,  105]
// CHECK: data =
// CHECK-NEXT: [0,  1,  1,  1,  2,  2,  2,  3,  3,  3,  4,  4,  4,  5,  5,  5]
// CHECK: data =
// CHECK-NEXT: [136,  136,  136,  136,  136,  136,  136,  136,  136,  136,  136,  136,  136,  136,  136,  136]
// CHECK: data =
// CHECK-NEXT: [101,  102,  103,  104,  105,  106,  107,  108,  109,  110,  111,  112,  113,  114,  115,  15]
// CHECK: data =
// CHECK-NEXT: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19]
