"""The tile pool (xesim/tile_pool.py): recycled only when nothing references a tile, fresh memory after a fork."""

from __future__ import annotations

import os
import pickle

import numpy as np
import pytest

from xesim import tile_pool
from xesim.tile_pool import TilePool

BIG = (64, 8, 16)  # 32 KiB of float32
SMALL_LIMIT = 1 << 10


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> TilePool:
    monkeypatch.setattr(tile_pool, "MIN_BYTES", SMALL_LIMIT)
    return TilePool()


def addr(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def test_a_dropped_tile_is_handed_out_again(pool: TilePool) -> None:
    a = pool.empty(BIG, np.float32)
    where = addr(a)
    assert a.shape == BIG and a.dtype == np.float32 and a.flags.c_contiguous and a.flags.writeable
    del a
    b = pool.empty(BIG, np.float32)
    assert addr(b) == where
    c = pool.empty(BIG, np.float32)  # b is alive: another tile
    assert addr(c) != where
    d = pool.empty(BIG, np.float64)  # another dtype: another tile
    assert addr(d) not in (addr(b), addr(c))


def values(held: object) -> np.ndarray:
    return np.array(held[0] if isinstance(held, list) else held)


@pytest.mark.parametrize("keep", [
    lambda a: a,
    lambda a: a[3:],
    lambda a: a.reshape(-1),
    lambda a: a.T,
    lambda a: a.view(np.uint32)[1, ::2],
    lambda a: np.asarray(a),
    lambda a: memoryview(a),
    lambda a: [a[0]],
])
def test_a_tile_referenced_directly_or_through_a_view_is_not_handed_out(pool: TilePool, keep) -> None:  # noqa: ANN001
    a = pool.empty(BIG, np.float32)
    a[...] = 7.0
    where = addr(a)
    held = keep(a)
    before = values(held)
    del a
    b = pool.empty(BIG, np.float32)
    assert addr(b) != where
    b[...] = -1.0  # writing the new tile leaves the held one alone
    assert np.array_equal(values(held), before)
    del held
    assert addr(pool.empty(BIG, np.float32)) == where


def test_small_arrays_are_not_pooled(pool: TilePool) -> None:
    a = pool.empty((4, 4), np.float32)
    assert a.shape == (4, 4) and pool.bytes == 0


def test_a_disabled_pool_is_np_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tile_pool, "MIN_BYTES", SMALL_LIMIT)
    pool = TilePool(enabled=False)
    a = pool.empty(BIG, np.float32)
    assert a.flags.owndata and pool.bytes == 0


def test_a_read_only_tile_is_writeable_when_handed_out_again(pool: TilePool) -> None:
    a = pool.empty(BIG, np.float32)
    a.flags.writeable = False
    where = addr(a)
    del a
    b = pool.empty(BIG, np.float32)
    assert addr(b) == where and b.flags.writeable


def test_past_its_limit_the_pool_starts_again_and_tiles_in_use_stay_valid(pool: TilePool,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tile_pool, "MAX_BYTES", 3 * 64 * 8 * 16 * 4)
    tiles = [pool.empty(BIG, np.float32) for _ in range(5)]
    for i, t in enumerate(tiles):
        t[...] = i
    assert pool.bytes <= tile_pool.MAX_BYTES
    assert [float(t[0, 0, 0]) for t in tiles] == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert len({addr(t) for t in tiles}) == 5


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is what the pool prepares for (Linux)")
def test_after_a_fork_both_processes_take_tiles_from_new_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Free tiles of the parent are not handed out again in the child nor in the parent (their pages are shared
    copy-on-write); a tile alive at the fork keeps its values in both."""
    monkeypatch.setattr(tile_pool, "MIN_BYTES", SMALL_LIMIT)
    monkeypatch.setattr(tile_pool.POOL, "enabled", True)
    tile_pool.POOL.reset()  # the process's pool: the module resets it at every fork
    free = tile_pool.empty(BIG, np.float32)
    alive = tile_pool.empty(BIG, np.float32)
    alive[...] = 5.0
    free_addr = addr(free)
    del free
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            got = tile_pool.empty(BIG, np.float32)
            got[...] = 1.0
            result = (addr(got), float(alive.sum()))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            result = repr(exc)
        os.write(w, pickle.dumps(result))
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        child = pickle.loads(f.read())
    os.waitpid(pid, 0)
    mine = tile_pool.empty(BIG, np.float32)
    assert isinstance(child, tuple), child
    assert child[0] not in (free_addr, addr(alive)) and addr(mine) not in (free_addr, addr(alive))
    assert child[1] == alive.size * 5.0 and float(alive.sum()) == alive.size * 5.0



def test_take_columns_is_fancy_indexing_into_a_recycled_tile(monkeypatch: pytest.MonkeyPatch) -> None:
    from xesim.exec.lanes import take_columns

    monkeypatch.setattr(tile_pool, "MIN_BYTES", SMALL_LIMIT)
    base = np.arange(64 * 300, dtype=np.float32).reshape(64, 300)
    index = np.random.default_rng(1).permutation(256).reshape(16, 16)
    got = take_columns(base, index)
    assert got.flags.c_contiguous and np.array_equal(got, base[:, index.reshape(-1)])
    with pytest.raises(IndexError, match="column 255 of a 200-column array"):
        take_columns(base[:, :200], index)
    with pytest.raises(IndexError, match="negative"):
        take_columns(base, np.array([0, -1]))


def test_this_interpreter_lets_the_pool_tell_free_tiles() -> None:
    """CPython with a GIL: the reference counts the pool reads mean what it assumes, so the pool is on (an
    interpreter where they do not would turn it off, not hand out tiles in use)."""
    assert tile_pool.refcounts_tell_free_tiles()
    assert tile_pool.POOL.enabled == (os.environ.get("XESIM_TILE_POOL", "1").strip() != "0")
