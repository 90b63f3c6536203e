"""vector dialect semantics through the Engine (xesim/exec/ops/vector.py).

Inputs are function arguments, results are returned or printed; expected values are derived by hand,
with numpy on explicit loops, or with exact rational arithmetic (``fractions.Fraction``), independently
of the implementation.
"""

from __future__ import annotations

import io
import struct
from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from xesim.api import make_engine
from xesim.diagnostics import DiagnosticError
from xesim.ir.parser import parse_source
from xesim.verify.structural import verify_module

BF16 = ml_dtypes.bfloat16


def engine_for(src: str) -> Any:
    module = parse_source(src, "t.mlir")
    verify_module(module)
    return make_engine(module, out=io.StringIO())


def run(src: str, *args, entry: str = "main"):
    return engine_for(src).run(entry, list(args))


def run_out(src: str, *args, entry: str = "main") -> str:
    eng = engine_for(src)
    eng.run(entry, list(args))
    return eng.out.getvalue()


def run_error(src: str, *args, entry: str = "main") -> str:
    with pytest.raises(DiagnosticError) as info:
        run(src, *args, entry=entry)
    return info.value.render()


def line_of(src: str, needle: str) -> int:
    for i, line in enumerate(src.splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(needle)


def fn(args: str, results: str, body: str) -> str:
    return f"func.func @main({args}) -> ({results}) {{\n{body}\n}}\n"


def same(a, b) -> bool:
    """Same dtype, shape and bits (NaN/-0 aware)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# ------------------------------------------------------------------------------------------ print
@pytest.mark.parametrize(
    "ty,value,text",
    [
        ("vector<4xf32>", np.array([1, 2.5, -3, 0.1], np.float32), "( 1, 2.5, -3, 0.1 )\n"),
        ("vector<2x2xf32>", np.array([[1, 2], [3, 4]], np.float32), "( ( 1, 2 ), ( 3, 4 ) )\n"),
        ("vector<f32>", np.array(5, np.float32), "( 5 )\n"),
        ("vector<3xi1>", np.array([True, False, True]), "( 1, 0, 1 )\n"),
        ("vector<2xf16>", np.array([0.1, 65504], np.float16), "( 0.0999756, 65504 )\n"),
        ("vector<2xbf16>", np.array([1 / 3, -2], BF16), "( 0.333984, -2 )\n"),
        ("vector<2xindex>", np.array([-1, 7], np.int64), "( 18446744073709551615, 7 )\n"),
        ("vector<2xui8>", np.array([255, 1], np.uint8), "( 255, 1 )\n"),
        ("vector<2xi8>", np.array([-1, 127], np.int8), "( -1, 127 )\n"),
        ("vector<2xsi16>", np.array([-300, 300], np.int16), "( -300, 300 )\n"),
        ("vector<2xf64>", np.array([1e-7, -0.0]), "( 1e-07, -0 )\n"),
        ("vector<2x1x2xi32>", np.arange(4, dtype=np.int32).reshape(2, 1, 2), "( ( ( 0, 1 ) ), ( ( 2, 3 ) ) )\n"),
    ],
)
def test_print_vectors(ty: str, value, text: str) -> None:
    assert run_out(fn(f"%v: {ty}", "", f"  vector.print %v : {ty}\n  return"), value) == text


@pytest.mark.parametrize(
    "ty,value,text",
    [
        ("f32", np.float32(5), "5\n"), ("f64", np.float64(12.3456789), "12.3457\n"), ("i1", 1, "1\n"),
        ("i32", -5, "-5\n"), ("index", -2, "18446744073709551614\n"), ("ui32", 4000000000, "4000000000\n"),
        ("f16", np.float16(11.11), "11.1094\n"), ("f32", np.float32(np.inf), "inf\n"),
        ("f32", -np.float32(np.nan), "-nan\n"),
    ],
)
def test_print_scalars(ty: str, value, text: str) -> None:
    assert run_out(fn(f"%v: {ty}", "", f"  vector.print %v : {ty}\n  return"), value) == text


def test_print_strings_and_punctuation() -> None:
    src = fn(
        "%t: f64, %v: vector<2xi32>", "",
        """  vector.print str "Average time (ms): "
  vector.print %t : f64
  vector.print punctuation <open>
  vector.print %v : vector<2xi32> punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %t : f64 punctuation <no_punctuation>
  vector.print punctuation <close>
  vector.print punctuation <newline>
  vector.print str "a\\nb"
  return""",
    )
    out = run_out(src, np.float64(12.345678), np.array([3, -4], np.int32))
    assert out == "Average time (ms): 12.3457\n( ( 3, -4 ), 12.3457 )\na\nb"


# ------------------------------------------------------------------------------------------ load / store
def test_vector_load_store_2d_and_1d() -> None:
    src = """
memref.global "private" constant @g : memref<4x8xi32> = dense<[[0, 1, 2, 3, 4, 5, 6, 7], [10, 11, 12, 13, 14, 15, 16, 17], [20, 21, 22, 23, 24, 25, 26, 27], [30, 31, 32, 33, 34, 35, 36, 37]]>
func.func @main(%i: index, %j: index) -> (vector<3xi32>, vector<2x3xi32>, memref<4x8xi32>) {
  %g = memref.get_global @g : memref<4x8xi32>
  %a = vector.load %g[%i, %j] : memref<4x8xi32>, vector<3xi32>
  %b = vector.load %g[%i, %j] : memref<4x8xi32>, vector<2x3xi32>
  %m = memref.alloc() : memref<4x8xi32>
  vector.store %b, %m[%j, %i] : memref<4x8xi32>, vector<2x3xi32>
  return %a, %b, %m : vector<3xi32>, vector<2x3xi32>, memref<4x8xi32>
}
"""
    a, b, m = run(src, 1, 2)
    assert same(a, np.array([12, 13, 14], np.int32))
    assert same(b, np.array([[12, 13, 14], [22, 23, 24]], np.int32))
    expect = np.zeros((4, 8), np.int32)
    expect[2, 1:4] = [12, 13, 14]
    expect[3, 1:4] = [22, 23, 24]
    assert np.array_equal(m.logical_array(), expect)


def test_vector_load_through_a_strided_subview() -> None:
    src = """
memref.global "private" constant @g : memref<4x4xf32> = dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]>
func.func @main(%i: index, %j: index) -> vector<2x2xf32> {
  %g = memref.get_global @g : memref<4x4xf32>
  %s = memref.subview %g[1, 1] [2, 3] [2, 1] : memref<4x4xf32> to memref<2x3xf32, strided<[8, 1], offset: 5>>
  %v = vector.load %s[%i, %j] : memref<2x3xf32, strided<[8, 1], offset: 5>>, vector<2x2xf32>
  return %v : vector<2x2xf32>
}
"""
    (v,) = run(src, 0, 1)
    # s[r][c] = g[1 + 2r][1 + c]; rows 0..1, cols 1..2 of s
    assert same(v, np.array([[6, 7], [14, 15]], np.float32))


def test_vector_load_out_of_bounds_is_a_located_fault() -> None:
    src = fn(
        "%i: index", "vector<4xf32>",
        """  %m = memref.alloc() : memref<8xf32>
  %v = vector.load %m[%i] : memref<8xf32>, vector<4xf32>
  return %v : vector<4xf32>""",
    )
    run(src, 4)
    text = run_error(src, 5)
    assert f"t.mlir:{line_of(src, 'vector.load')}:3: error: 'vector.load' op" in text
    assert "indices [5, 8] of vector dim 0 are out of bounds for dimension 0 of size 8" in text
    assert "%m" in text


def test_vector_store_after_dealloc_is_a_fault() -> None:
    src = fn(
        "%v: vector<4xf32>, %i: index", "",
        """  %m = memref.alloc() : memref<8xf32>
  memref.dealloc %m : memref<8xf32>
  vector.store %v, %m[%i] : memref<8xf32>, vector<4xf32>
  return""",
    )
    text = run_error(src, np.zeros(4, np.float32), 0)
    assert "use after free" in text and f"t.mlir:{line_of(src, 'vector.store')}:" in text


# ------------------------------------------------------------------------------------------ construction
def test_broadcast_splat_from_elements_step() -> None:
    src = fn(
        "%s: f16, %r: vector<1x3xi8>, %a: index, %b: index",
        "vector<2x2xf16>, vector<2x2x3xi8>, vector<3xf16>, vector<2x2xindex>, vector<4xindex>",
        """  %b1 = vector.broadcast %s : f16 to vector<2x2xf16>
  %b2 = vector.broadcast %r : vector<1x3xi8> to vector<2x2x3xi8>
  %sp = vector.splat %s : vector<3xf16>
  %fe = vector.from_elements %a, %b, %b, %a : vector<2x2xindex>
  %st = vector.step : vector<4xindex>
  return %b1, %b2, %sp, %fe, %st : vector<2x2xf16>, vector<2x2x3xi8>, vector<3xf16>, vector<2x2xindex>, vector<4xindex>""",
    )
    b1, b2, sp, fe, st = run(src, np.float16(1.5), np.array([[1, -2, 3]], np.int8), 7, -1)
    assert same(b1, np.full((2, 2), 1.5, np.float16))
    assert same(b2, np.array([[[1, -2, 3]] * 2] * 2, np.int8))
    assert same(sp, np.full(3, 1.5, np.float16))
    assert same(fe, np.array([[7, -1], [-1, 7]], np.int64))
    assert same(st, np.array([0, 1, 2, 3], np.int64))


def test_create_mask_and_constant_mask() -> None:
    src = fn(
        "%a: index, %b: index", "vector<3x4xi1>, vector<4x3xi1>, vector<5xi1>",
        """  %m = vector.create_mask %a, %b : vector<3x4xi1>
  %c = vector.constant_mask [3, 2] : vector<4x3xi1>
  %d = vector.create_mask %b : vector<5xi1>
  return %m, %c, %d : vector<3x4xi1>, vector<4x3xi1>, vector<5xi1>""",
    )
    m, c, d = run(src, 2, 9)
    assert same(m, np.array([[1, 1, 1, 1], [1, 1, 1, 1], [0, 0, 0, 0]], bool))
    assert same(c, np.array([[1, 1, 0], [1, 1, 0], [1, 1, 0], [0, 0, 0]], bool))
    assert same(d, np.ones(5, bool))
    m, _, d = run(src, -3, 1)
    assert not m.any() and same(d, np.array([1, 0, 0, 0, 0], bool))


# ------------------------------------------------------------------------------------------ extract / insert
EXTRACT_SRC = fn(
    "%v: vector<3x4xf32>, %i: index, %j: index, %s: f32",
    "f32, vector<4xf32>, f32, vector<3x4xf32>, vector<3x4xf32>, f32, vector<4xf32>",
    """  %e0 = vector.extract %v[1, 2] : f32 from vector<3x4xf32>
  %e1 = vector.extract %v[%i] : vector<4xf32> from vector<3x4xf32>
  %e2 = vector.extract %v[%i, %j] : f32 from vector<3x4xf32>
  %i0 = vector.insert %s, %v [2, %j] : f32 into vector<3x4xf32>
  %i1 = vector.insert %e1, %v [0] : vector<4xf32> into vector<3x4xf32>
  %row = vector.extract %v[2] : vector<4xf32> from vector<3x4xf32>
  %ee = vector.extractelement %row[%j : index] : vector<4xf32>
  %ie = vector.insertelement %s, %row[%i : index] : vector<4xf32>
  return %e0, %e1, %e2, %i0, %i1, %ee, %ie : f32, vector<4xf32>, f32, vector<3x4xf32>, vector<3x4xf32>, f32, vector<4xf32>""",
)


def test_extract_insert_static_and_dynamic() -> None:
    v = np.arange(12, dtype=np.float32).reshape(3, 4)
    e0, e1, e2, i0, i1, ee, ie = run(EXTRACT_SRC, v, 1, 3, np.float32(-1))
    assert e0 == np.float32(6) and isinstance(e0, np.float32)
    assert same(e1, v[1])
    assert e2 == np.float32(7)
    w = v.copy()
    w[2, 3] = -1
    assert same(i0, w)
    w = v.copy()
    w[0] = v[1]
    assert same(i1, w)
    assert ee == np.float32(11)
    assert same(ie, np.array([8, -1, 10, 11], np.float32))
    assert same(v, np.arange(12, dtype=np.float32).reshape(3, 4))  # operands are not mutated


def test_dynamic_position_out_of_range_is_a_fault() -> None:
    v = np.zeros((3, 4), np.float32)
    text = run_error(EXTRACT_SRC, v, 3, 0, np.float32(0))
    assert "dynamic position 3 is out of range for dimension 0 of size 3" in text
    assert f"t.mlir:{line_of(EXTRACT_SRC, '%e1 = ')}:" in text
    text = run_error(EXTRACT_SRC, v, 0, -1, np.float32(0))
    assert "dynamic position -1 is out of range for dimension 1 of size 4" in text


def test_integer_extract_gives_python_ints() -> None:
    src = fn("%v: vector<2xui16>, %w: vector<2xi16>", "ui16, i16",
             """  %a = vector.extract %v[1] : ui16 from vector<2xui16>
  %b = vector.extract %w[1] : i16 from vector<2xi16>
  return %a, %b : ui16, i16""")
    a, b = run(src, np.array([0, 65535], np.uint16), np.array([0, -1], np.int16))
    assert (a, b) == (65535, -1) and type(a) is int and type(b) is int


def test_strided_slices() -> None:
    src = fn(
        "%v: vector<4x6xi32>, %s: vector<2x2xi32>",
        "vector<2x3xi32>, vector<4x6xi32>, vector<2x6xi32>",
        """  %a = vector.extract_strided_slice %v {offsets = [1, 2], sizes = [2, 3], strides = [1, 1]} : vector<4x6xi32> to vector<2x3xi32>
  %b = vector.insert_strided_slice %s, %v {offsets = [2, 1], strides = [1, 1]} : vector<2x2xi32> into vector<4x6xi32>
  %c = vector.extract_strided_slice %v {offsets = [2], sizes = [2], strides = [1]} : vector<4x6xi32> to vector<2x6xi32>
  return %a, %b, %c : vector<2x3xi32>, vector<4x6xi32>, vector<2x6xi32>""",
    )
    v = np.arange(24, dtype=np.int32).reshape(4, 6)
    s = np.array([[-1, -2], [-3, -4]], np.int32)
    a, b, c = run(src, v, s)
    assert same(a, np.array([[8, 9, 10], [14, 15, 16]], np.int32))
    w = v.copy()
    w[2, 1], w[2, 2], w[3, 1], w[3, 2] = -1, -2, -3, -4
    assert same(b, w)
    assert same(c, v[2:4])


def test_shuffle_1d_2d_and_poison() -> None:
    src = fn(
        "%a: vector<4xf32>, %b: vector<2xf32>, %c: vector<2x3xi8>, %d: vector<1x3xi8>",
        "vector<5xf32>, vector<3x3xi8>, vector<3xf32>",
        """  %s = vector.shuffle %a, %b [5, 0, 4, 3, 1] : vector<4xf32>, vector<2xf32>
  %t = vector.shuffle %c, %d [2, 0, 1] : vector<2x3xi8>, vector<1x3xi8>
  %p = vector.shuffle %a, %b [1, -1, 4] : vector<4xf32>, vector<2xf32>
  return %s, %t, %p : vector<5xf32>, vector<3x3xi8>, vector<3xf32>""",
    )
    a = np.array([10, 11, 12, 13], np.float32)
    b = np.array([20, 21], np.float32)
    c = np.array([[1, 2, 3], [4, 5, 6]], np.int8)
    d = np.array([[7, 8, 9]], np.int8)
    s, t, p = run(src, a, b, c, d)
    assert same(s, np.array([21, 10, 20, 13, 11], np.float32))
    assert same(t, np.array([[7, 8, 9], [1, 2, 3], [4, 5, 6]], np.int8))
    assert same(p, np.array([11, 0, 20], np.float32))


def test_shape_cast_and_transpose() -> None:
    src = fn(
        "%v: vector<2x3x4xi16>", "vector<6x4xi16>, vector<4x2x3xi16>",
        """  %a = vector.shape_cast %v : vector<2x3x4xi16> to vector<6x4xi16>
  %t = vector.transpose %v, [2, 0, 1] : vector<2x3x4xi16> to vector<4x2x3xi16>
  return %a, %t : vector<6x4xi16>, vector<4x2x3xi16>""",
    )
    v = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    a, t = run(src, v)
    assert same(a, v.reshape(6, 4))
    expect = np.empty((4, 2, 3), np.int16)
    for i in range(4):
        for j in range(2):
            for k in range(3):
                expect[i, j, k] = v[j, k, i]  # result dim d is source dim permutation[d]
    assert same(t, expect)


# ------------------------------------------------------------------------------------------ bitcast
def test_bitcast_between_widths_is_bit_exact() -> None:
    src = fn(
        "%f: vector<2xf32>, %b: vector<2x4xi8>, %m: vector<16xi1>, %h: vector<2xi8>",
        "vector<4xf16>, vector<2x1xi32>, vector<2xi8>, vector<16xi1>, vector<4xi4>",
        """  %a = vector.bitcast %f : vector<2xf32> to vector<4xf16>
  %c = vector.bitcast %b : vector<2x4xi8> to vector<2x1xi32>
  %d = vector.bitcast %m : vector<16xi1> to vector<2xi8>
  %e = vector.bitcast %h : vector<2xi8> to vector<16xi1>
  %g = vector.bitcast %h : vector<2xi8> to vector<4xi4>
  return %a, %c, %d, %e, %g : vector<4xf16>, vector<2x1xi32>, vector<2xi8>, vector<16xi1>, vector<4xi4>""",
    )
    f = np.array([1.0, -2.5], np.float32)
    b = np.array([[1, 2, 3, 4], [-1, 0, 0, -128]], np.int8)
    mbits = [1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    h = np.array([0x35, -0x5E], np.int8)  # 0x35, 0xA2
    a, c, d, e, g = run(src, f, b, np.array(mbits, bool), h)
    # f32 1.0 = 0x3f800000 -> f16 halves (little-endian: low half first) 0x0000, 0x3f80
    halves = struct.unpack("<4e", struct.pack("<2f", 1.0, -2.5))
    assert same(a, np.array(halves, np.float16))
    assert a.view(np.uint16).tolist() == [0x0000, 0x3F80, 0x0000, 0xC020]
    # bytes 01 02 03 04 -> 0x04030201; ff 00 00 80 -> 0x800000ff (negative)
    assert same(c, np.array([[0x04030201], [0x800000FF - 2**32]], np.int32))
    # bit k of the result is element k: byte0 = 0b00001101 = 13, byte1 = 0b10000000 = -128
    assert same(d, np.array([13, -128], np.int8))
    assert same(e, np.array([(0x35 >> k) & 1 for k in range(8)] + [(0xA2 >> k) & 1 for k in range(8)], bool))
    # i4 nibbles low first: 0x35 -> 5, 3 ; 0xA2 -> 2, 0xA (= -6 as signed i4)
    assert same(g, np.array([5, 3, 2, -6], np.int8))


def test_bitcast_roundtrip_bf16_to_i16() -> None:
    src = fn("%v: vector<3xbf16>", "vector<3xi16>",
             """  %a = vector.bitcast %v : vector<3xbf16> to vector<3xi16>
  return %a : vector<3xi16>""")
    (a,) = run(src, np.array([1.0, -0.0, np.nan], BF16))
    assert a.view(np.uint16).tolist() == [0x3F80, 0x8000, 0x7FC0]


# ------------------------------------------------------------------------------------------ reductions
def red_src(kind: str, ty: str, n: int, acc: bool) -> str:
    if acc:
        return fn(f"%v: vector<{n}x{ty}>, %a: {ty}", ty,
                  f"  %r = vector.reduction <{kind}>, %v, %a : vector<{n}x{ty}>, {ty} into {ty}\n  return %r : {ty}")
    return fn(f"%v: vector<{n}x{ty}>", ty,
              f"  %r = vector.reduction <{kind}>, %v : vector<{n}x{ty}> into {ty}\n  return %r : {ty}")


INTS = [100, -7, 50, 3]  # as i8: sum 146 wraps to -110


@pytest.mark.parametrize(
    "kind,expected",
    [
        ("add", -110), ("mul", (100 * -7 * 50 * 3 + 128) % 256 - 128), ("minsi", -7), ("maxsi", 100),
        ("minui", 3), ("maxui", 249),  # -7 is 249 unsigned; the result is its signed i8 value
        ("and", 100 & -7 & 50 & 3), ("or", 100 | -7 | 50 | 3), ("xor", 100 ^ -7 ^ 50 ^ 3),
    ],
)
def test_integer_reduction_kinds_wrap_at_i8(kind: str, expected: int) -> None:
    (r,) = run(red_src(kind, "i8", 4, False), np.array(INTS, np.int8))
    if kind == "maxui":
        expected = -7
    assert r == expected and type(r) is int


def test_integer_reduction_with_accumulator_and_i1() -> None:
    (r,) = run(red_src("add", "i32", 3, True), np.array([2**31 - 1, 1, 5], np.int32), 10)
    assert r == (2**31 - 1 + 1 + 5 + 10) - 2**32
    (r,) = run(red_src("add", "i1", 3, False), np.array([1, 1, 1], bool))
    assert r == 1  # 1 + 1 + 1 mod 2
    (r,) = run(red_src("minsi", "i1", 2, False), np.array([0, 1], bool))
    assert r == 1  # true is -1 as a signed i1
    (r,) = run(red_src("minui", "i1", 2, False), np.array([0, 1], bool))
    assert r == 0
    (r,) = run(red_src("maxui", "ui16", 2, False), np.array([65535, 3], np.uint16))
    assert r == 65535


def test_float_add_reduction_is_sequential_from_the_accumulator() -> None:
    v = np.array([1e8, 1.0, -1e8, 1.0], np.float32)
    # sequential in f32: ((acc + 1e8) + 1) + -1e8 ... ; 1e8 + 1 rounds back to 1e8 in f32
    acc = np.float32(0.5)
    seq = acc
    for x in v:
        seq = np.float32(seq + x)
    assert seq == np.float32(1.0)  # (0.5 + 1e8) = 1e8; +1 = 1e8; -1e8 = 0; +1 = 1
    (r,) = run(red_src("add", "f32", 4, True), v, acc)
    assert r == seq and isinstance(r, np.float32)
    (r,) = run(red_src("add", "f32", 4, False), v)
    assert r == np.float32(1.0)
    # f16: 2048 + 1 + 1 stays 2048 sequentially (1 is half an ulp, ties to even), pairwise would give 2050
    (r,) = run(red_src("add", "f16", 3, False), np.array([2048, 1, 1], np.float16))
    assert r == np.float16(2048) and isinstance(r, np.float16)


def test_float_mul_reduction_bf16_rounds_every_step() -> None:
    v = np.array([1 + 2**-7, 1 + 2**-7, 1 + 2**-7], BF16)
    expect = BF16(1.0)
    for x in v:
        # exact product of two bf16 values rounded once to bf16 (via Fraction, then nearest of neighbours)
        exact = Fraction(float(expect)) * Fraction(float(x))
        cands = [BF16(float(exact)), np.nextafter(BF16(float(exact)), BF16(0)), np.nextafter(BF16(float(exact)), BF16(4))]
        expect = min(cands, key=lambda c: (abs(Fraction(float(c)) - exact), int(np.array(c).view(np.uint16)) & 1))
    (r,) = run(red_src("mul", "bf16", 3, False), v)
    assert float(r) == float(expect) == 1 + 3 * 2**-7


@pytest.mark.parametrize(
    "kind,values,expected",
    [
        ("minimumf", [1.0, np.nan, -3.0], np.nan),
        ("maximumf", [1.0, np.nan, -3.0], np.nan),
        ("minnumf", [1.0, np.nan, -3.0], -3.0),
        ("maxnumf", [np.nan, 1.0, -3.0], 1.0),
        ("minimumf", [0.0, -0.0], -0.0),
        ("maximumf", [-0.0, 0.0], 0.0),
        ("minnumf", [0.0, -0.0, 0.0], -0.0),
        ("maxnumf", [-0.0, -0.0], -0.0),
    ],
)
def test_float_min_max_kinds(kind: str, values, expected: float) -> None:
    (r,) = run(red_src(kind, "f32", len(values), False), np.array(values, np.float32))
    assert same(r, np.float32(expected)) or (np.isnan(expected) and np.isnan(r))
    assert isinstance(r, np.float32)


def test_multi_reduction_order_and_dims() -> None:
    src = fn(
        "%v: vector<2x3x4xf32>, %a: vector<3xf32>, %b: f32", "vector<3xf32>, f32",
        """  %r = vector.multi_reduction <add>, %v, %a [0, 2] : vector<2x3x4xf32> to vector<3xf32>
  %m = vector.multi_reduction <maximumf>, %v, %b [0, 1, 2] : vector<2x3x4xf32> to f32
  return %r, %m : vector<3xf32>, f32""",
    )
    rng = np.random.default_rng(1)
    v = (rng.standard_normal((2, 3, 4)) * 1e4).astype(np.float32)
    v[1, 2, 3] = 3e4
    a = np.array([1e-3, 7.0, -2.0], np.float32)
    expect = a.copy()
    for j in range(3):
        acc = a[j]
        for i in range(2):  # reduced dims in row-major order: dim 0 outer, dim 2 inner
            for k in range(4):
                acc = np.float32(acc + v[i, j, k])
        expect[j] = acc
    r, m = run(src, v, a, np.float32(-1))
    assert same(r, expect)
    assert m == np.float32(3e4)


def test_multi_reduction_integer_keeps_dims() -> None:
    src = fn(
        "%v: vector<2x3xi32>, %a: vector<2xi32>", "vector<2xi32>",
        """  %r = vector.multi_reduction <maxsi>, %v, %a [1] : vector<2x3xi32> to vector<2xi32>
  return %r : vector<2xi32>""",
    )
    (r,) = run(src, np.array([[1, -5, 3], [-9, -8, -7]], np.int32), np.array([0, -100], np.int32))
    assert same(r, np.array([3, -7], np.int32))


# ------------------------------------------------------------------------------------------ fma
def rn(exact: Fraction, dt) -> float:
    """Round an exact rational to nearest-even in ``dt`` by comparing the neighbouring values."""
    x = np.array(float(exact)).astype(dt)
    cands = {float(x), float(np.nextafter(x, np.array(np.inf, dt))), float(np.nextafter(x, np.array(-np.inf, dt)))}

    def key(c: float):
        bits = int(np.array(c, dt).view(f"u{np.dtype(dt).itemsize}"))
        return (abs(Fraction(c) - exact), bits & 1)

    return min(cands, key=key)


def test_fma_rounds_once() -> None:
    src = fn("%a: vector<2xf32>, %b: vector<2xf32>, %c: vector<2xf32>", "vector<2xf32>",
             "  %r = vector.fma %a, %b, %c : vector<2xf32>\n  return %r : vector<2xf32>")
    e = 2.0**-23
    a = np.array([1 + e, 3.0], np.float32)
    b = np.array([1 + e, 1 / 3], np.float32)
    c = np.array([-(1 + 2 * e), -1.0], np.float32)
    (r,) = run(src, a, b, c)
    expect = [rn(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)), np.float32) for x, y, z in zip(a, b, c)]
    assert r.tolist() == expect
    assert r[0] == np.float32(2.0**-46)  # unfused (a*b rounded first) would give 0
    assert r[0] != np.float32(a[0] * b[0]) + c[0]


def test_fma_bf16_does_not_double_round() -> None:
    src = fn("%a: vector<1xbf16>, %b: vector<1xbf16>, %c: vector<1xbf16>", "vector<1xbf16>",
             "  %r = vector.fma %a, %b, %c : vector<1xbf16>\n  return %r : vector<1xbf16>")
    # a*b = 1.5 + 2^-7 + 2^-8 is the midpoint of two bf16 values; c = -2^-30 puts the exact sum just below,
    # so the correctly rounded result is 1.5 + 2^-7 (rounding through f32 would tie to the even 1.5 + 2^-6)
    a, b, c = BF16(1.5), BF16(1 + 2**-7), BF16(-(2.0**-30))
    (r,) = run(src, np.array([a], BF16), np.array([b], BF16), np.array([c], BF16))
    exact = Fraction(1.5) * Fraction(1 + 2**-7) - Fraction(2) ** -30
    assert float(r[0]) == rn(exact, BF16) == 1.5 + 2**-7


def test_fma_f64_and_special_values() -> None:
    src = fn("%a: vector<3xf64>, %b: vector<3xf64>, %c: vector<3xf64>", "vector<3xf64>",
             "  %r = vector.fma %a, %b, %c : vector<3xf64>\n  return %r : vector<3xf64>")
    e = 2.0**-52
    a = np.array([1 + e, np.inf, -0.0])
    b = np.array([1 - e, 0.5, 3.0])
    c = np.array([-1.0, 1.0, -0.0])
    (r,) = run(src, a, b, c)
    assert r[0] == -(2.0**-104)  # exact (1+e)(1-e) - 1 = -e^2
    assert r[1] == np.inf
    assert r[2] == 0.0 and np.signbit(r[2])  # -0 * 3 + -0 = -0


# ------------------------------------------------------------------------------------------ transfers
TR_SRC = """
memref.global "private" constant @g : memref<3x5xf32> = dense<[[0.0, 1.0, 2.0, 3.0, 4.0], [10.0, 11.0, 12.0, 13.0, 14.0], [20.0, 21.0, 22.0, 23.0, 24.0]]>
func.func @main(%i: index, %j: index, %pad: f32, %mask: vector<4xi1>) -> (vector<4xf32>, vector<2x4xf32>, vector<4x2xf32>, vector<2x4xf32>, vector<4xf32>) {
  %g = memref.get_global @g : memref<3x5xf32>
  %a = vector.transfer_read %g[%i, %j], %pad : memref<3x5xf32>, vector<4xf32>
  %b = vector.transfer_read %g[%i, %j], %pad : memref<3x5xf32>, vector<2x4xf32>
  %t = vector.transfer_read %g[%i, %j], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<3x5xf32>, vector<4x2xf32>
  %bc = vector.transfer_read %g[%i, %j], %pad {in_bounds = [true, false], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<3x5xf32>, vector<2x4xf32>
  %mk = vector.transfer_read %g[%i, %j], %pad, %mask : memref<3x5xf32>, vector<4xf32>
  return %a, %b, %t, %bc, %mk : vector<4xf32>, vector<2x4xf32>, vector<4x2xf32>, vector<2x4xf32>, vector<4xf32>
}
"""


def g_at(i: int, j: int, pad: float) -> float:
    return float(10 * i + j) if 0 <= i < 3 and 0 <= j < 5 else pad


def test_transfer_read_padding_permutation_broadcast_and_mask() -> None:
    mask = np.array([1, 0, 1, 1], bool)
    a, b, t, bc, mk = run(TR_SRC, 2, 3, np.float32(-1), mask)
    assert same(a, np.array([g_at(2, 3 + k, -1) for k in range(4)], np.float32))  # [23, 24, -1, -1]
    assert same(b, np.array([[g_at(2 + r, 3 + k, -1) for k in range(4)] for r in range(2)], np.float32))
    # transposed: vector dim 0 walks memref dim 1, vector dim 1 walks memref dim 0
    assert same(t, np.array([[g_at(2 + r, 3 + k, -1) for r in range(2)] for k in range(4)], np.float32))
    # broadcast dim 0: every row is row %i
    assert same(bc, np.array([[g_at(2, 3 + k, -1) for k in range(4)]] * 2, np.float32))
    assert same(mk, np.array([23, -1, -1, -1], np.float32))
    _, _, _, _, mk = run(TR_SRC, 0, 0, np.float32(9), mask)
    assert same(mk, np.array([0, 9, 2, 3], np.float32))


def test_transfer_read_in_bounds_violation_and_bad_base_index_fault() -> None:
    src = fn(
        "%i: index, %j: index, %pad: f32", "vector<4xf32>",
        """  %m = memref.alloc() : memref<3x5xf32>
  %v = vector.transfer_read %m[%i, %j], %pad {in_bounds = [true]} : memref<3x5xf32>, vector<4xf32>
  return %v : vector<4xf32>""",
    )
    run(src, 0, 1, np.float32(0))
    assert "indices [2, 5] of vector dim 0 are out of bounds for dimension 1 of size 5" in run_error(src, 0, 2, np.float32(0))
    assert "index 3 is out of bounds for dimension 0 of size 3" in run_error(src, 3, 0, np.float32(0))


def test_transfer_write_skips_out_of_bounds_and_masked_elements() -> None:
    src = fn(
        "%v: vector<2x4xi32>, %i: index, %j: index, %mask: vector<2x4xi1>", "memref<3x5xi32>, memref<3x5xi32>",
        """  %m = memref.alloc() : memref<3x5xi32>
  vector.transfer_write %v, %m[%i, %j] : vector<2x4xi32>, memref<3x5xi32>
  %n = memref.alloc() : memref<3x5xi32>
  vector.transfer_write %v, %n[%i, %j], %mask : vector<2x4xi32>, memref<3x5xi32>
  %t = memref.alloc() : memref<3x5xi32>
  return %m, %n : memref<3x5xi32>, memref<3x5xi32>""",
    )
    v = np.arange(1, 9, dtype=np.int32).reshape(2, 4)
    mask = np.array([[1, 1, 0, 1], [0, 1, 1, 1]], bool)
    m, n = run(src, v, 1, 2, mask)
    em = np.zeros((3, 5), np.int32)
    en = np.zeros((3, 5), np.int32)
    for r in range(2):
        for k in range(4):
            if 1 + r < 3 and 2 + k < 5:
                em[1 + r, 2 + k] = v[r, k]
                if mask[r, k]:
                    en[1 + r, 2 + k] = v[r, k]
    assert np.array_equal(m.logical_array(), em)
    assert np.array_equal(n.logical_array(), en)


def test_transfer_write_transposed() -> None:
    src = fn(
        "%v: vector<3x2xf16>, %i: index", "memref<2x4xf16>",
        """  %m = memref.alloc() : memref<2x4xf16>
  vector.transfer_write %v, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<3x2xf16>, memref<2x4xf16>
  return %m : memref<2x4xf16>""",
    )
    v = np.arange(6, dtype=np.float16).reshape(3, 2)
    (m,) = run(src, v, 0)
    expect = np.zeros((2, 4), np.float16)
    for a in range(3):
        for b in range(2):
            expect[b, a] = v[a, b]  # vector dim 0 walks memref dim 1
    assert np.array_equal(m.logical_array(), expect)


# ------------------------------------------------------------------------------------------ contract
def test_contract_matmul_mixed_precision() -> None:
    src = fn(
        "%a: vector<2x3xf16>, %b: vector<3x4xf16>, %c: vector<2x4xf32>", "vector<2x4xf32>",
        """  %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf16>, vector<3x4xf16> into vector<2x4xf32>
  return %r : vector<2x4xf32>""",
    )
    rng = np.random.default_rng(7)
    a = rng.standard_normal((2, 3)).astype(np.float16)
    b = rng.standard_normal((3, 4)).astype(np.float16)
    c = rng.standard_normal((2, 4)).astype(np.float32)
    (r,) = run(src, a, b, c)
    expect = c.copy()
    for i in range(2):
        for j in range(4):
            acc = c[i, j]
            for k in range(3):
                acc = np.float32(acc + np.float32(np.float32(a[i, k]) * np.float32(b[k, j])))
            expect[i, j] = acc
    assert same(r, expect)


def test_contract_transposed_acc_and_scalar_dot() -> None:
    src = fn(
        "%a: vector<2x3xi32>, %b: vector<4x3xi32>, %c: vector<4x2xi32>, %x: vector<3xf32>, %y: vector<3xf32>, %z: f32",
        "vector<4x2xi32>, f32",
        """  %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x3xi32>, vector<4x3xi32> into vector<4x2xi32>
  %d = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<maxnumf>} %x, %y, %z : vector<3xf32>, vector<3xf32> into f32
  return %r, %d : vector<4x2xi32>, f32""",
    )
    a = np.arange(6, dtype=np.int32).reshape(2, 3) - 2
    b = np.arange(12, dtype=np.int32).reshape(4, 3) * 3
    c = np.arange(8, dtype=np.int32).reshape(4, 2)
    x = np.array([1, -2, 3], np.float32)
    y = np.array([2, 5, -1], np.float32)
    r, d = run(src, a, b, c, x, y, np.float32(-100))
    expect = np.array([[c[j, i] + sum(int(a[i, k]) * int(b[j, k]) for k in range(3)) for i in range(2)] for j in range(4)],
                      np.int32)
    assert same(r, expect)
    assert d == np.float32(2.0)  # max(-100, 1*2, -2*5, 3*-1)


@pytest.mark.parametrize("ty,dt", [("f32", np.float32), ("f16", np.float16), ("bf16", BF16)])
def test_fma_matches_exact_rounding_on_random_operands(ty: str, dt) -> None:
    n = 512
    rng = np.random.default_rng(11)
    ui = np.dtype(f"u{np.dtype(dt).itemsize}")

    def rand_vals() -> np.ndarray:
        # random bit patterns, non-finite ones replaced by 1.0
        bits = rng.integers(0, 2 ** (8 * ui.itemsize), n, dtype=np.uint64).astype(ui)
        with np.errstate(invalid="ignore"):
            v = bits.view(dt).astype(np.float64)
        v[~np.isfinite(v)] = 1.0
        return v

    a, b = rand_vals(), rand_vals()
    # scale so that products stay in range, and make half of the c values cancel the product closely
    a = np.array([float(np.array(x * 2.0 ** -int(np.log2(abs(x)) // 2) if x else 0).astype(dt)) for x in a])
    b = np.array([float(np.array(x * 2.0 ** -int(np.log2(abs(x)) // 2) if x else 0).astype(dt)) for x in b])
    c = rand_vals()
    close = -(a * b)
    with np.errstate(over="ignore"):
        c[: n // 2] = [float(np.array(x).astype(dt)) for x in close[: n // 2]]
    c[~np.isfinite(c)] = 1.0
    src = fn(f"%a: vector<{n}x{ty}>, %b: vector<{n}x{ty}>, %c: vector<{n}x{ty}>", f"vector<{n}x{ty}>",
             f"  %r = vector.fma %a, %b, %c : vector<{n}x{ty}>\n  return %r : vector<{n}x{ty}>")
    (r,) = run(src, a.astype(dt), b.astype(dt), c.astype(dt))
    for i in range(n):
        exact = Fraction(float(a[i])) * Fraction(float(b[i])) + Fraction(float(c[i]))
        if exact == 0:
            continue  # sign of an exact zero is checked in test_fma_f64_and_special_values
        fmax = float(ml_dtypes.finfo(dt).max)
        if abs(exact) > fmax:
            continue
        assert float(r[i]) == rn(exact, dt), (i, a[i], b[i], c[i])


def test_fma_f32_and_f16_ties_broken_by_a_tiny_addend() -> None:
    # a*b is exactly halfway between two representable values; a tiny c decides the direction, which the
    # f64 sum s = a*b + c alone cannot show (c is below half an ulp of s)
    src = fn("%a: vector<2xf32>, %b: vector<2xf32>, %c: vector<2xf32>", "vector<2xf32>",
             "  %r = vector.fma %a, %b, %c : vector<2xf32>\n  return %r : vector<2xf32>")
    a = np.array([1 + 2.0**-23, 1 + 2.0**-23], np.float32)
    b = np.array([1.5, 1.5], np.float32)
    c = np.array([-(2.0**-80), 2.0**-80], np.float32)
    (r,) = run(src, a, b, c)
    assert r.tolist() == [1.5 + 2.0**-23, 1.5 + 2.0**-22]
    src16 = src.replace("f32", "f16")
    a16 = np.array([1 + 2.0**-10, 1 + 2.0**-10], np.float16)
    b16 = np.array([1.5, 1.5], np.float16)
    c16 = np.array([-(2.0**-24), 2.0**-24], np.float16)  # the smallest f16 subnormal
    (r16,) = run(src16, a16, b16, c16)
    assert r16.tolist() == [1.5 + 2.0**-10, 1.5 + 2.0**-9]


def test_zero_d_transfer_read_and_load() -> None:
    src = fn(
        "%i: index, %pad: f32", "vector<f32>, vector<f32>",
        """  %m = memref.alloc() : memref<4xf32>
  %a = vector.transfer_read %m[%i], %pad {permutation_map = affine_map<(d0) -> ()>} : memref<4xf32>, vector<f32>
  %b = vector.broadcast %pad : f32 to vector<f32>
  return %a, %b : vector<f32>, vector<f32>""",
    )
    a, b = run(src, 2, np.float32(3))
    assert same(a, np.array(0, np.float32)) and same(b, np.array(3, np.float32))
