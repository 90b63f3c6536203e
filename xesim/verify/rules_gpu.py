"""Verifier predicates of the gpu dialect (MLIR ``GPUDialect.cpp``: ``GPUFuncOp::verifyType/verifyBody``,
``ReturnOp::verify``, ``LaunchFuncOp::verify`` plus ``GPUDialect::verifyOperationAttribute`` for modules
marked ``gpu.container_module``, ``AllocOp::verify``, ``MemcpyOp::verify``; messages use MLIR's wording)."""

from __future__ import annotations

from typing import Any

from xesim.diagnostics import Diagnostic
from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.core import Operation
from xesim.verify.predicates import predicate

KERNEL_ATTR = "gpu.kernel"
CONTAINER_ATTR = "gpu.container_module"


def _function_type(op: Operation) -> T.FunctionType | None:
    a = op.attributes.get("function_type")
    if isinstance(a, A.TypeAttr) and isinstance(a.type, T.FunctionType):
        return a.type
    return None


def _ancestor(op: Operation, name: str) -> Operation | None:
    cur = op.parent_op()
    while cur is not None and cur.name != name:
        cur = cur.parent_op()
    return cur


def _address_space(t: T.MemRefType) -> str | None:
    """The case of a ``#gpu.address_space<...>`` memory space (None for numeric or absent spaces)."""
    ms = t.memory_space
    if isinstance(ms, A.DialectAttr) and ms.dialect == "gpu" and ms.name == "address_space" and ms.params:
        return str(ms.params[0][1])
    return None


@predicate("gpu_func")
def gpu_func(op: Operation, ctx: Any) -> None:
    """gpu.func: a body block whose leading arguments match the signature, followed by the workgroup and
    private attributions (memrefs, in the matching address space when it is a #gpu.address_space); kernels
    (``gpu.kernel``, a unit attribute) return nothing."""
    ft = _function_type(op)
    if ft is None:
        return
    kernel = op.attributes.get(KERNEL_ATTR)
    if kernel is not None and not isinstance(kernel, A.UnitAttr):
        ctx.error(op, f"attribute '{KERNEL_ATTR}' must be a unit attribute")
        return
    if kernel is not None and ft.results:
        ctx.error(op, "expected void return type for kernel function")
        return
    body = op.regions[0] if op.regions else None
    if body is None or body.empty:
        ctx.error(op, "expected body with at least one block")
        return
    entry = body.blocks[0]
    n_wg_attr = op.attributes.get("workgroup_attributions")
    n_wg = n_wg_attr.value if isinstance(n_wg_attr, A.IntegerAttr) else 0
    n_in = len(ft.inputs)
    if len(entry.args) < n_in + n_wg:
        ctx.error(op, f"expected at least {n_in + n_wg} arguments to body region")
        return
    for i, ty in enumerate(ft.inputs):
        if entry.args[i].type != ty:
            ctx.error(op, f"expected body region argument #{i} to be of type {ty}, got {entry.args[i].type}")
            return
    groups = (("workgroup", entry.args[n_in : n_in + n_wg]), ("private", entry.args[n_in + n_wg :]))
    for space, args in groups:
        for a in args:
            if not isinstance(a.type, T.MemRefType):
                ctx.error(op, "expected memref type in attribution")
                return
            got = _address_space(a.type)
            if got is not None and got != space:
                ctx.error(op, f"expected memory space {space} in attribution")
                return


@predicate("gpu_return")
def gpu_return(op: Operation, ctx: Any) -> None:
    """gpu.return: operands match the enclosing gpu.func's result types."""
    fn = op.parent_op()
    ft = _function_type(fn) if fn is not None else None
    if ft is None:
        return
    if len(ft.results) != len(op.operands):
        ctx.error(op, f"expected {len(ft.results)} result operands")
        ctx.diagnostics[-1].notes.append(Diagnostic("note", fn.loc, "return type declared here"))
        return
    for i, (ty, v) in enumerate(zip(ft.results, op.operands, strict=True)):
        if ty != v.type:
            ctx.error(op, f"unexpected type `{v.type}' for operand #{i}")
            return


@predicate("gpu_launch_func")
def gpu_launch_func(op: Operation, ctx: Any) -> None:
    """gpu.launch_func: the closest module has ``gpu.container_module``; the kernel symbol names a gpu.module
    and, inside it, a function with the ``gpu.kernel`` attribute whose signature matches the kernel
    operands in number and type."""
    module = _ancestor(op, "builtin.module")
    if module is None:
        ctx.error(op, "expected to belong to a module")
        return
    if ctx.module.fragment and module is ctx.module.op:
        return  # an op fragment (isa example): the kernel is external, like its implicit operands
    if CONTAINER_ATTR not in module.attributes:
        ctx.error(op, f"expected the closest surrounding module to have the '{CONTAINER_ATTR}' attribute")
        return
    ref = op.attributes.get("kernel")
    if not isinstance(ref, A.SymbolRefAttr):
        return
    container_name = ref.path[0]
    container = ctx.lookup_symbol(op, A.SymbolRefAttr(ref.path[:1]))
    if container is None:
        ctx.error(op, f"kernel container '{container_name}' is undefined")
        return
    if container.name != "gpu.module":
        ctx.error(op, f"kernel module '{container_name}' is undefined")
        return
    fn = ctx.lookup_symbol(op, ref) if len(ref.path) > 1 else None
    if fn is None:
        ctx.error(op, f"kernel function '{ref}' is undefined")
        return
    if fn.name not in ("gpu.func", "func.func"):
        ctx.error(op, f"referenced kernel '{ref}' is not a function")
        ctx.diagnostics[-1].notes.append(Diagnostic("note", fn.loc, "see the kernel definition here"))
        return
    if KERNEL_ATTR not in fn.attributes:
        ctx.error(op, f"kernel function is missing the '{KERNEL_ATTR}' attribute")
        return
    if fn.name != "gpu.func":
        return
    ft = _function_type(fn)
    if ft is None:
        return
    args = op.operand_group("kernelOperands")
    if len(args) != len(ft.inputs):
        ctx.error(op, f"got {len(args)} kernel operands but expected {len(ft.inputs)}")
        return
    for i, (v, ty) in enumerate(zip(args, ft.inputs, strict=True)):
        if v.type != ty:
            ctx.error(op, f"type of function argument {i} does not match")
            return


@predicate("gpu_alloc")
def gpu_alloc(op: Operation, ctx: Any) -> None:
    """gpu.alloc: one size operand per dynamic dimension, one symbol operand per layout-map symbol, and no
    async host_shared allocation."""
    mt = op.results[0].type
    if not isinstance(mt, T.MemRefType):
        return
    n_dyn = sum(1 for d in mt.shape if d == T.DYNAMIC)
    if len(op.operand_group("dynamicSizes")) != n_dyn:
        ctx.error(op, "dimension operand count does not equal memref dynamic dimension count")
        return
    n_sym = mt.layout.map.num_syms if isinstance(mt.layout, A.AffineMapAttr) else 0
    if len(op.operand_group("symbolOperands")) != n_sym:
        ctx.error(op, "symbol operand count does not equal memref symbol count")
        return
    if "hostShared" in op.attributes and len(op.results) > 1:
        ctx.error(op, "host_shared allocation cannot be done async")


def _compatible_shapes(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return len(a) == len(b) and all(x == y or T.DYNAMIC in (x, y) for x, y in zip(a, b, strict=True))


@predicate("gpu_memcpy")
def gpu_memcpy(op: Operation, ctx: Any) -> None:
    """gpu.memcpy: source and destination have the same element type and compatible shapes."""
    dst, src = op.operand("dst").type, op.operand("src").type
    if T.element_type_of(dst) != T.element_type_of(src):
        ctx.error(op, "arguments have incompatible element type")
        return
    if not _compatible_shapes(getattr(dst, "shape", ()), getattr(src, "shape", ())):
        ctx.error(op, "arguments have incompatible shape")


@predicate("gpu_memset")
def gpu_memset(op: Operation, ctx: Any) -> None:
    """gpu.memset: the value has the destination's element type."""
    if op.operand("value").type != T.element_type_of(op.operand("dst").type):
        ctx.error(op, "failed to verify that value type matches element type of dst")
