"""Ops compiled to Python closures over a frame of value slots, and the loop that runs them.

Each function body is compiled once (lazily, on first call) into :class:`CompiledRegion` objects: a block is a list
of *steps* (``step(frame) -> None``) followed by a *terminator* (``term(frame) -> (target, values)`` where
``target`` is a block index for branches or ``None`` for leaving the region).  An op's semantics is one compile
function registered with ``@impl("dialect.op")`` (:mod:`xesim.exec.registry`) in ``xesim/exec/ops/<dialect>.py``;
it receives the op and the :class:`Compiler` (slots, nested regions, the engine) and returns the step.  The
compiler lifts an implementation written for one instance onto the instance axis (:mod:`xesim.exec.axis`) and lets
every subscribed observer wrap the step (:mod:`xesim.exec.hooks`).  Values live in frame slots; regions nested in an
op share their function's frame; every call gets a fresh frame.

Runtime faults are :class:`~xesim.exec.faults.ExecFault` carrying the op; an error inside xesim is reported at the
op that was executing, never as a bare traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from xesim.diagnostics import Diagnostic, DiagnosticError
from xesim.exec.axis import Diverged, accesses_shared_local_memory, lift, run_per_bank
from xesim.exec.faults import ExecFault
from xesim.exec.registry import AXIS, BANKED, IMPLS
from xesim.hw.memory import MemoryFault
from xesim.ir.core import Block, Operation, Region, Value

Step = Callable[[list], None]
Term = Callable[[list], tuple]


class CompiledBlock:
    __slots__ = ("arg_slots", "steps", "ops", "term", "block")

    def __init__(self, block: Block) -> None:
        self.block = block
        self.arg_slots: list[int] = []
        self.steps: list[Step] = []
        self.ops: list[Operation] = []
        self.term: Term | None = None


class CompiledRegion:
    __slots__ = ("blocks", "region")

    def __init__(self, region: Region) -> None:
        self.region = region
        self.blocks: list[CompiledBlock] = []

    @property
    def entry(self) -> CompiledBlock:
        return self.blocks[0]


def _leave_empty(fr: list) -> tuple:
    return (None, ())


def run_region(cr: CompiledRegion, fr: list, args: tuple | list = ()) -> tuple:
    """Execute a compiled region in frame ``fr`` with entry-block ``args``; return the values its
    region-exiting terminator yields."""
    b = cr.blocks[0]
    for slot, v in zip(b.arg_slots, args):
        fr[slot] = v
    while True:
        i = 0
        try:
            for s in b.steps:
                s(fr)
                i += 1
            nxt, vals = b.term(fr)  # type: ignore[misc]
        except ExecFault as exc:
            if exc.op is None:
                exc.op = b.ops[i] if i < len(b.ops) else None
            raise
        except MemoryFault as exc:
            raise ExecFault(str(exc), b.ops[i] if i < len(b.ops) else None) from exc
        except (ZeroDivisionError, OverflowError, FloatingPointError) as exc:
            raise ExecFault(str(exc), b.ops[i] if i < len(b.ops) else None) from exc
        except (DiagnosticError, Diverged):
            raise
        except RecursionError as exc:
            raise ExecFault(f"regions or calls nested too deep to run (Python's recursion limit is "
                            f"{sys.getrecursionlimit()}); lower --max-call-depth or the nesting",
                            b.ops[i] if i < len(b.ops) else None) from exc
        except Exception as exc:  # a bug in xesim: still report it at the op that was executing
            raise ExecFault(f"internal error while executing this op ({type(exc).__name__}: {exc}); "
                            "please report it (--debug shows the traceback)",
                            b.ops[i] if i < len(b.ops) else None) from exc
        if nxt is None:
            return vals
        b = cr.blocks[nxt]
        for slot, v in zip(b.arg_slots, vals):
            fr[slot] = v


class Compiler:
    """Compiles one function-like op (func.func / gpu.func) into closures; hands out frame slots.

    ``width`` is the number of instance slots the code runs for (:mod:`xesim.exec.axis`; 1 for host code and one
    subgroup at the SG, VC and WG levels) and ``group`` the slots per subgroup (the subgroup size at lane level,
    else 1).  ``banks`` is the number of workgroups whose shared local memories the slots reach (a lockstep batch of
    several workgroups, :class:`xesim.hw.memory.BankedSpace`): ``width / banks`` consecutive slots each."""

    def __init__(self, engine: Any, func_op: Operation, width: int = 1, group: int = 1, banks: int = 1) -> None:
        self.engine = engine
        self.func_op = func_op
        self.width = width
        self.group = group
        self.banks = banks
        self._slots: dict[int, int] = {}
        self.nslots = 0
        self.block_index: dict[int, int] = {}

    # ------------------------------------------------------------------ slots
    def slot(self, v: Value) -> int:
        k = id(v)
        s = self._slots.get(k)
        if s is None:
            s = self._slots[k] = self.nslots
            self.nslots += 1
        return s

    def slots(self, values: list) -> list[int]:
        return [self.slot(v) for v in values]

    def temp_slot(self) -> int:
        """A frame slot not tied to an SSA value (scratch space of one op)."""
        s = self.nslots
        self.nslots += 1
        return s

    # ------------------------------------------------------------------ regions
    def compile_region(self, region: Region) -> CompiledRegion:
        cr = CompiledRegion(region)
        for i, b in enumerate(region.blocks):
            self.block_index[id(b)] = i
        for b in region.blocks:
            cb = CompiledBlock(b)
            cb.arg_slots = self.slots(b.args)
            cr.blocks.append(cb)
        for b, cb in zip(region.blocks, cr.blocks):
            for op in b.ops:
                is_term = op.opdef is not None and op.opdef.is_terminator
                compiled = self.compile_op(op, is_term)
                for obs in self.engine.observers:  # the one hook (xesim/exec/hooks.py)
                    compiled = obs.instrument(op, self, compiled, is_term)
                if is_term:
                    cb.term = compiled
                    cb.ops.append(op)
                elif compiled is not None:
                    cb.steps.append(compiled)
                    cb.ops.append(op)
            if cb.term is None:
                cb.term = _leave_empty  # blocks of no-terminator regions (module bodies) or implicit yields
        return cr

    def compile_op(self, op: Operation, is_term: bool) -> Any:
        """The step (or terminator) of one op: its ``@impl``, lifted onto the instance axis when the code runs for
        several slots and the implementation is written for one instance (:func:`xesim.exec.axis.lift`)."""
        step = self.compile_one(op)
        if self.width == 1 or step is None or is_term:
            return step
        if op.name not in AXIS:
            return lift(op, self, step)
        if self.banks > 1 and op.name not in BANKED and accesses_shared_local_memory(op):
            return self._per_bank(op, step)
        return step

    def _per_bank(self, op: Operation, step: Any) -> Any:
        """An axis-aware step that does not tell the workgroups' shared local memories apart runs once per
        workgroup (:func:`xesim.exec.axis.run_per_bank`)."""
        ks = self.engine.kstate
        out_slots = self.slots(op.results)
        per_bank = self.width // self.banks

        def banked(fr: list) -> None:
            run_per_bank(fr, ks, step, out_slots, per_bank)

        return banked

    def compile_one(self, op: Operation) -> Any:
        """The op's own implementation, as registered (no lifting)."""
        fn = IMPLS.get(op.name)
        if fn is None:
            raise DiagnosticError(Diagnostic("error", op.loc, f"'{op.name}' op has no execution semantics in xesim yet"))
        return fn(op, self)

    def successor_index(self, block: Block) -> int:
        return self.block_index[id(block)]


class FunctionCode:
    """A compiled function: call it with argument values, get its results."""

    def __init__(self, engine: Any, func_op: Operation, width: int = 1, group: int = 1) -> None:
        self.func_op = func_op
        cx = Compiler(engine, func_op, width, group)
        self.body = cx.compile_region(func_op.regions[0])
        self.nslots = cx.nslots

    def call(self, args: list | tuple) -> tuple:
        """Run the function on ``args`` in a fresh frame; its results.  (A method, not ``__call__``: Python 3.11
        runs a method call without a C-stack frame, so deep recursion costs no C stack.)"""
        fr: list = [None] * self.nslots
        return run_region(self.body, fr, args)

    __call__ = call
