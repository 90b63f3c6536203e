// RUN: xesim verify --split-input-file --verify-diagnostics %s
// Invalid math IR (MLIR MathOps).

func.func @exp_int(%a: i32) {
  // expected-error@+2 {{'math.exp' op operand #0 must be floating-point-like, but got 'i32'}}
  // expected-error@+1 {{'math.exp' op result #0 must be floating-point-like, but got 'i32'}}
  %0 = math.exp %a : i32
  return
}

// -----

func.func @bad_fastmath(%a: f32) {
  // expected-error@+1 {{found 'quick'}}
  %0 = math.exp %a fastmath<quick> : f32
  return
}

// -----

func.func @absi_float(%a: f32) {
  // expected-error@+2 {{'math.absi' op operand #0 must be signless-fixed-width-integer-like, but got 'f32'}}
  // expected-error@+1 {{'math.absi' op result #0 must be signless-fixed-width-integer-like, but got 'f32'}}
  %0 = math.absi %a : f32
  return
}

// -----

func.func @fma_two_operands(%a: f32, %b: f32) {
  // expected-error@+1 {{expected ',', found ':'}}
  %0 = math.fma %a, %b : f32
  return
}

// -----

func.func @fpowi_shape(%a: f32, %b: vector<4xi32>) {
  // expected-error@+1 {{'math.fpowi' op failed to verify that all of {lhs, rhs} have same shape}}
  %0 = math.fpowi %a, %b : f32, vector<4xi32>
  return
}

// -----

func.func @generic_powf_mixed(%a: f32, %b: f16) {
  // expected-error@+1 {{'math.powf' op requires the same type for all operands and results}}
  %0 = "math.powf"(%a, %b) : (f32, f16) -> f32
  return
}
