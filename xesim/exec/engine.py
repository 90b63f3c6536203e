"""The engine: runs a module's host functions, the runtime utilities it calls, and its kernel launches, with one
run configuration (:mod:`xesim.config`) and the observers subscribed to its hook (:mod:`xesim.exec.hooks`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from xesim.config import RunConfig
from xesim.deep import raised_recursion_limit
from xesim.diagnostics import Diagnostic, DiagnosticError
from xesim.exec.faults import ExecFault
from xesim.exec.guard import RunGuard, Stopped
from xesim.exec.hooks import Observer
from xesim.exec.limits import MEMORY_SHARE, default_memory_limit
from xesim.exec.region import FunctionCode
from xesim.exec.state import KernelState
from xesim.hw.memory import AddressSpace
from xesim.ir.core import Module, Operation


class Engine:
    """Runs a module: host functions, runtime utilities and kernel launches."""

    def __init__(self, module: Module, config: RunConfig | None = None, out: TextIO | None = None,
                 err: TextIO | None = None, externals: Mapping[str, Callable] | None = None) -> None:
        """``config``: how the program runs (:class:`xesim.config.RunConfig`; made by :mod:`xesim.cli` and
        :mod:`xesim.api` from flags, arguments and environment variables; the defaults when None).  ``externals``:
        the functions a program may call without a body (``fn(engine, args, arg_types) -> result`` by name: the
        runner utilities of :mod:`xesim.runtime`, which :func:`xesim.api.make_engine` passes)."""
        from xesim.exec import ops  # noqa: F401  (registers every @impl)
        from xesim.hw.params import base_target, load_target

        self.module = module
        self.config = config = config or RunConfig()
        self.externals = dict(externals or {})
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        from xesim.exec.program_target import program_target

        # the chip the program's #xevm.target names, else the configured one (upstream-xegpu-xevm.md §4.12); a
        # configured target file that refines that chip (an `xesim calibrate` overlay) is used for it
        named = program_target(module)
        target = load_target(config.target if named is None or base_target(config.target) == named else named)
        self.target = target.with_overrides(dict(config.overrides)) if config.overrides else target
        self._schedule_rng: Any = None
        self.assumption_notes: list[str] = []  # free-form notes for --explain-assumptions
        self._warned: set[tuple[int, str]] = set()
        self.observers: list[Observer] = []  # who follows the run through the hook (xesim/exec/hooks.py)
        self.memory = AddressSpace("global", limit=config.memory_limit or default_memory_limit(),
                                   limit_note="--memory-limit, XESIM_MEMORY_LIMIT" if config.memory_limit else
                                   f"by default {MEMORY_SHARE:.2g} of this machine's memory; --memory-limit, "
                                   "XESIM_MEMORY_LIMIT")
        self.kstate = KernelState()
        #: the step budget, deadline and stop flag of this engine's runs (xesim/exec/guard.py)
        self.guard = RunGuard(config.max_steps, config.timeout, self.kstate)
        self._code: dict[tuple[int, int, int], FunctionCode] = {}
        self.rng = None
        self.call_depth = 0  # func.calls in progress (bounded by config.max_call_depth)

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

    def launch(self, kernel: Operation, name: str, grid: tuple, block: tuple, args: list, launch_op: Any) -> None:
        """Run ``kernel`` over ``grid`` x ``block`` with ``args`` (:func:`xesim.exec.launcher.launch_kernel`), as the
        observers wrap launches (:meth:`xesim.exec.hooks.Observer.wrap_launch`: the engine cross-check runs it
        twice), unless an identical earlier launch's writes can be reused (:mod:`xesim.exec.launch_reuse`)."""
        from xesim.exec.launcher import launch_kernel

        def run(kernel: Operation, name: str, grid: tuple, block: tuple, args: list, launch_op: Any) -> None:
            launch_kernel(self, kernel, name, grid, block, args, launch_op)

        for obs in self.observers:
            run = obs.wrap_launch(self, run)
        # an identical earlier launch's writes instead of running again, when allowed (xesim/exec/launch_reuse.py)
        from xesim.exec.launch_reuse import reuse_state

        with raised_recursion_limit(), self.guard:  # room for deep nesting (xesim/deep.py); limits (exec/guard.py)
            reuse_state(self).launch(self, run, kernel, name, grid, block, args, launch_op)

    def compile_loop(self, op: Operation, cx: Any, interpret: Any) -> Any:
        """The step of host ``scf.for`` ``op``: the compiled loop nest rooted at it when possible
        (:mod:`xesim.exec.jit`), else ``interpret(op, cx)``."""
        from xesim.exec.jit import compile_for

        return compile_for(op, cx, interpret)

    def synchronising_regions(self) -> frozenset[int]:
        """The ids of the module's regions that hold an op with the ``barrier`` trait at any depth, found in one
        walk (asking each region op about its own subtree would be quadratic in the nesting depth)."""
        found = self.__dict__.get("_synchronising")
        if found is None:
            marked: set[int] = set()
            for op in self.module.walk():
                if op.opdef is not None and "barrier" in op.opdef.traits:
                    region = op.parent.parent if op.parent is not None else None
                    while region is not None and id(region) not in marked:
                        marked.add(id(region))
                        parent_op = region.parent
                        block = parent_op.parent if parent_op is not None else None
                        region = block.parent if block is not None else None
            found = self._synchronising = frozenset(marked)
        return found

    def lookup(self, path: tuple[str, ...]) -> Operation | None:
        return self.module.lookup_symbol(path)

    def run(self, entry: str = "main", args: list | tuple = ()) -> tuple:
        """Run function ``entry``; return its results.  Raises DiagnosticError on faults and when the run reaches a
        limit (``max_steps``, ``timeout``: :mod:`xesim.exec.guard`); KeyboardInterrupt (SIGINT; ``Terminated``
        for SIGTERM) passes, and :func:`xesim.exec.guard.locate` tells where it struck."""
        from xesim.diagnostics import Location

        func = self.lookup((entry,))
        if func is None or func.name != "func.func":
            raise DiagnosticError(Diagnostic("error", Location.unknown(), f"no function @{entry} to run"))
        if func.regions[0].empty:
            raise DiagnosticError(Diagnostic("error", func.loc, f"function @{entry} has no body"))
        wanted = len(func.regions[0].blocks[0].args)
        if wanted != len(args):
            # mlir-runner calls its entry point with no arguments and refuses one that takes some
            raise DiagnosticError(Diagnostic("error", func.loc, f"entry function @{entry} takes {wanted} "
                                             f"argument(s), {len(args)} given (xesim run, like mlir-runner, "
                                             "calls it with none)"))
        try:
            with raised_recursion_limit(), self.guard:  # room for deep nesting (xesim/deep.py); limits (exec/guard.py)
                values = self.function_code(func)(list(args))
            for obs in self.observers:
                obs.run_end(self)
            return values
        except ExecFault as exc:
            raise DiagnosticError(exc.to_diagnostic()) from exc
        except Stopped as exc:
            raise DiagnosticError(stop_diagnostic(exc)) from None
        finally:
            try:
                self.out.flush()
            except Exception:  # noqa: BLE001 - closed streams at exit
                pass


def stop_diagnostic(exc: BaseException, what: str = "") -> Diagnostic:
    """A located error for a run that stopped (:class:`~xesim.exec.guard.Stopped`) or was interrupted
    (``KeyboardInterrupt``): ``what`` (default: the stop's own message), then where -- "in this 'scf.for' loop" when
    it stopped between iterations or inside a compiled loop nest, else "while executing this 'op' op" and the loop
    around it with its location (:func:`xesim.exec.guard.locate`) -- and the kernel instance when inside a kernel,
    at the op's location."""
    from xesim.diagnostics import Location
    from xesim.exec.guard import locate

    op, loop = locate(exc)
    text = what or getattr(exc, "message", "") or type(exc).__name__
    if op is not None and loop is op:
        text += f" in this '{op.name}' loop"
    elif op is not None:
        text += f", while executing this '{op.name}' op"
        if loop is not None:
            text += f" in the '{loop.name}' loop at {loop.loc}"
    context = getattr(exc, "xesim_context", "")
    if context:
        text += f" ({context})"
    return Diagnostic("error", op.loc if op is not None else Location.unknown(), text)
