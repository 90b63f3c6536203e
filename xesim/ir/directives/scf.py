"""Whole-op directives for the scf dialect (MLIR ``SCF.cpp`` custom parsers/printers, as documented in the
SCF dialect docs): ``scf.for``, ``scf.if``, ``scf.while``, ``scf.parallel`` and the ``-> types`` list of
``scf.execute_region``.

Implicit terminators follow MLIR's ``SingleBlockImplicitTerminator``: after parsing a for/if body an
operand-less ``scf.yield`` is appended when the block has no terminator, and such a trailing yield is not
printed.  scf.parallel gets an implicit empty ``scf.reduce`` the same way (mlir-opt prints it back).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from xesim.diagnostics import Location
from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.core import Block, Operation, Region
from xesim.ir.directives.base import Directive, directive
from xesim.ir.syntax import BARE_END, NAME, WS, WSC

# ----------------------------------------------------------------------------------------- helpers


def ensure_terminator(p: Any, region: Region, name: str, loc: Any) -> None:
    """Give a single-block region an operand-less ``name`` terminator when it ends without one
    (MLIR ``ensureTerminator``); an empty region gets a block first."""
    if region.empty:
        region.add_block(Block())
    if len(region.blocks) != 1:
        return
    block = region.blocks[0]
    last = block.ops[-1] if block.ops else None
    if last is not None and last.opdef is not None and last.opdef.is_terminator:
        return
    od = p.registry.get(name)
    block.append(Operation(name, opdef=od, loc=loc, operand_segments=[0] * len(od.operands) if od else None))


def _is_implicit_yield(op: Operation | None) -> bool:
    return op is not None and op.name == "scf.yield" and not op.operands and not op.attributes


@contextmanager
def _without_implicit_yield(region: Region) -> Iterator[None]:
    """Temporarily drop a trailing operand-less scf.yield so the region prints without it."""
    block = region.blocks[0] if len(region.blocks) == 1 else None
    term = block.ops[-1] if block is not None and block.ops else None
    if block is not None and _is_implicit_yield(term):
        block.ops.pop()
        try:
            yield
        finally:
            block.ops.append(term)  # type: ignore[arg-type]
    else:
        yield


def region_text_eliding_yield(pr: Any, region: Region, print_entry_args: bool = False) -> str:
    with _without_implicit_yield(region):
        return pr.region_text(region, print_entry_args=print_entry_args)


def parse_arrow_types(p: Any) -> list[T.Type]:
    """After ``->``: one type, or a parenthesized (possibly empty) list (MLIR ``parseArrowTypeList``)."""
    if p.at_punct("("):
        p.next()
        if p.accept(")"):
            return []
        types = p.parse_comma_list(p.parse_type)
        p.expect(")")
        return types
    return [p.parse_type()]


def arrow_types_text(pr: Any, types: list[T.Type], parens: bool) -> str:
    """``-> t`` / ``-> (t1, t2)`` (MLIR ``printOptionalArrowTypeList``; ``parens`` forces them)."""
    inner = ", ".join(pr.type_text(t) for t in types)
    if parens or len(types) != 1 or isinstance(types[0], T.FunctionType):
        return f"-> ({inner})"
    return f"-> {inner}"


def _parse_value_name(p: Any) -> tuple[str, Any]:
    t = p.next()
    if t.kind != "percent":
        raise p.fail("expected SSA value name" + p._found(t), t.start)
    return t.text[1:], p.loc(t.start)


def _parse_paren_uses(p: Any) -> list:
    p.expect("(")
    if p.accept(")"):
        return []
    refs = p.parse_comma_list(p.parse_ssa_use_ref)
    p.expect(")")
    return refs


def _parse_assignment_list(p: Any) -> tuple[list[tuple[str, Any]], list]:
    """``(%a = %x, %b = %y)``: the region argument names and the initial value uses."""
    p.expect("(")
    names: list[tuple[str, Any]] = []
    refs: list = []
    if p.accept(")"):
        return names, refs
    while True:
        names.append(_parse_value_name(p))
        p.expect("=")
        refs.append(p.parse_ssa_use_ref())
        if not p.accept(","):
            break
    p.expect(")")
    return names, refs


def _assignment_text(pr: Any, args: list, inits: list) -> str:
    return "(" + ", ".join(f"{pr.value_name(a)} = {pr.value_name(v)}" for a, v in zip(args, inits, strict=False)) + ")"


def _names(pr: Any, values: list) -> str:
    return ", ".join(pr.value_name(v) for v in values)


def _region(op: Operation, idx: int) -> Region | None:
    return op.regions[idx] if idx < len(op.regions) else None


def _entry(region: Region | None) -> Block | None:
    return region.blocks[0] if region is not None and region.blocks else None


# ----------------------------------------------------------------------------------------- scf.for

# The common loop head, token for token as ForOp.parse reads it (see xesim.ir.fastformat for the pieces).
_FOR_HEAD = re.compile(
    WS + "(" + NAME + ")" + WS + "=" + WS + "(" + NAME + ")" + WS + "to" + BARE_END + WS + "(" + NAME + ")"
    + WS + "step" + BARE_END + WS + "(" + NAME + ")" + "(?!" + WSC + "(?:iter_args" + BARE_END + "|:))"
)


@directive("ForOp")
class ForOp(Directive):
    """``custom<ForOp>($lowerBound, $upperBound, $step, $initArgs, $results, $region, $unsignedCmp)``:
    ``[unsigned] %iv = %lb to %ub step %s [iter_args(%a = %init, ...) -> (types)] [: ivtype] {body}``."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        lb, ub, step, inits, results, region, unsigned = (a.name for a in args)
        names: list = []
        refs: list = []
        types: list[T.Type] = []
        iv_type: T.Type = T.INDEX
        m = _FOR_HEAD.match(p.source.text, p.lex.pos) if getattr(p, "fast", False) else None
        if m is not None:  # `%iv = %lb to %ub step %s` without iter_args or type: matched in one go
            src = p.source
            iv, iv_loc = m.group(1)[1:], Location(src, m.start(1))
            bounds = [(m.group(k)[1:], Location(src, m.start(k))) for k in (2, 3, 4)]
            p.lex.reset(m.end())
        else:
            if p.accept_keyword("unsigned"):
                st.attrs[unsigned] = A.UnitAttr()
            iv, iv_loc = _parse_value_name(p)
            p.expect("=")
            bounds = [p.parse_ssa_use_ref()]
            p.expect_keyword("to")
            bounds.append(p.parse_ssa_use_ref())
            p.expect_keyword("step")
            bounds.append(p.parse_ssa_use_ref())
            if p.accept_keyword("iter_args"):
                names, refs = _parse_assignment_list(p)
                p.expect("->", "after iter_args")
                types = parse_arrow_types(p)
                if len(types) != len(names):
                    raise p.fail("mismatch in number of loop-carried values and defined values", st.loc.offset)
            if p.accept(":"):
                iv_type = p.parse_type()
        for name, ref in ((lb, bounds[0]), (ub, bounds[1]), (step, bounds[2])):
            st.operand_refs[name] = [ref]
            st.types[name] = [iv_type]
        st.operand_refs[inits] = refs
        st.types[inits] = list(types)
        st.types[results] = list(types)
        entry = [(iv, iv_type, iv_loc)] + [(n, t, loc) for (n, loc), t in zip(names, types, strict=True)]
        body = p.parse_region(False, entry)
        ensure_terminator(p, body, "scf.yield", st.loc)
        st.regions[region] = [body]

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        lb, ub, step, inits_name = (op.operand(args[0].name), op.operand(args[1].name), op.operand(args[2].name),
                                    args[3].name)
        inits = op.operand_group(inits_name)
        body = op.regions[0]
        block = _entry(body)
        if args[6].name in op.attributes:
            fp.element("unsigned")
        iv = pr.value_name(block.args[0]) if block is not None and block.args else "%<missing iv>"
        head = f"{iv} = {pr.value_name(lb)} to {pr.value_name(ub)} step {pr.value_name(step)}"
        if inits:
            iter_args = block.args[1:] if block is not None else []
            head += " iter_args" + _assignment_text(pr, iter_args, inits)
            head += " " + arrow_types_text(pr, [r.type for r in op.results], parens=True)
        if not isinstance(lb.type, T.IndexType):
            head += " : " + pr.type_text(lb.type)
        fp.element(head)
        fp.element(region_text_eliding_yield(pr, body))


# ----------------------------------------------------------------------------------------- scf.if


@directive("IfOp")
class IfOp(Directive):
    """``custom<IfOp>($condition, $results, $thenRegion, $elseRegion)``:
    ``%cond [-> (types)] {then} [else {else}]``."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        cond, results, then_name, else_name = (a.name for a in args)
        st.operand_refs[cond] = [p.parse_ssa_use_ref()]
        st.types[cond] = [T.I1]
        st.types[results] = parse_arrow_types(p) if p.accept("->") else []
        then = p.parse_region(False)
        ensure_terminator(p, then, "scf.yield", st.loc)
        other = Region()
        if p.accept_keyword("else"):
            other = p.parse_region(False)
            ensure_terminator(p, other, "scf.yield", st.loc)
        st.regions[then_name] = [then]
        st.regions[else_name] = [other]

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        head = pr.value_name(op.operand(args[0].name))
        if op.results:
            head += " " + arrow_types_text(pr, [r.type for r in op.results], parens=True)
        fp.element(head)
        fp.element(region_text_eliding_yield(pr, op.regions[0]))
        other = _region(op, 1)
        if other is not None and not other.empty:
            fp.element("else")
            fp.element(region_text_eliding_yield(pr, other))


# ----------------------------------------------------------------------------------------- scf.while


def functional_type_text(pr: Any, inputs: list[T.Type], results: list[T.Type]) -> str:
    ins = "(" + ", ".join(pr.type_text(t) for t in inputs) + ")"
    if len(results) == 1 and not isinstance(results[0], T.FunctionType):
        outs = pr.type_text(results[0])
    else:
        outs = "(" + ", ".join(pr.type_text(t) for t in results) + ")"
    return f"{ins} -> {outs}"


@directive("WhileOp")
class WhileOp(Directive):
    """``custom<WhileOp>($inits, $results, $before, $after)``:
    ``[(%a = %init, ...)] : (in types) -> result types {before} do {after}``."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        inits, results, before_name, after_name = (a.name for a in args)
        names: list = []
        refs: list = []
        if p.at_punct("("):
            names, refs = _parse_assignment_list(p)
        p.expect(":")
        floc = p.loc()
        ft = p.parse_type()
        if not isinstance(ft, T.FunctionType):
            raise p.fail("expected function type", floc.offset)
        if len(ft.inputs) != len(refs):
            raise p.fail(f"expected as many input types as operands (expected {len(refs)} got {len(ft.inputs)})",
                         floc.offset)
        st.operand_refs[inits] = refs
        st.types[inits] = list(ft.inputs)
        st.types[results] = list(ft.results)
        entry = [(n, t, loc) for (n, loc), t in zip(names, ft.inputs, strict=True)] if names else None
        st.regions[before_name] = [p.parse_region(False, entry)]
        p.expect_keyword("do")
        st.regions[after_name] = [p.parse_region(False)]

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        inits = op.operand_group(args[0].name)
        before = op.regions[0]
        block = _entry(before)
        if inits:
            fp.element(_assignment_text(pr, block.args if block is not None else [], inits))
        fp.element(": " + functional_type_text(pr, [v.type for v in inits], [r.type for r in op.results]))
        fp.element(pr.region_text(before, print_entry_args=False))
        fp.element("do")
        fp.element(pr.region_text(op.regions[1], print_entry_args=True))


# ----------------------------------------------------------------------------------------- scf.parallel


@directive("ParallelOp")
class ParallelOp(Directive):
    """``custom<ParallelOp>($lowerBound, $upperBound, $step, $initVals, $results, $region)``:
    ``(%i, ...) = (lbs) to (ubs) step (steps) [init (vals)] [-> types] {body}``."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        lb, ub, step, inits, results, region = (a.name for a in args)
        p.expect("(")
        ivs = [] if p.at_punct(")") else p.parse_comma_list(lambda: _parse_value_name(p))
        p.expect(")")
        p.expect("=")
        st.operand_refs[lb] = _parse_paren_uses(p)
        p.expect_keyword("to")
        st.operand_refs[ub] = _parse_paren_uses(p)
        p.expect_keyword("step")
        st.operand_refs[step] = _parse_paren_uses(p)
        for name in (lb, ub, step):
            st.types[name] = [T.INDEX] * len(st.operand_refs[name])
        refs: list = []
        if p.accept_keyword("init"):
            refs = _parse_paren_uses(p)
        types = parse_arrow_types(p) if p.accept("->") else []
        if len(types) != len(refs):
            raise p.fail(f"{len(refs)} operands present, but expected {len(types)}", st.loc.offset)
        st.operand_refs[inits] = refs
        st.types[inits] = list(types)
        st.types[results] = list(types)
        body = p.parse_region(False, [(n, T.INDEX, loc) for n, loc in ivs])
        ensure_terminator(p, body, "scf.reduce", st.loc)
        st.regions[region] = [body]

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        block = _entry(op.regions[0])
        ivs = _names(pr, block.args) if block is not None else ""
        lbs, ubs, steps, inits = (op.operand_group(a.name) for a in args[:4])
        head = f"({ivs}) = ({_names(pr, lbs)}) to ({_names(pr, ubs)}) step ({_names(pr, steps)})"
        if inits:
            head += f" init ({_names(pr, inits)})"
        if op.results:
            head += " " + arrow_types_text(pr, [r.type for r in op.results], parens=False)
        fp.element(head)
        fp.element(pr.region_text(op.regions[0], print_entry_args=False))


# ----------------------------------------------------------------------------------------- -> types


@directive("ArrowTypeList")
class ArrowTypeList(Directive):
    """``custom<ArrowTypeList>($results)``: an optional ``-> t`` / ``-> (t1, t2)`` giving result types."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        st.types[args[0].name] = parse_arrow_types(p) if p.accept("->") else []

    def present(self, p: Any, st: Any, args: list) -> bool:
        return p.at_punct("->")

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        if op.results:
            fp.element(arrow_types_text(pr, [r.type for r in op.results], parens=False))

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return bool(op.results)
