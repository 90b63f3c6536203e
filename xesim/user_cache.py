"""The user's cache directory for files xesim derives and reuses across processes.

``$XESIM_CACHE_DIR`` when set, else ``~/.cache/xesim``.  Each user of the cache has a subdirectory: ``jit``
(generated host loop nests and numba's machine code for them, :mod:`xesim.exec.jit.runner`), ``registry``
(the parsed dialect definitions, :func:`xesim.ir.opdefs.load_registry`) and ``rules`` (the interpreter's
scalar steps generated from the scalar rules, :func:`xesim.numerics.specialize.build`).  Everything in it is derived data:
deleting the directory only costs time.  This module imports nothing from the rest of xesim, so every layer
may use it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def cache_root() -> Path:
    """``$XESIM_CACHE_DIR`` or ``~/.cache/xesim`` (not created here)."""
    base = os.environ.get("XESIM_CACHE_DIR")
    return Path(base) if base else Path.home() / ".cache" / "xesim"


def cache_subdir(name: str) -> Path | None:
    """``cache_root() / name``, created if needed; None when it cannot be created (a read-only home, say)."""
    d = cache_root() / name
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return d


def write_atomically(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` through a temporary file in the same directory and a rename, so a concurrent
    reader sees the old file or the whole new one; False (nothing written) when the directory refuses it."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
