"""The trace viewer's panes as rich ``Text`` (issue 28 item 2): pure functions of a loaded trace and a selected event,
so that what a pane shows can be tested without a terminal.  The app that lays them out is
:mod:`xesim.trace.viewer`.

* :func:`op_pane` — the op, its source line with a caret, the lane mask, operands and results as matrices (per-lane
  SIMT values one row per lane, coloured by lane);
* :func:`timeline` — the workgroup's subgroups side by side, one character per op, segments aligned at barriers
  (``gpu.barrier``) and named-barrier waits, the selected op highlighted, partly active ops dimmed;
* :func:`register_pane` — the subgroup's GRF at the op (after it ran): one row per register of 64 byte cells naming
  the value each byte belongs to, the element range it holds, the bytes in hex, the peak;
* :func:`memory_pane` — an allocation as a heatmap of which workgroup (and subgroup, when workgroups have several)
  last wrote each element, and for a 2D block
  message its window over the surface with the out-of-bounds (padding) part, transpose and VNNI packing;
* :func:`dpas_pane` — A, B, C and the result of a DPAS.
"""

from __future__ import annotations

import numpy as np
from rich.text import Text

from xesim.trace import analysis as A  # noqa: N812
from xesim.trace.format import Trace

#: a colour per lane (SIMT fragments, lane masks)
LANE_COLOURS = ["red", "green", "yellow", "blue", "magenta", "cyan", "bright_red", "bright_green",
                "bright_yellow", "bright_blue", "bright_magenta", "bright_cyan", "orange3", "purple", "turquoise2",
                "gold1"]
#: symbols naming values (register pane) and workgroups (memory pane)
SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
OWNER_COLOURS = ["cyan", "magenta", "yellow", "green", "blue", "red", "bright_cyan", "bright_magenta"]
MAX_CELLS = 16  # rows and columns of a matrix shown
SYNC_OPS = ("gpu.barrier", "xegpu.nbarrier_wait")


def instance_of(tr: Trace, event: int) -> A.Instance:
    ev = tr.events
    return (int(ev["launch"][event]), int(ev["wg_x"][event]), int(ev["wg_y"][event]), int(ev["wg_z"][event]),
            int(ev["sg"][event]))


def lane_bar(mask: int, lanes: int) -> Text:
    """One cell per lane: a coloured block when active, a dot when not."""
    t = Text()
    for i in range(lanes):
        t.append("█" if mask >> i & 1 else "·", style=LANE_COLOURS[i % 16] if mask >> i & 1 else "dim")
    t.append(f" {mask:#06x} ({bin(mask).count('1')} of {lanes} lanes)")
    return t


def matrix(a: np.ndarray, per_lane: bool = False) -> Text:
    """A value as rows of aligned elements (at most MAX_CELLS x MAX_CELLS shown); a per-lane value ``[lanes, ...]``
    one row per lane in the lane's colour."""
    t = Text()
    if a.ndim == 0:
        t.append(_fmt(a.item()))
        return t
    m = a.reshape(a.shape[0], -1) if per_lane or a.ndim > 2 else a.reshape(1, -1) if a.ndim == 1 else a
    rows, cols = m.shape
    shown = m[:MAX_CELLS, :MAX_CELLS]
    cells = [[_fmt(x) for x in row] for row in shown.tolist()]
    width = max((len(c) for r in cells for c in r), default=1)
    for i, row in enumerate(cells):
        style = LANE_COLOURS[i % 16] if per_lane else ""
        t.append(f"  {'lane ' + str(i).rjust(2) if per_lane else str(i).rjust(3)} ", style="dim")
        t.append(" ".join(c.rjust(width) for c in row), style=style)
        if cols > MAX_CELLS:
            t.append(f" … ({cols} columns)", style="dim")
        t.append("\n")
    if rows > MAX_CELLS:
        t.append(f"  … ({rows} rows)\n", style="dim")
    return t


def _fmt(x: object) -> str:
    if isinstance(x, float):
        return f"{x:g}"
    return str(x)


def _value_names(tr: Trace, op: int) -> list[str]:
    text = str(tr.ops["results"][op])
    return [s.split(":")[0] for s in text.split(", ")] if text else []


def op_pane(tr: Trace, event: int) -> Text:
    """The op pane of ``event`` (module docstring)."""
    ev = tr.events
    o = int(ev["op"][event])
    inst = instance_of(tr, event)
    L = inst[0]
    t = Text()
    t.append(str(tr.ops["name"][o]), style="bold")
    t.append(f"  {A.location(tr, event)}  event {event}  launch {L} wg ({inst[1]},{inst[2]},{inst[3]}) "
             f"sg {inst[4]}\n")
    line, caret = A.source_caret(tr, event)
    if line:
        n = int(tr.ops["line"][o])
        t.append(f"{n:5d} | ", style="dim")
        t.append(line + "\n")
        t.append("      | ", style="dim")
        t.append(caret + "\n", style="bold red")
    t.append("lanes ")
    t.append_text(lane_bar(int(ev["mask"][event]), int(tr.launches["lanes"][L])))
    t.append("\n")
    lanes_level = str(tr.launches["level"][L]) == "lane"
    names = _value_names(tr, o)
    for role, title in ((0, "results"), (1, "operands")):
        vals = A.event_values(tr, event, role)
        if not vals:
            continue
        t.append(f"{title}:\n", style="bold")
        for i, v in vals:
            rows = np.flatnonzero((tr.values["event"] == event) & (tr.values["role"] == role)
                                  & (tr.values["index"] == i))
            per_lane = bool(tr.values["lanes"][rows[0]]) if rows.size else False
            label = (names[i] if role == 0 and i < len(names) else f"#{i}")
            shape = "x".join(map(str, v.shape[1:] if per_lane else v.shape)) or "scalar"
            t.append(f" {label}: {shape} {v.dtype.name}" + (" per lane" if per_lane else "") + "\n")
            t.append_text(matrix(v, per_lane and lanes_level))
    return t


# ------------------------------------------------------------------------------------------------ timeline
def _glyph(name: str) -> str:
    if name == "xegpu.dpas":
        return "D"
    if name in ("gpu.barrier",):
        return "|"
    if name.startswith("xegpu.nbarrier"):
        return "a" if name.endswith("arrive") else "w"
    if "load" in name:
        return "L"
    if "store" in name:
        return "S"
    if name.startswith("scf."):
        return ":"
    return "·"


def timeline(tr: Trace, event: int, width: int = 64) -> Text:
    """The selected event's workgroup, one line per recorded subgroup (module docstring); ``width`` columns around
    the selected op.  Legend: L load, S store, D dpas, | gpu.barrier, a/w named-barrier arrive/wait, : scf."""
    inst = instance_of(tr, event)
    subs = [i for i in A.instances(tr) if i[:4] == inst[:4]]
    names = tr.ops["name"]
    full = (1 << int(tr.launches["lanes"][inst[0]])) - 1
    segs: dict[A.Instance, list[list[int]]] = {}
    for s in subs:
        cur: list[int] = []
        out = [cur]
        for e in A.instance_events(tr, s).tolist():
            cur.append(e)
            if str(names[tr.events["op"][e]]) in SYNC_OPS:
                cur = []
                out.append(cur)
        segs[s] = out
    nseg = max(len(v) for v in segs.values())
    seg_w = [max((len(v[k]) if k < len(v) else 0) for v in segs.values()) for k in range(nseg)]
    col_of: dict[int, int] = {}
    lines: dict[A.Instance, list[tuple[str, int]]] = {}
    for s, v in segs.items():
        cells: list[tuple[str, int]] = []
        for k in range(nseg):
            seg = v[k] if k < len(v) else []
            for e in seg:
                col_of[e] = len(cells)
                cells.append((_glyph(str(names[tr.events["op"][e]])), e))
            cells += [(" ", -1)] * (seg_w[k] - len(seg))
        lines[s] = cells
    here = col_of.get(event, 0)
    total = max(len(c) for c in lines.values())
    start = max(0, min(here - width // 2, total - width))
    t = Text()
    t.append(f"wg ({inst[1]},{inst[2]},{inst[3]}) launch {inst[0]}: columns {start}-{min(total, start + width) - 1} "
             f"of {total}, aligned at barriers\n", style="dim")
    for s in subs:
        t.append(f"sg{s[4]:<3}", style="bold" if s == inst else "dim")
        for g, e in lines[s][start:start + width]:
            style = "reverse bold" if e == event else ("dim" if e >= 0 and int(tr.events["mask"][e]) != full else "")
            t.append(g, style=style)
        t.append("\n")
    return t


# ------------------------------------------------------------------------------------------------ registers
def register_pane(tr: Trace, event: int) -> Text:
    """The register file of the event's subgroup after the event ran (module docstring)."""
    inst = instance_of(tr, event)
    L = inst[0]
    regs, rb = int(tr.launches["grf_registers"][L]), int(tr.launches["grf_bytes"][L])
    data, owner, elem, labels = A.grf_bytes_at(tr, inst, event, regs, rb)
    peak, pinst, pe = A.grf_peak(tr, L, rb)
    used = np.flatnonzero((owner >= 0).any(axis=1))
    t = Text()
    t.append(f"GRF after event {event} ({A.op_name(tr, event)}): {used.size} of {regs} registers of {rb} bytes "
             "hold live values", style="bold")
    if pinst is not None:
        t.append(f"; peak of the launch: {peak} at event {pe}"
                 + (f" ({A.op_name(tr, pe)} {A.location(tr, pe)})" if pe >= 0 else ""))
        if pe == event:
            t.append("  ◆ PEAK", style="bold red")
    t.append("\n")
    for k, label in enumerate(labels):
        rr = np.flatnonzero((owner == k).any(axis=1))
        el = elem[owner == k]
        el = el[el >= 0]
        t.append(f" {SYMBOLS[k % len(SYMBOLS)]} ", style=f"bold {OWNER_COLOURS[k % len(OWNER_COLOURS)]}")
        t.append(f"{label}: r{rr.min()}-r{rr.max()}" + (f", elements 0-{el.max()}" if el.size else "") + "\n")
    t.append("\n")
    for r in used.tolist():
        t.append(f"r{r:<4}", style="bold")
        for b in range(rb):
            k = int(owner[r, b])
            if k < 0:
                t.append("·", style="dim")
            else:
                t.append(SYMBOLS[k % len(SYMBOLS)], style=OWNER_COLOURS[k % len(OWNER_COLOURS)])
        el = elem[r][elem[r] >= 0]
        t.append(f"  el {el.min()}-{el.max()}\n" if el.size else "\n", style="dim")
    t.append("\nbytes (hex):\n", style="bold")
    for r in used.tolist():
        for half in range(0, rb, 32):
            t.append(f"r{r:<4}+{half:<3}", style="dim")
            t.append(data[r, half:half + 32].tobytes().hex() + "\n")
    return t


# ------------------------------------------------------------------------------------------------ memory
def surface_of(tr: Trace, alloc: int) -> tuple[int, int, int, int]:
    """(rows, columns, pitch in elements, element bytes) of an allocation: the surface of the first block message
    on it, else rows of 16 four-byte elements."""
    b = tr.blocks
    rows = np.flatnonzero(b["alloc"] == alloc)
    if rows.size:
        r = int(rows[0])
        return int(b["surface_h"][r]), int(b["surface_w"][r]), int(b["pitch"][r]), int(b["elem_bytes"][r])
    n = int(tr.allocs["size"][alloc]) // 4
    return -(-n // 16), 16, 16, 4


def written_allocs(tr: Trace) -> list[int]:
    """Allocations with recorded writes, in allocation order."""
    m = tr.memory
    return sorted({int(a) for a in m["alloc"][m["kind"] != "read"].tolist()})


def memory_pane(tr: Trace, event: int, alloc: int | None = None, width: int = 64) -> Text:
    """The ownership heatmap of ``alloc`` (default: the first allocation the event accesses, else the first written
    one) and the block window of the event if it is a block message (module docstring)."""
    t = Text()
    m = tr.memory
    if alloc is None:
        mine = m["alloc"][m["event"] == event]
        cands = written_allocs(tr)
        alloc = int(mine[0]) if mine.size else (cands[0] if cands else None)
    block = np.flatnonzero(tr.blocks["event"] == event)
    if block.size:
        t.append_text(block_window(tr, int(block[0])))
        t.append("\n")
    if alloc is None:
        t.append("no memory written while recording\n", style="dim")
        return t
    h, w, pitch, eb = surface_of(tr, alloc)
    wg, sg = A.writers(tr, alloc, eb)
    L = int(tr.events["launch"][event])
    gx, gy = int(tr.launches["grid_x"][L]), int(tr.launches["grid_y"][L])
    per_wg = int(tr.launches["subgroups"][L])  # more than one: the owner is a workgroup's subgroup
    owner = np.where(wg >= 0, wg * per_wg + np.maximum(sg, 0), -1)
    grid = np.full((h, pitch), -1, np.int64)
    flat = owner[:h * pitch]
    grid.reshape(-1)[:flat.size] = flat
    grid = grid[:, :w]
    step = max(1, -(-w // width))
    shown = grid[:, ::step]
    who = "workgroup and subgroup" if per_wg > 1 else "workgroup"
    t.append(f"allocation {alloc} ({tr.allocs['space'][alloc]}, {int(tr.allocs['size'][alloc]):,} bytes) as "
             f"{h}x{w} elements of {eb} bytes: the {who} that last wrote each element"
             + (f" (every {step}th column)" if step > 1 else "") + "\n", style="bold")
    present = sorted({int(x) for x in np.unique(grid) if x >= 0})
    sym = {n: SYMBOLS[i % len(SYMBOLS)] for i, n in enumerate(present)}
    for i, n in enumerate(present[:16]):
        t.append(f" {sym[n]}", style=f"bold {OWNER_COLOURS[i % len(OWNER_COLOURS)]}")
        k = n // per_wg
        t.append(f"=wg ({k % gx},{k // gx % gy},{k // (gx * gy)})" + (f" sg {n % per_wg}" if per_wg > 1 else ""))
    if len(present) > 16:
        t.append(f" … {len(present)} workgroups")
    t.append("   · not written\n", style="dim")
    colour = {n: OWNER_COLOURS[i % len(OWNER_COLOURS)] for i, n in enumerate(present)}
    for r in range(shown.shape[0]):
        t.append(f"{r:4d} ", style="dim")
        for x in shown[r].tolist():
            t.append(sym[x] if x >= 0 else "·", style=colour.get(x, "dim"))
        t.append("\n")
    return t


def block_window(tr: Trace, row: int) -> Text:
    """Row ``row`` of table ``blocks``: the message's window over its surface, '█' inside the surface, '░' outside
    it (padding: a load reads zeros there, a store drops it), '·' the surface around the window."""
    b = tr.blocks
    x, y = int(b["x"][row]), int(b["y"][row])
    rows, cols, n = int(b["rows"][row]), int(b["cols"][row]), int(b["array_length"][row])
    sw, sh = int(b["surface_w"][row]), int(b["surface_h"][row])
    width = cols * n
    inside_r = max(0, min(y + rows, sh) - max(y, 0))
    inside_c = max(0, min(x + width, sw) - max(x, 0))
    oob = rows * width - inside_r * inside_c
    t = Text()
    kind = str(b["kind"][row])
    t.append(f"2D block {kind}: window rows {y}..{y + rows - 1}, columns {x}..{x + width - 1} "
             f"({rows}x{cols}" + (f" x {n} blocks" if n > 1 else "") + f") over a {sh}x{sw} surface "
             f"(pitch {int(b['pitch'][row])}, {int(b['elem_bytes'][row])}-byte elements)\n", style="bold")
    t.append(f"out of bounds: {oob} of {rows * width} elements"
             + (" (read as 0)" if kind == "load" and oob else " (not written)" if oob and kind == "store" else "")
             + f"; transpose: {'yes' if b['transpose'][row] else 'no'}; VNNI packed: "
             f"{'yes' if b['vnni'][row] else 'no'}\n")
    r0, r1 = min(y, 0) if y < 0 else max(0, y - 1), max(y + rows, 0) + 1
    c0, c1 = min(x, 0) if x < 0 else max(0, x - 2), x + width + 2
    r1, c1 = min(r1, max(sh, y + rows)), min(c1, max(sw, x + width))
    step = max(1, -(-(c1 - c0) // 72))
    for rr in range(r0, r1):
        t.append(f"{rr:5d} ", style="dim")
        for cc in range(c0, c1, step):
            in_win = y <= rr < y + rows and x <= cc < x + width
            in_surf = 0 <= rr < sh and 0 <= cc < sw
            if in_win:
                t.append("█" if in_surf else "░", style="green" if in_surf else "red")
            else:
                t.append("·" if in_surf else " ", style="dim")
        t.append("\n")
    return t


# ------------------------------------------------------------------------------------------------ dpas
def dpas_event(tr: Trace, event: int) -> int | None:
    """The event itself if it is a DPAS, else the subgroup's next DPAS (or its last one), or None."""
    if A.op_name(tr, event) == "xegpu.dpas":
        return event
    evs = A.instance_events(tr, instance_of(tr, event))
    names = tr.ops["name"][tr.events["op"][evs]]
    d = evs[names == "xegpu.dpas"]
    if not d.size:
        return None
    after = d[d > event]
    return int(after[0]) if after.size else int(d[-1])


def dpas_pane(tr: Trace, event: int) -> Text:
    """A, B, C and the result of the selected (or the subgroup's next) DPAS."""
    e = dpas_event(tr, event)
    t = Text()
    if e is None:
        t.append("this subgroup executes no xegpu.dpas\n", style="dim")
        return t
    t.append(f"xegpu.dpas at {A.location(tr, e)}, event {e}" + ("" if e == event else " (the subgroup's next)")
             + "\n", style="bold")
    lane = str(tr.launches["level"][int(tr.events["launch"][e])]) == "lane"
    ops = dict(A.event_values(tr, e, 1))
    res = dict(A.event_values(tr, e, 0))
    for title, v in (("A", ops.get(0)), ("B", ops.get(1)), ("C (accumulator)", ops.get(2)), ("result", res.get(0))):
        if v is None:
            if title.startswith("C"):
                t.append("C: none (zero accumulator)\n", style="dim")
            continue
        t.append(f"{title}: {'x'.join(map(str, v.shape))} {v.dtype.name}" + (" [lane, fragment]" if lane else "")
                 + "\n", style="bold")
        t.append_text(matrix(v, lane))
    return t


__all__ = ["block_window", "dpas_pane", "matrix", "memory_pane", "op_pane", "register_pane", "timeline"]
