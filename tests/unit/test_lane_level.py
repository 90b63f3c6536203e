"""Lane-level (SIMT) execution (issue 5): SG and lane forms agree, DPAS fragments per spec/pvc-hardware.md §3.4,
block-load fragments per spec/programs-and-runner.md §3.2/§3.4, masks, and the errors of collective ops.

Expected fragments are built here directly from the spec's sentences (not through xesim.hw.layout), and expected
matrices with numpy on small integers (exact in every DPAS model)."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import xesim
from tests.conftest import run_xesim
from xesim.diagnostics import DiagnosticError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("sg, lane", [("sg_gemm_f16.mlir", "lane_gemm_f16.mlir"),
                                      ("sg_block_loads.mlir", "lane_block_loads.mlir")])
def test_lane_level_rewrite_prints_what_the_sg_form_prints(sg: str, lane: str) -> None:
    s1, out_sg, err1 = run_xesim(["run", str(EXAMPLES / sg)])
    s2, out_lane, err2 = run_xesim(["run", str(EXAMPLES / lane)])
    assert s1 == 0 and s2 == 0, err1 + err2
    assert out_lane == out_sg
    assert out_sg.count("Unranked Memref") >= 1


# ------------------------------------------------------------------------------------------------ DPAS fragments
DPAS_KERNEL = """module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @dpas(%fa: memref<{na}x{at}>, %fb: memref<{nb}x{bt}>, %fc: memref<{nc}x{ct}>, %fd: memref<{nc}x{ct}>) kernel {{
      %lane = gpu.lane_id
      %true = arith.constant true
      %ca = arith.constant {fa} : index
      %cb = arith.constant {fb} : index
      %cc = arith.constant {m} : index
      %oa = arith.muli %lane, %ca : index
      %ob = arith.muli %lane, %cb : index
      %oc = arith.muli %lane, %cc : index
      %a = xegpu.load %fa[%oa], %true <{{chunk_size = {fa} : i64}}> : memref<{na}x{at}>, index, i1 -> vector<{fa}x{at}>
      %b = xegpu.load %fb[%ob], %true <{{chunk_size = {fb} : i64}}> : memref<{nb}x{bt}>, index, i1 -> vector<{fb}x{bt}>
      %c = xegpu.load %fc[%oc], %true <{{chunk_size = {m} : i64}}> : memref<{nc}x{ct}>, index, i1 -> vector<{m}x{ct}>
      %d = xegpu.dpas %a, %b, %c : vector<{fa}x{at}>, vector<{fb}x{bt}>, vector<{m}x{ct}> -> vector<{m}x{ct}>
      xegpu.store %d, %fd[%oc], %true <{{chunk_size = {m} : i64}}> : vector<{m}x{ct}>, memref<{nc}x{ct}>, index, i1
      gpu.return
    }}
  }}
}}
"""

# (A/B type, accumulator type, numpy dtype of A/B, K, value range)
DPAS_CASES = {
    "f16": ("f16", "f32", np.float16, 16, (-4, 5)),
    "bf16": ("bf16", "f32", ml_dtypes.bfloat16, 16, (-4, 5)),
    "tf32": ("tf32", "f32", np.float32, 8, (-4, 5)),
    "i8": ("i8", "i32", np.int8, 32, (-128, 128)),
    "ui8": ("ui8", "i32", np.uint8, 32, (0, 256)),
}


def spec_a_fragments(a: np.ndarray, n: int) -> np.ndarray:
    """spec/pvc-hardware.md §3.4: K >= N: lane i holds K/N adjacent columns of every row; K < N (tf32): lane i
    component c = A[c·(N/K) + i // K][i % K]."""
    m, k = a.shape
    if k >= n:
        per = k // n
        return np.array([[a[r][i * per + p] for r in range(m) for p in range(per)] for i in range(n)])
    groups = n // k
    comps = -(-m // groups)
    return np.array([[a[c * groups + i // k][i % k] if c * groups + i // k < m else 0 for c in range(comps)]
                     for i in range(n)])


# M = 1 with 8-bit A (2 bytes per lane) or tf32 A (1 element per lane) cannot be fed through a scattered load
# (per-lane data must be a multiple of 4 bytes, spec/pvc-hardware.md §2.1), so those combinations are not generated.
DPAS_PARAMS = [(case, m) for case in sorted(DPAS_CASES) for m in (8, 4, 1)
               if not (m == 1 and case in ("i8", "ui8", "tf32"))]


@pytest.mark.parametrize("case, m", DPAS_PARAMS)
def test_lane_level_dpas_fragments_follow_the_spec(case: str, m: int) -> None:
    ab, acc, dt, k, (lo, hi) = DPAS_CASES[case]
    n = 16
    rng = np.random.default_rng(7 + m)
    a = rng.integers(lo, hi, (m, k))
    b = rng.integers(lo, hi, (k, n))
    c = rng.integers(-50, 50, (m, n))
    d = a.astype(np.int64) @ b.astype(np.int64) + c  # exact: small integers
    fa = spec_a_fragments(a, n)
    fb = np.array([[b[r][j] for r in range(k)] for j in range(n)])  # lane j: column j in row order
    fc = c.T  # lane j: column j of C
    cdt = np.int32 if acc == "i32" else np.float32
    text = DPAS_KERNEL.format(na=fa.size, nb=fb.size, nc=fc.size, at=ab if ab != "tf32" else "f32",
                              bt=ab if ab != "tf32" else "f32", ct=acc, fa=fa.shape[1], fb=fb.shape[1], m=m)
    if case == "tf32":  # tf32 operands are f32 values truncated to tf32 (exact for these small integers)
        fa_n, fb_n = fa.shape[1], fb.shape[1]
        text = text.replace(
            f"%d = xegpu.dpas %a, %b, %c : vector<{fa_n}xf32>, vector<{fb_n}xf32>",
            f"%at = arith.truncf %a : vector<{fa_n}xf32> to vector<{fa_n}xtf32>\n"
            f"      %bt = arith.truncf %b : vector<{fb_n}xf32> to vector<{fb_n}xtf32>\n"
            f"      %d = xegpu.dpas %at, %bt, %c : vector<{fa_n}xtf32>, vector<{fb_n}xtf32>")
        assert "%at" in text
    prog = xesim.load(text)
    args = [np.ascontiguousarray(fa.reshape(-1)).astype(dt), np.ascontiguousarray(fb.reshape(-1)).astype(dt),
            np.ascontiguousarray(fc.reshape(-1)).astype(cdt), np.zeros(fc.size, cdt)]
    res = xesim.launch(prog, "k::dpas", grid=(1, 1, 1), block=(16, 1, 1), args=args)
    got = res.arrays[3].reshape(n, m).T  # lane j holds column j of D
    assert np.array_equal(got.astype(np.int64), d)


# ------------------------------------------------------------------------------------------------ block fragments
LOAD_KERNEL = """module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @frag(%src: memref<{rows}x{cols}x{t}>, %out: memref<{total}x{t}>) kernel {{
      %td = xegpu.create_nd_tdesc %src : memref<{rows}x{cols}x{t}> -> !xegpu.tensor_desc<{r}x{c}x{t}{extra}>
      %v = xegpu.load_nd %td[0, 0] {attrs}: !xegpu.tensor_desc<{r}x{c}x{t}{extra}> -> vector<{f}x{t}>
      %lane = gpu.lane_id
      %cf = arith.constant {f} : index
      %off = arith.muli %lane, %cf : index
      %true = arith.constant true
      xegpu.store %v, %out[%off], %true <{{chunk_size = {f} : i64}}> : vector<{f}x{t}>, memref<{total}x{t}>, index, i1
      gpu.return
    }}
  }}
}}
"""


def _block_case(t: str, dt: type, r: int, c: int, attrs: str = "", extra: str = "", cols: int | None = None,
                frag: int | None = None) -> np.ndarray:
    cols = cols or max(c, 64 // np.dtype(dt).itemsize)
    src = (np.arange(r * cols) % 251).reshape(r, cols).astype(dt)
    a = 2 if "array_length = 2" in extra else 1
    f = frag or r * c * a // 16
    text = LOAD_KERNEL.format(rows=r, cols=cols, t=t, total=16 * f, r=r, c=c, extra=extra, attrs=attrs, f=f)
    res = xesim.launch(xesim.load(text), "k::frag", args=[src, np.zeros(16 * f, dt)])
    return src, res.arrays[1].reshape(16, f)


def test_plain_16bit_load_gives_lane_l_column_l() -> None:
    src, frags = _block_case("f16", np.float16, 8, 16)
    for lane in range(16):
        assert np.array_equal(frags[lane], src[:8, lane])


def test_packed_16bit_load_gives_lane_l_column_l_in_row_order() -> None:
    src, frags = _block_case("f16", np.float16, 16, 16, attrs="<{packed}> ")
    for lane in range(16):
        assert np.array_equal(frags[lane], src[:16, lane])


def test_array_length_concatenates_the_blocks_per_lane() -> None:
    # spec §3.2: block 0's column l, then block 1's column l (block 1 = the next 16 columns)
    src, frags = _block_case("f16", np.float16, 8, 16, extra=", #xegpu.block_tdesc_attr<array_length = 2>")
    for lane in range(16):
        assert np.array_equal(frags[lane], np.concatenate([src[:8, lane], src[:8, 16 + lane]]))


def test_transposed_32bit_load_gives_lane_l_row_l() -> None:
    src, frags = _block_case("f32", np.float32, 16, 8, attrs="<{transpose = array<i64: 1, 0>}> ")
    for lane in range(16):
        assert np.array_equal(frags[lane], src[lane, :8])


def test_plain_8bit_load_gives_lane_l_two_adjacent_columns_per_row() -> None:
    # spec §3.4 PVC rules: A 8-bit lane_data [1, 2]
    src, frags = _block_case("i8", np.int8, 8, 32)
    for lane in range(16):
        want = [src[r][2 * lane + p] for r in range(8) for p in range(2)]
        assert np.array_equal(frags[lane], want)


def test_fragment_length_mismatch_is_a_located_error() -> None:
    with pytest.raises(DiagnosticError) as exc:
        _block_case("f16", np.float16, 8, 16, frag=4)
    assert "each lane holds 8 elements of this tile" in str(exc.value)


# ------------------------------------------------------------------------------------------------ scattered, atomics
SCATTER_KERNEL = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @scat(%src: memref<64xf32>, %out: memref<64xf32>, %cnt: memref<4xi32>, %old: memref<16xi32>) kernel {
      %lane = gpu.lane_id
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c15 = arith.constant 15 : index
      // lane l reads src[2 * (15 - l)], src[2 * (15 - l) + 1]; odd lanes are masked off (read 0)
      %rev = arith.subi %c15, %lane : index
      %off = arith.muli %rev, %c2 : index
      %par = arith.remui %lane, %c2 : index
      %even = arith.cmpi eq, %par, %c0 : index
      %v = xegpu.load %src[%off], %even <{chunk_size = 2 : i64}> : memref<64xf32>, index, i1 -> vector<2xf32>
      // every lane writes its pair at 2 * l
      %true = arith.constant true
      %o2 = arith.muli %lane, %c2 : index
      xegpu.store %v, %out[%o2], %true <{chunk_size = 2 : i64}> : vector<2xf32>, memref<64xf32>, index, i1
      // lane l adds l + 1 to cnt[l mod 4]
      %offs = arith.constant dense<[0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]> : vector<16xindex>
      %td = xegpu.create_tdesc %cnt, %offs : memref<4xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %l32 = arith.index_cast %lane : index to i32
      %one = arith.constant 1 : i32
      %lp1 = arith.addi %l32, %one : i32
      %val = vector.broadcast %lp1 : i32 to vector<1xi32>
      %r = xegpu.atomic_rmw addi %td, %true, %val : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, i1, vector<1xi32> -> vector<1xi32>
      %r0 = vector.extract %r[0] : i32 from vector<1xi32>
      memref.store %r0, %old[%lane] : memref<16xi32>
      gpu.return
    }
  }
}
"""


def test_lane_level_scattered_load_store_and_atomics() -> None:
    text = SCATTER_KERNEL.replace("%rev = arith.subi", "%c0 = arith.constant 0 : index\n      %rev = arith.subi")
    src = np.arange(64, dtype=np.float32) + 100
    res = xesim.launch(xesim.load(text), "k::scat",
                       args=[src, np.zeros(64, np.float32), np.zeros(4, np.int32), np.zeros(16, np.int32)])
    out, cnt, old = res.arrays[1], res.arrays[2], res.arrays[3]
    for lane in range(16):
        want = src[2 * (15 - lane): 2 * (15 - lane) + 2] if lane % 2 == 0 else [0, 0]
        assert list(out[2 * lane: 2 * lane + 2]) == list(want)
    assert list(cnt) == [sum(lane + 1 for lane in range(16) if lane % 4 == j) for j in range(4)]
    # lanes of one counter update it one after another in lane order: old = sum of the lower lanes' additions
    for lane in range(16):
        assert old[lane] == sum(q + 1 for q in range(lane % 4, lane, 4))


LANE_LOCAL_KERNEL = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @local(%src: memref<16x16xf32>, %halves: memref<256xf16>, %sums: memref<16xf32>) kernel {
      %td = xegpu.create_nd_tdesc %src : memref<16x16xf32> -> !xegpu.tensor_desc<16x8xf32>
      %row = xegpu.load_nd %td[0, 0] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x8xf32> -> vector<8xf32>
      %h = vector.bitcast %row : vector<8xf32> to vector<16xf16>
      %s = vector.reduction <add>, %row : vector<8xf32> into f32
      %lane = gpu.lane_id
      %c16 = arith.constant 16 : index
      %off = arith.muli %lane, %c16 : index
      %true = arith.constant true
      xegpu.store %h, %halves[%off], %true <{chunk_size = 16 : i64}> : vector<16xf16>, memref<256xf16>, index, i1
      memref.store %s, %sums[%lane] : memref<16xf32>
      gpu.return
    }
  }
}
"""


def test_vector_ops_on_a_fragment_stay_inside_the_lane() -> None:
    # spec §3.2: vector.bitcast vector<8xf32> to vector<16xf16> on a transposed-load fragment is lane-local
    src = (np.arange(256, dtype=np.float32).reshape(16, 16) * 0.5 + 1)
    res = xesim.launch(xesim.load(LANE_LOCAL_KERNEL), "k::local",
                       args=[src, np.zeros(256, np.float16), np.zeros(16, np.float32)])
    halves, sums = res.arrays[1].reshape(16, 16), res.arrays[2]
    for lane in range(16):
        row = src[lane, :8]
        assert halves[lane].tobytes() == row.tobytes()
        assert sums[lane] == np.float32(row.astype(np.float64).sum())  # exact: halves of small integers


def test_explicit_lane_layout_with_order_is_honoured() -> None:
    # lane_layout [2, 8], order [0, 1]: dim 0 is fastest, so lane l sits at (l mod 2, l div 2); units of 2x8 are
    # taken row-major and the lane owns element coord + unit offset in each (spec/programs-and-runner.md §3.4)
    kernel = LANE_LAYOUT_KERNEL
    src = np.arange(128, dtype=np.float32).reshape(8, 16)
    res = xesim.launch(xesim.load(kernel), "k::frag", args=[src, np.zeros(128, np.float32)])
    frags = res.arrays[1].reshape(16, 8)
    for lane in range(16):
        r0, c0 = lane % 2, lane // 2
        want = [src[ur * 2 + r0][uc * 8 + c0] for ur in range(4) for uc in range(2)]
        assert list(frags[lane]) == want


LANE_LAYOUT_KERNEL = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @frag(%src: memref<8x16xf32>, %out: memref<128xf32>) kernel {
      %td = xegpu.create_nd_tdesc %src : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %v = xegpu.load_nd %td[0, 0] {layout_result_0 = #xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1], order = [0, 1]>} : !xegpu.tensor_desc<8x16xf32> -> vector<8xf32>
      %lane = gpu.lane_id
      %c8 = arith.constant 8 : index
      %off = arith.muli %lane, %c8 : index
      %true = arith.constant true
      xegpu.store %v, %out[%off], %true <{chunk_size = 8 : i64}> : vector<8xf32>, memref<128xf32>, index, i1
      gpu.return
    }
  }
}"""


# ------------------------------------------------------------------------------------------------ masks and faults
DIV_KERNEL = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @div(%out: memref<16xi32>, %dup: memref<4xi32>, %big: index) kernel {
      %lane = gpu.lane_id
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %l32 = arith.index_cast %lane : index to i32
      %z = arith.constant 0 : i32
      %hundred = arith.constant 100 : i32
      %nz = arith.cmpi ne, %l32, %z : i32
      %q = scf.if %nz -> (i32) {
        %d = arith.divsi %hundred, %l32 : i32
        scf.yield %d : i32
      } else {
        %m = arith.constant -1 : i32
        scf.yield %m : i32
      }
      %i = arith.addi %lane, %big : index
      memref.store %q, %out[%i] : memref<16xi32>
      %j = arith.remui %lane, %c4 : index
      memref.store %l32, %dup[%j] : memref<4xi32>
      gpu.return
    }
  }
}"""


def test_masked_off_lanes_do_not_fault_and_colliding_stores_keep_lane_order() -> None:
    res = xesim.launch(xesim.load(DIV_KERNEL), "k::div", args=[np.zeros(16, np.int32), np.zeros(4, np.int32), 0])
    assert list(res.arrays[0]) == [-1] + [100 // lane for lane in range(1, 16)]
    assert list(res.arrays[1]) == [12, 13, 14, 15]  # lanes j, j+4, j+8, j+12 store in lane order


def test_an_out_of_bounds_lane_is_named() -> None:
    with pytest.raises(DiagnosticError) as exc:
        xesim.launch(xesim.load(DIV_KERNEL), "k::div", args=[np.zeros(16, np.int32), np.zeros(4, np.int32), 1])
    text = str(exc.value)
    assert "'memref.store' op" in text and "lane 15" in text


SHUFFLE_KERNEL = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @shuf(%out: memref<96xi32>) kernel {
      %lane = gpu.lane_id
      %l32 = arith.index_cast %lane : index to i32
      %c10 = arith.constant 10 : i32
      %v = arith.muli %l32, %c10 : i32
      %two = arith.constant 2 : i32
      %four = arith.constant 4 : i32
      %w8 = arith.constant 8 : i32
      %w16 = arith.constant 16 : i32
      %c15 = arith.constant 15 : i32
      %rev = arith.subi %c15, %l32 : i32
      %u, %uok = gpu.shuffle up %v, %two, %w16 : i32
      %x, %xok = gpu.shuffle xor %v, %four, %w8 : i32
      %r, %rok = gpu.shuffle idx %v, %rev, %w16 : i32
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c48 = arith.constant 48 : index
      %c64 = arith.constant 64 : index
      %c80 = arith.constant 80 : index
      %i1 = arith.addi %lane, %c16 : index
      %i2 = arith.addi %lane, %c32 : index
      %i3 = arith.addi %lane, %c48 : index
      %i4 = arith.addi %lane, %c64 : index
      %i5 = arith.addi %lane, %c80 : index
      %uok32 = arith.extui %uok : i1 to i32
      %xok32 = arith.extui %xok : i1 to i32
      %rok32 = arith.extui %rok : i1 to i32
      memref.store %u, %out[%lane] : memref<96xi32>
      memref.store %uok32, %out[%i1] : memref<96xi32>
      memref.store %x, %out[%i2] : memref<96xi32>
      memref.store %xok32, %out[%i3] : memref<96xi32>
      memref.store %r, %out[%i4] : memref<96xi32>
      memref.store %rok32, %out[%i5] : memref<96xi32>
      gpu.return
    }
  }
}"""


def test_shuffle_modes_width_and_valid_flag() -> None:
    # MLIR gpu.shuffle: up reads lane - offset, xor lane ^ offset, idx the given lane; valid = source in
    # [0, width); an invalid lane gets its own value (target parameter subgroup.shuffle_invalid_result = own)
    res = xesim.launch(xesim.load(SHUFFLE_KERNEL), "k::shuf", args=[np.zeros(96, np.int32)])
    out = res.arrays[0].reshape(6, 16)
    lanes = range(16)
    up_ok = [1 if lane >= 2 else 0 for lane in lanes]
    assert list(out[1]) == up_ok
    assert list(out[0]) == [10 * (lane - 2) if ok else 10 * lane for lane, ok in zip(lanes, up_ok)]
    xor_ok = [1 if (lane ^ 4) < 8 else 0 for lane in lanes]
    assert list(out[3]) == xor_ok
    assert list(out[2]) == [10 * (lane ^ 4) if ok else 10 * lane for lane, ok in zip(lanes, xor_ok)]
    assert list(out[4]) == [10 * (15 - lane) for lane in lanes] and list(out[5]) == [1] * 16
