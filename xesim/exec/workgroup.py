"""Workgroup-level (WG) XeGPU programs: whole-tile execution and its distribution to subgroups.

spec/programs-and-runner.md §3.2 ("WG") and §3.4; ARCHITECTURE.md "Program levels".  A WG kernel describes the
whole workgroup's tiles; ``#xegpu.layout<sg_layout, sg_data[, inst_data][, lane_layout, lane_data][, order]>``
(and ``#xegpu.slice``) say how ``xegpu-wg-to-sg-distribute`` splits them over subgroups.

**Execution (whole-tile view).**  The launcher runs a WG kernel **once per workgroup** and every XeGPU op acts on
the whole workgroup tile with the subgroup-level implementations of :mod:`xesim.exec.ops.xegpu` (which accept
any tile size: block loads/stores are split into legal hardware messages, ``dpas`` is decomposed into hardware
instructions with the K blocks in increasing order).  This gives the values of the distributed program:

* block loads/stores/prefetches: every element's value depends only on its own position (out-of-bounds
  elements read 0 and are dropped on store, spec §3.3), so splitting the tile over subgroups, round-robin over
  distribution units or shared by several subgroups (wrap-around, §3.4) reads and writes the same values;
* ``dpas``: rows and columns of D never interact and each output element is the chain of hardware instructions
  over K in increasing order (xesim/numerics/dpas.py), whichever subgroup and ``inst_data`` tile computes it —
  the per-subgroup decomposition (tests/unit/test_workgroup_views.py checks this bit for bit);
* element-wise arith/math, broadcasts, transposes, shape casts and masks are position-wise;
* ``vector.multi_reduction`` across subgroups: the whole-tile implementation combines the reduced elements in
  row-major order from the accumulator (xesim/exec/ops/vector.py).  The cross-subgroup order of the compiled
  program (per-lane, shuffle tree, then SLM across subgroups) is not stated by the spec, so float reductions
  whose value depends on the order are an *assumption* (recorded in ``--explain-assumptions``); integer and
  exactly representable float sums do not depend on it.

**Ids in the whole-tile view.**  Workgroup-uniform ids are exact: ``gpu.block_id``, ``gpu.block_dim``,
``gpu.grid_dim``, ``gpu.num_subgroups``, ``gpu.subgroup_size``.  Per-work-item ids (``gpu.thread_id``,
``gpu.subgroup_id``, ``gpu.lane_id``, ``gpu.global_id``) have no single value for a workgroup; the whole-tile
view reads those of the workgroup's first work-item (thread (0, 0, 0), subgroup 0, lane 0) — as if the
workgroup leader executed the program — and the run records this assumption (:func:`id_notes`).  Programs
use them only in workgroup-uniform expressions (spec §3.2: "scalar memref.stores executed by every thread
store identical values").

**Launch checks** (:func:`check_launch`): every workgroup layout of the kernel needs ``prod(sg_layout)``
subgroups; a launch with fewer is a located error at the op carrying the layout; a launch with more is legal —
the extra subgroups take their ids modulo the layout and duplicate work (§3.2, §3.4).

**Distributed view.**  :func:`layout_map` turns a layout attribute into the :mod:`xesim.hw.layout` maps
(:class:`~xesim.hw.layout.WgLayout` / :class:`~xesim.hw.layout.SliceLayout`, the only place the rules live);
:func:`subgroup_fragments` gives each subgroup's pieces of a WG value and :func:`ownership` answers, for every
element of a WG value, which subgroups, lanes and registers hold it.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, prod
from typing import Any

import numpy as np

from xesim.exec.faults import ExecFault
from xesim.hw.layout import LaneLayout, LayoutMapError, SliceLayout, WgLayout
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

__all__ = [
    "Owner", "assemble", "check_launch", "id_notes", "kernel_layouts", "layout_map", "layout_problem", "ownership",
    "scatter_message_lanes", "subgroup_fragments", "value_layout",
]

PER_ITEM_IDS = ("gpu.thread_id", "gpu.subgroup_id", "gpu.lane_id", "gpu.global_id")
REDUCTIONS = ("vector.multi_reduction", "vector.reduction")


# ------------------------------------------------------------------------------------------------ layouts
def layout_map(attr: Any) -> WgLayout | SliceLayout | None:
    """The distribution map of a ``#xegpu.layout`` / ``#xegpu.slice`` attribute with ``sg_layout`` (spec §3.4),
    or None for subgroup/lane layouts and non-layout attributes.  Malformed layouts raise
    :class:`~xesim.hw.layout.LayoutMapError`."""
    from xesim.verify import xegpu_layout as xl

    if attr is None or not xl.is_layout_attr(attr):
        return None
    try:
        lay = xl.read_layout(attr)
    except xl.LayoutError as exc:
        raise LayoutMapError(str(exc)) from None
    if not lay.is_for_workgroup:
        return None
    return _convert(lay)


def _convert(lay: Any) -> WgLayout | SliceLayout:
    if lay.kind == "slice":
        return SliceLayout(_convert(lay.parent), tuple(lay.dims))
    return WgLayout(tuple(lay.sg_layout), lay.sg_data, lay.inst_data, lay.lane_layout, lay.lane_data, lay.order)


def kernel_layouts(kernel: Any) -> list[tuple[Any, WgLayout | SliceLayout]]:
    """Every workgroup layout of the kernel with the op that carries it (attributes, then tensor_desc types of
    operands and results), in program order."""
    out = []
    for op in kernel.walk():
        attrs = list(op.attributes.values())
        attrs += [v.type.layout for v in (*op.operands, *op.results) if isinstance(v.type, T.TensorDescType)]
        for a in attrs:
            try:
                m = layout_map(a)
            except LayoutMapError:
                continue  # the verifier reports malformed layouts
            if m is not None:
                out.append((op, m))
    return out


def check_launch(kernel: Any, num_subgroups: int) -> None:
    """Every layout's ``prod(sg_layout)`` subgroups must be launched (spec §3.2 WG: launches use
    16·prod(sg_layout) threads, or more — extra subgroups wrap around).  Raises a located ExecFault."""
    for op, m in kernel_layouts(kernel):
        if m.layout_size > num_subgroups:
            raise ExecFault(f"the workgroup layout needs {m.layout_size} subgroups (sg_layout "
                            f"{list(_root(m).sg_layout)}) but the launch has {num_subgroups} "
                            f"subgroup{'s' if num_subgroups != 1 else ''} (spec/programs-and-runner.md §3.2 WG)", op)


def _root(m: WgLayout | SliceLayout) -> WgLayout:
    while isinstance(m, SliceLayout):
        m = m.parent
    return m


def id_notes(kernel: Any) -> list[str]:
    """Assumption notes for a WG kernel (see the module docstring): per-work-item ids read the first work-item's
    in the whole-tile view; float reductions combine in row-major order."""
    notes = []
    for op in kernel.walk():
        if op.name in PER_ITEM_IDS:
            notes.append(f"{op.loc}: {op.name} in a workgroup-level kernel reads work-item (0, 0, 0) of the "
                         "workgroup (whole-tile view; the value is per work-item in the distributed program)")
        elif op.name in REDUCTIONS and op.operands and isinstance(T.element_type_of(op.operands[0].type),
                                                                    T.FloatType):
            notes.append(f"{op.loc}: {op.name} in a workgroup-level kernel combines elements in row-major order "
                         "(the compiled cross-subgroup order is not specified; spec/programs-and-runner.md §3.4)")
    return notes


def value_layout(op: Any, value: Any) -> WgLayout | SliceLayout | None:
    """The workgroup layout of ``value`` as seen at ``op``: its tensor_desc type's layout, else the op's anchor
    attributes (``layout_result_N`` / ``layout_operand_N`` / ``layout`` / ``layout_a|b|cd``), else None."""
    t = value.type
    if isinstance(t, T.TensorDescType):
        return layout_map(t.layout)
    names = []
    if value in op.results:
        names.append(f"layout_result_{op.results.index(value)}")
    if value in op.operands:
        i = op.operands.index(value)
        names.append(f"layout_operand_{i}")
        if op.name == "xegpu.dpas":
            names.append(("layout_a", "layout_b", "layout_cd")[min(i, 2)])
    elif op.name == "xegpu.dpas":
        names.append("layout_cd")
    names.append("layout")
    for n in names:
        m = layout_map(op.attributes.get(n))
        if m is not None:
            return m
    return None


# ------------------------------------------------------------------------------------------------ scatter
def scatter_message_lanes(op: Any, lane_shape: tuple[int, ...], chunk: int, default: int) -> int:
    """Lanes of one scattered message of a WG ``xegpu.load``/``store``: the elements (without the chunk dim) of
    one instruction tile of the op's ``layout`` (``inst_data``, else ``sg_data``; spec §3.4).  ``default`` when
    the op has no workgroup layout or the layout does not fit the value."""
    attr = op.attributes.get("layout")
    return _message_lanes(str(attr), attr, tuple(lane_shape), int(chunk), default)


_LANES_MEMO: dict[tuple, int] = {}


def _message_lanes(text: str, attr: Any, lane_shape: tuple[int, ...], chunk: int, default: int) -> int:
    key = (text, lane_shape, chunk, default)
    got = _LANES_MEMO.get(key)
    if got is not None:
        return got
    got = default
    try:
        m = layout_map(attr)
    except LayoutMapError:
        m = None
    vshape = lane_shape + ((chunk,) if chunk > 1 else ())
    if m is not None and len(vshape) == m.rank:
        try:
            got = prod(m.inst_tiles(vshape, 0)[0][1][: len(lane_shape)])
        except LayoutMapError:
            pass
    if len(_LANES_MEMO) < 4096:
        _LANES_MEMO[key] = got
    return got


# ------------------------------------------------------------------------------------------------ distributed view
def subgroup_fragments(value: np.ndarray, layout: WgLayout | SliceLayout, sg_id: int) -> list[np.ndarray]:
    """Subgroup ``sg_id``'s pieces of the WG value (one ``sg_data`` array per distribution unit, round-robin
    order, wrap-around indices modulo the shape; ids beyond the layout wrap, spec §3.4)."""
    return layout.subgroup_values(np.asarray(value), sg_id)


def assemble(shape: tuple[int, ...], layout: WgLayout | SliceLayout, pieces: dict[int, list[np.ndarray]],
             dtype: Any) -> np.ndarray:
    """The WG value rebuilt from per-subgroup pieces (inverse of :func:`subgroup_fragments`); an element held by
    several subgroups must have the same value in each (else ValueError naming it)."""
    out = np.zeros(shape, dtype)
    seen = np.zeros(shape, bool)
    for sg, parts in pieces.items():
        for (off, size), part in zip(layout.subgroup_tiles(shape, sg), parts, strict=True):
            ix = np.ix_(*((o + np.arange(z)) % s for o, z, s in zip(off, size, shape, strict=True)))
            old, had = out[ix], seen[ix]
            bad = had & (old.view(np.uint8).reshape(*old.shape, -1) !=
                         np.asarray(part, dtype).view(np.uint8).reshape(*old.shape, -1)).any(-1)
            if bad.any():
                where = tuple(int(i[0]) for i in np.nonzero(bad))
                raise ValueError(f"subgroup {sg} disagrees with another subgroup at local index {list(where)}")
            out[ix] = part
            seen[ix] = True
    if not seen.all():
        raise ValueError("some elements have no owner")
    return out


@dataclass(frozen=True)
class Owner:
    """One copy of a WG element: ``subgroup``, ``lane`` and ``component`` (position in the lane's SIMT fragment of
    its instruction tile), ``tile`` (index of the instruction tile in the subgroup's order) and ``register``
    (GRF number relative to the value's first register)."""

    subgroup: int
    lane: int
    component: int
    tile: int
    register: int


def _lane_layout(m: WgLayout | SliceLayout, tile_shape: tuple[int, ...], lanes: int) -> LaneLayout:
    """The lane layout inside one instruction tile: the layout's own ``lane_layout``/``lane_data`` (a slice drops
    the sliced dims), else the plain row-major default (lanes along the innermost dim, one element each — the
    target's ``layout.dpas_cd_32bit`` / A rule), degenerate dims of 1."""
    root, dims = m, ()
    while isinstance(root, SliceLayout):
        dims = root.dims
        root = root.parent
    ll, ld = root.lane_layout, root.lane_data
    if ll is not None and ld is not None and isinstance(m, SliceLayout):
        ll = tuple(x for i, x in enumerate(ll) if i not in dims)
        ld = tuple(x for i, x in enumerate(ld) if i not in dims)
    if ll is not None and ld is not None and len(ll) == len(tile_shape):
        try:
            lay = LaneLayout(ll, ld, root.order if isinstance(m, WgLayout) else None)
            lay.check(tile_shape)
            return lay
        except LayoutMapError:
            pass
    rank = len(tile_shape)
    inner = tile_shape[-1]
    n = lanes if inner % lanes == 0 else inner
    return LaneLayout((1,) * (rank - 1) + (n,), (1,) * rank)


def ownership(shape: tuple[int, ...], layout: WgLayout | SliceLayout, num_subgroups: int, elem_bytes: int,
              register_bytes: int, subgroup_size: int) -> dict[tuple[int, ...], list[Owner]]:
    """For every element index of a WG value of ``shape``: every :class:`Owner` holding a copy (spec §3.4;
    ARCHITECTURE.md "Register file").

    Subgroups: :meth:`~xesim.hw.layout.WgLayout.inst_tiles` (round-robin over distribution units, sharing when
    ``sg_layout·sg_data`` exceeds the shape, ids ``>= prod(sg_layout)`` wrapping).  Lanes: the instruction tile's
    lane layout (:func:`_lane_layout`), fragment order of spec §3.4.  Registers: a subgroup holds its instruction
    tiles in order, each starting on a fresh register and laid out as a SIMT fragment image (lane ``l``,
    component ``k`` at element slot ``k·SG + l``, :func:`xesim.hw.layout.image_slot`)."""
    from xesim.hw.layout import image_slot

    shape = tuple(int(s) for s in shape)
    out: dict[tuple[int, ...], list[Owner]] = {idx: [] for idx in np.ndindex(*shape)}
    for sg in range(num_subgroups):
        reg0 = 0
        for t, (off, size) in enumerate(layout.inst_tiles(shape, sg)):
            lay = _lane_layout(layout, size, subgroup_size)
            lanes_of, comps_of = lay.owner_map(size)
            nlanes = lay.num_lanes
            for local in np.ndindex(*size):
                lane, comp = int(lanes_of[local]), int(comps_of[local])
                byte = image_slot(lane, comp, nlanes) * elem_bytes
                idx = tuple((o + j) % s for o, j, s in zip(off, local, shape, strict=True))
                out[idx].append(Owner(sg, lane, comp, t, reg0 + byte // register_bytes))
            reg0 += ceil(prod(size) * elem_bytes / register_bytes)
    return out


def layout_problem(op: Any) -> str | None:
    """Why a workgroup layout of ``op`` cannot distribute the tile it describes (the tensor_desc shapes of its
    operands/results, spec §3.4 / §4.4), or None."""
    for v in (*op.operands, *op.results):
        t = v.type
        if not isinstance(t, T.TensorDescType):
            continue
        try:
            m = layout_map(t.layout)
            if m is not None:
                shape = tuple(t.shape)
                m.subgroup_tiles(shape, 0)
                m.inst_tiles(shape, 0)
        except LayoutMapError as exc:
            return f"cannot distribute {list(t.shape)} with {t.layout}: {exc}"
    return None
