"""gpu dialect semantics: host-side memory ops and kernel launch, device-side id ops, barrier, printf.

Ids follow spec/programs-and-runner.md §3.2: linear thread id = x + y·bx + z·bx·by; subgroup_id =
linear / subgroup size; lane_id = linear mod subgroup size; num_subgroups = ceil(threads / subgroup size).
Asynchronous forms (``async [%t]``) execute immediately (the simulator is sequentially consistent) and
return a ready token.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from xesim.exec import crosscheck
from xesim.exec.interpreter import ExecFault
from xesim.exec.registry import impl
from xesim.exec.values import TOKEN, MemRefValue, identity_strides, storage_bytes
from xesim.ir import types as T


def _group(op: Any, name: str) -> list:
    try:
        return op.operand_group(name)
    except KeyError:
        return []


def _dim_index(op: Any) -> int:
    a = op.attributes.get("dimension")
    m = re.search(r"\b([xyz])\b\W*$", str(a))
    if m is None:
        raise ExecFault(f"cannot read the dimension of {a}")
    return "xyz".index(m.group(1))


def _token_results(op: Any, cx: Any) -> list[int]:
    return [cx.slot(r) for r in op.results if isinstance(r.type, T.AsyncTokenType)]


@impl("gpu.alloc")
def _alloc(op: Any, cx: Any):
    engine = cx.engine
    mres = next(r for r in op.results if isinstance(r.type, T.MemRefType))
    mt: T.MemRefType = mres.type
    out = cx.slot(mres)
    toks = _token_results(op, cx)
    dyn = cx.slots(_group(op, "dynamicSizes"))
    label = f"%{mres.name}" if mres.name else ""

    def step(fr: list) -> None:
        dvals = iter(fr[s] for s in dyn)
        sizes = tuple(next(dvals) if d == T.DYNAMIC else d for d in mt.shape)
        if any(s < 0 for s in sizes):
            raise ExecFault(f"negative dynamic size in {sizes}")
        n = int(np.prod(sizes)) if sizes else 1
        alloc = engine.memory.allocate(n * storage_bytes(mt.element_type), "device", label)
        fr[out] = MemRefValue(engine.memory, alloc, alloc.base, 0, sizes, identity_strides(sizes), mt.element_type)
        for t in toks:
            fr[t] = TOKEN

    return step


@impl("gpu.dealloc")
def _dealloc(op: Any, cx: Any):
    engine = cx.engine
    m = cx.slot(_group(op, "memref")[0])
    toks = _token_results(op, cx)
    where = f"gpu.dealloc at {op.loc}"

    def step(fr: list) -> None:
        mv = fr[m]
        engine.memory.free(mv.alloc.base, by=where)
        for t in toks:
            fr[t] = TOKEN

    return step


@impl("gpu.memcpy")
def _memcpy(op: Any, cx: Any):
    dst = cx.slot(_group(op, "dst")[0])
    src = cx.slot(_group(op, "src")[0])
    toks = _token_results(op, cx)

    def step(fr: list) -> None:
        d, s = fr[dst], fr[src]
        if tuple(d.sizes) != tuple(s.sizes):
            raise ExecFault(f"memcpy between memrefs of different shapes {list(s.sizes)} and {list(d.sizes)}")
        d.write_logical(s.logical_array())
        for t in toks:
            fr[t] = TOKEN

    return step


@impl("gpu.memset")
def _memset(op: Any, cx: Any):
    dst = cx.slot(_group(op, "dst")[0])
    val = cx.slot(_group(op, "value")[0])
    toks = _token_results(op, cx)

    def step(fr: list) -> None:
        d = fr[dst]
        d.write_logical(np.full(d.sizes, fr[val], dtype=d.dtype))
        for t in toks:
            fr[t] = TOKEN

    return step


@impl("gpu.wait")
def _wait(op: Any, cx: Any):
    toks = _token_results(op, cx)

    def step(fr: list) -> None:
        for t in toks:
            fr[t] = TOKEN

    return step


@impl("gpu.launch_func")
def _launch(op: Any, cx: Any):
    engine = cx.engine
    kref = op.attributes["kernel"]
    grid = cx.slots([_group(op, n)[0] for n in ("gridSizeX", "gridSizeY", "gridSizeZ")])
    block = cx.slots([_group(op, n)[0] for n in ("blockSizeX", "blockSizeY", "blockSizeZ")])
    args = cx.slots(_group(op, "kernelOperands"))
    toks = _token_results(op, cx)

    def step(fr: list) -> None:
        kernel = engine.lookup(tuple(kref.path))
        if kernel is None:
            raise ExecFault(f"kernel {kref} not found")
        crosscheck.launch(engine, kernel, "::".join("@" + p for p in kref.path),  # XESIM_ENGINE=both: run twice
                          tuple(fr[s] for s in grid), tuple(fr[s] for s in block), [fr[s] for s in args], op)
        for t in toks:
            fr[t] = TOKEN

    return step


def _id_op(read):
    def compile_fn(op: Any, cx: Any):
        ks = cx.engine.kstate
        out = cx.slot(op.result)
        d = _dim_index(op) if "dimension" in op.attributes else 0

        def step(fr: list) -> None:
            fr[out] = read(ks, d)

        return step

    return compile_fn


impl("gpu.block_id")(_id_op(lambda ks, d: ks.block_id[d]))
impl("gpu.thread_id")(_id_op(lambda ks, d: ks.thread_id[d]))
impl("gpu.block_dim")(_id_op(lambda ks, d: ks.block[d]))
impl("gpu.grid_dim")(_id_op(lambda ks, d: ks.grid[d]))
impl("gpu.global_id")(_id_op(lambda ks, d: ks.block_id[d] * ks.block[d] + ks.thread_id[d]))
impl("gpu.subgroup_id")(_id_op(lambda ks, d: ks.subgroup_id))
impl("gpu.lane_id")(_id_op(lambda ks, d: ks.lane_id))
impl("gpu.subgroup_size")(_id_op(lambda ks, d: ks.subgroup_size))
impl("gpu.num_subgroups")(_id_op(lambda ks, d: ks.num_subgroups))


@impl("gpu.barrier")
def _barrier(op: Any, cx: Any):
    ks = cx.engine.kstate

    def step(fr: list) -> None:
        ks.barrier(op)

    return step


@impl("gpu.printf")
def _printf(op: Any, cx: Any):
    ks = cx.engine.kstate
    fmt = op.attributes["format"].value
    slots = cx.slots(op.operands)
    pyfmt = re.sub(r"%(-?\d*(?:\.\d+)?)(?:hh|h|ll|l|z)?([diuxXfFeEgGcsp%])", lambda m: "%" + m.group(1) + (
        "d" if m.group(2) in "iu" else m.group(2)), fmt)

    def step(fr: list) -> None:
        vals = tuple(float(v) if isinstance(v, np.floating) else v for v in (fr[s] for s in slots))
        try:
            text = pyfmt % vals
        except (TypeError, ValueError) as exc:
            raise ExecFault(f"printf format '{fmt}' does not match its arguments: {exc}") from exc
        ks.printf_buffer.append(text)

    return step
