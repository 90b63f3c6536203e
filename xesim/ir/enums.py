"""Enum attributes as the op definitions store them (``[enums]`` of isa/dialects/*.toml: an integer index, a
``#dialect.attr<case>`` or an opaque template) and the spellings the parser accepts for them."""

from __future__ import annotations

import re
from typing import Any

from xesim.diagnostics import Location, error
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias


def make_enum(enum: Any, cases: list[str]) -> A.Attribute:
    """Stored form of enum case(s): IntegerAttr index, ``#dialect.attr<case>`` or an opaque template."""
    if enum.storage == "int":
        return A.IntegerAttr(enum.cases.index(cases[0]), T.I64)
    if enum.storage == "template":
        return A.OpaqueAttr(enum.attr.replace("{}", cases[0]))
    dialect, mnemonic = enum.attr.split(".", 1)
    return A.DialectAttr(dialect, mnemonic, tuple((None, A.EnumValue(c)) for c in cases))


def enum_cases(enum: Any, attr: A.Attribute) -> list[str] | None:
    """Inverse of :func:`make_enum` (None if ``attr`` is not a valid stored form)."""
    if enum.storage == "int":
        if isinstance(attr, A.IntegerAttr) and 0 <= attr.value < len(enum.cases):
            return [enum.cases[attr.value]]
        return None
    if enum.storage == "template":
        if isinstance(attr, A.OpaqueAttr):
            pat = re.escape(enum.attr).replace(r"\{\}", r"(\w+)")
            m = re.fullmatch(pat, attr.text)
            if m and m.group(1) in enum.cases:
                return [m.group(1)]
        return None
    if isinstance(attr, A.DialectAttr) and attr.qualified_name == enum.attr:
        cases = [str(v) for k, v in attr.params if k is None]
        if cases and all(c in enum.cases for c in cases):
            return cases
    return None


def normalize_enum(p: Any, od: Any, ad: Any, attr: A.Attribute, loc: Location) -> A.Attribute:
    """The stored form of enum attribute ``attr`` of ``ad`` (a case name, index or stored form)."""
    enum = p.registry.enums[ad.enum]
    if enum_cases(enum, attr) is not None:
        return attr
    if isinstance(attr, A.StringAttr) and attr.value in enum.cases:
        return make_enum(enum, [attr.value])
    if isinstance(attr, A.IntegerAttr) and enum.storage != "int" and 0 <= attr.value < len(enum.cases):
        return make_enum(enum, [enum.cases[attr.value]])
    if isinstance(attr, A.OpaqueAttr) and enum.storage in ("attr", "attr_angle"):
        # ``#dialect.attr<case>`` of a dialect whose attributes the parser keeps verbatim (xevm, llvm)
        m = re.fullmatch(re.escape("#" + enum.attr) + r"\s*<\s*(\w+)\s*>", attr.text)
        if m and m.group(1) in enum.cases:
            return make_enum(enum, [m.group(1)])
    raise error(loc, f"invalid value {attr} for attribute '{ad.name}' of '{od.name}': expected one of {', '.join(enum.cases)}")
