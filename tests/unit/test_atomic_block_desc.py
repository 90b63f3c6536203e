"""``xegpu.atomic_rmw`` on a rank-1 block descriptor (today's upstream form, upstream-xegpu-xevm.md §2.12): the
faults and limits around tests/e2e/xegpu_atomic_block_1d.mlir (which checks the values)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_xesim


def _program(desc: str, value: str, atomic_line: str, buf: int = 20, threads: int = 16, grid: int = 1) -> str:
    """A kernel doing one atomic_rmw through ``desc`` (made from ``%buf : memref<{buf}xf32>``), ``grid`` workgroups
    of ``threads``; main prints the buffer (it starts at n = element index)."""
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k(%buf: memref<{buf}xf32>) kernel {{
      {desc}
      {value}
      {atomic_line}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cB = arith.constant {buf} : index
    %cT = arith.constant {threads} : index
    %cG = arith.constant {grid} : index
    %h = memref.alloc() : memref<{buf}xf32>
    scf.for %i = %c0 to %cB step %c1 {{
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %h[%i] : memref<{buf}xf32>
    }}
    %d = gpu.alloc () : memref<{buf}xf32>
    gpu.memcpy %d, %h : memref<{buf}xf32>, memref<{buf}xf32>
    gpu.launch_func @kernels::@k blocks in (%cG, %c1, %c1) threads in (%cT, %c1, %c1) args(%d : memref<{buf}xf32>)
    gpu.memcpy %h, %d : memref<{buf}xf32>, memref<{buf}xf32>
    %u = memref.cast %h : memref<{buf}xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }}
  func.func private @printMemrefF32(memref<*xf32>) attributes {{llvm.emit_c_interface}}
}}
"""


_V16 = ("%m = arith.constant dense<true> : vector<16xi1>\n"
        "      %v = arith.constant dense<1.0> : vector<16xf32>")
_ADD16 = ("%o = xegpu.atomic_rmw addf %t, %m, %v : !xegpu.tensor_desc<16xf32>, vector<16xi1>, vector<16xf32> "
          "-> vector<16xf32>")


def _run(tmp_path: Path, text: str, *flags: str) -> tuple[int, str, str]:
    f = tmp_path / "p.mlir"
    f.write_text(text)
    return run_xesim(["run", *flags, str(f)])


def test_elements_past_the_surface_are_a_fault_naming_the_lane(tmp_path: Path) -> None:
    """Elements 8..23 of a 20-element buffer: lanes 12..15 fall outside; the first one is named (no update)."""
    text = _program("%t = xegpu.create_nd_tdesc %buf[8] : memref<20xf32> -> !xegpu.tensor_desc<16xf32>", _V16, _ADD16)
    status, out, err = _run(tmp_path, text)
    assert status == 1
    assert "'xegpu.atomic_rmw'" in err and "lane 12" in err and "out of bounds" in err, err
    assert "[20, 21)" in err, err


def test_inside_the_surface_every_element_is_updated(tmp_path: Path) -> None:
    """The same descriptor at element 4 stays inside: elements 4..19 gain 1, 0..3 keep their values."""
    text = _program("%t = xegpu.create_nd_tdesc %buf[4] : memref<20xf32> -> !xegpu.tensor_desc<16xf32>", _V16, _ADD16)
    status, out, err = _run(tmp_path, text)
    assert status == 0, err
    row = out.strip().splitlines()[-1]
    assert row == "[" + ",  ".join(str(n + (1 if n >= 4 else 0)) for n in range(20)) + "]"


def test_two_subgroups_updating_the_same_elements_are_not_a_race(tmp_path: Path) -> None:
    """Atomics never race with each other (observe/races.py): the two subgroups of a workgroup add 1 to the same 16
    elements."""
    text = _program("%t = xegpu.create_nd_tdesc %buf : memref<20xf32> -> !xegpu.tensor_desc<16xf32>", _V16, _ADD16,
                    threads=32)
    status, out, err = _run(tmp_path, text, "--check-races")
    assert status == 0, err
    assert "race" not in err
    row = out.strip().splitlines()[-1]
    assert row == "[" + ",  ".join(str(n + (2 if n < 16 else 0)) for n in range(20)) + "]"


def test_a_plain_store_racing_with_the_atomic_is_reported(tmp_path: Path) -> None:
    """The race detector sees the block-descriptor atomic's footprint: a store_nd by the other subgroup of the
    workgroup to the same elements, unordered, races with it."""
    atomic = _ADD16 + "\n      xegpu.store_nd %v, %t[0] : vector<16xf32>, !xegpu.tensor_desc<16xf32>"
    text = _program("%t = xegpu.create_nd_tdesc %buf : memref<20xf32> -> !xegpu.tensor_desc<16xf32>", _V16, atomic,
                    threads=32)
    status, out, err = _run(tmp_path, text, "--check-races")
    assert status != 0 and "race" in err.lower(), err


def test_a_rank2_block_descriptor_is_a_located_error(tmp_path: Path) -> None:
    """Only rank-1 block descriptors lower upstream; a rank-2 one is refused where it is used, not run silently."""
    desc = ("%p = memref.extract_aligned_pointer_as_index %buf : memref<64xf32> -> index\n"
            "      %pi = arith.index_cast %p : index to i64\n"
            "      %t = xegpu.create_nd_tdesc %pi, shape : [4, 16], strides : [16, 1] : i64 -> "
            "!xegpu.tensor_desc<2x16xf32>")
    value = ("%m = arith.constant dense<true> : vector<2x16xi1>\n"
             "      %v = arith.constant dense<1.0> : vector<2x16xf32>")
    atomic = ("%o = xegpu.atomic_rmw addf %t, %m, %v : !xegpu.tensor_desc<2x16xf32>, vector<2x16xi1>, "
              "vector<2x16xf32> -> vector<2x16xf32>")
    status, out, err = _run(tmp_path, _program(desc, value, atomic, buf=64))
    assert status == 1
    assert "p.mlir:" in err and "'xegpu.atomic_rmw'" in err and "rank-1 descriptor" in err and "§2.12" in err, err
