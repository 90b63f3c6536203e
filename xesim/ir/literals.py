"""Values of literal tokens (integers, integers fitted to a type, floats from their bit patterns), shared by the
parser and the dense-elements reader (MLIR LangRef: integer and float literals)."""

from __future__ import annotations

from typing import Any

from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias


def int_literal(text: str) -> int:
    """Value of an integer token: ``0x`` hexadecimal or decimal (leading zeros allowed, as in MLIR: ``016``)."""
    return int(text, 16) if text[:2] in ("0x", "0X") else int(text, 10)


#: the width MLIR gives ``index`` constants (IndexType::kInternalStorageBitWidth): an index literal is checked and
#: stored as a 64-bit signless integer (spec/programs-and-runner.md: index values are 64-bit on the runner)
INDEX_LITERAL_WIDTH = 64


def fit_int(val: int, ty: T.IntegerType | T.IndexType, p: Any, start: int) -> int:
    """``val`` as a constant of integer type ``ty`` (signless: either range, stored signed; ``index``: signless
    64-bit, as MLIR checks index literals); ``p.fail`` otherwise."""
    if isinstance(ty, T.IndexType):
        if not -(1 << (INDEX_LITERAL_WIDTH - 1)) <= val < (1 << INDEX_LITERAL_WIDTH):
            raise p.fail(f"integer constant out of range for type 'index' ({INDEX_LITERAL_WIDTH}-bit)", start)
        return val - (1 << INDEX_LITERAL_WIDTH) if val >= 1 << (INDEX_LITERAL_WIDTH - 1) else val
    w = ty.width
    if ty.signedness == "u":
        if val < 0 or val >= (1 << w):
            raise p.fail(f"integer constant out of range for type '{ty}'", start)
        return val
    if ty.signedness == "s":
        if not -(1 << (w - 1)) <= val < (1 << (w - 1)):
            raise p.fail(f"integer constant out of range for type '{ty}'", start)
        return val
    # signless: accept both the signed and the unsigned range, store as signed (two's complement)
    if w == 1:
        if val not in (0, 1, -1):
            raise p.fail(f"integer constant out of range for type '{ty}'", start)
        return 1 if val else 0
    if not -(1 << (w - 1)) <= val < (1 << w):
        raise p.fail(f"integer constant out of range for type '{ty}'", start)
    if val >= (1 << (w - 1)):
        val -= 1 << w
    return val


def float_from_hex(text: str, ty: T.Type, p: Any, start: int) -> float:
    """The float of type ``ty`` whose bit pattern is the hexadecimal literal ``text`` (MLIR: a hexadecimal float
    literal is the type's bit pattern); ``p.fail`` when the pattern is wider than the type or the type has no bit
    pattern xesim knows."""
    bits = int(text, 16)
    try:
        width = bit_width(ty)
    except ValueError:
        raise p.fail(f"hexadecimal float literal not supported for type '{ty}'", start) from None
    if bits >= 1 << width:
        raise p.fail(f"hexadecimal float constant out of range for type '{ty}' ({width} bits)", start)
    return float_from_bits(bits, ty)


def bit_width(ty: T.Type) -> int:
    """The width in bits of float type ``ty``'s storage (ValueError when it has none)."""
    import numpy as np

    dt = A.numpy_float_dtype(ty)
    if dt is None:
        raise ValueError(f"no bit-level representation for {ty}")
    return np.dtype(dt).itemsize * 8


def float_from_bits(bits: int, ty: T.Type) -> float:
    """The float whose bit pattern in type ``ty`` is ``bits``."""
    import numpy as np

    dt = A.numpy_float_dtype(ty)
    if dt is None:
        raise ValueError(f"no bit-level representation for {ty}")
    itemsize = np.dtype(dt).itemsize
    arr = np.array([bits], dtype=f"u{itemsize}").view(dt)
    return float(arr[0])
