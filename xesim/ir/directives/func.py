"""Whole-op directives for function-like ops: ``func.func`` and ``gpu.func`` (MLIR's
``function_interface_impl::parseFunctionOp`` syntax, plus gpu.func's ``workgroup(...)``, ``private(...)``
and ``kernel`` keywords from the GPU dialect docs)."""

from __future__ import annotations

import re
from typing import Any

from xesim.diagnostics import DiagnosticError, Location
from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.directives.base import Directive, directive
from xesim.ir.syntax import NAME, TYPE, WS, Miss, memo_type

# `(%a: t, %b: u)` without argument attributes or locations, token for token as _parse_arg_list reads it
_ARG = NAME + WS + ":(?!:)" + WS + TYPE
_ARG_LIST = re.compile(WS + r"\((?:" + WS + "(" + _ARG + "(?:" + WS + "," + WS + _ARG + ")*+))?" + WS + r"\)")
_ARG_ITEM = re.compile("(" + NAME + ")" + WS + ":" + WS + "(" + TYPE + ")")


def _fast_arg_list(p: Any) -> list | None:
    """The named arguments of a plain argument list matched in one go (types memoised as in
    :mod:`xesim.ir.fastformat`), or None when the token-level parser must read it."""
    text = p.source.text
    start = p.lex.pos
    m = _ARG_LIST.match(text, start)
    if m is None:
        return None
    args: list = []
    s = m.start(1)
    if s >= 0:
        src = p.source
        try:
            for x in _ARG_ITEM.finditer(text, s, m.end(1)):
                args.append((x.group(1)[1:], memo_type(p, x.start(2), x.end(2)), Location(src, x.start(1))))
        except (Miss, DiagnosticError):
            p.lex.reset(start)
            return None
    p.lex.reset(m.end())
    return args


def _parse_arg_list(p: Any, named: bool | None) -> tuple[list, list, bool]:
    """``(%a: t {attrs}, ...)`` or ``(t, ...)``; returns (args [(name, type, loc)], arg attr dicts, named)."""
    if named is not False and getattr(p, "fast", False):
        fast = _fast_arg_list(p)
        if fast is not None:
            return fast, [{} for _ in fast], True if fast else bool(named)
    p.expect("(")
    args: list = []
    attrs: list = []
    if p.accept(")"):
        return args, attrs, bool(named)
    while True:
        t = p.peek()
        if t.kind == "percent":
            if named is False:
                raise p.fail("expected type instead of SSA identifier")
            named = True
            p.next()
            p.expect(":")
            ty = p.parse_type()
            args.append((t.text[1:], ty, p.loc(t.start)))
        else:
            if named is True:
                raise p.fail("expected SSA identifier")
            named = False
            ty = p.parse_type()
            args.append((None, ty, p.loc(t.start)))
        attrs.append(p.parse_attr_dict_entries() if p.at_punct("{") else {})
        if p.at_keyword("loc"):
            p.parse_location()
        if not p.accept(","):
            break
    p.expect(")")
    return args, attrs, bool(named)


def _parse_results(p: Any) -> tuple[list[T.Type], list]:
    if not p.accept("->"):
        return [], []
    types: list[T.Type] = []
    attrs: list = []
    if p.at_punct("("):
        p.next()
        if not p.accept(")"):
            while True:
                types.append(p.parse_type())
                attrs.append(p.parse_attr_dict_entries() if p.at_punct("{") else {})
                if not p.accept(","):
                    break
            p.expect(")")
    else:
        types.append(p.parse_type())
        attrs.append({})
    return types, attrs


def _dicts_attr(dicts: list) -> A.ArrayAttr | None:
    if not any(dicts):
        return None
    return A.ArrayAttr(tuple(A.DictAttr(tuple(d.items())) for d in dicts))


def _format_args(pr: Any, op: Any, block: Any | None, types: tuple, arg_attrs: Any) -> list[str]:
    out = []
    for i, ty in enumerate(types):
        # (fmt --no-verify prints unverified IR: a body with fewer arguments than the type prints the types)
        named = block is not None and i < len(block.args)
        s = f"{pr.value_name(block.args[i])}: {pr.type_text(ty)}" if named else pr.type_text(ty)
        if arg_attrs is not None and i < len(arg_attrs.elements) and arg_attrs.elements[i].entries:
            s += " " + pr.attr_dict_text(list(arg_attrs.elements[i].entries))
        out.append(s)
    return out


@directive("FunctionOp")
class FunctionOp(Directive):
    """``custom<FunctionOp>($sym_visibility, $sym_name, $function_type, $arg_attrs, $res_attrs, $body)``
    for func.func, with optional gpu.func extras when the op defines ``workgroup_attributions``."""

    def parse(self, p: Any, st: Any, args: list) -> None:
        is_gpu = st.od.name == "gpu.func"
        t = p.peek()
        if t.kind == "bare" and t.text in ("private", "public", "nested"):
            p.next()
            st.attrs["sym_visibility"] = A.StringAttr(t.text)
        t = p.next()
        if t.kind != "at":
            raise p.fail("expected valid '@'-identifier for symbol name" + p._found(t), t.start)
        st.attrs["sym_name"] = A.StringAttr(t.text[1:])
        fargs, fattrs, named = _parse_arg_list(p, None)
        results, rattrs = _parse_results(p)
        entry = list(fargs)
        if is_gpu:
            n_wg = 0
            for kw in ("workgroup", "private"):
                if p.accept_keyword(kw):
                    extra, _, _ = _parse_arg_list(p, True)
                    entry += extra
                    if kw == "workgroup":
                        n_wg = len(extra)
                        st.attrs["workgroup_attributions"] = A.IntegerAttr(n_wg, T.I64)
            if p.accept_keyword("kernel"):
                st.attrs["gpu.kernel"] = A.UnitAttr()
        st.attrs["function_type"] = A.TypeAttr(T.FunctionType(tuple(a[1] for a in fargs), tuple(results)))
        aa = _dicts_attr(fattrs)
        if aa is not None:
            st.attrs["arg_attrs"] = aa
        ra = _dicts_attr(rattrs)
        if ra is not None:
            st.attrs["res_attrs"] = ra
        if p.accept_keyword("attributes"):
            for k, v in p.parse_attr_dict_entries().items():
                st.attrs[k] = v
        if p.at_punct("{"):
            if fargs and not named:
                raise p.fail("expected named arguments (%name: type) for a function with a body")
            st.region_args["body"] = entry
            st.regions["body"] = [p.parse_region(True, entry)]
        else:
            # mlir-opt accepts named arguments on a declaration (function_interface_impl::parseFunctionOp
            # parses the body as an optional region); the names are dropped, as MLIR's printer does.
            from xesim.ir.core import Region

            st.regions["body"] = [Region()]

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        vis = op.attributes.get("sym_visibility")
        if vis is not None:
            fp.element(vis.value)
        fp.element(A.format_symbol(op.attributes["sym_name"].value))
        ft = op.attributes["function_type"].type
        body = op.regions[0]
        block = body.blocks[0] if not body.empty else None
        fp.raw("(" + ", ".join(_format_args(pr, op, block, ft.inputs, op.attributes.get("arg_attrs"))) + ")")
        if ft.results:
            ra = op.attributes.get("res_attrs")
            outs = _format_args(pr, op, None, ft.results, ra)
            if len(outs) == 1 and not isinstance(ft.results[0], T.FunctionType) and (ra is None):
                fp.raw(" -> " + outs[0])
            else:
                fp.raw(" -> (" + ", ".join(outs) + ")")
        skip = {"sym_visibility", "sym_name", "function_type", "arg_attrs", "res_attrs", "workgroup_attributions",
                "gpu.kernel"}
        if op.name == "gpu.func" and block is not None:
            n_in = len(ft.inputs)
            n_wg = op.attributes.get("workgroup_attributions")
            n_wg = n_wg.value if n_wg is not None else 0
            wg = block.args[n_in : n_in + n_wg]
            priv = block.args[n_in + n_wg :]
            for kw, group in (("workgroup", wg), ("private", priv)):
                if group:
                    items = ", ".join(f"{pr.value_name(a)} : {pr.type_text(a.type)}" for a in group)
                    fp.raw(f" {kw}({items})")
        if "gpu.kernel" in op.attributes:
            fp.raw(" kernel")
        rest = [(k, v) for k, v in op.attributes.items() if k not in skip]
        if rest:
            fp.raw(" attributes " + pr.attr_dict_text(rest))
        if block is not None:
            fp.raw(" " + pr.region_text(body, print_entry_args=False))
