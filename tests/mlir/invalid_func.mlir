// RUN: xesim verify --split-input-file --verify-diagnostics %s
// Invalid func programs: each case must be rejected with MLIR's diagnostic (xesim/verify/rules_func.py).

func.func @caller() {
  // expected-error@+1 {{'func.call' op '@nope' does not reference a valid function}}
  func.call @nope() : () -> ()
  return
}

// -----

func.func private @callee(i32, i32) -> i32
func.func @caller(%a: i32) -> i32 {
  // expected-error@+1 {{'func.call' op incorrect number of operands for callee}}
  %r = call @callee(%a) : (i32) -> i32
  return %r : i32
}

// -----

func.func private @callee(i32) -> i32
func.func @caller(%x: f32) -> i32 {
  // expected-error@+1 {{'func.call' op operand type mismatch: expected operand type 'i32', but provided 'f32' for operand number 0}}
  %r = call @callee(%x) : (f32) -> i32
  return %r : i32
}

// -----

func.func private @callee(i32) -> i32
func.func @caller(%a: i32) {
  // expected-error@+1 {{'func.call' op incorrect number of results for callee}}
  call @callee(%a) : (i32) -> ()
  return
}

// -----

func.func private @callee(i32) -> i32
func.func @caller(%a: i32) -> f32 {
  // expected-error@+1 {{'func.call' op result type mismatch at index 0}}
  %r = call @callee(%a) : (i32) -> f32
  return %r : f32
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @caller() {
    // expected-error@+1 {{'func.call' op '@kernels::@k' does not reference a valid function}}
    call @kernels::@k() : () -> ()
    return
  }
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'func.return' op has 1 operands, but enclosing function (@f) returns 0}}
  return %a : i32
}

// -----

func.func @g(%a: i32) -> (i32, i32) {
  // expected-error@+1 {{'func.return' op has 1 operands, but enclosing function (@g) returns 2}}
  return %a : i32
}

// -----

func.func @h(%x: f32) -> i32 {
  // expected-error@+1 {{type of return operand 0 (f32) doesn't match function result type (i32) in function @h}}
  return %x : f32
}

// -----

// expected-error@+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @external(i32) -> i32

// -----

// expected-error@+1 {{'func.func' op type of entry block argument #0(i32) must match the type of the corresponding argument in function signature(f32)}}
"func.func"() ({
^bb0(%a: i32):
  "func.return"() : () -> ()
}) {sym_name = "generic", function_type = (f32) -> ()} : () -> ()

// -----

// expected-error@+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
"func.func"() ({
  "func.return"() : () -> ()
}) {sym_name = "generic", function_type = (f32) -> ()} : () -> ()
