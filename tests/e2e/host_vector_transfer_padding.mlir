// RUN: xesim run %s | filecheck %s
// vector.transfer_read / transfer_write (MLIR vector docs): elements outside the memref along dims that
// are not in_bounds read the padding value and are not written; permutation maps transpose or broadcast.
// m[i][j] = 10*i + j (3x5 f32); expected vectors derived by hand from that formula.
module {
  func.func private @printMemrefF32(memref<*xf32>)
  memref.global "private" constant @small : memref<5xi32> = dense<[50, 51, 52, 53, 54]>

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c10 = arith.constant 10 : index
    %pad = arith.constant -1.0 : f32
    %m = memref.alloc() : memref<3x5xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      scf.for %j = %c0 to %c5 step %c1 {
        %t = arith.muli %i, %c10 : index
        %v = arith.addi %t, %j : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        memref.store %vf, %m[%i, %j] : memref<3x5xf32>
      }
    }

    // row 2 from column 3: columns 5 and 6 do not exist
    %r1 = vector.transfer_read %m[%c2, %c3], %pad : memref<3x5xf32>, vector<4xf32>
    vector.print %r1 : vector<4xf32>
    // CHECK: ( 23, 24, -1, -1 )
    // 2-D: row 3 does not exist either
    %r2 = vector.transfer_read %m[%c2, %c3], %pad : memref<3x5xf32>, vector<2x4xf32>
    vector.print %r2 : vector<2x4xf32>
    // CHECK-NEXT: ( ( 23, 24, -1, -1 ), ( -1, -1, -1, -1 ) )
    // transposed: v[k][r] = m[1 + r][3 + k]
    %r3 = vector.transfer_read %m[%c1, %c3], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<3x5xf32>, vector<3x2xf32>
    vector.print %r3 : vector<3x2xf32>
    // CHECK-NEXT: ( ( 13, 23 ), ( 14, 24 ), ( -1, -1 ) )
    // broadcast of row 0 from column 2
    %r4 = vector.transfer_read %m[%c0, %c2], %pad {in_bounds = [true, false], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<3x5xf32>, vector<2x4xf32>
    vector.print %r4 : vector<2x4xf32>
    // CHECK-NEXT: ( ( 2, 3, 4, -1 ), ( 2, 3, 4, -1 ) )
    // through a strided subview: s[r][c] = m[r][1 + 2c], sizes [3, 2]
    %s = memref.subview %m[0, 1] [3, 2] [1, 2] : memref<3x5xf32> to memref<3x2xf32, strided<[5, 2], offset: 1>>
    %r5 = vector.transfer_read %s[%c1, %c1], %pad : memref<3x2xf32, strided<[5, 2], offset: 1>>, vector<3xf32>
    vector.print %r5 : vector<3xf32>
    // CHECK-NEXT: ( 13, -1, -1 )
    // integer padding
    %g = memref.get_global @small : memref<5xi32>
    %ipad = arith.constant 7 : i32
    %r6 = vector.transfer_read %g[%c3], %ipad : memref<5xi32>, vector<4xi32>
    vector.print %r6 : vector<4xi32>
    // CHECK-NEXT: ( 53, 54, 7, 7 )

    // the write drops the element that falls past column 4
    %w = arith.constant dense<[100.0, 101.0, 102.0, 103.0]> : vector<4xf32>
    vector.transfer_write %w, %m[%c2, %c2] : vector<4xf32>, memref<3x5xf32>
    %um = memref.cast %m : memref<3x5xf32> to memref<*xf32>
    call @printMemrefF32(%um) : (memref<*xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [3, 5] strides = [5, 1] data =
    // CHECK-NEXT: {{\[}}[0, 1, 2, 3, 4],
    // CHECK-NEXT:  [10, 11, 12, 13, 14],
    // CHECK-NEXT:  [20, 21, 100, 101, 102]]
    memref.dealloc %m : memref<3x5xf32>
    return
  }
}
