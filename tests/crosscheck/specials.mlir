// Host-only values for the cross-check tests: a NaN with payload 1, -0, and ordinary f32 and f16 numbers.
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %nan = arith.constant 0x7FC00001 : f32
    %mzero = arith.constant -0.0 : f32
    %a = arith.constant 1.5 : f32
    %b = arith.constant 3.0 : f32
    %c = arith.constant 0.1 : f32
    %d = arith.constant 65504.0 : f32
    %m = memref.alloc() : memref<2x3xf32>
    memref.store %nan, %m[%c0, %c0] : memref<2x3xf32>
    memref.store %mzero, %m[%c0, %c1] : memref<2x3xf32>
    memref.store %a, %m[%c0, %c2] : memref<2x3xf32>
    memref.store %b, %m[%c1, %c0] : memref<2x3xf32>
    memref.store %c, %m[%c1, %c1] : memref<2x3xf32>
    memref.store %d, %m[%c1, %c2] : memref<2x3xf32>
    %cast = memref.cast %m : memref<2x3xf32> to memref<*xf32>
    call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
    %h = arith.constant dense<[0.1, -2.5, 1.0e-3, 3.0]> : vector<4xf16>
    vector.print %h : vector<4xf16>
    %hm = memref.alloc() : memref<4xf16>
    vector.store %h, %hm[%c0] : memref<4xf16>, vector<4xf16>
    %hcast = memref.cast %hm : memref<4xf16> to memref<*xf16>
    call @printMemrefF16(%hcast) : (memref<*xf16>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
}
