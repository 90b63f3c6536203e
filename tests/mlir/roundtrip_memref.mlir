// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s

// memref ops print back in mlir-opt's syntax: globals (initialized, uninitialized, external), allocs with
// dynamic sizes and alignment, casts to/from unranked, strided and rank-reducing subviews, reinterpret_cast,
// collapse/expand_shape, view, get_global, memory_space_cast and multi-result extract_strided_metadata.
// CHECK:      module {
// CHECK-NEXT: memref.global "private" constant @table : memref<2x3xf32> = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]>
// CHECK-NEXT: memref.global "private" @scratch : memref<64xi32> = uninitialized
// CHECK-NEXT: memref.global @extern_buf : memref<16xf16>
// CHECK-NEXT: memref.global "private" constant @splat : memref<4xi8> = dense<7> {alignment = 64 : i64}
// CHECK-NEXT: func.func @buffers(%n: index, %i: index, %j: index, %v: f32) {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %a = memref.alloc() : memref<32x32xf16>
// CHECK-NEXT: %d = memref.alloc(%n, %n) : memref<?x?xf32>
// CHECK-NEXT: %al = memref.alloc() {alignment = 64 : i64} : memref<16xf32, 3>
// CHECK-NEXT: %st = memref.alloca() : memref<4xf32>
// CHECK-NEXT: %x = memref.load %d[%i, %j] : memref<?x?xf32>
// CHECK-NEXT: memref.store %v, %d[%i, %j] : memref<?x?xf32>
// CHECK-NEXT: memref.store %x, %st[%c0] {nontemporal = true} : memref<4xf32>
// CHECK-NEXT: %u = memref.cast %d : memref<?x?xf32> to memref<*xf32>
// CHECK-NEXT: %r = memref.cast %u : memref<*xf32> to memref<?x?xf32>
// CHECK-NEXT: %s = memref.cast %a : memref<32x32xf16> to memref<?x32xf16>
// CHECK-NEXT: %rk = memref.rank %u : memref<*xf32>
// CHECK-NEXT: %dim = memref.dim %d, %c0 : memref<?x?xf32>
// CHECK-NEXT: %sv = memref.subview %a[4, 8] [8, 16] [1, 1] : memref<32x32xf16> to memref<8x16xf16, strided<[32, 1], offset: 136>>
// CHECK-NEXT: %sd = memref.subview %d[%i, 0] [4, %n] [2, 1] : memref<?x?xf32> to memref<4x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT: %sr = memref.subview %a[0, 1] [1, 16] [1, 2] : memref<32x32xf16> to memref<16xf16, strided<[2], offset: 1>>
// CHECK-NEXT: %flat = memref.alloc() : memref<16xf32>
// CHECK-NEXT: %rc = memref.reinterpret_cast %flat to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<16xf32> to memref<4x4xf32>
// CHECK-NEXT: %rd = memref.reinterpret_cast %u to offset: [%i], sizes: [%n, 8], strides: [8, 1] : memref<*xf32> to memref<?x8xf32, strided<[8, 1], offset: ?>>
// CHECK-NEXT: %cs = memref.collapse_shape %rc {{\[\[}}0, 1]] : memref<4x4xf32> into memref<16xf32>
// CHECK-NEXT: %es = memref.expand_shape %flat {{\[\[}}0, 1]] output_shape [2, 8] : memref<16xf32> into memref<2x8xf32>
// CHECK-NEXT: %ed = memref.expand_shape %d {{\[\[}}0, 1], [2]] output_shape [%n, 4, %n] : memref<?x?xf32> into memref<?x4x?xf32>
// CHECK-NEXT: %rows = memref.subview %a[4, 0] [8, 32] [1, 1] : memref<32x32xf16> to memref<8x32xf16, strided<[32, 1], offset: 128>>
// CHECK-NEXT: %cst = memref.collapse_shape %rows {{\[\[}}0, 1]] : memref<8x32xf16, strided<[32, 1], offset: 128>> into memref<256xf16, strided<[1], offset: 128>>
// CHECK-NEXT: %bytes = memref.alloc() : memref<2048xi8, 3>
// CHECK-NEXT: %vw = memref.view %bytes[%c0][] : memref<2048xi8, 3> to memref<16x16xf16, 3>
// CHECK-NEXT: %vd = memref.view %bytes[%i][%n] : memref<2048xi8, 3> to memref<?x4xf32, 3>
// CHECK-NEXT: %g = memref.get_global @table : memref<2x3xf32>
// CHECK-NEXT: %gs = memref.memory_space_cast %al : memref<16xf32, 3> to memref<16xf32>
// CHECK-NEXT: %p = memref.extract_aligned_pointer_as_index %a : memref<32x32xf16> -> index
// CHECK-NEXT: %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %sd : memref<4x?xf32, strided<[?, 1], offset: ?>> -> memref<f32>, index, index, index, index, index
// CHECK-NEXT: %q = arith.addi %sizes#1, %strides#0 : index
// CHECK-NEXT: memref.copy %rc, %rc : memref<4x4xf32> to memref<4x4xf32>
// CHECK-NEXT: memref.dealloc %a : memref<32x32xf16>
// CHECK-NEXT: memref.dealloc %u : memref<*xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

module {
  memref.global "private" constant @table : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
  memref.global "private" @scratch : memref<64xi32> = uninitialized
  memref.global @extern_buf : memref<16xf16>
  memref.global "private" constant @splat : memref<4xi8> = dense<7> {alignment = 64 : i64}

  func.func @buffers(%n: index, %i: index, %j: index, %v: f32) {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() : memref<32x32xf16>
    %d = memref.alloc(%n, %n) : memref<?x?xf32>
    %al = memref.alloc() {alignment = 64 : i64} : memref<16xf32, 3>
    %st = memref.alloca() : memref<4xf32>
    %x = memref.load %d[%i, %j] : memref<?x?xf32>
    memref.store %v, %d[%i, %j] : memref<?x?xf32>
    memref.store %x, %st[%c0] {nontemporal = true} : memref<4xf32>
    %u = memref.cast %d : memref<?x?xf32> to memref<*xf32>
    %r = memref.cast %u : memref<*xf32> to memref<?x?xf32>
    %s = memref.cast %a : memref<32x32xf16> to memref<?x32xf16>
    %rk = memref.rank %u : memref<*xf32>
    %dim = memref.dim %d, %c0 : memref<?x?xf32>
    %sv = memref.subview %a[4, 8] [8, 16] [1, 1] : memref<32x32xf16> to memref<8x16xf16, strided<[32, 1], offset: 136>>
    %sd = memref.subview %d[%i, 0] [4, %n] [2, 1] : memref<?x?xf32> to memref<4x?xf32, strided<[?, 1], offset: ?>>
    %sr = memref.subview %a[0, 1] [1, 16] [1, 2] : memref<32x32xf16> to memref<16xf16, strided<[2], offset: 1>>
    %flat = memref.alloc() : memref<16xf32>
    %rc = memref.reinterpret_cast %flat to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<16xf32> to memref<4x4xf32>
    %rd = memref.reinterpret_cast %u to offset: [%i], sizes: [%n, 8], strides: [8, 1] : memref<*xf32> to memref<?x8xf32, strided<[8, 1], offset: ?>>
    %cs = memref.collapse_shape %rc [[0, 1]] : memref<4x4xf32> into memref<16xf32>
    %es = memref.expand_shape %flat [[0, 1]] output_shape [2, 8] : memref<16xf32> into memref<2x8xf32>
    %ed = memref.expand_shape %d [[0, 1], [2]] output_shape [%n, 4, %n] : memref<?x?xf32> into memref<?x4x?xf32>
    %rows = memref.subview %a[4, 0] [8, 32] [1, 1] : memref<32x32xf16> to memref<8x32xf16, strided<[32, 1], offset: 128>>
    %cst = memref.collapse_shape %rows [[0, 1]] : memref<8x32xf16, strided<[32, 1], offset: 128>> into memref<256xf16, strided<[1], offset: 128>>
    %bytes = memref.alloc() : memref<2048xi8, 3>
    %vw = memref.view %bytes[%c0][] : memref<2048xi8, 3> to memref<16x16xf16, 3>
    %vd = memref.view %bytes[%i][%n] : memref<2048xi8, 3> to memref<?x4xf32, 3>
    %g = memref.get_global @table : memref<2x3xf32>
    %gs = memref.memory_space_cast %al : memref<16xf32, 3> to memref<16xf32>
    %p = memref.extract_aligned_pointer_as_index %a : memref<32x32xf16> -> index
    %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %sd : memref<4x?xf32, strided<[?, 1], offset: ?>> -> memref<f32>, index, index, index, index, index
    %q = arith.addi %sizes#1, %strides#0 : index
    memref.copy %rc, %rc : memref<4x4xf32> to memref<4x4xf32>
    memref.dealloc %a : memref<32x32xf16>
    memref.dealloc %u : memref<*xf32>
    return
  }
}
