"""IMEX runner utilities (``%irunner_utils`` = libimex_runner_utils), spec/programs-and-runner.md §2.

Source named by the spec: IMEX ``lib/ExecutionEngine/ImexRunnerUtils.cpp``.  Every function takes unranked
memrefs and walks them with ``DynamicMemRefIterator``: all elements in row-major logical order, honouring
offset and strides, whatever the rank.  Elements are the descriptor's bytes read as the entry point's C
element type (see :func:`xesim.runtime.utils_print.memref_arg`).

* ``printAllcloseF32/F16/BF16(M, N)`` / ``allcloseF32/F16/BF16(M, N) -> i1``: M converted to float, N is
  f32; walks up to the end of the *shorter* memref; an element fails when ``|m − n| > atol + rtol·|n|``
  with **atol = 1e-4, rtol = 1e-3**; comparisons with NaN are false, so NaN elements count as close.
  Prints exactly ``[ALLCLOSE: TRUE]`` / ``[ALLCLOSE: FALSE]`` and a newline.
  *Assumption* (the spec does not say): the source declares ``const float atol/rtol`` and the operands are
  ``float``, so the test is evaluated in f32 — ``|m − n|`` rounded to f32, ``rtol·|n|`` rounded to f32,
  ``atol + …`` rounded to f32 — as C++ does with the ``std::fabs(float)`` overload.  Only differences
  within one f32 ulp of the threshold depend on this.
* ``printMaxErrorF32/F16/BF16(M, N)``: in double, ``delta = |m − n|``, ``rel = delta / max(|m|, |n|)``
  (``std::max``: ``a < b ? b : a``); the first index with strictly largest delta (resp. rel) above the
  initial 0 is kept together with the two element values; prints
  ``Max absolute error <delta> at idx=<k> (i=<m>, j=<n>)`` and ``Max relative error <rel> at idx=<k>
  (i=<m>, j=<n>)`` (numbers as ``std::cout << double``, i.e. %g).  When nothing differs the line reads
  ``… 0 at idx=0 (i=inf, j=inf)`` (values start at infinity).  ``idx`` is the linear logical index.
  Each operand is read with its own element type (f32 for the second operand is accepted with the F16/BF16
  entry points).
* ``fillResource1DF16/F32/BF16(M, f32 v)``: every element ← ``T(v)`` (f32 → f16/bf16 round-to-nearest-even).
* ``fillResource1DRandomF16/F32/BF16(M, f32 lower, f32 upper, i1 genInt)``: IMEX seeds a fresh
  ``std::mt19937`` from ``std::random_device`` on every call (non-deterministic).  xesim is reproducible
  instead: each call draws from ``numpy.random.Generator(PCG64(SeedSequence([engine.config.seed, n])))`` where
  ``n`` counts the calls made by that engine, so successive calls differ and runs repeat.  Values are
  ``lower + (upper − lower)·u`` with ``u`` uniform in [0, 1) in double (``uniform_real_distribution``);
  with ``genInt`` truncated toward zero (``static_cast<int>``, so −0.3 gives +0); then double → float → T,
  each step round-to-nearest-even.  Elements are filled in logical order.
* ``gemmF16F16F32(A, B, C)``, ``gemmBF16BF16F32(A, B, C)``: ``C ← C + A·B`` with A ``[M, K]``, B ``[K, N]``,
  C ``[M, N]`` f32, loops i-k-j, ``c[i][j] += a[i][k]·b[k][j]`` in float32 (product rounded to f32, then
  the sum rounded to f32; C's initial value included).  ``gemmF16F16F16``: the same, then every result is
  rounded to f16 and widened back into the f32 C.  Checked first (message printed to stdout, nothing
  computed): rank 2 for all three, matching dimensions, row-major contiguous strides.  The spec gives only
  the prefixes of the three messages; the remainder of each (sizes / strides in brackets) is xesim's
  reconstruction.  Implementation: each ``c[i][j]`` sees exactly the sequence
  ``c ← fp32(c + fp32(a[i][k]·b[k][j]))`` for k = 0..K−1; the loop order over (i, j) does not change any
  element's value, so the work is vectorised over (i, j) for each k (numpy float32 ufuncs, or for large sizes
  the blocked multi-threaded numba kernel of xesim/runtime/reference_kernels.py, which splits rows, never k,
  and is compiled without fast-math so no FMA contraction or reassociation).  Never BLAS.

Speed: the element-wise utilities (allclose, max error, random fills) work :data:`CHUNK` elements at a time
through reused buffers, reading the memrefs through read-only views (no copy); each step is the same
element-wise numpy operation in the same type as the C++ statement, so chunking changes no result
(tests/unit/test_runtime_utils_chunks.py checks them against the element loops).
"""

from __future__ import annotations

import weakref
from typing import Any

import ml_dtypes
import numpy as np

from xesim.exec.faults import ExecFault
from xesim.exec.values import MemRefValue
from xesim.print_formats import format_g
from xesim.runtime.externals import external
from xesim.runtime.reference_kernels import gemm_f32_blocked
from xesim.runtime.utils_print import C_TYPES, memref_arg, read_as, write_as

ATOL = np.float32(1e-4)
RTOL = np.float32(1e-3)

_F32 = np.dtype(np.float32)
_F16 = np.dtype(np.float16)
_BF16 = np.dtype(ml_dtypes.bfloat16)


# ----------------------------------------------------------------------------- allclose
#: Elements per chunk of the vectorised utilities: their temporaries (a few 64K-element buffers, reused) stay in
#: the core's L2 cache instead of being whole-buffer arrays allocated (and page-faulted) per operation.
CHUNK = 1 << 16


def allclose_values(m: np.ndarray, n: np.ndarray) -> bool:
    """IMEX allclose on two flat arrays (``m`` any float type, ``n`` f32), up to the shorter length.

    Element-wise f32 arithmetic (module docstring), chunk by chunk; stops at the first chunk with a failing
    element (the C++ loop stops at the element)."""
    k = min(m.size, n.size)
    w = min(k, CHUNK)
    lhs, rhs, diff, thr = (np.empty(w, np.float32) for _ in range(4))
    fails = np.empty(w, np.bool_)
    with np.errstate(invalid="ignore", over="ignore"):
        for s in range(0, k, CHUNK):
            e = min(s + CHUNK, k) - s
            l, r, d, t, f = lhs[:e], rhs[:e], diff[:e], thr[:e], fails[:e]
            l[...] = m[s : s + e]  # f16 / bf16 / f32 -> f32: exact
            r[...] = n[s : s + e]
            np.subtract(l, r, out=d)
            np.abs(d, out=d)  # |m - n| in f32
            np.abs(r, out=t)
            np.multiply(RTOL, t, out=t)  # rtol * |n| in f32
            np.add(ATOL, t, out=t)  # atol + ... in f32
            np.greater(d, t, out=f)  # false for NaN
            if f.any():
                return False
    return True


def _allclose_args(suffix: str, fname: str, args: list, arg_types: list) -> bool:
    mr, _ = memref_arg(fname, args, arg_types, 0, C_TYPES[suffix])
    nr, _ = memref_arg(fname, args, arg_types, 1, _F32)
    return allclose_values(read_as(mr, C_TYPES[suffix]).reshape(-1), read_as(nr, _F32).reshape(-1))


def _print_allclose(suffix: str):
    def fn(engine: Any, args: list, arg_types: list) -> None:
        ok = _allclose_args(suffix, f"printAllclose{suffix}", args, arg_types)
        engine.out.write("[ALLCLOSE: TRUE]\n" if ok else "[ALLCLOSE: FALSE]\n")

    return fn


def _allclose(suffix: str):
    def fn(engine: Any, args: list, arg_types: list) -> int:
        return 1 if _allclose_args(suffix, f"allclose{suffix}", args, arg_types) else 0

    return fn


for _s in ("F32", "F16", "BF16"):
    external(f"printAllclose{_s}", reads=(0, 1))(_print_allclose(_s))
    external(f"allclose{_s}", reads=(0, 1))(_allclose(_s))


# ----------------------------------------------------------------------------- max error
def max_error_text(m: np.ndarray, n: np.ndarray) -> str:
    """The two lines printMaxError prints for flat arrays ``m``, ``n`` (compared up to the shorter length).

    The C++ loop keeps the first index whose error is strictly larger than every earlier one (starting from 0;
    NaN compares false), i.e. the first index of the largest non-NaN error when that is above 0.  Computed
    chunk by chunk in double: a chunk's largest error replaces the kept one only when strictly larger, so the
    first index wins across chunks as inside one."""
    k = min(m.size, n.size)
    w = min(k, CHUNK)
    a, b, delta, rel, t = (np.empty(w, np.float64) for _ in range(5))
    lt = np.empty(w, np.bool_)
    best = {"absolute": [0.0, 0, float("inf"), float("inf")], "relative": [0.0, 0, float("inf"), float("inf")]}
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for s in range(0, k, CHUNK):
            e = min(s + CHUNK, k) - s
            ca, cb, cd, cr, ct, cl = a[:e], b[:e], delta[:e], rel[:e], t[:e], lt[:e]
            ca[...] = m[s : s + e]  # exact in double
            cb[...] = n[s : s + e]
            np.subtract(ca, cb, out=cd)
            np.abs(cd, out=cd)  # delta = |m - n|
            np.abs(ca, out=cr)
            np.abs(cb, out=ct)
            np.less(cr, ct, out=cl)
            np.copyto(cr, ct, where=cl)  # std::max(|m|, |n|) = |m| < |n| ? |n| : |m|
            np.divide(cd, cr, out=cr)  # rel = delta / max
            for what, err in (("absolute", cd), ("relative", cr)):
                mx = float(np.fmax.reduce(err, initial=0.0))  # NaN skipped (fmax ignores it)
                kept = best[what]
                if mx > kept[0]:
                    i = int(np.argmax(err == mx))
                    kept[:] = [mx, s + i, float(ca[i]), float(cb[i])]
    return "".join(f"Max {what} error {format_g(v)} at idx={i} (i={format_g(x)}, j={format_g(y)})\n"
                   for what, (v, i, x, y) in best.items())


def _print_max_error(suffix: str):
    def fn(engine: Any, args: list, arg_types: list) -> None:
        fname = f"printMaxError{suffix}"
        mr, _ = memref_arg(fname, args, arg_types, 0, C_TYPES[suffix])
        m = read_as(mr, C_TYPES[suffix]).reshape(-1)
        nr = args[1] if len(args) > 1 else None
        if isinstance(nr, MemRefValue) and nr.dtype == _F32 and suffix != "F32":
            n = nr.logical_view().reshape(-1)
        else:
            nr, _ = memref_arg(fname, args, arg_types, 1, C_TYPES[suffix])
            n = read_as(nr, C_TYPES[suffix]).reshape(-1)
        engine.out.write(max_error_text(m, n))

    return fn


for _s in ("F32", "F16", "BF16"):
    external(f"printMaxError{_s}", reads=(0, 1))(_print_max_error(_s))


# ----------------------------------------------------------------------------- fills
def _fill(suffix: str):
    ctype = C_TYPES[suffix]

    def fn(engine: Any, args: list, arg_types: list) -> None:
        fname = f"fillResource1D{suffix}"
        mr, _ = memref_arg(fname, args, arg_types, 0, ctype)
        if len(args) < 2:
            raise ExecFault(f"@{fname} expects (memref, f32 value)")
        v = np.asarray(np.float32(args[1])).astype(ctype)  # f32 -> T, round-to-nearest-even
        write_as(mr, np.full(mr.sizes, v, ctype))

    return fn


_RANDOM_CALLS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def random_generator(engine: Any) -> np.random.Generator:
    """The generator for the next fillResource1DRandom* call of ``engine`` (seed mixed with a call counter)."""
    n = _RANDOM_CALLS.get(engine, 0)
    _RANDOM_CALLS[engine] = n + 1
    seed = engine.config.seed & 0xFFFF_FFFF_FFFF_FFFF
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, n])))


def random_values(rng: np.random.Generator, count: int, lower: float, upper: float, gen_int: bool,
                  ctype: np.dtype) -> np.ndarray:
    """``count`` values of ``uniform_real_distribution<double>(lower, upper)``, optionally truncated to int,
    converted double → float → ``ctype``.  Drawn :data:`CHUNK` at a time into one reused buffer: the generator
    hands out the same sequence of doubles however the draws are split."""
    lo, hi = float(np.float32(lower)), float(np.float32(upper))
    out = np.empty(count, ctype)
    x = np.empty(min(count, CHUNK), np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        for s in range(0, count, CHUNK):
            u = x[: min(CHUNK, count - s)]
            rng.random(u.size, out=u)
            np.multiply(hi - lo, u, out=u)
            np.add(lo, u, out=u)  # lo + (hi - lo) * u, in double
            if gen_int:
                np.trunc(u, out=u)
                np.add(u, 0.0, out=u)  # static_cast<int>: toward zero, and an int has no negative zero
            out[s : s + u.size] = u.astype(np.float32)  # double -> float -> T, each step RNE
    return out


def _fill_random(suffix: str):
    ctype = C_TYPES[suffix]

    def fn(engine: Any, args: list, arg_types: list) -> None:
        fname = f"fillResource1DRandom{suffix}"
        mr, _ = memref_arg(fname, args, arg_types, 0, ctype)
        if len(args) < 4:
            raise ExecFault(f"@{fname} expects (memref, f32 lower, f32 upper, i1 genInt)")
        count = int(np.prod(mr.sizes)) if mr.sizes else 1
        vals = random_values(random_generator(engine), count, float(args[1]), float(args[2]), bool(args[3]), ctype)
        write_as(mr, vals.reshape(mr.sizes))

    return fn


for _s in ("F32", "F16", "BF16"):
    external(f"fillResource1D{_s}", writes=(0,))(_fill(_s))
    external(f"fillResource1DRandom{_s}", writes=(0,))(_fill_random(_s))


# ----------------------------------------------------------------------------- reference GEMMs
#: Above this many multiply-adds the numba kernel is used (its first compile takes 3.7 s, a load from numba's
#: cache 0.5 s: docs/performance.md).
NUMBA_THRESHOLD = 1 << 24
_BLOCK_ELEMS = 1 << 16  # rows of C processed together by the numpy path (fits in L2)


def gemm_f32_numpy(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``c + a·b`` with IMEX's f32 i-k-j accumulation (see module docstring); float32 inputs, new array."""
    c = np.array(c, dtype=np.float32, copy=True)
    M, K = a.shape
    N = b.shape[1]
    if M == 0 or N == 0:
        return c
    rows = max(1, _BLOCK_ELEMS // N)
    tmp = np.empty((rows, N), np.float32)
    with np.errstate(all="ignore"):
        for i0 in range(0, M, rows):
            cb = c[i0 : i0 + rows]
            at = np.ascontiguousarray(a[i0 : i0 + rows].T)
            t = tmp[: cb.shape[0]]
            for k in range(K):
                np.multiply(at[k][:, None], b[k], out=t)
                np.add(cb, t, out=cb)
    return c


def gemm_f32_numba(a: np.ndarray, b: np.ndarray, c: np.ndarray, threads: int | None = None) -> np.ndarray:
    """Same result as :func:`gemm_f32_numpy`, compiled and multi-threaded (xesim/runtime/reference_kernels.py)."""
    return gemm_f32_blocked(a, b, c, threads)


def gemm_f32(a: np.ndarray, b: np.ndarray, c: np.ndarray, threads: int | None = None) -> np.ndarray:
    M, K = a.shape
    N = b.shape[1]
    if M * N * K >= NUMBA_THRESHOLD:
        return gemm_f32_numba(a, b, c, threads)
    return gemm_f32_numpy(a, b, c)


def _gemm(name: str, ab_type: np.dtype, round_f16: bool):
    def fn(engine: Any, args: list, arg_types: list) -> None:
        A, _ = memref_arg(name, args, arg_types, 0, ab_type)
        B, _ = memref_arg(name, args, arg_types, 1, ab_type)
        C, _ = memref_arg(name, args, arg_types, 2, _F32)
        out = engine.out
        if A.rank != 2 or B.rank != 2 or C.rank != 2:
            out.write(f"Expecting 2D memrefs, got A rank: {A.rank}, B rank: {B.rank}, C rank: {C.rank}\n")
            return
        (M, K), (K2, N), (M2, N2) = A.sizes, B.sizes, C.sizes
        if K != K2 or M != M2 or N != N2:
            out.write(f"Incompatible matrix dimensions: A: [{M}, {K}], B: [{K2}, {N}], C: [{M2}, {N2}]\n")
            return
        for label, mr, lead in (("A", A, K), ("B", B, N), ("C", C, N)):
            if tuple(mr.strides) != (lead, 1):
                out.write(f"Expecting {label} strides to be [{lead}, 1], got [{mr.strides[0]}, {mr.strides[1]}]\n")
                return
        a = read_as(A, ab_type).astype(np.float32)
        b = read_as(B, ab_type).astype(np.float32)
        c = gemm_f32(a, b, read_as(C, _F32), getattr(getattr(engine, "config", None), "jobs", None))
        if round_f16:
            with np.errstate(over="ignore"):
                c = c.astype(np.float16).astype(np.float32)
        write_as(C, c)

    return fn


external("gemmF16F16F32", reads=(0, 1, 2), writes=(2,))(_gemm("gemmF16F16F32", _F16, False))
external("gemmF16F16F16", reads=(0, 1, 2), writes=(2,))(_gemm("gemmF16F16F16", _F16, True))
external("gemmBF16BF16F32", reads=(0, 1, 2), writes=(2,))(_gemm("gemmBF16BF16F32", _BF16, False))
