"""Benchmark: dispatch rate of the reference interpreter on host loops of simple ops.

Runs generated host functions (an ``scf.for`` whose body is simple arith ops, with and without
``memref.load``/``memref.store``) through :class:`xesim.exec.engine.Engine` and reports executed
ops per second (best of R repeats).  Ops counted: every op of the loop body including ``scf.yield``;
the loop op itself and the code outside the loop are not counted (they run once).  The brief's target is
>= 1 million simple ops per second on host code.  Not a test: it asserts nothing.

    python tools/bench_interp.py [--iters 200000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import time

PROGRAMS = {
    # index arithmetic, comparisons and select with a loop-carried value
    "arith (index/i32)": ("""
func.func @main(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %a = arith.muli %i, %c3 : index
    %b = arith.addi %a, %acc : index
    %c = arith.andi %b, %c7 : index
    %d = arith.cmpi ult, %c, %c3 : index
    %e = arith.select %d, %b, %a : index
    %f = arith.index_cast %e : index to i32
    %g = arith.index_cast %f : i32 to index
    scf.yield %g : index
  }
  return %r : index
}
""", 8),
    # float arithmetic on f32 scalars
    "arith (f32)": ("""
func.func @main(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %h = arith.constant 0.5 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
    %a = arith.index_cast %i : index to i32
    %b = arith.sitofp %a : i32 to f32
    %c = arith.mulf %b, %h : f32
    %d = arith.addf %acc, %c : f32
    %e = arith.maximumf %d, %z : f32
    scf.yield %e : f32
  }
  return %r : f32
}
""", 6),
    # a typical initialisation loop: index math, conversion, memref load/store
    "arith + memref": ("""
func.func @main(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %m = memref.alloc() : memref<1024xf32>
  scf.for %i = %c0 to %n step %c1 {
    %j = arith.remui %i, %c1024 : index
    %v = memref.load %m[%j] : memref<1024xf32>
    %f = arith.index_cast %i : index to i32
    %g = arith.sitofp %f : i32 to f32
    %s = arith.addf %v, %g : f32
    memref.store %s, %m[%j] : memref<1024xf32>
  }
  %r = memref.load %m[%c0] : memref<1024xf32>
  memref.dealloc %m : memref<1024xf32>
  return %r : f32
}
""", 6),
}


def bench(name: str, src: str, ops_per_iter: int, iters: int, repeat: int) -> float:
    from xesim.api import make_engine
    from xesim.ir.parser import parse_source
    from xesim.verify.structural import verify_module

    module = parse_source(src, f"{name}.mlir")
    verify_module(module)
    engine = make_engine(module, out=io.StringIO())
    engine.run("main", [10])  # compile once
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        engine.run("main", [iters])
        best = min(best, time.perf_counter() - t0)
    return ops_per_iter * iters / best


def main(argv: list[str] | None = None) -> int:
    # This benchmark measures the reference interpreter; host loop nests would otherwise be compiled by the
    # numba JIT (tools/bench.py measures that path).
    import os

    os.environ.setdefault("XESIM_ENGINE", "reference")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iters", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    for name, (src, ops) in PROGRAMS.items():
        try:
            rate = bench(name, src, ops, args.iters, args.repeat)
        except Exception as exc:  # noqa: BLE001 - e.g. an op without semantics yet
            print(f"{name:20s}  skipped: {exc}")
            continue
        print(f"{name:20s}  {rate / 1e6:6.2f} M ops/s  ({ops} ops x {args.iters} iterations)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
