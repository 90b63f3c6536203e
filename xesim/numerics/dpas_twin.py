"""The uncompiled twin of DPAS's common configuration: numpy over whole batches, no numba (issue 32 item 3).

The configuration is :func:`xesim.numerics.dpas._fast16_call`'s (f16/bf16 sources, two products per systolic
stage, stage-by-stage round-to-nearest-even into an f32 accumulator, f32 Dst, no Src0 flushing; spec
/dpas-numerics.md §3 and §5).  Small launches run it here instead of compiling the row kernel on a fresh install
(:mod:`xesim.numerics.tiers`).  Same bits as the compiled kernel, by the same arithmetic as
:func:`xesim.numerics.dpas._row`'s checked fast path, element for element:

* operands are decoded through the same 65536-entry tables (exact float64 values), products ``a*b`` are exact in
  float64 (module docstring of :mod:`xesim.numerics.dpas`);
* per stage ``x = p0 + p1``, ``y = acc + x`` and ``acc = f32(y)`` (numpy's float64 -> float32 conversion is one IEEE
  round-to-nearest-even, with gradual underflow and overflow to infinity), and the TwoSum error terms of both
  additions are summed as absolute values: they are all zero exactly when both float64 sums were exact, and then
  ``f32(y)`` is the one rounding of the exact stage sum the model asks for (NaN from an infinity or an overflow
  also counts as an error);
* an element with any error in an instruction is redone for that instruction, stage by stage, from its accumulator
  before it, with the exact sum of the stage's three terms rounded once (:func:`round_sum_f32`, the semantics of
  :func:`xesim.numerics.exact.round_sum` for f32 RNE);
* a NaN result takes the model's NaN pattern.

numpy evaluates every operation element-wise in IEEE binary64 without contraction, as numba does without fastmath.
tests/numerics/test_dpas_twin.py compares the twin with the compiled kernel on every test vector of the spec and on
random and special-value tiles.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np


def round_sum_f32(terms: tuple[float, ...]) -> float:
    """One round-to-nearest-even rounding to f32 of the exact sum of the float64 ``terms`` (returned as a float64
    holding the f32 value), with :func:`xesim.numerics.exact.round_sum`'s rules: any NaN, or +inf with -inf, gives
    NaN; otherwise an infinity wins; an exactly zero sum is -0 when every term is -0, else +0 (IEEE 754 §6.3).

    The exact sum (a :class:`fractions.Fraction`) is first rounded to 53 bits *to odd* (truncated, the last bit
    set when anything was cut off), then to f32 by the IEEE conversion: rounding to odd at p + 2 or more bits and
    then to nearest at p bits gives the correctly rounded result (Boldo & Melquiond, IEEE Trans. Computers 57(4),
    2008; 53 >= 24 + 2).  The sums met here (an f32 accumulator plus two exact products of 16-bit values) lie far
    inside float64's normal range, so the 53-bit value is a float64 exactly."""
    if any(math.isnan(t) for t in terms) or (math.inf in terms and -math.inf in terms):
        return math.nan
    for inf in (math.inf, -math.inf):
        if inf in terms:
            return inf
    exact = sum((Fraction(t) for t in terms), Fraction(0))
    if exact == 0:
        return -0.0 if all(math.copysign(1.0, t) < 0.0 for t in terms) else 0.0
    mag = abs(exact)
    e = math.floor(math.log2(mag.numerator)) - math.floor(math.log2(mag.denominator)) - 52
    while mag >= Fraction(2) ** (e + 53):  # the log2 estimate is within one: settle 2^52 <= mag / 2^e < 2^53
        e += 1
    while mag < Fraction(2) ** (e + 52):
        e -= 1
    scaled = mag / Fraction(2) ** e
    m = scaled.numerator // scaled.denominator
    if m * scaled.denominator != scaled.numerator:
        m |= 1  # round to odd
    with np.errstate(over="ignore"):  # beyond the f32 range: infinity, the IEEE conversion's overflow
        v = float(np.float32(math.ldexp(float(m), e)))
    return -v if exact < 0 else v


#: bytes of one stage-products temporary (nb, M, depth, N) float64 above which a batch is cut into pieces of
#: matrices (rows of D never interact, so the pieces' results are the whole batch's)
CHUNK_BYTES = 1 << 23


def fast16(abits: np.ndarray, bbits: np.ndarray, b_classes: np.ndarray | None, c32: np.ndarray, ta: np.ndarray,
           tb: np.ndarray, depth: int, nsteps: int, nan_pattern: int) -> np.ndarray:
    """D of the common configuration for a batch: ``abits`` (nb, M, K) and ``bbits`` (nb, K, N) 16-bit patterns
    -- or ``bbits`` (classes, K, N) with matrix ``x`` using tile ``b_classes[x]`` -- decoded through the value
    tables ``ta`` / ``tb``, ``c32`` (nb, M, N) float32 accumulators, ``depth`` stages of two products per
    instruction, ``nsteps`` instructions in increasing K order.  Returns D as float32 (nb, M, N), NaN results
    with the bits ``nan_pattern``."""
    nb, m, _ = abits.shape
    n = bbits.shape[2]
    step = max(1, CHUNK_BYTES // (m * n * depth * 8))
    out = np.empty((nb, m, n), np.float32)
    for lo in range(0, nb, step):
        hi = min(nb, lo + step)
        b = tb[bbits[lo:hi] if b_classes is None else bbits[b_classes[lo:hi]]]
        out[lo:hi] = _matrices(ta[abits[lo:hi]], b, c32[lo:hi], depth, nsteps)
    nan = np.isnan(out)
    if nan.any():
        out.view(np.uint32)[nan] = nan_pattern
    return out


def _matrices(a: np.ndarray, b: np.ndarray, c32: np.ndarray, depth: int, nsteps: int) -> np.ndarray:
    """:func:`fast16` for decoded float64 ``a`` (nb, M, K) and ``b`` (nb, K, N), without the NaN patterns."""
    with np.errstate(all="ignore"):  # infinities, NaN and overflow are part of the arithmetic (module docstring)
        acc = c32.astype(np.float64)
        for st in range(nsteps):
            ks = slice(2 * st * depth, 2 * (st + 1) * depth, 2)  # the even k of the instruction's stages
            kt = slice(2 * st * depth + 1, 2 * (st + 1) * depth, 2)
            # the products and their pair sums for every stage at once: (nb, M, depth, N)
            p0 = a[:, :, ks, None] * b[:, None, ks, :]
            p1 = a[:, :, kt, None] * b[:, None, kt, :]
            xs = p0 + p1
            bb = xs - p0
            errs = np.abs((p0 - (xs - bb)) + (p1 - bb)).sum(axis=2)
            before = acc
            for s in range(depth):  # the accumulation, stage after stage
                x = xs[:, :, s, :]
                y = acc + x
                cc = y - acc
                errs += np.abs((acc - (y - cc)) + (x - cc))
                acc = y.astype(np.float32).astype(np.float64)
            for bt, i, j in zip(*np.nonzero(errs != 0.0)):  # NaN != 0 too
                cur = float(before[bt, i, j])
                for s in range(depth):
                    k = 2 * (st * depth + s)
                    cur = round_sum_f32((cur, float(a[bt, i, k] * b[bt, k, j]),
                                         float(a[bt, i, k + 1] * b[bt, k + 1, j])))
                acc[bt, i, j] = cur
        return acc.astype(np.float32)
