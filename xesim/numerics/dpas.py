"""DPAS (XMX systolic dot-product-accumulate) numerics: ``D = C + A x B`` bit for bit under a configurable model.

Spec: spec/dpas-numerics.md (§1 best-evidenced behaviour, §3 model skeleton, §5 parameters, §8 tables) and
spec/pvc-hardware.md §3 (shapes, type table).  Geometry and the legal type table come from the target
(``isa/targets/<target>.toml`` ``[dpas]``), the numerics model from :func:`model_from_target`.

**One instruction** (:func:`dpas_instruction`, spec/dpas-numerics.md §2.1 vISA pseudocode, §3 skeleton): A is
M x K (M = repeat count <= 8), B is K x N (N = execution size), K = systolic depth (8) x OPS_PER_CHAN; product
``k`` belongs to stage ``k // OPS``.  Per output element::

    acc = Src0 (C widened exactly; +0 when C is absent = null register, §5.15)
    for each rounding group (default: one systolic stage, stages 0..7 in order):
        acc = ROUND_acc_format(acc + sum of the group's exact products)      # ONE rounding per group
    Dst = acc, or ROUND_dst(acc) once for an f16/bf16 Dst (§3, T13a-c)

with the variations of :class:`DpasModel` (group size, Src0 last, reverse stages, narrow adder, rounding
direction, denormal flushing, tf32 operand treatment, product rounding).  Integer DPAS:
``D = (C + sum_k a_k b_k) mod 2^32`` with each operand sign- or zero-extended (§3: SPV-MMA "low-order bits of the
exactly computed result"; IGA has no saturation on dpas), which does not depend on order.

**A tile** (:func:`dpas`): any M x K times K x N (+ M x N) with N a multiple of the execution size and K of the
instruction's K is the sequence of hardware instructions a compiler emits: rows in blocks of at most
``max_repeat_count``, columns in blocks of ``exec_size``, and the K blocks **in increasing K order, the Dst of
one K step being the Src0 of the next** (so an f16/bf16 Dst is rounded between K steps, §3).  Rows and columns
of D never interact, so the kernel evaluates that chain per output element, which is the same computation as
issuing the instructions one by one (tested against :func:`dpas_instruction`).  Leading batch axes are allowed
(``a[..., M, K]``, ``b[..., K, N]``, ``c[..., M, N]``, broadcast) so many subgroups can be computed in one call.

**Exact by construction, never BLAS** (BLAS reorders and rounds differently): operands are decoded to float64
(exact: f16/bf16/tf32 are subsets of binary64), products are float64 multiplications of values with at most
11-bit significands (exact: at most 22 bits, exponents far inside binary64's range), and each rounding group is
summed exactly and rounded once by :mod:`xesim.numerics.exact` (TwoSum error-free check, Kulisch accumulator
when the float64 sum is not exact; argument in that module's docstring).  The loops are numba-compiled
(no fastmath, except LLVM's ``contract`` in :func:`_fast16_rows`, whose docstring shows it changes no bit); large
tiles run rows in parallel (results do not depend on it: rows are independent).

**Proved-exact rows** (the common configuration: f16/bf16 sources, f32 accumulator and Dst, stage-by-stage RNE,
:func:`_fast16_rows`): before a row is computed, :func:`_row_exact` / :func:`_columns_exact` prove from operand
magnitudes and power-of-two granularities that every float64 sum it will form is exact and no f32 rounding
overflows; proved columns then run ``acc = f32(acc + (p0 + p1))`` per stage with no error checks, vectorised
over the row's N columns, and the rest are recomputed with the checks.  Random f16/bf16 GEMM data is almost
always proved (tests/numerics/test_dpas_fast_rows.py pins both sides of the proof).  A batch's A and B are decoded
once per distinct tile (:mod:`xesim.numerics.tile_classes`, exact bit equality): a GEMM batch shares each B tile
among its M-dimension tiles and each A tile among its N-dimension tiles.  Proved rows run two at a time with the
stage's multiply-adds fused (exact there; :func:`_fast16_rows`).
"""

from __future__ import annotations

import math
import weakref
from typing import Any

import ml_dtypes
import numba
import numpy as np

from xesim.numerics import dpas_twin, tiers
from xesim.numerics.conversions import round_float
from xesim.numerics.dpas_models import PRESETS, TABLE_COLUMNS, DpasModel, model_from_target, preset
from xesim.numerics.exact import FORMAT_PARAMS, LIMBS, RNE, ROUNDING_CODES, round_f64, round_sum
from xesim.numerics.tile_classes import tile_classes
from xesim.numerics.work_queue import chunk_count, claim

__all__ = [
    "PRESETS",
    "TABLE_COLUMNS",
    "DpasModel",
    "FLOAT_SOURCE_TYPES",
    "INT_SOURCE_TYPES",
    "ACC_TYPES",
    "dpas",
    "dpas_instruction",
    "geometry",
    "instruction_k",
    "model_from_target",
    "ops_per_channel",
    "preset",
]

FLOAT_SOURCE_TYPES: dict[str, Any] = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
                                      "tf32": np.dtype(np.float32)}
#: integer source type -> (bits, signed)
INT_SOURCE_TYPES: dict[str, tuple[int, bool]] = {"s8": (8, True), "u8": (8, False), "s4": (4, True),
                                                 "u4": (4, False), "s2": (2, True), "u2": (2, False)}
ACC_TYPES: dict[str, Any] = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
                             "bf16": np.dtype(ml_dtypes.bfloat16), "s32": np.dtype(np.int32),
                             "u32": np.dtype(np.uint32)}
_ALL_TYPES = set(FLOAT_SOURCE_TYPES) | set(INT_SOURCE_TYPES) | set(ACC_TYPES)

_PARALLEL_MIN_WORK = 1 << 17  # output elements x K steps from which rows run in parallel


# --------------------------------------------------------------------------------------------------------------
# geometry and legality (target data: isa/targets/<target>.toml [dpas])

_GEOM_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def geometry(target: Any) -> dict[str, Any]:
    """The target's DPAS geometry and legal type table (spec/pvc-hardware.md §3.1, §3.2)."""
    try:
        return _GEOM_CACHE[target]
    except (KeyError, TypeError):
        pass
    d = target.dpas
    g = {"systolic_depth": int(d.systolic_depth), "exec_size": int(d.exec_size),
         "max_repeat_count": int(d.max_repeat_count), "ops_per_channel": dict(d.ops_per_channel),
         "legal_types": [dict(r) for r in d.legal_types],
         "ud_dst_requires_unsigned_sources": bool(d.ud_dst_requires_unsigned_sources), "target": str(target.name)}
    try:
        _GEOM_CACHE[target] = g
    except TypeError:
        pass
    return g


def ops_per_channel(a_type: str, b_type: str, target: Any) -> int:
    """OPS_PER_CHAN of a source pair: tf32 1, bf16/f16 2, an integer pair 4 if either side is 8-bit and 8 if
    both are sub-byte (spec/pvc-hardware.md §3.1; the target's ``dpas.ops_per_channel`` per type, the pair
    uses the smaller)."""
    table = geometry(target)["ops_per_channel"]
    for t in (a_type, b_type):
        if t not in table:
            raise ValueError(f"DPAS: '{t}' is not a DPAS source type of target '{geometry(target)['target']}' "
                             f"(source types: {', '.join(table)}; spec/pvc-hardware.md §3.1)")
    return min(int(table[a_type]), int(table[b_type]))


def instruction_k(a_type: str, b_type: str, target: Any) -> int:
    """K of one DPAS instruction: systolic depth x ops per channel (spec/pvc-hardware.md §3.1)."""
    return geometry(target)["systolic_depth"] * ops_per_channel(a_type, b_type, target)


def _check_types(a_type: str, b_type: str, acc_type: str, dst_type: str, target: Any) -> None:
    g = geometry(target)
    for role, t in (("A", a_type), ("B", b_type), ("acc", acc_type), ("dst", dst_type)):
        if t not in _ALL_TYPES:
            raise ValueError(f"DPAS: unknown {role} type '{t}' (known: {', '.join(sorted(_ALL_TYPES))})")
    for row in g["legal_types"]:
        if a_type in row["a"] and b_type in row["b"] and acc_type in row["acc"] and dst_type in row["dst"]:
            break
    else:
        raise ValueError(
            f"DPAS: illegal type combination dst={dst_type} acc={acc_type} a={a_type} b={b_type} on target "
            f"'{g['target']}': not in its dpas.legal_types table (float sources must have the same precision, "
            f"bf16 accumulates into f32/bf16, f16 into f32/f16, tf32 into f32, integers into s32/u32; "
            f"spec/pvc-hardware.md §3.2)")
    if (g["ud_dst_requires_unsigned_sources"] and dst_type == "u32"
            and (INT_SOURCE_TYPES[a_type][1] or INT_SOURCE_TYPES[b_type][1])):
        raise ValueError(f"DPAS: a u32 Dst requires unsigned sources on target '{g['target']}' "
                         f"(dpas.ud_dst_requires_unsigned_sources; spec/dpas-numerics.md §3)")


# --------------------------------------------------------------------------------------------------------------
# operand decoding (spec/dpas-numerics.md §5.3 tf32 operands, §5.11 input denormals)

_F16, _BF16, _TF32, _F32 = 0, 1, 2, 3
_TF32_MODES = {"truncate": 0, "rne": 1, "full": 2}
_FLOAT_CODES = {"f16": _F16, "bf16": _BF16, "tf32": _TF32, "f32": _F32}
# Dst encodings: (precision p, emin, exponent bits, total bits)
_ENCODING = {"f32": (24, -126, 8, 32), "bf16": (8, -126, 8, 16), "f16": (11, -14, 5, 16)}


@numba.njit(cache=True)
def _decode_value(bits, code, ftz, tf32_mode):  # noqa: ANN001, ANN202
    """Exact float64 value of an f16 / bf16 / tf32-in-f32 bit pattern after the model's operand treatment:
    tf32 low 13 fraction bits cleared (truncate) or rounded to nearest-even (rne) or kept (full); then a
    subnormal operand becomes a zero of its sign when ``ftz``.  NaN and infinity decode as such."""
    if code == _F16:
        neg = (bits >> 15) & 1
        e = (bits >> 10) & 0x1F
        m = bits & 0x3FF
        if e == 31:
            v = math.inf if m == 0 else math.nan
        elif e == 0:
            v = 0.0 if ftz else math.ldexp(float(m), -24)
        else:
            v = math.ldexp(float(m | 0x400), e - 25)
        return -v if neg else v
    if code == _BF16:
        bits = bits << 16
    neg = (bits >> 31) & 1
    e = (bits >> 23) & 0xFF
    m = bits & 0x7FFFFF
    if e == 255:
        v = math.inf if m == 0 else math.nan
        return -v if neg else v
    if code == _TF32 and tf32_mode == 0:
        m = m & 0x7FE000
    v = math.ldexp(float(m), -149) if e == 0 else math.ldexp(float(m | 0x800000), e - 150)
    if code == _TF32 and tf32_mode == 1:
        v = round_f64(v, 11, -126, 127, RNE, False, False)
    if ftz and v != 0.0 and v < 2.0**-126:
        v = 0.0
    return -v if neg else v


@numba.njit(cache=True)
def _decode_operands(abits, bbits, cbits, has_c, a_code, b_code, c_code, a_ftz, b_ftz, tf32_mode, A, Bp,  # noqa: ANN001, ANN202
                     C):
    """Bit patterns -> float64 values: A (nb, M, K); B (nb, K, N) into column panels Bp (nb, N/W, K, W);
    C (nb, M, N) widened exactly (no flush here: Src0 flushing is per instruction), or +0 without C."""
    nb, M, K = abits.shape
    N = bbits.shape[2]
    W = Bp.shape[3]
    for x in range(nb):
        for i in range(M):
            for k in range(K):
                A[x, i, k] = _decode_value(np.int64(abits[x, i, k]), a_code, a_ftz, tf32_mode)
            for j in range(N):
                C[x, i, j] = _decode_value(np.int64(cbits[x, i, j]), c_code, False, 2) if has_c else 0.0
        for k in range(K):
            for j in range(N):
                Bp[x, j // W, k, j % W] = _decode_value(np.int64(bbits[x, k, j]), b_code, b_ftz, tf32_mode)


@numba.njit(cache=True)
def _encode_out(res, p, emin, ebits, total, nan_pattern, out):  # noqa: ANN001, ANN202
    """float64 values exactly representable in the Dst format -> its bit patterns (NaN -> ``nan_pattern``)."""
    flat = res.reshape(-1)
    dst = out.reshape(-1)
    bias = 1 - emin
    for n in range(flat.shape[0]):
        v = flat[n]
        if v != v:
            dst[n] = nan_pattern
            continue
        sign = np.int64(1) << (total - 1) if math.copysign(1.0, v) < 0.0 else np.int64(0)
        a = abs(v)
        if a == 0.0:
            bits = sign
        elif math.isinf(a):
            bits = sign | (((np.int64(1) << ebits) - 1) << (p - 1))
        else:
            f, e = math.frexp(a)  # a = f * 2^e, f in [0.5, 1)
            if e - 1 < emin:  # subnormal: a = mant * 2^(emin - p + 1)
                bits = sign | np.int64(math.ldexp(a, p - 1 - emin))
            else:
                bits = sign | (np.int64(e - 1 + bias) << (p - 1)) | (np.int64(math.ldexp(f, p)) - (np.int64(1) << (p - 1)))
        dst[n] = bits


def _decode_int(x: np.ndarray, t: str, role: str) -> np.ndarray:
    bits, signed = INT_SOURCE_TYPES[t]
    if x.dtype.kind not in "iu":
        raise ValueError(f"DPAS: {role} holds {t} values and must be an integer array, got {x.dtype}")
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    v = x.astype(np.int64)
    if v.size and (v.min() < lo or v.max() > hi):
        raise ValueError(f"DPAS: {role} has a value outside the {t} range [{lo}, {hi}]")
    return v


# --------------------------------------------------------------------------------------------------------------
# float kernel

# cfg fields (int64 array)
_OPS, _DEPTH, _NSTEPS, _GROUP, _SRC0_LAST, _REVERSE, _RND, _FINAL_RND = range(8)
_ACC_P, _ACC_EMIN, _ACC_EMAX, _DST_P, _DST_EMIN, _DST_EMAX, _C_EMIN, _DST_CONVERT = range(8, 16)
_SRC0_FTZ, _OUT_FTZ, _FTZ_EXACT, _PROD_ROUND, _ALIGN, _FAST = range(16, 22)
_NCFG = 22


@numba.njit(cache=True)
def _instruction_generic(A, Bp, bt, i, pj, jj, k0, acc, cfg, t, limbs):  # noqa: ANN001, ANN202
    """One instruction for one output element (row ``i``, column ``jj`` of panel ``pj``) under any model."""
    ops = cfg[_OPS]
    depth = cfg[_DEPTH]
    nprod = ops * depth
    gsize = nprod if cfg[_GROUP] <= 0 else cfg[_GROUP]
    p = cfg[_ACC_P]
    emin = cfg[_ACC_EMIN]
    emax = cfg[_ACC_EMAX]
    rnd = cfg[_RND]
    ftz = cfg[_OUT_FTZ] != 0
    ftz_exact = cfg[_FTZ_EXACT] != 0
    align = cfg[_ALIGN]
    has_cur = cfg[_SRC0_LAST] == 0
    cur = acc
    n = 0
    cnt = 0
    for idx in range(nprod):
        if cfg[_REVERSE] != 0:
            k = k0 + (depth - 1 - idx // ops) * ops + idx % ops
        else:
            k = k0 + idx
        prod = A[bt, i, k] * Bp[bt, pj, k, jj]  # exact (module docstring)
        if cfg[_PROD_ROUND] != 0:
            prod = round_f64(prod, p, emin, emax, rnd, ftz, ftz_exact)
        if cnt == 0:
            n = 0
            if has_cur:
                t[0] = cur
                n = 1
        t[n] = prod
        n += 1
        cnt += 1
        if cnt == gsize or idx == nprod - 1:
            cur = round_sum(t, n, p, emin, emax, rnd, ftz, ftz_exact, align, limbs)
            has_cur = True
            cnt = 0
    if cfg[_SRC0_LAST] != 0:
        t[0] = cur
        t[1] = acc
        cur = round_sum(t, 2, p, emin, emax, rnd, ftz, ftz_exact, align, limbs)
    return cur


@numba.njit(cache=True)
def _redo_instruction(A, Bp, bt, i, pj, k0, ops, depth, before, acc, bad, t, limbs):  # noqa: ANN001, ANN202
    """Exact :func:`round_sum` of every stage of one instruction, from the accumulator ``before`` it, for the
    columns whose float64 sums were not all exact."""
    for jj in range(acc.shape[0]):
        if bad[jj]:
            cur = before[jj]
            for s in range(depth):
                k = k0 + s * ops
                t[0] = cur
                for q in range(ops):
                    t[1 + q] = A[bt, i, k + q] * Bp[bt, pj, k + q, jj]
                cur = round_sum(t, 1 + ops, 24, -126, 127, RNE, False, False, 0, limbs)
            acc[jj] = cur


@numba.njit(cache=True)
def _stages2(A, Bp, bt, i, pj, k0, depth, acc, errs):  # noqa: ANN001, ANN202
    """One instruction with two products per stage (16-bit sources) for all columns of a panel: per stage
    ``acc = f32(acc + (p0 + p1))`` in float64, ``errs += |TwoSum errors|`` (written without branches so LLVM
    vectorises it over the columns)."""
    for s in range(depth):
        k = k0 + 2 * s
        a0 = A[bt, i, k]
        a1 = A[bt, i, k + 1]
        b0 = Bp[bt, pj, k]
        b1 = Bp[bt, pj, k + 1]
        for jj in range(acc.shape[0]):
            p0 = a0 * b0[jj]  # exact (module docstring)
            p1 = a1 * b1[jj]
            x = p0 + p1
            bb = x - p0
            e1 = (p0 - (x - bb)) + (p1 - bb)
            c0 = acc[jj]
            y = c0 + x
            cc = y - c0
            e2 = (c0 - (y - cc)) + (x - cc)
            acc[jj] = np.float32(y)  # IEEE binary64 -> binary32 conversion: one RNE rounding
            errs[jj] += abs(e1) + abs(e2)


@numba.njit(cache=True)
def _stages1(A, Bp, bt, i, pj, k0, depth, acc, errs):  # noqa: ANN001, ANN202
    """One instruction with one product per stage (tf32): ``acc = f32(acc + p)``, ``errs += |TwoSum error|``."""
    for s in range(depth):
        k = k0 + s
        a0 = A[bt, i, k]
        b0 = Bp[bt, pj, k]
        for jj in range(acc.shape[0]):
            p0 = a0 * b0[jj]
            c0 = acc[jj]
            y = c0 + p0
            cc = y - c0
            e2 = (c0 - (y - cc)) + (p0 - cc)
            acc[jj] = np.float32(y)
            errs[jj] += abs(e2)


@numba.njit(cache=True)
def _row(A, Bp, C, out, cfg, bt, pj, i, acc, new, bad, errs, t, limbs):  # noqa: ANN001, ANN202
    """Row ``i`` of batch ``bt`` and column panel ``pj``: every K step (instruction) in increasing K order.

    Fast path (``cfg[_FAST]``: stage groups, RNE to f32, exact adder, Src0 first, forward): each stage is summed
    in float64 for all W columns and checked with TwoSum (exact check: :mod:`xesim.numerics.exact`; written
    without branches so LLVM vectorises it over the columns); a column with any inexact float64 sum in an
    instruction is redone for that whole instruction by the exact :func:`round_sum`, stage by stage, from its
    accumulator before the instruction.  Otherwise :func:`_instruction_generic`."""
    W = Bp.shape[3]
    j0 = pj * W
    ops = cfg[_OPS]
    depth = cfg[_DEPTH]
    kinst = ops * depth
    src0_ftz = cfg[_SRC0_FTZ] != 0
    ftz = cfg[_OUT_FTZ] != 0
    ftz_exact = cfg[_FTZ_EXACT] != 0
    fast = cfg[_FAST] != 0
    for jj in range(W):
        acc[jj] = C[bt, i, j0 + jj]
    for st in range(cfg[_NSTEPS]):
        k0 = st * kinst
        if src0_ftz:
            lim = 2.0 ** (cfg[_C_EMIN] if st == 0 else cfg[_DST_EMIN])
            for jj in range(W):
                if acc[jj] != 0.0 and abs(acc[jj]) < lim:
                    acc[jj] = 0.0 if acc[jj] > 0 else -0.0
        if fast and ops <= 2:
            # every stage in float64 with TwoSum error terms summed in ``errs`` (abs values: zero iff all were
            # zero; NaN for infinities / overflow); a column with a non-zero sum is redone for the whole
            # instruction from its accumulator before it (``new`` keeps it)
            for jj in range(W):
                new[jj] = acc[jj]
                errs[jj] = 0.0
            if ops == 2:
                _stages2(A, Bp, bt, i, pj, k0, depth, acc, errs)
            else:
                _stages1(A, Bp, bt, i, pj, k0, depth, acc, errs)
            any_bad = False
            for jj in range(W):
                bad[jj] = errs[jj] != 0.0
                any_bad |= bad[jj]
            if any_bad:
                _redo_instruction(A, Bp, bt, i, pj, k0, ops, depth, new, acc, bad, t, limbs)
        else:
            for jj in range(W):
                acc[jj] = _instruction_generic(A, Bp, bt, i, pj, jj, k0, acc[jj], cfg, t, limbs)
        if cfg[_DST_CONVERT] != 0:
            for jj in range(W):
                acc[jj] = round_f64(acc[jj], cfg[_DST_P], cfg[_DST_EMIN], cfg[_DST_EMAX], cfg[_FINAL_RND], ftz,
                                    ftz_exact)
    for jj in range(W):
        out[bt, i, j0 + jj] = acc[jj]


@numba.njit(cache=True)
def _float_kernel(A, Bp, C, out, cfg):  # noqa: ANN001, ANN202
    nb, npan, _, W = Bp.shape
    M = A.shape[1]
    t = np.zeros(cfg[_OPS] * cfg[_DEPTH] + 2, np.float64)
    limbs = np.zeros(LIMBS, np.int64)
    acc = np.empty(W, np.float64)
    new = np.empty(W, np.float64)
    bad = np.empty(W, np.bool_)
    errs = np.empty(W, np.float64)
    for r in range(nb * npan * M):  # panel-major: a K x W panel of B stays in cache for all rows
        _row(A, Bp, C, out, cfg, r // (npan * M), (r // M) % npan, r % M, acc, new, bad, errs, t, limbs)


@numba.njit(cache=True, parallel=True)
def _float_kernel_parallel(A, Bp, C, out, cfg, threads, nchunks):  # noqa: ANN001, ANN202
    """:func:`_float_kernel` with contiguous chunks of the panel-major row order handed out to ``threads`` threads
    one at a time (xesim/numerics/work_queue.py)."""
    nb, npan, _, W = Bp.shape
    M = A.shape[1]
    total = nb * npan * M
    next_chunk = np.zeros(1, np.int64)
    for _ in numba.prange(threads):
        t = np.zeros(cfg[_OPS] * cfg[_DEPTH] + 2, np.float64)
        limbs = np.zeros(LIMBS, np.int64)
        acc = np.empty(W, np.float64)
        new = np.empty(W, np.float64)
        bad = np.empty(W, np.bool_)
        errs = np.empty(W, np.float64)
        ch = claim(next_chunk, nchunks)
        while ch >= 0:
            for r in range(ch * total // nchunks, (ch + 1) * total // nchunks):
                _row(A, Bp, C, out, cfg, r // (npan * M), (r // M) % npan, r % M, acc, new, bad, errs, t, limbs)
            ch = claim(next_chunk, nchunks)


def _run_float_kernel(A: np.ndarray, Bp: np.ndarray, C: np.ndarray, res: np.ndarray, cfg: np.ndarray,
                      work: int) -> None:
    """:func:`_float_kernel`, on numba's threads when the tile is large."""
    threads = numba.get_num_threads()
    if work >= _PARALLEL_MIN_WORK and threads > 1:
        rows = Bp.shape[0] * Bp.shape[1] * A.shape[1]
        _float_kernel_parallel(A, Bp, C, res, cfg, threads, chunk_count(threads, rows))
    else:
        _float_kernel(A, Bp, C, res, cfg)


_POW2 = 2.0 ** (np.arange(280) - 150)  # _POW2[e] = 2^(e - 150): the ulp of an f32 with biased exponent e
_EXACT_LIMIT = 2.0**53 / 1.125  # 2^53 G over the growth bound of _columns_exact's argument
_TWO125 = 2.0**125
_F32_TINY = 2.0**-149  # the smallest f32 subnormal: every multiple of G >= it below 2^-126 is an f32
_MAX_PROVED_STAGES = 1 << 20  # stages per row for which the growth bound of _columns_exact holds


@numba.njit(cache=True)
def _decode16_rows(bbits, tb, lb, B, Bst, Btile):  # noqa: ANN001, ANN202
    """16-bit B (nb, K, N) bit patterns -> float64 B (same layout) through the value table ``tb``, with per
    column statistics for :func:`_columns_exact` from the power-of-two table ``lb`` (:func:`_lsb_table`):
    ``Bst[x, 0, j]`` = max |b| and ``Bst[x, 1, j]`` = the largest power of two dividing every b of column j;
    ``Btile[x]`` = the same over the whole tile (for :func:`_row_exact`)."""
    _decode16_tiles(bbits, tb, lb, B, Bst, Btile, 0, bbits.shape[0])


@numba.njit(cache=True, parallel=True)
def _decode16_rows_parallel(bbits, tb, lb, B, Bst, Btile, threads, nchunks):  # noqa: ANN001, ANN202
    """:func:`_decode16_rows` with the tiles cut into ``nchunks`` ranges handed out to ``threads`` threads one at a
    time (xesim/numerics/work_queue.py)."""
    nb = bbits.shape[0]
    next_chunk = np.zeros(1, np.int64)
    for _ in numba.prange(threads):
        ch = claim(next_chunk, nchunks)
        while ch >= 0:
            _decode16_tiles(bbits, tb, lb, B, Bst, Btile, ch * nb // nchunks, (ch + 1) * nb // nchunks)
            ch = claim(next_chunk, nchunks)


@numba.njit(cache=True)
def _decode16_tiles(bbits, tb, lb, B, Bst, Btile, lo, hi):  # noqa: ANN001, ANN202
    """:func:`_decode16_rows` for tiles ``lo`` to ``hi - 1``."""
    K, N = bbits.shape[1], bbits.shape[2]
    for x in range(lo, hi):
        for j in range(N):
            Bst[x, 0, j] = 0.0
            Bst[x, 1, j] = np.inf
        for k in range(K):
            for j in range(N):
                code = bbits[x, k, j]
                v = tb[code]
                B[x, k, j] = v
                Bst[x, 0, j] = max(Bst[x, 0, j], abs(v))
                Bst[x, 1, j] = min(Bst[x, 1, j], lb[code])
        Btile[x, 0] = 0.0
        Btile[x, 1] = np.inf
        for j in range(N):
            Btile[x, 0] = max(Btile[x, 0], Bst[x, 0, j])
            Btile[x, 1] = min(Btile[x, 1], Bst[x, 1, j])


@numba.njit(cache=True)
def _row_exact(sa, la, Btile, bt, cb):  # noqa: ANN001, ANN202
    """The argument of :func:`_columns_exact` for a whole row at once, from tile-wide B statistics and the
    exponent range of the row's f32 C bits ``cb`` (|c| < 2^(emax-126); every nonzero c a multiple of
    2^(max(emin,1)-150)); integer work only, so a row costs O(N) cheap operations.  False = not proved here
    (the caller then checks column by column).  :func:`_fast16_rows` scans the bits in its own loop over the
    row and calls :func:`_row_exact_from`."""
    emin = 255
    emax = 0
    for j in range(cb.shape[0]):  # branch-free so that LLVM vectorises it
        u = cb[j] & 0x7FFFFFFF
        e = u >> 23
        emax = max(emax, e)
        emin = min(emin, max(e, 1) if u != 0 else 255)
    return _row_exact_from(sa, la, Btile[bt, 0], Btile[bt, 1], emin, emax)


@numba.njit(cache=True)
def _row_exact_from(sa, la, bmax, blsb, emin, emax):  # noqa: ANN001, ANN202
    """:func:`_row_exact` given the row's C exponent range: ``emax`` the largest biased exponent of its f32 C,
    ``emin`` the smallest of its nonzero ones, at least 1 (255 when all are zero); ``bmax`` / ``blsb`` the B
    tile's max |b| and power of two (``Btile[bt]``)."""
    if emax == 255:
        return False
    lc = np.inf if emin == 255 else _POW2[emin]
    s = _POW2[emax + 24] + sa * bmax
    g = min(la * blsb, lc)
    return s < _EXACT_LIMIT * g and s < _TWO125 and g >= _F32_TINY


@numba.njit(cache=True)
def _columns_exact(sa, la, Bst, bt, c, cb, ok):  # noqa: ANN001, ANN202
    """``ok[j]`` = True when every float64 sum :func:`_fast16_rows` forms for column j of a row is exact and no
    f32 rounding overflows, proved from statistics: ``sa`` = sum |a| of the row and ``la`` the largest power of
    two dividing all its a (:func:`_lsb_table`), ``Bst[bt]`` the same per column of B (max |b|, power of two),
    ``c``/``cb`` the row's f32 accumulator values and bits.  Returns whether any column failed.

    Argument: every product a*b is a multiple of la*lb and every nonzero c of lc = 2^(emin-150) (emin = the
    smallest biased exponent among the row's nonzero c, at least 1), so with G = min(la*lb, lc) every term,
    every exact partial sum and, by induction, every f32-rounded accumulator is a multiple of G (an f32 rounding
    of a multiple of G is the value itself or a multiple of an ulp > G).  With G >= 2^-149 a multiple of G below
    2^-126 is an f32 subnormal, so roundings happen only in the normal range, with relative error at most
    2^-24: every magnitude is at most S (1 + 2^-24)^stages, S = |c| + sa*max|b|, and for at most 2^20 stages
    (:data:`_MAX_PROVED_STAGES`, checked by the caller) that is below 1.07 S, and below 1.125 S with S's own
    float64 rounding.  A multiple of G below 2^53 G is a float64, so when 1.125 S < 2^53 G every sum is exact,
    and when S < 2^125 no f32 rounding overflows: the TwoSum errors of :func:`_stages2` would all be zero and
    the unchecked loop gives the same bits.  An infinity or NaN anywhere makes a comparison false (not
    proved)."""
    N = c.shape[0]
    emin = 255
    for j in range(N):  # branch-free so that LLVM vectorises it
        e = (cb[j] >> 23) & 0xFF
        emin = min(emin, max(e, 1) if cb[j] & 0x7FFFFFFF != 0 else 255)
    lc = np.inf if emin == 255 else _POW2[emin]
    nbad = 0
    for j in range(N):
        s = abs(np.float64(c[j])) + sa * Bst[bt, 0, j]
        g = min(la * Bst[bt, 1, j], lc)
        good = (s < _EXACT_LIMIT * g) & (s < _TWO125) & (g >= _F32_TINY)
        ok[j] = good
        nbad += not good
    bad = nbad != 0
    return bad


@numba.njit(cache=True)
def _column_checked(arow, B, bt, j, c, depth, nsteps, t, limbs):  # noqa: ANN001, ANN202
    """One output element the checked way (same arithmetic as :func:`_stages2` + :func:`_redo_instruction`):
    each stage in float64 with TwoSum error terms; an instruction with any inexact sum is redone by the exact
    :func:`round_sum` from the accumulator before it."""
    acc = np.float64(c)
    for st in range(nsteps):
        k0 = st * 2 * depth
        before = acc
        errs = 0.0
        for s in range(depth):
            k = k0 + 2 * s
            p0 = arow[k] * B[bt, k, j]
            p1 = arow[k + 1] * B[bt, k + 1, j]
            x = p0 + p1
            bb = x - p0
            e1 = (p0 - (x - bb)) + (p1 - bb)
            y = acc + x
            cc = y - acc
            e2 = (acc - (y - cc)) + (x - cc)
            acc = np.float64(np.float32(y))
            errs += abs(e1) + abs(e2)
        if errs != 0.0:
            acc = before
            for s in range(depth):
                k = k0 + 2 * s
                t[0] = acc
                t[1] = arow[k] * B[bt, k, j]
                t[2] = arow[k + 1] * B[bt, k + 1, j]
                acc = round_sum(t, 3, 24, -126, 127, RNE, False, False, 0, limbs)
    return acc


@numba.njit(cache=True)
def _decode16_a(abits, firsts, ta, la_tab, A, Ast):  # noqa: ANN001, ANN202
    """16-bit A tiles -> float64 through the value table ``ta``: ``A[c]`` = tile ``firsts[c]`` of ``abits``
    (nb, M, K) decoded, and per row ``Ast[c, i, 0]`` = sum |a| and ``Ast[c, i, 1]`` = the largest power of two
    dividing every a (table ``la_tab``, :func:`_lsb_table`): the row statistics of :func:`_columns_exact`."""
    K = abits.shape[2]
    for c in range(firsts.shape[0]):
        x = firsts[c]
        for i in range(abits.shape[1]):
            sa = 0.0
            la = np.inf
            for k in range(K):
                code = abits[x, i, k]
                v = ta[code]
                A[c, i, k] = v
                sa += abs(v)
                la = min(la, la_tab[code])
            Ast[c, i, 0] = sa
            Ast[c, i, 1] = la


@numba.njit(cache=True, fastmath={"contract"})
def _fast16_rows(A, Ast, amap, B, Bst, Btile, bmap, C, cbits, out, depth, nsteps, lo, hi):  # noqa: ANN001, ANN202
    """The fast path of :func:`_row` for the common case (16-bit sources, no Src0 flushing, f32 Dst =
    accumulator format, the model's stage-by-stage RNE accumulation): rows ``lo..hi`` of ``nb x M``, each over
    all N columns at once (a loop LLVM vectorises).  A and B are decoded once per distinct tile
    (:func:`_decode16_a`, :func:`_decode16_rows`; :mod:`xesim.numerics.tile_classes`), matrix ``x`` of the batch
    using decoded A tile ``amap[x]`` (with its rows' statistics ``Ast``) and B tile ``bmap[x]``; C is float32
    with its bits ``cbits``.
    Columns that :func:`_columns_exact` proves exact run per stage ``acc = f32(acc + a0 b0 + a1 b1)`` without
    checks; the others are recomputed by :func:`_column_checked`.  Same bits as :func:`_row` (tested).  Returns
    the number of NaN results (only checked columns can hold one; the caller writes the model's NaN there).

    Speed (issue 32): A rows come decoded with their statistics (once per distinct A tile, not once per
    matrix of the batch); two rows of the same matrix go through their stages in one pass (each B value loaded once
    for both, and twice as many independent accumulator chains: one row alone is bound by the latency of its
    accumulator chain), and the function is compiled with LLVM's ``contract`` flag -- its only one, no other
    fast-math -- so a stage ``(acc + a0*b0) + a1*b1`` becomes two fused multiply-adds.  The same bits: every
    product of two 16-bit values is exact in float64 (at most 22 significant bits), and on a proved column every
    sum of a stage's terms in any grouping (``acc + p0`` as well as all three) is a multiple of G below 2^53 G
    (:func:`_columns_exact`'s argument bounds ``|acc| + |p0| + |p1|``), hence exact; a fused multiply-add rounds
    the exact ``a*b + c`` once, which is then exact too, and the float64 -> float32 conversion stays the one RNE
    rounding of the stage.  Unproved columns' values from these loops are discarded; everything else this
    function computes (the proof's statistics, :func:`_column_checked`) has no multiply-add to contract or is a
    separate function compiled without the flag."""
    N = B.shape[2]
    M = A.shape[1]
    accs = np.empty((2, N), np.float32)
    oks = np.empty((2, N), np.bool_)
    bads = np.zeros(2, np.bool_)
    t = np.zeros(4, np.float64)
    limbs = np.zeros(LIMBS, np.int64)
    kk = nsteps * 2 * depth
    nans = 0
    r = lo
    while r < hi:
        bt = r // M
        bm = bmap[bt]
        am = amap[bt]
        i0 = r % M
        g = 2 if i0 + 1 < M and r + 1 < hi else 1  # rows of one matrix share its B tile
        for q in range(g):
            i = i0 + q
            acc = accs[q]
            sa = Ast[am, i, 0]
            la = Ast[am, i, 1]
            crow = C[bt, i]
            emin = 255
            emax = 0
            for j in range(N):  # the accumulator row, and its exponent range for _row_exact_from in the same pass
                acc[j] = crow[j]
                u = cbits[bt, i, j] & 0x7FFFFFFF
                e = u >> 23
                emax = max(emax, e)
                emin = min(emin, max(e, 1) if u != 0 else 255)
            bads[q] = False
            if not _row_exact_from(sa, la, Btile[bm, 0], Btile[bm, 1], emin, emax):
                bads[q] = _columns_exact(sa, la, Bst, bm, crow, cbits[bt, i], oks[q])
        acc0 = accs[0]
        acc1 = accs[1]
        arow0 = A[am, i0]
        if g == 2:
            arow1 = A[am, i0 + 1]
            for k in range(0, kk, 2):
                a0 = arow0[k]
                a1 = arow0[k + 1]
                c0 = arow1[k]
                c1 = arow1[k + 1]
                b0 = B[bm, k]
                b1 = B[bm, k + 1]
                for j in range(N):
                    u = b0[j]
                    v = b1[j]
                    acc0[j] = np.float32((np.float64(acc0[j]) + a0 * u) + a1 * v)
                    acc1[j] = np.float32((np.float64(acc1[j]) + c0 * u) + c1 * v)
        else:
            for k in range(0, kk, 2):
                a0 = arow0[k]
                a1 = arow0[k + 1]
                b0 = B[bm, k]
                b1 = B[bm, k + 1]
                for j in range(N):
                    acc0[j] = np.float32((np.float64(acc0[j]) + a0 * b0[j]) + a1 * b1[j])
        for q in range(g):
            i = i0 + q
            acc = accs[q]
            if bads[q]:
                ok = oks[q]
                for j in range(N):
                    if not ok[j]:
                        v = _column_checked(A[am, i], B, bm, j, C[bt, i, j], depth, nsteps, t, limbs)
                        acc[j] = np.float32(v)
                        nans += v != v
            for j in range(N):
                out[bt, i, j] = acc[j]
        r += g
    return nans


@numba.njit(cache=True, parallel=True)
def _fast16_parallel(A, Ast, amap, B, Bst, Btile, bmap, C, cbits, out, depth, nsteps,  # noqa: ANN001, ANN202
                     threads, nchunks):
    """:func:`_fast16_rows` over every row, in ``nchunks`` row ranges handed out to ``threads`` threads one at a
    time (xesim/numerics/work_queue.py); the number of NaN results."""
    total = C.shape[0] * C.shape[1]
    counts = np.zeros(nchunks, np.int64)
    next_chunk = np.zeros(1, np.int64)
    for _ in numba.prange(threads):
        ch = claim(next_chunk, nchunks)
        while ch >= 0:
            counts[ch] = _fast16_rows(A, Ast, amap, B, Bst, Btile, bmap, C, cbits, out, depth, nsteps,
                                      ch * total // nchunks, (ch + 1) * total // nchunks)
            ch = claim(next_chunk, nchunks)
    return counts.sum()


@numba.njit(cache=True)
def _decode16(abits, bbits, ta, tb, A, Bp):  # noqa: ANN001, ANN202
    """16-bit A (nb, M, K) and B (nb, K, N) bit patterns -> float64 through the tables ``ta``/``tb``, B straight
    into column panels Bp (nb, N/W, K, W)."""
    nb, M, K = abits.shape
    N = bbits.shape[2]
    W = Bp.shape[3]
    for x in range(nb):
        for i in range(M):
            for k in range(K):
                A[x, i, k] = ta[abits[x, i, k]]
        for p in range(N // W):
            for k in range(K):
                for w in range(W):
                    Bp[x, p, k, w] = tb[bbits[x, k, p * W + w]]


@numba.njit(cache=True)
def _float_driver(abits, bbits, cbits, has_c, codes, cfg, enc, nan_pattern, W, out):  # noqa: ANN001, ANN202
    """Small tiles in one call: decode, serial kernel, encode (``codes`` = a, b, c codes, a/b flush, tf32 mode;
    ``enc`` = Dst p, emin, exponent bits, total bits)."""
    nb, M, K = abits.shape
    N = bbits.shape[2]
    A = np.empty((nb, M, K), np.float64)
    Bp = np.empty((nb, N // W, K, W), np.float64)
    C = np.empty((nb, M, N), np.float64)
    _decode_operands(abits, bbits, cbits, has_c, codes[0], codes[1], codes[2], codes[3] != 0, codes[4] != 0, codes[5],
                     A, Bp, C)
    res = np.empty((nb, M, N), np.float64)
    _float_kernel(A, Bp, C, res, cfg)
    _encode_out(res, enc[0], enc[1], enc[2], enc[3], nan_pattern, out)


def _float_cfg(model: DpasModel, ops: int, depth: int, nsteps: int, acc_type: str, dst_type: str) -> np.ndarray:
    cache = model._cache
    key = (ops, depth, nsteps, acc_type, dst_type)
    cfg = cache.get(key)
    if cfg is not None:
        return cfg
    acc_fmt = dst_type if model.acc_format == "dst" else "f32"
    ap, aemin, aemax = FORMAT_PARAMS[acc_fmt]
    dp, demin, demax = FORMAT_PARAMS[dst_type]
    group = {"stage": ops, "all": 0}.get(model.group, model.group)  # type: ignore[arg-type]
    rnd = ROUNDING_CODES[model.rounding]
    fast = (group == ops and ops in (1, 2) and model.align_bits == 0 and rnd == RNE and acc_fmt == "f32"
            and model.src0_order == "first" and model.stage_order == "forward" and not model.prod_round
            and not model.out_ftz)
    cfg = np.zeros(_NCFG, np.int64)
    cfg[[_OPS, _DEPTH, _NSTEPS, _GROUP, _SRC0_LAST, _REVERSE, _RND, _FINAL_RND]] = [
        ops, depth, nsteps, group, model.src0_order == "last", model.stage_order == "reverse", rnd,
        ROUNDING_CODES[model.final_rounding]]
    cfg[[_ACC_P, _ACC_EMIN, _ACC_EMAX, _DST_P, _DST_EMIN, _DST_EMAX, _C_EMIN, _DST_CONVERT]] = [
        ap, aemin, aemax, dp, demin, demax, FORMAT_PARAMS[acc_type][1], dst_type != acc_fmt]
    cfg[[_SRC0_FTZ, _OUT_FTZ, _FTZ_EXACT, _PROD_ROUND, _ALIGN, _FAST]] = [
        model.src0_ftz, model.out_ftz, model.out_ftz_test == "exact", model.prod_round, model.align_bits, fast]
    if len(cache) > 64:
        cache.clear()
    cache[key] = cfg
    return cfg


# --------------------------------------------------------------------------------------------------------------
# integer kernel

_WRAP, _SAT_STAGE, _SAT_FINAL = 0, 1, 2


@numba.njit(cache=True)
def _int_kernel(A, BT, C, out, ops, depth, nsteps, mode, lo, hi):  # noqa: ANN001, ANN202
    Bt, M, _ = A.shape
    N = BT.shape[1]
    kinst = ops * depth
    mask = (np.int64(1) << 32) - 1
    for bt in range(Bt):
        for i in range(M):
            for j in range(N):
                acc = C[bt, i, j]
                for st in range(nsteps):
                    k0 = st * kinst
                    if mode == _SAT_STAGE:
                        for s in range(depth):
                            d = np.int64(0)
                            for q in range(ops):
                                d += A[bt, i, k0 + s * ops + q] * BT[bt, j, k0 + s * ops + q]
                            acc = min(max(acc + d, lo), hi)
                    else:
                        d = np.int64(0)
                        for k in range(k0, k0 + kinst):
                            d += A[bt, i, k] * BT[bt, j, k]
                        acc = acc + d
                        if mode == _SAT_FINAL:
                            acc = min(max(acc, lo), hi)
                        else:
                            acc = acc & mask  # low 32 bits of the exact result
                out[bt, i, j] = acc


# --------------------------------------------------------------------------------------------------------------
# public API

def _prepare(a: Any, b: Any, c: Any, a_type: str, b_type: str, acc_type: str, dst_type: str, target: Any,
             instruction: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, tuple, int, int]:
    g = geometry(target)
    key = (a_type, b_type, acc_type, dst_type)
    ok = g.setdefault("checked", {})
    if key not in ok:
        _check_types(a_type, b_type, acc_type, dst_type, target)
        ok[key] = ops_per_channel(a_type, b_type, target)
    ops = ok[key]
    a = np.asarray(a)
    b = np.asarray(b)
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(f"DPAS: A and B must be matrices (A is M x K, B is K x N), got shapes {a.shape} and {b.shape}")
    M, K = a.shape[-2:]
    K2, N = b.shape[-2:]
    if K != K2:
        raise ValueError(f"DPAS: A is {M}x{K} but B is {K2}x{N}: the K dimensions differ")
    kinst = g["systolic_depth"] * ops
    where = f"target '{g['target']}'"
    if c is not None:
        c = np.asarray(c)
        if c.ndim < 2 or c.shape[-2:] != (M, N):
            raise ValueError(f"DPAS: C must be {M}x{N} (M x N), got shape {c.shape}")
        if c.dtype != ACC_TYPES[acc_type] and not (acc_type in ("s32", "u32") and c.dtype.kind in "iu"):
            raise ValueError(f"DPAS: C holds {acc_type} values and must be a {ACC_TYPES[acc_type]} array, got {c.dtype}")
    if M < 1 or N < 1 or K < 1:
        raise ValueError(f"DPAS: empty shape M={M} N={N} K={K}")
    if instruction:
        if M > g["max_repeat_count"]:
            raise ValueError(f"DPAS: M = {M} exceeds the maximum repeat count {g['max_repeat_count']} of {where} "
                             f"(spec/pvc-hardware.md §3.1)")
        if N != g["exec_size"]:
            raise ValueError(f"DPAS: N = {N} must equal the execution size {g['exec_size']} of {where} "
                             f"(spec/pvc-hardware.md §3.1)")
        if K != kinst:
            raise ValueError(f"DPAS: K = {K} must be systolic depth {g['systolic_depth']} x ops per channel {ops} = "
                             f"{kinst} for {a_type} x {b_type} (spec/pvc-hardware.md §3.1)")
    else:
        if N % g["exec_size"]:
            raise ValueError(f"DPAS: N = {N} is not a multiple of the execution size {g['exec_size']} of {where} "
                             f"(spec/pvc-hardware.md §3.1)")
        if K % kinst:
            raise ValueError(f"DPAS: K = {K} is not a multiple of systolic depth {g['systolic_depth']} x ops per "
                             f"channel {ops} = {kinst} for {a_type} x {b_type} (spec/pvc-hardware.md §3.1)")
    if a.ndim == 2 and b.ndim == 2 and (c is None or c.ndim == 2):
        batch: tuple = ()
    elif a.shape[:-2] == b.shape[:-2] and (c is None or c.shape[:-2] == a.shape[:-2]):
        batch = a.shape[:-2]  # the batched kernels' case: no broadcasting
    else:
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2], () if c is None else c.shape[:-2])
    return a, b, c, batch, ops, g["systolic_depth"]


def _batched(x: np.ndarray, batch: tuple, nb: int) -> np.ndarray:
    """``x[..., r, c]`` broadcast to ``batch`` and flattened to a contiguous (nb, r, c) array."""
    if x.ndim == 2 and not batch:
        return np.ascontiguousarray(x).reshape((1,) + x.shape)
    if x.shape[:-2] != batch:
        x = np.broadcast_to(x, batch + x.shape[-2:])
    return np.ascontiguousarray(x).reshape((nb,) + x.shape[-2:])


def _fast16_plan(codes: np.ndarray, cfg: np.ndarray, a_type: str, b_type: str, dst_type: str, ops: int,
                 nsteps: int) -> tuple | None:
    """What :func:`_fast16_call` needs for this configuration (A's and B's decode and lowest-bit tables, B's
    table key, the systolic depth), or None when the configuration is not the common one it covers: 16-bit
    sources, two ops per channel, the model's stage-by-stage RNE accumulation (``cfg[_FAST]``), no Src0 flushing,
    an f32 Dst, and few enough stages for the exactness proof (:data:`_MAX_PROVED_STAGES`)."""
    if (a_type == "tf32" or b_type == "tf32" or ops != 2 or not cfg[_FAST] or cfg[_SRC0_FTZ] or cfg[_DST_CONVERT]
            or dst_type != "f32" or nsteps * cfg[_DEPTH] > _MAX_PROVED_STAGES):
        return None
    akey, bkey = (int(codes[0]), bool(codes[3])), (int(codes[1]), bool(codes[4]))
    return (_decode_table(*akey), _lsb_table(*akey), _decode_table(*bkey), _lsb_table(*bkey), bkey,
            int(cfg[_DEPTH]))


def _bits3(x: np.ndarray, batch: tuple, nb: int, dtype: type, strided: bool = False) -> np.ndarray:
    """``x`` as a read-only (nb, rows, columns) array whose elements are reinterpreted as ``dtype``: contiguous
    (a copy when ``x`` is not), or with ``strided`` a view when each matrix is C-contiguous and the batch axis
    has any nonzero stride (a DPAS A operand extracted from a larger tile).  Only A takes views: each layout
    combination is one more numba compilation of the row kernel (about 1.2 s on a first run)."""
    if x.shape[:-2] != batch or not (x.flags.c_contiguous or strided and _matrices_contiguous(x)):
        x = _batched(x, batch, nb)
    v = x.view(dtype).reshape(nb, x.shape[-2], x.shape[-1])
    v.flags.writeable = False
    return v


def _matrices_contiguous(x: np.ndarray) -> bool:
    """Whether every ``x[i, :, :]`` matrix of a 3-D ``x`` is laid out C-contiguously and distinct (batch stride
    not 0: a broadcast is copied, so it adds no layout for numba to compile)."""
    return x.ndim == 3 and x.strides[0] != 0 and (x.shape[-1] == 1 or x.strides[-1] == x.itemsize) and \
        (x.shape[-2] == 1 or x.strides[-2] == x.shape[-1] * x.itemsize)


def _fast16_call(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, acc_type: str, batch: tuple, nb: int,
                 nsteps: int, plan: tuple, nan_pattern: int, b_token: object,
                 b_classes: np.ndarray | None = None) -> np.ndarray:
    """The common configuration (:func:`_fast16_plan`) for large 16-bit operands: the row-wise kernel with the
    exactness proof (:func:`_fast16_rows`), A and B decoded through 65536-entry tables (the same
    :func:`_decode_value`, evaluated once per bit pattern), B into column panels.  C is read as float32: an
    f16/bf16 C is an f32 value exactly, and an f32 C's NaN payload never reaches Dst (spec/dpas-numerics.md
    §5.13).  ``b_classes``: B is given as its distinct tiles ``(classes, K, N)``, matrix ``x`` of the batch
    using tile ``b_classes[x]`` (:meth:`DpasCall.__call__`).  Returns D as float32 ``batch + (M, N)``."""
    ta, la, tb, lb, bkey, depth = plan
    abits = _bits3(a, batch, nb, np.uint16, strided=True)
    if b_classes is None:
        bbits = _bits3(b, batch, nb, np.uint16)
    else:
        bbits = _bits3(b, b.shape[:1], b.shape[0], np.uint16)
    _, M, K = abits.shape
    N = bbits.shape[2]
    if c is None:
        C32 = np.zeros((nb, M, N), np.float32)
    elif acc_type == "f32":
        C32 = _bits3(c, batch, nb, np.float32)
    else:
        C32 = _decode_table(_FLOAT_CODES[acc_type], False)[_bits3(c, batch, nb, np.uint16)].astype(np.float32)
    C32.flags.writeable = False
    if not FAST16_TIER.compiled(nb * M * N * K):  # a small call on a fresh install: no compilation
        return dpas_twin.fast16(abits, bbits, b_classes, C32, ta, tb, depth, nsteps, nan_pattern).reshape(batch + (M, N))
    work = nb * M * N * nsteps
    threads = numba.get_num_threads() if work >= _PARALLEL_MIN_WORK else 1
    decoded = _reused_b(b_token, (bkey, bbits.shape))
    if decoded is None:
        decoded = _decode_b_classes(bbits, tb, lb, threads, b_classes)
        _remember_b(b_token, (bkey, bbits.shape), decoded)
    B, Bst, Btile, bmap = decoded
    # A once per distinct tile too: a GEMM batch shares each A tile among its N-dimension tiles (16 subgroups
    # per A tile in the SG-level 4096^3 GEMM's batches); a strided A (a view) is decoded tile by tile
    amap, afirsts = tile_classes(abits) if abits.flags.c_contiguous else (None, None)
    if afirsts is None:  # every tile its own class
        afirsts = _ARANGE[:nb] if nb <= len(_ARANGE) else _readonly(np.arange(nb))
        amap = afirsts
    else:
        afirsts.flags.writeable = False  # read-only like the class maps: one numba specialisation
    A = np.empty((len(afirsts), M, K), np.float64)
    Ast = np.empty((len(afirsts), M, 2), np.float64)
    _decode16_a(abits, afirsts, ta, la, A, Ast)
    out = np.empty((nb, M, N), np.float32)  # every result is an f32 value: written as float32, NaN patterns after
    args = (A, Ast, amap, B, Bst, Btile, bmap, C32, C32.view(np.uint32), out, depth, nsteps)
    if threads > 1:
        # more chunks than threads, handed out one at a time: a thread slowed down (a busy core) takes fewer of
        # them instead of holding the whole call up
        nans = _fast16_parallel(*args, threads, chunk_count(threads, nb * M))
    else:
        nans = _fast16_rows(*args, 0, nb * M)
    if nans:  # only checked columns can be NaN (proved ones have finite operands and no overflow)
        out.view(np.uint32)[np.isnan(out)] = nan_pattern
    return out.reshape(batch + (M, N))


#: which form of the fast configuration runs a call (:mod:`xesim.numerics.tiers`): the compiled row kernel or its
#: uncompiled twin (:func:`xesim.numerics.dpas_twin.fast16`).  Work unit: one multiply-add (nb x M x N x K).
#: tools/bench_tiers.py measured the twin's seconds per call and per multiply-add, and the compilation of the row
#: kernel, its exact fallback and the B decoding on a fresh install (and their loading from numba's cache)
FAST16_TIER = tiers.Family("dpas-f16", per_call_s=1e-4, per_unit_s=1.5e-8, compile_s=10.0, load_s=0.5,
                           dispatchers=lambda: (_fast16_rows, _decode16_rows, _decode16_a))


def _decode_b_classes(bbits: np.ndarray, tb: np.ndarray, lb: np.ndarray, threads: int,
                      classes: np.ndarray | None = None) -> tuple:
    """B's 16-bit tiles ``bbits`` (nb, K, N) decoded once per distinct tile (:mod:`xesim.numerics.tile_classes`):
    ``(B, Bst, Btile, bmap)`` as :func:`_decode16_rows` fills them for the distinct tiles, and ``bmap[x]`` the
    decoded tile of matrix ``x``.  With ``classes`` (read-only int64) the caller has grouped them already:
    ``bbits`` holds one tile per class, matrix ``x`` uses tile ``classes[x]``."""
    if classes is not None:
        bmap, firsts = classes, None
    else:
        bmap, firsts = tile_classes(bbits)
    if firsts is not None:
        bbits = bbits[firsts]
        bbits.flags.writeable = False  # the read-only specialisation the kernels are compiled for
    nu, K, N = bbits.shape
    B = np.empty((nu, K, N), np.float64)
    Bst = np.empty((nu, 2, N), np.float64)
    Btile = np.empty((nu, 2), np.float64)
    if threads > 1 and nu > 1:
        _decode16_rows_parallel(bbits, tb, lb, B, Bst, Btile, threads, chunk_count(threads, nu))
    else:
        _decode16_rows(bbits, tb, lb, B, Bst, Btile)
    return B, Bst, Btile, bmap


def _float_prepared(model: DpasModel, a_type: str, b_type: str, acc_type: str, dst_type: str, ops: int, depth: int,
                    nsteps: int) -> tuple:
    """The per-configuration constants of a float DPAS (kept in the model's cache): operand codes, the kernel
    configuration, the Dst encoding, the model's NaN pattern and the fast configuration's plan (or None)."""
    key = ("call", a_type, b_type, acc_type, dst_type, ops, depth, nsteps)
    prepared = model._cache.get(key)
    if prepared is None:
        ftz = {"f16": model.in_ftz_f16, "bf16": model.in_ftz_bf16, "tf32": model.in_ftz_tf32}
        codes = np.array([_FLOAT_CODES[a_type], _FLOAT_CODES[b_type], _FLOAT_CODES[acc_type], ftz[a_type],
                          ftz[b_type], _TF32_MODES[model.tf32_in]], np.int64)
        cfg = _float_cfg(model, ops, depth, nsteps, acc_type, dst_type)
        prepared = (codes, cfg, np.array(_ENCODING[dst_type], np.int64), _nan_pattern(model, dst_type),
                    _fast16_plan(codes, cfg, a_type, b_type, dst_type, ops, nsteps))
        if len(model._cache) > 256:
            model._cache.clear()
        model._cache[key] = prepared
    return prepared


def _compute(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, a_type: str, b_type: str, acc_type: str,
             dst_type: str, model: DpasModel, batch: tuple, ops: int, depth: int,
             b_token: object = None) -> np.ndarray:
    M, K = a.shape[-2:]
    N = b.shape[-1]
    nb = math.prod(batch) if batch else 1
    nsteps = K // (ops * depth)
    if a_type in INT_SOURCE_TYPES:
        A = _batched(_decode_int(a, a_type, "A"), batch, nb)
        BT = np.ascontiguousarray(np.swapaxes(_batched(_decode_int(b, b_type, "B"), batch, nb), 1, 2))
        C = np.zeros((nb, M, N), np.int64) if c is None else _batched(c.astype(np.int64), batch, nb)
        lo, hi = (-(1 << 31), (1 << 31) - 1) if dst_type == "s32" else (0, (1 << 32) - 1)
        mode = {"wrap": _WRAP, "saturate_stage": _SAT_STAGE, "saturate_final": _SAT_FINAL}[model.int_overflow]
        out = np.empty((nb, M, N), np.int64)
        _int_kernel(A, BT, C, out, ops, depth, nsteps, mode, lo, hi)
        res = (out & 0xFFFFFFFF).astype(np.uint32)
        res = res.view(np.int32) if dst_type == "s32" else res
        return res.reshape(batch + (M, N))
    for role, x, t in (("A", a, a_type), ("B", b, b_type)):
        if x.dtype != FLOAT_SOURCE_TYPES[t]:
            raise ValueError(f"DPAS: {role} holds {t} values and must be a {FLOAT_SOURCE_TYPES[t]} array, got {x.dtype}")
    codes, cfg, enc, nan_pattern, fast = _float_prepared(model, a_type, b_type, acc_type, dst_type, ops, depth,
                                                         nsteps)
    if fast is not None and nb * M * N * nsteps >= _FAST_MIN_WORK:
        return _fast16_call(a, b, c, acc_type, batch, nb, nsteps, fast, nan_pattern, b_token)
    abits = _readonly(_batched(a, batch, nb).view(np.uint32 if a_type == "tf32" else np.uint16))
    bbits = _readonly(_batched(b, batch, nb).view(np.uint32 if b_type == "tf32" else np.uint16))
    cbits = _NO_C if c is None else _readonly(_batched(c, batch, nb).view(np.uint32 if acc_type == "f32" else np.uint16))
    W = math.gcd(N, 16)  # column panel width (any width gives the same values: columns are independent)
    out = np.empty((nb, M, N), np.uint32 if dst_type == "f32" else np.uint16)
    work = nb * M * N * nsteps
    if work >= _TABLE_MIN_WORK and a_type != "tf32" and b_type != "tf32":
        # large 16-bit operands in a configuration other than _fast16_call's: decode through 65536-entry tables
        # (the same _decode_value, evaluated once per bit pattern), B straight into column panels; f32 C / Dst
        # widen and narrow exactly in numpy
        akey, bkey = (int(codes[0]), bool(codes[3])), (int(codes[1]), bool(codes[4]))
        if c is None:
            C = np.zeros((nb, M, N), np.float32)
        elif acc_type == "f32":
            C = cbits.view(np.float32)  # widened exactly where read; a NaN's payload never reaches Dst (§5.13)
        else:
            C = _decode_table(int(codes[2]), False)[cbits]
        A = np.empty((nb, M, K), np.float64)
        Bp = np.empty((nb, N // W, K, W), np.float64)
        _decode16(abits, bbits, _decode_table(*akey), _decode_table(*bkey), A, Bp)
        C = C.astype(np.float64, copy=False)
        res = np.empty((nb, M, N), np.float64)
        _run_float_kernel(A, Bp, C, res, cfg, work)
        r32 = res.astype(np.float32) if dst_type == "f32" else None
        if r32 is not None and (r32 == res).all():  # only f32 values (no NaN): exact narrowing
            out[...] = r32.view(np.uint32)
        else:
            _encode_out(res, enc[0], enc[1], enc[2], enc[3], nan_pattern, out)
    elif work >= _PARALLEL_MIN_WORK and numba.get_num_threads() > 1:
        A = np.empty((nb, M, K), np.float64)
        Bp = np.empty((nb, N // W, K, W), np.float64)
        C = np.empty((nb, M, N), np.float64)
        _decode_operands(abits, bbits, cbits, c is not None, codes[0], codes[1], codes[2], bool(codes[3]),
                         bool(codes[4]), codes[5], A, Bp, C)
        res = np.empty((nb, M, N), np.float64)
        _run_float_kernel(A, Bp, C, res, cfg, work)
        _encode_out(res, enc[0], enc[1], enc[2], enc[3], nan_pattern, out)
    else:
        _float_driver(abits, bbits, cbits, c is not None, codes, cfg, enc, nan_pattern, W, out)
    return out.view(ACC_TYPES[dst_type]).reshape(batch + (M, N))


#: the decoded B of the last calls that named their B value (``b_token``), newest last: (weak reference to the
#: token, key, (B, Bst, Btile)); the kernels only read the decoded arrays, so a later call with the same token reuses
#: them.  An entry goes when its token does (the B value is dead: a loop step made the next one), so a kernel whose
#: every step loads a new B keeps one decoding alive instead of _RECENT_B_MAX: a smaller working set, which is what a
#: freshly forked worker process pays for page by page (copy-on-write; xesim/exec/parallel.py)
_RECENT_B: list = []
_RECENT_B_MAX = 4  # a kernel step's DPAS ops take turns among a few B fragments


def _reused_b(token: object, key: tuple) -> tuple | None:
    if token is not None:
        for ref, k, decoded in _RECENT_B:
            if ref() is token and k == key:
                return decoded
    return None


def _remember_b(token: object, key: tuple, decoded: tuple) -> None:
    if token is None:
        return
    try:
        ref = weakref.ref(token, _drop_dead_b)
    except TypeError:  # a token that cannot be referenced weakly: its decoding is not kept
        return
    _RECENT_B.append((ref, key, decoded))
    del _RECENT_B[:-_RECENT_B_MAX]


def _drop_dead_b(ref: weakref.ref) -> None:
    """The token of ``ref`` is gone: its decoding is released."""
    _RECENT_B[:] = [entry for entry in _RECENT_B if entry[0] is not ref]


def forget_reused_b() -> None:
    """Drop the decoded B kept for ``b_token`` reuse (:func:`dpas`), e.g. at the end of a kernel launch."""
    _RECENT_B.clear()


#: 0, 1, 2, ...: the class map of a batch whose tiles are all distinct (read-only: one numba specialisation)
_ARANGE = np.arange(4096, dtype=np.int64)
_ARANGE.flags.writeable = False

_NO_C = np.zeros((1, 1, 1), np.uint16)
_NO_C.flags.writeable = False


def _readonly(x: np.ndarray) -> np.ndarray:
    """A read-only view: numba compiles (and loads from its cache) one specialisation per argument
    writeability, so operands are always passed read-only (one load per process instead of two)."""
    if x.flags.writeable:
        x = x.view()
        x.flags.writeable = False
    return x
#: output elements x K steps from which 16-bit operands of a configuration other than the fast one are decoded
#: through 65536-entry tables (built once per operand type, about 4 ms) instead of element by element.
#: tools/bench_dpas_sizes.py, 8x16x16 tiles of f16 with f16 C: 14 against 16 us per instance at 4 instances (work
#: 512), 8.5 against 15 at 256, but 46 against 30 us for a single tile
_TABLE_MIN_WORK = 1 << 9
#: the same for the fast configuration (:func:`_fast16_call`): every size.  bf16 with f32 C: 24 against 39 us for
#: a single tile, 7 against 21 us per instance at 4, 1.9 against 17 at 64.  A program whose DPAS ops all have the
#: fast configuration also never compiles the per-element kernel (``_float_driver``), about 15 s of numba
#: compilation on the first run
_FAST_MIN_WORK = 0
_TABLES: dict[tuple[int, bool], np.ndarray] = {}
_LSB_TABLES: dict[tuple[int, bool], np.ndarray] = {}


def _decode_table(code: int, ftz: bool) -> np.ndarray:
    """float64 value of every f16 / bf16 bit pattern under the operand treatment: the values of
    :func:`_decode_value`, bit for bit (tested), computed with numpy (exact widening; subnormals to a zero of their
    sign when ``ftz``; NaN as the sign's default quiet NaN) so that a first run does not compile the decoder."""
    t = _TABLES.get((code, ftz))
    if t is None:
        bits = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
        with np.errstate(invalid="ignore"):  # NaN patterns widen to NaN
            t = bits.view(np.float16 if code == _F16 else ml_dtypes.bfloat16).astype(np.float64)
        neg = (bits >> 15) != 0
        if ftz:
            t[(t != 0.0) & (np.abs(t) < (2.0**-14 if code == _F16 else 2.0**-126))] = 0.0
            t = np.where(t == 0.0, np.where(neg, -0.0, 0.0), t)
        nan = np.isnan(t)
        t[nan] = np.where(neg[nan], -math.nan, math.nan)
        _TABLES[(code, ftz)] = t
    return t


def _lsb_table(code: int, ftz: bool) -> np.ndarray:
    """For every f16 / bf16 bit pattern: the largest power of two dividing its decoded value (the weight of the
    lowest set significand bit), +inf for zero, 0.0 for infinities and NaN (:func:`_row_sums_exact`)."""
    t = _LSB_TABLES.get((code, ftz))
    if t is None:
        v = np.abs(_decode_table(code, ftz))
        t = np.zeros(1 << 16, np.float64)
        fin = np.isfinite(v) & (v != 0.0)
        m, e = np.frexp(v[fin])
        n = (m * 2.0**53).astype(np.int64)
        t[fin] = np.ldexp((n & -n).astype(np.float64), e - 53)
        t[v == 0.0] = np.inf
        _LSB_TABLES[(code, ftz)] = t
    return t


def _nan_pattern(model: DpasModel, dst_type: str) -> int:
    """The model's NaN (§5.13, an f32 pattern) in the Dst format (sign and top payload bits kept, quiet)."""
    key = ("nan", dst_type)
    pat = model._cache.get(key)
    if pat is None:
        nan32 = np.array([model.nan_bits], np.uint32).view(np.float32)
        pat = model.nan_bits if dst_type == "f32" else int(round_float(nan32, dst_type).view(np.uint16)[0])
        model._cache[key] = pat
    return pat


def dpas(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, a_type: str, b_type: str, acc_type: str,
         dst_type: str, model: DpasModel, target: Any, *, b_token: object = None) -> np.ndarray:
    """``D = C + A x B`` for an M x K by K x N tile as the sequence of hardware DPAS instructions (module
    docstring): K blocks in increasing order, each Dst the next Src0.  ``a``/``b`` hold values in their own
    dtype (float16, ml_dtypes.bfloat16, float32 containers for tf32, integer arrays for s8/u8/s4/u4/s2/u2),
    ``c`` (or None = +0) in the acc dtype; returns the Dst dtype (float32, float16, bfloat16, int32, uint32).
    Leading batch axes broadcast.  Raises ValueError naming the rule for an illegal type combination or shape.

    ``b_token``: an object the caller passes with ``b`` and never with other values of ``b`` (weakly referenced,
    compared by identity): a call with the token of one of the last few calls reuses that call's decoding of B
    (the DPAS ops of one kernel step sharing B fragments, :mod:`xesim.exec.batch`), released when the token goes;
    a token without weak references is not remembered.  Same values either way."""
    a, b, c, batch, ops, depth = _prepare(a, b, c, a_type, b_type, acc_type, dst_type, target, False)
    return _compute(a, b, c, a_type, b_type, acc_type, dst_type, model, batch, ops, depth, b_token)


class DpasCall:
    """:func:`dpas` for one op: fixed types, model and target, called again and again with operands of the same
    shapes (a kernel step of a batch).  The first call with an operand signature (shapes and dtypes) is a plain
    :func:`dpas` call, which checks everything; later calls with that signature go straight to the fast
    configuration's kernel when it applies (:func:`_fast16_call`), else to :func:`dpas`.  Same results as
    :func:`dpas` either way (tested)."""

    def __init__(self, a_type: str, b_type: str, acc_type: str, dst_type: str, model: DpasModel,
                 target: Any) -> None:
        self.types = (a_type, b_type, acc_type, dst_type)
        self.model, self.target = model, target
        self.plans: dict[tuple, tuple | None] = {}  # operand signature -> fast plan, None when it does not apply

    def __call__(self, a: np.ndarray, b: np.ndarray, c: np.ndarray | None, *,
                 b_token: object = None, b_classes: np.ndarray | None = None) -> np.ndarray:
        """``b_classes`` (read-only int64 ``[n]``, with a batch of ``n`` 3-D operands): ``b`` holds distinct B
        tiles ``(classes, K, N)`` and matrix ``x`` uses ``b[b_classes[x]]`` -- B as the caller grouped it
        (:mod:`xesim.numerics.tile_classes`); the fast configuration's kernel reads it so, every other path gets
        the full ``b[b_classes]``."""
        a, b = np.asarray(a), np.asarray(b)
        c = None if c is None else np.asarray(c)
        b_shape = b.shape if b_classes is None else (len(b_classes),) + b.shape[1:]
        sig = (a.shape, a.dtype, b_shape, b.dtype, None if c is None else (c.shape, c.dtype))
        plan = self.plans.get(sig)
        if plan is not None and plan[1] * plan[2] >= _FAST_MIN_WORK:
            batch, nb, work, nsteps, fast, nan_pattern = plan
            return _fast16_call(a, b, c, self.types[2], batch, nb, nsteps, fast, nan_pattern, b_token, b_classes)
        if b_classes is not None:
            b = b[b_classes]
        if sig in self.plans:
            return dpas(a, b, c, *self.types, self.model, self.target, b_token=b_token)
        d = dpas(a, b, c, *self.types, self.model, self.target, b_token=b_token)  # checks the operands
        self.plans[sig] = self._plan(a, b, c)
        return d

    def _plan(self, a: np.ndarray, b: np.ndarray, c: np.ndarray | None) -> tuple | None:
        a_type, b_type, acc_type, dst_type = self.types
        if a_type in INT_SOURCE_TYPES:
            return None
        _, _, _, batch, ops, depth = _prepare(a, b, c, a_type, b_type, acc_type, dst_type, self.target, False)
        M, K = a.shape[-2:]
        N = b.shape[-1]
        nsteps = K // (ops * depth)
        _, _, _, nan_pattern, fast = _float_prepared(self.model, a_type, b_type, acc_type, dst_type, ops, depth,
                                                     nsteps)
        if fast is None:
            return None
        nb = math.prod(batch) if batch else 1
        return batch, nb, M * N * nsteps, nsteps, fast, nan_pattern


def dpas_instruction(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, a_type: str, b_type: str,
                     acc_type: str, dst_type: str, model: DpasModel, target: Any) -> np.ndarray:
    """One hardware DPAS instruction: ``a`` is M x K with M <= max repeat count, ``b`` K x exec_size,
    K = systolic depth x ops per channel; conventions as :func:`dpas`."""
    a, b, c, batch, ops, depth = _prepare(a, b, c, a_type, b_type, acc_type, dst_type, target, True)
    return _compute(a, b, c, a_type, b_type, acc_type, dst_type, model, batch, ops, depth)
