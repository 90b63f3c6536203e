// Four workgroups of four subgroups (SG level) each use two SLM buffers.  Run in one lockstep batch, the
// workgroups' SLM is one layout stored once per workgroup (xesim/hw/memory.py BankedSpace), and every access must
// reach its own workgroup's copy:
//   * subgroup s of workgroup b stores 1000 b + 100 s + i into row s of %slm (memref.store, varying index);
//   * after the barrier it reads %slm[0][0] = 1000 b (memref.load with the same indices in every workgroup) and
//     %slm[0][3] = 1000 b + 3 (vector.load, an op written for one instance), and copies row (s + 1) mod 4 plus both
//     into out[4 b + s]: out[4 b + s][i] = 3000 b + 100 ((s + 1) mod 4) + i + 3;
//   * it also stores rows 8 b + 2 s .. + 1 of %in (in[r][c] = 100 r + c) into an SLM matrix at row 2 s
//     (store_matrix) and, after the barrier, loads the rows the next subgroup stored (load_matrix) into out2:
//     out2[8 b + 2 s + r] = in[8 b + 2 ((s + 1) mod 4) + r].
// Expected values by the formulas above.
// RUN: xesim run %s | filecheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%in: memref<32x16xi32>, %out: memref<16x16xi32>, %out2: memref<32x16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c100 = arith.constant 100 : index
      %c1000 = arith.constant 1000 : index
      %bx = gpu.block_id x
      %sg = gpu.subgroup_id : index
      %slm = memref.alloc() : memref<4x16xi32, 3>
      %buf = memref.alloc() : memref<512xi8, 3>
      %md = xegpu.create_mem_desc %buf : memref<512xi8, 3> -> !xegpu.mem_desc<8x16xi32>
      %b1000 = arith.muli %bx, %c1000 : index
      %s100 = arith.muli %sg, %c100 : index
      %base = arith.addi %b1000, %s100 : index
      scf.for %i = %c0 to %c16 step %c1 {
        %v = arith.addi %base, %i : index
        %vi = arith.index_cast %v : index to i32
        memref.store %vi, %slm[%sg, %i] : memref<4x16xi32, 3>
      }
      %b8 = arith.muli %bx, %c8 : index
      %s2 = arith.muli %sg, %c2 : index
      %row = arith.addi %b8, %s2 : index
      %ti = xegpu.create_nd_tdesc %in : memref<32x16xi32> -> !xegpu.tensor_desc<2x16xi32>
      %tile = xegpu.load_nd %ti[%row, %c0] : !xegpu.tensor_desc<2x16xi32> -> vector<2x16xi32>
      xegpu.store_matrix %tile, %md[%s2, %c0] : vector<2x16xi32>, !xegpu.mem_desc<8x16xi32>, index, index
      gpu.barrier
      %first = memref.load %slm[%c0, %c0] : memref<4x16xi32, 3>
      %vl = vector.load %slm[%c0, %c0] : memref<4x16xi32, 3>, vector<16xi32>
      %third = vector.extract %vl[3] : i32 from vector<16xi32>
      %n1 = arith.addi %sg, %c1 : index
      %n = arith.remui %n1, %c4 : index
      %b4 = arith.muli %bx, %c4 : index
      %orow = arith.addi %b4, %sg : index
      scf.for %i = %c0 to %c16 step %c1 {
        %w = memref.load %slm[%n, %i] : memref<4x16xi32, 3>
        %x0 = arith.addi %w, %first : i32
        %x = arith.addi %x0, %third : i32
        memref.store %x, %out[%orow, %i] : memref<16x16xi32>
      }
      %n2 = arith.muli %n, %c2 : index
      %got = xegpu.load_matrix %md[%n2, %c0] : !xegpu.mem_desc<8x16xi32>, index, index -> vector<2x16xi32>
      %to = xegpu.create_nd_tdesc %out2 : memref<32x16xi32> -> !xegpu.tensor_desc<2x16xi32>
      xegpu.store_nd %got, %to[%row, %c0] : vector<2x16xi32>, !xegpu.tensor_desc<2x16xi32>
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
    %c100 = arith.constant 100 : index
    %A = memref.alloc() : memref<32x16xi32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %t = arith.muli %i, %c100 : index
        %s = arith.addi %t, %j : index
        %si = arith.index_cast %s : index to i32
        memref.store %si, %A[%i, %j] : memref<32x16xi32>
      }
    }
    %dA = gpu.alloc () : memref<32x16xi32>
    %dO = gpu.alloc () : memref<16x16xi32>
    %dO2 = gpu.alloc () : memref<32x16xi32>
    gpu.memcpy %dA, %A : memref<32x16xi32>, memref<32x16xi32>
    gpu.launch_func @k::@f blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%dA : memref<32x16xi32>, %dO : memref<16x16xi32>, %dO2 : memref<32x16xi32>)
    gpu.wait
    %O = memref.alloc() : memref<16x16xi32>
    gpu.memcpy %O, %dO : memref<16x16xi32>, memref<16x16xi32>
    %u = memref.cast %O : memref<16x16xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %O2 = memref.alloc() : memref<32x16xi32>
    gpu.memcpy %O2, %dO2 : memref<32x16xi32>, memref<32x16xi32>
    %u2 = memref.cast %O2 : memref<32x16xi32> to memref<*xi32>
    call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
}

// CHECK: rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118],
// CHECK-NEXT: [203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218],
// CHECK-NEXT: [303, 304, 305, 306, 307, 308, 309, 310, 311, 312, 313, 314, 315, 316, 317, 318],
// CHECK-NEXT: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18],
// CHECK-NEXT: [3103, 3104, 3105, 3106, 3107, 3108, 3109, 3110, 3111, 3112, 3113, 3114, 3115, 3116, 3117, 3118],
// CHECK-NEXT: [3203, 3204, 3205, 3206, 3207, 3208, 3209, 3210, 3211, 3212, 3213, 3214, 3215, 3216, 3217, 3218],
// CHECK-NEXT: [3303, 3304, 3305, 3306, 3307, 3308, 3309, 3310, 3311, 3312, 3313, 3314, 3315, 3316, 3317, 3318],
// CHECK-NEXT: [3003, 3004, 3005, 3006, 3007, 3008, 3009, 3010, 3011, 3012, 3013, 3014, 3015, 3016, 3017, 3018],
// CHECK-NEXT: [6103, 6104, 6105, 6106, 6107, 6108, 6109, 6110, 6111, 6112, 6113, 6114, 6115, 6116, 6117, 6118],
// CHECK-NEXT: [6203, 6204, 6205, 6206, 6207, 6208, 6209, 6210, 6211, 6212, 6213, 6214, 6215, 6216, 6217, 6218],
// CHECK-NEXT: [6303, 6304, 6305, 6306, 6307, 6308, 6309, 6310, 6311, 6312, 6313, 6314, 6315, 6316, 6317, 6318],
// CHECK-NEXT: [6003, 6004, 6005, 6006, 6007, 6008, 6009, 6010, 6011, 6012, 6013, 6014, 6015, 6016, 6017, 6018],
// CHECK-NEXT: [9103, 9104, 9105, 9106, 9107, 9108, 9109, 9110, 9111, 9112, 9113, 9114, 9115, 9116, 9117, 9118],
// CHECK-NEXT: [9203, 9204, 9205, 9206, 9207, 9208, 9209, 9210, 9211, 9212, 9213, 9214, 9215, 9216, 9217, 9218],
// CHECK-NEXT: [9303, 9304, 9305, 9306, 9307, 9308, 9309, 9310, 9311, 9312, 9313, 9314, 9315, 9316, 9317, 9318],
// CHECK-NEXT: [9003, 9004, 9005, 9006, 9007, 9008, 9009, 9010, 9011, 9012, 9013, 9014, 9015, 9016, 9017, 9018]]
// CHECK: rank = 2 offset = 0 sizes = [32, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215],
// CHECK-NEXT: [300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 311, 312, 313, 314, 315],
// CHECK-NEXT: [400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415],
// CHECK-NEXT: [500, 501, 502, 503, 504, 505, 506, 507, 508, 509, 510, 511, 512, 513, 514, 515],
// CHECK-NEXT: [600, 601, 602, 603, 604, 605, 606, 607, 608, 609, 610, 611, 612, 613, 614, 615],
// CHECK-NEXT: [700, 701, 702, 703, 704, 705, 706, 707, 708, 709, 710, 711, 712, 713, 714, 715],
// CHECK-NEXT: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
// CHECK-NEXT: [100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115],
// CHECK-NEXT: [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 1015],
// CHECK-NEXT: [1100, 1101, 1102, 1103, 1104, 1105, 1106, 1107, 1108, 1109, 1110, 1111, 1112, 1113, 1114, 1115],
// CHECK-NEXT: [1200, 1201, 1202, 1203, 1204, 1205, 1206, 1207, 1208, 1209, 1210, 1211, 1212, 1213, 1214, 1215],
// CHECK-NEXT: [1300, 1301, 1302, 1303, 1304, 1305, 1306, 1307, 1308, 1309, 1310, 1311, 1312, 1313, 1314, 1315],
// CHECK-NEXT: [1400, 1401, 1402, 1403, 1404, 1405, 1406, 1407, 1408, 1409, 1410, 1411, 1412, 1413, 1414, 1415],
// CHECK-NEXT: [1500, 1501, 1502, 1503, 1504, 1505, 1506, 1507, 1508, 1509, 1510, 1511, 1512, 1513, 1514, 1515],
// CHECK-NEXT: [800, 801, 802, 803, 804, 805, 806, 807, 808, 809, 810, 811, 812, 813, 814, 815],
// CHECK-NEXT: [900, 901, 902, 903, 904, 905, 906, 907, 908, 909, 910, 911, 912, 913, 914, 915],
// CHECK-NEXT: [1800, 1801, 1802, 1803, 1804, 1805, 1806, 1807, 1808, 1809, 1810, 1811, 1812, 1813, 1814, 1815],
// CHECK-NEXT: [1900, 1901, 1902, 1903, 1904, 1905, 1906, 1907, 1908, 1909, 1910, 1911, 1912, 1913, 1914, 1915],
// CHECK-NEXT: [2000, 2001, 2002, 2003, 2004, 2005, 2006, 2007, 2008, 2009, 2010, 2011, 2012, 2013, 2014, 2015],
// CHECK-NEXT: [2100, 2101, 2102, 2103, 2104, 2105, 2106, 2107, 2108, 2109, 2110, 2111, 2112, 2113, 2114, 2115],
// CHECK-NEXT: [2200, 2201, 2202, 2203, 2204, 2205, 2206, 2207, 2208, 2209, 2210, 2211, 2212, 2213, 2214, 2215],
// CHECK-NEXT: [2300, 2301, 2302, 2303, 2304, 2305, 2306, 2307, 2308, 2309, 2310, 2311, 2312, 2313, 2314, 2315],
// CHECK-NEXT: [1600, 1601, 1602, 1603, 1604, 1605, 1606, 1607, 1608, 1609, 1610, 1611, 1612, 1613, 1614, 1615],
// CHECK-NEXT: [1700, 1701, 1702, 1703, 1704, 1705, 1706, 1707, 1708, 1709, 1710, 1711, 1712, 1713, 1714, 1715],
// CHECK-NEXT: [2600, 2601, 2602, 2603, 2604, 2605, 2606, 2607, 2608, 2609, 2610, 2611, 2612, 2613, 2614, 2615],
// CHECK-NEXT: [2700, 2701, 2702, 2703, 2704, 2705, 2706, 2707, 2708, 2709, 2710, 2711, 2712, 2713, 2714, 2715],
// CHECK-NEXT: [2800, 2801, 2802, 2803, 2804, 2805, 2806, 2807, 2808, 2809, 2810, 2811, 2812, 2813, 2814, 2815],
// CHECK-NEXT: [2900, 2901, 2902, 2903, 2904, 2905, 2906, 2907, 2908, 2909, 2910, 2911, 2912, 2913, 2914, 2915],
// CHECK-NEXT: [3000, 3001, 3002, 3003, 3004, 3005, 3006, 3007, 3008, 3009, 3010, 3011, 3012, 3013, 3014, 3015],
// CHECK-NEXT: [3100, 3101, 3102, 3103, 3104, 3105, 3106, 3107, 3108, 3109, 3110, 3111, 3112, 3113, 3114, 3115],
// CHECK-NEXT: [2400, 2401, 2402, 2403, 2404, 2405, 2406, 2407, 2408, 2409, 2410, 2411, 2412, 2413, 2414, 2415],
// CHECK-NEXT: [2500, 2501, 2502, 2503, 2504, 2505, 2506, 2507, 2508, 2509, 2510, 2511, 2512, 2513, 2514, 2515]]
