"""gpu dialect semantics: host-side memory ops and kernel launch, device-side id ops, barrier, printf.

Ids follow spec/programs-and-runner.md §3.2: linear thread id = x + y·bx + z·bx·by; subgroup_id =
linear / subgroup size; lane_id = linear mod subgroup size; num_subgroups = ceil(threads / subgroup size).
Asynchronous forms (``async [%t]``) execute immediately (the simulator is sequentially consistent) and
return a ready token.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from xesim.exec.axis import Varying, require_whole_subgroup, stack_or_list, stacked
from xesim.exec.faults import ExecFault
from xesim.exec.registry import impl
from xesim.exec.values import TOKEN, MemRefValue, identity_strides, storage_bytes
from xesim.ir import types as T


def _group(op: Any, name: str) -> list:
    try:
        return op.operand_group(name)
    except KeyError:
        return []


def _dim_index(op: Any) -> int:
    a = op.attributes.get("dimension")
    m = re.search(r"\b([xyz])\b\W*$", str(a))
    if m is None:
        raise ExecFault(f"cannot read the dimension of {a}")
    return "xyz".index(m.group(1))


def _token_results(op: Any, cx: Any) -> list[int]:
    return [cx.slot(r) for r in op.results if isinstance(r.type, T.AsyncTokenType)]


@impl("gpu.alloc")
def _alloc(op: Any, cx: Any):
    engine = cx.engine
    mres = next(r for r in op.results if isinstance(r.type, T.MemRefType))
    mt: T.MemRefType = mres.type
    out = cx.slot(mres)
    toks = _token_results(op, cx)
    dyn = cx.slots(_group(op, "dynamicSizes"))
    label = f"%{mres.name}" if mres.name else ""

    def step(fr: list) -> None:
        dvals = iter(fr[s] for s in dyn)
        sizes = tuple(next(dvals) if d == T.DYNAMIC else d for d in mt.shape)
        if any(s < 0 for s in sizes):
            raise ExecFault(f"negative dynamic size in {sizes}")
        n = int(np.prod(sizes)) if sizes else 1
        alloc = engine.memory.allocate(n * storage_bytes(mt.element_type), "device", label)
        fr[out] = MemRefValue(engine.memory, alloc, alloc.base, 0, sizes, identity_strides(sizes), mt.element_type)
        for t in toks:
            fr[t] = TOKEN

    return step


@impl("gpu.dealloc")
def _dealloc(op: Any, cx: Any):
    engine = cx.engine
    m = cx.slot(_group(op, "memref")[0])
    toks = _token_results(op, cx)
    where = f"gpu.dealloc at {op.loc}"

    def step(fr: list) -> None:
        mv = fr[m]
        engine.memory.free(mv.alloc.base, by=where)
        for t in toks:
            fr[t] = TOKEN

    return step


@impl("gpu.memcpy")
def _memcpy(op: Any, cx: Any):
    dst = cx.slot(_group(op, "dst")[0])
    src = cx.slot(_group(op, "src")[0])
    toks = _token_results(op, cx)

    def step(fr: list) -> None:
        d, s = fr[dst], fr[src]
        if tuple(d.sizes) != tuple(s.sizes):
            raise ExecFault(f"memcpy between memrefs of different shapes {list(s.sizes)} and {list(d.sizes)}")
        d.write_logical(s.logical_array())
        for t in toks:
            fr[t] = TOKEN

    return step


@impl("gpu.memset")
def _memset(op: Any, cx: Any):
    dst = cx.slot(_group(op, "dst")[0])
    val = cx.slot(_group(op, "value")[0])
    toks = _token_results(op, cx)

    def step(fr: list) -> None:
        d = fr[dst]
        d.write_logical(np.full(d.sizes, fr[val], dtype=d.dtype))
        for t in toks:
            fr[t] = TOKEN

    return step


@impl("gpu.wait")
def _wait(op: Any, cx: Any):
    toks = _token_results(op, cx)

    def step(fr: list) -> None:
        for t in toks:
            fr[t] = TOKEN

    return step


@impl("gpu.launch_func")
def _launch(op: Any, cx: Any):
    engine = cx.engine
    kref = op.attributes["kernel"]
    grid = cx.slots([_group(op, n)[0] for n in ("gridSizeX", "gridSizeY", "gridSizeZ")])
    block = cx.slots([_group(op, n)[0] for n in ("blockSizeX", "blockSizeY", "blockSizeZ")])
    args = cx.slots(_group(op, "kernelOperands"))
    toks = _token_results(op, cx)

    def step(fr: list) -> None:
        kernel = engine.lookup(tuple(kref.path))
        if kernel is None:
            raise ExecFault(f"kernel {kref} not found")
        engine.launch(kernel, "::".join("@" + p for p in kref.path), tuple(fr[s] for s in grid),
                      tuple(fr[s] for s in block), [fr[s] for s in args], op)
        for t in toks:
            fr[t] = TOKEN

    return step


# ============================================================================ ids
def slot_ids(ks: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every slot's (block id ``[n, 3]``, linear work-item id ``[n]``, lane id ``[n]``, subgroup id ``[n]``) for the
    instances on the axis (``kstate.group_ids``: each subgroup's block id, subgroup id and first work-item; a slot is
    a work-item at lane level, else the subgroup's first work-item with lane 0)."""
    blocks, sgids, first = ks.group_ids
    g = ks.group
    if g == 1:
        return blocks, first, np.zeros(len(first), np.int64), sgids
    lane = np.tile(np.arange(g, dtype=np.int64), len(first))
    return np.repeat(blocks, g, axis=0), np.repeat(first, g) + lane, lane, np.repeat(sgids, g)


def _ids(read):
    """An id op (spec/programs-and-runner.md §3.2): ``read(ks, dimension, blocks, linear ids, lanes, subgroups)``
    gives every slot's value; the result is uniform when every launched slot has the same one."""
    def compile_fn(op: Any, cx: Any):
        ks = cx.engine.kstate
        out = cx.slot(op.result)
        d = _dim_index(op) if "dimension" in op.attributes else 0

        def step(fr: list) -> None:
            blk, lin, lane, sg = slot_ids(ks)
            vals = np.asarray(read(ks, d, blk, lin, lane, sg), np.int64)
            live = vals[: len(ks.full)]
            fr[out] = int(live[0]) if live.size and (live == live[0]).all() else Varying.from_stack(vals)

        return step

    return compile_fn


def _thread(ks: Any, lin: np.ndarray, d: int) -> np.ndarray:
    bx, by, _ = ks.block
    return (lin % bx, (lin // bx) % by, lin // (bx * by))[d]


impl("gpu.block_id", axis=True)(_ids(lambda ks, d, blk, lin, lane, sg: blk[:, d]))
impl("gpu.thread_id", axis=True)(_ids(lambda ks, d, blk, lin, lane, sg: _thread(ks, lin, d)))
impl("gpu.global_id", axis=True)(_ids(lambda ks, d, blk, lin, lane, sg: blk[:, d] * ks.block[d] + _thread(ks, lin, d)))
impl("gpu.subgroup_id", axis=True)(_ids(lambda ks, d, blk, lin, lane, sg: sg))
impl("gpu.lane_id", axis=True)(_ids(lambda ks, d, blk, lin, lane, sg: lane))


def _uniform_id(read):
    def compile_fn(op: Any, cx: Any):
        ks = cx.engine.kstate
        out = cx.slot(op.result)
        d = _dim_index(op) if "dimension" in op.attributes else 0

        def step(fr: list) -> None:
            fr[out] = read(ks, d)

        return step

    return compile_fn


impl("gpu.block_dim")(_uniform_id(lambda ks, d: ks.block[d]))
impl("gpu.grid_dim")(_uniform_id(lambda ks, d: ks.grid[d]))
impl("gpu.subgroup_size")(_uniform_id(lambda ks, d: ks.subgroup_size))
impl("gpu.num_subgroups")(_uniform_id(lambda ks, d: ks.num_subgroups))


# ============================================================================ synchronisation
@impl("gpu.barrier", axis=True)
def _barrier(op: Any, cx: Any):
    """A workgroup barrier (spec/pvc-hardware.md §4.2): every work-item must reach it, so at lane level it cannot
    sit in divergent control flow; the subgroups' meeting is the scheduler's or the lockstep batch's
    (``kstate.barrier``)."""
    ks = cx.engine.kstate

    def step(fr: list) -> None:
        if ks.lockstep is None and ks.group > 1 and ks.mask != ks.full:  # (a lockstep batch checks per subgroup)
            raise ExecFault(f"is reached by only lanes {list(ks.mask)} of subgroup {ks.subgroup_id} (a barrier "
                            "inside divergent control flow: the other work-items never arrive)")
        ks.barrier(op)

    return step


@impl("gpu.shuffle", axis=True)
def _shuffle(op: Any, cx: Any):
    """Subgroup-collective shuffle (MLIR GPU dialect docs): lane ``l`` reads ``value`` from lane ``l ^ offset``
    (xor), ``l - offset`` (up), ``l + offset`` (down) or ``offset`` (idx); ``valid`` is false when that lane is
    outside ``[0, width)``, and the result is then the target's ``subgroup.shuffle_invalid_result`` (the docs leave it
    unspecified).  ``offset`` and ``width`` may differ per lane for idx; ``width`` must lie in [1, subgroup size].
    Lane-level code only (the lanes are the slots of each subgroup's group)."""
    from xesim.exec.ops.memref import compile_error, enum_text

    if cx.group == 1:
        raise compile_error(op, "gpu.shuffle exchanges values between the lanes of a subgroup: it needs lane-level "
                                "(SIMT) code")
    ks = cx.engine.kstate
    mode = (enum_text(op, "mode") or "").split()[-1:] or [""]
    mode = mode[0]  # `#gpu<shuffle_mode xor>` or a bare keyword
    if mode not in ("xor", "up", "down", "idx"):
        raise compile_error(op, f"unknown shuffle mode {mode}")
    s_val, s_off, s_w = cx.slots(op.operands)
    r_val, r_ok = cx.slots(op.results)
    invalid = cx.engine.target.get("subgroup.shuffle_invalid_result")
    zero = None
    if invalid == "zero":
        from xesim.exec.values import scalar

        zero = scalar(0, op.operands[0].type)

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        n, g = ks.group, ks.groups
        total = n * g
        off = stacked(fr[s_off], total).astype(np.int64).reshape(g, n)
        wid = stacked(fr[s_w], total).astype(np.int64).reshape(g, n)
        bad = np.nonzero((wid < 1) | (wid > n))
        if bad[0].size:
            ks.slot = int(bad[0][0]) * n + int(bad[1][0])
            raise ExecFault(f"shuffle width {int(wid[bad[0][0], bad[1][0]])} is outside [1, {n}]")
        lane = np.arange(n, dtype=np.int64)[None, :]
        src = {"xor": lane ^ off, "up": lane - off, "down": lane + off, "idx": off}[mode]
        good = (src >= 0) & (src < wid)
        rows = (np.arange(g, dtype=np.int64)[:, None] * n + np.where(good, src, lane)).reshape(-1)
        val = fr[s_val]
        if isinstance(val, Varying):
            items = val.lanes
            out = [items[r] for r in rows]
        else:
            out = [val] * total
        if zero is not None:
            for i in np.nonzero(~good.reshape(-1))[0]:
                out[i] = zero
        fr[r_val] = stack_or_list(out)
        fr[r_ok] = Varying.from_stack(good.reshape(-1).astype(np.int64))

    return step


@impl("gpu.printf")
def _printf(op: Any, cx: Any):
    ks = cx.engine.kstate
    fmt = op.attributes["format"].value
    slots = cx.slots(op.operands)
    pyfmt = re.sub(r"%(-?\d*(?:\.\d+)?)(?:hh|h|ll|l|z)?([diuxXfFeEgGcsp%])", lambda m: "%" + m.group(1) + (
        "d" if m.group(2) in "iu" else m.group(2)), fmt)

    def step(fr: list) -> None:
        vals = tuple(float(v) if isinstance(v, np.floating) else v for v in (fr[s] for s in slots))
        try:
            text = pyfmt % vals
        except (TypeError, ValueError) as exc:
            raise ExecFault(f"printf format '{fmt}' does not match its arguments: {exc}") from exc
        ks.printf_buffer.append(text)

    return step
