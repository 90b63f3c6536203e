"""arith / math / index / affine semantics through the Engine (xesim/exec/ops/{arith,math,index,affine}.py).

Small host functions are parsed, verified and run; expected values are derived by hand (two's-complement
arithmetic worked out in the comments), with Python integers, ``math`` or exact rational arithmetic --
never by the code under test.
"""

from __future__ import annotations

import io
import math
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
NAN32 = np.float32("nan")


def engine_for(src: str) -> Any:
    module = parse_source(src, "t.mlir")
    verify_module(module)
    return make_engine(module, out=io.StringIO())


def run(src: str, *args, entry: str = "main"):
    """Run ``entry``; one result comes back as itself, several as a tuple."""
    res = engine_for(src).run(entry, list(args))
    return res[0] if len(res) == 1 else tuple(res)


def fn(args: str, results: str, body: str) -> str:
    return f"func.func @main({args}) -> ({results}) {{\n{body}\n}}\n"


def run_error(src: str, *args) -> str:
    with pytest.raises(DiagnosticError) as info:
        run(src, *args)
    return info.value.render()


def line_of(src: str, needle: str) -> int:
    for i, line in enumerate(src.splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(needle)


def bits32(x) -> int:
    return struct.unpack("<I", struct.pack("<f", float(x)))[0]


def same(a, b) -> bool:
    """Same dtype, shape and bit pattern (NaN / signed-zero aware)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def binop(op: str, ty: str) -> str:
    return fn(f"%a: {ty}, %b: {ty}", ty, f"  %r = {op} %a, %b : {ty}\n  return %r : {ty}")


# ------------------------------------------------------------------------------------------ integer wrap
@pytest.mark.parametrize(
    "op,ty,a,b,expected",
    [
        ("arith.addi", "i8", 127, 1, -128),  # 0x7f + 1 = 0x80
        ("arith.addi", "i8", -128, -1, 127),  # 0x80 + 0xff = 0x17f -> 0x7f
        ("arith.subi", "i16", -32768, 1, 32767),
        ("arith.muli", "i32", 65536, 65536, 0),  # 2^32 mod 2^32
        ("arith.muli", "i32", 123456789, 1000, -1097262584),  # 123456789000 mod 2^32 = 3197704712 = -1097262584
        ("arith.addi", "i64", 2**63 - 1, 1, -(2**63)),
        ("arith.addi", "index", 2**63 - 1, 2, -(2**63) + 1),
        ("arith.muli", "index", -(2**62), 4, 0),
        ("arith.addi", "i1", 1, 1, 0),
        ("arith.muli", "i1", 1, 1, 1),
        ("arith.addi", "i4", 7, 1, -8),
        ("arith.andi", "i32", -1, 0x0F0F, 0x0F0F),
        ("arith.ori", "i8", 0x70, -128, -16),  # 0x70 | 0x80 = 0xf0
        ("arith.xori", "i8", -1, 0x0F, -16),  # 0xff ^ 0x0f = 0xf0
        ("arith.minsi", "i32", -1, 1, -1),
        ("arith.minui", "i32", -1, 1, 1),  # 0xffffffff > 1 unsigned
        ("arith.maxsi", "i8", -128, 127, 127),
        ("arith.maxui", "i8", -128, 127, -128),  # 0x80 = 128 > 127
        ("arith.minsi", "i1", 1, 0, 1),  # i1 true is -1 signed
        ("arith.maxui", "i1", 1, 0, 1),
    ],
)
def test_integer_ops_wrap(op, ty, a, b, expected):
    assert run(binop(op, ty), a, b) == expected


def test_integer_vectors_wrap_and_keep_dtype():
    src = fn("%a: vector<4xi8>, %b: vector<4xi8>", "vector<4xi8>, vector<4xi8>, vector<4xi8>, vector<4xi8>",
             """  %s = arith.addi %a, %b : vector<4xi8>
  %m = arith.muli %a, %b : vector<4xi8>
  %u = arith.maxui %a, %b : vector<4xi8>
  %x = arith.minsi %a, %b : vector<4xi8>
  return %s, %m, %u, %x : vector<4xi8>, vector<4xi8>, vector<4xi8>, vector<4xi8>""")
    a = np.array([127, -128, 16, -1], np.int8)
    b = np.array([1, -1, 16, 2], np.int8)
    s, m, u, x = run(src, a, b)
    assert same(s, np.array([-128, 127, 32, 1], np.int8))
    assert same(m, np.array([127, -128, 0, -2], np.int8))  # 16*16 = 256 -> 0; -1*2 = -2
    assert same(u, np.array([127, -1, 16, -1], np.int8))  # unsigned: max(0x80, 0xff) = 0xff, 0xff > 2
    assert same(x, np.array([1, -128, 16, -1], np.int8))


def test_i1_and_odd_width_vectors():
    src = fn("%a: vector<3xi1>, %b: vector<3xi1>, %c: vector<2xi4>, %d: vector<2xi4>",
             "vector<3xi1>, vector<3xi1>, vector<2xi4>",
             """  %s = arith.addi %a, %b : vector<3xi1>
  %m = arith.minsi %a, %b : vector<3xi1>
  %t = arith.addi %c, %d : vector<2xi4>
  return %s, %m, %t : vector<3xi1>, vector<3xi1>, vector<2xi4>""")
    s, m, t = run(src, np.array([1, 1, 0], bool), np.array([1, 0, 0], bool), np.array([7, -8], np.int8),
                  np.array([1, -1], np.int8))
    assert same(s, np.array([False, True, False]))
    assert same(m, np.array([True, True, False]))  # min(-1, 0) = -1 = true
    assert same(t, np.array([-8, 7], np.int8))  # 7+1 = 8 -> -8; -8-1 = -9 -> 7


# ------------------------------------------------------------------------------------------ division
@pytest.mark.parametrize(
    "op,a,b,expected",
    [
        ("divsi", -7, 2, -3), ("divsi", 7, -2, -3), ("divsi", -7, -2, 3),
        ("remsi", -7, 2, -1), ("remsi", 7, -2, 1),
        ("ceildivsi", -7, 2, -3), ("ceildivsi", 7, 2, 4), ("ceildivsi", 7, -2, -3),
        ("floordivsi", -7, 2, -4), ("floordivsi", 7, -2, -4), ("floordivsi", 6, 3, 2),
        ("divui", -2, 3, 1431655764),  # 0xfffffffe / 3
        ("remui", -1, 10, 5),  # 4294967295 % 10
        ("ceildivui", -2, 2, 2147483647),  # 0xfffffffe / 2 exactly
        ("ceildivui", 7, 2, 4),
        ("divsi", -(2**31), 2, -(2**30)),
    ],
)
def test_integer_division(op, a, b, expected):
    assert run(binop(f"arith.{op}", "i32"), a, b) == expected


def test_integer_division_vectors():
    src = fn("%a: vector<4xi64>, %b: vector<4xi64>", "vector<4xi64>, vector<4xi64>, vector<4xi64>, vector<4xi64>",
             """  %d = arith.divsi %a, %b : vector<4xi64>
  %r = arith.remsi %a, %b : vector<4xi64>
  %c = arith.ceildivsi %a, %b : vector<4xi64>
  %f = arith.floordivsi %a, %b : vector<4xi64>
  return %d, %r, %c, %f : vector<4xi64>, vector<4xi64>, vector<4xi64>, vector<4xi64>""")
    a = np.array([-7, 7, -(2**63), 9], np.int64)
    b = np.array([2, -2, 2, 3], np.int64)
    d, r, c, f = run(src, a, b)
    assert d.tolist() == [-3, -3, -(2**62), 3]
    assert r.tolist() == [-1, 1, 0, 0]
    assert c.tolist() == [-3, -3, -(2**62), 3]
    assert f.tolist() == [-4, -4, -(2**62), 3]


@pytest.mark.parametrize("op", ["divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui", "floordivsi"])
def test_division_by_zero_is_a_located_fault(op):
    src = binop(f"arith.{op}", "i32")
    msg = run_error(src, 5, 0)
    assert f"t.mlir:{line_of(src, op)}:" in msg
    assert f"'arith.{op}' op division by zero" in msg


@pytest.mark.parametrize("op", ["divsi", "remsi", "ceildivsi", "floordivsi"])
def test_signed_division_overflow_is_a_fault(op):
    msg = run_error(binop(f"arith.{op}", "i32"), -(2**31), -1)
    assert "signed division overflow" in msg and "t.mlir:2:" in msg


def test_vector_division_by_zero_names_the_element():
    src = binop("arith.divui", "vector<2x2xi16>")
    msg = run_error(src, np.ones((2, 2), np.int16), np.array([[1, 2], [0, 3]], np.int16))
    assert "division by zero" in msg and "[1, 0]" in msg


def test_index_division_faults():
    src = fn("%a: index, %b: index", "index", "  %r = index.divs %a, %b\n  return %r : index")
    assert "division by zero" in run_error(src, 1, 0)
    assert "signed division overflow" in run_error(src, -(2**63), -1)


# ------------------------------------------------------------------------------------------ shifts
@pytest.mark.parametrize(
    "op,a,b,expected",
    [
        ("shli", 1, 7, -128), ("shli", 3, 7, -128),  # 0x180 -> 0x80
        ("shrsi", -128, 7, -1), ("shrui", -128, 7, 1), ("shrsi", 64, 3, 8), ("shrui", -1, 4, 15),
        ("shli", 5, 0, 5),
    ],
)
def test_shifts_i8(op, a, b, expected):
    assert run(binop(f"arith.{op}", "i8"), a, b) == expected


@pytest.mark.parametrize("op", ["shli", "shrsi", "shrui"])
def test_oversized_shift_is_a_fault(op):
    assert "shift amount 8 is not less than the bit width 8" in run_error(binop(f"arith.{op}", "i8"), 1, 8)
    # the amount is read unsigned: -1 is 255
    assert "shift amount 255 is not less than the bit width 8" in run_error(binop(f"arith.{op}", "i8"), 1, -1)
    msg = run_error(binop(f"arith.{op}", "vector<3xi32>"), np.ones(3, np.int32), np.array([1, 32, 2], np.int32))
    assert "shift amount 32 is not less than the bit width 32" in msg and "[1]" in msg


def test_vector_shifts():
    src = fn("%a: vector<3xi16>, %b: vector<3xi16>", "vector<3xi16>, vector<3xi16>, vector<3xi16>",
             """  %l = arith.shli %a, %b : vector<3xi16>
  %s = arith.shrsi %a, %b : vector<3xi16>
  %u = arith.shrui %a, %b : vector<3xi16>
  return %l, %s, %u : vector<3xi16>, vector<3xi16>, vector<3xi16>""")
    l, s, u = run(src, np.array([1, -32768, -2], np.int16), np.array([15, 15, 1], np.int16))
    assert l.tolist() == [-32768, 0, -4]
    assert s.tolist() == [0, -1, -1]
    assert u.tolist() == [0, 1, 32767]


def test_overflow_flags_report_poison():
    src = fn("%a: i8, %b: i8", "i8", "  %r = arith.addi %a, %b overflow<nsw> : i8\n  return %r : i8")
    assert run(src, 100, 27) == 127
    assert "overflow<nsw>" in run_error(src, 100, 28)
    src = fn("%a: i8, %b: i8", "i8", "  %r = arith.muli %a, %b overflow<nuw> : i8\n  return %r : i8")
    assert run(src, -1, 1) == -1  # 255 * 1 fits unsigned
    assert "overflow<nuw>" in run_error(src, -1, 2)


# ------------------------------------------------------------------------------------------ cmpi
CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


def cmpi_expected(pred: str, a: int, b: int, width: int) -> bool:
    ua, ub = a % 2**width, b % 2**width
    return {"eq": a == b, "ne": a != b, "slt": a < b, "sle": a <= b, "sgt": a > b, "sge": a >= b,
            "ult": ua < ub, "ule": ua <= ub, "ugt": ua > ub, "uge": ua >= ub}[pred]


@pytest.mark.parametrize("pred", CMPI)
@pytest.mark.parametrize("ty,width", [("i32", 32), ("index", 64), ("i8", 8)])
def test_cmpi_every_predicate(pred, ty, width):
    pairs = [(-1, 1), (1, -1), (3, 3), (0, -(2 ** (width - 1))), (2 ** (width - 1) - 1, 0)]
    src = fn(f"%a: {ty}, %b: {ty}, %u: vector<5x{ty}>, %v: vector<5x{ty}>", "i1, vector<5xi1>",
             f"""  %r = arith.cmpi {pred}, %a, %b : {ty}
  %s = arith.cmpi {pred}, %u, %v : vector<5x{ty}>
  return %r, %s : i1, vector<5xi1>""")
    eng = engine_for(src)
    dt = np.int64 if ty == "index" else np.dtype(f"i{width // 8}")
    us = np.array([p[0] for p in pairs], dt)
    vs = np.array([p[1] for p in pairs], dt)
    for a, b in pairs:
        r, s = eng.run("main", [a, b, us, vs])
        assert r == int(cmpi_expected(pred, a, b, width)), (pred, a, b)
    assert same(s, np.array([cmpi_expected(pred, a, b, width) for a, b in pairs]))


def test_cmpi_i1_signed():
    src = fn("%a: i1, %b: i1", "i1, i1", """  %s = arith.cmpi slt, %a, %b : i1
  %u = arith.cmpi ult, %a, %b : i1
  return %s, %u : i1, i1""")
    assert run(src, 1, 0) == (1, 0)  # true is -1 signed, 1 unsigned


def test_index_cmp_predicates():
    for pred in CMPI:
        src = fn("%a: index, %b: index", "i1", f"  %r = index.cmp {pred}(%a, %b)\n  return %r : i1")
        eng = engine_for(src)
        for a, b in [(-1, 1), (5, 5), (1, -1)]:
            assert eng.run("main", [a, b])[0] == int(cmpi_expected(pred, a, b, 64)), (pred, a, b)


# ------------------------------------------------------------------------------------------ cmpf
CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno",
        "true"]


def cmpf_expected(pred: str, a: float, b: float) -> bool:
    unordered = math.isnan(a) or math.isnan(b)
    if pred == "false":
        return False
    if pred == "true":
        return True
    if pred == "ord":
        return not unordered
    if pred == "uno":
        return unordered
    rel = pred[1:]
    if unordered:
        return pred[0] == "u"
    return {"eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b, "ne": a != b}[rel]


CMPF_PAIRS = [(1.0, 2.0), (2.0, 1.0), (3.0, 3.0), (math.nan, 1.0), (1.0, math.nan), (math.nan, math.nan),
              (-0.0, 0.0), (math.inf, math.inf), (-math.inf, 1.0)]


@pytest.mark.parametrize("pred", CMPF)
@pytest.mark.parametrize("ty", ["f32", "f16", "bf16", "f64"])
def test_cmpf_every_predicate(pred, ty):
    n = len(CMPF_PAIRS)
    src = fn(f"%a: {ty}, %b: {ty}, %u: vector<{n}x{ty}>, %v: vector<{n}x{ty}>", f"i1, vector<{n}xi1>",
             f"""  %r = arith.cmpf {pred}, %a, %b : {ty}
  %s = arith.cmpf {pred}, %u, %v : vector<{n}x{ty}>
  return %r, %s : i1, vector<{n}xi1>""")
    eng = engine_for(src)
    dt = {"f32": np.float32, "f16": np.float16, "bf16": BF16, "f64": np.float64}[ty]
    us = np.array([p[0] for p in CMPF_PAIRS], dt)
    vs = np.array([p[1] for p in CMPF_PAIRS], dt)
    for a, b in CMPF_PAIRS:
        r, s = eng.run("main", [dt(a), dt(b), us, vs])
        assert r == int(cmpf_expected(pred, a, b)), (pred, a, b)
    assert same(s, np.array([cmpf_expected(pred, a, b) for a, b in CMPF_PAIRS]))


# ------------------------------------------------------------------------------------------ min / max / neg
def test_float_min_max_nan_and_zero_rules():
    ops = ["minimumf", "maximumf", "minnumf", "maxnumf"]
    body = "\n".join(f"  %{o} = arith.{o} %a, %b : f32" for o in ops)
    src = fn("%a: f32, %b: f32", ", ".join(["f32"] * 4), body + "\n  return " + ", ".join(f"%{o}" for o in ops)
             + " : " + ", ".join(["f32"] * 4))
    eng = engine_for(src)
    f = np.float32
    mn, mx, nmn, nmx = eng.run("main", [NAN32, f(1)])
    assert np.isnan(mn) and np.isnan(mx) and nmn == 1 and nmx == 1
    mn, mx, nmn, nmx = eng.run("main", [f(1), NAN32])
    assert np.isnan(mn) and np.isnan(mx) and nmn == 1 and nmx == 1
    mn, mx, nmn, nmx = eng.run("main", [NAN32, NAN32])
    assert all(np.isnan(v) for v in (mn, mx, nmn, nmx))
    for a, b in [(f(0.0), f(-0.0)), (f(-0.0), f(0.0))]:
        mn, mx, nmn, nmx = eng.run("main", [a, b])
        assert np.signbit(mn) and not np.signbit(mx) and np.signbit(nmn) and not np.signbit(nmx)
    mn, mx, nmn, nmx = eng.run("main", [f(-2), f(3)])
    assert (mn, mx, nmn, nmx) == (-2, 3, -2, 3)
    assert all(isinstance(v, np.float32) for v in (mn, mx, nmn, nmx))


def test_float_min_max_vectors():
    ops = ["minimumf", "maximumf", "minnumf", "maxnumf"]
    ty = "vector<4xbf16>"
    body = "\n".join(f"  %{o} = arith.{o} %a, %b : {ty}" for o in ops)
    src = fn(f"%a: {ty}, %b: {ty}", ", ".join([ty] * 4), body + "\n  return " + ", ".join(f"%{o}" for o in ops)
             + " : " + ", ".join([ty] * 4))
    a = np.array([np.nan, 1, 0.0, -5], BF16)
    b = np.array([2, np.nan, -0.0, 7], BF16)
    mn, mx, nmn, nmx = run(src, a, b)
    assert np.isnan(mn[0]) and np.isnan(mn[1]) and np.signbit(mn[2]) and mn[3] == -5
    assert np.isnan(mx[0]) and np.isnan(mx[1]) and not np.signbit(mx[2]) and mx[3] == 7
    assert nmn[0] == 2 and nmn[1] == 1 and np.signbit(nmn[2]) and nmn[3] == -5
    assert nmx[0] == 2 and nmx[1] == 1 and not np.signbit(nmx[2]) and nmx[3] == 7
    assert mn.dtype == BF16


def test_negf_flips_the_sign_bit_also_of_nan():
    src = fn("%a: f32, %v: vector<2xf16>, %h: bf16", "f32, vector<2xf16>, bf16", """  %r = arith.negf %a : f32
  %s = arith.negf %v : vector<2xf16>
  %t = arith.negf %h : bf16
  return %r, %s, %t : f32, vector<2xf16>, bf16""")
    r, s, t = run(src, np.array(0x7FC00001, np.uint32).view(np.float32)[()], np.array([0.0, np.nan], np.float16),
                  BF16(1.5))
    assert int(np.asarray(r).view(np.uint32)) == 0xFFC00001
    assert s.view(np.uint16).tolist() == [0x8000, 0xFE00]
    assert float(t) == -1.5


def test_remf_is_fmod():
    src = fn("%a: f32, %b: f32", "f32", "  %r = arith.remf %a, %b : f32\n  return %r : f32")
    assert run(src, np.float32(-7.5), np.float32(2)) == -1.5  # sign of the dividend
    assert run(src, np.float32(7.5), np.float32(-2)) == 1.5
    assert np.isnan(run(src, np.float32(1), np.float32(0)))
    assert np.signbit(run(src, np.float32(-4), np.float32(2)))  # -0


def test_float_arith_scalars_keep_the_exact_type():
    src = fn("%a: f16, %b: f16", "f16, f16", """  %s = arith.addf %a, %b : f16
  %d = arith.divf %a, %b : f16
  return %s, %d : f16, f16""")
    s, d = run(src, np.float16(65504), np.float16(0))
    assert isinstance(s, np.float16) and s == 65504 and np.isposinf(d)
    s, d = run(src, np.float16(0.1), np.float16(0.2))
    # 0.1 -> 0x2E66 = 0.0999755859375, 0.2 -> 0x3266 = 0.199951171875; sum 0.2999267578125 lies between
    # f16 0.2998046875 (0x34CC) and 0.30029296875 (0x34CD); the lower one is nearer.
    assert s.view(np.uint16) == 0x34CC
    assert d == np.float16(0.5)  # 0.0999755859375 / 0.199951171875 = exactly 0.5


# ------------------------------------------------------------------------------------------ select
def test_select_scalar_and_vector_condition():
    src = fn("%c: i1, %m: vector<3xi1>, %a: vector<3xf32>, %b: vector<3xf32>, %x: i32, %y: i32",
             "vector<3xf32>, vector<3xf32>, i32", """  %r = arith.select %c, %a, %b : vector<3xf32>
  %s = arith.select %m, %a, %b : vector<3xi1>, vector<3xf32>
  %t = arith.select %c, %x, %y : i32
  return %r, %s, %t : vector<3xf32>, vector<3xf32>, i32""")
    a = np.array([1, 2, 3], np.float32)
    b = np.array([4, 5, 6], np.float32)
    r, s, t = run(src, 0, np.array([True, False, True]), a, b, 7, 8)
    assert same(r, b) and same(s, np.array([1, 5, 3], np.float32)) and t == 8


# ------------------------------------------------------------------------------------------ constants
def test_constants():
    src = fn("", "i32, i8, i1, index, f32, f16, bf16, vector<4xf32>, vector<2x2xi1>, vector<3xi8>, f32, vector<2xi32>", """
  %a = arith.constant 42 : i32
  %b = arith.constant 255 : i8
  %c = arith.constant true
  %d = arith.constant -1 : index
  %e = arith.constant 0.1 : f32
  %f = arith.constant 0.1 : f16
  %g = arith.constant 0.1 : bf16
  %h = arith.constant dense<1.5> : vector<4xf32>
  %i = arith.constant dense<[[true, false], [false, true]]> : vector<2x2xi1>
  %j = arith.constant dense<[1, -2, 127]> : vector<3xi8>
  %k = arith.constant 0x7FC00001 : f32
  %l = arith.constant dense<"0x0100000002000000"> : vector<2xi32>
  return %a, %b, %c, %d, %e, %f, %g, %h, %i, %j, %k, %l : i32, i8, i1, index, f32, f16, bf16, vector<4xf32>, vector<2x2xi1>, vector<3xi8>, f32, vector<2xi32>""")
    a, b, c, d, e, f, g, h, i, j, k, l = run(src)
    assert (a, b, c, d) == (42, -1, 1, -1)
    assert bits32(e) == 0x3DCCCCCD and isinstance(e, np.float32)
    assert np.asarray(f).view(np.uint16) == 0x2E66 and isinstance(f, np.float16)
    assert np.asarray(g).view(np.uint16) == 0x3DCD  # 0.1 = 0x3DCCCCCD in f32 -> bf16 rounds up
    assert same(h, np.full(4, 1.5, np.float32))
    assert same(i, np.array([[True, False], [False, True]]))
    assert same(j, np.array([1, -2, 127], np.int8))
    assert int(np.asarray(k).view(np.uint32)) == 0x7FC00001
    assert same(l, np.array([1, 2], np.int32))


# ------------------------------------------------------------------------------------------ casts
def test_integer_casts():
    src = fn("%a: i8, %b: i1, %c: i64, %i: index, %v: vector<2xi8>",
             "i32, i32, i32, i32, i8, index, index, i32, i64, vector<2xi32>, vector<2xi32>, vector<2xindex>", """
  %s = arith.extsi %a : i8 to i32
  %u = arith.extui %a : i8 to i32
  %bs = arith.extsi %b : i1 to i32
  %bu = arith.extui %b : i1 to i32
  %t = arith.trunci %c : i64 to i8
  %ic = arith.index_cast %a : i8 to index
  %iu = arith.index_castui %a : i8 to index
  %it = arith.index_cast %i : index to i32
  %iu64 = arith.index_castui %i : index to i64
  %vs = arith.extsi %v : vector<2xi8> to vector<2xi32>
  %vu = arith.extui %v : vector<2xi8> to vector<2xi32>
  %vi = arith.index_castui %v : vector<2xi8> to vector<2xindex>
  return %s, %u, %bs, %bu, %t, %ic, %iu, %it, %iu64, %vs, %vu, %vi : i32, i32, i32, i32, i8, index, index, i32, i64, vector<2xi32>, vector<2xi32>, vector<2xindex>""")
    res = run(src, -2, 1, 0x1234_5678_9ABC_DEF0, -(2**40) - 5, np.array([-1, 5], np.int8))
    s, u, bs, bu, t, ic, iu, it, iu64, vs, vu, vi = res
    assert (s, u, bs, bu) == (-2, 254, -1, 1)
    assert t == -16  # low byte 0xf0
    assert (ic, iu) == (-2, 254)
    assert it == -5  # -(2^40) - 5 truncated to 32 bits: low word of 0xfffffeff_fffffffb is 0xfffffffb
    assert iu64 == -(2**40) - 5
    assert same(vs, np.array([-1, 5], np.int32)) and same(vu, np.array([255, 5], np.int32))
    assert same(vi, np.array([255, 5], np.int64))


def test_bitcast():
    src = fn("%f: f32, %i: i16, %v: vector<2xf16>, %w: vector<2xi32>", "i32, bf16, vector<2xi16>, vector<2xf32>", """
  %a = arith.bitcast %f : f32 to i32
  %b = arith.bitcast %i : i16 to bf16
  %c = arith.bitcast %v : vector<2xf16> to vector<2xi16>
  %d = arith.bitcast %w : vector<2xi32> to vector<2xf32>
  return %a, %b, %c, %d : i32, bf16, vector<2xi16>, vector<2xf32>""")
    a, b, c, d = run(src, np.float32(-1.0), 0x3FC0, np.array([1.0, -2.0], np.float16),
                     np.array([0x3F800000, -0x3F800000], np.int32))
    assert a == -0x40800000  # 0xbf800000 as a signed i32
    assert float(b) == 1.5 and isinstance(b, BF16)
    assert same(c, np.array([0x3C00, -0x4000], np.int16))  # 0xc000
    assert same(d, np.array([1.0, -4.0], np.float32))  # -0x3f800000 = 0xc0800000 = -4.0


def test_index_dialect_ops():
    src = fn("%a: index, %b: index, %c: i32",
             "index, index, index, index, index, index, i1, index, i32, index, index", """  %k = index.constant 42
  %t = index.bool.constant true
  %s = index.add %a, %b
  %m = index.mul %a, %b
  %d = index.floordivs %a, %k
  %r = index.remu %a, %k
  %z = index.sizeof
  %z2 = index.constant 60
  %sh = index.shru %a, %z2
  %cs = index.casts %c : i32 to index
  %cu = index.castu %c : i32 to index
  %bt = index.casts %a : index to i32
  return %k, %s, %m, %d, %r, %z, %t, %sh, %bt, %cs, %cu : index, index, index, index, index, index, i1, index, i32, index, index""")
    k, s, m, d, r, z, t, sh, bt, cs, cu = run(src, -1, 2**63 - 1, -5)
    assert k == 42 and t == 1 and z == 64
    assert s == 2**63 - 2  # -1 + (2^63 - 1)
    assert m == -(2**63 - 1)  # -1 * (2^63 - 1)
    assert d == -1  # floor(-1 / 42)
    assert r == (2**64 - 1) % 42  # unsigned remainder
    assert sh == 15  # 0xffff_ffff_ffff_ffff >> 60
    assert bt == -1 and cs == -5 and cu == 2**32 - 5


# ------------------------------------------------------------------------------------------ affine
def test_affine_apply_min_max():
    src = fn("%i: index, %j: index", "index, index, index, index, index", """
  %a = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0)>(%i)[%j]
  %b = affine.apply affine_map<(d0) -> (d0 floordiv 8)>(%i)
  %c = affine.apply affine_map<(d0) -> (d0 ceildiv 8)>(%i)
  %d = affine.min affine_map<(d0)[s0] -> (16, s0 - d0)>(%i)[%j]
  %e = affine.max affine_map<(d0, d1) -> (0, d0 mod 4 - d1)>(%i, %j)
  return %a, %b, %c, %d, %e : index, index, index, index, index""")
    assert run(src, -9, 100) == (-44, -2, -1, 16, 0)  # -144+100; floor(-9/8); ceil(-9/8); min(16,109); -9 mod 4 = 3
    assert run(src, 7, 10) == (122, 0, 1, 3, 0)
    assert run(src, 2**62, 0) == (0, 2**59, 2**59, -(2**62), 0)  # 2^66 wraps to 0


# ------------------------------------------------------------------------------------------ math
def test_math_float_functions_f32():
    ops = ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "tanh", "sin", "cos", "erf", "floor", "ceil", "absf",
           "round", "trunc", "log1p", "expm1", "roundeven"]
    body = "\n".join(f"  %{o} = math.{o} %x : f32" for o in ops)
    src = fn("%x: f32", ", ".join(["f32"] * len(ops)),
             body + "\n  return " + ", ".join(f"%{o}" for o in ops) + " : " + ", ".join(["f32"] * len(ops)))
    eng = engine_for(src)
    ref = {"exp": math.exp, "exp2": lambda v: 2.0**v, "log": math.log, "log2": math.log2, "sqrt": math.sqrt,
           "rsqrt": lambda v: 1 / math.sqrt(v), "tanh": math.tanh, "sin": math.sin, "cos": math.cos, "erf": math.erf,
           "floor": math.floor, "ceil": math.ceil, "absf": abs, "round": lambda v: math.copysign(math.floor(abs(v) + 0.5), v),
           "trunc": math.trunc, "log1p": math.log1p, "expm1": math.expm1, "roundeven": round}
    for x in [0.5, 2.5, 1.75, 3.0, 0.1]:
        res = eng.run("main", [np.float32(x)])
        xf = float(np.float32(x))
        for o, r in zip(ops, res):
            assert isinstance(r, np.float32), o
            exp = np.float32(float(ref[o](xf)))
            assert r == exp, (o, x, r, exp)
    # special values
    res = eng.run("main", [np.float32(-0.0)])
    d = dict(zip(ops, res))
    assert np.signbit(d["sqrt"]) and np.isneginf(d["log"]) and np.isneginf(d["rsqrt"]) and not np.signbit(d["absf"])
    assert np.signbit(d["floor"]) and np.signbit(d["round"]) and d["exp"] == 1
    res = dict(zip(ops, eng.run("main", [np.float32(-1.0)])))
    assert np.isnan(res["sqrt"]) and np.isnan(res["log"]) and res["round"] == -1
    res = dict(zip(ops, eng.run("main", [np.float32(-2.5)])))
    assert res["round"] == -3 and res["roundeven"] == -2 and res["trunc"] == -2 and res["floor"] == -3


def test_math_sqrt_bf16_vector_correctly_rounded():
    src = fn("%v: vector<4xbf16>", "vector<4xbf16>", "  %r = math.sqrt %v : vector<4xbf16>\n  return %r : vector<4xbf16>")
    xs = np.array([2.0, 3.0, 10.0, 1e-30], BF16)
    r = run(src, xs)
    assert r.dtype == BF16
    for x, got in zip(xs, r):
        v = Fraction(float(x))
        g = Fraction(float(got))
        # correctly rounded: g^2 is nearer to v than both neighbours' squares (checked via midpoints)
        ulp = Fraction(2) ** (math.frexp(float(got))[1] - 8)
        lo, hi = g - ulp / 2, g + ulp / 2
        assert lo * lo <= v <= hi * hi, (float(x), float(got))


def test_math_absf_copysign_nan_sign():
    src = fn("%a: f32, %b: f32", "f32, f32", """  %r = math.absf %a : f32
  %c = math.copysign %b, %a : f32
  return %r, %c : f32, f32""")
    r, c = run(src, np.array(0xFFC00000, np.uint32).view(np.float32)[()], np.float32(3))
    assert int(np.asarray(r).view(np.uint32)) == 0x7FC00000 and c == -3


def test_math_powf_fma_fpowi():
    src = fn("%a: f32, %b: f32, %c: f32, %n: i32", "f32, f32, f32, f32", """  %p = math.powf %a, %b : f32
  %f = math.fma %a, %b, %c : f32
  %i = math.fpowi %a, %n : f32, i32
  %t = math.atan2 %a, %b : f32
  return %p, %f, %i, %t : f32, f32, f32, f32""")
    p, f, i, t = run(src, np.float32(-2), np.float32(3), np.float32(0.5), -3)
    assert p == -8 and f == -5.5 and i == -0.125 and t == np.float32(math.atan2(-2, 3))


@pytest.mark.parametrize(
    "op,ty,a,expected",
    [
        ("absi", "i8", -128, -128), ("absi", "i32", -5, 5),
        ("ctlz", "i32", 1, 31), ("ctlz", "i32", 0, 32), ("ctlz", "i8", -1, 0),
        ("cttz", "i16", 8, 3), ("cttz", "i16", 0, 16), ("cttz", "i8", -128, 7),
        ("ctpop", "i32", -1, 32), ("ctpop", "i8", 0x55, 4),
    ],
)
def test_math_integer_unary(op, ty, a, expected):
    src = fn(f"%a: {ty}", ty, f"  %r = math.{op} %a : {ty}\n  return %r : {ty}")
    assert run(src, a) == expected


def test_math_ipowi_and_classification():
    src = fn("%a: i32, %b: i32, %x: f16, %v: vector<3xi8>, %w: vector<3xi8>", "i32, i1, i1, i1, i1, vector<3xi8>", """
  %p = math.ipowi %a, %b : i32
  %n = math.isnan %x : f16
  %i = math.isinf %x : f16
  %f = math.isfinite %x : f16
  %m = math.isnormal %x : f16
  %q = math.ipowi %v, %w : vector<3xi8>
  return %p, %n, %i, %f, %m, %q : i32, i1, i1, i1, i1, vector<3xi8>""")
    v = np.array([2, -1, 3], np.int8)
    w = np.array([7, -3, 5], np.int8)
    p, n, i, f, m, q = run(src, 3, 21, np.float16(6e-5), v, w)
    assert p == 1870418611  # 3^21 = 10460353203 = 2 * 2^32 + 1870418611
    assert (n, i, f, m) == (0, 0, 1, 0)  # 6e-5 is an f16 subnormal (< 2^-14 = 6.1035e-5)
    assert same(q, np.array([-128, -1, -13], np.int8))  # 128 -> -128; (-1)^-3 = -1; 243 -> -13
    assert "division by zero" in run_error(src, 0, -1, np.float16(0), v, w)


# ------------------------------------------------------------------------------------------ shapes
DTYPES = {"f32": np.float32, "bf16": BF16, "f16": np.float16, "f64": np.float64, "f8E4M3FN": ml_dtypes.float8_e4m3fn,
          "f8E5M2": ml_dtypes.float8_e5m2, "i32": np.int32, "i16": np.int16, "i8": np.int8, "i64": np.int64,
          "index": np.int64, "i1": np.bool_}


@pytest.mark.parametrize("shape", [(), (2, 3), (1, 2, 2)])
@pytest.mark.parametrize(
    "body,et,expected",
    [
        ("arith.addf %a, %a", "f32", 2.0), ("arith.mulf %a, %a", "bf16", 1.0), ("arith.divf %a, %a", "f16", 1.0),
        ("arith.remf %a, %a", "f32", 0.0), ("arith.negf %a", "f8E4M3FN", -1.0), ("arith.addf %a, %a", "f8E5M2", 2.0),
        ("arith.maximumf %a, %a", "f32", 1.0), ("math.exp %a", "f64", math.exp(1)), ("math.absf %a", "f16", 1.0),
        ("math.fma %a, %a, %a", "f32", 2.0), ("arith.addi %a, %a", "i32", 2), ("arith.divsi %a, %a", "i16", 1),
        ("arith.shli %a, %a", "i8", 2), ("arith.maxui %a, %a", "i64", 1), ("math.ctpop %a", "i32", 1),
        ("arith.addi %a, %a", "index", 2), ("arith.muli %a, %a", "i1", True),
    ],
)
def test_elementwise_ops_on_any_vector_shape(shape, body, et, expected):
    ty = "vector<" + "".join(f"{d}x" for d in shape) + f"{et}>"
    src = fn(f"%a: {ty}", ty, f"  %r = {body} : {ty}\n  return %r : {ty}")
    r = run(src, np.ones(shape, DTYPES[et]))
    assert isinstance(r, np.ndarray) and r.shape == shape and r.dtype == np.dtype(DTYPES[et])
    assert np.all(r.astype(np.float64) == float(expected))


@pytest.mark.parametrize("shape", [(), (2, 3)])
@pytest.mark.parametrize(
    "body,src_t,dst_t,expected",
    [
        ("arith.truncf %a : {S} to {D}", "f32", "bf16", 1.0), ("arith.truncf %a upward : {S} to {D}", "f64", "f16", 1.0),
        ("arith.extf %a : {S} to {D}", "bf16", "f32", 1.0), ("arith.sitofp %a : {S} to {D}", "i64", "bf16", 1.0),
        ("arith.fptoui %a : {S} to {D}", "f32", "i8", 1), ("arith.extsi %a : {S} to {D}", "i1", "i32", -1),
        ("arith.index_cast %a : {S} to {D}", "i32", "index", 1), ("arith.bitcast %a : {S} to {D}", "f16", "i16", 0x3C00),
        ("arith.cmpf ult, %a, %a : {S}", "f32", "i1", False), ("arith.cmpi ule, %a, %a : {S}", "i32", "i1", True),
        ("math.isnan %a : {S}", "bf16", "i1", False),
    ],
)
def test_casts_and_compares_on_any_vector_shape(shape, body, src_t, dst_t, expected):
    dims = "".join(f"{d}x" for d in shape)
    S, D = f"vector<{dims}{src_t}>", f"vector<{dims}{dst_t}>"
    src = fn(f"%a: {S}", D, f"  %r = {body.format(S=S, D=D)}\n  return %r : {D}")
    r = run(src, np.ones(shape, DTYPES[src_t]))
    assert isinstance(r, np.ndarray) and r.shape == shape and r.dtype == np.dtype(DTYPES[dst_t])
    assert np.all(r.astype(np.float64) == float(expected))


def test_unsupported_element_types_are_located_errors():
    src = fn("%a: vector<2xi128>", "vector<2xi128>",
             "  %r = arith.addi %a, %a : vector<2xi128>\n  return %r : vector<2xi128>")
    msg = run_error(src, np.zeros(2, np.int64))
    assert "t.mlir:2:" in msg and "'arith.addi' op" in msg and "i128" in msg
    # scalars of any width work with Python integers
    src = fn("%a: i128", "i128", "  %r = arith.muli %a, %a : i128\n  return %r : i128")
    assert run(src, 2**64 + 1) == (2**128 + 2**65 + 1) % 2**128  # 2^65 + 1


@pytest.mark.parametrize("src,dst", [("f32", "f16"), ("f32", "bf16"), ("f64", "f16"), ("f64", "bf16"), ("f64", "f32")])
def test_vector_truncf_gives_the_scalar_rules_bits_nans_included(src: str, dst: str) -> None:
    """A vector truncf equals the scalar truncf element by element, bit for bit (xesim/numerics/scalar_rules.py: one
    RNE rounding; a NaN keeps its sign and top payload bits and is quieted), for signalling and quiet NaNs with
    payloads, infinities, overflow, ties and subnormal results (numpy keeps an f32->f16 NaN signalling and ml_dtypes
    drops a bf16 NaN's payload: the vector path must not)."""
    if src == "f32":
        bits = [0x7F800001, 0x7FA00000, 0xFFC00001, 0x7FC12345, 0x7F812000, 0x7F800000, 0x477FF000, 0x477FEFFF,
                0x38800000, 0x33800000, 0x3F801000, 0x3F803000, 0x80000001, 0x7F7FFFFF]
        vals = np.array(bits, np.uint32).view(np.float32)
    else:
        bits = [0x7FF0000000000001, 0x7FF4000000000000, 0xFFF8000000000001, 0x7FF8123456789ABC, 0xFFF0000000000000,
                0x40EFFE0000000000, 0x3F10000000000000, 0x3FF0020000000000, 0x47EFFFFFE0000000, 0x36A0000000000000,
                0x0000000000000001]
        vals = np.array(bits, np.uint64).view(np.float64)
    n = len(vals)
    vec = run(fn(f"%a: vector<{n}x{src}>", f"vector<{n}x{dst}>",
                 f"  %r = arith.truncf %a : vector<{n}x{src}> to vector<{n}x{dst}>\n  return %r : vector<{n}x{dst}>"),
              vals)
    scalar_src = fn(f"%a: {src}", dst, f"  %r = arith.truncf %a : {src} to {dst}\n  return %r : {dst}")
    ut = np.uint32 if dst == "f32" else np.uint16
    one = [np.asarray(run(scalar_src, x)).reshape(1).view(ut)[0] for x in vals]
    assert [hex(int(b)) for b in np.asarray(vec).view(ut)] == [hex(int(b)) for b in one]
