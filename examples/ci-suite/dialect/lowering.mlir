// RUN: mlir-opt %s -convert-xegpu-to-xevm -split-input-file | FileCheck %s

// A lowering test: it checks the passes' output IR, which xesim does not produce.
// CHECK-LABEL: func.func @f
func.func @f() {
  return
}
