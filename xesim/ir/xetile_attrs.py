"""XeTile attributes (shared/spec/xetile.md §2.2–§2.6 and Appendix A): ``#xetile.tile_attr``,
``#xetile.wg_map``, ``#xetile.sg_map``, the legacy ``#xetile.xe_map``; ``#xetile.cache_hint`` stays a generic
:class:`~xesim.ir.attributes.DialectAttr`.

Parsing accepts every spelling of §2.2 (struct parameters in any order, nested maps in the full form, an alias
or the bare ``<...>`` body, ``[a, b]`` or ``array<i32: a, b>``) and the legacy parameters of Appendix A
(``inner_blocks``, ``wg_data`` (ignored), ``memory_scope`` (old name of ``memory_space``), ``xe_map`` as a tile
encoding, ``mma_block_size`` in ``sg_map`` (ignored)).  Printing is the canonical form of §2.2: parameters in the
order ``sg_map, wg_map, order, array_length, memory_space, scattered``, nested maps bare, ``order`` omitted
when ``[1, 0]``, integer attributes with their type.

Attribute verifiers (§2.2–§2.4) do not run while parsing: :func:`attr_problems` lists their messages and the
XeTile verifier rules report them at the op that uses the attribute (as MLIR reports them at the op's line).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

ENCODING_ERROR = "failed to parse XeTile encoding parameter which is to be a `::imex::xetile::XeTileAttr`"
_MAP_PARAMS = {"wg_map": ("sg_layout", "sg_data"), "sg_map": ("wi_layout", "wi_data")}


def _ints_text(values: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


@dataclass(frozen=True, slots=True)
class XeTileMap(A.Attribute):
    """``#xetile.wg_map<sg_layout = [L0, L1], sg_data = [D0, D1]>`` or ``#xetile.sg_map<wi_layout = [..],
    wi_data = [..]>``: ``first``/``second`` are the two arrays in that order (any length; the verifier wants 2)."""

    kind: str  # "wg_map" | "sg_map"
    first: tuple[int, ...]
    second: tuple[int, ...]

    @property
    def names(self) -> tuple[str, str]:
        return _MAP_PARAMS[self.kind]

    def body(self) -> str:
        a, b = self.names
        return f"<{a} = {_ints_text(self.first)}, {b} = {_ints_text(self.second)}>"

    def __str__(self) -> str:
        return f"#xetile.{self.kind}{self.body()}"


@dataclass(frozen=True, slots=True)
class TileAttr(A.Attribute):
    """``#xetile.tile_attr<...>`` (§2.2); ``None`` = parameter absent (its default applies)."""

    sg_map: XeTileMap | None = None
    wg_map: XeTileMap | None = None
    order: tuple[int, ...] | None = None
    array_length: A.Attribute | None = None
    memory_space: A.Attribute | None = None
    scattered: bool | None = None
    inner_blocks: tuple[int, ...] | None = None  # legacy (Appendix A.1)

    def __str__(self) -> str:
        return f"#xetile.tile_attr{self.body()}"

    def body(self) -> str:
        parts = []
        if self.sg_map is not None:
            parts.append(f"sg_map = {self.sg_map.body()}")
        if self.wg_map is not None:
            parts.append(f"wg_map = {self.wg_map.body()}")
        if self.order is not None and self.order != (1, 0):
            parts.append(f"order = {_ints_text(self.order)}")
        if self.inner_blocks is not None:
            parts.append(f"inner_blocks = {_ints_text(self.inner_blocks)}")
        if self.array_length is not None:
            parts.append(f"array_length = {self.array_length}")
        if self.memory_space is not None:
            parts.append(f"memory_space = {self.memory_space}")
        if self.scattered is not None:
            parts.append(f"scattered = {'true' if self.scattered else 'false'}")
        return "<" + ", ".join(parts) + ">"


# ============================================================================ parsing
def _int_array(p: Any, what: str) -> tuple[int, ...]:
    loc = p.loc()
    a = p.parse_attribute()
    if isinstance(a, A.ArrayAttr) and all(isinstance(e, A.IntegerAttr) for e in a.elements):
        return tuple(int(e.value) for e in a.elements)
    if isinstance(a, A.DenseArrayAttr) and isinstance(a.element_type, T.IntegerType):
        return tuple(int(v) for v in a.values)
    raise p.fail(f"expected an integer array for '{what}'", loc.offset)


def _struct(p: Any, context: str, allowed: tuple[str, ...], handle: Any) -> None:
    """``<name = value, ...>`` with each name at most once, in any order."""
    p.expect("<")
    seen: set[str] = set()
    if p.accept(">"):
        return
    while True:
        t = p.next()
        if t.kind != "bare" or t.text not in allowed:
            raise p.fail(f"unexpected parameter '{t.text}' in {context}", t.start)
        if t.text in seen:
            raise p.fail(f"duplicate parameter '{t.text}' in {context}", t.start)
        seen.add(t.text)
        p.expect("=")
        handle(t.text)
        if not p.accept(","):
            break
    p.expect(">", f"to close {context}")


def _parse_map_body(p: Any, kind: str) -> XeTileMap:
    a, b = _MAP_PARAMS[kind]
    vals: dict[str, tuple[int, ...]] = {}
    allowed = (a, b, "mma_block_size") if kind == "sg_map" else (a, b)
    start = p.loc()

    def handle(name: str) -> None:
        vals[name] = _int_array(p, name)

    _struct(p, f"#xetile.{kind}", allowed, handle)
    for name in (a, b):
        if name not in vals:
            raise p.fail(f"struct is missing required parameter: {name}", start.offset)
    return XeTileMap(kind, vals[a], vals[b])


def _parse_map_value(p: Any, kind: str) -> XeTileMap:
    """A nested map: ``#xetile.<kind><...>``, an alias of one, or the bare ``<...>`` body."""
    if p.at_punct("<"):
        return _parse_map_body(p, kind)
    loc = p.loc()
    a = p.parse_attribute()
    if isinstance(a, XeTileMap) and a.kind == kind:
        return a
    raise p.fail(f"expected #xetile.{kind}", loc.offset)


def _parse_tile_attr_body(p: Any) -> TileAttr:
    vals: dict[str, Any] = {}
    names = ("sg_map", "wg_map", "order", "array_length", "memory_space", "scattered", "inner_blocks", "wg_data",
             "memory_scope")

    def handle(name: str) -> None:
        if name in ("sg_map", "wg_map"):
            vals[name] = _parse_map_value(p, name)
        elif name in ("order", "inner_blocks", "wg_data"):
            vals[name] = _int_array(p, name)
        elif name == "scattered":
            loc = p.loc()
            a = p.parse_attribute()
            if not (isinstance(a, A.IntegerAttr) and a.type == T.I1):
                raise p.fail("expected 'true' or 'false' for scattered", loc.offset)
            vals[name] = bool(a.value)
        elif name == "array_length":
            loc = p.loc()
            a = p.parse_attribute()
            if not isinstance(a, A.IntegerAttr):
                raise p.fail("expected an integer attribute for array_length", loc.offset)
            vals[name] = a
        else:
            key = "memory_space" if name == "memory_scope" else name
            if key in vals:
                raise p.fail(f"duplicate parameter '{name}' in #xetile.tile_attr")
            vals[key] = p.parse_attribute()

    _struct(p, "#xetile.tile_attr", names, handle)
    vals.pop("wg_data", None)
    return TileAttr(**vals)


def parse_xetile_attr(p: Any, tok: Any, mnemonic: str) -> A.Attribute:
    """``#xetile.<mnemonic><...>`` after its name token."""
    if mnemonic == "tile_attr":
        return _parse_tile_attr_body(p)
    if mnemonic in _MAP_PARAMS:
        return _parse_map_body(p, mnemonic)
    if mnemonic == "xe_map":
        parts: dict[str, XeTileMap] = {}

        def handle(name: str) -> None:
            parts[name] = _parse_map_value(p, "wg_map" if name == "wg" else "sg_map")

        _struct(p, "#xetile.xe_map", ("wg", "sg"), handle)
        return TileAttr(sg_map=parts.get("sg"), wg_map=parts.get("wg"))
    if mnemonic == "cache_hint":
        p.expect("<")
        t = p.next()
        if t.kind != "bare" or t.text not in CACHE_HINTS:
            raise p.fail(f"expected one of {', '.join(CACHE_HINTS)} in #xetile.cache_hint", t.start)
        p.expect(">")
        return A.DialectAttr("xetile", "cache_hint", ((None, A.EnumValue(t.text)),))
    raise p.fail(f"unknown attribute '#xetile.{mnemonic}'", tok.start)


def parse_tile_encoding(p: Any) -> TileAttr:
    """The encoding of ``!xetile.tile<...>``: a tile attribute (full, alias or bare body) or a legacy xe_map."""
    loc = p.loc()
    if p.at_punct("<"):
        return _parse_tile_attr_body(p)
    a = p.parse_attribute()  # a malformed #xetile.tile_attr reports its own problem
    if not isinstance(a, TileAttr):
        raise p.fail(ENCODING_ERROR, loc.offset)
    return a


CACHE_HINTS = ("cached", "uncached", "streaming", "read_invalidate", "write_back", "write_through")


# ============================================================================ verification
def attr_problems(a: A.Attribute | None) -> list[str]:
    """The messages of the attribute verifiers of §2.2–§2.4 for ``a`` (a tile_attr or a map)."""
    out: list[str] = []
    if isinstance(a, XeTileMap):
        for name, vals in zip(a.names, (a.first, a.second)):
            if len(vals) != 2:
                out.append(f"expect integer array of size 2 for {name}")
    elif isinstance(a, TileAttr):
        out += attr_problems(a.sg_map) + attr_problems(a.wg_map)
        if a.order is not None and len(a.order) != 2:
            out.append("expect integer array of size 2 for order")
        n = a.array_length.value if isinstance(a.array_length, A.IntegerAttr) else None
        if n is not None and n > 1 and a.scattered:
            out.append("array_length cannot be used with scattered attribute")
        if n is not None and n < 1:
            out.append("expect integer greater than 0 for array_length")
    return out
