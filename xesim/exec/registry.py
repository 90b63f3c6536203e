"""``@impl("dialect.op")``: registers the compile function giving an op its semantics (one per op).

A compile function ``fn(op, cx) -> step`` receives the op and the :class:`xesim.exec.region.Compiler` and
returns ``step(frame)`` (or ``None`` for ops without a run-time effect); for terminators it returns
``term(frame) -> (target_block_index | None, values)``.  An implementation reads ``cx.engine`` (memory, target
parameters, output, run configuration) and ``cx.engine.kstate`` (the executing workgroup, its instances and their
ids, its SLM).

``axis=True`` declares that the step handles the instance axis itself (:mod:`xesim.exec.axis`: operands may be
:class:`~xesim.exec.axis.Varying`, ``kstate.mask`` names the active slots); any other implementation is written for
one instance and the compiler lifts it onto the axis (:func:`xesim.exec.axis.lift`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

IMPLS: dict[str, Callable[[Any, Any], Any]] = {}
#: ops whose implementation handles the instance axis itself
AXIS: set[str] = set()
#: ops whose implementation splits a batch's work over numba's threads (xesim/exec/parallel.py threaded_kernel)
THREADED: set[str] = set()
#: axis-aware ops that reach each instance's own copy of banked shared local memory themselves
BANKED: set[str] = set()


def impl(*names: str, axis: bool = False, threaded: bool = False, banked: bool = False):
    """Register ``fn`` as the implementation of ``names``; ``axis``: it handles the instance axis itself;
    ``threaded``: its batched form runs its work in numba's parallel loops; ``banked``: its axis form reaches each
    instance's own copy of banked shared local memory (:class:`xesim.hw.memory.BankedSpace`) itself (an axis-aware
    op that accesses shared local memory without it runs once per workgroup of a batch)."""
    def wrap(fn):
        for name in names:
            if name in IMPLS:
                raise ValueError(f"duplicate implementation of {name}")
            IMPLS[name] = fn
            if axis:
                AXIS.add(name)
            if threaded:
                THREADED.add(name)
            if banked:
                BANKED.add(name)
        return fn

    return wrap
