"""The compiled op formats (xesim/ir/fastformat.py) are an accelerator only: a program parses to the same IR,
prints the same text and fails with the same diagnostics whether ops go through the generated code, the
compiled handlers or the format interpreter.  Expected outcomes come from the interpreter path (the
reference), run on the same inputs with the fast paths switched off."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from xesim.diagnostics import DiagnosticError
from xesim.ir import fastformat
from xesim.ir.core import BlockArgument, Module, OpResult
from xesim.ir.opdefs import load_registry
from xesim.ir.parser import parse_source
from xesim.ir.printer import print_module

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted(
    p for d in ("examples", "tests/mlir", "tests/e2e") for p in (ROOT / d).glob("*.mlir")
)
# Inputs split like `--split-input-file` (the invalid_*.mlir tests hold one error case per chunk).
CHUNKS = [(f"{p.parent.name}/{p.name}#{i}", chunk) for p in PROGRAMS
          for i, chunk in enumerate(p.read_text().split("\n// -----\n"))]


def _value_key(v: object) -> tuple:
    if isinstance(v, OpResult):
        return ("result", v.op.loc.offset, v.index, str(v.type), v.name)
    if isinstance(v, BlockArgument):
        return ("arg", v.index, str(v.type), v.name)
    return ("other", getattr(v, "name", None), str(getattr(v, "type", None)))


def _dump(module: Module) -> list[tuple]:
    return [
        (op.name, op.loc.offset, [_value_key(v) for v in op.operands],
         [(str(r.type), r.name) for r in op.results], [(k, repr(a)) for k, a in op.attributes.items()],
         op.operand_segments, [len(r.blocks) for r in op.regions], len(op.successors), op.result_group_name)
        for op in module.walk()
    ]


def _outcome(text: str, fast: bool, generate: bool = True) -> tuple:
    saved = fastformat.ENABLED, fastformat.GENERATE
    fastformat.ENABLED, fastformat.GENERATE = fast, generate
    try:
        module = parse_source(text, "t.mlir")
    except DiagnosticError as exc:
        return ("error", exc.render())
    finally:
        fastformat.ENABLED, fastformat.GENERATE = saved
    try:
        printed = print_module(module)
    except Exception as exc:  # noqa: BLE001 - unverified IR may not print; compare that too
        printed = f"print failed: {type(exc).__name__}"
    return ("ok", _dump(module), printed)


def _same(text: str) -> None:
    assert _outcome(text, fast=True) == _outcome(text, fast=False)


@pytest.mark.parametrize("chunk", [c for _, c in CHUNKS], ids=[n for n, _ in CHUNKS])
def test_programs_parse_identically(chunk: str) -> None:
    _same(chunk)


def test_benchmark_program_parses_identically() -> None:
    spec = importlib.util.spec_from_file_location("bench_parse", ROOT / "tools" / "bench_parse.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    _same(bench.generate(600))


BODY = """func.func @f(%a: index, %b: index, %t: !xegpu.tensor_desc<8x16xf16>, %m: memref<64x64xf16>,
             %va: vector<8x16xf16>, %vb: vector<16x16xf16>, %vc: vector<8x16xf32>, %i: i32) {
{ops}
  return
}
"""

# Each line is placed in BODY; together they cover every kind of compiled element and the places where the
# compiled path must hand over (comments, dictionaries, legacy spellings, errors).
OP_LINES = [
    "%x = arith.addi %a, %b : index",
    "%x = arith.addi %a, %b overflow<nsw> : index",
    "%x = arith.addi %a, %b {tag = 1 : i32} : index",
    "%x = arith.addi %a, // comment\n %b : index",
    "%x = arith.addi %a, %b : i32",
    "%x = arith.addi %a, %b : index loc(\"here\")",
    "%x = arith.addi %a, %nope : index",
    "%x = arith.addi %a,%b:index",
    "%x = arith.constant 0 : index",
    "%x = arith.constant -3 : i32",
    "%x = arith.constant 0x7F : i8",
    "%x = arith.constant 1.5 : f32",
    "%x = arith.constant true",
    "%x = arith.constant dense<1.0> : vector<4xf32>",
    "%x = arith.constant 300 : i8",
    "%x = arith.cmpi slt, %a, %b : index",
    "%x = arith.cmpi slt, %a#0, %b : index",
    "%x = arith.addi %a, %b : !my.alias",
    "%x = arith.addi %a, %b : vector<4xi32 >",
    "%x = arith.cmpi bogus, %a, %b : index",
    "%x = arith.index_cast %a : index to i32",
    "%x = arith.index_cast %a : index tox i32",
    "%x = arith.select %c, %a, %b : index",
    "%x = gpu.block_id x",
    "%x = gpu.block_id x upper_bound 4",
    "%x = gpu.block_id w",
    "%v = xegpu.load_nd %t[%a, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>",
    "%v = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>",
    "%v = xegpu.load_nd %t[%a, %b] <{l1_hint = #xegpu.cache_hint<cached>}> : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>",
    "%v = xegpu.load_nd %t[%a, %b] {transpose = [1, 0]} : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>",
    "%v = xegpu.load_nd %t[%a, - 1] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>",
    "%v = xegpu.load_nd %t[-1, %b] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>",
    "%v = xegpu.load_nd %t[%a, %b]{packed} : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>",
    "%v = xegpu.load_nd %t [%a, %b] : !xegpu.tensor_desc<8x16xf16, #xegpu.block_tdesc_attr<array_length = 2>> -> vector<2x8x16xf16>",
    "%v = xegpu.load_nd %t[%a, 0x1] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>",
    "%d = xegpu.create_nd_tdesc %m : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>",
    "%d = xegpu.create_nd_tdesc %m[%a, 8] : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>",
    "%d = xegpu.create_nd_tdesc %i, shape : [64, %a], strides : [%a, 1] : i32 -> !xegpu.tensor_desc<8x16xf16>",
    "%d = xegpu.create_nd_tdesc %m[0, 0], [64, 64], [64, 1] : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>",
    "%r = xegpu.dpas %va, %vb, %vc : vector<8x16xf16>, vector<16x16xf16>, vector<8x16xf32> -> vector<8x16xf32>",
    "%r = xegpu.dpas %va, %vb : vector<8x16xf16>, vector<16x16xf16> -> vector<8x16xf32>",
    "%r = xegpu.dpas %va, %vb, %vc : vector<8x16xf16>, vector<16x16xf16> -> vector<8x16xf32>",
    "xegpu.store_nd %vc, %t[%a, %b] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf16>",
    "memref.store %a, %m[%a, %b] : memref<64x64xf16>",
    "memref.store %a, %m[%a, %b,] : memref<64x64xf16>",
    "%y = memref.load %m[%a, %b] : memref<64x64xf16>",
    "%y = memref.alloc() : memref<4x?xf32>",
    "%y = memref.alloc(%a) : memref<4x?xf32>",
    "scf.for %k = %a to %b step %a {\n  %z = arith.addi %k, %a : index\n}",
    "scf.for %k = %a to %b step %a : index {\n}",
    "scf.for %k = %a to %b step %a iter_args(%s = %a) -> (index) {\n  scf.yield %s : index\n}",
    "scf.for %k = %a to %b step %a {\n^bb0:\n}",
    "%x = arith.addi %a, %b : index %y = arith.addi %a, %b : index",
    "%x = arith.addi %a, %b : index\n%x = arith.addi %a, %b : index",
    "%x = arith.addi %w, %b : index\n%w = arith.constant 1 : i32",
    "%x = arith.addi %a, %b : index ` bad",
    "%x, %y = arith.addi %a, %b : index",
]


@pytest.mark.parametrize("line", OP_LINES)
def test_op_forms_parse_identically(line: str) -> None:
    text = BODY.replace("{ops}", "  " + line.replace("\n", "\n  ").replace("%c,", "%a,"))
    reference = _outcome(text, fast=False)
    assert _outcome(text, fast=True) == reference
    assert _outcome(text, fast=True, generate=False) == reference


def test_functions_and_kernels_parse_identically() -> None:
    text = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @a(%x: memref<8xf32>, %y: index) kernel {
      gpu.return
    }
    gpu.func @b(%x: memref<8xf32> {foo}, %y: index) kernel {
      gpu.return
    }
    gpu.func @c() kernel {
      gpu.return
    }
  }
  func.func private @ext(memref<8xf32>, index)
  func.func @main(%x: memref<8xf32>, %y : index) -> index {
    return %y : index
  }
}
"""
    _same(text)


def test_random_character_edits_give_the_same_outcome() -> None:
    """Character-level edits of real programs (deletions, duplications, substitutions with characters that
    matter to the token grammar) give the same IR or the same diagnostic on both paths."""
    rng = random.Random(2024)
    sources = [p.read_text() for p in PROGRAMS if p.parent.name == "examples"]
    alphabet = "%@#!^:,=()[]{}<>-x0 1\n\"tf"
    for _ in range(150):
        text = rng.choice(sources)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(text))
            edit = rng.randrange(3)
            if edit == 0:
                text = text[:i] + text[i + 1:]
            elif edit == 1:
                text = text[:i] + text[i] + text[i:]
            else:
                text = text[:i] + rng.choice(alphabet) + text[i + 1:]
        _same(text)


def test_common_ops_have_generated_parsers() -> None:
    """The ops that dominate real programs take the generated path (not only the slower handler path)."""
    reg = load_registry()
    for name in ("arith.addi", "arith.constant", "arith.index_cast", "memref.store", "xegpu.load_nd",
                 "xegpu.store_nd", "xegpu.create_nd_tdesc", "xegpu.dpas", "gpu.return", "gpu.block_id"):
        ff = fastformat.fast_format(reg.ops[name], reg.enums)
        assert ff is not None and ff.generated is not None, name
    assert fastformat.fast_format(reg.ops["scf.for"], reg.enums) is None  # regions: interpreter + ForOp head
