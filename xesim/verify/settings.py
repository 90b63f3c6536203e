"""Settings of the verifier that the spec leaves to the user (shared/spec/xetile.md §5 Q6 and Q16, and one
upstream memref rule the specs do not state).

They are target parameters (``isa/targets/<target>.toml``, section ``[xetile.verify]``), so one file holds their
defaults, sources and evidence, ``--explain-assumptions`` lists them, and a run changes them like any parameter
(``--target-param xetile.verify.strict=false``):

* ``xetile.verify.strict`` (default true, §5 Q16): the checks the spec recommends beyond IMEX's verifier (a
  ``load_tile`` result of another shape than the tile, a ``transpose`` that is not a permutation, ...) are errors;
  false makes each a warning — IMEX accepts such IR — and the executor refuses to run the op (a located error,
  :func:`xesim.verify.rules_xetile.recommended_problem`), never a meaningless value;
* ``xetile.verify.imex_quirks`` (default true, §5 Q6): ``init_tile`` on an integer source checks the strides as
  IMEX does (a column-major tile needs exactly ``[1, S[1]]``); false checks the layout the strides describe;
* ``verify.subview_result_layout`` (default ``exact``): ``memref.subview``'s result type must carry the layout its
  operands give (MLIR's SubViewOp verifier, "mismatch of result layout"); ``operands`` makes a result layout that
  differs (e.g. ``strided<[1]>`` for a view at offset 5) a warning, and the view is what the operands describe.
  Issue 30 reports today's upstream accepting such a subview; shared/spec states neither reading.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields
from typing import Any

#: field name -> target parameter path
PARAMS = {"xetile_strict": "xetile.verify.strict", "xetile_imex_quirks": "xetile.verify.imex_quirks",
          "subview_result_layout": "verify.subview_result_layout"}


@dataclass(frozen=True)
class VerifySettings:
    """The verifier's settings (module docstring); build them with :meth:`from_target`."""

    xetile_strict: bool
    xetile_imex_quirks: bool
    subview_result_layout: str = "exact"

    @classmethod
    def from_target(cls, target: Any) -> VerifySettings:
        """The settings a target holds (reading them marks them used for ``--explain-assumptions``)."""
        return cls(**{f.name: (str if f.type == "str" else bool)(target.get(PARAMS[f.name])) for f in fields(cls)})


@functools.cache
def default_settings() -> VerifySettings:
    """The default target's settings (the values of ``isa/targets/pvc.toml``)."""
    from xesim.hw.params import load_target

    return VerifySettings.from_target(load_target("pvc"))
