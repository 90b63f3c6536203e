"""The op-definition loader rejects bad data on load (issue 2 section 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from xesim.ir.opdefs import OpDefError, load_registry

GOOD = '''
[[op]]
name = "t.add"
operands = [{ name = "lhs", type = "AnyInteger" }, { name = "rhs", type = "AnyInteger" }]
results = [{ name = "result", type = "AnyInteger" }]
format = "$lhs `,` $rhs attr-dict `:` type($result)"
infer = { lhs = "$result", rhs = "$result" }
examples = ["%0 = t.add %a, %b : i32"]
'''


def load_text(tmp_path: Path, text: str, name: str = "t.toml"):
    d = tmp_path / "dialects"
    d.mkdir(exist_ok=True)
    (d / name).write_text(text)
    return load_registry(str(tmp_path))


def test_good_definition_loads(tmp_path: Path) -> None:
    reg = load_text(tmp_path, GOOD)
    assert reg.ops["t.add"].operand_names == ["lhs", "rhs"]


@pytest.mark.parametrize(
    "old,new,message",
    [
        ('type = "AnyInteger" }, { name = "rhs"', 'type = "NoSuchConstraint" }, { name = "rhs"', "unknown type constraint 'NoSuchConstraint'"),
        ("$lhs `,` $rhs attr-dict", "$lhs attr-dict", "format does not mention operand 'rhs'"),
        ('infer = { lhs = "$result", rhs = "$result" }', 'infer = { lhs = "$result" }', "type of operand 'rhs' is neither printed nor inferred"),
        ('examples = ["%0 = t.add %a, %b : i32"]', "", "no example"),
        ("format = \"$lhs", "formatx = \"$lhs", "unknown keys"),
        ('infer = { lhs = "$result", rhs = "$result" }', 'infer = { lhs = "nosuch($result)", rhs = "$result" }', "unknown inference function"),
        ('results = [', 'traits = ["flying"]\nresults = [', "unknown traits"),
        ("attr-dict `:`", "custom<Nope>($lhs) attr-dict `:`", "unknown custom directive 'Nope'"),
    ],
)
def test_bad_definitions_are_rejected(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in GOOD
    with pytest.raises(OpDefError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_text(tmp_path, GOOD.replace(old, new))


def test_duplicate_op_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "dialects").mkdir()
    (tmp_path / "dialects" / "a.toml").write_text(GOOD)
    (tmp_path / "dialects" / "b.toml").write_text(GOOD)
    with pytest.raises(OpDefError, match="duplicate definition"):
        load_registry(str(tmp_path))


def test_attribute_not_in_format_without_attr_dict(tmp_path: Path) -> None:
    text = GOOD.replace("attr-dict ", "").replace('results = [', 'attributes = [{ name = "flag", kind = "unit", optional = true }]\nresults = [')
    with pytest.raises(OpDefError, match="does not mention attribute 'flag'"):
        load_text(tmp_path, text)


def test_every_named_verifier_predicate_is_implemented() -> None:
    """The definitions name their predicates; the verifier resolves them (the IR does not import the verifier), so
    a misspelt name must be caught here rather than when a program first uses the op."""
    import xesim.verify.structural  # noqa: F401  (registers the predicates of every rules_<dialect> module)
    from xesim.verify.predicates import PREDICATES

    reg = load_registry()
    missing = sorted((name, v) for name, od in reg.ops.items() for v in od.verifiers if v not in PREDICATES)
    assert missing == []
