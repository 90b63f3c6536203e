"""VNNI packing of block tiles (xesim/exec/vnni.py): packed[k2][n][p] = B[v*k2 + p][n] (spec §1.6, §3.3)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from xesim.exec import vnni


@pytest.mark.parametrize(("dtype", "v"), [(np.float16, 2), (ml_dtypes.bfloat16, 2), (np.int8, 4), (np.uint8, 4)])
@pytest.mark.parametrize("lead", [(), (3,), (2, 5)])
def test_pack_follows_the_vnni_formula_and_unpack_inverts_it(dtype, v: int, lead: tuple) -> None:
    rng = np.random.default_rng(v)
    k, n = 8 * v, 24
    b = rng.integers(0, 120, (*lead, k, n)).astype(dtype)
    p = vnni.pack(b, v)
    assert p.shape == (*lead, k // v, n, v) and p.dtype == b.dtype
    flat_b, flat_p = b.reshape(-1, k, n), p.reshape(-1, k // v, n, v)
    for t in range(flat_b.shape[0]):  # element by element, as the formula says
        for k2 in range(k // v):
            for j in range(n):
                for q in range(v):
                    assert flat_p[t, k2, j, q] == flat_b[t, v * k2 + q, j]
    np.testing.assert_array_equal(vnni.unpack(p), b)


def test_threaded_pack_and_unpack_match_one_thread() -> None:
    """Large batches are split over numba's threads; the chunking changes nothing."""
    rng = np.random.default_rng(0)
    b = rng.integers(0, 2**16, (9, 1, 32, 64), dtype=np.uint16).view(np.float16)
    want = np.swapaxes(b.reshape(9, 1, 16, 2, 64), -1, -2)
    for chunks in (2, 3, 9):
        out = np.empty((9, 1, 16, 64, 2), np.uint16)
        vnni._copy_parallel(b.view(np.uint16), out, True, 2, chunks)
        np.testing.assert_array_equal(out.view(np.float16), want)
        back = np.empty((9, 1, 32, 64), np.uint16)
        vnni._copy_parallel(back, out, False, 2, chunks)
        np.testing.assert_array_equal(back.view(np.float16), b)


@pytest.mark.parametrize("threads", [1, 2])
def test_strided_views_are_read_through_their_strides(threads: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A load's blocks (``[n, array_length, K, N]``, a transposed view of memory-order rows) and a DPAS operand
    extracted from a larger packed tile are packed / unpacked as they are, with the values of a contiguous copy."""
    monkeypatch.setattr(vnni, "PARALLEL_BYTES", 0 if threads > 1 else 1 << 40)
    rng = np.random.default_rng(1)
    rows = rng.integers(0, 2**16, (6, 16, 2 * 16), dtype=np.uint16).view(np.float16)  # [n, K, a * N]
    blocks = np.swapaxes(rows.reshape(6, 16, 2, 16), 1, 2)  # [n, a, K, N], not contiguous
    assert not blocks.flags.c_contiguous
    packed = vnni.pack(blocks, 2)
    np.testing.assert_array_equal(packed, vnni.pack(np.ascontiguousarray(blocks), 2))
    one = packed[:, 1]  # vector.extract %bv[1]: [n, K/2, N, 2], strided over instances
    assert not one.flags.c_contiguous
    np.testing.assert_array_equal(vnni.unpack(one), np.ascontiguousarray(blocks[:, 1]))
    np.testing.assert_array_equal(vnni.unpack(packed), blocks)
