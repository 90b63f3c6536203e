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
