"""XeGPU ops of the microscaling (MX) formats and the lane-level ops of today's upstream dialect
(shared/spec/upstream-xegpu-xevm.md §2.9–§2.11, §5): ``dpas_mx``, ``truncf``, ``lane_shuffle``.

* ``xegpu.truncf``: element-wise narrowing, round to nearest even, special values as ``arith.truncf`` (§2.10,
  §5.2 A) — the rules of :mod:`xesim.numerics.conversions`; to ``f8E8M0FNU`` by the target's
  ``mx.e8m0_truncf`` rule (:mod:`xesim.numerics.mx`).
* ``xegpu.dpas_mx`` (§2.9, §5.3): the block-scaled DPAS of :func:`xesim.numerics.mx.dpas_mx` under the target's
  ``dpas_mx.numerics`` model.  Subgroup/workgroup level: A ``[.., M, K]``, B ``[.., K, N]`` or VNNI
  ``[.., K/v, N, v]`` (``B[k][n] = Bp[k/v][n][k%v]``), C/D ``[.., M, N]`` (leading batch dims run one by one);
  scales ``[.., M, KS]`` / ``[.., KS, N]`` or scalars (one code for all of A / B).  Lane level (§2.20, §4.6),
  subgroup-collective, M = the accumulator fragment length, N = 16 lanes, K = 16 × A's per-lane elements / M:
  lane ``i`` holds ``A[r][i·q + p]`` at component ``r·q + p`` (q = K / 16), column ``i`` of B in k order, column
  ``i`` of C/D; scale_a of row ``i`` on lane ``i < M`` (lanes ≥ M ignored), scale_b of column ``i`` on lane ``i``,
  a scalar or a vector with component s for K block s.  On a target without the scaled instruction
  (``dpas_mx.available = false``: pvc, bmg, §4.12) the op still runs, with a warning (an error under ``--strict``).
* ``xegpu.lane_shuffle`` (§2.11), subgroup-collective: with S lanes of N elements, ``pack`` gives lane i element
  j the element lane ``(i·N+j) mod S`` held at ``(i·N+j) div S``; ``unpack`` is its inverse.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.axis import Varying, lift, require_whole_subgroup, stacked
from xesim.exec.faults import ExecFault
from xesim.exec.ops.memref import compile_error, enum_text
from xesim.exec.ops.xegpu import _level_guard, _operand
from xesim.exec.registry import impl
from xesim.exec.values import dtype_of
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.numerics import conversions as C
from xesim.numerics import mx

E8M0 = "f8E8M0FNU"


# ============================================================================ truncf
def narrow(x: Any, dst: str, e8m0_rule: str) -> np.ndarray:
    """``x`` rounded to float type ``dst`` (RNE; E8M0 by ``e8m0_rule``)."""
    if dst == E8M0:
        return mx.truncf_e8m0(x, e8m0_rule).view(dtype_of(T.FloatType(E8M0)))
    return C.round_float(x, dst)


@impl("xegpu.truncf")
def _truncf(op: Any, cx: Any):
    """Element-wise narrowing (module docstring)."""
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    dst = T.element_type_of(op.results[0].type).name
    rule = cx.engine.target.get("mx.e8m0_truncf") if dst == E8M0 else ""

    def step(fr: list) -> None:
        fr[o] = narrow(fr[a], dst, rule)

    return step


# ============================================================================ dpas_mx
def _scale_codes(v: Any, rows: int, cols: int, along_rows: bool) -> np.ndarray | None:
    """A scale operand as ``[rows, cols]`` codes (a scalar is broadcast); None for an absent scale."""
    if v is None:
        return None
    c = mx.e8m0_codes(v)
    if c.ndim == 0:
        return np.full((rows, cols), int(c), np.uint8)
    return c


def _unpack_b(b: np.ndarray, vnni: bool) -> np.ndarray:
    if not vnni:
        return b
    kv, n, v = b.shape[-3:]
    return np.swapaxes(b, -1, -2).reshape(*b.shape[:-3], kv * v, n)


def _model(a: np.ndarray, b: np.ndarray, c: Any, sa: Any, sb: Any, dst: str, model: str) -> np.ndarray:
    """:func:`xesim.numerics.mx.dpas_mx`; operands it cannot pair (K not a multiple of the scale blocks) are a
    fault naming the rule, not an internal error."""
    try:
        return mx.dpas_mx(a, b, c, sa, sb, dst, model)
    except ValueError as exc:
        raise ExecFault(f"{exc} (block-scaled DPAS: K / KS elements share a scale, upstream-xegpu-xevm.md §2.9)") \
            from None


def _tile(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, sa: Any, sb: Any, dst: str, model: str) -> np.ndarray:
    """One (unbatched) D tile from whole-tile operands."""
    m, k = a.shape
    n = b.shape[1]
    ks = next((np.asarray(s).shape[-1] if i == 0 else np.asarray(s).shape[-2]
               for i, s in enumerate((sa, sb)) if s is not None and np.asarray(s).ndim >= 2), 1)
    return _model(a, b, c, _scale_codes(sa, m, ks, True), _scale_codes(sb, ks, n, False), dst, model)


def _batch_part(v: Any, idx: tuple) -> Any:
    """Batch ``idx`` of a batched operand (scalars and 2-D values serve every batch)."""
    return None if v is None else (np.asarray(v)[idx] if np.ndim(v) > 2 else v)


@impl("xegpu.dpas_mx", axis=True)
def _dpas_mx(op: Any, cx: Any):
    """Block-scaled DPAS (module docstring)."""
    engine = cx.engine
    ks = engine.kstate
    _level_guard(op)
    target = engine.target
    model = target.get("dpas_mx.numerics")
    if not target.get("dpas_mx.available"):
        engine.warn(op, f"the target {target.name} has no scaled DPAS (upstream-xegpu-xevm.md §4.12: only cri "
                        f"has it); dpas_mx runs with the '{model}' model of dpas_mx.numerics")
    lhs, rhs, acc = _operand(op, "lhs"), _operand(op, "rhs"), _operand(op, "acc")
    sa_v, sb_v = _operand(op, "scale_a"), _operand(op, "scale_b")
    at, bt, rt = lhs.type, rhs.type, op.results[0].type
    dst = rt.element_type.name
    slots = [cx.slot(v) if v is not None else None for v in (lhs, rhs, acc, sa_v, sb_v)]
    res = cx.slot(op.results[0])
    for v in (sa_v, sb_v):
        if v is not None and isinstance(v.type, T.VectorType) and v.type.rank == 1 and at.rank > 1:
            raise compile_error(op, "a 1-D scale with whole-tile (subgroup-level) operands is not supported: "
                                    "give scales as [M, K/32] / [K/32, N] or as scalars")
    if at.rank == 1:
        if cx.group == 1:
            raise compile_error(op, "lane-level dpas_mx (1-D fragments) needs a lane-level kernel")
        return _lane_dpas_mx(op, cx, ks, slots, res, at, bt, rt, dst, model)
    vnni = bt.rank == at.rank + 1
    lead = tuple(rt.shape[:-2])

    def one(fr: list) -> None:
        a, b = np.asarray(fr[slots[0]]), _unpack_b(np.asarray(fr[slots[1]]), vnni)
        c = np.asarray(fr[slots[2]]) if slots[2] is not None else None
        sa = fr[slots[3]] if slots[3] is not None else None
        sb = fr[slots[4]] if slots[4] is not None else None
        out = np.empty(rt.shape, dtype_of(rt.element_type))
        for idx in np.ndindex(lead):
            out[idx] = _tile(a[idx], b[idx], _batch_part(c, idx), _batch_part(sa, idx), _batch_part(sb, idx), dst,
                             model)
        fr[res] = out

    return one if cx.width == 1 else lift(op, cx, one)


def _lane_dpas_mx(op: Any, cx: Any, ks: Any, slots: list, res: int, at: Any, bt: Any, rt: Any, dst: str,
                  model: str):
    m = rt.shape[0]
    lanes = cx.group
    if at.shape[0] % m or bt.shape[0] != (at.shape[0] // m) * lanes:
        raise compile_error(op, f"lane fragments {at}, {bt}, {rt} do not form an MxK · KxN DPAS with N = {lanes} "
                                f"lanes (upstream-xegpu-xevm.md §2.20: A holds M rows of K/{lanes} elements, B "
                                "holds one column of K)")
    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        g = ks.groups
        total = g * lanes

        def lanes_of(s: int | None) -> np.ndarray | None:
            return None if s is None else stacked(fr[s], total).reshape(g, lanes, -1)

        af, bf, cf, saf, sbf = (lanes_of(s) for s in slots)
        out = np.empty((g, lanes, m), dtype_of(rt.element_type))
        for gi in range(g):
            out[gi] = lane_dpas_mx(af[gi], bf[gi], cf[gi] if cf is not None else None,
                                   saf[gi] if saf is not None else None, sbf[gi] if sbf is not None else None,
                                   m, dst, model)
        fr[res] = Varying.from_stack(out.reshape(total, m))

    return step


def lane_dpas_mx(af: np.ndarray, bf: np.ndarray, cf: np.ndarray | None, saf: np.ndarray | None,
                 sbf: np.ndarray | None, m: int, dst: str, model: str) -> np.ndarray:
    """One subgroup's block-scaled DPAS on lane fragments (module docstring; also ``xevm.mma_mx``): ``af [lanes,
    M·q]`` (lane i: ``A[r][i·q + p]`` at ``r·q + p``), ``bf [lanes, K]`` (column i in k order), ``cf [lanes, M]``,
    scale codes ``saf [lanes, KS]`` (lane i < M: row i's) and ``sbf [lanes, KS]`` (lane i: column i's); returns
    the D fragments ``[lanes, M]``."""
    lanes = af.shape[0]
    q = af.shape[1] // m
    a = af.reshape(lanes, m, q).transpose(1, 0, 2).reshape(m, q * lanes)
    b = bf.T
    c = cf.T if cf is not None else None
    sa = mx.e8m0_codes(saf[:m]) if saf is not None else None
    sb = mx.e8m0_codes(sbf).T if sbf is not None else None
    return _model(a, b, c, sa, sb, dst, model).T


# ============================================================================ lane_shuffle
def shuffle_fragments(frags: np.ndarray, mode: str) -> np.ndarray:
    """``[S, N]`` lane fragments of one subgroup after ``pack`` / ``unpack`` (module docstring)."""
    s, n = frags.shape
    pos = np.arange(s)[:, None] * n + np.arange(n)[None, :]  # i·N + j
    if mode == "pack":
        return frags[pos % s, pos // s]
    # unpack: lane i element j <- lane (j·S+i) div N, element (j·S+i) mod N
    src = np.arange(n)[None, :] * s + np.arange(s)[:, None]
    return frags[src // n, src % n]


@impl("xegpu.lane_shuffle", axis=True)
def _lane_shuffle(op: Any, cx: Any):
    """Subgroup-collective pack / unpack of lane fragments (module docstring)."""
    if cx.group == 1:
        raise compile_error(op, "xegpu.lane_shuffle exchanges elements between the lanes of a subgroup: it needs "
                                "lane-level code")
    ks = cx.engine.kstate
    mode = (enum_text(op, "mode") or "").split()[-1]
    if mode not in ("pack", "unpack"):
        raise compile_error(op, f"unknown lane_shuffle mode {mode!r}")
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    n = op.operands[0].type.num_elements

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        lanes, g = ks.group, ks.groups
        frags = stacked(fr[a], g * lanes).reshape(g, lanes, n)
        out = np.stack([shuffle_fragments(frags[i], mode) for i in range(g)])
        if out.shape[0] * out.shape[1] != len(ks.full):
            raise ExecFault("lane_shuffle needs every lane of the subgroup")
        fr[o] = Varying.from_stack(out.reshape(g * lanes, *op.results[0].type.shape))

    return step
