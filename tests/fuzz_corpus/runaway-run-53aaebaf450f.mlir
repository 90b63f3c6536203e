// Loops: scf.while (Collatz steps of 0 = 111, a well-known value), scf.for with two iter_args
// (sum 1..100 = 5050 and the 20th Fibonacci number F(20) = 6765), scf.parallel with a reduction
// (sum of i*i for i in 0..9 = 285), and a loop with a negative lower bound (sum -3..3 = 0, 7 iterations).
// RUN: xesim run %s | filecheck %s

func.func @main() {
  %c27 = arith.constant 27 : i32
  %c0 = arith.constant -1 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %res:2 = scf.while (%n = %c27, %steps = %c0) : (i32, i32) -> (i32, i32) {
    %more = arith.cmpi ne, %n, %c1 : i32
    scf.condition(%more) %n, %steps : i32, i32
  } do {
  ^bb0(%n: i32, %steps: i32):
    %r = arith.remui %n, %c2 : i32
    %even = arith.cmpi eq, %r, %c0 : i32
    %next = scf.if %even -> (i32) {
      %h = arith.divui %n, %c2 : i32
      scf.yield %h : i32
    } else {
      %t = arith.muli %n, %c3 : i32
      %t1 = arith.addi %t, %c1 : i32
      scf.yield %t1 : i32
    }
    %s1 = arith.addi %steps, %c1 : i32
    scf.yield %next, %s1 : i32, i32
  }
  vector.print %res#1 : i32

  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i10 = arith.constant 10 : index
  %i20 = arith.constant 20 : index
  %i101 = arith.constant 101 : index
  %z = arith.constant 0 : index
  %sum = scf.for %i = %i1 to %i101 step %i1 iter_args(%acc = %z) -> (index) {
    %a = arith.addi %acc, %i : index
    scf.yield %a : index
  }
  vector.print %sum : index
  %f0 = arith.constant 0 : i64
  %f1 = arith.constant 1 : i64
  %fib:2 = scf.for %i = %i0 to %i20 step %i1 iter_args(%a = %f0, %b = %f1) -> (i64, i64) {
    %s = arith.addi %a, %b : i64
    scf.yield %b, %s : i64, i64
  }
  vector.print %fib#0 : i64

  %sq = scf.parallel (%i) = (%i0) to (%i10) step (%i1) init (%z) -> index {
    %p = arith.muli %i, %i : index
    scf.reduce(%p : index) {
    ^bb0(%l: index, %r: index):
      %s = arith.addi %l, %r : index
      scf.reduce.return %s : index
    }
  }
  vector.print %sq : index

  %m3 = arith.constant -3 : i32
  %p4 = arith.constant 4 : i32
  %count:2 = scf.for %k = %m3 to %p4 step %c1 iter_args(%s = %c0, %n = %c0) -> (i32, i32) : i32 {
    %s2 = arith.addi %s, %k : i32
    %n2 = arith.addi %n, %c1 : i32
    scf.yield %s2, %n2 : i32, i32
  }
  vector.print %count#0 : i32
  vector.print %count#1 : i32
  return
}

// CHECK: 111
// CHECK-NEXT: 5050
// CHECK-NEXT: 6765
// CHECK-NEXT: 285
// CHECK-NEXT: 0
// CHECK-NEXT: 7
