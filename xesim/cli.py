"""Command-line interface: ``xesim verify | fmt`` (``run``/``check`` come with the execution engine).

Diagnostics go to stderr as ``file:line:col: error: message`` with the source line and a caret; the exit
status is 1 on any error.  ``--debug`` shows Python tracebacks of internal errors.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from xesim import __version__
from xesim.diagnostics import DiagnosticError

EPILOG = """examples:
  xesim verify program.mlir                 parse and verify; silent on success
  xesim fmt program.mlir                    print the normalized program
  cat program.mlir | xesim fmt -            read from standard input
  xesim verify --split-input-file --verify-diagnostics invalid.mlir
                                            check expected-error annotations (MLIR's test convention)
"""


def _read(path: str) -> tuple[str, str]:
    if path == "-":
        return "<stdin>", sys.stdin.read()
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(path)
    return path, p.read_text()


def _cmd_verify(args: argparse.Namespace) -> int:
    from xesim.ir.parser import parse_source
    from xesim.verify.expectations import split_chunks, verify_file_with_expectations
    from xesim.verify.structural import verify_module

    status = 0
    for path in args.files:
        name, text = _read(path)
        if args.verify_diagnostics:
            problems = verify_file_with_expectations(name, text, args.split_input_file)
            for d in problems:
                print(d.render(), file=sys.stderr)
            if problems:
                status = 1
            continue
        chunks = split_chunks(text) if args.split_input_file else [(1, text)]
        for _, chunk in chunks:
            try:
                module = parse_source(chunk, name)
                ctx = verify_module(module, raise_on_error=False)
                for d in sorted(ctx.diagnostics, key=lambda d: d.loc.offset):
                    print(d.render(), file=sys.stderr)
                if ctx.errors:
                    status = 1
            except DiagnosticError as exc:
                print(exc.render(), file=sys.stderr)
                status = 1
    return status


def _cmd_fmt(args: argparse.Namespace) -> int:
    from xesim.ir.parser import parse_source
    from xesim.ir.printer import print_module
    from xesim.verify.structural import verify_module

    name, text = _read(args.file)
    module = parse_source(text, name)
    if not args.no_verify:
        verify_module(module)
    out = print_module(module)
    if args.output:
        Path(args.output).write_text(out)
    else:
        sys.stdout.write(out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="xesim",
        description="xesim: a bit-accurate functional simulator of Intel Xe GPU (PVC) XeGPU programs.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--version", action="version", version=f"xesim {__version__}")
    ap.add_argument("--debug", action="store_true", help="show Python tracebacks of internal errors")
    sub = ap.add_subparsers(dest="command", required=True)

    v = sub.add_parser("verify", help="parse and verify MLIR files", epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    v.add_argument("files", nargs="+", help="input files (.mlir / .xegpu, or - for stdin)")
    v.add_argument("--split-input-file", action="store_true", help="process chunks separated by '// -----'")
    v.add_argument("--verify-diagnostics", action="store_true",
                   help="check 'expected-error {{...}}' annotations instead of reporting errors")
    v.set_defaults(func=_cmd_verify)

    f = sub.add_parser("fmt", help="print the normalized program", epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    f.add_argument("file", help="input file, or - for stdin")
    f.add_argument("-o", "--output", help="write to this file instead of stdout")
    f.add_argument("--no-verify", action="store_true", help="print without verifying")
    f.set_defaults(func=_cmd_fmt)
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except DiagnosticError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except FileNotFoundError as exc:
        print(f"xesim: error: no such file: {exc.args[0]}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # an internal error: never a bare traceback unless --debug
        if args.debug:
            raise
        print(f"xesim: internal error: {type(exc).__name__}: {exc} (run with --debug for a traceback)",
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
