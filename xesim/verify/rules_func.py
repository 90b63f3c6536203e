"""Verifier predicates of the func dialect (MLIR ``FuncOps.cpp``: ``CallOp::verifySymbolUses``,
``ReturnOp::verify``, and the FunctionOpInterface checks of ``func.func``; messages use MLIR's wording)."""

from __future__ import annotations

from typing import Any

from xesim.diagnostics import Diagnostic
from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.core import Operation
from xesim.verify.predicates import predicate


def _function_type(op: Operation) -> T.FunctionType | None:
    a = op.attributes.get("function_type")
    if isinstance(a, A.TypeAttr) and isinstance(a.type, T.FunctionType):
        return a.type
    return None


def _sym_name(op: Operation) -> str:
    a = op.attributes.get("sym_name")
    return a.value if isinstance(a, A.StringAttr) else "?"


def _types_text(types: Any) -> str:
    return ", ".join(str(t) for t in types)


@predicate("func_func")
def func_func(op: Operation, ctx: Any) -> None:
    """func.func: entry block arguments match the signature; arg/result attribute arrays have one entry per
    argument/result; a declaration (no body) is not public."""
    ft = _function_type(op)
    if ft is None:
        return
    for key, n, what in (("arg_attrs", len(ft.inputs), "argument"), ("res_attrs", len(ft.results), "result")):
        a = op.attributes.get(key)
        if isinstance(a, A.ArrayAttr) and len(a.elements) != n:
            ctx.error(op, f"expects {what} attribute array to have the same number of elements as the number of "
                          f"function {what}s, got {len(a.elements)}, but expected {n}")
            return
    body = op.regions[0] if op.regions else None
    if body is None or body.empty:
        vis = op.attributes.get("sym_visibility")
        if not (isinstance(vis, A.StringAttr) and vis.value in ("private", "nested")):
            ctx.error(op, "symbol declaration cannot have public visibility")
        return
    entry = body.blocks[0]
    if len(entry.args) != len(ft.inputs):
        ctx.error(op, f"entry block must have {len(ft.inputs)} arguments to match function signature")
        return
    for i, (arg, ty) in enumerate(zip(entry.args, ft.inputs, strict=True)):
        if arg.type != ty:
            ctx.error(op, f"type of entry block argument #{i}({arg.type}) must match the type of the corresponding "
                          f"argument in function signature({ty})")
            return


@predicate("func_call")
def func_call(op: Operation, ctx: Any) -> None:
    """func.call: the callee symbol names a func.func whose signature matches the call's operand and result
    types."""
    ref = op.attributes.get("callee")
    if not isinstance(ref, A.SymbolRefAttr):
        ctx.error(op, "requires a 'callee' symbol reference attribute")
        return
    fn = ctx.lookup_symbol(op, ref)
    if fn is None and ctx.module.fragment:
        return  # an op fragment (isa example): the callee is external, like its implicit operands
    ft = _function_type(fn) if fn is not None and fn.name == "func.func" else None
    if ft is None:
        ctx.error(op, f"'{ref}' does not reference a valid function")
        return
    if len(ft.inputs) != len(op.operands):
        ctx.error(op, "incorrect number of operands for callee")
        return
    for i, (v, ty) in enumerate(zip(op.operands, ft.inputs, strict=True)):
        if v.type != ty:
            ctx.error(op, f"operand type mismatch: expected operand type '{ty}', but provided '{v.type}' for "
                          f"operand number {i}")
            return
    if len(ft.results) != len(op.results):
        ctx.error(op, "incorrect number of results for callee")
        return
    for i, (r, ty) in enumerate(zip(op.results, ft.results, strict=True)):
        if r.type != ty:
            ctx.error(op, f"result type mismatch at index {i}")
            d = ctx.diagnostics[-1]
            got = _types_text(r.type for r in op.results)
            d.notes.append(Diagnostic("note", op.loc, f"      op result types: {got}"))
            d.notes.append(Diagnostic("note", op.loc, f"function result types: {_types_text(ft.results)}"))
            return


@predicate("func_return")
def func_return(op: Operation, ctx: Any) -> None:
    """func.return: as many operands as the enclosing function has results, of the same types."""
    fn = op.parent_op()
    ft = _function_type(fn) if fn is not None else None
    if ft is None:
        return
    name = _sym_name(fn)
    if len(op.operands) != len(ft.results):
        ctx.error(op, f"has {len(op.operands)} operands, but enclosing function (@{name}) returns {len(ft.results)}")
        return
    for i, (v, ty) in enumerate(zip(op.operands, ft.results, strict=True)):
        if v.type != ty:
            ctx.error_at(op.loc, f"type of return operand {i} ({v.type}) doesn't match function result type "
                                 f"({ty}) in function @{name}")
            return
