"""Directives for the arith dialect's hand-written syntaxes (MLIR ``ArithOps.cpp``):

* ``custom<ConstantValue>($value, type($result))``: ``arith.constant``'s typed value; the result type is the
  type of the value attribute (``42 : i32``, ``true``, ``1.000000e+00 : f32``, ``dense<...> : vector<..>``).
* ``custom<SelectOpType>(type($condition), type($result))``: ``arith.select``'s trailing types, ``: T``
  (condition ``i1``) or ``: vector<4xi1>, T`` (a shaped condition is printed before the result type; so is
  any other non-``i1`` condition, so that invalid IR still round-trips to the same types).
"""

from __future__ import annotations

from typing import Any

from xesim.diagnostics import error
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.directives.base import Directive, directive


def typed_attr_type(a: A.Attribute) -> T.Type | None:
    """The type carried by a typed attribute (integer, float, dense elements), else None."""
    if isinstance(a, (A.IntegerAttr, A.FloatAttr, A.DenseElementsAttr)):
        return a.type
    return None


def typed_attr_text(pr: Any, a: A.Attribute) -> str:
    """A typed attribute with its type always spelled out (MLIR prints ``5 : i64`` and ``1.0e+00 : f64``
    after ``arith.constant``; only ``i1`` booleans elide the type)."""
    text = pr.attr_text(a)
    if isinstance(a, A.IntegerAttr) and a.type == T.I64 and not text.endswith(" : i64"):
        return text + " : i64"
    if isinstance(a, A.FloatAttr) and a.type == T.F64 and not text.endswith(" : f64"):
        return text + " : f64"
    return text


@directive("ConstantValue")
class ConstantValue(Directive):
    """``arith.constant``'s value (MLIR ConstantOp: ``attr-dict $value``, result type = value type)."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        loc = p.loc()
        a = p.parse_attribute()
        ty = typed_attr_type(a)
        if ty is None:
            raise error(loc, "invalid kind of attribute specified: expected an integer, float or elements attribute")
        st.attrs[args[0].name] = a
        st.types[args[1].target] = [ty]

    def present(self, p: Any, st: Any, args: list) -> bool:
        return True

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        a = op.attributes.get(args[0].name)
        if a is not None:
            fp.element(typed_attr_text(pr, a))


@directive("SelectOpType")
class SelectOpType(Directive):
    """``: T`` or ``: C, T`` after ``arith.select`` (MLIR SelectOp::parse/print)."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        first = p.parse_type()
        if p.accept(","):
            st.types[args[0].target] = [first]
            st.types[args[1].target] = [p.parse_type()]
        else:
            st.types[args[0].target] = [T.I1]
            st.types[args[1].target] = [first]

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        cond = op.operand(args[0].target)
        res = op.results[0].type
        if cond is not None and cond.type != T.I1:  # shaped (or, in invalid IR, non-i1) condition
            fp.element(f"{pr.type_text(cond.type)}, {pr.type_text(res)}")
        else:
            fp.element(pr.type_text(res))

    def can_print(self, pr: Any, op: Any, args: list) -> bool:
        return True
