// RUN: xesim run %s | filecheck %s
// The shape of a real XeGPU test's host side: matrices initialised element by element with scf.for +
// memref.store, and a CPU reference GEMM as a triple scf.for with f32 accumulation.  Both loop nests are
// compiled (xesim/exec/jit); the output is the interpreter's, bit for bit.
// A[i][k] = 0.5 * ((16i + k) mod 9) (f16), B[k][j] = ((k + 2j) mod 5) - 2 (f16), C = 1 + A.B (f32).
// Expected values computed with numpy float32 in the same k order (every product and sum is exact).

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c16 = arith.constant 16 : index
  %half = arith.constant 0.5 : f16
  %two = arith.constant 2 : i32
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<4x16xf16>
  %B = memref.alloc() : memref<16x8xf16>
  %C = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c16 step %c1 {
      %row = arith.muli %i, %c16 : index
      %lin = arith.addi %row, %k : index
      %r = arith.remui %lin, %c9 : index
      %ri = arith.index_cast %r : index to i32
      %f = arith.sitofp %ri : i32 to f16
      %v = arith.mulf %f, %half : f16
      memref.store %v, %A[%i, %k] : memref<4x16xf16>
    }
  }
  scf.for %k = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %j2 = arith.muli %j, %c2 : index
      %s = arith.addi %k, %j2 : index
      %r = arith.remui %s, %c5 : index
      %ri = arith.index_cast %r : index to i32
      %rm = arith.subi %ri, %two : i32
      %v = arith.sitofp %rm : i32 to f16
      memref.store %v, %B[%k, %j] : memref<16x8xf16>
    }
  }
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %one, %C[%i, %j] : memref<4x8xf32>
    }
  }
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %init = memref.load %C[%i, %j] : memref<4x8xf32>
      %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (f32) {
        %a = memref.load %A[%i, %k] : memref<4x16xf16>
        %b = memref.load %B[%k, %j] : memref<16x8xf16>
        %a32 = arith.extf %a : f16 to f32
        %b32 = arith.extf %b : f16 to f32
        %p = arith.mulf %a32, %b32 : f32
        %n = arith.addf %acc, %p : f32
        scf.yield %n : f32
      }
      memref.store %sum, %C[%i, %j] : memref<4x8xf32>
    }
  }
  %cast = memref.cast %C : memref<4x8xf32> to memref<*xf32>
  call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<4x16xf16>
  memref.dealloc %B : memref<16x8xf16>
  memref.dealloc %C : memref<4x8xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

// CHECK: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [4, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}1,   -2,   2.5,   7,   -3.5,   1,   -2,   2.5],
// CHECK-NEXT:  [-10.5,   -2,   14,   -10,   13.5,   -10.5,   -2,   14],
// CHECK-NEXT:  [-8.5,   11.5,   -6,   9,   -1,   -8.5,   11.5,   -6],
// CHECK-NEXT:  [7,   -6.5,   10,   -3.5,   -2,   7,   -6.5,   10]]
