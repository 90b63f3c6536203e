"""Integer DPAS (spec/dpas-numerics.md §1, §3; spec/pvc-hardware.md §3.2: D = low 32 bits of C + sum a_k b_k with
per-operand sign handling), ops per channel (spec/pvc-hardware.md §3.1), and the legality / shape errors of the
DPAS API for every type.  Expected values are exact Python integers computed here."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xesim.hw.params import load_target
from xesim.numerics.dpas import DpasModel, dpas, dpas_instruction, instruction_k, ops_per_channel, preset

TARGET = load_target("pvc")
INT_TYPES = {"s8": (-128, 127), "u8": (0, 255), "s4": (-8, 7), "u4": (0, 15), "s2": (-2, 1), "u2": (0, 3)}
DEFAULT = preset("default")


def ops_expected(a: str, b: str) -> int:
    """spec/pvc-hardware.md §3.1: tf32 1; bf16/f16 2; int8 (or any int mix where one side is 8-bit) 4; both
    sides sub-8-bit 8."""
    if a == "tf32":
        return 1
    if a in ("bf16", "f16"):
        return 2
    return 4 if "8" in a[1:] or "8" in b[1:] else 8


@pytest.mark.parametrize("a,b", [("tf32", "tf32"), ("bf16", "bf16"), ("f16", "f16")]
                         + list(itertools.product(INT_TYPES, INT_TYPES)))
def test_ops_per_channel_and_instruction_k(a: str, b: str) -> None:
    assert ops_per_channel(a, b, TARGET) == ops_expected(a, b)
    assert instruction_k(a, b, TARGET) == 8 * ops_expected(a, b)


def test_target_geometry_has_sources() -> None:
    assert (TARGET.dpas.systolic_depth, TARGET.dpas.exec_size, TARGET.dpas.max_repeat_count) == (8, 16, 8)
    for p in ("systolic_depth", "exec_size", "max_repeat_count", "ops_per_channel", "legal_types"):
        assert "pvc-hardware.md §3" in TARGET.source_of(f"dpas.{p}")
    for name, param in TARGET.params.items():
        if name.startswith("dpas.numerics.") and name != "dpas.numerics.int_overflow":
            assert param.assumed and param.evidence, name  # the float model is a hypothesis (dpas-numerics.md)
    assert not TARGET.params["dpas.numerics.int_overflow"].assumed


# ---------------------------------------------------------------------------------------------------------------

def reference(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, ops: int, mode: str, dst: str) -> list[list[int]]:
    """Exact integers; wrap = low 32 bits; the saturating variants of spec/dpas-test-vectors.md (I1/I2) clamp
    to the Dst range after every stage (8 per instruction) or once per instruction."""
    M, K = a.shape
    N = b.shape[1]
    lo, hi = (-(2**31), 2**31 - 1) if dst == "s32" else (0, 2**32 - 1)
    out = []
    for i in range(M):
        row = []
        for j in range(N):
            acc = 0 if c is None else int(c[i, j])
            for k0 in range(0, K, 8 * ops):
                if mode == "saturate_stage":
                    for s in range(8):
                        ks = range(k0 + s * ops, k0 + (s + 1) * ops)
                        acc = min(max(acc + sum(int(a[i, k]) * int(b[k, j]) for k in ks), lo), hi)
                else:
                    acc += sum(int(a[i, k]) * int(b[k, j]) for k in range(k0, k0 + 8 * ops))
                    acc = min(max(acc, lo), hi) if mode == "saturate_final" else acc % 2**32
            if mode == "wrap" and dst == "s32" and acc >= 2**31:
                acc -= 2**32
            row.append(acc)
        out.append(row)
    return out


@settings(max_examples=150, deadline=None)
@given(data=st.data(), a_t=st.sampled_from(sorted(INT_TYPES)), b_t=st.sampled_from(sorted(INT_TYPES)),
       acc_t=st.sampled_from(["s32", "u32"]), dst_t=st.sampled_from(["s32", "u32"]),
       mode=st.sampled_from(["wrap", "wrap", "saturate_stage", "saturate_final"]))
def test_every_integer_mix_against_exact_integers(data: st.DataObject, a_t: str, b_t: str, acc_t: str, dst_t: str,
                                                  mode: str) -> None:
    ops = ops_expected(a_t, b_t)
    M = data.draw(st.integers(1, 10))
    K = 8 * ops * data.draw(st.integers(1, 2))
    N = 16
    extreme = data.draw(st.booleans())

    def vals(t: str, n: int) -> list[int]:
        lo, hi = INT_TYPES[t]
        el = st.sampled_from([lo, hi]) if extreme else st.integers(lo, hi)
        return data.draw(st.lists(el, min_size=n, max_size=n))

    a = np.array(vals(a_t, M * K), np.int8 if a_t[0] == "s" else np.uint8).reshape(M, K)
    b = np.array(vals(b_t, K * N), np.int8 if b_t[0] == "s" else np.uint8).reshape(K, N)
    cr = (-(2**31), 2**31 - 1) if acc_t == "s32" else (0, 2**32 - 1)
    edge = st.sampled_from([cr[0], cr[1], cr[0] + 1000, cr[1] - 1000, 0])
    c = None if data.draw(st.booleans()) and data.draw(st.booleans()) else np.array(
        data.draw(st.lists(st.one_of(edge, st.integers(*cr)), min_size=M * N, max_size=M * N)),
        np.int32 if acc_t == "s32" else np.uint32).reshape(M, N)
    model = DpasModel(int_overflow=mode)
    d = dpas(a, b, c, a_t, b_t, acc_t, dst_t, model, TARGET)
    assert d.dtype == (np.int32 if dst_t == "s32" else np.uint32) and d.shape == (M, N)
    assert [[int(x) for x in row] for row in d] == reference(a, b, c, ops, mode, dst_t)


def test_wrap_u8_maximum_products_into_u32() -> None:
    """255 * 255 * 32 = 2080800 added to C = 2^32 - 1000000 wraps to 1080800 (mod 2^32)."""
    a = np.full((1, 32), 255, np.uint8)
    b = np.full((32, 16), 255, np.uint8)
    c = np.full((1, 16), 2**32 - 1_000_000, np.uint32)
    d = dpas_instruction(a, b, c, "u8", "u8", "u32", "u32", DEFAULT, TARGET)
    assert d.dtype == np.uint32 and (d == 1_080_800).all()


def test_wrap_mixed_signs_below_int32_min() -> None:
    """s8 -128 x u8 255 = -32640 per product, 32 products = -1044480; C = INT32_MIN wraps to 2^31 - 1044480."""
    a = np.full((2, 32), -128, np.int8)
    b = np.full((32, 16), 255, np.uint8)
    c = np.full((2, 16), -(2**31), np.int32)
    d = dpas_instruction(a, b, c, "s8", "u8", "s32", "s32", DEFAULT, TARGET)
    assert (d == 2**31 - 1_044_480).all()
    d_u = dpas_instruction(a, b, c, "s8", "u8", "s32", "u32", DEFAULT, TARGET)  # same bits, read unsigned
    assert d_u.dtype == np.uint32 and (d_u == 2**31 - 1_044_480).all()


def test_sub_byte_types_k64() -> None:
    """s4 x u2 runs 8 ops per channel: K = 64 per instruction; -8 * 3 * 64 = -1536."""
    a = np.full((3, 64), -8, np.int8)
    b = np.full((64, 16), 3, np.uint8)
    d = dpas_instruction(a, b, None, "s4", "u2", "s32", "s32", DEFAULT, TARGET)
    assert (d == -1536).all()
    with pytest.raises(ValueError, match="K = 32 must be systolic depth 8 x ops per channel 8 = 64"):
        dpas_instruction(a[:, :32], b[:32], None, "s4", "u2", "s32", "s32", DEFAULT, TARGET)


def test_u32_saturation_variants_differ_from_wrap() -> None:
    a = np.zeros((1, 32), np.uint8)
    b = np.zeros((32, 16), np.uint8)
    a[0, 0], b[0, 0] = 16, 32  # +512
    c = np.full((1, 16), 0xFFFFFF00, np.uint32)
    got = {m: int(dpas_instruction(a, b, c, "u8", "u8", "u32", "u32", DpasModel(int_overflow=m), TARGET)[0, 0])
           for m in ("wrap", "saturate_stage", "saturate_final")}
    assert got == {"wrap": 0x100, "saturate_stage": 0xFFFFFFFF, "saturate_final": 0xFFFFFFFF}


@pytest.mark.parametrize("t,bad", [("s4", 8), ("s4", -9), ("u4", 16), ("s2", 2), ("s2", -3), ("u2", 4), ("u8", -1)])
def test_values_outside_the_type_range_are_errors(t: str, bad: int) -> None:
    a = np.zeros((1, 8 * ops_expected(t, t)), np.int16)
    a[0, 3] = bad
    b = np.zeros((a.shape[1], 16), np.int16)
    with pytest.raises(ValueError, match=f"A has a value outside the {t} range"):
        dpas_instruction(a, b, None, t, t, "s32", "s32", DEFAULT, TARGET)


# legality and shapes (all types) -------------------------------------------------------------------------------

LEGAL = ([("bf16", "bf16", acc, dst) for acc in ("f32", "bf16") for dst in ("f32", "bf16")]
         + [("f16", "f16", acc, dst) for acc in ("f32", "f16") for dst in ("f32", "f16")]
         + [("tf32", "tf32", "f32", "f32")]
         + [(a, b, acc, dst) for a in INT_TYPES for b in INT_TYPES for acc in ("s32", "u32") for dst in ("s32", "u32")])
ILLEGAL = [("bf16", "f16", "f32", "f32"), ("f16", "bf16", "f32", "f32"), ("bf16", "bf16", "f16", "f32"),
           ("f16", "f16", "bf16", "bf16"), ("tf32", "tf32", "f32", "bf16"), ("tf32", "tf32", "bf16", "f32"),
           ("s8", "s8", "f32", "f32"), ("bf16", "bf16", "s32", "s32"), ("s8", "bf16", "s32", "s32"),
           ("f32", "f32", "f32", "f32"), ("bf16", "bf16", "f32", "s32"), ("u8", "u8", "s32", "f32")]


@pytest.mark.parametrize("combo", ILLEGAL, ids=["-".join(c) for c in ILLEGAL])
def test_illegal_type_combinations(combo: tuple[str, str, str, str]) -> None:
    a = np.zeros((1, 16), np.float32)
    with pytest.raises(ValueError, match="illegal type combination.*spec/pvc-hardware.md §3.2"):
        dpas(a, a.T.copy(), None, *combo, DEFAULT, TARGET)


def test_every_legal_combination_is_accepted() -> None:
    dt = {"bf16": ml_dtypes.bfloat16, "f16": np.float16, "tf32": np.float32, "f32": np.float32, "s32": np.int32,
          "u32": np.uint32}
    for a_t, b_t, acc, dst in LEGAL:
        K = 8 * ops_expected(a_t, b_t)
        a = np.zeros((2, K), dt.get(a_t, np.int8))
        b = np.ones((K, 16), dt.get(b_t, np.uint8 if b_t[0] == "u" else np.int8))
        d = dpas_instruction(a, b, np.zeros((2, 16), dt[acc]), a_t, b_t, acc, dst, DEFAULT, TARGET)
        assert d.dtype == np.dtype(dt[dst])


def test_unknown_type() -> None:
    with pytest.raises(ValueError, match="unknown A type 's16'"):
        dpas(np.zeros((1, 32), np.int16), np.zeros((32, 16), np.int16), None, "s16", "s8", "s32", "s32", DEFAULT, TARGET)


def test_ud_dst_unsigned_sources_switch() -> None:
    """dpas.ud_dst_requires_unsigned_sources (assumed false; Mesa's restriction when true)."""
    strict = TARGET.with_overrides({"dpas.ud_dst_requires_unsigned_sources": True})
    a = np.zeros((1, 32), np.int8)
    b = np.zeros((32, 16), np.int8)
    assert dpas(a, b, None, "s8", "s8", "s32", "u32", DEFAULT, TARGET).dtype == np.uint32
    with pytest.raises(ValueError, match="u32 Dst requires unsigned sources"):
        dpas(a, b, None, "s8", "s8", "s32", "u32", DEFAULT, strict)
    assert dpas(a.view(np.uint8), b.view(np.uint8), None, "u8", "u8", "s32", "u32", DEFAULT, strict).dtype == np.uint32


def test_shape_errors() -> None:
    bf = ml_dtypes.bfloat16
    a = np.zeros((9, 16), bf)
    b = np.zeros((16, 16), bf)
    with pytest.raises(ValueError, match="M = 9 exceeds the maximum repeat count 8"):
        dpas_instruction(a, b, None, "bf16", "bf16", "f32", "f32", DEFAULT, TARGET)
    assert dpas(a, b, None, "bf16", "bf16", "f32", "f32", DEFAULT, TARGET).shape == (9, 16)  # a tile may have M > 8
    with pytest.raises(ValueError, match="N = 32 must equal the execution size 16"):
        dpas_instruction(a[:8], np.zeros((16, 32), bf), None, "bf16", "bf16", "f32", "f32", DEFAULT, TARGET)
    with pytest.raises(ValueError, match="N = 24 is not a multiple of the execution size 16"):
        dpas(a, np.zeros((16, 24), bf), None, "bf16", "bf16", "f32", "f32", DEFAULT, TARGET)
    with pytest.raises(ValueError, match="K = 24 is not a multiple of systolic depth 8 x ops per channel 2 = 16"):
        dpas(np.zeros((8, 24), bf), np.zeros((24, 16), bf), None, "bf16", "bf16", "f32", "f32", DEFAULT, TARGET)
    with pytest.raises(ValueError, match="K dimensions differ"):
        dpas(a, np.zeros((32, 16), bf), None, "bf16", "bf16", "f32", "f32", DEFAULT, TARGET)
    with pytest.raises(ValueError, match="C must be 9x16"):
        dpas(a, b, np.zeros((8, 16), np.float32), "bf16", "bf16", "f32", "f32", DEFAULT, TARGET)
    with pytest.raises(ValueError, match="must be a bfloat16 array, got float32"):
        dpas(a.astype(np.float32), b, None, "bf16", "bf16", "f32", "f32", DEFAULT, TARGET)
    with pytest.raises(ValueError, match="C holds f32 values and must be a float32 array"):
        dpas(a, b, np.zeros((9, 16), bf), "bf16", "bf16", "f32", "f32", DEFAULT, TARGET)
