"""2D block load / store / prefetch model (spec/pvc-hardware.md §1, LSC LOAD_BLOCK2D / STORE_BLOCK2D).

One hardware message moves a block of ``count`` horizontally adjacent ``height x width`` element blocks between a
2D surface in global memory (base, width in bytes, height in rows, pitch in bytes — §1.1) and the register file.

* :func:`check_block` checks every rule of §1.2 (surface) and §1.3 (block shape per kind and mode); the limits
  and the severity of each rule ("error": no defined result; "warning": broken by real programs without visible
  harm) are parameters of ``isa/targets/<target>.toml`` ``[block2d]``, nothing is hard-coded here.
* :func:`load_image` builds the exact GRF image of §1.5 (row/block padding 0, out-of-bounds elements 0 per
  element, §1.4); :func:`image_to_values` turns it into XeGPU's logical value.
* :func:`store_values` writes the in-bounds elements of a block (§1.4: out-of-bounds elements are dropped).
* :func:`split_tile` cuts a subgroup tile larger than one message into legal messages (policy and order are
  assumed parameters ``block2d.split.*``).

The model does not check legality itself: callers run :func:`check_block` first and decide what to do with the
violations.  Memory is an :class:`~xesim.hw.memory.AddressSpace`; in-surface elements outside any live
allocation raise :class:`~xesim.hw.memory.MemoryFault`.
"""

from __future__ import annotations

import functools
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from xesim.hw.memory import AddressSpace, MemoryFault
from xesim.hw.params import Target, load_target

KINDS = ("load", "store", "prefetch")

__all__ = [
    "KINDS", "Block", "Geometry", "Message", "Surface", "Violation", "check_block", "emulated_transpose",
    "geometry", "image_to_values", "load_image", "load_values", "next_pow2", "shape_violations", "split_tile",
    "store_image", "store_values",
]


# --------------------------------------------------------------------------------------------------- data types
@dataclass(frozen=True)
class Surface:
    """The 2D surface of a message (§1.1): base address, width in bytes, height in rows, pitch in bytes."""

    base: int
    width_bytes: int
    height: int
    pitch_bytes: int


@dataclass(frozen=True)
class Block:
    """One message's block (§1.1): element size in bytes, W elements, H rows, B blocks; W/H in memory terms."""

    elem_bytes: int
    width: int
    height: int
    count: int = 1
    transpose: bool = False
    vnni: bool = False

    @property
    def mode(self) -> str:
        """"plain", "vnni", "transpose" or "transpose+vnni" (illegal, §1.3)."""
        if self.transpose and self.vnni:
            return "transpose+vnni"
        return "transpose" if self.transpose else ("vnni" if self.vnni else "plain")

    @property
    def k(self) -> int:
        """Elements per dword (VNNI packing factor, §1.5): 4 // elem_bytes, at least 1."""
        return max(1, 4 // self.elem_bytes)

    @property
    def data_bytes(self) -> int:
        """Bytes of tile data the message moves (W * H * B * s), without padding."""
        return self.width * self.height * self.count * self.elem_bytes


@dataclass(frozen=True)
class Violation:
    """A broken rule: human-readable ``rule`` text, its ``source``, ``severity`` ("error" or "warning"), the rule
    ``key`` (the name of its ``block2d.severity`` entry) and the ``param`` path of the limit it checks."""

    rule: str
    source: str
    severity: str
    key: str = ""
    param: str = ""

    def __str__(self) -> str:
        return f"{self.severity}: {self.rule} [{self.source}]"


@dataclass(frozen=True)
class Message:
    """One message of a split tile: offsets (elements, rows) from the tile origin in memory terms, and its block."""

    x_off: int
    y_off: int
    block: Block


@dataclass(frozen=True)
class Geometry:
    """Register-image geometry of a block (§1.5), all in elements."""

    row_size: int
    row_pitch: int
    rows: int
    block_size: int
    block_pitch: int

    def total(self, count: int) -> int:
        return self.block_pitch * count


def next_pow2(n: int) -> int:
    """Smallest power of two >= n (n >= 1)."""
    return 1 << max(0, n - 1).bit_length()


def geometry(block: Block, grf_bytes: int) -> Geometry:
    """§1.5: rowSize, rowPitch, rows, blockSize, blockPitch of a block's GRF image.

    rowPitch = next_pow2(H) (transpose), K * next_pow2(W) (transform), next_pow2(W) (plain); blockPitch rounds
    blockSize up to a whole GRF (E = grf_bytes / s elements) so every block starts on a fresh register.
    """
    w, h, k = block.width, block.height, block.k
    if block.transpose:
        row_size, row_pitch, rows = h, next_pow2(h), w
    elif block.vnni:
        row_size, row_pitch, rows = w * k, next_pow2(w) * k, -(-h // k)
    else:
        row_size, row_pitch, rows = w, next_pow2(w), h
    e = max(1, grf_bytes // block.elem_bytes)
    block_size = row_pitch * rows
    return Geometry(row_size, row_pitch, rows, block_size, -(-block_size // e) * e)


# --------------------------------------------------------------------------------------------------- legality
def _dkey(s: int) -> str:
    return f"d{8 * s}"


class _Broken(Exception):
    """A rule is broken (a :class:`_Checker` with ``first_only`` stops at the first one)."""


class _Checker:
    def __init__(self, target: Target, first_only: bool = False) -> None:
        self.t = target
        self.out: list[Violation] = []
        self.first_only = first_only

    def get(self, path: str) -> Any:  # a TOML value of any type
        return self.t.get(path)

    def has(self, path: str) -> bool:
        return path in self.t.params

    def fail(self, key: str, param: str, text: str) -> None:
        if self.first_only:
            raise _Broken
        sev = self.t.get(f"block2d.severity.{key}")
        self.out.append(Violation(text, self.t.source_of(param), sev, key, param))


def _section(kind: str, mode: str) -> str:
    return kind if mode == "plain" else f"{kind}_{mode}"


def shape_violations(target: Target, block: Block, kind: str) -> list[Violation]:
    """The §1.3 block-shape rules alone (no surface, no offsets) for a message of ``kind``."""
    if kind not in KINDS:
        raise ValueError(f"unknown 2D block message kind '{kind}' (expected one of {', '.join(KINDS)})")
    c = _Checker(target)
    _check_shape(c, block, kind)
    return c.out


def _shape_legal(target: Target, block: Block, kind: str) -> bool:
    """Whether ``block`` breaks none of the §1.3 shape rules for ``kind`` (:func:`shape_violations` is empty),
    stopping at the first broken rule."""
    try:
        _check_shape(_Checker(target, first_only=True), block, kind)
    except _Broken:
        return False
    return True


def _check_shape(c: _Checker, block: Block, kind: str) -> None:
    s = block.elem_bytes
    sizes = c.get("block2d.element_bytes")
    if s not in sizes:
        c.fail("element_size", "block2d.element_bytes",
               f"element size {s} bytes is not one of {', '.join(map(str, sizes))} bytes")
        return
    if block.transpose and block.vnni and c.get("block2d.transpose_vnni_exclusive"):
        c.fail("transpose_vnni", "block2d.transpose_vnni_exclusive",
               "transpose and VNNI transform are mutually exclusive")
        return
    mode = block.mode
    modes = c.get("block2d.modes").get(kind, [])
    if mode not in modes:
        c.fail("mode_kind", "block2d.modes", f"a 2D block {kind} has no {mode} form (allowed: {', '.join(modes)})")
        return
    sec = f"block2d.{_section(kind, mode)}"
    sizes = c.get(f"{sec}.element_bytes")
    what = f"{s}-byte {'' if mode == 'plain' else mode + ' '}{kind}"
    if s not in sizes:
        c.fail("mode_element_size", f"{sec}.element_bytes",
               f"{mode} {kind} does not support {s}-byte elements (supported: {', '.join(map(str, sizes))} bytes)")
        return
    dk = _dkey(s)
    w, h, b = block.width, block.height, block.count
    mult = c.get("block2d.block_width_multiple_bytes")
    if w * s % mult:
        c.fail("block_width_multiple", "block2d.block_width_multiple_bytes",
               f"block width {w} x {s} bytes = {w * s} bytes is not a multiple of {mult} bytes")
    wmin, wmax = c.get(f"{sec}.width_min")[dk], c.get(f"{sec}.width_max")[dk]
    if not wmin <= w <= wmax:
        c.fail("block_width_range", f"{sec}.width_max",
               f"block width {w} is outside {wmin}..{wmax} elements for a {what}")
    elif c.has(f"{sec}.widths") and dk in c.get(f"{sec}.widths"):
        allowed = c.get(f"{sec}.widths")[dk]
        if w not in allowed:
            c.fail("block_width_range", f"{sec}.widths",
                   f"block width {w} is not one of {', '.join(map(str, allowed))} elements for a {what}")
    hmin, hmax = c.get(f"{sec}.height_min")[dk], c.get(f"{sec}.height_max")[dk]
    if not hmin <= h <= hmax:
        c.fail("block_height_range", f"{sec}.height_max",
               f"block height {h} is outside {hmin}..{hmax} rows for a {what}")
    lengths = c.get(f"{sec}.array_lengths")[dk]
    if b not in lengths:
        c.fail("array_length", f"{sec}.array_lengths",
               f"array length {b} is not one of {', '.join(map(str, lengths))} for a {what}")
    row_max = c.get(f"{sec}.row_bytes_max")
    if w * b * s > row_max:
        c.fail("row_bytes", f"{sec}.row_bytes_max",
               f"block width x array length x element size = {w} x {b} x {s} = {w * b * s} bytes exceeds "
               f"{row_max} bytes")
    if w >= 1 and h >= 1 and b >= 1:
        grf = c.get("grf.register_bytes")
        if kind == "store":
            # §1.5 note: store payload is row-major with row pitch next_pow2(W), whole GRFs
            payload = -(-next_pow2(w) * h * s // grf) * grf
        else:
            payload = geometry(block, grf).total(b) * s
        pmax = c.get(f"{sec}.payload_max_bytes")
        if payload > pmax:
            c.fail("payload", f"{sec}.payload_max_bytes",
                   f"register payload of {payload} bytes exceeds {pmax} bytes for a {what}")


def check_block(target: Target, surface: Surface, block: Block, x: int, y: int, kind: str) -> list[Violation]:
    """Every rule of §1.2 (surface, start offsets) and §1.3 (block shape for ``kind`` in load/store/prefetch)
    that the message breaks, with limits and severities from ``target.block2d``.  Empty list = legal."""
    if kind not in KINDS:
        raise ValueError(f"unknown 2D block message kind '{kind}' (expected one of {', '.join(KINDS)})")
    c = _Checker(target)
    s = block.elem_bytes
    if s in c.get("block2d.element_bytes"):
        _check_surface(c, surface, s, x, y)
    _check_shape(c, block, kind)  # reports an unsupported element size
    return c.out


def _check_surface(c: _Checker, surface: Surface, s: int, x: int, y: int) -> None:
    dk = _dkey(s)
    # §1.1: X and Y are signed fields of the payload
    bits = c.get("block2d.offset_bits")
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if not (lo <= x <= hi and lo <= y <= hi):
        c.fail("offset_range", "block2d.offset_bits",
               f"block start ({x}, {y}) does not fit the signed {bits}-bit X/Y payload fields")
    # §1.2 surface
    align = c.get("block2d.base_alignment_bytes")
    if surface.base % align:
        c.fail("base_alignment", "block2d.base_alignment_bytes",
               f"surface base address 0x{surface.base:x} is not {align}-byte aligned")
    if c.get("block2d.element_alignment") and (surface.base % s or surface.pitch_bytes % s):
        c.fail("element_alignment", "block2d.element_alignment",
               f"surface base 0x{surface.base:x} and pitch {surface.pitch_bytes} bytes must be multiples of the "
               f"element size {s} bytes (element addresses aligned to the element size)")
    wb = surface.width_bytes
    wmin, wmax = c.get("block2d.surface_width_min_bytes"), c.get("block2d.surface_width_max_bytes")
    if wb < wmin:
        c.fail("surface_width_min", "block2d.surface_width_min_bytes",
               f"surface width {wb} bytes is below the minimum of {wmin} bytes")
    if wb > wmax:
        c.fail("surface_width_max", "block2d.surface_width_max_bytes",
               f"surface width {wb} bytes exceeds the maximum of {wmax} bytes")
    wmul = c.get("block2d.surface_width_multiple_bytes")[dk]
    if wb % wmul:
        c.fail("surface_width_multiple", "block2d.surface_width_multiple_bytes",
               f"surface width {wb} bytes is not a multiple of {wmul} bytes for {s}-byte elements")
    hmin, hmax = c.get("block2d.surface_height_min"), c.get("block2d.surface_height_max")
    if not hmin <= surface.height <= hmax:
        c.fail("surface_height_range", "block2d.surface_height_max",
               f"surface height {surface.height} rows is outside {hmin}..{hmax} rows")
    p = surface.pitch_bytes
    if c.get("block2d.pitch_at_least_width") and p < wb:
        c.fail("pitch_at_least_width", "block2d.pitch_at_least_width",
               f"surface pitch {p} bytes is smaller than the surface width {wb} bytes")
    pmin = c.get("block2d.pitch_min_bytes")
    if p < pmin:
        c.fail("pitch_min", "block2d.pitch_min_bytes", f"surface pitch {p} bytes is below the minimum of {pmin} bytes")
    pmul = c.get("block2d.pitch_multiple_bytes")
    if p % pmul:
        c.fail("pitch_multiple", "block2d.pitch_multiple_bytes",
               f"surface pitch {p} bytes is not a multiple of {pmul} bytes")
    xm = c.get("block2d.x_multiple")[dk]
    if x % xm:
        c.fail("x_alignment", "block2d.x_multiple",
               f"block start X {x} is not a multiple of {xm} for {s}-byte elements (X must be dword aligned)")


def emulated_transpose(target: Target, block: Block, x: int) -> tuple[Block, int]:
    """§1.3: a transposed block of elements narrower than 32 bits as the hardware message the compiler issues
    (X2X / IMEX transpose_bit_width): element size ``block2d.transpose_emulation_bytes``, W and X scaled by
    s/4, so K adjacent row elements stay packed in one dword.  Returns (new block, new X)."""
    unit = target.get("block2d.transpose_emulation_bytes")
    s = block.elem_bytes
    if not block.transpose or s >= unit:
        return block, x
    if (block.width * s) % unit or (x * s) % unit:
        raise ValueError(f"transposed {s}-byte block of width {block.width} at X {x} cannot be loaded as "
                         f"{unit}-byte units (width and X must cover whole units)")
    nb = Block(unit, block.width * s // unit, block.height, block.count, True, block.vnni)
    return nb, x * s // unit


# --------------------------------------------------------------------------------------------------- GRF images
@functools.cache
def _default_grf_bytes() -> int:
    return load_target("pvc").grf.register_bytes


def _grf_bytes(target: Target | None) -> int:
    return _default_grf_bytes() if target is None else target.grf.register_bytes


@functools.lru_cache(maxsize=4096)
def _index_map(block: Block, grf_bytes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(image element positions, memory row, memory column relative to (Y, X), total image elements) for every
    image element that carries memory data (§1.5); all other positions are padding."""
    g = geometry(block, grf_bytes)
    w, h, b, k = block.width, block.height, block.count, block.k
    bb = np.arange(b)[:, None, None]
    if block.transpose:  # reg[base + x*rowPitch + y] = M[Y+y][X+b*W+x]
        xx = np.arange(w)[None, :, None]
        yy = np.arange(h)[None, None, :]
        pos = bb * g.block_pitch + xx * g.row_pitch + yy
        row = np.broadcast_to(yy, pos.shape)
        col = np.broadcast_to(bb * w + xx, pos.shape)
    elif block.vnni:  # reg[base + r*rowPitch + x*K + i] = M[Y+r*K+i][X+b*W+x], rows >= H are padding
        rr = np.arange(g.rows)[None, :, None, None]
        xx = np.arange(w)[None, None, :, None]
        ii = np.arange(k)[None, None, None, :]
        bb = bb[..., None]
        pos = bb * g.block_pitch + rr * g.row_pitch + xx * k + ii
        row = np.broadcast_to(rr * k + ii, pos.shape)
        col = np.broadcast_to(bb * w + xx, pos.shape)
        keep = (row < h).reshape(-1)
        pos, row, col = pos.reshape(-1)[keep], row.reshape(-1)[keep], col.reshape(-1)[keep]
    else:  # reg[base + y*rowPitch + x] = M[Y+y][X+b*W+x]
        yy = np.arange(h)[None, :, None]
        xx = np.arange(w)[None, None, :]
        pos = bb * g.block_pitch + yy * g.row_pitch + xx
        row = np.broadcast_to(yy, pos.shape)
        col = np.broadcast_to(bb * w + xx, pos.shape)
    out = tuple(np.ascontiguousarray(a.reshape(-1), dtype=np.int64) for a in (pos, row, col))
    for a in out:
        a.flags.writeable = False
    return out[0], out[1], out[2], g.total(b)


@functools.lru_cache(maxsize=4096)
def _byte_map(block: Block, grf_bytes: int, pitch: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(image byte positions, byte offsets from the block's first memory byte, total image elements)."""
    pos, row, col, total = _index_map(block, grf_bytes)
    s = block.elem_bytes
    lanes = np.arange(s)
    dst = (pos[:, None] * s + lanes).reshape(-1)
    src = ((row * pitch + col * s)[:, None] + lanes).reshape(-1)
    dst.flags.writeable = False
    src.flags.writeable = False
    return dst, src, total


def _in_bounds(surface: Surface, s: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """§1.4: an element is in bounds iff 0 <= row < height and 0 <= column < width_bytes / s."""
    return (rows >= 0) & (rows < surface.height) & (cols >= 0) & (cols < surface.width_bytes // s)


def _locate(space: AddressSpace, addr: np.ndarray, rows: np.ndarray, s: int, what: str
            ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Resolve element addresses to (allocation bytes, element byte offsets) groups; raise MemoryFault when an
    element lies outside every live allocation.  Fast path: all elements in one allocation."""
    lo, hi = int(addr.min()), int(addr.max()) + s
    try:
        alloc, _ = space.resolve(lo, hi - lo)
        return [(np.arange(addr.size), addr - alloc.base, alloc.data)]
    except MemoryFault:
        pass
    groups = []
    for r in np.unique(rows):  # the in-bounds elements of one memory row are contiguous
        idx = np.nonzero(rows == r)[0]
        a_lo, a_hi = int(addr[idx].min()), int(addr[idx].max()) + s
        try:
            alloc, _ = space.resolve(a_lo, a_hi - a_lo)
        except MemoryFault as e:
            raise MemoryFault(f"{what}, surface row {int(r)}: {e}") from None
        groups.append((idx, addr[idx] - alloc.base, alloc.data))
    return groups


def load_image(space: AddressSpace, surface: Surface, block: Block, x: int, y: int, *,
               target: Target | None = None) -> np.ndarray:
    """The GRF image of §1.5 as uint8 bytes (length = B * blockPitch * s, a multiple of the GRF size).

    Padding (row tail to rowPitch, VNNI rows past H, block tail to blockPitch) is 0; elements outside the surface
    (per element, including negative X/Y) are 0 (§1.4).  ``target`` gives the GRF size (default: pvc).
    """
    s = block.elem_bytes
    grf = _grf_bytes(target)
    mem_cols, mem_rows = block.width * block.count, block.height
    if 0 <= x and 0 <= y and x + mem_cols <= surface.width_bytes // s and y + mem_rows <= surface.height:
        # fast path, every element in bounds: one range check and one gather with a cached byte map
        lo = surface.base + y * surface.pitch_bytes + x * s
        n = (mem_rows - 1) * surface.pitch_bytes + mem_cols * s
        try:
            alloc, off = space.resolve(lo, n)
        except MemoryFault:
            pass  # the general path finds the faulting row (or several allocations)
        else:
            dst, src, total = _byte_map(block, grf, surface.pitch_bytes)
            img = np.zeros(total * s, dtype=np.uint8)
            img[dst] = alloc.data[off:off + n][src]
            return img
    pos, mrow, mcol, total = _index_map(block, grf)
    img = np.zeros((total, s), dtype=np.uint8)
    rows, cols = mrow + y, mcol + x
    inb = _in_bounds(surface, s, rows, cols)
    if inb.any():
        rows, cols, pos = rows[inb], cols[inb], pos[inb]
        addr = surface.base + rows * surface.pitch_bytes + cols * s
        what = f"2D block load ({block.height}x{block.width}x{block.count}, {s}-byte) at ({x}, {y})"
        lanes = np.arange(s)
        for idx, off, data in _locate(space, addr, rows, s, what):
            img[pos[idx]] = data[off[:, None] + lanes]
    return img.reshape(-1)


def image_to_values(image: np.ndarray, block: Block, dtype: np.dtype | type) -> np.ndarray:
    """XeGPU's logical value of a load image (§1.5): plain -> [B, H, W]; vnni -> [B, ceil(H/K), W, K] (lower row
    in the lower bits, H zero padded to a multiple of K); transpose -> [B, W, H] (column c becomes row c)."""
    dt = np.dtype(dtype)
    if dt.itemsize != block.elem_bytes:
        raise ValueError(f"dtype {dt} has {dt.itemsize} bytes, the block has {block.elem_bytes}-byte elements")
    elems = np.ascontiguousarray(image, dtype=np.uint8).view(dt)
    b, w, h, k = block.count, block.width, block.height, block.k
    g = geometry(block, 0)  # rowPitch and rows do not depend on the GRF size; blockPitch comes from the image
    if elems.size % b or elems.size // b < g.block_size:
        raise ValueError(f"image of {image.size} bytes does not hold {b} block(s) of {g.block_size} elements")
    region = elems.reshape(b, -1)[:, : g.block_size].reshape(b, g.rows, g.row_pitch)
    if block.transpose:
        out = region[:, :w, :h]
    elif block.vnni:
        out = region[:, :, : w * k].reshape(b, g.rows, w, k)
    else:
        out = region[:, :h, :w]
    return out.copy()


def load_values(space: AddressSpace, surface: Surface, block: Block, x: int, y: int, dtype: np.dtype | type, *,
                target: Target | None = None) -> np.ndarray:
    """``image_to_values(load_image(...))``."""
    return image_to_values(load_image(space, surface, block, x, y, target=target), block, dtype)


def store_image(values: np.ndarray, block: Block, *, target: Target | None = None) -> np.ndarray:
    """Register payload of a store (§1.5 note): row-major [H, next_pow2(W)] padded with 0 to whole GRFs."""
    vals = _store_operand(values, block)
    s, grf = block.elem_bytes, _grf_bytes(target)
    pitch = next_pow2(block.width)
    nbytes = -(-block.height * pitch * s // grf) * grf
    img = np.zeros(nbytes, dtype=np.uint8)
    img[: block.height * pitch * s].reshape(block.height, pitch * s)[:, : block.width * s] = (
        vals.view(np.uint8).reshape(block.height, block.width * s))
    return img


def _store_operand(values: np.ndarray, block: Block) -> np.ndarray:
    if block.count != 1 or block.transpose or block.vnni:
        raise ValueError("a 2D block store moves one plain block (count 1, no transpose/VNNI; §1.3)")
    vals = np.asarray(values)
    if vals.ndim == 3 and vals.shape[0] == 1:
        vals = vals[0]
    if vals.shape != (block.height, block.width):
        raise ValueError(f"store values of shape {vals.shape} do not match the block {block.height}x{block.width}")
    if vals.dtype.itemsize != block.elem_bytes:
        raise ValueError(f"store values of dtype {vals.dtype} do not have {block.elem_bytes}-byte elements")
    return np.ascontiguousarray(vals)


def store_values(space: AddressSpace, surface: Surface, block: Block, x: int, y: int, values: np.ndarray) -> None:
    """Write a [H, W] block at (X, Y) (§1.4): out-of-bounds elements are dropped per element, in-bounds ones are
    written.  Every in-bounds element is checked against live allocations before anything is written."""
    vals = _store_operand(values, block)
    s = block.elem_bytes
    raw = vals.view(np.uint8).reshape(-1, s)
    rows = np.repeat(np.arange(block.height, dtype=np.int64) + y, block.width)
    cols = np.tile(np.arange(block.width, dtype=np.int64) + x, block.height)
    inb = _in_bounds(surface, s, rows, cols)
    if not inb.any():
        return
    rows, cols, raw = rows[inb], cols[inb], raw[inb]
    addr = surface.base + rows * surface.pitch_bytes + cols * s
    what = f"2D block store ({block.height}x{block.width}, {s}-byte) at ({x}, {y})"
    lanes = np.arange(s)
    for idx, off, data in _locate(space, addr, rows, s, what):
        data[off[:, None] + lanes] = raw[idx]


# --------------------------------------------------------------------------------------------------- tile split
def _chunks(extent: int, cands: list[tuple[int, int, int]], preferred: int, policy: str, what: str
            ) -> list[tuple[int, int, int]]:
    """Cut ``extent`` into pieces ``(span, size, count)`` from ``cands`` (sorted largest span first).  Policy
    'largest-dividing': the largest uniform piece of count ``preferred`` that divides the extent, if any;
    otherwise (and always for 'greedy') the largest piece that fits, repeatedly."""
    if policy not in ("largest-dividing", "greedy"):
        raise ValueError(f"unknown block2d.split.policy '{policy}'")
    if policy == "largest-dividing":
        for c in cands:
            if c[2] == preferred and extent % c[0] == 0:
                return [c] * (extent // c[0])
    out, left = [], extent
    while left:
        fit = [c for c in cands if c[0] <= left]
        if not fit:
            raise ValueError(f"cannot cut {what} into legal 2D block messages ({left} left over)")
        out.append(fit[0])
        left -= fit[0][0]
    return out


def split_tile(target: Target, elem_bytes: int, tile_h: int, tile_w: int, kind: str, array_length: int = 1,
               transpose: bool = False, vnni: bool = False) -> list[Message]:
    """Cut a ``tile_h x tile_w`` subgroup tile (memory terms) into legal messages of ``kind``.

    Message widths use ``array_length`` blocks per message where possible (a message then covers W * B
    columns; leftover columns use fewer blocks).  Shapes follow ``block2d.split.policy`` and the messages come
    in ``block2d.split.order`` ("row-major": outer loop over message rows) — both assumed parameters, since
    §1 does not say how a compiler cuts tiles.  Offsets are relative to the tile origin; the messages cover the
    tile exactly.  Raises ValueError when no legal cover exists.
    """
    key = (elem_bytes, tile_h, tile_w, kind, array_length, transpose, vnni)
    memo = _split_memo.setdefault(target, {})
    if key not in memo:
        memo[key] = _split_tile(target, *key)
    return list(memo[key])


_split_memo: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _split_tile(target: Target, elem_bytes: int, tile_h: int, tile_w: int, kind: str, array_length: int,
                transpose: bool, vnni: bool) -> tuple[Message, ...]:
    if tile_h < 1 or tile_w < 1:
        raise ValueError(f"empty tile {tile_h}x{tile_w}")
    policy, order = target.get("block2d.split.policy"), target.get("block2d.split.order")
    if order not in ("row-major", "column-major"):
        raise ValueError(f"unknown block2d.split.order '{order}'")
    probe = Block(elem_bytes, 1, 1, 1, transpose, vnni)
    bad = [v for v in shape_violations(target, probe, kind)
           if v.key in ("element_size", "transpose_vnni", "mode_kind", "mode_element_size")]
    if bad:
        raise ValueError(bad[0].rule)
    sec = f"block2d.{_section(kind, probe.mode)}"
    dk = _dkey(elem_bytes)
    all_lengths = target.get(f"{sec}.array_lengths")[dk]
    if array_length not in all_lengths:
        raise ValueError(f"array length {array_length} is not legal for a {elem_bytes}-byte {probe.mode} {kind}")
    lengths = [b for b in all_lengths if b <= array_length]
    hmin, hmax = target.get(f"{sec}.height_min")[dk], target.get(f"{sec}.height_max")[dk]
    wmax = target.get(f"{sec}.width_max")[dk]

    def legal(w: int, h: int, b: int) -> bool:
        return _shape_legal(target, Block(elem_bytes, w, h, b, transpose, vnni), kind)

    # pieces wider (taller) than the tile are never chosen (_chunks), so they are not checked
    wc = sorted(((w * b, w, b) for b in lengths for w in range(1, min(wmax, tile_w // b) + 1) if legal(w, hmin, b)),
                reverse=True)
    cols = _chunks(tile_w, wc, array_length, policy, f"a tile width of {tile_w} elements")
    hc = sorted(((h, h, 1) for h in range(hmin, min(hmax, tile_h) + 1) if all(legal(w, h, b) for _, w, b in cols)),
                reverse=True)
    rows = _chunks(tile_h, hc, 1, policy, f"a tile height of {tile_h} rows")
    ys = np.cumsum([0] + [h for h, _, _ in rows])[:-1]
    xs = np.cumsum([0] + [span for span, _, _ in cols])[:-1]
    grid = [(int(yo), h, int(xo), w, b) for yo, (h, _, _) in zip(ys, rows) for xo, (_, w, b) in zip(xs, cols)]
    if order == "column-major":
        grid.sort(key=lambda m: (m[2], m[0]))
    return tuple(Message(xo, yo, Block(elem_bytes, w, h, b, transpose, vnni)) for yo, h, xo, w, b in grid)
