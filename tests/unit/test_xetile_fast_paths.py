"""Fast paths of the XeTile memory ops (xesim/exec/ops/xetile.py): a load_tile / store_tile window wholly inside its
surface and one allocation is copied straight from memory (xesim/exec/blocks.py ``window_view``); every other
window, and every window under the reference engine, goes through the 2-D block model.

Each test runs one kernel under ``engine="fast"`` and ``engine="reference"``, checks the two give the same bytes,
checks both against the spec's reading (shared/spec/xetile.md §3.1-§3.3: element (i, j) of the tile is surface
element (row0 + i, col0 + j), out-of-bounds elements read 0 and are dropped on store) computed here by small numpy
loops, and counts the block-model calls so that a silent fallback cannot make the fast path look tested.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from xesim.api import make_engine
from xesim.exec.values import MemRefValue, dtype_of, identity_strides
from xesim.hw import block2d
from xesim.ir.parser import parse_source
from xesim.verify.structural import verify_module

VC = "attributes {VectorComputeFunctionINTEL}"
GRID = 5

#: workgroup b loads the 12x32 window at (8b, 5b) of X (b = 4 reaches past row 40 and column 48), the 12x32 window
#: at (5b, 8b) of X's column-major view Xc (Xc[r][c] = X[c][r]; b >= 2 reaches past its column 40), and stores the
#: first at (8b, 3b) of Y[b] (b = 4 past row 40) and the second at (8b, 5b) of Z[b] column-major (Z's storage read
#: as [GRID, 48, 40] with strides [1920, 1, 48]; b >= 2 past column 40 of that view)
SRC = f"""module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @f(%X: memref<40x48xf16>, %Y: memref<{GRID}x40x48xf16>, %Z: memref<{GRID}x1920xf16>) kernel {VC} {{
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      %c8 = arith.constant 8 : index
      %b = gpu.block_id x
      %r = arith.muli %b, %c8 : index
      %q = arith.muli %b, %c5 : index
      %p = arith.muli %b, %c3 : index
      %t = xetile.init_tile %X[%r, %q] : memref<40x48xf16> -> !xetile.tile<12x32xf16>
      %v = xetile.load_tile %t : !xetile.tile<12x32xf16> -> vector<12x32xf16>
      %xc = memref.reinterpret_cast %X to offset: [0], sizes: [48, 40], strides: [1, 48] : memref<40x48xf16> to memref<48x40xf16, strided<[1, 48]>>
      %tc = xetile.init_tile %xc[%q, %r] : memref<48x40xf16, strided<[1, 48]>> -> !xetile.tile<12x32xf16, #xetile.tile_attr<order = [0, 1]>>
      %vc = xetile.load_tile %tc : !xetile.tile<12x32xf16, #xetile.tile_attr<order = [0, 1]>> -> vector<12x32xf16>
      %ty = xetile.init_tile %Y[%b, %r, %p] : memref<{GRID}x40x48xf16> -> !xetile.tile<12x32xf16>
      xetile.store_tile %v, %ty : vector<12x32xf16>, !xetile.tile<12x32xf16>
      %zc = memref.reinterpret_cast %Z to offset: [0], sizes: [{GRID}, 48, 40], strides: [1920, 1, 48] : memref<{GRID}x1920xf16> to memref<{GRID}x48x40xf16, strided<[1920, 1, 48]>>
      %tz = xetile.init_tile %zc[%b, %r, %q] : memref<{GRID}x48x40xf16, strided<[1920, 1, 48]>> -> !xetile.tile<12x32xf16, #xetile.tile_attr<order = [0, 1]>>
      xetile.store_tile %vc, %tz : vector<12x32xf16>, !xetile.tile<12x32xf16, #xetile.tile_attr<order = [0, 1]>>
      gpu.return
    }}
  }}
}}"""


def window(mem: np.ndarray, y: int, x: int, h: int, w: int) -> np.ndarray:
    out = np.zeros((h, w), mem.dtype)
    for i in range(h):
        for j in range(w):
            if 0 <= y + i < mem.shape[0] and 0 <= x + j < mem.shape[1]:
                out[i, j] = mem[y + i, x + j]
    return out


def put(mem: np.ndarray, y: int, x: int, v: np.ndarray) -> None:
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            if 0 <= y + i < mem.shape[0] and 0 <= x + j < mem.shape[1]:
                mem[y + i, x + j] = v[i, j]


def expected(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    y = np.full((GRID, 40, 48), -1, np.float16)
    z = np.full((GRID, 1920), -1, np.float16)
    for b in range(GRID):
        put(y[b], 8 * b, 3 * b, window(x, 8 * b, 5 * b, 12, 32))
        zview = z[b].reshape(40, 48).T  # the [48, 40] view with strides [1, 48], writable into z
        put(zview, 8 * b, 5 * b, window(x.T, 5 * b, 8 * b, 12, 32))
    return y, z


def run(engine_mode: str, x: np.ndarray, monkeypatch: pytest.MonkeyPatch) -> tuple[list[np.ndarray], int]:
    calls = []
    load, store = block2d.load_values, block2d.store_values
    monkeypatch.setattr(block2d, "load_values", lambda *a, **k: calls.append("load") or load(*a, **k))
    monkeypatch.setattr(block2d, "store_values", lambda *a, **k: calls.append("store") or store(*a, **k))
    module = parse_source(SRC, "t.mlir")
    verify_module(module)
    engine = make_engine(module, out=io.StringIO(), err=io.StringIO(), engine=engine_mode)
    func = module.lookup_symbol(("k", "f"))
    mems = []
    inputs = [x, np.full((GRID, 40, 48), -1, np.float16), np.full((GRID, 1920), -1, np.float16)]
    for arr, t in zip(inputs, func.attributes["function_type"].type.inputs):
        arr = np.ascontiguousarray(arr, dtype=dtype_of(t.element_type))
        alloc = engine.memory.allocate(arr.nbytes, "device", "arg")
        mv = MemRefValue(engine.memory, alloc, alloc.base, 0, tuple(arr.shape), identity_strides(arr.shape),
                         t.element_type)
        mv.write_logical(arr)
        mems.append(mv)
    engine.launch(func, "f", (GRID, 1, 1), (1, 1, 1), mems, func)
    return [m.logical_array() for m in mems], len(calls)


def test_in_bounds_windows_are_copied_directly_with_the_block_models_bytes(monkeypatch) -> None:
    x = (np.arange(40 * 48) % 2039 - 1000).astype(np.float16).reshape(40, 48)
    (fx, fy, fz), fast_calls = run("fast", x, monkeypatch)
    (rx, ry, rz), ref_calls = run("reference", x, monkeypatch)
    want_y, want_z = expected(x)
    assert np.array_equal(fy.view(np.uint16), want_y.view(np.uint16))
    assert np.array_equal(fz.view(np.uint16), want_z.view(np.uint16))
    assert np.array_equal(ry.view(np.uint16), fy.view(np.uint16)) and np.array_equal(rz.view(np.uint16),
                                                                                      fz.view(np.uint16))
    assert np.array_equal(fx, x) and np.array_equal(rx, x)
    # reference: every access through the model (4 per workgroup); fast: only the windows reaching outside their
    # surface -- loads of X for b = 4, of Xc for b >= 2; stores to Y for b = 4, to Z's view for b >= 2
    assert ref_calls == 4 * GRID
    assert fast_calls == 1 + 3 + 1 + 3


def test_moved_tile_keeps_every_field_and_wraps_the_origin_at_64_bits() -> None:
    """update_tile_offset's descriptor (§3.5): only the window origin changes, by 64-bit index arithmetic."""
    from xesim.exec.tiles import BlockTile

    t = BlockTile("space", 4096, 40, 48, 48, 1, 8, 16, 2, True, "%X")
    m = t.moved(3, -20)
    assert (m.row0, m.col0) == (11, -4)
    assert (m.space, m.base, m.rows, m.cols, m.row_stride, m.col_stride, m.esz, m.slm, m.origin) == \
        ("space", 4096, 40, 48, 48, 1, 2, True, "%X")
    top = t.moved((1 << 63) - 8 - 1, 0)
    assert top.row0 == (1 << 63) - 1 and top.moved(1, 0).row0 == -(1 << 63)
