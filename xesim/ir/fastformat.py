"""Compiled fast path for op assembly formats: each op's first format becomes one regular expression.

The format interpreter (:mod:`xesim.ir.formatengine`) walks a format's elements token by token.  For the
common shapes of an op (SSA operands, keywords, punctuation, simple types, integer and enum attributes,
index lists, absent or simple attribute dictionaries) this module compiles the op's first format, when the
op is first parsed, into

* one regular expression that matches the whole op text from after its name, token for token as the lexer
  would split it (every piece is anchored on the lexer's token grammar, and every place where the
  interpreter peeks at the next token to take a decision is a lookahead with the same decision), and
* a list of handlers that fill an :class:`~xesim.ir.formatengine.OpState` from the match, exactly as the
  interpreter would, before the same :func:`~xesim.ir.formatengine.build_operation` creates the op, and
* when the types the format prints make the op's type inference static, one generated Python function
  (source built from the definition, see :func:`_generate`) doing match, operand references, types,
  attributes, inference and construction in straight-line code; it hands an op instance it does not model
  to the handlers.

Types, typed constant values and attribute dictionaries are parsed by the ordinary parser *in place* (at
their offset in the source) the first time a given spelling is seen, and memoised by their text (types and
attributes are immutable values; their parse depends only on the text and on aliases, which cannot change
once defined).

The fast path is only an accelerator: whenever the regex does not match, a handler meets something it
does not model, or anything raises, the caller re-parses the op with the interpreter from the op's start,
so every accepted program gives the same IR and every rejected one the same diagnostic as the interpreter.
Formats with elements the compiler does not model (regions, successors, most custom directives) have no
fast path.  ``tests/unit/test_fastformat.py`` checks the equivalence (generated code, handlers and
interpreter) on every example and test program, on op forms that must be handed over, and on random edits.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from xesim.diagnostics import DiagnosticError, Location
from xesim.ir import attributes as A
from xesim.ir import format as F
from xesim.ir import types as T
from xesim.ir.opdefs import OpDef
from xesim.ir.syntax import _ANGLE, _FUNC, _TYPE_START, BARE_END, INT, NAME, TYPE, WS, WSC, Miss, memo_type  # noqa: F401

ENABLED = True  # parsers created while False use only the format interpreter (equivalence tests)
GENERATE = True  # formats compiled while False get no generated function (the handler path is used)


class _Unsupported(Exception):
    """A format element the compiler does not model."""


# ------------------------------------------------------------------------------------ token-level pieces

_CONST = (
    r"(?:-?[0-9]++(?:\.[0-9]*+(?:[eE][+-]?[0-9]++)?)?" + WS + r":(?!:)" + WS + TYPE
    + r"|true" + BARE_END + r"|false" + BARE_END
    + r"|dense<[^<>\"]*+>" + WS + r":(?!:)" + WS + TYPE + r")"
)
_DICT = r"\{[^{}\"]*+\}"
_NEVER = r"(?!)"

_NAME_ITER = re.compile(r"%[A-Za-z0-9_$.\-]+")
_INDEX_ITEM_ITER = re.compile(r"%[A-Za-z0-9_$.\-]+|-?[0-9]+")
_TYPE_ITEM_ITER = re.compile(WS + "(" + TYPE + ")" + WS + ",?")

_PUNCT = {
    "->": r"->", "::": r"::", "...": r"\.\.\.", "(": r"\(", ")": r"\)", "[": r"\[(?![0-9]+\]x)", "]": r"\]",
    "{": r"\{(?!-\#)", "}": r"\}", "<": r"<", ">": r">", ",": r",", ":": r":(?!:)", "=": r"=",
    "?": r"\?(?!x)", "*": r"\*", "+": r"\+", "-": r"-(?!>)", "|": r"\|",
}


def _literal_re(text: str) -> str:
    if re.match(r"[A-Za-z_]", text):
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", text):
            raise _Unsupported(text)
        return re.escape(text) + BARE_END
    pr = _PUNCT.get(text)
    if pr is None:
        raise _Unsupported(text)
    return pr


# ------------------------------------------------------------------------------------ memoised sub-parses


def memo_attr(p: Any, start: int, end: int) -> A.Attribute:
    key = p.source.text[start:end]
    a = p.attr_memo.get(key)
    if a is None:
        p.lex.reset(start)
        a = p.parse_attribute()
        if p.lex.pos != end:
            raise Miss
        p.attr_memo[key] = a
    return a


def memo_dict(p: Any, start: int, end: int) -> dict[str, A.Attribute]:
    key = p.source.text[start:end]
    d = p.dict_memo.get(key)
    if d is None:
        p.lex.reset(start)
        d = p.parse_attr_dict_entries()
        if p.lex.pos != end:
            raise Miss
        p.dict_memo[key] = d
    return d


def _types_in(p: Any, start: int, end: int) -> list[T.Type]:
    text = p.source.text
    return [memo_type(p, m.start(1), m.end(1)) for m in _TYPE_ITEM_ITER.finditer(text, start, end)]


# ------------------------------------------------------------------------------------ compiler

Handler = Callable[[Any, Any, "re.Match[str]"], None]


class FastFormat:
    """A compiled format: ``regex`` matches the op text after its name; ``handlers`` fill the state;
    ``generated`` (when the format allows it) is one generated function doing match, state and build, which
    hands over to the handler path for op instances it does not model; ``entry`` is the one to call."""

    __slots__ = ("regex", "handlers", "generated", "entry")

    def __init__(self, regex: re.Pattern[str], handlers: list[Handler]) -> None:
        self.regex = regex
        self.handlers = handlers
        self.generated: Callable[..., Any] | None = None
        self.entry: Callable[..., Any] | None = None


_ATTR_ONLY = frozenset({"handler", "dict", "enum", "legacy", "ohandler"})  # records that only set attributes


class _Compiler:
    def __init__(self, od: OpDef, enums: dict[str, Any]) -> None:
        self.od = od
        self.enums = enums
        self.ngroups = 0
        # what each top-level element contributes, for the code generator (see _generate): ("operand", name,
        # mode, group), ("type", target, group), ("const", attr, result, group), ("index", dyn, static,
        # group, marker), ("handler", handler) for elements that only set attributes, ("opaque",) otherwise
        self.records: list[tuple] = []

    def group(self, inner: str) -> tuple[str, int]:
        self.ngroups += 1
        return "(" + inner + ")", self.ngroups

    # -------------------------------------------------------------- element lists
    def elements(self, elements: list) -> tuple[str, list[Handler]]:
        parts: list[str] = []
        handlers: list[Handler] = []
        for e in elements:
            n = len(self.records)
            rx, hs = self.element(e)
            if len(self.records) == n:  # the element did not describe itself: attributes only, or nothing
                if isinstance(e, (F.Ref, F.AttrDict, F.PropDict, F.Custom)):
                    self.records.extend(("handler", h) for h in hs)
            parts.append(rx)
            handlers.extend(hs)
        return "".join(parts), handlers

    def element(self, e: Any) -> tuple[str, list[Handler]]:
        if isinstance(e, F.Literal):
            if e.text.strip() == "":
                return "", []
            return WS + _literal_re(e.text), []
        if isinstance(e, F.Ref):
            if e.kind == "operand":
                return self.operand(e.name)
            if e.kind == "attribute":
                return self.attribute(e.name)
            raise _Unsupported(e.kind)
        if isinstance(e, F.TypeOf):
            return self.type_of(e.target)
        if isinstance(e, F.FunctionalType):
            return self.functional_type(e)
        if isinstance(e, F.AttrDict):
            return self.attr_dict(e.with_keyword)
        if isinstance(e, F.PropDict):
            return self.prop_dict()
        if isinstance(e, F.Custom):
            return self.custom(e)
        if isinstance(e, F.Optional):
            return self.optional(e)
        raise _Unsupported(type(e).__name__)

    # -------------------------------------------------------------- operands
    def operand(self, name: str) -> tuple[str, list[Handler]]:
        d = next(o for o in self.od.operands if o.name == name)
        if d.variadic:
            rx, g = self.group(NAME + "(?:" + WS + "," + WS + NAME + ")*+")
            self.records.append(("operand", name, "variadic", g))
            return "(?:" + WS + rx + "(?!" + WSC + ",)|(?!" + WSC + "%))", [_variadic_refs(name, g)]
        rx, g = self.group(NAME)
        if d.optional:
            self.records.append(("operand", name, "optional", g))
            return "(?:" + WS + rx + "|(?!" + WSC + "%))", [_optional_ref(name, g)]
        self.records.append(("operand", name, "single", g))
        return WS + rx, [_single_ref(name, g)]

    # -------------------------------------------------------------- attributes
    def attribute(self, name: str) -> tuple[str, list[Handler]]:
        ad = self.od.attr_by_name[name]
        k = ad.kind
        if ad.enum is not None:
            enum = self.enums[ad.enum]
            if enum.storage in ("attr_angle", "flags"):
                raise _Unsupported("angle enum")
            from xesim.ir.formatengine import make_enum

            table = {c: make_enum(enum, [c]) for c in enum.cases}
            rx, g = self.group(r"[A-Za-z_][A-Za-z0-9_$.]*+")
            self.records.append(("enum", name, g, table))
            return WS + rx, [_table_attr(name, g, table)]
        if k in ("i64", "i32", "i8", "index"):
            ty = {"i64": T.I64, "i32": T.I32, "i8": T.I8, "index": T.INDEX}[k]
            rx, g = self.group(INT)
            return WS + rx, [_int_attr(name, g, ty)]
        if k == "unit":
            return WS + _literal_re(name), [_const_attr(name, A.UnitAttr())]
        if k == "bool":
            rx, g = self.group("(?:true|false)" + BARE_END)
            return WS + rx, [_bool_attr(name, g)]
        if k == "symbol":
            rx, g = self.group(r"@[A-Za-z0-9_$.\-]++")
            return WS + rx, [_symbol_attr(name, g)]
        if k == "symbol_ref":
            rx, g = self.group(r"@[A-Za-z0-9_$.\-]++")
            return WS + rx + "(?!" + WSC + "::)", [_symbol_ref_attr(name, g)]
        if k == "string":
            rx, g = self.group(r'"[^"\\\n]*+"')
            return WS + rx, [_string_attr(name, g)]
        if k == "type":
            rx, g = self.group(TYPE)
            return WS + rx, [_type_attr(name, g)]
        raise _Unsupported(k)

    # -------------------------------------------------------------- types
    def _type_list(self) -> tuple[str, int]:
        rx, g = self.group(TYPE + "(?:" + WS + "," + WS + TYPE + ")*+")
        return "(?:" + WS + rx + "(?!" + WSC + ",)|(?!" + WSC + _TYPE_START + "))", g

    def type_of(self, target: str) -> tuple[str, list[Handler]]:
        if target in ("operands", "results"):
            rx, g = self._type_list()
            groups = self.od.operands if target == "operands" else self.od.results
            # with a single group, "all the types" are that group's types (build_operation's slicing)
            self.records.append(("types", groups[0].name, g) if len(groups) == 1 else ("opaque",))
            return rx, [_all_types(target, g)]
        kind = self.od.kind_of(target)
        d = next(o for o in (self.od.operands if kind == "operand" else self.od.results) if o.name == target)
        if d.variadic:
            rx, g = self._type_list()
            self.records.append(("types", target, g))
            return rx, [_type_list_into(target, g)]
        rx, g = self.group(TYPE)
        if d.optional:
            self.records.append(("types", target, g))
            return "(?:" + WS + rx + "|(?!" + WSC + _TYPE_START + "))", [_optional_type(target, g)]
        self.records.append(("type", target, g))
        return WS + rx, [_single_type(target, g)]

    def functional_type(self, e: F.FunctionalType) -> tuple[str, list[Handler]]:
        rx, g = self.group(_FUNC)
        self.records.append(("opaque",))
        return WS + rx, [_functional(e.inputs, e.results, g)]

    # -------------------------------------------------------------- dictionaries
    def attr_dict(self, with_keyword: bool) -> tuple[str, list[Handler]]:
        if with_keyword:
            return "(?!" + WSC + "attributes" + BARE_END + ")", []
        rx, g = self.group(_DICT)
        self.records.append(("dict", g))
        return "(?:" + WS + rx + "|(?!" + WSC + r"\{))", [_dict_into(g)]

    def prop_dict(self) -> tuple[str, list[Handler]]:
        rx, g = self.group(_DICT)
        self.records.append(("dict", g))
        return "(?:" + WS + "<" + WS + rx + WS + ">|(?!" + WSC + "<" + WSC + r"\{))", [_dict_into(g)]

    # -------------------------------------------------------------- custom directives
    def custom(self, e: F.Custom) -> tuple[str, list[Handler]]:
        if e.name == "ConstantValue":
            rx, g = self.group(_CONST)
            self.records.append(("const", e.args[0].name, e.args[1].target, g))
            return WS + rx, [_constant_value(e.args[0].name, e.args[1].target, g)]
        if e.name in ("DynamicIndexList", "OptionalDynamicIndexList"):
            # groups are numbered in textual order: the presence marker comes first
            marker, mk = self.group("") if e.name == "OptionalDynamicIndexList" else ("", 0)
            item = "(?:" + NAME + "|" + INT + ")"
            rx, g = self.group(item + "(?:" + WS + "," + WS + item + ")*+")
            lst = WS + _PUNCT["["] + "(?:" + WS + rx + ")?" + WS + r"\]"
            dyn, static = e.args[0].name, e.args[1].name
            self.records.append(("index", dyn, static, g, mk if e.name == "OptionalDynamicIndexList" else None))
            if e.name == "DynamicIndexList":
                return lst, [_index_list(dyn, static, g, None)]
            return "(?:" + marker + lst + "|(?!" + WSC + r"\[))", [_index_list(dyn, static, g, mk)]
        if e.name == "XeGPULegacyAttrs":
            from xesim.ir.directives import DIRECTIVES

            directive, args = DIRECTIVES[e.name], e.args

            def legacy(p: Any, st: Any, mt: re.Match[str]) -> None:
                directive.parse(p, st, args)

            self.records.append(("legacy", legacy))  # rewrites attributes parsed before it, nothing else
            return "", [legacy]
        raise _Unsupported(e.name)

    # -------------------------------------------------------------- optional groups
    def presence(self, group: F.Optional) -> str | None:
        """A lookahead body that matches whenever the interpreter's ``_optional_present`` says the group is
        present (None: always present)."""
        first = next((x for x in group.elements if not (isinstance(x, F.Literal) and x.text.strip() == "")), None)
        if first is None:
            return _NEVER
        if isinstance(first, F.Literal):
            return WSC + _literal_re(first.text)
        if isinstance(first, F.Ref):
            if first.kind == "operand":
                return WSC + "%"
            if first.kind == "region":
                return WSC + r"\{"
            if first.kind == "successor":
                return WSC + r"\^"
            if first.kind == "attribute":
                ad = self.od.attr_by_name[first.name]
                if ad.enum is not None:
                    enum = self.enums[ad.enum]
                    if enum.storage in ("attr_angle", "flags"):
                        return WSC + "<"
                    return WSC + "[A-Za-z_]"
                k = ad.kind
                if k in ("i64", "int", "i32", "i8", "index"):
                    return WSC + "[-0-9]"
                if k == "unit":
                    return WSC + _literal_re(ad.name)
                if k in ("symbol", "symbol_ref"):
                    return WSC + "@"
                if k == "string":
                    return WSC + '"'
                if k in ("dense_i64", "dense_i32", "dense_bool", "array"):
                    return WSC + r"\["
                if k == "bool":
                    return WSC + "[tf]"
                if k in ("type", "function_type"):
                    return WSC + _TYPE_START
                return None
            return None
        if isinstance(first, F.TypeOf):
            return WSC + _TYPE_START
        if isinstance(first, F.Custom):
            if first.name in ("DynamicIndexList", "OptionalDynamicIndexList"):
                return WSC + r"\["
            if first.name == "XeGPULegacyAttrs":
                return _NEVER
            return None
        if isinstance(first, F.AttrDict):
            return WSC + r"\{"
        return _NEVER  # the interpreter treats other first elements as absent

    def optional(self, e: F.Optional) -> tuple[str, list[Handler]]:
        present = self.presence(e)
        marker, m = self.group("")
        saved = self.ngroups
        n_records = len(self.records)
        try:
            body, hs = self.elements(e.elements)
            then_rx = marker + body
        except _Unsupported:
            self.ngroups = saved
            del self.records[n_records:]
            then_rx, hs = marker + _NEVER, []
        n_then = len(self.records) - n_records
        else_body, else_hs = self.elements(e.else_elements)
        if present is None:
            else_rx = _NEVER
        elif present == _NEVER:
            else_rx = else_body
        else:
            else_rx = "(?!" + present + ")" + else_body
        handler = _optional_group(m, hs, else_hs)
        inner = self.records[n_records:]
        del self.records[n_records:]
        if all(r[0] in _ATTR_ONLY for r in inner):
            self.records.append(("ohandler", m, handler, bool(else_hs)))
        else:
            self.records.append(("group", m, inner[:n_then], inner[n_then:]))
        return "(?:" + then_rx + "|" + else_rx + ")", [handler]


# ------------------------------------------------------------------------------------ handlers


def _single_ref(name: str, g: int) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        st.operand_refs[name] = [(m.group(g)[1:], Location(p.source, m.start(g)))]

    return h


def _optional_ref(name: str, g: int) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        s = m.start(g)
        st.operand_refs[name] = [] if s < 0 else [(m.group(g)[1:], Location(p.source, s))]

    return h


def _variadic_refs(name: str, g: int) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        s = m.start(g)
        if s < 0:
            st.operand_refs[name] = []
            return
        src = p.source
        st.operand_refs[name] = [(x.group()[1:], Location(src, x.start()))
                                 for x in _NAME_ITER.finditer(src.text, s, m.end(g))]

    return h


def _table_attr(name: str, g: int, table: dict[str, A.Attribute]) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        a = table.get(m.group(g))
        if a is None:
            raise Miss
        st.attrs[name] = a

    return h


def _int_attr(name: str, g: int, ty: T.Type) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        v = int(m.group(g))
        if ty == T.I8:
            v &= 0xFF
            v = v - 256 if v >= 128 else v
        st.attrs[name] = A.IntegerAttr(v, ty)

    return h


def _const_attr(name: str, a: A.Attribute) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        st.attrs[name] = a

    return h


def _bool_attr(name: str, g: int) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        st.attrs[name] = A.BoolAttr(m.group(g) == "true")

    return h


def _symbol_attr(name: str, g: int) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        st.attrs[name] = A.StringAttr(m.group(g)[1:])

    return h


def _symbol_ref_attr(name: str, g: int) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        st.attrs[name] = A.SymbolRefAttr((m.group(g)[1:],))

    return h


def _string_attr(name: str, g: int) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        st.attrs[name] = A.StringAttr(m.group(g)[1:-1])

    return h


def _type_attr(name: str, g: int) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        st.attrs[name] = A.TypeAttr(memo_type(p, m.start(g), m.end(g)))

    return h


def _all_types(target: str, g: int) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        s = m.start(g)
        types = [] if s < 0 else _types_in(p, s, m.end(g))
        if target == "operands":
            st.all_operand_types = types
        else:
            st.all_result_types = types

    return h


def _type_list_into(target: str, g: int) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        s = m.start(g)
        st.types[target] = [] if s < 0 else _types_in(p, s, m.end(g))

    return h


def _optional_type(target: str, g: int) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        s = m.start(g)
        st.types[target] = [] if s < 0 else [memo_type(p, s, m.end(g))]

    return h


def _single_type(target: str, g: int) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        st.types[target] = [memo_type(p, m.start(g), m.end(g))]

    return h


def _functional(inputs: str, results: str, g: int) -> Handler:
    from xesim.ir.formatengine import _assign_types

    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        ft = memo_type(p, m.start(g), m.end(g))
        if not isinstance(ft, T.FunctionType):
            raise Miss
        _assign_types(st, inputs, list(ft.inputs))
        _assign_types(st, results, list(ft.results))

    return h


def _dict_into(g: int) -> Handler:
    from xesim.ir.formatengine import _merge_attrs

    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        s = m.start(g)
        if s >= 0:
            _merge_attrs(p, st, memo_dict(p, s, m.end(g)))

    return h


def _constant_value(attr: str, result: str, g: int) -> Handler:
    from xesim.ir.directives.arith import typed_attr_type

    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        a = memo_attr(p, m.start(g), m.end(g))
        ty = typed_attr_type(a)
        if ty is None:
            raise Miss
        st.attrs[attr] = a
        st.types[result] = [ty]

    return h


def _index_list(dyn: str, static_name: str, g: int, marker: int | None) -> Handler:
    from xesim.ir.directives.common import DYNAMIC_INDEX

    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        if marker is not None and m.start(marker) < 0:
            st.operand_refs[dyn] = []
            st.types[dyn] = []
            return
        refs: list = []
        static: list[int] = []
        s = m.start(g)
        if s >= 0:
            src = p.source
            for x in _INDEX_ITEM_ITER.finditer(src.text, s, m.end(g)):
                text = x.group()
                if text[0] == "%":
                    refs.append((text[1:], Location(src, x.start())))
                    static.append(DYNAMIC_INDEX)
                else:
                    static.append(int(text))
        st.operand_refs[dyn] = refs
        st.types[dyn] = [T.INDEX] * len(refs)
        st.attrs[static_name] = A.DenseArrayAttr(T.I64, tuple(static))

    return h


def _optional_group(marker: int, then: list[Handler], other: list[Handler]) -> Handler:
    def h(p: Any, st: Any, m: re.Match[str]) -> None:
        for x in then if m.start(marker) >= 0 else other:
            x(p, st, m)

    return h


# ------------------------------------------------------------------------------------ code generation


class _AttrState:
    """The part of an OpState that attribute-only handlers use."""

    __slots__ = ("od", "loc", "attrs")

    def __init__(self, od: OpDef, loc: Location, attrs: dict[str, A.Attribute]) -> None:
        self.od = od
        self.loc = loc
        self.attrs = attrs


def _generate(od: OpDef, records: list[tuple], regex: re.Pattern[str],
              fallback: Callable[..., Any]) -> Callable[..., Any] | None:
    """Generate one Python function for the op: regex match, operand references, types, attributes, type
    inference and operation construction in straight-line code, equivalent to the handlers followed by
    :func:`~xesim.ir.formatengine.build_operation`.  The inference schedule is resolved here, so only
    formats whose inferred types depend on single types printed outside optional groups get one (None
    otherwise).  At run time the function returns None (and the handler path takes over) whenever the op
    instance leaves what was assumed, in particular on anything the generic path would report: it returns
    ``fallback(p, loc, text, pos)`` (the handler path) then."""
    from xesim.ir.constraints import INFER_FUNCTIONS, INFER_LITERALS
    from xesim.ir.core import Operation
    from xesim.ir.directives.arith import typed_attr_type
    from xesim.ir.directives.common import DYNAMIC_INDEX
    from xesim.ir.formatengine import _merge_attrs
    from xesim.ir.opdefs import parse_infer

    env: dict[str, Any] = {
        "RX": regex, "Location": Location, "Miss": Miss, "DiagnosticError": DiagnosticError, "OD": od,
        "AttrState": _AttrState, "memo_type": memo_type, "memo_attr": memo_attr, "types_in": _types_in,
        "typed_attr_type": typed_attr_type, "NAME_ITER": _NAME_ITER.finditer, "ITEM_ITER": _INDEX_ITEM_ITER.finditer,
        "INDEX": T.INDEX, "I64": T.I64, "DenseArrayAttr": A.DenseArrayAttr, "DYN": DYNAMIC_INDEX,
        "build": Operation.build, "FALLBACK": fallback, "memo_dict": memo_dict, "MERGE": _merge_attrs,
    }
    single: dict[str, str] = {}  # name -> variable of its printed type (always set)
    maybe: dict[str, tuple[str, str]] = {}  # name -> ("one" | "list", variable that may be None)
    refs: dict[str, tuple[str, str]] = {}  # operand name -> (mode, variable)
    index_lists: set[str] = set()
    body: list[str] = ["attrs = {}", "src = p.source", "pass"]

    def emit(recs: list[tuple], ind: str, cond: bool) -> bool:
        for r in recs:
            kind = r[0]
            if kind == "opaque":
                return False
            if kind == "operand":
                _, name, mode, g = r
                var = f"r{g}"
                if cond:
                    body.insert(3, f"{var} = ()")
                if mode == "single":
                    body.append(f"{ind}{var} = ((m.group({g})[1:], m.start({g})),)")
                elif mode == "optional":
                    body.append(f"{ind}s = m.start({g})")
                    body.append(f"{ind}{var} = () if s < 0 else ((m.group({g})[1:], s),)")
                else:
                    body.append(f"{ind}s = m.start({g})")
                    body.append(f"{ind}{var} = () if s < 0 else [(x.group()[1:], x.start()) "
                                f"for x in NAME_ITER(text, s, m.end({g}))]")
                refs[name] = ("optional" if cond and mode == "single" else mode, var)
            elif kind == "type":
                _, target, g = r
                if cond:
                    body.insert(3, f"t{g} = None")
                    maybe[target] = ("one", f"t{g}")
                    single.pop(target, None)
                else:
                    single[target] = f"t{g}"
                    maybe.pop(target, None)
                body.append(f"{ind}t{g} = memo_type(p, m.start({g}), m.end({g}))")
            elif kind == "types":
                _, target, g = r
                body.insert(3, f"t{g} = None")
                body.append(f"{ind}s = m.start({g})")
                body.append(f"{ind}t{g} = [] if s < 0 else types_in(p, s, m.end({g}))")
                maybe[target] = ("list", f"t{g}")
                single.pop(target, None)
            elif kind == "const":
                _, attr, result, g = r
                if cond:
                    return False
                body.append(f"{ind}a = memo_attr(p, m.start({g}), m.end({g}))")
                body.append(f"{ind}t{g} = typed_attr_type(a)")
                body.append(f"{ind}if t{g} is None:")
                body.append(f"{ind}    return FALLBACK(p, loc, text, pos)")
                body.append(f"{ind}attrs[{attr!r}] = a")
                single[result] = f"t{g}"
            elif kind == "index":
                _, dyn, static, g, marker = r
                var = f"r{g}"
                body.insert(3, f"{var} = ()")
                inner = ind
                if marker is not None:
                    body.append(f"{ind}if m.start({marker}) >= 0:")
                    inner = ind + "    "
                body.extend([f"{inner}{var} = []", f"{inner}vals = []", f"{inner}s = m.start({g})",
                             f"{inner}if s >= 0:", f"{inner}    for x in ITEM_ITER(text, s, m.end({g})):",
                             f"{inner}        item = x.group()", f"{inner}        if item[0] == '%':",
                             f"{inner}            {var}.append((item[1:], x.start()))",
                             f"{inner}            vals.append(DYN)", f"{inner}        else:",
                             f"{inner}            vals.append(int(item))",
                             f"{inner}attrs[{static!r}] = DenseArrayAttr(I64, tuple(vals))"])
                refs[dyn] = ("index", var)
                index_lists.add(dyn)
            elif kind == "group":
                _, marker, then_recs, else_recs = r
                body.append(f"{ind}if m.start({marker}) >= 0:")
                body.append(f"{ind}    pass")
                if not emit(then_recs, ind + "    ", True):
                    return False
                body.append(f"{ind}else:")
                body.append(f"{ind}    pass")
                if not emit(else_recs, ind + "    ", True):
                    return False
            elif kind == "dict":
                g = r[1]
                body.append(f"{ind}if m.start({g}) >= 0:")
                body.append(f"{ind}    MERGE(p, AttrState(OD, loc, attrs), memo_dict(p, m.start({g}), m.end({g})))")
            elif kind == "enum":
                _, name, g, table = r
                env[f"E{g}"] = table
                body.append(f"{ind}a = E{g}.get(m.group({g}))")
                body.append(f"{ind}if a is None:")
                body.append(f"{ind}    return FALLBACK(p, loc, text, pos)")
                body.append(f"{ind}attrs[{name!r}] = a")
            else:  # other attribute-only elements: call their handlers
                hname = f"H{len(env)}"
                env[hname] = r[-1] if kind != "ohandler" else r[2]
                call = f"{hname}(p, AttrState(OD, loc, attrs), m)"
                if kind == "legacy":
                    body.append(f"{ind}if attrs:")
                    body.append(f"{ind}    {call}")
                elif kind == "ohandler" and not r[3]:
                    body.append(f"{ind}if m.start({r[1]}) >= 0:")
                    body.append(f"{ind}    {call}")
                else:
                    body.append(f"{ind}{call}")
        return True

    if not emit(records, "", False):
        return None
    # static inference schedule (build_operation's fixed point, the inputs being single printed types)
    operand_names = [o.name for o in od.operands]
    inferable = [n for n in operand_names + od.result_names if n in od.infer]
    inferred: dict[str, str] = {}
    for name in inferable:
        if name in single or name in index_lists:
            continue
        if name in maybe:
            return None  # printed only sometimes: the generic fixed point decides
        fn, args = parse_infer(od.infer[name])
        if fn == "lit":
            env[f"LIT_{name}"] = INFER_LITERALS[args[0]]
            inferred[name] = f"LIT_{name}"
            continue
        if any(a not in single for a in args):
            if any(a in od.infer or a in index_lists or a in maybe for a in args):
                return None  # depends on another inferred or optional type: keep the generic fixed point
            continue  # never resolvable
        if fn == "ref":
            inferred[name] = single[args[0]]
        else:
            env[f"FN_{name}"] = INFER_FUNCTIONS[fn]
            body.append(f"i_{name} = FN_{name}({', '.join(single[a] for a in args)})")
            inferred[name] = f"i_{name}"
    body.append("resolve = p.resolve_at")
    body.append("operands = []")
    seg_vars = []
    for o in od.operands:
        if o.name not in refs:
            return None
        mode, var = refs[o.name]
        seg_vars.append(var)
        each = f"for n_, o_ in {var}:\n    operands.append(resolve(n_, {{}}, o_))"
        if mode == "index":
            body.append(each.format("INDEX"))
            continue
        if o.name in maybe:
            how, tv = maybe[o.name]
            body.append(f"if {tv} is None:")
            body.append(f"    if {var}:\n        return FALLBACK(p, loc, text, pos)")
            body.append("else:")
            if how == "one":
                body.append(f"    if len({var}) != 1:\n        return FALLBACK(p, loc, text, pos)")
                body.append(f"    operands.append(resolve({var}[0][0], {tv}, {var}[0][1]))")
            else:
                body.append(f"    if len({var}) != len({tv}):\n        return FALLBACK(p, loc, text, pos)")
                body.append(f"    for (n_, o_), ty_ in zip({var}, {tv}):")
                body.append("        operands.append(resolve(n_, ty_, o_))")
            continue
        ty = single.get(o.name)
        if ty is not None and mode != "single":
            body.append(f"if len({var}) != 1:\n    return FALLBACK(p, loc, text, pos)")
        if ty is None:
            ty = inferred.get(o.name)
        if ty is None:
            if mode == "single":
                return None  # always an error: let the generic path report it
            body.append(f"if {var}:\n    return FALLBACK(p, loc, text, pos)")
            continue
        if mode == "single":
            body.append(f"operands.append(resolve({var}[0][0], {ty}, {var}[0][1]))")
        else:
            body.append(each.format(ty))
    body.append("results = []")
    for r in od.results:
        if r.name in maybe:
            how, tv = maybe[r.name]
            body.append(f"if {tv} is not None:")
            body.append(f"    results.{'append' if how == 'one' else 'extend'}({tv})")
            if not (r.variadic or r.optional):
                body.append("else:\n    return FALLBACK(p, loc, text, pos)")
            continue
        ty = single.get(r.name) or inferred.get(r.name)
        if ty is None:
            if r.variadic or r.optional:
                continue
            return None
        body.append(f"results.append({ty})")
    if od.has_flexible_operands:
        segs = "[" + ", ".join(f"len({v})" for v in seg_vars) + "]"
    else:
        segs = "None"
    body.append(f"op = build({od.name!r}, operands, results, attrs, [], [], loc, OD, {segs})")
    src_lines = ["def fast(p, loc, text, pos):", "    m = RX.match(text, pos)", "    if m is None:",
                 "        return None", "    try:"]
    src_lines += ["        " + ln.replace("\n", "\n        ") for ln in body]
    src_lines += ["    except (Miss, DiagnosticError):", "        return FALLBACK(p, loc, text, pos)",
                  "    p.lex.reset(m.end())", "    return op"]
    code = "\n".join(src_lines)
    exec(compile(code, f"<fast format of {od.name}>", "exec"), env)  # noqa: S102 - generated from the op definition
    fn_ = env["fast"]
    fn_.source = code  # type: ignore[attr-defined]
    return fn_


# ------------------------------------------------------------------------------------ entry points


def compile_fast(od: OpDef, enums: dict[str, Any]) -> FastFormat | None:
    """The compiled fast path of ``od``'s first format, or None when the format has unmodelled elements."""
    if not od.formats:
        return None
    c = _Compiler(od, enums)
    try:
        rx, handlers = c.elements(od.formats[0])
    except _Unsupported:
        return None
    ff = FastFormat(re.compile(rx), handlers)
    handler_path = functools.partial(_handler_path, ff, od)
    ff.entry = handler_path
    if GENERATE:
        gen = _generate(od, c.records, ff.regex, handler_path)
        if gen is not None:
            ff.generated = ff.entry = gen
    return ff


def fast_format(od: OpDef, enums: dict[str, Any]) -> FastFormat | None:
    """The compiled fast path of ``od`` (compiled on first use, kept on the definition object)."""
    try:
        return od._fast_format  # type: ignore[attr-defined]
    except AttributeError:
        ff = od._fast_format = compile_fast(od, enums)  # type: ignore[attr-defined]
        od._fast_entry = ff.entry if ff is not None else None  # type: ignore[attr-defined]
        return ff


def fast_entry(od: OpDef, enums: dict[str, Any]) -> Callable[..., Any] | None:
    """``entry(p, loc, text, pos)`` parsing an op of ``od`` from after its name through the compiled format
    (None: the format has no fast path).  The entry returns the op, or None when the format interpreter
    must parse it; nothing observable has changed then, except memo tables."""
    try:
        return od._fast_entry  # type: ignore[attr-defined]
    except AttributeError:
        fast_format(od, enums)
        return od._fast_entry  # type: ignore[attr-defined]


def _handler_path(ff: FastFormat, od: OpDef, p: Any, loc: Location, text: str, pos: int) -> Any:
    m = ff.regex.match(text, pos)
    if m is None:
        return None
    from xesim.ir.formatengine import OpState, build_operation

    st = OpState(od, loc)
    try:
        for h in ff.handlers:
            h(p, st, m)
        op = build_operation(p, st)
    except (Miss, DiagnosticError):
        return None
    p.lex.reset(m.end())
    return op

