"""mlir-runner's command line and its printed entry-point result (issue 26 item 1).

xesim stands in for ``mlir-runner`` (formerly ``mlir-cpu-runner``) with the GPU runtime it loads: a RUN line
``mlir-runner -e main --entry-point-result=void --shared-libs=%mlir_levelzero_runtime,%mlir_runner_utils`` means
"run @main of this program".  This module reads that command line the way LLVM's command-line library does (one
or two leading dashes, ``-name=value`` or ``-name value``, comma-separated lists), checks each shared library
against the runtime xesim provides (``isa/runner.toml`` ``shared_libs.known``), checks the entry function against
the requested result kind, and formats a non-void result as mlir-runner prints it (``entry_point.*``: those
formats are assumptions, the spec being silent; ``xesim test --explain-assumptions`` lists them).

Used by ``xesim run`` (which also accepts these flags), the ``xesim-runner`` console script (which takes exactly
mlir-runner's command line) and the RUN-line pipelines of :mod:`xesim.testing.pipeline`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, TextIO

import numpy as np

from xesim.diagnostics import Diagnostic, DiagnosticError, Location
from xesim.testing.conventions import value


class RunnerUsageError(ValueError):
    """A command line mlir-runner would reject, or one naming something xesim does not provide (the message
    says which option or library)."""


@dataclass(frozen=True)
class RunnerOptions:
    """What an mlir-runner command line asks for: the input (``-`` for standard input), the entry function, the
    result kind (None: the entry function's own, for ``xesim run``), the shared libraries and the ``-O`` level
    (accepted, no effect: xesim has no code generation to optimise)."""

    input: str = "-"
    entry: str = "main"
    result: str | None = None
    shared_libs: tuple[str, ...] = ()
    opt_level: int | None = None
    extra: tuple[str, ...] = field(default=())  # other arguments, for the caller to interpret (xesim run flags)


#: mlir-runner's options that take a value, by name (without dashes) -> RunnerOptions field
_VALUED = {"e": "entry", "entry-point": "entry", "entry-point-result": "result", "shared-libs": "shared_libs"}
_OPT_LEVEL = re.compile(r"^--?O([0-3])$")


def parse_command_line(argv: list[str], allow_extra: bool = False) -> RunnerOptions:
    """Read an mlir-runner command line (without the program name).  ``allow_extra``: arguments that are not
    mlir-runner options are kept in ``extra`` (``xesim run`` flags) instead of being an error."""
    entry = "main"
    result: str | None = None
    libs: list[str] = []
    opt: int | None = None
    inputs: list[str] = []
    extra: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        m = _OPT_LEVEL.match(arg)
        if m:
            opt = int(m.group(1))
            continue
        if arg.startswith("-") and arg != "-":
            name, eq, val = arg.lstrip("-").partition("=")
            if name in _VALUED:
                if not eq:
                    if i >= len(argv):
                        raise RunnerUsageError(f"option '{arg}' needs a value")
                    val = argv[i]
                    i += 1
                key = _VALUED[name]
                if key == "entry":
                    entry = val
                elif key == "result":
                    result = check_result_kind(val)
                else:
                    libs.extend(x for x in val.split(",") if x)
                continue
            if allow_extra:
                extra.append(arg)
                continue
            raise RunnerUsageError(f"unknown option '{arg}' (mlir-runner options xesim accepts: -e, --entry-point, "
                                   "--entry-point-result, --shared-libs, -O0..-O3)")
        if allow_extra:
            extra.append(arg)
        else:
            inputs.append(arg)
    if len(inputs) > 1:
        raise RunnerUsageError(f"one input file expected, got {len(inputs)}: {' '.join(inputs)}")
    check_shared_libs(libs)
    return RunnerOptions(inputs[0] if inputs else "-", entry, result, tuple(libs), opt, tuple(extra))


def check_result_kind(kind: str) -> str:
    """``kind`` if mlir-runner accepts it as ``--entry-point-result`` (void, i32, i64, f32), else an error."""
    allowed = value("entry_point.results")
    if kind not in allowed:
        raise RunnerUsageError(f"--entry-point-result={kind}: expected one of {', '.join(allowed)}")
    return kind


def library_stem(path: str) -> str:
    """The name a shared-library path is known by: file name without ``lib``, version and suffix, ``-`` as ``_``
    (``/x/libmlir_runner_utils.so.20`` and ``mlir_runner_utils.dll`` -> ``mlir_runner_utils``)."""
    name = PurePath(path).name
    name = re.sub(r"(\.(so|dylib|dll))(\.\d+)*$", "", name)
    if name.startswith("lib"):
        name = name[3:]
    return name.replace("-", "_")


def check_shared_libs(libs: list[str] | tuple[str, ...]) -> None:
    """Each library must be one xesim provides (``shared_libs.known``); an unknown one, or a lit substitution
    left unexpanded, is an error naming it."""
    known: dict[str, str] = value("shared_libs.known")
    for lib in libs:
        if lib.startswith("%"):
            raise RunnerUsageError(f"--shared-libs: '{lib}' is a lit substitution that was not expanded "
                                   "(run the test with `xesim test` or lit with xesim's configuration)")
        if library_stem(lib) not in known:
            raise RunnerUsageError(f"--shared-libs: xesim does not provide '{lib}' (it provides: "
                                   f"{', '.join(sorted(known))})")


def _result_kind_of(t: Any) -> str | None:
    from xesim.ir import types as T

    if isinstance(t, T.IntegerType) and t.width in (32, 64):
        return f"i{t.width}"
    if isinstance(t, T.FloatType) and t.name == "f32":
        return "f32"
    return None


def check_entry(module: Any, entry: str, result: str | None) -> str:
    """The result kind of running ``entry`` of ``module``: ``result`` when given and the function's type agrees,
    else the function's own kind (void, i32, i64 or f32).  A missing function, one with arguments, or a result
    mlir-runner cannot return is a located error at the function."""
    func = module.lookup_symbol((entry,))
    if func is None or func.name != "func.func":
        raise DiagnosticError(Diagnostic("error", Location.unknown(), f"entry point @{entry} not found"))
    ftype = func.attributes["function_type"].type
    if ftype.inputs:
        raise DiagnosticError(Diagnostic("error", func.loc, f"entry point @{entry} takes arguments "
                                         f"({', '.join(map(str, ftype.inputs))}); mlir-runner runs functions without"))
    own = "void" if not ftype.results else (_result_kind_of(ftype.results[0]) if len(ftype.results) == 1 else None)
    if result is None:
        if own is None:
            raise DiagnosticError(Diagnostic("error", func.loc, f"entry point @{entry} returns "
                                             f"{', '.join(map(str, ftype.results))}; mlir-runner returns nothing, "
                                             "one i32, one i64 or one f32"))
        return own
    if own != result:
        have = ", ".join(map(str, ftype.results)) or "nothing"
        want = "no result" if result == "void" else f"a single {result} result"
        raise DiagnosticError(Diagnostic("error", func.loc, f"--entry-point-result={result} needs a function with "
                                         f"{want}; @{entry} returns {have}"))
    return result


def format_result(values: tuple | list, kind: str) -> str:
    """What mlir-runner prints for ``kind`` and the returned ``values``: nothing for void, else one line
    (``entry_point.integer_format`` / ``float_format`` / ``float_nan`` / ``float_inf``)."""
    if kind == "void":
        return ""
    (v,) = values
    if kind in ("i32", "i64"):
        bits = int(kind[1:])
        n = int(v) & ((1 << bits) - 1)
        n = n - (1 << bits) if n >> (bits - 1) else n
        return value("entry_point.integer_format") % n + "\n"
    x = float(np.float32(v))
    if math.isnan(x):
        return value("entry_point.float_nan") + "\n"
    if math.isinf(x):
        pos, neg = value("entry_point.float_inf")
        return (neg if x < 0 else pos) + "\n"
    return value("entry_point.float_format") % x + "\n"


def execute(module: Any, options: RunnerOptions, out: TextIO, err: TextIO | None = None, **run_options: Any) -> None:
    """Run ``options.entry`` of a verified ``module`` as mlir-runner would, writing what it prints (the program's
    output, then the result line) to ``out`` and the runtime's own stderr output (``printFlops``) to ``err``;
    ``run_options`` as :func:`xesim.api.make_engine`'s.  Faults raise :class:`~xesim.diagnostics.DiagnosticError`."""
    from xesim.api import make_engine

    kind = check_entry(module, options.entry, options.result)
    engine = make_engine(module, out=out, err=err, **run_options)
    values = engine.run(options.entry)
    out.write(format_result(values, kind))


#: long options that LLVM tools also spell with one dash (``-split-input-file``): ``xesim``'s parser wants two
_LONG_OPTIONS = ("entry-point-result", "entry-point", "shared-libs", "split-input-file", "verify-diagnostics")


def normalize_dashes(argv: list[str]) -> list[str]:
    """``argv`` with LLVM-style single-dash long options (``-shared-libs=x``, ``-verify-diagnostics``) given two
    dashes, as the ``xesim`` command's parser expects; everything else unchanged."""
    out = []
    for arg in argv:
        if arg.startswith("-") and not arg.startswith("--") and arg[1:].partition("=")[0] in _LONG_OPTIONS:
            arg = "-" + arg
        out.append(arg)
    return out
