// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s
// Every index-dialect op prints back unchanged; generic index.cmp prints in the custom syntax.

// CHECK: module {
// CHECK-LABEL: func.func @index_ops(%a: index, %b: index, %w: i32) {
// CHECK-NEXT: %c = index.constant 42
// CHECK-NEXT: %m = index.constant -1
// CHECK-NEXT: %t = index.bool.constant true
// CHECK-NEXT: %bits = index.sizeof
// CHECK-NEXT: %0 = index.add %a, %b
// CHECK-NEXT: %1 = index.sub %a, %b
// CHECK-NEXT: %2 = index.mul %a, %c
// CHECK-NEXT: %3 = index.divs %a, %b
// CHECK-NEXT: %4 = index.divu %a, %b
// CHECK-NEXT: %5 = index.ceildivs %a, %b
// CHECK-NEXT: %6 = index.ceildivu %a, %b
// CHECK-NEXT: %7 = index.floordivs %a, %b
// CHECK-NEXT: %8 = index.rems %a, %b
// CHECK-NEXT: %9 = index.remu %a, %b
// CHECK-NEXT: %10 = index.maxs %a, %b
// CHECK-NEXT: %11 = index.maxu %a, %b
// CHECK-NEXT: %12 = index.mins %a, %m
// CHECK-NEXT: %13 = index.minu %a, %b
// CHECK-NEXT: %14 = index.shl %a, %b
// CHECK-NEXT: %15 = index.shrs %a, %b
// CHECK-NEXT: %16 = index.shru %a, %b
// CHECK-NEXT: %17 = index.and %a, %b
// CHECK-NEXT: %18 = index.or %a, %b
// CHECK-NEXT: %19 = index.xor %a, %b
// CHECK-NEXT: %20 = index.cmp eq(%a, %b)
// CHECK-NEXT: %21 = index.cmp sge(%a, %b)
// CHECK-NEXT: %22 = index.cmp ule(%a, %b)
// CHECK-NEXT: %23 = index.casts %w : i32 to index
// CHECK-NEXT: %24 = index.castu %a : index to i64
// CHECK-NEXT: %25 = index.cmp ne(%a, %b)
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

func.func @index_ops(%a: index, %b: index, %w: i32) {
  %c = index.constant 42
  %m = index.constant -1
  %t = index.bool.constant true
  %bits = index.sizeof
  %0 = index.add %a, %b
  %1 = index.sub %a, %b
  %2 = index.mul %a, %c
  %3 = index.divs %a, %b
  %4 = index.divu %a, %b
  %5 = index.ceildivs %a, %b
  %6 = index.ceildivu %a, %b
  %7 = index.floordivs %a, %b
  %8 = index.rems %a, %b
  %9 = index.remu %a, %b
  %10 = index.maxs %a, %b
  %11 = index.maxu %a, %b
  %12 = index.mins %a, %m
  %13 = index.minu %a, %b
  %14 = index.shl %a, %b
  %15 = index.shrs %a, %b
  %16 = index.shru %a, %b
  %17 = index.and %a, %b
  %18 = index.or %a, %b
  %19 = index.xor %a, %b
  %20 = index.cmp eq(%a, %b)
  %21 = index.cmp sge(%a, %b)
  %22 = index.cmp ule(%a, %b)
  %23 = index.casts %w : i32 to index
  %24 = index.castu %a : index to i64
  %25 = "index.cmp"(%a, %b) <{pred = #index<cmp_predicate ne>}> : (index, index) -> i1
  return
}
