"""Footprints of the XeTile memory ops for the race detector (xesim/observe/races.py): the exact bytes each op
reads or writes, from the same descriptors the executor uses (xesim/exec/tiles.py; shared/spec/xetile.md §3.1
address and in-bounds rule, §3.12–§3.13 enabled elements).  Out-of-bounds elements of a block tile are not
accessed; ``prefetch_tile`` has no architectural effect.  The kinds (read, write, atomic) are the detector's."""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.tiles import BlockTile, ScatterTile


def _block(t: BlockTile, h: int, w: int, kind: str) -> list:
    y, x, inb = t.coordinates(h, w)
    if not inb.any():
        return []
    addrs = t.base + t.element_offsets(y[inb], x[inb]) * t.esz
    return [(t.space, np.asarray(addrs, np.int64), t.esz, kind)]


def _scattered(t: ScatterTile, mask: np.ndarray | None, kind: str) -> list:
    offs = t.indices.reshape(-1)
    if mask is not None:
        offs = offs[np.asarray(mask, bool).reshape(-1)]
    return [(t.space, np.asarray(t.base + offs * t.esz, np.int64), t.esz, kind)]


def footprints(read: str, write: str, atomic: str) -> dict[str, Any]:
    """``{op name: make(op, cx) -> fp(frame) -> [(space, start addresses, bytes, kind)]}`` for XeTile."""

    def tile_op(tile_name: str, kind: str, widen: bool):
        def make(op: Any, cx: Any):
            tv = op.operand_group(tile_name)[0]
            s_t = cx.slot(tv)
            h, w = tv.type.shape
            if widen:
                w *= tv.type.array_length

            def fp(fr: list) -> list:
                t = fr[s_t]
                return _scattered(t, None, kind) if isinstance(t, ScatterTile) else _block(t, h, w, kind)

            return fp

        return make

    def masked(kind: str):
        def make(op: Any, cx: Any):
            s_t, s_m = cx.slot(op.operand_group("tile")[0]), cx.slot(op.operand_group("mask")[0])
            return lambda fr: _scattered(fr[s_t], fr[s_m], kind)

        return make

    return {
        "xetile.load_tile": tile_op("source", read, True),
        "xetile.store_tile": tile_op("tile", write, False),
        "xetile.atomic_rmw": tile_op("tile", atomic, False),
        "xetile.load": masked(read),
        "xetile.store": masked(write),
    }
