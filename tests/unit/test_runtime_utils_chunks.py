"""The chunked, vectorised IMEX utilities (xesim/runtime/utils_imex.py) against literal element loops.

``CHUNK`` is made small so that short arrays cross many chunk boundaries; the expected results come from the
C++ loops of spec/programs-and-runner.md §2 written out here element by element, never from the module."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from xesim.print_formats import format_g
from xesim.runtime import utils_imex


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(utils_imex, "CHUNK", 5)


def literal_allclose(m: np.ndarray, n: np.ndarray) -> bool:
    """``for i: if (std::fabs(m[i] - n[i]) > atol + rtol * std::fabs(n[i])) return false;`` in float."""
    atol, rtol = np.float32(1e-4), np.float32(1e-3)
    with np.errstate(invalid="ignore", over="ignore"):
        for i in range(min(m.size, n.size)):
            x, y = np.float32(m[i]), np.float32(n[i])
            if abs(x - y) > atol + rtol * abs(y):
                return False
    return True


def literal_max_error(m: np.ndarray, n: np.ndarray) -> str:
    """The printMaxError loop in double: first index with a strictly larger delta (rel), starting at 0."""
    inf = float("inf")
    best = {"absolute": (0.0, 0, inf, inf), "relative": (0.0, 0, inf, inf)}
    for i in range(min(m.size, n.size)):
        a, b = float(m[i]), float(n[i])
        delta = abs(a - b)
        big = abs(b) if abs(a) < abs(b) else abs(a)
        rel = math.nan if (big == 0 or math.isnan(big) or math.isinf(big) and math.isinf(delta)) else delta / big
        for what, err in (("absolute", delta), ("relative", rel)):
            if err > best[what][0]:
                best[what] = (err, i, a, b)
    return "".join(f"Max {w} error {format_g(v)} at idx={i} (i={format_g(x)}, j={format_g(y)})\n"
                   for w, (v, i, x, y) in best.items())


VALUES = np.array([0.0, -0.0, 1.0, 1.0001, 1.002, -1.0, 1e-5, 2e-4, 3.0, np.inf, -np.inf, np.nan, 65504.0,
                   0.1, 1e-40], np.float32)


@pytest.mark.parametrize("dt", [np.float32, np.float16, ml_dtypes.bfloat16])
def test_allclose_matches_the_element_loop_across_chunks(dt) -> None:
    rng = np.random.default_rng(1)
    outcomes = set()
    for trial in range(300):
        size = int(rng.integers(0, 23))
        n = rng.choice(VALUES, size + int(rng.integers(0, 3)))
        m = n[:size].astype(dt)
        # Mostly close: a few elements nudged, sometimes past the threshold, at any chunk position.
        for i in rng.integers(0, max(size, 1), int(rng.integers(0, 3))):
            if size:
                m[i] = rng.choice(VALUES)
        want = literal_allclose(m, n)
        outcomes.add(want)
        assert utils_imex.allclose_values(m, n) == want, (trial, m, n)
    assert outcomes == {True, False}


def test_allclose_failure_in_a_late_chunk_is_found() -> None:
    n = np.ones(23, np.float32)
    m = n.copy()
    m[21] = 1.5
    assert literal_allclose(m, n) is False and utils_imex.allclose_values(m, n) is False
    m[21] = np.nan  # NaN compares false: close
    assert literal_allclose(m, n) is True and utils_imex.allclose_values(m, n) is True


@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_max_error_matches_the_element_loop_across_chunks(dt) -> None:
    rng = np.random.default_rng(2)
    for trial in range(300):
        size = int(rng.integers(0, 23))
        m = rng.choice(VALUES, size).astype(dt)
        n = rng.choice(VALUES, size + int(rng.integers(0, 3))).astype(dt)
        assert utils_imex.max_error_text(m, n) == literal_max_error(m, n), (trial, m, n)


def test_max_error_tie_in_a_later_chunk_keeps_the_first_index() -> None:
    m = np.zeros(17, np.float32)
    n = np.zeros(17, np.float32)
    n[[3, 8, 16]] = 2.0  # equal largest deltas in chunks 0, 1 and 3
    text = utils_imex.max_error_text(m, n)
    assert text == literal_max_error(m, n)
    assert text.startswith("Max absolute error 2 at idx=3 (i=0, j=2)\n")


@pytest.mark.parametrize("gen_int", [False, True])
@pytest.mark.parametrize("dt", [np.float32, np.float16, ml_dtypes.bfloat16])
def test_random_values_in_chunks_are_one_sequence(gen_int, dt) -> None:
    """Chunked draws equal one draw of all the doubles: lower + (upper − lower)·u, truncated when genInt (an
    int has no −0), then double → float → T."""
    count, lo, hi = 23, -3.5, 2.25
    seed = np.random.SeedSequence([5, 0])
    got = utils_imex.random_values(np.random.Generator(np.random.PCG64(seed)), count, lo, hi, gen_int, np.dtype(dt))
    u = np.random.Generator(np.random.PCG64(seed)).random(count)
    want = []
    for x in u.tolist():
        v = lo + (hi - lo) * x
        if gen_int:
            v = float(int(v))  # static_cast<int>
        want.append(np.float32(v).astype(dt))
    assert got.dtype == np.dtype(dt)
    assert np.array_equal(got.view(np.uint8), np.array(want, dt).view(np.uint8))
    assert len(set(got.tolist())) > 3


def test_read_as_views_the_memory_read_only_and_logical_array_copies() -> None:
    from tests.unit.test_runtime_utils import F32, FakeEngine, buffer, view
    from xesim.runtime.utils_print import read_as

    eng = FakeEngine()
    m = buffer(eng, np.arange(12, dtype=np.float32).reshape(3, 4), F32, np.float32)
    sub = view(m, 5, [2, 2], [4, 1])  # rows 1-2, columns 1-2
    seen = read_as(sub, np.dtype(np.float32))
    copy = sub.logical_array()
    assert seen.tolist() == [[5.0, 6.0], [9.0, 10.0]] and not seen.flags.writeable
    eng.memory.write(m.aligned + 5 * 4, np.array([-1.0], np.float32))
    assert seen[0, 0] == -1.0 and copy[0, 0] == 5.0  # the view follows the memory, the copy does not
