"""``--jobs N``: the workgroups of a launch spread over processes (xesim/exec/parallel.py, issue 7 §3).

Results must not depend on N: memory, printed output (``gpu.printf`` after ``vector.print``, grid order),
warnings (once), the fault reported (the first faulting workgroup in grid order) and the exit status.  Expected
values are derived by hand from the kernels (small integers) or from the programs' own CHECK lines; the
protocol tests compare with calling the runner directly (no process involved).  Every test forces spreading
(no time threshold) and turns the register-file model off (it keeps launches in one process).
"""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xesim
from tests.conftest import run_xesim
from xesim.api import make_engine
from xesim.diagnostics import DiagnosticError
from xesim.exec import kernel_writes, parallel
from xesim.exec.faults import ExecFault

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not parallel.CAN_FORK, reason="needs os.fork (Linux)")


@pytest.fixture(autouse=True)
def _always_spread(monkeypatch):
    monkeypatch.setattr(parallel, "MIN_PARALLEL_SECONDS", 0.0)
    monkeypatch.setattr(parallel, "SECONDS_PER_BYTE", 0.0)
    monkeypatch.setenv("XESIM_GRF", "off")
    # the machine counts as idle (a CI machine may be busy): test_a_crowded_machine_spreads_instead sets it
    monkeypatch.setattr(parallel, "other_running_threads", lambda: 0)
    monkeypatch.setattr(parallel, "CROWDED_FOR", 0.0)


#: the real reading (the autouse fixture replaces the module's with "idle")
REAL_OTHER_RUNNING_THREADS = parallel.other_running_threads


def forked() -> int:
    return parallel.STATS["forked"]


# out[by * 7 + bx][tx] = (100 bx + 10 by + tx) * scale over a 7x3 grid of 4-work-item workgroups.
FILL = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%out: memref<21x4xi32>, %scale: i32) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %gdx = gpu.grid_dim x
      %w0 = arith.muli %by, %gdx : index
      %wg = arith.addi %w0, %bx : index
      %bx32 = arith.index_cast %bx : index to i32
      %by32 = arith.index_cast %by : index to i32
      %tx32 = arith.index_cast %tx : index to i32
      %c100 = arith.constant 100 : i32
      %c10 = arith.constant 10 : i32
      %a = arith.muli %bx32, %c100 : i32
      %b = arith.muli %by32, %c10 : i32
      %s = arith.addi %a, %b : i32
      %t = arith.addi %s, %tx32 : i32
      %v = arith.muli %t, %scale : i32
      memref.store %v, %out[%wg, %tx] : memref<21x4xi32>
      gpu.return
    }
  }
}
"""


@pytest.mark.parametrize("jobs", [1, 2, 3, 8])
def test_launch_memory_is_the_same_for_any_job_count(jobs: int) -> None:
    want = np.array([[(100 * x + 10 * y + t) * 3 for t in range(4)] for y in range(3) for x in range(7)], np.int32)
    before = forked()
    out = xesim.launch(xesim.load(FILL), "k::fill", grid=(7, 3, 1), block=(4, 1, 1),
                       args=[np.full((21, 4), -1, np.int32), 3], jobs=jobs, grf="off")
    np.testing.assert_array_equal(out.arrays[0], want)
    assert forked() - before == min(jobs, 21) - 1  # chunk 0 runs in this process


# Programs of the repository with several workgroups (SG, lane and WG level; one with barriers and SLM).
PROGRAMS = ["examples/sg_gemm_f16.mlir", "examples/lane_gemm_f16.mlir", "examples/lane_saxpy.mlir",
            "tests/e2e/kernel_ids_3d.mlir", "tests/e2e/xegpu_gemm_bf16_kloop.mlir",
            "tests/e2e/kernel_slm_barrier_async.mlir", "tests/e2e/wg_gemm_256x256_sg8x4.mlir"]


#: those whose GEMM-like SG/WG-level kernels run on numba's threads instead of processes (threaded_kernel)
THREADED = {"tests/e2e/wg_gemm_256x256_sg8x4.mlir", "examples/sg_gemm_f16.mlir",
            "tests/e2e/xegpu_gemm_bf16_kloop.mlir"}


@pytest.mark.parametrize("path", PROGRAMS)
def test_programs_print_the_same_for_jobs_1_2_3(path: str) -> None:
    from xesim.api import config_from_environment

    # threads serve batched launches; the reference engine runs one subgroup at a time (XESIM_ENGINE=reference)
    threads = path in THREADED and not config_from_environment().kernel_reference
    runs = []
    for jobs in (1, 2, 3):
        before, threaded = forked(), parallel.STATS["threads"]
        runs.append(run_xesim(["run", "--jobs", str(jobs), str(ROOT / path)]))
        assert (forked() > before) == (jobs > 1 and not threads)
        assert (parallel.STATS["threads"] > threaded) == (jobs > 1 and threads)
    assert runs[0][0] == 0, runs[0][2]
    assert runs[1] == runs[0] and runs[2] == runs[0]
    exe = Path(sys.executable).with_name("filecheck")  # the program's own CHECK lines (computed by hand)
    if not exe.exists():
        exe = Path(shutil.which("filecheck") or exe)
    proc = subprocess.run([str(exe), str(ROOT / path)], input=runs[2][1], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# One work-item per workgroup: vector.print (written at once) and gpu.printf (buffered to the end of the launch),
# then a store to out[bx] of a memref<NxN32>: workgroups bx >= N fault.
PRINTS = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @p(%out: memref<SIZExi32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      vector.print %bx : index
      gpu.printf "wg %d %d\\n", %bx, %by : index, index
      %v = arith.index_cast %bx : index to i32
      memref.store %v, %out[%bx] : memref<SIZExi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %cgx = arith.constant GX : index
    %cgy = arith.constant GY : index
    %d = gpu.alloc () : memref<SIZExi32>
    gpu.launch_func @k::@p blocks in (%cgx, %cgy, %c1) threads in (%c1, %c1, %c1) args(%d : memref<SIZExi32>)
    %h = memref.alloc() : memref<SIZExi32>
    gpu.memcpy %h, %d : memref<SIZExi32>, memref<SIZExi32>
    %u = memref.cast %h : memref<SIZExi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
}
"""


def prints_program(tmp_path: Path, size: int, gx: int, gy: int) -> str:
    p = tmp_path / f"prints_{size}_{gx}_{gy}.mlir"
    p.write_text(PRINTS.replace("SIZE", str(size)).replace("GX", str(gx)).replace("GY", str(gy)))
    return str(p)


@pytest.mark.parametrize("jobs", [1, 2, 3, 4])
def test_printed_output_keeps_grid_order(tmp_path: Path, jobs: int) -> None:
    status, out, err = run_xesim(["run", "--jobs", str(jobs), prints_program(tmp_path, 8, 8, 2)])
    assert status == 0, err
    grid = [(x, y) for y in range(2) for x in range(8)]  # x fastest
    prints = "".join(f"{x}\n" for x, _ in grid)
    printfs = "".join(f"wg {x} {y}\n" for x, y in grid)
    assert out.startswith(prints + printfs)
    assert "[0,  1,  2,  3,  4,  5,  6,  7]" in out


@pytest.mark.parametrize("size,jobs", [(6, 2), (6, 3), (4, 3), (1, 2), (1, 3), (6, 8)])
def test_the_first_faulting_workgroup_is_reported(tmp_path: Path, size: int, jobs: int) -> None:
    # grid 8x1: workgroup `size` is the first out of bounds; with 3 jobs the chunks are [0, 1], [2, 3, 4],
    # [5, 6, 7] so (4, 3) faults in two chunks and (1, *) in this process's own chunk.
    path = prints_program(tmp_path, size, 8, 1)
    ref = run_xesim(["run", "--jobs", "1", path])
    got = run_xesim(["run", "--jobs", str(jobs), path])
    assert ref[0] == 1 and f"workgroup ({size}, 0, 0)" in ref[2]
    assert f"index {size} is out of bounds for dimension 0 of size {size}" in ref[2]
    assert ref[1] == "".join(f"{x}\n" for x in range(size + 1)) + "".join(f"wg {x} 0\n" for x in range(size + 1))
    assert got == ref


# VC level, one thread per workgroup: every workgroup atomically adds [0, 1, ..., 15] to the same 16 elements.
ATOMIC = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @atom(%m: memref<16xi32>) kernel attributes {VectorComputeFunctionINTEL} {
      %o = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xindex>
      %v = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xi32>
      %mask = arith.constant dense<true> : vector<16xi1>
      %t = xegpu.create_tdesc %m, %o : memref<16xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %r = xegpu.atomic_rmw addi %t, %mask, %v : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      gpu.return
    }
  }
}
"""


def test_a_kernel_with_global_atomics_runs_in_one_process() -> None:
    prog = xesim.load(ATOMIC)
    before = forked()
    out = xesim.launch(prog, "k::atom", grid=(5, 1, 1), block=(1, 1, 1), args=[np.zeros(16, np.int32)], jobs=3,
                       grf="off")
    np.testing.assert_array_equal(out.arrays[0], 5 * np.arange(16))
    assert forked() == before
    kernel = prog.module.lookup_symbol(("k", "atom"))
    reason = parallel.one_process_reason(out.engine, kernel, [(0, 0, 0), (1, 0, 0)])
    assert reason is not None and "xegpu.atomic_rmw" in reason


def test_reasons_to_stay_in_one_process() -> None:
    prog = xesim.load(FILL)
    kernel = prog.module.lookup_symbol(("k", "fill"))
    wgs = [(0, 0, 0), (1, 0, 0)]
    eng = make_engine(prog.module, out=io.StringIO(), jobs=2, grf="off")
    assert parallel.one_process_reason(eng, kernel, wgs) is None
    assert "two workgroups" in parallel.one_process_reason(eng, kernel, wgs[:1])
    for option, value, word in (("jobs", 1, "one job"), ("schedule", "random", "random")):
        eng.config = eng.config.with_options(**{option: value})
        assert word in parallel.one_process_reason(eng, kernel, wgs)
        eng.config = eng.config.with_options(jobs=2, schedule="round-robin")
    from xesim.observe.races import RaceObserver
    from xesim.observe.registers import RegisterFileObserver

    for observer, word in ((RaceObserver(), "race"), (RegisterFileObserver(checked=False), "register")):
        eng.observers = [observer]  # observers that follow single subgroups keep a launch in one process
        assert word in parallel.one_process_reason(eng, kernel, wgs)
        eng.observers = []
    alloca = xesim.load(FILL.replace("gpu.return", "%p = memref.alloca() : memref<4xi32>\n      gpu.return"))
    e2 = make_engine(alloca.module, jobs=2, grf="off")
    reason = parallel.one_process_reason(e2, alloca.module.lookup_symbol(("k", "fill")), wgs)
    assert "memref.alloca" in reason and "allocates global memory" in reason


# ------------------------------------------------------------------------------------------ protocol and failures
def _engine(jobs: int) -> tuple[Any, object, list]:
    prog = xesim.load(FILL)
    eng = make_engine(prog.module, out=io.StringIO(), err=io.StringIO(), jobs=jobs)
    kernel = prog.module.lookup_symbol(("k", "fill"))
    ops = list(kernel.walk())[1:4]
    return eng, kernel, ops


def _recording_runner(eng: Any, ops: list, alloc) -> object:
    """Per workgroup x: output, printf text, two warnings (one shared by every workgroup of a parity), a note,
    8 bytes of memory; workgroup 9 faults."""

    def runner(subset: list) -> None:
        for wg in subset:
            x = wg[0]
            eng.out.write(f"out {x}\n")
            eng.kstate.printf_buffer.append(f"printf {x}\n")
            eng.warn(ops[x % 2], "parity warning")
            eng.warn(ops[2], f"warning of workgroup {x}")
            note = f"note {x % 3}"
            if note not in eng.assumption_notes:
                eng.assumption_notes.append(note)
            alloc.data[8 * x:8 * x + 8] = np.arange(8, dtype=np.uint8) + x
            alloc.data[100 + x] = 200 + x
            if x == 9:
                raise ExecFault(f"fault in workgroup {x}", ops[1], f"workgroup ({x}, 0, 0)")

    return runner


@pytest.mark.parametrize("count", [6, 12])
@pytest.mark.parametrize("jobs", [2, 3, 5])
def test_results_merge_in_chunk_order(jobs: int, count: int) -> None:
    wgs = [(x, 0, 0) for x in range(count)]
    results = []
    for j in (1, jobs):
        eng, kernel, ops = _engine(j)
        alloc = eng.memory.allocate(128, "device", "buffer")
        fault = None
        try:
            if j == 1:
                _recording_runner(eng, ops, alloc)(wgs)  # the reference: the runner itself, no processes
            else:
                parallel.run_workgroups(eng, kernel, wgs, _recording_runner(eng, ops, alloc))
        except ExecFault as exc:
            fault = (exc.message, exc.op is ops[1], exc.context)
        results.append((eng.out.getvalue(), eng.err.getvalue(), list(eng.kstate.printf_buffer),
                        list(eng.assumption_notes), bytes(alloc.data[:8 * min(count, 10)]), fault))
        if count <= 9:  # memory after a fault may hold later chunks' writes; without one it is all compared
            results[-1] += (bytes(alloc.data),)
    assert results[1] == results[0]
    assert results[0][1].count("parity warning") == 2


def test_every_process_starts_from_one_copy_of_the_launch_memory() -> None:
    """The parent copies the memory the launch may write once, before forking; every process's first piece finds
    that copy as ``engine.pristine_copies`` (its roll-back snapshot, xesim/exec/batch.py) holding the starting
    bytes, although other pieces have changed memory by then, and its later pieces find none (its memory is no
    longer the starting bytes); the parent drops it after its piece even when its runner does not take it (a
    later launch must not roll back to it)."""
    eng, kernel, ops = _engine(2)
    alloc = eng.memory.allocate(64, "device", "buffer")
    alloc.data[:] = 7

    def runner(subset: list) -> None:
        copies = eng.__dict__.get("pristine_copies")  # left in place: this runner is not a batched one
        if copies is None:
            seen = "later"
        else:
            assert list(copies) == [id(alloc)] and copies[id(alloc)] is not alloc.data
            seen = "first:" + bytes(copies[id(alloc)]).hex()
        for wg in subset:
            alloc.data[wg[0]] = 100 + wg[0]
        eng.out.write(f"{subset[0][0]} {os.getpid()} {seen}\n")
        time.sleep(0.05)  # both processes get pieces

    parallel.run_workgroups(eng, kernel, [(x, 0, 0) for x in range(8)], runner)
    assert "pristine_copies" not in eng.__dict__
    lines = [line.split() for line in eng.out.getvalue().splitlines()]
    assert [int(x) for x, _, _ in lines] == list(range(8))  # one piece per workgroup, replayed in grid order
    assert lines[0][1] == str(os.getpid())  # piece 0 is the parent's
    for pid in {pid for _, pid, _ in lines}:
        mine = [seen for _, p, seen in lines if p == pid]
        assert mine[0] == "first:" + "07" * 64 and set(mine[1:]) <= {"later"}, mine
    assert list(alloc.data[:8]) == list(range(100, 108)) and set(alloc.data[8:]) == {7}


def test_pieces_go_to_whichever_process_is_free() -> None:
    """Pieces are handed out one at a time: when the child is slow (a busy core), this process takes more of
    them, and the output is still replayed in grid order."""
    eng, kernel, ops = _engine(2)
    parent = os.getpid()

    def runner(subset: list) -> None:
        if os.getpid() != parent:
            time.sleep(0.4)
        else:
            time.sleep(0.02)
        eng.out.write(f"{subset[0][0]} {'parent' if os.getpid() == parent else 'child'}\n")

    parallel.run_workgroups(eng, kernel, [(x, 0, 0) for x in range(8)], runner)
    lines = [line.split() for line in eng.out.getvalue().splitlines()]
    assert [int(x) for x, _ in lines] == list(range(8))
    # equal fixed shares would give each process 4 pieces
    assert [who for _, who in lines].count("parent") >= 6, lines


def test_a_spread_launch_leaves_its_timeline(tmp_path: Path) -> None:
    """parallel.LAST_TIMELINE says which process ran each piece, when, with how much CPU time and how many page
    faults (XESIM_JOBS_DEBUG prints it; tools/bench_jobs.py reads it)."""
    import mmap

    eng, kernel, ops = _engine(2)
    parent = os.getpid()
    started = tmp_path / "child-started"

    def runner(subset: list) -> None:
        if os.getpid() != parent:
            started.touch()
            time.sleep(0.2)  # wall time without CPU time
            with mmap.mmap(-1, 8 << 20) as m:  # 2048 fresh 4 KiB pages: one fault each (no huge pages asked for)
                for i in range(0, len(m), mmap.PAGESIZE):
                    m[i] = 1
        else:
            time.sleep(0.02)
            deadline = time.monotonic() + 30
            while subset[0][0] == 0 and not started.exists() and time.monotonic() < deadline:
                time.sleep(0.01)  # piece 0 waits for the child to take a piece (a slow start on a busy machine)

    parallel.run_workgroups(eng, kernel, [(x, 0, 0) for x in range(8)], runner)
    tl = parallel.LAST_TIMELINE
    assert sorted(p.piece for p in tl.pieces) == list(range(8))
    assert {p.slot for p in tl.pieces} == {0, 1} and 0 in [p.piece for p in tl.pieces if p.slot == 0]
    assert tl.start <= tl.forked <= min(p.start for p in tl.pieces)
    assert max(p.end for p in tl.pieces) <= tl.end
    for p in tl.pieces:
        assert p.end - p.start >= (0.2 if p.slot == 1 else 0.02)
        if p.slot == 1:
            assert p.cpu < 0.15 and p.faults >= (8 << 20) // mmap.PAGESIZE, p
    busy = tl.busy()
    assert busy[1] >= 0.2 * sum(p.slot == 1 for p in tl.pieces)
    text = tl.text()
    assert "process 0:" in text and "process 1:" in text and "page faults" in text


def test_how_launches_are_cut_into_pieces() -> None:
    wgs = [(x, 0, 0) for x in range(100)]
    pieces = parallel.cut_into_pieces(wgs, 2)  # unbatched: 12 workgroups per piece -> 9 pieces, made 10
    assert list(map(len, pieces)) == [10] * 10
    assert [wg for p in pieces for wg in p] == wgs  # contiguous, in grid order
    assert len(parallel.cut_into_pieces(wgs * 10, 2)) == 2 * parallel.PIECES_PER_PROCESS
    # a batched runner's pieces are whole batches, as many for each process: a piece smaller than a batch would
    # add a batch (its per-op cost) that one process does not run
    assert list(map(len, parallel.cut_into_pieces(wgs[:80], 2, 20))) == [20] * 4  # 4 batches: one per piece
    assert list(map(len, parallel.cut_into_pieces(wgs, 2, 10))) == [10] * 10  # 10 batches, 5 for each process
    assert list(map(len, parallel.cut_into_pieces(wgs, 2, 5))) == [10] * 10  # 20 batches: two in each piece
    # ... cut only where equal shares need it: one batch of 64 for two processes, three batches for two
    assert list(map(len, parallel.cut_into_pieces(wgs[:64], 2, 128))) == [32, 32]
    assert list(map(len, parallel.cut_into_pieces(wgs, 2, 40))) == [25] * 4
    assert list(map(len, parallel.cut_into_pieces(wgs[:3], 3))) == [1, 1, 1]
    assert list(map(len, parallel.cut_into_pieces(wgs[:3], 4))) == [1, 1, 1]


def test_workers_are_reaped_and_leave_no_zombies() -> None:
    """A worker whose result is complete is not waited for on the launch's critical path, but a thread reaps it as
    it exits: no zombie remains after the launches, without any call to reap (issue 27 item 4)."""
    eng, kernel, ops = _engine(3)
    alloc = eng.memory.allocate(128, "device", "buffer")
    wgs = [(x, 0, 0) for x in range(6)]
    before = forked()
    for _ in range(2):
        parallel.run_workgroups(eng, kernel, wgs, _recording_runner(eng, ops, alloc))
    assert forked() == before + 4
    me = os.getpid()

    def zombies() -> list[str]:
        found = []
        for d in Path("/proc").iterdir():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields[0] == "Z" and int(fields[1]) == me:
                found.append(d.name)
        return found

    deadline = time.monotonic() + 30  # generous on a busy machine: exiting takes a worker milliseconds
    while (zombies() or parallel._UNREAPED) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert zombies() == [] and not parallel._UNREAPED


def test_engine_target_parameters_read_in_a_child_are_recorded() -> None:
    eng, kernel, _ = _engine(2)
    parent = os.getpid()

    def runner(subset: list) -> None:
        if os.getpid() != parent:
            eng.target.get("slm.bytes_per_workgroup")
        else:
            time.sleep(0.2)  # the child takes the other piece meanwhile

    eng.target.used.discard("slm.bytes_per_workgroup")
    parallel.run_workgroups(eng, kernel, [(0, 0, 0), (1, 0, 0)], runner)
    assert "slm.bytes_per_workgroup" in eng.target.used


@pytest.mark.parametrize("how,words", [("exit", "exit status 3"), ("kill", "killed by signal SIGKILL")])
def test_a_dying_worker_is_an_error_naming_its_workgroups(how: str, words: str) -> None:
    import re
    eng, kernel, _ = _engine(2)
    parent = os.getpid()

    def runner(subset: list) -> None:
        if os.getpid() != parent:
            if how == "exit":
                os._exit(3)
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(0.2)  # the child takes a piece meanwhile

    with pytest.raises(ExecFault) as info:
        parallel.run_workgroups(eng, kernel, [(x, 0, 0) for x in range(4)], runner)
    msg = info.value.message
    assert "internal error" in msg and words in msg
    assert re.search(r"running workgroup \([123], 0, 0\) \(piece [234] of 4 of this launch\)", msg), msg


def test_other_exceptions_come_back_with_the_workers_traceback() -> None:
    eng, kernel, _ = _engine(2)
    parent = os.getpid()

    def runner(subset: list) -> None:
        if os.getpid() != parent:
            raise KeyError("missing thing")
        time.sleep(0.2)  # the child takes the other piece meanwhile

    with pytest.raises(KeyError, match="missing thing") as info:
        parallel.run_workgroups(eng, kernel, [(0, 0, 0), (1, 0, 0)], runner)
    assert isinstance(info.value.__cause__, parallel.RemoteTraceback)
    assert "raise KeyError" in str(info.value.__cause__)


def test_a_fault_here_stops_the_workers() -> None:
    """This process's piece 0 faults: no piece starts after it, and the children running later pieces (which
    cannot matter) are killed instead of finishing them."""
    eng, kernel, ops = _engine(3)

    def runner(subset: list) -> None:
        if subset[0] == (0, 0, 0):
            time.sleep(0.5)  # the children take their first pieces meanwhile
            raise ExecFault("first workgroup fails", ops[0])
        time.sleep(30)  # the workers would run long: they are killed

    t0 = time.perf_counter()
    with pytest.raises(ExecFault, match="first workgroup fails"):
        parallel.run_workgroups(eng, kernel, [(x, 0, 0) for x in range(6)], runner)
    assert time.perf_counter() - t0 < 10


def test_a_fault_stops_every_process_taking_more_pieces() -> None:
    """A child's piece faults: no process starts another piece, the pieces before it are replayed with their
    output, and its fault is the one raised."""
    eng, kernel, ops = _engine(2)
    parent = os.getpid()
    ran = eng.memory.allocate(16, "device", "buffer")

    def runner(subset: list) -> None:
        x = subset[0][0]
        ran.data[x] = 1
        eng.out.write(f"{x}\n")
        if os.getpid() != parent:
            raise ExecFault(f"workgroup {x} fails", ops[0])
        time.sleep(0.3)

    with pytest.raises(ExecFault) as info:
        parallel.run_workgroups(eng, kernel, [(x, 0, 0) for x in range(8)], runner)  # 8 pieces of 1
    k = int(info.value.message.split()[1])  # the child's one piece
    assert k >= 1, info.value.message  # piece 0 is this process's
    assert eng.out.getvalue() == "".join(f"{x}\n" for x in range(k + 1))  # the faulting piece's output too
    assert ran.data[k + 2:].sum() == 0  # nobody took a piece after the child's fault and this process's next one


def test_changed_bytes_merge_without_touching_others() -> None:
    from xesim.exec import memdiff

    rng = np.random.default_rng(7)
    n = 3 * memdiff.BLOCK + 100
    before = rng.integers(0, 256, n, dtype=np.uint8)
    now = before.copy()
    idx = rng.choice(n, 500, replace=False)
    now[idx] = rng.integers(0, 256, idx.size, dtype=np.uint8)  # some keep their value: not "changed"
    now[memdiff.BLOCK:2 * memdiff.BLOCK] = before[memdiff.BLOCK:2 * memdiff.BLOCK] ^ 0xFF  # a whole block
    now[-100:] = before[-100:] ^ 0x0F  # the last, short block entirely
    target = before.copy()
    untouched = np.flatnonzero(now == before)
    target[untouched] = rng.integers(0, 256, untouched.size, dtype=np.uint8)  # other workers' bytes
    want = np.where(now != before, now, target)
    record = memdiff.changes(now, before)
    blocks, full, _, masks = record
    assert list(blocks) == [0, 1, 2, 3] and list(full) == [False, True, False, True]
    assert np.unpackbits(masks[0]).sum() == np.count_nonzero(now[:memdiff.BLOCK] != before[:memdiff.BLOCK])
    memdiff.merge(target, record)
    np.testing.assert_array_equal(target, want)
    assert memdiff.changes(before, before.copy()) is None
    memdiff.merge(target, None)
    np.testing.assert_array_equal(target, want)


@pytest.mark.parametrize("size", [1, 13, 4096, 2 * 4096 + 8, 3 * 4096 + 5])
@pytest.mark.parametrize("density", [0.001, 0.3, 0.97, 1.0])
def test_changed_byte_records_over_sizes_and_densities(size: int, density: float) -> None:
    """Every mask pattern of the word-wise packing: exactly the changed bytes land, for any size and tail."""
    from xesim.exec import memdiff

    rng = np.random.default_rng(size + int(density * 1000))
    before = rng.integers(0, 256, size, dtype=np.uint8)
    now = before.copy()
    pick = rng.random(size) < density
    now[pick] ^= rng.integers(1, 256, int(pick.sum()), dtype=np.uint8)  # really changed
    target = rng.integers(0, 256, size, dtype=np.uint8)
    want = np.where(pick, now, target)
    record = memdiff.changes(now, before)
    if not pick.any():
        assert record is None
        return
    blocks, full, _, masks = record
    want_blocks = np.flatnonzero([pick[b:b + memdiff.BLOCK].any() for b in range(0, size, memdiff.BLOCK)])
    assert list(blocks) == list(want_blocks)
    for r, b in enumerate(blocks):
        chunk = pick[b * memdiff.BLOCK:(b + 1) * memdiff.BLOCK]
        assert bool(full[r]) == bool(chunk.all())
        assert int(np.unpackbits(masks[r])[:].sum()) >= int(chunk.sum())  # bits past the end count as changed
    memdiff.merge(target, record)
    np.testing.assert_array_equal(target, want)


# ------------------------------------------------------------------------------------------ options
def test_jobs_option_and_environment(monkeypatch, tmp_path: Path) -> None:
    status, _, err = run_xesim(["run", "--jobs", "0", prints_program(tmp_path, 8, 2, 1)])
    assert status == 2 and "positive integer" in err
    monkeypatch.setenv("XESIM_JOBS", "many")
    status, _, err = run_xesim(["run", prints_program(tmp_path, 8, 2, 1)])
    assert status == 1 and "XESIM_JOBS must be a positive integer, not 'many'" in err
    monkeypatch.setenv("XESIM_JOBS", "3")
    assert parallel.jobs_of(make_engine(xesim.load(FILL).module)) == 3
    monkeypatch.delenv("XESIM_JOBS")
    assert parallel.jobs_of(make_engine(xesim.load(FILL).module)) == parallel.usable_cores() >= 1


def test_short_kernels_stop_spreading_after_their_first_launch(monkeypatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PARALLEL_SECONDS", 5.0)
    eng, kernel, ops = _engine(2)
    wgs = [(0, 0, 0), (1, 0, 0)]
    before = forked()
    parallel.run_workgroups(eng, kernel, wgs, lambda subset: None)
    assert forked() == before + 1  # nothing known yet: spread
    parallel.run_workgroups(eng, kernel, wgs, lambda subset: None)
    assert forked() == before + 1  # measured as tiny: one process


@pytest.mark.parametrize("spread", [False, True])
def test_first_launch_with_much_memory_times_workgroup_0_first(monkeypatch, spread: bool) -> None:
    monkeypatch.setattr(parallel, "SECONDS_PER_BYTE", 1e-9 if spread else 1.0)  # 1 MiB: 1 ms or 12 days
    eng, kernel, _ = _engine(2)
    alloc = eng.memory.allocate(1 << 20, "device", "big")
    parent = os.getpid()
    calls = []

    def runner(subset: list) -> None:
        if os.getpid() == parent:
            calls.append([wg[0] for wg in subset])
        for wg in subset:
            alloc.data[wg[0]] = 1 + wg[0]
            time.sleep(0.02)

    before = forked()
    parallel.run_workgroups(eng, kernel, [(x, 0, 0) for x in range(7)], runner)
    np.testing.assert_array_equal(alloc.data[:8], [1, 2, 3, 4, 5, 6, 7, 0])
    if spread:  # 0.02 s per workgroup: spreading the other 6 saves 0.06 s, more than 1 ms of comparing
        # workgroup 0 timed alone, then pieces of one workgroup: this process's first is workgroup 1
        assert calls[:2] == [[0], [1]] and all(len(c) == 1 for c in calls) and forked() == before + 1
    else:
        assert calls == [[0], [1, 2, 3, 4, 5, 6]] and forked() == before


def test_the_memory_a_worker_compares() -> None:
    from xesim.exec.values import MemRefValue
    from xesim.ir import types as T

    eng, _, _ = _engine(2)
    a, b = eng.memory.allocate(64, "device", "a"), eng.memory.allocate(64, "device", "b")
    mv = MemRefValue(eng.memory, a, a.base, 0, (16,), (1,), T.IntegerType(32))
    assert kernel_writes.writable_allocations(eng, [mv, 2.0]) == [a]  # a memref argument: its allocation only
    assert kernel_writes.writable_allocations(eng, [mv, b.base]) == [a, b]  # an integer may be an address: all
    assert kernel_writes.writable_allocations(eng, None) == [a, b]  # arguments unknown: all
    mb = MemRefValue(eng.memory, b, b.base, 0, (16,), (1,), T.IntegerType(32))
    assert kernel_writes.writable_allocations(eng, [mv, mb], frozenset({1})) == [b]  # the kernel only reads a


WRITES = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>, %d: memref<64x64xf16>,
                %e: memref<64x64xf16>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %ta = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>
      %va = xegpu.load_nd %ta[%c0, %c0] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
      %sb = memref.subview %b[0, 0] [8, 16] [1, 1] : memref<64x64xf16> to memref<8x16xf16, strided<[64, 1]>>
      %vb = vector.load %sb[%c0, %c0] : memref<8x16xf16, strided<[64, 1]>>, vector<8x16xf16>
      %tc = xegpu.create_nd_tdesc %c : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>
      %r = scf.for %i = %c0 to %c64 step %c16 iter_args(%t = %tc) -> (!xegpu.tensor_desc<8x16xf16>) {
        %v = xegpu.load_nd %t[%c0, %i] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
        scf.yield %t : !xegpu.tensor_desc<8x16xf16>
      }
      %td = xegpu.create_nd_tdesc %d : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>
      %q = scf.for %i = %c0 to %c64 step %c16 iter_args(%t = %td) -> (!xegpu.tensor_desc<8x16xf16>) {
        scf.yield %t : !xegpu.tensor_desc<8x16xf16>
      }
      xegpu.store_nd %va, %q[%c0, %c0] : vector<8x16xf16>, !xegpu.tensor_desc<8x16xf16>
      %x = vector.load %e[%c0, %c0] : memref<64x64xf16>, vector<8xf16>
      vector.store %x, %e[%c16, %c0] : memref<64x64xf16>, vector<8xf16>
      gpu.return
    }
  }
}
"""


def test_the_arguments_a_kernel_may_write() -> None:
    """Only memory reached by reads alone is left out of a worker's comparison: loads through descriptors,
    views and loop-carried descriptors read; a store through a descriptor that went through a loop, or a
    store next to a load, writes; a non-memref argument always counts (an integer may be an address)."""
    prog = xesim.load(WRITES)
    kernel = prog.module.lookup_symbol(("k", "k"))
    assert kernel_writes.written_arguments(kernel) == frozenset({3, 4, 5})


GEMM_AND_SOFTMAX = """#l = #xegpu.layout<sg_layout = [2, 1], sg_data = [8, 16], inst_data = [8, 16]>
#b = #xegpu.layout<sg_layout = [2, 1], sg_data = [16, 16], inst_data = [16, 16]>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @gemm(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) kernel {
      %cst = arith.constant dense<0.0> : vector<16x16xf32>
      %ta = xegpu.create_nd_tdesc %a : memref<16x16xf16> -> !xegpu.tensor_desc<16x16xf16, #l>
      %tb = xegpu.create_nd_tdesc %b : memref<16x16xf16> -> !xegpu.tensor_desc<16x16xf16, #b>
      %tc = xegpu.create_nd_tdesc %c : memref<16x16xf32> -> !xegpu.tensor_desc<16x16xf32, #l>
      %va = xegpu.load_nd %ta[0, 0] : !xegpu.tensor_desc<16x16xf16, #l> -> vector<16x16xf16>
      %vb = xegpu.load_nd %tb[0, 0] : !xegpu.tensor_desc<16x16xf16, #b> -> vector<16x16xf16>
      %d = xegpu.dpas %va, %vb, %cst {layout_a = #l, layout_b = #b, layout_cd = #l}
          : vector<16x16xf16>, vector<16x16xf16>, vector<16x16xf32> -> vector<16x16xf32>
      xegpu.store_nd %d, %tc[0, 0] : vector<16x16xf32>, !xegpu.tensor_desc<16x16xf32, #l>
      gpu.return
    }
    gpu.func @softmaxish(%a: memref<16x16xf32>, %c: memref<16x16xf32>) kernel {
      %ta = xegpu.create_nd_tdesc %a : memref<16x16xf32> -> !xegpu.tensor_desc<16x16xf32, #l>
      %tc = xegpu.create_nd_tdesc %c : memref<16x16xf32> -> !xegpu.tensor_desc<16x16xf32, #l>
      %va = xegpu.load_nd %ta[0, 0] : !xegpu.tensor_desc<16x16xf32, #l> -> vector<16x16xf32>
      %e = math.exp %va {layout_result_0 = #l} : vector<16x16xf32>
      xegpu.store_nd %e, %tc[0, 0] : vector<16x16xf32>, !xegpu.tensor_desc<16x16xf32, #l>
      gpu.return
    }
  }
}
"""


def test_which_kernels_run_on_threads() -> None:
    """Only kernels whose every vector-touching op has a threaded numba kernel (DPAS, block loads, stores,
    prefetches) or only carries vectors run on numba's threads; element-wise math does not."""
    prog = xesim.load(GEMM_AND_SOFTMAX)
    eng = make_engine(prog.module, out=io.StringIO(), err=io.StringIO())
    assert parallel.threaded_kernel(eng, prog.module.lookup_symbol(("k", "gemm")))
    assert not parallel.threaded_kernel(eng, prog.module.lookup_symbol(("k", "softmaxish")))


def _small_gemm_launches(monkeypatch) -> list[tuple[np.ndarray, dict, set]]:
    """GEMM_AND_SOFTMAX's batched workgroup-level GEMM launched with --jobs 1 and 2: per job count, the result,
    what each of parallel.STATS gained, and numba's thread counts seen by this process's DPAS calls."""
    import numba

    from xesim.numerics import dpas as dpas_mod

    real = dpas_mod._compute
    seen: set = set()

    def spy(*a, **kw):  # noqa: ANN002, ANN003, ANN202
        seen.add(numba.get_num_threads())
        return real(*a, **kw)

    monkeypatch.setattr(dpas_mod, "_compute", spy)
    monkeypatch.setenv("XESIM_GRF", "off")
    # the threads serve batched launches: this is about the fast engine's policy, whatever XESIM_ENGINE the suite
    # runs under (the reference engine runs one subgroup at a time, in one process, with one thread)
    monkeypatch.setenv("XESIM_ENGINE", "fast")
    rng = np.random.default_rng(5)
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((16, 16)).astype(np.float16)
    prog = xesim.load(GEMM_AND_SOFTMAX)
    out = []
    for jobs in (1, 2):
        before, count = dict(parallel.STATS), numba.get_num_threads()
        seen.clear()
        res = xesim.launch(prog, "k::gemm", grid=(3, 1, 1), block=(32, 1, 1),
                           args=[a, b, np.zeros((16, 16), np.float32)], jobs=jobs, grf="off")
        assert numba.get_num_threads() == count  # restored
        out.append((res.arrays[2], {k: parallel.STATS[k] - before[k] for k in before}, set(seen)))
    return out


def test_a_threaded_launch_uses_the_job_count_as_numba_threads(monkeypatch) -> None:
    """A batched workgroup-level GEMM launch with --jobs 2 forks nothing, gives numba two threads while it runs
    (and restores the count after), and computes the same bits as --jobs 1."""
    import numba

    (d1, gained1, seen1), (d2, gained2, seen2) = _small_gemm_launches(monkeypatch)
    assert gained1["threads"] == 0 and gained2["threads"] == 1 and gained2["forked"] == 0
    assert seen1 == {1} and max(seen2) == min(2, numba.config.NUMBA_NUM_THREADS)
    np.testing.assert_array_equal(d1.view(np.uint32), d2.view(np.uint32))


def test_a_crowded_machine_spreads_instead(monkeypatch) -> None:
    """When another process is running at the launch's start, a launch that would run on numba's threads is
    spread over processes instead (a thread sharing a core is off it for milliseconds at every op), with one numba
    thread in this process; same bits."""
    monkeypatch.setattr(parallel, "other_running_threads", lambda: 1)
    (d1, gained1, seen1), (d2, gained2, seen2) = _small_gemm_launches(monkeypatch)
    assert gained1["crowded"] == 0 and gained1["spread"] == 0  # one job: nothing to decide
    assert gained2["threads"] == 0 and gained2["crowded"] == 1 and gained2["spread"] == 1
    assert seen1 == {1} and seen2 == {1}
    np.testing.assert_array_equal(d1.view(np.uint32), d2.view(np.uint32))


def test_other_running_threads_counts_runnable_threads_of_other_processes(tmp_path: Path) -> None:
    """The runnable count of /proc/loadavg less this process's own running threads; 0 when /proc is unreadable."""
    (tmp_path / "loadavg").write_text("0.52 0.48 0.51 4/131 2272\n")
    for tid, state in ((100, "R"), (101, "S"), (102, "R")):
        (tmp_path / "self" / "task" / str(tid)).mkdir(parents=True)
        (tmp_path / "self" / "task" / str(tid) / "stat").write_text(f"{tid} (py) thr) {state} 1 2 3 4\n")
    assert REAL_OTHER_RUNNING_THREADS(str(tmp_path)) == 2  # 4 runnable, 2 of them ours
    (tmp_path / "loadavg").write_text("0.52 0.48 0.51 1/131 2272\n")  # readings race: never below 0
    assert REAL_OTHER_RUNNING_THREADS(str(tmp_path)) == 0
    (tmp_path / "loadavg").write_text("garbled\n")
    assert REAL_OTHER_RUNNING_THREADS(str(tmp_path)) == 0
    assert REAL_OTHER_RUNNING_THREADS(str(tmp_path / "none")) == 0


def test_other_running_threads_sees_a_busy_process() -> None:
    """A spinning process is counted: it is runnable at every reading."""
    import subprocess
    import sys

    spin = subprocess.Popen([sys.executable, "-c", "import sys\nprint('go', flush=True)\nwhile True:\n    pass\n"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert spin.stdout.readline() == "go\n"  # type: ignore[union-attr]
        assert max(REAL_OTHER_RUNNING_THREADS() for _ in range(20)) >= 1
    finally:
        spin.kill()
        spin.wait()


def test_a_bad_job_count_in_the_environment_is_a_diagnostic(monkeypatch) -> None:
    monkeypatch.setenv("XESIM_JOBS", "0")
    with pytest.raises(DiagnosticError, match="XESIM_JOBS must be a positive integer"):
        make_engine(xesim.load(FILL).module)



@pytest.mark.skipif(not parallel.CAN_FORK, reason="worker processes are forked (Linux)")
def test_a_child_killed_inside_numbas_thread_api_does_not_hang_the_parent() -> None:
    """numba takes a process-shared lock at every get_num_threads/set_num_threads; a child killed while holding
    it (the parent kills the later chunks' children when an earlier chunk faults) used to leave the parent's next
    call waiting for ever (a hung test run, 2026-11-22).  The child now uses a lock of its own."""
    import threading

    import numba

    numba.get_num_threads()  # the parent has made numba's shared start-up lock
    par = sys.modules["numba.np.ufunc.parallel"]
    pid = os.fork()
    if pid == 0:  # what a worker does first, then dies inside numba's locked section
        parallel.private_numba_init_lock()
        par._backend_init_process_lock.acquire()
        os.kill(os.getpid(), signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    done = threading.Event()
    threading.Thread(target=lambda: (numba.get_num_threads(), done.set()), daemon=True).start()
    if not done.wait(20):
        par._backend_init_process_lock = threading.RLock()  # unblock the rest of the suite before failing
        pytest.fail("numba.get_num_threads() blocked in the parent after a worker died holding numba's lock")
