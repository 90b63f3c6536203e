"""Target parameter files: every value has a source; lookups, overrides, inheritance and errors."""

from __future__ import annotations

import pytest

from xesim.hw.params import TargetError, available_targets, load_target


def test_pvc_basics_and_sources() -> None:
    t = load_target("pvc")
    assert t.subgroup.size == 16
    assert t.grf.register_bytes * t.grf.count == 8192
    assert "pvc-hardware.md §5" in t.source_of("grf.register_bytes")
    assert "grf.register_bytes" in t.used


def test_every_target_loads_and_every_parameter_has_a_source() -> None:
    assert "pvc" in available_targets()
    for name in available_targets():
        t = load_target(name)
        assert t.params
        for p in t.params.values():
            assert p.source.strip(), p.path
            if p.assumed:
                assert p.evidence.strip(), p.path


def test_unknown_target_and_parameter() -> None:
    with pytest.raises(TargetError, match="unknown target 'nope'"):
        load_target("nope")
    with pytest.raises(AttributeError, match="no parameter 'grf.nope'"):
        _ = load_target("pvc").grf.nope


def test_overrides_replace_values_and_reject_unknown_paths() -> None:
    t = load_target("pvc").with_overrides({"grf.count": 256})
    assert t.grf.count == 256 and t.source_of("grf.count") == "command-line override"
    with pytest.raises(TargetError, match="unknown parameter"):
        load_target("pvc").with_overrides({"grf.nope": 1})
