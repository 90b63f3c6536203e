"""The executor's uncompiled twins (xesim/exec/twins.py, xesim/exec/jit/tier.py, tile_classes.classes_uncompiled)
give the compiled loops' results, function by function and on whole programs (block loads with out-of-bounds
blocks, transposes and VNNI packing, DPAS, host loop nests), and a fresh install's first run prints what a warm
run prints."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import run_xesim
from xesim.exec import blocks, memdiff, twins, vnni
from xesim.exec.jit import runner as jit_runner
from xesim.exec.jit import tier as nest_tier
from xesim.ir.parser import parse_source
from xesim.numerics import tiers
from xesim.numerics.tile_classes import _classes, classes_uncompiled

ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------------------------------- function by function
def test_block_copies_match_the_compiled_loops() -> None:
    rng = np.random.default_rng(1)
    for dt in (np.uint8, np.uint16, np.uint32, np.uint64):
        flat = rng.integers(0, 200, 5000).astype(dt)
        pitch, rows, width = 70, 6, 9
        start = np.array([0, 3, 500, 1234, 4000], np.int64)
        out_c, out_t = np.empty((5, rows, width), dt), np.empty((5, rows, width), dt)
        blocks._gather_blocks(flat, start, pitch, out_c)
        twins.gather_blocks(flat, start, pitch, out_t)
        np.testing.assert_array_equal(out_t, out_c)
        tiles = rng.integers(0, 200, (5, rows, width)).astype(dt)
        a, b = flat.copy(), flat.copy()
        blocks._scatter_blocks(a, start, pitch, tiles)
        twins.scatter_blocks(b, start, pitch, tiles)
        np.testing.assert_array_equal(b, a)
        assert not np.array_equal(a, flat)


def test_start_statistics_and_overlap_match_the_compiled_loops() -> None:
    rng = np.random.default_rng(2)
    for v in (np.array([7], np.int64), np.array([-9, 3, 15, 27], np.int64), np.array([-8, 3, 4], np.int64),
              rng.integers(-1000, 1000, 300)):
        for mod in (1, 4, 12):
            assert twins.range_residue(v, mod) == tuple(int(x) for x in blocks._range_residue(v, mod))
    for n in (1, 2, 5, 40):
        for _ in range(30):
            y, x = rng.integers(0, 40, n), rng.integers(0, 40, n)
            order = np.lexsort((x, y))
            ys, xs = np.ascontiguousarray(y[order]), np.ascontiguousarray(x[order])
            for rows, w in ((1, 1), (4, 8), (8, 16)):
                assert twins.rectangles_overlap(ys, xs, rows, w) == bool(blocks._rectangles_overlap(ys, xs, rows, w))


@pytest.mark.parametrize("v", [2, 4])
def test_vnni_packing_matches_the_compiled_loops_on_strided_views(v: int) -> None:
    rng = np.random.default_rng(v)
    big = rng.integers(0, 1 << 15, (3, 2, 64, 40)).astype(np.uint16)
    flat = big[:, :, 8:40, 4:36]  # a strided view, as a vector.extract of a larger tile
    packed = {}
    for mode in (tiers.COMPILED, tiers.UNCOMPILED):
        with tiers.force(mode):
            packed[mode] = vnni.pack(flat, v)
            assert np.array_equal(vnni.unpack(packed[mode][:, :, 1:, :, :]), flat[:, :, v:, :])
    np.testing.assert_array_equal(packed[tiers.UNCOMPILED], packed[tiers.COMPILED])
    assert packed[tiers.COMPILED][1, 1, 2, 3, v - 1] == flat[1, 1, 2 * v + v - 1, 3]


@pytest.mark.parametrize("size", [8, 13, 4096, 4096 * 3 + 5, 40000])
def test_changed_memory_records_match_the_compiled_loops(size: int) -> None:
    """Records of partial last blocks and of sizes that are not a multiple of 8; each form's record merges into
    the other form's result the same way."""
    rng = np.random.default_rng(size)
    before = rng.integers(0, 256, size).astype(np.uint8)
    now = before.copy()
    hit = rng.random(size) < 0.01
    hit[-1] = True
    now[hit] = ~now[hit]
    dst = rng.integers(0, 256, size).astype(np.uint8)
    rec, merged = {}, {}
    for mode in (tiers.COMPILED, tiers.UNCOMPILED):
        with tiers.force(mode):
            rec[mode] = memdiff.changes(now, before)
            assert memdiff.changes(before, before) is None
    for mode in (tiers.COMPILED, tiers.UNCOMPILED):
        for r in (tiers.COMPILED, tiers.UNCOMPILED):
            with tiers.force(mode):
                merged[mode, r] = dst.copy()
                memdiff.merge(merged[mode, r], rec[r])
    for x, y in zip(rec[tiers.UNCOMPILED], rec[tiers.COMPILED]):
        np.testing.assert_array_equal(x, y)
    want = np.where(hit, now, dst)
    for got in merged.values():
        np.testing.assert_array_equal(got, want)


def test_tile_classes_match_the_compiled_table() -> None:
    rng = np.random.default_rng(4)
    tiles = rng.integers(0, 1 << 60, (5, 12), dtype=np.uint64)
    words = tiles[[3, 1, 3, 0, 1, 4, 4, 2, 3]]
    got = classes_uncompiled(words)
    want = _classes(words)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[2] == want[2] == 5
    np.testing.assert_array_equal(got[1], want[1][:want[2]])
    np.testing.assert_array_equal(got[0], [0, 1, 0, 2, 1, 3, 3, 4, 0])  # numbered by first appearance


# --------------------------------------------------------------------------------------------------- host nests
_NEST = """
func.func @main(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %m = memref.alloc() : memref<100xf32>
  scf.for %i = %c0 to %n step %c1 {
    %f = arith.constant 1.0 : f32
    scf.for %j = %c1 to %c3 step %c1 {
      memref.store %f, %m[%j] : memref<100xf32>
    }
    scf.for %k = %c0 to %i step %c1 {
      memref.store %f, %m[%k] : memref<100xf32>
    }
  }
  return
}
"""


def test_nest_work_counts_the_ops_each_loop_runs() -> None:
    func = next(op for op in parse_source(_NEST).walk() if op.name == "func.func")
    loops = [op for op in func.walk() if op.name == "scf.for"]
    n_arg = func.regions[0].blocks[0].args[0]
    slots = {id(n_arg): 0}
    work = nest_tier.NestWork(loops[:2], lambda v: slots.setdefault(id(v), len(slots)))
    # outer: 10 trips x 4 ops (constant, two loops, yield); inner %j: 10 x 2 trips x 2 ops (store, yield)
    assert work.work([10]) == 10 * 4 + 10 * 2 * 2
    assert work.work([0]) == 0
    assert work.work([np.float32(3)]) is None  # not an index value: no estimate
    unknown = nest_tier.NestWork(loops[:1] + loops[2:], lambda v: slots.setdefault(id(v), len(slots)))
    assert unknown.work([10]) is None  # %k's bound is the outer loop's induction variable


def test_small_nests_are_interpreted_and_large_ones_compiled(tmp_path: Path) -> None:
    """With the per-call decision, a nest of a few iterations runs in the interpreter (no numba compilation) and
    prints what the compiled nest prints."""
    program = ROOT / "examples" / "lane_saxpy.mlir"
    before = dict(jit_runner.STATS)
    outs = {}
    for mode in (None, tiers.COMPILED):
        tiers.set_default(mode)
        try:
            outs[mode] = run_xesim(["run", str(program)])
        finally:
            tiers.set_default(tiers.COMPILED)
        if mode is None:
            assert jit_runner.STATS["interpreted"] > before["interpreted"]
            assert jit_runner.STATS["runs"] == before["runs"]
    assert outs[None] == outs[tiers.COMPILED] and outs[None][0] == 0


# ---------------------------------------------------------------------------------------------- whole programs
#: block loads and stores in and out of bounds, transposed, VNNI-packed, array lengths, DPAS at every level, host
#: loop nests
PROGRAMS = ["examples/lane_block_loads.mlir", "examples/sg_block_loads.mlir", "examples/sg_gemm_f16.mlir",
            "examples/lane_gemm_f16.mlir", "examples/simt_dpas_f16.mlir", "tests/e2e/xegpu_sg_plain_oob.mlir",
            "tests/e2e/xegpu_transpose.mlir", "tests/e2e/xegpu_vc_packed.mlir", "tests/e2e/xegpu_array_length.mlir",
            "tests/e2e/xegpu_gemm_bf16_kloop.mlir", "tests/e2e/xetile_gemm_oob_tails.mlir",
            "tests/e2e/wg_gemm_transpose_b.mlir", "tests/e2e/jit_out_of_bounds.mlir"]


@pytest.mark.parametrize("name", PROGRAMS)
def test_programs_print_the_same_with_every_kernel_uncompiled(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XESIM_GRF", "off")  # lockstep batches: the batched block copies and DPAS calls
    monkeypatch.setenv("XESIM_ENGINE", "fast")
    with tiers.force(tiers.COMPILED):
        want = run_xesim(["run", str(ROOT / name)])
    before = _twin_calls()
    with tiers.force(tiers.UNCOMPILED):
        got = run_xesim(["run", str(ROOT / name)])
    assert got == want
    assert _twin_calls() > before  # the twins really ran


def _twin_calls() -> int:
    """Calls that took an uncompiled twin so far (block copies, DPAS, VNNI) plus interpreted nest executions."""
    from xesim.numerics import dpas

    return sum(f.calls[tiers.UNCOMPILED] for f in (blocks.COPY_TIER, dpas.FAST16_TIER, vnni.TIER)) + \
        jit_runner.STATS["interpreted"]


def test_a_fresh_installs_first_run_prints_what_a_warm_run_prints(tmp_path: Path) -> None:
    """Empty xesim and numba caches, then the same caches again: the same output, and the first run compiled
    nothing (numba wrote no cache file)."""
    env = {**os.environ, "XESIM_CACHE_DIR": str(tmp_path / "xesim"), "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "PYTHONPATH": str(ROOT)}
    env.pop("XESIM_GRF", None)
    cmd = [sys.executable, "-m", "xesim.cli", "run", str(ROOT / "examples" / "sg_gemm_f16.mlir")]
    first = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert first.returncode == 0, first.stderr
    numba_files = [p for p in (tmp_path / "numba").rglob("*") if p.is_file()] if (tmp_path / "numba").exists() else []
    assert numba_files == []
    warm = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert (warm.returncode, warm.stdout, warm.stderr) == (0, first.stdout, first.stderr)
    assert "[ALLCLOSE: TRUE]" in first.stdout or "data =" in first.stdout
