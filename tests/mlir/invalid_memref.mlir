// RUN: xesim verify --split-input-file --verify-diagnostics %s

// Invalid memref IR: each case is rejected with MLIR's diagnostic (MemRefOps.cpp) on the offending line.

func.func @load_index_count(%m: memref<4x4xf32>, %i: index) {
  // expected-error@+1 {{incorrect number of indices for load, expected 2 but got 1}}
  %v = memref.load %m[%i] : memref<4x4xf32>
  return
}

// -----

func.func @store_index_count(%m: memref<4x4xf32>, %i: index, %v: f32) {
  // expected-error@+1 {{store index operand count not equal to memref rank}}
  memref.store %v, %m[%i, %i, %i] : memref<4x4xf32>
  return
}

// -----

func.func @alloc_dynamic_count(%n: index) {
  // expected-error@+1 {{dimension operand count does not equal memref dynamic dimension count}}
  %m = memref.alloc(%n) : memref<4x?x?xf32>
  return
}

// -----

func.func @alloc_alignment() {
  // expected-error@+1 {{attribute 'alignment' failed to satisfy constraint}}
  %m = memref.alloc() {alignment = 48 : i64} : memref<4xf32>
  return
}

// -----

func.func @cast_static_mismatch(%m: memref<4xf32>) {
  // expected-error@+1 {{operand type 'memref<4xf32>' and result type 'memref<8xf32>' are cast incompatible}}
  %c = memref.cast %m : memref<4xf32> to memref<8xf32>
  return
}

// -----

func.func @cast_unranked_to_unranked(%u: memref<*xf32>) {
  // expected-error@+1 {{are cast incompatible}}
  %c = memref.cast %u : memref<*xf32> to memref<*xf32>
  return
}

// -----

func.func @cast_element_type(%m: memref<4xf32>) {
  // expected-error@+1 {{operand type 'memref<4xf32>' and result type 'memref<*xf16>' are cast incompatible}}
  %c = memref.cast %m : memref<4xf32> to memref<*xf16>
  return
}

// -----

func.func @subview_rank(%m: memref<16x16xf32>) {
  // expected-error@+1 {{expected mixed offsets rank to match mixed sizes rank (1 vs 2)}}
  %s = memref.subview %m[0] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1]>>
  return
}

// -----

func.func @subview_too_many(%m: memref<16x16xf32>) {
  // expected-error@+1 {{expected 2 offset values, got 3}}
  %s = memref.subview %m[0, 0, 0] [4, 4, 1] [1, 1, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1]>>
  return
}

// -----

func.func @subview_layout(%m: memref<16x16xf32>) {
  // expected-error@+1 {{expected result type to be 'memref<4x4xf32, strided<[16, 1], offset: 72>>' or a rank-reduced version. (mismatch of result layout)}}
  %s = memref.subview %m[4, 8] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32>
  return
}

// -----

func.func @subview_sizes(%m: memref<16x16xf32>) {
  // expected-error@+1 {{(mismatch of result sizes)}}
  %s = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x8xf32, strided<[16, 1]>>
  return
}

// -----

func.func @subview_out_of_bounds(%m: memref<16x16xf32>) {
  // expected-error@+1 {{slice along dimension 1 runs out-of-bounds: 16 >= 16}}
  %s = memref.subview %m[0, 2] [1, 8] [1, 2] : memref<16x16xf32> to memref<8xf32, strided<[2], offset: 2>>
  return
}

// -----

func.func @reinterpret_size(%m: memref<16xf32>) {
  // expected-error@+1 {{expected result type with size = 4 instead of 8 in dim = 1}}
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [2, 4], strides: [4, 1] : memref<16xf32> to memref<2x8xf32>
  return
}

// -----

func.func @reinterpret_stride(%m: memref<16xf32>) {
  // expected-error@+1 {{expected result type with stride = 2 instead of 1 in dim = 1}}
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [4, 4], strides: [4, 2] : memref<16xf32> to memref<4x4xf32>
  return
}

// -----

func.func @reinterpret_offset_count(%m: memref<16xf32>) {
  // expected-error@+1 {{expected 1 offset values, got 2}}
  %r = memref.reinterpret_cast %m to offset: [0, 0], sizes: [4, 4], strides: [4, 1] : memref<16xf32> to memref<4x4xf32>
  return
}

// -----

func.func @collapse_size(%m: memref<4x4xf32>) {
  // expected-error@+1 {{collapsed dim size (8) must equal reassociation group size (16)}}
  %c = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<8xf32>
  return
}

// -----

func.func @collapse_non_contiguous(%m: memref<4x4xf32, strided<[8, 1]>>) {
  // expected-error@+1 {{invalid source layout map or collapsing non-contiguous dims}}
  %c = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32, strided<[8, 1]>> into memref<16xf32, strided<[1]>>
  return
}

// -----

func.func @collapse_groups(%m: memref<2x4x8xf32>) {
  // expected-error@+1 {{reassociation indices must be contiguous}}
  %c = memref.collapse_shape %m [[0, 2], [1]] : memref<2x4x8xf32> into memref<16x4xf32>
  return
}

// -----

func.func @expand_output_shape(%m: memref<16xf32>) {
  // expected-error@+1 {{invalid output shape provided at pos 1}}
  %e = memref.expand_shape %m [[0, 1]] output_shape [4, 2] : memref<16xf32> into memref<4x4xf32>
  return
}

// -----

func.func @expand_type(%m: memref<16xf32>) {
  // expected-error@+1 {{collapsed dim size (16) must equal reassociation group size (8)}}
  %e = memref.expand_shape %m [[0, 1]] output_shape [4, 2] : memref<16xf32> into memref<4x2xf32>
  return
}

// -----

func.func @view_sizes(%b: memref<1024xi8>, %o: index) {
  // expected-error@+1 {{incorrect number of size operands for type 'memref<?x4xf32>'}}
  %v = memref.view %b[%o][] : memref<1024xi8> to memref<?x4xf32>
  return
}

// -----

func.func @view_source(%b: memref<1024xf32>, %o: index) {
  // expected-error@+1 {{operand #0 must be 1D memref of 8-bit signless integer values, but got 'memref<1024xf32>'}}
  %v = memref.view %b[%o][] : memref<1024xf32> to memref<4x4xf32>
  return
}

// -----

func.func @get_global_missing() {
  // expected-error@+1 {{'nope' does not reference a valid global memref}}
  %g = memref.get_global @nope : memref<4xf32>
  return
}

// -----

memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>

func.func @get_global_type() {
  // expected-error@+1 {{result type 'memref<4xf32>' does not match type 'memref<2xf32>' of the global memref @c}}
  %g = memref.get_global @c : memref<4xf32>
  return
}

// -----

// expected-error@+1 {{inferred shape of elements literal ([2]) does not match type ([4])}}
memref.global "private" constant @short : memref<4xf32> = dense<[1.0, 2.0]>

// -----

// expected-error@+1 {{type should be static shaped memref, but got 'memref<?xf32>'}}
memref.global @dyn : memref<?xf32>

// -----

// expected-error@+1 {{initial value element expected to be of type 'f32', but was of type 'f16'}}
"memref.global"() <{sym_name = "g", type = memref<2xf32>, initial_value = dense<[1.0, 2.0]> : vector<2xf16>}> : () -> ()

// -----

func.func @space_cast_shape(%m: memref<4xf32, 1>) {
  // expected-error@+1 {{operand type 'memref<4xf32, 1>' and result type 'memref<8xf32>' are cast incompatible}}
  %c = memref.memory_space_cast %m : memref<4xf32, 1> to memref<8xf32>
  return
}

// -----

func.func @metadata_results(%m: memref<4x4xf32>) {
  // expected-error@+1 {{inferred type(s) 'memref<f32>', 'index', 'index', 'index', 'index', 'index' are incompatible with return type(s) of operation 'memref<f32>', 'index', 'index', 'index'}}
  %base, %offset, %sizes, %strides = memref.extract_strided_metadata %m : memref<4x4xf32> -> memref<f32>, index, index, index
  return
}

// -----

func.func @copy_shape(%a: memref<4xf32>, %b: memref<8xf32>) {
  // expected-error@+1 {{requires the same shape for all operands}}
  memref.copy %a, %b : memref<4xf32> to memref<8xf32>
  return
}

// -----

func.func @dim_out_of_range(%m: memref<4x?xf32>) {
  %c2 = arith.constant 2 : index
  // expected-error@+1 {{index is out of range}}
  %d = memref.dim %m, %c2 : memref<4x?xf32>
  return
}

// -----

func.func @load_type(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{use of value '%m' expects different type than prior uses: 'memref<4xf16>' vs 'memref<4xf32>'}}
  %v = memref.load %m[%i] : memref<4xf16>
  return
}
