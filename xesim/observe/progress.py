"""A progress bar for long kernel launches (``xesim run``; issue 28 item 5).

:class:`LaunchProgress` is an observer (xesim/exec/hooks.py) that counts the workgroups a launch has started
(``workgroup_begin``; a lockstep batch announces all of its workgroups as it starts, so a workgroup counts as done
when the next one, or the next batch, starts) and, once the launch has run for ``delay``
seconds (default 1), shows a rich progress bar on its console — the kernel, workgroups done of the grid's total,
elapsed time — refreshed a few times a second by rich's own thread, and erased when the launch ends (``transient``):
the program's output and diagnostics are never interleaved with it.  Launches shorter than the delay show nothing.

With ``--jobs N`` processes (xesim/exec/parallel.py) only the workgroups of this process's pieces are counted
until the children report back; forked children never draw (the bar belongs to the process that made it).

Whether to show it is the CLI's decision (:func:`xesim.cli` ``--progress`` / ``-q``): by default only when stderr
is a terminal and the environment variable ``CI`` is not set to a true value.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from xesim.exec.hooks import Observer


class LaunchProgress(Observer):
    """The progress bar (module docstring); ``console``: a rich Console (default: stderr)."""

    name = "the progress bar"
    #: a reused launch (xesim/exec/launch_reuse.py) takes no time and has no workgroups to count: the bar need not
    #: see it run (a terminal would otherwise turn launch reuse off for every interactive run)
    needs_execution = False

    def __init__(self, console: Any = None, delay: float = 1.0) -> None:
        self.console = console
        self.delay = delay
        self.lock = threading.Lock()
        self.bar: Any = None
        self.task: Any = None
        self.timer: threading.Timer | None = None
        self.pid = -1
        self.kernel = ""
        self.total = 0
        self.done = 0  # workgroups finished
        self.begun = 0  # workgroups started
        self.t0 = 0.0
        self.shown = 0  # launches that showed the bar (tests)

    def launch_begin(self, engine: Any, kernel: Any, name: str, level: str) -> None:
        ks = engine.kstate
        gx, gy, gz = ks.grid
        self.kernel, self.total, self.done, self.begun = name, int(gx * gy * gz), 0, 0
        self.pid, self.t0 = os.getpid(), time.monotonic()
        if self.delay <= 0:
            self._show()
        else:
            self.timer = threading.Timer(self.delay, self._show)
            self.timer.daemon = True
            self.timer.start()

    def workgroup_begin(self, ks: Any) -> None:
        if os.getpid() != self.pid:
            return
        # a workgroup that starts alone, or the first of a lockstep batch (which announces all of its workgroups
        # as it starts: ks.group_ids lists them), means that every workgroup started before it is done
        ids = getattr(ks, "group_ids", None)
        if getattr(ks, "groups", 1) <= 1 or ids is None or tuple(ids[0][0].tolist()) == tuple(ks.block_id):
            self.done = self.begun
        self.begun += 1
        with self.lock:
            if self.bar is not None:
                self.bar.update(self.task, completed=min(self.done, self.total))

    def launch_end(self, engine: Any) -> None:
        if os.getpid() != self.pid:
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.done = self.begun
        with self.lock:
            if self.bar is not None:
                self.bar.update(self.task, completed=self.done)
                self.bar.stop()
                self.bar = None

    def _show(self) -> None:
        """Start drawing (from the timer's thread, or at once when ``delay`` is 0)."""
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with self.lock:
            if self.bar is not None or os.getpid() != self.pid:
                return
            console = self.console if self.console is not None else Console(stderr=True)
            self.bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                TextColumn("workgroups"), TimeElapsedColumn(), console=console, transient=True,
                                refresh_per_second=4)
            self.task = self.bar.add_task(self.kernel, total=self.total, completed=min(self.done, self.total))
            self.bar.tasks[-1].start_time = self.t0  # elapsed: since the launch started (both time.monotonic)
            self.bar.start()
            self.shown += 1
