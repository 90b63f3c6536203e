// RUN: mlir-runner %s -e answer --entry-point-result=i32 \
// RUN:   --shared-libs=%mlir_c_runner_utils | FileCheck %s

// A non-void entry point: mlir-runner prints its result.
func.func @answer() -> i32 {
  %a = arith.constant 40 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}

// CHECK: 42
