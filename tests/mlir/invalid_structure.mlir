// RUN: xesim verify --split-input-file --verify-diagnostics %s

func.func @undefined_value() {
  // expected-error@+1 {{use of undeclared SSA value name '%x'}}
  func.return %x : i32
}

// -----

func.func @result_count(%a: i32) {
  // expected-error@+1 {{operation defines 0 results but was provided 1 to bind}}
  %r = func.call @redefinition(%a) : (i32) -> ()
  func.return
}

// -----

func.func @use_before_def_in_block(%c: i32) -> i32 {
  // expected-error@+1 {{'arith.addi' op operand #0 does not dominate this use}}
  %y = arith.addi %x, %c : i32
  // expected-note@+1 {{operand defined here}}
  %x = arith.constant 1 : i32
  return %y : i32
}

// -----

func.func @dominance_across_blocks(%c: i1) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.constant 1 : i32
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  // expected-error@+1 {{'func.return' op operand #0 does not dominate this use}}
  return %x : i32
}

// -----

func.func @inner_value_used_outside(%lb: index, %ub: index, %s: index) -> index {
  scf.for %i = %lb to %ub step %s {
  }
  // expected-error@+1 {{use of undeclared SSA value name '%i'}}
  return %i : index
}

// -----

func.func @missing_terminator() {
  // expected-error@+1 {{block with no terminator, has arith.constant}}
  %x = arith.constant 1 : i32
}

// -----

func.func @terminator_not_last(%m: memref<4xf32>, %v: f32, %i: index) {
  // expected-error@+1 {{'func.return' op must be the last operation in the parent block}}
  return
  memref.store %v, %m[%i] : memref<4xf32>
  return
}

// -----

func.func @wrong_terminator(%c: i1) {
  scf.if %c {
    // expected-error@+2 {{'func.return' op expects parent op 'func.func'}}
    // expected-error@+1 {{'func.return' op is not a valid terminator here: 'scf.if' expects 'scf.yield'}}
    func.return
  }
  return
}

// -----

func.func @kernel_op_outside_gpu_module() {
  return
}
// expected-error@+1 {{'gpu.func' op expects parent op 'gpu.module'}}
gpu.func @k() kernel {
  gpu.return
}

// -----

func.func @operand_constraint(%x: i32) {
  // expected-error@+1 {{'gpu.dealloc' op operand #0 must be ranked memref, but got 'i32'}}
  gpu.dealloc %x : i32
  return
}

// -----

func.func @unknown_op() {
  // expected-error@+1 {{unknown operation 'foo.bar'}}
  "foo.bar"() : () -> ()
  return
}

// -----

func.func @unknown_custom_op() {
  // expected-error@+1 {{unknown operation 'scf.forever'}}
  scf.forever
  return
}

// -----

// expected-error@+1 {{unknown type '!xegpu.nope'}}
func.func @unknown_type(%a: !xegpu.nope) {
  return
}

// -----

func.func @bad_token() {
  // expected-error@+1 {{unexpected character '$'}}
  %x = arith.constant 1 : i32 $
  return
}

// -----

func.func @generic_operand_count(%v: f32, %o: i32) {
  // expected-error@+1 {{'gpu.shuffle' op requires 3 operands, but found 2}}
  %r:2 = "gpu.shuffle"(%v, %o) {mode = #gpu<shuffle_mode xor>} : (f32, i32) -> (f32, i1)
  return
}

// -----

func.func @generic_result_count(%v: f32, %o: i32) {
  // expected-error@+1 {{'gpu.shuffle' op requires 2 results, but found 1}}
  %r = "gpu.shuffle"(%v, %o, %o) {mode = #gpu<shuffle_mode xor>} : (f32, i32, i32) -> f32
  return
}

// -----

func.func @redefinition() {
  %x = arith.constant 1 : i32
  // expected-error@+1 {{redefinition of SSA value '%x'}}
  %x = arith.constant 2 : i32
  return
}

// -----

func.func @undefined_block() {
  // expected-error@+1 {{reference to an undefined block '^missing'}}
  cf.br ^missing
}

// -----

func.func @single_block_region(%lb: index, %ub: index, %s: index) {
  // expected-error@+1 {{'scf.for' op expects region #0 to have 0 or 1 blocks}}
  "scf.for"(%lb, %ub, %s) ({
  ^bb0(%i: index):
    cf.br ^bb1
  ^bb1:
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @unterminated_region() {
  return
// expected-error@+1 {{expected '}' to end region, found end of file}}
