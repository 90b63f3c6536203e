"""MLIR's diagnostic-test convention (``mlir-opt -split-input-file -verify-diagnostics``; issue 26 item 5).

Input is split at lines ``// -----``; each chunk is parsed and verified on its own (line numbers stay those of
the whole file).  An annotation in a comment states a diagnostic the chunk must produce::

    // expected-error {{text}}            on this line
    // expected-warning@+2 {{text}}       two lines below (@-N: above)
    // expected-note @above {{text}}      the nearest line above that holds no annotation (spaces before @ allowed)
    // expected-remark@below {{text}}     the nearest line below that holds no annotation
    // expected-error@unknown {{text}}    a diagnostic without a source location
    // expected-error-re {{op needs {{[0-9]+}} operands}}   -re: {{...}} pieces inside the text are regexes

Severities ``error``, ``warning``, ``note``, ``remark``.  A plain annotation matches a diagnostic of that severity on
that line whose message contains the text; an ``-re`` one, whose message contains a match of the text with its
``{{regex}}`` pieces as regular expressions and the rest literal.  Every annotation must be matched by a diagnostic
and every error, warning and remark by an annotation, as MLIR's ``SourceMgrDiagnosticVerifierHandler`` requires;
the mismatches are returned as located errors.  MLIR also requires every *note* to be expected; xesim's verifier
attaches explanatory notes upstream's may not, so whether an unexpected note fails is the caller's
``unexpected_notes`` ("error" or "ignore"; ``isa/runner.toml`` ``verify_diagnostics.unexpected_notes``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from xesim.diagnostics import Diagnostic, DiagnosticError, Location, SourceFile

_EXPECT = re.compile(
    r"expected-(?P<sev>error|warning|note|remark)(?P<re>-re)?[ \t]*(?:@(?P<where>above|below|unknown|[+-]\d+))?"
    r"[ \t]*\{\{(?P<text>.*)\}\}[ \t]*$")
_ANY_ANNOTATION = re.compile(r"expected-(?:error|warning|note|remark)")
_SPLIT = re.compile(r"^// -----.*$", re.MULTILINE)
_PIECE = re.compile(r"\{\{(.*?)\}\}")


@dataclass
class Expectation:
    """One annotation: severity, target line (0 for ``@unknown``), the text and how to match it."""

    severity: str
    line: int
    text: str
    loc: Location
    regex: re.Pattern[str] | None = None
    matched: bool = False

    def matches(self, message: str) -> bool:
        return self.regex.search(message) is not None if self.regex is not None else self.text in message


def split_chunks(text: str) -> list[tuple[int, str]]:
    """(first line number, chunk text padded with blank lines so line numbers stay global)."""
    chunks = []
    pos = 0
    for m in _SPLIT.finditer(text):
        chunks.append((pos, text[pos : m.start()]))
        pos = m.end()
    chunks.append((pos, text[pos:]))
    out = []
    for start, chunk in chunks:
        line = text.count("\n", 0, start)
        out.append((line + 1, "\n" * line + chunk))
    return out


def _compile_re(text: str, loc: Location) -> re.Pattern[str]:
    """The regex of an ``-re`` annotation: ``{{...}}`` pieces as regular expressions, the rest literal."""
    parts, pos = [], 0
    for m in _PIECE.finditer(text):
        parts.append(re.escape(text[pos : m.start()]))
        parts.append(f"(?:{m.group(1)})")
        pos = m.end()
    parts.append(re.escape(text[pos:]))
    try:
        return re.compile("".join(parts))
    except re.error as exc:
        raise DiagnosticError(Diagnostic("error", loc, f"invalid regex in expected-*-re annotation: {exc}")) from None


def parse_expectations(source: SourceFile) -> list[Expectation]:
    """The annotations of ``source`` with their target lines resolved."""
    lines = source.text.split("\n")
    annotated = [_ANY_ANNOTATION.search(line) is not None for line in lines]
    exps = []
    for i, line in enumerate(lines, start=1):
        m = _EXPECT.search(line)
        if m is None:
            continue
        loc = Location(source, source.offset_of_line(i) + m.start())
        where = m.group("where")
        if where is None:
            target = i
        elif where == "unknown":
            target = 0
        elif where == "above":
            target = i - 1
            while target > 0 and annotated[target - 1]:
                target -= 1
        elif where == "below":
            target = i + 1
            while target <= len(lines) and annotated[target - 1]:
                target += 1
        else:
            target = i + int(where)
        text = m.group("text")
        exps.append(Expectation(m.group("sev"), target, text, loc, _compile_re(text, loc) if m.group("re") else None))
    return exps


def check_chunk(source: SourceFile, produced: list[Diagnostic], *, unexpected_notes: str) -> list[Diagnostic]:
    """Match produced diagnostics against annotations; return the mismatches as error diagnostics
    (``unexpected_notes``: "error" reports a note no annotation expects, "ignore" does not)."""
    exps = parse_expectations(source)
    problems: list[Diagnostic] = []
    flat: list[Diagnostic] = []
    for d in produced:
        flat.append(d)
        flat.extend(d.notes)
    for d in flat:
        line = d.loc.line_col()[0] if d.loc.known else 0
        hit = next((e for e in exps if not e.matched and e.severity == d.severity and e.line == line
                    and e.matches(d.message)), None)
        if hit is not None:
            hit.matched = True
        elif d.severity != "note" or unexpected_notes == "error":
            problems.append(Diagnostic("error", d.loc, f"unexpected {d.severity}: {d.message}"))
    for e in exps:
        if not e.matched:
            kind = f"{e.severity}-re" if e.regex is not None else e.severity
            problems.append(Diagnostic("error", e.loc, f'expected {kind} "{e.text}" was not produced'))
    return problems


def verify_chunk_with_expectations(name: str, chunk: str, *, unexpected_notes: str,
                                   settings: Any = None) -> list[Diagnostic]:
    """Parse and verify one chunk (padded to its place in the file) and compare with its annotations; return the
    mismatches (empty = pass).  ``settings``: the verifier's (xesim/verify/settings.py; None: the defaults)."""
    from xesim.ir.parser import parse_source
    from xesim.verify.structural import verify_module

    source = SourceFile(name, chunk)
    produced: list[Diagnostic] = []
    try:
        module = parse_source(chunk, name)
        ctx = verify_module(module, raise_on_error=False, settings=settings)
        produced = ctx.diagnostics
    except DiagnosticError as exc:
        produced = exc.diagnostics
    # Re-anchor produced diagnostics on this chunk's source (same text, so offsets agree).
    for d in produced:
        if d.loc.known:
            d.loc = Location(source, d.loc.offset)
        for n in d.notes:
            if n.loc.known:
                n.loc = Location(source, n.loc.offset)
    try:
        return check_chunk(source, produced, unexpected_notes=unexpected_notes)
    except DiagnosticError as exc:  # a malformed annotation
        return exc.diagnostics


def verify_file_with_expectations(name: str, text: str, split: bool, *, unexpected_notes: str,
                                  settings: Any = None) -> list[Diagnostic]:
    """Run parse+verify on each chunk and compare with annotations; return mismatches (empty = pass)."""
    problems: list[Diagnostic] = []
    for _, chunk in split_chunks(text) if split else [(1, text)]:
        problems.extend(verify_chunk_with_expectations(name, chunk, unexpected_notes=unexpected_notes,
                                                       settings=settings))
    return problems
