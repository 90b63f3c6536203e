"""``xesim crosscheck``: compare xesim's run of a program with a recorded run (docs/crosscheck.md).

Exit status: 0 when every element is identical (or within ``--tolerance``) and nothing is missing or extra,
1 otherwise or on an error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

HELP = "compare xesim's run of a program with a recorded (real GPU) run, value by value"

EPILOG = """examples:
  xesim crosscheck prog.mlir --recorded prog.out          stdout saved from mlir-runner on a GPU
  xesim crosscheck prog.mlir --recorded run-dir/          stdout.txt + meta.toml + buffer dumps
  xesim crosscheck prog.mlir --recorded check-lines       the program's own CHECK lines
  xesim crosscheck prog.mlir --recorded prog.out --explain   which DPAS model / assumption explains it
  xesim crosscheck prog.mlir --record run-dir/            write xesim's run as a recording
"""


def add_parser(sub: Any) -> None:
    """Register the subcommand on ``sub`` (argparse subparsers)."""
    c = sub.add_parser("crosscheck", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("file", help="the program (.mlir)")
    what = c.add_mutually_exclusive_group(required=True)
    what.add_argument("--recorded", metavar="PATH",
                      help="the recording: a stdout file, a recording directory, or 'check-lines'")
    what.add_argument("--record", metavar="DIR", help="write xesim's run of the program as a recording directory")
    c.add_argument("--tolerance", metavar="T", default=None,
                   help="pass when every mismatch is within T: '4' or '4ulp' (units in the last place) or a "
                        "relative difference such as '1e-5' (for math functions without an exact definition)")
    c.add_argument("--explain", action="store_true",
                   help="rerun under every DPAS model preset and assumed-parameter variant; report which make "
                        "the outputs identical")
    c.add_argument("--max-report", type=int, default=20, metavar="N", help="mismatches listed (default 20)")
    c.add_argument("--check-prefix", default="CHECK", help="FileCheck prefix for --recorded check-lines")
    c.add_argument("--entry", default="main", help="function to run (default: main)")
    c.add_argument("--seed", type=int, default=0, help="seed of fillResource1DRandom* (default 0)")
    c.add_argument("--target", default="pvc", help="hardware target (default pvc)")
    c.add_argument("--dpas-model", default=None, metavar="NAME", help="DPAS numerics model preset")
    c.add_argument("-j", "--jobs", type=int, default=None, metavar="N", help="processes per launch")
    c.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from xesim import __version__
    from xesim.crosscheck.checklines import compare_check_lines, directives
    from xesim.crosscheck.compare import Report, Tolerance, compare_buffers, compare_output
    from xesim.crosscheck.recording import RecordingError, load_recording, write_recording
    from xesim.crosscheck.runs import run_logged

    tolerance = None
    if args.tolerance is not None:
        try:
            tolerance = Tolerance.parse(args.tolerance)
        except ValueError:
            print(f"xesim: error: --tolerance must be N, Nulp or a relative difference, not {args.tolerance!r}",
                  file=sys.stderr)
            return 1
    recording = None
    if args.recorded is not None:
        try:
            recording = load_recording(args.recorded)
        except RecordingError as exc:
            print(f"xesim: error: {exc}", file=sys.stderr)
            return 1
    from xesim.ir.parser import parse_source
    from xesim.sources import read_source
    from xesim.verify.structural import verify_module

    name, source = read_source(args.file)  # unreadable or not UTF-8: a diagnostic (xesim/sources.py)
    module = parse_source(source, name)
    verify_module(module)
    options: dict[str, Any] = {"seed": args.seed, "target": args.target, "dpas_model": args.dpas_model,
                               "jobs": args.jobs}
    from xesim.hw.params import TargetError

    if recording is not None and recording.check_lines and not directives(source, args.check_prefix):
        print(f"xesim: error: {args.file} has no {args.check_prefix} lines to use as the recording", file=sys.stderr)
        return 1
    try:
        text, log, engine = run_logged(module, args.entry, **options)
    except TargetError as exc:
        print(f"xesim: error: {exc}", file=sys.stderr)
        return 1
    if args.record is not None:
        memrefs = [e for e in log.entries if e.label.startswith("printMemref") and e.values is not None]
        model = args.dpas_model or "the target's default"
        write_recording(args.record, text, {f"print{i}": e.values.reshape(e.shape) for i, e in enumerate(memrefs)},
                        {"device": f"xesim {__version__} (target {args.target}, DPAS model {model})",
                         "xesim_version": __version__, "command": " ".join(sys.argv)})
        print(f"xesim: wrote a recording of {args.file} to {args.record} ({len(memrefs)} buffers)", file=sys.stderr)
        return 0
    assert recording is not None

    def compare(text: str, log: Any) -> Report:
        report = Report(args.file, args.recorded)
        if recording.check_lines:
            compare_check_lines(report, source, text, log, args.check_prefix)
        else:
            compare_output(report, recording.stdout or "", text, log)
            if recording.buffers:
                compare_buffers(report, recording.buffers, log)
        return report

    report = compare(text, log)
    if recording.meta:
        print("recording: " + ", ".join(f"{k} = {v}" for k, v in recording.meta.items()))
    print(report.render(args.max_report, tolerance))
    if args.explain and not report.passed():

        def rerun(opts: dict[str, Any]) -> Report:
            t, lg, _ = run_logged(module, args.entry, **opts)
            return compare(t, lg)

        from xesim.crosscheck.explain import explain, feeding_ops
        from xesim.crosscheck.provenance import WriterLog

        print("\n".join(explain(report, engine, options, rerun)))

        def run_with_writes() -> tuple[Any, Any]:
            writes = WriterLog()
            _, lg, _ = run_logged(module, args.entry, observers=(writes,), **options)
            return lg, writes

        print("\n".join(feeding_ops(report, run_with_writes)))
    return 0 if report.passed(tolerance) else 1
