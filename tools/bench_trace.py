"""Benchmark: what tracing costs (issue 28).  A bf16 SG GEMM (default 1024^3, tile 8x16, the kernel of
tools/bench_gemm_sg.py) launched untraced and with ``trace=`` recording one workgroup (``--trace-wg 0``): prints
both times, their ratio (the issue asks for at most 2), the trace file's size, and numpy's float32 matmul of the
same size measured in the same run (times as ratios to it).  Runs alternate untraced/traced ``--repeat`` times and
the best of each is reported.

``--storage N`` also records N workgroups with every value and writes that trace's tables four ways — npz deflated
at zlib level 1 (what the format uses), at level 6 (``np.savez_compressed``), stored, and SQLite (one table per trace
table, rows inserted with ``executemany``, string columns as indices as in the npz) — and prints sizes, write and
load times: the measurement behind traces/FORMAT.md "Storage".

"Tracing off costs nothing" is measured with tools/bench_gemm_sg.py run on this tree and on the tree before
tracing (the figures are in traces/FORMAT.md).  Not a test: it asserts nothing (it exits 1 if a result is wrong).

    python tools/bench_trace.py [--size 1024] [--repeat 2] [--storage 64]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_gemm_sg import KERNEL  # noqa: E402 - the same kernel as the GEMM benchmark


def launch(prog, size: int, a: np.ndarray, b: np.ndarray, trace=None, jobs: int = 1) -> tuple[float, np.ndarray]:
    import xesim

    c = np.zeros((size, size), np.float32)
    t0 = time.perf_counter()
    out = xesim.launch(prog, "kernels::gemm", grid=(size // 8, size // 16, 1), block=(16, 1, 1), args=[a, b, c],
                       trace=trace, jobs=jobs)
    return time.perf_counter() - t0, out.arrays[2]


def storage(prog, size: int, a: np.ndarray, b: np.ndarray, wgs: int, tmp: Path) -> None:
    """Write one trace of ``wgs`` workgroups (all values) as deflated npz, plain npz and SQLite."""
    from xesim.trace import format as F  # noqa: N812
    from xesim.trace.spec import TraceSpec

    path = tmp / "all.xetrace"
    launch(prog, size, a, b, TraceSpec(str(path), workgroups=(("n", 0, wgs - 1),), values=-1))
    tr = F.load(path)
    with np.load(path) as z:  # the stored columns (string columns as indices into the string table)
        arrays = {k: z[k] for k in z.files}
    rows = sum(len(t) for t in tr.tables.values())
    print(f"storage of one trace: {wgs} workgroups, {len(tr.events):,} op executions, {rows:,} rows, "
          f"{tr.value_bytes.size + tr.grf_bytes.size:,} payload bytes")
    for name, level in (("npz deflate level 1 (used)", 1), ("npz deflate level 6", 6), ("npz stored", 0)):
        p = tmp / f"x{level}.npz"
        t0 = time.perf_counter()
        F.save_npz(p, arrays, level)
        dt = time.perf_counter() - t0
        t0 = time.perf_counter()
        F.load(p)
        print(f"  {name:28s} {p.stat().st_size:>12,} bytes   write {dt * 1e3:7.1f} ms   load "
              f"{(time.perf_counter() - t0) * 1e3:7.1f} ms")
    p = tmp / "x.sqlite"
    t0 = time.perf_counter()
    db = sqlite3.connect(p)
    for t in F.TABLES:
        cols = [c for c, _, _ in F.TABLES[t]]
        quoted = ", ".join(f'"{c}"' for c in cols)
        db.execute(f'create table "{t}" ({quoted})')
        data = list(zip(*(arrays[f"{t}.{c}"].tolist() for c in cols)))
        db.executemany(f'insert into "{t}" values ({", ".join("?" * len(cols))})', data)
    for k, v in tr.blobs.items():
        db.execute(f"create table blob_{k} (data blob)")
        db.execute(f"insert into blob_{k} values (?)", (v.tobytes(),))
    db.commit()
    db.close()
    dt = time.perf_counter() - t0
    t0 = time.perf_counter()
    db = sqlite3.connect(p)
    for t in F.TABLES:
        db.execute(f'select * from "{t}"').fetchall()
    db.close()
    print(f"  {'sqlite3 (rows, blobs)':28s} {p.stat().st_size:>12,} bytes   write {dt * 1e3:7.1f} ms   load "
          f"{(time.perf_counter() - t0) * 1e3:7.1f} ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=1024, help="M = N = K (default 1024)")
    ap.add_argument("--repeat", type=int, default=2, help="untraced/traced pairs; the best of each (default 2)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="cores per launch (default 1: on a shared machine threads make the times noisy)")
    ap.add_argument("--storage", type=int, default=0, metavar="N",
                    help="also compare storage formats on a trace of N workgroups with every value")
    args = ap.parse_args()
    import xesim
    from xesim.trace.spec import TraceSpec

    size = args.size
    rng = np.random.default_rng(0)
    a = rng.integers(-3, 4, (size, size)).astype(ml_dtypes.bfloat16)
    b = rng.integers(-3, 4, (size, size)).astype(ml_dtypes.bfloat16)
    fmt = dict(TM=8, TN=16, KS=16, KH=8, CT="vector<8x16xf32>")
    prog = xesim.load(KERNEL.format(M=size, N=size, K=size, **fmt))
    warm = xesim.load(KERNEL.format(M=8, N=32, K=32, **fmt))  # JIT-compiles the numba DPAS kernels
    xesim.launch(warm, "kernels::gemm", grid=(1, 1, 1), block=(16, 1, 1),
                 args=[a[:8, :32].copy(), b[:32, :32].copy(), np.zeros((8, 32), np.float32)])
    ref = a.astype(np.float64) @ b.astype(np.float64)
    off, on = float("inf"), float("inf")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        path = tmp / "wg0.xetrace"
        for _ in range(args.repeat):
            t, c = launch(prog, size, a, b, jobs=args.jobs)
            off = min(off, t)
            ok = np.array_equal(c.astype(np.float64), ref)
            t, c = launch(prog, size, a, b, TraceSpec(str(path), workgroups=(("n", 0, 0),)), args.jobs)
            on = min(on, t)
            ok = ok and np.array_equal(c.astype(np.float64), ref)
        tr = xesim.trace.load(path)
        size_b = path.stat().st_size
        a32, b32 = a.astype(np.float32), b.astype(np.float32)
        best = float("inf")
        for _ in range(5):
            t1 = time.perf_counter()
            np.matmul(a32, b32)
            best = min(best, time.perf_counter() - t1)
        print(f"bf16 SG GEMM {size}^3, tile 8x16, {size * size // 128} workgroups, --jobs {args.jobs} (best of {args.repeat}, "
              f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r})")
        print(f"  untraced:             {off:8.3f} s  ({off / best:,.0f}x numpy f32 matmul {best * 1e3:.2f} ms)")
        print(f"  traced (--trace-wg 0): {on:7.3f} s  ({on / best:,.0f}x numpy)  traced/untraced {on / off:.2f}")
        print(f"  trace file: {size_b:,} bytes, {len(tr.events):,} op executions, {len(tr.values):,} values, "
              f"{len(tr.memory):,} memory ranges, {len(tr.grf):,} register events; results "
              f"{'exact' if ok else 'WRONG'}")
        if args.storage:
            storage(prog, size, a, b, args.storage, tmp)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
