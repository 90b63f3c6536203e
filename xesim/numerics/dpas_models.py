"""DPAS numerics model parameters and named presets (spec/dpas-numerics.md §3, §5, §8).

Intel publishes the DPAS data flow but no bit-level rounding rules (spec/dpas-numerics.md, bottom line), so the
float behaviour is a *configurable model*: :class:`DpasModel` names every parameter of §5 that xesim implements,
the target file (``isa/targets/<target>.toml`` ``[dpas.numerics]``) gives its default with the evidence, and
:data:`PRESETS` holds the candidate models of the test-vector tables (spec/dpas-test-vectors.md, §8) so a run can
be repeated under another hypothesis (``model_from_target(target, "single_rounding")``).

Implemented parameters (numbers are the items of spec/dpas-numerics.md §5):

* §5.3 ``tf32_in``: tf32 operands in f32 containers — ``truncate`` (low 13 fraction bits ignored, §2.5),
  ``rne`` (rounded to nearest-even tf32), ``full`` (all 23 fraction bits used).
* §5.4 ``prod_round``: products rounded to the accumulator format (with ``rounding``) before the sum; default
  exact products with unbounded exponent.
* §5.5 ``group``: products per rounding — ``"stage"`` (OPS_PER_CHAN, the systolic stage; default), ``"all"``
  (one rounding of Src0 + every product of the instruction), or an integer (1 = per-product FMA chain, 8 = the
  NVIDIA-like 8-product block).  Groups are formed in the order the products are consumed.
* §5.6 ``align_bits``: 0 = exact adder (sticky-correct); ``n > 0`` = the terms of a group are truncated toward
  zero to ``n`` bits counted from the leading bit of the largest term before the exact sum (no sticky bit).
* §5.7 ``rounding``: per-group rounding direction ``rne``/``rna``/``rz``/``rd``/``ru``.
* §5.8 ``acc_format``: value passed between groups — ``f32`` (default) or ``dst`` (the Dst type, e.g. f16).
* §5.9 ``src0_order`` (``first``: Src0 enters stage 0; ``last``: the products are chained from zero and Src0
  is added by a final rounding) and ``stage_order`` (``forward`` 0..7 or ``reverse`` 7..0).
* §5.11 denormals: ``in_ftz_bf16``, ``in_ftz_f16``, ``in_ftz_tf32`` (subnormal A/B operands read as zero of the
  same sign), ``src0_ftz`` (a subnormal Src0 reads as zero), ``out_ftz`` (every rounded result — each group
  and the final Dst conversion — that is tiny becomes zero of the same sign), ``out_ftz_test`` (``result``:
  tiny = the rounded result is below the smallest normal; ``exact``: the exact value is).
* §5.12 ``final_rounding``: conversion of the f32 accumulator to an f16/bf16 Dst (RNE default), once per
  instruction (overflow gives infinity under RNE, IEEE 754 §7.4).
* §5.13 ``nan_bits``: the f32 bit pattern of every NaN result (canonical; 16-bit Dst gets the same NaN
  converted: sign and top payload bits kept, quiet bit set).
* §5.14 ``int_overflow``: ``wrap`` (default; D = low 32 bits of the exact result), ``saturate_stage``,
  ``saturate_final`` (per instruction) — the last two exist only to run the I1/I2 hypotheses.
* §5.15: a missing Src0 (``c=None``) is the null register, i.e. +0.

Not implemented (fixed): alignment rounding other than truncation and a sticky bit in narrow adders (§5.6),
"follows cr0 rounding mode" (§5.7), fp32 accumulator with extra bits (§5.8), tree order and the order of
products inside a stage other than increasing k (§5.9), deferred normalisation (§5.10), sign of a flushed zero
(always the operand's sign, §5.11), saturating overflow of the final conversion (§5.12), NaN payload
propagation (§5.13).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any

_ROUNDINGS = ("rne", "rna", "rz", "rd", "ru")


@dataclass(frozen=True)
class DpasModel:
    """One DPAS numerics model; field meanings in the module docstring (spec/dpas-numerics.md §5)."""

    name: str = "custom"
    tf32_in: str = "truncate"
    prod_round: bool = False
    group: int | str = "stage"
    align_bits: int = 0
    rounding: str = "rne"
    acc_format: str = "f32"
    src0_order: str = "first"
    stage_order: str = "forward"
    in_ftz_bf16: bool = True
    in_ftz_f16: bool = False
    in_ftz_tf32: bool = True
    src0_ftz: bool = False
    out_ftz: bool = False
    out_ftz_test: str = "result"
    final_rounding: str = "rne"
    nan_bits: int = 0x7FC00000
    int_overflow: str = "wrap"

    def __post_init__(self) -> None:
        def bad(field: str, value: Any, allowed: Any) -> ValueError:
            return ValueError(f"DPAS model {self.name!r}: {field} = {value!r} is not one of {allowed}")

        choices = {"tf32_in": ("truncate", "rne", "full"), "rounding": _ROUNDINGS, "final_rounding": _ROUNDINGS,
                   "acc_format": ("f32", "dst"), "src0_order": ("first", "last"),
                   "stage_order": ("forward", "reverse"), "out_ftz_test": ("result", "exact"),
                   "int_overflow": ("wrap", "saturate_stage", "saturate_final")}
        for field, allowed in choices.items():
            if getattr(self, field) not in allowed:
                raise bad(field, getattr(self, field), allowed)
        g = self.group
        if not (g in ("stage", "all") or (isinstance(g, int) and not isinstance(g, bool) and g >= 1)):
            raise bad("group", g, "'stage', 'all' or a positive integer")
        if not (isinstance(self.align_bits, int) and 0 <= self.align_bits <= 53):
            raise bad("align_bits", self.align_bits, "0 (exact) or 1..53")
        if not (isinstance(self.nan_bits, int) and (self.nan_bits >> 23) & 0xFF == 0xFF and self.nan_bits & 0x7FFFFF
                and 0 <= self.nan_bits < 1 << 32):
            raise ValueError(f"DPAS model {self.name!r}: nan_bits = {self.nan_bits:#x} is not an f32 NaN pattern")

    @functools.cached_property
    def _cache(self) -> dict:
        """Per-model cache of derived kernel configurations (not a parameter; cached_property writes the
        instance dict directly, which a frozen dataclass allows)."""
        return {}

    def params(self) -> dict[str, Any]:
        """The parameters (without the name) as a plain dict."""
        d = dataclasses.asdict(self)
        d.pop("name")
        return d


PARAM_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(DpasModel) if f.name != "name")

# M0 of spec/dpas-test-vectors.md: the vISA-literal model (stage-fused, RNE, Src0 first, exact adder, denormals kept).
_M0: dict[str, Any] = {
    "tf32_in": "truncate", "prod_round": False, "group": "stage", "align_bits": 0, "rounding": "rne",
    "acc_format": "f32", "src0_order": "first", "stage_order": "forward", "in_ftz_bf16": False,
    "in_ftz_f16": False, "in_ftz_tf32": False, "src0_ftz": False, "out_ftz": False, "out_ftz_test": "result",
    "final_rounding": "rne", "nan_bits": 0x7FC00000, "int_overflow": "wrap",
}


def _preset(**changes: Any) -> dict[str, Any]:
    return {**_M0, **changes}


#: Complete, target-independent models.  "default" is the best-evidenced model of spec/dpas-numerics.md §1 (M0 +
#: bf16/tf32 input flush; fp16 denormals kept) and equals pvc.toml's [dpas.numerics].  The others are the
#: candidate models of spec/dpas-test-vectors.md exactly as tabulated (legend M0..M8), so the tables are their
#: expected results; combine with switches through ``model_from_target(target, name, **changes)``.
PRESETS: dict[str, dict[str, Any]] = {
    "default": _preset(in_ftz_bf16=True, in_ftz_tf32=True),
    "visa_literal": _preset(),                                                      # M0
    "ftz_all": _preset(in_ftz_bf16=True, in_ftz_f16=True, in_ftz_tf32=True, out_ftz=True),  # M1
    "stage_rz": _preset(rounding="rz"),                                             # M2
    "fma_chain": _preset(group=1),                                                  # M3 (AMX TDPBF16PS-like)
    "single_rounding": _preset(group="all", acc_format="dst"),                      # M4 (and L3 for 16-bit Dst)
    "src0_last": _preset(src0_order="last"),                                        # M5
    "reverse_stages": _preset(stage_order="reverse"),                               # M6
    "narrow_adder": _preset(align_bits=27),                                         # M7: 24+3 bits, no sticky
    "nvidia_a100_like": _preset(group=8, align_bits=25, rounding="rz"),             # M8: 8-product block, 24+1, RZ
}

#: Column names of spec/dpas-test-vectors.md -> preset names.
TABLE_COLUMNS: dict[str, str] = {
    "M0": "visa_literal", "M1": "ftz_all", "M2": "stage_rz", "M3": "fma_chain", "M4": "single_rounding",
    "M5": "src0_last", "M6": "reverse_stages", "M7": "narrow_adder", "M8": "nvidia_a100_like",
}


def preset(name: str, **changes: Any) -> DpasModel:
    """The named preset (optionally with some parameters changed)."""
    if name not in PRESETS:
        raise ValueError(f"unknown DPAS model {name!r} (presets: {', '.join(PRESETS)})")
    return DpasModel(name=name if not changes else f"{name}+" + ",".join(sorted(changes)), **{**PRESETS[name],
                                                                                              **changes})


def model_from_target(target: Any, name: str | None = None, **changes: Any) -> DpasModel:
    """The DPAS model of ``target`` (its ``[dpas.numerics]`` parameters, each with source/evidence in the
    TOML; reading them marks them used for ``--explain-assumptions``), or the preset ``name``; ``changes``
    replace single parameters (e.g. ``out_ftz=True``)."""
    if name is not None:
        return preset(name, **changes)
    num = target.dpas.numerics
    values = {}
    for p in PARAM_NAMES:
        if p not in num:
            raise ValueError(f"target '{target.name}' has no parameter 'dpas.numerics.{p}'")
        values[p] = getattr(num, p)
    values.update(changes)
    return DpasModel(name=str(target.name) + ("" if not changes else "+" + ",".join(sorted(changes))), **values)
