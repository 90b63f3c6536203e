"""xegpu ops at subgroup level through the Engine (xesim/exec/ops/xegpu.py, xesim/exec/tdesc.py).

Expected values come from literal readings of spec/programs-and-runner.md §3.3 and spec/pvc-hardware.md §1–§4,
written here independently as small numpy loops over the memory array (``window`` pads with zeros outside the
surface, the VNNI / transposed forms are index formulas), never from the code under test.
"""

from __future__ import annotations

import io
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from xesim.api import make_engine
from xesim.diagnostics import DiagnosticError
from xesim.exec.levels import classify_kernel
from xesim.exec.values import MemRefValue, dtype_of, identity_strides
from xesim.ir import types as T
from xesim.ir.parser import parse_source
from xesim.verify.structural import verify_module

BF16 = np.dtype(ml_dtypes.bfloat16)


# ============================================================================ harness
class Run:
    def __init__(self, values, arrays, engine, err):
        self.values, self.arrays, self.engine, self.err = values, arrays, engine, err


def _engine(src: str, **kw) -> tuple[Any, io.StringIO, object]:
    module = parse_source(src, "t.mlir")
    verify_module(module)
    err = io.StringIO()
    return make_engine(module, out=io.StringIO(), err=err, **kw), err, module


def _memref(engine: Any, arr: np.ndarray, t: T.MemRefType) -> MemRefValue:
    arr = np.ascontiguousarray(arr, dtype=dtype_of(t.element_type))
    alloc = engine.memory.allocate(max(arr.nbytes, 1), "device", "arg")
    mv = MemRefValue(engine.memory, alloc, alloc.base, 0, tuple(arr.shape), identity_strides(arr.shape),
                     t.element_type)
    mv.write_logical(arr)
    return mv


def run(src: str, *inputs, entry: str = "main", **kw) -> Run:
    """Run a host function; numpy arrays become memref arguments (in order), other inputs scalars."""
    engine, err, module = _engine(src, **kw)
    ftype = module.lookup_symbol((entry,)).attributes["function_type"].type
    args, mems = [], []
    for x, t in zip(inputs, ftype.inputs):
        if isinstance(t, T.MemRefType):
            mv = _memref(engine, x, t)
            args.append(mv)
            mems.append(mv)
        else:
            args.append(x)
    values = engine.run(entry, args)
    return Run(values, [m.logical_array() for m in mems], engine, err.getvalue())


def launch(src: str, kernel: str, grid: tuple, block: tuple, *inputs, **kw) -> Run:
    """Launch a gpu.func kernel of module @k with numpy array / scalar arguments."""
    engine, err, module = _engine(src, **kw)
    func = module.lookup_symbol(("k", kernel))
    ftype = func.attributes["function_type"].type
    args, mems = [], []
    for x, t in zip(inputs, ftype.inputs):
        if isinstance(t, T.MemRefType):
            mv = _memref(engine, x, t)
            args.append(mv)
            mems.append(mv)
        else:
            args.append(x)
    from xesim.exec.faults import ExecFault

    try:
        engine.launch(func, kernel, grid, block, args, func)  # both runs under XESIM_ENGINE=both
    except ExecFault as exc:
        raise DiagnosticError(exc.to_diagnostic()) from exc
    return Run((), [m.logical_array() for m in mems], engine, err.getvalue())


def error_of(fn, *a, **kw) -> str:
    with pytest.raises(DiagnosticError) as info:
        fn(*a, **kw)
    return info.value.render()


def window(mem: np.ndarray, y: int, x: int, h: int, w: int) -> np.ndarray:
    """The h x w block of ``mem`` at (y, x), 0 outside (spec/pvc-hardware.md §1.4, per element)."""
    out = np.zeros((h, w), mem.dtype)
    for i in range(h):
        for j in range(w):
            if 0 <= y + i < mem.shape[0] and 0 <= x + j < mem.shape[1]:
                out[i, j] = mem[y + i, x + j]
    return out


def vnni(t: np.ndarray, v: int) -> np.ndarray:
    """res[k][n][p] = T[v*k + p][n] (spec/programs-and-runner.md §3.3 packed)."""
    r, c = t.shape
    out = np.zeros((r // v, c, v), t.dtype)
    for k in range(r // v):
        for n in range(c):
            for p in range(v):
                out[k, n, p] = t[v * k + p, n]
    return out


def vnni_t(t: np.ndarray, v: int) -> np.ndarray:
    """res[k][n][p] = T[n][v*k + p] (§3.3 transpose_bit_width = 32: the VNNI form of the transpose)."""
    r, c = t.shape
    out = np.zeros((c // v, r, v), t.dtype)
    for k in range(c // v):
        for n in range(r):
            for p in range(v):
                out[k, n, p] = t[n, v * k + p]
    return out


def f16_surface(rows: int, cols: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(-1000, 1000, (rows, cols)).astype(np.float16)


# ============================================================================ create_nd_tdesc forms
def test_create_nd_tdesc_dynamic_memref_pointer_and_legacy_forms() -> None:
    # four ways of describing the same 16x32 f32 surface, loaded at the same block position
    src = """
func.func @main(%m: memref<16x32xf32>, %ptr: i64, %uptr: ui64, %h: index, %w: index) -> (vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c12 = arith.constant 12 : index
  %t0 = xegpu.create_nd_tdesc %m : memref<16x32xf32> -> !xegpu.tensor_desc<8x16xf32>
  %v0 = xegpu.load_nd %t0[3, 12] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  %dyn = memref.cast %m : memref<16x32xf32> to memref<?x?xf32>
  %t1 = xegpu.create_nd_tdesc %dyn, shape : [%h, %w], strides : [%w, 1] : memref<?x?xf32> -> !xegpu.tensor_desc<8x16xf32>
  %v1 = xegpu.load_nd %t1[%c3, %c12] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  %t2 = xegpu.create_nd_tdesc %ptr, shape : [16, 32], strides : [32, 1] : i64 -> !xegpu.tensor_desc<8x16xf32>
  %v2 = xegpu.load_nd %t2[3, 12] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  %t3 = xegpu.create_nd_tdesc %uptr[%c3, %c12], [%h, %w], [%w, %c1] : ui64 -> !xegpu.tensor_desc<8x16xf32>
  %v3 = xegpu.load_nd %t3 : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  %t4 = xegpu.create_nd_tdesc %m[%c3, 0] : memref<16x32xf32> -> !xegpu.tensor_desc<8x16xf32>
  %t5 = xegpu.update_nd_offset %t4, [0, %c12] : !xegpu.tensor_desc<8x16xf32>
  %v4 = xegpu.load_nd %t5 : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  return %v0, %v1, %v2, %v3, %v4 : vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>, vector<8x16xf32>
}
"""
    s = (np.arange(16 * 32, dtype=np.float32).reshape(16, 32) * 3 - 7)
    engine, _, module = _engine(src)
    m = _memref(engine, s, module.lookup_symbol(("main",)).attributes["function_type"].type.inputs[0])
    vals = engine.run("main", [m, m.aligned, m.aligned, 16, 32])
    want = window(s, 3, 12, 8, 16)
    for v in vals:
        np.testing.assert_array_equal(v, want)


def test_create_nd_tdesc_folds_batch_dims_into_the_base() -> None:
    src = """
func.func @main(%m: memref<3x16x32xf16>) -> (vector<8x16xf16>, vector<8x16xf16>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %t = xegpu.create_nd_tdesc %m[%c2, %c4, %c8] : memref<3x16x32xf16> -> !xegpu.tensor_desc<8x16xf16>
  %a = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
  %t2 = xegpu.create_nd_tdesc %m[1, 0, 0] : memref<3x16x32xf16> -> !xegpu.tensor_desc<8x16xf16>
  %b = xegpu.load_nd %t2[%c4, 24] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
  return %a, %b : vector<8x16xf16>, vector<8x16xf16>
}
"""
    s = (np.arange(3 * 16 * 32) % 2000).astype(np.float16).reshape(3, 16, 32)
    r = run(src, s)
    np.testing.assert_array_equal(r.values[0], s[2, 4:12, 8:24])
    # batch 1, columns 24..39: 32..39 lie outside the 16x32 surface of that batch and read 0
    np.testing.assert_array_equal(r.values[1], window(s[1], 4, 24, 8, 16))


def test_pointer_source_outside_allocations_faults_at_the_access_not_at_the_descriptor() -> None:
    """Creating a descriptor is not an access (upstream-xegpu-xevm.md §2.1): the load through it is the fault."""
    src = """
func.func @main(%p: i64) -> vector<8x16xf32> {
  %t = xegpu.create_nd_tdesc %p, shape : [8, 16], strides : [16, 1] : i64 -> !xegpu.tensor_desc<8x16xf32>
  %v = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  return %v : vector<8x16xf32>
}
"""
    msg = error_of(run, src, 12288)
    assert "t.mlir:4:3" in msg and "'xegpu.load_nd' op" in msg and "outside any global allocation" in msg


PAST_THE_END = """
func.func @main(%m: memref<16x16xf32>) -> vector<8x16xf32> {
  %i = memref.extract_aligned_pointer_as_index %m : memref<16x16xf32> -> index
  %a = arith.index_cast %i : index to i64
  %end = arith.constant 1024 : i64
  %past = arith.addi %a, %end : i64
  %t = xegpu.create_nd_tdesc %past, shape : [16, 16], strides : [16, 1] : i64 -> !xegpu.tensor_desc<8x16xf32>
  xegpu.prefetch_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf32>
  %ti = xegpu.create_nd_tdesc %a, shape : [16, 16], strides : [16, 1] : i64 -> !xegpu.tensor_desc<8x16xf32>
  %v = xegpu.load_nd %ti[8, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  LOAD_PAST
  return %v : vector<8x16xf32>
}
"""


def test_descriptor_past_the_end_of_an_allocation_for_a_prefetch_is_harmless() -> None:
    """A descriptor made from an address past the end of an allocation, used only by a prefetch (issue 30)."""
    m = np.arange(256, dtype=np.float32).reshape(16, 16)
    r = run(PAST_THE_END.replace("LOAD_PAST", ""), m)
    np.testing.assert_array_equal(r.values[0], m[8:16])


def test_load_through_a_descriptor_past_the_end_faults() -> None:
    m = np.arange(256, dtype=np.float32).reshape(16, 16)
    load = "%w = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>"
    msg = error_of(run, PAST_THE_END.replace("LOAD_PAST", load), m)
    assert "t.mlir:11:3" in msg and "'xegpu.load_nd' op" in msg and "outside any global allocation" in msg


# ============================================================================ load_nd modes
LOAD_SRC = """
func.func @main(%m: memref<48x64xf16>, %y: index, %x: index) -> (vector<40x48xf16>, vector<16x32x2xf16>, vector<16x32x2xf16>, vector<32x32xf16>, vector<2x32x16xf16>, vector<64x16xf16>, vector<2x16x16x2xf16>) {
  %t = xegpu.create_nd_tdesc %m : memref<48x64xf16> -> !xegpu.tensor_desc<32x32xf16>
  %tl = xegpu.create_nd_tdesc %m : memref<48x64xf16> -> !xegpu.tensor_desc<40x48xf16>
  %plain = xegpu.load_nd %tl[%y, %x] : !xegpu.tensor_desc<40x48xf16> -> vector<40x48xf16>
  %packed = xegpu.load_nd %t[%y, %x] <{packed}> : !xegpu.tensor_desc<32x32xf16> -> vector<16x32x2xf16>
  %tbw = xegpu.load_nd %t[%y, %x] <{transpose = array<i64: 1, 0>, transpose_bit_width = 32 : i32}> : !xegpu.tensor_desc<32x32xf16> -> vector<16x32x2xf16>
  %tr = xegpu.load_nd %t[%y, %x] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<32x32xf16> -> vector<32x32xf16>
  %ta = xegpu.create_nd_tdesc %m : memref<48x64xf16> -> !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>
  %a3 = xegpu.load_nd %ta[%y, %x] : !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<2x32x16xf16>
  %a2 = xegpu.load_nd %ta[%y, %x] : !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<64x16xf16>
  %tp = xegpu.create_nd_tdesc %m : memref<48x64xf16> -> !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>
  %ap = xegpu.load_nd %tp[%y, %x] <{packed}> : !xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<2x16x16x2xf16>
  return %plain, %packed, %tbw, %tr, %a3, %a2, %ap : vector<40x48xf16>, vector<16x32x2xf16>, vector<16x32x2xf16>, vector<32x32xf16>, vector<2x32x16xf16>, vector<64x16xf16>, vector<2x16x16x2xf16>
}
"""


@pytest.mark.parametrize("y,x", [(0, 0), (8, 16), (20, 40), (-3, -6), (40, 60)])
def test_load_nd_modes_equal_the_whole_tile_definition(y: int, x: int) -> None:
    """Tiles that need several hardware messages in every mode (a plain load is at most 64 bytes wide and 32
    rows high, a VNNI one 16 elements wide, a transposed 32-bit one 8 dwords wide); the assembled values equal
    the definitions of §3.3."""
    s = f16_surface(48, 64)
    plain, packed, tbw, tr, a3, a2, ap = run(LOAD_SRC, s, y, x).values
    np.testing.assert_array_equal(plain, window(s, y, x, 40, 48))
    t = window(s, y, x, 32, 32)
    np.testing.assert_array_equal(packed, vnni(t, 2))
    np.testing.assert_array_equal(tbw, vnni_t(t, 2))
    np.testing.assert_array_equal(tr, t.T)
    b0, b1 = window(s, y, x, 32, 16), window(s, y, x + 16, 32, 16)
    np.testing.assert_array_equal(a3, np.stack([b0, b1]))
    np.testing.assert_array_equal(a2, np.concatenate([b0, b1]))
    np.testing.assert_array_equal(ap, np.stack([vnni(b0, 2), vnni(b1, 2)]))


@pytest.mark.parametrize("y,x", [(0, 0), (8, 16), (16, 2)])
def test_direct_in_bounds_loads_equal_the_message_model(monkeypatch: pytest.MonkeyPatch, y: int, x: int) -> None:
    """In-bounds tiles are read straight from memory; the per-message GRF model must give the same values."""
    from xesim.exec import blocks as X

    s = f16_surface(48, 64, seed=y + x)
    fast = run(LOAD_SRC, s, y, x).values
    monkeypatch.setattr(X, "REFERENCE_LOADS", True)
    ref = run(LOAD_SRC, s, y, x).values
    for a, b in zip(fast, ref):
        np.testing.assert_array_equal(a, b)


STORE_SRC = """
func.func @main(%m: memref<48x64xf16>, %v: memref<24x40xf16>, %y: index, %x: index) {
  %c0 = arith.constant 0 : index
  %t = xegpu.create_nd_tdesc %m : memref<48x64xf16> -> !xegpu.tensor_desc<24x40xf16>
  %pad = arith.constant 0.0 : f16
  %val = vector.transfer_read %v[%c0, %c0], %pad : memref<24x40xf16>, vector<24x40xf16>
  xegpu.store_nd %val, %t[%y, %x] : vector<24x40xf16>, !xegpu.tensor_desc<24x40xf16>
  return
}
"""


@pytest.mark.parametrize("y,x", [(0, 0), (8, 16), (24, 24), (-3, -6), (40, 50)])
def test_store_nd_equals_the_message_model_and_the_definition(monkeypatch: pytest.MonkeyPatch, y: int,
                                                              x: int) -> None:
    """A 24x40 f16 tile needs several store messages (at most 8 rows, 64 bytes wide); in-bounds tiles are written
    straight to memory, the others message by message: both must leave memory as the definition says (in-surface
    elements written, the rest dropped, spec/pvc-hardware.md §1.4)."""
    from xesim.exec import blocks as X

    base = f16_surface(48, 64, seed=3)
    tile = f16_surface(24, 40, seed=4)
    want = base.copy()
    for i in range(24):
        for j in range(40):
            if 0 <= y + i < 48 and 0 <= x + j < 64:
                want[y + i, x + j] = tile[i, j]
    fast = run(STORE_SRC, base.copy(), tile, y, x).arrays[0]
    monkeypatch.setattr(X, "REFERENCE_LOADS", True)
    ref = run(STORE_SRC, base.copy(), tile, y, x).arrays[0]
    np.testing.assert_array_equal(fast, want)
    np.testing.assert_array_equal(ref, want)


def test_load_nd_tile_is_split_into_several_messages() -> None:
    from xesim.hw.block2d import split_tile
    from xesim.hw.params import load_target

    # the premise of the test above: these tiles do not fit one message on PVC
    t = load_target("pvc")
    assert len(split_tile(t, 2, 40, 48, "load")) > 1
    assert len(split_tile(t, 2, 32, 32, "load", vnni=True)) > 1
    assert len(split_tile(t, 4, 32, 16, "load", transpose=True)) > 1


def test_load_nd_8bit_packed_32bit_transpose_and_legacy_8x16() -> None:
    src = """
func.func @main(%q: memref<40x64xi8>, %f: memref<24x32xf32>, %h: memref<16x32xf16>) -> (vector<8x16x4xi8>, vector<8x16xf32>, vector<8x8x2xf16>, vector<16x32xf32>) {
  %tq = xegpu.create_nd_tdesc %q : memref<40x64xi8> -> !xegpu.tensor_desc<32x16xi8>
  %a = xegpu.load_nd %tq[10, 52] <{packed}> : !xegpu.tensor_desc<32x16xi8> -> vector<8x16x4xi8>
  %tf = xegpu.create_nd_tdesc %f : memref<24x32xf32> -> !xegpu.tensor_desc<16x8xf32>
  %b = xegpu.load_nd %tf[12, 28] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x8xf32> -> vector<8x16xf32>
  %th = xegpu.create_nd_tdesc %h : memref<16x32xf16> -> !xegpu.tensor_desc<8x16xf16>
  %c = xegpu.load_nd %th[5, 14] {transpose = [1, 0], transpose_bit_width = 32 : i32} : !xegpu.tensor_desc<8x16xf16> -> vector<8x8x2xf16>
  %tw = xegpu.create_nd_tdesc %f : memref<24x32xf32> -> !xegpu.tensor_desc<32x16xf32>
  %d = xegpu.load_nd %tw[-4, 9] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<32x16xf32> -> vector<16x32xf32>
  return %a, %b, %c, %d : vector<8x16x4xi8>, vector<8x16xf32>, vector<8x8x2xf16>, vector<16x32xf32>
}
"""
    rng = np.random.default_rng(3)
    q = rng.integers(-128, 128, (40, 64)).astype(np.int8)
    f = rng.standard_normal((24, 32)).astype(np.float32)
    h = f16_surface(16, 32, 4)
    a, b, c, d = run(src, q, f, h).values
    np.testing.assert_array_equal(a, vnni(window(q, 10, 52, 32, 16), 4))
    np.testing.assert_array_equal(b, window(f, 12, 28, 16, 8).T)
    np.testing.assert_array_equal(c, vnni_t(window(h, 5, 14, 8, 16), 2))
    np.testing.assert_array_equal(d, window(f, -4, 9, 32, 16).T)


def test_load_nd_vnni_pads_rows_to_a_multiple_of_the_packing_factor() -> None:
    src = """
func.func @main(%q: memref<16x64xi8>) -> vector<3x16x4xi8> {
  %t = xegpu.create_nd_tdesc %q : memref<16x64xi8> -> !xegpu.tensor_desc<12x16xi8>
  %a = xegpu.load_nd %t[14, 0] <{packed}> : !xegpu.tensor_desc<12x16xi8> -> vector<3x16x4xi8>
  return %a : vector<3x16x4xi8>
}
"""
    q = (np.arange(16 * 64) % 100 + 1).astype(np.int8).reshape(16, 64)
    (a,) = run(src, q).values
    np.testing.assert_array_equal(a, vnni(window(q, 14, 0, 12, 16), 4))
    assert a[0, :, 2:].max() == 0 and a[0, :, :2].min() > 0  # rows 16.. are outside: zero


def test_boundary_check_false_reports_out_of_bounds_blocks() -> None:
    src = """
func.func @main(%m: memref<16x32xf32>, %y: index) -> vector<8x16xf32> {
  %t = xegpu.create_nd_tdesc %m : memref<16x32xf32> -> !xegpu.tensor_desc<8x16xf32, #xegpu.block_tdesc_attr<boundary_check = false>>
  %v = xegpu.load_nd %t[%y, 16] : !xegpu.tensor_desc<8x16xf32, #xegpu.block_tdesc_attr<boundary_check = false>> -> vector<8x16xf32>
  return %v : vector<8x16xf32>
}
"""
    s = np.arange(512, dtype=np.float32).reshape(16, 32)
    np.testing.assert_array_equal(run(src, s, 8).values[0], s[8:16, 16:32])
    msg = error_of(run, src, s, 9)
    assert "t.mlir:4:3" in msg and "boundary_check = false" in msg and "[9, 16]" in msg


# ============================================================================ store_nd / prefetch_nd
def test_store_nd_splits_and_drops_out_of_bounds_elements() -> None:
    src = """
func.func @main(%o: memref<20x24xf32>, %v: memref<16x16xf32>, %y: index, %x: index) {
  %tv = xegpu.create_nd_tdesc %v : memref<16x16xf32> -> !xegpu.tensor_desc<16x16xf32>
  %val = xegpu.load_nd %tv[0, 0] : !xegpu.tensor_desc<16x16xf32> -> vector<16x16xf32>
  %t = xegpu.create_nd_tdesc %o : memref<20x24xf32> -> !xegpu.tensor_desc<16x16xf32>
  xegpu.store_nd %val, %t[%y, %x] : vector<16x16xf32>, !xegpu.tensor_desc<16x16xf32>
  return
}
"""
    v = np.arange(256, dtype=np.float32).reshape(16, 16) + 1
    for y, x in [(0, 0), (10, 12), (-5, -3)]:
        o = run(src, np.zeros((20, 24), np.float32), v, y, x).arrays[0]
        want = np.zeros((20, 24), np.float32)
        for i in range(16):
            for j in range(16):
                if 0 <= y + i < 20 and 0 <= x + j < 24:
                    want[y + i, x + j] = v[i, j]
        np.testing.assert_array_equal(o, want)


def test_1d_descriptors_load_and_store_with_padding() -> None:
    src = """
func.func @main(%m: memref<40xf32>, %o: memref<40xf32>) -> (vector<32xf32>, vector<2x16xf32>) {
  %t = xegpu.create_nd_tdesc %m : memref<40xf32> -> !xegpu.tensor_desc<32xf32>
  %a = xegpu.load_nd %t[16] : !xegpu.tensor_desc<32xf32> -> vector<32xf32>
  %ta = xegpu.create_nd_tdesc %m : memref<40xf32> -> !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<array_length = 2 : i64>>
  %b = xegpu.load_nd %ta[4] : !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<array_length = 2 : i64>> -> vector<2x16xf32>
  %to = xegpu.create_nd_tdesc %o : memref<40xf32> -> !xegpu.tensor_desc<32xf32>
  xegpu.store_nd %a, %to[12] : vector<32xf32>, !xegpu.tensor_desc<32xf32>
  return %a, %b : vector<32xf32>, vector<2x16xf32>
}
"""
    m = np.arange(40, dtype=np.float32) + 1
    r = run(src, m, np.zeros(40, np.float32))
    a, b = r.values
    want = np.concatenate([m[16:40], np.zeros(8, np.float32)])
    np.testing.assert_array_equal(a, want)
    np.testing.assert_array_equal(b.reshape(-1), m[4:36])
    o = np.zeros(40, np.float32)
    o[12:40] = want[:28]
    np.testing.assert_array_equal(r.arrays[1], o)


def test_1d_store_alignment_is_a_warning_from_the_target() -> None:
    src = """
func.func @main(%o: memref<40xf32>) {
  %v = arith.constant dense<1.0> : vector<16xf32>
  %t = xegpu.create_nd_tdesc %o : memref<40xf32> -> !xegpu.tensor_desc<16xf32>
  xegpu.store_nd %v, %t[1] : vector<16xf32>, !xegpu.tensor_desc<16xf32>
  return
}
"""
    r = run(src, np.zeros(40, np.float32))
    assert "t.mlir:5:3: warning" in r.err and "not 16-byte aligned" in r.err and "§2.3" in r.err
    np.testing.assert_array_equal(r.arrays[0][1:17], np.ones(16, np.float32))
    assert "--strict" in error_of(run, src, np.zeros(40, np.float32), strict=True)


def test_prefetch_nd_has_no_effect_but_is_validated() -> None:
    src = """
func.func @main(%m: memref<8x32xf32>) {
  %s = memref.subview %m[0, 1] [8, 16] [1, 1] : memref<8x32xf32> to memref<8x16xf32, strided<[32, 1], offset: 1>>
  %t = xegpu.create_nd_tdesc %s : memref<8x16xf32, strided<[32, 1], offset: 1>> -> !xegpu.tensor_desc<8x16xf32>
  xegpu.prefetch_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf32>
  return
}
"""
    msg = error_of(run, src, np.zeros((8, 32), np.float32))
    assert "'xegpu.prefetch_nd' op 2D block prefetch" in msg and "not 64-byte aligned" in msg
    ok = src.replace("%m[0, 1]", "%m[0, 16]").replace("offset: 1", "offset: 16")
    r = run(ok, np.arange(256, dtype=np.float32).reshape(8, 32))
    np.testing.assert_array_equal(r.arrays[0], np.arange(256, dtype=np.float32).reshape(8, 32))


# ============================================================================ violations: error / warning / strict
NARROW = """
func.func @main(%m: memref<8x16xf16>) -> vector<8x16xf16> {
  %t = xegpu.create_nd_tdesc %m : memref<8x16xf16> -> !xegpu.tensor_desc<8x16xf16>
  %v = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
  %w = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
  return %v : vector<8x16xf16>
}
"""


def test_warning_violations_are_reported_once_per_op_and_fail_under_strict() -> None:
    s = f16_surface(8, 16)
    r = run(NARROW, s)
    np.testing.assert_array_equal(r.values[0], s)
    # a 32-byte-wide surface breaks the 64-byte minimum: a warning (assumed severity in pvc.toml)
    assert r.err.count("t.mlir:4:3: warning: 'xegpu.load_nd' op 2D block load of 8x16x1: surface width 32 bytes") == 1
    assert r.err.count("t.mlir:5:3: warning") == 2  # width and pitch, the second op warns on its own
    msg = error_of(run, NARROW, s, strict=True)
    assert "t.mlir:4:3: error" in msg and "surface width 32 bytes" in msg and "--strict" in msg


def test_error_violations_name_rule_and_source() -> None:
    src = """
func.func @main(%m: memref<8x64xf16>) -> vector<8x16xf16> {
  %t = xegpu.create_nd_tdesc %m : memref<8x64xf16> -> !xegpu.tensor_desc<8x16xf16>
  %v = xegpu.load_nd %t[0, 3] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
  return %v : vector<8x16xf16>
}
"""
    msg = error_of(run, src, f16_surface(8, 64))
    assert "t.mlir:4:3: error: 'xegpu.load_nd' op 2D block load of 8x16x1 at [0, 3]" in msg
    assert "block start X 3 is not a multiple of 2" in msg and "spec/pvc-hardware.md §1.2" in msg


def test_other_target_changes_the_rules() -> None:
    # bmg.toml relaxes the base alignment to 4 bytes (spec §1.2, XETLA Xe2): the same program is legal there
    src = """
func.func @main(%m: memref<8x32xf32>) -> vector<8x16xf32> {
  %s = memref.subview %m[0, 1] [8, 16] [1, 1] : memref<8x32xf32> to memref<8x16xf32, strided<[32, 1], offset: 1>>
  %t = xegpu.create_nd_tdesc %s : memref<8x16xf32, strided<[32, 1], offset: 1>> -> !xegpu.tensor_desc<8x16xf32>
  %v = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
  return %v : vector<8x16xf32>
}
"""
    m = np.arange(256, dtype=np.float32).reshape(8, 32)
    assert "not 64-byte aligned" in error_of(run, src, m)
    np.testing.assert_array_equal(run(src, m, target="bmg").values[0], m[:, 1:17])


# ============================================================================ scattered access
def test_scatter_offsets_form_chunks_masks_and_pointer_source() -> None:
    src = """
func.func @main(%m: memref<128xf32>, %p: i64, %o: memref<128xf32>) -> (vector<16x4xf32>, vector<16xf32>) {
  %off = arith.constant dense<[0, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 105]> : vector<16xindex>
  %mask = arith.constant dense<[true, false, true, true, true, true, false, true, true, true, true, true, true, true, true, false]> : vector<16xi1>
  %a = xegpu.load %m[%off], %mask <{chunk_size = 4 : i64}> : memref<128xf32>, vector<16xindex>, vector<16xi1> -> vector<16x4xf32>
  %b = xegpu.load %p[%off], %mask : i64, vector<16xindex>, vector<16xi1> -> vector<16xf32>
  xegpu.store %a, %o[%off], %mask <{chunk_size = 4 : i64}> : vector<16x4xf32>, memref<128xf32>, vector<16xindex>, vector<16xi1>
  return %a, %b : vector<16x4xf32>, vector<16xf32>
}
"""
    m = np.arange(128, dtype=np.float32) * 2 + 1
    engine, _, module = _engine(src)
    ins = module.lookup_symbol(("main",)).attributes["function_type"].type.inputs
    mm, oo = _memref(engine, m, ins[0]), _memref(engine, np.zeros(128, np.float32), ins[2])
    a, b = engine.run("main", [mm, mm.aligned, oo])
    off = np.arange(16) * 7
    mask = np.ones(16, bool)
    mask[[1, 6, 15]] = False
    want_a = np.array([[m[o + c] if k else 0 for c in range(4)] for o, k in zip(off, mask)], np.float32)
    np.testing.assert_array_equal(a, want_a)
    np.testing.assert_array_equal(b, np.where(mask, m[off], 0))
    want_o = np.zeros(128, np.float32)
    for o, k in zip(off, mask):
        if k:
            want_o[o : o + 4] = m[o : o + 4]
    np.testing.assert_array_equal(oo.logical_array(), want_o)


def test_scatter_tdesc_form_update_offset_and_legacy_transpose() -> None:
    src = """
func.func @main(%m: memref<256xf32>) -> (vector<8x16xf32>, vector<16x2xf32>) {
  %off = arith.constant dense<[0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240]> : vector<16xindex>
  %all = arith.constant dense<true> : vector<16xi1>
  %t = xegpu.create_tdesc %m, %off : memref<256xf32>, vector<16xindex> -> !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>
  %one = arith.constant dense<3> : vector<16xindex>
  %t2 = xegpu.update_offset %t, %one : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, vector<16xindex>
  %a = xegpu.load %t2, %all {transpose} : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, vector<16xi1> -> vector<8x16xf32>
  %u = xegpu.create_tdesc %m, %off : memref<256xf32>, vector<16xindex> -> !xegpu.tensor_desc<16x2xf32, #xegpu.scatter_tdesc_attr<chunk_size = 2 : i64>>
  %b = xegpu.load %u, %all : !xegpu.tensor_desc<16x2xf32, #xegpu.scatter_tdesc_attr<chunk_size = 2 : i64>>, vector<16xi1> -> vector<16x2xf32>
  return %a, %b : vector<8x16xf32>, vector<16x2xf32>
}
"""
    m = np.arange(256, dtype=np.float32)
    a, b = run(src, m).values
    np.testing.assert_array_equal(a, np.array([[m[16 * lane + 3 + c] for lane in range(16)] for c in range(8)]))
    np.testing.assert_array_equal(b, np.array([[m[16 * lane + c] for c in range(2)] for lane in range(16)]))


def test_scatter_masked_lanes_may_be_out_of_bounds_unmasked_may_not() -> None:
    src = """
func.func @main(%m: memref<16xf32>, %p: i64, %bad: index) -> vector<16xf32> {
  %base = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xindex>
  %b = vector.broadcast %bad : index to vector<16xindex>
  %step = vector.step : vector<16xindex>
  %lane7 = arith.constant dense<7> : vector<16xindex>
  %is7 = arith.cmpi eq, %step, %lane7 : vector<16xindex>
  %off = arith.select %is7, %b, %base : vector<16xi1>, vector<16xindex>
  %mask = arith.constant dense<[true, true, true, true, true, true, true, false, true, true, true, true, true, true, true, true]> : vector<16xi1>
  %all = arith.constant dense<true> : vector<16xi1>
  %ok = xegpu.load %m[%off], %mask : memref<16xf32>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
  %v = xegpu.load %p[%off], %all : i64, vector<16xindex>, vector<16xi1> -> vector<16xf32>
  return %v : vector<16xf32>
}
"""
    m = np.arange(16, dtype=np.float32) + 1
    engine, _, module = _engine(src)
    mm = _memref(engine, m, module.lookup_symbol(("main",)).attributes["function_type"].type.inputs[0])
    with pytest.raises(DiagnosticError) as info:
        engine.run("main", [mm, mm.aligned, 1000])
    msg = info.value.render()
    assert "t.mlir:12:3" in msg and "lane 7" in msg  # the masked load of line 11 went through
    (v,) = engine.run("main", [mm, mm.aligned, 3])
    want = m.copy()
    want[7] = m[3]
    np.testing.assert_array_equal(v, want)


def test_scatter_misaligned_pointer_is_an_error() -> None:
    src = """
func.func @main(%p: i64) -> vector<16xf32> {
  %off = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xindex>
  %all = arith.constant dense<true> : vector<16xi1>
  %v = xegpu.load %p[%off], %all : i64, vector<16xindex>, vector<16xi1> -> vector<16xf32>
  return %v : vector<16xf32>
}
"""
    engine, _, _ = _engine(src)
    a = engine.memory.allocate(256, "device", "buf")
    with pytest.raises(DiagnosticError) as info:
        engine.run("main", [a.base + 2])
    assert "not 4-byte aligned" in info.value.render() and "§2.3" in info.value.render()


# ============================================================================ atomics
ATOMIC_K = """
gpu.module @k {
  gpu.func @f(%m: memref<16xi32>, %o: memref<16xi32>) kernel ATTRS {
    %off = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xindex>
    %mask = arith.constant dense<[true, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true]> : vector<16xi1>
    %v = arith.constant dense<10> : vector<16xi32>
    %t = xegpu.create_tdesc %m, %off : memref<16xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
    %r = xegpu.atomic_rmw addi %t, %mask, %v : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
    %to = xegpu.create_nd_tdesc %o : memref<16xi32> -> !xegpu.tensor_desc<16xi32>
    xegpu.store_nd %r, %to[0] : vector<16xi32>, !xegpu.tensor_desc<16xi32>
    gpu.return
  }
}
"""


def test_atomic_rmw_mask_follows_the_level_and_target() -> None:
    m = np.arange(16, dtype=np.int32)
    vc = ATOMIC_K.replace("ATTRS", "attributes {VectorComputeFunctionINTEL}")
    r = launch(vc, "f", (1, 1, 1), (1, 1, 1), m, np.zeros(16, np.int32))
    want = m + 10
    want[1] = 1  # the IMEX VC lowering honours the mask: lane 1 does not update and returns 0
    np.testing.assert_array_equal(r.arrays[0], want)
    np.testing.assert_array_equal(r.arrays[1], np.where(np.arange(16) == 1, 0, m))
    sg = ATOMIC_K.replace("ATTRS", "")
    r = launch(sg, "f", (1, 1, 1), (16, 1, 1), m, np.zeros(16, np.int32))
    np.testing.assert_array_equal(r.arrays[0], m + 10)  # upstream lowering ignores the mask (atomics.honour_mask)
    r = launch(sg, "f", (1, 1, 1), (16, 1, 1), m, np.zeros(16, np.int32),
               overrides={"atomics.honour_mask": True})
    np.testing.assert_array_equal(r.arrays[0], want)


def test_atomic_rmw_emulated_kinds_run_and_are_noted() -> None:
    src = """
func.func @main(%m: memref<16xf32>) -> vector<16xf32> {
  %off = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xindex>
  %mask = arith.constant dense<true> : vector<16xi1>
  %v = arith.constant dense<2.5> : vector<16xf32>
  %t = xegpu.create_tdesc %m, %off : memref<16xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
  %r = xegpu.atomic_rmw mulf %t, %mask, %v : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xf32> -> vector<16xf32>
  return %r : vector<16xf32>
}
"""
    m = np.arange(16, dtype=np.float32) - 3
    r = run(src, m)
    np.testing.assert_array_equal(r.values[0], m)
    np.testing.assert_array_equal(r.arrays[0], m * np.float32(2.5))
    notes = r.engine.__dict__.get("notes", [])
    assert any("mulf" in n and "compare-and-swap" in n for n in notes)
    assert r.err == ""  # nothing printed


# ============================================================================ dpas
def test_dpas_vnni_b_equals_plain_b_and_absent_accumulator_is_zero() -> None:
    src = """
func.func @main(%a: vector<8x32xbf16>, %b: vector<32x16xbf16>, %bv: vector<16x16x2xbf16>) -> (vector<8x16xf32>, vector<8x16xf32>) {
  %d1 = xegpu.dpas %a, %b : vector<8x32xbf16>, vector<32x16xbf16> -> vector<8x16xf32>
  %d2 = xegpu.dpas %a, %bv : vector<8x32xbf16>, vector<16x16x2xbf16> -> vector<8x16xf32>
  return %d1, %d2 : vector<8x16xf32>, vector<8x16xf32>
}
"""
    rng = np.random.default_rng(5)
    a = rng.integers(-4, 5, (8, 32)).astype(BF16)
    b = rng.integers(-4, 5, (32, 16)).astype(BF16)
    bv = np.zeros((16, 16, 2), BF16)
    for k in range(32):
        for n in range(16):
            bv[k // 2, n, k % 2] = b[k, n]  # B2d[k][n] = B3d[k/2][n][k%2]
    d1, d2 = run(src, a, b, bv).values
    want = a.astype(np.int64) @ b.astype(np.int64)  # small integers: exact in any model
    np.testing.assert_array_equal(d1, want.astype(np.float32))
    np.testing.assert_array_equal(d2, want.astype(np.float32))
    assert d1.dtype == np.float32


def test_dpas_illegal_type_combination_is_a_located_error() -> None:
    """f16 sources with a bf16 result: not in the target's DPAS type table (spec/pvc-hardware.md §3.2)."""
    src = """
func.func @main(%a: vector<8x16xf16>, %b: vector<16x16xf16>) -> vector<8x16xbf16> {
  %d = xegpu.dpas %a, %b : vector<8x16xf16>, vector<16x16xf16> -> vector<8x16xbf16>
  return %d : vector<8x16xbf16>
}
"""
    msg = error_of(run, src, np.zeros((8, 16), np.float16), np.zeros((16, 16), np.float16))
    assert "t.mlir:3:3: error: 'xegpu.dpas' op DPAS: illegal type combination" in msg


def test_dpas_float_sources_of_different_types_fail_the_trait() -> None:
    """Upstream's AllElementTypesMatch<lhs, rhs> (upstream-xegpu-xevm.md §2.0) rejects f16 x bf16 at verification."""
    src = """
func.func @main(%a: vector<8x16xf16>, %b: vector<16x16xbf16>) -> vector<8x16xf32> {
  %d = xegpu.dpas %a, %b : vector<8x16xf16>, vector<16x16xbf16> -> vector<8x16xf32>
  return %d : vector<8x16xf32>
}
"""
    msg = error_of(run, src, np.zeros((8, 16), np.float16), np.zeros((16, 16), BF16))
    assert "t.mlir:3:3: error: 'xegpu.dpas' op failed to verify that all of {lhs, rhs} have same element type" in msg


# ============================================================================ misc ops
def test_convert_layout_compile_hint_and_fence() -> None:
    src = """
func.func @main(%v: vector<8x16xf32>) -> vector<8x16xf32> {
  xegpu.compile_hint
  xegpu.fence memory_kind = global, fence_scope = gpu
  %r = xegpu.convert_layout %v <{input_layout = #xegpu.layout<inst_data = [8, 16]>, target_layout = #xegpu.layout<inst_data = [8, 8]>}> : vector<8x16xf32>
  return %r : vector<8x16xf32>
}
"""
    v = np.arange(128, dtype=np.float32).reshape(8, 16)
    np.testing.assert_array_equal(run(src, v).values[0], v)


# ============================================================================ named barriers
NBAR = """
gpu.module @k {
  gpu.func @f(%out: memref<2x16xf32>) kernel attributes {VectorComputeFunctionINTEL} {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %t = gpu.thread_id x
    %slm = memref.alloc() : memref<32xf32, 3>
    %mine = arith.muli %t, %c16 : index
    %ts = xegpu.create_nd_tdesc %slm[%mine] : memref<32xf32, 3> -> !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>
    %ti = arith.index_cast %t : index to i32
    %tf = arith.sitofp %ti : i32 to f32
    %one = arith.constant 1.0 : f32
    %val = arith.addf %tf, %one : f32
    %v = vector.broadcast %val : f32 to vector<16xf32>
    xegpu.store_nd %v, %ts : vector<16xf32>, !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>
    xegpu.alloc_nbarrier 4
    %id = arith.constant 3 : i8
    %n = arith.constant NUM : i8
    %nb = xegpu.init_nbarrier %id, %n : i8, i8 -> !xegpu.nbarrier
    xegpu.nbarrier_arrive %nb : !xegpu.nbarrier
    xegpu.nbarrier_wait %nb : !xegpu.nbarrier
    %other = arith.subi %c1, %t : index
    %theirs = arith.muli %other, %c16 : index
    %tt = xegpu.create_nd_tdesc %slm[%theirs] : memref<32xf32, 3> -> !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>
    %w = xegpu.load_nd %tt : !xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>> -> vector<16xf32>
    %w2 = vector.shape_cast %w : vector<16xf32> to vector<1x16xf32>
    %to = xegpu.create_nd_tdesc %out[%t, 0] : memref<2x16xf32> -> !xegpu.tensor_desc<1x16xf32>
    xegpu.store_nd %w2, %to : vector<1x16xf32>, !xegpu.tensor_desc<1x16xf32>
    gpu.return
  }
}
"""


def test_named_barrier_with_all_threads_synchronises() -> None:
    r = launch(NBAR.replace("NUM", "2"), "f", (1, 1, 1), (2, 1, 1), np.zeros((2, 16), np.float32))
    # each thread reads the other's SLM row: thread 0 sees 2s (written by thread 1 before the barrier completed)
    np.testing.assert_array_equal(r.arrays[0], np.array([[2.0] * 16, [1.0] * 16], np.float32))


def test_named_barrier_with_fewer_participants_is_a_no_op() -> None:
    r = launch(NBAR.replace("NUM", "1"), "f", (1, 1, 1), (2, 1, 1), np.zeros((2, 16), np.float32))
    # threads run one after another: thread 0 reads thread 1's slot before thread 1 wrote it
    np.testing.assert_array_equal(r.arrays[0], np.array([[0.0] * 16, [1.0] * 16], np.float32))


def test_init_nbarrier_id_must_be_allocated() -> None:
    src = NBAR.replace("NUM", "2").replace("arith.constant 3 : i8", "arith.constant 4 : i8")
    msg = error_of(launch, src, "f", (1, 1, 1), (2, 1, 1), np.zeros((2, 16), np.float32))
    assert "named barrier id 4 is not below the 4 barriers allocated" in msg


# ============================================================================ SLM matrices
def test_load_store_matrix_blocked_layout() -> None:
    src = """
gpu.module @k {
  gpu.func @f(%in: memref<16x32xf32>, %phys: memref<512xf32>, %back: memref<8x16xf32>) kernel {
    %slm = memref.alloc() : memref<2048xi8, 3>
    %ti = xegpu.create_nd_tdesc %in : memref<16x32xf32> -> !xegpu.tensor_desc<16x32xf32>
    %v = xegpu.load_nd %ti[0, 0] : !xegpu.tensor_desc<16x32xf32> -> vector<16x32xf32>
    %md = xegpu.create_mem_desc %slm : memref<2048xi8, 3> -> !xegpu.mem_desc<16x32xf32, #xegpu.mem_layout<block = [8, 8]>>
    xegpu.store_matrix %v, %md[0, 0] : vector<16x32xf32>, !xegpu.mem_desc<16x32xf32, #xegpu.mem_layout<block = [8, 8]>>
    %flat = xegpu.create_mem_desc %slm : memref<2048xi8, 3> -> !xegpu.mem_desc<16x32xf32>
    %p = xegpu.load_matrix %flat[0, 0] : !xegpu.mem_desc<16x32xf32> -> vector<16x32xf32>
    %pf = vector.shape_cast %p : vector<16x32xf32> to vector<512xf32>
    %tp = xegpu.create_nd_tdesc %phys : memref<512xf32> -> !xegpu.tensor_desc<512xf32>
    xegpu.store_nd %pf, %tp[0] : vector<512xf32>, !xegpu.tensor_desc<512xf32>
    %b = xegpu.load_matrix %md[4, 12] : !xegpu.mem_desc<16x32xf32, #xegpu.mem_layout<block = [8, 8]>> -> vector<8x16xf32>
    %tb = xegpu.create_nd_tdesc %back : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
    xegpu.store_nd %b, %tb[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
    gpu.return
  }
}
"""
    v = np.arange(512, dtype=np.float32).reshape(16, 32)
    r = launch(src, "f", (1, 1, 1), (16, 1, 1), v, np.zeros(512, np.float32), np.zeros((8, 16), np.float32))
    # row-major 8x8 blocks in row-major block order: block (by, bx) = 4*by + bx, 64 elements each
    want = np.zeros(512, np.float32)
    for y in range(16):
        for x in range(32):
            want[((y // 8) * 4 + x // 8) * 64 + (y % 8) * 8 + x % 8] = v[y, x]
    np.testing.assert_array_equal(r.arrays[1], want)
    np.testing.assert_array_equal(r.arrays[2], v[4:12, 12:28])


def test_blocked_strides_follow_upstream_formula() -> None:
    from xesim.exec.tdesc import blocked_strides, linear_offset

    strides, block = blocked_strides((32, 32), (1, 32), (16, 16))
    for y, x in [(0, 0), (5, 3), (17, 2), (3, 20), (31, 31)]:
        want = ((y // 16) + (x // 16) * 2) * 256 + (y % 16) + (x % 16) * 16
        assert linear_offset(strides, block, (y, x)) == want
    assert blocked_strides((4, 8), None, None) == ((8, 1), (4, 8))


# ============================================================================ level detection
def _kernel(src: str):
    module = parse_source(src, "t.mlir")
    verify_module(module)
    return next(op for op in module.walk() if op.name == "gpu.func")


@pytest.mark.parametrize("body,level,evidence", [
    ("%t = xegpu.create_nd_tdesc %a : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>\n"
     "    %v = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>", "subgroup", None),
    ("%t = xegpu.create_nd_tdesc %a : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>\n"
     "    %v = xegpu.load_nd %t[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8xf32>", "lane", "xegpu.load_nd"),
    ("%x = arith.constant dense<1.0> : vector<8xf16>\n    %y = arith.constant dense<1.0> : vector<16xf16>\n"
     "    %z = arith.constant dense<1.0> : vector<8xf32>\n"
     "    %d = xegpu.dpas %x, %y, %z : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>", "lane", "xegpu.dpas"),
    ("%o = arith.constant 3 : index\n    %m = arith.constant true\n"
     "    %v = xegpu.load %b[%o], %m : memref<64xf32>, index, i1 -> f32", "lane", "xegpu.load"),
    ("%t = xegpu.create_nd_tdesc %a : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32, #xegpu.layout<sg_layout = [2, 1], sg_data = [4, 16]>>",
     "workgroup", "xegpu.create_nd_tdesc"),
    ("%c = arith.constant 0 : index", "lane", None),
])
def test_kernel_level_detection(body: str, level: str, evidence: str | None) -> None:
    src = f"""
gpu.module @k {{
  gpu.func @f(%a: memref<8x16xf32>, %b: memref<64xf32>) kernel {{
    {body}
    gpu.return
  }}
}}
"""
    got, op = classify_kernel(_kernel(src))
    assert got == level
    assert (op.name if op is not None else None) == evidence
    vc = src.replace("kernel {", "kernel attributes {VectorComputeFunctionINTEL} {")
    assert classify_kernel(_kernel(vc)) == ("vc", None)
