// RUN: xesim verify --split-input-file --verify-diagnostics %s

// Invalid vector IR: each case is rejected with MLIR's diagnostic (VectorOps.cpp) on the offending line.

func.func @extract_position_rank(%v: vector<4x4xf32>) {
  // expected-error@+1 {{expected position attribute of rank no greater than vector rank}}
  %e = vector.extract %v[0, 1, 2] : f32 from vector<4x4xf32>
  return
}

// -----

func.func @extract_position_range(%v: vector<4xf32>) {
  // expected-error@+1 {{expected position attribute #1 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
  %e = vector.extract %v[4] : f32 from vector<4xf32>
  return
}

// -----

func.func @extract_result_type(%v: vector<4x4xf32>) {
  // expected-error@+1 {{inferred type(s) 'vector<4xf32>' are incompatible with return type(s) of operation 'f32'}}
  %e = vector.extract %v[1] : f32 from vector<4x4xf32>
  return
}

// -----

func.func @insert_scalar_rank(%v: vector<4x4xf32>, %s: f32) {
  // expected-error@+1 {{expected position attribute rank to match the dest vector rank}}
  %r = vector.insert %s, %v [0] : f32 into vector<4x4xf32>
  return
}

// -----

func.func @insert_vector_rank(%v: vector<4x4xf32>, %s: vector<4xf32>) {
  // expected-error@+1 {{expected position attribute rank + source rank to match dest vector rank}}
  %r = vector.insert %s, %v [0, 1] : vector<4xf32> into vector<4x4xf32>
  return
}

// -----

func.func @shape_cast_count(%v: vector<4x4xf32>) {
  // expected-error@+1 {{has different number of elements at source (16) and result (12)}}
  %r = vector.shape_cast %v : vector<4x4xf32> to vector<12xf32>
  return
}

// -----

func.func @shape_cast_element(%v: vector<4x4xf32>) {
  // expected-error@+1 {{has different source and result element types}}
  %r = vector.shape_cast %v : vector<4x4xf32> to vector<16xi32>
  return
}

// -----

func.func @transpose_duplicate(%v: vector<4x4xf32>) {
  // expected-error@+1 {{duplicate position index: 0}}
  %t = vector.transpose %v, [0, 0] : vector<4x4xf32> to vector<4x4xf32>
  return
}

// -----

func.func @transpose_shape(%v: vector<4x8xf32>) {
  // expected-error@+1 {{dimension size mismatch at: 1}}
  %t = vector.transpose %v, [1, 0] : vector<4x8xf32> to vector<4x8xf32>
  return
}

// -----

func.func @transpose_range(%v: vector<4x8xf32>) {
  // expected-error@+1 {{transposition index out of range: 2}}
  %t = vector.transpose %v, [2, 0] : vector<4x8xf32> to vector<8x4xf32>
  return
}

// -----

func.func @broadcast_dims(%v: vector<3xf32>) {
  // expected-error@+1 {{dimension mismatch (3 vs. 4)}}
  %b = vector.broadcast %v : vector<3xf32> to vector<4x4xf32>
  return
}

// -----

func.func @broadcast_rank(%v: vector<2x4x4xf32>) {
  // expected-error@+1 {{source rank higher than destination rank}}
  %b = vector.broadcast %v : vector<2x4x4xf32> to vector<4x4xf32>
  return
}

// -----

func.func @broadcast_element(%s: f16) {
  // expected-error@+1 {{failed to verify that source operand and result have same element type}}
  %b = vector.broadcast %s : f16 to vector<4xf32>
  return
}

// -----

func.func @bitcast_width(%v: vector<8xf32>) {
  // expected-error@+1 {{source/result bitwidth of the minor 1-D vectors must be equal}}
  %b = vector.bitcast %v : vector<8xf32> to vector<8xf16>
  return
}

// -----

func.func @reduction_result(%v: vector<16xf32>) {
  // expected-error@+1 {{failed to verify that source operand and result have same element type}}
  %r = vector.reduction <add>, %v : vector<16xf32> into f16
  return
}

// -----

func.func @reduction_kind(%v: vector<16xf32>) {
  // expected-error@+1 {{unsupported reduction type 'f32' for kind 'xor'}}
  %r = vector.reduction <xor>, %v : vector<16xf32> into f32
  return
}

// -----

func.func @reduction_rank(%v: vector<4x4xi32>) {
  // expected-error@+1 {{unsupported reduction rank: 2}}
  %r = vector.reduction <add>, %v : vector<4x4xi32> into i32
  return
}

// -----

func.func @reduction_bad_kind(%v: vector<16xf32>) {
  // expected-error@+1 {{expected one of}}
  %r = vector.reduction <sum>, %v : vector<16xf32> into f32
  return
}

// -----

func.func @multi_reduction_shape(%v: vector<4x16xf32>, %acc: vector<16xf32>) {
  // expected-error@+1 {{destination type 'vector<16xf32>' is incompatible with source type 'vector<4x16xf32>'}}
  %r = vector.multi_reduction <add>, %v, %acc [1] : vector<4x16xf32> to vector<16xf32>
  return
}

// -----

func.func @shuffle_mask(%a: vector<2xf32>, %b: vector<2xf32>) {
  // expected-error@+1 {{mask index #2 out of range}}
  %s = vector.shuffle %a, %b [0, 4] : vector<2xf32>, vector<2xf32>
  return
}

// -----

func.func @shuffle_trailing(%a: vector<2x4xf32>, %b: vector<2x8xf32>) {
  // expected-error@+1 {{dimension mismatch}}
  %s = vector.shuffle %a, %b [0, 1] : vector<2x4xf32>, vector<2x8xf32>
  return
}

// -----

func.func @scalable(%v: vector<[4]xf32>) {
  // expected-error@+1 {{scalable vectors are not supported by xesim}}
  %r = vector.reduction <add>, %v : vector<[4]xf32> into f32
  return
}

// -----

func.func @strided_slice_result(%v: vector<4x4xf32>) {
  // expected-error@+1 {{expected result type to be 'vector<2x4xf32>'}}
  %s = vector.extract_strided_slice %v {offsets = [0], sizes = [2], strides = [1]} : vector<4x4xf32> to vector<2x2xf32>
  return
}

// -----

func.func @strided_slice_bounds(%v: vector<4x4xf32>) {
  // expected-error@+1 {{expected sum(offsets, sizes) dimension 0 to be confined to [1, 5)}}
  %s = vector.extract_strided_slice %v {offsets = [3], sizes = [2], strides = [1]} : vector<4x4xf32> to vector<2x4xf32>
  return
}

// -----

func.func @insert_strided_slice_offsets(%s: vector<2xf32>, %v: vector<4x4xf32>) {
  // expected-error@+1 {{expected offsets of same size as destination vector rank}}
  %r = vector.insert_strided_slice %s, %v {offsets = [0], strides = [1]} : vector<2xf32> into vector<4x4xf32>
  return
}

// -----

func.func @constant_mask_bounds() {
  // expected-error@+1 {{array attr of size out of bounds of vector result dimension size}}
  %m = vector.constant_mask [5, 2] : vector<4x3xi1>
  return
}

// -----

func.func @create_mask_operands(%a: index) {
  // expected-error@+1 {{must specify an operand for each result vector dimension}}
  %m = vector.create_mask %a : vector<4x8xi1>
  return
}

// -----

func.func @step_type() {
  // expected-error@+1 {{result #0 must be vector of index values of ranks 1}}
  %s = vector.step : vector<16xi32>
  return
}

// -----

func.func @load_element(%m: memref<16xf32>, %i: index) {
  // expected-error@+1 {{base and result element types should match}}
  %v = vector.load %m[%i] : memref<16xf32>, vector<4xf16>
  return
}

// -----

func.func @transfer_indices(%m: memref<16x16xf32>, %i: index, %p: f32) {
  // expected-error@+1 {{requires 2 indices}}
  %v = vector.transfer_read %m[%i], %p : memref<16x16xf32>, vector<8xf32>
  return
}

// -----

func.func @transfer_map(%m: memref<16x16xf32>, %i: index, %p: f32) {
  // expected-error@+1 {{requires a projected permutation_map (at most one dim or the zero constant can appear in each result)}}
  %v = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (d0 + d1)>} : memref<16x16xf32>, vector<8xf32>
  return
}

// -----

func.func @transfer_broadcast_in_bounds(%m: memref<16xf32>, %i: index, %p: f32) {
  // expected-error@+1 {{requires broadcast dimensions to be in-bounds}}
  %v = vector.transfer_read %m[%i], %p {permutation_map = affine_map<(d0) -> (0, d0)>} : memref<16xf32>, vector<4x8xf32>
  return
}

// -----

func.func @transfer_write_broadcast(%m: memref<16xf32>, %i: index, %v: vector<4x8xf32>) {
  // expected-error@+1 {{should not have broadcast dimensions}}
  vector.transfer_write %v, %m[%i] {in_bounds = [true, false], permutation_map = affine_map<(d0) -> (0, d0)>} : vector<4x8xf32>, memref<16xf32>
  return
}

// -----

func.func @transfer_types(%m: memref<16xf32>, %i: index, %p: f32) {
  // expected-error@+1 {{requires two types}}
  %v = vector.transfer_read %m[%i], %p : memref<16xf32>
  return
}

// -----

func.func @contract_no_reduction(%a: vector<4x8xf32>, %b: vector<8x4xf32>, %c: vector<4x4xf32>) {
  // expected-error@+1 {{expected at least one contracting dimension pair}}
  %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "parallel"]} %a, %b, %c : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
  return
}

// -----

func.func @contract_acc_shape(%a: vector<4x8xf32>, %b: vector<8x4xf32>, %c: vector<4x8xf32>) {
  // expected-error@+1 {{invalid accumulator/result vector shape, expected: 'vector<4x4xf32>'}}
  %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<4x8xf32>, vector<8x4xf32> into vector<4x8xf32>
  return
}

// -----

func.func @contract_iterator(%a: vector<4x8xf32>, %b: vector<8x4xf32>, %c: vector<4x4xf32>) {
  // expected-error@+1 {{unexpected iterator_type (window)}}
  %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "window"]} %a, %b, %c : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
  return
}

// -----

func.func @extractelement_position(%v: vector<4xf32>) {
  // expected-error@+1 {{expected position for 1-D vector}}
  %e = vector.extractelement %v[] : vector<4xf32>
  return
}

// -----

func.func @from_elements_count(%a: f32, %b: f32) {
  // expected-error@+1 {{failed to verify that operand types match result element type}}
  %v = vector.from_elements %a, %b : vector<4xf32>
  return
}

// -----

func.func @print_punctuation(%v: vector<4xf32>) {
  // expected-error@+1 {{expected one of}}
  vector.print %v : vector<4xf32> punctuation <semicolon>
  return
}
