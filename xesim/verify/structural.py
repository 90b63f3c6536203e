"""Structural verification (MLIR's Operation/Region/Block invariants) plus each op's named predicates.

Checks, for every op: operand and result counts and type constraints of its definition, required and
well-kinded attributes, region counts, block terminators (every block of a region that needs one ends in a
terminator allowed by the region's definition; terminators appear only last), ``HasParent`` rules, SSA
dominance (a use is dominated by its definition, through nested regions and across the blocks of a CFG
region), and then the op's ``verifiers`` predicates.  All problems are collected (several errors per file
are all reported); messages follow MLIR's ``'dialect.op' op <message>`` style.
"""

from __future__ import annotations

from xesim.diagnostics import Diagnostic, DiagnosticError, Location
from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.constraints import check_constraint, describe_constraint
from xesim.ir.core import Block, BlockArgument, Module, Operation, OpResult, Region, Value
from xesim.ir.opdefs import Registry, load_registry
from xesim.verify.predicates import PREDICATES


class VerifyContext:
    """Collects diagnostics; handed to every predicate."""

    def __init__(self, module: Module, registry: Registry) -> None:
        self.module = module
        self.registry = registry
        self.diagnostics: list[Diagnostic] = []
        self._dom_cache: dict[int, dict[int, set[int]]] = {}

    def error(self, op: Operation, message: str) -> None:
        self.diagnostics.append(Diagnostic("error", op.loc, f"'{op.name}' op {message}"))

    def error_at(self, loc: Location, message: str) -> None:
        self.diagnostics.append(Diagnostic("error", loc, message))

    def warning(self, op: Operation, message: str) -> None:
        self.diagnostics.append(Diagnostic("warning", op.loc, f"'{op.name}' op {message}"))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def lookup_symbol(self, from_op: Operation, ref: A.SymbolRefAttr) -> Operation | None:
        """Resolve a symbol reference from the nearest symbol table enclosing ``from_op`` outwards."""
        scope = from_op.parent_op()
        while scope is not None:
            if scope.opdef is not None and "symbol_table" in scope.opdef.traits:
                found = _lookup_in(scope, ref.path)
                if found is not None:
                    return found
            scope = scope.parent_op()
        return _lookup_in(self.module.op, ref.path)


def _lookup_in(table: Operation, path: tuple[str, ...]) -> Operation | None:
    scope: Operation | None = table
    for name in path:
        if scope is None or not scope.regions or scope.regions[0].empty:
            return None
        found = None
        for op in scope.regions[0].blocks[0].ops:
            sym = op.attributes.get("sym_name")
            if isinstance(sym, A.StringAttr) and sym.value == name:
                found = op
                break
        scope = found
    return scope


def verify_module(module: Module, registry: Registry | None = None, raise_on_error: bool = True) -> VerifyContext:
    """Verify the whole module; raise DiagnosticError listing every error (unless ``raise_on_error``)."""
    ctx = VerifyContext(module, registry or load_registry())
    ops = list(module.op.walk()) if not module.fragment else [o for top in module.body.ops for o in top.walk()]
    top_level = {id(o) for o in module.body.ops} if module.fragment else set()
    for op in ops:
        _verify_op(op, ctx, check_parent=id(op) not in top_level)
    if raise_on_error and ctx.errors:
        raise DiagnosticError(sorted(ctx.diagnostics, key=lambda d: d.loc.offset))
    return ctx


def _verify_op(op: Operation, ctx: VerifyContext, check_parent: bool = True) -> None:
    od = op.opdef
    if od is None:
        ctx.error(op, "has no definition")
        return
    n_before = len(ctx.errors)
    _check_operands(op, ctx)
    _check_results(op, ctx)
    _check_attributes(op, ctx)
    _check_regions(op, ctx)
    if check_parent:
        _check_parent(op, ctx)
    _check_dominance(op, ctx)
    if len(ctx.errors) > n_before:
        return  # predicates assume a structurally valid op
    for name in od.verifiers:
        try:
            PREDICATES[name](op, ctx)
        except DiagnosticError as exc:
            ctx.diagnostics.extend(exc.diagnostics)


def _check_operands(op: Operation, ctx: VerifyContext) -> None:
    od = op.opdef
    segs = op.operand_segments
    if segs is None:
        if len(op.operands) != len(od.operands) or od.has_flexible_operands:
            fixed = [o for o in od.operands if not (o.variadic or o.optional)]
            if len(fixed) == len(od.operands) or len(op.operands) < len(fixed):
                ctx.error(op, f"requires {len(fixed)} operands, but found {len(op.operands)}")
                return
            segs = [1] * len(od.operands)
        else:  # fast path: one operand per definition entry
            for idx, (o, v) in enumerate(zip(od.operands, op.operands)):
                if not check_constraint(o.type, v.type):
                    ctx.error(op, f"operand #{idx} must be {describe_constraint(o.type)}, but got '{v.type}'")
            return
    if len(segs) != len(od.operands) or sum(segs) != len(op.operands):
        ctx.error(op, "operand groups do not match the op's definition")
        return
    start = 0
    for o, n in zip(od.operands, segs):
        if not o.variadic and not o.optional and n != 1:
            ctx.error(op, f"requires exactly one '{o.name}' operand")
        elif o.optional and n > 1:
            ctx.error(op, f"requires at most one '{o.name}' operand")
        else:
            for i in range(start, start + n):
                v = op.operands[i]
                if not check_constraint(o.type, v.type):
                    ctx.error(op, f"operand #{i} must be {describe_constraint(o.type)}, but got '{v.type}'")
        start += n


def _check_results(op: Operation, ctx: VerifyContext) -> None:
    od = op.opdef
    fixed = [r for r in od.results if not (r.variadic or r.optional)]
    if len(fixed) == len(od.results) and len(op.results) != len(fixed):
        ctx.error(op, f"requires {len(fixed)} results, but found {len(op.results)}")
        return
    if len(od.results) == 1:
        groups = [(od.results[0], list(op.results))]
    else:
        groups = []
        for i, r in enumerate(od.results):
            if i < len(od.results) - 1 or not (r.variadic or r.optional):
                groups.append((r, op.results[i : i + 1]))
            else:
                groups.append((r, op.results[i:]))
    for r, vals in groups:
        for v in vals:
            if not check_constraint(r.type, v.type):
                ctx.error(op, f"result #{v.index} must be {describe_constraint(r.type)}, but got '{v.type}'")


_KIND_CHECK = {
    "int": lambda a: isinstance(a, A.IntegerAttr),
    "i64": lambda a: isinstance(a, A.IntegerAttr),
    "i32": lambda a: isinstance(a, A.IntegerAttr),
    "i8": lambda a: isinstance(a, A.IntegerAttr),
    "index": lambda a: isinstance(a, A.IntegerAttr),
    "bool": lambda a: isinstance(a, A.IntegerAttr) and a.type == T.I1,
    "unit": lambda a: isinstance(a, A.UnitAttr),
    "string": lambda a: isinstance(a, A.StringAttr),
    "symbol": lambda a: isinstance(a, A.StringAttr),
    "symbol_ref": lambda a: isinstance(a, A.SymbolRefAttr),
    "type": lambda a: isinstance(a, A.TypeAttr),
    "function_type": lambda a: isinstance(a, A.TypeAttr) and isinstance(a.type, T.FunctionType),
    "array": lambda a: isinstance(a, A.ArrayAttr),
    "dense_i64": lambda a: isinstance(a, (A.DenseArrayAttr, A.ArrayAttr)),
    "dense_i32": lambda a: isinstance(a, (A.DenseArrayAttr, A.ArrayAttr)),
    "dense_bool": lambda a: isinstance(a, (A.DenseArrayAttr, A.ArrayAttr)),
    "dense": lambda a: isinstance(a, A.DenseElementsAttr),
    "dict": lambda a: isinstance(a, A.DictAttr),
    "affine_map": lambda a: isinstance(a, A.AffineMapAttr),
    "float": lambda a: isinstance(a, A.FloatAttr),
    "strided": lambda a: isinstance(a, A.StridedLayoutAttr),
    "layout": lambda a: isinstance(a, A.DialectAttr) and a.dialect == "xegpu",
}


def _check_attributes(op: Operation, ctx: VerifyContext) -> None:
    od = op.opdef
    for ad in od.attributes:
        a = op.attributes.get(ad.name)
        if a is None:
            if not ad.optional and ad.default is None:
                ctx.error(op, f"requires attribute '{ad.name}'")
            continue
        check = _KIND_CHECK.get(ad.kind)
        if check is not None and not check(a):
            ctx.error(op, f"attribute '{ad.name}' failed to satisfy constraint: {ad.kind} attribute (got {a})")


def _check_regions(op: Operation, ctx: VerifyContext) -> None:
    od = op.opdef
    fixed = [r for r in od.regions if not (r.variadic or r.optional)]
    if not any(r.variadic for r in od.regions) and not (len(fixed) <= len(op.regions) <= len(od.regions)):
        ctx.error(op, f"requires {len(od.regions)} regions, but found {len(op.regions)}")
        return
    no_term = "no_terminator" in od.traits
    for i, region in enumerate(op.regions):
        rd = od.regions[min(i, len(od.regions) - 1)] if od.regions else None
        if rd is not None and rd.single_block and len(region.blocks) > 1:
            ctx.error(op, f"expects region #{i} to have 0 or 1 blocks")
        for block in region.blocks:
            for k, inner in enumerate(block.ops):
                if inner.opdef is not None and inner.opdef.is_terminator and k != len(block.ops) - 1:
                    ctx.error_at(inner.loc, f"'{inner.name}' op must be the last operation in the parent block")
            if no_term:
                continue
            term = block.terminator
            if term is None or term.opdef is None or not term.opdef.is_terminator:
                loc = term.loc if term is not None else op.loc
                ctx.error_at(loc, "block with no terminator" + (f", has {term.name}" if term is not None else ""))
                continue
            # A branch (a terminator with successors, e.g. cf.br) stays inside the region; the region's
            # terminator list names the ops that leave it (func.return in a func.func CFG).
            if rd is not None and rd.terminators and term.name not in rd.terminators and not term.successors:
                ctx.error_at(
                    term.loc,
                    f"'{term.name}' op is not a valid terminator here: '{op.name}' expects "
                    + " or ".join(f"'{t}'" for t in rd.terminators),
                )


def _check_parent(op: Operation, ctx: VerifyContext) -> None:
    od = op.opdef
    if not od.parents:
        return
    parent = op.parent_op()
    if parent is None or parent.name not in od.parents:
        names = ", ".join(f"'{p}'" for p in od.parents)
        ctx.error(op, f"expects parent op {'to be one of ' if len(od.parents) > 1 else ''}{names}")


# ------------------------------------------------------------------------------------------- dominance


def _check_dominance(op: Operation, ctx: VerifyContext) -> None:
    for idx, v in enumerate(op.operands):
        if not _dominates(v, op, ctx):
            ctx.error(op, f"operand #{idx} does not dominate this use")
            ctx.diagnostics[-1].notes.append(Diagnostic("note", _def_loc(v), "operand defined here"))


def _def_loc(v: Value) -> Location:
    if isinstance(v, OpResult):
        return v.op.loc
    if isinstance(v, BlockArgument) and v.loc is not None:
        return v.loc
    return Location.unknown()


def _dominates(v: Value, user: Operation, ctx: VerifyContext) -> bool:
    if isinstance(v, OpResult):
        def_block = v.op.parent
        def_op: Operation | None = v.op
    elif isinstance(v, BlockArgument):
        def_block = v.block
        def_op = None
    else:
        return True  # fragment placeholders
    if def_block is None:
        return True
    # Walk up from the user until we reach an op whose block is in the same region as def_block.
    cur: Operation | None = user
    while cur is not None:
        blk = cur.parent
        if blk is None:
            return False
        if blk.parent is def_block.parent:
            break
        cur = blk.parent_op() if blk.parent is not None else None
    if cur is None:
        return False
    use_block = cur.parent
    assert use_block is not None
    if use_block is def_block:
        if def_op is None:
            return True
        if cur is def_op:
            return False  # an op cannot use its own result (except inside its regions: checked above)
        return def_block.ops.index(def_op) < def_block.ops.index(cur)
    region = def_block.parent
    if region is None:
        return False
    if region.parent is not None and region.parent.opdef is not None and "graph_region" in region.parent.opdef.traits:
        return True
    dom = _dominators(region, ctx)
    return id(def_block) in dom.get(id(use_block), set())


def _dominators(region: Region, ctx: VerifyContext) -> dict[int, set[int]]:
    key = id(region)
    cached = ctx._dom_cache.get(key)
    if cached is not None:
        return cached
    blocks = region.blocks
    ids = [id(b) for b in blocks]
    preds: dict[int, list[int]] = {i: [] for i in ids}
    for b in blocks:
        term = b.terminator
        if term is not None:
            for s in term.successors:
                if id(s) in preds:
                    preds[id(s)].append(id(b))
    all_ids = set(ids)
    dom: dict[int, set[int]] = {i: set(all_ids) for i in ids}
    if ids:
        dom[ids[0]] = {ids[0]}
    changed = True
    while changed:
        changed = False
        for i in ids[1:]:
            ps = preds[i]
            new = set.intersection(*(dom[p] for p in ps)) if ps else set()
            new = new | {i}
            if new != dom[i]:
                dom[i] = new
                changed = True
    ctx._dom_cache[key] = dom
    return dom


def block_of(v: Value) -> Block | None:
    if isinstance(v, OpResult):
        return v.op.parent
    if isinstance(v, BlockArgument):
        return v.block
    return None
