"""Batched kernel execution (xesim/exec/batch.py; issue 7 §3): many subgroups / workgroups execute each op
together, and the result must be bit-identical to running the instances one after another — memory, output,
warnings and faults — including when the batch diverges or faults and falls back."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.conftest import in_sweeps, run_xesim
from xesim.exec import batch, blocks

ROOT = Path(__file__).resolve().parents[2]
#: programs whose subgroups race on purpose (the negative examples of --check-races): their result depends on the
#: interleaving, and lockstep execution is a different interleaving from running subgroups one after another
RACY = {"race_slm_exchange_racy.mlir"}
KERNEL_PROGRAMS = sorted(
    p for p in [*(ROOT / "examples").glob("*.mlir"), *(ROOT / "tests" / "e2e").glob("*.mlir")]
    if "gpu.func" in p.read_text() and p.name not in RACY and in_sweeps(p)
)


@pytest.fixture(autouse=True)
def _fast_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batching is off under the register-file model the suite normally checks (per-instance registers)."""
    monkeypatch.setenv("XESIM_GRF", "off")
    monkeypatch.setenv("XESIM_JOBS", "1")
    monkeypatch.setenv("XESIM_ENGINE", "fast")


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch, batched: bool) -> tuple[tuple, dict]:
    monkeypatch.setenv("XESIM_BATCH", "2048" if batched else "1")
    before = dict(batch.STATS)
    result = run_xesim(argv)
    return result, {k: batch.STATS[k] - before[k] for k in before}


@pytest.mark.parametrize("path", KERNEL_PROGRAMS, ids=lambda p: p.name)
def test_every_kernel_program_gives_the_same_result_batched(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ref, stats = _run(["run", str(path)], monkeypatch, batched=False)
    assert stats["batched"] == 0
    got, _ = _run(["run", str(path)], monkeypatch, batched=True)
    assert got == ref


@pytest.mark.parametrize("name", ["examples/sg_gemm_f16.mlir", "tests/e2e/xegpu_vc_packed.mlir",
                                  "tests/e2e/wg_gemm_256x256_sg8x4.mlir", "examples/lane_gemm_f16.mlir",
                                  "examples/lane_saxpy.mlir"])
def test_programs_of_every_level_really_run_batched(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The equality above is not vacuous: SG, VC, WG and lane-level (SIMT) programs take the batched path without
    falling back."""
    (status, _, err), stats = _run(["run", str(ROOT / name)], monkeypatch, batched=True)
    assert status == 0, err
    assert stats["batched"] >= 1 and stats["fallback"] == 0


def _gemm_like(body: str, grid: tuple[int, int] = (4, 2), m: int = 32, n: int = 32) -> str:
    """A kernel over an m x n f32 matrix (one 8x16 tile per workgroup) whose body is ``body``; main fills the
    input with i*100+j, launches, and prints the output."""
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @f(%in: memref<{m}x{n}xf32>, %out: memref<{m}x{n}xf32>) kernel {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %r = arith.muli %bx, %c8 : index
      %c = arith.muli %by, %c16 : index
      %ti = xegpu.create_nd_tdesc %in : memref<{m}x{n}xf32> -> !xegpu.tensor_desc<8x16xf32>
      %to = xegpu.create_nd_tdesc %out : memref<{m}x{n}xf32> -> !xegpu.tensor_desc<8x16xf32>
{body}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cm = arith.constant {m} : index
    %cn = arith.constant {n} : index
    %gx = arith.constant {grid[0]} : index
    %gy = arith.constant {grid[1]} : index
    %c16 = arith.constant 16 : index
    %c100 = arith.constant 100 : index
    %A = memref.alloc() : memref<{m}x{n}xf32>
    scf.for %i = %c0 to %cm step %c1 {{
      scf.for %j = %c0 to %cn step %c1 {{
        %t = arith.muli %i, %c100 : index
        %s = arith.addi %t, %j : index
        %si = arith.index_cast %s : index to i32
        %v = arith.sitofp %si : i32 to f32
        memref.store %v, %A[%i, %j] : memref<{m}x{n}xf32>
      }}
    }}
    %dA = gpu.alloc () : memref<{m}x{n}xf32>
    %dB = gpu.alloc () : memref<{m}x{n}xf32>
    gpu.memcpy %dA, %A : memref<{m}x{n}xf32>, memref<{m}x{n}xf32>
    gpu.launch_func @k::@f blocks in (%gx, %gy, %c1) threads in (%c16, %c1, %c1) args(%dA : memref<{m}x{n}xf32>, %dB : memref<{m}x{n}xf32>)
    gpu.wait
    %B = memref.alloc() : memref<{m}x{n}xf32>
    gpu.memcpy %B, %dB : memref<{m}x{n}xf32>, memref<{m}x{n}xf32>
    %cast = memref.cast %B : memref<{m}x{n}xf32> to memref<*xf32>
    call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
    return
  }}
  func.func private @printMemrefF32(memref<*xf32>) attributes {{llvm.emit_c_interface}}
}}
"""


def _matrix(text: str) -> list[list[float]]:
    rows = text[text.index("data =") + 6:].strip().replace("[", " ").replace("]", " ").split("\n")
    return [[float(x) for x in r.replace(",", " ").split()] for r in rows if r.strip()]


def _both_ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[tuple, dict, tuple]:
    f = tmp_path / "p.mlir"
    f.write_text(text)
    ref, _ = _run(["run", str(f)], monkeypatch, batched=False)
    got, stats = _run(["run", str(f)], monkeypatch, batched=True)
    return ref, stats, got


COPY = """      %v = xegpu.load_nd %ti[%r, %c] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %w = arith.addf %v, %v : vector<8x16xf32>
      xegpu.store_nd %w, %to[%r, %c] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>"""


def test_tile_copy_is_batched_and_exact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ref, stats, got = _both_ways(tmp_path, monkeypatch, _gemm_like(COPY))
    assert ref[0] == 0 and got == ref and stats == {"batched": 1, "fallback": 0}
    out = _matrix(got[1])
    assert out[5][20] == 2 * (5 * 100 + 20) and out[31][31] == 2 * 3131  # B = 2 A, independently derived


def test_partly_outside_tiles_mix_batched_and_per_instance_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 20x24 matrix covered by 8x16 tiles: some instances' blocks reach outside the surface (zero padding on
    load, dropped on store, spec §1.4); the others are gathered in one call."""
    ref, stats, got = _both_ways(tmp_path, monkeypatch, _gemm_like(COPY, grid=(3, 2), m=20, n=24))
    assert ref[0] == 0 and got == ref and stats == {"batched": 1, "fallback": 0}
    out = _matrix(got[1])
    assert out[19][23] == 2 * 1923 and out[0][0] == 0 and out[17][5] == 2 * 1705


def test_divergent_control_flow_runs_batched_under_masks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Instances whose scf.if conditions differ stay in the batch: each branch runs with the instances that take
    it (the active mask), and every instance gets the result of its own branch."""
    body = """      %bxi = arith.index_cast %bx : index to i32
      %z = arith.constant 0 : i32
      %odd = arith.cmpi ne, %bxi, %z : i32
      %v = xegpu.load_nd %ti[%r, %c] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %w = scf.if %odd -> (vector<8x16xf32>) {
        %d = arith.addf %v, %v : vector<8x16xf32>
        scf.yield %d : vector<8x16xf32>
      } else {
        scf.yield %v : vector<8x16xf32>
      }
      xegpu.store_nd %w, %to[%r, %c] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>"""
    ref, stats, got = _both_ways(tmp_path, monkeypatch, _gemm_like(body))
    assert ref[0] == 0 and got == ref and stats == {"batched": 1, "fallback": 0}
    out = _matrix(got[1])
    assert out[3][3] == 303 and out[9][3] == 2 * 903  # workgroup x 0 copies, the others double


ACCUMULATE_THEN_DIVERGE = """      %v = xegpu.load_nd %ti[%r, %c] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %o = xegpu.load_nd %to[%r, %c] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %s = arith.addf %o, %v : vector<8x16xf32>
      xegpu.store_nd %s, %to[%r, %c] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      %bxi = arith.index_cast %bx : index to i32
      %z = arith.constant 0 : i32
      %odd = arith.cmpi ne, %bxi, %z : i32
      scf.if %odd {
        %o2 = xegpu.load_nd %to[%r, %c] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
        %d = arith.addf %o2, %v : vector<8x16xf32>
        xegpu.store_nd %d, %to[%r, %c] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      }"""


def test_a_worker_rolls_back_a_batch_that_stored_before_diverging(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs 2: each worker's batch adds into the output, then diverges and is rolled back.  A worker's roll-back
    snapshot is its own copy of memory from before its chunk (xesim/exec/parallel.py hands it to the batched
    runner); without a correct roll-back the re-run would add twice."""
    from xesim.exec import parallel

    f = tmp_path / "p.mlir"
    f.write_text(_gemm_like(ACCUMULATE_THEN_DIVERGE))
    ref, _ = _run(["run", str(f)], monkeypatch, batched=False)
    monkeypatch.setenv("XESIM_JOBS", "2")
    spread = parallel.STATS["spread"]
    got, _ = _run(["run", str(f)], monkeypatch, batched=True)
    assert parallel.STATS["spread"] == spread + 1  # the launch really went to two processes
    assert ref[0] == 0 and got == ref
    out = _matrix(got[1])
    assert out[3][3] == 303 and out[9][3] == 2 * 903 and out[31][20] == 2 * 3120  # bx = 0 once, the others twice


def test_a_fault_in_a_later_workgroup_is_reported_exactly_as_without_batching(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """boundary_check = false and a block reaching outside the surface in the last workgroup only: the batch
    faults, memory is restored and the workgroups run one by one, so the error names the same workgroup."""
    body = """      %tb = xegpu.create_nd_tdesc %in : memref<32x32xf32> -> !xegpu.tensor_desc<8x16xf32, #xegpu.block_tdesc_attr<boundary_check = false>>
      %r2 = arith.addi %r, %bx : index
      %v = xegpu.load_nd %tb[%r2, %c] : !xegpu.tensor_desc<8x16xf32, #xegpu.block_tdesc_attr<boundary_check = false>> -> vector<8x16xf32>
      xegpu.store_nd %v, %to[%r, %c] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>"""
    ref, stats, got = _both_ways(tmp_path, monkeypatch, _gemm_like(body))
    assert ref[0] != 0 and "workgroup (3, 0, 0)" in ref[2] and "boundary_check" in ref[2]
    assert got == ref and stats == {"batched": 0, "fallback": 1}


def test_overlapping_stores_keep_instance_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every workgroup stores its tile at row 0 (a race the program makes on purpose): the stores run instance by
    instance in order, so the last workgroup's tile remains — as when the workgroups run one after another."""
    body = """      %v = xegpu.load_nd %ti[%r, %c] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      xegpu.store_nd %v, %to[%c0, %c] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>"""
    ref, stats, got = _both_ways(tmp_path, monkeypatch, _gemm_like(body))
    assert ref[0] == 0 and got == ref and stats == {"batched": 1, "fallback": 0}
    assert _matrix(got[1])[0][0] == 2400  # workgroup (3, 0): rows 24..31 of A


def test_gemm_with_k_loop_and_vnni_is_batched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "tests" / "e2e" / "xegpu_gemm_bf16_kloop.mlir").read_text()
    ref, stats, got = _both_ways(tmp_path, monkeypatch, text)
    assert ref[0] == 0 and got == ref and stats["batched"] >= 1 and stats["fallback"] == 0


@pytest.mark.parametrize("name", ["sched_slm_exchange_8sg.mlir",
                                  "race_slm_exchange_barrier.mlir", "race_slm_exchange_nbarrier.mlir"])
def test_synchronised_kernels_run_batched_in_lockstep(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Subgroups that meet at gpu.barrier or at named barriers (every one signalling and waiting in the same
    step) run as one batch in lockstep: no fallback, and the result of running them as coroutines."""
    ref, stats, got = _both_ways(tmp_path, monkeypatch, (ROOT / "tests" / "e2e" / name).read_text())
    assert ref[0] == 0 and got == ref and stats["batched"] >= 1 and stats["fallback"] == 0


def test_a_pipeline_between_divergent_subgroups_runs_as_interleaved_groups(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The producer and the consumer of a named-barrier pipeline take different branches (scf.if on the subgroup
    id) around the barriers: the branches run as two groups that wait for each other at the named barriers
    (xesim/exec/lockstep.py), inside the batch, with the result of running the subgroups as coroutines."""
    ref, stats, got = _both_ways(tmp_path, monkeypatch, (ROOT / "tests" / "e2e" / "sched_nbarrier_pipeline.mlir").read_text())
    assert ref[0] == 0 and got == ref and stats == {"batched": 1, "fallback": 0}


def test_groups_that_cannot_meet_fall_back_to_the_coroutines_deadlock_report(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A gpu.barrier in one branch only: the groups can never meet in lockstep, the batch falls back, and running
    the subgroups as coroutines reports the deadlock (the same report as without batching)."""
    text = (ROOT / "tests" / "e2e" / "sched_nbarrier_pipeline.mlir").read_text()
    text = text.replace("""        scf.if %is_producer {
        } else {""", """        scf.if %is_producer {
          gpu.barrier
        } else {""", 1)
    ref, stats, got = _both_ways(tmp_path, monkeypatch, text)
    assert ref[0] == 1 and "deadlock" in ref[2]
    assert got == ref and stats == {"batched": 0, "fallback": 1}


def test_workgroups_sharing_a_batch_each_reach_their_own_shared_local_memory(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Four workgroups that use SLM run as one batch (no fallback), their SLM stored once per workgroup: stores with
    varying indices, loads with the same indices in every workgroup (axis-aware memref.load, lifted vector.load)
    and the matrix ops each reach the instance's own workgroup's copy (tests/e2e/slm_banks_4wg.mlir checks the
    values against formulas)."""
    ref, stats, got = _both_ways(tmp_path, monkeypatch, (ROOT / "tests" / "e2e" / "slm_banks_4wg.mlir").read_text())
    assert ref[0] == 0 and got == ref and stats == {"batched": 1, "fallback": 0}


OVERLAPPING_MATRIX_STORES = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%out: memref<8x16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %sg = gpu.subgroup_id : index
      %bx = gpu.block_id x
      %buf = memref.alloc() : memref<128xi8, 3>
      %md = xegpu.create_mem_desc %buf : memref<128xi8, 3> -> !xegpu.mem_desc<2x16xi32>
      %s = arith.index_cast %sg : index to i32
      %b = arith.index_cast %bx : index to i32
      %c10 = arith.constant 10 : i32
      %b10 = arith.muli %b, %c10 : i32
      %v = arith.addi %s, %b10 : i32
      %tile = vector.broadcast %v : i32 to vector<2x16xi32>
      xegpu.store_matrix %tile, %md[%c0, %c0] : vector<2x16xi32>, !xegpu.mem_desc<2x16xi32>, index, index
      gpu.barrier
      %got = xegpu.load_matrix %md[%c0, %c0] : !xegpu.mem_desc<2x16xi32>, index, index -> vector<2x16xi32>
      %c2 = arith.constant 2 : index
      %row = arith.muli %bx, %c2 : index
      %to = xegpu.create_nd_tdesc %out : memref<8x16xi32> -> !xegpu.tensor_desc<2x16xi32>
      xegpu.store_nd %got, %to[%row, %c0] : vector<2x16xi32>, !xegpu.tensor_desc<2x16xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c48 = arith.constant 48 : index
    %d = gpu.alloc () : memref<8x16xi32>
    gpu.launch_func @k::@f blocks in (%c4, %c1, %c1) threads in (%c48, %c1, %c1) args(%d : memref<8x16xi32>)
    %h = memref.alloc() : memref<8x16xi32>
    gpu.memcpy %h, %d : memref<8x16xi32>, memref<8x16xi32>
    %u = memref.cast %h : memref<8x16xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
}
"""


def test_overlapping_matrix_stores_keep_instance_order_in_each_workgroup(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every subgroup of a workgroup stores its own value into the same SLM block (a race the program asks for):
    batched, the last subgroup's store wins in each workgroup's copy, as when the subgroups run one after another
    (subgroup 2 of workgroup b stored 10 b + 2)."""
    ref, stats, got = _both_ways(tmp_path, monkeypatch, OVERLAPPING_MATRIX_STORES)
    assert ref[0] == 0 and got == ref and stats == {"batched": 1, "fallback": 0}
    assert _matrix(got[1]) == [[10.0 * (r // 2) + 2] * 16 for r in range(8)]


IOTA8 = ", ".join("[" + ", ".join(str(r * 8 + c) for c in range(8)) + "]" for r in range(8))


def _blocked_matrix_program(layout: str) -> str:
    """Three workgroups of four subgroups: subgroup s of workgroup b stores the 8x8 tile 25 (4 b + s) + 8 r + c at
    [8 (s mod 2), 8 (s / 2)] of an SLM matrix with ``layout``, the even subgroups also at [0, 16 + 8 (s / 2)] (under
    a divergent scf.if); after the barrier each loads the 8x8 block at [4, 4 + 4 s], across block borders, into rows
    8 (4 b + s) of the output."""
    md = f"!xegpu.mem_desc<16x32xi32{layout}>"
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @f(%out: memref<96x8xi32>) kernel {{
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %sg = gpu.subgroup_id : index
      %bx = gpu.block_id x
      %buf = memref.alloc() : memref<2048xi8, 3>
      %md = xegpu.create_mem_desc %buf : memref<2048xi8, 3> -> {md}
      %b4 = arith.muli %bx, %c4 : index
      %id = arith.addi %b4, %sg : index
      %idi = arith.index_cast %id : index to i32
      %c25 = arith.constant 25 : i32
      %v = arith.muli %idi, %c25 : i32
      %iota = arith.constant dense<[{IOTA8}]> : vector<8x8xi32>
      %vb = vector.broadcast %v : i32 to vector<8x8xi32>
      %tile = arith.addi %vb, %iota : vector<8x8xi32>
      %sr = arith.remui %sg, %c2 : index
      %sc = arith.divui %sg, %c2 : index
      %r0 = arith.muli %sr, %c8 : index
      %k0 = arith.muli %sc, %c8 : index
      xegpu.store_matrix %tile, %md[%r0, %k0] : vector<8x8xi32>, {md}, index, index
      %even = arith.cmpi eq, %sr, %c0 : index
      scf.if %even {{
        %k1 = arith.addi %k0, %c16 : index
        xegpu.store_matrix %tile, %md[%c0, %k1] : vector<8x8xi32>, {md}, index, index
      }}
      gpu.barrier
      %s4 = arith.muli %sg, %c4 : index
      %lc = arith.addi %s4, %c4 : index
      %got = xegpu.load_matrix %md[%c4, %lc] : {md}, index, index -> vector<8x8xi32>
      %row = arith.muli %id, %c8 : index
      %to = xegpu.create_nd_tdesc %out : memref<96x8xi32> -> !xegpu.tensor_desc<8x8xi32>
      xegpu.store_nd %got, %to[%row, %c0] : vector<8x8xi32>, !xegpu.tensor_desc<8x8xi32>
      gpu.return
    }}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %d = gpu.alloc () : memref<96x8xi32>
    gpu.launch_func @k::@f blocks in (%c3, %c1, %c1) threads in (%c64, %c1, %c1) args(%d : memref<96x8xi32>)
    %h = memref.alloc() : memref<96x8xi32>
    gpu.memcpy %h, %d : memref<96x8xi32>, memref<96x8xi32>
    %u = memref.cast %h : memref<96x8xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }}
  func.func private @printMemrefI32(memref<*xi32>) attributes {{llvm.emit_c_interface}}
}}
"""


@pytest.mark.parametrize("layout", ["", ", #xegpu.mem_layout<stride = [1, 16]>",
                                    ", #xegpu.mem_layout<stride = [1, 16], block = [8, 8]>",
                                    ", #xegpu.mem_layout<block = [8, 8]>"])
def test_matrix_blocks_of_every_layout_gather_per_workgroup(layout: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Batched load_matrix/store_matrix (one offset pattern per op without blocks, offsets per element with them;
    stores under a divergent mask) give what running the subgroups one after another gives, for row-major,
    column-major and blocked layouts, and the values of the formula (a layout only moves bytes within a workgroup's
    SLM)."""
    ref, stats, got = _both_ways(tmp_path, monkeypatch, _blocked_matrix_program(layout))
    assert ref[0] == 0, ref[2]
    assert got == ref and stats == {"batched": 1, "fallback": 0}
    tile = {}  # (workgroup, row, col) of the 16x32 matrix -> value
    for b in range(3):
        for s in range(4):
            for r in range(8):
                for c in range(8):
                    v = 25 * (4 * b + s) + 8 * r + c
                    tile[b, 8 * (s % 2) + r, 8 * (s // 2) + c] = v
                    if s % 2 == 0:
                        tile[b, r, 16 + 8 * (s // 2) + c] = v
    want = [[float(tile.get((b, 4 + r, 4 + 4 * s + c), 0)) for c in range(8)]
            for b in range(3) for s in range(4) for r in range(8)]
    assert _matrix(got[1]) == want


def test_banked_memory_is_never_read_for_all_workgroups_at_once() -> None:
    """The safety net of banked SLM: each bank has its own bytes; an access made for no particular instance (no
    ``kstate.bank``, no ``kstate.slot``) stops the batch instead of reading some workgroup's copy."""
    from types import SimpleNamespace

    from xesim.exec.axis import Diverged, bank_selector
    from xesim.hw.memory import BankedSpace

    ks = SimpleNamespace(bank=None, slot=None)
    space = BankedSpace(3, bank_selector(ks, 4), "shared local memory", base=0x1000, capacity=1024)
    a = space.allocate(16, "slm")
    for slot in range(12):  # slots 4 b .. 4 b + 3 are workgroup b's
        ks.slot = slot
        space.write(a.base + slot % 4, np.array([slot], np.uint8))
    assert a.rows[:, :4].tolist() == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    ks.slot, ks.bank = None, 2
    assert space.read(a.base, 4).tolist() == [8, 9, 10, 11]
    ks.bank = None
    with pytest.raises(Diverged):
        space.read(a.base, 4)


def test_kernels_with_atomics_are_not_batched() -> None:
    from xesim import api
    from xesim.api import make_engine
    from xesim.exec.levels import classify_kernel

    prog = api.load(str(ROOT / "tests" / "e2e" / "xegpu_atomics_vc.mlir"))
    engine = make_engine(prog.module, grf="off")
    kernel = next(op for op in prog.walk() if op.name == "gpu.func")
    assert batch.batchable(engine, kernel, classify_kernel(kernel)[0]).startswith("contains xegpu.atomic_rmw")


LANE_GEMM = (ROOT / "examples" / "lane_gemm_f16.mlir").read_text()


def test_lane_level_batches_keep_subgroups_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A SIMT GEMM over many workgroups: B subgroups' fragments share one value (slot b*16 + lane); each
    subgroup's block loads, DPAS and stores must still use its own tile."""
    ref, stats, got = _both_ways(tmp_path, monkeypatch, LANE_GEMM)
    assert ref[0] == 0 and got == ref and stats == {"batched": 1, "fallback": 0}


def test_lane_level_offsets_that_differ_inside_a_subgroup_fall_back(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A block load whose offset depends on the lane id is illegal (collective op); batched execution must not
    hide it: the batch falls back and the reference path reports it as it always did."""
    text = LANE_GEMM.replace("%bx = gpu.block_id x", "%bx0 = gpu.block_id x\n      %lid = gpu.lane_id\n"
                             "      %bx = arith.addi %bx0, %lid : index", 1)
    assert text != LANE_GEMM
    ref, stats, got = _both_ways(tmp_path, monkeypatch, text)
    assert ref[0] != 0 and "differs between the active lanes" in ref[2]
    assert got == ref and stats == {"batched": 0, "fallback": 1}


SHUFFLE_REDUCTION = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%out: memref<256xi32>) kernel {
      %g = gpu.global_id x
      %gi = arith.index_cast %g : index to i32
      %w = arith.constant 16 : i32
      %c8 = arith.constant 8 : i32
      %c4 = arith.constant 4 : i32
      %c2 = arith.constant 2 : i32
      %c1 = arith.constant 1 : i32
      %s1, %ok1 = gpu.shuffle xor %gi, %c8, %w : i32
      %a1 = arith.addi %gi, %s1 : i32
      %s2, %ok2 = gpu.shuffle xor %a1, %c4, %w : i32
      %a2 = arith.addi %a1, %s2 : i32
      %s3, %ok3 = gpu.shuffle xor %a2, %c2, %w : i32
      %a3 = arith.addi %a2, %s3 : i32
      %s4, %ok4 = gpu.shuffle xor %a3, %c1, %w : i32
      %a4 = arith.addi %a3, %s4 : i32
      %d, %okd = gpu.shuffle down %gi, %c1, %w : i32
      %okd32 = arith.extui %okd : i1 to i32
      %c1000 = arith.constant 1000 : i32
      %flag = arith.muli %okd32, %c1000 : i32
      %r0 = arith.addi %a4, %flag : i32
      %r = arith.addi %r0, %d : i32
      memref.store %r, %out[%g] : memref<256xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %o = gpu.alloc () : memref<256xi32>
    gpu.launch_func @k::@f blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%o : memref<256xi32>)
    gpu.wait
    %h = memref.alloc() : memref<256xi32>
    gpu.memcpy %h, %o : memref<256xi32>, memref<256xi32>
    %cast = memref.cast %h : memref<256xi32> to memref<*xi32>
    call @printMemrefI32(%cast) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
}
"""


def test_lane_level_shuffles_stay_inside_each_subgroup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """16 subgroups batched together: an xor butterfly sums each subgroup's 16 global ids, a shuffle down reads
    the next lane (invalid in lane 15: own value, valid flag 0)."""
    ref, stats, got = _both_ways(tmp_path, monkeypatch, SHUFFLE_REDUCTION)
    assert ref[0] == 0 and got == ref and stats == {"batched": 1, "fallback": 0}
    vals = [int(x) for x in got[1][got[1].index("data =") + 6:].replace("[", " ").replace("]", " ")
            .replace(",", " ").split()]
    for g in range(256):
        base = g - g % 16
        total = sum(range(base, base + 16))
        down = g + 1 if g % 16 != 15 else g
        assert vals[g] == total + (1000 if g % 16 != 15 else 0) + down, g


def test_threaded_block_copies_move_the_same_units() -> None:
    """The numba-threaded gather / scatter of a batch's blocks (used when --jobs gives numba several threads)
    copy exactly what the one-thread loops copy, for chunk counts that do and do not divide the batch."""
    rng = np.random.default_rng(3)
    flat = rng.integers(0, 2**16, 64 * 200, dtype=np.uint16)
    start = np.array([64 * r + c for r, c in rng.integers(0, 40, (7, 2))], np.int64)
    want = np.empty((7, 5, 9), np.uint16)
    blocks._gather_blocks(flat, start, 64, want)
    assert (want[3, 2] == flat[start[3] + 2 * 64:start[3] + 2 * 64 + 9]).all()  # row 2 of block 3, by hand
    for chunks in (1, 2, 3, 7):
        got = np.empty_like(want)
        blocks._copy_blocks_parallel(flat, start, 64, got, False, 2, chunks)
        np.testing.assert_array_equal(got, want)
    starts = np.arange(7, dtype=np.int64) * 640 + 3  # disjoint blocks
    tiles = rng.integers(0, 2**16, (7, 5, 9), dtype=np.uint16)
    ref = flat.copy()
    blocks._scatter_blocks(ref, starts, 64, tiles)
    assert (ref[starts[6] + 4 * 64:starts[6] + 4 * 64 + 9] == tiles[6, 4]).all()
    for chunks in (2, 3, 7):
        got = flat.copy()
        blocks._copy_blocks_parallel(got, starts, 64, tiles, True, 2, chunks)
        np.testing.assert_array_equal(got, ref)


SLICES = """      %v = xegpu.load_nd %ti[%r, %c] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %z = arith.constant dense<0.0> : vector<8x16xf32>
      %mid = vector.extract_strided_slice %v {offsets = [2, 0], sizes = [4, 16], strides = [1, 1]} : vector<8x16xf32> to vector<4x16xf32>
      %lo = vector.insert_strided_slice %mid, %z {offsets = [1, 0], strides = [1, 1]} : vector<4x16xf32> into vector<8x16xf32>
      %row = vector.extract %v[0] : vector<16xf32> from vector<8x16xf32>
      %w = vector.insert %row, %lo [7] : vector<16xf32> into vector<8x16xf32>
      xegpu.store_nd %w, %to[%r, %c] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>"""


def test_static_vector_slicing_is_batched_and_exact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """vector.extract / insert / extract_strided_slice / insert_strided_slice with static positions run once on
    the batch's stack (xesim/exec/ops/vector.py along_axis_read/write), not once per instance, with the per-instance result."""
    from xesim.exec import axis

    calls = []
    each = axis.run_per_slot
    monkeypatch.setattr(axis, "run_per_slot", lambda *a, **k: calls.append(a) or each(*a, **k))
    ref, stats, got = _both_ways(tmp_path, monkeypatch, _gemm_like(SLICES))
    assert ref[0] == 0 and got == ref and stats == {"batched": 1, "fallback": 0}
    per_instance_calls = len(calls)
    calls.clear()
    _both_ways(tmp_path, monkeypatch, _gemm_like(SLICES.replace("%v[0]", "%v[%c0]")))  # dynamic: per instance
    assert per_instance_calls == 0 and len(calls) == 1
    out = _matrix(got[1])
    # tile row t of the workgroup at row r0: 1 <= t <= 4 -> A[r0 + t + 1], t = 7 -> A[r0], else 0; A = 100 i + j
    assert out[0][5] == 0 and out[1][5] == 205 and out[4][2] == 502 and out[6][9] == 0 and out[7][4] == 4
    assert out[25][17] == 2617 and out[31][20] == 2420


DESC_OFFSETS = """      %ti2 = xegpu.create_nd_tdesc %in[%r, %c] : memref<32x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      %to2 = xegpu.create_nd_tdesc %out[%r, %c] : memref<32x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      %v = xegpu.load_nd %ti2 : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %w = arith.addf %v, %v : vector<8x16xf32>
      xegpu.store_nd %w, %to2 : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>"""


def test_descriptors_that_differ_only_in_offsets_are_made_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """create_nd_tdesc with per-instance offsets (the legacy form) builds instance 0's descriptor and the
    others' offsets, not one descriptor per instance; the result is the per-instance one."""
    from xesim.exec import axis

    calls = []
    each = axis.run_per_slot
    monkeypatch.setattr(axis, "run_per_slot", lambda *a, **k: calls.append(a) or each(*a, **k))
    ref, stats, got = _both_ways(tmp_path, monkeypatch, _gemm_like(DESC_OFFSETS))
    assert ref[0] == 0 and got == ref and stats == {"batched": 1, "fallback": 0}
    assert calls == []
    out = _matrix(got[1])
    assert out[5][20] == 2 * 520 and out[31][31] == 2 * 3131 and out[9][3] == 2 * 903


def test_dpas_ops_sharing_a_b_fragment_decode_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The VC GEMM of tools/bench_programs.py: eight DPAS per K step share two B fragments, so a batched step
    unpacks and decodes B twice, not eight times (xesim/exec/ops/xegpu_dpas.py ``_RECENT_B``, ``dpas(b_token=...)``);
    the output is the exact product's and the one without batching."""
    import importlib.util

    from xesim.numerics import dpas as dpas_mod

    spec = importlib.util.spec_from_file_location("bench_programs", ROOT / "tools" / "bench_programs.py")
    bp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bp)
    p = {"n": 256, "level": "vc", "type": "bf16"}
    decodes = []
    real = dpas_mod._decode16_rows
    monkeypatch.setattr(dpas_mod, "_decode16_rows", lambda *a: decodes.append(1) or real(*a))
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 0)  # the row path at this small size
    monkeypatch.setattr(dpas_mod.numba, "get_num_threads", lambda: 1)
    text = bp.vc_gemm_program(p)
    ref, stats, got = _both_ways_text(monkeypatch, text)
    assert got == ref and ref[0] == 0 and stats["batched"] >= 2 and stats["fallback"] == 0
    assert got[1] == bp.xegpu_gemm_expected(p)
    steps = 2 * 256 // 16  # two launches (first and warm) of K / 16 steps, one batch each
    decodes.clear()
    _run_text(monkeypatch, text, batched=True)
    assert len(decodes) == 2 * steps  # eight DPAS per step would decode 8 * steps times


def test_vc_dpas_unpacks_each_distinct_b_tile_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 256^3 VC GEMM of tools/bench_programs.py runs as one batch of 64 subgroups, 8 per column of C tiles:
    a K step's packed B fragments hold at most 8 distinct tiles each, and batched DPAS unpacks only those
    (xesim/numerics/tile_classes.py) and hands them to the DPAS kernel with the class map.  The output is the
    unbatched one and the exact product's."""
    import importlib.util

    from xesim.exec import vnni

    spec = importlib.util.spec_from_file_location("bench_programs", ROOT / "tools" / "bench_programs.py")
    bp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bp)
    p = {"n": 256, "level": "vc", "type": "f16"}
    text = bp.vc_gemm_program(p)
    ref, _ = _run_text(monkeypatch, text, batched=False)
    unpacked: list = []
    real = vnni.unpack
    monkeypatch.setattr(vnni, "unpack", lambda x: unpacked.append(x.shape[0]) or real(x))
    got, stats = _run_text(monkeypatch, text, batched=True)
    assert got == ref and stats["batched"] >= 2 and stats["fallback"] == 0
    assert got[1] == bp.xegpu_gemm_expected(p)
    # 64 subgroups' B tiles: 8 column positions, fewer distinct bit patterns where the data repeat (B's values
    # are periodic in the column): never the 64 of one tile per subgroup
    assert unpacked and max(unpacked) <= 8


def test_vc_dpas_reads_its_operands_where_the_loads_put_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """The VC GEMM cuts its DPAS operands out of loaded tiles with vector.extract_strided_slice / extract: each
    instance's part is contiguous, so the batched ops hand views of the loads' stacks to DPAS (strided over
    instances), which reads A as it is -- no copy on the way (xesim/exec/ops/vector.py ``along_axis_read``,
    xesim/numerics/dpas.py ``_bits3``); the output is the exact product's."""
    import importlib.util

    from xesim.exec.ops import vector as batch_vector
    from xesim.numerics import dpas as dpas_mod

    spec = importlib.util.spec_from_file_location("bench_programs", ROOT / "tools" / "bench_programs.py")
    bp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bp)
    p = {"n": 256, "level": "vc", "type": "bf16"}
    seen, copies = [], []
    real_call, real_batched = dpas_mod.DpasCall.__call__, dpas_mod._batched
    monkeypatch.setattr(dpas_mod.DpasCall, "__call__",
                        lambda self, a, b, c, **kw: seen.append(a.flags.c_contiguous) or real_call(self, a, b, c, **kw))
    monkeypatch.setattr(dpas_mod, "_batched", lambda *a: copies.append(a[0].strides[0]) or real_batched(*a))
    (rc, out, _), stats = _run_text(monkeypatch, bp.vc_gemm_program(p), batched=True)
    assert rc == 0 and out == bp.xegpu_gemm_expected(p) and stats["fallback"] == 0
    assert seen and not any(seen)  # every A is a strided view of the loaded 32x16 tile
    assert copies == [0] * 16  # only the zero accumulators of the first K step (broadcasts), 8 per launch
    x = np.zeros((5, 32, 16), np.float16)
    assert batch_vector._instance_contiguous(x[:, 8:16]) and batch_vector._instance_contiguous(x[:, 3])
    assert not batch_vector._instance_contiguous(x[:, :, 0:8]) and not batch_vector._instance_contiguous(x[:, ::2])


def _run_text(monkeypatch: pytest.MonkeyPatch, text: str, batched: bool) -> tuple[tuple, dict]:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
    try:
        return _run(["run", f.name], monkeypatch, batched=batched)
    finally:
        Path(f.name).unlink()


def _both_ways_text(monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[tuple, dict, tuple]:
    ref, _ = _run_text(monkeypatch, text, batched=False)
    got, stats = _run_text(monkeypatch, text, batched=True)
    return ref, stats, got


def test_lane_fragments_reach_dpas_without_being_gathered(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lane-level batch keeps a loaded block and a DPAS result as matrix + fragment index
    (``Varying.permuted``); the DPAS composes the indices (here to the identity) and takes its operands straight
    from the matrices, so the only fragment stack ever gathered is the final accumulator the store writes.  The
    output is the unbatched one."""
    from xesim.exec.axis import Varying

    made: list = []
    real = Varying.permuted.__func__

    def recording(cls: type, *a: object) -> Varying:
        made.append(real(cls, *a))
        return made[-1]

    monkeypatch.setattr(Varying, "permuted", classmethod(recording))
    path = str(ROOT / "examples" / "lane_gemm_f16.mlir")
    ref, _ = _run(["run", path], monkeypatch, batched=False)
    made.clear()
    got, stats = _run(["run", path], monkeypatch, batched=True)
    assert got == ref and ref[0] == 0 and stats["batched"] == 1 and stats["fallback"] == 0
    assert len(made) == 3 * 2  # two K steps, each an A load, a B load and a DPAS
    assert [v._arr is not None for v in made] == [False] * 5 + [True]  # only the stored accumulator


def test_lane_dpas_keeps_one_decoded_b_when_each_step_loads_a_new_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lane-level GEMM loads a new B every K step: the step's B value dies when the next is loaded, and its
    decoding goes with it (weak ``b_token``), so the DPAS never holds more than one decoded B (a smaller working
    set: fewer pages a forked worker copies).  The output is the unbatched one."""
    from xesim.numerics import dpas as dpas_mod

    kept: list[int] = []
    real = dpas_mod._remember_b

    def recording(*a: object) -> None:
        real(*a)
        kept.append(len(dpas_mod._RECENT_B))

    monkeypatch.setattr(dpas_mod, "_remember_b", recording)
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 0)  # the row path (the one that keeps decodings)
    monkeypatch.setattr(dpas_mod.numba, "get_num_threads", lambda: 1)
    path = str(ROOT / "examples" / "lane_gemm_f16.mlir")
    ref, _ = _run(["run", path], monkeypatch, batched=False)
    kept.clear()
    got, stats = _run(["run", path], monkeypatch, batched=True)
    assert got == ref and ref[0] == 0 and stats["batched"] == 1
    assert kept == [1, 1]  # two K steps; the first step's decoding was gone when the second was made


def test_lane_fragments_used_elementwise_and_by_dpas(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fragments of a loaded block and of a DPAS result that other ops also read (gathered on that use) give
    the unbatched output; the batch does not fall back."""
    text = (ROOT / "examples" / "lane_gemm_f16.mlir").read_text()
    old = "%d = xegpu.dpas %av, %bv, %sum : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>"
    assert old in text
    new = ("%a2 = arith.addf %av, %av : vector<8xf16>\n"
           "        %s2 = arith.addf %sum, %sum : vector<8xf32>\n"
           "        %d = xegpu.dpas %a2, %bv, %s2 : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>")
    text = text.replace(old, new)
    ref, _ = _run_text(monkeypatch, text, batched=False)
    got, stats = _run_text(monkeypatch, text, batched=True)
    assert got == ref and ref[0] == 0 and stats["batched"] == 1 and stats["fallback"] == 0
    assert got != run_xesim(["run", str(ROOT / "examples" / "lane_gemm_f16.mlir")])  # the edit changes values


@pytest.mark.parametrize("operand", ["a", "b", "c"])
def test_dpas_matrix_of_permuted_fragments(operand: str) -> None:
    """``_FragmentsToMatrix.of_value`` on ``Varying.permuted(base, index)`` with an arbitrary index equals the
    layout's own scatter of the gathered fragments (spec/pvc-hardware.md §3.4); with the index the layout's
    own map it is ``base`` itself, without a copy."""
    from xesim.exec.axis import Varying
    from xesim.exec.ops.xegpu_dpas import _FragmentsToMatrix
    from xesim.hw.layout import DpasLayout

    layout = DpasLayout(8, 16, 16)
    rows, cols = layout.operand_shape(operand)
    groups, lanes = 3, 16
    rng = np.random.default_rng(7)
    base = rng.integers(-50, 50, size=(groups, rows * cols)).astype(np.float32)
    index = rng.permutation(rows * cols)
    v = Varying.permuted(base, index, groups * lanes)
    conv = _FragmentsToMatrix(layout, operand)
    got = conv.of_value(v, groups, lanes)
    assert v.perm is not None and not np.shares_memory(got, base)
    frags = base[:, index].reshape(groups * lanes, -1)  # what the lanes hold
    assert np.array_equal(v.arr, frags)
    want = np.stack([layout.scatter(operand, frags[g * lanes:(g + 1) * lanes]) for g in range(groups)])
    assert np.array_equal(got, want)
    own = Varying.permuted(base, layout.index_map(operand).reshape(-1), groups * lanes)
    same = conv.of_value(own, groups, lanes)
    assert np.shares_memory(same, base) and np.array_equal(same, base.reshape(groups, rows, cols))
    assert own._arr is None  # the fragments were never gathered


def test_lane_offsets_of_a_loop_are_grouped_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-subgroup values of a lane-level block offset computed before the K loop (the tile's row and
    column) are checked and grouped once per batch, not at every load of the loop (``group_ints`` keeps the
    last values it saw); the output is the unbatched one."""
    calls: list = []
    real = blocks._group_ints
    monkeypatch.setattr(blocks, "_group_ints", lambda *a: calls.append(a[1:]) or real(*a))
    path = str(ROOT / "examples" / "lane_gemm_f16.mlir")
    ref, _ = _run(["run", path], monkeypatch, batched=False)
    calls.clear()
    got, stats = _run(["run", path], monkeypatch, batched=True)
    assert got == ref and ref[0] == 0 and stats["batched"] == 1 and stats["fallback"] == 0
    assert calls == [(8, 16), (8, 16)]  # %m and %n of the 8 subgroups; the loads of 2 K steps and the store reuse them
    assert not blocks._RECENT_GROUPS  # released at the end of the batch


@pytest.mark.parametrize("seed", range(6))
def test_block_start_statistics_match_numpy(seed: int) -> None:
    """``_stats`` (one numba pass for the block-start checks) gives numpy's least and greatest element and, when
    every element has one residue modulo L (Python's floor modulo, also for negative starts), that residue, else
    -1; for strided and broadcast (read-only) views too."""
    rng = np.random.default_rng(seed)
    mod = int(rng.choice([1, 4, 16, 64]))
    n = int(rng.integers(1, 300))
    uniform = seed % 2 == 0
    base = rng.integers(-5000, 5000, n) * (mod if uniform else 1) + (int(rng.integers(0, mod)) if uniform else 0)
    offs = np.stack([base, base[::-1]], axis=1).astype(np.int64)
    for v in (offs[:, 0], offs[:, 1], np.broadcast_to(offs[0], (n, 2))[:, 0]):
        want_res = int(v[0] % mod) if (v % mod == v[0] % mod).all() else -1
        assert blocks._stats(v, mod) == (int(v.min()), int(v.max()), want_res)
    assert blocks._stats(-37, 16) == (-37, -37, 11)
