"""``xesim trace export --perfetto OUT.json``: a trace as Chrome trace-event JSON, which the Perfetto UI and
chrome://tracing open (issue 28).

The JSON object format of the Trace Event Format: ``{"traceEvents": [...], "displayTimeUnit": "ns"}``, timestamps
``ts`` in microseconds since the recording started.

* one *process* per launch (``pid`` = launch number + 1, named ``launch N: kernel``) and one *thread* (track) per
  recorded subgroup (``tid``, named ``wg (x,y,z) sg s``);
* a slice per op execution: a ``B`` (begin) and an ``E`` (end) event, nested as the ops are (an ``scf.for``
  encloses its body's ops), ``args`` with the location and the active-lane mask;
* counters (``C``) per subgroup: ``GRF registers`` (registers holding live values after each op that placed or
  freed one) and ``active lanes``;
* flow arrows (``s``/``t``/``f``, bound to the enclosing slice) joining the subgroups' ``gpu.barrier`` slices of one
  barrier release, and each named-barrier phase's arrivals to its acquisitions.

Every track's events are in non-decreasing ``ts`` order and every ``B`` has its ``E``
(``tests/unit/test_trace_perfetto.py`` checks the schema).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from xesim.trace import analysis as A  # noqa: N812
from xesim.trace.format import Trace, atomic_file


def events(tr: Trace) -> list[dict[str, Any]]:
    """The trace events (module docstring), in a stable order."""
    ev, ops, la = tr.events, tr.ops, tr.launches
    out: list[dict[str, Any]] = []
    tids: dict[A.Instance, int] = {}
    for L in range(len(la)):
        out.append({"ph": "M", "name": "process_name", "pid": L + 1, "tid": 0,
                    "args": {"name": f"launch {L}: {la['kernel'][L]}"}})
    for inst in A.instances(tr):
        tids[inst] = tid = len(tids) + 1
        out.append({"ph": "M", "name": "thread_name", "pid": inst[0] + 1, "tid": tid,
                    "args": {"name": f"wg ({inst[1]},{inst[2]},{inst[3]}) sg {inst[4]}"}})
    us = 1e-3
    g = tr.grf
    grf_by_event: dict[int, list[int]] = {}
    for r, e in enumerate(g["event"].tolist()):
        grf_by_event.setdefault(e, []).append(r)
    barrier_slices: dict[tuple, list[tuple[float, int]]] = {}
    for inst, tid in tids.items():
        pid = inst[0] + 1
        rb = int(la["grf_bytes"][inst[0]])
        evs = A.instance_events(tr, inst)
        stack: list[tuple[int, int]] = []  # (t_end, depth) of open slices
        refs: dict[int, int] = {}
        where: dict[str, range] = {}
        nbar = 0
        track: list[dict[str, Any]] = []
        for e in evs.tolist():
            tb, te = int(ev["t_begin"][e]), int(ev["t_end"][e])
            while stack and stack[-1][0] <= tb:
                track.append({"ph": "E", "pid": pid, "tid": tid, "ts": stack.pop()[0] * us})
            o = int(ev["op"][e])
            name = str(ops["name"][o])
            track.append({"ph": "B", "pid": pid, "tid": tid, "ts": tb * us, "name": name, "cat": "op",
                          "args": {"loc": A.location(tr, e), "event": e, "lanes": f"{int(ev['mask'][e]):#x}"}})
            if name == "gpu.barrier":
                barrier_slices.setdefault((inst[:4], nbar), []).append((tb * us, tid))
                nbar += 1
            te = max(te, tb)
            # a slice ends no later than the one enclosing it (timestamps of nested ops are inside by construction)
            if stack:
                te = min(te, stack[-1][0])
            stack.append((te, int(ev["depth"][e])))
            track.append({"ph": "C", "pid": pid, "tid": tid, "ts": tb * us, "name": "active lanes",
                          "args": {"lanes": bin(int(ev["mask"][e])).count("1")}})
            rows = grf_by_event.get(e)
            if rows:
                for r in rows:
                    label = str(g["value"][r])
                    for reg in where.pop(label, range(0)):
                        refs[reg] -= 1
                        if not refs[reg]:
                            del refs[reg]
                    if g["action"][r] == "place" and not g["spilled"][r]:
                        off, n = int(g["offset"][r]), max(int(g["nbytes"][r]), 1)
                        where[label] = regs = range(off // rb, (off + n - 1) // rb + 1)
                        for reg in regs:
                            refs[reg] = refs.get(reg, 0) + 1
                track.append({"ph": "C", "pid": pid, "tid": tid, "ts": tb * us, "name": "GRF registers",
                              "args": {"registers": len(refs)}})
        while stack:
            track.append({"ph": "E", "pid": pid, "tid": tid, "ts": stack.pop()[0] * us})
        out += track
    flow = 0
    for (_, _), slices in sorted(barrier_slices.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if len(slices) < 2:
            continue
        flow += 1
        slices.sort()
        pid_of = {tid: inst[0] + 1 for inst, tid in tids.items()}
        for i, (ts, tid) in enumerate(slices):
            ph = "s" if i == 0 else ("f" if i == len(slices) - 1 else "t")
            ev_ = {"ph": ph, "id": flow, "pid": pid_of[tid], "tid": tid, "ts": ts, "name": "barrier", "cat": "sync"}
            if ph == "f":
                ev_["bp"] = "e"
            out.append(ev_)
    sy = tr.sync
    phases: dict[tuple, list[tuple[str, int]]] = {}
    for r in range(len(sy)):
        k = str(sy["kind"][r])
        if k in ("arrive", "acquire"):
            key = (int(sy["launch"][r]), int(sy["wg_x"][r]), int(sy["wg_y"][r]), int(sy["wg_z"][r]),
                   int(sy["barrier"][r]), int(sy["phase"][r]))
            phases.setdefault(key, []).append((k, r))
    for key, items in sorted(phases.items()):
        arrivals = [r for k, r in items if k == "arrive"]
        acquires = [r for k, r in items if k == "acquire"]
        if not arrivals or not acquires:
            continue
        for a in arrivals:
            inst_a = (key[0], key[1], key[2], key[3], int(sy["sg"][a]))
            if inst_a not in tids:
                continue
            for q in acquires:
                inst_q = (key[0], key[1], key[2], key[3], int(sy["sg"][q]))
                if inst_q not in tids or inst_q == inst_a:
                    continue
                flow += 1
                name = f"nbarrier {key[4]} phase {key[5]}"
                ta, tq = int(sy["t"][a]) * 1e-3, int(sy["t"][q]) * 1e-3
                out.append({"ph": "s", "id": flow, "pid": key[0] + 1, "tid": tids[inst_a], "ts": ta, "name": name,
                            "cat": "sync"})
                out.append({"ph": "f", "id": flow, "pid": key[0] + 1, "tid": tids[inst_q], "ts": max(ta, tq),
                            "name": name, "cat": "sync", "bp": "e"})
    return out


def export(tr: Trace, path: str | Path) -> int:
    """Write the Perfetto JSON of ``tr`` to ``path`` (atomically); returns the number of trace events."""
    evs = events(tr)
    doc = {"traceEvents": evs, "displayTimeUnit": "ns",
           "otherData": {"program": tr.meta.get("program", ""), "xesim": tr.meta.get("xesim", ""),
                         "truncated": tr.meta.get("truncated")}}
    with atomic_file(Path(path)) as tmp, open(tmp, "w") as fh:
        json.dump(doc, fh, separators=(",", ":"))
    return len(evs)


__all__ = ["events", "export"]
