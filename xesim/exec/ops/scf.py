"""scf dialect semantics (MLIR SCF dialect docs): for with iter_args, if, while/condition, execute_region,
parallel/reduce, yield.  Loop bounds are signed; a loop whose step is not positive is an error (MLIR
requires a positive step).

On the instance axis (:mod:`xesim.exec.axis`) a condition or a trip count may differ between slots (work-items
at lane level, spec/programs-and-runner.md §3.2 SIMT; subgroups of a batch).  The hardware runs such code with
SIMD channel masks; xesim does the same, and this is the only place the mask changes:

* ``scf.if`` on a slot-dependent condition runs the then-region with the slots where it holds and the else-region
  with the others; each result takes, per slot, the value of the region that slot executed.  When every active
  slot agrees, only that region runs, with the mask unchanged.
* ``scf.for`` with slot-dependent bounds or step: each slot runs its own trip count; iteration ``t`` runs with
  the slots whose induction variable is still below their upper bound; a slot that has finished keeps its
  loop-carried values.
* ``scf.while``: slots whose condition is false leave the loop with the values ``scf.condition`` forwarded; the
  loop goes on with the others until none is left.

Subgroups of a lockstep batch (:mod:`xesim.exec.batch`) diverge the same way.  When a branch of a divergent
``scf.if`` synchronises (an op with the ``barrier`` trait in it), the two branches run as groups that interleave at
barriers (:meth:`xesim.exec.lockstep.Lockstep.fork`): the producers and consumers of a named-barrier pipeline wait for
each other.
Host ``scf.for`` nests are compiled to native code when possible (:mod:`xesim.exec.jit`).

Every iteration of ``scf.for``, ``scf.while`` and ``scf.parallel`` is a step of the run's budget and polls its stop
flag and deadline now and then (:mod:`xesim.exec.guard`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.axis import Varying, merge, uniform_value
from xesim.exec.faults import ExecFault
from xesim.exec.region import run_region
from xesim.exec.registry import impl
from xesim.hw.memory import MemoryFault


def _active_where(v: Any, mask: tuple[int, ...], want: bool) -> tuple[int, ...]:
    """The slots of ``mask`` where the condition ``v`` is ``want``."""
    arr = v.arr
    if arr is not None and arr.ndim == 1 and len(mask) == arr.shape[0]:  # every slot active
        return tuple(np.flatnonzero(arr.astype(bool) == want).tolist())
    return tuple(i for i in mask if bool(v.lanes[i]) == want)


def synchronises(region: Any, engine: Any) -> bool:
    """Whether an op with the ``barrier`` trait is anywhere in ``region`` (nested regions included)."""
    return id(region) in engine.synchronising_regions()


@impl("scf.yield", "scf.reduce.return")
def _yield(op: Any, cx: Any):
    slots = cx.slots(op.operands)
    return lambda fr: (None, [fr[s] for s in slots])


@impl("scf.condition")
def _condition(op: Any, cx: Any):
    slots = cx.slots(op.operands)
    return lambda fr: (None, [fr[s] for s in slots])


@impl("scf.for", axis=True)
def _for(op: Any, cx: Any):
    """Host nests: the compiled loop nest rooted at this op when possible (:mod:`xesim.exec.jit`), else the
    interpreter's."""
    if cx.width == 1:
        return cx.engine.compile_loop(op, cx, _for_interpreted)
    return _for_interpreted(op, cx)


def _for_interpreted(op: Any, cx: Any):
    ks = cx.engine.kstate
    g = cx.engine.guard  # every iteration is a step (xesim/exec/guard.py)
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
        vals = [fr[i] for i in inits]
        if isinstance(lo, Varying) or isinstance(hi, Varying) or isinstance(s, Varying):
            mask = ks.mask
            lo, hi, s = (uniform_value(v, mask, "") if _agree(v, mask) else v for v in (lo, hi, s))
            if isinstance(lo, Varying) or isinstance(hi, Varying) or isinstance(s, Varying):
                vals = _divergent_for(fr, lo, hi, s, vals)
                for r, v in zip(res, vals):
                    fr[r] = v
                return
        if s <= 0:
            raise ExecFault(f"step must be positive, got {s}")
        if simple and not carried_slots:
            # fast path: no loop-carried values, single block
            ops = entry.ops
            for iv in range(lo, hi, s):
                if g.left <= g.check:
                    g.poll_steps(op)
                g.left -= 1
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
            if g.left <= g.check:
                g.poll_steps(op)
            g.left -= 1
            vals = run_region(body, fr, [iv, *vals])
        for r, v in zip(res, vals):
            fr[r] = v

    def _divergent_for(fr: list, lo: Any, hi: Any, s: Any, vals: list) -> list:
        mask = ks.mask
        n = ks.slots
        los = {i: (lo.lanes[i] if isinstance(lo, Varying) else lo) for i in mask}
        his = {i: (hi.lanes[i] if isinstance(hi, Varying) else hi) for i in mask}
        sts = {i: (s.lanes[i] if isinstance(s, Varying) else s) for i in mask}
        for i in mask:
            if sts[i] <= 0:
                ks.slot = i
                raise ExecFault(f"step must be positive, got {sts[i]}")
        t = 0
        try:
            while True:
                ivs = {i: los[i] + t * sts[i] for i in mask}
                active = tuple(i for i in mask if ivs[i] < his[i])
                if not active:
                    break
                ks.mask = active
                if g.left <= g.check:
                    g.poll_steps(op)
                g.left -= 1
                iv = Varying([ivs.get(i) for i in range(n)])
                new = run_region(body, fr, [iv, *vals])
                vals = [merge(active, nv, ov, n) for nv, ov in zip(new, vals)]
                t += 1
        finally:
            ks.mask = mask
        return vals

    return step


def _agree(v: Any, mask: tuple[int, ...]) -> bool:
    """Whether every active slot holds the same value of ``v``."""
    if not isinstance(v, Varying):
        return True
    items = v.lanes
    first = items[mask[0]] if mask else None
    return all(items[i] == first for i in mask)


@impl("scf.if", axis=True)
def _if(op: Any, cx: Any):
    ks = cx.engine.kstate
    c = cx.slot(op.operands[0])
    res = cx.slots(op.results)
    then = cx.compile_region(op.regions[0])
    other = cx.compile_region(op.regions[1]) if len(op.regions) > 1 and not op.regions[1].empty else None
    sync = any(synchronises(r, cx.engine) for r in op.regions)

    def step(fr: list) -> None:
        cond = fr[c]
        if isinstance(cond, Varying):
            mask = ks.mask
            on = _active_where(cond, mask, True)
            if len(on) == len(mask):
                cond = True
            elif not on:
                cond = False
            else:
                taken = set(on)
                off = tuple(i for i in mask if i not in taken)
                if sync and ks.lockstep is not None:  # subgroups of a lockstep batch that meet at barriers
                    tvals, evals = ks.lockstep.fork([(on, lambda: run_region(then, fr)),
                                                     (off, lambda: run_region(other, fr) if other is not None
                                                      else [None] * len(res))])
                else:
                    try:
                        ks.mask = on
                        tvals = run_region(then, fr)
                        if other is not None:
                            ks.mask = off
                            evals = run_region(other, fr)
                        else:
                            evals = [None] * len(res)
                    finally:
                        ks.mask = mask
                n = ks.slots
                for r, tv, ev in zip(res, tvals, evals):
                    fr[r] = merge(on, tv, ev if ev is not None else Varying([None] * n), n)
                return
        if cond:
            vals = run_region(then, fr)
        elif other is not None:
            vals = run_region(other, fr)
        else:
            return
        for r, v in zip(res, vals):
            fr[r] = v

    return step


@impl("scf.while", axis=True)
def _while(op: Any, cx: Any):
    ks = cx.engine.kstate
    inits = cx.slots(op.operands)
    res = cx.slots(op.results)
    before = cx.compile_region(op.regions[0])
    after = cx.compile_region(op.regions[1])
    g = cx.engine.guard  # every iteration is a step (xesim/exec/guard.py)

    def step(fr: list) -> None:
        mask = ks.mask
        n = ks.slots
        vals = [fr[i] for i in inits]
        exits: list[Any] | None = None  # results of slots that already left the loop
        try:
            while True:
                if g.left <= g.check:
                    g.poll_steps(op)
                g.left -= 1
                cond, *args = run_region(before, fr, vals)
                live = ks.mask
                if isinstance(cond, Varying):
                    go = _active_where(cond, live, True)
                    if len(go) == len(live):
                        cond = True
                    elif not go:
                        cond = False
                    else:
                        stop = tuple(i for i in live if i not in go)
                        exits = [merge(stop, a, e if exits is not None else Varying([None] * n), n)
                                 for a, e in zip(args, exits or [None] * len(args))]
                        ks.mask = go
                        vals = run_region(after, fr, args)
                        continue
                if not cond:
                    if exits is not None:
                        args = [merge(live, a, e, n) for a, e in zip(args, exits)]
                    break
                vals = run_region(after, fr, args)
        finally:
            ks.mask = mask
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
    g = cx.engine.guard  # every iteration is a step (xesim/exec/guard.py)

    def step(fr: list) -> None:
        import itertools

        ranges = []
        for lo, hi, s in zip(lbs, ubs, sts):
            if fr[s] <= 0:
                raise ExecFault(f"step must be positive, got {fr[s]}")
            ranges.append(range(fr[lo], fr[hi], fr[s]))
        acc = [fr[i] for i in inits]
        for ivs in itertools.product(*ranges):
            if g.left <= g.check:
                g.poll_steps(op)
            g.left -= 1
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
