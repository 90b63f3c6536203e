"""XeGPU block accesses decoded once: what a ``load_nd`` / ``store_nd`` / ``prefetch_nd`` asks for
(spec/programs-and-runner.md §3.3, spec/pvc-hardware.md §1.3; the value conventions are xesim/exec/ops/xegpu_block.py's).

:class:`BlockAccess` holds the tile (``rows`` x ``cols``; 1-D descriptors: one row), ``array_length``, the element
width, the value's shape and whether it is a lane fragment (SIMT), and the load modifiers: ``transpose = [1, 0]``
(an invalid permutation is ignored, ``transpose_ignored``), ``packed`` (VNNI) and the legacy
``transpose_bit_width = 32``.  :meth:`BlockAccess.mode` names the value convention for a target's transposed-message
unit: ``plain``, ``vnni``, ``transpose`` (32/64-bit data), ``tnarrow`` (8/16-bit data transposed as 32-bit units
and split back) or ``tvnni`` (their VNNI form: ``packed`` or ``transpose_bit_width = 32``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias


@dataclass(frozen=True)
class BlockAccess:
    """A decoded block access (module docstring)."""

    kind: str  # load | store | prefetch
    rank: int
    rows: int
    cols: int
    array_length: int
    elem_bits: int
    boundary_check: bool
    transpose: bool
    transpose_ignored: bool
    packed: bool
    transpose_bit_width: int | None
    value_shape: tuple[int, ...] | None
    simt: bool

    @property
    def elem_bytes(self) -> int:
        return self.elem_bits // 8

    @property
    def packed_result(self) -> bool:
        """The value is in VNNI form (``packed``, or the legacy ``transpose_bit_width`` on a 2-D load)."""
        return self.packed or (self.transpose_bit_width is not None and self.rank == 2)

    def mode(self, emulation_bytes: int) -> tuple[str, int]:
        """(value convention, VNNI factor v) of a 2-D load whose target transposes ``emulation_bytes``-byte units
        natively (``block2d.transpose_emulation_bytes``)."""
        isz = self.elem_bytes
        if self.transpose and isz < emulation_bytes:
            v = emulation_bytes // isz
            return ("tvnni" if (self.packed or self.transpose_bit_width == 32) else "tnarrow"), v
        if self.transpose:
            return "transpose", 1
        if self.packed:
            return "vnni", 32 // self.elem_bits
        return "plain", 1

    def simd_shapes(self) -> list[list[int]]:
        """The whole-tile value shapes a load may have (LoadNdOp::verify): the tile after the transpose and the
        VNNI packing (factor from the value's last dimension), with ``array_length`` blocks as a leading
        dimension or stacked along the first."""
        shape = [self.rows, self.cols] if self.rank == 2 else [self.cols]
        if self.transpose:
            shape = shape[::-1]
        if self.packed_result and self.rank == 2 and self.value_shape and self.value_shape[-1] > 0:
            v = self.value_shape[-1]
            shape = [shape[0] // v, *shape[1:], v]
        a = self.array_length
        return [shape] if a == 1 else [[a, *shape], [a * shape[0], *shape[1:]]]


def _int_list(attr: Any) -> list[int] | None:
    if attr is None:
        return None
    try:
        return [int(x) for x in A.int_list(attr)]
    except (TypeError, ValueError):
        return None


def _enc_int(td: T.TensorDescType, name: str, default: int) -> int:
    """An integer parameter of the descriptor's encoding (``default`` when absent or malformed: the verifier
    reports a malformed one)."""
    v = td._enc_param(name, None)
    return int(v.value) if isinstance(v, A.IntegerAttr) else default  # booleans are i1 IntegerAttrs


@functools.lru_cache(maxsize=4096)
def decode_block_access(op: Any) -> BlockAccess:
    """The :class:`BlockAccess` of a ``load_nd``, ``store_nd`` or ``prefetch_nd`` (ops are compared by identity: one
    decoding per op for every user: the verifier's rules, the executor's block load, the register-file layout, the
    race detector's footprint)."""
    kind = op.name.split("_")[0].split(".")[-1]  # load | store | prefetch
    td: T.TensorDescType = next(v.type for v in op.operands if isinstance(v.type, T.TensorDescType))
    if op.name == "xegpu.load_nd":
        vt = op.results[0].type
    elif op.name == "xegpu.store_nd":
        vt = op.operand_group("value")[0].type
    else:
        vt = None
    rows, cols = (td.shape[0], td.shape[1]) if td.rank == 2 else (1, td.shape[0])
    trans = _int_list(op.attributes.get("transpose"))
    valid = trans is not None and sorted(trans) == list(range(td.rank))
    tbw = op.attributes.get("transpose_bit_width")
    value_shape = tuple(vt.shape) if isinstance(vt, T.VectorType) else None
    a = _enc_int(td, "array_length", 1)
    simt = (isinstance(vt, T.VectorType) and vt.rank == 1
            and vt.num_elements < td.num_elements * a)
    return BlockAccess(kind, td.rank, rows, cols, a, T.bit_width(td.element_type),
                       bool(_enc_int(td, "boundary_check", 1)),
                       valid and trans == [1, 0], trans is not None and not valid, "packed" in op.attributes,
                       tbw.value if isinstance(tbw, A.IntegerAttr) else None, value_shape, simt)
