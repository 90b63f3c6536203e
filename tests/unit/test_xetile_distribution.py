"""Workgroup-level XeTile: the whole-tile execution against its distributed view (issue 31 part (c); shared/spec/
xetile.md §4; xesim/exec/xetile_wg.py, xesim/hw/layout.py XeTileWgMap, xesim/observe/xetile_distribution.py).

* the §4.3 ownership rule against the spec's two worked examples, written out here;
* the wg_map GEMM of tests/e2e passes ``--check-distribution`` op by op (tile_mma recomputed per subgroup through
  the DPAS model);
* a map that distributes nothing (one subgroup owns the whole tile) gives the same bytes as the subgroup-level
  program and numpy;
* deliberately broken ownership is a located error naming the op and the subgroup: an element-wise op whose map
  disagrees with its operand's, a non-splat constant, a loop-carried value whose map changes, a launch with too
  few subgroups; the transposed-load numbering of §4.2 is what makes a transpose program agree.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.conftest import run_xesim
from tests.unit.test_exec_xetile import kernel, launch
from xesim.diagnostics import DiagnosticError
from xesim.exec import xetile_wg
from xesim.hw.layout import XeTileWgMap
from xesim.ir.parser import parse_source

ROOT = Path(__file__).resolve().parents[2]


def _map(l0: int, l1: int, d0: int, d1: int) -> str:
    return f"#xetile.wg_map<sg_layout = [{l0}, {l1}], sg_data = [{d0}, {d1}]>"


def _tile(shape: str, m: str) -> str:
    return f"!xetile.tile<{shape}xf32, #xetile.tile_attr<wg_map = {m.removeprefix('#xetile.wg_map')}>>"


# ------------------------------------------------------------------------------------------------ §4.2-§4.3
def test_ownership_matches_the_spec_examples() -> None:
    m = XeTileWgMap((2, 2), (32, 128))  # §4.3 worked example on a [128, 128] tile
    assert m.blocks((128, 128), 0) == [(0, 0), (64, 0)]
    assert m.blocks((128, 128), 1) == [(0, 0), (64, 0)]  # column dimension replicated
    assert m.blocks((128, 128), 2) == [(32, 0), (96, 0)]
    assert m.blocks((128, 128), 3) == [(32, 0), (96, 0)]
    a = XeTileWgMap((8, 4), (32, 32))  # second example: [256, 32] A tile
    for s in range(32):
        assert a.blocks((256, 32), s) == [(32 * (s // 4), 0)]
    # n = 3 blocks over L = 2 subgroups: ceil(3/2) = 2 rounds, the last wraps (§4.3 "held twice")
    w = XeTileWgMap((2, 1), (8, 8))
    assert w.blocks((24, 8), 0) == [(0, 0), (16, 0)] and w.blocks((24, 8), 1) == [(8, 0), (0, 0)]
    assert w.blocks((20, 8), 0) == [(0, 0)]  # 20 // 8 = 2 blocks: rows 16..19 are nobody's
    # transposed-load numbering (§4.2): (s mod L0, s div L0)
    assert [XeTileWgMap((2, 4), (8, 8)).coords(s, True) for s in (0, 1, 2, 5)] == [(0, 0), (1, 0), (0, 1), (1, 2)]
    assert [XeTileWgMap((2, 4), (8, 8)).coords(s) for s in (0, 1, 2, 5)] == [(0, 0), (0, 1), (0, 2), (1, 1)]
    # extra subgroups wrap (no modulo on the leading coordinate; the block formula's does it)
    assert a.blocks((256, 32), 32) == a.blocks((256, 32), 0)


# ------------------------------------------------------------------------------------------------ programs
def test_wg_gemm_program_agrees_with_its_distributed_view() -> None:
    status, out, err = run_xesim(["check", "--check-distribution", str(ROOT / "tests/e2e/xetile_wg_gemm_512_bf16_relu.mlir")])
    assert status == 0, err
    # 4x4 workgroups, 16 K steps: every tile_mma of every workgroup recomputed per subgroup and compared
    assert "256 xetile.tile_mma" in err and "16 xetile.store_tile" in err and "16 arith.maximumf" in err


def _square(m_in: str, m_op: str, m_out: str) -> str:
    return kernel("%A: memref<64x64xf32>, %B: memref<64x64xf32>", f"""
      %ta = xetile.init_tile %A[0, 0] : memref<64x64xf32> -> {_tile("64x64", m_in)}
      %a = xetile.load_tile %ta : {_tile("64x64", m_in)} -> vector<64x64xf32>
      %e = arith.mulf %a, %a {{map = {m_op}}} : vector<64x64xf32>
      %tb = xetile.init_tile %B[0, 0] : memref<64x64xf32> -> {_tile("64x64", m_out)}
      xetile.store_tile %e, %tb : vector<64x64xf32>, {_tile("64x64", m_out)}""")


def _data() -> np.ndarray:
    return (np.arange(64 * 64, dtype=np.float32).reshape(64, 64) % 97) - 48


def test_a_map_that_distributes_nothing_changes_nothing() -> None:
    whole = _map(1, 1, 64, 64)
    (_, wg), _ = launch(_square(whole, whole, whole), (1, 1, 1), (1, 1, 1), _data(), np.zeros((64, 64)),
                        check_distribution=True)
    sg_text = _square(whole, whole, whole).replace(f", #xetile.tile_attr<wg_map = {whole.removeprefix('#xetile.wg_map')}>", "")
    sg_text = sg_text.replace(f" {{map = {whole}}}", "")
    assert "wg_map" not in sg_text
    (_, sg), _ = launch(sg_text, (1, 1, 1), (1, 1, 1), _data(), np.zeros((64, 64)))
    a = _data()
    assert np.array_equal(wg.view(np.uint32), (a * a).view(np.uint32))
    assert np.array_equal(wg.view(np.uint32), sg.view(np.uint32))


def test_round_robin_program_passes() -> None:
    m = _map(2, 2, 16, 16)  # n = 4 blocks per dimension over 2 subgroups: two rounds each
    (_, out), _ = launch(_square(m, m, m), (1, 1, 1), (4, 1, 1), _data(), np.zeros((64, 64)), check_distribution=True)
    assert np.array_equal(out, _data() * _data())


def test_broken_ownership_is_a_located_error() -> None:
    good, bad = _map(2, 2, 16, 16), _map(4, 1, 16, 16)  # same sub-tile size, other subgroups own them
    text = _square(good, bad, bad)
    # whole-tile execution alone gives the right values: the maps only decide who holds what
    (_, out), _ = launch(text, (1, 1, 1), (4, 1, 1), _data(), np.zeros((64, 64)))
    assert np.array_equal(out, _data() * _data())
    with pytest.raises(DiagnosticError) as exc:
        launch(text, (1, 1, 1), (4, 1, 1), _data(), np.zeros((64, 64)), check_distribution=True)
    msg = exc.value.render()
    assert "t.mlir:8:7: error: 'arith.mulf' op subgroup 0: the operand #0 sub-tile at (0, 32) (for its result " \
           "sub-tile at (0, 16)) disagrees with the whole-tile value at local element [0, 0]" in msg


def test_non_splat_constant_is_caught() -> None:
    m = _map(2, 2, 16, 16)
    text = kernel("%B: memref<32x32xf32>", f"""
      %k = arith.constant {{map = {m}}} dense<[{", ".join("[" + ", ".join(str(float(i * 32 + j)) for j in range(32)) + "]" for i in range(32))}]> : vector<32x32xf32>
      %tb = xetile.init_tile %B[0, 0] : memref<32x32xf32> -> {_tile("32x32", m)}
      xetile.store_tile %k, %tb : vector<32x32xf32>, {_tile("32x32", m)}""")
    with pytest.raises(DiagnosticError, match=r"'arith.constant' op subgroup 0: the constant sub-tile \(IMEX: the "
                                              r"first sg_data elements"):
        launch(text, (1, 1, 1), (4, 1, 1), np.zeros((32, 32)), check_distribution=True)
    splat = kernel("%B: memref<32x32xf32>", f"""
      %k = arith.constant {{map = {m}}} dense<2.5> : vector<32x32xf32>
      %tb = xetile.init_tile %B[0, 0] : memref<32x32xf32> -> {_tile("32x32", m)}
      xetile.store_tile %k, %tb : vector<32x32xf32>, {_tile("32x32", m)}""")
    (out,), _ = launch(splat, (1, 1, 1), (4, 1, 1), np.zeros((32, 32)), check_distribution=True)
    assert (out == 2.5).all()


def test_loop_carried_map_change_is_caught() -> None:
    m1, m2 = _map(2, 2, 16, 16), _map(4, 1, 16, 16)
    text = kernel("%A: memref<64x64xf32>, %B: memref<64x64xf32>", f"""
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %ta = xetile.init_tile %A[0, 0] : memref<64x64xf32> -> {_tile("64x64", m1)}
      %a = xetile.load_tile %ta : {_tile("64x64", m1)} -> vector<64x64xf32>
      %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %a) -> (vector<64x64xf32>) {{
        %y = arith.addf %x, %x {{map = {m2}}} : vector<64x64xf32>
        scf.yield %y : vector<64x64xf32>
      }}
      %tb = xetile.init_tile %B[0, 0] : memref<64x64xf32> -> {_tile("64x64", m1)}
      xetile.store_tile %r, %tb : vector<64x64xf32>, {_tile("64x64", m1)}""")
    with pytest.raises(DiagnosticError) as exc:
        launch(text, (1, 1, 1), (4, 1, 1), _data(), np.zeros((64, 64)), check_distribution=True)
    assert "'arith.addf' op subgroup 0" in exc.value.render()  # the map disagrees with the carried operand's


def test_launch_with_too_few_subgroups() -> None:
    m = _map(2, 2, 16, 16)
    with pytest.raises(DiagnosticError, match=r"the wg_map needs 4 subgroups \(sg_layout \[2, 2\]\) but the launch "
                                              r"has 2"):
        launch(_square(m, m, m), (1, 1, 1), (2, 1, 1), _data(), np.zeros((64, 64)))


TRANSPOSE = kernel("%A: memref<64x32xf32>, %B: memref<32x64xf32>", f"""
      %ta = xetile.init_tile %A[0, 0] : memref<64x32xf32> -> {_tile("64x32", _map(2, 2, 32, 16))}
      %a = xetile.load_tile %ta : {_tile("64x32", _map(2, 2, 32, 16))} -> vector<64x32xf32>
      %t = vector.transpose %a, [1, 0] {{map = {_map(2, 2, 16, 32)}}} : vector<64x32xf32> to vector<32x64xf32>
      %tb = xetile.init_tile %B[0, 0] : memref<32x64xf32> -> {_tile("32x64", _map(2, 2, 16, 32))}
      xetile.store_tile %t, %tb : vector<32x64xf32>, {_tile("32x64", _map(2, 2, 16, 32))}""")


def test_transposed_load_numbering(monkeypatch: pytest.MonkeyPatch) -> None:
    module = parse_source(TRANSPOSE, "t.mlir")
    func = module.lookup_symbol(("k", "f"))
    cols = xetile_wg.column_major_values(func)
    names = {v.name for op in func.walk() for v in op.results if id(v) in cols}
    assert names == {"ta", "a"}  # the tile and its loaded value, not the transpose's result
    a = np.arange(64 * 32, dtype=np.float32).reshape(64, 32)
    (_, out), _ = launch(TRANSPOSE, (1, 1, 1), (4, 1, 1), a, np.zeros((32, 64)), check_distribution=True)
    assert np.array_equal(out, a.T)
    # with row-major numbering the subgroup that loads a block is not the one that owns its transpose
    monkeypatch.setattr(xetile_wg, "column_major_values", lambda kernel: set())
    with pytest.raises(DiagnosticError, match="'vector.transpose' op subgroup 1"):
        launch(TRANSPOSE, (1, 1, 1), (4, 1, 1), a, np.zeros((32, 64)), check_distribution=True)


def _convert(shape: str, m_src: str, m_res: str) -> str:
    return kernel(f"%A: memref<{shape}xf32>, %B: memref<{shape}xf32>", f"""
      %ta = xetile.init_tile %A[0, 0] : memref<{shape}xf32> -> {_tile(shape, m_src)}
      %a = xetile.load_tile %ta : {_tile(shape, m_src)} -> vector<{shape}xf32>
      %c = xetile.convert_layout %a {{wg_map_result = {m_res}}} : vector<{shape}xf32>
      %tb = xetile.init_tile %B[0, 0] : memref<{shape}xf32> -> {_tile(shape, m_res)}
      xetile.store_tile %c, %tb : vector<{shape}xf32>, {_tile(shape, m_res)}""")


def test_convert_layout_through_slm() -> None:
    a = np.arange(32 * 32, dtype=np.float32).reshape(32, 32)
    (_, out), _ = launch(_convert("32x32", _map(2, 2, 16, 16), _map(1, 4, 32, 8)), (1, 1, 1), (4, 1, 1), a,
                         np.zeros((32, 32)), check_distribution=True)
    assert np.array_equal(out, a)
    # IMEX's convert_layout stores one source sub-tile per subgroup (§4.4): a round-robin source leaves holes
    b = np.arange(64 * 64, dtype=np.float32).reshape(64, 64)
    with pytest.raises(DiagnosticError, match=r"'xetile.convert_layout' op subgroup 0 loads element \(\d+, \d+\) of "
                                              r"the SLM buffer, which no subgroup stored"):
        launch(_convert("64x64", _map(2, 2, 16, 16), _map(1, 4, 64, 16)), (1, 1, 1), (4, 1, 1), b,
               np.zeros((64, 64)), check_distribution=True)
