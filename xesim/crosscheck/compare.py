"""Value-by-value comparison of a recorded run with xesim's run of the same program.

Elements are compared as the runner printed them (the text of each number) or, for buffer dumps, bit for bit.
A mismatch names the element (the print op and its location in the program, the multi-index in the printed
shape), both values in decimal and in hex of the element type, and the distance in units in the last place (ULP):
the difference of the two values' positions in the ordered sequence of the type's values (so the two zeros are
0 ULP apart and reported as a sign-of-zero difference; a NaN has no distance).  When the recording is printed text
of an f32/f64 element, its 6 significant digits (spec/programs-and-runner.md §1.1) do not fix the bits: the
recorded value is taken as the nearest value of the type and the distance is marked approximate.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field

import numpy as np

from xesim.crosscheck.printed import Record, parse_output
from xesim.crosscheck.printlog import PrintEntry, PrintLog
from xesim.numerics import ulp


@dataclass(frozen=True)
class Tolerance:
    """How far apart two elements may be and still pass: ``ulp`` units in the last place, or a relative
    difference ``rel`` (``|a - b| <= rel * max(|a|, |b|)``)."""

    ulp: int | None = None
    rel: float | None = None

    @staticmethod
    def parse(text: str) -> Tolerance:
        """``4``, ``4ulp`` (ULPs) or ``1e-5`` (relative)."""
        t = text.strip().lower()
        if t.endswith("ulp") or t.isdigit():
            n = int(t.removesuffix("ulp").strip())
            if n < 0:
                raise ValueError(text)
            return Tolerance(ulp=n)
        r = float(t)
        if not r >= 0:
            raise ValueError(text)
        return Tolerance(rel=r)

    def admits(self, m: Mismatch) -> bool:
        if self.ulp is not None and m.ulp is not None:
            return m.ulp <= self.ulp
        if self.rel is not None and m.recorded_value is not None and m.xesim_value is not None:
            a, b = m.recorded_value, m.xesim_value
            if math.isnan(a) or math.isnan(b):
                return math.isnan(a) and math.isnan(b)
            return abs(a - b) <= self.rel * max(abs(a), abs(b))
        return False


@dataclass
class Mismatch:
    """One element that differs (see the module docstring)."""

    where: str
    index: tuple[int, ...]
    recorded: str
    xesim: str
    dtype: str | None = None
    recorded_hex: str | None = None
    xesim_hex: str | None = None
    ulp: int | None = None
    approx: bool = False
    recorded_value: float | None = None
    xesim_value: float | None = None
    note: str = ""
    entry: int | None = None  # which print of the run (an index into PrintLog.entries) and which element of it
    flat: int | None = None

    def render(self) -> str:
        idx = "[" + ", ".join(str(i) for i in self.index) + "]"
        rec = self.recorded + (f" ({self.dtype} {self.recorded_hex})" if self.recorded_hex else "")
        sim = self.xesim + (f" ({self.xesim_hex})" if self.xesim_hex else "")
        if self.ulp is None:
            dist = "no ULP distance (NaN)" if self.dtype and self.dtype[0] in "fb" else ""
        else:
            dist = ("~" if self.approx else "") + f"{self.ulp} ulp"
        tail = "; ".join(t for t in (dist, self.note) if t)
        return f"{self.where} element {idx}: recorded {rec}, xesim {sim}" + (f": {tail}" if tail else "")


@dataclass
class Report:
    """The outcome of a cross-check: element ``mismatches``, structural ``problems`` (missing or extra lines,
    changed shapes, differing text), how many records and elements were compared, and per record with mismatches
    its shape and the flat indices that differ (for the map)."""

    source: str
    recording: str
    records: int = 0
    elements: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    maps: dict[str, tuple[tuple[int, ...], list[int]]] = field(default_factory=dict)

    def passed(self, tolerance: Tolerance | None = None) -> bool:
        if self.problems:
            return False
        if tolerance is None:
            return not self.mismatches
        return all(tolerance.admits(m) for m in self.mismatches)

    @property
    def max_ulp(self) -> int | None:
        ulps = [m.ulp for m in self.mismatches if m.ulp is not None]
        return max(ulps) if ulps else None

    def render(self, limit: int = 20, tolerance: Tolerance | None = None) -> str:
        n = len(self.mismatches)
        head = (f"xesim crosscheck: {self.source} against {self.recording}: {self.records} records, "
                f"{self.elements} elements compared, {self.elements - n} identical, {n} differ")
        if self.max_ulp is not None:
            head += f" (max {self.max_ulp} ulp)"
        if self.problems:
            head += f", {len(self.problems)} structural difference(s)"
        lines = [head]
        lines += [f"  {p}" for p in self.problems[:limit]]
        for m in self.mismatches[:limit]:
            ok = " (within tolerance)" if tolerance is not None and tolerance.admits(m) else ""
            lines.append(f"  {m.render()}{ok}")
        if n > limit:
            lines.append(f"  ... {n - limit} more mismatches (--max-report to see more)")
        for where, (shape, flat) in self.maps.items():
            if math.prod(shape) > 1:
                mask = np.zeros(math.prod(shape), bool)
                mask[flat] = True
                lines += ["  " + t for t in mismatch_map(mask.reshape(shape), where)]
        verdict = "identical" if self.passed() else ("within tolerance" if self.passed(tolerance) else "DIFFERENT")
        lines.append(f"  result: {verdict}")
        return "\n".join(lines)


def mismatch_map(mask: np.ndarray, what: str = "", rows: int = 16, cols: int = 64) -> list[str]:
    """Where ``mask`` is true, drawn as at most ``rows`` x ``cols`` cells: the array seen as a matrix (its last
    dimension across, the others down), each cell a block of elements, ``X`` where any of them differs."""
    m = mask.reshape(-1, mask.shape[-1]) if mask.ndim >= 2 else mask.reshape(1, -1)
    nrows, ncols = m.shape
    rstep, cstep = -(-nrows // rows), -(-ncols // cols)
    lines = ["".join("X" if m[r:r + rstep, c:c + cstep].any() else "." for c in range(0, ncols, cstep))
             for r in range(0, nrows, rstep)]
    head = f"mismatch map{' of ' + what if what else ''} ({nrows} x {ncols} elements, each cell {rstep} x {cstep}):"
    return [head, *("  " + line for line in lines)]


# ------------------------------------------------------------------------------------------- element values
def _uint(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}")


def value_of(token: str, dtype: np.dtype) -> np.ndarray:
    """The value of printed ``token`` in ``dtype`` (floats: the nearest value, round to nearest even)."""
    if dtype.kind in "iub":
        return np.array(int(token), dtype=np.int64).astype(dtype)
    return np.array(float(token), dtype=np.float64).astype(dtype)


def hex_of(value: np.ndarray) -> str:
    dt = value.dtype
    bits = int(np.asarray(value).reshape(()).view(_uint(dt)))
    return f"0x{bits:0{2 * dt.itemsize}x}"


def ulp_distance(a: np.ndarray, b: np.ndarray) -> int | None:
    """Distance of two values of one type in ULPs (:func:`xesim.numerics.ulp.ulp_distance`); None for a NaN."""
    d = int(ulp.ulp_distance(np.asarray(a).reshape(1), np.asarray(b).reshape(1))[0])
    return None if d < 0 else d


def element_mismatch(where: str, index: tuple[int, ...], recorded: str, xesim: str, dtype: np.dtype | None,
                     exact: np.ndarray | None) -> Mismatch:
    """Describe a differing printed element; ``exact`` is xesim's value in ``dtype`` when known."""
    m = Mismatch(where, index, recorded, xesim)
    try:
        m.recorded_value = float(recorded)
        m.xesim_value = float(exact) if exact is not None else float(xesim)
    except ValueError:
        return m
    if dtype is None or exact is None:
        return m
    rec = value_of(recorded, dtype)
    m.dtype = _type_name(dtype)
    m.recorded_hex, m.xesim_hex = hex_of(rec), hex_of(exact)
    m.ulp = ulp_distance(rec, exact)
    m.approx = dtype.kind == "f" and dtype.itemsize >= 4 and recorded not in ("inf", "-inf", "nan", "-nan")
    if m.ulp == 0 and m.recorded_hex != m.xesim_hex:
        m.note = "the sign of zero differs"
        m.approx = False
    return m


def _type_name(dtype: np.dtype) -> str:
    names = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64"}
    if dtype.name in names:
        return names[dtype.name]
    return f"{'u' if dtype.kind == 'u' else 'i'}{dtype.itemsize * 8}" if dtype.kind in "iu" else dtype.name


# ------------------------------------------------------------------------------------------------- stdout
def compare_output(report: Report, recorded_text: str, xesim_text: str, log: PrintLog | None) -> Report:
    """Compare recorded stdout with xesim's, record by record (aligned on their skeletons, so a missing or an
    extra line is reported as such and the rest still compared) and element by element."""
    rec = parse_output(recorded_text)
    sim = parse_output(xesim_text)
    sm = difflib.SequenceMatcher(None, [r.skeleton for r in rec], [r.skeleton for r in sim], autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            for r, s in zip(rec[i1:i2], sim[j1:j2]):
                _compare_records(report, r, s, log)
            continue
        paired = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        for k in range(paired):
            r, s = rec[i1 + k], sim[j1 + k]
            report.records += 1
            report.problems.append(f"recorded line {r.line} differs from xesim's line {s.line}: recorded "
                                   f"{_short(r.text)!r}, xesim {_short(s.text)!r}")
        for r in rec[i1 + paired:i2]:
            report.problems.append(f"recorded line {r.line} is missing from xesim's output: {_short(r.text)!r}")
        for s in sim[j1 + paired:j2]:
            report.problems.append(f"xesim printed line {s.line}, which the recording does not have: "
                                   f"{_short(s.text)!r}")
    return report


def _short(text: str, n: int = 100) -> str:
    first = text.split("\n", 1)[0]
    return first if len(first) <= n and "\n" not in text else first[:n] + " ..."


def _compare_records(report: Report, r: Record, s: Record, log: PrintLog | None) -> None:
    report.records += 1
    entry: PrintEntry | None = log.entry_at(s.line - 1, s.size) if log is not None else None
    where = entry.where if entry is not None else f"xesim's line {s.line}"
    if r.kind == "memref":
        for key in ("rank", "offset", "sizes", "strides"):
            if r.header[key] != s.header[key]:
                report.problems.append(f"{where} (recorded line {r.line}): {key} {_fmt(r.header[key])} recorded, "
                                       f"{_fmt(s.header[key])} by xesim")
                return
    if r.shape != s.shape or r.size != s.size:
        report.problems.append(f"{where} (recorded line {r.line}): shape {_fmt(r.shape)} recorded, "
                               f"{_fmt(s.shape)} by xesim")
        return
    report.elements += r.size
    flat: list[int] = []
    for k, (a, b) in enumerate(zip(r.tokens, s.tokens)):
        if a == b:
            continue
        exact = entry.values[k] if entry is not None and entry.values is not None else None
        dtype = entry.dtype if entry is not None else None
        m = element_mismatch(where, r.index(k), a, b, dtype, None if exact is None else np.asarray(exact, dtype))
        if entry is not None and log is not None:
            m.entry, m.flat = entry.index, k
        report.mismatches.append(m)
        flat.append(k)
    if flat and r.kind != "line":
        report.maps[where] = (r.shape, flat)


def _fmt(v: object) -> str:
    return "[" + ", ".join(str(x) for x in v) + "]" if isinstance(v, tuple) else str(v)


# ------------------------------------------------------------------------------------------------ buffers
def compare_buffers(report: Report, recorded: dict[str, np.ndarray], log: PrintLog) -> Report:
    """Compare dumped buffers bit for bit: key ``print<N>`` is the buffer of the N-th (0-based) ``printMemref*``
    call of the run (docs in traces of the recording format, xesim/crosscheck/recording.py)."""
    memrefs = [e for e in log.entries if e.label.startswith("printMemref") and e.values is not None]
    for key in sorted(recorded):
        if not key.startswith("print") or not key[5:].isdigit():
            report.problems.append(f"buffer {key!r}: unknown name (expected print<N>, the N-th printMemref call)")
            continue
        n = int(key[5:])
        if n >= len(memrefs):
            report.problems.append(f"buffer {key}: xesim made only {len(memrefs)} printMemref calls")
            continue
        e = memrefs[n]
        want = np.asarray(recorded[key])
        got = e.values
        where = f"{e.where} ({key})"
        if want.dtype != got.dtype:
            report.problems.append(f"{where}: element type {want.dtype} recorded, {got.dtype} by xesim")
            continue
        if want.size != got.size:
            report.problems.append(f"{where}: {want.size} elements recorded, {got.size} by xesim")
            continue
        report.records += 1
        report.elements += got.size
        shape = want.shape
        wb, gb = want.reshape(-1).view(_uint(want.dtype)), got.view(_uint(got.dtype))
        flat = np.nonzero(wb != gb)[0].tolist()
        for k in flat:
            idx = tuple(int(i) for i in np.unravel_index(k, shape)) if shape else (k,)
            m = _bits_mismatch(where, idx, want.reshape(-1)[k], got[k])
            m.entry, m.flat = e.index, k
            report.mismatches.append(m)
        if flat:
            report.maps[where] = (shape, flat)
    return report


def _bits_mismatch(where: str, idx: tuple[int, ...], want: np.generic, got: np.generic) -> Mismatch:
    a, b = np.asarray(want), np.asarray(got)
    m = Mismatch(where, idx, _dec(a), _dec(b), _type_name(a.dtype), hex_of(a), hex_of(b), ulp_distance(a, b),
                 recorded_value=float(a), xesim_value=float(b))
    if m.ulp == 0:
        m.note = "the sign of zero differs"
    elif m.ulp is None and math.isnan(float(a)) and math.isnan(float(b)):
        m.note = "NaN payloads differ"
    return m


def _dec(v: np.ndarray) -> str:
    if v.dtype.kind in "iub":
        return str(int(v))
    x = float(v)
    return "-nan" if math.isnan(x) and math.copysign(1.0, x) < 0 else repr(x)
