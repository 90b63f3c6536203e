#!/usr/bin/env python3
"""xesim benchmark suite (ARCHITECTURE.md "Performance"; issue 7 §2).

Each workload is an MLIR program in the shape of real XeGPU integration tests, run by ``xesim`` in a fresh
child process, twice: **first** with empty numba/xesim caches (numba import and compilation included in the
wall time) and **cached** with the caches the first run left.  For every run the table shows the wall time
of load + run inside the child, the figure that matters (iterations per second of the workload's loop
body), the child's peak resident memory (``resource`` ``ru_maxrss``), and the ratio of the wall time to
numpy's float32 matmul of the workload's matmul size timed in the same invocation (best of 3).  The
printed output of every run is checked against values computed here with numpy.

Workloads (more are added to ``WORKLOADS``):

(a) ``init``  host loop nest initialising an N×N f16 and an N×N f32 matrix element by element with
    ``scf.for`` + ``memref.store`` (N = 4096: 1.7·10⁷ iterations, two stores each); target ≤ 1 s.
(b) ``gemm``  host reference triple loop GEMM M×N×K in ``scf.for`` with f16 inputs and f32 accumulation
    (1024³ = 1.07·10⁹ iterations); target ≤ 20 s.
(c) ``sg-f16``, ``sg-bf16``, ``lane-f16``, ``lane-bf16``: a 1024³ GEMM (f16 / bf16 -> f32) through xegpu ops at
    subgroup level (64x64 tiles, K step 32) and at lane level (SIMT fragments, 8x16 tiles, K step 16), host init
    loops included; "iter/s" counts multiply-adds.  Target ≤ 30 s each.
    ``vc-f16``, ``vc-bf16``: the same GEMM at VC level (``VectorComputeFunctionINTEL``, one thread = one subgroup,
    legacy offsets + ``update_nd_offset`` + ``prefetch_nd``, 32x32 C per thread as eight 8x16 DPAS, K step 16,
    4x4 threads per workgroup); ``wg-f16``, ``wg-bf16``: at WG level (256x256 workgroup tiles, ``sg_layout [8, 4]``,
    ``sg_data [32, 64]``, ``inst_data``, K step 32, ``prefetch_nd`` one step ahead).  Programs:
    tools/bench_programs.py.  ``--quick``: 256³.  Inputs are random (issue 32: periodic ones repeat B tiles, which
    DPAS decodes once per distinct tile): integer values in [-3, 4] from ``fillResource1DRandom*``, the result
    compared with the utility reference (``gemmF16F16F32`` / ``gemmBF16BF16F32``) by ``printAllcloseF32``.
(d) ``e2e-4096``: an end-to-end 4096³ f16 GEMM program shaped like the real ones (host init loops of A and B with
    rounding f16 values from a formula, gpu.alloc/memcpy, the WG kernel above on 256x256 workgroup tiles of 32
    subgroups, ``gemmF16F16F32`` reference, ``printAllcloseF32`` -> ``[ALLCLOSE: TRUE]``); "iter/s" counts the
    kernel's multiply-adds.  Target ≤ 120 s end to end, ≤ 3 GB.  ``--quick``: 1024³.
(e) ``flash-attn``: a WG-level flash-attention forward kernel (Q·Kᵀ per 64-key block, row max, exp, row sum,
    online rescale, f16(P)·V; one workgroup of 8 subgroups per 128 query rows) on seq 1024 x head dim 64, plus
    its f32 host reference loops and ``printAllcloseF32``; "iter/s" counts the kernel's multiply-adds (2·s²·d per
    head; the host reference does as many; the numpy comparison is a (s, s, 2d) matmul, the same multiply-add
    count).  Target ≤ 120 s.  ``--quick``: seq 256.

(f) ``upstream-sg``: an upstream-style SG-level f16 GEMM program N^3 (N = 4096; ``--quick`` 1024): random A and B
    (``fillResource1DRandomF16``), the (c) SG kernel, ``gemmF16F16F16`` host reference and ``printAllcloseF32``;
    target ≤ 25 s.  ``upstream-121``: the same program launching its GEMM 121 times on unchanged inputs (IMEX
    performance programs: 20 warm-up, 100 timed, 1 checked), which launch reuse (xesim/exec/launch_reuse.py)
    runs as two launches.
(g) ``ref-gemm``: the reference utility ``gemmF16F16F32`` alone on N^3 random integer-valued f16 inputs (N = 4096;
    ``--quick`` 1024), two corners checked by a host loop; target ≤ 5 s for the utility (the wall time includes
    start-up, the random fills and the check loops).
``--examples``: the fresh-install first run (a copy of the package without bytecode, empty caches) and a cached run
of every program in ``examples/`` (``--repeat R``: R fresh installs each; :func:`examples_first_run`).

Columns: ``kern s`` is the time inside kernel launches (``gpu.launch_func``) and ``kGFLOP/s`` the workload's
matmul FLOPs (2·M·N·K) over it — the bit-exact DPAS throughput through the xegpu ops; the (c) programs launch
their GEMM twice (first into a scratch buffer, then into C), and ``1st s``/``1st GF`` and ``warm s``/``warm GF``
give each launch's time and GFLOP/s: the first launch includes the process's one-time costs (imports, loading
compiled code, compiling the kernel's ops), the warm one is the steady state; ``peak MB`` adds the largest
``--jobs`` worker to the main process.

Usage: ``python tools/bench.py [--quick] [--json FILE] [--engine fast|reference|both] [--jobs N[,M...]]
[--repeat R] [--cached-only] [--only NAME ...] [--examples]``.  ``--jobs 1,2 --repeat 3`` runs each workload three times per
job count, alternating the counts (so a machine whose speed drifts affects both alike), keeps the best run of
each and prints the speed-ups of kernel time, first launch and warm launch.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


# ------------------------------------------------------------------------------------------ workloads
@dataclass
class Workload:
    """A benchmark: ``program(size)`` gives the MLIR text, ``iterations(size)`` the loop-body count,
    ``expected(size)`` the exact printed output, ``matmul(size)`` the (M, N, K) of the numpy reference;
    ``warm_launch``: the program launches its kernel twice (first, then warm: tools/bench_programs.py
    ``_gemm_main``) and both launches are reported."""

    name: str
    title: str
    size: Callable[[bool], dict]
    program: Callable[[dict], str]
    iterations: Callable[[dict], int]
    expected: Callable[[dict], str]
    matmul: Callable[[dict], tuple[int, int, int]]
    target_s: float | None = None
    warm_launch: bool = False


def _fmt_g(x: float) -> str:
    """``vector.print`` of an f32/f16 scalar (printf %g)."""
    return f"{float(x):g}"


def init_program(p: dict) -> str:
    n = p["n"]
    return f"""
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant {n} : index
  %clast = arith.constant {n - 1} : index
  %c251 = arith.constant 251 : index
  %s16 = arith.constant 0.125 : f16
  %s32 = arith.constant 0.125 : f32
  %A = memref.alloc() : memref<{n}x{n}xf16>
  %B = memref.alloc() : memref<{n}x{n}xf32>
  scf.for %i = %c0 to %cn step %c1 {{
    scf.for %j = %c0 to %cn step %c1 {{
      %row = arith.muli %i, %cn : index
      %lin = arith.addi %row, %j : index
      %r = arith.remui %lin, %c251 : index
      %ri = arith.index_cast %r : index to i32
      %h = arith.sitofp %ri : i32 to f16
      %f = arith.sitofp %ri : i32 to f32
      %hs = arith.mulf %h, %s16 : f16
      %fs = arith.mulf %f, %s32 : f32
      memref.store %hs, %A[%i, %j] : memref<{n}x{n}xf16>
      memref.store %fs, %B[%i, %j] : memref<{n}x{n}xf32>
    }}
  }}
  %a = memref.load %A[%clast, %clast] : memref<{n}x{n}xf16>
  %b = memref.load %B[%clast, %c1] : memref<{n}x{n}xf32>
  vector.print %a : f16
  vector.print %b : f32
  memref.dealloc %A : memref<{n}x{n}xf16>
  memref.dealloc %B : memref<{n}x{n}xf32>
  return
}}
"""


def init_expected(p: dict) -> str:
    n = p["n"]
    a = np.float16(((n * n - 1) % 251) * 0.125)
    b = np.float32((((n - 1) * n + 1) % 251) * 0.125)
    return f"{_fmt_g(a)}\n{_fmt_g(b)}\n"


def gemm_program(p: dict) -> str:
    m, n, k = p["m"], p["n"], p["k"]
    return f"""
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm = arith.constant {m} : index
  %cn = arith.constant {n} : index
  %ck = arith.constant {k} : index
  %cm1 = arith.constant {m - 1} : index
  %cn1 = arith.constant {n - 1} : index
  %c7 = arith.constant 7 : index
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %A = memref.alloc() : memref<{m}x{k}xf16>
  %B = memref.alloc() : memref<{k}x{n}xf16>
  %C = memref.alloc() : memref<{m}x{n}xf32>
  scf.for %i = %c0 to %cm step %c1 {{
    scf.for %kk = %c0 to %ck step %c1 {{
      %s = arith.addi %i, %kk : index
      %r = arith.remui %s, %c7 : index
      %ri = arith.index_cast %r : index to i32
      %v = arith.sitofp %ri : i32 to f16
      memref.store %v, %A[%i, %kk] : memref<{m}x{k}xf16>
    }}
  }}
  scf.for %kk = %c0 to %ck step %c1 {{
    scf.for %j = %c0 to %cn step %c1 {{
      %t = arith.muli %kk, %c3 : index
      %s = arith.addi %t, %j : index
      %r = arith.remui %s, %c5 : index
      %ri = arith.index_cast %r : index to i32
      %v = arith.sitofp %ri : i32 to f16
      memref.store %v, %B[%kk, %j] : memref<{k}x{n}xf16>
    }}
  }}
  scf.for %i = %c0 to %cm step %c1 {{
    scf.for %j = %c0 to %cn step %c1 {{
      %c = memref.load %C[%i, %j] : memref<{m}x{n}xf32>
      %acc = scf.for %kk = %c0 to %ck step %c1 iter_args(%sum = %c) -> (f32) {{
        %a = memref.load %A[%i, %kk] : memref<{m}x{k}xf16>
        %b = memref.load %B[%kk, %j] : memref<{k}x{n}xf16>
        %ae = arith.extf %a : f16 to f32
        %be = arith.extf %b : f16 to f32
        %prod = arith.mulf %ae, %be : f32
        %s = arith.addf %sum, %prod : f32
        scf.yield %s : f32
      }}
      memref.store %acc, %C[%i, %j] : memref<{m}x{n}xf32>
    }}
  }}
  %x = memref.load %C[%c0, %c0] : memref<{m}x{n}xf32>
  %y = memref.load %C[%cm1, %cn1] : memref<{m}x{n}xf32>
  vector.print %x : f32
  vector.print %y : f32
  return
}}
"""


def gemm_expected(p: dict) -> str:
    m, n, k = p["m"], p["n"], p["k"]
    kk = np.arange(k)
    out = []
    for i, j in ((0, 0), (m - 1, n - 1)):
        a = ((i + kk) % 7).astype(np.float32)
        b = ((kk * 3 + j) % 5).astype(np.float32)
        acc = np.float32(0)
        for x in a * b:  # f32 products of small integers are exact; f32 sums in order
            acc = np.float32(acc + x)
        out.append(_fmt_g(acc))
    return "\n".join(out) + "\n"


# (c) GEMMs through xegpu ops.  The kernels are the ones of tools/bench_gemm_sg.py (SG: a TMxTN tile of C per
# subgroup, packed B, K step KS; lane level: the SIMT form with 8x16 tiles); the host program initialises A and B
# with the same small-integer patterns as (b), launches, copies C back and prints two corner elements.
SG_TILE = {"tm": 64, "tn": 64, "ks": 32}


def _gemm_sg_kernels() -> tuple[str, str]:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_gemm_sg", os.path.join(os.path.dirname(__file__),
                                                                                "bench_gemm_sg.py"))
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod.KERNEL, mod.LANE_KERNEL


def xegpu_gemm_program(p: dict) -> str:
    """(c) SG / lane GEMM: the kernel of tools/bench_gemm_sg.py and the host program shared with the VC and WG
    forms (tools/bench_programs.py ``_gemm_main``: A = (i + k) mod 7, B = (3k + j) mod 5, two corners printed)."""
    sg_kernel, lane_kernel = _gemm_sg_kernels()
    m = n = k = p["n"]
    et = p["type"]
    if p["level"] == "lane":
        tm, tn, ks = 8, 16, 16
        kernel = lane_kernel
    else:
        tm, tn, ks = SG_TILE["tm"], SG_TILE["tn"], SG_TILE["ks"]
        kernel = sg_kernel
    kernel = kernel.format(M=m, N=n, K=k, TM=tm, TN=tn, KS=ks, KH=ks // 2, CT=f"vector<{tm}x{tn}xf32>")
    kernel = kernel.replace("xbf16", f"x{et}")
    body = kernel.strip()
    assert body.startswith("module attributes {gpu.container_module} {") and body.endswith("}")
    body = body[len("module attributes {gpu.container_module} {"):-1]
    args = f"args(%dA : memref<{m}x{k}x{et}>, %dB : memref<{k}x{n}x{et}>, %dC : memref<{m}x{n}xf32>)"
    launch = (f"    %gx = arith.constant {m // tm} : index\n    %gy = arith.constant {n // tn} : index\n"
              f"    %c16 = arith.constant 16 : index\n"
              f"    gpu.launch_func @kernels::@gemm blocks in (%gx, %gy, %c1) threads in (%c16, %c1, %c1) {args}")
    return ("module attributes {gpu.container_module} {\n" + body + "\n"
            + _bp()._gemm_main(m, n, k, et, launch, p.get("random", False)) + "}\n")


def xegpu_gemm_expected(p: dict) -> str:
    """C[i][j] = sum_k ((i + k) mod 7) * ((3k + j) mod 5): small integers, exact in f32 in any DPAS model; with
    ``random`` the allclose verdict against the utility reference."""
    if p.get("random"):
        return "[ALLCLOSE: TRUE]\n"
    n = p["n"]
    kk = np.arange(n)
    out = []
    for i, j in ((0, 0), (n - 1, n - 1)):
        out.append(_fmt_g(float(np.sum(((i + kk) % 7) * ((3 * kk + j) % 5)))))
    return "\n".join(out) + "\n"


def _xegpu_gemm(level: str, et: str) -> Workload:
    tile = "8x16" if level == "lane" else f"{SG_TILE['tm']}x{SG_TILE['tn']}"
    return Workload(
        f"{level}-{et}", f"(c) {et}->f32 GEMM N^3 through xegpu ops at {level} level ({tile} subgroup tiles)",
        lambda quick: {"n": 256 if quick else 1024, "level": level, "type": et, "random": True}, xegpu_gemm_program,
        lambda p: p["n"] ** 3, xegpu_gemm_expected, lambda p: (p["n"], p["n"], p["n"]), 30.0, warm_launch=True)


# (f) upstream-style SG GEMM program, (g) the reference utility GEMM alone: random inputs
_DECLS = """  func.func private @fillResource1DRandomF16(memref<*xf16>, f32, f32, i1) attributes {llvm.emit_c_interface}
  func.func private @gemmF16F16F16(memref<*xf16>, memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @gemmF16F16F32(memref<*xf16>, memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printAllcloseF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}
"""


def upstream_gemm_program(p: dict) -> str:
    """(f) An upstream-style SG-level f16 GEMM program (spec/programs-and-runner.md §2 utilities): the host fills A
    and B with ``fillResource1DRandomF16`` (uniform in [0, 1): sums of like-signed products, so DPAS's and the
    reference's summation orders agree to far within allclose's tolerance), launches the (c) SG kernel
    (64x64 tiles, K step 32) ``launches`` times on unchanged inputs (the IMEX performance programs launch 20
    warm-up + 100 timed + 1 checked), computes the CPU reference with ``gemmF16F16F16`` and compares with
    ``printAllcloseF32`` -> ``[ALLCLOSE: TRUE]``."""
    sg_kernel, _ = _gemm_sg_kernels()
    n = p["n"]
    tm, tn, ks = SG_TILE["tm"], SG_TILE["tn"], SG_TILE["ks"]
    kernel = sg_kernel.format(M=n, N=n, K=n, TM=tm, TN=tn, KS=ks, KH=ks // 2, CT=f"vector<{tm}x{tn}xf32>")
    body = kernel.replace("xbf16", "xf16").strip()
    body = body[len("module attributes {gpu.container_module} {"):-1]
    ab, cc = f"memref<{n}x{n}xf16>", f"memref<{n}x{n}xf32>"
    launch = (f"gpu.launch_func @kernels::@gemm blocks in (%gx, %gy, %c1) threads in (%c16, %c1, %c1) "
              f"args(%dA : {ab}, %dB : {ab}, %dC : {cc})")
    reps = p.get("launches", 1)
    launches = (f"    %cl = arith.constant {reps - 1} : index\n    scf.for %r = %c0 to %cl step %c1 {{\n      {launch}\n"
                f"    }}\n    {launch}" if reps > 1 else f"    {launch}")
    return f"""module attributes {{gpu.container_module}} {{
{body}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %gx = arith.constant {n // tm} : index
    %gy = arith.constant {n // tn} : index
    %lo = arith.constant 0.0 : f32
    %hi = arith.constant 1.0 : f32
    %false = arith.constant false
    %A = memref.alloc() : {ab}
    %B = memref.alloc() : {ab}
    %C = memref.alloc() : {cc}
    %R = memref.alloc() : {cc}
    %Au = memref.cast %A : {ab} to memref<*xf16>
    %Bu = memref.cast %B : {ab} to memref<*xf16>
    %Cu = memref.cast %C : {cc} to memref<*xf32>
    %Ru = memref.cast %R : {cc} to memref<*xf32>
    call @fillResource1DRandomF16(%Au, %lo, %hi, %false) : (memref<*xf16>, f32, f32, i1) -> ()
    call @fillResource1DRandomF16(%Bu, %lo, %hi, %false) : (memref<*xf16>, f32, f32, i1) -> ()
    %dA = gpu.alloc () : {ab}
    %dB = gpu.alloc () : {ab}
    %dC = gpu.alloc () : {cc}
    gpu.memcpy %dA, %A : {ab}, {ab}
    gpu.memcpy %dB, %B : {ab}, {ab}
{launches}
    gpu.wait
    gpu.memcpy %C, %dC : {cc}, {cc}
    call @gemmF16F16F16(%Au, %Bu, %Ru) : (memref<*xf16>, memref<*xf16>, memref<*xf32>) -> ()
    call @printAllcloseF32(%Cu, %Ru) : (memref<*xf32>, memref<*xf32>) -> ()
    return
  }}
{_DECLS}}}
"""


def ref_gemm_program(p: dict) -> str:
    """(g) The reference utility alone: ``gemmF16F16F32`` on random integer-valued f16 A and B in [-4, 4]
    (``fillResource1DRandomF16`` with genInt), so every partial sum is an integer below 2^24 and exact in f32;
    a host loop recomputes C[0][0] and C[N-1][N-1] and prints their differences from the utility's (``0``)."""
    n = p["n"]
    ab, cc = f"memref<{n}x{n}xf16>", f"memref<{n}x{n}xf32>"
    checks = []
    for tag, idx in (("x", "%c0"), ("y", "%cl")):
        checks.append(f"""    %s{tag} = scf.for %k = %c0 to %cn step %c1 iter_args(%acc = %z) -> (f32) {{
      %a = memref.load %A[{idx}, %k] : {ab}
      %b = memref.load %B[%k, {idx}] : {ab}
      %af = arith.extf %a : f16 to f32
      %bf = arith.extf %b : f16 to f32
      %pr = arith.mulf %af, %bf : f32
      %nx = arith.addf %acc, %pr : f32
      scf.yield %nx : f32
    }}
    %g{tag} = memref.load %C[{idx}, {idx}] : {cc}
    %d{tag} = arith.subf %g{tag}, %s{tag} : f32
    vector.print %d{tag} : f32""")
    check_text = "\n".join(checks)
    return f"""module {{
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cn = arith.constant {n} : index
    %cl = arith.constant {n - 1} : index
    %z = arith.constant 0.0 : f32
    %lo = arith.constant -4.0 : f32
    %hi = arith.constant 5.0 : f32
    %true = arith.constant true
    %A = memref.alloc() : {ab}
    %B = memref.alloc() : {ab}
    %C = memref.alloc() : {cc}
    %Au = memref.cast %A : {ab} to memref<*xf16>
    %Bu = memref.cast %B : {ab} to memref<*xf16>
    %Cu = memref.cast %C : {cc} to memref<*xf32>
    call @fillResource1DRandomF16(%Au, %lo, %hi, %true) : (memref<*xf16>, f32, f32, i1) -> ()
    call @fillResource1DRandomF16(%Bu, %lo, %hi, %true) : (memref<*xf16>, f32, f32, i1) -> ()
    call @gemmF16F16F32(%Au, %Bu, %Cu) : (memref<*xf16>, memref<*xf16>, memref<*xf32>) -> ()
{check_text}
    return
  }}
{_DECLS}}}
"""


# (c) VC and WG GEMMs, (d) end to end, (e) flash attention: programs from tools/bench_programs.py
_BP = None


def _bp():
    """tools/bench_programs.py as a module (tools/ is not a package)."""
    global _BP
    if _BP is None:
        import importlib.util

        spec = importlib.util.spec_from_file_location("bench_programs", os.path.join(os.path.dirname(__file__),
                                                                                     "bench_programs.py"))
        _BP = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        spec.loader.exec_module(_BP)  # type: ignore[union-attr]
    return _BP


def _vc_wg_gemm(level: str, et: str) -> Workload:
    tile = "32x32 per thread" if level == "vc" else "256x256 per workgroup, sg_layout [8, 4]"
    return Workload(
        f"{level}-{et}", f"(c) {et}->f32 GEMM N^3 through xegpu ops at {level.upper()} level ({tile})",
        lambda quick: {"n": 256 if quick else 1024, "level": level, "type": et, "random": True},
        lambda p: (_bp().vc_gemm_program if level == "vc" else _bp().wg_gemm_program)(p),
        lambda p: p["n"] ** 3, lambda p: _bp().xegpu_gemm_expected(p), lambda p: (p["n"], p["n"], p["n"]), 30.0,
        warm_launch=True)


def _flash_macs(p: dict) -> int:
    return 2 * p.get("heads", 1) * p["s"] ** 2 * p["d"]


WORKLOADS: dict[str, Workload] = {
    "init": Workload(
        "init", "(a) host init of N×N f16 + f32 matrices (scf.for + memref.store)",
        lambda quick: {"n": 1024 if quick else 4096}, init_program, lambda p: p["n"] ** 2, init_expected,
        lambda p: (p["n"], p["n"], p["n"]), 1.0),
    "gemm": Workload(
        "gemm", "(b) host reference GEMM M×N×K, f16 inputs, f32 accumulation",
        lambda quick: {"m": 128, "n": 128, "k": 128} if quick else {"m": 1024, "n": 1024, "k": 1024},
        gemm_program, lambda p: p["m"] * p["n"] * p["k"], gemm_expected, lambda p: (p["m"], p["n"], p["k"]), 20.0),
    **{f"{lv}-{et}": _xegpu_gemm(lv, et) for lv in ("sg", "lane") for et in ("f16", "bf16")},
    **{f"{lv}-{et}": _vc_wg_gemm(lv, et) for lv in ("vc", "wg") for et in ("f16", "bf16")},
    "e2e-4096": Workload(
        "e2e-4096", "(d) end-to-end f16 GEMM program N^3 (WG kernel, host init, gemm reference, printAllclose)",
        lambda quick: {"n": 1024 if quick else 4096}, lambda p: _bp().e2e_gemm_program(p), lambda p: p["n"] ** 3,
        lambda p: _bp().e2e_gemm_expected(p), lambda p: (p["n"], p["n"], p["n"]), 120.0),
    "upstream-sg": Workload(
        "upstream-sg", "(f) upstream-style SG f16 GEMM program N^3, random inputs, gemmF16F16F16 + printAllclose",
        lambda quick: {"n": 1024 if quick else 4096}, upstream_gemm_program, lambda p: p["n"] ** 3,
        lambda p: "[ALLCLOSE: TRUE]\n", lambda p: (p["n"], p["n"], p["n"]), 25.0),
    "upstream-121": Workload(
        "upstream-121", "(f) the same program launching its GEMM 121 times on unchanged inputs (launch reuse)",
        lambda quick: {"n": 1024 if quick else 4096, "launches": 121}, upstream_gemm_program,
        lambda p: p["n"] ** 3 * p["launches"], lambda p: "[ALLCLOSE: TRUE]\n", lambda p: (p["n"], p["n"], p["n"])),
    "ref-gemm": Workload(
        "ref-gemm", "(g) reference utility gemmF16F16F32 alone, N^3, random integer-valued f16 inputs",
        lambda quick: {"n": 1024 if quick else 4096}, ref_gemm_program, lambda p: p["n"] ** 3,
        lambda p: "0\n0\n", lambda p: (p["n"], p["n"], p["n"]), 5.0),
    "flash-attn": Workload(
        "flash-attn", "(e) flash attention seq x head dim (WG kernel, online softmax) + f32 host reference",
        lambda quick: {"s": 256 if quick else 1024, "d": 64, "heads": 1}, lambda p: _bp().flash_attention_program(p),
        _flash_macs, lambda p: _bp().flash_attention_expected(p),
        lambda p: (p.get("heads", 1) * p["s"], p["s"], 2 * p["d"]), 120.0),
}


# ------------------------------------------------------------------------------------------ child side
def child(path: str) -> None:
    """Run one program (in a fresh process) and print a JSON record."""
    import resource

    t0 = time.perf_counter()
    import io

    from xesim.api import load, make_engine
    from xesim.exec.engine import Engine

    launch_s: list[float] = []
    launch = Engine.launch

    def timed_launch(*a: object, **kw: object) -> None:  # time spent in kernel launches (gpu.launch_func)
        k0 = time.perf_counter()
        try:
            launch(*a, **kw)
        finally:
            launch_s.append(time.perf_counter() - k0)

    Engine.launch = timed_launch  # type: ignore[method-assign]
    prog = load(path)
    buf = io.StringIO()
    make_engine(prog.module, out=buf).run("main")
    wall = time.perf_counter() - t0
    from xesim.exec.jit.runner import STATS

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # --jobs: the largest forked worker
    print(json.dumps({"wall_s": wall, "kernel_s": sum(launch_s), "launch_s": launch_s, "peak_rss_mb": rss / 1024.0,
                      "peak_rss_children_mb": kids / 1024.0, "output": buf.getvalue(), "jit": STATS}))


def run_child(path: str, env: dict) -> dict:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", path], capture_output=True,
                          text=True, env=env)
    total = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"child failed ({proc.returncode}):\n{proc.stderr}")
    rec = json.loads(proc.stdout.strip().splitlines()[-1])
    rec["process_s"] = total
    return rec


def numpy_matmul_s(m: int, n: int, k: int, repeat: int = 3) -> float:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        np.matmul(a, b)
        best = min(best, time.perf_counter() - t0)
    return best


# ------------------------------------------------------------------------------------------ driver
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (seconds instead of minutes)")
    ap.add_argument("--json", metavar="FILE", help="also write the records as JSON")
    ap.add_argument("--engine", default="fast", choices=("fast", "reference", "both"))
    ap.add_argument("--only", nargs="*", choices=sorted(WORKLOADS), help="run only these workloads")
    ap.add_argument("--jobs", default=None,
                    help="XESIM_JOBS for the runs (default: xesim's, the cores); a comma list (1,2) runs every "
                         "workload with each value in turn and prints the speed-ups")
    ap.add_argument("--repeat", type=int, default=1,
                    help="cached runs per workload and job count, interleaved across job counts; the best is kept")
    ap.add_argument("--cached-only", action="store_true",
                    help="one warm-up run (not reported) instead of the 'first' record, then the cached run")
    ap.add_argument("--examples", action="store_true",
                    help="instead of the workloads: the fresh-install first run (empty caches) and a cached run of "
                         "every program in examples/, through 'xesim check' (output checked)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    if args.examples:
        return examples_first_run(args.json, args.repeat)
    jobs_list: list[str | None] = [None] if args.jobs is None else [j.strip() for j in args.jobs.split(",")]
    records = []
    with tempfile.TemporaryDirectory(prefix="xesim-bench-") as tmp:
        env = dict(os.environ)
        # Python caches compiled bytecode unless told not to; with PYTHONDONTWRITEBYTECODE (set in some CI
        # sandboxes) every run would recompile xesim's sources (about 0.3 s), which no installed xesim pays
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["XESIM_ENGINE"] = args.engine
        env["XESIM_CACHE_DIR"] = os.path.join(tmp, "xesim")
        env["NUMBA_CACHE_DIR"] = os.path.join(tmp, "numba")
        for name in args.only or list(WORKLOADS):
            w = WORKLOADS[name]
            p = w.size(args.quick)
            path = os.path.join(tmp, f"{name}.mlir")
            with open(path, "w") as f:
                f.write(w.program(p))
            mm = w.matmul(p)
            np_s = numpy_matmul_s(*mm)
            iters = w.iterations(p)
            expected = w.expected(p)
            if args.cached_only:
                for jobs in jobs_list:  # fills the caches (a job count may compile code another does not use)
                    run_child(path, _jobs_env(env, jobs))
            best: dict[tuple, dict] = {}
            runs = [("first", jobs_list[0])] if not args.cached_only else []
            runs += [("cached", j) for _ in range(max(1, args.repeat)) for j in jobs_list]  # interleaved
            for variant, jobs in runs:
                rec = run_child(path, _jobs_env(env, jobs))
                rec.update({
                    "workload": name, "title": w.title, "size": p, "variant": variant, "engine": args.engine,
                    "iterations": iters, "iters_per_s": iters / rec["wall_s"], "numpy_matmul": list(mm),
                    "numpy_matmul_s": np_s, "ratio_to_numpy": rec["wall_s"] / np_s, "target_s": w.target_s,
                    "correct": rec["output"] == expected, "quick": args.quick,
                    "jobs": _jobs_env(env, jobs).get("XESIM_JOBS"),
                    "kernel_gflops": (2.0 * mm[0] * mm[1] * mm[2] * (len(rec["launch_s"]) if w.warm_launch else 1)
                                      / rec["kernel_s"] / 1e9) if rec["kernel_s"] else None,
                })
                if w.warm_launch and len(rec["launch_s"]) == 2:  # (c): a first and a warm launch of the GEMM
                    for key, t in (("first", rec["launch_s"][0]), ("warm", rec["launch_s"][1])):
                        rec[f"{key}_launch_s"] = t
                        rec[f"{key}_gflops"] = 2.0 * mm[0] * mm[1] * mm[2] / t / 1e9
                print(f"  {name} {variant} jobs {rec['jobs']}: {rec['wall_s']:.2f} s", file=sys.stderr, flush=True)
                key = (variant, jobs)
                if key not in best or _score(rec) < _score(best[key]):
                    best[key] = rec
                if not rec["correct"]:
                    best[key] = rec  # a wrong answer is always shown
            records.extend(best.values())
    _table(records)
    if len(jobs_list) > 1:
        _speedups(records, jobs_list)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=2)
    return 0 if all(r["correct"] for r in records) else 1


def examples_first_run(json_path: str | None = None, repeat: int = 1) -> int:
    """The first ``xesim check`` of every ``examples/*.mlir`` on a fresh install and a second, cached one.

    A fresh install is mimicked the way a new clone is: the ``xesim`` package and ``isa/`` copied to a temporary
    directory without any ``__pycache__`` (so Python compiles the bytecode it imports), empty ``XESIM_CACHE_DIR``
    and ``NUMBA_CACHE_DIR`` (numba has no machine code), the child started in that directory with only it on
    ``PYTHONPATH`` (not this checkout); the cached run reuses all of it.  Wall time of the whole child process.
    ``repeat`` fresh installs per example (the table shows the median and the largest first run, the median cached
    run); the load average is printed before and after, and the ratio to numpy's float32 1024^3 matmul timed in the
    same run."""
    import shutil
    import statistics

    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
    paths = sorted(os.path.join(root, "examples", f) for f in os.listdir(os.path.join(root, "examples"))
                   if f.endswith(".mlir"))
    np_s = numpy_matmul_s(1024, 1024, 1024)
    load_before = os.getloadavg()[0]
    records = []
    for path in paths:
        rec: dict = {"example": os.path.basename(path), "numpy_matmul_s": np_s, "first_s": [], "cached_s": [],
                     "first_ok": True, "cached_ok": True}
        for _ in range(max(1, repeat)):
            with tempfile.TemporaryDirectory(prefix="xesim-first-") as tmp:
                src = os.path.join(tmp, "src")
                ignore = shutil.ignore_patterns("__pycache__")
                shutil.copytree(os.path.join(root, "xesim"), os.path.join(src, "xesim"), symlinks=True, ignore=ignore)
                shutil.copytree(os.path.join(root, "isa"), os.path.join(src, "isa"), ignore=ignore)
                env = dict(os.environ)
                env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed xesim has its bytecode compiled
                env.update(XESIM_CACHE_DIR=os.path.join(tmp, "xesim"), NUMBA_CACHE_DIR=os.path.join(tmp, "numba"),
                           PYTHONPATH=src)
                for variant in ("first", "cached"):
                    t0 = time.perf_counter()
                    proc = subprocess.run([sys.executable, "-m", "xesim.cli", "check", path], capture_output=True,
                                          text=True, env=env, cwd=src)
                    rec[f"{variant}_s"].append(time.perf_counter() - t0)
                    rec[f"{variant}_ok"] &= proc.returncode == 0  # 'xesim check': every CHECK line passed
        records.append(rec)
        print(f"  {rec['example']}: first {', '.join(f'{t:.2f}' for t in rec['first_s'])} s, cached "
              f"{', '.join(f'{t:.2f}' for t in rec['cached_s'])} s", file=sys.stderr, flush=True)
    load_after = os.getloadavg()[0]
    head = (f"{'example':<24}{'first s':>9}{'max':>7}{'x numpy':>9}{'cached s':>10}{'x numpy':>9}  ok")
    print(f"numpy float32 1024^3 matmul: {np_s:.4f} s; {max(1, repeat)} fresh install(s) per example; "
          f"load average {load_before:.2f} before, {load_after:.2f} after")
    print(head)
    print("-" * len(head))
    for r in records:
        ok = "yes" if r["first_ok"] and r["cached_ok"] else "NO"
        first, cached = statistics.median(r["first_s"]), statistics.median(r["cached_s"])
        print(f"{r['example']:<24}{first:>9.2f}{max(r['first_s']):>7.2f}{first / np_s:>9.0f}{cached:>10.2f}"
              f"{cached / np_s:>9.0f}  {ok}")
    if json_path:
        with open(json_path, "w") as f:
            json.dump(records, f, indent=2)
    return 0 if all(r["first_ok"] and r["cached_ok"] for r in records) else 1


def _jobs_env(env: dict, jobs: str | None) -> dict:
    if jobs is None:
        return env
    return {**env, "XESIM_JOBS": jobs}


def _score(rec: dict) -> float:
    """What 'best of --repeat' minimises: the warm launch when there is one, else kernel time, else wall time."""
    return rec.get("warm_launch_s") or rec["kernel_s"] or rec["wall_s"]


def _speedups(records: list[dict], jobs_list: list) -> None:
    """Kernel-time speed-ups of every job count over the first one (best cached runs)."""
    base_jobs = jobs_list[0]
    print(f"\nspeed-up over --jobs {base_jobs} (kernel time of the best cached run)")
    print(f"{'workload':<11}{'jobs':>6}{'kern s':>9}{'x':>7}{'1st s':>8}{'x':>7}{'warm s':>8}{'x':>7}")
    for name in dict.fromkeys(r["workload"] for r in records):
        rs = {r["jobs"]: r for r in records if r["workload"] == name and r["variant"] == "cached"}
        base = rs.get(str(base_jobs))
        if base is None or not base["kernel_s"]:
            continue
        for j in jobs_list[1:]:
            r = rs.get(str(j))
            if r is None or not r["kernel_s"]:
                continue
            line = f"{name:<11}{j:>6}{r['kernel_s']:>9.3f}{base['kernel_s'] / r['kernel_s']:>7.2f}"
            for key in ("first", "warm"):
                k = f"{key}_launch_s"
                line += f"{r[k]:>8.3f}{base[k] / r[k]:>7.2f}" if k in r and k in base else f"{'-':>8}{'-':>7}"
            print(line)


def _table(records: list[dict]) -> None:
    head = (f"{'workload':<11}{'size':<18}{'run':<8}{'jobs':>5}{'wall s':>9}{'proc s':>9}{'kern s':>9}{'kGFLOP/s':>9}"
            f"{'1st s':>8}{'1st GF':>8}{'warm s':>8}{'warm GF':>8}"
            f"{'iter/s':>12}{'peak MB':>9}{'np s':>9}{'x numpy':>9}{'target':>8}  ok")
    print(head)
    print("-" * len(head))
    for r in records:
        size = "x".join(str(v) for v in r["size"].values() if isinstance(v, int) and not isinstance(v, bool))
        tgt = f"{r['target_s']:.0f} s" if r["target_s"] and r["size"] and not r.get("quick") else ""
        kg = f"{r['kernel_gflops']:.2f}" if r.get("kernel_gflops") and r["kernel_s"] > 0.01 else "-"
        launches = "".join(f"{r[f'{key}_launch_s']:>8.3f}{r[f'{key}_gflops']:>8.2f}" if f"{key}_launch_s" in r
                           else f"{'-':>8}{'-':>8}" for key in ("first", "warm"))
        peak = r["peak_rss_mb"] + r.get("peak_rss_children_mb", 0)  # with --jobs: parent + largest worker
        print(f"{r['workload']:<11}{size:<18}{r['variant']:<8}{r.get('jobs') or '-':>5}{r['wall_s']:>9.3f}{r['process_s']:>9.3f}"
              f"{r['kernel_s']:>9.3f}{kg:>9}{launches}{r['iters_per_s']:>12.3g}{peak:>9.0f}"
              f"{r['numpy_matmul_s']:>9.4f}{r['ratio_to_numpy']:>9.1f}{tgt:>8}  {'yes' if r['correct'] else 'NO'}")


if __name__ == "__main__":
    sys.exit(main())
