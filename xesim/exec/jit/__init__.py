"""Compiled host code (ARCHITECTURE.md "Performance"): host ``scf.for`` loop nests compiled to native code
with numba, cross-checked bit for bit against the reference interpreter.

The ``scf.for`` implementation (:mod:`xesim.exec.ops.scf`) hands every loop to :func:`compile_for`, which
tries to compile the nest rooted at it (:mod:`xesim.exec.jit.codegen`); when the nest contains anything the
code generator does not handle, the interpreter's closure is used instead (nested loops then try on their
own).  The engine is chosen by the run configuration's ``engine`` (``XESIM_ENGINE``, read by
:mod:`xesim.api`):

``fast`` (default)
    compiled nests where possible, the interpreter elsewhere;
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


def _in_kernel(op: Any) -> bool:
    p = op.parent_op() if callable(getattr(op, "parent_op", None)) else None
    while p is not None:
        if p.name in ("gpu.func", "gpu.module", "gpu.launch"):
            return True
        p = p.parent_op()
    return False


def compile_for(op: Any, cx: Any, interpret: Callable[[Any, Any], Any]) -> Any:
    """The step for ``scf.for`` ``op``: the compiled nest rooted at it, or ``interpret(op, cx)``."""
    mode = cx.engine.config.engine
    if mode == "reference" or getattr(cx, "_xesim_jit_off", False) or _in_kernel(op):
        return interpret(op, cx)
    from xesim.exec.hooks import host_ops_reason

    watcher = host_ops_reason(cx.engine)
    if watcher is not None:  # an observer wraps each host op's step (xesim/exec/hooks.py)
        from xesim.exec.jit import runner

        runner.debug(f"loop at {op.loc} is interpreted: {watcher} follows every host op")
        return interpret(op, cx)
    from xesim.exec.jit import codegen, runner

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
