"""The generated per-definition verifiers (xesim/verify/structural.py, ``_generate_verifier``) report exactly
what the plan-driven reference ``_verify_op_with_plan`` reports, in the same order, on valid programs and on
programs with structural and semantic errors.  The reference runs on the same parsed IR."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from xesim.diagnostics import DiagnosticError
from xesim.ir.parser import parse_source
from xesim.verify import structural as S

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted(p for d in ("examples", "tests/mlir", "tests/e2e") for p in (ROOT / d).glob("*.mlir"))
# Inputs split like `--split-input-file` (the invalid_*.mlir tests hold one error case per chunk).
CHUNKS = [(f"{p.parent.name}/{p.name}#{i}", chunk) for p in PROGRAMS
          for i, chunk in enumerate(p.read_text().split("\n// -----\n"))]


def _diagnostics(module, generated: bool) -> list[tuple]:
    ctx = S.VerifyContext(module, S.load_registry())
    ops = list(module.op.walk()) if not module.fragment else [o for t in module.body.ops for o in t.walk()]
    top = {id(o) for o in module.body.ops} if module.fragment else set()
    for op in ops:
        if generated:
            S._verify_op(op, ctx, check_parent=id(op) not in top)
        elif op.opdef is None:
            S._verify_op(op, ctx, check_parent=id(op) not in top)
        else:
            S._verify_op_with_plan(op, ctx, check_parent=id(op) not in top)
    return [(d.severity, d.loc.offset, d.message, [(n.loc.offset, n.message) for n in d.notes])
            for d in ctx.diagnostics]


def _same(text: str) -> bool:
    try:
        module = parse_source(text, "t.mlir")
    except DiagnosticError:
        return False
    assert _diagnostics(module, True) == _diagnostics(module, False)
    return True


@pytest.mark.parametrize("chunk", [c for _, c in CHUNKS], ids=[n for n, _ in CHUNKS])
def test_programs_verify_identically(chunk: str) -> None:
    _same(chunk)


def test_error_cases_are_exercised() -> None:
    """The split inputs hold many verification errors (so the comparison above is not vacuous)."""
    failing = 0
    for _, chunk in CHUNKS:
        try:
            module = parse_source(chunk, "t.mlir")
        except DiagnosticError:
            continue
        failing += bool(_diagnostics(module, True))
    assert failing > 100


GENERIC_CASES = [
    '%m = memref.alloc() : memref<64x64xf16>\n'
    '%t = "xegpu.create_nd_tdesc"(%m) {const_offsets = "bad", operandSegmentSizes = array<i32: 1, 0, 0, 0>} : (memref<64x64xf16>) -> !xegpu.tensor_desc<8x16xf16>',
    '%c = "arith.constant"() : () -> i32',
    '%c:2 = "arith.constant"() {value = 1 : i32} : () -> (i32, i32)',
    '%a = arith.constant 1 : i32\n%c:2 = "arith.addi"(%a, %a) : (i32, i32) -> (i32, i32)',
    '%a = arith.constant 1 : i32\n"arith.addi"(%a, %a) : (i32, i32) -> ()',
    '%a = arith.constant 1.0 : f32\n%c = "arith.addi"(%a, %a) : (f32, f32) -> f32',
    '%c = "arith.addi"(%d, %d) : (i32, i32) -> i32\n%d = arith.constant 1 : i32',
    '"scf.yield"() : () -> ()',
    '%a = arith.constant 1 : index\n"scf.for"(%a, %a, %a) ({\n^bb0(%i: index):\n}) : (index, index, index) -> ()',
]


@pytest.mark.parametrize("case", GENERIC_CASES)
def test_generic_form_errors_verify_identically(case: str) -> None:
    text = "func.func @f() {\n" + case + "\n  return\n}\n"
    module = parse_source(text, "t.mlir")
    diags = _diagnostics(module, True)
    assert diags  # every case is invalid
    assert diags == _diagnostics(module, False)


def test_generated_code_is_used_for_every_definition() -> None:
    reg = S.load_registry()
    for od in reg.ops.values():
        assert S._generate_verifier(od) is not None, od.name


def test_edited_programs_verify_identically() -> None:
    """Token swaps in real programs produce wrong types, counts, parents and dominance; both verifiers
    report the same diagnostics for every edit that still parses."""
    rng = random.Random(7)
    sources = [p.read_text() for p in PROGRAMS if p.parent.name in ("examples", "e2e")]
    words = ["index", "i32", "f32", "vector<8x16xf16>", "%c0", "%c1", "gpu.return", "scf.yield", "memref.dealloc"]
    parsed = 0
    for _ in range(200):
        text = rng.choice(sources)
        toks = text.split(" ")
        for _ in range(rng.randint(1, 2)):
            i = rng.randrange(len(toks))
            toks[i] = rng.choice(words) if rng.random() < 0.7 else toks[rng.randrange(len(toks))]
        parsed += _same(" ".join(toks))
    assert parsed > 20  # enough edits survive parsing to exercise the verifiers
