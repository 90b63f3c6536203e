"""The scalar rules (xesim/numerics/scalar_rules.py): each rule gives identical results in CPython and under
numba, and the rules compute what MLIR / IEEE say.

* ``*_cpython_and_numba``: every primitive and rule evaluated by CPython (the interpreter's engine) and by a
  numba function calling it (``register_jitable``, as compiled loops do without inlining), and by the same
  function with the rules inlined by the specialiser (what compiled loop nests run), on edge cases of every
  width 1..64 (0, +-1, INT_MIN/INT_MAX and neighbours, wide random patterns) and every float class (NaN
  payloads of both signs, signalling NaNs, infinities, subnormals, -0, rounding ties), plus hypothesis examples.
* ``*_oracle``: the CPython results against independent computations -- Python integer arithmetic, numpy /
  ml_dtypes IEEE arithmetic, the array implementations of xesim/numerics/conversions.py, exact fractions.
* the interpreter's specialised code (specialize.py) against calling the rules, and the F16C instructions
  against the f16 rules (all 2^16 halves; every binary32 significand of every binary32 exponent that matters).
"""

from __future__ import annotations

import math
import os
import struct
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xesim.numerics import conversions as C  # noqa: N812 - short alias
from xesim.numerics import mathfuncs as M  # noqa: N812 - short alias
from xesim.numerics import scalar_rules as R  # noqa: N812 - short alias
from xesim.numerics.specialize import specialize

BF16 = ml_dtypes.bfloat16
M64 = (1 << 64) - 1


@pytest.fixture(scope="module", autouse=True)
def _cache_dir(tmp_path_factory):
    """numba drivers are cached like loop nests (content-addressed under $XESIM_CACHE_DIR/jit)."""
    old = os.environ.get("XESIM_CACHE_DIR")
    os.environ["XESIM_CACHE_DIR"] = os.environ.get("XESIM_TEST_CACHE_DIR") or str(
        tmp_path_factory.getbasetemp() / "xesim-cache")
    yield
    if old is None:
        os.environ.pop("XESIM_CACHE_DIR", None)
    else:
        os.environ["XESIM_CACHE_DIR"] = old


# ------------------------------------------------------------------------------------------------ harness
_DRIVERS: dict[tuple[str, int, bool], object] = {}


def numba_driver(expr: str, nargs: int, inline: bool = False):
    """A numba function ``nest(out, a0, .., an)`` storing ``expr`` (over ``a0[i]`` ...) into ``out[i]``: the
    rules are called (numba compiles them, ``inline=False``) or inlined by the specialiser (``inline=True``)."""
    from xesim.exec.jit import codegen, runner

    key = (expr, nargs, inline)
    d = _DRIVERS.get(key)
    if d is None:
        args = ", ".join(f"a{i}" for i in range(nargs))
        e = expr.format(*[f"a{i}[i]" for i in range(nargs)])
        body = f"def nest(out, {args}):\n    for i in range(out.shape[0]):\n        out[i] = {e}\n"
        if inline:
            body = codegen.inline_rules(body)
        d = _DRIVERS[key] = runner.load_dispatcher(body)
    return d


def as_bits(v, out: str = "i") -> int:
    """A rule result as an integer: ``out`` ``f32``/``f64`` give the binary32/binary64 bit pattern of a float
    result (whatever Python type holds it), ``i`` an int or bool as an int."""
    if out == "f32":
        return R.f32_bits(v)
    if out == "f64":
        return R.f64_bits(float(v))
    return int(v)


def out_expr(expr: str, out: str) -> str:
    return {"i": "np.int64({})", "f32": "f32_bits({})", "f64": "f64_bits({})"}[out].format(expr)


def both_engines(expr: str, rows: list[tuple], kinds: str, out: str = "i", numba_expr: str | None = None) -> None:
    """``expr`` (``{0}``, ``{1}`` ... for the arguments) evaluated per row by CPython on Python values and by
    numba on arrays (``kinds``: one letter per argument -- ``i`` int64, ``s`` binary32 given as its bits, ``d``
    binary64 given as a float); the results must be identical bit for bit, with and without inlining.
    ``numba_expr`` replaces ``expr`` for numba where the engines represent values differently (an f16 operand
    widened by float() in the interpreter, by f16_to_f32 in compiled code)."""
    ns = dict(vars(R))
    ns["np"] = np
    fn = eval("lambda " + ", ".join(f"x{i}" for i in range(len(kinds))) + ": "  # noqa: S307 - test code
              + expr.format(*[f"x{i}" for i in range(len(kinds))]), ns)
    cols = []
    py_rows = []
    for k, col in zip(kinds, zip(*rows)):
        if k == "i":
            cols.append(np.array(col, np.int64))
        elif k == "s":
            cols.append(np.array(col, np.uint32).view(np.float32))
        else:
            cols.append(np.array(col, np.float64))
    for row in rows:
        py_rows.append(tuple(float(np.uint32(v).view(np.float32)) if k == "s" else (float(v) if k == "d" else int(v))
                             for k, v in zip(kinds, row)))
    want = [as_bits(fn(*r), out) for r in py_rows]
    for inline in (False, True):
        got = np.zeros(len(rows), np.int64)
        numba_driver(out_expr(numba_expr or expr, out), len(kinds), inline)(got, *cols)
        for r, w, g in zip(rows, want, got.tolist()):
            if (w - g) % (1 << 64):
                raise AssertionError(f"{expr} on {r}: CPython {w:#x}, numba{' (inlined)' if inline else ''} "
                                     f"{g & M64:#x}")


def stored(v: int, w: int) -> int:
    """The signless stored form of ``v`` at width ``w`` (independent of the rules)."""
    v &= (1 << w) - 1
    if w > 1 and v >= 1 << (w - 1):
        v -= 1 << w
    return v


def sval(v: int, w: int) -> int:
    """Signed reading of a stored value."""
    return -v if w == 1 else v


def uval(v: int, w: int) -> int:
    return v & ((1 << w) - 1)


def int_edges(w: int) -> list[int]:
    raw = [0, 1, -1, 2, -2, 3, 5, 7, 31, 32, 33, 63, 64, 65, 100, -100, 1 << (w - 1), (1 << (w - 1)) - 1,
           (1 << (w - 1)) + 1, (1 << (w - 1)) - 2, 1 << (w // 2), (1 << w) - 3, 0x5555555555555555,
           -0x123456789ABCDEF1, 0x0F0F0F0F0F0F0F0F]
    return sorted({stored(v, w) for v in raw})


WIDTHS = list(range(1, 65))
PAIR_WIDTHS = [1, 2, 3, 7, 8, 15, 16, 17, 24, 31, 32, 33, 47, 52, 53, 54, 61, 62, 63, 64]


def pair_rows(widths=PAIR_WIDTHS) -> list[tuple[int, int, int]]:
    rows = []
    for w in widths:
        e = int_edges(w)
        rows += [(x, y, w) for x in e for y in e]
    return rows


stored_ints = st.integers(1, 64).flatmap(
    lambda w: st.tuples(st.integers(-(1 << 63), (1 << 63) - 1).map(lambda v: stored(v, w)),
                        st.integers(-(1 << 63), (1 << 63) - 1).map(lambda v: stored(v, w)) | st.sampled_from(int_edges(w)),
                        st.just(w)))


# ------------------------------------------------------------------------------------------------ float inputs
def f32_patterns() -> list[int]:
    """binary32 patterns: zeros, ones, ties for bf16/f16 rounding, extremes, subnormals, NaNs of both kinds."""
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, 3.0, -2.5, 1e-45, -1e-45, 1e-40, 3.4028235e38, -3.4028235e38,
            1.1754944e-38, 65504.0, 65520.0, 65519.996, 6.1035156e-05, 5.9604645e-08, 2.9802322e-08,
            1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, 1 + 2.0 ** -9 + 2.0 ** -20,
            2.0 ** 31, -(2.0 ** 31), 2.0 ** 63, 2.0 ** 64, 1e19, 255.5, 4097.0, 0.1, 1 / 3]
    pats = [int(np.float32(v).view(np.uint32)) for v in vals]
    pats += [0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FA00000, 0x7FBFFFFF,
             0x7FC00001, 0xFFFFFFFF, 0x00000001, 0x807FFFFF, 0x00400000, 0x7F7FFFFF, 0x477FF000, 0x477FEFFF,
             0x38800000, 0x387FE000, 0x33800000, 0x33000000, 0x33000001, 0x3F808000, 0x3F818000, 0x3F808001]
    rng = np.random.default_rng(25)
    pats += rng.integers(0, 1 << 32, 60).tolist()
    return sorted(set(pats))


def f64_values() -> list[float]:
    pats = [0, 1 << 63, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000,
            0x7FF0000000000001, 0x7FF4000000000000, 0xFFF0000000000123, 1, 0x000FFFFFFFFFFFFF, 0x0010000000000000,
            0x7FEFFFFFFFFFFFFF, 0x3FF0000000000000, 0xBFF8000000000000, 0x4330000000000000, 0x3FF0000010000000,
            0x3FF0000010000001, 0x3FF0100000000000, 0x3FF0080000000000, 0x3FF0180000000000, 0x43E0000000000000,
            0xC3E0000000000000, 0x43F0000000000000, 0x41E0000000000000, 0xC1E0000000200000, 0x40EFFE0000000000]
    vals = [struct.unpack("<d", struct.pack("<Q", p))[0] for p in pats]
    vals += [float(np.float32(struct.unpack("<f", struct.pack("<I", p))[0])) for p in f32_patterns()[::3]]
    rng = np.random.default_rng(7)
    vals += (rng.standard_normal(40) * 2.0 ** rng.integers(-30, 70, 40)).tolist()
    vals += [v + 0.5 for v in range(-4, 5)] + [2.0 ** 53 + 1.0, -(2.0 ** 52) - 0.5, 1e300, -1e-310]
    return vals


def d2q(x: float) -> int:
    return struct.unpack("<q", struct.pack("<d", x))[0]


F32P = f32_patterns()
#: binary32 patterns around tf32 rounding boundaries: below, at and above the halfway point of both parities,
#: normal and subnormal, at the top of the range (overflow to infinity) and into the exponent
TF32_TIES = [base | low for base in (0x3F800000, 0x3F802000, 0x00000000, 0x00002000, 0x007FE000, 0x7F7FE000,
                                     0xBF7FE000, 0x80002000, 0x4B7FE000)
             for low in (0x0FFF, 0x1000, 0x1001, 0x1FFF)]
F64V = f64_values()


# ================================================================================================ primitives
@pytest.mark.parametrize("expr", ["add64({0}, {1})", "sub64({0}, {1})", "mul64({0}, {1})", "ult64({0}, {1})",
                                  "ule64({0}, {1})", "clz64({0})", "ctz64({0})", "popcount64({0})"])
def test_integer_primitives_cpython_and_numba(expr):
    e = int_edges(64)
    both_engines(expr, [(x, y) for x in e for y in e], "ii")


def test_division_and_shift_primitives_cpython_and_numba():
    e = int_edges(64)
    rows = [(x, y) for x in e for y in e if y != 0 and not (x == -(1 << 63) and y == -1)]
    for expr in ("sdiv64({0}, {1})", "srem64({0}, {1})"):
        both_engines(expr, rows, "ii")
    for expr in ("udiv64({0}, {1})", "urem64({0}, {1})"):
        both_engines(expr, [(x, y) for x in e for y in e if y != 0], "ii")
    for expr in ("shl64({0}, {1})", "ashr64({0}, {1})", "lshr64({0}, {1})"):
        both_engines(expr, [(x, n) for x in e for n in range(64)], "ii")


def test_conversion_primitives_cpython_and_numba():
    e = int_edges(64)
    both_engines("f64({0})", [(x,) for x in e], "i", "f64")
    both_engines("u2f64({0})", [(x,) for x in e], "i", "f64")
    ints = [float(v) for v in (0, 1, -1, 2.0 ** 52, 2.0 ** 63 - 1024, 2.0 ** 63, 2.0 ** 64 - 2048, -(2.0 ** 63))]
    both_engines("f2i64({0})", [(t,) for t in ints], "d")
    both_engines("to_f32({0})", [(v,) for v in F64V], "d", "f32")
    both_engines("f64_bits(f64_from_bits({0}))", [(d2q(v),) for v in F64V], "i")
    both_engines("f32_bits(f32_from_bits({0}))", [(p,) for p in F32P], "i")
    both_engines("quiet({0})", [(v,) for v in F64V if v != v], "d", "f64")
    both_engines("quiet({0})", [(p,) for p in F32P if (p & 0x7FFFFFFF) > 0x7F800000], "s", "f32")
    both_engines("default_nan({0})", [(1.0,)], "d", "f64")
    both_engines("default_nan({0})", [(0x3F800000,)], "s", "f32")


def test_float_primitives_cpython_and_numba():
    pairs = [(a, b) for a in F64V[::2] for b in F64V[::3]]
    both_engines("fdiv({0}, {1})", pairs, "dd", "f64")
    both_engines("fsqrt({0})", [(v,) for v in F64V], "d", "f64")
    for fn in ("ffloor", "fceil", "ftrunc", "frint"):
        both_engines(fn + "({0})", [(v,) for v in F64V], "d", "f64")
    both_engines("fmod({0}, {1})", [(a, b) for a, b in pairs if math.isfinite(a) and b == b and b != 0.0], "dd",
                 "f64")
    sp = [(a, b) for a in F32P[::2] for b in F32P[::3]]
    # binary32 operands: numba divides in binary32, CPython in binary64 and rounds once more (same value)
    both_engines("to_f32(fdiv({0}, {1}))", sp, "ss", "f32")
    both_engines("to_f32(fsqrt({0}))", [(p,) for p in F32P], "s", "f32")


# ================================================================================================ integer rules
INT_BINARY = ["addi", "subi", "muli", "minsi", "maxsi", "minui", "maxui"]


@pytest.mark.parametrize("name", INT_BINARY + ["andi", "ori", "xori", "ult", "ule"])
def test_integer_rules_cpython_and_numba(name):
    args = "{0}, {1}" if name in ("andi", "ori", "xori") else "{0}, {1}, {2}"
    both_engines(f"{name}({args})", pair_rows(), "iii")


@pytest.mark.parametrize("name", ["divsi", "divui", "ceildivsi", "ceildivui", "floordivsi", "remsi", "remui"])
def test_division_rules_cpython_and_numba(name):
    signed = name in ("divsi", "ceildivsi", "floordivsi", "remsi")
    both_engines(f"({name}({{0}}, {{1}}, {{2}}) if div_fault({{0}}, {{1}}, {{2}}, {signed}) == 0 else "
                 f"-1000 - div_fault({{0}}, {{1}}, {{2}}, {signed}))", pair_rows(), "iii")


@pytest.mark.parametrize("name", ["shli", "shrsi", "shrui"])
def test_shift_rules_cpython_and_numba(name):
    rows = [(x, stored(n, w), w) for w in PAIR_WIDTHS for x in int_edges(w) for n in (0, 1, w - 1, w, w + 1, 63, 64, -1)]
    both_engines(f"({name}({{0}}, {{1}}, {{2}}) if shift_fault({{1}}, {{2}}) == 0 else -77)", rows, "iii")


@pytest.mark.parametrize("flag", ["overflow_signed", "overflow_unsigned"])
def test_overflow_rules_cpython_and_numba(flag):
    rows = [(op, x, y, w) for op in (R.OV_ADD, R.OV_SUB, R.OV_MUL) for x, y, w in pair_rows()]
    rows += [(R.OV_SHL, x, n, w) for w in PAIR_WIDTHS for x in int_edges(w) for n in range(0, w, max(1, w // 7))]
    both_engines(f"1 if {flag}({{0}}, {{1}}, {{2}}, {{3}}) else 0", rows, "iiii")


def test_compare_cast_and_unary_rules_cpython_and_numba():
    rows = pair_rows()
    both_engines("cmpi({0}, {1}, {2}, {3})", [(p, x, y, w) for p in range(10) for x, y, w in rows[::3]], "iiii")
    casts = [(x, ws, wd) for ws in PAIR_WIDTHS for x in int_edges(ws) for wd in (1, 8, 16, 31, 32, 33, 63, 64)]
    both_engines("extsi({0}, {1}, {2})", casts, "iii")
    both_engines("extui({0}, {1}, {2})", casts, "iii")
    unary = [(x, w) for w in WIDTHS for x in int_edges(w)]
    for name in ("absi", "ctlz", "cttz", "ctpop", "ubits", "sread"):
        both_engines(f"{name}({{0}}, {{1}})", unary, "ii")
    both_engines("wrap({0}, {1})", [(x, w) for w in WIDTHS for x in int_edges(64)], "ii")
    both_engines("select({0}, {1}, {2})", [(c, x, y) for c in (0, 1) for x, y, _ in rows[:50]], "iii")


@settings(max_examples=40)
@given(st.lists(stored_ints, min_size=1, max_size=60))
def test_integer_rules_random_cpython_and_numba(rows):
    both_engines("addi({0}, {1}, {2}) ^ muli({0}, {1}, {2}) ^ subi({0}, {1}, {2})", rows, "iii")
    both_engines("cmpi(6, {0}, {1}, {2}) + 2 * cmpi(3, {0}, {1}, {2})", rows, "iii")
    both_engines("(remui({0}, {1}, {2}) if div_fault({0}, {1}, {2}, False) == 0 else -1)", rows, "iii")
    both_engines("(floordivsi({0}, {1}, {2}) if div_fault({0}, {1}, {2}, True) == 0 else -1)", rows, "iii")


def test_integer_to_float_rules_cpython_and_numba():
    rows = [(x, w, s) for w in WIDTHS for x in int_edges(w) for s in (0, 1)]
    both_engines("itof64({0}, {1}, {2} != 0)", rows, "iii", "f64")
    both_engines("itof32({0}, {1}, {2} != 0)", rows, "iii", "f32")
    both_engines("itof16({0}, {1}, {2} != 0)", rows, "iii")
    both_engines("itobf16({0}, {1}, {2} != 0)", rows, "iii")
    floats = [(v, w, s) for v in F64V[::2] for w in (1, 8, 16, 32, 33, 63, 64) for s in (0, 1)]
    both_engines("ftoi({0}, {1}, {2} != 0)", floats, "dii")


# ------------------------------------------------------------------------------------------------ oracles
def _trunc_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def test_integer_rules_oracle():
    """Against Python integer arithmetic on the signed/unsigned readings, wrapped to the width."""
    for x, y, w in pair_rows(WIDTHS[:8] + PAIR_WIDTHS):
        sx, sy, ux, uy = sval(x, w), sval(y, w), uval(x, w), uval(y, w)
        assert R.addi(x, y, w) == stored(sx + sy, w)
        assert R.subi(x, y, w) == stored(sx - sy, w)
        assert R.muli(x, y, w) == stored(sx * sy, w)
        assert R.andi(x, y) == stored(ux & uy, w) and R.ori(x, y) == stored(ux | uy, w)
        assert R.xori(x, y) == stored(ux ^ uy, w)
        assert R.minsi(x, y, w) == (x if sx <= sy else y) and R.maxui(x, y, w) == (x if ux >= uy else y)
        assert R.cmpi(R.CMPI_PREDICATES.index("slt"), x, y, w) == (sx < sy)
        assert R.cmpi(R.CMPI_PREDICATES.index("uge"), x, y, w) == (ux >= uy)
        assert R.cmpi(0, x, y, w) == (ux == uy)
        st_s, st_u = R.div_fault(x, y, w, True), R.div_fault(x, y, w, False)
        if uy == 0:
            assert st_s == st_u == R.DIV_BY_ZERO
            continue
        assert st_u == R.OK
        assert R.divui(x, y, w) == stored(ux // uy, w) and R.remui(x, y, w) == stored(ux % uy, w)
        assert R.ceildivui(x, y, w) == stored(-((-ux) // uy), w)
        if sy == -1 and sx == -(1 << (w - 1)):
            assert st_s == R.DIV_OVERFLOW
            continue
        assert st_s == R.OK
        q = Fraction(sx, sy)
        assert R.divsi(x, y, w) == stored(_trunc_div(sx, sy), w)
        assert R.remsi(x, y, w) == stored(sx - _trunc_div(sx, sy) * sy, w)
        assert R.floordivsi(x, y, w) == stored(math.floor(q), w)
        assert R.ceildivsi(x, y, w) == stored(math.ceil(q), w)


def test_shift_overflow_cast_and_bit_count_oracle():
    for w in WIDTHS:
        for x in int_edges(w):
            sx, ux = sval(x, w), uval(x, w)
            assert R.absi(x, w) == stored(abs(sx), w)
            assert R.ctlz(x, w) == stored(w - ux.bit_length(), w)
            assert R.cttz(x, w) == stored(w if ux == 0 else (ux & -ux).bit_length() - 1, w)
            assert R.ctpop(x, w) == stored(bin(ux).count("1"), w)
            for n in (0, 1, w // 2, w - 1, w, 64, (1 << 40)):
                y = stored(n, w)
                if uval(y, w) >= w:
                    assert R.shift_fault(y, w) == R.SHIFT_TOO_BIG
                    continue
                k = uval(y, w)
                assert R.shift_fault(y, w) == R.OK
                assert R.shli(x, y, w) == stored(ux << k, w)
                assert R.shrsi(x, y, w) == stored(sx >> k, w) and R.shrui(x, y, w) == stored(ux >> k, w)
                assert R.overflow_signed(R.OV_SHL, x, k, w) == (not -(1 << (w - 1)) <= sx << k < 1 << (w - 1))
                assert R.overflow_unsigned(R.OV_SHL, x, k, w) == (ux << k >= 1 << w)
            for wd in (1, 2, 8, 32, 33, 64):
                assert R.extsi(x, w, wd) == stored(sx, wd) and R.extui(x, w, wd) == stored(ux, wd)
    for x, y, w in pair_rows():
        sx, sy, ux, uy = sval(x, w), sval(y, w), uval(x, w), uval(y, w)
        lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        for op, f in ((R.OV_ADD, lambda a, b: a + b), (R.OV_SUB, lambda a, b: a - b), (R.OV_MUL, lambda a, b: a * b)):
            assert R.overflow_signed(op, x, y, w) == (not lo <= f(sx, sy) <= hi), (op, x, y, w)
            assert R.overflow_unsigned(op, x, y, w) == (not 0 <= f(ux, uy) < 1 << w), (op, x, y, w)


def test_integer_to_float_oracle():
    """Against conversions.int_to_float (one rounding, its own implementation) and float_to_int_sat."""
    for w in WIDTHS:
        for x in int_edges(w):
            for signed in (True, False):
                v = sval(x, w) if signed else uval(x, w)
                arr = np.array(v & M64, np.uint64)
                assert R.f64_bits(R.itof64(x, w, signed)) == d2q(float(C.int_to_float(arr, v < 0, "f64")))
                assert R.f32_bits(R.itof32(x, w, signed)) == int(C.int_to_float(arr, v < 0, "f32").view(np.uint32))
                assert R.itof16(x, w, signed) == int(C.int_to_float(arr, v < 0, "f16").view(np.uint16))
                assert R.itobf16(x, w, signed) == int(C.int_to_float(arr, v < 0, "bf16").view(np.uint16))
    for v in F64V:
        for w in (1, 2, 8, 16, 32, 33, 53, 63, 64):
            for signed in (True, False):
                want = int(C.float_to_int_sat(np.float64(v), w, signed))
                assert R.ftoi(v, w, signed) == stored(want, w), (v, w, signed)


# ================================================================================================ float rules
FMTS = {"f16": (np.float16, np.uint16), "bf16": (BF16, np.uint16), "f32": (np.float32, np.uint32)}


def _narrow_cpython(kind: str, r):
    """The interpreter's rounding chain for a result computed in the operands' format (arith.py _FROM_OP)."""
    if kind == "f32":
        return R.f32_bits(R.narrow_f32(r))
    if kind == "f16":
        return R.f32_to_f16(R.narrow_f32(r))
    return R.f32_to_bf16(R.narrow_f32(r))


def _half_pairs(kind: str) -> list[tuple[int, int]]:
    """Patterns of 16-bit values (kind) paired, from widened binary32 edge patterns and specials."""
    dt, ut = FMTS[kind]
    with np.errstate(all="ignore"):
        pats = sorted({int(np.array(p, np.uint32).view(np.float32).astype(dt).view(ut)) for p in F32P}
                      | {0x7C01, 0xFC01, 0x7E00, 0x7D00, 0x0001, 0x8001, 0x03FF, 0x7BFF, 0x7F81, 0xFF81, 0x7FC0,
                         0x0080, 0x8000, 0x3C01, 0x3BFF})
    return [(a, b) for a in pats[::2] for b in pats[::3]]


@pytest.mark.parametrize("name", ["addf", "subf", "mulf", "divf"])
def test_float_arithmetic_rules_cpython_and_numba(name):
    """f64 and f32 directly, f16/bf16 through the chain both engines use (widen, compute in binary32, round)."""
    both_engines(f"{name}({{0}}, {{1}})", [(a, b) for a in F64V[::2] for b in F64V[1::3]], "dd", "f64")
    sp = [(a, b) for a in F32P[::2] for b in F32P[1::3]]
    both_engines(f"narrow_f32({name}({{0}}, {{1}}))", sp, "ss", "f32")
    for kind, to_f32, narrow in (("f16", "f16_to_f32", "f32_to_f16"), ("bf16", "bf16_to_f32", "f32_to_bf16")):
        both_engines(f"{narrow}(narrow_f32({name}(f64({to_f32}({{0}})), f64({to_f32}({{1}})))))", _half_pairs(kind),
                     "ii", numba_expr=f"{narrow}(narrow_f32({name}({to_f32}({{0}}), {to_f32}({{1}}))))")


def test_float_compare_minmax_and_sign_rules_cpython_and_numba():
    sp = [(a, b) for a in F32P[::2] for b in F32P[1::3]]
    both_engines("cmpf({2}, {0}, {1})", [(a, b, p) for p in range(16) for a, b in sp[::5]], "ssi")
    for pick in ("pick_minimum", "pick_maximum", "pick_minnum", "pick_maxnum"):
        # the result is one of the operands unchanged (its bits: a signalling NaN stays one)
        both_engines(f"select({pick}({{0}}, {{1}}), {{3}}, {{2}})", [(a, b, a, b) for a, b in sp], "ssii")
        both_engines(f"1 if {pick}({{0}}, {{1}}) else 0", [(a, b) for a in F64V[::3] for b in F64V[::4]], "dd")
    bits = [(p, q) for p in F32P[::3] for q in F32P[::7]]
    both_engines("flip_sign({0}, 32) ^ clear_sign({1}, 32)", bits, "ii")
    both_engines("copy_sign({0}, {1}, 64)", [(d2q(a), d2q(b)) for a in F64V[::4] for b in F64V[::5]], "ii")
    both_engines("copy_sign({0}, {1}, 16)", [(a, b) for a, b in _half_pairs("f16")[::4]], "ii")


def test_narrowing_and_widening_rules_cpython_and_numba():
    both_engines("narrow_f32({0})", [(v,) for v in F64V], "d", "f32")
    both_engines("f64_to_f16({0})", [(v,) for v in F64V], "d")
    both_engines("f64_to_bf16({0})", [(v,) for v in F64V], "d")
    both_engines("f32_to_f16({0})", [(p,) for p in F32P], "s")
    both_engines("f32_to_bf16({0})", [(p,) for p in F32P], "s")
    halves = [(h,) for h in range(0, 1 << 16, 7)] + [(h,) for h in (0x7C01, 0xFC01, 0x7D00, 0x7F81, 0xFF81, 0x7FBF)]
    both_engines("f16_to_f32({0})", halves, "i", "f32")
    both_engines("f16_to_f64({0})", halves, "i", "f64")
    both_engines("bf16_to_f32({0})", halves, "i", "f32")
    both_engines("bf16_to_f32_quiet({0})", halves, "i", "f32")
    both_engines("bf16_to_f64({0})", halves, "i", "f64")
    both_engines("f32_to_f64({0})", [(p,) for p in F32P], "s", "f64")
    both_engines("f32_to_tf32({0})", [(p,) for p in F32P + TF32_TIES], "s", "f32")
    both_engines("f64_to_tf32({0})", [(v,) for v in F64V], "d", "f32")
    both_engines("tf32_to_f32({0})", [(p & 0xFFFFE000,) for p in F32P], "s", "f32")


def test_math_rules_cpython_and_numba():
    vals = [(v,) for v in F64V]
    for name in ("floorf", "ceilf", "truncf", "roundevenf", "roundf", "sqrtf"):
        both_engines(f"{name}({{0}})", vals, "d", "f64")
    both_engines("narrow_f32(sqrtf({0}))", [(p,) for p in F32P], "s", "f32")
    for name in ("isnanf", "isinff", "isfinitef"):
        both_engines(f"{name}({{0}})", vals, "d")
    both_engines("isnormalf({0}, 1.1754943508222875e-38)", vals, "d")
    pairs = [(a, b) for a in F64V[::2] for b in F64V[1::3]]
    both_engines("remf({0}, {1})", pairs, "dd", "f64")
    f32v = [float(np.uint32(p).view(np.float32)) for p in F32P[::4]]
    both_engines("fma_odd({0}, {1}, {2})", [(a, b, c) for a in f32v for b in f32v[::3] for c in f32v[::5]], "ddd",
                 "f64")


@settings(max_examples=40)
@given(st.lists(st.tuples(st.integers(0, (1 << 32) - 1), st.integers(0, (1 << 32) - 1)), min_size=1, max_size=60))
def test_float_rules_random_cpython_and_numba(rows):
    both_engines("narrow_f32(addf({0}, {1})) + narrow_f32(divf({0}, {1}))", rows, "ss", "f32")
    both_engines("f32_to_bf16(narrow_f32(mulf({0}, {1}))) + cmpf(12, {0}, {1})", rows, "ss")
    both_engines("f64_to_f16(remf(f64({0}), f64({1})))", rows, "ss")


# ------------------------------------------------------------------------------------------------ float oracles
def _bits_of(x, kind: str) -> int:
    dt, ut = FMTS[kind]
    return int(np.asarray(x, dt).view(ut))


def _quiet_nan_pick(a: float, b: float, kind: str) -> int | None:
    """The first NaN operand, quieted, as a pattern of ``kind`` (None: no NaN operand)."""
    for v in (a, b):
        if v != v:
            with np.errstate(all="ignore"):
                p = _bits_of(np.float32(v) if kind != "f32" else v, "f32") | 0x400000
            if kind == "f32":
                return p
            f = np.array(p, np.uint32).view(np.float32)
            return int(C.round_float(f, kind).view(np.uint16))
    return None


@pytest.mark.parametrize("kind", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("name,op", [("addf", np.add), ("subf", np.subtract), ("mulf", np.multiply),
                                     ("divf", np.divide)])
def test_float_arithmetic_oracle(kind, name, op):
    """Against numpy / ml_dtypes arithmetic in the type (IEEE, round to nearest even) and the stated NaN rule."""
    dt, ut = FMTS[kind]
    rule = getattr(R, name)
    pairs = [(a, b) for a in F32P[::2] for b in F32P[1::3]] if kind == "f32" else _half_pairs(kind)
    for pa, pb in pairs:
        xa, xb = np.array(pa, ut).view(dt)[()], np.array(pb, ut).view(dt)[()]
        a, b = float(xa), float(xb)
        got = _narrow_cpython(kind, rule(a, b))
        nan = _quiet_nan_pick(a, b, kind)
        if nan is not None:
            assert got == nan, (kind, name, hex(pa), hex(pb))
            continue
        with np.errstate(all="ignore"):
            want = op(np.array(xa, np.float32), np.array(xb, np.float32)).astype(dt) if kind == "bf16" else op(xa, xb)
        w = _bits_of(want, kind)
        if want != want:  # an invalid operation: the default NaN (sign set, quiet)
            assert got == {"f32": 0xFFC00000, "f16": 0xFE00, "bf16": 0xFFC0}[kind]
        else:
            assert got == w, (kind, name, hex(pa), hex(pb), hex(got), hex(w))


def test_f64_arithmetic_remf_and_sqrt_oracle():
    for a in F64V[::2]:
        for b in F64V[1::3]:
            if a == a and b == b:
                for rule, f in ((R.addf, lambda x, y: x + y), (R.subf, lambda x, y: x - y),
                                (R.mulf, lambda x, y: x * y)):
                    r = rule(a, b)
                    w = f(a, b)
                    assert r == w or (r != r and w != w)
                if b != 0.0:
                    assert R.divf(a, b) == a / b or a / b != a / b
                if math.isfinite(a) and b != 0.0:
                    assert d2q(R.remf(a, b)) == d2q(math.fmod(a, b))
                if b == 0.0 or math.isinf(a):
                    assert d2q(R.remf(a, b)) == R.DEFAULT_NAN64_BITS
        if a == a and a >= 0.0:
            assert d2q(R.sqrtf(a)) == d2q(math.sqrt(a))
        elif a == a:
            assert d2q(R.sqrtf(a)) == R.DEFAULT_NAN64_BITS
        else:
            assert d2q(R.sqrtf(a)) == d2q(a) | R.QUIET64


def test_narrowing_oracle():
    """Against conversions.round_float (its own exact implementation), NaNs included."""
    for v in F64V:
        assert R.f32_bits(R.narrow_f32(v)) == int(C.round_float(np.float64(v), "f32").view(np.uint32))
        assert R.f64_to_f16(v) == int(C.round_float(np.float64(v), "f16").view(np.uint16))
        assert R.f64_to_bf16(v) == int(C.round_float(np.float64(v), "bf16").view(np.uint16))
    for p in F32P:
        f = np.array(p, np.uint32).view(np.float32)
        assert R.f32_to_f16(float(f)) == int(C.round_float(f, "f16").view(np.uint16)), hex(p)
        assert R.f32_to_bf16(float(f)) == int(C.round_float(f, "bf16").view(np.uint16)), hex(p)


def test_tf32_rules_oracle():
    """f32/f64 -> tf32 and tf32 -> f32 against conversions.round_float / extend_float (NaNs included); for
    f32 -> tf32 every tf32 significand of every exponent with the low 13 bits below, at and above half (under
    numba, 2^19 x 6 patterns), and the edge patterns in CPython."""
    for v in F64V:
        assert R.f32_bits(R.f64_to_tf32(v)) == int(C.round_float(np.float64(v), "tf32").view(np.uint32)), v
    for p in F32P + TF32_TIES:
        f = np.array(p, np.uint32).view(np.float32)
        assert R.f32_bits(R.f32_to_tf32(float(f))) == int(C.round_float(f, "tf32").view(np.uint32)), hex(p)
        t = np.array(p & 0xFFFFE000, np.uint32).view(np.float32)
        assert R.f32_bits(R.tf32_to_f32(float(t))) == int(C.extend_float(t.astype(np.float32), "f32")
                                                          .view(np.uint32)), hex(p)
    top = np.arange(1 << 19, dtype=np.uint64) << np.uint64(13)
    pats = np.concatenate([top | np.uint64(low) for low in (0, 1, 0x0FFF, 0x1000, 0x1001, 0x1FFF)]).astype(np.uint32)
    got = np.zeros(len(pats), np.int64)
    numba_driver(out_expr("f32_to_tf32({0})", "f32"), 1, True)(got, pats.view(np.float32))
    want = C.round_float(pats.view(np.float32), "tf32").view(np.uint32).astype(np.int64)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [hex(int(pats[i])) for i in bad[:5]]


def test_widening_oracle():
    for h in range(1 << 16):
        f16 = np.array(h, np.uint16).view(np.float16)
        e = h & 0x7FFF
        if e <= 0x7C00:
            assert R.f32_bits(R.f16_to_f32(h)) == int(f16.astype(np.float32).view(np.uint32))
            assert d2q(R.f16_to_f64(h)) == d2q(float(f16))
        else:  # NaN: f16 -> f32 keeps sign and payload and sets the quiet bit; f16 -> f64 does not quiet
            assert R.f32_bits(R.f16_to_f32(h)) == ((h & 0x8000) << 16) | 0x7FC00000 | ((h & 0x3FF) << 13)
            assert d2q(R.f16_to_f64(h)) & M64 == ((h & 0x8000) << 48) | 0x7FF0000000000000 | ((h & 0x3FF) << 42)
        b = R.f32_bits(R.bf16_to_f32(h))
        assert b == h << 16
        q = R.f32_bits(R.bf16_to_f32_quiet(h))
        assert q == (h << 16 | (0x400000 if (h & 0x7FFF) > 0x7F80 else 0))


def test_conversion_to_int_and_math_oracle():
    for v in F64V:
        if v == v:
            assert d2q(R.floorf(v)) == d2q(float(np.floor(v)))
            assert d2q(R.ceilf(v)) == d2q(float(np.ceil(v)))
            assert d2q(R.truncf(v)) == d2q(float(np.trunc(v)))
            assert d2q(R.roundevenf(v)) == d2q(float(np.rint(v)))
            if math.isfinite(v):
                t = math.trunc(v)
                want = t + (1 if v - t >= 0.5 else -1 if t - v >= 0.5 else 0)
                assert R.roundf(v) == want and math.copysign(1.0, R.roundf(v)) == math.copysign(1.0, v)
        assert R.isnanf(v) == (v != v) and R.isinff(v) == math.isinf(v) and R.isfinitef(v) == math.isfinite(v)
        assert R.isnormalf(v, 2.0 ** -1022) == (math.isfinite(v) and abs(v) >= 2.0 ** -1022)


def _round_f32(q: Fraction) -> int:
    """The binary32 pattern of the rational ``q != 0`` rounded to nearest even (exact arithmetic)."""
    neg, q = q < 0, abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    ex = max(e, -126) - 23  # exponent of the last significand bit
    n = q / Fraction(2) ** ex
    k = math.floor(n)
    rest = n - k
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and k % 2 == 1):
        k += 1
    v = Fraction(k) * Fraction(2) ** ex
    bits = 0x7F800000 if v >= Fraction(2) ** 128 else int(np.float32(float(v)).view(np.uint32))
    return bits | (0x80000000 if neg else 0)


def test_fma_oracle():
    """fma_odd + one rounding is the exact a*b+c rounded once (exact rational arithmetic)."""
    f32v = [float(np.uint32(p).view(np.float32)) for p in F32P if (p & 0x7F800000) != 0x7F800000]
    for a in f32v[::3]:
        for b in f32v[::4]:
            for c in f32v[::5]:
                exact = Fraction(a) * Fraction(b) + Fraction(c)
                if exact == 0:
                    continue  # the sign of an exact zero follows IEEE's rules (engine tests)
                assert R.f32_bits(R.narrow_f32(R.fma_odd(a, b, c))) == _round_f32(exact), (a, b, c)


def test_compare_and_minmax_oracle():
    table = {"oeq": lambda x, y: x == y, "ogt": lambda x, y: x > y, "oge": lambda x, y: x >= y,
             "olt": lambda x, y: x < y, "ole": lambda x, y: x <= y}
    vals = F64V[::3]
    for a in vals:
        for b in vals:
            nan = a != a or b != b
            for p, name in enumerate(R.CMPF_PREDICATES):
                got = R.cmpf(p, a, b)
                if name in ("false", "true"):
                    assert got == (name == "true")
                elif name == "ord":
                    assert got == (not nan)
                elif name == "uno":
                    assert got == nan
                elif name in ("one", "ueq"):
                    ne = not nan and a != b
                    assert got == (ne if name == "one" else not ne)
                elif name == "une":
                    assert got == (nan or a != b)
                elif name[0] == "o":
                    assert got == (not nan and table[name](a, b))
                else:
                    assert got == (nan or table["o" + name[1:]](a, b))
            fa, fb = np.float64(a), np.float64(b)
            for pick, ref in ((R.pick_minimum, M.minimum), (R.pick_maximum, M.maximum), (R.pick_minnum, M.minnum),
                              (R.pick_maxnum, M.maxnum)):
                want = ref(np.array([fa]), np.array([fb]))[0]
                got = fb if pick(a, b) else fa
                assert d2q(float(got)) == d2q(float(want)), (pick.__name__, a, b)


# ================================================================================================ specialised code
SPECIALISED = [
    (R.addi, ("w",)), (R.muli, ("w",)), (R.subi, ("w",)), (R.cmpi, ("pred", "w")), (R.divsi, ("w",)),
    (R.remui, ("w",)), (R.shrsi, ("w",)), (R.extsi, ("ws", "wd")), (R.extui, ("ws", "wd")),
    (R.overflow_signed, ("op", "w")), (R.overflow_unsigned, ("op", "w")), (R.ctlz, ("w",)), (R.absi, ("w",)),
    (R.itof32, ("w", "signed")), (R.itobf16, ("w", "signed")), (R.ftoi, ("w", "signed")),
]


@pytest.mark.parametrize("rule,bound", SPECIALISED, ids=[r.__name__ for r, _ in SPECIALISED])
def test_specialised_code_is_the_rule(rule, bound):
    """The interpreter's specialised code (constants bound, callees inlined, branches folded) computes what
    calling the rule computes."""
    choices = {"w": [1, 2, 8, 31, 32, 33, 53, 54, 63, 64], "ws": [1, 8, 32, 64], "wd": [1, 16, 33, 64],
               "pred": list(range(10)), "op": [R.OV_ADD, R.OV_SUB, R.OV_MUL], "signed": [True, False]}
    import itertools

    for combo in itertools.product(*[choices[b] for b in bound]):
        consts = dict(zip(bound, combo))
        fn = specialize(rule, **consts)
        w = consts.get("w", consts.get("ws", 64))
        for x in int_edges(w):
            for y in int_edges(w)[::3]:
                args = {"x": x, "y": y}
                params = [p for p in rule.__code__.co_varnames[:rule.__code__.co_argcount] if p not in consts]
                if rule is R.ftoi:
                    args["x"] = float(x) * 1.5
                free = [args[p] for p in params]
                if rule in (R.divsi, R.remui) and R.div_fault(x, y, w, rule is R.divsi) != R.OK:
                    continue
                if rule is R.shrsi and R.shift_fault(y, w) != R.OK:
                    continue
                if rule in (R.overflow_signed, R.overflow_unsigned) and consts["op"] == R.OV_SHL:
                    continue
                out = "f32" if rule is R.itof32 else "i"
                want = rule(**dict(zip(params, free)), **consts)
                assert as_bits(fn(*free), out) == as_bits(want, out), (rule.__name__, consts, free)


def test_interpreter_steps_record_only_the_ops_rules():
    with pytest.raises(KeyError):
        R.lookup("arith.addi", "divsi", "interpreter")
    assert R.lookup("index.add", "addi", "interpreter") is R.addi
    for op, fns in R.RULES.items():
        for fn in fns:
            assert op in fn.__rule_ops__


# ================================================================================================ F16C
def test_f16c_matches_the_rules():
    """The F16C instructions numba uses for f32_to_f16 / f16_to_f32 give the rules' results: all 2^16 halves, and
    every binary32 significand of the exponents where f16 rounding changes behaviour (subnormal, normal, overflow
    boundaries, infinities and NaNs, far below and above), both signs."""
    from xesim.exec.jit import rt

    if not rt.HAVE_F16C:
        pytest.skip("this CPU has no F16C: numba runs the rules' own bodies")
    from xesim.exec.jit import runner

    h2f = runner.load_dispatcher(
        "def nest(out):\n"
        "    bad = 0\n"
        "    for h in range(65536):\n"
        "        if f32_bits(f16_to_f32(h)) != f16_to_f32_bits(h):\n"
        "            bad += 1\n"
        "            out[0] = h\n"
        "    return bad\n")
    out = np.zeros(1, np.int64)
    assert h2f(out) == 0, hex(int(out[0]))
    for h in range(0, 1 << 16, 97):  # and CPython's rule body agrees with the compiled one
        assert R.f32_bits(R.f16_to_f32(h)) == R.f16_to_f32_bits(h)
    f2h = runner.load_dispatcher(
        "def nest(out, exps):\n"
        "    bad = 0\n"
        "    for e in exps:\n"
        "        for s in range(2):\n"
        "            for m in range(1 << 23):\n"
        "                b = (s << 31) | (e << 23) | m\n"
        "                x = f32_from_bits(b)\n"
        "                if f32_to_f16(x) != round_narrow(f64(x), 11, -14, 15, 16):\n"
        "                    bad += 1\n"
        "                    out[0] = b\n"
        "    return bad\n")
    exps = np.array([0, 1, 101, 102, 103, 111, 112, 113, 126, 127, 141, 142, 143, 254, 255], np.int64)
    assert f2h(out, exps) == 0, hex(int(out[0]))
