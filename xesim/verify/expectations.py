"""MLIR's diagnostic-test convention (``mlir-opt --split-input-file --verify-diagnostics``).

Input is split at lines ``// -----``; each chunk is parsed and verified on its own (line numbers stay
those of the whole file).  Annotations ``// expected-error {{text}}`` (also ``expected-warning``,
``expected-note``, ``expected-remark``) with optional ``@+N``, ``@-N``, ``@above``, ``@below`` designate the
line a diagnostic must be reported on; ``text`` must be a substring of its message.  Every expected
diagnostic must be produced and every produced error must be expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xesim.diagnostics import Diagnostic, DiagnosticError, Location, SourceFile

_EXPECT = re.compile(r"expected-(error|warning|note|remark)(?:@(above|below|[+-]\d+))?\s*\{\{(.*?)\}\}")
_SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)


@dataclass
class Expectation:
    severity: str
    line: int
    text: str
    loc: Location
    matched: bool = False


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


def parse_expectations(source: SourceFile) -> list[Expectation]:
    exps = []
    lines = source.text.split("\n")
    for i, line in enumerate(lines, start=1):
        for m in _EXPECT.finditer(line):
            sev, where, text = m.group(1), m.group(2), m.group(3)
            loc = Location(source, source.offset_of_line(i) + m.start())
            if where is None:
                target = i
            elif where == "above":
                target = i - 1
                while target > 0 and _EXPECT.search(lines[target - 1]) and lines[target - 1].strip().startswith("//"):
                    target -= 1
            elif where == "below":
                target = i + 1
                while target <= len(lines) and _EXPECT.search(lines[target - 1]) and lines[target - 1].strip().startswith("//"):
                    target += 1
            else:
                target = i + int(where)
            exps.append(Expectation(sev, target, text, loc))
    return exps


def check_chunk(source: SourceFile, produced: list[Diagnostic]) -> list[Diagnostic]:
    """Match produced diagnostics against annotations; return the mismatches as error diagnostics."""
    exps = parse_expectations(source)
    problems: list[Diagnostic] = []
    flat: list[Diagnostic] = []
    for d in produced:
        flat.append(d)
        flat.extend(d.notes)
    for d in flat:
        line = d.loc.line_col()[0] if d.loc.known else 0
        hit = None
        for e in exps:
            if not e.matched and e.severity == d.severity and e.line == line and e.text in d.message:
                hit = e
                break
        if hit is not None:
            hit.matched = True
        elif d.severity in ("error", "warning"):
            problems.append(Diagnostic("error", d.loc, f"unexpected {d.severity}: {d.message}"))
    for e in exps:
        if not e.matched:
            problems.append(Diagnostic("error", e.loc, f'expected {e.severity} "{e.text}" was not produced'))
    return problems


def verify_file_with_expectations(name: str, text: str, split: bool) -> list[Diagnostic]:
    """Run parse+verify on each chunk and compare with annotations; return mismatches (empty = pass)."""
    from xesim.ir.parser import parse_source
    from xesim.verify.structural import verify_module

    chunks = split_chunks(text) if split else [(1, text)]
    problems: list[Diagnostic] = []
    for _, chunk in chunks:
        source = SourceFile(name, chunk)
        produced: list[Diagnostic] = []
        try:
            module = parse_source(chunk, name)
            ctx = verify_module(module, raise_on_error=False)
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
        problems.extend(check_chunk(source, produced))
    return problems
