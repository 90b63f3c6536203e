"""``xegpu.dpas``: ``D = A·B + C`` by the target's DPAS numerics model (spec/pvc-hardware.md §3,
spec/dpas-numerics.md), one implementation over the instance axis (:mod:`xesim.exec.axis`).

* SG, VC and WG levels: the operands are the subgroup's (workgroup's) whole tiles: A ``[M, K]``, B plain ``[K, N]``
  or VNNI ``[K/v, N, v]`` with ``B2d[k][n] = B3d[k/v][n][k%v]``, C and D ``[M, N]``; larger tiles are decomposed
  into hardware instructions in increasing K order (:func:`xesim.numerics.dpas.dpas`); an absent accumulator is
  zero.  Signless integer operands are signed (``i8`` = s8), ``ui*`` unsigned.
* lane level (SIMT, spec/pvc-hardware.md §3.4): subgroup-collective; each lane holds fragments, which
  :class:`xesim.hw.layout.DpasLayout` puts together into the operand matrices (M = the accumulator fragment length,
  N = the execution size, K = systolic depth x ops per channel), and D is split back into fragments.

Many instances (subgroups of a batch, or of a lane-level batch) are one batched model call.  B operands are decoded
once per distinct tile (:mod:`xesim.numerics.tile_classes`: a GEMM batch shares each B tile among its M-dimension
tiles), and the last few B operands are kept for the next DPAS ops of the same step (``b_token``).
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from xesim.decode.xegpu import decode_dpas
from xesim.exec.axis import Varying, active_stack, require_whole_subgroup, scatter_active, stacked
from xesim.exec.faults import ExecFault
from xesim.exec.ops.memref import compile_error
from xesim.exec.ops.xegpu import LANE_LEVEL, _level_guard, _operand
from xesim.exec.registry import impl
from xesim.exec.values import dtype_of
from xesim.hw.layout import DpasLayout, LayoutMapError

#: the B operands of the last batched DPAS ops (SSA values: never changed once made), newest last: a weak reference
#: to the value (the entry goes when the value does; a live referent's identity cannot be a recycled address), the
#: batch size and B as [n, K, N] with its tile classes
_RECENT_B: list = []


def _drop_dead_b(ref: weakref.ref) -> None:
    _RECENT_B[:] = [entry for entry in _RECENT_B if entry[0] is not ref]


def forget_operands() -> None:
    """Release the B operands kept for the next DPAS ops and their decodings (end of a batch)."""
    from xesim.numerics.dpas import forget_reused_b

    _RECENT_B.clear()
    forget_reused_b()


def _batched_b(bv: Any, n: int, vnni: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """B of ``n`` instances as ``[classes or n, K, N]`` with its tile classes (None: one tile per instance)."""
    from xesim.exec.vnni import unpack as unpack_vnni
    from xesim.numerics.tile_classes import tile_classes

    kept = next((kb for kv, kn, kb in _RECENT_B if kv() is bv and kn == n), None)  # one step's ops share B
    if kept is None:
        b, classes = stacked(bv, n), None
        if vnni:  # unpacked once per distinct tile: a GEMM batch shares B among its M-dimension tiles
            classes, firsts = tile_classes(b)
            if firsts is not None:
                b = b[firsts]
            b = unpack_vnni(b)  # [n, K/v, N, v] -> [n, K, N]
        kept = b, classes
        try:
            _RECENT_B.append((weakref.ref(bv, _drop_dead_b), n, kept))
            del _RECENT_B[:-4]
        except TypeError:  # not weakly referable: not kept
            pass
    return kept


class _FragmentsToMatrix:
    """``frags [lanes, fragment] -> matrix`` for one DPAS operand: a precomputed gather when every fragment slot
    holds an element (:meth:`DpasLayout.scatter` otherwise, e.g. the tf32 A padding slots)."""

    def __init__(self, layout: DpasLayout, operand: str) -> None:
        self.layout, self.operand = layout, operand
        idx = layout.index_map(operand)
        self.rows, self.cols = layout.operand_shape(operand)
        self.inv: np.ndarray | None = None
        if not ((idx < 0).any() or idx.size != self.rows * self.cols):
            self.inv = np.empty(self.rows * self.cols, np.int64)
            self.inv[idx.reshape(-1)] = np.arange(idx.size)
        self._composed: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}

    def __call__(self, frags: np.ndarray) -> np.ndarray:
        """``[B, lanes, fragment]`` -> ``[B, rows, cols]``."""
        layout, operand, rows, cols = self.layout, self.operand, self.rows, self.cols
        if self.inv is None:
            return np.stack([layout.scatter(operand, f) for f in frags])
        # np.take returns C order; frags[:, inv] would be laid out batch-innermost, and every later contiguous copy
        # (the DPAS batch) would transpose it
        return np.take(frags.reshape(len(frags), -1), self.inv, axis=1).reshape(len(frags), rows, cols)

    def of_value(self, v: Any, groups: int, lanes: int) -> np.ndarray:
        """The ``[groups, rows, cols]`` matrices of value ``v`` (``groups`` subgroups of ``lanes`` lanes).  For
        fragments made by :meth:`Varying.permuted` from matrices ``base`` the matrix is ``base[:, index[inv]]``:
        one gather of ``base`` instead of two, none when the composed index is the identity (a DPAS result fed
        back as the next accumulator, a block loaded in the operand's layout)."""
        perm = v.perm if isinstance(v, Varying) else None
        if perm is not None and self.inv is not None:
            base, index, count = perm
            if count == groups * lanes and base.shape[0] == groups and index.size == self.inv.size:
                comp = self._compose(index)
                if comp is None and base.shape[1] == index.size:
                    return base.reshape(groups, self.rows, self.cols)
                return np.take(base, index if comp is None else comp, axis=1).reshape(groups, self.rows, self.cols)
        return self(stacked(v, groups * lanes).reshape(groups, lanes, -1))

    def _compose(self, index: np.ndarray) -> np.ndarray | None:
        """``index[inv]``, None when it is the identity (cached per index array: the ops' constants)."""
        got = self._composed.get(id(index))
        if got is None or got[0] is not index:
            comp = index[self.inv]
            got = (index, None if np.array_equal(comp, np.arange(comp.size)) else comp)
            if len(self._composed) > 16:
                self._composed.clear()
            self._composed[id(index)] = got
        return got[1]


@impl("xegpu.dpas", axis=True, threaded=True)
def _dpas(op: Any, cx: Any):
    """``D = A·B + C`` (module docstring)."""
    from xesim.numerics.dpas import DpasCall, model_from_target

    engine = cx.engine
    ks = engine.kstate
    target = engine.target
    _level_guard(op)
    lhs, rhs, acc = _operand(op, "lhs"), _operand(op, "rhs"), _operand(op, "acc")
    lt, bt, rt = lhs.type, rhs.type, op.results[0].type
    shape = decode_dpas(op)
    if shape.simt and cx.group == 1:
        raise compile_error(op, LANE_LEVEL)
    a_name, b_name, c_name, d_name = shape.a_type, shape.b_type, shape.c_type, shape.d_type
    try:
        model = model_from_target(target, engine.config.dpas_model)
    except (ValueError, KeyError) as exc:
        raise compile_error(op, f"no DPAS model: {exc}") from None
    s_a, s_b = cx.slot(lhs), cx.slot(rhs)
    s_c = cx.slot(acc) if acc is not None else None  # no accumulator = the null Src0 register (+0)
    res = cx.slot(op.results[0])
    rdt = dtype_of(rt.element_type)
    call = DpasCall(a_name, b_name, c_name, d_name, model, target)
    in_slots = list(dict.fromkeys(cx.slots(op.operands)))

    def run(a: np.ndarray, b: np.ndarray, c: np.ndarray | None, **kw: Any) -> np.ndarray:
        try:
            return np.asarray(call(a, b, c, **kw)).astype(rdt, copy=False)
        except ValueError as exc:
            raise ExecFault(str(exc)) from None

    if shape.simt:
        return _lane_dpas(op, cx, ks, target, lt, bt, rt, acc, a_name, b_name, s_a, s_b, s_c, res, run)

    m, k = shape.a_shape
    nn = shape.d_shape[1]
    vnni = shape.vnni

    def one(fr: list) -> None:
        b = fr[s_b]
        if vnni:
            b = b.transpose(0, 2, 1).reshape(k, nn)
        c = fr[s_c] if s_c is not None else None
        fr[res] = run(fr[s_a], b, c).reshape(m, nn)

    if cx.width == 1:
        return one

    def step(fr: list) -> None:
        if not any(isinstance(fr[s], Varying) for s in in_slots):
            one(fr)
            return
        n = ks.slots
        if len(ks.mask) != n:  # the active instances (divergent control flow): one call for them
            sel = np.array(ks.mask, np.int64)
            b = active_stack(fr[s_b], sel, n)
            if vnni:
                from xesim.exec.vnni import unpack as unpack_vnni

                b = unpack_vnni(b)
            c = active_stack(fr[s_c], sel, n) if s_c is not None else None
            d = run(active_stack(fr[s_a], sel, n), b, c)
            fr[res] = scatter_active(d.reshape(len(sel), m, nn), sel, n)
            return
        bv = fr[s_b]
        b, classes = _batched_b(bv, n, vnni)
        c = stacked(fr[s_c], n) if s_c is not None else None
        # the Varying stands for B's value: dpas reuses its decoding of B for the next op with it
        d = run(stacked(fr[s_a], n), b, c, b_token=bv, b_classes=classes)
        fr[res] = Varying.from_stack(d.reshape(n, m, nn))

    return step


def _lane_dpas(op: Any, cx: Any, ks: Any, target: Any, lt: Any, bt: Any, rt: Any, acc: Any, a_name: str,
               b_name: str, s_a: int, s_b: int, s_c: int | None, res: int, run: Any):
    """The SIMT form: fragments to matrices and back through the DPAS lane layout (spec/pvc-hardware.md §3.4)."""
    opc = target.dpas.ops_per_channel
    try:
        ops = min(opc[a_name], opc[b_name])
    except KeyError as exc:
        raise compile_error(op, f"no DPAS ops-per-channel entry for {exc.args[0]} "
                                f"({target.source_of('dpas.ops_per_channel')})") from None
    n = target.dpas.exec_size
    k = target.dpas.systolic_depth * ops
    m = rt.shape[0]
    try:
        layout = DpasLayout(m, n, k)
        want = {"A": layout.fragment_length("a"), "B": layout.fragment_length("b"), "D": layout.fragment_length("d")}
    except LayoutMapError as exc:
        raise compile_error(op, str(exc)) from None
    got = {"A": lt.shape[0], "B": bt.shape[0], "D": m}
    if acc is not None:
        got["C"], want["C"] = acc.type.shape[0], want["D"]
    for name, w in want.items():
        if got[name] != w:
            raise compile_error(op, f"the {name} fragment has {got[name]} elements per lane; a {m}x{n}x{k} "
                                    f"{a_name} DPAS needs {w} (spec/pvc-hardware.md §3.4)")
    if n != cx.group:
        raise compile_error(op, f"DPAS execution size {n} differs from the subgroup size")
    to_a, to_b, to_c = (_FragmentsToMatrix(layout, x) for x in ("a", "b", "c"))
    d_flat = layout.index_map("d").reshape(-1)

    def step(fr: list) -> None:
        require_whole_subgroup(ks)
        g = ks.groups
        bv = fr[s_b]
        a = to_a.of_value(fr[s_a], g, n)
        b = to_b.of_value(bv, g, n)
        c = to_c.of_value(fr[s_c], g, n) if s_c is not None else None
        d = run(a, b, c, b_token=bv).reshape(g, -1)  # a new array; the Varying stands for B's value
        fr[res] = Varying.permuted(d, d_flat, g * n)  # fragments on use; the next DPAS takes d as it is

    return step
