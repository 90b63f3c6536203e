"""The flat address space: aligned zeroed allocations, bounds checks, use after free, double free."""

from __future__ import annotations

import numpy as np
import pytest

from xesim.hw.memory import AddressSpace, MemoryFault


def test_allocations_are_aligned_zeroed_and_disjoint() -> None:
    mem = AddressSpace()
    a = mem.allocate(100, "device", "%A")
    b = mem.allocate(10, "host", alignment=256)
    assert a.base % 64 == 0 and b.base % 256 == 0
    assert b.base >= a.end + 1
    assert not mem.read(a.base, 100).any()


def test_read_write_round_trip_and_bounds() -> None:
    mem = AddressSpace()
    a = mem.allocate(16, "device", "%A")
    mem.write(a.base + 4, np.array([1.5, -2.0], np.float32))
    assert mem.read(a.base + 4, 8).view(np.float32).tolist() == [1.5, -2.0]
    with pytest.raises(MemoryFault, match=r"out-of-bounds access of 4 bytes .* \(byte offset 14\)"):
        mem.read(a.base + 14, 4)
    with pytest.raises(MemoryFault, match="outside any global allocation"):
        mem.read(a.base - 8, 4)


def test_use_after_free_and_double_free() -> None:
    mem = AddressSpace()
    a = mem.allocate(8, "host", "%buf")
    mem.free(a.base, by="memref.dealloc at f.mlir:3:5")
    with pytest.raises(MemoryFault, match="use after free"):
        mem.read(a.base, 4)
    with pytest.raises(MemoryFault, match=r"double free .*%buf.*first freed by memref.dealloc at f.mlir:3:5"):
        mem.free(a.base)
    with pytest.raises(MemoryFault, match="not the start of any allocation"):
        mem.free(a.base + 4)


def test_capacity_is_enforced() -> None:
    slm = AddressSpace("SLM", base=0, capacity=128 * 1024)
    slm.allocate(100 * 1024, "slm")
    with pytest.raises(MemoryFault, match="exceeds the 131072-byte capacity"):
        slm.allocate(64 * 1024, "slm")


def test_an_allocation_over_the_limit_is_refused_before_anything_is_allocated() -> None:
    mem = AddressSpace(limit=1000, limit_note="--memory-limit")
    a = mem.allocate(600, "device", "%a")
    with pytest.raises(MemoryFault, match=r"allocation of 500 bytes \(500 bytes\) refused: with the 600 bytes already "
                                          r"allocated it exceeds the memory limit of 1000 bytes \(--memory-limit\)"):
        mem.allocate(500, "device", "%b")
    assert mem.live_bytes == 600 and len(mem._allocs) == 1  # nothing was allocated
    mem.free(a.base)
    assert mem.live_bytes == 0
    b = mem.allocate(1000, "device", "%b")  # freed bytes count no more: exactly the limit fits
    assert b.size == 1000 and mem.live_bytes == 1000


def test_a_huge_allocation_is_refused_without_touching_host_memory() -> None:
    mem = AddressSpace(limit=1 << 30)
    with pytest.raises(MemoryFault, match=r"4398046511104 bytes \(4\.0 TiB\) refused.*limit of 1\.0 GiB"):
        mem.allocate(4 << 40, "host", "%m")


def test_an_allocation_the_host_cannot_give_is_a_memory_fault(monkeypatch) -> None:
    mem = AddressSpace()  # no limit

    def no_memory(*_args: object) -> None:
        raise MemoryError

    monkeypatch.setattr(mem, "_new_allocation", no_memory)
    with pytest.raises(MemoryFault, match=r"allocation of 2048 bytes \(2\.0 KiB\) failed: the host has no memory"):
        mem.allocate(2048, "host")
    assert mem.live_bytes == 0
