"""MLIR's diagnostic-test conventions in full (xesim/verify/expectations.py; issue 26 item 5): single- and
double-dash flags, expected-error|warning|note|remark with optional -re, spaces before @, @+N, @-N, @above,
@below, @unknown, {{regex}} pieces, split input."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_xesim
from xesim.verify.expectations import verify_file_with_expectations

# One op error: 'arith.addi' on f32 gives three errors on its line (operand #0, #1, result #0).
BAD = "  %0 = arith.addi %a, %b : f32\n"
HEAD = "func.func @f(%a: f32, %b: f32) {\n"
TAIL = "  return\n}\n"
ERRS = ("operand #0 must be signless-integer-like", "operand #1 must be signless-integer-like",
        "result #0 must be signless-integer-like")


def _file(*annotations: str, after: tuple[str, ...] = ()) -> str:
    return HEAD + "".join(f"  // {a}\n" for a in annotations) + BAD + "".join(f"  // {a}\n" for a in after) + TAIL


def _problems(text: str, split: bool = False, notes: str = "ignore") -> list[str]:
    return [d.render() for d in verify_file_with_expectations("t.mlir", text, split, unexpected_notes=notes)]


@pytest.mark.parametrize("text", [
    _file(*(f"expected-error@+{3 - i} {{{{{e}}}}}" for i, e in enumerate(ERRS))),
    _file(*(f"expected-error @+{3 - i} {{{{{e}}}}}" for i, e in enumerate(ERRS))),            # space before @
    _file(*(f"expected-error   @below {{{{{e}}}}}" for e in ERRS)),                            # @below skips annotations
    _file(after=tuple(f"expected-error@above {{{{{e}}}}}" for e in ERRS)),                    # @above skips annotations
    _file(after=tuple(f"expected-error@-{i + 1} {{{{{e}}}}}" for i, e in enumerate(ERRS))),
    _file(*("expected-error-re@below {{operand #{{[0-9]}} must be {{.*}}-like}}" for _ in range(2)),
          "expected-error-re @below {{'arith.addi' op result #{{0}} must}}"),
])
def test_annotation_forms_match(text: str) -> None:
    assert _problems(text) == []


def test_annotation_on_the_same_line() -> None:
    line = BAD.rstrip("\n") + "  " + " ".join(f"// expected-error {{{{{e}}}}}" for e in ERRS[:1])
    text = HEAD + line + "\n" + "".join(f"  // expected-error@-{i + 1} {{{{{e}}}}}\n" for i, e in enumerate(ERRS[1:])) + TAIL
    assert _problems(text) == []


def test_missing_and_unexpected_are_located() -> None:
    text = _file("expected-error@+1 {{operand #0 must be signless-integer-like}}",
                 "expected-warning@+5 {{never produced}}")
    got = _problems(text)
    assert any("t.mlir:4:3: error: unexpected error: 'arith.addi' op operand #1" in p for p in got)
    assert any("t.mlir:3:6: error: expected warning \"never produced\" was not produced" in p for p in got)


def test_regex_pieces_are_regexes_and_the_rest_literal() -> None:
    # '.' outside {{}} is literal: "result #0 must be signless.integer" does not match "signless-integer"
    text = _file(*(f"expected-error@below {{{{{e}}}}}" for e in ERRS[:2]),
                 "expected-error-re@below {{result #0 must be signless.integer}}")
    assert any('expected error-re "result #0 must be signless.integer" was not produced' in p for p in _problems(text))


def test_invalid_regex_is_a_located_error() -> None:
    text = _file("expected-error-re@+1 {{{{[}}}}")
    assert any("t.mlir:2:6: error: invalid regex in expected-*-re annotation" in p for p in _problems(text))


def test_unknown_location_annotation() -> None:
    # A diagnostic without a location (an unparsable program's file-level error is located, so use @unknown for
    # an annotation that nothing produces and check it is reported as not produced)
    got = _problems(HEAD + TAIL + "// expected-error@unknown {{somewhere}}\n")
    assert any('expected error "somewhere" was not produced' in p for p in got)


def test_split_input_file_checks_each_chunk() -> None:
    good = _file(*(f"expected-error@below {{{{{e}}}}}" for e in ERRS))
    text = good + "\n// -----\n\n" + good.replace("@f(", "@g(")
    assert _problems(text, split=True) == []
    broken = good + "\n// -----\n\n" + HEAD + BAD + TAIL
    got = _problems(broken, split=True)
    assert len(got) == 3 and all("t.mlir:12:" in p for p in got)   # line numbers are the whole file's


@pytest.mark.parametrize("flags", [["--split-input-file", "--verify-diagnostics"],
                                   ["-split-input-file", "-verify-diagnostics"],
                                   ["-verify-diagnostics", "--split-input-file"]])
def test_single_and_double_dash_flags(tmp_path: Path, flags: list[str]) -> None:
    p = tmp_path / "d.mlir"
    p.write_text(_file(*(f"expected-error@below {{{{{e}}}}}" for e in ERRS)) + "// -----\n" + HEAD + TAIL)
    assert run_xesim(["verify", *flags, str(p)])[0] == 0
    p.write_text(_file(*(f"expected-error@below {{{{{e}}}}}" for e in ERRS[:2])))
    status, _, err = run_xesim(["verify", *flags, str(p)])
    assert status == 1 and "unexpected error" in err


NOTED = """func.func @use_before_def(%c: i32) -> i32 {
  // expected-error@+1 {{'arith.addi' op operand #0 does not dominate this use}}
  %y = arith.addi %x, %c : i32
  %x = arith.constant 1 : i32
  return %y : i32
}
"""


def test_unexpected_notes_parameter() -> None:
    """isa/runner.toml verify_diagnostics.unexpected_notes: "ignore" (xesim's default: its notes are its own
    wording) lets an unannotated note pass; "error" (MLIR's rule) fails on it; an annotated note passes both."""
    assert _problems(NOTED, notes="ignore") == []
    got = _problems(NOTED, notes="error")
    assert len(got) == 1 and "t.mlir:4:3: error: unexpected note: operand defined here" in got[0]
    annotated = NOTED.replace("  %x = arith", "  // expected-note@+1 {{operand defined here}}\n  %x = arith")
    assert _problems(annotated, notes="error") == [] and _problems(annotated, notes="ignore") == []
