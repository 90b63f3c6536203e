// Scattered loads and stores: masks, chunk sizes, the memref/pointer + offsets forms and the tensor_desc form.
// S[n] = n (256 f32).  Lane i accesses `chunk` consecutive elements from element offset off[i]; masked-off lanes
// read 0 and do not write (spec programs-and-runner §3.3 Scatter, pvc-hardware §2.1-§2.2).
// SG kernel @sg (16 lanes):
//  1. load S[off], chunk 2, mask m              -> res[0:32]   (off[i] = 3 + 15i, m = lanes with i % 3 != 1)
//  2. create_tdesc S, o8, chunk 4; load, mask m8 -> res[32:64]  (o8[i] = 30i, m8 = [1,1,0,1,1,1,1,0])
//  3. update_offset +5, load again              -> res[64:96]
//  4. load through the raw i64 address of S (pointer form), chunk 1, mask m -> res[96:112]
//  5. store the [16,2] value of 1. at dst[4i], chunk 2, mask "i != 5"; store 1000 + i at dst[4i + 3], no mask
// VC kernel @vc (legacy transposed chunked access, value [chunk, lanes]):
//  6. create_tdesc S, o16 (o16[l] = 16l), chunk 8; load {transpose}, mask "l != 2" -> v[c][l] = S[16l + c]
//     store {transpose} through create_tdesc dst2, o (o[l] = 8l), chunk 8, mask "l != 7": dst2[8l + c] = v[c][l]
// Expected values (numpy):
//   S = np.arange(256.); off = 3 + 15*np.arange(16); m = np.arange(16) % 3 != 1
//   r1 = np.array([[S[o + c] if k else 0 for c in range(2)] for o, k in zip(off, m)])          # 16x2
//   o8 = 30*np.arange(8); m8 = np.array([1,1,0,1,1,1,1,0], bool)
//   r2 = np.array([[S[o + c] if k else 0 for c in range(4)] for o, k in zip(o8, m8)])
//   r3 = np.array([[S[o + 5 + c] if k else 0 for c in range(4)] for o, k in zip(o8, m8)])
//   r4 = np.where(m, S[off], 0)
//   res = np.zeros(256); res[0:32] = r1.ravel(); res[32:64] = r2.ravel(); res[64:96] = r3.ravel(); res[96:112] = r4
//   dst = np.zeros(64); [dst.__setitem__(slice(4*i, 4*i+2), r1[i]) for i in range(16) if i != 5]
//   dst[3::4] = 1000 + np.arange(16)
//   v = np.array([[S[16*l + c] if l != 2 else 0 for l in range(16)] for c in range(8)])
//   dst2 = np.zeros(128); [dst2.__setitem__(slice(8*l, 8*l+8), v[:, l]) for l in range(16) if l != 7]
//   printed: res.reshape(8, 32), dst.reshape(4, 16), dst2.reshape(8, 16)
// RUN: xesim run %s | filecheck %s

module @scatter attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sg(%src: memref<256xf32>, %ptr: i64, %res: memref<256xf32>, %dst: memref<64xf32>) kernel {
      %off = arith.constant dense<[3, 18, 33, 48, 63, 78, 93, 108, 123, 138, 153, 168, 183, 198, 213, 228]> : vector<16xindex>
      %m = arith.constant dense<[true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true]> : vector<16xi1>
      %tr32 = xegpu.create_nd_tdesc %res : memref<256xf32> -> !xegpu.tensor_desc<32xf32>
      %tr16 = xegpu.create_nd_tdesc %res : memref<256xf32> -> !xegpu.tensor_desc<16xf32>
      %v1 = xegpu.load %src[%off], %m <{chunk_size = 2 : i64, l1_hint = #xegpu.cache_hint<cached>}> : memref<256xf32>, vector<16xindex>, vector<16xi1> -> vector<16x2xf32>
      %f1 = vector.shape_cast %v1 : vector<16x2xf32> to vector<32xf32>
      xegpu.store_nd %f1, %tr32[0] : vector<32xf32>, !xegpu.tensor_desc<32xf32>
      %o8 = arith.constant dense<[0, 30, 60, 90, 120, 150, 180, 210]> : vector<8xindex>
      %m8 = arith.constant dense<[true, true, false, true, true, true, true, false]> : vector<8xi1>
      %td = xegpu.create_tdesc %src, %o8 : memref<256xf32>, vector<8xindex> -> !xegpu.tensor_desc<8x4xf32, #xegpu.scatter_tdesc_attr<chunk_size = 4 : i64>>
      %v2 = xegpu.load %td, %m8 : !xegpu.tensor_desc<8x4xf32, #xegpu.scatter_tdesc_attr<chunk_size = 4 : i64>>, vector<8xi1> -> vector<8x4xf32>
      %f2 = vector.shape_cast %v2 : vector<8x4xf32> to vector<32xf32>
      xegpu.store_nd %f2, %tr32[32] : vector<32xf32>, !xegpu.tensor_desc<32xf32>
      %five = arith.constant dense<5> : vector<8xindex>
      %td2 = xegpu.update_offset %td, %five : !xegpu.tensor_desc<8x4xf32, #xegpu.scatter_tdesc_attr<chunk_size = 4 : i64>>, vector<8xindex>
      %v3 = xegpu.load %td2, %m8 : !xegpu.tensor_desc<8x4xf32, #xegpu.scatter_tdesc_attr<chunk_size = 4 : i64>>, vector<8xi1> -> vector<8x4xf32>
      %f3 = vector.shape_cast %v3 : vector<8x4xf32> to vector<32xf32>
      xegpu.store_nd %f3, %tr32[64] : vector<32xf32>, !xegpu.tensor_desc<32xf32>
      %v4 = xegpu.load %ptr[%off], %m : i64, vector<16xindex>, vector<16xi1> -> vector<16xf32>
      xegpu.store_nd %v4, %tr16[96] : vector<16xf32>, !xegpu.tensor_desc<16xf32>
      %soff = arith.constant dense<[0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60]> : vector<16xindex>
      %sm = arith.constant dense<[true, true, true, true, true, false, true, true, true, true, true, true, true, true, true, true]> : vector<16xi1>
      xegpu.store %v1, %dst[%soff], %sm <{chunk_size = 2 : i64}> : vector<16x2xf32>, memref<64xf32>, vector<16xindex>, vector<16xi1>
      %soff3 = arith.constant dense<[3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63]> : vector<16xindex>
      %all = arith.constant dense<true> : vector<16xi1>
      %k = arith.constant dense<[1000.0, 1001.0, 1002.0, 1003.0, 1004.0, 1005.0, 1006.0, 1007.0, 1008.0, 1009.0, 1010.0, 1011.0, 1012.0, 1013.0, 1014.0, 1015.0]> : vector<16xf32>
      xegpu.store %k, %dst[%soff3], %all <{l1_hint = #xegpu.cache_hint<write_back>}> : vector<16xf32>, memref<64xf32>, vector<16xindex>, vector<16xi1>
      gpu.return
    }
    gpu.func @vc(%src: memref<256xf32>, %dst2: memref<128xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %o16 = arith.constant dense<[0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240]> : vector<16xindex>
      %ml = arith.constant dense<[true, true, false, true, true, true, true, true, true, true, true, true, true, true, true, true]> : vector<16xi1>
      %ts = xegpu.create_tdesc %src, %o16 : memref<256xf32>, vector<16xindex> -> !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space = global, chunk_size = 8 : i64>>
      %v = xegpu.load %ts, %ml {transpose, l1_hint = #xegpu.cache_hint<cached>} : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space = global, chunk_size = 8 : i64>>, vector<16xi1> -> vector<8x16xf32>
      %o = arith.constant dense<[0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120]> : vector<16xindex>
      %ms = arith.constant dense<[true, true, true, true, true, true, true, false, true, true, true, true, true, true, true, true]> : vector<16xi1>
      %td = xegpu.create_tdesc %dst2, %o : memref<128xf32>, vector<16xindex> -> !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space = global, chunk_size = 8 : i64>>
      xegpu.store %v, %td, %ms {transpose} : vector<8x16xf32>, !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space = global, chunk_size = 8 : i64>>, vector<16xi1>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %S = memref.alloc() : memref<256xf32>
    scf.for %n = %c0 to %c256 step %c1 {
      %ni = arith.index_cast %n : index to i32
      %nf = arith.sitofp %ni : i32 to f32
      memref.store %nf, %S[%n] : memref<256xf32>
    }
    %dS = gpu.alloc () : memref<256xf32>
    %dR = gpu.alloc () : memref<256xf32>
    %dD = gpu.alloc () : memref<64xf32>
    %dD2 = gpu.alloc () : memref<128xf32>
    gpu.memcpy %dS, %S : memref<256xf32>, memref<256xf32>
    %pi = memref.extract_aligned_pointer_as_index %dS : memref<256xf32> -> index
    %p = arith.index_cast %pi : index to i64
    gpu.launch_func @kernels::@sg blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dS : memref<256xf32>, %p : i64, %dR : memref<256xf32>, %dD : memref<64xf32>)
    gpu.launch_func @kernels::@vc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dS : memref<256xf32>, %dD2 : memref<128xf32>)
    %R = memref.alloc() : memref<256xf32>
    %D = memref.alloc() : memref<64xf32>
    %D2 = memref.alloc() : memref<128xf32>
    gpu.memcpy %R, %dR : memref<256xf32>, memref<256xf32>
    gpu.memcpy %D, %dD : memref<64xf32>, memref<64xf32>
    gpu.memcpy %D2, %dD2 : memref<128xf32>, memref<128xf32>
    %R2 = memref.reinterpret_cast %R to offset: [0], sizes: [8, 32], strides: [32, 1] : memref<256xf32> to memref<8x32xf32>
    %DD = memref.reinterpret_cast %D to offset: [0], sizes: [4, 16], strides: [16, 1] : memref<64xf32> to memref<4x16xf32>
    %DD2 = memref.reinterpret_cast %D2 to offset: [0], sizes: [8, 16], strides: [16, 1] : memref<128xf32> to memref<8x16xf32>
    %u1 = memref.cast %R2 : memref<8x32xf32> to memref<*xf32>
    %u2 = memref.cast %DD : memref<4x16xf32> to memref<*xf32>
    %u3 = memref.cast %DD2 : memref<8x16xf32> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 32] strides = [32, 1] data =
// CHECK-NEXT: {{\[\[}}3,   4,   0,   0,   33,   34,   48,   49,   0,   0,   78,   79,   93,   94,   0,   0,   123,   124,   138,   139,   0,   0,   168,   169,   183,   184,   0,   0,   213,   214,   228,   229],
// CHECK-NEXT:  [0,   1,   2,   3,   30,   31,   32,   33,   0,   0,   0,   0,   90,   91,   92,   93,   120,   121,   122,   123,   150,   151,   152,   153,   180,   181,   182,   183,   0,   0,   0,   0],
// CHECK-NEXT:  [5,   6,   7,   8,   35,   36,   37,   38,   0,   0,   0,   0,   95,   96,   97,   98,   125,   126,   127,   128,   155,   156,   157,   158,   185,   186,   187,   188,   0,   0,   0,   0],
// CHECK-NEXT:  [3,   0,   33,   48,   0,   78,   93,   0,   123,   138,   0,   168,   183,   0,   213,   228,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}3,   4,   0,   1000,   0,   0,   0,   1001,   33,   34,   0,   1002,   48,   49,   0,   1003],
// CHECK-NEXT:  [0,   0,   0,   1004,   0,   0,   0,   1005,   93,   94,   0,   1006,   0,   0,   0,   1007],
// CHECK-NEXT:  [123,   124,   0,   1008,   138,   139,   0,   1009,   0,   0,   0,   1010,   168,   169,   0,   1011],
// CHECK-NEXT:  [183,   184,   0,   1012,   0,   0,   0,   1013,   213,   214,   0,   1014,   228,   229,   0,   1015]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}0,   1,   2,   3,   4,   5,   6,   7,   16,   17,   18,   19,   20,   21,   22,   23],
// CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   48,   49,   50,   51,   52,   53,   54,   55],
// CHECK-NEXT:  [64,   65,   66,   67,   68,   69,   70,   71,   80,   81,   82,   83,   84,   85,   86,   87],
// CHECK-NEXT:  [96,   97,   98,   99,   100,   101,   102,   103,   0,   0,   0,   0,   0,   0,   0,   0],
// CHECK-NEXT:  [128,   129,   130,   131,   132,   133,   134,   135,   144,   145,   146,   147,   148,   149,   150,   151],
// CHECK-NEXT:  [160,   161,   162,   163,   164,   165,   166,   167,   176,   177,   178,   179,   180,   181,   182,   183],
// CHECK-NEXT:  [192,   193,   194,   195,   196,   197,   198,   199,   208,   209,   210,   211,   212,   213,   214,   215],
// CHECK-NEXT:  [224,   225,   226,   227,   228,   229,   230,   231,   240,   241,   242,   243,   244,   245,   246,   247]]
