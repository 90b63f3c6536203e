"""Custom directives of the LLVM-dialect ops XeVM kernels use (shared/spec/upstream-xegpu-xevm.md §4.13).

* ``custom<LLVMGEPIndices>($dynamicIndices, $rawConstantIndices)``: ``getelementptr``'s index list ``[0, %i]``;
  SSA entries become operands (their types come from the functional type), literals the i32 list, where a
  dynamic entry is LLVM's ``kDynamicIndex`` (INT32_MIN).
* ``custom<LLVMDereferenceable>($dereferenceable)``: ``inttoptr``'s optional ``dereferenceable<bytes = N>`` hint
  (kept verbatim, no functional effect).
* ``custom<LLVMAlignmentKeyword>()``: the keyword spellings of ``alignment`` after the strict-properties switch
  (``alignment = 4`` / ``alignment(4)``, whose exact upstream form could not be read: §4.13, §6.2 item 0); the
  value is kept as the ``alignment`` property, printed in ``<{...}>``.
"""

from __future__ import annotations

from typing import Any

from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.directives.base import Directive, directive

DYNAMIC_GEP_INDEX = -(2**31)  # LLVM::GEPOp::kDynamicIndex


@directive("LLVMGEPIndices")
class LLVMGEPIndices(Directive):
    def parse(self, p: Any, st: Any, args: list) -> None:
        refs: list = []
        raw: list[int] = []
        if not p.at_punct("]"):
            while True:
                if p.peek().kind == "percent":
                    refs.append(p.parse_ssa_use_ref())
                    raw.append(DYNAMIC_GEP_INDEX)
                else:
                    raw.append(p.parse_integer())
                if not p.accept(","):
                    break
        st.operand_refs[args[0].name] = refs
        st.attrs[args[1].name] = A.DenseArrayAttr(T.I32, tuple(raw))

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        dyn = iter(op.operand_group(args[0].name))
        raw = A.int_list(op.attributes.get(args[1].name)) or []
        fp.element(", ".join(pr.value_name(next(dyn)) if r == DYNAMIC_GEP_INDEX else str(r) for r in raw))
        fp.should_space = False


@directive("LLVMDereferenceable")
class LLVMDereferenceable(Directive):
    def parse(self, p: Any, st: Any, args: list) -> None:
        if p.accept_keyword("dereferenceable"):
            st.attrs[args[0].name] = A.StringAttr(p._balanced_body())

    def present(self, p: Any, st: Any, args: list) -> bool:
        return p.at_keyword("dereferenceable")

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        a = op.attributes.get(args[0].name)
        if isinstance(a, A.StringAttr):
            fp.element("dereferenceable" + a.value)

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return args[0].name in op.attributes


@directive("LLVMAlignmentKeyword")
class LLVMAlignmentKeyword(Directive):
    def parse(self, p: Any, st: Any, args: list) -> None:
        if not p.accept_keyword("alignment"):
            return
        if p.accept("("):
            n = p.parse_integer()
            p.expect(")")
        else:
            p.expect("=")
            n = p.parse_integer()
        st.attrs["alignment"] = A.IntegerAttr(n, T.I64)

    def present(self, p: Any, st: Any, args: list) -> bool:
        return p.at_keyword("alignment")

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        return None

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return False
