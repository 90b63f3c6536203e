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
def _copy_range(flat, packed, lo, hi, to_packed):  # noqa: ANN001, ANN202
    """Tiles ``lo`` to ``hi - 1``: ``packed[b, k2, n, p]`` <-> ``flat[b, v*k2 + p, n]``, into ``packed`` when
    ``to_packed``, else into ``flat``."""
    v = packed.shape[3]
    for b in range(lo, hi):
        for k2 in range(packed.shape[1]):
            for p in range(v):
                if to_packed:
                    for n in range(packed.shape[2]):
                        packed[b, k2, n, p] = flat[b, v * k2 + p, n]
                else:
                    for n in range(packed.shape[2]):
                        flat[b, v * k2 + p, n] = packed[b, k2, n, p]


@numba.njit(cache=True)
def _copy(flat, packed, to_packed):  # noqa: ANN001, ANN202
    _copy_range(flat, packed, 0, flat.shape[0], to_packed)


@numba.njit(cache=True, parallel=True)
def _copy_parallel(flat, packed, to_packed, nchunks):  # noqa: ANN001, ANN202
    n = flat.shape[0]
    for ch in numba.prange(nchunks):
        _copy_range(flat, packed, ch * n // nchunks, (ch + 1) * n // nchunks, to_packed)


_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _run(flat: np.ndarray, packed: np.ndarray, to_packed: bool) -> None:
    """:func:`_copy_range` over every tile, on numba's threads for large batches."""
    count = flat.shape[0]
    threads = 1 if flat.nbytes < PARALLEL_BYTES or count < 2 else min(numba.get_num_threads(), count)
    if threads > 1:
        _copy_parallel(flat, packed, to_packed, threads)
    else:
        _copy(flat, packed, to_packed)


def pack(tiles: np.ndarray, v: int) -> np.ndarray:
    """``tiles [..., K, N]`` (K a multiple of ``v``) -> ``[..., K/v, N, v]`` with ``out[.., k2, n, p] =
    tiles[.., v*k2 + p, n]`` (same dtype, new contiguous array)."""
    *lead, k, n = tiles.shape
    src = np.ascontiguousarray(tiles).reshape(-1, k, n)
    u = src.view(_UNSIGNED[src.dtype.itemsize])
    out = np.empty((src.shape[0], k // v, n, v), u.dtype)
    _run(u, out, True)
    return out.view(tiles.dtype).reshape(*lead, k // v, n, v)


def unpack(packed: np.ndarray) -> np.ndarray:
    """The inverse of :func:`pack`: ``[..., K/v, N, v]`` -> ``[..., K, N]``."""
    *lead, k2, n, v = packed.shape
    src = np.ascontiguousarray(packed).reshape(-1, k2, n, v)
    u = src.view(_UNSIGNED[src.dtype.itemsize])
    out = np.empty((src.shape[0], k2 * v, n), u.dtype)
    _run(out, u, False)
    return out.view(packed.dtype).reshape(*lead, k2 * v, n)
