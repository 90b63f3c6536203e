// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s
// Control flow across blocks: cf.br / cf.cond_br with block arguments, branch weights, cf.assert,
// affine.apply through an alias.

// CHECK: #tile = affine_map<(d0)[s0] -> (d0 * 16 + s0)>
// CHECK-NEXT: module {
// CHECK-LABEL: func.func @loop_sum(%n: index, %x: f32) -> f32 {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: cf.br ^header(%c0, %zero : index, f32)
// CHECK-NEXT: ^header(%i: index, %acc: f32):
// CHECK-NEXT: %cond = arith.cmpi slt, %i, %n : index
// CHECK-NEXT: cf.cond_br %cond, ^body(%i : index), ^exit(%acc : f32)
// CHECK-NEXT: ^body(%j: index):
// CHECK-NEXT: %off = affine.apply #tile(%j)[%c1]
// CHECK-NEXT: %lim = affine.min affine_map<(d0)[s0] -> (16, s0 - d0)>(%j)[%n]
// CHECK-NEXT: %ji = arith.index_cast %off : index to i32
// CHECK-NEXT: %jf = arith.sitofp %ji : i32 to f32
// CHECK-NEXT: %p = arith.mulf %jf, %x fastmath<fast> : f32
// CHECK-NEXT: %q = arith.addf %acc, %p : f32
// CHECK-NEXT: %s = math.sqrt %q fastmath<afn> : f32
// CHECK-NEXT: %next = arith.addi %i, %c1 overflow<nsw, nuw> : index
// CHECK-NEXT: %in = index.cmp ult(%next, %n)
// CHECK-NEXT: cf.assert %in, "loop index out of range"
// CHECK-NEXT: cf.br ^header(%next, %s : index, f32)
// CHECK-NEXT: ^exit(%r: f32):
// CHECK-NEXT: return %r : f32
// CHECK-NEXT: }
// CHECK-LABEL: func.func @diamond(%c: i1, %a: i32, %b: i32) -> i32 {
// CHECK-NEXT: cf.cond_br %c weights([90, 10]), ^then, ^else(%b : i32)
// CHECK-NEXT: ^then:
// CHECK-NEXT: %t = arith.addi %a, %b : i32
// CHECK-NEXT: cf.br ^join(%t : i32)
// CHECK-NEXT: ^else(%e: i32):
// CHECK-NEXT: cf.br ^join(%e : i32)
// CHECK-NEXT: ^join(%r: i32):
// CHECK-NEXT: return %r : i32
// CHECK-NEXT: }
// CHECK-NEXT: }

#tile = affine_map<(d0)[s0] -> (d0 * 16 + s0)>
module {
  // A counted loop written as a CFG: header block with loop-carried block arguments, a body block and an
  // exit block; cf.cond_br forwards different values to each successor.
  func.func @loop_sum(%n: index, %x: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.000000e+00 : f32
    cf.br ^header(%c0, %zero : index, f32)
  ^header(%i: index, %acc: f32):
    %cond = arith.cmpi slt, %i, %n : index
    cf.cond_br %cond, ^body(%i : index), ^exit(%acc : f32)
  ^body(%j: index):
    %off = affine.apply #tile(%j)[%c1]
    %lim = affine.min affine_map<(d0)[s0] -> (16, s0 - d0)>(%j)[%n]
    %ji = arith.index_cast %off : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %p = arith.mulf %jf, %x fastmath<fast> : f32
    %q = arith.addf %acc, %p : f32
    %s = math.sqrt %q fastmath<afn> : f32
    %next = arith.addi %i, %c1 overflow<nsw, nuw> : index
    %in = index.cmp ult(%next, %n)
    cf.assert %in, "loop index out of range"
    cf.br ^header(%next, %s : index, f32)
  ^exit(%r: f32):
    return %r : f32
  }
  // Branch weights, a successor without operands, and two predecessors of one block.
  func.func @diamond(%c: i1, %a: i32, %b: i32) -> i32 {
    cf.cond_br %c weights([90, 10]), ^then, ^else(%b : i32)
  ^then:
    %t = arith.addi %a, %b : i32
    cf.br ^join(%t : i32)
  ^else(%e: i32):
    cf.br ^join(%e : i32)
  ^join(%r: i32):
    return %r : i32
  }
}
