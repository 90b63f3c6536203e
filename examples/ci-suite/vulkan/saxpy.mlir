// RUN: mlir-runner %s -e main --entry-point-result=void | FileCheck %s
func.func @main() {
  return
}
// CHECK: never checked: vulkan/ is unsupported
