#!/usr/bin/env python3
"""``--jobs`` speed-up of the (c) GEMM kernels, measured launch against launch in one process (issue 7 §3).

``tools/bench.py --jobs 1,2 --repeat N`` compares whole runs in separate processes; on a machine whose speed drifts
by tens of percent over minutes, short kernels (the WG GEMM launch takes about 0.2 s) need a finer comparison.  This
tool runs each workload's program (tools/bench.py ``WORKLOADS``) once in a child process and, at its second (warm)
kernel launch, repeats that launch ``2 x PAIRS`` times alternating the job counts (``--jobs 1,2``: 1, 2, 1, 2,
...), so both counts see the same machine state.  It prints, per workload and job count, the best and the median
launch time, the speed-ups of both over the first job count, and ``x pairs``: the median of the speed-ups of each
launch over the baseline launch just before it (a drift of the machine's speed between minutes cancels out of each
pair); the program's output is checked as in bench.py.  ``machine x``, measured just before each workload with
tools/machine_scaling.py (one round), is what the machine itself gives N concurrent CPU-bound processes of pure
Python / of numpy over one alone at that moment: the ceiling the workload's speed-up is to be read against.
The kernels accumulate into C, so every repeated launch adds A·B once more (same work, other values): the output
is checked on a separate plain run of the program (bench.py's child) instead.

``--busy-core`` measures what happens when one core is slow, as one vCPU of a shared VM often is for seconds
(``tools/machine_scaling.py --per-core``): a pure-Python spinner pinned to the last core runs throughout, the
launching thread is pinned to core 0 and forked workers to the last core (numba's threads are not pinned).  With
pieces handed out one at a time (xesim/exec/parallel.py) the worker on the busy core takes fewer of them.

Usage: ``python tools/bench_jobs.py [--pairs 10] [--jobs 1,2] [--quick] [--busy-core] [--only NAME ...]``
(default: the (c) workloads).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402 - tools/ is not a package
import machine_scaling  # noqa: E402

C_WORKLOADS = [name for name, w in bench.WORKLOADS.items() if w.warm_launch]


def child(path: str, jobs: list[int], pairs: int, busy_core: bool = False) -> None:
    """Run the program; repeat its second launch alternating ``jobs``; print a JSON record of the times."""
    import io

    if busy_core:
        last = max(os.sched_getaffinity(0))
        spinner = subprocess.Popen([sys.executable, "-c", f"import os\nos.sched_setaffinity(0, {{{last}}})\n"
                                    "while True:\n    pass\n"])
        import atexit

        atexit.register(spinner.kill)
        os.sched_setaffinity(0, {0})  # this thread only (Linux): numba's threads keep every core
        os.register_at_fork(after_in_child=lambda: os.sched_setaffinity(0, {last}))

    from xesim.api import load
    from xesim.exec import crosscheck
    from xesim.exec.interpreter import Engine

    launch = crosscheck.launch
    count = [0]
    times: dict[int, list[float]] = {j: [] for j in jobs}

    def alternating_launch(engine, *a: object, **kw: object) -> None:  # noqa: ANN001
        count[0] += 1
        if count[0] != 2:
            launch(engine, *a, **kw)
            return
        saved = engine.jobs
        try:
            for _ in range(pairs):
                for j in jobs:
                    engine.jobs = j
                    t0 = time.perf_counter()
                    launch(engine, *a, **kw)
                    times[j].append(time.perf_counter() - t0)
        finally:
            engine.jobs = saved

    crosscheck.launch = alternating_launch
    prog = load(path)
    Engine(prog.module, out=io.StringIO()).run("main")
    print(json.dumps({str(j): t for j, t in times.items()}))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=10, help="launches per job count (alternating)")
    ap.add_argument("--jobs", default="1,2", help="job counts to alternate (the first is the baseline)")
    ap.add_argument("--quick", action="store_true", help="256^3 instead of 1024^3")
    ap.add_argument("--only", nargs="*", choices=C_WORKLOADS, help="run only these workloads")
    ap.add_argument("--busy-core", action="store_true", help="a spinner on the last core; workers pinned to it")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        path, jobs, pairs = args.child
        child(path, [int(j) for j in jobs.split(",")], int(pairs), args.busy_core)
        return 0
    jobs = [int(j) for j in args.jobs.split(",")]
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    print(f"{'workload':10} {'jobs':>4} {'best s':>8} {'median s':>9} {'x best':>7} {'x median':>9} {'x pairs':>8}"
          f"  machine x (python / numpy)")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or C_WORKLOADS:
            w = bench.WORKLOADS[name]
            p = w.size(args.quick)
            path = os.path.join(tmp, f"{name}.mlir")
            with open(path, "w") as f:
                f.write(w.program(p))
            check = bench.run_child(path, env)  # one plain run: its output must be the expected one
            if check["output"] != w.expected(p):
                print(f"{name}: wrong output", file=sys.stderr)
                return 1
            machine = {j: _machine_ceiling(j) for j in jobs[1:]}
            proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", path,
                                   ",".join(map(str, jobs)), str(args.pairs)] + ["--busy-core"] * args.busy_core,
                                  capture_output=True, text=True, env=env)
            if proc.returncode != 0:
                print(f"{name}: child failed:\n{proc.stderr}", file=sys.stderr)
                return 1
            times = {int(j): t for j, t in json.loads(proc.stdout.strip().splitlines()[-1]).items()}
            base_best, base_med = min(times[jobs[0]]), statistics.median(times[jobs[0]])
            for j in jobs:
                best, med = min(times[j]), statistics.median(times[j])
                pair_x = statistics.median(b / t for b, t in zip(times[jobs[0]], times[j]))
                ceiling = "  {:.2f} / {:.2f}".format(*machine[j]) if j in machine else ""
                print(f"{name:10} {j:>4} {best:8.3f} {med:9.3f} {base_best / best:7.2f} {base_med / med:9.2f} "
                      f"{pair_x:8.2f}{ceiling}")
    return 0


def _machine_ceiling(jobs: int) -> tuple[float, float]:
    """(python, numpy) speed-ups of ``jobs`` concurrent processes over one (tools/machine_scaling.py, one round)."""
    out = []
    for code in (machine_scaling.WORKLOADS["python"], machine_scaling.WORKLOADS["numpy"]):
        alone = machine_scaling.timed(code, 1)
        out.append(jobs * alone / machine_scaling.timed(code, jobs))
    return out[0], out[1]


if __name__ == "__main__":
    sys.exit(main())
