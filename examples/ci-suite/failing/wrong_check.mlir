// RUN: mlir-runner %s -e main --entry-point-result=void --shared-libs=%mlir_runner_utils | FileCheck %s

// Deliberately failing: the program prints 1, 2, 3; the second CHECK line expects 5.
func.func @main() {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  vector.print %c1 : i32
  vector.print %c2 : i32
  vector.print %c3 : i32
  return
}

// CHECK: 1
// CHECK-NEXT: 5
// CHECK-NEXT: 3
