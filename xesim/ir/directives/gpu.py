"""Custom directives of the gpu dialect (MLIR ``GPUDialect.cpp`` custom parsers/printers, as documented in
the GPU dialect docs): async dependency lists, the launch grid of ``gpu.launch_func`` and its kernel
arguments, and ``gpu.alloc``'s ``host_shared`` keyword.  ``gpu.func`` uses ``FunctionOp`` (func.py)."""

from __future__ import annotations

from typing import Any

from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.directives.base import Directive, directive

TOKEN = T.AsyncTokenType()


@directive("AsyncDependencies")
class AsyncDependencies(Directive):
    """``custom<AsyncDependencies>($asyncToken, $asyncDependencies)``: ``[async] [[%t1, %t2]]``.  ``async``
    gives the op its ``!gpu.async.token`` result; the bracketed tokens are its dependencies."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        token, deps = args[0].name, args[1].name
        st.types[token] = [TOKEN] if p.accept_keyword("async") else []
        refs: list = []
        if p.at_punct("["):
            p.next()
            if not p.at_punct("]"):
                refs = p.parse_comma_list(p.parse_ssa_use_ref)
            p.expect("]")
        st.operand_refs[deps] = refs
        st.types[deps] = [TOKEN] * len(refs)

    def present(self, p: Any, st: Any, args: list) -> bool:
        return p.at_keyword("async") or p.at_punct("[")

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        if any(isinstance(r.type, T.AsyncTokenType) for r in op.results):
            fp.element("async")
        deps = op.operand_group(args[1].name)
        if deps:
            fp.element("[" + ", ".join(pr.value_name(v) for v in deps) + "]")

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return bool(op.operand_group(args[1].name)) or any(isinstance(r.type, T.AsyncTokenType) for r in op.results)


@directive("LaunchDims")
class LaunchDims(Directive):
    """``custom<LaunchDims>($x, $y, $z)``: ``(%x, %y, %z)`` (types come from ``LaunchDimType``)."""

    def parse(self, p: Any, st: Any, args: list) -> None:
        p.expect("(")
        for i, a in enumerate(args):
            if i:
                p.expect(",")
            st.operand_refs[a.name] = [p.parse_ssa_use_ref()]
        p.expect(")")

    def present(self, p: Any, st: Any, args: list) -> bool:
        return p.at_punct("(")

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        vals = [op.operand(a.name) for a in args]
        fp.element("(" + ", ".join(pr.value_name(v) for v in vals if v is not None) + ")")

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return bool(op.operand_group(args[0].name))


@directive("LaunchDimType")
class LaunchDimType(Directive):
    """``custom<LaunchDimType>(grid..., block..., cluster...)``: an optional ``: type`` giving the type of
    every launch dimension (index when absent)."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        ty: T.Type = T.INDEX
        if p.accept(":"):
            ty = p.parse_type()
        for a in args:
            st.types[a.name] = [ty] * len(st.operand_refs.get(a.name, []))

    def present(self, p: Any, st: Any, args: list) -> bool:
        return p.at_punct(":")

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        v = op.operand(args[0].name)
        if v is not None and not isinstance(v.type, T.IndexType):
            fp.element(": " + pr.type_text(v.type))


@directive("LaunchFuncOperands")
class LaunchFuncOperands(Directive):
    """``custom<LaunchFuncOperands>($kernelOperands)``: ``args(%a : type, ...)`` (absent when empty)."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        name = args[0].name
        refs: list = []
        types: list[T.Type] = []
        if p.accept_keyword("args"):
            p.expect("(")
            if not p.at_punct(")"):
                while True:
                    refs.append(p.parse_ssa_use_ref())
                    p.expect(":")
                    types.append(p.parse_type())
                    if not p.accept(","):
                        break
            p.expect(")")
        st.operand_refs[name] = refs
        st.types[name] = types

    def present(self, p: Any, st: Any, args: list) -> bool:
        return p.at_keyword("args")

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        vals = op.operand_group(args[0].name)
        if vals:
            fp.element("args(" + ", ".join(f"{pr.value_name(v)} : {pr.type_text(v.type)}" for v in vals) + ")")

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return bool(op.operand_group(args[0].name))


@directive("HostShared")
class HostShared(Directive):
    """``custom<HostShared>($hostShared)``: the ``host_shared`` keyword of gpu.alloc (unit attribute)."""

    def parse(self, p: Any, st: Any, args: list) -> None:
        if p.accept_keyword("host_shared"):
            st.attrs[args[0].name] = A.UnitAttr()

    def present(self, p: Any, st: Any, args: list) -> bool:
        return p.at_keyword("host_shared")

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        if args[0].name in op.attributes:
            fp.element("host_shared")

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return args[0].name in op.attributes


@directive("PrintfArgs")
class PrintfArgs(Directive):
    """``custom<PrintfArgs>($args)``: ``, %a, %b : t1, t2`` after gpu.printf's format string; the older
    syntax without the leading comma is accepted too (printing uses the comma)."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        name = args[0].name
        refs: list = []
        types: list[T.Type] = []
        if p.accept(",") or p.peek().kind == "percent":
            refs = p.parse_comma_list(p.parse_ssa_use_ref)
            p.expect(":")
            types = p.parse_comma_list(p.parse_type)
        st.operand_refs[name] = refs
        st.types[name] = types

    def present(self, p: Any, st: Any, args: list) -> bool:
        return p.at_punct(",") or p.peek().kind == "percent"

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        vals = op.operand_group(args[0].name)
        if vals:
            fp.raw(", " + ", ".join(pr.value_name(v) for v in vals) + " : "
                   + ", ".join(pr.type_text(v.type) for v in vals))

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return bool(op.operand_group(args[0].name))
