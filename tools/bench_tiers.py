#!/usr/bin/env python3
"""The constants of the compiled-or-uncompiled decision (xesim/numerics/tiers.py), measured on this machine.

For every kernel family: the uncompiled twin's seconds per call and per work unit (a least-squares line through
best-of-5 timings at several sizes, in this process), and the seconds the compiled form's first call takes in a
fresh process with an empty numba cache (**compile**) and again with the cache that run left (**load**), minus
the same call's time once compiled.  Printed next to the constants the code uses; the host-nest row measures the
interpreter per host op and the compilation of a typical initialisation nest.  Also the ratio to numpy's float32
1024^3 matmul timed in the same run, for comparing machines.

Usage: ``python tools/bench_tiers.py [--only NAME ...]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# Each family: (name, module.attribute of its Family, setup code defining ``call(size)`` and ``work(size)`` for a
# compiled-or-twin call decided by tiers, sizes for the twin's line)
_COMMON = "import numpy as np\nfrom xesim.numerics import tiers\n"
FAMILIES = {
    "dpas-f16": ("xesim.numerics.dpas.FAST16_TIER", _COMMON + """
from xesim.hw.params import load_target
from xesim.numerics.dpas import dpas, model_from_target
T = load_target("pvc"); M = model_from_target(T); rng = np.random.default_rng(0)
def operands(n):
    return (rng.standard_normal((n, 8, 32)).astype(np.float16), rng.standard_normal((n, 32, 16)).astype(np.float16),
            np.zeros((n, 8, 16), np.float32))
OPS = {}
def call(n):
    a, b, c = OPS.setdefault(n, operands(n))
    dpas(a, b, c, "f16", "f16", "f32", "f32", M, T)
def work(n):
    return n * 8 * 16 * 32
""", (1, 16, 128)),
    "block-copies": ("xesim.exec.blocks.COPY_TIER", _COMMON + """
from xesim.exec import blocks
flat = np.zeros(1 << 22, np.uint16)
class B(blocks.Block2D):
    def __init__(self, n):
        self.flat, self.start, self.pitch_units, self.rows, self.width_units = flat, np.arange(n) * 64, 4096, 16, 32
def call(n):
    blocks.Block2D.gather(B(n), None)
def work(n):
    return n * 16 * 32
""", (1, 64, 1024)),
    "vnni": ("xesim.exec.vnni.TIER", _COMMON + """
from xesim.exec import vnni
T = {}
def call(n):
    vnni.pack(T.setdefault(n, np.zeros((n, 32, 16), np.uint16)), 2)
def work(n):
    return n * 32 * 16
""", (1, 64, 1024)),
    "memdiff": ("xesim.exec.memdiff.TIER", _COMMON + """
from xesim.exec import memdiff
def call(n):
    a = np.zeros(n * 4096, np.uint8); b = a.copy(); b[::97] = 1
    memdiff.merge(a, memdiff.changes(b, a))
def work(n):
    return 2 * n * 4096
""", (1, 16, 256)),
    "tile-classes": ("xesim.numerics.tile_classes.TIER", _COMMON + """
from xesim.numerics.tile_classes import tile_classes
def call(n):
    tile_classes(np.arange(n * 64, dtype=np.uint64).reshape(n, 64) % (7 * 64))
def work(n):
    return n * 64
""", (2, 64, 1024)),
}


def _line(xs: list[float], ys: list[float]) -> tuple[float, float]:
    slope, icept = np.polyfit(np.array(xs, float), np.array(ys, float), 1)
    return max(float(icept), 0.0), max(float(slope), 0.0)


def _best(fn, *args, repeat: int = 5) -> float:  # noqa: ANN001
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best


def twin_line(setup: str, sizes: tuple) -> tuple[float, float]:
    """(seconds per call, seconds per unit) of the twin, in this process."""
    from xesim.numerics import tiers

    ns: dict = {}
    exec(setup, ns)  # noqa: S102 - the setups above
    with tiers.force(tiers.UNCOMPILED):
        ns["call"](sizes[0])
        times = [_best(ns["call"], n) for n in sizes]
    return _line([ns["work"](n) for n in sizes], times)


_CHILD = """
import sys, time
{setup}
with tiers.force(tiers.COMPILED):
    t0 = time.perf_counter(); call({n}); first = time.perf_counter() - t0
    best = min((lambda t0: (call({n}), time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(3))
print(first - best)
"""


def compile_and_load(setup: str, n: int) -> tuple[float, float]:
    """Seconds of the compiled form's first call beyond a warm call: with an empty numba cache, then with the
    cache that run left."""
    with tempfile.TemporaryDirectory(prefix="xesim-tiers-") as tmp:
        env = {**os.environ, "NUMBA_CACHE_DIR": tmp, "XESIM_CACHE_DIR": tmp, "PYTHONPATH": str(ROOT)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        out = []
        for _ in range(2):
            proc = subprocess.run([sys.executable, "-c", _CHILD.format(setup=setup, n=n)], capture_output=True,
                                  text=True, env=env, check=True)
            out.append(float(proc.stdout.split()[-1]))
        return out[0], out[1]


def nest_row() -> tuple[float, float, float]:
    """(interpreter seconds per host op, nest compile seconds, nest load seconds) on bench.py's init program."""
    sys.path.insert(0, str(ROOT / "tools"))
    import bench

    from tests.conftest import run_xesim  # noqa: E402
    from xesim.exec.jit.tier import NestWork  # noqa: F401 - the estimate the constants feed
    from xesim.numerics import tiers

    times, ops = [], []
    with tempfile.TemporaryDirectory(prefix="xesim-tiers-") as tmp:
        for n in (64, 256):
            path = Path(tmp) / f"init{n}.mlir"
            path.write_text(bench.init_program({"n": n}))
            with tiers.force(tiers.UNCOMPILED):
                times.append(_best(run_xesim, ["run", str(path)], repeat=3))
            ops.append(n * n * 11 + n * 2)  # the inner body's 11 ops per iteration, the outer loop's 2
        per_op = (times[1] - times[0]) / (ops[1] - ops[0])
        child = ("import sys, time\nfrom xesim.numerics import tiers\nfrom tests.conftest import run_xesim\n"
                 f"tiers.set_default(tiers.{{mode}})\nt0 = time.perf_counter(); run_xesim(['run', {str(path)!r}])\n"
                 "print(time.perf_counter() - t0)")
        env = {**os.environ, "NUMBA_CACHE_DIR": tmp + "/n", "XESIM_CACHE_DIR": tmp + "/x", "PYTHONPATH": str(ROOT)}
        res = {}
        for mode in ("UNCOMPILED", "COMPILED", "COMPILED"):
            proc = subprocess.run([sys.executable, "-c", child.format(mode=mode)], capture_output=True, text=True,
                                  env=env, check=True)
            res.setdefault(mode, []).append(float(proc.stdout.split()[-1]))
        run_s = times[1]  # the interpreted run in this process: the compiled run's work is far less
        return per_op, res["COMPILED"][0] - res["UNCOMPILED"][0] + run_s, res["COMPILED"][1] - res["UNCOMPILED"][0] + run_s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", help="families to measure (default: all, and the host nest)")
    args = ap.parse_args()
    import importlib

    from bench import numpy_matmul_s  # noqa: E402 - tools/ is on the path (nest_row)

    np_s = numpy_matmul_s(1024, 1024, 1024)
    print(f"numpy float32 1024^3 matmul: {np_s:.4f} s;  load average {os.getloadavg()[0]:.2f}")
    head = (f"{'family':<14}{'call us':>9}{'(code)':>8}{'unit ns':>9}{'(code)':>8}{'compile s':>11}{'(code)':>8}"
            f"{'load s':>8}{'(code)':>8}")
    print(head)
    print("-" * len(head))
    for name, (attr, setup, sizes) in FAMILIES.items():
        if args.only and name not in args.only:
            continue
        mod, _, var = attr.rpartition(".")
        fam = getattr(importlib.import_module(mod), var)
        per_call, per_unit = twin_line(setup, sizes)
        comp, load = compile_and_load(setup, sizes[0])
        print(f"{name:<14}{per_call * 1e6:>9.1f}{fam.per_call_s * 1e6:>8.1f}{per_unit * 1e9:>9.2f}"
              f"{fam.per_unit_s * 1e9:>8.2f}{comp:>11.2f}{fam.compile_s:>8.2f}{load:>8.2f}{fam.load_s:>8.2f}")
    if not args.only or "host-nest" in args.only:
        from xesim.exec.jit import tier

        per_op, comp, load = nest_row()
        print(f"{'host-nest':<14}{'':>9}{tier.PER_CALL_S * 1e6:>8.1f}{per_op * 1e9:>9.0f}{tier.PER_OP_S * 1e9:>8.0f}"
              f"{comp:>11.2f}{tier.COMPILE_S:>8.2f}{load:>8.2f}{tier.LOAD_S:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "tools"))
    raise SystemExit(main())
