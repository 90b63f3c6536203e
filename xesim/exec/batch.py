"""Lockstep batches: the subgroups of many workgroups on one instance axis (ARCHITECTURE.md "The instance axis",
"Lockstep and scheduling").

A kernel launch normally runs its instances — the subgroups of every workgroup (at lane level each with its 16 lane
slots; at WG level whole workgroups) — one after another (:mod:`xesim.exec.launcher`).  When the kernel qualifies,
the launcher runs instead **many instances together**: the kernel's code is compiled for a batch of ``B`` instances
(whole workgroups, in grid order) and every op executes once for all of them (:mod:`xesim.exec.axis`: a value is
uniform or a :class:`~xesim.exec.axis.Varying` over the batch's slots; ops implement that axis or are lifted onto
it).

**Equivalence.**  Executing op by op, instance 0..B-1 at each op, is one interleaving of the instances'
instruction streams — a schedule the hardware may produce (subgroups run concurrently).  For every race-free
program every interleaving gives the same memory and output as running the instances one after another, so the
result is bit-identical to the reference execution (``XESIM_ENGINE=both`` cross-checks it).

**Barriers cost nothing.**  A batch holds whole workgroups; subgroups that follow the same control flow reach each
``gpu.barrier`` and fence together, so everything before it has executed when anything after it does; subgroups
that take different branches around barriers run as groups that interleave at the barriers
(:mod:`xesim.exec.lockstep`).
**Shared local memory.**  Every workgroup of a batch allocates the same SLM buffers in the same order, so their
addresses are the same and SLM values stay uniform; the bytes are stored once per workgroup (a bank,
:class:`xesim.hw.memory.BankedSpace`).  An access reaches the bank of the instance it is for: ops that handle banks
gather from every workgroup's copy at once (``load_matrix``/``store_matrix``), other axis-aware ops run once per
workgroup, and ops lifted from one instance run per instance (:mod:`xesim.exec.axis`).  An access for all
instances at once that no op resolved stops the batch (it runs again one instance at a time) instead of reading
another workgroup's memory.  Lane-level kernels that use SLM run one workgroup per batch.

**Qualifying kernels** (:func:`batchable`): no op whose trait is ``prints`` (output order), ``atomic`` or ``calls``,
no allocations of global memory or private attributions (addresses would differ from one-at-a-time execution),
only region ops with a form on the instance axis, single-block regions; and no reference engine, random schedule
or observer that follows single subgroups.

**Divergence and faults.**  Subgroups whose ``scf.if`` conditions or loop bounds differ run under masks
(:mod:`xesim.exec.ops.scf`); groups that cannot meet at a barrier (:class:`~xesim.exec.axis.Diverged`), a
named-barrier wait that cannot complete in lockstep, and
every runtime fault abandon the batch: memory the kernel can reach is restored from a snapshot taken before the
batch, and the batch's workgroups run again one instance after another — as coroutines when they synchronise
(:mod:`xesim.exec.scheduler`) — so a program that diverges or faults behaves (output, memory, the fault reported)
exactly as without batching.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from xesim.exec.axis import Diverged, bank_selector
from xesim.exec.faults import ExecFault
from xesim.exec.hooks import follows_workgroup
from xesim.exec.kernel_writes import launch_allocations
from xesim.exec.lockstep import Lockstep
from xesim.exec.region import Compiler, run_region
from xesim.exec.registry import AXIS
from xesim.exec.values import in_shared_local_memory
from xesim.hw.memory import MemoryFault

#: bytes of vector values per batch, estimated as the sum of every vector result of the kernel per instance
BATCH_BYTES = 64 << 20

#: effects a lockstep batch cannot reproduce in one-at-a-time order (traits of isa/dialects, isa/README.md "Traits")
_UNBATCHED_EFFECTS = {
    "prints": "output in the order subgroups print it",
    "atomic": "each subgroup's atomic update in program order",
    "calls": "the effects of the function it calls",
}
#: counts for tests and benchmarks: batches run batched, batches re-run one instance at a time
STATS = {"batched": 0, "fallback": 0}


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
    if engine.config.batch < 2:
        return "batches of fewer than 2 instances (XESIM_BATCH)"
    ft = kernel.attributes["function_type"].type
    if len(kernel.regions[0].blocks[0].args) != len(ft.inputs) + _workgroup_attributions(kernel):
        return "private attributions"
    for op in kernel.walk():
        if op is kernel:
            continue
        traits = op.opdef.traits if op.opdef is not None else frozenset()
        effect = next((t for t in _UNBATCHED_EFFECTS if t in traits), None)
        if effect is not None:
            return f"contains {op.name} ({_UNBATCHED_EFFECTS[effect]})"
        if ("allocates" in traits and not all(in_shared_local_memory(v.type) for v in op.results)) or \
                ("frees" in traits and not all(in_shared_local_memory(v.type) for v in op.operands)):
            return f"contains {op.name} of global memory (addresses would differ from one-at-a-time execution)"
        if op.regions and op.name not in AXIS:
            return f"contains {op.name} (a region op without a form on the instance axis)"
        if any(len(r.blocks) > 1 for r in op.regions):
            return "multi-block region"
    if len(kernel.regions[0].blocks) != 1:
        return "multi-block kernel body"
    return None


def _workgroup_attributions(kernel: Any) -> int:
    attr = kernel.attributes.get("workgroup_attributions")
    return attr.value if attr is not None else 0


def uses_slm(kernel: Any) -> bool:
    """Whether the kernel has workgroup attributions or any value in shared local memory: its batches are then one
    workgroup each (every instance of a batch sees the same SLM, so SLM values stay uniform)."""
    if _workgroup_attributions(kernel):
        return True
    return any(in_shared_local_memory(v.type) for op in kernel.walk() for v in (*op.operands, *op.results))


# ----------------------------------------------------------------------------------------------- barriers
# ----------------------------------------------------------------------------------------------- running
def forget_batch_values() -> None:
    """Release what ops keep of a batch's values for the next op (DPAS B decodings, subgroup-uniform offsets)."""
    from xesim.exec.blocks import forget_groups
    from xesim.exec.ops.xegpu_dpas import forget_operands

    forget_operands()
    forget_groups()


class _BatchCode:
    """A kernel compiled for ``width`` instance slots, ``group`` per subgroup, reaching ``banks`` workgroups'
    shared local memories (:mod:`xesim.exec.axis`)."""

    def __init__(self, engine: Any, kernel: Any, width: int, group: int, banks: int) -> None:
        cx = Compiler(engine, kernel, width, group, banks)
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
           open_workgroups: Callable[..., list]) -> Callable[[list], None] | None:
    """A runner executing the instances of many workgroups together, or None when the kernel does not qualify
    (:func:`batchable`).  ``instances`` are the launcher's (first work-item, subgroup id, lanes) per workgroup;
    ``open_workgroups(wgs, bank)`` gives workgroups their shared local memory (one banked space for several) and
    returns their workgroup attributions."""
    if batchable(engine, kernel, level) is not None:
        return None
    per_wg = len(instances)
    sg = engine.target.subgroup.size
    lane = level == "lane"
    if lane and any(inst[2] != sg for inst in instances):
        return None  # a partial subgroup: collectives need whole subgroups (the reference path reports it)
    per_instance_bytes = _bytes_per_instance(kernel) * (sg if lane else 1)
    slm = uses_slm(kernel)
    # lane level: one workgroup per batch when it uses SLM (per-workgroup execution of its collectives would need
    # masks of whole subgroups); elsewhere each workgroup of a batch has its bank of SLM
    wgs_per_batch = 1 if slm and lane else max(1, min(engine.config.batch, BATCH_BYTES // per_instance_bytes) // per_wg)
    cache: dict[tuple[int, int], _BatchCode] = engine.__dict__.setdefault("_batch_code", {}).setdefault(id(kernel), {})
    ks = engine.kstate
    first = np.array([inst[0] for inst in instances], np.int64)  # linear id of each instance's first work-item
    sgid = np.array([inst[1] for inst in instances], np.int64)

    def run(subset: list) -> None:
        """Run ``subset`` (workgroups, grid order) in batches of whole workgroups."""
        # copies of allocations equal to their content now (a --jobs worker's own snapshot): the first batch's
        # roll-back snapshot need not copy them again
        pristine = engine.__dict__.pop("pristine_copies", None) or {}
        if any(obs.per_instance for obs in engine.observers):
            # workgroups an observer follows one subgroup at a time run so, in grid order with the batches
            start = 0
            for i, wg in enumerate(itertools.chain(subset, [None])):  # subset may be a lazy grid run
                if wg is None or follows_workgroup(engine, wg):
                    if i > start:
                        run_batches(subset[start:i], {})
                    if wg is not None:
                        run_workgroups([wg])
                    start = i + 1
            return
        run_batches(subset, pristine)

    def run_batches(subset: list, pristine: dict) -> None:
        for start in range(0, len(subset), wgs_per_batch):
            engine.guard.poll(engine.guard.launch_op)  # the run's deadline and stop flag (xesim/exec/guard.py)
            wgs = list(subset[start:start + wgs_per_batch])  # a lazy run of the grid (xesim/exec/grid.py)
            n = len(wgs) * per_wg
            if n < 2:
                run_workgroups(wgs)
                continue
            group = sg if lane else 1
            banks = len(wgs) if slm else 1
            code = cache.get((n, banks))
            if code is None:
                code = cache[(n, banks)] = _BatchCode(engine, kernel, n * group, group, banks)
            ks.group_ids = (np.repeat(np.array(wgs, np.int64), per_wg, axis=0), np.tile(sgid, len(wgs)),
                            np.tile(first, len(wgs)))
            ks.groups, ks.slots, ks.group = n, n * group, group
            ks.full = ks.mask = tuple(range(n * group))
            ks.slot = None
            allocs = launch_allocations(engine, kernel, args)
            snapshot = [(a, pristine[id(a)] if start == 0 and id(a) in pristine else a.data.copy()) for a in allocs]
            ks.block_id, ks.subgroup_id, ks.thread_id = wgs[0], 0, (0, 0, 0)
            if slm:
                attributions = open_workgroups(wgs, bank_selector(ks, per_wg * group))
            else:
                attributions, ks.slm = [], None
                if engine.observers:  # open_workgroups tells them with SLM; an observer following one
                    for wg in wgs:    # workgroup learns here that it no longer runs (xesim/exec/hooks.py)
                        ks.block_id = wg
                        for obs in engine.observers:
                            obs.workgroup_begin(ks)
                    ks.block_id = wgs[0]
            sync = Lockstep(ks, len(wgs), per_wg, group,
                            lambda i, wgs=wgs: f"subgroup {int(sgid[i % per_wg])} of workgroup {wgs[i // per_wg]}")
            saved_sync = (ks.barrier, ks.yield_point, ks.nbarrier_arrive, ks.nbarrier_wait)
            ks.barrier, ks.yield_point = sync.barrier, sync.yield_point
            ks.nbarrier_arrive, ks.nbarrier_wait, ks.lockstep = sync.arrive_all, sync.wait_all, sync
            try:
                try:
                    sync.run(lambda code=code, attributions=attributions: code(list(args) + attributions))
                finally:
                    ks.group_ids, ks.groups = None, 1
                    ks.barrier, ks.yield_point, ks.nbarrier_arrive, ks.nbarrier_wait = saved_sync
                    ks.lockstep = None
                    forget_batch_values()
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

