"""Clean Unix behaviour of the command line (issue 26 item 6, issue 27 item 4).

* **A closed output pipe** (``xesim run prog.mlir | head -1``): the run ends quietly, with no message, and the
  status of a program killed by SIGPIPE, :data:`EXIT_BROKEN_PIPE` (141 = 128 + 13: what ``mlir-runner`` or any C
  program gives in that pipeline, so ``set -o pipefail`` treats xesim like them).  The program's output goes through
  :class:`GuardedOutput`, which turns ``BrokenPipeError`` into :class:`OutputClosed` -- a ``BaseException``, so no
  op's fault handling reports it as an internal error -- and :func:`output_closed` points file descriptor 1 at
  ``/dev/null`` so Python's final flush has nothing to complain about.
* **SIGINT** (Ctrl-C): the run stops within a fraction of a second, compiled loops included
  (xesim/exec/guard.py), and :func:`interrupted` prints ``file:line:col: error: interrupted`` at the op being
  executed, naming the loop it was in and the kernel instance, with status :data:`EXIT_INTERRUPTED` (130); the
  command then exits at once (:func:`exit_now`).
* **SIGTERM** (``kill``, a CI timeout's first signal): while the command runs, :func:`command_line` makes it raise
  :class:`xesim.exec.guard.Terminated`, so it unwinds like an interrupt -- worker processes are killed and reaped,
  files being written are removed -- reported as "terminated", status :data:`EXIT_TERMINATED` (143).
* **SIGKILL** cannot be caught: worker processes of ``--jobs`` die with their parent
  (:func:`xesim.exec.parallel.die_with_parent`).
* **Files** written by the command line (``xesim fmt -o``) appear whole or not at all (:func:`write_atomically`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from xesim.exec.guard import Terminated

#: exit statuses: 128 + the signal's number, as a shell reports a program the signal ended
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_TERMINATED = 128 + signal.SIGTERM
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE


class OutputClosed(BaseException):
    """The reader of the program's output went away (EPIPE).  A ``BaseException``: it ends the command, never an op."""


class GuardedOutput:
    """A text stream whose ``write`` and ``flush`` raise :class:`OutputClosed` instead of ``BrokenPipeError``;
    everything else is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise OutputClosed from None
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise OutputClosed from None
            raise

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise OutputClosed from None
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise OutputClosed from None
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _terminate(signum: int, frame: Any) -> None:  # noqa: ARG001 - a signal handler's signature
    raise Terminated()


@contextlib.contextmanager
def command_line() -> Iterator[None]:
    """While the command runs (in the main thread): SIGTERM raises :class:`~xesim.exec.guard.Terminated` unless
    someone set a handler of their own; the previous handler comes back afterwards."""
    old = None
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        old = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)


def interrupted(exc: KeyboardInterrupt, err: TextIO) -> int:
    """Report an interrupted (SIGINT) or terminated (SIGTERM) command on ``err``: located at the op the run was
    executing, with its loop and kernel instance (:func:`xesim.exec.engine.stop_diagnostic`), or ``xesim: interrupted``
    when no program was running; the exit status."""
    from xesim.exec.engine import stop_diagnostic

    terminated = isinstance(exc, Terminated)
    word = "terminated" if terminated else "interrupted"
    diag = stop_diagnostic(exc, word)
    text = diag.render() if diag.loc.known else f"xesim: {diag.message}"
    with contextlib.suppress(Exception):
        print(text, file=err)
        err.flush()
    return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED


def exit_now(status: int) -> None:
    """End the process with ``status`` at once, after flushing standard output and error: for an interrupted command,
    whose worker processes are already killed and reaped and whose files are already removed.  Python's own exit
    would first tear the interpreter down -- with numba and LLVM loaded that takes most of a second, long for a
    Ctrl-C or a CI timeout."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)


def output_closed() -> int:
    """End quietly after :class:`OutputClosed` (or a ``BrokenPipeError`` of standard output): what is still buffered
    for the closed pipe is dropped (file descriptor 1 now writes to ``/dev/null``); the exit status."""
    with contextlib.suppress(OSError, ValueError):
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)
        os.close(fd)
    return EXIT_BROKEN_PIPE


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory renamed over it: an interrupted or
    failed write leaves the old file (or none), never half of the new one."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
