"""Custom directives of the XeVM dialect (shared/spec/upstream-xegpu-xevm.md §4.5, §4.11).

* ``custom<XeVMStruct>($attr)``: the struct attributes of ``mma`` / ``mma_mx`` written without their prefix,
  ``<m = 8, n = 16, k = 16>`` (``#xevm.mma_shape``) and ``<d = f32, a = f16, b = f16, c = f32>``
  (``#xevm.mma_types``); fields may come in any order and are kept in the canonical one (m, n, k / d, a, b, c).
  Integers become ``IntegerAttr`` (i32), keywords ``StringAttr``.
* ``custom<XeVMRange>($range)``: the special registers' optional ``range <i32, lo, hi>`` hint (an
  ``LLVM::ConstantRangeAttr`` without its prefix; no semantics), kept verbatim.
"""

from __future__ import annotations

from typing import Any

from xesim.diagnostics import error
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.directives.base import Directive, directive

ORDER = {"m": 0, "n": 1, "k": 2, "d": 0, "a": 1, "b": 2, "c": 3}


@directive("XeVMStruct")
class XeVMStruct(Directive):
    def parse(self, p: Any, st: Any, args: list) -> None:
        loc = p.loc()
        p.expect("<")
        entries: dict[str, A.Attribute] = {}
        while True:
            key = p.next()
            if key.kind != "bare":
                raise p.fail(f"expected a field name, got '{key.text}'", key.start)
            p.expect("=")
            t = p.peek()
            if t.kind == "int":
                val: A.Attribute = A.IntegerAttr(p.parse_integer(), T.I32)
            elif t.kind == "bare":
                p.next()
                val = A.StringAttr(t.text)
            else:
                raise p.fail(f"expected an integer or an element type keyword, got '{t.text}'", t.start)
            if key.text in entries:
                raise error(loc, f"duplicate field '{key.text}'")
            entries[key.text] = val
            if not p.accept(","):
                break
        p.expect(">")
        st.attrs[args[0].name] = A.DictAttr(tuple(sorted(entries.items(), key=lambda kv: ORDER.get(kv[0], 9))))

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        a = op.attributes.get(args[0].name)
        items = a.entries if isinstance(a, A.DictAttr) else ()
        fp.element("<" + ", ".join(f"{k} = {v.value}" for k, v in items) + ">")


@directive("XeVMRange")
class XeVMRange(Directive):
    def parse(self, p: Any, st: Any, args: list) -> None:
        if p.accept_keyword("range"):
            st.attrs[args[0].name] = A.StringAttr(p._balanced_body())

    def present(self, p: Any, st: Any, args: list) -> bool:
        return p.at_keyword("range")

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        a = op.attributes.get(args[0].name)
        if isinstance(a, A.StringAttr):
            fp.element("range " + a.value)

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return args[0].name in op.attributes
