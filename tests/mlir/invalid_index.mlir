// RUN: xesim verify --split-input-file --verify-diagnostics %s
// Invalid index-dialect IR (MLIR IndexOps).

func.func @cmp_bad_predicate(%a: index, %b: index) {
  // expected-error@+1 {{expected pred to be one of: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge, found 'foo'}}
  %0 = index.cmp foo(%a, %b)
  return
}

// -----

func.func @add_non_index(%a: i32, %b: index) {
  // expected-error@+1 {{use of value '%a' expects different type than prior uses: 'index' vs 'i32'}}
  %0 = index.add %a, %b
  return
}

// -----

func.func @casts_index_to_index(%a: index) {
  // expected-error@+1 {{'index.casts' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = index.casts %a : index to index
  return
}

// -----

func.func @castu_float(%a: f32) {
  // expected-error@+1 {{'index.castu' op operand #0 must be integer or index, but got 'f32'}}
  %0 = index.castu %a : f32 to index
  return
}

// -----

func.func @constant_not_integer() {
  // expected-error@+1 {{expected integer value, found '1.5'}}
  %0 = index.constant 1.5
  return
}
