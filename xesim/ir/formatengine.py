"""Parsing and printing of ops through their declarative assembly formats (see :mod:`xesim.ir.format`).

Parsing fills an :class:`OpState` (unresolved operand names, types, attributes, regions, successors);
:func:`build_operation` then resolves operand types (printed, or computed by the op's ``infer`` rules as
MLIR's ``AllTypesMatch``/``TypesMatchWith`` constraints do) and creates the :class:`Operation`.
Several formats may be listed (current upstream syntax first, then legacy ones): they are tried in order
and the error of the attempt that got furthest is reported.  Printing always uses the first format that
can represent the op.
"""

from __future__ import annotations

import re
from typing import Any

from xesim.diagnostics import DiagnosticError, Location, error
from xesim.ir import attributes as A
from xesim.ir import format as F
from xesim.ir import types as T
from xesim.ir.constraints import INFER_FUNCTIONS, INFER_LITERALS
from xesim.ir.core import Block, Operation, Region, Value
from xesim.ir.directives import DIRECTIVES
from xesim.ir.enums import enum_cases, make_enum, normalize_enum  # noqa: F401
from xesim.ir.opdefs import AttrDef, OpDef, parse_infer


class OpState:
    """What a format parse has collected for one op."""

    __slots__ = ("od", "loc", "operand_refs", "types", "attrs", "regions", "successors",
                 "all_operand_types", "all_result_types", "region_args")

    def __init__(self, od: OpDef, loc: Location) -> None:
        self.od = od
        self.loc = loc
        self.operand_refs: dict[str, list[tuple[str, Location]]] = {}
        self.types: dict[str, list[T.Type]] = {}
        self.attrs: dict[str, A.Attribute] = {}
        self.regions: dict[str, list[Region]] = {}
        self.successors: dict[str, list[Block]] = {}
        self.all_operand_types: list[T.Type] | None = None
        self.all_result_types: list[T.Type] | None = None
        self.region_args: dict[str, list] = {}


# ================================================================================== parsing


def parse_with_formats(p: Any, od: OpDef, loc: Location) -> Operation:
    start = p.lex.pos
    best: DiagnosticError | None = None
    best_pos = -1
    for elements in od.formats:
        p.lex.reset(start)
        st = OpState(od, loc)
        try:
            parse_elements(p, st, elements)
            return build_operation(p, st)
        except DiagnosticError as exc:
            pos = exc.diagnostics[0].loc.offset if exc.diagnostics else 0
            if pos > best_pos:
                best, best_pos = exc, pos
            if len(od.formats) == 1 or _is_semantic(exc):
                raise
    assert best is not None
    raise best


def _is_semantic(exc: DiagnosticError) -> bool:
    msg = exc.diagnostics[0].message if exc.diagnostics else ""
    return msg.startswith(("redefinition", "use of value", "use of undeclared"))


def parse_elements(p: Any, st: OpState, elements: list) -> None:
    for e in elements:
        parse_element(p, st, e)


def parse_element(p: Any, st: OpState, e: Any) -> None:
    od = st.od
    if isinstance(e, F.Literal):
        _parse_literal(p, e.text)
    elif isinstance(e, F.Ref):
        if e.kind == "operand":
            d = next(o for o in od.operands if o.name == e.name)
            if d.variadic:
                refs: list = []
                if p.peek().kind == "percent":
                    refs = p.parse_comma_list(p.parse_ssa_use_ref)
                st.operand_refs[e.name] = refs
            elif d.optional:
                st.operand_refs[e.name] = [p.parse_ssa_use_ref()] if p.peek().kind == "percent" else []
            else:
                st.operand_refs[e.name] = [p.parse_ssa_use_ref()]
        elif e.kind == "attribute":
            st.attrs[e.name] = parse_attr_of_kind(p, od.attr_by_name[e.name])
        elif e.kind == "region":
            rd = next(r for r in od.regions if r.name == e.name)
            if rd.variadic:
                regions = []
                if p.at_punct("{"):
                    regions = p.parse_comma_list(lambda: p.parse_region("isolated_from_above" in od.traits))
                st.regions[e.name] = regions
            else:
                st.regions[e.name] = [p.parse_region("isolated_from_above" in od.traits,
                                                     st.region_args.get(e.name))]
        elif e.kind == "successor":
            st.successors[e.name] = [p.parse_successor_ref()]
        else:
            raise p.fail(f"format element ${e.name} cannot be parsed")
    elif isinstance(e, F.TypeOf):
        _parse_type_directive(p, st, e.target)
    elif isinstance(e, F.FunctionalType):
        floc = p.loc()
        ft = p.parse_type()
        if not isinstance(ft, T.FunctionType):
            raise error(floc, "expected function type")
        _assign_types(st, e.inputs, list(ft.inputs))
        _assign_types(st, e.results, list(ft.results))
    elif isinstance(e, F.AttrDict):
        if e.with_keyword:
            if not p.accept_keyword("attributes"):
                return
        if p.at_punct("{"):
            _merge_attrs(p, st, p.parse_attr_dict_entries())
    elif isinstance(e, F.PropDict):
        if p.at_punct("<"):
            save = p.lex.pos
            p.next()
            if p.at_punct("{"):
                _merge_attrs(p, st, p.parse_attr_dict_entries())
                p.expect(">", "to close properties")
            else:
                p.lex.reset(save)
    elif isinstance(e, F.Custom):
        DIRECTIVES[e.name].parse(p, st, e.args)
    elif isinstance(e, F.Optional):
        if _optional_present(p, st, e):
            parse_elements(p, st, e.elements)
        else:
            parse_elements(p, st, e.else_elements)


def _merge_attrs(p: Any, st: OpState, entries: dict[str, A.Attribute]) -> None:
    for k, v in entries.items():
        if k in st.attrs:
            raise error(st.loc, f"attribute '{k}' occurs twice")
        ad = st.od.attr_by_name.get(k)
        if ad is not None and ad.enum is not None:
            v = normalize_enum(p, st.od, ad, v, st.loc)
        st.attrs[k] = v


def _parse_literal(p: Any, text: str) -> None:
    if text.strip() == "":  # `` `` and `` ` ` `` only steer printing
        return
    if re.match(r"[A-Za-z_]", text):
        p.expect_keyword(text)
    else:
        p.expect(text)


def _literal_present(p: Any, text: str) -> bool:
    if re.match(r"[A-Za-z_]", text):
        return p.at_keyword(text)
    return p.at_punct(text)


def _optional_present(p: Any, st: OpState, group: F.Optional) -> bool:
    first = next((x for x in group.elements if not (isinstance(x, F.Literal) and x.text.strip() == "")), None)
    if first is None:
        return False
    if isinstance(first, F.Literal):
        return _literal_present(p, first.text)
    if isinstance(first, F.Ref):
        if first.kind == "operand":
            return p.peek().kind == "percent"
        if first.kind == "region":
            return p.at_punct("{")
        if first.kind == "successor":
            return p.peek().kind == "caret"
        if first.kind == "attribute":
            return attr_present(p, st.od.attr_by_name[first.name])
    if isinstance(first, F.TypeOf):
        save = p.lex.pos
        ty = p.parse_optional_type()
        p.lex.reset(save)
        return ty is not None
    if isinstance(first, F.Custom):
        return DIRECTIVES[first.name].present(p, st, first.args)
    if isinstance(first, F.AttrDict):
        return p.at_punct("{")
    return False


def _parse_type_directive(p: Any, st: OpState, target: str) -> None:
    od = st.od
    if target == "operands":
        st.all_operand_types = _parse_type_list(p)
        return
    if target == "results":
        st.all_result_types = _parse_type_list(p)
        return
    kind = od.kind_of(target)
    d = next(o for o in (od.operands if kind == "operand" else od.results) if o.name == target)
    if d.variadic:
        st.types[target] = _parse_type_list(p)
    elif d.optional:
        ty = p.parse_optional_type()
        st.types[target] = [ty] if ty is not None else []
    else:
        st.types[target] = [p.parse_type()]


def _parse_type_list(p: Any) -> list[T.Type]:
    ty = p.parse_optional_type()
    if ty is None:
        return []
    out = [ty]
    while p.accept(","):
        out.append(p.parse_type())
    return out


def _assign_types(st: OpState, target: str, types: list[T.Type]) -> None:
    if target == "operands":
        st.all_operand_types = types
    elif target == "results":
        st.all_result_types = types
    else:
        st.types[target] = types


# ------------------------------------------------------------------------------ attribute kinds

_KIND_TYPES = {"i64": T.I64, "int": T.I64, "i32": T.I32, "i8": T.I8, "index": T.INDEX}


def attr_present(p: Any, ad: AttrDef) -> bool:
    t = p.peek()
    if ad.enum is not None:
        enum = p.registry.enums[ad.enum]
        if enum.storage == "flags" or _enum_style(enum) == "angle":
            return p.at_punct("<")
        return t.kind == "bare" and t.text in enum.cases
    k = ad.kind
    if k in _KIND_TYPES:
        return t.kind == "int" or t.is_punct("-")
    if k == "unit":
        return p.at_keyword(ad.name)
    if k in ("symbol", "symbol_ref"):
        return t.kind == "at"
    if k == "string":
        return t.kind == "string"
    if k in ("dense_i64", "dense_i32", "dense_bool", "array"):
        return t.is_punct("[")
    if k == "bool":
        return t.kind == "bare" and t.text in ("true", "false")
    if k in ("type", "function_type"):
        save = p.lex.pos
        ty = p.parse_optional_type()
        p.lex.reset(save)
        return ty is not None
    save = p.lex.pos
    try:
        a = p.parse_optional_attribute()
    except DiagnosticError:
        a = None
    p.lex.reset(save)
    return a is not None


def _enum_style(enum: Any) -> str:
    return "angle" if enum.storage in ("attr_angle", "flags") else "bare"


def parse_attr_of_kind(p: Any, ad: AttrDef) -> A.Attribute:
    k = ad.kind
    if ad.enum is not None:
        enum = p.registry.enums[ad.enum]
        if _enum_style(enum) == "angle":
            p.expect("<")
            cases = []
            while True:
                t = p.next()
                if t.kind != "bare" or t.text not in enum.cases:
                    raise p.fail(f"expected one of {enum.cases} for {ad.name}" + p._found(t), t.start)
                cases.append(t.text)
                if not p.accept(","):
                    break
            p.expect(">")
            return make_enum(enum, cases)
        t = p.next()
        if t.kind != "bare" or t.text not in enum.cases:
            raise p.fail(f"expected {ad.name} to be one of: {', '.join(enum.cases)}" + p._found(t), t.start)
        return make_enum(enum, [t.text])
    if k in _KIND_TYPES:
        start = p.peek().start
        v = p.parse_integer()
        ty = _KIND_TYPES[k]
        if p.at_punct(":") and k == "int":
            p.next()
            ty = p.parse_type()
        return A.IntegerAttr(v if ty != T.I8 else _wrap(v, 8), ty) if start is not None else None  # type: ignore[return-value]
    if k == "unit":
        p.expect_keyword(ad.name)
        return A.UnitAttr()
    if k == "symbol":
        t = p.next()
        if t.kind != "at":
            raise p.fail("expected valid '@'-identifier for symbol name" + p._found(t), t.start)
        from xesim.ir.lexer import unescape_string

        body = t.text[1:]
        return A.StringAttr(unescape_string(body) if body.startswith('"') else body)
    if k == "symbol_ref":
        if p.peek().kind != "at":
            raise p.fail("expected symbol reference" + p._found(p.peek()))
        return p._parse_symbol_ref()
    if k == "string":
        t = p.next()
        if t.kind != "string":
            raise p.fail("expected string" + p._found(t), t.start)
        from xesim.ir.lexer import unescape_string

        return A.StringAttr(unescape_string(t.text))
    if k in ("dense_i64", "dense_i32", "dense_bool"):
        if p.at_keyword("array"):
            return p.parse_attribute()
        et = {"dense_i64": T.I64, "dense_i32": T.I32, "dense_bool": T.I1}[k]
        p.expect("[")
        vals: list[int] = []
        if not p.at_punct("]"):
            vals = p.parse_comma_list(lambda: p._parse_number_or_bool(et))
        p.expect("]")
        return A.DenseArrayAttr(et, tuple(vals))
    if k == "bool":
        t = p.next()
        if not (t.kind == "bare" and t.text in ("true", "false")):
            raise p.fail("expected 'true' or 'false'" + p._found(t), t.start)
        return A.BoolAttr(t.text == "true")
    if k in ("type", "function_type"):
        return A.TypeAttr(p.parse_type())
    return p.parse_attribute()


def _wrap(v: int, width: int) -> int:
    v &= (1 << width) - 1
    return v - (1 << width) if v >= 1 << (width - 1) else v


# ------------------------------------------------------------------------------ building


def build_operation(
    p: Any,
    st: OpState,
    operands: list[Value] | None = None,
    result_types: list[T.Type] | None = None,
    regions: list[Region] | None = None,
    successors: list[Block] | None = None,
) -> Operation:
    """Create the op from a parsed state (custom form), or from explicit lists (generic form)."""
    if operands is None:
        return _build_from_state(p, st)
    od = st.od
    segments: list[int] | None = None
    seg_attr = st.attrs.pop("operandSegmentSizes", None) or st.attrs.pop("operand_segment_sizes", None)
    if seg_attr is not None:
        segments = A.int_list(seg_attr)
        if segments is None or sum(segments) != len(operands) or len(segments) != len(od.operands):
            raise error(st.loc, "operandSegmentSizes does not match the operands")
    else:
        segments = _split_generic_operands(od, len(operands), st.loc)
    for ad in od.attributes:
        if ad.enum is not None and ad.name in st.attrs:
            st.attrs[ad.name] = normalize_enum(p, od, ad, st.attrs[ad.name], st.loc)
    op = Operation(
        od.name,
        operands=operands,
        result_types=result_types,
        attributes=st.attrs,
        regions=regions,
        successors=successors,
        loc=st.loc,
        opdef=od,
        operand_segments=segments,
    )
    return op


class _BuildPlan:
    """Per-definition data of :func:`_build_from_state`, computed once."""

    __slots__ = ("operands", "operand_names", "results", "inferable", "infer", "regions", "successors",
                 "flexible")

    def __init__(self, od: OpDef) -> None:
        self.operands = tuple((o.name, o.variadic or o.optional) for o in od.operands)
        self.operand_names = frozenset(o.name for o in od.operands)
        self.results = tuple((r.name, r.variadic or r.optional) for r in od.results)
        self.inferable = tuple(n for n in [o.name for o in od.operands] + od.result_names if n in od.infer)
        self.infer = {n: parse_infer(od.infer[n]) for n in self.inferable}
        self.regions = tuple(r.name for r in od.regions)
        self.successors = tuple(od.successors)
        self.flexible = od.has_flexible_operands


def _build_plan(od: OpDef) -> _BuildPlan:
    """The build plan of ``od`` (kept on the definition object)."""
    try:
        return od._build_plan  # type: ignore[attr-defined]
    except AttributeError:
        plan = od._build_plan = _BuildPlan(od)  # type: ignore[attr-defined]
        return plan


def _known_from_lists(st: OpState, od: OpDef, known: dict[str, list[T.Type]]) -> None:
    """Operand/result types given as whole lists (``type(operands)``, ``type(results)``, functional types)."""
    counts = {o.name: len(st.operand_refs.get(o.name, [])) for o in od.operands}
    if st.all_operand_types is not None:
        total = sum(counts.values())
        if len(st.all_operand_types) != total:
            raise error(st.loc, f"{total} operands present, but expected {len(st.all_operand_types)}")
        i = 0
        for o in od.operands:
            known[o.name] = st.all_operand_types[i : i + counts[o.name]]
            i += counts[o.name]
    if st.all_result_types is not None:
        if len(od.results) == 1:
            known[od.results[0].name] = st.all_result_types
        else:
            fixed = [r for r in od.results if not (r.variadic or r.optional)]
            if len(fixed) == len(od.results):
                if len(st.all_result_types) != len(od.results):
                    raise error(st.loc, f"expected {len(od.results)} result types")
                for r, t in zip(od.results, st.all_result_types, strict=True):
                    known[r.name] = [t]
            else:
                known[od.results[-1].name] = st.all_result_types


def _build_from_state(p: Any, st: OpState) -> Operation:
    """The custom-form half of :func:`build_operation`: resolve operand types (printed, or inferred to a fixed
    point by the op's ``infer`` rules), resolve the operands and create the op."""
    od = st.od
    try:
        bp = od._build_plan  # type: ignore[attr-defined]
    except AttributeError:
        bp = _build_plan(od)
    refs_map = st.operand_refs
    known: dict[str, list[T.Type]]
    if st.all_operand_types is not None or st.all_result_types is not None:
        known = {}
        _known_from_lists(st, od, known)
        known.update(st.types)
    elif bp.inferable:
        known = dict(st.types)
    else:
        known = st.types  # only read below
    if bp.inferable:
        pending = [n for n in bp.inferable if n not in known]
        progress = True
        while pending and progress:
            progress = False
            for name in list(pending):
                fn, args = bp.infer[name]
                if fn == "lit":
                    res: list[T.Type] | None = [INFER_LITERALS[args[0]]]
                elif fn == "ref":
                    res = known.get(args[0])
                else:
                    argtypes = []
                    for a in args:
                        v = known.get(a)
                        if not v:
                            break
                        argtypes.append(v[0])
                    res = [INFER_FUNCTIONS[fn](*argtypes)] if len(argtypes) == len(args) else None
                if res is not None:
                    if name in bp.operand_names and len(res) == 1:
                        n = len(refs_map.get(name, []))
                        if n != 1:
                            res = res * n
                    known[name] = res
                    pending.remove(name)
                    progress = True
    operands: list[Value] = []
    segments: list[int] = []
    resolve = p.resolve_value
    all_single = True
    for name, flexible in bp.operands:
        refs = refs_map.get(name) or ()
        n = len(refs)
        tys = known.get(name)
        if tys is None:
            if n:
                raise error(st.loc, f"could not infer the type of operand '{name}' of '{od.name}'")
            tys = []
        if len(tys) != n:
            raise error(
                refs[0][1] if refs else st.loc,
                f"{n} operands present, but expected {len(tys)}" if flexible
                else f"expected {len(tys)} types for operand '{name}', got {n} operands",
            )
        if n == 1:
            vname, rloc = refs[0]
            operands.append(resolve(vname, tys[0], rloc))
        else:
            all_single = False
            for (vname, rloc), ty in zip(refs, tys):
                operands.append(resolve(vname, ty, rloc))
        segments.append(n)
    result_types: list[T.Type] = []
    for name, flexible in bp.results:
        tys = known.get(name)
        if tys is None:
            if flexible:
                continue
            raise error(st.loc, f"could not infer the type of result '{name}' of '{od.name}'")
        result_types.extend(tys)
    regions: list[Region] = []
    if bp.regions:
        for rn in bp.regions:
            regions.extend(st.regions.get(rn, []))
    successors: list[Block] = []
    if bp.successors:
        for sn in bp.successors:
            successors.extend(st.successors.get(sn, []))
    return Operation.build(od.name, operands, result_types, st.attrs, regions, successors, st.loc, od,
                           None if all_single and not bp.flexible else segments)


def _split_generic_operands(od: OpDef, n: int, loc: Location) -> list[int] | None:
    flexible = [i for i, o in enumerate(od.operands) if o.variadic or o.optional]
    fixed = len(od.operands) - len(flexible)
    if not flexible:
        if n != fixed:
            raise error(loc, f"'{od.name}' op requires {fixed} operands, but found {n}")
        return None
    if len(flexible) > 1:
        raise error(loc, f"'{od.name}' op has several variadic operand groups: operandSegmentSizes is required")
    extra = n - fixed
    if extra < 0:
        raise error(loc, f"'{od.name}' op requires at least {fixed} operands, but found {n}")
    return [extra if i == flexible[0] else 1 for i in range(len(od.operands))]


# ================================================================================== printing


class FormatPrinter:
    """Accumulates printed pieces with MLIR's spacing rules (OpFormatGen ``shouldEmitSpaceBefore``)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.should_space = True
        self.last_punct = False

    def literal(self, text: str) -> None:
        if text == "":
            self.should_space = False
            self.last_punct = True
            return
        if text == " ":  # `` ` ` ``: an explicit space (MLIR genSpacePrinter)
            self.parts.append(" ")
            self.should_space = False
            self.last_punct = False
            return
        if self.should_space and _space_before(text, self.last_punct):
            self.parts.append(" ")
        self.parts.append(text)
        self.should_space = not (len(text) == 1 and text in "<({[")
        self.last_punct = not re.match(r"[A-Za-z_]", text)

    def element(self, text: str) -> None:
        if text == "":
            return
        if self.should_space:
            self.parts.append(" ")
        self.parts.append(text)
        self.should_space = True
        self.last_punct = False

    def raw(self, text: str) -> None:
        self.parts.append(text)

    def text(self) -> str:
        return "".join(self.parts)


def _space_before(value: str, last_punct: bool) -> bool:
    if len(value) != 1 and value != "->":
        return True
    if last_punct:
        return value[0] not in ">)}],"
    return value[0] not in "<>(){}[],"


def can_print_with(op: Operation, elements: list, pr: Any) -> bool:
    for e in elements:
        if isinstance(e, F.Custom) and not DIRECTIVES[e.name].can_print(pr, op, e.args):
            return False
    return True


def print_with_format(pr: Any, op: Operation, elements: list, fp: FormatPrinter, printed: set[str]) -> None:
    for e in elements:
        _print_element(pr, op, e, fp, printed)


def _group_present(pr: Any, op: Operation, group: F.Optional) -> bool:
    a = group.anchor
    od = op.opdef
    if isinstance(a, F.Ref):
        if a.kind == "operand":
            return bool(op.operand_group(a.name))
        if a.kind == "attribute":
            v = op.attributes.get(a.name)
            ad = od.attr_by_name[a.name]
            return v is not None and (not is_default(ad, v) or getattr(pr, "keep_defaults", False))
        if a.kind == "region":
            idx = od.region_names.index(a.name)
            return idx < len(op.regions) and not op.regions[idx].empty
        if a.kind == "successor":
            return bool(op.successors)
        if a.kind == "result":
            return bool(op.results)
    if isinstance(a, F.TypeOf):
        if a.target in od.operand_names:
            return bool(op.operand_group(a.target))
        if a.target in od.result_names:
            return bool(result_group(op, a.target))
        return True
    if isinstance(a, F.Custom):
        return DIRECTIVES[a.name].print_present(pr, op, a.args)
    return True


def is_default(ad: AttrDef, v: A.Attribute) -> bool:
    if ad.default is None:
        return False
    d = ad.default
    if isinstance(v, A.IntegerAttr) and isinstance(d, bool):
        return bool(v.value) == d
    if isinstance(v, A.IntegerAttr) and isinstance(d, int):
        return v.value == d
    s = str(v)
    return s == str(d) or (isinstance(v, A.DialectAttr) and s.endswith(f"<{d}>"))


def result_group(op: Operation, name: str) -> list:
    od = op.opdef
    names = od.result_names
    if len(names) == 1:
        return list(op.results)
    idx = names.index(name)
    fixed = all(not (r.variadic or r.optional) for r in od.results)
    if fixed:
        return [op.results[idx]]
    # only the last result group may be variadic
    if idx < len(names) - 1:
        return [op.results[idx]]
    return list(op.results[idx:])


def _print_element(pr: Any, op: Operation, e: Any, fp: FormatPrinter, printed: set[str]) -> None:
    od = op.opdef
    if isinstance(e, F.Literal):
        fp.literal(e.text)
    elif isinstance(e, F.Ref):
        if e.kind == "operand":
            fp.element(", ".join(pr.value_name(v) for v in op.operand_group(e.name)))
        elif e.kind == "attribute":
            printed.add(e.name)
            v = op.attributes.get(e.name)
            if v is not None:
                fp.element(format_attr_of_kind(pr, od.attr_by_name[e.name], v))
        elif e.kind == "region":
            idx = od.region_names.index(e.name)
            rd = od.regions[idx]
            regions = op.regions[idx:] if rd.variadic else op.regions[idx : idx + 1]
            fp.element(", ".join(pr.region_text(r) for r in regions))
        elif e.kind == "successor":
            idx = od.successors.index(e.name)
            fp.element(pr.block_name(op.successors[idx]))
    elif isinstance(e, F.TypeOf):
        if e.target == "operands":
            fp.element(", ".join(pr.type_text(v.type) for v in op.operands))
        elif e.target == "results":
            fp.element(", ".join(pr.type_text(r.type) for r in op.results))
        elif e.target in od.operand_names:
            fp.element(", ".join(pr.type_text(v.type) for v in op.operand_group(e.target)))
        else:
            fp.element(", ".join(pr.type_text(r.type) for r in result_group(op, e.target)))
    elif isinstance(e, F.FunctionalType):
        ins = _types_of(pr, op, e.inputs)
        outs = _types_of(pr, op, e.results)
        fp.element(pr.type_text(T.FunctionType(tuple(ins), tuple(outs))))
    elif isinstance(e, F.AttrDict):
        # As in MLIR, attr-dict elides every attribute the format mentions, even ones printed after it
        # (`attr-dict $value` of arith.constant / index.constant).
        printed.update(n for n in F.referenced_names(_top(od, op)) if od.kind_of(n) == "attribute")
        rest = pr.remaining_attrs(op, printed, props_separately=F.has_element(_top(od, op), F.PropDict))
        if rest:
            if e.with_keyword:
                fp.element("attributes")
            fp.element(pr.attr_dict_text(rest))
    elif isinstance(e, F.PropDict):
        props = pr.remaining_props(op, printed)
        if props:
            fp.element("<" + pr.attr_dict_text(props) + ">")
        printed.update(k for k, _ in props)
    elif isinstance(e, F.Custom):
        for a in e.args:
            if isinstance(a, F.Ref) and a.kind == "attribute":
                printed.add(a.name)
        DIRECTIVES[e.name].print(pr, op, e.args, fp)
        # MLIR (OpFormatGen genElementPrinter) emits a space before the element after a custom directive,
        # whether or not the directive printed anything (`%t <{packed}>`, `%src : memref<...>`).
        fp.should_space = True
        fp.last_punct = False
    elif isinstance(e, F.Optional):
        if _group_present(pr, op, e):
            print_with_format(pr, op, e.elements, fp, printed)
        else:
            _mark_attrs(e.elements, printed)
            print_with_format(pr, op, e.else_elements, fp, printed)


def _mark_attrs(elements: list, printed: set[str]) -> None:
    for e in elements:
        if isinstance(e, F.Ref) and e.kind == "attribute":
            printed.add(e.name)
        elif isinstance(e, F.Optional):
            _mark_attrs(e.elements, printed)


def _top(od: OpDef, op: Operation) -> list:
    return getattr(op, "_print_format", None) or od.formats[0]


def _types_of(pr: Any, op: Operation, target: str) -> list[T.Type]:
    if target == "operands":
        return [v.type for v in op.operands]
    if target == "results":
        return [r.type for r in op.results]
    if target in op.opdef.operand_names:
        return [v.type for v in op.operand_group(target)]
    return [r.type for r in result_group(op, target)]


def format_attr_of_kind(pr: Any, ad: AttrDef, v: A.Attribute) -> str:
    if ad.enum is not None:
        enum = pr.registry.enums[ad.enum]
        cases = enum_cases(enum, v)
        if cases is None:
            return pr.attr_text(v)
        if _enum_style(enum) == "angle":
            return "<" + ", ".join(cases) + ">"
        return cases[0]
    k = ad.kind
    if k in _KIND_TYPES and isinstance(v, A.IntegerAttr):
        if k == "int" and v.type != T.I64:
            return f"{v.value} : {v.type}"
        return str(v.value)
    if k == "unit":
        return ad.name
    if k == "symbol" and isinstance(v, A.StringAttr):
        return A.format_symbol(v.value)
    if k in ("dense_i64", "dense_i32", "dense_bool") and isinstance(v, A.DenseArrayAttr):
        if k == "dense_bool":
            return "[" + ", ".join("true" if x else "false" for x in v.values) + "]"
        return "[" + ", ".join(str(x) for x in v.values) + "]"
    if k == "bool" and isinstance(v, A.IntegerAttr):
        return "true" if v.value else "false"
    if k in ("type", "function_type") and isinstance(v, A.TypeAttr):
        return pr.type_text(v.type)
    return pr.attr_text(v)
