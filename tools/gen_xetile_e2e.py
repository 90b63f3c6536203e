"""Generate the XeTile whole-program tests ``tests/e2e/xetile_*.mlir`` (issue 31).

Each program is written in the style of the upstream (IMEX) XeTile integration tests: a host ``main`` that fills
its inputs with host loops from a closed formula, copies them to the device (``gpu.alloc`` / ``gpu.memcpy``),
launches a VC kernel written in XeTile (``gpu.launch_func``), copies the result back and prints it
(``printMemrefF32`` / ``printMemrefI32`` of small windows, and ``printAllcloseF32`` against a CPU reference where
the runtime has one).  The CHECK lines are computed **here, with numpy, from the same formulas** — never from
xesim's output.  Inputs are small integers, so every expected value is exact and does not depend on rounding
order; the DPAS rounding itself is tested in tests/numerics.

    python tools/gen_xetile_e2e.py            # rewrite the files
    python tools/gen_xetile_e2e.py --check    # exit 1 if a file differs from what would be generated
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "e2e"


# ============================================================================ formatting (RunnerUtils.h printMemRef)
def fmt(v: float | int, et: str) -> str:
    """One element as ``std::cout`` prints it: integers in decimal, floats with %g precision 6."""
    if et.startswith("i"):
        return str(int(v))
    v = float(np.float32(v))
    if v == 0:
        return "-0" if np.signbit(v) else "0"
    return f"{v:g}"


def check_memref(rows: np.ndarray, et: str, offset: int, strides: tuple[int, int]) -> list[str]:
    """CHECK lines of printMemref of a 2-D window (header then one line per row)."""
    r, c = rows.shape
    out = [f"// CHECK: Unranked Memref base@ = 0x{{{{[0-9a-f]+}}}} rank = 2 offset = {offset} sizes = [{r}, {c}] "
           f"strides = [{strides[0]}, {strides[1]}] data ="]
    for i in range(r):
        body = ",   ".join(fmt(x, et) for x in rows[i])
        head = "{{\\[\\[}}" if i == 0 else "{{\\[}}"
        tail = "]]" if i == r - 1 else "],"
        out.append(f"// CHECK-NEXT: {head}{body}{tail}")
    return out


# ============================================================================ host pieces
def fill(name: str, shape: tuple[int, int], et: str, a: int, b: int, p: int, q: int, transposed: bool = False
         ) -> list[str]:
    """Host loops: ``name[i][j] = ((a·i + b·j) mod p) - q`` converted to ``et`` (``transposed``: stored at
    ``name[j][i]``, the memref having the swapped shape)."""
    r, c = shape
    mt = f"memref<{c}x{r}x{et}>" if transposed else f"memref<{r}x{c}x{et}>"
    idx = "[%j, %i]" if transposed else "[%i, %j]"
    conv = {"f16": ["%v = arith.sitofp %d : i32 to f16"], "bf16": ["%f = arith.sitofp %d : i32 to f32",
                                                                   "%v = arith.truncf %f : f32 to bf16"],
            "tf32": ["%f = arith.sitofp %d : i32 to f32", "%v = arith.truncf %f : f32 to tf32"],
            "f32": ["%v = arith.sitofp %d : i32 to f32"], "i8": ["%v = arith.trunci %d : i32 to i8"],
            "i32": ["%v = arith.addi %d, %czero32 : i32"]}[et]
    lines = [
        f"    scf.for %i = %c0 to %c{r} step %c1 {{",
        f"      scf.for %j = %c0 to %c{c} step %c1 {{",
        f"        %ia = arith.muli %i, %c{a} : index",
        f"        %jb = arith.muli %j, %c{b} : index",
        "        %s = arith.addi %ia, %jb : index",
        f"        %m = arith.remui %s, %c{p} : index",
        "        %mi = arith.index_cast %m : index to i32",
        f"        %d = arith.subi %mi, %cq{q} : i32",
        *[f"        {x}" for x in conv],
        f"        memref.store %v, %{name}{idx} : {mt}",
        "      }",
        "    }",
    ]
    return lines


def fill_np(shape: tuple[int, int], a: int, b: int, p: int, q: int) -> np.ndarray:
    """The formula of :func:`fill` as float64 integers (every product and sum below stays an integer < 2**53, so
    float64 matrix products are exact whatever their order, and fast)."""
    i = np.arange(shape[0])[:, None]
    j = np.arange(shape[1])[None, :]
    return ((a * i + b * j) % p - q).astype(np.float64)


def consts(values: set[int], i32: set[int]) -> list[str]:
    out = [f"    %c{v} = arith.constant {v} : index" for v in sorted(values)]
    out += [f"    %cq{v} = arith.constant {v} : i32" for v in sorted(i32)]
    out.append("    %czero32 = arith.constant 0 : i32")
    return out


def program(name: str, comment: list[str], module: list[str], checks: list[str]) -> str:
    head = [f"// {c}" if c else "//" for c in comment]
    return "\n".join([*head, "// RUN: xesim run %s | filecheck %s", "", *module, "", *checks, ""])


DECLS = [
    "  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}",
    "  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}",
    "  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}",
    "  func.func private @printAllcloseF32(memref<*xf32>, memref<*xf32>) attributes {llvm.emit_c_interface}",
    "  func.func private @gemmF16F16F32(memref<*xf16>, memref<*xf16>, memref<*xf32>) attributes {llvm.emit_c_interface}",
    "  func.func private @gemmBF16BF16F32(memref<*xbf16>, memref<*xbf16>, memref<*xf32>) attributes {llvm.emit_c_interface}",
]
VC = "attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>}"


def print_window(buf: str, shape: tuple[int, int], et: str, r0: int, c0: int, rows: int, cols: int, tag: str
                 ) -> list[str]:
    ld = shape[1]
    off = r0 * ld + c0
    st = f"strided<[{ld}, 1], offset: {off}>" if off else f"strided<[{ld}, 1]>"
    fn = {"i32": "printMemrefI32", "f16": "printMemrefF16"}.get(et, "printMemrefF32")
    return [
        f"    %w{tag} = memref.subview %{buf}[{r0}, {c0}] [{rows}, {cols}] [1, 1] : memref<{shape[0]}x{shape[1]}x{et}> "
        f"to memref<{rows}x{cols}x{et}, {st}>",
        f"    %u{tag} = memref.cast %w{tag} : memref<{rows}x{cols}x{et}, {st}> to memref<*x{et}>",
        f"    call @{fn}(%u{tag}) : (memref<*x{et}>) -> ()",
    ]


def check_window(ref: np.ndarray, et: str, r0: int, c0: int, rows: int, cols: int) -> list[str]:
    return check_memref(ref[r0:r0 + rows, c0:c0 + cols], et, r0 * ref.shape[1] + c0, (ref.shape[1], 1))


# ============================================================================ SG GEMM family
def gemm(name: str, et: str, *, m: int = 1024, n: int = 1024, k: int = 1024, tm: int = 32, tn: int = 64,
         tk: int = 32, trans_a: bool = False, trans_b: bool = False, col_b: bool = False, dynamic: bool = False,
         preop: bool = False, postop: str = "", note: str = "", out: str = "",
         fa: tuple[int, int, int, int] = (3, 5, 7, 3), fb: tuple[int, int, int, int] = (2, 3, 5, 2)) -> str:
    """An SG-level GEMM C[m, n] = A[m, k]·B[k, n] (+ pre/post ops) on a grid of VC threads, each computing a
    tm x tn block with a K loop of step tk (xetile.md §1.6); out-of-bounds tails where the tiles do not divide."""
    ot = out or ("i32" if et == "i8" else "f32")
    gm, gn = -(-m // tm), -(-n // tn)
    a_np = fill_np((m, k), *fa)
    b_np = fill_np((k, n), *fb)
    if preop:
        a_np = a_np * 2  # pre-op: A·2 (arith.addf a, a) before the MMA
    ref = a_np @ b_np
    if ot == "f16":  # §3.6: the running sum is rounded to f16 after every K-chunk of 16 (exact integer chunk sums)
        acc = np.zeros((m, n), np.float16)
        for k0 in range(0, k, 16):
            part = a_np[:, k0:k0 + 16] @ b_np[k0:k0 + 16]
            acc = (acc.astype(np.float64) + part).astype(np.float16)
        ref = acc.astype(np.float64)
    if postop == "relu":
        ref = np.maximum(ref, 0)
    elif postop == "bias":
        ref = ref + fill_np((1, n), 0, 1, 9, 4)  # C + bias[j], bias[j] = j mod 9 - 4
    a_store = (k, m) if trans_a else (m, k)
    b_store = (n, k) if (trans_b or col_b) else (k, n)
    a_mt = f"memref<{a_store[0]}x{a_store[1]}x{et}>"
    b_mt = f"memref<{b_store[0]}x{b_store[1]}x{et}>"
    c_mt = f"memref<{m}x{n}x{ot}>"
    ka = f"memref<?x?x{et}>" if dynamic else a_mt
    kb = f"memref<?x?x{et}>" if dynamic else b_mt
    zero = (f"arith.constant dense<0> : vector<{tm}x{tn}xi32>" if ot == "i32" else
            f"arith.constant dense<0.0> : vector<{tm}x{tn}x{ot}>")

    def tile(src: str, mt: str, r: str, c: str, h: int, w: int, order: str = "") -> str:
        enc = f", #xetile.tile_attr<order = {order}>" if order else ""
        if dynamic:
            rr, cc = (a_store if src == "A" else b_store)
            return (f"xetile.init_tile %{src}[{r}, {c}], [%c{rr}, %c{cc}], [%c{cc}, %c1] : {mt} -> "
                    f"!xetile.tile<{h}x{w}x{et}{enc}>")
        return f"xetile.init_tile %{src}[{r}, {c}] : {mt} -> !xetile.tile<{h}x{w}x{et}{enc}>"

    # A tile: [tm, tk] at (m0, k0), or its transpose [tk, tm] at (k0, m0) of the stored Aᵀ
    a_shape = (tk, tm) if trans_a else (tm, tk)
    a_init = tile("A", ka, "%c0", "%m0", tk, tm) if trans_a else tile("A", ka, "%m0", "%c0", tm, tk)
    a_step = "[%ctk, %c0]" if trans_a else "[%c0, %ctk]"
    if trans_b:
        b_shape = (tn, tk)
        b_init = tile("B", kb, "%n0", "%c0", tn, tk)
        b_step = "[%c0, %ctk]"
        b_ty = f"!xetile.tile<{tn}x{tk}x{et}>"
    elif col_b:
        b_shape = (tk, tn)
        b_init = f"xetile.init_tile %Bc[%c0, %n0] : memref<{k}x{n}x{et}, strided<[1, {k}]>> -> " \
                 f"!xetile.tile<{tk}x{tn}x{et}, #xetile.tile_attr<order = [0, 1]>>"
        b_step = "[%ctk, %c0]"
        b_ty = f"!xetile.tile<{tk}x{tn}x{et}, #xetile.tile_attr<order = [0, 1]>>"
    else:
        b_shape = (tk, tn)
        b_init = tile("B", kb, "%c0", "%n0", tk, tn)
        b_step = "[%ctk, %c0]"
        b_ty = f"!xetile.tile<{tk}x{tn}x{et}>"
    a_ty = f"!xetile.tile<{a_shape[0]}x{a_shape[1]}x{et}>"
    kern = [
        "  gpu.module @kernels {",
        f"    gpu.func @gemm(%A: {ka}, %B: {kb}, %C: {c_mt}) kernel {VC} {{",
        "      %c0 = arith.constant 0 : index",
        "      %c1 = arith.constant 1 : index",
        f"      %ctk = arith.constant {tk} : index",
        f"      %ck = arith.constant {k} : index",
        *([f"      %c{v} = arith.constant {v} : index" for v in sorted({*a_store, *b_store})] if dynamic else []),
        "      %bx = gpu.block_id x",
        "      %by = gpu.block_id y",
        f"      %ctm = arith.constant {tm} : index",
        f"      %ctn = arith.constant {tn} : index",
        "      %m0 = arith.muli %bx, %ctm : index",
        "      %n0 = arith.muli %by, %ctn : index",
    ]
    if col_b:
        kern.append(f"      %Bc = memref.reinterpret_cast %B to offset: [0], sizes: [{k}, {n}], strides: [1, {k}] : "
                    f"{b_mt} to memref<{k}x{n}x{et}, strided<[1, {k}]>>")
    kern += [
        f"      %tc = xetile.init_tile %C[%m0, %n0] : {c_mt} -> !xetile.tile<{tm}x{tn}x{ot}>",
        f"      %zero = {zero}",
        f"      %ta = {a_init}",
        f"      %tb = {b_init}",
        f"      %r:3 = scf.for %kk = %c0 to %ck step %ctk iter_args(%at = %ta, %bt = %tb, %acc = %zero) "
        f"-> ({a_ty}, {b_ty}, vector<{tm}x{tn}x{ot}>) {{",
        f"        xetile.prefetch_tile %at : {a_ty}",
        f"        %a0 = xetile.load_tile %at : {a_ty} -> vector<{a_shape[0]}x{a_shape[1]}x{et}>",
        f"        %b0 = xetile.load_tile %bt : {b_ty} -> vector<{b_shape[0]}x{b_shape[1]}x{et}>",
    ]
    a_val, b_val = "%a0", "%b0"
    if trans_a:
        kern.append(f"        %a1 = xetile.transpose %a0, [1, 0] : vector<{tk}x{tm}x{et}> -> vector<{tm}x{tk}x{et}>")
        a_val = "%a1"
    if trans_b:
        kern.append(f"        %b1 = xetile.transpose %b0, [1, 0] : vector<{tn}x{tk}x{et}> -> vector<{tk}x{tn}x{et}>")
        b_val = "%b1"
    if preop:
        kern.append(f"        %a2 = arith.addf {a_val}, {a_val} : vector<{tm}x{tk}x{et}>")
        a_val = "%a2"
    kern += [
        f"        %d = xetile.tile_mma {a_val}, {b_val}, %acc : vector<{tm}x{tk}x{et}>, vector<{tk}x{tn}x{et}>, "
        f"vector<{tm}x{tn}x{ot}> -> vector<{tm}x{tn}x{ot}>",
        f"        %an = xetile.update_tile_offset %at, {a_step} : {a_ty}",
        f"        %bn = xetile.update_tile_offset %bt, {b_step} : {b_ty}",
        f"        scf.yield %an, %bn, %d : {a_ty}, {b_ty}, vector<{tm}x{tn}x{ot}>",
        "      }",
    ]
    res = "%r#2"
    if postop == "relu":
        kern += [f"      %z = arith.constant dense<0.0> : vector<{tm}x{tn}x{ot}>",
                 f"      %relu = arith.maximumf %r#2, %z : vector<{tm}x{tn}x{ot}>"]
        res = "%relu"
    elif postop == "bias":
        kern += [f"      %tbias = xetile.init_tile %Bias[%c0, %n0] : memref<1x{n}xf32> -> !xetile.tile<1x{tn}xf32>",
                 f"      %bias = xetile.load_tile %tbias : !xetile.tile<1x{tn}xf32> -> vector<1x{tn}xf32>",
                 f"      %bb = xetile.broadcast %bias [0] : vector<1x{tn}xf32> -> vector<{tm}x{tn}xf32>",
                 f"      %biased = arith.addf %r#2, %bb : vector<{tm}x{tn}xf32>"]
        res = "%biased"
        kern[1] = kern[1].replace(f"%C: {c_mt})", f"%C: {c_mt}, %Bias: memref<1x{n}xf32>)")
    kern += [f"      xetile.store_tile {res}, %tc : vector<{tm}x{tn}x{ot}>, !xetile.tile<{tm}x{tn}x{ot}>",
             "      gpu.return", "    }", "  }"]
    # host
    idx = {0, 1, 2, 3, 5, 7, 9, gm, gn, m, n, k, *a_store, *b_store, *fa[:3], *fb[:3]}
    host = ["  func.func @main() {", *consts(idx, {2, 3, 4, fa[3], fb[3]})]
    host += [f"    %A = memref.alloc() : {a_mt}", f"    %B = memref.alloc() : {b_mt}"]
    host += fill("A", (m, k), et, *fa, transposed=trans_a)
    host += fill("B", (k, n), et, *fb, transposed=trans_b or col_b)
    host += [f"    %dA = gpu.alloc () : {a_mt}", f"    %dB = gpu.alloc () : {b_mt}", f"    %dC = gpu.alloc () : {c_mt}",
             f"    gpu.memcpy %dA, %A : {a_mt}, {a_mt}", f"    gpu.memcpy %dB, %B : {b_mt}, {b_mt}"]
    args = [f"%dA : {a_mt}", f"%dB : {b_mt}", f"%dC : {c_mt}"]
    pre = []
    if dynamic:
        pre = [f"    %xA = memref.cast %dA : {a_mt} to memref<?x?x{et}>",
               f"    %xB = memref.cast %dB : {b_mt} to memref<?x?x{et}>"]
        args = [f"%xA : memref<?x?x{et}>", f"%xB : memref<?x?x{et}>", f"%dC : {c_mt}"]
    if postop == "bias":
        host += ["    %Bs = memref.alloc() : memref<1x" + str(n) + "xf32>"]
        host += fill("Bs", (1, n), "f32", 0, 1, 9, 4)
        host += [f"    %dBias = gpu.alloc () : memref<1x{n}xf32>",
                 f"    gpu.memcpy %dBias, %Bs : memref<1x{n}xf32>, memref<1x{n}xf32>"]
        args.append(f"%dBias : memref<1x{n}xf32>")
    host += pre
    host += [f"    gpu.launch_func @kernels::@gemm blocks in (%c{gm}, %c{gn}, %c1) threads in (%c1, %c1, %c1) "
             f"args({', '.join(args)})",
             f"    %C = memref.alloc() : {c_mt}", f"    gpu.memcpy %C, %dC : {c_mt}, {c_mt}"]
    checks = []
    plain = not (trans_a or trans_b or col_b or preop or postop) and et in ("f16", "bf16") and ot == "f32"
    if plain:  # CPU reference: the runtime's f32 GEMM (C ← C + A·B from a zero C)
        fn = "gemmF16F16F32" if et == "f16" else "gemmBF16BF16F32"
        host += [f"    %R = memref.alloc() : {c_mt}",
                 f"    %ua = memref.cast %A : {a_mt} to memref<*x{et}>",
                 f"    %ub = memref.cast %B : {b_mt} to memref<*x{et}>",
                 f"    %ur = memref.cast %R : {c_mt} to memref<*xf32>",
                 f"    %uc = memref.cast %C : {c_mt} to memref<*xf32>",
                 f"    call @{fn}(%ua, %ub, %ur) : (memref<*x{et}>, memref<*x{et}>, memref<*xf32>) -> ()",
                 "    call @printAllcloseF32(%uc, %ur) : (memref<*xf32>, memref<*xf32>) -> ()"]
        checks.append("// CHECK: [ALLCLOSE: TRUE]")
    wins = [(0, 0, 2, 16), (m - 2, n - 16, 2, 16)]
    for t, (r0, c0, rr, cc) in enumerate(wins):
        host += print_window("C", (m, n), ot, r0, c0, rr, cc, str(t))
        checks += check_window(ref, ot, r0, c0, rr, cc)
    host += ["    return", "  }"]
    module = [f"module @{name} attributes {{gpu.container_module}} {{", *kern, "", *host, *DECLS, "}"]
    what = {"f16": f"f16 x f16 -> {ot}", "bf16": "bf16 x bf16 -> f32", "tf32": "tf32 x tf32 -> f32",
            "i8": "i8 x i8 -> i32"}[et]
    comment = [f"XeTile SG-level GEMM {m}x{n}x{k}, {what} (shared/spec/xetile.md §1.6, §3.6): a grid of {gm}x{gn} "
               f"VC threads, each computing a {tm}x{tn} block of C with a K loop of step {tk}.",
               *([note] if note else []),
               f"A[i][k] = ({fa[0]}i + {fa[1]}k) mod {fa[2]} - {fa[3]}, B[k][j] = ({fb[0]}k + {fb[1]}j) mod {fb[2]} - "
               f"{fb[3]} (host loops); every product and K-chunk sum is an exact integer"
               + (", so the values do not depend on the DPAS rounding." if ot != "f16" else
                  "; the f16 running sum is rounded after each chunk of 16 (numpy emulates it)."),
               "CHECK lines: tools/gen_xetile_e2e.py (numpy, A @ B from the same formulas)."]
    return program(name, comment, module, checks)


# ============================================================================ tile-program family
def tile_program(name: str, comment: list[str], *, inputs: list[tuple[str, tuple[int, int], str, tuple]],
                 outputs: list[tuple[str, tuple[int, int], str]], kernel: list[str], grid: tuple[int, int],
                 threads: tuple[int, int] = (1, 1), windows: list[tuple[str, np.ndarray, int, int, int, int]],
                 extra_host: list[str] | None = None, extra_checks: list[str] | None = None,
                 extra_args: list[tuple[str, str]] | None = None) -> str:
    """A kernel over inputs filled by formula (name, shape, type, (a, b, p, q)) and zeroed outputs; the kernel body
    is ``kernel`` (it sees %bx, %by, %tx, %ty and %c0/%c1); ``windows`` (buffer, expected, r0, c0, rows, cols) are
    printed and checked."""
    bufs = [*[(n, sh, et) for n, sh, et, _ in inputs], *outputs]
    sig = ", ".join(f"%{n}: memref<{sh[0]}x{sh[1]}x{et}>" for n, sh, et in bufs)
    sig += "".join(f", %{n}: {t}" for n, t in (extra_args or []))
    kern = [
        "  gpu.module @kernels {",
        f"    gpu.func @kernel({sig}) kernel {VC} {{",
        "      %c0 = arith.constant 0 : index",
        "      %c1 = arith.constant 1 : index",
        "      %bx = gpu.block_id x",
        "      %by = gpu.block_id y",
        "      %tx = gpu.thread_id x",
        "      %ty = gpu.thread_id y",
        *[f"      {x}" for x in kernel],
        "      gpu.return", "    }", "  }",
    ]
    idx = {0, 1, 2, 3, 4, 5, 7, 9, 11, 13, grid[0], grid[1], threads[0], threads[1]}
    for _, sh, _, f in inputs:
        idx |= {sh[0], sh[1], f[0], f[1], f[2]}
    for _, sh, _ in outputs:
        idx |= set(sh)
    qs = {f[3] for *_, f in inputs}
    host = ["  func.func @main() {", *consts(idx, qs | {2, 3, 4})]
    args = []
    for n, sh, et, f in inputs:
        mt = f"memref<{sh[0]}x{sh[1]}x{et}>"
        host += [f"    %{n} = memref.alloc() : {mt}", *fill(n, sh, et, *f), f"    %d{n} = gpu.alloc () : {mt}",
                 f"    gpu.memcpy %d{n}, %{n} : {mt}, {mt}"]
        args.append(f"%d{n} : {mt}")
    for n, sh, et in outputs:
        mt = f"memref<{sh[0]}x{sh[1]}x{et}>"
        host += [f"    %d{n} = gpu.alloc () : {mt}"]
        args.append(f"%d{n} : {mt}")
    host += extra_host or []
    args += [f"%{n} : {t}" for n, t in (extra_args or [])]
    host.append(f"    gpu.launch_func @kernels::@kernel blocks in (%c{grid[0]}, %c{grid[1]}, %c1) threads in "
                f"(%c{threads[0]}, %c{threads[1]}, %c1) args({', '.join(args)})")
    checks: list[str] = []
    for n, sh, et in outputs:
        mt = f"memref<{sh[0]}x{sh[1]}x{et}>"
        host += [f"    %{n} = memref.alloc() : {mt}", f"    gpu.memcpy %{n}, %d{n} : {mt}, {mt}"]
    for t, (buf, ref, r0, c0, rr, cc) in enumerate(windows):
        et = dict((n, e) for n, _, e in outputs)[buf]
        host += print_window(buf, ref.shape, et, r0, c0, rr, cc, str(t))
        checks += check_window(ref, et, r0, c0, rr, cc)
    checks += extra_checks or []
    host += ["    return", "  }"]
    module = [f"module @{name} attributes {{gpu.container_module}} {{", *kern, "", *host, *DECLS, "}"]
    return program(name, comment, module, checks)


def tile_ids(tr: int, tc: int) -> list[str]:
    """%r0, %c0_ = the tile origin of block (bx, by) for tiles of tr x tc."""
    return [f"%ctr = arith.constant {tr} : index", f"%ctc = arith.constant {tc} : index",
            "%r0 = arith.muli %bx, %ctr : index", "%q0 = arith.muli %by, %ctc : index"]


def reduce_rows() -> str:
    """Row reductions (dim 1) and column broadcasts (dim 1): Y = broadcast(rowsum(X)) - X, Z[i][0..1] = row max
    and row min, per 32x32 tile."""
    x = fill_np((64, 64), 3, 1, 11, 5).astype(np.float64)
    y = np.zeros_like(x)
    z = np.zeros((64, 4))
    for bi in range(2):
        for bj in range(2):
            t = x[32 * bi:32 * bi + 32, 32 * bj:32 * bj + 32]
            y[32 * bi:32 * bi + 32, 32 * bj:32 * bj + 32] = t.sum(1, keepdims=True) - t
            z[32 * bi:32 * bi + 32, 2 * bj] = t.max(1)
            z[32 * bi:32 * bi + 32, 2 * bj + 1] = t.min(1)
    tt = "!xetile.tile<32x32xf32>"
    kernel = [*tile_ids(32, 32),
              "%c2 = arith.constant 2 : index", "%z0 = arith.muli %by, %c2 : index",
              f"%tx0 = xetile.init_tile %X[%r0, %q0] : memref<64x64xf32> -> {tt}",
              f"%x = xetile.load_tile %tx0 : {tt} -> vector<32x32xf32>",
              "%s = xetile.reduction <add>, %x [1] : vector<32x32xf32> -> vector<32x1xf32>",
              "%sb = xetile.broadcast %s [1] : vector<32x1xf32> -> vector<32x32xf32>",
              "%y = arith.subf %sb, %x : vector<32x32xf32>",
              f"%ty0 = xetile.init_tile %Y[%r0, %q0] : memref<64x64xf32> -> {tt}",
              f"xetile.store_tile %y, %ty0 : vector<32x32xf32>, {tt}",
              "%mx = xetile.reduction <maximumf>, %x [1] : vector<32x32xf32> -> vector<32x1xf32>",
              "%mn = xetile.reduction <minimumf>, %x [1] : vector<32x32xf32> -> vector<32x1xf32>",
              "%tz0 = xetile.init_tile %Z[%r0, %z0] : memref<64x4xf32> -> !xetile.tile<32x1xf32>",
              "%cz1 = arith.addi %z0, %c1 : index",
              "%tz1 = xetile.init_tile %Z[%r0, %cz1] : memref<64x4xf32> -> !xetile.tile<32x1xf32>",
              "xetile.store_tile %mx, %tz0 : vector<32x1xf32>, !xetile.tile<32x1xf32>",
              "xetile.store_tile %mn, %tz1 : vector<32x1xf32>, !xetile.tile<32x1xf32>"]
    return tile_program(
        "xetile_reduce_broadcast_rows",
        ["XeTile reductions along dimension 1 and broadcasts along dimension 1 (shared/spec/xetile.md §3.9, §3.10):",
         "per 32x32 tile of X, Y = broadcast(row sums) - X, and each row's maximum and minimum stored as 32x1 tiles.",
         "X[i][j] = (3i + j) mod 11 - 5 (host loops); sums are exact.  CHECK lines: tools/gen_xetile_e2e.py (numpy)."],
        inputs=[("X", (64, 64), "f32", (3, 1, 11, 5))], outputs=[("Y", (64, 64), "f32"), ("Z", (64, 4), "f32")],
        kernel=kernel, grid=(2, 2),
        windows=[("Y", y, 0, 0, 2, 16), ("Y", y, 62, 48, 2, 16), ("Z", z, 0, 0, 4, 4), ("Z", z, 60, 0, 4, 4)])


def reduce_cols() -> str:
    """Column reductions (dim 0) and row broadcasts (dim 0): Y = X - broadcast(column max), W = column products."""
    x = fill_np((64, 64), 1, 5, 7, 3).astype(np.float64)
    y = np.zeros_like(x)
    w = np.zeros((2, 64))
    for bi in range(2):
        for bj in range(2):
            t = x[32 * bi:32 * bi + 32, 32 * bj:32 * bj + 32]
            y[32 * bi:32 * bi + 32, 32 * bj:32 * bj + 32] = t - t.max(0, keepdims=True)
            w[bi, 32 * bj:32 * bj + 32] = np.abs(t).clip(1, None)[:8].prod(0)
    tt = "!xetile.tile<32x32xf32>"
    kernel = [*tile_ids(32, 32),
              f"%tx0 = xetile.init_tile %X[%r0, %q0] : memref<64x64xf32> -> {tt}",
              f"%x = xetile.load_tile %tx0 : {tt} -> vector<32x32xf32>",
              "%m = xetile.reduction <maximumf>, %x [0] : vector<32x32xf32> -> vector<1x32xf32>",
              "%mb = xetile.broadcast %m [0] : vector<1x32xf32> -> vector<32x32xf32>",
              "%y = arith.subf %x, %mb : vector<32x32xf32>",
              f"%ty0 = xetile.init_tile %Y[%r0, %q0] : memref<64x64xf32> -> {tt}",
              f"xetile.store_tile %y, %ty0 : vector<32x32xf32>, {tt}",
              "%one = arith.constant dense<1.0> : vector<8x32xf32>",
              "%t8 = xetile.init_tile %X[%r0, %q0] : memref<64x64xf32> -> !xetile.tile<8x32xf32>",
              "%x8 = xetile.load_tile %t8 : !xetile.tile<8x32xf32> -> vector<8x32xf32>",
              "%a8 = math.absf %x8 : vector<8x32xf32>",
              "%c8 = arith.maximumf %a8, %one : vector<8x32xf32>",
              "%p = xetile.reduction <mul>, %c8 [0] : vector<8x32xf32> -> vector<1x32xf32>",
              "%tw = xetile.init_tile %W[%bx, %q0] : memref<2x64xf32> -> !xetile.tile<1x32xf32>",
              "xetile.store_tile %p, %tw : vector<1x32xf32>, !xetile.tile<1x32xf32>"]
    return tile_program(
        "xetile_reduce_broadcast_cols",
        ["XeTile reductions along dimension 0 and broadcasts along dimension 0 (shared/spec/xetile.md §3.9, §3.10):",
         "per 32x32 tile of X, Y = X - broadcast(column maxima); W = the product over the tile's first 8 rows of",
         "max(|X|, 1) per column (a <mul> reduction).  X[i][j] = (i + 5j) mod 7 - 3 (host loops).",
         "CHECK lines: tools/gen_xetile_e2e.py (numpy)."],
        inputs=[("X", (64, 64), "f32", (1, 5, 7, 3))], outputs=[("Y", (64, 64), "f32"), ("W", (2, 64), "f32")],
        kernel=kernel, grid=(2, 2),
        windows=[("Y", y, 0, 0, 2, 16), ("Y", y, 62, 48, 2, 16), ("W", w, 0, 0, 2, 16), ("W", w, 0, 48, 2, 16)])


def reduce_size() -> str:
    """reduction_size on dim 1 (contiguous groups) and dim 0 (IMEX's interleaved groups, §5 Q3)."""
    x = fill_np((32, 32), 7, 3, 13, 6).astype(np.float64)
    g1 = x.reshape(32, 4, 8).sum(2)                      # [32, 4]: res[i][b] = Σ_t x[i][8b + t]
    g0 = x.reshape(8, 4, 32).sum(0)                      # [4, 32]: res[b][j] = Σ_t x[4t + b][j] (interleaved)
    kernel = ["%tx0 = xetile.init_tile %X[%c0, %c0] : memref<32x32xf32> -> !xetile.tile<32x32xf32>",
              "%x = xetile.load_tile %tx0 : !xetile.tile<32x32xf32> -> vector<32x32xf32>",
              "%r1 = xetile.reduction <add>, %x [1] {reduction_size = 8 : i64} : vector<32x32xf32> -> vector<32x4xf32>",
              "%r0 = xetile.reduction <add>, %x [0] {reduction_size = 8 : i64} : vector<32x32xf32> -> vector<4x32xf32>",
              "%t1 = xetile.init_tile %G1[%c0, %c0] : memref<32x4xf32> -> !xetile.tile<32x4xf32>",
              "%t0 = xetile.init_tile %G0[%c0, %c0] : memref<4x32xf32> -> !xetile.tile<4x32xf32>",
              "xetile.store_tile %r1, %t1 : vector<32x4xf32>, !xetile.tile<32x4xf32>",
              "xetile.store_tile %r0, %t0 : vector<4x32xf32>, !xetile.tile<4x32xf32>"]
    return tile_program(
        "xetile_reduction_size",
        ["XeTile partial reductions with reduction_size = 8 (shared/spec/xetile.md §3.9): along dimension 1 the groups",
         "are contiguous (res[i][b] = sum of X[i][8b .. 8b+7]); along dimension 0 they are IMEX's interleaved groups",
         "(res[b][j] = sum over t of X[4t + b][j]; xetile.reduction.size_dim0 = interleaved, §5 Q3).",
         "X[i][j] = (7i + 3j) mod 13 - 6.  CHECK lines: tools/gen_xetile_e2e.py (numpy)."],
        inputs=[("X", (32, 32), "f32", (7, 3, 13, 6))], outputs=[("G1", (32, 4), "f32"), ("G0", (4, 32), "f32")],
        kernel=kernel, grid=(1, 1),
        windows=[("G1", g1, 0, 0, 4, 4), ("G1", g1, 28, 0, 4, 4), ("G0", g0, 0, 0, 4, 16), ("G0", g0, 0, 16, 4, 16)])


def softmax(dim: int) -> str:
    """Softmax along one dimension of 32x32 tiles; printed: the sums along that dimension (1 each) and a CPU
    comparison (host loops) with printAllcloseF32."""
    red = "32x1" if dim == 1 else "1x32"
    kernel = [*tile_ids(32, 32),
              "%tx0 = xetile.init_tile %X[%r0, %q0] : memref<64x64xf32> -> !xetile.tile<32x32xf32>",
              "%x = xetile.load_tile %tx0 : !xetile.tile<32x32xf32> -> vector<32x32xf32>",
              f"%m = xetile.reduction <maximumf>, %x [{dim}] : vector<32x32xf32> -> vector<{red}xf32>",
              f"%mb = xetile.broadcast %m [{dim}] : vector<{red}xf32> -> vector<32x32xf32>",
              "%d = arith.subf %x, %mb : vector<32x32xf32>",
              "%e = math.exp %d : vector<32x32xf32>",
              f"%s = xetile.reduction <add>, %e [{dim}] : vector<32x32xf32> -> vector<{red}xf32>",
              f"%sb = xetile.broadcast %s [{dim}] : vector<{red}xf32> -> vector<32x32xf32>",
              "%y = arith.divf %e, %sb : vector<32x32xf32>",
              "%ty0 = xetile.init_tile %Y[%r0, %q0] : memref<64x64xf32> -> !xetile.tile<32x32xf32>",
              "xetile.store_tile %y, %ty0 : vector<32x32xf32>, !xetile.tile<32x32xf32>",
              f"%t = xetile.reduction <add>, %y [{dim}] : vector<32x32xf32> -> vector<{red}xf32>"]
    if dim == 1:
        kernel += ["%tt = xetile.init_tile %T[%r0, %by] : memref<64x2xf32> -> !xetile.tile<32x1xf32>",
                   "xetile.store_tile %t, %tt : vector<32x1xf32>, !xetile.tile<32x1xf32>"]
        tshape = (64, 2)
    else:
        kernel += ["%tt = xetile.init_tile %T[%bx, %q0] : memref<2x64xf32> -> !xetile.tile<1x32xf32>",
                   "xetile.store_tile %t, %tt : vector<1x32xf32>, !xetile.tile<1x32xf32>"]
        tshape = (2, 64)
    ones = np.ones(tshape)
    # CPU reference in host loops: per 32x32 block, along `dim`, max, exp(x - max) / sum
    a, b = ("%i", "%j") if dim == 1 else ("%j", "%i")
    cpu = [
        "    %R = memref.alloc() : memref<64x64xf32>",
        "    %c32 = arith.constant 32 : index",
        "    %ninf = arith.constant 0xFF800000 : f32",
        "    %fz = arith.constant 0.0 : f32",
        "    scf.for %i = %c0 to %c64 step %c1 {",
        "      scf.for %jb = %c0 to %c64 step %c32 {",
        "        %jend = arith.addi %jb, %c32 : index",
        "        %ib = arith.divui %i, %c32 : index",
        "        %mx = scf.for %j = %jb to %jend step %c1 iter_args(%acc = %ninf) -> (f32) {",
        f"          %v = memref.load %X[{a}, {b}] : memref<64x64xf32>",
        "          %n = arith.maximumf %acc, %v : f32",
        "          scf.yield %n : f32",
        "        }",
        "        %sm = scf.for %j = %jb to %jend step %c1 iter_args(%acc = %fz) -> (f32) {",
        f"          %v = memref.load %X[{a}, {b}] : memref<64x64xf32>",
        "          %dd = arith.subf %v, %mx : f32",
        "          %ee = math.exp %dd : f32",
        "          %n = arith.addf %acc, %ee : f32",
        "          scf.yield %n : f32",
        "        }",
        "        scf.for %j = %jb to %jend step %c1 {",
        f"          %v = memref.load %X[{a}, {b}] : memref<64x64xf32>",
        "          %dd = arith.subf %v, %mx : f32",
        "          %ee = math.exp %dd : f32",
        "          %q = arith.divf %ee, %sm : f32",
        f"          memref.store %q, %R[{a}, {b}] : memref<64x64xf32>",
        "        }",
        "      }",
        "    }",
    ]
    cmp = ["    %uy = memref.cast %Y : memref<64x64xf32> to memref<*xf32>",
           "    %ur = memref.cast %R : memref<64x64xf32> to memref<*xf32>",
           "    call @printAllcloseF32(%uy, %ur) : (memref<*xf32>, memref<*xf32>) -> ()"]
    text = tile_program(
        f"xetile_softmax_dim{dim}",
        [f"XeTile softmax along dimension {dim} of each 32x32 tile (shared/spec/xetile.md §3.9, §3.10): maximum,",
         "exp(x - max), sum, divide, as IMEX's softmax tests do; the sums of the result along the same dimension",
         "are printed (1 each, %g precision) and the result is compared with a CPU softmax in host loops.",
         "X[i][j] = (3i + 2j) mod 5 - 2.  CHECK lines: tools/gen_xetile_e2e.py (numpy)."],
        inputs=[("X", (64, 64), "f32", (3, 2, 5, 2))], outputs=[("Y", (64, 64), "f32"), ("T", tshape, "f32")],
        kernel=kernel, grid=(2, 2),
        windows=[("T", ones, 0, 0, 2, 2) if dim == 1 else ("T", ones, 0, 0, 2, 16),
                 ("T", ones, 62, 0, 2, 2) if dim == 1 else ("T", ones, 0, 48, 2, 16)],
        extra_checks=["// CHECK: [ALLCLOSE: TRUE]"])
    # the CPU reference and the comparison run after the windows are printed
    return text.replace("    return\n  }\n  func.func private @printMemrefF32",
                        "\n".join(cpu + cmp) + "\n    return\n  }\n  func.func private @printMemrefF32", 1)


def slm_copy() -> str:
    """Each of a workgroup's two VC threads stores its half of a 32x64 block into SLM; after a barrier each loads
    the other half: Y = X with the two 16-row halves of every 32-row block swapped."""
    x = fill_np((64, 64), 5, 3, 11, 5).astype(np.float64)
    y = x.reshape(2, 2, 16, 64)[:, ::-1].reshape(64, 64)
    slm = "!xetile.tile<16x64xf32, #xetile.tile_attr<memory_space = 3 : i64>>"
    kernel = ["%c16 = arith.constant 16 : index", "%c32 = arith.constant 32 : index",
              "%slm = memref.alloc() : memref<32x64xf32, 3>",
              "%row = arith.muli %bx, %c32 : index", "%half = arith.muli %tx, %c16 : index",
              "%r = arith.addi %row, %half : index",
              "%tx0 = xetile.init_tile %X[%r, %c0] : memref<64x64xf32> -> !xetile.tile<16x64xf32>",
              "%x = xetile.load_tile %tx0 : !xetile.tile<16x64xf32> -> vector<16x64xf32>",
              f"%ts = xetile.init_tile %slm[%half, %c0] : memref<32x64xf32, 3> -> {slm}",
              f"xetile.store_tile %x, %ts : vector<16x64xf32>, {slm}",
              "gpu.barrier",
              "%other = arith.subi %c16, %half : index",
              f"%tl = xetile.init_tile %slm[%other, %c0] : memref<32x64xf32, 3> -> {slm}",
              f"%v = xetile.load_tile %tl : {slm} -> vector<16x64xf32>",
              "%ty0 = xetile.init_tile %Y[%r, %c0] : memref<64x64xf32> -> !xetile.tile<16x64xf32>",
              "xetile.store_tile %v, %ty0 : vector<16x64xf32>, !xetile.tile<16x64xf32>"]
    return tile_program(
        "xetile_slm_copy",
        ["XeTile tiles on shared local memory (shared/spec/xetile.md §3.1 'SLM tile', memory_space = 3): each of the",
         "two VC threads of a workgroup stores its 16x64 half of a 32x64 block of X into a memref<32x64xf32, 3>,",
         "gpu.barrier, then loads the other thread's half and stores it: Y = X with the halves of each block swapped.",
         "X[i][j] = (5i + 3j) mod 11 - 5.  CHECK lines: tools/gen_xetile_e2e.py (numpy)."],
        inputs=[("X", (64, 64), "f32", (5, 3, 11, 5))], outputs=[("Y", (64, 64), "f32")], kernel=kernel,
        grid=(2, 1), threads=(2, 1),
        windows=[("Y", y, 0, 0, 2, 16), ("Y", y, 16, 48, 2, 16), ("Y", y, 46, 0, 4, 16), ("Y", y, 62, 32, 2, 16)])


def coop_transpose() -> str:
    """Y = Xᵀ for a 64x64 X by the four VC threads of one workgroup: thread (tx, ty) loads block (tx, ty),
    transposes it, stores it to SLM block (ty, tx); after a barrier it copies SLM block (tx, ty) to Y."""
    x = fill_np((64, 64), 1, 7, 13, 6).astype(np.float64)
    y = x.T
    slm = "!xetile.tile<32x32xf16, #xetile.tile_attr<memory_space = 3 : i64>>"
    kernel = ["%c32 = arith.constant 32 : index",
              "%slm = memref.alloc() : memref<64x64xf16, 3>",
              "%r = arith.muli %tx, %c32 : index", "%q = arith.muli %ty, %c32 : index",
              "%t0 = xetile.init_tile %X[%r, %q] : memref<64x64xf16> -> !xetile.tile<32x32xf16>",
              "%x = xetile.load_tile %t0 : !xetile.tile<32x32xf16> -> vector<32x32xf16>",
              "%xt = xetile.transpose %x, [1, 0] : vector<32x32xf16> -> vector<32x32xf16>",
              f"%ts = xetile.init_tile %slm[%q, %r] : memref<64x64xf16, 3> -> {slm}",
              f"xetile.store_tile %xt, %ts : vector<32x32xf16>, {slm}",
              "gpu.barrier",
              f"%tl = xetile.init_tile %slm[%r, %q] : memref<64x64xf16, 3> -> {slm}",
              f"%v = xetile.load_tile %tl : {slm} -> vector<32x32xf16>",
              "%w = arith.extf %v : vector<32x32xf16> to vector<32x32xf32>",
              "%ty0 = xetile.init_tile %Y[%r, %q] : memref<64x64xf32> -> !xetile.tile<32x32xf32>",
              "xetile.store_tile %w, %ty0 : vector<32x32xf32>, !xetile.tile<32x32xf32>"]
    return tile_program(
        "xetile_coop_transpose",
        ["Cooperative transpose through SLM (shared/spec/xetile.md §3.8, §4.4 'convert_layout' pattern): the four VC",
         "threads of one workgroup each load a 32x32 f16 block (tx, ty) of X, xetile.transpose it, store it to SLM",
         "block (ty, tx); after gpu.barrier each copies SLM block (tx, ty) to Y (as f32): Y = Xᵀ.",
         "X[i][j] = (i + 7j) mod 13 - 6.  CHECK lines: tools/gen_xetile_e2e.py (numpy)."],
        inputs=[("X", (64, 64), "f16", (1, 7, 13, 6))], outputs=[("Y", (64, 64), "f32")], kernel=kernel,
        grid=(1, 1), threads=(2, 2),
        windows=[("Y", y, 0, 0, 2, 16), ("Y", y, 30, 30, 4, 4), ("Y", y, 40, 8, 2, 16), ("Y", y, 62, 48, 2, 16)])


def _dense(a: np.ndarray, et: str) -> str:
    if et == "i1":
        rows = ["[" + ", ".join("true" if v else "false" for v in r) + "]" for r in a]
    else:
        rows = ["[" + ", ".join(str(int(v)) for v in r) + "]" for r in a]
    return "dense<[" + ", ".join(rows) + "]>"


def gather_scatter() -> str:
    """Masked gathers and scatters on scattered tiles (§3.12–§3.13), with update_tile_offset's vector form."""
    x = fill_np((16, 32), 3, 1, 17, 8).astype(np.float64).reshape(-1)
    e = np.arange(64).reshape(4, 16)
    idx = (e * 37 + 5) % 512                         # gather indices
    mask = (e % 3) != 0
    delta = np.full((4, 16), 7)
    sidx = (e * 5 + 11) % 256                        # scatter indices (distinct)
    smask = (e % 4) != 1
    g1 = np.where(mask, x[idx], 0.0)                 # disabled elements: the padding, 0 by default
    g2 = np.where(mask, x[np.minimum(idx + delta, 511)], 0.0)
    y = np.full(256, -1.0)                           # Y starts as -1 (host loops)
    y[sidx[smask]] = (g1 + g2)[smask]
    y = y.reshape(8, 32)
    g = np.stack([g1, g2]).reshape(8, 16)
    sc = "!xetile.tile<4x16xf32, #xetile.tile_attr<scattered = true>>"
    kernel = [f"%idx = arith.constant {_dense(idx, 'index')} : vector<4x16xindex>",
              f"%mask = arith.constant {_dense(mask, 'i1')} : vector<4x16xi1>",
              "%delta = arith.constant dense<7> : vector<4x16xindex>",
              f"%sidx = arith.constant {_dense(sidx, 'index')} : vector<4x16xindex>",
              f"%smask = arith.constant {_dense(smask, 'i1')} : vector<4x16xi1>",
              "%xf = memref.collapse_shape %X [[0, 1]] : memref<16x32xf32> into memref<512xf32>",
              "%yf = memref.collapse_shape %Y [[0, 1]] : memref<8x32xf32> into memref<256xf32>",
              f"%t = xetile.init_tile %xf, %idx : memref<512xf32>, vector<4x16xindex> -> {sc}",
              f"%g1 = xetile.load %t, %mask : {sc}, vector<4x16xi1> -> vector<4x16xf32>",
              f"%t2 = xetile.update_tile_offset %t, %delta : {sc}, vector<4x16xindex>",
              f"%g2 = xetile.load %t2, %mask : {sc}, vector<4x16xi1> -> vector<4x16xf32>",
              "%s = arith.addf %g1, %g2 : vector<4x16xf32>",
              f"%ts = xetile.init_tile %yf, %sidx : memref<256xf32>, vector<4x16xindex> -> {sc}",
              f"xetile.store %s, %ts, %smask : vector<4x16xf32>, {sc}, vector<4x16xi1>",
              "%tg = xetile.init_tile %G[%c0, %c0] : memref<8x16xf32> -> !xetile.tile<4x16xf32>",
              "%c4 = arith.constant 4 : index",
              "%tg2 = xetile.init_tile %G[%c4, %c0] : memref<8x16xf32> -> !xetile.tile<4x16xf32>",
              "xetile.store_tile %g1, %tg : vector<4x16xf32>, !xetile.tile<4x16xf32>",
              "xetile.store_tile %g2, %tg2 : vector<4x16xf32>, !xetile.tile<4x16xf32>"]
    return tile_program(
        "xetile_gather_scatter",
        ["XeTile gathers and scatters with masks (shared/spec/xetile.md §3.12, §3.13): a scattered tile over the",
         "flattened X with indices (37e + 5) mod 512, gathered under a mask (disabled elements read the padding, 0),",
         "moved by update_tile_offset's vector form (+7) and gathered again; the sum is scattered into Y (which the",
         "host set to -1) at indices (5e + 11) mod 256 under another mask.  X[i][j] = (3i + j) mod 17 - 8.",
         "CHECK lines: tools/gen_xetile_e2e.py (numpy)."],
        inputs=[("X", (16, 32), "f32", (3, 1, 17, 8)), ("Y", (8, 32), "f32", (0, 0, 1, 1))],
        outputs=[("G", (8, 16), "f32")], kernel=kernel, grid=(1, 1),
        windows=[("G", g, 0, 0, 8, 16)],
        extra_host=[], extra_checks=[]).replace(
        "    %G = memref.alloc() : memref<8x16xf32>",
        "    %G = memref.alloc() : memref<8x16xf32>\n    gpu.memcpy %Y, %dY : memref<8x32xf32>, memref<8x32xf32>"
    ).replace("    return\n  }\n  func.func private @printMemrefF32", "\n".join(
        print_window("Y", (8, 32), "f32", 0, 0, 8, 32, "y")) + "\n    return\n  }\n  func.func private @printMemrefF32",
        1) + "\n".join(check_window(y, "f32", 0, 0, 8, 32)) + "\n"


def atomics() -> str:
    """atomic_rmw from four workgroups: addf on a block tile, maxs on a block tile, addi on a scattered tile with
    duplicate addresses."""
    x = fill_np((32, 32), 3, 5, 7, 3).astype(np.float64)
    y0 = fill_np((32, 32), 1, 1, 5, 2).astype(np.float64)
    i0 = fill_np((32, 32), 5, 3, 9, 4)
    z0 = fill_np((32, 32), 2, 7, 11, 5)
    y = y0 + 4 * x
    z = np.maximum(z0, i0 + 3)
    cnt = np.zeros((1, 16), np.int64)
    cnt[0, :8] = 4 * 8  # 4 workgroups x 64 elements spread over 8 counters
    kernel = ["%t = xetile.init_tile %X[%c0, %c0] : memref<32x32xf32> -> !xetile.tile<32x32xf32>",
              "%x = xetile.load_tile %t : !xetile.tile<32x32xf32> -> vector<32x32xf32>",
              "%tyy = xetile.init_tile %Y[%c0, %c0] : memref<32x32xf32> -> !xetile.tile<32x32xf32>",
              "%o = xetile.atomic_rmw addf %x, %tyy : vector<32x32xf32>, !xetile.tile<32x32xf32> -> vector<32x32xf32>",
              "%ti = xetile.init_tile %I[%c0, %c0] : memref<32x32xi32> -> !xetile.tile<32x32xi32>",
              "%i = xetile.load_tile %ti : !xetile.tile<32x32xi32> -> vector<32x32xi32>",
              "%bxi = arith.index_cast %bx : index to i32",
              "%bv = vector.broadcast %bxi : i32 to vector<32x32xi32>",
              "%ib = arith.addi %i, %bv : vector<32x32xi32>",
              "%tz = xetile.init_tile %Z[%c0, %c0] : memref<32x32xi32> -> !xetile.tile<32x32xi32>",
              "%oz = xetile.atomic_rmw maxs %ib, %tz : vector<32x32xi32>, !xetile.tile<32x32xi32> -> vector<32x32xi32>",
              f"%cidx = arith.constant {_dense(np.arange(64).reshape(4, 16) % 8, 'index')} : vector<4x16xindex>",
              "%cf = memref.collapse_shape %Cnt [[0, 1]] : memref<1x16xi32> into memref<16xi32>",
              "%tc = xetile.init_tile %cf, %cidx : memref<16xi32>, vector<4x16xindex> -> "
              "!xetile.tile<4x16xi32, #xetile.tile_attr<scattered = true>>",
              "%ones = arith.constant dense<1> : vector<4x16xi32>",
              "%oc = xetile.atomic_rmw addi %ones, %tc : vector<4x16xi32>, "
              "!xetile.tile<4x16xi32, #xetile.tile_attr<scattered = true>> -> vector<4x16xi32>"]
    text = tile_program(
        "xetile_atomics",
        ["XeTile atomic_rmw (shared/spec/xetile.md §3.7) from four workgroups on the same memory: addf of X onto Y",
         "(Y = Y0 + 4X), maxs of I + (block id) onto Z (Z = max(Z0, I + 3)), and addi of 1 through a scattered",
         "4x16 tile whose indices hit 8 counters 8 times each (duplicates within one op apply one after the other):",
         "each counter ends at 32.  The inputs come from host loops; CHECK lines: tools/gen_xetile_e2e.py (numpy)."],
        inputs=[("X", (32, 32), "f32", (3, 5, 7, 3)), ("Y", (32, 32), "f32", (1, 1, 5, 2)),
                ("I", (32, 32), "i32", (5, 3, 9, 4)), ("Z", (32, 32), "i32", (2, 7, 11, 5)),
                ("Cnt", (1, 16), "i32", (0, 0, 1, 0))],
        outputs=[], kernel=kernel, grid=(4, 1), windows=[])
    copies = []
    for n, et, sh in (("Y", "f32", (32, 32)), ("Z", "i32", (32, 32)), ("Cnt", "i32", (1, 16))):
        mt = f"memref<{sh[0]}x{sh[1]}x{et}>"
        copies.append(f"    gpu.memcpy %{n}, %d{n} : {mt}, {mt}")
    prints = (print_window("Y", (32, 32), "f32", 0, 0, 2, 16, "y") + print_window("Y", (32, 32), "f32", 30, 16, 2, 16, "y2")
              + print_window("Z", (32, 32), "i32", 0, 0, 2, 16, "z") + print_window("Cnt", (1, 16), "i32", 0, 0, 1, 16, "c"))
    checks = (check_window(y, "f32", 0, 0, 2, 16) + check_window(y, "f32", 30, 16, 2, 16)
              + check_window(z, "i32", 0, 0, 2, 16) + check_window(cnt, "i32", 0, 0, 1, 16))
    text = text.replace("    return\n  }\n  func.func private @printMemrefF32",
                        "\n".join(copies + prints) + "\n    return\n  }\n  func.func private @printMemrefF32", 1)
    return text + "\n".join(checks) + "\n"


def array_length() -> str:
    """load_tile of a tile with array_length = 2: two 32x16 blocks side by side (§3.2)."""
    x = fill_np((32, 64), 3, 1, 13, 6).astype(np.float64)
    y = np.zeros((32, 32))
    for it in range(2):
        c = 32 * it
        y[:, 16 * it:16 * it + 16] = x[:, c:c + 16] + 2 * x[:, c + 16:c + 32]
    al = "!xetile.tile<32x16xf32, #xetile.tile_attr<array_length = 2 : i64>>"
    kernel = ["%c16 = arith.constant 16 : index", "%c32 = arith.constant 32 : index", "%c2 = arith.constant 2 : index",
              f"%t = xetile.init_tile %X[%c0, %c0] : memref<32x64xf32> -> {al}",
              "%ty1 = xetile.init_tile %Y[%c0, %c0] : memref<32x32xf32> -> !xetile.tile<32x16xf32>",
              f"%e:2 = scf.for %it = %c0 to %c2 step %c1 iter_args(%at = %t, %yt = %ty1) -> ({al}, !xetile.tile<32x16xf32>) {{",
              f"  %v0, %v1 = xetile.load_tile %at : {al} -> vector<32x16xf32>, vector<32x16xf32>",
              "  %d = arith.addf %v1, %v1 : vector<32x16xf32>",
              "  %s = arith.addf %v0, %d : vector<32x16xf32>",
              "  xetile.store_tile %s, %yt : vector<32x16xf32>, !xetile.tile<32x16xf32>",
              f"  %an = xetile.update_tile_offset %at, [%c0, %c32] : {al}",
              "  %yn = xetile.update_tile_offset %yt, [%c0, %c16] : !xetile.tile<32x16xf32>",
              f"  scf.yield %an, %yn : {al}, !xetile.tile<32x16xf32>",
              "}"]
    return tile_program(
        "xetile_array_length",
        ["load_tile with array_length = 2 (shared/spec/xetile.md §2.2, §3.2): a 32x16 tile stands for two adjacent",
         "32x16 blocks and returns two vectors; in a loop moved by 32 columns, Y[:, 16k + j] = X[:, 32k + j] +",
         "2 X[:, 32k + 16 + j].  X[i][j] = (3i + j) mod 13 - 6.  CHECK lines: tools/gen_xetile_e2e.py (numpy)."],
        inputs=[("X", (32, 64), "f32", (3, 1, 13, 6))], outputs=[("Y", (32, 32), "f32")], kernel=kernel, grid=(1, 1),
        windows=[("Y", y, 0, 0, 2, 32), ("Y", y, 30, 0, 2, 32)])


CHECKSUM_WEIGHT = (7, 13, 11)  # w[i][j] = (7i + 13j) mod 11 + 1


def checksum_np(c: np.ndarray) -> int:
    """The weighted checksum :func:`checksum_loops` computes: sum over i, j of C[i][j]·w[i][j] with
    ``w = (7i + 13j) mod 11 + 1``, in exact integer arithmetic (numpy int64)."""
    a, b, p = CHECKSUM_WEIGHT
    w = fill_np(c.shape, a, b, p, -1).astype(np.int64)
    return int((c.astype(np.int64) * w).sum())


def checksum_loops(buf: str, shape: tuple[int, int]) -> list[str]:
    """Host loops printing (vector.print, i64) the weighted checksum of the f32 matrix ``buf`` whose elements are
    integers: accumulated in f64, exact while every partial sum stays below 2^53 (the caller checks the bound),
    so it equals :func:`checksum_np` whatever the order.  Every element of C enters with a weight in 1 .. 11 and
    neighbours' weights differ (by 2 along a row, 7 down a column, mod 11): a wrong element, or two different
    elements swapped between neighbours, changes it."""
    a, b, p = CHECKSUM_WEIGHT
    r, c = shape
    return [
        "    %sum0 = arith.constant 0.0 : f64",
        f"    %sum = scf.for %i = %c0 to %c{r} step %c1 iter_args(%si = %sum0) -> (f64) {{",
        f"      %sj = scf.for %j = %c0 to %c{c} step %c1 iter_args(%sa = %si) -> (f64) {{",
        f"        %ia = arith.muli %i, %c{a} : index",
        f"        %jb = arith.muli %j, %c{b} : index",
        "        %s = arith.addi %ia, %jb : index",
        f"        %m = arith.remui %s, %c{p} : index",
        "        %m1 = arith.addi %m, %c1 : index",
        "        %mi = arith.index_cast %m1 : index to i32",
        "        %w = arith.sitofp %mi : i32 to f64",
        f"        %x = memref.load %{buf}[%i, %j] : memref<{r}x{c}xf32>",
        "        %xd = arith.extf %x : f32 to f64",
        "        %t = arith.mulf %xd, %w : f64",
        "        %sn = arith.addf %sa, %t : f64",
        "        scf.yield %sn : f64",
        "      }",
        "      scf.yield %sj : f64",
        "    }",
        "    %sumi = arith.fptosi %sum : f64 to i64",
        "    vector.print %sumi : i64",
    ]


def wg_gemm(name: str, et: str, size: int, wg: int, layout: tuple[int, int], tk: int, relu: bool = False,
            checksum: bool = False, fa: tuple[int, int, int, int] = (3, 5, 7, 3),
            fb: tuple[int, int, int, int] = (2, 3, 5, 2)) -> str:
    """A workgroup-level GEMM written once per workgroup with wg_map (xetile.md §1.6 second program, §4).

    The result is checked by ``printAllcloseF32`` against the runtime's host GEMM (as upstream), or with
    ``checksum`` (the 4096^3 program, where the host reference would double the run time) by a weighted checksum
    of every element computed by host loops (:func:`checksum_loops`); printed windows in both cases.  ``fa``/``fb``
    are the fill formulas of A and B (:func:`fill`)."""
    l0, l1 = layout
    da, db = (wg // l0, tk), (tk, wg // l1)
    dc = (wg // l0, wg // l1)
    g = size // wg
    a_np = fill_np((size, size), *fa)
    b_np = fill_np((size, size), *fb)
    # float32 BLAS is exact here (and 2x faster than float64 at 4096^3): every product and partial sum is an
    # integer below 2^24 in magnitude
    assert np.abs(a_np).max() * np.abs(b_np).max() * size < 2 ** 24
    ref = (a_np.astype(np.float32) @ b_np.astype(np.float32)).astype(np.float64)
    if relu:
        ref = np.maximum(ref, 0)
    ta = f"#xetile.tile_attr<wg_map = <sg_layout = [{l0}, {l1}], sg_data = [{da[0]}, {da[1]}]>>"
    tb = f"#xetile.tile_attr<wg_map = <sg_layout = [{l0}, {l1}], sg_data = [{db[0]}, {db[1]}]>>"
    tc = f"#xetile.tile_attr<wg_map = <sg_layout = [{l0}, {l1}], sg_data = [{dc[0]}, {dc[1]}]>>"
    ma = f"#xetile.wg_map<sg_layout = [{l0}, {l1}], sg_data = [{da[0]}, {da[1]}]>"
    mb = f"#xetile.wg_map<sg_layout = [{l0}, {l1}], sg_data = [{db[0]}, {db[1]}]>"
    mc = f"#xetile.wg_map<sg_layout = [{l0}, {l1}], sg_data = [{dc[0]}, {dc[1]}]>"
    mt = f"memref<{size}x{size}x{et}>"
    ct = f"memref<{size}x{size}xf32>"
    aty, bty, cty = (f"!xetile.tile<{wg}x{tk}x{et}, {ta}>", f"!xetile.tile<{tk}x{wg}x{et}, {tb}>",
                     f"!xetile.tile<{wg}x{wg}xf32, {tc}>")
    kern = [
        "  gpu.module @kernels {",
        f"    gpu.func @gemm(%A: {mt}, %B: {mt}, %C: {ct}) kernel {VC} {{",
        "      %c0 = arith.constant 0 : index",
        f"      %ctk = arith.constant {tk} : index",
        f"      %cwg = arith.constant {wg} : index",
        f"      %ck = arith.constant {size} : index",
        "      %bx = gpu.block_id x",
        "      %by = gpu.block_id y",
        "      %m = arith.muli %bx, %cwg : index",
        "      %n = arith.muli %by, %cwg : index",
        f"      %tcw = xetile.init_tile %C[%m, %n] : {ct} -> {cty}",
        f"      %z = arith.constant {{map = {mc}}} dense<0.0> : vector<{wg}x{wg}xf32>",
        f"      %taw = xetile.init_tile %A[%m, %c0] : {mt} -> {aty}",
        f"      %tbw = xetile.init_tile %B[%c0, %n] : {mt} -> {bty}",
        f"      %o:3 = scf.for %k = %c0 to %ck step %ctk iter_args(%at = %taw, %bt = %tbw, %acc = %z) -> ({aty}, {bty}, "
        f"vector<{wg}x{wg}xf32>) {{",
        f"        %a = xetile.load_tile %at : {aty} -> vector<{wg}x{tk}x{et}>",
        f"        %b = xetile.load_tile %bt : {bty} -> vector<{tk}x{wg}x{et}>",
        f"        %d = xetile.tile_mma %a, %b, %acc {{wg_map_a = {ma}, wg_map_b = {mb}, wg_map_c = {mc}}} : "
        f"vector<{wg}x{tk}x{et}>, vector<{tk}x{wg}x{et}>, vector<{wg}x{wg}xf32> -> vector<{wg}x{wg}xf32>",
        f"        %an = xetile.update_tile_offset %at, [%c0, %ctk] : {aty}",
        f"        %bn = xetile.update_tile_offset %bt, [%ctk, %c0] : {bty}",
        f"        scf.yield %an, %bn, %d : {aty}, {bty}, vector<{wg}x{wg}xf32>",
        "      }",
    ]
    res = "%o#2"
    if relu:
        kern += [f"      %zr = arith.constant {{map = {mc}}} dense<0.0> : vector<{wg}x{wg}xf32>",
                 f"      %r = arith.maximumf %o#2, %zr {{map = {mc}}} : vector<{wg}x{wg}xf32>"]
        res = "%r"
    kern += [f"      xetile.store_tile {res}, %tcw : vector<{wg}x{wg}xf32>, {cty}", "      gpu.return", "    }", "  }"]
    wts = CHECKSUM_WEIGHT if checksum else ()
    host = ["  func.func @main() {", *consts({0, 1, *fa[:3], *fb[:3], *wts, g, l0, l1, size}, {fa[3], fb[3]}),
            f"    %A = memref.alloc() : {mt}", f"    %B = memref.alloc() : {mt}",
            *fill("A", (size, size), et, *fa), *fill("B", (size, size), et, *fb),
            f"    %dA = gpu.alloc () : {mt}", f"    %dB = gpu.alloc () : {mt}", f"    %dC = gpu.alloc () : {ct}",
            f"    gpu.memcpy %dA, %A : {mt}, {mt}", f"    gpu.memcpy %dB, %B : {mt}, {mt}",
            f"    gpu.launch_func @kernels::@gemm blocks in (%c{g}, %c{g}, %c1) threads in (%c{l1}, %c{l0}, %c1) "
            f"args(%dA : {mt}, %dB : {mt}, %dC : {ct})",
            f"    %C = memref.alloc() : {ct}", f"    gpu.memcpy %C, %dC : {ct}, {ct}"]
    checks = []
    if checksum:
        bound = int(np.abs(ref).max()) * CHECKSUM_WEIGHT[2] * size * size
        assert bound < 2 ** 53, "the f64 checksum would not be exact"
        host += checksum_loops("C", (size, size))
        checks.append(f"// CHECK: {{{{^}}}}{checksum_np(ref)}{{{{$}}}}")
    elif not relu:
        fn = "gemmF16F16F32" if et == "f16" else "gemmBF16BF16F32"
        host += [f"    %R = memref.alloc() : {ct}", f"    %ua = memref.cast %A : {mt} to memref<*x{et}>",
                 f"    %ub = memref.cast %B : {mt} to memref<*x{et}>", f"    %ur = memref.cast %R : {ct} to memref<*xf32>",
                 f"    %uc = memref.cast %C : {ct} to memref<*xf32>",
                 f"    call @{fn}(%ua, %ub, %ur) : (memref<*x{et}>, memref<*x{et}>, memref<*xf32>) -> ()",
                 "    call @printAllcloseF32(%uc, %ur) : (memref<*xf32>, memref<*xf32>) -> ()"]
        checks.append("// CHECK: [ALLCLOSE: TRUE]")
    for t, (r0, c0) in enumerate([(0, 0), (size - 2, size - 16), (wg - 1, wg - 8)]):
        host += print_window("C", (size, size), "f32", r0, c0, 2, 16, str(t))
        checks += check_window(ref, "f32", r0, c0, 2, 16)
    host += ["    return", "  }"]
    module = [f"module @{name} attributes {{gpu.container_module}} {{", *kern, "", *host, *DECLS, "}"]
    comment = [f"XeTile workgroup-level GEMM {size}^3 {et} -> f32 (shared/spec/xetile.md §1.6 second program, §4):",
               f"written once per workgroup on {wg}x{wg} tiles of C with wg_map sg_layout = [{l0}, {l1}]; {g}x{g} "
               f"workgroups of {l0 * l1} VC threads; xesim runs it on whole tiles (xetile.wg.semantics).",
               *(["Post-op: ReLU (arith.maximumf with a map) before the store."] if relu else []),
               f"A[i][k] = ({fa[0]}i + {fa[1]}k) mod {fa[2]} - {fa[3]}, B[k][j] = ({fb[0]}k + {fb[1]}j) mod {fb[2]} - "
               f"{fb[3]} (host loops); every sum is exact.",
               *(["Checked: a weighted checksum of all of C (host loops, exact in f64) and printed windows."]
                 if checksum else []),
               "CHECK lines: tools/gen_xetile_e2e.py (numpy)."]
    return program(name, comment, module, checks)


# ============================================================================ registry
PROGRAMS = {
    "xetile_gemm_1k_f16": lambda: gemm("xetile_gemm_1k_f16", "f16"),
    "xetile_gemm_1k_bf16": lambda: gemm("xetile_gemm_1k_bf16", "bf16"),
    "xetile_gemm_1k_tf32": lambda: gemm("xetile_gemm_1k_tf32", "tf32", tk=16),
    "xetile_gemm_1k_i8": lambda: gemm("xetile_gemm_1k_i8", "i8", tk=64),
    "xetile_gemm_1k_f16_transpose_a": lambda: gemm(
        "xetile_gemm_1k_f16_transpose_a", "f16", trans_a=True,
        note="A is stored transposed (Aᵀ [K, M]); each A tile is loaded as [tk, tm] and xetile.transpose'd."),
    "xetile_gemm_1k_f16_transpose_b": lambda: gemm(
        "xetile_gemm_1k_f16_transpose_b", "f16", trans_b=True,
        note="B is stored transposed (Bᵀ [N, K]); each B tile is loaded as [tn, tk] and xetile.transpose'd."),
    "xetile_gemm_1k_f16_colmajor_b": lambda: gemm(
        "xetile_gemm_1k_f16_colmajor_b", "f16", col_b=True,
        note="B is column-major: a strided<[1, K]> view and tiles with order = [0, 1] (logical view unchanged, §3.1)."),
    "xetile_gemm_1k_bf16_preop": lambda: gemm(
        "xetile_gemm_1k_bf16_preop", "bf16", preop=True, note="Pre-op: every A tile is doubled (arith.addf a, a)."),
    "xetile_gemm_1k_f16_relu": lambda: gemm(
        "xetile_gemm_1k_f16_relu", "f16", postop="relu", note="Post-op: ReLU (arith.maximumf with 0) before the store."),
    "xetile_gemm_1k_f16_bias": lambda: gemm(
        "xetile_gemm_1k_f16_bias", "f16", postop="bias",
        note="Post-op: C + bias[j] (bias[j] = j mod 9 - 4), the bias row loaded as a 1xN tile and xetile.broadcast."),
    "xetile_gemm_1k_f16_dynamic": lambda: gemm(
        "xetile_gemm_1k_f16_dynamic", "f16", dynamic=True,
        note="A and B are passed as memref<?x?xf16>: init_tile takes the sizes and strides as operands."),
    "xetile_reduce_broadcast_rows": reduce_rows,
    "xetile_reduce_broadcast_cols": reduce_cols,
    "xetile_reduction_size": reduce_size,
    "xetile_softmax_dim1": lambda: softmax(1),
    "xetile_softmax_dim0": lambda: softmax(0),
    "xetile_slm_copy": slm_copy,
    "xetile_coop_transpose": coop_transpose,
    "xetile_gather_scatter": gather_scatter,
    "xetile_atomics": atomics,
    "xetile_array_length": array_length,
    "xetile_wg_gemm_1k_f16": lambda: wg_gemm("xetile_wg_gemm_1k_f16", "f16", 1024, 256, (8, 4), 32),
    "xetile_wg_gemm_512_bf16_relu": lambda: wg_gemm("xetile_wg_gemm_512_bf16_relu", "bf16", 512, 128, (4, 4), 32,
                                                    relu=True),
    # fills with non-zero means and coprime periods: every K chunk changes C (the 1k formulas' periods 7 and 5
    # have zero means, so over K = 4096 = 117·35 + 1 most of C would come from the last k)
    "xetile_wg_gemm_4k_f16": lambda: wg_gemm("xetile_wg_gemm_4k_f16", "f16", 4096, 256, (8, 4), 32, checksum=True,
                                             fa=(3, 5, 13, 4), fb=(2, 3, 11, 3)),
    "xetile_gemm_f16_out_chunks": lambda: gemm(
        "xetile_gemm_f16_out_chunks", "f16", m=64, n=64, k=128, tm=32, tn=32, tk=64, out="f16",
        fa=(3, 5, 31, 0), fb=(2, 3, 17, 0),
        note="f16 output: tile_mma's K-chunks of 16 accumulate in increasing order, each rounded to f16 (§3.6); "
             "14 of the 32 values of each printed window differ from one final rounding of the exact sum."),
    "xetile_gemm_oob_tails": lambda: gemm(
        "xetile_gemm_oob_tails", "f16", m=200, n=72, k=104, tm=32, tn=32, tk=32,
        note="Non-power-of-two shapes: the last tiles reach past M, N and K; out-of-bounds loads read 0 and "
             "out-of-bounds stores are dropped (§3.2, §3.3)."),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args(argv)
    bad = 0
    for name, make in PROGRAMS.items():
        if args.names and name not in args.names:
            continue
        text = make()
        path = OUT / f"{name}.mlir"
        if args.check:
            if not path.exists() or path.read_text() != text:
                print(f"{path} differs from the generator", file=sys.stderr)
                bad = 1
        else:
            path.write_text(text)
    return bad


if __name__ == "__main__":
    sys.exit(main())
