"""Compiled kernels of the IMEX host reference utilities (``gemm*`` of :mod:`xesim.runtime.utils_imex`).

**Accumulation order** (spec/programs-and-runner.md §2, ``gemmF16F16F32``: "loops i, k, j with
``c[i][j] += a[i][k]*b[k][j]`` in float32 (each product rounded to f32, then added; loop order i-k-j, C initial
value included)").  Every element of C therefore sees exactly the sequence ::

    c ← fp32(c + fp32(a[i][k] · b[k][j]))      for k = 0, 1, …, K−1 in increasing order

starting from C's own value, and nothing else: no FMA contraction (the product is rounded before the add), no
reassociation, no wider accumulator.  Elements are independent of each other, so any order of the (i, j) work and
any split of it between threads gives the same bits, *as long as each element's k loop runs in increasing order*.

:func:`gemm_f32_blocked` uses that freedom and only that freedom, in the usual register-blocked shape:

* k is cut into panels of :data:`KC` values, taken in increasing order.  For each panel, B's ``KC × N`` piece is
  copied once into strips of :data:`NR` columns, each strip contiguous (``[k][NR]``, zero-padded past N);
* rows of C are cut into blocks of :data:`MC` rows, handed one at a time (:mod:`xesim.numerics.work_queue`)
  to the caller's thread and ``threads − 1`` Python threads (the compiled functions release the GIL); never k.
  A thread copies its block's ``MC × KC`` piece of A into strips of :data:`MR` rows (``[k][MR]``, zero-padded
  past M);
* the micro-kernel :func:`_tile` keeps an ``MR × NR`` tile of C in :data:`MR` · :data:`NV` SIMD registers for the
  whole panel: it loads the tile, then for each k in increasing order loads :data:`NV` vectors of the B strip,
  broadcasts each of the MR values of A and does one vector multiply (rounded) and one vector add (rounded) per
  register, and finally stores the tile.  Storing and reloading f32 between panels changes no bit;
* tiles cut by the edge of C (fewer than MR rows or NR columns) go through a padded ``MR × NR`` scratch tile; the
  padding lanes compute values that are thrown away.

The micro-kernel is written as LLVM IR (a numba ``intrinsic``) so that the registers are explicit; its ``fmul``
and ``fadd`` carry no fast-math flags, so LLVM may neither contract them into an FMA nor reorder them (checked:
no ``vfmadd`` in the generated code, and tests/unit/test_reference_kernels.py checks both that and results
that an FMA would change).  :data:`VECTOR` = 8 f32 lanes is one AVX2 register; the 6 × 16 tile uses 12 of the 16 AVX2 registers
for C (BLIS's shape for this register file).  On a machine with narrower vectors LLVM splits the vectors,
which is slower but gives the same bits.

NaN results: when *both* operands of an addition are NaN, x86 returns the first operand's, and LLVM orders the
operands of a commutative add as it likes (in this kernel as in any compiled loop, IMEX's C++ included); IEEE 754
§6.2.3 leaves the choice open.  So a NaN result is NaN exactly where the sequential loop gives NaN, and every
other result is bit-identical; with one NaN value in play (e.g. only x86's default NaN, which ``inf − inf``
gives), NaNs are bit-identical too.

Numba specialisations: one of each compiled function (:func:`_pack_b`, :func:`_panel`; the others are inlined
into :func:`_panel`), for C-contiguous float32 2-D arrays (the caller converts, exactly, from f16 / bf16).
Measured on the 2-core machine of docs/performance.md: ``python tools/bench_refgemm.py`` (the kernel alone) and
``python tools/bench.py --only ref-gemm`` (the utility in a program).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from typing import Any

import numba
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from xesim.numerics.work_queue import claim

#: f32 lanes per SIMD vector of the micro-kernel (one AVX2 register)
VECTOR = 8
#: vectors per row of the micro-kernel's tile
NV = 2
#: rows of C in the micro-kernel's tile
MR = 6
#: columns of C in the micro-kernel's tile
NR = NV * VECTOR
#: values of k per panel (a strip of B: KC × NR f32 = 16 KiB, in L1; a block of A: MC × KC f32 = 96 KiB, in L2)
KC = 256
#: rows of C per unit of work handed to a thread (a multiple of MR)
MC = 16 * MR


@intrinsic
def _tile(typingctx: Any, a_strip: Any, b_strip: Any, c: Any, start: Any, ldc: Any, kc: Any) -> Any:
    """``c`` (flat f32) at ``c[start + r·ldc + j]``, ``r < MR``, ``j < NR``: the tile ← tile + A·B over ``kc`` ≥ 1
    values of k in increasing order, each step ``fp32(c + fp32(a·b))`` per element.  ``a_strip``: f32 ``[KC][MR]``
    (``a_strip[k, r]`` = A[row r, k]); ``b_strip``: f32 ``[KC][NR]`` (``b_strip[k, j]`` = B[k, column j])."""
    if not all(isinstance(t, types.Array) and t.dtype == types.float32 and t.layout == "C"
               for t in (a_strip, b_strip, c)) or c.ndim != 1:
        return None
    sig = types.void(a_strip, b_strip, c, start, ldc, kc)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        f32, i32, i64 = ir.FloatType(), ir.IntType(32), ir.IntType(64)
        vec = ir.VectorType(f32, VECTOR)
        vptr = vec.as_pointer()
        ap, bp, cp = (context.make_array(t)(context, builder, v).data for t, v in zip(signature.args[:3], args[:3]))
        start_, ldc_, kc_ = (context.cast(builder, v, t, types.intp) for t, v in zip(signature.args[3:], args[3:]))

        def c_vector(r: int, v: int) -> Any:
            off = builder.add(start_, builder.add(builder.mul(ldc_, i64(r)), i64(v * VECTOR)))
            return builder.bitcast(builder.gep(cp, [off]), vptr)

        first = [[builder.load(c_vector(r, v), align=4) for v in range(NV)] for r in range(MR)]
        entry = builder.basic_block
        body = builder.append_basic_block("tile_k")
        done = builder.append_basic_block("tile_done")
        builder.branch(body)
        builder.position_at_end(body)
        k = builder.phi(i64)
        acc = [[builder.phi(vec) for _ in range(NV)] for _ in range(MR)]
        bk = [builder.load(builder.bitcast(builder.gep(bp, [builder.add(builder.mul(k, i64(NR)), i64(v * VECTOR))]),
                                           vptr), align=4) for v in range(NV)]
        splat = ir.Constant(ir.VectorType(i32, VECTOR), [0] * VECTOR)
        new = []
        for r in range(MR):
            a = builder.load(builder.gep(ap, [builder.add(builder.mul(k, i64(MR)), i64(r))]), align=4)
            a = builder.shuffle_vector(builder.insert_element(ir.Constant(vec, ir.Undefined), a, i32(0)),
                                       ir.Constant(vec, ir.Undefined), splat)
            new.append([builder.fadd(builder.fmul(a, bk[v]), acc[r][v]) for v in range(NV)])  # no fast-math flags
        k_next = builder.add(k, i64(1))
        k.add_incoming(i64(0), entry)
        k.add_incoming(k_next, body)
        for r in range(MR):
            for v in range(NV):
                acc[r][v].add_incoming(first[r][v], entry)
                acc[r][v].add_incoming(new[r][v], body)
        builder.cbranch(builder.icmp_signed("<", k_next, kc_), body, done)
        builder.position_at_end(done)
        for r in range(MR):
            for v in range(NV):
                builder.store(new[r][v], c_vector(r, v), align=4)
        return context.get_dummy_value()

    return sig, codegen


@numba.njit(cache=True, nogil=True)
def _pack_b(b: Any, b_packed: Any, k0: int, kc: int) -> None:  # pragma: no cover - compiled
    """Rows ``k0 .. k0+kc-1`` of B into ``b_packed[strip, k, j]`` = B[k0 + k, strip·NR + j] (0 past N)."""
    N = b.shape[1]
    for s in range(b_packed.shape[0]):
        j0 = s * NR
        w = min(NR, N - j0)
        for k in range(kc):
            for j in range(w):
                b_packed[s, k, j] = b[k0 + k, j0 + j]
            for j in range(w, NR):
                b_packed[s, k, j] = 0.0


@numba.njit(inline="always")
def _pack_a(a: Any, a_packed: Any, i0: int, rows: int, k0: int, kc: int) -> None:  # pragma: no cover - compiled
    """Rows ``i0 .. i0+rows-1``, columns ``k0 .. k0+kc-1`` of A into ``a_packed[strip, k, r]`` =
    A[i0 + strip·MR + r, k0 + k] (0 past the block's rows)."""
    for s in range((rows + MR - 1) // MR):
        r0 = i0 + s * MR
        h = min(MR, i0 + rows - r0)
        for k in range(kc):
            for r in range(h):
                a_packed[s, k, r] = a[r0 + r, k0 + k]
            for r in range(h, MR):
                a_packed[s, k, r] = 0.0


@numba.njit(inline="always")
def _block(a_packed: Any, b_packed: Any, c: Any, i0: int, rows: int, kc: int, scratch: Any) -> None:  # pragma: no cover
    """Rows ``i0 .. i0+rows-1`` of C += this panel's A block (packed) · B panel (packed), tile by tile."""
    N = c.shape[1]
    flat = c.reshape(-1)
    for s in range(b_packed.shape[0]):
        j0 = s * NR
        w = min(NR, N - j0)
        b_strip = b_packed[s]
        for t in range((rows + MR - 1) // MR):
            r0 = i0 + t * MR
            h = min(MR, i0 + rows - r0)
            if h == MR and w == NR:
                _tile(a_packed[t], b_strip, flat, r0 * N + j0, N, kc)
            else:
                for r in range(h):
                    for j in range(w):
                        scratch[r * NR + j] = c[r0 + r, j0 + j]
                _tile(a_packed[t], b_strip, scratch, 0, NR, kc)
                for r in range(h):
                    for j in range(w):
                        c[r0 + r, j0 + j] = scratch[r * NR + j]


@numba.njit(cache=True, nogil=True)
def _panel(a: Any, b_packed: Any, c: Any, k0: int, kc: int, next_block: Any, a_packed: Any,
           scratch: Any) -> None:  # pragma: no cover - compiled
    """One thread's share of the k panel ``k0 .. k0+kc-1``: blocks of MC rows claimed from ``next_block`` until
    none is left, each one's A piece packed into ``a_packed`` (this thread's) and multiplied into C."""
    M = a.shape[0]
    nblocks = (M + MC - 1) // MC
    ch = claim(next_block, nblocks)
    while ch >= 0:
        i0 = ch * MC
        rows = min(MC, M - i0)
        _pack_a(a, a_packed, i0, rows, k0, kc)
        _block(a_packed, b_packed, c, i0, rows, kc, scratch)
        ch = claim(next_block, nblocks)


def _gemm_threads(a: np.ndarray, b: np.ndarray, c: np.ndarray, threads: int) -> None:
    """``c += a·b`` in place on ``threads`` threads (the caller's and ``threads − 1`` more): k panels one after
    the other, each panel's row blocks shared dynamically; the compiled functions release the GIL."""
    M, K = a.shape
    N = b.shape[1]
    b_packed = np.empty(((N + NR - 1) // NR, KC, NR), np.float32)
    work = [(np.empty((MC // MR, KC, MR), np.float32), np.empty(MR * NR, np.float32)) for _ in range(threads)]
    with ThreadPoolExecutor(threads - 1) if threads > 1 else nullcontext() as pool:
        for k0 in range(0, K, KC):  # panels in increasing k: each element's k order is kept across panels
            kc = min(KC, K - k0)
            _pack_b(b, b_packed, k0, kc)
            next_block = np.zeros(1, np.int64)
            others = [pool.submit(_panel, a, b_packed, c, k0, kc, next_block, *w) for w in work[1:]]
            _panel(a, b_packed, c, k0, kc, next_block, *work[0])
            for f in others:
                f.result()


def gemm_f32_blocked(a: np.ndarray, b: np.ndarray, c: np.ndarray, threads: int | None = None) -> np.ndarray:
    """``c + a·b`` in IMEX's order (module docstring), on up to ``threads`` of numba's threads (default: all).

    ``a`` ``[M, K]``, ``b`` ``[K, N]``, ``c`` ``[M, N]``, converted to C-contiguous float32 (exact for f16, bf16
    and f32 inputs); returns a new array.  Bit-identical to the sequential i-k-j loop for every input, whatever
    ``threads`` is."""
    # writeable too: numba types a read-only array differently, which would compile a second specialisation
    a = np.require(a, np.float32, ("C", "W"))
    b = np.require(b, np.float32, ("C", "W"))
    out = np.array(c, dtype=np.float32, copy=True, order="C")
    if out.size == 0 or a.shape[1] == 0:
        return out
    n = numba.config.NUMBA_NUM_THREADS if threads is None else max(1, min(threads, numba.config.NUMBA_NUM_THREADS))
    _gemm_threads(a, b, out, max(1, min(n, (a.shape[0] + MC - 1) // MC)))
    return out
