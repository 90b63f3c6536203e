"""Property test (hypothesis): token-level mutations of valid programs (deleting, duplicating, swapping and
truncating tokens) always end in a located diagnostic or a successful parse+verify — never an uncaught Python
exception — and whatever verifies prints to a fixed point (issue 2, "Done when")."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xesim.diagnostics import DiagnosticError, SourceFile
from xesim.ir.lexer import Lexer
from xesim.ir.parser import parse_source
from xesim.ir.printer import print_module
from xesim.verify.structural import verify_module

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "examples").glob("*.mlir")) + sorted((ROOT / "tests" / "mlir").glob("roundtrip_*.mlir"))


def _tokens(text: str) -> list[str]:
    lex = Lexer(SourceFile("seed", text))
    out = []
    while True:
        tok = lex.next()
        if tok.kind == "eof":
            return out
        out.append(tok.text)


SEED_TOKENS = [_tokens(p.read_text()) for p in SEEDS]


@st.composite
def mutated_programs(draw) -> str:
    toks = list(draw(st.sampled_from(SEED_TOKENS)))
    for _ in range(draw(st.integers(1, 4))):
        if not toks:
            break
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "truncate", "replace"]))
        i = draw(st.integers(0, len(toks) - 1))
        if kind == "delete":
            del toks[i]
        elif kind == "duplicate":
            toks.insert(i, toks[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(toks) - 1))
            toks[i], toks[j] = toks[j], toks[i]
        elif kind == "truncate":
            toks = toks[:i]
        else:
            toks[i] = draw(st.sampled_from(["%x", "(", ")", "{", "}", "<", ">", ":", ",", "i32", "f16", "vector",
                                            "memref", "0", "-1", "1.5", '"s"', "^bb9", "@f", "#xegpu.layout",
                                            "!xegpu.tensor_desc", "=", "->", "[", "]", "x", "?"]))
    return " ".join(toks)


def _check(text: str) -> None:
    try:
        module = parse_source(text, "mutant.mlir")
        verify_module(module)
    except DiagnosticError as exc:
        for d in exc.diagnostics:
            assert d.message
            assert d.render()  # renders with a caret, no crash
        return
    printed = print_module(module)
    again = print_module(parse_source(printed, "reprint.mlir"))
    assert again == printed


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_programs())
def test_mutations_end_in_diagnostic_or_success(text: str) -> None:
    _check(text)


def test_seed_programs_exist_and_verify() -> None:
    assert SEEDS, "no seed programs found"
    for p in SEEDS:
        _check(p.read_text())
