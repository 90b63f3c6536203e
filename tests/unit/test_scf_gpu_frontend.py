"""Front end of the scf and gpu dialects: the IR built by their custom directives (implicit terminators,
block arguments, operand groups, async tokens, enum storage), printing, and robustness on bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from xesim.diagnostics import DiagnosticError
from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.parser import parse_source
from xesim.ir.printer import print_module
from xesim.verify.structural import verify_module

MLIR_DIR = Path(__file__).resolve().parents[1] / "mlir"


def _parse(text: str):
    module = parse_source(text, "test")
    verify_module(module)
    return module


def _ops(module, name: str) -> list:
    return [op for op in module.walk() if op.name == name]


def test_for_gets_implicit_yield_and_elides_it() -> None:
    text = "func.func @f(%lb: index, %ub: index, %s: index) {\n  scf.for %i = %lb to %ub step %s {\n  }\n  return\n}\n"
    module = _parse(text)
    (loop,) = _ops(module, "scf.for")
    body = loop.regions[0].blocks[0]
    assert [a.type for a in body.args] == [T.INDEX]
    assert [op.name for op in body.ops] == ["scf.yield"]
    assert body.ops[0].operands == []
    assert "scf.yield" not in print_module(module)


def test_for_iter_args_build_block_arguments_and_results() -> None:
    text = """func.func @f(%lb: i32, %ub: i32, %s: i32, %x: f32, %y: vector<8x16xf32>) {
  %r:2 = scf.for %i = %lb to %ub step %s iter_args(%a = %x, %b = %y) -> (f32, vector<8x16xf32>) : i32 {
    scf.yield %a, %b : f32, vector<8x16xf32>
  }
  return
}
"""
    module = _parse(text)
    (loop,) = _ops(module, "scf.for")
    assert [r.type for r in loop.results] == [T.F32, T.VectorType((8, 16), T.F32)]
    assert [v.name for v in loop.operand_group("initArgs")] == ["x", "y"]
    body = loop.regions[0].blocks[0]
    assert [a.name for a in body.args] == ["i", "a", "b"]
    assert body.args[0].type == T.IntegerType(32)
    assert loop.operand("step").type == T.IntegerType(32)
    assert "iter_args(%a = %x, %b = %y) -> (f32, vector<8x16xf32>) : i32 {" in print_module(module)


def test_if_without_else_has_an_empty_else_region() -> None:
    module = _parse("func.func @f(%c: i1) {\n  scf.if %c {\n  }\n  return\n}\n")
    (op,) = _ops(module, "scf.if")
    assert len(op.regions) == 2
    assert op.regions[1].empty
    assert [o.name for o in op.regions[0].blocks[0].ops] == ["scf.yield"]
    assert "else" not in print_module(module)


def test_parallel_gets_implicit_reduce_and_prints_it() -> None:
    text = """func.func @f(%lb: index, %ub: index, %s: index) {
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%s, %s) {
  }
  return
}
"""
    module = _parse(text)
    (op,) = _ops(module, "scf.parallel")
    assert op.operand_segments == [2, 2, 2, 0]
    assert [o.name for o in op.regions[0].blocks[0].ops] == ["scf.reduce"]
    assert "    scf.reduce\n" in print_module(module)


def test_while_regions() -> None:
    text = """func.func @f(%x: f32, %c: i1) -> f32 {
  %r = scf.while (%a = %x) : (f32) -> f32 {
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: f32):
    scf.yield %b : f32
  }
  return %r : f32
}
"""
    module = _parse(text)
    (op,) = _ops(module, "scf.while")
    before, after = op.regions
    assert [a.name for a in before.blocks[0].args] == ["a"]
    assert [a.name for a in after.blocks[0].args] == ["b"]
    assert before.blocks[0].ops[-1].name == "scf.condition"
    assert print_module(module) == "module {\n" + "".join("  " + line + "\n" for line in text.splitlines()) + "}\n"


def test_launch_func_operand_groups_and_async_token() -> None:
    text = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>, %n: i64) kernel {
      gpu.return
    }
  }
  func.func @main(%c1: index, %m: memref<4xf32>, %n: i64) {
    %t0 = gpu.wait async
    %t = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>, %n : i64)
    gpu.wait [%t]
    return
  }
}
"""
    module = _parse(text)
    (launch,) = _ops(module, "gpu.launch_func")
    assert launch.attributes["kernel"] == A.SymbolRefAttr(("kernels", "k"))
    assert [v.name for v in launch.operand_group("asyncDependencies")] == ["t0"]
    assert [v.name for v in launch.operand_group("kernelOperands")] == ["m", "n"]
    assert launch.operand_group("clusterSizeX") == []
    assert [r.type for r in launch.results] == [T.AsyncTokenType()]
    (func,) = _ops(module, "gpu.func")
    assert isinstance(func.attributes["gpu.kernel"], A.UnitAttr)
    printed = print_module(module)
    assert "      gpu.return\n" in printed  # no default dialect inside gpu.func
    assert print_module(parse_source(printed, "again")) == printed


def test_alloc_results_and_generic_round_trip() -> None:
    text = """func.func @f(%d: index, %t0: !gpu.async.token) {
  %m, %t = gpu.alloc async [%t0] (%d) : memref<?x4xf32>
  return
}
"""
    module = _parse(text)
    (alloc,) = _ops(module, "gpu.alloc")
    assert alloc.results[0].type == T.MemRefType((T.DYNAMIC, 4), T.F32)
    assert alloc.results[1].type == T.AsyncTokenType()
    assert alloc.operand_segments == [1, 1, 0]
    generic = """func.func @f(%d: index, %t0: !gpu.async.token) {
  %m, %t = "gpu.alloc"(%t0, %d) {operandSegmentSizes = array<i32: 1, 1, 0>} : (!gpu.async.token, index) -> (memref<?x4xf32>, !gpu.async.token)
  return
}
"""
    assert print_module(_parse(generic)) == print_module(module)


def test_dimension_enum_storage() -> None:
    module = _parse("gpu.module @m {\n  gpu.func @k() kernel {\n    %t = gpu.thread_id y\n    gpu.return\n  }\n}\n")
    (op,) = _ops(module, "gpu.thread_id")
    assert str(op.attributes["dimension"]) == "#gpu<dim y>"
    generic = '''gpu.module @m {\n  gpu.func @k() kernel {\n    %t = "gpu.thread_id"() {dimension = #gpu<dim y>} : () -> index\n    gpu.return\n  }\n}\n'''
    assert print_module(_parse(generic)) == print_module(module)


def test_printf_accepts_old_syntax() -> None:
    module = _parse('gpu.module @m {\n  gpu.func @k(%a: i32) kernel {\n    gpu.printf "a=%d\\n" %a : i32\n    gpu.return\n  }\n}\n')
    (op,) = _ops(module, "gpu.printf")
    assert op.attributes["format"] == A.StringAttr("a=%d\n")
    assert 'gpu.printf "a=%d\\0A", %a : i32' in print_module(module)


@pytest.mark.parametrize("name", ["roundtrip_scf.mlir", "roundtrip_gpu.mlir"])
def test_truncated_input_gives_diagnostics_not_tracebacks(name: str) -> None:
    """Every prefix of a valid file either parses or fails with a located diagnostic."""
    text = (MLIR_DIR / name).read_text()
    step = max(1, len(text) // 150)
    for cut in range(0, len(text), step):
        try:
            module = parse_source(text[:cut], "cut")
            verify_module(module, raise_on_error=False)
        except DiagnosticError as exc:
            assert exc.diagnostics and exc.diagnostics[0].loc.known
