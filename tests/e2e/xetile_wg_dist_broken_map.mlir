// XeTile workgroup level (shared/spec/xetile.md §4): the element-wise op's wg_map gives its 16x16 sub-tiles to other
// subgroups than the load's map does. Run on whole tiles the result is right (the maps only say who holds what);
// --check-distribution finds that in IMEX's distributed program subgroup 0 would multiply the sub-tile at (0, 32)
// into the result sub-tile at (0, 16), and says so at the op (tests/unit/test_xetile_distribution.py has more).
// RUN: xesim run %s | filecheck %s --check-prefix=WHOLE
// RUN: not xesim run --check-distribution %s 2>&1 | filecheck %s --check-prefix=DIST

module @xetile_wg_dist_broken_map attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @square(%A: memref<64x64xf32>, %B: memref<64x64xf32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %ta = xetile.init_tile %A[0, 0] : memref<64x64xf32> -> !xetile.tile<64x64xf32, #xetile.tile_attr<wg_map = <sg_layout = [2, 2], sg_data = [16, 16]>>>
      %a = xetile.load_tile %ta : !xetile.tile<64x64xf32, #xetile.tile_attr<wg_map = <sg_layout = [2, 2], sg_data = [16, 16]>>> -> vector<64x64xf32>
      %e = arith.mulf %a, %a {map = #xetile.wg_map<sg_layout = [4, 1], sg_data = [16, 16]>} : vector<64x64xf32>
      %tb = xetile.init_tile %B[0, 0] : memref<64x64xf32> -> !xetile.tile<64x64xf32, #xetile.tile_attr<wg_map = <sg_layout = [4, 1], sg_data = [16, 16]>>>
      xetile.store_tile %e, %tb : vector<64x64xf32>, !xetile.tile<64x64xf32, #xetile.tile_attr<wg_map = <sg_layout = [4, 1], sg_data = [16, 16]>>>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %A = memref.alloc() : memref<64x64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %s = arith.addi %i, %j : index
        %si = arith.index_cast %s : index to i32
        %f = arith.sitofp %si : i32 to f32
        memref.store %f, %A[%i, %j] : memref<64x64xf32>
      }
    }
    %dA = gpu.alloc () : memref<64x64xf32>
    %dB = gpu.alloc () : memref<64x64xf32>
    gpu.memcpy %dA, %A : memref<64x64xf32>, memref<64x64xf32>
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%dA : memref<64x64xf32>, %dB : memref<64x64xf32>)
    %B = memref.alloc() : memref<64x64xf32>
    gpu.memcpy %B, %dB : memref<64x64xf32>, memref<64x64xf32>
    %w = memref.subview %B[62, 60] [2, 4] [1, 1] : memref<64x64xf32> to memref<2x4xf32, strided<[64, 1], offset: 4028>>
    %u = memref.cast %w : memref<2x4xf32, strided<[64, 1], offset: 4028>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
}

// B[i][j] = (i + j)^2; rows 62-63, columns 60-63
// WHOLE: rank = 2 offset = 4028 sizes = [2, 4] strides = [64, 1] data =
// WHOLE-NEXT: {{\[\[}}14884,   15129,   15376,   15625],
// WHOLE-NEXT: {{\[}}15129,   15376,   15625,   15876]]

// DIST: xetile_wg_dist_broken_map.mlir:13:7: error: 'arith.mulf' op subgroup 0: the operand #0 sub-tile at (0, 32) (for its result sub-tile at (0, 16)) disagrees with the whole-tile value at local element [0, 0]: the subgroup holds 32.0, the whole tile has 16.0
// DIST-NEXT: %e = arith.mulf %a, %a
// DIST-NEXT: ^
