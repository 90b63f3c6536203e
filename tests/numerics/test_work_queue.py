"""Dynamic scheduling of numba's parallel loops (xesim/numerics/work_queue.py)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from xesim.numerics.work_queue import CHUNKS_PER_THREAD, chunk_count, claim, fetch_add


@numba.njit(cache=True)
def _add(counters, i, v):  # noqa: ANN001, ANN202
    return fetch_add(counters, i, v)


@numba.njit(cache=True, parallel=True)
def _hits(threads, nchunks):  # noqa: ANN001, ANN202
    """How many times each chunk was handed out, and which thread took it."""
    hits = np.zeros(nchunks, np.int64)
    owner = np.full(nchunks, -1, np.int64)
    next_chunk = np.zeros(1, np.int64)
    for t in numba.prange(threads):
        ch = claim(next_chunk, nchunks)
        while ch >= 0:
            hits[ch] += 1
            owner[ch] = t
            ch = claim(next_chunk, nchunks)
    return hits, owner


@numba.njit(cache=True, parallel=True)
def _first_chunk_waits(nchunks, patience):  # noqa: ANN001, ANN202
    """Two threads; whoever takes chunk 0 holds it until every other chunk has been taken (or ``patience`` spins
    pass).  Returns the loop index that ran each chunk."""
    owner = np.full(nchunks, -1, np.int64)
    next_chunk = np.zeros(1, np.int64)
    for t in numba.prange(2):
        ch = claim(next_chunk, nchunks)
        while ch >= 0:
            owner[ch] = t
            if ch == 0:
                spins = 0
                while fetch_add(next_chunk, 0, 0) < nchunks and spins < patience:  # an atomic read
                    spins += 1
            ch = claim(next_chunk, nchunks)
    return owner


def test_fetch_add_returns_the_old_value_and_adds() -> None:
    c = np.array([5, 7], np.int64)
    assert _add(c, 1, 3) == 7
    assert _add(c, 1, -10) == 10
    assert c.tolist() == [5, 0]


@pytest.mark.parametrize("threads, nchunks", [(2, 1), (2, 16), (3, 1000), (8, 5)])
def test_every_chunk_is_handed_out_exactly_once(threads: int, nchunks: int) -> None:
    for _ in range(20):
        hits, owner = _hits(threads, nchunks)
        assert hits.tolist() == [1] * nchunks
        assert ((owner >= 0) & (owner < threads)).all()


def test_a_thread_held_up_by_one_chunk_leaves_the_others_to_the_other_thread() -> None:
    """Handed out one at a time, not as fixed shares: while one thread is busy with chunk 0, the other takes every
    remaining chunk (with equal fixed shares the first thread would also own chunks 1..7 and wait for ever)."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has one thread on this machine: nothing runs concurrently")
    prev = numba.get_num_threads()
    numba.set_num_threads(2)
    try:
        owner = _first_chunk_waits(16, 2_000_000_000)
    finally:
        numba.set_num_threads(prev)
    assert (owner[1:] != owner[0]).all(), owner


def test_chunk_counts() -> None:
    assert chunk_count(2, 1000) == 2 * CHUNKS_PER_THREAD
    assert chunk_count(2, 3) == 3
    assert chunk_count(4, 0) == 1
