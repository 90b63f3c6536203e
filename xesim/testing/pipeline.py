"""Running one lit test file's RUN lines through xesim (issue 26 item 2).

A RUN line is a shell pipeline.  xesim recognises the forms of the upstream XeGPU / XeVM integration suites and of
xesim's own tests, and runs each in-process, at the program's own level: the lowering a pipeline applies before
the GPU runs the program is what xesim stands in for (spec/programs-and-runner.md §3.5: the IR of each level is
what xesim executes), so it is not performed, and the verdict's reason says so.

=====================================================================  ===========================================
RUN line (after substitution)                                           what xesim does
=====================================================================  ===========================================
``mlir-opt|imex-opt %s <passes> | mlir-runner <flags> | FileCheck %s``  run the entry of ``%s`` (flags as
                                                                       mlir-runner's: xesim/testing/mlir_runner.py),
                                                                       FileCheck its stdout
``mlir-runner <flags> %s | FileCheck %s``                              the same, no lowering to stand in for
``python imex_runner.py -i %s --pass-pipeline-file=... --runner R      the same; ``--requires=F`` makes the test
<runner flags> --filecheck``                                           UNSUPPORTED unless feature F is available
``mlir-opt %s -split-input-file -verify-diagnostics``                  MLIR's diagnostic test on xesim's verifier
                                                                       (xesim/verify/expectations.py); with a
                                                                       pass on the line: UNSUPPORTED
``mlir-opt %s <passes> | FileCheck %s`` (no runner)                    UNSUPPORTED: a lowering test; xesim does not
                                                                       implement the passes
``[not] xesim <command> ... [2>&1] | FileCheck %s``                    xesim's own command line
=====================================================================  ===========================================

``not`` before a stage inverts its status; ``2>&1`` sends its diagnostics down the pipe too.  Any other program
makes the test UNSUPPORTED, naming it.  Verdicts are lit's: PASS, FAIL, UNSUPPORTED, XFAIL, XPASS, UNRESOLVED
(the test file cannot be run as written: a bad RUN line or an unknown substitution).
"""

from __future__ import annotations

import io
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePath

from xesim.diagnostics import DiagnosticError
from xesim.testing.conventions import value
from xesim.testing.filecheck import CheckResult, FileCheckUsageError, check
from xesim.testing.mlir_runner import RunnerOptions, RunnerUsageError, execute, parse_command_line
from xesim.testing.procs import die_with_parent
from xesim.testing.runlines import RunLineError, evaluate, read_test, substitute, substitutions

#: verdicts that fail a run (lit's)
FAILING = ("FAIL", "XPASS", "UNRESOLVED")
VERDICTS = ("PASS", "FAIL", "UNSUPPORTED", "XFAIL", "XPASS", "UNRESOLVED")


@dataclass(frozen=True)
class Outcome:
    """A test's verdict, a one-line reason, the details of a failure (FileCheck's report, the program's output)
    and, when FileCheck failed, the first unmatched CHECK line (number and text)."""

    verdict: str
    reason: str
    details: str = ""
    check_line: int = 0
    check_text: str = ""

    @property
    def failed(self) -> bool:
        return self.verdict in FAILING


@dataclass(frozen=True)
class Context:
    """What the directory of a test provides (lit.local.cfg, the lit configuration): available features, extra
    substitutions, and whether the directory marks its tests unsupported (with the reason)."""

    features: frozenset[str] = frozenset(value("lit.features"))
    substitutions: tuple[tuple[str, str], ...] = ()
    unsupported: str = ""


class _Unsupported(Exception):
    pass


class _Failed(Exception):
    def __init__(self, reason: str, details: str = "", result: CheckResult | None = None) -> None:
        super().__init__(reason)
        self.reason, self.details, self.result = reason, details, result


@dataclass
class _Stage:
    argv: list[str]
    negate: bool = False
    merge_stderr: bool = False
    role: str = ""


@dataclass
class _Stream:
    """What a stage hands down the pipe, and what ran so far (for the reason)."""

    text: str = ""
    ran: list[str] = field(default_factory=list)
    stood_in: list[str] = field(default_factory=list)


def _role(argv: list[str]) -> str:
    prog = PurePath(argv[0]).name
    if prog in value("tools.runners"):
        return "runner"
    if prog in value("tools.optimizers"):
        return "opt"
    if prog in value("tools.filecheck"):
        return "filecheck"
    if prog == "xesim":
        return "xesim"
    if prog.startswith("python") and len(argv) > 1 and PurePath(argv[1]).name == "imex_runner.py":
        return "imex_runner"
    return ""


def split_pipeline(command: str) -> list[_Stage]:
    """The stages of a RUN command: ``|``-separated, each with ``not`` and ``2>&1`` taken off."""
    try:
        tokens = shlex.split(command)
    except ValueError as exc:
        raise RunLineError(f"RUN line cannot be read as a shell command: {exc}") from None
    if any(t in ("&&", "||", ";", ">", "<") or t.startswith((">", "<")) for t in tokens):
        raise _Unsupported(f"shell sequencing or redirection xesim does not run: {command}")
    stages, cur = [], []
    for t in [*tokens, "|"]:
        if t != "|":
            cur.append(t)
            continue
        if not cur:
            raise RunLineError(f"empty stage in RUN line: {command}")
        st = _Stage(cur)
        while st.argv and st.argv[0] == "not":
            st.negate = not st.negate
            st.argv = st.argv[1:]
        if "2>&1" in st.argv:
            st.merge_stderr = True
            st.argv = [a for a in st.argv if a != "2>&1"]
        if not st.argv:
            raise RunLineError(f"empty stage in RUN line: {command}")
        st.role = _role(st.argv)
        stages.append(st)
        cur = []
    return stages


def _xesim(argv: list[str], merge_stderr: bool) -> tuple[int, str, str]:
    """Run an ``xesim`` command line as the RUN line's shell would: a process (``python -m xesim``), whose
    (status, stdout[+stderr], stderr) are returned."""
    proc = subprocess.run([sys.executable, "-m", "xesim", *argv], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE, text=True,
                          preexec_fn=die_with_parent)
    return proc.returncode, proc.stdout, proc.stderr or ""


def _execute(src: str, opts: RunnerOptions, merge_stderr: bool) -> tuple[int, str, str]:
    """Run ``opts.entry`` of program ``src`` in-process as mlir-runner would: (status, stdout[+stderr], stderr),
    the status and diagnostics those of ``xesim run`` (1: a located error; 2: an internal error)."""
    from xesim.api import load

    out = io.StringIO()
    err = out if merge_stderr else io.StringIO()
    status = 0
    try:
        execute(load(Path(src)).module, opts, out, err)
    except DiagnosticError as exc:
        err.write(exc.render() + "\n")
        status = 1
    except OSError as exc:
        err.write(f"xesim: error: cannot read {src}: {exc.strerror}\n")
        status = 1
    except Exception as exc:  # an internal error of xesim: reported as one, in the test's verdict
        err.write(f"xesim: internal error: {type(exc).__name__}: {exc}\n")
        status = 2
    return status, out.getvalue(), "" if err is out else err.getvalue()


def _status_ok(stage: _Stage, status: int, what: str, output: str) -> None:
    if stage.negate and status == 0:
        raise _Failed(f"{what} succeeded where the RUN line expects a failure ('not')", output)
    if not stage.negate and status != 0:
        raise _Failed(f"{what} exited with status {status}", output)


def _opt_input(stage: _Stage, test: Path) -> tuple[str, list[str]]:
    """The input file of an mlir-opt stage and its other arguments (the passes)."""
    positional = [a for a in stage.argv[1:] if not a.startswith("-")]
    passes = [a for a in stage.argv[1:] if a.startswith("-")]
    return (positional[0] if positional else "-"), passes


_DIAG_FLAGS = ("-split-input-file", "--split-input-file", "-verify-diagnostics", "--verify-diagnostics")
_NEUTRAL_OPT_FLAGS = ("-allow-unregistered-dialect", "--allow-unregistered-dialect", "-mlir-print-op-generic",
                      "--mlir-print-op-generic")


def _run_opt(stage: _Stage, stages: list[_Stage], k: int, test: Path, chunk: int | None, s: _Stream) -> bool:
    """An mlir-opt stage; True when it ends the pipeline's work (a diagnostic test)."""
    src, flags = _opt_input(stage, test)
    if any(f in _DIAG_FLAGS[2:] for f in flags):
        others = [f for f in flags if f not in _DIAG_FLAGS and f not in _NEUTRAL_OPT_FLAGS]
        if others:
            raise _Unsupported(f"diagnostics of {' '.join(others)}, a pass xesim does not implement")
        if k + 1 < len(stages):
            raise _Unsupported("a diagnostic test that also checks mlir-opt's printed IR: xesim does not print IR "
                               "as mlir-opt does")
        _verify_diagnostics(Path(src) if src != "-" else test, any(f in _DIAG_FLAGS[:2] for f in flags), chunk)
        s.ran.append("MLIR diagnostic test on xesim's verifier")
        return True
    if k + 1 >= len(stages) or stages[k + 1].role not in ("runner",):
        raise _Unsupported(f"lowering test ({PurePath(stage.argv[0]).name} {_short(flags)}): xesim runs programs "
                           "at their own level and does not implement the lowering passes")
    s.stood_in.append(f"{PurePath(stage.argv[0]).name} {_short(flags)}")
    s.text = src  # the runner reads the program the lowering started from
    return False


def _short(flags: list[str], width: int = 70) -> str:
    text = " ".join(flags)
    return text if len(text) <= width else text[: width - 3] + "..."


def _verify_diagnostics(src: Path, split: bool, chunk: int | None) -> None:
    from xesim.verify.expectations import (
        split_chunks,
        verify_chunk_with_expectations,
        verify_file_with_expectations,
    )

    unexpected_notes = value("verify_diagnostics.unexpected_notes")
    text = src.read_text()
    if chunk is not None and split:
        problems = verify_chunk_with_expectations(str(src), split_chunks(text)[chunk][1],
                                                  unexpected_notes=unexpected_notes)
    else:
        problems = verify_file_with_expectations(str(src), text, split, unexpected_notes=unexpected_notes)
    if problems:
        raise _Failed(f"{len(problems)} diagnostic{'s' if len(problems) > 1 else ''} not as annotated: "
                      f"{problems[0].message}", "\n".join(d.render() for d in problems))


def _run_program(stage: _Stage, runner_argv: list[str], source: str, s: _Stream, default_result: str) -> None:
    """Run a program as mlir-runner with ``runner_argv`` would (input ``source`` when it reads a pipe)."""
    try:
        opts = parse_command_line(runner_argv)
    except RunnerUsageError as exc:
        raise _Failed(f"{PurePath(stage.argv[0]).name}: {exc}") from None
    src = opts.input if opts.input != "-" else source
    if src == "-":
        raise _Failed("the runner reads standard input, but no stage before it names the program")
    opts = replace(opts, result=opts.result or default_result)
    status, out, err = _execute(src, opts, stage.merge_stderr)
    _status_ok(stage, status, f"xesim running @{opts.entry} of {PurePath(src).name}", out + err)
    s.text = out
    s.ran.append(f"ran @{opts.entry} in xesim at the program's own level")


def _run_imex_runner(stage: _Stage, test: Path, features: frozenset[str], s: _Stream) -> bool:
    """IMEX's ``imex_runner.py`` script; True when it checks with ``--filecheck`` itself."""
    args = stage.argv[2:]
    src, runner_args, filecheck, pipeline = "-", [], False, ""
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        name, eq, val = a.partition("=")
        if name in ("-i", "--input-file", "-p", "--pass-pipeline-file", "--runner", "--requires", "-r") and not eq:
            if i >= len(args):
                raise RunLineError(f"imex_runner option '{a}' needs a value")
            val = args[i]
            i += 1
        if name in ("-i", "--input-file"):
            src = val
        elif name in ("-p", "--pass-pipeline-file"):
            pipeline = PurePath(val).name
        elif name in ("--runner", "-r"):
            pass
        elif name == "--requires":
            missing = [f for f in val.split(",") if f and f not in features]
            if missing:
                raise _Unsupported(f"imex_runner --requires={val}: feature {', '.join(missing)} not available")
        elif name in ("--filecheck", "-f"):
            filecheck = True
        else:
            runner_args.append(a)
    if src == "-":
        src = str(test)
    s.stood_in.append(f"imex_runner {pipeline}".strip())
    _run_program(stage, [*runner_args, src], src, s, value("entry_point.default_result"))
    if filecheck:
        _filecheck(_Stage(["FileCheck", str(test)]), s)
    return filecheck


def _filecheck(stage: _Stage, s: _Stream) -> None:
    args = stage.argv[1:]
    positional = [a for a in args if not a.startswith("-")]
    # options that take a separate value
    for j, a in enumerate(args):
        if a in ("--check-prefix", "--check-prefixes", "--implicit-check-not", "-D", "--input-file") and \
                j + 1 < len(args) and args[j + 1] in positional:
            positional.remove(args[j + 1])
    if len(positional) != 1:
        raise RunLineError(f"FileCheck needs one check file: {' '.join(stage.argv)}")
    check_file = positional[0]
    options = list(args)
    options.remove(check_file)
    try:
        result = check(Path(check_file).read_text(), check_file, s.text, options)
    except FileCheckUsageError as exc:
        raise RunLineError(f"FileCheck: {exc}") from None
    if stage.negate:
        if result.ok:
            raise _Failed("FileCheck matched where the RUN line expects it not to ('not FileCheck')")
    elif not result.ok:
        raise _Failed(f"first unmatched CHECK line: {result.summary()}" if result.line else
                      f"FileCheck: {result.summary()}",
                      f"{result.report}\n--- output checked ---\n{s.text}", result)
    s.ran.append("output checked")


def run_command(command: str, test: Path, features: frozenset[str], chunk: int | None = None) -> str:
    """Run one RUN command (substituted); returns what was done (for the reason).  Raises the module's
    unsupported / failed signals, or :class:`RunLineError` for a line that cannot be run as written."""
    stages = split_pipeline(command)
    s = _Stream(text="-")
    for k, stage in enumerate(stages):
        if stage.role == "opt":
            if k != 0:
                raise _Unsupported(f"{stage.argv[0]} after another stage")
            if _run_opt(stage, stages, k, test, chunk, s):
                break
        elif stage.role == "runner":
            source = s.text
            _run_program(stage, stage.argv[1:], source, s, value("entry_point.default_result"))
        elif stage.role == "imex_runner":
            if _run_imex_runner(stage, test, features, s):
                break
        elif stage.role == "xesim":
            status, out, err = _xesim(stage.argv[1:], stage.merge_stderr)
            _status_ok(stage, status, " ".join(["xesim", *stage.argv[1:2]]), out + err)
            s.text = out
            s.ran.append(f"xesim {stage.argv[1] if len(stage.argv) > 1 else ''}".strip())
        elif stage.role == "filecheck":
            if k == 0:
                raise RunLineError("FileCheck without input")
            _filecheck(stage, s)
        else:
            raise _Unsupported(f"xesim does not stand in for '{stage.argv[0]}'")
    done = "; ".join(s.ran)
    if s.stood_in:
        done += f" (in place of {' | '.join(s.stood_in)} and the GPU)"
    return done


def split_count(path: Path, text: str | None = None) -> int:
    """How many ``-split-input-file`` chunks the diagnostic test ``path`` has (0: not such a test)."""
    from xesim.verify.expectations import split_chunks

    try:
        tf = read_test(path, text)
    except (RunLineError, OSError, UnicodeDecodeError):
        return 0  # run_test reports it
    for _, cmd in tf.runs:
        argv = cmd.split()
        if any(a in _DIAG_FLAGS[2:] for a in argv) and any(a in _DIAG_FLAGS[:2] for a in argv):
            return len(split_chunks(tf.text))
    return 0


def run_test(path: Path, ctx: Context = Context(), chunk: int | None = None) -> Outcome:
    """The verdict of test file ``path`` in ``ctx`` (``chunk``: only that split of a diagnostic test)."""
    try:
        tf = read_test(path)
    except RunLineError as exc:
        return Outcome("UNRESOLVED", str(exc))
    except OSError as exc:
        return Outcome("UNRESOLVED", f"cannot read {path}: {exc.strerror}")
    except UnicodeDecodeError as exc:
        return Outcome("UNRESOLVED", f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})")
    features = ctx.features
    try:
        if ctx.unsupported:
            return Outcome("UNSUPPORTED", ctx.unsupported)
        missing = [e for e in tf.requires if not evaluate(e, features)]
        if missing:
            return Outcome("UNSUPPORTED", f"REQUIRES: {', '.join(missing)} not satisfied")
        hit = [e for e in tf.unsupported if evaluate(e, features)]
        if hit:
            return Outcome("UNSUPPORTED", f"UNSUPPORTED: {', '.join(hit)}")
        xfail = any(evaluate(e, features) for e in tf.xfail)
        if not tf.runs:
            return Outcome("UNRESOLVED", "no RUN lines")
        done = []
        with tempfile.TemporaryDirectory(prefix="xesim-test-") as tmp:
            subs = substitutions(path, Path(tmp), list(ctx.substitutions))
            for line, cmd in tf.runs:
                command = substitute(cmd, subs, f"{path}:{line}")
                try:
                    done.append(run_command(command, path, features, chunk))
                except _Failed as f:
                    if xfail:
                        return Outcome("XFAIL", f"RUN line {line}: {f.reason}")
                    r = f.result
                    return Outcome("FAIL", f"RUN line {line}: {f.reason}", f.details,
                                   r.line if r else 0, r.directive if r else "")
    except RunLineError as exc:
        return Outcome("UNRESOLVED", str(exc))
    except _Unsupported as exc:
        return Outcome("UNSUPPORTED", str(exc))
    if xfail:
        return Outcome("XPASS", "XFAIL test passed")
    return Outcome("PASS", "; ".join(dict.fromkeys(done)))
