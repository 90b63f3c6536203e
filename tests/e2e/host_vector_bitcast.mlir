// RUN: xesim run %s | filecheck %s
// vector.bitcast between element widths: the bits of the innermost dimension are reinterpreted, element 0
// in the low bits (little-endian). Expected values derived by hand and with Python's struct module:
// f32 1.0 = 0x3F800000, -2.5 = 0xC0200000; f16 1.0 = 0x3C00, 2.0 = 0x4000, -0 = 0x8000, 0.5 = 0x3800.
module {
  func.func @main() {
    %f = arith.constant dense<[1.0, -2.5]> : vector<2xf32>
    %a = vector.bitcast %f : vector<2xf32> to vector<4xi16>
    vector.print %a : vector<4xi16>
    // 0x0000, 0x3F80 = 16256, 0x0000, 0xC020 = -16352 as i16
    // CHECK: ( 0, 16256, 0, -16352 )
    %h = vector.bitcast %f : vector<2xf32> to vector<4xf16>
    vector.print %h : vector<4xf16>
    // f16 0x3F80 = 1.875, 0xC020 = -2.0625
    // CHECK-NEXT: ( 0, 1.875, 0, -2.0625 )

    %bytes = arith.constant dense<[1, 2, 3, 4, -1, 0, 0, -128]> : vector<8xi8>
    %w = vector.bitcast %bytes : vector<8xi8> to vector<2xi32>
    vector.print %w : vector<2xi32>
    // 0x04030201 = 67305985, 0x800000FF = -2147483393
    // CHECK-NEXT: ( 67305985, -2147483393 )
    %i258 = arith.constant dense<[258]> : vector<1xi32>
    %back = vector.bitcast %i258 : vector<1xi32> to vector<4xi8>
    vector.print %back : vector<4xi8>
    // CHECK-NEXT: ( 2, 1, 0, 0 )

    // i1 masks pack one bit per element, element 0 in bit 0
    %mask = vector.constant_mask [3] : vector<8xi1>
    %mb = vector.bitcast %mask : vector<8xi1> to vector<1xi8>
    vector.print %mb : vector<1xi8>
    // CHECK-NEXT: ( 7 )
    %x = arith.constant dense<[-96]> : vector<1xi8>
    %xb = vector.bitcast %x : vector<1xi8> to vector<8xi1>
    vector.print %xb : vector<8xi1>
    // 0xA0 = 0b10100000
    // CHECK-NEXT: ( 0, 0, 0, 0, 0, 1, 0, 1 )

    // only the innermost dimension changes
    %hh = arith.constant dense<[[1.0, 2.0], [-0.0, 0.5]]> : vector<2x2xf16>
    %hw = vector.bitcast %hh : vector<2x2xf16> to vector<2x1xi32>
    vector.print %hw : vector<2x1xi32>
    // 0x40003C00 = 1073757184, 0x38008000 = 939556864
    // CHECK-NEXT: ( ( 1073757184 ), ( 939556864 ) )

    // bf16(1/3) = 0x3EAB = 16043 (round to nearest of 0x3EAAAAAB)
    %third = arith.constant dense<0.333333343> : vector<1xbf16>
    %tb = vector.bitcast %third : vector<1xbf16> to vector<1xi16>
    vector.print %tb : vector<1xi16>
    // CHECK-NEXT: ( 16043 )
    %tf = vector.bitcast %tb : vector<1xi16> to vector<1xbf16>
    vector.print %tf : vector<1xbf16>
    // CHECK-NEXT: ( 0.333984 )
    return
  }
}
