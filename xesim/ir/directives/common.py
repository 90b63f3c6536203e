"""Directives shared by several dialects: dynamic index lists (``[%a, 4, %b]``)."""

from __future__ import annotations

from typing import Any

from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.directives.base import Directive, directive

DYNAMIC_INDEX = -(2**63)  # MLIR's ShapedType::kDynamic marks a dynamic entry in a static list


def parse_index_list(p: Any, st: Any, dyn_name: str, static_name: str, open_: str = "[", close: str = "]") -> None:
    """``[%a, 4, %b]``: SSA entries become operands of ``dyn_name`` (type index), literals the static list."""
    p.expect(open_)
    refs: list = []
    static: list[int] = []
    if not p.at_punct(close):
        while True:
            if p.peek().kind == "percent":
                refs.append(p.parse_ssa_use_ref())
                static.append(DYNAMIC_INDEX)
            else:
                static.append(p.parse_integer())
            if not p.accept(","):
                break
    p.expect(close)
    st.operand_refs[dyn_name] = refs
    st.types[dyn_name] = [T.INDEX] * len(refs)
    st.attrs[static_name] = A.DenseArrayAttr(T.I64, tuple(static))


def format_index_list(pr: Any, dyn: list, static: list[int] | None, open_: str = "[", close: str = "]") -> str:
    out = []
    it = iter(dyn)
    if static is None:
        static = [DYNAMIC_INDEX] * len(dyn)
    for s in static:
        out.append(pr.value_name(next(it)) if s == DYNAMIC_INDEX else str(s))
    return open_ + ", ".join(out) + close


def static_list(op: Any, name: str) -> list[int] | None:
    a = op.attributes.get(name)
    return A.int_list(a) if a is not None else None


@directive("DynamicIndexList")
class DynamicIndexList(Directive):
    """``custom<DynamicIndexList>($dynamic, $static)``: a bracketed mix of SSA values and integers."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        parse_index_list(p, st, args[0].name, args[1].name)

    def present(self, p: Any, st: Any, args: list) -> bool:
        return p.at_punct("[")

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        dyn = op.operand_group(args[0].name)
        fp.element(format_index_list(pr, dyn, static_list(op, args[1].name)))

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return bool(op.operand_group(args[0].name)) or bool(static_list(op, args[1].name))


@directive("OptionalDynamicIndexList")
class OptionalDynamicIndexList(DynamicIndexList):
    """As DynamicIndexList, but the whole ``[...]`` may be absent (xegpu offsets)."""

    def parse(self, p: Any, st: Any, args: list) -> None:
        if p.at_punct("["):
            parse_index_list(p, st, args[0].name, args[1].name)
        else:
            st.operand_refs[args[0].name] = []
            st.types[args[0].name] = []

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        if self.print_present(pr, op, args):
            super().print(pr, op, args, fp)
