"""Benchmark: parse + verify throughput of xesim's front end on a generated program.

Generates a program of about N lines shaped like real XeGPU test programs (host init loops with arith and
memref ops, gpu.module kernels with xegpu block loads, dpas and stores) and reports lines per second for
parsing and for parse+verify, best of R repeats.  Not a test: it asserts nothing.

    python tools/bench_parse.py [--lines 20000] [--repeat 3] [--cpu]
"""

from __future__ import annotations

import argparse
import time

KERNEL = """    gpu.func @k{n}(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) kernel {{
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %m = arith.muli %bx, %c16 : index
      %at = xegpu.create_nd_tdesc %a : memref<256x256xf16> -> !xegpu.tensor_desc<8x16xf16>
      %bt = xegpu.create_nd_tdesc %b : memref<256x256xf16> -> !xegpu.tensor_desc<16x16xf16>
      %ct = xegpu.create_nd_tdesc %c : memref<256x256xf32> -> !xegpu.tensor_desc<8x16xf32>
      %av = xegpu.load_nd %at[%m, %c0] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
      %bv = xegpu.load_nd %bt[%c0, %m] : !xegpu.tensor_desc<16x16xf16> -> vector<16x16xf16>
      %cv = xegpu.load_nd %ct[%m, %m] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %d = xegpu.dpas %av, %bv, %cv : vector<8x16xf16>, vector<16x16xf16>, vector<8x16xf32> -> vector<8x16xf32>
      xegpu.store_nd %d, %ct[%m, %m] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }}
"""

HOST_LOOP = """    scf.for %i{n} = %c0 to %c256 step %c1 {{
      scf.for %j{n} = %c0 to %c256 step %c1 {{
        %s{n} = arith.addi %i{n}, %j{n} : index
        %r{n} = arith.remui %s{n}, %c8 : index
        %t{n} = arith.index_cast %r{n} : index to i32
        %v{n} = arith.sitofp %t{n} : i32 to f16
        memref.store %v{n}, %A[%i{n}, %j{n}] : memref<256x256xf16>
      }}
    }}
"""


def generate(lines: int) -> str:
    kernel_lines = KERNEL.count("\n")
    loop_lines = HOST_LOOP.count("\n")
    n_kernels = max(1, lines // 2 // kernel_lines)
    n_loops = max(1, lines // 2 // loop_lines)
    out = ["module attributes {gpu.container_module} {", "  gpu.module @kernels {"]
    out += [KERNEL.format(n=i) for i in range(n_kernels)]
    out += ["  }", "  func.func @main() {",
            "    %c0 = arith.constant 0 : index", "    %c1 = arith.constant 1 : index",
            "    %c8 = arith.constant 8 : index", "    %c256 = arith.constant 256 : index",
            "    %A = memref.alloc() : memref<256x256xf16>"]
    out += [HOST_LOOP.format(n=i) for i in range(n_loops)]
    out += ["    memref.dealloc %A : memref<256x256xf16>", "    return", "  }", "}", ""]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cpu", action="store_true",
                    help="measure process CPU time instead of wall time (steadier on a shared machine)")
    args = ap.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter

    from xesim.ir.opdefs import load_registry
    from xesim.ir.parser import parse_source
    from xesim.verify.structural import verify_module

    load_registry()
    text = generate(args.lines)
    n = text.count("\n")
    best_parse = best_total = float("inf")
    for _ in range(args.repeat):
        t0 = clock()
        module = parse_source(text, "bench.mlir")
        t1 = clock()
        verify_module(module)
        t2 = clock()
        best_parse = min(best_parse, t1 - t0)
        best_total = min(best_total, t2 - t0)
    print(f"program: {n} lines")
    print(f"parse:          {best_parse:.3f} s  {n / best_parse:,.0f} lines/s")
    print(f"parse + verify: {best_total:.3f} s  {n / best_total:,.0f} lines/s  (target >= 50,000 lines/s)")


if __name__ == "__main__":
    main()
