"""``--check-distribution``: a workgroup-level XeTile program's whole-tile execution against its distributed view
(shared/spec/xetile.md §4; issue 31 part (c), the check tests/unit/test_workgroup_views.py makes for XeGPU's
workgroup level).

xesim runs a ``wg_map`` program once per workgroup on whole tiles (§1.3, ``xetile.wg.semantics = whole_tile``).
IMEX's ``xetile-wg-to-sg`` instead gives every subgroup the ordered list of its ``sg_data`` sub-tiles of each value
(§4.3, :class:`xesim.hw.layout.XeTileWgMap`) and rewrites each op into per-sub-tile ops (§4.4).  After every op of
such a kernel this observer computes what each subgroup's distributed ops produce — from the whole-tile operand
values cut into that subgroup's sub-tiles by the map of the operand's *producer* (:func:`xesim.exec.xetile_wg.
value_map`, §4.1) and its subgroup numbering (row-major, or column-major under the transposed-load rule, §4.2) —
and compares it, bit for bit, with the whole-tile result cut by the result's map.  The first disagreement is a
located error naming the op, the subgroup, its sub-tile and the element.

Per op (§4.4):

* ``load_tile``: each sub-tile of the tile is loaded through the 2-D block model (:class:`xesim.exec.ops.xetile.
  _Surface`) and compared with the result's sub-tiles;
* ``store_tile``: value sub-tile ``i`` is written into tile sub-tile ``i``; each must equal the whole value there,
  and together the subgroups must write every in-bounds element the whole-tile store writes;
* ``tile_mma``: for each A sub-tile, for each B sub-tile (A outer), ``D = tile_mma(a, b, next C)`` through the DPAS
  model (every subgroup's sub-tiles in one batched call), compared with D's sub-tiles by ``wg_map_c``;
* ``convert_layout``: each subgroup stores its source sub-tile at ``((s div L1)·D0, (s mod L1)·D1)`` of an SLM
  buffer, then loads its result sub-tile at ``(((s div L1')·D0') mod H, ((s mod L1')·D1') mod W)``; reading an
  element nobody wrote or a value other than the whole-tile result is an error;
* ops with a ``map`` (``arith``/``math`` element-wise ops, ``vector.transpose``/``broadcast``/``multi_reduction``):
  every operand sub-tile must be the whole operand at the positions the result sub-tile needs (element-wise: the
  same positions; ``transpose``: the transposed ones; ``broadcast``: the row or column broadcast; a
  ``multi_reduction``: the whole reduced extent — IMEX reduces each subgroup's own block); an ``arith.constant``'s
  sub-tile is the first ``D0·D1`` elements of the dense value (correct for splats only, §4.5);
* ``scf.yield`` of an ``scf.for``: a loop-carried value must keep its sub-tiles from one iteration to the next.

Ops on workgroup values that WgToSg cannot distribute (``xetile.reduction``/``broadcast``/``transpose``,
``atomic_rmw``, gathers/scatters, ``array_length`` loads) are not checked: a warning says so once per op.  Only
2-D values are distributed here (a 1-D reduction result is not compared; its 2-D inputs are).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from xesim.exec import xetile_wg
from xesim.exec.faults import ExecFault
from xesim.exec.hooks import Observer
from xesim.hw.layout import XeTileWgMap
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

Check = Callable[[list], None]
ELEMENTWISE_VECTOR = ("vector.shape_cast", "vector.create_mask")
UNDISTRIBUTED = ("xetile.reduction", "xetile.reduce", "xetile.broadcast", "xetile.transpose", "xetile.atomic_rmw",
                 "xetile.load", "xetile.store", "xetile.tile_pack", "xetile.tile_unpack")


class DistributionCheck(Observer):
    """The observer (module docstring); ``checked`` counts op executions compared, per op name."""

    name = "the distribution check (--check-distribution)"
    per_instance = True

    def __init__(self) -> None:
        self.checked: dict[str, int] = {}

    def instrument(self, op: Any, cx: Any, step: Any, is_term: bool) -> Any:
        plan = _Plan.of(cx)
        if plan is None:
            return step
        check = plan.rule(op)
        if check is None:
            return step
        counts = self.checked
        name = op.name
        inner = step if step is not None else _noop

        if is_term:
            def term(fr: list) -> Any:
                check(fr)
                counts[name] = counts.get(name, 0) + 1
                return inner(fr)

            return term

        def wrapped(fr: list) -> None:
            inner(fr)
            check(fr)
            counts[name] = counts.get(name, 0) + 1

        return wrapped

    def save(self) -> Any:
        return dict(self.checked)

    def restore(self, state: Any) -> None:
        self.checked = dict(state)

    def report(self) -> str:
        total = sum(self.checked.values())
        ops = ", ".join(f"{n} {k}" for k, n in sorted(self.checked.items()))
        return f"xesim: distribution check: {total} op execution(s) agree with their distributed view ({ops or 'none'})"


def _noop(fr: list) -> None:
    return None


class _Plan:
    """Compile-time facts of one workgroup-level XeTile kernel: the column-major numbered values, the engine."""

    def __init__(self, cx: Any) -> None:
        self.cx = cx
        self.engine = cx.engine
        self.colmajor = xetile_wg.column_major_values(cx.func_op)

    @staticmethod
    def of(cx: Any) -> _Plan | None:
        if not hasattr(cx, "_xetile_dist_plan"):
            from xesim.exec.levels import xetile_level

            func = cx.func_op
            wg = func is not None and func.name == "gpu.func" and xetile_level(func) == "workgroup"
            cx._xetile_dist_plan = _Plan(cx) if wg else None
        return cx._xetile_dist_plan

    # ------------------------------------------------------------------------------------------ helpers
    def dist(self, v: Any) -> tuple[XeTileWgMap, bool] | None:
        """The map and numbering (column-major or not) of a 2-D workgroup value, else None."""
        t = v.type
        if not (isinstance(t, (T.TileType, T.VectorType)) and len(t.shape) == 2):
            return None
        m = xetile_wg.value_map(v)
        return None if m is None else (m, id(v) in self.colmajor)

    def subgroups(self) -> int:
        return int(self.engine.kstate.num_subgroups)

    def rule(self, op: Any) -> Check | None:
        name = op.name
        wg_vals = [v for v in (*op.operands, *op.results) if self.dist(v) is not None]
        if name == "scf.yield":
            parent = op.parent_op()
            return self._yield(op, parent) if parent is not None and parent.name == "scf.for" else None
        if not wg_vals or name in ("xetile.init_tile", "xetile.update_tile_offset", "xetile.prefetch_tile",
                                   "scf.for"):
            return None
        if name == "xetile.load_tile" and op.operands[0].type.array_length == 1:
            return self._load_tile(op)
        if name == "xetile.store_tile":
            return self._store_tile(op)
        if name == "xetile.tile_mma":
            return self._tile_mma(op)
        if name == "xetile.convert_layout":
            return self._convert_layout(op)
        if name == "arith.constant":
            return self._constant(op)
        if name in ("vector.transpose", "vector.broadcast", "vector.multi_reduction") or (
                len(op.results) == 1 and self.dist(op.results[0]) is not None and name not in UNDISTRIBUTED
                and (_elementwise(op) or name in ELEMENTWISE_VECTOR)):
            return self._positional(op)
        return self._unchecked(op)

    def _unchecked(self, op: Any) -> Check:
        engine = self.engine

        def warn(fr: list) -> None:
            engine.warn(op, "not compared with its distributed view: IMEX's xetile-wg-to-sg has no distribution "
                            "for this op on workgroup values (xetile.md §4.1, §4.4)")

        return warn

    # ------------------------------------------------------------------------------------------ memory ops
    def _load_tile(self, op: Any) -> Check:
        from xesim.exec.ops.xetile import _Surface, elem_info

        tile_v, res_v = op.operands[0], op.results[0]
        dt, _ = elem_info(op, tile_v.type.element_type)
        s_t, s_r = self.cx.slot(tile_v), self.cx.slot(res_v)
        td, rd = self.dist(tile_v), self.dist(res_v)

        def check(fr: list) -> None:
            t, whole = fr[s_t], np.asarray(fr[s_r])
            for s in range(self.subgroups()):
                got = [(y, x, _Surface(replace(t, row0=t.row0 + y, col0=t.col0 + x), *td[0].sg_data).load(dt))
                       for y, x in _blocks(td, whole.shape, s)]
                _compare(op, s, got, _pieces(whole, rd, s), "load_tile result")

        return check

    def _store_tile(self, op: Any) -> Check:
        val_v, tile_v = op.operand_group("value")[0], op.operand_group("tile")[0]
        s_v, s_t = self.cx.slot(val_v), self.cx.slot(tile_v)
        vd, td = self.dist(val_v), self.dist(tile_v)

        def check(fr: list) -> None:
            whole, t = np.asarray(fr[s_v]), fr[s_t]
            h, w = whole.shape
            _, _, inb = t.coordinates(h, w)
            written = np.zeros((h, w), bool)
            if vd is None:
                raise ExecFault("the stored value has no wg_map, so no subgroup holds a part of it (xetile.md §4.1)",
                                op)
            for s in range(self.subgroups()):
                vals, dests = _pieces(whole, vd, s), _blocks(td, (h, w), s)
                if len(vals) != len(dests):
                    raise ExecFault(f"subgroup {s} holds {len(vals)} sub-tile(s) of the value but {len(dests)} of the "
                                    "tile; IMEX's store_tile pairs them one to one (xetile.md §4.4)", op)
                for (vy, vx, piece), (y, x) in zip(vals, dests, strict=True):
                    want = whole[y:y + piece.shape[0], x:x + piece.shape[1]]
                    mask = inb[y:y + piece.shape[0], x:x + piece.shape[1]]
                    _compare_one(op, s, (y, x), piece, want, mask, f"value sub-tile at ({vy}, {vx}) stored at")
                    written[y:y + piece.shape[0], x:x + piece.shape[1]] = True
            missing = inb & ~written
            if missing.any():
                i, j = (int(k) for k in np.argwhere(missing)[0])
                raise ExecFault(f"tile element ({i}, {j}) is written by the whole-tile store but by no subgroup of the "
                                f"distributed program (wg_map {_map_text(td[0])}; xetile.md §4.3)", op)

        return check

    # ------------------------------------------------------------------------------------------ compute
    def _tile_mma(self, op: Any) -> Check:
        from xesim.decode.xegpu import dpas_type_name
        from xesim.exec.values import dtype_of
        from xesim.numerics.dpas import DpasCall, model_from_target

        a_v, b_v = op.operand_group("a")[0], op.operand_group("b")[0]
        c_g = op.operand_group("c")
        c_v = c_g[0] if c_g else None
        d_v = op.results[0]
        engine = self.engine
        d_name = dpas_type_name(d_v.type.element_type)
        call = DpasCall(dpas_type_name(a_v.type.element_type), dpas_type_name(b_v.type.element_type), d_name, d_name,
                        model_from_target(engine.target, engine.config.dpas_model), engine.target)
        rdt = dtype_of(d_v.type.element_type)
        slots = [self.cx.slot(v) if v is not None else None for v in (a_v, b_v, c_v, d_v)]
        dists = [self.dist(v) if v is not None else None for v in (a_v, b_v, c_v, d_v)]
        k = a_v.type.shape[1]

        def check(fr: list) -> None:
            a, b, d = (np.asarray(fr[slots[i]]) for i in (0, 1, 3))
            c = np.asarray(fr[slots[2]]) if slots[2] is not None else None
            for i, what in ((0, "A"), (1, "B"), (3, "D")):
                if dists[i] is None:
                    raise ExecFault(f"{what} has no wg_map (xetile.md §4.1)", op)
            jobs, wants = [], []
            for s in range(self.subgroups()):
                a_list, b_list, d_list = _pieces(a, dists[0], s), _pieces(b, dists[1], s), _pieces(d, dists[3], s)
                c_list = _pieces(c, dists[2], s) if c is not None and dists[2] is not None else None
                pairs = [(pa, pb) for pa in a_list for pb in b_list]
                if len(pairs) != len(d_list) or (c_list is not None and len(c_list) != len(pairs)):
                    raise ExecFault(f"subgroup {s} holds {len(a_list)} A and {len(b_list)} B sub-tile(s), so IMEX's "
                                    f"tile_mma makes {len(pairs)} products, but it holds {len(d_list)} D"
                                    f"{'' if c_list is None else f' and {len(c_list)} C'} sub-tile(s) (xetile.md §4.4)",
                                    op)
                for n, ((_, _, pa), (_, _, pb)) in enumerate(pairs):
                    if pa.shape[1] != k or pb.shape[0] != k:
                        raise ExecFault(f"subgroup {s}: its A sub-tile ({list(pa.shape)}) or B sub-tile "
                                        f"({list(pb.shape)}) does not cover the whole K = {k}; IMEX's tile_mma needs "
                                        "it (xetile.md §4.4)", op)
                    dy, dx, want = d_list[n]
                    jobs.append((pa, pb, c_list[n][2] if c_list is not None else None))
                    wants.append((s, dy, dx, want))
            if not jobs:
                return
            shapes = {(j[0].shape, j[1].shape) for j in jobs}
            if len(shapes) == 1 and all((j[2] is None) == (jobs[0][2] is None) for j in jobs):
                cs = None if jobs[0][2] is None else np.stack([j[2] for j in jobs])
                out = np.asarray(call(np.stack([j[0] for j in jobs]), np.stack([j[1] for j in jobs]), cs))
                outs = list(out.astype(rdt, copy=False))
            else:
                outs = [np.asarray(call(j[0], j[1], j[2])).astype(rdt, copy=False) for j in jobs]
            for (s, dy, dx, want), got in zip(wants, outs, strict=True):
                _compare_one(op, s, (dy, dx), got, want, None, "D sub-tile computed from its A, B and C sub-tiles at")

        return check

    def _convert_layout(self, op: Any) -> Check:
        src_v, res_v = op.operands[0], op.results[0]
        s_s, s_r = self.cx.slot(src_v), self.cx.slot(res_v)
        src_map = xetile_wg.as_map(op.attributes.get("wg_map_source"))
        sd = (src_map, id(src_v) in self.colmajor) if src_map is not None else self.dist(src_v)
        rd = self.dist(res_v)

        def check(fr: list) -> None:
            whole, res = np.asarray(fr[s_s]), np.asarray(fr[s_r])
            if sd is None or rd is None:
                raise ExecFault("convert_layout needs the source's and the result's wg_map (xetile.md §4.4)", op)
            h, w = whole.shape
            slm = np.zeros_like(whole)
            wrote = np.zeros((h, w), bool)
            (_, l1), (d0, d1) = sd[0].sg_layout, sd[0].sg_data
            n = self.subgroups()
            for s in range(n):
                src = _pieces(whole, sd, s)
                if not src:
                    continue
                y, x = (s // l1) * d0, (s % l1) * d1
                if y + d0 > h or x + d1 > w:
                    raise ExecFault(f"subgroup {s} would store its source sub-tile at ({y}, {x}), outside the "
                                    f"{h}x{w} SLM buffer (xetile.md §4.4)", op)
                slm[y:y + d0, x:x + d1] = src[0][2]
                wrote[y:y + d0, x:x + d1] = True
            (_, r1), (e0, e1) = rd[0].sg_layout, rd[0].sg_data
            for s in range(n):
                y, x = ((s // r1) * e0) % h, ((s % r1) * e1) % w
                if not wrote[y:y + e0, x:x + e1].all():
                    i, j = (int(k) for k in np.argwhere(~wrote[y:y + e0, x:x + e1])[0])
                    raise ExecFault(f"subgroup {s} loads element ({y + i}, {x + j}) of the SLM buffer, which no "
                                    "subgroup stored (xetile.md §4.4)", op)
                _compare_one(op, s, (y, x), slm[y:y + e0, x:x + e1], res[y:y + e0, x:x + e1], None,
                             "result sub-tile loaded through SLM at")

        return check

    def _constant(self, op: Any) -> Check:
        res_v = op.results[0]
        s_r = self.cx.slot(res_v)
        rd = self.dist(res_v)

        def check(fr: list) -> None:
            whole = np.asarray(fr[s_r])
            d0, d1 = rd[0].sg_data
            first = whole.reshape(-1)[: d0 * d1]
            for s in range(self.subgroups()):
                for y, x, want in _pieces(whole, rd, s):
                    if first.size != want.size:
                        raise ExecFault(f"subgroup {s}: the constant has fewer than {d0 * d1} elements", op)
                    _compare_one(op, s, (y, x), first.reshape(want.shape), want, None,
                                 "constant sub-tile (IMEX: the first sg_data elements of the dense value, xetile.md "
                                 "§4.4) at")

        return check

    def _positional(self, op: Any) -> Check:
        """Element-wise ops, transposes, broadcasts and reductions with ``map`` (module docstring)."""
        res_v = op.results[0]
        s_r = self.cx.slot(res_v)
        rd = self.dist(res_v)
        ins = [(i, v, self.cx.slot(v), self.dist(v)) for i, v in enumerate(op.operands)
               if isinstance(v.type, T.VectorType) and v.type.rank == 2]
        name = op.name
        reduced: tuple[int, ...] = ()
        if name == "vector.multi_reduction":
            reduced = tuple(A.int_list(op.attributes.get("reduction_dims")) or ())
        perm = tuple(A.int_list(op.attributes.get("permutation")) or ()) if name == "vector.transpose" else ()

        def need(i: int, whole_in: np.ndarray, y: int, x: int, shape: tuple[int, ...]) -> np.ndarray:
            """The whole operand ``i`` at the positions result sub-tile (y, x) of ``shape`` needs."""
            if name == "vector.transpose" and i == 0:
                return np.transpose(whole_in, perm)[y:y + shape[0], x:x + shape[1]].transpose(np.argsort(perm))
            if name == "vector.broadcast" and i == 0:
                ys = slice(0, 1) if whole_in.shape[0] == 1 else slice(y, y + shape[0])
                xs = slice(0, 1) if whole_in.shape[1] == 1 else slice(x, x + shape[1])
                return whole_in[ys, xs]
            if name == "vector.multi_reduction" and i == 0:
                if reduced == (1,):
                    return whole_in[y:y + shape[0], :]
                if reduced == (0,):
                    return whole_in[:, x:x + shape[-1]]
                return whole_in
            return whole_in[y:y + shape[0], x:x + shape[1]]

        def check(fr: list) -> None:
            res = np.asarray(fr[s_r])
            if res.ndim != 2:
                return  # a 1-D reduction result: the operands' checks cover its inputs
            for i, _v, _slot, d in ins:
                if d is None:
                    raise ExecFault(f"operand #{i} has no wg_map, so no subgroup holds a part of it (xetile.md §4.1)",
                                    op)
            for s in range(self.subgroups()):
                outs = _pieces(res, rd, s)
                for i, _v, slot, d in ins:
                    whole_in = np.asarray(fr[slot])
                    parts = _pieces(whole_in, d, s)
                    if len(parts) != len(outs):
                        raise ExecFault(f"subgroup {s} holds {len(parts)} sub-tile(s) of operand #{i} but "
                                        f"{len(outs)} of the result (wg_maps {_map_text(d[0])} and "
                                        f"{_map_text(rd[0])}; xetile.md §4.4)", op)
                    for (py, px, piece), (y, x, out) in zip(parts, outs, strict=True):
                        want = need(i, whole_in, y, x, out.shape)
                        _compare_one(op, s, (py, px), piece, want, None, f"operand #{i} sub-tile at", needed=True,
                                     extra=f" (for its result sub-tile at ({y}, {x}))")

        return check

    def _yield(self, op: Any, loop: Any) -> Check | None:
        body = loop.regions[0].blocks[0]
        pairs = [(i, v, self.dist(v), self.dist(body.args[i + 1]), tuple(v.type.shape))
                 for i, v in enumerate(op.operands) if isinstance(v.type, (T.VectorType, T.TileType))]
        pairs = [p for p in pairs if p[2] is not None or p[3] is not None]
        if not pairs:
            return None

        def check(fr: list) -> None:
            for i, _v, got, want, shape in pairs:
                if got is None or want is None:
                    raise ExecFault(f"loop-carried value #{i} has a wg_map on one side of the loop only "
                                    "(xetile.md §4.1)", op)
                for s in range(self.subgroups()):
                    a, b = _blocks(got, shape, s), _blocks(want, shape, s)
                    if a != b or got[0].sg_data != want[0].sg_data:
                        raise ExecFault(f"subgroup {s} yields loop-carried value #{i} as sub-tiles {a} of "
                                        f"{_map_text(got[0])} but the loop carries it as {b} of {_map_text(want[0])}"
                                        " (xetile.md §4.4)", op)

        return check


# ------------------------------------------------------------------------------------------------ helpers
def _elementwise(op: Any) -> bool:
    od = op.opdef
    return od is not None and ("elementwise" in od.traits or "pure" in od.traits) and not op.regions


def _blocks(d: tuple[XeTileWgMap, bool], shape: tuple[int, ...], s: int) -> list[tuple[int, int]]:
    return d[0].blocks((int(shape[0]), int(shape[1])), s, d[1])


def _pieces(whole: np.ndarray, d: tuple[XeTileWgMap, bool], s: int) -> list[tuple[int, int, np.ndarray]]:
    d0, d1 = d[0].sg_data
    return [(y, x, whole[y:y + d0, x:x + d1]) for y, x in _blocks(d, whole.shape, s)]


def _map_text(m: XeTileWgMap) -> str:
    return f"<sg_layout = {list(m.sg_layout)}, sg_data = {list(m.sg_data)}>"


def _compare(op: Any, s: int, got: list, want: list, what: str) -> None:
    if len(got) != len(want):
        raise ExecFault(f"subgroup {s} computes {len(got)} sub-tile(s) of the {what} but holds {len(want)} "
                        "(xetile.md §4.3)", op)
    for (y, x, g), (wy, wx, w) in zip(got, want, strict=True):
        if (y, x) != (wy, wx):
            raise ExecFault(f"subgroup {s}: {what} sub-tile {len(got)} is at ({y}, {x}) in the distributed program "
                            f"but at ({wy}, {wx}) in the value's map (xetile.md §4.3)", op)
        _compare_one(op, s, (y, x), g, w, None, f"{what} sub-tile at")


def _compare_one(op: Any, s: int, at: tuple[int, int], got: np.ndarray, want: np.ndarray, mask: np.ndarray | None,
                 what: str, needed: bool = False, extra: str = "") -> None:
    """Bitwise equality of a subgroup's sub-tile and the whole-tile value there (``mask``: elements compared)."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        raise ExecFault(f"subgroup {s}: the {what} ({at[0]}, {at[1]}) has shape {list(got.shape)} in the distributed "
                        f"program, the whole-tile value needs {list(want.shape)} (xetile.md §4.4)", op)
    gb = np.ascontiguousarray(got).view(np.uint8).reshape(*got.shape, -1)
    wb = np.ascontiguousarray(want.astype(got.dtype, copy=False)).view(np.uint8).reshape(*want.shape, -1)
    bad = (gb != wb).any(-1)
    if mask is not None:
        bad &= mask
    if bad.any():
        idx = tuple(int(k) for k in np.argwhere(bad)[0])
        kind = "holds" if needed else "computes"
        raise ExecFault(f"subgroup {s}: the {what} ({at[0]}, {at[1]}){extra} disagrees with the whole-tile value at local "
                        f"element {list(idx)}: the subgroup {kind} {got[idx].item()!r}, the whole tile has {want[idx].item()!r} "
                        "(xetile.md §4.3-§4.5; whole-tile result and distributed view differ)", op)
