"""xesim: a bit-accurate functional simulator of Intel Xe GPU (PVC) subgroup execution for MLIR XeGPU programs.

Python API (front end): :func:`parse` reads MLIR text into a verified :class:`~xesim.ir.core.Module`;
:func:`format_module` prints it back in normalized form.
"""

from __future__ import annotations

__version__ = "0.1.0"


def parse(text: str, name: str = "<string>", verify: bool = True):
    """Parse (and by default verify) MLIR text; raises :class:`xesim.diagnostics.DiagnosticError`."""
    from xesim.ir.parser import parse_source
    from xesim.verify.structural import verify_module

    module = parse_source(text, name)
    if verify:
        verify_module(module)
    return module


def load(path_or_text: str, verify: bool = True):
    """Parse a file path, or MLIR text if the argument contains a newline or brace."""
    from pathlib import Path

    if "\n" in path_or_text or "{" in path_or_text:
        return parse(path_or_text, "<string>", verify)
    return parse(Path(path_or_text).read_text(), path_or_text, verify)


def format_module(module) -> str:
    from xesim.ir.printer import print_module

    return print_module(module)
