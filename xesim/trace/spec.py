"""What a trace records: the output file, the filters and the limits (``xesim run --trace``; traces/FORMAT.md).

Filters select what is recorded; everything still executes:

* ``kernels``: globs on the kernel symbol ``module::function`` or the function name (``--trace-kernel``);
* ``workgroups``: workgroups by linear number in grid order, x fastest (``5``, ``0-3``), or by id (``1:0:0``; a
  missing y or z is 0) (``--trace-wg``).  Workgroups not selected run as without tracing (batched);
* ``subgroups``: subgroup ids within a workgroup (``--trace-sg 0,2-3``);
* ``ops``: globs on op names (``--trace-ops 'xegpu.*'``); ops not selected are not recorded;
* ``values``: result and operand values recorded per op: ``none``, ``all``, or a number N = values of at most N
  elements per subgroup (default 4096: every tile of a GEMM kernel, no whole-workgroup reductions);
* ``limit_mb``: a cap on the recorded data; when reached, recording stops with a message (the run goes on) and the
  trace says it is truncated.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

DEFAULT_VALUES = 4096
DEFAULT_LIMIT_MB = 512


class TraceSpecError(ValueError):
    """A filter or limit that does not parse (the message names the option)."""


@dataclass(frozen=True)
class TraceSpec:
    """Recording options (module docstring).  Empty filter tuples select everything."""

    path: str
    kernels: tuple[str, ...] = ()
    workgroups: tuple[tuple, ...] = ()  # ("n", lo, hi) linear ranges (inclusive) or ("id", x, y, z)
    subgroups: tuple[tuple[int, int], ...] = ()  # inclusive ranges
    ops: tuple[str, ...] = ()
    values: int = DEFAULT_VALUES  # -1: all, 0: none, N: at most N elements
    limit_mb: float = DEFAULT_LIMIT_MB

    def kernel_selected(self, name: str) -> bool:
        if not self.kernels:
            return True
        short = name.split("::")[-1]
        return any(fnmatch.fnmatchcase(name, g) or fnmatch.fnmatchcase(short, g) for g in self.kernels)

    def workgroup_selected(self, wg: tuple[int, int, int], grid: tuple[int, int, int]) -> bool:
        if not self.workgroups:
            return True
        linear = wg[0] + grid[0] * (wg[1] + grid[1] * wg[2])
        for sel in self.workgroups:
            if sel[0] == "n" and sel[1] <= linear <= sel[2]:
                return True
            if sel[0] == "id" and tuple(sel[1:]) == tuple(wg):
                return True
        return False

    def subgroup_selected(self, sg: int) -> bool:
        return not self.subgroups or any(lo <= sg <= hi for lo, hi in self.subgroups)

    def op_selected(self, name: str) -> bool:
        return not self.ops or any(fnmatch.fnmatchcase(name, g) for g in self.ops)

    def value_selected(self, elements: int) -> bool:
        return self.values < 0 or elements <= self.values

    def describe(self) -> dict:
        """The options as JSON-able data (stored in the trace's meta record)."""
        return {"kernels": list(self.kernels), "workgroups": [list(w) for w in self.workgroups],
                "subgroups": [list(s) for s in self.subgroups], "ops": list(self.ops), "values": self.values,
                "limit_mb": self.limit_mb}


def _int(text: str, option: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise TraceSpecError(f"{option}: {text!r} is not a non-negative integer") from None
    if n < 0:
        raise TraceSpecError(f"{option}: {text!r} is not a non-negative integer")
    return n


def _range(item: str, option: str) -> tuple[int, int]:
    lo, sep, hi = item.partition("-")
    a = _int(lo.strip(), option)
    b = _int(hi.strip(), option) if sep else a
    if b < a:
        raise TraceSpecError(f"{option}: empty range {item!r}")
    return a, b


def parse_workgroups(text: str, option: str = "--trace-wg") -> tuple[tuple, ...]:
    """``'0,2-3,1:1'`` -> (("n", 0, 0), ("n", 2, 3), ("id", 1, 1, 0))."""
    out: list[tuple] = []
    for item in _items(text, option):
        if ":" in item:
            parts = [_int(p.strip(), option) for p in item.split(":")]
            if len(parts) > 3:
                raise TraceSpecError(f"{option}: {item!r} has more than three ids (x:y:z)")
            out.append(("id", *(parts + [0] * (3 - len(parts)))))
        else:
            out.append(("n", *_range(item, option)))
    return tuple(out)


def parse_ranges(text: str, option: str = "--trace-sg") -> tuple[tuple[int, int], ...]:
    """``'0,2-3'`` -> ((0, 0), (2, 3))."""
    return tuple(_range(item, option) for item in _items(text, option))


def parse_values(text: str, option: str = "--trace-values") -> int:
    """``none`` -> 0, ``all`` -> -1, ``N`` -> N."""
    t = text.strip().lower()
    if t == "none":
        return 0
    if t == "all":
        return -1
    try:
        n = int(t)
    except ValueError:
        n = -1
    if n < 1:
        raise TraceSpecError(f"{option}: expected none, all or a positive number of elements, not {text!r}")
    return n


def _items(text: str, option: str) -> list[str]:
    items = [s.strip() for s in text.split(",")]
    if not text.strip() or any(not s for s in items):
        raise TraceSpecError(f"{option}: expected a comma-separated list, not {text!r}")
    return items
