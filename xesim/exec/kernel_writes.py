"""Which memory a kernel launch may write (docs/performance.md "Parallel workgroups").

A static walk over the kernel's uses of its memref arguments (:func:`written_arguments`) proves some arguments
read-only; :func:`writable_allocations` turns a launch's argument values into the global allocations the launch
can change.  Used for the ``--jobs`` workers' snapshots and comparisons (xesim/exec/parallel.py) and the batched
runner's roll-back snapshot (xesim/exec/batch.py): memory that a launch only reads needs neither.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias


def _only_writes(op: Any) -> bool:
    """A use that cannot read through its memref / descriptor operands: it reads only the descriptor
    (``inspects``), or writes memory and reads none (a store; traits of isa/dialects).  Any other use may read."""
    traits = op.opdef.traits if op.opdef is not None else frozenset()
    return "inspects" in traits or ("writes_memory" in traits and "reads_memory" not in traits)


def _only_reads(op: Any) -> bool:
    """A use that cannot write through its memref / descriptor operands: it reads only the descriptor
    (``inspects``: ``memref.dim``), or reads memory and writes none (traits of isa/dialects).  Any other use --
    a pure op whose result may alias (a select, a pointer taken) included -- may write."""
    traits = op.opdef.traits if op.opdef is not None else frozenset()
    return "inspects" in traits or ("reads_memory" in traits and "writes_memory" not in traits)


def _views(op: Any) -> bool:
    """An op whose result reaches the memory of its operand 0 (trait ``view``: subviews, casts, descriptors)."""
    return op.opdef is not None and "view" in op.opdef.traits


def written_arguments(kernel: Any) -> frozenset[int]:
    """Positions of the kernel's arguments whose memory it may write.  An argument is left out only when every
    value derived from it (views and descriptors, trait ``view``, of operand 0, ``scf.for`` iteration
    arguments and results, ``scf.yield``) is used by ops that only read (:func:`_only_reads`) alone; any other use --
    a store, an atomic, a call, taking its address, an op not listed -- counts as a write.  Non-memref
    arguments are always included (an integer may be an address)."""
    ft = kernel.attributes["function_type"].type
    entry = kernel.regions[0].blocks[0] if kernel.regions and kernel.regions[0].blocks else None
    if entry is None:
        return frozenset(range(len(ft.inputs)))
    out = set()
    for i, arg in enumerate(entry.args[:len(ft.inputs)]):
        if not isinstance(arg.type, (T.MemRefType, T.UnrankedMemRefType)) or _reaches(arg, _only_reads):
            out.add(i)
    return frozenset(out)


def read_arguments(kernel: Any) -> frozenset[int]:
    """Positions of the kernel's arguments whose memory it may read: as :func:`written_arguments` with the roles
    swapped -- an argument is left out only when every value derived from it is used by ops that only write
    (a store: trait ``writes_memory`` without ``reads_memory``) or only inspect the descriptor.  Non-memref
    arguments are always included (an integer may be an address)."""
    ft = kernel.attributes["function_type"].type
    entry = kernel.regions[0].blocks[0] if kernel.regions and kernel.regions[0].blocks else None
    if entry is None:
        return frozenset(range(len(ft.inputs)))
    return frozenset(i for i, arg in enumerate(entry.args[:len(ft.inputs)])
                     if not isinstance(arg.type, (T.MemRefType, T.UnrankedMemRefType)) or _reaches(arg, _only_writes))


def _reaches(root: Any, harmless: Any) -> bool:
    """True unless every use of ``root`` and of what derives from it is ``harmless`` (only reads, for
    :func:`written_arguments`; only writes, for :func:`read_arguments`)."""
    seen = {id(root)}
    todo = [root]
    while todo:
        v = todo.pop()
        for op in v.uses:
            derived: list[Any] = []
            for pos, x in enumerate(op.operands):
                if x is not v:
                    continue
                if harmless(op):
                    continue
                if _views(op) and pos == 0:
                    derived.extend(op.results)
                elif op.name == "scf.for" and pos >= 3 and op.regions and op.regions[0].blocks:
                    derived.append(op.regions[0].blocks[0].args[pos - 2])  # iteration argument (after the iv)
                    derived.append(op.results[pos - 3])
                elif op.name == "scf.yield" and _enclosing_for(op) is not None:
                    derived.append(_enclosing_for(op).results[pos])
                    derived.append(op.parent.args[pos + 1])
                else:
                    return True
            for d in derived:
                if id(d) not in seen:
                    seen.add(id(d))
                    todo.append(d)
    return False


def _enclosing_for(op: Any) -> Any:
    """The ``scf.for`` whose body ``op`` (a terminator) ends, or None."""
    block = op.parent
    region = block.parent if block is not None else None
    owner = region.parent if region is not None else None
    return owner if owner is not None and owner.name == "scf.for" else None


def writable_allocations(engine: Any, args: list | None, written: frozenset[int] | None = None) -> list:
    """The live global allocations a launch with kernel arguments ``args`` can write: those of its memref
    arguments (only those at the positions ``written`` when given: :func:`written_arguments`), or every live one
    when an argument is an integer (possibly an address) or unknown."""
    from xesim.exec.values import MemRefValue

    space = engine.memory
    if args is None:
        return [a for a in space.live_allocations() if a.size > 0]
    allocs = {}
    for i, v in enumerate(args):
        if isinstance(v, MemRefValue):
            if written is not None and i not in written:
                continue
            if v.space is space:
                a = v.alloc if v.alloc is not None else space.allocation_at(v.aligned)
                if a is not None and a.alive and a.size > 0:
                    allocs[id(a)] = a
        elif isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            return [a for a in space.live_allocations() if a.size > 0]
    return list(allocs.values())


def launch_allocations(engine: Any, kernel: Any, args: list | None) -> list:
    """:func:`writable_allocations` of a launch of ``kernel`` with ``args``, the kernel's
    :func:`written_arguments` computed once per engine and kernel."""
    cache: dict[int, frozenset[int]] = engine.__dict__.setdefault("_kernel_written_args", {})
    written = cache.get(id(kernel))
    if written is None:
        written = cache[id(kernel)] = written_arguments(kernel)
    return writable_allocations(engine, args, written)
