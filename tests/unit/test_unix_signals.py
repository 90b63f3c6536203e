"""Clean Unix behaviour of ``xesim run`` (issue 26 item 6, issue 27 item 4), tested on real processes: a closed
output pipe, SIGINT (also inside a compiled 10^12-iteration host loop), SIGTERM and SIGKILL of the parent during a
``--jobs 2`` launch -- after each, the process table holds no worker.  Waits are generous but bounded (the machine
may be busy); the one-second bounds are the issues' own."""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.unit.test_run_limits import COMPILED_LOOP, PRINTING_LOOP
from xesim import unix

ROOT = Path(__file__).resolve().parents[2]

#: 8 workgroups, each looping for ever in interpreted kernel code: a --jobs 2 launch forks a worker
SPREAD_KERNEL = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @spin(%out: memref<64xi64>) kernel {
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant 1000000000000 : index
      %z = arith.constant 0 : i64
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
        %v = arith.index_cast %i : index to i64
        %s = arith.addi %acc, %v : i64
        scf.yield %s : i64
      }
      memref.store %r, %out[%bx] : memref<64xi64>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %d = gpu.alloc () : memref<64xi64>
    gpu.launch_func @kernels::@spin blocks in (%c8, %c1, %c1) threads in (%c16, %c1, %c1) args(%d : memref<64xi64>)
    gpu.dealloc %d : memref<64xi64>
    return
  }
}
"""


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XESIM_")}
    return {**env, "PYTHONPATH": str(ROOT), "XESIM_GRF": "off", **extra}


def _xesim(*args: str, **popen: object) -> subprocess.Popen:
    """``xesim`` as a user starts it: its own process, the console entry point (``main()`` without arguments)."""
    code = "import sys; from xesim.cli import main; sys.argv[0] = 'xesim'; sys.exit(main())"
    return subprocess.Popen([sys.executable, "-c", code, *args], **popen)  # type: ignore[call-overload]


def _stat(pid: int) -> list[str] | None:
    """Fields 3.. of /proc/PID/stat (state, parent pid, ...), or None when there is no such process."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _children(pid: int) -> list[int]:
    found = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            fields = _stat(int(d.name))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(d.name))
    return found


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a process that still runs (a zombie has ended: only its exit status remains)."""
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def _wait_for(what: str, ready, seconds: float = 120.0):  # noqa: ANN001 - a predicate
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = ready()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"no {what} after {seconds} s")


def _none_alive_within(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while any(map(_alive, pids)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return [p for p in pids if _alive(p)]


def _kill_left_over(proc: subprocess.Popen, workers: list[int]) -> None:
    """Clean-up after a failed assertion: the processes this test started, by their ids."""
    for pid in [proc.pid, *workers]:
        if _alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    proc.wait(timeout=30)


def test_a_closed_output_pipe_ends_the_run_quietly(tmp_path: Path) -> None:
    """``xesim run prog.mlir | head -1``: no message, the status of a program SIGPIPE ended (141), like any C
    program in that pipeline."""
    path = tmp_path / "prints.mlir"
    path.write_text(PRINTING_LOOP)  # a million lines
    proc = _xesim("run", str(path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    try:
        assert proc.stdout.readline() == b"0\n"
        proc.stdout.close()  # what head does after its line
        _, err = proc.communicate(timeout=300)
    finally:
        _kill_left_over(proc, [])
    assert err.decode() == ""
    assert proc.returncode == unix.EXIT_BROKEN_PIPE == 141


def test_sigint_stops_a_compiled_host_loop_within_a_second(tmp_path: Path) -> None:
    """A 10^12-iteration host loop compiled to native code: SIGINT ends the process with status 130 within one
    second, with a located error naming the loop."""
    path = tmp_path / "loop.mlir"
    path.write_text(COMPILED_LOOP)
    env = _env(XESIM_CACHE_DIR=str(tmp_path / "cache"), XESIM_JIT_DEBUG="1")
    # compile once (the numba cache then holds the nest), so the run below spends its time in the loop itself
    warm = _xesim("run", str(path), "--max-steps", "10", stderr=subprocess.PIPE, env=env)
    assert "limit of 10 steps" in warm.communicate(timeout=600)[1].decode()
    proc = _xesim("run", str(path), stderr=subprocess.PIPE, env=env)
    try:
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(io.TextIOWrapper(proc.stderr)), daemon=True)
        reader.start()
        _wait_for("compiled loop", lambda: any("running the compiled loop nest at" in ln for ln in lines))
        time.sleep(1.0)  # inside the native loop by now (it is 10^12 iterations long)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        proc.wait(timeout=60)
        took = time.monotonic() - sent
        reader.join(timeout=30)
    finally:
        _kill_left_over(proc, [])
    assert proc.returncode == unix.EXIT_INTERRUPTED == 130
    assert took < 1.0, f"exited {took:.2f} s after SIGINT"
    errors = [ln.rstrip("\n") for ln in lines if not ln.startswith("xesim jit:")]
    assert errors == [f"{path}:6:3: error: interrupted in this 'scf.for' loop",
                      "  scf.for %i = %c0 to %n step %c1 {", "  ^"]


def _spread_launch(tmp_path: Path) -> tuple[subprocess.Popen, list[int]]:
    path = tmp_path / "spin.mlir"
    path.write_text(SPREAD_KERNEL)
    proc = _xesim("run", str(path), "--jobs", "2", stderr=subprocess.PIPE, env=_env())
    workers = _wait_for("worker process", lambda: _children(proc.pid))
    time.sleep(0.5)  # the launch is under way in both processes
    return proc, workers


@pytest.mark.parametrize(("signum", "status", "word"), [(signal.SIGINT, 130, "interrupted"),
                                                        (signal.SIGTERM, 143, "terminated")])
def test_sigint_and_sigterm_during_a_jobs_launch_leave_no_worker(tmp_path: Path, signum: int, status: int,
                                                                 word: str) -> None:
    proc, workers = _spread_launch(tmp_path)
    try:
        assert proc.poll() is None and all(map(_alive, workers))
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
        left = _none_alive_within(workers, 1.0)
    finally:
        _kill_left_over(proc, workers)
    assert left == []
    assert proc.returncode == status
    first = err.decode().splitlines()[0]
    assert f"error: {word}" in first and "(kernel @kernels::@spin, workgroup (0, 0, 0), subgroup 0)" in first
    assert first.startswith(str(tmp_path / "spin.mlir") + ":")


def test_sigkill_of_the_parent_during_a_jobs_launch_leaves_no_worker(tmp_path: Path) -> None:
    """SIGKILL cannot be caught: the workers die with their parent (PR_SET_PDEATHSIG)."""
    proc, workers = _spread_launch(tmp_path)
    try:
        proc.kill()
        proc.wait(timeout=60)
        left = _none_alive_within(workers, 1.0)
    finally:
        _kill_left_over(proc, workers)
    assert proc.returncode == -signal.SIGKILL
    assert left == []


def test_the_output_wrapper_turns_a_broken_pipe_into_output_closed() -> None:
    class Closed(io.StringIO):
        def write(self, s: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self) -> None:
            raise OSError(32, "Broken pipe")

    out = unix.GuardedOutput(Closed())
    with pytest.raises(unix.OutputClosed):
        out.write("x")
    with pytest.raises(unix.OutputClosed):
        out.flush()
    assert not issubclass(unix.OutputClosed, Exception)  # no op's fault handling takes it for a fault
    fine = unix.GuardedOutput(io.StringIO())
    fine.write("abc")
    assert fine.getvalue() == "abc"


def test_a_file_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "out.mlir"
    target.write_text("old\n")
    unix.write_atomically(target, "new\n")
    assert target.read_text() == "new\n"

    def interrupted(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        unix.write_atomically(target, "half" * 1000)
    assert target.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mlir"]  # no temporary file left


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real pseudo-terminal")
def test_ctrl_c_in_a_terminal_during_a_jobs_launch(tmp_path: Path) -> None:
    """As a person does it: ``xesim run --jobs 2`` in a terminal (tmux), Ctrl-C.  The terminal sends SIGINT to the
    whole foreground process group, workers included; the run reports "interrupted", the shell gets status 130
    and no worker is left."""
    path = tmp_path / "spin.mlir"
    path.write_text(SPREAD_KERNEL)
    session = f"xesim-test-{os.getpid()}"
    command = (f"PYTHONPATH={ROOT} XESIM_GRF=off {sys.executable} -c 'import sys; from xesim.cli import main; "
               f"sys.exit(main())' run {path} --jobs 2; echo status=$?")
    tmux = ["tmux", "-L", session]
    subprocess.run([*tmux, "new-session", "-d", "-s", session, "-x", "250", "-y", "50", "bash --norc --noprofile"],
                   check=True)
    try:
        subprocess.run([*tmux, "send-keys", "-t", session, command, "Enter"], check=True)  # typed, as a person does
        pane_pid = int(subprocess.run([*tmux, "display-message", "-p", "-t", session, "#{pane_pid}"],
                                      capture_output=True, text=True, check=True).stdout)
        xesim = _wait_for("xesim process", lambda: _children(pane_pid))[0]
        workers = _wait_for("worker process", lambda: _children(xesim))
        time.sleep(0.5)
        subprocess.run([*tmux, "send-keys", "-t", session, "C-c"], check=True)

        def screen() -> str:
            return subprocess.run([*tmux, "capture-pane", "-p", "-J", "-t", session], capture_output=True,
                                  text=True, check=True).stdout  # -J: wrapped lines joined

        text = _wait_for("status line", lambda: "\nstatus=" in screen() and screen(), 60)
        left = _none_alive_within(workers, 1.0)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
    assert "\nstatus=130\n" in text
    assert f"{path}:" in text and "error: interrupted" in text and "kernel @kernels::@spin" in text
    assert "Traceback" not in text
    assert left == []
