// RUN: xesim verify --split-input-file --verify-diagnostics %s
// The XeVM verifier rules of shared/spec/upstream-xegpu-xevm.md §4 (XeVMDialect.cpp), one case each, with the spec's
// messages verbatim and in upstream's order (a case breaks exactly the rule it tests); the truncf/extf count and
// pairing messages are xesim's (the spec could not read PR #217768's texts, §4.7 [?]; isa/README.md lists them).

func.func @case1(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op result size of 64 bits does not match the expected size of 128 bits}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<4xi16>
  return
}

// -----

func.func @case2(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op transpose and pack_register are mutually exclusive}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 32 : i32, pack_register = true, tile_height = 8 : i32, tile_width = 16 : i32, transpose = true, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
  return
}

// -----

func.func @case3(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_height to be between 1 and 32}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = false, tile_height = 64 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<64xi16>
  return
}

// -----

func.func @case4(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_width to be between 4 and 64}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 8 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 2 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<1xi8>
  return
}

// -----

func.func @case5(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting v_blocks to be 1, 2, or 4}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 8 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 3 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<24xi8>
  return
}

// -----

func.func @case6(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op tile_width * v_blocks should be less than or equal to 64 for 8 bit elements}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 8 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 32 : i32, transpose = false, v_blocks = 4 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<64xi8>
  return
}

// -----

func.func @case7(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_width to be between 2 and 32}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 64 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<32xi16>
  return
}

// -----

func.func @case8(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting v_blocks to be 1, 2, or 4}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 3 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<24xi16>
  return
}

// -----

func.func @case9(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op tile_width * v_blocks should be less than or equal to 32 for 16 bit elements}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 32 : i32, transpose = false, v_blocks = 2 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<32xi16>
  return
}

// -----

func.func @case10(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_width to be between 1 and 16}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 32 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 32 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<16xi32>
  return
}

// -----

func.func @case11(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting v_blocks to be 1 or 2}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 32 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 8 : i32, transpose = false, v_blocks = 4 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<16xi32>
  return
}

// -----

func.func @case12(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op tile_width * v_blocks should be less than or equal to 16 for 32 bit elements}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 32 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 2 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<16xi32>
  return
}

// -----

func.func @case13(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_width to be between 1 and 8}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 64 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<16xi32>
  return
}

// -----

func.func @case14(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting v_blocks to be 1}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 64 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 4 : i32, transpose = false, v_blocks = 2 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
  return
}

// -----

func.func @case15(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting elem_size_in_bits to be 8, 16, 32, or 64}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 24 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<6xi32>
  return
}

// -----

func.func @case16(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting v_blocks to be 1}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 32 : i32, pack_register = false, tile_height = 16 : i32, tile_width = 8 : i32, transpose = true, v_blocks = 2 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<16xi32>
  return
}

// -----

func.func @case17(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_height to be between 1 and 32}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 32 : i32, pack_register = false, tile_height = 64 : i32, tile_width = 8 : i32, transpose = true, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<32xi32>
  return
}

// -----

func.func @case18(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_width to be between 1 and 8}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 32 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = true, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
  return
}

// -----

func.func @case19(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_height to be 8 for 64 bit elements}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 64 : i32, pack_register = false, tile_height = 16 : i32, tile_width = 4 : i32, transpose = true, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
  return
}

// -----

func.func @case20(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_width to be 1, 2, or 4}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 64 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 8 : i32, transpose = true, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
  return
}

// -----

func.func @case21(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op transpose is only supported for 32 and 64 bit elements}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = false, tile_height = 16 : i32, tile_width = 16 : i32, transpose = true, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<16xi16>
  return
}

// -----

func.func @case22(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting v_blocks to be 1, 2, or 4}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = true, tile_height = 16 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 8 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<64xi32>
  return
}

// -----

func.func @case23(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_height to be between 4 and 32}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 8 : i32, pack_register = true, tile_height = 2 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<2xi8>
  return
}

// -----

func.func @case24(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_width to be between 4 and 16}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 8 : i32, pack_register = true, tile_height = 8 : i32, tile_width = 32 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<4xi32>
  return
}

// -----

func.func @case25(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_height to be between 2 and 32}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = true, tile_height = 1 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<1xi16>
  return
}

// -----

func.func @case26(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_width to be between 2 and 16}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = true, tile_height = 16 : i32, tile_width = 32 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<16xi32>
  return
}

// -----

func.func @case27(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op tile_width * v_blocks should be less than or equal to 32 for 16 bit elements}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = true, tile_height = 16 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 4 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<32xi32>
  return
}

// -----

func.func @case28(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op pack_register is only supported for 8 and 16 bit elements}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 32 : i32, pack_register = true, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
  return
}

// -----

func.func @case29(%p: !llvm.ptr<1>, %i: i32) {
  %w = arith.constant 128 : i32
  %pt = arith.constant 64 : i32
  // expected-error@+1 {{'xevm.blockload2d' op 4th operand (base pitch) should be >= 2nd operand (base width)}}
  %v = xevm.blockload2d %p, %w, %i, %pt, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi16>
  return
}

// -----

func.func @case30(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting 'elem_size_in_bits' to be 8, 16, or 32}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 64 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 4 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<4xi32>
  return
}

// -----

func.func @case31(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting tile_height to be 1, 2, 4, 8, 16, or 32}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = false, tile_height = 6 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<6xi16>
  return
}

// -----

func.func @case32(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op expecting result element type to be 32 bits}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 32 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<16xi16>
  return
}

// -----

func.func @case33(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op tile_width when pack_register is true should be equal to subgroup size (16 elements)}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = true, tile_height = 16 : i32, tile_width = 8 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<4xi32>
  return
}

// -----

func.func @case34(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockload2d' op attribute 'tile_width' failed to satisfy constraint: 32-bit signless integer attribute}}
  %v = xevm.blockload2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi16>
  return
}

// -----

func.func @case35(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi32>) {
  // expected-error@+1 {{'xevm.blockstore2d' op expecting tile_height to be between 1 and 8}}
  xevm.blockstore2d %p, %i, %i, %i, %i, %i, %v <{elem_size_in_bits = 32 : i32, tile_height = 16 : i32, tile_width = 16 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  return
}

// -----

func.func @case36(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi32>) {
  // expected-error@+1 {{'xevm.blockstore2d' op expecting tile_width to be between 4 and 64}}
  xevm.blockstore2d %p, %i, %i, %i, %i, %i, %v <{elem_size_in_bits = 8 : i32, tile_height = 8 : i32, tile_width = 2 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  return
}

// -----

func.func @case37(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi32>) {
  // expected-error@+1 {{'xevm.blockstore2d' op expecting tile_width to be between 2 and 32}}
  xevm.blockstore2d %p, %i, %i, %i, %i, %i, %v <{elem_size_in_bits = 16 : i32, tile_height = 8 : i32, tile_width = 64 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  return
}

// -----

func.func @case38(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi32>) {
  // expected-error@+1 {{'xevm.blockstore2d' op expecting tile_width to be between 1 and 16}}
  xevm.blockstore2d %p, %i, %i, %i, %i, %i, %v <{elem_size_in_bits = 32 : i32, tile_height = 8 : i32, tile_width = 32 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  return
}

// -----

func.func @case39(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi32>) {
  // expected-error@+1 {{'xevm.blockstore2d' op expecting tile_width to be between 1 and 8}}
  xevm.blockstore2d %p, %i, %i, %i, %i, %i, %v <{elem_size_in_bits = 64 : i32, tile_height = 8 : i32, tile_width = 16 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  return
}

// -----

func.func @case40(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi32>) {
  // expected-error@+1 {{'xevm.blockstore2d' op expecting elem_size_in_bits to be 8, 16, 32, or 64}}
  xevm.blockstore2d %p, %i, %i, %i, %i, %i, %v <{elem_size_in_bits = 24 : i32, tile_height = 8 : i32, tile_width = 16 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  return
}

// -----

func.func @case41(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi32>) {
  %w = arith.constant 128 : i32
  %pt = arith.constant 64 : i32
  // expected-error@+1 {{'xevm.blockstore2d' op 4th operand (base pitch) should be >= 2nd operand (base width)}}
  xevm.blockstore2d %p, %w, %i, %pt, %i, %i, %v <{elem_size_in_bits = 32 : i32, tile_height = 8 : i32, tile_width = 16 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  return
}

// -----

func.func @case42(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi32>) {
  // expected-error@+1 {{'xevm.blockstore2d' op expecting 'elem_size_in_bits' to be 8, 16, or 32}}
  xevm.blockstore2d %p, %i, %i, %i, %i, %i, %v <{elem_size_in_bits = 64 : i32, tile_height = 8 : i32, tile_width = 8 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  return
}

// -----

func.func @case43(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi32>) {
  // expected-error@+1 {{'xevm.blockstore2d' op expecting tile_height to be 1, 2, 4, 8, 16, or 32}}
  xevm.blockstore2d %p, %i, %i, %i, %i, %i, %v <{elem_size_in_bits = 32 : i32, tile_height = 6 : i32, tile_width = 16 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  return
}

// -----

func.func @case44(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi32>) {
  // expected-error@+1 {{'xevm.blockstore2d' op tile_width for 8 bit elements should be equal to 16 or 32}}
  xevm.blockstore2d %p, %i, %i, %i, %i, %i, %v <{elem_size_in_bits = 8 : i32, tile_height = 8 : i32, tile_width = 8 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  return
}

// -----

func.func @case45(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi32>) {
  // expected-error@+1 {{'xevm.blockstore2d' op tile_width for 16 bit elements should be equal to 16}}
  xevm.blockstore2d %p, %i, %i, %i, %i, %i, %v <{elem_size_in_bits = 16 : i32, tile_height = 8 : i32, tile_width = 8 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  return
}

// -----

func.func @case46(%p: !llvm.ptr<1>, %i: i32, %v: vector<8xi32>) {
  // expected-error@+1 {{'xevm.blockstore2d' op tile_width for 32 bit elements should be equal to 16}}
  xevm.blockstore2d %p, %i, %i, %i, %i, %i, %v <{elem_size_in_bits = 32 : i32, tile_height = 8 : i32, tile_width = 8 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  return
}

// -----

func.func @case47(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockprefetch2d' op expecting v_blocks to be 1, 2, 4, or 8}}
  xevm.blockprefetch2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, tile_height = 8 : i32, tile_width = 16 : i32, v_blocks = 3 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32)
  return
}

// -----

func.func @case48(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockprefetch2d' op tile_width for 8 bit elements should be equal to 16 or 32}}
  xevm.blockprefetch2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 8 : i32, tile_height = 8 : i32, tile_width = 8 : i32, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32)
  return
}

// -----

func.func @case49(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockprefetch2d' op tile_width for 16 bit elements should be equal to 16}}
  xevm.blockprefetch2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 16 : i32, tile_height = 8 : i32, tile_width = 8 : i32, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32)
  return
}

// -----

func.func @case50(%p: !llvm.ptr<1>, %i: i32) {
  // expected-error@+1 {{'xevm.blockprefetch2d' op tile_width for 32 bit elements should be equal to 8 or 16}}
  xevm.blockprefetch2d %p, %i, %i, %i, %i, %i <{elem_size_in_bits = 32 : i32, tile_height = 8 : i32, tile_width = 4 : i32, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32)
  return
}

// -----

func.func @case51(%p: !llvm.ptr<1>) {
  // expected-error@+1 {{'xevm.blockload' op vector size must be 2, 4, 8 or 16 for 8-bit element type}}
  %v = xevm.blockload %p : (!llvm.ptr<1>) -> vector<3xi8>
  return
}

// -----

func.func @case52(%p: !llvm.ptr<1>, %v: vector<16xi32>) {
  // expected-error@+1 {{'xevm.blockstore' op vector size must be 2, 4 or 8 for element type > 8 bits}}
  xevm.blockstore %p, %v : (!llvm.ptr<1>, vector<16xi32>)
  return
}

// -----

func.func @case53(%a: vector<8xi16>, %b: vector<8xi32>, %c: vector<8xi32>, %s: i8) {
  // expected-error@+1 {{'xevm.mma' op type of C operand must match result type}}
  %d = xevm.mma %a, %b, %c {shape = <m = 8, n = 16, k = 16>, types = <d = f32, a = f16, b = f16, c = f32>} : (vector<8xi16>, vector<8xi32>, vector<8xi32>) -> vector<8xf32>
  return
}

// -----

func.func @case54(%a: vector<8xi16>, %b: vector<8xi32>, %c: vector<8xi32>, %s: i8) {
  // expected-error@+1 {{'xevm.mma_mx' op type of C operand must match result type}}
  %d = xevm.mma_mx %a, %b, %s, %s, %c {shape = <m = 8, n = 16, k = 32>, types = <d = f32, a = bf8, b = bf8, c = f32>} : (vector<8xi16>, vector<8xi32>, i8, i8, vector<8xi32>) -> vector<8xf32>
  return
}

// -----

func.func @case55(%p: !llvm.ptr<1>, %v: vector<2xi16>) {
  // expected-error@+1 {{'xevm.bitcast_shuffle' op expected exactly one of src and res to be a vector: a pack takes a vector and returns a scalar, an unpack takes a scalar and returns a vector}}
  %r = xevm.bitcast_shuffle %v : (vector<2xi16>) -> vector<1xi32>
  return
}

// -----

func.func @case56(%p: !llvm.ptr<1>, %v: vector<2xi16>) {
  // expected-error@+1 {{'xevm.bitcast_shuffle' op src and res types must have the same total bit width}}
  %r = xevm.bitcast_shuffle %v : (vector<2xi16>) -> i64
  return
}

// -----

func.func @case57(%q: !llvm.ptr<3>) {
  // expected-error@+1 {{'xevm.prefetch' op operand #0 must be LLVM pointer in address space 1 or LLVM pointer in address space 4, but got '!llvm.ptr<3>'}}
  xevm.prefetch %q : (!llvm.ptr<3>)
  return
}

// -----

func.func @case58(%p: !llvm.ptr<1>, %v: vector<16xf16>) {
  // expected-error@+1 {{'xevm.truncf' op 16 f16 value(s) need exactly 16 bf8 code(s), but vector<8xi8> holds 8 (upstream-xegpu-xevm.md §4.7: fp8 one i8 per value, e2m1 two per i8 or one i4)}}
  %r = xevm.truncf %v {src_etype = f16, dst_etype = bf8} : (vector<16xf16>) -> vector<8xi8>
  return
}

// -----

func.func @case59(%p: !llvm.ptr<1>, %v: vector<16xi8>) {
  // expected-error@+1 {{'xevm.extf' op 16 bf16 value(s) need exactly 16 e2m1 code(s), but vector<16xi8> holds 32 (upstream-xegpu-xevm.md §4.7: fp8 one i8 per value, e2m1 two per i8 or one i4)}}
  %r = xevm.extf %v {src_etype = e2m1, dst_etype = bf16} : (vector<16xi8>) -> vector<16xbf16>
  return
}

// -----

func.func @case60(%p: !llvm.ptr<1>, %v: vector<16xf16>) {
  // expected-error@+1 {{'xevm.truncf' op src_etype must be f16 or bf16 and match the source element type f16}}
  %r = xevm.truncf %v {src_etype = bf16, dst_etype = f8} : (vector<16xf16>) -> vector<16xi8>
  return
}
