"""Exact output formats of the MLIR runner utilities (spec/programs-and-runner.md §1).

* :func:`format_g` — C ``printf("%g")`` / ``std::cout << double`` with precision 6 (§1.1 "Number
  formatting"): integral values without a decimal point, ``-0``, ``inf``/``-inf``, ``nan`` and ``-nan``
  (glibc prints the sign bit of a NaN).
* :func:`memref_text` — ``printMemref*`` header and nested data (§1.1 "Header line", "Data").
* :func:`vector_print_text` — ``vector.print`` lowering (§1.2).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np


def format_g(x: float) -> str:
    """``printf("%g", x)`` as glibc prints it (Python's ``%g`` differs only for negative NaN)."""
    if math.isnan(x):
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    return "%g" % x  # noqa: UP031 - C printf semantics, spelled as in C


def element_formatter(kind: str) -> Callable[[object], str]:
    """Formatter for one element of a printMemref* entry point.

    ``kind``: ``f`` (f16/bf16/f32/f64, converted exactly to double and printed with %g), ``i`` (decimal of
    the value as given: callers pass signed values for i32/i64 and unsigned ones for index), ``c`` (i8: an
    ``int8_t`` is a ``char``, so the character is printed).
    """
    if kind == "f":
        return lambda v: format_g(float(v))  # type: ignore[arg-type]
    if kind == "c":
        return lambda v: chr(int(v) & 0xFF)  # type: ignore[call-overload]
    return lambda v: str(int(v))  # type: ignore[call-overload]


def memref_header(ranked: bool, ptr: int, offset: int, sizes: Sequence[int], strides: Sequence[int]) -> str:
    """``Unranked Memref base@ = 0x.. rank = r offset = o sizes = [..] strides = [..] data = `` (trailing space)."""
    p = "0" if ptr == 0 else f"0x{ptr:x}"
    head = "Memref " if ranked else "Unranked Memref "
    sz = ", ".join(str(s) for s in sizes)
    st = ", ".join(str(s) for s in strides)
    return f"{head}base@ = {p} rank = {len(sizes)} offset = {offset} sizes = [{sz}] strides = [{st}] data = "


def memref_data_text(values: np.ndarray, fmt: Callable[[object], str]) -> str:
    """The nested data block of printMemref for an array of logical shape ``values.shape`` (§1.1 "Data").

    A block at level ``dim`` prints ``[``, its sub-blocks separated by ``", "`` (plus a newline when
    ``dim > 1``), every sub-block after the first preceded by ``rank - dim + 1`` spaces, then ``]``.
    """
    rank = values.ndim
    if rank == 0:
        return "[" + fmt(values[()]) + "]"
    if values.size == 0:
        return "[]"
    flat = values.reshape(-1)
    flat_text = [fmt(v) for v in (flat.tolist() if values.dtype != object else flat)]
    shape = values.shape
    out: list[str] = []
    pos = 0

    def block(dim: int) -> None:
        nonlocal pos
        n = shape[rank - dim]
        pad = " " * (rank - dim + 1)
        out.append("[")
        if dim == 1:
            out.append((", " + pad).join(flat_text[pos : pos + n]))
            pos += n
        else:
            for i in range(n):
                if i > 0:
                    out.append(pad)
                block(dim - 1)
                if i < n - 1:
                    out.append(", \n")
        out.append("]")

    block(rank)
    return "".join(out)


def memref_text(ranked: bool, ptr: int, offset: int, sizes: Sequence[int], strides: Sequence[int],
                values: np.ndarray, kind: str) -> str:
    """Header line, newline, data block, newline — exactly what printMemref* writes."""
    head = memref_header(ranked, ptr, offset, sizes, strides)
    return head + "\n" + memref_data_text(values, element_formatter(kind)) + "\n"


def vector_print_text(values: np.ndarray | object, fmt: Callable[[object], str], is_vector: bool,
                      punctuation: str = "\n") -> str:
    """``vector.print`` (§1.2): scalars print the value; vectors print nested ``( a, b )`` groups (0-D as
    shape [1]); then the punctuation (default newline)."""
    if not is_vector:
        return fmt(values) + punctuation
    arr = np.asarray(values)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    flat = [fmt(v) for v in arr.reshape(-1).tolist()]
    shape = arr.shape
    out: list[str] = []
    pos = 0

    def group(d: int) -> None:
        nonlocal pos
        out.append("( ")
        n = shape[d]
        for i in range(n):
            if i:
                out.append(", ")
            if d == len(shape) - 1:
                out.append(flat[pos])
                pos += 1
            else:
                group(d + 1)
        out.append(" )")

    group(0)
    return "".join(out) + punctuation
