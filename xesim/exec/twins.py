"""Uncompiled twins of the executor's numba loops: the same results with numpy, no compilation (issue 32 item 3).

Small launches on a fresh install run these instead of compiling the loops (:mod:`xesim.numerics.tiers` decides,
per call); each function states the compiled loop it stands for and why it gives the same result.  They move
bytes and compare integers only, so "the same result" is plain equality; tests/unit/test_twins.py compares each
with its compiled form, including out-of-bounds and transposed block loads, VNNI packing and partial blocks of the
changed-memory records.
"""

from __future__ import annotations

import numpy as np


# ------------------------------------------------------------------------ 2D block copies (xesim/exec/blocks.py)
def range_residue(v: np.ndarray, mod: int) -> tuple[int, int, int]:
    """``blocks._range_residue``: least and greatest element of the non-empty int64 ``v`` and the residue
    modulo ``mod`` (> 0) every element shares, else -1 (numpy's ``%`` is floor modulo, as numba's is for int64)."""
    r0 = int(v[0] % mod)
    return int(v.min()), int(v.max()), r0 if bool((v % mod == r0).all()) else -1


def _block_index(start: np.ndarray, pitch: int, rows: int, width: int) -> np.ndarray:
    """Flat unit index ``[n, rows, width]`` of every unit of the blocks starting at ``start`` (row pitch
    ``pitch`` units): the addresses ``blocks._gather_range`` visits, in the same arrangement."""
    return (start[:, None, None] + (np.arange(rows, dtype=np.int64) * pitch)[None, :, None]
            + np.arange(width, dtype=np.int64)[None, None, :])


def gather_blocks(flat: np.ndarray, start: np.ndarray, pitch: int, out: np.ndarray) -> None:
    """``blocks._gather_blocks``: ``out[b, r, c] = flat[start[b] + r * pitch + c]``."""
    out[...] = flat[_block_index(start, pitch, out.shape[1], out.shape[2])]


def scatter_blocks(flat: np.ndarray, start: np.ndarray, pitch: int, tiles: np.ndarray) -> None:
    """``blocks._scatter_blocks``: ``flat[start[b] + r * pitch + c] = tiles[b, r, c]``; the blocks do not overlap
    (the caller checked), so every unit is written once and the order of the writes does not matter."""
    flat[_block_index(start, pitch, tiles.shape[1], tiles.shape[2])] = tiles


def rectangles_overlap(ys: np.ndarray, xs: np.ndarray, rows: int, w: int) -> bool:
    """``blocks._rectangles_overlap``: do two of the ``rows`` x ``w`` rectangles at ``(ys[i], xs[i])`` share a unit
    (some pair ``i < j`` with ``|ys[j] - ys[i]| < rows`` and ``|xs[j] - xs[i]| < w``)?  All pairs at once; the
    compiled loop visits only the pairs the y order leaves possible, with the same answer."""
    n = ys.shape[0]
    close = (np.abs(ys[:, None] - ys[None, :]) < rows) & (np.abs(xs[:, None] - xs[None, :]) < w)
    return bool(np.triu(close, 1).any()) if n > 1 else False


# ------------------------------------------------------------------------------ VNNI (xesim/exec/vnni.py)
def vnni_copy(flat: np.ndarray, packed: np.ndarray, to_packed: bool) -> None:
    """``vnni._copy``: ``packed[b, a, k2, n, p]`` <-> ``flat[b, a, v*k2 + p, n]`` (``v = packed.shape[4]``), into
    ``packed`` when ``to_packed``, else into ``flat``; either may be a strided view."""
    b, a, k2, n, v = packed.shape
    if to_packed:  # (numpy's reshape copies a view it cannot reshape in place)
        packed[...] = flat.reshape(b, a, k2, v, n).transpose(0, 1, 2, 4, 3)
    else:
        flat[...] = packed.transpose(0, 1, 2, 4, 3).reshape(b, a, k2 * v, n)


# ------------------------------------------------------------ changed-memory records (xesim/exec/memdiff.py)
def changed_blocks(now: np.ndarray, before: np.ndarray, block: int) -> np.ndarray:
    """``memdiff._changed_blocks``: per ``block``-byte block of the 1-D uint8 ``now`` (the last block may be
    partial), whether any byte differs from ``before``."""
    diff = now != before
    nblk = -(-now.size // block)
    padded = np.zeros(nblk * block, np.bool_)
    padded[:now.size] = diff
    return padded.reshape(nblk, block).any(axis=1)


def gather_changes(now: np.ndarray, before: np.ndarray, blocks: np.ndarray, data: np.ndarray, masks: np.ndarray,
                   full: np.ndarray) -> None:
    """``memdiff._gather``: the bytes of the changed ``blocks`` into ``data`` (0 past the end), their
    changed-byte masks into ``masks`` (bit t of mask byte q = byte 8q + t changed; bytes past the end count as
    changed) and ``full`` = every byte of the block changed."""
    block = data.shape[1]
    idx = blocks[:, None] * block + np.arange(block, dtype=np.int64)[None, :]
    inside = idx < now.size
    safe = np.where(inside, idx, 0)
    data[...] = np.where(inside, now[safe], 0)
    changed = ~inside | (now[safe] != before[safe])
    masks[...] = np.packbits(changed, axis=1, bitorder="little")
    full[...] = changed.all(axis=1)


def merge_changes(dst: np.ndarray, blocks: np.ndarray, full: np.ndarray, data: np.ndarray, masks: np.ndarray) -> None:
    """``memdiff._scatter``: write into the 1-D uint8 ``dst`` the recorded bytes -- the whole block where ``full``,
    else the bytes whose mask bit is set -- never past its end."""
    block = data.shape[1]
    write = np.unpackbits(masks, axis=1, bitorder="little", count=block).astype(np.bool_) | full[:, None]
    idx = blocks[:, None] * block + np.arange(block, dtype=np.int64)[None, :]
    write &= idx < dst.size
    dst[idx[write]] = data[write]
