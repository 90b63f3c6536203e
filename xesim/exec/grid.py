"""The workgroups of a launch grid as a lazy sequence (issue 27 item 3: a 2^31-workgroup grid costs no memory
before it runs).

Workgroups are numbered in grid order, x fastest (spec/programs-and-runner.md §3.2): number ``k`` of a grid
``(gx, gy, gz)`` is workgroup ``(k % gx, k // gx % gy, k // (gx * gy))``.  :class:`Workgroups` is a contiguous run of
those numbers; indexing computes the id, slicing gives another run, so the launcher, the batch runner and the
``--jobs`` pieces (xesim/exec/parallel.py) cut a grid of any size in constant memory.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

Workgroup = tuple[int, int, int]


class Workgroups(Sequence[Workgroup]):
    """Workgroups ``start`` to ``stop - 1`` (grid order) of grid ``grid``; a read-only sequence of id triples."""

    __slots__ = ("grid", "start", "stop")

    def __init__(self, grid: tuple[int, int, int], start: int = 0, stop: int | None = None) -> None:
        gx, gy, gz = grid
        total = gx * gy * gz
        self.grid = (gx, gy, gz)
        self.start = max(0, min(start, total))
        self.stop = total if stop is None else max(self.start, min(stop, total))

    def __len__(self) -> int:
        return self.stop - self.start

    def _id(self, k: int) -> Workgroup:
        gx, gy, _ = self.grid
        return (k % gx, k // gx % gy, k // (gx * gy))

    @overload
    def __getitem__(self, index: int) -> Workgroup: ...

    @overload
    def __getitem__(self, index: slice) -> Workgroups: ...

    def __getitem__(self, index: int | slice) -> Workgroup | Workgroups:
        if isinstance(index, slice):
            lo, hi, step = index.indices(len(self))
            if step != 1:
                raise ValueError("a run of workgroups is sliced with step 1 only")
            return Workgroups(self.grid, self.start + lo, self.start + max(lo, hi))
        n = len(self)
        k = index + n if index < 0 else index
        if not 0 <= k < n:
            raise IndexError(f"workgroup {index} of a run of {n}")
        return self._id(self.start + k)

    def __iter__(self) -> Iterator[Workgroup]:
        gx, gy, _ = self.grid
        for k in range(self.start, self.stop):
            yield (k % gx, k // gx % gy, k // (gx * gy))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Workgroups):
            return len(self) == len(other) and (len(self) == 0 or (self.grid, self.start) == (other.grid, other.start))
        if isinstance(other, (list, tuple)):
            return len(self) == len(other) and all(a == tuple(b) for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a sequence compared by value

    def __repr__(self) -> str:
        return f"Workgroups(grid={self.grid}, {self.start}..{self.stop})"
