// Subgroup-level 2D block loads and stores with out-of-bounds parts (upstream syntax, offsets on the ops).
// S is 16x32 f32 with S[i][j] = 100*i + j (a 128-byte-wide surface).
// 1. load 8x16 at [12, 24]: rows 16..19 and columns 32..39 are outside S and read 0 (spec/pvc-hardware.md §1.4).
// 2. load 8x16 at [-2, -4]: negative offsets are signed; rows -2, -1 and columns -4..-1 read 0.
// 3. a 16x16 tile loaded from S at [0, 0] (one 16-row message) is stored at [4, 8] into a zero 12x20 buffer:
//    a 16-row f32 store is split into two 8-row messages; rows 12..15 of the buffer and columns 20..23 are
//    outside it and are dropped, so out3[r][c] = S[r-4][c-8] for 4 <= r < 12, 8 <= c < 20, else 0.
// Expected values (numpy, derived from the rules above, not from xesim):
//   S = 100*np.arange(16)[:,None] + np.arange(32)[None,:]
//   def win(y, x): return np.array([[S[i][j] if 0<=i<16 and 0<=j<32 else 0 for j in range(x, x+16)] for i in range(y, y+8)])
//   out1 = win(12, 24); out2 = win(-2, -4)
//   out3 = np.zeros((12, 20)); out3[4:12, 8:20] = S[0:8, 0:12]
// RUN: xesim run %s | filecheck %s

module @sg_plain attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%s: memref<16x32xf32>, %o1: memref<8x16xf32>, %o2: memref<8x16xf32>, %o3: memref<12x20xf32>) kernel {
      %ts = xegpu.create_nd_tdesc %s : memref<16x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      %t1 = xegpu.create_nd_tdesc %o1 : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %t2 = xegpu.create_nd_tdesc %o2 : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %a = xegpu.load_nd %ts[12, 24] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      xegpu.store_nd %a, %t1[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      %c0 = arith.constant 0 : index
      %cm2 = arith.constant -2 : index
      %cm4 = arith.constant -4 : index
      %b = xegpu.load_nd %ts[%cm2, %cm4] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      xegpu.store_nd %b, %t2[%c0, %c0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      %ts16 = xegpu.create_nd_tdesc %s : memref<16x32xf32> -> !xegpu.tensor_desc<16x16xf32>
      %c = xegpu.load_nd %ts16[0, 0] : !xegpu.tensor_desc<16x16xf32> -> vector<16x16xf32>
      %t3 = xegpu.create_nd_tdesc %o3 : memref<12x20xf32> -> !xegpu.tensor_desc<16x16xf32>
      xegpu.store_nd %c, %t3[4, 8] <{l1_hint = #xegpu.cache_hint<write_back>}> : vector<16x16xf32>, !xegpu.tensor_desc<16x16xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c100 = arith.constant 100 : index
    %S = memref.alloc() : memref<16x32xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %r = arith.muli %i, %c100 : index
        %v = arith.addi %r, %j : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        memref.store %vf, %S[%i, %j] : memref<16x32xf32>
      }
    }
    %dS = gpu.alloc () : memref<16x32xf32>
    %d1 = gpu.alloc () : memref<8x16xf32>
    %d2 = gpu.alloc () : memref<8x16xf32>
    %d3 = gpu.alloc () : memref<12x20xf32>
    gpu.memcpy %dS, %S : memref<16x32xf32>, memref<16x32xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dS : memref<16x32xf32>, %d1 : memref<8x16xf32>, %d2 : memref<8x16xf32>, %d3 : memref<12x20xf32>)
    %O1 = memref.alloc() : memref<8x16xf32>
    %O2 = memref.alloc() : memref<8x16xf32>
    %O3 = memref.alloc() : memref<12x20xf32>
    gpu.memcpy %O1, %d1 : memref<8x16xf32>, memref<8x16xf32>
    gpu.memcpy %O2, %d2 : memref<8x16xf32>, memref<8x16xf32>
    gpu.memcpy %O3, %d3 : memref<12x20xf32>, memref<12x20xf32>
    %p1 = memref.cast %O1 : memref<8x16xf32> to memref<*xf32>
    %p2 = memref.cast %O2 : memref<8x16xf32> to memref<*xf32>
    %p3 = memref.cast %O3 : memref<12x20xf32> to memref<*xf32>
    call @printMemrefF32(%p1) : (memref<*xf32>) -> ()
    call @printMemrefF32(%p2) : (memref<*xf32>) -> ()
    call @printMemrefF32(%p3) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}1224,   1225,   1226,   1227,   1228,   1229,   1230,   1231,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [1324,   1325,   1326,   1327,   1328,   1329,   1330,   1331,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [1424,   1425,   1426,   1427,   1428,   1429,   1430,   1431,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [1524,   1525,   1526,   1527,   1528,   1529,   1530,   1531,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,   11],
// CHECK-NEXT:  [0,   0,   0,   0,   100,   101,   102,   103,   104,   105,   106,   107,   108,   109,   110,   111],
// CHECK-NEXT:  [0,   0,   0,   0,   200,   201,   202,   203,   204,   205,   206,   207,   208,   209,   210,   211],
// CHECK-NEXT:  [0,   0,   0,   0,   300,   301,   302,   303,   304,   305,   306,   307,   308,   309,   310,   311],
// CHECK-NEXT:  [0,   0,   0,   0,   400,   401,   402,   403,   404,   405,   406,   407,   408,   409,   410,   411],
// CHECK-NEXT:  [0,   0,   0,   0,   500,   501,   502,   503,   504,   505,   506,   507,   508,   509,   510,   511]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [12, 20] strides = [20, 1] data =
// CHECK-NEXT: {{\[\[}}0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,   11],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   100,   101,   102,   103,   104,   105,   106,   107,   108,   109,   110,   111],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   200,   201,   202,   203,   204,   205,   206,   207,   208,   209,   210,   211],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   300,   301,   302,   303,   304,   305,   306,   307,   308,   309,   310,   311],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   400,   401,   402,   403,   404,   405,   406,   407,   408,   409,   410,   411],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   500,   501,   502,   503,   504,   505,   506,   507,   508,   509,   510,   511],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   600,   601,   602,   603,   604,   605,   606,   607,   608,   609,   610,   611],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   700,   701,   702,   703,   704,   705,   706,   707,   708,   709,   710,   711]]
