"""Every op defined in isa/dialects has parser support and examples that parse, verify and print back
identically (ARCHITECTURE.md principle 1; issue 2 section 2)."""

from __future__ import annotations

import pytest

from xesim.ir.opdefs import load_registry
from xesim.ir.parser import parse_source
from xesim.ir.printer import print_module
from xesim.verify.structural import verify_module

REGISTRY = load_registry()
CASES = [(name, i, ex) for name, od in sorted(REGISTRY.ops.items()) for i, ex in enumerate(od.examples)]


@pytest.mark.parametrize("name,index,example", CASES, ids=[f"{n}#{i}" for n, i, _ in CASES])
def test_example_round_trips(name: str, index: int, example: str) -> None:
    module = parse_source(example, f"{name} example {index}", fragment=True)
    ops = module.body.ops
    assert ops, "example holds no op"
    assert any(op.name == name for top in ops for op in top.walk()), f"example does not use {name}"
    verify_module(module)
    printed = print_module(module).strip()
    assert printed == example.strip()
    # printing is a fixed point
    again = print_module(parse_source(printed, "reprint", fragment=True)).strip()
    assert again == printed


def test_every_op_has_a_format_and_example() -> None:
    for name, od in REGISTRY.ops.items():
        assert od.formats, name
        assert od.examples, name
