// RUN: xesim verify --split-input-file --verify-diagnostics %s
// Invalid arith IR: operand types, predicates, width and cast rules, constants, select (MLIR ArithOps).

func.func @addi_float(%a: f32, %b: f32) {
  // expected-error@+3 {{'arith.addi' op operand #0 must be signless-integer-like or index-like, but got 'f32'}}
  // expected-error@+2 {{'arith.addi' op operand #1 must be signless-integer-like or index-like, but got 'f32'}}
  // expected-error@+1 {{'arith.addi' op result #0 must be signless-integer-like or index-like, but got 'f32'}}
  %0 = arith.addi %a, %b : f32
  return
}

// -----

func.func @addf_int(%a: i32, %b: i32) {
  // expected-error@+3 {{operand #0 must be floating-point-like, but got 'i32'}}
  // expected-error@+2 {{operand #1 must be floating-point-like, but got 'i32'}}
  // expected-error@+1 {{result #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.addf %a, %b : i32
  return
}

// -----

func.func @generic_addi_mixed(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  return
}

// -----

func.func @cmpi_bad_predicate(%a: i32, %b: i32) {
  // expected-error@+1 {{expected predicate to be one of: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge, found 'foo'}}
  %0 = arith.cmpi foo, %a, %b : i32
  return
}

// -----

func.func @cmpf_integer_predicate(%a: f32, %b: f32) {
  // expected-error@+1 {{found 'slt'}}
  %0 = arith.cmpf slt, %a, %b : f32
  return
}

// -----

func.func @cmpi_generic_predicate_out_of_range(%a: i32, %b: i32) {
  // expected-error@+1 {{invalid value 12 : i64 for attribute 'predicate' of 'arith.cmpi'}}
  %0 = "arith.cmpi"(%a, %b) <{predicate = 12 : i64}> : (i32, i32) -> i1
  return
}

// -----

func.func @cmpi_generic_mixed(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.cmpi' op failed to verify that all of {lhs, rhs} have same type}}
  %0 = "arith.cmpi"(%a, %b) <{predicate = 0 : i64}> : (i32, i64) -> i1
  return
}

// -----

func.func @cmpf_generic_result_shape(%a: vector<4xf32>, %b: vector<4xf32>) {
  // expected-error@+1 {{failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpf"(%a, %b) <{predicate = 1 : i64}> : (vector<4xf32>, vector<4xf32>) -> vector<8xi1>
  return
}

// -----

func.func @extsi_narrower(%a: i32) {
  // expected-error@+1 {{'arith.extsi' op result type 'i16' must be wider than operand type 'i32'}}
  %0 = arith.extsi %a : i32 to i16
  return
}

// -----

func.func @extui_same_width(%a: vector<4xi32>) {
  // expected-error@+1 {{'arith.extui' op result type 'i32' must be wider than operand type 'i32'}}
  %0 = arith.extui %a : vector<4xi32> to vector<4xi32>
  return
}

// -----

func.func @trunci_wider(%a: i8) {
  // expected-error@+1 {{'arith.trunci' op result type 'i32' must be shorter than operand type 'i8'}}
  %0 = arith.trunci %a : i8 to i32
  return
}

// -----

func.func @extf_narrower(%a: f32) {
  // expected-error@+1 {{'arith.extf' op result type 'f16' must be wider than operand type 'f32'}}
  %0 = arith.extf %a : f32 to f16
  return
}

// -----

func.func @truncf_wider(%a: f16) {
  // expected-error@+1 {{'arith.truncf' op result type 'f32' must be shorter than operand type 'f16'}}
  %0 = arith.truncf %a : f16 to f32
  return
}

// -----

func.func @truncf_bad_rounding_mode(%a: f32) {
  // expected-error@+1 {{expected ':', found 'sideways'}}
  %0 = arith.truncf %a sideways : f32 to f16
  return
}

// -----

func.func @extsi_shape_mismatch(%a: vector<4xi8>) {
  // expected-error@+1 {{'arith.extsi' op requires the same shape for all operands and results}}
  %0 = arith.extsi %a : vector<4xi8> to vector<8xi32>
  return
}

// -----

func.func @sitofp_scalar_to_vector(%a: i32) {
  // expected-error@+1 {{'arith.sitofp' op requires the same shape for all operands and results}}
  %0 = arith.sitofp %a : i32 to vector<1xf32>
  return
}

// -----

func.func @extsi_signed_operand(%a: si32) {
  // expected-error@+1 {{'arith.extsi' op operand #0 must be signless-fixed-width-integer-like, but got 'si32'}}
  %0 = arith.extsi %a : si32 to i64
  return
}

// -----

func.func @bitcast_width(%a: i32) {
  // expected-error@+1 {{'arith.bitcast' op operand type 'i32' and result type 'f16' are cast incompatible}}
  %0 = arith.bitcast %a : i32 to f16
  return
}

// -----

func.func @index_cast_int_to_int(%a: i32) {
  // expected-error@+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_cast %a : i32 to i64
  return
}

// -----

func.func @index_castui_index_to_index(%a: index) {
  // expected-error@+1 {{'arith.index_castui' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = arith.index_castui %a : index to index
  return
}

// -----

func.func @dense_shape_mismatch() {
  // expected-error@+1 {{inferred shape of elements literal ([3]) does not match type ([4]) at dimension 0}}
  %0 = arith.constant dense<[1, 2, 3]> : vector<4xi32>
  return
}

// -----

func.func @dense_rank_mismatch() {
  // expected-error@+1 {{inferred shape of elements literal ([2]) does not match type ([3]) at dimension 1}}
  %0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x3xf32>
  return
}

// -----

func.func @constant_float_for_int() {
  // expected-error@+1 {{floating point value not valid for specified type 'i32'}}
  %0 = arith.constant 1.5 : i32
  return
}

// -----

func.func @constant_out_of_range() {
  // expected-error@+1 {{integer constant out of range for type 'i8'}}
  %0 = arith.constant 300 : i8
  return
}

// -----

func.func @constant_untyped_value() {
  // expected-error@+1 {{invalid kind of attribute specified}}
  %0 = arith.constant "text"
  return
}

// -----

func.func @constant_generic_type_mismatch() {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = 1 : i32}> : () -> i64
  return
}

// -----

func.func @constant_signed_result() {
  // expected-error@+1 {{'arith.constant' op integer return type must be signless}}
  %0 = arith.constant 1 : si32
  return
}

// -----

func.func @select_mask_shape(%c: vector<2xi1>, %a: vector<4xf32>) {
  // expected-error@+1 {{'arith.select' op expected condition type to have the same shape as the result type, expected 'vector<4xi1>', but got 'vector<2xi1>'}}
  %0 = arith.select %c, %a, %a : vector<2xi1>, vector<4xf32>
  return
}

// -----

func.func @select_int_condition(%c: i32, %a: f32) {
  // expected-error@+1 {{'arith.select' op operand #0 must be bool-like (i1 or vector of i1), but got 'i32'}}
  %0 = arith.select %c, %a, %a : i32, f32
  return
}

// -----

func.func @select_vector_mask_scalar_result(%c: vector<4xi1>, %a: f32) {
  // expected-error@+1 {{'arith.select' op expected condition to be a signless i1, but got 'vector<4xi1>'}}
  %0 = arith.select %c, %a, %a : vector<4xi1>, f32
  return
}

// -----

func.func @missing_comma(%a: i32, %b: i32) {
  // expected-error@+1 {{expected ',', found '%b'}}
  %0 = arith.addi %a %b : i32
  return
}

// -----

func.func @bad_fastmath_flag(%a: f32, %b: f32) {
  // expected-error@+1 {{found 'quick'}}
  %0 = arith.addf %a, %b fastmath<quick> : f32
  return
}

// -----

func.func @bad_overflow_flag(%a: i32, %b: i32) {
  // expected-error@+1 {{found 'wrap'}}
  %0 = arith.addi %a, %b overflow<wrap> : i32
  return
}

// -----

func.func @overflow_on_float_op(%a: f32, %b: f32) {
  // expected-error@+1 {{expected ':', found 'overflow'}}
  %0 = arith.addf %a, %b overflow<nsw> : f32
  return
}
