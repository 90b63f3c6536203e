"""Property test of the batched fast DPAS path (xesim/numerics/dpas.py ``_fast16_call`` / ``_fast16_rows``: A and B
decoded once per distinct tile, two rows per pass, fused multiply-adds on proved columns) against the reference
per-instruction path: the same batch computed as a chain of single hardware instructions (``dpas_instruction`` on
8-row x exec-size blocks, K steps in increasing order, each Dst the next Src0) through the generic per-element
kernel (the fast and table paths switched off), compared bit for bit.

Hypothesis draws batches whose matrices repeat a few distinct A and B tiles (so the tile classes matter), any M
(odd M leaves a single row at the end of a matrix), row ranges split among threads at any row (the parallel
kernel with more chunks than rows), values from random normals mixed with special values (NaN, +-inf, +-0, f16 /
bf16 subnormals, the largest finite values, cancelling pairs), C likewise, and every preset of
xesim/numerics/dpas_models.py (the presets other than the fast configuration check that the dispatch still
sends them elsewhere with the same results).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xesim.hw.params import load_target
from xesim.numerics import dpas as dpas_mod
from xesim.numerics.dpas import PRESETS, DpasCall, dpas, dpas_instruction, preset

TARGET = load_target("pvc")
DT = {"f16": np.float16, "bf16": ml_dtypes.bfloat16}
#: bit patterns of special values per type: NaN, +-inf, +-0, smallest and largest subnormal, largest finite,
#: smallest normal, 1 and -1 (cancellation)
SPECIAL = {
    "f16": [0x7E00, 0x7C00, 0xFC00, 0x0000, 0x8000, 0x0001, 0x83FF, 0x7BFF, 0xFBFF, 0x0400, 0x3C00, 0xBC00],
    "bf16": [0x7FC0, 0x7F80, 0xFF80, 0x0000, 0x8000, 0x0001, 0x807F, 0x7F7F, 0xFF7F, 0x0080, 0x3F80, 0xBF80],
}
SPECIAL_C = [0x7FC00000, 0x7F800000, 0xFF800000, 0x80000000, 0x00000001, 0x7F7FFFFF, 0x00800000, 0x3F800000,
             0xBF800000]


def _tiles(rng: np.random.Generator, n: int, rows: int, cols: int, t: str, special: float, scale: float) -> np.ndarray:
    """``n`` random tiles of type ``t``: normals times ``scale``, a fraction ``special`` of them special values."""
    x = (rng.standard_normal((n, rows, cols)) * scale).astype(np.float32).astype(DT[t])
    bits = x.view(np.uint16)
    mask = rng.random(bits.shape) < special
    bits[mask] = rng.choice(np.array(SPECIAL[t], np.uint16), int(mask.sum()))
    return x


def _reference(a: np.ndarray, b: np.ndarray, c: np.ndarray, t: str, model: object,
               monkeypatch: pytest.MonkeyPatch) -> np.ndarray:
    """Every matrix of the batch as hardware instructions one by one, through the generic per-element kernel."""
    monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 1 << 62)
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 1 << 62)
    monkeypatch.setattr(dpas_mod, "_PARALLEL_MIN_WORK", 1 << 62)
    nb, M, K = a.shape
    N = b.shape[2]
    kinst, rc, es = 16, 8, 16  # pvc: f16/bf16 K = 8 x 2, max repeat count 8, execution size 16
    out = c.copy()
    for x in range(nb):
        for i0 in range(0, M, rc):
            for j0 in range(0, N, es):
                acc = out[x, i0:i0 + rc, j0:j0 + es]
                for k0 in range(0, K, kinst):
                    acc = dpas_instruction(a[x, i0:i0 + rc, k0:k0 + kinst], b[x, k0:k0 + kinst, j0:j0 + es], acc,
                                           t, t, "f32", "f32", model, TARGET)
                out[x, i0:i0 + rc, j0:j0 + es] = acc
    monkeypatch.undo()
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), t=st.sampled_from(["f16", "bf16"]), name=st.sampled_from(sorted(PRESETS)),
       na=st.integers(1, 3), nbt=st.integers(1, 3), nb=st.integers(1, 6), M=st.integers(1, 11),
       nsteps=st.integers(1, 3), npanels=st.integers(1, 2), special=st.sampled_from([0.0, 0.02, 0.3]),
       scale=st.sampled_from([1.0, 2.0**-10, 2.0**12]), parallel=st.booleans(), via_call=st.booleans())
def test_fast_batches_equal_chained_reference_instructions(
        seed: int, t: str, name: str, na: int, nbt: int, nb: int, M: int, nsteps: int, npanels: int, special: float,
        scale: float, parallel: bool, via_call: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(seed)
    K, N = 16 * nsteps, 16 * npanels
    model = preset(name)
    a_tiles = _tiles(rng, na, M, K, t, special, scale)
    b_tiles = _tiles(rng, nbt, K, N, t, special, scale)
    amap = rng.integers(0, na, nb)
    bmap = rng.integers(0, nbt, nb).astype(np.int64)
    a, b = a_tiles[amap], b_tiles[bmap]
    c = (rng.standard_normal((nb, M, N)) * scale * 4).astype(np.float32)
    cbits = c.view(np.uint32)
    cmask = rng.random(c.shape) < special
    cbits[cmask] = rng.choice(np.array(SPECIAL_C, np.uint32), int(cmask.sum()))
    want = _reference(a, b, c, t, model, monkeypatch).view(np.uint32)

    monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 0)
    monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 0)
    if parallel:  # the row kernel on numba's threads, row ranges cut at any row
        monkeypatch.setattr(dpas_mod, "_PARALLEL_MIN_WORK", 0)
        monkeypatch.setattr(dpas_mod, "chunk_count", lambda threads, rows: max(1, 2 * rows // 3))
    if via_call:  # the kernel step's entry point, B given as its distinct tiles and a class map
        call = DpasCall(t, t, "f32", "f32", model, TARGET)
        classes = bmap.copy()
        classes.flags.writeable = False
        got = [call(a, b_tiles, c, b_classes=classes).view(np.uint32) for _ in range(2)]  # plain, then planned
        assert np.array_equal(got[0], want) and np.array_equal(got[1], want)
    else:
        got = dpas(a, b, c, t, t, "f32", "f32", model, TARGET).view(np.uint32)
        assert np.array_equal(got, want)


def test_strided_a_views_and_shared_tiles_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """An A operand that is a strided view (not deduplicated) and one with repeated tiles give the reference bits,
    and the default model on 16-bit sources with f32 C reaches the fast kernel (counted)."""
    rng = np.random.default_rng(7)
    model = preset("default")
    big = _tiles(rng, 4, 16, 32, "f16", 0.0, 1.0)
    a = big[:, :8, :]  # every matrix C-contiguous, the batch not: the kernel reads the view
    assert not a.flags.c_contiguous and dpas_mod._matrices_contiguous(a)
    b = _tiles(rng, 4, 32, 32, "f16", 0.0, 1.0)
    c = rng.standard_normal((4, 8, 32)).astype(np.float32)
    want = _reference(np.ascontiguousarray(a), b, c, "f16", model, monkeypatch).view(np.uint32)
    calls = []
    real = dpas_mod._fast16_rows
    monkeypatch.setattr(dpas_mod, "_fast16_rows", lambda *args: calls.append(1) or real(*args))
    got = dpas(a, b, c, "f16", "f16", "f32", "f32", model, TARGET).view(np.uint32)
    assert np.array_equal(got, want) and calls
    shared = np.ascontiguousarray(np.broadcast_to(a[:1], a.shape))  # one A tile four times
    want = _reference(shared, b, c, "f16", model, monkeypatch).view(np.uint32)
    assert np.array_equal(dpas(shared, b, c, "f16", "f16", "f32", "f32", model, TARGET).view(np.uint32), want)
