"""func dialect semantics: calls (incl. recursion and multiple results), returns, external runtime calls."""

from __future__ import annotations

from typing import Any

from xesim.exec.axis import lift
from xesim.exec.faults import ExecFault
from xesim.exec.registry import impl


@impl("func.func", "gpu.func", "gpu.module", "builtin.module")
def _no_effect(op: Any, cx: Any) -> None:
    return None


@impl("func.return", "gpu.return")
def _return(op: Any, cx: Any):
    slots = cx.slots(op.operands)

    def term(fr: list) -> tuple:
        return None, [fr[s] for s in slots]

    return term


@impl("func.call", axis=True)
def _call(op: Any, cx: Any):
    """A call of a function with a body runs that function's code compiled for the same instance axis, under the
    current mask; a call of an external (runtime) function is an effect of each instance (it runs once per active
    slot, :func:`xesim.exec.axis.lift`)."""
    engine = cx.engine
    callee_ref = op.attributes["callee"]
    args = cx.slots(op.operands)
    res = cx.slots(op.results)
    callee = engine.lookup(tuple(callee_ref.path))
    if callee is None or callee.regions[0].empty:
        name = callee_ref.leaf
        key = name[len("_mlir_ciface_"):] if name.startswith("_mlir_ciface_") else name
        fn = engine.externals.get(key)  # the runtime utilities the engine was given (xesim/runtime)
        if fn is None:
            def missing(fr: list) -> None:
                raise ExecFault(f"calls external function @{name}, which xesim does not provide")

            return missing
        arg_types = [v.type for v in op.operands]

        def ext_step(fr: list) -> None:
            out = fn(engine, [fr[s] for s in args], arg_types)
            if res:
                if len(res) == 1:
                    fr[res[0]] = out
                else:
                    for s, v in zip(res, out):
                        fr[s] = v

        return lift(op, cx, ext_step, always=True) if cx.width > 1 else ext_step

    holder: list = []
    limit = engine.config.max_call_depth

    def step(fr: list) -> None:
        if not holder:
            holder.append(engine.function_code(callee, cx.width, cx.group))
        depth = engine.call_depth
        if depth >= limit:
            raise ExecFault(f"call depth exceeded: more than {limit} nested calls (the limit is --max-call-depth "
                            f"/ max_call_depth; this call of @{callee_ref.leaf} would make {depth + 1})")
        engine.call_depth = depth + 1
        try:
            vals = holder[0].call([fr[s] for s in args])
        finally:
            engine.call_depth = depth
        for s, v in zip(res, vals):
            fr[s] = v

    return step
