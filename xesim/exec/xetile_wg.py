"""Workgroup-level XeTile programs: which ``#xetile.wg_map`` each value has and how subgroups number themselves
(shared/spec/xetile.md §4.1–§4.2).  The distribution itself (§4.3) is :class:`xesim.hw.layout.XeTileWgMap`; the
check that the distributed program agrees with the whole-tile execution is
:mod:`xesim.observe.xetile_distribution`.

* :func:`value_map` (§4.1): a tile's map is its type's ``wg_map``; a ``load_tile``/``load`` result takes its tile's
  map, a ``tile_mma`` result ``wg_map_c``, a ``convert_layout`` result ``wg_map_result``, an ``arith``/``math``/
  ``vector`` result the op's discardable ``map``; ``scf.for`` iteration arguments and results the map of the
  initial value (inferred from its producer).  What a subgroup holds of an operand is decided by the operand's
  *producer* (IMEX's WgToSg rewrites each producer into its per-subgroup ops), not by the map the consumer names.
* :func:`column_major_values` (§4.2, IMEX only): a tile whose loaded value reaches a ``vector.transpose`` (through
  any ops and ``scf.for`` initial values) numbers its subgroups column-major, ``(s mod L0, s div L0)``, and so do
  the values on that path up to the transpose; an ``init_tile`` reaching two transposes toggles back (§5 Q14).
* :func:`num_subgroups`: a VC kernel's launched threads are its subgroups (§1.3), otherwise 16 work-items each;
  :func:`check_launch`: every map's ``L0·L1`` subgroups must be launched (extra ones wrap, §4.2).
"""

from __future__ import annotations

from typing import Any

from xesim.exec.faults import ExecFault
from xesim.hw.layout import LayoutMapError, XeTileWgMap
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.xetile_attrs import XeTileMap

__all__ = ["as_map", "check_launch", "column_major_values", "num_subgroups", "value_map"]


def as_map(attr: Any) -> XeTileWgMap | None:
    """The :class:`XeTileWgMap` of a ``#xetile.wg_map`` attribute (None for anything else or a malformed map)."""
    if not (isinstance(attr, XeTileMap) and attr.kind == "wg_map"):
        return None
    try:
        return XeTileWgMap(tuple(attr.first), tuple(attr.second))  # type: ignore[arg-type]
    except LayoutMapError:
        return None  # the verifier reports malformed maps


def value_map(value: Any, _depth: int = 0) -> XeTileWgMap | None:
    """§4.1: the workgroup map of ``value`` (None: not a workgroup value)."""
    t = value.type
    if isinstance(t, T.TileType):
        return as_map(t.wg_map)
    if _depth > 64:
        return None
    op = value.owner_op
    if op is None:  # a block argument: scf.for iteration argument -> its initial value
        parent = getattr(getattr(value.block, "parent", None), "parent", None)
        if parent is not None and parent.name == "scf.for" and value.index >= 1:
            inits = parent.operands[3:]
            if value.index - 1 < len(inits):
                return value_map(inits[value.index - 1], _depth + 1)
        return None
    name = op.name
    if name in ("xetile.load_tile", "xetile.load"):
        return value_map(op.operands[0], _depth + 1)  # the tile comes first in both
    if name == "xetile.tile_mma":
        return as_map(op.attributes.get("wg_map_c"))
    if name == "xetile.convert_layout":
        return as_map(op.attributes.get("wg_map_result"))
    if name == "scf.for":
        inits = op.operands[3:]
        return value_map(inits[value.index], _depth + 1) if value.index < len(inits) else None
    return as_map(op.attributes.get("map"))


def _successors(value: Any) -> list[Any]:
    """Values computed from ``value``: results of its users, and for ``scf.for`` initial values / yields the
    iteration argument and the loop result they become."""
    out: list[Any] = []
    for user in value.uses:
        if user.name == "scf.for":
            inits = user.operands[3:]
            body = user.regions[0].blocks[0]
            for i, v in enumerate(inits):
                if v is value:
                    out += [body.args[i + 1], user.results[i]]
        elif user.name == "scf.yield":
            parent = user.parent_op()
            if parent is not None and parent.name == "scf.for":
                body = parent.regions[0].blocks[0]
                for i, v in enumerate(user.operands):
                    if v is value:
                        out += [body.args[i + 1], parent.results[i]]
        elif user.name != "vector.transpose":
            out += list(user.results)
    return out


def column_major_values(kernel: Any) -> set[int]:
    """§4.2 transposed-load rule: ids of the values that number subgroups column-major (module docstring)."""
    out: set[int] = set()
    for op in kernel.walk():
        if op.name != "xetile.init_tile" or value_map(op.results[0]) is None:
            continue
        seen: dict[int, Any] = {}
        transposes: set[int] = set()
        stack = [op.results[0]]
        while stack:
            v = stack.pop()
            if id(v) in seen:
                continue
            seen[id(v)] = v
            for user in v.uses:
                if user.name == "vector.transpose":
                    transposes.add(id(user))
            stack.extend(_successors(v))
        if len(transposes) % 2 == 1:
            out.update(seen)
    return out


def num_subgroups(kernel: Any, threads: int, subgroup_size: int) -> int:
    """The subgroups of a workgroup of ``threads`` launched threads (module docstring)."""
    if "VectorComputeFunctionINTEL" in kernel.attributes:
        return threads
    return -(-threads // subgroup_size)


def check_launch(kernel: Any, subgroups: int) -> None:
    """Every ``wg_map`` of the kernel needs ``L0·L1`` subgroups (§4.2); fewer is a located error at the op that
    carries the map (more are legal: they wrap and duplicate work)."""
    for op in kernel.walk():
        for v in (*op.operands, *op.results):
            m = value_map(v) if isinstance(v.type, T.TileType) or v in op.results else None
            if m is not None and m.layout_size > subgroups:
                raise ExecFault(f"the wg_map needs {m.layout_size} subgroups (sg_layout {list(m.sg_layout)}) but the "
                                f"launch has {subgroups} (xetile.md §4.2: one subgroup per VC thread)", op)
