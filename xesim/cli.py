"""Command-line interface: ``xesim verify | fmt`` (``run``/``check`` come with the execution engine).

Diagnostics go to stderr as ``file:line:col: error: message`` with the source line and a caret; the exit
status is 1 on any error.  ``--debug`` shows Python tracebacks of internal errors.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from xesim import __version__
from xesim.deep import call_deep
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
    from xesim.sources import read_source

    return read_source(path)  # a missing, unreadable or non-UTF-8 file is a diagnostic (xesim/sources.py)


def _cmd_verify(args: argparse.Namespace) -> int:
    from xesim.ir.parser import parse_source
    from xesim.verify.expectations import split_chunks, verify_file_with_expectations
    from xesim.verify.structural import verify_module

    status = 0
    for path in args.files:
        name, text = _read(path)
        if args.verify_diagnostics:
            problems = verify_file_with_expectations(name, text, args.split_input_file,
                                                     unexpected_notes=_unexpected_notes(),
                                                     settings=_verify_settings(args))
            for d in problems:
                print(d.render(), file=sys.stderr)
            if problems:
                status = 1
            continue
        chunks = split_chunks(text) if args.split_input_file else [(1, text)]
        for _, chunk in chunks:
            try:
                module = parse_source(chunk, name)
                ctx = verify_module(module, raise_on_error=False, settings=_verify_settings(args))
                for d in sorted(ctx.diagnostics, key=lambda d: d.loc.offset):
                    print(d.render(), file=sys.stderr)
                if ctx.errors:
                    status = 1
            except DiagnosticError as exc:
                print(exc.render(), file=sys.stderr)
                status = 1
    return status


def _unexpected_notes() -> str:
    from xesim.testing.conventions import value

    return value("verify_diagnostics.unexpected_notes")


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


def _load_verified(path: str, settings=None):
    name, text = _read(path)
    module, ctx = call_deep(_parse_and_verify, text, name, settings)  # room for deep nesting (xesim/deep.py)
    for d in ctx.diagnostics:
        if d.severity != "error":
            print(d.render(), file=sys.stderr)
    if ctx.errors:
        raise DiagnosticError(sorted(ctx.diagnostics, key=lambda d: d.loc.offset))
    return module


def _parse_and_verify(text: str, name: str, settings=None):
    from xesim.ir.parser import parse_source
    from xesim.verify.structural import verify_module

    module = parse_source(text, name)
    return module, verify_module(module, raise_on_error=False, settings=settings)


def _run_module(module, args: argparse.Namespace, out, observers: tuple = ()) -> tuple:
    from xesim.api import make_engine
    from xesim.hw.params import TargetError

    spec = _trace_spec(args)  # --trace (issue 28)
    try:
        # flags, with the environment-variable aliases of the options they leave unset (xesim.api.ENVIRONMENT)
        engine = make_engine(module, out=out, seed=args.seed, target=args.target, strict=args.strict,
                             dpas_model=args.dpas_model, schedule=args.schedule, check_races=args.check_races,
                             large_grf=args.large_grf, jobs=args.jobs, stats=args.stats, trace=spec,
                             progress=show_progress(args, sys.stderr, os.environ),
                             launch_reuse=False if args.no_launch_reuse else None,
                             check_memory=args.check_memory,
                             max_call_depth=args.max_call_depth,
                             max_steps=args.max_steps, timeout=args.timeout, memory_limit=args.memory_limit,
                             overrides=tuple(args.target_param) or None,
                             check_distribution=args.check_distribution or None)
    except TargetError as exc:
        print(f"xesim: error: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
    for obs in observers:
        engine.subscribe(obs)
    try:
        try:
            result = engine.run(args.entry)
        except DiagnosticError as exc:
            _finish_trace(engine, args, exc)
            raise
        _finish_trace(engine, args, None)
        return result
    finally:
        if args.stats:
            from xesim.api import register_file

            print(register_file(engine).report(), file=sys.stderr)
            from xesim.exec.launch_reuse import reuse_state

            print(reuse_state(engine).report(), file=sys.stderr)
        if args.explain_assumptions:
            _explain(engine)
        if args.check_distribution:  # issue 31 (xesim/observe/xetile_distribution.py)
            from xesim.observe.xetile_distribution import DistributionCheck

            print(engine.observer(DistributionCheck).report(), file=sys.stderr)


def _trace_spec(args: argparse.Namespace):
    """The TraceSpec of the --trace options, or None (a bad filter is an ``xesim: error:`` and exit status 1)."""
    if not args.trace:
        for opt in ("trace_kernel", "trace_wg", "trace_sg", "trace_ops", "trace_values", "trace_limit"):
            if getattr(args, opt) is not None:
                print(f"xesim: error: --{opt.replace('_', '-')} needs --trace OUT.xetrace", file=sys.stderr)
                raise SystemExit(1)
        return None
    from xesim.trace import spec as S  # noqa: N812

    try:
        kw: dict = {}
        if args.trace_kernel:
            kw["kernels"] = tuple(k.strip() for k in args.trace_kernel.split(",") if k.strip())
        if args.trace_wg is not None:
            kw["workgroups"] = S.parse_workgroups(args.trace_wg)
        if args.trace_sg is not None:
            kw["subgroups"] = S.parse_ranges(args.trace_sg)
        if args.trace_ops:
            kw["ops"] = tuple(k.strip() for k in args.trace_ops.split(",") if k.strip())
        if args.trace_values is not None:
            kw["values"] = S.parse_values(args.trace_values)
        if args.trace_limit is not None:
            if args.trace_limit <= 0:
                raise S.TraceSpecError(f"--trace-limit: must be a positive number of MB, not {args.trace_limit:g}")
            kw["limit_mb"] = args.trace_limit
    except S.TraceSpecError as exc:
        print(f"xesim: error: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
    out = Path(args.trace)
    if not out.parent.is_dir():
        print(f"xesim: error: --trace: no such directory: {out.parent}", file=sys.stderr)
        raise SystemExit(1)
    return S.TraceSpec(str(out), **kw)


def show_progress(args: argparse.Namespace, stderr: Any, environ: Mapping[str, str]) -> bool:
    """Whether ``xesim run`` draws its progress bar (xesim/observe/progress.py): never with ``--quiet``; always with
    ``--progress``; otherwise when stderr is a terminal and ``CI`` is unset or false (issue 28)."""
    if args.quiet:
        return False
    if args.progress:
        return True
    ci = environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
    return bool(getattr(stderr, "isatty", lambda: False)()) and not ci


def _finish_trace(engine, args: argparse.Namespace, error) -> None:
    """Write the trace (when recording one) and say where, unless --quiet."""
    if not args.trace:
        return
    from xesim.api import finish_trace

    tracer = finish_trace(engine, args.file, error)
    if tracer is not None and not args.quiet:
        n = len(tracer.rows["events"])
        print(f"xesim: trace of {n} op executions written to {args.trace} ({tracer.file_size:,} bytes)",
              file=sys.stderr)


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


# --- target parameters on the command line (issue 31: the verifier's xetile.verify.* settings, any parameter) ----
def _add_target_param_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--target-param", action="append", default=[], type=_target_param, metavar="NAME=VALUE",
                   help="set a parameter of the target file (isa/targets/*.toml), e.g. xetile.verify.strict=false; "
                        "repeatable ('xesim run --explain-assumptions' lists the assumed ones a run used)")


def _target_param(text: str) -> tuple[str, object]:
    """``NAME=VALUE``: true/false, an integer, a float, else the text."""
    name, eq, raw = text.partition("=")
    if not eq or not name.strip() or not raw.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    raw = raw.strip()
    value: object = raw
    if raw.lower() in ("true", "false"):
        value = raw.lower() == "true"
    else:
        for conv in (int, float):
            try:
                value = conv(raw)
                break
            except ValueError:
                pass
    return name.strip(), value


def _verify_settings(args: argparse.Namespace):
    """The verifier's settings (xesim/verify/settings.py) of ``--target`` with ``--target-param``s; an unknown
    parameter or target is ``xesim: error:`` and exit status 1."""
    from xesim.hw.params import TargetError, load_target
    from xesim.verify.settings import VerifySettings

    try:
        target = load_target(getattr(args, "target", "pvc"))
        params = dict(getattr(args, "target_param", ()) or ())
        return VerifySettings.from_target(target.with_overrides(params) if params else target)
    except TargetError as exc:
        print(f"xesim: error: {exc}", file=sys.stderr)
        raise SystemExit(1) from None


def _cmd_run(args: argparse.Namespace) -> int:
    from xesim.unix import GuardedOutput

    module = _load_verified(args.file, _verify_settings(args))
    out = GuardedOutput(sys.stdout)  # a closed pipe ends the run quietly (xesim/unix.py)
    if getattr(args, "compare_with", None):
        return _compare_with(module, args, out)
    kind = _runner_entry(module, args)
    values = _run_module(module, args, out)
    out.write(_runner_result(values, kind))
    return 0


# --- mlir-runner compatibility (issue 26 item 1; xesim/testing/mlir_runner.py) -------------------------------
def _runner_entry(module, args: argparse.Namespace) -> str:
    """Check the mlir-runner flags of ``xesim run``/``check`` and the entry function; the result kind to print."""
    from xesim.testing.mlir_runner import check_entry, check_shared_libs

    check_shared_libs([lib for group in args.shared_libs for lib in group])
    return check_entry(module, args.entry, args.entry_point_result)


def _runner_result(values: tuple, kind: str) -> str:
    from xesim.testing.mlir_runner import format_result

    return format_result(values, kind)


def _add_runner_flags(r: argparse.ArgumentParser) -> None:
    r.add_argument("--entry-point-result", choices=("void", "i32", "i64", "f32"), default=None,
                   help="mlir-runner's result kind of the entry function, printed after the run (default: the "
                        "function's own: nothing for void)")
    r.add_argument("--shared-libs", action="append", default=[], metavar="LIB[,LIB...]",
                   type=lambda s: [x for x in s.split(",") if x],
                   help="mlir-runner's runtime libraries: checked against those xesim provides, not loaded")
    r.add_argument("-O", dest="opt_level", type=int, choices=range(4), default=None, metavar="0-3",
                   help="mlir-runner's optimisation level: accepted, no effect")


def runner_main(argv: list[str] | None = None) -> int:
    """``xesim-runner``: exactly mlir-runner's command line (xesim/testing/mlir_runner.py), run by xesim."""
    from xesim.testing.conventions import value
    from xesim.testing.mlir_runner import RunnerUsageError, parse_command_line

    try:
        opts = parse_command_line(sys.argv[1:] if argv is None else argv)
    except RunnerUsageError as exc:
        print(f"xesim-runner: error: {exc}", file=sys.stderr)
        return 2
    run_argv = ["run", opts.input, "--entry", opts.entry,
                "--entry-point-result", opts.result or value("entry_point.default_result")]
    if opts.shared_libs:
        run_argv += ["--shared-libs", ",".join(opts.shared_libs)]
    return main(run_argv)


# ---- issue 30: --compare-with (xesim/observe/readback.py)
def _compare_with(module, args: argparse.Namespace, out) -> int:
    """Run the program (its output on stdout), then ``args.compare_with`` (output discarded), recording the
    buffers each reads back from the device; exit 1 naming the first difference."""
    import io

    from xesim.observe.readback import ReadbackRecorder, first_difference

    ours, theirs = ReadbackRecorder(), ReadbackRecorder()
    _run_module(module, args, out, (ours,))
    other = _load_verified(args.compare_with, _verify_settings(args))
    _run_module(other, args, io.StringIO(), (theirs,))
    diff = first_difference(ours.readbacks, theirs.readbacks, args.compare_with)
    if diff is not None:
        print(f"xesim: error: --compare-with: {diff}", file=sys.stderr)
        return 1
    print(f"xesim: --compare-with: the {len(ours.readbacks)} buffer(s) read back agree with {args.compare_with}",
          file=sys.stderr)
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    import io

    from xesim.testing.filecheck import check

    module = _load_verified(args.file, _verify_settings(args))
    kind = _runner_entry(module, args)
    buf = io.StringIO()
    buf.write(_runner_result(_run_module(module, args, buf), kind))
    name, text = _read(args.file)
    result = check(text, name, buf.getvalue(), ["--check-prefix", args.check_prefix] if args.check_prefix else [])
    if not result.ok:
        sys.stderr.write(result.describe())
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


def _memory_checks(text: str) -> frozenset[str]:
    """``--check-memory=CHECKS``: a comma list of init, bounds, leaks or all (xesim.config.memory_checks)."""
    from xesim.config import ConfigError, memory_checks

    try:
        return memory_checks(text)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _bare_flags(argv: list[str]) -> list[str]:
    """Flags whose value is optional take it attached with '=' (as git's do): a bare ``--check-memory`` means
    ``--check-memory=all``, so the next argument stays the input file."""
    return ["--check-memory=all" if a == "--check-memory" else a for a in argv]



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
    _add_target_param_flag(v)  # issue 31
    v.add_argument("--target", default="pvc", help="hardware target whose parameters --target-param changes "
                   "(default: pvc)")
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
        r.add_argument("--entry", "-e", "--entry-point", dest="entry", default="main",
                       help="function to run (default: main)")
        _add_runner_flags(r)
        r.add_argument("--seed", type=int, default=0, help="seed of fillResource1DRandom* (default 0)")
        r.add_argument("--target", default="pvc", help="hardware target: pvc (default), bmg or cri; the chip of a "
                       "gpu.module's #xevm.target takes precedence")
        if name == "run":  # issue 30: lowering check
            r.add_argument("--compare-with", default=None, metavar="LOWERED",
                           help="also run LOWERED (e.g. the program lowered by mlir-opt) and compare every buffer "
                                "the two read back from the device; exit 1 naming the first differing element")
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
        r.add_argument("--check-memory", type=_memory_checks, default=None, metavar="=CHECKS",
                       help="the memory checker (xesim/observe/memcheck.py): report reads of memory nothing wrote "
                            "(init), 2D block and scattered accesses out of bounds, masked lanes included "
                            "(bounds), allocations never freed (leaks); CHECKS is a comma list of init,bounds,"
                            "leaks (default: all). Undefined results on the hardware are errors, the rest "
                            "warnings (errors too with --strict)")
        r.add_argument("--stats", action="store_true",
                       help="after the run, report per kernel the peak register (GRF) use, where it peaked and "
                            "whether the kernel would spill (on stderr)")
        r.add_argument("--large-grf", action="store_true",
                       help="run kernels with the large register file (256 registers on PVC) instead of the "
                            "kernel's own choice")
        r.add_argument("-j", "--jobs", type=_positive_int, default=None, metavar="N",
                       help="run the workgroups of each kernel launch in N processes (default: XESIM_JOBS or the "
                            "number of cores; the results do not depend on N)")
        r.add_argument("--no-launch-reuse", action="store_true",
                       help="execute every kernel launch, even one identical to its kernel's previous launch (same "
                            "arguments and input bytes; by default such a launch takes that launch's writes)")
        _add_target_param_flag(r)  # issue 31
        r.add_argument("--check-distribution", action="store_true",
                       help="compare every op of a workgroup-level XeTile kernel (wg_map) with what its subgroups "
                            "compute in the distributed program (xetile.md §4); a difference is a located error")
        r.add_argument("--explain-assumptions", action="store_true",
                       help="after the run, list the assumed hardware parameters it used (on stderr)")
        # trace recording (issue 28; xesim/observe/tracer.py, traces/FORMAT.md)
        r.add_argument("--trace", metavar="OUT.xetrace", default=None,
                       help="record a trace of the kernels' execution (read it with 'xesim trace ...')")
        r.add_argument("--trace-kernel", metavar="GLOBS", default=None,
                       help="record only kernels matching these comma-separated globs (module::func or func)")
        r.add_argument("--trace-wg", metavar="LIST", default=None,
                       help="record only these workgroups: linear numbers (x fastest) or ranges (0,2-3), or ids "
                            "x:y[:z]; the others run untraced (batched)")
        r.add_argument("--trace-sg", metavar="LIST", default=None, help="record only these subgroup ids (0,2-3)")
        r.add_argument("--trace-ops", metavar="GLOBS", default=None,
                       help="record only ops whose name matches these comma-separated globs ('xegpu.*')")
        r.add_argument("--trace-values", metavar="none|N|all", default=None,
                       help="operand/result values recorded: none, those of at most N elements (default 4096), all")
        r.add_argument("--trace-limit", metavar="MB", type=float, default=None,
                       help="stop recording (the run goes on) when the trace reaches MB megabytes (default 512)")
        r.add_argument("-q", "--quiet", action="store_true",
                       help="no progress bar and no trace message on stderr")
        r.add_argument("--progress", action="store_true",
                       help="a progress bar for launches over a second even when stderr is not a terminal or CI is "
                            "set (default: only on a terminal, not under CI)")

        r.add_argument("--max-call-depth", type=_positive_int, default=None, metavar="N",
                       help="the most nested func.calls a run may make; deeper recursion is a located error "
                            "(default: XESIM_MAX_CALL_DEPTH or 10000)")

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

    from xesim.crosscheck.command import add_parser as add_crosscheck  # issue 29: recorded runs, probe kit
    from xesim.probe.command import add_parsers as add_probe

    add_crosscheck(sub)
    add_probe(sub)

    # `xesim test`: lit-style suites (issue 26 item 2; the command lives in xesim/testing/command.py)
    from xesim.testing.command import add_test_command

    add_test_command(sub, _positive_int)
    from xesim.trace.commands import add_parser as add_trace_parser

    add_trace_parser(sub)  # xesim trace summary | log | export | view (issue 28)
    return ap


def main(argv: list[str] | None = None) -> int:
    from xesim import unix
    from xesim.testing.mlir_runner import RunnerUsageError, normalize_dashes

    ap = build_parser()
    args = ap.parse_args(_bare_flags(normalize_dashes(sys.argv[1:] if argv is None else list(argv))))
    try:
        with unix.command_line():  # SIGTERM unwinds like SIGINT (xesim/unix.py)
            if args.command in ("verify", "fmt"):  # front end only: on a thread with room for deep nesting
                return int(call_deep(args.func, args) or 0)
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
    except RunnerUsageError as exc:
        print(f"xesim {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # an internal error: never a bare traceback unless --debug
        if args.debug:
            raise
        print(f"xesim: internal error: {type(exc).__name__}: {exc} (run with --debug for a traceback)",
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
