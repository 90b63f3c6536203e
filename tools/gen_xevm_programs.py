"""Generate the lane-level XeVM whole programs of tests/e2e/xevm_*.mlir with CHECK lines derived independently of
xesim.

Every expected value is computed here with numpy / ml_dtypes from the rules of shared/spec/upstream-xegpu-xevm.md
§4.1 (2D block load: surface bounds, zero fill, the per-lane mapping of plain, transposed and pack_register loads),
§4.2 (2D block store), §4.5 (mma), §4.6 / §5.3 (mma_mx) and the printMemref format of
shared/spec/programs-and-runner.md §1.1; nothing imports xesim.  Inputs are seeded, so the files are reproducible:

    python tools/gen_xevm_programs.py            # rewrite the programs
    python tools/gen_xevm_programs.py --check    # exit 1 if a program differs from what would be generated

The programs are written as upstream's XeVM integration programs are: a host ``main`` with ``gpu.alloc`` /
``gpu.memcpy``, pointers made by ``memref.extract_aligned_pointer_as_index`` -> ``llvm.inttoptr`` ->
``llvm.addrspacecast``, ``gpu.launch_func`` of a kernel on ``!llvm.ptr<1>`` arguments, and ``printMemref``.  Load
programs store each lane's fragment (sign-extended to i32) at ``out[lane]`` with ``llvm.getelementptr`` /
``llvm.store``, so the printed matrix is the lane mapping itself (row = lane, column = component).
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
SG = 16


# ------------------------------------------------------------------------------------------ printing
def g(x: float) -> str:
    """printf("%g") (programs-and-runner.md §1.1, number formatting)."""
    return f"{x:g}"


def memref_lines(a: np.ndarray, fmt=str) -> list[str]:
    """printMemref's output for a 2-D array (programs-and-runner.md §1.1): header, then one row per line."""
    rows, cols = a.shape
    head = (f"Unranked Memref base@ = {{{{0x[0-9a-f]+}}}} rank = 2 offset = 0 sizes = [{rows}, {cols}] "
            f"strides = [{cols}, 1] data =")
    out = [head]
    for r in range(rows):
        body = ",   ".join(fmt(x) for x in a[r])
        # FileCheck reads "[[" as a substitution: the brackets are matched through a regex block
        out.append(("{{\\[\\[}}" if r == 0 else "{{\\[}}") + body + ("]]" if r == rows - 1 else "],"))
    return out


def check_block(lines: list[str]) -> str:
    return "\n".join(("// CHECK: " if i == 0 else "// CHECK-NEXT: ") + s for i, s in enumerate(lines))


def dense(a: np.ndarray) -> str:
    if a.ndim == 1:
        return "[" + ", ".join(str(x) for x in a.tolist()) + "]"
    return "[" + ", ".join(dense(r) for r in a) + "]"


# ------------------------------------------------------------------------------------------ the spec's rules
def next_pow2(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def block_matrix(surf: np.ndarray, x: int, y: int, tw: int, th: int, b: int) -> np.ndarray:
    """§4.1: M_b[r][c] = surface[Y][X] inside the surface, else 0, with X = x + b·tw + c, Y = y + r."""
    h, w = surf.shape
    m = np.zeros((th, tw), surf.dtype)
    for r in range(th):
        for c in range(tw):
            xx, yy = x + b * tw + c, y + r
            if 0 <= xx < w and 0 <= yy < h:
                m[r, c] = surf[yy, xx]
    return m


def plain_lanes(rows: np.ndarray) -> list[list[int]]:
    """§4.1 plain rule for one (already transposed, if so) block given as rows: each lane's elements in order."""
    n_rows, width = rows.shape
    wp = next_pow2(width)
    padded = np.zeros((n_rows, wp), rows.dtype)
    padded[:, :width] = rows
    lanes: list[list[int]] = [[] for _ in range(SG)]
    if wp == SG:
        for r in range(n_rows):
            for i in range(SG):
                lanes[i].append(padded[r, i])
    elif wp > SG:
        q = wp // SG
        for r in range(n_rows):
            for i in range(SG):
                lanes[i].extend(padded[r, i * q:(i + 1) * q])
    else:
        grp = SG // wp
        for big in range(-(-n_rows // grp)):
            for i in range(SG):
                r = big * grp + i // wp
                lanes[i].append(padded[r, i % wp] if r < n_rows else 0)
    return lanes


def load_lanes(surf: np.ndarray, x: int, y: int, tw: int, th: int, vb: int, transpose: bool, pack: bool
               ) -> np.ndarray:
    """The bytes every lane receives (§4.1), ``[16, bytes]``."""
    e = surf.dtype.itemsize
    per_lane: list[bytes] = [b""] * SG
    for b in range(vb):
        m = block_matrix(surf, x, y, tw, th, b)
        if pack:  # K = 4/e rows per dword, lowest row in the lowest bits; lane i takes dword i of each register row
            k = 4 // e
            for big in range(-(-th // k)):
                for i in range(SG):
                    word = 0
                    for j in range(k):
                        r = big * k + j
                        v = int(m[r, i]) & ((1 << (8 * e)) - 1) if r < th else 0
                        word |= v << (8 * e * j)
                    per_lane[i] += word.to_bytes(4, "little")
        else:
            lanes = plain_lanes(m.T if transpose else m)
            for i in range(SG):
                per_lane[i] += np.array(lanes[i], surf.dtype).tobytes()
    return np.frombuffer(b"".join(per_lane), np.uint8).reshape(SG, -1)


# ------------------------------------------------------------------------------------------ program text
INT = {8: "i8", 16: "i16", 32: "i32"}


def pointer(name: str, memref: str) -> str:
    return (f"    %{name}_i = memref.extract_aligned_pointer_as_index %{name} : {memref} -> index\n"
            f"    %{name}_64 = arith.index_cast %{name}_i : index to i64\n"
            f"    %{name}_g = llvm.inttoptr %{name}_64 : i64 to !llvm.ptr\n"
            f"    %{name}_p = llvm.addrspacecast %{name}_g : !llvm.ptr to !llvm.ptr<1>\n")


def header(text: str, chip: str = "pvc") -> str:
    return (f"// GENERATED by tools/gen_xevm_programs.py; do not edit.  {text}\n"
            f"// The expected output (CHECK lines) comes from the generator's own numpy model of the spec's rules.\n"
            f"// RUN: xesim check %s\n\n"
            f"module attributes {{gpu.container_module}} {{\n"), f'[#xevm.target<chip = "{chip}">]'


def i32_consts(**vals: int) -> str:
    return "".join(f"      %{k} = arith.constant {v} : i32\n" for k, v in vals.items())


def load_program(title: str, seed: int, bits: int, surf_hw: tuple[int, int], x: int, y: int, tw: int, th: int,
                 vb: int = 1, transpose: bool = False, pack: bool = False) -> str:
    rng = np.random.default_rng(seed)
    dt = {8: np.int8, 16: np.int16, 32: np.int32}[bits]
    h, w = surf_hw
    lo, hi = (-100, 100) if bits == 8 else (-30000, 30000)
    surf = rng.integers(lo, hi, (h, w)).astype(dt)
    lanes = load_lanes(surf, x, y, tw, th, vb, transpose, pack)
    res_bits = 32 if pack or bits == 32 else bits
    n = lanes.shape[1] * 8 // res_bits
    rdt = {8: np.int8, 16: np.int16, 32: np.int32}[res_bits]
    want = np.ascontiguousarray(lanes).view(rdt).astype(np.int32)  # [16, n], sign-extended for printing
    et = INT[bits]
    rt = f"vector<{n}x{INT[res_bits]}>"
    # sign-extend narrower fragments to i32 for printMemrefI32
    ext = f"      %w = arith.extsi %v : {rt} to vector<{n}xi32>\n" if res_bits < 32 else ""
    stored = "%w" if res_bits < 32 else "%v"
    head, target = header(title)
    mem = f"memref<{h}x{w}x{et}>"
    props = (f"<{{elem_size_in_bits = {bits} : i32, pack_register = {str(pack).lower()}, tile_height = {th} : i32, "
             f"tile_width = {tw} : i32, transpose = {str(transpose).lower()}, v_blocks = {vb} : i32}}>")
    return head + f"""  memref.global "private" constant @S : {mem} = dense<{dense(surf)}>
  gpu.module @kernels {target} {{
    gpu.func @load(%src: !llvm.ptr<1>, %out: !llvm.ptr<1>) kernel {{
{i32_consts(bw=w * bits // 8, bh=h, bp=w * bits // 8, x=x, y=y)}      %v = xevm.blockload2d %src, %bw, %bh, %bp, %x, %y {props} : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> {rt}
{ext}      %lane = xevm.lane_id : i32
      %q = llvm.getelementptr inbounds %out[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<{n}xi32>
      llvm.store {stored}, %q <{{alignment = 4 : i64}}> : vector<{n}xi32>, !llvm.ptr<1>
      gpu.return
    }}
  }}

  func.func @main() {{
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %S = memref.get_global @S : {mem}
    %s = gpu.alloc () : {mem}
    gpu.memcpy %s, %S : {mem}, {mem}
    %o = gpu.alloc () : memref<16x{n}xi32>
{pointer("s", mem)}{pointer("o", f"memref<16x{n}xi32>")}    gpu.launch_func @kernels::@load blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%s_p : !llvm.ptr<1>, %o_p : !llvm.ptr<1>)
    %h = memref.alloc () : memref<16x{n}xi32>
    gpu.memcpy %h, %o : memref<16x{n}xi32>, memref<16x{n}xi32>
    %u = memref.cast %h : memref<16x{n}xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %s : {mem}
    gpu.dealloc %o : memref<16x{n}xi32>
    memref.dealloc %h : memref<16x{n}xi32>
    return
  }}
  func.func private @printMemrefI32(memref<*xi32>) attributes {{llvm.emit_c_interface}}
}}

{check_block(memref_lines(want))}
"""


def store_program() -> str:
    """§4.2: lane i component r holds 1000·r + i; an 8x16 32-bit block stored at (8, 4) on a 10x20 surface filled with
    -1: the plain mapping puts lane i's component r at block element [r][i]; rows >= 10 and columns >= 20 dropped."""
    h, w, x, y, th, tw = 10, 20, 8, 4, 8, 16
    surf = np.full((h, w), -1, np.int32)
    for r in range(th):
        for i in range(tw):
            if y + r < h and x + i < w:
                surf[y + r, x + i] = 1000 * r + i
    head, target = header("2D block store (xevm.blockstore2d, §4.2): lane fragments scattered into an 8x16 block "
                          "reaching past the surface's right and bottom edges (those elements dropped).")
    mem = f"memref<{h}x{w}xi32>"
    return head + f"""  gpu.module @kernels {target} {{
    gpu.func @store(%dst: !llvm.ptr<1>) kernel {{
{i32_consts(bw=w * 4, bh=h, bp=w * 4, x=x, y=y)}      %tid = gpu.thread_id x
      %t64 = arith.index_cast %tid : index to i64
      %lane = llvm.trunc %t64 : i64 to i32
      %steps = arith.constant dense<[0, 1000, 2000, 3000, 4000, 5000, 6000, 7000]> : vector<8xi32>
      %lv = vector.broadcast %lane : i32 to vector<8xi32>
      %v = arith.addi %steps, %lv : vector<8xi32>
      xevm.blockstore2d %dst, %bw, %bh, %bp, %x, %y, %v <{{elem_size_in_bits = 32 : i32, tile_height = {th} : i32, tile_width = {tw} : i32}}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
      gpu.return
    }}
  }}

  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %ch = arith.constant {h} : index
    %cw = arith.constant {w} : index
    %m1 = arith.constant -1 : i32
    %init = memref.alloc () : {mem}
    scf.for %i = %c0 to %ch step %c1 {{
      scf.for %j = %c0 to %cw step %c1 {{
        memref.store %m1, %init[%i, %j] : {mem}
      }}
    }}
    %d = gpu.alloc () : {mem}
    gpu.memcpy %d, %init : {mem}, {mem}
{pointer("d", mem)}    gpu.launch_func @kernels::@store blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%d_p : !llvm.ptr<1>)
    %h = memref.alloc () : {mem}
    gpu.memcpy %h, %d : {mem}, {mem}
    %u = memref.cast %h : {mem} to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %d : {mem}
    memref.dealloc %h : {mem}
    memref.dealloc %init : {mem}
    return
  }}
  func.func private @printMemrefI32(memref<*xi32>) attributes {{llvm.emit_c_interface}}
}}

{check_block(memref_lines(surf))}
"""


def f32_dense(a: np.ndarray) -> str:
    return dense(np.vectorize(lambda v: repr(float(v)))(a).astype(object)) if a.ndim else repr(float(a))


def gemm_host(globals_: list[tuple[str, str, np.ndarray]], args: list[tuple[str, str]], out_m: int, out_n: int,
              kernel: str) -> str:
    lines = ["  func.func @main() {", "    %c1 = arith.constant 1 : index", "    %c16 = arith.constant 16 : index"]
    for name, mem, _ in globals_:
        lines += [f"    %{name}g = memref.get_global @{name} : {mem}", f"    %{name} = gpu.alloc () : {mem}",
                  f"    gpu.memcpy %{name}, %{name}g : {mem}, {mem}"]
    dmem = f"memref<{out_m}x{out_n}xf32>"
    lines.append(f"    %D = gpu.alloc () : {dmem}")
    text = "\n".join(lines) + "\n"
    for name, mem in args:
        text += pointer(name, mem)
    text += (f"    gpu.launch_func @kernels::@{kernel} blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args("
             + ", ".join(f"%{n}_p : !llvm.ptr<1>" for n, _ in args) + ")\n"
             f"    %h = memref.alloc () : {dmem}\n    gpu.memcpy %h, %D : {dmem}, {dmem}\n"
             f"    %u = memref.cast %h : {dmem} to memref<*xf32>\n"
             "    call @printMemrefF32(%u) : (memref<*xf32>) -> ()\n"
             + "".join(f"    gpu.dealloc %{name} : {mem}\n" for name, mem in args)
             + f"    memref.dealloc %h : {dmem}\n    return\n  }}\n"
             "  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}\n}\n")
    return text


def globals_text(globals_: list[tuple[str, str, np.ndarray]]) -> str:
    out = ""
    for name, mem, data in globals_:
        body = f32_dense(data) if data.dtype.kind == "f" else dense(data)
        out += f'  memref.global "private" constant @{name} : {mem} = dense<{body}>\n'
    return out


def mma_program() -> str:
    """§4.5: D = C + A·B with f16 A (8x32, two K=16 steps), f16 B (32x16 of a 32x32 surface, pack_register loads),
    f32 C; small integers, so every DPAS rounding model gives the exact result."""
    rng = np.random.default_rng(31)
    a = rng.integers(-4, 5, (8, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    c = rng.integers(-50, 51, (8, 16)).astype(np.float32)
    d = c.astype(np.float64) + a.astype(np.float64) @ b[:, :16].astype(np.float64)
    head, target = header("Lane-level DPAS (xevm.mma, §4.5): f16 A 8x32 and B 32x16 loaded by xevm.blockload2d "
                          "(B with pack_register, the VNNI layout mma expects), two K = 16 steps accumulated into an f32 C, "
                          "the result stored by xevm.blockstore2d.")
    a_bits, b_bits = a.view(np.int16), b.view(np.int16)
    gl = [("A", "memref<8x32xi16>", a_bits), ("B", "memref<32x32xi16>", b_bits), ("C", "memref<8x16xf32>", c)]
    lp = "pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32"
    bp_ = "pack_register = true, tile_height = 16 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32"
    ptr6 = "(!llvm.ptr<1>, i32, i32, i32, i32, i32)"
    kern = f"""  gpu.module @kernels {target} {{
    gpu.func @mma(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: !llvm.ptr<1>, %d: !llvm.ptr<1>) kernel {{
{i32_consts(w64=64, h8=8, h32=32, zero=0, k16=16)}      %a0 = xevm.blockload2d %a, %w64, %h8, %w64, %zero, %zero <{{elem_size_in_bits = 16 : i32, {lp}}}> : {ptr6} -> vector<8xi16>
      %a1 = xevm.blockload2d %a, %w64, %h8, %w64, %k16, %zero <{{elem_size_in_bits = 16 : i32, {lp}}}> : {ptr6} -> vector<8xi16>
      %b0 = xevm.blockload2d %b, %w64, %h32, %w64, %zero, %zero <{{elem_size_in_bits = 16 : i32, {bp_}}}> : {ptr6} -> vector<8xi32>
      %b1 = xevm.blockload2d %b, %w64, %h32, %w64, %zero, %k16 <{{elem_size_in_bits = 16 : i32, {bp_}}}> : {ptr6} -> vector<8xi32>
      %c0 = xevm.blockload2d %c, %w64, %h8, %w64, %zero, %zero <{{elem_size_in_bits = 32 : i32, {lp}}}> : {ptr6} -> vector<8xf32>
      %d0 = xevm.mma %a0, %b0, %c0 {{shape = <m = 8, n = 16, k = 16>, types = <d = f32, a = f16, b = f16, c = f32>}} : (vector<8xi16>, vector<8xi32>, vector<8xf32>) -> vector<8xf32>
      %d1 = xevm.mma %a1, %b1, %d0 {{shape = <m = 8, n = 16, k = 16>, types = <d = f32, a = f16, b = f16, c = f32>}} : (vector<8xi16>, vector<8xi32>, vector<8xf32>) -> vector<8xf32>
      xevm.blockstore2d %d, %w64, %h8, %w64, %zero, %zero, %d1 <{{elem_size_in_bits = 32 : i32, tile_height = 8 : i32, tile_width = 16 : i32}}> : {ptr6[:-1]}, vector<8xf32>)
      gpu.return
    }}
  }}

"""
    host = gemm_host(gl, [("A", "memref<8x32xi16>"), ("B", "memref<32x32xi16>"), ("C", "memref<8x16xf32>"),
                          ("D", "memref<8x16xf32>")], 8, 16, "mma")
    return head + globals_text(gl) + kern + host + "\n" + check_block(memref_lines(d.astype(np.float32), g)) + "\n"


FP8 = {"f8": ml_dtypes.float8_e4m3fn, "bf8": ml_dtypes.float8_e5m2}


def mma_mx_program() -> str:
    """§4.6, §5.3: D = C + 2^(sa-127)·2^(sb-127)·A·B (one 32-element K block), f8E4M3FN A 8x32 (plain 8-bit load:
    lane i holds A[r][2i..2i+1], bit cast to vector<8xi16>) and B 32x16 (pack_register, four k per dword); scale_a
    of row i on lane i < 8 (lanes 8..15 hold the NaN code 0xFF, which the hardware ignores), scale_b of column j on
    lane j, each loaded by llvm.load from the lane's own address."""
    rng = np.random.default_rng(37)
    grid = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, -0.5, -1.0, -2.0, -3.0])
    a = rng.choice(grid, (8, 32)).astype(FP8["f8"])
    b = rng.choice(grid, (32, 16)).astype(FP8["f8"])
    c = rng.integers(-20, 21, (8, 16)).astype(np.float32)
    sa = np.concatenate([rng.integers(124, 131, 8), np.full(8, 255)]).astype(np.uint8)
    sb = rng.integers(124, 131, 16).astype(np.uint8)
    d = np.empty((8, 16), np.float32)
    for i in range(8):
        for j in range(16):
            s = sum(Fraction(float(a[i, k])) * Fraction(float(b[k, j])) for k in range(32))
            v = Fraction(float(c[i, j])) + s * Fraction(2) ** (int(sa[i]) + int(sb[j]) - 254)
            assert float(np.float32(float(v))) == v
            d[i, j] = np.float32(float(v))
    # B's surface is 64 bytes wide (the minimum on pvc; cri allows less): columns 16..63 are padding
    bsurf = np.zeros((32, 64), np.uint8)
    bsurf[:, :16] = b.view(np.uint8)
    head, target = header("Lane-level block-scaled DPAS (xevm.mma_mx, §4.6, §5.3) on cri: f8E4M3FN A 8x32 and "
                          "B 32x16 from xevm.blockload2d, E8M0 scales per lane by llvm.load.", chip="cri")
    gl = [("A", "memref<8x32xi8>", a.view(np.int8)), ("B", "memref<32x64xi8>", bsurf.view(np.int8)),
          ("C", "memref<8x16xf32>", c), ("SA", "memref<16xi8>", sa.view(np.int8)),
          ("SB", "memref<16xi8>", sb.view(np.int8))]
    ptr6 = "(!llvm.ptr<1>, i32, i32, i32, i32, i32)"
    kern = f"""  gpu.module @kernels {target} {{
    gpu.func @mma_mx(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: !llvm.ptr<1>, %sa: !llvm.ptr<1>, %sb: !llvm.ptr<1>, %d: !llvm.ptr<1>) kernel {{
{i32_consts(w32=32, w64=64, h8=8, h32=32, zero=0)}      %a8 = xevm.blockload2d %a, %w32, %h8, %w32, %zero, %zero <{{elem_size_in_bits = 8 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 32 : i32, transpose = false, v_blocks = 1 : i32}}> : {ptr6} -> vector<16xi8>
      %a16 = llvm.bitcast %a8 : vector<16xi8> to vector<8xi16>
      %b32 = xevm.blockload2d %b, %w64, %h32, %w64, %zero, %zero <{{elem_size_in_bits = 8 : i32, pack_register = true, tile_height = 32 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}}> : {ptr6} -> vector<8xi32>
      %c0 = xevm.blockload2d %c, %w64, %h8, %w64, %zero, %zero <{{elem_size_in_bits = 32 : i32, pack_register = false, tile_height = 8 : i32, tile_width = 16 : i32, transpose = false, v_blocks = 1 : i32}}> : {ptr6} -> vector<8xf32>
      %lane = xevm.lane_id : i32
      %pa = llvm.getelementptr %sa[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
      %pb = llvm.getelementptr %sb[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
      %scale_a = llvm.load %pa : !llvm.ptr<1> -> i8
      %scale_b = llvm.load %pb : !llvm.ptr<1> -> i8
      %d0 = xevm.mma_mx %a16, %b32, %scale_a, %scale_b, %c0 {{shape = <m = 8, n = 16, k = 32>, types = <d = f32, a = f8, b = f8, c = f32>}} : (vector<8xi16>, vector<8xi32>, i8, i8, vector<8xf32>) -> vector<8xf32>
      xevm.blockstore2d %d, %w64, %h8, %w64, %zero, %zero, %d0 <{{elem_size_in_bits = 32 : i32, tile_height = 8 : i32, tile_width = 16 : i32}}> : {ptr6[:-1]}, vector<8xf32>)
      gpu.return
    }}
  }}

"""
    host = gemm_host(gl, [(n, m) for n, m, _ in gl] + [("D", "memref<8x16xf32>")], 8, 16, "mma_mx")
    return head + globals_text(gl) + kern + host + "\n" + check_block(memref_lines(d, g)) + "\n"


def mma_mx_e2m1_program() -> str:
    """§4.6, §5.3 with f4E2M1FN (k = 64, two 32-element scale blocks): A 8x64 as bytes (element 2j in the low nibble
    of byte j, §4.7), loaded 8-bit 8x32 so lane i holds A[r][4i..4i+3] in one i16; B prepacked in memory as
    [k/8][n] dwords (eight k per dword, lowest k in the lowest nibble: the layout mma expects, §4.5) and loaded
    32-bit 8x16; scales vector<2xi8> per lane (component s = K block s), read by llvm.load."""
    rng = np.random.default_rng(59)
    grid = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.5, -1.0, -2.0, -6.0])
    a = rng.choice(grid, (8, 64)).astype(ml_dtypes.float4_e2m1fn)
    b = rng.choice(grid, (64, 16)).astype(ml_dtypes.float4_e2m1fn)
    ac, bc = a.view(np.uint8) & 0xF, b.view(np.uint8) & 0xF
    a_bytes = (ac[:, 0::2] | (ac[:, 1::2] << 4)).astype(np.uint8)  # 8x32
    b_words = np.zeros((8, 16), np.uint32)
    for r in range(8):
        for t in range(8):
            b_words[r] |= bc[8 * r + t].astype(np.uint32) << (4 * t)
    c = rng.integers(-20, 21, (8, 16)).astype(np.float32)
    sa = np.concatenate([rng.integers(124, 131, (8, 2)), np.full((8, 2), 255)]).astype(np.uint8)
    sb = rng.integers(124, 131, (16, 2)).astype(np.uint8)
    d = np.empty((8, 16), np.float32)
    for i in range(8):
        for j in range(16):
            v = Fraction(float(c[i, j]))
            for blk in range(2):
                part = sum(Fraction(float(a[i, k])) * Fraction(float(b[k, j])) for k in range(32 * blk, 32 * blk + 32))
                v += part * Fraction(2) ** (int(sa[i, blk]) + int(sb[j, blk]) - 254)
            assert float(np.float32(float(v))) == v
            d[i, j] = np.float32(float(v))
    head, target = header("Lane-level block-scaled DPAS with f4E2M1FN (xevm.mma_mx, k = 64, §4.6, §5.3) on cri: "
                          "A from xevm.blockload2d, B prepacked, two E8M0 scales per row / column.", chip="cri")
    gl = [("A", "memref<8x32xi8>", a_bytes.view(np.int8)), ("B", "memref<8x16xi32>", b_words.view(np.int32)),
          ("C", "memref<8x16xf32>", c), ("SA", "memref<16x2xi8>", sa.view(np.int8)),
          ("SB", "memref<16x2xi8>", sb.view(np.int8))]
    ptr6 = "(!llvm.ptr<1>, i32, i32, i32, i32, i32)"
    plain = "pack_register = false, tile_height = 8 : i32, tile_width = {tw} : i32, transpose = false, v_blocks = 1 : i32"
    kern = f"""  gpu.module @kernels {target} {{
    gpu.func @mma_mx(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: !llvm.ptr<1>, %sa: !llvm.ptr<1>, %sb: !llvm.ptr<1>, %d: !llvm.ptr<1>) kernel {{
{i32_consts(w32=32, w64=64, h8=8, zero=0)}      %a8 = xevm.blockload2d %a, %w32, %h8, %w32, %zero, %zero <{{elem_size_in_bits = 8 : i32, {plain.format(tw=32)}}}> : {ptr6} -> vector<16xi8>
      %a16 = llvm.bitcast %a8 : vector<16xi8> to vector<8xi16>
      %b32 = xevm.blockload2d %b, %w64, %h8, %w64, %zero, %zero <{{elem_size_in_bits = 32 : i32, {plain.format(tw=16)}}}> : {ptr6} -> vector<8xi32>
      %c0 = xevm.blockload2d %c, %w64, %h8, %w64, %zero, %zero <{{elem_size_in_bits = 32 : i32, {plain.format(tw=16)}}}> : {ptr6} -> vector<8xf32>
      %lane = xevm.lane_id : i32
      %pa = llvm.getelementptr %sa[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<2xi8>
      %pb = llvm.getelementptr %sb[%lane] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<2xi8>
      %scale_a = llvm.load %pa : !llvm.ptr<1> -> vector<2xi8>
      %scale_b = llvm.load %pb : !llvm.ptr<1> -> vector<2xi8>
      %d0 = xevm.mma_mx %a16, %b32, %scale_a, %scale_b, %c0 {{shape = <m = 8, n = 16, k = 64>, types = <d = f32, a = e2m1, b = e2m1, c = f32>}} : (vector<8xi16>, vector<8xi32>, vector<2xi8>, vector<2xi8>, vector<8xf32>) -> vector<8xf32>
      xevm.blockstore2d %d, %w64, %h8, %w64, %zero, %zero, %d0 <{{elem_size_in_bits = 32 : i32, tile_height = 8 : i32, tile_width = 16 : i32}}> : {ptr6[:-1]}, vector<8xf32>)
      gpu.return
    }}
  }}

"""
    host = gemm_host(gl, [(n, m) for n, m, _ in gl] + [("D", "memref<8x16xf32>")], 8, 16, "mma_mx")
    return head + globals_text(gl) + kern + host + "\n" + check_block(memref_lines(d, g)) + "\n"


PROGRAMS = {
    "xevm_blockload2d_plain.mlir": lambda: load_program(
        "2D block load (xevm.blockload2d, §4.1), 16-bit 8x16 plain at (32, 10) of a 16x40 surface: lane i "
        "component r = M[r][i]; the block's last 8 columns and 2 rows lie outside the surface and read 0.",
        41, 16, (16, 40), 32, 10, 16, 8),
    "xevm_blockload2d_vblocks.mlir": lambda: load_program(
        "2D block load, 8-bit 8x32 with v_blocks = 2 at (24, 0) of an 8x80 surface: per block, lane i holds "
        "M[r][2i], M[r][2i+1] (block 0 first); columns 80..87 lie outside the surface and read 0.",
        43, 8, (8, 80), 24, 0, 32, 8, vb=2),
    "xevm_blockload2d_transpose.mlir": lambda: load_program(
        "2D block load, 32-bit 16x8 transposed at (4, 2) of a 24x16 surface: lane i holds M[i][0..7].",
        47, 32, (24, 16), 4, 2, 8, 16, transpose=True),
    "xevm_blockload2d_pack_register.mlir": lambda: load_program(
        "2D block load, 16-bit 16x16 with pack_register (VNNI) at (16, 8) of a 32x32 surface: dword r of lane i = "
        "M[2r][i] | M[2r+1][i] << 16.", 53, 16, (32, 32), 16, 8, 16, 16, pack=True),
    "xevm_blockstore2d.mlir": store_program,
    "xevm_mma.mlir": mma_program,
    "xevm_mma_mx.mlir": mma_mx_program,
    "xevm_mma_mx_e2m1.mlir": mma_mx_e2m1_program,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on a difference")
    args = ap.parse_args(argv)
    stale = []
    for name, make in PROGRAMS.items():
        text = make()
        path = OUT / name
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
        else:
            path.write_text(text)
    if stale:
        print("out of date (run python tools/gen_xevm_programs.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
