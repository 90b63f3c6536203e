"""The parsed dialect registry is kept in the user cache across processes (xesim/ir/opdefs.py
``load_registry``; xesim/user_cache.py): read back instead of re-parsed, never stale, never fatal."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from xesim.ir import opdefs
from xesim.ir.opdefs import load_registry
from xesim.paths import ISA_DIR
from xesim.user_cache import cache_root, cache_subdir, write_atomically


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private XESIM_CACHE_DIR; the in-process registry is dropped before and after the test."""
    monkeypatch.setenv("XESIM_CACHE_DIR", str(tmp_path / "cache"))
    load_registry.cache_clear()
    yield tmp_path / "cache"
    load_registry.cache_clear()


def _files(cache: Path) -> list[Path]:
    return sorted((cache / "registry").glob("registry-*.pickle"))


def _parse_fails(*_a: object, **_k: object) -> None:
    raise AssertionError("the dialect files were parsed although a cached registry exists")


def test_second_process_reads_the_cached_registry(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_registry()
    assert len(_files(cache)) == 1
    load_registry.cache_clear()  # as a new process would start
    monkeypatch.setattr(opdefs, "_load_dialect_file", _parse_fails)
    second = load_registry()
    assert second is not first
    assert second.ops == first.ops  # dataclass equality, field by field (sets compare as sets)
    assert second.enums == first.enums
    assert second.ops["xegpu.dpas"] is not first.ops["xegpu.dpas"]


def test_cached_registry_parses_like_a_fresh_one(cache: Path) -> None:
    from xesim.ir.parser import parse_source
    from xesim.ir.printer import print_module

    text = (Path(__file__).resolve().parents[2] / "examples" / "sg_gemm_f16.mlir").read_text()
    fresh = print_module(parse_source(text, "x.mlir"))
    load_registry.cache_clear()
    assert _files(cache)  # written by the first parse
    assert print_module(parse_source(text, "x.mlir")) == fresh


def test_digest_follows_the_definitions() -> None:
    texts = [(p, p.read_bytes()) for p in sorted((ISA_DIR / "dialects").glob("*.toml"))]
    same = opdefs._registry_digest(list(texts))
    assert opdefs._registry_digest(texts) == same
    path, data = texts[0]
    edited = [(path, data + b"\n# an edit\n")] + texts[1:]
    assert opdefs._registry_digest(edited) != same
    renamed = [(path.with_name("other.toml"), data)] + texts[1:]
    assert opdefs._registry_digest(renamed) != same


def test_registries_of_other_digests_are_removed(cache: Path) -> None:
    d = cache_subdir("registry")
    stale = d / "registry-0000.pickle"
    stale.write_bytes(b"old")
    load_registry()
    files = _files(cache)
    assert len(files) == 1 and files[0] != stale


def test_damaged_cache_file_is_rebuilt(cache: Path) -> None:
    load_registry()
    (path,) = _files(cache)
    path.write_bytes(b"not a pickle")
    load_registry.cache_clear()
    reg = load_registry()
    assert "xegpu.dpas" in reg.ops
    assert isinstance(pickle.loads(path.read_bytes()), opdefs.Registry)  # rewritten whole


def test_foreign_object_in_cache_file_is_ignored(cache: Path) -> None:
    load_registry()
    (path,) = _files(cache)
    path.write_bytes(pickle.dumps({"ops": {}}))
    load_registry.cache_clear()
    assert "xegpu.dpas" in load_registry().ops


def test_unwritable_cache_is_not_fatal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("XESIM_CACHE_DIR", str(blocker))  # mkdir under a file fails
    load_registry.cache_clear()
    try:
        assert cache_subdir("registry") is None
        assert "xegpu.dpas" in load_registry().ops
    finally:
        load_registry.cache_clear()


def test_other_isa_dirs_are_not_cached(cache: Path, tmp_path: Path) -> None:
    isa = tmp_path / "isa"
    (isa / "dialects").mkdir(parents=True)
    (isa / "dialects" / "arith.toml").write_bytes((ISA_DIR / "dialects" / "arith.toml").read_bytes())
    assert "arith.addf" in load_registry(str(isa)).ops
    assert _files(cache) == []


def test_cache_root_default_and_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("XESIM_CACHE_DIR", raising=False)
    assert cache_root() == Path.home() / ".cache" / "xesim"
    monkeypatch.setenv("XESIM_CACHE_DIR", str(tmp_path))
    assert cache_root() == tmp_path


def test_write_atomically(tmp_path: Path) -> None:
    target = tmp_path / "f.bin"
    assert write_atomically(target, b"one")
    assert write_atomically(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["f.bin"]  # no temporary left behind
    assert not write_atomically(tmp_path / "missing-dir" / "f.bin", b"x")
