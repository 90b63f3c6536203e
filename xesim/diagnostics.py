"""Source locations and diagnostics.

Every user-facing error is rendered as ``file:line:col: error: message`` followed by the source line and a
caret under the column (ARCHITECTURE.md, principle 6).  Code raises :class:`DiagnosticError` carrying one
or more :class:`Diagnostic`; the CLI renders them and exits with status 1.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field


class SourceFile:
    """The text of one input file with a fast offset -> (line, column) mapping."""

    __slots__ = ("name", "text", "_line_starts")

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text
        starts = [0]
        find = text.find
        pos = find("\n")
        while pos >= 0:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self._line_starts = starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        idx = bisect.bisect_right(self._line_starts, offset) - 1
        return idx + 1, offset - self._line_starts[idx] + 1

    def line_text(self, line: int) -> str:
        start = self._line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def offset_of_line(self, line: int) -> int:
        return self._line_starts[line - 1]

    @property
    def num_lines(self) -> int:
        return len(self._line_starts)


class Location:
    """A position in a source file (a character offset), or an unknown location.  Immutable by convention; a
    plain slotted class because the parser creates one per operand (a frozen dataclass is several times slower
    to construct)."""

    __slots__ = ("source", "offset")

    def __init__(self, source: SourceFile | None, offset: int = 0) -> None:
        self.source = source
        self.offset = offset

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Location) and self.source is other.source and self.offset == other.offset

    def __hash__(self) -> int:
        return hash((id(self.source), self.offset))

    def __repr__(self) -> str:
        return f"Location({self})"

    @staticmethod
    def unknown() -> Location:
        return _UNKNOWN

    @property
    def known(self) -> bool:
        return self.source is not None

    def line_col(self) -> tuple[int, int]:
        if self.source is None:
            return 0, 0
        return self.source.line_col(self.offset)

    def __str__(self) -> str:
        if self.source is None:
            return "<unknown>"
        line, col = self.line_col()
        return f"{self.source.name}:{line}:{col}"


_UNKNOWN = Location(None, 0)


@dataclass
class Diagnostic:
    """One message attached to a location.  ``severity`` is ``error``, ``warning`` or ``note``."""

    severity: str
    loc: Location
    message: str
    notes: list[Diagnostic] = field(default_factory=list)

    def render(self) -> str:
        """``file:line:col: severity: message``, the source line and a caret (plus attached notes)."""
        parts = [_render_one(self)]
        for note in self.notes:
            parts.append(_render_one(note))
        return "\n".join(parts)


#: the most characters of a source line a diagnostic shows: a longer line (a generated program, a 10 MB line of
#: data) is shown as the window around the column, the cut ends marked with "..."
SHOWN_LINE = 200


def _render_one(d: Diagnostic) -> str:
    if not d.loc.known:
        return f"<unknown>: {d.severity}: {d.message}"
    line, col = d.loc.line_col()
    assert d.loc.source is not None
    text = d.loc.source.line_text(line)
    caret = col - 1
    if len(text) > SHOWN_LINE:
        start = max(0, min(caret - SHOWN_LINE // 2, len(text) - SHOWN_LINE))
        head = "..." if start > 0 else ""
        tail = "..." if start + SHOWN_LINE < len(text) else ""
        text = head + text[start:start + SHOWN_LINE] + tail
        caret = caret - start + len(head)
    text = text.replace("\t", " ")
    return f"{d.loc}: {d.severity}: {d.message}\n{text}\n{' ' * caret}^"


class DiagnosticError(Exception):
    """Raised to abort processing with one or more error diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic) -> None:
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.message for d in diagnostics))

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


def error(loc: Location, message: str) -> DiagnosticError:
    """Build (not raise) a single-error exception: ``raise error(loc, "...")``."""
    return DiagnosticError(Diagnostic("error", loc, message))


class DiagnosticSink:
    """Collects diagnostics so several errors in one file are all reported."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []

    def emit(self, severity: str, loc: Location, message: str) -> Diagnostic:
        d = Diagnostic(severity, loc, message)
        self.diagnostics.append(d)
        return d

    def error(self, loc: Location, message: str) -> Diagnostic:
        return self.emit("error", loc, message)

    def warning(self, loc: Location, message: str) -> Diagnostic:
        return self.emit("warning", loc, message)

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)
