"""The compiled reference GEMM (xesim/runtime/reference_kernels.py) against literal sequential-k loops.

IMEX's order (spec/programs-and-runner.md §2): c[i][j] = fp32(c[i][j] + fp32(a[i][k]·b[k][j])) for k = 0..K−1.
The expected values here come from loops written in this file, never from the module under test."""

from __future__ import annotations

import ml_dtypes
import numba
import numpy as np
import pytest

from tests.unit.test_runtime_utils import F16, F32, FakeEngine, buffer, call, reference_gemm
from xesim.runtime import reference_kernels, utils_imex


@numba.njit(cache=False, fastmath=False)
def literal_loop(a, b, c):  # noqa: ANN001, ANN201
    """The sequential i-k-j loop of ImexRunnerUtils.cpp, verbatim, in f32."""
    M, K = a.shape
    N = b.shape[1]
    for i in range(M):
        for k in range(K):
            for j in range(N):
                c[i, j] = c[i, j] + a[i, k] * b[k, j]


def literal(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    out = np.array(c, np.float32, copy=True)
    literal_loop(a.astype(np.float32), b.astype(np.float32), out)
    return out


def bits(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x, np.float32).view(np.uint32)


# Sizes cross every block edge of the kernel: rows not a multiple of ROWS, columns past COLS, k past DEPTH.
SIZES = [(1, 1, 1), (3, 5, 7), (reference_kernels.ROWS + 3, reference_kernels.DEPTH * 2 + 5,
                                  reference_kernels.COLS + 17)]


@pytest.mark.parametrize("dt", [np.float16, ml_dtypes.bfloat16, np.float32])
@pytest.mark.parametrize("M,K,N", SIZES)
@pytest.mark.parametrize("threads", [1, 2])
def test_blocked_gemm_is_bit_identical_to_literal_loop(dt, M, K, N, threads) -> None:
    rng = np.random.default_rng(M * 7 + K + N)
    a = rng.uniform(-3, 3, (M, K)).astype(dt)
    b = rng.uniform(-3, 3, (K, N)).astype(dt)
    c = rng.uniform(-8, 8, (M, N)).astype(np.float32)
    got = reference_kernels.gemm_f32_blocked(a, b, c, threads)
    assert np.array_equal(bits(got), bits(literal(a, b, c)))


def test_products_are_rounded_before_the_add_and_k_runs_in_order() -> None:
    """f32 inputs whose products are inexact: an FMA (product unrounded), a wider accumulator or a
    reordered k sum would each give different bits; the kernel gives the literal loop's."""
    rng = np.random.default_rng(5)
    M, K, N = 20, 300, 40
    a = rng.uniform(-1, 1, (M, K)).astype(np.float32)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float32)
    c = rng.uniform(-1, 1, (M, N)).astype(np.float32)
    want = literal(a, b, c)
    got = reference_kernels.gemm_f32_blocked(a, b, c, 2)
    assert np.array_equal(bits(got), bits(want))
    fused = c.copy()
    for k in range(K):  # fp32(c + a·b) with the product exact (double holds it), i.e. an FMA
        fused = (fused.astype(np.float64) + np.outer(a[:, k].astype(np.float64), b[k].astype(np.float64))).astype(np.float32)
    reversed_k = literal(a[:, ::-1], b[::-1], c)
    wide = (c.astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    for other in (fused, reversed_k, wide):
        assert not np.array_equal(bits(other), bits(want))


def test_literal_loop_agrees_with_the_pure_python_loop() -> None:
    """The numba loop above is itself checked against the scalar Python loop (exact double arithmetic)."""
    rng = np.random.default_rng(9)
    a = rng.uniform(-1, 1, (4, 33)).astype(np.float32)
    b = rng.uniform(-1, 1, (33, 6)).astype(np.float32)
    c = rng.uniform(-1, 1, (4, 6)).astype(np.float32)
    assert np.array_equal(bits(literal(a, b, c)), bits(reference_gemm(a.tolist(), b.tolist(), c.tolist())))


def test_special_values_follow_the_literal_loop() -> None:
    """Overflow to inf, inf − inf = NaN and subnormal products take the same path as the literal loop."""
    a = np.array([[3e38, 3e38, 1e-30], [1.0, -1.0, 1e-30]], np.float32)
    b = np.array([[2.0, 1.0], [-2.0, 1.0], [1e-10, 1e-20]], np.float32)
    c = np.array([[0.0, 1.0], [5e-45, -0.0]], np.float32)
    want = literal(a, b, c)
    got = reference_kernels.gemm_f32_blocked(a, b, c, 2)
    assert np.array_equal(bits(got), bits(want))
    assert np.isnan(got[0, 0]) and np.isinf(got[0, 1])


@pytest.mark.parametrize("name,round_f16", [("gemmF16F16F32", False), ("gemmF16F16F16", True)])
def test_runtime_gemm_on_the_compiled_path(name, round_f16) -> None:
    """Large enough for utils_imex to take the compiled kernel; F16F16F16 rounds each result to f16 (RNE)."""
    M, K, N = 64, 512, 520
    assert M * K * N >= utils_imex.NUMBA_THRESHOLD
    rng = np.random.default_rng(3)
    a = rng.uniform(-2, 2, (M, K)).astype(np.float16)
    b = rng.uniform(-2, 2, (K, N)).astype(np.float16)
    c = rng.uniform(-2, 2, (M, N)).astype(np.float32)
    eng = FakeEngine()
    A, B, C = buffer(eng, a, F16, np.float16), buffer(eng, b, F16, np.float16), buffer(eng, c, F32, np.float32)
    call(eng, name, A, B, C)
    want = literal(a, b, c)
    if round_f16:
        want = want.astype(np.float16).astype(np.float32)
        assert not np.array_equal(bits(want), bits(literal(a, b, c)))
    assert np.array_equal(bits(C.logical_array()), bits(want))
