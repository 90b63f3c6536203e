"""DPAS's uncompiled twin (xesim/numerics/dpas_twin.py) gives the compiled kernel's bits: on every test vector of
the spec under every model (the twin takes the ones in its configuration, the others stay compiled), against the
spec's tables themselves, and on random and special-value tiles, batched, with shared B tiles."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from tests.numerics.test_dpas_vectors import (
    CASES_DENORMAL,
    CASES_MODELS,
    CASES_ROUNDING,
    EXPECTED_TF32_IN,
    PRESET_OF,
    TARGET,
    check,
    default_expected,
    legend_model,
)
from xesim.numerics import dpas as dpas_mod
from xesim.numerics import tiers
from xesim.numerics.dpas import DpasCall, dpas, model_from_target, preset
from xesim.numerics.dpas_twin import round_sum_f32
from xesim.numerics.dpas_vectors import VECTORS
from xesim.numerics.exact import LIMBS, RNE, round_sum

DTYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16}


def _table_cases() -> list[tuple[str, object, int]]:
    cases = [(f"{v}-{c}", legend_model(c), e) for v, c, e in CASES_MODELS + CASES_DENORMAL + CASES_ROUNDING]
    cases += [(f"{v}-{c}-preset", preset(PRESET_OF[c]), e) for v, c, e in CASES_MODELS]
    cases += [(f"F14-tf32-{t}", legend_model("M0", tf32_in=t), e) for t, e in EXPECTED_TF32_IN.items()]
    cases += [(f"{v}-default", model_from_target(TARGET), default_expected(v)) for v in VECTORS]
    return cases


def test_every_test_vector_gives_the_tables_bits_under_the_twin() -> None:
    """Each case of the spec's tables, with the twin forced: the twin runs the ones in its configuration (and they
    give the tables' bits), the others still run compiled -- the twin covers a real share of them."""
    before = dict(dpas_mod.FAST16_TIER.calls)
    with tiers.force(tiers.UNCOMPILED):
        for name, model, expected in _table_cases():
            vid = name.split("-")[0]
            check(vid, model, expected)
    twin_calls = dpas_mod.FAST16_TIER.calls[tiers.UNCOMPILED] - before[tiers.UNCOMPILED]
    # per case two calls (row 0 / column 0 and row 1 / column 15 are one call): the M0, default, RNE, Src0-free
    # columns of the bf16 and fp16 vectors
    assert twin_calls >= 40


#: the 16-bit source cases (tf32 is not in the twin's configuration: both forms would run the compiled kernel)
CASES_16 = [(n, m) for n, m, _ in _table_cases() if VECTORS[n.split("-")[0]][0] != "tf32"]


@pytest.mark.parametrize("name,model", CASES_16, ids=[n for n, _ in CASES_16])
def test_every_test_vector_gives_the_same_bits_compiled_and_uncompiled(name: str, model: object) -> None:
    vid = name.split("-")[0]
    fmt, a_nz, b_nz, c_bits = VECTORS[vid]
    t = {"bf16": "bf16", "fp16": "f16"}[fmt]
    a = np.zeros((3, 16), np.uint16)
    b = np.zeros((16, 32), np.uint16)
    for k, v in a_nz.items():
        a[:, k] = v
    for k, v in b_nz.items():
        b[k, ::5] = v
    c = np.zeros((3, 32), np.uint32)
    c[:, ::3] = c_bits
    got = {}
    for mode in (tiers.COMPILED, tiers.UNCOMPILED):
        with tiers.force(mode):
            got[mode] = dpas(a.view(DTYPES[t]), b.view(DTYPES[t]), c.view(np.float32), t, t, "f32", "f32", model,
                             TARGET).view(np.uint32)
    np.testing.assert_array_equal(got[tiers.UNCOMPILED], got[tiers.COMPILED])


_SPECIAL16 = {"f16": [0x0000, 0x8000, 0x0001, 0x83FF, 0x0400, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x3C00],
              "bf16": [0x0000, 0x8000, 0x0001, 0x807F, 0x0080, 0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7FC0, 0x3F80]}


def _tiles(rng: np.random.Generator, t: str, nb: int, m: int, k: int, n: int, kind: str) -> tuple:
    """Operands of one batch: ``kind`` 'normal' (random values of a few magnitudes), 'bits' (every bit pattern,
    NaN and infinities included), 'special' (signed zeros, subnormals, extremes, infinities, NaN mixed in), or
    'ties' (powers of two whose sums land on f32 midpoints)."""
    dt = DTYPES[t]
    if kind == "normal":
        a = (rng.standard_normal((nb, m, k)) * 2.0 ** rng.integers(-20, 12, (nb, m, k))).astype(dt)
        b = rng.standard_normal((nb, k, n)).astype(dt)
        c = (rng.standard_normal((nb, m, n)) * 10.0 ** rng.integers(-30, 30, (nb, m, n))).astype(np.float32)
    elif kind == "bits":
        a = rng.integers(0, 1 << 16, (nb, m, k), dtype=np.uint16).view(dt)
        b = rng.integers(0, 1 << 16, (nb, k, n), dtype=np.uint16).view(dt)
        c = rng.integers(0, 1 << 32, (nb, m, n), dtype=np.uint32).view(np.float32)
    elif kind == "special":
        sp = np.array(_SPECIAL16[t], np.uint16)
        a = rng.standard_normal((nb, m, k)).astype(dt)
        b = rng.standard_normal((nb, k, n)).astype(dt)
        for x in (a, b):
            hit = rng.random(x.shape) < 0.1
            x.view(np.uint16)[hit] = rng.choice(sp, hit.sum())
        c = rng.choice(np.array([0.0, -0.0, 1.0, 3.4e38, -3.4e38, 1e-45, np.inf, np.nan], np.float32), (nb, m, n))
    else:  # ties: 1 + 2^-24 style midpoints, made of two products and a large accumulator
        a = (2.0 ** rng.integers(-13, 1, (nb, m, k)) * rng.choice([-1.0, 1.0], (nb, m, k))).astype(dt)
        b = (2.0 ** rng.integers(-13, 1, (nb, k, n))).astype(dt)
        c = (2.0 ** rng.integers(0, 3, (nb, m, n))).astype(np.float32)
    return a, b, c


@pytest.mark.parametrize("t", ["f16", "bf16"])
@pytest.mark.parametrize("kind", ["normal", "bits", "special", "ties"])
def test_random_and_special_batches_give_the_same_bits_compiled_and_uncompiled(t: str, kind: str) -> None:
    rng = np.random.default_rng(hash((t, kind)) % (1 << 32))
    model = model_from_target(TARGET)
    for nb, m, k, n in [(1, 1, 16, 16), (3, 8, 32, 16), (5, 4, 48, 32), (2, 8, 128, 16)]:
        a, b, c = _tiles(rng, t, nb, m, k, n, kind)
        got = {}
        for mode in (tiers.COMPILED, tiers.UNCOMPILED):
            with tiers.force(mode):
                got[mode] = dpas(a, b, c, t, t, "f32", "f32", model, TARGET).view(np.uint32)
                got[mode + "-no-c"] = dpas(a, b, None, t, t, "f32", "f32", model, TARGET).view(np.uint32)
        for key in ("", "-no-c"):
            np.testing.assert_array_equal(got[tiers.UNCOMPILED + key], got[tiers.COMPILED + key])


@pytest.mark.parametrize("chunk", [1, 1 << 23])
def test_shared_b_tiles_and_a_16_bit_accumulator_give_the_same_bits(chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The batched call with B given as distinct tiles and a class map (DpasCall), and C in f16 (read exactly as
    f32 by the fast configuration); the twin on the whole batch at once and one matrix at a time."""
    from xesim.numerics import dpas_twin

    monkeypatch.setattr(dpas_twin, "CHUNK_BYTES", chunk)
    rng = np.random.default_rng(7)
    model = model_from_target(TARGET)
    a = rng.standard_normal((6, 8, 32)).astype(np.float16)
    tiles = rng.standard_normal((2, 32, 16)).astype(np.float16)
    classes = np.array([0, 1, 1, 0, 1, 0], np.int64)
    classes.flags.writeable = False
    c = rng.standard_normal((6, 8, 16)).astype(np.float16)
    got = {}
    for mode in (tiers.COMPILED, tiers.UNCOMPILED):
        with tiers.force(mode):
            call = DpasCall("f16", "f16", "f16", "f32", model, TARGET)
            call(a, tiles[classes], c)  # the first call of a signature checks the operands through dpas()
            got[mode] = call(a, tiles, c, b_classes=classes).view(np.uint32)
    np.testing.assert_array_equal(got[tiers.UNCOMPILED], got[tiers.COMPILED])


def test_round_sum_f32_is_the_exact_kernels_rounding() -> None:
    """The twin's exact fallback against xesim.numerics.exact.round_sum (f32, RNE, no flushing) on sums that are
    exact in float64 and sums that are not: ties, cancellation, subnormal results, overflow, specials, zeros."""
    rng = np.random.default_rng(3)
    specials = [0.0, -0.0, math.inf, -math.inf, math.nan, 3.4028234663852886e38, 2.0**-149, -(2.0**-149)]
    cases = [
        (1.0, 2.0**-24, 0.0), (1.0, 2.0**-24, 2.0**-80), (1.0, 2.0**-24, -(2.0**-80)), (1.0, -(2.0**-25), 2.0**-90),
        (3.4028234663852886e38, 2.0**103, 0.0), (3.4028234663852886e38, 2.0**104, 0.0), (2.0**-149, -(2.0**-150), 0.0),
        (2.0**-150, 2.0**-200, 0.0), (-0.0, -0.0, -0.0), (0.0, -0.0, -0.0), (1.0, -1.0, 0.0), (math.inf, -math.inf, 1.0),
    ]
    for _ in range(3000):
        x = rng.standard_normal(3) * 2.0 ** rng.integers(-150, 128, 3)
        cases.append(tuple(float(v) for v in x))
        cases.append((float(x[0]), float(-x[0]) * (1 + 2.0**-40), float(x[2]) * 2.0**-60))
        cases.append(tuple(rng.choice(specials + [float(x[1])], 3)))
    t = np.zeros(4, np.float64)
    limbs = np.zeros(LIMBS, np.int64)
    for terms in cases:
        t[:3] = terms
        want = round_sum(t, 3, 24, -126, 127, RNE, False, False, 0, limbs)
        got = round_sum_f32(terms)
        assert (math.isnan(got) and math.isnan(want)) or \
            np.float64(got).view(np.uint64) == np.float64(want).view(np.uint64), (terms, got, want)
