"""Register file model (xesim/hw/regfile.py) against literal readings of spec/pvc-hardware.md §1.5, §3.3, §5.

Expected register images are written out from the spec sentences with nested loops over registers and dwords
(never with the offset maps under test); block-load images are compared with block2d.load_image, an independent
implementation of §1.5.
"""

from __future__ import annotations

import numpy as np
import pytest

from xesim.hw.block2d import Block, Surface, image_to_values, load_image
from xesim.hw.memory import AddressSpace
from xesim.hw.params import load_target
from xesim.hw.regfile import (
    RegisterFile,
    block_load_offsets,
    dpas_operand_offsets,
    image_of_block_load,
    image_of_dpas_operand,
    image_of_simt_fragments,
    ownership,
    simt_offsets,
)

PVC = load_target("pvc")
GRF = 64  # §5: 64-byte registers (literal, independent of the TOML)


# --------------------------------------------------------------------------------------------------- allocation
def test_size_from_target_and_large_grf_doubles() -> None:
    rf = RegisterFile(PVC)
    assert (rf.register_bytes, rf.count) == (64, 128)  # §5
    big = RegisterFile(PVC, large_grf=True)
    assert big.count == 256 == 2 * rf.count


def test_first_fit_whole_registers_and_free() -> None:
    rf = RegisterFile(PVC)
    a = rf.allocate("a", 100, label="a")  # 2 registers
    b = rf.allocate("b", 64, label="b")
    c = rf.allocate("c", 1, label="c")
    assert (a.first_register, b.first_register, c.first_register) == (0, 2, 3)
    assert list(a.registers) == [0, 1] and not a.spilled
    assert rf.live_registers == 4 and rf.peak_registers == 4 and rf.peak_label == "c"
    rf.free("b")
    assert rf.live_registers == 3
    d = rf.allocate("d", 64)  # fits in the hole left by b
    assert d.first_register == 2
    e = rf.allocate("e", 128)  # does not fit in a 1-register hole: goes after c
    rf.free("d")
    assert e.first_register == 4
    assert rf.peak_registers == 6 and rf.live_registers == 5
    with pytest.raises(ValueError):
        rf.allocate("a", 4)
    with pytest.raises(KeyError):
        rf.free("d")


def test_sub_register_alignment() -> None:
    rf = RegisterFile(PVC)
    rf.allocate("x", 32, align_bytes=32)
    y = rf.allocate("y", 32, align_bytes=32)
    assert y.offset == 32 and rf.live_registers == 1


def test_spill_recorded_and_value_still_usable() -> None:
    rf = RegisterFile(PVC)
    for i in range(127):
        rf.allocate(i, 64, label=f"v{i}")
    assert not rf.spills
    big = rf.allocate("big", 3 * 64, label="big")  # one register left: spills
    assert big.spilled and big.first_register >= 128
    assert len(rf.spills) == 1 and rf.spills[0].label == "big" and rf.spills[0].live_registers == 127
    assert rf.peak_registers == 130 and rf.peak_label == "big"
    last = rf.allocate("last", 64)  # the last GRF register is still free
    assert not last.spilled and last.first_register == 127
    data = np.arange(3 * 64, dtype=np.uint8)
    rf.write("big", data)
    assert np.array_equal(rf.read("big"), data)
    assert rf.check("big", data) is None
    # large-GRF mode holds all of it
    rf2 = RegisterFile(PVC, large_grf=True)
    for i in range(127):
        rf2.allocate(i, 64)
    assert not rf2.allocate("big", 3 * 64).spilled and not rf2.spills


def test_write_read_and_stale_bytes_after_free() -> None:
    rf = RegisterFile(PVC)
    rf.allocate("f", 8)
    rf.write("f", np.array([1.0, -2.0], dtype=np.float32))
    assert rf.read("f")[:8].tobytes() == np.array([1.0, -2.0], dtype="<f4").tobytes()
    rf.free("f")
    rf.allocate("g", 8)
    assert rf.check("g", np.array([1.0, -2.0], dtype=np.float32)) is None  # registers are not cleared
    with pytest.raises(ValueError):
        rf.write("g", np.zeros(65, dtype=np.uint8))


def test_check_reports_first_differing_register_and_byte_range() -> None:
    rf = RegisterFile(PVC)
    rf.allocate("pad", 64)
    rf.allocate("v", 4 * 64, label="%v")
    img = np.arange(4 * 64, dtype=np.uint32).astype(np.uint8)
    rf.write("v", img)
    assert rf.check("v", img) is None
    bad = img.copy()
    bad[64 + 10: 64 + 13] ^= 0xFF  # bytes 10..12 of the value's second register (= r2)
    bad[3 * 64 + 1] ^= 1  # a later difference is not the first
    m = rf.check("v", bad)
    assert m is not None
    assert (m.register, m.byte_start, m.byte_end) == (2, 10, 13)
    assert m.expected == bytes(bad[74:77]) and m.actual == bytes(img[74:77])
    assert "r2 bytes 10..12" in str(m) and "%v" in str(m)
    # a run of differences is cut at the register end
    bad2 = img.copy()
    bad2[60:70] ^= 0xFF
    m2 = rf.check("v", bad2)
    assert m2 is not None and (m2.register, m2.byte_start, m2.byte_end) == (1, 60, 64)


# --------------------------------------------------------------------------------------------------- DPAS (§3.3)
def dwords(img: np.ndarray) -> np.ndarray:
    """Registers as rows of 16 little-endian dwords."""
    return img.view("<u4").reshape(-1, 16)


def test_dpas_a_f16_two_rows_per_register() -> None:
    # "Src2 (A): row-major; each row is 8 dwords = 32 bytes, so two rows per 64-byte GRF; within a dword
    # OPS_PER_CHAN (2) consecutive K-elements, lower K in lower bits."
    rng = np.random.default_rng(1)
    a = rng.integers(0, 1 << 16, size=(8, 16)).astype(np.uint16)
    img = image_of_dpas_operand("a", a.view(np.float16), PVC)
    assert img.size == 4 * GRF
    regs = dwords(img)
    for g in range(4):
        for half in range(2):
            r = 2 * g + half
            for d in range(8):
                want = int(a[r][2 * d]) | int(a[r][2 * d + 1]) << 16
                assert regs[g][half * 8 + d] == want


def test_dpas_a_int8_four_per_dword() -> None:
    rng = np.random.default_rng(2)
    a = rng.integers(-128, 128, size=(3, 32)).astype(np.int8)
    img = image_of_dpas_operand("src2", a, PVC)
    assert img.size == 3 * 32  # 3 rows of 8 dwords
    flat = img.view("<u4")
    for r in range(3):
        for d in range(8):
            want = sum((int(a[r][4 * d + i]) & 0xFF) << (8 * i) for i in range(4))
            assert flat[r * 8 + d] == want


def test_dpas_b_vnni_f16_and_int8() -> None:
    # "Src1 (B): column j of B maps to dword j of successive GRFs; each dword packs OPS_PER_CHAN consecutive K rows
    # (lowest row in lowest bits). For 8/16-bit B this is 8 GRFs."
    rng = np.random.default_rng(3)
    b16 = rng.integers(0, 1 << 16, size=(16, 16)).astype(np.uint16)
    regs = dwords(image_of_dpas_operand("b", b16.view(np.float16), PVC, ops_per_channel=2))
    assert regs.shape == (8, 16)
    for g in range(8):
        for j in range(16):
            assert regs[g][j] == int(b16[2 * g][j]) | int(b16[2 * g + 1][j]) << 16
    b8 = rng.integers(0, 256, size=(32, 16)).astype(np.uint8)
    regs = dwords(image_of_dpas_operand("b", b8, PVC, ops_per_channel=4))
    assert regs.shape == (8, 16)
    for g in range(8):
        for j in range(16):
            assert regs[g][j] == sum(int(b8[4 * g + i][j]) << (8 * i) for i in range(4))


def test_dpas_cd_f32_one_row_per_register() -> None:
    # "Dst and Src0 (C): row-major, one row per repeat; for f32/i32 one row = 16 dwords = 1 GRF"
    rng = np.random.default_rng(4)
    c = rng.standard_normal((8, 16)).astype(np.float32)
    for role in ("c", "d"):
        img = image_of_dpas_operand(role, c, PVC)
        assert img.size == 8 * GRF
        regs = dwords(img)
        for r in range(8):
            for j in range(16):
                assert regs[r][j] == int(np.float32(c[r][j]).view(np.uint32))


def test_dpas_rejects_wrong_shapes_and_unmodelled_types() -> None:
    with pytest.raises(ValueError):
        image_of_dpas_operand("a", np.zeros((8, 8), np.float16), PVC)  # K must be 16 for f16
    with pytest.raises(ValueError):
        image_of_dpas_operand("c", np.zeros((8, 16), np.float16), PVC)  # 16-bit C/D layout not in §3.3
    with pytest.raises(ValueError):
        image_of_dpas_operand("b", np.zeros((16, 16), np.float16), PVC, ops_per_channel=4)
    with pytest.raises(ValueError):
        image_of_dpas_operand("x", np.zeros((8, 16), np.float32), PVC)


# --------------------------------------------------------------------------------------------------- block loads (§1.5)
BLOCKS = [
    Block(2, 16, 8),
    Block(2, 16, 16, count=2),
    Block(4, 8, 8),  # one 8-dword row per half register
    Block(1, 32, 8),
    Block(2, 12, 5),  # W padded to 16, block padded to a whole register
    Block(2, 16, 16, vnni=True),
    Block(1, 16, 30, vnni=True, count=2),  # H padded to 32 rows
    Block(4, 8, 16, transpose=True),
    Block(4, 3, 5, transpose=True),
]


@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_block_load_image_equals_block2d(block: Block) -> None:
    space = AddressSpace()
    s = block.elem_bytes
    width_elems, height = 80, 40
    alloc_base = space.allocate(width_elems * s * height, "buffer").base
    rng = np.random.default_rng(5)
    space.write(alloc_base, rng.integers(0, 256, size=width_elems * s * height).astype(np.uint8))
    surface = Surface(alloc_base, width_elems * s, height, width_elems * s)
    # x, y chosen so some blocks straddle the right / bottom edge (OOB elements are 0 in both)
    for x, y in [(0, 0), (8, 3), (width_elems - block.width, height - block.height + 2)]:
        ref = load_image(space, surface, block, x, y, target=PVC)
        dt = {1: np.uint8, 2: np.uint16, 4: np.uint32}[s]
        values = image_to_values(ref, block, dt)
        img = image_of_block_load(values, block, PVC)
        assert img.size % GRF == 0
        assert np.array_equal(img, ref)


def test_block_load_image_padding_is_zero() -> None:
    block = Block(2, 12, 3)  # rowPitch 16, 3 rows = 48 elements = 96 bytes -> 2 registers
    vals = np.arange(1, 37, dtype=np.uint16).reshape(1, 3, 12)
    img = image_of_block_load(vals, block, PVC).view("<u2")
    assert img.size == 64
    for y in range(3):
        assert list(img[16 * y: 16 * y + 12]) == list(range(1 + 12 * y, 13 + 12 * y))
        assert list(img[16 * y + 12: 16 * y + 16]) == [0] * 4
    assert not img[48:].any()


# --------------------------------------------------------------------------------------------------- SIMT fragments
def test_simt_slot_rule() -> None:
    # lane i, component k at slot k*16 + i (element units)
    frags = np.array([[1000 * i + k for k in range(8)] for i in range(16)], dtype=np.float32)
    img = image_of_simt_fragments(frags).view("<f4")
    assert img.size == 128
    for i in range(16):
        for k in range(8):
            assert img[k * 16 + i] == 1000 * i + k
    h = np.array([[i + 16 * k for k in range(4)] for i in range(16)], dtype=np.uint16)
    assert list(image_of_simt_fragments(h).view("<u2")) == list(range(64))


# --------------------------------------------------------------------------------------------------- ownership
def _roundtrip(rf: RegisterFile, key: str, matrix: np.ndarray, img: np.ndarray, offsets: np.ndarray) -> None:
    rf.allocate(key, img.size, label=key)
    rf.write(key, img)
    regs, byts = rf.ownership(key, offsets)
    s = matrix.dtype.itemsize
    base = rf.placement(key).offset
    raw = rf.read(key)
    for idx in np.ndindex(matrix.shape):
        at = int(regs[idx]) * GRF + int(byts[idx]) - base
        assert byts[idx] + s <= GRF  # an element never straddles two registers
        assert raw[at: at + s].tobytes() == matrix[idx].tobytes()


def test_ownership_round_trip() -> None:
    rf = RegisterFile(PVC)
    rf.allocate("gap", 3 * 64)
    rng = np.random.default_rng(6)
    for role, shape, dt in [("a", (8, 16), np.uint16), ("b", (32, 16), np.uint8), ("c", (4, 16), np.uint32)]:
        m = rng.integers(0, 200, size=shape).astype(dt)
        offs, _ = dpas_operand_offsets(role, shape, m.dtype.itemsize, PVC)
        _roundtrip(rf, role, m, image_of_dpas_operand(role, m, PVC), offs)
    block = Block(2, 16, 8, count=2, vnni=True)
    vals = rng.integers(0, 60000, size=(2, 4, 16, 2)).astype(np.uint16)
    offs, _ = block_load_offsets(block, GRF)
    _roundtrip(rf, "blk", vals, image_of_block_load(vals, block, PVC), offs)
    frags = rng.integers(0, 1 << 30, size=(16, 8)).astype(np.uint32)
    _roundtrip(rf, "simt", frags, image_of_simt_fragments(frags), simt_offsets(16, 8, 4))
    # the first A element is at the A value's first register, byte 0; element (1, 0) at byte 32 (§3.3)
    place = rf.placement("a")
    offs, _ = dpas_operand_offsets("a", (8, 16), 2, PVC)
    regs, byts = ownership(place, offs)
    assert (regs[0, 0], byts[0, 0]) == (place.first_register, 0)
    assert (regs[1, 0], byts[1, 0]) == (place.first_register, 32)
    assert (regs[2, 3], byts[2, 3]) == (place.first_register + 1, 6)
