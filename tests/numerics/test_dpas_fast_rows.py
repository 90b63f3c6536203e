"""The row-wise DPAS fast path (xesim/numerics/dpas.py ``_fast16_rows``): columns whose float64 sums are proved
exact (``_columns_exact``) skip the TwoSum checks; every other column is recomputed the checked way.

These tests pin the proof's two sides: data it proves (random normals as in real GEMMs, small integers) gives the
same bits as the checked kernel (``_row``, reached by turning table decoding off) and as the independent
Fraction reference of test_dpas_props; data whose float64 sums are inexact, built so that the unchecked float64
sum double-rounds to a different f32 (a midpoint plus a tiny product), is not proved and still gives the
reference's bits.  A proof that said "exact" too eagerly fails the midpoint tests.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from tests.numerics.test_dpas_props import decode, encode, operand, ref_element
from xesim.hw.params import load_target
from xesim.numerics import dpas as dpas_mod
from xesim.numerics.dpas import dpas, model_from_target, preset

TARGET = load_target("pvc")
BF = ml_dtypes.bfloat16
DT = {"f16": np.float16, "bf16": BF}


def _fast_and_checked(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, t: str,
                      monkeypatch: pytest.MonkeyPatch, model_name: str | None = None) -> tuple[np.ndarray, ...]:
    """The same tile through the fast row path and through the checked per-element path."""
    m = model_from_target(TARGET) if model_name is None else preset(model_name)
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 0)
    monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 0)
    fast = dpas(a, b, c, t, t, "f32", "f32", m, TARGET).view(np.uint32)
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 1 << 62)
    monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 1 << 62)
    checked = dpas(a, b, c, t, t, "f32", "f32", m, TARGET).view(np.uint32)
    return fast, checked


def _reference_bits(a: np.ndarray, b: np.ndarray, c: np.ndarray, t: str, i: int, j: int,
                    model_name: str | None = None) -> int:
    m = model_from_target(TARGET) if model_name is None else preset(model_name)
    ab, bb, cb = a.view(np.uint16), b.view(np.uint16), c.view(np.uint32)
    a_vals = [operand(int(ab[i, k]), t, m) for k in range(a.shape[1])]
    b_vals = [operand(int(bb[k, j]), t, m) for k in range(b.shape[0])]
    return encode(ref_element(a_vals, b_vals, decode(int(cb[i, j]), "f32"), t, "f32", "f32", m), "f32", m)


def _stats(a: np.ndarray, b: np.ndarray, t: str) -> tuple:
    """The statistics _fast16_rows computes for row 0 of ``a`` and every column of ``b`` (no batch)."""
    key = (dpas_mod._FLOAT_CODES[t], False)
    ta, la = dpas_mod._decode_table(*key), dpas_mod._lsb_table(*key)
    ab = a.view(np.uint16)[0]
    bits = b.view(np.uint16)[None]
    B = np.empty(bits.shape, np.float64)
    Bst = np.empty((1, 2, bits.shape[2]), np.float64)
    Btile = np.empty((1, 2), np.float64)
    dpas_mod._decode16_rows(bits, ta, la, B, Bst, Btile)
    return float(np.abs(ta[ab]).sum()), float(la[ab].min()), Bst, Btile


def _columns_proved(a: np.ndarray, b: np.ndarray, c_row: np.ndarray, t: str) -> np.ndarray:
    """Per column: proved exact by _columns_exact.  The whole-row test _row_exact (tried first) may only say
    yes when every column is proved."""
    sa, la, Bst, Btile = _stats(a, b, t)
    ok = np.empty(b.shape[1], np.bool_)
    dpas_mod._columns_exact(sa, la, Bst, 0, c_row, c_row.view(np.uint32), ok)
    if dpas_mod._row_exact(sa, la, Btile, 0, c_row.view(np.uint32)):
        assert ok.all()
    return ok


def _row_proved(a: np.ndarray, b: np.ndarray, c_row: np.ndarray, t: str) -> bool:
    sa, la, _, Btile = _stats(a, b, t)
    return bool(dpas_mod._row_exact(sa, la, Btile, 0, c_row.view(np.uint32)))


@pytest.mark.parametrize("t", ["f16", "bf16"])
def test_lsb_table_gives_the_lowest_set_bit(t: str) -> None:
    """The power-of-two table: 3 * 2^-5 -> 2^-5, 1.0 -> 1, zero -> inf, inf / NaN -> 0 (never proved)."""
    key = (dpas_mod._FLOAT_CODES[t], False)
    tab = dpas_mod._lsb_table(*key)
    vals = np.array([3 * 2.0**-5, 1.0, -6.0, 0.0, -0.0, np.inf, np.nan], DT[t])
    got = tab[vals.view(np.uint16)]
    assert got.tolist()[:5] == [2.0**-5, 1.0, 2.0, np.inf, np.inf]
    assert got[5] == 0.0 and got[6] == 0.0
    smallest = np.array([1], np.uint16).view(DT[t])  # the smallest subnormal: 2^-24 (f16), 2^-133 (bf16)
    assert tab[1] == float(smallest[0]) == (2.0**-24 if t == "f16" else 2.0**-133)


@pytest.mark.parametrize("t", ["f16", "bf16"])
def test_random_normal_rows_are_proved_and_match_the_checked_path(t: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """GEMM-like data (K = 32 per call, accumulators of a running sum): nearly every column is proved exact,
    and the tile's bits equal the checked kernel's."""
    rng = np.random.default_rng(5)
    a = rng.standard_normal((64, 32)).astype(DT[t])
    b = rng.standard_normal((32, 64)).astype(DT[t])
    c = (rng.standard_normal((64, 64)) * 20).astype(np.float32)
    proved = np.array([_columns_proved(a[i:i + 1], b, c[i], t) for i in range(64)])
    assert proved.mean() > 0.95
    assert np.mean([_row_proved(a[i:i + 1], b, c[i], t) for i in range(64)]) > 0.8
    fast, checked = _fast_and_checked(a, b, c, t, monkeypatch)
    assert np.array_equal(fast, checked)
    for i, j in [(0, 0), (17, 40), (63, 63)]:
        assert int(fast[i, j]) == _reference_bits(a, b, c, t, i, j)


@pytest.mark.parametrize("t", ["f16", "bf16"])
def test_a_midpoint_plus_a_tiny_product_is_not_proved(t: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """C = 2^30, p0 = 2^6 (half an f32 ulp of 2^30), p1 = tiny: the exact sum lies just above the midpoint and
    rounds up to 2^30 + 2^7, while the float64 sum p0 + p1 rounds to 2^6 and ties-to-even gives 2^30.  The
    proof must refuse these columns and the result must be the reference's (rounded up)."""
    tiny = 2.0**-12 if t == "f16" else 2.0**-60  # squares: 2^-24 (f16 keeps it normal) / 2^-120
    a = np.zeros((8, 16), np.float32)
    b = np.zeros((16, 16), np.float32)
    a[:, 0], b[0, :] = 8.0, 8.0  # p0 = 64
    a[:, 1], b[1, :] = tiny, tiny
    a, b = a.astype(DT[t]), b.astype(DT[t])
    c = np.full((8, 16), 2.0**30, np.float32)
    assert not _columns_proved(a, b, c[0], t).any() and not _row_proved(a, b, c[0], t)
    fast, checked = _fast_and_checked(a, b, c, t, monkeypatch)
    want = np.float32(2.0**30 + 2.0**7).view(np.uint32)
    assert (fast == want).all() and (checked == want).all()
    assert int(fast[3, 5]) == _reference_bits(a, b, c, t, 3, 5)
    # the unchecked float64 arithmetic really gets it wrong: what an eager proof would produce
    assert np.float32(np.float64(2.0**30) + (64.0 + tiny * tiny)) == np.float32(2.0**30)


@pytest.mark.parametrize("t", ["f16", "bf16"])
def test_a_tiny_accumulator_under_a_midpoint_is_not_proved(t: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """C = 2^-40 with products 2^24 and 1: the exact sum 2^24 + 1 + 2^-40 is just above an f32 midpoint and
    rounds up to 2^24 + 2, but float64 drops C and ties to 2^24.  Only C's own granularity shows this."""
    a = np.zeros((8, 16), np.float32)
    b = np.zeros((16, 16), np.float32)
    a[:, 0], b[0, :] = 2.0**12, 2.0**12
    a[:, 1], b[1, :] = 1.0, 1.0
    a, b = a.astype(DT[t]), b.astype(DT[t])
    c = np.full((8, 16), 2.0**-40, np.float32)
    assert not _columns_proved(a, b, c[0], t).any() and not _row_proved(a, b, c[0], t)
    fast, checked = _fast_and_checked(a, b, c, t, monkeypatch)
    want = np.float32(2.0**24 + 2).view(np.uint32)
    assert (fast == want).all() and (checked == want).all()
    assert int(fast[2, 9]) == _reference_bits(a, b, c, t, 2, 9)


def test_products_finer_than_f32_subnormals_are_never_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    """bf16 products below 2^-149 granularity: f32 roundings in the subnormal range may round up by a whole
    2^-149 and the magnitude bound no longer holds, so such columns go the checked way (same bits as the
    reference), however small the sums."""
    a = np.zeros((8, 16), np.float32)
    b = np.zeros((16, 16), np.float32)
    a[:, 0], b[0, :] = 2.0**-75, 2.0**-75  # 2^-150: half the smallest subnormal
    a[:, 1], b[1, :] = 2.0**-90, 2.0**-90  # 2^-180
    a[:, 2], b[2, :] = 2.0**-75, 2.0**-75
    a, b = a.astype(BF), b.astype(BF)
    c = np.zeros((8, 16), np.float32)
    assert not _columns_proved(a, b, c[0], "bf16").any() and not _row_proved(a, b, c[0], "bf16")
    fast, checked = _fast_and_checked(a, b, c, "bf16", monkeypatch, "visa_literal")  # no bf16 input flushing
    assert np.array_equal(fast, checked)
    assert int(fast[0, 0]) == _reference_bits(a, b, c, "bf16", 0, 0, "visa_literal")


def test_proved_and_unproved_columns_mix_in_one_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """Odd columns of B carry the midpoint trap (C = 2^30, products 64 and 2^-24), even columns hold small
    integers: only the odd columns are refused and recomputed, and every column equals the reference."""
    rng = np.random.default_rng(9)
    a = rng.integers(-3, 4, (8, 32)).astype(np.float32)
    b = rng.integers(-3, 4, (32, 32)).astype(np.float32)
    a[:, 0], a[:, 1] = 8.0, 2.0**-12
    b[0, ::2], b[0, 1::2] = 0.0, 8.0
    b[1, ::2], b[1, 1::2] = 1.0, 2.0**-12
    a, b = a.astype(np.float16), b.astype(np.float16)
    c = rng.integers(-50, 50, (8, 32)).astype(np.float32)
    c[:, 1::2] = 2.0**30
    ok = _columns_proved(a, b, c[0], "f16")
    assert ok[::2].all() and not ok[1::2].any()
    fast, checked = _fast_and_checked(a, b, c, "f16", monkeypatch)
    assert np.array_equal(fast, checked)
    for i, j in [(0, 0), (0, 1), (5, 30), (7, 31)]:
        assert int(fast[i, j]) == _reference_bits(a, b, c, "f16", i, j)


@pytest.mark.parametrize("t", ["f16", "bf16"])
def test_specials_and_overflow_are_never_proved(t: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """inf / NaN in A, B or C and sums near the f32 maximum are left to the checked path (same bits)."""
    a = np.ones((8, 16), np.float32)
    b = np.ones((16, 16), np.float32)
    c = np.zeros((8, 16), np.float32)
    c[0, 3] = np.nan
    c[1, 4] = np.inf
    b[2, 7] = np.inf
    assert not _columns_proved(a[:1].astype(DT[t]), b.astype(DT[t]), c[0], t)[3]
    assert not _columns_proved(a[:1].astype(DT[t]), b.astype(DT[t]), c[1], t)[4]
    assert not _columns_proved(a[:1].astype(DT[t]), b.astype(DT[t]), c[2], t)[7]
    fast, checked = _fast_and_checked(a.astype(DT[t]), b.astype(DT[t]), c, t, monkeypatch)
    assert np.array_equal(fast, checked)
    big = np.full((8, 16), 3.0e38, np.float32)
    assert not _columns_proved(a[:1].astype(DT[t]), b.astype(DT[t]), big[0], t).any()
    fast, checked = _fast_and_checked(a.astype(DT[t]), b.astype(DT[t]), big, t, monkeypatch)
    assert np.array_equal(fast, checked)
    assert (fast[:, :7] == np.float32(3.0e38).view(np.uint32)).all()  # + 16 is far below an ulp of 3e38
    assert (fast[:, 7] == np.float32(np.inf).view(np.uint32)).all()


@pytest.mark.parametrize("t", ["f16", "bf16"])
def test_a_nan_made_in_the_sum_gets_the_models_pattern(t: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """inf + (-inf) inside a stage makes a NaN whose bits the CPU chooses (x86: negative); Dst must hold the
    model's NaN (spec/dpas-numerics.md §5.13), from the fast path as from the checked one."""
    a = np.ones((8, 16), np.float32)
    b = np.ones((16, 16), np.float32)
    a[:, 0], a[:, 1] = np.inf, -np.inf
    a, b = a.astype(DT[t]), b.astype(DT[t])
    c = np.zeros((8, 16), np.float32)
    m = dataclasses.replace(model_from_target(TARGET), name="odd_nan", nan_bits=0x7FA5A5A5)  # not the CPU's
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 0)
    monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 0)
    fast = dpas(a, b, c, t, t, "f32", "f32", m, TARGET).view(np.uint32)
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 1 << 62)
    monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 1 << 62)
    checked = dpas(a, b, c, t, t, "f32", "f32", m, TARGET).view(np.uint32)
    assert (fast == 0x7FA5A5A5).all() and (checked == 0x7FA5A5A5).all()


@pytest.mark.parametrize("name", sorted(dpas_mod.PRESETS))
def test_every_preset_and_batches_agree(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch of wide-range tiles (many columns unproved) through the parallel row chunks: same bits as the
    checked path under every preset (those outside the fast configuration take the general table path)."""
    rng = np.random.default_rng(13)
    a = (rng.standard_normal((6, 16, 64)) * 2.0 ** rng.integers(-12, 12, (6, 16, 64))).astype(np.float16)
    b = (rng.standard_normal((6, 64, 48)) * 2.0 ** rng.integers(-12, 12, (6, 64, 48))).astype(np.float16)
    c = (rng.standard_normal((6, 16, 48)) * 2.0 ** rng.integers(-30, 30, (6, 16, 48))).astype(np.float32)
    monkeypatch.setattr(dpas_mod, "_PARALLEL_MIN_WORK", 0)
    fast, checked = _fast_and_checked(a, b, c, "f16", monkeypatch, name)
    assert np.array_equal(fast, checked)


@pytest.mark.parametrize("chunks", [1, 2, 3, 5])
def test_threaded_b_decoding_matches_the_serial_one(chunks: int) -> None:
    """_decode16_rows_parallel (several tiles split over numba's threads) fills B, the column statistics and the
    tile statistics exactly as _decode16_rows does."""
    rng = np.random.default_rng(chunks)
    bits = rng.integers(0, 2**16, (5, 32, 48), dtype=np.uint16)
    bits[1, 3, 7] = 0x7C00  # +inf (f16): statistics must handle it alike
    key = (dpas_mod._FLOAT_CODES["f16"], False)
    ta, la = dpas_mod._decode_table(*key), dpas_mod._lsb_table(*key)
    out = []
    for parallel in (False, True):
        B = np.empty(bits.shape, np.float64)
        Bst = np.empty((5, 2, 48), np.float64)
        Btile = np.empty((5, 2), np.float64)
        if parallel:
            dpas_mod._decode16_rows_parallel(bits, ta, la, B, Bst, Btile, 2, chunks)
        else:
            dpas_mod._decode16_rows(bits, ta, la, B, Bst, Btile)
        out.append((B, Bst, Btile))
    for x, y in zip(*out):
        np.testing.assert_array_equal(x, y)
    assert out[0][0][2, 4, 5] == float(bits[2, 4, 5].view(np.float16))  # one value by hand


def test_threaded_rows_give_the_bits_of_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch large enough for the threaded kernel (rows in dynamically handed-out chunks) gives the bits of the
    one-thread kernel, including columns that take the checked way (huge values, infinities, NaNs) spread over
    the chunks, whose count decides the final NaN scan."""
    import numba

    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has one thread on this machine: there is no threaded kernel to compare")
    rng = np.random.default_rng(11)
    a = rng.standard_normal((64, 32, 32)).astype(np.float16)
    b = rng.standard_normal((64, 32, 32)).astype(np.float16)
    c = rng.standard_normal((64, 32, 32)).astype(np.float32)
    a[5, 3, 7], a[40, 0, 1], b[63, 2, 9] = np.inf, 60000.0, np.nan
    c[17, 30, 4] = 3.0e38
    m = model_from_target(TARGET)
    assert 64 * 32 * 32 * 2 >= dpas_mod._PARALLEL_MIN_WORK  # tiles x M x N x K steps: the threaded path
    prev = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = dpas(a, b, c, "f16", "f16", "f32", "f32", m, TARGET)
        numba.set_num_threads(2)
        two = dpas(a, b, c, "f16", "f16", "f32", "f32", m, TARGET)
    finally:
        numba.set_num_threads(prev)
    np.testing.assert_array_equal(one.view(np.uint32), two.view(np.uint32))
    assert np.isnan(two).any() and np.isinf(two).any()
    assert _reference_bits(a[40], b[40], c[40], "f16", 0, 3) == int(two[40, 0, 3].view(np.uint32))


# ------------------------------------------------------------------------------------- reuse of a decoded B
def _tiles(t: str, seed: int, nb: int = 64) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((nb, 8, 16)).astype(DT[t])
    b = rng.standard_normal((nb, 16, 16)).astype(DT[t])
    c = rng.standard_normal((nb, 8, 16)).astype(np.float32)
    return a, b, c


class _Token:
    """Stands for a B value (tokens are weakly referenced: a decoding lives as long as its value)."""


def _counting_b_decodes(monkeypatch: pytest.MonkeyPatch) -> tuple[object, list]:
    """The target's model, and a list that gets an entry per B decoding; the row path at any size, one thread,
    no decodings kept from before."""
    decodes: list = []
    real = dpas_mod._decode16_rows
    monkeypatch.setattr(dpas_mod, "_decode16_rows", lambda *a: decodes.append(1) or real(*a))
    monkeypatch.setattr(dpas_mod.numba, "get_num_threads", lambda: 1)
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 0)
    monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 0)
    dpas_mod.forget_reused_b()
    return model_from_target(TARGET), decodes


def test_a_b_token_reuses_the_decoding_with_the_same_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Calls naming their B with a token decode each B once (while it is among the last few), and give the bits
    of calls without a token."""
    m, decodes = _counting_b_decodes(monkeypatch)
    a0, b0, c0 = _tiles("bf16", 1)
    a1, b1, _ = _tiles("bf16", 2)
    t0, t1 = _Token(), _Token()
    calls = [(a0, b0, t0), (a0, b1, t1), (a1, b0, t0), (a1, b1, t1)]  # a VC step: B fragments taken in turn
    got = [dpas(a, b, c0, "bf16", "bf16", "f32", "f32", m, TARGET, b_token=tok).view(np.uint32)
           for a, b, tok in calls]
    assert len(decodes) == 2
    want = [dpas(a, b, c0, "bf16", "bf16", "f32", "f32", m, TARGET).view(np.uint32) for a, b, _ in calls]
    assert len(decodes) == 6  # without tokens every call decodes
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    dpas_mod.forget_reused_b()


def test_a_b_token_is_not_reused_for_another_type_or_after_forgetting(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same token with B read as another type decodes again (other values); forget_reused_b drops the
    decodings; more B values than the reuse window evict the oldest."""
    m, decodes = _counting_b_decodes(monkeypatch)
    a, b, c = _tiles("f16", 3)
    tok = _Token()
    as_f16 = dpas(a, b, c, "f16", "f16", "f32", "f32", m, TARGET, b_token=tok)
    a16, b16 = a.view(np.uint16).view(BF), b.view(np.uint16).view(BF)  # same bits read as bf16
    as_bf16 = dpas(a16, b16, c, "bf16", "bf16", "f32", "f32", m, TARGET, b_token=tok)
    assert len(decodes) == 2
    np.testing.assert_array_equal(as_bf16.view(np.uint32),
                                  dpas(a16, b16, c, "bf16", "bf16", "f32", "f32", m, TARGET).view(np.uint32))
    assert not np.array_equal(as_f16.view(np.uint32), as_bf16.view(np.uint32))
    dpas_mod.forget_reused_b()
    dpas(a, b, c, "f16", "f16", "f32", "f32", m, TARGET, b_token=tok)
    assert len(decodes) == 4
    tokens = [_Token() for _ in range(dpas_mod._RECENT_B_MAX)]
    for t in tokens:
        dpas(a, b, c, "f16", "f16", "f32", "f32", m, TARGET, b_token=t)
    decodes.clear()
    dpas(a, b, c, "f16", "f16", "f32", "f32", m, TARGET, b_token=tok)  # evicted by the newer ones
    dpas(a, b, c, "f16", "f16", "f32", "f32", m, TARGET, b_token=tokens[-1])  # still kept
    assert len(decodes) == 1
    dpas_mod.forget_reused_b()


def test_a_decoding_goes_with_its_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept decoding is released as soon as its token (the B value) is gone, so a loop that loads a new B every
    step holds one decoded B, not the reuse window's worth; a token that cannot be weakly referenced is not kept
    and still gives the same bits."""
    import gc

    m, decodes = _counting_b_decodes(monkeypatch)
    a, b, c = _tiles("f16", 4)
    keep = _Token()
    dpas(a, b, c, "f16", "f16", "f32", "f32", m, TARGET, b_token=keep)
    for _ in range(3):  # a loop's steps: each B value dies when the next one is made
        step = _Token()
        dpas(a, b, c, "f16", "f16", "f32", "f32", m, TARGET, b_token=step)
        assert len(dpas_mod._RECENT_B) == 2
        del step
        assert len(dpas_mod._RECENT_B) == 1  # only the live token's decoding is left
    gc.collect()
    decodes.clear()
    got = dpas(a, b, c, "f16", "f16", "f32", "f32", m, TARGET, b_token=keep)
    assert decodes == []  # the live token's decoding was kept
    plain = object()  # no weak references to it
    again = dpas(a, b, c, "f16", "f16", "f32", "f32", m, TARGET, b_token=plain)
    assert len(decodes) == 1 and len(dpas_mod._RECENT_B) == 1
    np.testing.assert_array_equal(again.view(np.uint32), got.view(np.uint32))
    dpas_mod.forget_reused_b()


@pytest.mark.parametrize("types", [("bf16", "bf16", "f32", "f32"), ("f16", "f16", "f16", "f32"),
                                   ("f16", "f16", "f32", "f16"), ("s8", "s8", "s32", "s32")])
def test_a_dpas_call_gives_the_bits_of_dpas(types: tuple, monkeypatch: pytest.MonkeyPatch) -> None:
    """DpasCall (one op's calls, checked once per operand signature) gives dpas's bits on every call: on the fast
    configuration's kernel and off it (an f16 Dst, integers), for batches above and below the table threshold,
    with C and without; an illegal shape raises dpas's ValueError every time."""
    a_t, b_t, c_t, d_t = types
    m = model_from_target(TARGET)
    call = dpas_mod.DpasCall(a_t, b_t, c_t, d_t, m, TARGET)
    rng = np.random.default_rng(7)
    k = 32 if a_t == "s8" else 16
    src = {"bf16": BF, "f16": np.float16, "s8": np.int8}[a_t]
    acc = {"f32": np.float32, "f16": np.float16, "s32": np.int32}[c_t]
    monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 8 * 16 * 40)  # 40 tiles: small batches miss the fast path
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 8 * 16 * 40)
    delegated = []
    real = dpas_mod.dpas
    monkeypatch.setattr(dpas_mod, "dpas", lambda *a, **kw: delegated.append(1) or real(*a, **kw))
    for nb in (64, 64, 8, 64, 8):
        if a_t == "s8":
            a = rng.integers(-128, 128, (nb, 8, k)).astype(src)
            b = rng.integers(-128, 128, (nb, k, 16)).astype(src)
            c = rng.integers(-1000, 1000, (nb, 8, 16)).astype(acc)
        else:
            a = rng.standard_normal((nb, 8, k)).astype(src)
            b = rng.standard_normal((nb, k, 16)).astype(src)
            c = rng.standard_normal((nb, 8, 16)).astype(acc)
        for cc in (c, None):
            tok = _Token()
            want = real(a, b, cc, a_t, b_t, c_t, d_t, m, TARGET)
            got = call(a, b, cc, b_token=tok)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
    assert len(call.plans) == 4  # two batch sizes, with and without C
    fast = d_t == "f32" and a_t != "s8"
    assert len(delegated) == (6 if fast else 10)  # first sight of each signature, and the small batches
    bad = np.zeros((4, 8, k + 1), a.dtype)
    for _ in range(2):
        with pytest.raises(ValueError, match="K dimensions differ"):
            call(bad, b[:4], None)
    dpas_mod.forget_reused_b()


def test_operands_strided_over_the_batch_are_read_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch of A tiles that are row blocks of larger tiles (what vector.extract_strided_slice hands DPAS) gives
    the bits of its contiguous copy, and is not copied first (``_bits3``); a C strided the same way is copied."""
    rng = np.random.default_rng(11)
    big_a = rng.uniform(-2, 2, (40, 32, 16)).astype(BF)
    big_c = rng.standard_normal((40, 16, 16)).astype(np.float32)
    b = rng.uniform(-2, 2, (40, 16, 16)).astype(BF)
    a, c = big_a[:, 8:16], big_c[:, 8:16]
    assert not a.flags.c_contiguous and not c.flags.c_contiguous
    m = model_from_target(TARGET)
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 0)
    monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 0)
    want = dpas(np.ascontiguousarray(a), b, np.ascontiguousarray(c), "bf16", "bf16", "f32", "f32", m, TARGET)
    copies = []
    real = dpas_mod._batched
    monkeypatch.setattr(dpas_mod, "_batched", lambda *x: copies.append(1) or real(*x))
    got = dpas(a, b, np.ascontiguousarray(c), "bf16", "bf16", "f32", "f32", m, TARGET)
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    assert copies == []
    np.testing.assert_array_equal(dpas(a, b, c, "bf16", "bf16", "f32", "f32", m, TARGET).view(np.uint32),
                                  want.view(np.uint32))
    assert len(copies) == 1


@pytest.mark.parametrize("example", ["simt_dpas_f16.mlir", "sg_gemm_f16.mlir", "lane_gemm_f16.mlir"])
def test_programs_with_only_the_fast_configuration_never_decode_per_element(
        example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The example programs' DPAS ops (f16 sources, f32 C and Dst) take the table path at every size, single tiles
    included (``_FAST_MIN_WORK``): the per-element kernel ``_float_driver`` -- about 15 s of numba compilation on
    a first run -- is never called, and the output is the one the CHECK lines expect."""
    from tests.conftest import run_xesim

    root = Path(__file__).resolve().parents[2]
    called = []
    real = dpas_mod._float_driver
    monkeypatch.setattr(dpas_mod, "_float_driver", lambda *a: called.append(1) or real(*a))
    rc, _, err = run_xesim(["check", str(root / "examples" / example)])
    assert rc == 0, err
    assert called == []


@pytest.mark.parametrize("code", [dpas_mod._F16, dpas_mod._BF16])
@pytest.mark.parametrize("ftz", [False, True])
def test_decode_tables_hold_the_decoders_bits(code: int, ftz: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 65536-entry tables (numpy) hold exactly what the numba decoder ``_decode_value`` gives for every bit
    pattern: subnormals flushed to a zero of their sign under ftz, NaN as its sign's default NaN, bit for bit."""
    monkeypatch.setattr(dpas_mod, "_TABLES", {})
    table = dpas_mod._decode_table(code, ftz)
    want = np.array([dpas_mod._decode_value(np.int64(b), code, ftz, 2) for b in range(1 << 16)])
    np.testing.assert_array_equal(table.view(np.uint64), want.view(np.uint64))
