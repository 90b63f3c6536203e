"""``vector.interleave`` / ``vector.deinterleave`` (MLIR vector dialect), used by upstream MX dequantisation
(shared/spec/upstream-xegpu-xevm.md §5): interleave puts ``lhs[..., i]`` at ``2i`` and ``rhs[..., i]`` at
``2i + 1`` of the trailing dimension; deinterleave takes the even and the odd elements apart.  Pure data
movement: the values keep their exact bits (any element type, MX types included)."""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.registry import impl


@impl("vector.interleave")
def _interleave(op: Any, cx: Any):
    a, b = cx.slot(op.operands[0]), cx.slot(op.operands[1])
    o = cx.slot(op.results[0])
    shape = tuple(op.results[0].type.shape)

    def step(fr: list) -> None:
        x, y = np.asarray(fr[a]), np.asarray(fr[b])
        fr[o] = np.stack([x, y], axis=-1).reshape(shape)  # [..., n, 2] row-major = x0 y0 x1 y1 ...

    return step


@impl("vector.deinterleave")
def _deinterleave(op: Any, cx: Any):
    a = cx.slot(op.operands[0])
    o1, o2 = cx.slot(op.results[0]), cx.slot(op.results[1])

    def step(fr: list) -> None:
        x = np.asarray(fr[a])
        fr[o1] = np.ascontiguousarray(x[..., 0::2])
        fr[o2] = np.ascontiguousarray(x[..., 1::2])

    return step
