"""FileCheck semantics at run time (spec/programs-and-runner.md §5; issue 26 item 4).

Decision: xesim does not carry its own FileCheck.  The ``filecheck`` package (a maintained, dependency-free Python
port of LLVM FileCheck, the same one the test suite always used) is a runtime dependency, and this module is the
one place xesim calls it: in-process, on text in memory, with FileCheck's own command-line options
(``--check-prefix``, ``--check-prefixes``, ``--implicit-check-not``, ``--strict-whitespace``, ``-D``...).  A second
hand-written matcher would be a second definition of semantics the output must satisfy, with its own bugs.

``xesim check``, ``xesim test``, the lit format and the pytest plugin all check through :func:`check`, so a
failure reads the same everywhere: the first CHECK line that did not match, its directive text and FileCheck's
report of where in the output it looked.  The adapter uses the package's matcher classes directly (pinned to
``filecheck>=1.0,<2`` in pyproject.toml; tests/unit/test_testing_filecheck.py covers the use).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class FileCheckUsageError(ValueError):
    """FileCheck options it does not accept (the message is FileCheck's)."""


@dataclass(frozen=True)
class CheckResult:
    """The outcome of matching ``input`` against a check file: ``ok``; otherwise ``line`` (1-based) and
    ``directive`` (that line's text, stripped) of the first CHECK line that failed (0 / "" when the failure is not
    one line's, e.g. no CHECK lines), and ``report``: FileCheck's message with the output position it reached."""

    ok: bool
    report: str = ""
    line: int = 0
    directive: str = ""

    def summary(self) -> str:
        """One line: where the first failing CHECK line is and what it says."""
        if self.ok:
            return "all CHECK lines matched"
        if self.line:
            return f"line {self.line}: {self.directive}"
        return self.report.strip().splitlines()[0] if self.report.strip() else "FileCheck failed"

    def describe(self) -> str:
        """The failure for a person: the first unmatched CHECK line (number and text), then FileCheck's report
        of where in the output it looked; "" when all matched."""
        if self.ok:
            return ""
        head = f"first unmatched CHECK line: {self.summary()}\n" if self.line else ""
        return head + self.report


def check(check_text: str, check_name: str, output: str, args: list[str] | tuple[str, ...] = ()) -> CheckResult:
    """Match ``output`` against the CHECK lines of ``check_text`` (the file called ``check_name``) with FileCheck
    options ``args`` (without the check file; e.g. ``["--check-prefix", "FOO"]``)."""
    from filecheck.finput import FInput
    from filecheck.matcher import Matcher
    from filecheck.options import parse_argv_options
    from filecheck.parser import Parser, pattern_for_opts

    try:
        opts = parse_argv_options(["filecheck", *args, check_name])
    except RuntimeError as exc:
        raise FileCheckUsageError(str(exc)) from None
    parser = Parser(opts, io.StringIO(check_text), *pattern_for_opts(opts))
    matcher = Matcher(opts, FInput("-", FInput.canonicalize_line_ends(output)), parser)
    matcher.stderr = io.StringIO()
    status = matcher.run()
    if status == 0:
        return CheckResult(True)
    report = _ANSI.sub("", matcher.stderr.getvalue())
    m = re.match(rf"{re.escape(check_name)}:(\d+):", report)
    line = int(m.group(1)) if m else 0
    lines = check_text.splitlines()
    directive = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return CheckResult(False, report, line, directive)
