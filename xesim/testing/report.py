"""The terminal view of ``xesim test``: a rich progress bar while tests run, one line per result that is not a
PASS (every line with ``-v``), the failures' details, and a summary table (issue 26 item 2).

Result lines go to the given console (stdout by default); on a terminal the progress bar sits below them."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from xesim.testing.pipeline import FAILING, VERDICTS
from xesim.testing.suite import Result, counts

_STYLE = {"PASS": "green", "FAIL": "bold red", "UNSUPPORTED": "yellow", "XFAIL": "green", "XPASS": "bold red",
          "UNRESOLVED": "bold red"}


class TerminalReport:
    """Progress and result lines for ``total`` tests; use as a context manager, call :meth:`add` per result."""

    def __init__(self, total: int, verbose: bool = False, file: TextIO | None = None) -> None:
        self.console = Console(file=file, highlight=False, soft_wrap=True)
        self.verbose = verbose
        self.progress = Progress(TextColumn("[bold]xesim test"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.description}"), TimeElapsedColumn(), console=self.console,
                                 transient=True, disable=not self.console.is_terminal)
        self.task = self.progress.add_task("", total=total)

    def __enter__(self) -> TerminalReport:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(*exc)

    def add(self, r: Result) -> None:
        """One finished test: its line (unless a quiet PASS) and the bar's advance."""
        o = r.outcome
        if self.verbose or o.verdict != "PASS":
            self.console.print(f"[{_STYLE[o.verdict]}]{o.verdict}[/]: {r.test.name} ({r.seconds:.2f}s) -- "
                               f"{o.reason}", markup=True)
        self.progress.update(self.task, advance=1, description=r.test.name)

    def finish(self, results: list[Result]) -> None:
        """The failures' details, then the summary table."""
        failed = [r for r in results if r.outcome.verdict in FAILING]
        for r in failed:
            self.console.rule(f"[bold red]{r.outcome.verdict}[/]: {r.test.name}")
            self.console.print(r.outcome.reason, markup=False)
            if r.outcome.details:
                self.console.print(r.outcome.details.rstrip(), markup=False)
        table = Table(title="xesim test summary", show_edge=True)
        table.add_column("verdict")
        table.add_column("tests", justify="right")
        for verdict, n in counts(results).items():
            if n or verdict in ("PASS", "FAIL"):
                table.add_row(f"[{_STYLE[verdict]}]{verdict}[/]", str(n))
        table.add_row("total", str(len(results)))
        self.console.print(table)


__all__ = ["TerminalReport", "VERDICTS"]
