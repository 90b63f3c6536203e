"""A program's own CHECK lines as a recording: every upstream integration test's CHECK lines were printed by a
real GPU, so each is a hardware data point (issue 29 item 4).

The directives are matched against xesim's output with FileCheck's rules (spec/programs-and-runner.md §5:
``CHECK`` searches forward, ``CHECK-NEXT`` the next line, ``CHECK-SAME`` the same line, ``CHECK-COUNT-n`` n
successive matches, ``CHECK-EMPTY`` an empty next line, horizontal whitespace runs match each other) with one
difference that turns a failed match into a measurement: every number written literally in a pattern matches
*any* number, and is then compared with the one xesim printed as an element of the recording.  A literal number
written directly before a ``{{regex}}`` (``[11.11{{.*}}]``) is a prefix of the printed text.  ``{{re}}`` is
matched as a regular expression, ``[[NAME:re]]`` as ``re``, and uses of variables (``[[NAME]]``, ``[[#expr]]``) as
any text (their values are not tracked).  ``CHECK-NOT`` and ``CHECK-DAG`` lines record no values and are skipped
(listed in the report's notes).  A pattern that matches nowhere, even with its numbers free, is a structural
difference ("missing line").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from xesim.crosscheck.compare import Report, element_mismatch
from xesim.crosscheck.printed import NUMBER, parse_output
from xesim.crosscheck.printlog import PrintLog

_DIRECTIVE_RE = re.compile(r"(?:^|[^\w-])(?P<prefix>[A-Za-z][\w-]*?)(?P<kind>-NEXT|-SAME|-COUNT-\d+|-EMPTY|-NOT|"
                           r"-DAG|-LABEL)?:(?P<pattern>.*)$")
_LITERAL_NUMBER_RE = re.compile(rf"(?<![\w.]){NUMBER}(?![\w.])")


@dataclass
class Directive:
    """One CHECK line: its kind (``CHECK``, ``NEXT``, ``SAME``, ``COUNT``, ``EMPTY``, ``NOT``, ``DAG``), the
    repeat count of ``CHECK-COUNT-n``, the regex its pattern becomes, the numbers written in it (one regex group
    each, with whether each is a prefix) and its 1-based line in the program."""

    kind: str
    count: int
    regex: re.Pattern
    exact: re.Pattern
    numbers: list[tuple[str, bool]]
    line: int
    pattern: str


def directives(source: str, prefix: str = "CHECK") -> list[Directive]:
    """The directives with ``prefix`` in ``source``, in order."""
    out = []
    for lineno, text in enumerate(source.split("\n"), 1):
        m = _DIRECTIVE_RE.search(text)
        if m is None or m["prefix"] != prefix:
            continue
        kind = (m["kind"] or "").lstrip("-")
        count = 1
        if kind.startswith("COUNT-"):
            count, kind = int(kind[6:]), "COUNT"
        kind = {"": "CHECK", "LABEL": "CHECK"}.get(kind, kind)
        pattern = m["pattern"].strip()
        regex, numbers = pattern_regex(pattern)
        exact, _ = pattern_regex(pattern, free_numbers=False)
        out.append(Directive(kind, count, regex, exact, numbers, lineno, pattern))
    return out


def pattern_regex(pattern: str, free_numbers: bool = True) -> tuple[re.Pattern, list[tuple[str, bool]]]:
    """The regex of a FileCheck pattern whose literal numbers are free (one group each; with ``free_numbers``
    False they match only themselves, as FileCheck reads them), and those numbers."""
    parts: list[str] = []
    numbers: list[tuple[str, bool]] = []
    pos = 0
    for m in re.finditer(r"\{\{(.*?)\}\}|\[\[(.*?)\]\]", pattern):
        _literal(pattern[pos:m.start()], parts, numbers, m.group(1) is not None, free_numbers)
        if m.group(1) is not None:
            parts.append(f"(?:{m.group(1)})")
        else:
            name, _, sub = m.group(2).partition(":")
            parts.append(f"(?:{sub})" if sub and not name.startswith("#") else ".*?")
        pos = m.end()
    _literal(pattern[pos:], parts, numbers, False, free_numbers)
    return re.compile("".join(parts)), numbers


def _literal(text: str, parts: list[str], numbers: list[tuple[str, bool]], before_regex: bool, free: bool) -> None:
    pos = 0
    found = list(_LITERAL_NUMBER_RE.finditer(text))
    for k, m in enumerate(found):
        parts.append(_escape(text[pos:m.start()]))
        prefix = before_regex and k == len(found) - 1 and m.end() == len(text)
        parts.append(f"({NUMBER})" if free else f"({re.escape(m.group(0))})")
        numbers.append((m.group(0), prefix))
        pos = m.end()
    parts.append(_escape(text[pos:]))


def _escape(text: str) -> str:
    return r"[ \t]+".join(re.escape(w) for w in re.split(r"[ \t]+", text))


def compare_check_lines(report: Report, source: str, xesim_text: str, log: PrintLog | None,
                        prefix: str = "CHECK") -> tuple[Report, list[str]]:
    """Compare xesim's output with the CHECK lines of ``source`` (see the module docstring); returns the report
    and notes about directives that give no values."""
    lines = xesim_text.split("\n")
    elements = _element_positions(xesim_text, log)
    notes: list[str] = []
    line, col = 0, 0  # where the previous match ended
    for d in directives(source, prefix):
        if d.kind in ("NOT", "DAG"):
            notes.append(f"line {d.line}: CHECK-{d.kind} gives no values to compare; skipped")
            continue
        if d.kind == "EMPTY":
            if line + 1 < len(lines) and lines[line + 1] == "":
                line, col = line + 1, 0
            else:
                report.problems.append(f"CHECK-EMPTY at line {d.line}: xesim's next line is not empty")
            continue
        for _ in range(d.count):
            found = _search(d, lines, line, col)
            if found is None:
                where = {"NEXT": "on the next line", "SAME": "on the same line"}.get(d.kind, "")
                report.problems.append(f"line {d.line}: CHECK{'' if d.kind in ('CHECK', 'COUNT') else '-' + d.kind}"
                                       f" {d.pattern!r} matches nothing {where} in xesim's output even with its "
                                       "numbers free (missing line)".replace("  ", " "))
                if d.kind == "NEXT":
                    line, col = line + 1, 0
                break
            line, m = found
            col = m.end()
            report.records += 1
            _compare_numbers(report, d, line, m, lines[line], elements)
    return report, notes


def _search(d: Directive, lines: list[str], line: int, col: int) -> tuple[int, re.Match] | None:
    """Where ``d`` matches as FileCheck reads it; failing that, where it matches with its numbers free (a memref
    header line only when the pattern is one: a lone number must not pair with a header's rank or sizes)."""
    return _search_with(d.exact, d.kind, lines, line, col, True) or _search_with(
        d.regex, d.kind, lines, line, col, "Memref" in d.pattern)


def _search_with(regex: re.Pattern, kind: str, lines: list[str], line: int, col: int,
                 headers: bool) -> tuple[int, re.Match] | None:
    def at(i: int, start: int) -> re.Match | None:
        if i >= len(lines) or (not headers and _is_header(lines[i])):
            return None
        return regex.search(lines[i], start)

    if kind == "SAME":
        m = at(line, col)
        return (line, m) if m else None
    if kind == "NEXT":
        m = at(line + 1, 0)
        return (line + 1, m) if m else None
    for i in range(line, len(lines)):
        m = at(i, col if i == line else 0)
        if m:
            return i, m
    return None


def _is_header(text: str) -> bool:
    return text.startswith(("Unranked Memref base@", "Memref base@"))


def _compare_numbers(report: Report, d: Directive, line: int, m: re.Match, text: str,
                     elements: dict[tuple[int, int], tuple]) -> None:
    for g, (want, is_prefix) in enumerate(d.numbers, 1):
        got = m.group(g)
        start = m.start(g)
        report.elements += 1
        if got == want or (is_prefix and got.startswith(want)):
            continue
        token_index = len(_LITERAL_NUMBER_RE.findall(text[:start]))
        where, index, dtype, exact, entry, flat = elements.get(
            (line, token_index), (f"xesim's line {line + 1}", (token_index,), None, None, None, None))
        mm = element_mismatch(f"{where} (CHECK at line {d.line})", index, want + ("..." if is_prefix else ""),
                              got, dtype, exact)
        mm.entry, mm.flat = entry, flat
        report.mismatches.append(mm)


def _element_positions(xesim_text: str, log: PrintLog | None) -> dict[tuple[int, int], tuple]:
    """For every number token of xesim's output that is an element of a printed value: (0-based line, index of
    the token on its line) -> (the print's description, the element's multi-index, dtype, exact value, the print's
    index in the log, the element's flat index)."""
    out: dict[tuple[int, int], tuple] = {}
    if log is None:
        return out
    for rec in parse_output(xesim_text):
        entry = log.entry_at(rec.line - 1, rec.size)
        if entry is None or entry.values is None:
            continue
        first = rec.line - 1 + (1 if rec.kind == "memref" else 0)  # a memref's elements start after its header
        k = 0
        for off, text in enumerate(rec.text.split("\n")[1 if rec.kind == "memref" else 0:]):
            for t in range(len(_LITERAL_NUMBER_RE.findall(text))):
                if k < rec.size:
                    out[(first + off, t)] = (entry.where, rec.index(k), entry.dtype,
                                             np.asarray(entry.values[k], entry.dtype), entry.index, k)
                k += 1
    return out
