"""Questions answered from a loaded trace (xesim/trace/format.py): used by ``xesim trace summary | log | export |
view`` and by tests.  Every function takes a :class:`~xesim.trace.format.Trace` and returns plain data.

An *instance* is one subgroup of one workgroup of one launch: ``(launch, wg_x, wg_y, wg_z, sg)``.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from xesim.trace.format import Trace, dtype_named

Instance = tuple[int, int, int, int, int]


def instances(tr: Trace) -> list[Instance]:
    """The recorded instances in the order they first executed."""
    ev = tr.events
    if not len(ev):
        return []
    keys = np.stack([ev["launch"], ev["wg_x"], ev["wg_y"], ev["wg_z"], ev["sg"]], axis=1)
    _, first = np.unique(keys, axis=0, return_index=True)
    return [tuple(int(x) for x in keys[i]) for i in sorted(first.tolist())]  # type: ignore[misc]


def instance_events(tr: Trace, inst: Instance) -> np.ndarray:
    """Event numbers of one instance, in execution order."""
    ev = tr.events
    m = ((ev["launch"] == inst[0]) & (ev["wg_x"] == inst[1]) & (ev["wg_y"] == inst[2]) & (ev["wg_z"] == inst[3])
         & (ev["sg"] == inst[4]))
    return np.flatnonzero(m)


def op_name(tr: Trace, event: int) -> str:
    return str(tr.ops["name"][tr.events["op"][event]])


def location(tr: Trace, event: int) -> str:
    o = int(tr.events["op"][event])
    f, line, col = str(tr.ops["file"][o]), int(tr.ops["line"][o]), int(tr.ops["col"][o])
    return f"{f}:{line}:{col}" if line else "<unknown>"


def source_caret(tr: Trace, event: int) -> tuple[str, str]:
    """The op's source line and a caret line under its column ('' when the source is not recorded)."""
    o = int(tr.events["op"][event])
    line = tr.source_line(str(tr.ops["file"][o]), int(tr.ops["line"][o]))
    col = int(tr.ops["col"][o])
    return line, (" " * (col - 1) + "^") if line else ""


def event_values(tr: Trace, event: int, role: int) -> list[tuple[int, np.ndarray]]:
    """(index, value) of the recorded results (role 0) or operands (role 1) of an event."""
    v = tr.values
    rows = np.flatnonzero((v["event"] == event) & (v["role"] == role))
    return [(int(v["index"][r]), tr.value(int(r))) for r in rows]


def digest(a: np.ndarray) -> str:
    """A short content hash of a value's bytes (for logs that diff)."""
    return f"{zlib.crc32(np.ascontiguousarray(a).tobytes()) & 0xffffffff:08x}"


def value_text(a: np.ndarray, limit: int = 8) -> str:
    """A one-line rendering: the elements when few, else the first ``limit`` and a digest."""
    flat = a.reshape(-1)
    items = ", ".join(_elem(x) for x in flat[:limit].tolist())
    shape = "x".join(map(str, a.shape)) or "scalar"
    if flat.size <= limit:
        return items if a.ndim == 0 else f"[{items}]"
    return f"{shape} {a.dtype.name} [{items}, ...] #{digest(a)}"


def _elem(x: object) -> str:
    if isinstance(x, float):
        return f"{x:g}"
    return str(x)


# ------------------------------------------------------------------------------------------------ registers
@dataclass
class Placed:
    """A value live in the register file: ``label``, first byte ``offset``, ``nbytes``, ``layout`` number,
    its register ``image`` (None when not recorded) and whether it ``spilled``."""

    label: str
    offset: int
    nbytes: int
    layout: int
    image: np.ndarray | None
    spilled: bool


def grf_at(tr: Trace, inst: Instance, event: int) -> dict[str, Placed]:
    """The values the instance's register file holds after ``event`` ran (the register-file model's placements and
    frees up to and including that event)."""
    g = tr.grf
    evs = instance_events(tr, inst)
    mine = np.isin(g["event"], evs[evs <= event])
    live: dict[str, Placed] = {}
    for r in np.flatnonzero(mine).tolist():
        label = str(g["value"][r])
        if g["action"][r] == "free":
            live.pop(label, None)
            continue
        o, n = int(g["offset"][r]), int(g["nbytes"][r])
        io = int(g["image_offset"][r])
        img = tr.grf_bytes[io:io + n] if io >= 0 else None
        live[label] = Placed(label, o, n, int(g["layout"][r]), img, bool(g["spilled"][r]))
    return live


def grf_bytes_at(tr: Trace, inst: Instance, event: int, registers: int, register_bytes: int) -> tuple:
    """``(bytes [registers, register_bytes] uint8, owner [registers, register_bytes] int (-1 free, else the
    index into labels), element [..] int (element of the value each byte belongs to, -1), labels)``."""
    data = np.zeros((registers * register_bytes,), np.uint8)
    owner = np.full(registers * register_bytes, -1, np.int32)
    elem = np.full(registers * register_bytes, -1, np.int32)
    labels: list[str] = []
    for p in grf_at(tr, inst, event).values():
        if p.spilled or p.offset < 0:
            continue
        end = min(p.offset + p.nbytes, data.size)
        k = len(labels)
        labels.append(p.label)
        owner[p.offset:end] = k
        if p.image is not None:
            data[p.offset:end] = p.image[:end - p.offset]
        if p.layout >= 0:
            offs = tr.element_offsets(p.layout)
            isz = dtype_named(str(tr.layouts["dtype"][p.layout])).itemsize
            idx = (offs.reshape(-1, 1) + np.arange(isz)).reshape(-1) + p.offset
            ok = idx < end
            elem[idx[ok]] = np.repeat(np.arange(offs.size), isz)[ok]
    shape = (registers, register_bytes)
    return data.reshape(shape), owner.reshape(shape), elem.reshape(shape), labels


def grf_peak(tr: Trace, launch: int, register_bytes: int) -> tuple[int, Instance | None, int]:
    """(peak registers live, the instance, the event) over the launch's recorded instances."""
    g = tr.grf
    ev = tr.events
    best: tuple[int, Instance | None, int] = (0, None, -1)
    for inst in instances(tr):
        if inst[0] != launch:
            continue
        evs = instance_events(tr, inst)
        rows = np.flatnonzero(np.isin(g["event"], evs))
        refs: dict[int, int] = {}
        where: dict[str, range] = {}
        for r in rows.tolist():
            label = str(g["value"][r])
            if g["action"][r] == "free":
                for reg in where.pop(label, range(0)):
                    refs[reg] -= 1
                    if not refs[reg]:
                        del refs[reg]
                continue
            if g["spilled"][r]:
                continue
            o, n = int(g["offset"][r]), int(g["nbytes"][r])
            regs = range(o // register_bytes, (o + max(n, 1) - 1) // register_bytes + 1)
            for reg in where.pop(label, range(0)):
                refs[reg] -= 1
                if not refs[reg]:
                    del refs[reg]
            where[label] = regs
            for reg in regs:
                refs[reg] = refs.get(reg, 0) + 1
            if len(refs) > best[0]:
                best = (len(refs), inst, int(g["event"][r]))
    del ev
    return best


# ------------------------------------------------------------------------------------------------ memory
def writers(tr: Trace, alloc: int, element_bytes: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Per element of allocation ``alloc`` (``element_bytes`` each): the linear workgroup number (x fastest) and
    the subgroup of its last recorded writer (-1: not written while recording)."""
    size = int(tr.allocs["size"][alloc])
    n = size // element_bytes
    wg = np.full(n, -1, np.int64)
    sg = np.full(n, -1, np.int64)
    m = tr.memory
    ev = tr.events
    la = tr.launches
    rows = np.flatnonzero((m["alloc"] == alloc) & (m["kind"] != "read"))
    for r in rows.tolist():
        e = int(m["event"][r])
        L = int(ev["launch"][e])
        gx, gy = int(la["grid_x"][L]), int(la["grid_y"][L])
        lin = int(ev["wg_x"][e]) + gx * (int(ev["wg_y"][e]) + gy * int(ev["wg_z"][e]))
        a, b = int(m["start"][r]) // element_bytes, -(-int(m["end"][r]) // element_bytes)
        wg[a:b] = lin
        sg[a:b] = int(ev["sg"][e])
    return wg, sg


def bytes_moved(tr: Trace, events: np.ndarray | None = None) -> dict[str, int]:
    """Bytes read, written and updated atomically (by the selected events)."""
    m = tr.memory
    sel = np.ones(len(m), bool) if events is None else np.isin(m["event"], events)
    size = (m["end"] - m["start"])[sel]
    kinds = m["kind"][sel]
    return {k: int(size[kinds == k].sum()) for k in ("read", "write", "atomic")}


# ------------------------------------------------------------------------------------------------ search
def matches(tr: Trace, event: int, query: str) -> bool:
    """Whether ``event`` matches a search: a number matches events with a recorded result value holding that number;
    other text matches op names and locations containing it (case-insensitive; ``:25`` or ``gemm.mlir:25`` for a
    line)."""
    q = query.strip().lower()
    if not q:
        return False
    try:
        x = float(q)
    except ValueError:
        return q in op_name(tr, event).lower() or q in location(tr, event).lower() + ":"
    return any(np.any(v.astype(np.float64) == x) for _, v in event_values(tr, event, 0)
               if v.dtype.kind in "fiub" or v.dtype.name in ("bfloat16", "float8_e4m3fn", "float8_e5m2"))


def search(tr: Trace, query: str, after: int = -1) -> int | None:
    """The first event after event ``after`` (wrapping around) that :func:`matches` ``query``, or None."""
    n = len(tr.events)
    for k in range(1, n + 1):
        e = (after + k) % n
        if matches(tr, e, query):
            return e
    return None
