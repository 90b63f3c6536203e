// RUN: xesim run %s | filecheck %s
// printMaxError* and fillResource1DRandom* (spec/programs-and-runner.md §2).  Expected text derived by hand.
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %false = arith.constant false
    %true = arith.constant true
    %lo = arith.constant -1.0 : f32
    %hi = arith.constant 1.0 : f32

    // M = [1, 0.25, 10], N = [1, 0.5, 10.5]: delta = [0, 0.25, 0.5] -> absolute max at idx 2;
    // rel = [0, 0.25/0.5, 0.5/10.5] -> relative max 0.5 at idx 1
    %M = memref.alloc() : memref<3xf32>
    %N = memref.alloc() : memref<3xf32>
    %v1 = arith.constant 1.0 : f32
    %v025 = arith.constant 0.25 : f32
    %v05 = arith.constant 0.5 : f32
    %v10 = arith.constant 10.0 : f32
    %v105 = arith.constant 10.5 : f32
    memref.store %v1, %M[%c0] : memref<3xf32>
    memref.store %v025, %M[%c1] : memref<3xf32>
    memref.store %v10, %M[%c2] : memref<3xf32>
    memref.store %v1, %N[%c0] : memref<3xf32>
    memref.store %v05, %N[%c1] : memref<3xf32>
    memref.store %v105, %N[%c2] : memref<3xf32>
    %uM = memref.cast %M : memref<3xf32> to memref<*xf32>
    %uN = memref.cast %N : memref<3xf32> to memref<*xf32>
    call @printMaxErrorF32(%uM, %uN) : (memref<*xf32>, memref<*xf32>) -> ()
    // CHECK:      Max absolute error 0.5 at idx=2 (i=10, j=10.5)
    // CHECK-NEXT: Max relative error 0.5 at idx=1 (i=0.25, j=0.5)

    // random f16 data in [-1, 1): two successive fills differ; a memref equals itself
    %R = memref.alloc() : memref<8x8xf16>
    %S = memref.alloc() : memref<8x8xf16>
    %uR = memref.cast %R : memref<8x8xf16> to memref<*xf16>
    %uS = memref.cast %S : memref<8x8xf16> to memref<*xf16>
    call @fillResource1DRandomF16(%uR, %lo, %hi, %false) : (memref<*xf16>, f32, f32, i1) -> ()
    call @fillResource1DRandomF16(%uS, %lo, %hi, %false) : (memref<*xf16>, f32, f32, i1) -> ()
    call @printMaxErrorF16(%uR, %uR) : (memref<*xf16>, memref<*xf16>) -> ()
    // CHECK-NEXT: Max absolute error 0 at idx=0 (i=inf, j=inf)
    // CHECK-NEXT: Max relative error 0 at idx=0 (i=inf, j=inf)

    // widen R to f32 with a host loop and compare: equal, so allclose holds; S differs from R
    %RF = memref.alloc() : memref<8x8xf32>
    %c8 = arith.constant 8 : index
    %cnt = scf.for %i = %c0 to %c8 step %c1 iter_args(%n = %c0) -> (index) {
      %n2 = scf.for %j = %c0 to %c8 step %c1 iter_args(%m = %n) -> (index) {
        %h = memref.load %R[%i, %j] : memref<8x8xf16>
        %f = arith.extf %h : f16 to f32
        memref.store %f, %RF[%i, %j] : memref<8x8xf32>
        // count the elements inside [-1, 1)
        %ge = arith.cmpf oge, %f, %lo : f32
        %lt = arith.cmpf olt, %f, %hi : f32
        %ok = arith.andi %ge, %lt : i1
        %inc = arith.select %ok, %c1, %c0 : index
        %m2 = arith.addi %m, %inc : index
        scf.yield %m2 : index
      }
      scf.yield %n2 : index
    }
    %uRF = memref.cast %RF : memref<8x8xf32> to memref<*xf32>
    call @printAllcloseF16(%uR, %uRF) : (memref<*xf16>, memref<*xf32>) -> ()
    // CHECK-NEXT: [ALLCLOSE: TRUE]
    call @printAllcloseF16(%uS, %uRF) : (memref<*xf16>, memref<*xf32>) -> ()
    // CHECK-NEXT: [ALLCLOSE: FALSE]
    %cnt64 = arith.index_cast %cnt : index to i64
    call @printI64(%cnt64) : (i64) -> ()
    call @printNewline() : () -> ()
    // CHECK-NEXT: 64

    // genInt: values truncated toward zero, so (-1, 1) gives only zeros
    %Z = memref.alloc() : memref<64xf32>
    %uZ = memref.cast %Z : memref<64xf32> to memref<*xf32>
    %zero = memref.alloc() : memref<64xf32>
    %uzero = memref.cast %zero : memref<64xf32> to memref<*xf32>
    %f0 = arith.constant 0.0 : f32
    call @fillResource1DF32(%uzero, %f0) : (memref<*xf32>, f32) -> ()
    call @fillResource1DRandomF32(%uZ, %lo, %hi, %true) : (memref<*xf32>, f32, f32, i1) -> ()
    call @printMaxErrorF32(%uZ, %uzero) : (memref<*xf32>, memref<*xf32>) -> ()
    // CHECK-NEXT: Max absolute error 0 at idx=0 (i=inf, j=inf)
    // CHECK-NEXT: Max relative error 0 at idx=0 (i=inf, j=inf)
    // CHECK-NOT: {{.}}

    memref.dealloc %M : memref<3xf32>
    memref.dealloc %N : memref<3xf32>
    memref.dealloc %R : memref<8x8xf16>
    memref.dealloc %S : memref<8x8xf16>
    memref.dealloc %RF : memref<8x8xf32>
    memref.dealloc %Z : memref<64xf32>
    memref.dealloc %zero : memref<64xf32>
    return
  }
  func.func private @printMaxErrorF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMaxErrorF16(memref<*xf16>, memref<*xf16>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF16(memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @fillResource1DRandomF16(memref<*xf16>, f32, f32, i1) attributes {llvm.emit_c_interface}
  func.func private @fillResource1DRandomF32(memref<*xf32>, f32, f32, i1) attributes {llvm.emit_c_interface}
  func.func private @fillResource1DF32(memref<*xf32>, f32) attributes {llvm.emit_c_interface}
  func.func private @printI64(i64)
  func.func private @printNewline()
}
