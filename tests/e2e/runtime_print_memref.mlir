// RUN: xesim run %s | filecheck %s
// printMemref* header and data formats (spec/programs-and-runner.md §1.1); expected text derived by hand.
module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %half = arith.constant 0.5 : f32

    // m[i][j] = 3*i + j + 0.5
    %m = memref.alloc() : memref<2x3xf32>
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        %t = arith.muli %i, %c3 : index
        %l = arith.addi %t, %j : index
        %li = arith.index_cast %l : index to i32
        %f = arith.sitofp %li : i32 to f32
        %v = arith.addf %f, %half : f32
        memref.store %v, %m[%i, %j] : memref<2x3xf32>
      }
    }
    %u = memref.cast %m : memref<2x3xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // CHECK:      Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
    // CHECK-NEXT: {{\[}}[0.5,   1.5,   2.5],
    // CHECK-NEXT:  [3.5,   4.5,   5.5]]

    // column 1 as a 2x1 subview: the descriptor's own offset and strides, data 1.5 and 4.5
    %col = memref.subview %m[0, 1] [2, 1] [1, 1] : memref<2x3xf32> to memref<2x1xf32, strided<[3, 1], offset: 1>>
    %ucol = memref.cast %col : memref<2x1xf32, strided<[3, 1], offset: 1>> to memref<*xf32>
    call @printMemrefF32(%ucol) : (memref<*xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 1 sizes = [2, 1] strides = [3, 1] data =
    // CHECK-NEXT: {{\[}}[1.5],
    // CHECK-NEXT:  [4.5]]

    // i32: v[i] = i*i - 3 -> -3, -2, 1, 6
    %iv = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      %sq = arith.muli %i, %i : index
      %s = arith.subi %sq, %c3 : index
      %si = arith.index_cast %s : index to i32
      memref.store %si, %iv[%i] : memref<4xi32>
    }
    %uiv = memref.cast %iv : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%uiv) : (memref<*xi32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
    // CHECK-NEXT: [-3,  -2,  1,  6]

    // f16: 11.11 rounds to 11.109375; bf16: f32(1/3) = 0x3EAAAAAB rounds up to 0x3EAB = 0.333984375
    %h = memref.alloc() : memref<3xf16>
    %uh = memref.cast %h : memref<3xf16> to memref<*xf16>
    %v1111 = arith.constant 11.11 : f32
    call @fillResource1DF16(%uh, %v1111) : (memref<*xf16>, f32) -> ()
    call @printMemrefF16(%uh) : (memref<*xf16>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
    // CHECK-NEXT: [11.1094,  11.1094,  11.1094]
    %b = memref.alloc() : memref<1x2xbf16>
    %ub = memref.cast %b : memref<1x2xbf16> to memref<*xbf16>
    %third = arith.constant 0.333333343 : f32
    call @fillResource1DBF16(%ub, %third) : (memref<*xbf16>, f32) -> ()
    call @printMemrefBF16(%ub) : (memref<*xbf16>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [1, 2] strides = [2, 1] data =
    // CHECK-NEXT: {{\[}}[0.333984,   0.333984]]

    // rank 0
    %r = memref.alloc() : memref<f32>
    %five = arith.constant 5.0 : f32
    memref.store %five, %r[] : memref<f32>
    %ur = memref.cast %r : memref<f32> to memref<*xf32>
    call @printMemrefF32(%ur) : (memref<*xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 0 offset = 0 sizes = [] strides = [] data =
    // CHECK-NEXT: [5]

    // 4x1x1 ones: one "[[1]]," per line
    %o = memref.alloc() : memref<4x1x1xf32>
    %uo = memref.cast %o : memref<4x1x1xf32> to memref<*xf32>
    %one = arith.constant 1.0 : f32
    call @fillResource1DF32(%uo, %one) : (memref<*xf32>, f32) -> ()
    call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 3 offset = 0 sizes = [4, 1, 1] strides = [1, 1, 1] data =
    // CHECK-NEXT: {{\[}}{{\[}}[1]],
    // CHECK-NEXT:  {{\[}}[1]],
    // CHECK-NEXT:  {{\[}}[1]],
    // CHECK-NEXT:  {{\[}}[1]]]

    // index elements are printed as int64_t
    %x = memref.alloc() : memref<2xindex>
    %m1 = arith.constant -1 : index
    %c7 = arith.constant 7 : index
    memref.store %m1, %x[%c0] : memref<2xindex>
    memref.store %c7, %x[%c1] : memref<2xindex>
    %ux = memref.cast %x : memref<2xindex> to memref<*xindex>
    call @printMemrefInd(%ux) : (memref<*xindex>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
    // CHECK-NEXT: [-1,  7]
    // CHECK-NOT: {{.}}

    memref.dealloc %m : memref<2x3xf32>
    memref.dealloc %iv : memref<4xi32>
    memref.dealloc %h : memref<3xf16>
    memref.dealloc %b : memref<1x2xbf16>
    memref.dealloc %r : memref<f32>
    memref.dealloc %o : memref<4x1x1xf32>
    memref.dealloc %x : memref<2xindex>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefInd(memref<*xindex>) attributes {llvm.emit_c_interface}
  func.func private @fillResource1DF16(memref<*xf16>, f32) attributes {llvm.emit_c_interface}
  func.func private @fillResource1DBF16(memref<*xbf16>, f32) attributes {llvm.emit_c_interface}
  func.func private @fillResource1DF32(memref<*xf32>, f32) attributes {llvm.emit_c_interface}
}
