"""The reference interpreter: ops compiled to Python closures over a frame of value slots.

Each function body is compiled once (lazily, on first call) into :class:`CompiledRegion` objects: a block
is a list of *steps* (``step(frame) -> None``) followed by a *terminator* (``term(frame) -> (target, values)``
where ``target`` is a block index for branches or ``None`` for leaving the region).  An op's semantics is
one compile function registered with ``@impl("dialect.op")`` (:mod:`xesim.exec.registry`) in
``xesim/exec/ops/<dialect>.py``; it receives the op and the :class:`Compiler` (slots, nested regions, the
engine) and returns the step.  Values live in frame slots; regions nested in an op share their function's
frame; every call gets a fresh frame.

Runtime faults are :class:`ExecFault` carrying the op; they render as located diagnostics with the
kernel/subgroup/lane context when raised inside a kernel.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from xesim.config import RunConfig
from xesim.diagnostics import Diagnostic, DiagnosticError
from xesim.exec.hooks import Observer
from xesim.exec.registry import AXIS, IMPLS
from xesim.hw.memory import AddressSpace, MemoryFault
from xesim.ir.core import Block, Module, Operation, Region, Value

Step = Callable[[list], None]
Term = Callable[[list], tuple]


class ExecFault(Exception):
    """A runtime error attributed to an op (filled in by the region runner when raised without one)."""

    def __init__(self, message: str, op: Operation | None = None, context: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.op = op
        self.context = context

    def to_diagnostic(self) -> Diagnostic:
        if self.op is None:
            from xesim.diagnostics import Location

            return Diagnostic("error", Location.unknown(), self.message)
        msg = f"'{self.op.name}' op {self.message}"
        if self.context:
            msg += f" ({self.context})"
        return Diagnostic("error", self.op.loc, msg)


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
        except DiagnosticError:
            raise
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
    else 1)."""

    def __init__(self, engine: Engine, func_op: Operation, width: int = 1, group: int = 1) -> None:
        self.engine = engine
        self.func_op = func_op
        self.width = width
        self.group = group
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
        if self.width == 1 or step is None or is_term or op.name in AXIS:
            return step
        from xesim.exec.axis import lift

        return lift(op, self, step)

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

    def __init__(self, engine: Engine, func_op: Operation, width: int = 1, group: int = 1) -> None:
        self.func_op = func_op
        cx = Compiler(engine, func_op, width, group)
        self.body = cx.compile_region(func_op.regions[0])
        self.nslots = cx.nslots

    def __call__(self, args: list | tuple) -> tuple:
        fr: list = [None] * self.nslots
        return run_region(self.body, fr, args)


def _sequential_nbarrier_arrive(bid: int, participants: int, op: Any) -> None:
    if participants > 1:
        raise ExecFault(f"named barrier {bid} has {participants} participants but only one instance runs")


def _sequential_nbarrier_wait(bid: int, op: Any) -> None:
    return None


class KernelState:
    """Ids of the executing kernel instance, read by the gpu id ops (spec/programs-and-runner.md §3.2)."""

    def __init__(self) -> None:
        self.grid = (1, 1, 1)
        self.block = (1, 1, 1)
        self.block_id = (0, 0, 0)
        self.thread_id = (0, 0, 0)
        self.subgroup_id = 0
        # The instance axis of the executing code (xesim/exec/axis.py): a kernel value is uniform or a Varying of
        # ``slots`` items, one per instance the level forms -- a subgroup (SG, VC), a workgroup (WG), a work-item
        # (lane level: ``group`` = 16 slots per subgroup) -- for ``groups`` subgroups (or workgroups) at once.
        self.slots = 16
        self.group = 16  # slots per subgroup: the subgroup size at lane level, 1 when a slot is a whole subgroup
        self.groups = 1
        self.mask: tuple[int, ...] = ()  # the active slots
        self.full: tuple[int, ...] = ()  # the slots launched (a partial last subgroup has fewer lanes)
        self.slot: int | None = 0  # the slot an op executes for one at a time (None: all active), for messages
        self.group_ids: Any = None  # the groups' (block ids [G, 3], subgroup ids [G], first work-items [G])
        self.masks = True  # divergent control flow narrows the mask (False: a lockstep batch stops, Diverged)
        self.num_subgroups = 1
        self.subgroup_size = 16
        self.slm: AddressSpace | None = None
        self.slm_allocs: dict[int, Any] = {}
        self.kernel_name = ""
        self.level = ""
        self.active = False
        self.printf_buffer: list[str] = []
        # yield points, replaced by the launcher's Scheduler while a workgroup runs as coroutines
        self.barrier: Callable[[Any], None] = lambda op: None
        self.yield_point: Callable[[Any], None] = lambda op: None
        self.nbarrier_arrive: Callable[[int, int, Any], None] = _sequential_nbarrier_arrive
        self.nbarrier_wait: Callable[[int, Any], None] = _sequential_nbarrier_wait
        self.lockstep: Any = None  # the running batch's barriers (xesim/exec/batch.py LockstepSync)

    def context(self) -> str:
        if not self.active:
            return ""
        parts = [f"kernel {self.kernel_name}", f"workgroup ({', '.join(map(str, self.block_id))})",
                 f"subgroup {self.subgroup_id}"]
        if self.level == "lane":
            if self.slot is not None:
                parts.append(f"lane {self.slot}")
            elif self.mask != self.full:
                parts.append(f"active lanes {list(self.mask)}")
        return ", ".join(parts)


class Engine:
    """Runs a module: host functions, runtime utilities and kernel launches."""

    def __init__(self, module: Module, config: RunConfig | None = None, out: TextIO | None = None,
                 err: TextIO | None = None) -> None:
        """``config``: how the program runs (:class:`xesim.config.RunConfig`; made by :mod:`xesim.cli` and
        :mod:`xesim.api` from flags, arguments and environment variables; the defaults when None)."""
        from xesim.exec import ops  # noqa: F401  (registers every @impl)
        from xesim.hw.params import load_target

        self.module = module
        self.config = config = config or RunConfig()
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        target = load_target(config.target)
        self.target = target.with_overrides(dict(config.overrides)) if config.overrides else target
        self._schedule_rng: Any = None
        self.assumption_notes: list[str] = []  # free-form notes for --explain-assumptions
        self._warned: set[tuple[int, str]] = set()
        self.observers: list[Observer] = []  # who follows the run through the hook (xesim/exec/hooks.py)
        self.memory = AddressSpace("global")
        self.kstate = KernelState()
        self._code: dict[tuple[int, int, int], FunctionCode] = {}
        self.rng = None

    def subscribe(self, observer: Observer) -> Observer:
        """Let ``observer`` follow this engine's runs from now on (:mod:`xesim.exec.hooks`); kernels compile anew
        with its instrumentation.  Returns it."""
        self.observers.append(observer)
        self._code.clear()
        self.__dict__.pop("_batch_code", None)
        return observer

    def observer(self, kind: type) -> Any:
        """The subscribed observer of class ``kind`` (None when there is none)."""
        return next((obs for obs in self.observers if isinstance(obs, kind)), None)

    def schedule_rng(self) -> Any:
        """The seeded generator of the random schedule (``--seed``), created on first use."""
        if self._schedule_rng is None:
            import numpy as np

            self._schedule_rng = np.random.default_rng([self.config.seed, 0x5C4ED])
        return self._schedule_rng

    def warn(self, op: Operation, message: str) -> None:
        """A runtime warning (e.g. a block shape PVC rejects but that works in practice), once per op and text;
        an error under ``--strict``."""
        if self.config.strict:
            raise ExecFault(message + " (error because of --strict)", op)
        key = (id(op), message)
        if key in self._warned:
            return
        self._warned.add(key)
        d = Diagnostic("warning", op.loc, f"'{op.name}' op {message}")
        print(d.render(), file=self.err)

    def function_code(self, func_op: Operation, width: int = 1, group: int = 1) -> FunctionCode:
        """The function compiled for ``width`` instance slots, ``group`` per subgroup (:class:`Compiler`)."""
        key = (id(func_op), width, group)
        code = self._code.get(key)
        if code is None:
            code = self._code[key] = FunctionCode(self, func_op, width, group)
        return code

    def lookup(self, path: tuple[str, ...]) -> Operation | None:
        return self.module.lookup_symbol(path)

    def run(self, entry: str = "main", args: list | tuple = ()) -> tuple:
        """Run function ``entry``; return its results.  Raises DiagnosticError on faults."""
        from xesim.diagnostics import Location

        func = self.lookup((entry,))
        if func is None or func.name != "func.func":
            raise DiagnosticError(Diagnostic("error", Location.unknown(), f"no function @{entry} to run"))
        if func.regions[0].empty:
            raise DiagnosticError(Diagnostic("error", func.loc, f"function @{entry} has no body"))
        try:
            return self.function_code(func)(list(args))
        except ExecFault as exc:
            raise DiagnosticError(exc.to_diagnostic()) from exc
        finally:
            try:
                self.out.flush()
            except Exception:  # noqa: BLE001 - closed streams at exit
                pass
