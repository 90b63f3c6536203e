"""Trace recording (issue 28 item 1): what the tracer (xesim/observe/tracer.py) records for real programs, against
values worked out here from the programs' own definitions (not from the code under test), and the filters."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xesim
from tests.conftest import run_xesim
from xesim.exec import batch
from xesim.trace import analysis as A  # noqa: N812
from xesim.trace.spec import TraceSpec

ROOT = Path(__file__).resolve().parents[2]
SG_GEMM = ROOT / "examples" / "sg_gemm_f16.mlir"
SIMT = ROOT / "examples" / "simt_dpas_f16.mlir"
NBARRIER = ROOT / "tests" / "e2e" / "sched_nbarrier_pipeline.mlir"
BARRIER = ROOT / "tests" / "e2e" / "sched_slm_exchange_8sg.mlir"
SCATTER_OOB = ROOT / "tests" / "e2e" / "xegpu_error_scatter_oob.mlir"

# examples/sg_gemm_f16.mlir: A[i][k] = (i + k) mod 8, B[k][j] = 1 where j == k or j == k + 1; grid (4, 2): workgroup
# (bx, by) computes C[8bx:8bx+8, 16by:16by+16] over K = 32 in two steps of 16
GEMM_A = np.fromfunction(lambda i, k: (i + k) % 8, (32, 32)).astype(np.float32)
GEMM_B = np.fromfunction(lambda k, j: ((j == k) | (j == k + 1)).astype(np.float32), (32, 32))
GEMM_BODY = (["arith.constant"] * 4 + ["gpu.block_id"] * 2 + ["arith.muli"] * 2 + ["xegpu.create_nd_tdesc"] * 3
             + ["arith.constant", "scf.for"] + ["xegpu.load_nd", "xegpu.load_nd", "xegpu.dpas", "scf.yield"] * 2
             + ["xegpu.store_nd", "gpu.return"])


@pytest.fixture(scope="module")
def gemm_trace(tmp_path_factory):
    path = tmp_path_factory.mktemp("t") / "gemm.xetrace"
    result = xesim.load(SG_GEMM).run(trace=path)
    return result.trace


def test_every_subgroup_of_the_gemm_executes_the_kernel_in_order(gemm_trace):
    tr = gemm_trace
    assert len(tr.launches) == 1 and tr.launches["traced"][0] == 1
    assert (tr.launches["grid_x"][0], tr.launches["grid_y"][0]) == (4, 2)
    insts = A.instances(tr)
    assert insts == [(0, x, y, 0, 0) for y in range(2) for x in range(4)]  # grid order, x fastest
    for inst in insts:
        evs = A.instance_events(tr, inst)
        assert [A.op_name(tr, e) for e in evs] == GEMM_BODY
        depth = tr.events["depth"][evs]
        assert depth.tolist() == [0] * 13 + [1] * 8 + [0, 0]  # the loop body is nested once
        assert (tr.events["mask"][evs] == 0xFFFF).all()
        tb, te = tr.events["t_begin"][evs], tr.events["t_end"][evs]
        assert (np.diff(tb) >= 0).all() and (te >= tb).all()
    o = tr.events["op"][A.instance_events(tr, insts[0])[13]]
    assert (tr.ops["line"][o], tr.ops["col"][o]) == (23, 9)
    assert A.source_caret(tr, A.instance_events(tr, insts[0])[13]) == (
        "        %av = xegpu.load_nd %a_td[%m, %k] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>", " " * 8 + "^")


def test_dpas_operands_and_results_are_the_tiles_of_the_gemm(gemm_trace):
    tr = gemm_trace
    for inst in A.instances(tr):
        bx, by = inst[1], inst[2]
        dpas = [e for e in A.instance_events(tr, inst) if A.op_name(tr, e) == "xegpu.dpas"]
        acc = np.zeros((8, 16), np.float32)
        for it, e in enumerate(dpas):
            ops = dict(A.event_values(tr, e, 1))
            a = GEMM_A[8 * bx:8 * bx + 8, 16 * it:16 * it + 16]
            b = GEMM_B[16 * it:16 * it + 16, 16 * by:16 * by + 16]
            assert np.array_equal(ops[0].astype(np.float32), a)
            assert np.array_equal(ops[1].astype(np.float32), b)
            assert np.array_equal(ops[2], acc)
            acc = acc + a @ b
            (res,) = [v for i, v in A.event_values(tr, e, 0) if i == 0]
            assert res.dtype == np.float32 and np.array_equal(res, acc)


def test_memory_ranges_and_block_windows_follow_the_launch_geometry(gemm_trace):
    tr = gemm_trace
    m, bl = tr.memory, tr.blocks
    for inst in A.instances(tr):
        bx, by = inst[1], inst[2]
        evs = A.instance_events(tr, inst)
        store = [e for e in evs if A.op_name(tr, e) == "xegpu.store_nd"][0]
        rows = np.flatnonzero(m["event"] == store)
        assert set(m["kind"][rows]) == {"write"}
        alloc = int(m["alloc"][rows[0]])
        assert int(tr.allocs["size"][alloc]) == 32 * 32 * 4
        expected = [((8 * bx + r) * 32 + 16 * by) * 4 for r in range(8)]
        assert sorted(m["start"][rows].tolist()) == expected
        assert ((m["end"] - m["start"])[rows] == 64).all()
        loads = [e for e in evs if A.op_name(tr, e) == "xegpu.load_nd"]
        for it, (ea, eb) in enumerate(zip(loads[::2], loads[1::2])):
            ra = int(np.flatnonzero(bl["event"] == ea)[0])
            rb = int(np.flatnonzero(bl["event"] == eb)[0])
            assert (bl["kind"][ra], bl["x"][ra], bl["y"][ra], bl["rows"][ra], bl["cols"][ra]) == ("load", 16 * it,
                                                                                               8 * bx, 8, 16)
            assert (bl["x"][rb], bl["y"][rb], bl["rows"][rb], bl["cols"][rb]) == (16 * by, 16 * it, 16, 16)
            assert (bl["surface_w"][ra], bl["surface_h"][ra], bl["pitch"][ra], bl["elem_bytes"][ra]) == (32, 32, 32, 2)
            assert bl["transpose"][ra] == 0 and bl["vnni"][rb] == 0
            # the A tile's bytes: 8 rows of 32 bytes at row 8bx, column 16it of a 64-byte-pitch f16 surface
            ranges = sorted(zip(m["start"][m["event"] == ea].tolist(), m["end"][m["event"] == ea].tolist()))
            assert ranges == [(((8 * bx + r) * 32 + 16 * it) * 2, ((8 * bx + r) * 32 + 16 * it) * 2 + 32)
                              for r in range(8)]
    wg, sg = A.writers(tr, alloc, 4)
    owner = wg.reshape(32, 32)
    for bx in range(4):
        for by in range(2):
            assert (owner[8 * bx:8 * bx + 8, 16 * by:16 * by + 16] == bx + 4 * by).all()


def test_register_images_hold_the_recorded_values(gemm_trace):
    """The register image of a placed dpas result, read through its layout, is the value the dpas produced."""
    tr = gemm_trace
    g = tr.grf
    checked = 0
    for r in np.flatnonzero(g["action"] == "place").tolist():
        e = int(g["event"][r])
        if A.op_name(tr, e) != "xegpu.dpas" or g["image_offset"][r] < 0:
            continue
        img = tr.grf_bytes[int(g["image_offset"][r]):int(g["image_offset"][r]) + int(g["nbytes"][r])]
        offs = tr.element_offsets(int(g["layout"][r]))
        elems = np.stack([img[offs + k] for k in range(4)], axis=1).copy().view(np.float32).reshape(8, 16)
        (res,) = [v for i, v in A.event_values(tr, e, 0) if i == 0]
        assert np.array_equal(elems, res)
        checked += 1
    assert checked == 16
    # the register pane's bytes: the same image at the value's registers
    inst = A.instances(tr)[0]
    e = [x for x in A.instance_events(tr, inst) if A.op_name(tr, x) == "xegpu.dpas"][0]
    data, owner, elem, labels = A.grf_bytes_at(tr, inst, e, 128, 64)
    r = [x for x in np.flatnonzero(g["event"] == e).tolist() if g["action"][x] == "place"][0]
    o, n = int(g["offset"][r]), int(g["nbytes"][r])
    io = int(g["image_offset"][r])
    assert np.array_equal(data.reshape(-1)[o:o + n], tr.grf_bytes[io:io + n])
    assert (owner.reshape(-1)[o:o + n] == labels.index(str(g["value"][r]))).all()
    assert elem.reshape(-1)[o:o + n].max() == 127  # 8x16 elements


def test_workgroup_filter_records_one_workgroup_and_batches_the_rest(tmp_path, monkeypatch):
    monkeypatch.setenv("XESIM_GRF", "off")  # the checked register-file model would follow every subgroup
    plain = xesim.load(SG_GEMM).run()
    before = batch.STATS["batched"]
    res = xesim.load(SG_GEMM).run(trace=TraceSpec(str(tmp_path / "t.xetrace"), workgroups=(("n", 5, 5),)))
    assert res.output == plain.output
    assert A.instances(res.trace) == [(0, 1, 1, 0, 0)]  # linear 5 = x 1 + 4 * y 1
    assert batch.STATS["batched"] - before == 2  # workgroups 0-4 and 6-7 ran as two lockstep batches
    assert res.trace.meta["options"]["workgroups"] == [["n", 5, 5]]


def test_op_subgroup_and_value_filters(tmp_path):
    prog = xesim.load(SG_GEMM)
    tr = prog.run(trace=TraceSpec(str(tmp_path / "a.xetrace"), ops=("xegpu.*",), workgroups=(("id", 2, 1, 0),))).trace
    assert set(tr.ops["name"][tr.events["op"]]) == {"xegpu.create_nd_tdesc", "xegpu.load_nd", "xegpu.dpas",
                                                     "xegpu.store_nd"}
    assert len(tr.events) == 3 + 4 + 2 + 1 and set(A.instances(tr)) == {(0, 2, 1, 0, 0)}
    tr = prog.run(trace=TraceSpec(str(tmp_path / "b.xetrace"), values=0)).trace
    assert len(tr.values) == 0 and (tr.grf["image_offset"] == -1).all() and len(tr.grf) > 0
    tr = prog.run(trace=TraceSpec(str(tmp_path / "c.xetrace"), values=16)).trace
    sizes = {tr.value(r).size for r in range(len(tr.values))
             if A.op_name(tr, int(tr.values["event"][r])) != "xegpu.dpas"}
    assert max(sizes) <= 16  # other values over 16 elements dropped, DPAS tiles kept
    assert len([r for r in range(len(tr.values)) if A.op_name(tr, int(tr.values["event"][r])) == "xegpu.dpas"]) == 64
    tr = prog.run(trace=TraceSpec(str(tmp_path / "d.xetrace"), subgroups=((1, 3),))).trace
    assert len(tr.events) == 0 and tr.launches["traced"][0] == 1  # every workgroup has only subgroup 0
    tr = prog.run(trace=TraceSpec(str(tmp_path / "e.xetrace"), kernels=("other*",))).trace
    assert len(tr.events) == 0 and tr.launches["traced"][0] == 0 and tr.launches["kernel"][0] == "@kernels::@gemm"


def test_size_cap_stops_recording_and_the_run_goes_on(tmp_path):
    status, out, err = run_xesim(["run", "--trace", str(tmp_path / "t.xetrace"), "--trace-limit", "0.01", str(SG_GEMM)])
    assert status == 0
    _, plain, _ = run_xesim(["run", str(SG_GEMM)])
    assert out == plain
    assert "size cap of 0.01 MB (--trace-limit)" in err and "the run goes on" in err
    tr = xesim.trace.load(tmp_path / "t.xetrace")
    assert "size cap" in tr.meta["truncated"]
    assert 0 < len(tr.events) < 8 * 23


def test_simt_values_are_per_lane_with_the_lane_mask(tmp_path):
    tr = xesim.load(SIMT).run(trace=tmp_path / "s.xetrace").trace
    assert tr.launches["level"][0] == "lane" and tr.launches["lanes"][0] == 16
    assert (tr.events["mask"] == 0xFFFF).all()
    e = [x for x in range(len(tr.events)) if A.op_name(tr, x) == "xegpu.dpas"][0]
    ops = dict(A.event_values(tr, e, 1))
    # A[i][k] = i + 1: lane l holds column l of A's 8 rows
    assert ops[0].shape == (16, 8) and np.array_equal(ops[0].astype(np.float32),
                                                      np.tile(np.arange(1, 9, dtype=np.float32), (16, 1)))
    lane = [x for x in range(len(tr.events)) if A.op_name(tr, x) == "gpu.lane_id"][0]
    (lid,) = [v for _, v in A.event_values(tr, lane, 0)]
    assert lid.tolist() == list(range(16))


def test_barriers_and_named_barrier_phases_are_recorded(tmp_path):
    tr = xesim.load(NBARRIER).run(trace=tmp_path / "n.xetrace").trace
    sy = tr.sync
    # 4 steps x 2 phases; both subgroups arrive at and acquire every phase of named barrier 0
    for kind in ("arrive", "acquire"):
        rows = np.flatnonzero(sy["kind"] == kind)
        assert sorted(zip(sy["sg"][rows].tolist(), sy["phase"][rows].tolist())) == \
            sorted((s, p) for s in (0, 1) for p in range(8))
        assert (sy["barrier"][rows] == 0).all()
    for p in range(8):  # a phase is acquired only after both arrived
        arr = np.flatnonzero((sy["kind"] == "arrive") & (sy["phase"] == p))
        acq = np.flatnonzero((sy["kind"] == "acquire") & (sy["phase"] == p))
        assert sy["t"][acq].min() >= sy["t"][arr].max()
    # sched_slm_exchange_8sg: 8 subgroups of one workgroup, subgroup s writes SLM row s (16 x i32), one gpu.barrier,
    # then reads row (s + 1) mod 8
    tr = xesim.load(BARRIER).run(trace=tmp_path / "b.xetrace").trace
    rows = np.flatnonzero(tr.sync["kind"] == "barrier")
    bars = [e for e in range(len(tr.events)) if A.op_name(tr, e) == "gpu.barrier"]
    assert len(rows) == 1 and tr.sync["sg"][rows[0]] == -1 and tr.sync["phase"][rows[0]] == 0
    assert sorted(int(tr.events["sg"][e]) for e in bars) == list(range(8))
    assert tr.sync["t"][rows[0]] >= max(int(tr.events["t_begin"][e]) for e in bars)
    m = tr.memory
    slm = [a for a in range(len(tr.allocs)) if tr.allocs["space"][a] == "slm"]
    assert len(slm) == 1
    for s in range(8):
        evs = A.instance_events(tr, (0, 0, 0, 0, s))
        mine = np.isin(m["event"], evs) & (m["alloc"] == slm[0])
        w, r = mine & (m["kind"] == "write"), mine & (m["kind"] == "read")
        assert sorted(zip(m["start"][w].tolist(), m["end"][w].tolist())) == [(64 * s + 4 * i, 64 * s + 4 * i + 4)
                                                                           for i in range(16)]
        n = (s + 1) % 8
        assert sorted(zip(m["start"][r].tolist(), m["end"][r].tolist())) == [(64 * n + 4 * i, 64 * n + 4 * i + 4)
                                                                           for i in range(16)]


def test_a_faulting_run_still_writes_its_trace(tmp_path):
    path = tmp_path / "f.xetrace"
    status, _, err = run_xesim(["run", "--trace", str(path), str(SCATTER_OOB)])
    assert status == 1 and "error:" in err
    tr = xesim.trace.load(path)
    assert tr.meta["error"] and "error:" in tr.meta["error"]
    assert len(tr.events) > 0


@pytest.mark.parametrize("argv, message", [
    (["--trace-wg", "0"], "--trace-wg needs --trace OUT.xetrace"),
    (["--trace", "T", "--trace-wg", "a-b"], "--trace-wg: 'a' is not a non-negative integer"),
    (["--trace", "T", "--trace-wg", "3-1"], "--trace-wg: empty range '3-1'"),
    (["--trace", "T", "--trace-wg", "1:2:3:4"], "more than three ids"),
    (["--trace", "T", "--trace-sg", "0,,1"], "--trace-sg: expected a comma-separated list"),
    (["--trace", "T", "--trace-values", "-3"], "--trace-values: expected none, all or a positive number"),
    (["--trace", "T", "--trace-limit", "0"], "--trace-limit: must be a positive number of MB"),
    (["--trace", "/nonexistent/dir/t.xetrace"], "--trace: no such directory: /nonexistent/dir"),
])
def test_bad_trace_options_are_one_error_line(tmp_path, argv, message):
    argv = [a.replace("T", str(tmp_path / "t.xetrace")) if a == "T" else a for a in argv]
    status, out, err = run_xesim(["run", *argv, str(SG_GEMM)])
    assert status == 1 and out == ""
    assert err.startswith("xesim: error: ") and message in err and "Traceback" not in err
    assert not (tmp_path / "t.xetrace").exists()


def test_tracing_does_not_change_what_a_program_prints(tmp_path):
    for prog in (SG_GEMM, SIMT, NBARRIER):
        _, plain, _ = run_xesim(["run", str(prog)])
        status, out, err = run_xesim(["run", "--trace", str(tmp_path / "x.xetrace"), str(prog)])
        assert status == 0 and out == plain
        assert err.startswith("xesim: trace of ") and str(tmp_path / "x.xetrace") in err
        status, out, err = run_xesim(["run", "-q", "--trace", str(tmp_path / "x.xetrace"), str(prog)])
        assert out == plain and err == ""


def test_engine_cross_check_keeps_one_runs_recording(tmp_path, monkeypatch, gemm_trace):
    monkeypatch.setenv("XESIM_ENGINE", "both")  # each launch runs twice (fast, reference) and is compared
    tr = xesim.load(SG_GEMM).run(trace=tmp_path / "b.xetrace").trace
    assert len(tr.launches) == 1 and len(tr.events) == len(gemm_trace.events) == 184
    assert [A.op_name(tr, e) for e in range(len(tr.events))] == \
        [A.op_name(gemm_trace, e) for e in range(len(gemm_trace.events))]
    assert len(tr.values) == len(gemm_trace.values) and len(tr.memory) == len(gemm_trace.memory)
