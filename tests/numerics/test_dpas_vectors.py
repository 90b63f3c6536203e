"""Every test vector of spec/dpas-test-vectors.md (= spec/dpas-numerics.md §8) for every candidate model.

The tables below are a literal transcription of the spec's tables (inputs as bit patterns, expected D per model
column); the models are built here from the spec's model legend, independently of xesim's presets, and the named
presets are checked to reproduce the same columns.  Each vector is placed in row 0 / column 0 and in row 1 /
column 15 of one DPAS instruction (all other entries +0, as in spec/dpas-numerics.md §6.1).  The NaN placeholder
7FFFFFFF of the tables means "a NaN": the model's canonical NaN bits are expected.
"""

from __future__ import annotations

import re
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xesim.hw.params import load_target
from xesim.numerics.dpas import DpasModel, dpas_instruction, model_from_target, preset
from xesim.numerics.dpas_vectors import VECTORS, VECTORS_16  # the spec's inputs; the expected D are below

TARGET = load_target("pvc")
SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "dpas-test-vectors.md"

# fp16/bf16 accumulator tests: id -> {L0, L1, L2, L3} expected 16-bit D
EXPECTED_16 = {
    "T13a": {"L0": 0x3C04, "L1": 0x3C04, "L2": 0x3C00, "L3": 0x3C04},
    "T13b": {"L0": 0x3F84, "L1": 0x3F84, "L2": 0x3F80, "L3": 0x3F84},
    "T13c": {"L0": 0x3F80, "L1": 0x3F80, "L2": 0x3F81, "L3": 0x3F81},
}

EXPECTED_MODELS_COLUMNS = ('M0', 'M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'M8')
EXPECTED_MODELS = {
    "T1": (0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800004, 0x3F800004, 0x3F800000, 0x3F800000, 0x3F800004),
    "T2": (0x3F800008, 0x3F800008, 0x3F800000, 0x3F800008, 0x3F800006, 0x3F800006, 0x3F800008, 0x3F800008, 0x3F800004),
    "T2n": (0xBF800008, 0xBF800008, 0xBF800000, 0xBF800008, 0xBF800006, 0xBF800006, 0xBF800008, 0xBF800008, 0xBF800004),
    "T3": (0x3F800001, 0x3F800001, 0x3F800001, 0x3F800000, 0x3F800001, 0x3F800001, 0x3F800001, 0x3F800001, 0x3F800001),
    "T4": (0x3F800001, 0x3F800001, 0x3F800000, 0x3F800000, 0x3F800001, 0x3F800000, 0x3F800001, 0x3F800000, 0x3F800000),
    "T5": (0x2B800000, 0x2B800000, 0x2B800000, 0x2B800000, 0x2B800000, 0x00000000, 0x2B800000, 0x00000000, 0x00000000),
    "T6": (0x4B7FFFFF, 0x4B7FFFFF, 0x4B7FFFFF, 0x4B7FFFFF, 0x4B800000, 0x4B800000, 0x4B800000, 0x4B7FFFFF, 0x4B800000),
    "T7": (0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x3F800000, 0x00000000, 0x3F800000, 0x00000000, 0x3F800000),
    "T8a": (0x2F000000, 0x00000000, 0x2F000000, 0x2F000000, 0x2F000000, 0x2F000000, 0x2F000000, 0x2F000000, 0x2F000000),
    "T9a": (0x00080000, 0x00000000, 0x00080000, 0x00080000, 0x00080000, 0x00080000, 0x00080000, 0x00080000, 0x00080000),
    "T9b": (0x00000002, 0x00000000, 0x00000002, 0x00000002, 0x00000002, 0x00000002, 0x00000002, 0x00000002, 0x00000002),
    "T10a": (0x00000000, 0x00000000, 0x00000000, 0x7F800000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000),
    "T10b": (0x7F800000, 0x7F800000, 0x7EFFFFFE, 0x7F800000, 0x7F7FFFFF, 0x7F7FFFFF, 0x7F7FFFFF, 0x7F800000, 0x7F7FFFFF),
    "T10c": (0x00000001, 0x00000000, 0x00000001, 0x00000000, 0x00000001, 0x00000001, 0x00000001, 0x00000001, 0x00000001),
    "H1": (0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800004, 0x3F800004, 0x3F800000, 0x3F800000, 0x3F800004),
    "H2": (0x3F800008, 0x3F800008, 0x3F800000, 0x3F800008, 0x3F800006, 0x3F800006, 0x3F800008, 0x3F800008, 0x3F800004),
    "H3": (0x3F800001, 0x3F800001, 0x3F800001, 0x3F800000, 0x3F800001, 0x3F800001, 0x3F800001, 0x3F800001, 0x3F800001),
    "H4": (0x3F800001, 0x3F800001, 0x3F800000, 0x3F800000, 0x3F800001, 0x3F800001, 0x3F800001, 0x3F800000, 0x3F800000),
    "H5": (0x31800000, 0x31800000, 0x31800000, 0x31800000, 0x31800000, 0x00000000, 0x31800000, 0x00000000, 0x00000000),
    "H6": (0x4B7FFFFF, 0x4B7FFFFF, 0x4B7FFFFF, 0x4B7FFFFF, 0x4B800000, 0x4B800000, 0x4B800000, 0x4B7FFFFF, 0x4B800000),
    "H7": (0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x3F800000, 0x00000000, 0x3F800000, 0x00000000, 0x3F800000),
    "H8": (0x38800000, 0x00000000, 0x38800000, 0x38800000, 0x38800000, 0x38800000, 0x38800000, 0x38800000, 0x38800000),
    "H9": (0x00000001, 0x00000000, 0x00000001, 0x00000001, 0x00000001, 0x00000001, 0x00000001, 0x00000001, 0x00000001),
    "F1": (0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800004, 0x3F800004, 0x3F800000, 0x3F800000, 0x3F800004),
    "F2": (0x3F800008, 0x3F800008, 0x3F800000, 0x3F800008, 0x3F800006, 0x3F800006, 0x3F800008, 0x3F800008, 0x3F800004),
    "F4": (0x3F800001, 0x3F800001, 0x3F800000, 0x3F800001, 0x3F800001, 0x3F800001, 0x3F800001, 0x3F800000, 0x3F800000),
    "F6": (0x4B7FFFFF, 0x4B7FFFFF, 0x4B7FFFFF, 0x4B7FFFFF, 0x4B800000, 0x4B800000, 0x4B800000, 0x4B7FFFFF, 0x4B800000),
    "F7": (0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x3F800000, 0x00000000, 0x3F800000, 0x00000000, 0x3F800000),
    "F14": (0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000),
    "F8": (0x32000000, 0x00000000, 0x32000000, 0x32000000, 0x32000000, 0x32000000, 0x32000000, 0x32000000, 0x32000000),
}
EXPECTED_DENORMAL_COLUMNS = ('M0', 'in-FTZ', 'Src0-FTZ', 'out-FTZ', 'prod->fp32', 'M1')
EXPECTED_DENORMAL = {
    "T8a": (0x2F000000, 0x00000000, 0x2F000000, 0x2F000000, 0x2F000000, 0x00000000),
    "T9a": (0x00080000, 0x00080000, 0x00080000, 0x00000000, 0x00080000, 0x00000000),
    "T9b": (0x00000002, 0x00000002, 0x00000001, 0x00000000, 0x00000002, 0x00000000),
    "T10a": (0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x7FFFFFFF, 0x00000000),
    "T10c": (0x00000001, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0x00000000),
    "H8": (0x38800000, 0x00000000, 0x38800000, 0x38800000, 0x38800000, 0x00000000),
    "H9": (0x00000001, 0x00000001, 0x00000000, 0x00000000, 0x00000001, 0x00000000),
    "F8": (0x32000000, 0x00000000, 0x32000000, 0x32000000, 0x32000000, 0x00000000),
}
EXPECTED_ROUNDING_COLUMNS = ('RNE', 'RNA', 'RZ', 'RD', 'RU')
EXPECTED_ROUNDING = {
    "T1": (0x3F800000, 0x3F800008, 0x3F800000, 0x3F800000, 0x3F800008),
    "T2": (0x3F800008, 0x3F800008, 0x3F800000, 0x3F800000, 0x3F800008),
    "T2n": (0xBF800008, 0xBF800008, 0xBF800000, 0xBF800008, 0xBF800000),
    "T4": (0x3F800001, 0x3F800001, 0x3F800000, 0x3F800000, 0x3F800001),
    "T10b": (0x7F800000, 0x7F800000, 0x7EFFFFFE, 0x7EFFFFFE, 0x7F800000),
}
EXPECTED_TF32_IN = {"truncate": 0x3F800000, "rne": 0x3F802000, "full": 0x3F801008}  # F14 variants


# int8 tests: id -> (A, B, C, {wrap, saturate after every stage, exact then saturate once})
VECTORS_INT = {
    "I1": ({0: 1}, {0: 1}, 2147483647, {"wrap": 0x80000000, "saturate_stage": 0x7FFFFFFF, "saturate_final": 0x7FFFFFFF}),
    "I2": ({0: 127, 1: 127, 2: 127, 3: 127, 4: -128, 5: -128, 6: -128, 7: -128}, {k: 127 for k in range(8)}, 2147483547,
           {"wrap": 0x7FFFFD9F, "saturate_stage": 0x7FFF01FF, "saturate_final": 0x7FFFFD9F}),
}

# ---------------------------------------------------------------------------------------------------------------
# the models, read from the legend of spec/dpas-test-vectors.md

M0 = dict(tf32_in="truncate", prod_round=False, group="stage", align_bits=0, rounding="rne", acc_format="f32",
          src0_order="first", stage_order="forward", in_ftz_bf16=False, in_ftz_f16=False, in_ftz_tf32=False,
          src0_ftz=False, out_ftz=False, out_ftz_test="result", final_rounding="rne", nan_bits=0x7FC00000,
          int_overflow="wrap")
ALL_IN_FTZ = dict(in_ftz_bf16=True, in_ftz_f16=True, in_ftz_tf32=True)
LEGEND = {
    "M0": {},                                                    # vISA-literal
    "M1": {**ALL_IN_FTZ, "out_ftz": True},                       # M0 + FTZ inputs + FTZ fp32 results
    "M2": {"rounding": "rz"},                                    # stage-fused, RZ per stage
    "M3": {"group": 1},                                          # per-product FMA chain
    "M4": {"group": "all"},                                      # single rounding of the exact 17-term sum
    "M5": {"src0_order": "last"},                                # products chained first, Src0 added last
    "M6": {"stage_order": "reverse"},                            # stage 7 first
    "M7": {"align_bits": 27},                                    # adder keeps 24+3 bits below max exp, no sticky
    "M8": {"group": 8, "align_bits": 25, "rounding": "rz"},      # 8-product block, trunc align 24+1 bits, RZ
    "in-FTZ": ALL_IN_FTZ,
    "Src0-FTZ": {"src0_ftz": True},
    "out-FTZ": {"out_ftz": True},
    "prod->fp32": {"prod_round": True},
    "RNE": {}, "RNA": {"rounding": "rna"}, "RZ": {"rounding": "rz"}, "RD": {"rounding": "rd"}, "RU": {"rounding": "ru"},
    "L0": {}, "L1": {"rounding": "rz"}, "L2": {"acc_format": "dst"}, "L3": {"group": "all", "acc_format": "dst"},
}
PRESET_OF = {"M0": "visa_literal", "M1": "ftz_all", "M2": "stage_rz", "M3": "fma_chain", "M4": "single_rounding",
             "M5": "src0_last", "M6": "reverse_stages", "M7": "narrow_adder", "M8": "nvidia_a100_like"}


def legend_model(column: str, **more: object) -> DpasModel:
    return DpasModel(name=column, **{**M0, **LEGEND[column], **more})


FMT = {"bf16": ("bf16", ml_dtypes.bfloat16, np.uint16, 16), "fp16": ("f16", np.float16, np.uint16, 16),
       "tf32": ("tf32", np.float32, np.uint32, 8)}


def run_vector(vid: str, model: DpasModel) -> tuple[int, int]:
    """D bits of the vector at (row 0, col 0) and (row 1, col 15)."""
    fmt, a_nz, b_nz, c_bits = VECTORS[vid]
    t, dtype, udt, K = FMT[fmt]
    a = np.zeros((2, K), udt)
    b = np.zeros((K, 16), udt)
    for k, v in a_nz.items():
        a[:, k] = v
    for k, v in b_nz.items():
        b[k, 0] = b[k, 15] = v
    c = np.zeros((2, 16), np.uint32)
    c[0, 0] = c[1, 15] = c_bits
    d = dpas_instruction(a.view(dtype), b.view(dtype), c.view(np.float32), t, t, "f32", "f32", model, TARGET)
    assert d.dtype == np.float32 and d.shape == (2, 16)
    bits = d.view(np.uint32)
    return int(bits[0, 0]), int(bits[1, 15])


def check(vid: str, model: DpasModel, expected: int) -> None:
    got = run_vector(vid, model)
    want = model.nan_bits if expected == 0x7FFFFFFF else expected  # NaN placeholder of the tables
    assert got == (want, want), f"{vid} under {model.name}: got {got[0]:08X}/{got[1]:08X}, table says {expected:08X}"


# ---------------------------------------------------------------------------------------------------------------

CASES_MODELS = [(vid, col, row[i]) for vid, row in EXPECTED_MODELS.items()
                for i, col in enumerate(EXPECTED_MODELS_COLUMNS)]


@pytest.mark.parametrize("vid,column,expected", CASES_MODELS, ids=[f"{v}-{c}" for v, c, _ in CASES_MODELS])
def test_candidate_models(vid: str, column: str, expected: int) -> None:
    check(vid, legend_model(column), expected)
    check(vid, preset(PRESET_OF[column]), expected)


CASES_DENORMAL = [(vid, col, row[i]) for vid, row in EXPECTED_DENORMAL.items()
                  for i, col in enumerate(EXPECTED_DENORMAL_COLUMNS)]


@pytest.mark.parametrize("vid,column,expected", CASES_DENORMAL, ids=[f"{v}-{c}" for v, c, _ in CASES_DENORMAL])
def test_denormal_variants(vid: str, column: str, expected: int) -> None:
    check(vid, legend_model(column), expected)


CASES_ROUNDING = [(vid, col, row[i]) for vid, row in EXPECTED_ROUNDING.items()
                  for i, col in enumerate(EXPECTED_ROUNDING_COLUMNS)]


@pytest.mark.parametrize("vid,column,expected", CASES_ROUNDING, ids=[f"{v}-{c}" for v, c, _ in CASES_ROUNDING])
def test_rounding_modes(vid: str, column: str, expected: int) -> None:
    check(vid, legend_model(column), expected)


@pytest.mark.parametrize("treatment", sorted(EXPECTED_TF32_IN))
def test_tf32_operand_treatment(treatment: str) -> None:
    check("F14", legend_model("M0", tf32_in=treatment), EXPECTED_TF32_IN[treatment])


def default_expected(vid: str) -> int:
    """spec/dpas-numerics.md §1 default = M0 + bf16/tf32 input flush (fp16 kept, results not flushed): the
    in-FTZ column for bf16/tf32 vectors of the denormal table, M0 otherwise."""
    fmt = VECTORS[vid][0]
    if vid in EXPECTED_DENORMAL and fmt in ("bf16", "tf32"):
        return EXPECTED_DENORMAL[vid][EXPECTED_DENORMAL_COLUMNS.index("in-FTZ")]
    return EXPECTED_MODELS[vid][EXPECTED_MODELS_COLUMNS.index("M0")]


@pytest.mark.parametrize("vid", sorted(VECTORS))
def test_default_model(vid: str) -> None:
    expected = default_expected(vid)
    check(vid, preset("default"), expected)
    check(vid, model_from_target(TARGET), expected)  # pvc.toml [dpas.numerics]


def test_default_model_spot_values() -> None:
    """The derivation above, spelled out where it matters: bf16/tf32 subnormal inputs flush, fp16 ones do not."""
    assert default_expected("T8a") == 0 and default_expected("F8") == 0
    assert default_expected("H8") == 0x38800000 and default_expected("T9a") == 0x00080000


def test_bmg_keeps_bf16_and_tf32_denormals() -> None:
    """Xe2 retains bf16/tf32 DPAS denormals (spec/dpas-numerics.md §2.3): T8a/F8 take the M0 values."""
    bmg = model_from_target(load_target("bmg"))
    check("T8a", bmg, 0x2F000000)
    check("F8", bmg, 0x32000000)
    check("H8", bmg, 0x38800000)


# fp16/bf16 Src0/Dst --------------------------------------------------------------------------------------------

def run_vector_16(vid: str, model: DpasModel) -> tuple[int, int]:
    fmt, a_nz, b_nz, c_bits = VECTORS_16[vid]
    t, dtype, udt, K = FMT[fmt]
    a = np.zeros((2, K), udt)
    b = np.zeros((K, 16), udt)
    for k, v in a_nz.items():
        a[:, k] = v
    for k, v in b_nz.items():
        b[k, 0] = b[k, 15] = v
    c = np.zeros((2, 16), np.uint16)
    c[0, 0] = c[1, 15] = c_bits
    d = dpas_instruction(a.view(dtype), b.view(dtype), c.view(dtype), t, t, t, t, model, TARGET)
    assert d.dtype == np.dtype(dtype)
    bits = d.view(np.uint16)
    return int(bits[0, 0]), int(bits[1, 15])


CASES_16 = [(vid, col, exp) for vid, row in EXPECTED_16.items() for col, exp in row.items()]


@pytest.mark.parametrize("vid,column,expected", CASES_16, ids=[f"{v}-{c}" for v, c, _ in CASES_16])
def test_low_precision_accumulator(vid: str, column: str, expected: int) -> None:
    assert run_vector_16(vid, legend_model(column)) == (expected, expected)


@pytest.mark.parametrize("vid", sorted(VECTORS_16))
def test_low_precision_accumulator_presets(vid: str) -> None:
    """default = L0 (fp32 stage chain, one final RNE), single_rounding = L3."""
    row = EXPECTED_16[vid]
    assert run_vector_16(vid, preset("default")) == (row["L0"], row["L0"])
    assert run_vector_16(vid, preset("single_rounding")) == (row["L3"], row["L3"])


def test_f32_src0_with_bf16_dst() -> None:
    """F Src0 with a BF Dst is legal (spec/dpas-numerics.md §2.4) and equals the BF Src0 result (T13b: the
    f32 value 1.0 widened from bf16)."""
    fmt, a_nz, b_nz, _ = VECTORS_16["T13b"]
    row = EXPECTED_16["T13b"]
    a = np.zeros((1, 16), np.uint16)
    b = np.zeros((16, 16), np.uint16)
    for k, v in a_nz.items():
        a[0, k] = v
    for k, v in b_nz.items():
        b[k, 0] = v
    c = np.zeros((1, 16), np.float32)
    c[0, 0] = 1.0
    bf = ml_dtypes.bfloat16
    d = dpas_instruction(a.view(bf), b.view(bf), c, "bf16", "bf16", "f32", "bf16", preset("default"), TARGET)
    assert d.dtype == np.dtype(bf) and int(d.view(np.uint16)[0, 0]) == row["L0"]


# integer -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("vid,mode", [(v, m) for v in VECTORS_INT for m in ("wrap", "saturate_stage", "saturate_final")])
def test_int8_vectors(vid: str, mode: str) -> None:
    a_nz, b_nz, c, expected = VECTORS_INT[vid]
    a = np.zeros((1, 32), np.int8)
    b = np.zeros((32, 16), np.int8)
    for k, v in a_nz.items():
        a[0, k] = v
    for k, v in b_nz.items():
        b[k, 0] = v
    cc = np.zeros((1, 16), np.int32)
    cc[0, 0] = c
    d = dpas_instruction(a, b, cc, "s8", "s8", "s32", "s32", legend_model("M0", int_overflow=mode), TARGET)
    assert d.dtype == np.int32 and int(d.view(np.uint32)[0, 0]) == expected[mode]
    if mode == "wrap":  # the default model wraps
        d = dpas_instruction(a, b, cc, "s8", "s8", "s32", "s32", preset("default"), TARGET)
        assert int(d.view(np.uint32)[0, 0]) == expected[mode]


# the transcription above against the spec file, when the spec is next to the repository ----------------------

def _spec_table(lines: list[str], title: str) -> tuple[list[str], list[list[str]]]:
    i = next(n for n, line in enumerate(lines) if line.startswith(title))
    while not lines[i].startswith("|"):
        i += 1
    header = [c.strip() for c in lines[i].strip("|").split("|")]
    rows = []
    i += 2
    while i < len(lines) and lines[i].startswith("|"):
        rows.append([c.strip() for c in lines[i].strip("|").split("|")])
        i += 1
    return header, rows


@pytest.mark.skipif(not SPEC.exists(), reason="spec/dpas-test-vectors.md is not next to the repository")
def test_transcription_matches_the_spec() -> None:
    lines = SPEC.read_text().splitlines()
    _, rows = _spec_table(lines, "Test inputs")
    assert [r[0] for r in rows] == list(VECTORS)
    for vid, _, fmt, inputs in rows:
        a_part, b_part, c_part = (s.strip() for s in inputs.split(";"))
        a = {int(k): int(v, 16) for k, v in re.findall(r"A(\d+)=0x([0-9A-F]+)", a_part)}
        b = {int(k): int(v, 16) for k, v in re.findall(r"B(\d+)=0x([0-9A-F]+)", b_part)}
        c = int(re.search(r"C=0x([0-9A-F]+)", c_part).group(1), 16)
        assert VECTORS[vid] == (fmt, a, b, c), vid
    for title, cols, table in (("Expected D (fp32 bits)", EXPECTED_MODELS_COLUMNS, EXPECTED_MODELS),
                               ("Denormal-handling variants", EXPECTED_DENORMAL_COLUMNS, EXPECTED_DENORMAL),
                               ("Rounding-mode identification", EXPECTED_ROUNDING_COLUMNS, EXPECTED_ROUNDING)):
        header, rows = _spec_table(lines, title)
        assert tuple(header[1:]) == cols
        assert {r[0]: tuple(int(v, 16) for v in r[1:]) for r in rows} == table


# sweeps S1/S2 of spec/dpas-numerics.md §6.3 (expected values from the text of §6.3) ---------------------------

def _bf16_pow2(e: int) -> int:
    """bf16 bit pattern of +2^e (normal range)."""
    return (e + 127) << 7


def _sweep(p0: tuple[int, int], j: int, model: DpasModel) -> int:
    """C = 1.0; stage 0: p0 = A0*B0 and p1 = A1*B1 = 2^-(24+j) with A1 = 2^-(12+ceil(j/2)), B1 = 2^-(12+floor(j/2))."""
    a = np.zeros((1, 16), np.uint16)
    b = np.zeros((16, 16), np.uint16)
    a[0, 0], b[0, 0] = p0
    a[0, 1], b[1, 0] = _bf16_pow2(-(12 + (j + 1) // 2)), _bf16_pow2(-(12 + j // 2))
    c = np.zeros((1, 16), np.float32)
    c[0, 0] = 1.0
    bf = ml_dtypes.bfloat16
    d = dpas_instruction(a.view(bf), b.view(bf), c, "bf16", "bf16", "f32", "f32", model, TARGET)
    return int(d.view(np.uint32)[0, 0])


@pytest.mark.parametrize("j", range(1, 61))
def test_sweep_s1_sticky(j: int) -> None:
    """S1: p0 = 2^-24 (a tie), p1 = 2^-(24+j): an exact (sticky-correct) adder gives 3F800001 for every j; an
    adder keeping F = 3 bits below the accumulator's lsb without sticky (M7: 24+3) only while j < 3."""
    p0 = (0x3980, 0x3980)
    assert _sweep(p0, j, legend_model("M0")) == 0x3F800001
    assert _sweep(p0, j, preset("default")) == 0x3F800001
    assert _sweep(p0, j, legend_model("M7")) == (0x3F800001 if j < 3 else 0x3F800000)


@pytest.mark.parametrize("j", range(0, 101))
def test_sweep_s2_alignment_after_cancellation(j: int) -> None:
    """S2: p0 = -1, p1 = 2^-(24+j): an exact adder gives D = 2^-(24+j) (fp32 normal down to j = 102); an adder
    aligned to the largest term with W = 26 fraction bits (M7) gives 0 once 24 + j > 26."""
    p0 = (0x3F80, 0xBF80)
    exact = (127 - 24 - j) << 23
    assert _sweep(p0, j, legend_model("M0")) == exact
    assert _sweep(p0, j, preset("default")) == exact
    assert _sweep(p0, j, legend_model("M7")) == (exact if 24 + j <= 26 else 0)
