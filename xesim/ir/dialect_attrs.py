"""Parsing of dialect attributes ``#dialect.mnemonic<params>``.

Attributes of the dialects xesim models (xegpu, gpu, arith, vector, memref, scf, func) are parsed into a
:class:`~xesim.ir.attributes.DialectAttr` with an ordered list of positional and ``key = value``
parameters, where a bare keyword (``cached``, ``slm``, ``workgroup``) becomes an
:class:`~xesim.ir.attributes.EnumValue`.  Attributes of other dialects (``#spirv.vce<...>``, ``#llvm...``)
are kept verbatim as :class:`~xesim.ir.attributes.OpaqueAttr`.
"""

from __future__ import annotations

from typing import Any

from xesim.ir import attributes as A

STRUCTURED_DIALECTS = {"xegpu", "gpu", "arith", "vector", "memref", "scf", "func", "math", "builtin"}
_NOT_ENUM = {"true", "false", "unit", "dense", "array", "affine_map", "strided", "loc"}


def parse_dialect_attr(p: Any, tok: Any, name: str) -> A.Attribute:
    dialect, mnemonic = name.split(".", 1)
    if dialect == "xetile":
        from xesim.ir.xetile_attrs import parse_xetile_attr

        return parse_xetile_attr(p, tok, mnemonic)
    glued = p.at_punct("<") and p.peek().start == tok.end
    if dialect not in STRUCTURED_DIALECTS:
        body = p._balanced_body() if glued else ""
        return A.OpaqueAttr(tok.text + body)
    if not glued:
        return A.DialectAttr(dialect, mnemonic, (), has_brackets=False)
    p.expect("<")
    params: list[tuple[str | None, A.Attribute]] = []
    if not p.at_punct(">"):
        while True:
            params.append(_parse_param(p))
            if not p.accept(","):
                break
    p.expect(">", f"to close #{name}")
    return A.DialectAttr(dialect, mnemonic, tuple(params))


def _parse_param(p: Any) -> tuple[str | None, A.Attribute]:
    t = p.peek()
    if t.kind == "bare":
        save = p.lex.pos
        p.next()
        if p.accept("="):
            return t.text, _parse_value(p)
        p.lex.reset(save)
    return None, _parse_value(p)


def _parse_value(p: Any) -> A.Attribute:
    t = p.peek()
    if t.kind == "bare" and t.text not in _NOT_ENUM:
        save = p.lex.pos
        ty = p.parse_optional_type()
        if ty is not None:
            return A.TypeAttr(ty)
        p.lex.reset(save)
        p.next()
        return A.EnumValue(t.text)
    return p.parse_attribute()
