// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s

// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT:   func.func @add(%a: i32, %b: i32) -> i32 {
// CHECK-NEXT:     %r = call @add(%a, %b) : (i32, i32) -> i32
// CHECK-NEXT:     return %r : i32
// A declaration may name its arguments (upstream programs write printMemref declarations this way; mlir-opt
// parses the body as an optional region); the names are not printed, as MLIR prints declarations.
// CHECK:   func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
module attributes {gpu.container_module} {
  func.func @add(%a: i32, %b: i32) -> i32 {
    %r = func.call @add(%a, %b) : (i32, i32) -> i32
    func.return %r : i32
  }
  func.func private @printMemrefI32(%ptr : memref<*xi32>) attributes {llvm.emit_c_interface}
}
