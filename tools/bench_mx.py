"""Speed of the block-scaled DPAS model (xesim/numerics/mx.py) per 8x16 tile, as a ratio to numpy's float32 matmul
of the same shapes measured in the same run (the model is exact — Python integers per element — so it is slow).

    python tools/bench_mx.py [--reps N]
"""

from __future__ import annotations

import argparse
import time

import ml_dtypes
import numpy as np

from xesim.numerics import mx


def best(fn, reps: int) -> float:
    out = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    for name, dt, k in (("f8E5M2", ml_dtypes.float8_e5m2, 32), ("f8E4M3FN", ml_dtypes.float8_e4m3fn, 32),
                        ("f4E2M1FN", ml_dtypes.float4_e2m1fn, 64)):
        a = rng.uniform(-4, 4, (8, k)).astype(dt)
        b = rng.uniform(-4, 4, (k, 16)).astype(dt)
        c = rng.uniform(-4, 4, (8, 16)).astype(np.float32)
        sa = rng.integers(120, 135, (8, k // 32)).astype(np.uint8)
        sb = rng.integers(120, 135, (k // 32, 16)).astype(np.uint8)
        af, bf = a.astype(np.float32), b.astype(np.float32)
        t_np = best(lambda af=af, bf=bf, c=c: af @ bf + c, max(args.reps, 50))
        for model in mx.DPAS_MX_MODELS:
            ops = (a, b, c, sa, sb)
            t = best(lambda model=model, ops=ops: mx.dpas_mx(*ops, "f32", model), args.reps)
            print(f"dpas_mx {name} 8x16x{k} {model:9s}: {t * 1e3:8.2f} ms per tile, "
                  f"{t / t_np:9.0f}x numpy f32 matmul ({t_np * 1e6:.1f} us)")


if __name__ == "__main__":
    main()
