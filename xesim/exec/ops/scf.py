"""scf dialect semantics (MLIR SCF dialect docs): for with iter_args, if, while/condition, execute_region,
parallel/reduce, yield.  Loop bounds are signed; a loop whose step is not positive is an error (MLIR
requires a positive step)."""

from __future__ import annotations

from typing import Any

from xesim.exec.interpreter import ExecFault, run_region
from xesim.exec.registry import impl
from xesim.hw.memory import MemoryFault


@impl("scf.yield", "scf.reduce.return")
def _yield(op: Any, cx: Any):
    slots = cx.slots(op.operands)
    return lambda fr: (None, [fr[s] for s in slots])


@impl("scf.condition")
def _condition(op: Any, cx: Any):
    slots = cx.slots(op.operands)
    return lambda fr: (None, [fr[s] for s in slots])


@impl("scf.for")
def _for(op: Any, cx: Any):
    """The compiled loop nest rooted at this op when possible (:mod:`xesim.exec.jit`), else the interpreter's."""
    from xesim.exec.jit import compile_for

    return compile_for(op, cx, _for_interpreted)


def _for_interpreted(op: Any, cx: Any):
    lb, ub, st = cx.slots(op.operands[:3])
    inits = cx.slots(op.operands[3:])
    res = cx.slots(op.results)
    body = cx.compile_region(op.regions[0])
    entry = body.entry
    iv_slot = entry.arg_slots[0]
    carried_slots = entry.arg_slots[1:]
    steps = entry.steps
    simple = len(body.blocks) == 1

    def step(fr: list) -> None:
        lo, hi, s = fr[lb], fr[ub], fr[st]
        if s <= 0:
            raise ExecFault(f"step must be positive, got {s}")
        vals = [fr[i] for i in inits]
        if simple and not carried_slots:
            # fast path: no loop-carried values, single block
            ops = entry.ops
            for iv in range(lo, hi, s):
                fr[iv_slot] = iv
                i = 0
                try:
                    for f in steps:
                        f(fr)
                        i += 1
                except ExecFault as exc:
                    if exc.op is None:
                        exc.op = ops[i] if i < len(ops) else None
                    raise
                except (MemoryFault, ZeroDivisionError, OverflowError, FloatingPointError) as exc:
                    raise ExecFault(str(exc), ops[i] if i < len(ops) else None) from exc
            return
        for iv in range(lo, hi, s):
            vals = run_region(body, fr, [iv, *vals])
        for r, v in zip(res, vals):
            fr[r] = v

    return step


@impl("scf.if")
def _if(op: Any, cx: Any):
    c = cx.slot(op.operands[0])
    res = cx.slots(op.results)
    then = cx.compile_region(op.regions[0])
    other = cx.compile_region(op.regions[1]) if len(op.regions) > 1 and not op.regions[1].empty else None

    def step(fr: list) -> None:
        if fr[c]:
            vals = run_region(then, fr)
        elif other is not None:
            vals = run_region(other, fr)
        else:
            return
        for r, v in zip(res, vals):
            fr[r] = v

    return step


@impl("scf.while")
def _while(op: Any, cx: Any):
    inits = cx.slots(op.operands)
    res = cx.slots(op.results)
    before = cx.compile_region(op.regions[0])
    after = cx.compile_region(op.regions[1])

    def step(fr: list) -> None:
        vals = [fr[i] for i in inits]
        while True:
            cond, *args = run_region(before, fr, vals)
            if not cond:
                break
            vals = run_region(after, fr, args)
        for r, v in zip(res, args):
            fr[r] = v

    return step


@impl("scf.execute_region")
def _execute_region(op: Any, cx: Any):
    res = cx.slots(op.results)
    body = cx.compile_region(op.regions[0])

    def step(fr: list) -> None:
        vals = run_region(body, fr)
        for r, v in zip(res, vals):
            fr[r] = v

    return step


@impl("scf.parallel")
def _parallel(op: Any, cx: Any):
    n = (len(op.operands) - len(op.results)) // 3
    lbs = cx.slots(op.operands[:n])
    ubs = cx.slots(op.operands[n : 2 * n])
    sts = cx.slots(op.operands[2 * n : 3 * n])
    inits = cx.slots(op.operands[3 * n :])
    res = cx.slots(op.results)
    body = cx.compile_region(op.regions[0])
    reduce_op = op.regions[0].blocks[-1].ops[-1]
    reducers = [cx.compile_region(r) for r in reduce_op.regions] if reduce_op.name == "scf.reduce" else []

    def step(fr: list) -> None:
        import itertools

        ranges = []
        for lo, hi, s in zip(lbs, ubs, sts):
            if fr[s] <= 0:
                raise ExecFault(f"step must be positive, got {fr[s]}")
            ranges.append(range(fr[lo], fr[hi], fr[s]))
        acc = [fr[i] for i in inits]
        for ivs in itertools.product(*ranges):
            partial = run_region(body, fr, list(ivs))
            for k, red in enumerate(reducers):
                acc[k] = run_region(red, fr, [acc[k], partial[k]])[0]
        for r, v in zip(res, acc):
            fr[r] = v

    return step


@impl("scf.reduce")
def _reduce(op: Any, cx: Any):
    slots = cx.slots(op.operands)
    return lambda fr: (None, [fr[s] for s in slots])
