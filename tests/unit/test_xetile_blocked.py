"""Legacy 4-D blocked values (shared/spec/xetile.md Appendix A.1): ``load_tile``/``store_tile`` on tiles with
``inner_blocks`` and ``tile_mma`` on 4-D operands execute as the 2-D ops on the unpacked matrices
(``B[a][b][i][j] = M[a·bh + i][b·bw + j]``); 4-D ``reduction``/``broadcast``, whose result shape and block order the
spec does not define, verify but are refused at run time with the reason.  Expected values: numpy's integer
product (exact) and the 2-D program's bytes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.unit.test_exec_xetile import kernel, launch
from xesim.diagnostics import DiagnosticError
from xesim.ir.parser import parse_source
from xesim.verify.structural import verify_module


def _tile(shape: str, ty: str, ib: str | None) -> str:
    return f"!xetile.tile<{shape}x{ty}{', #xetile.tile_attr<inner_blocks = ' + ib + '>' if ib else ''}>"


def _gemm(blocked: bool) -> str:
    ib = (lambda b: b) if blocked else (lambda b: None)
    ta, tb, tc = _tile("32x32", "f16", ib("[8, 16]")), _tile("32x32", "f16", ib("[16, 16]")), \
        _tile("32x32", "f32", ib("[8, 16]"))
    va = "vector<4x2x8x16xf16>" if blocked else "vector<32x32xf16>"
    vb = "vector<2x2x16x16xf16>" if blocked else "vector<32x32xf16>"
    vc = "vector<4x2x8x16xf32>" if blocked else "vector<32x32xf32>"
    return kernel("%A: memref<32x32xf16>, %B: memref<32x32xf16>, %C: memref<32x32xf32>", f"""
      %ta = xetile.init_tile %A[0, 0] : memref<32x32xf16> -> {ta}
      %tb = xetile.init_tile %B[0, 0] : memref<32x32xf16> -> {tb}
      %tc = xetile.init_tile %C[0, 0] : memref<32x32xf32> -> {tc}
      %a = xetile.load_tile %ta : {ta} -> {va}
      %b = xetile.load_tile %tb : {tb} -> {vb}
      %c = xetile.load_tile %tc : {tc} -> {vc}
      %d = xetile.tile_mma %a, %b, %c : {va}, {vb}, {vc} -> {vc}
      xetile.store_tile %d, %tc : {vc}, {tc}""")


def test_blocked_gemm_equals_the_2d_program_and_numpy() -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    c = rng.integers(-50, 50, (32, 32)).astype(np.float32)
    (_, _, blocked), _ = launch(_gemm(True), (1, 1, 1), (1, 1, 1), a, b, c)
    (_, _, plain), _ = launch(_gemm(False), (1, 1, 1), (1, 1, 1), a, b, c)
    want = a.astype(np.int64) @ b.astype(np.int64) + c.astype(np.int64)  # every sum exact in f32
    assert np.array_equal(blocked, want.astype(np.float32))
    assert np.array_equal(blocked.view(np.uint32), plain.view(np.uint32))


def test_blocked_load_is_tile_pack_of_the_2d_load() -> None:
    text = kernel("%A: memref<16x32xf32>, %B: memref<2x2x8x16xf32>", f"""
      %ta = xetile.init_tile %A[0, 0] : memref<16x32xf32> -> {_tile("16x32", "f32", "[8, 16]")}
      %v = xetile.load_tile %ta : {_tile("16x32", "f32", "[8, 16]")} -> vector<2x2x8x16xf32>
      %c0v = arith.constant 0 : index
      vector.store %v, %B[%c0v, %c0v, %c0v, %c0v] : memref<2x2x8x16xf32>, vector<2x2x8x16xf32>""")
    m = np.arange(16 * 32, dtype=np.float32).reshape(16, 32)
    (_, out), _ = launch(text, (1, 1, 1), (1, 1, 1), m, np.zeros((2, 2, 8, 16)))
    for ga in range(2):
        for gb in range(2):
            for i in range(8):
                for j in range(16):
                    assert out[ga, gb, i, j] == m[ga * 8 + i, gb * 16 + j]


def test_blocked_reduction_verifies_but_is_refused_at_run_time() -> None:
    text = kernel("%A: memref<16x32xf32>", f"""
      %ta = xetile.init_tile %A[0, 0] : memref<16x32xf32> -> {_tile("16x32", "f32", "[8, 16]")}
      %v = xetile.load_tile %ta : {_tile("16x32", "f32", "[8, 16]")} -> vector<2x2x8x16xf32>
      %r = xetile.reduction <add>, %v [1, 3] : vector<2x2x8x16xf32> -> vector<2x1x8x1xf32>""")
    verify_module(parse_source(text, "t.mlir"))  # legacy IR: accepted
    with pytest.raises(DiagnosticError) as exc:
        launch(text, (1, 1, 1), (1, 1, 1), np.zeros((16, 32)))
    msg = exc.value.render()
    assert "t.mlir:8:7: error: 'xetile.reduction' op the legacy 4-D blocked form is not supported: xetile.md " \
           "Appendix A.1 does not define the 4-D shape of the result" in msg
