#!/usr/bin/env python3
"""Barrier benchmark: what workgroup synchronisation costs (gpu.barrier, named barriers).

Three workloads, each as a pair of whole programs (a ``gpu.module`` kernel plus a host ``func.func @main`` in the
shape of the real XeGPU integration tests, spec/programs-and-runner.md §3.2): the kernel **with** its barriers,
and the same kernel text **without** them (the barrier ops deleted, nothing else changed).  Every program
computes ``C[M×N] (f32) = A[M×K] · B[K×N]`` with f16 inputs ``A[i][k] = (i + k) mod 7`` and
``B[k][j] = (3k + j) mod 5`` (small integers: every product and partial sum is exact in f32, so every DPAS
numerics model gives the same result), copies C back and prints three lines: the checksum
``Σ_ij int(C[i][j]) · ((7i + 3j) mod 11 + 1)`` as an ``i64`` (``vector.print``), ``C[0][0]`` and ``C[M-1][N-1]``.
The expected output is computed here with numpy (:func:`expected_output`), never with xesim.

(a) ``sg-barrier`` — subgroup level (SG), 16 subgroups per workgroup (``threads in (256, 1, 1)``), a 128x128
    workgroup tile of C, K step 16.  Every step of the K loop: ``gpu.barrier``; every subgroup loads an 8x16
    piece of the workgroup's A tile (128x16) and an 8x16 piece of its B tile (16x128) from global memory
    (``load_nd``) and stores them into SLM (``memref.alloc() : memref<4096xi8, 3>`` viewed through
    ``create_mem_desc`` / ``store_matrix``); ``gpu.barrier``; then each subgroup reads its 32x16 A rows and 16x32
    B columns back (``load_matrix``) and accumulates its 32x32 part of C with one ``dpas``.  Two barriers per K
    step, 64 K steps at full size.
(b) ``vc-nbarrier`` — VC level (``VectorComputeFunctionINTEL``; every thread is one subgroup), 32 threads per
    workgroup (4x8), each computing a 32x32 tile of C as eight 8x16 DPAS per K step of 16 (A 32x16, packed B
    ``16x16, array_length = 2``, next step prefetched, descriptors advanced with ``update_nd_offset``), as the VC
    GEMMs of tools/bench_programs.py.  All 32 threads synchronise through named barrier 0 (``alloc_nbarrier`` /
    ``init_nbarrier`` with 32 participants) every eighth K step: ``xegpu.nbarrier_arrive`` inside an ``scf.if`` on
    the K index at the top of the step, ``xegpu.nbarrier_wait`` in the same ``scf.if`` after the DPAS (the
    prefetch pacing of the real VC GEMMs; no data is exchanged).  64 K steps at full size.
(c) ``producer-consumer`` — subgroup level, 16 subgroups per workgroup, a 64x64 workgroup tile of C, K step 16:
    subgroups 0-7 are producers, 8-15 consumers, chosen by ``scf.if`` on ``gpu.subgroup_id``.  Producers load the
    step's A (64x16) and B (16x64) tiles from global memory, 8x16 pieces each, into one of two SLM buffers
    (double buffering: buffer ``s mod 2`` at step ``s``), then arrive at and wait on named barrier ``s mod 2``;
    consumers arrive at and wait on the same barrier, then read their 16x16 A rows and 16x32 B columns of that
    buffer and accumulate a 16x32 part of C with ``dpas``.  Both roles join every phase (16 participants), so a
    producer refills buffer ``s mod 2`` at step ``s + 2`` only after every consumer arrived for step ``s + 1``,
    i.e. after it finished reading step ``s``.  The loop body covers two K steps (buffer 0 with barrier 0, buffer 1
    with barrier 1).  The subgroups take different branches around the barriers: the case that needs the
    instances interleaved.  32 K steps at full size.

Sizes (M x N x K, ``WORKLOADS``): (a) 2048x1024x1024 = 128 workgroups, (b) 2048x2048x1024 = 128 workgroups of
256x128, (c) 1024x1024x512 = 256 workgroups; ``--quick`` (and tests/unit/test_bench_barriers.py): (a) 256x128x128,
(b) 256x256x256 (two synchronisations per thread), (c) 128x64x128 (each buffer refilled three times).

**Only the with-barrier programs are checked.**  Without their barriers (a) and (c) race on SLM (a subgroup reads
SLM that other subgroups have not written yet, or have overwritten), so their output may be wrong and differ from
run to run or between engines; (b) exchanges no data and stays correct.  The table says, for information, whether
a without-barrier run printed the expected output.

Runner: ``python tools/bench_barriers.py [--quick] [--repeat N] [--only a,b,c] [--baseline-root PATH]``.  Each
program runs in a fresh child process (``python -m xesim.cli run FILE``, ``XESIM_JOBS=1``), with xesim's and
numba's caches in a directory of this invocation; untimed warm-up runs first compile the numba code both programs
use (the quick-size pair, then the full-size program without barriers).  Then with and without alternate
``--repeat`` times (default 2); the table shows the best wall time and the best CPU time (user + system of the
child, ``resource.getrusage``) of each, the with/without ratio, and each time as a ratio to numpy's float32 matmul
of the same M, N, K timed in this run (best of 3, ``numpy_matmul_s`` of tools/bench.py: the project's rule for
speed figures).  With the full sizes it also prints the figures measured on the code before the lockstep rewrite
(``BASELINE``) and the speed-up over them.  ``--baseline-root PATH`` runs the programs with ``PYTHONPATH=PATH`` (a
checkout of the old code, e.g. a ``git worktree``) and prints the figures in the form of ``BASELINE``.  ``--quick``
uses small sizes (a smoke run).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TextIO

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

__all__ = [
    "BARRIER_OPS", "BASELINE", "WORKLOADS", "Run", "Workload", "baseline_literal", "checksum_weights", "child_env",
    "expected_output", "gemm_reference", "imported_xesim", "main", "measure", "print_table", "producer_consumer_program",
    "run_program", "sg_barrier_program", "strip_barriers", "vc_nbarrier_program",
]

#: ops deleted to make the without-barrier program of a pair
BARRIER_OPS = ("gpu.barrier", "xegpu.alloc_nbarrier", "xegpu.init_nbarrier", "xegpu.nbarrier_arrive",
               "xegpu.nbarrier_wait")


# ==================================================================================================== host program
def gemm_reference(m: int, n: int, k: int) -> np.ndarray:
    """C = A·B of every program here, exactly (int64): A[i][k] = (i + k) mod 7, B[k][j] = (3k + j) mod 5."""
    a = (np.arange(m, dtype=np.int64)[:, None] + np.arange(k, dtype=np.int64)[None, :]) % 7
    b = (3 * np.arange(k, dtype=np.int64)[:, None] + np.arange(n, dtype=np.int64)[None, :]) % 5
    return a @ b


def checksum_weights(m: int, n: int) -> np.ndarray:
    """The checksum's weights ``(7i + 3j) mod 11 + 1`` (int64)."""
    return (7 * np.arange(m, dtype=np.int64)[:, None] + 3 * np.arange(n, dtype=np.int64)[None, :]) % 11 + 1


def expected_output(m: int, n: int, k: int) -> str:
    """What every program of size M, N, K prints: the i64 checksum (``%lld``), then ``C[0][0]`` and
    ``C[M-1][N-1]`` as f32 (``%g``, spec/programs-and-runner.md §1.2; the values are integers below 2^24)."""
    c = gemm_reference(m, n, k)
    total = int(np.sum(c * checksum_weights(m, n)))
    return f"{total}\n{float(c[0, 0]):g}\n{float(c[m - 1, n - 1]):g}\n"


def _host_main(m: int, n: int, k: int, launch: str) -> str:
    """Host ``@main``: initialise A and B (f16) with ``scf.for`` + ``memref.store``, copy them to ``gpu.alloc``
    buffers, run ``launch`` (the lines launching the kernel on ``%dA``, ``%dB``, ``%dC``), copy C back and print
    the checksum and two corners (see :func:`expected_output`)."""
    at, bt, ct = f"memref<{m}x{k}xf16>", f"memref<{k}x{n}xf16>", f"memref<{m}x{n}xf32>"
    return f"""  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %cm = arith.constant {m} : index
    %cn = arith.constant {n} : index
    %ck = arith.constant {k} : index
    %cm1 = arith.constant {m - 1} : index
    %cn1 = arith.constant {n - 1} : index
    %z64 = arith.constant 0 : i64
    %A = memref.alloc() : {at}
    %B = memref.alloc() : {bt}
    %C = memref.alloc() : {ct}
    scf.for %i = %c0 to %cm step %c1 {{
      scf.for %kk = %c0 to %ck step %c1 {{
        %s = arith.addi %i, %kk : index
        %r = arith.remui %s, %c7 : index
        %ri = arith.index_cast %r : index to i32
        %v = arith.sitofp %ri : i32 to f16
        memref.store %v, %A[%i, %kk] : {at}
      }}
    }}
    scf.for %kk = %c0 to %ck step %c1 {{
      scf.for %j = %c0 to %cn step %c1 {{
        %t = arith.muli %kk, %c3 : index
        %s = arith.addi %t, %j : index
        %r = arith.remui %s, %c5 : index
        %ri = arith.index_cast %r : index to i32
        %v = arith.sitofp %ri : i32 to f16
        memref.store %v, %B[%kk, %j] : {bt}
      }}
    }}
    %dA = gpu.alloc () : {at}
    %dB = gpu.alloc () : {bt}
    %dC = gpu.alloc () : {ct}
    gpu.memcpy %dA, %A : {at}, {at}
    gpu.memcpy %dB, %B : {bt}, {bt}
{launch}
    gpu.wait
    gpu.memcpy %C, %dC : {ct}, {ct}
    %sum = scf.for %i = %c0 to %cm step %c1 iter_args(%acc = %z64) -> (i64) {{
      %row = scf.for %j = %c0 to %cn step %c1 iter_args(%racc = %acc) -> (i64) {{
        %v = memref.load %C[%i, %j] : {ct}
        %vi = arith.fptosi %v : f32 to i64
        %wi = arith.muli %i, %c7 : index
        %wj = arith.muli %j, %c3 : index
        %ws = arith.addi %wi, %wj : index
        %wr = arith.remui %ws, %c11 : index
        %w = arith.addi %wr, %c1 : index
        %w64 = arith.index_cast %w : index to i64
        %p = arith.muli %vi, %w64 : i64
        %nacc = arith.addi %racc, %p : i64
        scf.yield %nacc : i64
      }}
      scf.yield %row : i64
    }}
    vector.print %sum : i64
    %x = memref.load %C[%c0, %c0] : {ct}
    %y = memref.load %C[%cm1, %cn1] : {ct}
    vector.print %x : f32
    vector.print %y : f32
    gpu.dealloc %dA : {at}
    gpu.dealloc %dB : {bt}
    gpu.dealloc %dC : {ct}
    memref.dealloc %A : {at}
    memref.dealloc %B : {bt}
    memref.dealloc %C : {ct}
    return
  }}
"""


def _program(kernel_lines: list[str], p: dict, grid: tuple[int, int], threads: tuple[int, int]) -> str:
    m, n, k = p["m"], p["n"], p["k"]
    launch = (f"    %gx = arith.constant {grid[0]} : index\n    %gy = arith.constant {grid[1]} : index\n"
              f"    %tx = arith.constant {threads[0]} : index\n    %ty = arith.constant {threads[1]} : index\n"
              f"    gpu.launch_func @kernels::@gemm blocks in (%gx, %gy, %c1) threads in (%tx, %ty, %c1) "
              f"args(%dA : memref<{m}x{k}xf16>, %dB : memref<{k}x{n}xf16>, %dC : memref<{m}x{n}xf32>)")
    return ("module attributes {gpu.container_module} {\n" + "\n".join(kernel_lines) + "\n\n"
            + _host_main(m, n, k, launch) + "}\n")


def strip_barriers(text: str) -> str:
    """The same program without its barrier ops (``BARRIER_OPS``: each is one line of the generated text)."""
    out = []
    for line in text.splitlines(keepends=True):
        s = line.strip()
        if any(s.startswith(op) or f"= {op} " in s for op in BARRIER_OPS):
            continue
        out.append(line)
    return "".join(out)


def _check_size(name: str, p: dict, tm: int, tn: int, ks: int, min_steps: int = 1) -> None:
    m, n, k = p["m"], p["n"], p["k"]
    if m % tm or n % tn or k % ks or k // ks < min_steps:
        raise ValueError(f"{name} needs M % {tm} == N % {tn} == K % {ks} == 0 and at least {min_steps} K steps "
                         f"of {ks}, got {m}x{n}x{k}")


# ==================================================================================================== (a)
SG_TILE = 128  #: (a): rows = cols of C per workgroup; 16 subgroups as 4x4, 32x32 each


def sg_barrier_program(p: dict, barriers: bool = True) -> str:
    """(a) SG-level GEMM staging every K step's A and B tiles through SLM between two ``gpu.barrier``\\ s
    (module docstring).  ``p``: ``m``, ``n`` (multiples of 128), ``k`` (a multiple of 16); 16 subgroups per
    workgroup.  ``barriers=False``: the same text without the barriers (races on SLM)."""
    _check_size("(a)", p, SG_TILE, SG_TILE, 16)
    m, n, k = p["m"], p["n"], p["k"]
    a_mem, b_mem, c_mem = f"memref<{m}x{k}xf16>", f"memref<{k}x{n}xf16>", f"memref<{m}x{n}xf32>"
    md_a, md_b = "!xegpu.mem_desc<128x16xf16>", "!xegpu.mem_desc<16x128xf16>"
    td = "!xegpu.tensor_desc<8x16xf16>"
    ct = "vector<32x32xf32>"
    lines = f"""  gpu.module @kernels {{
    gpu.func @gemm(%a: {a_mem}, %b: {b_mem}, %c: {c_mem}) kernel {{
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %ck = arith.constant {k} : index
      %slm_a = memref.alloc() : memref<4096xi8, 3>
      %slm_b = memref.alloc() : memref<4096xi8, 3>
      %ma = xegpu.create_mem_desc %slm_a : memref<4096xi8, 3> -> {md_a}
      %mb = xegpu.create_mem_desc %slm_b : memref<4096xi8, 3> -> {md_b}
      %sg = gpu.subgroup_id : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %m0 = arith.muli %by, %c128 : index
      %n0 = arith.muli %bx, %c128 : index
      // staging: subgroup s copies A rows [8s, 8s + 8) and the 8x16 B piece at (8 (s mod 2), 16 (s / 2))
      %ar = arith.muli %sg, %c8 : index
      %ga = arith.addi %m0, %ar : index
      %sp = arith.remui %sg, %c2 : index
      %sq = arith.divui %sg, %c2 : index
      %br = arith.muli %sp, %c8 : index
      %bc = arith.muli %sq, %c16 : index
      %gb = arith.addi %n0, %bc : index
      // compute: subgroup s owns the 32x32 part of C at (32 (s / 4), 32 (s mod 4))
      %sy = arith.divui %sg, %c4 : index
      %sx = arith.remui %sg, %c4 : index
      %cr = arith.muli %sy, %c32 : index
      %cc = arith.muli %sx, %c32 : index
      %a_td = xegpu.create_nd_tdesc %a : {a_mem} -> {td}
      %b_td = xegpu.create_nd_tdesc %b : {b_mem} -> {td}
      %zero = arith.constant dense<0.0> : {ct}
      %acc = scf.for %kk = %c0 to %ck step %c16 iter_args(%sum = %zero) -> ({ct}) {{
        gpu.barrier
        %av = xegpu.load_nd %a_td[%ga, %kk] : {td} -> vector<8x16xf16>
        xegpu.store_matrix %av, %ma[%ar, %c0] : vector<8x16xf16>, {md_a}, index, index
        %kb = arith.addi %kk, %br : index
        %bv = xegpu.load_nd %b_td[%kb, %gb] : {td} -> vector<8x16xf16>
        xegpu.store_matrix %bv, %mb[%br, %bc] : vector<8x16xf16>, {md_b}, index, index
        gpu.barrier
        %sa = xegpu.load_matrix %ma[%cr, %c0] : {md_a}, index, index -> vector<32x16xf16>
        %sb = xegpu.load_matrix %mb[%c0, %cc] : {md_b}, index, index -> vector<16x32xf16>
        %d = xegpu.dpas %sa, %sb, %sum : vector<32x16xf16>, vector<16x32xf16>, {ct} -> {ct}
        scf.yield %d : {ct}
      }}
      %gr = arith.addi %m0, %cr : index
      %gc = arith.addi %n0, %cc : index
      %c_td = xegpu.create_nd_tdesc %c : {c_mem} -> !xegpu.tensor_desc<32x32xf32>
      xegpu.store_nd %acc, %c_td[%gr, %gc] : {ct}, !xegpu.tensor_desc<32x32xf32>
      gpu.return
    }}
  }}""".splitlines()
    text = _program(lines, p, (n // SG_TILE, m // SG_TILE), (256, 1))
    return text if barriers else strip_barriers(text)


# ==================================================================================================== (b)
VC_TILE = {"tm": 32, "tn": 32, "ks": 16, "tx": 4, "ty": 8}  #: (b): C per thread, K step, threads (x, y)
NBARRIER_EVERY = 8  #: (b): K steps between named-barrier synchronisations


def vc_nbarrier_program(p: dict, barriers: bool = True) -> str:
    """(b) VC-level GEMM whose 32 threads per workgroup synchronise through a named barrier every eighth K step
    (module docstring).  ``p``: ``m`` (a multiple of 256), ``n`` (of 128), ``k`` (of 16).  ``barriers=False``:
    the same text without the named-barrier ops (the ``scf.if`` then holds nothing but its condition)."""
    t = VC_TILE
    tm, tn, ks, tx, ty = t["tm"], t["tn"], t["ks"], t["tx"], t["ty"]
    _check_size("(b)", p, tm * ty, tn * tx, ks)
    m, n, k = p["m"], p["n"], p["k"]
    a_mem, b_mem, c_mem = f"memref<{m}x{k}xf16>", f"memref<{k}x{n}xf16>", f"memref<{m}x{n}xf32>"
    a_td = f"!xegpu.tensor_desc<{tm}x{ks}xf16>"
    b_td = f"!xegpu.tensor_desc<{ks}x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>"
    pb_td = f"!xegpu.tensor_desc<{ks}x{tn}xf16>"
    c_ty = "vector<8x16xf32>"
    hint = "l1_hint = #xegpu.cache_hint<cached>, l2_hint = #xegpu.cache_hint<cached>"
    accs = [(i, j) for i in range(tm // 8) for j in range(tn // 16)]
    L: list[str] = []  # noqa: N806 - the kernel's lines
    w = L.append
    w("  gpu.module @kernels {")
    w(f"    gpu.func @gemm(%a: {a_mem}, %b: {b_mem}, %c: {c_mem}) kernel "
      "attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {")
    for v in sorted({0, tm, tn, ks, tx, ty, k, NBARRIER_EVERY} | {8 * i for i, _ in accs} | {16 * j for _, j in accs}):
        w(f"      %i{v} = arith.constant {v} : index")
    w("      %nb_id = arith.constant 0 : i8")
    w(f"      %nb_n = arith.constant {tx * ty} : i8")
    w("      xegpu.alloc_nbarrier 16")
    w("      %nb = xegpu.init_nbarrier %nb_id, %nb_n : i8, i8 -> !xegpu.nbarrier")
    w("      %bx = gpu.block_id x")
    w("      %by = gpu.block_id y")
    w("      %tx = gpu.thread_id x")
    w("      %ty = gpu.thread_id y")
    w(f"      %bxt = arith.muli %bx, %i{tx} : index")
    w("      %gx = arith.addi %bxt, %tx : index")
    w(f"      %byt = arith.muli %by, %i{ty} : index")
    w("      %gy = arith.addi %byt, %ty : index")
    w(f"      %m = arith.muli %gy, %i{tm} : index")
    w(f"      %n = arith.muli %gx, %i{tn} : index")
    w(f"      %a0 = xegpu.create_nd_tdesc %a[%m, %i0] : {a_mem} -> {a_td}")
    w(f"      %b0 = xegpu.create_nd_tdesc %b[%i0, %n] : {b_mem} -> {b_td}")
    w(f"      %pa = xegpu.create_nd_tdesc %a[%m, %i0] : {a_mem} -> {a_td}")
    w(f"      %pb = xegpu.create_nd_tdesc %b[%i0, %n] : {b_mem} -> {pb_td}")
    w(f"      xegpu.prefetch_nd %pa {{{hint}}} : {a_td}")
    w(f"      xegpu.prefetch_nd %pb {{{hint}}} : {pb_td}")
    w(f"      %pa1 = xegpu.update_nd_offset %pa, [%i0, %i{ks}] : {a_td}")
    w(f"      %pb1 = xegpu.update_nd_offset %pb, [%i{ks}, %i0] : {pb_td}")
    w(f"      %zero = arith.constant dense<0.0> : {c_ty}")
    iters = ", ".join(f"%acc{i}{j} = %zero" for i, j in accs)
    types = ", ".join([c_ty] * len(accs) + [a_td, b_td, a_td, pb_td])
    w(f"      %r:{len(accs) + 4} = scf.for %kk = %i0 to %i{k} step %i{ks} iter_args({iters}, %at = %a0, %bt = %b0, "
      f"%pat = %pa1, %pbt = %pb1) -> ({types}) {{")
    w(f"        %step = arith.divui %kk, %i{ks} : index")
    w(f"        %phase = arith.remui %step, %i{NBARRIER_EVERY} : index")
    w("        %sync = arith.cmpi eq, %phase, %i0 : index")
    w("        scf.if %sync {")
    w("          xegpu.nbarrier_arrive %nb : !xegpu.nbarrier")
    w("        }")
    w(f"        %av = xegpu.load_nd %at {{l1_hint = #xegpu.cache_hint<cached>}} : {a_td} -> vector<{tm}x{ks}xf16>")
    w(f"        %bv = xegpu.load_nd %bt {{packed, l1_hint = #xegpu.cache_hint<cached>}} : {b_td} "
      f"-> vector<2x{ks // 2}x16x2xf16>")
    w(f"        xegpu.prefetch_nd %pat {{{hint}}} : {a_td}")
    w(f"        xegpu.prefetch_nd %pbt {{{hint}}} : {pb_td}")
    for i in range(tm // 8):
        w(f"        %as{i} = vector.extract_strided_slice %av {{offsets = [{8 * i}, 0], sizes = [8, {ks}], "
          f"strides = [1, 1]}} : vector<{tm}x{ks}xf16> to vector<8x{ks}xf16>")
    for j in range(tn // 16):
        w(f"        %bs{j} = vector.extract %bv[{j}] : vector<{ks // 2}x16x2xf16> from vector<2x{ks // 2}x16x2xf16>")
    for i, j in accs:
        w(f"        %d{i}{j} = xegpu.dpas %as{i}, %bs{j}, %acc{i}{j} : vector<8x{ks}xf16>, vector<{ks // 2}x16x2xf16>, "
          f"{c_ty} -> {c_ty}")
    w("        scf.if %sync {")
    w("          xegpu.nbarrier_wait %nb : !xegpu.nbarrier")
    w("        }")
    w(f"        %an = xegpu.update_nd_offset %at, [%i0, %i{ks}] : {a_td}")
    w(f"        %bn = xegpu.update_nd_offset %bt, [%i{ks}, %i0] : {b_td}")
    w(f"        %pan = xegpu.update_nd_offset %pat, [%i0, %i{ks}] : {a_td}")
    w(f"        %pbn = xegpu.update_nd_offset %pbt, [%i{ks}, %i0] : {pb_td}")
    yields = ", ".join(f"%d{i}{j}" for i, j in accs)
    w(f"        scf.yield {yields}, %an, %bn, %pan, %pbn : {types}")
    w("      }")
    for idx, (i, j) in enumerate(accs):
        w(f"      %ro{i}{j} = arith.addi %m, %i{8 * i} : index")
        w(f"      %co{i}{j} = arith.addi %n, %i{16 * j} : index")
        w(f"      %ct{i}{j} = xegpu.create_nd_tdesc %c[%ro{i}{j}, %co{i}{j}] : {c_mem} -> !xegpu.tensor_desc<8x16xf32>")
        w(f"      xegpu.store_nd %r#{idx}, %ct{i}{j} {{l1_hint = #xegpu.cache_hint<write_back>}} : {c_ty}, "
          "!xegpu.tensor_desc<8x16xf32>")
    w("      gpu.return")
    w("    }")
    w("  }")
    text = _program(L, p, (n // (tn * tx), m // (tm * ty)), (tx, ty))
    return text if barriers else strip_barriers(text)


# ==================================================================================================== (c)
PC_TILE = 64  #: (c): rows = cols of C per workgroup; 8 consumers as 4x2, 16x32 each


def _pc_step(w: Callable[[str], None], half: int, acc: str, out: str) -> None:
    """One K step of (c) (buffer and named barrier ``half``) inside the two-step loop body; ``acc`` is the
    consumer's accumulator going in, ``out`` the name of the step's result."""
    md_a, md_b = "!xegpu.mem_desc<128x16xf16>", "!xegpu.mem_desc<32x64xf16>"
    td = "!xegpu.tensor_desc<8x16xf16>"
    ct = "vector<16x32xf32>"
    k = "%kk" if half == 0 else "%kk1"
    w(f"        %{out} = scf.if %is_producer -> ({ct}) {{")
    w(f"          %av{half} = xegpu.load_nd %a_td[%ga, {k}] : {td} -> vector<8x16xf16>")
    w(f"          %sar{half} = arith.addi %ar, %i{64 * half} : index")
    w(f"          xegpu.store_matrix %av{half}, %ma[%sar{half}, %i0] : vector<8x16xf16>, {md_a}, index, index")
    w(f"          %kb{half} = arith.addi {k}, %br : index")
    w(f"          %bv{half} = xegpu.load_nd %b_td[%kb{half}, %gb] : {td} -> vector<8x16xf16>")
    w(f"          %sbr{half} = arith.addi %br, %i{16 * half} : index")
    w(f"          xegpu.store_matrix %bv{half}, %mb[%sbr{half}, %bc] : vector<8x16xf16>, {md_b}, index, index")
    w(f"          xegpu.nbarrier_arrive %nb{half} : !xegpu.nbarrier")
    w(f"          xegpu.nbarrier_wait %nb{half} : !xegpu.nbarrier")
    w(f"          scf.yield {acc} : {ct}")
    w("        } else {")
    w(f"          xegpu.nbarrier_arrive %nb{half} : !xegpu.nbarrier")
    w(f"          xegpu.nbarrier_wait %nb{half} : !xegpu.nbarrier")
    w(f"          %car{half} = arith.addi %cr, %i{64 * half} : index")
    w(f"          %sa{half} = xegpu.load_matrix %ma[%car{half}, %i0] : {md_a}, index, index -> vector<16x16xf16>")
    w(f"          %sb{half} = xegpu.load_matrix %mb[%i{16 * half}, %cc] : {md_b}, index, index -> vector<16x32xf16>")
    w(f"          %d{half} = xegpu.dpas %sa{half}, %sb{half}, {acc} : vector<16x16xf16>, vector<16x32xf16>, {ct} -> {ct}")
    w(f"          scf.yield %d{half} : {ct}")
    w("        }")


def producer_consumer_program(p: dict, barriers: bool = True) -> str:
    """(c) SG-level producer/consumer GEMM: subgroups 0-7 stage A and B tiles into two SLM buffers, subgroups 8-15
    compute, synchronised by two named barriers around role-dependent branches (module docstring).  ``p``:
    ``m``, ``n`` (multiples of 64), ``k`` (a multiple of 32: the loop body covers two K steps of 16).
    ``barriers=False``: the same text without the named-barrier ops (races on SLM)."""
    _check_size("(c)", p, PC_TILE, PC_TILE, 32)
    m, n, k = p["m"], p["n"], p["k"]
    a_mem, b_mem, c_mem = f"memref<{m}x{k}xf16>", f"memref<{k}x{n}xf16>", f"memref<{m}x{n}xf32>"
    md_a, md_b = "!xegpu.mem_desc<128x16xf16>", "!xegpu.mem_desc<32x64xf16>"  # two 64x16 / 16x64 buffers each
    td = "!xegpu.tensor_desc<8x16xf16>"
    ct = "vector<16x32xf32>"
    L: list[str] = []  # noqa: N806 - the kernel's lines
    w = L.append
    w("  gpu.module @kernels {")
    w(f"    gpu.func @gemm(%a: {a_mem}, %b: {b_mem}, %c: {c_mem}) kernel {{")
    for v in (0, 2, 8, 16, 32, 64, k):
        w(f"      %i{v} = arith.constant {v} : index")
    w("      %nb_id0 = arith.constant 0 : i8")
    w("      %nb_id1 = arith.constant 1 : i8")
    w("      %nb_n = arith.constant 16 : i8")
    w("      %slm_a = memref.alloc() : memref<4096xi8, 3>")
    w("      %slm_b = memref.alloc() : memref<4096xi8, 3>")
    w(f"      %ma = xegpu.create_mem_desc %slm_a : memref<4096xi8, 3> -> {md_a}")
    w(f"      %mb = xegpu.create_mem_desc %slm_b : memref<4096xi8, 3> -> {md_b}")
    w("      xegpu.alloc_nbarrier 2")
    w("      %nb0 = xegpu.init_nbarrier %nb_id0, %nb_n : i8, i8 -> !xegpu.nbarrier")
    w("      %nb1 = xegpu.init_nbarrier %nb_id1, %nb_n : i8, i8 -> !xegpu.nbarrier")
    w("      %sg = gpu.subgroup_id : index")
    w("      %is_producer = arith.cmpi ult, %sg, %i8 : index")
    w("      %q = arith.remui %sg, %i8 : index")
    w("      %bx = gpu.block_id x")
    w("      %by = gpu.block_id y")
    w("      %m0 = arith.muli %by, %i64 : index")
    w("      %n0 = arith.muli %bx, %i64 : index")
    w("      // producer q: A rows [8q, 8q + 8) of the 64x16 tile, the 8x16 B piece at (8 (q mod 2), 16 (q / 2))")
    w("      %ar = arith.muli %q, %i8 : index")
    w("      %ga = arith.addi %m0, %ar : index")
    w("      %qp = arith.remui %q, %i2 : index")
    w("      %qh = arith.divui %q, %i2 : index")
    w("      %br = arith.muli %qp, %i8 : index")
    w("      %bc = arith.muli %qh, %i16 : index")
    w("      %gb = arith.addi %n0, %bc : index")
    w("      // consumer q: the 16x32 part of C at (16 (q / 2), 32 (q mod 2))")
    w("      %cr = arith.muli %qh, %i16 : index")
    w("      %cc = arith.muli %qp, %i32 : index")
    w(f"      %a_td = xegpu.create_nd_tdesc %a : {a_mem} -> {td}")
    w(f"      %b_td = xegpu.create_nd_tdesc %b : {b_mem} -> {td}")
    w(f"      %zero = arith.constant dense<0.0> : {ct}")
    w(f"      %acc = scf.for %kk = %i0 to %i{k} step %i32 iter_args(%sum = %zero) -> ({ct}) {{")
    _pc_step(w, 0, "%sum", "s0")
    w("        %kk1 = arith.addi %kk, %i16 : index")
    _pc_step(w, 1, "%s0", "s1")
    w(f"        scf.yield %s1 : {ct}")
    w("      }")
    w("      scf.if %is_producer {")
    w("      } else {")
    w("        %gr = arith.addi %m0, %cr : index")
    w("        %gc = arith.addi %n0, %cc : index")
    w(f"        %c_td = xegpu.create_nd_tdesc %c : {c_mem} -> !xegpu.tensor_desc<16x32xf32>")
    w(f"        xegpu.store_nd %acc, %c_td[%gr, %gc] : {ct}, !xegpu.tensor_desc<16x32xf32>")
    w("      }")
    w("      gpu.return")
    w("    }")
    w("  }")
    text = _program(L, p, (n // PC_TILE, m // PC_TILE), (256, 1))
    return text if barriers else strip_barriers(text)


# ==================================================================================================== workloads
@dataclass(frozen=True)
class Workload:
    """A pair of programs: ``program(size, barriers)`` gives the MLIR text; ``full`` and ``quick`` are the sizes
    (``m``, ``n``, ``k`` of the GEMM, also the numpy matmul it is compared with); ``target`` says what the issue
    asks of it (``ratio``: with/without at most this; ``speedup``: at least this much faster than ``BASELINE``)."""

    key: str
    name: str
    title: str
    program: Callable[[dict, bool], str]
    full: dict
    quick: dict
    target: tuple[str, float]


WORKLOADS: dict[str, Workload] = {
    "a": Workload("a", "sg-barrier", "(a) SG level, 16 subgroups/WG, SLM staging between 2 gpu.barrier per K step",
                  sg_barrier_program, {"m": 2048, "n": 1024, "k": 1024}, {"m": 256, "n": 128, "k": 128},
                  ("ratio", 1.5)),
    "b": Workload("b", "vc-nbarrier", "(b) VC level, 32 threads/WG, named barrier every 8th K step",
                  vc_nbarrier_program, {"m": 2048, "n": 2048, "k": 1024}, {"m": 256, "n": 256, "k": 256},
                  ("ratio", 1.5)),
    "c": Workload("c", "producer-consumer", "(c) SG level, 8 producers + 8 consumers, 2 named barriers, 2 buffers",
                  producer_consumer_program, {"m": 1024, "n": 1024, "k": 512}, {"m": 128, "n": 64, "k": 128},
                  ("speedup", 20.0)),
}

# ==================================================================================================== baseline
#: Figures of the full-size programs on the code before the lockstep rewrite (commit bf6b328: subgroups of a
#: workgroup that synchronise run as OS threads handing control to each other), measured on 2026-11-27 on the 2-core
#: VM: ``python tools/bench_barriers.py --baseline-root /tmp/xesim-baseline --repeat 3``, then again with
#: ``--repeat 2`` (the old code checked out with ``git worktree add /tmp/xesim-baseline bf6b328``; the children
#: imported xesim from there, checked by the runner).  Each figure is the best of the five timed runs, wall and CPU
#: taken separately (seconds of the child process ``xesim run``: start-up, host init, the kernel, the host
#: checksum).  The machine was busy: another engineer's tests ran at the same time, with /proc/loadavg's 1-minute
#: figure between 2.3 and 7.2 during the runs (2.8-6.2 in the first pass, which gave every best figure except
#: (c) without: 8.11 s wall / 8.21 s CPU in the second); wall and CPU agree within a few percent in the best runs.
#: numpy's float32 matmul of the same sizes took (a) 0.048 s, (b) 0.133-0.151 s, (c) 0.023-0.024 s then.
BASELINE: dict = {
    "commit": "bf6b328", "date": "2026-11-27", "machine": "2-core VM", "load": "2.3-7.2 (1-min loadavg)",
    "figures": {
        "a": {"size": [2048, 1024, 1024], "with": {"wall": 62.61, "cpu": 58.96},
              "without": {"wall": 17.42, "cpu": 16.60}},
        "b": {"size": [2048, 2048, 1024], "with": {"wall": 70.44, "cpu": 66.17},
              "without": {"wall": 3.29, "cpu": 2.97}},
        "c": {"size": [1024, 1024, 512], "with": {"wall": 37.51, "cpu": 35.73},
              "without": {"wall": 8.11, "cpu": 8.21}},
    },
}


# ==================================================================================================== runner
def _bench_module() -> ModuleType:
    """tools/bench.py as a module (tools/ is not a package), for ``numpy_matmul_s``."""
    name = "_xesim_tools_bench"
    if name not in sys.modules:  # registered first: its dataclasses look their module up
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("bench.py"))
        mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        sys.modules[name] = mod
        spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return sys.modules[name]


def child_env(root: Path, cache: Path) -> dict:
    """Environment of the child processes: xesim imported from ``root``, one job, this run's caches."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as tools/bench.py: an installed xesim has its bytecode cached
    env["PYTHONPATH"] = str(root) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["XESIM_JOBS"] = "1"
    env["XESIM_CACHE_DIR"] = str(cache / "xesim")
    env["NUMBA_CACHE_DIR"] = str(cache / "numba")
    return env


def imported_xesim(env: dict, cwd: str) -> str:
    """The ``xesim/__init__.py`` a child with ``env`` imports."""
    proc = subprocess.run([sys.executable, "-c", "import xesim; print(xesim.__file__)"], env=env, cwd=cwd,
                          capture_output=True, text=True, check=True)
    return proc.stdout.strip()


@dataclass
class Run:
    """One child run: wall and CPU seconds, what it printed, the 1-minute load average before and after."""

    wall: float
    cpu: float
    output: str
    load: tuple[float, float]


def run_program(path: str, env: dict, cwd: str, timeout: float | None = None) -> Run:
    """``python -m xesim.cli run path`` in a fresh process; wall time around it, CPU time (user + system) from
    ``resource.getrusage(RUSAGE_CHILDREN)``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "xesim.cli", "run", path], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{path}: xesim exited with {proc.returncode}:\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, proc.stdout, (load0, os.getloadavg()[0]))


def measure(keys: list[str], quick: bool, repeat: int, root: Path, timeout: float | None = None,
            log: Callable[[str], None] = print) -> list[dict]:
    """Run the with/without programs of ``keys``: untimed warm-up runs (module docstring), then ``repeat``
    alternating timed runs of both; a record per workload with the best wall and CPU times."""
    bench = _bench_module()
    records = []
    with tempfile.TemporaryDirectory(prefix="xesim-bench-barriers-") as tmp:
        env = child_env(root, Path(tmp) / "cache")
        where = imported_xesim(env, tmp)
        if not Path(where).resolve().is_relative_to(root.resolve()):
            raise RuntimeError(f"the children import xesim from {where}, not from {root}")
        log(f"xesim from {where}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for key in keys:
            w = WORKLOADS[key]
            p = w.quick if quick else w.full
            mnk = (p["m"], p["n"], p["k"])
            expected = expected_output(*mnk)
            paths = {}
            for variant, barriers in (("with", True), ("without", False)):
                paths[variant] = os.path.join(tmp, f"{w.name}-{variant}.mlir")
                with open(paths[variant], "w") as f:
                    f.write(w.program(p, barriers))
            np_s = bench.numpy_matmul_s(*mnk)
            # untimed warm-up: the quick programs compile (into this run's caches) the numba code of the kernel's
            # ops on both paths, the full-size program without barriers the host loops both programs share
            warm = [os.path.join(tmp, f"{w.name}-warm-{v}.mlir") for v in ("with", "without")]
            for wp, barriers in zip(warm, (True, False)):
                with open(wp, "w") as f:
                    f.write(w.program(w.quick, barriers))
            if not quick:
                warm.append(paths["without"])
            t0 = time.perf_counter()
            for wp in warm:
                run_program(wp, env, tmp, timeout)
            log(f"  {key} warm-up: {time.perf_counter() - t0:.2f} s")
            runs: dict[str, list[Run]] = {"with": [], "without": []}
            for _ in range(max(1, repeat)):
                for variant in ("with", "without"):
                    r = run_program(paths[variant], env, tmp, timeout)
                    runs[variant].append(r)
                    log(f"  {key} {variant}: {r.wall:.2f} s wall, {r.cpu:.2f} s CPU, load {r.load[0]:.2f}-"
                        f"{r.load[1]:.2f}{'' if r.output == expected else ' (output differs)'}")
            rec = {"key": key, "name": w.name, "size": mnk, "numpy_s": np_s, "quick": quick,
                   "loads": [x for v in runs.values() for r in v for x in r.load]}
            for variant, rs in runs.items():
                rec[variant] = {"wall": min(r.wall for r in rs), "cpu": min(r.cpu for r in rs),
                                "correct": all(r.output == expected for r in rs)}
            records.append(rec)
    return records


def print_table(records: list[dict], out: TextIO = sys.stdout) -> None:
    """The figures of ``records``: times, with/without ratio, ratios to numpy, and against ``BASELINE``."""
    head = (f"{'workload':<20}{'M x N x K':<17}{'with s':>8}{'cpu':>8}{'w/o s':>8}{'cpu':>8}{'with/w/o':>9}"
            f"{'np s':>9}{'with/np':>10}{'w/o/np':>10}  ok  w/o ok")
    print(head, file=out)
    print("-" * len(head), file=out)
    for r in records:
        wi, wo = r["with"], r["without"]
        size = "x".join(str(v) for v in r["size"])
        print(f"{r['key'] + ' ' + r['name']:<20}{size:<17}{wi['wall']:>8.2f}{wi['cpu']:>8.2f}{wo['wall']:>8.2f}"
              f"{wo['cpu']:>8.2f}{wi['wall'] / wo['wall']:>9.2f}{r['numpy_s']:>9.4f}{wi['wall'] / r['numpy_s']:>10.0f}"
              f"{wo['wall'] / r['numpy_s']:>10.0f}  {'yes' if wi['correct'] else 'NO':<4}"
              f"{'yes' if wo['correct'] else 'no (racy)' if r['key'] != 'b' else 'NO'}", file=out)
    loads = [x for r in records for x in r["loads"]]
    if loads:
        print(f"load average (1 min) during the runs: {min(loads):.2f}-{max(loads):.2f}", file=out)
    base = BASELINE["figures"]
    rows = [r for r in records if not r["quick"] and r["key"] in base]
    if not rows:
        return
    print(f"\nagainst the code before the rewrite (commit {BASELINE['commit']}, {BASELINE['date']}, "
          f"{BASELINE['machine']}, load {BASELINE['load']}); speed-up = before / now", file=out)
    head = (f"{'workload':<20}{'before with s':>14}{'cpu':>8}{'w/o s':>8}{'with/w/o':>9}{'now with s':>11}{'cpu':>8}"
            f"{'speed-up':>9}{'cpu':>7}  target")
    print(head, file=out)
    print("-" * len(head), file=out)
    for r in rows:
        b = base[r["key"]]
        if tuple(b["size"]) != tuple(r["size"]):
            print(f"{r['key'] + ' ' + r['name']:<20}(baseline measured at another size: {b['size']})", file=out)
            continue
        wi, wo = r["with"], r["without"]
        kind, goal = WORKLOADS[r["key"]].target
        if kind == "ratio":
            met = wi["wall"] / wo["wall"] <= goal
            tgt = f"with/w/o <= {goal:g}: {'met' if met else 'not met'}"
        else:
            met = b["with"]["wall"] / wi["wall"] >= goal
            tgt = f"speed-up >= {goal:g}: {'met' if met else 'not met'}"
        print(f"{r['key'] + ' ' + r['name']:<20}{b['with']['wall']:>14.2f}{b['with']['cpu']:>8.2f}"
              f"{b['without']['wall']:>8.2f}{b['with']['wall'] / b['without']['wall']:>9.2f}{wi['wall']:>11.2f}"
              f"{wi['cpu']:>8.2f}{b['with']['wall'] / wi['wall']:>9.2f}{b['with']['cpu'] / wi['cpu']:>7.2f}  {tgt}",
              file=out)


def baseline_literal(records: list[dict]) -> str:
    """``records`` as the ``figures`` entry of ``BASELINE`` (rounded to 0.01 s)."""
    lines = ["    \"figures\": {"]
    for r in records:
        def fig(v: dict) -> str:
            return f"{{\"wall\": {v['wall']:.2f}, \"cpu\": {v['cpu']:.2f}}}"
        lines.append(f"        \"{r['key']}\": {{\"size\": {list(r['size'])}, \"with\": {fig(r['with'])},\n"
                     f"              \"without\": {fig(r['without'])}}},")
    lines.append("    },")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line (module docstring); exit 1 when a with-barrier program printed a wrong result."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    ap.add_argument("--repeat", type=int, default=2, help="timed runs of each program; the best is kept")
    ap.add_argument("--only", default="a,b,c", help="comma-separated workloads (a, b, c)")
    ap.add_argument("--baseline-root", metavar="PATH",
                    help="run the programs with xesim from this checkout (the code before the rewrite) and print "
                         "the figures as BASELINE")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds one child may take")
    args = ap.parse_args(argv)
    keys = [k.strip() for k in args.only.split(",") if k.strip()]
    bad = [k for k in keys if k not in WORKLOADS]
    if bad:
        ap.error(f"unknown workload(s) {bad}; choose from {sorted(WORKLOADS)}")
    root = Path(args.baseline_root) if args.baseline_root else ROOT
    records = measure(keys, args.quick, args.repeat, root, args.timeout,
                      log=lambda s: print(s, file=sys.stderr, flush=True))
    if args.baseline_root:
        BASELINE["figures"] = {}  # a baseline run is not compared with itself
    print_table(records)
    if args.baseline_root:
        print("\nBASELINE figures of this run (paste into tools/bench_barriers.py):")
        print(baseline_literal(records))
    return 0 if all(r["with"]["correct"] for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
