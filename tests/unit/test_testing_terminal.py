"""`xesim test` in a real pseudo-terminal (tmux), as a person runs it: a progress bar while the tests run, then the
result lines and the summary table, with nothing left of the (transient) bar (xesim/testing/report.py)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (a real pseudo-terminal)")


def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def test_progress_then_summary_in_a_terminal() -> None:
    session = f"xesim-test-{uuid.uuid4().hex[:8]}"
    cmd = (f"cd {shlex.quote(str(ROOT))} && PYTHONPATH={shlex.quote(str(ROOT))} XESIM_JOBS=1 "
           f"{shlex.quote(sys.executable)} -m xesim test -j 1 examples/ci-suite; echo EXIT=$?; sleep 60")
    _tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "50", cmd)
    try:
        screen, bars = "", set()
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and "EXIT=" not in screen:
            time.sleep(0.2)
            screen = _tmux("capture-pane", "-p", "-t", session)
            bars.update(re.findall(r"^xesim test [━╺╸ ]+ (\d+/\d+)", screen, re.M))
        assert "EXIT=1" in screen, screen                      # the deliberately failing test
        assert bars, "no progress bar seen while the tests ran"
        assert all(b.endswith("/8") for b in bars)              # "done/total" of the 8 tests
        assert "FAIL: failing/wrong_check.mlir" in screen and "UNSUPPORTED: vulkan/saxpy.mlir" in screen
        assert "PASS: xegpu/answer_i32.mlir" not in screen      # passes are quiet without -v
        assert "xesim test summary" in screen and "│ total       │     8 │" in screen
        assert not any(line.startswith("xesim test ━") for line in screen.splitlines())
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
