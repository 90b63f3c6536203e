// RUN: xesim run %s | filecheck %s
// Vector construction and shape ops (broadcast, splat, from_elements, transpose, shape_cast, strided
// slices, static/dynamic extract/insert, extractelement/insertelement), vector.load/store, vector.fma
// (one rounding) and vector.print strings/punctuation (spec §1.2). Expected values derived by hand.
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %s = arith.constant 2.5 : f32
    %b0 = vector.broadcast %s : f32 to vector<2x3xf32>
    vector.print %b0 : vector<2x3xf32>
    // CHECK: ( ( 2.5, 2.5, 2.5 ), ( 2.5, 2.5, 2.5 ) )
    %row = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
    %b1 = vector.broadcast %row : vector<3xf32> to vector<2x3xf32>
    vector.print %b1 : vector<2x3xf32>
    // CHECK-NEXT: ( ( 1, 2, 3 ), ( 1, 2, 3 ) )
    %col = arith.constant dense<[[1], [2]]> : vector<2x1xi32>
    %b2 = vector.broadcast %col : vector<2x1xi32> to vector<2x3xi32>
    vector.print %b2 : vector<2x3xi32>
    // CHECK-NEXT: ( ( 1, 1, 1 ), ( 2, 2, 2 ) )
    %sp = vector.splat %s : vector<2xf32>
    vector.print %sp : vector<2xf32>
    // CHECK-NEXT: ( 2.5, 2.5 )
    %fe = vector.from_elements %c1, %c2, %c3, %c4 : vector<2x2xindex>
    vector.print %fe : vector<2x2xindex>
    // CHECK-NEXT: ( ( 1, 2 ), ( 3, 4 ) )

    %mat = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
    %t = vector.transpose %mat, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
    vector.print %t : vector<3x2xf32>
    // CHECK-NEXT: ( ( 1, 4 ), ( 2, 5 ), ( 3, 6 ) )
    %sc = vector.shape_cast %mat : vector<2x3xf32> to vector<3x2xf32>
    vector.print %sc : vector<3x2xf32>
    // CHECK-NEXT: ( ( 1, 2 ), ( 3, 4 ), ( 5, 6 ) )
    %ess = vector.extract_strided_slice %mat {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : vector<2x3xf32> to vector<2x2xf32>
    vector.print %ess : vector<2x2xf32>
    // CHECK-NEXT: ( ( 2, 3 ), ( 5, 6 ) )
    %one = arith.constant dense<[[-1.0]]> : vector<1x1xf32>
    %iss = vector.insert_strided_slice %one, %mat {offsets = [1, 2], strides = [1, 1]} : vector<1x1xf32> into vector<2x3xf32>
    vector.print %iss : vector<2x3xf32>
    // CHECK-NEXT: ( ( 1, 2, 3 ), ( 4, 5, -1 ) )

    vector.print str "row 1: "
    scf.for %i = %c0 to %c3 step %c1 {
      %e = vector.extract %mat[1, %i] : f32 from vector<2x3xf32>
      vector.print %e : f32 punctuation <comma>
    }
    vector.print punctuation <newline>
    // CHECK-NEXT: row 1: 4, 5, 6,
    %r0 = vector.extract %mat[0] : vector<3xf32> from vector<2x3xf32>
    %ins = vector.insert %r0, %mat [%c1] : vector<3xf32> into vector<2x3xf32>
    vector.print %ins : vector<2x3xf32>
    // CHECK-NEXT: ( ( 1, 2, 3 ), ( 1, 2, 3 ) )
    %x = arith.constant 9.0 : f32
    %ie = vector.insertelement %x, %row[%c2 : index] : vector<3xf32>
    %ee = vector.extractelement %ie[%c2 : index] : vector<3xf32>
    vector.print %ie : vector<3xf32>
    vector.print str "last = "
    vector.print %ee : f32
    // CHECK-NEXT: ( 1, 2, 9 )
    // CHECK-NEXT: last = 9

    // vector.store/load of 2-D tiles: rows 0 and 1 of a 3x4 buffer, then the 2x2 block at [1, 2]
    %buf = memref.alloc() : memref<3x4xf32>
    %tile = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : vector<2x4xf32>
    vector.store %tile, %buf[%c0, %c0] : memref<3x4xf32>, vector<2x4xf32>
    %blk = vector.load %buf[%c1, %c2] : memref<3x4xf32>, vector<2x2xf32>
    vector.print %blk : vector<2x2xf32>
    // CHECK-NEXT: ( ( 7, 8 ), ( 0, 0 ) )

    // fma rounds once: (1 + 2^-23)^2 - (1 + 2^-22) = 2^-46 exactly; a separate multiply would round
    // the product to 1 + 2^-22 and give 0
    %fa = arith.constant dense<[1.00000012, 2.0]> : vector<2xf32>
    %fb = arith.constant dense<[1.00000012, 3.0]> : vector<2xf32>
    %fc = arith.constant dense<[-1.00000024, 1.0]> : vector<2xf32>
    %fma = vector.fma %fa, %fb, %fc : vector<2xf32>
    vector.print %fma : vector<2xf32>
    // CHECK-NEXT: ( 1.42109e-14, 7 )
    %prod = arith.mulf %fa, %fb : vector<2xf32>
    %unfused = arith.addf %prod, %fc : vector<2xf32>
    vector.print %unfused : vector<2xf32>
    // CHECK-NEXT: ( 0, 7 )
    memref.dealloc %buf : memref<3x4xf32>
    return
  }
}
