"""Which form of a kernel family runs a call (xesim/numerics/tiers.py): the decision, not its timing."""

from __future__ import annotations

import pytest

from xesim.numerics import tiers


class _FakeCacheFile:
    def __init__(self, index: dict) -> None:
        self.index = index

    def _load_index(self) -> dict:
        return self.index


class _FakeDispatcher:
    """The part of a numba dispatcher :func:`tiers.on_disk` reads."""

    def __init__(self, index: dict) -> None:
        self._cache = type("Cache", (), {"_cache_file": _FakeCacheFile(index)})()


@pytest.fixture(autouse=True)
def _decide_per_call() -> None:
    """The suite pins the compiled forms (tests/conftest.py); these tests look at the per-call decision."""
    tiers.set_default(None)
    yield
    tiers.set_default(tiers.COMPILED)


def test_choose_runs_the_twin_while_the_budget_holds_the_call() -> None:
    assert not tiers.choose(0.0, 0.25, 1.0) and not tiers.choose(0.75, 0.25, 1.0)  # up to the budget: the twin
    assert tiers.choose(0.0, 1.5, 1.0)  # one call above the budget: compiled at once
    assert tiers.choose(0.75, 0.2, 1.0) is False and tiers.choose(0.85, 0.2, 1.0)  # the calls so far plus this one
    assert not tiers.choose(0.5, 0.25, 1.0)  # a quarter of the budget: still the twin
    assert tiers.choose(0.0, 0.3, 1.0)  # one call of more than a quarter: compiled at once (a large batch)


def test_a_family_switches_to_compiled_for_good_once_its_twin_work_passes_the_budget() -> None:
    fam = tiers.Family("t", per_call_s=0.05, per_unit_s=0.01, compile_s=1.0 / tiers.SHARE, load_s=0.1)
    assert fam.estimate(15) == pytest.approx(0.2)
    assert [fam.compiled(15) for _ in range(5)] == [False] * 5  # 0.2, 0.4, ... 1.0 s
    assert fam.spent_s == pytest.approx(1.0)
    assert fam.compiled(0)  # 0.05 s more would pass the budget
    assert fam.compiled(0)  # sticky: the compilation is paid
    assert fam.calls == {tiers.COMPILED: 2, tiers.UNCOMPILED: 5}


def test_one_large_call_compiles_at_once() -> None:
    fam = tiers.Family("t", per_call_s=0.0, per_unit_s=1e-9, compile_s=1.0 / tiers.SHARE, load_s=0.1)
    assert fam.compiled(2e9)
    assert fam.spent_s == 0.0


def test_the_budget_is_the_load_time_when_numbas_cache_holds_every_dispatcher() -> None:
    cached = _FakeDispatcher({("sig",): "entry"})
    missing = _FakeDispatcher({})
    compile_s = 10.0 / tiers.SHARE  # a budget of 10 s on a fresh install
    load_s = 0.5 / tiers.SHARE  # a budget of 0.5 s when numba's cache holds the family
    warm = tiers.Family("t", 0.0, 0.01, compile_s=compile_s, load_s=load_s, dispatchers=lambda: (cached, cached))
    cold = tiers.Family("t", 0.0, 0.01, compile_s=compile_s, load_s=load_s, dispatchers=lambda: (cached, missing))
    nothing = tiers.Family("t", 0.0, 0.01, compile_s=compile_s, load_s=load_s, dispatchers=lambda: ())
    assert warm.budget() == pytest.approx(0.5) and cold.budget() == pytest.approx(10.0)
    assert nothing.budget() == pytest.approx(10.0)
    assert warm.compiled(100) and not cold.compiled(100)  # 1 s of twin work: more than loading, less than compiling


def test_on_disk_is_false_for_anything_without_numbas_cache() -> None:
    assert not tiers.on_disk(object())
    assert not tiers.on_disk(_FakeDispatcher({}))
    assert tiers.on_disk(_FakeDispatcher({"k": 1}))


def test_force_and_set_default_pin_every_family_and_nest() -> None:
    fam = tiers.Family("t", per_call_s=0.0, per_unit_s=1.0, compile_s=10.0, load_s=1.0)
    with tiers.force(tiers.UNCOMPILED):
        assert not fam.compiled(1e12)
        with tiers.force(tiers.COMPILED):
            assert fam.compiled(0)
        assert tiers.forced() == tiers.UNCOMPILED
    assert tiers.forced() is None
    assert fam.spent_s == 0.0 and not fam.compiled_now  # forced calls leave the decision alone
    tiers.set_default(tiers.UNCOMPILED)
    assert not fam.compiled(1e12)
    with pytest.raises(ValueError, match="mode must be"):
        with tiers.force("sometimes"):
            pass
