// RUN: xesim fmt %s | filecheck %s
// RUN: xesim verify %s
// Every arith op in its custom syntax (enums, fastmath / overflow flags, rounding modes, dense constants)
// prints back unchanged; generic-form input prints in the custom syntax.

// CHECK-LABEL: func.func @arith_ops(%a: i32, %b: i32, %i: index, %f: f32, %g: f32, %h: f16, %v: vector<4xf32>, %vi: vector<4xi32>, %m: vector<4xi1>) {
// CHECK-NEXT: %c42 = arith.constant 42 : i32
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %false = arith.constant false
// CHECK-NEXT: %one = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %d = arith.constant 2.500000e-01 : f64
// CHECK-NEXT: %l = arith.constant -7 : i64
// CHECK-NEXT: %splat = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-NEXT: %list = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
// CHECK-NEXT: %mask = arith.constant dense<[true, false, true, false]> : vector<4xi1>
// CHECK-NEXT: %2d = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : vector<2x2xf16>
// CHECK-NEXT: %0 = arith.addi %a, %b : i32
// CHECK-NEXT: %1 = arith.subi %a, %b overflow<nsw> : i32
// CHECK-NEXT: %2 = arith.muli %a, %b overflow<nsw, nuw> : i32
// CHECK-NEXT: %3 = arith.divsi %a, %b : i32
// CHECK-NEXT: %4 = arith.divui %a, %b : i32
// CHECK-NEXT: %5 = arith.ceildivsi %a, %b : i32
// CHECK-NEXT: %6 = arith.ceildivui %a, %b : i32
// CHECK-NEXT: %7 = arith.floordivsi %a, %b : i32
// CHECK-NEXT: %8 = arith.remsi %a, %b : i32
// CHECK-NEXT: %9 = arith.remui %i, %c0 : index
// CHECK-NEXT: %10 = arith.minsi %a, %b : i32
// CHECK-NEXT: %11 = arith.minui %a, %b : i32
// CHECK-NEXT: %12 = arith.maxsi %vi, %list : vector<4xi32>
// CHECK-NEXT: %13 = arith.maxui %a, %b : i32
// CHECK-NEXT: %14 = arith.andi %a, %b : i32
// CHECK-NEXT: %15 = arith.ori %true, %false : i1
// CHECK-NEXT: %16 = arith.xori %a, %b : i32
// CHECK-NEXT: %17 = arith.shli %a, %b overflow<nuw> : i32
// CHECK-NEXT: %18 = arith.shrsi %a, %b : i32
// CHECK-NEXT: %19 = arith.shrui %a, %b : i32
// CHECK-NEXT: %20 = arith.addf %f, %g : f32
// CHECK-NEXT: %21 = arith.subf %f, %g fastmath<fast> : f32
// CHECK-NEXT: %22 = arith.mulf %v, %splat fastmath<nnan, ninf> : vector<4xf32>
// CHECK-NEXT: %23 = arith.divf %f, %g : f32
// CHECK-NEXT: %24 = arith.remf %f, %g : f32
// CHECK-NEXT: %25 = arith.negf %f fastmath<nsz> : f32
// CHECK-NEXT: %26 = arith.minimumf %f, %g : f32
// CHECK-NEXT: %27 = arith.maximumf %f, %g : f32
// CHECK-NEXT: %28 = arith.minnumf %f, %g : f32
// CHECK-NEXT: %29 = arith.maxnumf %f, %g : f32
// CHECK-NEXT: %30 = arith.cmpi eq, %a, %b : i32
// CHECK-NEXT: %31 = arith.cmpi ne, %a, %b : i32
// CHECK-NEXT: %32 = arith.cmpi sle, %i, %c0 : index
// CHECK-NEXT: %33 = arith.cmpi ugt, %vi, %list : vector<4xi32>
// CHECK-NEXT: %34 = arith.cmpf oeq, %f, %g : f32
// CHECK-NEXT: %35 = arith.cmpf uno, %f, %g fastmath<fast> : f32
// CHECK-NEXT: %36 = arith.cmpf false, %f, %g : f32
// CHECK-NEXT: %37 = arith.cmpf true, %v, %splat : vector<4xf32>
// CHECK-NEXT: %38 = arith.select %30, %a, %b : i32
// CHECK-NEXT: %39 = arith.select %m, %v, %splat : vector<4xi1>, vector<4xf32>
// CHECK-NEXT: %40 = arith.select %31, %v, %splat : vector<4xf32>
// CHECK-NEXT: %41 = arith.extf %h : f16 to f32
// CHECK-NEXT: %42 = arith.truncf %f : f32 to f16
// CHECK-NEXT: %43 = arith.truncf %f to_nearest_even : f32 to bf16
// CHECK-NEXT: %44 = arith.truncf %f toward_zero fastmath<fast> : f32 to f16
// CHECK-NEXT: %45 = arith.extsi %a : i32 to i64
// CHECK-NEXT: %46 = arith.extui %true : i1 to i32
// CHECK-NEXT: %47 = arith.trunci %a : i32 to i8
// CHECK-NEXT: %48 = arith.sitofp %a : i32 to f32
// CHECK-NEXT: %49 = arith.uitofp %vi : vector<4xi32> to vector<4xf32>
// CHECK-NEXT: %50 = arith.fptosi %f : f32 to i32
// CHECK-NEXT: %51 = arith.fptoui %h : f16 to i8
// CHECK-NEXT: %52 = arith.index_cast %a : i32 to index
// CHECK-NEXT: %53 = arith.index_cast %i : index to i64
// CHECK-NEXT: %54 = arith.index_castui %a : i32 to index
// CHECK-NEXT: %55 = arith.bitcast %f : f32 to i32
// CHECK-NEXT: %56 = arith.bitcast %vi : vector<4xi32> to vector<4xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-LABEL: func.func @generic(%a: i32, %b: i32, %f: f32) {
// CHECK-NEXT: %0 = arith.addi %a, %b overflow<nsw> : i32
// CHECK-NEXT: %1 = arith.cmpi slt, %a, %b : i32
// CHECK-NEXT: %2 = arith.addf %f, %f fastmath<nnan, ninf> : f32
// CHECK-NEXT: %3 = arith.constant 3.000000e+00 : f32
// CHECK-NEXT: %4 = arith.truncf %f downward : f32 to f16
// CHECK-NEXT: %5 = arith.cmpf uno, %f, %f : f32
// CHECK-NEXT: %6 = arith.addi %a, %b : i32
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }

func.func @arith_ops(%a: i32, %b: i32, %i: index, %f: f32, %g: f32, %h: f16, %v: vector<4xf32>, %vi: vector<4xi32>, %m: vector<4xi1>) {
  %c42 = arith.constant 42 : i32
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %false = arith.constant false
  %one = arith.constant 1.000000e+00 : f32
  %d = arith.constant 2.500000e-01 : f64
  %l = arith.constant -7 : i64
  %splat = arith.constant dense<0.000000e+00> : vector<4xf32>
  %list = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %mask = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %2d = arith.constant dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : vector<2x2xf16>
  %0 = arith.addi %a, %b : i32
  %1 = arith.subi %a, %b overflow<nsw> : i32
  %2 = arith.muli %a, %b overflow<nsw, nuw> : i32
  %3 = arith.divsi %a, %b : i32
  %4 = arith.divui %a, %b : i32
  %5 = arith.ceildivsi %a, %b : i32
  %6 = arith.ceildivui %a, %b : i32
  %7 = arith.floordivsi %a, %b : i32
  %8 = arith.remsi %a, %b : i32
  %9 = arith.remui %i, %c0 : index
  %10 = arith.minsi %a, %b : i32
  %11 = arith.minui %a, %b : i32
  %12 = arith.maxsi %vi, %list : vector<4xi32>
  %13 = arith.maxui %a, %b : i32
  %14 = arith.andi %a, %b : i32
  %15 = arith.ori %true, %false : i1
  %16 = arith.xori %a, %b : i32
  %17 = arith.shli %a, %b overflow<nuw> : i32
  %18 = arith.shrsi %a, %b : i32
  %19 = arith.shrui %a, %b : i32
  %20 = arith.addf %f, %g : f32
  %21 = arith.subf %f, %g fastmath<fast> : f32
  %22 = arith.mulf %v, %splat fastmath<nnan, ninf> : vector<4xf32>
  %23 = arith.divf %f, %g : f32
  %24 = arith.remf %f, %g : f32
  %25 = arith.negf %f fastmath<nsz> : f32
  %26 = arith.minimumf %f, %g : f32
  %27 = arith.maximumf %f, %g : f32
  %28 = arith.minnumf %f, %g : f32
  %29 = arith.maxnumf %f, %g : f32
  %30 = arith.cmpi eq, %a, %b : i32
  %31 = arith.cmpi ne, %a, %b : i32
  %32 = arith.cmpi sle, %i, %c0 : index
  %33 = arith.cmpi ugt, %vi, %list : vector<4xi32>
  %34 = arith.cmpf oeq, %f, %g : f32
  %35 = arith.cmpf uno, %f, %g fastmath<fast> : f32
  %36 = arith.cmpf false, %f, %g : f32
  %37 = arith.cmpf true, %v, %splat : vector<4xf32>
  %38 = arith.select %30, %a, %b : i32
  %39 = arith.select %m, %v, %splat : vector<4xi1>, vector<4xf32>
  %40 = arith.select %31, %v, %splat : vector<4xf32>
  %41 = arith.extf %h : f16 to f32
  %42 = arith.truncf %f : f32 to f16
  %43 = arith.truncf %f to_nearest_even : f32 to bf16
  %44 = arith.truncf %f toward_zero fastmath<fast> : f32 to f16
  %45 = arith.extsi %a : i32 to i64
  %46 = arith.extui %true : i1 to i32
  %47 = arith.trunci %a : i32 to i8
  %48 = arith.sitofp %a : i32 to f32
  %49 = arith.uitofp %vi : vector<4xi32> to vector<4xf32>
  %50 = arith.fptosi %f : f32 to i32
  %51 = arith.fptoui %h : f16 to i8
  %52 = arith.index_cast %a : i32 to index
  %53 = arith.index_cast %i : index to i64
  %54 = arith.index_castui %a : i32 to index
  %55 = arith.bitcast %f : f32 to i32
  %56 = arith.bitcast %vi : vector<4xi32> to vector<4xf32>
  return
}

// Generic-form input is printed in the custom syntax.
func.func @generic(%a: i32, %b: i32, %f: f32) {
  %0 = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
  %1 = "arith.cmpi"(%a, %b) <{predicate = 2 : i64}> : (i32, i32) -> i1
  %2 = "arith.addf"(%f, %f) <{fastmath = #arith.fastmath<nnan, ninf>}> : (f32, f32) -> f32
  %3 = "arith.constant"() <{value = 3.000000e+00 : f32}> : () -> f32
  %4 = "arith.truncf"(%f) <{roundingmode = 1 : i32}> : (f32) -> f16
  %5 = "arith.cmpf"(%f, %f) {predicate = 14 : i64} : (f32, f32) -> i1
  %6 = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  return
}
