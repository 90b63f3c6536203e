"""Layout maps: which lane / subgroup holds which element of a tile (ARCHITECTURE.md "Register file").

This module is the single place where layout knowledge lives; the register file, DPAS, block loads, the SIMT and
WG executors and the trace viewer all call it.  Everything here is a pure function of plain integer tuples and
numpy arrays (no IR; ARCHITECTURE.md principle 3).  Hardware numbers (subgroup size, DPAS M/N/K, the default PVC
lane layouts) are arguments or come from ``isa/targets/<target>.toml`` ``[layout]`` via
:func:`target_lane_layout`; none is hard-coded.

Four kinds of map:

1. **Lane (SIMT) layouts** — :class:`LaneLayout` (``lane_layout``, ``lane_data``, ``order``), the rule of
   spec/programs-and-runner.md §3.4 (IMEX ``docs/rfcs/XeGPU.md``): the tile is cut into distribution units of
   ``lane_layout·lane_data`` elements; lane ``l`` (delinearised over ``lane_layout`` with ``order``) owns the
   ``lane_data`` block at ``coord(l)·lane_data`` of every unit; its fragment lists the units in row-major order,
   each unit's ``lane_data`` block packed innermost (row-major inside the block).  ``array_length = a`` blocks are
   concatenated per lane (block 0's fragment, then block 1's, …; §3.2 SIMT).  Fragment length: §4.4
   (``getDistributedVectorType``).  Packed (VNNI) loads use ``lane_data = [2, 1]`` / ``[4, 1]``, transposed 32-bit
   loads ``lane_layout = [16, 1]`` on the (pre-transpose) descriptor shape, scattered chunks
   :meth:`LaneLayout.scattered`.
2. **DPAS fragments** — :class:`DpasLayout` (spec/pvc-hardware.md §3.4): A/B/C/D per-lane fragments for any
   M, N (= lanes) and K, incl. packed columns (K > N) and the tf32 row split (K < N).
3. **Block-load register image to lanes** — :func:`lane_component_of_image` and :func:`block_lane_coords`
   (spec/pvc-hardware.md §1.6): lane ``i``, component ``k`` = ``flat_image[k·SG + i]`` in per-lane units.
4. **Workgroup distribution** — :class:`WgLayout` and :class:`SliceLayout` (spec/programs-and-runner.md §3.2 WG
   and §3.4): subgroup id delinearisation with ``order``, distribution units ``min(shape, sg_layout·sg_data)``,
   round-robin over units, offsets modulo the shape (sharing), extra subgroups taken modulo the layout size,
   ``inst_data`` decomposition.
5. **XeTile workgroup maps** — :class:`XeTileWgMap` (``#xetile.wg_map``, shared/spec/xetile.md §4.2–§4.3):
   row-major subgroup coordinates (or IMEX's column-major numbering for transposed loads), per dimension the
   ``sg_data`` blocks ``(t + k) mod n`` for ``t = 0, L, 2L, … < n`` (round-robin, wrap-around replication), the
   remainder ``shape mod sg_data`` owned by nobody.

Index conventions: a tile index is a tuple of ints into the tile; with ``array_length > 1`` the tile is the stack
``[array_length, *shape]`` of the blocks (block ``j`` = memory columns ``j·C .. j·C + C - 1``, spec §3.3) and
indices carry the block first.  Vectorised maps (``index_map``) give flat (C-order) indices into that tile.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from math import ceil, prod
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from xesim.hw.params import Target

__all__ = [
    "DPAS_OPERANDS", "DpasLayout", "LaneLayout", "LayoutMapError", "SliceLayout", "Tile", "WgLayout",
    "block_lane_coords", "delinearize", "image_of_lane_components", "image_slot", "lane_component_of_image",
    "lane_unit_elems", "linearize", "row_major_offsets", "split_tile", "target_lane_layout",
]

Shape = tuple[int, ...]
Tile = tuple[tuple[int, ...], tuple[int, ...]]
"""A rectangular piece of a tile: ``(offsets, sizes)``; its elements are ``(offsets + j) % shape``."""


class LayoutMapError(ValueError):
    """A layout that does not distribute the given shape, or malformed layout parameters."""


# ------------------------------------------------------------------------------------------------ helpers
def _ints(name: str, v: object) -> tuple[int, ...]:
    try:
        out = tuple(int(x) for x in v)  # type: ignore[union-attr]
    except TypeError:
        raise LayoutMapError(f"{name} must be a sequence of integers, got {v!r}") from None
    return out


def _positive(name: str, v: tuple[int, ...]) -> None:
    if not v or any(x <= 0 for x in v):
        raise LayoutMapError(f"{name} must be non-empty with positive values, got {list(v)}")


def _check_order(order: tuple[int, ...] | None, rank: int) -> None:
    if order is not None and sorted(order) != list(range(rank)):
        raise LayoutMapError(f"order must be a permutation of [0, {rank}), got {list(order)}")


def _default_order(rank: int) -> tuple[int, ...]:
    return tuple(range(rank - 1, -1, -1))


def delinearize(linear_id: int, dims: tuple[int, ...] | list[int], order: tuple[int, ...] | list[int] | None = None
                ) -> tuple[int, ...]:
    """Coordinates of ``linear_id`` in a ``dims`` grid (spec/programs-and-runner.md §3.4): ``order`` lists the dims
    fastest first (default ``[rank-1, …, 0]``, row-major); ``coord[order[i]] = rem % dims[order[i]]``,
    ``rem //= dims[order[i]]``.  Ids beyond ``prod(dims)`` wrap (the slowest dim is taken modulo its size too)."""
    order = _default_order(len(dims)) if order is None else order
    coord = [0] * len(dims)
    rem = int(linear_id)
    for d in order:
        coord[d] = rem % dims[d]
        rem //= dims[d]
    return tuple(coord)


def linearize(coords: tuple[int, ...] | list[int], dims: tuple[int, ...] | list[int],
              order: tuple[int, ...] | list[int] | None = None) -> int:
    """Inverse of :func:`delinearize` for coordinates inside the grid."""
    order = _default_order(len(dims)) if order is None else order
    lin, stride = 0, 1
    for d in order:
        lin += coords[d] * stride
        stride *= dims[d]
    return lin


def row_major_offsets(shape: tuple[int, ...], step: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Offsets of the ``step``-sized tiles covering ``shape`` in row-major order (upstream
    ``StaticTileOffsetRange``; a trailing partial tile is included)."""
    return [tuple(o) for o in itertools.product(*(range(0, s, t) for s, t in zip(shape, step, strict=True)))]


def split_tile(sizes: tuple[int, ...], inst_data: tuple[int, ...]) -> list[Tile]:
    """``inst_data`` decomposition (``xegpu-blocking``, spec/programs-and-runner.md §3.4): the tiles of size
    ``inst_data`` covering a tile of ``sizes`` in row-major order, offsets relative to the tile."""
    sizes, inst = _ints("sizes", sizes), _ints("inst_data", inst_data)
    if len(sizes) != len(inst):
        raise LayoutMapError(f"inst_data {list(inst)} and tile {list(sizes)} differ in rank")
    _positive("inst_data", inst)
    if any(s % i for s, i in zip(sizes, inst, strict=True)):
        raise LayoutMapError(f"inst_data {list(inst)} does not divide the tile {list(sizes)}")
    return [(off, inst) for off in row_major_offsets(sizes, inst)]


# ------------------------------------------------------------------------------------------------ lane layouts
@dataclass(frozen=True)
class LaneLayout:
    """A subgroup's lane layout (spec/programs-and-runner.md §3.4, IMEX XeGPU.md): ``lane_layout`` lanes per dim,
    ``lane_data`` contiguous elements per lane per distribution unit, ``order`` = dims fastest first for
    delinearising lane ids (default row-major).  The number of lanes is ``prod(lane_layout)``."""

    lane_layout: tuple[int, ...]
    lane_data: tuple[int, ...]
    order: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        ll, ld = _ints("lane_layout", self.lane_layout), _ints("lane_data", self.lane_data)
        object.__setattr__(self, "lane_layout", ll)
        object.__setattr__(self, "lane_data", ld)
        _positive("lane_layout", ll)
        _positive("lane_data", ld)
        if len(ll) != len(ld):
            raise LayoutMapError(f"lane_layout {list(ll)} and lane_data {list(ld)} differ in rank")
        if self.order is not None:
            order = _ints("order", self.order)
            object.__setattr__(self, "order", order)
            _check_order(order, len(ll))

    @classmethod
    def scattered(cls, lanes: int, chunk_size: int = 1) -> LaneLayout:
        """Layout of a scattered access (spec/programs-and-runner.md §3.2 SIMT, §4.4): lane ``i`` gets its chunk.
        ``chunk_size == 1``: 1-D ``[lanes]``; else ``[lanes, chunk_size]`` with lane_data ``[1, chunk_size]``."""
        if chunk_size == 1:
            return cls((lanes,), (1,))
        return cls((lanes, 1), (1, chunk_size))

    # ---------------------------------------------------------------------------------------------- basics
    @property
    def rank(self) -> int:
        return len(self.lane_layout)

    @property
    def num_lanes(self) -> int:
        """Subgroup size the layout describes (``prod(lane_layout)``)."""
        return prod(self.lane_layout)

    @property
    def data_size(self) -> int:
        """``lane_data_size = prod(lane_data)`` (§4.4)."""
        return prod(self.lane_data)

    @property
    def unit(self) -> tuple[int, ...]:
        """Distribution unit ``lane_layout·lane_data`` per dim."""
        return tuple(a * b for a, b in zip(self.lane_layout, self.lane_data, strict=True))

    def lane_coords(self, lane: int) -> tuple[int, ...]:
        """Lane ``lane``'s coordinates in ``lane_layout`` (§3.4 delinearisation with ``order``)."""
        if not 0 <= lane < self.num_lanes:
            raise LayoutMapError(f"lane {lane} out of range [0, {self.num_lanes})")
        return delinearize(lane, self.lane_layout, self.order)

    def check(self, shape: tuple[int, ...] | list[int]) -> Shape:
        """``shape`` as a tuple; raises unless every ``shape[i] % (lane_layout[i]·lane_data[i]) == 0`` (§4.4)."""
        shape = _ints("shape", shape)
        if len(shape) != self.rank:
            raise LayoutMapError(f"shape {list(shape)} and lane_layout {list(self.lane_layout)} differ in rank")
        if any(s <= 0 or s % u for s, u in zip(shape, self.unit, strict=True)):
            raise LayoutMapError(f"cannot distribute {list(shape)} with lane_layout {list(self.lane_layout)} and "
                                 f"lane_data {list(self.lane_data)}")
        return shape

    def fragment_length(self, shape: tuple[int, ...] | list[int], array_length: int = 1) -> int:
        """Elements per lane: ``Πshape·array_length / (subgroup_size·lane_data_size)·lane_data_size`` (§4.4)."""
        shape = self.check(shape)
        if array_length < 1:
            raise LayoutMapError(f"array_length must be >= 1, got {array_length}")
        return prod(shape) * array_length // (self.num_lanes * self.data_size) * self.data_size

    def fragment_shape(self, shape: tuple[int, ...] | list[int], array_length: int = 1,
                       chunk_size: int | None = None) -> tuple[int]:
        """The 1-D SIMT fragment shape (``xegpu::getDistributedVectorType``, spec/programs-and-runner.md §4.4).

        Block data: ``(fragment_length(shape, array_length),)``.  Scattered data (``chunk_size`` given):
        requires ``shape[0] == lane_layout[0]`` and gives ``(chunk_size,)``."""
        if chunk_size is not None:
            shape = _ints("shape", shape)
            if not shape or shape[0] != self.lane_layout[0]:
                raise LayoutMapError(f"scattered shape {list(shape)} needs shape[0] == lane_layout[0] = "
                                     f"{self.lane_layout[0]}")
            return (int(chunk_size),)
        return (self.fragment_length(shape, array_length),)

    def _geometry(self, shape: Shape) -> tuple[Shape, int]:
        """(units per dim, fragment elements per block)."""
        units = tuple(s // u for s, u in zip(shape, self.unit, strict=True))
        return units, prod(shape) // self.num_lanes

    # ---------------------------------------------------------------------------------------------- scalar maps
    def element(self, shape: tuple[int, ...] | list[int], lane: int, component: int,
                array_length: int = 1) -> tuple[int, ...]:
        """Tile index held by ``lane`` at fragment position ``component`` (§3.4 rule).  With ``array_length > 1``
        the index is ``(block, *index)``."""
        shape = self.check(shape)
        units, per_block = self._geometry(shape)
        if not 0 <= component < per_block * array_length:
            raise LayoutMapError(f"component {component} out of range [0, {per_block * array_length})")
        block, c = divmod(component, per_block)
        u, w = divmod(c, self.data_size)
        ucoord = delinearize(u, units)
        wcoord = delinearize(w, self.lane_data)
        lcoord = self.lane_coords(lane)
        idx = tuple(uc * un + lc * ld + wc for uc, un, lc, ld, wc
                    in zip(ucoord, self.unit, lcoord, self.lane_data, wcoord, strict=True))
        return (block, *idx) if array_length > 1 else idx

    def owner(self, shape: tuple[int, ...] | list[int], index: tuple[int, ...] | list[int],
              array_length: int = 1) -> tuple[int, int]:
        """``(lane, component)`` holding tile element ``index`` (inverse of :meth:`element`)."""
        shape = self.check(shape)
        index = _ints("index", index)
        block = 0
        if array_length > 1:
            if len(index) != self.rank + 1:
                raise LayoutMapError(f"index {list(index)} needs a leading block index (array_length {array_length})")
            block, index = index[0], index[1:]
            if not 0 <= block < array_length:
                raise LayoutMapError(f"block {block} out of range [0, {array_length})")
        if len(index) != self.rank or any(not 0 <= i < s for i, s in zip(index, shape, strict=True)):
            raise LayoutMapError(f"index {list(index)} outside the tile {list(shape)}")
        units, per_block = self._geometry(shape)
        ucoord = tuple(i // u for i, u in zip(index, self.unit, strict=True))
        rem = tuple(i % u for i, u in zip(index, self.unit, strict=True))
        lcoord = tuple(r // d for r, d in zip(rem, self.lane_data, strict=True))
        wcoord = tuple(r % d for r, d in zip(rem, self.lane_data, strict=True))
        lane = linearize(lcoord, self.lane_layout, self.order)
        comp = block * per_block + linearize(ucoord, units) * self.data_size + linearize(wcoord, self.lane_data)
        return lane, comp

    # ---------------------------------------------------------------------------------------------- vector maps
    def index_map(self, shape: tuple[int, ...] | list[int], array_length: int = 1) -> np.ndarray:
        """``[lanes, fragment]`` int64 array of flat (C-order) indices into the tile (``[array_length, *shape]``
        when ``array_length > 1``): ``gather = tile.reshape(-1)[index_map]``.  Read-only, cached."""
        return _lane_index_map(self, self.check(shape), int(array_length))

    def owner_map(self, shape: tuple[int, ...] | list[int], array_length: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """(lane, component) arrays shaped like the tile: who holds each element."""
        shape = self.check(shape)
        idx = self.index_map(shape, array_length)
        tshape = (array_length, *shape) if array_length > 1 else shape
        lanes = np.empty(prod(tshape), dtype=np.int64)
        comps = np.empty(prod(tshape), dtype=np.int64)
        lanes[idx] = np.arange(idx.shape[0])[:, None]
        comps[idx] = np.arange(idx.shape[1])[None, :]
        return lanes.reshape(tshape), comps.reshape(tshape)

    def _tile_rank(self, array_length: int) -> int:
        return self.rank + (1 if array_length > 1 else 0)

    def gather_fragments(self, tile: np.ndarray, array_length: int = 1) -> np.ndarray:
        """Per-lane fragments ``[..., lanes, fragment]`` of ``tile`` (``[..., *shape]``, or
        ``[..., array_length, *shape]``); leading axes (e.g. many subgroups) are kept."""
        tile = np.asarray(tile)
        r = self._tile_rank(array_length)
        if tile.ndim < r or (array_length > 1 and tile.shape[-r] != array_length):
            raise LayoutMapError(f"tile of shape {list(tile.shape)} does not match rank {self.rank} with "
                                 f"array_length {array_length}")
        shape = tile.shape[tile.ndim - self.rank:]
        idx = self.index_map(shape, array_length)
        flat = tile.reshape(*tile.shape[: tile.ndim - r], -1)
        return flat[..., idx]

    def scatter_fragments(self, frags: np.ndarray, shape: tuple[int, ...] | list[int],
                          array_length: int = 1) -> np.ndarray:
        """Inverse of :meth:`gather_fragments`: the tile (``[..., *shape]`` / ``[..., array_length, *shape]``)."""
        frags = np.asarray(frags)
        shape = self.check(shape)
        idx = self.index_map(shape, array_length)
        if frags.ndim < 2 or frags.shape[-2:] != idx.shape:
            raise LayoutMapError(f"fragments of shape {list(frags.shape)} do not match [..., {idx.shape[0]}, "
                                 f"{idx.shape[1]}]")
        batch = frags.shape[:-2]
        out = np.empty((*batch, idx.size), dtype=frags.dtype)
        out[..., idx] = frags
        tshape = (array_length, *shape) if array_length > 1 else shape
        return out.reshape(*batch, *tshape)


@functools.lru_cache(maxsize=1024)
def _lane_index_map(layout: LaneLayout, shape: Shape, array_length: int) -> np.ndarray:
    """Vectorised :meth:`LaneLayout.element` (same rule, numpy broadcasting)."""
    if array_length < 1:
        raise LayoutMapError(f"array_length must be >= 1, got {array_length}")
    units, per_block = layout._geometry(shape)
    comp = np.arange(per_block)
    u, w = np.divmod(comp, layout.data_size)
    ucoord = np.unravel_index(u, units)
    wcoord = np.unravel_index(w, layout.lane_data)
    lcoord = np.array([delinearize(lane, layout.lane_layout, layout.order) for lane in range(layout.num_lanes)],
                      dtype=np.int64).reshape(layout.num_lanes, layout.rank)
    idx = tuple(ucoord[d][None, :] * layout.unit[d] + lcoord[:, d:d + 1] * layout.lane_data[d] + wcoord[d][None, :]
                for d in range(layout.rank))
    flat = np.ravel_multi_index(idx, shape).astype(np.int64)
    if array_length > 1:
        size = prod(shape)
        flat = np.concatenate([flat + b * size for b in range(array_length)], axis=1)
    flat = np.ascontiguousarray(flat)
    flat.flags.writeable = False
    return flat


def target_lane_layout(target: Target, name: str) -> LaneLayout:
    """A default lane layout of the target (``isa/targets/<t>.toml`` ``[layout.<name>]``), e.g.
    ``dpas_a_16bit``, ``dpas_b_16bit``, ``dpas_b_8bit``, ``dpas_a_8bit``, ``dpas_cd_32bit``,
    ``load_transpose_32bit`` (spec/programs-and-runner.md §3.4 "PVC rules")."""
    sec = getattr(target.layout, name)
    order = tuple(sec.order) if "order" in sec else None
    return LaneLayout(tuple(sec.lane_layout), tuple(sec.lane_data), order)


# ------------------------------------------------------------------------------------------------ DPAS fragments
DPAS_OPERANDS = ("a", "b", "c", "d")


@dataclass(frozen=True)
class DpasLayout:
    """SIMT fragments of one DPAS (spec/pvc-hardware.md §3.4; OCL-MMA, SPV-MMA): ``m`` = repeat count (rows of
    A, C, D), ``n`` = execution size = lanes (columns of B, C, D), ``k`` = systolic depth · ops per channel.

    * A (``m x k``), ``k >= n``: lane ``i`` holds ``k/n`` adjacent columns of every row — component
      ``r·(k/n) + p`` = ``A[r][i·(k/n) + p]`` (one value per row, lower columns in lower bits: 16-bit ``k = 16``
      one column, int8 ``k = 32`` two, int4 ``k = 64`` four).  ``k < n`` (tf32, ``k = 8``): the lanes form
      ``n/k`` groups of ``k``; group ``g`` holds the rows ``≡ g (mod n/k)``: lane ``i`` component ``c`` =
      ``A[c·(n/k) + i // k][i % k]`` (``ceil(m/(n/k))`` per lane; slots past row ``m - 1`` are ignored, e.g.
      ``m = 1``: lanes 8..15).
    * B (``k x n``): lane ``j`` holds column ``j`` in row order (component ``c`` = ``B[c][j]``); the hardware packs
      ``ops_per_channel`` consecutive rows per dword, lowest row in the lowest bits, which is exactly this order
      viewed little-endian.
    * C and D (``m x n``): lane ``j`` holds column ``j``, component ``r`` = row ``r``.

    Fragments are in units of the operand's element type; ignored slots have index ``-1`` in :meth:`index_map`."""

    m: int
    n: int
    k: int

    def __post_init__(self) -> None:
        if min(self.m, self.n, self.k) <= 0:
            raise LayoutMapError(f"DPAS shape must be positive, got m={self.m} n={self.n} k={self.k}")
        if self.k >= self.n and self.k % self.n:
            raise LayoutMapError(f"DPAS k={self.k} is not a multiple of n={self.n}")
        if self.k < self.n and self.n % self.k:
            raise LayoutMapError(f"DPAS n={self.n} is not a multiple of k={self.k}")

    @staticmethod
    def _op(operand: str) -> str:
        op = operand.lower()
        if op not in DPAS_OPERANDS:
            raise LayoutMapError(f"unknown DPAS operand '{operand}' (expected one of {', '.join(DPAS_OPERANDS)})")
        return op

    def operand_shape(self, operand: str) -> tuple[int, int]:
        """Logical 2-D shape: A ``(m, k)``, B ``(k, n)``, C/D ``(m, n)``."""
        op = self._op(operand)
        return {"a": (self.m, self.k), "b": (self.k, self.n)}.get(op, (self.m, self.n))

    def _padded(self, operand: str) -> tuple[LaneLayout, tuple[int, int]]:
        """Equivalent lane layout and the (row-padded) shape it is applied to."""
        op = self._op(operand)
        if op == "a":
            if self.k >= self.n:
                return LaneLayout((1, self.n), (1, self.k // self.n)), (self.m, self.k)
            groups = self.n // self.k
            return LaneLayout((groups, self.k), (1, 1)), (ceil(self.m / groups) * groups, self.k)
        return LaneLayout((1, self.n), (1, 1)), self.operand_shape(op)

    def lane_layout(self, operand: str) -> LaneLayout:
        """The lane layout whose §3.4 rule gives this operand's fragment (for tf32 A applied to the rows padded
        to a multiple of ``n/k``)."""
        return self._padded(operand)[0]

    def fragment_length(self, operand: str) -> int:
        """Elements per lane: A ``m·k/n`` (``k >= n``) or ``ceil(m/(n/k))``; B ``k``; C/D ``m``."""
        layout, shape = self._padded(operand)
        return layout.fragment_length(shape)

    def index_map(self, operand: str) -> np.ndarray:
        """``[n, fragment]`` flat indices into the row-major operand; ``-1`` = ignored slot."""
        return _dpas_index_map(self, self._op(operand))

    def element(self, operand: str, lane: int, component: int) -> tuple[int, int] | None:
        """``(row, col)`` of the operand held by ``lane`` at ``component``; None for an ignored slot."""
        layout, shape = self._padded(operand)
        row, col = layout.element(shape, lane, component)
        return None if row >= self.operand_shape(operand)[0] else (row, col)

    def owner(self, operand: str, row: int, col: int) -> tuple[int, int]:
        """``(lane, component)`` holding ``operand[row][col]``."""
        rows, cols = self.operand_shape(operand)
        if not (0 <= row < rows and 0 <= col < cols):
            raise LayoutMapError(f"({row}, {col}) outside DPAS operand {operand} of shape [{rows}, {cols}]")
        layout, shape = self._padded(operand)
        return layout.owner(shape, (row, col))

    def gather(self, operand: str, matrix: np.ndarray, fill: int | float = 0) -> np.ndarray:
        """Per-lane fragments ``[..., n, fragment]`` of ``matrix`` (``[..., rows, cols]``); ignored slots = fill."""
        matrix = np.asarray(matrix)
        shape = self.operand_shape(operand)
        if matrix.shape[-2:] != shape:
            raise LayoutMapError(f"DPAS operand {operand} must be {list(shape)}, got {list(matrix.shape)}")
        idx = self.index_map(operand)
        flat = matrix.reshape(*matrix.shape[:-2], -1)
        out = flat[..., np.maximum(idx, 0)]
        if (idx < 0).any():
            out = out.copy()
            out[..., idx < 0] = fill
        return out

    def scatter(self, operand: str, frags: np.ndarray) -> np.ndarray:
        """Inverse of :meth:`gather` (ignored slots are dropped)."""
        frags = np.asarray(frags)
        idx = self.index_map(operand)
        if frags.shape[-2:] != idx.shape:
            raise LayoutMapError(f"DPAS {operand} fragments must be [..., {idx.shape[0]}, {idx.shape[1]}], "
                                 f"got {list(frags.shape)}")
        rows, cols = self.operand_shape(operand)
        batch = frags.shape[:-2]
        out = np.empty((*batch, rows * cols), dtype=frags.dtype)
        keep = idx >= 0
        out[..., idx[keep]] = frags[..., keep]
        return out.reshape(*batch, rows, cols)


@functools.lru_cache(maxsize=256)
def _dpas_index_map(d: DpasLayout, op: str) -> np.ndarray:
    layout, shape = d._padded(op)
    idx = layout.index_map(shape)
    rows, cols = d.operand_shape(op)
    r, c = np.divmod(idx, shape[1])
    out = np.where(r < rows, r * cols + c, -1).astype(np.int64)
    out.flags.writeable = False
    return out


# ------------------------------------------------------------------------------------------------ block image → lanes
def image_slot(lane: int, component: int, subgroup_size: int) -> int:
    """Position of lane ``lane``'s component ``component`` in a flat register image, in per-lane units
    (spec/pvc-hardware.md §1.6 IGC rule; ARCHITECTURE.md "Register file": slot ``k·SG + i``)."""
    if not 0 <= lane < subgroup_size or component < 0:
        raise LayoutMapError(f"lane {lane} / component {component} out of range for subgroup size {subgroup_size}")
    return component * subgroup_size + lane


def lane_component_of_image(image: np.ndarray, subgroup_size: int) -> np.ndarray:
    """Per-lane values of a register image (spec/pvc-hardware.md §1.6): ``out[..., i, k] = image[..., k·SG + i]``,
    the image being given in units of the per-lane element type (e.g. a ``uint16`` view for d8 W=32, ``uint32``
    for VNNI loads).  Blocks of an ``array_length`` load follow each other in the image, so block 0's components
    come first.  The last axis of ``image`` must be a multiple of ``subgroup_size``."""
    image = np.asarray(image)
    n = image.shape[-1]
    if n % subgroup_size:
        raise LayoutMapError(f"register image of {n} units is not a multiple of the subgroup size {subgroup_size}")
    return np.swapaxes(image.reshape(*image.shape[:-1], n // subgroup_size, subgroup_size), -1, -2)


def image_of_lane_components(frags: np.ndarray) -> np.ndarray:
    """Inverse of :func:`lane_component_of_image`: ``[..., lanes, k]`` -> flat ``[..., k·lanes]``."""
    frags = np.asarray(frags)
    return np.swapaxes(frags, -1, -2).reshape(*frags.shape[:-2], -1)


def lane_unit_elems(padded_row_width: int, subgroup_size: int) -> int:
    """Elements per lane value of a 2D block read (spec/pvc-hardware.md §1.6: the API unit times SG equals the
    padded row when the row is wider than SG; otherwise one element)."""
    w = padded_row_width
    if w >= subgroup_size:
        if w % subgroup_size:
            raise LayoutMapError(f"padded row of {w} elements is not a multiple of the subgroup size {subgroup_size}")
        return w // subgroup_size
    if subgroup_size % w:
        raise LayoutMapError(f"padded row of {w} elements does not divide the subgroup size {subgroup_size}")
    return 1


def block_lane_coords(padded_row_width: int, rows: int, subgroup_size: int) -> tuple[np.ndarray, np.ndarray]:
    """``(row, col)`` arrays ``[SG, components]`` (element units) of one block read: which element of the
    (padded, transformed/transposed) block each lane's component holds (spec/pvc-hardware.md §1.6 step 2, derived
    from the image rule of :func:`lane_component_of_image` with :func:`lane_unit_elems`).  Row width == SG: lane
    ``i`` gets column ``i`` of every row; < SG: ``SG/w`` rows per register row, the first to lanes ``0..w-1``;
    > SG: lane ``i`` gets the run ``i·w/SG ..`` of every row.  Slots past the last row (GRF tail) are ``-1``."""
    w, sg = padded_row_width, subgroup_size
    q = lane_unit_elems(w, sg)
    n_units = ceil(w * rows // q / sg) * sg  # whole register rows of SG units
    units = lane_component_of_image(np.arange(n_units), sg)  # [SG, k]: unit index of lane i's component k
    flat = (units[:, :, None] * q + np.arange(q)).reshape(sg, -1)  # element component e = k·q + j
    row, col = np.divmod(flat, w)
    outside = row >= rows
    return np.where(outside, -1, row), np.where(outside, -1, col)


# ------------------------------------------------------------------------------------------------ workgroup layouts
class _Distribution:
    """Subgroup distribution common to :class:`WgLayout` and :class:`SliceLayout` (spec/programs-and-runner.md
    §3.4 "Tile coordinates"; upstream ``LayoutAttr::computeDistributedCoords`` / ``genCoordinates``)."""

    rank: int

    # provided by subclasses
    def _sg_layout(self) -> tuple[int, ...]:
        raise NotImplementedError

    def _sg_data(self) -> tuple[int, ...] | None:
        raise NotImplementedError

    def _inst_data(self) -> tuple[int, ...] | None:
        raise NotImplementedError

    @property
    def layout_size(self) -> int:
        """Number of distinct subgroups of the layout (``prod`` of the root ``sg_layout``)."""
        raise NotImplementedError

    def sg_coords(self, sg_id: int) -> tuple[int, ...]:
        """Subgroup ``sg_id``'s coordinates in this layout's ``sg_layout`` (ids taken modulo :attr:`layout_size`)."""
        raise NotImplementedError

    # -------------------------------------------------------------------------------------------- derived
    @property
    def effective_sg_layout(self) -> tuple[int, ...]:
        """``sg_layout`` of this value (a slice drops the sliced dims of its parent's)."""
        return self._sg_layout()

    def _shape(self, shape: tuple[int, ...] | list[int]) -> Shape:
        shape = _ints("shape", shape)
        if len(shape) != self.rank:
            raise LayoutMapError(f"shape {list(shape)} does not match the layout rank {self.rank}")
        _positive("shape", shape)
        return shape

    def effective_sg_data(self, shape: tuple[int, ...] | list[int]) -> tuple[int, ...]:
        """``sg_data``; when absent ``shape / sg_layout`` (§3.4), which must divide evenly."""
        shape = self._shape(shape)
        d = self._sg_data()
        if d is not None:
            return d
        layout = self._sg_layout()
        if any(s % n for s, n in zip(shape, layout, strict=True)):
            raise LayoutMapError(f"sg_data absent and sg_layout {list(layout)} does not divide {list(shape)}")
        return tuple(s // n for s, n in zip(shape, layout, strict=True))

    def unit(self, shape: tuple[int, ...] | list[int]) -> tuple[int, ...]:
        """Distribution unit ``min(shape, sg_layout·sg_data)`` per dim (§3.4)."""
        shape = self._shape(shape)
        data = self.effective_sg_data(shape)
        return tuple(min(s, n * d) for s, n, d in zip(shape, self._sg_layout(), data, strict=True))

    def subgroup_tiles(self, shape: tuple[int, ...] | list[int], sg_id: int) -> list[Tile]:
        """Subgroup ``sg_id``'s tiles (§3.4): ``sg_data``-sized, at ``(unit offset + coord·sg_data) % shape`` for
        every distribution unit in row-major order (round-robin).  Elements of a tile are ``(offset + j) % shape``."""
        shape = self._shape(shape)
        data = self.effective_sg_data(shape)
        local = tuple(c * d for c, d in zip(self.sg_coords(sg_id), data, strict=True))
        return [(tuple((u + lo) % s for u, lo, s in zip(uoff, local, shape, strict=True)), data)
                for uoff in row_major_offsets(shape, self.unit(shape))]

    def inst_tiles(self, shape: tuple[int, ...] | list[int], sg_id: int) -> list[Tile]:
        """The ``inst_data`` pieces of every subgroup tile (tiles in :meth:`subgroup_tiles` order, pieces row-major
        inside each; offsets modulo the shape).  Without ``inst_data`` the subgroup tiles themselves."""
        shape = self._shape(shape)
        inst = self._inst_data()
        tiles = self.subgroup_tiles(shape, sg_id)
        if inst is None:
            return tiles
        return [(tuple((o + p) % s for o, p, s in zip(off, poff, shape, strict=True)), psize)
                for off, size in tiles for poff, psize in split_tile(size, inst)]

    def _holds(self, shape: Shape, index: tuple[int, ...], coords: tuple[int, ...]) -> bool:
        data, unit = self.effective_sg_data(shape), self.unit(shape)
        for x, s, d, u, c in zip(index, shape, data, unit, coords, strict=True):
            if d < s and not any((x - uo - c * d) % s < d for uo in range(0, s, u)):
                return False
        return True

    def owners(self, shape: tuple[int, ...] | list[int], index: tuple[int, ...] | list[int],
               num_subgroups: int | None = None) -> list[int]:
        """All subgroup ids holding a copy of element ``index`` (sorted).  ``num_subgroups`` = subgroups actually
        launched: ids beyond the layout size wrap around and duplicate work (§3.2 WG); default: the layout size."""
        shape = self._shape(shape)
        index = _ints("index", index)
        if len(index) != len(shape) or any(not 0 <= i < s for i, s in zip(index, shape, strict=True)):
            raise LayoutMapError(f"index {list(index)} outside the shape {list(shape)}")
        n = self.layout_size if num_subgroups is None else int(num_subgroups)
        base = {s for s in range(self.layout_size) if self._holds(shape, index, self.sg_coords(s))}
        return [s for s in range(n) if s % self.layout_size in base]

    def ownership_mask(self, shape: tuple[int, ...] | list[int], sg_id: int) -> np.ndarray:
        """Boolean array of ``shape``: the elements subgroup ``sg_id`` holds."""
        shape = self._shape(shape)
        mask = np.zeros(shape, dtype=bool)
        for off, size in self.subgroup_tiles(shape, sg_id):
            mask[np.ix_(*((o + np.arange(z)) % s for o, z, s in zip(off, size, shape, strict=True)))] = True
        return mask

    def subgroup_values(self, tile: np.ndarray, sg_id: int) -> list[np.ndarray]:
        """Subgroup ``sg_id``'s pieces of a workgroup value ``[..., *shape]``, one ``[..., *sg_data]`` array per
        :meth:`subgroup_tiles` entry (copies; wrap-around indices modulo the shape)."""
        tile = np.asarray(tile)
        shape = tile.shape[tile.ndim - self.rank:]
        out = []
        for off, size in self.subgroup_tiles(shape, sg_id):
            ix = np.ix_(*((o + np.arange(z)) % s for o, z, s in zip(off, size, shape, strict=True)))
            out.append(tile[(Ellipsis, *ix)])
        return out


@dataclass(frozen=True)
class WgLayout(_Distribution):
    """``#xegpu.layout<sg_layout, sg_data, inst_data, lane_layout, lane_data, order>`` of a workgroup value
    (spec/programs-and-runner.md §3.4).  ``order`` (dims fastest first, default row-major) delinearises both
    subgroup ids and lane ids.  All present fields have the value's rank."""

    sg_layout: tuple[int, ...]
    sg_data: tuple[int, ...] | None = None
    inst_data: tuple[int, ...] | None = None
    lane_layout: tuple[int, ...] | None = None
    lane_data: tuple[int, ...] | None = None
    order: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        sg = _ints("sg_layout", self.sg_layout)
        _positive("sg_layout", sg)
        object.__setattr__(self, "sg_layout", sg)
        for name in ("sg_data", "inst_data", "lane_layout", "lane_data", "order"):
            v = getattr(self, name)
            if v is None:
                continue
            v = _ints(name, v)
            object.__setattr__(self, name, v)
            if len(v) != len(sg):
                raise LayoutMapError(f"{name} {list(v)} and sg_layout {list(sg)} differ in rank")
            if name != "order":
                _positive(name, v)
        if (self.lane_layout is None) != (self.lane_data is None):
            raise LayoutMapError("lane_layout and lane_data must be used together")
        _check_order(self.order, len(sg))

    @property
    def rank(self) -> int:  # type: ignore[override]
        return len(self.sg_layout)

    def _sg_layout(self) -> tuple[int, ...]:
        return self.sg_layout

    def _sg_data(self) -> tuple[int, ...] | None:
        return self.sg_data

    def _inst_data(self) -> tuple[int, ...] | None:
        return self.inst_data

    @property
    def layout_size(self) -> int:
        return prod(self.sg_layout)

    def sg_coords(self, sg_id: int) -> tuple[int, ...]:
        return delinearize(int(sg_id) % self.layout_size, self.sg_layout, self.order)

    @property
    def lane(self) -> LaneLayout | None:
        """The lane layout inside each subgroup / instruction tile (same ``order``), if any."""
        if self.lane_layout is None or self.lane_data is None:
            return None
        return LaneLayout(self.lane_layout, self.lane_data, self.order)


@dataclass(frozen=True)
class SliceLayout(_Distribution):
    """``#xegpu.slice<parent, dims = [..]>`` (spec/programs-and-runner.md §3.4): the layout of a value obtained by
    removing ``dims`` (parent dims) from a value laid out by ``parent``.  Subgroup ids are delinearised with the
    parent's layout and order, then the sliced dims' coordinates are dropped — so a reduced element is held by
    every subgroup that differs only in the sliced dims."""

    parent: WgLayout | SliceLayout
    dims: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.parent, WgLayout | SliceLayout):
            raise LayoutMapError(f"slice parent must be a WgLayout or SliceLayout, got {self.parent!r}")
        dims = _ints("dims", self.dims)
        object.__setattr__(self, "dims", dims)
        prank = self.parent.rank
        if len(set(dims)) != len(dims):
            raise LayoutMapError(f"repeated dim in slice dims {list(dims)}")
        if any(not 0 <= d < prank for d in dims):
            raise LayoutMapError(f"slice dims {list(dims)} out of range for parent rank {prank}")
        if len(dims) >= prank:
            raise LayoutMapError(f"slice dims {list(dims)} leave no dim of the rank-{prank} parent")

    def _drop(self, v: tuple[int, ...] | None) -> tuple[int, ...] | None:
        return None if v is None else tuple(x for i, x in enumerate(v) if i not in self.dims)

    @property
    def rank(self) -> int:  # type: ignore[override]
        return self.parent.rank - len(self.dims)

    def _sg_layout(self) -> tuple[int, ...]:
        out = self._drop(self.parent._sg_layout())
        assert out is not None
        return out

    def _sg_data(self) -> tuple[int, ...] | None:
        return self._drop(self.parent._sg_data())

    def _inst_data(self) -> tuple[int, ...] | None:
        return self._drop(self.parent._inst_data())

    @property
    def layout_size(self) -> int:
        return self.parent.layout_size

    def sg_coords(self, sg_id: int) -> tuple[int, ...]:
        out = self._drop(self.parent.sg_coords(sg_id))
        assert out is not None
        return out


@dataclass(frozen=True)
class XeTileWgMap:
    """``#xetile.wg_map<sg_layout = [L0, L1], sg_data = [D0, D1]>`` of a 2-D workgroup value (shared/spec/xetile.md
    §4.2–§4.3; IMEX WgToSg.cpp at 8d0c177e^)."""

    sg_layout: tuple[int, int]
    sg_data: tuple[int, int]

    def __post_init__(self) -> None:
        for name in ("sg_layout", "sg_data"):
            v = _ints(name, getattr(self, name))
            if len(v) != 2:
                raise LayoutMapError(f"{name} {list(v)} must have two entries")
            _positive(name, v)
            object.__setattr__(self, name, v)

    @property
    def layout_size(self) -> int:
        return self.sg_layout[0] * self.sg_layout[1]

    def coords(self, sg_id: int, column_major: bool = False) -> tuple[int, int]:
        """§4.2: ``(s div L1, s mod L1)``, or ``(s mod L0, s div L0)`` under IMEX's transposed-load numbering; no
        modulo on the leading coordinate (extra subgroups wrap in :meth:`blocks`)."""
        l0, l1 = self.sg_layout
        return (sg_id % l0, sg_id // l0) if column_major else (sg_id // l1, sg_id % l1)

    def blocks(self, shape: tuple[int, int], sg_id: int, column_major: bool = False) -> list[tuple[int, int]]:
        """§4.3: the origins (relative to the value's origin) of subgroup ``sg_id``'s ``sg_data`` sub-tiles, row
        outer; empty when a dimension holds no whole block."""
        k = self.coords(sg_id, column_major)
        per_dim = []
        for d in (0, 1):
            n = int(shape[d]) // self.sg_data[d]
            if n == 0:
                return []
            per_dim.append([((t + k[d]) % n) * self.sg_data[d] for t in range(0, n, self.sg_layout[d])])
        return [(y, x) for y in per_dim[0] for x in per_dim[1]]

    def evenly_distributed(self, shape: tuple[int, int]) -> bool:
        """§3.3: ``shape_d % D_d == 0`` and ``(shape_d / D_d) % L_d == 0`` in both dimensions (stores)."""
        return all(shape[d] % self.sg_data[d] == 0 and (shape[d] // self.sg_data[d]) % self.sg_layout[d] == 0
                   for d in (0, 1))
