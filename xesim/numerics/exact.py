"""Exact (error-free) arithmetic kernels used by the DPAS model (``xesim/numerics/dpas.py``).

Everything here is compiled with ``numba.njit(cache=True)`` and **without fastmath**, so every float
operation is one IEEE-754 binary64 operation rounded to nearest-even (LLVM may not reassociate or contract it);
the arguments below rely on exactly that.

Values are carried as float64.  Every operand DPAS sees is exactly a float64 value: f16, bf16, tf32 and f32
numbers are subsets of binary64, and so is the product of two of them (significands of at most 11 x 11 = 22 bits
for f16/tf32 and 8 x 8 = 16 bits for bf16; exponents between 2^-298 and 2^257, far inside binary64's normal
range), so ``a * b`` in float64 is the exact product (spec/dpas-numerics.md §1 "Products": exact in value, any
exponent).  A *group* (the terms that one hardware rounding sees) is then summed exactly and rounded once:

1. **Fast path — error-free transformation.**  The terms are added left to right in float64 and every addition
   is checked with Knuth's TwoSum (``s = fl(a+b)``, ``e = (a - (s - bb)) + (b - bb)`` with ``bb = s - a``;
   ``s + e = a + b`` exactly for finite ``a``, ``b``; Knuth TAOCP vol. 2 §4.2.2, Theorem B).  If every ``e`` is
   zero, every partial sum was exact, so the float64 total *is* the exact sum, and rounding it once to the target
   format (:func:`round_f64`) is the single rounding the model asks for.  An overflow or an infinity makes
   ``e`` NaN, which also leaves the fast path.
2. **Slow path — Kulisch accumulator.**  Otherwise the terms (integers ``m * 2^e`` with ``m < 2^53``) are added
   into a fixed-point integer array of 32-bit limbs (int64 storage, so up to 2^31 additions cannot overflow)
   spanning every bit the terms have; the sum is exact by construction.  Its top 62 bits are extracted with a
   sticky bit ORed into the last one (round-to-odd at 62 bits), which rounds to any precision ``p <= 60`` with
   any rounding mode exactly as the exact value would: an inexact sum becomes an odd 62-bit value strictly
   inside the same interval between consecutive ``(p+1)``-bit numbers (every ``(p+1)``-bit number is an even
   62-bit number), and that interval decides every mode, ties included (the round-to-odd argument of Boldo &
   Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using rounding to odd",
   IEEE Trans. Computers 57(4), 2008).
3. **Rounding** (:func:`round_mag`) is integer arithmetic on ``(sign, magnitude, exponent)``: the five IEEE
   directions (RNE, RNA, RZ, RD, RU), gradual underflow, IEEE overflow (§7.4: infinity for the nearest modes,
   the largest finite value when the direction points towards zero), and an optional flush-to-zero of tiny
   results.  For f32 RNE without flushing the float64 -> float32 hardware conversion is used instead (one
   IEEE rounding of an exact value: the same result).
"""

from __future__ import annotations

import math

import numba
import numpy as np

RNE, RNA, RZ, RD, RU = 0, 1, 2, 3, 4
ROUNDING_CODES = {"rne": RNE, "rna": RNA, "rz": RZ, "rd": RD, "ru": RU}

# (precision p incl. hidden bit, emin, emax) of the formats DPAS rounds to.
FORMAT_PARAMS = {"f32": (24, -126, 127), "bf16": (8, -126, 127), "f16": (11, -14, 15), "tf32": (11, -126, 127)}

_TWO53 = 9007199254740992.0
LIMBS = 80  # Kulisch accumulator limbs: 80 x 32 bits > 2100 = binary64 range + carries + padding


@numba.njit(cache=True)
def bit_length(x: int) -> int:
    """Number of bits of the positive int64 ``x`` (0 for 0)."""
    if x <= 0:
        return 0
    e = math.frexp(float(x))[1]  # float(x) may round up to the next power of two: correct below
    if (x >> (e - 1)) == 0:
        e -= 1
    return e


@numba.njit(cache=True)
def two_sum(a: float, b: float) -> tuple[float, float]:
    """Knuth's TwoSum: ``s = fl(a + b)`` and the exact error ``e = a + b - s`` (finite inputs, no overflow)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


@numba.njit(cache=True)
def decompose(x: float) -> tuple[bool, int, int]:
    """``|x| = m * 2^e`` with an integer ``m < 2^53`` for a finite nonzero float64 ``x`` (exact: frexp's
    fraction has at most 53 significant bits)."""
    f, ex = math.frexp(abs(x))
    return x < 0.0, np.int64(f * _TWO53), ex - 53


@numba.njit(cache=True)
def round_mag(neg: bool, mag: int, exp: int, p: int, emin: int, emax: int, mode: int, ftz: bool,
              ftz_exact: bool) -> float:
    """Round the exact value ``(-1)^neg * mag * 2^exp`` (``0 < mag < 2^62``) to the binary format with
    precision ``p``, normal exponents ``emin..emax`` (gradual underflow), direction ``mode``.

    ``ftz``: a tiny result becomes a zero of the same sign; tiny means the rounded result is below
    ``2^emin`` (``ftz_exact=False``) or the exact value is (``ftz_exact=True``).  Returns the result as a
    float64 (exact: every such value is a binary64 number; infinities for overflow)."""
    bl = bit_length(mag)
    E = exp + bl - 1  # exponent of the leading bit of the exact value
    q = max(E, emin) - (p - 1)  # exponent of the result's last significand bit
    s = q - exp  # low bits of mag that are dropped
    if s <= 0:
        n = mag << (-s)  # exact: n < 2^p
    else:
        if s >= 63:  # mag < 2^62 <= half an ulp: strictly below the midpoint
            qv = np.int64(0)
            above = False
            tie = False
            inexact = True
        else:
            qv = mag >> s
            r = mag & ((np.int64(1) << s) - 1)
            half = np.int64(1) << (s - 1)
            above = r > half
            tie = r == half
            inexact = r != 0
        if mode == RNE:
            inc = above or (tie and (qv & 1) == 1)
        elif mode == RNA:
            inc = above or tie
        elif mode == RZ:
            inc = False
        elif mode == RD:
            inc = inexact and neg
        else:
            inc = inexact and not neg
        n = qv + (1 if inc else 0)
        if n == (np.int64(1) << p):  # carry into a new binade
            n = n >> 1
            q += 1
    sign = -1.0 if neg else 1.0
    if n == 0:
        return sign * 0.0
    top = q + bit_length(n) - 1
    if top > emax:  # overflow (n < 2^p, so top > emax means beyond the largest finite value)
        if mode == RNE or mode == RNA or (mode == RU and not neg) or (mode == RD and neg):
            return sign * math.inf
        return sign * math.ldexp(float((np.int64(1) << p) - 1), emax - p + 1)
    if ftz:
        tiny = E < emin if ftz_exact else top < emin
        if tiny:
            return sign * 0.0
    return sign * math.ldexp(float(n), q)


@numba.njit(cache=True)
def round_f64(x: float, p: int, emin: int, emax: int, mode: int, ftz: bool, ftz_exact: bool) -> float:
    """Round the float64 ``x`` (taken as exact) to the format; zeros, infinities and NaN pass through."""
    if x == 0.0 or x != x or math.isinf(x):
        return x
    if p == 24 and emin == -126 and mode == RNE and not ftz:
        return float(np.float32(x))  # IEEE conversion: one RNE rounding with gradual underflow and overflow
    neg, m, e = decompose(x)
    return round_mag(neg, m, e, p, emin, emax, mode, ftz, ftz_exact)


@numba.njit(cache=True)
def zero_sum_sign(t: np.ndarray, n: int, mode: int) -> float:
    """Signed zero of an exactly-zero sum of ``t[:n]`` (IEEE 754 §6.3 generalised to n terms: -0 if every
    term is -0, +0 if every term is +0, otherwise +0, or -0 when rounding downward)."""
    all_neg = True
    all_pos = True
    for i in range(n):
        v = t[i]
        if v != 0.0:
            all_neg = False
            all_pos = False
            break
        if math.copysign(1.0, v) < 0.0:
            all_pos = False
        else:
            all_neg = False
    if all_neg and n > 0:
        return -0.0
    if all_pos:
        return 0.0
    return -0.0 if mode == RD else 0.0


@numba.njit(cache=True)
def kulisch_round(t: np.ndarray, n: int, p: int, emin: int, emax: int, mode: int, ftz: bool, ftz_exact: bool,
                  limbs: np.ndarray) -> float:
    """Exact sum of the finite float64 terms ``t[:n]`` rounded once (see the module docstring, step 2)."""
    lo = 1 << 30
    hi = -(1 << 30)
    for i in range(n):
        v = t[i]
        if v != 0.0:
            neg, m, e = decompose(v)
            if e < lo:
                lo = e
            if e + 53 > hi:
                hi = e + 53
    if hi < lo:  # no nonzero term
        return zero_sum_sign(t, n, mode)
    base = lo - 64  # two zero limbs of padding below the lowest bit
    nl = (hi - base) // 32 + 3
    for k in range(nl):
        limbs[k] = 0
    mask = np.int64(0xFFFFFFFF)
    for i in range(n):
        v = t[i]
        if v == 0.0:
            continue
        neg, m, e = decompose(v)
        off = e - base
        li = off // 32
        sh = off % 32
        low = (m & ((np.int64(1) << (32 - sh)) - 1)) << sh  # < 2^32
        rest = m >> (32 - sh)  # < 2^53
        if neg:
            limbs[li] -= low
            limbs[li + 1] -= rest & mask
            limbs[li + 2] -= rest >> 32
        else:
            limbs[li] += low
            limbs[li + 1] += rest & mask
            limbs[li + 2] += rest >> 32
    for k in range(nl - 1):  # carry propagation: limbs[0..nl-2] in [0, 2^32)
        c = limbs[k] >> 32
        limbs[k] -= c << 32
        limbs[k + 1] += c
    negative = limbs[nl - 1] < 0
    if negative:
        for k in range(nl):
            limbs[k] = -limbs[k]
        for k in range(nl - 1):
            c = limbs[k] >> 32
            limbs[k] -= c << 32
            limbs[k + 1] += c
    top = nl - 1
    while top >= 0 and limbs[top] == 0:
        top -= 1
    if top < 0:
        return zero_sum_sign(t, n, mode)
    bt = bit_length(limbs[top])
    need = 62 - bt  # bits taken from the limbs below `top` (30..61); top >= 2 because of the padding
    if need <= 32:
        mag = (limbs[top] << need) | (limbs[top - 1] >> (32 - need))
        sticky = (limbs[top - 1] & ((np.int64(1) << (32 - need)) - 1)) != 0
        below = top - 2
    else:
        mag = (limbs[top] << need) | (limbs[top - 1] << (need - 32)) | (limbs[top - 2] >> (64 - need))
        sticky = (limbs[top - 2] & ((np.int64(1) << (64 - need)) - 1)) != 0
        below = top - 3
    k = below
    while not sticky and k >= 0:
        if limbs[k] != 0:
            sticky = True
        k -= 1
    if sticky:
        mag |= 1  # round to odd at 62 bits
    exp = base + 32 * top + bt - 62
    return round_mag(negative, mag, exp, p, emin, emax, mode, ftz, ftz_exact)


@numba.njit(cache=True)
def round_sum(t: np.ndarray, n: int, p: int, emin: int, emax: int, mode: int, ftz: bool, ftz_exact: bool,
              align_bits: int, limbs: np.ndarray) -> float:
    """One rounding of the exact sum of the float64 terms ``t[:n]`` (``t`` is overwritten).

    Special values first (IEEE): any NaN, or +inf with -inf, gives NaN; otherwise an infinity wins.
    ``align_bits > 0`` models a narrow adder (spec/dpas-numerics.md §5 item 6): every term is first truncated
    toward zero to a multiple of ``2^(Emax - align_bits + 1)``, ``Emax`` being the exponent of the leading bit
    of the largest term, i.e. the adder keeps ``align_bits`` bits counted from the largest term's leading bit
    (models M7: 27, M8: 25 of spec/dpas-test-vectors.md)."""
    nan = False
    pinf = False
    ninf = False
    for i in range(n):
        v = t[i]
        if v != v:
            nan = True
        elif v == math.inf:
            pinf = True
        elif v == -math.inf:
            ninf = True
    if nan or (pinf and ninf):
        return math.nan
    if pinf:
        return math.inf
    if ninf:
        return -math.inf
    if align_bits > 0:
        emax_t = -(1 << 30)
        for i in range(n):
            if t[i] != 0.0:
                e = math.frexp(t[i])[1] - 1
                if e > emax_t:
                    emax_t = e
        if emax_t > -(1 << 30):
            lsb = emax_t - align_bits + 1
            for i in range(n):
                v = t[i]
                if v != 0.0:
                    neg, m, e = decompose(v)
                    if e < lsb:
                        sh = lsb - e
                        m = m >> sh if sh < 63 else np.int64(0)
                        mag = math.ldexp(float(m), lsb)
                        t[i] = -mag if neg else mag
    s = t[0]
    exact = True
    for i in range(1, n):
        s, e = two_sum(s, t[i])
        if e != 0.0:  # also true for NaN (overflow)
            exact = False
            break
    if exact and not math.isinf(s):
        if s == 0.0:
            return zero_sum_sign(t, n, mode)
        return round_f64(s, p, emin, emax, mode, ftz, ftz_exact)
    return kulisch_round(t, n, p, emin, emax, mode, ftz, ftz_exact, limbs)
