"""The register-file model during kernel execution (xesim/observe/registers.py; spec/pvc-hardware.md §1.5, §3.3, §5).

Expected register counts, layouts and ownership are worked out by hand from the spec's layout rules in the
comments; the block-load layout is compared with the independent hardware model (xesim.hw.block2d.load_image).
"""

from __future__ import annotations

import numpy as np
import pytest

import xesim
from tests.conftest import run_xesim
from xesim.api import register_file
from xesim.diagnostics import DiagnosticError
from xesim.exec.registry import IMPLS
from xesim.hw import block2d
from xesim.hw.memory import AddressSpace
from xesim.hw.params import load_target
from xesim.observe import registers as grf

PVC = load_target("pvc")

# An SG-level GEMM: per subgroup an 8x16 C tile, K = 32 in two steps.  Live registers in the loop body, by hand:
# scalars %m, %n, %k (index, 8 bytes each, packed into one register: 1), %sum 8x16xf32 (8 rows of 64 B: 8),
# %av 8x16xf16 (§1.5 plain: row pitch 16 elements = 32 B, 8 rows = 256 B: 4), %bv 16x16xf16 packed (VNNI:
# 8 rows of pitch 2*16 elements = 64 B: 8).  Peak 1 + 8 + 4 + 8 = 21 when %bv is loaded; at the dpas %av, %bv and
# %sum die before %d is allocated.
GEMM = """
module attributes {gpu.container_module} {
  gpu.module @kernels %TARGET% {
    gpu.func @gemm(%a: memref<8x32xf16>, %b: memref<32x16xf16>, %c: memref<8x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %m = gpu.block_id x
      %n = gpu.block_id y
      %a_td = xegpu.create_nd_tdesc %a : memref<8x32xf16> -> !xegpu.tensor_desc<8x16xf16>
      %b_td = xegpu.create_nd_tdesc %b : memref<32x16xf16> -> !xegpu.tensor_desc<16x16xf16>
      %c_td = xegpu.create_nd_tdesc %c : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %zero = arith.constant dense<0.0> : vector<8x16xf32>
      %acc = scf.for %k = %c0 to %c32 step %c16 iter_args(%sum = %zero) -> (vector<8x16xf32>) {
        %av = xegpu.load_nd %a_td[%m, %k] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
        %bv = xegpu.load_nd %b_td[%k, %n] <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
        %d = xegpu.dpas %av, %bv, %sum : vector<8x16xf16>, vector<8x16x2xf16>, vector<8x16xf32> -> vector<8x16xf32>
        scf.yield %d : vector<8x16xf32>
      }
      xegpu.store_nd %acc, %c_td[%m, %n] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
  }
}
"""

# Five 32x16xf32 tiles (each one 2048-byte block load = 32 registers) live at once.  By hand: the index constants
# share register 0 (8 bytes each); %c0 is used up to the store, so r0 stays live.  %t0..%t2 take r1..r96; %t3 needs
# 32 more: 1 + 96 + 32 = 129 > 128, so %t3 spills; %t4 too (r97..r127 are 31 registers).  The peak is at %t4:
# 1 + 5 x 32 = 161 registers.  With 256 registers everything fits (peak 161, no spill).
SPILL = """
module attributes {gpu.container_module} {
  gpu.module @kernels %TARGET% {
    gpu.func @five(%src: memref<160x16xf32>, %dst: memref<32x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c96 = arith.constant 96 : index
      %c128 = arith.constant 128 : index
      %td = xegpu.create_nd_tdesc %src : memref<160x16xf32> -> !xegpu.tensor_desc<32x16xf32>
      %t0 = xegpu.load_nd %td[%c0, %c0] : !xegpu.tensor_desc<32x16xf32> -> vector<32x16xf32>
      %t1 = xegpu.load_nd %td[%c32, %c0] : !xegpu.tensor_desc<32x16xf32> -> vector<32x16xf32>
      %t2 = xegpu.load_nd %td[%c64, %c0] : !xegpu.tensor_desc<32x16xf32> -> vector<32x16xf32>
      %t3 = xegpu.load_nd %td[%c96, %c0] : !xegpu.tensor_desc<32x16xf32> -> vector<32x16xf32>
      %t4 = xegpu.load_nd %td[%c128, %c0] : !xegpu.tensor_desc<32x16xf32> -> vector<32x16xf32>
      %s1 = arith.addf %t0, %t1 : vector<32x16xf32>
      %s2 = arith.addf %s1, %t2 : vector<32x16xf32>
      %s3 = arith.addf %s2, %t3 : vector<32x16xf32>
      %s4 = arith.addf %s3, %t4 : vector<32x16xf32>
      %out = xegpu.create_nd_tdesc %dst : memref<32x16xf32> -> !xegpu.tensor_desc<32x16xf32>
      xegpu.store_nd %s4, %out[%c0, %c0] : vector<32x16xf32>, !xegpu.tensor_desc<32x16xf32>
      gpu.return
    }
  }
}
"""


def _program(text: str, target: str = "") -> xesim.Program:
    return xesim.load(text.replace("%TARGET%", target))


def _gemm_inputs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = (np.arange(8 * 32) % 7).reshape(8, 32).astype(np.float16)
    b = (np.arange(32 * 16) % 5).reshape(32, 16).astype(np.float16)
    return a, b, np.zeros((8, 16), np.float32)


def _op(prog: xesim.Program, name: str, index: int = 0):
    return [op for op in prog.walk() if op.name == name][index]


# ------------------------------------------------------------------------------------------------ whole kernels
def test_gemm_peak_registers_and_where(monkeypatch) -> None:
    monkeypatch.setenv("XESIM_GRF", "checked")
    prog = _program(GEMM)
    a, b, c = _gemm_inputs()
    res = xesim.launch(prog, "kernels::gemm", (1, 1, 1), (16, 1, 1), [a, b, c])
    assert np.array_equal(res.arrays[2], a.astype(np.float32) @ b.astype(np.float32))
    st = register_file(res.engine).stats["@kernels::gemm"] if "@kernels::gemm" in register_file(res.engine).stats else \
        next(iter(register_file(res.engine).stats.values()))
    assert (st.peak, st.registers, st.spills, st.instances) == (21, 128, 0, 1)
    assert st.peak_label.startswith("%bv (xegpu.load_nd")


def test_dpas_result_and_block_load_ownership(monkeypatch) -> None:
    prog = _program(GEMM)
    a, b, c = _gemm_inputs()
    res = xesim.launch(prog, "kernels::gemm", (1, 1, 1), (16, 1, 1), [a, b, c], grf="track")
    # D (§3.3 C/D, 32-bit): row r in one register, element (r, j) at byte 4j, lane j
    d = _op(prog, "xegpu.dpas").results[0]
    own = res.ownership(d)
    r, j = np.indices((8, 16))
    assert own.layout == "dpas" and not own.spilled
    assert np.array_equal(own.register - own.register.min(), r)
    assert np.array_equal(own.byte, 4 * j) and np.array_equal(own.lane, j)
    # A 8x16xf16 (§1.5 plain, row pitch 16 elements): two rows per register, element (r, k) at byte 32(r%2)+2k
    av = _op(prog, "xegpu.load_nd", 0).results[0]
    own = res.ownership(av)
    r, k = np.indices((8, 16))
    assert own.layout == "block"
    assert np.array_equal(own.register - own.register.min(), r // 2)
    assert np.array_equal(own.byte, 32 * (r % 2) + 2 * k) and np.array_equal(own.lane, k)
    # B packed [8, 16, 2] (VNNI): element (k2, n, p) = B[2 k2 + p][n] in register k2, dword n, half p; lane n
    bv = _op(prog, "xegpu.load_nd", 1).results[0]
    own = res.ownership(bv)
    k2, n, p = np.indices((8, 16, 2))
    assert np.array_equal(own.register - own.register.min(), k2)
    assert np.array_equal(own.byte, 4 * n + 2 * p) and np.array_equal(own.lane, n)
    # uniform scalars: one slot, no lane
    m = _op(prog, "gpu.block_id").results[0]
    own = res.ownership(m)
    assert own.layout == "scalar" and own.lane.shape == () and int(own.lane) == -1


def test_ownership_without_the_model_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.setenv("XESIM_GRF", "off")
    prog = _program(GEMM)
    res = xesim.launch(prog, "kernels::gemm", (1, 1, 1), (16, 1, 1), list(_gemm_inputs()))
    with pytest.raises(KeyError, match="XESIM_GRF"):
        res.ownership(_op(prog, "xegpu.dpas").results[0])


LANE_GEMM = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @dpas(%a: memref<8x16xf16>, %b: memref<16x16xf16>, %c: memref<8x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %a_td = xegpu.create_nd_tdesc %a : memref<8x16xf16> -> !xegpu.tensor_desc<8x16xf16>
      %b_td = xegpu.create_nd_tdesc %b : memref<16x16xf16> -> !xegpu.tensor_desc<16x16xf16>
      %c_td = xegpu.create_nd_tdesc %c : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %av = xegpu.load_nd %a_td[%c0, %c0] : !xegpu.tensor_desc<8x16xf16> -> vector<8xf16>
      %bv = xegpu.load_nd %b_td[%c0, %c0] <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<16xf16>
      %d = xegpu.dpas %av, %bv : vector<8xf16>, vector<16xf16> -> vector<8xf32>
      xegpu.store_nd %d, %c_td[%c0, %c0] : vector<8xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
  }
}
"""


def test_lane_level_fragments_are_simt_slots(monkeypatch) -> None:
    prog = xesim.load(LANE_GEMM)
    a = (np.arange(128) % 9).reshape(8, 16).astype(np.float16)
    b = (np.arange(256) % 4).reshape(16, 16).astype(np.float16)
    res = xesim.launch(prog, "kernels::dpas", (1, 1, 1), (16, 1, 1), [a, b, np.zeros((8, 16), np.float32)],
                       grf="checked")
    assert np.array_equal(res.arrays[2], a.astype(np.float32) @ b.astype(np.float32))
    # lane i, component k at element slot 16k + i (§1.6): f32 -> register k, byte 4i; f16 -> register k // 2
    own = res.ownership(_op(prog, "xegpu.dpas").results[0])
    i, k = np.indices((16, 8))
    assert own.layout == "simt"
    assert np.array_equal(own.lane, i) and np.array_equal(own.register - own.register.min(), k)
    assert np.array_equal(own.byte, 4 * i)
    own = res.ownership(_op(prog, "xegpu.load_nd", 1).results[0])
    i, k = np.indices((16, 16))
    assert np.array_equal(own.register - own.register.min(), k // 2)
    assert np.array_equal(own.byte, 2 * (16 * (k % 2) + i)) and np.array_equal(own.lane, i)
    st = next(iter(register_file(res.engine).stats.values()))
    # %c0 (1) + A fragments 8 x 16 x 2 B (4) + B fragments 16 x 16 x 2 B (8) = 13 live when B is loaded
    assert st.peak == 13 and st.peak_label.startswith("%bv")


# ------------------------------------------------------------------------------------------------ checked mode
BAD = np.frombuffer(bytes.fromhex("44332211"), np.float32)[0]  # differs from 36.0 (00 00 10 42) in every byte


def _corrupting_negf(op, cx):
    """arith.negf that also overwrites element [2, 3] of its operand in subgroup 1: an aliasing bug."""
    s_in, s_out = cx.slot(op.operands[0]), cx.slot(op.results[0])
    ks = cx.engine.kstate

    def step(fr: list) -> None:
        x = fr[s_in]
        fr[s_out] = -x
        if ks.subgroup_id == 1:
            x[2, 3] = BAD

    return step


NEG = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%src: memref<8x16xf32>, %dst: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %sg = gpu.subgroup_id : index
      %row = arith.muli %sg, %c8 : index
      %td = xegpu.create_nd_tdesc %src : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %x = xegpu.load_nd %td[%c0, %c0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %y = arith.negf %x : vector<8x16xf32>
      %z = arith.addf %x, %y : vector<8x16xf32>
      %out = xegpu.create_nd_tdesc %dst : memref<16x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      xegpu.store_nd %z, %out[%row, %c0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
  }
}
"""


def test_checked_mode_reports_op_subgroup_register_and_bytes(monkeypatch) -> None:
    import xesim.exec.ops  # noqa: F401 - every @impl registered before one is replaced

    monkeypatch.setitem(IMPLS, "arith.negf", _corrupting_negf)
    prog = xesim.load(NEG)
    src = np.arange(128, dtype=np.float32).reshape(8, 16) + 1
    args = [src, np.zeros((16, 16), np.float32)]
    with pytest.raises(DiagnosticError) as info:
        xesim.launch(prog, "kernels::k", (1, 1, 1), (32, 1, 1), args, grf="checked")
    msg = info.value.render()
    # scalars take register 0; %x (8 registers) starts at r1, so element [2, 3] is r3 bytes 12..15
    assert "'arith.addf' op reads register file mismatch for %x (xegpu.load_nd" in msg
    assert "subgroup 1" in msg
    assert "r3 bytes 12..15" in msg
    # the registers still hold the loaded 36.0; the SSA value the op reads was changed behind the model's back
    assert src[2, 3] == 36.0 and "hold 00 00 10 42, expected 44 33 22 11" in msg
    # without the check the same bug silently gives a wrong result (subgroups one by one: the injected bug keys on
    # the executing subgroup's id, which batched execution does not set per instance)

    monkeypatch.setenv("XESIM_BATCH", "1")
    res = xesim.launch(prog, "kernels::k", (1, 1, 1), (32, 1, 1), args, grf="off")
    assert res.arrays[1][8 + 2, 3] == BAD - src[2, 3]


# ------------------------------------------------------------------------------------------------ spills, large GRF
def test_spill_warns_and_large_grf_fits(monkeypatch, capsys) -> None:
    src = np.arange(160 * 16, dtype=np.float32).reshape(160, 16)
    want = src.reshape(5, 32, 16).sum(axis=0)
    prog = _program(SPILL)
    res = xesim.launch(prog, "kernels::five", (1, 1, 1), (16, 1, 1), [src, np.zeros((32, 16), np.float32)],
                       grf="checked")
    assert np.array_equal(res.arrays[1], want)  # still runs
    err = capsys.readouterr().err
    assert err.count("would spill on the hardware") == 2  # once per op
    assert ":14:7: warning: 'xegpu.load_nd' op would spill" in err  # %t3
    assert ":15:7: warning: 'xegpu.load_nd' op would spill" in err  # %t4
    assert "129 registers live with it" in err and "161 registers live with it" in err
    st = next(iter(register_file(res.engine).stats.values()))
    assert (st.peak, st.registers, st.spills) == (161, 128, 2)
    assert st.peak_label.startswith("%t4 (xegpu.load_nd")
    for large in (dict(large_grf=True), dict()):
        text = SPILL if large else SPILL.replace(
            "%TARGET%", '[#xevm.target<O = 3, chip = "pvc", flags = {"cmd-options" = "-ze-opt-large-register-file"}>]')
        res = xesim.launch(_program(text), "kernels::five", (1, 1, 1), (16, 1, 1),
                           [src, np.zeros((32, 16), np.float32)], grf="checked", **large)
        assert np.array_equal(res.arrays[1], want)
        assert "spill" not in capsys.readouterr().err
        st = next(iter(register_file(res.engine).stats.values()))
        assert (st.peak, st.registers, st.spills, st.large_grf) == (161, 256, 0, True)


def test_cli_stats_report(tmp_path) -> None:
    host = """
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %s = gpu.alloc () : memref<160x16xf32>
    %d = gpu.alloc () : memref<32x16xf32>
    gpu.launch_func @kernels::@five blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%s : memref<160x16xf32>, %d : memref<32x16xf32>)
    return
  }
}
"""
    f = tmp_path / "five.mlir"
    f.write_text(SPILL.replace("%TARGET%", "").rstrip().rstrip("}") + host)
    status, out, err = run_xesim(["run", "--stats", str(f)])
    assert status == 0, err
    assert "register file (GRF) use per kernel" in err
    assert "@kernels::@five: peak 161 of 128 registers (GRF, 64 B each) at %t4 (xegpu.load_nd at" in err
    assert "workgroup (0, 0, 0) subgroup 0; 1 instance(s)" in err
    assert "would spill: 2 allocation(s) in 1 instance(s) did not fit, at xegpu.load_nd at" in err
    assert "five.mlir:14:7; xegpu.load_nd at" in err
    status, out, err = run_xesim(["run", "--stats", "--large-grf", str(f)])
    assert status == 0
    assert "peak 161 of 256 registers (large GRF, 64 B each)" in err and "no spills" in err
    assert "warning" not in err
    status, out, err = run_xesim(["run", str(f)])
    assert "register file" not in err  # no report without --stats


def test_bad_mode_is_a_diagnostic(monkeypatch) -> None:
    monkeypatch.setenv("XESIM_GRF", "sometimes")
    with pytest.raises(DiagnosticError, match="XESIM_GRF must be off, track or checked"):
        xesim.load(NEG).run()


def test_large_grf_option_is_a_target_parameter() -> None:
    p = PVC.params["grf.large_grf_options"]
    assert p.assumed and "-ze-opt-large-register-file" in p.value and "§5" in p.evidence
    assert PVC.grf.count_large == 256


# ------------------------------------------------------------------------------------------------ block-load layout
LOADS = """
gpu.module @m {
  gpu.func @k(%a: memref<64x64xf16>, %f: memref<64x64xf32>, %q: memref<64x64xi8>) kernel {
    %c0 = arith.constant 0 : index
    %t1 = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>
    %v1 = xegpu.load_nd %t1[%c0, %c0] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
    %t2 = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<16x16xf16>
    %v2 = xegpu.load_nd %t2[%c0, %c0] <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
    %t3 = xegpu.create_nd_tdesc %f : memref<64x64xf32> -> !xegpu.tensor_desc<16x8xf32>
    %v3 = xegpu.load_nd %t3[%c0, %c0] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x8xf32> -> vector<8x16xf32>
    %t4 = xegpu.create_nd_tdesc %f : memref<64x64xf32> -> !xegpu.tensor_desc<16x32xf32>
    %v4 = xegpu.load_nd %t4[%c0, %c0] : !xegpu.tensor_desc<16x32xf32> -> vector<16x32xf32>
    %t5 = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16, #xegpu.block_tdesc_attr<array_length = 2>>
    %v5 = xegpu.load_nd %t5[%c0, %c0] : !xegpu.tensor_desc<8x16xf16, #xegpu.block_tdesc_attr<array_length = 2>> -> vector<2x8x16xf16>
    %t7 = xegpu.create_nd_tdesc %q : memref<64x64xi8> -> !xegpu.tensor_desc<32x16xi8>
    %v7 = xegpu.load_nd %t7[%c0, %c0] <{packed}> : !xegpu.tensor_desc<32x16xi8> -> vector<8x16x4xi8>
    gpu.return
  }
}
"""


def _value_from_memory(mem: np.ndarray, op) -> np.ndarray:
    """The load_nd value of the tile ``mem`` [R, a*C] by the XeGPU conventions (xesim/exec/ops/xegpu.py
    docstring), written independently of xesim/observe/registers.py."""
    td = op.operands[0].type
    rows, cols = td.shape
    a = td.array_length
    blocks = mem.reshape(rows, a, cols).transpose(1, 0, 2)
    if "packed" in op.attributes:
        v = 4 // mem.dtype.itemsize
        rp = -(-rows // v) * v
        blocks = np.concatenate([blocks, np.zeros((a, rp - rows, cols), mem.dtype)], axis=1)
        return blocks.reshape(a, rp // v, v, cols).transpose(0, 1, 3, 2)
    if "transpose" in op.attributes:
        return blocks.transpose(0, 2, 1)
    return blocks


@pytest.mark.parametrize("index", range(6))
def test_block_load_layout_matches_the_hardware_image(index: int) -> None:
    prog = xesim.load(LOADS)
    op = _op(prog, "xegpu.load_nd", index)
    td = op.operands[0].type
    lay = grf.load_nd_layout(op, PVC)
    assert lay is not None
    dt = lay.dtype
    rows, cols = td.shape
    a = td.array_length
    rng = np.random.default_rng(index)
    pitch = 128  # bytes; the tile's memory region is rows x (a*cols) elements
    space = AddressSpace("global")
    alloc = space.allocate(pitch * rows, "t", "tile")
    mem = rng.integers(1, 120, size=(rows, pitch // dt.itemsize)).astype(dt)
    space.write(alloc.base, mem.reshape(-1).view(np.uint8))
    surface = block2d.Surface(alloc.base, pitch, rows, pitch)
    kw = {"transpose": True} if "transpose" in op.attributes else ({"vnni": True} if "packed" in op.attributes else {})
    msgs = block2d.split_tile(PVC, dt.itemsize, rows, a * cols, "load", array_length=a, **kw)
    want = np.concatenate([block2d.load_image(space, surface, m.block, m.x_off, m.y_off, target=PVC) for m in msgs])
    value = _value_from_memory(mem[:, : a * cols], op)
    got = lay.image(value)
    assert lay.nbytes == want.size and np.array_equal(got, want)
    if index == 3:
        assert len(msgs) == 2  # a 16x32xf32 tile is two 16x16 messages (W <= 16 for d32): 32 registers


# ------------------------------------------------------------------------------------------------ allocator
def test_fast_register_file_places_like_the_model() -> None:
    """The execution-time register file (faster search and counting) gives the same placements, live / peak
    counts and spills as xesim.hw.regfile.RegisterFile on random allocate / free sequences (including
    sub-register alignments and overflow)."""
    from xesim.hw.regfile import RegisterFile

    rng = np.random.default_rng(7)
    for _ in range(60):
        ref, fast = RegisterFile(PVC), grf._FastRegisterFile(PVC)
        live: list[int] = []
        for i in range(250):
            if live and rng.random() < 0.45:
                k = live.pop(int(rng.integers(len(live))))
                ref.free(k)
                fast.free(k)
            else:
                n = int(rng.choice([4, 8, 32, 64, 100, 128, 256, 512, 1000, 2048]))
                align = [None, 4, 8, 64, 128][int(rng.integers(5))]
                assert ref.allocate(i, n, align, "v") == fast.allocate(i, n, align, "v")
                live.append(i)
            assert (ref.live_registers, ref.peak_registers) == (fast.live_registers, fast.peak_registers)
        assert ref.spills == fast.spills
