// RUN: xesim verify --split-input-file --verify-diagnostics %s
// Invalid cf IR: successor operands against block arguments, conditions, malformed branches.

func.func @br_missing_operand(%a: i32) {
  // expected-error@+1 {{branch has 0 operands for successor #0, but target block has 1}}
  cf.br ^bb1
^bb1(%x: i32):
  return
}

// -----

func.func @br_extra_operand(%a: i32) {
  // expected-error@+1 {{branch has 2 operands for successor #0, but target block has 1}}
  cf.br ^bb1(%a, %a : i32, i32)
^bb1(%x: i32):
  return
}

// -----

func.func @cond_br_type_mismatch(%c: i1, %a: i32) {
  // expected-error@+1 {{type mismatch for bb argument #0 of successor #0}}
  cf.cond_br %c, ^bb1(%a : i32), ^bb2
^bb1(%x: f32):
  return
^bb2:
  return
}

// -----

func.func @cond_br_false_dest_count(%c: i1, %a: i32) {
  // expected-error@+1 {{branch has 1 operands for successor #1, but target block has 0}}
  cf.cond_br %c, ^bb1, ^bb1(%a : i32)
^bb1:
  return
}

// -----

func.func @cond_br_non_i1_condition(%c: i32) {
  // expected-error@+1 {{use of value '%c' expects different type than prior uses: 'i1' vs 'i32'}}
  cf.cond_br %c, ^bb1, ^bb1
^bb1:
  return
}

// -----

func.func @operand_type_list_length(%a: i32) {
  // expected-error@+1 {{1 operands present, but expected 2}}
  cf.br ^bb1(%a : i32, i32)
^bb1(%x: i32):
  return
}

// -----

func.func @undefined_block(%a: i32) {
  // expected-error@+1 {{reference to an undefined block '^bb9'}}
  cf.br ^bb9
^bb1:
  return
}

// -----

func.func @generic_two_successors() {
  // expected-error@+1 {{'cf.br' op requires 1 successors but found 2}}
  "cf.br"()[^bb1, ^bb1] : () -> ()
^bb1:
  return
}

// -----

func.func @branch_not_last() {
  // expected-error@+1 {{'cf.br' op must be the last operation in the parent block}}
  cf.br ^bb1
  return
^bb1:
  return
}

// -----

// expected-error@+1 {{entry block of region may not have predecessors}}
func.func @branch_to_entry() {
^bb0:
  cf.br ^bb1
^bb1:
  cf.br ^bb0
}

// -----

func.func @assert_missing_message(%c: i1) {
  // expected-error@+2 {{expected ',', found 'return'}}
  cf.assert %c
  return
}

// -----

func.func @assert_message_not_string(%c: i1) {
  // expected-error@+1 {{expected string, found '42'}}
  cf.assert %c, 42
  return
}
