"""Directives for the affine dialect (MLIR ``AffineOps.cpp``: ``parseDimAndSymbolList`` /
``printDimAndSymbolList``).

``custom<AffineMapAndOperands>($map, $operands)``: an affine map (``#alias`` or inline ``affine_map<...>``)
applied to ``(dims)[symbols]``; every operand has type ``index`` and the ``[symbols]`` list is printed only
when the map has symbols.
"""

from __future__ import annotations

from typing import Any

from xesim.diagnostics import error
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.directives.base import Directive, directive


@directive("AffineMapAndOperands")
class AffineMapAndOperands(Directive):
    """``#map(%d0, %d1)[%s0]`` for affine.apply / affine.min / affine.max."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        map_name, operands_name = args[0].name, args[1].name
        loc = p.loc()
        a = p.parse_attribute()
        if not isinstance(a, A.AffineMapAttr):
            raise error(loc, f"expected affine map attribute, got '{a}'")
        dims = p.parse_comma_list(p.parse_ssa_use_ref, "(", ")")
        syms: list = []
        if p.at_punct("["):
            syms = p.parse_comma_list(p.parse_ssa_use_ref, "[", "]")
        amap = a.map
        if amap.num_dims != len(dims) or amap.num_syms != len(syms):
            raise error(st.loc, "dimension or symbol index mismatch")
        st.attrs[map_name] = a
        st.operand_refs[operands_name] = dims + syms
        st.types[operands_name] = [T.INDEX] * (len(dims) + len(syms))

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        a = op.attributes.get(args[0].name)
        operands = op.operand_group(args[1].name)
        n_dims = a.map.num_dims if isinstance(a, A.AffineMapAttr) else len(operands)
        text = pr.attr_text(a) if a is not None else ""
        text += "(" + ", ".join(pr.value_name(v) for v in operands[:n_dims]) + ")"
        if len(operands) > n_dims:
            text += "[" + ", ".join(pr.value_name(v) for v in operands[n_dims:]) + "]"
        fp.element(text)
