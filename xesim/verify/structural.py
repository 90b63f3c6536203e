"""Structural verification (MLIR's Operation/Region/Block invariants) plus each op's named predicates.

Checks, for every op: operand and result counts and type constraints of its definition, required and
well-kinded attributes, region counts, block terminators (every block of a region that needs one ends in a
terminator allowed by the region's definition; terminators appear only last), ``HasParent`` rules, SSA
dominance (a use is dominated by its definition, through nested regions and across the blocks of a CFG
region), and then the op's ``verifiers`` predicates.  All problems are collected (several errors per file
are all reported); messages follow MLIR's ``'dialect.op' op <message>`` style.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

from xesim.diagnostics import Diagnostic, DiagnosticError, Location
from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.constraints import _predicates, check_constraint, describe_constraint
from xesim.ir.core import Block, BlockArgument, Module, Operation, OpResult, Region, Value
from xesim.ir.opdefs import OpDef, Registry, load_registry
from xesim.ir.types import Type
from xesim.verify.predicates import PREDICATES
from xesim.verify.settings import VerifySettings, default_settings


class VerifyContext:
    """Collects diagnostics; handed to every predicate."""

    def __init__(self, module: Module, registry: Registry, settings: VerifySettings | None = None) -> None:
        self.module = module
        self.registry = registry
        self.settings = settings or default_settings()  # xesim/verify/settings.py (spec/xetile.md §5 Q6, Q16)
        self.diagnostics: list[Diagnostic] = []
        self._dom_cache: dict[int, dict[int, set[int]]] = {}
        self._positions: dict[int, dict[int, int]] = {}  # id(block) -> {id(op): index in the block}
        # (id(block), id(region)) -> the op enclosing the block whose own block is in the region (or None)
        self._ancestors: dict[tuple[int, int], Operation | None] = {}

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


def verify_module(module: Module, registry: Registry | None = None, raise_on_error: bool = True,
                  settings: VerifySettings | None = None) -> VerifyContext:
    """Verify the whole module; raise DiagnosticError listing every error (unless ``raise_on_error``).
    ``settings``: the verifier's settings (default: the default target's, xesim/verify/settings.py)."""
    ctx = VerifyContext(module, registry or load_registry(), settings)
    gc_was_enabled = gc.isenabled()
    gc.disable()  # as in parse_source: no garbage cycles are made, and collections would rescan the IR
    try:
        if not module.fragment:
            _verify_tree(module.op, ctx)
        else:
            top_level = {id(o) for o in module.body.ops}
            for op in [o for top in module.body.ops for o in top.walk()]:
                _verify_op(op, ctx, check_parent=id(op) not in top_level)
    finally:
        if gc_was_enabled:
            gc.enable()
    if raise_on_error and ctx.errors:
        raise DiagnosticError(sorted(ctx.diagnostics, key=lambda d: d.loc.offset))
    return ctx


def _verify_tree(top: Operation, ctx: VerifyContext) -> None:
    """Verify ``top`` and every nested op in pre-order (the order of :meth:`Operation.walk`)."""
    stack = [top]
    pop, extend = stack.pop, stack.extend
    verify = _verify_op
    while stack:
        op = pop()
        verify(op, ctx)
        regions = op.regions
        if regions:
            nested = [o for r in regions for b in r.blocks for o in b.ops]
            nested.reverse()
            extend(nested)


class _Plan:
    """What verifying an op of one definition involves, precomputed once per definition: the non-trivial
    operand/result constraints (a fixed-arity op's common case), the attribute checks, and which of the
    region/parent checks and predicates apply."""

    __slots__ = ("n_operands", "operand_checks", "groups", "fixed_results", "n_results", "result_checks",
                 "one_result_group", "attr_checks", "no_regions", "parents", "predicates")

    def __init__(self, od: OpDef) -> None:
        self.n_operands = -1 if od.has_flexible_operands else len(od.operands)
        self.groups = tuple((o.name, not o.variadic and not o.optional, o.optional,
                             () if o.type.strip() == "Any" else _predicates(o.type), o.type, _passed(o.type))
                            for o in od.operands)
        self.operand_checks = tuple((i, _predicates(o.type), o.type, _passed(o.type))
                                    for i, o in enumerate(od.operands) if o.type.strip() != "Any")
        self.fixed_results = all(not (r.variadic or r.optional) for r in od.results)
        self.n_results = len(od.results)
        self.result_checks = tuple((i, _predicates(r.type), r.type, _passed(r.type))
                                   for i, r in enumerate(od.results) if r.type.strip() != "Any")
        # a single variadic/optional result group: (predicates, spec, passed) or () for "Any"
        r0 = od.results[0] if len(od.results) == 1 and not self.fixed_results else None
        self.one_result_group = None if r0 is None else (
            () if r0.type.strip() == "Any" else (_predicates(r0.type), r0.type, _passed(r0.type)))
        self.attr_checks = tuple((ad.name, not ad.optional and ad.default is None, ad.kind, _KIND_CHECK.get(ad.kind))
                                 for ad in od.attributes)
        self.no_regions = not od.regions
        self.parents = frozenset(od.parents)
        unknown = [name for name in od.verifiers if name not in PREDICATES]
        if unknown:
            from xesim.ir.opdefs import OpDefError

            raise OpDefError(f"{od.name}: unknown verifier predicate '{unknown[0]}' (xesim/verify/rules_*.py)")
        self.predicates = tuple(PREDICATES[name] for name in od.verifiers)


# Per constraint spelling: the types that satisfied it, by identity (types are immutable and the parser
# shares equal ones; each table keeps its types alive, so an id is not reused while it is in the table).
_PASSED: dict[str, dict[int, Type]] = {}


def _passed(spec: str) -> dict[int, Type]:
    return _PASSED.setdefault(spec, {})


def _satisfies(t: Type, preds: tuple, ok: dict[int, Type]) -> bool:
    """``check_constraint`` with the constraint's predicates and its table of types known to pass."""
    if ok.get(id(t)) is t:
        return True
    for pred in preds:
        if pred(t):
            if len(ok) > 1024:
                ok.clear()
            ok[id(t)] = t
            return True
    return False


def _plan(od: OpDef) -> _Plan:
    """The verification plan of ``od`` (kept on the definition object)."""
    try:
        return od._verify_plan  # type: ignore[attr-defined]
    except AttributeError:
        plan = od._verify_plan = _Plan(od)  # type: ignore[attr-defined]
        return plan


def _verify_op(op: Operation, ctx: VerifyContext, check_parent: bool = True) -> None:
    od = op.opdef
    if od is None:
        ctx.error(op, "has no definition")
        return
    try:
        fn = od._verifier  # type: ignore[attr-defined]
    except AttributeError:
        fn = od._verifier = _generate_verifier(od) if GENERATE else None  # type: ignore[attr-defined]
    if fn is not None:
        fn(op, ctx, check_parent)
        return
    _verify_op_with_plan(op, ctx, check_parent)


def _verify_op_with_plan(op: Operation, ctx: VerifyContext, check_parent: bool = True) -> None:
    """The reference form of the generated verifiers: the same checks driven by the op's :class:`_Plan`."""
    od = op.opdef
    assert od is not None
    try:
        plan = od._verify_plan  # type: ignore[attr-defined]
    except AttributeError:
        plan = _plan(od)
    diags = ctx.diagnostics
    n_before = len(diags)  # the structural checks below only add errors
    operands = op.operands
    if op.operand_segments is None and len(operands) == plan.n_operands:
        for idx, preds, spec, ok in plan.operand_checks:
            t = operands[idx].type
            if ok.get(id(t)) is not t and not _satisfies(t, preds, ok):
                ctx.error(op, f"operand #{idx} must be {describe_constraint(spec)}, but got '{t}'")
    elif op.operand_segments is not None:
        _check_segmented_operands(op, plan, ctx)
    else:
        _check_operands(op, ctx)
    results = op.results
    if plan.fixed_results:
        if len(results) != plan.n_results:
            ctx.error(op, f"requires {plan.n_results} results, but found {len(results)}")
        else:
            for idx, preds, spec, ok in plan.result_checks:
                t = results[idx].type
                if ok.get(id(t)) is not t and not _satisfies(t, preds, ok):
                    ctx.error(op, f"result #{idx} must be {describe_constraint(spec)}, but got '{t}'")
    elif plan.one_result_group is not None:
        if plan.one_result_group:
            preds, spec, ok = plan.one_result_group
            for v in results:
                t = v.type
                if ok.get(id(t)) is not t and not _satisfies(t, preds, ok):
                    ctx.error(op, f"result #{v.index} must be {describe_constraint(spec)}, but got '{t}'")
    else:
        _check_results(op, ctx)
    if plan.attr_checks:
        attrs = op.attributes
        for name, required, kind, check in plan.attr_checks:
            a = attrs.get(name)
            if a is None:
                if required:
                    ctx.error(op, f"requires attribute '{name}'")
                continue
            if check is not None and not check(a):
                ctx.error(op, f"attribute '{name}' failed to satisfy constraint: {kind} attribute (got {a})")
    if op.regions or not plan.no_regions:
        _check_regions(op, ctx)
    if check_parent and plan.parents:
        blk = op.parent
        region = blk.parent if blk is not None else None
        parent = region.parent if region is not None else None
        if parent is None or parent.name not in plan.parents:
            _check_parent(op, ctx)
    if operands:
        # inline fast paths of _check_dominance: results of earlier ops of the op's block and arguments of
        # that block dominate the op; anything else goes through the general check
        blk = op.parent
        pos = None
        for v in operands:
            cls = v.__class__
            if cls is OpResult:
                d = v.op  # type: ignore[attr-defined]
                if d.parent is blk and blk is not None and d is not op:
                    if pos is None:
                        pos = ctx._positions.get(id(blk))
                        if pos is None:
                            pos = ctx._positions[id(blk)] = {id(o): i for i, o in enumerate(blk.ops)}
                    if pos[id(d)] < pos[id(op)]:
                        continue
            elif cls is BlockArgument and v.block is blk and blk is not None:  # type: ignore[attr-defined]
                continue
            _check_dominance(op, ctx)
            break
    if len(diags) > n_before:
        return  # predicates assume a structurally valid op
    for pred in plan.predicates:
        try:
            pred(op, ctx)
        except DiagnosticError as exc:
            diags.extend(exc.diagnostics)


GENERATE = True  # definitions first verified while False use _verify_op_with_plan (equivalence tests)


def _generate_verifier(od: OpDef) -> Callable[[Operation, VerifyContext, bool], None] | None:
    """One Python function verifying ops of ``od``: :func:`_verify_op_with_plan` specialised to the
    definition (constraints, attribute kinds, region/parent checks and predicates resolved here), with the
    same checks, messages and order."""
    try:
        return _generate_verifier_code(od)
    except ValueError:
        return None


def _generate_verifier_code(od: OpDef) -> Callable[[Operation, VerifyContext, bool], None]:
    plan = _plan(od)
    env: dict[str, Any] = {
        "PLAN": plan, "SAT": _satisfies, "SEG": _check_segmented_operands, "OPS": _check_operands,
        "RES": _check_results, "REGIONS": _check_regions, "PARENT": _check_parent, "DOM": _check_dominance,
        "OpResult": OpResult, "BlockArgument": BlockArgument, "DiagnosticError": DiagnosticError,
    }
    b = ["diags = ctx.diagnostics", "n_before = len(diags)", "operands = op.operands",
         "segs = op.operand_segments"]

    def check(var: str, idx: str, entry: tuple, what: str, k: int) -> list[str]:
        preds, spec, ok = entry
        env[f"P{k}"], env[f"OK{k}"] = preds, ok
        desc = describe_constraint(spec).replace("{", "{{").replace("}", "}}")
        if '"' in desc or "\\" in desc:
            raise ValueError(desc)  # not expected in constraint descriptions; no generated verifier then
        return [f"t = {var}.type",
                f"if OK{k}.get(id(t)) is not t and not SAT(t, P{k}, OK{k}):",
                f"    ctx.error(op, f\"{what} #{idx} must be {desc}, but got '{{t}}'\")"]

    k = 0
    # operands given with groups (the common case of ops with variadic/optional operands), unrolled per group
    seg = [f"if len(segs) != {len(plan.groups)} or sum(segs) != len(operands):",
           "    ctx.error(op, \"operand groups do not match the op's definition\")", "else:", "    start = 0"]
    for j, (name, single, optional, preds, spec, ok) in enumerate(plan.groups):
        seg.append(f"    n = segs[{j}]")
        if single:
            seg += ["    if n != 1:", f"        ctx.error(op, \"requires exactly one '{name}' operand\")"]
        elif optional:
            seg += ["    if n > 1:", f"        ctx.error(op, \"requires at most one '{name}' operand\")"]
        if preds:
            seg.append("    else:" if single or optional else "    if True:")
            seg.append("        for i in range(start, start + n):")
            seg += ["            " + ln for ln in check("operands[i]", "{i}", (preds, spec, ok), "operand", k)]
            k += 1
        seg.append("    start += n")
    if plan.n_operands >= 0:
        b.append(f"if segs is None and len(operands) == {plan.n_operands}:")
        body = []
        for idx, preds, spec, ok in plan.operand_checks:
            body += check(f"operands[{idx}]", str(idx), (preds, spec, ok), "operand", k)
            k += 1
        b += ["    " + ln for ln in body or ["pass"]]
        b += ["elif segs is not None:"] + ["    " + ln for ln in seg] + ["else:", "    OPS(op, ctx)"]
    else:
        b += ["if segs is not None:"] + ["    " + ln for ln in seg] + ["else:", "    OPS(op, ctx)"]
    b.append("results = op.results")
    if plan.fixed_results:
        b.append(f"if len(results) != {plan.n_results}:")
        b.append(f"    ctx.error(op, f\"requires {plan.n_results} results, but found {{len(results)}}\")")
        body = []
        for idx, preds, spec, ok in plan.result_checks:
            body += check(f"results[{idx}]", str(idx), (preds, spec, ok), "result", k)
            k += 1
        if body:
            b.append("else:")
            b += ["    " + ln for ln in body]
    elif plan.one_result_group is not None:
        if plan.one_result_group:
            b.append("for v in results:")
            b += ["    " + ln for ln in check("v", "{v.index}", plan.one_result_group, "result", k)]
            k += 1
    else:
        b.append("RES(op, ctx)")
    if plan.attr_checks:
        b.append("attrs = op.attributes")
        for j, (name, required, kind, chk) in enumerate(plan.attr_checks):
            b.append(f"a = attrs.get({name!r})")
            b.append("if a is None:")
            b.append(f"    ctx.error(op, \"requires attribute '{name}'\")" if required else "    pass")
            if chk is not None:
                env[f"K{j}"] = chk
                b.append(f"elif not K{j}(a):")
                b.append(f"    ctx.error(op, f\"attribute '{name}' failed to satisfy constraint: {kind} attribute "
                         f"(got {{a}})\")")
    b.append("if op.regions:" if plan.no_regions else "if True:")
    b.append("    REGIONS(op, ctx)")
    if plan.parents:
        env["PARENTS"] = plan.parents
        b += ["if check_parent:", "    blk = op.parent", "    region = blk.parent if blk is not None else None",
              "    parent = region.parent if region is not None else None",
              "    if parent is None or parent.name not in PARENTS:", "        PARENT(op, ctx)"]
    b += ["if operands:", "    blk = op.parent", "    pos = None", "    for v in operands:",
          "        cls = v.__class__", "        if cls is OpResult:", "            d = v.op",
          "            if d.parent is blk and blk is not None and d is not op:",
          "                if pos is None:", "                    pos = ctx._positions.get(id(blk))",
          "                    if pos is None:",
          "                        pos = ctx._positions[id(blk)] = {id(o): i for i, o in enumerate(blk.ops)}",
          "                if pos[id(d)] < pos[id(op)]:", "                    continue",
          "        elif cls is BlockArgument and v.block is blk and blk is not None:", "            continue",
          "        DOM(op, ctx)", "        break"]
    if plan.predicates:
        b += ["if len(diags) > n_before:", "    return"]
        for j, pred in enumerate(plan.predicates):
            env[f"PRED{j}"] = pred
            b += ["try:", f"    PRED{j}(op, ctx)", "except DiagnosticError as exc:", "    diags.extend(exc.diagnostics)"]
    code = "def verify(op, ctx, check_parent):\n" + "\n".join("    " + ln for ln in b)
    exec(compile(code, f"<verifier of {od.name}>", "exec"), env)  # noqa: S102 - generated from the op definition
    fn = env["verify"]
    fn.source = code
    return fn


def _check_segmented_operands(op: Operation, plan: _Plan, ctx: VerifyContext) -> None:
    """:func:`_check_operands` for an op with operand groups, with the per-group data precomputed."""
    segs = op.operand_segments
    operands = op.operands
    groups = plan.groups
    if len(segs) != len(groups) or sum(segs) != len(operands):  # type: ignore[arg-type]
        ctx.error(op, "operand groups do not match the op's definition")
        return
    start = 0
    for (name, single, optional, preds, spec, ok), n in zip(groups, segs):  # type: ignore[arg-type]
        if single and n != 1:
            ctx.error(op, f"requires exactly one '{name}' operand")
        elif optional and n > 1:
            ctx.error(op, f"requires at most one '{name}' operand")
        elif preds:
            for i in range(start, start + n):
                t = operands[i].type
                if ok.get(id(t)) is not t and not _satisfies(t, preds, ok):
                    ctx.error(op, f"operand #{i} must be {describe_constraint(spec)}, but got '{t}'")
        start += n


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
            ops = block.ops
            for k in range(len(ops) - 1):
                iod = ops[k].opdef
                if iod is not None and "terminator" in iod.traits:
                    inner = ops[k]
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
    blk = op.parent
    pos = None
    for idx, v in enumerate(op.operands):
        # fast paths: a result of an earlier op of the same block, an argument of the op's own block
        cls = v.__class__
        if cls is OpResult:
            d = v.op  # type: ignore[attr-defined]
            if d.parent is blk and blk is not None and d is not op:
                if pos is None:
                    pos = ctx._positions.get(id(blk))
                    if pos is None:
                        pos = ctx._positions[id(blk)] = {id(o): i for i, o in enumerate(blk.ops)}
                if pos[id(d)] < pos[id(op)]:
                    continue
        elif cls is BlockArgument and v.block is blk and blk is not None:  # type: ignore[attr-defined]
            continue
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
    # Walk up from the user until we reach an op whose block is in the same region as def_block; remember the
    # answer for every block passed (uses nested 10,000 deep would otherwise cost a walk of their depth each).
    target = def_block.parent
    ancestors = ctx._ancestors
    passed = []
    cur: Operation | None = user
    while cur is not None:
        blk = cur.parent
        if blk is None:
            cur = None
            break
        if blk.parent is target:
            break
        key = (id(blk), id(target))
        if key in ancestors:
            cur = ancestors[key]
            break
        passed.append(key)
        cur = blk.parent_op() if blk.parent is not None else None
    for key in passed:
        ancestors[key] = cur
    if cur is None:
        return False
    use_block = cur.parent
    assert use_block is not None
    if use_block is def_block:
        if def_op is None:
            return True
        if cur is def_op:
            return False  # an op cannot use its own result (except inside its regions: checked above)
        pos = ctx._positions.get(id(def_block))
        if pos is None:
            pos = ctx._positions[id(def_block)] = {id(o): i for i, o in enumerate(def_block.ops)}
        return pos[id(def_op)] < pos[id(cur)]
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
