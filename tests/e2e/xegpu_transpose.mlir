// Transposed block loads.
// T is 16x32 f32, T[i][j] = 32*i + j; H is 32x32 f16, H[i][j] = (32*i + j) mod 2048.
// SG kernel @sg:
//  1. 16x8 f32 at [8, 26] with transpose = [1, 0] (a native 32-bit transposed message, spec §1.3): out is 8x16,
//     out[r][c] = T[8 + c][26 + r]; rows 16..23 of T and columns 32..33 are outside and read 0.
//  2. 16x16 f16 at [0, 4] with transpose = [1, 0] and no bit width: the transpose of the 16-bit tile,
//     out[r][c] = H[c][4 + r] (loaded as 32-bit transposed units and split back, spec §1.3 X2X).
// VC kernel @vc (legacy syntax, transpose_bit_width = 32 on 16-bit data, spec programs-and-runner §3.3):
//  3. 16x16 f16 at [16, 8]: R[k][n][p] = H[16 + n][8 + 2k + p], shape 8x16x2 (the VNNI form of the transpose).
//  4. 8x16 f16 at [2, 0]: R[k][n][p] = H[2 + n][2k + p], shape 8x8x2.
// Expected values (numpy):
//   T = 32*np.arange(16)[:,None] + np.arange(32); H = (32*np.arange(32)[:,None] + np.arange(32)) % 2048
//   Tp = np.zeros((24, 40)); Tp[:16, :32] = T
//   o1 = Tp[8:24, 26:34].T                                          # 8x16
//   o2 = H[0:16, 4:20].T                                            # 16x16
//   o3 = H[16:32, 8:24].reshape(16, 8, 2).transpose(1, 0, 2).reshape(8, 32)   # [k][n][p] flattened
//   o4 = H[2:10, 0:16].reshape(8, 8, 2).transpose(1, 0, 2).reshape(8, 16)
// RUN: xesim run %s | filecheck %s

module @transpose attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sg(%t: memref<16x32xf32>, %h: memref<32x32xf16>, %o1: memref<8x16xf32>, %o2: memref<16x16xf16>) kernel {
      %tt = xegpu.create_nd_tdesc %t : memref<16x32xf32> -> !xegpu.tensor_desc<16x8xf32>
      %a = xegpu.load_nd %tt[8, 26] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x8xf32> -> vector<8x16xf32>
      %t1 = xegpu.create_nd_tdesc %o1 : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      xegpu.store_nd %a, %t1[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      %th = xegpu.create_nd_tdesc %h : memref<32x32xf16> -> !xegpu.tensor_desc<16x16xf16>
      %b = xegpu.load_nd %th[0, 4] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x16xf16> -> vector<16x16xf16>
      %t2 = xegpu.create_nd_tdesc %o2 : memref<16x16xf16> -> !xegpu.tensor_desc<16x16xf16>
      xegpu.store_nd %b, %t2[0, 0] : vector<16x16xf16>, !xegpu.tensor_desc<16x16xf16>
      gpu.return
    }
    gpu.func @vc(%h: memref<32x32xf16>, %o3: memref<8x32xf16>, %o4: memref<8x16xf16>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %th = xegpu.create_nd_tdesc %h[%c16, %c8] : memref<32x32xf16> -> !xegpu.tensor_desc<16x16xf16>
      %r3 = xegpu.load_nd %th {transpose = [1, 0], transpose_bit_width = 32 : i32} : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
      %f3 = vector.shape_cast %r3 : vector<8x16x2xf16> to vector<8x32xf16>
      %t3 = xegpu.create_nd_tdesc %o3[%c0, %c0] : memref<8x32xf16> -> !xegpu.tensor_desc<8x32xf16>
      xegpu.store_nd %f3, %t3 : vector<8x32xf16>, !xegpu.tensor_desc<8x32xf16>
      %th4 = xegpu.create_nd_tdesc %h[%c2, %c0] : memref<32x32xf16> -> !xegpu.tensor_desc<8x16xf16>
      %r4 = xegpu.load_nd %th4 {transpose = [1, 0], transpose_bit_width = 32 : i32} : !xegpu.tensor_desc<8x16xf16> -> vector<8x8x2xf16>
      %f4 = vector.shape_cast %r4 : vector<8x8x2xf16> to vector<8x16xf16>
      %t4 = xegpu.create_nd_tdesc %o4[%c0, %c0] : memref<8x16xf16> -> !xegpu.tensor_desc<8x16xf16>
      xegpu.store_nd %f4, %t4 : vector<8x16xf16>, !xegpu.tensor_desc<8x16xf16>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c2048 = arith.constant 2048 : index
    %T = memref.alloc() : memref<16x32xf32>
    %H = memref.alloc() : memref<32x32xf16>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %r = arith.muli %i, %c32 : index
        %v = arith.addi %r, %j : index
        %m = arith.remui %v, %c2048 : index
        %mi = arith.index_cast %m : index to i32
        %mh = arith.sitofp %mi : i32 to f16
        memref.store %mh, %H[%i, %j] : memref<32x32xf16>
        %in_t = arith.cmpi ult, %i, %c16 : index
        scf.if %in_t {
          %vi = arith.index_cast %v : index to i32
          %vf = arith.sitofp %vi : i32 to f32
          memref.store %vf, %T[%i, %j] : memref<16x32xf32>
        }
      }
    }
    %dT = gpu.alloc () : memref<16x32xf32>
    %dH = gpu.alloc () : memref<32x32xf16>
    %d1 = gpu.alloc () : memref<8x16xf32>
    %d2 = gpu.alloc () : memref<16x16xf16>
    %d3 = gpu.alloc () : memref<8x32xf16>
    %d4 = gpu.alloc () : memref<8x16xf16>
    gpu.memcpy %dT, %T : memref<16x32xf32>, memref<16x32xf32>
    gpu.memcpy %dH, %H : memref<32x32xf16>, memref<32x32xf16>
    gpu.launch_func @kernels::@sg blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dT : memref<16x32xf32>, %dH : memref<32x32xf16>, %d1 : memref<8x16xf32>, %d2 : memref<16x16xf16>)
    gpu.launch_func @kernels::@vc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dH : memref<32x32xf16>, %d3 : memref<8x32xf16>, %d4 : memref<8x16xf16>)
    %O1 = memref.alloc() : memref<8x16xf32>
    %O2 = memref.alloc() : memref<16x16xf16>
    %O3 = memref.alloc() : memref<8x32xf16>
    %O4 = memref.alloc() : memref<8x16xf16>
    gpu.memcpy %O1, %d1 : memref<8x16xf32>, memref<8x16xf32>
    gpu.memcpy %O2, %d2 : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %O3, %d3 : memref<8x32xf16>, memref<8x32xf16>
    gpu.memcpy %O4, %d4 : memref<8x16xf16>, memref<8x16xf16>
    %p1 = memref.cast %O1 : memref<8x16xf32> to memref<*xf32>
    %p2 = memref.cast %O2 : memref<16x16xf16> to memref<*xf16>
    %p3 = memref.cast %O3 : memref<8x32xf16> to memref<*xf16>
    %p4 = memref.cast %O4 : memref<8x16xf16> to memref<*xf16>
    call @printMemrefF32(%p1) : (memref<*xf32>) -> ()
    call @printMemrefF16(%p2) : (memref<*xf16>) -> ()
    call @printMemrefF16(%p3) : (memref<*xf16>) -> ()
    call @printMemrefF16(%p4) : (memref<*xf16>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}282,   314,   346,   378,   410,   442,   474,   506,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [283,   315,   347,   379,   411,   443,   475,   507,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [284,   316,   348,   380,   412,   444,   476,   508,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [285,   317,   349,   381,   413,   445,   477,   509,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [286,   318,   350,   382,   414,   446,   478,   510,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [287,   319,   351,   383,   415,   447,   479,   511,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}4,   36,   68,   100,   132,   164,   196,   228,   260,   292,   324,   356,   388,   420,   452,   484],
// CHECK-NEXT:  [5,   37,   69,   101,   133,   165,   197,   229,   261,   293,   325,   357,   389,   421,   453,   485],
// CHECK-NEXT:  [6,   38,   70,   102,   134,   166,   198,   230,   262,   294,   326,   358,   390,   422,   454,   486],
// CHECK-NEXT:  [7,   39,   71,   103,   135,   167,   199,   231,   263,   295,   327,   359,   391,   423,   455,   487],
// CHECK-NEXT:  [8,   40,   72,   104,   136,   168,   200,   232,   264,   296,   328,   360,   392,   424,   456,   488],
// CHECK-NEXT:  [9,   41,   73,   105,   137,   169,   201,   233,   265,   297,   329,   361,   393,   425,   457,   489],
// CHECK-NEXT:  [10,   42,   74,   106,   138,   170,   202,   234,   266,   298,   330,   362,   394,   426,   458,   490],
// CHECK-NEXT:  [11,   43,   75,   107,   139,   171,   203,   235,   267,   299,   331,   363,   395,   427,   459,   491],
// CHECK-NEXT:  [12,   44,   76,   108,   140,   172,   204,   236,   268,   300,   332,   364,   396,   428,   460,   492],
// CHECK-NEXT:  [13,   45,   77,   109,   141,   173,   205,   237,   269,   301,   333,   365,   397,   429,   461,   493],
// CHECK-NEXT:  [14,   46,   78,   110,   142,   174,   206,   238,   270,   302,   334,   366,   398,   430,   462,   494],
// CHECK-NEXT:  [15,   47,   79,   111,   143,   175,   207,   239,   271,   303,   335,   367,   399,   431,   463,   495],
// CHECK-NEXT:  [16,   48,   80,   112,   144,   176,   208,   240,   272,   304,   336,   368,   400,   432,   464,   496],
// CHECK-NEXT:  [17,   49,   81,   113,   145,   177,   209,   241,   273,   305,   337,   369,   401,   433,   465,   497],
// CHECK-NEXT:  [18,   50,   82,   114,   146,   178,   210,   242,   274,   306,   338,   370,   402,   434,   466,   498],
// CHECK-NEXT:  [19,   51,   83,   115,   147,   179,   211,   243,   275,   307,   339,   371,   403,   435,   467,   499]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}520,   521,   552,   553,   584,   585,   616,   617,   648,   649,   680,   681,   712,   713,   744,   745,   776,   777,   808,   809,   840,   841,   872,   873,   904,   905,   936,   937,   968,   969,   1000,   1001],
// CHECK-NEXT:  [522,   523,   554,   555,   586,   587,   618,   619,   650,   651,   682,   683,   714,   715,   746,   747,   778,   779,   810,   811,   842,   843,   874,   875,   906,   907,   938,   939,   970,   971,   1002,   1003],
// CHECK-NEXT:  [524,   525,   556,   557,   588,   589,   620,   621,   652,   653,   684,   685,   716,   717,   748,   749,   780,   781,   812,   813,   844,   845,   876,   877,   908,   909,   940,   941,   972,   973,   1004,   1005],
// CHECK-NEXT:  [526,   527,   558,   559,   590,   591,   622,   623,   654,   655,   686,   687,   718,   719,   750,   751,   782,   783,   814,   815,   846,   847,   878,   879,   910,   911,   942,   943,   974,   975,   1006,   1007],
// CHECK-NEXT:  [528,   529,   560,   561,   592,   593,   624,   625,   656,   657,   688,   689,   720,   721,   752,   753,   784,   785,   816,   817,   848,   849,   880,   881,   912,   913,   944,   945,   976,   977,   1008,   1009],
// CHECK-NEXT:  [530,   531,   562,   563,   594,   595,   626,   627,   658,   659,   690,   691,   722,   723,   754,   755,   786,   787,   818,   819,   850,   851,   882,   883,   914,   915,   946,   947,   978,   979,   1010,   1011],
// CHECK-NEXT:  [532,   533,   564,   565,   596,   597,   628,   629,   660,   661,   692,   693,   724,   725,   756,   757,   788,   789,   820,   821,   852,   853,   884,   885,   916,   917,   948,   949,   980,   981,   1012,   1013],
// CHECK-NEXT:  [534,   535,   566,   567,   598,   599,   630,   631,   662,   663,   694,   695,   726,   727,   758,   759,   790,   791,   822,   823,   854,   855,   886,   887,   918,   919,   950,   951,   982,   983,   1014,   1015]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}64,   65,   96,   97,   128,   129,   160,   161,   192,   193,   224,   225,   256,   257,   288,   289],
// CHECK-NEXT:  [66,   67,   98,   99,   130,   131,   162,   163,   194,   195,   226,   227,   258,   259,   290,   291],
// CHECK-NEXT:  [68,   69,   100,   101,   132,   133,   164,   165,   196,   197,   228,   229,   260,   261,   292,   293],
// CHECK-NEXT:  [70,   71,   102,   103,   134,   135,   166,   167,   198,   199,   230,   231,   262,   263,   294,   295],
// CHECK-NEXT:  [72,   73,   104,   105,   136,   137,   168,   169,   200,   201,   232,   233,   264,   265,   296,   297],
// CHECK-NEXT:  [74,   75,   106,   107,   138,   139,   170,   171,   202,   203,   234,   235,   266,   267,   298,   299],
// CHECK-NEXT:  [76,   77,   108,   109,   140,   141,   172,   173,   204,   205,   236,   237,   268,   269,   300,   301],
// CHECK-NEXT:  [78,   79,   110,   111,   142,   143,   174,   175,   206,   207,   238,   239,   270,   271,   302,   303]]
