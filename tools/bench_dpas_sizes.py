#!/usr/bin/env python3
"""Per-instance cost of one batched DPAS op against the batch size, through the table path and through per-element
decoding (the choice ``_TABLE_MIN_WORK`` in xesim/numerics/dpas.py makes; issue 7).

For each configuration (bf16 sources with f32 C and Dst: the fast configuration of ``_fast16_call``; f16 sources
with f16 C and Dst: another one) and each batch size, a :class:`~xesim.numerics.dpas.DpasCall` of 8x16x16 tiles is
called repeatedly with ``_TABLE_MIN_WORK`` forced to 0 (tables) and to infinity (per element); printed: microseconds
per call and per instance, and the numpy float32 matmul of the same tiles for scale.  Both paths give the same bits
(checked here too).

Usage: ``python tools/bench_dpas_sizes.py [--sizes 1,4,16,64,256]``.
"""

from __future__ import annotations

import argparse
import sys
import time

import ml_dtypes
import numpy as np


def timed(call, a, b, c, reps: int) -> float:  # noqa: ANN001 - a DpasCall and its operands
    call(a, b, c)
    t0 = time.perf_counter()
    for _ in range(reps):
        call(a, b, c)
    return (time.perf_counter() - t0) / reps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1,4,16,64,256", help="batch sizes (instances per call)")
    args = ap.parse_args(argv)
    import numba

    from xesim.hw.params import load_target
    from xesim.numerics import dpas as dpas_mod

    numba.set_num_threads(1)
    target = load_target()
    model = dpas_mod.model_from_target(target, None)
    rng = np.random.default_rng(0)
    configs = {"bf16->f32": ("bf16", "f32", ml_dtypes.bfloat16, np.float32),
               "f16->f16": ("f16", "f16", np.float16, np.float16)}
    print(f"{'config':10} {'batch':>5} {'tables us':>10} {'per elem us':>12} {'tables/inst':>12} "
          f"{'elem/inst':>10} {'numpy/inst':>11}")
    for name, (src, acc, sdt, cdt) in configs.items():
        for nb in (int(s) for s in args.sizes.split(",")):
            a = rng.uniform(-1, 1, (nb, 8, 16)).astype(sdt)
            b = rng.uniform(-1, 1, (nb, 16, 16)).astype(sdt)
            c = rng.uniform(-1, 1, (nb, 8, 16)).astype(cdt)
            reps = max(20, 4000 // nb)
            out = {}
            for label, work in (("tables", 0), ("elements", 1 << 62)):
                dpas_mod._TABLE_MIN_WORK = work
                call = dpas_mod.DpasCall(src, src, acc, acc, model, target)
                out[label] = (timed(call, a, b, c, reps), call(a, b, c))
            if not np.array_equal(out["tables"][1].view(np.uint8), out["elements"][1].view(np.uint8)):
                print(f"{name} batch {nb}: the two paths differ", file=sys.stderr)
                return 1
            af, bf = a.astype(np.float32), b.astype(np.float32)
            t_np = timed(lambda x, y, z: x @ y + z, af, bf, c.astype(np.float32), reps)
            tt, te = out["tables"][0], out["elements"][0]
            print(f"{name:10} {nb:5d} {tt * 1e6:10.1f} {te * 1e6:12.1f} {tt / nb * 1e6:12.2f} {te / nb * 1e6:10.2f} "
                  f"{t_np / nb * 1e6:11.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
