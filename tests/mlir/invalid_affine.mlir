// RUN: xesim verify --split-input-file --verify-diagnostics %s
// Invalid affine.apply / min / max (MLIR AffineOps).

func.func @apply_missing_symbol(%i: index) {
  // expected-error@+1 {{dimension or symbol index mismatch}}
  %0 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%i)
  return
}

// -----

func.func @apply_two_results(%i: index, %j: index) {
  // expected-error@+1 {{'affine.apply' op mapping must produce one value}}
  %0 = affine.apply affine_map<(d0, d1) -> (d0, d1)>(%i, %j)
  return
}

// -----

func.func @apply_non_index(%i: i32) {
  // expected-error@+1 {{use of value '%i' expects different type than prior uses: 'index' vs 'i32'}}
  %0 = affine.apply affine_map<(d0) -> (d0)>(%i)
  return
}

// -----

func.func @apply_undeclared_dim(%i: index) {
  // expected-error@+1 {{use of undeclared identifier 'd1' in affine map}}
  %0 = affine.apply affine_map<(d0) -> (d0 + d1)>(%i)
  return
}

// -----

func.func @apply_not_a_map(%i: index) {
  // expected-error@+1 {{expected affine map attribute, got '5 : i64'}}
  %0 = affine.apply 5(%i)
  return
}

// -----

func.func @min_generic_operand_count(%i: index) {
  // expected-error@+1 {{'affine.min' op operand count and affine map dimension and symbol count must match}}
  %0 = "affine.min"(%i) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (index) -> index
  return
}
