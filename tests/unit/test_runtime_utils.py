"""Runtime utility functions (spec/programs-and-runner.md §1, §2) called through the external-function table
on descriptors built by hand.  Expected texts and values are derived by hand (reasoning written next to
them), with exact rational arithmetic, or with an independent scalar reference."""

from __future__ import annotations

import io
import time
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from xesim.exec.faults import ExecFault
from xesim.exec.values import MemRefValue, identity_strides
from xesim.hw.memory import GLOBAL_BASE, AddressSpace
from xesim.ir import types as irt
from xesim.runtime import utils_imex
from xesim.runtime.externals import EXTERNALS

F32 = irt.FloatType("f32")
F16 = irt.FloatType("f16")
BF16 = irt.FloatType("bf16")
F64 = irt.FloatType("f64")
I8 = irt.IntegerType(8)
I16 = irt.IntegerType(16)
I32 = irt.IntegerType(32)
IDX = irt.IndexType()


class FakeEngine:
    def __init__(self, seed: int = 0) -> None:
        from xesim.config import RunConfig

        self.out = io.StringIO()
        self.config = RunConfig(seed=seed)
        self.memory = AddressSpace("global")


def buffer(eng: FakeEngine, values, elem: irt.Type, dtype) -> MemRefValue:
    """A fresh allocation holding ``values`` (row-major) with an identity descriptor."""
    arr = np.asarray(values, dtype=dtype)
    alloc = eng.memory.allocate(max(arr.nbytes, 1), "host")
    eng.memory.write(alloc.base, arr.reshape(-1))
    return MemRefValue(eng.memory, alloc, alloc.base, 0, arr.shape, identity_strides(arr.shape), elem)


def view(mr: MemRefValue, offset: int, sizes, strides) -> MemRefValue:
    return MemRefValue(mr.space, mr.alloc, mr.aligned, offset, tuple(sizes), tuple(strides), mr.element_type)


def unranked(mr: MemRefValue) -> irt.Type:
    return irt.UnrankedMemRefType(mr.element_type)


def ranked(mr: MemRefValue) -> irt.Type:
    return irt.MemRefType(tuple(mr.sizes), mr.element_type)


def call(eng: FakeEngine, name: str, *args, types=None):
    if types is None:
        types = [unranked(a) if isinstance(a, MemRefValue) else F32 for a in args]
    return EXTERNALS[name](eng, list(args), types)


# ----------------------------------------------------------------------------- printMemref
def test_print_memref_f32_unranked_worked_example() -> None:
    eng = FakeEngine()
    m = buffer(eng, [[1, 2, 3], [4, 5, 6]], F32, np.float32)
    call(eng, "printMemrefF32", m)
    # First allocation of a fresh space sits at GLOBAL_BASE (0x7f3a00000000, 64-byte aligned already).
    assert GLOBAL_BASE == 0x7F3A00000000
    assert eng.out.getvalue() == (
        "Unranked Memref base@ = 0x7f3a00000000 rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = \n"
        "[[1,   2,   3], \n"
        " [4,   5,   6]]\n"
    )


def test_print_memref_subview_prints_descriptor_and_strided_data() -> None:
    eng = FakeEngine()
    m = buffer(eng, [[1, 2, 3], [4, 5, 6]], F32, np.float32)
    col = view(m, 1, [2], [3])  # column 1: elements 2 and 5; base pointer stays the aligned pointer
    call(eng, "printMemrefF32", col)
    assert eng.out.getvalue() == (
        "Unranked Memref base@ = 0x7f3a00000000 rank = 1 offset = 1 sizes = [2] strides = [3] data = \n"
        "[2,  5]\n"
    )


def test_print_memref_ranked_argument_prints_memref_header() -> None:
    eng = FakeEngine()
    m = buffer(eng, [7.5], F32, np.float32)
    call(eng, "printMemrefF32", m, types=[ranked(m)])
    assert eng.out.getvalue().startswith("Memref base@ = 0x7f3a00000000 rank = 1 offset = 0 sizes = [1] strides = [1]")
    eng2 = FakeEngine()
    m2 = buffer(eng2, [[1.0, -0.0]], F32, np.float32)
    call(eng2, "printMemref2dF32", m2, types=[ranked(m2)])
    assert eng2.out.getvalue().endswith("data = \n[[1,   -0]]\n")


def test_print_memref_integer_kinds() -> None:
    eng = FakeEngine()
    call(eng, "printMemrefI32", buffer(eng, [-1, 2147483647], I32, np.int32))
    call(eng, "printMemrefInd", buffer(eng, [-1, 3], IDX, np.int64))  # int64_t in RunnerUtils.cpp: signed
    call(eng, "printMemrefI16", buffer(eng, [-32768, 7], I16, np.int16))
    call(eng, "printMemrefI8", buffer(eng, [72, 105], I8, np.int8))  # 'H', 'i' as characters
    lines = eng.out.getvalue().splitlines()
    assert lines[1] == "[-1,  2147483647]"
    assert lines[3] == "[-1,  3]"
    assert lines[5] == "[-32768,  7]"
    assert lines[7] == "[H,  i]"


def test_print_memref_f64_f16_bf16_values() -> None:
    eng = FakeEngine()
    call(eng, "printMemrefF64", buffer(eng, [0.1, 1234567.0], F64, np.float64))
    call(eng, "printMemrefF16", buffer(eng, [11.11, 65504.0], F16, np.float16))
    # bf16(1/3): 1/3 = 1.0101010|1010...b x 2^-2, round up -> 1.0101011b x 2^-2 = 171/512 = 0.333984375
    call(eng, "printMemrefBF16", buffer(eng, [1 / 3], BF16, ml_dtypes.bfloat16))
    lines = eng.out.getvalue().splitlines()
    assert lines[1] == "[0.1,  1.23457e+06]"
    assert lines[3] == "[11.1094,  65504]"  # f16(11.11) = 11.109375
    assert lines[5] == "[0.333984]"


def test_print_memref_rank0_and_3d() -> None:
    eng = FakeEngine()
    scalar = buffer(eng, np.array(5, np.int32), I32, np.int32)
    call(eng, "printMemrefI32", scalar)
    call(eng, "printMemrefI32", buffer(eng, np.arange(8).reshape(2, 2, 2), I32, np.int32))
    text = eng.out.getvalue()
    first, rest = text.split("\n", 1)
    assert first.endswith("rank = 0 offset = 0 sizes = [] strides = [] data = ")
    assert rest.startswith("[5]\nUnranked Memref base@ = 0x")
    assert rest.endswith("[[[0,    1], \n  [2,    3]], \n [[4,    5], \n  [6,    7]]]\n")


def test_print_memref_rejects_wrong_element_size() -> None:
    eng = FakeEngine()
    with pytest.raises(ExecFault, match="2-byte elements"):
        call(eng, "printMemrefF32", buffer(eng, [1, 2], F16, np.float16))
    with pytest.raises(ExecFault, match="must be a memref"):
        call(eng, "printMemrefF32", np.float32(1))


# ----------------------------------------------------------------------------- CRunnerUtils primitives
def test_print_primitives_build_vector_print_output() -> None:
    eng = FakeEngine()
    call(eng, "printOpen")
    call(eng, "printF32", np.float32(1.5))
    call(eng, "printComma")
    call(eng, "printF64", np.float64(1e-7))
    call(eng, "printComma")
    call(eng, "printF16", 0x3C00, types=[I16])  # f16 bits of 1.0
    call(eng, "printComma")
    call(eng, "printBF16", 0xBF80, types=[I16])  # bf16 bits of -1.0
    call(eng, "printComma")
    call(eng, "printF16", np.float16(0.1), types=[F16])  # 0.0999755859375
    call(eng, "printClose")
    call(eng, "printNewline")
    call(eng, "printI64", (1 << 64) - 1, types=[irt.IntegerType(64, "u")])
    call(eng, "printComma")
    call(eng, "printU64", -1, types=[irt.IntegerType(64)])
    call(eng, "printString", "text")
    call(eng, "printNewline")
    assert eng.out.getvalue() == "( 1.5, 1e-07, 1, -1, 0.0999756 )\n-1, 18446744073709551615text\n"


def test_print_string_from_memory() -> None:
    eng = FakeEngine()
    m = buffer(eng, [ord("h"), ord("i"), 0, ord("x")], I8, np.int8)
    call(eng, "printString", m)
    call(eng, "printString", m.aligned + 1, types=[irt.IntegerType(64)])
    assert eng.out.getvalue() == "hii"


def test_print_flops_goes_to_stderr(capsys) -> None:
    eng = FakeEngine()
    call(eng, "printFlops", np.float64(2.5e9))
    captured = capsys.readouterr()
    assert captured.err == "2.500000 GFLOPS\n"
    assert eng.out.getvalue() == ""


def test_rtclock_is_epoch_seconds() -> None:
    before = time.time()
    t = call(FakeEngine(), "rtclock")
    after = time.time()
    assert isinstance(t, np.float64)
    assert before - 1e-6 <= t <= after + 1e-6


# ----------------------------------------------------------------------------- allclose
def allclose_out(m, n, mtype=F32, mdt=np.float32, name="printAllcloseF32") -> str:
    eng = FakeEngine()
    call(eng, name, buffer(eng, m, mtype, mdt), buffer(eng, n, F32, np.float32))
    return eng.out.getvalue()


TRUE, FALSE = "[ALLCLOSE: TRUE]\n", "[ALLCLOSE: FALSE]\n"


def test_allclose_equal_and_far() -> None:
    assert allclose_out([1, 2, 3], [1, 2, 3]) == TRUE
    assert allclose_out([1, 2, 3], [1, 2, 3.5]) == FALSE


def test_allclose_nan_counts_as_close() -> None:
    nan = float("nan")
    assert allclose_out([nan, 2], [1, 2]) == TRUE
    assert allclose_out([1, 2], [nan, 2]) == TRUE
    assert allclose_out([float("inf")], [float("inf")]) == TRUE  # inf - inf = NaN: the test is false
    assert allclose_out([float("inf")], [1e30]) == FALSE


def test_allclose_atol_boundary() -> None:
    # n = 0: threshold = atol = f32(1e-4); |m - 0| = m exactly.
    atol = np.float32(1e-4)
    assert allclose_out([atol], [0]) == TRUE
    assert allclose_out([np.nextafter(atol, np.float32(1))], [0]) == FALSE
    assert allclose_out([-atol], [0]) == TRUE


def test_allclose_rtol_boundary() -> None:
    # n = 1000: f32(1e-3)*1000 = 1.0000000475 rounds to 1.0 in f32; + f32(1e-4) = 1.0000999999975 rounds to
    # 1 + 839*2^-23 = 1.0001000166 (0.0001 / 2^-23 = 838.86).  Near 1001 the f32 spacing is 2^-14 and
    # m - 1000 is exact (Sterbenz), so diffs are multiples of 2^-14: 16385*2^-14 is close, 16386*2^-14 not.
    thr = 1 + Fraction(839, 2**23)
    assert Fraction(16385, 2**14) <= thr < Fraction(16386, 2**14)
    assert allclose_out([1000 + 16385 / 2**14], [1000]) == TRUE
    assert allclose_out([1000 + 16386 / 2**14], [1000]) == FALSE
    assert allclose_out([1000 - 16385 / 2**14], [1000]) == TRUE
    assert allclose_out([1000 - 16386 / 2**14], [1000]) == FALSE


def test_allclose_stops_at_shorter_memref() -> None:
    assert allclose_out([1, 2, 3], [1, 2, 3, 99, 99]) == TRUE
    assert allclose_out([1, 2, 3, 99, 99], [1, 2, 3]) == TRUE
    assert allclose_out([1, 5, 3], [1, 2, 3, 99]) == FALSE


def test_allclose_f16_bf16_and_return_value() -> None:
    # f16(0.1) = 0.0999755859375: |diff| = 2.44e-5 < 1e-4 + 1e-4
    assert allclose_out([0.1], [0.1], F16, np.float16, "printAllcloseF16") == TRUE
    assert allclose_out([1.0], [1.01], F16, np.float16, "printAllcloseF16") == FALSE
    # bf16(1/3) = 0.333984375 vs 1/3: diff 6.5e-4 > 1e-4 + 3.3e-4
    assert allclose_out([1 / 3], [1 / 3], BF16, ml_dtypes.bfloat16, "printAllcloseBF16") == FALSE
    assert allclose_out([0.5], [0.5], BF16, ml_dtypes.bfloat16, "printAllcloseBF16") == TRUE
    eng = FakeEngine()
    a, b = buffer(eng, [1, 2], F32, np.float32), buffer(eng, [1, 3], F32, np.float32)
    assert call(eng, "allcloseF32", a, a) == 1
    assert call(eng, "allcloseF32", a, b) == 0
    assert eng.out.getvalue() == ""


def test_allclose_honours_strides() -> None:
    eng = FakeEngine()
    m = buffer(eng, [[1, 50], [2, 60]], F32, np.float32)
    n = buffer(eng, [1, 2], F32, np.float32)
    call(eng, "printAllcloseF32", view(m, 0, [2], [2]), n)  # column 0: [1, 2]
    call(eng, "printAllcloseF32", view(m, 1, [2], [2]), n)  # column 1: [50, 60]
    assert eng.out.getvalue() == TRUE + FALSE


# ----------------------------------------------------------------------------- printMaxError
def max_error_out(m, n, elem=F32, dt=np.float32, name="printMaxErrorF32") -> str:
    eng = FakeEngine()
    call(eng, name, buffer(eng, m, elem, dt), buffer(eng, n, elem, dt))
    return eng.out.getvalue()


def test_max_error_absolute_and_relative_pick_their_own_index() -> None:
    # delta = [0, 0.25, 0.5] -> abs at idx 2; rel = [0, 0.25/0.5, 0.5/10.5] -> rel at idx 1
    assert max_error_out([1, 0.25, 10], [1, 0.5, 10.5]) == (
        "Max absolute error 0.5 at idx=2 (i=10, j=10.5)\n"
        "Max relative error 0.5 at idx=1 (i=0.25, j=0.5)\n"
    )


def test_max_error_no_difference_prints_inf_values() -> None:
    assert max_error_out([1, 2], [1, 2]) == (
        "Max absolute error 0 at idx=0 (i=inf, j=inf)\nMax relative error 0 at idx=0 (i=inf, j=inf)\n"
    )
    assert max_error_out([0.0], [-0.0]) == (  # 0/0 relative error is NaN: never larger
        "Max absolute error 0 at idx=0 (i=inf, j=inf)\nMax relative error 0 at idx=0 (i=inf, j=inf)\n"
    )


def test_max_error_ties_keep_first_and_nan_is_skipped() -> None:
    # deltas all 1 -> idx 0; rel = [1/1, 1/4, 1/3] -> idx 0
    assert max_error_out([0, 3, 3], [1, 4, 2]) == (
        "Max absolute error 1 at idx=0 (i=0, j=1)\nMax relative error 1 at idx=0 (i=0, j=1)\n"
    )
    nan = float("nan")
    # idx 0 is NaN (skipped); idx 1: delta 2, rel 2/3
    assert max_error_out([nan, 1], [0, 3]) == (
        "Max absolute error 2 at idx=1 (i=1, j=3)\nMax relative error 0.666667 at idx=1 (i=1, j=3)\n"
    )


def test_max_error_f16_values_are_exact() -> None:
    # f16(0.1) = 0.0999755859375, f16(0.2) = 0.199951171875: delta 0.0999755859375, rel 0.5 exactly
    assert max_error_out([0.1], [0.2], F16, np.float16, "printMaxErrorF16") == (
        "Max absolute error 0.0999756 at idx=0 (i=0.0999756, j=0.199951)\n"
        "Max relative error 0.5 at idx=0 (i=0.0999756, j=0.199951)\n"
    )


# ----------------------------------------------------------------------------- fills
def raw_u16(mr: MemRefValue) -> list[int]:
    return mr.logical_array().view(np.uint16).reshape(-1).tolist()


def test_fill_f16_rounds_to_nearest_even() -> None:
    eng = FakeEngine()
    m = buffer(eng, np.zeros(3), F16, np.float16)
    call(eng, "fillResource1DF16", m, np.float32(11.11))
    # 11.11 = 1.38875 * 2^3; 0.38875 * 1024 = 398.08 -> 398; exponent 3 + 15 = 18: 0 10010 0110001110
    assert raw_u16(m) == [0x498E] * 3


def test_fill_bf16_ties_to_even() -> None:
    eng = FakeEngine()
    m = buffer(eng, np.zeros(2), BF16, ml_dtypes.bfloat16)
    call(eng, "fillResource1DBF16", m, np.float32(1 + 2**-8))  # halfway 1 | 1+2^-7 -> even: 1.0 = 0x3F80
    assert raw_u16(m) == [0x3F80, 0x3F80]
    call(eng, "fillResource1DBF16", m, np.float32(1 + 3 * 2**-8))  # halfway 1+2^-7 | 1+2^-6 -> 0x3F82
    assert raw_u16(m) == [0x3F82, 0x3F82]


def test_fill_f32_honours_subview() -> None:
    eng = FakeEngine()
    m = buffer(eng, np.zeros((3, 4)), F32, np.float32)
    call(eng, "fillResource1DF32", view(m, 5, [2, 2], [4, 1]), np.float32(2.5))  # rows 1-2, cols 1-2
    expected = np.zeros((3, 4), np.float32)
    expected[1:3, 1:3] = 2.5
    assert np.array_equal(m.logical_array(), expected)


def random_fill(seed: int, n: int, lo: float, hi: float, gen_int: int, elem=F32, dt=np.float32, calls: int = 1):
    eng = FakeEngine(seed)
    m = buffer(eng, np.zeros(n), elem, dt)
    name = {np.float32: "F32", np.float16: "F16", ml_dtypes.bfloat16: "BF16"}[dt]
    out = []
    for _ in range(calls):
        call(eng, f"fillResource1DRandom{name}", m, np.float32(lo), np.float32(hi), gen_int,
             types=[unranked(m), F32, F32, irt.IntegerType(1)])
        out.append(m.logical_array().copy())
    return out


def test_fill_random_is_reproducible_and_calls_differ() -> None:
    a1, a2 = random_fill(7, 64, -0.5, 0.5, 0, calls=2)
    b1, b2 = random_fill(7, 64, -0.5, 0.5, 0, calls=2)
    (c1,) = random_fill(8, 64, -0.5, 0.5, 0)
    assert np.array_equal(a1, b1) and np.array_equal(a2, b2)
    assert not np.array_equal(a1, a2)
    assert not np.array_equal(a1, c1)
    assert np.all(a1 >= -0.5) and np.all(a1 < 0.5)
    assert len(set(a1.tolist())) > 50  # not a constant fill


def test_fill_random_gen_int_truncates_toward_zero() -> None:
    (v,) = random_fill(1, 2000, 0.0, 5.0, 1, F16, np.float16)
    assert set(v.astype(np.float64).tolist()) == {0.0, 1.0, 2.0, 3.0, 4.0}
    (z,) = random_fill(1, 500, -0.5, 0.5, 1)
    assert np.all(z == 0) and not np.any(np.signbit(z))  # static_cast<int>(-0.3) == 0, stored as +0.0
    (w,) = random_fill(3, 2000, -3.0, 3.0, 1, BF16, ml_dtypes.bfloat16)
    assert set(w.astype(np.float64).tolist()) == {-2.0, -1.0, 0.0, 1.0, 2.0}  # (-3, 3) truncated


class FixedRng:
    """Hands out the given uniforms in order (the part of numpy's Generator that random_values uses)."""

    def __init__(self, u) -> None:
        self.u = np.asarray(u, np.float64)
        self.taken = 0

    def random(self, n: int, out: np.ndarray) -> np.ndarray:
        out[...] = self.u[self.taken : self.taken + n]
        self.taken += n
        return out


def test_random_values_convert_double_to_float_to_target() -> None:
    # x = 2u = 1 + 2^-11 + 2^-30.  As f32 (ulp 2^-23 at 1) it is 1 + 2^-11, a tie for f16 (ulp 2^-10),
    # which goes to the even neighbour 1.0; rounding the double directly to f16 would give 1 + 2^-10.
    u = (1 + 2.0**-11 + 2.0**-30) / 2
    v = utils_imex.random_values(FixedRng([u]), 1, 0.0, 2.0, False, np.dtype(np.float16))
    assert v.dtype == np.float16 and float(v[0]) == 1.0
    w = utils_imex.random_values(FixedRng([0.0, 0.1, 0.99]), 3, -5.0, 5.0, True, np.dtype(np.float32))
    # -5 + 10u = -5, -4, 4.9 -> -5, -4, 4
    assert w.tolist() == [-5.0, -4.0, 4.0]


# ----------------------------------------------------------------------------- gemm
def f32(x: float) -> float:
    return float(np.float32(x))


def reference_gemm(a, b, c, round_f16: bool = False):
    """Scalar i-k-j loop: c[i][j] = fp32(c[i][j] + fp32(a[i][k] * b[k][j])).  Products and sums of f32
    values are computed exactly or correctly rounded in double (53 >= 2*24+2 bits) before the f32 rounding."""
    M, K = len(a), len(a[0])
    N = len(b[0])
    c = [[float(x) for x in row] for row in c]
    for i in range(M):
        for k in range(K):
            aik = float(a[i][k])
            for j in range(N):
                c[i][j] = f32(c[i][j] + f32(aik * float(b[k][j])))
    if round_f16:
        c = [[float(np.float16(x)) for x in row] for row in c]
    return np.array(c, np.float32)


def gemm_inputs(seed: int, M: int, K: int, N: int, dt):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (M, K)).astype(dt)
    b = rng.uniform(-1, 1, (K, N)).astype(dt)
    c = rng.uniform(-4, 4, (M, N)).astype(np.float32)
    return a, b, c


@pytest.mark.parametrize("path", [utils_imex.gemm_f32_numpy, utils_imex.gemm_f32_numba])
def test_gemm_kernels_match_scalar_reference(path) -> None:
    a, b, c = gemm_inputs(0, 5, 64, 7, np.float16)
    ref = reference_gemm(a.tolist(), b.tolist(), c.tolist())
    got = path(a.astype(np.float32), b.astype(np.float32), c)
    assert np.array_equal(got.view(np.uint32), ref.view(np.uint32))
    # the test discriminates: a double-precision accumulation rounds differently somewhere
    wide = np.float32(c.astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64))
    assert not np.array_equal(wide, ref)


def gemm_call(name, a, b, c, a_elem, ab_dt, strides=None):
    eng = FakeEngine()
    A, B, C = buffer(eng, a, a_elem, ab_dt), buffer(eng, b, a_elem, ab_dt), buffer(eng, c, F32, np.float32)
    call(eng, name, A, B, C)
    return eng, C


def test_gemm_f16_f16_f32_through_runtime() -> None:
    a, b, c = gemm_inputs(1, 6, 33, 9, np.float16)
    eng, C = gemm_call("gemmF16F16F32", a, b, c, F16, np.float16)
    assert eng.out.getvalue() == ""
    ref = reference_gemm(a.tolist(), b.tolist(), c.tolist())
    assert np.array_equal(C.logical_array().view(np.uint32), ref.view(np.uint32))


def test_gemm_f16_f16_f16_rounds_results_to_f16() -> None:
    a, b, c = gemm_inputs(2, 4, 20, 5, np.float16)
    _, C = gemm_call("gemmF16F16F16", a, b, c, F16, np.float16)
    ref = reference_gemm(a.tolist(), b.tolist(), c.tolist(), round_f16=True)
    got = C.logical_array()
    assert got.dtype == np.float32
    assert np.array_equal(got.view(np.uint32), ref.view(np.uint32))
    assert np.array_equal(got, got.astype(np.float16).astype(np.float32))


def test_gemm_bf16_through_runtime() -> None:
    a, b, c = gemm_inputs(3, 3, 40, 6, ml_dtypes.bfloat16)
    _, C = gemm_call("gemmBF16BF16F32", a, b, c, BF16, ml_dtypes.bfloat16)
    ref = reference_gemm(a.astype(np.float32).tolist(), b.astype(np.float32).tolist(), c.tolist())
    assert np.array_equal(C.logical_array().view(np.uint32), ref.view(np.uint32))


def test_gemm_small_by_hand() -> None:
    # [[1,2],[3,4]] @ [[5,6],[7,8]] + [[1,0],[0,1]] = [[20,22],[43,51]]
    _, C = gemm_call("gemmF16F16F32", [[1, 2], [3, 4]], [[5, 6], [7, 8]], [[1, 0], [0, 1]], F16, np.float16)
    assert C.logical_array().tolist() == [[20, 22], [43, 51]]


def test_gemm_f32_rounding_order_by_hand() -> None:
    # c = 1, products 2^-24 and 2^-24 (a = b = 2^-12, a normal f16):
    # i-k-j in f32: 1 + 2^-24 = 1 (tie, even), again 1 -> 1.0.  Exact sum 1 + 2^-23 would be representable.
    a = [[2.0**-12, 2.0**-12]]
    b = [[2.0**-12], [2.0**-12]]
    _, C = gemm_call("gemmF16F16F32", a, b, [[1.0]], F16, np.float16)
    assert C.logical_array().tolist() == [[1.0]]


def test_gemm_honours_offset_of_row_block() -> None:
    eng = FakeEngine()
    B = buffer(eng, [[1, 2], [3, 4]], F16, np.float16)
    big = buffer(eng, np.zeros((3, 2)), F32, np.float32)
    C = view(big, 2, [2, 2], [2, 1])  # rows 1..2 of a 3x2 matrix: contiguous, offset 2
    A2 = buffer(eng, [[1, 0], [0, 2]], F16, np.float16)
    call(eng, "gemmF16F16F32", A2, B, C)
    assert big.logical_array().tolist() == [[0, 0], [1, 2], [6, 8]]


def test_gemm_checks_print_messages_and_leave_c_alone() -> None:
    eng = FakeEngine()
    A = buffer(eng, np.ones((2, 3)), F16, np.float16)
    B = buffer(eng, np.ones((3, 4)), F16, np.float16)
    C = buffer(eng, np.zeros((2, 4)), F32, np.float32)
    v1 = buffer(eng, np.ones(3), F16, np.float16)
    call(eng, "gemmF16F16F32", v1, B, C)
    Bbad = buffer(eng, np.ones((2, 4)), F16, np.float16)
    call(eng, "gemmF16F16F32", A, Bbad, C)
    wide = buffer(eng, np.ones((2, 6)), F16, np.float16)
    call(eng, "gemmF16F16F32", view(wide, 0, [2, 3], [6, 1]), B, C)
    Cbad = view(buffer(eng, np.zeros((2, 8)), F32, np.float32), 0, [2, 4], [8, 1])
    call(eng, "gemmF16F16F32", A, B, Cbad)
    assert eng.out.getvalue() == (
        "Expecting 2D memrefs, got A rank: 1, B rank: 2, C rank: 2\n"
        "Incompatible matrix dimensions: A: [2, 3], B: [2, 4], C: [2, 4]\n"
        "Expecting A strides to be [3, 1], got [6, 1]\n"
        "Expecting C strides to be [4, 1], got [8, 1]\n"
    )
    assert not C.logical_array().any()


def test_gemm_rejects_wrong_input_element_type() -> None:
    eng = FakeEngine()
    A = buffer(eng, np.ones((2, 2)), F32, np.float32)
    C = buffer(eng, np.zeros((2, 2)), F32, np.float32)
    with pytest.raises(ExecFault, match="argument 0"):
        call(eng, "gemmF16F16F32", A, A, C)
