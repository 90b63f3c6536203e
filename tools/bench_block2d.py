"""Benchmark: 2D block-load bandwidth of ``xesim.hw.block2d`` (spec/pvc-hardware.md §1.5).

Times ``load_values`` (GRF image + logical value) and ``load_image`` alone for four typical shapes, at
in-bounds positions of a 1024 x 1024 surface (a block straddling an edge every 8th load), and reports GB/s of
loaded tile data (W * H * B * element size per message; padding not counted).  numpy's float32 matmul of a
512 x 512 problem is timed in the same run for reference (GFLOP/s, and its operand traffic 3 * 512^2 * 4 bytes
per product as GB/s).  Best of R repeats.  Not a test: it asserts nothing.

    python tools/bench_block2d.py [--loads 4000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from xesim.hw.block2d import Block, Surface, check_block, load_image, load_values
from xesim.hw.memory import AddressSpace
from xesim.hw.params import load_target

SHAPES = [
    ("8x16 f16", Block(2, 16, 8), np.float16),
    ("16x16 f16 packed (VNNI)", Block(2, 16, 16, vnni=True), np.float16),
    ("32x16 f16 array_length 2", Block(2, 16, 32, 2), np.float16),
    ("8x16 f32 transposed", Block(4, 8, 16, transpose=True), np.float32),
]


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--loads", type=int, default=4000, help="loads per timed run")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    target = load_target("pvc")
    space = AddressSpace()
    n = 1024
    rows = []
    for name, block, dtype in SHAPES:
        s = block.elem_bytes
        alloc = space.allocate(n * n * s, "device")
        alloc.data[:] = np.random.default_rng(0).integers(0, 256, alloc.size, dtype=np.uint8)
        surf = Surface(alloc.base, n * s, n, n * s)
        cols, hgt = block.width * block.count, block.height
        rng = np.random.default_rng(1)
        xs = (rng.integers(0, n - cols, args.loads) // 4 * 4).tolist()
        ys = rng.integers(0, n - hgt, args.loads).tolist()
        for i in range(0, args.loads, 8):  # every 8th load straddles the bottom-right corner
            xs[i], ys[i] = n - cols // 2 // 4 * 4, n - hgt // 2
        assert not check_block(target, surf, block, xs[1], ys[1], "load")
        pairs = list(zip(xs, ys))

        def run_values(pairs=pairs, surf=surf, block=block, dtype=dtype) -> None:
            for x, y in pairs:
                load_values(space, surf, block, x, y, dtype)

        def run_image(pairs=pairs, surf=surf, block=block) -> None:
            for x, y in pairs:
                load_image(space, surf, block, x, y)

        tv, ti = _best(run_values, args.repeat), _best(run_image, args.repeat)
        nbytes = block.data_bytes * args.loads
        rows.append((name, block.data_bytes, tv / args.loads * 1e6, nbytes / tv / 1e9, nbytes / ti / 1e9))

    a = np.random.default_rng(2).standard_normal((512, 512), dtype=np.float32)
    b = np.random.default_rng(3).standard_normal((512, 512), dtype=np.float32)
    reps = 20
    tm = _best(lambda: [a @ b for _ in range(reps)], args.repeat) / reps

    print(f"{'2D block load':<28} {'bytes':>6} {'us/load':>9} {'GB/s values':>12} {'GB/s image':>11}")
    for name, nb, us, gv, gi in rows:
        print(f"{name:<28} {nb:>6} {us:>9.2f} {gv:>12.4f} {gi:>11.4f}")
    print(f"{'numpy f32 matmul 512^3':<28} {'':>6} {tm * 1e6:>9.1f} "
          f"{3 * 512 * 512 * 4 / tm / 1e9:>12.4f} {'':>11}  ({2 * 512**3 / tm / 1e9:.1f} GFLOP/s)")


if __name__ == "__main__":
    main()
