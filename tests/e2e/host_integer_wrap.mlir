// Integer semantics: wrap-around at every width, signed/unsigned division and shifts, extensions,
// truncation and index casts.  Expected values by hand (two's complement):
//   i8 127 + 1 = -128; i8 200 = -56 signed, divui 200 / 3 = 66; i16 300 * 300 = 90000 mod 65536 = 24464;
//   i32 2147483647 + 1 = -2147483648; shrsi -16 >> 2 = -4; shrui 0xFFFFFFF0 >> 2 = 1073741820;
//   remsi -7 % 3 = -1; floordivsi -7 / 2 = -4; ceildivsi 7 / 2 = 4; extui i8 -1 = 255; extsi i8 -1 = -1;
//   trunci 300 to i8 = 44; index_cast i32 -1 printed as index (unsigned) = 18446744073709551615;
//   index_castui i32 -1 = 4294967295; maxui(-1, 1) = -1 (0xFF..), minsi(-1, 1) = -1.
// RUN: xesim run %s | filecheck %s

func.func @main() {
  %i8max = arith.constant 127 : i8
  %i8one = arith.constant 1 : i8
  %w8 = arith.addi %i8max, %i8one : i8
  vector.print %w8 : i8
  %c200 = arith.constant 200 : i8
  vector.print %c200 : i8
  %c3 = arith.constant 3 : i8
  %q = arith.divui %c200, %c3 : i8
  vector.print %q : i8
  %c300 = arith.constant 300 : i16
  %sq = arith.muli %c300, %c300 : i16
  vector.print %sq : i16
  %imax = arith.constant 2147483647 : i32
  %one = arith.constant 1 : i32
  %w32 = arith.addi %imax, %one : i32
  vector.print %w32 : i32
  %m16 = arith.constant -16 : i32
  %two = arith.constant 2 : i32
  %sra = arith.shrsi %m16, %two : i32
  %srl = arith.shrui %m16, %two : i32
  vector.print %sra : i32
  vector.print %srl : i32
  %m7 = arith.constant -7 : i32
  %p7 = arith.constant 7 : i32
  %three = arith.constant 3 : i32
  %rem = arith.remsi %m7, %three : i32
  %fdiv = arith.floordivsi %m7, %two : i32
  %cdiv = arith.ceildivsi %p7, %two : i32
  vector.print %rem : i32
  vector.print %fdiv : i32
  vector.print %cdiv : i32
  %m1 = arith.constant -1 : i8
  %zx = arith.extui %m1 : i8 to i32
  %sx = arith.extsi %m1 : i8 to i32
  vector.print %zx : i32
  vector.print %sx : i32
  %c300w = arith.constant 300 : i32
  %tr = arith.trunci %c300w : i32 to i8
  vector.print %tr : i8
  %m1w = arith.constant -1 : i32
  %ix = arith.index_cast %m1w : i32 to index
  %ux = arith.index_castui %m1w : i32 to index
  vector.print %ix : index
  vector.print %ux : index
  %mx = arith.maxui %m1w, %one : i32
  %mn = arith.minsi %m1w, %one : i32
  vector.print %mx : i32
  vector.print %mn : i32
  %v = arith.constant dense<[120, 127, -128, 5]> : vector<4xi8>
  %d = arith.constant dense<10> : vector<4xi8>
  %vs = arith.addi %v, %d : vector<4xi8>
  vector.print %vs : vector<4xi8>
  return
}

// CHECK: -128
// CHECK-NEXT: -56
// CHECK-NEXT: 66
// CHECK-NEXT: 24464
// CHECK-NEXT: -2147483648
// CHECK-NEXT: -4
// CHECK-NEXT: 1073741820
// CHECK-NEXT: -1
// CHECK-NEXT: -4
// CHECK-NEXT: 4
// CHECK-NEXT: 255
// CHECK-NEXT: -1
// CHECK-NEXT: 44
// CHECK-NEXT: 18446744073709551615
// CHECK-NEXT: 4294967295
// CHECK-NEXT: -1
// CHECK-NEXT: -1
// CHECK-NEXT: ( -126, -119, -118, 15 )
