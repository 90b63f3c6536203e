"""MLIR printer: every op in its custom form (first printable format of its definition).

``print(parse(x))`` is a fixed point: source SSA names and block labels are preserved (fresh names are
generated only for unnamed values), attribute and type aliases of the input are re-emitted at the top.
"""

from __future__ import annotations

import re
from typing import Any

from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.core import Block, Module, Operation, Region, Value
from xesim.ir.formatengine import FormatPrinter, can_print_with, is_default, print_with_format
from xesim.ir.opdefs import Registry, load_registry
from xesim.ir.parser import DEFAULT_DIALECT

INDENT = "  "
# A region's text stands in its op's text as "\x00<k>\x01" until the module is printed: each op's text then holds
# its own lines only, and joining the pieces at the end is linear in the output however deep regions nest
# (printed strings escape control characters, so the markers cannot occur in them).
_REGION_REF = re.compile("\x00([0-9]+)\x01")


class Printer:
    def __init__(self, registry: Registry | None = None, module: Module | None = None) -> None:
        self.registry = registry or load_registry()
        self.indent = 0
        self.fresh = 0
        self.block_ids: dict[int, str] = {}
        self.op_stack: list[str] = []
        self.attr_alias_of: dict[A.Attribute, str] = {}
        self.type_alias_of: dict[T.Type, str] = {}
        self.region_texts: list[str] = []  # the texts the markers of region_text refer to
        self.keep_defaults = False  # print optional groups of attributes equal to their defaults (see op_text)
        if module is not None:
            for name, a in module.attr_aliases.items():
                self.attr_alias_of.setdefault(a, name)
            for name, t in module.type_aliases.items():
                self.type_alias_of.setdefault(t, name)

    # ------------------------------------------------------------------ leaves
    def value_name(self, v: Value) -> str:
        if v.name is None:
            v.name = str(self.fresh)
            self.fresh += 1
        name = v.name
        return "%" + name

    def block_name(self, b: Block) -> str:
        if b.label is None:
            b.label = f"bb{len(self.block_ids)}"
        self.block_ids[id(b)] = b.label
        return "^" + b.label

    def type_text(self, t: T.Type) -> str:
        alias = self.type_alias_of.get(t)
        if alias is not None:
            return "!" + alias
        if self.attr_alias_of and isinstance(t, (T.TensorDescType, T.MemRefType, T.MemDescType)):
            return _type_with_aliases(self, t)
        return str(t)

    def attr_text(self, a: A.Attribute, elide: bool = False) -> str:
        if elide and isinstance(a, (A.IntegerAttr, A.FloatAttr)):
            return A.attr_str(a, elide=True)
        alias = self.attr_alias_of.get(a)
        if alias is not None:
            return "#" + alias
        if isinstance(a, A.TypeAttr):
            return self.type_text(a.type)
        if isinstance(a, A.ArrayAttr):
            return "[" + ", ".join(self.attr_text(e, elide=True) for e in a.elements) + "]"
        if isinstance(a, A.DictAttr):
            return self.attr_dict_text(list(a.entries))
        if isinstance(a, A.DialectAttr) and a.has_brackets and self.attr_alias_of:
            body = ", ".join(self.attr_text(v) if k is None else f"{k} = {self.attr_text(v)}" for k, v in a.params)
            return f"#{a.dialect}.{a.name}<{body}>"
        return A.attr_str(a, elide)

    def attr_dict_text(self, entries: list[tuple[str, A.Attribute]]) -> str:
        parts = []
        for k, v in entries:
            key = k if _is_bare(k) else A.StringAttr(k).__str__()
            parts.append(key if isinstance(v, A.UnitAttr) else f"{key} = {self.attr_text(v)}")
        return "{" + ", ".join(parts) + "}"

    def remaining_attrs(self, op: Operation, printed: set[str], props_separately: bool) -> list:
        od = op.opdef
        out = []
        for k, v in op.attributes.items():
            if k in printed:
                continue
            ad = od.attr_by_name.get(k) if od else None
            if ad is not None:
                if props_separately:
                    continue
                if is_default(ad, v):
                    continue
            out.append((k, v))
        return out

    def remaining_props(self, op: Operation, printed: set[str]) -> list:
        od = op.opdef
        out = []
        for ad in od.attributes:
            if ad.name in printed or ad.name not in op.attributes:
                continue
            v = op.attributes[ad.name]
            if is_default(ad, v):
                continue
            out.append((ad.name, v))
        return out

    # ------------------------------------------------------------------ structure
    def region_text(self, region: Region, print_entry_args: bool = True) -> str:
        """The region, ``{`` to ``}``, as a marker that :meth:`expand` replaces by its text."""
        self.region_texts.append(self._region_lines(region, print_entry_args))
        return f"\x00{len(self.region_texts) - 1}\x01"

    def expand(self, text: str) -> str:
        """``text`` with the markers of :meth:`region_text` replaced by the regions' texts, with an explicit stack
        (regions nest to any depth)."""
        if "\x00" not in text:
            return text
        out: list[str] = []
        texts = self.region_texts
        stack = [(_REGION_REF.split(text), 0)]
        while stack:
            parts, i = stack.pop()
            while i < len(parts):
                out.append(parts[i])
                if i + 1 < len(parts):  # parts[i + 1] is a marker's number
                    stack.append((parts, i + 2))
                    parts, i = _REGION_REF.split(texts[int(parts[i + 1])]), 0
                else:
                    i += 1
        return "".join(out)

    def _region_lines(self, region: Region, print_entry_args: bool) -> str:
        if region.empty:
            return "{\n" + INDENT * self.indent + "}"
        lines = ["{"]
        self.indent += 1
        for i, block in enumerate(region.blocks):
            show_label = i > 0 or (print_entry_args and bool(block.args))
            if show_label:
                label = self.block_name(block)
                if block.args:
                    args = ", ".join(f"{self.value_name(a)}: {self.type_text(a.type)}" for a in block.args)
                    label += f"({args})"
                lines.append(INDENT * (self.indent - 1) + label + ":")
            for op in block.ops:
                lines.append(INDENT * self.indent + self.op_text(op))
        self.indent -= 1
        lines.append(INDENT * self.indent + "}")
        return "\n".join(lines)

    def op_text(self, op: Operation) -> str:
        od = op.opdef
        fp = FormatPrinter()
        if op.results:
            fp.raw(_result_head(self, op) + " = ")
        fp.raw(self.op_name(op))
        elements = None
        for cand in od.formats:
            if can_print_with(op, cand, self):
                elements = cand
                break
        if elements is None:
            elements = od.formats[0]
        op._print_format = elements  # type: ignore[attr-defined]
        self.op_stack.append(op.name)
        try:
            bare = len(fp.parts)
            print_with_format(self, op, elements, fp, set())
            if len(fp.parts) == bare and not op.results and op.attributes:
                # Nothing after the name although the op holds attributes: they all equal their defaults and
                # their optional groups were elided.  A bare name would read the next line's result name as its
                # operand when a format starts with an optional operand (`vector.print punctuation <newline>`),
                # so the attributes the op holds are printed (issue 27 item 5: fmt is a fixed point).
                self.keep_defaults = True
                try:
                    print_with_format(self, op, elements, fp, set())
                finally:
                    self.keep_defaults = False
        finally:
            self.op_stack.pop()
        return fp.text()

    def op_name(self, op: Operation) -> str:
        if op.name.startswith("builtin."):
            return op.name[len("builtin.") :]
        if self.op_stack:
            # gpu.module / gpu.func declare no default dialect upstream (mlir-opt prints gpu.return in full);
            # the parser still accepts the short names there.
            parent = self.op_stack[-1]
            dialect = DEFAULT_DIALECT.get(parent) if not parent.startswith("gpu.") else None
            if dialect and op.name.startswith(dialect + ".") and dialect != "builtin":
                short = op.name[len(dialect) + 1 :]
                if self.registry.get("builtin." + short) is None:
                    return short
        return op.name

    def module_text(self, module: Module) -> str:
        lines = []
        for name, a in module.attr_aliases.items():
            saved = self.attr_alias_of.pop(a, None)
            lines.append(f"#{name} = {self.attr_text(a)}")
            if saved is not None:
                self.attr_alias_of[a] = saved
        for name, t in module.type_aliases.items():
            saved_t = self.type_alias_of.pop(t, None)
            lines.append(f"!{name} = {self.type_text(t)}")
            if saved_t is not None:
                self.type_alias_of[t] = saved_t
        if module.fragment:
            for op in module.body.ops:
                lines.append(self.op_text(op))
        elif module.op.name == "builtin.module":
            lines.append(self.op_text(module.op))
        return self.expand("\n".join(lines) + "\n")


def _result_head(pr: Printer, op: Operation) -> str:
    """Result names as bound in MLIR: ``%a, %b``, with each run of results named ``g#0``, ``g#1``, ...
    (from a ``%g:N`` binding) printed back as ``%g:N`` (e.g. ``%base, %offset, %sizes:2, %strides:2``)."""
    parts = []
    res = op.results
    i = 0
    while i < len(res):
        name = res[i].name
        if name is not None and name.endswith("#0") and len(name) > 2:
            base = name[:-2]
            n = 1
            while i + n < len(res) and res[i + n].name == f"{base}#{n}":
                n += 1
            parts.append(f"%{base}:{n}")
            i += n
        else:
            parts.append(pr.value_name(res[i]))
            i += 1
    return ", ".join(parts)


def _has_preds(block: Block, region: Region) -> bool:
    for b in region.blocks:
        for op in b.ops:
            if block in op.successors:
                return True
    return False


def _is_bare(k: str) -> bool:
    import re

    return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", k) is not None


def _type_with_aliases(pr: Printer, t: Any) -> str:
    if isinstance(t, T.TensorDescType):
        s = f"!xegpu.tensor_desc<{T._dims(t.shape)}{pr.type_text(t.element_type)}"
        if t.encoding is not None:
            s += f", {pr.attr_text(t.encoding)}"
        if t.layout is not None:
            s += f", {pr.attr_text(t.layout)}"
        return s + ">"
    if isinstance(t, T.MemRefType):
        s = f"memref<{T._dims(t.shape)}{pr.type_text(t.element_type)}"
        if t.layout is not None:
            s += f", {pr.attr_text(t.layout)}"
        if t.memory_space is not None:
            s += f", {pr.attr_text(t.memory_space, elide=True)}"
        return s + ">"
    if isinstance(t, T.MemDescType):
        s = f"!xegpu.mem_desc<{T._dims(t.shape)}{pr.type_text(t.element_type)}"
        if t.mem_layout is not None:
            s += f", {pr.attr_text(t.mem_layout)}"
        return s + ">"
    return str(t)


def print_module(module: Module, registry: Registry | None = None) -> str:
    """The whole module as text."""
    return Printer(registry, module).module_text(module)


def print_op(op: Operation, registry: Registry | None = None) -> str:
    pr = Printer(registry)
    return pr.expand(pr.op_text(op))
