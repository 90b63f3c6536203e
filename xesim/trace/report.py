"""``xesim trace summary`` and ``xesim trace log``: a trace as tables and as a commit log (issue 28).

* :func:`summary` — per launch: its geometry and what was recorded, op counts with time spent, bytes moved per
  access kind and address space, DPAS count and shapes, the register-file peak and where it was reached, barrier
  releases and the time subgroups spent in barrier ops (rich tables);
* :func:`log_lines` — one line per executed op, like a processor simulator's commit log: launch, workgroup,
  subgroup, active lanes, op, location, results (elements when few, else shape, first elements and a content
  hash).  No times and no addresses, so the logs of two runs diff cleanly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np

from xesim.trace import analysis as A  # noqa: N812
from xesim.trace.format import Trace


def summary(tr: Trace, console: Any) -> None:
    """Print the summary tables of ``tr`` on a rich ``console``."""
    from rich.table import Table

    meta = tr.meta
    console.print(f"[bold]trace[/bold] {tr.path}: program {meta.get('program') or '-'}, xesim {meta.get('xesim')}, "
                  f"{len(tr.events)} op executions, {len(tr.launches)} launch(es)")
    if meta.get("truncated"):
        console.print(f"[yellow]truncated:[/yellow] {meta['truncated']}")
    if meta.get("error"):
        console.print(f"[red]the run stopped with an error:[/red] {meta['error'].splitlines()[0]}")
    la, ev, ops = tr.launches, tr.events, tr.ops
    for L in range(len(la)):
        grid = tuple(int(la[f"grid_{c}"][L]) for c in "xyz")
        block = tuple(int(la[f"block_{c}"][L]) for c in "xyz")
        sel = np.flatnonzero(ev["launch"] == L)
        dur = (int(la["t_end"][L]) - int(la["t_begin"][L])) / 1e6
        head = (f"launch {L}: {la['kernel'][L]} ({la['level'][L]} level), grid {grid}, block {block}, "
                f"{int(la['subgroups'][L])} subgroup(s) per workgroup, {dur:.1f} ms")
        if not la["traced"][L]:
            console.print(f"\n[bold]{head}[/bold]: not recorded (filters)")
            continue
        insts = {i for i in A.instances(tr) if i[0] == L}
        wgs = {i[1:4] for i in insts}
        console.print(f"\n[bold]{head}[/bold]\n  recorded: {len(wgs)} workgroup(s), {len(insts)} subgroup(s), "
                      f"{sel.size} op executions")
        if not sel.size:
            continue
        names = ops["name"][ev["op"][sel]]
        t = (ev["t_end"][sel] - ev["t_begin"][sel]).astype(np.int64)
        counts = Counter(names.tolist())
        time_by: dict[str, int] = {}
        for n, d in zip(names.tolist(), t.tolist()):
            time_by[n] = time_by.get(n, 0) + d
        tab = Table(title="ops", show_edge=False)
        for c, j in (("op", "left"), ("executions", "right"), ("time ms (incl. nested)", "right")):
            tab.add_column(c, justify=j)  # type: ignore[arg-type]
        for n, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            tab.add_row(n, str(c), f"{time_by[n] / 1e6:.2f}")
        console.print(tab)
        mem = tr.memory
        msel = np.isin(mem["event"], sel)
        tab = Table(title="bytes moved", show_edge=False)
        for c in ("space", "read", "written", "atomic"):
            tab.add_column(c, justify="left" if c == "space" else "right")
        spaces = tr.allocs["space"][mem["alloc"][msel]] if msel.any() else np.zeros(0, str)
        size = (mem["end"] - mem["start"])[msel]
        kinds = mem["kind"][msel]
        for sp in ("global", "slm"):
            s = spaces == sp
            tab.add_row(sp, *(f"{int(size[s & (kinds == k)].sum()):,}" for k in ("read", "write", "atomic")))
        console.print(tab)
        dpas = sel[names == "xegpu.dpas"]
        if dpas.size:
            shapes: Counter = Counter()
            for e in dpas.tolist():
                vals = dict(A.event_values(tr, e, 1))
                res = dict(A.event_values(tr, e, 0))
                shapes[" · ".join("x".join(map(str, vals[i].shape)) for i in sorted(vals)) +
                       (" -> " + "x".join(map(str, res[0].shape)) if 0 in res else "")] += 1
            console.print("  DPAS: " + ", ".join(f"{c} x ({s or 'shapes not recorded'})" for s, c in shapes.items()))
        regs, rb = int(la["grf_registers"][L]), int(la["grf_bytes"][L])
        peak, inst, pe = A.grf_peak(tr, L, rb)
        if inst is not None:
            console.print(f"  GRF peak: {peak} of {regs} registers ({rb} B) in workgroup {inst[1:4]} subgroup "
                          f"{inst[4]} at {A.op_name(tr, pe)} ({A.location(tr, pe)}), event {pe}")
        sy = tr.sync
        ssel = sy["launch"] == L
        bar = sel[names == "gpu.barrier"]
        wait = int((ev["t_end"][bar] - ev["t_begin"][bar]).sum()) if bar.size else 0
        nb = int((sy["kind"][ssel] == "barrier").sum())
        na = int((sy["kind"][ssel] == "arrive").sum())
        if nb or na or bar.size:
            console.print(f"  barriers: {nb} gpu.barrier release(s), {bar.size} subgroup wait(s) totalling "
                          f"{wait / 1e6:.2f} ms; named barriers: {na} arrival(s), "
                          f"{int((sy['kind'][ssel] == 'acquire').sum())} acquisition(s)")


def log_lines(tr: Trace, limit: int = 8) -> Iterator[str]:
    """One line per recorded op execution (module docstring)."""
    ev, ops = tr.events, tr.ops
    v = tr.values
    results: dict[int, list[int]] = {}
    for r in np.flatnonzero(v["role"] == 0).tolist():
        results.setdefault(int(v["event"][r]), []).append(r)
    names = ops["name"]
    file, line, col = ops["file"], ops["line"], ops["col"]
    rtext = ops["results"]
    full = {int(L): (1 << int(tr.launches["lanes"][L])) - 1 for L in range(len(tr.launches))}
    for e in range(len(ev)):
        o = int(ev["op"][e])
        L = int(ev["launch"][e])
        wg = f"({ev['wg_x'][e]},{ev['wg_y'][e]},{ev['wg_z'][e]})"
        mask = int(ev["mask"][e])
        m = "" if mask == full.get(L) else f" lanes={mask:#06x}"
        loc = f"{file[o]}:{line[o]}:{col[o]}" if line[o] else "<unknown>"
        out = []
        names_of = [s.split(":")[0] for s in str(rtext[o]).split(", ")] if rtext[o] else []
        for r in results.get(e, ()):
            i = int(v["index"][r])
            nm = names_of[i] if i < len(names_of) else f"#{i}"
            out.append(f"{nm} = {A.value_text(tr.value(r), limit)}")
        yield (f"L{L} wg{wg} sg{ev['sg'][e]}{m} {'  ' * int(ev['depth'][e])}{names[o]} {loc}"
               + (f" : {'; '.join(out)}" if out else ""))
