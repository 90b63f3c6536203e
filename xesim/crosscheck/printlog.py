"""What xesim printed, with the exact values behind the text: an observer of the host's print ops.

The runner prints floats with 6 significant digits (spec/programs-and-runner.md §1.1), so the text alone cannot
give the bits of an f32 element or tell NaN payloads apart.  :class:`PrintLog` follows every ``vector.print`` and
every call of a runtime print utility (``printMemref*``, ``printF32``…) and keeps, for each, the op, the element
type, a copy of the values in logical order, and the stdout lines it wrote (counted by :class:`LineCounter`, the
stream the run prints into).  The cross-check pairs those entries with the records of the parsed output
(:mod:`xesim.crosscheck.printed`) to report mismatches with the element's exact value and type.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import numpy as np

from xesim.exec.hooks import Observer


class LineCounter(io.StringIO):
    """A text stream that knows how many lines have been written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.lines = 0

    def write(self, s: str) -> int:
        self.lines += s.count("\n")
        return super().write(s)


@dataclass(eq=False)
class PrintEntry:
    """One executed print op: where it is (``op``), what it printed (``label``), the element ``dtype`` (None for
    output without elements), the ``values`` in logical order (flattened) and their ``shape``, and the stdout lines
    it started on and ended before (0-based; a print that ends without a newline ends on its own line)."""

    op: Any
    label: str
    dtype: np.dtype | None
    values: np.ndarray | None
    shape: tuple[int, ...]
    first_line: int
    end_line: int
    addresses: np.ndarray | None = None  # a printed memref's element addresses, in logical order
    index: int = 0  # its position in PrintLog.entries

    @property
    def where(self) -> str:
        return f"{self.label} at {self.op.loc}"


def _memref_values(v: Any) -> tuple[np.dtype | None, np.ndarray | None]:
    if hasattr(v, "logical_array"):
        arr = v.logical_array()
        return arr.dtype, arr
    return None, None


class PrintLog(Observer):
    """Records a :class:`PrintEntry` for every host print op executed (see the module docstring)."""

    name = "the print log (xesim crosscheck)"
    needs_execution = False  # it follows host print ops only: a reused launch's writes serve it as well

    def __init__(self, out: LineCounter) -> None:
        self.out = out
        self.entries: list[PrintEntry] = []

    def instrument(self, op: Any, cx: Any, step: Any, is_term: bool) -> Any:
        if step is None or is_term:
            return step
        if op.name == "vector.print":
            if not op.operands:
                return self._wrap(op, step, "vector.print", None)
            from xesim.exec.values import dtype_of
            from xesim.ir import types as T

            slot = cx.slot(op.operands[0])
            dt = np.dtype(dtype_of(T.element_type_of(op.operands[0].type)))
            return self._wrap(op, step, "vector.print", lambda fr: (dt, np.asarray(fr[slot], dt)))
        if op.name == "func.call":
            ref = op.attributes.get("callee")
            name = str(getattr(ref, "leaf", "")).removeprefix("_mlir_ciface_")
            if name.startswith("print"):
                if name.startswith("printMemref") and op.operands:
                    slot = cx.slot(op.operands[0])
                    return self._wrap(op, step, name, lambda fr: _memref_values(fr[slot]),
                                      lambda fr: fr[slot].element_addresses() if hasattr(fr[slot], "sizes") else None)
                return self._wrap(op, step, name, None)
        return step

    def _wrap(self, op: Any, step: Any, label: str, values: Any, addresses: Any = None) -> Any:
        entries, out = self.entries, self.out

        def logged(fr: list) -> Any:
            first = out.lines
            result = step(fr)
            dt, vals = values(fr) if values is not None else (None, None)
            shape = () if vals is None else vals.shape
            flat = None if vals is None else vals.reshape(-1)
            entries.append(PrintEntry(op, label, dt, flat, shape, first, max(out.lines, first + 1),
                                      addresses(fr) if addresses is not None else None, len(entries)))
            return result

        return logged

    def entry_at(self, line: int, size: int) -> PrintEntry | None:
        """The print that wrote 0-based stdout line ``line`` with ``size`` elements, if any."""
        for e in self.entries:
            if e.first_line <= line < e.end_line and e.values is not None and e.values.size == size:
                return e
        return None
