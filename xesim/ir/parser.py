"""MLIR parser driven by the op definitions in ``isa/dialects``.

Parses whole files (``module {...}`` or bare top-level ops, attribute/type aliases, ``loc(...)``), MLIR's
generic op form for any known op, and each op's custom form through its declarative assembly format
(:mod:`xesim.ir.formatengine`).  SSA scoping follows MLIR: names are unique within an isolated-from-above
region; a nested region may use, but not redefine, outer names; sibling regions may reuse names.
"""

from __future__ import annotations

import gc
import re
import sys
from typing import Any

from xesim.diagnostics import DiagnosticError, Location, SourceFile, error
from xesim.ir import attributes as A
from xesim.ir import fastformat
from xesim.ir import types as T
from xesim.ir.affine import AffineParseError, parse_affine_map
from xesim.ir.core import Block, Module, Operation, Region, Value
from xesim.ir.fastformat import fast_entry
from xesim.ir.formatengine import OpState, build_operation, parse_with_formats
from xesim.ir.lexer import Lexer, Token, unescape_string
from xesim.ir.literals import fit_int, float_from_bits, float_from_hex, int_literal
from xesim.ir.opdefs import OpDef, Registry, load_registry

_INT_TYPE = re.compile(r"(s|u)?i([0-9]+)$")
_DIM_ITEM = re.compile(r"([0-9]+|\?|\[[0-9]+\])x")
_DIM_RE_ALL = re.compile(r"(?:(?:[0-9]+|\?|\[[0-9]+\])x)+")
# `%name = dialect.op` / `dialect.op` at the start of an op: the common heads, matched without tokens.
_OP_HEAD = re.compile(r"(?:(%[A-Za-z0-9_$.\-]++)[ \t\r\n]*+=[ \t\r\n]*+)?([A-Za-z_][A-Za-z0-9_$.]*+)")
_TYPE_TEXT = re.compile(fastformat.TYPE)
_LBRACE = re.compile(r"[ \t\r\n]*+\{(?!-\#)")
_CARET_AHEAD = re.compile(r"(?:[ \t\r\n]++|//[^\n]*+)*+\^[A-Za-z0-9_$.\-]")
_OP_HEAD_WS = re.compile(r"[ \t\r\n]*+" + _OP_HEAD.pattern)
# After an op: the next token surely lexes and is not `loc` (so there is no trailing location to skip).
_NO_TRAILING_LOC = re.compile(r"[ \t\r\n]*+(?:%[A-Za-z0-9_$.\-]|\}|\^[A-Za-z0-9_$.\-]|(?!loc(?![A-Za-z0-9_$.]))[A-Za-z_])")
_SIMPLE_TYPES = {
    "index": T.INDEX,
    "none": T.NONE,
    **{name: T.FloatType(name) for name in T.FLOAT_WIDTHS},
}
DEFAULT_DIALECT = {"func.func": "func", "gpu.func": "gpu", "gpu.module": "gpu", "builtin.module": "builtin"}


class Placeholder(Value):
    """A forward reference to a value not defined yet (replaced when the definition is parsed)."""

    __slots__ = ("loc",)

    def __init__(self, type: T.Type, name: str, loc: Location) -> None:
        super().__init__(type, name)
        self.loc = loc


class _Scope:
    """Names visible in one isolated-from-above region, with per-nested-region definition lists."""

    def __init__(self) -> None:
        self.values: dict[str, Value] = {}
        self.defs_stack: list[list[str]] = [[]]
        self.forward: dict[str, Placeholder] = {}
        self.blocks_stack: list[dict[str, Block]] = [{}]
        self.block_forward_stack: list[dict[str, tuple[Block, Location]]] = [{}]


class Parser:
    def __init__(self, source: SourceFile, registry: Registry | None = None, fragment: bool = False) -> None:
        self.source = source
        self.lex = Lexer(source)
        self.registry = registry or load_registry()
        self.fragment = fragment
        self.attr_aliases: dict[str, A.Attribute] = {}
        self.type_aliases: dict[str, T.Type] = {}
        self.scopes: list[_Scope] = [_Scope()]
        self.op_stack: list[str] = []
        self.fragment_args: list[Placeholder] = []
        # memo tables of the compiled-format fast path (xesim.ir.fastformat): source text -> parsed value
        self.type_memo: dict[str, T.Type] = {}
        self.attr_memo: dict[str, A.Attribute] = {}
        self.dict_memo: dict[str, dict[str, A.Attribute]] = {}
        self.fast = fastformat.ENABLED
        self._ops = self.registry.ops
        # hot paths: bind the lexer's methods directly
        self.peek = self.lex.peek  # type: ignore[method-assign]
        self.next = self.lex.next  # type: ignore[method-assign]

    # ================================================================== token helpers
    def loc(self, offset: int | None = None) -> Location:
        return Location(self.source, self.lex.peek().start if offset is None else offset)

    def peek(self) -> Token:
        return self.lex.peek()

    def next(self) -> Token:
        return self.lex.next()

    def fail(self, message: str, offset: int | None = None) -> DiagnosticError:
        return error(self.loc(offset), message)

    def at_punct(self, p: str) -> bool:
        t = self.lex.peek()
        return t.kind == "punct" and t.text == p

    def at_keyword(self, kw: str) -> bool:
        t = self.lex.peek()
        return t.kind == "bare" and t.text == kw

    def accept(self, p: str) -> bool:
        t = self.lex.peek()
        if t.kind == "punct" and t.text == p:
            self.lex.next()
            return True
        return False

    def accept_keyword(self, kw: str) -> bool:
        t = self.lex.peek()
        if t.kind == "bare" and t.text == kw:
            self.lex.next()
            return True
        return False

    def expect(self, p: str, what: str | None = None) -> Token:
        t = self.lex.peek()
        if t.kind == "punct" and t.text == p:
            return self.lex.next()
        raise self.fail(f"expected '{p}'" + (f" {what}" if what else "") + self._found(t))

    def expect_keyword(self, kw: str) -> Token:
        t = self.lex.peek()
        if t.kind == "bare" and t.text == kw:
            return self.lex.next()
        raise self.fail(f"expected '{kw}'" + self._found(t))

    @staticmethod
    def _found(t: Token) -> str:
        if t.kind == "eof":
            return ", found end of file"
        return f", found '{t.text}'"

    def parse_comma_list(self, item, open_: str | None = None, close: str | None = None, allow_empty: bool = True) -> list:
        out = []
        if open_ is not None:
            self.expect(open_)
            if close is not None and allow_empty and self.accept(close):
                return out
        while True:
            out.append(item())
            if not self.accept(","):
                break
        if close is not None:
            self.expect(close)
        return out

    # ================================================================== module
    def parse_module(self) -> Module:
        top = Operation("builtin.module", loc=self.loc(0), opdef=self.registry.get("builtin.module"))
        body = Block()
        top.add_region(Region([body]))
        self.op_stack.append("builtin.module")
        while self.peek().kind != "eof":
            t = self.peek()
            if t.kind == "hash" and self._is_alias_def():
                self._parse_attr_alias()
            elif t.kind == "excl" and self._is_alias_def():
                self._parse_type_alias()
            elif t.is_punct("{-#"):
                self._skip_file_metadata()
            else:
                body.append(self.parse_operation())
        self.op_stack.pop()
        self._finish_scope(self.scopes[-1])
        # A file holding exactly one module op is that module (as in MLIR).
        if not self.fragment and len(body.ops) == 1 and body.ops[0].name == "builtin.module":
            top = body.ops[0]
            top.parent = None
        module = Module(top, self.source.name)
        module.attr_aliases = dict(self.attr_aliases)
        module.type_aliases = dict(self.type_aliases)
        module.fragment = self.fragment
        return module

    def _is_alias_def(self) -> bool:
        save = self.lex.pos
        self.next()
        ok = self.at_punct("=")
        self.lex.reset(save)
        return ok

    def _parse_attr_alias(self) -> None:
        t = self.next()
        self.expect("=")
        name = t.text[1:]
        if name in self.attr_aliases:
            raise self.fail(f"redefinition of attribute alias id '{name}'", t.start)
        self.attr_aliases[name] = self.parse_attribute()

    def _parse_type_alias(self) -> None:
        t = self.next()
        self.expect("=")
        name = t.text[1:]
        if name in self.type_aliases:
            raise self.fail(f"redefinition of type alias id '{name}'", t.start)
        self.type_aliases[name] = self.parse_type()

    def _skip_file_metadata(self) -> None:
        self.next()
        while not self.at_punct("#-}"):
            if self.peek().kind == "eof":
                raise self.fail("unterminated file metadata dictionary")
            self.next()
        self.next()

    # ================================================================== values and scopes
    @property
    def scope(self) -> _Scope:
        return self.scopes[-1]

    def define_value(self, name: str, value: Value, loc: Location) -> None:
        sc = self.scope
        if name in sc.values:
            raise error(loc, f"redefinition of SSA value '%{name}'")
        ph = sc.forward.pop(name, None)
        if ph is not None:
            if ph.type != value.type:
                raise error(
                    ph.loc,
                    f"use of value '%{name}' expects different type than prior uses: '{ph.type}' vs '{value.type}'",
                )
            for user in ph.uses:
                user.operands = [value if o is ph else o for o in user.operands]
                value.uses.append(user)
        value.name = name
        sc.values[name] = value
        sc.defs_stack[-1].append(name)

    def resolve_value(self, name: str, type: T.Type, loc: Location) -> Value:
        sc = self.scope
        v = sc.values.get(name)
        if v is None:
            v = sc.forward.get(name)
            if v is None:
                # Values of enclosing non-isolated scopes are found in this scope's table already; an
                # unknown name becomes a forward reference resolved (or reported) later.
                ph = Placeholder(type, name, loc)
                sc.forward[name] = ph
                return ph
        if v.type is not type and v.type != type:
            raise error(
                loc, f"use of value '%{name}' expects different type than prior uses: '{type}' vs '{v.type}'"
            )
        return v

    def resolve_at(self, name: str, type: T.Type, offset: int) -> Value:
        """:meth:`resolve_value` for a use at ``offset``; the location is only built when it is needed."""
        v = self.scopes[-1].values.get(name)
        if v is not None and v.type is type:
            return v
        return self.resolve_value(name, type, Location(self.source, offset))

    def push_region_scope(self, isolated: bool) -> None:
        if isolated:
            self.scopes.append(_Scope())
        else:
            self.scope.defs_stack.append([])
            self.scope.blocks_stack.append({})
            self.scope.block_forward_stack.append({})

    def pop_region_scope(self, isolated: bool, check: bool = True) -> None:
        """Leave a region scope; ``check=False`` (while an error propagates) skips the unresolved-name
        checks so the original error is reported rather than a follow-on one."""
        if isolated:
            sc = self.scopes.pop()
            if check:
                self._finish_scope(sc)
        else:
            sc = self.scope
            for name in sc.defs_stack.pop():
                sc.values.pop(name, None)
            forward = sc.block_forward_stack.pop()
            if check:
                self._check_blocks(forward)
            sc.blocks_stack.pop()

    def _finish_scope(self, sc: _Scope) -> None:
        self._check_blocks(sc.block_forward_stack[0])
        if not sc.forward:
            return
        if self.fragment:
            for ph in sc.forward.values():
                self.fragment_args.append(ph)
            sc.forward.clear()
            return
        ph = min(sc.forward.values(), key=lambda p: p.loc.offset)
        raise error(ph.loc, f"use of undeclared SSA value name '%{ph.name}'")

    def _check_blocks(self, forward: dict[str, tuple[Block, Location]]) -> None:
        if forward:
            name, (_, loc) = min(forward.items(), key=lambda kv: kv[1][1].offset)
            raise error(loc, f"reference to an undefined block '^{name}'")

    def lookup_block(self, name: str, loc: Location) -> Block:
        sc = self.scope
        blocks = sc.blocks_stack[-1]
        if name in blocks:
            return blocks[name]
        fwd = sc.block_forward_stack[-1]
        if name in fwd:
            return fwd[name][0]
        b = Block(name)
        fwd[name] = (b, loc)
        return b

    # ================================================================== operations
    def parse_operation(self) -> Operation:
        t = self.peek()
        if (t.kind == "percent" or t.kind == "bare") and self.fast:
            m = _OP_HEAD.match(self.source.text, t.start)
            if m is not None:
                return self._parse_headed_operation(m)
        start = t.start
        results: list[tuple[str, int, Location]] = []
        if self.peek().kind == "percent":
            while True:
                t = self.next()
                if t.kind != "percent":
                    raise self.fail("expected SSA value name" + self._found(t), t.start)
                count = 1
                if self.accept(":"):
                    c = self.next()
                    if c.kind != "int" or int_literal(c.text) < 1:
                        raise self.fail("expected integer number of results", c.start)
                    count = int_literal(c.text)
                results.append((t.text[1:], count, self.loc(t.start)))
                if not self.accept(","):
                    break
            self.expect("=", "after SSA names")
        loc = self.loc(start)
        t = self.peek()
        if t.kind == "string":
            op = self.parse_generic_operation(loc)
        elif t.kind == "bare":
            op = self.parse_custom_operation(loc)
        else:
            raise self.fail("expected operation name in quotes" + self._found(t))
        self._skip_trailing_loc()
        total = 0 if not results else results[0][1] if len(results) == 1 else sum(r[1] for r in results)
        if results and total != len(op.results):
            raise error(
                loc,
                f"operation defines {len(op.results)} results but was provided {total} to bind",
            )
        idx = 0
        for name, count, rloc in results:
            if count == 1:
                self.define_value(name, op.results[idx], rloc)
            else:
                op.result_group_name = name
                for k in range(count):
                    self.define_value(f"{name}#{k}", op.results[idx + k], rloc)
                    op.results[idx + k].name = f"{name}#{k}"
            idx += count
        return op

    def _parse_headed_operation(self, m: re.Match[str]) -> Operation:
        """An op in custom form with at most one plain result name, its head already matched by
        ``_OP_HEAD``: the same steps as :meth:`parse_operation` without tokenizing the head."""
        source = self.source
        rstart = m.start(1)
        loc = Location(source, rstart if rstart >= 0 else m.start(2))
        od = self._ops.get(m.group(2))
        if od is None:
            od = self.resolve_op_name(m.group(2), Location(source, m.start(2)))
        # the compiled path parses no regions, so it needs no op_stack entry (default dialects)
        try:
            entry = od._fast_entry  # type: ignore[attr-defined]
        except AttributeError:
            entry = fast_entry(od, self.registry.enums)
        op = entry(self, loc, source.text, m.end()) if entry is not None else None
        if op is None:
            self.op_stack.append(od.name)
            try:
                self.lex.reset(m.end())
                op = parse_with_formats(self, od, loc)
            finally:
                self.op_stack.pop()
        lex = self.lex
        if lex._peeked is not None or _NO_TRAILING_LOC.match(source.text, lex.pos) is None:
            self._skip_trailing_loc()
        if rstart >= 0:
            if len(op.results) != 1:
                raise error(loc, f"operation defines {len(op.results)} results but was provided 1 to bind")
            name = m.group(1)[1:]
            sc = self.scopes[-1]
            if sc.forward or name in sc.values:
                self.define_value(name, op.results[0], Location(source, rstart))
            else:  # define_value's common case: a new name and no pending forward references
                value = op.results[0]
                value.name = name
                sc.values[name] = value
                sc.defs_stack[-1].append(name)
        return op

    def _skip_trailing_loc(self) -> None:
        if self.at_keyword("loc"):
            self.parse_location()

    def parse_location(self) -> A.LocationAttr:
        t = self.expect_keyword("loc")
        self.expect("(")
        depth = 1
        while depth:
            tok = self.next()
            if tok.kind == "eof":
                raise self.fail("unterminated location", t.start)
            if tok.is_punct("("):
                depth += 1
            elif tok.is_punct(")"):
                depth -= 1
        return A.LocationAttr(self.source.text[t.start : self.lex.pos])

    def resolve_op_name(self, name: str, loc: Location) -> OpDef:
        od = self.registry.get(name)
        if od is None and "." not in name:
            for enclosing in reversed(self.op_stack):
                dialect = DEFAULT_DIALECT.get(enclosing)
                if dialect:
                    od = self.registry.get(f"{dialect}.{name}")
                    if od is not None:
                        break
            if od is None:
                od = self.registry.get(f"builtin.{name}")
        if od is None:
            raise error(loc, f"unknown operation '{name}': xesim does not model this op")
        return od

    def parse_custom_operation(self, loc: Location) -> Operation:
        t = self.next()
        od = self.resolve_op_name(t.text, self.loc(t.start))
        self.op_stack.append(od.name)
        try:
            return parse_with_formats(self, od, loc)
        finally:
            self.op_stack.pop()

    def parse_generic_operation(self, loc: Location) -> Operation:
        t = self.next()
        name = unescape_string(t.text)
        od = self.registry.get(name)
        if od is None:
            raise error(self.loc(t.start), f"unknown operation '{name}': xesim does not model this op")
        self.op_stack.append(od.name)
        try:
            refs: list[tuple[str, Location]] = []
            self.expect("(")
            if not self.at_punct(")"):
                refs = self.parse_comma_list(self.parse_ssa_use_ref)
            self.expect(")")
            successors: list[Block] = []
            if self.at_punct("["):
                successors = self.parse_comma_list(self.parse_successor_ref, "[", "]")
            props: dict[str, A.Attribute] = {}
            if self.accept("<"):
                props = self.parse_attr_dict_entries()
                self.expect(">")
            regions: list[Region] = []
            if self.at_punct("(") :
                self.next()
                while True:
                    regions.append(self.parse_region(isolated="isolated_from_above" in od.traits))
                    if not self.accept(","):
                        break
                self.expect(")")
            attrs: dict[str, A.Attribute] = {}
            if self.at_punct("{"):
                attrs = self.parse_attr_dict_entries()
            self.expect(":")
            ftype_loc = self.loc()
            ftype = self.parse_type()
            if not isinstance(ftype, T.FunctionType):
                raise error(ftype_loc, "expected function type")
            if len(ftype.inputs) != len(refs):
                raise error(ftype_loc, f"expected {len(refs)} operand types but had {len(ftype.inputs)}")
            attrs.update(props)
            st = OpState(od, loc)
            st.attrs = attrs
            operands = [self.resolve_value(n, ty, l) for (n, l), ty in zip(refs, ftype.inputs, strict=True)]
            return build_operation(self, st, operands=operands, result_types=list(ftype.results),
                                   regions=regions, successors=successors)
        finally:
            self.op_stack.pop()

    def parse_ssa_use_ref(self) -> tuple[str, Location]:
        t = self.next()
        if t.kind != "percent":
            raise self.fail("expected SSA operand" + self._found(t), t.start)
        name = t.text[1:]
        nt = self.peek()
        if nt.kind == "hash" and nt.start == t.end:
            self.next()
            name = f"{name}#{nt.text[1:]}"
        return name, self.loc(t.start)

    def parse_successor_ref(self) -> Block:
        t = self.next()
        if t.kind != "caret":
            raise self.fail("expected block name" + self._found(t), t.start)
        return self.lookup_block(t.text[1:], self.loc(t.start))

    # ================================================================== regions
    def parse_region(self, isolated: bool = False, entry_args: list[tuple[str, T.Type, Location]] | None = None) -> Region:
        """Parse ``{ ... }``.  ``entry_args`` are (name, type, loc) defined by the op (e.g. a loop IV)."""
        lex = self.lex
        m = _LBRACE.match(self.source.text, lex.pos) if lex._peeked is None and self.fast else None
        if m is not None:
            lex.reset(m.end())
        else:
            self.expect("{", "to begin a region")
        region = Region()
        self.push_region_scope(isolated)
        try:
            # With no entry arguments the entry block may still carry a label (`^bb0:`), as in MLIR.
            if entry_args is not None and (entry_args or self.peek().kind != "caret"):
                entry = Block()
                region.add_block(entry)
                for name, ty, aloc in entry_args:
                    arg = entry.add_arg(ty, name, aloc)
                    self.define_value(name, arg, aloc)
                if (_CARET_AHEAD.match(self.source.text, lex.pos) is not None if lex._peeked is None
                        else lex._peeked.kind == "caret"):
                    raise self.fail("invalid block name in region with named arguments")
                self._parse_block_body(entry)
            if not self.at_punct("}"):
                if self.peek().kind != "caret" and entry_args is None:
                    entry = Block()
                    region.add_block(entry)
                    self._parse_block_body(entry)
                while self.peek().kind == "caret":
                    region.add_block(self._parse_block())
                if entry_args == [] and region.blocks[0].args:  # a labeled entry block
                    raise error(region.blocks[0].loc or self.loc(),
                                "entry block must have 0 arguments to match the op's signature")
            self.expect("}", "to end region")
        except DiagnosticError:
            self.pop_region_scope(isolated, check=False)
            raise
        self.pop_region_scope(isolated)
        return region

    def _parse_block(self) -> Block:
        t = self.next()
        name = t.text[1:]
        sc = self.scope
        fwd = sc.block_forward_stack[-1]
        if name in sc.blocks_stack[-1]:
            raise self.fail(f"redefinition of block '^{name}'", t.start)
        if name in fwd:
            block = fwd.pop(name)[0]
        else:
            block = Block(name)
        block.label = name
        block.loc = self.loc(t.start)
        sc.blocks_stack[-1][name] = block
        if self.accept("("):
            if not self.at_punct(")"):
                while True:
                    at = self.next()
                    if at.kind != "percent":
                        raise self.fail("expected block argument name" + self._found(at), at.start)
                    self.expect(":")
                    ty = self.parse_type()
                    self._skip_trailing_loc()
                    arg = block.add_arg(ty, at.text[1:], self.loc(at.start))
                    self.define_value(at.text[1:], arg, self.loc(at.start))
                    if not self.accept(","):
                        break
            self.expect(")")
        self.expect(":", "after block name")
        self._parse_block_body(block)
        return block

    def _parse_block_body(self, block: Block) -> None:
        lex = self.lex
        text = self.source.text
        fast = self.fast
        while True:
            if fast and lex._peeked is None:
                m = _OP_HEAD_WS.match(text, lex.pos)
                if m is not None:  # the next token starts an op head (as parse_operation would find)
                    block.append(self._parse_headed_operation(m))
                    continue
            t = self.peek()
            if t.kind == "caret" or t.is_punct("}"):
                return
            if t.kind == "eof":
                raise self.fail("expected '}' to end region, found end of file")
            block.append(self.parse_operation())

    # ================================================================== types
    def parse_type(self) -> T.Type:
        t = self.peek()
        ty = self.parse_optional_type()
        if ty is None:
            raise self.fail("expected type" + self._found(t))
        return ty

    def parse_optional_type(self) -> T.Type | None:
        t = self.peek()
        kind = t.kind
        if (kind == "excl" or kind == "bare" and (t.text == "vector" or t.text == "memref")) and self.fast:
            # shaped and dialect types: memoised by their spelling (as in xesim.ir.fastformat)
            m = _TYPE_TEXT.match(self.source.text, t.start)
            if m is not None:
                key = m.group()
                ty = self.type_memo.get(key)
                if ty is not None:
                    self.lex.reset(m.end())
                    return ty
                ty = self._parse_optional_type(t)
                if ty is not None and self.lex.pos == m.end():
                    self.type_memo[key] = ty
                return ty
        return self._parse_optional_type(t)

    def _parse_optional_type(self, t: Token) -> T.Type | None:
        if t.kind == "bare":
            text = t.text
            simple = _SIMPLE_TYPES.get(text)
            if simple is not None:
                self.next()
                return simple
            m = _INT_TYPE.match(text)
            if m:
                self.next()
                width = int(m.group(2))
                if width == 0 or width > 16777215:
                    raise self.fail(f"invalid integer width {width}", t.start)
                return T.IntegerType(width, m.group(1) or "")
            if text == "vector":
                return self._parse_vector_type()
            if text == "memref":
                return self._parse_memref_type()
            if text == "tuple":
                self.next()
                self.expect("<")
                types = [] if self.at_punct(">") else self.parse_comma_list(self.parse_type)
                self.expect(">")
                return T.TupleType(tuple(types))
            if text in ("tensor", "complex"):
                raise self.fail(f"'{text}' types are not supported by xesim", t.start)
            return None
        if t.kind == "excl":
            return self._parse_dialect_type()
        if t.kind == "punct" and t.text == "(":
            return self._parse_function_type()
        return None

    def _parse_function_type(self) -> T.FunctionType:
        self.expect("(")
        inputs = [] if self.at_punct(")") else self.parse_comma_list(self.parse_type)
        self.expect(")")
        self.expect("->", "in function type")
        results = self.parse_function_result_types()
        return T.FunctionType(tuple(inputs), tuple(results))

    def parse_function_result_types(self) -> list[T.Type]:
        if self.at_punct("("):
            save = self.lex.pos
            self.next()
            if self.accept(")"):
                if self.at_punct("->"):  # a function type as the single result
                    self.lex.reset(save)
                    return [self.parse_type()]
                return []
            types = self.parse_comma_list(self.parse_type)
            self.expect(")")
            if self.at_punct("->"):
                self.lex.reset(save)
                return [self.parse_type()]
            return types
        return [self.parse_type()]

    def _parse_dims(self, allow_dynamic: bool, allow_scalable: bool = False) -> tuple[list[int], list[bool]]:
        """Parse a dimension-list prefix ``4x?x[8]x`` (a ``dims`` token; a leading zero-sized dimension such as
        ``0x16xf32`` is lexed as a hex integer and split here at character level)."""
        t = self.peek()
        if t.kind == "dims":
            self.next()
            pos = t.start
            text = t.text
        elif t.kind == "int" and t.text.startswith("0x"):
            pos = t.start
            m = _DIM_RE_ALL.match(self.source.text, pos)
            text = m.group() if m else ""
            self.lex.reset(pos + len(text))
        else:
            return [], []
        dims: list[int] = []
        scal: list[bool] = []
        for d in _DIM_ITEM.findall(text):
            if d == "?":
                if not allow_dynamic:
                    raise self.fail("expected static shape", pos)
                dims.append(T.DYNAMIC)
                scal.append(False)
            elif d.startswith("["):
                if not allow_scalable:
                    raise self.fail("unexpected scalable dimension", pos)
                dims.append(int(d[1:-1]))
                scal.append(True)
            else:
                dims.append(int(d))
                scal.append(False)
        return dims, scal

    def _parse_vector_type(self) -> T.VectorType:
        start = self.next().start
        self.expect("<")
        dims, scal = self._parse_dims(allow_dynamic=False, allow_scalable=True)
        elem = self.parse_type()
        self.expect(">")
        if any(d == 0 for d in dims):
            raise self.fail("vector types must have positive constant sizes", start)
        return T.VectorType(tuple(dims), elem, tuple(scal) if any(scal) else ())

    def _parse_memref_type(self) -> T.Type:
        self.next()
        self.expect("<")
        if self.accept("*"):
            xt = self.next()
            if not (xt.kind == "bare" and xt.text.startswith("x")):
                raise self.fail("expected 'x' in unranked memref type", xt.start)
            # the element type may be glued to the 'x' (memref<*xf32>)
            self.lex.reset(xt.start + 1)
            elem = self.parse_type()
            space = None
            if self.accept(","):
                space = self.parse_attribute()
            self.expect(">")
            return T.UnrankedMemRefType(elem, space)
        dims, _ = self._parse_dims(allow_dynamic=True)
        elem = self.parse_type()
        layout = None
        space = None
        if self.accept(","):
            a = self.parse_attribute()
            if isinstance(a, (A.StridedLayoutAttr, A.AffineMapAttr)):
                layout = a
                if self.accept(","):
                    space = self.parse_attribute()
            else:
                space = a
        self.expect(">")
        if layout is not None and isinstance(layout, A.AffineMapAttr) and layout.map.is_identity:
            layout = None
        return T.MemRefType(tuple(dims), elem, layout, space)

    def _balanced_body(self) -> str:
        """Raw text of a ``<...>`` body (balanced brackets), consuming it; returns text including <>."""
        text = self.source.text
        start = self.lex.skip_ws()
        if start >= len(text) or text[start] != "<":
            return ""
        depth = 0
        i = start
        while i < len(text):
            c = text[i]
            if c == '"':
                j = i + 1
                while j < len(text) and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                i = j
            elif c in "<([{":
                depth += 1
            elif c in ">)]}":
                if c == ">" and text[i - 1] == "-":
                    i += 1
                    continue
                depth -= 1
                if depth == 0:
                    self.lex.reset(i + 1)
                    return text[start : i + 1]
            i += 1
        raise self.fail("unbalanced '<' in dialect type or attribute", start)

    def _parse_dialect_type(self) -> T.Type:
        t = self.next()
        name = t.text[1:]
        if name in self.type_aliases:
            return self.type_aliases[name]
        if name == "gpu.async.token":
            return T.AsyncTokenType()
        if name == "xegpu.nbarrier":
            return T.NbarrierType()
        if name == "xegpu.tensor_desc":
            return self._parse_tensor_desc()
        if name == "xegpu.mem_desc":
            return self._parse_mem_desc()
        if name == "xetile.tile":
            return self._parse_xetile_tile()
        if name == "llvm.ptr":
            return self._parse_llvm_ptr()
        if "." not in name:
            raise self.fail(f"undefined symbol alias id '{name}'", t.start)
        dialect, rest = name.split(".", 1)
        if dialect in ("xegpu", "gpu", "xetile"):
            raise self.fail(f"unknown type '!{name}'", t.start)
        return T.OpaqueType(dialect, "." + rest + self._balanced_body())

    def _parse_llvm_ptr(self) -> T.LLVMPointerType:
        """``!llvm.ptr`` or ``!llvm.ptr<N>`` (upstream-xegpu-xevm.md §4.13)."""
        if not self.at_punct("<"):
            return T.LLVMPointerType(0)
        self.expect("<")
        t = self.peek()
        if t.kind != "int":
            raise self.fail("expected an integer address space in '!llvm.ptr<...>'", t.start)
        self.next()
        self.expect(">")
        return T.LLVMPointerType(int(t.text, 0))

    def _parse_tensor_desc(self) -> T.TensorDescType:
        self.expect("<")
        dims, _ = self._parse_dims(allow_dynamic=False)
        elem = self.parse_type()
        encoding = None
        layout = None
        while self.accept(","):
            aloc = self.loc()
            a = self.parse_attribute()
            if isinstance(a, A.DialectAttr) and a.name in (
                "block_tdesc_attr", "scatter_tdesc_attr", "scattered_tdesc_attr", "tdesc_attr"
            ):
                encoding = a
            elif isinstance(a, A.DialectAttr) and a.name in ("layout", "slice", "sg_map"):
                layout = a
            else:
                raise error(aloc, f"unexpected attribute in tensor_desc type: {a}")
        self.expect(">")
        return T.TensorDescType(tuple(dims), elem, encoding, layout)

    def _parse_xetile_tile(self) -> T.TileType:
        """``!xetile.tile<dims x elem[, encoding]>`` (shared/spec/xetile.md §2.1; encodings in xetile_attrs)."""
        from xesim.ir.xetile_attrs import parse_tile_encoding

        self.expect("<")
        dims, _ = self._parse_dims(allow_dynamic=True)
        elem = self.parse_type()
        encoding = parse_tile_encoding(self) if self.accept(",") else None
        self.expect(">")
        return T.TileType(tuple(dims), elem, encoding)

    def _parse_mem_desc(self) -> T.MemDescType:
        self.expect("<")
        dims, _ = self._parse_dims(allow_dynamic=False)
        elem = self.parse_type()
        layout = None
        if self.accept(","):
            layout = self.parse_attribute()
        self.expect(">")
        return T.MemDescType(tuple(dims), elem, layout)

    # ================================================================== attributes
    def parse_attr_dict_entries(self) -> dict[str, A.Attribute]:
        """``{name = attr, unitname, ...}`` -> dict."""
        self.expect("{")
        out: dict[str, A.Attribute] = {}
        if self.accept("}"):
            return out
        while True:
            t = self.next()
            if t.kind == "bare":
                key = t.text
            elif t.kind == "string":
                key = unescape_string(t.text)
            else:
                raise self.fail("expected attribute name" + self._found(t), t.start)
            if key in out:
                raise self.fail(f"duplicate key '{key}' in dictionary attribute", t.start)
            if self.accept("="):
                out[key] = self.parse_attribute()
            else:
                out[key] = A.UnitAttr()
            if not self.accept(","):
                break
        self.expect("}")
        return out

    def parse_attribute(self, type_hint: T.Type | None = None) -> A.Attribute:
        t = self.peek()
        a = self.parse_optional_attribute(type_hint)
        if a is None:
            raise self.fail("expected attribute value" + self._found(t))
        return a

    def parse_optional_attribute(self, type_hint: T.Type | None = None) -> A.Attribute | None:
        t = self.peek()
        k = t.kind
        if k == "int" or k == "float" or t.is_punct("-"):
            return self._parse_number_attr(type_hint)
        if k == "string":
            self.next()
            s = A.StringAttr(unescape_string(t.text))
            if self.at_punct(":") and type_hint is None:
                # typed string attributes are rare; keep the string
                pass
            return s
        if k == "bare":
            text = t.text
            if text in ("true", "false"):
                self.next()
                return A.BoolAttr(text == "true")
            if text == "unit":
                self.next()
                return A.UnitAttr()
            if text == "dense":
                return self._parse_dense()
            if text == "array":
                return self._parse_dense_array()
            if text == "affine_map":
                return self._parse_affine_map_attr()
            if text == "strided":
                return self._parse_strided()
            if text == "loc":
                return self.parse_location()
            if text in ("dense_resource", "sparse", "distinct", "affine_set"):
                raise self.fail(f"'{text}' attributes are not supported by xesim", t.start)
            ty = self.parse_optional_type()
            if ty is not None:
                return A.TypeAttr(ty)
            return None
        if k == "at":
            return self._parse_symbol_ref()
        if k == "hash":
            return self._parse_hash_attr()
        if k == "excl":
            return A.TypeAttr(self.parse_type())
        if k == "punct":
            if t.text == "[":
                self.next()
                elems = [] if self.at_punct("]") else self.parse_comma_list(self.parse_attribute)
                self.expect("]")
                return A.ArrayAttr(tuple(elems))
            if t.text == "{":
                entries = self.parse_attr_dict_entries()
                return A.DictAttr(tuple(entries.items()))
            if t.text == "(":
                return A.TypeAttr(self.parse_type())
        return None

    def _parse_number_attr(self, type_hint: T.Type | None) -> A.Attribute:
        start = self.peek().start
        neg = self.accept("-")
        t = self.next()
        if t.kind not in ("int", "float"):
            raise self.fail("expected integer or float literal" + self._found(t), t.start)
        ty = type_hint
        if self.at_punct(":"):
            self.next()
            ty = self.parse_type()
        if ty is None:
            ty = T.I64 if t.kind == "int" else T.F64
        if isinstance(ty, T.FloatType):
            if t.kind == "int" and t.text.startswith("0x"):
                if neg:
                    raise self.fail("hexadecimal float literal should not have a leading minus", start)
                value = float_from_hex(t.text, ty, self, t.start)
                bits = int(t.text, 16)
                return A.FloatAttr(value, ty, bits if _is_nan_bits(bits, ty) else None)
            val = float(t.text) * (-1 if neg else 1)
            return A.FloatAttr(A.round_to_type(val, ty), ty)
        if t.kind == "float":
            raise self.fail(f"floating point value not valid for specified type '{ty}'", start)
        val = int_literal(t.text) * (-1 if neg else 1)
        if isinstance(ty, (T.IntegerType, T.IndexType)):
            val = fit_int(val, ty, self, start)
        else:
            raise self.fail(f"integer literal not valid for specified type '{ty}'", start)
        return A.IntegerAttr(val, ty)

    def _parse_symbol_ref(self) -> A.SymbolRefAttr:
        path = []
        while True:
            t = self.next()
            if t.kind != "at":
                raise self.fail("expected symbol reference" + self._found(t), t.start)
            body = t.text[1:]
            path.append(unescape_string(body) if body.startswith('"') else body)
            if not self.accept("::"):
                break
        return A.SymbolRefAttr(tuple(path))

    def _parse_hash_attr(self) -> A.Attribute:
        from xesim.ir.dialect_attrs import parse_dialect_attr

        t = self.next()
        name = t.text[1:]
        if name in self.attr_aliases:
            return self.attr_aliases[name]
        if "." not in name:
            # pretty dialect attribute without a mnemonic: #gpu<dim x>, or an unknown alias
            if self.at_punct("<") and self.peek().start == t.end:
                return A.OpaqueAttr(t.text + self._balanced_body())
            raise self.fail(f"undefined symbol alias id '{name}'", t.start)
        return parse_dialect_attr(self, t, name)

    def _parse_dense(self) -> A.DenseElementsAttr:
        start = self.next().start
        self.expect("<")
        hex_text = None
        literal: Any = None
        if self.peek().kind == "string":
            hex_text = unescape_string(self.next().text)
        elif not self.at_punct(">"):
            literal = self._parse_dense_literal()
        self.expect(">")
        self.expect(":", "after dense literal")
        tloc = self.loc()
        ty = self.parse_type()
        if not isinstance(ty, (T.VectorType, T.MemRefType)) and not T.is_scalar(ty):
            raise error(tloc, f"dense attribute type must be a vector, got '{ty}'")
        from xesim.ir.dense import build_dense

        return build_dense(self, start, ty, literal, hex_text)

    def _parse_dense_literal(self) -> Any:
        t = self.peek()
        if t.is_punct("["):
            self.next()
            items = [] if self.at_punct("]") else self.parse_comma_list(self._parse_dense_literal)
            self.expect("]")
            return items
        if t.is_punct("("):
            raise self.fail("complex dense literals are not supported", t.start)
        neg = self.accept("-")
        t = self.next()
        if t.kind in ("int", "float"):
            return ("num", t.text, neg, t.start)
        if t.kind == "bare" and t.text in ("true", "false") and not neg:
            return ("bool", t.text == "true", False, t.start)
        raise self.fail("expected element literal of primitive type" + self._found(t), t.start)

    def _parse_dense_array(self) -> A.DenseArrayAttr:
        self.next()
        self.expect("<")
        et = self.parse_type()
        if not isinstance(et, (T.IntegerType, T.FloatType)):
            raise self.fail("expected integer or float type in array<...>")
        vals: list[Any] = []
        if self.accept(":"):
            while True:
                a = self._parse_number_or_bool(et)
                vals.append(a)
                if not self.accept(","):
                    break
        self.expect(">")
        return A.DenseArrayAttr(et, tuple(vals))

    def _parse_number_or_bool(self, et: T.Type) -> Any:
        t = self.peek()
        if t.kind == "bare" and t.text in ("true", "false"):
            self.next()
            return 1 if t.text == "true" else 0
        start = t.start
        neg = self.accept("-")
        t = self.next()
        if t.kind not in ("int", "float"):
            raise self.fail("expected integer or float literal" + self._found(t), t.start)
        if isinstance(et, T.FloatType):
            mag = float(int_literal(t.text)) if t.kind == "int" else float(t.text)
            return A.round_to_type(mag * (-1 if neg else 1), et)
        if t.kind == "float":
            raise self.fail("expected integer literal", start)
        return fit_int(int_literal(t.text) * (-1 if neg else 1), et, self, start)  # type: ignore[arg-type]

    def _parse_affine_map_attr(self) -> A.AffineMapAttr:
        self.next()
        self.expect("<")
        pos = self.lex.skip_ws()
        try:
            amap, end = parse_affine_map(self.source.text, pos)
        except AffineParseError as exc:
            raise self.fail(str(exc), exc.offset) from None
        self.lex.reset(end)
        self.expect(">")
        return A.AffineMapAttr(amap)

    def _parse_strided(self) -> A.StridedLayoutAttr:
        self.next()
        self.expect("<")
        self.expect("[")
        strides: list[int] = []
        if not self.at_punct("]"):
            strides = self.parse_comma_list(self._parse_int_or_question)
        self.expect("]")
        offset = 0
        if self.accept(","):
            self.expect_keyword("offset")
            self.expect(":")
            offset = self._parse_int_or_question()
        self.expect(">")
        return A.StridedLayoutAttr(tuple(strides), offset)

    def _parse_int_or_question(self) -> int:
        if self.accept("?"):
            return T.DYNAMIC
        return self.parse_integer()

    def parse_integer(self) -> int:
        neg = self.accept("-")
        t = self.next()
        if t.kind != "int":
            raise self.fail("expected integer value" + self._found(t), t.start)
        v = int_literal(t.text)
        return -v if neg else v


def _is_nan_bits(bits: int, ty: T.Type) -> bool:
    import math

    return math.isnan(float_from_bits(bits, ty))


# Young tracked objects above which a successful parse promotes its IR to the oldest GC generation.
_PROMOTE_ABOVE = 50_000


def parse_source(text: str, name: str = "<stdin>", fragment: bool = False, registry: Registry | None = None) -> Module:
    """Parse MLIR text into a :class:`Module` (raises DiagnosticError).

    The cyclic garbage collector is paused while the IR is built: the parse allocates many long-lived
    container objects (and no garbage cycles), and collections triggered by them would rescan the growing
    IR over and over.  A large IR is then moved straight to the oldest generation (``gc.freeze()`` +
    ``gc.unfreeze()``), where the collector would move it after two more full scans anyway."""
    p = Parser(SourceFile(name, text), registry, fragment)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        module = p.parse_module()
    except RecursionError:
        if gc_was_enabled:
            gc.enable()
        # beyond the recursion limit (the CLI and API parse with room for xesim.deep.SUPPORTED_DEPTH levels)
        raise error(Location(p.source, min(p.lex.pos, len(text))),
                    f"nesting too deep to parse (Python's recursion limit is {sys.getrecursionlimit()}; "
                    "xesim's command line and API allow about 10,000 levels and more)") from None
    except BaseException:
        if gc_was_enabled:
            gc.enable()
        raise
    if gc_was_enabled:
        if gc.get_count()[0] > _PROMOTE_ABOVE:
            gc.freeze()
            gc.unfreeze()
        gc.enable()
    if fragment:
        module.fragment_args = p.fragment_args  # type: ignore[attr-defined]
    return module
