"""XeGPU ops decoded once: what a block access, a scattered access or a DPAS asks for, read from the op's types and
attributes into a frozen description that the verifier checks, the executor runs, the register-file model lays out
and the race detector takes footprints from (ARCHITECTURE.md "Decode once").  Decoding is permissive: a malformed
attribute decodes to its default and the verifier reports it.

**Block accesses** (``load_nd`` / ``store_nd`` / ``prefetch_nd``; spec/programs-and-runner.md §3.3,
spec/pvc-hardware.md §1.3; the value conventions are xesim/exec/ops/xegpu_block.py's).

:class:`BlockAccess` holds the tile (``rows`` x ``cols``; 1-D descriptors: one row), ``array_length``, the element
width, the value's shape and whether it is a lane fragment (SIMT), and the load modifiers: ``transpose = [1, 0]``
(an invalid permutation is ignored, ``transpose_ignored``), ``packed`` (VNNI) and the legacy
``transpose_bit_width = 32``.  :meth:`BlockAccess.mode` names the value convention for a target's transposed-message
unit: ``plain``, ``vnni``, ``transpose`` (32/64-bit data), ``tnarrow`` (8/16-bit data transposed as 32-bit units
and split back) or ``tvnni`` (their VNNI form: ``packed`` or ``transpose_bit_width = 32``).

**Scattered accesses** (``load`` / ``store`` / ``prefetch`` / ``atomic_rmw``; spec/pvc-hardware.md §2,
spec/upstream-xegpu-xevm.md): :class:`ScatterAccess` — the source form (a scattered descriptor or a buffer with
offsets), the elements per lane (``chunk``), the lanes' shape, and whether the op is written per lane (SIMT).

**DPAS** (``dpas``): :class:`DpasShape` — the operand shapes, M/N/K, a VNNI-packed B, the element type names the
DPAS model takes, and the SIMT form (1-D fragments).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from math import prod
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
    lead: tuple[int, ...] = ()  # the leading (batch) tile dims of a rank 3-5 descriptor (spec §2.3 "Batched")

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
        shape = [self.rows, self.cols] if self.rank >= 2 else [self.cols]
        if self.transpose:
            shape = shape[::-1]
        if self.packed_result and self.rank == 2 and self.value_shape and self.value_shape[-1] > 0:
            v = self.value_shape[-1]
            shape = [shape[0] // v, *shape[1:], v]
        a = self.array_length
        lead = list(self.lead)
        return [lead + shape] if a == 1 else [lead + [a, *shape], lead + [a * shape[0], *shape[1:]]]


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
    rows, cols = (td.shape[-2], td.shape[-1]) if td.rank >= 2 else (1, td.shape[0])
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
                       tbw.value if isinstance(tbw, A.IntegerAttr) else None, value_shape, simt,
                       tuple(td.shape[:-2]))


# ============================================================================================ scattered accesses
@dataclass(frozen=True)
class ScatterAccess:
    """A decoded scattered access (module docstring)."""

    kind: str  # load | store | prefetch | atomic_rmw
    through_tdesc: bool  # a scattered descriptor (offsets from create_tdesc), else a buffer + offsets operand
    chunk: int  # elements per lane: the descriptor's chunk_size, or the op's chunk_size attribute
    lane_shape: tuple[int, ...] | None  # the lanes (descriptor shape without the chunk dim, or the offsets' shape)
    value_shape: tuple[int, ...] | None  # None: a scalar value, or none (prefetch)
    simt: bool  # written per lane: scalar offsets or mask, or one lane's chunk-sized 1-D value


#: the operand holding the accessed memory, and the one holding the value, per op
_SCATTER_OPERANDS = {"xegpu.load": ("source", None), "xegpu.store": ("dest", "value"),
                     "xegpu.prefetch": ("source", None), "xegpu.atomic_rmw": ("tensorDesc", "value")}


def _group(op: Any, name: str) -> Any:
    try:
        vals = op.operand_group(name)
    except KeyError:
        return None
    return vals[0] if vals else None


@functools.lru_cache(maxsize=4096)
def decode_scatter_access(op: Any) -> ScatterAccess:
    """The :class:`ScatterAccess` of an ``xegpu.load`` / ``store`` / ``prefetch`` / ``atomic_rmw`` (one decoding per
    op for the verifier, the executor, the level classification and the race detector)."""
    src_name, value_name = _SCATTER_OPERANDS[op.name]
    st = _group(op, src_name).type
    value = op.results[0] if op.name == "xegpu.load" else _group(op, value_name) if value_name else None
    vt = value.type if value is not None else None
    offsets, mask = _group(op, "offsets"), _group(op, "mask")
    value_shape = tuple(vt.shape) if isinstance(vt, T.VectorType) else None
    if isinstance(st, T.TensorDescType):
        chunk = st.chunk_size
        lane_shape: tuple[int, ...] | None = tuple(st.shape[:-1]) if chunk > 1 else tuple(st.shape)
    else:
        chunk = A.attr_int(op.attributes.get("chunk_size"), 1) or 1
        lane_shape = tuple(offsets.type.shape) if offsets is not None and isinstance(offsets.type, T.VectorType) \
            else None
    scalar_operand = any(v is not None and not isinstance(v.type, T.VectorType) for v in (offsets, mask))
    # Upstream lane-level programs also write one lane's offset and mask as one-element vectors
    # (``vector<1xindex>``, ``vector<1xi1>``; upstream-xegpu-xevm.md §2.6 "Lane level: scalar or 1-element
    # offsets/mask with a vector<c> result"): with a buffer source, a single offset and a value of at most one
    # lane's chunk is the lane form (a subgroup-level access has one offset per lane).
    one_lane = (not isinstance(st, T.TensorDescType) and offsets is not None and isinstance(offsets.type, T.VectorType)
                and offsets.type.num_elements == 1
                and (value_shape is None or (len(value_shape) <= 1 and prod(value_shape) == chunk)))
    if scalar_operand or one_lane:
        simt = True
    elif isinstance(st, T.TensorDescType) and value_shape is not None:
        simt = len(value_shape) == 1 and value_shape[0] == chunk and st.num_elements > chunk
    else:
        simt = vt is not None and value_shape is None
    kind = op.name.split(".")[-1]
    return ScatterAccess(kind, isinstance(st, T.TensorDescType), chunk, lane_shape, value_shape, simt)


# ============================================================================================ DPAS
def dpas_type_name(t: T.Type) -> str:
    """The DPAS model's name of an MLIR element type (``f16``, ``bf16``, ``s8``, ``u8``, ...; signless integers are
    signed)."""
    if isinstance(t, T.FloatType):
        return t.name
    if isinstance(t, T.IntegerType):
        return f"{'u' if t.signedness == 'u' else 's'}{t.width}"
    return str(t)


@dataclass(frozen=True)
class DpasShape:
    """A decoded ``xegpu.dpas`` (module docstring): ``D[M, N] = A[M, K] · B[K, N] + C``."""

    simt: bool  # 1-D per-lane fragments (the shapes are then fragment lengths)
    a_shape: tuple[int, ...]
    b_shape: tuple[int, ...]  # [K, N], or [K / v, N, v] VNNI-packed
    d_shape: tuple[int, ...]
    a_type: str
    b_type: str
    c_type: str  # the accumulator's, or the result's without one (the null Src0 register)
    d_type: str
    has_acc: bool

    @property
    def vnni(self) -> bool:
        return len(self.b_shape) == 3

    @property
    def k(self) -> int:
        """K as B holds it (``K/v · v`` when packed)."""
        b = self.b_shape
        return b[0] * b[2] if len(b) == 3 else b[0]


@functools.lru_cache(maxsize=4096)
def decode_dpas(op: Any) -> DpasShape:
    """The :class:`DpasShape` of an ``xegpu.dpas`` (the verifier checks that the shapes agree)."""
    lhs, rhs, acc = _group(op, "lhs"), _group(op, "rhs"), _group(op, "acc")
    lt, bt, rt = lhs.type, rhs.type, op.results[0].type
    simt = lt.rank == 1 and bt.rank == 1 and rt.rank == 1
    d_type = dpas_type_name(rt.element_type)
    return DpasShape(simt, tuple(lt.shape), tuple(bt.shape), tuple(rt.shape), dpas_type_name(lt.element_type),
                     dpas_type_name(bt.element_type),
                     dpas_type_name(acc.type.element_type) if acc is not None else d_type, d_type, acc is not None)
