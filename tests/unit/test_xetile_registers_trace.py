"""Subgroup-level XeTile programs in the register-file model and the tracer (issue 31; xesim/observe/registers.py,
xesim/observe/tracer.py; the layout choice ``xetile.grf.value_layout``, shared/spec/xetile.md §3.6, §4.6).

An SG GEMM kernel (4 VC threads, each C[16·gx .. +16, 32·gy .. +32] over K = 64 in two steps of 32) runs with the
checked register file (GRF bytes compared with every value read) and a trace; the expected values are worked out
here with numpy from the inputs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xesim
from tests.conftest import run_xesim
from xesim.trace import analysis as TA  # noqa: N812

KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @gemm(%A: memref<32x64xf16>, %B: memref<64x64xf16>, %C: memref<32x64xf32>) kernel attributes {VectorComputeFunctionINTEL} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %gx = gpu.global_id x
      %gy = gpu.global_id y
      %m = arith.muli %gx, %c16 : index
      %n = arith.muli %gy, %c32 : index
      %tc = xetile.init_tile %C[%m, %n] : memref<32x64xf32> -> !xetile.tile<16x32xf32>
      %acc0 = xetile.load_tile %tc : !xetile.tile<16x32xf32> -> vector<16x32xf32>
      %ta = xetile.init_tile %A[%m, %c0] : memref<32x64xf16> -> !xetile.tile<16x32xf16>
      %tb = xetile.init_tile %B[%c0, %n] : memref<64x64xf16> -> !xetile.tile<32x32xf16>
      %r:3 = scf.for %kk = %c0 to %c64 step %c32 iter_args(%at = %ta, %bt = %tb, %acc = %acc0)
          -> (!xetile.tile<16x32xf16>, !xetile.tile<32x32xf16>, vector<16x32xf32>) {
        %a = xetile.load_tile %at : !xetile.tile<16x32xf16> -> vector<16x32xf16>
        %b = xetile.load_tile %bt : !xetile.tile<32x32xf16> -> vector<32x32xf16>
        %d = xetile.tile_mma %a, %b, %acc : vector<16x32xf16>, vector<32x32xf16>, vector<16x32xf32> -> vector<16x32xf32>
        %an = xetile.update_tile_offset %at, [%c0, %c32] : !xetile.tile<16x32xf16>
        %bn = xetile.update_tile_offset %bt, [%c32, %c0] : !xetile.tile<32x32xf16>
        scf.yield %an, %bn, %d : !xetile.tile<16x32xf16>, !xetile.tile<32x32xf16>, vector<16x32xf32>
      }
      xetile.store_tile %r#2, %tc : vector<16x32xf32>, !xetile.tile<16x32xf32>
      gpu.return
    }
  }
}
"""

A_IN = (np.fromfunction(lambda i, k: (i + 2 * k) % 7, (32, 64)) - 3).astype(np.float16)
B_IN = (np.fromfunction(lambda k, j: (3 * k + j) % 5, (64, 64)) - 2).astype(np.float16)
C_IN = np.fromfunction(lambda i, j: i - j, (32, 64)).astype(np.float32)


def _launch(tmp_path: Path, **kw):
    prog = xesim.load(KERNEL)
    return xesim.launch(prog, "k::gemm", grid=(1, 1, 1), block=(2, 2, 1), args=[A_IN, B_IN, C_IN.copy()],
                        grf="checked", trace=tmp_path / "t.xetrace", **kw), prog


def _mma_result(prog):
    return next(op for op in prog.walk() if op.name == "xetile.tile_mma").results[0]


def test_checked_register_file_and_dpas_layout_of_tile_mma(tmp_path: Path) -> None:
    res, prog = _launch(tmp_path)
    want = A_IN.astype(np.float32) @ B_IN.astype(np.float32) + C_IN  # small integers: exact
    assert np.array_equal(res.arrays[2], want)
    own = res.ownership(_mma_result(prog), subgroup=3)
    assert own.layout == "dpas" and not own.spilled
    i, j = np.meshgrid(np.arange(16), np.arange(32), indexing="ij")
    base = int(own.register.min())
    # DPAS C/D layout (spec/pvc-hardware.md §3.3): column block j // 16 holds rows 0..15, one row per 64-byte register
    assert np.array_equal(own.register - base, (j // 16) * 16 + i)
    assert np.array_equal(own.lane, j % 16) and np.array_equal(own.byte, (j % 16) * 4)
    a = next(op for op in prog.walk() if op.name == "xetile.load_tile" and op.results[0].type.shape == (16, 32)
             and str(op.results[0].type.element_type) == "f16").results[0]
    own_a = res.ownership(a, subgroup=0)
    assert own_a.layout == "plain"  # a loaded tile: row-major from a register boundary
    assert np.array_equal(own_a.register - own_a.register.min(), (i * 32 + j) * 2 // 64)


def test_trace_records_the_xetile_ops_and_values(tmp_path: Path) -> None:
    res, _ = _launch(tmp_path)
    tr = res.trace
    insts = TA.instances(tr)
    assert len(insts) == 4
    body = ["xetile.load_tile", "xetile.load_tile", "xetile.tile_mma", "xetile.update_tile_offset",
            "xetile.update_tile_offset", "scf.yield"]
    for inst in insts:
        sg = inst[4]  # (launch, workgroup x, y, z, subgroup)
        gx, gy = sg % 2, sg // 2  # VC threads, x fastest
        evs = TA.instance_events(tr, inst)
        names = [TA.op_name(tr, e) for e in evs]
        loop = names.index("scf.for") + 1
        assert names[loop:loop + 12] == body * 2 and names[-2:] == ["xetile.store_tile", "gpu.return"]
        mma = [e for e in evs if TA.op_name(tr, e) == "xetile.tile_mma"]
        acc = C_IN[16 * gx:16 * gx + 16, 32 * gy:32 * gy + 32].copy()
        for it, e in enumerate(mma):
            ops = dict(TA.event_values(tr, e, 1))
            a = A_IN[16 * gx:16 * gx + 16, 32 * it:32 * it + 32]
            b = B_IN[32 * it:32 * it + 32, 32 * gy:32 * gy + 32]
            assert np.array_equal(ops[0], a) and np.array_equal(ops[1], b) and np.array_equal(ops[2], acc)
            acc = acc + a.astype(np.float32) @ b.astype(np.float32)
            (d,) = [v for i, v in TA.event_values(tr, e, 0) if i == 0]
            assert np.array_equal(d, acc)
        store = [e for e in evs if TA.op_name(tr, e) == "xetile.store_tile"][0]
        rows = np.flatnonzero(tr.memory["event"] == store)
        assert sorted(tr.memory["start"][rows].tolist()) == [((16 * gx + r) * 64 + 32 * gy) * 4 for r in range(16)]


@pytest.mark.parametrize("layout", ["dpas", "row_major"])
def test_value_layout_parameter(layout: str) -> None:
    from xesim.api import make_engine, register_file
    from xesim.exec.values import MemRefValue, dtype_of, identity_strides

    prog = xesim.load(KERNEL)
    engine = make_engine(prog.module, grf="checked", overrides=(("xetile.grf.value_layout", layout),))
    func = prog.module.lookup_symbol(("k", "gemm"))
    mems = []
    for x, t in zip((A_IN, B_IN, C_IN.copy()), func.attributes["function_type"].type.inputs, strict=True):
        al = engine.memory.allocate(x.nbytes, "device", "arg")
        mv = MemRefValue(engine.memory, al, al.base, 0, x.shape, identity_strides(x.shape), t.element_type)
        mv.write_logical(np.asarray(x, dtype_of(t.element_type)))
        mems.append(mv)
    engine.launch(func, "gemm", (1, 1, 1), (2, 2, 1), mems, func)
    own = register_file(engine).ownership(_mma_result(prog), 0)
    i, j = np.meshgrid(np.arange(16), np.arange(32), indexing="ij")
    reg = own.register - own.register.min()
    if layout == "dpas":
        assert own.layout == "dpas" and np.array_equal(reg, (j // 16) * 16 + i)
    else:
        assert own.layout == "plain" and np.array_equal(reg, (i * 32 + j) * 4 // 64)
    assert "xetile.grf.value_layout" in engine.target.used  # so --explain-assumptions lists it


def test_stats_report_an_xetile_kernel() -> None:
    root = Path(__file__).resolve().parents[2]
    status, _, err = run_xesim(["run", "--stats", str(root / "tests/e2e/xetile_reduction_size.mlir")])
    assert status == 0
    report = err.split("register file (GRF) use per kernel")[1]
    # at the first reduction (line 18) %x (32x32 f32: 64 registers) is live for the second one, its result %r1
    # (32x4 f32: 8 registers) is defined, and the index constants share one register: 73
    assert "@kernels::@kernel: peak 73 of 128 registers" in report
    assert "at %r1 (xetile.reduction at " in report and "xetile_reduction_size.mlir:18:7" in report
