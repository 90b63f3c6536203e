"""``XESIM_ENGINE=both`` for kernels (issue 7 §4, xesim/observe/crosscheck.py): every launch runs with the fast paths
and with ``engine.config.kernel_reference``; a deliberately broken fast path is caught and located (argument, element,
both values), output and fault differences are reported, the fast run's state is kept (allocations made by a
launch are rolled back between the runs, so later addresses equal the fast engine's), and every kernel program
in tests/e2e and examples agrees with itself and prints what the fast engine prints.

Expected values are derived by hand from the programs (small integers, exact in f32)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest

import xesim
from tests.conftest import in_sweeps, run_xesim
from xesim.diagnostics import DiagnosticError

ROOT = Path(__file__).resolve().parents[2]

# Subgroup level: each of 2 workgroups (one subgroup each) copies its 8x16 tile of %a (8x32 f32) into %b through
# a 2D block load and store, and prints element [0, 0] of the tile it loaded.
COPY = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @copy(%a: memref<8x32xf32>, %b: memref<8x32xf32>) kernel {
      %bid = gpu.block_id x
      %c16 = arith.constant 16 : index
      %x = arith.muli %bid, %c16 : index
      %ta = xegpu.create_nd_tdesc %a : memref<8x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      %tb = xegpu.create_nd_tdesc %b : memref<8x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      %v = xegpu.load_nd %ta[0, %x] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      xegpu.store_nd %v, %tb[0, %x] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      PRINT
      gpu.return
    }
  }
}
"""
PRINTF = """%e = vector.extract %v[0, 0] : f32 from vector<8x16xf32>
      gpu.printf "tile %f\\n", %e : f32"""

# Lane level: y = a * x + y over 32 work-items (2 workgroups of 16); memref.load / arith run on all lanes at once
# in the fast engine (vectorised memref access, scalar clones), lane by lane in the reference engine.
SAXPY = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @saxpy(%x: memref<32xf32>, %y: memref<32xf32>, %a: f32) kernel {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %xv = memref.load %x[%i] : memref<32xf32>
      %yv = memref.load %y[%i] : memref<32xf32>
      %p = arith.mulf %a, %xv : f32
      %r = arith.addf %p, %yv : f32
      memref.store %r, %y[%i] : memref<32xf32>
      gpu.return
    }
  }
}
"""


@pytest.fixture
def engine_both(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XESIM_ENGINE", "both")


def _copy(print_tile: bool = False):
    a = np.arange(8 * 32, dtype=np.float32).reshape(8, 32)  # a[i, j] = 32 i + j
    prog = xesim.load(COPY.replace("PRINT", PRINTF if print_tile else ""))
    return xesim.launch(prog, "k::copy", grid=(2, 1, 1), block=(16, 1, 1), args=[a, np.zeros((8, 32), np.float32)])


def _break_direct_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """The direct in-bounds block-load path returns its tile with the last element off by +1 (subgroups run one
    by one, so the launch takes this path whatever XESIM_GRF says: batched execution gathers differently)."""
    from xesim.exec import blocks as X

    monkeypatch.setenv("XESIM_BATCH", "1")

    orig = X.load_2d_memory

    def broken(engine, op, plan, d, x, y, rows, cols, mdt):
        out = orig(engine, op, plan, d, x, y, rows, cols, mdt)
        if not (X.REFERENCE_LOADS or engine.config.kernel_reference):  # the fast path only
            out = out.copy()
            out[-1, -1] += 1
        return out

    monkeypatch.setattr(X, "load_2d_memory", broken)


def _break_scalar_clone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lane-level scalar float ops computed for all lanes at once (the vector clone) give results off by +1."""
    from xesim.exec import axis

    orig = axis.scalar_clone

    def broken(op, cx, n):
        got = orig(op, cx, n)
        if got is None:
            return None
        step, ins, outs, dts = got

        def wrong(fr: list) -> None:
            step(fr)
            for s in outs:
                if fr[s].dtype.kind == "f":
                    fr[s] = fr[s] + 1

        return wrong, ins, outs, dts

    monkeypatch.setattr(axis, "scalar_clone", broken)


# ----------------------------------------------------------------------------------------- broken fast paths
def test_both_locates_a_wrong_value_from_the_direct_block_load(monkeypatch, engine_both) -> None:
    _break_direct_load(monkeypatch)
    with pytest.raises(DiagnosticError) as info:
        _copy()
    msg = info.value.render()
    # workgroup 0 stores its tile's [7, 15] = a[7, 15] = 239 as 240; workgroup 1 does the same at [7, 31]
    assert "engines differ in kernel k::copy (XESIM_ENGINE=both)" in msg
    assert "argument %b (memref<8x32xf32>) element [7, 15] is 240.0 (0x43700000) (fast) vs 239.0 (0x436f0000) " \
           "(reference)" in msg
    assert "byte offset 956" in msg  # (7 * 32 + 15) * 4
    assert "2 elements differ" in msg


def test_fast_engine_alone_keeps_the_broken_value(monkeypatch) -> None:
    """The premise of the test above: the broken path is taken by the fast engine and not by the reference."""
    _break_direct_load(monkeypatch)
    monkeypatch.setenv("XESIM_ENGINE", "fast")
    b = _copy().arrays[1]
    assert b[7, 15] == 240 and b[7, 31] == 256 and b[0, 0] == 0
    monkeypatch.setenv("XESIM_ENGINE", "reference")
    b = _copy().arrays[1]
    np.testing.assert_array_equal(b, np.arange(256, dtype=np.float32).reshape(8, 32))


def test_both_locates_a_wrong_lane_level_vector_clone(monkeypatch, engine_both) -> None:
    _break_scalar_clone(monkeypatch)
    x = np.arange(32, dtype=np.float32)
    with pytest.raises(DiagnosticError) as info:
        xesim.launch(xesim.load(SAXPY), "k::saxpy", grid=(2, 1, 1), block=(16, 1, 1),
                     args=[x, np.ones(32, np.float32), 2.0])
    msg = info.value.render()
    # y[0] = 2 * 0 + 1 = 1; the broken clone adds 1 after the multiply and 1 after the add: 3
    assert "argument %y (memref<32xf32>) element [0] is 3.0 (0x40400000) (fast) vs 1.0 (0x3f800000) (reference)" in msg
    assert "32 elements differ" in msg


def test_reference_engine_never_takes_the_lane_fast_paths(monkeypatch) -> None:
    _break_scalar_clone(monkeypatch)
    x = np.arange(32, dtype=np.float32)
    args = [x, np.ones(32, np.float32), 2.0]
    monkeypatch.setenv("XESIM_ENGINE", "reference")
    y = xesim.launch(xesim.load(SAXPY), "k::saxpy", grid=(2, 1, 1), block=(16, 1, 1), args=args).arrays[1]
    np.testing.assert_array_equal(y, 2 * x + 1)
    monkeypatch.setenv("XESIM_ENGINE", "fast")
    y = xesim.launch(xesim.load(SAXPY), "k::saxpy", grid=(2, 1, 1), block=(16, 1, 1), args=args).arrays[1]
    np.testing.assert_array_equal(y, 2 * x + 3)


def test_both_reports_a_printed_output_difference_first(monkeypatch, engine_both) -> None:
    from xesim.exec import blocks as X

    orig = X.load_2d_memory

    def broken(engine, op, plan, d, x, y, rows, cols, mdt):
        out = orig(engine, op, plan, d, x, y, rows, cols, mdt)
        return out + 1 if not engine.config.kernel_reference else out

    monkeypatch.setattr(X, "load_2d_memory", broken)
    with pytest.raises(DiagnosticError) as info:
        _copy(print_tile=True)
    # workgroup 0 prints a[0, 0] = 0, the broken path 1
    assert "printed output differs at line 1: 'tile 1.000000' (fast) vs 'tile 0.000000' (reference)" in \
        info.value.render()


def test_both_reports_a_fault_difference(monkeypatch, engine_both) -> None:
    from xesim.exec import blocks as X
    from xesim.exec.faults import ExecFault

    def broken(engine, d, x, y, v, isz):
        if engine.config.kernel_reference:
            return False
        raise ExecFault("broken store path")


    monkeypatch.setenv("XESIM_BATCH", "1")  # the per-subgroup store path, whatever XESIM_GRF says
    monkeypatch.setattr(X, "store_in_place", broken)
    with pytest.raises(DiagnosticError) as info:
        _copy()
    msg = info.value.render()
    assert re.search(r"the fast run faulted at .*'xegpu.store_nd' op broken store path.*, the reference run "
                     r"finished without a fault", msg), msg


def test_difference_is_located_at_the_launch_op(monkeypatch, engine_both) -> None:
    _break_direct_load(monkeypatch)
    src = COPY.replace("PRINT", "").rstrip().removesuffix("}") + """
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc () : memref<8x32xf32>
    %b = gpu.alloc () : memref<8x32xf32>
    %one = arith.constant 1.0 : f32
    gpu.memset %a, %one : memref<8x32xf32>, f32
    gpu.launch_func @k::@copy blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<8x32xf32>, %b : memref<8x32xf32>)
    return
  }
}
"""
    with pytest.raises(DiagnosticError) as info:
        xesim.load(src).run()
    msg = info.value.render()
    line = next(i for i, t in enumerate(src.splitlines(), 1) if "gpu.launch_func" in t)
    assert f":{line}:" in msg.splitlines()[0] and "'gpu.launch_func' op engines differ in kernel @k::@copy" in msg
    assert "element [7, 15] is 2.0 (0x40000000) (fast) vs 1.0 (0x3f800000) (reference)" in msg


# ------------------------------------------------------------------------------------ state after a launch
GLOBAL_PROGRAM = """module attributes {gpu.container_module} {
  gpu.module @k {
    memref.global "private" @acc : memref<16xf32> = dense<1.5>
    gpu.func @twice(%out: memref<16xf32>) private(%p : memref<4xf32, #gpu.address_space<private>>) kernel {
      %tid = gpu.thread_id x
      %g = memref.get_global @acc : memref<16xf32>
      %v = memref.load %g[%tid] : memref<16xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %g[%tid] : memref<16xf32>
      memref.store %w, %out[%tid] : memref<16xf32>
      gpu.printf "lane %d\\n", %tid : index
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %o = gpu.alloc () : memref<16xf32>
    gpu.launch_func @k::@twice blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%o : memref<16xf32>)
    gpu.launch_func @k::@twice blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%o : memref<16xf32>)
    %v = memref.load %o[%c15] : memref<16xf32>
    vector.print %v : f32
    %later = memref.alloc() : memref<4xf32>
    %p = memref.extract_aligned_pointer_as_index %later : memref<4xf32> -> index
    %q = memref.extract_aligned_pointer_as_index %o : memref<16xf32> -> index
    %d = arith.subi %p, %q : index
    vector.print %d : index
    return
  }
}
"""


def test_both_keeps_one_state_globals_and_addresses(monkeypatch) -> None:
    """A kernel global doubled by two launches ends at 1.5 * 4 (the reference run starts from the state before
    each launch, not from the fast run's); printf output appears once; the allocations the launches made
    (the global, private attributions) are rolled back between the runs, so a later allocation gets the address
    it gets under the fast engine."""
    outs = {}
    for mode in ("fast", "both"):
        monkeypatch.setenv("XESIM_ENGINE", mode)
        res = xesim.load(GLOBAL_PROGRAM).run()
        outs[mode] = res.output
        assert res.engine.config.kernel_reference is False
    lines = outs["both"].splitlines()
    assert lines[:16] == [f"lane {i}" for i in range(16)] and lines[32] == "6"
    assert lines.count("lane 0") == 2
    assert outs["both"] == outs["fast"]


def test_register_file_statistics_count_each_launch_once(monkeypatch) -> None:
    monkeypatch.setenv("XESIM_GRF", "track")  # statistics exist only with the register-file model on
    stats = {}
    for mode in ("fast", "both"):
        monkeypatch.setenv("XESIM_ENGINE", mode)
        res = _copy()
        from xesim.api import register_file

        st = register_file(res.engine).stats["k::copy"]
        stats[mode] = (st.instances, st.peak, st.spills)
    assert stats["both"] == stats["fast"] and stats["fast"][0] == 2  # two workgroups of one subgroup


def test_reference_engine_flag(monkeypatch) -> None:
    from xesim.api import make_engine

    prog = xesim.load(SAXPY)
    for mode, want in (("reference", True), ("fast", False), ("both", False)):
        monkeypatch.setenv("XESIM_ENGINE", mode)
        assert make_engine(prog.module).config.kernel_reference is want


def test_random_schedule_state_after_both_equals_fast(monkeypatch) -> None:
    from xesim.api import make_engine

    src = (ROOT / "tests/e2e/sched_slm_exchange_8sg.mlir").read_text()
    prog = xesim.load(src)
    states = {}
    for mode in ("fast", "both"):
        monkeypatch.setenv("XESIM_ENGINE", mode)
        engine = make_engine(prog.module, out=io.StringIO(), schedule="random")
        engine.run()
        states[mode] = (engine.out.getvalue(), engine.schedule_rng().bit_generator.state)
    assert states["both"] == states["fast"]


# ------------------------------------------------------------------------- every kernel program agrees
def _kernel_programs() -> list[Path]:
    """Every program that launches a kernel, but the one whose subgroups race on purpose (the negative example of
    --check-races: lockstep and one-after-another are different interleavings, so the engines must differ; see
    test_a_racy_program_differs_under_both)."""
    files = sorted((ROOT / "examples").glob("*.mlir")) + sorted((ROOT / "tests/e2e").glob("*.mlir"))
    return [f for f in files if "gpu.launch_func" in f.read_text() and f.name != "race_slm_exchange_racy.mlir"
            and in_sweeps(f)]


def test_a_racy_program_differs_under_both(monkeypatch) -> None:
    """Two subgroups exchange SLM halves without a barrier: the fast engine (lockstep) and the reference (one
    subgroup after the other) interleave them differently; the report says so and points to --check-races."""
    monkeypatch.setenv("XESIM_GRF", "off")
    monkeypatch.setenv("XESIM_ENGINE", "both")
    status, _, err = run_xesim(["run", str(ROOT / "tests/e2e/race_slm_exchange_racy.mlir")])
    assert status == 1
    assert "engines differ in kernel @kernels::@exchange" in err and "--check-races" in err, err


@pytest.mark.parametrize("path", _kernel_programs(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_kernel_program_agrees_under_both(path: Path, monkeypatch) -> None:
    """``xesim run`` under both: no engine difference, and the same exit status, output and diagnostics as the
    fast engine (error programs included)."""
    monkeypatch.setenv("XESIM_GRF", "off")  # the register-file model is tested elsewhere; keep this quick
    monkeypatch.setenv("XESIM_ENGINE", "fast")
    fast = run_xesim(["run", str(path)])
    monkeypatch.setenv("XESIM_ENGINE", "both")
    both = run_xesim(["run", str(path)])
    assert "engines differ" not in both[2], both[2]
    assert both == fast
