"""MLIR attributes.

Immutable, hashable value objects whose ``str()`` is the canonical MLIR spelling.  Builtin attributes
follow the MLIR LangRef (Builtin Dialect attributes); dialect attributes (``#xegpu.layout<...>``,
``#xegpu.cache_hint<cached>``, ``#gpu.address_space<workgroup>`` ...) are :class:`DialectAttr` with an
ordered parameter list; attributes of dialects xesim does not model are :class:`OpaqueAttr`, kept verbatim.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import Any

from xesim.ir.types import F64, I1, I64, FloatType, IndexType, IntegerType, Type


class Attribute:
    __slots__ = ()

    def text(self, elide: bool = False) -> str:
        """MLIR's printing of the attribute (:func:`attr_str`); types print their attributes through it."""
        return attr_str(self, elide)


@dataclass(frozen=True, slots=True)
class IntegerAttr(Attribute):
    """An integer of a given type, printed ``5 : i32`` (``true``/``false`` for i1).  As in MLIR, the ``i64``
    type is elided only inside arrays (``[1, 2]``), see :func:`attr_str`."""

    value: int
    type: Type = I64

    def __str__(self) -> str:
        if isinstance(self.type, IntegerType) and self.type.width == 1 and self.type.is_signless:
            return "true" if self.value else "false"
        return f"{self.value} : {self.type}"


def BoolAttr(value: bool) -> IntegerAttr:  # noqa: N802 - mirrors MLIR's name
    return IntegerAttr(1 if value else 0, I1)


@dataclass(frozen=True, slots=True)
class FloatAttr(Attribute):
    """A float of a given type.  ``bits`` holds the exact bit pattern when it matters (NaN payloads)."""

    value: float
    type: Type = F64
    bits: int | None = None

    def __str__(self) -> str:
        return f"{format_float(self.value, self.type, self.bits)} : {self.type}"


@dataclass(frozen=True, slots=True)
class StringAttr(Attribute):
    value: str

    def __str__(self) -> str:
        from xesim.ir.lexer import escape_string

        return escape_string(self.value)


@dataclass(frozen=True, slots=True)
class UnitAttr(Attribute):
    def __str__(self) -> str:
        return "unit"


@dataclass(frozen=True, slots=True)
class ArrayAttr(Attribute):
    elements: tuple[Attribute, ...]

    def __str__(self) -> str:
        return "[" + ", ".join(attr_str(e, elide=True) for e in self.elements) + "]"

    def __len__(self) -> int:
        return len(self.elements)

    def __getitem__(self, i: int) -> Attribute:
        return self.elements[i]


@dataclass(frozen=True, slots=True)
class DenseArrayAttr(Attribute):
    """``array<i64: 1, 2>``."""

    element_type: Type
    values: tuple[Any, ...]

    def __str__(self) -> str:
        if not self.values:
            return f"array<{self.element_type}>"
        if isinstance(self.element_type, FloatType):
            vals = ", ".join(format_float(v, self.element_type) for v in self.values)
        elif self.element_type == I1:
            vals = ", ".join("true" if v else "false" for v in self.values)
        else:
            vals = ", ".join(str(v) for v in self.values)
        return f"array<{self.element_type}: {vals}>"


@dataclass(frozen=True, slots=True)
class DenseElementsAttr(Attribute):
    """``dense<...> : vector<...>``; ``values`` is the flat row-major tuple (one value when ``splat``)."""

    type: Type
    values: tuple[Any, ...]
    splat: bool = False
    hex_text: str | None = None  # the original "0x..." blob, reprinted verbatim

    def __str__(self) -> str:
        return f"dense<{self.body()}> : {self.type}"

    def body(self) -> str:
        if self.hex_text is not None:
            return f'"{self.hex_text}"'
        from xesim.ir.types import element_type_of

        et = element_type_of(self.type)

        def fmt(v: Any) -> str:
            if isinstance(et, FloatType):
                return format_float(v, et)
            if et == I1:
                return "true" if v else "false"
            return str(v)

        if self.splat:
            return fmt(self.values[0])
        shape = getattr(self.type, "shape", ())
        if not shape:
            return fmt(self.values[0])

        def nest(dim: int, start: int) -> tuple[str, int]:
            n = shape[dim]
            if dim == len(shape) - 1:
                return "[" + ", ".join(fmt(v) for v in self.values[start : start + n]) + "]", start + n
            parts = []
            pos = start
            for _ in range(n):
                s, pos = nest(dim + 1, pos)
                parts.append(s)
            return "[" + ", ".join(parts) + "]", pos

        return nest(0, 0)[0]

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(getattr(self.type, "shape", ()))

    def flat_values(self) -> list[Any]:
        """All elements in row-major order (splat expanded)."""
        if not self.splat:
            return list(self.values)
        n = 1
        for d in self.shape:
            n *= d
        return [self.values[0]] * n


@dataclass(frozen=True, slots=True)
class DictAttr(Attribute):
    entries: tuple[tuple[str, Attribute], ...]

    def __str__(self) -> str:
        return "{" + ", ".join(format_named_attr(k, v) for k, v in self.entries) + "}"

    def get(self, key: str) -> Attribute | None:
        for k, v in self.entries:
            if k == key:
                return v
        return None


@dataclass(frozen=True, slots=True)
class TypeAttr(Attribute):
    type: Type

    def __str__(self) -> str:
        return str(self.type)


@dataclass(frozen=True, slots=True)
class SymbolRefAttr(Attribute):
    """``@root::@nested``."""

    path: tuple[str, ...]

    def __str__(self) -> str:
        return "::".join(format_symbol(p) for p in self.path)

    @property
    def root(self) -> str:
        return self.path[0]

    @property
    def leaf(self) -> str:
        return self.path[-1]


@dataclass(frozen=True, slots=True)
class AffineMapAttr(Attribute):
    """``affine_map<(d0, d1)[s0] -> (d0 + s0, d1)>``; ``map`` is an :class:`xesim.ir.affine.AffineMap`."""

    map: Any

    def __str__(self) -> str:
        return f"affine_map<{self.map}>"


@dataclass(frozen=True, slots=True)
class StridedLayoutAttr(Attribute):
    """``strided<[s0, s1], offset: o>``; DYNAMIC (-1) prints ``?``."""

    strides: tuple[int, ...]
    offset: int = 0

    def __str__(self) -> str:
        strides = ", ".join("?" if s == -1 else str(s) for s in self.strides)
        if self.offset == 0:
            return f"strided<[{strides}]>"
        off = "?" if self.offset == -1 else str(self.offset)
        return f"strided<[{strides}], offset: {off}>"


@dataclass(frozen=True, slots=True)
class EnumValue(Attribute):
    """A bare keyword inside a dialect attribute (``cached``, ``slm``, ``workgroup``)."""

    enum_value: str

    def __str__(self) -> str:
        return self.enum_value


@dataclass(frozen=True, slots=True)
class DialectAttr(Attribute):
    """``#dialect.name<p1, key = v2, ...>``: params are (key or None, Attribute) pairs in order."""

    dialect: str
    name: str
    params: tuple[tuple[str | None, Attribute], ...] = ()
    has_brackets: bool = True

    def __str__(self) -> str:
        head = f"#{self.dialect}.{self.name}"
        if not self.has_brackets:
            return head
        body = ", ".join(str(v) if k is None else f"{k} = {v}" for k, v in self.params)
        return f"{head}<{body}>"

    def get_param(self, key: str) -> Attribute | None:
        for k, v in self.params:
            if k == key:
                return v
        return None

    def positional(self, i: int = 0) -> Attribute | None:
        pos = [v for k, v in self.params if k is None]
        return pos[i] if i < len(pos) else None

    @property
    def qualified_name(self) -> str:
        return f"{self.dialect}.{self.name}"


@dataclass(frozen=True, slots=True)
class OpaqueAttr(Attribute):
    """An attribute of a dialect xesim does not model, kept as its exact text (e.g. ``#spirv.vce<...>``)."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class LocationAttr(Attribute):
    """``loc(...)`` kept as text."""

    text: str

    def __str__(self) -> str:
        return self.text


# --------------------------------------------------------------------------------------------- helpers


def attr_str(a: Attribute, elide: bool = False) -> str:
    """MLIR's attribute printing; ``elide`` drops an ``i64``/``f64`` type (MLIR's AttrTypeElision::May,
    used for array elements)."""
    if elide:
        if isinstance(a, IntegerAttr) and a.type == I64:
            return str(a.value)
        if isinstance(a, FloatAttr) and a.type == F64:
            return format_float(a.value, a.type, a.bits)
    return str(a)


def format_symbol(name: str) -> str:
    import re

    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.\-]*", name):
        return "@" + name
    from xesim.ir.lexer import escape_string

    return "@" + escape_string(name)


def format_named_attr(name: str, value: Attribute) -> str:
    if isinstance(value, UnitAttr):
        return name
    return f"{name} = {value}"


def float_bits(value: float, ftype: Type) -> int | None:
    """Bit pattern of ``value`` rounded to ``ftype`` (None for types without a numpy representation)."""
    import numpy as np

    dt = numpy_float_dtype(ftype)
    if dt is None:
        return None
    arr = np.array([value], dtype=np.float64).astype(dt)
    return int(arr.view(f"u{arr.dtype.itemsize}")[0])


def numpy_float_dtype(ftype: Type) -> Any:
    import ml_dtypes
    import numpy as np

    name = getattr(ftype, "name", None)
    table = {
        "f16": np.float16,
        "f32": np.float32,
        "f64": np.float64,
        "tf32": np.float32,
        "bf16": ml_dtypes.bfloat16,
        "f8E4M3FN": ml_dtypes.float8_e4m3fn,
        "f8E5M2": ml_dtypes.float8_e5m2,
        "f8E8M0FNU": getattr(ml_dtypes, "float8_e8m0fnu", None),
        "f4E2M1FN": getattr(ml_dtypes, "float4_e2m1fn", None),
        "f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz,
        "f8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
        "f8E4M3B11FNUZ": ml_dtypes.float8_e4m3b11fnuz,
    }
    return table.get(name)


def round_to_type(value: float, ftype: Type) -> float:
    """``value`` rounded (RNE) to the float type and widened back to a Python float."""
    import numpy as np

    dt = numpy_float_dtype(ftype)
    if dt is None or isinstance(ftype, IndexType):
        return value
    with np.errstate(over="ignore", invalid="ignore"):
        return float(np.array([value], dtype=np.float64).astype(dt)[0])


def format_float(value: float, ftype: Type, bits: int | None = None) -> str:
    """MLIR's float printing: ``%e`` with 6 digits when that round-trips in the type, else the shortest
    round-tripping decimal, else (NaN / inf / payloads) the hex bit pattern ``0x7FC00000``."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if bits is not None or math.isnan(value) or math.isinf(value):
        if bits is None:
            bits = float_bits(value, ftype)
        if bits is None:
            bits = struct.unpack("<Q", struct.pack("<d", value))[0]
        width = FloatType(ftype.name).width if isinstance(ftype, FloatType) else 64
        digits = max(1, (max(width, 8) + 3) // 4)
        if getattr(ftype, "name", "") == "tf32":
            digits = 8
        return f"0x{bits:0{digits}X}"
    s = f"{value:.6e}"
    if round_to_type(float(s), ftype) == value:
        return s
    for prec in range(7, 18):
        s = f"{value:.{prec}e}"
        if round_to_type(float(s), ftype) == value:
            return s
    return repr(value)


def attr_int(attr: Attribute | None, default: int | None = None) -> int | None:
    if attr is None:
        return default
    if isinstance(attr, IntegerAttr):
        return attr.value
    raise TypeError(f"expected integer attribute, got {attr}")


def int_list(attr: Attribute | None) -> list[int] | None:
    """Integers of an ``[1, 2]`` ArrayAttr or ``array<i64: 1, 2>`` DenseArrayAttr (None if absent)."""
    if attr is None:
        return None
    if isinstance(attr, DenseArrayAttr):
        return [int(v) for v in attr.values]
    if isinstance(attr, ArrayAttr):
        out = []
        for e in attr.elements:
            if not isinstance(e, IntegerAttr):
                raise TypeError(f"expected integer list, got {attr}")
            out.append(e.value)
        return out
    raise TypeError(f"expected integer list, got {attr}")
