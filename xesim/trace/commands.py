"""``xesim trace summary | log | export | view FILE`` (issue 28): the subcommands that read a recorded trace.

Errors (a missing file, a file that is not a trace, an unsupported format version, a bad option) are one
``xesim: error:`` line and exit status 1; a broken pipe (``xesim trace log t.xetrace | head``) ends quietly.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

from xesim.trace.format import TraceFormatError, load

EPILOG = """examples:
  xesim run --trace gemm.xetrace --trace-wg 0 prog.mlir      record workgroup 0 of every launch
  xesim trace summary gemm.xetrace                           per launch: ops, bytes, DPAS, GRF peak, barriers
  xesim trace log gemm.xetrace > a.log                       one line per executed op (diffs between runs)
  xesim trace export --perfetto gemm.json gemm.xetrace       open in the Perfetto UI
  xesim trace view gemm.xetrace                              interactive terminal viewer (? for its keys)
"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``trace`` and its subcommands to the CLI's subparsers."""
    t = sub.add_parser("trace", help="read a recorded trace: summary, log, export, view", epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    tsub = t.add_subparsers(dest="trace_command", required=True)
    s = tsub.add_parser("summary", help="tables per launch: ops, bytes moved, DPAS, GRF peak, barriers, time")
    s.add_argument("file", help="a .xetrace file (xesim run --trace)")
    s.set_defaults(func=_summary)
    g = tsub.add_parser("log", help="one line per executed op, like a commit log (diffs cleanly between runs)")
    g.add_argument("file")
    g.add_argument("--elements", type=int, default=8, metavar="N", help="elements shown per value (default 8)")
    g.set_defaults(func=_log)
    e = tsub.add_parser("export", help="export to another tool's format")
    e.add_argument("file")
    e.add_argument("--perfetto", required=True, metavar="OUT.json",
                   help="write Chrome trace-event JSON for the Perfetto UI (ui.perfetto.dev) or chrome://tracing")
    e.set_defaults(func=_export)
    v = tsub.add_parser("view", help="interactive terminal viewer (textual)")
    v.add_argument("file")
    v.set_defaults(func=_view)


def _error(message: str) -> NoReturn:
    print(f"xesim: error: {message}", file=sys.stderr)
    raise SystemExit(1)


def _open(path: str):
    try:
        return load(path)
    except FileNotFoundError:
        _error(f"no such file: {path}")
    except TraceFormatError as exc:
        _error(str(exc))
    except OSError as exc:  # a directory, no permission
        _error(f"{path}: {exc.strerror or exc}")


def _summary(args: argparse.Namespace) -> int:
    from rich.console import Console

    from xesim.trace.report import summary

    summary(_open(args.file), Console(soft_wrap=False))
    return 0


def _log(args: argparse.Namespace) -> int:
    from xesim.trace.report import log_lines

    tr = _open(args.file)
    out = sys.stdout
    for line in log_lines(tr, max(1, args.elements)):
        out.write(line + "\n")
    return 0


def _export(args: argparse.Namespace) -> int:
    from xesim.trace.perfetto import export

    tr = _open(args.file)
    out = Path(args.perfetto)
    if not out.parent.is_dir():
        _error(f"--perfetto: no such directory: {out.parent}")
    n = export(tr, out)
    print(f"xesim: wrote {n} trace events to {args.perfetto}", file=sys.stderr)
    return 0


def _view(args: argparse.Namespace) -> int:
    tr = _open(args.file)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        _error("xesim trace view needs a terminal; 'xesim trace summary' and 'xesim trace log' print text")
    from xesim.trace.viewer import TraceViewer

    TraceViewer(tr).run()
    return 0
