"""Dynamic scheduling for numba's parallel loops: chunks handed out one at a time from a shared counter.

numba's ``prange`` gives every thread an equal, fixed share of the iterations, whatever the threading layer
(``omp``, ``workqueue``) and whatever ``numba.set_parallel_chunksize`` says: measured here with a CPU-bound loop of
256 equal items on 2 threads, with a busy process pinned to one core, static shares and chunk sizes 1, 4 and 16
all took 0.115-0.139 s against 0.073 s without it (docs/performance.md "Parallel workgroups").  On a
shared machine one core is often much slower than the other for seconds at a time (a virtual CPU whose host
core is busy: ``python tools/machine_scaling.py --per-core`` shows it), and an equal share then waits for the
slow core.  A kernel written as ::

    next_chunk = np.zeros(1, np.int64)
    for _ in numba.prange(threads):
        ch = claim(next_chunk, nchunks)
        while ch >= 0:
            ...  # chunk ch
            ch = claim(next_chunk, nchunks)

lets each thread take the next unclaimed chunk when it is free, so a slow core takes fewer chunks (same
measurement: 0.096-0.104 s with 16-64 chunks; a core and a half is 0.098 s).  Every chunk is taken exactly once
(:func:`fetch_add` is an atomic read-modify-write), so results do not depend on which thread ran it.
"""

from __future__ import annotations

from typing import Any

import numba
from numba.core import cgutils, types
from numba.extending import intrinsic

#: chunks per thread of a dynamically scheduled loop: enough for a slow thread to give most of its share away,
#: few enough that claiming (one atomic add) costs nothing measurable
CHUNKS_PER_THREAD = 8


@intrinsic
def fetch_add(typingctx: Any, counters: Any, index: Any, value: Any) -> Any:
    """``counters[index] += value`` as one atomic operation (sequentially consistent); returns the old value.
    ``counters``: a 1-D int64 array; ``index``, ``value``: integers."""
    if not (isinstance(counters, types.Array) and counters.ndim == 1 and counters.dtype == types.int64
            and isinstance(index, types.Integer) and isinstance(value, types.Integer)):
        return None
    sig = types.int64(counters, index, value)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        arr_t, index_t, value_t = signature.args
        arr = context.make_array(arr_t)(context, builder, args[0])
        i = context.cast(builder, args[1], index_t, types.intp)
        v = context.cast(builder, args[2], value_t, types.int64)
        ptr = cgutils.get_item_pointer(context, builder, arr_t, arr, [i], wraparound=False)
        return builder.atomic_rmw("add", ptr, v, "seq_cst")

    return sig, codegen


@numba.njit(cache=True)
def claim(next_chunk: Any, nchunks: int) -> int:
    """The next chunk (``0 .. nchunks - 1``) not yet taken by any thread, or -1 when all are taken.
    ``next_chunk``: a 1-D int64 array whose element 0 starts at 0, shared by the threads of one loop."""
    ch = fetch_add(next_chunk, 0, 1)
    return ch if ch < nchunks else -1


def chunk_count(threads: int, items: int) -> int:
    """Chunks for a loop of ``items`` independent items on ``threads`` threads (:data:`CHUNKS_PER_THREAD` per
    thread, at most one per item)."""
    return max(1, min(items, threads * CHUNKS_PER_THREAD))
