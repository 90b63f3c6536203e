"""XeTile custom directives: ``custom<XeTileKindSpelling>($kind)`` parses the other spellings of an enum kind
(shared/spec/xetile.md §2.7–§2.8): ``atomic_rmw``'s kind as a string literal (``"addf"``) and ``reduction``'s
kind in the full attribute form (``#vector.kind<add>``).  The main formats print the canonical spelling."""

from __future__ import annotations

from typing import Any

from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir.directives.base import Directive, directive
from xesim.ir.enums import make_enum
from xesim.ir.lexer import unescape_string


@directive("XeTileKindSpelling")
class XeTileKindSpelling(Directive):
    def parse(self, p: Any, st: Any, args: list) -> None:
        enum = p.registry.enums[st.od.attr_by_name[args[0].name].enum]
        t = p.peek()
        name = None
        if t.kind == "string":
            p.next()
            name = unescape_string(t.text)
        elif t.kind == "hash":
            a = p.parse_attribute()
            if isinstance(a, A.DialectAttr) and enum.attr == a.qualified_name and a.positional(0) is not None:
                name = str(a.positional(0))
        if name not in enum.cases:
            raise p.fail(f"expected one of {', '.join(enum.cases)}", t.start)
        st.attrs[args[0].name] = make_enum(enum, [name])

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:  # pragma: no cover - never printed
        raise AssertionError("the main format prints the kind")

    def can_print(self, pr: Any, op: Any, args: list) -> bool:
        return False
