"""Benchmark of the bit-exact DPAS model (xesim/numerics/dpas.py): GFLOP/s of an n x n x n GEMM through
``dpas()`` (bf16 -> f32 and f16 -> f32, default model of the target) next to numpy's float32 matmul (BLAS) of the
same size timed in the same run, and through the batched call shape of the SG-level GEMM kernel (random
normals; and uniform [0, 1) with the 16 distinct A and B tiles per batch of the SG-level 4096^3 GEMM program).
The last column is the ratio to numpy's GFLOP/s.  Prints a table; not a test (no test asserts a time).

    /tmp/venv/bin/python tools/bench_dpas.py [--n 512] [--repeat 3] [--target pvc] [--model NAME]
"""

from __future__ import annotations

import argparse
import time

import ml_dtypes
import numba
import numpy as np

from xesim.hw.params import load_target
from xesim.numerics.dpas import DpasCall, dpas, model_from_target


def _best(fn, repeat: int) -> float:  # noqa: ANN001
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=512)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--target", default="pvc")
    ap.add_argument("--model", default=None, help="preset name (default: the target's model)")
    args = ap.parse_args(argv)
    n = args.n
    target = load_target(args.target)
    model = model_from_target(target, args.model)
    rng = np.random.default_rng(0)
    flops = 2.0 * n * n * n
    rows = []
    a32 = rng.standard_normal((n, n), dtype=np.float32)
    b32 = rng.standard_normal((n, n), dtype=np.float32)
    c32 = rng.standard_normal((n, n), dtype=np.float32)
    t = _best(lambda: a32 @ b32 + c32, args.repeat)
    rows.append(("numpy float32 matmul (BLAS, not bit-exact)", t, flops))
    for name, dt in (("bf16", ml_dtypes.bfloat16), ("f16", np.float16)):
        a, b = a32.astype(dt), b32.astype(dt)
        dpas(a[:8, :32], b[:32, :16], c32[:8, :16], name, name, "f32", "f32", model, target)  # compile / warm up
        t = _best(lambda a=a, b=b, name=name: dpas(a, b, c32, name, name, "f32", "f32", model, target), args.repeat)
        rows.append((f"dpas {name} x {name} -> f32, model '{model.name}' (bit-exact)", t, flops))
    # the call the SG-level GEMM kernel makes per K step (tools/bench_gemm_sg.py, batched over 256 subgroups):
    # 256 tiles of 64x32 by 32x64 plus a 64x64 f32 accumulator; random normals, accumulators of GEMM magnitude
    nb, tm, tk, tn = 256, 64, 32, 64
    bflops = 2.0 * nb * tm * tk * tn
    ca = rng.standard_normal((nb, tm, tk), dtype=np.float32)
    cb = rng.standard_normal((nb, tk, tn), dtype=np.float32)
    cc = (rng.standard_normal((nb, tm, tn), dtype=np.float32) * 20).astype(np.float32)
    for name, dt in (("bf16", ml_dtypes.bfloat16), ("f16", np.float16)):
        a, b = ca.astype(dt), cb.astype(dt)
        t = _best(lambda a=a, b=b, name=name: dpas(a, b, cc, name, name, "f32", "f32", model, target), args.repeat)
        rows.append((f"dpas {name}, {nb} SG tiles {tm}x{tk} by {tk}x{tn} (bit-exact)", t, bflops))
    # the same call as the SG-level 4096^3 GEMM program makes it (xesim/exec/ops/xegpu_dpas.py): its batch of 256
    # subgroups holds 16 distinct A tiles and 16 distinct B tiles (subgroups of one row / column of C tiles share
    # them), B passed as its distinct tiles with a class map; uniform [0, 1) inputs as fillResource1DRandomF16 makes
    x = np.arange(nb)
    bcls = (x % 16).astype(np.int64)
    bcls.flags.writeable = False
    ua = rng.random((16, tm, tk), dtype=np.float32)[x // 16]
    ub = rng.random((16, tk, tn), dtype=np.float32)
    uc = (rng.random((nb, tm, tn), dtype=np.float32) * 1000).astype(np.float32)
    for name, dt in (("bf16", ml_dtypes.bfloat16), ("f16", np.float16)):
        call = DpasCall(name, name, "f32", "f32", model, target)
        a, b = ua.astype(dt), ub.astype(dt)
        call(a, b, uc, b_classes=bcls)
        t = _best(lambda a=a, b=b, call=call: call(a, b, uc, b_classes=bcls), args.repeat)
        rows.append((f"dpas {name}, the SG GEMM's batch: 16 distinct A, 16 distinct B", t, bflops))
    np_gflops = flops / rows[0][1] / 1e9
    print(f"GEMM {n} x {n} x {n} ({flops / 1e9:.3f} GFLOP) and {nb} SG tiles ({bflops / 1e9:.3f} GFLOP), "
          f"best of {args.repeat}, {numba.get_num_threads()} numba threads")
    print(f"{'implementation':<64} {'seconds':>10} {'GFLOP/s':>10} {'x numpy':>8}")
    for label, t, fl in rows:
        print(f"{label:<64} {t:>10.4f} {fl / t / 1e9:>10.3f} {fl / t / 1e9 / np_gflops:>8.3f}")


if __name__ == "__main__":
    main()
