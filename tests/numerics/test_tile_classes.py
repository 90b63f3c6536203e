"""Equal-tile grouping (xesim/numerics/tile_classes.py) and DPAS's decoding of B once per distinct tile.

The grouping must put two tiles in one class exactly when all their bits are equal: a class joined on a hash
alone, or on equal values (+0 and -0, two NaN payloads), would hand one subgroup another's B.  The DPAS tests
compare a batch whose B tiles repeat against the same tiles computed one at a time (a batch of one is never
grouped) and count the tiles decoded.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xesim.hw.params import load_target
from xesim.numerics import dpas as dpas_mod
from xesim.numerics.dpas import dpas, model_from_target
from xesim.numerics.tile_classes import tile_classes

TARGET = load_target("pvc")


def _expected(bits: np.ndarray) -> tuple[list[int], list[int]]:
    """Classes numbered by first appearance and each class's first tile, by comparing bytes."""
    seen: dict[bytes, int] = {}
    classes, firsts = [], []
    for x in range(bits.shape[0]):
        key = bits[x].tobytes()
        if key not in seen:
            seen[key] = len(firsts)
            firsts.append(x)
        classes.append(seen[key])
    return classes, firsts


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(0, 200), st.sampled_from([(16, 16), (8, 16), (3, 5), (1, 1)]),
       st.integers(0, 2**32 - 1))
def test_classes_are_the_bitwise_equal_tiles(distinct: int, nb: int, shape: tuple, seed: int) -> None:
    """Random batches built from a few distinct tiles (some differing in a single bit of the last element): the
    classes, their numbering and first tiles are what a byte comparison gives, for tiles hashed eight bytes at a
    time (16x16, 8x16 uint16) and two bytes at a time (3x5, 1x1)."""
    rng = np.random.default_rng(seed)
    pool = rng.integers(0, 1 << 16, (distinct,) + shape, dtype=np.uint16)
    if distinct > 1:
        pool[1] = pool[0]
        pool[1].flat[-1] ^= 1  # one bit apart, in the last word compared
    bits = np.ascontiguousarray(pool[rng.integers(0, distinct, nb)])
    classes, firsts = tile_classes(bits)
    want_classes, want_firsts = _expected(bits)
    assert classes.tolist() == want_classes
    assert not classes.flags.writeable
    if len(want_firsts) == nb:
        assert firsts is None
    else:
        assert firsts.tolist() == want_firsts


def test_equal_values_with_other_bits_are_other_classes() -> None:
    """+0 and -0, and two NaN payloads, are different tiles (their DPAS results can differ in sign or payload)."""
    tiles = np.zeros((4, 16, 16), np.uint16)
    tiles[1, 5, 7] = 0x8000  # f16 -0
    tiles[2, :, :] = 0x7E00  # f16 quiet NaN
    tiles[3, :, :] = 0x7E00
    tiles[3, 15, 15] = 0x7E01  # another payload
    classes, firsts = tile_classes(tiles)
    assert classes.tolist() == [0, 1, 2, 3] and firsts is None


def test_many_tiles_sharing_most_words_stay_apart() -> None:
    """4096 tiles equal except in one word (a table of 8192 slots: any probing chain is followed to its end), and
    each repeated: 4096 classes, every repeat in its tile's class."""
    base = np.zeros((4096, 8, 16), np.uint16)
    base[:, 3, 9] = np.arange(4096, dtype=np.uint16)
    bits = np.concatenate([base, base[::-1]])
    classes, firsts = tile_classes(bits)
    assert classes[:4096].tolist() == list(range(4096))
    assert classes[4096:].tolist() == list(range(4095, -1, -1))
    assert firsts.tolist() == list(range(4096))


@pytest.mark.parametrize("nb", [0, 1])
def test_empty_and_single_batches(nb: int) -> None:
    classes, firsts = tile_classes(np.zeros((nb, 8, 16), np.uint16))
    assert classes.tolist() == [0] * nb and firsts is None


@pytest.mark.parametrize("t", ["f16", "bf16"])
@pytest.mark.parametrize("threads", [1, 2])
def test_dpas_decodes_each_distinct_b_once_and_gives_each_tiles_bits(t: str, threads: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch of 96 B tiles drawn from 5 (one of them a copy of another with a -0 for a +0, one with wide-range
    values so that some columns are not proved exact): five tiles decoded, and every matrix of D has the bits of
    its own tile computed alone."""
    import ml_dtypes

    dt = {"f16": np.float16, "bf16": ml_dtypes.bfloat16}[t]
    rng = np.random.default_rng(5)
    pool = rng.standard_normal((5, 16, 16)).astype(dt)
    pool[1] = pool[0]
    pool[1].view(np.uint16)[2, 3] = 0x8000
    pool[0].view(np.uint16)[2, 3] = 0
    pool[4] = (rng.standard_normal((16, 16)) * 2.0 ** rng.integers(-12, 12, (16, 16))).astype(dt)
    pick = rng.integers(0, 5, 96)
    pick[:5] = np.arange(5)
    b = pool[pick]
    a = rng.standard_normal((96, 8, 16)).astype(dt)
    a[:, :, 3] = 0  # a zero product with the signed zeros above
    c = (rng.standard_normal((96, 8, 16)) * 2.0 ** rng.integers(-30, 30, (96, 8, 16))).astype(np.float32)
    c[:, 2, :] = -0.0
    m = model_from_target(TARGET)
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 0)
    monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 0)
    monkeypatch.setattr(dpas_mod, "_PARALLEL_MIN_WORK", 0 if threads > 1 else 1 << 62)
    decoded = []
    real = dpas_mod._decode_b_classes
    monkeypatch.setattr(dpas_mod, "_decode_b_classes",
                        lambda bits, *r: decoded.append(real(bits, *r)) or decoded[-1])
    dpas_mod.forget_reused_b()
    got = dpas(a, b, c, t, t, "f32", "f32", m, TARGET).view(np.uint32)
    assert len(decoded) == 1 and decoded[0][0].shape[0] == 5
    for x in range(96):
        alone = dpas(a[x], b[x], c[x], t, t, "f32", "f32", m, TARGET).view(np.uint32)
        np.testing.assert_array_equal(got[x], alone)


@pytest.mark.parametrize("types", [("bf16", "bf16", "f32", "f32"), ("f16", "f16", "f32", "f16"),
                                   ("s8", "s8", "s32", "s32")])
def test_a_dpas_call_with_grouped_b_gives_the_bits_of_the_full_b(types: tuple,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """DpasCall with B as distinct tiles plus a class map (what batched DPAS passes after unpacking only the
    distinct tiles) gives the bits of dpas with the full B, on the fast configuration's kernel (decoding only the
    given tiles) and off it (an f16 Dst, integers: B expanded first), on the first call of a signature and on
    later ones."""
    import ml_dtypes

    a_t, b_t, c_t, d_t = types
    m = model_from_target(TARGET)
    call = dpas_mod.DpasCall(a_t, b_t, c_t, d_t, m, TARGET)
    rng = np.random.default_rng(3)
    k = 32 if a_t == "s8" else 16
    src = {"bf16": ml_dtypes.bfloat16, "f16": np.float16, "s8": np.int8}[a_t]
    acc = {"f32": np.float32, "s32": np.int32}[c_t]
    monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 0)
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 0)
    decoded = []
    real = dpas_mod._decode_b_classes
    monkeypatch.setattr(dpas_mod, "_decode_b_classes",
                        lambda bits, *r: decoded.append(bits.shape[0]) or real(bits, *r))
    per_call = []
    for _ in range(3):
        if a_t == "s8":
            a = rng.integers(-128, 128, (40, 8, k)).astype(src)
            tiles = rng.integers(-128, 128, (6, k, 16)).astype(src)
            c = rng.integers(-1000, 1000, (40, 8, 16)).astype(acc)
        else:
            a = rng.standard_normal((40, 8, k)).astype(src)
            tiles = rng.standard_normal((6, k, 16)).astype(src)
            c = rng.standard_normal((40, 8, 16)).astype(acc)
        classes = rng.integers(0, 6, 40)
        classes.flags.writeable = False
        want = dpas(a, tiles[classes], c, a_t, b_t, c_t, d_t, m, TARGET)
        decoded.clear()
        got = call(a, tiles, c, b_classes=classes)
        per_call.append(list(decoded))
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
    if d_t == "f32" and a_t != "s8":
        assert per_call == [[40], [6], [6]]  # the first call checks everything with the full B
    dpas_mod.forget_reused_b()
