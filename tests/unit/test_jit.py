"""Compiled host loop nests (xesim/exec/jit): bit-identical to the reference interpreter.

Most tests run the same program with ``XESIM_ENGINE=reference`` and ``XESIM_ENGINE=fast`` and compare all
memory, printed output and faults; they also check that the fast run really executed compiled code
(``runner.STATS``), so a silent fallback to the interpreter cannot make them pass.  Inputs cover the edge
cases (integer wrap at every width, division/shift faults, f16/bf16 rounding ties, NaN payloads, infinities,
subnormals, saturating conversions).  Where a value can be derived independently it is checked against numpy
or by hand as well.
"""

from __future__ import annotations

import io
import math
import os

import ml_dtypes
import numpy as np
import pytest

from xesim.api import make_engine
from xesim.diagnostics import DiagnosticError
from xesim.exec.jit import codegen, runner
from xesim.exec.values import MemRefValue, identity_strides
from xesim.ir.parser import parse_source
from xesim.numerics import conversions as C  # noqa: N812 - short alias
from xesim.verify.structural import verify_module

K = 192  # elements per input array


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    """Compiled code goes to one cache directory for the whole session (numba's cache makes reruns fast)."""
    base = os.environ.get("XESIM_TEST_CACHE_DIR") or str(tmp_path_factory.getbasetemp() / "xesim-cache")
    monkeypatch.setenv("XESIM_CACHE_DIR", base)


# ------------------------------------------------------------------------------------------------ harness
def run_mode(src: str, mode: str, arrays: list[np.ndarray] = (), monkeypatch=None) -> dict:
    """Run ``@main`` (its memref arguments get copies of ``arrays``) with engine ``mode``."""
    old = os.environ.get("XESIM_ENGINE")
    os.environ["XESIM_ENGINE"] = mode
    try:
        module = parse_source(src, "t.mlir")
        verify_module(module)
        out = io.StringIO()
        eng = make_engine(module, out=out)
        func = module.lookup_symbol(("main",))
        args = []
        allocs = []
        for arr, barg in zip(arrays, func.regions[0].blocks[0].args):
            a = eng.memory.allocate(arr.nbytes, "host", f"%{barg.name}")
            a.data[:] = np.ascontiguousarray(arr).view(np.uint8).reshape(-1)
            allocs.append(a)
            args.append(MemRefValue(eng.memory, a, a.base, 0, arr.shape, identity_strides(arr.shape),
                                    barg.type.element_type))
        before = dict(runner.STATS)
        fault = None
        try:
            eng.run("main", args)
        except DiagnosticError as exc:
            fault = exc.render()
        mem = [a.data.copy() for a in eng.memory._allocs]
        return {"out": out.getvalue(), "fault": fault, "mem": mem,
                "runs": runner.STATS["runs"] - before["runs"], "checked": runner.STATS["checked"] - before["checked"],
                "args": [a.data.copy() for a in allocs]}
    finally:
        if old is None:
            os.environ.pop("XESIM_ENGINE", None)
        else:
            os.environ["XESIM_ENGINE"] = old


def same_both_ways(src: str, arrays: list[np.ndarray] = (), min_runs: int = 1) -> dict:
    """Run reference and fast; assert identical output, fault and memory; return the fast run."""
    ref = run_mode(src, "reference", arrays)
    fast = run_mode(src, "fast", arrays)
    assert fast["runs"] >= min_runs, "the loop nest was not compiled"
    assert ref["runs"] == 0
    assert fast["out"] == ref["out"]
    assert fast["fault"] == ref["fault"]
    assert len(fast["mem"]) == len(ref["mem"])
    for i, (a, b) in enumerate(zip(ref["mem"], fast["mem"])):
        if not np.array_equal(a, b):
            bad = int(np.flatnonzero(a != b)[0])
            raise AssertionError(f"allocation {i} differs at byte {bad}: reference {a[bad]} vs compiled {b[bad]}")
    return fast


# ------------------------------------------------------------------------------------------------ input data
def int_inputs(seed: int, n: int = K) -> np.ndarray:
    """int64 patterns: edges of every width, small values, random bits."""
    rng = np.random.default_rng(seed)
    edges = [0, 1, -1, 2, -2, 3, 7, 8, 63, 64, 65]
    for w in (1, 2, 7, 8, 16, 32, 33, 63, 64):
        edges += [(1 << (w - 1)) - 1, -(1 << (w - 1)), (1 << w) - 1, 1 << (w - 1), (1 << w) if w < 63 else 0]
    e = np.array([((v + (1 << 63)) % (1 << 64)) - (1 << 63) for v in edges], dtype=np.int64)
    out = np.concatenate([e, rng.integers(-300, 300, n // 4), rng.integers(np.iinfo(np.int64).min,
                                                                          np.iinfo(np.int64).max, n, dtype=np.int64)])
    rng.shuffle(out)
    return out[:n].astype(np.int64)


def float_inputs(seed: int, fmt: str, n: int = K) -> np.ndarray:
    """Bit patterns (as int64) of ``fmt`` values: specials, NaN payloads, subnormals, rounding ties, random."""
    rng = np.random.default_rng(seed)
    dt = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}[fmt]
    ut = {"f16": np.uint16, "bf16": np.uint16, "f32": np.uint32, "f64": np.uint64}[fmt]
    bits = 8 * np.dtype(ut).itemsize
    specials = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 3.0, np.inf, -np.inf, 65504.0, 65520.0, 1e-7, -1e-40,
                3.4e38, 2.0 ** 31, -(2.0 ** 31), 2.0 ** 63, -(2.0 ** 63), 2.0 ** 64, 1e19, 255.5, -0.75,
                1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, 1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, 1 + 2.0 ** -24, 2049.0, 4097.0]
    with np.errstate(all="ignore"):
        sv = np.array(specials, dtype=np.float64).astype(dt).view(ut).astype(np.uint64)
    top = np.uint64(1) << np.uint64(bits - 1)
    mant = {"f16": 10, "bf16": 7, "f32": 23, "f64": 52}[fmt]
    expall = ((np.uint64(1) << np.uint64(bits - 1 - mant)) - np.uint64(1)) << np.uint64(mant)
    nans = np.array([expall | np.uint64(1), expall | np.uint64(1 << (mant - 1)), expall | np.uint64(3),
                     top | expall | np.uint64(1 << (mant - 1)) | np.uint64(5)], dtype=np.uint64)
    subn = np.array([1, 2, 3, (1 << mant) - 1, 1 << (mant - 1)], dtype=np.uint64)
    subn = np.concatenate([subn, subn | top])
    rnd = rng.integers(0, np.iinfo(np.int64).max, n, dtype=np.int64).astype(np.uint64)
    if bits < 64:
        rnd &= np.uint64((1 << bits) - 1)
    small = rng.integers(-64, 64, n // 4).astype(np.float64) / 8
    smallv = small.astype(dt).view(ut).astype(np.uint64)
    out = np.concatenate([sv, nans, subn, smallv, rnd])
    rng.shuffle(out)
    return out[:n].view(np.int64)


# ------------------------------------------------------------------------------------------------ programs
INT_TYPES = ["i1", "i2", "i7", "i8", "i16", "i32", "i33", "i64", "index"]
BIN_INT = ["addi", "subi", "muli", "andi", "ori", "xori", "minsi", "maxsi", "minui", "maxui"]
DIV_INT = ["divsi", "divui", "ceildivsi", "ceildivui", "floordivsi", "remsi", "remui"]
SHIFTS = ["shli", "shrsi", "shrui"]
UNARY_INT = ["absi", "ctlz", "cttz", "ctpop"]
LIBM_UNARY = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "atan", "tanh", "erf"]
LIBM_BINARY = ["powf", "atan2"]
CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


def _width(t: str) -> int:
    return 64 if t == "index" else int(t[1:])


def _wrapv(v: int, w: int) -> int:
    v &= (1 << w) - 1
    return v - (1 << w) if w > 1 and v >= 1 << (w - 1) else v


def _const(v: int, t: str) -> str:
    """``<value> : <type>`` of an arith.constant (i1 constants are written ``true``/``false``)."""
    if t == "i1":
        return "true" if v & 1 else "false"
    return f"{_wrapv(v, _width(t))} : {t}"


class Body:
    """Accumulates loop-body lines that store results into column ``k`` of %R."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.k = 0
        self.n = 0

    def tmp(self) -> str:
        self.n += 1
        return f"%t{self.n}"

    def add(self, line: str) -> None:
        self.lines.append("    " + line)

    def to_i64(self, v: str, t: str, signed: bool = True) -> str:
        if t == "i64":
            return v
        r = self.tmp()
        if t == "index":
            self.add(f"{r} = arith.index_cast {v} : index to i64")
        elif t.startswith("i"):
            self.add(f"{r} = arith.{'extsi' if signed else 'extui'} {v} : {t} to i64")
        else:
            bt = {"f16": "i16", "bf16": "i16", "f32": "i32", "f64": "i64"}[t]
            b = self.tmp()
            self.add(f"{b} = arith.bitcast {v} : {t} to {bt}")
            return self.to_i64(b, bt, signed=False)
        return r

    def store(self, v: str, t: str, signed: bool = True) -> None:
        r = self.to_i64(v, t, signed)
        c = self.tmp()
        self.add(f"{c} = arith.constant {self.k} : index")
        self.add(f"memref.store {r}, %R[%i, {c}] : memref<{K}x{{NCOLS}}xi64>")
        self.k += 1


def program(body: Body, head: str = "") -> str:
    text = f"""func.func @main(%X: memref<{K}xi64>, %Y: memref<{K}xi64>, %R: memref<{K}x{{NCOLS}}xi64>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cK = arith.constant {K} : index
{head}  scf.for %i = %c0 to %cK step %c1 {{
    %x64 = memref.load %X[%i] : memref<{K}xi64>
    %y64 = memref.load %Y[%i] : memref<{K}xi64>
{chr(10).join(body.lines)}
  }}
  return
}}
"""
    return text.replace("{NCOLS}", str(body.k))


def int_program(t: str) -> tuple[str, int]:
    w = _width(t)
    b = Body()
    if t == "i64":
        b.add("%x = arith.addi %x64, %x64 : i64")  # exercise wrap; x = 2*X
        b.add("%y = arith.subi %y64, %x64 : i64")
    elif t == "index":
        b.add("%x = arith.index_cast %x64 : i64 to index")
        b.add("%y = arith.index_cast %y64 : i64 to index")
    else:
        b.add(f"%x = arith.trunci %x64 : i64 to {t}")
        b.add(f"%y = arith.trunci %y64 : i64 to {t}")
    b.add(f"%zero = arith.constant {_const(0, t)}")
    b.add(f"%one = arith.constant {_const(1, t)}")
    b.add(f"%m1 = arith.constant {_const(-1, t)}")
    b.add(f"%smin = arith.constant {_const(-(1 << (w - 1)), t)}")
    b.add(f"%wc = arith.constant {_const(w, t)}")
    b.add(f"%yz = arith.cmpi eq, %y, %zero : {t}")
    b.add(f"%yd = arith.select %yz, %one, %y : {t}")
    b.add(f"%xs = arith.cmpi eq, %x, %smin : {t}")
    b.add(f"%ym = arith.cmpi eq, %yd, %m1 : {t}")
    b.add("%ov = arith.andi %xs, %ym : i1")
    b.add(f"%xd = arith.select %ov, %zero, %x : {t}")
    b.add(f"%n = arith.remui %y, %wc : {t}" if w > 1 else f"%n = arith.xori %y, %y : {t}")
    for op in BIN_INT:
        r = b.tmp()
        b.add(f"{r} = arith.{op} %x, %y : {t}")
        b.store(r, t)
    for op in UNARY_INT if t != "index" else ():
        r = b.tmp()
        b.add(f"{r} = math.{op} %x : {t}")
        b.store(r, t)
    for op in DIV_INT:
        r = b.tmp()
        b.add(f"{r} = arith.{op} %xd, %yd : {t}")
        b.store(r, t)
    for op in SHIFTS:
        r = b.tmp()
        b.add(f"{r} = arith.{op} %x, %n : {t}")
        b.store(r, t)
    for p in CMPI:
        r = b.tmp()
        b.add(f"{r} = arith.cmpi {p}, %x, %y : {t}")
        b.store(r, "i1", signed=False)
    r = b.tmp()
    b.add(f"{r} = arith.select %xs, %x, %y : {t}")
    b.store(r, t)
    if t != "index":
        for op in ("index_cast", "index_castui"):
            r = b.tmp()
            b.add(f"{r} = arith.{op} %x : {t} to index")
            b.store(r, "index")
        b.store("%x", t, signed=False)
        for narrow in ("i1", "i5"):
            if _width(narrow) < w:
                r = b.tmp()
                b.add(f"{r} = arith.trunci %x : {t} to {narrow}")
                b.store(r, narrow)
        for ft in ("f16", "bf16", "f32", "f64"):
            for op in ("sitofp", "uitofp"):
                r = b.tmp()
                b.add(f"{r} = arith.{op} %x : {t} to {ft}")
                b.store(r, ft)
    else:
        for it in ("i32", "i1"):
            for op in ("index_cast", "index_castui"):
                r = b.tmp()
                b.add(f"{r} = arith.{op} %x : index to {it}")
                b.store(r, it)
    return program(b), b.k


FLOATS = ["f16", "bf16", "f32", "f64"]
BITS = {"f16": "i16", "bf16": "i16", "f32": "i32", "f64": "i64"}
CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno",
        "true"]


def float_program(t: str) -> tuple[str, int]:
    bt = BITS[t]
    b = Body()
    for v in ("x", "y"):
        if bt == "i64":
            b.add(f"%{v} = arith.bitcast %{v}64 : i64 to {t}")
        else:
            b.add(f"%{v}b = arith.trunci %{v}64 : i64 to {bt}")
            b.add(f"%{v} = arith.bitcast %{v}b : {bt} to {t}")
    for op in ("addf", "subf", "mulf", "divf", "minimumf", "maximumf", "minnumf", "maxnumf"):
        r = b.tmp()
        b.add(f"{r} = arith.{op} %x, %y : {t}")
        b.store(r, t)
    for op in ("math.copysign", "arith.remf"):
        r = b.tmp()
        b.add(f"{r} = {op} %x, %y : {t}")
        b.store(r, t)
    if t != "f64":
        r = b.tmp()
        b.add(f"{r} = math.fma %x, %y, %y : {t}")
        b.store(r, t)
        r = b.tmp()
        b.add(f"{r} = math.fma %y, %x, %x : {t}")
        b.store(r, t)
    for op in ("isnan", "isinf", "isfinite", "isnormal"):
        r = b.tmp()
        b.add(f"{r} = math.{op} %x : {t}")
        b.store(r, "i1", signed=False)
    r = b.tmp()
    b.add(f"{r} = arith.negf %x : {t}")
    b.store(r, t)
    for op in ("absf", "sqrt", "floor", "ceil", "trunc", "round", "roundeven", *LIBM_UNARY):
        r = b.tmp()
        b.add(f"{r} = math.{op} %x : {t}")
        b.store(r, t)
    for op in LIBM_BINARY:
        r = b.tmp()
        b.add(f"{r} = math.{op} %x, %y : {t}")
        b.store(r, t)
    for p in CMPF:
        r = b.tmp()
        b.add(f"{r} = arith.cmpf {p}, %x, %y : {t}")
        b.store(r, "i1", signed=False)
    c = b.tmp()
    b.add(f"{c} = arith.cmpf olt, %x, %y : {t}")
    r = b.tmp()
    b.add(f"{r} = arith.select {c}, %x, %y : {t}")
    b.store(r, t)
    wider = {"f16": ["f32", "f64"], "bf16": ["f32", "f64"], "f32": ["f64"], "f64": []}[t]
    narrower = {"f16": [], "bf16": [], "f32": ["f16", "bf16"], "f64": ["f32", "f16", "bf16"]}[t]
    for d in wider:
        r = b.tmp()
        b.add(f"{r} = arith.extf %x : {t} to {d}")
        b.store(r, d)
    for d in narrower:
        r = b.tmp()
        b.add(f"{r} = arith.truncf %x : {t} to {d}")
        b.store(r, d)
    for it in ("i1", "i8", "i16", "i32", "i33", "i64"):
        for op, signed in (("fptosi", True), ("fptoui", False)):
            r = b.tmp()
            b.add(f"{r} = arith.{op} %x : {t} to {it}")
            b.store(r, it, signed=signed)
    return program(b), b.k


# ------------------------------------------------------------------------------------------------ tests
@pytest.mark.parametrize("t", INT_TYPES)
def test_integer_ops_bit_identical(t):
    src, ncols = int_program(t)
    for seed in (1, 2):
        x, y = int_inputs(seed), int_inputs(seed + 100)
        r = np.zeros((K, ncols), np.int64)
        same_both_ways(src, [x, y, r])


def test_integer_ops_match_python_semantics():
    """Independent check of a few i8 results (two's complement worked out with Python integers)."""
    src, ncols = int_program("i8")
    x = np.array([127, -128, 100, -7, 5] + [0] * (K - 5), np.int64)
    y = np.array([1, -1, 100, 2, 0] + [1] * (K - 5), np.int64)
    fast = run_mode(src, "fast", [x, y, np.zeros((K, ncols), np.int64)])
    assert fast["runs"] == 1
    R = fast["args"][2].view(np.int64).reshape(K, ncols)
    assert R[0, BIN_INT.index("addi")] == -128  # 127 + 1 wraps
    assert R[1, BIN_INT.index("subi")] == -127  # -128 - -1
    assert R[2, BIN_INT.index("muli")] == 16  # 10000 mod 256
    assert R[1, BIN_INT.index("minui")] == -128  # 0x80 < 0xFF unsigned
    assert R[1, len(BIN_INT) + UNARY_INT.index("absi")] == -128  # |INT8_MIN| wraps to itself
    assert R[2, len(BIN_INT) + UNARY_INT.index("ctlz")] == 1  # 100 = 0b01100100
    assert R[2, len(BIN_INT) + UNARY_INT.index("cttz")] == 2
    assert R[2, len(BIN_INT) + UNARY_INT.index("ctpop")] == 3
    d = len(BIN_INT) + len(UNARY_INT)
    assert R[3, d + DIV_INT.index("divsi")] == -3  # trunc(-7 / 2)
    assert R[3, d + DIV_INT.index("floordivsi")] == -4
    assert R[3, d + DIV_INT.index("remsi")] == -1
    assert R[3, d + DIV_INT.index("divui")] == 124  # 249 // 2
    assert R[1, d + DIV_INT.index("divsi")] == 0  # -128 / -1 is guarded to 0 / -1
    assert R[4, d + DIV_INT.index("divsi")] == 5  # y = 0 guarded to 1


@pytest.mark.parametrize("t", FLOATS)
def test_float_ops_bit_identical(t):
    src, ncols = float_program(t)
    for seed in (3, 4):
        x, y = float_inputs(seed, t), float_inputs(seed + 100, t)
        r = np.zeros((K, ncols), np.int64)
        same_both_ways(src, [x, y, r])


def test_f32_arithmetic_is_single_precision():
    """Sums in f32 really round to f32 at every step (a float64 accumulation gives another result) and
    a*b+c is not contracted into an FMA; expected values from numpy float32."""
    src = """func.func @main(%X: memref<64xf32>, %R: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0.0 : f32
  %s:2 = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %z, %acc2 = %z) -> (f32, f32) {
    %x = memref.load %X[%i] : memref<64xf32>
    %a = arith.addf %acc, %x : f32
    %p = arith.mulf %x, %x : f32
    %q = arith.addf %p, %acc2 : f32
    scf.yield %a, %q : f32, f32
  }
  memref.store %s#0, %R[%c0] : memref<2xf32>
  memref.store %s#1, %R[%c1] : memref<2xf32>
  return
}
"""
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(64) * 1000).astype(np.float32) + np.float32(1e-3)
    acc = np.float32(0)
    acc2 = np.float32(0)
    for v in x:
        acc = np.float32(acc + v)
        acc2 = np.float32(np.float32(v * v) + acc2)
    acc64 = np.float32(sum(float(v) for v in x))
    fast = same_both_ways(src, [x, np.zeros(2, np.float32)])
    got = fast["args"][1].view(np.float32)
    assert got[0] == acc and got[1] == acc2
    assert acc != acc64  # the data distinguishes f32 from f64 accumulation


def test_f16_rounding_ties_match_numpy():
    """f32 -> f16 and f32 -> bf16 at exact midpoints round to even (expected from numpy/ml_dtypes)."""
    src = """func.func @main(%X: memref<8xf32>, %H: memref<8xf16>, %B: memref<8xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %X[%i] : memref<8xf32>
    %h = arith.truncf %x : f32 to f16
    %b = arith.truncf %x : f32 to bf16
    memref.store %h, %H[%i] : memref<8xf16>
    memref.store %b, %B[%i] : memref<8xbf16>
  }
  return
}
"""
    x = np.array([1 + 2 ** -11, 1 + 3 * 2 ** -11, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 65520.0, -(2 ** -25), 2 ** -24 * 1.5,
                  float("nan")], np.float32)
    fast = same_both_ways(src, [x, np.zeros(8, np.float16), np.zeros(8, ml_dtypes.bfloat16)])
    h = fast["args"][1].view(np.float16)
    bf = fast["args"][2].view(ml_dtypes.bfloat16)
    with np.errstate(all="ignore"):
        assert h.view(np.uint16).tolist() == x.astype(np.float16).view(np.uint16).tolist()
        assert bf.view(np.uint16).tolist() == x.astype(ml_dtypes.bfloat16).view(np.uint16).tolist()
    # by hand: ties go to the even neighbour, 65520 = 65504 + half an ulp overflows, -2^-25 underflows to -0
    assert h[:2].tolist() == [1.0, 1 + 2 * 2 ** -10] and h[4] == np.inf and np.signbit(h[5]) and h[5] == 0
    assert bf[2] == 1.0 and bf[3] == 1 + 4 * 2 ** -8


TF32_NEST = """func.func @main(%X: memref<192xf32>, %Y: memref<192xf64>, %T: memref<192xtf32>, %U: memref<192xtf32>,
                 %E: memref<192xf32>, %F: memref<192xf64>, %S: memref<1xtf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c192 = arith.constant 192 : index
  %big = arith.constant 1.5 : tf32
  %r = scf.for %i = %c0 to %c192 step %c1 iter_args(%m = %big) -> (tf32) {
    %x = memref.load %X[%i] : memref<192xf32>
    %t = arith.truncf %x : f32 to tf32
    memref.store %t, %T[%i] : memref<192xtf32>
    %y = memref.load %Y[%i] : memref<192xf64>
    %u = arith.truncf %y : f64 to tf32
    memref.store %u, %U[%i] : memref<192xtf32>
    %back = memref.load %T[%i] : memref<192xtf32>
    %e = arith.extf %back : tf32 to f32
    memref.store %e, %E[%i] : memref<192xf32>
    %f = arith.extf %u : tf32 to f64
    memref.store %f, %F[%i] : memref<192xf64>
    %lt = arith.cmpf olt, %e, %x : f32
    %n = arith.select %lt, %back, %m : tf32
    scf.yield %n : tf32
  }
  memref.store %r, %S[%c0] : memref<1xtf32>
  return
}
"""


def test_tf32_conversions_bit_identical():
    """tf32 in compiled nests (memory, truncf from f32/f64, extf to f32/f64, select, a loop-carried value, a
    constant): the same bits as the interpreter, and as conversions.round_float / extend_float computed on the
    inputs here (NaN payloads, subnormals, ties of both parities, overflow)."""
    ties = np.array([b | low for b in (0x3F800000, 0x3F802000, 0x00002000, 0x7F7FE000, 0xBF7FE000)
                     for low in (0x0FFF, 0x1000, 0x1001)], np.uint32)
    x = float_inputs(41, "f32").astype(np.uint32)
    x[:len(ties)] = ties
    x = x.view(np.float32)
    y = float_inputs(42, "f64").view(np.float64)
    z32 = np.zeros(K, np.float32)
    fast = same_both_ways(TF32_NEST, [x, y, z32, z32, z32, np.zeros(K, np.float64), np.zeros(1, np.float32)])
    t, u = fast["args"][2].view(np.uint32), fast["args"][3].view(np.uint32)
    assert t.tolist() == C.round_float(x, "tf32").view(np.uint32).tolist()
    assert u.tolist() == C.round_float(y, "tf32").view(np.uint32).tolist()
    assert not (t & 0x1FFF).any() and not (u & 0x1FFF).any()
    tv = C.round_float(x, "tf32")
    assert fast["args"][4].view(np.uint32).tolist() == C.extend_float(tv, "f32").view(np.uint32).tolist()
    assert fast["args"][5].view(np.uint64).tolist() == C.extend_float(C.round_float(y, "tf32"), "f64") \
        .view(np.uint64).tolist()
    # the ties by hand: 1 + 2^-11 (half an ulp) rounds to 1 (even), 1 + 3 * 2^-11 up to 1 + 2^-9, the largest
    # finite value plus half an ulp overflows
    assert t[1] == 0x3F800000 and t[4] == 0x3F804000 and t[10] == 0x7F800000


def test_tf32_arithmetic_stays_in_the_interpreter():
    """Arithmetic on tf32 is not compiled (only memory, conversions and select are): the nest is interpreted."""
    src = TF32_NEST.replace("%e = arith.extf %back : tf32 to f32", "%tt = arith.addf %back, %back : tf32\n"
                            "    %e = arith.extf %tt : tf32 to f32")
    assert "arith.addf" in src
    module = parse_source(src, "t.mlir")
    root = next(op for op in module.walk() if op.name == "scf.for")
    with pytest.raises(codegen.Unsupported, match="addf"):
        codegen.generate(root)
    assert codegen.generate(next(op for op in parse_source(TF32_NEST, "t.mlir").walk() if op.name == "scf.for"))


def test_saturating_conversions_match_rule():
    """fptosi/fptoui saturate and map NaN to 0 (conversions.FPTOINT_RULE), values worked out by hand."""
    src = """func.func @main(%X: memref<6xf32>, %S: memref<6xi8>, %U: memref<6xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.for %i = %c0 to %c6 step %c1 {
    %x = memref.load %X[%i] : memref<6xf32>
    %s = arith.fptosi %x : f32 to i8
    %u = arith.fptoui %x : f32 to i8
    memref.store %s, %S[%i] : memref<6xi8>
    memref.store %u, %U[%i] : memref<6xi8>
  }
  return
}
"""
    x = np.array([300.5, -300.0, float("nan"), -1.5, 127.9, float("inf")], np.float32)
    fast = same_both_ways(src, [x, np.zeros(6, np.int8), np.zeros(6, np.int8)])
    assert fast["args"][1].view(np.int8).tolist() == [127, -128, 0, -1, 127, 127]
    assert fast["args"][2].view(np.uint8).tolist() == [255, 0, 0, 0, 127, 255]


def test_float_constants_and_nan_payloads_survive():
    """Constants are not folded by LLVM: 0/0 gives the interpreter's (x86 default) NaN; NaN payloads pass
    through negation unchanged apart from the sign."""
    src = """func.func @main(%R: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %p = arith.constant 0x7FC12345 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %q = arith.divf %z, %z : f32
    %n = arith.negf %p : f32
    %a = arith.addf %p, %z : f32
    %c2 = arith.constant 2 : index
    %lt = arith.cmpi ult, %i, %c2 : index
    %v = arith.select %lt, %q, %n : f32
    %c3 = arith.constant 3 : index
    %is3 = arith.cmpi eq, %i, %c3 : index
    %w = arith.select %is3, %a, %v : f32
    memref.store %w, %R[%i] : memref<4xf32>
  }
  return
}
"""
    fast = same_both_ways(src, [np.zeros(4, np.float32)])
    bits = fast["args"][0].view(np.uint32).tolist()
    assert bits == [0xFFC00000, 0xFFC00000, 0xFFC12345, 0x7FC12345]


# ------------------------------------------------------------------------------------------------ faults
FAULT_TEMPLATE = """func.func @main(%X: memref<8xi32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
{pre}  %r = scf.for %i = %c0 to {ub} step %c1 iter_args(%acc = %z) -> (i32) {{
{body}
    scf.yield %s : i32
  }}
  vector.print %r : i32
  return
}}
"""


@pytest.mark.parametrize("case,message", [
    ("div", "division by zero"),
    ("sdiv_ov", "signed division overflow: -2147483648 / -1 does not fit in i32"),
    ("shift", "shift amount 32 is not less than the bit width 32"),
    ("nsw", "signed overflow in addi with overflow<nsw> (poison in MLIR): result 2147483648 does not fit in i32"),
    ("oob", "index 8 is out of bounds for dimension 0 of size 8"),
    ("step", "step must be positive, got 0"),
])
def test_faults_are_located_and_identical(case, message):
    """A fault inside a compiled nest gives the interpreter's message at the faulting op's location, after
    exactly the stores that precede it."""
    pre = "  %z = arith.constant 0 : i32\n"
    ub = "%c8"
    body = ["    %v = memref.load %X[%i] : memref<8xi32>", "    %ii = arith.index_cast %i : index to i32",
            "    memref.store %ii, %X[%i] : memref<8xi32>"]
    if case == "div":
        body += ["    %c5 = arith.constant 5 : i32", "    %d = arith.subi %c5, %ii : i32",
                 "    %q = arith.divsi %v, %d : i32", "    %s = arith.addi %acc, %q : i32"]
    elif case == "sdiv_ov":
        body += ["    %m = arith.constant -2147483648 : i32", "    %m1 = arith.constant -1 : i32",
                 "    %c3 = arith.constant 3 : i32", "    %is3 = arith.cmpi eq, %ii, %c3 : i32",
                 "    %d = arith.select %is3, %m1, %c3 : i32", "    %q = arith.divsi %m, %d : i32",
                 "    %s = arith.addi %acc, %q : i32"]
    elif case == "shift":
        body += ["    %c29 = arith.constant 29 : i32", "    %n = arith.addi %ii, %c29 : i32",
                 "    %q = arith.shli %v, %n : i32", "    %s = arith.addi %acc, %q : i32"]
    elif case == "nsw":
        body += ["    %big = arith.constant 2147483645 : i32", "    %q = arith.addi %big, %ii overflow<nsw> : i32",
                 "    %s = arith.addi %acc, %q : i32"]
    elif case == "oob":
        ub = "%c9"
        pre += "  %c9 = arith.constant 9 : index\n"
        body = body[:1] + ["    %s = arith.addi %acc, %v : i32"] + body[1:]
    else:
        pre += "  %c0s = arith.muli %c0, %c8 : index\n"
        body = ["    scf.for %j = %c0 to %c8 step %c0s {", "    }"] + body[1:] + ["    %s = arith.addi %acc, %ii : i32"]
    src = FAULT_TEMPLATE.format(pre=pre, ub=ub, body="\n".join(body))
    x = np.arange(8, dtype=np.int32) * 10 + 1
    fast = same_both_ways(src, [x])
    assert fast["fault"] is not None and message in fast["fault"]
    line = fast["fault"].split(":")[1]
    faulting = {"div": "arith.divsi", "sdiv_ov": "arith.divsi", "shift": "arith.shli", "nsw": "overflow<nsw>",
                "oob": "memref.load", "step": "scf.for %j"}[case]
    assert faulting in src.splitlines()[int(line) - 1]


def test_fault_keeps_earlier_stores():
    src = FAULT_TEMPLATE.format(pre="  %z = arith.constant 0 : i32\n  %c9 = arith.constant 9 : index\n", ub="%c9", body="""\
    %ii = arith.index_cast %i : index to i32
    %sq = arith.muli %ii, %ii : i32
    memref.store %sq, %X[%i] : memref<8xi32>
    %s = arith.addi %acc, %ii : i32""")
    fast = same_both_ways(src, [np.zeros(8, np.int32)])
    assert fast["args"][0].view(np.int32).tolist() == [i * i for i in range(8)]
    assert "index 8 is out of bounds for dimension 0 of size 8" in fast["fault"]


# ------------------------------------------------------------------------------------------------ structure
NEST = """func.func @main(%A: memref<6x5xf16>, %B: memref<5x4xbf16>, %C: memref<6x4xf32>, %D: memref<3x2xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %t = arith.constant 2.5 : f32
  %sub = memref.subview %C[1, 1] [3, 2] [2, 1] : memref<6x4xf32> to memref<3x2xf32, strided<[8, 1], offset: 5>>
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %c = memref.load %C[%i, %j] : memref<6x4xf32>
      %r:2 = scf.for %k = %c0 to %c5 step %c1 iter_args(%acc = %c, %cnt = %c0) -> (f32, index) {
        %a = memref.load %A[%i, %k] : memref<6x5xf16>
        %b = memref.load %B[%k, %j] : memref<5x4xbf16>
        %ae = arith.extf %a : f16 to f32
        %be = arith.extf %b : bf16 to f32
        %p = arith.mulf %ae, %be : f32
        %big = arith.cmpf ogt, %p, %t : f32
        %n:2 = scf.if %big -> (f32, index) {
          %s = arith.addf %acc, %p : f32
          %one = arith.addi %cnt, %c1 : index
          scf.yield %s, %one : f32, index
        } else {
          %s = arith.subf %acc, %p : f32
          scf.yield %s, %cnt : f32, index
        }
        scf.yield %n#0, %n#1 : f32, index
      }
      memref.store %r#0, %C[%i, %j] : memref<6x4xf32>
      %cnt16 = arith.index_cast %r#1 : index to i16
      %di = arith.remui %i, %c2 : index
      %dj = arith.remui %j, %c2 : index
      %di3 = arith.divui %i, %c2 : index
      memref.store %cnt16, %D[%di3, %dj] : memref<3x2xi16>
    }
  }
  scf.for %i = %c0 to %c6 step %c2 {
    %i2 = arith.divui %i, %c2 : index
    scf.for %j = %c0 to %c2 step %c1 {
      %v = memref.load %sub[%i2, %j] : memref<3x2xf32, strided<[8, 1], offset: 5>>
      %h = arith.truncf %v : f32 to f16
      %e = arith.extf %h : f16 to f32
      memref.store %e, %sub[%i2, %j] : memref<3x2xf32, strided<[8, 1], offset: 5>>
    }
  }
  return
}
"""


def test_nested_loops_if_iter_args_and_strided_memrefs():
    rng = np.random.default_rng(11)
    a = (rng.standard_normal((6, 5)) * 3).astype(np.float16)
    b = (rng.standard_normal((5, 4)) * 3).astype(ml_dtypes.bfloat16)
    c = rng.standard_normal((6, 4)).astype(np.float32)
    fast = same_both_ways(NEST, [a, b, c, np.zeros((3, 2), np.int16)], min_runs=2)
    # independent check of the first loop nest's C[0][0] (numpy float32, same operation order)
    acc = c[0, 0]
    for k in range(5):
        p = np.float32(np.float32(a[0, k]) * np.float32(b[k, 0]))
        acc = np.float32(acc + p) if p > 2.5 else np.float32(acc - p)
    assert fast["args"][2].view(np.float32)[0] == acc


def test_unsupported_nest_falls_back_and_inner_loops_compile():
    """A vector.print in the outer loop keeps it in the interpreter; the inner nest is compiled."""
    src = """func.func @main(%X: memref<4x4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (index) {
      %p = arith.muli %i, %j : index
      %pi = arith.index_cast %p : index to i32
      memref.store %pi, %X[%i, %j] : memref<4x4xi32>
      %a = arith.addi %acc, %p : index
      scf.yield %a : index
    }
    vector.print %s : index
  }
  return
}
"""
    fast = same_both_ways(src, [np.zeros((4, 4), np.int32)], min_runs=4)
    assert fast["out"] == "0\n6\n12\n18\n"
    assert with_nest(src) is None  # the outer loop is not compilable
    assert fast["args"][0].view(np.int32).reshape(4, 4).tolist() == [[i * j for j in range(4)] for i in range(4)]


def with_nest(src: str):
    module = parse_source(src, "t.mlir")
    root = next(op for op in module.walk() if op.name == "scf.for")
    try:
        return codegen.generate(root)
    except codegen.Unsupported:
        return None


def test_both_mode_passes_and_detects_a_difference(monkeypatch):
    rng = np.random.default_rng(5)
    args = [(rng.standard_normal((6, 5))).astype(np.float16), rng.standard_normal((5, 4)).astype(ml_dtypes.bfloat16),
            rng.standard_normal((6, 4)).astype(np.float32), np.zeros((3, 2), np.int16)]
    res = run_mode(NEST, "both", args)
    assert res["fault"] is None and res["checked"] == 2
    # break the compiled code on purpose: subtraction becomes addition
    orig = codegen._Gen.g_float_binary

    def wrong(self, op, ind):
        if op.name == "arith.subf":
            op = type("Fake", (), {"name": "arith.addf", "operands": op.operands, "results": op.results})()
        return orig(self, op, ind)

    monkeypatch.setitem(codegen._OPS, "arith.subf", wrong)
    res = run_mode(NEST, "both", args)
    assert res["fault"] is not None
    assert "engines differ in this loop nest" in res["fault"] and "%C[" in res["fault"]
    assert "(reference) vs" in res["fault"]


def test_engine_mode_validation(monkeypatch):
    monkeypatch.setenv("XESIM_ENGINE", "turbo")
    module = parse_source("func.func @main() {\n  return\n}\n", "t.mlir")
    with pytest.raises(DiagnosticError, match="XESIM_ENGINE"):
        make_engine(module)


def test_cache_files_are_content_addressed(tmp_path, monkeypatch):
    monkeypatch.setenv("XESIM_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(runner, "_DISPATCHERS", {})
    src, ncols = int_program("i16")
    nest = with_nest(src)
    assert nest is not None
    disp = runner.load_dispatcher(nest.body)
    files = list((tmp_path / "jit").glob("n_*.py"))
    assert len(files) == 1 and runner.runtime_digest() in files[0].read_text()
    stamp = files[0].stat().st_mtime_ns
    assert runner.load_dispatcher(nest.body) is disp
    runner._DISPATCHERS.clear()
    runner.load_dispatcher(nest.body)
    assert files[0].stat().st_mtime_ns == stamp  # never rewritten: numba's cache stays valid


def test_kernel_loops_are_not_compiled():
    src = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      scf.for %i = %c0 to %c4 step %c1 {
        %v = arith.constant 1.0 : f32
        memref.store %v, %m[%i] : memref<4xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}
"""
    from xesim.exec import jit

    module = parse_source(src, "t.mlir")
    loop = next(op for op in module.walk() if op.name == "scf.for")
    assert jit._in_kernel(loop)


def test_memory_element_types_ranks_and_dim():
    """i1 (bytes), index, f64, rank-0 and rank-3 memrefs, dynamic sizes read with memref.dim in the nest."""
    src = """func.func @main(%B: memref<5xi1>, %I: memref<5xindex>, %D: memref<2x3x5xf64>, %S: memref<f64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %dyn = memref.cast %D : memref<2x3x5xf64> to memref<?x3x?xf64>
  scf.for %i = %c0 to %c2 step %c1 {
    %n = memref.dim %dyn, %c2 : memref<?x3x?xf64>
    scf.for %j = %c0 to %c3 step %c1 {
      scf.for %k = %c0 to %n step %c1 {
        %b = memref.load %B[%k] : memref<5xi1>
        %x = memref.load %I[%k] : memref<5xindex>
        %s = memref.load %S[] : memref<f64>
        %ij = arith.muli %i, %j : index
        %v = arith.addi %x, %ij : index
        %vi = arith.index_cast %v : index to i64
        %vf = arith.sitofp %vi : i64 to f64
        %w = arith.mulf %vf, %s : f64
        %neg = arith.negf %w : f64
        %r = arith.select %b, %w, %neg : f64
        memref.store %r, %dyn[%i, %j, %k] : memref<?x3x?xf64>
        %nb = arith.xori %b, %b : i1
        memref.store %nb, %B[%k] : memref<5xi1>
        memref.store %r, %S[] : memref<f64>
      }
    }
  }
  return
}
"""
    b = np.array([True, False, True, True, False])
    idx = np.array([-3, 7, 1 << 40, -(1 << 62), 0], np.int64)
    fast = same_both_ways(src, [b, idx, np.zeros((2, 3, 5)), np.array(0.5)])
    assert not fast["args"][0].view(np.bool_).any()


def test_descriptor_outside_its_allocation_runs_in_the_interpreter():
    """A reinterpret_cast view reaching past its buffer: the compiled code would not check the linear
    address, so that execution is interpreted and faults as the interpreter does."""
    src = """func.func @main(%A: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v = arith.constant 2.0 : f32
  %r = memref.reinterpret_cast %A to offset: [6], sizes: [4], strides: [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 6>>
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %v, %r[%i] : memref<4xf32, strided<[1], offset: 6>>
  }
  return
}
"""
    ref = run_mode(src, "reference", [np.zeros(8, np.float32)])
    before = runner.STATS["fallbacks"]
    fast = run_mode(src, "fast", [np.zeros(8, np.float32)])
    assert runner.STATS["fallbacks"] == before + 1
    assert fast["fault"] == ref["fault"] and "outside" in fast["fault"]
    assert fast["args"][0].view(np.float32).tolist() == [0, 0, 0, 0, 0, 0, 2, 2]


def test_index_dialect_ops():
    ops = ["add", "sub", "mul", "divs", "divu", "ceildivs", "ceildivu", "floordivs", "rems", "remu", "maxs", "maxu",
           "mins", "minu", "and", "or", "xor"]
    body = ["    %x = index.casts %x64 : i64 to index", "    %y0 = index.castu %y64 : i64 to index",
            "    %one = index.constant 1", "    %z = index.bool.constant false", "    %zero = index.constant 0",
            "    %isz = index.cmp eq(%y0, %zero)", "    %y = arith.select %isz, %one, %y0 : index",
            "    %m1 = index.constant -1", "    %ism1 = index.cmp eq(%y, %m1)", "    %y2 = arith.select %ism1, %one, %y : index",
            "    %c63 = index.constant 63", "    %n = index.and %y0, %c63"]
    col = 0
    for op in ops:
        body.append(f"    %r{col} = index.{op} %x, %y2")
        col += 1
    for op in ("shl", "shrs", "shru"):
        body.append(f"    %r{col} = index.{op} %x, %n")
        col += 1
    for p in ("slt", "ule", "ne"):
        body.append(f"    %b{col} = index.cmp {p}(%x, %y)")
        body.append(f"    %r{col} = arith.select %b{col}, %one, %zero : index")
        col += 1
    for c in range(col):
        body.append(f"    %k{c} = index.constant {c}")
        body.append(f"    %s{c} = index.casts %r{c} : index to i64")
        body.append(f"    memref.store %s{c}, %R[%i, %k{c}] : memref<{K}x{col}xi64>")
    b = Body()
    b.lines = body
    b.k = col
    src = program(b)
    for seed in (21, 22):
        same_both_ways(src, [int_inputs(seed), int_inputs(seed + 1), np.zeros((K, col), np.int64)])


def test_libm_functions_in_a_compiled_loop_are_the_hosts_rounded_once():
    """A host loop with math.exp, math.log, math.tanh, math.powf and math.atan2 on f32 is compiled (not left to
    the interpreter), gives the interpreter's bits, and each value is CPython's ``math`` function (the C
    library's) of the exactly widened operands, rounded once to f32."""
    src = """func.func @main(%X: memref<64xf32>, %Y: memref<64xf32>, %R: memref<64x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 64 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %X[%i] : memref<64xf32>
    %y = memref.load %Y[%i] : memref<64xf32>
    %e = math.exp %x : f32
    %l = math.log %y : f32
    %t = math.tanh %x : f32
    %p = math.powf %y, %x : f32
    %a = math.atan2 %x, %y : f32
    memref.store %e, %R[%i, %c0] : memref<64x5xf32>
    memref.store %l, %R[%i, %c1] : memref<64x5xf32>
    memref.store %t, %R[%i, %c2] : memref<64x5xf32>
    memref.store %p, %R[%i, %c3] : memref<64x5xf32>
    memref.store %a, %R[%i, %c4] : memref<64x5xf32>
  }
  return
}
"""
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(64) * 20).astype(np.float32)
    y = rng.uniform(0.01, 50, 64).astype(np.float32)
    fast = same_both_ways(src, [x, y, np.zeros((64, 5), np.float32)])
    got = fast["args"][2].view(np.float32).reshape(64, 5)
    for i in range(64):
        xf, yf = float(x[i]), float(y[i])
        want = [math.exp(xf) if xf < 700 else math.inf, math.log(yf), math.tanh(xf), math.pow(yf, xf),
                math.atan2(xf, yf)]
        with np.errstate(over="ignore"):
            np.testing.assert_array_equal(got[i].view(np.uint32), np.array(want, np.float64).astype(np.float32)
                                          .view(np.uint32))
