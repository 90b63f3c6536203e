"""Run-time values of ``!xetile.tile`` (shared/spec/xetile.md §2.11) and the one address / in-bounds rule of
§3.1 that ``load_tile``, ``store_tile`` and ``atomic_rmw`` share.

* :class:`BlockTile` — a window of a 2-D surface: ``base`` is the byte address of surface element (0, 0) (the
  memref's element 0 plus the leading offsets ``Σ o[k]·T[k]``, k < r-2, which are not bounds-checked), the
  surface has ``rows`` x ``cols`` elements with element strides ``row_stride`` (T[r-2]) and ``col_stride``
  (T[r-1]); the window starts at (``row0``, ``col0``).  Tile element (i, j) is at surface (y, x) = (row0 + i,
  col0 + j), in bounds iff 0 <= y < rows and 0 <= x < cols, at byte address base + (y·T[r-2] + x·T[r-1])·esz.
  One formula for both orders: a row-major tile has T[r-1] = 1, a column-major one T[r-2] = 1; ``order`` never
  changes which logical element (i, j) denotes (§3.1).
* :class:`ScatterTile` — ``base`` (element 0 of a 0-D/1-D memref) and one element index per tile element
  (§3.1 "scattered form"); ``limit`` = the memref's extent in elements (None for an unknown extent).
* :func:`pack_blocks` / :func:`unpack_blocks` — the legacy 4-D blocked form of a 2-D value (Appendix A.1), the one
  definition ``tile_pack``/``tile_unpack``, ``load_tile``/``store_tile`` on ``inner_blocks`` tiles and 4-D
  ``tile_mma`` use.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np


@dataclass(frozen=True, slots=True)
class BlockTile:
    space: Any
    base: int
    rows: int
    cols: int
    row_stride: int
    col_stride: int
    row0: int
    col0: int
    esz: int
    slm: bool
    origin: str = ""

    def moved(self, d_rows: int, d_cols: int) -> BlockTile:
        """``update_tile_offset`` bracket form (§3.5): 64-bit index arithmetic on the window origin.  (Built by the
        constructor, not ``dataclasses.replace``, which inspects the fields on every call: a GEMM's K loop moves
        tiles tens of thousands of times.)"""
        return BlockTile(self.space, self.base, self.rows, self.cols, self.row_stride, self.col_stride,
                         _wrap64(self.row0 + d_rows), _wrap64(self.col0 + d_cols), self.esz, self.slm, self.origin)

    def coordinates(self, h: int, w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Surface rows ``y``, columns ``x`` (each ``[h, w]``) of the window's elements and their in-bounds mask."""
        y = np.arange(h, dtype=np.int64)[:, None] + self.row0
        x = np.arange(w, dtype=np.int64)[None, :] + self.col0
        y, x = np.broadcast_arrays(y, x)
        inb = (y >= 0) & (y < self.rows) & (x >= 0) & (x < self.cols)
        return y, x, inb

    def element_offsets(self, y: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Element offsets from ``base`` (§3.1 address formula divided by the element size)."""
        return y * self.row_stride + x * self.col_stride

    def describe(self) -> str:
        return (f"{self.rows}x{self.cols} surface {self.origin or f'0x{self.base:x}'} (strides [{self.row_stride}, "
                f"{self.col_stride}]) at ({self.row0}, {self.col0})")


@dataclass(frozen=True, slots=True)
class ScatterTile:
    space: Any
    base: int
    indices: np.ndarray
    esz: int
    limit: int | None
    slm: bool
    origin: str = ""

    def moved(self, delta: np.ndarray) -> ScatterTile:
        """``update_tile_offset`` vector form (§3.5): ``indices + delta`` element-wise."""
        return replace(self, indices=self.indices + np.asarray(delta, np.int64).reshape(self.indices.shape))


def _wrap64(v: int) -> int:
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


def pack_blocks(m: np.ndarray, bh: int, bw: int) -> np.ndarray:
    """Appendix A.1: ``B[a][b][i][j] = M[a·bh + i][b·bw + j]`` over the last two dims of ``m`` (leading dims kept)."""
    *lead, h, w = m.shape
    return np.ascontiguousarray(np.asarray(m).reshape(*lead, h // bh, bh, w // bw, bw).swapaxes(-3, -2))


def unpack_blocks(b: np.ndarray) -> np.ndarray:
    """The inverse of :func:`pack_blocks`: ``[..., H/bh, W/bw, bh, bw]`` -> ``[..., H, W]``."""
    *lead, ga, gb, bh, bw = b.shape
    return np.ascontiguousarray(np.asarray(b).swapaxes(-3, -2).reshape(*lead, ga * bh, gb * bw))
