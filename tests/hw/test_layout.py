"""Layout maps (xesim/hw/layout.py) against literal readings of the spec sentences.

Every expected value below is written out from the sentence it quotes (nested Python loops / list literals), never
computed with the code under test.  Property tests (bijections, random WG layouts) are in test_layout_props.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from xesim.hw.layout import (
    DpasLayout,
    LaneLayout,
    LayoutMapError,
    SliceLayout,
    WgLayout,
    block_lane_coords,
    delinearize,
    image_of_lane_components,
    image_slot,
    lane_component_of_image,
    lane_unit_elems,
    linearize,
    split_tile,
    target_lane_layout,
)
from xesim.hw.params import load_target

PVC = load_target("pvc")
SG = PVC.subgroup.size


def tl(name: str) -> LaneLayout:
    return target_lane_layout(PVC, name)


def numbered(*shape: int) -> np.ndarray:
    return np.arange(int(np.prod(shape))).reshape(shape)


# ----------------------------------------------------------------------------------------------- [layout] TOML
def test_pvc_default_lane_layouts_are_data_with_sources() -> None:
    # spec/programs-and-runner.md §3.4 "PVC rules"
    expected = {
        "dpas_a_16bit": ([1, 16], [1, 1]),
        "dpas_b_16bit": ([1, 16], [2, 1]),
        "dpas_b_8bit": ([1, 16], [4, 1]),
        "dpas_a_8bit": ([1, 16], [1, 2]),
        "dpas_cd_32bit": ([1, 16], [1, 1]),
        "load_transpose_32bit": ([16, 1], [1, 1]),
    }
    for name, (ll, ld) in expected.items():
        lay = tl(name)
        assert list(lay.lane_layout) == ll and list(lay.lane_data) == ld and lay.order is None
        for field in ("lane_layout", "lane_data"):
            assert "§3.4" in PVC.source_of(f"layout.{name}.{field}")
        assert lay.num_lanes == SG


# ----------------------------------------------------------------------------------------------- §3.2 SIMT sentences
@pytest.mark.parametrize("rows,cols", [(8, 16), (16, 16), (32, 16), (1, 16)])
def test_lane_l_owns_column_l_in_row_order(rows: int, cols: int) -> None:
    """§3.2: with the default lane_layout = [1, 16], lane l owns column l; the per-lane vector lists that
    column's elements in row order."""
    tile = numbered(rows, cols)
    frags = tl("dpas_a_16bit").gather_fragments(tile)
    assert frags.shape == (SG, rows)
    for lane in range(SG):
        assert list(frags[lane]) == [tile[r][lane] for r in range(rows)]


def test_vnni_lane_data_2x1_same_order_pairs_of_rows() -> None:
    """§3.2: for lane_data = [2,1] (VNNI B for 16-bit) the order is the same (pairs of consecutive rows)."""
    tile = numbered(16, 16)
    lay = tl("dpas_b_16bit")
    frags = lay.gather_fragments(tile)
    for lane in range(SG):
        assert list(frags[lane]) == [tile[r][lane] for r in range(16)]
        pairs = [(frags[lane][2 * k], frags[lane][2 * k + 1]) for k in range(8)]
        assert pairs == [(tile[2 * k][lane], tile[2 * k + 1][lane]) for k in range(8)]
    # B 8-bit lane_data [4, 1]: groups of four consecutive rows, still row order
    tile8 = numbered(32, 16)
    frags8 = tl("dpas_b_8bit").gather_fragments(tile8)
    for lane in range(SG):
        assert list(frags8[lane]) == [tile8[r][lane] for r in range(32)]


@pytest.mark.parametrize("layout_name", ["dpas_a_16bit", "dpas_b_16bit"])
def test_array_length_block0_column_then_block1(layout_name: str) -> None:
    """§3.2: with array_length = a the per-lane vector is block 0's column l, then block 1's column l, …
    (tensor_desc<32x16xf16, array_length = 2> -> vector<64xf16>)."""
    lay = tl(layout_name)
    blocks = numbered(2, 32, 16)  # [a, R, C]: block j = memory columns j*16 .. j*16+15 (§3.3)
    frags = lay.gather_fragments(blocks, array_length=2)
    assert frags.shape == (SG, 64)
    assert lay.fragment_shape((32, 16), array_length=2) == (64,)
    for lane in range(SG):
        expected = [blocks[0][r][lane] for r in range(32)] + [blocks[1][r][lane] for r in range(32)]
        assert list(frags[lane]) == expected
    # four blocks of 8x16
    b4 = numbered(4, 8, 16)
    f4 = lay.gather_fragments(b4, array_length=4)
    for lane in range(SG):
        assert list(f4[lane]) == [b4[j][r][lane] for j in range(4) for r in range(8)]
    # scalar maps agree: block index first
    assert lay.element((32, 16), 5, 33, array_length=2) == (1, 1, 5)
    assert lay.owner((32, 16), (1, 1, 5), array_length=2) == (5, 33)
    assert np.array_equal(lay.scatter_fragments(frags, (32, 16), array_length=2), blocks)


def test_transpose_lane_l_gets_row_l() -> None:
    """§3.2: for transpose = [1,0] on tensor_desc<R×C> lane l gets row l (tensor_desc<16x8xf32> -> vector<8xf32>)."""
    lay = tl("load_transpose_32bit")
    tdesc = numbered(16, 8)
    frags = lay.gather_fragments(tdesc)
    assert lay.fragment_shape((16, 8)) == (8,)
    for lane in range(SG):
        assert list(frags[lane]) == list(tdesc[lane])
        # i.e. column l of the transposed tile
        assert list(frags[lane]) == [tdesc.T[r][lane] for r in range(8)]


def test_transposed_16bit_pairs_via_32bit_bitcast_is_lane_local() -> None:
    """§3.2: vector.bitcast vector<8xf32> to vector<16xf16> on a transposed-32-bit fragment is lane-local: lane l
    holds row l of the 16x16 f16 descriptor as 8 pairs, i.e. lane_layout [16,1] with lane_data [1,2]."""
    f16 = (numbered(16, 16) + 1).astype(np.float16)
    as32 = f16.view(np.uint32)  # 16x8 dwords, each = a pair of adjacent f16 of a row (little endian)
    frags32 = tl("load_transpose_32bit").gather_fragments(as32)
    lane_local = np.ascontiguousarray(frags32).view(np.float16)  # per-lane bitcast 8xi32 -> 16xf16
    frags16 = LaneLayout((16, 1), (1, 2)).gather_fragments(f16)
    for lane in range(SG):
        assert list(lane_local[lane]) == list(f16[lane]) == list(frags16[lane])


@pytest.mark.parametrize("shape,array_length,expected", [
    ((8, 16), 1, 8), ((16, 16), 1, 16), ((32, 16), 2, 64), ((8, 16), 2, 16), ((16, 16), 2, 32),
])
def test_simt_fragment_shapes_of_real_programs(shape: tuple[int, int], array_length: int, expected: int) -> None:
    """§3.2 SIMT shapes and the §4.4 rule: Πshape·a / (SG·lds)·lds."""
    assert tl("dpas_a_16bit").fragment_shape(shape, array_length) == (expected,)
    assert tl("dpas_b_16bit").fragment_shape(shape, array_length) == (expected,)


def test_fragment_shape_rule_section_4_4() -> None:
    # lane_data_size 2: 16 * 32 / (16 * 2) * 2 = 32 ; lane_data [1,2] with 8x32 (int8 A): 16
    assert LaneLayout((1, 16), (2, 1)).fragment_shape((16, 32)) == (32,)
    assert tl("dpas_a_8bit").fragment_shape((8, 32)) == (16,)
    # scattered: shape[0] == lane_layout[0], fragment = [chunk_size]
    assert LaneLayout.scattered(16, 4).fragment_shape((16, 4), chunk_size=4) == (4,)
    assert LaneLayout.scattered(16, 1).fragment_shape((16,), chunk_size=1) == (1,)
    with pytest.raises(LayoutMapError):
        LaneLayout.scattered(16, 4).fragment_shape((8, 4), chunk_size=4)
    # shape[i] % (LL[i]·LD[i]) != 0
    for bad in [(8, 8), (3, 16), (8, 24)]:
        with pytest.raises(LayoutMapError, match="cannot distribute"):
            tl("dpas_b_16bit").fragment_shape(bad)
    with pytest.raises(LayoutMapError, match="rank"):
        tl("dpas_a_16bit").fragment_shape((128,))


@pytest.mark.parametrize("chunk", [1, 2, 3, 4, 8])
def test_scattered_chunks_lane_i_gets_its_chunk(chunk: int) -> None:
    """§3.2 SIMT / §2.1: lane i accesses chunk_size consecutive elements at its own offset; the SIMD value is
    [lanes, chunk] and lane i's fragment is its row."""
    lay = LaneLayout.scattered(SG, chunk)
    value = numbered(SG, chunk) if chunk > 1 else numbered(SG)
    frags = lay.gather_fragments(value)
    assert frags.shape == (SG, chunk)
    for lane in range(SG):
        expected = list(value[lane]) if chunk > 1 else [value[lane]]
        assert list(frags[lane]) == expected


def test_1d_block_value_k_of_lane_i_is_p_i_plus_k_sg() -> None:
    """pvc-hardware §2.3: subgroup block read — value k of lane i comes from p[i + k*SG]."""
    p = numbered(128)
    frags = LaneLayout((SG,), (1,)).gather_fragments(p)
    for i in range(SG):
        assert [frags[i][k] for k in range(8)] == [p[i + k * SG] for k in range(8)]


def test_lane_data_block_packed_innermost_units_row_major() -> None:
    """§3.4 (IMEX XeGPU.md): take the lane's sub-tile by lane_layout, pack along lane_data innermost, linearize
    the rest row-major.  lane_layout [1,16] lane_data [2,2] on 4x64: units are 2x32; lane l's block in unit
    (ur, uc) is rows 2ur..2ur+1, cols 32uc+2l..32uc+2l+1."""
    tile = numbered(4, 64)
    frags = LaneLayout((1, 16), (2, 2)).gather_fragments(tile)
    for lane in range(16):
        expected = []
        for ur in range(2):
            for uc in range(2):
                for dr in range(2):
                    for dc in range(2):
                        expected.append(tile[2 * ur + dr][32 * uc + 2 * lane + dc])
        assert list(frags[lane]) == expected


def test_order_delinearises_lane_ids_fastest_first() -> None:
    """§3.4: order lists dims fastest first: coord[order[i]] = rem % L[order[i]]; rem /= L[order[i]]."""
    tile = numbered(4, 16)
    default = LaneLayout((2, 8), (1, 1))
    col_major = LaneLayout((2, 8), (1, 1), order=(0, 1))
    for lane in range(16):
        assert default.lane_coords(lane) == (lane // 8, lane % 8)
        assert col_major.lane_coords(lane) == (lane % 2, lane // 2)
    f = col_major.gather_fragments(tile)
    for lane in range(16):
        r0, c = lane % 2, lane // 2
        # units are 2x8: unit (u, v) at rows 2u.., cols 8v..
        assert list(f[lane]) == [tile[2 * u + r0][8 * v + c] for u in range(2) for v in range(2)]
    assert delinearize(5, (2, 4), (0, 1)) == (1, 2) and linearize((1, 2), (2, 4), (0, 1)) == 5
    assert delinearize(5, (2, 4)) == (1, 1) and linearize((1, 1), (2, 4)) == 5


def test_gather_keeps_leading_instance_axes() -> None:
    """ARCHITECTURE.md: kernel values carry a leading axis spanning subgroups; the maps act on trailing dims."""
    tiles = numbered(3, 8, 16)
    frags = tl("dpas_a_16bit").gather_fragments(tiles)
    assert frags.shape == (3, SG, 8)
    for s in range(3):
        for lane in range(SG):
            assert list(frags[s][lane]) == [tiles[s][r][lane] for r in range(8)]
    assert np.array_equal(tl("dpas_a_16bit").scatter_fragments(frags, (8, 16)), tiles)


def test_owner_map_and_bad_arguments() -> None:
    lay = tl("dpas_a_16bit")
    lanes, comps = lay.owner_map((8, 16))
    for r in range(8):
        for c in range(16):
            assert (lanes[r][c], comps[r][c]) == (c, r)
    with pytest.raises(LayoutMapError):
        lay.element((8, 16), 16, 0)
    with pytest.raises(LayoutMapError):
        lay.element((8, 16), 0, 8)
    with pytest.raises(LayoutMapError):
        lay.owner((8, 16), (8, 0))
    with pytest.raises(LayoutMapError):
        LaneLayout((1, 16), (1,))
    with pytest.raises(LayoutMapError):
        LaneLayout((1, 16), (1, 1), order=(0, 0))
    with pytest.raises(LayoutMapError):
        LaneLayout((0, 16), (1, 1))
    with pytest.raises(LayoutMapError):
        lay.scatter_fragments(np.zeros((16, 4)), (8, 16))


# ----------------------------------------------------------------------------------------------- DPAS §3.4
M_VALUES = range(1, 9)


@pytest.mark.parametrize("m", M_VALUES)
def test_dpas_a_16bit_lane_i_holds_a_r_i(m: int) -> None:
    """pvc-hardware §3.4: A, 16-bit types (K=16): one value per row r (component r); lane i holds A[r][i]."""
    d = DpasLayout(m, SG, 16)
    a = numbered(m, 16)
    f = d.gather("a", a)
    assert f.shape == (SG, m)
    for i in range(SG):
        assert [f[i][r] for r in range(m)] == [a[r][i] for r in range(m)]
    assert d.lane_layout("a") == tl("dpas_a_16bit")


@pytest.mark.parametrize("m", M_VALUES)
def test_dpas_a_8bit_two_columns_low_byte_high_byte(m: int) -> None:
    """§3.4: 8-bit (K=32): lane i holds A[r][2i] (low byte) and A[r][2i+1] (high byte) packed in 16 bits."""
    d = DpasLayout(m, SG, 32)
    a = (numbered(m, 32) % 251).astype(np.uint8)
    f = np.ascontiguousarray(d.gather("a", a))
    assert f.shape == (SG, 2 * m)
    packed = f.view("<u2")  # one 16-bit value per row
    for i in range(SG):
        for r in range(m):
            assert int(packed[i][r]) == int(a[r][2 * i]) | (int(a[r][2 * i + 1]) << 8)
    assert d.lane_layout("a") == tl("dpas_a_8bit")


@pytest.mark.parametrize("m", M_VALUES)
def test_dpas_a_4bit_four_columns_lower_column_lower_bits(m: int) -> None:
    """§3.4: 4-bit (K=64): lane i holds A[r][4i..4i+3] packed, lower column in lower bits."""
    d = DpasLayout(m, SG, 64)
    a = numbered(m, 64) % 16
    f = d.gather("a", a)
    assert f.shape == (SG, 4 * m)
    for i in range(SG):
        for r in range(m):
            nibbles = [f[i][4 * r + p] for p in range(4)]
            assert nibbles == [a[r][4 * i + p] for p in range(4)]
            value = sum(int(nibbles[p]) << (4 * p) for p in range(4))
            assert value == sum(int(a[r][4 * i + p]) << (4 * p) for p in range(4))


@pytest.mark.parametrize("m", M_VALUES)
def test_dpas_a_tf32_even_rows_low_lanes_odd_rows_high_lanes(m: int) -> None:
    """§3.4: A for tf32 (K=8): ceil(M/2) floats per lane; lanes 0..7 hold the even rows (component c = row 2c,
    column = lane), lanes 8..15 the odd rows (row 2c+1, column = lane-8); for M=1 lanes 8..15 are ignored."""
    d = DpasLayout(m, SG, 8)
    per_lane = (m + 1) // 2
    assert d.fragment_length("a") == per_lane
    a = numbered(m, 8).astype(np.float32) + 1
    f = d.gather("a", a, fill=-7)
    assert f.shape == (SG, per_lane)
    for lane in range(SG):
        for c in range(per_lane):
            row = 2 * c if lane < 8 else 2 * c + 1
            col = lane if lane < 8 else lane - 8
            if row < m:
                assert f[lane][c] == a[row][col]
                assert d.element("a", lane, c) == (row, col)
                assert d.owner("a", row, col) == (lane, c)
            else:
                assert f[lane][c] == -7 and d.element("a", lane, c) is None
                assert d.index_map("a")[lane][c] == -1
    if m == 1:
        assert all(d.element("a", lane, 0) is None for lane in range(8, 16))
    assert np.array_equal(d.scatter("a", f), a)


@pytest.mark.parametrize("k", [16, 32, 64, 8])
def test_dpas_b_lane_j_holds_column_j(k: int) -> None:
    """§3.4: B (K x N): lane j holds column j; for tf32 component k = B[k][j]; packed types in element units
    list rows in order (checked bitwise below)."""
    d = DpasLayout(8, SG, k)
    b = numbered(k, SG)
    f = d.gather("b", b)
    assert f.shape == (SG, k)
    for j in range(SG):
        assert list(f[j]) == [b[kk][j] for kk in range(k)]


def test_dpas_b_16bit_dword_k_is_b2k_or_b2k1_shl16() -> None:
    """§3.4: for 16-bit types dword k = B[2k][j] | B[2k+1][j] << 16."""
    d = DpasLayout(8, SG, 16)
    b = (numbered(16, SG) * 37 % 65521).astype(np.uint16)
    dwords = np.ascontiguousarray(d.gather("b", b)).view("<u4")
    assert dwords.shape == (SG, 8)
    for j in range(SG):
        for kk in range(8):
            assert int(dwords[j][kk]) == int(b[2 * kk][j]) | (int(b[2 * kk + 1][j]) << 16)


def test_dpas_b_8bit_dword_k_packs_rows_4k_to_4k3_lowest_row_lowest_byte() -> None:
    """§3.4: for 8-bit dword k packs rows 4k..4k+3 (lowest row lowest byte)."""
    d = DpasLayout(8, SG, 32)
    b = (numbered(32, SG) % 253).astype(np.uint8)
    dwords = np.ascontiguousarray(d.gather("b", b)).view("<u4")
    assert dwords.shape == (SG, 8)
    for j in range(SG):
        for kk in range(8):
            expect = sum(int(b[4 * kk + p][j]) << (8 * p) for p in range(4))
            assert int(dwords[j][kk]) == expect


@pytest.mark.parametrize("m", M_VALUES)
@pytest.mark.parametrize("op", ["c", "d"])
def test_dpas_c_d_lane_j_column_j_component_r_row_r(m: int, op: str) -> None:
    """§3.4: C and D (M x N): lane j holds column j; component r = row r (M components); also §3.2 SIMT
    C/D vector<8xf32> = C[0..7][l]."""
    d = DpasLayout(m, SG, 16)
    c = numbered(m, SG).astype(np.float32)
    f = d.gather(op, c)
    assert f.shape == (SG, m)
    for j in range(SG):
        assert [f[j][r] for r in range(m)] == [c[r][j] for r in range(m)]
    assert np.array_equal(d.scatter(op, f), c)
    assert d.lane_layout(op) == tl("dpas_cd_32bit")


def test_dpas_simt_fragments_of_section_3_2() -> None:
    """§3.2 SIMT: A vector<8xf16> = A[0..7][l], B vector<16xf16> = B[0..15][l], C/D vector<8xf32> = C[0..7][l]."""
    d = DpasLayout(8, SG, 16)
    assert (d.fragment_length("a"), d.fragment_length("b"), d.fragment_length("c")) == (8, 16, 8)
    a, b = numbered(8, 16), numbered(16, 16)
    for lane in range(SG):
        assert list(d.gather("a", a)[lane]) == [a[r][lane] for r in range(8)]
        assert list(d.gather("b", b)[lane]) == [b[r][lane] for r in range(16)]


def test_dpas_bad_arguments() -> None:
    with pytest.raises(LayoutMapError):
        DpasLayout(8, 16, 24)
    with pytest.raises(LayoutMapError):
        DpasLayout(8, 16, 16).index_map("e")
    with pytest.raises(LayoutMapError):
        DpasLayout(8, 16, 16).gather("a", np.zeros((8, 8)))
    with pytest.raises(LayoutMapError):
        DpasLayout(8, 16, 16).owner("c", 8, 0)


# ----------------------------------------------------------------------------------------------- §1.6 image -> lanes
def test_lane_i_component_k_is_image_k_times_sg_plus_i() -> None:
    """pvc-hardware §1.6: lane i, component k = flat_register_image[k*SG + i] (per-lane units)."""
    image = numbered(8 * SG).astype(np.uint16)
    lanes = lane_component_of_image(image, SG)
    assert lanes.shape == (SG, 8)
    for i in range(SG):
        for k in range(8):
            assert lanes[i][k] == image[k * SG + i]
            assert image_slot(i, k, SG) == k * SG + i
    assert np.array_equal(image_of_lane_components(lanes), image)
    batch = numbered(3, 4 * SG)
    assert lane_component_of_image(batch, SG).shape == (3, SG, 4)
    with pytest.raises(LayoutMapError):
        lane_component_of_image(numbered(SG + 1), SG)


def _padded_block(rows: int, width: int) -> np.ndarray:
    return numbered(rows, width)


def _lane_values(rows: int, w: int) -> np.ndarray:
    r, c = block_lane_coords(w, rows, SG)
    block = _padded_block(rows, w)
    return np.where(r >= 0, block[np.maximum(r, 0), np.maximum(c, 0)], -1)


def test_padded_row_equal_to_sg_lane_i_gets_column_i_of_every_row() -> None:
    """§1.6: padded row width == SG size: lane i gets column i of every row (row r -> component r)."""
    block = _padded_block(8, 16)
    vals = _lane_values(8, 16)
    for i in range(SG):
        assert list(vals[i]) == [block[r][i] for r in range(8)]


@pytest.mark.parametrize("w", [8, 4, 2, 1])
def test_padded_row_narrower_than_sg_rows_go_to_successive_lane_groups(w: int) -> None:
    """§1.6: padded row width < SG size: first row to lanes 0..w-1, next row to the next w lanes, etc. (d32 W=8:
    lanes 0-7 get rows 0,2,4,..., lanes 8-15 rows 1,3,5,...)."""
    rows = 8
    per = SG // w
    block = _padded_block(rows, w)
    vals = _lane_values(rows, w)
    for i in range(SG):
        expected = [block[k * per + i // w][i % w] for k in range(rows // per)] if rows >= per else None
        if expected is not None:
            assert list(vals[i][: len(expected)]) == expected
    if w == 8:
        for i in range(8):
            assert list(vals[i]) == [block[r][i] for r in (0, 2, 4, 6)]
            assert list(vals[i + 8]) == [block[r][i] for r in (1, 3, 5, 7)]


def test_single_row_d32_w8_upper_lanes_are_padding() -> None:
    """§6 item 5: a single-row d32 W=8 read leaves lanes 8-15 without data (padding slots are -1)."""
    r, c = block_lane_coords(8, 1, SG)
    assert r.shape == (SG, 1)
    assert list(r[:8, 0]) == [0] * 8 and list(c[:8, 0]) == list(range(8))
    assert list(r[8:, 0]) == [-1] * 8


@pytest.mark.parametrize("w", [32, 64])
def test_padded_row_wider_than_sg_contiguous_run_per_lane(w: int) -> None:
    """§1.6: padded row width > SG size: each lane gets a contiguous run of width/SG elements of every row
    (d8 W=32 -> one ushort per row, d8 W=64 / d16 W=32 -> one uint per row)."""
    rows = 4
    q = w // SG
    assert lane_unit_elems(w, SG) == q
    block = _padded_block(rows, w)
    vals = _lane_values(rows, w)
    for i in range(SG):
        assert list(vals[i]) == [block[r][i * q + j] for r in range(rows) for j in range(q)]


def test_image_rule_agrees_with_xegpu_lane_layouts() -> None:
    """The hardware distribution (§1.6) and XeGPU's lane layouts (§3.4) give the same fragments:
    d16 W=16 plain = [1,16]/[1,1]; VNNI d16 W=16 (transformed rows of 32) = [1,16]/[2,1]; d8 W=32 = [1,16]/[1,2];
    d32 W=8 = [2,8]/[1,1] (rows alternate between lane halves); transposed d32 W=8 H=16 = row l of memory."""
    # plain
    mem = numbered(8, 16)
    r, c = block_lane_coords(16, 8, SG)
    assert np.array_equal(mem[r, c], tl("dpas_a_16bit").gather_fragments(mem))
    # VNNI: transformed row rr holds, for column x, rows 2rr, 2rr+1 (low row first) -> row width 32
    mem = numbered(16, 16)
    transformed = np.array([[mem[2 * rr + i][x] for x in range(16) for i in range(2)] for rr in range(8)])
    r, c = block_lane_coords(32, 8, SG)
    assert np.array_equal(transformed[r, c], tl("dpas_b_16bit").gather_fragments(mem))
    # d8 W=32
    mem = numbered(8, 32)
    r, c = block_lane_coords(32, 8, SG)
    assert np.array_equal(mem[r, c], tl("dpas_a_8bit").gather_fragments(mem))
    # d32 W=8
    mem = numbered(8, 8)
    r, c = block_lane_coords(8, 8, SG)
    assert np.array_equal(mem[r, c], LaneLayout((2, 8), (1, 1)).gather_fragments(mem))
    # transpose d32 W=8 H=16: register block = memory transposed (8 rows of 16)
    mem = numbered(16, 8)
    r, c = block_lane_coords(16, 8, SG)
    assert np.array_equal(mem.T[r, c], tl("load_transpose_32bit").gather_fragments(mem))


# ----------------------------------------------------------------------------------------------- WG §3.4
def test_sg_data_default_is_shape_over_sg_layout() -> None:
    """§3.4: if sg_data is absent it is shape / sg_layout."""
    w = WgLayout((8, 4))
    assert w.effective_sg_data((256, 128)) == (32, 32)
    assert w.subgroup_tiles((256, 128), 5) == [((32, 32), (32, 32))]  # sg 5 -> coords (1, 1)
    with pytest.raises(LayoutMapError):
        WgLayout((3,)).effective_sg_data((16,))


def test_round_robin_over_units_row_major() -> None:
    """§3.4: distribution unit = min(shape, L·D); a subgroup owns its sub-tile in every unit (round-robin,
    row-major unit order)."""
    w = WgLayout((2,), (8,))
    assert w.unit((64,)) == (16,)
    assert [o for o, _ in w.subgroup_tiles((64,), 0)] == [(0,), (16,), (32,), (48,)]
    assert [o for o, _ in w.subgroup_tiles((64,), 1)] == [(8,), (24,), (40,), (56,)]
    w2 = WgLayout((2, 2), (8, 16))  # unit 16x32 on 32x64: units (0,0) (0,32) (16,0) (16,32)
    assert [o for o, _ in w2.subgroup_tiles((32, 64), 3)] == [(8, 16), (8, 48), (24, 16), (24, 48)]
    assert w2.owners((32, 64), (24, 50)) == [3]


def test_offsets_modulo_shape_share_data() -> None:
    """§3.4: offsets are taken modulo the shape, so when L·D exceeds the shape several subgroups share data."""
    w = WgLayout((4,), (16,))
    assert [w.subgroup_tiles((32,), s) for s in range(4)] == [
        [((0,), (16,))], [((16,), (16,))], [((0,), (16,))], [((16,), (16,))]]
    assert w.owners((32,), (5,)) == [0, 2] and w.owners((32,), (31,)) == [1, 3]
    # 2-D: sg_layout [4, 2], sg_data [8, 16] on 16x32 -> rows wrap (coords 0/2 and 1/3 share)
    w2 = WgLayout((4, 2), (8, 16))
    assert w2.owners((16, 32), (9, 20)) == [3, 7]
    vals = w2.subgroup_values(numbered(16, 32), 4)  # sg 4 -> coords (2, 0) -> rows 0..7, cols 0..15
    assert len(vals) == 1 and np.array_equal(vals[0], numbered(16, 32)[0:8, 0:16])


def test_order_for_subgroup_ids() -> None:
    """§3.4: order = [0, 1] makes dim 0 fastest for subgroup ids."""
    w = WgLayout((2, 4), (8, 8), order=(0, 1))
    assert w.sg_coords(1) == (1, 0) and w.sg_coords(2) == (0, 1)
    assert WgLayout((2, 4), (8, 8)).sg_coords(1) == (0, 1)
    assert w.subgroup_tiles((16, 32), 3) == [((8, 8), (8, 8))]


def test_extra_subgroups_wrap_modulo_the_layout() -> None:
    """§3.2 WG: 1024 threads (64 subgroups) for sg_layout = [1, 4, 4]: the extra subgroups wrap around (ids taken
    modulo the layout) and duplicate work."""
    w = WgLayout((1, 4, 4), (1, 8, 8))
    shape = (1, 32, 32)
    for s in range(16, 64):
        assert w.subgroup_tiles(shape, s) == w.subgroup_tiles(shape, s % 16)
    assert w.owners(shape, (0, 9, 17)) == [6]
    assert w.owners(shape, (0, 9, 17), num_subgroups=64) == [6, 22, 38, 54]


def test_slice_drops_sliced_dims_subgroup_ids() -> None:
    """§3.4: #xegpu.slice<P, dims>: subgroup ids of the sliced dims are dropped, so a reduced element is held by
    every subgroup that differs only in the sliced dims."""
    parent = WgLayout((4, 8), (8, 4))
    rows = SliceLayout(parent, (1,))  # reduce along dim 1 -> 32 elements split by sg coord 0
    assert rows.rank == 1 and rows.effective_sg_layout == (4,)
    assert rows.owners((32,), (9,)) == list(range(8, 16))  # coord0 == 1
    cols = SliceLayout(parent, (0,))  # reduce along dim 0 -> 32 elements split by sg coord 1
    assert cols.owners((32,), (9,)) == [2, 10, 18, 26]  # coord1 == 2
    assert cols.subgroup_tiles((32,), 10) == [((8,), (4,))]
    with pytest.raises(LayoutMapError):
        SliceLayout(parent, (2,))
    with pytest.raises(LayoutMapError):
        SliceLayout(parent, (0, 0))


def test_inst_tiles_row_major_within_subgroup_tile() -> None:
    """§3.4: inst_data is the per-instruction tile used by xegpu-blocking (row-major decomposition)."""
    w = WgLayout((2, 2), (32, 32), inst_data=(8, 16))
    tiles = w.inst_tiles((64, 64), 1)  # sg 1 -> coords (0, 1) -> tile at (0, 32)
    assert tiles == [((r, 32 + c), (8, 16)) for r in (0, 8, 16, 24) for c in (0, 16)]
    assert split_tile((16, 32), (8, 16)) == [((0, 0), (8, 16)), ((0, 16), (8, 16)), ((8, 0), (8, 16)),
                                             ((8, 16), (8, 16))]
    assert WgLayout((2,), (8,)).inst_tiles((16,), 1) == [((8,), (8,))]
    with pytest.raises(LayoutMapError):
        split_tile((16, 32), (8, 12))


def test_wg_layout_lane_part_and_validation() -> None:
    w = WgLayout((2, 4), (16, 16), lane_layout=(1, 16), lane_data=(1, 1))
    assert w.lane == LaneLayout((1, 16), (1, 1))
    assert WgLayout((2,)).lane is None
    with pytest.raises(LayoutMapError):
        WgLayout((2, 4), (16,))
    with pytest.raises(LayoutMapError):
        WgLayout((2, 4), lane_layout=(1, 16))
    with pytest.raises(LayoutMapError):
        WgLayout((2, 4), order=(1, 1))
    with pytest.raises(LayoutMapError):
        WgLayout((2, 4)).owners((16, 16), (16, 0))
