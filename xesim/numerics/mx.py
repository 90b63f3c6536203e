"""Microscaling (MX) numerics: E8M0 scale conversions and the block-scaled DPAS (``xegpu.dpas_mx``,
``xevm.mma_mx``).  Pure functions on numpy values (ARCHITECTURE.md, Numerics); nothing here knows the IR.

**E8M0** (``f8E8M0FNU``, shared/spec/upstream-xegpu-xevm.md §5.1): 8 exponent bits, bias 127, no sign, no
mantissa, no zero; code ``e`` is ``2^(e-127)`` for ``e`` = 0..254 and ``0xFF`` is NaN.  Narrowing to E8M0 has two
definitions upstream (§5.2, §6.2 item 6), so the rule is a target parameter (``mx.e8m0_truncf``):

- ``apfloat`` (§5.2 A, what ``arith.truncf`` means to MLIR): round the magnitude to the nearest power of two — a
  tie (``1.5·2^k``) goes up, because the 1-bit significand is always odd — clamped to ``[2^-127, 2^127]``; zero
  gives ``0x00`` (``2^-127``); Inf and NaN give ``0xFF``.  Negative inputs are not settled upstream: xesim uses the
  magnitude (an assumption stated with the parameter).
- ``arith_expand`` (§5.2 B, what the upstream XeGPU pipeline computes): convert to f32 and keep its 8-bit exponent
  field, i.e. round the magnitude *down* to a power of two; f32 zero and subnormals give ``0x00``, Inf/NaN ``0xFF``.

Widening from E8M0 is exact to bf16/f32/f64 (``2^-127`` is a subnormal there) and rounds (RNE, with overflow to
Inf) to f16; ``0xFF`` gives NaN (§5.2 A).

**Block-scaled DPAS** (§2.9, §5.3): with ``KS`` scale columns and block size ``blk = K / KS``::

    D[m][n] = C[m][n] + Σ_s 2^(sa[m][s]-127) · 2^(sb[s][n]-127) · Σ_{k in block s} A[m][k]·B[k][n]

How the hardware orders and rounds this is implementation-defined (SPIR-V extension; §5.3, §6.2 item 7), so the
model is a target parameter (``dpas_mx.numerics``):

- ``exact`` (the spec's reference model, §5.3): every block sum exact, scaled exactly, C added exactly, one
  round-to-nearest-even to the result type;
- ``block_f32``: each block sum exact, rounded to f32, scaled (one f32 rounding when the power of two leaves the
  f32 range), then added to an f32 accumulator that starts at C, block by block in increasing K (f32 RNE per add);
  the result converted once to the result type.

A NaN scale (``0xFF``) or a non-finite input in an element's row of A or column of B, or a non-finite C element,
makes that element follow IEEE float64 arithmetic of the same formula (so NaN and Inf propagate as IEEE says).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.numerics import conversions as C

E8M0_NAN = 0xFF
E8M0_BIAS = 127
E8M0_TRUNCF_RULES = ("apfloat", "arith_expand")
DPAS_MX_MODELS = ("exact", "block_f32")


# ============================================================================================ E8M0 conversions
def truncf_e8m0(x: Any, rule: str = "apfloat") -> np.ndarray:
    """E8M0 codes (``uint8``) of the float values ``x`` under ``rule`` (module docstring)."""
    if rule not in E8M0_TRUNCF_RULES:
        raise ValueError(f"unknown E8M0 rounding rule {rule!r} (expected one of {', '.join(E8M0_TRUNCF_RULES)})")
    a = np.asarray(x)
    with np.errstate(all="ignore"):
        d = np.abs(a.astype(np.float64))
    out = np.zeros(d.shape, np.uint8)
    bad = ~np.isfinite(d)
    if rule == "arith_expand":
        with np.errstate(all="ignore"):
            f = np.where(bad, 0.0, d).astype(np.float32)  # one RNE rounding to f32 (exact for f16/bf16/f32 inputs)
        codes = (f.view(np.uint32) >> np.uint32(23)) & np.uint32(0xFF)
        out[...] = codes.astype(np.uint8)
    else:
        out[...] = C.e8m0_codes_apfloat(d)
    out[bad] = E8M0_NAN
    return out


def e8m0_value(codes: Any) -> np.ndarray:
    """The float64 values ``2^(e-127)`` of E8M0 codes (NaN for ``0xFF``); exact."""
    c = np.asarray(codes).astype(np.int64)
    return np.where(c == E8M0_NAN, np.nan, np.ldexp(1.0, c - E8M0_BIAS))


def e8m0_codes(x: Any) -> np.ndarray:
    """The codes of an ``f8E8M0FNU`` array (ml_dtypes ``float8_e8m0fnu``) or of raw uint8 codes."""
    a = np.asarray(x)
    return a.view(np.uint8) if a.dtype.itemsize == 1 else a.astype(np.uint8)


# ============================================================================================ block-scaled DPAS
def _exact_parts(v: np.ndarray) -> tuple[np.ndarray, int]:
    """Integers ``q`` and one exponent ``e`` with ``v = q · 2^e`` exactly for every finite element of ``v`` (a
    float array of any format that float64 holds exactly); non-finite elements give 0.  ``e`` is the exponent of the
    lowest set bit over all elements, so MX data (few significant bits) give small integers: ``int64`` when every
    ``|q| < 2^53``, Python integers (``object``) otherwise."""
    d = np.asarray(v, np.float64)
    d = np.where(np.isfinite(d), d, 0.0)
    nz = d != 0
    if not nz.any():
        return np.zeros(d.shape, np.int64), 0
    mant, exp = np.frexp(d)
    m = np.ldexp(mant, 53).astype(np.int64)  # exact: |mant| < 1
    low = np.where(nz, m & -m, 1)  # lowest set bit of each significand
    tz = np.round(np.log2(low.astype(np.float64))).astype(np.int64)
    e = int((exp - 53 + tz)[nz].min())
    q = np.ldexp(d, -e)  # exact integers (no bits are dropped: e is at or below every lowest set bit)
    if np.abs(q).max() < 2.0 ** 53:
        return q.astype(np.int64), e
    out = np.empty(d.shape, object)
    for idx in np.ndindex(d.shape):
        x = float(d[idx])
        out[idx] = int(np.ldexp(x, -e)) if x != 0.0 else 0
    return out, e


def _block_sums(qa: np.ndarray, qb: np.ndarray, ks: int, blk: int) -> list[np.ndarray]:
    """Exact ``Σ_{k in block s} qa·qb`` per block: an ``int64`` matmul when no partial sum can reach 2^62, else
    Python integers."""
    if qa.dtype == np.int64 and qb.dtype == np.int64:
        bound = float(np.abs(qa).max(initial=0)) * float(np.abs(qb).max(initial=0)) * blk
        if bound < 2.0 ** 62:
            return [qa[:, s * blk:(s + 1) * blk] @ qb[s * blk:(s + 1) * blk, :] for s in range(ks)]
    qa, qb = qa.astype(object), qb.astype(object)
    return [qa[:, s * blk:(s + 1) * blk].dot(qb[s * blk:(s + 1) * blk, :]) for s in range(ks)]


def _round_exact(num: int, e: int, dst: str) -> Any:
    """``num · 2^e`` (exact integer ``num``) rounded once (RNE) to ``dst``, as a numpy scalar."""
    if num == 0:
        return C.round_float(np.float64(0.0), dst)[()]
    neg = num < 0
    m = -num if neg else num
    extra = m.bit_length() - 62
    if extra > 0:  # keep 62 bits and a sticky bit: the same RNE result at any precision below 60 bits
        sticky = 1 if m & ((1 << extra) - 1) else 0
        m = (m >> extra) | sticky
        e += extra
    return C.round_scaled(np.bool_(neg), np.uint64(m), np.int64(e), dst)[()]


def dpas_mx(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, sa: np.ndarray | None, sb: np.ndarray | None,
            dst: str, model: str = "exact") -> np.ndarray:
    """``D[M, N]`` of one block-scaled DPAS (module docstring).

    ``a`` ``[M, K]`` and ``b`` ``[K, N]`` in their element types (f8/f4/f16/bf16, any mix); ``c`` ``[M, N]`` or None
    (zero); ``sa`` ``[M, KS]`` and ``sb`` ``[KS, N]`` E8M0 codes (uint8), or None (factor 1: upstream leaves an
    absent scale open, §2.9); ``dst`` the result type name (``f32``, ``bf16``, ``f16``)."""
    if model not in DPAS_MX_MODELS:
        raise ValueError(f"unknown dpas_mx model {model!r} (expected one of {', '.join(DPAS_MX_MODELS)})")
    m_, k_ = a.shape
    n_ = b.shape[1]
    ks = sa.shape[1] if sa is not None else (sb.shape[0] if sb is not None else 1)
    if sa is not None and np.shape(sa) != (m_, ks) or sb is not None and np.shape(sb) != (ks, n_):
        raise ValueError(f"scales of shapes {list(np.shape(sa)) if sa is not None else None} and "
                         f"{list(np.shape(sb)) if sb is not None else None} do not fit [M, KS] = [{m_}, {ks}] and "
                         f"[KS, N] = [{ks}, {n_}]")
    if k_ % ks:
        raise ValueError(f"K = {k_} is not a multiple of the {ks} scale blocks")
    blk = k_ // ks
    sa_c = np.full((m_, ks), E8M0_BIAS, np.int64) if sa is None else np.asarray(sa).astype(np.int64)
    sb_c = np.full((ks, n_), E8M0_BIAS, np.int64) if sb is None else np.asarray(sb).astype(np.int64)
    af, bf = np.asarray(a, np.float64), np.asarray(b, np.float64)
    cf = np.zeros((m_, n_)) if c is None else np.asarray(c, np.float64)
    qa, ea = _exact_parts(af)
    qb, eb = _exact_parts(bf)
    # exact block sums: S[s][m][n] = Σ_{k in s} qa·qb, value S · 2^(ea+eb)
    sums = _block_sums(qa, qb, ks, blk)
    row_bad = ~np.isfinite(af).all(axis=1)
    col_bad = ~np.isfinite(bf).all(axis=0)
    # scale exponents per element and block, [M, N, KS] (power-of-two factors: exact)
    scale_e = sa_c[:, None, :] + sb_c.T[None, :, :] - 2 * E8M0_BIAS
    nan_scale = ((sa_c == E8M0_NAN)[:, None, :] | (sb_c.T == E8M0_NAN)[None, :, :]).any(axis=2)
    special = nan_scale | row_bad[:, None] | col_bad[None, :] | ~np.isfinite(cf)
    if model == "exact":
        qc, ec = _exact_parts(cf)
        negs, mags, exps = np.zeros((m_, n_), bool), np.zeros((m_, n_), np.uint64), np.zeros((m_, n_), np.int64)
        for i in range(m_):
            for j in range(n_):
                if special[i, j]:
                    continue
                terms = [(int(sums[s][i, j]), ea + eb + int(scale_e[i, j, s])) for s in range(ks)]
                terms.append((int(qc[i, j]), ec))
                low = min(e for _, e in terms)
                num = sum(q << (e - low) for q, e in terms)
                mag = abs(num)
                extra = mag.bit_length() - 62
                if extra > 0:  # keep 62 bits and a sticky bit: the same RNE result at any precision below 60 bits
                    mag = (mag >> extra) | (1 if mag & ((1 << extra) - 1) else 0)
                    low += extra
                negs[i, j], mags[i, j], exps[i, j] = num < 0, mag, low
        zero = mags == 0
        out = C.round_scaled(negs, np.where(zero, np.uint64(1), mags), exps, dst)  # one rounding per element
        out[zero] = C.round_float(np.zeros(int(zero.sum())), dst)
    else:
        acc = cf.astype(np.float32)
        for s in range(ks):
            bs = sums[s]
            if bs.dtype == np.int64 and np.abs(bs).max(initial=0) < 2 ** 53:  # exact in f64: one rounding to f32
                with np.errstate(all="ignore"):
                    blk_sum = np.ldexp(bs.astype(np.float64), ea + eb).astype(np.float32)
            else:
                blk_sum = np.array([[_round_exact(int(x), ea + eb, "f32") for x in row] for row in bs], np.float32)
            with np.errstate(all="ignore"):
                scaled = np.ldexp(blk_sum.astype(np.float64), scale_e[:, :, s]).astype(np.float32)  # one rounding
                acc = (acc + scaled).astype(np.float32)  # f32 + f32: one RNE rounding
        out = C.round_float(acc.astype(np.float64), dst)
    for i, j in zip(*np.nonzero(special)):
        with np.errstate(all="ignore"):
            v = cf[i, j] + sum(e8m0_value(sa_c[i, s]) * e8m0_value(sb_c[s, j])
                               * float(np.dot(af[i, s * blk:(s + 1) * blk], bf[s * blk:(s + 1) * blk, j]))
                               for s in range(ks))
        out[i, j] = C.round_float(np.float64(v), dst)[()]
    return out
