// RUN: xesim run %s | filecheck %s
// Numerics inside a compiled host loop nest (xesim/exec/jit) -- the same results as the interpreter.
// Expected values worked out by hand:
//   f16 2048 + 1 is a tie between 2048 and 2050 -> even 2048 (three times); 2048 + 3 -> 2052 (tie, even);
//   bf16 256 + 1 is a tie between 256 and 258 -> 256; i8 3 * 100 = 300 wraps to 44;
//   0/0 is the x86 default NaN (sign set, printed -nan); f32 -> f16 of 1 + 2^-11 ties to 1 and of
//   1 + 3*2^-11 to 1 + 2^-9 = 1.001953125 (%g: 1.00195); uitofp(i32 -1) = 4294967296 (4.29497e+09);
//   f32 sqrt(2) = 1.41421353... (1.41421); i32 65536^2 wraps to 0, 65537^2 to 131073; fptosi saturates
//   (3e9 -> 2147483647, NaN -> 0, -1e10 -> -2147483648); -16 >>s 2 = -4; i8 -16 = 240 >>u 2 = 60;
//   index -7 / 2 = -3 (truncating).

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %h0 = arith.constant 2048.0 : f16
  %h1 = arith.constant 1.0 : f16
  %h3 = arith.constant 3.0 : f16
  %b0 = arith.constant 256.0 : bf16
  %b1 = arith.constant 1.0 : bf16
  %i0 = arith.constant 0 : i8
  %i100 = arith.constant 100 : i8
  %F = memref.alloc() : memref<6xf32>
  %I = memref.alloc() : memref<8xi32>
  %r:3 = scf.for %it = %c0 to %c3 step %c1 iter_args(%h = %h0, %b = %b0, %n = %i0) -> (f16, bf16, i8) {
    %hn = arith.addf %h, %h1 : f16
    %bn = arith.addf %b, %b1 : bf16
    %nn = arith.addi %n, %i100 : i8
    // one-off values, stored again on every iteration
    %s3 = arith.addf %h0, %h3 : f16
    %s3f = arith.extf %s3 : f16 to f32
    memref.store %s3f, %F[%c0] : memref<6xf32>
    %z = arith.constant 0.0 : f32
    %nan = arith.divf %z, %z : f32
    memref.store %nan, %F[%c1] : memref<6xf32>
    %t1 = arith.constant 1.00048828125 : f32
    %t1h = arith.truncf %t1 : f32 to f16
    %t1f = arith.extf %t1h : f16 to f32
    memref.store %t1f, %F[%c2] : memref<6xf32>
    %t3 = arith.constant 1.00146484375 : f32
    %t3h = arith.truncf %t3 : f32 to f16
    %t3f = arith.extf %t3h : f16 to f32
    memref.store %t3f, %F[%c3] : memref<6xf32>
    %m1 = arith.constant -1 : i32
    %u = arith.uitofp %m1 : i32 to f32
    memref.store %u, %F[%c4] : memref<6xf32>
    %two = arith.constant 2.0 : f32
    %sq = math.sqrt %two : f32
    memref.store %sq, %F[%c5] : memref<6xf32>
    %k16 = arith.constant 65536 : i32
    %k17 = arith.constant 65537 : i32
    %w0 = arith.muli %k16, %k16 : i32
    %w1 = arith.muli %k17, %k17 : i32
    memref.store %w0, %I[%c0] : memref<8xi32>
    memref.store %w1, %I[%c1] : memref<8xi32>
    %big = arith.constant 3.0e9 : f32
    %neg = arith.constant -1.0e10 : f32
    %s0 = arith.fptosi %big : f32 to i32
    %s1 = arith.fptosi %nan : f32 to i32
    %s2 = arith.fptosi %neg : f32 to i32
    memref.store %s0, %I[%c2] : memref<8xi32>
    memref.store %s1, %I[%c3] : memref<8xi32>
    memref.store %s2, %I[%c4] : memref<8xi32>
    %m16 = arith.constant -16 : i32
    %m16b = arith.constant -16 : i8
    %sh = arith.constant 2 : i32
    %shb = arith.constant 2 : i8
    %a = arith.shrsi %m16, %sh : i32
    %bb = arith.shrui %m16b, %shb : i8
    %bx = arith.extsi %bb : i8 to i32
    memref.store %a, %I[%c5] : memref<8xi32>
    memref.store %bx, %I[%c6] : memref<8xi32>
    %m7 = arith.constant -7 : index
    %q = arith.divsi %m7, %c2 : index
    %qi = arith.index_cast %q : index to i32
    memref.store %qi, %I[%c7] : memref<8xi32>
    scf.yield %hn, %bn, %nn : f16, bf16, i8
  }
  vector.print %r#0 : f16
  vector.print %r#1 : bf16
  vector.print %r#2 : i8
  %fc = memref.cast %F : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%fc) : (memref<*xf32>) -> ()
  %ic = memref.cast %I : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%ic) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

// CHECK: 2048
// CHECK-NEXT: 256
// CHECK-NEXT: 44
// CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [6] strides = [1] data =
// CHECK-NEXT: [2052,  -nan,  1,  1.00195,  4.29497e+09,  1.41421]
// CHECK-NEXT: Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [0,  131073,  2147483647,  0,  -2147483648,  -4,  60,  -3]
