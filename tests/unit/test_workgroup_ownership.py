"""Ownership of workgroup values (xesim.exec.workgroup.ownership) against a literal reading of
spec/programs-and-runner.md §3.4, written here independently of xesim.hw.layout:

* subgroup id ``s`` (ids beyond ``prod(sg_layout)`` wrap) is delinearised with ``order`` (fastest dim first);
* distribution unit ``U = min(shape, sg_layout·sg_data)``; the subgroup's tile in every unit (row-major unit order,
  round-robin) starts at ``unit offset + coord·sg_data`` and covers ``sg_data`` elements, indices modulo the shape
  (sharing when ``sg_layout·sg_data`` exceeds the shape);
* each subgroup tile is cut into ``inst_data`` pieces in row-major order;
* inside a piece, lane ``l`` (delinearised over ``lane_layout`` with ``order``) owns the ``lane_data`` block at
  ``coord(l)·lane_data`` of every ``lane_layout·lane_data`` unit; its fragment lists units row-major, the
  ``lane_data`` block innermost;
* registers: pieces one after another, each from a fresh register, lane ``l`` component ``k`` at element slot
  ``k·lanes + l`` (ARCHITECTURE.md "Register file").
"""

from __future__ import annotations

import itertools
from math import ceil, prod

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from xesim.exec import workgroup as wgx
from xesim.hw.layout import SliceLayout, WgLayout


def _delin(i: int, dims, order) -> list[int]:
    c = [0] * len(dims)
    for d in order:
        c[d] = i % dims[d]
        i //= dims[d]
    return c


def _lin(c, dims, order) -> int:
    out, stride = 0, 1
    for d in order:
        out += c[d] * stride
        stride *= dims[d]
    return out


def _row_major(c, dims) -> int:
    return _lin(c, dims, list(range(len(dims) - 1, -1, -1)))


def literal_owners(shape, sg_layout, sg_data, inst, lane_layout, lane_data, order, n_sg, elem_bytes, reg_bytes):
    rank = len(shape)
    order = order or list(range(rank - 1, -1, -1))
    data = sg_data or [s // n for s, n in zip(shape, sg_layout)]
    inst = inst or data
    unit = [min(s, n * d) for s, n, d in zip(shape, sg_layout, data)]
    lunit = [a * b for a, b in zip(lane_layout, lane_data)]
    nlanes = prod(lane_layout)
    owners: dict[tuple, list] = {idx: [] for idx in itertools.product(*(range(s) for s in shape))}
    for s in range(n_sg):
        coord = _delin(s % prod(sg_layout), sg_layout, order)
        tile_no, reg0 = 0, 0
        for uoff in itertools.product(*(range(0, S, u) for S, u in zip(shape, unit))):
            start = [uo + c * d for uo, c, d in zip(uoff, coord, data)]
            for poff in itertools.product(*(range(0, d, i) for d, i in zip(data, inst))):
                for p in itertools.product(*(range(i) for i in inst)):
                    idx = tuple((st_ + po + pp) % S for st_, po, pp, S in zip(start, poff, p, shape))
                    lcoord = [(pp % lu) // ld for pp, lu, ld in zip(p, lunit, lane_data)]
                    lane = _lin(lcoord, lane_layout, order)
                    ucoord = [pp // lu for pp, lu in zip(p, lunit)]
                    units = [i // lu for i, lu in zip(inst, lunit)]
                    w = [pp % ld for pp, ld in zip(p, lane_data)]
                    comp = _row_major(ucoord, units) * prod(lane_data) + _row_major(w, lane_data)
                    reg = reg0 + ((comp * nlanes + lane) * elem_bytes) // reg_bytes
                    owners[idx].append((s, lane, comp, tile_no, reg))
                tile_no += 1
                reg0 += ceil(prod(inst) * elem_bytes / reg_bytes)
    return owners


@st.composite
def layouts(draw):
    rank = draw(st.integers(1, 3))
    sg_layout, sg_data, shape, inst, ll, ld = [], [], [], [], [], []
    for _ in range(rank):
        n = draw(st.sampled_from([1, 2, 4]))
        lld = draw(st.sampled_from([1, 2]))
        lll = draw(st.sampled_from([1, 2, 4]))
        i = lll * lld * draw(st.sampled_from([1, 2]))
        d = i * draw(st.sampled_from([1, 2]))
        kind = draw(st.sampled_from(["exact", "round_robin", "shared"]))
        if kind == "exact":
            s = n * d
        elif kind == "round_robin":
            s = n * d * draw(st.integers(2, 3))
        else:  # sg_layout·sg_data exceeds the shape: s = d·m with m dividing n, m < n
            m = draw(st.sampled_from([x for x in (1, 2) if n % x == 0 and x < n] or [1]))
            s = d * m
        sg_layout.append(n)
        sg_data.append(d)
        shape.append(s)
        inst.append(i)
        ll.append(lll)
        ld.append(lld)
    use_inst = draw(st.booleans())
    order = draw(st.permutations(list(range(rank)))) if draw(st.booleans()) else None
    size = prod(sg_layout)
    n_sg = size * draw(st.sampled_from([1, 1, 2])) + draw(st.sampled_from([0, 0, 1]))
    eb = draw(st.sampled_from([2, 4]))
    return (tuple(shape), tuple(sg_layout), tuple(sg_data), tuple(inst) if use_inst else None, tuple(ll),
            tuple(ld), tuple(order) if order is not None else None, n_sg, eb)


@settings(max_examples=80)
@given(layouts())
def test_ownership_matches_the_literal_rules(case) -> None:
    shape, sg_layout, sg_data, inst, ll, ld, order, n_sg, eb = case
    m = WgLayout(sg_layout, sg_data, inst, ll, ld, order)
    got = wgx.ownership(shape, m, n_sg, eb, 64, 16)
    want = literal_owners(shape, list(sg_layout), list(sg_data), list(inst) if inst else None, list(ll), list(ld),
                          list(order) if order else None, n_sg, eb, 64)
    assert set(got) == set(want)
    for idx, owners in want.items():
        assert sorted((o.subgroup, o.lane, o.component, o.tile, o.register) for o in got[idx]) == sorted(owners), idx
        assert owners, f"element {idx} has no owner"


@settings(max_examples=40)
@given(layouts())
def test_each_register_slot_holds_one_element_per_subgroup(case) -> None:
    shape, sg_layout, sg_data, inst, ll, ld, order, n_sg, eb = case
    m = WgLayout(sg_layout, sg_data, inst, ll, ld, order)
    got = wgx.ownership(shape, m, n_sg, eb, 64, 16)
    slots: dict[tuple, tuple] = {}
    per_sg = [0] * n_sg
    for idx, owners in got.items():
        for o in owners:
            key = (o.subgroup, o.tile, o.lane, o.component)
            assert key not in slots, (key, slots.get(key), idx)
            slots[key] = idx
            per_sg[o.subgroup] += 1
    data = sg_data
    units = prod(-(-s // min(s, n * d)) for s, n, d in zip(shape, sg_layout, data))
    assert per_sg == [units * prod(data)] * n_sg  # every subgroup holds sg_data elements per unit


def test_examples_by_hand() -> None:
    # 4x4 value, sg_layout [2, 2], sg_data [2, 2]: subgroup s = 2r + c owns rows 2r.., cols 2c..; lanes [1, 2]
    m = WgLayout((2, 2), (2, 2), None, (1, 2), (1, 1))
    got = wgx.ownership((4, 4), m, 4, 4, 64, 16)
    assert [(o.subgroup, o.lane, o.component) for o in got[(3, 1)]] == [(2, 1, 1)]
    # sharing: 2x8 value with sg_layout [2, 1], sg_data [2, 8]: both subgroups hold everything
    m2 = WgLayout((2, 1), (2, 8), None, (1, 8), (1, 1))
    assert [o.subgroup for o in wgx.ownership((2, 8), m2, 2, 4, 64, 16)[(1, 5)]] == [0, 1]
    # round-robin: 8-element 1-D value, sg_layout [2], sg_data [2]: units [0, 4), [4, 8); subgroup 1 owns 2, 3, 6, 7
    m3 = WgLayout((2,), (2,), None, (2,), (1,))
    own = wgx.ownership((8,), m3, 2, 4, 64, 16)
    assert [i for i in range(8) if own[(i,)][0].subgroup == 1] == [2, 3, 6, 7]
    assert [own[(i,)][0].tile for i in (2, 6)] == [0, 1]
    # more subgroups than the layout: subgroup 5 of a 4-subgroup layout duplicates subgroup 1
    own4 = wgx.ownership((4, 4), m, 6, 4, 64, 16)
    assert [o.subgroup for o in own4[(0, 2)]] == [1, 5]


def test_slice_ownership_drops_the_sliced_subgroup_dim() -> None:
    # rows of a [4, 4]-layout 32x64 value reduced over dim 1: row i is held by the 4 subgroups of layout row i // 8
    parent = WgLayout((4, 4), (8, 16), None, (1, 16), (1, 1))
    sl = SliceLayout(parent, (1,))
    own = wgx.ownership((32,), sl, 16, 4, 64, 16)
    assert sorted(o.subgroup for o in own[(9,)]) == [4, 5, 6, 7]
    # the sliced lane layout keeps lane_layout [1] of dim 0: one lane, components in order
    assert {(o.lane, o.component) for o in own[(9,)]} == {(0, 1)}


def test_value_layout_reads_tdesc_types_and_anchor_attributes() -> None:
    import xesim

    prog = xesim.load(__import__("pathlib").Path(__file__).resolve().parents[1] / "e2e" / "wg_softmax.mlir")
    ops = [op for op in prog.walk() if op.name in ("vector.multi_reduction", "xegpu.load_nd")]
    red = next(op for op in ops if op.name == "vector.multi_reduction")
    m = wgx.value_layout(red, red.results[0])
    assert isinstance(m, SliceLayout) and m.dims == (1,)
    ld = next(op for op in ops if op.name == "xegpu.load_nd")
    m2 = wgx.value_layout(ld, ld.operands[0])
    assert isinstance(m2, WgLayout) and m2.sg_layout == (4, 4)
    assert np.array_equal(m2.ownership_mask((32, 64), 5)[8:16, 16:32], np.ones((8, 16), bool))


@settings(max_examples=40)
@given(layouts(), st.data())
def test_slice_ownership_matches_the_literal_rules(case, data) -> None:
    """``#xegpu.slice<P, dims>``: subgroup ids delinearised with P's layout and order, the sliced dims' coordinates
    dropped, then the same unit / round-robin / sharing rule on the remaining dims (spec §3.4)."""
    shape, sg_layout, sg_data, inst, ll, ld, order, n_sg, eb = case
    rank = len(shape)
    if rank < 2:
        return
    dims = sorted(data.draw(st.sets(st.integers(0, rank - 1), min_size=1, max_size=rank - 1)))
    parent = WgLayout(sg_layout, sg_data, inst, ll, ld, order)
    sl = SliceLayout(parent, tuple(dims))
    keep = [d for d in range(rank) if d not in dims]
    s_shape = tuple(shape[d] for d in keep)
    got = wgx.ownership(s_shape, sl, n_sg, eb, 64, 16)
    porder = list(order) if order else list(range(rank - 1, -1, -1))
    lay = [sg_layout[d] for d in keep]
    dat = [sg_data[d] for d in keep]
    unit = [min(s, n * d) for s, n, d in zip(s_shape, lay, dat)]
    for idx in itertools.product(*(range(s) for s in s_shape)):
        want = []
        for s in range(n_sg):
            full = _delin(s % prod(sg_layout), list(sg_layout), porder)
            coord = [full[d] for d in keep]
            hits = 0
            for uoff in itertools.product(*(range(0, S, u) for S, u in zip(s_shape, unit))):
                for j in itertools.product(*(range(d) for d in dat)):
                    if all((uo + c * d + jj) % S == x
                           for uo, c, d, jj, S, x in zip(uoff, coord, dat, j, s_shape, idx)):
                        hits += 1
            want += [s] * hits
        assert sorted(o.subgroup for o in got[idx]) == want, (idx, dims)
