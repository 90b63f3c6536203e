// REQUIRES: cuda-runtime
// RUN: mlir-runner %s -e main --entry-point-result=void | FileCheck %s
func.func @main() {
  return
}
// CHECK-NOT: anything
