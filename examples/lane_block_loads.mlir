// The lane-level (SIMT) form of sg_block_loads.mlir: the same three block loads written per work-item.
// 1. The padded 8x16 f32 load gives lane l column l (vector<8xf32>); stored back the same way.
// 2. The transposed load of a 16x8 f32 block gives lane l row l of the block (vector<8xf32>) = column l of the
//    transposed tile, which the 8x16 store writes to column l.
// 3. The packed 16x16 f16 load gives lane n column n of the block (vector<16xf16>, H[0..15][8 + n]). The SG form
//    stores the 8x16x2 VNNI value flattened to 16x16: flat[2k + q][j] = H[2k + j mod 2][8 + 8q + j / 2]. Per lane
//    that is a cross-lane exchange: lane j fetches components 2k and 2k + 1 from lane 8q + j / 2 with
//    gpu.shuffle idx and keeps the one for its parity.
// It prints exactly what the SG form prints (tests/unit/test_lane_level.py compares the two); the CHECK lines
// are those of the SG form, derived by hand.
// RUN: xesim run %s | filecheck %s

module @lane_block_loads attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @loads(%src: memref<8x16xf32>, %t: memref<16x16xf32>, %h: memref<16x32xf16>,
                    %out1: memref<8x16xf32>, %out2: memref<8x16xf32>, %out3: memref<16x32xf16>) kernel {
      %src_td = xegpu.create_nd_tdesc %src : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %o1_td = xegpu.create_nd_tdesc %out1 : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %padded = xegpu.load_nd %src_td[4, 8] : !xegpu.tensor_desc<8x16xf32> -> vector<8xf32>
      xegpu.store_nd %padded, %o1_td[0, 0] : vector<8xf32>, !xegpu.tensor_desc<8x16xf32>

      %t_td = xegpu.create_nd_tdesc %t : memref<16x16xf32> -> !xegpu.tensor_desc<16x8xf32>
      %o2_td = xegpu.create_nd_tdesc %out2 : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %tr = xegpu.load_nd %t_td[0, 4] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x8xf32> -> vector<8xf32>
      xegpu.store_nd %tr, %o2_td[0, 0] : vector<8xf32>, !xegpu.tensor_desc<8x16xf32>

      %h_td = xegpu.create_nd_tdesc %h : memref<16x32xf16> -> !xegpu.tensor_desc<16x16xf16>
      %o3_td = xegpu.create_nd_tdesc %out3 : memref<16x32xf16> -> !xegpu.tensor_desc<8x16xf16>
      %frag = xegpu.load_nd %h_td[0, 8] <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<16xf16>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %width = arith.constant 16 : i32
      %lane = gpu.lane_id
      %half = arith.divui %lane, %c2 : index
      %parity = arith.remui %lane, %c2 : index
      %odd = arith.cmpi eq, %parity, %c1 : index
      %init = arith.constant dense<0.000000e+00> : vector<16xf16>
      %flat = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (vector<16xf16>) {
        %k = arith.divui %i, %c2 : index
        %q = arith.remui %i, %c2 : index
        %k2 = arith.muli %k, %c2 : index
        %k2p1 = arith.addi %k2, %c1 : index
        %even_v = vector.extract %frag[%k2] : f16 from vector<16xf16>
        %odd_v = vector.extract %frag[%k2p1] : f16 from vector<16xf16>
        %q8 = arith.muli %q, %c8 : index
        %src_lane = arith.addi %q8, %half : index
        %src_i32 = arith.index_cast %src_lane : index to i32
        %from_even, %ok0 = gpu.shuffle idx %even_v, %src_i32, %width : f16
        %from_odd, %ok1 = gpu.shuffle idx %odd_v, %src_i32, %width : f16
        %mine = arith.select %odd, %from_odd, %from_even : f16
        %next = vector.insert %mine, %acc [%i] : f16 into vector<16xf16>
        scf.yield %next : vector<16xf16>
      }
      %top = vector.extract_strided_slice %flat {offsets = [0], sizes = [8], strides = [1]} : vector<16xf16> to vector<8xf16>
      %bottom = vector.extract_strided_slice %flat {offsets = [8], sizes = [8], strides = [1]} : vector<16xf16> to vector<8xf16>
      xegpu.store_nd %top, %o3_td[0, 0] : vector<8xf16>, !xegpu.tensor_desc<8x16xf16>
      xegpu.store_nd %bottom, %o3_td[8, 0] : vector<8xf16>, !xegpu.tensor_desc<8x16xf16>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %S = memref.alloc() : memref<8x16xf32>
    %T = memref.alloc() : memref<16x16xf32>
    %H = memref.alloc() : memref<16x32xf16>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %row = arith.muli %i, %c16 : index
        %v = arith.addi %row, %j : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        memref.store %vf, %T[%i, %j] : memref<16x16xf32>
        %in_s = arith.cmpi ult, %i, %c8 : index
        scf.if %in_s {
          memref.store %vf, %S[%i, %j] : memref<8x16xf32>
        }
      }
      scf.for %j = %c0 to %c32 step %c1 {
        %row = arith.muli %i, %c32 : index
        %v = arith.addi %row, %j : index
        %m = arith.remui %v, %c256 : index
        %mi = arith.index_cast %m : index to i32
        %mf = arith.sitofp %mi : i32 to f16
        memref.store %mf, %H[%i, %j] : memref<16x32xf16>
      }
    }
    %dS = gpu.alloc () : memref<8x16xf32>
    %dT = gpu.alloc () : memref<16x16xf32>
    %dH = gpu.alloc () : memref<16x32xf16>
    %d1 = gpu.alloc () : memref<8x16xf32>
    %d2 = gpu.alloc () : memref<8x16xf32>
    %d3 = gpu.alloc () : memref<16x32xf16>
    gpu.memcpy %dS, %S : memref<8x16xf32>, memref<8x16xf32>
    gpu.memcpy %dT, %T : memref<16x16xf32>, memref<16x16xf32>
    gpu.memcpy %dH, %H : memref<16x32xf16>, memref<16x32xf16>
    gpu.launch_func @kernels::@loads blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dS : memref<8x16xf32>, %dT : memref<16x16xf32>, %dH : memref<16x32xf16>, %d1 : memref<8x16xf32>, %d2 : memref<8x16xf32>, %d3 : memref<16x32xf16>)
    gpu.wait
    %O1 = memref.alloc() : memref<8x16xf32>
    %O2 = memref.alloc() : memref<8x16xf32>
    %O3 = memref.alloc() : memref<16x32xf16>
    gpu.memcpy %O1, %d1 : memref<8x16xf32>, memref<8x16xf32>
    gpu.memcpy %O2, %d2 : memref<8x16xf32>, memref<8x16xf32>
    gpu.memcpy %O3, %d3 : memref<16x32xf16>, memref<16x32xf16>
    %p1 = memref.cast %O1 : memref<8x16xf32> to memref<*xf32>
    %p2 = memref.cast %O2 : memref<8x16xf32> to memref<*xf32>
    %p3 = memref.cast %O3 : memref<16x32xf16> to memref<*xf16>
    call @printMemrefF32(%p1) : (memref<*xf32>) -> ()
    call @printMemrefF32(%p2) : (memref<*xf32>) -> ()
    call @printMemrefF16(%p3) : (memref<*xf16>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}72,   73,   74,   75,   76,   77,   78,   79,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [88,   89,   90,   91,   92,   93,   94,   95,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [104,   105,   106,   107,   108,   109,   110,   111,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [120,   121,   122,   123,   124,   125,   126,   127,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}4,   20,   36,   52,   68,   84,   100,   116,   132,   148,   164,   180,   196,   212,   228,   244],
// CHECK-NEXT:  [5,   21,   37,   53,   69,   85,   101,   117,   133,   149,   165,   181,   197,   213,   229,   245],
// CHECK-NEXT:  [6,   22,   38,   54,   70,   86,   102,   118,   134,   150,   166,   182,   198,   214,   230,   246],
// CHECK-NEXT:  [7,   23,   39,   55,   71,   87,   103,   119,   135,   151,   167,   183,   199,   215,   231,   247],
// CHECK-NEXT:  [8,   24,   40,   56,   72,   88,   104,   120,   136,   152,   168,   184,   200,   216,   232,   248],
// CHECK-NEXT:  [9,   25,   41,   57,   73,   89,   105,   121,   137,   153,   169,   185,   201,   217,   233,   249],
// CHECK-NEXT:  [10,   26,   42,   58,   74,   90,   106,   122,   138,   154,   170,   186,   202,   218,   234,   250],
// CHECK-NEXT:  [11,   27,   43,   59,   75,   91,   107,   123,   139,   155,   171,   187,   203,   219,   235,   251]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}8,   40,   9,   41,   10,   42,   11,   43,   12,   44,   13,   45,   14,   46,   15,   47,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [16,   48,   17,   49,   18,   50,   19,   51,   20,   52,   21,   53,   22,   54,   23,   55,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [72,   104,   73,   105,   74,   106,   75,   107,   76,   108,   77,   109,   78,   110,   79,   111,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [80,   112,   81,   113,   82,   114,   83,   115,   84,   116,   85,   117,   86,   118,   87,   119,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [136,   168,   137,   169,   138,   170,   139,   171,   140,   172,   141,   173,   142,   174,   143,   175,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [144,   176,   145,   177,   146,   178,   147,   179,   148,   180,   149,   181,   150,   182,   151,   183,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [200,   232,   201,   233,   202,   234,   203,   235,   204,   236,   205,   237,   206,   238,   207,   239,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [208,   240,   209,   241,   210,   242,   211,   243,   212,   244,   213,   245,   214,   246,   215,   247,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [8,   40,   9,   41,   10,   42,   11,   43,   12,   44,   13,   45,   14,   46,   15,   47,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [16,   48,   17,   49,   18,   50,   19,   51,   20,   52,   21,   53,   22,   54,   23,   55,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [72,   104,   73,   105,   74,   106,   75,   107,   76,   108,   77,   109,   78,   110,   79,   111,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [80,   112,   81,   113,   82,   114,   83,   115,   84,   116,   85,   117,   86,   118,   87,   119,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [136,   168,   137,   169,   138,   170,   139,   171,   140,   172,   141,   173,   142,   174,   143,   175,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [144,   176,   145,   177,   146,   178,   147,   179,   148,   180,   149,   181,   150,   182,   151,   183,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [200,   232,   201,   233,   202,   234,   203,   235,   204,   236,   205,   237,   206,   238,   207,   239,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [208,   240,   209,   241,   210,   242,   211,   243,   212,   244,   213,   245,   214,   246,   215,   247,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0]]
