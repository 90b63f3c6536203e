"""Lowering check (issue 30 item 5, ``xesim run --compare-with LOWERED prog.mlir``): record every buffer the host
reads back from the device, so that two programs — an XeGPU program and its lowering — can be compared buffer by
buffer, naming the first differing element.

A *read-back* is a ``gpu.memcpy`` from device memory (``gpu.alloc``) to memory that is not device memory (host
``memref.alloc``, globals): what a host program can observe of its kernels.  The recorder keeps, in program order,
each read-back's location and the destination's logical contents after the copy.  Two runs agree when they read
back the same number of buffers with equal shapes, element types and bits (NaNs compare by their bits too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from xesim.exec.hooks import Observer


@dataclass(frozen=True)
class Readback:
    """One buffer the host read back: where (``file:line:col`` of the ``gpu.memcpy``) and its contents."""

    where: str
    data: np.ndarray


class ReadbackRecorder(Observer):
    """Observer recording the read-backs of a run (module docstring)."""

    name = "the read-back recorder (--compare-with)"

    def __init__(self) -> None:
        self.readbacks: list[Readback] = []

    def instrument(self, op: Any, cx: Any, step: Any, is_term: bool) -> Any:
        if op.name != "gpu.memcpy" or step is None or is_term:
            return step
        dst, src = cx.slot(op.operand_group("dst")[0]), cx.slot(op.operand_group("src")[0])
        memory = cx.engine.memory
        where = str(op.loc)

        def kind(v: Any) -> str | None:
            a = memory.allocation_at(getattr(v, "aligned", -1))
            return a.kind if a is not None else None

        def recorded(fr: list) -> None:
            step(fr)
            d, s = fr[dst], fr[src]
            if kind(s) == "device" and kind(d) != "device":
                self.readbacks.append(Readback(where, np.array(d.logical_array(), copy=True)))

        return recorded


def _text(x: Any) -> str:
    return repr(x.item()) if hasattr(x, "item") else repr(x)


def first_difference(ours: list[Readback], theirs: list[Readback], other_name: str) -> str | None:
    """None when the two runs read back the same buffers, else a message naming the first difference: a missing
    read-back, a shape or type mismatch, or the first differing element (row-major order) with both values."""
    for i, (a, b) in enumerate(zip(ours, theirs)):
        head = f"read-back #{i + 1} (gpu.memcpy at {a.where}; {other_name}: {b.where})"
        if a.data.shape != b.data.shape or a.data.dtype != b.data.dtype:
            return (f"{head}: shape/type {list(a.data.shape)} {a.data.dtype} differs from {list(b.data.shape)} "
                    f"{b.data.dtype}")
        ua = a.data.reshape(-1).view(np.dtype(f"u{a.data.dtype.itemsize}"))
        ub = b.data.reshape(-1).view(np.dtype(f"u{b.data.dtype.itemsize}"))
        bad = np.flatnonzero(ua != ub)
        if bad.size:
            idx = tuple(int(j) for j in np.unravel_index(int(bad[0]), a.data.shape))
            return (f"{head}: first difference at element {list(idx)}: {_text(a.data[idx])} here, "
                    f"{_text(b.data[idx])} in {other_name} ({bad.size} of {a.data.size} elements differ)")
    if len(ours) != len(theirs):
        return (f"the program reads back {len(ours)} buffer(s), {other_name} {len(theirs)}: the first "
                f"{min(len(ours), len(theirs))} agree")
    return None
