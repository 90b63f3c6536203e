// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s

// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT:   func.func @add(%a: i32, %b: i32) -> i32 {
// CHECK-NEXT:     %r = call @add(%a, %b) : (i32, i32) -> i32
// CHECK-NEXT:     return %r : i32
module attributes {gpu.container_module} {
  func.func @add(%a: i32, %b: i32) -> i32 {
    %r = func.call @add(%a, %b) : (i32, i32) -> i32
    func.return %r : i32
  }
}
