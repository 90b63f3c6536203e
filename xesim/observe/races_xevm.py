"""Footprints of the XeVM and LLVM memory ops for the race detector and the memory checker (xesim/observe/races.py,
memcheck.py): the exact bytes each op reads or writes, from the operands the executor reads
(xesim/exec/ops/xevm.py, llvm.py; shared/spec/upstream-xegpu-xevm.md §4.1-§4.4, §4.13).  A pointer is an address in
global memory.  2D block messages touch only the elements inside their surface (out-of-surface elements read as 0
and are dropped on stores); 1-D block I/O touches 16 x N consecutive elements.  Prefetches have no architectural
effect.  The kinds (read, write) are the detector's."""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.ops.llvm import value_nbytes
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

SUBGROUP = 16


def footprints(read: str, write: str) -> dict[str, Any]:
    """``{op name: make(op, cx) -> fp(frame) -> [(space, start addresses, bytes, kind)]}`` for XeVM / LLVM."""

    def pointer_op(ptr_index: int, value_type: Any, kind: str, lanes: int):
        def make(op: Any, cx: Any):
            s_p = cx.slot(op.operands[ptr_index])
            n = value_nbytes(value_type(op)) * lanes
            mem = cx.engine.memory

            def fp(fr: list) -> list:
                return [(mem, [int(fr[s_p])], n, kind)]

            return fp

        return make

    def block2d(kind: str):
        def make(op: Any, cx: Any):
            a = op.attributes
            esz = a["elem_size_in_bits"].value // 8
            tw, th = a["tile_width"].value, a["tile_height"].value
            vb = a["v_blocks"].value if "v_blocks" in a else 1
            slots = cx.slots(op.operands[:6])
            mem = cx.engine.memory

            def fp(fr: list) -> list:
                ptr, bw, bh, bp, x, y = (int(fr[s]) for s in slots)
                r0, r1 = max(y, 0), min(y + th, bh)
                c0, c1 = max(x, 0), min(x + tw * vb, bw // esz)
                if r1 <= r0 or c1 <= c0:
                    return []
                starts = ptr + np.arange(r0, r1, dtype=np.int64) * bp + c0 * esz
                return [(mem, starts, (c1 - c0) * esz, kind)]

            return fp

        return make

    def result(op: Any) -> T.Type:
        return op.results[0].type

    def operand(i: int):
        return lambda op: op.operands[i].type

    return {
        "llvm.load": pointer_op(0, result, read, 1),
        "llvm.store": pointer_op(1, operand(0), write, 1),
        "xevm.blockload": pointer_op(0, result, read, SUBGROUP),
        "xevm.blockstore": pointer_op(0, operand(1), write, SUBGROUP),
        "xevm.blockload2d": block2d(read),
        "xevm.blockstore2d": block2d(write),
    }
