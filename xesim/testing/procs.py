"""Processes the test runner starts die with their parent (issue 26 item 2: ``xesim test -j N`` workers and the
``xesim`` processes of RUN lines; a CI timeout or SIGKILL of ``xesim test`` must leave none behind).

Linux's ``prctl(PR_SET_PDEATHSIG)`` has the kernel send the child SIGTERM when the parent thread exits, however it
exits; elsewhere nothing is set and the caller's own cleanup (terminating its pool) is what remains."""

from __future__ import annotations

import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int | None = None) -> None:
    """Make the calling process receive SIGTERM when its parent exits (Linux); exit at once if the parent
    ``parent_pid`` is already gone.  Safe in a ``preexec_fn`` (no allocation beyond the first call's ctypes)."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):
            pass
    if parent_pid is not None and os.getppid() != parent_pid:
        os._exit(1)
