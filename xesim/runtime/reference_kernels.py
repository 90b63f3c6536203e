"""Compiled kernels of the IMEX host reference utilities (``gemm*`` of :mod:`xesim.runtime.utils_imex`).

**Accumulation order** (spec/programs-and-runner.md §2, ``gemmF16F16F32``: "loops i, k, j with
``c[i][j] += a[i][k]*b[k][j]`` in float32 (each product rounded to f32, then added; loop order i-k-j, C initial
value included)").  Every element of C therefore sees exactly the sequence ::

    c ← fp32(c + fp32(a[i][k] · b[k][j]))      for k = 0, 1, …, K−1 in increasing order

and nothing else: no FMA contraction (the product is rounded before the add), no reassociation, no wider
accumulator.  Elements are independent of each other, so any order of the (i, j) work and any split of it
between threads gives the same bits, *as long as each element's k loop runs in increasing order*.

:func:`gemm_f32_blocked` uses that freedom and only that freedom:

* work is split over blocks of rows of C (``ROWS`` rows each), handed to numba's threads one at a time
  (:mod:`xesim.numerics.work_queue`); never over k;
* inside a block, columns are taken ``COLS`` at a time and k ``DEPTH`` at a time, in increasing order, so a
  block's piece of B (``DEPTH × COLS`` f32) stays in the core's L2 cache and a row piece of C in L1; the
  innermost loop runs over contiguous columns and compiles to SIMD multiplies and adds (one rounding each);
* compiled without ``fastmath`` (no contraction, no reassociation: LLVM must keep the source's roundings).

Measured on the 2-core machine of docs/performance.md: ``tools/bench.py --only reference-gemm``.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from xesim.numerics.work_queue import claim

#: rows of C per unit of work handed to a thread
ROWS = 16
#: columns of C per inner block (a row piece of C: 2 KiB, in L1)
COLS = 512
#: values of k per inner block (the block's piece of B: 256 KiB, in L2)
DEPTH = 128


@numba.njit(cache=True)
def _rows(a: Any, b: Any, c: Any, i0: int, i1: int) -> None:  # pragma: no cover - compiled
    """Rows ``i0 .. i1-1`` of ``c += a·b`` in the documented order (columns and k blocked, k increasing)."""
    K = a.shape[1]
    N = b.shape[1]
    for j0 in range(0, N, COLS):
        j1 = min(j0 + COLS, N)
        w = j1 - j0
        for k0 in range(0, K, DEPTH):
            k1 = min(k0 + DEPTH, K)
            for i in range(i0, i1):
                crow = c[i, j0:j1]
                arow = a[i]
                for k in range(k0, k1):
                    aik = arow[k]
                    brow = b[k, j0:j1]
                    for j in range(w):  # from 0: indices provably non-negative, so the loop vectorises
                        crow[j] = crow[j] + aik * brow[j]


@numba.njit(cache=True, parallel=True)
def _gemm_parallel(a: Any, b: Any, c: Any, threads: int) -> None:  # pragma: no cover - compiled
    M = a.shape[0]
    nblocks = (M + ROWS - 1) // ROWS
    next_chunk = np.zeros(1, np.int64)
    for _ in numba.prange(threads):
        ch = claim(next_chunk, nblocks)
        while ch >= 0:
            _rows(a, b, c, ch * ROWS, min(ch * ROWS + ROWS, M))
            ch = claim(next_chunk, nblocks)


def gemm_f32_blocked(a: np.ndarray, b: np.ndarray, c: np.ndarray, threads: int | None = None) -> np.ndarray:
    """``c + a·b`` in IMEX's order (module docstring), on up to ``threads`` of numba's threads (default: all).

    ``a`` ``[M, K]``, ``b`` ``[K, N]``, ``c`` ``[M, N]``, converted to C-contiguous float32; returns a new array.
    Bit-identical to the sequential i-k-j loop for every input, whatever ``threads`` is."""
    a = np.ascontiguousarray(a, np.float32)
    b = np.ascontiguousarray(b, np.float32)
    out = np.array(c, dtype=np.float32, copy=True, order="C")
    if out.size == 0 or a.shape[1] == 0:
        return out
    n = numba.config.NUMBA_NUM_THREADS if threads is None else max(1, min(threads, numba.config.NUMBA_NUM_THREADS))
    nblocks = (a.shape[0] + ROWS - 1) // ROWS
    n = max(1, min(n, nblocks))
    prev = numba.get_num_threads()
    if n != prev:
        numba.set_num_threads(n)
    try:
        with np.errstate(all="ignore"):
            _gemm_parallel(a, b, out, n)
    finally:
        if n != prev:
            numba.set_num_threads(prev)
    return out
