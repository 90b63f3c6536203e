// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s

// vector ops print back in mlir-opt's syntax: loads/stores, broadcast, static and dynamic extract/insert
// positions, strided slices, shuffle, shape ops, reductions with combining kinds, masks, transfer ops (default
// permutation_map and in_bounds elided, masks), contract (default kind added), legacy element ops and print.
// CHECK:      #mk = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-NEXT: #kn = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-NEXT: #mn = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @vectors(%m: memref<16x16xf32>, %dm: memref<?x?xf16>, %i: index, %j: index, %s: f32, %v4: vector<4xf32>, %a: vector<8x16xf16>, %b: vector<16x16xf16>, %acc: vector<8x16xf32>) {
// CHECK-NEXT: %pad = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %hpad = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %ld = vector.load %m[%i, %j] : memref<16x16xf32>, vector<8xf32>
// CHECK-NEXT: vector.store %ld, %m[%i, %j] : memref<16x16xf32>, vector<8xf32>
// CHECK-NEXT: %bc = vector.broadcast %s : f32 to vector<4x4xf32>
// CHECK-NEXT: %bv = vector.broadcast %v4 : vector<4xf32> to vector<2x4xf32>
// CHECK-NEXT: %sp = vector.splat %s : vector<8xf32>
// CHECK-NEXT: %e0 = vector.extract %bc[0, 1] : f32 from vector<4x4xf32>
// CHECK-NEXT: %e1 = vector.extract %bc[%i] : vector<4xf32> from vector<4x4xf32>
// CHECK-NEXT: %e2 = vector.extract %bc[%i, 3] : f32 from vector<4x4xf32>
// CHECK-NEXT: %in = vector.insert %e0, %bc [2, 1] : f32 into vector<4x4xf32>
// CHECK-NEXT: %ir = vector.insert %v4, %bc [%j] : vector<4xf32> into vector<4x4xf32>
// CHECK-NEXT: %ss = vector.extract_strided_slice %bc {offsets = [1, 0], sizes = [2, 4], strides = [1, 1]} : vector<4x4xf32> to vector<2x4xf32>
// CHECK-NEXT: %is = vector.insert_strided_slice %ss, %bc {offsets = [2, 0], strides = [1, 1]} : vector<2x4xf32> into vector<4x4xf32>
// CHECK-NEXT: %sh = vector.shuffle %v4, %v4 [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT: %sc = vector.shape_cast %bc : vector<4x4xf32> to vector<16xf32>
// CHECK-NEXT: %tr = vector.transpose %bv, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
// CHECK-NEXT: %bt = vector.bitcast %ld : vector<8xf32> to vector<16xf16>
// CHECK-NEXT: %rd = vector.reduction <add>, %sc : vector<16xf32> into f32
// CHECK-NEXT: %rm = vector.reduction <maximumf>, %sc, %s : vector<16xf32>, f32 into f32
// CHECK-NEXT: %mr = vector.multi_reduction <add>, %bc, %v4 [1] : vector<4x4xf32> to vector<4xf32>
// CHECK-NEXT: %ma = vector.multi_reduction <minimumf>, %bc, %s [0, 1] : vector<4x4xf32> to f32
// CHECK-NEXT: %st = vector.step : vector<16xindex>
// CHECK-NEXT: %cm = vector.create_mask %i, %j : vector<4x8xi1>
// CHECK-NEXT: %km = vector.constant_mask [3, 2] : vector<4x3xi1>
// CHECK-NEXT: %fm = vector.fma %v4, %v4, %v4 : vector<4xf32>
// CHECK-NEXT: %t0 = vector.transfer_read %m[%i, %j], %pad : memref<16x16xf32>, vector<8xf32>
// CHECK-NEXT: %t1 = vector.transfer_read %dm[%i, %j], %hpad {in_bounds = [true, false]} : memref<?x?xf16>, vector<8x16xf16>
// CHECK-NEXT: %t2 = vector.transfer_read %m[%i, %j], %pad, %cm {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<16x16xf32>, vector<8x4xf32>
// CHECK-NEXT: %t3 = vector.transfer_read %m[%i, %j], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<16x16xf32>, vector<4x8xf32>
// CHECK-NEXT: vector.transfer_write %t0, %m[%i, %j] : vector<8xf32>, memref<16x16xf32>
// CHECK-NEXT: vector.transfer_write %t2, %m[%i, %j], %cm {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<8x4xf32>, memref<16x16xf32>
// CHECK-NEXT: %fe = vector.from_elements %s, %e0, %rd, %rm : vector<2x2xf32>
// CHECK-NEXT: %ct = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<8x16xf16>, vector<16x16xf16> into vector<8x16xf32>
// CHECK-NEXT: %cd = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %v4, %v4, %s : vector<4xf32>, vector<4xf32> into f32
// CHECK-NEXT: %c3 = arith.constant 3 : i32
// CHECK-NEXT: %ee = vector.extractelement %v4[%c3 : i32] : vector<4xf32>
// CHECK-NEXT: %ie = vector.insertelement %ee, %v4[%i : index] : vector<4xf32>
// CHECK-NEXT: vector.print %ld : vector<8xf32>
// CHECK-NEXT: vector.print %rd : f32 punctuation <comma>
// CHECK-NEXT: vector.print str "result: "
// CHECK-NEXT: vector.print
// CHECK-NEXT: vector.print punctuation <close>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @vectors(%m: memref<16x16xf32>, %dm: memref<?x?xf16>, %i: index, %j: index, %s: f32, %v4: vector<4xf32>, %a: vector<8x16xf16>, %b: vector<16x16xf16>, %acc: vector<8x16xf32>) {
    %pad = arith.constant 0.0 : f32
    %hpad = arith.constant 0.0 : f16
    %ld = vector.load %m[%i, %j] : memref<16x16xf32>, vector<8xf32>
    vector.store %ld, %m[%i, %j] : memref<16x16xf32>, vector<8xf32>
    %bc = vector.broadcast %s : f32 to vector<4x4xf32>
    %bv = vector.broadcast %v4 : vector<4xf32> to vector<2x4xf32>
    %sp = vector.splat %s : vector<8xf32>
    %e0 = vector.extract %bc[0, 1] : f32 from vector<4x4xf32>
    %e1 = vector.extract %bc[%i] : vector<4xf32> from vector<4x4xf32>
    %e2 = vector.extract %bc[%i, 3] : f32 from vector<4x4xf32>
    %in = vector.insert %e0, %bc [2, 1] : f32 into vector<4x4xf32>
    %ir = vector.insert %v4, %bc [%j] : vector<4xf32> into vector<4x4xf32>
    %ss = vector.extract_strided_slice %bc {offsets = [1, 0], sizes = [2, 4], strides = [1, 1]} : vector<4x4xf32> to vector<2x4xf32>
    %is = vector.insert_strided_slice %ss, %bc {offsets = [2, 0], strides = [1, 1]} : vector<2x4xf32> into vector<4x4xf32>
    %sh = vector.shuffle %v4, %v4 [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xf32>, vector<4xf32>
    %sc = vector.shape_cast %bc : vector<4x4xf32> to vector<16xf32>
    %tr = vector.transpose %bv, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
    %bt = vector.bitcast %ld : vector<8xf32> to vector<16xf16>
    %rd = vector.reduction <add>, %sc : vector<16xf32> into f32
    %rm = vector.reduction <maximumf>, %sc, %s : vector<16xf32>, f32 into f32
    %mr = vector.multi_reduction <add>, %bc, %v4 [1] : vector<4x4xf32> to vector<4xf32>
    %ma = vector.multi_reduction <minimumf>, %bc, %s [0, 1] : vector<4x4xf32> to f32
    %st = vector.step : vector<16xindex>
    %cm = vector.create_mask %i, %j : vector<4x8xi1>
    %km = vector.constant_mask [3, 2] : vector<4x3xi1>
    %fm = vector.fma %v4, %v4, %v4 : vector<4xf32>
    %t0 = vector.transfer_read %m[%i, %j], %pad : memref<16x16xf32>, vector<8xf32>
    %t1 = vector.transfer_read %dm[%i, %j], %hpad {in_bounds = [true, false]} : memref<?x?xf16>, vector<8x16xf16>
    %t2 = vector.transfer_read %m[%i, %j], %pad, %cm {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<16x16xf32>, vector<8x4xf32>
    %t3 = vector.transfer_read %m[%i, %j], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<16x16xf32>, vector<4x8xf32>
    vector.transfer_write %t0, %m[%i, %j] : vector<8xf32>, memref<16x16xf32>
    vector.transfer_write %t2, %m[%i, %j], %cm {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<8x4xf32>, memref<16x16xf32>
    %fe = vector.from_elements %s, %e0, %rd, %rm : vector<2x2xf32>
    %ct = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<8x16xf16>, vector<16x16xf16> into vector<8x16xf32>
    %cd = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} %v4, %v4, %s : vector<4xf32>, vector<4xf32> into f32
    %c3 = arith.constant 3 : i32
    %ee = vector.extractelement %v4[%c3 : i32] : vector<4xf32>
    %ie = vector.insertelement %ee, %v4[%i : index] : vector<4xf32>
    vector.print %ld : vector<8xf32>
    vector.print %rd : f32 punctuation <comma>
    vector.print str "result: "
    vector.print punctuation <newline>
    vector.print punctuation <close>
    return
  }
}
