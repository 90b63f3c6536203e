"""Room for deeply nested programs (issue 27 item 2).

The parser, verifier and printer are recursive descents over the program's nesting (regions, parentheses,
types); MLIR handles thousands of levels and so must xesim.  :func:`call_deep` runs such work in a thread with a
large stack and a raised Python recursion limit, so nesting of :data:`SUPPORTED_DEPTH` levels (and several times
more) fits; deeper input is a diagnostic, never a crash.  The stack is reserved address space: only the pages a
deep program touches are ever used.

Execution stays on the calling thread (the main thread handles signals such as Ctrl-C): region execution in
Python 3.11 recurses without using the C stack, and :func:`raised_recursion_limit` gives it room while a program
runs; calls are bounded by the run configuration's ``max_call_depth``.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

R = TypeVar("R")

#: the nesting depth the tests exercise through parse, verify, fmt and run
SUPPORTED_DEPTH = 10_000
#: Python frames allowed while deep work runs: about 20 frames per nesting level at the supported depth
RECURSION_LIMIT = 200_000
#: stack reserved for the front end's thread (address space; pages are committed only when touched)
STACK_BYTES = 1 << 30

_lock = threading.Lock()
_raised = 0  # how many callers currently need the raised limit
_saved_limit = 0
_deep_threads: set[int] = set()


@contextmanager
def raised_recursion_limit(limit: int = RECURSION_LIMIT) -> Iterator[None]:
    """Python's recursion limit at least ``limit`` inside the block (restored when the last such block ends)."""
    global _raised, _saved_limit
    with _lock:
        if _raised == 0:
            _saved_limit = sys.getrecursionlimit()
        _raised += 1
        if sys.getrecursionlimit() < limit:
            sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        with _lock:
            _raised -= 1
            if _raised == 0:
                sys.setrecursionlimit(_saved_limit)


def call_deep(fn: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """``fn(*args, **kwargs)`` on a thread with a :data:`STACK_BYTES` stack and the raised recursion limit;
    returns its result or raises its exception here.  Called on such a thread already, it calls ``fn`` directly.
    A ``KeyboardInterrupt`` while waiting propagates (the worker is a daemon: it does not keep the process)."""
    if threading.get_ident() in _deep_threads:
        return fn(*args, **kwargs)
    box: dict[str, Any] = {}

    def work() -> None:
        _deep_threads.add(threading.get_ident())
        try:
            box["result"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            box["error"] = exc
        finally:
            _deep_threads.discard(threading.get_ident())

    with raised_recursion_limit():
        worker = _start(work)
        if worker is None:  # no address space for any large stack (e.g. under `ulimit -v`): this thread's own
            return fn(*args, **kwargs)
        worker.join()
    if "error" in box:
        raise box["error"]
    return box["result"]


def _start(work: Callable[[], None]) -> threading.Thread | None:
    """A started daemon thread running ``work`` with the largest stack of :data:`STACK_BYTES`, a quarter and a
    sixteenth of it that the process can map (None when none)."""
    with _lock:
        previous = threading.stack_size()
        try:
            for size in (STACK_BYTES, STACK_BYTES // 4, STACK_BYTES // 16):
                threading.stack_size(size)
                worker = threading.Thread(target=work, name="xesim-deep", daemon=True)
                try:
                    worker.start()
                except RuntimeError:  # "can't start new thread": the stack could not be mapped
                    continue
                return worker
            return None
        finally:
            threading.stack_size(previous)
