"""Lane-level (SIMT) execution: one kernel execution per subgroup, values with a lane axis, an active-lane mask.

spec/programs-and-runner.md §3.2 "SIMT / lane level": every work-item executes the kernel, but block loads, DPAS
and shuffles are subgroup-collective.  xesim runs such a kernel once per subgroup (ARCHITECTURE.md "Program
levels"), like the hardware runs one thread per subgroup with one SIMD channel per work-item:

* A value is either **uniform** (the ordinary run-time value of :mod:`xesim.exec.values`; every lane holds the
  same value, e.g. constants, loop counters, descriptors built from uniform operands) or :class:`Varying` (one value
  per lane: ``lanes[i]`` is lane ``i``'s value, ``None`` for lanes that never defined it).
* The active lanes are ``kstate.lane_mask``; ``kstate.full_mask`` is the set the subgroup was launched with (a
  partial last subgroup has fewer).  Divergent ``scf.if``, per-lane trip counts in ``scf.for``, ``scf.while`` with
  lane-dependent conditions narrow the mask for their regions (:mod:`xesim.exec.ops.lane_scf`).
* An op without a lane-level implementation keeps its ordinary ``@impl``: when none of its operands varies and it
  has no per-work-item side effect, it runs once and its results are uniform; otherwise it runs once per active
  lane with that lane's operand values (``kstate.lane_id`` names the lane in error messages) and its results
  become :class:`Varying`.  Inactive lanes do nothing, so their memory ops, divisions and asserts have no effect.
* Element-wise ops on vectors of all 16 lanes run once on the ``[lanes, ...]`` stack (same numpy code, one call).
* Collective ops (``@lane_impl`` in :mod:`xesim.exec.ops.lane_gpu` / :mod:`xesim.exec.ops.lane_xegpu`) see the
  whole subgroup: they require every launched lane to be active (the hardware needs the whole subgroup) and
  gather / scatter fragments through the layout maps of :mod:`xesim.hw.layout`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from xesim.exec.interpreter import Compiler, ExecFault

LANE_IMPLS: dict[str, Callable[[Any, Any], Any]] = {}

# Ops whose effect is per work-item even with uniform operands (each active lane performs it once).
PER_LANE_EFFECTS = frozenset({
    "memref.atomic_rmw", "memref.generic_atomic_rmw", "gpu.printf", "vector.print", "memref.alloc",
    "memref.alloca", "memref.realloc",
})

# Element-wise ops: on same-shaped vector operands their numpy implementations work unchanged on a leading lane
# axis (the result's shape is checked before it is trusted).
ELEMENTWISE_PREFIXES = ("arith.", "math.")
NOT_ELEMENTWISE = frozenset({"arith.constant", "arith.bitcast"})


def lane_impl(*names: str):
    """Register the lane-level compile function of ops (same contract as ``@impl``)."""
    def wrap(fn):
        for name in names:
            if name in LANE_IMPLS:
                raise ValueError(f"duplicate lane implementation of {name}")
            LANE_IMPLS[name] = fn
        return fn

    return wrap


class Varying:
    """A value that differs between the lanes of a subgroup: ``lanes[i]`` is lane ``i``'s value (``None`` where
    lane ``i`` never defined it).  ``arr`` caches the ``[lanes, ...]`` numpy stack of vector values.

    ``perm``, when not None, is ``(base, index, lanes)``: the value's stack is
    ``np.take(base, index, axis=1).reshape(lanes, -1)``, made on first use of ``arr`` (:meth:`permuted`)."""

    __slots__ = ("_lanes", "_arr", "perm", "__weakref__")  # weakly referenced: xesim/numerics/dpas.py (b_token)

    def __init__(self, lanes: list | None, arr: np.ndarray | None = None) -> None:
        self._lanes = lanes
        self._arr = arr
        self.perm: tuple[np.ndarray, np.ndarray, int] | None = None

    @classmethod
    def from_stack(cls, arr: np.ndarray) -> Varying:
        """A value whose lane ``i`` is ``arr[i]`` (the per-lane list is made on first use)."""
        return cls(None, arr)

    @classmethod
    def permuted(cls, base: np.ndarray, index: np.ndarray, lanes: int) -> Varying:
        """The fragments of ``G`` subgroups' matrices: ``base [G, E]`` holds each subgroup's elements in matrix
        order (a loaded block, a DPAS result) and subgroup ``g``'s lane fragments ``[lanes / G, F]``, flattened,
        are ``base[g, index]``.  The stack is gathered on first use of ``arr``; a consumer that wants the
        matrix back (the lane-level DPAS, xesim/exec/ops/lane_xegpu.py) composes its own index with ``index``
        instead and gathers once, or not at all.  ``base`` must never be written afterwards."""
        v = cls(None, None)
        v.perm = (base, index, lanes)
        return v

    @property
    def arr(self) -> np.ndarray | None:
        a = self._arr
        if a is None and self.perm is not None:
            base, index, lanes = self.perm
            a = self._arr = np.take(base, index, axis=1).reshape(lanes, -1)  # take: C order (no transposed copy)
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


def lane_value(v: Any, i: int) -> Any:
    """Lane ``i``'s value of ``v`` (uniform values are the same for every lane)."""
    return v.lanes[i] if type(v) is Varying else v


def uniform_value(v: Any, mask: tuple[int, ...], what: str) -> Any:
    """``v`` as one value: a :class:`Varying` whose active lanes all agree counts as uniform; otherwise the
    divergence ``what`` cannot be executed."""
    if type(v) is not Varying:
        return v
    vals = [v.lanes[i] for i in mask]
    first = vals[0] if vals else None
    for x in vals[1:]:
        if not _same(x, first):
            raise ExecFault(f"{what} differs between the active lanes {list(mask)} "
                            f"({', '.join(f'lane {i}: {_short(v.lanes[i])}' for i in mask[:4])}, ...)")
    return first


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    return a is b or a == b


def _short(v: Any) -> str:
    s = repr(v)
    return s if len(s) < 40 else s[:37] + "..."


def stacked(v: Any, lanes: int) -> np.ndarray:
    """``[lanes, ...]`` array of a value's lane values (a uniform value is broadcast)."""
    if type(v) is Varying:
        if v.arr is not None and v.arr.shape[0] == lanes:
            return v.arr
        vals = v.lanes[:lanes]
        if any(x is None for x in vals):
            missing = [i for i, x in enumerate(vals) if x is None]
            raise ExecFault(f"lanes {missing} have no value here (they were inactive when it was computed)")
        arr = np.stack([np.asarray(x) for x in vals])
        v.arr = arr
        return arr
    a = np.asarray(v)
    return np.broadcast_to(a, (lanes, *a.shape))


def merge(active: tuple[int, ...], new: Any, old: Any, lanes: int) -> Any:
    """Lanes in ``active`` take ``new``, the others keep ``old`` (the result of a masked region)."""
    if new is old:
        return new
    out = list(old.lanes) if type(old) is Varying else [old] * lanes
    if type(new) is Varying:
        for i in active:
            out[i] = new.lanes[i]
    else:
        for i in active:
            out[i] = new
    return Varying(out)


def require_whole_subgroup(ks: Any) -> None:
    """Collective ops need every lane of the subgroup (spec §3.2 SIMT: subgroup-collective)."""
    if ks.lane_mask is ks.full_mask and len(ks.full_mask) == ks.lane_count:
        return  # the common case, without comparing the masks lane by lane (a batch has thousands of lanes)
    if ks.lane_mask != ks.full_mask or len(ks.full_mask) != ks.lane_count:
        if len(ks.full_mask) != ks.lane_count:
            raise ExecFault(f"is subgroup-collective but the subgroup has only {len(ks.full_mask)} of "
                            f"{ks.subgroup_size} work-items (the hardware needs the whole subgroup)")
        raise ExecFault(f"is subgroup-collective but executes under divergent control flow with only lanes "
                        f"{list(ks.lane_mask)} of {ks.subgroup_size} active (the hardware needs the whole subgroup)")


class LaneCompiler(Compiler):
    """Compiles a kernel for lane-level execution: ``@lane_impl`` where an op has one, else its ``@impl`` wrapped
    by :func:`per_lane`."""

    def compile_op(self, op: Any, is_term: bool) -> Any:
        fn = LANE_IMPLS.get(op.name)
        if fn is not None:
            return fn(op, self)
        compiled = super().compile_op(op, is_term)
        if compiled is None or is_term:
            return compiled
        return per_lane(op, self, compiled)


def _elementwise(op: Any) -> bool:
    from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

    if not op.name.startswith(ELEMENTWISE_PREFIXES) or op.name in NOT_ELEMENTWISE or op.regions:
        return False
    if not op.results or not op.operands:
        return False
    shape = None
    for v in (*op.results, *op.operands):
        if not isinstance(v.type, T.VectorType):
            return False
        if shape is None:
            shape = tuple(v.type.shape)
        elif tuple(v.type.shape) != shape:
            return False
    return True


def _scalar_clone(op: Any, cx: Any, lanes: int) -> tuple[Callable[[list], None], list[int], list[int], list] | None:
    """For a pure scalar arith/math op: its ordinary implementation compiled on ``vector<lanes x T>`` operands
    (a clone of the op with every scalar type widened), so all lanes run in one numpy call.  Returns (step,
    operand slots, result slots, operand dtypes) of the clone, or None when the op does not qualify."""
    from xesim.exec.values import dtype_of
    from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
    from xesim.ir.core import Operation, Value

    if not op.name.startswith(ELEMENTWISE_PREFIXES) or op.name in NOT_ELEMENTWISE or op.regions:
        return None
    if op.opdef is None or "pure" not in op.opdef.traits or not op.results or not op.operands:
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
    operands = [Value(T.VectorType((lanes,), v.type)) for v in op.operands]
    clone = Operation(op.name, operands, [T.VectorType((lanes,), v.type) for v in op.results], op.attributes,
                      loc=op.loc, opdef=op.opdef, operand_segments=op.operand_segments)
    try:
        step = Compiler.compile_op(cx, clone, False)  # the op's ordinary implementation
    except Exception:  # noqa: BLE001 - an impl that rejects vector operands: keep the per-lane path
        return None
    if step is None:
        return None
    return step, cx.slots(clone.operands), cx.slots(clone.results), dtypes


def _is_slm_alloc(op: Any) -> bool:
    if op.name not in ("memref.alloc", "memref.alloca"):
        return False
    from xesim.exec.ops.memref import is_workgroup_space

    return is_workgroup_space(getattr(op.results[0].type, "memory_space", None))


def run_on_stacks(fr: list, step: Callable[[list], None], in_slots: list[int], out_slots: list[int], n: int,
                  shape: tuple[int, ...]) -> bool:
    """Run an element-wise op's ``step`` once on the ``[n, ...]`` stacks of its operands (lanes, or instances of a
    batch: :mod:`xesim.exec.batch`); its results become :class:`Varying`.  False (nothing changed) when an operand
    cannot be stacked, the step faults or a result is not ``[n, *shape]``: the caller then runs it one by one."""
    saved = {s: fr[s] for s in in_slots}
    try:
        for s in in_slots:
            fr[s] = stacked(saved[s], n)
        step(fr)
    except ExecFault:
        return False  # pure op: the one-by-one path re-executes it and names the faulting lane
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
    """Run the ``vector<n x T>`` clone of a scalar op (:func:`_scalar_clone`) once for all ``n`` lanes or
    instances; lanes outside ``active`` (None: all) compute on placeholder values nobody reads.  False when an
    operand cannot be made an array or the clone faults (the caller then runs the op one by one)."""
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


def per_lane(op: Any, cx: Any, step: Callable[[list], None], always: bool | None = None) -> Callable[[list], None]:
    """The lane-level step of an op with an ordinary implementation (see the module docstring); ``always``: the
    op's effect is per work-item even with uniform operands (default: :data:`PER_LANE_EFFECTS`)."""
    engine = cx.engine
    ks = engine.kstate
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))
    out_slots = cx.slots(op.results)
    if always is None:
        always = op.name in PER_LANE_EFFECTS and not _is_slm_alloc(op)
    has_regions = bool(op.regions)
    vector_shape = tuple(op.results[0].type.shape) if _elementwise(op) else None
    lanes_n = getattr(cx, "lane_count", cx.engine.target.subgroup.size)  # lane slots (xesim/exec/batch.py: B x 16)
    clone = _scalar_clone(op, cx, lanes_n) if isinstance(cx, LaneCompiler) else None
    op_slots = cx.slots(op.operands)

    def clone_all(fr: list) -> bool:
        """All lanes at once through the vector clone (inactive lanes compute on placeholder values)."""
        mask = ks.lane_mask
        n = ks.lane_count
        if n != lanes_n:
            return False
        return run_clone(fr, clone, op_slots, out_slots, n, None if len(mask) == n else frozenset(mask))

    def run_per_lane(fr: list, varying: list[int]) -> None:
        saved = [fr[s] for s in varying]
        mask = ks.lane_mask
        n = ks.lane_count
        outs = [[None] * n for _ in out_slots]
        try:
            for i in mask:
                for s, v in zip(varying, saved):
                    fr[s] = v.lanes[i]
                ks.lane_id = i
                if has_regions:
                    ks.lane_mask = (i,)
                step(fr)
                for k, s in enumerate(out_slots):
                    v = fr[s]
                    outs[k][i] = v.lanes[i] if type(v) is Varying else v  # a region may yield lane values
            ks.lane_id = None
        finally:
            ks.lane_mask = mask
            for s, v in zip(varying, saved):
                fr[s] = v
        for k, s in enumerate(out_slots):
            fr[s] = Varying(outs[k])

    def run_stacked(fr: list, varying: list[int]) -> bool:
        n = ks.lane_count
        if ks.lane_mask != ks.full_mask or len(ks.full_mask) != n:
            return False
        return run_on_stacks(fr, step, in_slots, out_slots, n, vector_shape)

    def lstep(fr: list) -> None:
        varying = [s for s in in_slots if type(fr[s]) is Varying]
        if not varying:
            if not always:
                step(fr)
                return
        elif engine.config.kernel_reference:  # the reference path: lane by lane (xesim/exec/crosscheck.py)
            pass
        elif vector_shape is not None and run_stacked(fr, varying):
            return
        elif clone is not None and clone_all(fr):
            return
        run_per_lane(fr, varying)

    return lstep
