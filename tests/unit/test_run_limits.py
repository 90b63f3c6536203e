"""Bounded runs (issue 27 item 3): ``--max-steps`` and ``--timeout`` stop a runaway program with a located error
naming the loop (xesim/exec/guard.py), allocations over ``--memory-limit`` are located errors before anything is
allocated (xesim/exec/limits.py), and launch grids cost no memory before they run (xesim/exec/grid.py)."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import run_xesim
from xesim.api import config_from_environment, make_engine
from xesim.diagnostics import DiagnosticError
from xesim.exec.grid import Workgroups
from xesim.exec.guard import locate
from xesim.ir.parser import parse_source

#: a host loop the compiler turns into native code (xesim/exec/jit): m[0] = i for i in 0 .. 10^12
COMPILED_LOOP = """func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000000000000 : index
  %m = memref.alloc() : memref<1xi64>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i64
    memref.store %v, %m[%c0] : memref<1xi64>
  }
  return
}
"""

#: a host loop that prints each iteration (interpreted: vector.print is not compiled)
PRINTING_LOOP = """func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000000 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i64
    vector.print %v : i64
  }
  return
}
"""

#: scf.while for ever
WHILE_FOREVER = """func.func @main() {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.while (%x = %c0) : (i64) -> i64 {
    %t = arith.cmpi sge, %x, %c0 : i64
    scf.condition(%t) %x : i64
  } do {
  ^bb0(%y: i64):
    %z = arith.addi %y, %c1 : i64
    scf.yield %z : i64
  }
  return
}
"""

#: a cf loop: ^bb1 branches back to itself
CF_FOREVER = """func.func @main() {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^bb1(%c0 : i64)
^bb1(%x: i64):
  %y = arith.addi %x, %c1 : i64
  cf.br ^bb1(%y : i64)
}
"""

#: every workgroup of a kernel loops for ever
KERNEL_LOOP = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @spin(%out: memref<8xi64>) kernel {
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant 1000000000000 : index
      %z = arith.constant 0 : i64
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
        %v = arith.index_cast %i : index to i64
        %s = arith.addi %acc, %v : i64
        scf.yield %s : i64
      }
      memref.store %r, %out[%bx] : memref<8xi64>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %d = gpu.alloc () : memref<8xi64>
    gpu.launch_func @kernels::@spin blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1) args(%d : memref<8xi64>)
    gpu.dealloc %d : memref<8xi64>
    return
  }
}
"""

#: 2^31 workgroups that do nothing
HUGE_GRID = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @nothing() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cx = arith.constant 65536 : index
    %cy = arith.constant 32768 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@nothing blocks in (%cx, %cy, %c1) threads in (%c16, %c1, %c1) args()
    return
  }
}
"""


def _run(text: str, **options: object) -> tuple[object, DiagnosticError | None]:
    engine = make_engine(parse_source(text, "prog.mlir"), out=io.StringIO(), **options)
    try:
        engine.run("main")
    except DiagnosticError as exc:
        return engine, exc
    return engine, None


def _the_error(exc: DiagnosticError | None, line: int) -> str:
    assert exc is not None, "the run should have stopped"
    (d,) = exc.diagnostics
    assert d.loc.line_col()[0] == line
    return d.message


@pytest.mark.parametrize("engine_mode", ["fast", "reference"])
def test_max_steps_stops_a_loop_after_exactly_that_many_iterations(engine_mode: str) -> None:
    """Compiled (fast) and interpreted (reference) alike: 1000 iterations run, the 1001st is refused."""
    engine, exc = _run(COMPILED_LOOP, max_steps=1000, engine=engine_mode)
    assert _the_error(exc, 6) == ("the run reached its limit of 1000 steps (loop iterations; --max-steps, "
                                  "XESIM_MAX_STEPS) in this 'scf.for' loop")
    (m,) = [a for a in engine.memory._allocs if a.size == 8]
    assert m.data.view(np.int64)[0] == 999  # the last iteration that ran stored its index


def test_steps_are_counted_across_loops_and_printed_output_stops_with_them() -> None:
    engine, exc = _run(PRINTING_LOOP, max_steps=300)
    assert "limit of 300 steps" in _the_error(exc, 5)
    assert engine.out.getvalue().split() == [str(i) for i in range(300)]


@pytest.mark.parametrize(("text", "line", "loop"), [(WHILE_FOREVER, 4, "scf.while"), (CF_FOREVER, 7, "cf.br")])
def test_max_steps_bounds_while_loops_and_control_flow_cycles(text: str, line: int, loop: str) -> None:
    _, exc = _run(text, max_steps=5000)
    message = _the_error(exc, line)
    assert "limit of 5000 steps" in message
    assert message.endswith(f"in this '{loop}' loop") or f"'{loop}' op" in message


def test_max_steps_in_a_kernel_names_the_instance() -> None:
    _, exc = _run(KERNEL_LOOP, max_steps=2000, engine="reference")
    message = _the_error(exc, 9)
    assert "limit of 2000 steps" in message and "in this 'scf.for' loop" in message
    assert "(kernel @kernels::@spin, workgroup (0, 0, 0), subgroup 0)" in message


def test_timeout_stops_a_loop_that_never_ends() -> None:
    _, exc = _run(WHILE_FOREVER, timeout=0.5)
    assert _the_error(exc, 4) == ("the run reached its time limit of 0.5 s (--timeout, XESIM_TIMEOUT) in this "
                                  "'scf.while' loop")


def test_timeout_stops_a_compiled_loop() -> None:
    _, exc = _run(COMPILED_LOOP, timeout=1.0)
    assert "time limit of 1 s" in _the_error(exc, 6)


def test_a_huge_grid_costs_no_memory_before_it_runs(tmp_path: Path) -> None:
    """2^31 workgroups: the launch starts at once (no list of ids) and the timeout stops it between batches of
    workgroups, at the launch; the process's peak memory stays that of a small run."""
    path = tmp_path / "grid.mlir"
    path.write_text(HUGE_GRID)
    # the peak RSS of this process image (VmHWM: getrusage's ru_maxrss would include the forking pytest's peak,
    # which Linux carries across fork and exec)
    code = ("import re, sys\nfrom xesim.cli import main\n"
            f"status = main(['run', {str(path)!r}, '--timeout', '2'])\n"
            "hwm = re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read()).group(1)\n"
            "print(status, hwm, file=sys.stderr)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("XESIM_")}  # batched, one process
    env.update(PYTHONPATH=str(Path(__file__).resolve().parents[2]), XESIM_JOBS="1", XESIM_GRF="off")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    *diag, last = proc.stderr.strip().splitlines()
    status, max_rss_kib = map(int, last.split())
    assert status == 1
    assert diag[0].startswith(f"{path}:12:5: error: the run reached its time limit of 2 s (--timeout, XESIM_TIMEOUT), "
                              "while executing this 'gpu.launch_func' op (kernel @kernels::@nothing, workgroup (")
    assert max_rss_kib < 512 << 10  # under 512 MiB (about 110 here; a list of 2^31 ids alone takes over 7 GB)


def test_workgroups_are_numbered_x_fastest_and_sliced_lazily() -> None:
    grid = (3, 2, 2)
    expected = [(x, y, z) for z in range(2) for y in range(2) for x in range(3)]  # spec §3.2: x fastest
    wgs = Workgroups(grid)
    assert list(wgs) == expected and len(wgs) == 12
    assert wgs[4] == expected[4] and wgs[-1] == expected[-1]
    assert list(wgs[5:9]) == expected[5:9] and wgs[5:9][0] == expected[5] and wgs[5:9][-1] == expected[8]
    assert list(wgs[10:100]) == expected[10:] and len(wgs[7:3]) == 0
    assert wgs[2:6] == expected[2:6]
    with pytest.raises(IndexError):
        wgs[12]
    tracemalloc.start()
    try:
        huge = Workgroups((1 << 16, 1 << 15, 1))
        pieces = [huge[i * (1 << 28):(i + 1) * (1 << 28)] for i in range(8)]
        size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(huge) == 1 << 31 and sum(map(len, pieces)) == 1 << 31
    assert huge[-1] == ((1 << 16) - 1, (1 << 15) - 1, 0) and pieces[3][0] == (0, 3 * (1 << 28) >> 16, 0)
    assert peak < 64 << 10


def test_an_allocation_over_the_limit_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "big.mlir"
    path.write_text("func.func @main() {\n  %m = memref.alloc() : memref<1099511627776xf32>\n"
                    "  memref.dealloc %m : memref<1099511627776xf32>\n  return\n}\n")
    status, out, err = run_xesim(["run", str(path)])  # the default limit: a share of this machine's memory
    assert status == 1 and out == ""
    first, source, caret = err.splitlines()[:3]
    assert first.startswith(f"{path}:2:3: error: 'memref.alloc' op allocation of 4398046511104 bytes (4.0 TiB) "
                            "refused: with the 0 bytes already allocated it exceeds the memory limit of ")
    assert source == "  %m = memref.alloc() : memref<1099511627776xf32>" and caret == "  ^"
    small = tmp_path / "small.mlir"
    small.write_text("func.func @main() {\n  %a = memref.alloc() : memref<256xf32>\n"
                     "  %b = memref.alloc() : memref<256xf32>\n  return\n}\n")
    assert run_xesim(["run", str(small), "--memory-limit", "2K"])[0] == 0  # 1 KiB each: exactly the limit
    status, _, err = run_xesim(["run", str(small), "--memory-limit", "1.5K"])
    assert status == 1 and err.startswith(f"{small}:3:3: error: 'memref.alloc' op allocation of 1024 bytes "
                                          "(1.0 KiB) refused: with the 1.0 KiB already allocated it exceeds the "
                                          "memory limit of 1.5 KiB (--memory-limit, XESIM_MEMORY_LIMIT)")


def test_limit_options_and_their_environment_aliases(tmp_path: Path, monkeypatch) -> None:
    env = {"XESIM_MAX_STEPS": "70", "XESIM_TIMEOUT": "2.5", "XESIM_MEMORY_LIMIT": "3G"}
    config = config_from_environment(env)
    assert (config.max_steps, config.timeout, config.memory_limit) == (70, 2.5, 3 << 30)
    config = config_from_environment(env, max_steps=9, timeout=1.0, memory_limit=100)  # options win
    assert (config.max_steps, config.timeout, config.memory_limit) == (9, 1.0, 100)
    for name, raw in [("XESIM_MAX_STEPS", "0"), ("XESIM_MAX_STEPS", "many"), ("XESIM_TIMEOUT", "-1"),
                      ("XESIM_TIMEOUT", "inf"), ("XESIM_MEMORY_LIMIT", "lots")]:
        with pytest.raises(DiagnosticError, match=f"{name} must be"):
            config_from_environment({name: raw})
    path = tmp_path / "p.mlir"
    path.write_text(PRINTING_LOOP)
    for flag, raw in [("--max-steps", "0"), ("--timeout", "0"), ("--timeout", "nan"), ("--memory-limit", "1x")]:
        status, _, err = run_xesim(["run", str(path), flag, raw])
        assert status == 2 and f"argument {flag}" in err
    monkeypatch.setenv("XESIM_MAX_STEPS", "3")
    status, out, err = run_xesim(["run", str(path)])
    assert status == 1 and out.split() == ["0", "1", "2"] and "limit of 3 steps" in err


def test_under_both_engines_a_nest_s_iterations_count_once() -> None:
    """``XESIM_ENGINE=both`` runs each compiled nest twice (interpreted, then compiled, compared): its 3000 iterations
    are 3000 steps of the run, not 6000, and both engines must have counted 3000."""
    _, exc = _run(COMPILED_LOOP.replace("1000000000000", "3000"), max_steps=3000, engine="both")
    assert exc is None
    _, exc = _run(COMPILED_LOOP.replace("1000000000000", "3001"), max_steps=3000, engine="both")
    assert "limit of 3000 steps" in _the_error(exc, 6)


def test_a_compiled_nest_returns_when_the_stop_flag_is_set() -> None:
    """What the watcher thread does on SIGINT (xesim/exec/guard.py), done by hand: the flag set from another thread
    while a 10^12-iteration compiled loop runs; the nest returns and the run raises KeyboardInterrupt naming the
    loop."""
    engine = make_engine(parse_source(COMPILED_LOOP, "prog.mlir"), out=io.StringIO())
    guard = engine.guard
    timer = threading.Timer(1.0, lambda: guard.flag.__setitem__(0, int(signal.SIGINT)))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as info:
            engine.run("main")
    finally:
        timer.cancel()
    op, loop = locate(info.value)
    assert op is loop and op.name == "scf.for" and op.loc.line_col() == (6, 3)
    assert guard.flag[0] == 0  # the run is over: the flag is clear for the next one


FILL_NEST = """func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c100 = arith.constant 100 : index
  %one = arith.constant 1 : i8
  %m = memref.alloc() : memref<10x100xi8>
  scf.for %i = %c0 to %c10 step %c1 {
    scf.for %j = %c0 to %c100 step %c1 {
      memref.store %one, %m[%i, %j] : memref<10x100xi8>
    }
  }
  return
}
"""


@pytest.mark.parametrize("engine_mode", ["fast", "reference"])
@pytest.mark.parametrize(("max_steps", "stored", "line"), [(1010, 1000, 0), (1009, 999, 9), (555, 549, 9),
                                                           (101, 100, 8), (102, 100, 9)])
def test_a_budget_ending_inside_a_nest_stops_at_the_same_iteration_compiled_or_not(
        engine_mode: str, max_steps: int, stored: int, line: int) -> None:
    """10 x 100 iterations: each outer iteration is a step, then its 100 inner ones.  The compiled inner loop counts
    its iterations ahead when they fit the budget (xesim/exec/jit/codegen.py ``count_ahead``), else one by one: the
    stop comes at the same iteration as in the interpreter, with the same stores done."""
    engine, exc = _run(FILL_NEST, max_steps=max_steps, engine=engine_mode)
    (m,) = [a for a in engine.memory._allocs if a.size == 1000]
    assert int(m.data.sum()) == stored
    if max_steps >= 1010:
        assert exc is None
    else:
        assert f"limit of {max_steps} steps" in _the_error(exc, line)  # 8: the outer loop, 9: the inner one


def test_a_limit_of_one_step_allows_one_branch_back() -> None:
    _, exc = _run(CF_FOREVER, max_steps=1)
    assert _the_error(exc, 7) == ("the run reached its limit of 1 step (loop iterations; --max-steps, "
                                  "XESIM_MAX_STEPS), while executing this 'cf.br' op")
