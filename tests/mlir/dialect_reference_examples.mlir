// The op, attribute and type examples of the XeGPU dialect reference (shared/seeds/xegpu-dialect-reference.txt),
// one per chunk, in the current syntax.  Where the reference text is not valid MLIR, the minimal fix is noted:
//   [T] `TensorDesc<...>` shorthand written as `!xegpu.tensor_desc<...>`;
//   [O] operand types listed in operand order (source, offsets, mask), as the assembly format requires;
//   [S] a store has no result type; [B] a stray `}>` closing an attribute dictionary;
//   [N] an SSA name reused for a new value renamed; [C] chunk_size written out (the verifier requires it when
//       the value has more elements than the mask, spec/programs-and-runner.md §4.4);
//   [P] prefetch of a non-scattered descriptor given a scatter encoding (the op requires one);
//   [D] see the SliceAttr chunk.
// Undefined operands are function arguments.
// RUN: xesim verify --split-input-file %s
// RUN: xesim fmt %s | filecheck %s
// CHECK: module

func.func @alloc_nbarrier() {
  xegpu.alloc_nbarrier 16
  return
}

// -----

// [T]
func.func @create_nd_tdesc_1() {
  %0 = memref.alloc() : memref<1024x1024xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %1 = xegpu.create_nd_tdesc %0[%c0, %c0]: memref<1024x1024xf32> -> !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

// [T] (the oldest positional shape/strides form)
func.func @create_nd_tdesc_2(%h: index, %w: index) {
  %0 = memref.alloc(%h, %w) : memref<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %1 = xegpu.create_nd_tdesc %0[%c0, %c0], [%h, %w], [%w, %c1]: memref<?x?xf32> -> !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

// [T]
func.func @create_nd_tdesc_3(%0: ui64, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %1 = xegpu.create_nd_tdesc %0[%c0, %c0], [%h, %w], [%w, %c1]: ui64 -> !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

// [T]
func.func @create_tdesc_1() {
  %a = memref.alloc() : memref<1024xf32>
  %0 = arith.constant dense<[0, 16, 32, 64]> : vector<4xindex>
  %1 = xegpu.create_tdesc %a, %0: memref<1024xf32>, vector<4xindex> -> !xegpu.tensor_desc<4xf32, #xegpu.scatter_tdesc_attr<>>
  return
}

// -----

// [T]
func.func @create_tdesc_2() {
  %0 = memref.alloc() : memref<1024xf32>
  %off = arith.constant dense<[0, 16, 32, 64]> : vector<4xindex>
  %1 = xegpu.create_tdesc %0, %off : memref<1024xf32>, vector<4xindex>
        -> !xegpu.tensor_desc<4x8xf32, #xegpu.scattered_tdesc_attr<chunk_size = 8>>
  return
}

// -----

// [T]
func.func @create_tdesc_3() {
  %0 = memref.alloc() : memref<1024xf32>
  %off = arith.constant dense<[0, 4, 8, 12]> : vector<4xindex>
  %1 = xegpu.create_tdesc %0, %off : memref<1024xf32>, vector<4xindex>
        -> !xegpu.tensor_desc<4x8xf32, #xegpu.scattered_tdesc_attr<chunk_size = 8>>
  return
}

// -----

func.func @load_1(%1: !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<memory_space=global>>, %0: vector<16xi1>) {
  %2 = xegpu.load %1, %0 <{l1_hint = #xegpu.cache_hint<cached>,
                            l2_hint = #xegpu.cache_hint<uncached>,
                            l3_hint = #xegpu.cache_hint<uncached>}>
        : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<memory_space=global>>,
          vector<16xi1> -> vector<16xf32>
  return
}

// -----

func.func @load_2(%1: !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space=global, chunk_size=8>>, %0: vector<16xi1>) {
  %2 = xegpu.load %1, %0 <{l1_hint = #xegpu.cache_hint<cached>,
                            l2_hint = #xegpu.cache_hint<uncached>,
                            l3_hint = #xegpu.cache_hint<uncached>}>
        : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space=global, chunk_size=8>>,
          vector<16xi1> -> vector<16x8xf32>
  return
}

// -----

// [O]
func.func @load_3() {
  %a = memref.alloc() : memref<1024xf32>
  %offsets = vector.step : vector<16xindex>
  %mask = vector.constant_mask [16]: vector<16xi1>
  %val = xegpu.load %a[%offsets], %mask {l1_hint = #xegpu.cache_hint<cached>,
                                         l2_hint = #xegpu.cache_hint<cached>,
                                         l3_hint = #xegpu.cache_hint<cached>}
        : memref<1024xf32>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
  return
}

// -----

// [N] [C]
func.func @load_4(%1: memref<128xf32>, %2: vector<1xindex>, %0: vector<1xi1>) {
  %3 = xegpu.load %1[%2], %0 <{chunk_size = 8 : i64, l1_hint = #xegpu.cache_hint<cached>,
                               l2_hint = #xegpu.cache_hint<uncached>,
                               l3_hint = #xegpu.cache_hint<uncached>}>
        : memref<128xf32>, vector<1xindex>, vector<1xi1> -> vector<8xf32>
  return
}

// -----

func.func @load_nd_1(%1: !xegpu.tensor_desc<8x16xf32>) {
  %2 = xegpu.load_nd %1 {transpose = [1, 0],
                    l1_hint = #xegpu.cache_hint<cached>,
                    l2_hint = #xegpu.cache_hint<uncached>,
                    l3_hint = #xegpu.cache_hint<streaming>}
          : !xegpu.tensor_desc<8x16xf32> -> vector<16x8xf32>
  return
}

// -----

// [B]
func.func @load_nd_2(%1: !xegpu.tensor_desc<8x16xf32>) {
  %2 = xegpu.load_nd %1 {l1_hint = #xegpu.cache_hint<cached>,
                    l2_hint = #xegpu.cache_hint<uncached>}
          : !xegpu.tensor_desc<8x16xf32> -> vector<8xf32>
  return
}

// -----

// [P]
func.func @prefetch_1(%tdesc: !xegpu.tensor_desc<16xf16, #xegpu.scatter_tdesc_attr<>>) {
  xegpu.prefetch %tdesc {l1_hint = #xegpu.cache_hint<cached>,
                         l2_hint = #xegpu.cache_hint<cached>,
                         l3_hint = #xegpu.cache_hint<cached>}
    : !xegpu.tensor_desc<16xf16, #xegpu.scatter_tdesc_attr<>>
  return
}

// -----

func.func @prefetch_2() {
  %a = memref.alloc() : memref<1024xf32>
  %0 = arith.constant dense<[0, 16, 32, 64]> : vector<4xindex>
  xegpu.prefetch %a[%0] {l1_hint = #xegpu.cache_hint<cached>,
                         l2_hint = #xegpu.cache_hint<cached>,
                         l3_hint = #xegpu.cache_hint<cached>}
    : memref<1024xf32>, vector<4xindex>
  return
}

// -----

func.func @prefetch_3(%0: memref<256xf32>, %1: vector<1xindex>) {
  xegpu.prefetch %0[%1] {l1_hint = #xegpu.cache_hint<cached>,
                         l2_hint = #xegpu.cache_hint<cached>,
                         l3_hint = #xegpu.cache_hint<cached>}
    : memref<256xf32>, vector<1xindex>
  return
}

// -----

func.func @prefetch_4(%0: i64, %1: vector<1xindex>) {
  xegpu.prefetch %0[%1] {l1_hint = #xegpu.cache_hint<cached>,
                         l2_hint = #xegpu.cache_hint<cached>,
                         l3_hint = #xegpu.cache_hint<cached>,
                         offset_align_byte = 2}
    : i64, vector<1xindex>
  return
}

// -----

func.func @prefetch_nd(%tdesc: !xegpu.tensor_desc<8x16xf16>) {
  xegpu.prefetch_nd %tdesc {l1_hint = #xegpu.cache_hint<cached>,
                            l2_hint = #xegpu.cache_hint<cached>,
                            l3_hint = #xegpu.cache_hint<cached>}
    : !xegpu.tensor_desc<8x16xf16>
  return
}

// -----

func.func @store_1(%0: vector<16xf32>, %1: !xegpu.tensor_desc<16xf32, #xegpu.scattered_tdesc_attr<>>, %2: vector<16xi1>) {
  xegpu.store %0, %1, %2 <{l1_hint = #xegpu.cache_hint<uncached>,
                           l2_hint = #xegpu.cache_hint<write_back>,
                           l3_hint = #xegpu.cache_hint<write_through>}>
        : vector<16xf32>, !xegpu.tensor_desc<16xf32, #xegpu.scattered_tdesc_attr<>>, vector<16xi1>
  return
}

// -----

func.func @store_2(%0: vector<16x8xf32>, %1: !xegpu.tensor_desc<16x8xf32, #xegpu.scattered_tdesc_attr<chunk_size=8>>, %2: vector<16xi1>) {
  xegpu.store %0, %1, %2 <{l1_hint = #xegpu.cache_hint<uncached>,
                           l2_hint = #xegpu.cache_hint<write_back>,
                           l3_hint = #xegpu.cache_hint<write_through>}>
        : vector<16x8xf32>, !xegpu.tensor_desc<16x8xf32, #xegpu.scattered_tdesc_attr<chunk_size=8>>, vector<16xi1>
  return
}

// -----

// [O] [S]
func.func @store_3() {
  %a = memref.alloc() : memref<1024xf32>
  %val = arith.constant dense<0.0> : vector<16xf32>
  %offsets = vector.step : vector<16xindex>
  %mask = vector.constant_mask [16]: vector<16xi1>
  xegpu.store %val, %a[%offsets], %mask {l1_hint = #xegpu.cache_hint<cached>,
                                         l2_hint = #xegpu.cache_hint<cached>,
                                         l3_hint = #xegpu.cache_hint<cached>}
        : vector<16xf32>, memref<1024xf32>, vector<16xindex>, vector<16xi1>
  return
}

// -----

// [C]
func.func @store_4(%0: vector<8xf32>, %1: memref<256xf32>, %2: vector<1xindex>, %3: vector<1xi1>) {
  xegpu.store %0, %1[%2], %3 <{chunk_size = 8 : i64, l1_hint = #xegpu.cache_hint<uncached>,
                               l2_hint = #xegpu.cache_hint<write_back>,
                               l3_hint = #xegpu.cache_hint<write_through>}>
        : vector<8xf32>, memref<256xf32>, vector<1xindex>, vector<1xi1>
  return
}

// -----

func.func @store_nd_1(%3: vector<8x16xf16>, %2: !xegpu.tensor_desc<8x16xf16>) {
  xegpu.store_nd %3, %2 {l1_hint = #xegpu.cache_hint<uncached>,
                         l2_hint = #xegpu.cache_hint<write_back>,
                         l3_hint = #xegpu.cache_hint<write_through>}
                         : vector<8x16xf16>, !xegpu.tensor_desc<8x16xf16>
  return
}

// -----

func.func @store_nd_2(%3: vector<8xf16>, %2: !xegpu.tensor_desc<8x16xf16>) {
  xegpu.store_nd %3, %2 {l1_hint = #xegpu.cache_hint<uncached>,
                         l2_hint = #xegpu.cache_hint<write_back>,
                         l3_hint = #xegpu.cache_hint<write_through>}
                         : vector<8xf16>, !xegpu.tensor_desc<8x16xf16>
  return
}

// -----

func.func @update_nd_offset(%1: !xegpu.tensor_desc<8x16xf32>) {
  %2 = xegpu.update_nd_offset %1, [0, 16]: !xegpu.tensor_desc<8x16xf32>
  return
}

// -----

func.func @update_offset(%1: !xegpu.tensor_desc<4x2xf32, #xegpu.scattered_tdesc_attr<chunk_size=2>>) {
  %off = arith.constant dense<[32, 32, 32, 32]> : vector<4xindex>
  %2 = xegpu.update_offset %1, %off :
          !xegpu.tensor_desc<4x2xf32, #xegpu.scattered_tdesc_attr<chunk_size=2>>, vector<4xindex>
  return
}

// -----

// RangeAttr example (the op's `// some operations` body left empty).
func.func @range_attr(%cond: i1) {
  scf.if %cond {
  } {sg_id_range = #xegpu.range<[2, 4]>}
  return
}

// -----

// SliceAttr example (the reference writes `dim = [0]`; the parameter is `dims`; [D] the attribute dictionary of
// vector.multi_reduction comes before the reduction dims, as its assembly format requires).
#l = #xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32]>
#r = #xegpu.slice<#l, dims = [0]>
func.func @slice_attr(%input: vector<256x128xf32>, %acc: vector<128xf32>) {
  %exp = math.exp %input {layout_result_0 = #l}: vector<256x128xf32>
  %red = vector.multi_reduction<add>, %exp, %acc {layout_result_0 = #r} [0]: vector<256x128xf32> to vector<128xf32>
  %bcast = vector.broadcast %red {layout_result_0 = #l} : vector<128xf32> to vector<256x128xf32>
  return
}

// -----

// Layout attribute, TensorDesc, MemDesc and Nbarrier type examples, as function argument types.
func.func @types(
    %a: !xegpu.tensor_desc<8x16xi32>,
    %b: !xegpu.tensor_desc<8x16xf32>,
    %c: !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>,
    %d: !xegpu.tensor_desc<32xf32, #xegpu.layout<lane_layout = [16], lane_data = [2]>>,
    %e: !xegpu.tensor_desc<32xf32, #xegpu.layout<lane_layout = [16], lane_data = [1]>>,
    %f: !xegpu.tensor_desc<8x16xf32, #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>>,
    %g: !xegpu.tensor_desc<32x64xf32, #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16], lane_layout = [1, 16], lane_data = [1, 1]>>,
    %h: !xegpu.tensor_desc<32x64xf32, #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>>,
    %i: !xegpu.mem_desc<128x128xf16, #xegpu.mem_layout<stride = [1, 128]>>,
    %j: !xegpu.mem_desc<128x128xf16, #xegpu.mem_layout<block = [8, 8]>>,
    %k: !xegpu.mem_desc<128x128xf16, #xegpu.mem_layout<stride = [1, 128], block = [8, 8]>>,
    %n: !xegpu.nbarrier) {
  return
}
