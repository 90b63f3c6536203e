"""Verifier predicates of the scf dialect (MLIR ``SCF.cpp`` ``verify``/``verifyRegions`` and the
RegionBranchOpInterface type checks along control-flow edges, whose wording is reused here)."""

from __future__ import annotations

from typing import Any

from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.core import Block, Operation, Region
from xesim.verify.predicates import predicate


def check_edge(ctx: Any, op: Operation, src: str, dst: str, src_types: list[T.Type], dst_types: list[T.Type]) -> bool:
    """Values flowing along a region-branch edge must match the successor's inputs in number and type
    (MLIR ``verifyTypesAlongControlFlowEdges``)."""
    if len(src_types) != len(dst_types):
        where = f"along control flow edge from {src} to {dst}"
        ctx.error(op, f"{where}: source has {len(src_types)} operands, but target successor needs {len(dst_types)}")
        return False
    for i, (s, d) in enumerate(zip(src_types, dst_types, strict=True)):
        if s is not d and s != d:
            where = f"along control flow edge from {src} to {dst}"
            ctx.error(op, f"{where}: source type #{i} '{s}' should match input type #{i} '{d}'")
            return False
    return True


def _types(values: list) -> list[T.Type]:
    return [v.type for v in values]


def _entry(region: Region | None) -> Block | None:
    return region.blocks[0] if region is not None and region.blocks else None


def _terminator(block: Block | None, name: str) -> Operation | None:
    if block is None or not block.ops:
        return None
    last = block.ops[-1]
    return last if last.name == name else None


def _constant_int(v: Any) -> int | None:
    """The value of an ``arith.constant`` integer/index operand, if it is one."""
    op = v.owner_op
    if op is None or op.name != "arith.constant":
        return None
    a = op.attributes.get("value")
    return a.value if isinstance(a, A.IntegerAttr) else None


def _check_positive_steps(op: Operation, ctx: Any, steps: list) -> bool:
    for s in steps:
        c = _constant_int(s)
        if c is not None and c <= 0:
            ctx.error(op, "constant step operand must be positive")
            return False
    return True


@predicate("scf_for")
def scf_for(op: Operation, ctx: Any) -> None:
    """scf.for (MLIR ForOp::verify / verifyRegions): bounds and step share the induction variable's type, a
    constant step is positive, iter_args / body arguments / results agree in number and type, and the yield
    passes values of the result types."""
    lb, ub, step = op.operand("lowerBound"), op.operand("upperBound"), op.operand("step")
    lt = lb.type
    if not ((ub.type is lt or ub.type == lt) and (step.type is lt or step.type == lt)):
        ctx.error(op, "failed to verify that all of {lowerBound, upperBound, step} have same type")
        return
    if not _check_positive_steps(op, ctx, [step]):
        return
    inits = op.operand_group("initArgs")
    results = list(op.results)
    if len(inits) != len(results):
        ctx.error(op, "mismatch in number of loop-carried values and defined values")
        return
    block = _entry(op.regions[0])
    if block is None:
        ctx.error(op, "expects a non-empty body region")
        return
    if not block.args:
        ctx.error(op, "expected the body to have the induction variable as its first argument")
        return
    if block.args[0].type is not lt and block.args[0].type != lt:
        ctx.error(op, "expected induction variable to be same type as bounds and step")
        return
    iter_args = block.args[1:]
    if len(iter_args) != len(results):
        ctx.error(op, "mismatch in number of basic block args and defined values")
        return
    for i, (init, arg, res) in enumerate(zip(inits, iter_args, results, strict=True)):
        if init.type != res.type:
            ctx.error(op, f"types mismatch between {i}th iter operand and defined value")
            return
        if arg.type != res.type:
            ctx.error(op, f"types mismatch between {i}th iter region arg and defined value")
            return
    y = _terminator(block, "scf.yield")
    if y is not None:
        check_edge(ctx, op, "Region #0", "parent results", _types(y.operands), _types(results))


@predicate("scf_if")
def scf_if(op: Operation, ctx: Any) -> None:
    """scf.if (MLIR IfOp::verify): defining values requires an else region; each region's scf.yield passes
    values of the result types."""
    results = _types(op.results)
    if results and (len(op.regions) < 2 or op.regions[1].empty):
        ctx.error(op, "must have an else block if defining values")
        return
    for k, region in enumerate(op.regions):
        y = _terminator(_entry(region), "scf.yield")
        if y is not None and not check_edge(ctx, op, f"Region #{k}", "parent results", _types(y.operands), results):
            return


@predicate("scf_while")
def scf_while(op: Operation, ctx: Any) -> None:
    """scf.while (MLIR WhileOp::verify and its region-branch edges): inits -> before arguments;
    scf.condition args -> after arguments and -> results; after's scf.yield -> before arguments."""
    before, after = _entry(op.regions[0]), _entry(op.regions[1]) if len(op.regions) > 1 else None
    if before is None or after is None:
        ctx.error(op, "expects non-empty 'before' and 'after' regions")
        return
    inits = _types(op.operand_group("inits"))
    if not check_edge(ctx, op, "parent operands", "Region #0", inits, _types(before.args)):
        return
    cond = _terminator(op.regions[0].blocks[-1], "scf.condition")
    if cond is None:
        ctx.error(op, "expects the 'before' region to terminate with 'scf.condition'")
        return
    passed = _types(cond.operand_group("args"))
    if not check_edge(ctx, op, "Region #0", "Region #1", passed, _types(after.args)):
        return
    if not check_edge(ctx, op, "Region #0", "parent results", passed, _types(op.results)):
        return
    for block in op.regions[1].blocks:
        y = _terminator(block, "scf.yield")
        if y is not None and not check_edge(ctx, op, "Region #1", "Region #0", _types(y.operands), _types(before.args)):
            return


@predicate("scf_execute_region")
def scf_execute_region(op: Operation, ctx: Any) -> None:
    """scf.execute_region (MLIR ExecuteRegionOp::verify): at least one block, no entry arguments, and every
    scf.yield passes values of the result types."""
    region = op.regions[0]
    if region.empty:
        ctx.error(op, "region needs to have at least one block")
        return
    if region.blocks[0].args:
        ctx.error(op, "region cannot have any arguments")
        return
    for block in region.blocks:
        y = _terminator(block, "scf.yield")
        if y is None:
            continue
        if not check_edge(ctx, op, "Region #0", "parent results", _types(y.operands), _types(op.results)):
            return


@predicate("scf_parallel")
def scf_parallel(op: Operation, ctx: Any) -> None:
    """scf.parallel (MLIR ParallelOp::verify): as many lower bounds, upper bounds, steps and index induction
    variables (at least one), positive constant steps, and an scf.reduce terminator with one operand per
    result / init value, of the result types."""
    lbs, ubs, steps = op.operand_group("lowerBound"), op.operand_group("upperBound"), op.operand_group("step")
    if not steps:
        ctx.error(op, "needs at least one tuple element for lowerBound, upperBound and step")
        return
    if not (len(lbs) == len(ubs) == len(steps)):
        ctx.error(op, f"expects the same number of lowerBound ({len(lbs)}), upperBound ({len(ubs)}) and step "
                      f"({len(steps)}) values")
        return
    if not _check_positive_steps(op, ctx, steps):
        return
    block = _entry(op.regions[0])
    if block is None:
        ctx.error(op, "expects a non-empty body region")
        return
    if len(block.args) != len(steps):
        ctx.error(op, f"expects the same number of induction variables: {len(block.args)} as bound and step "
                      f"values: {len(steps)}")
        return
    if any(not isinstance(a.type, T.IndexType) for a in block.args):
        ctx.error(op, "expects arguments for the induction variable to be of index type")
        return
    reduce = _terminator(block, "scf.reduce")
    if reduce is None:
        ctx.error(op, "expects body to terminate with 'scf.reduce'")
        return
    n_res, n_red, n_init = len(op.results), len(reduce.operands), len(op.operand_group("initVals"))
    if n_res != n_red:
        ctx.error(op, f"expects number of results: {n_res} to be the same as number of reductions: {n_red}")
        return
    if n_res != n_init:
        ctx.error(op, f"expects number of results: {n_res} to be the same as number of initial values: {n_init}")
        return
    for i, (res, v) in enumerate(zip(op.results, reduce.operands, strict=True)):
        if res.type != v.type:
            ctx.error(reduce, f"expects type of {i}-th reduction operand: {v.type} to be the same as the {i}-th "
                              f"result type: {res.type}")
            return
    for i, (res, init) in enumerate(zip(op.results, op.operand_group("initVals"), strict=True)):
        if res.type != init.type:
            ctx.error(op, f"expects type of {i}-th initial value: {init.type} to be the same as the {i}-th "
                          f"result type: {res.type}")
            return


@predicate("scf_reduce")
def scf_reduce(op: Operation, ctx: Any) -> None:
    """scf.reduce (MLIR ReduceOp::verifyRegions): one reduction region per operand, each a block with two
    arguments of the operand's type ending in scf.reduce.return."""
    if len(op.regions) != len(op.operands):
        ctx.error(op, f"expects the same number of reduction regions ({len(op.regions)}) as operands "
                      f"({len(op.operands)})")
        return
    for i, (v, region) in enumerate(zip(op.operands, op.regions, strict=True)):
        block = _entry(region)
        if block is None or not block.ops:
            ctx.error(op, f"{i}-th reduction has an empty body")
            return
        if len(block.args) != 2 or any(a.type != v.type for a in block.args):
            ctx.error(op, f"expected two block arguments with type {v.type} in the {i}-th reduction region")
            return


@predicate("scf_reduce_return")
def scf_reduce_return(op: Operation, ctx: Any) -> None:
    """scf.reduce.return (MLIR ReduceReturnOp::verify): the value has the type of the reduction inputs."""
    block = op.parent
    if block is None or not block.args:
        return
    expected = block.args[0].type
    if op.operands[0].type != expected:
        ctx.error(op, f"must have type {expected} (the type of the reduction inputs)")
