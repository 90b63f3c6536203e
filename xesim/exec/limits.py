"""The memory a program may allocate (``--memory-limit``, ``XESIM_MEMORY_LIMIT``; issue 27 item 3).

Global memory (``memref.alloc``/``alloca``/``get_global``, ``gpu.alloc``, private attributions, ``launch``
arguments) lives in numpy buffers of this process (xesim/hw/memory.py).  An allocation that would bring the
program's live global memory above the limit is refused *before* anything is allocated, with a located error at the
op, instead of a ``MemoryError`` -- or the kernel's out-of-memory killer -- half-way through.

The default limit is :data:`MEMORY_SHARE` of the memory this process may use: the machine's physical memory, or the
memory limit of its control group when that is smaller (a container, a CI job).  Why a third: during a launch xesim
keeps one more copy of the memory a kernel can write (the roll-back snapshot of a batch, xesim/exec/batch.py; the
starting bytes a ``--jobs`` launch compares against, xesim/exec/parallel.py; both engines under
``XESIM_ENGINE=both``), so a program at the limit needs about two thirds of the machine, leaving a third to xesim
itself, its compiled code and whatever else runs.  Not a hardware fact (a PVC card has 64 or 128 GB); a program that
needs more on a machine that has it raises the limit.
"""

from __future__ import annotations

import os
import re

from xesim.hw.memory import format_size

__all__ = ["MEMORY_SHARE", "default_memory_limit", "format_size", "parse_size", "usable_memory"]

#: the share of this process's usable memory the program's allocations may take by default (module docstring)
MEMORY_SHARE = 1 / 3

_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}


def usable_memory(cgroup_root: str = "/sys/fs/cgroup", meminfo: str = "/proc/meminfo") -> int | None:
    """Bytes of memory this process may use: physical memory (``meminfo``'s MemTotal, else ``sysconf``), capped by
    the cgroup v2 (``memory.max``) or v1 (``memory/memory.limit_in_bytes``) limit of the machine's root group when
    set.  None when nothing is readable."""
    total = None
    try:
        with open(meminfo) as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    total = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    if total is None:
        try:
            total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (AttributeError, ValueError, OSError):
            total = None
    for name in ("memory.max", "memory/memory.limit_in_bytes"):
        try:
            with open(os.path.join(cgroup_root, name)) as f:
                raw = f.read().strip()
        except OSError:
            continue
        if raw.isdigit() and int(raw) > 0:
            total = int(raw) if total is None else min(total, int(raw))
    return total


def default_memory_limit() -> int | None:
    """:data:`MEMORY_SHARE` of :func:`usable_memory` (None: unknown, no limit)."""
    total = usable_memory()
    return None if total is None else int(total * MEMORY_SHARE)


def parse_size(text: str) -> int:
    """A byte count written as an integer with an optional binary unit: ``1073741824``, ``512M``, ``16G``, ``1.5T``
    (k, M, G, T, P: powers of 1024; an optional ``B``/``iB``; a fraction only with a unit).  Raises ValueError
    for anything else or a size that is not positive."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgGtTpP]?)(?:i?[bB])?\s*", text)
    if m is None or ("." in m.group(1) and not m.group(2)):  # no fractions of a byte
        raise ValueError(f"not a size: {text!r} (a number of bytes, or with a unit: 512M, 16G)")
    n = int(float(m.group(1)) * _UNITS[m.group(2).lower()]) if "." in m.group(1) else \
        int(m.group(1)) * _UNITS[m.group(2).lower()]
    if n <= 0:
        raise ValueError(f"a size must be positive, not {text!r}")
    return n
