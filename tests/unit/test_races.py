"""--check-races (xesim/observe/races.py): happens-before race detection between the subgroups of a workgroup
(gpu.barrier, named-barrier phases, atomics), exact footprints of every memory op, the report (both ops, both
subgroups, the address), and silence on every correctly synchronised program of the repository."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import in_sweeps, run_xesim
from xesim.diagnostics import Location
from xesim.hw.memory import AddressSpace
from xesim.observe import races
from xesim.observe.races import RaceDetector, RaceFault, first_overlap, merge

ROOT = Path(__file__).resolve().parents[2]
E2E = ROOT / "tests" / "e2e"


# ================================================================================== interval sets
def test_merge_and_first_overlap_agree_with_byte_sets() -> None:
    rng = np.random.default_rng(1)
    for _ in range(300):
        n, m = int(rng.integers(0, 6)), int(rng.integers(0, 6))
        a0 = rng.integers(0, 60, n)
        b0 = rng.integers(0, 60, m)
        a1, b1 = a0 + rng.integers(0, 9, n), b0 + rng.integers(0, 9, m)
        sa = {x for s, e in zip(a0, a1) for x in range(s, e)}
        sb = {x for s, e in zip(b0, b1) for x in range(s, e)}
        ms, me = merge(a0.astype(np.int64), a1.astype(np.int64))
        assert {x for s, e in zip(ms, me) for x in range(s, e)} == sa
        assert np.all(ms[1:] > me[:-1])  # disjoint and not adjacent
        ns, ne = merge(b0.astype(np.int64), b1.astype(np.int64))
        hit = first_overlap(ms, me, ns, ne)
        common = sa & sb
        if not common:
            assert hit is None
        else:
            lo, hi = hit
            assert lo == min(common)
            assert all(x in common for x in range(lo, hi)) and hi not in common


# ================================================================================== the detector alone
class _Op:
    def __init__(self, name: str) -> None:
        self.name, self.loc = name, Location.unknown()


class _KS:
    subgroup_id = 0


def _setup(n: int = 2):
    space = AddressSpace("shared local memory", base=0x1000, capacity=4096)
    alloc = space.allocate(256, "slm", "%buf")
    ks = _KS()
    return space, alloc, ks, RaceDetector(n, ks)


def _access(det, ks, tid, space, alloc, start, nbytes, kind, value=None, name="op"):
    """One access by subgroup ``tid`` (a write stores ``value`` into the bytes, like the op would)."""
    ks.subgroup_id = tid
    accs = det.before([(space, [alloc.base + start], nbytes, kind)])
    if kind == "w":
        alloc.data[start:start + nbytes] = value if value is not None else tid + 1
    det.after(_Op(name), accs)


def test_unordered_write_then_read_is_a_race_naming_both_sides() -> None:
    space, alloc, ks, det = _setup()
    _access(det, ks, 0, space, alloc, 8, 4, "w", name="first.store")
    with pytest.raises(RaceFault) as e:
        _access(det, ks, 1, space, alloc, 10, 8, "r", name="second.load")
    msg = e.value.message
    assert "subgroup 1 reads 2 byte(s) at 0x100a" in msg and "subgroup 0 wrote with 'first.store'" in msg
    assert e.value.other.name == "first.store"


def test_disjoint_bytes_same_subgroup_and_reads_never_race() -> None:
    space, alloc, ks, det = _setup()
    _access(det, ks, 0, space, alloc, 0, 8, "w")
    _access(det, ks, 1, space, alloc, 8, 8, "w")  # adjacent, not overlapping
    _access(det, ks, 0, space, alloc, 0, 8, "r")  # own write
    _access(det, ks, 0, space, alloc, 32, 8, "r")
    _access(det, ks, 1, space, alloc, 32, 8, "r")  # read-read


def test_barrier_orders_everything_before_it() -> None:
    space, alloc, ks, det = _setup(3)
    _access(det, ks, 0, space, alloc, 0, 16, "w")
    _access(det, ks, 2, space, alloc, 64, 4, "r")
    det.barrier()
    _access(det, ks, 1, space, alloc, 0, 16, "r")
    _access(det, ks, 1, space, alloc, 64, 4, "w")
    with pytest.raises(RaceFault):  # but not what comes after it
        _access(det, ks, 2, space, alloc, 64, 4, "r")


def test_named_barrier_phase_orders_arrive_before_wait_only() -> None:
    space, alloc, ks, det = _setup()
    _access(det, ks, 0, space, alloc, 0, 4, "w")
    det.arrive(0, 1, 0)
    _access(det, ks, 0, space, alloc, 4, 4, "w", value=9)  # after the arrive: not released by phase 0
    det.arrive(1, 1, 0)
    det.acquire(1, 1, 0)
    _access(det, ks, 1, space, alloc, 0, 4, "r")  # ordered by the phase
    with pytest.raises(RaceFault):
        _access(det, ks, 1, space, alloc, 4, 4, "r")


def test_a_subgroup_that_did_not_wait_is_not_ordered() -> None:
    space, alloc, ks, det = _setup()
    _access(det, ks, 0, space, alloc, 0, 4, "w")
    det.arrive(0, 2, 0)
    det.arrive(1, 2, 0)
    det.acquire(0, 2, 0)
    with pytest.raises(RaceFault):  # subgroup 1 arrived but has not returned from its wait
        _access(det, ks, 1, space, alloc, 0, 4, "r")


def test_atomics_do_not_race_with_each_other_and_synchronise() -> None:
    space, alloc, ks, det = _setup()
    _access(det, ks, 0, space, alloc, 0, 4, "a")
    _access(det, ks, 1, space, alloc, 0, 4, "a")
    # message passing: data written before an atomic on a flag is ordered before the reader's later atomic
    _access(det, ks, 0, space, alloc, 64, 16, "w")
    _access(det, ks, 0, space, alloc, 128, 4, "a")
    _access(det, ks, 1, space, alloc, 128, 4, "a")
    _access(det, ks, 1, space, alloc, 64, 16, "r")


def test_atomic_and_plain_access_race() -> None:
    space, alloc, ks, det = _setup()
    _access(det, ks, 0, space, alloc, 0, 4, "a")
    with pytest.raises(RaceFault) as e:
        _access(det, ks, 1, space, alloc, 0, 4, "r")
    assert "atomically updated" in e.value.message


def test_write_write_with_identical_values_is_benign() -> None:
    space, alloc, ks, det = _setup()
    _access(det, ks, 0, space, alloc, 0, 8, "w", value=7)
    _access(det, ks, 1, space, alloc, 0, 8, "w", value=7)  # same bytes, same values: order-independent
    with pytest.raises(RaceFault) as e:
        _access(det, ks, 1, space, alloc, 2, 8, "w", value=5)  # changes bytes 2..7 written by subgroup 0
    assert "writes 6 byte(s) at 0x1002" in e.value.message  # the whole overlap with subgroup 0's write


# ================================================================================== whole programs
def _program(body: str, out: str = "memref<32x32xf32>", threads: int = 32) -> str:
    """A one-workgroup SG-level kernel (``threads`` / 16 subgroups) over ``%out`` with a 4 KB SLM buffer
    ``%slm`` (memref<1024xf32, 3>) and common constants; main prints ``%out``."""
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k(%out: {out}) kernel {{
      %slm = memref.alloc() : memref<1024xf32, 3>
      %sg = gpu.subgroup_id : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %mine = arith.muli %sg, %c16 : index
      %sgi = arith.index_cast %sg : index to i32
      %sgf = arith.sitofp %sgi : i32 to f32
      %is0 = arith.cmpi eq, %sg, %c0 : index
{body}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %cT = arith.constant {threads} : index
    %d = gpu.alloc () : {out}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%cT, %c1, %c1) args(%d : {out})
    %h = memref.alloc() : {out}
    gpu.memcpy %h, %d : {out}, {out}
    %u = memref.cast %h : {out} to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }}
  func.func private @printMemrefF32(memref<*xf32>) attributes {{llvm.emit_c_interface}}
}}
"""


def _row(out: str, r: int) -> list[float]:
    """Row ``r`` of the matrix printMemrefF32 printed."""
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", out.splitlines()[1 + r])]


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def _run(tmp_path: Path, text: str, *extra: str) -> tuple[int, str, str]:
    f = tmp_path / "p.mlir"
    f.write_text(text)
    return run_xesim(["run", "--check-races", *extra, str(f)])


SCALAR_EXCHANGE = """      %other = arith.subi %c1, %sg : index
      %theirs = arith.muli %other, %c16 : index
      scf.for %i = %c0 to %c16 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %v = arith.sitofp %ii : i32 to f32
        %a = arith.addi %mine, %i : index
        memref.store %v, %slm[%a] : memref<1024xf32, 3>
      }
      SYNC
      scf.for %i = %c0 to %c16 step %c1 {
        %a = arith.addi %theirs, %i : index
        %w = memref.load %slm[%a] : memref<1024xf32, 3>
        memref.store %w, %out[%sg, %i] : memref<32x32xf32>
      }
      %t = xegpu.create_nd_tdesc %out : memref<32x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      xegpu.prefetch_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf32>"""


@pytest.mark.parametrize("seed", range(6))
def test_a_racy_exchange_is_reported_under_every_schedule(tmp_path: Path, seed: int) -> None:
    text = _program(SCALAR_EXCHANGE.replace("SYNC", ""))
    status, _, err = _run(tmp_path, text, "--schedule", "random", "--seed", str(seed))
    assert status == 1, err
    store, load = _line_of(text, "memref.store %v, %slm"), _line_of(text, "memref.load %slm")
    first = err.splitlines()[0]
    # whichever access comes second in the schedule is the one reported, with the other in the message and note
    assert re.search(rf"p\.mlir:({store}:9|{load}:9): error: 'memref\.(store|load)' op data race: subgroup [01] "
                     r"(writes|reads) 4 byte\(s\) at 0x1[0-9a-f]+ \(shared local memory, byte \d+ of slm allocation "
                     rf"%slm \[0x1000, 0x2000\) of 4096 bytes\) that subgroup [01] (read|wrote) with "
                     rf"'memref\.(load|store)' at \S+p\.mlir:({store}|{load}):9;", first), err
    assert re.search(rf"p\.mlir:({store}|{load}):9: note: 'memref\.(store|load)' op: the conflicting access", err), err


@pytest.mark.parametrize("sync", ["gpu.barrier", """%nid = arith.constant 0 : i8
      %two = arith.constant 2 : i8
      xegpu.alloc_nbarrier 1
      %nb = xegpu.init_nbarrier %nid, %two : i8, i8 -> !xegpu.nbarrier
      xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
      xegpu.nbarrier_wait %nb : !xegpu.nbarrier"""], ids=["barrier", "nbarrier"])
@pytest.mark.parametrize("seed", range(3))
def test_a_synchronised_exchange_is_silent_under_every_schedule(tmp_path: Path, sync: str, seed: int) -> None:
    status, out, err = _run(tmp_path, _program(SCALAR_EXCHANGE.replace("SYNC", sync)), "--schedule", "random",
                            "--seed", str(seed))
    assert status == 0, err
    assert _row(out, 0) == list(range(16)) + [0] * 16  # subgroup 0 copied half 1: 0..15
    assert _row(out, 1) == list(range(16)) + [0] * 16


def test_a_store_between_arrive_and_wait_is_not_ordered_by_the_phase(tmp_path: Path) -> None:
    body = """      %nid = arith.constant 0 : i8
      %two = arith.constant 2 : i8
      %one = arith.constant 1.0 : f32
      xegpu.alloc_nbarrier 1
      %nb = xegpu.init_nbarrier %nid, %two : i8, i8 -> !xegpu.nbarrier
      xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
      scf.if %is0 {
        memref.store %one, %slm[%c0] : memref<1024xf32, 3>
      }
      xegpu.nbarrier_wait %nb : !xegpu.nbarrier
      %w = memref.load %slm[%c0] : memref<1024xf32, 3>
      memref.store %w, %out[%sg, %c0] : memref<32x32xf32>
      %t = xegpu.create_nd_tdesc %out : memref<32x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      xegpu.prefetch_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf32>"""
    status, _, err = _run(tmp_path, _program(body))
    assert status == 1
    assert "subgroup 1 reads 4 byte(s) at 0x1000" in err and "subgroup 0 wrote with 'memref.store'" in err, err


def _tile_stores(col1: str, val1: str) -> str:
    """Subgroup 0 stores an 8x16 tile of 1.0 at [0, 0]; subgroup 1 stores ``val1`` at [0, ``col1``]."""
    return f"""      %t = xegpu.create_nd_tdesc %out : memref<32x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      %one = arith.constant dense<1.0> : vector<8x16xf32>
      %other = arith.constant dense<{val1}> : vector<8x16xf32>
      scf.if %is0 {{
        xegpu.store_nd %one, %t[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      }} else {{
        xegpu.store_nd %other, %t[0, {col1}] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      }}"""


def test_block_stores_of_adjacent_tiles_are_not_a_race(tmp_path: Path) -> None:
    # the row span of one tile covers the other's columns in between its rows: only exact bytes count
    status, out, err = _run(tmp_path, _program(_tile_stores("16", "2.0")))
    assert status == 0, err
    assert _row(out, 0) == [1] * 16 + [2] * 16


def test_block_stores_of_the_same_tile_race_unless_the_values_agree(tmp_path: Path) -> None:
    status, _, err = _run(tmp_path, _program(_tile_stores("8", "1.0")))  # overlap, same values: benign
    assert status == 0, err
    text = _program(_tile_stores("8", "2.0"))
    status, _, err = _run(tmp_path, text)
    assert status == 1
    line = _line_of(text, "xegpu.store_nd %other")
    # subgroup 1 overwrites columns 8..15 of row 0 = bytes 32..63 of %out
    assert f"p.mlir:{line}:9: error: 'xegpu.store_nd' op data race: subgroup 1 writes 32 byte(s) at 0x" in err, err
    assert "byte 32 of device allocation" in err and "that subgroup 0 wrote with 'xegpu.store_nd'" in err


MATRIX = "!xegpu.mem_desc<16x32xf32>"


def test_store_matrix_of_disjoint_column_blocks_is_not_a_race(tmp_path: Path) -> None:
    # the implementation reads and writes back the byte range spanning the block; the footprint is the block
    body = f"""      %bytes = memref.alloc() : memref<2048xi8, 3>
      %md = xegpu.create_mem_desc %bytes : memref<2048xi8, 3> -> {MATRIX}
      %v = vector.broadcast %sgf : f32 to vector<8x16xf32>
      %col = arith.muli %sg, %c16 : index
      %other = arith.subi %c1, %sg : index
      %ocol = arith.muli %other, %c16 : index
      xegpu.store_matrix %v, %md[%c0, %col] : vector<8x16xf32>, {MATRIX}, index, index
      gpu.barrier
      %r = xegpu.load_matrix %md[%c0, %ocol] : {MATRIX}, index, index -> vector<8x16xf32>
      %t = xegpu.create_nd_tdesc %out : memref<32x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      xegpu.store_nd %r, %t[0, %col] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>"""
    status, out, err = _run(tmp_path, _program(body))
    assert status == 0, err
    assert _row(out, 0) == [1] * 16 + [0] * 16  # each subgroup copied the other's block
    status, _, err = _run(tmp_path, _program(body.replace("      gpu.barrier\n", "")))
    assert status == 1, err
    assert "'xegpu.store_matrix' op data race: subgroup 1 writes 64 byte(s)" in err, err
    assert "that subgroup 0 read with 'xegpu.load_matrix'" in err, err


def test_scattered_accesses_and_atomics(tmp_path: Path) -> None:
    scatter = """      %cst = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xindex>
      %m = arith.constant dense<true> : vector<16xi1>
      %base = vector.broadcast %mine : index to vector<16xindex>
      %offs = arith.addi %cst, %base : vector<16xindex>
      %flat = memref.reinterpret_cast %out to offset: [0], sizes: [1024], strides: [1] : memref<32x32xf32> to memref<1024xf32>
      %td = xegpu.create_tdesc %flat, %OFFS : memref<1024xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
      %v = vector.broadcast %sgf : f32 to vector<16xf32>
      OP"""
    store = "xegpu.store %v, %td, %m : vector<16xf32>, !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>"
    atomic = ("%old = xegpu.atomic_rmw addf %td, %m, %v : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, "
              "vector<16xi1>, vector<16xf32> -> vector<16xf32>")
    load = ("%l = xegpu.load %td, %m : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1> "
            "-> vector<16xf32>")
    cases = [("%offs", store, 0), ("%cst", store, 1), ("%cst", atomic, 0),
             ("%cst", "OP1\n      scf.if %is0 {\n        OP2\n      } else {\n        OP3\n      }", 1)]
    for offs, op, want in cases:
        op = op.replace("OP1", "").replace("OP2", atomic).replace("OP3", load)
        status, out, err = _run(tmp_path, _program(scatter.replace("%OFFS", offs).replace("OP", op)))
        assert status == want, (offs, op, err)
        if want:
            assert "data race" in err
    # every lane of both subgroups added its subgroup id once: element i of row 0 = 0 + 1
    status, out, _ = _run(tmp_path, _program(scatter.replace("%OFFS", "%cst").replace("OP", atomic)))
    assert _row(out, 0) == [1] * 16 + [0] * 16


def test_vector_transfers_see_their_exact_elements(tmp_path: Path) -> None:
    # subgroup s writes column s of rows 0..7 with a permuted transfer_write; columns are interleaved in memory
    body = """      %v = vector.broadcast %sgf : f32 to vector<8xf32>
      vector.transfer_write %v, %out[%c0, %sg] {permutation_map = affine_map<(d0, d1) -> (d0)>, in_bounds = [true]} : vector<8xf32>, memref<32x32xf32>
      %t = xegpu.create_nd_tdesc %out : memref<32x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      xegpu.prefetch_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf32>"""
    status, out, err = _run(tmp_path, _program(body))
    assert status == 0, err
    assert _row(out, 0)[:3] == [0, 1, 0]
    racy = body.replace("%out[%c0, %sg]", "%out[%sg, %c0]")  # rows 0..7 and 1..8 of column 0 overlap
    status, _, err = _run(tmp_path, _program(racy))
    assert status == 1 and "'vector.transfer_write' op data race: subgroup 1 writes 4 byte(s)" in err, err


def test_lane_level_kernels_are_checked_per_lane(tmp_path: Path) -> None:
    # plain GPU code (every work-item executes): work-item g stores out[g]; a shifted read of out[g + 16] by
    # subgroup 0 reads what subgroup 1 stores, unordered
    body = """      %g = gpu.thread_id x
      %gi = arith.index_cast %g : index to i32
      %gf = arith.sitofp %gi : i32 to f32
      %flat = memref.reinterpret_cast %out to offset: [0], sizes: [1024], strides: [1] : memref<32x32xf32> to memref<1024xf32>
      memref.store %gf, %flat[%g] : memref<1024xf32>
      READ"""
    status, out, err = _run(tmp_path, _program(body.replace("READ", "")))
    assert status == 0, err
    assert _row(out, 0) == list(range(32))
    read = """%c16b = arith.constant 16 : index
      %n = arith.addi %g, %c16b : index
      %w = memref.load %flat[%n] : memref<1024xf32>"""
    status, _, err = _run(tmp_path, _program(body.replace("READ", read)))
    assert status == 1, err
    # subgroup 0 ran first (its lanes read out[16..31]); work-item 16 (subgroup 1, lane 0) then stores out[16]
    assert "'memref.store' op data race: subgroup 1 writes 4 byte(s) at 0x7f3a00000040" in err, err
    assert "that subgroup 0 read with 'memref.load'" in err, err


# ================================================================================== coverage and cost
def test_every_memory_op_has_a_footprint_or_a_reason() -> None:
    from xesim.exec.registry import IMPLS

    with_traits, pure = set(), set()
    for f in (ROOT / "xesim" / "isa_data" / "dialects").glob("*.toml"):
        for op in tomllib.loads(f.read_text()).get("op", []):
            if {"reads_memory", "writes_memory"} & set(op.get("traits", [])):
                with_traits.add(op["name"])
            if "pure" in op.get("traits", []):
                pure.add(op["name"])
    # ops named like memory accesses, in case a definition lacks its memory trait (e.g. a future memref.atomic_rmw)
    by_name = {n for n in IMPLS if re.search(r"load|store|atomic|copy|transfer|gather|scatter|matrix", n)} - pure
    by_name -= {"xegpu.create_mem_desc"}
    missing = sorted(n for n in (with_traits | by_name) & set(IMPLS)
                     if n not in races.FOOTPRINTS and n not in races.NOT_ACCESSES)
    assert not missing


def test_nothing_is_instrumented_when_the_check_is_off(tmp_path: Path, monkeypatch) -> None:
    import xesim

    calls = []
    real = races.instrument
    monkeypatch.setattr(races, "instrument", lambda obs, op, cx, step: calls.append(op.name) or real(obs, op, cx, step))
    prog = xesim.load(_program(SCALAR_EXCHANGE.replace("SYNC", "gpu.barrier")))
    prog.run()
    assert calls == []
    prog = xesim.load(_program(SCALAR_EXCHANGE.replace("SYNC", "gpu.barrier")))
    prog.run(check_races=True)
    assert "memref.store" in calls and "memref.load" in calls


def test_the_api_reports_a_race_as_a_diagnostic() -> None:
    import xesim
    from xesim.diagnostics import DiagnosticError

    prog = xesim.load(_program(SCALAR_EXCHANGE.replace("SYNC", "")))
    assert prog.run().output  # without the check the racy program runs
    with pytest.raises(DiagnosticError, match="data race: subgroup 1"):
        prog.run(check_races=True)


def _kernel_programs() -> list[Path]:
    files = sorted(E2E.glob("*.mlir")) + sorted((ROOT / "examples").glob("*.mlir"))
    return [f for f in files if "gpu.launch_func" in f.read_text() and "RUN: not" not in f.read_text()
            and in_sweeps(f)]


@pytest.mark.parametrize("path", _kernel_programs(), ids=lambda p: p.name)
def test_every_correct_kernel_program_is_silent_and_unchanged(path: Path) -> None:
    """The repository's kernel programs (barriers, named barriers, SLM, atomics, every level) are correctly
    synchronised: the check reports nothing and the output is the same."""
    s0, out0, err0 = run_xesim(["run", str(path)])
    s1, out1, err1 = run_xesim(["run", "--check-races", str(path)])
    assert "data race" not in err1, err1
    assert (s1, out1) == (s0, out0), err1
