"""memref.load / memref.store at lane level: all active lanes in one numpy gather / scatter.

When the memref is uniform, every lane is active and every lane's multi-index lies inside the memref (and its
allocation), the lanes' accesses are independent element reads / writes, so they are done at once on the typed
view of the allocation (:func:`xesim.exec.ops.memref.typed_view`).  Anything else — a partial mask, an index out
of bounds (whose located error must name the lane), several lanes storing to one element (lane order decides
the value), per-lane memrefs, ``--check-races`` (whose detector watches the ordinary accesses), ``engine.config.kernel_reference``
(the reference engine, :mod:`xesim.exec.crosscheck`) — takes the per-lane path of :func:`xesim.exec.lanes.per_lane`,
which runs the ordinary implementation for each lane.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.lanes import Varying, lane_impl, per_lane
from xesim.exec.ops.memref import group, typed_view
from xesim.exec.registry import IMPLS


def _index_arrays(fr: list, idx: list[int], n: int) -> list | None:
    """Per-dimension index arrays (uniform dims stay ints); None when no index varies."""
    out: list = []
    any_varying = False
    for s in idx:
        v = fr[s]
        if type(v) is Varying:
            any_varying = True
            out.append(v.arr if v.arr is not None and v.arr.ndim == 1 else np.array(v.lanes, np.int64))
        else:
            out.append(v)
    return out if any_varying else None


def _element_indices(m: Any, ii: list, n: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(typed view, element index per lane) when every lane's index is in bounds, else None."""
    e = None
    for i, size, stride in zip(ii, m.sizes, m.strides):
        if isinstance(i, np.ndarray):
            if i.dtype.kind not in "iu" or (i < 0).any() or (i >= size).any():
                return None
        elif not 0 <= i < size:
            return None
        term = i * stride
        e = term if e is None else e + term
    tv, e0 = typed_view(m)
    e = np.asarray(e, np.int64) + e0
    if e.shape != (n,) or (e < 0).any() or (e >= tv.shape[0]).any():
        return None
    return tv, e


def _all_lanes(fr: list, ks: Any, ms: int, idx: list[int]) -> tuple[np.ndarray, np.ndarray] | None:
    """(typed view, element index per lane) when the fast path applies: a uniform memref, every lane active,
    some index lane-dependent and every lane in bounds; else None."""
    m = fr[ms]
    n = ks.lane_count
    if type(m) is Varying or len(ks.lane_mask) != n:
        return None
    ii = _index_arrays(fr, idx, n)
    return None if ii is None else _element_indices(m, ii, n)


def _fast_ok(cx: Any) -> bool:
    return not cx.engine.config.check_races


@lane_impl("memref.load")
def _load(op: Any, cx: Any):
    ordinary = IMPLS[op.name](op, cx)
    slow = per_lane(op, cx, ordinary)
    if not _fast_ok(cx):
        return slow
    engine = cx.engine
    ks = engine.kstate
    ms = cx.slot(op.operands[0])
    idx = cx.slots(group(op, "indices"))
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        found = None if engine.config.kernel_reference else _all_lanes(fr, ks, ms, idx)
        if found is None:
            slow(fr)
            return
        tv, e = found
        fr[res] = Varying(None, tv[e])

    return step


@lane_impl("memref.store")
def _store(op: Any, cx: Any):
    ordinary = IMPLS[op.name](op, cx)
    slow = per_lane(op, cx, ordinary)
    if not _fast_ok(cx):
        return slow
    engine = cx.engine
    ks = engine.kstate
    vs = cx.slot(op.operands[0])
    ms = cx.slot(op.operands[1])
    idx = cx.slots(group(op, "indices"))

    def step(fr: list) -> None:
        found = None if engine.config.kernel_reference else _all_lanes(fr, ks, ms, idx)
        if found is None:
            slow(fr)
            return
        tv, e = found
        if np.unique(e).size != e.size:  # several lanes store to one element: lane order decides
            slow(fr)
            return
        v = fr[vs]
        if type(v) is Varying:
            vals = v.arr if v.arr is not None and v.arr.ndim == 1 else v.lanes
            tv[e] = np.asarray(vals).astype(tv.dtype, copy=False)
        else:
            tv[e] = v

    return step
