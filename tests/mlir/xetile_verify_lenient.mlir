// RUN: xesim verify --target-param xetile.verify.strict=false --target-param xetile.verify.imex_quirks=false --split-input-file --verify-diagnostics %s
// RUN: not xesim verify --split-input-file --verify-diagnostics %s
// The verifier's settings (shared/spec/xetile.md §5 Q6, Q16; xesim/verify/settings.py) at their non-default values:
// a check the spec recommends beyond IMEX's verifier is a warning (IMEX accepts the IR), IMEX's own checks stay
// errors, and init_tile on an integer source checks the layout its strides describe instead of IMEX's [1, S[1]].
// The second RUN line: under the default settings the expected warnings are errors, so the file does not pass;
// invalid_xetile.mlir holds the same checks as errors.

func.func @load_shape(%t: !xetile.tile<32x32xf16>) {
  // expected-warning@+1 {{result shape [16, 32] must equal the tile shape [32, 32] (accepted because xetile.verify.strict = false}}
  %0 = xetile.load_tile %t : !xetile.tile<32x32xf16> -> vector<16x32xf16>
  return
}

// -----

func.func @transpose_perm(%v: vector<16x16xf32>) {
  // expected-warning@+1 {{permutation must be [1, 0] or [0, 1], got [1, 1]}}
  %0 = xetile.transpose %v, [1, 1] : vector<16x16xf32> -> vector<16x16xf32>
  return
}

// -----

func.func @mma_types(%a: vector<8x16xf32>, %b: vector<16x16xf32>) {
  // expected-warning@+1 {{unsupported tile_mma types: f32 inputs with f32 output}}
  %0 = xetile.tile_mma %a, %b : vector<8x16xf32>, vector<16x16xf32> -> vector<8x16xf32>
  return
}

// -----

func.func @order_value(%A: memref<64x64xf16>) {
  // expected-warning@+1 {{order must be [1, 0] or [0, 1], got [1, 1]}}
  %0 = xetile.init_tile %A[0, 0] : memref<64x64xf16> -> !xetile.tile<8x16xf16, #xetile.tile_attr<order = [1, 1]>>
  return
}

// -----

func.func @imex_check_stays_an_error(%a: vector<8x16xf16>, %b: vector<32x16xf16>) {
  // expected-error@+1 {{incompatible A, B and output sizes for 2D tile mma op.}}
  %0 = xetile.tile_mma %a, %b : vector<8x16xf16>, vector<32x16xf16> -> vector<8x16xf32>
  return
}

// -----

// imex_quirks = false: a column-major tile on a 64x32 surface has strides [1, 64] (IMEX wants [1, 32]).
func.func @int_column_major_layout(%p: i64) {
  %0 = xetile.init_tile %p[0, 0], [64, 32], [1, 64] : i64 -> !xetile.tile<8x16xf16, #xetile.tile_attr<order = [0, 1]>>
  return
}

// -----

func.func @int_column_major_imex_strides(%p: i64) {
  // expected-error@+1 {{memref operand is expected to have a column-major layout}}
  %0 = xetile.init_tile %p[0, 0], [64, 32], [1, 32] : i64 -> !xetile.tile<8x16xf16, #xetile.tile_attr<order = [0, 1]>>
  return
}

// -----

func.func @int_row_major_unit_rows(%p: i64) {
  // expected-error@+1 {{memref operand is expected to have a row-major layout}}
  %0 = xetile.init_tile %p[0, 0], [64, 32], [1, 64] : i64 -> !xetile.tile<8x16xf16>
  return
}

// -----

func.func @int_row_major_padded_pitch(%p: i64) {
  %0 = xetile.init_tile %p[0, 0], [64, 32], [48, 1] : i64 -> !xetile.tile<8x16xf16>
  return
}
