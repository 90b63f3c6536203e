// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s
// Every math op (with and without fastmath flags) prints back unchanged.

// CHECK: module {
// CHECK-LABEL: func.func @math_ops(%f: f32, %g: f32, %h: f32, %v: vector<8xf16>, %i: i32, %vi: vector<4xi32>) {
// CHECK-NEXT: %0 = math.exp %f : f32
// CHECK-NEXT: %1 = math.exp2 %v fastmath<fast> : vector<8xf16>
// CHECK-NEXT: %2 = math.expm1 %f : f32
// CHECK-NEXT: %3 = math.log %f : f32
// CHECK-NEXT: %4 = math.log2 %f : f32
// CHECK-NEXT: %5 = math.log10 %f : f32
// CHECK-NEXT: %6 = math.log1p %f fastmath<nnan, ninf> : f32
// CHECK-NEXT: %7 = math.sqrt %f : f32
// CHECK-NEXT: %8 = math.rsqrt %v : vector<8xf16>
// CHECK-NEXT: %9 = math.cbrt %f : f32
// CHECK-NEXT: %10 = math.sin %f : f32
// CHECK-NEXT: %11 = math.cos %f fastmath<afn> : f32
// CHECK-NEXT: %12 = math.tan %f : f32
// CHECK-NEXT: %13 = math.atan %f : f32
// CHECK-NEXT: %14 = math.tanh %v : vector<8xf16>
// CHECK-NEXT: %15 = math.erf %f : f32
// CHECK-NEXT: %16 = math.floor %f : f32
// CHECK-NEXT: %17 = math.ceil %f : f32
// CHECK-NEXT: %18 = math.round %f : f32
// CHECK-NEXT: %19 = math.roundeven %f : f32
// CHECK-NEXT: %20 = math.trunc %f : f32
// CHECK-NEXT: %21 = math.absf %f : f32
// CHECK-NEXT: %22 = math.fma %f, %g, %h fastmath<contract> : f32
// CHECK-NEXT: %23 = math.powf %f, %g : f32
// CHECK-NEXT: %24 = math.atan2 %f, %g : f32
// CHECK-NEXT: %25 = math.copysign %f, %g : f32
// CHECK-NEXT: %26 = math.fpowi %f, %i : f32, i32
// CHECK-NEXT: %27 = math.ipowi %i, %i : i32
// CHECK-NEXT: %28 = math.absi %vi : vector<4xi32>
// CHECK-NEXT: %29 = math.ctlz %i : i32
// CHECK-NEXT: %30 = math.cttz %i : i32
// CHECK-NEXT: %31 = math.ctpop %i : i32
// CHECK-NEXT: %32 = math.isnan %f : f32
// CHECK-NEXT: %33 = math.isinf %v : vector<8xf16>
// CHECK-NEXT: %34 = math.isfinite %f fastmath<fast> : f32
// CHECK-NEXT: %35 = math.isnormal %f : f32
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

func.func @math_ops(%f: f32, %g: f32, %h: f32, %v: vector<8xf16>, %i: i32, %vi: vector<4xi32>) {
  %0 = math.exp %f : f32
  %1 = math.exp2 %v fastmath<fast> : vector<8xf16>
  %2 = math.expm1 %f : f32
  %3 = math.log %f : f32
  %4 = math.log2 %f : f32
  %5 = math.log10 %f : f32
  %6 = math.log1p %f fastmath<nnan, ninf> : f32
  %7 = math.sqrt %f : f32
  %8 = math.rsqrt %v : vector<8xf16>
  %9 = math.cbrt %f : f32
  %10 = math.sin %f : f32
  %11 = math.cos %f fastmath<afn> : f32
  %12 = math.tan %f : f32
  %13 = math.atan %f : f32
  %14 = math.tanh %v : vector<8xf16>
  %15 = math.erf %f : f32
  %16 = math.floor %f : f32
  %17 = math.ceil %f : f32
  %18 = math.round %f : f32
  %19 = math.roundeven %f : f32
  %20 = math.trunc %f : f32
  %21 = math.absf %f : f32
  %22 = math.fma %f, %g, %h fastmath<contract> : f32
  %23 = math.powf %f, %g : f32
  %24 = math.atan2 %f, %g : f32
  %25 = math.copysign %f, %g : f32
  %26 = math.fpowi %f, %i : f32, i32
  %27 = math.ipowi %i, %i : i32
  %28 = math.absi %vi : vector<4xi32>
  %29 = math.ctlz %i : i32
  %30 = math.cttz %i : i32
  %31 = math.ctpop %i : i32
  %32 = math.isnan %f : f32
  %33 = math.isinf %v : vector<8xf16>
  %34 = math.isfinite %f fastmath<fast> : f32
  %35 = math.isnormal %f : f32
  return
}
