"""VNNI packing of block tiles with numba (spec/pvc-hardware.md §1.6 and §3.3: a VNNI-packed K x N tile of
``v = 32 / bits`` -element groups is ``packed[k2][n][p] = B[v*k2 + p][n]``).

Loads with ``packed`` produce such tiles for many instances at once (xesim/exec/ops/xegpu.py ``arrange``) and
batched DPAS unpacks them again (xesim/exec/batch.py); numpy's strided transposes of the short last axis cost
about 1.5 ms per MiB, these loops a fraction of that, on numba's threads for large batches."""

from __future__ import annotations

import numba
import numpy as np

#: bytes from which a batch is split over numba's threads
PARALLEL_BYTES = 1 << 17


@numba.njit(cache=True)
def _pack_range(src, out, lo, hi):  # noqa: ANN001, ANN202
    v = out.shape[3]
    for b in range(lo, hi):
        for k2 in range(out.shape[1]):
            for p in range(v):
                for n in range(out.shape[2]):
                    out[b, k2, n, p] = src[b, v * k2 + p, n]


@numba.njit(cache=True)
def _unpack_range(src, out, lo, hi):  # noqa: ANN001, ANN202
    v = src.shape[3]
    for b in range(lo, hi):
        for k2 in range(src.shape[1]):
            for p in range(v):
                for n in range(src.shape[2]):
                    out[b, v * k2 + p, n] = src[b, k2, n, p]


@numba.njit(cache=True)
def _pack(src, out):  # noqa: ANN001, ANN202
    _pack_range(src, out, 0, src.shape[0])


@numba.njit(cache=True)
def _unpack(src, out):  # noqa: ANN001, ANN202
    _unpack_range(src, out, 0, src.shape[0])


@numba.njit(cache=True, parallel=True)
def _pack_parallel(src, out, nchunks):  # noqa: ANN001, ANN202
    n = src.shape[0]
    for ch in numba.prange(nchunks):
        _pack_range(src, out, ch * n // nchunks, (ch + 1) * n // nchunks)


@numba.njit(cache=True, parallel=True)
def _unpack_parallel(src, out, nchunks):  # noqa: ANN001, ANN202
    n = src.shape[0]
    for ch in numba.prange(nchunks):
        _unpack_range(src, out, ch * n // nchunks, (ch + 1) * n // nchunks)


_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _threads(nbytes: int, count: int) -> int:
    if nbytes < PARALLEL_BYTES or count < 2:
        return 1
    return min(numba.get_num_threads(), count)


def pack(tiles: np.ndarray, v: int) -> np.ndarray:
    """``tiles [..., K, N]`` (K a multiple of ``v``) -> ``[..., K/v, N, v]`` with ``out[.., k2, n, p] =
    tiles[.., v*k2 + p, n]`` (same dtype, new contiguous array)."""
    *lead, k, n = tiles.shape
    src = np.ascontiguousarray(tiles).reshape(-1, k, n)
    u = src.view(_UNSIGNED[src.dtype.itemsize])
    out = np.empty((src.shape[0], k // v, n, v), u.dtype)
    threads = _threads(out.nbytes, src.shape[0])
    if threads > 1:
        _pack_parallel(u, out, threads)
    else:
        _pack(u, out)
    return out.view(tiles.dtype).reshape(*lead, k // v, n, v)


def unpack(packed: np.ndarray) -> np.ndarray:
    """The inverse of :func:`pack`: ``[..., K/v, N, v]`` -> ``[..., K, N]``."""
    *lead, k2, n, v = packed.shape
    src = np.ascontiguousarray(packed).reshape(-1, k2, n, v)
    u = src.view(_UNSIGNED[src.dtype.itemsize])
    out = np.empty((src.shape[0], k2 * v, n), u.dtype)
    threads = _threads(out.nbytes, src.shape[0])
    if threads > 1:
        _unpack_parallel(u, out, threads)
    else:
        _unpack(u, out)
    return out.view(packed.dtype).reshape(*lead, k2 * v, n)
