// RUN: mlir-opt %s -split-input-file -verify-diagnostics

func.func @addi_float(%a: f32, %b: f32) {
  // expected-error @+3 {{'arith.addi' op operand #0 must be signless-integer-like or index-like, but got 'f32'}}
  // expected-error @+2 {{'arith.addi' op operand #1 must be signless-integer-like or index-like, but got 'f32'}}
  // expected-error-re @+1 {{'arith.addi' op result #{{[0-9]+}} must be {{.*}}, but got 'f32'}}
  %0 = arith.addi %a, %b : f32
  return
}

// -----

func.func @mixed(%a: i32, %b: i64) {
  // expected-error @below {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  return
}
