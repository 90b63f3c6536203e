"""Check probes (issue 29 item 3): programs whose output xesim predicts from behaviour it takes as known or
approximates, run on a GPU to test that prediction rather than to fit a parameter.

* ``block_oob.mlir`` — 2D block loads partly outside their surface in each load mode (plain, packed/VNNI,
  transposed): the out-of-surface elements read 0 (spec/pvc-hardware.md §1.4).  Surfaces hold non-zero values,
  so any other fill shows.
* ``math_points.mlir`` — ``math.*`` functions at 128 chosen f32 points, printed as bits: xesim computes them in
  f64 and rounds once (ARCHITECTURE.md "Numerics"); the GPU's math library may differ in the last bits, and the
  calibration reports by how many ULPs per function.

``xesim calibrate`` runs each on xesim and compares with the GPU's output (:mod:`xesim.crosscheck.compare`).
"""

from __future__ import annotations

#: The math functions of ``math_points.mlir``, in the order of their 8-row groups in the output.
MATH_FUNCTIONS = ("exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tanh", "erf")

RUN_ON_GPU = ('mlir-opt {name} --gpu-lower-to-xevm-pipeline="xegpu-op-level=subgroup" | mlir-runner '
              '--entry-point-result=void --shared-libs=<libmlir_levelzero_runtime.so>,<libmlir_runner_utils.so>,'
              '<libmlir_c_runner_utils.so> > {name}.out')


def _header(name: str, what: str) -> list[str]:
    return [f"// xesim probe kit: {what}",
            f"// CHECK-PROBE: {name}",
            "// Run it on a GPU and save what it prints beside it, then run `xesim calibrate` on this directory:",
            f"//   {RUN_ON_GPU.format(name=name + '.mlir')}"]


def _fill_loop(buf: str, shape: str, rows: str, cols: str, width: str, t: str) -> list[str]:
    """Host loops storing (row * width + col + 1) into ``buf`` (small integers, exact in ``t``)."""
    conv = [f"        %v = arith.uitofp %n : i32 to {t}"]
    return [f"    scf.for %i = %c0 to {rows} step %c1 {{",
            f"      scf.for %j = %c0 to {cols} step %c1 {{",
            f"        %r = arith.muli %i, {width} : index",
            "        %s = arith.addi %r, %j : index",
            "        %s1 = arith.addi %s, %c1 : index",
            "        %n = arith.index_cast %s1 : index to i32",
            *conv,
            f"        memref.store %v, {buf}[%i, %j] : memref<{shape}x{t}>",
            "      }", "    }"]


def block_oob_text() -> str:
    """Loads partly outside their surfaces: plain f32 8x16 at [12, 8] of 16x16; packed f16 16x16 at [8, 24] of
    16x32; transposed f32 16x8 at [8, 12] of 16x16.  The host prints the three results as f32."""
    lines = _header("block_oob", "2D block loads partly outside the surface, per load mode (zero fill)") + [
        "// out0 = S[12:20, 8:24] with 0 outside (S 16x16 f32, S[i][j] = 16i + j + 1);",
        "// out1 = the packed (VNNI) load of H[8:24, 24:40] (H 16x32 f16, H[i][j] = 32i + j + 1), 0 outside, as 8x32;",
        "// out2 = the transposed load of S[8:24, 12:20] (out2[r][c] = S[8 + c][12 + r]), 0 outside.",
        "module @block_oob attributes {gpu.container_module} {",
        "  gpu.module @kernels {",
        "    gpu.func @k(%s: memref<16x16xf32>, %h: memref<16x32xf16>, %o0: memref<8x16xf32>, "
        "%o1: memref<8x32xf16>, %o2: memref<8x16xf32>) kernel {",
        "      %ts = xegpu.create_nd_tdesc %s : memref<16x16xf32> -> !xegpu.tensor_desc<8x16xf32>",
        "      %tt = xegpu.create_nd_tdesc %s : memref<16x16xf32> -> !xegpu.tensor_desc<16x8xf32>",
        "      %th = xegpu.create_nd_tdesc %h : memref<16x32xf16> -> !xegpu.tensor_desc<16x16xf16>",
        "      %t0 = xegpu.create_nd_tdesc %o0 : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>",
        "      %t1 = xegpu.create_nd_tdesc %o1 : memref<8x32xf16> -> !xegpu.tensor_desc<8x32xf16>",
        "      %t2 = xegpu.create_nd_tdesc %o2 : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>",
        "      %a = xegpu.load_nd %ts[12, 8] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>",
        "      %b = xegpu.load_nd %th[8, 24] <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>",
        "      %b2 = vector.shape_cast %b : vector<8x16x2xf16> to vector<8x32xf16>",
        "      %c = xegpu.load_nd %tt[8, 12] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x8xf32> -> "
        "vector<8x16xf32>",
        "      xegpu.store_nd %a, %t0[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>",
        "      xegpu.store_nd %b2, %t1[0, 0] : vector<8x32xf16>, !xegpu.tensor_desc<8x32xf16>",
        "      xegpu.store_nd %c, %t2[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>",
        "      gpu.return",
        "    }",
        "  }",
        "  func.func @main() {",
        *[f"    %c{x} = arith.constant {x} : index" for x in (0, 1, 8, 16, 32)],
        "    %S = memref.alloc() : memref<16x16xf32>",
        "    %H = memref.alloc() : memref<16x32xf16>",
        *_fill_loop("%S", "16x16", "%c16", "%c16", "%c16", "f32"),
        *_fill_loop("%H", "16x32", "%c16", "%c32", "%c32", "f16"),
    ]
    bufs = [("dS", "16x16xf32", "%S"), ("dH", "16x32xf16", "%H"), ("d0", "8x16xf32", None), ("d1", "8x32xf16", None),
            ("d2", "8x16xf32", None)]
    for name, t, src in bufs:
        lines.append(f"    %{name} = gpu.alloc () : memref<{t}>")
        if src:
            lines.append(f"    gpu.memcpy %{name}, {src} : memref<{t}>, memref<{t}>")
    lines += [
        "    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dS : "
        "memref<16x16xf32>, %dH : memref<16x32xf16>, %d0 : memref<8x16xf32>, %d1 : memref<8x32xf16>, "
        "%d2 : memref<8x16xf32>)",
        "    gpu.wait",
        "    %O0 = memref.alloc() : memref<8x16xf32>",
        "    %O1 = memref.alloc() : memref<8x32xf16>",
        "    %O1f = memref.alloc() : memref<8x32xf32>",
        "    %O2 = memref.alloc() : memref<8x16xf32>",
        "    gpu.memcpy %O0, %d0 : memref<8x16xf32>, memref<8x16xf32>",
        "    gpu.memcpy %O1, %d1 : memref<8x32xf16>, memref<8x32xf16>",
        "    gpu.memcpy %O2, %d2 : memref<8x16xf32>, memref<8x16xf32>",
        "    scf.for %i = %c0 to %c8 step %c1 {",
        "      scf.for %j = %c0 to %c32 step %c1 {",
        "        %x = memref.load %O1[%i, %j] : memref<8x32xf16>",
        "        %y = arith.extf %x : f16 to f32",
        "        memref.store %y, %O1f[%i, %j] : memref<8x32xf32>",
        "      }",
        "    }",
    ]
    for name, t in (("O0", "8x16xf32"), ("O1f", "8x32xf32"), ("O2", "8x16xf32")):
        lines += [f"    %p{name} = memref.cast %{name} : memref<{t}> to memref<*xf32>",
                  f"    call @printMemrefF32(%p{name}) : (memref<*xf32>) -> ()"]
    lines += ["    return", "  }", "  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}",
              "}"]
    return "\n".join(lines) + "\n"


def math_points_text() -> str:
    """Each function of :data:`MATH_FUNCTIONS` at x[r][c] = (16r + c - 64) * 15/128 (exact in f32, -7.5 to
    7.38); rows 8f..8f+7 of the printed i32 memref hold function f's result bits."""
    nf = len(MATH_FUNCTIONS)
    lines = _header("math_points", "math functions at chosen points, as bits") + [
        f"// Functions, one 8x16 block of the printed {8 * nf}x16 memref each: {', '.join(MATH_FUNCTIONS)}.",
        "module @math_points attributes {gpu.container_module} {",
        "  gpu.module @kernels {",
        f"    gpu.func @k(%x: memref<8x16xf32>, %o: memref<{8 * nf}x16xf32>) kernel {{",
        "      %tx = xegpu.create_nd_tdesc %x : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>",
        f"      %to = xegpu.create_nd_tdesc %o : memref<{8 * nf}x16xf32> -> !xegpu.tensor_desc<8x16xf32>",
        "      %v = xegpu.load_nd %tx[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>",
    ]
    for f, name in enumerate(MATH_FUNCTIONS):
        lines += [f"      %r{f} = math.{name} %v : vector<8x16xf32>",
                  f"      xegpu.store_nd %r{f}, %to[{8 * f}, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>"]
    lines += [
        "      gpu.return", "    }", "  }",
        "  func.func @main() {",
        *[f"    %c{x} = arith.constant {x} : index" for x in sorted({0, 1, 8, 16, 8 * nf})],
        "    %c64 = arith.constant 64 : i32",
        "    %step = arith.constant 0.1171875 : f32",
        "    %X = memref.alloc() : memref<8x16xf32>",
        "    scf.for %i = %c0 to %c8 step %c1 {",
        "      scf.for %j = %c0 to %c16 step %c1 {",
        "        %r = arith.muli %i, %c16 : index",
        "        %s = arith.addi %r, %j : index",
        "        %n = arith.index_cast %s : index to i32",
        "        %m = arith.subi %n, %c64 : i32",
        "        %f = arith.sitofp %m : i32 to f32",
        "        %x = arith.mulf %f, %step : f32",
        "        memref.store %x, %X[%i, %j] : memref<8x16xf32>",
        "      }",
        "    }",
        "    %dX = gpu.alloc () : memref<8x16xf32>",
        f"    %dO = gpu.alloc () : memref<{8 * nf}x16xf32>",
        "    gpu.memcpy %dX, %X : memref<8x16xf32>, memref<8x16xf32>",
        "    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dX : "
        f"memref<8x16xf32>, %dO : memref<{8 * nf}x16xf32>)",
        "    gpu.wait",
        f"    %O = memref.alloc() : memref<{8 * nf}x16xf32>",
        f"    gpu.memcpy %O, %dO : memref<{8 * nf}x16xf32>, memref<{8 * nf}x16xf32>",
        f"    %B = memref.alloc() : memref<{8 * nf}x16xi32>",
        f"    scf.for %i = %c0 to %c{8 * nf} step %c1 {{",
        "      scf.for %j = %c0 to %c16 step %c1 {",
        f"        %y = memref.load %O[%i, %j] : memref<{8 * nf}x16xf32>",
        "        %b = arith.bitcast %y : f32 to i32",
        f"        memref.store %b, %B[%i, %j] : memref<{8 * nf}x16xi32>",
        "      }",
        "    }",
        f"    %p = memref.cast %B : memref<{8 * nf}x16xi32> to memref<*xi32>",
        "    call @printMemrefI32(%p) : (memref<*xi32>) -> ()",
        "    return", "  }",
        "  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}",
        "}",
    ]
    return "\n".join(lines) + "\n"


#: check probe name -> program text builder
CHECKS = {"block_oob": block_oob_text, "math_points": math_points_text}
