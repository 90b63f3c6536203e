"""Compile a host loop nest, or interpret it: the nest's tier (:mod:`xesim.numerics.tiers`; issue 32 item 3).

Compiling a nest with numba costs about 0.3-1 s on a fresh install (more for the first nest of a process), while
the interpreter runs a host op in about 0.5 us: a nest of a few thousand iterations -- the initialisation loops of
most test programs -- is done long before its compilation would be.  So in the ``fast`` engine a nest runs in the
interpreter (its reference closure, the very code ``reference`` runs) while the interpreted work of its executions
so far, this one included, stays within its budget (:data:`xesim.numerics.tiers.SHARE` of the compile time, or
of the load time when numba's cache holds the nest), and compiled from then on.  ``both`` always compiles (it
exists to compare the two).

The work of one execution is estimated before it runs, from the nest's loop bounds: every ``scf.for`` of the nest
runs ``ceil((ub - lb) / step)`` times per iteration of the loops around it (bounds that are constants, or values
defined outside the nest, whose values the frame holds), and each iteration executes the ops directly in its body
(a nested loop counts as one op).  A bound computed inside the nest makes the estimate unknown, and such a nest is
compiled, as before.
"""

from __future__ import annotations

from typing import Any

from xesim.numerics import tiers

#: the interpreter's estimated seconds per execution of a nest and per host op executed, and a nest's compile and
#: load seconds (tools/bench_tiers.py)
PER_CALL_S, PER_OP_S, COMPILE_S, LOAD_S = 1e-5, 4e-7, 0.8, 0.1


def _inside(v: Any, root: Any) -> bool:
    """Whether the value ``v`` is defined in ``root`` (an op result or block argument nested in it)."""
    op = v.owner_op
    if op is None:
        blk = getattr(v, "block", None)
        op = blk.parent_op() if blk is not None else None
    while op is not None:
        if op is root:
            return True
        op = op.parent_op()
    return False


def _constant(v: Any) -> int | None:
    """The integer value of ``v`` when an ``arith.constant`` defines it."""
    op = v.owner_op
    if op is None or op.name != "arith.constant":
        return None
    value = getattr(op.attributes.get("value"), "value", None)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class NestWork:
    """The work estimate of one nest (module docstring): per loop, the loop around it in the nest, the number of
    ops directly in its body, and where each of its bounds comes from (``("const", n)``, ``("slot", frame slot)``,
    or None: unknown)."""

    def __init__(self, loops: list[Any], slot: Any) -> None:
        root = loops[0] if loops else None
        index = {id(lp): i for i, lp in enumerate(loops)}
        self.loops: list[tuple[int, int, list]] = []
        for lp in loops:
            parent, p = -1, lp.parent_op()
            while p is not None and p is not root.parent_op():
                if id(p) in index:
                    parent = index[id(p)]
                    break
                p = p.parent_op()
            sources: list = []
            for v in lp.operands[:3]:
                c = _constant(v)
                if c is not None:
                    sources.append(("const", c))
                elif not _inside(v, root):
                    sources.append(("slot", slot(v)))
                else:
                    sources.append(None)
            self.loops.append((parent, _direct_ops(lp), sources))

    def work(self, fr: list) -> float | None:
        """Host ops one execution of the nest runs, estimated from the frame ``fr``; None when unknown."""
        trips: list[int] = []
        total = 0
        for parent, ops, sources in self.loops:
            bounds = []
            for src in sources:
                if src is None:
                    return None
                v = src[1] if src[0] == "const" else fr[src[1]]
                if not isinstance(v, int):
                    return None
                bounds.append(v)
            lb, ub, st = bounds
            n = 0 if st <= 0 or ub <= lb else -(-(ub - lb) // st)
            if parent >= len(trips):  # not listed outer loop first: no estimate
                return None
            n *= trips[parent] if parent >= 0 else 1
            trips.append(n)
            total += n * ops
        return float(total)


def _direct_ops(loop: Any) -> int:
    """Ops in ``loop``'s body, counting those in nested regions other than a nested ``scf.for`` (one op)."""
    count = 0
    stack = [op for r in loop.regions for b in r.blocks for op in b.ops]
    while stack:
        op = stack.pop()
        count += 1
        if op.name != "scf.for":
            stack.extend(o for r in op.regions for b in r.blocks for o in b.ops)
    return count


def family(name: str, dispatcher: Any) -> tiers.Family:
    """The tier of one nest; ``dispatcher()`` gives its numba dispatcher when its source is in the cache, else
    None (no file: nothing of it can be cached)."""

    def found() -> list:
        d = dispatcher()
        return [d] if d is not None else []

    return tiers.Family(name, PER_CALL_S, PER_OP_S, COMPILE_S, LOAD_S, found)
