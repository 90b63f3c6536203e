"""XeTile ops through the Engine (xesim/exec/ops/xetile.py, xetile_compute.py) and the spec's open questions as
target parameters (shared/spec/xetile.md §5).

Expected values are literal readings of the spec written here as small numpy loops (``window`` pads with the
out-of-bounds value, the reduction orders are spelled out per element), never taken from the code under test.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from xesim.api import make_engine
from xesim.diagnostics import DiagnosticError
from xesim.exec.faults import ExecFault
from xesim.exec.levels import classify_kernel
from xesim.exec.values import MemRefValue, dtype_of, identity_strides
from xesim.ir.parser import parse_source
from xesim.verify.structural import verify_module

ROOT = Path(__file__).resolve().parents[2]
VC = "attributes {VectorComputeFunctionINTEL}"


def launch(src: str, grid: tuple, block: tuple, *inputs: np.ndarray, **kw: Any) -> tuple[list[np.ndarray], str]:
    """Launch kernel @k::@f with numpy arrays as memref arguments; returns the arrays after the run and stderr."""
    module = parse_source(src, "t.mlir")
    verify_module(module)
    err = io.StringIO()
    engine = make_engine(module, out=io.StringIO(), err=err, **kw)
    func = module.lookup_symbol(("k", "f"))
    mems = []
    for x, t in zip(inputs, func.attributes["function_type"].type.inputs):
        arr = np.ascontiguousarray(x, dtype=dtype_of(t.element_type))
        alloc = engine.memory.allocate(max(arr.nbytes, 1), "device", "arg")
        mv = MemRefValue(engine.memory, alloc, alloc.base, 0, tuple(arr.shape), identity_strides(arr.shape),
                         t.element_type)
        mv.write_logical(arr)
        mems.append(mv)
    try:
        engine.launch(func, "f", grid, block, mems, func)
    except ExecFault as exc:
        raise DiagnosticError(exc.to_diagnostic()) from exc
    return [m.logical_array() for m in mems], err.getvalue()


def kernel(args: str, body: str) -> str:
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @f({args}) kernel {VC} {{
      %c0 = arith.constant 0 : index
{body}
      gpu.return
    }}
  }}
}}"""


def window(mem: np.ndarray, y: int, x: int, h: int, w: int, fill: float = 0) -> np.ndarray:
    out = np.full((h, w), fill, mem.dtype)
    for i in range(h):
        for j in range(w):
            if 0 <= y + i < mem.shape[0] and 0 <= x + j < mem.shape[1]:
                out[i, j] = mem[y + i, x + j]
    return out


# ============================================================================ block access, §3.2 and §5 Q1
LOAD_PADDED = kernel("%X: memref<64x64xf32>, %Y: memref<8x16xf32>", """
      %r = arith.constant 60 : index
      %q = arith.constant 56 : index
      %t = xetile.init_tile %X[%r, %q] : memref<64x64xf32> -> !xetile.tile<8x16xf32>
      %v = xetile.load_tile %t {padding = 7.0 : f32} : !xetile.tile<8x16xf32> -> vector<8x16xf32>
      %ty = xetile.init_tile %Y[%c0, %c0] : memref<8x16xf32> -> !xetile.tile<8x16xf32>
      xetile.store_tile %v, %ty : vector<8x16xf32>, !xetile.tile<8x16xf32>""")


def test_load_tile_out_of_bounds_reads_zero_by_default_and_the_padding_on_request() -> None:
    x = np.arange(64 * 64, dtype=np.float32).reshape(64, 64)
    (_, y), _ = launch(LOAD_PADDED, (1, 1, 1), (1, 1, 1), x, np.zeros((8, 16), np.float32))
    assert np.array_equal(y, window(x, 60, 56, 8, 16, 0))
    (_, y), _ = launch(LOAD_PADDED, (1, 1, 1), (1, 1, 1), x, np.zeros((8, 16), np.float32),
                       overrides=(("xetile.load_tile.oob_value", "padding_attr"),))
    assert np.array_equal(y, window(x, 60, 56, 8, 16, 7))


def test_store_tile_drops_out_of_bounds_elements_and_column_major_keeps_the_logical_view() -> None:
    body = """
      %c4 = arith.constant 4 : index
      %c6 = arith.constant 6 : index
      %t = xetile.init_tile %X[%c0, %c0] : memref<16x16xf32> -> !xetile.tile<16x16xf32>
      %v = xetile.load_tile %t : !xetile.tile<16x16xf32> -> vector<16x16xf32>
      %yc = memref.reinterpret_cast %Y to offset: [0], sizes: [8, 8], strides: [1, 8] : memref<8x8xf32> to memref<8x8xf32, strided<[1, 8]>>
      %ts = xetile.init_tile %yc[%c4, %c6] : memref<8x8xf32, strided<[1, 8]>> -> !xetile.tile<16x16xf32, #xetile.tile_attr<order = [0, 1]>>
      xetile.store_tile %v, %ts : vector<16x16xf32>, !xetile.tile<16x16xf32, #xetile.tile_attr<order = [0, 1]>>"""
    x = np.arange(256, dtype=np.float32).reshape(16, 16)
    (_, y), _ = launch(kernel("%X: memref<16x16xf32>, %Y: memref<8x8xf32>", body), (1, 1, 1), (1, 1, 1), x,
                       np.full((8, 8), -1, np.float32))
    # the strided view's logical element (r, c) is Y's storage element r + 8c (§3.1 address formula)
    view = np.full((8, 8), -1, np.float32)
    for i in range(16):
        for j in range(16):
            r, c = 4 + i, 6 + j
            if r < 8 and c < 8:
                view[r, c] = x[i, j]
    assert np.array_equal(y.reshape(-1), view.T.reshape(-1))


def test_slm_tile_out_of_bounds_is_a_located_fault() -> None:
    src = kernel("%X: memref<8x16xf32>", """
      %slm = memref.alloc() : memref<8x16xf32, 3>
      %c4 = arith.constant 4 : index
      %t = xetile.init_tile %slm[%c4, %c0] : memref<8x16xf32, 3> -> !xetile.tile<8x16xf32, #xetile.tile_attr<memory_space = 3 : i64>>
      %v = xetile.load_tile %t : !xetile.tile<8x16xf32, #xetile.tile_attr<memory_space = 3 : i64>> -> vector<8x16xf32>""")
    with pytest.raises(DiagnosticError) as info:
        launch(src, (1, 1, 1), (1, 1, 1), np.zeros((8, 16), np.float32))
    text = info.value.render()
    assert "t.mlir:" in text and "'xetile.load_tile' op" in text
    assert "SLM tile reaches outside its surface at tile element (4, 0)" in text and "§5 Q10" in text


NARROW = kernel("%X: memref<8x8xf32>, %Y: memref<8x16xf32>", """
      %t = xetile.init_tile %X[%c0, %c0] : memref<8x8xf32> -> !xetile.tile<8x16xf32>
      %v = xetile.load_tile %t : !xetile.tile<8x16xf32> -> vector<8x16xf32>
      %ty = xetile.init_tile %Y[%c0, %c0] : memref<8x16xf32> -> !xetile.tile<8x16xf32>
      xetile.store_tile %v, %ty : vector<8x16xf32>, !xetile.tile<8x16xf32>""")


def test_narrow_surface_out_of_bounds_warns_or_faults() -> None:
    """§5 Q9: a 32-byte row pitch is below IMEX's 64-byte block rule."""
    x = np.ones((8, 8), np.float32)
    (_, y), err = launch(NARROW, (1, 1, 1), (1, 1, 1), x, np.zeros((8, 16), np.float32))
    assert np.array_equal(y, window(x, 0, 0, 8, 16))
    assert "warning" in err and "narrow surface" in err and "row pitch 32 B" in err
    with pytest.raises(DiagnosticError) as info:
        launch(NARROW, (1, 1, 1), (1, 1, 1), x, np.zeros((8, 16), np.float32),
               overrides=(("xetile.narrow_surface_oob", "error"),))
    assert "narrow surface" in info.value.render()


# ============================================================================ atomics, §3.7 and §5 Q11
ATOMIC_OOB = kernel("%X: memref<8x16xf32>", """
      %c4 = arith.constant 4 : index
      %one = arith.constant dense<1.0> : vector<8x16xf32>
      %t = xetile.init_tile %X[%c4, %c0] : memref<8x16xf32> -> !xetile.tile<8x16xf32>
      %o = xetile.atomic_rmw addf %one, %t : vector<8x16xf32>, !xetile.tile<8x16xf32> -> vector<8x16xf32>""")


def test_atomic_rmw_out_of_bounds_is_an_error_or_dropped() -> None:
    with pytest.raises(DiagnosticError) as info:
        launch(ATOMIC_OOB, (1, 1, 1), (1, 1, 1), np.zeros((8, 16), np.float32))
    assert "atomic_rmw element (4, 0) = surface (8, 0) is outside" in info.value.render()
    (x,), _ = launch(ATOMIC_OOB, (2, 1, 1), (1, 1, 1), np.zeros((8, 16), np.float32),
                     overrides=(("xetile.atomic_rmw.oob", "drop"),))
    want = np.zeros((8, 16), np.float32)
    want[4:] = 2  # two workgroups, in-bounds rows only
    assert np.array_equal(x, want)


# ============================================================================ reduction, §3.9 and §5 Q3, Q8
def _reduce_kernel(dims: str, rtype: str, attrs: str = "") -> str:
    return kernel(f"%X: memref<4x32xf32>, %Y: memref<{rtype}xf32>", f"""
      %t = xetile.init_tile %X[%c0, %c0] : memref<4x32xf32> -> !xetile.tile<4x32xf32>
      %v = xetile.load_tile %t : !xetile.tile<4x32xf32> -> vector<4x32xf32>
      %r = xetile.reduction <add>, %v [{dims}] {attrs}: vector<4x32xf32> -> vector<{rtype}xf32>
      %ty = xetile.init_tile %Y[%c0, %c0] : memref<{rtype}xf32> -> !xetile.tile<{rtype}xf32>
      xetile.store_tile %r, %ty : vector<{rtype}xf32>, !xetile.tile<{rtype}xf32>""")


def _f32(x: float) -> np.float32:
    return np.float32(x)


def test_row_reduction_follows_imex_block_fold_and_halving_tree() -> None:
    """§3.9: w = 16 for f32; p[l] = x[l] + x[16 + l]; then p[l] + p[l + 8], + p[l + 4], ... — a different
    association from the left fold, visible in f32 with large and small values."""
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((4, 32)) * np.array([1e7, 1, 1e-3, 3e4] * 8)).astype(np.float32)
    imex = np.zeros((4, 1), np.float32)
    seq = np.zeros((4, 1), np.float32)
    for i in range(4):
        p = [_f32(x[i, l] + x[i, 16 + l]) for l in range(16)]
        while len(p) > 1:
            h = len(p) // 2
            p = [_f32(p[l] + p[l + h]) for l in range(h)]
        imex[i, 0] = p[0]
        acc = x[i, 0]
        for j in range(1, 32):
            acc = _f32(acc + x[i, j])
        seq[i, 0] = acc
    assert not np.array_equal(imex, seq)  # the data tells the two orders apart
    (_, y), _ = launch(_reduce_kernel("1", "4x1"), (1, 1, 1), (1, 1, 1), x, np.zeros((4, 1), np.float32))
    assert np.array_equal(y, imex)
    (_, y), _ = launch(_reduce_kernel("1", "4x1"), (1, 1, 1), (1, 1, 1), x, np.zeros((4, 1), np.float32),
                       overrides=(("xetile.reduction.order", "sequential"),))
    assert np.array_equal(y, seq)


def test_reduction_size_on_dim0_interleaved_or_contiguous() -> None:
    x = np.arange(128, dtype=np.float32).reshape(4, 32) ** 2
    src = _reduce_kernel("0", "2x32", "{reduction_size = 2 : i64} ")
    (_, y), _ = launch(src, (1, 1, 1), (1, 1, 1), x, np.zeros((2, 32), np.float32))
    assert np.array_equal(y, np.stack([x[0] + x[2], x[1] + x[3]]))  # groups {t·g + b}: g = 2
    (_, y), _ = launch(src, (1, 1, 1), (1, 1, 1), x, np.zeros((2, 32), np.float32),
                       overrides=(("xetile.reduction.size_dim0", "contiguous"),))
    assert np.array_equal(y, np.stack([x[0] + x[1], x[2] + x[3]]))


# ============================================================================ tile_mma, §3.6
def test_tile_mma_zero_pads_a_partial_k_chunk_and_warns() -> None:
    src = kernel("%A: memref<8x24xf16>, %B: memref<24x16xf16>, %C: memref<8x16xf32>", """
      %ta = xetile.init_tile %A[%c0, %c0] : memref<8x24xf16> -> !xetile.tile<8x24xf16>
      %tb = xetile.init_tile %B[%c0, %c0] : memref<24x16xf16> -> !xetile.tile<24x16xf16>
      %a = xetile.load_tile %ta : !xetile.tile<8x24xf16> -> vector<8x24xf16>
      %b = xetile.load_tile %tb : !xetile.tile<24x16xf16> -> vector<24x16xf16>
      %d = xetile.tile_mma %a, %b : vector<8x24xf16>, vector<24x16xf16> -> vector<8x16xf32>
      %tc = xetile.init_tile %C[%c0, %c0] : memref<8x16xf32> -> !xetile.tile<8x16xf32>
      xetile.store_tile %d, %tc : vector<8x16xf32>, !xetile.tile<8x16xf32>""")
    a = (np.arange(8 * 24).reshape(8, 24) % 5 - 2).astype(np.float16)
    b = (np.arange(24 * 16).reshape(24, 16) % 7 - 3).astype(np.float16)
    (_, _, c), err = launch(src, (1, 1, 1), (1, 1, 1), a, b, np.zeros((8, 16), np.float32))
    assert np.array_equal(c, a.astype(np.float64) @ b.astype(np.float64))  # small integers: exact
    assert "K = 24 or N = 16 is not a multiple of the DPAS block (K 16, N 16)" in err


# ============================================================================ levels, §1.3
def test_xetile_kernels_run_per_subgroup_and_wg_map_kernels_per_workgroup() -> None:
    sg = parse_source(kernel("%X: memref<8x16xf32>", """
      %t = xetile.init_tile %X[%c0, %c0] : memref<8x16xf32> -> !xetile.tile<8x16xf32>""").replace(f" {VC}", ""))
    wg = parse_source(kernel("%X: memref<64x64xf32>", """
      %t = xetile.init_tile %X[%c0, %c0] : memref<64x64xf32> -> !xetile.tile<64x64xf32, #xetile.tile_attr<wg_map = <sg_layout = [2, 2], sg_data = [32, 32]>>>"""))
    vc = parse_source(kernel("%X: memref<8x16xf32>", """
      %t = xetile.init_tile %X[%c0, %c0] : memref<8x16xf32> -> !xetile.tile<8x16xf32>"""))
    assert classify_kernel(sg.lookup_symbol(("k", "f")))[0] == "subgroup"
    assert classify_kernel(vc.lookup_symbol(("k", "f")))[0] == "vc"
    assert classify_kernel(wg.lookup_symbol(("k", "f")))[0] == "workgroup"


def test_generated_xetile_programs_are_up_to_date() -> None:
    """tests/e2e/xetile_*.mlir are exactly what tools/gen_xetile_e2e.py writes (their CHECK lines come from numpy)."""
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_xetile_e2e.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


def test_assumptions_are_target_parameters_with_the_spec_defaults() -> None:
    from xesim.hw.params import load_target

    t = load_target("pvc")
    want = {"xetile.load_tile.oob_value": "zero", "xetile.load.masked_value": "padding_attr",
            "xetile.reduction.size_dim0": "interleaved", "xetile.tile_mma.model": "dpas_chain",
            "xetile.reduction.order": "imex", "xetile.honor_memref_offset": True,
            "xetile.narrow_surface_oob": "dialect", "xetile.atomic_rmw.oob": "error", "xetile.wg.semantics": "whole_tile"}
    for path, value in want.items():
        assert t.params[path].value == value and t.params[path].assumed, path
    assert load_target("bmg").params["xetile.reduction.order"].value == "imex"  # inherited


# ============================================================================ observers
def test_race_detector_sees_xetile_accesses() -> None:
    """A store and a load of the same SLM tile by two subgroups: a race without a barrier, none with one
    (tests/e2e/xetile_slm_copy.mlir)."""
    from tests.conftest import run_xesim

    status, _, err = run_xesim(["run", "--check-races", str(ROOT / "tests" / "e2e" / "race_xetile_slm_racy.mlir")])
    assert status != 0
    assert "'xetile.store_tile' op data race: subgroup 1 writes 4096 byte(s)" in err
    assert "that subgroup 0 read with 'xetile.load_tile'" in err
    status, out, err = run_xesim(["run", "--check-races", str(ROOT / "tests" / "e2e" / "xetile_slm_copy.mlir")])
    assert status == 0, err
