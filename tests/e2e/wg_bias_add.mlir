// Workgroup-level broadcast bias add with ReLU: Y = max(X + bias[j], 0) on a 64x128 f32 tile over sg_layout
// [2, 4] (sg_data [32, 32]), launched as 16 x 8 work-items.  The 1-D bias is loaded with a 1-D workgroup layout,
// moved to the slice layout #xegpu.slice<#l, dims = [0]> and broadcast along the rows (vector.broadcast with
// layout_result_0, spec/programs-and-runner.md §3.2 WG).
// X[i][j] = i - j (exact), bias[j] = 2j - 40, so Y[i][j] = max(i + j - 40, 0): by hand, row 0 is
// 0 for j <= 40 and j - 40 after; row 63 is 23 + j.
// RUN: xesim run %s | filecheck %s

#l = #xegpu.layout<sg_layout = [2, 4], sg_data = [32, 32], inst_data = [8, 16]>
#bs = #xegpu.slice<#xegpu.layout<sg_layout = [2, 4], sg_data = [32, 32], inst_data = [8, 16]>, dims = [0]>
#b1 = #xegpu.layout<sg_layout = [4], sg_data = [32]>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @bias_relu(%x: memref<64x128xf32>, %bias: memref<128xf32>, %y: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %xt = xegpu.create_nd_tdesc %x : memref<64x128xf32> -> !xegpu.tensor_desc<64x128xf32, #l>
      %yt = xegpu.create_nd_tdesc %y : memref<64x128xf32> -> !xegpu.tensor_desc<64x128xf32, #l>
      %bt = xegpu.create_nd_tdesc %bias : memref<128xf32> -> !xegpu.tensor_desc<128xf32, #b1>
      %xv = xegpu.load_nd %xt[%c0, %c0] : !xegpu.tensor_desc<64x128xf32, #l> -> vector<64x128xf32>
      %bv = xegpu.load_nd %bt[%c0] : !xegpu.tensor_desc<128xf32, #b1> -> vector<128xf32>
      %bsl = xegpu.convert_layout %bv <{input_layout = #b1, target_layout = #bs}> : vector<128xf32>
      %bb = vector.broadcast %bsl {layout_result_0 = #l} : vector<128xf32> to vector<64x128xf32>
      %s = arith.addf %xv, %bb {layout_result_0 = #l} : vector<64x128xf32>
      %zero = arith.constant {layout_result_0 = #l} dense<0.0> : vector<64x128xf32>
      %r = arith.maximumf %s, %zero {layout_result_0 = #l} : vector<64x128xf32>
      xegpu.store_nd %r, %yt[%c0, %c0] : vector<64x128xf32>, !xegpu.tensor_desc<64x128xf32, #l>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c40 = arith.constant 40 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %X = memref.alloc() : memref<64x128xf32>
    %B = memref.alloc() : memref<128xf32>
    %Y = memref.alloc() : memref<64x128xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c128 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %d = arith.subi %ii, %jj : i32
        %v = arith.sitofp %d : i32 to f32
        memref.store %v, %X[%i, %j] : memref<64x128xf32>
      }
    }
    scf.for %j = %c0 to %c128 step %c1 {
      %j2 = arith.muli %j, %c2 : index
      %jj = arith.index_cast %j2 : index to i32
      %c40i = arith.constant 40 : i32
      %d = arith.subi %jj, %c40i : i32
      %v = arith.sitofp %d : i32 to f32
      memref.store %v, %B[%j] : memref<128xf32>
    }
    %dX = gpu.alloc () : memref<64x128xf32>
    %dB = gpu.alloc () : memref<128xf32>
    %dY = gpu.alloc () : memref<64x128xf32>
    gpu.memcpy %dX, %X : memref<64x128xf32>, memref<64x128xf32>
    gpu.memcpy %dB, %B : memref<128xf32>, memref<128xf32>
    gpu.launch_func @kernels::@bias_relu blocks in (%c1, %c1, %c1) threads in (%c16, %c8, %c1)
        args(%dX : memref<64x128xf32>, %dB : memref<128xf32>, %dY : memref<64x128xf32>)
    gpu.memcpy %Y, %dY : memref<64x128xf32>, memref<64x128xf32>
    %rows = memref.subview %Y[0, 0] [2, 128] [63, 1] : memref<64x128xf32> to memref<2x128xf32, strided<[8064, 1]>>
    %u = memref.cast %rows : memref<2x128xf32, strided<[8064, 1]>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 128] strides = [8064, 1] data =
// CHECK-NEXT: {{\[\[}}0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,   11,   12,   13,   14,   15,   16,   17,   18,   19,   20,   21,   22,   23,   24,   25,   26,   27,   28,   29,   30,   31,   32,   33,   34,   35,   36,   37,   38,   39,   40,   41,   42,   43,   44,   45,   46,   47,   48,   49,   50,   51,   52,   53,   54,   55,   56,   57,   58,   59,   60,   61,   62,   63,   64,   65,   66,   67,   68,   69,   70,   71,   72,   73,   74,   75,   76,   77,   78,   79,   80,   81,   82,   83,   84,   85,   86,   87],
// CHECK-NEXT:  [23,   24,   25,   26,   27,   28,   29,   30,   31,   32,   33,   34,   35,   36,   37,   38,   39,   40,   41,   42,   43,   44,   45,   46,   47,   48,   49,   50,   51,   52,   53,   54,   55,   56,   57,   58,   59,   60,   61,   62,   63,   64,   65,   66,   67,   68,   69,   70,   71,   72,   73,   74,   75,   76,   77,   78,   79,   80,   81,   82,   83,   84,   85,   86,   87,   88,   89,   90,   91,   92,   93,   94,   95,   96,   97,   98,   99,   100,   101,   102,   103,   104,   105,   106,   107,   108,   109,   110,   111,   112,   113,   114,   115,   116,   117,   118,   119,   120,   121,   122,   123,   124,   125,   126,   127,   128,   129,   130,   131,   132,   133,   134,   135,   136,   137,   138,   139,   140,   141,   142,   143,   144,   145,   146,   147,   148,   149,   150]]
