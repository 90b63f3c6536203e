"""Benchmark: the cost of bounded runs (xesim/exec/guard.py) in compiled host loops.

Every compiled loop iteration counts one step of ``--max-steps`` and reads the stop flag every 2^14 iterations.
This runs three host loop nests through :class:`xesim.exec.engine.Engine` (compiled by xesim/exec/jit; the first
run compiles and is not timed) and prints nanoseconds per iteration and, as the figure to compare between
machines and commits, the time of 1000 iterations as a ratio to numpy's float32 256x256 matmul measured in the same
run.  Run it with ``PYTHONPATH`` at two commits to compare them.  Not a test: it asserts nothing.

    python tools/bench_guard.py [--iters 200000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import time

import numpy as np

PROGRAMS = {
    # a store per iteration
    "store": """
func.func @main(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<1xi64>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i64
    memref.store %v, %m[%c0] : memref<1xi64>
  }
  return
}
""",
    # a loop-carried sum (a reduction LLVM could vectorise without the step check)
    "sum": """
func.func @main(%n: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
    %v = arith.index_cast %i : index to i64
    %s = arith.addi %acc, %v : i64
    scf.yield %s : i64
  }
  return %r : i64
}
""",
    # a 2-deep nest filling a matrix (the inner loop 1024 long)
    "nest": """
func.func @main(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %m = memref.alloc() : memref<1024xf32>
  %rows = arith.divui %n, %c1024 : index
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %c1024 step %c1 {
      %a = arith.addi %i, %j : index
      %b = arith.index_cast %a : index to i32
      %f = arith.sitofp %b : i32 to f32
      memref.store %f, %m[%j] : memref<1024xf32>
    }
  }
  return
}
""",
}


def matmul_seconds(repeat: int) -> float:
    a = np.random.default_rng(0).random((256, 256), dtype=np.float32)
    best = float("inf")
    for _ in range(max(repeat, 5)):
        t0 = time.perf_counter()
        a @ a
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    from xesim.exec.engine import Engine
    from xesim.ir.parser import parse_source
    from xesim.runtime.externals import EXTERNALS

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iters", type=int, default=200_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    ref = matmul_seconds(args.repeat)
    print(f"numpy float32 256x256 matmul: {ref * 1e6:.1f} us")
    for name, text in PROGRAMS.items():
        engine = Engine(parse_source(text, name), out=io.StringIO(), externals=EXTERNALS)
        engine.run("main", [1024])  # compiles the nest
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            engine.run("main", [args.iters])
            best = min(best, time.perf_counter() - t0)
        per = best / args.iters
        print(f"{name:6s} {per * 1e9:6.3f} ns/iteration   1000 iterations = {per * 1000 / ref:.4f} x matmul")


if __name__ == "__main__":
    main()
