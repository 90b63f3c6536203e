"""Which ops produced a printed element (``xesim crosscheck --explain``, issue 29 item 2).

:class:`WriterLog` follows a run (subgroups one at a time) and keeps, in order, every write of every op that
writes memory, with the exact bytes it wrote (the footprints of the race detector, xesim/observe/races.py), the
kernel, workgroup and subgroup that ran it, and every ``gpu.memcpy`` as a copy from its source bytes.  For an
element of a printed buffer, :meth:`WriterLog.chain` follows the last write of its bytes back through copies to
the op that produced it, and :func:`feeds` names that op's stored value and the ops whose results it uses (the
SSA definitions one level up, through loop-carried values).

The cost grows with the number of writes: it is meant for the small kernels a mismatch is narrowed down to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from xesim.exec.hooks import Observer
from xesim.observe.races import WRITE, footprint_of


@dataclass
class Write:
    """One op's write of bytes ``[start, start + nbytes)`` for each start (or a copy from ``src_starts``)."""

    op: Any
    where: str
    starts: np.ndarray
    nbytes: np.ndarray
    src_starts: np.ndarray | None = None


class WriterLog(Observer):
    """Records the writes of a run (see the module docstring)."""

    name = "the write log (xesim crosscheck --explain)"
    per_instance = True

    def __init__(self, limit: int = 2_000_000) -> None:
        self.writes: list[Write] = []
        self.limit = limit
        self.truncated = False
        self.engine: Any = None

    def instrument(self, op: Any, cx: Any, step: Any, is_term: bool) -> Any:
        if step is None or is_term:
            return step
        self.engine = cx.engine
        if op.name == "gpu.memcpy":
            return self._copy(op, cx, step)
        fp = footprint_of(op, cx)
        if fp is None:
            return step
        in_kernel = cx.func_op.name == "gpu.func"
        kernel = cx.func_op.attributes.get("sym_name")
        writes = self.writes

        def logged(fr: list) -> Any:
            parts = [(np.asarray(s, np.int64).reshape(-1), n) for _, s, n, kind in fp(fr) if kind == WRITE]
            result = step(fr)
            if parts and not self._full():
                ks = cx.engine.kstate
                where = (f"in kernel @{getattr(kernel, 'value', kernel)}, workgroup {tuple(ks.block_id)}, subgroup "
                         f"{ks.subgroup_id}" if in_kernel else "on the host")
                for starts, n in parts:
                    writes.append(Write(op, where, starts, np.broadcast_to(np.asarray(n, np.int64), starts.shape)))
            return result

        return logged

    def _copy(self, op: Any, cx: Any, step: Any) -> Any:
        dst, src = cx.slot(op.operands[-2]), cx.slot(op.operands[-1])

        def logged(fr: list) -> Any:
            result = step(fr)
            if not self._full():
                d, s = fr[dst], fr[src]
                self.writes.append(Write(op, "on the host", d.element_addresses(), np.full(_count(d), d.itemsize, np.int64),
                                         s.element_addresses()))
            return result

        return logged

    def _full(self) -> bool:
        if len(self.writes) >= self.limit:
            self.truncated = True
        return self.truncated

    def chain(self, address: int, before: int | None = None) -> list[Write]:
        """The writes that produced the byte at ``address``: the last write of it, and if that was a copy, the
        writes behind the copied byte, and so on (most recent first)."""
        out: list[Write] = []
        end = len(self.writes) if before is None else before
        for i in range(end - 1, -1, -1):
            w = self.writes[i]
            hit = np.nonzero((w.starts <= address) & (address < w.starts + w.nbytes))[0]
            if hit.size:
                out.append(w)
                if w.src_starts is not None:
                    j = int(hit[-1])
                    out += self.chain(int(w.src_starts[j]) + address - int(w.starts[j]), i)
                return out
        return out


def _count(m: Any) -> int:
    n = 1
    for s in m.sizes:
        n *= s
    return n


def _yield_of(loop: Any, k: int) -> Any:
    """The op producing the value an ``scf.for`` yields as its ``k``-th carried value, or None."""
    body = loop.regions[0].blocks[0] if loop.regions and loop.regions[0].blocks else None
    term = body.ops[-1] if body is not None and body.ops else None
    return term.operands[k].owner_op if term is not None and k < len(term.operands) else None


def _origin(v: Any) -> tuple[str, Any]:
    """How value ``v`` is defined, and the op whose operands it uses (looking through ``scf.for`` results and
    carried values to the op the loop body yields)."""
    op = v.owner_op
    if op is not None:
        if op.name == "scf.for":
            inner = _yield_of(op, v.index)
            if inner is not None:
                return f"the result of scf.for at {op.loc}, yielded by {inner.name} at {inner.loc}", inner
        return f"{op.name} at {op.loc}", op
    block = getattr(v, "block", None)
    region = block.parent if block is not None else None
    parent = region.parent if region is not None else None
    if parent is not None and parent.name == "scf.for":
        if v.index == 0:
            return f"the induction variable of scf.for at {parent.loc}", None
        inner = _yield_of(parent, v.index - 1)
        yielded = f", yielded by {inner.name} at {inner.loc}" if inner is not None else ""
        return f"the value carried by scf.for at {parent.loc}{yielded}", None
    return f"an argument of {parent.name if parent is not None else 'the function'}", None


def feeds(write: Write) -> str:
    """What the writing op stored and which ops' results that value uses."""
    op = write.op
    if not op.operands or op.name in ("gpu.memcpy", "memref.copy"):
        return ""
    text, producer = _origin(op.operands[0])
    text = f"the stored value is {text}"
    if producer is not None and producer.operands:
        text += ", which uses " + "; ".join(_origin(o)[0] for o in producer.operands)
    return text


def explain_element(log: WriterLog, address: int) -> list[str]:
    """Lines naming the ops behind the byte at ``address`` (a printed element's first byte)."""
    chain = log.chain(address)
    if not chain:
        return ["no op of the run wrote it (never initialised)"]
    out = []
    for w in chain:
        verb = "copied by" if w.src_starts is not None else "written by"
        out.append(f"{verb} {w.op.name} at {w.op.loc} {w.where}")
    last = chain[-1]
    fed = feeds(last)
    if fed:
        out.append(fed)
    if log.truncated:
        out.append(f"(the write log stopped after {log.limit} writes; older writes may be missing)")
    return out
