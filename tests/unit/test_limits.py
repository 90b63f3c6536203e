"""Resource limits of a run (xesim/exec/limits.py): sizes as users write them, the default memory limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from xesim.exec import limits


@pytest.mark.parametrize(("text", "size"), [("1073741824", 1 << 30), ("512M", 512 << 20), ("16G", 16 << 30),
                                            ("1.5T", 3 << 39), ("64k", 65536), ("2GiB", 2 << 30), (" 8 MB ", 8 << 20)])
def test_sizes_with_binary_units(text: str, size: int) -> None:
    assert limits.parse_size(text) == size


@pytest.mark.parametrize("text", ["", "G", "-1G", "0", "1.5", "12 apples", "0x100"])
def test_what_is_not_a_size(text: str) -> None:
    with pytest.raises(ValueError, match="size"):
        limits.parse_size(text)


def _files(tmp_path: Path, mem_total_kib: int, cgroup: dict[str, str]) -> tuple[str, str]:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text(f"MemTotal:       {mem_total_kib} kB\nMemFree:        1 kB\n")
    root = tmp_path / "cgroup"
    for name, text in cgroup.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return str(root), str(meminfo)


def test_usable_memory_is_physical_memory_capped_by_the_control_group(tmp_path: Path) -> None:
    root, meminfo = _files(tmp_path, 16 << 20, {})  # 16 GiB, no control group limit
    assert limits.usable_memory(root, meminfo) == 16 << 30
    root, meminfo = _files(tmp_path, 16 << 20, {"memory.max": "max\n"})  # cgroup v2 without a limit
    assert limits.usable_memory(root, meminfo) == 16 << 30
    root, meminfo = _files(tmp_path, 16 << 20, {"memory.max": f"{4 << 30}\n"})  # a 4 GiB container
    assert limits.usable_memory(root, meminfo) == 4 << 30
    (tmp_path / "cgroup" / "memory.max").unlink()
    root, meminfo = _files(tmp_path, 16 << 20, {"memory/memory.limit_in_bytes": f"{2 << 30}\n"})  # cgroup v1
    assert limits.usable_memory(root, meminfo) == 2 << 30


def test_the_default_limit_is_a_share_of_usable_memory(monkeypatch) -> None:
    monkeypatch.setattr(limits, "usable_memory", lambda: 12 << 30)
    assert limits.default_memory_limit() == int((12 << 30) * limits.MEMORY_SHARE) == 4 << 30
    monkeypatch.setattr(limits, "usable_memory", lambda: None)
    assert limits.default_memory_limit() is None
