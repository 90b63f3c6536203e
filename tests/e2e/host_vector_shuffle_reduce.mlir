// RUN: xesim run %s | filecheck %s
// vector.shuffle, vector.reduction, vector.multi_reduction and vector.contract printed with vector.print
// (spec §1.2). Float reductions combine left to right from the accumulator, rounding every step to the
// element type; the expected values are derived by hand below each op.
module {
  func.func @main() {
    %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
    %b = arith.constant dense<[10.0, 20.0]> : vector<2xf32>
    %neg = arith.constant dense<[-1.0, -2.0, -3.0, -4.0]> : vector<4xf32>

    // concat(a, b) = [1, 2, 3, 4, 10, 20]
    %s = vector.shuffle %a, %b [5, 0, 4, 3, 1] : vector<4xf32>, vector<2xf32>
    vector.print %s : vector<5xf32>
    // CHECK: ( 20, 1, 10, 4, 2 )
    %il = vector.shuffle %a, %neg [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xf32>, vector<4xf32>
    vector.print %il : vector<8xf32>
    // CHECK-NEXT: ( 1, -1, 2, -2, 3, -3, 4, -4 )
    %m = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
    %n = arith.constant dense<[[5, 6]]> : vector<1x2xi32>
    %rows = vector.shuffle %m, %n [2, 1, 0] : vector<2x2xi32>, vector<1x2xi32>
    vector.print %rows : vector<3x2xi32>
    // CHECK-NEXT: ( ( 5, 6 ), ( 3, 4 ), ( 1, 2 ) )

    // f32 add: ulp(1e8) = 8. No acc: ((1e8 + 1) + -1e8) + 1 = (1e8 - 1e8) + 1 = 1.
    // acc 5: 5 + 1e8 -> 100000008; + 1 -> 100000008; - 1e8 -> 8; + 1 -> 9.
    %big = arith.constant dense<[1.0e8, 1.0, -1.0e8, 1.0]> : vector<4xf32>
    %five = arith.constant 5.0 : f32
    %r0 = vector.reduction <add>, %big : vector<4xf32> into f32
    %r1 = vector.reduction <add>, %big, %five : vector<4xf32>, f32 into f32
    vector.print %r0 : f32
    vector.print %r1 : f32
    // CHECK-NEXT: 1
    // CHECK-NEXT: 9
    // f16: each 2048 + 1 is a tie that rounds to even 2048 (a pairwise sum would give 2052)
    %h = arith.constant dense<[2048.0, 1.0, 1.0, 1.0, 1.0]> : vector<5xf16>
    %rh = vector.reduction <add>, %h : vector<5xf16> into f16
    vector.print %rh : f16
    // CHECK-NEXT: 2048
    %p = arith.constant dense<[2.0, 3.0, 0.5]> : vector<3xf32>
    %rp = vector.reduction <mul>, %p : vector<3xf32> into f32
    vector.print %rp : f32
    // CHECK-NEXT: 3

    // integers wrap at the element width: 100 * 3 = 300 = 44 (mod 256) as i8
    %i8s = arith.constant dense<[100, 100, 100]> : vector<3xi8>
    %ri = vector.reduction <add>, %i8s : vector<3xi8> into i8
    vector.print %ri : i8
    // CHECK-NEXT: 44
    %mix = arith.constant dense<[-1, 5]> : vector<2xi8>
    %mn = vector.reduction <minsi>, %mix : vector<2xi8> into i8
    %mu = vector.reduction <minui>, %mix : vector<2xi8> into i8
    vector.print %mn : i8
    vector.print %mu : i8
    // CHECK-NEXT: -1
    // CHECK-NEXT: 5
    %bits = arith.constant dense<[12, 10, 7]> : vector<3xi32>
    %x = vector.reduction <xor>, %bits : vector<3xi32> into i32
    %an = vector.reduction <and>, %bits : vector<3xi32> into i32
    %o = vector.reduction <or>, %bits : vector<3xi32> into i32
    vector.print %x : i32
    vector.print %an : i32
    vector.print %o : i32
    // 12 ^ 10 ^ 7 = 1; 12 & 10 & 7 = 0; 12 | 10 | 7 = 15
    // CHECK-NEXT: 1
    // CHECK-NEXT: 0
    // CHECK-NEXT: 15

    // NaN: maximumf propagates it, maxnumf ignores it; minimumf orders -0 below +0
    %nan = arith.constant 0x7FC00000 : f32
    %withnan = vector.insert %nan, %p [1] : f32 into vector<3xf32>
    %mx = vector.reduction <maximumf>, %withnan : vector<3xf32> into f32
    %mxn = vector.reduction <maxnumf>, %withnan : vector<3xf32> into f32
    vector.print %mx : f32
    vector.print %mxn : f32
    // CHECK-NEXT: nan
    // CHECK-NEXT: 2
    %zeros = arith.constant dense<[0.0, -0.0, 0.0]> : vector<3xf32>
    %mz = vector.reduction <minimumf>, %zeros : vector<3xf32> into f32
    vector.print %mz : f32
    // CHECK-NEXT: -0

    %mat = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
    %acc2 = arith.constant dense<[0.5, -0.5]> : vector<2xf32>
    %acc3 = arith.constant dense<0.0> : vector<3xf32>
    %rowsum = vector.multi_reduction <add>, %mat, %acc2 [1] : vector<2x3xf32> to vector<2xf32>
    %colsum = vector.multi_reduction <add>, %mat, %acc3 [0] : vector<2x3xf32> to vector<3xf32>
    vector.print %rowsum : vector<2xf32>
    vector.print %colsum : vector<3xf32>
    // CHECK-NEXT: ( 6.5, 14.5 )
    // CHECK-NEXT: ( 5, 7, 9 )
    %imat = arith.constant dense<[[3, -9], [-4, 2]]> : vector<2x2xi32>
    %iacc = arith.constant -100 : i32
    %imax = vector.multi_reduction <maxsi>, %imat, %iacc [0, 1] : vector<2x2xi32> to i32
    vector.print %imax : i32
    // CHECK-NEXT: 3

    // dot product as a contraction: 1 + 1*-1 + 2*-2 + 3*-3 + 4*-4 = -29
    %one = arith.constant 1.0 : f32
    %dot = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %a, %neg, %one : vector<4xf32>, vector<4xf32> into f32
    vector.print %dot : f32
    // CHECK-NEXT: -29
    // 2x3 times 3x2 into 2x2: [[1,2,3],[4,5,6]] x [[1,0],[0,1],[1,1]] = [[4, 5], [10, 11]]
    %rhs = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : vector<3x2xf32>
    %z2 = arith.constant dense<0.0> : vector<2x2xf32>
    %mm = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %mat, %rhs, %z2 : vector<2x3xf32>, vector<3x2xf32> into vector<2x2xf32>
    vector.print %mm : vector<2x2xf32>
    // CHECK-NEXT: ( ( 4, 5 ), ( 10, 11 ) )
    return
  }
}
