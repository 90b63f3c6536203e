"""Recorded runs: what a real run of a program produced (docs/crosscheck.md "Recording format").

A recording is either

* a text file: the program's stdout exactly as mlir-runner printed it; or
* a directory holding ``stdout.txt`` (that text; required), ``meta.toml`` (optional: ``device``, ``driver``,
  ``compiler``, ``xesim_version``, ``date``, ``command``, ``notes``; all strings) and buffer dumps, optional:
  ``buffers.npz`` and/or ``<name>.npy`` files, where ``print<N>`` is the buffer the N-th (0-based)
  ``printMemref*`` call of the run printed, in its element type and logical shape (compared bit for bit, so NaN
  payloads and the sign of zero count).  A buffer of a type numpy's files cannot hold (bf16, the FP8/FP4 types)
  is stored as its bits, an unsigned integer array, under ``print<N>.<type>`` (``print3.bf16``; types:
  :data:`BIT_TYPES`); or
* the word ``check-lines``: the program's own CHECK lines (:mod:`xesim.crosscheck.checklines`).
"""

from __future__ import annotations

import datetime
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

#: Element types stored as their bits in buffer dumps: the MLIR name -> the ml_dtypes type name.
BIT_TYPES = {"bf16": "bfloat16", "f8E5M2": "float8_e5m2", "f8E4M3FN": "float8_e4m3fn",
             "f4E2M1FN": "float4_e2m1fn", "f8E8M0FNU": "float8_e8m0fnu"}
_BIT_NAMES = {v: k for k, v in BIT_TYPES.items()}

META_KEYS = ("device", "driver", "compiler", "xesim_version", "date", "command", "notes")


class RecordingError(Exception):
    """A recording that cannot be read (the message says which file and why)."""


@dataclass
class Recording:
    """A loaded recording: ``stdout`` (None for ``check-lines``), ``buffers`` by name, ``meta`` and where it came
    from (``path``)."""

    path: str
    stdout: str | None
    buffers: dict[str, np.ndarray] = field(default_factory=dict)
    meta: dict[str, str] = field(default_factory=dict)

    @property
    def check_lines(self) -> bool:
        return self.stdout is None


def load_recording(path: str) -> Recording:
    """Read the recording at ``path`` (see the module docstring)."""
    if path == "check-lines":
        return Recording(path, None)
    p = Path(path)
    if not p.exists():
        raise RecordingError(f"no such recording: {path}")
    if p.is_file():
        return Recording(path, read_text(p))
    stdout = p / "stdout.txt"
    if not stdout.is_file():
        raise RecordingError(f"{path}: a recording directory needs stdout.txt (what the program printed)")
    rec = Recording(path, read_text(stdout))
    meta = p / "meta.toml"
    if meta.is_file():
        try:
            data = tomllib.loads(read_text(meta))
        except tomllib.TOMLDecodeError as exc:
            raise RecordingError(f"{meta}: not valid TOML: {exc}") from None
        unknown = sorted(set(data) - set(META_KEYS))
        if unknown:
            raise RecordingError(f"{meta}: unknown key(s) {', '.join(unknown)} (known: {', '.join(META_KEYS)})")
        rec.meta = {k: str(v) for k, v in data.items()}
    raw: dict[str, tuple[Path, np.ndarray]] = {}
    npz = p / "buffers.npz"
    if npz.is_file():
        try:
            with np.load(npz, allow_pickle=False) as z:
                raw.update({k: (npz, z[k]) for k in z.files})
        except (OSError, ValueError) as exc:
            raise RecordingError(f"{npz}: not a readable .npz file: {exc}") from None
    for npy in sorted(p.glob("*.npy")):
        try:
            raw[npy.stem] = (npy, np.load(npy, allow_pickle=False))
        except (OSError, ValueError) as exc:
            raise RecordingError(f"{npy}: not a readable .npy file: {exc}") from None
    for key, (src, arr) in raw.items():
        name, _, tname = key.partition(".")
        rec.buffers[name] = _from_bits(src, key, arr, tname) if tname else arr
    return rec


def _from_bits(src: Path, key: str, arr: np.ndarray, tname: str) -> np.ndarray:
    import ml_dtypes

    if tname not in BIT_TYPES:
        raise RecordingError(f"{src}: buffer {key!r}: unknown element type {tname!r} (known: "
                             f"{', '.join(BIT_TYPES)})")
    dt = np.dtype(getattr(ml_dtypes, BIT_TYPES[tname]))
    if arr.dtype.kind != "u" or arr.dtype.itemsize != dt.itemsize:
        raise RecordingError(f"{src}: buffer {key!r} must hold {tname} bits as uint{dt.itemsize * 8}, "
                             f"not {arr.dtype}")
    return arr.view(dt)


def to_bits(name: str, arr: np.ndarray) -> tuple[str, np.ndarray]:
    """The key and array under which buffer ``name`` is stored (types numpy cannot hold go as their bits)."""
    tname = _BIT_NAMES.get(arr.dtype.name)
    if tname is None:
        return name, arr
    return f"{name}.{tname}", arr.view(f"u{arr.dtype.itemsize}")


def read_text(path: str | Path) -> str:
    """The UTF-8 text of ``path`` (a :class:`RecordingError` saying why when it cannot be read)."""
    p = Path(path)
    if not p.is_file():
        raise RecordingError(f"no such file: {p}" if not p.exists() else f"{p}: not a file")
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RecordingError(f"{p}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise RecordingError(f"{p}: cannot be read: {exc.strerror}") from None


def write_recording(directory: str, stdout: str, buffers: dict[str, np.ndarray], meta: dict[str, str]) -> None:
    """Write a recording directory (created if missing); files are written whole or not at all (each goes to a
    temporary name first and is renamed into place)."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    meta = {"date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"), **meta}
    _atomic(d / "stdout.txt", stdout.encode())
    lines = [f"{k} = {_toml_string(v)}" for k, v in meta.items() if k in META_KEYS]
    _atomic(d / "meta.toml", ("\n".join(lines) + "\n").encode())
    if buffers:
        tmp = d / ".buffers.npz.tmp"
        with open(tmp, "wb") as f:
            np.savez(f, **dict(to_bits(k, v) for k, v in buffers.items()))
        tmp.replace(d / "buffers.npz")


def _atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def _toml_string(v: str) -> str:
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
