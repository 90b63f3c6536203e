// Narrow floats, rounded by hand (IEEE binary16: 10 fraction bits; bfloat16: 7 fraction bits):
//   f16(0.1) = 0.0999755859375 -> "0.0999756"; f16 1024 + 0.5 is a tie between 1024 and 1025 -> even 1024;
//   f16 65504 + 16 = 65520 is the overflow threshold -> inf; bf16 1 + 2^-8 is a tie -> 1;
//   bf16 256 + 1 is a tie between 256 and 258 -> 256;
//   truncf f32 1.00390625 (= 1 + 2^-8) to bf16: to_nearest_even 1, upward 1.0078125, downward 1,
//   toward_zero 1, to_nearest_away 1.0078125; of -1.00390625: downward -1.0078125, upward -1;
//   f16(1e-8) underflows to 0 (below half the smallest subnormal 2^-24), f16(-1e-8) -> -0;
//   fptosi saturates: 3.7e10 -> 2147483647, -1e20 -> -2147483648, NaN -> 0; fptoui -5.0 -> 0;
//   sitofp 16777217 -> f32 16777216 (tie to even), back to i32 16777216.
// RUN: xesim run %s | filecheck %s

func.func @main() {
  %h = arith.constant 0.1 : f16
  vector.print %h : f16
  %h1024 = arith.constant 1024.0 : f16
  %hhalf = arith.constant 0.5 : f16
  %hs = arith.addf %h1024, %hhalf : f16
  vector.print %hs : f16
  %hmax = arith.constant 65504.0 : f16
  %h16 = arith.constant 16.0 : f16
  %hinf = arith.addf %hmax, %h16 : f16
  vector.print %hinf : f16
  %b1 = arith.constant 1.0 : bf16
  %beps = arith.constant 0.00390625 : bf16
  %bs = arith.addf %b1, %beps : bf16
  vector.print %bs : bf16
  %b256 = arith.constant 256.0 : bf16
  %bs2 = arith.addf %b256, %b1 : bf16
  vector.print %bs2 : bf16
  %x = arith.constant 1.00390625 : f32
  %r0 = arith.truncf %x to_nearest_even : f32 to bf16
  %r1 = arith.truncf %x upward : f32 to bf16
  %r2 = arith.truncf %x downward : f32 to bf16
  %r3 = arith.truncf %x toward_zero : f32 to bf16
  %r4 = arith.truncf %x to_nearest_away : f32 to bf16
  vector.print %r0 : bf16
  vector.print %r1 : bf16
  vector.print %r2 : bf16
  vector.print %r3 : bf16
  vector.print %r4 : bf16
  %nx = arith.constant -1.00390625 : f32
  %n1 = arith.truncf %nx downward : f32 to bf16
  %n2 = arith.truncf %nx upward : f32 to bf16
  vector.print %n1 : bf16
  vector.print %n2 : bf16
  %tiny = arith.constant 1.0e-08 : f32
  %ntiny = arith.constant -1.0e-08 : f32
  %t16 = arith.truncf %tiny : f32 to f16
  %nt16 = arith.truncf %ntiny : f32 to f16
  vector.print %t16 : f16
  vector.print %nt16 : f16
  %big = arith.constant 3.7e10 : f32
  %nbig = arith.constant -1.0e20 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %m5 = arith.constant -5.0 : f32
  %s1 = arith.fptosi %big : f32 to i32
  %s2 = arith.fptosi %nbig : f32 to i32
  %s3 = arith.fptosi %nan : f32 to i32
  %u1 = arith.fptoui %m5 : f32 to i32
  vector.print %s1 : i32
  vector.print %s2 : i32
  vector.print %s3 : i32
  vector.print %u1 : i32
  %odd = arith.constant 16777217 : i32
  %of = arith.sitofp %odd : i32 to f32
  %back = arith.fptosi %of : f32 to i32
  vector.print %back : i32
  return
}

// CHECK: 0.0999756
// CHECK-NEXT: 1024
// CHECK-NEXT: inf
// CHECK-NEXT: 1
// CHECK-NEXT: 256
// CHECK-NEXT: 1
// CHECK-NEXT: 1.00781
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: 1.00781
// CHECK-NEXT: -1.00781
// CHECK-NEXT: -1
// CHECK-NEXT: 0
// CHECK-NEXT: -0
// CHECK-NEXT: 2147483647
// CHECK-NEXT: -2147483648
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 16777216
