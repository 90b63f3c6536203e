"""Runtime values (ARCHITECTURE.md "Values and memory").

* index and integer scalars: Python ``int`` holding the two's-complement value wrapped to the type's width
  (signless and signed types store the signed value, unsigned types the unsigned value; i1 is 0/1);
* float scalars: numpy scalars of the exact type (``np.float16``, ``ml_dtypes.bfloat16``, ``np.float32``,
  ``np.float64``, ml_dtypes fp8 types);
* vectors: numpy arrays with the vector's shape and exact dtype (i1 vectors are ``bool`` arrays);
* memrefs: :class:`MemRefValue` descriptors (MLIR's runtime ABI: allocation, aligned pointer, offset,
  sizes, strides);
* ``!gpu.async.token``: :data:`TOKEN`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T

TOKEN = "gpu.async.token"

_FLOAT_DTYPES: dict[str, Any] = {
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "tf32": np.dtype(np.float32),  # tf32 values live in an f32 container (low mantissa bits zero)
    "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn),
    "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "f8E4M3FNUZ": np.dtype(ml_dtypes.float8_e4m3fnuz),
    "f8E5M2FNUZ": np.dtype(ml_dtypes.float8_e5m2fnuz),
}
for _name, _attr in (("f8E8M0FNU", "float8_e8m0fnu"), ("f4E2M1FN", "float4_e2m1fn")):
    if hasattr(ml_dtypes, _attr):
        _FLOAT_DTYPES[_name] = np.dtype(getattr(ml_dtypes, _attr))


def dtype_of(t: T.Type) -> np.dtype:
    """numpy dtype used to hold one element of scalar type ``t`` in registers and memory."""
    if isinstance(t, T.FloatType):
        dt = _FLOAT_DTYPES.get(t.name)
        if dt is None:
            raise NotImplementedError(f"element type {t} is not supported")
        return dt
    if isinstance(t, T.IndexType):
        return np.dtype(np.int64)
    if isinstance(t, T.IntegerType):
        if t.width == 1:
            return np.dtype(np.bool_)
        for w in (8, 16, 32, 64):
            if t.width <= w:
                return np.dtype(f"{'u' if t.signedness == 'u' else 'i'}{w // 8}")
        raise NotImplementedError(f"integer width {t.width} is not supported")
    raise NotImplementedError(f"type {t} has no element representation")


def storage_bytes(t: T.Type) -> int:
    """Bytes one element of ``t`` occupies in memory (i1 takes a byte, as in MLIR's LLVM lowering)."""
    return dtype_of(t).itemsize


def wrap_int(v: int, t: T.Type) -> int:
    """Wrap ``v`` to the width of integer/index type ``t`` (unsigned types: unsigned value)."""
    if isinstance(t, T.IndexType):
        w, unsigned = 64, False
    else:
        w = t.width  # type: ignore[attr-defined]
        unsigned = t.signedness == "u"  # type: ignore[attr-defined]
        if w == 1:
            return v & 1
    v &= (1 << w) - 1
    if not unsigned and v >= 1 << (w - 1):
        v -= 1 << w
    return v


def to_unsigned(v: int, t: T.Type) -> int:
    w = 64 if isinstance(t, T.IndexType) else t.width  # type: ignore[attr-defined]
    return v & ((1 << w) - 1)


def int_width(t: T.Type) -> int:
    return 64 if isinstance(t, T.IndexType) else t.width  # type: ignore[attr-defined]


def scalar(value: Any, t: T.Type) -> Any:
    """Convert a Python number to the runtime representation of scalar type ``t``."""
    if isinstance(t, T.FloatType):
        with np.errstate(over="ignore", invalid="ignore"):
            return dtype_of(t).type(value)
    return wrap_int(int(value), t)


def array(values: Any, t: T.VectorType) -> np.ndarray:
    """A vector value of type ``t`` from nested Python values."""
    dt = dtype_of(t.element_type)
    with np.errstate(over="ignore", invalid="ignore"):
        arr = np.asarray(values)
        if dt.kind in "iu" and arr.dtype.kind in "iu":
            arr = arr.astype(np.int64).astype(dt)
        else:
            arr = arr.astype(dt)
    return arr.reshape(t.shape)


@dataclass
class MemRefValue:
    """A memref descriptor: ``alloc`` (an :class:`xesim.hw.memory.Allocation` or None for a null/raw
    pointer), ``space`` (the address space it lives in), ``aligned`` (byte address of element 0),
    ``offset``/``sizes``/``strides`` in elements, and the element type."""

    space: Any
    alloc: Any
    aligned: int
    offset: int
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    element_type: T.Type

    @property
    def rank(self) -> int:
        return len(self.sizes)

    @property
    def dtype(self) -> np.dtype:
        return dtype_of(self.element_type)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    def element_address(self, indices: tuple[int, ...] | list[int]) -> int:
        lin = self.offset
        for i, s in zip(indices, self.strides):
            lin += i * s
        return self.aligned + lin * self.itemsize

    def element_addresses(self) -> np.ndarray:
        """The byte address of every element, in row-major logical order (honouring offset and strides)."""
        addr = np.array([self.aligned + self.offset * self.itemsize], np.int64)
        for n, st in zip(self.sizes, self.strides):
            addr = (addr[:, None] + np.arange(n, dtype=np.int64)[None, :] * (st * self.itemsize)).reshape(-1)
        return addr

    def logical_array(self) -> np.ndarray:
        """A copy of the elements in row-major logical order (honouring offset and strides)."""
        return np.array(self.logical_view())

    def logical_view(self) -> np.ndarray:
        """The elements in row-major logical order (honouring offset and strides) as a read-only view of the
        memory: no copy, valid until the memory is next written (readers that only look, e.g. the runtime
        utilities comparing two buffers)."""
        dt = self.dtype
        if not self.sizes:
            raw = self.space.read(self.aligned + self.offset * dt.itemsize, dt.itemsize)
            return raw.view(dt).reshape(())
        n = 1
        for d in self.sizes:
            n *= d
        if n == 0:
            return np.zeros(self.sizes, dt)
        lo = self.offset + sum(min(0, (d - 1) * s) for d, s in zip(self.sizes, self.strides))
        hi = self.offset + sum(max(0, (d - 1) * s) for d, s in zip(self.sizes, self.strides))
        raw = self.space.read(self.aligned + lo * dt.itemsize, (hi - lo + 1) * dt.itemsize).view(dt)
        return np.lib.stride_tricks.as_strided(
            raw[self.offset - lo :], shape=self.sizes, strides=[s * dt.itemsize for s in self.strides], writeable=False
        )

    def write_logical(self, values: np.ndarray) -> None:
        """Store ``values`` (shape == sizes) into the memref's elements."""
        dt = self.dtype
        values = np.asarray(values, dtype=dt)
        if not self.sizes:
            self.space.write(self.aligned + self.offset * dt.itemsize, values.reshape(1))
            return
        n = int(np.prod(self.sizes))
        if n == 0:
            return
        lo = self.offset + sum(min(0, (d - 1) * s) for d, s in zip(self.sizes, self.strides))
        hi = self.offset + sum(max(0, (d - 1) * s) for d, s in zip(self.sizes, self.strides))
        raw = self.space.read(self.aligned + lo * dt.itemsize, (hi - lo + 1) * dt.itemsize).view(dt)
        view = np.lib.stride_tricks.as_strided(
            raw[self.offset - lo :], shape=self.sizes, strides=[s * dt.itemsize for s in self.strides]
        )
        view[...] = values


def is_workgroup_space(space: Any) -> bool:
    """Whether a memref / descriptor memory space is shared local memory: address space 3,
    ``#gpu.address_space<workgroup>`` or ``#xegpu.memory_space<slm>``."""
    if space is None:
        return False
    if isinstance(space, A.IntegerAttr):
        return space.value == 3
    if isinstance(space, A.DialectAttr):
        p = space.positional(0)
        return p is not None and str(p) in ("workgroup", "slm")
    return str(space) in ("3", "#gpu.address_space<workgroup>", "#xegpu.memory_space<slm>")


def in_shared_local_memory(t: Any) -> bool:
    """Whether values of type ``t`` refer to shared local memory: a memref in the workgroup address space, an SLM
    tensor descriptor, or an SLM matrix (``!xegpu.mem_desc``)."""
    if isinstance(t, T.TensorDescType):
        return t.memory_space == "slm"
    if isinstance(t, T.MemDescType):
        return True
    return isinstance(t, T.MemRefType) and is_workgroup_space(getattr(t, "memory_space", None))


def identity_strides(sizes: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Row-major strides; size-1 dims still get the product of the trailing sizes (spec §1.1)."""
    strides = []
    acc = 1
    for d in reversed(sizes):
        strides.append(acc)
        acc *= d
    return tuple(reversed(strides))
