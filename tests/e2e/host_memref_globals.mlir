// RUN: xesim run %s | filecheck %s
// memref.global / memref.get_global: dense initializers (also splat), uninitialized globals read as zero,
// one allocation per global shared by every get_global, writes persist between calls.
// Expected values derived by hand (f16(11.11) = 11.109375 prints 11.1094, spec §1.1).
module {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF16(memref<*xf16>)
  memref.global "private" constant @table : memref<2x3xf32> = dense<[[1.5, -2.0, 0.1], [1.0e+10, 0.0, -0.0]]>
  memref.global "private" @counter : memref<1xi32> = dense<41>
  memref.global @zeros : memref<3xf16> = uninitialized
  memref.global "private" @halfs : memref<2x2xf16> = dense<11.11>
  memref.global "private" constant @ints : memref<4xi8> = dense<[127, -128, -1, 5]> {alignment = 256 : i64}

  func.func @bump() -> i32 {
    %c0 = arith.constant 0 : index
    %g = memref.get_global @counter : memref<1xi32>
    %v = memref.load %g[%c0] : memref<1xi32>
    %one = arith.constant 1 : i32
    %n = arith.addi %v, %one : i32
    memref.store %n, %g[%c0] : memref<1xi32>
    return %n : i32
  }

  func.func @ints_address() -> index {
    %g = memref.get_global @ints : memref<4xi8>
    %p = memref.extract_aligned_pointer_as_index %g : memref<4xi8> -> index
    return %p : index
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = memref.get_global @table : memref<2x3xf32>
    %ut = memref.cast %t : memref<2x3xf32> to memref<*xf32>
    call @printMemrefF32(%ut) : (memref<*xf32>) -> ()
    // CHECK:      Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
    // CHECK-NEXT: {{\[}}[1.5, -2, 0.1],
    // CHECK-NEXT:  [1e+10, 0, -0]]

    %a = call @bump() : () -> i32
    %b = call @bump() : () -> i32
    vector.print %a : i32
    vector.print %b : i32
    // CHECK-NEXT: 42
    // CHECK-NEXT: 43
    %cnt = memref.get_global @counter : memref<1xi32>
    %ucnt = memref.cast %cnt : memref<1xi32> to memref<*xi32>
    call @printMemrefI32(%ucnt) : (memref<*xi32>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [1] strides = [1] data =
    // CHECK-NEXT: [43]

    %z = memref.get_global @zeros : memref<3xf16>
    %uz = memref.cast %z : memref<3xf16> to memref<*xf16>
    call @printMemrefF16(%uz) : (memref<*xf16>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
    // CHECK-NEXT: [0, 0, 0]

    %h = memref.get_global @halfs : memref<2x2xf16>
    %uh = memref.cast %h : memref<2x2xf16> to memref<*xf16>
    call @printMemrefF16(%uh) : (memref<*xf16>) -> ()
    // CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
    // CHECK-NEXT: {{\[}}[11.1094, 11.1094],
    // CHECK-NEXT:  [11.1094, 11.1094]]

    %i = memref.get_global @ints : memref<4xi8>
    scf.for %k = %c0 to %c4 step %c1 {
      %e = memref.load %i[%k] : memref<4xi8>
      vector.print %e : i8
    }
    // CHECK-NEXT: 127
    // CHECK-NEXT: -128
    // CHECK-NEXT: -1
    // CHECK-NEXT: 5

    // the same allocation from another function; aligned to the requested 256 bytes
    %p = memref.extract_aligned_pointer_as_index %i : memref<4xi8> -> index
    %q = call @ints_address() : () -> index
    %same = arith.cmpi eq, %p, %q : index
    vector.print %same : i1
    // CHECK-NEXT: 1
    %c256 = arith.constant 256 : index
    %rem = arith.remui %p, %c256 : index
    vector.print %rem : index
    // CHECK-NEXT: 0
    return
  }
}
