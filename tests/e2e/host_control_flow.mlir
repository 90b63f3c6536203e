// Control flow: cf branches with block arguments (Euclid's gcd as a CFG), recursion through func.call
// (factorial), a function with several results, scf.if with results and scf.execute_region.
// Expected values by hand: gcd(1071, 462) = 21; 10! = 3628800; divmod(47, 5) = (9, 2);
// the scf.if picks max(17, 42) = 42; execute_region yields 6 * 7 = 42.
// RUN: xesim run %s | filecheck %s

func.func @gcd(%a0: i64, %b0: i64) -> i64 {
  cf.br ^loop(%a0, %b0 : i64, i64)
^loop(%a: i64, %b: i64):
  %zero = arith.constant 0 : i64
  %done = arith.cmpi eq, %b, %zero : i64
  cf.cond_br %done, ^exit(%a : i64), ^body
^body:
  %r = arith.remsi %a, %b : i64
  cf.br ^loop(%b, %r : i64, i64)
^exit(%g: i64):
  return %g : i64
}

func.func @fact(%n: i64) -> i64 {
  %one = arith.constant 1 : i64
  %small = arith.cmpi sle, %n, %one : i64
  %r = scf.if %small -> (i64) {
    scf.yield %one : i64
  } else {
    %m = arith.subi %n, %one : i64
    %f = func.call @fact(%m) : (i64) -> i64
    %p = arith.muli %n, %f : i64
    scf.yield %p : i64
  }
  return %r : i64
}

func.func @divmod(%a: i32, %b: i32) -> (i32, i32) {
  %q = arith.divsi %a, %b : i32
  %r = arith.remsi %a, %b : i32
  return %q, %r : i32, i32
}

func.func @main() {
  %a = arith.constant 1071 : i64
  %b = arith.constant 462 : i64
  %g = call @gcd(%a, %b) : (i64, i64) -> i64
  vector.print %g : i64
  %ten = arith.constant 10 : i64
  %f = call @fact(%ten) : (i64) -> i64
  vector.print %f : i64
  %c47 = arith.constant 47 : i32
  %c5 = arith.constant 5 : i32
  %q, %r = call @divmod(%c47, %c5) : (i32, i32) -> (i32, i32)
  vector.print %q : i32
  vector.print %r : i32
  %x = arith.constant 17 : i32
  %y = arith.constant 42 : i32
  %lt = arith.cmpi slt, %x, %y : i32
  %m = scf.if %lt -> (i32) {
    scf.yield %y : i32
  } else {
    scf.yield %x : i32
  }
  vector.print %m : i32
  %e = scf.execute_region -> i32 {
    %six = arith.constant 6 : i32
    %seven = arith.constant 7 : i32
    %p = arith.muli %six, %seven : i32
    scf.yield %p : i32
  }
  vector.print %e : i32
  return
}

// CHECK: 21
// CHECK-NEXT: 3628800
// CHECK-NEXT: 9
// CHECK-NEXT: 2
// CHECK-NEXT: 42
// CHECK-NEXT: 42
