"""The progress bar of ``xesim run`` (issue 28 item 5; xesim/observe/progress.py): what it draws for a launch, that
short launches draw nothing, and when the CLI shows it (terminal, CI, --quiet, --progress)."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from rich.console import Console

from tests.conftest import run_xesim
from xesim.api import load, make_engine
from xesim.cli import show_progress
from xesim.observe.progress import LaunchProgress

ROOT = Path(__file__).resolve().parents[2]
SG_GEMM = ROOT / "examples" / "sg_gemm_f16.mlir"  # one launch, grid 4x2


def run_with(delay: float) -> tuple[LaunchProgress, str, str]:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=100, color_system=None)
    bar = LaunchProgress(console, delay=delay)
    out = io.StringIO()
    engine = make_engine(load(SG_GEMM).module, out=out)
    engine.subscribe(bar)
    engine.run("main")
    return bar, buf.getvalue(), out.getvalue()


def test_a_launch_draws_kernel_workgroups_and_elapsed_then_erases_it():
    bar, drawn, out = run_with(0)
    assert bar.shown == 1 and bar.total == 8 and bar.done == 8
    assert "@kernels::@gemm" in drawn and "8/8 workgroups" in drawn
    assert "0:00:0" in drawn  # elapsed h:mm:ss
    assert "\x1b[2K" in drawn  # transient: the line is cleared at the end
    assert "@kernels::@gemm" not in out  # the program's output is untouched


def test_a_short_launch_draws_nothing():
    bar, drawn, _ = run_with(30)
    assert bar.shown == 0 and drawn == "" and bar.timer is None


def _args(quiet=False, progress=False):
    return argparse.Namespace(quiet=quiet, progress=progress)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_when_the_cli_shows_it():
    tty, pipe = _Tty(), io.StringIO()
    assert show_progress(_args(), tty, {}) is True
    assert show_progress(_args(), pipe, {}) is False  # piped stderr
    assert show_progress(_args(), tty, {"CI": "true"}) is False
    assert show_progress(_args(), tty, {"CI": "0"}) is True
    assert show_progress(_args(progress=True), pipe, {"CI": "true"}) is True  # asked for
    assert show_progress(_args(quiet=True, progress=True), tty, {}) is False


def test_piped_run_prints_no_progress():
    status, out, err = run_xesim(["run", str(SG_GEMM)])
    assert status == 0 and err == ""


class _Recorder(LaunchProgress):
    def workgroup_begin(self, ks) -> None:
        super().workgroup_begin(ks)
        self.seen.append(self.done)


def test_done_counts_finished_workgroups_one_at_a_time_and_in_batches(monkeypatch):
    monkeypatch.setenv("XESIM_GRF", "off")  # let the launch batch
    for batch, expected in (("1", list(range(8))), ("2048", [0] * 8)):
        monkeypatch.setenv("XESIM_BATCH", batch)
        rec = _Recorder(Console(file=io.StringIO()), delay=60)
        rec.seen = []
        engine = make_engine(load(SG_GEMM).module, out=io.StringIO())
        engine.subscribe(rec)
        engine.run("main")
        # one at a time: workgroup k starts when k are done; one batch of 8: none is done until the launch ends
        assert rec.seen == expected and rec.done == 8
