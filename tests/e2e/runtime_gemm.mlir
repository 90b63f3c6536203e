// RUN: xesim run %s | filecheck %s
// IMEX reference GEMMs (spec/programs-and-runner.md §2): C <- C + A*B in f32, i-k-j order; gemmF16F16F16
// rounds each result to f16; shape errors print a message and leave C alone.  Expected values by hand.
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %f0 = arith.constant 0.0 : f32
    %f5 = arith.constant 5.0 : f32
    %f100 = arith.constant 100.0 : f32
    %f2048 = arith.constant 2048.0 : f32
    %true = arith.constant true

    // A[i][k] = i + k + 1 = [[1,2,3],[2,3,4]];  B[k][j] = 2k + j = [[0,1],[2,3],[4,5]];  C = 100
    %A = memref.alloc() : memref<2x3xf16>
    %B = memref.alloc() : memref<3x2xf16>
    %C = memref.alloc() : memref<2x2xf32>
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %k = %c0 to %c3 step %c1 {
        %s = arith.addi %i, %k : index
        %s1 = arith.addi %s, %c1 : index
        %si = arith.index_cast %s1 : index to i32
        %sf = arith.sitofp %si : i32 to f16
        memref.store %sf, %A[%i, %k] : memref<2x3xf16>
      }
    }
    scf.for %k = %c0 to %c3 step %c1 {
      scf.for %j = %c0 to %c2 step %c1 {
        %k2 = arith.muli %k, %c2 : index
        %s = arith.addi %k2, %j : index
        %si = arith.index_cast %s : index to i32
        %sf = arith.sitofp %si : i32 to f16
        memref.store %sf, %B[%k, %j] : memref<3x2xf16>
      }
    }
    %uA = memref.cast %A : memref<2x3xf16> to memref<*xf16>
    %uB = memref.cast %B : memref<3x2xf16> to memref<*xf16>
    %uC = memref.cast %C : memref<2x2xf32> to memref<*xf32>
    call @fillResource1DF32(%uC, %f100) : (memref<*xf32>, f32) -> ()
    call @gemmF16F16F32(%uA, %uB, %uC) : (memref<*xf16>, memref<*xf16>, memref<*xf32>) -> ()
    call @printMemrefF32(%uC) : (memref<*xf32>) -> ()
    // A*B = [[16, 22], [22, 31]]
    // CHECK:      Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
    // CHECK-NEXT: {{\[}}[116,   122],
    // CHECK-NEXT:  [122,   131]]

    // 2048 + 1*1 = 2049 in f32; rounded to f16 (spacing 2 above 2048) it is a tie -> even -> 2048
    %a1 = memref.alloc() : memref<1x1xf16>
    %b1 = memref.alloc() : memref<1x1xf16>
    %c32 = memref.alloc() : memref<1x1xf32>
    %c16r = memref.alloc() : memref<1x1xf32>
    %ua1 = memref.cast %a1 : memref<1x1xf16> to memref<*xf16>
    %ub1 = memref.cast %b1 : memref<1x1xf16> to memref<*xf16>
    %uc32 = memref.cast %c32 : memref<1x1xf32> to memref<*xf32>
    %uc16 = memref.cast %c16r : memref<1x1xf32> to memref<*xf32>
    %one = arith.constant 1.0 : f32
    call @fillResource1DF16(%ua1, %one) : (memref<*xf16>, f32) -> ()
    call @fillResource1DF16(%ub1, %one) : (memref<*xf16>, f32) -> ()
    call @fillResource1DF32(%uc32, %f2048) : (memref<*xf32>, f32) -> ()
    call @fillResource1DF32(%uc16, %f2048) : (memref<*xf32>, f32) -> ()
    call @gemmF16F16F32(%ua1, %ub1, %uc32) : (memref<*xf16>, memref<*xf16>, memref<*xf32>) -> ()
    call @gemmF16F16F16(%ua1, %ub1, %uc16) : (memref<*xf16>, memref<*xf16>, memref<*xf32>) -> ()
    call @printMemrefF32(%uc32) : (memref<*xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [1, 1] strides = [1, 1] data =
    // CHECK-NEXT: {{\[}}[2049]]
    call @printMemrefF32(%uc16) : (memref<*xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [1, 1] strides = [1, 1] data =
    // CHECK-NEXT: {{\[}}[2048]]

    // incompatible shapes: message, C untouched (A is 2x3, B is 1x1)
    call @gemmF16F16F32(%uA, %ub1, %uC) : (memref<*xf16>, memref<*xf16>, memref<*xf32>) -> ()
    // CHECK-NEXT: Incompatible matrix dimensions: A: [2, 3]
    call @printMemrefF32(%uC) : (memref<*xf32>) -> ()
    // CHECK-NEXT: Unranked Memref
    // CHECK-NEXT: {{\[}}[116,   122],
    // CHECK-NEXT:  [122,   131]]

    // random integer-valued inputs in [0, 5): every product and sum is exact in f32, so the runtime GEMM
    // and a host loop in any order agree exactly
    %RA = memref.alloc() : memref<8x16xf16>
    %RB = memref.alloc() : memref<16x8xf16>
    %RC = memref.alloc() : memref<8x8xf32>
    %REF = memref.alloc() : memref<8x8xf32>
    %uRA = memref.cast %RA : memref<8x16xf16> to memref<*xf16>
    %uRB = memref.cast %RB : memref<16x8xf16> to memref<*xf16>
    %uRC = memref.cast %RC : memref<8x8xf32> to memref<*xf32>
    %uREF = memref.cast %REF : memref<8x8xf32> to memref<*xf32>
    call @fillResource1DRandomF16(%uRA, %f0, %f5, %true) : (memref<*xf16>, f32, f32, i1) -> ()
    call @fillResource1DRandomF16(%uRB, %f0, %f5, %true) : (memref<*xf16>, f32, f32, i1) -> ()
    call @fillResource1DF32(%uRC, %f0) : (memref<*xf32>, f32) -> ()
    call @gemmF16F16F32(%uRA, %uRB, %uRC) : (memref<*xf16>, memref<*xf16>, memref<*xf32>) -> ()
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %acc = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %f0) -> (f32) {
          %a = memref.load %RA[%i, %k] : memref<8x16xf16>
          %b = memref.load %RB[%k, %j] : memref<16x8xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %p = arith.mulf %af, %bf : f32
          %n = arith.addf %s, %p : f32
          scf.yield %n : f32
        }
        memref.store %acc, %REF[%i, %j] : memref<8x8xf32>
      }
    }
    call @printAllcloseF32(%uRC, %uREF) : (memref<*xf32>, memref<*xf32>) -> ()
    // CHECK-NEXT: [ALLCLOSE: TRUE]
    call @printMaxErrorF32(%uRC, %uREF) : (memref<*xf32>, memref<*xf32>) -> ()
    // CHECK-NEXT: Max absolute error 0 at idx=0 (i=inf, j=inf)
    // CHECK-NEXT: Max relative error 0 at idx=0 (i=inf, j=inf)
    // CHECK-NOT: {{.}}

    memref.dealloc %A : memref<2x3xf16>
    memref.dealloc %B : memref<3x2xf16>
    memref.dealloc %C : memref<2x2xf32>
    memref.dealloc %RA : memref<8x16xf16>
    memref.dealloc %RB : memref<16x8xf16>
    memref.dealloc %RC : memref<8x8xf32>
    memref.dealloc %REF : memref<8x8xf32>
    return
  }
  func.func private @fillResource1DF16(memref<*xf16>, f32) attributes {llvm.emit_c_interface}
  func.func private @fillResource1DF32(memref<*xf32>, f32) attributes {llvm.emit_c_interface}
  func.func private @fillResource1DRandomF16(memref<*xf16>, f32, f32, i1) attributes {llvm.emit_c_interface}
  func.func private @gemmF16F16F32(memref<*xf16>, memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmF16F16F16(memref<*xf16>, memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMaxErrorF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
}
