#!/usr/bin/env python3
"""The machine's own ceiling for ``--jobs N``: how much faster N copies of a fixed CPU-bound job finish than N runs
one after another (issue 7 §3; read with tools/bench_jobs.py).

On a virtual machine the cores a guest sees may be hardware threads of one physical core, or shared with other
guests: two busy processes then each run slower than one alone, and no program reaches N x.  This tool measures
that ceiling with two workloads that involve nothing of xesim -- ``python``: a pure-Python integer loop (like the
interpreter's per-op work), ``numpy``: single-threaded float32 matrix products (like numba's DPAS loops) -- each
run alone and as N concurrent processes, alternating, ``--rounds`` times.  Printed per workload: the median
time of one job alone, the median wall time of N concurrent jobs, and the speed-up ``N x alone / concurrent``.

``--per-core SECONDS``: instead, run one pure-Python spin loop pinned to each core at once for that long and
print each core's speed per 0.1 s window (iterations relative to the fastest window seen): on a shared virtual
machine one core is often at half speed while the other runs at full speed, for seconds at a time -- the reason
xesim hands work out dynamically (xesim/numerics/work_queue.py, xesim/exec/parallel.py).

Usage: ``python tools/machine_scaling.py [--jobs 2] [--rounds 5] [--per-core SECONDS]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

WORKLOADS = {
    "python": "s = 0\nfor i in range(6_000_000):\n    s += i * i % 7\n",
    "numpy": ("import numpy as np\na = np.ones((384, 384), np.float32)\nb = np.ones((384, 384), np.float32)\n"
              "for _ in range(400):\n    a = (a @ b) * np.float32(1e-3)\n"),
}
#: single-threaded BLAS in the children: one job, one core
_ONE_THREAD = {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}


def timed(code: str, copies: int) -> float:
    """Wall time of ``copies`` concurrent processes running ``code`` (process start-up excluded: each child waits
    for a go signal on stdin after importing what it needs)."""
    env = {**os.environ, **_ONE_THREAD}
    prog = ("import sys\n" + "\n".join(line for line in code.splitlines() if line.startswith("import"))
            + "\nsys.stdin.readline()\n" + "\n".join(line for line in code.splitlines()
                                                    if not line.startswith("import")) + "\n")
    procs = [subprocess.Popen([sys.executable, "-c", prog], stdin=subprocess.PIPE, env=env) for _ in range(copies)]
    time.sleep(0.5)  # imports done
    t0 = time.perf_counter()
    for p in procs:
        p.stdin.write(b"go\n")  # type: ignore[union-attr]
        p.stdin.flush()  # type: ignore[union-attr]
    for p in procs:
        p.wait()
    return time.perf_counter() - t0


_SPIN = """
import os, sys, time
os.sched_setaffinity(0, {int(sys.argv[1])})
sys.stdin.readline()
end = time.perf_counter() + float(sys.argv[2])
counts = []
while time.perf_counter() < end:
    t0, n = time.perf_counter(), 0
    while time.perf_counter() - t0 < 0.1:
        for _ in range(1000):
            pass
        n += 1
    counts.append(n)
print(" ".join(map(str, counts)))
"""


def per_core(seconds: float) -> list[list[float]]:
    """Each core's speed per 0.1 s window while every core runs a pinned spin loop (relative to the fastest
    window of any core)."""
    cores = sorted(os.sched_getaffinity(0))
    procs = [subprocess.Popen([sys.executable, "-c", _SPIN, str(c), str(seconds)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True) for c in cores]
    time.sleep(0.3)
    for p in procs:
        p.stdin.write("go\n")  # type: ignore[union-attr]
        p.stdin.flush()  # type: ignore[union-attr]
    counts = [[int(x) for x in p.communicate()[0].split()] for p in procs]
    top = max(max(c) for c in counts if c)
    return [[x / top for x in c] for c in counts]


def _print_per_core(seconds: float) -> None:
    speeds = per_core(seconds)
    windows = min(len(s) for s in speeds)
    uneven = sum(1 for w in range(windows) if min(s[w] for s in speeds) < 0.75 * max(s[w] for s in speeds))
    for core, s in enumerate(speeds):
        print(f"core {core}: median {statistics.median(s):.2f}, slowest window {min(s):.2f}")
    print(f"windows where the slowest core ran at under 3/4 of the fastest's speed: {uneven} of {windows}")
    for w in range(windows):
        print(" ".join(f"{s[w]:.2f}" for s in speeds))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2, help="concurrent copies (default 2)")
    ap.add_argument("--rounds", type=int, default=5, help="alone / concurrent measurements per workload")
    ap.add_argument("--per-core", type=float, metavar="SECONDS", help="per-core speeds over time instead")
    args = ap.parse_args(argv)
    if args.per_core:
        _print_per_core(args.per_core)
        return 0
    print(f"{'workload':9} {'alone s':>8} {f'{args.jobs} at once s':>12} {'speed-up':>9}  (ceiling {args.jobs}.00)")
    for name, code in WORKLOADS.items():
        alone, together = [], []
        for _ in range(args.rounds):
            alone.append(timed(code, 1))
            together.append(timed(code, args.jobs))
        a, t = statistics.median(alone), statistics.median(together)
        print(f"{name:9} {a:8.3f} {t:12.3f} {args.jobs * a / t:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
