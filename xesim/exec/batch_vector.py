"""Batched forms of the vector data-movement ops with static positions (:mod:`xesim.exec.batch`).

``vector.extract`` (vector result), ``vector.insert`` (vector source), ``vector.extract_strided_slice`` and
``vector.insert_strided_slice`` move elements without changing them.  With every position static, the batched
form indexes the ``[B, ...]`` stack of its operands once, with the index the ordinary implementation uses
(:mod:`xesim.exec.ops.vector`: :func:`static_position`, :func:`extract_strided_index`,
:func:`insert_strided_index`) behind the instance axis; instance ``i`` of the result is exactly what the
ordinary step computes from instance ``i``'s operands.  Values are never written once made, so an extract whose
per-instance part is contiguous in its source (a row block of a loaded tile, one of a load's array_length
blocks) is a view of the source's stack, not a copy; inserts make a fresh array.  Anything
else -- dynamic or poison positions, a scalar extracted or inserted, operands the same for every instance --
takes the op's ordinary batched step (:func:`xesim.exec.batch.per_instance`).  VC kernels cut their DPAS
operands out of loaded tiles with these ops (tools/bench_programs.py); per instance they cost a Python call each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from xesim.exec.batch import BatchCompiler, batch_impl, per_instance
from xesim.exec.lanes import Varying, stacked
from xesim.exec.ops.vector import extract_strided_index, insert_strided_index, static_position
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

_ALL = slice(None)  # the instance axis


def _ordinary(op: Any, cx: BatchCompiler) -> Callable[[list], None]:
    from xesim.exec.registry import IMPLS

    return per_instance(op, cx, IMPLS[op.name](op, cx))


def _instance_contiguous(x: np.ndarray) -> bool:
    """Whether each ``x[i]`` is laid out as a C-contiguous array (the instance axis may have any stride)."""
    expect = x.itemsize
    for size, stride in zip(reversed(x.shape[1:]), reversed(x.strides[1:])):
        if size != 1 and stride != expect:
            return False
        expect *= size
    return True


def _read(op: Any, cx: BatchCompiler, index: tuple) -> Callable[[list], None]:
    """Result of instance i = ``source_i[index]`` shaped as the result type: a view of the source's stack when
    each instance's part is contiguous (:func:`_instance_contiguous`), else a copy."""
    ordinary = _ordinary(op, cx)
    s, res, n = cx.slot(op.operands[0]), cx.slot(op.results[0]), cx.n
    shape = (n, *op.results[0].type.shape)
    full = (_ALL, *index)

    def bstep(fr: list) -> None:
        v = fr[s]
        if not isinstance(v, Varying):
            ordinary(fr)
            return
        out = stacked(v, n)[full].reshape(shape)
        fr[res] = Varying.from_stack(out if _instance_contiguous(out) else out.copy())

    return bstep


def _write(op: Any, cx: BatchCompiler, index: tuple) -> Callable[[list], None]:
    """Result of instance i = a copy of ``dest_i`` (operand 1) with ``source_i`` (operand 0) written at ``index``."""
    ordinary = _ordinary(op, cx)
    src, dst, res, n = cx.slot(op.operands[0]), cx.slot(op.operands[1]), cx.slot(op.results[0]), cx.n
    shape = (n, *op.results[0].type.shape)
    full = (_ALL, *index)

    def bstep(fr: list) -> None:
        sv, dv = fr[src], fr[dst]
        if not isinstance(sv, Varying) and not isinstance(dv, Varying):
            ordinary(fr)
            return
        out = np.array(stacked(dv, n), copy=True).reshape(shape)
        out[full] = stacked(sv, n)
        fr[res] = Varying.from_stack(out)

    return bstep


@batch_impl("vector.extract")
def _extract(op: Any, cx: BatchCompiler) -> Callable[[list], None]:
    pos = static_position(op)
    if pos is None or not isinstance(op.results[0].type, T.VectorType):
        return _ordinary(op, cx)
    return _read(op, cx, pos)


@batch_impl("vector.insert")
def _insert(op: Any, cx: BatchCompiler) -> Callable[[list], None]:
    pos = static_position(op)
    if pos is None or not isinstance(op.operands[0].type, T.VectorType) or not op.results[0].type.shape:
        return _ordinary(op, cx)
    return _write(op, cx, pos)


@batch_impl("vector.extract_strided_slice")
def _extract_strided_slice(op: Any, cx: BatchCompiler) -> Callable[[list], None]:
    return _read(op, cx, extract_strided_index(op))


@batch_impl("vector.insert_strided_slice")
def _insert_strided_slice(op: Any, cx: BatchCompiler) -> Callable[[list], None]:
    return _write(op, cx, insert_strided_index(op))
