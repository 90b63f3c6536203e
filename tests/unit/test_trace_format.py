"""The .xetrace format (issue 28 "Done when": traces/FORMAT.md documents every record and field; a round-trip test
writes and reads every record type): xesim/trace/format.py against traces/FORMAT.md, and write -> load."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xesim.trace import TraceFormatError, load
from xesim.trace import format as F  # noqa: N812

ROOT = Path(__file__).resolve().parents[2]
FORMAT_MD = ROOT / "traces" / "FORMAT.md"


def _documented() -> dict[str, list[tuple[str, str]]]:
    """``{table: [(column, type)]}`` from the FORMAT.md sections ``### table `name` `` and their ``| `col` | type |``
    rows (blobs and meta under their own headings)."""
    out: dict[str, list[tuple[str, str]]] = {}
    current = None
    for line in FORMAT_MD.read_text().splitlines():
        m = re.match(r"^### (?:table|blob|record) `([a-z_]+)`", line)
        if m:
            current = m.group(1)
            out[current] = []
            continue
        if line.startswith("## "):
            current = None
        m = re.match(r"^\| `([a-z_]+)` \| ([a-z0-9]+) \|", line)
        if current is not None and m:
            out[current].append((m.group(1), m.group(2)))
    return out


def test_format_md_documents_every_table_column_blob_and_meta_key():
    doc = _documented()
    for table, cols in F.TABLES.items():
        assert doc.get(table) == [(c, t) for c, t, _ in cols], f"table {table}: FORMAT.md and TABLES differ"
    for blob in F.BLOBS:
        assert blob in doc, f"blob {blob} not documented"
    meta_keys = [c for c, _ in doc["meta"]]
    assert sorted(meta_keys) == sorted(F.META)
    assert set(doc) == set(F.TABLES) | set(F.BLOBS) | {"meta", "strings"}
    assert f"version {F.VERSION}" in FORMAT_MD.read_text()


def _sample_rows(strings: F.Strings) -> dict[str, list[tuple]]:
    """One or two rows of every table, every column a value different from its neighbours."""
    s = strings
    rows: dict[str, list[tuple]] = {}
    for table, cols in F.TABLES.items():
        out = []
        for r in range(2):
            row = []
            for j, (col, dt, _) in enumerate(cols):
                if dt == "str":
                    row.append(s(f"{table}.{col}.{r}"))
                elif dt == "u1":
                    row.append((j + r) % 2)
                else:
                    row.append(-(j + 10 * r) if dt in ("i4", "i8") and j % 3 == 2 else j + 100 * r)
            out.append(tuple(row))
        rows[table] = out
    return rows


def test_round_trip_every_table_blob_and_meta(tmp_path):
    strings = F.Strings()
    rows = _sample_rows(strings)
    bf = np.array([[1.5, -2.0], [0.25, 3.0]], ml_dtypes.bfloat16)
    lanes = np.arange(16 * 3, dtype=np.int32).reshape(16, 3)
    blob = np.concatenate([bf.reshape(-1).view(np.uint8), lanes.reshape(-1).view(np.uint8)])
    # two real value rows pointing into the blob (after the generic rows)
    rows["values"] = [(0, 0, 0, strings("bfloat16"), strings("2x2"), 0, 0, bf.nbytes),
                      (1, 1, 2, strings("int32"), strings("3"), 16, bf.nbytes, lanes.nbytes)]
    grf = np.arange(128, dtype=np.uint8)
    offsets = np.array([0, 4, 8, 12, 1, 2], np.int32)
    blobs = {"value_bytes": blob, "grf_bytes": grf, "layout_offsets": offsets}
    meta = {"xesim": "9.9", "program": "p.mlir", "sources": {"p.mlir": "line one\n  line two\n"},
            "options": {"values": 7}, "truncated": None, "error": None, "wall_ns": 12345}
    path = tmp_path / "t.xetrace"
    size = F.write(path, meta, rows, strings, blobs)
    assert size == path.stat().st_size > 0
    assert not list(tmp_path.glob("*.partial-*"))

    tr = load(path)
    assert tr.meta == {**meta, "format": "xetrace", "version": F.VERSION}
    for table, cols in F.TABLES.items():
        t = tr.tables[table]
        assert len(t) == len(rows[table])
        for j, (col, dt, _) in enumerate(cols):
            expected = [r[j] for r in rows[table]]
            if dt == "str":
                expected = [strings.items[i] for i in expected]
                assert t[col].tolist() == expected, (table, col)
            else:
                assert t[col].dtype == np.dtype(dt), (table, col)
                assert t[col].tolist() == expected, (table, col)
    assert np.array_equal(tr.value_bytes, blob) and np.array_equal(tr.grf_bytes, grf)
    assert tr.value(0).dtype == ml_dtypes.bfloat16 and np.array_equal(tr.value(0), bf)
    assert tr.value(1).shape == (16, 3) and np.array_equal(tr.value(1), lanes)
    assert tr.source_line("p.mlir", 2) == "  line two" and tr.source_line("q.mlir", 1) == ""
    assert list(tr.events.rows())[1]["op"] == rows["events"][1][6]


def test_empty_trace_round_trips(tmp_path):
    path = tmp_path / "e.xetrace"
    F.write(path, {}, {}, F.Strings(), {}, compress=False)
    tr = load(path)
    assert all(len(t) == 0 for t in tr.tables.values())
    assert tr.events["t_begin"].dtype == np.int64 and tr.ops["name"].size == 0


def test_load_rejects_what_is_not_a_trace(tmp_path):
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "missing.xetrace")
    text = tmp_path / "text.xetrace"
    text.write_text("hello\n")
    with pytest.raises(TraceFormatError, match="not an xesim trace"):
        load(text)
    other = tmp_path / "other.npz"
    np.savez(other, a=np.zeros(3))
    with pytest.raises(TraceFormatError, match="no meta record"):
        load(other)
    cut = tmp_path / "cut.xetrace"
    F.write(cut, {}, {}, F.Strings(), {})
    cut.write_bytes(cut.read_bytes()[:200])
    with pytest.raises(TraceFormatError, match="not a readable xesim trace"):
        load(cut)


def test_load_refuses_another_format_version(tmp_path):
    path = tmp_path / "v.xetrace"
    F.write(path, {}, {}, F.Strings(), {}, compress=False)
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    meta = np.frombuffer(b'{"format": "xetrace", "version": 99}', np.uint8)
    with zipfile.ZipFile(path, "w") as z:
        for n, data in members.items():
            if n != "meta.npy":
                z.writestr(n, data)
        import io

        buf = io.BytesIO()
        np.save(buf, meta)
        z.writestr("meta.npy", buf.getvalue())
    with pytest.raises(TraceFormatError, match="version 99 is not supported"):
        load(path)


def test_an_interrupted_write_leaves_no_file(tmp_path, monkeypatch):
    path = tmp_path / "t.xetrace"
    path.write_text("previous")

    calls = []

    def boom(fh, arr, **k):  # the third array: part of the archive is written when the signal comes
        calls.append(1)
        if len(calls) == 3:
            fh.write(b"x" * 100)
            raise KeyboardInterrupt
        write_array(fh, arr, **k)

    write_array = np.lib.format.write_array
    monkeypatch.setattr(np.lib.format, "write_array", boom)
    with pytest.raises(KeyboardInterrupt):
        F.write(path, {}, {}, F.Strings(), {})
    assert path.read_text() == "previous"  # the old file untouched, no partial file left
    assert [p.name for p in tmp_path.iterdir()] == ["t.xetrace"]


def test_sigterm_while_writing_removes_the_partial_file(tmp_path):
    import os
    import signal

    path = tmp_path / "t.xetrace"
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as exc:
        with F.atomic_file(path) as tmp:
            tmp.write_bytes(b"half")
            os.kill(os.getpid(), signal.SIGTERM)
    assert exc.value.code == 128 + signal.SIGTERM
    assert list(tmp_path.iterdir()) == []
    assert signal.getsignal(signal.SIGTERM) == before
