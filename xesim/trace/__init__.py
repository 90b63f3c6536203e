"""Execution traces (issue 28): ``load(path)`` reads a ``.xetrace`` file into a :class:`Trace` of numpy tables
(traces/FORMAT.md); :class:`TraceSpec` says what a run records (``xesim run --trace``, ``Program.run(trace=...)``).
The recorder is :class:`xesim.observe.tracer.Tracer`; the commands ``xesim trace summary | log | export | view``
are in :mod:`xesim.trace.commands`."""

from __future__ import annotations

from xesim.trace.format import Table, Trace, TraceFormatError, load
from xesim.trace.spec import TraceSpec

__all__ = ["Table", "Trace", "TraceFormatError", "TraceSpec", "load"]
