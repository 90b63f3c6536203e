"""vector dialect semantics (MLIR ``vector`` dialect docs; spec/programs-and-runner.md §1.2 for
``vector.print``; ARCHITECTURE.md "Values and memory" and "Numerics").

Vectors are numpy arrays with the vector's shape and exact element dtype (i1 vectors are ``bool``
arrays); scalars extracted from them follow :mod:`xesim.exec.values` (Python ints wrapped to the width,
numpy scalars of the exact float type).  No implementation mutates an operand array.

Arithmetic is done in the exact element type:

* integers wrap at their width (two's complement; i1 add is xor, mul is and; ``minsi``/``maxsi`` read
  the bits as signed, ``minui``/``maxui`` as unsigned, whatever the signedness of the type);
* floats: each binary step is rounded to the element type (numpy / ml_dtypes arithmetic in that type;
  f16/bf16 are computed in f32 and rounded once, which is correctly rounded, ARCHITECTURE.md Numerics);
* **reduction order**: ``vector.reduction``, ``vector.multi_reduction`` and ``vector.contract`` combine
  the elements sequentially from left to right (row-major order of the reduced dims), starting from the
  accumulator when there is one: ``((acc + x0) + x1) + ...``.  This is the order of LLVM's ordered
  ``llvm.vector.reduce.fadd`` (no ``reassoc``), which the upstream lowerings produce;
* ``minimumf``/``maximumf`` propagate NaN and order -0 < +0; ``minnumf``/``maxnumf`` return the non-NaN
  operand and also order -0 < +0 (LLVM leaves the sign of an equal-zero result open: xesim's choice);
* ``vector.fma`` rounds once (the exact ``a·b + c`` rounded to nearest-even in the element type);
* ``vector.contract`` multiplies in the accumulator's element type (operands extended to it first),
  rounding each product, then adds the products to the accumulator in increasing reduction order (the
  upstream "dot" lowering: ``arith.mulf`` then an ordered ``vector.reduction <add>`` with the accumulator).

Undefined behaviour is reported, not given a value: dynamic positions out of range, static poison
positions in extract/insert, out-of-bounds ``vector.load``/``vector.store`` and out-of-bounds accesses
of transfer dims marked ``in_bounds``.  Poison lanes of ``vector.shuffle`` (mask -1) read as zero.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np

from xesim.diagnostics import DiagnosticError
from xesim.exec.axis import Varying, lift, stacked
from xesim.exec.faults import ExecFault
from xesim.exec.ops.memref import (
    DYNAMIC_INDEX,
    compile_error,
    elem_dtype,
    enum_text,
    group,
    int_list_attr,
    opt_operand,
    outside_alloc,
    typed_view,
)
from xesim.exec.registry import impl
from xesim.exec.values import MemRefValue, dtype_of
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.print_formats import format_g, vector_print_text

POISON = -1  # MLIR's kPoisonIndex in static positions and shuffle masks
U64 = np.dtype(np.uint64)
I64 = np.dtype(np.int64)


# ============================================================================ element helpers
def to_scalar_fn(t: T.Type):
    """numpy element -> runtime scalar of type ``t`` (Python int for integers/index/i1; the numpy scalar of
    the exact dtype for floats)."""
    if isinstance(t, T.FloatType):
        dt = dtype_of(t)
        st = dt.type
        return lambda v: v if type(v) is st else st(v)
    return int


def int_width(t: T.Type) -> int:
    return 64 if isinstance(t, T.IndexType) else t.width  # type: ignore[attr-defined]


def to_u(a: Any, w: int) -> np.ndarray:
    """Bits of integer array ``a`` (any container) as uint64, masked to width ``w``."""
    a = np.asarray(a)
    if a.dtype.kind == "b":
        u = a.astype(U64)
    elif a.dtype.kind == "i":
        u = a.astype(I64).view(U64) if a.dtype != I64 else a.view(U64)
    else:
        u = a.astype(U64)
    if w < 64:
        u = u & np.uint64((1 << w) - 1)
    return u


def to_s(a: Any, w: int) -> np.ndarray:
    """Bits of ``a`` read as a signed ``w``-bit integer, as int64."""
    u = to_u(a, w)
    if w == 64:
        return u.view(I64)
    s = u.astype(I64)
    return np.where(s >= (1 << (w - 1)), s - (1 << w), s)


def from_bits(u: np.ndarray, t: T.Type, dt: np.dtype) -> np.ndarray:
    """Integer array of storage dtype ``dt`` from uint64 / int64 bits (wrapped to the width of ``t``)."""
    w = int_width(t)
    u = np.asarray(u)
    if u.dtype != U64:
        u = u.astype(I64).view(U64) if u.dtype.kind == "i" else u.astype(U64)
    if w < 64:
        u = u & np.uint64((1 << w) - 1)
    if dt.kind == "b":
        return u.astype(bool)
    if dt.kind == "u":
        return u.astype(dt)
    if w == 64:
        return u.view(I64).astype(dt)
    s = u.astype(I64)
    s = np.where(s >= (1 << (w - 1)), s - (1 << w), s)
    return s.astype(dt)


def _signed_zero_fix(r: np.ndarray, a: np.ndarray, b: np.ndarray, dt: np.dtype, want_neg: bool) -> np.ndarray:
    z = (a == 0) & (b == 0)
    if not np.any(z):
        return r
    sa, sb = np.signbit(a), np.signbit(b)
    neg = (sa | sb) if want_neg else (sa & sb)
    zero = np.where(neg, np.array(-0.0, dt), np.array(0.0, dt)).astype(dt)
    return np.where(z, zero, r).astype(dt)


def combiner(kind: str, t: T.Type, op: Any = None):
    """Binary combining function ``f(a, b)`` of CombiningKind ``kind`` on arrays of element type ``t``
    (MLIR vector dialect CombiningKind), computed in the exact element type."""
    dt = dtype_of(t)
    kind = {"minf": "minimumf", "maxf": "maximumf"}.get(kind, kind)
    if isinstance(t, T.FloatType):
        if kind == "add":
            return lambda a, b: np.add(a, b, dtype=dt)
        if kind == "mul":
            return lambda a, b: np.multiply(a, b, dtype=dt)
        if kind in ("minimumf", "maximumf"):
            lo = kind == "minimumf"

            def mm(a: Any, b: Any) -> Any:
                a = np.asarray(a, dt)
                b = np.asarray(b, dt)
                r = (np.minimum if lo else np.maximum)(a, b)
                return _signed_zero_fix(r, a, b, dt, lo)
            return mm
        if kind in ("minnumf", "maxnumf"):
            lo = kind == "minnumf"

            def nm(a: Any, b: Any) -> Any:
                a = np.asarray(a, dt)
                b = np.asarray(b, dt)
                r = (np.fmin if lo else np.fmax)(a, b)
                return _signed_zero_fix(r, a, b, dt, lo)
            return nm
        raise compile_error(op, f"combining kind '{kind}' is not defined for {t}")
    w = int_width(t)

    def ubin(f):
        return lambda a, b: from_bits(f(to_u(a, w), to_u(b, w)), t, dt)

    def sbin(f):
        return lambda a, b: from_bits(f(to_s(a, w), to_s(b, w)), t, dt)

    table = {
        "add": ubin(np.add), "mul": ubin(np.multiply), "and": ubin(np.bitwise_and), "or": ubin(np.bitwise_or),
        "xor": ubin(np.bitwise_xor), "minui": ubin(np.minimum), "maxui": ubin(np.maximum),
        "minsi": sbin(np.minimum), "maxsi": sbin(np.maximum),
    }
    f = table.get(kind)
    if f is None:
        raise compile_error(op, f"combining kind '{kind}' is not defined for {t}")
    return f


def reduce_last(x: np.ndarray, acc: Any, comb: Any, dt: np.dtype, kind: str, is_float: bool, w: int,
                t: T.Type) -> np.ndarray:
    """Combine ``x`` along its last axis, sequentially left to right, starting from ``acc`` (an array of
    shape ``x.shape[:-1]`` or None)."""
    n = x.shape[-1]
    if not is_float and kind in ("add", "mul", "and", "or", "xor"):
        u = to_u(x, w)
        with np.errstate(over="ignore"):
            red = {"add": np.add, "mul": np.multiply, "and": np.bitwise_and, "or": np.bitwise_or,
                   "xor": np.bitwise_xor}[kind].reduce(u, axis=-1, dtype=U64) if n else None
        if red is None:
            if acc is None:
                raise ExecFault("reduction of an empty vector without an accumulator")
            return np.asarray(acc, dt)
        r = from_bits(red, t, dt)
        return r if acc is None else comb(acc, r)
    if acc is None:
        if n == 0:
            raise ExecFault("reduction of an empty vector without an accumulator")
        res = x[..., 0]
        start = 1
    else:
        res = np.asarray(acc, dt)
        start = 0
    with np.errstate(all="ignore"):
        for i in range(start, n):
            res = comb(res, x[..., i])
    return np.asarray(res, dt)


# ============================================================================ exact fused multiply-add
def _neighbours_round(s: np.ndarray, err: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Round the exact value ``s + err`` (f64 arrays, ``s = RN64(s + err)``, non-finite ``s`` allowed) to
    nearest-even in ``dt``.

    Works on magnitudes: ``r0 = dt(|s|)`` is at most one step off, so the answer is one of the two ``dt``
    values ``lo <= |s| + e <= hi`` next to ``r0``.  With the exact distances ``D_lo = |s| - lo`` and
    ``D_hi = hi - |s|`` (Sterbenz), ``lo`` is nearer iff ``D_lo - D_hi < -2e`` (that difference is exact
    whenever it is comparable to ``e``); equality is a tie, resolved to the even bit pattern.  Overflow
    compares against the next power of two as if the exponent range were unbounded (IEEE 754 §4.3.1)."""
    fi = ml_dtypes.finfo(dt)
    ui = np.dtype(f"u{dt.itemsize}")
    out = np.empty(s.shape, dt)
    finite = np.isfinite(s)
    with np.errstate(all="ignore"):
        out[~finite] = s[~finite].astype(dt)
        if not finite.any():
            return out
        sf = s[finite]
        ef = err[finite]
        neg = np.signbit(sf)
        m = np.abs(sf)
        e = np.where(neg, -ef, ef)
        b0 = m.astype(dt).view(ui).astype(I64)
        has_inf = _has_inf(dt)
        max_bits = int(np.array(fi.max, dt).view(ui))
        maxv = float(fi.max)
        prev_max = float(np.array(max_bits - 1, ui).view(dt))
        virtual_top = maxv + (maxv - prev_max)  # 2^(emax+1): where "infinity" sits for rounding
        if not has_inf:
            b0 = np.minimum(b0, max_bits)

        def value(bits: np.ndarray) -> np.ndarray:
            v = np.minimum(bits, max_bits + 1).astype(ui).view(dt).astype(np.float64)
            return np.where(bits > max_bits, virtual_top, v)

        v0 = value(b0)
        above = (m > v0) | ((m == v0) & (e >= 0))
        lo_b = np.where(above, b0, np.maximum(b0 - 1, 0))
        hi_b = np.where(above, b0 + 1, b0)
        d_lo = m - value(lo_b)
        d_hi = value(hi_b) - m
        diff = d_lo - d_hi
        lim = -2 * e
        pick_lo = (diff < lim) | ((diff == lim) & ((lo_b & 1) == 0))
        best = np.where(pick_lo, lo_b, hi_b)
        if has_inf:
            inf_bits = int(np.array(np.inf, dt).view(ui))
            best = np.minimum(best, inf_bits)
            mag = best.astype(ui).view(dt)
        else:  # no infinity (e.g. f8E4M3FN): overflow gives NaN
            mag = np.where(best > max_bits, np.array(np.nan, dt), np.minimum(best, max_bits).astype(ui).view(dt))
            mag = np.asarray(mag, dt)
        sign_bit = np.array(1 << (8 * dt.itemsize - 1), dtype=ui)
        bits = mag.view(ui) | np.where(neg, sign_bit, np.zeros((), ui)).astype(ui)
        out[finite] = bits.astype(ui).view(dt)
    return out


def _has_inf(dt: np.dtype) -> bool:
    with np.errstate(all="ignore"):
        return bool(np.isinf(np.array(np.inf).astype(dt)))


_DIRECT_ROUNDING = (np.dtype(np.float32), np.dtype(np.float16))


def fma_exact(a: np.ndarray, b: np.ndarray, c: np.ndarray, dt: np.dtype) -> np.ndarray:
    """``a·b + c`` with a single rounding to ``dt`` (round to nearest even).

    f16/bf16/f32: the product is exact in f64; ``s = p + c`` and its exact error ``err`` come from
    TwoSum, and ``s + err`` is rounded to ``dt`` by comparing the neighbouring ``dt`` values exactly.
    f64: exact rational arithmetic (``fractions.Fraction``), rounded by Python's correctly rounded
    integer division; non-finite operands use IEEE arithmetic."""
    a = np.asarray(a, dt)
    b = np.asarray(b, dt)
    c = np.asarray(c, dt)
    if dt == np.dtype(np.float64):
        out = np.empty(np.broadcast(a, b, c).shape, dt)
        for idx in np.ndindex(out.shape):
            x, y, z = float(a[idx]), float(b[idx]), float(c[idx])
            if not (np.isfinite(x) and np.isfinite(y) and np.isfinite(z)) or x == 0 or y == 0:
                with np.errstate(all="ignore"):
                    out[idx] = np.float64(x) * np.float64(y) + np.float64(z)
                continue
            q = Fraction(x) * Fraction(y) + Fraction(z)
            if q == 0:
                out[idx] = 0.0
            else:
                try:
                    out[idx] = q.numerator / q.denominator
                except OverflowError:
                    out[idx] = np.inf if q > 0 else -np.inf
        return out
    if dt.itemsize > 4:
        raise ExecFault(f"fma is not supported for element type {dt}")
    with np.errstate(all="ignore"):
        p = a.astype(np.float64) * b.astype(np.float64)
        cc = c.astype(np.float64)
        s = p + cc
        bb = s - p
        err = (p - (s - bb)) + (cc - bb)
        err = np.where(np.isfinite(s), err, 0.0)
    s = np.asarray(s).reshape(-1)
    err = np.asarray(err).reshape(-1)
    shape = np.broadcast(a, b, c).shape
    if dt not in _DIRECT_ROUNDING:
        return _neighbours_round(s, err, dt).reshape(shape)
    # numpy converts f64 to f32/f16 correctly rounded; RN(s) differs from RN(s + err) only when s is exactly
    # halfway between two dt values (err breaks the tie) or at the overflow threshold: fix those elements.
    with np.errstate(all="ignore"):
        r = s.astype(dt)
        need = err != 0
        if need.any():
            r64 = r.astype(np.float64)
            toward = np.where(s > r64, np.inf, -np.inf).astype(dt)
            other = np.nextafter(r, toward)
            mid = (r64 + other.astype(np.float64)) / 2
            fix = need & ((s == mid) | (np.isinf(r) & np.isfinite(s)))
            if fix.any():
                r[fix] = _neighbours_round(s[fix], err[fix], dt)
    return r.reshape(shape)


# ============================================================================ memory transfers
def _bool_list(a: Any, n: int) -> list[bool]:
    if a is None:
        return [False] * n
    if isinstance(a, A.DenseArrayAttr):
        return [bool(v) for v in a.values]
    if isinstance(a, A.ArrayAttr):
        return [bool(getattr(e, "value", e)) for e in a.elements]
    raise TypeError(f"expected a list of booleans, got {a}")


def compile_transfer(op: Any, what: str, vshape: tuple[int, ...], mem_rank: int, perm: list[int | None],
                     in_bounds: list[bool], has_mask: bool):
    """Index machinery of a vector <-> memref transfer.  ``perm[k]`` is the memref dim vector dim ``k``
    walks (None: broadcast).  Returns ``locate(m, base_idx, mask) -> (view, flat, valid)`` where ``flat``
    are element indices into ``view`` (shape ``vshape``) and ``valid`` the elements inside the memref
    (and the mask), or None when all are."""
    k_rank = len(vshape)
    mapped = sorted((j, k) for k, j in enumerate(perm) if j is not None)
    mask_axes = [k for _, k in mapped]  # mask dims follow the memory dims in increasing order
    mask_to_vec = list(np.argsort(mask_axes)) if mask_axes else []
    mask_shape_full = [vshape[k] if perm[k] is not None else 1 for k in range(k_rank)]
    aranges = [np.arange(n, dtype=I64) for n in vshape]
    shapes = []
    for k in range(k_rank):
        sh = [1] * k_rank
        sh[k] = vshape[k]
        shapes.append(tuple(sh))
    unmapped = [j for j in range(mem_rank) if j not in perm]

    def locate(m: MemRefValue, base: list[int], mask: Any) -> tuple[np.ndarray, Any, Any]:
        sizes, strides = m.sizes, m.strides
        view, e0 = typed_view(m)
        flat_scalar = e0
        for j in unmapped:
            i = base[j]
            if not 0 <= i < sizes[j]:
                raise ExecFault(
                    f"{what}: index {i} is out of bounds for dimension {j} of size {sizes[j]} "
                    f"(indices [{', '.join(map(str, base))}], {_where(m)})"
                )
            flat_scalar += i * strides[j]
        flat: Any = np.full(vshape, flat_scalar, dtype=I64) if k_rank else np.array(flat_scalar, I64)
        valid: Any = None
        for k, j in enumerate(perm):
            if j is None:
                continue
            c = base[j] + aranges[k]
            n = vshape[k]
            lo = base[j]
            hi = base[j] + n - 1
            if n and (lo < 0 or hi >= sizes[j]):
                if in_bounds[k]:
                    raise ExecFault(
                        f"{what}: indices [{lo}, {hi}] of vector dim {k} are out of bounds for dimension {j} "
                        f"of size {sizes[j]} (indices [{', '.join(map(str, base))}], {_where(m)})"
                    )
                ok = ((c >= 0) & (c < sizes[j])).reshape(shapes[k])
                valid = ok if valid is None else (valid & ok)
            flat = flat + (c * strides[j]).reshape(shapes[k])
        if has_mask and mask is not None:
            mk = np.asarray(mask, bool)
            if mask_to_vec:
                mk = np.transpose(mk, mask_to_vec)
            mk = mk.reshape(mask_shape_full)
            valid = mk if valid is None else (valid & mk)
        if valid is not None:
            valid = np.broadcast_to(valid, vshape)
            flat = np.where(valid, flat, e0 if 0 <= e0 < view.shape[0] else 0)
            if not valid.any():
                return view, flat, valid
            sel = flat[valid]
            lo_e, hi_e = int(sel.min()), int(sel.max())
        elif flat.size:
            lo_e, hi_e = int(flat.min()), int(flat.max())
        else:
            return view, flat, valid
        if lo_e < 0 or hi_e >= view.shape[0]:
            bad = lo_e if lo_e < 0 else hi_e
            exc = outside_alloc(m, bad, view)
            raise ExecFault(f"{what}: {exc.message}")
        return view, flat, valid

    return locate


def _where(m: MemRefValue) -> str:
    return m.alloc.describe() if m.alloc is not None else f"{m.space.name} memory"


def _perm_of(op: Any, vrank: int, mem_rank: int) -> list[int | None]:
    from xesim.ir import affine as F  # noqa: N812

    a = op.attributes.get("permutation_map")
    if a is None:
        return [mem_rank - vrank + k for k in range(vrank)]
    perm: list[int | None] = []
    for e in a.map.results:
        if isinstance(e, F.Dim):
            perm.append(e.index)
        elif isinstance(e, F.Const) and e.value == 0:
            perm.append(None)
        else:
            raise compile_error(op, f"unsupported permutation map {a.map}")
    return perm


def _check_memref_operand(op: Any, v: Any) -> Any:
    t = v.type
    if not isinstance(t, T.MemRefType):
        raise compile_error(op, f"transfers on {t} are not supported (memrefs only)")
    if not T.is_scalar(t.element_type):
        raise compile_error(op, f"memrefs of {t.element_type} elements are not supported")
    return t


def block_view(m: MemRefValue, base: list[int], vshape: tuple[int, ...]) -> np.ndarray | None:
    """A strided numpy view of the ``vshape`` block of ``m`` at ``base`` (the vector dims walk the
    trailing memref dims), or None when the block is not entirely inside ``m`` and its allocation (the
    caller then takes the checked path, which reports the fault)."""
    lead = len(m.sizes) - len(vshape)
    if lead < 0:
        return None
    for d, (i, s) in enumerate(zip(base, m.sizes)):
        n = vshape[d - lead] if d >= lead else 1
        if i < 0 or i + n > s or n <= 0:
            return None
    view, e0 = typed_view(m)
    e = e0
    for i, st in zip(base, m.strides):
        e += i * st
    strides = m.strides[lead:]
    end = e
    for n, st in zip(vshape, strides):
        if st < 0:
            return None
        end += (n - 1) * st
    if e < 0 or end >= view.shape[0]:
        return None
    isz = view.itemsize
    return np.lib.stride_tricks.as_strided(view[e:], shape=vshape, strides=[st * isz for st in strides])


@impl("vector.load")
def _vload(op: Any, cx: Any):
    """Contiguous load of the vector's shape from the trailing memref dims at ``indices`` (every element
    must be in bounds)."""
    mt = _check_memref_operand(op, op.operands[0])
    ms = cx.slot(op.operands[0])
    idx = cx.slots(group(op, "indices"))
    res = cx.slot(op.results[0])
    vt = op.results[0].type
    vshape = tuple(vt.shape)
    r = len(vshape)
    locate = compile_transfer(op, "vector.load", vshape, mt.rank, [mt.rank - r + k for k in range(r)],
                              [True] * r, False)

    def step(fr: list) -> None:
        m = fr[ms]
        base = [fr[s] for s in idx]
        blk = block_view(m, base, vshape)
        if blk is not None:
            fr[res] = blk.copy()
            return
        view, flat, _ = locate(m, base, None)
        fr[res] = np.asarray(view[flat]).reshape(vshape)
    return step


@impl("vector.store")
def _vstore(op: Any, cx: Any):
    mt = _check_memref_operand(op, op.operands[1])
    vs = cx.slot(op.operands[0])
    ms = cx.slot(op.operands[1])
    idx = cx.slots(group(op, "indices"))
    vt = op.operands[0].type
    vshape = tuple(vt.shape)
    r = len(vshape)
    locate = compile_transfer(op, "vector.store", vshape, mt.rank, [mt.rank - r + k for k in range(r)],
                              [True] * r, False)

    def step(fr: list) -> None:
        m = fr[ms]
        base = [fr[s] for s in idx]
        blk = block_view(m, base, vshape)
        if blk is not None:
            blk[...] = fr[vs]
            return
        view, flat, _ = locate(m, base, None)
        view[flat] = fr[vs]
    return step


@impl("vector.transfer_read")
def _transfer_read(op: Any, cx: Any):
    """Reads the vector through the permutation map (broadcast dims read the same element); elements out
    of bounds of dims not marked ``in_bounds`` or masked off take the padding value."""
    mt = _check_memref_operand(op, op.operands[0])
    ms = cx.slot(op.operands[0])
    idx = cx.slots(group(op, "indices"))
    pad_v = group(op, "padding")[0]
    if not T.is_scalar(pad_v.type):
        raise compile_error(op, "vector padding values are not supported")
    pad = cx.slot(pad_v)
    mask_v = opt_operand(op, "mask")
    mask = cx.slot(mask_v) if mask_v is not None else None
    res = cx.slot(op.results[0])
    vt = op.results[0].type
    vshape = tuple(vt.shape)
    perm = _perm_of(op, len(vshape), mt.rank)
    in_bounds = _bool_list(op.attributes.get("in_bounds"), len(vshape))
    in_bounds = [ib or p is None for ib, p in zip(in_bounds, perm)]
    locate = compile_transfer(op, "vector.transfer_read", vshape, mt.rank, perm, in_bounds, mask is not None)
    dt = elem_dtype(op, vt.element_type)

    def step(fr: list) -> None:
        m = fr[ms]
        view, flat, valid = locate(m, [fr[s] for s in idx], fr[mask] if mask is not None else None)
        out = np.asarray(view[flat]).reshape(vshape)
        if valid is not None:
            out = np.where(valid, out, np.array(fr[pad], dt)).astype(dt)
        fr[res] = out
    return step


@impl("vector.transfer_write")
def _transfer_write(op: Any, cx: Any):
    """Writes the vector through the permutation map; out-of-bounds (non-``in_bounds``) and masked-off
    elements are not written."""
    if op.results:
        raise compile_error(op, "transfers to tensors are not supported")
    mt = _check_memref_operand(op, op.operands[1])
    vs = cx.slot(op.operands[0])
    ms = cx.slot(op.operands[1])
    idx = cx.slots(group(op, "indices"))
    mask_v = opt_operand(op, "mask")
    mask = cx.slot(mask_v) if mask_v is not None else None
    vt = op.operands[0].type
    vshape = tuple(vt.shape)
    perm = _perm_of(op, len(vshape), mt.rank)
    if None in perm:
        raise compile_error(op, "broadcast dims in a transfer_write permutation map")
    in_bounds = _bool_list(op.attributes.get("in_bounds"), len(vshape))
    locate = compile_transfer(op, "vector.transfer_write", vshape, mt.rank, perm, in_bounds, mask is not None)

    def step(fr: list) -> None:
        m = fr[ms]
        view, flat, valid = locate(m, [fr[s] for s in idx], fr[mask] if mask is not None else None)
        v = fr[vs]
        if valid is None:
            view[flat] = v
        else:
            view[flat[valid]] = np.asarray(v)[valid]
    return step


# ============================================================================ print
_PUNCT = {"no_punctuation": "", "newline": "\n", "comma": ", ", "open": "( ", "close": " )"}


def element_printer(t: T.Type):
    """Element text as the runtime print functions write it (spec §1.2): floats ``%g``; i1 0/1; index and
    unsigned integers unsigned (printU64); signless/signed integers signed (printI64)."""
    if isinstance(t, T.FloatType):
        return lambda v: format_g(float(v))
    if isinstance(t, T.IndexType):
        return lambda v: str(int(v) & 0xFFFF_FFFF_FFFF_FFFF)
    if isinstance(t, T.IntegerType):
        if t.width == 1:
            return lambda v: "1" if v else "0"
        if t.signedness == "u":
            mask = (1 << t.width) - 1
            return lambda v: str(int(v) & mask)
        return lambda v: str(int(v))
    raise TypeError(f"cannot print {t}")


@impl("vector.print")
def _print(op: Any, cx: Any):
    engine = cx.engine
    lit = op.attributes.get("stringLiteral")
    src = op.operands[0] if op.operands else None
    punct_name = enum_text(op, "punctuation", "newline") or "newline"
    punct_name = {"NoPunctuation": "no_punctuation", "NewLine": "newline"}.get(punct_name, punct_name).lower()
    punct = _PUNCT.get(punct_name)
    if punct is None:
        raise compile_error(op, f"unknown punctuation '{punct_name}'")
    if src is None:
        text = (lit.value if isinstance(lit, A.StringAttr) else str(lit)) if lit is not None else punct

        def pstep(fr: list) -> None:
            engine.out.write(text)
        return pstep
    s = cx.slot(src)
    t = src.type
    is_vec = isinstance(t, T.VectorType)
    try:
        fmt = element_printer(T.element_type_of(t))
    except TypeError as exc:
        raise compile_error(op, str(exc)) from None
    tail = (lit.value if isinstance(lit, A.StringAttr) else "") if lit is not None else punct

    def step(fr: list) -> None:
        engine.out.write(vector_print_text(fr[s], fmt, is_vec, tail))
    return step


# ============================================================================ construction / shape
def _from_scalar(v: Any, dt: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    return np.full(shape, v, dtype=dt)


@impl("vector.broadcast")
def _broadcast(op: Any, cx: Any):
    """Scalars fill the vector; vectors are broadcast numpy-style (new leading dims, size-1 dims stretched)."""
    s = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    rt = op.results[0].type
    dt = elem_dtype(op, rt.element_type)
    shape = tuple(rt.shape)
    if isinstance(op.operands[0].type, T.VectorType):
        def vstep(fr: list) -> None:
            fr[res] = np.broadcast_to(fr[s], shape).copy()
        return vstep

    def step(fr: list) -> None:
        fr[res] = np.full(shape, fr[s], dtype=dt)
    return step


@impl("vector.splat")
def _splat(op: Any, cx: Any):
    s = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    rt = op.results[0].type
    dt = elem_dtype(op, rt.element_type)
    shape = tuple(rt.shape)

    def step(fr: list) -> None:
        fr[res] = np.full(shape, fr[s], dtype=dt)
    return step


@impl("vector.from_elements")
def _from_elements(op: Any, cx: Any):
    ss = cx.slots(op.operands)
    res = cx.slot(op.results[0])
    rt = op.results[0].type
    dt = elem_dtype(op, rt.element_type)
    shape = tuple(rt.shape)

    def step(fr: list) -> None:
        out = np.empty(len(ss), dt)
        for i, s in enumerate(ss):
            out[i] = fr[s]
        fr[res] = out.reshape(shape)
    return step


@impl("vector.step")
def _step(op: Any, cx: Any):
    res = cx.slot(op.results[0])
    rt = op.results[0].type
    dt = elem_dtype(op, rt.element_type)
    val = np.arange(rt.shape[0]).astype(dt)

    def step(fr: list) -> None:
        fr[res] = val.copy()
    return step


@impl("vector.create_mask")
def _create_mask(op: Any, cx: Any):
    """Elements whose index is below the operand in every dim are set (operands clamp to [0, size])."""
    ss = cx.slots(op.operands)
    res = cx.slot(op.results[0])
    shape = tuple(op.results[0].type.shape)

    def step(fr: list) -> None:
        m = np.zeros(shape, bool)
        m[tuple(slice(0, max(0, min(fr[s], n))) for s, n in zip(ss, shape))] = True
        fr[res] = m
    return step


@impl("vector.constant_mask")
def _constant_mask(op: Any, cx: Any):
    res = cx.slot(op.results[0])
    shape = tuple(op.results[0].type.shape)
    sizes = int_list_attr(op, "mask_dim_sizes") or []
    m = np.zeros(shape, bool)
    if shape:
        m[tuple(slice(0, max(0, min(v, n))) for v, n in zip(sizes, shape))] = True
    else:
        m[()] = bool(sizes and sizes[0])

    def step(fr: list) -> None:
        fr[res] = m.copy()
    return step


@impl("vector.shape_cast")
def _shape_cast(op: Any, cx: Any):
    s = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    shape = tuple(op.results[0].type.shape)

    def step(fr: list) -> None:
        fr[res] = np.ascontiguousarray(fr[s]).reshape(shape)
    return step


@impl("vector.transpose")
def _transpose(op: Any, cx: Any):
    s = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    perm = int_list_attr(op, "permutation", "transp")
    if perm is None:
        raise compile_error(op, "has no permutation")

    def step(fr: list) -> None:
        fr[res] = np.ascontiguousarray(np.transpose(fr[s], perm))
    return step


def bitcast_array(arr: np.ndarray, st: T.Type, rt: T.Type, shape: tuple[int, ...]) -> np.ndarray:
    """Reinterpret the bits of the last dim (little-endian element order, element 0 in the low bits)."""
    sdt, rdt = dtype_of(st), dtype_of(rt)
    sw, rw = T.bit_width(st), T.bit_width(rt)
    arr = np.ascontiguousarray(arr, dtype=sdt)
    if sw == sdt.itemsize * 8 and rw == rdt.itemsize * 8 and sdt.kind != "b" and rdt.kind != "b":
        return arr.view(rdt).reshape(shape)
    # generic path: explode into bits
    if sdt.kind == "f" or sdt.kind == "V" or not isinstance(st, (T.IntegerType, T.IndexType)):
        ui = np.dtype(f"u{sdt.itemsize}")
        u = arr.view(ui).astype(U64) & np.uint64((1 << sw) - 1)
    else:
        u = to_u(arr, sw)
    bits = (u[..., None] >> np.arange(sw, dtype=U64)) & np.uint64(1)
    bits = bits.reshape(shape[:-1] + (shape[-1], rw)) if shape else bits.reshape((rw,))
    vals = (bits << np.arange(rw, dtype=U64)).sum(axis=-1, dtype=U64)
    if isinstance(rt, (T.IntegerType, T.IndexType)):
        return from_bits(vals, rt, rdt).reshape(shape)
    ui = np.dtype(f"u{rdt.itemsize}")
    return vals.astype(ui).view(rdt).reshape(shape)


@impl("vector.bitcast")
def _bitcast(op: Any, cx: Any):
    s = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    st = T.element_type_of(op.operands[0].type)
    rt = op.results[0].type
    shape = tuple(rt.shape)
    elem_dtype(op, st)
    elem_dtype(op, rt.element_type)
    if isinstance(st, T.IndexType) or isinstance(rt.element_type, T.IndexType):
        raise compile_error(op, "bitcast of index vectors")

    def step(fr: list) -> None:
        fr[res] = bitcast_array(fr[s], st, rt.element_type, shape)
    return step


# ============================================================================ extract / insert
def _position(cx: Any, op: Any, rank: int):
    """Compile a static/dynamic position list; ``get(fr)`` returns the checked index tuple."""
    static = int_list_attr(op, "static_position", "position")
    try:
        dyn = cx.slots(group(op, "dynamic_position"))
    except DiagnosticError:  # a definition without dynamic positions
        dyn = []
    if static is None:
        static = [DYNAMIC_INDEX] * len(dyn)
    if POISON in static:
        def poison(fr: list) -> tuple:
            raise ExecFault(f"position {static} is poison")
        return poison, len(static)
    return _positions_getter(static, dyn, op), len(static)


def _positions_getter(static: list[int], dyn: list[int], op: Any):
    shape = tuple(op.operands[_vector_operand_index(op)].type.shape)
    if DYNAMIC_INDEX not in static:
        const = tuple(static)
        return lambda fr: const
    it = iter(dyn)
    template = [(True, next(it)) if s == DYNAMIC_INDEX else (False, s) for s in static]

    def get(fr: list) -> tuple:
        out = []
        for d, (isdyn, v) in enumerate(template):
            if isdyn:
                v = fr[v]
                if not 0 <= v < shape[d]:
                    raise ExecFault(f"dynamic position {v} is out of range for dimension {d} of size {shape[d]}")
            out.append(v)
        return tuple(out)

    return get


def _vector_operand_index(op: Any) -> int:
    return 0 if op.name == "vector.extract" else 1


@impl("vector.extract", axis=True)
def _extract(op: Any, cx: Any):
    s = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    vt = op.operands[0].type
    get, _ = _position(cx, op, vt.rank)
    rt = op.results[0].type
    if isinstance(rt, T.VectorType):
        rshape = tuple(rt.shape)

        def vstep(fr: list) -> None:
            fr[res] = np.array(fr[s][get(fr)]).reshape(rshape)

        pos = static_position(op)
        return _one_or_lifted(op, cx, vstep) if pos is None else along_axis_read(op, cx, vstep, pos)
    conv = to_scalar_fn(rt)

    def step(fr: list) -> None:
        fr[res] = conv(fr[s][get(fr)])
    return _one_or_lifted(op, cx, step)


@impl("vector.insert", axis=True)
def _insert(op: Any, cx: Any):
    v = cx.slot(op.operands[0])
    d = cx.slot(op.operands[1])
    res = cx.slot(op.results[0])
    get, _ = _position(cx, op, op.operands[1].type.rank)
    rshape = tuple(op.results[0].type.shape)

    def step(fr: list) -> None:
        out = np.array(fr[d], copy=True).reshape(rshape)
        pos = get(fr)
        if out.ndim == 0:
            out[()] = fr[v]
        else:
            out[pos] = fr[v]
        fr[res] = out

    pos = static_position(op)
    if pos is None or not isinstance(op.operands[0].type, T.VectorType) or not rshape:
        return _one_or_lifted(op, cx, step)
    return along_axis_write(op, cx, step, pos)


def _one_or_lifted(op: Any, cx: Any, step: Any) -> Any:
    return step if cx.width == 1 else lift(op, cx, step)


def _instance_contiguous(x: np.ndarray) -> bool:
    """Whether each ``x[i]`` is laid out as a C-contiguous array (the instance axis may have any stride)."""
    expect = x.itemsize
    for size, stride in zip(reversed(x.shape[1:]), reversed(x.strides[1:])):
        if size != 1 and stride != expect:
            return False
        expect *= size
    return True


def along_axis_read(op: Any, cx: Any, step: Any, index: tuple) -> Any:
    """A static read of part of operand 0 (``extract`` with a vector result, ``extract_strided_slice``) on the instance
    axis (:mod:`xesim.exec.axis`): instance i's result is ``source_i[index]``, so many instances are one indexing
    of the source's ``[n, ...]`` stack behind the axis — a view of it when each instance's part is contiguous (a row
    block of a loaded tile, one of a load's array_length blocks: values are never written once made), else a copy."""
    if cx.width == 1:
        return step
    lifted = lift(op, cx, step)
    ks = cx.engine.kstate
    s, res = cx.slot(op.operands[0]), cx.slot(op.results[0])
    rshape = tuple(op.results[0].type.shape)
    full = (slice(None), *index)

    def astep(fr: list) -> None:
        v = fr[s]
        if not isinstance(v, Varying) or len(ks.mask) != ks.slots:
            lifted(fr)
            return
        n = ks.slots
        out = stacked(v, n)[full].reshape(n, *rshape)
        fr[res] = Varying.from_stack(out if _instance_contiguous(out) else out.copy())

    return astep


def along_axis_write(op: Any, cx: Any, step: Any, index: tuple) -> Any:
    """A static write of operand 0 into a copy of operand 1 (``insert`` of a vector, ``insert_strided_slice``) on the
    instance axis: instance i's result is ``dest_i`` with ``source_i`` at ``index``, one assignment for all."""
    if cx.width == 1:
        return step
    lifted = lift(op, cx, step)
    ks = cx.engine.kstate
    src, dst, res = cx.slot(op.operands[0]), cx.slot(op.operands[1]), cx.slot(op.results[0])
    rshape = tuple(op.results[0].type.shape)
    full = (slice(None), *index)

    def astep(fr: list) -> None:
        sv, dv = fr[src], fr[dst]
        if (not isinstance(sv, Varying) and not isinstance(dv, Varying)) or len(ks.mask) != ks.slots:
            lifted(fr)
            return
        n = ks.slots
        out = np.array(stacked(dv, n), copy=True).reshape(n, *rshape)
        out[full] = stacked(sv, n)
        fr[res] = Varying.from_stack(out)

    return astep


def _elem_position(cx: Any, op: Any, vop: Any):
    p = opt_operand(op, "position")
    if p is None:
        return lambda fr: ()
    ps = cx.slot(p)
    n = vop.type.shape[0] if vop.type.shape else 1

    def get(fr: list) -> tuple:
        i = fr[ps]
        if not 0 <= i < n:
            raise ExecFault(f"position {i} is out of range for a vector of {n} elements")
        return (i,)
    return get


@impl("vector.extractelement")
def _extractelement(op: Any, cx: Any):
    s = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    get = _elem_position(cx, op, op.operands[0])
    conv = to_scalar_fn(op.results[0].type)

    def step(fr: list) -> None:
        fr[res] = conv(fr[s][get(fr)])
    return step


@impl("vector.insertelement")
def _insertelement(op: Any, cx: Any):
    v = cx.slot(op.operands[0])
    d = cx.slot(op.operands[1])
    res = cx.slot(op.results[0])
    get = _elem_position(cx, op, op.operands[1])

    def step(fr: list) -> None:
        out = np.array(fr[d], copy=True)
        out[get(fr)] = fr[v]
        fr[res] = out
    return step


@impl("vector.extract_strided_slice", axis=True)
def _extract_strided_slice(op: Any, cx: Any):
    s = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    sl = extract_strided_index(op)

    def step(fr: list) -> None:
        fr[res] = np.ascontiguousarray(fr[s][sl])
    return along_axis_read(op, cx, step, sl)


def extract_strided_index(op: Any) -> tuple[slice, ...]:
    """The numpy index of ``vector.extract_strided_slice``'s result in its source (offsets, sizes, strides)."""
    offs = int_list_attr(op, "offsets") or []
    sizes = int_list_attr(op, "sizes") or []
    strides = int_list_attr(op, "strides") or [1] * len(offs)
    return tuple(slice(o, o + (n - 1) * st + 1, st) for o, n, st in zip(offs, sizes, strides))


def insert_strided_index(op: Any) -> tuple:
    """The numpy index ``vector.insert_strided_slice`` writes its source to in the destination: the leading
    offsets beyond the source's rank as integers, then a strided slice per source dimension."""
    offs = int_list_attr(op, "offsets") or []
    strides = int_list_attr(op, "strides") or []
    sshape = tuple(op.operands[0].type.shape)
    lead = len(offs) - len(sshape)
    return tuple(offs[:lead]) + tuple(
        slice(o, o + (n - 1) * st + 1, st) for o, n, st in zip(offs[lead:], sshape, strides)
    )


def static_position(op: Any) -> tuple[int, ...] | None:
    """The position of a ``vector.extract`` / ``vector.insert`` when every index is static and none is poison
    (the index tuple :func:`_position`'s getter returns for it), else None."""
    static = int_list_attr(op, "static_position", "position")
    if static is None or DYNAMIC_INDEX in static or POISON in static:
        return None
    return tuple(static)


@impl("vector.insert_strided_slice", axis=True)
def _insert_strided_slice(op: Any, cx: Any):
    v = cx.slot(op.operands[0])
    d = cx.slot(op.operands[1])
    res = cx.slot(op.results[0])
    sl = insert_strided_index(op)

    def step(fr: list) -> None:
        out = np.array(fr[d], copy=True)
        out[sl] = fr[v]
        fr[res] = out
    return along_axis_write(op, cx, step, sl)


@impl("vector.shuffle")
def _shuffle(op: Any, cx: Any):
    """Result[i] = concat(v1, v2)[mask[i]] along the leading dim (0-D operands count as one element);
    poison lanes (mask -1) are zero."""
    a = cx.slot(op.operands[0])
    b = cx.slot(op.operands[1])
    res = cx.slot(op.results[0])
    mask = int_list_attr(op, "mask")
    if mask is None:
        raise compile_error(op, "has no mask")
    rt = op.results[0].type
    dt = elem_dtype(op, rt.element_type)
    idx = np.array([0 if m == POISON else m for m in mask], dtype=I64)
    poison = np.array([m == POISON for m in mask])
    any_poison = bool(poison.any())
    rshape = tuple(rt.shape)

    def step(fr: list) -> None:
        x = np.asarray(fr[a])
        y = np.asarray(fr[b])
        cat = np.concatenate([x.reshape((1,) if x.ndim == 0 else x.shape), y.reshape((1,) if y.ndim == 0 else y.shape)])
        out = cat[idx]
        if any_poison:
            out = out.copy()
            out[poison] = np.zeros((), dt)
        fr[res] = out.reshape(rshape)
    return step


# ============================================================================ arithmetic
@impl("vector.fma")
def _fma(op: Any, cx: Any):
    a, b, c = cx.slots(op.operands[:3])
    res = cx.slot(op.results[0])
    rt = op.results[0].type
    dt = elem_dtype(op, rt.element_type)
    shape = tuple(rt.shape)

    def step(fr: list) -> None:
        fr[res] = fma_exact(fr[a], fr[b], fr[c], dt).reshape(shape)
    return step


def _kind(op: Any) -> str:
    k = enum_text(op, "kind", "add") or "add"
    return k.lower()


@impl("vector.reduction")
def _reduction(op: Any, cx: Any):
    """All elements combined left to right in row-major order, starting from the accumulator if present
    (float add/mul: ``((acc ∘ x0) ∘ x1) ∘ ...``, each step rounded to the element type)."""
    src = cx.slot(op.operands[0])
    acc_v = opt_operand(op, "acc")
    acc = cx.slot(acc_v) if acc_v is not None else None
    res = cx.slot(op.results[0])
    t = op.results[0].type
    dt = elem_dtype(op, t)
    kind = _kind(op)
    comb = combiner(kind, t, op)
    is_float = isinstance(t, T.FloatType)
    w = 0 if is_float else int_width(t)
    conv = to_scalar_fn(t)

    def step(fr: list) -> None:
        x = np.asarray(fr[src]).reshape(1, -1)
        a = None if acc is None else np.full((1,), fr[acc], dtype=dt)
        r = reduce_last(x, a, comb, dt, kind, is_float, w, t)
        fr[res] = conv(np.asarray(r).reshape(-1)[0])
    return step


@impl("vector.multi_reduction")
def _multi_reduction(op: Any, cx: Any):
    """Reduces ``reduction_dims``; each result element combines its reduced elements sequentially in
    row-major order of the reduced dims, starting from its accumulator element."""
    src = cx.slot(op.operands[0])
    acc = cx.slot(op.operands[1])
    res = cx.slot(op.results[0])
    st = op.operands[0].type
    t = st.element_type
    dt = elem_dtype(op, t)
    dims = sorted(int_list_attr(op, "reduction_dims", "reduction_mask") or [])
    kind = _kind(op)
    comb = combiner(kind, t, op)
    is_float = isinstance(t, T.FloatType)
    w = 0 if is_float else int_width(t)
    keep = [d for d in range(st.rank) if d not in dims]
    order = keep + dims
    out_shape = tuple(st.shape[d] for d in keep)
    nred = 1
    for d in dims:
        nred *= st.shape[d]
    rt = op.results[0].type
    scalar_result = not isinstance(rt, T.VectorType)
    conv = to_scalar_fn(t)
    if st.rank == 2 and len(dims) == 1 and _imex_reduction_rewrite(op, cx.engine):
        return _multi_reduction_as_xetile(op, cx, src, acc, res, dims[0], kind, t, dt)

    def step(fr: list) -> None:
        x = np.transpose(np.asarray(fr[src]), order).reshape(out_shape + (nred,))
        a = np.asarray(fr[acc], dt).reshape(out_shape)
        r = reduce_last(x, a, comb, dt, kind, is_float, w, t)
        r = np.asarray(r, dt).reshape(out_shape)
        fr[res] = conv(r.reshape(-1)[0]) if scalar_result else r
    return step


def _imex_reduction_rewrite(op: Any, engine: Any) -> bool:
    """shared/spec/xetile.md §5 Q15: in a module that contains XeTile ops, IMEX's canonicalization rewrites a 2-D,
    single-dimension ``vector.multi_reduction`` into ``xetile.reduction`` followed by an add of the accumulator,
    for every kind; target parameter ``xetile.pipeline_multi_reduction_acc`` = ``add`` (that rewrite) or ``kind``
    (upstream semantics everywhere)."""
    if engine.target.get("xetile.pipeline_multi_reduction_acc") != "add":
        return False
    root = op
    while root.parent_op() is not None:
        root = root.parent_op()
    return any(o.name.startswith("xetile.") for o in root.walk())


def _multi_reduction_as_xetile(op: Any, cx: Any, src: int, acc: int, res: int, dim: int, kind: str, t: T.Type,
                               dt: Any):
    """IMEX's rewrite (:func:`_imex_reduction_rewrite`): the source reduced as ``xetile.reduction <kind>`` does it
    (its evaluation order, ``xetile.reduction.order``), then ``acc + that`` (arith.addf / addi, one rounding), with
    a warning the first time when the kind is not an add (the result then differs from upstream's)."""
    from xesim.exec.ops.reduction_order import fold_columns, fold_rows

    engine = cx.engine
    f = combiner(kind, t, op)
    add = combiner("add", t, op)
    order = engine.target.get("xetile.reduction.order")
    bits = T.bit_width(t) if not isinstance(t, T.IndexType) else 64
    warned: list[bool] = []

    def step(fr: list) -> None:
        x = np.asarray(fr[src], dt)
        red = fold_rows(x, f)[0] if dim == 0 else fold_columns(x, f, order, bits)[:, 0]
        if kind != "add" and not warned:
            warned.append(True)
            engine.warn(op, f"reduced as IMEX's XeTile pipeline does (xetile.pipeline_multi_reduction_acc = add, "
                            f"shared/spec/xetile.md §5 Q15): <{kind}> of the source, then the accumulator *added*; "
                            "upstream's vector.multi_reduction would combine the accumulator with the kind")
        fr[res] = np.asarray(add(np.asarray(fr[acc], dt), np.asarray(red, dt)), dt)
    return step


def _iterator_types(op: Any) -> list[str]:
    a = op.attributes.get("iterator_types")
    out = []
    for e in getattr(a, "elements", ()):
        if isinstance(e, A.StringAttr):
            out.append(e.value)
        elif isinstance(e, A.DialectAttr):
            out.append(str(e.positional(0)))
        elif isinstance(e, A.EnumValue):
            out.append(e.enum_value)
        else:
            text = str(e)
            out.append("reduction" if "reduction" in text else "parallel")
    return out


@impl("vector.contract")
def _contract(op: Any, cx: Any):
    """Generic contraction: for every parallel index, ``acc ∘ Σ_reduction lhs·rhs`` with the products
    formed in the accumulator's element type and combined in increasing (row-major) reduction order."""
    from xesim.ir import affine as F  # noqa: N812

    ls, rs, accs = cx.slots(op.operands[:3])
    res = cx.slot(op.results[0])
    maps_attr = op.attributes.get("indexing_maps")
    maps = [m.map for m in getattr(maps_attr, "elements", ())]
    iters = _iterator_types(op)
    if len(maps) != 3 or not iters:
        raise compile_error(op, "needs three indexing maps and iterator types")
    for mp in maps:
        if not all(isinstance(e, F.Dim) for e in mp.results):
            raise compile_error(op, f"unsupported indexing map {mp}")
    lmap, rmap, amap = ([e.index for e in mp.results] for mp in maps)
    lt, rt_, at = (v.type for v in op.operands[:3])
    acc_t = T.element_type_of(at)
    dt = elem_dtype(op, acc_t)
    kind = _kind(op)
    comb = combiner(kind, acc_t, op)
    is_float = isinstance(acc_t, T.FloatType)
    w = 0 if is_float else int_width(acc_t)
    n = len(iters)
    sizes = [0] * n
    for mp, ty in ((lmap, lt), (rmap, rt_)):
        for pos, d in enumerate(mp):
            sizes[d] = ty.shape[pos]
    par = [d for d in range(n) if iters[d] == "parallel"]
    red = [d for d in range(n) if iters[d] == "reduction"]
    nred = 1
    for d in red:
        nred *= sizes[d]

    def expand(arr: np.ndarray, mp: list[int]) -> np.ndarray:
        # axes of arr are iteration dims mp; bring to iteration order, insert unit axes for the rest
        order = sorted(range(len(mp)), key=lambda i: mp[i])
        x = np.transpose(arr, order)
        shape = [1] * n
        for d in mp:
            shape[d] = sizes[d]
        return x.reshape(shape)

    l_et, r_et = T.element_type_of(lt), T.element_type_of(rt_)

    def cast(x: np.ndarray, et: T.Type) -> np.ndarray:
        """Extend an operand to the accumulator type (sign-extension unless unsigned; floats exactly)."""
        if not is_float and not isinstance(et, T.FloatType):
            unsigned = isinstance(et, T.IntegerType) and et.signedness == "u"
            bits = to_u(x, int_width(et)) if unsigned else to_s(x, int_width(et))
            return from_bits(bits, acc_t, dt)
        return np.asarray(x).astype(dt)

    par_shape = tuple(sizes[d] for d in par)
    acc_order = [par.index(d) for d in amap]  # acc axis i is parallel dim amap[i]
    scalar_result = not isinstance(op.results[0].type, T.VectorType)
    mul = combiner("mul", acc_t, op)
    conv = to_scalar_fn(acc_t)

    def step(fr: list) -> None:
        lhs = expand(cast(np.asarray(fr[ls]), l_et), lmap)
        rhs = expand(cast(np.asarray(fr[rs]), r_et), rmap)
        full = tuple(sizes)
        with np.errstate(all="ignore"):
            prod = mul(np.broadcast_to(lhs, full), np.broadcast_to(rhs, full))
        prod = np.transpose(np.asarray(prod, dt), par + red).reshape(par_shape + (nred,))
        acc = np.asarray(fr[accs], dt)
        # acc is laid out by amap; bring it to parallel-dim order
        acc_par = np.transpose(acc, np.argsort(acc_order)) if acc.ndim else acc
        r = reduce_last(prod, acc_par.reshape(par_shape), comb, dt, kind, is_float, w, acc_t)
        r = np.asarray(r, dt).reshape(par_shape)
        if scalar_result:
            fr[res] = conv(r.reshape(-1)[0])
        else:
            fr[res] = np.ascontiguousarray(np.transpose(r, acc_order))
    return step
