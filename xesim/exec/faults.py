"""Runtime faults of a program (ARCHITECTURE.md principle 6: errors are diagnostics).

An :class:`ExecFault` names the op that failed (filled in by the region runner when raised without one) and, inside
kernels, the kernel/workgroup/subgroup/lane context; it renders as a located diagnostic with the source line and a
caret."""

from __future__ import annotations

from xesim.diagnostics import Diagnostic
from xesim.ir.core import Operation


class ExecFault(Exception):
    """A runtime error attributed to an op (filled in by the region runner when raised without one)."""

    def __init__(self, message: str, op: Operation | None = None, context: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.op = op
        self.context = context

    def to_diagnostic(self) -> Diagnostic:
        if self.op is None:
            from xesim.diagnostics import Location

            return Diagnostic("error", Location.unknown(), self.message)
        msg = f"'{self.op.name}' op {self.message}"
        if self.context:
            msg += f" ({self.context})"
        return Diagnostic("error", self.op.loc, msg)
