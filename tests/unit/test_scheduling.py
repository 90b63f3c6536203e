"""Subgroup scheduling: round-robin and seeded random interleavings at yield points, named barriers with
phases (spec/pvc-hardware.md §4.1), and their errors (issue 6 §1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_xesim

E2E = Path(__file__).resolve().parents[1] / "e2e"


@pytest.mark.parametrize("name", ["sched_slm_exchange_8sg.mlir", "sched_nbarrier_pipeline.mlir"])
def test_synchronised_programs_give_the_same_output_under_20_random_schedules(name: str) -> None:
    path = str(E2E / name)
    status, reference, err = run_xesim(["run", path])
    assert status == 0, err
    for seed in range(20):
        status, out, err = run_xesim(["run", "--schedule", "random", "--seed", str(seed), path])
        assert status == 0, err
        assert out == reference, f"seed {seed}"


def _pipeline(body: str, threads: int = 32, nb_count: int = 1) -> str:
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k(%out: memref<16xi32>) kernel {{
      %buf = memref.alloc() : memref<16xi32, 3>
      %sg = gpu.subgroup_id : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %id = arith.constant 0 : i8
      %two = arith.constant 2 : i8
      xegpu.alloc_nbarrier {nb_count}
      %is_producer = arith.cmpi eq, %sg, %c0 : index
{body}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %cT = arith.constant {threads} : index
    %d = gpu.alloc () : memref<16xi32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%cT, %c1, %c1) args(%d : memref<16xi32>)
    %h = memref.alloc() : memref<16xi32>
    gpu.memcpy %h, %d : memref<16xi32>, memref<16xi32>
    %u = memref.cast %h : memref<16xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }}
  func.func private @printMemrefI32(memref<*xi32>) attributes {{llvm.emit_c_interface}}
}}
"""


RACY = """      scf.if %is_producer {
        scf.for %i = %c0 to %c16 step %c1 {
          %vi = arith.index_cast %i : index to i32
          memref.store %vi, %buf[%i] : memref<16xi32, 3>
        }
      } else {
        scf.for %i = %c0 to %c16 step %c1 {
          %w = memref.load %buf[%i] : memref<16xi32, 3>
          memref.store %w, %out[%i] : memref<16xi32>
        }
      }
      %t = xegpu.create_nd_tdesc %out : memref<16xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.prefetch_nd %t[0] : !xegpu.tensor_desc<16xi32>"""


def test_random_schedules_expose_an_unsynchronised_exchange(tmp_path: Path) -> None:
    f = tmp_path / "racy.mlir"
    f.write_text(_pipeline(RACY))
    outputs = set()
    for seed in range(20):
        status, out, err = run_xesim(["run", "--schedule", "random", "--seed", str(seed), str(f)])
        assert status == 0, err
        outputs.add(out.splitlines()[1])
    # consumer first: zeros; producer first: 0..15
    assert outputs == {"[0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]",
                       "[0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15]"}


@pytest.mark.parametrize(
    "body,threads,nb_count,message",
    [
        ("""      %nb = xegpu.init_nbarrier %id, %two : i8, i8 -> !xegpu.nbarrier
      xegpu.nbarrier_wait %nb : !xegpu.nbarrier""", 32, 1,
         "'xegpu.nbarrier_wait' op named barrier 0: subgroup 0 waits without having signalled"),
        ("""      %n = arith.select %is_producer, %two, %id : i8
      %nb = xegpu.init_nbarrier %id, %n : i8, i8 -> !xegpu.nbarrier
      xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
      xegpu.nbarrier_wait %nb : !xegpu.nbarrier""", 32, 1, "a named barrier needs at least one participating thread"),
        ("""      %three = arith.constant 3 : i8
      %nb = xegpu.init_nbarrier %id, %three : i8, i8 -> !xegpu.nbarrier
      xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
      xegpu.nbarrier_wait %nb : !xegpu.nbarrier""", 32, 1, "deadlock: every live instance is blocked"),
        ("""      %five = arith.constant 5 : i8
      %nb = xegpu.init_nbarrier %five, %two : i8, i8 -> !xegpu.nbarrier""", 32, 1,
         "named barrier id 5 is not below the 1 barriers allocated"),
    ],
    ids=["wait-without-arrive", "bad-participants", "deadlock", "id-out-of-range"],
)
def test_named_barrier_errors(tmp_path: Path, body: str, threads: int, nb_count: int, message: str) -> None:
    f = tmp_path / "nb.mlir"
    f.write_text(_pipeline(body, threads, nb_count))
    status, _, err = run_xesim(["run", str(f)])
    assert status == 1
    assert message in err.splitlines()[0], err


def test_participant_counts_that_disagree_are_reported(tmp_path: Path) -> None:
    body = """      %three = arith.constant 3 : i8
      %n = arith.select %is_producer, %two, %three : i8
      %nb = xegpu.init_nbarrier %id, %n : i8, i8 -> !xegpu.nbarrier
      xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
      xegpu.nbarrier_wait %nb : !xegpu.nbarrier"""
    f = tmp_path / "nb.mlir"
    f.write_text(_pipeline(body))
    status, _, err = run_xesim(["run", str(f)])
    assert status == 1
    assert "named barrier 0: subgroup 1 signals with 3 participants, others with 2" in err.splitlines()[0], err


def test_barriers_reached_at_different_sites_are_reported(tmp_path: Path) -> None:
    body = """      scf.if %is_producer {
        gpu.barrier
      } else {
        gpu.barrier
      }
      %t = xegpu.create_nd_tdesc %out : memref<16xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.prefetch_nd %t[0] : !xegpu.tensor_desc<16xi32>"""
    f = tmp_path / "sites.mlir"
    f.write_text(_pipeline(body))
    status, _, err = run_xesim(["run", str(f)])
    assert status == 1
    first = err.splitlines()[0]
    assert "'gpu.barrier' op deadlock: instances wait at different barriers" in first, err
    assert f"subgroup 0: waiting at gpu.barrier ({f}:14:9)" in first and f"subgroup 1: waiting at gpu.barrier ({f}:16:9)" in first


def test_slm_overflow_is_a_located_error(tmp_path: Path) -> None:
    body = """      %big = memref.alloc() : memref<40000xf32, 3>
      %t = xegpu.create_nd_tdesc %out : memref<16xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.prefetch_nd %t[0] : !xegpu.tensor_desc<16xi32>"""
    f = tmp_path / "slm.mlir"
    f.write_text(_pipeline(body))
    status, _, err = run_xesim(["run", str(f)])
    assert status == 1
    first = err.splitlines()[0]
    assert first.startswith(f"{f}:13:7: error: 'memref.alloc' op"), err
    assert "exceeds the 131072-byte capacity" in first, err


def test_a_barrier_some_subgroups_never_reach_is_a_deadlock(tmp_path: Path) -> None:
    # only the producer subgroup reaches the barrier; the other finishes: on hardware the workgroup hangs
    body = """      scf.if %is_producer {
        gpu.barrier
      }
      %t = xegpu.create_nd_tdesc %out : memref<16xi32> -> !xegpu.tensor_desc<16xi32>
      xegpu.prefetch_nd %t[0] : !xegpu.tensor_desc<16xi32>"""
    f = tmp_path / "never.mlir"
    f.write_text(_pipeline(body))
    status, _, err = run_xesim(["run", str(f)])
    assert status == 1
    first = err.splitlines()[0]
    assert "'gpu.barrier' op deadlock: a barrier can never complete because some instances finished" in first, err
    assert "subgroup 1: finished" in first or "subgroup 0: finished" in first, err


def test_named_barrier_phases_of_many_signals_at_once() -> None:
    """NamedBarriers.arrive_many (a lockstep batch's subgroups signalling together) counts signals one after
    another (spec/pvc-hardware.md §4.1): with 3 participants, 5 signals complete phase 0 and count 2 in phase 1;
    a thread signalling again before its wait, or waiting without a signal, is an error."""
    from xesim.exec.faults import ExecFault
    from xesim.exec.scheduler import NamedBarriers

    bars = NamedBarriers(lambda i: f"subgroup {i}")
    bars.arrive_many([0, 1, 2, 3, 4], 7, 3)
    nb, last = bars.take_many([0, 1, 2], 7)
    assert (nb.phase, nb.arrived, last) == (1, [3, 4], 0)  # phase 0 complete: these waits return
    with pytest.raises(ExecFault, match="subgroup 3 signals again before waiting for phase 1"):
        bars.arrive_many([5, 3], 7, 3)
    assert bars.take(4, 7) == (nb, 1) and nb.phase == 1  # phase 1 has 2 of 3: its waits block
    bars.arrive(6, 7, 3)
    assert nb.phase == 2
    with pytest.raises(ExecFault, match="subgroup 0 waits without having signalled"):
        bars.take_many([0], 7)
