// xegpu.atomic_rmw: every arith::AtomicRMWKind on i32 and f32 (spec/pvc-hardware.md §2.4), VC level (the IMEX VC
// lowering honours the mask).  For kind k, lane i updates element 16k + i of a 16-element row (addi and addf:
// lane 15 hits lane 14's element, so the two apply in lane order and lane 15 sees lane 14's result); lane 3 is
// masked off (no update, old value 0).  The op returns the values memory held before each lane's update.
// Integer rows start at Mi[k][i] = (7i + 3k) mod 11 - 5, values vi[i] = (5i mod 9) - 4; maxu/minu compare as
// unsigned 32-bit, muli wraps.  Float rows start at Mf[k][i] = ((3i + k) mod 7 - 3) / 4 with NaN at [2][5]
// (maximumf), [3][5] (maxnumf), [4][6] (minimumf), [5][6] (minnumf); values vf = vi / 2.
// maximumf/minimumf propagate NaN, maxnumf/minnumf return the number (MLIR arith semantics).
// mulf/muli and PVC-emulated kinds (e.g. mulf, addf is native only for global f32) still execute by definition.
// Expected values (numpy, semantics written out independently):
//   ik = ["addi","andi","assign","maxs","maxu","mins","minu","muli","ori","xori"]
//   fk = ["addf","assign","maximumf","maxnumf","minimumf","minnumf","mulf"]
//   Mi = (7*np.arange(16)[None] + 3*np.arange(10)[:,None]) % 11 - 5; vi = (5*np.arange(16)) % 9 - 4
//   Mf = ((3*np.arange(16)[None] + np.arange(7)[:,None]) % 7 - 3) / 4; Mf[2,5] = Mf[3,5] = Mf[4,6] = Mf[5,6] = nan
//   u = lambda x: x % 2**32; s = lambda x: (x + 2**31) % 2**32 - 2**31
//   iop = {"addi": lambda a, b: s(a+b), "andi": lambda a, b: s(a & b), "assign": lambda a, b: b,
//          "maxs": max, "maxu": lambda a, b: a if u(a) >= u(b) else b, "mins": min,
//          "minu": lambda a, b: a if u(a) <= u(b) else b, "muli": lambda a, b: s(a*b),
//          "ori": lambda a, b: s(a | b), "xori": lambda a, b: s(a ^ b)}
//   fop = {"addf": lambda a, b: a+b, "assign": lambda a, b: b, "mulf": lambda a, b: a*b,
//          "maximumf": lambda a, b: nan if isnan(a) or isnan(b) else max(a, b),
//          "minimumf": lambda a, b: nan if isnan(a) or isnan(b) else min(a, b),
//          "maxnumf": lambda a, b: b if isnan(a) else a if isnan(b) else max(a, b),
//          "minnumf": lambda a, b: b if isnan(a) else a if isnan(b) else min(a, b)}
//   for each row k and lane i in 0..15 (lane 3 skipped): e = (14 if kind in (addi, addf) and i == 15 else i)
//       old[k][i] = M[k][e]; M[k][e] = op(M[k][e], v[i])
//   printed: Mi (10x16), old ints (10x16), Mf (7x16), old floats (7x16)
// RUN: xesim run %s | filecheck %s

module @atomics attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%mi: memref<160xi32>, %oi: memref<160xi32>, %mf: memref<112xf32>, %of: memref<112xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %m = arith.constant dense<[true, true, true, false, true, true, true, true, true, true, true, true, true, true, true, true]> : vector<16xi1>
      %vi = arith.constant dense<[-4, 1, -3, 2, -2, 3, -1, 4, 0, -4, 1, -3, 2, -2, 3, -1]> : vector<16xi32>
      %vf = arith.constant dense<[-2.0, 0.5, -1.5, 1.0, -1.0, 1.5, -0.5, 2.0, 0.0, -2.0, 0.5, -1.5, 1.0, -1.0, 1.5, -0.5]> : vector<16xf32>
      %o_mi0 = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 14]> : vector<16xindex>
      %t_mi0 = xegpu.create_tdesc %mi, %o_mi0 : memref<160xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %r_mi0 = xegpu.atomic_rmw addi %t_mi0, %m, %vi : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      %s_mi0 = xegpu.create_nd_tdesc %oi[0] : memref<160xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.store_nd %r_mi0, %s_mi0 : vector<16xi32>, !xegpu.tensor_desc<16xi32>
      %o_mi1 = arith.constant dense<[16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]> : vector<16xindex>
      %t_mi1 = xegpu.create_tdesc %mi, %o_mi1 : memref<160xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %r_mi1 = xegpu.atomic_rmw andi %t_mi1, %m, %vi : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      %s_mi1 = xegpu.create_nd_tdesc %oi[16] : memref<160xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.store_nd %r_mi1, %s_mi1 : vector<16xi32>, !xegpu.tensor_desc<16xi32>
      %o_mi2 = arith.constant dense<[32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47]> : vector<16xindex>
      %t_mi2 = xegpu.create_tdesc %mi, %o_mi2 : memref<160xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %r_mi2 = xegpu.atomic_rmw assign %t_mi2, %m, %vi : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      %s_mi2 = xegpu.create_nd_tdesc %oi[32] : memref<160xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.store_nd %r_mi2, %s_mi2 : vector<16xi32>, !xegpu.tensor_desc<16xi32>
      %o_mi3 = arith.constant dense<[48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]> : vector<16xindex>
      %t_mi3 = xegpu.create_tdesc %mi, %o_mi3 : memref<160xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %r_mi3 = xegpu.atomic_rmw maxs %t_mi3, %m, %vi : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      %s_mi3 = xegpu.create_nd_tdesc %oi[48] : memref<160xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.store_nd %r_mi3, %s_mi3 : vector<16xi32>, !xegpu.tensor_desc<16xi32>
      %o_mi4 = arith.constant dense<[64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79]> : vector<16xindex>
      %t_mi4 = xegpu.create_tdesc %mi, %o_mi4 : memref<160xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %r_mi4 = xegpu.atomic_rmw maxu %t_mi4, %m, %vi : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      %s_mi4 = xegpu.create_nd_tdesc %oi[64] : memref<160xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.store_nd %r_mi4, %s_mi4 : vector<16xi32>, !xegpu.tensor_desc<16xi32>
      %o_mi5 = arith.constant dense<[80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95]> : vector<16xindex>
      %t_mi5 = xegpu.create_tdesc %mi, %o_mi5 : memref<160xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %r_mi5 = xegpu.atomic_rmw mins %t_mi5, %m, %vi : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      %s_mi5 = xegpu.create_nd_tdesc %oi[80] : memref<160xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.store_nd %r_mi5, %s_mi5 : vector<16xi32>, !xegpu.tensor_desc<16xi32>
      %o_mi6 = arith.constant dense<[96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111]> : vector<16xindex>
      %t_mi6 = xegpu.create_tdesc %mi, %o_mi6 : memref<160xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %r_mi6 = xegpu.atomic_rmw minu %t_mi6, %m, %vi : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      %s_mi6 = xegpu.create_nd_tdesc %oi[96] : memref<160xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.store_nd %r_mi6, %s_mi6 : vector<16xi32>, !xegpu.tensor_desc<16xi32>
      %o_mi7 = arith.constant dense<[112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127]> : vector<16xindex>
      %t_mi7 = xegpu.create_tdesc %mi, %o_mi7 : memref<160xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %r_mi7 = xegpu.atomic_rmw muli %t_mi7, %m, %vi : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      %s_mi7 = xegpu.create_nd_tdesc %oi[112] : memref<160xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.store_nd %r_mi7, %s_mi7 : vector<16xi32>, !xegpu.tensor_desc<16xi32>
      %o_mi8 = arith.constant dense<[128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143]> : vector<16xindex>
      %t_mi8 = xegpu.create_tdesc %mi, %o_mi8 : memref<160xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %r_mi8 = xegpu.atomic_rmw ori %t_mi8, %m, %vi : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      %s_mi8 = xegpu.create_nd_tdesc %oi[128] : memref<160xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.store_nd %r_mi8, %s_mi8 : vector<16xi32>, !xegpu.tensor_desc<16xi32>
      %o_mi9 = arith.constant dense<[144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159]> : vector<16xindex>
      %t_mi9 = xegpu.create_tdesc %mi, %o_mi9 : memref<160xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %r_mi9 = xegpu.atomic_rmw xori %t_mi9, %m, %vi : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      %s_mi9 = xegpu.create_nd_tdesc %oi[144] : memref<160xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.store_nd %r_mi9, %s_mi9 : vector<16xi32>, !xegpu.tensor_desc<16xi32>
      %o_mf0 = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 14]> : vector<16xindex>
      %t_mf0 = xegpu.create_tdesc %mf, %o_mf0 : memref<112xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
      %r_mf0 = xegpu.atomic_rmw addf %t_mf0, %m, %vf : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
      %s_mf0 = xegpu.create_nd_tdesc %of[0] : memref<112xf32> -> !xegpu.tensor_desc<16xf32>
      xegpu.store_nd %r_mf0, %s_mf0 : vector<16xf32>, !xegpu.tensor_desc<16xf32>
      %o_mf1 = arith.constant dense<[16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]> : vector<16xindex>
      %t_mf1 = xegpu.create_tdesc %mf, %o_mf1 : memref<112xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
      %r_mf1 = xegpu.atomic_rmw assign %t_mf1, %m, %vf : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
      %s_mf1 = xegpu.create_nd_tdesc %of[16] : memref<112xf32> -> !xegpu.tensor_desc<16xf32>
      xegpu.store_nd %r_mf1, %s_mf1 : vector<16xf32>, !xegpu.tensor_desc<16xf32>
      %o_mf2 = arith.constant dense<[32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47]> : vector<16xindex>
      %t_mf2 = xegpu.create_tdesc %mf, %o_mf2 : memref<112xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
      %r_mf2 = xegpu.atomic_rmw maximumf %t_mf2, %m, %vf : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
      %s_mf2 = xegpu.create_nd_tdesc %of[32] : memref<112xf32> -> !xegpu.tensor_desc<16xf32>
      xegpu.store_nd %r_mf2, %s_mf2 : vector<16xf32>, !xegpu.tensor_desc<16xf32>
      %o_mf3 = arith.constant dense<[48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]> : vector<16xindex>
      %t_mf3 = xegpu.create_tdesc %mf, %o_mf3 : memref<112xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
      %r_mf3 = xegpu.atomic_rmw maxnumf %t_mf3, %m, %vf : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
      %s_mf3 = xegpu.create_nd_tdesc %of[48] : memref<112xf32> -> !xegpu.tensor_desc<16xf32>
      xegpu.store_nd %r_mf3, %s_mf3 : vector<16xf32>, !xegpu.tensor_desc<16xf32>
      %o_mf4 = arith.constant dense<[64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79]> : vector<16xindex>
      %t_mf4 = xegpu.create_tdesc %mf, %o_mf4 : memref<112xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
      %r_mf4 = xegpu.atomic_rmw minimumf %t_mf4, %m, %vf : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
      %s_mf4 = xegpu.create_nd_tdesc %of[64] : memref<112xf32> -> !xegpu.tensor_desc<16xf32>
      xegpu.store_nd %r_mf4, %s_mf4 : vector<16xf32>, !xegpu.tensor_desc<16xf32>
      %o_mf5 = arith.constant dense<[80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95]> : vector<16xindex>
      %t_mf5 = xegpu.create_tdesc %mf, %o_mf5 : memref<112xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
      %r_mf5 = xegpu.atomic_rmw minnumf %t_mf5, %m, %vf : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
      %s_mf5 = xegpu.create_nd_tdesc %of[80] : memref<112xf32> -> !xegpu.tensor_desc<16xf32>
      xegpu.store_nd %r_mf5, %s_mf5 : vector<16xf32>, !xegpu.tensor_desc<16xf32>
      %o_mf6 = arith.constant dense<[96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111]> : vector<16xindex>
      %t_mf6 = xegpu.create_tdesc %mf, %o_mf6 : memref<112xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
      %r_mf6 = xegpu.atomic_rmw mulf %t_mf6, %m, %vf : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
      %s_mf6 = xegpu.create_nd_tdesc %of[96] : memref<112xf32> -> !xegpu.tensor_desc<16xf32>
      xegpu.store_nd %r_mf6, %s_mf6 : vector<16xf32>, !xegpu.tensor_desc<16xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c10 = arith.constant 10 : index
    %c11 = arith.constant 11 : index
    %c16 = arith.constant 16 : index
    %Mi = memref.alloc() : memref<10x16xi32>
    %Mf = memref.alloc() : memref<7x16xf32>
    scf.for %k = %c0 to %c10 step %c1 {
      scf.for %i = %c0 to %c16 step %c1 {
        %a = arith.muli %i, %c7 : index
        %b = arith.muli %k, %c3 : index
        %s = arith.addi %a, %b : index
        %r = arith.remui %s, %c11 : index
        %ri = arith.index_cast %r : index to i32
        %five = arith.constant 5 : i32
        %v = arith.subi %ri, %five : i32
        memref.store %v, %Mi[%k, %i] : memref<10x16xi32>
        %kf = arith.cmpi ult, %k, %c7 : index
        scf.if %kf {
          %a3 = arith.muli %i, %c3 : index
          %t = arith.addi %a3, %k : index
          %tr = arith.remui %t, %c7 : index
          %ti = arith.index_cast %tr : index to i32
          %tf = arith.sitofp %ti : i32 to f32
          %three = arith.constant 3.0 : f32
          %quarter = arith.constant 0.25 : f32
          %d = arith.subf %tf, %three : f32
          %w = arith.mulf %d, %quarter : f32
          memref.store %w, %Mf[%k, %i] : memref<7x16xf32>
        }
      }
    }
    %nan = arith.constant 0x7FC00000 : f32
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    memref.store %nan, %Mf[%c2, %c5] : memref<7x16xf32>
    memref.store %nan, %Mf[%c3, %c5] : memref<7x16xf32>
    memref.store %nan, %Mf[%c4, %c6] : memref<7x16xf32>
    memref.store %nan, %Mf[%c5, %c6] : memref<7x16xf32>
    %Mi1 = memref.reinterpret_cast %Mi to offset: [0], sizes: [160], strides: [1] : memref<10x16xi32> to memref<160xi32>
    %Mf1 = memref.reinterpret_cast %Mf to offset: [0], sizes: [112], strides: [1] : memref<7x16xf32> to memref<112xf32>
    %dMi = gpu.alloc () : memref<160xi32>
    %dOi = gpu.alloc () : memref<160xi32>
    %dMf = gpu.alloc () : memref<112xf32>
    %dOf = gpu.alloc () : memref<112xf32>
    gpu.memcpy %dMi, %Mi1 : memref<160xi32>, memref<160xi32>
    gpu.memcpy %dMf, %Mf1 : memref<112xf32>, memref<112xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dMi : memref<160xi32>, %dOi : memref<160xi32>, %dMf : memref<112xf32>, %dOf : memref<112xf32>)
    %Oi = memref.alloc() : memref<10x16xi32>
    %Of = memref.alloc() : memref<7x16xf32>
    %Oi1 = memref.reinterpret_cast %Oi to offset: [0], sizes: [160], strides: [1] : memref<10x16xi32> to memref<160xi32>
    %Of1 = memref.reinterpret_cast %Of to offset: [0], sizes: [112], strides: [1] : memref<7x16xf32> to memref<112xf32>
    gpu.memcpy %Mi1, %dMi : memref<160xi32>, memref<160xi32>
    gpu.memcpy %Oi1, %dOi : memref<160xi32>, memref<160xi32>
    gpu.memcpy %Mf1, %dMf : memref<112xf32>, memref<112xf32>
    gpu.memcpy %Of1, %dOf : memref<112xf32>, memref<112xf32>
    %p1 = memref.cast %Mi : memref<10x16xi32> to memref<*xi32>
    %p2 = memref.cast %Oi : memref<10x16xi32> to memref<*xi32>
    %p3 = memref.cast %Mf : memref<7x16xf32> to memref<*xf32>
    %p4 = memref.cast %Of : memref<7x16xf32> to memref<*xf32>
    call @printMemrefI32(%p1) : (memref<*xi32>) -> ()
    call @printMemrefI32(%p2) : (memref<*xi32>) -> ()
    call @printMemrefF32(%p3) : (memref<*xf32>) -> ()
    call @printMemrefF32(%p4) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [10, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}-9,   3,   -5,   5,   -1,   0,   3,   4,   -4,   -1,   0,   -8,   4,   -4,   7,   1],
// CHECK-NEXT:  [-4,   1,   1,   -3,   4,   0,   -4,   0,   0,   -8,   0,   -4,   0,   0,   1,   4],
// CHECK-NEXT:  [-4,   1,   -3,   0,   -2,   3,   -1,   4,   0,   -4,   1,   -3,   2,   -2,   3,   -1],
// CHECK-NEXT:  [4,   1,   -3,   3,   -1,   3,   2,   4,   5,   1,   1,   4,   2,   -2,   3,   -1],
// CHECK-NEXT:  [-4,   3,   -1,   -5,   -2,   -2,   -1,   4,   -3,   -4,   1,   -3,   3,   -1,   -5,   -1],
// CHECK-NEXT:  [-4,   -5,   -3,   -2,   -2,   1,   -3,   4,   0,   -4,   1,   -3,   -5,   -2,   -2,   -1],
// CHECK-NEXT:  [2,   1,   5,   1,   -3,   3,   0,   4,   0,   -4,   1,   2,   2,   5,   1,   -3],
// CHECK-NEXT:  [-20,   1,   9,   4,   0,   -12,   -3,   -4,   0,   -8,   -2,   -15,   2,   6,   12,   0],
// CHECK-NEXT:  [-3,   5,   -3,   -4,   -1,   -1,   -1,   6,   -2,   -3,   1,   -3,   6,   -2,   -1,   -1],
// CHECK-NEXT:  [-4,   -3,   -2,   -1,   5,   1,   1,   1,   1,   1,   5,   -3,   -2,   -3,   -4,   4]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [10, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}-5,   2,   -2,   0,   1,   -3,   4,   0,   -4,   3,   -1,   -5,   2,   -2,   5,   8],
// CHECK-NEXT:  [-2,   5,   1,   0,   4,   0,   -4,   3,   -1,   -5,   2,   -2,   5,   1,   -3,   4],
// CHECK-NEXT:  [1,   -3,   4,   0,   -4,   3,   -1,   -5,   2,   -2,   5,   1,   -3,   4,   0,   -4],
// CHECK-NEXT:  [4,   0,   -4,   0,   -1,   -5,   2,   -2,   5,   1,   -3,   4,   0,   -4,   3,   -1],
// CHECK-NEXT:  [-4,   3,   -1,   0,   2,   -2,   5,   1,   -3,   4,   0,   -4,   3,   -1,   -5,   2],
// CHECK-NEXT:  [-1,   -5,   2,   0,   5,   1,   -3,   4,   0,   -4,   3,   -1,   -5,   2,   -2,   5],
// CHECK-NEXT:  [2,   -2,   5,   0,   -3,   4,   0,   -4,   3,   -1,   -5,   2,   -2,   5,   1,   -3],
// CHECK-NEXT:  [5,   1,   -3,   0,   0,   -4,   3,   -1,   -5,   2,   -2,   5,   1,   -3,   4,   0],
// CHECK-NEXT:  [-3,   4,   0,   0,   3,   -1,   -5,   2,   -2,   5,   1,   -3,   4,   0,   -4,   3],
// CHECK-NEXT:  [0,   -4,   3,   0,   -5,   2,   -2,   5,   1,   -3,   4,   0,   -4,   3,   -1,   -5]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [7, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}-2.75,   0.5,   -0.75,   -0.25,   -0.5,   1,   -0.25,   1.25,   0,   -1.25,   0.25,   -1,   0.5,   -0.75,   0.25,   0],
// CHECK-NEXT:  [-2,   0.5,   -1.5,   0,   -1,   1.5,   -0.5,   2,   0,   -2,   0.5,   -1.5,   1,   -1,   1.5,   -0.5],
// CHECK-NEXT:  [-0.25,   0.5,   -0.5,   0.25,   -0.75,   nan,   0.75,   2,   0.5,   -0.5,   0.5,   -0.75,   1,   0.75,   1.5,   0.5],
// CHECK-NEXT:  [0,   0.75,   -0.25,   0.5,   -0.5,   1.5,   -0.5,   2,   0.75,   -0.25,   0.5,   -0.5,   1,   -0.75,   1.5,   0.75],
// CHECK-NEXT:  [-2,   -0.75,   -1.5,   0.75,   -1,   0.5,   nan,   0.25,   -0.75,   -2,   0.5,   -1.5,   0.5,   -1,   0.25,   -0.75],
// CHECK-NEXT:  [-2,   -0.5,   -1.5,   -0.75,   -1,   0.75,   -0.5,   0.5,   -0.5,   -2,   -0.75,   -1.5,   0.75,   -1,   0.5,   -0.5],
// CHECK-NEXT:  [-1.5,   -0.125,   -0.75,   -0.5,   -0.25,   -1.125,   -0,   1.5,   -0,   -1,   -0.25,   -0.375,   -0.75,   -0,   1.125,   0.125]]
// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [7, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}-0.75,   0,   0.75,   0,   0.5,   -0.5,   0.25,   -0.75,   0,   0.75,   -0.25,   0.5,   -0.5,   0.25,   -0.75,   0.75],
// CHECK-NEXT:  [-0.5,   0.25,   -0.75,   0,   0.75,   -0.25,   0.5,   -0.5,   0.25,   -0.75,   0,   0.75,   -0.25,   0.5,   -0.5,   0.25],
// CHECK-NEXT:  [-0.25,   0.5,   -0.5,   0,   -0.75,   nan,   0.75,   -0.25,   0.5,   -0.5,   0.25,   -0.75,   0,   0.75,   -0.25,   0.5],
// CHECK-NEXT:  [0,   0.75,   -0.25,   0,   -0.5,   nan,   -0.75,   0,   0.75,   -0.25,   0.5,   -0.5,   0.25,   -0.75,   0,   0.75],
// CHECK-NEXT:  [0.25,   -0.75,   0,   0,   -0.25,   0.5,   nan,   0.25,   -0.75,   0,   0.75,   -0.25,   0.5,   -0.5,   0.25,   -0.75],
// CHECK-NEXT:  [0.5,   -0.5,   0.25,   0,   0,   0.75,   nan,   0.5,   -0.5,   0.25,   -0.75,   0,   0.75,   -0.25,   0.5,   -0.5],
// CHECK-NEXT:  [0.75,   -0.25,   0.5,   0,   0.25,   -0.75,   0,   0.75,   -0.25,   0.5,   -0.5,   0.25,   -0.75,   0,   0.75,   -0.25]]
