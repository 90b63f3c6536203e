"""affine dialect value ops (mlir/docs/Dialects/Affine.md): ``affine.apply``, ``affine.min``, ``affine.max``.

The op's ``AffineMapAttr`` is applied to its operands -- the first ``num_dims`` are the dimensions, the
rest the symbols -- with the semantics of :meth:`xesim.ir.affine.AffineMap.evaluate` (``floordiv`` and
``ceildiv`` round toward -inf / +inf, ``mod`` is non-negative for a positive divisor).  For speed each
map is compiled once into a Python expression with exactly those semantics; the result is an ``index``
and wraps at 64 bits like the index arithmetic the map lowers to.  A zero divisor is an
:class:`ExecFault`.  ``affine.min``/``max`` take the minimum/maximum of the map's results (signed).
"""

from __future__ import annotations

import functools
from typing import Any

from xesim.exec.faults import ExecFault
from xesim.exec.ops.arith import impl, int_info
from xesim.ir import affine as AF  # noqa: N812 - short alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias


def _expr_source(e: Any) -> str | None:
    """Python source for an affine expression over ``d`` (dims) and ``s`` (symbols); None if unknown."""
    if isinstance(e, AF.Dim):
        return f"d[{e.index}]"
    if isinstance(e, AF.Sym):
        return f"s[{e.index}]"
    if isinstance(e, AF.Const):
        return f"({int(e.value)})"
    if isinstance(e, AF.BinOp):
        lhs, rhs = _expr_source(e.lhs), _expr_source(e.rhs)
        if lhs is None or rhs is None:
            return None
        if e.op in ("+", "-", "*"):
            return f"({lhs} {e.op} {rhs})"
        if e.op == "floordiv":
            return f"({lhs} // {rhs})"
        if e.op == "ceildiv":
            return f"(-((-{lhs}) // {rhs}))"
        if e.op == "mod":
            return f"({lhs} % {rhs})"
    return None


@functools.cache
def compile_map(amap: Any):
    """A function ``(dims, syms) -> list[int]`` (unwrapped) equivalent to ``amap.evaluate``."""
    parts = [_expr_source(r) for r in amap.results]
    if any(p is None for p in parts):
        return lambda d, s: amap.evaluate(list(d), list(s))
    code = "lambda d, s: [" + ", ".join(parts) + "]"  # type: ignore[arg-type]
    return eval(code, {"__builtins__": {}})  # noqa: S307 - source generated from the map's own nodes


def _compile(op: Any, cx: Any, reduce: Any):
    amap = op.attributes["map"].map
    fn = compile_map(amap)
    nd = amap.num_dims
    slots = cx.slots(op.operands)
    ds, ss = slots[:nd], slots[nd:]
    o = cx.slot(op.results[0])
    wrap = int_info(T.INDEX).wrapper()
    text = str(amap)

    def evaluate(fr: list) -> list:
        try:
            return fn([fr[i] for i in ds], [fr[i] for i in ss])
        except ZeroDivisionError:
            raise ExecFault(f"division by zero in affine map ({text})") from None

    if reduce is None:
        def step(fr: list) -> None:
            fr[o] = wrap(evaluate(fr)[0])
    else:
        def step(fr: list) -> None:
            fr[o] = reduce([wrap(v) for v in evaluate(fr)])
    return step


@impl("affine.apply")
def _apply(op: Any, cx: Any):
    return _compile(op, cx, None)


@impl("affine.min")
def _min(op: Any, cx: Any):
    return _compile(op, cx, min)


@impl("affine.max")
def _max(op: Any, cx: Any):
    return _compile(op, cx, max)
