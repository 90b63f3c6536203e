"""Generate the MX whole programs of tests/e2e/mx_*.mlir with CHECK lines derived independently of xesim.

Every expected value is computed here with numpy, ml_dtypes and exact rationals (``fractions.Fraction``) from the
formulas of shared/spec/upstream-xegpu-xevm.md (§5.1 formats, §5.2 A conversions, §2.9 / §5.3 block-scaled DPAS,
§2.20 lane fragments); nothing imports xesim.  Inputs are random but seeded, so the files are reproducible:

    python tools/gen_mx_programs.py            # rewrite the programs
    python tools/gen_mx_programs.py --check    # exit 1 if a program differs from what would be generated

Each GEMM program keeps its inputs and the expected D as ``memref.global`` constants: the host copies the inputs to
the device, launches the kernel, and counts the elements of D that differ (bit for bit, ``arith.cmpf une``) from
the expected matrix; CHECK lines ask for 0 and for D's first row.  The data are small dyadic numbers whose exact
results need few bits, so every DPAS model rounds the same way (the reference D is exact in float64 and in f32).
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "e2e"

DTYPES = {"f8E5M2": ml_dtypes.float8_e5m2, "f8E4M3FN": ml_dtypes.float8_e4m3fn, "f4E2M1FN": ml_dtypes.float4_e2m1fn}
BITS = {"f8E5M2": 8, "f8E4M3FN": 8, "f4E2M1FN": 4}


def g(x: float) -> str:
    """printf("%g") (CRunnerUtils printF32, spec/programs-and-runner.md §1.2)."""
    return f"{x:g}"


def f32_literal(x: np.float32) -> str:
    """A decimal that parses back to exactly this f32."""
    return repr(float(x))


def dense(a: np.ndarray, fmt=str) -> str:
    if a.ndim == 1:
        return "[" + ", ".join(fmt(x) for x in a) + "]"
    return "[" + ", ".join(dense(r, fmt) for r in a) + "]"


def codes_of(values: np.ndarray, name: str) -> np.ndarray:
    """The bit codes of values exactly representable in format ``name`` (ml_dtypes' encoding, §5.1)."""
    v = np.asarray(values, np.float32).astype(DTYPES[name])
    assert np.array_equal(v.astype(np.float32), np.asarray(values, np.float32)), "value not representable"
    c = v.view(np.uint8)
    return c & 0xF if BITS[name] == 4 else c


def pack_rows(codes: np.ndarray, name: str) -> np.ndarray:
    """Bytes of a row-major matrix of codes: 8-bit codes as they are; 4-bit codes two per byte, element 2j in the low
    nibble of byte j (§5.1, the packing vector.bitcast i8 -> f4E2M1FN reads)."""
    if BITS[name] == 8:
        return codes.astype(np.uint8).view(np.int8)
    lo, hi = codes[..., 0::2], codes[..., 1::2]
    return (lo | (hi << 4)).astype(np.uint8).view(np.int8)


def reference_gemm(a: np.ndarray, b: np.ndarray, c: np.ndarray, sa: np.ndarray, sb: np.ndarray) -> np.ndarray:
    """§5.3: D = C + Σ_s 2^(sa-127)·2^(sb-127)·Σ_{k in block s} A·B, blocks of 32 along K, exact, then f32."""
    m, k = a.shape
    n = b.shape[1]
    out = np.empty((m, n), np.float32)
    for i in range(m):
        for j in range(n):
            total = Fraction(float(c[i, j]))
            for s in range(k // 32):
                part = sum(Fraction(float(a[i, x])) * Fraction(float(b[x, j])) for x in range(32 * s, 32 * s + 32))
                total += part * Fraction(2) ** (int(sa[i, s]) + int(sb[s, j]) - 254)
            assert Fraction(float(total)) == total and float(np.float32(float(total))) == float(total)
            out[i, j] = np.float32(float(total))
    return out


def sample(rng: np.random.Generator, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """Values of format ``name``: multiples of 1/2 in [-3, 3] (exact in E5M2, E4M3FN and E2M1)."""
    grid = np.array([-3, -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3], np.float32)
    return rng.choice(grid, size=shape)


# ================================================================================================ GEMM programs
def gemm_program(title: str, fa: str, fb: str, prepacked: bool, lane: bool, seed: int) -> str:
    rng = np.random.default_rng(seed)
    kstep = 64 if fa == "f4E2M1FN" else 32  # K of one scaled DPAS (§2.9 hardware shapes)
    ksc = kstep // 32  # scales per row/column per instruction
    m, k = 16, 2 * kstep
    n = 128 if BITS[fb] == 4 else 64  # B rows of >= 64 bytes (2D block surface width, pvc-hardware §1.2)
    a = sample(rng, fa, (m, k))
    b = sample(rng, fb, (k, n))
    c = (rng.integers(-8, 9, (m, n)) * 0.25).astype(np.float32)
    sa = rng.integers(125, 130, (m, k // 32)).astype(np.uint8)
    sb = rng.integers(125, 130, (k // 32, n)).astype(np.uint8)
    d = reference_gemm(a, b, c, sa, sb)
    a_bytes, b_bytes = pack_rows(codes_of(a, fa), fa), pack_rows(codes_of(b, fb), fb)
    awb, bwb = a_bytes.shape[1], b_bytes.shape[1]  # row widths in bytes
    a_tile_b = kstep * BITS[fa] // 8  # bytes of one A row per instruction
    b_tile_b = 16 * BITS[fb] // 8  # bytes of one B row per instruction
    ta, tb = f"vector<8x{kstep}x{fa}>", f"vector<{kstep}x16x{fb}>"
    globals_ = "\n".join([
        f'  memref.global "private" constant @A : memref<{m}x{awb}xi8> = dense<{dense(a_bytes)}>',
        f'  memref.global "private" constant @B : memref<{k}x{bwb}xi8> = dense<{dense(b_bytes)}>',
        f'  memref.global "private" constant @C : memref<{m}x{n}xf32> = dense<{dense(c, f32_literal)}>',
        f'  memref.global "private" constant @SA : memref<{m}x{k // 32}xi8> = dense<{dense(sa.view(np.int8))}>',
        f'  memref.global "private" constant @SB : memref<{k // 32}x{n}xi8> = dense<{dense(sb.view(np.int8))}>',
        f'  memref.global "private" constant @E : memref<{m}x{n}xf32> = dense<{dense(d, f32_literal)}>',
    ])
    if lane:
        kernel = lane_kernel(fa, fb, kstep, ksc, m, n, k, awb, bwb)
    else:
        kernel = sg_kernel(fa, fb, prepacked, kstep, ksc, m, n, k, awb, bwb, a_tile_b, b_tile_b, ta, tb)
    row0 = "( " + ", ".join(g(x) for x in d[0, :16]) + " )"
    threads = 16
    return f"""// GENERATED by tools/gen_mx_programs.py (seed {seed}); do not edit.  {title}
// D = C + sum over 32-element K blocks of 2^(sa-127)·2^(sb-127)·(A·B over the block) (upstream-xegpu-xevm.md
// §2.9, §5.3), {m}x{n}x{k}; the expected D (@E) and the CHECK lines come from exact rationals in the generator.
// The module targets cri (Xe3p), the chip with the scaled DPAS (upstream-xegpu-xevm.md §4.12).
// RUN: xesim check %s

module attributes {{gpu.container_module}} {{
{globals_}
  gpu.module @kernels [#xevm.target<chip = "cri">] {{
{kernel}
  }}

  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cm = arith.constant {m} : index
    %cn = arith.constant {n} : index
    %gx = arith.constant {m // 8} : index
    %gy = arith.constant {n // 16} : index
    %threads = arith.constant {threads} : index
    %A = memref.get_global @A : memref<{m}x{awb}xi8>
    %B = memref.get_global @B : memref<{k}x{bwb}xi8>
    %C = memref.get_global @C : memref<{m}x{n}xf32>
    %SA = memref.get_global @SA : memref<{m}x{k // 32}xi8>
    %SB = memref.get_global @SB : memref<{k // 32}x{n}xi8>
    %E = memref.get_global @E : memref<{m}x{n}xf32>
    %dA = gpu.alloc () : memref<{m}x{awb}xi8>
    %dB = gpu.alloc () : memref<{k}x{bwb}xi8>
    %dC = gpu.alloc () : memref<{m}x{n}xf32>
    %dSA = gpu.alloc () : memref<{m}x{k // 32}xi8>
    %dSB = gpu.alloc () : memref<{k // 32}x{n}xi8>
    %dD = gpu.alloc () : memref<{m}x{n}xf32>
    gpu.memcpy %dA, %A : memref<{m}x{awb}xi8>, memref<{m}x{awb}xi8>
    gpu.memcpy %dB, %B : memref<{k}x{bwb}xi8>, memref<{k}x{bwb}xi8>
    gpu.memcpy %dC, %C : memref<{m}x{n}xf32>, memref<{m}x{n}xf32>
    gpu.memcpy %dSA, %SA : memref<{m}x{k // 32}xi8>, memref<{m}x{k // 32}xi8>
    gpu.memcpy %dSB, %SB : memref<{k // 32}x{n}xi8>, memref<{k // 32}x{n}xi8>
    gpu.launch_func @kernels::@gemm blocks in (%gx, %gy, %c1) threads in (%threads, %c1, %c1) args(%dA : memref<{m}x{awb}xi8>, %dB : memref<{k}x{bwb}xi8>, %dC : memref<{m}x{n}xf32>, %dSA : memref<{m}x{k // 32}xi8>, %dSB : memref<{k // 32}x{n}xi8>, %dD : memref<{m}x{n}xf32>)
    gpu.wait
    %D = memref.alloc() : memref<{m}x{n}xf32>
    gpu.memcpy %D, %dD : memref<{m}x{n}xf32>, memref<{m}x{n}xf32>
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %bad = scf.for %i = %c0 to %cm step %c1 iter_args(%acc = %zero) -> (i32) {{
      %row = scf.for %j = %c0 to %cn step %c1 iter_args(%r = %acc) -> (i32) {{
        %x = memref.load %D[%i, %j] : memref<{m}x{n}xf32>
        %y = memref.load %E[%i, %j] : memref<{m}x{n}xf32>
        %ne = arith.cmpf une, %x, %y : f32
        %inc = arith.select %ne, %one, %zero : i32
        %r2 = arith.addi %r, %inc : i32
        scf.yield %r2 : i32
      }}
      scf.yield %row : i32
    }}
    vector.print str "mismatches: "
    vector.print %bad : i32
    %first = vector.load %D[%c0, %c0] : memref<{m}x{n}xf32>, vector<16xf32>
    vector.print %first : vector<16xf32>
    return
  }}
}}

// CHECK: mismatches: 0
// CHECK-NEXT: {row0}
"""


def sg_kernel(fa, fb, prepacked, kstep, ksc, m, n, k, awb, bwb, a_tile_b, b_tile_b, ta, tb) -> str:
    """Subgroup level: each workgroup (one subgroup) computes one 8x16 tile of D over K in steps of ``kstep``."""
    lines = [
        f"    gpu.func @gemm(%a: memref<{m}x{awb}xi8>, %b: memref<{k}x{bwb}xi8>, %c: memref<{m}x{n}xf32>, "
        f"%sa: memref<{m}x{k // 32}xi8>, %sb: memref<{k // 32}x{n}xi8>, %d: memref<{m}x{n}xf32>) kernel {{",
        "      %c0 = arith.constant 0 : index",
        "      %c8 = arith.constant 8 : index",
        "      %c16 = arith.constant 16 : index",
        f"      %ck = arith.constant {k} : index",
        f"      %cstep = arith.constant {kstep} : index",
        "      %c32 = arith.constant 32 : index",
        "      %pad = arith.constant 0 : i8",
        "      %bx = gpu.block_id x",
        "      %by = gpu.block_id y",
        "      %mi = arith.muli %bx, %c8 : index",
        "      %ni = arith.muli %by, %c16 : index",
        f"      %a_td = xegpu.create_nd_tdesc %a : memref<{m}x{awb}xi8> -> !xegpu.tensor_desc<8x{a_tile_b}xi8>",
        f"      %c_td = xegpu.create_nd_tdesc %c : memref<{m}x{n}xf32> -> !xegpu.tensor_desc<8x16xf32>",
        f"      %d_td = xegpu.create_nd_tdesc %d : memref<{m}x{n}xf32> -> !xegpu.tensor_desc<8x16xf32>",
    ]
    if BITS[fb] == 4:
        lines.append(f"      %b_td = xegpu.create_nd_tdesc %b : memref<{k}x{bwb}xi8> -> !xegpu.tensor_desc<32x{b_tile_b}xi8>")
    else:
        lines.append(f"      %b_td = xegpu.create_nd_tdesc %b : memref<{k}x{bwb}xi8> -> !xegpu.tensor_desc<{kstep}x{b_tile_b}xi8>")
    lines += [
        "      %c_in = xegpu.load_nd %c_td[%mi, %ni] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>",
        "      %acc = scf.for %kk = %c0 to %ck step %cstep iter_args(%sum = %c_in) -> (vector<8x16xf32>) {",
    ]
    ka = "%kk" if BITS[fa] == 8 else "%ka"
    if BITS[fa] == 4:
        lines += ["        %c2 = arith.constant 2 : index", "        %ka = arith.divui %kk, %c2 : index"]
    lines += [
        f"        %a8 = xegpu.load_nd %a_td[%mi, {ka}] : !xegpu.tensor_desc<8x{a_tile_b}xi8> -> vector<8x{a_tile_b}xi8>",
        f"        %av = vector.bitcast %a8 : vector<8x{a_tile_b}xi8> to {ta}",
    ]
    if BITS[fb] == 4:
        lines += [
            "        %nb = arith.divui %ni, %c2 : index",
            "        %k1 = arith.addi %kk, %c32 : index",
            f"        %b0 = xegpu.load_nd %b_td[%kk, %nb] : !xegpu.tensor_desc<32x{b_tile_b}xi8> -> vector<32x{b_tile_b}xi8>",
            f"        %b1 = xegpu.load_nd %b_td[%k1, %nb] : !xegpu.tensor_desc<32x{b_tile_b}xi8> -> vector<32x{b_tile_b}xi8>",
            f"        %b8 = vector.shuffle %b0, %b1 [{', '.join(str(i) for i in range(64))}] : vector<32x{b_tile_b}xi8>, vector<32x{b_tile_b}xi8>",
            f"        %bv = vector.bitcast %b8 : vector<64x{b_tile_b}xi8> to {tb}",
        ]
        btype = tb
    elif prepacked:
        lines += [
            f"        %b8 = xegpu.load_nd %b_td[%kk, %ni] <{{packed}}> : !xegpu.tensor_desc<{kstep}x16xi8> -> vector<{kstep // 4}x16x4xi8>",
            f"        %bv = vector.bitcast %b8 : vector<{kstep // 4}x16x4xi8> to vector<{kstep // 4}x16x4x{fb}>",
        ]
        btype = f"vector<{kstep // 4}x16x4x{fb}>"
    else:
        lines += [
            f"        %b8 = xegpu.load_nd %b_td[%kk, %ni] : !xegpu.tensor_desc<{kstep}x16xi8> -> vector<{kstep}x16xi8>",
            f"        %bv = vector.bitcast %b8 : vector<{kstep}x16xi8> to {tb}",
        ]
        btype = tb
    lines += [
        "        %ks = arith.divui %kk, %c32 : index",
        f"        %sa8 = vector.transfer_read %sa[%mi, %ks], %pad {{in_bounds = [true, true]}} : memref<{m}x{k // 32}xi8>, vector<8x{ksc}xi8>",
        f"        %sb8 = vector.transfer_read %sb[%ks, %ni], %pad {{in_bounds = [true, true]}} : memref<{k // 32}x{n}xi8>, vector<{ksc}x16xi8>",
        f"        %sav = vector.bitcast %sa8 : vector<8x{ksc}xi8> to vector<8x{ksc}xf8E8M0FNU>",
        f"        %sbv = vector.bitcast %sb8 : vector<{ksc}x16xi8> to vector<{ksc}x16xf8E8M0FNU>",
        f"        %r = xegpu.dpas_mx %av, %bv, %sum scale_a = %sav scale_b = %sbv : ({ta}, {btype}, vector<8x16xf32>, "
        f"vector<8x{ksc}xf8E8M0FNU>, vector<{ksc}x16xf8E8M0FNU>) -> vector<8x16xf32>",
        "        scf.yield %r : vector<8x16xf32>",
        "      }",
        "      xegpu.store_nd %acc, %d_td[%mi, %ni] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>",
        "      gpu.return",
        "    }",
    ]
    return "\n".join(lines)


def lane_kernel(fa, fb, kstep, ksc, m, n, k, awb, bwb) -> str:
    """Lane level (§2.20 dpas_mx fragments): lane i loads A[r][2i], A[r][2i+1] of the 8 rows (memref.load per
    element), column i of B in k order, column i of C, and the scales of row i (lanes 8-15 load row i-8: ignored)
    and of column i, as one-element vectors."""
    assert BITS[fa] == 8 and BITS[fb] == 8
    q = kstep // 16
    lines = [
        f"    gpu.func @gemm(%a: memref<{m}x{awb}xi8>, %b: memref<{k}x{bwb}xi8>, %c: memref<{m}x{n}xf32>, "
        f"%sa: memref<{m}x{k // 32}xi8>, %sb: memref<{k // 32}x{n}xi8>, %d: memref<{m}x{n}xf32>) kernel {{",
        "      %c0 = arith.constant 0 : index",
        "      %c1 = arith.constant 1 : index",
        "      %c8 = arith.constant 8 : index",
        "      %c16 = arith.constant 16 : index",
        f"      %cq = arith.constant {q} : index",
        f"      %ck = arith.constant {k} : index",
        f"      %cstep = arith.constant {kstep} : index",
        "      %c32 = arith.constant 32 : index",
        "      %bx = gpu.block_id x",
        "      %by = gpu.block_id y",
        "      %lane = gpu.lane_id",
        "      %mi = arith.muli %bx, %c8 : index",
        "      %ni = arith.muli %by, %c16 : index",
        "      %col = arith.addi %ni, %lane : index",
        "      %r8 = arith.remui %lane, %c8 : index",
        "      %srow = arith.addi %mi, %r8 : index",
        "      %cz = arith.constant dense<0.0> : vector<8xf32>",
        "      %c_in = scf.for %r = %c0 to %c8 step %c1 iter_args(%v = %cz) -> (vector<8xf32>) {",
        "        %row = arith.addi %mi, %r : index",
        f"        %x = memref.load %c[%row, %col] : memref<{m}x{n}xf32>",
        "        %v2 = vector.insert %x, %v [%r] : f32 into vector<8xf32>",
        "        scf.yield %v2 : vector<8xf32>",
        "      }",
        "      %acc = scf.for %kk = %c0 to %ck step %cstep iter_args(%sum = %c_in) -> (vector<8xf32>) {",
        f"        %az = arith.constant dense<0> : vector<{8 * q}xi8>",
        "        %lq = arith.muli %lane, %cq : index",
        "        %kl = arith.addi %kk, %lq : index",
        f"        %af = scf.for %e = %c0 to %c{8 * q} step %c1 iter_args(%v = %az) -> (vector<{8 * q}xi8>) {{",
        "          %r = arith.divui %e, %cq : index",
        "          %p = arith.remui %e, %cq : index",
        "          %row = arith.addi %mi, %r : index",
        "          %kc = arith.addi %kl, %p : index",
        f"          %x = memref.load %a[%row, %kc] : memref<{m}x{awb}xi8>",
        f"          %v2 = vector.insert %x, %v [%e] : i8 into vector<{8 * q}xi8>",
        f"          scf.yield %v2 : vector<{8 * q}xi8>",
        "        }",
        f"        %bz = arith.constant dense<0> : vector<{kstep}xi8>",
        f"        %bf = scf.for %e = %c0 to %cstep step %c1 iter_args(%v = %bz) -> (vector<{kstep}xi8>) {{",
        "          %kr = arith.addi %kk, %e : index",
        f"          %x = memref.load %b[%kr, %col] : memref<{k}x{bwb}xi8>",
        f"          %v2 = vector.insert %x, %v [%e] : i8 into vector<{kstep}xi8>",
        f"          scf.yield %v2 : vector<{kstep}xi8>",
        "        }",
        f"        %av = vector.bitcast %af : vector<{8 * q}xi8> to vector<{8 * q}x{fa}>",
        f"        %bv = vector.bitcast %bf : vector<{kstep}xi8> to vector<{kstep}x{fb}>",
        "        %ks = arith.divui %kk, %c32 : index",
        f"        %sa8 = memref.load %sa[%srow, %ks] : memref<{m}x{k // 32}xi8>",
        f"        %sb8 = memref.load %sb[%ks, %col] : memref<{k // 32}x{n}xi8>",
        "        %sav8 = vector.broadcast %sa8 : i8 to vector<1xi8>",
        "        %sbv8 = vector.broadcast %sb8 : i8 to vector<1xi8>",
        "        %sav = vector.bitcast %sav8 : vector<1xi8> to vector<1xf8E8M0FNU>",
        "        %sbv = vector.bitcast %sbv8 : vector<1xi8> to vector<1xf8E8M0FNU>",
        f"        %r = xegpu.dpas_mx %av, %bv, %sum scale_a = %sav scale_b = %sbv : (vector<{8 * q}x{fa}>, "
        f"vector<{kstep}x{fb}>, vector<8xf32>, vector<1xf8E8M0FNU>, vector<1xf8E8M0FNU>) -> vector<8xf32>",
        "        scf.yield %r : vector<8xf32>",
        "      }",
        "      scf.for %r = %c0 to %c8 step %c1 {",
        "        %row = arith.addi %mi, %r : index",
        "        %x = vector.extract %acc[%r] : f32 from vector<8xf32>",
        f"        memref.store %x, %d[%row, %col] : memref<{m}x{n}xf32>",
        "      }",
        "      gpu.return",
        "    }",
    ]
    return "\n".join(lines)


# ================================================================================================ conversions
def table(name: str) -> tuple[np.ndarray, np.ndarray]:
    """(codes, values) of every finite code of format ``name`` (decoded by ml_dtypes, §5.1)."""
    n = 16 if BITS[name] == 4 else 256
    codes = np.arange(n, dtype=np.uint8)
    vals = codes.view(DTYPES[name]).astype(np.float64)
    fin = np.isfinite(vals)
    return codes[fin], vals[fin]


def round_code(x: float, name: str) -> int:
    """§5.2 A (APFloat): the nearest value, ties to the code with an even last mantissa bit; overflow past the
    largest finite value's rounding boundary: E5M2 -> Inf, E4M3FN -> NaN (0x7F/0xFF), E2M1 -> saturate to ±6."""
    codes, vals = table(name)
    sign = 0x80 if BITS[name] == 8 else 0x8
    if np.isnan(x):
        return {"f8E5M2": 0x7E, "f8E4M3FN": 0x7F, "f4E2M1FN": 0}[name]
    neg = np.signbit(x)
    mag = abs(x)
    pos = [(int(c), v) for c, v in zip(codes, vals) if v >= 0 and not (v == 0 and (int(c) & sign))]
    top = max(v for _, v in pos)
    below = max(v for _, v in pos if v < top)
    if mag >= top + (top - below) / 2 or np.isinf(mag):  # beyond the midpoint above the largest finite value
        if name == "f8E5M2":
            return 0x7C | (0x80 if neg else 0)
        if name == "f8E4M3FN":
            return 0x7F | (0x80 if neg else 0)
    best = min(pos, key=lambda cv: (abs(cv[1] - mag), cv[0] & 1))  # nearest, then even code
    return best[0] | (sign if neg else 0)


def e8m0_code(x: float) -> int:
    """§5.2 A for f8E8M0FNU: nearest power of two, a tie 1.5·2^k up, zero -> 0x00, clamped to codes 0..254."""
    if x == 0:
        return 0
    k = int(np.floor(np.log2(abs(x))))
    while 2.0 ** (k + 1) <= abs(x):
        k += 1
    while 2.0 ** k > abs(x):
        k -= 1
    if abs(x) >= 1.5 * 2.0 ** k:
        k += 1
    return min(max(k + 127, 0), 254)


CONV_INPUTS = [1.0, 2.5, 3.5, 5.0, 7.0, -0.3, 0.1, 1.25, 0.75, 448.0, 500.0, 57344.0, 61440.0, -1e6, 2.0 ** -17, 0.0]


def conversions_program() -> str:
    xs = np.array(CONV_INPUTS, np.float32)
    checks = []
    body = []
    for name in ("f8E5M2", "f8E4M3FN", "f4E2M1FN"):
        codes = [round_code(float(x), name) for x in xs]
        width = 8 if BITS[name] == 8 else 4
        ity = f"i{width}"
        body += [f"    %t_{name} = arith.truncf %x : vector<16xf32> to vector<16x{name}>",
                 f"    %b_{name} = arith.bitcast %t_{name} : vector<16x{name}> to vector<16x{ity}>",
                 f"    %u_{name} = arith.extui %b_{name} : vector<16x{ity}> to vector<16xi32>",
                 f"    vector.print %u_{name} : vector<16xi32>"]
        checks.append("( " + ", ".join(str(c) for c in codes) + " )")
    e8 = [e8m0_code(float(x)) for x in xs]
    body += ["    %t_e8 = arith.truncf %x : vector<16xf32> to vector<16xf8E8M0FNU>",
             "    %b_e8 = arith.bitcast %t_e8 : vector<16xf8E8M0FNU> to vector<16xi8>",
             "    %u_e8 = arith.extui %b_e8 : vector<16xi8> to vector<16xi32>",
             "    vector.print %u_e8 : vector<16xi32>",
             "    %w_e8 = arith.extf %t_e8 : vector<16xf8E8M0FNU> to vector<16xf32>",
             "    vector.print %w_e8 : vector<16xf32>"]
    checks.append("( " + ", ".join(str(c) for c in e8) + " )")
    checks.append("( " + ", ".join(g(2.0 ** (c - 127)) for c in e8) + " )")
    # xegpu.truncf in a kernel: f16 -> f8E5M2 codes
    with np.errstate(over="ignore"):
        h = xs.astype(np.float16)  # -1e6 overflows to -Inf, as arith.truncf does
    kcodes = [round_code(float(v), "f8E5M2") for v in h]
    checks.append("( " + ", ".join(str(c) for c in kcodes) + " )")
    lines = "\n".join(body)
    return f"""// GENERATED by tools/gen_mx_programs.py; do not edit.  MX conversions: arith.truncf from f32 to f8E5M2, f8E4M3FN,
// f4E2M1FN and f8E8M0FNU (printed as codes), E8M0 widened back, and xegpu.truncf f16 -> f8E5M2 in a kernel;
// expected codes from the rules of upstream-xegpu-xevm.md §5.2 A applied here to ml_dtypes' value tables (ties to
// even, E5M2 overflow to Inf, E4M3FN to NaN, E2M1 saturating, E8M0 nearest power of two with ties up).
// RUN: xesim check %s

module attributes {{gpu.container_module}} {{
  gpu.module @kernels [#xevm.target<chip = "cri">] {{
    gpu.func @trunc(%in: memref<16xf16>, %out: memref<16xi8>) kernel {{
      %t = xegpu.create_nd_tdesc %in : memref<16xf16> -> !xegpu.tensor_desc<16xf16>
      %v = xegpu.load_nd %t[0] : !xegpu.tensor_desc<16xf16> -> vector<16xf16>
      %q = xegpu.truncf %v : vector<16xf16> -> vector<16xf8E5M2>
      %b = vector.bitcast %q : vector<16xf8E5M2> to vector<16xi8>
      %o = xegpu.create_nd_tdesc %out : memref<16xi8> -> !xegpu.tensor_desc<16xi8>
      xegpu.store_nd %b, %o[0] : vector<16xi8>, !xegpu.tensor_desc<16xi8>
      gpu.return
    }}
  }}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %x = arith.constant dense<{dense(xs, f32_literal)}> : vector<16xf32>
{lines}
    %h = arith.truncf %x : vector<16xf32> to vector<16xf16>
    %H = memref.alloc() : memref<16xf16>
    vector.store %h, %H[%c0] : memref<16xf16>, vector<16xf16>
    %dH = gpu.alloc () : memref<16xf16>
    %dO = gpu.alloc () : memref<16xi8>
    gpu.memcpy %dH, %H : memref<16xf16>, memref<16xf16>
    gpu.launch_func @kernels::@trunc blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dH : memref<16xf16>, %dO : memref<16xi8>)
    %O = memref.alloc() : memref<16xi8>
    gpu.memcpy %O, %dO : memref<16xi8>, memref<16xi8>
    %ov = vector.load %O[%c0] : memref<16xi8>, vector<16xi8>
    %ou = arith.extui %ov : vector<16xi8> to vector<16xi32>
    vector.print %ou : vector<16xi32>
    return
  }}
}}

""" + "\n".join(("// CHECK: " if i == 0 else "// CHECK-NEXT: ") + c for i, c in enumerate(checks)) + "\n"


def dequant_program() -> str:
    """f4E2M1FN codes packed two per byte -> vector.bitcast -> deinterleave (even / odd elements) -> extf -> times
    each half's E8M0 scale -> interleave -> f32, as an MX dequantisation does."""
    rng = np.random.default_rng(21)
    codes = rng.integers(0, 16, 32).astype(np.uint8)
    packed = (codes[0::2] | (codes[1::2] << 4)).astype(np.uint8).view(np.int8)
    vals = codes.view(ml_dtypes.float4_e2m1fn).astype(np.float64)
    se, so = 126, 129  # scales of the even and the odd elements: 2^-1 and 2^2
    want = np.empty(32)
    want[0::2] = vals[0::2] * 2.0 ** (se - 127)
    want[1::2] = vals[1::2] * 2.0 ** (so - 127)
    return f"""// GENERATED by tools/gen_mx_programs.py; do not edit.  MX dequantisation through vector.deinterleave /
// vector.interleave: 32 f4E2M1FN values packed two per byte (element 2j in the low nibble of byte j, §5.1), the
// even ones scaled by 2^-1 and the odd ones by 2^2 (E8M0 codes 126, 129); expected values from ml_dtypes' decoding.
// RUN: xesim check %s

module {{
  func.func @main() {{
    %p = arith.constant dense<{dense(packed)}> : vector<16xi8>
    %f = vector.bitcast %p : vector<16xi8> to vector<32xf4E2M1FN>
    %even, %odd = vector.deinterleave %f : vector<32xf4E2M1FN> -> vector<16xf4E2M1FN>
    %ev = arith.extf %even : vector<16xf4E2M1FN> to vector<16xf32>
    %ov = arith.extf %odd : vector<16xf4E2M1FN> to vector<16xf32>
    %se8 = arith.constant dense<{2.0 ** (se - 127)}> : vector<16xf8E8M0FNU>
    %so8 = arith.constant dense<{2.0 ** (so - 127)}> : vector<16xf8E8M0FNU>
    %se = arith.extf %se8 : vector<16xf8E8M0FNU> to vector<16xf32>
    %so = arith.extf %so8 : vector<16xf8E8M0FNU> to vector<16xf32>
    %es = arith.mulf %ev, %se : vector<16xf32>
    %os = arith.mulf %ov, %so : vector<16xf32>
    %r = vector.interleave %es, %os : vector<16xf32> -> vector<32xf32>
    vector.print %r : vector<32xf32>
    return
  }}
}}

// CHECK: ( {", ".join(g(x) for x in want)} )
"""


PROGRAMS = {
    "mx_conversions.mlir": conversions_program,
    "mx_dequant_interleave.mlir": dequant_program,
    "mx_gemm_bf8.mlir": lambda: gemm_program("Subgroup-level MX GEMM, f8E5M2 (bf8) x f8E5M2, plain B.",
                                             "f8E5M2", "f8E5M2", False, False, 11),
    "mx_gemm_f8_bf8_prepacked.mlir": lambda: gemm_program(
        "Subgroup-level MX GEMM, f8E4M3FN x f8E5M2 (mixed), B prepacked (VNNI load).", "f8E4M3FN", "f8E5M2", True,
        False, 12),
    "mx_gemm_e2m1.mlir": lambda: gemm_program(
        "Subgroup-level MX GEMM, f4E2M1FN x f4E2M1FN (two scales per row/column per instruction), data packed two "
        "per byte.", "f4E2M1FN", "f4E2M1FN", False, False, 13),
    "mx_gemm_lane_f8.mlir": lambda: gemm_program(
        "Lane-level MX GEMM, f8E4M3FN x f8E4M3FN, per-lane fragments and one-element scale vectors.", "f8E4M3FN",
        "f8E4M3FN", False, True, 14),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a generated program differs from the file")
    args = ap.parse_args()
    stale = []
    for name, make in PROGRAMS.items():
        text = make()
        path = OUT / name
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
        else:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print("out of date (run tools/gen_mx_programs.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
