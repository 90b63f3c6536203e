"""XeGPU directives.

``custom<XeGPULegacyAttrs>()`` sits after ``attr-dict`` in formats whose legacy spelling used other attribute
kinds: it prints nothing and, when parsing, rewrites a legacy ``transpose = [1, 0]`` (an array of integers,
IMEX VC programs and the older upstream docs) into the current ``array<i64: 1, 0>`` (DenseI64ArrayAttr), so
legacy input prints in the current upstream syntax.  Everything else of the XeGPU syntax is declarative
(``isa/dialects/xegpu.toml``; offsets use ``OptionalDynamicIndexList`` / ``DynamicIndexList`` of
:mod:`xesim.ir.directives.common`).
"""

from __future__ import annotations

from typing import Any

from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.directives.base import Directive, directive

_DENSE_I64_ATTRS = ("transpose",)


@directive("XeGPULegacyAttrs")
class XeGPULegacyAttrs(Directive):
    """Normalise legacy attribute spellings after the attribute dictionaries have been parsed."""

    def parse(self, p: Any, st: Any, args: list) -> None:
        for name in _DENSE_I64_ATTRS:
            a = st.attrs.get(name)
            if isinstance(a, A.ArrayAttr) and all(isinstance(e, A.IntegerAttr) for e in a.elements):
                st.attrs[name] = A.DenseArrayAttr(T.I64, tuple(e.value for e in a.elements))

    def present(self, p: Any, st: Any, args: list) -> bool:
        return False

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        return None

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return False
