// math, index and affine dialects on the host.  Expected values (hand / textbook, printed with %g, so the last
// bit of a correctly rounded f32 result does not matter): exp(1) = 2.71828, sqrt(2) = 1.41421,
// log(10) = 2.30259, tanh(0.5) = 0.462117, erf(1) = 0.842701, floor(-2.5) = -3, ceil(-2.5) = -2, |-3| = 3,
// fma(2, 3, 4) = 10, powf(2, 10) = 1024; f16 exp(2) = 7.389056 rounded to f16 (spacing 2^-7 in [4, 8)) is
// 7.390625 -> "7.39062"; math.exp on vector<4xf32> [0, 0, 0, 0] -> ( 1, 1, 1, 1 ).
// index: (7 + 5) * 3 = 36, 36 divs 5 = 7, -1 ult 3 is false (0), 1 shl 5 = 32.
// affine: #map(5)[3] = (5 * 4 + 3) mod 7 = 23 mod 7 = 2,
// affine.min of (5, 9) = 5, affine.max of (5, 9) = 9.
// RUN: xesim run %s | filecheck %s

#map = affine_map<(d0)[s0] -> ((d0 * 4 + s0) mod 7)>
#pair = affine_map<(d0, d1) -> (d0, d1)>

func.func @main() {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %ten = arith.constant 10.0 : f32
  %half = arith.constant 0.5 : f32
  %m25 = arith.constant -2.5 : f32
  %m3 = arith.constant -3.0 : f32
  %three = arith.constant 3.0 : f32
  %four = arith.constant 4.0 : f32
  %e = math.exp %one : f32
  %s = math.sqrt %two : f32
  %l = math.log %ten : f32
  %t = math.tanh %half : f32
  %er = math.erf %one : f32
  %fl = math.floor %m25 : f32
  %ce = math.ceil %m25 : f32
  %ab = math.absf %m3 : f32
  %fm = math.fma %two, %three, %four : f32
  %pw = math.powf %two, %ten : f32
  vector.print %e : f32
  vector.print %s : f32
  vector.print %l : f32
  vector.print %t : f32
  vector.print %er : f32
  vector.print %fl : f32
  vector.print %ce : f32
  vector.print %ab : f32
  vector.print %fm : f32
  vector.print %pw : f32
  %h2 = arith.constant 2.0 : f16
  %he = math.exp %h2 : f16
  vector.print %he : f16
  %z = arith.constant dense<0.0> : vector<4xf32>
  %ve = math.exp %z : vector<4xf32>
  vector.print %ve : vector<4xf32>

  %i7 = index.constant 7
  %i5 = index.constant 5
  %i3 = index.constant 3
  %a = index.add %i7, %i5
  %m = index.mul %a, %i3
  %d = index.divs %m, %i5
  vector.print %m : index
  vector.print %d : index
  %im1 = index.constant -1
  %c = index.cmp ult(%im1, %i3)
  vector.print %c : i1
  %i1 = index.constant 1
  %sh = index.shl %i1, %i5
  vector.print %sh : index

  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %ap = affine.apply #map(%c5)[%c3]
  vector.print %ap : index
  %mn = affine.min #pair(%c5, %c9)
  %mx = affine.max #pair(%c5, %c9)
  vector.print %mn : index
  vector.print %mx : index
  return
}

// CHECK: 2.71828
// CHECK-NEXT: 1.41421
// CHECK-NEXT: 2.30259
// CHECK-NEXT: 0.462117
// CHECK-NEXT: 0.842701
// CHECK-NEXT: -3
// CHECK-NEXT: -2
// CHECK-NEXT: 3
// CHECK-NEXT: 10
// CHECK-NEXT: 1024
// CHECK-NEXT: 7.39062
// CHECK-NEXT: ( 1, 1, 1, 1 )
// CHECK-NEXT: 36
// CHECK-NEXT: 7
// CHECK-NEXT: 0
// CHECK-NEXT: 32
// CHECK-NEXT: 2
// CHECK-NEXT: 5
// CHECK-NEXT: 9
