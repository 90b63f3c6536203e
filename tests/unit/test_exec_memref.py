"""memref dialect semantics through the Engine (xesim/exec/ops/memref.py).

Programs take their inputs as function arguments and return descriptors / values, so expected results
are derived by hand from the MLIR memref docs (offset = old offset + Σ off_i·stride_i, strides multiplied,
row-major identity strides) independently of the implementation.
"""

from __future__ import annotations

import io
import re
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from xesim.api import make_engine
from xesim.diagnostics import DiagnosticError
from xesim.exec.values import MemRefValue
from xesim.hw.memory import AddressSpace
from xesim.ir.parser import parse_source
from xesim.verify.structural import verify_module


def engine_for(src: str) -> Any:
    module = parse_source(src, "t.mlir")
    verify_module(module)
    return make_engine(module, out=io.StringIO())


def run(src: str, *args, entry: str = "main"):
    return engine_for(src).run(entry, list(args))


def run_error(src: str, *args, entry: str = "main") -> str:
    with pytest.raises(DiagnosticError) as info:
        run(src, *args, entry=entry)
    return info.value.render()


def line_of(src: str, needle: str) -> int:
    """1-based line number of the first line containing ``needle`` (to check fault locations)."""
    for i, line in enumerate(src.splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(needle)


def desc(m: MemRefValue) -> tuple:
    return (m.offset, tuple(m.sizes), tuple(m.strides))


# ------------------------------------------------------------------------------------------ alloc / load / store
def test_alloc_is_zero_filled_aligned_and_row_major() -> None:
    src = """
func.func @main(%i: index, %j: index) -> (memref<3x5xf32>, f32, memref<7xi8>) {
  %m = memref.alloc() : memref<3x5xf32>
  %v = memref.load %m[%i, %j] : memref<3x5xf32>
  %b = memref.alloc() {alignment = 256 : i64} : memref<7xi8>
  return %m, %v, %b : memref<3x5xf32>, f32, memref<7xi8>
}
"""
    m, v, b = run(src, 2, 4)
    assert desc(m) == (0, (3, 5), (5, 1))
    assert v == 0.0 and isinstance(v, np.float32)
    assert m.aligned % 64 == 0 and b.aligned % 256 == 0
    assert m.alloc.size == 3 * 5 * 4 and b.alloc.size == 7
    assert m.alloc.label == "%m"


@pytest.mark.parametrize(
    "ty,value,expected",
    [
        ("f32", np.float32(1.5), np.float32(1.5)),
        ("f16", np.float16(0.1), np.float16(0.1)),
        ("bf16", ml_dtypes.bfloat16(3.140625), ml_dtypes.bfloat16(3.140625)),
        ("f64", np.float64(-2.25), np.float64(-2.25)),
        ("i8", -7, -7),
        ("ui8", 250, 250),
        ("i1", 1, 1),
        ("i32", -123456789, -123456789),
        ("i64", -(2**62), -(2**62)),
        ("index", 12345, 12345),
    ],
)
def test_store_then_load_round_trips_each_element_type(ty: str, value, expected) -> None:
    src = f"""
func.func @main(%x: {ty}, %i: index) -> {ty} {{
  %m = memref.alloc() : memref<4x{ty}>
  memref.store %x, %m[%i] : memref<4x{ty}>
  %y = memref.load %m[%i] : memref<4x{ty}>
  return %y : {ty}
}}
"""
    (y,) = run(src, value, 3)
    assert y == expected
    assert type(y) is type(expected)


def test_store_bytes_land_at_row_major_addresses() -> None:
    src = """
func.func @main(%x: i32, %i: index, %j: index) -> memref<2x3xi32> {
  %m = memref.alloc() : memref<2x3xi32>
  memref.store %x, %m[%i, %j] : memref<2x3xi32>
  return %m : memref<2x3xi32>
}
"""
    (m,) = run(src, 0x01020304, 1, 2)
    raw = m.alloc.data
    # element [1][2] = linear 5 -> byte offset 20, little-endian
    assert list(raw[20:24]) == [4, 3, 2, 1]
    assert raw[:20].sum() == 0


def test_dynamic_alloc_dim_and_rank() -> None:
    src = """
func.func @main(%n: index, %k: index) -> (index, index, index, memref<?x4x?xf16>) {
  %m = memref.alloc(%n, %k) : memref<?x4x?xf16>
  %d0 = memref.dim %m, %k : memref<?x4x?xf16>
  %u = memref.cast %m : memref<?x4x?xf16> to memref<*xf16>
  %r = memref.rank %u : memref<*xf16>
  return %d0, %r, %k, %m : index, index, index, memref<?x4x?xf16>
}
"""
    d2, r, k, m = run(src, 5, 2)
    assert (d2, r, k) == (2, 3, 2)
    assert desc(m) == (0, (5, 4, 2), (8, 2, 1))


def test_dim_out_of_range_is_a_located_fault() -> None:
    src = """
func.func @main(%i: index) -> index {
  %m = memref.alloc() : memref<4x4xf32>
  %d = memref.dim %m, %i : memref<4x4xf32>
  return %d : index
}
"""
    text = run_error(src, 2)
    assert f"t.mlir:{line_of(src, 'memref.dim')}:" in text
    assert "dimension index 2 is out of range" in text


# ------------------------------------------------------------------------------------------ faults
def test_out_of_bounds_load_names_index_dimension_address_and_extent() -> None:
    src = """
func.func @main(%i: index, %j: index) -> f32 {
  %buf = memref.alloc() : memref<4x8xf32>
  %v = memref.load %buf[%i, %j] : memref<4x8xf32>
  return %v : f32
}
"""
    text = run_error(src, 1, 8)
    line = line_of(src, "memref.load")
    assert f"t.mlir:{line}:3: error: 'memref.load' op index 8 is out of bounds for dimension 1 of size 8" in text
    # address of [1, 8] = base + (1*8 + 8) * 4; extent is the 128-byte allocation named %buf
    m = re.search(r"address (0x[0-9a-f]+), host allocation %buf \[(0x[0-9a-f]+), (0x[0-9a-f]+)\) of 128 bytes", text)
    assert m, text
    base = int(m.group(2), 16)
    assert int(m.group(1), 16) == base + 16 * 4
    assert int(m.group(3), 16) == base + 128


def test_out_of_bounds_store_and_negative_index_fault() -> None:
    src = """
func.func @main(%i: index, %x: f32) {
  %buf = memref.alloc() : memref<4xf32>
  memref.store %x, %buf[%i] : memref<4xf32>
  return
}
"""
    assert "index -1 is out of bounds for dimension 0 of size 4" in run_error(src, -1, np.float32(1))
    assert "index 4 is out of bounds for dimension 0 of size 4" in run_error(src, 4, np.float32(1))


def test_use_after_dealloc_is_a_fault_at_the_load() -> None:
    src = """
func.func @main(%i: index) -> f32 {
  %buf = memref.alloc() : memref<4xf32>
  memref.dealloc %buf : memref<4xf32>
  %v = memref.load %buf[%i] : memref<4xf32>
  return %v : f32
}
"""
    text = run_error(src, 0)
    assert f"t.mlir:{line_of(src, 'memref.load')}:" in text
    assert "use after free" in text and "%buf" in text


def test_double_free_is_a_fault_at_the_second_dealloc() -> None:
    src = """
func.func @main() {
  %buf = memref.alloc() : memref<4xf32>
  %s = memref.subview %buf[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  memref.dealloc %buf : memref<4xf32>
  memref.dealloc %s : memref<2xf32, strided<[1], offset: 1>>
  return
}
"""
    text = run_error(src)
    assert f"t.mlir:{line_of(src, 'memref.dealloc %s')}:" in text
    assert "double free" in text and "%buf" in text


# ------------------------------------------------------------------------------------------ views
SUBVIEW_SRC = """
func.func @main(%o: index, %n: index) -> (memref<3x4xf32, strided<[32, 2], offset: 21>>,
    memref<2x2xf32, strided<[64, 2], offset: 23>>, memref<?xf32, strided<[16], offset: ?>>,
    memref<4xf32, strided<[2], offset: 53>>, f32) {
  %m = memref.alloc() : memref<8x16xf32>
  %s1 = memref.subview %m[1, 5] [3, 4] [2, 2] : memref<8x16xf32> to memref<3x4xf32, strided<[32, 2], offset: 21>>
  %s2 = memref.subview %s1[0, 1] [2, 2] [2, 1] : memref<3x4xf32, strided<[32, 2], offset: 21>> to memref<2x2xf32, strided<[64, 2], offset: 23>>
  %s3 = memref.subview %m[%o, 3] [%n, 1] [1, 1] : memref<8x16xf32> to memref<?xf32, strided<[16], offset: ?>>
  %s4 = memref.subview %s1[1, 0] [1, 4] [1, 1] : memref<3x4xf32, strided<[32, 2], offset: 21>> to memref<4xf32, strided<[2], offset: 53>>
  %v = memref.load %s2[%o, %o] : memref<2x2xf32, strided<[64, 2], offset: 23>>
  return %s1, %s2, %s3, %s4, %v : memref<3x4xf32, strided<[32, 2], offset: 21>>,
    memref<2x2xf32, strided<[64, 2], offset: 23>>, memref<?xf32, strided<[16], offset: ?>>,
    memref<4xf32, strided<[2], offset: 53>>, f32
}
"""


def test_subview_offsets_and_strides_compose() -> None:
    s1, s2, s3, s4, _ = run(SUBVIEW_SRC, 1, 6)
    # s1: offset 1*16 + 5 = 21, strides [16*2, 1*2]
    assert desc(s1) == (21, (3, 4), (32, 2))
    # s2 of s1: offset 21 + 0*32 + 1*2 = 23, strides [32*2, 2*1]
    assert desc(s2) == (23, (2, 2), (64, 2))
    # s3: rank-reducing column 3 of rows 1..6: offset 1*16 + 3 = 19
    assert desc(s3) == (19, (6,), (16,))
    # s4: row 1 of s1 (drops the unit dim): offset 21 + 32 = 53
    assert desc(s4) == (53, (4,), (2,))
    assert s1.alloc is s2.alloc is s3.alloc


def test_subview_aliases_the_source_memory() -> None:
    src = """
func.func @main(%i: index, %j: index, %x: f32) -> (f32, memref<8x16xf32>) {
  %m = memref.alloc() : memref<8x16xf32>
  %s1 = memref.subview %m[1, 5] [3, 4] [2, 2] : memref<8x16xf32> to memref<3x4xf32, strided<[32, 2], offset: 21>>
  memref.store %x, %s1[%i, %j] : memref<3x4xf32, strided<[32, 2], offset: 21>>
  %v = memref.load %m[%i, %i] : memref<8x16xf32>
  return %v, %m : f32, memref<8x16xf32>
}
"""
    _, m = run(src, 2, 3, np.float32(7.0))
    arr = m.logical_array()
    # s1[2][3] = m[1 + 2*2][5 + 3*2] = m[5][11]
    assert arr[5, 11] == 7.0
    assert np.count_nonzero(arr) == 1


def test_subview_outside_its_source_is_a_fault() -> None:
    src = """
func.func @main(%o: index) {
  %m = memref.alloc() : memref<8xf32>
  %s = memref.subview %m[%o] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2], offset: ?>>
  return
}
"""
    run(src, 1)  # elements 1, 3, 5, 7: fine
    assert "reaches outside dimension 0 of size 8" in run_error(src, 2)


def test_cast_keeps_the_descriptor_and_checks_static_sizes() -> None:
    src = """
func.func @main(%n: index) -> (memref<*xf32>, memref<?x4xf32>) {
  %m = memref.alloc(%n) : memref<?x4xf32>
  %u = memref.cast %m : memref<?x4xf32> to memref<*xf32>
  %r = memref.cast %u : memref<*xf32> to memref<?x4xf32>
  %s = memref.cast %r : memref<?x4xf32> to memref<3x4xf32>
  return %u, %r : memref<*xf32>, memref<?x4xf32>
}
"""
    u, r = run(src, 3)
    assert u is r and desc(u) == (0, (3, 4), (4, 1))
    assert "dimension 0 has runtime size 5" in run_error(src, 5)


def test_reinterpret_cast_static_and_dynamic() -> None:
    src = """
func.func @main(%o: index, %n: index) -> (memref<4x4xf32>, memref<?x2xf32, strided<[3, 1], offset: ?>>) {
  %m = memref.alloc() : memref<16xf32>
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<16xf32> to memref<4x4xf32>
  %b = memref.reinterpret_cast %m to offset: [%o], sizes: [%n, 2], strides: [3, 1] : memref<16xf32> to memref<?x2xf32, strided<[3, 1], offset: ?>>
  return %a, %b : memref<4x4xf32>, memref<?x2xf32, strided<[3, 1], offset: ?>>
}
"""
    a, b = run(src, 2, 4)
    assert desc(a) == (0, (4, 4), (4, 1))
    assert desc(b) == (2, (4, 2), (3, 1))
    assert a.aligned == b.aligned


def test_collapse_and_expand_shape() -> None:
    src = """
func.func @main(%n: index) -> (memref<6x4xf32>, memref<2x3x4xf32>, memref<1x4xf32>, memref<?x2x2xf32>) {
  %m = memref.alloc() : memref<2x3x4xf32>
  %c = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>
  %e = memref.expand_shape %c [[0, 1], [2]] output_shape [2, 3, 4] : memref<6x4xf32> into memref<2x3x4xf32>
  %u = memref.alloc() : memref<1x1x4xf32>
  %cu = memref.collapse_shape %u [[0, 1], [2]] : memref<1x1x4xf32> into memref<1x4xf32>
  %d = memref.alloc(%n) : memref<?x4xf32>
  %ed = memref.expand_shape %d [[0], [1, 2]] output_shape [%n, 2, 2] : memref<?x4xf32> into memref<?x2x2xf32>
  return %c, %e, %cu, %ed : memref<6x4xf32>, memref<2x3x4xf32>, memref<1x4xf32>, memref<?x2x2xf32>
}
"""
    c, e, cu, ed = run(src, 5)
    assert desc(c) == (0, (6, 4), (4, 1))
    assert desc(e) == (0, (2, 3, 4), (12, 4, 1))
    assert desc(cu) == (0, (1, 4), (4, 1))
    assert desc(ed) == (0, (5, 2, 2), (4, 2, 1))


def test_collapse_of_a_strided_view_keeps_the_inner_stride() -> None:
    src = """
func.func @main() -> memref<8xf32, strided<[2], offset: 1>> {
  %m = memref.alloc() : memref<4x4xf32>
  %s = memref.subview %m[0, 1] [4, 2] [1, 2] : memref<4x4xf32> to memref<4x2xf32, strided<[4, 2], offset: 1>>
  %c = memref.collapse_shape %s [[0, 1]] : memref<4x2xf32, strided<[4, 2], offset: 1>> into memref<8xf32, strided<[2], offset: 1>>
  return %c : memref<8xf32, strided<[2], offset: 1>>
}
"""
    (c,) = run(src)
    # rows of stride 4 with two elements of stride 2 are contiguous at stride 2: collapsed stride 2
    assert desc(c) == (1, (8,), (2,))


def test_view_shifts_bytes_into_an_i8_buffer() -> None:
    src = """
func.func @main(%shift: index, %n: index, %x: f32, %i: index) -> (memref<?x4xf32>, memref<64xi8>) {
  %buf = memref.alloc() : memref<64xi8>
  %v = memref.view %buf[%shift][%n] : memref<64xi8> to memref<?x4xf32>
  memref.store %x, %v[%i, %i] : memref<?x4xf32>
  return %v, %buf : memref<?x4xf32>, memref<64xi8>
}
"""
    v, buf = run(src, 16, 2, np.float32(1.0), 1)
    assert v.aligned == buf.aligned + 16 and desc(v) == (0, (2, 4), (4, 1))
    # [1][1] = element 5 -> byte 16 + 20 = 36; 1.0f = 0x3f800000 little-endian
    assert list(buf.alloc.data[36:40]) == [0, 0, 0x80, 0x3F]
    assert "exceeds the 64-byte source" in run_error(src, 40, 2, np.float32(1.0), 0)


def test_extract_aligned_pointer_and_strided_metadata() -> None:
    src = """
func.func @main() -> (index, memref<f32>, index, index, index, index, index, memref<4x8xf32>) {
  %m = memref.alloc() : memref<4x8xf32>
  %s = memref.subview %m[1, 2] [2, 3] [1, 2] : memref<4x8xf32> to memref<2x3xf32, strided<[8, 2], offset: 10>>
  %p = memref.extract_aligned_pointer_as_index %s : memref<2x3xf32, strided<[8, 2], offset: 10>> -> index
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %s : memref<2x3xf32, strided<[8, 2], offset: 10>> -> memref<f32>, index, index, index, index, index
  return %p, %base, %off, %sz#0, %sz#1, %st#0, %st#1, %m : index, memref<f32>, index, index, index, index, index, memref<4x8xf32>
}
"""
    p, base, off, s0, s1, t0, t1, m = run(src)
    assert p == m.aligned  # the aligned pointer of the buffer, not of the view's first element
    assert (off, s0, s1, t0, t1) == (10, 2, 3, 8, 2)
    assert desc(base) == (0, (), ()) and base.aligned == m.aligned and base.alloc is m.alloc


def test_memory_space_cast_keeps_the_descriptor() -> None:
    src = """
func.func @main() -> (memref<4xf32, 1>, memref<4xf32>) {
  %m = memref.alloc() : memref<4xf32, 1>
  %g = memref.memory_space_cast %m : memref<4xf32, 1> to memref<4xf32>
  return %m, %g : memref<4xf32, 1>, memref<4xf32>
}
"""
    m, g = run(src)
    assert desc(m) == desc(g) and m.aligned == g.aligned


def test_copy_between_strided_memrefs() -> None:
    src = """
memref.global "private" constant @src : memref<2x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]>
func.func @main() -> memref<4x4xf32> {
  %a = memref.get_global @src : memref<2x2xf32>
  %b = memref.alloc() : memref<4x4xf32>
  %s = memref.subview %b[1, 1] [2, 2] [2, 2] : memref<4x4xf32> to memref<2x2xf32, strided<[8, 2], offset: 5>>
  memref.copy %a, %s : memref<2x2xf32> to memref<2x2xf32, strided<[8, 2], offset: 5>>
  return %b : memref<4x4xf32>
}
"""
    (b,) = run(src)
    expected = np.zeros((4, 4), np.float32)
    expected[1, 1], expected[1, 3], expected[3, 1], expected[3, 3] = 1, 2, 3, 4
    assert np.array_equal(b.logical_array(), expected)


def test_copy_shape_mismatch_is_a_fault() -> None:
    src = """
func.func @main(%n: index) {
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<?xf32> to memref<4xf32>
  return
}
"""
    run(src, 4)
    assert "copy between shapes [3] and [4]" in run_error(src, 3)


# ------------------------------------------------------------------------------------------ globals
GLOBALS_SRC = """
memref.global "private" constant @c : memref<2x3xi32> = dense<[[1, -2, 3], [4, 5, -6]]>
memref.global "private" @z : memref<4xf16> = dense<0.5>
memref.global @u : memref<3xf32> = uninitialized
memref.global "private" @b : memref<2xbf16> = dense<[1.5, -0.0078125]> {alignment = 128 : i64}
func.func @get() -> (memref<2x3xi32>, memref<4xf16>, memref<3xf32>, memref<2xbf16>) {
  %c = memref.get_global @c : memref<2x3xi32>
  %z = memref.get_global @z : memref<4xf16>
  %u = memref.get_global @u : memref<3xf32>
  %b = memref.get_global @b : memref<2xbf16>
  return %c, %z, %u, %b : memref<2x3xi32>, memref<4xf16>, memref<3xf32>, memref<2xbf16>
}
func.func @bump(%x: f16, %i: index) {
  %z = memref.get_global @z : memref<4xf16>
  memref.store %x, %z[%i] : memref<4xf16>
  return
}
"""


def test_globals_are_initialised_and_allocated_once_per_engine() -> None:
    eng = engine_for(GLOBALS_SRC)
    c, z, u, b = eng.run("get")
    assert np.array_equal(c.logical_array(), np.array([[1, -2, 3], [4, 5, -6]], np.int32))
    assert np.array_equal(z.logical_array(), np.full(4, 0.5, np.float16))
    assert np.array_equal(u.logical_array(), np.zeros(3, np.float32))
    assert b.logical_array().tolist() == [1.5, -0.0078125]
    assert b.aligned % 128 == 0 and c.aligned % 64 == 0
    assert c.alloc.kind == "global" and c.alloc.label == "@c"
    eng.run("bump", [np.float16(2.0), 3])
    c2, z2, _, _ = eng.run("get")
    assert z2.alloc is z.alloc and c2.aligned == c.aligned
    assert z2.logical_array().tolist() == [0.5, 0.5, 0.5, 2.0]
    # a fresh engine starts from the initializer again
    _, z3, _, _ = engine_for(GLOBALS_SRC).run("get")
    assert z3.logical_array().tolist() == [0.5] * 4


# ------------------------------------------------------------------------------------------ SLM in kernels
SLM_SRC = """
func.func @sg(%i: index, %x: f32) -> (f32, memref<16xf32, 3>) {
  %s = memref.alloc() : memref<16xf32, 3>
  %old = memref.load %s[%i] : memref<16xf32, 3>
  memref.store %x, %s[%i] : memref<16xf32, 3>
  memref.dealloc %s : memref<16xf32, 3>
  return %old, %s : f32, memref<16xf32, 3>
}
"""


def test_workgroup_memory_is_shared_by_the_subgroups_of_a_workgroup() -> None:
    eng = engine_for(SLM_SRC)
    ks = eng.kstate
    ks.active = True
    ks.slm = AddressSpace("slm", base=0, capacity=128 * 1024)
    ks.slm_allocs = {}
    old0, s0 = eng.run("sg", [3, np.float32(5.0)])  # "subgroup 0"
    old1, s1 = eng.run("sg", [3, np.float32(6.0)])  # "subgroup 1" of the same workgroup sees the store
    assert old0 == 0.0 and old1 == 5.0
    assert s0.alloc is s1.alloc and s0.space is ks.slm and s0.alloc.kind == "slm"
    # next workgroup: fresh SLM
    ks.slm = AddressSpace("slm", base=0, capacity=128 * 1024)
    ks.slm_allocs = {}
    old2, s2 = eng.run("sg", [3, np.float32(7.0)])
    assert old2 == 0.0 and s2.alloc is not s0.alloc


def test_workgroup_memory_in_host_code_is_ordinary_memory() -> None:
    eng = engine_for(SLM_SRC)
    _, s = eng.run("sg", [0, np.float32(1.0)])
    assert s.space is eng.memory and not s.alloc.alive  # the host dealloc freed it


def test_workgroup_memory_over_capacity_is_a_fault() -> None:
    src = """
func.func @sg() {
  %s = memref.alloc() : memref<65536xf32, #gpu.address_space<workgroup>>
  return
}
"""
    eng = engine_for(src)
    eng.kstate.active = True
    eng.kstate.slm = AddressSpace("slm", base=0, capacity=128 * 1024)
    with pytest.raises(DiagnosticError) as info:
        eng.run("sg")
    assert "exceeds the 131072-byte capacity" in info.value.render()


def test_dealloc_of_global_or_alloca_memory_is_a_fault() -> None:
    src = """
memref.global "private" @g : memref<4xf32> = uninitialized
func.func @main() {
  %g = memref.get_global @g : memref<4xf32>
  memref.dealloc %g : memref<4xf32>
  return
}
func.func @stack() {
  %a = memref.alloca() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
"""
    assert "dealloc of a memref.global" in run_error(src)
    assert "dealloc of memref.alloca memory" in run_error(src, entry="stack")


def test_access_past_the_allocation_through_reinterpret_cast_is_a_fault() -> None:
    src = """
func.func @main(%i: index) -> f32 {
  %m = memref.alloc() : memref<4xf32>
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [8], strides: [1] : memref<4xf32> to memref<8xf32>
  %v = memref.load %r[%i] : memref<8xf32>
  return %v : f32
}
"""
    run(src, 3)
    text = run_error(src, 6)
    assert "is outside host allocation %m" in text and "of 16 bytes" in text
