"""2D block loads/stores (spec/pvc-hardware.md §1.4, §1.5) against a literal reading of the spec written here.

``literal_image`` is a direct port of the §1.5 pseudo-code (rowSize / rowPitch / rows / blockSize / blockPitch
loops over the register side, element by element, with the §1.4 per-element bounds rule); ``literal_values``
reads XeGPU's logical value straight from memory by the definitions of §1.5 (plain M[Y+y][X+b*W+x], VNNI groups
of K rows with the lower row in the lower bits, transpose = column c becomes row c).  Every legal PVC shape
(enumerated here from the §1.3 limits, independently of the TOML) is compared in bounds and at a sampled
out-of-bounds position (right/bottom edge, negative start, corner, fully outside).
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from xesim.hw.block2d import (
    Block,
    Message,
    Surface,
    check_block,
    emulated_transpose,
    image_to_values,
    load_image,
    load_values,
    shape_violations,
    split_tile,
    store_image,
    store_values,
)
from xesim.hw.memory import AddressSpace, MemoryFault
from xesim.hw.params import load_target

PVC = load_target("pvc")
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


# ------------------------------------------------------------------------------------ literal reading of §1.5
def pow2_at_least(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


class Mem:
    """A surface in an AddressSpace, filled with random bytes (also around it), with a literal element reader."""

    PREFIX = 128

    def __init__(self, space: AddressSpace, s: int, width_bytes: int, height: int, pitch: int, seed: int) -> None:
        self.s = s
        size = self.PREFIX + pitch * height + 256
        self.alloc = space.allocate(size, "device")
        rng = np.random.default_rng(seed)
        self.alloc.data[:] = rng.integers(1, 256, size, dtype=np.uint8)  # no zero bytes: a 0 means "not read"
        self.surface = Surface(self.alloc.base + self.PREFIX, width_bytes, height, pitch)
        self.snapshot = bytes(self.alloc.data)
        self.table = [
            [int.from_bytes(self.snapshot[self.PREFIX + r * pitch + c * s:self.PREFIX + r * pitch + (c + 1) * s],
                            "little") for c in range(width_bytes // s)]
            for r in range(height)
        ]

    def elem(self, row: int, col: int) -> int:
        # §1.4: 0 outside [0, height) x [0, width_bytes / s), per element, negative coordinates included
        if 0 <= row < self.surface.height and 0 <= col < self.surface.width_bytes // self.s:
            return self.table[row][col]
        return 0


def literal_image(mem: Mem, s: int, W: int, H: int, B: int, transpose: bool, transform: bool, X: int, Y: int,
                  grf: int = 64) -> np.ndarray:
    E = grf // s
    K = 4 // s if transform else 1
    if transpose:
        rowSize, rowPitch, rows = H, pow2_at_least(H), W
    elif transform:
        rowSize, rowPitch, rows = W * K, pow2_at_least(W) * K, (H + K - 1) // K
    else:
        rowSize, rowPitch, rows = W, pow2_at_least(W), H
    blockSize = rowPitch * rows
    blockPitch = (blockSize + E - 1) // E * E
    reg = [0] * (blockPitch * B)
    for b in range(B):
        base = b * blockPitch
        for r in range(rows):
            for c in range(rowSize):
                if transpose:
                    x, y = r, c
                elif transform:
                    x, y = c // K, r * K + c % K
                    if y >= H:
                        continue  # H zero-padded to a multiple of K
                else:
                    x, y = c, r
                reg[base + r * rowPitch + c] = mem.elem(Y + y, X + b * W + x)
    return np.array(reg, dtype=UINT[s]).view(np.uint8)


def literal_values(mem: Mem, s: int, W: int, H: int, B: int, transpose: bool, transform: bool, X: int, Y: int
                   ) -> np.ndarray:
    if transpose:
        v = [[[mem.elem(Y + y, X + b * W + x) for y in range(H)] for x in range(W)] for b in range(B)]
    elif transform:
        K = 4 // s
        v = [[[[mem.elem(Y + r * K + i, X + b * W + x) if r * K + i < H else 0 for i in range(K)]
               for x in range(W)] for r in range(math.ceil(H / K))] for b in range(B)]
    else:
        v = [[[mem.elem(Y + y, X + b * W + x) for x in range(W)] for y in range(H)] for b in range(B)]
    return np.array(v, dtype=UINT[s])


# ------------------------------------------------------------------------------------ legal shapes (§1.3)
def legal_load_shapes() -> list[tuple[int, int, int, int, bool, bool]]:
    """(s, W, H, B, transpose, transform) for every legal PVC load, from the §1.3 text."""
    out = []
    counts = {1: (1, 2, 4), 2: (1, 2, 4), 4: (1, 2), 8: (1,)}
    for s in (1, 2, 4, 8):  # plain: W*s a multiple of 4, >= 4 bytes; W*B*s <= 64; H <= 32
        for B in counts[s]:
            for W in range(1, 65):
                if W * s % 4 == 0 and W * s >= 4 and W * B * s <= 64:
                    out += [(s, W, H, B, False, False) for H in range(1, 33)]
    for s, wmin, hmin in ((1, 4, 4), (2, 2, 2)):  # VNNI: d8 W 4..16 H 4..32; d16 W 2..16 H 2..32
        for B in (1, 2, 4):
            for W in range(wmin, 17):
                if W * s % 4 == 0 and W * B * s <= 64:
                    out += [(s, W, H, B, False, True) for H in range(hmin, 33)]
    out += [(4, W, H, 1, True, False) for W in range(1, 9) for H in range(1, 33)]  # transpose d32
    out += [(8, W, 8, 1, True, False) for W in (1, 2, 4)]  # transpose d64: H = 8
    return out


LEGAL = legal_load_shapes()
GEOM = {1: (256, 40, 320), 2: (256, 40, 320), 4: (256, 40, 320), 8: (256, 40, 320)}


@pytest.fixture(scope="module")
def mems() -> tuple[AddressSpace, dict[int, Mem]]:
    space = AddressSpace()
    return space, {s: Mem(space, s, *GEOM[s], seed=s) for s in (1, 2, 4, 8)}


def positions(mem: Mem, s: int, W: int, H: int, B: int, i: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    """An in-bounds start and one sampled out-of-bounds start; X stays dword aligned (§1.2)."""
    xm = max(1, 4 // s)
    we, h = mem.surface.width_bytes // s, mem.surface.height
    cols = B * W

    def down(v: int) -> int:
        return v // xm * xm

    def up(v: int) -> int:
        return -(-v // xm) * xm

    inside = (down(int(rng.integers(0, we - cols + 1))), int(rng.integers(0, h - H + 1)))
    dx = int(rng.integers(1, max(2, cols)))
    dy = int(rng.integers(1, max(2, H)))
    choice = i % 5
    if choice == 0:  # straddles the right edge
        oob = (down(we - dx), inside[1])
    elif choice == 1:  # straddles the bottom edge
        oob = (inside[0], h - dy)
    elif choice == 2:  # starts left of and above the surface
        oob = (-up(dx), -dy)
    elif choice == 3:  # bottom-right corner
        oob = (down(we - dx), h - dy)
    else:  # fully outside (left and below)
        oob = (-up(cols) - xm, h + dy)
    return [inside, oob]


def test_legal_shape_count_matches_the_limits() -> None:
    # hand count: plain d8 (16+8+4)*32, d16 (16+8+4)*32, d32 (16+8)*32, d64 8*32; vnni d8 (4+4+4)*29,
    # d16 (8+8+4)*31; transpose d32 8*32, d64 3
    assert len(LEGAL) == 896 + 896 + 768 + 256 + 348 + 620 + 256 + 3


def test_every_legal_load_matches_the_literal_pseudo_code(mems) -> None:
    space, by_size = mems
    rng = np.random.default_rng(1234)
    for i, (s, W, H, B, tr, tf) in enumerate(LEGAL):
        mem = by_size[s]
        block = Block(s, W, H, B, tr, tf)
        for x, y in positions(mem, s, W, H, B, i, rng):
            assert check_block(PVC, mem.surface, block, x, y, "load") == [], (block, x, y)
            img = load_image(space, mem.surface, block, x, y)
            want = literal_image(mem, s, W, H, B, tr, tf, x, y)
            assert img.dtype == np.uint8 and img.size % 64 == 0
            assert np.array_equal(img, want), (block, x, y)
            vals = image_to_values(img, block, UINT[s])
            assert np.array_equal(vals, literal_values(mem, s, W, H, B, tr, tf, x, y)), (block, x, y)


def test_prefetch_shapes_are_the_plain_load_shapes(mems) -> None:
    _, by_size = mems
    for s, W, H, B, tr, tf in LEGAL:
        if not (tr or tf):
            assert shape_violations(PVC, Block(s, W, H, B), "prefetch") == []


def test_grf_size_comes_from_the_target(mems) -> None:
    # blockPitch rounds to whole GRFs (E = GRF / s): a 32-byte GRF changes the image of non-GRF-sized blocks
    space, by_size = mems
    small = PVC.with_overrides({"grf.register_bytes": 32})
    for s, W, H, B, tr, tf in [(2, 4, 3, 2, False, False), (1, 4, 5, 4, False, True), (4, 3, 5, 1, True, False)]:
        mem = by_size[s]
        block = Block(s, W, H, B, tr, tf)
        img = load_image(space, mem.surface, block, 4, 1, target=small)
        assert np.array_equal(img, literal_image(mem, s, W, H, B, tr, tf, 4, 1, grf=32))
        assert not np.array_equal(img, load_image(space, mem.surface, block, 4, 1))


def test_typed_values_are_bit_views(mems) -> None:
    space, by_size = mems
    mem = by_size[2]
    block = Block(2, 16, 16, 1, False, True)
    for dt in (np.float16, ml_dtypes.bfloat16, np.int16):
        v = load_values(space, mem.surface, block, 8, 2, dt)
        assert v.dtype == np.dtype(dt) and v.shape == (1, 8, 16, 2)
        assert np.array_equal(v.view(np.uint16), literal_values(mem, 2, 16, 16, 1, False, True, 8, 2))
    with pytest.raises(ValueError, match="4 bytes"):
        image_to_values(load_image(space, mem.surface, block, 0, 0), block, np.float32)


def test_spec_example_values() -> None:
    """Hand-computed values of the shared example sg_block_loads.mlir (its CHECK lines)."""
    space = AddressSpace()
    a = space.allocate(16 * 16 * 4, "device")
    a.data[:] = np.arange(256, dtype=np.float32).view(np.uint8)
    t = Surface(a.base, 64, 16, 64)
    tr = load_values(space, t, Block(4, 8, 16, transpose=True), 4, 0, np.float32)[0]
    assert tr.shape == (8, 16)
    assert tr[0].tolist() == [4 + 16 * c for c in range(16)] and tr[7, 15] == 251
    s8 = Surface(a.base, 64, 8, 64)  # 8x16 f32 surface, block at row 4, column 8: rows 8.. and cols 16.. are 0
    v = load_values(space, s8, Block(4, 16, 8), 8, 4, np.float32)[0]
    assert v[0].tolist() == [72, 73, 74, 75, 76, 77, 78, 79] + [0] * 8
    assert v[3, 7] == 127 and not v[4:].any()
    h = space.allocate(16 * 32 * 2, "device")
    h.data[:] = (np.arange(512) % 256).astype(np.float16).view(np.uint8)
    p = load_values(space, Surface(h.base, 64, 16, 64), Block(2, 16, 16, vnni=True), 8, 0, np.float16)[0]
    flat = p.reshape(16, 16)
    assert flat[0, :4].tolist() == [8, 40, 9, 41] and flat[2, :2].tolist() == [72, 104]


def test_memory_faults_for_in_surface_elements_only() -> None:
    space = AddressSpace()
    a = space.allocate(8 * 64, "device")  # 8 rows of 64 bytes
    a.data[:] = 7
    tall = Surface(a.base, 64, 16, 64)  # the descriptor claims 16 rows
    blk = Block(4, 16, 8)
    assert load_image(space, tall, blk, 0, 0).any()
    with pytest.raises(MemoryFault, match="2D block load"):
        load_image(space, tall, blk, 0, 4)
    # elements outside the surface are never read: the surface ends at the allocation's end
    exact = Surface(a.base, 64, 8, 64)
    img = load_image(space, exact, blk, 8, 4)
    assert img.reshape(8, 16, 4)[:4, :8].all() and not img.reshape(8, 16, 4)[4:].any()
    assert not load_image(space, exact, blk, 16, 8).any()  # fully outside: nothing read
    with pytest.raises(MemoryFault):
        store_values(space, tall, Block(4, 16, 8), 0, 4, np.ones((8, 16), np.float32))
    assert (a.data == 7).all()  # a faulting store writes nothing
    space.free(a.base)
    with pytest.raises(MemoryFault, match="use after free"):
        load_image(space, exact, blk, 0, 0)


def test_rows_in_different_allocations() -> None:
    space = AddressSpace()
    a = space.allocate(64, "device")
    b = space.allocate(64, "device")
    a.data[:] = 1
    b.data[:] = 2
    surf = Surface(a.base, 64, 2, b.base - a.base)  # row 0 in a, row 1 in b (a legal 64-aligned pitch)
    v = load_values(space, surf, Block(1, 64, 2), 0, 0, np.uint8)[0]
    assert (v[0] == 1).all() and (v[1] == 2).all()
    store_values(space, surf, Block(1, 64, 2), 0, 0, np.full((2, 64), 9, np.uint8))
    assert (a.data == 9).all() and (b.data == 9).all()
    space.free(b.base)
    with pytest.raises(MemoryFault, match="surface row 1"):
        load_image(space, surf, Block(1, 64, 2), 0, 0)


# ------------------------------------------------------------------------------------ stores
def legal_store_shapes() -> list[tuple[int, int, int]]:
    """(s, W, H): B = 1, H 1..8, W*s a multiple of 4, 4..64 bytes (§1.3 store)."""
    return [(s, W, H) for s in (1, 2, 4, 8) for W in range(1, 65) if W * s % 4 == 0 and 4 <= W * s <= 64
            for H in range(1, 9)]


def test_store_round_trips_with_partial_oob() -> None:
    rng = np.random.default_rng(99)
    shapes = legal_store_shapes()
    assert len(shapes) == (16 + 16 + 16 + 8) * 8
    space = AddressSpace()
    mems = {s: Mem(space, s, *GEOM[s], seed=10 + s) for s in (1, 2, 4, 8)}
    for i, (s, W, H) in enumerate(shapes):
        mem = mems[s]
        block = Block(s, W, H)
        for x, y in positions(mem, s, W, H, 1, i, rng):
            assert check_block(PVC, mem.surface, block, x, y, "store") == []
            before = bytes(mem.alloc.data)
            vals = rng.integers(0, 1 << (8 * s), (H, W), dtype=UINT[s], endpoint=False)
            store_values(space, mem.surface, block, x, y, vals)
            # expected memory: every in-surface element of the block replaced, every other byte unchanged
            want = bytearray(before)
            for r in range(H):
                for c in range(W):
                    row, col = y + r, x + c
                    if 0 <= row < mem.surface.height and 0 <= col < mem.surface.width_bytes // s:
                        off = Mem.PREFIX + row * mem.surface.pitch_bytes + col * s
                        want[off:off + s] = int(vals[r, c]).to_bytes(s, "little")
            assert bytes(mem.alloc.data) == bytes(want), (block, x, y)
            back = load_values(space, mem.surface, block, x, y, UINT[s])[0]
            inb = np.array([[0 <= y + r < mem.surface.height and 0 <= x + c < mem.surface.width_bytes // s
                             for c in range(W)] for r in range(H)])
            assert np.array_equal(back, np.where(inb, vals, 0))


def test_store_operand_checks_and_image() -> None:
    space = AddressSpace()
    a = space.allocate(64 * 8, "device")
    surf = Surface(a.base, 64, 8, 64)
    with pytest.raises(ValueError, match="count 1"):
        store_values(space, surf, Block(2, 16, 8, 2), 0, 0, np.zeros((8, 16), np.float16))
    with pytest.raises(ValueError, match="shape"):
        store_values(space, surf, Block(2, 16, 8), 0, 0, np.zeros((8, 8), np.float16))
    store_values(space, surf, Block(2, 16, 8), 0, 0, np.ones((1, 8, 16), np.float16))  # [1, H, W] accepted
    # store payload: row-major, row pitch next_pow2(W) (§1.5 note), whole GRFs, padding 0
    vals = np.arange(15, dtype=np.uint16).reshape(3, 5) + 1
    img = store_image(vals, Block(2, 5, 3)).view(np.uint16)
    assert img.size == 32
    assert img[:24].reshape(3, 8).tolist() == [[1, 2, 3, 4, 5, 0, 0, 0], [6, 7, 8, 9, 10, 0, 0, 0],
                                              [11, 12, 13, 14, 15, 0, 0, 0]]
    assert not img[24:].any()


# ------------------------------------------------------------------------------------ narrow transposes
def test_emulated_transpose_packs_row_pairs(mems) -> None:
    """§1.3: a transposed f16 block is loaded as a 32-bit transposed block (W and X halved)."""
    space, by_size = mems
    mem = by_size[2]
    blk, x = emulated_transpose(PVC, Block(2, 16, 8, transpose=True), 8)
    assert (blk, x) == (Block(4, 8, 8, transpose=True), 4)
    v = load_values(space, mem.surface, blk, x, 3, np.uint32)[0]  # [8 dword columns, 8 rows]
    for w in range(8):
        for y in range(8):
            lo, hi = mem.elem(3 + y, 8 + 2 * w), mem.elem(3 + y, 8 + 2 * w + 1)
            assert int(v[w, y]) == lo | hi << 16
    assert emulated_transpose(PVC, Block(4, 8, 8, transpose=True), 3) == (Block(4, 8, 8, transpose=True), 3)
    with pytest.raises(ValueError, match="whole units"):
        emulated_transpose(PVC, Block(1, 6, 8, transpose=True), 0)


# ------------------------------------------------------------------------------------ split_tile
def covers_exactly(msgs: list[Message], h: int, w: int) -> bool:
    seen = np.zeros((h, w), dtype=int)
    for m in msgs:
        b = m.block
        if m.y_off < 0 or m.x_off < 0 or m.y_off + b.height > h or m.x_off + b.width * b.count > w:
            return False
        seen[m.y_off:m.y_off + b.height, m.x_off:m.x_off + b.width * b.count] += 1
    return bool((seen == 1).all())


@pytest.mark.parametrize("s,h,w,kind,al,tr,vn", [
    (2, 32, 32, "load", 2, False, False), (2, 64, 64, "store", 1, False, False), (2, 32, 64, "load", 1, False, True),
    (4, 16, 16, "load", 1, True, False), (1, 64, 128, "load", 4, False, True), (8, 40, 24, "prefetch", 1, False, False),
    (2, 48, 48, "load", 2, False, False), (4, 37, 20, "load", 2, False, False), (8, 16, 4, "load", 1, True, False),
    (1, 100, 68, "store", 1, False, False), (2, 6, 34, "load", 4, False, True),
])
def test_split_tile_covers_the_tile_with_legal_messages(s, h, w, kind, al, tr, vn) -> None:
    msgs = split_tile(PVC, s, h, w, kind, al, tr, vn)
    assert covers_exactly(msgs, h, w)
    for m in msgs:
        assert m.block.elem_bytes == s and m.block.transpose == tr and m.block.vnni == vn
        assert shape_violations(PVC, m.block, kind) == [], m
    keys = [(m.y_off, m.x_off) for m in msgs]
    assert keys == sorted(keys)  # row-major (the default order)


def test_split_tile_shapes_and_order() -> None:
    assert split_tile(PVC, 2, 32, 32, "load", 2) == [Message(0, 0, Block(2, 16, 32, 2))]
    st = split_tile(PVC, 2, 64, 64, "store")
    assert len(st) == 16 and {m.block for m in st} == {Block(2, 32, 8)}
    assert [(m.y_off, m.x_off) for m in st[:3]] == [(0, 0), (0, 32), (8, 0)]
    cm = split_tile(PVC.with_overrides({"block2d.split.order": "column-major"}), 2, 64, 64, "store")
    assert [(m.y_off, m.x_off) for m in cm[:3]] == [(0, 0), (8, 0), (16, 0)]
    tr = split_tile(PVC, 4, 16, 16, "load", 1, True)
    assert [(m.x_off, m.y_off, m.block) for m in tr] == [(0, 0, Block(4, 8, 16, 1, True)),
                                                           (8, 0, Block(4, 8, 16, 1, True))]
    greedy = split_tile(PVC.with_overrides({"block2d.split.policy": "greedy"}), 2, 8, 48, "load")
    assert [m.block.width for m in greedy] == [32, 16]


def test_split_tile_rejects_impossible_tiles() -> None:
    with pytest.raises(ValueError, match="tile width of 3"):
        split_tile(PVC, 2, 8, 3, "load")
    with pytest.raises(ValueError, match="does not support 2-byte"):
        split_tile(PVC, 2, 16, 16, "load", transpose=True)
    with pytest.raises(ValueError, match="no vnni form"):
        split_tile(PVC, 2, 16, 16, "store", vnni=True)
    with pytest.raises(ValueError, match="array length 4"):
        split_tile(PVC, 4, 16, 16, "load", 4)
