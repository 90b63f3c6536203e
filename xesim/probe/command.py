"""``xesim probe emit`` and ``xesim calibrate``: the probe kit for hardware behaviour xesim can only assume
(docs/crosscheck.md "With a GPU")."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

EPILOG = """workflow (with a GPU):
  xesim probe emit probes/                 write the probe programs
  (run each on the GPU: the command is in its first lines; save the output as NAME.mlir.out)
  xesim calibrate probes/                  fit the DPAS model, write probes/pvc-measured.toml
  xesim run --target probes/pvc-measured.toml prog.mlir
"""


def add_parsers(sub: Any) -> None:
    """Register ``probe`` and ``calibrate`` on ``sub`` (argparse subparsers)."""
    p = sub.add_parser("probe", help="write self-checking programs that measure unknown hardware behaviour",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    psub = p.add_subparsers(dest="probe_command", required=True)
    e = psub.add_parser("emit", help="write the probe programs into DIR", epilog=EPILOG,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    e.add_argument("dir", help="directory to write into (created if missing)")
    e.add_argument("--target", default="pvc", choices=("pvc", "bmg"), help="the GPU the programs are for")
    e.set_defaults(func=_emit)
    c = sub.add_parser("calibrate", help="fit the DPAS numerics model to the probe programs' outputs",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("dir", help="directory with the probe programs and their NAME.mlir.out outputs")
    c.add_argument("--target", default="pvc", help="the target the overlay refines (default pvc)")
    c.add_argument("-o", "--output", default=None, help="overlay file (default DIR/<target>-measured.toml)")
    c.set_defaults(func=_calibrate)


def _emit(args: argparse.Namespace) -> int:
    from xesim.probe.emit import emit, probe_groups

    try:
        paths = emit(args.dir, args.target)
    except OSError as exc:
        print(f"xesim: error: cannot write the probe programs to {args.dir}: {exc.strerror}", file=sys.stderr)
        return 1
    _, skipped = probe_groups()
    print(f"xesim: wrote {len(paths)} probe programs to {args.dir} ({', '.join(p.name for p in paths)})",
          file=sys.stderr)
    for s in skipped:
        print(f"  left out: {s}", file=sys.stderr)
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    from xesim.probe.calibrate import CalibrationError, fit, overlay_text, read_outputs, run_checks

    try:
        obs = read_outputs(args.dir)
    except CalibrationError as exc:
        print(f"xesim: error: {exc}", file=sys.stderr)
        return 1
    result = fit(obs)
    print(result.render())
    checks = run_checks(args.dir, args.target)
    if checks:
        print("\n".join(checks))
    if not result.fitting:
        return 1
    out = Path(args.output or Path(args.dir) / f"{args.target}-measured.toml")
    tmp = out.with_name(f".{out.name}.tmp")
    try:
        tmp.write_text(overlay_text(result, args.target, args.dir))
        tmp.replace(out)
    except OSError as exc:
        print(f"xesim: error: cannot write {out}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"xesim: wrote {out} (use it with --target {out})", file=sys.stderr)
    return 0
