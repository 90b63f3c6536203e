"""Construction of ``dense<...>`` element attributes from parsed literals (MLIR LangRef, DenseElementsAttr).

A literal is either a single element (splat) or nested lists matching the shape; a quoted ``"0x..."``
blob holds the raw little-endian element bytes.
"""

from __future__ import annotations

from typing import Any

from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.literals import fit_int, float_from_hex, int_literal


def build_dense(p: Any, start: int, ty: T.Type, literal: Any, hex_text: str | None) -> A.DenseElementsAttr:
    et = T.element_type_of(ty)
    shape = tuple(getattr(ty, "shape", ()))
    n = 1
    for d in shape:
        n *= d
    if hex_text is not None:
        return _from_hex(p, start, ty, et, n, hex_text)
    if literal is None:
        if n != 0:
            raise p.fail("expected a dense literal for a non-empty type", start)
        return A.DenseElementsAttr(ty, (), False)
    if not isinstance(literal, list):
        return A.DenseElementsAttr(ty, (_element(p, literal, et),), splat=True)
    flat: list[Any] = []
    _flatten(p, start, literal, shape, 0, et, flat)
    if len(flat) == 1 and n != 1:
        return A.DenseElementsAttr(ty, tuple(flat), splat=True)
    return A.DenseElementsAttr(ty, tuple(flat), False)


def _flatten(p: Any, start: int, lit: Any, shape: tuple[int, ...], dim: int, et: T.Type, out: list) -> None:
    if dim >= len(shape):
        if isinstance(lit, list):
            raise p.fail("tensor literal is invalid; ranks are not consistent between elements", start)
        out.append(_element(p, lit, et))
        return
    if not isinstance(lit, list):
        raise p.fail("tensor literal is invalid; ranks are not consistent between elements", start)
    if len(lit) != shape[dim]:
        raise p.fail(
            f"inferred shape of elements literal ([{len(lit)}]) does not match type ([{shape[dim]}]) at dimension {dim}",
            start,
        )
    for item in lit:
        _flatten(p, start, item, shape, dim + 1, et, out)


def _element(p: Any, lit: Any, et: T.Type) -> Any:
    kind, text, neg, pos = lit
    if kind == "bool":
        if et != T.I1:
            raise p.fail(f"expected i1 type for 'true' or 'false' values, got '{et}'", pos)
        return 1 if text else 0
    if isinstance(et, T.FloatType):
        if text.startswith("0x"):
            return float_from_hex(text, et, p, pos)
        return A.round_to_type(float(text) * (-1 if neg else 1), et)
    if "." in text or "e" in text.lower() and not text.startswith("0x"):
        raise p.fail(f"expected integer elements, but parsed floating-point for type '{et}'", pos)
    val = int_literal(text) * (-1 if neg else 1)
    if isinstance(et, (T.IntegerType, T.IndexType)):
        return fit_int(val, et, p, pos)
    return val


def _from_hex(p: Any, start: int, ty: T.Type, et: T.Type, n: int, hex_text: str) -> A.DenseElementsAttr:
    import numpy as np

    if not hex_text.startswith("0x"):
        raise p.fail("expected hex string blob in dense attribute", start)
    raw = bytes.fromhex(hex_text[2:])
    if isinstance(et, T.FloatType):
        dt = A.numpy_float_dtype(et)
        vals = [float(v) for v in np.frombuffer(raw, dtype=dt)]
    elif isinstance(et, T.IntegerType) and et.width in (8, 16, 32, 64):
        kind = "u" if et.signedness == "u" else "i"
        vals = [int(v) for v in np.frombuffer(raw, dtype=f"<{kind}{et.width // 8}")]
    elif isinstance(et, T.IndexType):
        vals = [int(v) for v in np.frombuffer(raw, dtype="<i8")]
    else:
        raise p.fail(f"hex dense literals of element type '{et}' are not supported", start)
    if len(vals) == 1 and n != 1:
        return A.DenseElementsAttr(ty, tuple(vals), splat=True, hex_text=hex_text)
    if len(vals) != n:
        raise p.fail(f"elements hex data size is invalid for provided type '{ty}'", start)
    return A.DenseElementsAttr(ty, tuple(vals), False, hex_text=hex_text)
