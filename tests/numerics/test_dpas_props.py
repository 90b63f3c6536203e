"""Property tests of the float DPAS model against an independent exact reference written here.

The reference follows the model definition of spec/dpas-numerics.md §3 / §5 literally, one output element at a
time, with ``fractions.Fraction`` values and a rounding function written from IEEE 754 (§4.3 directions, §7.4
overflow, gradual underflow); it shares no code with xesim (inputs are decoded from their bit patterns here,
outputs compared as bit patterns).  Hypothesis draws tiles of every float type combination and models (the named
presets and arbitrary parameter mixes).  Also: decomposition-order tests (K order matters; f16/bf16 Dst rounds
between K steps; tiles = chained single instructions) and the exact summation core on its own.
"""

from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xesim.hw.params import load_target
from xesim.numerics import dpas as dpas_mod
from xesim.numerics.dpas import PRESETS, DpasModel, dpas, dpas_instruction, model_from_target, preset
from xesim.numerics.exact import ROUNDING_CODES, kulisch_round, round_sum

TARGET = load_target("pvc")
INF = float("inf")
NAN = float("nan")

# (precision p with the hidden bit, emin, emax, exponent bits, total bits)
FMT = {"f32": (24, -126, 127, 8, 32), "bf16": (8, -126, 127, 8, 16), "f16": (11, -14, 15, 5, 16),
       "tf32": (24, -126, 127, 8, 32)}  # tf32 operands come in f32 containers
DTYPE = {"f32": np.float32, "bf16": ml_dtypes.bfloat16, "f16": np.float16, "tf32": np.float32}
UINT = {16: np.uint16, 32: np.uint32}
OPS = {"bf16": 2, "f16": 2, "tf32": 1}


# ---------------------------------------------------------------------------------------------------------------
# reference: values are Fraction (nonzero finite) or float (zeros with their sign, infinities, NaN)

def is_nan(v: object) -> bool:
    return isinstance(v, float) and v != v


def is_inf(v: object) -> bool:
    return isinstance(v, float) and v in (INF, -INF)


def is_zero(v: object) -> bool:
    return isinstance(v, float) and v == 0.0


def negative(v: object) -> bool:
    return (float(np.copysign(1.0, v)) < 0) if isinstance(v, float) else v < 0


def ilog2(x: Fraction) -> int:
    """floor(log2(x)) for x > 0."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    while Fraction(2) ** e > x:
        e -= 1
    while Fraction(2) ** (e + 1) <= x:
        e += 1
    return e


def decode(bits: int, fmt: str) -> object:
    p, emin, emax, ebits, total = FMT[fmt]
    mbits = total - 1 - ebits
    sign = -1 if bits >> (total - 1) else 1
    e = (bits >> mbits) & ((1 << ebits) - 1)
    m = bits & ((1 << mbits) - 1)
    if e == (1 << ebits) - 1:
        return NAN if m else sign * INF
    if e == 0:
        v = Fraction(m) * Fraction(2) ** (emin - mbits)
    else:
        v = Fraction(m + (1 << mbits)) * Fraction(2) ** (e - 1 + emin - mbits)
    return v * sign if v else (-0.0 if sign < 0 else 0.0)


def round_to(v: object, fmt: str, mode: str, ftz: bool = False, ftz_exact: bool = False) -> object:
    """Round an exact value to ``fmt`` (IEEE 754: five directions, gradual underflow, §7.4 overflow)."""
    if isinstance(v, float):
        return v
    p, emin, emax = FMT[fmt][:3] if fmt != "tf32" else (11, -126, 127)
    neg = v < 0
    a = -v if neg else v
    E = ilog2(a)
    q = max(E, emin) - (p - 1)
    scaled = a / Fraction(2) ** q
    n = scaled.numerator // scaled.denominator
    r = scaled - n
    up = {"rne": r > Fraction(1, 2) or (r == Fraction(1, 2) and n % 2 == 1), "rna": r >= Fraction(1, 2),
          "rz": False, "rd": neg and r > 0, "ru": (not neg) and r > 0}[mode]
    res = (n + up) * Fraction(2) ** q
    zero = -0.0 if neg else 0.0
    largest = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if res > largest:
        to_inf = mode in ("rne", "rna") or (mode == "ru" and not neg) or (mode == "rd" and neg)
        res_mag = INF if to_inf else largest
        return (-res_mag if neg else res_mag)
    if res == 0:
        return zero
    if ftz and ((a < Fraction(2) ** emin) if ftz_exact else (res < Fraction(2) ** emin)):
        return zero
    return -res if neg else res


def group_sum(terms: list, fmt: str, model: DpasModel) -> object:
    """ONE rounding of the exact sum of ``terms`` (spec/dpas-numerics.md §5 items 5-7)."""
    if any(is_nan(t) for t in terms) or (INF in terms and -INF in terms):
        return NAN
    if INF in terms or -INF in terms:
        return INF if INF in terms else -INF
    if model.align_bits:
        nz = [abs(t) for t in terms if not is_zero(t)]
        if nz:
            lsb = Fraction(2) ** (max(ilog2(x) for x in nz) - model.align_bits + 1)
            cut = []
            for t in terms:
                if is_zero(t):
                    cut.append(t)
                    continue
                m = (abs(t) / lsb).numerator // (abs(t) / lsb).denominator  # truncation toward zero
                cut.append((-m * lsb if t < 0 else m * lsb) if m else (-0.0 if t < 0 else 0.0))
            terms = cut
    total = sum((Fraction(0) if is_zero(t) else t) for t in terms)
    if total == 0:
        if all(is_zero(t) and negative(t) for t in terms):
            return -0.0
        if all(is_zero(t) and not negative(t) for t in terms):
            return 0.0
        return -0.0 if model.rounding == "rd" else 0.0
    return round_to(total, fmt, model.rounding, model.out_ftz, model.out_ftz_test == "exact")


def product(x: object, y: object) -> object:
    if is_nan(x) or is_nan(y):
        return NAN
    if is_inf(x) or is_inf(y):
        if is_zero(x) or is_zero(y):
            return NAN
        return -INF if negative(x) != negative(y) else INF
    if is_zero(x) or is_zero(y):
        return -0.0 if negative(x) != negative(y) else 0.0
    return x * y


def operand(bits: int, t: str, model: DpasModel) -> object:
    """Operand value after the tf32 treatment (§5.3) and input flush (§5.11)."""
    if t == "tf32":
        v = decode(bits, "f32")
        if not is_nan(v):
            if model.tf32_in == "truncate":
                v = decode(bits & 0xFFFFE000, "f32")
            elif model.tf32_in == "rne":
                v = round_to(v, "tf32", "rne")
        ftz, emin = model.in_ftz_tf32, -126
    else:
        v = decode(bits, t)
        ftz, emin = (model.in_ftz_bf16, -126) if t == "bf16" else (model.in_ftz_f16, -14)
    if ftz and isinstance(v, Fraction) and abs(v) < Fraction(2) ** emin:
        return -0.0 if v < 0 else 0.0
    return v


def ref_element(a_vals: list, b_vals: list, c_val: object, t: str, acc_type: str, dst_type: str,
                model: DpasModel) -> object:
    """One output element: instructions in increasing K order, the Dst of one the Src0 of the next."""
    ops = OPS[t]
    kinst = 8 * ops
    acc_fmt = dst_type if model.acc_format == "dst" else "f32"
    gsize = {"stage": ops, "all": kinst}.get(model.group, model.group)
    acc = c_val
    for step in range(len(a_vals) // kinst):
        src_fmt = acc_type if step == 0 else dst_type
        if model.src0_ftz and isinstance(acc, Fraction) and abs(acc) < Fraction(2) ** FMT[src_fmt][1]:
            acc = -0.0 if acc < 0 else 0.0
        stages = range(8) if model.stage_order == "forward" else range(7, -1, -1)
        prods = []
        for s in stages:
            for q in range(ops):
                k = step * kinst + s * ops + q
                pr = product(a_vals[k], b_vals[k])
                if model.prod_round:
                    pr = round_to(pr, acc_fmt, model.rounding, model.out_ftz, model.out_ftz_test == "exact")
                prods.append(pr)
        cur = acc if model.src0_order == "first" else None
        for g0 in range(0, kinst, gsize):
            terms = ([] if cur is None else [cur]) + prods[g0:g0 + gsize]
            cur = group_sum(terms, acc_fmt, model)
        if model.src0_order == "last":
            cur = group_sum([cur, acc], acc_fmt, model)
        if dst_type != acc_fmt:
            cur = round_to(cur, dst_type, model.final_rounding, model.out_ftz, model.out_ftz_test == "exact")
        acc = cur
    return acc


def nan_pattern(model: DpasModel, dst_type: str) -> int:
    """The model's NaN (an f32 pattern) in the Dst format: sign and top payload bits kept, quiet bit set."""
    n = model.nan_bits
    if dst_type == "f32":
        return n
    if dst_type == "bf16":
        return (n >> 16) | 0x0040
    return ((n >> 31) << 15) | 0x7C00 | ((n >> 13) & 0x3FF) | 0x0200


def encode(v: object, dst_type: str, model: DpasModel) -> int:
    if is_nan(v):
        return nan_pattern(model, dst_type)
    x = np.array([float(v)], np.float64).astype(DTYPE[dst_type])  # exact: v is representable
    assert float(x[0]) == float(v) or (is_inf(v))
    return int(x.view(UINT[FMT[dst_type][4]])[0])


# ---------------------------------------------------------------------------------------------------------------
# strategies

def bits_strategy(t: str, center: int) -> st.SearchStrategy[int]:
    p, emin, emax, ebits, total = FMT[t]
    mbits = total - 1 - ebits
    bias = 1 - emin
    top_e = (1 << ebits) - 1
    few_bits = st.sampled_from([0, 1, 1 << (mbits - 1), (1 << mbits) - 1, 3 << (mbits - 2)])
    mant = st.one_of(few_bits, st.integers(0, (1 << mbits) - 1))
    center = min(max(center, emin + 14), emax - 14)
    near = st.builds(lambda s, e, m: (s << (total - 1)) | (e << mbits) | m, st.integers(0, 1),
                     st.integers(center + bias - 14, center + bias + 14), mant)
    specials = st.sampled_from([0, 1 << (total - 1), 1, (1 << mbits) - 1, 1 << mbits, ((top_e - 1) << mbits) | ((1 << mbits) - 1),
                                top_e << mbits, (1 << (total - 1)) | (top_e << mbits), (top_e << mbits) | 1,
                                (top_e << mbits) | (1 << (mbits - 1))])
    anything = st.integers(0, (1 << total) - 1)
    return st.one_of(near, near, near, st.just(0), specials, anything)


def models() -> st.SearchStrategy[DpasModel]:
    mixes = st.builds(
        lambda **kw: DpasModel(name="drawn", **kw),
        tf32_in=st.sampled_from(["truncate", "rne", "full"]), prod_round=st.booleans(),
        group=st.one_of(st.sampled_from(["stage", "all"]), st.integers(1, 17)),
        align_bits=st.one_of(st.just(0), st.integers(3, 40)),
        rounding=st.sampled_from(["rne", "rna", "rz", "rd", "ru"]), acc_format=st.sampled_from(["f32", "dst"]),
        src0_order=st.sampled_from(["first", "last"]), stage_order=st.sampled_from(["forward", "reverse"]),
        in_ftz_bf16=st.booleans(), in_ftz_f16=st.booleans(), in_ftz_tf32=st.booleans(), src0_ftz=st.booleans(),
        out_ftz=st.booleans(), out_ftz_test=st.sampled_from(["result", "exact"]),
        final_rounding=st.sampled_from(["rne", "rna", "rz", "rd", "ru"]),
        nan_bits=st.sampled_from([0x7FC00000, 0x7FFFFFFF, 0xFFC00001]), int_overflow=st.just("wrap"))
    return st.one_of(st.sampled_from(sorted(PRESETS)).map(preset), mixes)


COMBOS = [("bf16", "f32", "f32"), ("bf16", "bf16", "bf16"), ("bf16", "f32", "bf16"), ("bf16", "bf16", "f32"),
          ("f16", "f32", "f32"), ("f16", "f16", "f16"), ("f16", "f32", "f16"), ("f16", "f16", "f32"),
          ("tf32", "f32", "f32")]


@st.composite
def tiles(draw: st.DrawFn, combo: tuple[str, str, str]) -> tuple:
    t, acc_type, dst_type = combo
    kinst = 8 * OPS[t]
    M = draw(st.integers(1, 3))
    K = kinst * draw(st.integers(1, 2))
    N = 16
    center = draw(st.integers(-20, 20))
    in_fmt = "f32" if t == "tf32" else t
    a = draw(st.lists(bits_strategy(in_fmt, center), min_size=M * K, max_size=M * K))
    b = draw(st.lists(bits_strategy(in_fmt, center), min_size=K * N, max_size=K * N))
    c_none = draw(st.booleans()) and draw(st.booleans())
    c = None if c_none else draw(st.lists(bits_strategy(acc_type, 2 * center), min_size=M * N, max_size=M * N))
    return M, K, N, a, b, c


def run_and_compare(combo: tuple[str, str, str], tile: tuple, model: DpasModel) -> None:
    t, acc_type, dst_type = combo
    M, K, N, a, b, c = tile
    in_bits = 32 if t == "tf32" else 16
    A = np.array(a, UINT[in_bits]).reshape(M, K).view(DTYPE[t])
    B = np.array(b, UINT[in_bits]).reshape(K, N).view(DTYPE[t])
    C = None if c is None else np.array(c, UINT[FMT[acc_type][4]]).reshape(M, N).view(DTYPE[acc_type])
    D = dpas(A, B, C, t, t, acc_type, dst_type, model, TARGET)
    assert D.dtype == np.dtype(DTYPE[dst_type]) and D.shape == (M, N)
    got = D.view(UINT[FMT[dst_type][4]])
    for i in range(M):
        a_vals = [operand(a[i * K + k], t, model) for k in range(K)]
        for j in range(N):
            b_vals = [operand(b[k * N + j], t, model) for k in range(K)]
            c_val = 0.0 if c is None else decode(c[i * N + j], acc_type)
            want = encode(ref_element(a_vals, b_vals, c_val, t, acc_type, dst_type, model), dst_type, model)
            assert int(got[i, j]) == want, (
                f"{combo} model={model} element ({i},{j}): got {int(got[i, j]):#x}, reference {want:#x}")


@pytest.mark.parametrize("combo", COMBOS, ids=["x".join(c) for c in COMBOS])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_tiles_match_the_exact_reference(combo: tuple[str, str, str], data: st.DataObject) -> None:
    tile = data.draw(tiles(combo))
    model = data.draw(models())
    run_and_compare(combo, tile, model)


@pytest.mark.parametrize("combo", COMBOS, ids=["x".join(c) for c in COMBOS])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_default_model_matches_the_exact_reference(combo: tuple[str, str, str], data: st.DataObject) -> None:
    """The default model runs the vectorised fast path (with its exact fallback): same reference."""
    run_and_compare(combo, data.draw(tiles(combo)), model_from_target(TARGET))


# ---------------------------------------------------------------------------------------------------------------
# the exact summation core alone (xesim/numerics/exact.py)

finite_f64 = st.builds(lambda m, e, s: s * float(m) * 2.0 ** e, st.integers(0, (1 << 53) - 1), st.integers(-1074, 960),
                       st.sampled_from([1.0, -1.0]))


@settings(max_examples=400, deadline=None)
@given(terms=st.lists(finite_f64, min_size=1, max_size=18), fmt=st.sampled_from(["f32", "bf16", "f16"]),
       mode=st.sampled_from(["rne", "rna", "rz", "rd", "ru"]), ftz=st.booleans())
def test_round_sum_and_kulisch_are_exact(terms: list[float], fmt: str, mode: str, ftz: bool) -> None:
    model = DpasModel(rounding=mode, out_ftz=ftz)
    vals = [Fraction(x) if x != 0.0 else x for x in terms]
    want = encode(group_sum(vals, fmt, model), fmt, model)
    p, emin, emax = FMT[fmt][:3]
    for fn in ("round_sum", "kulisch"):
        t = np.array(terms + [0.0, 0.0], np.float64)
        limbs = np.zeros(80, np.int64)
        if fn == "round_sum":
            v = round_sum(t, len(terms), p, emin, emax, ROUNDING_CODES[mode], ftz, False, 0, limbs)
        else:
            v = kulisch_round(t, len(terms), p, emin, emax, ROUNDING_CODES[mode], ftz, False, limbs)
        got = nan_pattern(model, fmt) if v != v else encode(v, fmt, model)
        assert got == want, (fn, terms, fmt, mode, hex(got), hex(want))


# ---------------------------------------------------------------------------------------------------------------
# decomposition into instructions

BF = ml_dtypes.bfloat16


def bf16(x: list | np.ndarray) -> np.ndarray:
    return np.asarray(x, np.float32).astype(BF)


def test_k_order_matters_and_is_increasing() -> None:
    """c = 2^24; K step 0 adds +1 (2^24 + 1 rounds to 2^24, RNE tie), K step 1 adds -1 (2^24 - 1 is exact):
    increasing K order gives 0x4B7FFFFF; the reverse order would give 2^24 = 0x4B800000."""
    a = np.zeros((1, 32), np.float32)
    b = np.zeros((32, 16), np.float32)
    a[0, 0], b[0, 0] = 1.0, 1.0
    a[0, 16], b[16, 0] = 1.0, -1.0
    c = np.zeros((1, 16), np.float32)
    c[0, 0] = 2.0**24
    for name in ("default", "visa_literal", "single_rounding", "fma_chain"):
        d = dpas(bf16(a), bf16(b), c, "bf16", "bf16", "f32", "f32", preset(name), TARGET)
        assert int(d.view(np.uint32)[0, 0]) == 0x4B7FFFFF, name
    # the same chain written as two instructions
    m = preset("default")
    d1 = dpas_instruction(bf16(a[:, :16]), bf16(b[:16]), c, "bf16", "bf16", "f32", "f32", m, TARGET)
    assert d1[0, 0] == np.float32(2.0**24)
    d2 = dpas_instruction(bf16(a[:, 16:]), bf16(b[16:]), d1, "bf16", "bf16", "f32", "f32", m, TARGET)
    assert int(d2.view(np.uint32)[0, 0]) == 0x4B7FFFFF
    # reversed K blocks give the other answer (so the test can tell)
    r1 = dpas_instruction(bf16(a[:, 16:]), bf16(b[16:]), c, "bf16", "bf16", "f32", "f32", m, TARGET)
    r2 = dpas_instruction(bf16(a[:, :16]), bf16(b[:16]), r1, "bf16", "bf16", "f32", "f32", m, TARGET)
    assert int(r2.view(np.uint32)[0, 0]) == 0x4B800000


def test_bf16_dst_rounds_between_k_steps() -> None:
    """bf16 Dst: each K step's result is rounded to bf16 before the next (spec/dpas-numerics.md §3).  c = 1 and
    two K steps each add 3*2^-10 (below half an ulp of bf16 at 1, 2^-8): rounded per step the result stays 1.0
    (0x3F80); kept in f32 across steps it would be 1 + 6*2^-10 -> 1 + 2^-7 (0x3F81)."""
    a = np.zeros((1, 32), np.float32)
    b = np.zeros((32, 16), np.float32)
    a[0, 0] = a[0, 16] = 3 * 2.0**-5
    b[0, 0] = b[16, 0] = 2.0**-5
    c = bf16(np.zeros((1, 16)))
    c[0, 0] = 1.0
    d = dpas(bf16(a), bf16(b), c, "bf16", "bf16", "bf16", "bf16", preset("default"), TARGET)
    assert int(d.view(np.uint16)[0, 0]) == 0x3F80
    d32 = dpas(bf16(a), bf16(b), c, "bf16", "bf16", "bf16", "f32", preset("default"), TARGET)
    assert d32[0, 0] == np.float32(1 + 6 * 2.0**-10)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), M=st.integers(1, 20), nblk=st.integers(1, 3), ksteps=st.integers(1, 3),
       name=st.sampled_from(sorted(PRESETS)), combo=st.sampled_from(COMBOS))
def test_tile_equals_chained_instructions(seed: int, M: int, nblk: int, ksteps: int, name: str,
                                          combo: tuple[str, str, str]) -> None:
    """A tile = rows in blocks of <= 8, columns in blocks of 16, K blocks in increasing order with each Dst
    the next Src0 (module docstring of xesim/numerics/dpas.py)."""
    t, acc_type, dst_type = combo
    rng = np.random.default_rng(seed)
    kinst, N = 8 * OPS[t], 16 * nblk
    K = kinst * ksteps
    span = 30 if t != "f16" else 6
    with np.errstate(over="ignore"):
        A = (rng.standard_normal((M, K)) * 2.0 ** rng.integers(-span, span, size=(M, K))).astype(DTYPE[t])
        B = (rng.standard_normal((K, N)) * 2.0 ** rng.integers(-span, span, size=(K, N))).astype(DTYPE[t])
        C = (rng.standard_normal((M, N)) * 1e3).astype(np.float32).astype(DTYPE[acc_type])
    m = preset(name)
    D = dpas(A, B, C, t, t, acc_type, dst_type, m, TARGET)
    for r0 in range(0, M, 8):
        for j0 in range(0, N, 16):
            acc = C[r0:r0 + 8, j0:j0 + 16]
            for s in range(ksteps):
                acc = dpas_instruction(A[r0:r0 + 8, s * kinst:(s + 1) * kinst], B[s * kinst:(s + 1) * kinst, j0:j0 + 16],
                                       acc, t, t, acc_type if s == 0 else dst_type, dst_type, m, TARGET)
            assert np.array_equal(D[r0:r0 + 8, j0:j0 + 16].view(UINT[FMT[dst_type][4]]),
                                  acc.view(UINT[FMT[dst_type][4]]))


def test_batch_axes_and_parallel_rows_give_the_same_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    A = (rng.standard_normal((3, 2, 24, 32)) * 2.0 ** rng.integers(-40, 40, size=(3, 2, 24, 32))).astype(BF)
    B = (rng.standard_normal((2, 32, 48)) * 2.0 ** rng.integers(-40, 40, size=(2, 32, 48))).astype(BF)
    C = rng.standard_normal((24, 48)).astype(np.float32)
    m = preset("default")
    D = dpas(A, B, C, "bf16", "bf16", "f32", "f32", m, TARGET)
    assert D.shape == (3, 2, 24, 48)
    for x in range(3):
        for y in range(2):
            one = dpas(A[x, y], B[y], C, "bf16", "bf16", "f32", "f32", m, TARGET)
            assert np.array_equal(D[x, y].view(np.uint32), one.view(np.uint32))
    monkeypatch.setattr(dpas_mod, "_PARALLEL_MIN_WORK", 0)
    P = dpas(A, B, C, "bf16", "bf16", "f32", "f32", m, TARGET)
    assert np.array_equal(P.view(np.uint32), D.view(np.uint32))


def test_long_gemm_against_the_reference() -> None:
    """A 32 x 512 x 32 bf16 GEMM (32 K steps, parallel rows) checked element-wise on a sample."""
    rng = np.random.default_rng(11)
    A = (rng.standard_normal((32, 512)) * 2.0 ** rng.integers(-25, 25, size=(32, 512))).astype(BF)
    B = (rng.standard_normal((512, 32)) * 2.0 ** rng.integers(-25, 25, size=(512, 32))).astype(BF)
    C = rng.standard_normal((32, 32)).astype(np.float32)
    m = model_from_target(TARGET)
    D = dpas(A, B, C, "bf16", "bf16", "f32", "f32", m, TARGET).view(np.uint32)
    a_bits, b_bits, c_bits = A.view(np.uint16), B.view(np.uint16), C.view(np.uint32)
    for i, j in [(0, 0), (5, 17), (31, 31), (12, 3), (20, 28)]:
        a_vals = [operand(int(a_bits[i, k]), "bf16", m) for k in range(512)]
        b_vals = [operand(int(b_bits[k, j]), "bf16", m) for k in range(512)]
        want = encode(ref_element(a_vals, b_vals, decode(int(c_bits[i, j]), "f32"), "bf16", "f32", "f32", m), "f32", m)
        assert int(D[i, j]) == want


def _special_operands(rng: np.random.Generator, shape: tuple, dt: object) -> np.ndarray:
    """Random values over the whole exponent range plus subnormals, zeros of both signs, infinities and NaN."""
    x = (rng.standard_normal(shape) * 2.0 ** rng.integers(-30, 30, size=shape)).astype(dt)
    bits = x.view(np.uint16)
    pick = rng.random(shape)
    bits[pick < 0.05] = rng.integers(1, 0x3FF, size=int((pick < 0.05).sum()))  # subnormals
    bits[(pick >= 0.05) & (pick < 0.07)] = 0x8000
    bits[(pick >= 0.07) & (pick < 0.075)] = 0x7C00 if dt == np.float16 else 0x7F80
    bits[(pick >= 0.075) & (pick < 0.078)] = 0x7E00 if dt == np.float16 else 0x7FC0
    return x


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("t", ["f16", "bf16"])
def test_table_decoded_tiles_equal_the_per_element_decoder(name: str, t: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Large 16-bit tiles are decoded through 65536-entry tables and f32 results narrowed in numpy; every model
    and every Acc/Dst type must give the same bits as the per-element decoder path."""
    rng = np.random.default_rng(hash((name, t)) % 2**32)
    dt = np.float16 if t == "f16" else BF
    m = preset(name)
    A = _special_operands(rng, (4, 16, 64), dt)
    B = _special_operands(rng, (4, 64, 32), dt)
    for acc_t, dst_t in (("f32", "f32"), (t, t), ("f32", t), (t, "f32")):
        cdt = np.float32 if acc_t == "f32" else dt
        C = (rng.standard_normal((4, 16, 32)) * 2.0 ** rng.integers(-20, 20, size=(4, 16, 32))).astype(cdt)
        try:
            monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 0)
            monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 0)
            fast = dpas(A, B, C, t, t, acc_t, dst_t, m, TARGET)
        except ValueError:  # an illegal type combination for the target: nothing to compare
            continue
        monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 1 << 62)
        monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 1 << 62)
        ref = dpas(A, B, C, t, t, acc_t, dst_t, m, TARGET)
        w = np.uint32 if dst_t == "f32" else np.uint16
        assert np.array_equal(fast.view(w), ref.view(w)), (name, t, acc_t, dst_t)
        fast_none = dpas(A, B, None, t, t, acc_t, dst_t, m, TARGET)
        monkeypatch.setattr(dpas_mod, "_TABLE_MIN_WORK", 0)
        monkeypatch.setattr(dpas_mod, "_FAST_MIN_WORK", 0)
        assert np.array_equal(dpas(A, B, None, t, t, acc_t, dst_t, m, TARGET).view(w), fast_none.view(w))
