"""gpu dialect ops at lane level: per-lane ids, gpu.shuffle, gpu.barrier under a mask.

spec/programs-and-runner.md §3.2: linear id = x + y·bx + z·bx·by, lane_id = linear mod 16, subgroup_id =
linear / 16.  In a lane-level kernel (:mod:`xesim.exec.lanes`) ``gpu.lane_id`` is the lane axis itself and
``gpu.thread_id`` / ``gpu.global_id`` are computed per lane (uniform when every lane of the subgroup has the same
value, e.g. ``thread_id y`` when the x size is a multiple of 16).  Subgroup, block and grid ids are uniform.

``gpu.shuffle`` (MLIR GPU dialect docs) is subgroup-collective: lane ``l`` reads ``value`` from lane ``l ^ offset``
(xor), ``l - offset`` (up), ``l + offset`` (down) or ``offset`` (idx); ``valid`` is false when that lane is outside
``[0, width)``, and the result is then the target's ``subgroup.shuffle_invalid_result`` (the docs leave it
unspecified).  ``offset`` and ``width`` may differ per lane for idx; ``width`` must lie in [1, subgroup size].
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.interpreter import ExecFault
from xesim.exec.lanes import Varying, lane_impl, lane_value, require_whole_subgroup, stacked
from xesim.exec.ops.memref import enum_text


def _dim(op: Any) -> int:
    from xesim.exec.ops.gpu import _dim_index

    return _dim_index(op) if "dimension" in op.attributes else 0


def _lane_ids(read):
    def compile_fn(op: Any, cx: Any):
        ks = cx.engine.kstate
        out = cx.slot(op.result)
        d = _dim(op)

        def step(fr: list) -> None:
            bx, by, _ = ks.block
            sg = ks.subgroup_size
            if ks.lane_groups is None:
                lin = ks.subgroup_id * sg + np.arange(sg, dtype=np.int64)
                blk = ks.block_id
            else:  # B subgroups at once (xesim/exec/batch.py): subgroup b's lane l in slot b * sg + l
                blocks, sgids = ks.lane_groups
                lin = np.repeat(sgids, sg) * sg + np.tile(np.arange(sg, dtype=np.int64), len(sgids))
                blk = tuple(np.repeat(blocks[:, i], sg) for i in range(3))
            tid = (lin % bx, (lin // bx) % by, lin // (bx * by))
            vals = np.asarray(read(ks, d, lin % sg, tid, blk), np.int64)
            live = vals[: len(ks.full_mask)]
            fr[out] = int(live[0]) if live.size and (live == live[0]).all() else Varying(None, vals)

        return step

    return compile_fn


lane_impl("gpu.lane_id")(_lane_ids(lambda ks, d, lanes, tid, blk: lanes))
lane_impl("gpu.thread_id")(_lane_ids(lambda ks, d, lanes, tid, blk: tid[d]))
lane_impl("gpu.global_id")(_lane_ids(lambda ks, d, lanes, tid, blk: blk[d] * ks.block[d] + tid[d]))
lane_impl("gpu.block_id")(_lane_ids(lambda ks, d, lanes, tid, blk: np.broadcast_to(blk[d], lanes.shape)))
lane_impl("gpu.subgroup_id")(_lane_ids(lambda ks, d, lanes, tid, blk: (tid[0] + ks.block[0] * (tid[1] + ks.block[1]
                                                                                               * tid[2]))
                                       // ks.subgroup_size))


@lane_impl("gpu.barrier")
def _barrier(op: Any, cx: Any):
    """A workgroup barrier: every work-item must reach it, so it cannot sit in divergent control flow."""
    ks = cx.engine.kstate

    def step(fr: list) -> None:
        if ks.lane_mask != ks.full_mask:
            raise ExecFault(f"is reached by only lanes {list(ks.lane_mask)} of subgroup {ks.subgroup_id} (a barrier "
                            "inside divergent control flow: the other work-items never arrive)")
        ks.barrier(op)

    return step


@lane_impl("gpu.shuffle")
def _shuffle(op: Any, cx: Any):
    ks = cx.engine.kstate
    mode = (enum_text(op, "mode") or "").split()[-1:] or [""]
    mode = mode[0]  # `#gpu<shuffle_mode xor>` or a bare keyword
    if mode not in ("xor", "up", "down", "idx"):
        from xesim.exec.ops.memref import compile_error

        raise compile_error(op, f"unknown shuffle mode {mode}")
    s_val, s_off, s_w = cx.slots(op.operands)
    r_val, r_ok = cx.slots(op.results)
    invalid = cx.engine.target.get("subgroup.shuffle_invalid_result")
    zero = None
    if invalid == "zero":
        from xesim.exec.values import scalar

        zero = scalar(0, op.operands[0].type)

    def batched(fr: list) -> None:
        """B subgroups at once (xesim/exec/batch.py): slot b * n + lane reads slot b * n + src."""
        n, g = ks.subgroup_size, ks.lane_batch
        total = n * g
        off = stacked(fr[s_off], total).astype(np.int64).reshape(g, n)
        wid = stacked(fr[s_w], total).astype(np.int64).reshape(g, n)
        if ((wid < 1) | (wid > n)).any():
            raise ExecFault("shuffle width outside [1, subgroup size] (reported per lane unbatched)")
        lane = np.arange(n, dtype=np.int64)[None, :]
        src = {"xor": lane ^ off, "up": lane - off, "down": lane + off, "idx": off}[mode]
        good = (src >= 0) & (src < wid)
        vals = stacked(fr[s_val], total)
        rows = (np.arange(g, dtype=np.int64)[:, None] * n + np.where(good, src, lane)).reshape(-1)
        out = vals[rows]
        if zero is not None and not good.all():
            out = out.copy()
            out[~good.reshape(-1)] = zero
        fr[r_val] = Varying.from_stack(np.ascontiguousarray(out))
        fr[r_ok] = Varying.from_stack(good.reshape(-1).astype(np.int64))

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        if ks.lane_batch > 1:
            batched(fr)
            return
        n = ks.subgroup_size
        val, off, wid = fr[s_val], fr[s_off], fr[s_w]
        out, ok = [None] * n, [None] * n
        for lane in range(n):
            o = int(lane_value(off, lane))
            w = int(lane_value(wid, lane))
            if not 1 <= w <= n:
                ks.lane_id = lane
                raise ExecFault(f"shuffle width {w} is outside [1, {n}]")
            src = {"xor": lane ^ o, "up": lane - o, "down": lane + o, "idx": o}[mode]
            good = 0 <= src < w
            ok[lane] = 1 if good else 0
            if good:
                out[lane] = lane_value(val, src)
            else:
                out[lane] = lane_value(val, lane) if zero is None else zero
        fr[r_val] = Varying(out)
        fr[r_ok] = Varying(ok)

    return step



