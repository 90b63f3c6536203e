"""--check-memory (xesim/observe/memcheck.py): reads of unwritten bytes (init), 2D block and scattered accesses out of
bounds, masked-off lanes included (bounds), allocations never freed (leaks) -- each check at the program levels where
it differs (SG, lane, VC; host code for init and leaks), with the run's output unchanged, silence without the flag
and on correct programs, and the selection, --strict and XESIM_ENGINE=both behaviour.

Expected counts and values are worked out by hand from the programs (comments next to each)."""

from __future__ import annotations

import io
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest

import xesim
from tests.conftest import run_xesim
from xesim.config import ConfigError, RunConfig, memory_checks
from xesim.diagnostics import DiagnosticError

ROOT = Path(__file__).resolve().parents[2]
CTX = "kernel @kernels::@k, workgroup (0, 0, 0), subgroup 0"


def _program(body: str, attrs: str = "", threads: int = 16, grid: int = 1, host: str = "") -> str:
    """A kernel ``@k(%in, %out)`` over two 16x16 f32 device buffers: ``%in`` holds 0..255 (row-major; filled on the
    host and copied), ``%out`` is cleared by ``gpu.memset``; main launches ``grid`` workgroups of ``threads``,
    prints ``%out`` and frees everything (so nothing leaks unless ``host`` adds it)."""
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k(%in: memref<16x16xf32>, %out: memref<16x16xf32>) kernel {attrs} {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
{body}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %cG = arith.constant {grid} : index
    %cT = arith.constant {threads} : index
    %zero = arith.constant 0.0 : f32
    %h = memref.alloc() : memref<16x16xf32>
    scf.for %i = %c0 to %c16 step %c1 {{
      scf.for %j = %c0 to %c16 step %c1 {{
        %r = arith.muli %i, %c16 : index
        %n = arith.addi %r, %j : index
        %ni = arith.index_cast %n : index to i32
        %nf = arith.sitofp %ni : i32 to f32
        memref.store %nf, %h[%i, %j] : memref<16x16xf32>
      }}
    }}
    %din = gpu.alloc () : memref<16x16xf32>
    %dout = gpu.alloc () : memref<16x16xf32>
    gpu.memcpy %din, %h : memref<16x16xf32>, memref<16x16xf32>
    gpu.memset %dout, %zero : memref<16x16xf32>, f32
    gpu.launch_func @kernels::@k blocks in (%cG, %c1, %c1) threads in (%cT, %c1, %c1) args(%din : memref<16x16xf32>, %dout : memref<16x16xf32>)
    gpu.memcpy %h, %dout : memref<16x16xf32>, memref<16x16xf32>
    %u = memref.cast %h : memref<16x16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
{host}
    gpu.dealloc %din : memref<16x16xf32>
    gpu.dealloc %dout : memref<16x16xf32>
    memref.dealloc %h : memref<16x16xf32>
    return
  }}
  func.func private @printMemrefF32(memref<*xf32>) attributes {{llvm.emit_c_interface}}
}}
"""


def _host(body: str, decls: str = "") -> str:
    """A host-only program: ``body`` in main with constants %c0, %c1, %c4, %c16 and %f1 = 1.0."""
    return f"""module {{
{decls}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %f1 = arith.constant 1.0 : f32
{body}
    return
  }}
  func.func private @printMemrefF32(memref<*xf32>) attributes {{llvm.emit_c_interface}}
  func.func private @printF32(f32)
  func.func private @printNewline()
}}
"""


def _run(tmp_path: Path, text: str, *flags: str) -> tuple[int, str, str]:
    f = tmp_path / "p.mlir"
    f.write_text(text)
    return run_xesim(["run", *flags, str(f)])


def _loc(text: str, needle: str) -> str:
    """``p.mlir:LINE:COL`` of the op on the first line containing ``needle``."""
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return f"p.mlir:{i}:{len(line) - len(line.lstrip()) + 1}"
    raise AssertionError(needle)


def _rows(out: str) -> list[list[float]]:
    """The matrix printMemrefF32 printed."""
    return [[float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?", line)] for line in out.splitlines()[1:]]


def _findings(err: str) -> list[str]:
    """The summary lines ``p.mlir:LINE:COL: 'op' check: N time(s)`` (directory left out)."""
    return [line.strip().rsplit("/", 1)[-1] for line in err.splitlines() if line.startswith("  ") and "time(s)" in line]


# ================================================================================== options
def test_checks_are_selected_by_name_and_off_by_default() -> None:
    assert memory_checks("all") == memory_checks(True) == {"init", "bounds", "leaks"}
    assert memory_checks("init, leaks") == {"init", "leaks"}
    assert memory_checks(None) == memory_checks("") == memory_checks(False) == frozenset()
    with pytest.raises(ConfigError, match="unknown memory check.s. bogus"):
        memory_checks("init,bogus")
    assert RunConfig().check_memory == frozenset()
    assert RunConfig(check_memory="bounds").check_memory == {"bounds"}
    assert not any(type(o).__name__ == "MemoryChecker" for o in xesim.api.standard_observers(RunConfig()))


def test_cli_flag_forms(tmp_path: Path) -> None:
    text = _host("    %a = memref.alloc() : memref<4xf32>")
    status, _, err = _run(tmp_path, text, "--check-memory=init,bogus")
    assert status == 2 and "unknown memory check(s) bogus" in err, err
    status, _, err = _run(tmp_path, text, "--check-memory")  # bare: all checks, the file stays the input
    assert status == 0 and "--check-memory=init,bounds,leaks" in err, err
    status, _, err = _run(tmp_path, text, "--check-memory=init")  # the leak is not looked for
    assert status == 0 and "memory check (--check-memory=init): no findings" in err, err
    status, _, err = _run(tmp_path, text)
    assert status == 0 and err == ""


# ================================================================================== bounds: 2D block accesses
BLOCK = """      %t = xegpu.create_nd_tdesc %in : memref<16x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %o = xegpu.create_nd_tdesc %out : memref<16x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %v = xegpu.load_nd %t[ROW, COL] : !xegpu.tensor_desc<8x16xf32> -> VT
      xegpu.store_nd %v, %o[SROW, 0] : VT, !xegpu.tensor_desc<8x16xf32>"""


def _block(row: int, col: int, srow: int = 0, vt: str = "vector<8x16xf32>") -> str:
    return BLOCK.replace("SROW", str(srow)).replace("ROW", str(row)).replace("COL", str(col)).replace("VT", vt)


@pytest.mark.parametrize("level", ["sg", "lane", "vc"])
def test_a_block_load_partly_outside_its_surface_is_a_warning(tmp_path: Path, level: str) -> None:
    vt = "vector<8xf32>" if level == "lane" else "vector<8x16xf32>"
    attrs = "attributes {VectorComputeFunctionINTEL}" if level == "vc" else ""
    text = _program(_block(12, 0, vt=vt), attrs=attrs, threads=1 if level == "vc" else 16)
    status, out, err = _run(tmp_path, text, "--check-memory")
    assert status == 0, err
    rows = _rows(out)
    # rows 12..15 of %in land in rows 0..3; rows 16..19 are outside and read as 0
    assert rows[0] == [192.0 + c for c in range(16)] and rows[4] == [0.0] * 16
    want = (f"{_loc(text, 'xegpu.load_nd')}: warning: 'xegpu.load_nd' op loads a block of 8x16 elements at (row 12, "
            "column 0) partly outside its surface %in of 16x16 elements")
    assert want in err, err
    assert ("64 of its 128 elements read as 0 (spec/pvc-hardware.md §1.4) (--check-memory=bounds) "
            f"({CTX})") in err, err
    assert _findings(err) == [f"{_loc(text, 'xegpu.load_nd')}: 'xegpu.load_nd' bounds: 1 time(s)"]
    status, out2, err = _run(tmp_path, text)  # off: the same output, not a word
    assert status == 0 and out2 == out and err == ""


def test_a_block_entirely_outside_and_a_store_partly_outside(tmp_path: Path) -> None:
    text = _program(_block(-1000000, 0, srow=12))
    status, out, err = _run(tmp_path, text, "--check-memory=bounds")
    assert status == 0, err
    assert ("loads a block of 8x16 elements at (row -1000000, column 0) entirely outside its surface %in of 16x16 "
            "elements") in err and "all 128 elements read as 0" in err, err
    assert (f"{_loc(text, 'xegpu.store_nd')}: warning: 'xegpu.store_nd' op stores a block of 8x16 elements at "
            "(row 12, column 0) partly outside its surface %out") in err and "64 of its 128 elements are dropped" in err
    assert _rows(out)[12] == [0.0] * 16


def test_findings_of_one_op_are_counted_over_subgroups_and_workgroups(tmp_path: Path) -> None:
    # 2 workgroups x 2 subgroups each load the same partly-outside block: one warning, four findings
    text = _program(_block(0, 8), threads=32, grid=2)
    status, _, err = _run(tmp_path, text, "--check-memory=bounds")
    assert status == 0, err
    assert err.count("warning:") == 1
    assert "(row 0, column 8) partly outside" in err and "64 of its 128 elements read as 0" in err
    assert "4 finding(s) at 1 op(s)" in err
    assert _findings(err) == [f"{_loc(text, 'xegpu.load_nd')}: 'xegpu.load_nd' bounds: 4 time(s)"]


def test_strict_makes_a_bounds_warning_an_error(tmp_path: Path) -> None:
    text = _program(_block(12, 0))
    status, _, err = _run(tmp_path, text, "--check-memory=bounds", "--strict")
    assert status == 1
    assert (f"{_loc(text, 'xegpu.load_nd')}: error: 'xegpu.load_nd' op loads a block of 8x16 elements at (row 12, "
            "column 0) partly outside") in err, err
    assert "(--check-memory=bounds, error because of --strict)" in err


# ================================================================================== bounds: scattered accesses
SG_SCATTER = """      %flat = memref.reinterpret_cast %in to offset: [0], sizes: [256], strides: [1] : memref<16x16xf32> to memref<256xf32>
      %oflat = memref.reinterpret_cast %out to offset: [0], sizes: [256], strides: [1] : memref<16x16xf32> to memref<256xf32>
      %offs = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 300, 255]> : vector<16xindex>
      %m = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, MASK14, true]> : vector<16xi1>
      %v = xegpu.load %flat[%offs], %m : memref<256xf32>, vector<16xindex>, vector<16xi1> -> vector<16xf32>
      %o = xegpu.create_nd_tdesc %oflat : memref<256xf32> -> !xegpu.tensor_desc<16xf32>
      xegpu.store_nd %v, %o[0] : vector<16xf32>, !xegpu.tensor_desc<16xf32>"""


def test_a_masked_off_lane_out_of_bounds_is_a_warning_an_enabled_one_an_error(tmp_path: Path) -> None:
    text = _program(SG_SCATTER.replace("MASK14", "false"))
    status, out, err = _run(tmp_path, text, "--check-memory=bounds")
    assert status == 0, err
    assert _rows(out)[0] == [float(i) for i in range(14)] + [0.0, 255.0]  # lane 14 is masked off: 0
    assert (f"{_loc(text, 'xegpu.load %flat')}: warning: 'xegpu.load' op lane 14 is masked off and its 1 "
            "element(s) at element offset 300 (address 0x") in err, err
    assert f"lie outside %flat (256 elements): a masked-off lane accesses nothing (spec/pvc-hardware.md §2.2) " \
           f"(--check-memory=bounds) ({CTX}, lane 14)" in err, err
    status, _, err = _run(tmp_path, text)
    assert status == 0 and err == ""
    # enabled, the same lane is the op's own error (undefined on the hardware), with or without the checker
    status, _, err = _run(tmp_path, _program(SG_SCATTER.replace("MASK14", "true")))
    assert status == 1 and "lane 14" in err and "warning" not in err, err


ATOMIC = """      %flat = memref.reinterpret_cast %out to offset: [0], sizes: [256], strides: [1] : memref<16x16xf32> to memref<256xf32>
      %offs = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 300]> : vector<16xindex>
      %m = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false]> : vector<16xi1>
      %td = xegpu.create_tdesc %flat, %offs : memref<256xf32>, vector<16xindex> -> !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>
      %v = arith.constant dense<2.0> : vector<16xf32>
      %old = xegpu.atomic_rmw addf %td, %m, %v : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xf32> -> vector<16xf32>"""


def test_a_masked_off_atomic_lane_out_of_bounds(tmp_path: Path) -> None:
    # VC: the mask is honoured, lane 15 is masked off with its address outside %flat: a warning
    text = _program(ATOMIC, attrs="attributes {VectorComputeFunctionINTEL}", threads=1)
    status, out, err = _run(tmp_path, text, "--check-memory=bounds")
    assert status == 0, err
    assert _rows(out)[0] == [2.0] * 15 + [0.0]  # lanes 0..14 added 2 to the zeros the memset left
    assert (f"{_loc(text, 'xegpu.atomic_rmw')}: warning: 'xegpu.atomic_rmw' op lane 15 is masked off and its 1 "
            f"element(s) at element offset 300 (address 0x") in err and f"({CTX}, lane 15)" in err, err
    status, _, err = _run(tmp_path, text.replace("300", "15"), "--check-memory=bounds")
    assert status == 0 and "no findings" in err, err
    # SG: upstream XeGPU->XeVM ignores an atomic's mask (target parameter atomics.honour_mask, false on PVC), so
    # lane 15 is not masked off and its address is the op's own error, not a warning
    status, _, err = _run(tmp_path, _program(ATOMIC), "--check-memory=bounds")
    assert status == 1 and "lane 15: elements [300, 301) are out of bounds" in err and "warning" not in err, err


LANE_SCATTER = """      %flat = memref.reinterpret_cast %in to offset: [0], sizes: [256], strides: [1] : memref<16x16xf32> to memref<256xf32>
      %oflat = memref.reinterpret_cast %out to offset: [0], sizes: [256], strides: [1] : memref<16x16xf32> to memref<256xf32>
      %lane = gpu.lane_id
      %c2 = arith.constant 2 : index
      %c1000 = arith.constant 1000 : index
      %far = arith.muli %lane, %c1000 : index
      %odd = arith.remui %lane, %c2 : index
      %even = arith.cmpi eq, %odd, %c0 : index
      %off = arith.select %even, %lane, %far : index
      %v = xegpu.load %flat[%off], %even : memref<256xf32>, index, i1 -> vector<1xf32>
      %true = arith.constant true
      xegpu.store %v, %oflat[%lane], %true : vector<1xf32>, memref<256xf32>, index, i1"""


def test_a_masked_off_lane_out_of_bounds_at_the_lane_level(tmp_path: Path) -> None:
    # odd lanes l are masked off with offset 1000 l: lanes 1, 3, ..., 15 are all outside; the first is lane 1
    text = _program(LANE_SCATTER)
    status, out, err = _run(tmp_path, text, "--check-memory=bounds")
    assert status == 0, err
    assert _rows(out)[0] == [float(i) if i % 2 == 0 else 0.0 for i in range(16)]
    assert (f"{_loc(text, 'xegpu.load %flat')}: warning: 'xegpu.load' op lane 1 is masked off and its 1 element(s) "
            "at element offset 1000 (address 0x") in err, err
    assert f"§2.2); 7 more masked-off lane(s) likewise (--check-memory=bounds) ({CTX}, lane 1)" in err, err
    assert _findings(err) == [f"{_loc(text, 'xegpu.load %flat')}: 'xegpu.load' bounds: 1 time(s)"], err


VC_SCATTER = """      %flat = memref.reinterpret_cast %in to offset: [0], sizes: [256], strides: [1] : memref<16x16xf32> to memref<256xf32>
      %oflat = memref.reinterpret_cast %out to offset: [0], sizes: [256], strides: [1] : memref<16x16xf32> to memref<256xf32>
      %o16 = arith.constant dense<[0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 250]> : vector<16xindex>
      %ml = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false]> : vector<16xi1>
      %ts = xegpu.create_tdesc %flat, %o16 : memref<256xf32>, vector<16xindex> -> !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>
      %v = xegpu.load %ts, %ml {transpose} : !xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>, vector<16xi1> -> vector<8x16xf32>
      %o = xegpu.create_nd_tdesc %out : memref<16x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      xegpu.store_nd %v, %o[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>"""


def test_a_masked_off_lane_out_of_bounds_at_the_vc_level(tmp_path: Path) -> None:
    # lane 15's 8 elements at 250 reach 257: outside the 256 elements, and masked off
    text = _program(VC_SCATTER, attrs="attributes {VectorComputeFunctionINTEL}", threads=1)
    status, out, err = _run(tmp_path, text, "--check-memory=bounds")
    assert status == 0, err
    assert [r[15] for r in _rows(out)[:8]] == [0.0] * 8 and _rows(out)[1][0] == 1.0  # v[c][l] = S[16 l + c]
    assert (f"{_loc(text, 'xegpu.load %ts')}: warning: 'xegpu.load' op lane 15 is masked off and its 8 element(s) "
            "at element offset 250") in err, err
    assert f"({CTX}, lane 15)" in err, err


# ================================================================================== init: kernels
@pytest.mark.parametrize("level", ["sg", "lane"])
def test_scattered_lanes_reading_unwritten_bytes_are_named(tmp_path: Path, level: str) -> None:
    # the host writes columns 0..7 of each row only. SG: enabled lanes 8..13 (offsets 8..13) and 15 (offset 255)
    # read unwritten bytes; lane level: even lanes l read offset l, so lanes 8, 10, 12, 14 do. The first is lane 8
    # (byte 32); every unwritten lane is a finding
    body = SG_SCATTER.replace("MASK14", "false") if level == "sg" else LANE_SCATTER
    text = _program(body).replace("scf.for %j = %c0 to %c16", "scf.for %j = %c0 to %c8")
    status, _, err = _run(tmp_path, text, "--check-memory=init")
    assert status == 1
    assert (f"{_loc(text, 'xegpu.load %flat')}: error: 'xegpu.load' op reads 4 byte(s) that nothing has written, "
            "the first at 0x") in err, err
    assert "(byte 32 of device allocation %din [0x" in err and f"({CTX}, lane 8)" in err, err
    # with every byte of %in written, nothing is reported
    status, _, err = _run(tmp_path, _program(body), "--check-memory=init")
    assert status == 0 and "no findings" in err, err
    # without the memset of %out, only the 16 elements of row 0 the kernel stores are written: printing the copy
    # reads the other 960 bytes (fresh device memory: a warning), from byte 64 on
    text = _program(body).replace("    gpu.memset %dout, %zero : memref<16x16xf32>, f32\n", "")
    status, _, err = _run(tmp_path, text, "--check-memory=init")
    assert status == 0 and f"{_loc(text, 'call @printMemrefF32')}: warning: 'func.call' op reads 960 byte(s)" in err
    assert "(byte 64 of host allocation %h [0x" in err, err


def test_a_kernel_reading_gpu_alloc_memory_nothing_wrote_is_a_warning(tmp_path: Path) -> None:
    # %dout is read before anything wrote it when the memset is removed; %in was copied in
    body = _block(0, 0).replace("%t = xegpu.create_nd_tdesc %in", "%t = xegpu.create_nd_tdesc %out")
    text = _program(body).replace("    gpu.memset %dout, %zero : memref<16x16xf32>, f32\n", "")
    status, _, err = _run(tmp_path, text, "--check-memory=init")
    assert status == 0, err
    assert (f"{_loc(text, 'xegpu.load_nd')}: warning: 'xegpu.load_nd' op reads 512 byte(s) that nothing has "
            "written, the first at 0x") in err, err
    assert "device allocation %dout [0x" in err and f"made at {tmp_path}/{_loc(text, '%dout = gpu.alloc')}" in err
    assert "fresh gpu.alloc memory reads as 0 here" in err and f"(--check-memory=init) ({CTX})" in err
    # rows 8..15 of %dout stay unwritten; copied to %h they are still fresh device bytes: a warning where printed
    assert (f"{_loc(text, 'call @printMemrefF32')}: warning: 'func.call' op reads 512 byte(s) that nothing has "
            "written, the first at 0x") in err, err
    assert "(byte 512 of host allocation %h [0x" in err and "they were copied from fresh gpu.alloc memory" in err
    status, _, err = _run(tmp_path, _program(body), "--check-memory=init")  # after the memset: written
    assert status == 0 and "warning" not in err and "no findings" in err, err


@pytest.mark.parametrize("level", ["sg", "lane", "vc"])
def test_undefined_host_bytes_copied_to_the_device_are_an_error_where_a_kernel_reads_them(tmp_path: Path,
                                                                                         level: str) -> None:
    # the host fills columns 0..7 of %h only; the whole buffer is copied to %in (silent), the kernel's 8x16 load
    # reads columns 8..15 of rows 0..7: 64 elements, 256 bytes, the first at byte 32 (row 0, column 8)
    vt = "vector<8xf32>" if level == "lane" else "vector<8x16xf32>"
    attrs = "attributes {VectorComputeFunctionINTEL}" if level == "vc" else ""
    text = _program(_block(0, 0, vt=vt), attrs=attrs, threads=1 if level == "vc" else 16)
    text = text.replace("scf.for %j = %c0 to %c16", "scf.for %j = %c0 to %c8")
    status, _, err = _run(tmp_path, text, "--check-memory=init")
    assert status == 1
    assert (f"{_loc(text, 'xegpu.load_nd')}: error: 'xegpu.load_nd' op reads 256 byte(s) that nothing has written, "
            "the first at 0x") in err, err
    assert "(byte 32 of device allocation %din [0x" in err and "they were copied from memory nothing wrote" in err
    assert f"({CTX})" in err


SLM = """      %slm = memref.alloc() : memref<64xf32, 3>
      %lane = gpu.lane_id
      %li = arith.index_cast %lane : index to i32
      %lf = arith.sitofp %li : i32 to f32
      memref.store %lf, %slm[%lane] : memref<64xf32, 3>
      %c16 = arith.constant 16 : index
      %n = arith.addi %lane, %c1 : index
      %w = memref.load %slm[READ] : memref<64xf32, 3>
      %oflat = memref.reinterpret_cast %out to offset: [0], sizes: [256], strides: [1] : memref<16x16xf32> to memref<256xf32>
      memref.store %w, %oflat[%lane] : memref<256xf32>"""


def test_a_lane_reading_shared_local_memory_nothing_wrote_is_an_error(tmp_path: Path) -> None:
    # lane l stores slm[l] and reads slm[l + 1]: lane 15 reads slm[16], which nothing wrote
    text = _program(SLM.replace("READ", "%n"))
    status, _, err = _run(tmp_path, text, "--check-memory=init")
    assert status == 1
    assert (f"{_loc(text, 'memref.load %slm')}: error: 'memref.load' op reads 4 byte(s) that nothing has written, "
            "the first at 0x") in err, err
    assert "(byte 64 of slm allocation %slm [0x" in err, err
    assert "shared local memory is not cleared between workgroups" in err and f"({CTX}, lane 15)" in err, err
    status, out, err = _run(tmp_path, text)  # unchecked it silently reads 0
    assert status == 0 and _rows(out)[0] == [float(i) for i in range(1, 16)] + [0.0] and err == ""
    status, _, err = _run(tmp_path, _program(SLM.replace("READ", "%lane")), "--check-memory=init")
    assert status == 0 and "no findings" in err, err


def test_slm_written_by_an_earlier_workgroup_counts_as_unwritten_in_the_next(tmp_path: Path) -> None:
    # workgroup 0 writes slm[0..15] and reads them: fine; workgroup 1 reads slm[16..31] that no one wrote -- and
    # workgroup 0's bytes at slm[0..15] do not count for workgroup 1 either
    body = SLM.replace("READ", "%r").replace(
        "%n = arith.addi %lane, %c1 : index",
        "%b = gpu.block_id x\n      %sh = arith.muli %b, %c16 : index\n      %r = arith.addi %lane, %sh : index")
    status, _, err = _run(tmp_path, _program(body, grid=2), "--check-memory=init")
    assert status == 1 and "kernel @kernels::@k, workgroup (1, 0, 0), subgroup 0, lane 0" in err, err
    assert "reads 4 byte(s) that nothing has written" in err


# ================================================================================== init: host code
def test_host_reads_of_memref_alloc_memory(tmp_path: Path) -> None:
    text = _host("""    %a = memref.alloc() : memref<4xf32>
    memref.store %f1, %a[%c0] : memref<4xf32>
    %x = memref.load %a[%c1] : memref<4xf32>
    call @printF32(%x) : (f32) -> ()
    memref.dealloc %a : memref<4xf32>""")
    status, out, err = _run(tmp_path, text, "--check-memory=init")
    assert status == 1 and out == ""
    assert (f"{_loc(text, 'memref.load')}: error: 'memref.load' op reads 4 byte(s) that nothing has written, the "
            "first at 0x") in err, err
    assert "(byte 4 of host allocation %a [0x" in err, err
    assert f"made at {tmp_path}/{_loc(text, 'memref.alloc')}" in err
    assert "memref.alloc/alloca memory is not cleared on the real platform" in err
    status, out, err = _run(tmp_path, text.replace("%a[%c1]", "%a[%c0]"), "--check-memory=init")
    assert status == 0 and out == "1" and "no findings" in err, err


LOOPS = """    %a = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      memref.store %fi, %a[%i] : memref<16xf32>
    }
    %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %f1) -> (f32) {
      %x = memref.load %a[%i] : memref<16xf32>
      %n = arith.addf %acc, %x : f32
      scf.yield %n : f32
    }
    call @printF32(%s) : (f32) -> ()
    call @printNewline() : () -> ()
    memref.dealloc %a : memref<16xf32>"""


def test_host_loop_nests_are_followed_even_when_they_would_be_compiled(tmp_path: Path) -> None:
    # the first loop writes a[0..15] (a[0..14] with the bound 15): the second reads a[0..15]
    text = _host(LOOPS.replace("scf.for %i = %c0 to %c16 step %c1 {", "scf.for %i = %c0 to %cW step %c1 {")
                 .replace("    %a = memref.alloc", "    %cW = arith.constant WRITTEN : index\n    %a = memref.alloc"))
    status, out, err = _run(tmp_path, text.replace("WRITTEN", "16"), "--check-memory=init")
    assert status == 0 and out == "121\n" and "no findings" in err, err  # 1 + 0 + 1 + ... + 15
    status, _, err = _run(tmp_path, text.replace("WRITTEN", "15"), "--check-memory=init")
    assert status == 1
    assert f"{_loc(text, 'memref.load')}: error: 'memref.load' op reads 4 byte(s) that nothing has written" in err
    assert "(byte 60 of" in err, err  # a[15]


def test_copies_carry_written_bytes_and_runtime_utilities_read_their_arguments(tmp_path: Path) -> None:
    # a[0] written, a[1..3] not; the copy into b is silent, printing b reads its unwritten bytes 4..15
    text = _host("""    %a = memref.alloc() : memref<4xf32>
    %b = memref.alloc() : memref<4xf32>
    memref.store %f1, %a[%c0] : memref<4xf32>
    COPY
    %u = memref.cast %b : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %a : memref<4xf32>
    memref.dealloc %b : memref<4xf32>""")
    call = _loc(text, "call @printMemrefF32")
    for copy in ("memref.copy %a, %b : memref<4xf32> to memref<4xf32>",
                 "gpu.memcpy %b, %a : memref<4xf32>, memref<4xf32>", ""):
        status, _, err = _run(tmp_path, text.replace("COPY", copy), "--check-memory=init")
        # after a copy the first unwritten byte is b[1] (byte 4); without one, b[0] too (byte 0)
        first, n = (4, 12) if copy else (0, 16)
        assert status == 1 and f"{call}: error: 'func.call' op reads {n} byte(s) that nothing has written" in err, err
        assert f"(byte {first} of host allocation %b [0x" in err, err
    # the whole source written: the copy is written too
    filled = text.replace("memref.store %f1, %a[%c0] : memref<4xf32>",
                          "gpu.memset %a, %f1 : memref<4xf32>, f32")
    status, out, err = _run(tmp_path, filled.replace("COPY", "memref.copy %a, %b : memref<4xf32> to memref<4xf32>"),
                            "--check-memory=init")
    assert status == 0 and "no findings" in err and "[1,  1,  1,  1]" in out, (out, err)
    # a strided copy carries element by element: columns 0 of a 2x2 written, copied into column 1 of b (via a
    # subview); b's column 0 stays unwritten, its column 1 is written
    strided = _host("""    %a = memref.alloc() : memref<2x2xf32>
    %b = memref.alloc() : memref<2x2xf32>
    memref.store %f1, %a[%c0, %c0] : memref<2x2xf32>
    memref.store %f1, %a[%c1, %c0] : memref<2x2xf32>
    %sa = memref.subview %a[0, 0] [2, 1] [1, 1] : memref<2x2xf32> to memref<2x1xf32, strided<[2, 1]>>
    %sb = memref.subview %b[0, 1] [2, 1] [1, 1] : memref<2x2xf32> to memref<2x1xf32, strided<[2, 1], offset: 1>>
    memref.copy %sa, %sb : memref<2x1xf32, strided<[2, 1]>> to memref<2x1xf32, strided<[2, 1], offset: 1>>
    %x = memref.load %b[%c1, %c1] : memref<2x2xf32>
    call @printF32(%x) : (f32) -> ()
    %y = memref.load %b[%c1, %c0] : memref<2x2xf32>
    memref.dealloc %a : memref<2x2xf32>
    memref.dealloc %b : memref<2x2xf32>""")
    status, out, err = _run(tmp_path, strided, "--check-memory=init")
    assert status == 1 and out == "1", (out, err)
    assert f"{_loc(strided, '%y = memref.load')}: error: 'memref.load' op reads 4 byte(s)" in err
    assert "(byte 8 of host allocation %b" in err, err


GLOBAL = """  memref.global "private" @g : memref<4xf32> INIT"""


def test_globals_without_an_initial_value_are_unwritten(tmp_path: Path) -> None:
    body = """    %g = memref.get_global @g : memref<4xf32>
    %x = memref.load %g[%c1] : memref<4xf32>
    call @printF32(%x) : (f32) -> ()"""
    status, _, err = _run(tmp_path, _host(body, GLOBAL.replace("INIT", "")), "--check-memory=init")
    assert status == 1 and "an uninitialized memref.global has no defined contents" in err, err
    status, out, err = _run(tmp_path, _host(body, GLOBAL.replace("INIT", "= dense<2.5>")), "--check-memory=init")
    assert status == 0 and out == "2.5" and "no findings" in err, (out, err)


def test_the_api_raises_init_errors_and_launch_arrays_count_as_written() -> None:
    text = _host("""    %a = memref.alloc() : memref<4xf32>
    %x = memref.load %a[%c1] : memref<4xf32>
    memref.dealloc %a : memref<4xf32>""")
    prog = xesim.load(text)
    prog.run()  # off: silent
    with pytest.raises(DiagnosticError, match="reads 4 byte.s. that nothing has written"):
        prog.run(check_memory="init")
    kernel = xesim.load(_program(_block(0, 0)))
    res = xesim.launch(kernel, "kernels::k", args=[np.arange(256, dtype=np.float32).reshape(16, 16),
                                                    np.zeros((16, 16), np.float32)], check_memory="all")
    assert list(res.arrays[1][0]) == list(range(16))


# ================================================================================== leaks
def test_allocations_never_freed_are_reported_by_the_op_that_made_them(tmp_path: Path) -> None:
    body = """    scf.for %i = %c0 to %c4 step %c1 {
      %a = memref.alloc() : memref<16xf32>
      FREE
    }
    %d = gpu.alloc () : memref<8xf32>
    %s = memref.alloca() : memref<8xf32>"""
    text = _host(body.replace("FREE", ""))
    status, _, err = _run(tmp_path, text, "--check-memory=leaks")
    assert status == 0, err
    assert (f"{_loc(text, 'memref.alloc()')}: warning: 'memref.alloc' op 4 allocations made here (256 bytes in all; "
            "the first host allocation %a [0x") in err, err
    assert "are never freed: no memref.dealloc before the run ended (--check-memory=leaks)" in err
    assert (f"{_loc(text, 'gpu.alloc')}: warning: 'gpu.alloc' op device allocation %d [0x") in err
    assert "is never freed: no gpu.dealloc before the run ended" in err
    assert "memref.alloca" not in err  # stack memory is released by its scope
    assert _findings(err) == [f"{_loc(text, 'memref.alloc()')}: 'memref.alloc' leaks: 4 time(s)",
                              f"{_loc(text, 'gpu.alloc')}: 'gpu.alloc' leaks: 1 time(s)"]
    freed = body.replace("FREE", "memref.dealloc %a : memref<16xf32>") + "\n    gpu.dealloc %d : memref<8xf32>"
    status, _, err = _run(tmp_path, _host(freed), "--check-memory=leaks")
    assert status == 0 and err.strip() == "xesim: memory check (--check-memory=leaks): no findings", err


def test_freed_allocations_leave_nothing_behind(tmp_path: Path) -> None:
    # 50 allocations of 1 MB made and freed in a loop: the checker keeps no shadow of them
    from xesim.observe.memcheck import MemoryChecker

    text = _host("""    %c50 = arith.constant 50 : index
    scf.for %i = %c0 to %c50 step %c1 {
      %a = memref.alloc() : memref<262144xf32>
      memref.store %f1, %a[%i] : memref<262144xf32>
      %x = memref.load %a[%i] : memref<262144xf32>
      memref.dealloc %a : memref<262144xf32>
    }""")
    engine = xesim.api.make_engine(xesim.load(text).module, out=io.StringIO(), err=io.StringIO(), check_memory="all")
    checker = next(o for o in engine.observers if isinstance(o, MemoryChecker))
    engine.run("main")
    assert checker.shadows == {} and checker.made == {} and checker.findings == {}


def test_leaks_of_a_kernel_program_and_selection(tmp_path: Path) -> None:
    text = _program(_block(12, 0), host="    %lost = memref.alloc() : memref<2xf32>")
    status, _, err = _run(tmp_path, text, "--check-memory=leaks")
    assert status == 0, err
    assert _findings(err) == [f"{_loc(text, '%lost = memref.alloc')}: 'memref.alloc' leaks: 1 time(s)"], err
    assert "bounds" not in err  # not selected


# ================================================================================== engines, coverage
def test_the_engine_cross_check_counts_each_finding_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _program(_block(0, 8), threads=32, grid=2)
    monkeypatch.setenv("XESIM_ENGINE", "both")
    status, _, err = _run(tmp_path, text, "--check-memory")
    assert status == 0, err
    assert err.count("warning:") == 1
    assert _findings(err) == [f"{_loc(text, 'xegpu.load_nd')}: 'xegpu.load_nd' bounds: 4 time(s)"], err


def test_every_memory_op_is_followed() -> None:
    from xesim.observe import memcheck
    from xesim.observe.races import FOOTPRINTS, NOT_ACCESSES

    followed = set(FOOTPRINTS) | set(memcheck.HOST_FOOTPRINTS) | set(memcheck.ALLOCATING) | set(memcheck.COPY_OPS)
    prefetches = {n for n, why in NOT_ACCESSES.items() if "prefetch" in why}
    for f in (ROOT / "xesim" / "isa_data" / "dialects").glob("*.toml"):
        for op in tomllib.loads(f.read_text()).get("op", []):
            traits = set(op.get("traits", []))
            if {"reads_memory", "writes_memory", "allocates", "materializes_global", "calls"} & traits:
                assert op["name"] in followed | prefetches, op["name"]
