"""The scalar rule table: which rules define each op (:data:`xesim.numerics.scalar_rules.OP_RULES`) and which
rules each engine actually used for it (``tools/rule_table.py``; ``tests/unit/test_rule_table.py``).

Both engines obtain rules only through :func:`xesim.numerics.scalar_rules.lookup`, which records the use;
:func:`engine_usage` runs a program under ``XESIM_ENGINE=both`` (one compiled loop nest holding every op the
compiler supports, on every type) and returns, per op, the rules the interpreter's steps and the compiled code
were built from -- the same function objects, so the two sets must be equal.
"""

from __future__ import annotations

import io
from typing import Any

from xesim.numerics import mathfuncs as M  # noqa: N812 - short alias
from xesim.numerics import scalar_rules as R  # noqa: N812 - short alias

INT_BINARY = ["addi", "subi", "muli", "andi", "ori", "xori", "minsi", "maxsi", "minui", "maxui", "shli", "shrsi",
              "shrui"]
INT_DIV = ["divsi", "divui", "ceildivsi", "ceildivui", "floordivsi", "remsi", "remui"]
INDEX_BINARY = ["add", "sub", "mul", "divs", "divu", "ceildivs", "ceildivu", "floordivs", "rems", "remu", "maxs",
                "maxu", "mins", "minu", "shl", "shrs", "shru", "and", "or", "xor"]
FLOATS = ["f16", "bf16", "f32", "f64"]


def table() -> list[tuple[str, list[str], list[str]]]:
    """(op, rule names, notes) for every op of the table."""
    out = []
    for op, names in sorted(R.OP_RULES.items()):
        notes = [R.OP_NOTES[op]] if op in R.OP_NOTES else []
        out.append((op, list(names), notes + [f"{n}: {R.NOTES[n]}" for n in names if n in R.NOTES]))
    return out


def sample_program() -> str:
    """One ``scf.for`` loop nest with every scalar op compiled loops support, on i1/i8/i32/i64/index and
    f16/bf16/f32/f64 values loaded from memory (divisors and shift amounts are constants that cannot fault)."""
    lines: list[str] = []
    n = [0]

    def v(expr: str, ty: str) -> str:
        n[0] += 1
        name = f"%v{n[0]}"
        lines.append(f"      {name} = {expr} : {ty}")
        return name

    def raw(text: str) -> str:
        n[0] += 1
        name = f"%v{n[0]}"
        lines.append(f"      {name} = {text}")
        return name

    xi = raw("memref.load %X[%i] : memref<16xi64>")
    yi = raw("memref.load %Y[%i] : memref<16xi64>")
    ints = {"i64": (xi, yi)}
    for t in ("i32", "i8", "i1"):
        ints[t] = (raw(f"arith.trunci {xi} : i64 to {t}"), raw(f"arith.trunci {yi} : i64 to {t}"))
    ints["index"] = (raw(f"arith.index_cast {xi} : i64 to index"), raw(f"arith.index_cast {yi} : i64 to index"))
    consts = {t: (raw(f"arith.constant 3 : {t}") if t != "i1" else raw("arith.constant 1 : i1")) for t in ints}
    amount = {t: (raw(f"arith.constant 2 : {t}") if t != "i1" else raw("arith.constant 0 : i1")) for t in ints}
    for t, (x, y) in ints.items():
        for op in INT_BINARY:
            rhs = amount[t] if op.startswith("sh") else y
            v(f"arith.{op} {x}, {rhs}", t)
        for op in INT_DIV:
            if t == "i1" and op in ("divsi", "ceildivsi", "floordivsi", "remsi"):
                continue  # the only non-zero i1 divisor reads -1: -1 / -1 overflows
            v(f"arith.{op} {x}, {consts[t]}", t)
        for pred in ("eq", "slt", "uge"):
            raw(f"arith.cmpi {pred}, {x}, {y} : {t}")
        if t != "index":
            for op in ("absi", "ctlz", "cttz", "ctpop"):
                v(f"math.{op} {x}", t)
    x32, y32 = ints["i32"]
    c = raw(f"arith.cmpi slt, {x32}, {y32} : i32")
    v(f"arith.select {c}, {x32}, {y32}", "i32")
    raw(f"arith.addi {y32}, {consts['i32']} overflow<nsw> : i32")  # |y| < 1000: no overflow
    raw(f"arith.shli {consts['i32']}, {amount['i32']} overflow<nuw> : i32")
    raw(f"arith.extsi {x32} : i32 to i64")
    raw(f"arith.extui {x32} : i32 to i64")
    raw(f"arith.index_castui {x32} : i32 to index")
    raw(f"arith.bitcast {x32} : i32 to f32")
    xx, yx = ints["index"]
    for op in INDEX_BINARY:
        rhs = amount["index"] if op.startswith("sh") else (consts["index"] if op[:3] in ("div", "cei", "flo", "rem")
                                                           else yx)
        raw(f"index.{op} {xx}, {rhs}")
    raw(f"index.cmp ult({xx}, {yx})")
    raw(f"index.casts {xx} : index to i32")
    raw(f"index.castu {xx} : index to i32")
    f32 = raw("memref.load %F[%i] : memref<16xf32>")
    g32 = raw("memref.load %G[%i] : memref<16xf32>")
    fl = {"f32": (f32, g32), "f64": (raw(f"arith.extf {f32} : f32 to f64"), raw(f"arith.extf {g32} : f32 to f64")),
          "f16": (raw(f"arith.truncf {f32} : f32 to f16"), raw(f"arith.truncf {g32} : f32 to f16")),
          "bf16": (raw(f"arith.truncf {f32} : f32 to bf16"), raw(f"arith.truncf {g32} : f32 to bf16"))}
    for t, (a, b) in fl.items():
        for op in ("addf", "subf", "mulf", "divf", "remf", "minimumf", "maximumf", "minnumf", "maxnumf"):
            v(f"arith.{op} {a}, {b}", t)
        v(f"arith.negf {a}", t)
        raw(f"arith.cmpf ult, {a}, {b} : {t}")
        for op in ("absf", "sqrt", "floor", "ceil", "trunc", "roundeven", "round", "exp"):
            v(f"math.{op} {a}", t)
        v(f"math.copysign {a}, {b}", t)
        v(f"math.powf {a}, {b}", t)
        if t == "f32":  # the other libm functions take the same path as exp / powf
            for fn in sorted(M.LIBM_UNARY):
                v(f"math.{fn} {a}", t)
            v(f"math.atan2 {a}, {b}", t)
        if t != "f64":
            v(f"math.fma {a}, {b}, {a}", t)
        for op in ("isnan", "isinf", "isfinite", "isnormal"):
            raw(f"math.{op} {a} : {t}")
        raw(f"arith.fptosi {a} : {t} to i32")
        raw(f"arith.fptoui {a} : {t} to i64")
        raw(f"arith.sitofp {x32} : i32 to {t}")
        raw(f"arith.uitofp {xi} : i64 to {t}")
    raw(f"arith.extf {fl['f16'][0]} : f16 to f32")
    raw(f"arith.extf {fl['f16'][0]} : f16 to f64")
    raw(f"arith.extf {fl['bf16'][0]} : bf16 to f32")
    raw(f"arith.extf {fl['bf16'][0]} : bf16 to f64")
    raw(f"arith.truncf {fl['f64'][0]} : f64 to f32")
    raw(f"arith.truncf {fl['f64'][0]} : f64 to f16")
    raw(f"arith.truncf {fl['f64'][0]} : f64 to bf16")
    raw(f"arith.bitcast {fl['f16'][0]} : f16 to i16")
    body = "\n".join(lines)
    return f"""func.func @main(%X: memref<16xi64>, %Y: memref<16xi64>, %F: memref<16xf32>, %G: memref<16xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {{
{body}
  }}
  return
}}
"""


def engine_usage(src: str | None = None) -> dict[str, tuple[set[str], set[str]]]:
    """Run ``src`` (default: :func:`sample_program`) with ``XESIM_ENGINE=both``; return, per op, the rules the
    interpreter and the compiled code looked up for it."""
    import numpy as np

    from xesim.config import RunConfig
    from xesim.exec.engine import Engine
    from xesim.exec.jit import runner
    from xesim.exec.values import MemRefValue, identity_strides
    from xesim.ir.parser import parse_source
    from xesim.verify.structural import verify_module

    src = src or sample_program()
    saved = {k: set(v) for k, v in R.USAGE.items()}
    R.USAGE.clear()
    try:
        module = parse_source(src, "rule_table.mlir")
        verify_module(module)
        eng = Engine(module, RunConfig(engine="both"), out=io.StringIO())
        func = module.lookup_symbol(("main",))
        rng = np.random.default_rng(1)
        arrays = [rng.integers(-(1 << 62), 1 << 62, 16), rng.integers(-1000, 1000, 16),
                  rng.standard_normal(16).astype(np.float32), (rng.standard_normal(16) * 4).astype(np.float32)]
        args: list[Any] = []
        for arr, barg in zip(arrays, func.regions[0].blocks[0].args):
            a = eng.memory.allocate(arr.nbytes, "host", f"%{barg.name}")
            a.data[:] = np.ascontiguousarray(arr).view(np.uint8).reshape(-1)
            args.append(MemRefValue(eng.memory, a, a.base, 0, arr.shape, identity_strides(arr.shape),
                                    barg.type.element_type))
        before = runner.STATS["checked"]
        eng.run("main", args)
        if runner.STATS["checked"] == before:
            raise RuntimeError("the sample loop nest was not compiled and compared")
        out: dict[str, tuple[set[str], set[str]]] = {}
        for (op, engine), names in R.USAGE.items():
            pair = out.setdefault(op, (set(), set()))
            pair[0 if engine == "interpreter" else 1].update(names)
        return out
    finally:
        R.USAGE.clear()
        R.USAGE.update(saved)


def format_table(usage: dict[str, tuple[set[str], set[str]]] | None = None) -> str:
    """The table as text: per op its rules, and (with ``usage``) what each engine used."""
    rows = []
    for op, names, notes in table():
        line = f"{op:22s} {', '.join(names)}"
        if usage is not None and op in usage:
            i, c = usage[op]
            same = "same" if i == c else "DIFFERENT"
            line += f"\n{'':22s}   interpreter: {', '.join(sorted(i)) or '-'} | compiled: {', '.join(sorted(c)) or '-'}"
            line += f" [{same}]"
        for note in notes:
            line += f"\n{'':22s}   ({note})"
        rows.append(line)
    return "\n".join(rows)
