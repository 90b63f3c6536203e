"""The ``.xetrace`` file format, version 1: its schema, its writer and its reader (traces/FORMAT.md).

A trace is a set of **tables** of equal-length numpy columns, stored as one uncompressed or deflated numpy ``.npz``
archive (a zip of ``.npy`` arrays: readable by numpy alone, columns memory-mappable when stored uncompressed).  Every
table and column is declared once, in :data:`TABLES`; traces/FORMAT.md documents each of them and
``tests/unit/test_trace_format.py`` checks the two agree.  String columns hold indices into one string table
(``strings``), decoded when a trace is loaded.  Variable-size payloads (recorded values, register images, layout
offsets) live in byte blobs that rows address by ``offset`` and ``nbytes``.

Why npz (measured with tools/bench_trace.py, traces/FORMAT.md "Storage"): columnar, loads with ``np.load`` without
a new dependency; deflated at zlib level 1 it is about 4x smaller than the same tables in SQLite (also
dependency-free, row-oriented) and writes in similar time; Arrow/Parquet would add a large dependency.

The writer never leaves a half-written file: it writes ``PATH.partial-<pid>`` next to the target and renames it over
``PATH`` only when complete (an interrupted run leaves no file at ``PATH`` and removes its partial file).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

FORMAT_NAME = "xetrace"
VERSION = 1
#: zlib level of the archive members (traces/FORMAT.md "Storage": level 1 writes several times faster than 6 for a
#: file a few per cent larger)
DEFLATE_LEVEL = 1

#: table -> [(column, numpy dtype, meaning)]; dtype "str" is an index into ``strings`` (decoded on load)
TABLES: dict[str, list[tuple[str, str, str]]] = {
    "launches": [
        ("launch", "i4", "launch number, 0-based, in the order the program made them"),
        ("kernel", "str", "kernel symbol, module::function"),
        ("level", "str", "program level: subgroup | vc | lane | workgroup"),
        ("grid_x", "i4", "grid size x (workgroups)"), ("grid_y", "i4", "grid size y"), ("grid_z", "i4", "grid size z"),
        ("block_x", "i4", "workgroup size x (work-items)"), ("block_y", "i4", "workgroup size y"),
        ("block_z", "i4", "workgroup size z"),
        ("subgroups", "i4", "subgroups per workgroup"),
        ("lanes", "i4", "work-items per subgroup"),
        ("grf_registers", "i4", "registers per subgroup thread in this launch (normal or large GRF)"),
        ("grf_bytes", "i4", "bytes per register"),
        ("traced", "u1", "1 when the filters selected this launch (its events are recorded)"),
        ("t_begin", "i8", "launch start, ns since the recording started"),
        ("t_end", "i8", "launch end, ns since the recording started"),
    ],
    "ops": [
        ("op", "i4", "op number (events refer to it)"),
        ("name", "str", "op name, e.g. xegpu.load_nd"),
        ("file", "str", "source file of the op's location"),
        ("line", "i4", "1-based line (0: unknown location)"),
        ("col", "i4", "1-based column"),
        ("results", "str", "the op's result names and types, e.g. '%d: vector<8x16xf32>'"),
    ],
    "events": [
        ("seq", "i8", "event number: the row index (op executions in recording order)"),
        ("launch", "i4", "launch number"),
        ("wg_x", "i4", "workgroup id x"), ("wg_y", "i4", "workgroup id y"), ("wg_z", "i4", "workgroup id z"),
        ("sg", "i4", "subgroup id within the workgroup"),
        ("op", "i4", "op number (table ops)"),
        ("depth", "i2", "nesting depth in the kernel body (0: the kernel's own ops; ops of an scf.for body 1, ...)"),
        ("mask", "u4", "active lanes, bit i for lane i (subgroup-level ops: every lane of the subgroup)"),
        ("t_begin", "i8", "op start, ns since the recording started"),
        ("t_end", "i8", "op end (after a barrier wait it includes the time other subgroups ran)"),
    ],
    "values": [
        ("event", "i8", "event number"),
        ("role", "u1", "0: result, 1: operand"),
        ("index", "i2", "result or operand number"),
        ("dtype", "str", "numpy dtype name of the elements (bfloat16 etc. from ml_dtypes)"),
        ("shape", "str", "shape of one instance's value, e.g. '8x16' ('' for a scalar)"),
        ("lanes", "i2", "0: one value for the subgroup; n > 0: per-lane values, stored [n, *shape]"),
        ("offset", "i8", "first byte in blob value_bytes"),
        ("nbytes", "i8", "bytes in value_bytes (elements in C order)"),
    ],
    "memory": [
        ("event", "i8", "event number"),
        ("kind", "str", "read | write | atomic"),
        ("alloc", "i4", "allocation number (table allocs)"),
        ("start", "i8", "first byte accessed, relative to the allocation's base"),
        ("end", "i8", "one past the last byte of this contiguous range"),
    ],
    "allocs": [
        ("alloc", "i4", "allocation number"),
        ("space", "str", "global | slm"),
        ("base", "i8", "base address in its address space"),
        ("size", "i8", "bytes"),
        ("kind", "str", "host | device | global | slm"),
        ("label", "str", "what made it (e.g. 'argument', 'workgroup attribution')"),
    ],
    "blocks": [
        ("event", "i8", "event number of the xegpu.load_nd / store_nd / prefetch_nd"),
        ("kind", "str", "load | store | prefetch"),
        ("alloc", "i4", "allocation of the surface (-1: outside any allocation)"),
        ("surface_offset", "i8", "byte offset of surface element (0, 0) in that allocation"),
        ("surface_w", "i4", "surface width in elements"), ("surface_h", "i4", "surface height in rows"),
        ("pitch", "i4", "surface row pitch in elements"),
        ("elem_bytes", "i2", "element size in bytes"),
        ("x", "i4", "window start column (elements; may be negative or past the surface)"),
        ("y", "i4", "window start row"),
        ("rows", "i4", "window rows (tile height; 1 for a 1-D block)"),
        ("cols", "i4", "window columns of one block (tile width)"),
        ("array_length", "i2", "blocks side by side (a loads' array_length)"),
        ("transpose", "u1", "1: the load transposes"),
        ("vnni", "u1", "1: the value is VNNI-packed"),
    ],
    "grf": [
        ("event", "i8", "event number during which the register-file model placed or freed the value"),
        ("action", "str", "place | free"),
        ("value", "str", "the SSA value, e.g. '%d (xegpu.dpas at prog.mlir:12:3)'"),
        ("offset", "i4", "first byte in the subgroup's register file (register = offset // grf_bytes)"),
        ("nbytes", "i4", "bytes of the register image"),
        ("layout", "i4", "layout number (table layouts; -1 for a free)"),
        ("spilled", "u1", "1: did not fit, placed in the overflow area"),
        ("image_offset", "i8", "first byte of the register image in blob grf_bytes (-1: not recorded)"),
    ],
    "layouts": [
        ("layout", "i4", "layout number"),
        ("kind", "str", "plain | block | dpas | simt | scalar"),
        ("dtype", "str", "element dtype"),
        ("lanes", "i2", "lanes (0: a uniform scalar)"),
        ("channel", "i2", "bytes per lane channel: image byte o belongs to lane (o // channel) % lanes"),
        ("elements", "i4", "elements of the value"),
        ("offset", "i8", "first entry in blob layout_offsets: byte offset of every element in the image"),
    ],
    "sync": [
        ("event", "i8", "the last event recorded before it (-1: none)"),
        ("launch", "i4", "launch number"),
        ("wg_x", "i4", "workgroup id x"), ("wg_y", "i4", "workgroup id y"), ("wg_z", "i4", "workgroup id z"),
        ("sg", "i4", "subgroup (-1: the whole workgroup, for a barrier release)"),
        ("kind", "str", "barrier (every subgroup passed a gpu.barrier) | arrive | acquire (named barriers)"),
        ("barrier", "i4", "named barrier id (-1 for gpu.barrier)"),
        ("phase", "i4", "named-barrier phase, or the workgroup's gpu.barrier count, from 0"),
        ("t", "i8", "ns since the recording started"),
    ],
}
#: byte blobs (uint8 unless noted)
BLOBS = {
    "value_bytes": "recorded values (table values)",
    "grf_bytes": "register images (table grf)",
    "layout_offsets": "int32 element offsets of the layouts (table layouts)",
}
#: keys of the meta record (JSON)
META = {
    "format": "always 'xetrace'",
    "version": "format version (this module's VERSION)",
    "xesim": "the xesim version that wrote it",
    "program": "the program file",
    "sources": "{file name: text} of the sources the op locations point into",
    "options": "the recording options (filters, value limit, size cap)",
    "truncated": "null, or why recording stopped early (the size cap)",
    "error": "null, or the diagnostic of the fault that ended the run",
    "wall_ns": "run time covered by the recording, ns",
}


class TraceFormatError(ValueError):
    """A file that is not a readable trace of a supported version (the message says which and why)."""


class Table:
    """One table of a trace: ``table["column"]`` is a numpy array; ``len(table)`` rows; :meth:`to_pandas`."""

    def __init__(self, name: str, columns: dict[str, np.ndarray]) -> None:
        self.name = name
        self.columns = columns

    def __getitem__(self, col: str) -> np.ndarray:
        return self.columns[col]

    def __len__(self) -> int:
        return len(next(iter(self.columns.values()))) if self.columns else 0

    def __repr__(self) -> str:
        return f"<Table {self.name}: {len(self)} rows, columns {', '.join(self.columns)}>"

    def rows(self, mask: np.ndarray | None = None) -> Iterable[dict[str, Any]]:
        """The rows (selected by a boolean ``mask``) as dicts of Python values."""
        cols = {k: (v[mask] if mask is not None else v).tolist() for k, v in self.columns.items()}
        n = len(next(iter(cols.values()))) if cols else 0
        for i in range(n):
            yield {k: v[i] for k, v in cols.items()}

    def to_pandas(self) -> Any:
        """A pandas DataFrame of the table (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.columns)


class Trace:
    """A loaded trace: ``meta`` (dict), the tables as attributes (``trace.events``, ``trace.values`` ...: see
    :data:`TABLES`) and the blobs (``trace.value_bytes`` ...)."""

    def __init__(self, meta: dict, tables: dict[str, Table], blobs: dict[str, np.ndarray], path: str = "") -> None:
        self.meta, self.tables, self.blobs, self.path = meta, tables, blobs, path
        for name, t in tables.items():
            setattr(self, name, t)
        for name, b in blobs.items():
            setattr(self, name, b)

    def __repr__(self) -> str:
        return f"<Trace {self.path or '(memory)'}: " + ", ".join(f"{len(t)} {n}" for n, t in self.tables.items()) + ">"

    def value(self, row: int) -> np.ndarray:
        """The recorded value of row ``row`` of table ``values`` as an array of its dtype and shape (``[lanes,
        *shape]`` for a per-lane value)."""
        v = self.values
        dt = dtype_named(str(v["dtype"][row]))
        shape = shape_of(str(v["shape"][row]))
        lanes = int(v["lanes"][row])
        if lanes:
            shape = (lanes, *shape)
        o, n = int(v["offset"][row]), int(v["nbytes"][row])
        return self.value_bytes[o:o + n].view(dt).reshape(shape)

    def element_offsets(self, layout: int) -> np.ndarray:
        """Layout number ``layout``'s byte offset of every element in the register image (blob ``layout_offsets``)."""
        t = self.layouts
        o, n = int(t["offset"][layout]), int(t["elements"][layout])
        return self.blobs["layout_offsets"][o:o + n]

    def source_line(self, file: str, line: int) -> str:
        """Line ``line`` (1-based) of recorded source ``file`` ('' when unknown)."""
        text = self.meta.get("sources", {}).get(file)
        if text is None or line < 1:
            return ""
        lines = text.split("\n")
        return lines[line - 1] if line <= len(lines) else ""


def dtype_named(name: str) -> np.dtype:
    """The numpy dtype of a recorded dtype name (ml_dtypes names included)."""
    try:
        return np.dtype(name)
    except TypeError:
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, name))


def shape_of(text: str) -> tuple[int, ...]:
    """'8x16' -> (8, 16); '' -> ()."""
    return tuple(int(p) for p in text.split("x")) if text else ()


def shape_text(shape: tuple[int, ...]) -> str:
    return "x".join(str(int(s)) for s in shape)


# ------------------------------------------------------------------------------------------------ writing
class Strings:
    """The string table: each distinct string once."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.items: list[str] = []

    def __call__(self, s: str) -> int:
        i = self.index.get(s)
        if i is None:
            i = self.index[s] = len(self.items)
            self.items.append(s)
        return i


def write(path: str | Path, meta: dict, rows: dict[str, list[tuple]], strings: Strings,
          blobs: dict[str, np.ndarray], compress: bool = True) -> int:
    """Write a trace: ``rows[table]`` are tuples in :data:`TABLES` column order (string columns already indexed
    through ``strings``).  Atomic: the file appears complete or not at all.  Returns the file size in bytes."""
    arrays: dict[str, np.ndarray] = {}
    for table, cols in TABLES.items():
        data = rows.get(table, [])
        for j, (col, dt, _) in enumerate(cols):
            dtype = np.int32 if dt == "str" else np.dtype(dt)
            arrays[f"{table}.{col}"] = np.fromiter((r[j] for r in data), dtype=dtype, count=len(data))
    for name in BLOBS:
        blob = blobs.get(name)
        arrays[name] = np.zeros(0, np.int32 if name == "layout_offsets" else np.uint8) if blob is None else blob
    arrays["strings"] = _json_bytes(strings.items)
    arrays["meta"] = _json_bytes({**meta, "format": FORMAT_NAME, "version": VERSION})
    path = Path(path)
    with atomic_file(path) as tmp:
        save_npz(tmp, arrays, DEFLATE_LEVEL if compress else 0)
    return path.stat().st_size


@contextlib.contextmanager
def atomic_file(path: Path) -> Iterator[Path]:
    """Yield a temporary name next to ``path`` to write; rename it over ``path`` when the block completes, remove it
    when it raises.  Meanwhile SIGTERM and SIGHUP (in the main thread) raise SystemExit instead of killing the
    process at once, so a terminated writer also removes its partial file."""
    tmp = path.with_name(f"{path.name}.partial-{os.getpid()}")
    saved = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            saved[sig] = signal.signal(sig, _exit_on_signal)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def _exit_on_signal(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def save_npz(path: str | Path, arrays: dict[str, np.ndarray], level: int) -> None:
    """Write ``arrays`` as an npz archive (what ``np.savez`` writes, readable by ``np.load``), each member deflated at
    zlib ``level`` (0: stored).  Level 1 rather than ``np.savez_compressed``'s 6: traces/FORMAT.md "Storage"."""
    from numpy.lib import format as npy

    method = zipfile.ZIP_DEFLATED if level else zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w", compression=method, compresslevel=level or None, allowZip64=True) as zf:
        for name, arr in arrays.items():
            with zf.open(f"{name}.npy", "w", force_zip64=True) as fh:
                npy.write_array(fh, np.asanyarray(arr), allow_pickle=False)


def _json_bytes(obj: Any) -> np.ndarray:
    return np.frombuffer(json.dumps(obj).encode(), np.uint8)


# ------------------------------------------------------------------------------------------------ reading
def load(path: str | Path) -> Trace:
    """Read a trace file (:class:`Trace`).  Raises :class:`TraceFormatError` for a file that is not a trace, is
    damaged, or has a format version this xesim does not read; FileNotFoundError when it does not exist."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(str(path))
    with open(path, "rb") as fh:
        if fh.read(4) != b"PK\x03\x04":
            raise TraceFormatError(f"{path}: not an xesim trace (not an npz archive)")
    try:
        with np.load(path, allow_pickle=False) as z:
            files = set(z.files)
            if "meta" not in files:
                raise TraceFormatError(f"{path}: not an xesim trace (no meta record)")
            meta = json.loads(z["meta"].tobytes())
            if meta.get("format") != FORMAT_NAME:
                raise TraceFormatError(f"{path}: not an xesim trace (format {meta.get('format')!r})")
            if meta.get("version") != VERSION:
                raise TraceFormatError(f"{path}: trace format version {meta.get('version')} is not supported "
                                       f"(this xesim reads version {VERSION}); record it again")
            strings = np.array(json.loads(z["strings"].tobytes()), dtype=object)
            tables = {}
            for table, cols in TABLES.items():
                columns = {}
                for col, dt, _ in cols:
                    arr = z[f"{table}.{col}"]
                    columns[col] = (strings[arr].astype(str) if arr.size else np.zeros(0, str)) if dt == "str" else arr
                tables[table] = Table(table, columns)
            blobs = {name: z[name] for name in BLOBS}
    except TraceFormatError:
        raise
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError, EOFError) as exc:
        raise TraceFormatError(f"{path}: not a readable xesim trace ({type(exc).__name__}: {exc})") from None
    return Trace(meta, tables, blobs, str(path))
