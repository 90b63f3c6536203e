"""Core IR: values, operations, blocks and regions (MLIR's structure, LangRef "High-Level Structure").

An :class:`Operation` has a name (``dialect.op``), operands, results, attributes, regions, successors and a
location.  Operand groups of the op definition (variadic / optional operands) are recorded in
``operand_segments`` so implementations can address operands by name (``op.operand("offsets")``).
Nothing here knows about execution.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from xesim.diagnostics import Location
from xesim.ir.attributes import Attribute
from xesim.ir.types import Type

#: an op definition (:class:`xesim.ir.opdefs.OpDef`; definitions know formats and directives, which build ops, so
#: the core IR does not import them)
OpDef = Any


class Value:
    """An SSA value.  ``name`` is the source name without ``%`` (kept so printing preserves names)."""

    __slots__ = ("type", "name", "uses")

    def __init__(self, type: Type, name: str | None = None) -> None:
        self.type = type
        self.name = name
        self.uses: list[Operation] = []

    @property
    def owner_op(self) -> Operation | None:
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} %{self.name} : {self.type}>"


class OpResult(Value):
    __slots__ = ("op", "index")

    def __init__(self, type: Type, op: Operation, index: int, name: str | None = None) -> None:
        self.type = type
        self.name = name
        self.uses: list[Operation] = []
        self.op = op
        self.index = index

    @property
    def owner_op(self) -> Operation | None:
        return self.op


class BlockArgument(Value):
    __slots__ = ("block", "index", "loc")

    def __init__(self, type: Type, block: Block, index: int, name: str | None = None, loc: Location | None = None) -> None:
        super().__init__(type, name)
        self.block = block
        self.index = index
        self.loc = loc


class Operation:
    """One operation.  ``attributes`` holds both inherent (property) and discardable attributes."""

    __slots__ = (
        "name",
        "operands",
        "results",
        "attributes",
        "regions",
        "successors",
        "loc",
        "parent",
        "operand_segments",
        "opdef",
        "result_group_name",
        "impl_cache",
        "_print_format",
    )

    def __init__(
        self,
        name: str,
        operands: list[Value] | None = None,
        result_types: list[Type] | None = None,
        attributes: dict[str, Attribute] | None = None,
        regions: list[Region] | None = None,
        successors: list[Block] | None = None,
        loc: Location | None = None,
        opdef: OpDef | None = None,
        operand_segments: list[int] | None = None,
    ) -> None:
        self.name = name
        self.operands: list[Value] = list(operands or [])
        self.results: list[OpResult] = [OpResult(t, self, i) for i, t in enumerate(result_types or [])]
        self.attributes: dict[str, Attribute] = dict(attributes or {})
        self.regions: list[Region] = []
        for r in regions or []:
            self.add_region(r)
        self.successors: list[Block] = list(successors or [])
        self.loc = loc or Location.unknown()
        self.parent: Block | None = None
        self.opdef = opdef
        self.operand_segments = operand_segments
        self.result_group_name: str | None = None
        self.impl_cache: Any = None
        self._print_format: Any = None
        for v in self.operands:
            v.uses.append(self)

    @classmethod
    def build(
        cls,
        name: str,
        operands: list[Value],
        result_types: list[Type],
        attributes: dict[str, Attribute],
        regions: list[Region],
        successors: list[Block],
        loc: Location,
        opdef: OpDef | None,
        operand_segments: list[int] | None,
    ) -> Operation:
        """The constructor's result, for a caller that hands over fresh lists and dict (they are not copied)."""
        op = cls.__new__(cls)
        op.name = name
        op.operands = operands
        op.results = [OpResult(t, op, i) for i, t in enumerate(result_types)]
        op.attributes = attributes
        op.regions = regions
        for r in regions:
            r.parent = op
        op.successors = successors
        op.loc = loc
        op.parent = None
        op.opdef = opdef
        op.operand_segments = operand_segments
        op.result_group_name = None
        op.impl_cache = None
        op._print_format = None
        for v in operands:
            v.uses.append(op)
        return op

    # ------------------------------------------------------------------ structure
    def add_region(self, region: Region) -> Region:
        region.parent = self
        self.regions.append(region)
        return region

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def result(self) -> OpResult:
        assert len(self.results) == 1, f"{self.name} has {len(self.results)} results"
        return self.results[0]

    def parent_op(self) -> Operation | None:
        blk = self.parent
        if blk is None or blk.parent is None:
            return None
        return blk.parent.parent

    def walk(self) -> Iterator[Operation]:
        """Pre-order walk of this op and every op nested in its regions.  An explicit stack of the blocks' op
        iterators: linear in the number of ops at any nesting depth (a recursive ``yield from`` passes each op up
        through one generator per enclosing level, and stops at Python's recursion limit)."""
        yield self
        stack = [_nested_ops(self)]
        while stack:
            for op in stack[-1]:
                yield op
                if op.regions:
                    stack.append(_nested_ops(op))
                    break
            else:
                stack.pop()

    # ------------------------------------------------------------------ named access
    def operand_group(self, name: str) -> list[Value]:
        """All operands of the named (possibly variadic) operand group."""
        try:
            idx = self.opdef.operand_index[name]  # type: ignore[union-attr]
        except (AttributeError, KeyError):
            raise KeyError(f"{self.name} has no operand '{name}'") from None
        segs = self.operand_segments
        if not segs:
            return self.operands[idx : idx + 1]
        if not idx:
            return self.operands[: segs[0]]
        start = sum(segs[:idx])
        return self.operands[start : start + segs[idx]]

    def operand(self, name: str) -> Value | None:
        """The single operand of a named group (None when an optional operand is absent)."""
        group = self.operand_group(name)
        return group[0] if group else None

    def attr(self, name: str, default: Any = None) -> Any:
        return self.attributes.get(name, default)

    def has_attr(self, name: str) -> bool:
        return name in self.attributes

    def __repr__(self) -> str:
        return f"<Operation {self.name} at {self.loc}>"


class Block:
    __slots__ = ("args", "ops", "parent", "label", "loc")

    def __init__(self, label: str | None = None) -> None:
        self.args: list[BlockArgument] = []
        self.ops: list[Operation] = []
        self.parent: Region | None = None
        self.label = label
        self.loc: Location | None = None

    def add_arg(self, type: Type, name: str | None = None, loc: Location | None = None) -> BlockArgument:
        arg = BlockArgument(type, self, len(self.args), name, loc)
        self.args.append(arg)
        return arg

    def append(self, op: Operation) -> Operation:
        op.parent = self
        self.ops.append(op)
        return op

    @property
    def terminator(self) -> Operation | None:
        return self.ops[-1] if self.ops else None

    def parent_op(self) -> Operation | None:
        return self.parent.parent if self.parent is not None else None


class Region:
    __slots__ = ("blocks", "parent")

    def __init__(self, blocks: list[Block] | None = None) -> None:
        self.blocks: list[Block] = []
        self.parent: Operation | None = None
        for b in blocks or []:
            self.add_block(b)

    def add_block(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def entry(self) -> Block:
        return self.blocks[0]

    @property
    def empty(self) -> bool:
        return not self.blocks


class Module:
    """A parsed file: the top-level ``builtin.module`` op plus alias tables (kept for printing)."""

    def __init__(self, op: Operation, source_name: str = "<stdin>") -> None:
        self.op = op
        self.source_name = source_name
        self.attr_aliases: dict[str, Attribute] = {}
        self.type_aliases: dict[str, Type] = {}
        self.fragment = False  # parsed as an op fragment (isa examples) rather than a whole module

    @property
    def body(self) -> Block:
        return self.op.regions[0].blocks[0]

    def walk(self) -> Iterator[Operation]:
        return self.op.walk()

    def lookup_symbol(self, path: tuple[str, ...]) -> Operation | None:
        """Resolve a symbol path (``("kernels", "gemm")``) from the top-level module."""
        scope: Operation | None = self.op
        for name in path:
            if scope is None or not scope.regions:
                return None
            found = None
            for block in scope.regions[0].blocks:
                for op in block.ops:
                    sym = op.attributes.get("sym_name")
                    if sym is not None and getattr(sym, "value", None) == name:
                        found = op
                        break
                if found is not None:
                    break
            scope = found
        return scope


def _nested_ops(op: Operation) -> Iterator[Operation]:
    """The ops of every block of ``op``'s regions, in order (one level)."""
    return (inner for region in op.regions for block in region.blocks for inner in block.ops)
