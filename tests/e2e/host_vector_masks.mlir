// RUN: xesim run %s | filecheck %s
// vector.create_mask / vector.constant_mask (bounds clamp to [0, size] in every dimension) and masked
// transfers (masked-off elements read the padding and are not written; the mask of a permuted transfer
// is laid out in memory-dimension order). Expected values derived by hand.
module {
  func.func private @printMemrefF32(memref<*xf32>)
  memref.global "private" constant @m23 : memref<2x3xi32> = dense<[[1, 2, 3], [4, 5, 6]]>

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %cm1 = arith.constant -1 : index

    scf.for %n = %c0 to %c5 step %c2 {
      %mk = vector.create_mask %n : vector<4xi1>
      vector.print %mk : vector<4xi1>
    }
    // CHECK:      ( 0, 0, 0, 0 )
    // CHECK-NEXT: ( 1, 1, 0, 0 )
    // CHECK-NEXT: ( 1, 1, 1, 1 )
    %big = vector.create_mask %c9 : vector<4xi1>
    %neg = vector.create_mask %cm1 : vector<4xi1>
    vector.print %big : vector<4xi1>
    vector.print %neg : vector<4xi1>
    // CHECK-NEXT: ( 1, 1, 1, 1 )
    // CHECK-NEXT: ( 0, 0, 0, 0 )
    %m2 = vector.create_mask %c2, %c3 : vector<3x4xi1>
    vector.print %m2 : vector<3x4xi1>
    // CHECK-NEXT: ( ( 1, 1, 1, 0 ), ( 1, 1, 1, 0 ), ( 0, 0, 0, 0 ) )
    %cm = vector.constant_mask [1, 2] : vector<2x3xi1>
    vector.print %cm : vector<2x3xi1>
    // CHECK-NEXT: ( ( 1, 1, 0 ), ( 0, 0, 0 ) )

    // the same mask from step < broadcast(n)
    %st = vector.step : vector<4xindex>
    %nb = vector.broadcast %c3 : index to vector<4xindex>
    %lt = arith.cmpi ult, %st, %nb : vector<4xindex>
    vector.print %lt : vector<4xi1>
    // CHECK-NEXT: ( 1, 1, 1, 0 )

    // buf[i] = 1.5 * i
    %buf = memref.alloc() : memref<8xf32>
    %step = arith.constant 1.5 : f32
    %zero = arith.constant 0.0 : f32
    %last = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
      memref.store %acc, %buf[%i] : memref<8xf32>
      %nx = arith.addf %acc, %step : f32
      scf.yield %nx : f32
    }
    %mask3 = vector.create_mask %c3 : vector<4xi1>
    %r = vector.transfer_read %buf[%c2], %zero, %mask3 : memref<8xf32>, vector<4xf32>
    vector.print %r : vector<4xf32>
    // CHECK-NEXT: ( 3, 4.5, 6, 0 )
    %w = arith.constant dense<[-1.0, -2.0, -3.0, -4.0]> : vector<4xf32>
    %mask2 = vector.constant_mask [2] : vector<4xi1>
    vector.transfer_write %w, %buf[%c4], %mask2 : vector<4xf32>, memref<8xf32>
    %ubuf = memref.cast %buf : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%ubuf) : (memref<*xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
    // CHECK-NEXT: [0, 1.5, 3, 4.5, -1, -2, 9, 10.5]

    // transposed read of a 2x3 memref into vector<3x2>: v[k][r] = m[r][k]; the mask is 2x3 (memory order)
    %g = memref.get_global @m23 : memref<2x3xi32>
    %ipad = arith.constant 0 : i32
    %tm = vector.constant_mask [1, 2] : vector<2x3xi1>
    %t = vector.transfer_read %g[%c0, %c0], %ipad, %tm {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<2x3xi32>, vector<3x2xi32>
    vector.print %t : vector<3x2xi32>
    // CHECK-NEXT: ( ( 1, 0 ), ( 2, 0 ), ( 0, 0 ) )

    // masks select lanes
    %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
    %b = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : vector<4xf32>
    %mask2b = vector.create_mask %c2 : vector<4xi1>
    %sel = arith.select %mask2b, %a, %b : vector<4xi1>, vector<4xf32>
    vector.print %sel : vector<4xf32>
    // CHECK-NEXT: ( 1, 2, 30, 40 )
    memref.dealloc %buf : memref<8xf32>
    return
  }
}
