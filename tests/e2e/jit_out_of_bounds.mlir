// RUN: not xesim run %s 2>&1 | filecheck %s
// An out-of-bounds store inside a compiled host loop nest reports what the interpreter reports: the
// faulting op's location, the index, the dimension and the allocation.  Row 3 of a 4x8 memref is written
// with j running to 9, so the first bad index is [3, 8] (the earlier rows' j = 8 stores are skipped by the
// bound check on i * 9 + j < 35, worked out by hand: 3 * 9 + 8 = 35 is the first index that passes it).

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %c35 = arith.constant 35 : index
  %v = arith.constant 1.5 : f32
  %A = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c9 step %c1 {
      %row = arith.muli %i, %c9 : index
      %lin = arith.addi %row, %j : index
      %c8 = arith.constant 8 : index
      %edge = arith.cmpi eq, %j, %c8 : index
      %skip = arith.cmpi ult, %lin, %c35 : index
      %bad = arith.andi %edge, %skip : i1
      scf.if %bad {
      } else {
        memref.store %v, %A[%i, %j] : memref<4x8xf32>
      }
    }
  }
  return
}

// CHECK: jit_out_of_bounds.mlir:25:9: error: 'memref.store' op index 8 is out of bounds for dimension 1 of size 8 (indices [3, 8], address 0x{{[0-9a-f]+}}, host allocation %A [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}) of 128 bytes)
// CHECK-NEXT: memref.store %v, %A[%i, %j] : memref<4x8xf32>
