"""The instance axis: how one op implementation runs for many kernel instances at once (ARCHITECTURE.md
"Instance axis").

A kernel's code is compiled for ``width`` *slots*; the program level decides what a slot is
(spec/programs-and-runner.md §3.2):

* lane level (SIMT): a work-item — ``group`` = 16 slots per subgroup; one subgroup, or ``groups`` subgroups at once;
* SG and VC levels: a subgroup (``group`` = 1); WG level: a whole workgroup (``group`` = 1);
* one instance (``width`` 1): the reference execution of one subgroup, and host code.

A value is **uniform** (the ordinary run-time value of :mod:`xesim.exec.values`: every slot holds it — constants,
loop counters, anything not derived from the ids) or :class:`Varying` (item ``i`` is slot ``i``'s value).  The
active slots are ``kstate.mask``; ``kstate.full`` are the slots launched (a partial last subgroup has fewer lanes).
Divergent control flow narrows the mask for its regions (:mod:`xesim.exec.ops.scf`); nothing else does.

An op implementation either handles the axis itself (registered with ``axis=True``: ids, control flow,
collectives, block loads, DPAS, ...) or is written for one instance and :func:`lift`-ed:

* uniform operands: the op runs once (its result is uniform), unless its effect belongs to each instance
  (:func:`per_instance_effect`: atomics, output, allocations, calls of external functions): then every active slot
  performs it;
* element-wise ops (trait ``elementwise``) on same-shaped vectors, all slots active: once on the ``[n, ...]``
  stacks of their operands (the same numpy code on a leading axis);
* pure scalar ops: once on ``[n]`` arrays, through the op's own implementation compiled for a ``vector<n x T>``
  clone of it (:func:`scalar_clone`);
* anything else: once per active slot with that slot's operand values (``kstate.slot`` names it in errors); the
  results become :class:`Varying`.

The reference engine (``kernel_reference``) always takes the last, one-slot-at-a-time form.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from xesim.exec.faults import ExecFault


class Diverged(Exception):  # noqa: N818 - a control signal, not an error of the program
    """The slots of a lockstep batch disagree on control flow where the batch cannot follow them with a mask; the
    batch runs again one instance at a time (:mod:`xesim.exec.batch`)."""


class Varying:
    """A value that differs between the slots: ``lanes[i]`` is slot ``i``'s value (``None`` where slot ``i`` never
    defined it).  ``arr`` caches the ``[slots, ...]`` numpy stack of vector values.

    ``perm``, when not None, is ``(base, index, slots)``: the value's stack is
    ``np.take(base, index, axis=1).reshape(slots, -1)``, made on first use of ``arr`` (:meth:`permuted`)."""

    __slots__ = ("_lanes", "_arr", "perm", "__weakref__")  # weakly referenced: xesim/numerics/dpas.py (b_token)

    def __init__(self, lanes: list | None, arr: np.ndarray | None = None) -> None:
        self._lanes = lanes
        self._arr = arr
        self.perm: tuple[np.ndarray, np.ndarray, int] | None = None

    @classmethod
    def from_stack(cls, arr: np.ndarray) -> Varying:
        """A value whose slot ``i`` is ``arr[i]`` (the per-slot list is made on first use)."""
        return cls(None, arr)

    @classmethod
    def permuted(cls, base: np.ndarray, index: np.ndarray, slots: int) -> Varying:
        """The fragments of ``G`` subgroups' matrices: ``base [G, E]`` holds each subgroup's elements in matrix
        order (a loaded block, a DPAS result) and subgroup ``g``'s lane fragments ``[slots / G, F]``, flattened,
        are ``base[g, index]``.  The stack is gathered on first use of ``arr``; a consumer that wants the
        matrix back (the lane-level DPAS) composes its own index with ``index`` instead and gathers once, or not
        at all.  ``base`` must never be written afterwards."""
        v = cls(None, None)
        v.perm = (base, index, slots)
        return v

    @property
    def arr(self) -> np.ndarray | None:
        a = self._arr
        if a is None and self.perm is not None:
            base, index, slots = self.perm
            a = self._arr = np.take(base, index, axis=1).reshape(slots, -1)  # take: C order (no transposed copy)
        return a

    @arr.setter
    def arr(self, value: np.ndarray | None) -> None:
        self._arr = value

    @property
    def lanes(self) -> list:
        if self._lanes is None:
            arr = self.arr
            assert arr is not None
            if arr.ndim == 1 and arr.dtype.kind in "iub":  # integer / i1 scalars are Python ints
                self._lanes = arr.astype(np.int64).tolist() if arr.dtype.kind == "b" else arr.tolist()
            else:
                self._lanes = list(arr)
        return self._lanes

    def __bool__(self) -> bool:
        raise ExecFault("a lane-dependent value is used where the subgroup needs a single value (xesim runs "
                        "lane-level control flow with masks only for scf.if, scf.for and scf.while)")

    def __repr__(self) -> str:
        return f"Varying({self.lanes!r})"


# ============================================================================================ values
def slot_value(v: Any, i: int) -> Any:
    """Slot ``i``'s value of ``v`` (uniform values are the same for every slot)."""
    return v.lanes[i] if isinstance(v, Varying) else v


def uniform_value(v: Any, mask: tuple[int, ...], what: str) -> Any:
    """``v`` as one value: a :class:`Varying` whose active slots all agree counts as uniform; otherwise the
    divergence ``what`` cannot be executed."""
    if not isinstance(v, Varying):
        return v
    vals = [v.lanes[i] for i in mask]
    first = vals[0] if vals else None
    for x in vals[1:]:
        if not _same(x, first):
            raise ExecFault(f"{what} differs between the active lanes {list(mask)} "
                            f"({', '.join(f'lane {i}: {_short(v.lanes[i])}' for i in mask[:4])}, ...)")
    return first


def as_uniform(v: Any) -> Any:
    """A :class:`Varying` whose items are all equal, as that one value; anything else unchanged."""
    if not isinstance(v, Varying):
        return v
    arr = v.arr
    if arr is not None and arr.ndim == 1:
        return arr[0].item() if (arr == arr[0]).all() else v
    items = v.lanes
    first = items[0]
    if isinstance(first, np.ndarray) or any(not (x == first) for x in items[1:]):
        return v
    return first


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    return a is b or a == b


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) < 40 else s[:37] + "..."


def stacked(v: Any, n: int) -> np.ndarray:
    """``[n, ...]`` array of a value's slot values (a uniform value is broadcast)."""
    if isinstance(v, Varying):
        if v.arr is not None and v.arr.shape[0] == n:
            return v.arr
        vals = v.lanes[:n]
        if any(x is None for x in vals):
            missing = [i for i, x in enumerate(vals) if x is None]
            raise ExecFault(f"lanes {missing} have no value here (they were inactive when it was computed)")
        arr = np.stack([np.asarray(x) for x in vals])
        v.arr = arr
        return arr
    a = np.asarray(v)
    return np.broadcast_to(a, (n, *a.shape))


def active_stack(v: Any, sel: np.ndarray, n: int) -> np.ndarray:
    """``[len(sel), ...]``: the values of ``v`` at slots ``sel`` of ``n`` (inactive slots may have none)."""
    if isinstance(v, Varying):
        arr = v.arr
        if arr is not None and arr.shape[0] == n:
            return arr[sel]
        return np.stack([np.asarray(v.lanes[i]) for i in sel])
    a = np.asarray(v)
    return np.broadcast_to(a, (len(sel), *a.shape))


def scatter_active(vals: np.ndarray, sel: np.ndarray, n: int) -> Varying:
    """A value whose slots ``sel`` hold ``vals [len(sel), ...]`` (the other slots, inactive, hold zeros nobody
    reads)."""
    out = np.zeros((n, *vals.shape[1:]), vals.dtype)
    out[sel] = vals
    return Varying.from_stack(out)


def stack_or_list(vals: list) -> Varying:
    """Per-slot results as one value: with their ``[n, ...]`` stack when they are same-shaped arrays."""
    if vals and isinstance(vals[0], np.ndarray):
        try:
            return Varying(vals, np.stack(vals))
        except ValueError:
            pass
    return Varying(vals)


def merge(active: tuple[int, ...], new: Any, old: Any, n: int) -> Any:
    """Slots in ``active`` take ``new``, the others keep ``old`` (the result of a masked region)."""
    if new is old:
        return new
    out = list(old.lanes) if isinstance(old, Varying) else [old] * n
    if isinstance(new, Varying):
        for i in active:
            out[i] = new.lanes[i]
    else:
        for i in active:
            out[i] = new
    return Varying(out)


def require_whole_subgroup(ks: Any) -> None:
    """Collective ops need every lane of the subgroup (spec §3.2 SIMT: subgroup-collective)."""
    if ks.mask is ks.full and len(ks.full) == ks.slots:
        return  # the common case, without comparing the masks lane by lane (a batch has thousands of lanes)
    if ks.mask != ks.full or len(ks.full) != ks.slots:
        if len(ks.full) != ks.slots:
            raise ExecFault(f"is subgroup-collective but the subgroup has only {len(ks.full)} of "
                            f"{ks.subgroup_size} work-items (the hardware needs the whole subgroup)")
        raise ExecFault(f"is subgroup-collective but executes under divergent control flow with only lanes "
                        f"{list(ks.mask)} of {ks.subgroup_size} active (the hardware needs the whole subgroup)")


# ============================================================================================ lifting
def per_instance_effect(op: Any) -> bool:
    """Whether each instance performs the op even when its operands are the same for all (traits ``atomic``,
    ``prints``, ``allocates`` — but an allocation in shared local memory belongs to the workgroup — and calls of
    functions without a body)."""
    traits = op.opdef.traits if op.opdef is not None else frozenset()
    if "atomic" in traits or "prints" in traits:
        return True
    if "allocates" in traits:
        from xesim.exec.values import is_workgroup_space

        return not (op.results and is_workgroup_space(getattr(op.results[0].type, "memory_space", None)))
    return False


def accesses_shared_local_memory(op: Any) -> bool:
    """Whether the op reads or writes memory (traits ``reads_memory`` / ``writes_memory``) through an operand in
    shared local memory: with several workgroups in one batch each instance must reach its own workgroup's copy
    (:func:`run_per_bank`)."""
    traits = op.opdef.traits if op.opdef is not None else frozenset()
    if "reads_memory" not in traits and "writes_memory" not in traits:
        return False
    from xesim.exec.values import in_shared_local_memory

    return any(in_shared_local_memory(v.type) for v in op.operands)


def bank_selector(ks: Any, slots_per_bank: int) -> Callable[[], int]:
    """The bank (workgroup of the batch) an access of banked shared local memory
    (:class:`xesim.hw.memory.BankedSpace`) reaches: ``kstate.bank`` while an op runs for one workgroup's slots,
    else the bank of ``kstate.slot`` while it runs for one slot.  An access for all slots at once has no bank: the
    batch stops (:class:`Diverged`) and runs again one instance at a time, never reading another workgroup's
    memory."""

    def bank() -> int:
        b = ks.bank
        if b is not None:
            return b
        s = ks.slot
        if s is not None:
            return s // slots_per_bank
        raise Diverged("shared local memory accessed for several workgroups at once")

    return bank


def run_per_bank(fr: list, ks: Any, step: Callable[[list], None], out_slots: list[int], slots_per_bank: int) -> None:
    """Run an axis-aware ``step`` once per workgroup of the batch (bank of shared local memory) that has active
    slots, with only that workgroup's slots active and ``kstate.bank`` naming it; the results are merged slot by
    slot."""
    mask, n = ks.mask, ks.slots
    outs: list[list] = [[None] * n for _ in out_slots]
    by_bank: dict[int, list[int]] = {}
    for i in mask:
        by_bank.setdefault(i // slots_per_bank, []).append(i)
    try:
        for b, sel in by_bank.items():
            ks.mask, ks.bank = tuple(sel), b
            step(fr)
            for k, s in enumerate(out_slots):
                v = fr[s]
                if isinstance(v, Varying):
                    lanes = v.lanes
                    for i in sel:
                        outs[k][i] = lanes[i]
                else:
                    for i in sel:
                        outs[k][i] = v
    finally:
        ks.mask, ks.bank = mask, None
    complete = len(mask) == n
    for s, vals in zip(out_slots, outs):
        fr[s] = stack_or_list(vals) if complete else Varying(vals)


def elementwise_shape(op: Any) -> tuple[int, ...] | None:
    """The vector shape of an element-wise op (trait ``elementwise``) whose operands and results are vectors of that
    one shape — its implementation then works unchanged on ``[n, *shape]`` stacks — else None."""
    from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

    if op.opdef is None or "elementwise" not in op.opdef.traits or op.regions or not op.results or not op.operands:
        return None
    shape = None
    for v in (*op.results, *op.operands):
        if not isinstance(v.type, T.VectorType):
            return None
        if shape is None:
            shape = tuple(v.type.shape)
        elif tuple(v.type.shape) != shape:
            return None
    return shape


def scalar_clone(op: Any, cx: Any, n: int) -> tuple[Callable[[list], None], list[int], list[int], list] | None:
    """For a pure element-wise op on scalars: its own implementation compiled on ``vector<n x T>`` operands (a clone
    of the op with every scalar type widened), so all slots run in one numpy call.  Returns (step, operand slots,
    result slots, operand dtypes) of the clone, or None when the op does not qualify."""
    from xesim.exec.values import dtype_of
    from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
    from xesim.ir.core import Operation, Value

    traits = op.opdef.traits if op.opdef is not None else frozenset()
    if "elementwise" not in traits or "pure" not in traits or op.regions or not op.results or not op.operands:
        return None
    scalar_types = (T.IntegerType, T.IndexType, T.FloatType)
    if not all(isinstance(v.type, scalar_types) for v in (*op.operands, *op.results)):
        return None
    try:
        dtypes = [dtype_of(v.type) for v in op.operands]
        for v in op.results:
            dtype_of(v.type)
    except NotImplementedError:
        return None
    operands = [Value(T.VectorType((n,), v.type)) for v in op.operands]
    clone = Operation(op.name, operands, [T.VectorType((n,), v.type) for v in op.results], op.attributes,
                      loc=op.loc, opdef=op.opdef, operand_segments=op.operand_segments)
    try:
        step = cx.compile_one(clone)  # the op's own implementation, for one instance of vector operands
    except Exception:  # noqa: BLE001 - an impl that rejects vector operands: keep the per-slot path
        return None
    if step is None:
        return None
    return step, cx.slots(clone.operands), cx.slots(clone.results), dtypes


def run_on_stacks(fr: list, step: Callable[[list], None], in_slots: list[int], out_slots: list[int], n: int,
                  shape: tuple[int, ...]) -> bool:
    """Run an element-wise op's ``step`` once on the ``[n, ...]`` stacks of its operands; its results become
    :class:`Varying`.  False (nothing changed) when an operand cannot be stacked, the step faults or a result is not
    ``[n, *shape]``: the caller then runs it one slot at a time."""
    saved = {s: fr[s] for s in in_slots}
    try:
        for s in in_slots:
            fr[s] = stacked(saved[s], n)
        step(fr)
    except ExecFault:
        return False  # pure op: the one-by-one path re-executes it and names the faulting slot
    finally:
        for s, v in saved.items():
            fr[s] = v
    outs = [fr[s] for s in out_slots]
    if not all(isinstance(o, np.ndarray) and o.shape == (n, *shape) for o in outs):
        return False
    for s, o in zip(out_slots, outs):
        fr[s] = Varying.from_stack(o)
    return True


def run_clone(fr: list, clone: tuple, op_slots: list[int], out_slots: list[int], n: int,
              active: frozenset | None = None) -> bool:
    """Run the ``vector<n x T>`` clone of a scalar op (:func:`scalar_clone`) once for all ``n`` slots; slots outside
    ``active`` (None: all) compute on placeholder values nobody reads.  False when an operand cannot be made an
    array or the clone faults (the caller then runs the op one slot at a time)."""
    cstep, c_in, c_out, dtypes = clone
    for src, dst, dt in zip(op_slots, c_in, dtypes):
        v = fr[src]
        if isinstance(v, Varying):
            if v.arr is not None and v.arr.ndim == 1 and v.arr.dtype == dt:
                fr[dst] = v.arr
                continue
            vals = v.lanes
            if active is not None:
                vals = [vals[i] if i in active else 0 for i in range(n)]
            try:
                fr[dst] = np.array(vals, dt)
            except (TypeError, ValueError, OverflowError):
                return False
        else:
            fr[dst] = np.full(n, v, dt)
    try:
        cstep(fr)
    except ExecFault:
        return False
    for src, dst in zip(out_slots, c_out):
        fr[src] = Varying(None, fr[dst])
    return True


def run_per_slot(fr: list, ks: Any, step: Callable[[list], None], in_slots: list[int], out_slots: list[int],
                 regions: bool = False) -> list[list]:
    """Run ``step`` once for each active slot, with that slot's operand values (``ks.slot`` names it; an op with
    regions runs them with that slot alone active); per result slot, the list of slot results (None for inactive
    slots)."""
    saved = [fr[s] for s in in_slots]
    items = [(s, v.lanes) for s, v in zip(in_slots, saved) if isinstance(v, Varying)]
    mask = ks.mask
    n = ks.slots
    outs: list[list] = [[None] * n for _ in out_slots]
    try:
        for i in mask:
            for s, lst in items:
                fr[s] = lst[i]
            ks.slot = i
            if regions:
                ks.mask = (i,)
            step(fr)
            for k, s in enumerate(out_slots):
                v = fr[s]
                outs[k][i] = v.lanes[i] if isinstance(v, Varying) else v  # a region may yield slot values
        ks.slot = None
    finally:
        ks.mask = mask
        for s, v in zip(in_slots, saved):
            fr[s] = v
    return outs


def lift(op: Any, cx: Any, step: Callable[[list], None], always: bool | None = None) -> Callable[[list], None]:
    """The axis form of an op whose implementation is written for one instance (module docstring); ``always``: each
    instance performs the op even with uniform operands (default: :func:`per_instance_effect`)."""
    engine = cx.engine
    ks = engine.kstate
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    out_slots = cx.slots(op.results)
    if always is None:
        always = per_instance_effect(op) or (cx.banks > 1 and accesses_shared_local_memory(op))
    regions = bool(op.regions)
    shape = elementwise_shape(op)
    width = cx.width
    clone = scalar_clone(op, cx, width)
    op_slots = cx.slots(op.operands)

    def lstep(fr: list) -> None:
        varying = False
        for s in in_slots:
            if isinstance(fr[s], Varying):
                varying = True
                break
        if not varying:
            if not always:
                step(fr)
                return
        elif engine.config.kernel_reference:  # the reference path: one slot at a time
            pass
        else:
            n = ks.slots
            full = ks.mask is ks.full or ks.mask == ks.full
            if shape is not None and full and len(ks.full) == n and run_on_stacks(fr, step, in_slots, out_slots, n,
                                                                                  shape):
                return
            if clone is not None and n == width and run_clone(fr, clone, op_slots, out_slots, n,
                                                             None if len(ks.mask) == n else frozenset(ks.mask)):
                return
        outs = run_per_slot(fr, ks, step, in_slots, out_slots, regions)
        complete = len(ks.mask) == ks.slots
        for s, vals in zip(out_slots, outs):
            fr[s] = stack_or_list(vals) if complete else Varying(vals)

    return lstep
