"""Batched kernel execution along the leading instance axis (issue 7 §3).  Placeholder: no batching yet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def runner(engine: Any, kernel: Any, level: str, instances: list, args: list,
           run_workgroups: Callable[[list], None]) -> Callable[[list], None] | None:
    """A runner executing many instances together, or None when the kernel is run instance by instance."""
    return None
