"""MLIR types used by XeGPU programs.

Types are immutable, hashable value objects; ``str(t)`` is the canonical MLIR spelling (the printer uses it).
Builtin types follow the MLIR LangRef (Builtin Dialect: IntegerType, IndexType, FloatType, VectorType,
MemRefType, UnrankedMemRefType, FunctionType, NoneType); the XeGPU types follow
``shared/seeds/xegpu-dialect-reference.txt`` (TensorDescType, NbarrierType, MemDescType).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: an attribute (:class:`xesim.ir.attributes.Attribute`; attributes are built on types, so types do not import them)
Attribute = Any

DYNAMIC = -1  # a `?` dimension, stride or offset


class Type:
    """Base class of all types."""

    __slots__ = ()

    @property
    def is_integer(self) -> bool:
        return False

    @property
    def is_float(self) -> bool:
        return False

    @property
    def is_index(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class IntegerType(Type):
    """``iN`` (signless), ``siN`` (signed) or ``uiN`` (unsigned)."""

    width: int
    signedness: str = ""  # "", "s" or "u"

    def __str__(self) -> str:
        return f"{self.signedness}i{self.width}"

    @property
    def is_integer(self) -> bool:
        return True

    @property
    def is_signless(self) -> bool:
        return self.signedness == ""


@dataclass(frozen=True, slots=True)
class IndexType(Type):
    def __str__(self) -> str:
        return "index"

    @property
    def is_index(self) -> bool:
        return True


FLOAT_WIDTHS = {
    "f16": 16,
    "bf16": 16,
    "f32": 32,
    "f64": 64,
    "tf32": 19,
    "f80": 80,
    "f128": 128,
    "f8E4M3FN": 8,
    "f8E5M2": 8,
    "f8E4M3": 8,
    "f8E4M3FNUZ": 8,
    "f8E5M2FNUZ": 8,
    "f8E4M3B11FNUZ": 8,
    "f8E3M4": 8,
    "f8E8M0FNU": 8,
    "f4E2M1FN": 4,
    "f6E2M3FN": 6,
    "f6E3M2FN": 6,
}
# Storage width in memory (tf32 is stored in a 32-bit container).
FLOAT_STORAGE_BITS = {**FLOAT_WIDTHS, "tf32": 32}


@dataclass(frozen=True, slots=True)
class FloatType(Type):
    name: str

    def __str__(self) -> str:
        return self.name

    @property
    def is_float(self) -> bool:
        return True

    @property
    def width(self) -> int:
        return FLOAT_WIDTHS[self.name]


@dataclass(frozen=True, slots=True)
class NoneType(Type):
    def __str__(self) -> str:
        return "none"


def _space_str(space: Any) -> str:
    return space.text(elide=True)


def _dims(shape: tuple[int, ...]) -> str:
    return "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape)


@dataclass(frozen=True, slots=True)
class VectorType(Type):
    """``vector<4x8xf32>``; ``scalable`` marks ``[4]`` dims (parsed, rejected by the verifier)."""

    shape: tuple[int, ...]
    element_type: Type
    scalable: tuple[bool, ...] = ()

    def __str__(self) -> str:
        dims = []
        for i, d in enumerate(self.shape):
            s = str(d)
            if self.scalable and self.scalable[i]:
                s = f"[{s}]"
            dims.append(s + "x")
        return f"vector<{''.join(dims)}{self.element_type}>"

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def num_elements(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


@dataclass(frozen=True, slots=True)
class MemRefType(Type):
    """``memref<shape x elem [, layout] [, memory_space]>``; layout is an Attribute or None (identity)."""

    shape: tuple[int, ...]
    element_type: Type
    layout: Attribute | None = None
    memory_space: Attribute | None = None

    def __str__(self) -> str:
        s = f"memref<{_dims(self.shape)}{self.element_type}"
        if self.layout is not None:
            s += f", {self.layout}"
        if self.memory_space is not None:
            s += f", {_space_str(self.memory_space)}"
        return s + ">"

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def has_static_shape(self) -> bool:
        return DYNAMIC not in self.shape

    @property
    def num_elements(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


@dataclass(frozen=True, slots=True)
class UnrankedMemRefType(Type):
    element_type: Type
    memory_space: Attribute | None = None

    def __str__(self) -> str:
        if self.memory_space is not None:
            return f"memref<*x{self.element_type}, {_space_str(self.memory_space)}>"
        return f"memref<*x{self.element_type}>"


@dataclass(frozen=True, slots=True)
class FunctionType(Type):
    inputs: tuple[Type, ...]
    results: tuple[Type, ...]

    def __str__(self) -> str:
        ins = ", ".join(str(t) for t in self.inputs)
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            outs = str(self.results[0])
        else:
            outs = "(" + ", ".join(str(t) for t in self.results) + ")"
        return f"({ins}) -> {outs}"


@dataclass(frozen=True, slots=True)
class TupleType(Type):
    types: tuple[Type, ...]

    def __str__(self) -> str:
        return "tuple<" + ", ".join(str(t) for t in self.types) + ">"


@dataclass(frozen=True, slots=True)
class AsyncTokenType(Type):
    def __str__(self) -> str:
        return "!gpu.async.token"


@dataclass(frozen=True, slots=True)
class TensorDescType(Type):
    """``!xegpu.tensor_desc<8x16xf16[, encoding][, layout]>``.

    ``encoding`` is a ``#xegpu.block_tdesc_attr`` / ``#xegpu.scatter_tdesc_attr`` attribute or None;
    ``layout`` a ``#xegpu.layout`` / ``#xegpu.slice`` attribute or None.
    """

    shape: tuple[int, ...]
    element_type: Type
    encoding: Attribute | None = None
    layout: Attribute | None = None

    def __str__(self) -> str:
        s = f"!xegpu.tensor_desc<{_dims(self.shape)}{self.element_type}"
        if self.encoding is not None:
            s += f", {self.encoding}"
        if self.layout is not None:
            s += f", {self.layout}"
        return s + ">"

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def num_elements(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def _enc_param(self, key: str, default: object) -> object:
        enc = self.encoding
        if enc is None:
            return default
        value = enc.get_param(key)  # type: ignore[attr-defined]
        return default if value is None else value

    @property
    def is_scattered(self) -> bool:
        """A scattered descriptor: ``#xegpu.scatter_tdesc_attr`` (or the older ``scattered_tdesc_attr``, or an
        encoding with ``scattered = true``)."""
        enc = self.encoding
        if enc is None:
            return False
        if getattr(enc, "name", "") in ("scatter_tdesc_attr", "scattered_tdesc_attr"):
            return True
        flag = self._enc_param("scattered", None)
        return bool(getattr(flag, "value", False))

    @property
    def memory_space(self) -> str:
        """``global`` or ``slm``."""
        v = self._enc_param("memory_space", None)
        if v is None:
            return "global"
        return v.enum_value if hasattr(v, "enum_value") else str(v)  # type: ignore[union-attr]

    @property
    def array_length(self) -> int:
        v = self._enc_param("array_length", None)
        return 1 if v is None else int(v.value)  # type: ignore[union-attr]

    @property
    def boundary_check(self) -> bool:
        v = self._enc_param("boundary_check", None)
        return True if v is None else bool(v.value)  # type: ignore[union-attr]

    @property
    def chunk_size(self) -> int:
        """Elements per lane of a scattered descriptor (1 when absent or malformed: the verifier reports it)."""
        v = self._enc_param("chunk_size", None)
        value = getattr(v, "value", None)
        return value if isinstance(value, int) and not isinstance(value, bool) else 1


@dataclass(frozen=True, slots=True)
class NbarrierType(Type):
    def __str__(self) -> str:
        return "!xegpu.nbarrier"


@dataclass(frozen=True, slots=True)
class MemDescType(Type):
    """``!xegpu.mem_desc<128x128xf16[, #xegpu.mem_layout<...>]>``."""

    shape: tuple[int, ...]
    element_type: Type
    mem_layout: Attribute | None = None

    def __str__(self) -> str:
        s = f"!xegpu.mem_desc<{_dims(self.shape)}{self.element_type}"
        if self.mem_layout is not None:
            s += f", {self.mem_layout}"
        return s + ">"

    @property
    def rank(self) -> int:
        return len(self.shape)


@dataclass(frozen=True, slots=True)
class TileType(Type):
    """``!xetile.tile<32x64xf16[, #xetile.tile_attr<...>]>`` (shared/spec/xetile.md §2.1): a descriptor of a window
    of a 2-D surface (or, ``scattered``, of one index per element).  ``encoding`` is an
    :class:`xesim.ir.xetile_attrs.TileAttr` or None; the properties give the §2.1 defaults when it is absent."""

    shape: tuple[int, ...]
    element_type: Type
    encoding: Attribute | None = None

    def __str__(self) -> str:
        s = f"!xetile.tile<{_dims(self.shape)}{self.element_type}"
        if self.encoding is not None:
            s += f", {self.encoding}"
        return s + ">"

    @property
    def rank(self) -> int:
        return len(self.shape)

    def _param(self, name: str) -> Any:
        return getattr(self.encoding, name, None)

    @property
    def order(self) -> tuple[int, ...]:
        """``(1, 0)`` row-major (default) or ``(0, 1)`` column-major."""
        return self._param("order") or (1, 0)

    @property
    def column_major(self) -> bool:
        return self.order == (0, 1)

    @property
    def array_length(self) -> int:
        v = self._param("array_length")
        return int(getattr(v, "value", 1) or 1)

    @property
    def memory_space(self) -> int:
        """The integer memory space (0 = global, 3 = SLM); a non-integer attribute counts as 0."""
        v = getattr(self._param("memory_space"), "value", 0)
        return v if isinstance(v, int) else 0

    @property
    def is_slm(self) -> bool:
        return self.memory_space == 3

    @property
    def scattered(self) -> bool:
        return bool(self._param("scattered"))

    @property
    def wg_map(self) -> Any:
        return self._param("wg_map")

    @property
    def sg_map(self) -> Any:
        return self._param("sg_map")


@dataclass(frozen=True, slots=True)
class LLVMPointerType(Type):
    """``!llvm.ptr`` / ``!llvm.ptr<N>``: an opaque pointer into address space N (shared/spec/upstream-xegpu-xevm.md
    §4.0, §4.13: 0 private, 1 global, 2 constant, 3 shared, 4 generic).  At run time a pointer is its integer
    address in the simulated memory."""

    address_space: int = 0

    def __str__(self) -> str:
        return "!llvm.ptr" if self.address_space == 0 else f"!llvm.ptr<{self.address_space}>"


@dataclass(frozen=True, slots=True)
class OpaqueType(Type):
    """A type of a dialect xesim does not model (e.g. ``!llvm.ptr``), kept verbatim."""

    dialect: str
    body: str  # everything after the dialect name, e.g. ".ptr" or ".ptr<1>"

    def __str__(self) -> str:
        return f"!{self.dialect}{self.body}"


# Frequently used singletons.
INDEX = IndexType()
I1 = IntegerType(1)
I8 = IntegerType(8)
I16 = IntegerType(16)
I32 = IntegerType(32)
I64 = IntegerType(64)
F16 = FloatType("f16")
BF16 = FloatType("bf16")
F32 = FloatType("f32")
F64 = FloatType("f64")
NONE = NoneType()


def element_type_of(t: Type) -> Type:
    """Element type of a shaped type, or the type itself for scalars."""
    if isinstance(t, (VectorType, MemRefType, UnrankedMemRefType, TensorDescType, MemDescType, TileType)):
        return t.element_type
    return t


def bit_width(t: Type) -> int:
    """Bit width of a scalar type as stored in memory (index = 64)."""
    if isinstance(t, IntegerType):
        return t.width
    if isinstance(t, IndexType):
        return 64
    if isinstance(t, FloatType):
        return FLOAT_STORAGE_BITS[t.name]
    raise TypeError(f"type {t} has no bit width")


def is_scalar(t: Type) -> bool:
    return isinstance(t, (IntegerType, IndexType, FloatType))
