"""Benchmark: the XeTile whole programs of tests/e2e (default: the 1024^3 SG-level GEMMs) run end to end through
``xesim run`` in this process, each timed twice (the first run includes numba's compilation or cache loading),
against numpy's float32 matmul of 1024^3 timed in the same run.  Prints seconds per program and the ratio of the
warm run to numpy's matmul.  Not a test: it asserts nothing (issue 31 asks for at most 10 s per 1k GEMM).

    python tools/bench_xetile.py [names ...]        # names of tests/e2e/xetile_*.mlir without .mlir
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time
from pathlib import Path

import numpy as np

E2E = Path(__file__).resolve().parent.parent / "tests" / "e2e"


def numpy_matmul_seconds(n: int = 1024, repeat: int = 5) -> float:
    a = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    b = np.random.default_rng(1).standard_normal((n, n)).astype(np.float32)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t)
    return best


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
    args = ap.parse_args(argv)
    names = args.names or sorted(p.stem for p in E2E.glob("xetile_gemm_1k_*.mlir"))
    ref = numpy_matmul_seconds()
    print(f"numpy float32 matmul 1024^3: {ref * 1e3:.1f} ms")
    for name in names:
        first, status = run_seconds(E2E / f"{name}.mlir")
        warm, _ = run_seconds(E2E / f"{name}.mlir")
        print(f"{name:40s} first {first:6.2f} s  warm {warm:6.2f} s  = {warm / ref:8.0f} x numpy"
              + ("" if status == 0 else f"  (exit status {status})"))


if __name__ == "__main__":
    main()
