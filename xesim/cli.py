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
  xesim run program.mlir                    run @main; program output on stdout, diagnostics on stderr
  xesim check program.mlir                  run and check the output against the file's CHECK lines
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
        from xesim.unix import write_atomically

        write_atomically(args.output, out)  # whole or not at all, even when interrupted
    else:
        sys.stdout.write(out)
    return 0


def _load_verified(path: str):
    from xesim.ir.parser import parse_source
    from xesim.verify.structural import verify_module

    name, text = _read(path)
    module = parse_source(text, name)
    ctx = verify_module(module, raise_on_error=False)
    for d in ctx.diagnostics:
        if d.severity != "error":
            print(d.render(), file=sys.stderr)
    if ctx.errors:
        raise DiagnosticError(sorted(ctx.diagnostics, key=lambda d: d.loc.offset))
    return module


def _run_module(module, args: argparse.Namespace, out) -> None:
    from xesim.api import make_engine
    from xesim.hw.params import TargetError

    try:
        # flags, with the environment-variable aliases of the options they leave unset (xesim.api.ENVIRONMENT)
        engine = make_engine(module, out=out, seed=args.seed, target=args.target, strict=args.strict,
                             dpas_model=args.dpas_model, schedule=args.schedule, check_races=args.check_races,
                             large_grf=args.large_grf, jobs=args.jobs, stats=args.stats,
                             max_steps=args.max_steps, timeout=args.timeout, memory_limit=args.memory_limit)
    except TargetError as exc:
        print(f"xesim: error: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
    try:
        engine.run(args.entry)
    finally:
        if args.stats:
            from xesim.api import register_file

            print(register_file(engine).report(), file=sys.stderr)
        if args.explain_assumptions:
            _explain(engine)


def _explain(engine) -> None:
    """List the assumed (not source-established) target parameters this run read, with their evidence."""
    used = engine.target.assumptions(only_used=True)
    lines = [f"xesim: target '{engine.target.name}': {len(used)} assumed parameter(s) used by this run"]
    for p in used:
        lines.append(f"  {p.path} = {p.value!r}\n      evidence: {p.evidence}\n      source: {p.source}")
    notes = list(getattr(engine, "assumption_notes", []))
    math_ops = sorted({op.name for op in engine.module.walk() if op.name.startswith("math.")})
    if math_ops:
        notes.append(f"{', '.join(math_ops)}: computed in f64 and rounded once to the result type (xesim/numerics/"
                     "mathfuncs.py); the GPU's math library may differ in the last bits (ARCHITECTURE.md Numerics)")
    for n in notes:
        lines.append(f"  note: {n}")
    print("\n".join(lines), file=sys.stderr)


def _cmd_run(args: argparse.Namespace) -> int:
    from xesim.unix import GuardedOutput

    module = _load_verified(args.file)
    _run_module(module, args, GuardedOutput(sys.stdout))  # a closed pipe ends the run quietly (xesim/unix.py)
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    import io
    import shutil
    import subprocess

    module = _load_verified(args.file)
    buf = io.StringIO()
    _run_module(module, args, buf)
    exe = shutil.which("filecheck") or str(Path(sys.executable).with_name("filecheck"))
    if not Path(exe).exists():
        print("xesim: error: the 'filecheck' program is not installed (pip install filecheck)", file=sys.stderr)
        return 1
    cmd = [exe, args.file]
    if args.check_prefix:
        cmd += ["--check-prefix", args.check_prefix]
    proc = subprocess.run(cmd, input=buf.getvalue(), capture_output=True, text=True)
    sys.stderr.write(proc.stdout + proc.stderr)
    if proc.returncode != 0:
        return 1
    print(f"{args.file}: all CHECK lines passed", file=sys.stderr)
    return 0


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text!r}")
    return n


def _positive_seconds(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        x = 0.0
    if not 0 < x < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text!r}")
    return x


def _size(text: str) -> int:
    from xesim.exec.limits import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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

    for name, fn, helptext in (("run", _cmd_run, "run the program's entry function like mlir-runner"),
                               ("check", _cmd_check, "run the program and check its output against its CHECK lines")):
        r = sub.add_parser(name, help=helptext, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
        r.add_argument("file", help="input file (.mlir / .xegpu), or - for stdin")
        r.add_argument("--entry", default="main", help="function to run (default: main)")
        r.add_argument("--seed", type=int, default=0, help="seed of fillResource1DRandom* (default 0)")
        r.add_argument("--target", default="pvc", help="hardware target: pvc (default) or bmg")
        r.add_argument("--strict", action="store_true",
                       help="treat hardware rules real programs break without visible harm as errors")
        r.add_argument("--dpas-model", default=None, metavar="NAME",
                       help="DPAS numerics model preset (default: the target's best-evidenced model)")
        r.add_argument("--schedule", choices=("round-robin", "random"), default="round-robin",
                       help="interleaving of the subgroups of a workgroup at barriers and fences "
                            "(random: seeded by --seed, to expose order-dependent programs)")
        r.add_argument("--check-races", action="store_true",
                       help="report conflicting accesses to the same SLM/global bytes by subgroups of a workgroup "
                            "that no barrier orders (an error: exit status 1)")
        r.add_argument("--stats", action="store_true",
                       help="after the run, report per kernel the peak register (GRF) use, where it peaked and "
                            "whether the kernel would spill (on stderr)")
        r.add_argument("--large-grf", action="store_true",
                       help="run kernels with the large register file (256 registers on PVC) instead of the "
                            "kernel's own choice")
        r.add_argument("-j", "--jobs", type=_positive_int, default=None, metavar="N",
                       help="run the workgroups of each kernel launch in N processes (default: XESIM_JOBS or the "
                            "number of cores; the results do not depend on N)")
        r.add_argument("--explain-assumptions", action="store_true",
                       help="after the run, list the assumed hardware parameters it used (on stderr)")
        # limits of a run (xesim/exec/guard.py, xesim/exec/limits.py; README "Limits")
        r.add_argument("--max-steps", type=_positive_int, default=None, metavar="N",
                       help="stop the run with an error after N loop iterations (scf.for/while/parallel iterations "
                            "and backward cf branches, host and kernel code; default: XESIM_MAX_STEPS or no limit)")
        r.add_argument("--timeout", type=_positive_seconds, default=None, metavar="S",
                       help="stop the run with an error after S seconds (default: XESIM_TIMEOUT or no limit)")
        r.add_argument("--memory-limit", type=_size, default=None, metavar="SIZE",
                       help="most global memory the program may have allocated at once, e.g. 512M, 16G (default: "
                            "XESIM_MEMORY_LIMIT or a third of this machine's memory)")
        if name == "check":
            r.add_argument("--check-prefix", default=None, help="FileCheck prefix (default CHECK)")
        r.set_defaults(func=fn)
    return ap


def main(argv: list[str] | None = None) -> int:
    from xesim import unix

    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        with unix.command_line():  # SIGTERM unwinds like SIGINT (xesim/unix.py)
            return int(args.func(args) or 0)
    except (unix.OutputClosed, BrokenPipeError):  # the reader of standard output went away: end quietly
        return unix.output_closed()
    except KeyboardInterrupt as exc:  # SIGINT (130) or SIGTERM (143): say where the run was
        status = unix.interrupted(exc, sys.stderr)
        if argv is None:  # the command itself: leave now, not after a second of interpreter teardown
            unix.exit_now(status)
        return status
    except DiagnosticError as exc:
        print(exc.render(), file=sys.stderr)
        if args.debug and exc.__cause__ is not None:
            import traceback

            traceback.print_exception(exc.__cause__)
        return 1
    except FileNotFoundError as exc:
        print(f"xesim: error: no such file: {exc.args[0]}", file=sys.stderr)
        return 1
    except Exception as exc:  # an internal error: never a bare traceback unless --debug
        if args.debug:
            raise
        print(f"xesim: internal error: {type(exc).__name__}: {exc} (run with --debug for a traceback)",
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
