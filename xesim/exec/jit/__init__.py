"""Compiled host code (ARCHITECTURE.md "Performance"): host ``scf.for`` loop nests compiled to native code
with numba, cross-checked bit for bit against the reference interpreter.

The ``scf.for`` implementation (:mod:`xesim.exec.ops.scf`) hands every loop to :func:`compile_for`, which
tries to compile the nest rooted at it (:mod:`xesim.exec.jit.codegen`); when the nest contains anything the
code generator does not handle, the interpreter's closure is used instead (nested loops then try on their
own).  The engine is chosen by the run configuration's ``engine`` (``XESIM_ENGINE``, read by
:mod:`xesim.api`):

``fast`` (default)
    compiled nests where possible, the interpreter elsewhere; a nest's small executions run in the interpreter
    until compiling it pays (:mod:`xesim.exec.jit.tier`);
``reference``
    never compile: the reference interpreter only;
``both``
    every compiled nest also runs in the interpreter on a copy of the memory it can reach, and the run stops
    with an error at the first difference (memory element, loop result or fault; see
    :meth:`xesim.exec.jit.runner.CompiledNest.both`).

Only host functions are compiled (loops inside ``gpu.func`` kernels always run in the interpreter), and none while
an observer that follows every host op is subscribed (``Observer.sees_host_ops``, :mod:`xesim.exec.hooks`).
``XESIM_JIT_DEBUG=1`` prints why a nest was not compiled; compiled code is cached in ``XESIM_CACHE_DIR``
(see :mod:`xesim.exec.jit.runner`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

ENGINE_MODES = ("fast", "reference", "both")

__all__ = ["ENGINE_MODES", "compile_for"]


def _in_kernel(op: Any, cx: Any = None) -> bool:
    """Whether ``op`` is inside a kernel (``gpu.func``, ``gpu.module`` or ``gpu.launch``).  The answer for each
    enclosing op is remembered on the compiler ``cx``, so the loops of a nest 10,000 deep cost a walk of their
    depth once, not each."""
    memo = {} if cx is None else cx.__dict__.setdefault("_xesim_in_kernel", {})
    p = op.parent_op() if callable(getattr(op, "parent_op", None)) else None
    passed = []
    found = False
    while p is not None:
        known = memo.get(id(p))
        if known is not None:
            found = known
            break
        if p.name in ("gpu.func", "gpu.module", "gpu.launch"):
            found = True
            break
        passed.append(p)
        p = p.parent_op()
    for q in passed:
        memo[id(q)] = found
    return found


def _nesting_heights(cx: Any) -> dict[int, int]:
    """For every op of the function ``cx`` compiles, how deep regions nest inside it (0: none), computed once per
    compiler by an explicit-stack post-order walk (the loops of a nest 10,000 deep each ask)."""
    heights = cx.__dict__.get("_xesim_nesting")
    if heights is None:
        heights = cx._xesim_nesting = {}
        stack = [(cx.func_op, False)]
        while stack:
            op, children_done = stack.pop()
            inner = [o for r in op.regions for b in r.blocks for o in b.ops]
            if children_done or not inner:
                heights[id(op)] = max((heights[id(o)] + 1 for o in inner), default=1 if op.regions else 0)
            else:
                stack.append((op, True))
                stack.extend((o, False) for o in inner)
    return heights


def compile_for(op: Any, cx: Any, interpret: Callable[[Any, Any], Any]) -> Any:
    """The step for ``scf.for`` ``op``: the compiled nest rooted at it, or ``interpret(op, cx)``."""
    mode = cx.engine.config.engine
    if mode == "reference" or getattr(cx, "_xesim_jit_off", False) or _in_kernel(op, cx):
        return interpret(op, cx)
    from xesim.exec.hooks import host_ops_reason

    watcher = host_ops_reason(cx.engine)
    if watcher is not None:  # an observer wraps each host op's step (xesim/exec/hooks.py)
        from xesim.exec.jit import runner

        runner.debug(f"loop at {op.loc} is interpreted: {watcher} follows every host op")
        return interpret(op, cx)
    from xesim.exec.jit import codegen, runner

    if _nesting_heights(cx).get(id(op), 0) > codegen.MAX_NEST_DEPTH:
        runner.debug(f"loop at {op.loc} is interpreted: regions nested deeper than {codegen.MAX_NEST_DEPTH} in it")
        return interpret(op, cx)
    try:
        nest = codegen.generate(op)
    except codegen.Unsupported as exc:
        runner.STATS["unsupported"] += 1
        runner.debug(f"loop at {op.loc} is interpreted: {exc}")
        return interpret(op, cx)
    runner.STATS["generated"] += 1
    prev = getattr(cx, "_xesim_jit_off", False)
    cx._xesim_jit_off = True  # the reference closure of this nest is pure interpreter
    try:
        ref = interpret(op, cx)
    finally:
        cx._xesim_jit_off = prev
    return runner.CompiledNest(nest, cx, ref, mode).step
