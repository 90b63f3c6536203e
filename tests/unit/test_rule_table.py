"""Both engines take every scalar op's semantics from the same rules (xesim/numerics/scalar_rules.py OP_RULES).

A loop nest holding every op compiled loops support, on i1/i8/i32/i64/index and f16/bf16/f32/f64, runs under
``XESIM_ENGINE=both``; the rules each engine looked up for each op (scalar_rules.lookup records them) must be
the same, and the table must cover the ops.  A rule looked up for an op it is not registered for is refused.
"""

from __future__ import annotations

import os

import pytest

from xesim.exec import rule_table
from xesim.exec.jit import codegen
from xesim.numerics import scalar_rules as R  # noqa: N812 - short alias


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    base = os.environ.get("XESIM_TEST_CACHE_DIR") or str(tmp_path_factory.getbasetemp() / "xesim-cache")
    monkeypatch.setenv("XESIM_CACHE_DIR", base)


def test_both_engines_use_the_same_rules_for_every_op():
    usage = rule_table.engine_usage()
    assert not {op: pair for op, pair in usage.items() if pair[0] != pair[1]}
    compiled_ops = {op for op in codegen.supported_ops() if op in R.OP_RULES}
    assert compiled_ops <= set(usage), sorted(compiled_ops - set(usage))
    for op, (interp, _) in usage.items():
        assert interp, op
        assert interp <= set(R.OP_RULES[op]), op


def test_every_table_rule_exists_and_lookup_refuses_others():
    for op, names in R.OP_RULES.items():
        for n in names:
            assert op in R.BY_NAME[n].__rule_ops__
    with pytest.raises(KeyError):
        R.lookup("arith.addf", "addi", "compiled")
    text = rule_table.format_table()
    assert "arith.andi" in text and "the operator &" in text
