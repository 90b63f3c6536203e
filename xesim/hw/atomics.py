"""Atomic read-modify-write on scattered addresses: xegpu.atomic_rmw (spec/pvc-hardware.md §2.4, §6 items 8, 9, 18).

Semantics (:func:`atomic_rmw`): every enabled lane, in increasing lane order, atomically reads one element at
``base + offsets[i] * itemsize``, combines it with ``values[i]`` and writes the result; the lane gets the value
memory held *before* its own operation (VISA-LSC: "the prior memory value is returned per enabled lane", §2.4).
Lanes that hit the same address therefore apply one after the other and see each other's results.  Disabled
lanes neither access memory nor fault and return 0.  Whether the op honours its mask at all is a pipeline
property (``target.atomics.honour_mask``, §6 item 8: the upstream XeGPU->XeVM lowering ignores it, IMEX's VC path
honours it): use :func:`atomic_lane_mask`.

Per kind (MLIR ``arith::AtomicRMWKind`` names):

* ``addi``/``muli`` wrap modulo 2^width; ``andi``/``ori``/``xori`` bitwise; ``maxs``/``mins`` compare the bits
  as signed, ``maxu``/``minu`` as unsigned (ESIMD check_atomic: signedness belongs to the operation, §2.4),
  whatever the numpy dtype's signedness; ``assign`` stores the operand (any type, as bits).
* ``addf``/``mulf`` round once in the element type with round-to-nearest-even.  f32/f64 use numpy's IEEE
  operations.  f16/bf16 are computed in f32 and rounded once to the narrow type: a sum or product of two p-bit
  values rounded to f32 (24 bits >= 2p + 2 for p = 11 and 8) and then to p bits equals the correctly rounded
  result (innocuous double rounding, Figueroa 1995), and f16/bf16 products are even exact in f32.
* ``maximumf``/``minimumf``: IEEE 754-2019 maximum/minimum: a NaN operand gives NaN, -0 < +0.
  ``maxnumf``/``minnumf``: IEEE 754-2019 maximumNumber/minimumNumber: the non-NaN operand wins (NaN only when
  both are NaN), -0 < +0 (MLIR leaves the ±0 case unspecified; xesim orders them).  A NaN result is the
  memory's NaN if memory holds one, else the operand's, with its bits unchanged (not quieted).
  ``target.atomics.float_minmax = "maxnum"`` gives all four kinds the maxNumber rule (the hardware fmax/fmin
  NaN behaviour is undocumented, §6 item 18; X2X emits LLVM ``fmax``/``fmin``, which are maxnum-like).
* ``target.atomics.float_denormals``: ``"preserve"`` (IEEE) or ``"flush"`` (subnormal inputs and results become
  zero of the same sign); undocumented for LSC float atomics, assumed ``preserve``.

Native support (:func:`atomic_native`) is data (``[atomics.native.<space>]`` in the target file, §2.4): PVC has
no multiply atomics, no bf16 atomics, no native SLM float add and only CAS among 64-bit SLM atomics; anything not
native is emulated by the compiler with a compare-and-swap loop, which gives the same values
(:func:`atomic_notes` says so).  The values computed here never depend on native-ness.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from xesim.hw.memory import AddressSpace
from xesim.hw.scatter import SPACES, lane_addresses, lanes_and_mask, resolve_lanes

ATOMIC_KINDS: tuple[str, ...] = (
    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
    "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori",
)
FLOAT_KINDS = frozenset({"addf", "mulf", "maximumf", "maxnumf", "minimumf", "minnumf"})
INT_KINDS = frozenset({"addi", "muli", "andi", "ori", "xori", "maxs", "mins", "maxu", "minu"})
FLOAT_MINMAX_MODES = ("ir", "maxnum")
DENORMAL_MODES = ("preserve", "flush")

_FLOAT_DTYPES = {
    "f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
}
_FLOAT_ALIASES = {"float16": "f16", "half": "f16", "bfloat16": "bf16", "float32": "f32", "float": "f32",
                  "float64": "f64", "double": "f64"}


def type_name(dtype: Any) -> str:
    """Canonical MLIR-style element type name (``i16``, ``i32``, ``i64``, ``f16``, ``bf16``, ``f32``, ``f64`` ...)
    of a type name or numpy dtype.  Integer signedness is dropped (``ui32``/``si32``/``uint32`` -> ``i32``):
    the atomic kind carries it.  ``index`` is 64-bit."""
    if not isinstance(dtype, str):
        dt = np.dtype(dtype)
        if dt.kind in "iu":
            return f"i{dt.itemsize * 8}"
        name = dt.name
    else:
        name = dtype.strip()
    if name == "index":
        return "i64"
    if name in _FLOAT_DTYPES:
        return name
    if name in _FLOAT_ALIASES:
        return _FLOAT_ALIASES[name]
    for prefix in ("ui", "si", "uint", "int", "u", "i"):
        if name.startswith(prefix) and name[len(prefix):].isdigit():
            return f"i{name[len(prefix):]}"
    raise ValueError(f"unknown element type '{dtype}' for an atomic")


def _check_kind_type(kind: str, tname: str) -> None:
    if kind not in ATOMIC_KINDS:
        raise ValueError(f"unknown atomic kind '{kind}' (expected one of {', '.join(ATOMIC_KINDS)})")
    is_float = not tname.startswith("i")
    if kind in FLOAT_KINDS and not is_float:
        raise ValueError(f"atomic kind '{kind}' needs a floating-point element type, not {tname}")
    if kind in INT_KINDS and is_float:
        raise ValueError(f"atomic kind '{kind}' needs an integer element type, not {tname}")


def atomic_native(target: Any, kind: str, dtype_name: Any, space: str) -> bool:
    """Whether the target executes ``atomic_rmw <kind>`` on ``dtype_name`` in ``space`` (``"global"``/``"slm"``)
    as one LSC atomic (§2.4, ``[atomics.lsc_op]`` and ``[atomics.native.<space>]``); otherwise the compiler
    emulates it with a compare-and-swap loop (same values)."""
    if space not in SPACES:
        raise ValueError(f"unknown memory space '{space}' (expected one of {SPACES})")
    tname = type_name(dtype_name)
    _check_kind_type(kind, tname)
    lsc = target.atomics.lsc_op[kind]
    if not lsc:
        return False
    if kind == "assign" and not tname.startswith("i"):
        tname = f"i{_bits(tname)}"  # an exchange moves bits: a float travels as the same-width integer
    table = getattr(target.atomics.native, space)
    return lsc in table and tname in getattr(table, lsc)


def _bits(tname: str) -> int:
    return int(tname.lstrip("bfi"))


def atomic_notes(target: Any, kind: str, dtype_name: Any, space: str) -> list[str]:
    """Explanations worth showing for this atomic on this target: emulation (§2.4) and kinds the upstream
    XeGPU->XeVM lowering has no pattern for (§2.4 X2X)."""
    tname = type_name(dtype_name)
    notes = []
    if not atomic_native(target, kind, tname, space):
        lsc = target.atomics.lsc_op[kind]
        why = f"there is no LSC '{lsc}' atomic for {tname} in {space} memory" if lsc else "LSC has no such atomic"
        notes.append(f"atomic_rmw {kind} on {tname} is not native on {target.name} ({why}, spec/pvc-hardware.md §2.4): "
                     "the compiler emulates it with a compare-and-swap loop, which gives the same values")
    if kind not in target.atomics.xevm_kinds:
        notes.append(f"the upstream XeGPU->XeVM lowering has no pattern for atomic_rmw {kind} "
                     "(spec/pvc-hardware.md §2.4, X2X matchSimpleAtomicOp)")
    return notes


def atomic_lane_mask(target: Any, mask: Any, lanes: int) -> np.ndarray:
    """The lanes that really update memory: ``mask`` if ``target.atomics.honour_mask`` (IMEX VC path), all lanes
    otherwise (upstream XeGPU->XeVM ignores the mask, §2.4 / §6 item 8)."""
    if target.atomics.honour_mask:
        m = np.asarray(mask, dtype=bool)
        return np.full(lanes, bool(m)) if m.ndim == 0 else m.reshape(-1).copy()
    return np.ones(lanes, dtype=bool)


def atomic_options(target: Any) -> dict[str, Any]:
    """Keyword arguments of :func:`atomic_rmw` chosen by the target."""
    return {"float_minmax": target.atomics.float_minmax, "denormals": target.atomics.float_denormals}


# ------------------------------------------------------------------------------------------------- arithmetic
def _flush(x: np.ndarray) -> np.ndarray:
    tiny = float(ml_dtypes.finfo(x.dtype).tiny)
    w = x.astype(np.float64)
    sub = (w != 0) & (np.abs(w) < tiny)
    if not sub.any():
        return x
    out = x.copy()
    out[sub] = np.copysign(0.0, w[sub]).astype(x.dtype)
    return out


def _ordered_pick(a: np.ndarray, b: np.ndarray, want_max: bool) -> np.ndarray:
    """max/min of non-NaN values with -0 < +0 (exact in float64, which holds every supported format)."""
    wa, wb = a.astype(np.float64), b.astype(np.float64)
    sa, sb = np.signbit(wa), np.signbit(wb)
    if want_max:
        take_b = (wb > wa) | ((wb == wa) & sa & ~sb)
    else:
        take_b = (wb < wa) | ((wb == wa) & sb & ~sa)
    return np.where(take_b, b, a)


def _float_op(kind: str, cur: np.ndarray, val: np.ndarray, dt: np.dtype, float_minmax: str) -> np.ndarray:
    if kind in ("addf", "mulf"):
        op = np.add if kind == "addf" else np.multiply
        if dt.itemsize >= 4:
            return op(cur, val).astype(dt)  # IEEE binary32/binary64, round to nearest even
        # f16/bf16: exact operands in f32, one f32 rounding, then one rounding to the narrow type (innocuous).
        return op(cur.astype(np.float32), val.astype(np.float32)).astype(dt)
    want_max = kind.startswith("max")
    picked = _ordered_pick(cur, val, want_max)
    an, bn = np.isnan(cur.astype(np.float64)), np.isnan(val.astype(np.float64))
    if kind in ("maximumf", "minimumf") and float_minmax == "ir":
        return np.where(an, cur, np.where(bn, val, picked))
    return np.where(an & bn, cur, np.where(an, val, np.where(bn, cur, picked)))


def _int_op(kind: str, cur: np.ndarray, val: np.ndarray, dt: np.dtype) -> np.ndarray:
    u = np.dtype(f"u{dt.itemsize}")
    s = np.dtype(f"i{dt.itemsize}")
    cu, vu = cur.view(u), val.view(u)
    if kind == "addi":
        r = cu + vu  # unsigned array arithmetic wraps modulo 2^width
    elif kind == "muli":
        r = cu * vu  # the low half of the product is the same for signed and unsigned operands
    elif kind == "andi":
        r = cu & vu
    elif kind == "ori":
        r = cu | vu
    elif kind == "xori":
        r = cu ^ vu
    elif kind in ("maxs", "mins"):
        f = np.maximum if kind == "maxs" else np.minimum
        r = f(cur.view(s), val.view(s)).view(u)
    else:  # maxu, minu
        f = np.maximum if kind == "maxu" else np.minimum
        r = f(cu, vu)
    return np.ascontiguousarray(r, dtype=u).view(dt)


def apply_kind(kind: str, cur: np.ndarray, val: np.ndarray, dtype: Any, *, float_minmax: str = "ir",
               denormals: str = "preserve") -> np.ndarray:
    """The value an atomic of ``kind`` stores, given memory ``cur`` and operand ``val`` (same-shape arrays of
    ``dtype``).  Element-wise; no memory access."""
    dt = np.dtype(dtype)
    cur = np.ascontiguousarray(cur, dtype=dt)
    val = np.ascontiguousarray(val, dtype=dt)
    if kind == "assign":
        return val.copy()
    if kind in INT_KINDS:
        if dt.kind not in "iu":
            raise ValueError(f"atomic kind '{kind}' needs an integer element type, not {dt}")
        return _int_op(kind, cur, val, dt)
    if kind not in FLOAT_KINDS:
        raise ValueError(f"unknown atomic kind '{kind}' (expected one of {', '.join(ATOMIC_KINDS)})")
    if type_name(dt) not in _FLOAT_DTYPES:
        raise ValueError(f"atomic kind '{kind}' needs an f16, bf16, f32 or f64 element type, not {dt}")
    if float_minmax not in FLOAT_MINMAX_MODES:
        raise ValueError(f"unknown float_minmax '{float_minmax}' (expected one of {FLOAT_MINMAX_MODES})")
    if denormals not in DENORMAL_MODES:
        raise ValueError(f"unknown denormals mode '{denormals}' (expected one of {DENORMAL_MODES})")
    if denormals == "flush":
        cur, val = _flush(cur), _flush(val)
    with np.errstate(all="ignore"):
        r = _float_op(kind, cur, val, dt, float_minmax)
    r = np.ascontiguousarray(r, dtype=dt)
    return _flush(r) if denormals == "flush" else r


# ------------------------------------------------------------------------------------------------- memory
def atomic_rmw(space: AddressSpace, base: int, offsets: np.ndarray, mask: np.ndarray, kind: str, values: np.ndarray,
               dtype: Any, *, float_minmax: str = "ir", denormals: str = "preserve",
               address_bits: int = 64) -> np.ndarray:
    """Per enabled lane, in lane order, read-modify-write the element at ``base + offsets[i] * itemsize``;
    return the old values ``[lanes]`` (0 for disabled lanes).  Every enabled lane is bounds-checked before
    memory changes (:class:`~xesim.hw.scatter.LaneFault` names the first bad lane).  Lanes sharing an address
    apply one after the other: the k-th lane on an address sees the results of the k-1 before it."""
    dt = np.dtype(dtype)
    if kind not in ATOMIC_KINDS:
        raise ValueError(f"unknown atomic kind '{kind}' (expected one of {', '.join(ATOMIC_KINDS)})")
    offs, en = lanes_and_mask(offsets, mask)
    lanes = offs.size
    vals = np.asarray(values)
    vals = (vals if vals.dtype == dt else vals.astype(dt)).reshape(lanes)
    old = np.zeros(lanes, dtype=dt)
    lane_ids = np.flatnonzero(en)
    if lane_ids.size == 0:
        return old
    isz = dt.itemsize
    addrs = lane_addresses(base, offs[lane_ids], isz, address_bits)
    groups = resolve_lanes(space, addrs, lane_ids.tolist(), isz)
    # rank[p] = how many earlier enabled lanes use the same address; round r applies every lane of rank r.
    seen: dict[int, int] = {}
    rank = np.empty(len(addrs), dtype=np.int64)
    for p, a in enumerate(addrs):
        rank[p] = seen.get(a, 0)
        seen[a] = rank[p] + 1
    span = np.arange(isz, dtype=np.int64)
    for r in range(int(rank.max()) + 1):
        for data, pos, boffs in groups:
            sel = rank[pos] == r
            if not sel.any():
                continue
            idx = boffs[sel][:, None] + span
            lanes_r = lane_ids[pos[sel]]
            cur = data[idx].view(dt).reshape(-1)
            new = apply_kind(kind, cur, vals[lanes_r], dt, float_minmax=float_minmax, denormals=denormals)
            old[lanes_r] = cur
            data[idx] = new.view(np.uint8).reshape(-1, isz)
    return old
