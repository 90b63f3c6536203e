"""IEEE arithmetic of arith.addf/subf/mulf/divf, math.sqrt/fma and arith.remf on f16/bf16/f32 (scalar and
vector paths of the interpreter) against exact rational arithmetic.

The reference computes the exact result with ``fractions.Fraction`` and rounds it once (round to nearest
even) with the hand-written reference rounder of ``test_conversions.py``; special values follow IEEE
754-2019 §6-7 (NaN propagation, infinity arithmetic, invalid operations, signs of zero).  Operands are
random bit patterns, so NaNs, infinities, signed zeros and subnormals occur.
"""

from __future__ import annotations

import io
import math
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from test_conversions import FMT, decode, of_bits, ref_round  # noqa: E402

from xesim.api import make_engine  # noqa: E402
from xesim.ir.parser import parse_source  # noqa: E402
from xesim.verify.structural import verify_module  # noqa: E402

TYPES = {"f16": 16, "bf16": 16, "f32": 32}
OPS = ["addf", "subf", "mulf", "divf"]
N = 8  # vector length


def _src(t: str) -> str:
    body = []
    rets = []
    for op in OPS:
        body.append(f"  %s_{op} = arith.{op} %x, %y : {t}")
        body.append(f"  %v_{op} = arith.{op} %u, %w : vector<{N}x{t}>")
        rets += [f"%s_{op}", f"%v_{op}"]
    types = ", ".join([t, f"vector<{N}x{t}>"] * len(OPS))
    body.append(f"  %r = math.sqrt %x : {t}")
    body.append(f"  %rv = math.sqrt %u : vector<{N}x{t}>")
    body.append(f"  %m = arith.remf %x, %y : {t}")
    body.append(f"  %fm = math.fma %x, %y, %z : {t}")
    body.append(f"  %fv = math.fma %u, %w, %u : vector<{N}x{t}>")
    rets += ["%r", "%rv", "%m", "%fm", "%fv"]
    types += f", {t}, vector<{N}x{t}>, {t}, {t}, vector<{N}x{t}>"
    return (f"func.func @f(%x: {t}, %y: {t}, %z: {t}, %u: vector<{N}x{t}>, %w: vector<{N}x{t}>) -> ({types}) {{\n"
            + "\n".join(body) + f"\n  return {', '.join(rets)} : {types}\n}}\n")


@pytest.fixture(scope="module")
def engines():
    out = {}
    for t in TYPES:
        m = parse_source(_src(t), f"{t}.mlir")
        verify_module(m)
        out[t] = make_engine(m, out=io.StringIO())
    return out


# --------------------------------------------------------------------------- reference


def ref_binop(op: str, x, y, t: str) -> tuple:
    dx, dy = decode(x), decode(y)
    if dx[0] == "nan" or dy[0] == "nan":
        return ("nan",)
    inf_x, inf_y = dx[0] == "inf", dy[0] == "inf"
    nx = dx[1] if inf_x else dx[2]
    ny = dy[1] if inf_y else dy[2]
    if op == "subf":
        op, ny = "addf", not ny
        if not inf_y:
            dy = ("fin", -dy[1], ny)
    if op == "addf":
        if inf_x and inf_y:
            return ("nan",) if nx != ny else ("inf", nx)
        if inf_x or inf_y:
            return ("inf", nx if inf_x else ny)
        s = dx[1] + dy[1]
        if s == 0:
            neg = nx and ny if (dx[1] == 0 and dy[1] == 0) else False
            return ("fin", Fraction(0), neg)
        return ref_round(s, t, "to_nearest_even")
    neg = nx != ny
    if op == "mulf":
        if inf_x or inf_y:
            zero = (not inf_x and dx[1] == 0) or (not inf_y and dy[1] == 0)
            return ("nan",) if zero else ("inf", neg)
        return ref_round(dx[1] * dy[1], t, "to_nearest_even", neg)
    # divf
    if inf_x and inf_y:
        return ("nan",)
    if inf_x:
        return ("inf", neg)
    if inf_y:
        return ("fin", Fraction(0), neg)
    if dy[1] == 0:
        return ("nan",) if dx[1] == 0 else ("inf", neg)
    return ref_round(dx[1] / dy[1], t, "to_nearest_even", neg)


def ref_sqrt(x, t: str) -> tuple:
    d = decode(x)
    if d[0] == "nan":
        return ("nan",)
    if d[0] == "inf":
        return ("nan",) if d[1] else ("inf", False)
    v = d[1]
    if v == 0:
        return ("fin", Fraction(0), d[2])  # sqrt(-0) = -0
    if v < 0:
        return ("nan",)
    # exact rounding of sqrt(v): find the correctly rounded value by bracketing with exact squares
    p, emin, _, _, _, _ = FMT[t]
    approx = Fraction(math.sqrt(float(v)))
    E = math.frexp(float(approx))[1] - 1
    q = Fraction(2) ** (max(E, emin) - (p - 1))
    n = (approx / q).__floor__()
    # adjust n so that (n q)^2 <= v < ((n+1) q)^2
    while (n * q) ** 2 > v:
        n -= 1
    while ((n + 1) * q) ** 2 <= v:
        n += 1
    mid = (n + Fraction(1, 2)) * q  # sqrt(v) is never exactly a midpoint of a p-bit format
    r = (n + 1) * q if mid * mid < v else n * q
    return ref_round(r, t, "to_nearest_even")


def ref_fma(a, b, c, t: str) -> tuple:
    da, db, dc = decode(a), decode(b), decode(c)
    if "nan" in (da[0], db[0], dc[0]):
        return ("nan",)
    prod = ref_binop("mulf", np.float64(a), np.float64(b), "f64")  # only used for the special cases
    if da[0] == "inf" or db[0] == "inf":
        if prod[0] == "nan":
            return ("nan",)
        if dc[0] == "inf" and dc[1] != prod[1]:
            return ("nan",)
        return ("inf", prod[1])
    if dc[0] == "inf":
        return ("inf", dc[1])
    exact = da[1] * db[1] + dc[1]
    if exact == 0:
        pneg = da[2] != db[2]
        return ("fin", Fraction(0), pneg and dc[2] if da[1] * db[1] == 0 else False)
    return ref_round(exact, t, "to_nearest_even")


def ref_fmod(x, y) -> tuple:
    dx, dy = decode(x), decode(y)
    if dx[0] == "nan" or dy[0] == "nan" or dx[0] == "inf" or (dy[0] == "fin" and dy[1] == 0):
        return ("nan",)
    if dy[0] == "inf":
        return dx
    a, b = dx[1], dy[1]
    q = abs(a) / abs(b)
    r = abs(a) - q.__floor__() * abs(b)
    return ("fin", -r if dx[2] else r, dx[2])


def same(got, ref: tuple) -> bool:
    return decode(got) == ref


bits_for = {t: st.integers(0, 2 ** TYPES[t] - 1) for t in TYPES}
DT = {t: FMT[t][5] for t in TYPES}


def _check_all(eng, t, xb, yb, zb, ub, wb):
    x, y, z = (of_bits([b], DT[t])[0] for b in (xb, yb, zb))
    u, w = of_bits(ub, DT[t]), of_bits(wb, DT[t])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = eng.run("f", [x, y, z, u, w])
    for k, op in enumerate(OPS):
        s, v = res[2 * k], res[2 * k + 1]
        assert s.dtype == np.dtype(DT[t]) and v.dtype == np.dtype(DT[t]) and v.shape == (N,)
        assert same(s, ref_binop(op, x, y, t)), (op, t, float(x), float(y), float(s))
        for i in range(N):
            assert same(v[i], ref_binop(op, u[i], w[i], t)), (op, t, float(u[i]), float(w[i]), float(v[i]))
    r, rv, m, fm, fv = res[2 * len(OPS):]
    assert same(r, ref_sqrt(x, t)), ("sqrt", float(x), float(r))
    for i in range(N):
        assert same(rv[i], ref_sqrt(u[i], t)), ("sqrt", float(u[i]), float(rv[i]))
        assert same(fv[i], ref_fma(u[i], w[i], u[i], t)), ("fma", float(u[i]), float(w[i]), float(fv[i]))
    assert same(m, ref_fmod(x, y)), ("remf", float(x), float(y), float(m))
    assert same(fm, ref_fma(x, y, z, t)), ("fma", float(x), float(y), float(z), float(fm))


@pytest.mark.parametrize("t", list(TYPES))
def test_arith_props(engines, t):
    @settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(bits_for[t], bits_for[t], bits_for[t], st.lists(bits_for[t], min_size=N, max_size=N),
           st.lists(bits_for[t], min_size=N, max_size=N))
    def check(xb, yb, zb, ub, wb):
        _check_all(engines[t], t, xb, yb, zb, ub, wb)

    check()


# Hand-picked operand pairs: overflow, underflow to subnormals, exact cancellation, signed zeros,
# infinities and NaN, and values whose f32 intermediate sits exactly on an f16/bf16 midpoint.
SPECIAL = {
    "f16": [0x7BFF, 0x7BFF, 0x0001, 0x8001, 0x8000, 0x0000, 0x7C00, 0xFC00, 0x7E00, 0x3C01, 0x1400, 0x3C00, 0x0400,
            0x03FF],
    "bf16": [0x7F7F, 0x7F7F, 0x0001, 0x8001, 0x8000, 0x0000, 0x7F80, 0xFF80, 0x7FC0, 0x3F81, 0x3B80, 0x3F80, 0x0080,
             0x007F],
    "f32": [0x7F7FFFFF, 0x7F7FFFFF, 0x00000001, 0x80000001, 0x80000000, 0, 0x7F800000, 0xFF800000, 0x7FC00000,
            0x3F800001, 0x33800000, 0x3F800000, 0x00800000, 0x007FFFFF],
}


@pytest.mark.parametrize("t", list(TYPES))
def test_arith_special_pairs(engines, t):
    vals = SPECIAL[t]
    for xb in vals:
        for yb in vals:
            _check_all(engines[t], t, xb, yb, vals[-1], [xb] * N, [yb] * N)


def test_hand_derived_products(engines):
    # (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: the 2^-46 term is below half an f32 ulp -> 1 + 2^-22.
    x = np.float32(1 + 2**-23)
    res = engines["f32"].run("f", [x, x, x, np.full(N, x), np.full(N, x)])
    assert float(res[4]) == 1 + 2**-22 and float(res[5][0]) == 1 + 2**-22
    # fma keeps it: (1 + 2^-23)^2 - (1 + 2^-22) = 2^-46 exactly.
    res = engines["f32"].run("f", [x, x, np.float32(-(1 + 2**-22)), np.full(N, x), np.full(N, x)])
    assert float(res[-2]) == 2.0**-46
    # bf16: 1.0078125 * 1.0078125 = 1.01568603515625 -> nearest bf16 values 1.015625 / 1.0234375 -> 1.015625
    b = FMT["bf16"][5](1.0078125)
    res = engines["bf16"].run("f", [b, b, b, np.full(N, b), np.full(N, b)])
    assert float(res[4]) == 1.015625


@pytest.mark.parametrize("t, a, c, expected", [
    # a * a is an exact midpoint of the type; a tiny c decides the direction (hand-derived):
    # bf16: 17 * 17 = 289, between 288 and 290 (tie -> 288); + 2^-100 -> 290, - 2^-100 -> 288
    ("bf16", 17.0, 2.0**-100, 290.0),
    ("bf16", 17.0, -(2.0**-100), 288.0),
    # f32: 4097^2 = 2^24 + 2^13 + 1, between 2^24 + 2^13 and 2^24 + 2^13 + 2 (tie -> even, the lower)
    ("f32", 4097.0, 2.0**-100, 2.0**24 + 2.0**13 + 2),
    ("f32", 4097.0, -(2.0**-100), 2.0**24 + 2.0**13),
    ("f32", 4097.0, 0.0, 2.0**24 + 2.0**13),
])
def test_fma_single_rounding(engines, t, a, c, expected):
    dt = DT[t]
    x, z = dt(a), dt(c)
    res = engines[t].run("f", [x, x, z, np.full(N, x), np.full(N, x)])
    assert float(res[-2]) == expected


F64_FMA = """
func.func @f(%a: f64, %b: f64, %c: f64, %v: vector<3xf64>) -> (f64, vector<3xf64>) {
  %r = math.fma %a, %b, %c : f64
  %w = math.fma %v, %v, %v : vector<3xf64>
  return %r, %w : f64, vector<3xf64>
}
"""


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=3, max_size=3), st.lists(st.integers(0, 2**64 - 1), min_size=3,
                                                                             max_size=3))
@example([int(np.float64(1 + 2**-30).view(np.uint64))] * 2 + [int(np.float64(-1).view(np.uint64))], [0, 0, 0])
def test_fma_f64(abc, vbits):
    m = parse_source(F64_FMA, "f64.mlir")
    verify_module(m)
    a, b, c = of_bits(abc, np.float64)
    v = of_bits(vbits, np.float64)
    r, w = make_engine(m, out=io.StringIO()).run("f", [a, b, c, v])
    assert same(r, ref_fma(a, b, c, "f64")), (float(a), float(b), float(c), float(r))
    for i in range(3):
        assert same(w[i], ref_fma(v[i], v[i], v[i], "f64"))
