"""xesim: a bit-accurate functional simulator of Intel Xe GPU (PVC) subgroup execution for MLIR XeGPU programs.

Python API: :func:`load` parses and verifies a program (a path or MLIR text) into a :class:`Program` whose
``run()`` executes ``@main``; :func:`launch` runs one kernel on numpy arrays.  See :mod:`xesim.api`.
"""

from __future__ import annotations

__version__ = "0.1.0"

from xesim import process_tuning as _process_tuning  # noqa: E402

_process_tuning.apply()

from xesim import trace  # noqa: E402  (xesim.trace.load reads trace files)
from xesim.api import LaunchResult, Program, RunResult, launch, load  # noqa: E402


def parse(text: str, name: str = "<string>", verify: bool = True):
    """Parse (and by default verify) MLIR text into the IR module; raises DiagnosticError."""
    from xesim.ir.parser import parse_source
    from xesim.verify.structural import verify_module

    module = parse_source(text, name)
    if verify:
        verify_module(module)
    return module


def format_module(module) -> str:
    """Print an IR module (or a Program) in normalized form."""
    from xesim.ir.printer import print_module

    return print_module(getattr(module, "module", module))


__all__ = ["LaunchResult", "Program", "RunResult", "format_module", "launch", "load", "parse", "trace", "__version__"]
