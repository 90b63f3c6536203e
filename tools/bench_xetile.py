"""Benchmark: the XeTile GEMM programs of tests/e2e run end to end through ``xesim run`` in this process, each
timed twice (the first run includes numba's compilation or cache loading, the second is warm), against numpy's
float32 matmul of the same size timed in the same run.  Prints seconds per program and the warm run's ratio to
numpy's matmul.  Not a test: it asserts nothing (issue 31 asks for at most 10 s per 1024^3 GEMM).

    python tools/bench_xetile.py                    # the 1024^3 GEMMs (xetile_gemm_1k_*, xetile_wg_gemm_1k_*)
    python tools/bench_xetile.py --large            # and the 4096^3 workgroup GEMM (xetile_wg_gemm_4k_f16)
    python tools/bench_xetile.py NAME ...           # names of tests/e2e/xetile_*.mlir without .mlir

Run it with ``PYTHONDONTWRITEBYTECODE`` unset and the registers model off (the default outside the test suite).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import time
from pathlib import Path

import numpy as np

E2E = Path(__file__).resolve().parent.parent / "tests" / "e2e"


def numpy_matmul_seconds(n: int, repeat: int = 5) -> float:
    """Best of ``repeat`` float32 ``n x n @ n x n`` products (numpy's BLAS, all cores)."""
    a = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    b = np.random.default_rng(1).standard_normal((n, n)).astype(np.float32)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t)
    return best


def gemm_size(path: Path) -> int:
    """M (= N = K) of a generated GEMM program: the first dimension of its first ``memref<MxNx...>``."""
    m = re.search(r"memref<(\d+)x\d+x", path.read_text())
    return int(m.group(1)) if m else 1024


def run_seconds(path: Path) -> tuple[float, int]:
    from xesim.cli import main

    out, err = io.StringIO(), io.StringIO()
    t = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["run", str(path)])
    return time.perf_counter() - t, status


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--large", action="store_true", help="also the 4096^3 workgroup GEMM")
    args = ap.parse_args(argv)
    names = args.names or sorted(p.stem for p in [*E2E.glob("xetile_gemm_1k_*.mlir"),
                                                  *E2E.glob("xetile_wg_gemm_1k_*.mlir")])
    if args.large and not args.names:
        names.append("xetile_wg_gemm_4k_f16")
    refs: dict[int, float] = {}
    for name in names:
        path = E2E / f"{name}.mlir"
        n = gemm_size(path)
        if n not in refs:
            refs[n] = numpy_matmul_seconds(n)
            print(f"numpy float32 matmul {n}^3: {refs[n] * 1e3:.1f} ms")
        first, status = run_seconds(path)
        warm, _ = run_seconds(path)
        print(f"{name:40s} first {first:6.2f} s  warm {warm:6.2f} s  = {warm / refs[n]:8.0f} x numpy {n}^3"
              + ("" if status == 0 else f"  (exit status {status})"), flush=True)


if __name__ == "__main__":
    main()
