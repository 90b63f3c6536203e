"""Every op defined in isa/dialects has execution semantics (an @impl), and every @impl has a definition
(ARCHITECTURE.md principle 1; issue 3 section 1).  (xegpu ops whose semantics belong to later issues — dpas_mx —
have implementations that raise a located "not supported yet" error.)"""

from __future__ import annotations

import xesim.exec.ops  # noqa: F401  (registers the implementations)
from xesim.exec.registry import IMPLS
from xesim.ir.opdefs import load_registry

PENDING_DIALECTS: set[str] = set()
PENDING_OPS: set[str] = set()


def test_every_defined_op_is_implemented() -> None:
    reg = load_registry()
    missing = sorted(
        name for name, od in reg.ops.items()
        if name not in IMPLS and od.dialect not in PENDING_DIALECTS and name not in PENDING_OPS
    )
    assert missing == []


def test_every_implementation_has_a_definition() -> None:
    reg = load_registry()
    assert sorted(n for n in IMPLS if n not in reg.ops) == []


def test_pending_list_is_not_stale() -> None:
    for name in PENDING_OPS:
        assert name not in IMPLS, f"{name} is implemented now: remove it from PENDING_OPS"
