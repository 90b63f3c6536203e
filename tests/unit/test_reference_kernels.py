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


# Sizes cross every block edge of the kernel: rows not a multiple of MR or MC, columns not a multiple of NR,
# k past one and two panels (KC); degenerate shapes 1xN, Nx1, K = 1.
MR, NR, KC, MC = reference_kernels.MR, reference_kernels.NR, reference_kernels.KC, reference_kernels.MC
SIZES = [(1, 1, 1), (3, 5, 7), (MR, 1, NR), (1, 2 * KC + 3, 3 * NR + 5), (2 * MC + 5, KC + 1, 1),
         (MC + MR + 1, 2 * KC + 5, 4 * NR + 3), (MR + 1, KC, NR - 1)]
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


# x86's default NaN (what inf − inf and 0·inf give) is 0xFFC00000; using that one as the input NaN makes every
# NaN of the computation the same bits, so results compare bit for bit (see the next test for other NaNs).
DEFAULT_NAN = np.uint32(0xFFC00000).view(np.float32)
SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, DEFAULT_NAN, 1.0, -1.0, 3e38, -3e38, 1e-38, -1e-38, 1e-45, 7e-43,
                     1.5, 0.1, 65504.0, 2.0 ** -14, 2.0 ** -24], np.float32)


def special_inputs(nan: np.float32) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inputs drawn from NaN, ±inf, ±0, subnormals, overflowing products and f16 extremes, half of the rows of A
    and columns of B finite, on sizes crossing the micro-kernel tile, the row block and a k panel."""
    rng = np.random.default_rng(11)
    pool = SPECIALS.copy()
    pool[4] = nan
    M, K, N = MC + MR + 1, KC + 3, 2 * NR + 3
    a, b, c = rng.choice(pool, (M, K)), rng.choice(pool, (K, N)), rng.choice(pool, (M, N))
    a[: M // 2] = rng.choice(pool[5:], (M // 2, K))
    b[:, : N // 2] = rng.choice(pool[5:], (K, N // 2))
    # The last element of C sums subnormal products: every partial sum stays subnormal.
    a[-1] = rng.choice(np.array([1e-45, 7e-43, -7e-43, 0.0, -0.0], np.float32), K)
    b[:, -1] = rng.choice(np.array([1.0, -1.0, 0.5, 2.0], np.float32), K)
    c[-1, -1] = np.float32(1e-45)
    return a, b, c


@pytest.mark.parametrize("threads", [1, 2])
def test_special_value_pool_on_every_tile_edge(threads) -> None:
    a, b, c = special_inputs(DEFAULT_NAN)
    want = literal(a, b, c)
    got = reference_kernels.gemm_f32_blocked(a, b, c, threads)
    assert np.array_equal(bits(got), bits(want))
    finite = np.isfinite(want)
    assert finite.any() and np.isnan(want).any() and np.isinf(want).any()
    tiny = finite & (want != 0) & (np.abs(want) < np.finfo(np.float32).tiny)
    assert tiny.any()  # subnormal results are produced and kept (no flush to zero)


def test_which_of_two_nans_propagates_is_unspecified_but_nan_positions_and_other_bits_match() -> None:
    """With a positive input NaN and the negative default NaN both present, an addition of two NaNs returns
    x86's first operand, and LLVM orders the operands of a commutative add as it likes (in the literal loop as
    in the kernel): IEEE 754 §6.2.3 leaves the choice open.  Everything else is bit-identical."""
    a, b, c = special_inputs(np.float32(np.nan))
    want = literal(a, b, c)
    got = reference_kernels.gemm_f32_blocked(a, b, c, 2)
    nan = np.isnan(want)
    assert np.array_equal(nan, np.isnan(got)) and nan.any()
    assert np.array_equal(bits(got)[~nan], bits(want)[~nan])


def test_subnormal_products_and_signed_zeros() -> None:
    """A product below f32's smallest subnormal rounds to ±0 before the add; −0 + −0 stays −0, −0 + +0 is +0."""
    a = np.array([[1e-30, -1e-30, 0.0], [-0.0, -0.0, -0.0]], np.float32)
    b = np.array([[1e-30, 1e-20, 1.0], [1e-30, 0.0, 1.0], [5.0, 1.0, 2.0]], np.float32)
    c = np.array([[-0.0, 1e-45, -0.0], [-0.0, -0.0, 1e-45]], np.float32)
    want = literal(a, b, c)
    got = reference_kernels.gemm_f32_blocked(a, b, c, 2)
    assert np.array_equal(bits(got), bits(want))
    assert want[0, 0] == 0 and not np.signbit(want[0, 0])  # −0 + fp32(1e-60) = −0 + +0 = +0
    assert want[1, 1] == 0 and np.signbit(want[1, 1])  # −0 + −0 + … stays −0
    assert want[0, 1] == np.float32(1e-45)  # the subnormal C survives products that round to ±0


def test_k_zero_and_empty_shapes_return_c_unchanged() -> None:
    c = np.array([[np.nan, -0.0, 1e-45]], np.float32)
    got = reference_kernels.gemm_f32_blocked(np.zeros((1, 0), np.float32), np.zeros((0, 3), np.float32), c, 2)
    assert np.array_equal(bits(got), bits(c)) and got is not c
    for M, N in ((0, 3), (2, 0)):
        out = reference_kernels.gemm_f32_blocked(np.ones((M, 4), np.float32), np.ones((4, N), np.float32),
                                                 np.zeros((M, N), np.float32), 2)
        assert out.shape == (M, N)


def test_micro_kernel_code_has_separate_multiplies_and_adds() -> None:
    """The micro-kernel's machine code (compiled afresh here: numba keeps no assembly for cached code) multiplies
    and adds packed f32 vectors and contains no fused multiply-add, whatever the CPU offers."""
    import re

    @numba.njit(cache=False)
    def one_tile(a_strip, b_strip, c, kc):  # noqa: ANN001, ANN202
        reference_kernels._tile(a_strip, b_strip, c, 0, NR, kc)

    a_strip = np.ones((KC, MR), np.float32)
    b_strip = np.full((KC, NR), 2.0, np.float32)
    c = np.zeros(MR * NR, np.float32)
    one_tile(a_strip, b_strip, c, 3)
    assert np.all(c == 6.0)
    asm = one_tile.inspect_asm(one_tile.signatures[0])
    assert re.search(r"\bv?mulps\b", asm) and re.search(r"\bv?addps\b", asm)
    assert not re.search(r"\bv?f(n)?m(add|sub)\d*[ps]s\b", asm)


def test_one_specialisation_whatever_the_input_arrays() -> None:
    """f16 / bf16 / f32, strided, read-only inputs all reach the compiled functions as C-contiguous writeable f32:
    one numba specialisation each (every extra one costs compile time on a fresh machine)."""
    rng = np.random.default_rng(4)
    base = rng.uniform(-1, 1, (2 * MR + 1, 2 * NR + 3)).astype(np.float32)
    ro = base.copy()
    ro.flags.writeable = False
    for a, b in ((base, base.T.copy()), (base[:, ::2], base[::2].T), (ro, ro.T),
                 (base.astype(np.float16), base.T.astype(ml_dtypes.bfloat16))):
        c = np.zeros((a.shape[0], b.shape[1]), np.float32)
        assert np.array_equal(bits(reference_kernels.gemm_f32_blocked(a, b, c, 2)), bits(literal(a, b, c)))
    assert len(reference_kernels._panel.signatures) == 1 and len(reference_kernels._pack_b.signatures) == 1
