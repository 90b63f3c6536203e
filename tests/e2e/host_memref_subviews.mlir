// RUN: xesim run %s | filecheck %s
// Strided views of one buffer (MLIR memref docs: subview offset = old offset + sum(off_i * stride_i),
// strides multiplied; reinterpret_cast, collapse_shape, expand_shape, view, copy, extract_strided_metadata).
// m[i][j] = 10*i + j for a 4x6 i32 buffer; every expected value below is derived by hand from that formula.
module {
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)
  memref.global "private" constant @neg : memref<2x2xi32> = dense<-1>

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c10 = arith.constant 10 : index
    %m = memref.alloc() : memref<4x6xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c6 step %c1 {
        %t = arith.muli %i, %c10 : index
        %v = arith.addi %t, %j : index
        %vi = arith.index_cast %v : index to i32
        memref.store %vi, %m[%i, %j] : memref<4x6xi32>
      }
    }

    // rows 1, 3 and columns 1, 3, 5: offset 1*6 + 1 = 7, strides [6*2, 1*2]
    %s = memref.subview %m[1, 1] [2, 3] [2, 2] : memref<4x6xi32> to memref<2x3xi32, strided<[12, 2], offset: 7>>
    %us = memref.cast %s : memref<2x3xi32, strided<[12, 2], offset: 7>> to memref<*xi32>
    call @printMemrefI32(%us) : (memref<*xi32>) -> ()
    // CHECK:      Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 7 sizes = [2, 3] strides = [12, 2] data =
    // CHECK-NEXT: {{\[}}[11, 13, 15],
    // CHECK-NEXT:  [31, 33, 35]]

    // subview of the subview: offset 7 + 1*12 + 1*2 = 21, strides unchanged (unit steps)
    %ss = memref.subview %s[1, 1] [1, 2] [1, 1] : memref<2x3xi32, strided<[12, 2], offset: 7>> to memref<1x2xi32, strided<[12, 2], offset: 21>>
    %uss = memref.cast %ss : memref<1x2xi32, strided<[12, 2], offset: 21>> to memref<*xi32>
    call @printMemrefI32(%uss) : (memref<*xi32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 21 sizes = [1, 2] strides = [12, 2] data =
    // CHECK-NEXT: {{\[}}[33, 35]]

    // rank-reducing: column 4 (the unit dim is dropped), offset 4, stride 6
    %col = memref.subview %m[0, 4] [4, 1] [1, 1] : memref<4x6xi32> to memref<4xi32, strided<[6], offset: 4>>
    %ucol = memref.cast %col : memref<4xi32, strided<[6], offset: 4>> to memref<*xi32>
    call @printMemrefI32(%ucol) : (memref<*xi32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 4 sizes = [4] strides = [6] data =
    // CHECK-NEXT: [4, 14, 24, 34]

    // dynamic offsets and sizes: offset 2*6 + 1 = 13
    %d = memref.subview %m[%c2, %c1] [%c2, %c4] [1, 1] : memref<4x6xi32> to memref<?x?xi32, strided<[6, 1], offset: ?>>
    %ud = memref.cast %d : memref<?x?xi32, strided<[6, 1], offset: ?>> to memref<*xi32>
    call @printMemrefI32(%ud) : (memref<*xi32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 13 sizes = [2, 4] strides = [6, 1] data =
    // CHECK-NEXT: {{\[}}[21, 22, 23, 24],
    // CHECK-NEXT:  [31, 32, 33, 34]]
    %dim1 = memref.dim %d, %c1 : memref<?x?xi32, strided<[6, 1], offset: ?>>
    %rank = memref.rank %ud : memref<*xi32>
    vector.print %dim1 : index
    vector.print %rank : index
    // CHECK-NEXT: 4
    // CHECK-NEXT: 2

    // reinterpret_cast: r[a][b] = flat[2 + 6a + 3b]
    %r = memref.reinterpret_cast %m to offset: [2], sizes: [3, 2], strides: [6, 3] : memref<4x6xi32> to memref<3x2xi32, strided<[6, 3], offset: 2>>
    %ur = memref.cast %r : memref<3x2xi32, strided<[6, 3], offset: 2>> to memref<*xi32>
    call @printMemrefI32(%ur) : (memref<*xi32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 2 sizes = [3, 2] strides = [6, 3] data =
    // CHECK-NEXT: {{\[}}[2, 5],
    // CHECK-NEXT:  [12, 15],
    // CHECK-NEXT:  [22, 25]]

    // collapse rows 1..2 into 12 contiguous elements starting at offset 6
    %rows = memref.subview %m[1, 0] [2, 6] [1, 1] : memref<4x6xi32> to memref<2x6xi32, strided<[6, 1], offset: 6>>
    %flat = memref.collapse_shape %rows [[0, 1]] : memref<2x6xi32, strided<[6, 1], offset: 6>> into memref<12xi32, strided<[1], offset: 6>>
    %uflat = memref.cast %flat : memref<12xi32, strided<[1], offset: 6>> to memref<*xi32>
    call @printMemrefI32(%uflat) : (memref<*xi32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 6 sizes = [12] strides = [1] data =
    // CHECK-NEXT: [10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25]

    // expand the strided column into 2x2: strides [2*6, 6]
    %e = memref.expand_shape %col [[0, 1]] output_shape [2, 2] : memref<4xi32, strided<[6], offset: 4>> into memref<2x2xi32, strided<[12, 6], offset: 4>>
    %ue = memref.cast %e : memref<2x2xi32, strided<[12, 6], offset: 4>> to memref<*xi32>
    call @printMemrefI32(%ue) : (memref<*xi32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 4 sizes = [2, 2] strides = [12, 6] data =
    // CHECK-NEXT: {{\[}}[4, 14],
    // CHECK-NEXT:  [24, 34]]

    // metadata of %ss
    %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %ss : memref<1x2xi32, strided<[12, 2], offset: 21>> -> memref<i32>, index, index, index, index, index
    vector.print %off : index
    vector.print %sz#1 : index
    vector.print %st#0 : index
    vector.print %st#1 : index
    // CHECK-NEXT: 21
    // CHECK-NEXT: 2
    // CHECK-NEXT: 12
    // CHECK-NEXT: 2

    // writes through views land in %m: ss[0][1] = m[3][5]; copy -1s into m[0|2][0|3]
    %c99 = arith.constant 99 : i32
    memref.store %c99, %ss[%c0, %c1] : memref<1x2xi32, strided<[12, 2], offset: 21>>
    %neg = memref.get_global @neg : memref<2x2xi32>
    %corners = memref.subview %m[0, 0] [2, 2] [2, 3] : memref<4x6xi32> to memref<2x2xi32, strided<[12, 3]>>
    memref.copy %neg, %corners : memref<2x2xi32> to memref<2x2xi32, strided<[12, 3]>>
    %um = memref.cast %m : memref<4x6xi32> to memref<*xi32>
    call @printMemrefI32(%um) : (memref<*xi32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 6] strides = [6, 1] data =
    // CHECK-NEXT: {{\[}}[-1, 1, 2, -1, 4, 5],
    // CHECK-NEXT:  [10, 11, 12, 13, 14, 15],
    // CHECK-NEXT:  [-1, 21, 22, -1, 24, 25],
    // CHECK-NEXT:  [30, 31, 32, 33, 34, 99]]

    // view: 2x2 f32 at byte 16 of an i8 buffer; the aligned pointer moves by 16 bytes
    %buf = memref.alloc() : memref<64xi8>
    %c16 = arith.constant 16 : index
    %fv = memref.view %buf[%c16][] : memref<64xi8> to memref<2x2xf32>
    %one = arith.constant 1.5 : f32
    memref.store %one, %fv[%c1, %c0] : memref<2x2xf32>
    %p0 = memref.extract_aligned_pointer_as_index %buf : memref<64xi8> -> index
    %p1 = memref.extract_aligned_pointer_as_index %fv : memref<2x2xf32> -> index
    %delta = arith.subi %p1, %p0 : index
    vector.print %delta : index
    // CHECK-NEXT: 16
    %ufv = memref.cast %fv : memref<2x2xf32> to memref<*xf32>
    call @printMemrefF32(%ufv) : (memref<*xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
    // CHECK-NEXT: {{\[}}[0, 0],
    // CHECK-NEXT:  [1.5, 0]]
    // 1.5f = 0x3FC00000: byte 16 + 2*4 + 3 of the buffer holds 0x3F = 63
    %c27 = arith.constant 27 : index
    %byte = memref.load %buf[%c27] : memref<64xi8>
    vector.print %byte : i8
    // CHECK-NEXT: 63
    memref.dealloc %buf : memref<64xi8>
    memref.dealloc %m : memref<4x6xi32>
    return
  }
}
