"""Equal tiles of a batch: which of ``nb`` matrices hold exactly the same bits.

A batched GEMM step shares its B operand between every subgroup of a column of C tiles (all the M-dimension
tiles of one N range): a 1024^3 GEMM's batch of 2048 subgroups holds 16 distinct B tiles per K step.  DPAS
decodes B once per distinct tile (:func:`xesim.numerics.dpas._fast16_call`) and indexes the decodings through
the class map this module computes.  The grouping compares bits exactly (a hash only chooses which earlier tile
to compare with), so two tiles share a class only when every bit is equal: the result cannot depend on it.
"""

from __future__ import annotations

import numba
import numpy as np

from xesim.numerics import tiers

#: the class map of a one-tile batch
_ONE = np.zeros(1, np.int64)
_ONE.flags.writeable = False


def tile_classes(bits: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """``bits``: a C-contiguous ``(nb, ...)`` integer array of ``nb`` tiles.  Returns ``(classes, firsts)``:
    ``classes[x]`` is the class of tile ``x`` (int64, read-only), numbered in order of first appearance, and
    ``firsts[c]`` the first tile of class ``c``; ``firsts`` is None when every tile is its own class
    (``classes`` is then ``0..nb-1``)."""
    nb = bits.shape[0]
    if nb <= 1:
        return _ONE[:nb], None
    words = bits.reshape(nb, -1)
    if words.shape[1] * words.itemsize % 8 == 0:  # compare and hash eight bytes at a time
        words = words.view(np.uint64)
    classes, firsts, count = _classes(words) if TIER.compiled(words.size) else classes_uncompiled(words)
    classes.flags.writeable = False
    if count == nb:
        return classes, None
    return classes, firsts[:count]


def classes_uncompiled(words: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """:func:`_classes` without numba (small batches on a fresh install, :mod:`xesim.numerics.tiers`): rows of
    ``words`` grouped by exact equality (``numpy.unique`` over rows), classes numbered in order of first appearance
    as :func:`_classes` numbers them.  Returns (classes, firsts, count)."""
    _, first, inverse = np.unique(words, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first)  # the classes by their first tile
    rank = np.empty(len(order), np.int64)
    rank[order] = np.arange(len(order))
    return rank[inverse.reshape(-1)], first[order].astype(np.int64), len(order)


#: the compiled table or its uncompiled twin (:mod:`xesim.numerics.tiers`); unit: one word compared; twin seconds
#: per call and per word, compile and load seconds measured by tools/bench_tiers.py
TIER = tiers.Family("tile-classes", per_call_s=3e-5, per_unit_s=1.4e-7, compile_s=0.7, load_s=0.13,
                    dispatchers=lambda: (_classes,))


@numba.njit(cache=True)
def _classes(words):  # noqa: ANN001, ANN202
    """Open-addressing table keyed by a multiplicative hash of each row of ``words`` (nb, L); a hit is confirmed
    by comparing every word, a collision probes on.  Returns (classes, firsts, count)."""
    nb, n_words = words.shape
    bits = 1
    while (1 << bits) < 2 * nb:
        bits += 1
    size = 1 << bits
    table = np.full(size, -1, np.int64)
    classes = np.empty(nb, np.int64)
    firsts = np.empty(nb, np.int64)
    count = 0
    mult = np.uint64(0x9E3779B97F4A7C15)
    top = np.uint64(64 - bits)
    quads = n_words - n_words % 4
    for x in range(nb):
        # four independent xor-multiply chains (no chain waits on another), folded and mixed at the end; the
        # table slot is taken from the high bits, which depend on every bit of every word
        h0 = np.uint64(1)
        h1 = np.uint64(2)
        h2 = np.uint64(3)
        h3 = np.uint64(4)
        for i in range(0, quads, 4):
            h0 = (h0 ^ np.uint64(words[x, i])) * mult
            h1 = (h1 ^ np.uint64(words[x, i + 1])) * mult
            h2 = (h2 ^ np.uint64(words[x, i + 2])) * mult
            h3 = (h3 ^ np.uint64(words[x, i + 3])) * mult
        for i in range(quads, n_words):
            h0 = (h0 ^ np.uint64(words[x, i])) * mult
        h = ((h0 * mult) ^ h1) * mult
        h = ((h ^ h2) * mult ^ h3) * mult
        h = (h ^ (h >> np.uint64(32))) * mult
        slot = np.int64(h >> top)
        while True:
            c = table[slot]
            if c < 0:
                table[slot] = count
                firsts[count] = x
                classes[x] = count
                count += 1
                break
            y = firsts[c]
            same = True
            for i in range(n_words):
                if words[x, i] != words[y, i]:
                    same = False
                    break
            if same:
                classes[x] = c
                break
            slot = (slot + 1) & (size - 1)
    return classes, firsts, count
