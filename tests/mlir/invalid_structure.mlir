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
