"""Kernel launch: the grid of workgroups, the instances inside a workgroup, and barrier scheduling.

Ids follow spec/programs-and-runner.md §3.2.  The program level decides what one kernel *instance* is
(ARCHITECTURE.md "Program levels"):

* ``lane``: one execution per subgroup of 16 work-items with per-lane values and an active-lane mask
  (:mod:`xesim.exec.axis`): plain gpu code and SIMT XeGPU code (fragments, collective block loads / DPAS /
  shuffles);
* ``subgroup`` (SG): one execution per subgroup (XeGPU ops on whole subgroup tiles); ``gpu.thread_id`` then reads
  the ids of the subgroup's first work-item;
* ``vc``: kernels marked ``VectorComputeFunctionINTEL``: every launched thread is one hardware thread = one
  subgroup;
* ``workgroup`` (WG): kernels with ``sg_layout`` layouts run once per workgroup on whole-workgroup tiles
  (:mod:`xesim.exec.workgroup`).

Workgroups run one after another in x-fastest order.  Instances of one workgroup run one after another
unless the kernel contains a barrier; then they run as coroutines (:mod:`xesim.exec.scheduler`: greenlets in
one OS thread, passing control round-robin at barriers), so memory written before a barrier is visible after it.
A barrier that cannot complete (an instance finished without reaching it, or instances wait at different
barrier ops) is reported as a deadlock naming each instance's position.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from xesim.exec.faults import ExecFault
from xesim.exec.grid import Workgroups
from xesim.exec.levels import classify_kernel
from xesim.exec.values import MemRefValue, identity_strides, storage_bytes
from xesim.hw.memory import AddressSpace, BankedSpace
from xesim.ir import types as T

SLM_BASE = 0x1000  # where SLM offsets start in the simulator's SLM address space (any non-zero value works)


def _has_barrier(kernel: Any) -> bool:
    """Whether the kernel synchronises its subgroups (an op with the ``barrier`` trait: gpu.barrier, named barriers,
    fences)."""
    return any(op.opdef is not None and "barrier" in op.opdef.traits for op in kernel.walk())


def launch_kernel(engine: Any, kernel: Any, name: str, grid: tuple, block: tuple, args: list, launch_op: Any) -> None:
    """Run ``kernel`` over ``grid`` x ``block`` with ``args`` (launch_op is used for error locations)."""
    if kernel.name != "gpu.func" or "gpu.kernel" not in kernel.attributes:
        raise ExecFault(f"{name} is not a gpu.func kernel")
    for what, dims in (("grid", grid), ("block", block)):
        if any(d <= 0 for d in dims):
            raise ExecFault(f"{what} sizes must be positive, got {list(dims)}")
    ft = kernel.attributes["function_type"].type
    if len(args) != len(ft.inputs):
        raise ExecFault(f"kernel {name} takes {len(ft.inputs)} arguments, {len(args)} given")
    level, evidence = classify_kernel(kernel)
    from xesim.exec.levels import xetile_level

    if xetile_level(kernel) is not None:  # XeTile IR accepted only by the lenient verifier does not run (§5 Q16)
        from xesim.exec.ops.xetile import refuse_lenient_ops

        refuse_lenient_ops(kernel, engine.target)
    if level == "workgroup":  # whole-tile view, one execution per workgroup (xesim/exec/workgroup.py)
        from xesim.exec import workgroup as wgx

        for note in wgx.id_notes(kernel):
            if note not in engine.assumption_notes:
                engine.assumption_notes.append(note)
    entry = kernel.regions[0].blocks[0]
    n_in = len(ft.inputs)
    n_wg_attr = kernel.attributes.get("workgroup_attributions")
    n_wg = n_wg_attr.value if n_wg_attr is not None else 0
    wg_types = [a.type for a in entry.args[n_in : n_in + n_wg]]
    priv_types = [a.type for a in entry.args[n_in + n_wg :]]
    ks = engine.kstate
    bx, by, bz = block
    threads = bx * by * bz
    sg = engine.target.subgroup.size
    code = engine.function_code(kernel, sg, sg) if level == "lane" else engine.function_code(kernel)
    slm_bytes = engine.target.slm.bytes_per_workgroup
    max_wi = engine.target.workgroup.max_work_items
    if threads > max_wi:
        raise ExecFault(f"a workgroup of {threads} work-items exceeds the target's maximum of {max_wi} "
                        f"({engine.target.source_of('workgroup.max_work_items')})")
    if level == "vc":
        instances = [(lin, lin, 0) for lin in range(threads)]  # (linear thread id, subgroup id, lane id)
        num_sg = threads
    elif level == "subgroup":
        num_sg = (threads + sg - 1) // sg
        instances = [(s * sg, s, 0) for s in range(num_sg)]
    elif level == "workgroup":  # every layout's subgroups must be launched; extra ones duplicate work (§3.2)
        from xesim.exec import xetile_wg

        if xetile_level(kernel) == "workgroup":  # XeTile: a VC thread is a subgroup (xetile.md §1.3, §4.2)
            num_sg = xetile_wg.num_subgroups(kernel, threads, sg)
            xetile_wg.check_launch(kernel, num_sg)
        else:
            num_sg = (threads + sg - 1) // sg
            wgx.check_launch(kernel, num_sg)
        instances = [(0, 0, 0)]
    else:  # lane level: one execution per subgroup, lanes as an axis of the values (xesim/exec/axis.py)
        num_sg = (threads + sg - 1) // sg
        instances = [(s * sg, s, min(sg, threads - s * sg)) for s in range(num_sg)]
    # Coroutines when the kernel synchronises (barriers, named barriers, fences as yield points) or when a
    # random schedule is asked for; otherwise instances simply run one after another.
    use_coroutines = _has_barrier(kernel) or (engine.config.schedule == "random" and len(instances) > 1)
    rng = engine.schedule_rng()
    saved = (ks.active, ks.kernel_name, ks.level)
    ks.active, ks.kernel_name, ks.level = True, name, level
    ks.grid, ks.block = tuple(grid), tuple(block)
    ks.num_subgroups, ks.subgroup_size = num_sg, sg
    ks.printf_buffer = []
    observers = engine.observers
    guard = engine.guard
    saved_launch_op, guard.launch_op = guard.launch_op, launch_op  # where a stop between batches is reported
    for obs in observers:
        obs.launch_begin(engine, kernel, name, level)
    try:
        def open_workgroups(wgs: list[tuple[int, int, int]], bank: Callable[[], int] | None = None) -> list:
            """Make ``wgs`` the executing workgroups, each with a fresh SLM; returns their workgroup attributions.
            Several workgroups (a lockstep batch) share one layout of SLM stored once per workgroup, ``bank()``
            naming the workgroup an access is for (:class:`xesim.hw.memory.BankedSpace`).  Every workgroup and batch
            starts here, so here the run's deadline and stop flag are polled (xesim/exec/guard.py)."""
            guard.poll(launch_op)
            if len(wgs) == 1:
                ks.slm = AddressSpace("shared local memory", base=SLM_BASE, capacity=slm_bytes)
            else:
                assert bank is not None
                ks.slm = BankedSpace(len(wgs), bank, "shared local memory", base=SLM_BASE, capacity=slm_bytes)
            ks.slm_allocs = {}
            for wg in wgs:
                ks.block_id = wg
                for obs in observers:
                    obs.workgroup_begin(ks)
            ks.block_id = wgs[0]
            return [_slm_buffer(ks.slm, t) for t in wg_types]

        def run_workgroup(wg: tuple[int, int, int]) -> None:
            wg_bufs = open_workgroups([wg])

            def run_instance(inst: tuple, wg_bufs: list = wg_bufs) -> None:
                _activate(ks, inst, bx, by, observers)
                priv = [_private_buffer(engine, t) for t in priv_types]
                code(list(args) + wg_bufs + priv)

            if use_coroutines:
                _interleave(ks, instances, run_instance, bx, by, engine.config.schedule, rng, observers)
            else:
                for inst in instances:
                    run_instance(inst)

        def run_workgroups(subset: list[tuple[int, int, int]]) -> None:
            """Run ``subset`` of the grid's workgroups, one after another, in the given order."""
            for wg in subset:
                run_workgroup(wg)

        # every workgroup of the grid, x fastest (spec §3.2); the order results and output follow; computed as
        # they run (a grid of 2^31 workgroups costs no memory: xesim/exec/grid.py)
        workgroups = Workgroups((grid[0], grid[1], grid[2]))
        from xesim.exec import batch, parallel

        runner = batch.runner(engine, kernel, level, instances, args, run_workgroups, open_workgroups) or run_workgroups
        parallel.run_workgroups(engine, kernel, workgroups, runner, list(args))
    except ExecFault as exc:
        if not exc.context:
            exc.context = ks.context()
        raise
    except KeyboardInterrupt as exc:  # SIGINT, SIGTERM: say which instance it struck (xesim/exec/guard.py)
        if not getattr(exc, "xesim_context", ""):
            exc.xesim_context = ks.context()  # type: ignore[attr-defined]
        raise
    finally:
        if ks.printf_buffer:
            engine.out.write("".join(ks.printf_buffer))
        ks.printf_buffer = []
        ks.active, ks.kernel_name, ks.level = saved
        guard.launch_op = saved_launch_op
        for obs in observers:
            obs.launch_end(engine)


def _activate(ks: Any, inst: tuple, bx: int, by: int, observers: list) -> None:
    """Make ``inst`` = (linear id of its first work-item, subgroup id, lanes) the executing instance; ``lanes``
    is the number of work-items of a lane-level subgroup (0 at the VC/SG levels).  Its code runs with one subgroup
    on the instance axis (:mod:`xesim.exec.axis`): 16 lane slots at lane level, else one slot."""
    lin, sgid, lanes = inst
    ks.thread_id = (lin % bx, (lin // bx) % by, lin // (bx * by))
    ks.subgroup_id = sgid
    ks.group_ids = (np.array([ks.block_id], np.int64), np.array([sgid], np.int64), np.array([lin], np.int64))
    ks.groups = 1
    if ks.level == "lane":
        ks.slot = None
        ks.slots = ks.group = ks.subgroup_size
        ks.full = ks.mask = tuple(range(lanes))
    else:
        ks.slot = 0
        ks.slots = ks.group = 1
        ks.full = ks.mask = (0,)
    for obs in observers:
        obs.instance_begin(ks)


def _slm_buffer(slm: AddressSpace, t: Any) -> MemRefValue:
    if not isinstance(t, T.MemRefType) or not t.has_static_shape:
        raise ExecFault(f"workgroup attribution of type {t} must be a statically shaped memref")
    nbytes = t.num_elements * storage_bytes(t.element_type)
    try:
        alloc = slm.allocate(nbytes, "slm", "workgroup attribution")
    except Exception as exc:  # MemoryFault: capacity
        raise ExecFault(str(exc)) from exc
    return MemRefValue(slm, alloc, alloc.base, 0, t.shape, identity_strides(t.shape), t.element_type)


def _private_buffer(engine: Any, t: Any) -> MemRefValue:
    if not isinstance(t, T.MemRefType) or not t.has_static_shape:
        raise ExecFault(f"private attribution of type {t} must be a statically shaped memref")
    alloc = engine.memory.allocate(t.num_elements * storage_bytes(t.element_type), "private", "private attribution")
    return MemRefValue(engine.memory, alloc, alloc.base, 0, t.shape, identity_strides(t.shape), t.element_type)


def _interleave(ks: Any, instances: list, run_instance: Any, bx: int, by: int, policy: str, rng: Any,
                observers: list) -> None:
    """Run one workgroup's instances as coroutines that yield at barriers (:mod:`xesim.exec.scheduler`)."""
    from xesim.exec.hooks import SchedulerEvents
    from xesim.exec.scheduler import Scheduler

    def context() -> str:
        return ks.context()

    events = SchedulerEvents(observers, ks, [inst[1] for inst in instances]) if observers else None
    sched = Scheduler(len(instances), lambda i: run_instance(instances[i]),
                      lambda i: _activate(ks, instances[i], bx, by, observers), lambda i: f"subgroup {instances[i][1]}",
                      context, policy, rng, events)
    saved = (ks.barrier, ks.yield_point, ks.nbarrier_arrive, ks.nbarrier_wait)
    ks.barrier, ks.yield_point = sched.barrier, sched.yield_point
    ks.nbarrier_arrive, ks.nbarrier_wait = sched.nbarrier_arrive, sched.nbarrier_wait
    try:
        sched.run()
    finally:
        ks.barrier, ks.yield_point, ks.nbarrier_arrive, ks.nbarrier_wait = saved
