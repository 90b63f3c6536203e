// The XeVM form of lane_gemm_f16.mlir, written by hand as upstream's XeGPU-to-XeVM conversion lowers it
// (shared/spec/upstream-xegpu-xevm.md §4): each memref argument becomes a global pointer
// (memref.extract_aligned_pointer_as_index -> llvm.inttoptr), each load_nd / store_nd a 2D block message on the
// whole surface (base width and pitch in bytes, x / y = the descriptor offsets, the packed B load with
// pack_register), the dpas an xevm.mma on the i16 / i32 containers, the store's write_back L1 hint the cache
// control L1wb_L2uc_L3wb (§4.0).  It prints exactly what the XeGPU form prints (tests/unit/test_xevm_lowering.py
// runs both under xesim run --compare-with); the CHECK lines are those of the XeGPU form.
// RUN: xesim run %s | filecheck %s

module @xevm_gemm attributes {gpu.container_module} {
  gpu.module @kernels [#xevm.target<chip = "pvc">] {
    gpu.func @gemm(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %c: memref<32x32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %m = arith.muli %bx, %c8 : index
      %n = arith.muli %by, %c16 : index
      %m32 = arith.index_cast %m : index to i32
      %n32 = arith.index_cast %n : index to i32
      %a_i = memref.extract_aligned_pointer_as_index %a : memref<32x32xf16> -> index
      %a_64 = arith.index_cast %a_i : index to i64
      %pa = llvm.inttoptr %a_64 : i64 to !llvm.ptr<1>
      %b_i = memref.extract_aligned_pointer_as_index %b : memref<32x32xf16> -> index
      %b_64 = arith.index_cast %b_i : index to i64
      %pb = llvm.inttoptr %b_64 : i64 to !llvm.ptr<1>
      %c_i = memref.extract_aligned_pointer_as_index %c : memref<32x32xf32> -> index
      %c_64 = arith.index_cast %c_i : index to i64
      %pc = llvm.inttoptr %c_64 : i64 to !llvm.ptr<1>
      %w16 = llvm.mlir.constant(64 : i32) : i32
      %w32 = llvm.mlir.constant(128 : i32) : i32
      %h = llvm.mlir.constant(32 : i32) : i32
      %zero = arith.constant dense<0.000000e+00> : vector<8xf32>
      %acc = scf.for %k = %c0 to %c32 step %c16 iter_args(%sum = %zero) -> (vector<8xf32>) {
        %k32 = arith.index_cast %k : index to i32
        %av = xevm.blockload2d %pa, %w16, %h, %w16, %k32, %m32 <{elem_size_in_bits = 16 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi16>
        %bv = xevm.blockload2d %pb, %w16, %h, %w16, %n32, %k32 <{elem_size_in_bits = 16 : i32, pack_register = true, tile_height = 16 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
        %d = xevm.mma %av, %bv, %sum {shape = <m = 8, n = 16, k = 16>, types = <d = f32, a = f16, b = f16, c = f32>} : (vector<8xi16>, vector<8xi32>, vector<8xf32>) -> vector<8xf32>
        scf.yield %d : vector<8xf32>
      }
      xevm.blockstore2d %pc, %w32, %h, %w32, %n32, %m32, %acc <{cache_control = #xevm.store_cache_control<L1wb_L2uc_L3wb>, elem_size_in_bits = 32 : i32, tile_height = 8 : i32, tile_width = 16 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xf32>)
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1.0 : f16
    %zero = arith.constant 0.0 : f16
    %A = memref.alloc() : memref<32x32xf16>
    %B = memref.alloc() : memref<32x32xf16>
    %C = memref.alloc() : memref<32x32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %s = arith.addi %i, %j : index
        %r = arith.remui %s, %c8 : index
        %r32 = arith.index_cast %r : index to i32
        %v = arith.sitofp %r32 : i32 to f16
        memref.store %v, %A[%i, %j] : memref<32x32xf16>
        %jm1 = arith.subi %j, %c1 : index
        %diag = arith.cmpi eq, %i, %j : index
        %super = arith.cmpi eq, %i, %jm1 : index
        %on = arith.ori %diag, %super : i1
        %bv = arith.select %on, %one, %zero : f16
        memref.store %bv, %B[%i, %j] : memref<32x32xf16>
      }
    }
    %dA = gpu.alloc () : memref<32x32xf16>
    %dB = gpu.alloc () : memref<32x32xf16>
    %dC = gpu.alloc () : memref<32x32xf32>
    gpu.memcpy %dA, %A : memref<32x32xf16>, memref<32x32xf16>
    gpu.memcpy %dB, %B : memref<32x32xf16>, memref<32x32xf16>
    gpu.launch_func @kernels::@gemm blocks in (%c4, %c2, %c1) threads in (%c16, %c1, %c1) args(%dA : memref<32x32xf16>, %dB : memref<32x32xf16>, %dC : memref<32x32xf32>)
    gpu.wait
    gpu.memcpy %C, %dC : memref<32x32xf32>, memref<32x32xf32>
    %cast = memref.cast %C : memref<32x32xf32> to memref<*xf32>
    call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
    gpu.dealloc %dA : memref<32x32xf16>
    gpu.dealloc %dB : memref<32x32xf16>
    gpu.dealloc %dC : memref<32x32xf32>
    memref.dealloc %A : memref<32x32xf16>
    memref.dealloc %B : memref<32x32xf16>
    memref.dealloc %C : memref<32x32xf32>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [32, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}0,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13],
// CHECK-NEXT:  [1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7],
// CHECK-NEXT:  [2,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1],
// CHECK-NEXT:  [3,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3],
// CHECK-NEXT:  [4,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5],
// CHECK-NEXT:  [5,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7],
// CHECK-NEXT:  [6,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9],
// CHECK-NEXT:  [7,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11],
// CHECK-NEXT:  [0,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13],
// CHECK-NEXT:  [1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7],
// CHECK-NEXT:  [2,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1],
// CHECK-NEXT:  [3,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3],
// CHECK-NEXT:  [4,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5],
// CHECK-NEXT:  [5,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7],
// CHECK-NEXT:  [6,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9],
// CHECK-NEXT:  [7,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11],
// CHECK-NEXT:  [0,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13],
// CHECK-NEXT:  [1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7],
// CHECK-NEXT:  [2,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1],
// CHECK-NEXT:  [3,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3],
// CHECK-NEXT:  [4,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5],
// CHECK-NEXT:  [5,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7],
// CHECK-NEXT:  [6,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9],
// CHECK-NEXT:  [7,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11],
// CHECK-NEXT:  [0,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13],
// CHECK-NEXT:  [1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7],
// CHECK-NEXT:  [2,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1],
// CHECK-NEXT:  [3,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3],
// CHECK-NEXT:  [4,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5],
// CHECK-NEXT:  [5,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7],
// CHECK-NEXT:  [6,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9],
// CHECK-NEXT:  [7,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11,   13,   7,   1,   3,   5,   7,   9,   11]]
