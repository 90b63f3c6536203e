"""Scattered load/store (spec/pvc-hardware.md §2.1-§2.3, programs-and-runner.md §3.3): gathers and scatters with
masks, chunk sizes, overlapping lanes, faults, alignment and the legality rules of one LSC message.

Expected values come from a literal per-lane, per-element reading of the spec written here (Python loops over
the source arrays), never from xesim.hw.scatter itself."""

from __future__ import annotations

import numpy as np
import pytest

from xesim.hw.memory import AddressSpace, MemoryFault
from xesim.hw.params import load_target
from xesim.hw.scatter import LaneFault, check_alignment, check_scatter, gather, message_shape, scatter

DTYPES = [np.float32, np.float16, np.int8]


def _buffer(dtype, n: int, space: AddressSpace | None = None):
    mem = space or AddressSpace()
    src = (np.arange(n) * 7 % 251 - 100).astype(dtype)  # distinct-ish values, negative ones too
    a = mem.allocate(src.nbytes, "device", "%buf")
    mem.write(a.base, src)
    return mem, a, src


def _expected_gather(src, offsets, mask, chunk, fill=None):
    """Literal §2.1/§2.2 reading: lane i, element k = src[offsets[i] + k] when enabled, else the fill."""
    lanes = len(offsets)
    out = np.zeros((lanes, chunk), dtype=src.dtype) if fill is None else np.array(fill, dtype=src.dtype)
    for i in range(lanes):
        if mask[i]:
            for k in range(chunk):
                out[i, k] = src[offsets[i] + k]
    return out


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("chunk", range(1, 9))
def test_gather_chunks_with_mask(dtype, chunk: int) -> None:
    mem, a, src = _buffer(dtype, 16 * 8 + 64)
    offsets = np.array([(i * 5 + 3) % 120 for i in range(16)], dtype=np.int64)  # unordered, some overlapping
    mask = np.array([i % 3 != 1 for i in range(16)])
    got = gather(mem, a.base, offsets, mask, chunk, dtype)
    assert got.shape == (16, chunk) and got.dtype == np.dtype(dtype)
    assert np.array_equal(got, _expected_gather(src, offsets, mask, chunk))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("chunk", range(1, 9))
def test_scatter_chunks_with_mask(dtype, chunk: int) -> None:
    mem, a, src = _buffer(dtype, 16 * 8 + 8)
    offsets = np.array([((i * 11) % 16) * chunk for i in range(16)], dtype=np.int64)  # disjoint, permuted
    mask = np.array([i % 4 != 2 for i in range(16)])
    values = (np.arange(16 * chunk).reshape(16, chunk) % 97 + 1).astype(dtype)
    scatter(mem, a.base, offsets, mask, chunk, values)
    expect = src.copy()
    for i in range(16):
        if mask[i]:
            for k in range(chunk):
                expect[offsets[i] + k] = values[i, k]
    assert np.array_equal(mem.read(a.base, src.nbytes).view(dtype), expect)


def test_masked_lanes_with_wild_addresses_do_not_fault() -> None:
    mem, a, src = _buffer(np.float32, 64)
    wild = np.array([0, -(10**9), 2**40, 2**61, 63, 1, -1, 10**12], dtype=np.int64)
    mask = np.array([True, False, False, False, False, True, False, False])
    got = gather(mem, a.base, wild, mask, 1, np.float32)
    assert got[:, 0].tolist() == [src[0], 0, 0, 0, 0, src[1], 0, 0]
    before = mem.read(a.base, src.nbytes).copy()
    scatter(mem, a.base, wild, mask, 1, np.full((8, 1), 42.0, np.float32))
    after = mem.read(a.base, src.nbytes).view(np.float32)
    assert after[0] == 42.0 and after[1] == 42.0
    assert np.array_equal(after[2:], before.view(np.float32)[2:])
    # No enabled lane at all: nothing is touched, even with a base outside any allocation.
    assert not gather(mem, 12345, wild, np.zeros(8, bool), 4, np.float32).any()
    scatter(mem, 12345, wild, np.zeros(8, bool), 4, np.ones((8, 4), np.float32))


def test_masked_value_unchanged_keeps_previous_registers() -> None:
    mem, a, src = _buffer(np.int32, 32)
    offsets = np.array([4, 5, 6, 7], dtype=np.int64)
    mask = np.array([True, False, True, False])
    prev = np.array([[-1, -2], [-3, -4], [-5, -6], [-7, -8]], dtype=np.int32)
    got = gather(mem, a.base, offsets, mask, 2, np.int32, "unchanged", previous=prev)
    assert got.tolist() == [[src[4], src[5]], [-3, -4], [src[6], src[7]], [-7, -8]]
    assert gather(mem, a.base, offsets, mask, 2, np.int32, "zero")[1].tolist() == [0, 0]
    with pytest.raises(ValueError, match="previous"):
        gather(mem, a.base, offsets, mask, 2, np.int32, "unchanged")
    with pytest.raises(ValueError, match="masked_value"):
        gather(mem, a.base, offsets, mask, 2, np.int32, "garbage")


def test_scalar_mask_and_scalar_offset() -> None:
    mem, a, src = _buffer(np.float32, 16)
    assert gather(mem, a.base, np.int64(3), True, 2, np.float32).tolist() == [[src[3], src[4]]]
    assert gather(mem, a.base, np.arange(4), False, 2, np.float32).tolist() == [[0, 0]] * 4


def test_overlapping_lanes_ascending_descending_component_major() -> None:
    # All lanes on one element: ascending = the highest enabled lane's value remains.
    mem, a, _ = _buffer(np.int32, 8)
    mask = np.array([True] * 13 + [False] * 3)
    vals = np.arange(100, 116, dtype=np.int32).reshape(16, 1)
    scatter(mem, a.base, np.zeros(16, np.int64), mask, 1, vals)
    assert mem.read(a.base, 4).view(np.int32)[0] == 112  # lane 12 is the last enabled lane
    scatter(mem, a.base, np.zeros(16, np.int64), mask, 1, vals, lane_order="descending")
    assert mem.read(a.base, 4).view(np.int32)[0] == 100
    # Partial overlap, chunk 2: lane 0 -> elems 0,1 ; lane 1 -> elems 1,2.
    #   lane-major ascending: writes l0v0 l0v1 l1v0 l1v1 -> elem1 = lane1 component 0
    #   component-major:      writes l0v0 l1v0 l0v1 l1v1 -> elem1 = lane0 component 1
    vals2 = np.array([[10, 11], [20, 21]], dtype=np.int32)
    offs = np.array([0, 1], dtype=np.int64)
    for order, expect in (("ascending", [10, 20, 21]), ("component_major", [10, 11, 21]), ("descending", [10, 11, 21])):
        mem.write(a.base, np.zeros(8, np.int32))
        scatter(mem, a.base, offs, np.array([True, True]), 2, vals2, lane_order=order)
        assert mem.read(a.base, 12).view(np.int32).tolist() == expect, order
    with pytest.raises(ValueError, match="lane_order"):
        scatter(mem, a.base, offs, np.array([True, True]), 2, vals2, lane_order="random")


def test_overlapping_scatter_matches_a_literal_sequential_reading() -> None:
    rng = np.random.default_rng(7)
    for _ in range(20):
        mem, a, src = _buffer(np.float16, 64)
        chunk = int(rng.integers(1, 6))
        offs = rng.integers(0, 64 - chunk, size=16)
        mask = rng.random(16) < 0.7
        vals = rng.standard_normal((16, chunk)).astype(np.float16)
        scatter(mem, a.base, offs, mask, chunk, vals)
        expect = src.copy()
        for i in range(16):  # lane 0 first, each lane its whole chunk
            if mask[i]:
                expect[offs[i]:offs[i] + chunk] = vals[i]
        assert np.array_equal(mem.read(a.base, src.nbytes).view(np.uint16), expect.view(np.uint16))


def test_unmasked_out_of_bounds_faults_name_lane_and_address() -> None:
    mem, a, src = _buffer(np.float32, 32)
    offs = np.array([0, 1, 40, 2, -5], dtype=np.int64)
    mask = np.array([True, True, True, True, True])
    with pytest.raises(LaneFault) as ei:
        gather(mem, a.base, offs, mask, 1, np.float32)
    assert ei.value.lane == 2 and ei.value.address == a.base + 160
    assert isinstance(ei.value, MemoryFault) and f"0x{a.base + 160:x}" in str(ei.value)
    # The chunk of an in-bounds start running past the end faults too (lane 0: elements 30..33 of 32).
    with pytest.raises(LaneFault) as ei:
        gather(mem, a.base, np.array([30, 0]), np.array([True, True]), 4, np.float32)
    assert ei.value.lane == 0
    # A faulting store writes nothing, not even the good lanes before the bad one.
    before = mem.read(a.base, src.nbytes).copy()
    with pytest.raises(LaneFault) as ei:
        scatter(mem, a.base, np.array([0, 1, -5]), np.array([True, True, True]), 1, np.ones((3, 1), np.float32))
    assert ei.value.lane == 2 and ei.value.address == a.base - 20
    assert np.array_equal(mem.read(a.base, src.nbytes), before)
    # Use after free.
    mem.free(a.base)
    with pytest.raises(MemoryFault, match="use after free"):
        gather(mem, a.base, np.array([0]), np.array([True]), 1, np.float32)


def test_lanes_in_different_allocations() -> None:
    mem = AddressSpace()
    x = mem.allocate(64, "device")
    y = mem.allocate(64, "device")
    mem.write(x.base, np.arange(16, dtype=np.int32))
    mem.write(y.base, np.arange(100, 116, dtype=np.int32))
    offs = np.array([x.base // 4 + 3, y.base // 4 + 5, x.base // 4], dtype=np.int64)  # base 0, element offsets
    got = gather(mem, 0, offs, np.array([True, True, True]), 2, np.int32)
    assert got.tolist() == [[3, 4], [105, 106], [0, 1]]
    scatter(mem, 0, offs, np.array([True, True, False]), 1, np.array([[-1], [-2], [-3]], np.int32))
    assert mem.read(x.base + 12, 4).view(np.int32)[0] == -1 and mem.read(y.base + 20, 4).view(np.int32)[0] == -2
    assert mem.read(x.base, 4).view(np.int32)[0] == 0


def test_address_arithmetic_wraps_at_the_address_width() -> None:
    slm = AddressSpace("SLM", base=0x1000, capacity=128 * 1024)
    a = slm.allocate(64, "slm")
    slm.write(a.base, np.arange(16, dtype=np.float32))
    off = np.array([2**30 + 3], dtype=np.int64)  # 4 * 2^30 = 2^32: wraps to element 3 with 32-bit SLM addresses
    assert gather(slm, a.base, off, np.array([True]), 1, np.float32, address_bits=32).tolist() == [[3.0]]
    with pytest.raises(LaneFault):
        gather(slm, a.base, off, np.array([True]), 1, np.float32)  # 64-bit: far outside
    assert load_target("pvc").scatter.slm_address_bits == 32


def test_alignment_rules() -> None:
    # §2.3: natural alignment of every enabled lane.  Element offsets keep the base's alignment, so only an
    # under-aligned base breaks it; disabled lanes do not count.
    assert check_alignment(0x1000, np.arange(16), np.ones(16, bool), 4) == []
    v = check_alignment(0x1002, np.arange(16), np.ones(16, bool), 4)
    assert len(v) == 1 and v[0].severity == "error" and "16 enabled lane(s)" in v[0].rule and "§2.3" in v[0].source
    assert check_alignment(0x1002, np.arange(16), np.zeros(16, bool), 4) == []
    assert check_alignment(0x1002, np.arange(4), np.ones(4, bool), 2) == []
    assert len(check_alignment(0x1004, np.arange(4), np.ones(4, bool), 8)) == 1
    # A stricter alignment (e.g. a packed d32 message of 16-bit data) is checked per lane.
    v = check_alignment(0x1000, np.array([0, 1, 2, 3]), np.array([True, True, False, True]), 2, align_bytes=4)
    assert len(v) == 1 and "lane 1" in v[0].rule and "lane 3" in v[0].rule and "2 enabled" in v[0].rule
    assert check_alignment(0x1001, [0], [True], 1) == []
    v = check_alignment(0x1002, [0], [True], 4, severity="warning")
    assert v[0].severity == "warning"


# ----------------------------------------------------------------------------------------------- legality
SIMT_VECTORS = {1, 2, 3, 4, 8}  # §2.1: SIMT vectors
BLOCK_VECTORS = {1, 2, 3, 4, 8, 16, 32, 64}  # §2.1: SIMD1 transposed block vectors (d32/d64 only)


def _spec_legal_chunk(elem: int, chunk: int, lanes: int) -> bool:
    """Literal §2.1: d32/d64 carry any vector; d8/d16 carry one element (d8u32/d16u32) or, packed into 32-bit
    words (IMEX-RFC: per-lane size a multiple of 32 bits), a d32 vector."""
    if elem >= 4:
        vec = chunk
    elif chunk == 1:
        vec = 1
    elif (chunk * elem) % 4 == 0:
        vec = chunk * elem // 4
    else:
        return False
    return vec in SIMT_VECTORS or (lanes == 1 and vec in BLOCK_VECTORS)


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
@pytest.mark.parametrize("lanes", [1, 2])
def test_chunk_tables_match_the_spec_rules(elem: int, lanes: int) -> None:
    t = load_target("pvc")
    for chunk in range(1, 300):
        v = [x for x in check_scatter(t, elem, chunk, lanes, "global", "prefetch") if "chunk" in x.rule]
        assert (not v) == _spec_legal_chunk(elem, chunk, lanes), (elem, chunk, lanes, v)


def test_payload_limits_from_the_spec() -> None:
    t = load_target("pvc")

    def payload(elem: int, chunk: int, lanes: int, kind: str = "load", space: str = "global") -> list:
        return [v for v in check_scatter(t, elem, chunk, lanes, space, kind) if "payload" in v.rule]

    # §2.1: "SIMD16 allows d32x8 but d64 only up to x4, SIMD32 d32 up to x4"
    assert payload(4, 8, 16) == [] and payload(8, 4, 16) == [] and payload(4, 4, 32) == []
    assert payload(8, 8, 16) and payload(4, 8, 32, "store") and payload(8, 8, 16, space="slm")
    assert payload(8, 8, 16)[0].severity == "warning"
    # SIMD1 block: up to 64 elements, max 512 bytes (d64 x64 = 512 bytes exactly).
    assert payload(8, 64, 1) == [] and payload(4, 64, 1) == []
    # Structure-of-arrays layout (§2.1): each vector component fills whole GRFs; 20 lanes of d64 = 160 bytes =
    # 3 GRFs per component, x3 = 9 GRFs > 8 (although 20*3*8 = 480 bytes of data).
    assert payload(8, 3, 20) and payload(8, 2, 20) == []
    # Prefetch carries no data payload.
    assert payload(8, 8, 16, "prefetch") == []
    # 16-bit data, chunk 16, 16 lanes: packed into d32 x8 = 8 GRFs: legal.
    assert check_scatter(t, 2, 16, 16, "global", "load") == []
    assert message_shape(t, 2, 16) == (4, 8) and message_shape(t, 1, 1) == (4, 1) and message_shape(t, 8, 3) == (8, 3)


def test_other_scatter_rules_and_severities() -> None:
    t = load_target("pvc")
    v = check_scatter(t, 3, 1, 16, "global", "load")
    assert len(v) == 1 and v[0].severity == "error" and "no LSC data size" in v[0].rule
    v = check_scatter(t, 2, 3, 16, "slm", "store")
    assert len(v) == 1 and v[0].severity == "error" and "32-bit words" in v[0].rule
    v = check_scatter(t, 4, 16, 16, "global", "load")
    assert len(v) == 1 and v[0].severity == "warning" and "single-lane" in v[0].rule
    assert v[0].key == "chunk" and v[0].param == "scatter.simt_chunks.d32"
    assert check_scatter(t, 4, 16, 1, "global", "load") == []
    v = check_scatter(t, 4, 1, 64, "global", "load")
    assert any("64 lanes" in x.rule for x in v)
    assert check_scatter(t, 4, 8, 16, "global", "load") == []
    with pytest.raises(ValueError, match="memory space"):
        check_scatter(t, 4, 1, 16, "private", "load")
    with pytest.raises(ValueError, match="access kind"):
        check_scatter(t, 4, 1, 16, "global", "atomic")


def test_scatter_parameters_have_sources_and_bmg_inherits_them() -> None:
    for name in ("pvc", "bmg"):
        t = load_target(name)
        for path, p in t.params.items():
            if path.startswith("scatter."):
                assert "pvc-hardware.md §2" in p.source or "programs-and-runner.md" in p.source, path
        assert t.scatter.masked_load_value == "zero" and t.scatter.store_lane_order == "ascending"
    assert "scatter.masked_load_value" in {p.path for p in load_target("pvc").assumptions()}
