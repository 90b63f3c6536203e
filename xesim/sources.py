"""Reading a program's text: every way a file can fail to be a program is a diagnostic (issue 27 item 1).

MLIR source is UTF-8 (spec/programs-and-runner.md: `mlir-opt` reads UTF-8 and rejects other encodings).  A UTF-8
byte-order mark at the start is skipped, as text editors on some systems write one.  Bytes that are not UTF-8
(a Latin-1 byte in a comment, a UTF-16 file, binary data) are an error at the line and column where they start,
naming the byte.  A path that is a directory, missing or unreadable is an error naming the path.
"""

from __future__ import annotations

import sys
from pathlib import Path

from xesim.diagnostics import Diagnostic, DiagnosticError, Location, SourceFile

BOM = b"\xef\xbb\xbf"


def decode_source(data: bytes, name: str) -> str:
    """The text of ``data`` (UTF-8, an optional byte-order mark skipped); undecodable bytes raise a
    :class:`DiagnosticError` located at the first of them."""
    if data.startswith(BOM):
        data = data[len(BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start:exc.end]
        shown = " ".join(f"0x{b:02x}" for b in bad[:4])
        what = "UTF-16 text (a byte-order mark)" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else f"byte {shown}"
        # the prefix before the first bad byte is valid UTF-8: its length in characters is the offset
        offset = len(data[:exc.start].decode("utf-8"))
        src = SourceFile(name, data.decode("utf-8", errors="replace"))
        raise DiagnosticError(Diagnostic(
            "error", Location(src, offset),
            f"invalid UTF-8 at byte offset {exc.start}: {what} ({exc.reason}); MLIR source must be UTF-8")) from None


def read_source(path: str | Path) -> tuple[str, str]:
    """``(name, text)`` of the file at ``path`` (``-``: standard input); a missing, unreadable or non-file path
    or undecodable bytes raise a :class:`DiagnosticError`."""
    name = str(path)
    if name == "-":
        raw = getattr(sys.stdin, "buffer", None)  # a replaced sys.stdin (io.StringIO) has text only
        return "<stdin>", decode_source(raw.read(), "<stdin>") if raw is not None else sys.stdin.read()
    p = Path(path)
    try:
        if p.is_dir():
            raise _path_error(name, "is a directory, not a file")
        data = p.read_bytes()
    except FileNotFoundError:
        raise _path_error(name, "no such file") from None
    except PermissionError:
        raise _path_error(name, "permission denied") from None
    except IsADirectoryError:
        raise _path_error(name, "is a directory, not a file") from None
    except OSError as exc:
        raise _path_error(name, f"cannot be read ({exc.strerror or exc})") from None
    return name, decode_source(data, name)


class PathError(DiagnosticError):
    """A path that gives no text: rendered ``path: error: message`` (there is no line to point at)."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(Diagnostic("error", Location.unknown(), f"{name}: {message}"))
        self.name = name
        self.reason = message

    def render(self) -> str:
        return f"{self.name}: error: {self.reason}"


def _path_error(name: str, message: str) -> DiagnosticError:
    return PathError(name, message)
