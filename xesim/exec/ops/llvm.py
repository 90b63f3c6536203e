"""The LLVM-dialect ops XeVM kernels and their hosts use (shared/spec/upstream-xegpu-xevm.md §4.13).

A pointer (``!llvm.ptr<N>``) is its integer address in the simulated memory, as the integer addresses of
``memref.extract_aligned_pointer_as_index`` are; address spaces 0 (private), 1 (global), 2 (constant) and 4
(generic) reach global memory (:class:`xesim.hw.memory.AddressSpace`).  Shared local memory through pointers
(address space 3: ``llvm.alloca`` / globals turned into SLM by the lowering) is not modelled: a located error.

* ``inttoptr`` / ``ptrtoint`` / ``addrspacecast``: the address (``ptrtoint`` wraps it to the result width);
* ``trunc`` / ``zext`` / ``sext``: the integer casts of :mod:`xesim.exec.ops.arith` (one definition: the rules of
  ``arith.trunci`` / ``extui`` / ``extsi``); ``bitcast``: the value's bytes read as the result type (little-endian
  element order);
* ``getelementptr``: ``base + index x bytes(element type)`` (a leading constant 0 of the array form adds nothing),
  the index sign-extended;
* ``load`` / ``store``: the value's bytes at the address; an access outside every live allocation is a located
  fault naming the op, the lane and the rule.  Alignment, ``volatile``, ``nontemporal`` and cache controls have no
  functional effect.

Ops written for one instance: the executor lifts them onto the instance axis (one run for uniform operands, else
one per lane, :mod:`xesim.exec.axis`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.faults import ExecFault
from xesim.exec.ops.arith import compile_int_cast, constant_value
from xesim.exec.ops.memref import compile_error
from xesim.exec.registry import impl
from xesim.exec.values import dtype_of, wrap_int
from xesim.hw.memory import MemoryFault
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

ADDRESS_MASK = (1 << 64) - 1
SHARED = 3


def value_nbytes(t: T.Type) -> int:
    """Bytes a scalar or vector value of type ``t`` occupies in memory."""
    if isinstance(t, T.VectorType):
        return t.num_elements * dtype_of(t.element_type).itemsize
    return dtype_of(t).itemsize


def to_bytes(v: Any, t: T.Type) -> np.ndarray:
    """The little-endian bytes of value ``v`` of type ``t``."""
    et = T.element_type_of(t)
    dt = dtype_of(et)
    if isinstance(t, T.VectorType):
        return np.ascontiguousarray(np.asarray(v).astype(dt, copy=False)).view(np.uint8).reshape(-1)
    if isinstance(et, (T.IntegerType, T.IndexType)):
        return np.array([int(v) & ((1 << (8 * dt.itemsize)) - 1)], np.uint64).view(np.uint8)[: dt.itemsize].copy()
    return np.array([v], dt).view(np.uint8).copy()


def from_bytes(raw: np.ndarray, t: T.Type) -> Any:
    """The value of type ``t`` whose bytes are ``raw`` (inverse of :func:`to_bytes`)."""
    et = T.element_type_of(t)
    dt = dtype_of(et)
    arr = np.frombuffer(np.ascontiguousarray(raw, np.uint8).tobytes(), dt)
    if isinstance(t, T.VectorType):
        return arr.reshape(t.shape).copy()
    if isinstance(et, (T.IntegerType, T.IndexType)):
        return wrap_int(int(arr[0]), et)
    return arr[0]


def _global_pointer(op: Any, t: T.Type) -> None:
    if isinstance(t, T.LLVMPointerType) and t.address_space == SHARED:
        raise compile_error(op, "pointers to shared local memory (!llvm.ptr<3>) are not supported by xesim yet; "
                                "use a memref in address space 3 (upstream-xegpu-xevm.md §4.13)")


@impl("llvm.mlir.constant")
def _constant(op: Any, cx: Any):
    o = cx.slot(op.results[0])
    a = op.attributes["value"]
    rt = op.results[0].type
    if isinstance(a, A.IntegerAttr) and a.type != rt:
        a = A.IntegerAttr(a.value, rt)
    value = constant_value(a, rt)

    def step(fr: list) -> None:
        fr[o] = value

    return step


@impl("llvm.inttoptr")
def _inttoptr(op: Any, cx: Any):
    _global_pointer(op, op.results[0].type)
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[o] = int(fr[a]) & ADDRESS_MASK

    return step


@impl("llvm.ptrtoint")
def _ptrtoint(op: Any, cx: Any):
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    rt = op.results[0].type

    def step(fr: list) -> None:
        fr[o] = wrap_int(int(fr[a]), rt)

    return step


@impl("llvm.addrspacecast")
def _addrspacecast(op: Any, cx: Any):
    _global_pointer(op, op.results[0].type)
    _global_pointer(op, op.operands[0].type)
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[o] = fr[a]

    return step


@impl("llvm.trunc", "llvm.sext")
def _cast_s(op: Any, cx: Any):
    rule_op = "arith.trunci" if op.name == "llvm.trunc" else "arith.extsi"
    return compile_int_cast("s", op.operands[0].type, op.results[0].type, cx.slot(op.operands[0]),
                            cx.slot(op.results[0]), rule_op)


@impl("llvm.zext")
def _cast_u(op: Any, cx: Any):
    return compile_int_cast("u", op.operands[0].type, op.results[0].type, cx.slot(op.operands[0]),
                            cx.slot(op.results[0]), "arith.extui")


@impl("llvm.bitcast")
def _bitcast(op: Any, cx: Any):
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    st, rt = op.operands[0].type, op.results[0].type

    def step(fr: list) -> None:
        fr[o] = from_bytes(to_bytes(fr[a], st), rt)

    return step


@impl("llvm.getelementptr")
def _gep(op: Any, cx: Any):
    _global_pointer(op, op.operands[0].type)
    base = cx.slot(op.operands[0])
    dyn = op.operand_group("dynamicIndices")
    raw = A.int_list(op.attributes["rawConstantIndices"]) or []
    size = value_nbytes(op.attributes["elem_type"].type)
    o = cx.slot(op.results[0])
    last = raw[-1]
    from xesim.ir.directives.llvm import DYNAMIC_GEP_INDEX

    if last == DYNAMIC_GEP_INDEX:
        s_i = cx.slot(dyn[-1])
        it = dyn[-1].type
        width = 64 if isinstance(it, T.IndexType) else it.width

        def step(fr: list) -> None:
            i = wrap_int(int(fr[s_i]), T.IntegerType(width))  # sign-extended, as LLVM does
            fr[o] = (int(fr[base]) + i * size) & ADDRESS_MASK

        return step

    def const_step(fr: list) -> None:
        fr[o] = (int(fr[base]) + last * size) & ADDRESS_MASK

    return const_step


def _access(engine: Any, op: Any, addr: int, nbytes: int, what: str) -> tuple[Any, int]:
    try:
        return engine.memory.resolve(int(addr), nbytes)
    except MemoryFault as exc:
        raise ExecFault(f"{what} of {nbytes} bytes through pointer 0x{int(addr):x}: {exc} (an access must lie "
                        "inside one live allocation)") from None


@impl("llvm.load")
def _load(op: Any, cx: Any):
    _global_pointer(op, op.operands[0].type)
    engine = cx.engine
    a, o = cx.slot(op.operands[0]), cx.slot(op.results[0])
    rt = op.results[0].type
    n = value_nbytes(rt)

    def step(fr: list) -> None:
        alloc, off = _access(engine, op, fr[a], n, "load")
        fr[o] = from_bytes(alloc.data[off:off + n], rt)

    return step


@impl("llvm.store")
def _store(op: Any, cx: Any):
    _global_pointer(op, op.operands[1].type)
    engine = cx.engine
    v, a = cx.slot(op.operands[0]), cx.slot(op.operands[1])
    vt = op.operands[0].type
    n = value_nbytes(vt)

    def step(fr: list) -> None:
        alloc, off = _access(engine, op, fr[a], n, "store")
        alloc.data[off:off + n] = to_bytes(fr[v], vt)

    return step
