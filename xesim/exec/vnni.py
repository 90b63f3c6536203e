"""VNNI packing of block tiles with numba (spec/pvc-hardware.md §1.6 and §3.3: a VNNI-packed K x N tile of
``v = 32 / bits`` -element groups is ``packed[k2][n][p] = B[v*k2 + p][n]``).

Loads with ``packed`` produce such tiles for many instances at once (xesim/exec/ops/xegpu.py ``arrange``) and
batched DPAS unpacks them again (xesim/exec/batch.py); numpy's strided transposes of the short last axis cost
about 1.5 ms per MiB, these loops a fraction of that, on numba's threads for large batches.  Both directions read
their source through its strides (a load's ``[n, array_length, K, N]`` blocks are a transposed view of the
memory-order rows; a DPAS operand is often a ``vector.extract`` view of a larger tile): no contiguous copy
first."""

from __future__ import annotations

import math

import numba
import numpy as np

from xesim.exec import twins
from xesim.numerics import tiers
from xesim.numerics.work_queue import chunk_count, claim

#: bytes from which a batch is split over numba's threads
PARALLEL_BYTES = 1 << 17


@numba.njit(cache=True)
def _copy_range(flat, packed, lo, hi, to_packed):  # noqa: ANN001, ANN202
    """Tile groups ``lo`` to ``hi - 1``: ``packed[b, a, k2, n, p]`` <-> ``flat[b, a, v*k2 + p, n]``, into
    ``packed`` when ``to_packed``, else into ``flat`` (either may be a strided view)."""
    v = packed.shape[4]
    for b in range(lo, hi):
        for a in range(packed.shape[1]):
            for k2 in range(packed.shape[2]):
                for p in range(v):
                    if to_packed:
                        for n in range(packed.shape[3]):
                            packed[b, a, k2, n, p] = flat[b, a, v * k2 + p, n]
                    else:
                        for n in range(packed.shape[3]):
                            flat[b, a, v * k2 + p, n] = packed[b, a, k2, n, p]


@numba.njit(cache=True)
def _copy(flat, packed, to_packed):  # noqa: ANN001, ANN202
    _copy_range(flat, packed, 0, flat.shape[0], to_packed)


@numba.njit(cache=True, parallel=True)
def _copy_parallel(flat, packed, to_packed, threads, nchunks):  # noqa: ANN001, ANN202
    """:func:`_copy` in ``nchunks`` ranges of tile groups handed out to ``threads`` threads one at a time
    (xesim/numerics/work_queue.py)."""
    n = flat.shape[0]
    next_chunk = np.zeros(1, np.int64)
    for _ in numba.prange(threads):
        ch = claim(next_chunk, nchunks)
        while ch >= 0:
            _copy_range(flat, packed, ch * n // nchunks, (ch + 1) * n // nchunks, to_packed)
            ch = claim(next_chunk, nchunks)


#: the compiled loops or their uncompiled twin (xesim/numerics/tiers.py, xesim/exec/twins.py); unit: one element
#: moved; twin seconds per call and per element, compile and load seconds measured by tools/bench_tiers.py
TIER = tiers.Family("vnni", per_call_s=1e-5, per_unit_s=2e-9, compile_s=1.3, load_s=0.3,
                    dispatchers=lambda: (_copy,))

_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _run(flat: np.ndarray, packed: np.ndarray, to_packed: bool) -> None:
    """:func:`_copy_range` over every tile group, on numba's threads for large batches."""
    if not TIER.compiled(packed.size):
        twins.vnni_copy(flat, packed, to_packed)
        return
    count = flat.shape[0]
    threads = 1 if flat.nbytes < PARALLEL_BYTES or count < 2 else min(numba.get_num_threads(), count)
    if threads > 1:
        _copy_parallel(flat, packed, to_packed, threads, chunk_count(threads, count))
    else:
        _copy(flat, packed, to_packed)


def _groups(x: np.ndarray, inner: int) -> np.ndarray:
    """``x [..., <inner axes>]`` as ``[B, A, <inner axes>]``: with more than one leading axis the last one is A
    and the others merge into B, else A = 1 (a view when numpy can make one, else a copy); as unsigned integers
    of its element size."""
    lead = x.shape[:-inner]
    if len(lead) <= 1:
        x = x.reshape(math.prod(lead), 1, *x.shape[-inner:])
    else:
        x = x.reshape(-1, *x.shape[-inner - 1:])
    return x.view(_UNSIGNED[x.dtype.itemsize]) if x.dtype.itemsize in _UNSIGNED else x


def pack(tiles: np.ndarray, v: int) -> np.ndarray:
    """``tiles [..., K, N]`` (K a multiple of ``v``) -> ``[..., K/v, N, v]`` with ``out[.., k2, n, p] =
    tiles[.., v*k2 + p, n]`` (same dtype, new contiguous array; ``tiles`` may be any strided view)."""
    *lead, k, n = tiles.shape
    src = _groups(tiles, 2)
    out = np.empty((*src.shape[:2], k // v, n, v), src.dtype)
    _run(src, out, True)
    return out.view(tiles.dtype).reshape(*lead, k // v, n, v)


def unpack(packed: np.ndarray) -> np.ndarray:
    """The inverse of :func:`pack`: ``[..., K/v, N, v]`` -> ``[..., K, N]`` (new contiguous array)."""
    *lead, k2, n, v = packed.shape
    src = _groups(packed, 3)
    out = np.empty((*src.shape[:2], k2 * v, n), src.dtype)
    _run(out, src, False)
    return out.view(packed.dtype).reshape(*lead, k2 * v, n)
