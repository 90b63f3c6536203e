#!/usr/bin/env python3
"""``--jobs`` speed-up of the (c) GEMM kernels, measured launch against launch in one process (issue 7 §3).

``tools/bench.py --jobs 1,2 --repeat N`` compares whole runs in separate processes; on a machine whose speed drifts
by tens of percent over minutes, short kernels (the WG GEMM launch takes about 0.2 s) need a finer comparison.  This
tool runs each workload's program (tools/bench.py ``WORKLOADS``) once in a child process and, at its second (warm)
kernel launch, repeats that launch ``2 x PAIRS`` times alternating the job counts (``--jobs 1,2``: 1, 2, 1, 2,
...), so both counts see the same machine state.  It prints, per workload and job count, the best and the median
launch time, the speed-ups of both over the first job count, and ``x pairs``: the median of the speed-ups of each
launch over the baseline launch just before it (a drift of the machine's speed between minutes cancels out of each
pair); the program's output is checked as in bench.py.

``machine x`` is what the machine itself gives N concurrent CPU-bound processes over one alone, measured right
after each launch pair (:func:`probe`: a short single-threaded numpy job -- matrix products, like numba's DPAS
loops -- run by one and then by N waiting worker processes), as the median over the pairs: the ceiling the
workload's speed-up is to be read against on a shared VM whose cores change speed by tens of percent from one
second to the next (tools/machine_scaling.py).  ``of machine`` is the median over pairs of the pair's speed-up
divided by that pair's probe: how much of what the machine offered at that moment the launch took.  ``calm``: the
number of pairs whose probe gave at least :data:`CALM` x N, and the median speed-up over those pairs (``-`` when
there is none); every pair is in ``x pairs`` either way.

``--copies ROUNDS`` adds ``copies x``: N independent copies of the workload, each a process of its own running the
program with one job (:func:`copies`), timed over their warm launch alone and N at once, ROUNDS times (median).  It
is the workload's own ceiling on this machine, with none of ``--jobs``' costs (fork, copy-on-write, merging the
results, uneven pieces); ``--jobs N`` is to be read against it.
The kernels accumulate into C, so every repeated launch adds A·B once more (same work, other values): the output
is checked on a separate plain run of the program (bench.py's child) instead.

``--busy-core`` measures what happens when one core is slow, as one vCPU of a shared VM often is for seconds
(``tools/machine_scaling.py --per-core``): a pure-Python spinner pinned to the last core runs throughout, the
launching thread is pinned to core 0 and forked workers to the last core (numba's threads are not pinned).  With
pieces handed out one at a time (xesim/exec/parallel.py) the worker on the busy core takes fewer of them.

Usage: ``python tools/bench_jobs.py [--pairs 10] [--jobs 1,2] [--quick] [--busy-core] [--copies ROUNDS]
[--json PATH] [--only NAME ...]``
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

#: a pair counts as calm when the machine's probe right after it gave at least this fraction of N x
CALM = 0.925
#: the probe's job: single-threaded float32 matrix products, about 0.15 s on the CI VM (a quarter of
#: tools/machine_scaling.py's numpy workload)
PROBE_JOB = ("a = np.ones((384, 384), np.float32)\nb = np.ones((384, 384), np.float32)\n"
             "for _ in range(100):\n    a = (a @ b) * np.float32(1e-3)\n")
_PROBE_WORKER = ("import sys\nimport numpy as np\nprint('ready', flush=True)\nfor line in sys.stdin:\n"
                 + "".join("    " + line + "\n" for line in PROBE_JOB.splitlines())
                 + "    sys.stdout.write('done\\n')\n    sys.stdout.flush()\n")
#: launches each copy runs per measurement (``--copies``)
COPY_LAUNCHES = 3


class Workers:
    """``count`` worker processes started with ``cmd`` that each say ``ready`` once set up, then run their job
    whenever a line arrives on stdin and answer ``done``: the speed-up of N of them at once over one alone, at a
    given moment, without starting processes (they wait on stdin in between, using no CPU)."""

    def __init__(self, cmd: list[str], count: int, env: dict[str, str]) -> None:
        self.workers = [subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
                        for _ in range(count)]
        for w in self.workers:
            if w.stdout.readline() != "ready\n":  # type: ignore[union-attr]
                raise RuntimeError(f"worker {' '.join(cmd[:3])} failed to start")

    def _run(self, n: int) -> float:
        t0 = time.perf_counter()
        for w in self.workers[:n]:
            w.stdin.write("go\n")  # type: ignore[union-attr]
            w.stdin.flush()  # type: ignore[union-attr]
        for w in self.workers[:n]:
            if w.stdout.readline() != "done\n":  # type: ignore[union-attr]
                raise RuntimeError("worker failed")
        return time.perf_counter() - t0

    def speedup(self, n: int) -> float:
        """``n`` x (time of the job alone) / (time of ``n`` copies at once), measured now."""
        alone = self._run(1)
        return n * alone / self._run(n)

    def close(self) -> None:
        for w in self.workers:
            w.stdin.close()  # type: ignore[union-attr]
            w.wait()


def probe(count: int) -> Workers:
    """Workers running :data:`PROBE_JOB` (single-threaded BLAS): the machine's own ceiling."""
    return Workers([sys.executable, "-c", _PROBE_WORKER], count, {**os.environ, **machine_scaling._ONE_THREAD})


def copies(path: str, count: int, env: dict[str, str]) -> Workers:
    """Workers each running the program at ``path`` in a process of its own with one job and one numba thread,
    repeating its warm launch :data:`COPY_LAUNCHES` times per go (:func:`copy_child`): what the machine gives N
    independent copies of this very workload -- no fork, no shared pages, no merge."""
    env = {**env, **machine_scaling._ONE_THREAD, "XESIM_JOBS": "1", "NUMBA_NUM_THREADS": "1"}
    return Workers([sys.executable, os.path.abspath(__file__), "--copy", path], count, env)


def copy_child(path: str) -> None:
    """The program at ``path``; at its second (warm) launch: one launch, ``ready``, then per line on stdin
    :data:`COPY_LAUNCHES` launches and ``done``."""
    import io

    from xesim.api import load, make_engine
    from xesim.exec.engine import Engine

    launch = Engine.launch
    count = [0]

    def serving_launch(engine, *a: object, **kw: object) -> None:  # noqa: ANN001
        count[0] += 1
        launch(engine, *a, **kw)
        if count[0] != 2:
            return
        print("ready", flush=True)
        for _ in sys.stdin:
            for _ in range(COPY_LAUNCHES):
                launch(engine, *a, **kw)
            print("done", flush=True)
        sys.stdout.flush()
        os._exit(0)  # the rest of the program is not needed

    Engine.launch = serving_launch  # type: ignore[method-assign]
    make_engine(load(path).module, out=io.StringIO()).run("main")


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

    from xesim.api import load, make_engine
    from xesim.exec import parallel
    from xesim.exec.engine import Engine

    launch = Engine.launch
    count = [0]
    times: dict[int, list[float]] = {j: [] for j in jobs}
    machine: dict[int, list[float]] = {j: [] for j in jobs[1:]}
    spread: dict[int, list[dict]] = {j: [] for j in jobs[1:]}
    workers = probe(max(jobs))

    def alternating_launch(engine, *a: object, **kw: object) -> None:  # noqa: ANN001
        count[0] += 1
        if count[0] != 2:
            launch(engine, *a, **kw)
            return
        saved = engine.config
        try:
            for _ in range(pairs):
                for j in jobs:
                    engine.config = saved.with_options(jobs=j)
                    parallel.LAST_TIMELINE = None
                    t0 = time.perf_counter()
                    launch(engine, *a, **kw)
                    times[j].append(time.perf_counter() - t0)
                    if j in spread and parallel.LAST_TIMELINE is not None:
                        spread[j].append(timeline_record(parallel.LAST_TIMELINE))
                for j in jobs[1:]:
                    machine[j].append(workers.speedup(j))
        finally:
            engine.config = saved

    Engine.launch = alternating_launch  # type: ignore[method-assign]
    prog = load(path)
    make_engine(prog.module, out=io.StringIO()).run("main")
    workers.close()
    print(json.dumps({"times": {str(j): t for j, t in times.items()},
                      "machine": {str(j): m for j, m in machine.items()},
                      "spread": {str(j): r for j, r in spread.items() if r}}))


def timeline_record(tl: object) -> dict:
    """What a spread launch's ``xesim.exec.parallel.Timeline`` says, in seconds: until the last worker was forked,
    from the last piece's end to the launch's end (merge and replay), and per process its busy and CPU seconds,
    page faults and when it finished its last piece."""
    done = tl.finished()
    last = max(done.values(), default=0.0)
    slots = sorted(done)
    return {"fork": tl.forked - tl.start, "merge": tl.end - tl.start - last,
            "busy": [tl.busy()[i] for i in slots], "done": [done[i] for i in slots],
            "cpu": [sum(p.cpu for p in tl.pieces if p.slot == i) for i in slots],
            "faults": [sum(p.faults for p in tl.pieces if p.slot == i) for i in slots]}


def where_lost(name: str, j: int, base: list[float], records: list[dict]) -> str:
    """One line on where a spread launch's time went, medians over the launches: ``work x`` is the processes' busy
    seconds over the one-job launch of the same pair (1.00: spreading added no work; per-batch Python work every
    process repeats, copy-on-write faults and two busy cores sharing one machine raise it); then the time until
    the workers were forked, how much later the slowest process finished than the fastest (uneven pieces or cores),
    the merge, and the page faults per process."""
    med = statistics.median
    work = med(sum(r["busy"]) / b for r, b in zip(records, base))
    gap = med(max(r["done"]) - min(r["done"]) for r in records)
    faults = med(sum(r["faults"]) / len(r["faults"]) for r in records)
    steal = med(1 - sum(r["cpu"]) / sum(r["busy"]) for r in records)
    return (f"{'':10} {j:>4} spread: work x {work:.2f}, fork {1e3 * med(r['fork'] for r in records):.0f} ms, "
            f"slowest process {1e3 * gap:.0f} ms after the fastest, merge {1e3 * med(r['merge'] for r in records):.0f}"
            f" ms, {faults:,.0f} page faults per process, {100 * steal:.0f}% of busy time without CPU")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=10, help="launches per job count (alternating)")
    ap.add_argument("--jobs", default="1,2", help="job counts to alternate (the first is the baseline)")
    ap.add_argument("--quick", action="store_true", help="256^3 instead of 1024^3")
    ap.add_argument("--only", nargs="*", choices=C_WORKLOADS, help="run only these workloads")
    ap.add_argument("--busy-core", action="store_true", help="a spinner on the last core; workers pinned to it")
    ap.add_argument("--json", metavar="PATH", help="also write every launch time and probe to this JSON file")
    ap.add_argument("--copies", type=int, default=0, metavar="ROUNDS",
                    help="also time N independent copies of each workload's launch, alone and at once")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    ap.add_argument("--copy", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.copy:
        copy_child(args.copy)
        return 0
    if args.child:
        path, jobs, pairs = args.child
        child(path, [int(j) for j in jobs.split(",")], int(pairs), args.busy_core)
        return 0
    jobs = [int(j) for j in args.jobs.split(",")]
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    print(f"{'workload':10} {'jobs':>4} {'best s':>8} {'median s':>9} {'x best':>7} {'x median':>9} {'x pairs':>8}"
          f" {'machine x':>10} {'of machine':>11}  calm pairs: count, x")
    record: dict[str, dict] = {}
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
            proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", path,
                                   ",".join(map(str, jobs)), str(args.pairs)] + ["--busy-core"] * args.busy_core,
                                  capture_output=True, text=True, env=env)
            if proc.returncode != 0:
                print(f"{name}: child failed:\n{proc.stderr}", file=sys.stderr)
                return 1
            data = json.loads(proc.stdout.strip().splitlines()[-1])
            times = {int(j): t for j, t in data["times"].items()}
            machine = {int(j): m for j, m in data["machine"].items()}
            if args.copies:
                group = copies(path, max(jobs), env)
                data["copies"] = {str(j): [group.speedup(j) for _ in range(args.copies)] for j in jobs[1:]}
                group.close()
            record[name] = data
            for line in summary(name, jobs, times, machine, data.get("copies")):
                print(line, flush=True)
            for j, records in data.get("spread", {}).items():
                base = [times[jobs[0]][i] for i in range(len(times[int(j)]))]
                if len(records) == len(base):  # every launch of the pairs was spread
                    print(where_lost(name, int(j), base, records), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"pairs": args.pairs, "jobs": jobs, "busy_core": args.busy_core, "workloads": record}, f,
                      indent=1)
    return 0


def summary(name: str, jobs: list[int], times: dict[int, list[float]], machine: dict[int, list[float]],
            copied: dict[str, list[float]] | None = None) -> list[str]:
    """The table rows of one workload: per job count the best and median launch, their speed-ups over the first job
    count, ``x pairs``, and (other counts) the probes' median, ``of machine``, the calm pairs and, when measured,
    ``copies x`` (module docstring)."""
    base = times[jobs[0]]
    rows = []
    for j in jobs:
        t = times[j]
        x = [b / tj for b, tj in zip(base, t)]
        row = (f"{name:10} {j:>4} {min(t):8.3f} {statistics.median(t):9.3f} {min(base) / min(t):7.2f} "
               f"{statistics.median(base) / statistics.median(t):9.2f} {statistics.median(x):8.2f}")
        if j in machine:
            m = machine[j]
            calm = [xi for xi, mi in zip(x, m) if mi >= CALM * j]
            calm_x = f"{statistics.median(calm):.2f}" if calm else "-"
            row += (f" {statistics.median(m):10.2f} {statistics.median(xi / mi for xi, mi in zip(x, m)):11.2f}"
                    f"  {len(calm)} of {len(x)}, {calm_x}")
            if copied:
                row += f"  copies x {statistics.median(copied[str(j)]):.2f}"
        rows.append(row)
    return rows


if __name__ == "__main__":
    sys.exit(main())
