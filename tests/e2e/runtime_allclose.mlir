// RUN: xesim run %s | filecheck %s
// printAllclose* / allclose* (spec/programs-and-runner.md §2): atol 1e-4, rtol 1e-3, NaN counts as close,
// comparison runs to the end of the shorter memref.  Expected results derived by hand.
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %v01 = arith.constant 0.1 : f32
    %v0102 = arith.constant 0.102 : f32
    %nan = arith.constant 0x7FC00000 : f32

    // f16(0.1) = 0.0999755859375 vs f32 0.1: |diff| = 2.4e-5 <= 1e-4 + 1e-4
    %a = memref.alloc() : memref<8xf16>
    %b = memref.alloc() : memref<8xf32>
    %ua = memref.cast %a : memref<8xf16> to memref<*xf16>
    %ub = memref.cast %b : memref<8xf32> to memref<*xf32>
    call @fillResource1DF16(%ua, %v01) : (memref<*xf16>, f32) -> ()
    call @fillResource1DF32(%ub, %v01) : (memref<*xf32>, f32) -> ()
    call @printAllcloseF16(%ua, %ub) : (memref<*xf16>, memref<*xf32>) -> ()
    // CHECK: [ALLCLOSE: TRUE]

    // one reference element 0.102: |0.0999756 - 0.102| = 2.0e-3 > 1e-4 + 1.02e-4
    memref.store %v0102, %b[%c3] : memref<8xf32>
    call @printAllcloseF16(%ua, %ub) : (memref<*xf16>, memref<*xf32>) -> ()
    // CHECK-NEXT: [ALLCLOSE: FALSE]

    // a NaN reference element makes the comparison false, so the element counts as close
    memref.store %nan, %b[%c3] : memref<8xf32>
    call @printAllcloseF16(%ua, %ub) : (memref<*xf16>, memref<*xf32>) -> ()
    // CHECK-NEXT: [ALLCLOSE: TRUE]

    // shorter reference: only its 2 elements are compared (the f32 copy of b has 0.102 at index 3)
    %s = memref.alloc() : memref<2xf32>
    %us = memref.cast %s : memref<2xf32> to memref<*xf32>
    call @fillResource1DF32(%us, %v01) : (memref<*xf32>, f32) -> ()
    memref.store %v0102, %b[%c3] : memref<8xf32>
    call @printAllcloseF32(%ub, %us) : (memref<*xf32>, memref<*xf32>) -> ()
    // CHECK-NEXT: [ALLCLOSE: TRUE]
    call @printAllcloseF32(%us, %ub) : (memref<*xf32>, memref<*xf32>) -> ()
    // CHECK-NEXT: [ALLCLOSE: TRUE]

    // rtol boundary at n = 1000: threshold f32(f32(1e-4) + f32(f32(1e-3) * 1000)) = 1 + 839 * 2^-23;
    // m - 1000 = 16385 * 2^-14 = 1.00006103515625 is close, 16386 * 2^-14 = 1.0001220703125 is not
    %n1 = memref.alloc() : memref<1xf32>
    %m1 = memref.alloc() : memref<1xf32>
    %un1 = memref.cast %n1 : memref<1xf32> to memref<*xf32>
    %um1 = memref.cast %m1 : memref<1xf32> to memref<*xf32>
    %thousand = arith.constant 1000.0 : f32
    %in = arith.constant 1001.00006103515625 : f32
    %out = arith.constant 1001.0001220703125 : f32
    call @fillResource1DF32(%un1, %thousand) : (memref<*xf32>, f32) -> ()
    call @fillResource1DF32(%um1, %in) : (memref<*xf32>, f32) -> ()
    call @printAllcloseF32(%um1, %un1) : (memref<*xf32>, memref<*xf32>) -> ()
    // CHECK-NEXT: [ALLCLOSE: TRUE]
    call @fillResource1DF32(%um1, %out) : (memref<*xf32>, f32) -> ()
    call @printAllcloseF32(%um1, %un1) : (memref<*xf32>, memref<*xf32>) -> ()
    // CHECK-NEXT: [ALLCLOSE: FALSE]

    // allcloseF32 returns the result as i1 instead of printing
    %r0 = call @allcloseF32(%um1, %un1) : (memref<*xf32>, memref<*xf32>) -> i1
    %r1 = call @allcloseF32(%un1, %un1) : (memref<*xf32>, memref<*xf32>) -> i1
    %w0 = arith.extui %r0 : i1 to i64
    %w1 = arith.extui %r1 : i1 to i64
    call @printI64(%w0) : (i64) -> ()
    call @printComma() : () -> ()
    call @printI64(%w1) : (i64) -> ()
    call @printNewline() : () -> ()
    // CHECK-NEXT: 0, 1

    // bf16: bf16(0.1) = 0.10009765625, |diff| = 9.8e-5 <= 1e-4 + 1e-4
    %h = memref.alloc() : memref<2x2xbf16>
    %uh = memref.cast %h : memref<2x2xbf16> to memref<*xbf16>
    call @fillResource1DBF16(%uh, %v01) : (memref<*xbf16>, f32) -> ()
    call @printAllcloseBF16(%uh, %us) : (memref<*xbf16>, memref<*xf32>) -> ()
    // CHECK-NEXT: [ALLCLOSE: TRUE]
    // CHECK-NOT: ALLCLOSE

    memref.dealloc %a : memref<8xf16>
    memref.dealloc %b : memref<8xf32>
    memref.dealloc %s : memref<2xf32>
    memref.dealloc %n1 : memref<1xf32>
    memref.dealloc %m1 : memref<1xf32>
    memref.dealloc %h : memref<2x2xbf16>
    return
  }
  func.func private @fillResource1DF16(memref<*xf16>, f32) attributes {llvm.emit_c_interface}
  func.func private @fillResource1DBF16(memref<*xbf16>, f32) attributes {llvm.emit_c_interface}
  func.func private @fillResource1DF32(memref<*xf32>, f32) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF16(memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseBF16(memref<*xbf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @allcloseF32(memref<*xf32>, memref<*xf32>) -> i1 attributes {llvm.emit_c_interface}
  func.func private @printI64(i64)
  func.func private @printComma()
  func.func private @printNewline()
}
