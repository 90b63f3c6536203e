"""Runtime values of the XeGPU descriptor types (ARCHITECTURE.md "Values and memory": a tensor_desc is a
descriptor — base address, shape, strides, offsets, memory space, array_length, boundary_check — or base +
per-lane offsets + chunk size for scattered descriptors).

The static parts of a descriptor (tile shape, element type, array_length, boundary_check, memory space, chunk
size) live in its MLIR type and are decoded once when an op is compiled; the values below carry only what is
known at run time.

* :class:`NdDesc` — a block descriptor (``xegpu.create_nd_tdesc``).  It is the payload of the 2D block message
  (spec/pvc-hardware.md §1.1): the 64-bit surface base, surface width/height/pitch, and the block start
  offsets.  Leading (batch) dimensions of the source are folded into the base address, width = shape[-1],
  height = shape[-2], pitch = strides[-2] (spec/pvc-hardware.md §1.7, X2X create_nd_tdesc lowering).  A 1-D
  descriptor has height 1.
* :class:`ScatterDesc` — a scattered descriptor (``xegpu.create_tdesc``): base address + one element offset per
  lane (spec/pvc-hardware.md §2.1: lane i accesses ``chunk`` consecutive elements at base + offset[i]·elem_bytes).
* :class:`MemDesc` — an SLM matrix view (``xegpu.create_mem_desc`` / ``mem_desc_subview``).
* :class:`NamedBarrier` — the value of ``xegpu.init_nbarrier``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(slots=True)
class NdDesc:
    """A block tensor descriptor at run time.

    ``space`` is the :class:`xesim.hw.memory.AddressSpace` holding the surface (global memory, or the
    workgroup's SLM for 1-D SLM descriptors); ``base`` the byte address of surface element (0, 0);
    ``height``/``width``/``pitch`` the surface rows, columns and row stride in elements; ``offsets`` the
    descriptor's block start (row, column) — or (column,) for a 1-D descriptor — in elements (set by the
    legacy offsets of ``create_nd_tdesc`` and moved by ``update_nd_offset``); ``elem_bytes`` the element size.
    ``origin`` names the source for messages (``%arg0`` / ``address 0x...``).
    """

    space: Any
    base: int
    height: int
    width: int
    pitch: int
    offsets: tuple[int, ...]
    elem_bytes: int
    origin: str = ""
    _surface: Any = field(default=None, repr=False)

    @property
    def width_bytes(self) -> int:
        return self.width * self.elem_bytes

    @property
    def pitch_bytes(self) -> int:
        return self.pitch * self.elem_bytes

    def moved(self, deltas: list[int] | tuple[int, ...]) -> NdDesc:
        """The descriptor with its offsets incremented by ``deltas`` (``update_nd_offset``)."""
        offs = tuple(o + d for o, d in zip(self.offsets, deltas))
        return NdDesc(self.space, self.base, self.height, self.width, self.pitch, offs, self.elem_bytes,
                      self.origin, self._surface)

    def as_elements(self, count: int) -> ScatterDesc:
        """The first ``count`` elements of a 1-D descriptor's tile as a scattered view (one element per lane,
        consecutive from the block start): how ``xegpu.atomic_rmw`` addresses a block descriptor
        (upstream-xegpu-xevm.md §2.12: element i at the descriptor's base + i, row-major; only rank-1
        descriptors lower).  The surface width bounds the elements."""
        offs = self.offsets[-1] + np.arange(count, dtype=np.int64)
        return ScatterDesc(self.space, self.base, offs, 1, self.elem_bytes, self.width, self.origin)

    def describe(self) -> str:
        return (f"surface {self.origin or f'0x{self.base:x}'} of {self.height}x{self.width} elements "
                f"(base 0x{self.base:x}, width {self.width_bytes} B, pitch {self.pitch_bytes} B)")


@dataclass(slots=True)
class ScatterDesc:
    """A scattered tensor descriptor at run time: ``base`` byte address, ``offsets`` (int64 array, one element
    offset per lane, shaped like the descriptor without its chunk dimension), ``chunk`` elements per lane,
    ``limit`` the number of elements addressable from ``base`` when the source is a memref (None for raw
    addresses: the allocation decides)."""

    space: Any
    base: int
    offsets: np.ndarray
    chunk: int
    elem_bytes: int
    limit: int | None = None
    origin: str = ""

    def moved(self, deltas: np.ndarray) -> ScatterDesc:
        return ScatterDesc(self.space, self.base, self.offsets + deltas, self.chunk, self.elem_bytes, self.limit,
                           self.origin)


@dataclass(slots=True)
class MemDesc:
    """An SLM matrix view.  ``root_shape`` / ``strides`` / ``block`` describe the matrix of the
    ``create_mem_desc`` (``#xegpu.mem_layout<stride, block>``; ``strides`` are the linearisation strides of
    :func:`blocked_strides`); ``coords`` is the position of this (sub)view's element 0 in the root matrix;
    ``keep`` how many trailing root dimensions the view has."""

    space: Any
    base: int
    root_shape: tuple[int, ...]
    strides: tuple[int, ...]
    block: tuple[int, ...]
    coords: tuple[int, ...]
    elem_bytes: int
    limit_bytes: int
    origin: str = ""


@dataclass(slots=True, frozen=True)
class NamedBarrier:
    """``xegpu.init_nbarrier``: barrier id and the number of participating threads (subgroups)."""

    barrier_id: int
    participants: int


def blocked_strides(shape: tuple[int, ...], stride: tuple[int, ...] | None,
                    block: tuple[int, ...] | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Linearisation of a ``#xegpu.mem_layout<stride = S, block = B>`` matrix (upstream
    ``MemDescType::getStrideShape`` / ``getLinearOffsets``, XeGPUTypes.cpp / XeGPUDialect.cpp): returns
    ``(strides, block)``.

    Without a block (or a block equal to the shape) the element ``[i, j, ...]`` lives at ``Σ idx·S``
    (``S`` defaults to row-major).  With a block, the matrix is tiled into blocks of shape ``B``: elements of a
    block are contiguous, ordered by the dimension order that ``S`` implies (smallest stride fastest), and
    blocks are laid out in the same dimension order; the coordinate ``[y, x]`` becomes
    ``[y / By, x / Bx, y % By, x % Bx]`` and is dotted with the returned ``2·rank`` strides (outer-block strides,
    then inner-block strides).
    """
    rank = len(shape)
    if stride is None:
        acc, rs = 1, []
        for d in reversed(shape):
            rs.append(acc)
            acc *= d
        stride = tuple(reversed(rs))
    if block is None or tuple(block) == tuple(shape):
        return tuple(stride), tuple(shape)
    perm = sorted(range(rank), key=lambda d: stride[d])  # fastest dimension first
    inner = [0] * rank
    inner[perm[0]] = 1
    for i in range(1, rank):
        inner[perm[i]] = inner[perm[i - 1]] * block[perm[i - 1]]
    # blocks per dimension, from the stride ratios as upstream does (the slowest dimension needs none)
    nblocks = [0] * rank
    for i in range(rank - 1):
        nblocks[perm[i]] = (stride[perm[i + 1]] // stride[perm[i]]) // block[perm[i]]
    block_elems = 1
    for b in block:
        block_elems *= b
    outer = [0] * rank
    outer[perm[0]] = block_elems
    for i in range(rank - 1):
        outer[perm[i + 1]] = outer[perm[i]] * nblocks[perm[i]]
    return tuple(outer) + tuple(inner), tuple(block)


def linear_offset(strides: tuple[int, ...], block: tuple[int, ...], coords: tuple[int, ...] | list[int]) -> int:
    """Element offset of ``coords`` (root-matrix coordinates) under :func:`blocked_strides`."""
    rank = len(block)
    if len(strides) == rank:
        return sum(c * s for c, s in zip(coords, strides))
    idx = [c // b for c, b in zip(coords, block)] + [c % b for c, b in zip(coords, block)]
    return sum(c * s for c, s in zip(idx, strides))


def linear_offsets(strides: tuple[int, ...], block: tuple[int, ...], rows: np.ndarray, cols: np.ndarray,
                   lead: tuple[int, ...] = ()) -> np.ndarray:
    """Vectorised :func:`linear_offset` for a 2-D grid (``rows`` [R,1], ``cols`` [1,C]) with fixed leading
    coordinates ``lead``."""
    rank = len(block)
    n_lead = rank - 2
    if len(strides) == rank:
        base = sum(c * s for c, s in zip(lead, strides[:n_lead]))
        return base + rows * strides[n_lead] + cols * strides[n_lead + 1]
    outer, inner = strides[:rank], strides[rank:]
    base = sum((c // b) * so + (c % b) * si for c, b, so, si in zip(lead, block, outer, inner))
    by, bx = block[n_lead], block[n_lead + 1]
    return (base + (rows // by) * outer[n_lead] + (cols // bx) * outer[n_lead + 1]
            + (rows % by) * inner[n_lead] + (cols % bx) * inner[n_lead + 1])


@dataclass(slots=True)
class NdPlanes:
    """A batched (rank 3-5) block descriptor at run time (shared/spec/upstream-xegpu-xevm.md §2.1, §2.3): the
    descriptor's leading tile dimensions index independent 2-D planes of the source.  ``plane0`` is plane
    ``(0, ..., 0)`` as a 2-D :class:`NdDesc`; plane ``p`` starts ``Σ p_d · strides[d]`` bytes further; a plane index
    outside ``[0, sizes[d])`` has no elements (reads 0, stores dropped).  Bounds are per plane, as the op intends
    (the lowering's single tall surface differs, §6.2 item 10)."""

    plane0: NdDesc
    sizes: tuple[int, ...]
    strides: tuple[int, ...]  # bytes

    def plane(self, index: tuple[int, ...] | list[int]) -> NdDesc | None:
        if any(not 0 <= i < n for i, n in zip(index, self.sizes)):
            return None
        d = self.plane0
        base = d.base + sum(i * s for i, s in zip(index, self.strides))
        return NdDesc(d.space, base, d.height, d.width, d.pitch, d.offsets, d.elem_bytes, d.origin)

    def tile_planes(self, lead: tuple[int, ...], offsets: Sequence[int]) -> Iterator[tuple[tuple[int, ...], NdDesc]]:
        """The planes of a tile with leading shape ``lead`` whose leading offsets are ``offsets`` that exist in the
        source: ``(index within the tile, the plane's 2-D descriptor)`` in row-major order; the others have no
        elements."""
        for idx in np.ndindex(lead):
            d = self.plane([o + i for o, i in zip(offsets, idx)])
            if d is not None:
                yield idx, d
