"""``xesim trace export --perfetto`` (issue 28 item 3): the Chrome trace-event JSON passes a schema test -- required
fields per event type, non-decreasing timestamps per track, every begin matched by an end, flows with a start and a
finish -- and has one track per recorded subgroup, a slice per op execution, counters and barrier flows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_xesim
from xesim.trace import load

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = {
    "sg_gemm": ROOT / "examples" / "sg_gemm_f16.mlir",
    "simt": ROOT / "examples" / "simt_dpas_f16.mlir",
    "barrier_8sg": ROOT / "tests" / "e2e" / "sched_slm_exchange_8sg.mlir",
    "nbarrier": ROOT / "tests" / "e2e" / "sched_nbarrier_pipeline.mlir",
}
REQUIRED = {
    "M": {"name", "pid", "tid", "args"},
    "B": {"name", "cat", "ts", "pid", "tid", "args"},
    "E": {"ts", "pid", "tid"},
    "C": {"name", "ts", "pid", "tid", "args"},
    "s": {"name", "cat", "id", "ts", "pid", "tid"},
    "t": {"name", "cat", "id", "ts", "pid", "tid"},
    "f": {"name", "cat", "id", "ts", "pid", "tid", "bp"},
}


def check_schema(doc: dict) -> dict:
    """Assert the trace-event format's rules; returns per track the (begin, name) slices."""
    assert set(doc) >= {"traceEvents", "displayTimeUnit"}
    last: dict[tuple, float] = {}
    stacks: dict[tuple, list] = {}
    slices: dict[tuple, list] = {}
    flows: dict[int, list] = {}
    for ev in doc["traceEvents"]:
        ph = ev["ph"]
        assert ph in REQUIRED, ev
        assert REQUIRED[ph] <= set(ev), ev
        if ph == "M":
            assert ev["name"] in ("process_name", "thread_name") and isinstance(ev["args"]["name"], str)
            continue
        assert isinstance(ev["ts"], (int, float)) and ev["ts"] >= 0
        track = (ev["pid"], ev["tid"])
        if ph in "BEC":
            assert ev["ts"] >= last.get(track, 0.0), f"time goes back on track {track}: {ev}"
            last[track] = ev["ts"]
        if ph == "B":
            stacks.setdefault(track, []).append(ev)
            slices.setdefault(track, []).append((ev["ts"], ev["name"]))
        elif ph == "E":
            assert stacks.get(track), f"E without B on {track}"
            assert stacks[track].pop()["ts"] <= ev["ts"]
        elif ph == "C":
            assert all(isinstance(v, (int, float)) for v in ev["args"].values())
        else:
            flows.setdefault(ev["id"], []).append(ev)
    assert all(not s for s in stacks.values()), "unmatched B"
    for fid, evs in flows.items():
        phs = [e["ph"] for e in evs]
        assert phs[0] == "s" and phs[-1] == "f" and set(phs[1:-1]) <= {"t"}, (fid, phs)
        assert [e["ts"] for e in evs] == sorted(e["ts"] for e in evs)
    return {"slices": slices, "flows": flows}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_perfetto_json_passes_the_schema_and_shows_every_recorded_op(tmp_path, name):
    trace, out = tmp_path / "t.xetrace", tmp_path / "t.json"
    assert run_xesim(["run", "-q", "--trace", str(trace), str(PROGRAMS[name])])[0] == 0
    status, stdout, err = run_xesim(["trace", "export", "--perfetto", str(out), str(trace)])
    assert status == 0 and stdout == "" and f"to {out}" in err
    doc = json.loads(out.read_text())
    got = check_schema(doc)
    tr = load(trace)
    insts = {(int(tr.events["launch"][e]), *(int(tr.events[c][e]) for c in ("wg_x", "wg_y", "wg_z", "sg")))
             for e in range(len(tr.events))}
    threads = [e for e in doc["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"]
    assert len(threads) == len(insts) == len(got["slices"])
    assert sum(len(s) for s in got["slices"].values()) == len(tr.events)
    for track, sl in got["slices"].items():  # each track is one subgroup's ops in execution order
        (th,) = [t for t in threads if (t["pid"], t["tid"]) == track]
        wg, sg = th["args"]["name"].split(" sg ")
        inst = (track[0] - 1, *(int(x) for x in wg[4:-1].split(",")), int(sg))
        evs = [e for e in range(len(tr.events)) if (int(tr.events["launch"][e]), *(int(tr.events[c][e]) for c in
                                                    ("wg_x", "wg_y", "wg_z", "sg"))) == inst]
        assert [n for _, n in sl] == [str(tr.ops["name"][tr.events["op"][e]]) for e in evs]
    counters = {e["name"] for e in doc["traceEvents"] if e["ph"] == "C"}
    assert counters == {"GRF registers", "active lanes"}
    if name == "barrier_8sg":  # one gpu.barrier release joining the 8 subgroups' barrier slices
        assert len(got["flows"]) == 1 and len(next(iter(got["flows"].values()))) == 8
    if name == "nbarrier":  # 8 phases, each arrival of one subgroup to the other's acquisition
        assert len(got["flows"]) == 16
        assert all(f[0]["tid"] != f[-1]["tid"] for f in got["flows"].values())


def test_active_lane_counter_follows_the_mask(tmp_path):
    trace, out = tmp_path / "t.xetrace", tmp_path / "t.json"
    run_xesim(["run", "-q", "--trace", str(trace), str(ROOT / "tests" / "e2e" / "lane_divergence.mlir")])
    run_xesim(["trace", "export", "--perfetto", str(out), str(trace)])
    doc = json.loads(out.read_text())
    check_schema(doc)
    tr = load(trace)
    lanes = [e["args"]["lanes"] for e in doc["traceEvents"] if e["ph"] == "C" and e["name"] == "active lanes"]
    assert sorted(lanes) == sorted(bin(int(m)).count("1") for m in tr.events["mask"])
    assert min(lanes) < 16  # the program diverges
