"""XeTile value ops (shared/spec/xetile.md §3.6, §3.8–§3.11, Appendix A.1): ``tile_mma``, ``transpose``,
``reduction`` (and the legacy ``reduce``), ``broadcast``, ``convert_layout``, legacy ``tile_pack``/``tile_unpack``.

* ``tile_mma`` (§3.6) is the DPAS numerics model (:func:`xesim.numerics.dpas.dpas`) on the whole tile: output blocks
  of 16 columns, K-chunks of one DPAS instruction's K (f16/bf16 16, tf32 8, 8-bit integers 32) accumulated in
  increasing order, the running sum rounded to the output type after each chunk — IMEX's blocking
  (``xetile.tile_mma.model = dpas_chain``, §5 Q4).  K or N that are not multiples of the DPAS block are zero-padded
  (a warning: IMEX could not compile it).  Many subgroups are one batched model call.  Signless ``i8`` is signed
  (§5 Q5).
* ``reduction`` (§3.9) combines with the vector dialect's combining functions (:func:`xesim.exec.ops.vector.combiner`,
  every step one op in the element type) in IMEX's evaluation order (``xetile.reduction.order = imex``, §5 Q8):
  along dim 0 a left fold over rows; along dim 1 a left fold over the column blocks of width w (the largest divisor
  of C not above 512 / element bits), then a halving tree (lower half ⊕ upper half; an odd length keeps its last
  element for the next round).  ``reduction_size`` on dim 0 groups rows interleaved (IMEX) or contiguously
  (``xetile.reduction.size_dim0``, §5 Q3); on dim 1 contiguously.  Both dims: a row-major left fold.
* ``transpose``, ``broadcast``, ``convert_layout`` (identity), ``tile_pack``/``tile_unpack``
  (``B[a][b][i][j] = M[a·bh + i][b·bw + j]``) are value rearrangements.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.decode.xegpu import dpas_type_name
from xesim.exec.axis import Varying, active_stack, scatter_active, stacked
from xesim.exec.faults import ExecFault
from xesim.exec.ops.memref import compile_error, enum_text
from xesim.exec.ops.reduction_order import fold_columns, fold_rows
from xesim.exec.ops.vector import combiner
from xesim.exec.registry import impl
from xesim.exec.tiles import pack_blocks, unpack_blocks
from xesim.exec.values import dtype_of
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias


def _operand(op: Any, name: str) -> Any:
    g = op.operand_group(name)
    return g[0] if g else None


# ============================================================================ tile_mma
@impl("xetile.tile_mma", axis=True, threaded=True)
def _tile_mma(op: Any, cx: Any):
    """``D = A·B + C`` by the DPAS chain (module docstring)."""
    from xesim.numerics.dpas import DpasCall, geometry, instruction_k, model_from_target

    engine = cx.engine
    ks = engine.kstate
    target = engine.target
    a_v, b_v, c_v = _operand(op, "a"), _operand(op, "b"), _operand(op, "c")
    at, dt_ = a_v.type, op.results[0].type
    a_name, b_name = dpas_type_name(at.element_type), dpas_type_name(b_v.type.element_type)
    d_name = dpas_type_name(dt_.element_type)
    mode = engine.target.get("xetile.tile_mma.model")
    if mode != "dpas_chain":
        raise compile_error(op, f"xetile.tile_mma.model = {mode!r} is not implemented (only 'dpas_chain')")
    try:
        model = model_from_target(target, engine.config.dpas_model)
        kb = instruction_k(a_name, b_name, target)
    except (ValueError, KeyError) as exc:
        raise compile_error(op, f"no DPAS model for {at.element_type} inputs: {exc}") from None
    nb = geometry(target)["exec_size"]
    blocked = at.rank == 4  # legacy 4-D operands (Appendix A.1): the 2-D product of the unpacked matrices
    if blocked:
        m, k = at.shape[0] * at.shape[2], at.shape[1] * at.shape[3]
        n, (bm, bn) = dt_.shape[1] * dt_.shape[3], tuple(dt_.shape[2:])
    else:
        m, k = at.shape
        n, (bm, bn) = dt_.shape[1], (0, 0)
    kp, np_ = -(-k // kb) * kb, -(-n // nb) * nb
    if (kp, np_) != (k, n):
        engine.warn(op, f"K = {k} or N = {n} is not a multiple of the DPAS block (K {kb}, N {nb}): xesim zero-pads, "
                        "IMEX's blocking could not compile it (xetile.md §3.6)")
    call = DpasCall(a_name, b_name, d_name, d_name, model, target)
    rdt = dtype_of(dt_.element_type)
    s_a, s_b = cx.slot(a_v), cx.slot(b_v)
    s_c = cx.slot(c_v) if c_v is not None else None
    res = cx.slot(op.results[0])
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))

    def pad(x: np.ndarray, rows: int, cols: int) -> np.ndarray:
        if x.shape[-2:] == (rows, cols):
            return x
        out = np.zeros((*x.shape[:-2], rows, cols), x.dtype)
        out[..., : x.shape[-2], : x.shape[-1]] = x
        return out

    def run(a: np.ndarray, b: np.ndarray, c: np.ndarray | None) -> np.ndarray:
        if blocked:
            a, b = unpack_blocks(np.asarray(a)), unpack_blocks(np.asarray(b))
            c = unpack_blocks(np.asarray(c)) if c is not None else None
        a, b = pad(np.asarray(a), m, kp), pad(np.asarray(b), kp, np_)
        if c is not None:
            c = pad(np.asarray(c), m, np_)
        try:
            d = np.asarray(call(a, b, c)).astype(rdt, copy=False)
        except ValueError as exc:
            raise ExecFault(str(exc)) from None
        d = d[..., :n] if np_ != n else d
        return pack_blocks(d, bm, bn) if blocked else d

    def one(fr: list) -> None:
        fr[res] = run(fr[s_a], fr[s_b], fr[s_c] if s_c is not None else None)

    if cx.width == 1:
        return one

    def step(fr: list) -> None:
        if not any(isinstance(fr[s], Varying) for s in in_slots):
            one(fr)
            return
        slots = ks.slots
        if len(ks.mask) != slots:
            sel = np.array(ks.mask, np.int64)
            c = active_stack(fr[s_c], sel, slots) if s_c is not None else None
            d = run(active_stack(fr[s_a], sel, slots), active_stack(fr[s_b], sel, slots), c)
            fr[res] = scatter_active(d, sel, slots)
            return
        c = stacked(fr[s_c], slots) if s_c is not None else None
        fr[res] = Varying.from_stack(run(stacked(fr[s_a], slots), stacked(fr[s_b], slots), c))

    return step


def refuse_blocked(op: Any) -> None:
    """A legacy 4-D ``reduction``/``broadcast`` (Appendix A.1) is a located compile error with the reason: the spec
    says they act "element-wise on the unpacked 2-D data" but not which 4-D dims a reduced or broadcast result
    keeps, nor the evaluation order over the blocks, so no value can be given with confidence."""
    if any(isinstance(v.type, T.VectorType) and v.type.rank == 4 for v in (*op.operands, *op.results)):
        raise compile_error(op, "the legacy 4-D blocked form is not supported: xetile.md Appendix A.1 does not define "
                                "the 4-D shape of the result or the evaluation order over blocks; unpack the value "
                                "with xetile.tile_unpack and use the 2-D form")


# ============================================================================ rearrangements
@impl("xetile.transpose")
def _transpose(op: Any, cx: Any):
    """§3.8: ``res[idx] = src[idx']`` with ``idx'[perm[k]] = idx[k]`` (vector.transpose)."""
    perm = tuple(A.int_list(op.attributes["permutation"]) or ())
    s, res = cx.slot(op.operands[0]), cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[res] = np.ascontiguousarray(np.transpose(fr[s], perm))

    return step


@impl("xetile.broadcast")
def _broadcast(op: Any, cx: Any):
    """§3.10: ``res[i][j] = src[0 if 0 in dims else i][0 if 1 in dims else j]``."""
    refuse_blocked(op)
    shape = tuple(op.results[0].type.shape)
    s, res = cx.slot(op.operands[0]), cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[res] = np.ascontiguousarray(np.broadcast_to(fr[s], shape))

    return step


@impl("xetile.convert_layout")
def _convert_layout(op: Any, cx: Any):
    """§3.11: the value is unchanged (the maps only say which subgroup holds which part)."""
    s, res = cx.slot(op.operands[0]), cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[res] = fr[s]

    return step


def _inner_blocks(op: Any) -> tuple[int, int]:
    bh, bw = A.int_list(op.attributes["inner_blocks"]) or (1, 1)
    return bh, bw


@impl("xetile.tile_pack")
def _tile_pack(op: Any, cx: Any):
    """Appendix A.1: ``B[a][b][i][j] = M[a·bh + i][b·bw + j]``."""
    bh, bw = _inner_blocks(op)
    s, res = cx.slot(op.operands[0]), cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[res] = pack_blocks(np.asarray(fr[s]), bh, bw)

    return step


@impl("xetile.tile_unpack")
def _tile_unpack(op: Any, cx: Any):
    """Appendix A.1: the inverse of ``tile_pack``."""
    s, res = cx.slot(op.operands[0]), cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[res] = unpack_blocks(np.asarray(fr[s]))

    return step


# ============================================================================ reduction
@impl("xetile.reduction", "xetile.reduce")
def _reduction(op: Any, cx: Any):
    """§3.9 (module docstring)."""
    refuse_blocked(op)
    engine = cx.engine
    st: T.VectorType = op.operands[0].type
    rt: T.VectorType = op.results[0].type
    et = st.element_type
    kind = enum_text(op, "kind")
    f = combiner(kind, et, op)
    dims = sorted(A.int_list(op.attributes.get("reduction_dims", op.attributes.get("reduction_dim"))) or [])
    size = A.attr_int(op.attributes.get("reduction_size"), 0) or 0
    order = engine.target.get("xetile.reduction.order")
    size_dim0 = engine.target.get("xetile.reduction.size_dim0") if size and dims == [0] else None
    bits = T.bit_width(et) if not isinstance(et, T.IndexType) else 64
    rshape = tuple(rt.shape)
    s, res = cx.slot(op.operands[0]), cx.slot(op.results[0])

    def dim1(x: np.ndarray) -> np.ndarray:
        return fold_columns(x, f, order, bits)

    def step(fr: list) -> None:
        x = np.asarray(fr[s])
        r, c = x.shape
        if not dims:
            out = x
        elif dims == [0, 1]:
            out = fold_rows(x.reshape(-1, 1), f).reshape(1, 1)
        elif size and dims == [1]:
            g = c // size
            out = dim1(x.reshape(r * g, size)).reshape(r, g)
        elif size and dims == [0]:
            g = r // size
            if size_dim0 == "contiguous":
                out = np.stack([fold_rows(x[b * size:(b + 1) * size], f)[0] for b in range(g)])
            else:  # interleaved: rows t·g + b form group b (reshape [s, g·C], reduce dim 0, reshape [g, C])
                out = fold_rows(x.reshape(size, g * c), f).reshape(g, c)
        elif dims == [0]:
            out = fold_rows(x, f)
        else:
            out = dim1(x)
        fr[res] = np.ascontiguousarray(np.asarray(out).reshape(rshape))

    return step
