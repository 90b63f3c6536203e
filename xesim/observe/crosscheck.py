"""``XESIM_ENGINE=both`` for kernels: every launch runs with the fast paths and again on the reference paths, and
the first difference is a located error (issue 7 §4, ARCHITECTURE.md "Performance").

The kernel fast paths (direct in-bounds 2D block loads/stores of :mod:`xesim.exec.blocks`, the stacked / vector-clone
forms of :func:`xesim.exec.axis.lift`, the gathers of :mod:`xesim.exec.ops.memref`, batched execution in
:mod:`xesim.exec.batch`) consult ``engine.config.kernel_reference``: when it is true they take the reference path (the
block model message by message, one slot at a time, one instance at a time).  DPAS has a
single implementation (the numba model of :mod:`xesim.numerics.dpas`), so it is the same in both runs.
``XESIM_ENGINE=reference`` sets it for the whole run; under ``both`` the :class:`EngineCrossCheck` observer wraps every
launch (the launch hook of :mod:`xesim.exec.hooks`) and does, for each launch:

1. checkpoint the global address space: the bytes and liveness of every live allocation, the allocation list
   (so allocations made by the launch can be rolled back), the cache of ``memref.global`` allocations, the state
   of the random-schedule generator;
2. run the kernel with the fast paths (``kernel_reference`` false), capturing what it prints (``gpu.printf``,
   ``vector.print``) and its fault; record the resulting memory;
3. roll back to the checkpoint and run it with ``kernel_reference`` true and in one process (``jobs = 1``, so
   ``--jobs`` is cross-checked too; same options otherwise; the register-file statistics of this run are dropped,
   so ``--stats`` counts each launch once);
4. compare, in this order: the fault (message, op and kernel context, or the rendered diagnostic of a
   compile-time error), the printed output, then -- only when neither run faulted, since a fault ends the program
   and the memory it leaves is not observable -- the liveness and bytes of every allocation that was live before
   the launch and the bytes of ``memref.global`` allocations the launch created (matched by global).  Other
   allocations made during the launch (private attributions, ``memref.alloc`` inside the kernel) are not
   compared: nothing can reach them after the launch except through a raw address, and their effect on memory
   that is reachable is compared;
5. on the first difference raise an :class:`~xesim.exec.faults.ExecFault` at the launch op naming the
   kernel and the difference: for memory the allocation, the byte offset, and -- when a memref argument of the
   kernel views that element -- the argument's name, its element indices and both values as numbers;
6. otherwise restore the fast run's end state (memory, allocations, globals, generator; it equals the
   reference's), write its output and re-raise its fault, if any.

Warnings (``engine.warn``) are printed once per op and text by whichever run reaches them first; they are not
compared.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import numpy as np

from xesim.diagnostics import DiagnosticError
from xesim.exec.faults import ExecFault
from xesim.exec.hooks import Observer
from xesim.exec.values import MemRefValue

__all__ = ["EngineCrossCheck", "cross_checked_launch"]


class EngineCrossCheck(Observer):
    """``XESIM_ENGINE=both`` for kernels: every launch twice, on the fast and the reference paths, compared (module
    docstring).  Subscribed last, so it wraps the other observers' launches."""

    name = "the engine cross-check (XESIM_ENGINE=both)"

    def wrap_launch(self, engine: Any, launch: Callable[..., None]) -> Callable[..., None]:
        def checked(kernel: Any, name: str, grid: tuple, block: tuple, args: list, launch_op: Any) -> None:
            cross_checked_launch(engine, launch, kernel, name, grid, block, args, launch_op)

        return checked


def cross_checked_launch(engine: Any, launch: Callable[..., None], kernel: Any, name: str, grid: tuple, block: tuple,
                         args: list, launch_op: Any) -> None:
    """Run ``launch(kernel, name, grid, block, args, launch_op)`` with the fast paths and with the reference paths
    from the same starting state; a difference is a located error at ``launch_op`` (module docstring)."""
    space = engine.memory
    ckpt = _Checkpoint(engine)
    out, config = engine.out, engine.config
    before = [obs.save() for obs in engine.observers]
    try:
        engine.config = config.with_options(kernel_reference=False)
        fast_out, fast_exc = _run(engine, launch, (kernel, name, grid, block, args, launch_op))
        fast = _EndState(engine, ckpt)
        after_fast = [obs.save() for obs in engine.observers]
        ckpt.rollback()
        for obs, state in zip(engine.observers, before):  # what observers gather in the second run is dropped
            obs.restore(state)
        engine.config = config.with_options(kernel_reference=True, jobs=1)
        ref_out, ref_exc = _run(engine, launch, (kernel, name, grid, block, args, launch_op))
        ref_globals = dict(engine.__dict__.get("memref_globals", {}))
        for obs, state in zip(engine.observers, after_fast):
            obs.restore(state)
    finally:
        engine.out, engine.config = out, config
    try:
        diff = _fault_difference(fast_exc, ref_exc)
        if diff is None and fast_out != ref_out:
            diff = _output_difference(fast_out, ref_out)
        if diff is None and fast_exc is None:
            diff = _memory_difference(ckpt, fast, ref_globals, args, kernel)
    finally:
        fast.restore(space)
        if fast_out:
            out.write(fast_out)
    if diff is not None:
        raise ExecFault(f"engines differ in kernel {name} (XESIM_ENGINE=both): {diff}; the fast engine runs subgroups "
                        "in lockstep and the reference one after another, so a kernel whose subgroups race gives "
                        "different results (--check-races finds such races)", launch_op)
    if fast_exc is not None:
        raise fast_exc


def _run(engine: Any, fn: Any, call: tuple) -> tuple[str, BaseException | None]:
    """Run one launch with its printed output captured: ``(output, fault or None)``."""
    buf = io.StringIO()
    engine.out = buf
    exc: BaseException | None = None
    try:
        fn(*call)
    except (ExecFault, DiagnosticError) as e:
        exc = e
    return buf.getvalue(), exc


class _Checkpoint:
    """The global address space and engine state a launch can change (module docstring, step 1)."""

    def __init__(self, engine: Any) -> None:
        space = engine.memory
        self.engine = engine
        self.space = space
        self.count = len(space._allocs)  # the checkpoint rolls the allocator back
        self.next = space._next
        self.live = [a for a in space._allocs if a.alive]
        self.data = [a.data.copy() for a in self.live]
        self.freed_by = [a.freed_by for a in self.live]
        self.globals = dict(engine.__dict__.get("memref_globals", {}))
        self.rng = engine._schedule_rng  # the random schedule's generator (Engine.schedule_rng)
        self.rng_state = self.rng.bit_generator.state if self.rng is not None else None

    def rollback(self) -> None:
        """Memory, allocations, globals and generator as they were at the checkpoint."""
        space = self.space
        for a, d, by in zip(self.live, self.data, self.freed_by):
            a.data[...] = d
            a.alive, a.freed_by = True, by
        del space._allocs[self.count:]
        del space._bases[self.count:]
        space._next = self.next
        self.engine.__dict__["memref_globals"] = dict(self.globals)
        self.engine._schedule_rng = self.rng
        if self.rng is not None:
            self.rng.bit_generator.state = self.rng_state


class _EndState:
    """What the fast run left: bytes of the checkpoint's allocations that changed, their liveness, the
    allocations it made, the globals cache and the generator (restored at the end, module docstring step 6)."""

    def __init__(self, engine: Any, ckpt: _Checkpoint) -> None:
        space = engine.memory
        self.ckpt = ckpt
        self.changed = {i: a.data.copy() for i, (a, d) in enumerate(zip(ckpt.live, ckpt.data))
                        if not np.array_equal(a.data, d)}
        self.alive = [(a.alive, a.freed_by) for a in ckpt.live]
        self.allocs = list(space._allocs[ckpt.count:])
        self.next = space._next
        self.globals = dict(engine.__dict__.get("memref_globals", {}))
        self.rng = engine._schedule_rng
        self.rng_state = self.rng.bit_generator.state if self.rng is not None else None
        self.engine = engine

    def data(self, i: int) -> np.ndarray:
        d = self.changed.get(i)
        return self.ckpt.data[i] if d is None else d

    def restore(self, space: Any) -> None:
        for i, a in enumerate(self.ckpt.live):
            a.data[...] = self.data(i)
            a.alive, a.freed_by = self.alive[i]
        n = self.ckpt.count
        del space._allocs[n:]
        del space._bases[n:]
        space._allocs.extend(self.allocs)
        space._bases.extend(a.base for a in self.allocs)
        space._next = self.next
        self.engine.__dict__["memref_globals"] = dict(self.globals)
        self.engine._schedule_rng = self.rng
        if self.rng is not None:
            self.rng.bit_generator.state = self.rng_state


# ------------------------------------------------------------------------------------------------ differences
def _describe_fault(exc: BaseException | None) -> str:
    if exc is None:
        return "finished without a fault"
    if isinstance(exc, ExecFault):
        d = exc.to_diagnostic()
        return f"faulted at {d.loc}: {d.message}"
    assert isinstance(exc, DiagnosticError)
    return "failed: " + "; ".join(f"{d.loc}: {d.message}" for d in exc.diagnostics)


def _fault_difference(fast: BaseException | None, ref: BaseException | None) -> str | None:
    if fast is None and ref is None:
        return None
    if fast is not None and ref is not None and type(fast) is type(ref):
        if isinstance(fast, ExecFault):
            assert isinstance(ref, ExecFault)
            if (fast.message, fast.op, fast.context) == (ref.message, ref.op, ref.context):
                return None
        elif _describe_fault(fast) == _describe_fault(ref):
            return None
    return f"the fast run {_describe_fault(fast)}, the reference run {_describe_fault(ref)}"


def _output_difference(fast: str, ref: str) -> str:
    fl, rl = fast.splitlines(), ref.splitlines()
    for i in range(max(len(fl), len(rl))):
        a = fl[i] if i < len(fl) else None
        b = rl[i] if i < len(rl) else None
        if a != b:
            def show(s: str | None) -> str:
                return "nothing" if s is None else repr(s if len(s) <= 120 else s[:117] + "...")

            return (f"printed output differs at line {i + 1}: {show(a)} (fast) vs {show(b)} (reference)")
    return "printed output differs in line endings"


def _memory_difference(ckpt: _Checkpoint, fast: _EndState, ref_globals: dict, args: list, kernel: Any
                       ) -> str | None:
    for i, a in enumerate(ckpt.live):
        f_alive, _ = fast.alive[i]
        if f_alive != a.alive:
            return (f"{a.describe()} is {'live' if f_alive else 'freed'} after the fast run and "
                    f"{'live' if a.alive else 'freed'} after the reference run")
        fd = fast.data(i)
        if not np.array_equal(fd, a.data):
            return _bytes_difference(a, fd, a.data, _views(args, kernel))
    for key, fm in fast.globals.items():
        if key in ckpt.globals:
            continue  # allocated before the launch: compared above
        rm = ref_globals.get(key)
        fa = fm.alloc
        if rm is None:
            return f"the fast run created {fa.describe()} and the reference run did not"
        if not np.array_equal(fa.data, rm.alloc.data):
            return _bytes_difference(fa, fa.data, rm.alloc.data, [(f"global {fa.label}", fm)])
    return None


def _bytes_difference(a: Any, fast: np.ndarray, ref: np.ndarray, views: list[tuple[str, MemRefValue]]) -> str:
    """The first differing element of allocation ``a``, through a memref of ``views`` ((name, memref) pairs: the
    kernel's memref arguments) that contains it, else as a byte."""
    pos = np.flatnonzero(fast != ref)
    byte = int(pos[0])
    for label, m in views:
        if m.alloc is not a:
            continue
        isz = m.itemsize
        rel = byte - (m.aligned - a.base)
        el, within = divmod(rel, isz)
        idx = _multi_index(el - m.offset, m.sizes, m.strides)
        if idx is None:
            continue
        lo = byte - within
        n = np.unique((pos - (lo % isz)) // isz).size
        fv, rv = _number(fast[lo:lo + isz], m.dtype), _number(ref[lo:lo + isz], m.dtype)
        more = f"; {n} elements differ" if n > 1 else ""
        return (f"{label} ({_type_text(m)}) element [{', '.join(map(str, idx))}] is {fv} (fast) vs {rv} "
                f"(reference) ({a.describe()}, byte offset {lo}){more}")
    n = pos.size
    return (f"{a.describe()} byte offset {byte} is 0x{int(fast[byte]):02x} (fast) vs 0x{int(ref[byte]):02x} "
            f"(reference); {n} byte{'s' if n > 1 else ''} differ")


def _views(args: list, kernel: Any) -> list[tuple[str, MemRefValue]]:
    """The kernel's memref arguments with their names (``argument %name``, ``argument #i`` when unnamed)."""
    try:
        entry = kernel.regions[0].blocks[0].args
    except (AttributeError, IndexError):
        entry = []
    out = []
    for i, m in enumerate(args):
        if isinstance(m, MemRefValue):
            v = entry[i] if i < len(entry) else None
            out.append((f"argument %{v.name}" if getattr(v, "name", None) else f"argument #{i}", m))
    return out


def _type_text(m: MemRefValue) -> str:
    return f"memref<{'x'.join(map(str, m.sizes))}{'x' if m.sizes else ''}{m.element_type}>"


def _number(raw: np.ndarray, dt: np.dtype) -> str:
    """An element as a number (floats with their bit pattern, so -0, NaN payloads and 1-ulp differences show)."""
    if raw.size < dt.itemsize:
        return "?"
    v = np.ascontiguousarray(raw).view(dt)[0]
    if dt.kind == "b":
        return str(int(v))
    if dt.kind in "iu":
        return str(int(v))
    bits = int.from_bytes(raw.tobytes(), "little")
    return f"{float(v)!r} (0x{bits:0{2 * dt.itemsize}x})"


def _multi_index(rel: int, sizes: tuple, strides: tuple) -> list[int] | None:
    """The logical index of the element ``rel`` elements after element 0 of a strided view (None when it is not
    an element of the view)."""
    if not sizes:
        return [] if rel == 0 else None
    if any(d == 0 for d in sizes):
        return None
    order = sorted(range(len(sizes)), key=lambda d: -abs(strides[d]))
    idx = [0] * len(sizes)
    r = rel
    for d in order:
        s = strides[d]
        if s == 0 or sizes[d] == 1:
            continue
        q = r // s
        q = min(max(q, 0), sizes[d] - 1)
        idx[d] = q
        r -= q * s
    return idx if r == 0 else None
