"""mlir-runner printing utilities (libmlir_runner_utils / libmlir_c_runner_utils) callable from programs.

Semantics follow spec/programs-and-runner.md §1 (sources named there: llvm-project
``mlir/include/mlir/ExecutionEngine/RunnerUtils.h``, ``mlir/lib/ExecutionEngine/RunnerUtils.cpp``,
``CRunnerUtils.cpp``, ``Float16bits.cpp``; IMEX ``ImexRunnerUtils.cpp`` for printMemrefF16/BF16):

* ``printMemrefF32/F64/F16/BF16/I8/I16/I32/I64/Ind`` — header line + nested data (§1.1).  An argument of
  unranked type (``memref<*xT>``, what every real program passes) prints ``Unranked Memref``; a ranked
  argument prints ``Memref`` (the ranked entry points ``printMemref{0..4}dF32`` and
  ``printMemref1dI8/I32/I64`` are also provided).  ``<ptr>`` is the descriptor's *aligned* pointer.
  Elements are the descriptor's bytes read as the entry point's C element type (``float``, ``double``,
  ``f16``, ``bf16``, ``int8_t``, ``int16_t``, ``int32_t``, ``int64_t``) exactly as the C++ template does;
  the memref's element type must have that storage size.  ``printMemrefInd`` takes
  ``UnrankedMemRefType<int64_t>`` upstream (RunnerUtils.cpp), so index elements print as *signed* int64
  (the spec's "unsigned decimal" only differs for values ≥ 2^63, which no program produces).
  ``int8_t`` is a ``char``: printMemrefI8 prints the character (``chr(byte)``; bytes ≥ 0x80 are written
  as the code point U+0080..U+00FF because the output stream is text).
* CRunnerUtils primitives (§1.2 table): ``printF32``/``printF64`` (``%g``), ``printF16``/``printBF16``
  (u16 bits → float → ``%g``; an argument declared as f16/bf16 is accepted too), ``printI64`` (``%lld``),
  ``printU64`` (``%llu``), ``printOpen`` ``( ``, ``printClose`` `` )``, ``printComma`` ``, ``,
  ``printNewline``, ``printString`` (the text; no newline).
* ``printFlops(double f)`` writes ``"%lf GFLOPS\\n"`` of ``f / 1e9`` to **stderr** (§1.4; CRunnerUtils.cpp).
* ``rtclock() -> f64``: seconds since the Unix epoch as ``gettimeofday`` gives them,
  ``tv_sec + tv_usec * 1e-6`` (§2, CRunnerUtils.cpp).

Helpers shared with :mod:`xesim.runtime.utils_imex`: :func:`memref_arg` (argument checking),
:func:`read_as` / :func:`write_as` (bytes of a memref viewed as the C element type).
"""

from __future__ import annotations

import sys
import time
from typing import Any

import ml_dtypes
import numpy as np

from xesim.exec.faults import ExecFault
from xesim.exec.values import MemRefValue
from xesim.ir.types import UnrankedMemRefType
from xesim.print_formats import format_g, memref_text
from xesim.runtime.externals import external

#: C element types of the runtime entry points (the ``T`` of ``UnrankedMemRefType<T>``).
C_TYPES: dict[str, np.dtype] = {
    "F32": np.dtype(np.float32),
    "F64": np.dtype(np.float64),
    "F16": np.dtype(np.float16),
    "BF16": np.dtype(ml_dtypes.bfloat16),
    "I8": np.dtype(np.int8),
    "I16": np.dtype(np.int16),
    "I32": np.dtype(np.int32),
    "I64": np.dtype(np.int64),
    "Ind": np.dtype(np.int64),
}

#: How printMemref prints one element of each C type (``formatting.element_formatter`` kinds).
_PRINT_KIND = {"F32": "f", "F64": "f", "F16": "f", "BF16": "f", "I8": "c", "I16": "i", "I32": "i",
               "I64": "i", "Ind": "i"}


def memref_arg(fname: str, args: list, arg_types: list, i: int, ctype: np.dtype) -> tuple[MemRefValue, bool]:
    """Argument ``i`` of runtime function ``fname`` as a memref whose elements the C code reads as ``ctype``.

    Returns ``(descriptor, ranked)``.  Raises :class:`ExecFault` when the argument is not a memref or its
    element storage size differs from ``ctype`` (the C code would read the wrong bytes)."""
    if i >= len(args):
        raise ExecFault(f"@{fname} expects at least {i + 1} arguments, got {len(args)}")
    mr = args[i]
    t = arg_types[i] if i < len(arg_types) else None
    if not isinstance(mr, MemRefValue):
        raise ExecFault(f"@{fname}: argument {i} must be a memref, got {t}")
    if mr.itemsize != ctype.itemsize:
        raise ExecFault(
            f"@{fname}: argument {i} of type {t} has {mr.itemsize}-byte elements, but the runtime reads "
            f"{ctype.itemsize}-byte {_c_name(ctype)} elements"
        )
    return mr, not isinstance(t, UnrankedMemRefType)


def _c_name(dt: np.dtype) -> str:
    return "bf16" if dt == np.dtype(ml_dtypes.bfloat16) else str(dt)


def read_as(mr: MemRefValue, ctype: np.dtype) -> np.ndarray:
    """The memref's elements in row-major logical order (offset and strides honoured), their bytes
    reinterpreted as ``ctype`` (same storage size, checked by :func:`memref_arg`).  Read-only, and a view of the
    memory (no copy) when the layout allows: valid until the memory is next written."""
    arr = mr.logical_view()
    if arr.dtype == ctype:
        return arr
    return np.ascontiguousarray(arr).view(ctype).reshape(arr.shape)


def write_as(mr: MemRefValue, values: np.ndarray) -> None:
    """Store ``values`` (C element type, logical shape) into the memref as raw bytes."""
    values = np.ascontiguousarray(values)
    if values.dtype != mr.dtype:
        values = values.view(mr.dtype).reshape(values.shape)
    mr.write_logical(values)


def _print_memref(suffix: str):
    ctype = C_TYPES[suffix]
    kind = _PRINT_KIND[suffix]

    def fn(engine: Any, args: list, arg_types: list) -> None:
        name = f"printMemref{suffix}"
        mr, ranked = memref_arg(name, args, arg_types, 0, ctype)
        data = read_as(mr, ctype)
        engine.out.write(memref_text(ranked, mr.aligned, mr.offset, mr.sizes, mr.strides, data, kind))

    return fn


for _sfx in C_TYPES:
    external(f"printMemref{_sfx}", reads=(0,))(_print_memref(_sfx))
for _r in range(5):
    external(f"printMemref{_r}dF32", reads=(0,))(_print_memref("F32"))
for _sfx in ("I8", "I32", "I64"):
    external(f"printMemref1d{_sfx}", reads=(0,))(_print_memref(_sfx))


# ----------------------------------------------------------------------------- CRunnerUtils primitives
def _arg0(fname: str, args: list) -> Any:
    if not args:
        raise ExecFault(f"@{fname} expects one argument")
    return args[0]


@external("printF32", "printF64")
def print_float(engine: Any, args: list, arg_types: list) -> None:
    """``printf("%g")`` of the value (§1.2)."""
    engine.out.write(format_g(float(_arg0("printF32", args))))


def _print_narrow(dt: np.dtype, fname: str):
    def fn(engine: Any, args: list, arg_types: list) -> None:
        v = _arg0(fname, args)
        if isinstance(v, int):  # the C signature: uint16_t bits (vector.print bitcasts to i16)
            v = np.array([v & 0xFFFF], np.uint16).view(dt)[0]
        engine.out.write(format_g(float(v)))

    return fn


external("printF16")(_print_narrow(np.dtype(np.float16), "printF16"))
external("printBF16")(_print_narrow(np.dtype(ml_dtypes.bfloat16), "printBF16"))


@external("printI64")
def print_i64(engine: Any, args: list, arg_types: list) -> None:
    """``printf("%lld")``: the 64-bit two's-complement value."""
    v = int(_arg0("printI64", args)) & 0xFFFF_FFFF_FFFF_FFFF
    engine.out.write(str(v - (1 << 64) if v >= 1 << 63 else v))


@external("printU64")
def print_u64(engine: Any, args: list, arg_types: list) -> None:
    """``printf("%llu")``: the value modulo 2^64."""
    engine.out.write(str(int(_arg0("printU64", args)) & 0xFFFF_FFFF_FFFF_FFFF))


def _literal(text: str):
    def fn(engine: Any, args: list, arg_types: list) -> None:
        engine.out.write(text)

    return fn


external("printOpen")(_literal("( "))
external("printClose")(_literal(" )"))
external("printComma")(_literal(", "))
external("printNewline")(_literal("\n"))


@external("printString")  # reads up to a NUL, not whole memrefs: no declared reads
def print_string(engine: Any, args: list, arg_types: list) -> None:
    """``fputs(s, stdout)``: a Python string, or the NUL-terminated bytes at an address / in a memref."""
    v = _arg0("printString", args)
    if isinstance(v, str):
        engine.out.write(v)
        return
    if isinstance(v, MemRefValue):
        addr = v.element_address([0] * v.rank)
        space = v.space
    else:
        addr, space = int(v), engine.memory
    out = bytearray()
    while True:
        b = int(space.read(addr + len(out), 1)[0])
        if b == 0:
            break
        out.append(b)
    engine.out.write(out.decode("latin-1"))


@external("printFlops")
def print_flops(engine: Any, args: list, arg_types: list) -> None:
    """``fprintf(stderr, "%lf GFLOPS\\n", flops / 1.0E9)`` (stderr: not seen by FileCheck)."""
    sys.stderr.write("%f GFLOPS\n" % (float(_arg0("printFlops", args)) / 1.0e9))


@external("rtclock")
def rtclock(engine: Any, args: list, arg_types: list) -> np.float64:
    """``gettimeofday``: ``tv_sec + tv_usec * 1e-6`` as f64."""
    us = time.time_ns() // 1000
    return np.float64(float(us // 1_000_000) + float(us % 1_000_000) * 1.0e-6)
