"""The probe kit (issue 29 item 3): self-checking programs that run the distinguishing DPAS test vectors of
spec/dpas-test-vectors.md on a real GPU, written in upstream syntax so mlir-runner runs them unchanged.

One program per (input type, accumulator type) group.  Each test vector runs in its own workgroup as one
subgroup-level DPAS with the vector placed in row 0 / column 0 and in row 1 / column 15, every other element +0
(spec/dpas-numerics.md §6.1); the host prints the bits of D[0][0] and D[1][15] of every vector with
``printMemrefI32`` (one row per vector), so nothing depends on how floats are printed.  The first lines of each
program say what it probes (``// PROBE: dpas a=<type> dst=<type> vectors=<ids>``, read back by
:mod:`xesim.probe.calibrate`) and how to run it on a GPU; the output goes beside it as ``NAME.mlir.out``.

tf32 operands are stored as f32 and converted with ``arith.truncf``; vectors whose tf32 inputs are not exact in
tf32 (F14, which measures how DPAS reads the low 13 bits) would then measure ``arith.truncf`` instead, so they are
left out.  Integer DPAS is not emitted: the upstream XeGPU-to-XeVM lowering rejects it
(spec/pvc-hardware.md §3.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from xesim.numerics.dpas_vectors import VECTORS, VECTORS_16
from xesim.probe.checks import RUN_ON_GPU

#: input format of the tables -> (MLIR element type of the DPAS operand, storage type in memory, its bits)
FORMATS = {"bf16": ("bf16", "bf16", 16), "fp16": ("f16", "f16", 16), "tf32": ("tf32", "f32", 32)}


def dpas_k(op_type: str, target: str = "pvc") -> int:
    """K of one DPAS with operands of ``op_type`` on ``target``: systolic depth x ops per channel (isa/targets)."""
    from xesim.hw.params import load_target

    t = load_target(target)
    return t.dpas.systolic_depth * t.dpas.ops_per_channel[op_type]


def _min_width_bytes(target: str) -> int:
    from xesim.hw.params import load_target

    return load_target(target).block2d.surface_width_min_bytes



@dataclass(frozen=True)
class ProbeGroup:
    """The vectors one probe program runs: input table format ``fmt``, accumulator/result type ``dst`` (``f32``,
    or the 16-bit input type for the T13 vectors) and the vector ids, with their inputs (fmt, A, B, C bits)."""

    name: str
    fmt: str
    dst: str
    vectors: tuple[tuple[str, dict[int, int], dict[int, int], int], ...]

    @property
    def ids(self) -> list[str]:
        return [v[0] for v in self.vectors]


def _tf32_exact(bits: int) -> bool:
    return bits & 0x1FFF == 0


def probe_groups() -> tuple[list[ProbeGroup], list[str]]:
    """The probe groups, and the vectors left out (with the reason)."""
    skipped: list[str] = []
    groups: list[ProbeGroup] = []
    for fmt in ("bf16", "fp16", "tf32"):
        vs = []
        for vid, (f, a, b, c) in VECTORS.items():
            if f != fmt:
                continue
            if fmt == "tf32" and not all(_tf32_exact(x) for x in (*a.values(), *b.values())):
                skipped.append(f"{vid}: its inputs are not exact in tf32, so arith.truncf would decide the result")
                continue
            vs.append((vid, a, b, c))
        groups.append(ProbeGroup(f"dpas_{fmt}_f32", fmt, "f32", tuple(vs)))
    for fmt in ("fp16", "bf16"):
        vs = [(vid, a, b, c) for vid, (f, a, b, c) in VECTORS_16.items() if f == fmt]
        groups.append(ProbeGroup(f"dpas_{fmt}_{FORMATS[fmt][0]}", fmt, FORMATS[fmt][0], tuple(vs)))
    return groups, skipped


def _signed(bits: int, width: int) -> int:
    return bits - (1 << width) if bits >> (width - 1) else bits


def _dense(rows: list[list[int]]) -> str:
    return "[" + ", ".join("[" + ", ".join(str(x) for x in r) + "]" for r in rows) + "]"


def program_text(g: ProbeGroup, target: str = "pvc") -> str:
    """The probe program of group ``g`` for ``target`` (see the module docstring)."""
    op_t, store_t, width = FORMATS[g.fmt]
    k = dpas_k(op_t, target)
    n = len(g.vectors)
    dst_bits = 32 if g.dst == "f32" else 16
    min_w = _min_width_bytes(target)  # 2D block surfaces are at least this wide
    wa = max(k, min_w // (width // 8))
    wb = max(16, min_w // (width // 8))
    wc = max(16, min_w // (dst_bits // 8))
    ib, idst = f"i{width}", f"i{dst_bits}"
    a = [[0] * wa for _ in range(8 * n)]
    b = [[0] * wb for _ in range(k * n)]
    c = [[0] * wc for _ in range(8 * n)]
    for v, (_, an, bn, cb) in enumerate(g.vectors):
        for kk, bits in an.items():
            a[8 * v][kk] = a[8 * v + 1][kk] = _signed(bits, width)
        for kk, bits in bn.items():
            b[k * v + kk][0] = b[k * v + kk][15] = _signed(bits, width)
        c[8 * v][0] = c[8 * v + 1][15] = _signed(cb, dst_bits)
    ta, tb, tc = f"{8 * n}x{wa}", f"{k * n}x{wb}", f"{8 * n}x{wc}"
    conv_a = conv_b = ""
    av, bv = "%av", "%bv"
    if store_t != op_t:
        conv_a = f"      %at = arith.truncf %av : vector<8x{k}x{store_t}> to vector<8x{k}x{op_t}>\n"
        conv_b = f"      %bt = arith.truncf %bv : vector<{k}x16x{store_t}> to vector<{k}x16x{op_t}>\n"
        av, bv = "%at", "%bt"
    if g.dst == "f32":
        to_bits = "      %b0 = arith.bitcast %d0 : f32 to i32\n      %b1 = arith.bitcast %d1 : f32 to i32\n"
    else:
        to_bits = (f"      %h0 = arith.bitcast %d0 : {g.dst} to i16\n      %h1 = arith.bitcast %d1 : {g.dst} to i16\n"
                   "      %b0 = arith.extui %h0 : i16 to i32\n      %b1 = arith.extui %h1 : i16 to i32\n")

    def fill(name: str, glob: str, shape: str, rows: int, cols: int, t: str, bits: str) -> str:
        return (f"    %g{name} = memref.get_global @{glob} : memref<{shape}x{bits}>\n"
                f"    %{name} = memref.alloc() : memref<{shape}x{t}>\n"
                f"    scf.for %i = %c0 to %c{rows} step %c1 {{\n"
                f"      scf.for %j = %c0 to %c{cols} step %c1 {{\n"
                f"        %u = memref.load %g{name}[%i, %j] : memref<{shape}x{bits}>\n"
                f"        %f = arith.bitcast %u : {bits} to {t}\n"
                f"        memref.store %f, %{name}[%i, %j] : memref<{shape}x{t}>\n"
                "      }\n    }\n")

    consts = sorted({0, 1, 8, 15, 16, k, n, 8 * n, k * n, wa, wb, wc})
    name = f"{g.name}.mlir"
    lines = [
        f"// xesim probe kit: DPAS {g.fmt} x {g.fmt} -> {g.dst}, the test vectors of spec/dpas-test-vectors.md",
        f"// PROBE: dpas a={g.fmt} dst={g.dst} vectors={','.join(g.ids)}",
        "// Run it on a GPU and save what it prints beside it, then run `xesim calibrate` on this directory:",
        f"//   {RUN_ON_GPU.format(name=name)}",
        "// Vector v (in the order above) runs in workgroup v: one DPAS with the vector in row 0 / column 0 and in",
        "// row 1 / column 15 (every other element +0); row v of the printed i32 memref holds the bits of D[0][0]",
        "// and D[1][15].",
        f"module @{g.name} attributes {{gpu.container_module}} {{",
        f'  memref.global "private" constant @a_bits : memref<{ta}x{ib}> = dense<{_dense(a)}>',
        f'  memref.global "private" constant @b_bits : memref<{tb}x{ib}> = dense<{_dense(b)}>',
        f'  memref.global "private" constant @c_bits : memref<{tc}x{idst}> = dense<{_dense(c)}>',
        "  gpu.module @kernels {",
        f"    gpu.func @probe(%a: memref<{ta}x{store_t}>, %b: memref<{tb}x{store_t}>, %c: memref<{tc}x{g.dst}>) "
        "kernel {",
        "      %c8 = arith.constant 8 : index",
        f"      %ck = arith.constant {k} : index",
        "      %v = gpu.block_id x",
        "      %ra = arith.muli %v, %c8 : index",
        "      %rb = arith.muli %v, %ck : index",
        f"      %ta = xegpu.create_nd_tdesc %a : memref<{ta}x{store_t}> -> !xegpu.tensor_desc<8x{k}x{store_t}>",
        f"      %tb = xegpu.create_nd_tdesc %b : memref<{tb}x{store_t}> -> !xegpu.tensor_desc<{k}x16x{store_t}>",
        f"      %tc = xegpu.create_nd_tdesc %c : memref<{tc}x{g.dst}> -> !xegpu.tensor_desc<8x16x{g.dst}>",
        f"      %av = xegpu.load_nd %ta[%ra, 0] : !xegpu.tensor_desc<8x{k}x{store_t}> -> vector<8x{k}x{store_t}>",
        f"      %bv = xegpu.load_nd %tb[%rb, 0] : !xegpu.tensor_desc<{k}x16x{store_t}> -> vector<{k}x16x{store_t}>",
        f"      %cv = xegpu.load_nd %tc[%ra, 0] : !xegpu.tensor_desc<8x16x{g.dst}> -> vector<8x16x{g.dst}>",
        conv_a.rstrip("\n"), conv_b.rstrip("\n"),
        f"      %dv = xegpu.dpas {av}, {bv}, %cv : vector<8x{k}x{op_t}>, vector<{k}x16x{op_t}>, "
        f"vector<8x16x{g.dst}> -> vector<8x16x{g.dst}>",
        f"      xegpu.store_nd %dv, %tc[%ra, 0] : vector<8x16x{g.dst}>, !xegpu.tensor_desc<8x16x{g.dst}>",
        "      gpu.return",
        "    }",
        "  }",
        "",
        "  func.func @main() {",
        *[f"    %c{x} = arith.constant {x} : index" for x in consts],
        fill("A", "a_bits", ta, 8 * n, wa, store_t, ib).rstrip("\n"),
        fill("B", "b_bits", tb, k * n, wb, store_t, ib).rstrip("\n"),
        fill("C", "c_bits", tc, 8 * n, wc, g.dst, idst).rstrip("\n"),
        f"    %dA = gpu.alloc () : memref<{ta}x{store_t}>",
        f"    %dB = gpu.alloc () : memref<{tb}x{store_t}>",
        f"    %dC = gpu.alloc () : memref<{tc}x{g.dst}>",
        f"    gpu.memcpy %dA, %A : memref<{ta}x{store_t}>, memref<{ta}x{store_t}>",
        f"    gpu.memcpy %dB, %B : memref<{tb}x{store_t}>, memref<{tb}x{store_t}>",
        f"    gpu.memcpy %dC, %C : memref<{tc}x{g.dst}>, memref<{tc}x{g.dst}>",
        f"    gpu.launch_func @kernels::@probe blocks in (%c{n}, %c1, %c1) threads in (%c16, %c1, %c1) "
        f"args(%dA : memref<{ta}x{store_t}>, %dB : memref<{tb}x{store_t}>, %dC : memref<{tc}x{g.dst}>)",
        "    gpu.wait",
        f"    gpu.memcpy %C, %dC : memref<{tc}x{g.dst}>, memref<{tc}x{g.dst}>",
        f"    %R = memref.alloc() : memref<{n}x2xi32>",
        f"    scf.for %w = %c0 to %c{n} step %c1 {{",
        "      %r0 = arith.muli %w, %c8 : index",
        "      %r1 = arith.addi %r0, %c1 : index",
        f"      %d0 = memref.load %C[%r0, %c0] : memref<{tc}x{g.dst}>",
        f"      %d1 = memref.load %C[%r1, %c15] : memref<{tc}x{g.dst}>",
        to_bits.rstrip("\n"),
        f"      memref.store %b0, %R[%w, %c0] : memref<{n}x2xi32>",
        f"      memref.store %b1, %R[%w, %c1] : memref<{n}x2xi32>",
        "    }",
        f"    %cast = memref.cast %R : memref<{n}x2xi32> to memref<*xi32>",
        "    call @printMemrefI32(%cast) : (memref<*xi32>) -> ()",
        "    return",
        "  }",
        "  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}",
        "}",
    ]
    return "\n".join(line for line in lines if line != "") + "\n"


def emit(directory: str, target: str = "pvc") -> list[Path]:
    """Write every probe program (the DPAS groups and the check probes of :mod:`xesim.probe.checks`) into
    ``directory`` (created if missing); returns their paths.  The programs are the same for every target with
    subgroup size 16 whose DPAS and block-surface parameters they read (pvc, bmg)."""
    from xesim.probe.checks import CHECKS

    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    groups, _ = probe_groups()
    texts = [(g.name, program_text(g, target)) for g in groups] + [(name, make()) for name, make in CHECKS.items()]
    out = []
    for name, text in texts:
        p = d / f"{name}.mlir"
        tmp = p.with_name(f".{p.name}.tmp")
        tmp.write_text(text)
        tmp.replace(p)
        out.append(p)
    return out
