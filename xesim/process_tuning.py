"""Process-wide settings that make xesim's kernels faster, applied when xesim is imported (ARCHITECTURE.md
"Performance"); each keeps a value the user already chose.

* ``GOMP_SPINCOUNT`` (default here 1,000,000: the workers spin about 25 ms before sleeping): numba's OpenMP worker
  threads (``--jobs N``: parallel DPAS rows, B decoding and block copies, xesim/exec/parallel.py) otherwise sleep
  soon after a parallel region; the regions of one workgroup-level launch come 0.1-1 ms apart, and waking the
  workers for each cost 10-30% of a 0.2 s launch (tools/bench_jobs.py).  Read when the OpenMP runtime loads, so
  it is set before any numba parallel code runs; an existing ``GOMP_SPINCOUNT`` is kept.
* glibc ``malloc`` (``mallopt``): freed blocks of up to 32 MiB stay in the heap instead of being unmapped
  (``M_MMAP_THRESHOLD`` = 32 MiB) and the heap is not trimmed below 512 MiB of free space at its top
  (``M_TRIM_THRESHOLD``).  Kernels allocate and free megabyte-sized tiles (DPAS results, block loads) at every
  step; with glibc's defaults each launch of the 1024^3 workgroup GEMM took about 2,300 fresh-page faults
  (~10 ms; about 1 with these settings).  The cost: memory a run freed stays in the process (its resident size
  keeps its high-water mark).  ``XESIM_MALLOC_TUNING=0`` leaves malloc alone; other C libraries are left alone.
"""

from __future__ import annotations

import os

#: glibc's mallopt parameter numbers (malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3

MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 512 << 20

_applied = False


def apply() -> None:
    """Apply the settings above once per process."""
    global _applied
    if _applied:
        return
    _applied = True
    os.environ.setdefault("GOMP_SPINCOUNT", "1000000")
    if os.environ.get("XESIM_MALLOC_TUNING", "1").strip() != "0":
        tune_malloc()


def tune_malloc() -> bool:
    """Set glibc's mmap and trim thresholds (module docstring); False where ``mallopt`` is not available."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
