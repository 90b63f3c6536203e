"""The ``xesim test`` subcommand: its options and what it does (issue 26 item 2).  ``xesim/cli.py`` only wires
it in; the work is :mod:`xesim.testing.suite` (discovery, running, reports) and :mod:`xesim.testing.report`."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def add_test_command(sub: argparse._SubParsersAction, positive_int) -> None:
    """Add ``xesim test`` to the subcommand parsers ``sub`` (``positive_int``: the cli's -j type)."""
    t = sub.add_parser("test", help="run lit-style test files (RUN lines as upstream writes them) through xesim",
                       description="Run the .mlir tests under PATH... as lit would, with xesim standing in for the "
                                   "lowering and the GPU: PASS / FAIL / UNSUPPORTED per test, exit status 1 when a "
                                   "test fails.")
    t.add_argument("paths", nargs="*", metavar="PATH", help="test files or directories")
    t.add_argument("-j", "--jobs", type=positive_int, default=None, metavar="N",
                   help="run N tests at a time, each in its own process (default: XESIM_JOBS or the number of cores)")
    t.add_argument("-v", "--verbose", action="store_true", help="a line for every test, PASS included")
    t.add_argument("--junit-xml", metavar="FILE", help="write a JUnit XML report to FILE")
    t.add_argument("--json", metavar="FILE", help="write a JSON report to FILE ('-': stdout, instead of the table)")
    t.add_argument("--explain-assumptions", action="store_true",
                   help="list the mlir-runner / lit conventions xesim assumes (isa/runner.toml), with evidence")
    t.set_defaults(func=run_test_command)


def _write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file renamed into place)."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def run_test_command(args: argparse.Namespace) -> int:
    from xesim.testing.conventions import assumptions

    if args.explain_assumptions:
        for c in assumptions():
            print(f"{c.path} = {c.value!r}\n    evidence: {c.evidence}")
        return 0
    if not args.paths:
        print("xesim test: error: no PATH given (test files or directories)", file=sys.stderr)
        return 2
    from xesim.testing.report import TerminalReport
    from xesim.testing.suite import discover, exit_status, json_report, junit_xml, run_tests

    tests = discover(args.paths)
    if not tests:
        print(f"xesim test: error: no tests found under {' '.join(args.paths)}", file=sys.stderr)
        return 2
    jobs = args.jobs or int(os.environ.get("XESIM_JOBS") or 0) or os.cpu_count() or 1
    quiet = args.json == "-"
    try:
        with TerminalReport(len(tests), args.verbose, file=sys.stderr if quiet else None) as view:
            results = run_tests(tests, min(jobs, len(tests)), view.add)
    except KeyboardInterrupt:
        print("xesim test: interrupted (no report written)", file=sys.stderr)
        return 130
    view.finish(results)
    if args.junit_xml:
        _write(args.junit_xml, junit_xml(results))
    if args.json == "-":
        sys.stdout.write(json_report(results))
    elif args.json:
        _write(args.json, json_report(results))
    return exit_status(results)
