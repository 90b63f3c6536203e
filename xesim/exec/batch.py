"""Batched kernel execution along the leading instance axis (issue 7 §3; ARCHITECTURE.md "Performance").

A subgroup-level (SG) or VC kernel launch normally runs its instances — the subgroups of every workgroup — one
after another (:mod:`xesim.exec.launcher`).  When the kernel qualifies, the launcher runs instead **many
instances together**: every op executes once for a *batch* of ``B`` instances (whole workgroups, in grid order),
and a value is either uniform (the ordinary run-time value: constants, loop counters, anything not derived from
the ids) or a :class:`~xesim.exec.lanes.Varying` whose item ``i`` is instance ``i``'s value (``arr`` = the
``[B, ...]`` numpy stack).  Ops with a batched implementation here (ids, block descriptors, ``load_nd`` /
``store_nd`` / ``prefetch_nd``, ``dpas``) handle all instances in a few numpy / numba calls; element-wise ops run
once on the stack; pure scalar ops run once on ``[B]`` arrays (their ordinary implementation compiled for a
``vector<B x T>`` clone, as at lane level); any other op runs once per instance in instance order.

**Equivalence.**  Executing op by op, instance 0..B-1 at each op, is one interleaving of the instances'
instruction streams — a schedule the hardware may produce (subgroups run concurrently).  For every race-free
program every interleaving gives the same memory and output as running the instances one after another, so the
result is bit-identical to the reference execution (``XESIM_ENGINE=both`` cross-checks it).

**Qualifying kernels** (:func:`batchable`): SG, VC or WG level (a WG kernel's instance is a whole workgroup in
the whole-tile view, :mod:`xesim.exec.workgroup`); no barriers, named barriers or fences (their
interleavings need the coroutine scheduler), no ``gpu.printf`` / ``vector.print`` (output order), no atomics,
no workgroup/private attributions or SLM, only ``scf.for`` / ``scf.if`` regions with one block; and the engine
runs without the register-file model, race detection, the random schedule or the reference kernel engine.

**Divergence and faults.**  A loop bound or ``scf.if`` condition that differs between the instances of a batch,
and every runtime fault, abandon the batch: memory the kernel can reach is restored from a snapshot taken before
the batch, and the batch's workgroups run again one instance after another (the reference path), so a program
that diverges or faults behaves — output, memory, the fault reported — exactly as without batching.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from xesim.exec.hooks import per_instance_reason
from xesim.exec.interpreter import Compiler, ExecFault, run_region
from xesim.exec.kernel_writes import launch_allocations
from xesim.exec.lanes import Varying, _elementwise, _scalar_clone, run_clone, run_on_stacks, stacked
from xesim.exec.tdesc import NdDesc
from xesim.hw.memory import MemoryFault
from xesim.numerics.work_queue import chunk_count, claim

#: bytes of vector values per batch, estimated as the sum of every vector result of the kernel per instance
BATCH_BYTES = 64 << 20

# Ops a batched kernel may not contain (see the module docstring); ``*`` = every op of a dialect prefix.
_EXCLUDED = frozenset({
    "gpu.printf", "vector.print", "memref.atomic_rmw", "memref.generic_atomic_rmw", "xegpu.atomic_rmw",
    "memref.realloc", "func.call", "gpu.subgroup_reduce",
})
#: allocations a batched kernel may contain only in shared local memory (one workgroup per batch then)
_SLM_ONLY = frozenset({"memref.alloc", "memref.alloca"})
_REGION_OPS = frozenset({"scf.for", "scf.if"})
# ... and at lane level: collectives and per-lane scattered accesses without a batched form
_LANE_EXCLUDED = frozenset({"xegpu.load", "xegpu.store", "xegpu.prefetch", "xegpu.create_tdesc",
                            "xegpu.update_offset"})
# Ops without side effects beyond reading memory: with uniform operands they run once for the whole batch.
_READS = frozenset({"memref.load", "vector.load", "vector.transfer_read", "vector.maskedload", "vector.gather",
                    "xegpu.load", "xegpu.prefetch", "xegpu.prefetch_nd", "memref.dim", "gpu.return"})

BATCH_IMPLS: dict[str, Callable[[Any, Any], Any]] = {}
#: counts for tests and benchmarks: batches run batched, batches re-run one instance at a time
STATS = {"batched": 0, "fallback": 0}


class Diverged(Exception):
    """The instances of a batch disagree on control flow; the batch runs again instance by instance."""


def batch_impl(*names: str):
    """Register the batched compile function of ops (same contract as ``@impl``; the step sees Varying values)."""
    def wrap(fn):
        for n in names:
            BATCH_IMPLS[n] = fn
        return fn

    return wrap


# ----------------------------------------------------------------------------------------------- qualification
def batchable(engine: Any, kernel: Any, level: str) -> str | None:
    """None when the kernel's launches may run batched, else the reason they may not."""
    if level not in ("subgroup", "vc", "workgroup", "lane"):
        return f"{level}-level kernel"
    cfg = engine.config
    if cfg.kernel_reference:
        return "the reference engine runs one subgroup at a time"
    if cfg.schedule == "random":
        return "the random schedule interleaves single subgroups"
    watcher = per_instance_reason(engine)
    if watcher is not None:
        return f"{watcher} follows single subgroups"
    if engine.config.batch < 2:
        return "batches of fewer than 2 instances (XESIM_BATCH)"
    ft = kernel.attributes["function_type"].type
    if len(kernel.regions[0].blocks[0].args) != len(ft.inputs) + _workgroup_attributions(kernel):
        return "private attributions"
    for op in kernel.walk():
        if op is kernel:
            continue
        if op.name in _EXCLUDED or (level == "lane" and op.name in _LANE_EXCLUDED) or \
                (level != "lane" and op.name == "gpu.shuffle"):
            return f"contains {op.name}"
        if op.name in _SLM_ONLY and not _in_slm(op.results[0].type):
            return f"contains {op.name} of global memory"
        if op.regions and op.name not in _REGION_OPS:
            return f"contains {op.name} (a region op without a batched form)"
        if any(len(r.blocks) > 1 for r in op.regions):
            return "multi-block region"
    if len(kernel.regions[0].blocks) != 1:
        return "multi-block kernel body"
    return None


def _workgroup_attributions(kernel: Any) -> int:
    attr = kernel.attributes.get("workgroup_attributions")
    return attr.value if attr is not None else 0


def _in_slm(t: Any) -> bool:
    from xesim.exec.ops.memref import is_workgroup_space
    from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

    if isinstance(t, T.TensorDescType):
        return t.memory_space == "slm"
    if isinstance(t, T.MemDescType):
        return True
    return isinstance(t, T.MemRefType) and is_workgroup_space(getattr(t, "memory_space", None))


def uses_slm(kernel: Any) -> bool:
    """Whether the kernel has workgroup attributions or any value in shared local memory: its batches are then one
    workgroup each (every instance of a batch sees the same SLM, so SLM values stay uniform)."""
    if _workgroup_attributions(kernel):
        return True
    return any(_in_slm(v.type) for op in kernel.walk() for v in (*op.operands, *op.results))


# ----------------------------------------------------------------------------------------------- compiler
class BatchState:
    """The batch being executed: ids of its instances (arrays over the instance axis)."""

    def __init__(self) -> None:
        self.n = 0
        self.block_id = np.zeros((0, 3), np.int64)
        self.thread_id = np.zeros((0, 3), np.int64)
        self.subgroup_id = np.zeros(0, np.int64)


class BatchCompiler(Compiler):
    """Compiles a kernel for batches of ``n`` instances (module docstring)."""

    def __init__(self, engine: Any, func_op: Any, n: int, bs: BatchState) -> None:
        super().__init__(engine, func_op)
        self.n = n
        self.bs = bs

    def compile_op(self, op: Any, is_term: bool) -> Any:
        fn = BATCH_IMPLS.get(op.name)
        if fn is not None:
            return fn(op, self)
        compiled = Compiler.compile_op(self, op, is_term)
        if compiled is None or is_term:
            return compiled
        return per_instance(op, self, compiled)


def _as_uniform(v: Any) -> Any:
    """A Varying whose items are all equal as one value, else the Varying."""
    if type(v) is not Varying:
        return v
    arr = v.arr
    if arr is not None and arr.ndim == 1:
        return arr[0].item() if (arr == arr[0]).all() else v
    items = v.lanes
    first = items[0]
    if isinstance(first, np.ndarray) or any(not (x == first) for x in items[1:]):
        return v
    return first


def _varies(v: Any) -> bool:
    return isinstance(v, Varying)


def run_each(fr: list, n: int, step: Callable[[list], None], in_slots: list[int], out_slots: list[int]) -> list:
    """Run ``step`` once per instance with that instance's operand values; per result slot, the list of
    instance results."""
    saved = [fr[s] for s in in_slots]
    var = [(s, v) for s, v in zip(in_slots, saved) if _varies(v)]
    items = [(s, v.lanes) for s, v in var]
    outs: list[list] = [[None] * n for _ in out_slots]
    try:
        for i in range(n):
            for s, lst in items:
                fr[s] = lst[i]
            step(fr)
            for k, s in enumerate(out_slots):
                outs[k][i] = fr[s]
    finally:
        for s, v in zip(in_slots, saved):
            fr[s] = v
    return outs


def _stack_or_list(vals: list) -> Varying:
    """Per-instance results as one value: with their ``[B, ...]`` stack when they are same-shaped arrays."""
    if isinstance(vals[0], np.ndarray):
        try:
            return Varying(vals, np.stack(vals))
        except ValueError:
            pass
    return Varying(vals)


def per_instance(op: Any, cx: BatchCompiler, step: Callable[[list], None]) -> Callable[[list], None]:
    """The batched step of an op with only an ordinary implementation (module docstring)."""
    n = cx.n
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    out_slots = cx.slots(op.results)
    pure = op.opdef is not None and "pure" in op.opdef.traits
    once = pure or op.name in _READS or op.name.startswith(("arith.", "math.", "index.", "gpu.")) and not op.regions
    vector_shape = tuple(op.results[0].type.shape) if _elementwise(op) else None
    clone = _scalar_clone(op, cx, n)
    op_slots = cx.slots(op.operands)

    def bstep(fr: list) -> None:
        if not any(_varies(fr[s]) for s in in_slots):
            if once:
                step(fr)
                return
        elif vector_shape is not None and run_on_stacks(fr, step, in_slots, out_slots, n, vector_shape):
            return
        elif clone is not None and run_clone(fr, clone, op_slots, out_slots, n):
            return
        outs = run_each(fr, n, step, in_slots, out_slots)
        for s, vals in zip(out_slots, outs):
            fr[s] = _stack_or_list(vals)

    return bstep


# ----------------------------------------------------------------------------------------------- control flow
@batch_impl("scf.for")
def _for(op: Any, cx: BatchCompiler):
    from xesim.exec.ops.scf import _for_interpreted

    step = _for_interpreted(op, cx)
    bounds = cx.slots(op.operands[:3])

    def bstep(fr: list) -> None:
        saved = [fr[s] for s in bounds]
        for s, v in zip(bounds, saved):
            u = _as_uniform(v)
            if _varies(u):
                raise Diverged("loop bounds differ between instances")
            fr[s] = u
        try:
            step(fr)
        finally:
            for s, v in zip(bounds, saved):
                fr[s] = v

    return bstep


@batch_impl("scf.if")
def _if(op: Any, cx: BatchCompiler):
    from xesim.exec.registry import IMPLS

    step = IMPLS["scf.if"](op, cx)
    c = cx.slot(op.operands[0])

    def bstep(fr: list) -> None:
        saved = fr[c]
        u = _as_uniform(saved)
        if _varies(u):
            raise Diverged("an scf.if condition differs between instances")
        fr[c] = u
        try:
            step(fr)
        finally:
            fr[c] = saved

    return bstep


# ----------------------------------------------------------------------------------------------- ids
def _id_impl(read: Callable[[BatchState, int, Any], np.ndarray]):
    def compile_fn(op: Any, cx: BatchCompiler):
        from xesim.exec.ops.gpu import _dim_index

        out = cx.slot(op.results[0])
        d = _dim_index(op) if "dimension" in op.attributes else 0
        bs, ks = cx.bs, cx.engine.kstate

        def step(fr: list) -> None:
            arr = read(bs, d, ks)
            fr[out] = int(arr[0]) if (arr == arr[0]).all() else Varying.from_stack(arr)

        return step

    return compile_fn


batch_impl("gpu.block_id")(_id_impl(lambda bs, d, ks: bs.block_id[:, d]))
batch_impl("gpu.thread_id")(_id_impl(lambda bs, d, ks: bs.thread_id[:, d]))
batch_impl("gpu.subgroup_id")(_id_impl(lambda bs, d, ks: bs.subgroup_id))
batch_impl("gpu.global_id")(_id_impl(lambda bs, d, ks: bs.block_id[:, d] * ks.block[d] + bs.thread_id[:, d]))


# ----------------------------------------------------------------------------------------------- descriptors
class NdBatch(Varying):
    """Block descriptors of a batch that differ only in their offsets: ``desc`` (any instance's descriptor) and
    ``offs`` ``[B, rank]``; ``lanes`` gives the per-instance :class:`NdDesc` values."""

    __slots__ = ("desc", "offs")

    def __init__(self, desc: NdDesc, offs: np.ndarray) -> None:
        super().__init__(None, None)
        self.desc = desc
        self.offs = offs

    @property
    def lanes(self) -> list:
        if self._lanes is None:
            d = self.desc
            self._lanes = [NdDesc(d.space, d.base, d.height, d.width, d.pitch, tuple(int(x) for x in o),
                                  d.elem_bytes, d.origin, d._surface) for o in self.offs]
        return self._lanes


def _nd_batch(vals: list) -> Varying:
    d0 = vals[0]
    if all(isinstance(d, NdDesc) and d.space is d0.space and d.base == d0.base and d.height == d0.height
           and d.width == d0.width and d.pitch == d0.pitch and d.elem_bytes == d0.elem_bytes for d in vals):
        b = NdBatch(d0, np.array([d.offsets for d in vals], np.int64))
        b._lanes = vals
        return b
    return Varying(vals)


@batch_impl("xegpu.create_nd_tdesc")
def _create_nd_tdesc(op: Any, cx: BatchCompiler):
    """When only the descriptor's own offsets differ between instances (the operands of its last ``rank``
    offsets; the source, shape, strides and leading offsets are the same), the descriptor is made once, for
    instance 0, and the others differ from it only in their offsets: one :class:`NdBatch`.  Otherwise one
    descriptor per instance."""
    from xesim.exec.ops.memref import mixed_list_template
    from xesim.exec.registry import IMPLS

    step = IMPLS[op.name](op, cx)
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    res = cx.slot(op.results[0])
    n = cx.n
    template, _ = mixed_list_template(cx, op, ("offsets",), ("const_offsets",))
    rank = op.results[0].type.rank
    own = template[len(template) - rank:] if len(template) >= rank else []
    elsewhere = set(cx.slots(op.operands)) - {v for dyn, v in own if dyn}
    elsewhere |= {v for dyn, v in template[:len(template) - len(own)] if dyn}
    movable = frozenset(v for dyn, v in own if dyn and v not in elsewhere)  # varying: offsets differ only

    def bstep(fr: list) -> None:
        varying = [s for s in in_slots if _varies(fr[s])]
        if not varying:
            step(fr)
            return
        if len(own) != rank or not movable.issuperset(varying):
            fr[res] = _nd_batch(run_each(fr, n, step, in_slots, [res])[0])
            return
        saved = {s: fr[s] for s in varying}
        try:
            for s in varying:
                fr[s] = saved[s].lanes[0]
            step(fr)
        finally:
            for s, v in saved.items():
                fr[s] = v
        cols = [stacked(fr[v], n).astype(np.int64) if dyn else np.full(n, v, np.int64) for dyn, v in own]
        fr[res] = NdBatch(fr[res], np.stack(cols, axis=1))

    return bstep


def _op_offsets(fr: list, get_off: Any, n: int) -> np.ndarray | None:
    """The op's offset operands as int64 ``[n, rank]``, or ``[rank]`` when they are the same for every instance
    (it broadcasts against ``[n, rank]``); None when there are none."""
    offs = get_off(fr)
    if not offs:
        return None
    if not any(_varies(o) for o in offs):
        return np.array([int(o) for o in offs], np.int64)
    cols = [stacked(o, n).astype(np.int64) if _varies(o) else np.full(n, int(o), np.int64) for o in offs]
    return np.stack(cols, axis=1)


def _desc_and_offsets(fr: list, s_td: int, get_off: Any, n: int) -> tuple[NdDesc, np.ndarray] | None:
    """The batch's common descriptor and every instance's block start ``[n, rank]``, or None when the
    descriptors differ in more than their offsets."""
    d = fr[s_td]
    if isinstance(d, NdBatch):
        base, offs = d.desc, d.offs
    elif isinstance(d, NdDesc):
        base, offs = d, np.broadcast_to(np.array(d.offsets, np.int64), (n, len(d.offsets)))
    else:
        return None
    extra = _op_offsets(fr, get_off, n)
    if extra is not None:
        if extra.shape[-1] != offs.shape[1]:
            return None
        offs = offs + extra
    return base, offs


def _block_starts(fr: list, s_td: int, get_off: Any, n: int) -> tuple[NdDesc, Any, Any] | None:
    """A 2-D block op's common descriptor and every instance's block start as (descriptor, y, x): each an int
    when it is the same for every instance, else an int64 array ``[n]``; None when the descriptors differ in more
    than their offsets or the op's offsets do not match the descriptor's rank."""
    d = fr[s_td]
    if isinstance(d, NdBatch):
        base, y, x = d.desc, d.offs[:, 0], d.offs[:, 1]
    elif isinstance(d, NdDesc):
        base, (y, x) = d, d.offsets
    else:
        return None
    offs = get_off(fr)
    if offs:
        if len(offs) != 2:
            return None
        oy, ox = offs
        y = y + (stacked(oy, n).astype(np.int64) if _varies(oy) else int(oy))
        x = x + (stacked(ox, n).astype(np.int64) if _varies(ox) else int(ox))
    return base, y, x


#: group_ints results of the last lane values it saw (kept alive: compared by identity), newest last; a loop's
#: loads take the same offset values (e.g. a tile row computed before the loop) at every iteration
_RECENT_GROUPS: list = []


def group_ints(v: Any, groups: int, size: int) -> np.ndarray:
    """Batched lane level: the value of each of ``groups`` subgroups (``size`` lanes each) of an integer lane value
    that is uniform within every subgroup (read-only); ExecFault (the batch falls back) when it is not."""
    if not _varies(v):
        return np.full(groups, int(v), np.int64)
    for rv, rg, rs, got in _RECENT_GROUPS:
        if rv is v and rg == groups and rs == size:
            return got
    got = _group_ints(v, groups, size)
    got.flags.writeable = False
    _RECENT_GROUPS.append((v, groups, size, got))
    del _RECENT_GROUPS[:-8]
    return got


def _group_ints(v: Any, groups: int, size: int) -> np.ndarray:
    arr = v.arr if v.arr is not None and v.arr.ndim == 1 else np.array(v.lanes, dtype=object)
    try:
        g = np.asarray(arr, np.int64).reshape(groups, size)
    except (TypeError, ValueError) as exc:
        raise ExecFault(f"a subgroup-uniform operand is not an integer per lane ({exc})") from None
    if not (g == g[:, :1]).all():
        raise ExecFault("an operand of a collective op differs between the lanes of a subgroup")
    return g[:, 0]


def group_block_starts(fr: list, s_td: int, get_off: Any, groups: int, size: int) -> tuple[NdDesc, np.ndarray]:
    """Batched lane level: the common block descriptor and each subgroup's block start ``[groups, rank]``
    (descriptor offsets + op offsets), or ExecFault when they are not uniform within every subgroup or the
    subgroups' descriptors differ in more than their offsets."""
    d = fr[s_td]
    if isinstance(d, NdDesc):
        base, offs = d, np.broadcast_to(np.array(d.offsets, np.int64), (groups, len(d.offsets)))
    elif isinstance(d, NdBatch) and len(d.offs) == groups * size:
        o = d.offs.reshape(groups, size, -1)
        if not (o == o[:, :1]).all():
            raise ExecFault("the descriptor of a collective op differs between the lanes of a subgroup")
        base, offs = d.desc, o[:, 0]
    elif _varies(d):
        lanes = d.lanes
        reps = lanes[::size]
        if any(lanes[i] != reps[i // size] for i in range(len(lanes))):
            raise ExecFault("the descriptor of a collective op differs between the lanes of a subgroup")
        b = _nd_batch(reps)
        if not isinstance(b, NdBatch):
            raise ExecFault("the subgroups' descriptors differ in more than their offsets")
        base, offs = b.desc, b.offs
    else:
        raise ExecFault("not a block descriptor")
    extra = [group_ints(o, groups, size) for o in get_off(fr)]
    if extra:
        if len(extra) != offs.shape[1]:
            raise ExecFault("offsets do not match the descriptor's rank")
        offs = offs + np.stack(extra, axis=1)
    return base, offs


def block_gather(engine: Any, op: Any, d: NdDesc, offs: np.ndarray, info: dict) -> np.ndarray:
    """Every instance's 2-D block load (``info`` from ``compile_load_nd``) as ``arrange(memory tiles)`` with a
    leading instance axis; ExecFault when some block is not wholly inside the surface (the batch falls back)."""
    mdt = info["mdt"]
    where = _Block2D(engine, op, d, offs[:, 0], offs[:, 1], len(offs), info["rows"], info["width_units"],
                     mdt.itemsize, info["per_unit"], info["check"], info["plan"], "load", info["bits"])
    if where.flat is None or not where.all_inside:
        raise ExecFault("a block of the batch reaches outside the surface")
    return info["arrange"](where.gather(None).view(mdt))


def block_scatter(engine: Any, op: Any, d: NdDesc, offs: np.ndarray, tiles: np.ndarray, plan: Any,
                  check: bool) -> None:
    """Every instance's 2-D block store of ``tiles [n, rows, cols]`` (memory order), validated like the
    per-instance store; ExecFault when a block is not wholly inside the surface or two instances write one
    element (the batch falls back to instance order)."""
    n, rows, cols = tiles.shape
    isz = tiles.dtype.itemsize
    where = _Block2D(engine, op, d, offs[:, 0], offs[:, 1], n, rows, cols, isz, 1, check, plan, "store", isz * 8)
    if where.flat is None or not where.all_inside:
        raise ExecFault("a block of the batch reaches outside the surface")
    if where.overlap():
        raise ExecFault("instances of the batch store to the same element")
    where.scatter(np.ascontiguousarray(tiles).view(where.flat.dtype))


@batch_impl("xegpu.update_nd_offset")
def _update_nd_offset(op: Any, cx: BatchCompiler):
    from xesim.exec.ops.xegpu import _operand, mixed_list
    from xesim.exec.registry import IMPLS

    step = IMPLS[op.name](op, cx)
    s_td = cx.slot(_operand(op, "TensorDesc"))
    res = cx.slot(op.results[0])
    get_off, _ = mixed_list(cx, op, ("offsets",), ("const_offsets",))
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    n = cx.n

    def bstep(fr: list) -> None:
        d = fr[s_td]
        if not any(_varies(fr[s]) for s in in_slots):
            step(fr)
            return
        if isinstance(d, (NdBatch, NdDesc)):
            got = _desc_and_offsets(fr, s_td, get_off, n)
            if got is not None:
                fr[res] = NdBatch(got[0], np.ascontiguousarray(got[1]))
                return
        fr[res] = _nd_batch(run_each(fr, n, step, in_slots, [res])[0])

    return bstep


#: a read-only all-True mask for batches whose blocks are all inside their surface
_ALL_TRUE = np.ones(4096, np.bool_)
_ALL_TRUE.flags.writeable = False


@numba.njit(cache=True)
def _range_residue(v, mod):  # noqa: ANN001, ANN202
    """Least and greatest element of the int64 array ``v`` and, when every element has the same residue modulo
    ``mod`` (> 0), that residue, else -1: one pass instead of three numpy reductions."""
    lo = v[0]
    hi = v[0]
    r0 = v[0] % mod
    same = True
    for i in range(1, v.shape[0]):
        e = v[i]
        lo = min(lo, e)
        hi = max(hi, e)
        if same and e % mod != r0:
            same = False
    return lo, hi, r0 if same else -1


def _stats(v: Any, mod: int) -> tuple[int, int, int]:
    """(least, greatest, common residue modulo ``mod`` or -1) of ``v``: an int, or a non-empty int64 array."""
    if isinstance(v, np.ndarray):
        lo, hi, r = _range_residue(v, mod)
        return int(lo), int(hi), int(r)
    return v, v, v % mod


def _validate_messages(engine: Any, op: Any, d: NdDesc, y: Any, x: Any, plan: Any, kind: str,
                       ys: tuple[int, int, int] | None = None, xs: tuple[int, int, int] | None = None) -> None:
    """Check every message of ``plan`` at every block start (``y``, ``x`` in message units: ints when the same
    for every instance, else int64 arrays) against the target's 2-D block rules and report what they find
    (``xegpu._report``).  The rules read a start only through ``x mod L`` and whether it is in the offset range
    (``_BlockChecker``): one start per such class is checked, and a class whose messages all passed is remembered
    per (surface, plan, kind) and not checked again.  ``ys``/``xs``: :func:`_stats` of ``y``/``x`` modulo the
    checker's ``L`` when the caller has them."""
    from xesim.exec.ops.xegpu import _checker, _report, _surface

    checker = _checker(engine)
    lo, hi, mod = checker.lo, checker.hi, checker.modulus
    xlo, xhi, xres = xs if xs is not None else _stats(x, mod)
    ylo, yhi, _ = ys if ys is not None else _stats(y, mod)
    if xlo >= lo and xhi <= hi and ylo >= lo and yhi <= hi:
        if not isinstance(x, np.ndarray):
            starts: Any = [(x % mod * 2 + 1, x, ylo)]
        else:
            if xres >= 0:
                starts = [(xres * 2 + 1, int(x[0]), ylo)]
            else:
                xm = x % mod
                keys, first = np.unique(xm * 2 + 1, return_index=True)
                starts = [(int(k), int(x[i]), int(np.broadcast_to(y, x.shape)[i])) for k, i in zip(keys, first)]
    else:
        n = max(np.size(x), np.size(y))
        xs, ys = np.broadcast_to(x, n), np.broadcast_to(y, n)
        inside = (xs >= lo) & (xs <= hi) & (ys >= lo) & (ys <= hi)
        keys, first = np.unique(xs % mod * 2 + inside, return_index=True)
        starts = [(int(k), int(xs[i]), int(ys[i])) for k, i in zip(keys, first)]
    surf = _surface(d)
    clean = checker.clean  # classes whose messages all passed before: nothing to report again
    for key, xi, yi in starts:
        ck = (surf, plan, kind, key)
        if ck in clean:
            continue
        found = False
        for msg in plan.messages:
            blk = msg.block
            bx, by = xi + msg.x_off, yi + msg.y_off
            v = checker(surf, blk, bx, by, kind)
            if v:
                found = True
                _report(engine, op, v, f"2D block {kind} of {blk.height}x{blk.width}x{blk.count} at [{by}, {bx}]")
        if not found and len(clean) < 65536:
            clean.add(ck)


class _Block2D:
    """Where a batch's 2-D blocks lie: every instance's start (x in message units, y) and whether its whole
    block is inside the surface (then it is read / written straight from the allocation's bytes).

    Every message is validated (:func:`_validate_messages`).  ``locate=False`` (prefetches) stops there: no
    bounds, no allocation.  ``all_inside`` says whether every block is inside the surface; ``inside`` is the
    per-instance mask."""

    def __init__(self, engine: Any, op: Any, d: NdDesc, y: Any, x: Any, n: int, rows: int, width_units: int,
                 unit: int, per_unit: int, check: bool, plan: Any, kind: str, bits: int,
                 locate: bool = True) -> None:
        """``y``/``x``: the ``n`` instances' block starts in elements (an int when the same for all, else an
        int64 array ``[n]``)."""
        from xesim.exec.ops.xegpu import _checker, _oob_region

        cols_el = width_units * per_unit
        self.flat = None
        self.rows, self.width_units = rows, width_units
        mod = _checker(engine).modulus
        xs, ys = _stats(x, mod), _stats(y, mod)
        if locate:
            xmin, xmax, _ = xs
            ymin, ymax, _ = ys
            self.all_inside = xmin >= 0 and ymin >= 0 and xmax + cols_el <= d.width and ymax + rows <= d.height
            if self.all_inside:
                self.inside = _ALL_TRUE[:n] if n <= len(_ALL_TRUE) else np.ones(n, np.bool_)
            else:
                self.inside = np.broadcast_to((x >= 0) & (y >= 0) & (x + cols_el <= d.width) & (y + rows <= d.height),
                                              n)
                if not check:
                    i = int(np.argmin(self.inside))
                    xi, yi = int(np.broadcast_to(x, n)[i]), int(np.broadcast_to(y, n)[i])
                    raise ExecFault(_oob_region(d, xi, yi, rows, cols_el) or "out of bounds")
        if per_unit > 1:
            if np.any(x % per_unit):
                raise ExecFault(f"a column offset of a transposed {bits}-bit load is not a multiple of {per_unit}")
            x = x // per_unit
            xs = _stats(x, mod)
        self.x, self.y, self.n = x, y, n
        _validate_messages(engine, op, d, y, x, plan, kind, ys, xs)
        if not locate:
            return
        # the allocation holding the whole surface, as a flat array of units
        pitch = d.pitch_bytes
        if pitch % unit == 0 and d.height > 0:
            try:
                alloc, off = d.space.resolve(d.base, (d.height - 1) * pitch + d.width_bytes)
            except MemoryFault:
                alloc = None
            if alloc is not None and off % unit == 0:
                size = alloc.data.size // unit * unit
                self.flat = alloc.data[:size].view(np.dtype(f"u{unit}") if unit in (1, 2, 4, 8) else np.uint8)
                start = off // unit + y * (pitch // unit) + x
                self.start = start if isinstance(start, np.ndarray) else np.full(n, start, np.int64)
                self.pitch_units = pitch // unit

    def gather(self, sel: np.ndarray | None) -> np.ndarray:
        """The blocks of instances ``sel`` (None: all) as ``[len(sel), rows, width_units]`` units (numba row
        copies, on numba's threads for large batches)."""
        start = self.start if sel is None else self.start[sel]
        out = np.empty((len(start), self.rows, self.width_units), self.flat.dtype)
        threads = _copy_threads(out.nbytes, len(start))
        if threads > 1:
            _copy_blocks_parallel(self.flat, np.ascontiguousarray(start), self.pitch_units, out, False, threads,
                                  chunk_count(threads, len(start)))
        else:
            _gather_blocks(self.flat, np.ascontiguousarray(start), self.pitch_units, out)
        return out

    def overlap(self) -> bool:
        """Whether two instances' blocks share a unit (same-shaped rectangles of one surface)."""
        x, y = np.broadcast_to(self.x, self.n), np.broadcast_to(self.y, self.n)
        order = np.lexsort((x, y))
        return bool(_rectangles_overlap(np.ascontiguousarray(y[order]), np.ascontiguousarray(x[order]),
                                        self.rows, self.width_units))

    def scatter(self, tiles: np.ndarray) -> None:
        """Write every instance's block from ``tiles [n, rows, width_units]`` (flat's unit type; blocks do not
        overlap: :meth:`overlap`)."""
        start, tiles = np.ascontiguousarray(self.start), np.ascontiguousarray(tiles)
        threads = _copy_threads(tiles.nbytes, len(start))
        if threads > 1:
            _copy_blocks_parallel(self.flat, start, self.pitch_units, tiles, True, threads,
                                  chunk_count(threads, len(start)))
        else:
            _scatter_blocks(self.flat, start, self.pitch_units, tiles)


#: bytes a batched block copy must move before it is split over numba's threads
PARALLEL_COPY_BYTES = 1 << 17


def _copy_threads(nbytes: int, blocks: int) -> int:
    """Threads for a block copy of ``nbytes`` over ``blocks`` instances: numba's thread count (``--jobs``) for
    large copies, else 1."""
    if nbytes < PARALLEL_COPY_BYTES or blocks < 2:
        return 1
    return min(numba.get_num_threads(), blocks)


@numba.njit(cache=True)
def _gather_blocks(flat, start, pitch, out):  # noqa: ANN001, ANN202
    _gather_range(flat, start, pitch, out, 0, out.shape[0])


@numba.njit(cache=True)
def _gather_range(flat, start, pitch, out, lo, hi):  # noqa: ANN001, ANN202
    rows, w = out.shape[1], out.shape[2]
    for b in range(lo, hi):
        for r in range(rows):
            o = start[b] + r * pitch
            for c in range(w):
                out[b, r, c] = flat[o + c]


@numba.njit(cache=True)
def _scatter_blocks(flat, start, pitch, tiles):  # noqa: ANN001, ANN202
    _scatter_range(flat, start, pitch, tiles, 0, tiles.shape[0])


@numba.njit(cache=True)
def _scatter_range(flat, start, pitch, tiles, lo, hi):  # noqa: ANN001, ANN202
    rows, w = tiles.shape[1], tiles.shape[2]
    for b in range(lo, hi):
        for r in range(rows):
            o = start[b] + r * pitch
            for c in range(w):
                flat[o + c] = tiles[b, r, c]


@numba.njit(cache=True, parallel=True)
def _copy_blocks_parallel(flat, start, pitch, tiles, to_flat, threads, nchunks):  # noqa: ANN001, ANN202
    """:func:`_scatter_blocks` (``to_flat``) or :func:`_gather_blocks` (into ``tiles``) in ``nchunks`` ranges of
    blocks handed out to ``threads`` threads one at a time (xesim/numerics/work_queue.py).  A scatter's blocks do
    not overlap (the caller checked): the chunks write disjoint units."""
    n = tiles.shape[0]
    next_chunk = np.zeros(1, np.int64)
    for _ in numba.prange(threads):
        ch = claim(next_chunk, nchunks)
        while ch >= 0:
            lo, hi = ch * n // nchunks, (ch + 1) * n // nchunks
            if to_flat:
                _scatter_range(flat, start, pitch, tiles, lo, hi)
            else:
                _gather_range(flat, start, pitch, tiles, lo, hi)
            ch = claim(next_chunk, nchunks)


@numba.njit(cache=True)
def _rectangles_overlap(ys, xs, rows, w):  # noqa: ANN001, ANN202
    """``rows`` x ``w`` rectangles at (ys[i], xs[i]), sorted by y then x: does any pair overlap?"""
    n = ys.shape[0]
    for i in range(n):
        j = i + 1
        while j < n and ys[j] < ys[i] + rows:
            if abs(xs[j] - xs[i]) < w:
                return True
            j += 1
    return False


@batch_impl("xegpu.load_nd")
def _load_nd(op: Any, cx: BatchCompiler):
    from xesim.exec.ops.xegpu import _level_guard, _offsets_getter, _operand, _simt_value, compile_load_nd

    _level_guard(op)
    td_v = _operand(op, "TensorDesc")
    td = td_v.type
    vt = op.results[0].type
    res = cx.slot(op.results[0])
    if _simt_value(op, td, vt):
        from xesim.exec.ops.xegpu import LANE_LEVEL, compile_error

        raise compile_error(op, LANE_LEVEL)
    info: dict = {}
    step = compile_load_nd(op, cx, res, tuple(vt.shape), info)
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    s_td = cx.slot(td_v)
    get_off = _offsets_getter(cx, op, td.rank)
    n = cx.n
    engine = cx.engine
    out_shape = tuple(vt.shape)

    def bstep(fr: list) -> None:
        if not any(_varies(fr[s]) for s in in_slots):
            step(fr)
            return
        got = _block_starts(fr, s_td, get_off, n) if info else None
        if got is None:
            fr[res] = _stack_or_list(run_each(fr, n, step, in_slots, [res])[0])
            return
        d, y, x = got
        mdt = info["mdt"]
        where = _Block2D(engine, op, d, y, x, n, info["rows"], info["width_units"], mdt.itemsize, info["per_unit"],
                         info["check"], info["plan"], "load", info["bits"])
        out = None
        if where.flat is not None and where.all_inside:
            fr[res] = Varying.from_stack(info["arrange"](where.gather(None).view(mdt)))
            return
        if where.flat is not None:
            sel = np.nonzero(where.inside)[0]
            if len(sel):
                mem = where.gather(sel).view(mdt)
                tiles = info["arrange"](mem)
                if len(sel) == n:
                    fr[res] = Varying.from_stack(tiles)
                    return
                out = np.empty((n, *out_shape), tiles.dtype)
                out[sel] = tiles
        rest = np.nonzero(~where.inside)[0] if out is not None else np.arange(n)
        saved = [fr[s] for s in in_slots]
        items = [(s, v.lanes) for s, v in zip(in_slots, saved) if _varies(v)]
        try:
            for i in rest:
                for s, lst in items:
                    fr[s] = lst[i]
                step(fr)
                if out is None:
                    out = np.empty((n, *np.shape(fr[res])), np.asarray(fr[res]).dtype)
                out[i] = fr[res]
        finally:
            for s, v in zip(in_slots, saved):
                fr[s] = v
        fr[res] = Varying.from_stack(out)

    return bstep


@batch_impl("xegpu.prefetch_nd")
def _prefetch_nd(op: Any, cx: BatchCompiler):
    from xesim.exec.ops.xegpu import _BlockPlan, _elem_info, _offsets_getter, _operand
    from xesim.exec.registry import IMPLS

    step = IMPLS[op.name](op, cx)
    td_v = _operand(op, "TensorDesc")
    td = td_v.type
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    s_td = cx.slot(td_v)
    get_off = _offsets_getter(cx, op, td.rank)
    n = cx.n
    engine = cx.engine
    plan = None
    if td.rank == 2:
        _, isz = _elem_info(op, td.element_type)
        rows, cols = td.shape
        plan = _BlockPlan(op, engine, isz, rows, cols * td.array_length, "prefetch")

    def bstep(fr: list) -> None:
        if not any(_varies(fr[s]) for s in in_slots):
            step(fr)
            return
        got = _block_starts(fr, s_td, get_off, n) if plan is not None else None
        if got is None:
            run_each(fr, n, step, in_slots, [])
            return
        d, y, x = got
        # checks only: a prefetch has no architectural effect; out-of-surface prefetches are legal (§1.4)
        _Block2D(engine, op, d, y, x, n, rows, cols * td.array_length, isz, 1, True, plan, "prefetch", isz * 8,
                 locate=False)

    return bstep


@batch_impl("xegpu.store_nd")
def _store_nd(op: Any, cx: BatchCompiler):
    from xesim.exec.ops.xegpu import _BlockPlan, _elem_info, _offsets_getter, _operand
    from xesim.exec.registry import IMPLS

    step = IMPLS[op.name](op, cx)
    td_v = _operand(op, "TensorDesc")
    td = td_v.type
    s_val = cx.slot(_operand(op, "value"))
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    s_td = cx.slot(td_v)
    get_off = _offsets_getter(cx, op, td.rank)
    n = cx.n
    engine = cx.engine
    dt, isz = _elem_info(op, td.element_type)
    plan = None
    if td.rank == 2:
        rows, cols = td.shape
        plan = _BlockPlan(op, engine, isz, rows, cols, "store")

    def bstep(fr: list) -> None:
        if not any(_varies(fr[s]) for s in in_slots):
            run_each(fr, n, step, in_slots, [])  # every instance stores (same bytes: no visible difference)
            return
        got = _block_starts(fr, s_td, get_off, n) if plan is not None else None
        if got is not None:
            d, y, x = got
            where = _Block2D(engine, op, d, y, x, n, rows, cols, isz, 1, td.boundary_check, plan, "store", isz * 8)
            if where.flat is not None and where.all_inside and not where.overlap():
                # no two instances write one element: the order does not matter
                vals = np.ascontiguousarray(stacked(fr[s_val], n), dtype=dt).reshape(n, rows, cols)
                where.scatter(vals.view(where.flat.dtype))
                return
        run_each(fr, n, step, in_slots, [])  # in instance order

    return bstep


#: the B operands of the last batched DPAS ops (SSA values: never changed once made), newest last: a weak reference
#: to the value (the entry goes when the value does; a live referent's identity cannot be a recycled address), the
#: batch size and B as [n, K, N]
_RECENT_B: list = []


def _drop_dead_b(ref: weakref.ref) -> None:
    _RECENT_B[:] = [entry for entry in _RECENT_B if entry[0] is not ref]


def _forget_dpas_operands() -> None:
    """Release the B operands kept for the next DPAS ops and their decodings, and the lane values kept by
    :func:`group_ints` (end of a batch)."""
    from xesim.numerics.dpas import forget_reused_b

    _RECENT_B.clear()
    _RECENT_GROUPS.clear()
    forget_reused_b()


@batch_impl("xegpu.dpas")
def _dpas(op: Any, cx: BatchCompiler):
    from xesim.exec.ops.xegpu import _operand, _type_name
    from xesim.exec.registry import IMPLS
    from xesim.exec.values import dtype_of
    from xesim.exec.vnni import unpack as unpack_vnni
    from xesim.numerics.dpas import DpasCall, model_from_target
    from xesim.numerics.tile_classes import tile_classes

    step = IMPLS[op.name](op, cx)
    lhs, rhs, acc = _operand(op, "lhs"), _operand(op, "rhs"), _operand(op, "acc")
    lt, bt, rt = lhs.type, rhs.type, op.results[0].type
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    engine = cx.engine
    model = model_from_target(engine.target, engine.config.dpas_model)
    a_name, b_name, d_name = _type_name(lt.element_type), _type_name(bt.element_type), _type_name(rt.element_type)
    c_name = _type_name(acc.type.element_type) if acc is not None else d_name
    m, k = lt.shape
    nn = rt.shape[1]
    vnni = bt.rank == 3
    s_a, s_b = cx.slot(lhs), cx.slot(rhs)
    s_c = cx.slot(acc) if acc is not None else None
    res = cx.slot(op.results[0])
    rdt = dtype_of(rt.element_type)
    n = cx.n
    call = DpasCall(a_name, b_name, c_name, d_name, model, engine.target)

    def bstep(fr: list) -> None:
        if not any(_varies(fr[s]) for s in in_slots):
            step(fr)
            return
        a = stacked(fr[s_a], n)
        bv = fr[s_b]
        kept = next((kb for kv, kn, kb in _RECENT_B if kv() is bv and kn == n), None)  # one step's ops share B
        if kept is None:
            b, classes = stacked(bv, n), None
            if vnni:  # unpacked once per distinct tile: a GEMM batch shares B among its M-dimension tiles
                classes, firsts = tile_classes(b)
                if firsts is not None:
                    b = b[firsts]
                b = unpack_vnni(b)  # [n, K/v, N, v] -> [n, K, N]
            kept = b, classes
            try:
                _RECENT_B.append((weakref.ref(bv, _drop_dead_b), n, kept))
                del _RECENT_B[:-4]
            except TypeError:  # not weakly referable: not kept
                pass
        b, classes = kept
        c = stacked(fr[s_c], n) if s_c is not None else None
        try:  # the Varying stands for B's value: dpas reuses its decoding of B for the next op with it
            d = call(a, b, c, b_token=bv, b_classes=classes)
        except ValueError as exc:
            raise ExecFault(str(exc)) from None
        fr[res] = Varying.from_stack(np.asarray(d).astype(rdt, copy=False).reshape(n, m, nn))

    return bstep


# ----------------------------------------------------------------------------------------------- barriers
class LockstepSync:
    """Barriers of a batch whose instances run in lockstep (ARCHITECTURE.md "Scheduling").

    A batch holds whole workgroups and leaves lockstep only by falling back (:class:`Diverged`), so every
    instance reaches each ``gpu.barrier`` (and ``xegpu.fence``) at the same time: all its workgroup's memory
    operations before the barrier have been executed when any instance goes on, and the barrier costs nothing.
    Named barriers count each instance's signal per workgroup as the coroutine scheduler does (instances in order:
    one interleaving the hardware may produce); a wait whose phase has not completed — its other participants
    are not in this batch's lockstep — abandons the batch, and the workgroups run again as coroutines
    (:mod:`xesim.exec.scheduler`), which also report any misuse.  At lane level an instance is a subgroup, and a
    named-barrier op executed under a partial lane mask abandons the batch too."""

    def __init__(self, ks: Any, workgroups: int, per_wg: int, sgid: np.ndarray) -> None:
        from xesim.exec.scheduler import NamedBarriers

        self.ks = ks
        self.per_wg = per_wg
        self.n = workgroups * per_wg
        self.tables = [NamedBarriers(lambda i, g=g: f"subgroup {int(sgid[i % per_wg])} of workgroup {g}")
                       for g in range(workgroups)]

    def barrier(self, op: Any) -> None:
        return None

    def yield_point(self, op: Any) -> None:
        return None

    def _whole(self) -> None:
        ks = self.ks
        if ks.level == "lane" and ks.lane_mask is not ks.full_mask and ks.lane_mask != ks.full_mask:
            raise Diverged("a named-barrier op under divergent control flow")

    def arrive(self, i: int, bid: int, participants: int, op: Any) -> None:
        """Instance ``i`` signals named barrier ``bid``."""
        self.tables[i // self.per_wg].arrive(i, bid, participants)

    def wait(self, i: int, bid: int, op: Any) -> None:
        """Instance ``i`` waits for the phase it signalled in."""
        nb, phase = self.tables[i // self.per_wg].take(i, bid)
        if nb.phase <= phase:
            raise Diverged("a named-barrier wait would block (its phase needs threads outside the lockstep)")

    def arrive_all(self, bid: int, participants: int, op: Any) -> None:
        self._whole()
        for i in range(self.n):
            self.arrive(i, bid, participants, op)

    def wait_all(self, bid: int, op: Any) -> None:
        self._whole()
        for i in range(self.n):
            self.wait(i, bid, op)


def _nbarrier_impl(method: str):
    """SG/VC/WG batches: a named-barrier op signals or waits for every instance, each with its own barrier."""
    def compile_fn(op: Any, cx: BatchCompiler):
        from xesim.exec.ops.xegpu import _operand

        s = cx.slot(_operand(op, "nbarrier"))
        ks = cx.engine.kstate
        n = cx.n

        def bstep(fr: list) -> None:
            v = fr[s]
            sync = ks.lockstep
            items = v.lanes if _varies(v) else [v] * n
            for i, nb in enumerate(items):
                if method == "arrive":
                    sync.arrive(i, nb.barrier_id, nb.participants, op)
                else:
                    sync.wait(i, nb.barrier_id, op)

        return bstep

    return compile_fn


batch_impl("xegpu.nbarrier_arrive")(_nbarrier_impl("arrive"))
batch_impl("xegpu.nbarrier_wait")(_nbarrier_impl("wait"))


@batch_impl("memref.alloc", "memref.alloca")
def _slm_alloc(op: Any, cx: BatchCompiler):
    """A shared-local-memory allocation is the workgroup's (batches of SLM kernels are one workgroup): made once,
    one value for every instance (batchable admits no other allocation)."""
    from xesim.exec.registry import IMPLS

    return IMPLS[op.name](op, cx)


# ----------------------------------------------------------------------------------------------- running
class _BatchCode:
    """A kernel compiled for batches of ``n`` instances."""

    def __init__(self, engine: Any, kernel: Any, n: int) -> None:
        self.bs = BatchState()
        cx = BatchCompiler(engine, kernel, n, self.bs)
        self.body = cx.compile_region(kernel.regions[0])
        self.nslots = cx.nslots

    def __call__(self, args: list) -> None:
        run_region(self.body, [None] * self.nslots, args)


class _LaneBatchCode:
    """A lane-level kernel compiled for ``lanes`` lane slots (B subgroups x subgroup size): the lane-level
    implementations (:mod:`xesim.exec.lanes`) with ``kstate.lane_batch`` = B; collectives handle each subgroup's
    group of slots (``xesim.exec.ops.lane_xegpu``)."""

    def __init__(self, engine: Any, kernel: Any, lanes: int) -> None:
        from xesim.exec.lanes import LaneCompiler

        cx = LaneCompiler(engine, kernel)
        cx.lane_count = lanes
        self.body = cx.compile_region(kernel.regions[0])
        self.nslots = cx.nslots

    def __call__(self, args: list) -> None:
        run_region(self.body, [None] * self.nslots, args)


def _bytes_per_instance(kernel: Any) -> int:
    """An upper estimate of one instance's vector values: every vector result of the kernel."""
    from xesim.exec.values import storage_bytes
    from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

    total = 1
    for op in kernel.walk():
        for v in op.results:
            if isinstance(v.type, T.VectorType):
                try:
                    total += v.type.num_elements * storage_bytes(v.type.element_type)
                except (NotImplementedError, ValueError, KeyError, TypeError):
                    total += v.type.num_elements * 8
    return total


def runner(engine: Any, kernel: Any, level: str, instances: list, args: list,
           run_workgroups: Callable[[list], None],
           open_workgroup: Callable[[tuple], list]) -> Callable[[list], None] | None:
    """A runner executing the instances of many workgroups together, or None when the kernel does not qualify
    (:func:`batchable`).  ``instances`` are the launcher's (first work-item, subgroup id, lanes) per workgroup;
    ``open_workgroup(wg)`` gives a workgroup its shared local memory and returns its workgroup attributions."""
    if batchable(engine, kernel, level) is not None:
        return None
    per_wg = len(instances)
    sg = engine.target.subgroup.size
    lane = level == "lane"
    if lane and any(inst[2] != sg for inst in instances):
        return None  # a partial subgroup: collectives need whole subgroups (the reference path reports it)
    per_instance_bytes = _bytes_per_instance(kernel) * (sg if lane else 1)
    slm = uses_slm(kernel)
    wgs_per_batch = 1 if slm else max(1, min(engine.config.batch, BATCH_BYTES // per_instance_bytes) // per_wg)
    cache: dict[int, _BatchCode] = engine.__dict__.setdefault("_batch_code", {}).setdefault(id(kernel), {})
    ks = engine.kstate
    bx, by = ks.block[0], ks.block[1]
    lin = np.array([inst[0] for inst in instances], np.int64)
    tid = np.stack([lin % bx, (lin // bx) % by, lin // (bx * by)], axis=1)
    sgid = np.array([inst[1] for inst in instances], np.int64)

    def run(subset: list) -> None:
        """Run ``subset`` (workgroups, grid order) in batches of whole workgroups."""
        # copies of allocations equal to their content now (a --jobs worker's own snapshot): the first batch's
        # roll-back snapshot need not copy them again
        pristine = engine.__dict__.pop("pristine_copies", None) or {}
        for start in range(0, len(subset), wgs_per_batch):
            wgs = subset[start:start + wgs_per_batch]
            n = len(wgs) * per_wg
            if n < 2:
                run_workgroups(wgs)
                continue
            code = cache.get(n)
            if code is None:
                code = cache[n] = _LaneBatchCode(engine, kernel, n * sg) if lane else _BatchCode(engine, kernel, n)
            block_ids = np.repeat(np.array(wgs, np.int64), per_wg, axis=0)
            if lane:
                ks.lane_groups = (block_ids, np.tile(sgid, len(wgs)))
                ks.lane_batch, ks.lane_count = n, n * sg
                ks.full_mask = ks.lane_mask = tuple(range(n * sg))
                ks.lane_id = None
            else:
                bs = code.bs
                bs.n = n
                bs.block_id = block_ids
                bs.thread_id = np.tile(tid, (len(wgs), 1))
                bs.subgroup_id = np.tile(sgid, len(wgs))
            allocs = launch_allocations(engine, kernel, args)
            snapshot = [(a, pristine[id(a)] if start == 0 and id(a) in pristine else a.data.copy()) for a in allocs]
            ks.block_id, ks.subgroup_id, ks.thread_id = wgs[0], 0, (0, 0, 0)
            attributions = open_workgroup(wgs[0]) if slm else []  # one workgroup per batch (uses_slm)
            if not slm:
                ks.slm = None
            sync = LockstepSync(ks, len(wgs), per_wg, sgid)
            saved_sync = (ks.barrier, ks.yield_point, ks.nbarrier_arrive, ks.nbarrier_wait)
            ks.barrier, ks.yield_point = sync.barrier, sync.yield_point
            ks.nbarrier_arrive, ks.nbarrier_wait, ks.lockstep = sync.arrive_all, sync.wait_all, sync
            try:
                try:
                    code(list(args) + attributions)
                finally:
                    ks.lane_groups, ks.lane_batch, ks.lane_count = None, 1, sg
                    ks.barrier, ks.yield_point, ks.nbarrier_arrive, ks.nbarrier_wait = saved_sync
                    ks.lockstep = None
                    _forget_dpas_operands()
                STATS["batched"] += 1
            except (ExecFault, Diverged, MemoryFault, ZeroDivisionError, OverflowError, FloatingPointError) as exc:
                if "batch" in engine.config.debug:  # XESIM_BATCH_DEBUG=1
                    where = f" at {exc.op.name} ({exc.op.loc})" if getattr(exc, "op", None) is not None else ""
                    print(f"xesim batch: workgroups {wgs[0]}..{wgs[-1]} run one instance at a time: "
                          f"{exc}{where}", file=sys.stderr)
                for a, data in snapshot:
                    a.data[...] = data
                STATS["fallback"] += 1
                run_workgroups(wgs)

    run.level = level  # type: ignore[attr-defined] - read by xesim.exec.parallel (threads or processes)
    run.wgs_per_batch = wgs_per_batch  # type: ignore[attr-defined] - xesim.exec.parallel's smallest piece
    return run


# batched vector data-movement ops register themselves in BATCH_IMPLS
from xesim.exec import batch_vector  # noqa: E402,F401
