// RUN: xesim verify --split-input-file --verify-diagnostics %s
// Invalid scf programs: each case must be rejected with MLIR's diagnostic (xesim/verify/rules_scf.py).

func.func @for_missing_yield(%lb: index, %ub: index, %s: index, %x: f32) {
  // The implicit terminator of a loop body yields nothing, but the loop carries one value.
  // expected-error@+1 {{along control flow edge from Region #0 to parent results: source has 0 operands, but target successor needs 1}}
  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> (f32) {
  }
  return
}

// -----

func.func @for_yield_type(%lb: index, %ub: index, %s: index, %x: f32, %n: i32) {
  // expected-error@+1 {{along control flow edge from Region #0 to parent results: source type #0 'i32' should match input type #0 'f32'}}
  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> (f32) {
    scf.yield %n : i32
  }
  return
}

// -----

func.func @for_iter_args_count(%lb: index, %ub: index, %s: index, %x: f32) {
  // expected-error@+1 {{mismatch in number of loop-carried values and defined values}}
  %r:2 = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> (f32, f32) {
    scf.yield %a, %a : f32, f32
  }
  return
}

// -----

func.func @for_init_type(%lb: index, %ub: index, %s: index, %n: i32) {
  // expected-error@+1 {{types mismatch between 0th iter operand and defined value}}
  %r = "scf.for"(%lb, %ub, %s, %n) ({
  ^bb0(%i: index, %a: f32):
    "scf.yield"(%a) : (f32) -> ()
  }) : (index, index, index, i32) -> f32
  return
}

// -----

func.func @for_iv_type(%lb: index, %ub: index, %s: index) {
  // expected-error@+1 {{expected induction variable to be same type as bounds and step}}
  "scf.for"(%lb, %ub, %s) ({
  ^bb0(%i: i32):
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @for_bounds_types(%lb: index, %ub: i32, %s: index) {
  // expected-error@+1 {{failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%lb, %ub, %s) ({
  ^bb0(%i: index):
    "scf.yield"() : () -> ()
  }) : (index, i32, index) -> ()
  return
}

// -----

func.func @for_zero_step(%lb: index, %ub: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{constant step operand must be positive}}
  scf.for %i = %lb to %ub step %c0 {
  }
  return
}

// -----

func.func @if_results_without_else(%c: i1, %x: f32) -> f32 {
  // expected-error@+1 {{must have an else block if defining values}}
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  }
  return %r : f32
}

// -----

func.func @if_yield_type(%c: i1, %x: f32, %n: i32) -> f32 {
  // expected-error@+1 {{along control flow edge from Region #1 to parent results: source type #0 'i32' should match input type #0 'f32'}}
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    scf.yield %n : i32
  }
  return %r : f32
}

// -----

func.func @if_condition_not_i1(%n: i32) {
  // expected-error@+1 {{operand #0 must be i1, but got 'i32'}}
  "scf.if"(%n) ({
    "scf.yield"() : () -> ()
  }, {
  }) : (i32) -> ()
  return
}

// -----

func.func @if_condition_custom_form(%n: i32) {
  // expected-error@+1 {{use of value '%n' expects different type than prior uses: 'i1' vs 'i32'}}
  scf.if %n {
  }
  return
}

// -----

func.func @while_condition_not_i1(%n: i32) {
  scf.while : () -> () {
    // expected-error@+1 {{operand #0 must be i1, but got 'i32'}}
    "scf.condition"(%n) : (i32) -> ()
  } do {
    scf.yield
  }
  return
}

// -----

func.func @while_after_args(%x: f32, %c: i1) {
  // expected-error@+1 {{along control flow edge from Region #0 to Region #1: source type #0 'f32' should match input type #0 'i32'}}
  %r = scf.while (%a = %x) : (f32) -> f32 {
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: i32):
    scf.yield %x : f32
  }
  return
}

// -----

func.func @while_yield_count(%x: f32, %c: i1) {
  // expected-error@+1 {{along control flow edge from Region #1 to Region #0: source has 0 operands, but target successor needs 1}}
  %r = scf.while (%a = %x) : (f32) -> f32 {
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: f32):
    scf.yield
  }
  return
}

// -----

func.func @while_result_count(%x: f32, %c: i1) {
  // expected-error@+1 {{along control flow edge from Region #0 to parent results: source has 1 operands, but target successor needs 0}}
  scf.while (%a = %x) : (f32) -> () {
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: f32):
    scf.yield %b : f32
  }
  return
}

// -----

func.func @while_before_terminator(%c: i1) {
  scf.while : () -> () {
    // expected-error@+1 {{'scf.yield' op is not a valid terminator here: 'scf.while' expects 'scf.condition'}}
    scf.yield
  } do {
    scf.yield
  }
  return
}

// -----

func.func @condition_outside_while(%c: i1) {
  // expected-error@+2 {{'scf.condition' op expects parent op 'scf.while'}}
  // expected-error@+1 {{'scf.condition' op is not a valid terminator here: 'func.func' expects 'func.return'}}
  scf.condition(%c)
}

// -----

func.func @yield_outside_scf() {
  // expected-error@+2 {{'scf.yield' op expects parent op to be one of 'scf.for', 'scf.if', 'scf.while', 'scf.execute_region'}}
  // expected-error@+1 {{'scf.yield' op is not a valid terminator here: 'func.func' expects 'func.return'}}
  scf.yield
}

// -----

func.func @execute_region_yield(%n: i32) -> f32 {
  // expected-error@+1 {{along control flow edge from Region #0 to parent results: source type #0 'i32' should match input type #0 'f32'}}
  %r = scf.execute_region -> f32 {
    scf.yield %n : i32
  }
  return %r : f32
}

// -----

func.func @parallel_bound_counts(%lb: index, %ub: index, %s: index) {
  // expected-error@+1 {{expects the same number of lowerBound (1), upperBound (2) and step (2) values}}
  scf.parallel (%i, %j) = (%lb) to (%ub, %ub) step (%s, %s) {
  }
  return
}

// -----

func.func @parallel_no_reduction(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  // expected-error@+1 {{expects number of results: 1 to be the same as number of reductions: 0}}
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f32 {
  }
  return %r : f32
}

// -----

func.func @reduce_region_args(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f32 {
    // expected-error@+1 {{expected two block arguments with type f32 in the 0-th reduction region}}
    scf.reduce(%x : f32) {
    ^bb0(%l: i32, %m: i32):
      scf.reduce.return %l : i32
    }
  }
  return %r : f32
}

// -----

func.func @reduce_return_type(%lb: index, %ub: index, %s: index, %x: f32, %n: i32) -> f32 {
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f32 {
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %m: f32):
      // expected-error@+1 {{must have type f32 (the type of the reduction inputs)}}
      scf.reduce.return %n : i32
    }
  }
  return %r : f32
}
