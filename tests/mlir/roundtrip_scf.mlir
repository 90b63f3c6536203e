// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s
// scf ops in upstream MLIR syntax print back as mlir-opt prints them: operand-less scf.yield terminators of
// for/if bodies are implicit (added when parsing, elided when printing); scf.parallel's scf.reduce is added
// when missing and always printed.

// CHECK-LABEL: func.func @loops
func.func @loops(%lb: index, %ub: index, %s: index, %init: f32, %m: memref<16xf32>) -> f32 {
  // CHECK: scf.for %i = %lb to %ub step %s {
  // CHECK-NEXT: memref.store
  // CHECK-NEXT: }
  scf.for %i = %lb to %ub step %s {
    memref.store %init, %m[%i] : memref<16xf32>
  }
  // CHECK: scf.for %j = %lb to %ub step %s {
  // CHECK-NEXT: }
  scf.for %j = %lb to %ub step %s {
    scf.yield
  }
  // CHECK: %sum = scf.for %k = %lb to %ub step %s iter_args(%acc = %init) -> (f32) {
  // CHECK-NEXT: scf.yield %acc : f32
  // CHECK-NEXT: }
  %sum = scf.for %k = %lb to %ub step %s iter_args(%acc = %init) -> f32 {
    scf.yield %acc : f32
  }
  // CHECK: %pair:2 = scf.for %k = %lb to %ub step %s iter_args(%a = %init, %b = %s) -> (f32, index) {
  // CHECK-NEXT: scf.yield %a, %b : f32, index
  %pair:2 = scf.for %k = %lb to %ub step %s iter_args(%a = %init, %b = %s) -> (f32, index) {
    scf.yield %a, %b : f32, index
  }
  // CHECK: return %sum : f32
  return %sum : f32
}

// CHECK-LABEL: func.func @typed_bounds
// CHECK: scf.for %i = %lb to %ub step %s : i32 {
// CHECK: scf.for unsigned %u = %lb to %ub step %s : i32 {
func.func @typed_bounds(%lb: i32, %ub: i32, %s: i32) {
  scf.for %i = %lb to %ub step %s : i32 {
  }
  scf.for unsigned %u = %lb to %ub step %s : i32 {
  }
  return
}

// CHECK-LABEL: func.func @conditionals
func.func @conditionals(%c: i1, %x: f32, %y: f32, %m: memref<4xf32>, %i: index) -> f32 {
  // CHECK: scf.if %c {
  // CHECK-NEXT: memref.store %x, %m[%i] : memref<4xf32>
  // CHECK-NEXT: }
  scf.if %c {
    memref.store %x, %m[%i] : memref<4xf32>
  }
  // CHECK: scf.if %c {
  // CHECK-NEXT: } else {
  // CHECK-NEXT: memref.store %y, %m[%i] : memref<4xf32>
  // CHECK-NEXT: }
  scf.if %c {
    scf.yield
  } else {
    memref.store %y, %m[%i] : memref<4xf32>
  }
  // CHECK: %r = scf.if %c -> (f32) {
  // CHECK-NEXT: scf.yield %x : f32
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield %y : f32
  // CHECK-NEXT: }
  %r = scf.if %c -> f32 {
    scf.yield %x : f32
  } else {
    scf.yield %y : f32
  }
  return %r : f32
}

// CHECK-LABEL: func.func @while_loop
// CHECK: %res:2 = scf.while (%a = %x, %b = %n) : (f32, i32) -> (f32, i32) {
// CHECK-NEXT: scf.condition(%c) %a, %b : f32, i32
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%a2: f32, %b2: i32):
// CHECK-NEXT: scf.yield %a2, %b2 : f32, i32
// CHECK-NEXT: }
// CHECK: scf.while : () -> () {
// CHECK-NEXT: scf.condition(%c)
// CHECK-NEXT: } do {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
func.func @while_loop(%x: f32, %n: i32, %c: i1) -> f32 {
  %res:2 = scf.while (%a = %x, %b = %n) : (f32, i32) -> (f32, i32) {
    scf.condition(%c) %a, %b : f32, i32
  } do {
  ^bb0(%a2: f32, %b2: i32):
    scf.yield %a2, %b2 : f32, i32
  }
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    scf.yield
  }
  return %res#0 : f32
}

// CHECK-LABEL: func.func @regions
// CHECK: %v = scf.execute_region -> i32 {
// CHECK-NEXT: scf.yield %a : i32
// CHECK-NEXT: }
// CHECK: %w:2 = scf.execute_region -> (i32, f32) {
// CHECK-NEXT: cf.br ^bb1
// CHECK-NEXT: ^bb1:
// CHECK-NEXT: scf.yield %a, %f : i32, f32
func.func @regions(%a: i32, %f: f32) -> i32 {
  %v = scf.execute_region -> i32 {
    scf.yield %a : i32
  }
  %w:2 = scf.execute_region -> (i32, f32) {
    cf.br ^bb1
  ^bb1:
    scf.yield %a, %f : i32, f32
  }
  return %v : i32
}

// CHECK-LABEL: func.func @parallel
// CHECK: scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%s, %s) {
// CHECK-NEXT: memref.store %x, %m[%i, %j] : memref<4x4xf32>
// CHECK-NEXT: scf.reduce
// CHECK-NEXT: }
// CHECK: %sum = scf.parallel (%k) = (%lb) to (%ub) step (%s) init (%x) -> f32 {
// CHECK-NEXT: %e = memref.load %m[%k, %k] : memref<4x4xf32>
// CHECK-NEXT: scf.reduce(%e : f32) {
// CHECK-NEXT: ^bb0(%l: f32, %r: f32):
// CHECK-NEXT: scf.reduce.return %l : f32
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @parallel(%lb: index, %ub: index, %s: index, %x: f32, %m: memref<4x4xf32>) -> f32 {
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%s, %s) {
    memref.store %x, %m[%i, %j] : memref<4x4xf32>
  }
  %sum = scf.parallel (%k) = (%lb) to (%ub) step (%s) init (%x) -> f32 {
    %e = memref.load %m[%k, %k] : memref<4x4xf32>
    scf.reduce(%e : f32) {
    ^bb0(%l: f32, %r: f32):
      scf.reduce.return %l : f32
    }
  }
  return %sum : f32
}

// CHECK-LABEL: func.func @generic_form
// CHECK: scf.for %i = %lb to %ub step %s {
// CHECK-NEXT: }
func.func @generic_form(%lb: index, %ub: index, %s: index) {
  "scf.for"(%lb, %ub, %s) ({
  ^bb0(%i: index):
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}
