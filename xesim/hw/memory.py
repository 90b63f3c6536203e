"""Flat 64-bit address space with bounds-checked allocations (ARCHITECTURE.md "Values and memory";
spec/programs-and-runner.md §3.2 "Common host-side facts").

Every allocation gets an aligned base address (at least 64 bytes, so 2D block alignment rules can be
checked; bases are spaced so that an access past one allocation never lands in the next) and reads as zero
when fresh (real programs rely on zero-filled ``gpu.alloc``).  Any access resolves an address range to
(allocation, offset); out-of-bounds ranges, accesses after free, double frees and unknown addresses raise
:class:`MemoryFault` with a message naming the address, the allocation and its extent.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

GLOBAL_BASE = 0x7F3A_0000_0000
GUARD_BYTES = 4096


def format_size(n: int) -> str:
    """``n`` bytes in the largest binary unit that keeps the number at least 1 (``4.0 TiB``, ``512 bytes``)."""
    for unit, name in ((1 << 50, "PiB"), (1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= unit:
            return f"{n / unit:.1f} {name}"
    return f"{n} bytes"


class MemoryFault(Exception):
    """An illegal memory access; ``str()`` is the user-facing explanation."""


@dataclass
class Allocation:
    base: int
    size: int
    data: np.ndarray  # uint8 bytes
    kind: str  # "host" (memref.alloc/alloca), "device" (gpu.alloc), "global" (memref.global), "slm"
    label: str = ""
    alive: bool = True
    freed_by: str = ""
    extra: dict = field(default_factory=dict)

    #: one copy of the bytes (a :class:`BankedAllocation` has one per bank)
    banked = False

    @property
    def end(self) -> int:
        return self.base + self.size

    def describe(self) -> str:
        what = f"{self.kind} allocation"
        if self.label:
            what += f" {self.label}"
        return f"{what} [0x{self.base:x}, 0x{self.end:x}) of {self.size} bytes"


class BankedAllocation(Allocation):
    """An allocation with one copy of its bytes per *bank*: ``rows [banks, size]``.  ``data`` is the row of the bank
    ``bank()`` names at the moment of the access (the executor's current instance); a bank-aware consumer indexes
    ``rows`` itself.  Addresses, bounds and lifetime are shared by every bank."""

    banked = True

    def __init__(self, base: int, size: int, rows: np.ndarray, kind: str, label: str,
                 bank: Callable[[], int]) -> None:
        self.rows = rows
        self.bank = bank
        super().__init__(base, size, rows, kind, label)

    @property  # type: ignore[override]
    def data(self) -> np.ndarray:
        return self.rows[self.bank()]

    @data.setter
    def data(self, value: np.ndarray) -> None:
        if value is not self.rows:  # only the dataclass constructor assigns it
            raise TypeError("a banked allocation's bytes are its rows")


class AddressSpace:
    """One address space (global memory, or one workgroup's SLM)."""

    def __init__(self, name: str = "global", base: int = GLOBAL_BASE, alignment: int = 64,
                 capacity: int | None = None, limit: int | None = None, limit_note: str = "") -> None:
        """``capacity``: the space's size (SLM: the target's bytes per workgroup).  ``limit``: the most bytes its live
        allocations may hold together, a resource limit of the simulation (xesim/exec/limits.py), explained in the
        refusal by ``limit_note``."""
        self.name = name
        self.limit = limit
        self.limit_note = limit_note
        self.live_bytes = 0
        self.alignment = alignment
        self.capacity = capacity
        self._next = base
        self._origin = base
        self._bases: list[int] = []
        self._allocs: list[Allocation] = []

    # ----------------------------------------------------------------------------- allocation
    def allocate(self, size: int, kind: str, label: str = "", alignment: int | None = None) -> Allocation:
        align = max(alignment or 0, self.alignment)
        base = (self._next + align - 1) // align * align
        if self.capacity is not None and base + size - self._origin > self.capacity:
            used = base - self._origin
            raise MemoryFault(
                f"{self.name} allocation of {size} bytes exceeds the {self.capacity}-byte capacity "
                f"({used} bytes already in use)"
            )
        if self.limit is not None and self.live_bytes + size > self.limit:
            # exact again before refusing (a checkpoint restore, xesim/observe/crosscheck.py, edits the lists)
            self.live_bytes = sum(a.size for a in self._allocs if a.alive)
        if self.limit is not None and self.live_bytes + size > self.limit:
            note = f" ({self.limit_note})" if self.limit_note else ""
            raise MemoryFault(
                f"allocation of {size} bytes ({format_size(size)}) refused: with the {format_size(self.live_bytes)} "
                f"already allocated it exceeds the memory limit of {format_size(self.limit)}{note}"
            )
        try:
            alloc = self._new_allocation(base, size, kind, label)
        except MemoryError:  # under the limit, but more than the host can give now
            raise MemoryFault(f"allocation of {size} bytes ({format_size(size)}) failed: the host has no memory for "
                              "it") from None
        self.live_bytes += size
        self._bases.append(base)
        self._allocs.append(alloc)
        self._next = base + max(size, 1) + (GUARD_BYTES if self.capacity is None else 0)
        return alloc

    def _new_allocation(self, base: int, size: int, kind: str, label: str) -> Allocation:
        return Allocation(base, size, np.zeros(max(size, 0), dtype=np.uint8), kind, label)

    def free(self, addr: int, by: str = "") -> Allocation:
        alloc = self._find(addr)
        if alloc is None or alloc.base != addr:
            raise MemoryFault(f"free of address 0x{addr:x}, which is not the start of any allocation")
        if not alloc.alive:
            first = f" (first freed by {alloc.freed_by})" if alloc.freed_by else ""
            raise MemoryFault(f"double free of {alloc.describe()}{first}")
        alloc.alive = False
        alloc.freed_by = by
        self.live_bytes -= alloc.size
        return alloc

    # ----------------------------------------------------------------------------- lookup
    def _find(self, addr: int) -> Allocation | None:
        i = bisect.bisect_right(self._bases, addr) - 1
        if i < 0:
            return None
        a = self._allocs[i]
        if addr < a.base + max(a.size, 1):
            return a
        return None

    def allocation_at(self, addr: int) -> Allocation | None:
        """The allocation containing ``addr`` (alive or not), or None."""
        return self._find(addr)

    def resolve(self, addr: int, nbytes: int) -> tuple[Allocation, int]:
        """Check ``[addr, addr + nbytes)`` lies in one live allocation; return it and the byte offset."""
        a = self._find(addr)
        if a is None:
            near = self._nearest(addr)
            hint = f"; nearest is {near.describe()}" if near is not None else ""
            raise MemoryFault(f"access of {nbytes} bytes at address 0x{addr:x} outside any {self.name} allocation{hint}")
        if not a.alive:
            raise MemoryFault(f"use after free: access at 0x{addr:x} in freed {a.describe()}")
        off = addr - a.base
        if off + nbytes > a.size:
            raise MemoryFault(
                f"out-of-bounds access of {nbytes} bytes at 0x{addr:x} (byte offset {off}) in {a.describe()}"
            )
        return a, off

    def _nearest(self, addr: int) -> Allocation | None:
        i = bisect.bisect_right(self._bases, addr) - 1
        cands = [self._allocs[j] for j in (i, i + 1) if 0 <= j < len(self._allocs)]
        if not cands:
            return None
        return min(cands, key=lambda a: min(abs(addr - a.base), abs(addr - a.end)))

    # ----------------------------------------------------------------------------- access
    def read(self, addr: int, nbytes: int) -> np.ndarray:
        a, off = self.resolve(addr, nbytes)
        return a.data[off : off + nbytes]

    def write(self, addr: int, raw: np.ndarray) -> None:
        raw = np.ascontiguousarray(raw).view(np.uint8).reshape(-1)
        a, off = self.resolve(addr, raw.size)
        a.data[off : off + raw.size] = raw

    def live_allocations(self) -> list[Allocation]:
        return [a for a in self._allocs if a.alive]


class BankedSpace(AddressSpace):
    """An address space laid out once and stored ``banks`` times (:class:`BankedAllocation`): the shared local
    memories of several workgroups that run together, whose allocations are made by the same code in the same order
    and so sit at the same addresses (spec/programs-and-runner.md §3.2: SLM is per workgroup)."""

    def __init__(self, banks: int, bank: Callable[[], int], name: str = "global", base: int = GLOBAL_BASE,
                 alignment: int = 64, capacity: int | None = None) -> None:
        super().__init__(name, base, alignment, capacity)
        self.banks = banks
        self.bank = bank

    def _new_allocation(self, base: int, size: int, kind: str, label: str) -> Allocation:
        rows = np.zeros((self.banks, max(size, 0)), dtype=np.uint8)
        return BankedAllocation(base, size, rows, kind, label, self.bank)
