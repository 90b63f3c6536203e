"""Changed bytes of an allocation between two images, and merging them into a third (``--jobs`` workers:
xesim/exec/parallel.py, module docstring steps 3-4; docs/performance.md "Parallel workgroups").

A worker process compares its image of an allocation after its workgroups ran (``now``) with the image it
started from (``before``) and sends back, per :data:`BLOCK`-byte block containing a change, the block's bytes and
a bit mask of the bytes that changed; the parent writes exactly those bytes into its own image, so disjoint
writes of different workers combine and every other byte keeps the parent's value.

Finding the changed blocks and merging are numba loops over the whole allocation; only the changed blocks are
copied and compared byte by byte.  This module is imported only when a launch is spread over processes.
"""

from __future__ import annotations

import numba
import numpy as np

from xesim.exec import twins
from xesim.numerics import tiers

#: the compiled loops or their uncompiled twins (xesim/numerics/tiers.py, xesim/exec/twins.py); unit: one byte
#: compared or merged; twin seconds per call and per byte, compile and load seconds measured by tools/bench_tiers.py
TIER = tiers.Family("memdiff", per_call_s=2e-5, per_unit_s=5e-9, compile_s=2.4, load_s=0.3,
                    dispatchers=lambda: (_changed_blocks, _gather, _scatter))

#: granularity (bytes) of the changed-memory records
BLOCK = 4096

Changes = tuple  # (blocks int64[k], full bool[k], data uint8[k, BLOCK], masks uint8[k, BLOCK // 8])

_LO = np.uint64(0x0101010101010101)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_M2 = np.uint64(0x3333333333333333)
_M1 = np.uint64(0x5555555555555555)
_PACK = np.uint64(0x0102040810204080)  # (byte-LSBs y * _PACK) >> 56: bit k = byte k's LSB
_SPREAD = np.uint64(0x8040201008040201)


@numba.njit(cache=True, inline="always")
def _nonzero_bytes(x):  # noqa: ANN001, ANN202
    """The LSB of byte k of the result = byte k of ``x`` is nonzero; other bits 0."""
    x |= (x >> np.uint64(4)) & _M4
    x |= (x >> np.uint64(2)) & _M2
    x |= (x >> np.uint64(1)) & _M1
    return x & _LO


@numba.njit(cache=True)
def _changed_blocks(now8, before8, now, before, block, flags):  # noqa: ANN001, ANN202
    """``flags[b]`` = 1 when block ``b`` (``block`` bytes) of ``now8`` differs from ``before8`` (``now`` /
    ``before``: their 8-byte-word views, as in :func:`_gather`)."""
    n8 = now8.shape[0]
    nw = now.shape[0]
    wpb = block // 8
    for b in range(flags.shape[0]):
        lo = b * wpb
        hi = min(lo + wpb, nw)
        d = np.uint64(0)
        for i in range(lo, hi):
            d |= now[i] ^ before[i]
        changed = d != 0
        if not changed:
            for i in range(max(nw * 8, b * block), min(n8, (b + 1) * block)):  # bytes past the last word
                changed |= now8[i] != before8[i]
        flags[b] = changed


@numba.njit(cache=True)
def _gather(now8, before8, now, before, blocks, data, data64, masks, full):  # noqa: ANN001, ANN202
    """Bytes of the changed ``blocks`` into ``data`` and their changed-byte masks into ``masks`` (bit t of mask
    byte q = byte 8q + t of the block; ``data64`` is ``data``'s 8-byte-word view), ``full`` = every byte of the
    block changed.  ``now``/``before`` are the
    8-byte-word views of the first ``len(now) * 8`` bytes of ``now8``/``before8``; bytes past them go one by
    one."""
    n8 = now8.shape[0]
    nw = now.shape[0]
    wpb = data.shape[1] // 8
    for r in range(blocks.shape[0]):
        w0 = blocks[r] * wpb
        allc = True
        for q in range(wpb):
            w = w0 + q
            m = 0
            if w < nw:
                x = now[w]
                m = np.uint8(((_nonzero_bytes(x ^ before[w]) * _PACK) >> np.uint64(56)) & np.uint64(0xFF))
                data64[r, q] = x
            else:
                for t in range(8):
                    i = 8 * w + t
                    if i < n8:
                        data[r, 8 * q + t] = now8[i]
                        if now8[i] != before8[i]:
                            m |= 1 << t
                    else:
                        m |= 1 << t  # past the end: counts as changed for "full", never written
                        data[r, 8 * q + t] = 0
            masks[r, q] = m
            allc &= m == 0xFF
        full[r] = allc


@numba.njit(cache=True)
def _scatter(dst8, dst, blocks, full, data, masks):  # noqa: ANN001, ANN202
    """Write the recorded bytes into ``dst8`` (``dst``: its 8-byte-word view, as in :func:`_gather`): whole
    blocks where ``full``, else the bytes whose mask bit is set."""
    n8 = dst8.shape[0]
    nw = dst.shape[0]
    wpb = data.shape[1] // 8
    for r in range(blocks.shape[0]):
        w0 = blocks[r] * wpb
        for q in range(wpb):
            w = w0 + q
            m = masks[r, q] if not full[r] else 0xFF
            if m == 0:
                continue
            if w < nw:
                new = np.uint64(0)
                for t in range(8):
                    new |= np.uint64(data[r, 8 * q + t]) << np.uint64(8 * t)
                bm = _nonzero_bytes((np.uint64(m) * _LO) & _SPREAD) * np.uint64(0xFF)
                dst[w] = (dst[w] & ~bm) | (new & bm)
            else:
                for t in range(8):
                    i = 8 * w + t
                    if i < n8 and (m >> t) & 1:
                        dst8[i] = data[r, 8 * q + t]


def _words(x: np.ndarray) -> np.ndarray:
    return x[:x.size // 8 * 8].view(np.uint64)


def record_bytes(size: int) -> int:
    """An upper bound of the bytes :func:`changes` places in ``out`` for an allocation of ``size`` bytes."""
    return -(-size // BLOCK) * (8 + BLOCK + BLOCK // 8 + 1) + 8


def changes(now: np.ndarray, before: np.ndarray, out: np.ndarray | None = None, offset: int = 0) -> Changes | None:
    """The changed-byte record of ``now`` against ``before`` (1-D uint8 arrays of one size), None when equal.

    With ``out`` (a uint8 array, e.g. over memory shared with another process) the record's arrays are placed in
    ``out`` from ``offset`` on (at most :func:`record_bytes` bytes; :func:`record_at` finds them again from the
    offset and the number of blocks, ``len(record[0])``); otherwise they are new arrays."""
    nblk = -(-now.size // BLOCK)
    compiled = TIER.compiled(now.size)
    if compiled:
        flags = np.empty(nblk, np.bool_)
        _changed_blocks(now, before, _words(now), _words(before), BLOCK, flags)
    else:
        flags = twins.changed_blocks(now, before, BLOCK)
    blocks = np.flatnonzero(flags)
    if not blocks.size:
        return None
    k = blocks.size
    if out is None:
        data = np.empty((k, BLOCK), np.uint8)
        masks = np.empty((k, BLOCK // 8), np.uint8)
        full = np.empty(k, np.bool_)
    else:
        placed, data, masks, full = record_at(out, offset, k)
        placed[:] = blocks
        blocks = placed
    if compiled:
        _gather(now, before, _words(now), _words(before), blocks, data, data.view(np.uint64), masks, full)
    else:
        twins.gather_changes(now, before, blocks, data, masks, full)
    return blocks, full, data, masks


def record_at(out: np.ndarray, offset: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Views of the arrays of a ``k``-block record placed in ``out`` at ``offset`` by :func:`changes`, in the
    order (blocks, data, masks, full); the record itself is ``(blocks, full, data, masks)``."""
    at = -(-offset // 8) * 8
    blocks = out[at:at + 8 * k].view(np.int64)
    at += 8 * k
    data = out[at:at + k * BLOCK].reshape(k, BLOCK)
    at += k * BLOCK
    masks = out[at:at + k * BLOCK // 8].reshape(k, BLOCK // 8)
    at += k * BLOCK // 8
    full = out[at:at + k].view(np.bool_)
    return blocks, data, masks, full


def placed_record(out: np.ndarray, offset: int, k: int) -> Changes:
    """The ``k``-block record :func:`changes` placed in ``out`` at ``offset``."""
    blocks, data, masks, full = record_at(out, offset, k)
    return blocks, full, data, masks


def merge(dst: np.ndarray, record: Changes | None) -> None:
    """Write the bytes ``record`` (:func:`changes`) says changed into ``dst`` (1-D uint8); nothing else."""
    if record is None:
        return
    if TIER.compiled(dst.size):
        _scatter(dst, _words(dst), *record)
    else:
        twins.merge_changes(dst, *record)


def warm_up(nbytes: int = 0) -> None:
    """Before forking workers that will compare ``nbytes`` bytes in all: decide here, once for all of them, whether
    they compare compiled (:data:`TIER`), and if so load the compiled loops (from numba's cache) in this process,
    so that no worker compiles or loads them again."""
    if not TIER.compiled(nbytes):
        return
    a = np.zeros(16, np.uint8)
    merge(a, changes(a + 1, a))
