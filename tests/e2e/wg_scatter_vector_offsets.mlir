// Workgroup-level gather/scatter on raw i64 addresses with vector offsets and masks, distributed over
// sg_layout [16] (sg_data [16]: one 16-lane message per subgroup, spec/programs-and-runner.md §3.2 WG, §3.3):
//   v[e]   = src[e] where e < 60 (vector.create_mask), else 0 (masked-off lanes read 0);
//   dst[p] = v[e] for p = 7e mod 256 (vector.step, arith on vector<256xindex>), only where p < 128
//            (arith.cmpi on the offsets) and e < 100 (vector.constant_mask); other dst elements keep the host's -1.
// src[e] = e + 1000.  By hand: dst[p] = src[183p mod 256] (183 = 7^-1 mod 256) if that index is < 60, else 0,
// for p < 128 whose source lane e = 183p mod 256 is < 100; -1 for the others.
// RUN: xesim run %s | filecheck %s

#s = #xegpu.layout<sg_layout = [16], sg_data = [16]>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @permute(%src: i64, %dst: i64) kernel {
      %step = vector.step {layout_result_0 = #s} : vector<256xindex>
      %n = arith.constant 60 : index
      %m = vector.create_mask %n {layout_result_0 = #s} : vector<256xi1>
      %v = xegpu.load %src[%step], %m <{layout = #s}> : i64, vector<256xindex>, vector<256xi1> -> vector<256xf32>
      %c7 = arith.constant {layout_result_0 = #s} dense<7> : vector<256xindex>
      %c256 = arith.constant {layout_result_0 = #s} dense<256> : vector<256xindex>
      %c128 = arith.constant {layout_result_0 = #s} dense<128> : vector<256xindex>
      %t = arith.muli %step, %c7 {layout_result_0 = #s} : vector<256xindex>
      %off = arith.remui %t, %c256 {layout_result_0 = #s} : vector<256xindex>
      %low = arith.cmpi ult, %off, %c128 {layout_result_0 = #s} : vector<256xindex>
      %first = vector.constant_mask [100] {layout_result_0 = #s} : vector<256xi1>
      %keep = arith.andi %low, %first {layout_result_0 = #s} : vector<256xi1>
      xegpu.store %v, %dst[%off], %keep <{layout = #s}> : vector<256xf32>, i64, vector<256xindex>, vector<256xi1>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %S = memref.alloc() : memref<256xf32>
    %D = memref.alloc() : memref<256xf32>
    %m1 = arith.constant -1.0 : f32
    scf.for %e = %c0 to %c256 step %c1 {
      %e32 = arith.index_cast %e : index to i32
      %f = arith.sitofp %e32 : i32 to f32
      %k = arith.constant 1000.0 : f32
      %v = arith.addf %f, %k : f32
      memref.store %v, %S[%e] : memref<256xf32>
      memref.store %m1, %D[%e] : memref<256xf32>
    }
    %dS = gpu.alloc () : memref<256xf32>
    %dD = gpu.alloc () : memref<256xf32>
    gpu.memcpy %dS, %S : memref<256xf32>, memref<256xf32>
    gpu.memcpy %dD, %D : memref<256xf32>, memref<256xf32>
    %is = memref.extract_aligned_pointer_as_index %dS : memref<256xf32> -> index
    %id = memref.extract_aligned_pointer_as_index %dD : memref<256xf32> -> index
    %ps = arith.index_cast %is : index to i64
    %pd = arith.index_cast %id : index to i64
    gpu.launch_func @kernels::@permute blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%ps : i64, %pd : i64)
    gpu.memcpy %D, %dD : memref<256xf32>, memref<256xf32>
    %u = memref.cast %D : memref<256xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [256] strides = [1] data =
// CHECK-NEXT: [1000,  -1,  -1,  1037,  -1,  -1,  0,  1001,  -1,  -1,  1038,  -1,  -1,  0,  1002,  -1,  -1,  1039,  -1,  -1,  0,  1003,  -1,  -1,  1040,  -1,  -1,  0,  1004,  -1,  -1,  1041,  -1,  -1,  0,  1005,  -1,  -1,  1042,  -1,  -1,  0,  1006,  -1,  -1,  1043,  -1,  -1,  0,  1007,  -1,  -1,  1044,  -1,  -1,  0,  1008,  -1,  -1,  1045,  -1,  -1,  0,  1009,  -1,  -1,  1046,  -1,  -1,  0,  1010,  -1,  -1,  1047,  -1,  -1,  0,  1011,  -1,  -1,  1048,  -1,  -1,  0,  1012,  -1,  -1,  1049,  -1,  -1,  0,  1013,  -1,  -1,  1050,  -1,  -1,  0,  1014,  -1,  -1,  1051,  -1,  -1,  0,  1015,  -1,  -1,  1052,  -1,  -1,  0,  1016,  -1,  -1,  1053,  -1,  -1,  0,  1017,  -1,  -1,  1054,  -1,  -1,  0,  1018,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
