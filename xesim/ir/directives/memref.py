"""Directives for the memref dialect's hand-written syntaxes (MLIR ``MemRefOps.cpp`` / ``MemRefOps.td``).

* ``custom<GlobalMemrefOpTypeAndInitialValue>($type, $initial_value)``: ``memref.global``'s
  ``: memref<4xf32> [= uninitialized | = dense<...>]``.  As in MLIR the initializer is printed without its
  type: the literal takes the global's shape and element type (MLIR uses the matching tensor type; xesim
  has no tensor types and gives the elements attribute the memref type itself).
* ``custom<StridedMetadataTypes>(type($base_buffer), type($offset), type($sizes), type($strides))``:
  ``memref.extract_strided_metadata``'s result types, one flat list split as base, offset, then equally
  many sizes and strides (MLIR's ``SameVariadicResultSize``).
"""

from __future__ import annotations

from typing import Any

from xesim.diagnostics import error
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.directives.base import Directive, directive


def _parse_type_list(p: Any) -> list[T.Type]:
    types = [p.parse_type()]
    while p.accept(","):
        types.append(p.parse_type())
    return types


@directive("GlobalMemrefOpTypeAndInitialValue")
class GlobalMemrefOpTypeAndInitialValue(Directive):
    """``memref<..> [= uninitialized | = <elements literal>]`` (MLIR parseGlobalMemrefOpTypeAndInitialValue)."""

    def parse(self, p: Any, st: Any, args: list) -> None:
        tloc = p.loc()
        ty = p.parse_type()
        if not isinstance(ty, T.MemRefType) or not ty.has_static_shape:
            raise error(tloc, f"type should be static shaped memref, but got '{ty}'")
        st.attrs[args[0].name] = A.TypeAttr(ty)
        if not p.accept("="):
            return
        if p.accept_keyword("uninitialized"):
            st.attrs[args[1].name] = A.UnitAttr()
            return
        vloc = p.loc()
        if not p.at_keyword("dense"):
            a = p.parse_attribute()
            if not isinstance(a, A.DenseElementsAttr):
                raise error(vloc, "initial value should be a unit or elements attribute")
            st.attrs[args[1].name] = a
            return
        start = p.next().start
        p.expect("<")
        hex_text = None
        literal: Any = None
        if p.peek().kind == "string":
            from xesim.ir.lexer import unescape_string

            hex_text = unescape_string(p.next().text)
        elif not p.at_punct(">"):
            literal = p._parse_dense_literal()
        p.expect(">")
        if p.at_punct(":"):  # an explicitly typed literal: MLIR would use that type (checked by the verifier)
            p.next()
            explicit = p.parse_type()
            from xesim.ir.dense import build_dense

            st.attrs[args[1].name] = build_dense(p, start, explicit, literal, hex_text)
            return
        from xesim.ir.dense import build_dense

        st.attrs[args[1].name] = build_dense(p, start, ty, literal, hex_text)

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        ta = op.attributes.get(args[0].name)
        text = pr.type_text(ta.type) if isinstance(ta, A.TypeAttr) else str(ta)
        init = op.attributes.get(args[1].name)
        if isinstance(init, A.UnitAttr):
            text += " = uninitialized"
        elif isinstance(init, A.DenseElementsAttr):
            same = isinstance(ta, A.TypeAttr) and init.type == ta.type
            text += " = " + (f"dense<{init.body()}>" if same else pr.attr_text(init))
        elif init is not None:
            text += " = " + pr.attr_text(init)
        fp.element(text)


@directive("StridedMetadataTypes")
class StridedMetadataTypes(Directive):
    """Result types of ``memref.extract_strided_metadata``: ``base, offset, sizes..., strides...``."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        loc = p.loc()
        types = _parse_type_list(p)
        if len(types) < 2 or (len(types) - 2) % 2:
            raise error(loc, "expected a base buffer type, an offset type and as many size types as stride types")
        n = (len(types) - 2) // 2
        st.types[args[0].target] = [types[0]]
        st.types[args[1].target] = [types[1]]
        st.types[args[2].target] = types[2 : 2 + n]
        st.types[args[3].target] = types[2 + n :]

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        fp.element(", ".join(pr.type_text(r.type) for r in op.results))
