"""``@impl("dialect.op")``: registers the compile function giving an op its semantics.

A compile function ``fn(op, cx) -> step`` receives the op and the :class:`xesim.exec.interpreter.Compiler`
and returns ``step(frame)`` (or ``None`` for ops without a run-time effect); for terminators it returns
``term(frame) -> (target_block_index | None, values)``.  Plug points for later issues (XeGPU ops) are the
same: an implementation reads ``cx.engine`` (memory, target parameters, output) and
``cx.engine.kstate`` (the executing workgroup / subgroup / lane ids, its SLM).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

IMPLS: dict[str, Callable[[Any, Any], Any]] = {}


def impl(*names: str):
    def wrap(fn):
        for name in names:
            if name in IMPLS:
                raise ValueError(f"duplicate implementation of {name}")
            IMPLS[name] = fn
        return fn

    return wrap
