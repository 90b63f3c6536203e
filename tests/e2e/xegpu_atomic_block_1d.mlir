// xegpu.atomic_rmw in today's form: on a rank-1 *block* descriptor (upstream-xegpu-xevm.md §2.12: element i of the
// descriptor's tile, counted from its base, is updated with value[i] where mask[i]; the result holds the old values).
// Subgroup level, 16 lanes, every mask flag set (the upstream lowering ignores the mask: atomics.honour_mask).
// Kernel @acc, 4 workgroups: workgroup w loads v = src[16w : 16w+16] (src[n] = n) and does
//   addf  on hist (f32, starts 0):         hist[i] = sum_w (16w + i)        = 96 + 4i
//   addi  on cnt (i32, starts 1000):       cnt[i]  = 1000 + sum_w (w+1)·i   = 1000 + 10i
//   maxs  on mx (i32, starts -5):          mx[i]   = max(-5, max_w (7w - i)) = max(-5, 21 - i)
// Kernel @old, 1 workgroup: a descriptor made with the legacy offsets form at element 8 of buf (buf[n] = n, 32
// elements): `assign` writes 100 + i to buf[8 + i] and returns the old values 8 + i (the tile starts at the
// descriptor's block start, i.e. its offsets, as for load_nd).
// Expected values (numpy): hist = 96 + 4*arange(16); cnt = 1000 + 10*arange(16); mx = maximum(-5, 21 - arange(16));
//   buf = arange(32); old = buf[8:24].copy(); buf[8:24] = 100 + arange(16)
// RUN: xesim run %s | filecheck %s

module @atomic_block attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @acc(%src: memref<64xf32>, %srci: memref<64xi32>, %hist: memref<16xf32>, %cnt: memref<16xi32>, %mx: memref<16xi32>) kernel {
      %w = gpu.block_id x
      %c16 = arith.constant 16 : index
      %off = arith.muli %w, %c16 : index
      %m = arith.constant dense<true> : vector<16xi1>
      %ts = xegpu.create_nd_tdesc %src : memref<64xf32> -> !xegpu.tensor_desc<16xf32>
      %v = xegpu.load_nd %ts[%off] : !xegpu.tensor_desc<16xf32> -> vector<16xf32>
      %th = xegpu.create_nd_tdesc %hist : memref<16xf32> -> !xegpu.tensor_desc<16xf32>
      %o1 = xegpu.atomic_rmw addf %th, %m, %v : !xegpu.tensor_desc<16xf32>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
      %tsi = xegpu.create_nd_tdesc %srci : memref<64xi32> -> !xegpu.tensor_desc<16xi32>
      %vi = xegpu.load_nd %tsi[%off] : !xegpu.tensor_desc<16xi32> -> vector<16xi32>
      %tc = xegpu.create_nd_tdesc %cnt : memref<16xi32> -> !xegpu.tensor_desc<16xi32>
      %o2 = xegpu.atomic_rmw addi %tc, %m, %vi : !xegpu.tensor_desc<16xi32>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      %tm = xegpu.create_nd_tdesc %mx : memref<16xi32> -> !xegpu.tensor_desc<16xi32>
      %vm = xegpu.load_nd %tsi[%off] : !xegpu.tensor_desc<16xi32> -> vector<16xi32>
      %c7 = arith.constant 7 : i32
      %wi = arith.index_cast %w : index to i32
      %w7 = arith.muli %wi, %c7 : i32
      %bw = vector.broadcast %w7 : i32 to vector<16xi32>
      %lanes = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xi32>
      %vx = arith.subi %bw, %lanes : vector<16xi32>
      %o3 = xegpu.atomic_rmw maxs %tm, %m, %vx : !xegpu.tensor_desc<16xi32>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      gpu.return
    }
    gpu.func @old(%buf: memref<32xf32>, %out: memref<16xf32>) kernel {
      %m = arith.constant dense<true> : vector<16xi1>
      %v = arith.constant dense<[100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0, 112.0, 113.0, 114.0, 115.0]> : vector<16xf32>
      %t = xegpu.create_nd_tdesc %buf[8] : memref<32xf32> -> !xegpu.tensor_desc<16xf32>
      %o = xegpu.atomic_rmw assign %t, %m, %v : !xegpu.tensor_desc<16xf32>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
      %to = xegpu.create_nd_tdesc %out : memref<16xf32> -> !xegpu.tensor_desc<16xf32>
      xegpu.store_nd %o, %to[0] : vector<16xf32>, !xegpu.tensor_desc<16xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %f0 = arith.constant 0.0 : f32
    %i1000 = arith.constant 1000 : i32
    %im5 = arith.constant -5 : i32
    %S = memref.alloc() : memref<64xf32>
    %Si = memref.alloc() : memref<64xi32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %S[%i] : memref<64xf32>
      %w = arith.divui %i, %c16 : index
      %w1 = arith.addi %w, %c1 : index
      %l = arith.remui %i, %c16 : index
      %p = arith.muli %w1, %l : index
      %pi = arith.index_cast %p : index to i32
      memref.store %pi, %Si[%i] : memref<64xi32>
    }
    %H = memref.alloc() : memref<16xf32>
    %C = memref.alloc() : memref<16xi32>
    %M = memref.alloc() : memref<16xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %f0, %H[%i] : memref<16xf32>
      memref.store %i1000, %C[%i] : memref<16xi32>
      memref.store %im5, %M[%i] : memref<16xi32>
    }
    %dS = gpu.alloc () : memref<64xf32>
    %dSi = gpu.alloc () : memref<64xi32>
    %dH = gpu.alloc () : memref<16xf32>
    %dC = gpu.alloc () : memref<16xi32>
    %dM = gpu.alloc () : memref<16xi32>
    gpu.memcpy %dS, %S : memref<64xf32>, memref<64xf32>
    gpu.memcpy %dSi, %Si : memref<64xi32>, memref<64xi32>
    gpu.memcpy %dH, %H : memref<16xf32>, memref<16xf32>
    gpu.memcpy %dC, %C : memref<16xi32>, memref<16xi32>
    gpu.memcpy %dM, %M : memref<16xi32>, memref<16xi32>
    gpu.launch_func @kernels::@acc blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%dS : memref<64xf32>, %dSi : memref<64xi32>, %dH : memref<16xf32>, %dC : memref<16xi32>, %dM : memref<16xi32>)
    gpu.memcpy %H, %dH : memref<16xf32>, memref<16xf32>
    gpu.memcpy %C, %dC : memref<16xi32>, memref<16xi32>
    gpu.memcpy %M, %dM : memref<16xi32>, memref<16xi32>
    %hu = memref.cast %H : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%hu) : (memref<*xf32>) -> ()
    %cu = memref.cast %C : memref<16xi32> to memref<*xi32>
    call @printMemrefI32(%cu) : (memref<*xi32>) -> ()
    %mu = memref.cast %M : memref<16xi32> to memref<*xi32>
    call @printMemrefI32(%mu) : (memref<*xi32>) -> ()
    %B = memref.alloc() : memref<32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %B[%i] : memref<32xf32>
    }
    %dB = gpu.alloc () : memref<32xf32>
    %dO = gpu.alloc () : memref<16xf32>
    gpu.memcpy %dB, %B : memref<32xf32>, memref<32xf32>
    gpu.launch_func @kernels::@old blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dB : memref<32xf32>, %dO : memref<16xf32>)
    %O = memref.alloc() : memref<16xf32>
    gpu.memcpy %B, %dB : memref<32xf32>, memref<32xf32>
    gpu.memcpy %O, %dO : memref<16xf32>, memref<16xf32>
    %bu = memref.cast %B : memref<32xf32> to memref<*xf32>
    call @printMemrefF32(%bu) : (memref<*xf32>) -> ()
    %ou = memref.cast %O : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%ou) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(%p : memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(%p : memref<*xi32>) attributes {llvm.emit_c_interface}
}

// CHECK: sizes = [16] strides = [1] data =
// CHECK-NEXT: [96,  100,  104,  108,  112,  116,  120,  124,  128,  132,  136,  140,  144,  148,  152,  156]
// CHECK: sizes = [16] strides = [1] data =
// CHECK-NEXT: [1000,  1010,  1020,  1030,  1040,  1050,  1060,  1070,  1080,  1090,  1100,  1110,  1120,  1130,  1140,  1150]
// CHECK: sizes = [16] strides = [1] data =
// CHECK-NEXT: [21,  20,  19,  18,  17,  16,  15,  14,  13,  12,  11,  10,  9,  8,  7,  6]
// CHECK: sizes = [32] strides = [1] data =
// CHECK-NEXT: [0,  1,  2,  3,  4,  5,  6,  7,  100,  101,  102,  103,  104,  105,  106,  107,  108,  109,  110,  111,  112,  113,  114,  115,  24,  25,  26,  27,  28,  29,  30,  31]
// CHECK: sizes = [16] strides = [1] data =
// CHECK-NEXT: [8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23]
