"""XeVM execution beyond the whole programs of tests/e2e/xevm_*.mlir (shared/spec/upstream-xegpu-xevm.md §4): located
runtime faults (an out-of-bounds llvm.load names the op, the lane and the rule), the conversions against ml_dtypes,
1-D subgroup block I/O and bitcast_shuffle against the spec's lane rules, and the level check.  Expected values are
computed here from the spec's formulas with numpy / ml_dtypes."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np

from tests.conftest import run_xesim

HOST_PTR = """    %{n}_i = memref.extract_aligned_pointer_as_index %{n} : {t} -> index
    %{n}_64 = arith.index_cast %{n}_i : index to i64
    %{n}_p = llvm.inttoptr %{n}_64 : i64 to !llvm.ptr<1>
"""


def _write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "prog.mlir"
    p.write_text(text)
    return str(p)


def _ints(line: str) -> list[int]:
    return [int(x) for x in line.strip().strip("()").split(",")]


def test_an_out_of_bounds_llvm_load_is_a_located_fault_naming_the_lane(tmp_path: Path) -> None:
    prog = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%p: !llvm.ptr<1>) kernel {
      %lane = xevm.lane_id : i32
      %two = arith.constant 2 : i32
      %i = arith.muli %lane, %two : i32
      %q = llvm.getelementptr %p[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %v = llvm.load %q : !llvm.ptr<1> -> f32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc () : memref<16xf32>
""" + HOST_PTR.format(n="a", t="memref<16xf32>") + """    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a_p : !llvm.ptr<1>)
    return
  }
}
"""
    status, _, err = run_xesim(["run", _write(tmp_path, prog)])
    assert status == 1
    # lane 8 is the first whose element 2·8 = 16 lies past the 16-element allocation
    assert "prog.mlir:8:7: error: 'llvm.load' op load of 4 bytes through pointer 0x" in err
    assert "outside any global allocation" in err and "an access must lie inside one live allocation" in err
    assert "subgroup 0, lane 8)" in err
    assert "Traceback" not in err
    assert "      %v = llvm.load %q : !llvm.ptr<1> -> f32\n      ^" in err


def test_truncf_and_extf_follow_ml_dtypes_rounding_and_the_e2m1_packing(tmp_path: Path) -> None:
    vals = np.array([0.0, 1.0, -1.5, 0.3, 3.7, -250.0, 60000.0, 0.0078, 6.0, -0.26, 2.5, 448.0, 500.0, -3.0, 0.75, 5.0],
                    np.float16)
    text = ", ".join(repr(float(v)) for v in vals)
    prog = f"""func.func @main() {{
  %h = arith.constant dense<[{text}]> : vector<16xf16>
  %b8 = xevm.truncf %h {{src_etype = f16, dst_etype = bf8}} : (vector<16xf16>) -> vector<16xi8>
  %f8 = xevm.truncf %h {{src_etype = f16, dst_etype = f8}} : (vector<16xf16>) -> vector<16xi8>
  %e2 = xevm.truncf %h {{src_etype = f16, dst_etype = e2m1}} : (vector<16xf16>) -> vector<8xi8>
  %b8u = arith.extui %b8 : vector<16xi8> to vector<16xi32>
  %f8u = arith.extui %f8 : vector<16xi8> to vector<16xi32>
  %e2u = arith.extui %e2 : vector<8xi8> to vector<8xi32>
  vector.print %b8u : vector<16xi32>
  vector.print %f8u : vector<16xi32>
  vector.print %e2u : vector<8xi32>
  %back = xevm.extf %e2 {{src_etype = e2m1, dst_etype = f16}} : (vector<8xi8>) -> vector<16xf16>
  %backf = arith.extf %back : vector<16xf16> to vector<16xf32>
  vector.print %backf : vector<16xf32>
  return
}}
"""
    status, out, err = run_xesim(["run", _write(tmp_path, prog)])
    assert status == 0, err
    lines = out.splitlines()
    f32 = vals.astype(np.float32)
    assert _ints(lines[0]) == f32.astype(ml_dtypes.float8_e5m2).view(np.uint8).tolist()
    assert _ints(lines[1]) == f32.astype(ml_dtypes.float8_e4m3fn).view(np.uint8).tolist()
    codes = f32.astype(ml_dtypes.float4_e2m1fn).view(np.uint8) & 0xF
    assert _ints(lines[2]) == (codes[0::2] | (codes[1::2] << 4)).tolist()  # element 2j in the low nibble (§4.7)
    back = codes.view(ml_dtypes.float4_e2m1fn).astype(np.float32)
    assert [float(x) for x in lines[3].strip("() ").split(",")] == back.tolist()


def test_one_dimensional_block_io_maps_lane_i_component_k_to_element_i_plus_16k(tmp_path: Path) -> None:
    # lane i loads vector<4xi32> (components ptr[i + 16k]), adds 1000·i, and stores it back the same way
    prog = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%p: !llvm.ptr<1>, %o: !llvm.ptr<1>) kernel {
      %v = xevm.blockload %p : (!llvm.ptr<1>) -> vector<4xi32>
      %lane = xevm.lane_id : i32
      %k = arith.constant 1000 : i32
      %l = arith.muli %lane, %k : i32
      %lv = vector.broadcast %l : i32 to vector<4xi32>
      %w = arith.addi %v, %lv : vector<4xi32>
      xevm.blockstore %o, %w : (!llvm.ptr<1>, vector<4xi32>)
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %h = memref.alloc () : memref<64xi32>
    scf.for %i = %c0 to %c64 step %c1 {
      %x = arith.index_cast %i : index to i32
      memref.store %x, %h[%i] : memref<64xi32>
    }
    %a = gpu.alloc () : memref<64xi32>
    %b = gpu.alloc () : memref<64xi32>
    gpu.memcpy %a, %h : memref<64xi32>, memref<64xi32>
""" + HOST_PTR.format(n="a", t="memref<64xi32>") + HOST_PTR.format(n="b", t="memref<64xi32>") + """    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a_p : !llvm.ptr<1>, %b_p : !llvm.ptr<1>)
    gpu.memcpy %h, %b : memref<64xi32>, memref<64xi32>
    %v = vector.load %h[%c0] : memref<64xi32>, vector<64xi32>
    vector.print %v : vector<64xi32>
    return
  }
}
"""
    status, out, err = run_xesim(["run", _write(tmp_path, prog)])
    assert status == 0, err
    e = np.arange(64)
    assert _ints(out.splitlines()[0]) == (e + 1000 * (e % 16)).tolist()  # element e = lane e mod 16, component e div 16


def test_bitcast_shuffle_pack_recuts_the_subgroup_units_in_order(tmp_path: Path) -> None:
    # lane i holds vector<2xi16> [i, 100 + i]; the subgroup's 16-bit units are u[c·16 + i]; lane i's i32 result is
    # units 2i (low half) and 2i + 1 (high half)  (§4.9)
    prog = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: !llvm.ptr<1>) kernel {
      %lane = xevm.lane_id : i32
      %l16 = llvm.trunc %lane : i32 to i16
      %h = arith.constant 100 : i16
      %hi = arith.addi %l16, %h : i16
      %z = arith.constant dense<0> : vector<2xi16>
      %v0 = vector.insert %l16, %z [0] : i16 into vector<2xi16>
      %v = vector.insert %hi, %v0 [1] : i16 into vector<2xi16>
      %r = xevm.bitcast_shuffle %v : (vector<2xi16>) -> i32
      %q = llvm.getelementptr %o[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %r, %q : i32, !llvm.ptr<1>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %b = gpu.alloc () : memref<16xi32>
""" + HOST_PTR.format(n="b", t="memref<16xi32>") + """    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%b_p : !llvm.ptr<1>)
    %h = memref.alloc () : memref<16xi32>
    gpu.memcpy %h, %b : memref<16xi32>, memref<16xi32>
    %v = vector.load %h[%c0] : memref<16xi32>, vector<16xi32>
    vector.print %v : vector<16xi32>
    return
  }
}
"""
    status, out, err = run_xesim(["run", _write(tmp_path, prog)])
    assert status == 0, err
    units = [i for i in range(16)] + [100 + i for i in range(16)]  # u[c·16 + i] = component c of lane i
    want = [units[2 * i] | (units[2 * i + 1] << 16) for i in range(16)]
    assert _ints(out.splitlines()[0]) == want


def test_bitcast_shuffle_unpack_inverts_pack(tmp_path: Path) -> None:
    # unpack (scalar -> vector) re-cuts the same bit string the other way (§4.9): pack then unpack is the identity
    status, out, err = run_xesim(["run", _write(tmp_path, UNPACK)])
    assert status == 0, err
    assert _ints(out.splitlines()[0]) == [i | ((100 + i) << 16) for i in range(16)]


UNPACK = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: !llvm.ptr<1>) kernel {
      %lane = xevm.lane_id : i32
      %l16 = llvm.trunc %lane : i32 to i16
      %h = arith.constant 100 : i16
      %hi = arith.addi %l16, %h : i16
      %z = arith.constant dense<0> : vector<2xi16>
      %v0 = vector.insert %l16, %z [0] : i16 into vector<2xi16>
      %v = vector.insert %hi, %v0 [1] : i16 into vector<2xi16>
      %r = xevm.bitcast_shuffle %v : (vector<2xi16>) -> i32
      %u = xevm.bitcast_shuffle %r : (i32) -> vector<2xi16>
      %w = llvm.bitcast %u : vector<2xi16> to i32
      %q = llvm.getelementptr %o[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %w, %q : i32, !llvm.ptr<1>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %b = gpu.alloc () : memref<16xi32>
""" + HOST_PTR.format(n="b", t="memref<16xi32>") + """    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%b_p : !llvm.ptr<1>)
    %h = memref.alloc () : memref<16xi32>
    gpu.memcpy %h, %b : memref<16xi32>, memref<16xi32>
    %v = vector.load %h[%c0] : memref<16xi32>, vector<16xi32>
    vector.print %v : vector<16xi32>
    return
  }
}
"""


def test_an_xevm_op_in_a_subgroup_level_kernel_is_a_located_error(tmp_path: Path) -> None:
    prog = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<8x16xf32>, %p: !llvm.ptr<1>) kernel {
      %t = xegpu.create_nd_tdesc %m : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %v = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %w = xevm.blockload %p : (!llvm.ptr<1>) -> vector<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc () : memref<8x16xf32>
""" + HOST_PTR.format(n="a", t="memref<8x16xf32>") + """    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<8x16xf32>, %a_p : !llvm.ptr<1>)
    return
  }
}
"""
    status, _, err = run_xesim(["run", _write(tmp_path, prog)])
    assert status == 1
    assert "prog.mlir:6:7: error: 'xevm.blockload' op needs a lane-level kernel" in err


def test_a_short_stored_value_is_a_located_fault(tmp_path: Path) -> None:
    prog = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%p: !llvm.ptr<1>) kernel {
      %w = arith.constant 64 : i32
      %h = arith.constant 8 : i32
      %z = arith.constant 0 : i32
      %v = arith.constant dense<1> : vector<4xi32>
      xevm.blockstore2d %p, %w, %h, %w, %z, %z, %v <{elem_size_in_bits = 32 : i32, tile_height = 8 : i32, tile_width = 16 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<4xi32>)
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc () : memref<8x16xf32>
""" + HOST_PTR.format(n="a", t="memref<8x16xf32>") + """    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a_p : !llvm.ptr<1>)
    return
  }
}
"""
    status, _, err = run_xesim(["run", _write(tmp_path, prog)])
    assert status == 1
    assert ("'xevm.blockstore2d' op the stored value holds 16 bytes per lane, the 8x16 block of 32-bit elements "
            "takes 32") in err


RACE = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: !llvm.ptr<1>) kernel {
      %lane = xevm.lane_id : i32
      %sg = xevm.subgroup_id : i32
      %q = llvm.getelementptr %o[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %sg, %q : i32, !llvm.ptr<1>
BARRIER      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %b = gpu.alloc () : memref<16xi32>
""" + HOST_PTR.format(n="b", t="memref<16xi32>") + """    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%b_p : !llvm.ptr<1>)
    gpu.dealloc %b : memref<16xi32>
    return
  }
}
"""


def test_the_race_detector_sees_llvm_stores_of_two_subgroups(tmp_path: Path) -> None:
    status, _, err = run_xesim(["run", "--check-races", _write(tmp_path, RACE.replace("BARRIER", ""))])
    assert status == 1
    assert "'llvm.store' op data race: subgroup 1 writes 4 byte(s) at 0x" in err
    assert "that subgroup 0 wrote with 'llvm.store'" in err


def test_the_memory_checker_sees_what_xevm_block_stores_wrote() -> None:
    # D is fresh gpu.alloc memory written only by the kernel's xevm.blockstore2d: without its footprint the host's read-back
    # would be reported as reading bytes nothing has written
    prog = Path(__file__).resolve().parents[2] / "tests" / "e2e" / "xevm_mma.mlir"
    status, _, err = run_xesim(["run", "--check-memory", str(prog)])
    assert status == 0, err
    assert "memory check (--check-memory=init,bounds,leaks): no findings" in err


def test_int8_mma_without_accumulator_packs_two_columns_of_a_per_i16(tmp_path: Path) -> None:
    # §4.5: s8 A 8x32 (lane i holds A[r][2i..2i+1] in one i16: the plain 8-bit 8x32 load bit cast), B 32x16 packed
    # four k per dword (pack_register), no C: D = A·B in s32.  Expected: numpy's integer matmul.
    rng = np.random.default_rng(5)
    a = rng.integers(-128, 128, (8, 64)).astype(np.int8)  # a 64-byte-wide surface (pvc's minimum); K = 32 of it
    b = rng.integers(-128, 128, (32, 64)).astype(np.int8)
    want = a[:, :32].astype(np.int64) @ b[:, :16].astype(np.int64)

    def dense(m: np.ndarray) -> str:
        return "[" + ", ".join("[" + ", ".join(str(int(x)) for x in r) + "]" for r in m) + "]"

    load = ("<{{elem_size_in_bits = 8 : i32, pack_register = {pk}, tile_height = {th} : i32, tile_width = {tw} : i32, "
            "transpose = false, v_blocks = 1 : i32}}>")
    prog = f"""module attributes {{gpu.container_module}} {{
  memref.global "private" constant @A : memref<8x64xi8> = dense<{dense(a)}>
  memref.global "private" constant @B : memref<32x64xi8> = dense<{dense(b)}>
  gpu.module @k {{
    gpu.func @f(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %d: !llvm.ptr<1>) kernel {{
      %w = arith.constant 64 : i32
      %h8 = arith.constant 8 : i32
      %h32 = arith.constant 32 : i32
      %z = arith.constant 0 : i32
      %a8 = xevm.blockload2d %a, %w, %h8, %w, %z, %z {load.format(pk="false", th=8, tw=32)} : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<16xi8>
      %a16 = llvm.bitcast %a8 : vector<16xi8> to vector<8xi16>
      %b32 = xevm.blockload2d %b, %w, %h32, %w, %z, %z {load.format(pk="true", th=32, tw=16)} : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
      %r = xevm.mma %a16, %b32 {{shape = <m = 8, n = 16, k = 32>, types = <d = s32, a = s8, b = s8>}} : (vector<8xi16>, vector<8xi32>) -> vector<8xi32>
      %lane = xevm.lane_id : i32
      %q = llvm.getelementptr %d[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<8xi32>
      llvm.store %r, %q : vector<8xi32>, !llvm.ptr<1>
      gpu.return
    }}
  }}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %ga = memref.get_global @A : memref<8x64xi8>
    %gb = memref.get_global @B : memref<32x64xi8>
    %a = gpu.alloc () : memref<8x64xi8>
    %b = gpu.alloc () : memref<32x64xi8>
    %d = gpu.alloc () : memref<128xi32>
    gpu.memcpy %a, %ga : memref<8x64xi8>, memref<8x64xi8>
    gpu.memcpy %b, %gb : memref<32x64xi8>, memref<32x64xi8>
""" + HOST_PTR.format(n="a", t="memref<8x64xi8>") + HOST_PTR.format(n="b", t="memref<32x64xi8>") \
        + HOST_PTR.format(n="d", t="memref<128xi32>") + """    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a_p : !llvm.ptr<1>, %b_p : !llvm.ptr<1>, %d_p : !llvm.ptr<1>)
    %h = memref.alloc () : memref<128xi32>
    gpu.memcpy %h, %d : memref<128xi32>, memref<128xi32>
    %v = vector.load %h[%c0] : memref<128xi32>, vector<128xi32>
    vector.print %v : vector<128xi32>
    return
  }
}
"""
    status, out, err = run_xesim(["run", _write(tmp_path, prog)])
    assert status == 0, err
    got = np.array(_ints(out.splitlines()[0])).reshape(16, 8)  # lane j, component r = D[r][j]
    assert np.array_equal(got.T, want)


def test_a_2d_block_surface_beyond_its_allocation_is_a_located_fault(tmp_path: Path) -> None:
    # the surface claims 8 rows of 64 bytes, the allocation holds one: row 1 of the block lies outside it
    prog = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%p: !llvm.ptr<1>) kernel {
      %w = arith.constant 64 : i32
      %h = arith.constant 8 : i32
      %z = arith.constant 0 : i32
      %v = xevm.blockload2d %p, %w, %h, %w, %z, %z <{elem_size_in_bits = 32 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc () : memref<16xf32>
""" + HOST_PTR.format(n="a", t="memref<16xf32>") + """    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a_p : !llvm.ptr<1>)
    return
  }
}
"""
    status, _, err = run_xesim(["run", _write(tmp_path, prog)])
    assert status == 1
    assert "prog.mlir:7:7: error: 'xevm.blockload2d' op 2D block load (8x16x1, 4-byte) at (0, 0), surface row 1:" in err
    assert "a 2D block message reads or writes only inside live allocations" in err and "subgroup 0" in err
