"""Kernel launch: the grid of workgroups, the instances inside a workgroup, and barrier scheduling.

Ids follow spec/programs-and-runner.md §3.2.  The program level decides what one kernel *instance* is
(ARCHITECTURE.md "Program levels"):

* ``lane``: every work-item executes the kernel (plain gpu code without XeGPU ops);
* ``subgroup`` (SG): one execution per subgroup of 16 work-items (XeGPU ops on whole subgroup tiles);
  ``gpu.thread_id`` then reads the ids of the subgroup's first work-item;
* ``vc``: kernels marked ``VectorComputeFunctionINTEL``: every launched thread is one hardware thread = one
  subgroup.

:func:`classify_kernel` also recognises XeGPU kernels written per lane (SIMT fragments) or per workgroup
(``sg_layout`` layouts); those levels come with later issues, so their launch is a located error at the op that
shows the level.

Workgroups run one after another in x-fastest order.  Instances of one workgroup run one after another
unless the kernel contains a barrier; then they run as coroutines (one OS thread each, exactly one running
at a time, passing control round-robin at barriers), so memory written before a barrier is visible after it.
A barrier that cannot complete (an instance finished without reaching it, or instances wait at different
barrier ops) is reported as a deadlock naming each instance's position.
"""

from __future__ import annotations

import threading
from typing import Any

from xesim.exec.interpreter import ExecFault
from xesim.exec.values import MemRefValue, identity_strides, storage_bytes
from xesim.hw.memory import AddressSpace
from xesim.ir import types as T

SLM_BASE = 0x1000  # where SLM offsets start in the simulator's SLM address space (any non-zero value works)


def kernel_level(kernel: Any) -> str:
    """The program level implied by the kernel's IR (no flag needed): ``vc``, ``subgroup``, ``lane`` or
    ``workgroup`` (see :func:`classify_kernel`)."""
    return classify_kernel(kernel)[0]


def classify_kernel(kernel: Any) -> tuple[str, Any]:
    """``(level, evidence op)`` for a kernel (spec/programs-and-runner.md §3.1–§3.2, §3.5):

    * ``vc``: the kernel carries ``VectorComputeFunctionINTEL`` (one hardware thread per launched thread);
    * ``workgroup``: an XeGPU op or tensor_desc type carries a layout with ``sg_layout`` (§3.4);
    * ``lane`` with an XeGPU evidence op: SIMT code — per-lane fragments (a 1-D ``load_nd``/``store_nd`` value
      smaller than the descriptor's tile, ``dpas`` on 1-D operands, scattered access with scalar offsets or
      masks or a chunk-sized 1-D value, a non-2-D ``load_matrix``/``store_matrix`` value);
    * ``subgroup``: other XeGPU code (ops on whole subgroup tiles);
    * ``lane`` without evidence: plain GPU code without XeGPU ops (every work-item executes).
    """
    if "VectorComputeFunctionINTEL" in kernel.attributes:
        return "vc", None
    first_xegpu = None
    simt = None
    for op in kernel.walk():
        if not op.name.startswith("xegpu."):
            continue
        if first_xegpu is None:
            first_xegpu = op
        if workgroup_layout_in(op):
            return "workgroup", op
        if simt is None and _simt_form(op):
            simt = op
    if simt is not None:
        return "lane", simt
    if first_xegpu is not None:
        return "subgroup", None
    return "lane", None


def workgroup_layout_in(op: Any) -> bool:
    """True when the op's attributes or tensor_desc operand/result types carry a workgroup layout
    (``sg_layout``, spec §3.4)."""
    from xesim.verify import xegpu_layout as xl

    def wg(attr: Any) -> bool:
        if attr is None or not xl.is_layout_attr(attr):
            return False
        try:
            return xl.read_layout(attr).is_for_workgroup
        except xl.LayoutError:
            return False

    if any(wg(a) for a in op.attributes.values()):
        return True
    return any(isinstance(v.type, T.TensorDescType) and wg(v.type.layout) for v in (*op.operands, *op.results))


def _simt_form(op: Any) -> bool:
    """The op is written on per-lane fragments (SIMT level, spec §3.2 "SIMT / lane level")."""
    name = op.name
    if name in ("xegpu.load_nd", "xegpu.store_nd"):
        td = op.operand_group("TensorDesc")[0].type
        vt = op.results[0].type if name == "xegpu.load_nd" else op.operand_group("value")[0].type
        return (isinstance(td, T.TensorDescType) and isinstance(vt, T.VectorType) and vt.rank == 1
                and vt.num_elements < td.num_elements * td.array_length)
    if name == "xegpu.dpas":
        return all(isinstance(v.type, T.VectorType) and v.type.rank == 1 for v in (*op.operands, *op.results))
    if name in ("xegpu.load", "xegpu.store", "xegpu.prefetch", "xegpu.atomic_rmw"):
        for g in ("mask", "offsets"):
            try:
                vals = op.operand_group(g)
            except KeyError:
                continue
            if vals and not isinstance(vals[0].type, T.VectorType):
                return True
        td = next((v.type for v in op.operands if isinstance(v.type, T.TensorDescType)), None)
        vt = next((v.type for v in (*op.results, *op.operands) if isinstance(v.type, T.VectorType)
                   and v.type.element_type != T.I1 and not isinstance(v.type.element_type, T.IndexType)), None)
        if td is not None and vt is not None and td.chunk_size > 1:
            return vt.rank == 1 and vt.num_elements == td.chunk_size and td.num_elements > td.chunk_size
        return False
    if name in ("xegpu.load_matrix", "xegpu.store_matrix"):
        vt = op.results[0].type if name == "xegpu.load_matrix" else op.operand_group("data")[0].type
        return not (isinstance(vt, T.VectorType) and vt.rank == 2)
    return False


def _has_barrier(kernel: Any) -> bool:
    return any(op.name in ("gpu.barrier", "xegpu.nbarrier_wait") for op in kernel.walk())


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
    if evidence is not None:
        what = "lane-level" if level == "lane" else "workgroup-level"
        raise ExecFault(f"{what} XeGPU programs are not supported yet (kernel {name} is {what} because of this op)",
                        evidence)
    code = engine.function_code(kernel)
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
    else:
        num_sg = (threads + sg - 1) // sg
        instances = [(lin, lin // sg, lin % sg) for lin in range(threads)]
    use_coroutines = len(instances) > 1 and _has_barrier(kernel)
    saved = (ks.active, ks.kernel_name, ks.level)
    ks.active, ks.kernel_name, ks.level = True, name, level
    ks.grid, ks.block = tuple(grid), tuple(block)
    ks.num_subgroups, ks.subgroup_size = num_sg, sg
    ks.printf_buffer = []
    try:
        for gz in range(grid[2]):
            for gy in range(grid[1]):
                for gx in range(grid[0]):
                    ks.block_id = (gx, gy, gz)
                    ks.slm = AddressSpace("shared local memory", base=SLM_BASE, capacity=slm_bytes)
                    ks.slm_allocs = {}
                    wg_bufs = [_slm_buffer(ks.slm, t) for t in wg_types]

                    def run_instance(inst: tuple, wg_bufs: list = wg_bufs) -> None:
                        _activate(ks, inst, bx, by)
                        priv = [_private_buffer(engine, t) for t in priv_types]
                        code(list(args) + wg_bufs + priv)

                    if use_coroutines:
                        _run_with_barriers(ks, instances, run_instance, bx, by)
                    else:
                        ks.barrier = _no_barrier
                        for inst in instances:
                            run_instance(inst)
    except ExecFault as exc:
        if not exc.context:
            exc.context = ks.context()
        raise
    finally:
        if ks.printf_buffer:
            engine.out.write("".join(ks.printf_buffer))
        ks.printf_buffer = []
        ks.active, ks.kernel_name, ks.level = saved


def _activate(ks: Any, inst: tuple, bx: int, by: int) -> None:
    lin, sgid, lane = inst
    ks.thread_id = (lin % bx, (lin // bx) % by, lin // (bx * by))
    ks.subgroup_id = sgid
    ks.lane_id = lane


def _no_barrier(op: Any) -> None:
    return None


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


class _Abort(Exception):
    pass


def _run_with_barriers(ks: Any, instances: list, run_instance: Any, bx: int, by: int) -> None:
    """Run instances as coroutines on OS threads; exactly one runs at a time (deterministic round-robin)."""
    n = len(instances)
    cv = threading.Condition()
    state = ["ready"] * n  # ready | waiting | done
    where: list[Any] = [None] * n
    turn = [0]
    errors: list[BaseException] = []
    generation = [0]

    def describe(i: int) -> str:
        lin, sgid, lane = instances[i]
        who = f"subgroup {sgid}" + (f" lane {lane}" if ks.level == "lane" else "")
        if state[i] == "done":
            return f"{who}: finished"
        op = where[i]
        return f"{who}: waiting at {op.name} ({op.loc})" if op is not None else f"{who}: {state[i]}"

    def pass_turn(i: int) -> None:
        # called with cv held: choose the next ready instance after i, or complete the barrier
        for k in range(1, n + 1):
            j = (i + k) % n
            if state[j] == "ready":
                turn[0] = j
                cv.notify_all()
                return
        waiting = [j for j in range(n) if state[j] == "waiting"]
        if not waiting:
            turn[0] = -1
            cv.notify_all()
            return
        sites = {id(where[j]) for j in waiting}
        if len(waiting) == n and len(sites) == 1:
            generation[0] += 1
            for j in waiting:
                state[j] = "ready"
                where[j] = None
            turn[0] = waiting[0]
            cv.notify_all()
            return
        detail = "; ".join(describe(j) for j in range(n))
        if len(sites) > 1:
            msg = f"deadlock: instances wait at different barriers ({detail})"
        else:
            msg = f"deadlock: a barrier can never complete because some instances finished without reaching it ({detail})"
        errors.append(ExecFault(msg, where[waiting[0]], ks.context()))
        turn[0] = -2
        cv.notify_all()

    def barrier(op: Any) -> None:
        i = _current[threading.get_ident()]
        with cv:
            state[i] = "waiting"
            where[i] = op
            pass_turn(i)
            while turn[0] != i:
                if turn[0] == -2:
                    raise _Abort()
                cv.wait()
            _activate(ks, instances[i], bx, by)

    _current: dict[int, int] = {}

    def body(i: int) -> None:
        _current[threading.get_ident()] = i
        with cv:
            while turn[0] != i:
                if turn[0] == -2:
                    return
                cv.wait()
        try:
            run_instance(instances[i])
        except _Abort:
            return
        except BaseException as exc:  # noqa: BLE001 - forwarded to the launching thread
            with cv:
                errors.append(exc)
                turn[0] = -2
                cv.notify_all()
            return
        with cv:
            state[i] = "done"
            pass_turn(i)

    ks.barrier = barrier
    threads = [threading.Thread(target=body, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ks.barrier = _no_barrier
    if errors:
        raise errors[0]
