"""Every PVC integer DPAS type combination runs in a program (issue 4 "Done when"): A and B of any of
s8/u8/s4/u4/s2/u2 (MLIR i8/ui8/i4/ui4/i2/ui2), into s32/u32 (i32/ui32), K = 32 when either side is 8-bit and
64 when both are sub-byte (spec/pvc-hardware.md §3.1-§3.2).  Expected values: numpy int64 matmul wrapped to 32
bits (integer DPAS is exact and wraps, SPV-MMA)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import xesim

TYPES = {"i8": (8, True), "ui8": (8, False), "i4": (4, True), "ui4": (4, False), "i2": (2, True), "ui2": (2, False)}


def _values(t: str, shape: tuple[int, int], seed: int) -> np.ndarray:
    bits, signed = TYPES[t]
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return np.random.default_rng(seed).integers(lo, hi + 1, size=shape)


def _dense(v: np.ndarray) -> str:
    return "[" + ", ".join("[" + ", ".join(str(int(x)) for x in row) + "]" for row in v) + "]"


COMBOS = [(a, b, d) for a, b in itertools.product(TYPES, TYPES) for d in ("i32", "ui32")]


@pytest.mark.parametrize("a_t,b_t,d_t", COMBOS, ids=[f"{a}x{b}->{d}" for a, b, d in COMBOS])
def test_integer_dpas_combination(a_t: str, b_t: str, d_t: str) -> None:
    k = 32 if 8 in (TYPES[a_t][0], TYPES[b_t][0]) else 64
    a = _values(a_t, (8, k), 1)
    b = _values(b_t, (k, 16), 2)
    c = np.random.default_rng(3).integers(-1000, 1000, size=(8, 16))
    if d_t == "ui32":
        c = np.abs(c)
    prog = xesim.load(f"""
module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k(%out: memref<8x16x{d_t}>) kernel {{
      %a = arith.constant dense<{_dense(a)}> : vector<8x{k}x{a_t}>
      %b = arith.constant dense<{_dense(b)}> : vector<{k}x16x{b_t}>
      %c = arith.constant dense<{_dense(c)}> : vector<8x16x{d_t}>
      %d = xegpu.dpas %a, %b, %c : vector<8x{k}x{a_t}>, vector<{k}x16x{b_t}>, vector<8x16x{d_t}> -> vector<8x16x{d_t}>
      %t = xegpu.create_nd_tdesc %out : memref<8x16x{d_t}> -> !xegpu.tensor_desc<8x16x{d_t}>
      xegpu.store_nd %d, %t[0, 0] : vector<8x16x{d_t}>, !xegpu.tensor_desc<8x16x{d_t}>
      gpu.return
    }}
  }}
}}
""")
    out_dtype = np.int32 if d_t == "i32" else np.uint32
    res = xesim.launch(prog, "kernels::k", grid=(1, 1, 1), block=(16, 1, 1), args=[np.zeros((8, 16), out_dtype)])
    expected = (a.astype(np.int64) @ b.astype(np.int64) + c) & 0xFFFFFFFF
    got = res.arrays[0].astype(np.int64) & 0xFFFFFFFF
    np.testing.assert_array_equal(got, expected)
