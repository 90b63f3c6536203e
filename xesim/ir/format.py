"""Declarative assembly formats (MLIR ODS ``assemblyFormat`` syntax) compiled into element trees.

Supported elements (as in mlir/docs/DefiningDialects/Operations.md, "Declarative Assembly Format"):
backquoted literals (`` `,` ``, `` `to` ``, the empty literal `` `` `` that suppresses a space), ``$name``
(operand group, attribute, region or successor), ``type($x)``, ``qualified(type($x))``,
``type(operands)``, ``type(results)``, ``functional-type(a, b)``, ``attr-dict``,
``attr-dict-with-keyword``, ``prop-dict``, ``custom<Name>(args)``, ``regions`` and optional groups
``( ... $anchor^ ... )?`` (with an optional ``: ( else )`` part).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


class FormatError(Exception):
    pass


@dataclass
class Literal:
    text: str


@dataclass
class Ref:
    """``$name``; ``kind`` (operand/attribute/region/successor) is resolved by the loader."""

    name: str
    kind: str = ""
    anchor: bool = False


@dataclass
class TypeOf:
    """``type($x)``, ``type(operands)``, ``type(results)``."""

    target: str  # a name, "operands" or "results"
    anchor: bool = False


@dataclass
class FunctionalType:
    inputs: str
    results: str


@dataclass
class AttrDict:
    with_keyword: bool = False


@dataclass
class PropDict:
    pass


@dataclass
class Custom:
    name: str
    args: list[Ref | TypeOf]
    anchor: bool = False


@dataclass
class Optional:
    elements: list
    else_elements: list = field(default_factory=list)

    @property
    def anchor(self):
        for e in self.elements:
            if getattr(e, "anchor", False):
                return e
        return None


_TOK = re.compile(
    r"\s*(?:(?P<lit>`[^`]*`)|(?P<dollar>\$[A-Za-z_][A-Za-z0-9_]*)|(?P<kw>[A-Za-z_][A-Za-z0-9_\-]*)"
    r"|(?P<p>[()<>,^?:]))"
)


def _tokenize(fmt: str) -> list[str]:
    out = []
    pos = 0
    fmt = fmt.strip()
    while pos < len(fmt):
        m = _TOK.match(fmt, pos)
        if m is None or m.end() == pos:
            if fmt[pos:].strip() == "":
                break
            raise FormatError(f"bad format text at {fmt[pos:pos + 20]!r}")
        out.append(m.group().strip())
        pos = m.end()
    return out


def parse_format(fmt: str) -> list:
    """Compile a format string into a list of elements."""
    toks = _tokenize(fmt)
    pos = 0

    def peek() -> str | None:
        return toks[pos] if pos < len(toks) else None

    def take(expected: str | None = None) -> str:
        nonlocal pos
        if pos >= len(toks):
            raise FormatError(f"unexpected end of format, expected {expected}")
        t = toks[pos]
        if expected is not None and t != expected:
            raise FormatError(f"expected {expected!r} in format, got {t!r}")
        pos += 1
        return t

    def parse_ref_arg() -> Ref | TypeOf:
        t = take()
        if t.startswith("$"):
            return Ref(t[1:])
        if t in ("type", "qualified"):
            take("(")
            inner = parse_ref_arg() if t == "qualified" else None
            if t == "type":
                tgt = take()
                take(")")
                return TypeOf(tgt[1:] if tgt.startswith("$") else tgt)
            take(")")
            assert inner is not None
            return inner
        if t in ("operands", "results"):
            return TypeOf(t)
        raise FormatError(f"bad directive argument {t!r}")

    def parse_elements(closing: str | None) -> list:
        elements: list = []
        while True:
            t = peek()
            if t is None:
                if closing is not None:
                    raise FormatError("unterminated optional group")
                return elements
            if t == closing:
                return elements
            take()
            if t.startswith("`"):
                elements.append(Literal(t[1:-1]))
            elif t.startswith("$"):
                elements.append(Ref(t[1:]))
            elif t == "type":
                take("(")
                tgt = take()
                take(")")
                elements.append(TypeOf(tgt[1:] if tgt.startswith("$") else tgt))
            elif t == "qualified":
                take("(")
                inner = parse_ref_arg()
                if isinstance(inner, Ref):
                    # qualified($attr) is just the attribute
                    pass
                take(")")
                elements.append(inner)
            elif t == "functional-type":
                take("(")
                a = take()
                take(",")
                b = take()
                take(")")
                elements.append(FunctionalType(a.lstrip("$"), b.lstrip("$")))
            elif t == "attr-dict":
                elements.append(AttrDict(False))
            elif t == "attr-dict-with-keyword":
                elements.append(AttrDict(True))
            elif t == "prop-dict":
                elements.append(PropDict())
            elif t == "custom":
                take("<")
                name = take()
                take(">")
                take("(")
                args: list = []
                while peek() != ")":
                    args.append(parse_ref_arg())
                    if peek() == ",":
                        take(",")
                take(")")
                elements.append(Custom(name, args))
            elif t == "(":
                inner = parse_elements(")")
                take(")")
                else_part: list = []
                if peek() == ":":
                    take(":")
                    take("(")
                    else_part = parse_elements(")")
                    take(")")
                take("?")
                opt = Optional(inner, else_part)
                if opt.anchor is None:
                    raise FormatError("optional group has no anchor (^)")
                elements.append(opt)
            elif t == "^":
                if not elements:
                    raise FormatError("anchor '^' without element")
                elements[-1].anchor = True
            else:
                raise FormatError(f"unknown format element {t!r}")

    elements = parse_elements(None)
    if pos != len(toks):
        raise FormatError(f"trailing format text {toks[pos:]}")
    return elements


def referenced_names(elements: list) -> set[str]:
    """Every ``$name`` (and type target) mentioned anywhere in the format."""
    names: set[str] = set()
    for e in elements:
        if isinstance(e, Ref):
            names.add(e.name)
        elif isinstance(e, TypeOf):
            names.add("type:" + e.target)
        elif isinstance(e, FunctionalType):
            names.add("type:" + e.inputs)
            names.add("type:" + e.results)
        elif isinstance(e, Custom):
            for a in e.args:
                if isinstance(a, Ref):
                    names.add(a.name)
                else:
                    names.add("type:" + a.target)
        elif isinstance(e, Optional):
            names |= referenced_names(e.elements)
            names |= referenced_names(e.else_elements)
    return names


def has_element(elements: list, cls: type) -> bool:
    for e in elements:
        if isinstance(e, cls):
            return True
        if isinstance(e, Optional) and (has_element(e.elements, cls) or has_element(e.else_elements, cls)):
            return True
    return False
