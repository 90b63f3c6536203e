"""Control flow at lane level: scf.if / scf.for / scf.while under an active-lane mask, branches and calls.

spec/programs-and-runner.md §3.2 (SIMT): every work-item runs the kernel, so a condition or a trip count may
differ between the lanes of a subgroup.  The hardware runs such code with SIMD channel masks; xesim does the same
(:mod:`xesim.exec.lanes`):

* ``scf.if`` on a lane-dependent condition runs the then-region with the lanes where it holds and the else-region
  with the others; each result takes, per lane, the value of the region that lane executed.  When every active
  lane agrees, only that region runs, with the mask unchanged.
* ``scf.for`` with lane-dependent bounds or step: each lane runs its own trip count; iteration ``t`` runs with
  the lanes whose induction variable is still below their upper bound; a lane that has finished keeps its
  loop-carried values.
* ``scf.while``: lanes whose condition is false leave the loop with the values ``scf.condition`` forwarded; the
  loop goes on with the others until none is left.
* ``cf.cond_br`` / ``cf.switch`` (unstructured control flow) need a condition all active lanes agree on; a
  divergent branch is reported (structured control flow is what the XeGPU pipelines emit).
* ``func.call`` of a function with a body runs its lane-level compilation with the current mask.
"""

from __future__ import annotations

from typing import Any

from xesim.exec.interpreter import ExecFault, run_region
from xesim.exec.lanes import Varying, lane_impl, merge, per_lane, uniform_value
from xesim.exec.registry import IMPLS


def _active_where(v: Any, mask: tuple[int, ...], want: bool) -> tuple[int, ...]:
    return tuple(i for i in mask if bool(v.lanes[i]) == want)


@lane_impl("scf.if")
def _if(op: Any, cx: Any):
    ks = cx.engine.kstate
    c = cx.slot(op.operands[0])
    res = cx.slots(op.results)
    then = cx.compile_region(op.regions[0])
    other = cx.compile_region(op.regions[1]) if len(op.regions) > 1 and not op.regions[1].empty else None

    def step(fr: list) -> None:
        cond = fr[c]
        mask = ks.lane_mask
        if type(cond) is Varying:
            on = _active_where(cond, mask, True)
            if len(on) == len(mask):
                cond = True
            elif not on:
                cond = False
            else:
                off = tuple(i for i in mask if i not in on)
                try:
                    ks.lane_mask = on
                    tvals = run_region(then, fr)
                    if other is not None:
                        ks.lane_mask = off
                        evals = run_region(other, fr)
                    else:
                        evals = [None] * len(res)
                finally:
                    ks.lane_mask = mask
                n = ks.lane_count
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


@lane_impl("scf.for")
def _for(op: Any, cx: Any):
    ks = cx.engine.kstate
    lb, ub, st = cx.slots(op.operands[:3])
    inits = cx.slots(op.operands[3:])
    res = cx.slots(op.results)
    body = cx.compile_region(op.regions[0])

    def step(fr: list) -> None:
        lo, hi, s = fr[lb], fr[ub], fr[st]
        vals = [fr[i] for i in inits]
        if type(lo) is not Varying and type(hi) is not Varying and type(s) is not Varying:
            if s <= 0:
                raise ExecFault(f"step must be positive, got {s}")
            for iv in range(lo, hi, s):
                vals = run_region(body, fr, [iv, *vals])
        else:
            vals = _divergent_for(fr, lo, hi, s, vals)
        for r, v in zip(res, vals):
            fr[r] = v

    def _divergent_for(fr: list, lo: Any, hi: Any, s: Any, vals: list) -> list:
        mask = ks.lane_mask
        n = ks.lane_count
        los = {i: (lo.lanes[i] if type(lo) is Varying else lo) for i in mask}
        his = {i: (hi.lanes[i] if type(hi) is Varying else hi) for i in mask}
        sts = {i: (s.lanes[i] if type(s) is Varying else s) for i in mask}
        for i in mask:
            if sts[i] <= 0:
                ks.lane_id = i
                raise ExecFault(f"step must be positive, got {sts[i]}")
        t = 0
        try:
            while True:
                ivs = {i: los[i] + t * sts[i] for i in mask}
                active = tuple(i for i in mask if ivs[i] < his[i])
                if not active:
                    break
                ks.lane_mask = active
                iv = Varying([ivs.get(i) for i in range(n)])
                new = run_region(body, fr, [iv, *vals])
                vals = [merge(active, nv, ov, n) for nv, ov in zip(new, vals)]
                t += 1
        finally:
            ks.lane_mask = mask
        return vals

    return step


@lane_impl("scf.while")
def _while(op: Any, cx: Any):
    ks = cx.engine.kstate
    inits = cx.slots(op.operands)
    res = cx.slots(op.results)
    before = cx.compile_region(op.regions[0])
    after = cx.compile_region(op.regions[1])

    def step(fr: list) -> None:
        mask = ks.lane_mask
        n = ks.lane_count
        vals = [fr[i] for i in inits]
        exits: list[Any] | None = None  # results of lanes that already left the loop
        try:
            while True:
                cond, *args = run_region(before, fr, vals)
                live = ks.lane_mask
                if type(cond) is Varying:
                    go = _active_where(cond, live, True)
                    if len(go) == len(live):
                        cond = True
                    elif not go:
                        cond = False
                    else:
                        stop = tuple(i for i in live if i not in go)
                        exits = [merge(stop, a, e if exits is not None else Varying([None] * n), n)
                                 for a, e in zip(args, exits or [None] * len(args))]
                        ks.lane_mask = go
                        vals = run_region(after, fr, args)
                        continue
                if not cond:
                    if exits is not None:
                        args = [merge(live, a, e, n) for a, e in zip(args, exits)]
                    break
                vals = run_region(after, fr, args)
        finally:
            ks.lane_mask = mask
        for r, v in zip(res, args):
            fr[r] = v

    return step


@lane_impl("cf.cond_br", "cf.switch")
def _branch(op: Any, cx: Any):
    """The ordinary terminator, with its selector made uniform first (a divergent branch is reported)."""
    ks = cx.engine.kstate
    term = IMPLS[op.name](op, cx)
    sel = cx.slot(op.operands[0])
    what = "the branch condition" if op.name == "cf.cond_br" else "the switch flag"

    def lterm(fr: list) -> tuple:
        v = fr[sel]
        if type(v) is not Varying:
            return term(fr)
        fr[sel] = uniform_value(v, ks.lane_mask, what + " (divergent unstructured control flow is not supported "
                                                      "at lane level; use scf.if)")
        try:
            return term(fr)
        finally:
            fr[sel] = v

    return lterm


@lane_impl("func.call")
def _call(op: Any, cx: Any):
    """A call of a function with a body runs that function's lane-level code under the current mask; calls of
    external (runtime) functions are per-work-item effects."""
    engine = cx.engine
    callee = engine.lookup(tuple(op.attributes["callee"].path))
    ordinary = IMPLS[op.name](op, cx)
    if callee is None or callee.regions[0].empty:
        return per_lane(op, cx, ordinary, always=True)
    args = cx.slots(op.operands)
    res = cx.slots(op.results)
    holder: list = []

    def step(fr: list) -> None:
        if not holder:
            holder.append(engine.function_code(callee, lane=True))
        vals = holder[0]([fr[s] for s in args])
        for s, v in zip(res, vals):
            fr[s] = v

    return step
