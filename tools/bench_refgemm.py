#!/usr/bin/env python3
"""The host reference GEMM kernel alone (xesim/runtime/reference_kernels.py), in-process, against numpy.

Prints, for each repeat, numpy's float32 matmul time and the kernel's time on the same N³ random integer-valued
f16 inputs (converted to f32 as the ``gemm*`` utilities do), their ratio, whether the kernel's result equals
numpy's (integer values below 2^24: every partial sum is exact, so any order gives the same bits) and the load
average (the machine is shared: ratios measured in the same run are the figures to compare).

Usage: ``python tools/bench_refgemm.py [--n N] [--repeat R] [--threads T]`` (default 4096, 3, all of numba's).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    from xesim.runtime.reference_kernels import gemm_f32_blocked

    n = args.n
    rng = np.random.default_rng(0)
    a = rng.integers(-4, 5, (n, n)).astype(np.float16).astype(np.float32)
    b = rng.integers(-4, 5, (n, n)).astype(np.float16).astype(np.float32)
    c = np.zeros((n, n), np.float32)
    t = time.perf_counter()
    gemm_f32_blocked(a[:8, :8], b[:8, :8], c[:8, :8], args.threads)  # compile or load from numba's cache
    print(f"reference GEMM {n}^3: first call (compile or cache load) {time.perf_counter() - t:.2f} s")
    for r in range(args.repeat):
        load = os.getloadavg()[0]
        t = time.perf_counter()
        want = a @ b
        t_np = time.perf_counter() - t
        t = time.perf_counter()
        got = gemm_f32_blocked(a, b, c, args.threads)
        t_k = time.perf_counter() - t
        print(f"  run {r + 1}: numpy {t_np:.3f} s, kernel {t_k:.3f} s, {t_k / t_np:.2f}x numpy, "
              f"{n ** 3 / t_k / 1e9:.1f} G multiply-adds/s, equal {np.array_equal(got, want)}, load {load:.1f}")


if __name__ == "__main__":
    main()
