"""Evaluation orders of XeTile's reductions (shared/spec/xetile.md §3.9, §5 Q8): left folds and IMEX's column-block
halving tree, on numpy arrays with any binary combining function.  Used by ``xetile.reduction``
(:mod:`xesim.exec.ops.xetile_compute`) and by ``vector.multi_reduction`` where IMEX's pipeline rewrites it into one
(§5 Q15, :mod:`xesim.exec.ops.vector`); this module imports neither, so both can import it."""

from __future__ import annotations

from typing import Any

import numpy as np


def fold_rows(x: np.ndarray, f: Any) -> np.ndarray:
    """Left fold over axis 0: ``(((x0 ⊕ x1) ⊕ x2) ...)``, keeping the axis (``[1, ...]``)."""
    acc = x[0]
    for i in range(1, x.shape[0]):
        acc = f(acc, x[i])
    return np.asarray(acc)[None]


def fold_columns_imex(x: np.ndarray, f: Any, block: int) -> np.ndarray:
    """§3.9 dims [1]: per row a lane-wise left fold over the column blocks of width ``block``, then the halving
    tree ``p = [p[l] ⊕ p[l + h] for l < h]`` (h = len // 2; an odd length carries its last element)."""
    r, c = x.shape
    blocks = x.reshape(r, c // block, block)
    p = blocks[:, 0, :]
    for b in range(1, c // block):
        p = f(p, blocks[:, b, :])
    p = np.asarray(p)
    while p.shape[1] > 1:
        h = p.shape[1] // 2
        nxt = np.asarray(f(p[:, :h], p[:, h:2 * h]))
        if p.shape[1] % 2:
            nxt = np.concatenate([nxt, p[:, 2 * h:]], axis=1)
        p = nxt
    return p


def fold_columns(x: np.ndarray, f: Any, order: str, bits: int) -> np.ndarray:
    """§3.9 dims [1] in evaluation order ``order`` (``xetile.reduction.order``, §5 Q8): ``sequential`` a left fold
    per row, ``imex`` :func:`fold_columns_imex` over IMEX's column blocks; ``[R, 1]``."""
    if order == "sequential":
        return fold_rows(np.ascontiguousarray(x.T), f).T
    return fold_columns_imex(x, f, column_block(x.shape[1], bits))


def column_block(c: int, bits: int) -> int:
    """§3.9: the largest divisor of ``c`` not above 512 / bits (IMEX BlockingAnalysis getDefaultSize)."""
    cap = max(1, 512 // bits)
    for w in range(min(c, cap), 0, -1):
        if c % w == 0:
            return w
    return 1
