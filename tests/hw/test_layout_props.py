"""Property tests for the layout maps (xesim/hw/layout.py).

* Every lane map is a bijection between (lane, component) and the tile elements — for every PVC shape and type
  of spec/programs-and-runner.md §3.2/§3.3 and for random layouts (incl. order, array_length, packed lane_data,
  transposed 32-bit loads, scattered chunks); the scalar maps, the vectorised map and gather/scatter agree.
* DPAS fragment maps cover each operand element exactly once (spec/pvc-hardware.md §3.4).
* WG distribution: an independent literal reading of spec/programs-and-runner.md §3.4 (enumerate the distribution
  units and the subgroup's sub-tile in each, offsets modulo the shape) gives exactly the owners the module
  reports, incl. round-robin, sharing, extra subgroups and slices.
"""

from __future__ import annotations

import itertools
from math import prod

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from xesim.hw.layout import DpasLayout, LaneLayout, SliceLayout, WgLayout, target_lane_layout
from xesim.hw.params import load_target

PVC = load_target("pvc")
SG = PVC.subgroup.size


# ----------------------------------------------------------------------------------------------- lane bijections
def assert_bijection(lay: LaneLayout, shape: tuple[int, ...], array_length: int = 1) -> None:
    tshape = (array_length, *shape) if array_length > 1 else shape
    n = prod(tshape)
    frag = lay.fragment_length(shape, array_length)
    assert frag * lay.num_lanes == n  # §4.4 length times lanes = every element once
    idx = lay.index_map(shape, array_length)
    assert idx.shape == (lay.num_lanes, frag)
    assert sorted(idx.reshape(-1).tolist()) == list(range(n))  # a permutation of the tile
    for lane in range(lay.num_lanes):
        for comp in range(frag):
            index = lay.element(shape, lane, comp, array_length)
            assert int(np.ravel_multi_index(index, tshape)) == idx[lane][comp]
            assert lay.owner(shape, index, array_length) == (lane, comp)
    tile = np.arange(n).reshape(tshape)
    frags = lay.gather_fragments(tile, array_length)
    assert np.array_equal(frags, idx)
    assert np.array_equal(lay.scatter_fragments(frags, shape, array_length), tile)
    lanes, comps = lay.owner_map(shape, array_length)
    assert np.array_equal(frags[lanes, comps], tile)


PVC_CASES = [
    # (layout name or (lane_layout, lane_data), shape, array_length) — §3.2 SIMT / §3.3 shapes and §3.4 PVC rules
    ("dpas_a_16bit", (8, 16), 1),           # load_nd 8x16xf16 -> vector<8xf16>; DPAS A
    ("dpas_a_16bit", (16, 16), 1),          # 16x16xf16
    ("dpas_a_16bit", (32, 16), 2),          # 32x16xf16 array_length 2 -> vector<64xf16>
    ("dpas_a_16bit", (16, 16), 2),          # 16x16xbf16 array_length 2
    ("dpas_a_16bit", (8, 16), 4),
    ("dpas_cd_32bit", (8, 16), 1),          # 8x16xf32 / xi32, DPAS C/D
    ("dpas_cd_32bit", (16, 16), 1),
    ("dpas_cd_32bit", (16, 16), 2),         # d32 array_length 2
    ("dpas_b_16bit", (16, 16), 1),          # packed 16x16xf16 (VNNI)
    ("dpas_b_16bit", (32, 16), 2),          # packed 32x16xf16 array_length 2
    ("dpas_b_16bit", (16, 16), 2),          # packed 16x16xbf16 array_length 2
    ("dpas_b_16bit", (8, 16), 1),           # packed 8x16xf16
    ("dpas_b_8bit", (32, 16), 1),           # int8 B (VNNI d8)
    ("dpas_b_8bit", (32, 16), 4),
    ("dpas_a_8bit", (8, 32), 1),            # int8 A
    ("dpas_a_8bit", (8, 32), 2),
    ("load_transpose_32bit", (16, 8), 1),   # 16x8xf32 {transpose}
    ("load_transpose_32bit", (32, 8), 1),
    (((16, 1), (1, 2)), (16, 16), 1),       # 16-bit transpose through 32-bit pairs
    (((SG,), (1,)), (128,), 1),             # 1-D 128xf32 / 128xf16
    (((SG,), (1,)), (32,), 1),              # 1-D 32xbf16
    (((SG,), (1,)), (16,), 1),              # SLM 16xf32
] + [((("scattered", c)), (SG, c) if c > 1 else (SG,), 1) for c in (1, 2, 3, 4, 8)]


def _layout(spec: object) -> LaneLayout:
    if isinstance(spec, str):
        return target_lane_layout(PVC, spec)
    if isinstance(spec, tuple) and spec[0] == "scattered":
        return LaneLayout.scattered(SG, spec[1])
    ll, ld = spec  # type: ignore[misc]
    return LaneLayout(ll, ld)


@pytest.mark.parametrize("spec,shape,array_length", PVC_CASES)
def test_pvc_lane_maps_are_bijections(spec: object, shape: tuple[int, ...], array_length: int) -> None:
    assert_bijection(_layout(spec), shape, array_length)


def _divisors_product(n: int, rank: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Tuples of ``rank`` positive ints whose product is n (n a power of two)."""
    bits = n.bit_length() - 1
    return st.lists(st.integers(0, bits), min_size=rank - 1, max_size=rank - 1).map(
        lambda cuts: _split_bits(bits, sorted(cuts)))


def _split_bits(bits: int, cuts: list[int]) -> tuple[int, ...]:
    edges = [0, *cuts, bits]
    return tuple(2 ** (b - a) for a, b in zip(edges, edges[1:]))


@st.composite
def lane_cases(draw: st.DrawFn) -> tuple[LaneLayout, tuple[int, ...], int]:
    rank = draw(st.integers(1, 3))
    lanes = draw(st.sampled_from([SG, 8, 4, 32, 1]))
    ll = draw(_divisors_product(lanes, rank))
    ld = tuple(draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    order = draw(st.none() | st.permutations(list(range(rank))).map(tuple))
    mult = draw(st.lists(st.integers(1, 3), min_size=rank, max_size=rank))
    shape = tuple(a * b * m for a, b, m in zip(ll, ld, mult))
    array_length = draw(st.sampled_from([1, 1, 2, 4]))
    return LaneLayout(ll, ld, order), shape, array_length


@settings(max_examples=150, deadline=None)
@given(lane_cases())
def test_random_lane_maps_are_bijections(case: tuple[LaneLayout, tuple[int, ...], int]) -> None:
    lay, shape, array_length = case
    assert_bijection(lay, shape, array_length)


@settings(max_examples=100, deadline=None)
@given(lane_cases())
def test_random_lane_maps_follow_the_imex_rule_literally(case: tuple[LaneLayout, tuple[int, ...], int]) -> None:
    """Independent reading of §3.4 (IMEX XeGPU.md): walk the distribution units in row-major order; in each, lane
    l's lane_data block at coord(l)·lane_data, its elements row-major; blocks of array_length concatenated."""
    lay, shape, array_length = case
    ll, ld = lay.lane_layout, lay.lane_data
    order = lay.order if lay.order is not None else tuple(reversed(range(len(ll))))
    frags = lay.gather_fragments(np.arange(prod(shape) * array_length).reshape(array_length, *shape)
                                 if array_length > 1 else np.arange(prod(shape)).reshape(shape), array_length)
    tile = np.arange(prod(shape) * array_length).reshape(array_length, *shape)
    for lane in range(prod(ll)):
        coord, rem = [0] * len(ll), lane
        for d in order:
            coord[d], rem = rem % ll[d], rem // ll[d]
        expected = []
        for blk in range(array_length):
            for unit in itertools.product(*(range(0, s, a * b) for s, a, b in zip(shape, ll, ld))):
                for inner in itertools.product(*(range(b) for b in ld)):
                    pos = tuple(u + c * b + i for u, c, b, i in zip(unit, coord, ld, inner))
                    expected.append(tile[(blk, *pos)])
        assert list(frags[lane]) == expected


# ----------------------------------------------------------------------------------------------- DPAS
@pytest.mark.parametrize("m", range(1, 9))
@pytest.mark.parametrize("k", [8, 16, 32, 64])
@pytest.mark.parametrize("op", ["a", "b", "c", "d"])
def test_dpas_maps_cover_each_element_once(m: int, k: int, op: str) -> None:
    d = DpasLayout(m, SG, k)
    rows, cols = d.operand_shape(op)
    idx = d.index_map(op)
    used = idx[idx >= 0]
    assert sorted(used.tolist()) == list(range(rows * cols))
    ignored = int((idx < 0).sum())
    if op == "a" and k < SG:  # tf32: ceil(m/2) slots per lane, one unused row of the upper lanes when m is odd
        assert ignored == (8 if m % 2 else 0)
    else:
        assert ignored == 0
    for lane in range(SG):
        for comp in range(idx.shape[1]):
            e = d.element(op, lane, comp)
            if e is None:
                assert idx[lane][comp] == -1
            else:
                assert e[0] * cols + e[1] == idx[lane][comp] and d.owner(op, *e) == (lane, comp)
    mat = np.arange(rows * cols).reshape(rows, cols)
    assert np.array_equal(d.scatter(op, d.gather(op, mat)), mat)


# ----------------------------------------------------------------------------------------------- WG distribution
def literal_sg_coords(sg_id: int, sg_layout: tuple[int, ...], order: tuple[int, ...] | None) -> list[int]:
    """§3.4: coord[order[i]] = rem % L[order[i]], rem /= L[order[i]]; ids taken modulo the layout (§3.2)."""
    rank = len(sg_layout)
    order = tuple(range(rank - 1, -1, -1)) if order is None else order
    rem = sg_id % prod(sg_layout)
    coord = [0] * rank
    for d in order:
        coord[d] = rem % sg_layout[d]
        rem //= sg_layout[d]
    return coord


def literal_elements(shape, sg_layout, sg_data, coord) -> tuple[list[tuple[int, ...]], set[tuple[int, ...]]]:
    """§3.4 read literally: unit = min(shape, L·D); local offset = coord·D; the sub-tile at unit offset + local
    offset in every unit (row-major unit order); offsets and elements modulo the shape."""
    if sg_data is None:
        sg_data = [s // n for s, n in zip(shape, sg_layout)]
    unit = [min(s, n * d) for s, n, d in zip(shape, sg_layout, sg_data)]
    local = [c * d for c, d in zip(coord, sg_data)]
    offsets, elems = [], set()
    for uoff in itertools.product(*(range(0, s, u) for s, u in zip(shape, unit))):
        off = tuple((a + b) % s for a, b, s in zip(uoff, local, shape))
        offsets.append(off)
        for j in itertools.product(*(range(d) for d in sg_data)):
            elems.add(tuple((o + x) % s for o, x, s in zip(off, j, shape)))
    return offsets, elems


@st.composite
def wg_cases(draw: st.DrawFn):
    rank = draw(st.integers(1, 3))
    sg_layout = tuple(draw(st.lists(st.sampled_from([1, 2, 3, 4]), min_size=rank, max_size=rank)))
    sg_data = tuple(draw(st.lists(st.sampled_from([1, 2, 4, 8]), min_size=rank, max_size=rank)))
    shape = []
    for n, d in zip(sg_layout, sg_data):
        # evenly distributable with round-robin: shape a multiple of L·D, or L·D a multiple of shape
        kind = draw(st.sampled_from(["multiple", "share"]))
        if kind == "multiple":
            shape.append(n * d * draw(st.integers(1, 3)))
        else:
            shape.append(draw(st.sampled_from([x for x in range(1, n * d + 1) if (n * d) % x == 0 and (x % d == 0 or d % x == 0)]
                                              or [n * d])))
    with_data = draw(st.booleans())
    if not with_data:
        shape = [n * draw(st.integers(1, 4)) for n in sg_layout]
    order = draw(st.none() | st.permutations(list(range(rank))).map(tuple))
    extra = draw(st.integers(0, 2))
    # keep the exhaustive per-element comparison affordable (up to 96^3 elements would take minutes)
    assume(prod(shape) <= 1024)
    return WgLayout(sg_layout, sg_data if with_data else None, order=order), tuple(shape), extra


@settings(max_examples=200, deadline=None)
@given(wg_cases())
def test_wg_owners_match_literal_reading(case) -> None:
    lay, shape, extra = case
    size = prod(lay.sg_layout)
    launched = size * (1 + extra) + (size // 2 if extra else 0)  # extra subgroups wrap around
    holders: dict[tuple[int, ...], list[int]] = {}
    for s in range(launched):
        coord = literal_sg_coords(s, lay.sg_layout, lay.order)
        offsets, elems = literal_elements(shape, lay.sg_layout, lay.sg_data, coord)
        assert [o for o, _ in lay.subgroup_tiles(shape, s)] == offsets
        mask = lay.ownership_mask(shape, s)
        assert {tuple(int(v) for v in i) for i in zip(*np.nonzero(mask))} == elems
        for e in elems:
            holders.setdefault(e, []).append(s)
    for e in itertools.product(*(range(x) for x in shape)):
        assert lay.owners(shape, e, num_subgroups=launched) == holders.get(e, [])
        assert holders.get(e), f"element {e} has no owner"


@settings(max_examples=150, deadline=None)
@given(wg_cases(), st.data())
def test_slice_owners_match_literal_reading(case, data) -> None:
    parent, pshape, _ = case
    if parent.rank < 2:
        return
    dims = tuple(sorted(data.draw(st.sets(st.integers(0, parent.rank - 1), min_size=1, max_size=parent.rank - 1))))
    sl = SliceLayout(parent, dims)
    keep = [d for d in range(parent.rank) if d not in dims]
    shape = tuple(pshape[d] for d in keep)
    red_layout = [parent.sg_layout[d] for d in keep]
    red_data = None if parent.sg_data is None else [parent.sg_data[d] for d in keep]
    holders: dict[tuple[int, ...], list[int]] = {}
    for s in range(prod(parent.sg_layout)):
        pcoord = literal_sg_coords(s, parent.sg_layout, parent.order)
        coord = [pcoord[d] for d in keep]  # subgroup ids of the sliced dims are dropped
        offsets, elems = literal_elements(shape, red_layout, red_data, coord)
        assert [o for o, _ in sl.subgroup_tiles(shape, s)] == offsets
        for e in elems:
            holders.setdefault(e, []).append(s)
    for e in itertools.product(*(range(x) for x in shape)):
        assert sl.owners(shape, e) == holders.get(e, [])
    # a slice of a slice drops dims of the already reduced value
    if sl.rank >= 2:
        sl2 = SliceLayout(sl, (0,))
        kept2 = keep[1:]
        for s in range(prod(parent.sg_layout)):
            pcoord = literal_sg_coords(s, parent.sg_layout, parent.order)
            assert sl2.sg_coords(s) == tuple(pcoord[d] for d in kept2)


@settings(max_examples=100, deadline=None)
@given(wg_cases(), st.data())
def test_inst_tiles_cover_each_subgroup_tile_row_major(case, data) -> None:
    lay, shape, _ = case
    sg_data = lay.effective_sg_data(shape)
    inst = tuple(data.draw(st.sampled_from([x for x in range(1, d + 1) if d % x == 0])) for d in sg_data)
    lay_i = WgLayout(lay.sg_layout, lay.sg_data, inst_data=inst, order=lay.order)
    for s in range(prod(lay.sg_layout)):
        expected = []
        for off, size in lay.subgroup_tiles(shape, s):
            for p in itertools.product(*(range(0, z, i) for z, i in zip(size, inst))):
                expected.append((tuple((o + q) % x for o, q, x in zip(off, p, shape)), inst))
        assert lay_i.inst_tiles(shape, s) == expected


@settings(max_examples=60, deadline=None)
@given(wg_cases())
def test_subgroup_values_are_the_tiles_elements(case) -> None:
    lay, shape, _ = case
    tile = np.arange(prod(shape)).reshape(shape)
    for s in range(prod(lay.sg_layout)):
        vals = lay.subgroup_values(tile, s)
        tiles = lay.subgroup_tiles(shape, s)
        assert len(vals) == len(tiles)
        for v, (off, size) in zip(vals, tiles):
            assert v.shape == size
            for j in itertools.product(*(range(z) for z in size)):
                assert v[j] == tile[tuple((o + x) % n for o, x, n in zip(off, j, shape))]
