// Integer DPAS type combinations of PVC (spec/pvc-hardware.md §3.2; integer results are the exact sum wrapped to
// 32 bits, spec/dpas-numerics.md §1), at subgroup level.  Operands come from one byte buffer seen through
// memref.view as signed (i8) or unsigned (ui8) matrices; 4- and 2-bit operands are arith.trunci of 8-bit tiles
// (the low bits; i4/i2 signless = signed, ui4 via vector.bitcast = unsigned).
// buf[n] = (37*n + 11) mod 256 as a byte; P = buf[0:1024] as 16x64, Q = buf[1024:5120] as 64x64.
//   D1 s8 x s8 -> s32, B packed (VNNI 8x16x4), + 1000      D2 u8 x u8 -> u32 (B plain)
//   D3 s8 x u8 -> s32                                      D4 u8 x s8 -> s32
//   D5 s4 x s4 -> s32 (K = 64)                             D6 u4 x u4 -> u32 (K = 64)
//   D7 s4 x s8 -> s32 (K = 32)                             D8 s2 x s2 -> s32 (K = 64)
// Expected values (numpy, exact int64 arithmetic):
//   b = (37*np.arange(5120) + 11) % 256; s8 = np.where(b > 127, b - 256, b); u8 = b
//   P = lambda t: t[0:1024].reshape(16, 64); Q = lambda t: t[1024:5120].reshape(64, 64)
//   lo = lambda x, n, signed: ((x % 2**n) ^ (2**(n-1) if signed else 0)) - (2**(n-1) if signed else 0)
//   D1 = P(s8)[0:8, 0:32] @ Q(s8)[0:32, 0:16] + 1000;   D2 = P(u8)[0:8, 0:32] @ Q(u8)[0:32, 16:32]
//   D3 = P(s8)[8:16, 0:32] @ Q(u8)[32:64, 0:16];        D4 = P(u8)[8:16, 32:64] @ Q(s8)[32:64, 16:32]
//   D5 = lo(P(u8)[0:8], 4, 1) @ lo(Q(u8)[:, 32:48], 4, 1); D6 = lo(P(u8)[8:16], 4, 0) @ lo(Q(u8)[:, 48:64], 4, 0)
//   D7 = lo(P(u8)[0:8, 0:32], 4, 1) @ Q(s8)[0:32, 32:48]; D8 = lo(P(u8)[8:16], 2, 1) @ lo(Q(u8)[:, 0:16], 2, 1)
//   printed: np.concatenate([D1, ..., D8])   (64x16 i32)
// RUN: xesim run %s | filecheck %s

module @dpas_int attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%buf: memref<5120xi8>, %out: memref<64x16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1024 = arith.constant 1024 : index
      %ps = memref.view %buf[%c0][] : memref<5120xi8> to memref<16x64xi8>
      %pu = memref.view %buf[%c0][] : memref<5120xi8> to memref<16x64xui8>
      %qs = memref.view %buf[%c1024][] : memref<5120xi8> to memref<64x64xi8>
      %qu = memref.view %buf[%c1024][] : memref<5120xi8> to memref<64x64xui8>
      %tps = xegpu.create_nd_tdesc %ps : memref<16x64xi8> -> !xegpu.tensor_desc<8x32xi8>
      %tpu = xegpu.create_nd_tdesc %pu : memref<16x64xui8> -> !xegpu.tensor_desc<8x32xui8>
      %tpu64 = xegpu.create_nd_tdesc %pu : memref<16x64xui8> -> !xegpu.tensor_desc<8x64xui8>
      %tqs = xegpu.create_nd_tdesc %qs : memref<64x64xi8> -> !xegpu.tensor_desc<32x16xi8>
      %tqu = xegpu.create_nd_tdesc %qu : memref<64x64xui8> -> !xegpu.tensor_desc<32x16xui8>
      %tqu64 = xegpu.create_nd_tdesc %qu : memref<64x64xui8> -> !xegpu.tensor_desc<64x16xui8>
      %to = xegpu.create_nd_tdesc %out : memref<64x16xi32> -> !xegpu.tensor_desc<8x16xi32>
      // D1
      %a1 = xegpu.load_nd %tps[0, 0] : !xegpu.tensor_desc<8x32xi8> -> vector<8x32xi8>
      %b1 = xegpu.load_nd %tqs[0, 0] <{packed}> : !xegpu.tensor_desc<32x16xi8> -> vector<8x16x4xi8>
      %acc = arith.constant dense<1000> : vector<8x16xi32>
      %d1 = xegpu.dpas %a1, %b1, %acc : vector<8x32xi8>, vector<8x16x4xi8>, vector<8x16xi32> -> vector<8x16xi32>
      xegpu.store_nd %d1, %to[0, 0] : vector<8x16xi32>, !xegpu.tensor_desc<8x16xi32>
      // D2
      %a2 = xegpu.load_nd %tpu[0, 0] : !xegpu.tensor_desc<8x32xui8> -> vector<8x32xui8>
      %b2 = xegpu.load_nd %tqu[0, 16] : !xegpu.tensor_desc<32x16xui8> -> vector<32x16xui8>
      %d2u = xegpu.dpas %a2, %b2 : vector<8x32xui8>, vector<32x16xui8> -> vector<8x16xui32>
      %d2 = vector.bitcast %d2u : vector<8x16xui32> to vector<8x16xi32>
      xegpu.store_nd %d2, %to[8, 0] : vector<8x16xi32>, !xegpu.tensor_desc<8x16xi32>
      // D3
      %a3 = xegpu.load_nd %tps[8, 0] : !xegpu.tensor_desc<8x32xi8> -> vector<8x32xi8>
      %b3 = xegpu.load_nd %tqu[32, 0] : !xegpu.tensor_desc<32x16xui8> -> vector<32x16xui8>
      %d3 = xegpu.dpas %a3, %b3 : vector<8x32xi8>, vector<32x16xui8> -> vector<8x16xi32>
      xegpu.store_nd %d3, %to[16, 0] : vector<8x16xi32>, !xegpu.tensor_desc<8x16xi32>
      // D4
      %a4 = xegpu.load_nd %tpu[8, 32] : !xegpu.tensor_desc<8x32xui8> -> vector<8x32xui8>
      %b4 = xegpu.load_nd %tqs[32, 16] : !xegpu.tensor_desc<32x16xi8> -> vector<32x16xi8>
      %d4 = xegpu.dpas %a4, %b4 : vector<8x32xui8>, vector<32x16xi8> -> vector<8x16xi32>
      xegpu.store_nd %d4, %to[24, 0] : vector<8x16xi32>, !xegpu.tensor_desc<8x16xi32>
      // D5: s4 x s4
      %p5u = xegpu.load_nd %tpu64[0, 0] : !xegpu.tensor_desc<8x64xui8> -> vector<8x64xui8>
      %p5 = vector.bitcast %p5u : vector<8x64xui8> to vector<8x64xi8>
      %a5 = arith.trunci %p5 : vector<8x64xi8> to vector<8x64xi4>
      %q5u = xegpu.load_nd %tqu64[0, 32] : !xegpu.tensor_desc<64x16xui8> -> vector<64x16xui8>
      %q5 = vector.bitcast %q5u : vector<64x16xui8> to vector<64x16xi8>
      %b5 = arith.trunci %q5 : vector<64x16xi8> to vector<64x16xi4>
      %d5 = xegpu.dpas %a5, %b5 : vector<8x64xi4>, vector<64x16xi4> -> vector<8x16xi32>
      xegpu.store_nd %d5, %to[32, 0] : vector<8x16xi32>, !xegpu.tensor_desc<8x16xi32>
      // D6: u4 x u4
      %p6u = xegpu.load_nd %tpu64[8, 0] : !xegpu.tensor_desc<8x64xui8> -> vector<8x64xui8>
      %p6 = vector.bitcast %p6u : vector<8x64xui8> to vector<8x64xi8>
      %a6s = arith.trunci %p6 : vector<8x64xi8> to vector<8x64xi4>
      %a6 = vector.bitcast %a6s : vector<8x64xi4> to vector<8x64xui4>
      %q6u = xegpu.load_nd %tqu64[0, 48] : !xegpu.tensor_desc<64x16xui8> -> vector<64x16xui8>
      %q6 = vector.bitcast %q6u : vector<64x16xui8> to vector<64x16xi8>
      %b6s = arith.trunci %q6 : vector<64x16xi8> to vector<64x16xi4>
      %b6 = vector.bitcast %b6s : vector<64x16xi4> to vector<64x16xui4>
      %d6u = xegpu.dpas %a6, %b6 : vector<8x64xui4>, vector<64x16xui4> -> vector<8x16xui32>
      %d6 = vector.bitcast %d6u : vector<8x16xui32> to vector<8x16xi32>
      xegpu.store_nd %d6, %to[40, 0] : vector<8x16xi32>, !xegpu.tensor_desc<8x16xi32>
      // D7: s4 x s8
      %p7 = vector.extract_strided_slice %p5 {offsets = [0, 0], sizes = [8, 32], strides = [1, 1]} : vector<8x64xi8> to vector<8x32xi8>
      %a7 = arith.trunci %p7 : vector<8x32xi8> to vector<8x32xi4>
      %b7 = xegpu.load_nd %tqs[0, 32] : !xegpu.tensor_desc<32x16xi8> -> vector<32x16xi8>
      %d7 = xegpu.dpas %a7, %b7 : vector<8x32xi4>, vector<32x16xi8> -> vector<8x16xi32>
      xegpu.store_nd %d7, %to[48, 0] : vector<8x16xi32>, !xegpu.tensor_desc<8x16xi32>
      // D8: s2 x s2
      %a8 = arith.trunci %p6 : vector<8x64xi8> to vector<8x64xi2>
      %q8u = xegpu.load_nd %tqu64[0, 0] : !xegpu.tensor_desc<64x16xui8> -> vector<64x16xui8>
      %q8 = vector.bitcast %q8u : vector<64x16xui8> to vector<64x16xi8>
      %b8 = arith.trunci %q8 : vector<64x16xi8> to vector<64x16xi2>
      %d8 = xegpu.dpas %a8, %b8 : vector<8x64xi2>, vector<64x16xi2> -> vector<8x16xi32>
      xegpu.store_nd %d8, %to[56, 0] : vector<8x16xi32>, !xegpu.tensor_desc<8x16xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c11 = arith.constant 11 : index
    %c16 = arith.constant 16 : index
    %c37 = arith.constant 37 : index
    %c256 = arith.constant 256 : index
    %c5120 = arith.constant 5120 : index
    %Buf = memref.alloc() : memref<5120xi8>
    scf.for %n = %c0 to %c5120 step %c1 {
      %m = arith.muli %n, %c37 : index
      %s = arith.addi %m, %c11 : index
      %r = arith.remui %s, %c256 : index
      %b = arith.index_cast %r : index to i8
      memref.store %b, %Buf[%n] : memref<5120xi8>
    }
    %dBuf = gpu.alloc () : memref<5120xi8>
    %dO = gpu.alloc () : memref<64x16xi32>
    gpu.memcpy %dBuf, %Buf : memref<5120xi8>, memref<5120xi8>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dBuf : memref<5120xi8>, %dO : memref<64x16xi32>)
    %O = memref.alloc() : memref<64x16xi32>
    gpu.memcpy %O, %dO : memref<64x16xi32>, memref<64x16xi32>
    %p = memref.cast %O : memref<64x16xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [64, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}-31592,   -31000,   -9928,   -9336,   21976,   22568,   23160,   -31544,   -30952,   -9880,   -9288,   22024,   22616,   23208,   -31496,   -30904],
// CHECK-NEXT:  [20376,   30440,   -4552,   5512,   -19240,   -9176,   888,   21192,   31256,   -3736,   6328,   -18424,   -8360,   1704,   22008,   32072],
// CHECK-NEXT:  [-1640,   -10520,   1080,   -7800,   14040,   5160,   -3720,   -2360,   -11240,   360,   -8520,   13320,   4440,   -4440,   -3080,   -11960],
// CHECK-NEXT:  [-1640,   -10520,   1080,   -7800,   14040,   5160,   -3720,   -2360,   -11240,   360,   -8520,   13320,   4440,   -4440,   -3080,   -11960],
// CHECK-NEXT:  [-31592,   -31000,   -9928,   -9336,   21976,   22568,   23160,   -31544,   -30952,   -9880,   -9288,   22024,   22616,   23208,   -31496,   -30904],
// CHECK-NEXT:  [20376,   30440,   -4552,   5512,   -19240,   -9176,   888,   21192,   31256,   -3736,   6328,   -18424,   -8360,   1704,   22008,   32072],
// CHECK-NEXT:  [-1640,   -10520,   1080,   -7800,   14040,   5160,   -3720,   -2360,   -11240,   360,   -8520,   13320,   4440,   -4440,   -3080,   -11960],
// CHECK-NEXT:  [-1640,   -10520,   1080,   -7800,   14040,   5160,   -3720,   -2360,   -11240,   360,   -8520,   13320,   4440,   -4440,   -3080,   -11960],
// CHECK-NEXT:  [471728,   362496,   505168,   406176,   548848,   460096,   602768,   483296,   374064,   516736,   417744,   560416,   471664,   614336,   494864,   385632],
// CHECK-NEXT:  [471728,   362496,   505168,   406176,   548848,   460096,   602768,   483296,   374064,   516736,   417744,   560416,   471664,   614336,   494864,   385632],
// CHECK-NEXT:  [527792,   362496,   514640,   425120,   577264,   497984,   650128,   540128,   374832,   526976,   437456,   589600,   510320,   662464,   552464,   387168],
// CHECK-NEXT:  [534704,   444416,   606032,   460448,   622064,   486720,   648336,   547808,   457520,   619136,   473552,   635168,   499824,   661440,   560912,   470624],
// CHECK-NEXT:  [471728,   362496,   505168,   406176,   548848,   460096,   602768,   483296,   374064,   516736,   417744,   560416,   471664,   614336,   494864,   385632],
// CHECK-NEXT:  [471728,   362496,   505168,   406176,   548848,   460096,   602768,   483296,   374064,   516736,   417744,   560416,   471664,   614336,   494864,   385632],
// CHECK-NEXT:  [527792,   362496,   514640,   425120,   577264,   497984,   650128,   540128,   374832,   526976,   437456,   589600,   510320,   662464,   552464,   387168],
// CHECK-NEXT:  [534704,   444416,   606032,   460448,   622064,   486720,   648336,   547808,   457520,   619136,   473552,   635168,   499824,   661440,   560912,   470624],
// CHECK-NEXT:  [22704,   23296,   23888,   24480,   -30224,   -9152,   -8560,   22752,   23344,   23936,   24528,   -30176,   -9104,   -8512,   22800,   23392],
// CHECK-NEXT:  [9136,   19200,   29264,   39328,   59632,   24640,   34704,   9952,   20016,   30080,   40144,   60448,   25456,   35520,   10768,   20832],
// CHECK-NEXT:  [-12880,   -21760,   -30640,   -39520,   -38160,   -26560,   -35440,   -13600,   -22480,   -31360,   -40240,   -38880,   -27280,   -36160,   -14320,   -23200],
// CHECK-NEXT:  [-12880,   -21760,   -30640,   -39520,   -38160,   -26560,   -35440,   -13600,   -22480,   -31360,   -40240,   -38880,   -27280,   -36160,   -14320,   -23200],
// CHECK-NEXT:  [22704,   23296,   23888,   24480,   -30224,   -9152,   -8560,   22752,   23344,   23936,   24528,   -30176,   -9104,   -8512,   22800,   23392],
// CHECK-NEXT:  [9136,   19200,   29264,   39328,   59632,   24640,   34704,   9952,   20016,   30080,   40144,   60448,   25456,   35520,   10768,   20832],
// CHECK-NEXT:  [-12880,   -21760,   -30640,   -39520,   -38160,   -26560,   -35440,   -13600,   -22480,   -31360,   -40240,   -38880,   -27280,   -36160,   -14320,   -23200],
// CHECK-NEXT:  [-12880,   -21760,   -30640,   -39520,   -38160,   -26560,   -35440,   -13600,   -22480,   -31360,   -40240,   -38880,   -27280,   -36160,   -14320,   -23200],
// CHECK-NEXT:  [-24400,   -159744,   1872,   -98656,   62960,   -27328,   134288,   -11296,   -146640,   14976,   -85552,   76064,   -14224,   147392,   1808,   -133536],
// CHECK-NEXT:  [1456,   -143360,   8784,   -101216,   50928,   -48832,   103312,   13792,   -131024,   21120,   -88880,   63264,   -36496,   115648,   26128,   -118688],
// CHECK-NEXT:  [-21840,   -110592,   32080,   -87392,   55280,   -53952,   88720,   -10272,   -99024,   43648,   -75824,   66848,   -42384,   100288,   1296,   -87456],
// CHECK-NEXT:  [1456,   -143360,   8784,   -101216,   50928,   -48832,   103312,   13792,   -131024,   21120,   -88880,   63264,   -36496,   115648,   26128,   -118688],
// CHECK-NEXT:  [-24400,   -159744,   1872,   -98656,   62960,   -27328,   134288,   -11296,   -146640,   14976,   -85552,   76064,   -14224,   147392,   1808,   -133536],
// CHECK-NEXT:  [1456,   -143360,   8784,   -101216,   50928,   -48832,   103312,   13792,   -131024,   21120,   -88880,   63264,   -36496,   115648,   26128,   -118688],
// CHECK-NEXT:  [-21840,   -110592,   32080,   -87392,   55280,   -53952,   88720,   -10272,   -99024,   43648,   -75824,   66848,   -42384,   100288,   1296,   -87456],
// CHECK-NEXT:  [1456,   -143360,   8784,   -101216,   50928,   -48832,   103312,   13792,   -131024,   21120,   -88880,   63264,   -36496,   115648,   26128,   -118688],
// CHECK-NEXT:  [160,   0,   -160,   192,   32,   -128,   224,   64,   -96,   256,   96,   -64,   -224,   128,   -32,   -192],
// CHECK-NEXT:  [160,   0,   -160,   192,   32,   -128,   224,   64,   -96,   256,   96,   -64,   -224,   128,   -32,   -192],
// CHECK-NEXT:  [160,   0,   -160,   192,   32,   -128,   224,   64,   -96,   256,   96,   -64,   -224,   128,   -32,   -192],
// CHECK-NEXT:  [160,   0,   -160,   192,   32,   -128,   224,   64,   -96,   256,   96,   -64,   -224,   128,   -32,   -192],
// CHECK-NEXT:  [160,   0,   -160,   192,   32,   -128,   224,   64,   -96,   256,   96,   -64,   -224,   128,   -32,   -192],
// CHECK-NEXT:  [160,   0,   -160,   192,   32,   -128,   224,   64,   -96,   256,   96,   -64,   -224,   128,   -32,   -192],
// CHECK-NEXT:  [160,   0,   -160,   192,   32,   -128,   224,   64,   -96,   256,   96,   -64,   -224,   128,   -32,   -192],
// CHECK-NEXT:  [160,   0,   -160,   192,   32,   -128,   224,   64,   -96,   256,   96,   -64,   -224,   128,   -32,   -192],
// CHECK-NEXT:  [5280,   0,   2400,   4800,   7200,   1920,   4320,   6720,   1440,   3840,   6240,   960,   3360,   5760,   480,   2880],
// CHECK-NEXT:  [5280,   0,   2400,   4800,   7200,   1920,   4320,   6720,   1440,   3840,   6240,   960,   3360,   5760,   480,   2880],
// CHECK-NEXT:  [5280,   0,   2400,   4800,   7200,   1920,   4320,   6720,   1440,   3840,   6240,   960,   3360,   5760,   480,   2880],
// CHECK-NEXT:  [5280,   0,   2400,   4800,   7200,   1920,   4320,   6720,   1440,   3840,   6240,   960,   3360,   5760,   480,   2880],
// CHECK-NEXT:  [5280,   0,   2400,   4800,   7200,   1920,   4320,   6720,   1440,   3840,   6240,   960,   3360,   5760,   480,   2880],
// CHECK-NEXT:  [5280,   0,   2400,   4800,   7200,   1920,   4320,   6720,   1440,   3840,   6240,   960,   3360,   5760,   480,   2880],
// CHECK-NEXT:  [5280,   0,   2400,   4800,   7200,   1920,   4320,   6720,   1440,   3840,   6240,   960,   3360,   5760,   480,   2880],
// CHECK-NEXT:  [5280,   0,   2400,   4800,   7200,   1920,   4320,   6720,   1440,   3840,   6240,   960,   3360,   5760,   480,   2880],
// CHECK-NEXT:  [-688,   -1280,   -1872,   -416,   -1008,   2496,   -144,   -736,   -1328,   -1920,   -464,   3040,   2448,   -192,   -784,   -1376],
// CHECK-NEXT:  [-688,   -1280,   -1872,   -416,   -1008,   2496,   -144,   -736,   -1328,   -1920,   -464,   3040,   2448,   -192,   -784,   -1376],
// CHECK-NEXT:  [-688,   -1280,   -1872,   -416,   -1008,   2496,   -144,   -736,   -1328,   -1920,   -464,   3040,   2448,   -192,   -784,   -1376],
// CHECK-NEXT:  [-688,   -1280,   -1872,   -416,   -1008,   2496,   -144,   -736,   -1328,   -1920,   -464,   3040,   2448,   -192,   -784,   -1376],
// CHECK-NEXT:  [-688,   -1280,   -1872,   -416,   -1008,   2496,   -144,   -736,   -1328,   -1920,   -464,   3040,   2448,   -192,   -784,   -1376],
// CHECK-NEXT:  [-688,   -1280,   -1872,   -416,   -1008,   2496,   -144,   -736,   -1328,   -1920,   -464,   3040,   2448,   -192,   -784,   -1376],
// CHECK-NEXT:  [-688,   -1280,   -1872,   -416,   -1008,   2496,   -144,   -736,   -1328,   -1920,   -464,   3040,   2448,   -192,   -784,   -1376],
// CHECK-NEXT:  [-688,   -1280,   -1872,   -416,   -1008,   2496,   -144,   -736,   -1328,   -1920,   -464,   3040,   2448,   -192,   -784,   -1376],
// CHECK-NEXT:  [32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64],
// CHECK-NEXT:  [32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64],
// CHECK-NEXT:  [32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64],
// CHECK-NEXT:  [32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64],
// CHECK-NEXT:  [32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64],
// CHECK-NEXT:  [32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64],
// CHECK-NEXT:  [32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64],
// CHECK-NEXT:  [32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64,   32,   0,   -32,   64]]
