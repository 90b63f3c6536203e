"""`xesim test -j 2` stopped by SIGINT, SIGTERM (a CI timeout) or SIGKILL: no worker process remains after one
second (the process table is read), the exit status says how it ended, and no report file is left half-written
(xesim/testing/suite.py, xesim/testing/procs.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process table in /proc")


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        out.update(int(x) for x in text.split())
    return out


def _alive(pid: int) -> bool:
    """Running (not gone, not a zombie waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


#: a test that runs until it is stopped: a kernel loop of 10^9 iterations (examples/ci-suite's tests end too soon
#: now that first runs compile nothing: the signal must arrive while both workers are inside a test)
SPIN = """// RUN: xesim run %s | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @spin(%out: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant 1000000000 : index
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) {
        %b = arith.addi %a, %one : i32
        scf.yield %b : i32
      }
      memref.store %r, %out[%c0] : memref<1xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %d = gpu.alloc () : memref<1xi32>
    gpu.launch_func @k::@spin blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<1xi32>)
    return
  }
}
// CHECK: never printed
"""


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -9)])
def test_no_worker_survives(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, sig: signal.Signals,
                            status: int) -> None:
    suite = tmp_path_factory.mktemp("spin-suite")
    for name in ("spin1.mlir", "spin2.mlir"):
        (suite / name).write_text(SPIN)
    report = tmp_path / "report.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "xesim", "test", "-j", "2", str(suite), "--json", str(report)],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT), "XESIM_JOBS": "1"},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as from a terminal, not a background job
    try:
        deadline = time.monotonic() + 120
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            workers = _children(proc.pid)
        assert len(workers) == 2, "the two workers never started"
        time.sleep(0.5)   # inside the run
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
        t_end = time.monotonic()
        while any(_alive(w) for w in workers) and time.monotonic() < t_end + 1.0:
            time.sleep(0.05)
        assert [w for w in workers if _alive(w)] == []
        assert proc.returncode == status, err
        if sig == signal.SIGINT:
            assert "xesim test: interrupted (no report written)" in err and "Traceback" not in err
        if sig != signal.SIGKILL:
            assert "Traceback" not in err
        assert not report.exists() and list(tmp_path.iterdir()) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
