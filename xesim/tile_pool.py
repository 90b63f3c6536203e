"""Recycled arrays for the large tiles a batched kernel makes at every step (issue 7; ARCHITECTURE.md
"Performance"): DPAS results and decoded B operands (xesim/numerics/dpas.py), block-load gathers
(xesim/exec/batch.py), VNNI packing (xesim/exec/vnni.py).

:func:`empty` is ``np.empty`` for C-contiguous arrays of at least :data:`MIN_BYTES`, with two differences:

* **Recycling.**  Each tile is kept in a pool after it is handed out and is handed out again, for the same
  shape and dtype, once nothing else references it: the pool's own references are the only ones left to the
  tile and to the root array every view of it points to (numpy collapses a view's ``base`` to the first array
  whose base is not an array, here the tile's root; so a view, a reshape or a read-only view of the tile keeps
  it in use).  A kernel step then reuses the tiles the previous step dropped: the memory it writes stays the
  same few megabytes.
* **Memory not shared with a forked process.**  Tiles are carved from anonymous regions of this module's own
  (``mmap``, 2 MiB aligned, ``MADV_HUGEPAGE``).  After ``os.fork`` (``--jobs N``: xesim/exec/parallel.py) both
  the parent and the child start a new pool (``os.register_at_fork``): their tiles come from regions made after
  the fork, which the kernel fills with zeroed huge pages (about 0.4 us per 4 KiB) instead of copying every
  4 KiB page written after the fork (about 3 us each on the 2-core CI machine, and a kernel step writes
  several megabytes).  Tiles alive at the fork keep their memory, shared copy-on-write as before.

Like ``np.empty``, a tile's contents are undefined: callers overwrite every element.  Tiles handed out and
tiles given back by the pool are never the same while the first is referenced, whatever thread asks (a lock).

The pool holds at most :data:`MAX_BYTES`; when a new tile would pass that, the pool forgets every tile (tiles
in use stay valid, owned by their users) and starts again.  ``XESIM_TILE_POOL=0`` turns the pool off
(``np.empty`` everywhere); so does a platform without anonymous ``mmap``, or an interpreter whose reference
counts do not say what the pool assumes (:func:`refcounts_tell_free_tiles`, checked at import: e.g. a
free-threaded build).
"""

from __future__ import annotations

import ctypes
import math
import mmap
import os
import sys
import threading
from typing import Any

import numpy as np

#: smaller arrays come from ``np.empty`` (malloc's bins serve them well; recycling them would cost more than it saves)
MIN_BYTES = 64 << 10
#: bytes of tiles the pool may hold (in use or free) before it starts again
MAX_BYTES = 256 << 20
#: size of the regions tiles are carved from (address space; memory only as tiles are written)
REGION_BYTES = 64 << 20
_HUGE_PAGE = 2 << 20
_ALIGN = 64
_MADV_HUGEPAGE = 14  # linux/mman.h


def _madvise_huge(addr: int, size: int) -> None:
    """Ask for transparent huge pages on ``[addr, addr + size)`` (a hint: ignored where unavailable)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.madvise(ctypes.c_void_p(addr), ctypes.c_size_t(size), _MADV_HUGEPAGE)
    except (OSError, AttributeError):
        pass


class TilePool:
    """The pool (module docstring).  ``enabled`` False: :meth:`empty` is ``np.empty``."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.reset()

    def reset(self) -> None:
        """Forget every tile and region (tiles in use stay valid: their users own them); the next tiles come from
        a new region.  Called in both processes after a fork."""
        self._lock = threading.Lock()
        self._tiles: dict[tuple, list[tuple[np.ndarray, np.ndarray]]] = {}  # (shape, dtype) -> [(root, tile)]
        self._region: memoryview | None = None
        self._top = 0
        self.bytes = 0  # bytes of the tiles the pool holds

    def empty(self, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        """An uninitialised C-contiguous array of ``shape`` and ``dtype``, recycled when it is large (module
        docstring)."""
        dt = np.dtype(dtype)
        nbytes = math.prod(shape) * dt.itemsize
        if not self.enabled or nbytes < MIN_BYTES:
            return np.empty(shape, dt)
        key = (shape, dt)
        with self._lock:
            entries = self._tiles.get(key)
            if entries is None:
                entries = self._tiles[key] = []
            for entry in entries:
                if _is_free(entry):
                    tile = entry[1]
                    break
            else:
                tile = self._new_tile(key, nbytes)
        if not tile.flags.writeable:  # made read-only by a user that has dropped it since
            tile.flags.writeable = True
        return tile

    def _new_tile(self, key: tuple, nbytes: int) -> np.ndarray:
        if self.bytes + nbytes > MAX_BYTES:
            self._tiles, self.bytes = {key: []}, 0
        size = (nbytes + _ALIGN - 1) // _ALIGN * _ALIGN
        if self._region is None or self._top + size > len(self._region):
            self._region, self._top = _new_region(max(REGION_BYTES, size)), 0
        root = np.frombuffer(self._region[self._top:self._top + nbytes], np.uint8)
        self._top += size
        shape, dt = key
        tile = root.view(dt).reshape(shape)
        self._tiles[key].append((root, tile))
        self.bytes += nbytes
        return tile


def _new_region(size: int) -> memoryview:
    """``size`` bytes of fresh anonymous private memory, 2 MiB aligned, with the huge-page hint."""
    mm = mmap.mmap(-1, size + _HUGE_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    view = memoryview(mm)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(mm))
    start = -addr % _HUGE_PAGE
    _madvise_huge(addr + start, size)
    return view[start:start + size]


def _is_free(entry: tuple[np.ndarray, np.ndarray]) -> bool:
    """Whether the pool's ``(root, tile)`` entry is the only holder of its tile and of every view of it: the tile is
    referenced by the entry only (``getrefcount`` counts its argument too), its root by the entry and the tile's
    ``.base`` only (a view's ``.base`` is the root)."""
    return sys.getrefcount(entry[1]) == 2 and sys.getrefcount(entry[0]) == 3


def refcounts_tell_free_tiles() -> bool:
    """Whether this interpreter's reference counts say what :meth:`TilePool.empty` relies on (CPython with a GIL:
    an entry alone is free; a view of its tile, or another name for it, makes it busy).  False turns the pool off
    rather than risk handing out a tile in use."""
    if not getattr(sys, "_is_gil_enabled", lambda: True)():
        return False
    root = np.frombuffer(bytearray(64), np.uint8)
    entry = (root, root.view(np.float32))
    del root
    alone = _is_free(entry)
    view = entry[1][1:]
    with_view = _is_free(entry)
    del view
    name = entry[1]
    with_name = _is_free(entry)
    del name
    return alone and not with_view and not with_name and _is_free(entry)


POOL = TilePool(enabled=os.environ.get("XESIM_TILE_POOL", "1").strip() != "0"
                and hasattr(mmap, "MAP_ANONYMOUS") and hasattr(mmap, "MAP_PRIVATE") and refcounts_tell_free_tiles())
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=POOL.reset, after_in_parent=POOL.reset)


def empty(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """:meth:`TilePool.empty` of the process's pool."""
    return POOL.empty(shape, dtype)
