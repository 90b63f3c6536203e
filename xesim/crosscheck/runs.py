"""Running a program for the cross-check: its stdout and the :class:`~xesim.crosscheck.printlog.PrintLog`."""

from __future__ import annotations

from typing import Any

from xesim.crosscheck.printlog import LineCounter, PrintLog


def run_logged(module: Any, entry: str = "main", observers: tuple = (), **options: Any) -> tuple[str, PrintLog, Any]:
    """Run ``entry`` of ``module`` with run-configuration ``options`` (as :func:`xesim.api.make_engine` takes
    them), with extra ``observers`` subscribed, and return what it printed, the log of its print ops and the engine
    (its target knows which assumed hardware parameters the run read)."""
    from xesim.api import make_engine

    out = LineCounter()
    engine = make_engine(module, out=out, **options)
    log = PrintLog(out)
    engine.subscribe(log)
    for obs in observers:
        engine.subscribe(obs)
    engine.run(entry)
    return out.getvalue(), log, engine
