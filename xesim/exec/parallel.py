"""Workgroups of one kernel launch spread over processes (``--jobs N``; issue 7 §3).

Placeholder: runs every workgroup in this process.  ``run_workgroups(engine, kernel, workgroups, runner)`` calls
``runner(subset)`` for subsets of ``workgroups`` (in grid order) so that memory, printed output and the first
fault are the same as ``runner(workgroups)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def run_workgroups(engine: Any, kernel: Any, workgroups: list[tuple[int, int, int]],
                   runner: Callable[[list[tuple[int, int, int]]], None]) -> None:
    """Run ``workgroups`` through ``runner`` (serially for now)."""
    runner(workgroups)
