"""The Python API: load, Program.run, launch with numpy arrays."""

from __future__ import annotations

import numpy as np
import pytest

import xesim
from xesim.diagnostics import DiagnosticError

HOST = """
func.func @main() -> (i32, f32) {
  %a = arith.constant 40 : i32
  %b = arith.constant 2 : i32
  %s = arith.addi %a, %b : i32
  %f = arith.constant 1.5 : f32
  %g = arith.mulf %f, %f : f32
  vector.print %s : i32
  return %s, %g : i32, f32
}
"""

KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @axpy(%x: memref<32xf32>, %y: memref<32xf32>, %a: f32) kernel {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %xv = memref.load %x[%i] : memref<32xf32>
      %yv = memref.load %y[%i] : memref<32xf32>
      %p = arith.mulf %a, %xv : f32
      %r = arith.addf %p, %yv : f32
      memref.store %r, %y[%i] : memref<32xf32>
      gpu.return
    }
  }
}
"""


def test_load_text_and_run_returns_output_and_values() -> None:
    prog = xesim.load(HOST)
    res = prog.run()
    assert res.output == "42\n"
    assert res.values[0] == 42
    assert res.values[1] == np.float32(2.25)


def test_load_path(tmp_path) -> None:
    f = tmp_path / "p.mlir"
    f.write_text(HOST)
    assert xesim.load(str(f)).run().output == "42\n"


def test_launch_copies_arrays_in_and_out() -> None:
    x = np.arange(32, dtype=np.float32)
    y = np.full(32, 0.5, dtype=np.float32)
    out = xesim.launch(xesim.load(KERNEL), "kernels::axpy", grid=(2, 1, 1), block=(16, 1, 1), args=[x, y, 3.0])
    np.testing.assert_array_equal(out.arrays[1], np.float32(3.0) * x + np.float32(0.5))
    np.testing.assert_array_equal(out.arrays[0], x)


def test_launch_errors_are_diagnostics() -> None:
    prog = xesim.load(KERNEL)
    with pytest.raises(DiagnosticError, match="takes 3 arguments"):
        xesim.launch(prog, "kernels::axpy", args=[np.zeros(32, np.float32)])
    with pytest.raises(DiagnosticError, match="needs a float32 array"):
        xesim.launch(prog, "kernels::axpy", args=[np.zeros(32, np.int32), np.zeros(32, np.float32), 1.0])
    with pytest.raises(DiagnosticError, match="out of bounds"):
        xesim.launch(prog, "kernels::axpy", grid=(3, 1, 1), args=[np.zeros(32, np.float32), np.zeros(32, np.float32), 1.0])
