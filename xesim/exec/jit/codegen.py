"""Loop-nest extraction and code generation: an ``scf.for`` nest becomes the source of one Python function
that numba compiles (``@njit(cache=True, error_model="numpy")``, no fast-math).

A nest is supported when every op inside it is one of the ops handled below, on scalars of supported types
(``index``, signless/signed ``i1``..``i64``, ``f16``, ``bf16``, ``f32``, ``f64``; ``tf32`` for memory access,
``truncf``/``extf`` and ``select`` only, see :data:`CONTAINER_KINDS`) and memrefs of those element types defined
*outside* the nest.  Anything else raises :class:`Unsupported` and the whole nest
runs in the reference interpreter (no partial compilation).

The semantics of every scalar ``arith``/``index``/``math`` op is its rules in
:mod:`xesim.numerics.scalar_rules` -- the functions the interpreter runs -- which the generated code calls by
name (numba compiles them, LLVM inlines them and folds the constant widths and predicates); each is obtained
through :func:`~xesim.numerics.scalar_rules.lookup`, so only the rules registered for the op can be emitted.
What is generated here is plumbing: value representation (integers as int64 in the rules' signless form, f32/f64
as float32/float64, f16/bf16 as their bit patterns widened exactly to float32 for computing), loops, memory
accesses and fault sites.  ``scf``/``memref`` semantics are the interpreter's (``xesim/exec/ops/{scf,memref}.py``).

The generated function ``nest(err, stop, left, <memref args>, <scalar live-ins>, <float constants>)`` returns a
tuple of int64: a status (0; the 1-based number of the *fault site* that failed; or ``-(1 + k)`` when it stopped
in its ``k``-th loop), the steps the run may still take and the root loop's results (floats as bit patterns).
Every loop iteration is a step of the run's budget ``left``, and every ``POLL_COMPILED`` of them the nest reads the
run's stop flag ``stop`` (SIGINT, SIGTERM, the deadline: xesim/exec/guard.py), so a compiled loop of 10^12
iterations stops within a fraction of a second.  A fault site is an op the interpreter may fault on (integer division and
remainder, shifts, overflow flags, memref accesses, a non-positive loop step); on failure the site's
operands are written to ``err`` and the function returns at once, so memory holds exactly the stores
that preceded the fault -- as in the interpreter.  :mod:`xesim.exec.jit.runner` then re-runs the
interpreter's own implementation of that op on those operands to raise the identical located
:class:`~xesim.exec.faults.ExecFault`.

Float constants are passed as arguments rather than written as literals so that LLVM cannot fold
operations on them (folding may drop NaN signs/payloads or quieting that the interpreter observes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from xesim.exec.guard import POLL_COMPILED
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.numerics import mathfuncs as _mathfuncs
from xesim.numerics import scalar_rules as _rules

FLOAT_KINDS = ("f16", "bf16", "f32", "f64")
#: float types held in a float32 container (their values are binary32 values, xesim/exec/values.py) that compiled
#: nests load, store, select, convert to and from f32/f64 (``truncf``/``extf`` by their rules) and nothing else:
#: arithmetic on them stays in the interpreter (Unsupported), which computes it by its generic exact path
CONTAINER_KINDS = ("tf32",)
CODEGEN_VERSION = "9"
_I64_MIN = -(1 << 63)


class Unsupported(Exception):
    """The nest contains something the compiler does not handle (the message says what)."""


def kind_of(t: Any) -> int | str:
    """Representation kind of a scalar type: the bit width for integers/index, the name for floats."""
    if isinstance(t, T.IndexType):
        return 64
    if isinstance(t, T.IntegerType):
        if t.signedness == "u":
            raise Unsupported(f"unsigned integer type {t}")
        if not 1 <= t.width <= 64:
            raise Unsupported(f"integer type {t}")
        return t.width
    if isinstance(t, T.FloatType) and (t.name in FLOAT_KINDS or t.name in CONTAINER_KINDS):
        return t.name
    raise Unsupported(f"type {t}")


def view_code(kind: int | str) -> str:
    """numpy dtype (``str``) the compiled code sees for memory of element kind ``kind``."""
    if kind in ("f16", "bf16"):
        return "u2"
    if kind == 1:
        return "u1"
    return ""  # the interpreter's typed view as is


def int_literal(v: int) -> str:
    if v == _I64_MIN:
        return "(-9223372036854775807 - 1)"
    return f"({v})" if v < 0 else str(v)


@dataclass
class FaultSite:
    """An op that may fault: the operand positions whose values the compiled code stores in ``err``."""

    op: Any
    captured: list[int]


@dataclass
class MemrefArg:
    value: Any
    rank: int
    kind: int | str
    name: str


@dataclass
class Nest:
    """The generated code of one loop nest and what the run-time glue needs to call it."""

    root: Any
    calls: str = ""  # the function definition as generated, calling the rules (without module header)
    memrefs: list[MemrefArg] = field(default_factory=list)
    scalars: list[tuple[Any, int | str]] = field(default_factory=list)
    consts: list[tuple[Any, int | str]] = field(default_factory=list)
    faults: list[FaultSite] = field(default_factory=list)
    result_kinds: list[int | str] = field(default_factory=list)
    stores: list[Any] = field(default_factory=list)  # memref.store ops (for difference reports)
    loops: list[Any] = field(default_factory=list)  # the nest's scf.for ops (a stop returns -(1 + index))
    inline: bool = True  # numba compiles ``calls`` with the rules inlined (see :func:`generate`)
    _body: str | None = field(default=None, repr=False)

    @property
    def body(self) -> str:
        """The function numba compiles: ``calls`` with the rules inlined (made on first use)."""
        if self._body is None:
            self._body = inline_rules(self.calls) if self.inline else self.calls
        return self._body


# ------------------------------------------------------------------------------------------------ helpers
def _rule(op: Any, name: str) -> str:
    """The name generated code calls rule ``name`` of ``op`` by (checked and recorded by ``scalar_rules.lookup``)."""
    return _rules.lookup(op.name, name, "compiled").__name__


def _to_f32(x: str, kind: str) -> str:
    """An f16/bf16/f32 value as float32 (exact widening: value representation, not a rule of the op)."""
    return {"f16": f"f16_to_f32({x})", "bf16": f"bf16_to_f32({x})", "f32": x}[kind]


def _to_f64(x: str, kind: str) -> str:
    """A value as float64 (exact widening)."""
    return {"f16": f"f64(f16_to_f32({x}))", "bf16": f"f64(bf16_to_f32({x}))", "f32": f"f64({x})", "f64": x}[kind]


def _from_op(op: Any, x: str, kind: str) -> str:
    """The result of ``op`` computed in its operands' format (float32 for f16/bf16/f32), rounded to ``kind`` as
    the interpreter does it (``xesim/exec/ops/arith.py`` ``_FROM_OP``)."""
    if kind == "f64":
        return x
    r = f"{_rule(op, 'narrow_f32')}({x})"
    if kind == "f32":
        return r
    return f"{_rule(op, 'f32_to_f16' if kind == 'f16' else 'f32_to_bf16')}({r})"


def _from_f64(op: Any, x: str, kind: str) -> str:
    """A binary64 result of ``op`` rounded once to ``kind`` (``_FROM_F64`` in the interpreter)."""
    if kind == "f64":
        return x
    return f"{_rule(op, {'f32': 'narrow_f32', 'f16': 'f64_to_f16', 'bf16': 'f64_to_bf16'}[kind])}({x})"


_BITS_OF = {"f32": "f32_bits({})", "f64": "f64_bits({})", "f16": "{}", "bf16": "{}"}
_OF_BITS = {"f32": "f32_from_bits({})", "f64": "f64_from_bits({})", "f16": "{}", "bf16": "{}"}
_FLOAT_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


def _arith():
    from xesim.exec.ops import arith

    return arith


_INT_BINARY = {"addi", "subi", "muli", "andi", "ori", "xori", "minsi", "maxsi", "minui", "maxui", "divsi", "divui",
               "ceildivsi", "ceildivui", "floordivsi", "remsi", "remui", "shli", "shrsi", "shrui"}
_INDEX_BINARY = {"add": "addi", "sub": "subi", "mul": "muli", "divs": "divsi", "divu": "divui", "ceildivs": "ceildivsi",
                 "ceildivu": "ceildivui", "floordivs": "floordivsi", "rems": "remsi", "remu": "remui", "maxs": "maxsi",
                 "maxu": "maxui", "mins": "minsi", "minu": "minui", "shl": "shli", "shrs": "shrsi", "shru": "shrui",
                 "and": "andi", "or": "ori", "xor": "xori"}
_UNARY_RULES = {"floor": "floorf", "ceil": "ceilf", "trunc": "truncf", "roundeven": "roundevenf", "round": "roundf"}
_OV_OPS = {"addi": _rules.OV_ADD, "subi": _rules.OV_SUB, "muli": _rules.OV_MUL, "shli": _rules.OV_SHL}
_SIGNED_DIV = {"divsi", "ceildivsi", "floordivsi", "remsi"}
#: math functions the interpreter takes from the host's libm through numba (``xesim.numerics.mathfuncs``): the
#: generated code calls the same functions (``libm_<name>`` in xesim/exec/jit/rt.py), so both give the same bits
_LIBM = {**_mathfuncs.LIBM_UNARY, **_mathfuncs.LIBM_BINARY}


def _libm_check(op: Any) -> None:
    """Unsupported when numba may vectorise libm calls with Intel SVML (its vector functions round differently
    from the scalar libm calls the interpreter makes)."""
    import numba

    if getattr(numba.config, "USING_SVML", False):
        raise Unsupported(f"{op.name}: numba uses Intel SVML here, whose vector functions may round differently "
                          "from the interpreter's libm calls")


#: the deepest region nesting a compiled nest may have: Python compiles at most 20 statically nested blocks and
#: each level of a nest is one or two (:func:`xesim.exec.jit.compile_for` interprets deeper nests without trying)
MAX_NEST_DEPTH = 16


class _Gen:
    """Walks the nest once, emitting source lines."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.names: dict[int, str] = {}
        self.kinds: dict[int, int | str] = {}
        self.lines: list[str] = []
        self.n = 0
        self.nest = Nest(root)
        self._mem: dict[int, MemrefArg] = {}
        self.nres = len(root.results)

    # -------------------------------------------------------------------------------- names
    def fresh(self, prefix: str = "t") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def emit(self, ind: int, line: str) -> None:
        self.lines.append("    " * ind + line)

    def define(self, v: Any, name: str | None = None) -> str:
        k = kind_of(v.type)
        nm = name or self.fresh("v")
        self.names[id(v)] = nm
        self.kinds[id(v)] = k
        return nm

    def use(self, v: Any) -> str:
        nm = self.names.get(id(v))
        if nm is not None:
            return nm
        if isinstance(v.type, T.MemRefType):
            raise Unsupported("a memref used as a scalar")
        k = kind_of(v.type)
        src = v.owner_op
        if isinstance(k, int) and src is not None and src.name in ("arith.constant", "index.constant"):
            # an integer constant defined outside the nest: a literal lets LLVM fold (exactly) and, e.g., turn
            # divisions by constants into multiplications and know loop trip counts
            try:
                value = _arith().constant_value(src.attributes["value"], v.type) if src.name == "arith.constant" \
                    else _arith().int_info(T.INDEX).wrap(int(src.attributes["value"].value))
            except (KeyError, ValueError, TypeError, AttributeError):
                value = None
            if isinstance(value, int):
                nm = int_literal(value)
                self.names[id(v)] = nm
                self.kinds[id(v)] = k
                return nm
        nm = f"a{len(self.nest.scalars)}"
        self.nest.scalars.append((v, k))
        self.names[id(v)] = nm
        self.kinds[id(v)] = k
        return nm

    def kind(self, v: Any) -> int | str:
        k = self.kinds.get(id(v))
        return k if k is not None else kind_of(v.type)

    def mem(self, v: Any) -> MemrefArg:
        m = self._mem.get(id(v))
        if m is not None:
            return m
        if id(v) in self.names:
            raise Unsupported("a memref defined inside the loop nest")
        t = v.type
        if not isinstance(t, T.MemRefType):
            raise Unsupported(f"memory operand of type {t}")
        k = kind_of(t.element_type)
        m = MemrefArg(v, t.rank, k, f"m{len(self.nest.memrefs)}")
        self.nest.memrefs.append(m)
        self._mem[id(v)] = m
        return m

    def const(self, value: Any, k: int | str) -> str:
        nm = f"k{len(self.nest.consts)}"
        self.nest.consts.append((value, k))
        return nm

    def fault(self, ind: int, op: Any, exprs: list[str], positions: list[int]) -> None:
        self.nest.faults.append(FaultSite(op, positions))
        for i, e in enumerate(exprs):
            self.emit(ind, f"err[{i}] = {e}")
        self.emit(ind, f"return ({len(self.nest.faults)}, left,{' 0,' * self.nres})")

    # -------------------------------------------------------------------------------- driver
    def function(self) -> str:
        op = self.root
        self.g_for(op, 1)
        res = []
        for r in op.results:
            nm, k = self.names[id(r)], self.kinds[id(r)]
            res.append(f"f32_bits({nm})" if k in ("f32", "tf32") else f"f64_bits({nm})" if k == "f64" else nm)
            self.nest.result_kinds.append(k)
        self.emit(1, f"return (0, left,{''.join(f' {r},' for r in res)})")
        params = ["err", "stop", "left"]
        head = [f"    chk = left - {POLL_COMPILED} if left > {POLL_COMPILED} else 0"]
        for m in self.nest.memrefs:
            params += [m.name, f"{m.name}o"] + [f"{m.name}s{d}" for d in range(m.rank)] + \
                [f"{m.name}t{d}" for d in range(m.rank)]
        params += [f"a{i}" for i in range(len(self.nest.scalars))]
        params += [f"k{i}" for i in range(len(self.nest.consts))]
        src = [f"def nest({', '.join(params)}):", *head, *self.lines]
        return "\n".join(src) + "\n"

    def block(self, block: Any, ind: int) -> Any:
        """Emit the ops of ``block``; return its terminator (``scf.yield``) or None."""
        term = None
        for op in block.ops:
            if op.name == "scf.yield":
                term = op
                continue
            fn = _OPS.get(op.name)
            if fn is None:
                raise Unsupported(f"op {op.name}")
            if any(isinstance(r.type, T.VectorType) for r in op.results) or any(
                    isinstance(v.type, T.VectorType) for v in op.operands):
                raise Unsupported(f"vector operands of {op.name}")
            fn(self, op, ind)
        return term

    # -------------------------------------------------------------------------------- scf
    def g_for(self, op: Any, ind: int) -> None:
        if "unsignedCmp" in op.attributes:
            raise Unsupported("unsigned scf.for")
        if len(op.regions[0].blocks) != 1:
            raise Unsupported("scf.for with several blocks")
        k = self.kind(op.operands[0])
        if not isinstance(k, int):
            raise Unsupported("scf.for over a non-integer type")
        lb, ub, st = (self.use(v) for v in op.operands[:3])
        inits = [self.use(v) for v in op.operands[3:]]
        body = op.regions[0].blocks[0]
        iv = self.define(body.args[0], self.fresh("i"))
        carried = [self.define(a, self.fresh("c")) for a in body.args[1:]]
        hi, stv, lim, ok = self.fresh("hi"), self.fresh("st"), self.fresh("lim"), self.fresh("ok")
        self.emit(ind, f"{hi} = {ub}")
        self.emit(ind, f"{stv} = {st}")
        self.emit(ind, f"if {stv} <= 0:")
        self.fault(ind + 1, op, [stv], [2])
        for c, i in zip(carried, inits):
            self.emit(ind, f"{c} = {i}")
        self.emit(ind, f"{iv} = {lb}")
        self.emit(ind, f"{lim} = sub64({hi}, {stv})")
        self.emit(ind, f"{ok} = {lim} <= {hi}")
        counted = self.count_ahead(op, iv, hi, stv, ind)
        self.emit(ind, f"while {iv} < {hi}:")
        self.steps(op, ind + 1, counted)
        term = self.block(body, ind + 1)
        ys = [self.use(v) for v in term.operands] if term is not None else []
        if len(ys) != len(carried):
            raise Unsupported("scf.for whose yield does not match its iter_args")
        if carried:
            self.emit(ind + 1, f"{', '.join(carried)} = {', '.join(ys)}")
        self.emit(ind + 1, f"if ({iv} >= {lim}) | (not {ok}):")
        self.emit(ind + 2, "break")
        self.emit(ind + 1, f"{iv} = add64({iv}, {stv})")
        for r, c in zip(op.results, carried):
            self.names[id(r)] = c
            self.kinds[id(r)] = kind_of(r.type)

    def count_ahead(self, op: Any, iv: str, hi: str, stv: str, ind: int) -> str | None:
        """For an innermost loop (no ``scf.for`` inside): its iterations counted as steps before it starts when
        they are few (at most ``POLL_COMPILED``) and within the budget; the name of the flag saying so, tested in
        every iteration (:meth:`steps`).  The flag does not change in the loop, so LLVM unswitches it: the counted
        loop runs without a check per iteration (a fill loop took 3 times as long with one), and the stop flag is
        still read at least every ``POLL_COMPILED`` iterations, by the loop around it.  None for other loops."""
        if any(o is not op and o.name == "scf.for" for o in op.walk()):
            return None
        counted, span = self.fresh("counted"), self.fresh("span")
        self.emit(ind, f"{counted} = False")
        self.emit(ind, f"{span} = sub64({hi}, {iv})")  # wraps negative when the true span exceeds 2^63
        self.emit(ind, f"if {span} > 0 and {span} <= {POLL_COMPILED} * {stv}:")
        self.emit(ind + 1, f"{span} = ({span} - 1) // {stv} + 1")  # the loop's iterations
        self.emit(ind + 1, f"if {span} <= left:")
        self.emit(ind + 2, f"left -= {span}")
        self.emit(ind + 2, f"{counted} = True")
        return counted

    def steps(self, op: Any, ind: int, counted: str | None = None) -> None:
        """Count the iteration as a step of the run and poll its stop flag every ``POLL_COMPILED`` steps
        (xesim/exec/guard.py): ``left`` steps remain, the next poll is due at ``chk``; not when the loop's
        iterations were ``counted`` ahead (:meth:`count_ahead`).  A nest that must stop notes the loop in
        ``err[-1]`` (read when Python's signal handler raises as the nest returns) and returns
        ``-(1 + loop number)``."""
        k = len(self.nest.loops)
        self.nest.loops.append(op)
        if counted is not None:
            self.emit(ind, f"if not {counted}:")
            ind += 1
        self.emit(ind, "if left <= chk:")
        self.emit(ind + 1, "if left <= 0 or stop_requested(stop):")
        self.emit(ind + 2, f"err[-1] = {k}")
        self.emit(ind + 2, f"return ({-1 - k}, left,{' 0,' * self.nres})")
        self.emit(ind + 1, f"chk = left - {POLL_COMPILED} if left > {POLL_COMPILED} else 0")
        self.emit(ind, "left -= 1")

    def g_if(self, op: Any, ind: int) -> None:
        c = self.use(op.operands[0])
        res = [self.define(r, self.fresh("r")) for r in op.results]
        regions = [r for r in op.regions if not r.empty]
        if not regions:
            return
        self.emit(ind, f"if {c} != 0:")
        self._if_branch(op.regions[0], res, ind + 1)
        if len(op.regions) > 1 and not op.regions[1].empty:
            self.emit(ind, "else:")
            self._if_branch(op.regions[1], res, ind + 1)
        elif res:
            raise Unsupported("scf.if with results but no else region")

    def _if_branch(self, region: Any, res: list[str], ind: int) -> None:
        if len(region.blocks) != 1:
            raise Unsupported("scf.if region with several blocks")
        n0 = len(self.lines)
        term = self.block(region.blocks[0], ind)
        ys = [self.use(v) for v in term.operands] if term is not None else []
        if len(ys) != len(res):
            raise Unsupported("scf.if whose yield does not match its results")
        if res:
            self.emit(ind, f"{', '.join(res)} = {', '.join(ys)}")
        if len(self.lines) == n0:
            self.emit(ind, "pass")

    # -------------------------------------------------------------------------------- constants
    def g_constant(self, op: Any, ind: int) -> None:
        r = op.results[0]
        k = kind_of(r.type)
        if op.name == "arith.constant":
            value = _arith().constant_value(op.attributes["value"], r.type)
        elif op.name == "index.constant":
            attr = op.attributes["value"]
            value = _arith().int_info(T.INDEX).wrap(int(getattr(attr, "value", attr)))
        else:  # index.bool.constant
            attr = op.attributes["value"]
            value = 1 if getattr(attr, "value", attr) else 0
        if isinstance(k, int):
            self.names[id(r)] = int_literal(int(value))
            self.kinds[id(r)] = k
        else:
            self.names[id(r)] = self.const(value, k)
            self.kinds[id(r)] = k

    # -------------------------------------------------------------------------------- integers
    def g_int_binary(self, op: Any, ind: int) -> None:
        dialect, name = op.name.split(".", 1)
        base = _INDEX_BINARY[name] if dialect == "index" else name
        flags = _arith().flag_set(op.attributes.get("overflowFlags")) if dialect == "arith" else set()
        w = self.kind(op.results[0])
        if not isinstance(w, int):
            raise Unsupported(f"{op.name} on {op.results[0].type}")
        a, b = self.use(op.operands[0]), self.use(op.operands[1])
        o = self.define(op.results[0])
        bad = []
        if base in ("divsi", "divui", "ceildivsi", "ceildivui", "floordivsi", "remsi", "remui"):
            bad.append(f"{_rule(op, 'div_fault')}({a}, {b}, {w}, {base in _SIGNED_DIV}) != 0")
        if base in ("shli", "shrsi", "shrui"):
            bad.append(f"{_rule(op, 'shift_fault')}({b}, {w}) != 0")
        if flags:
            if base not in _OV_OPS:
                raise Unsupported(f"{op.name} with overflow flags")
            amount = f"{_rule(op, 'shift_amount')}({b}, {w})" if base == "shli" else b
            if "nsw" in flags:
                bad.append(f"{_rule(op, 'overflow_signed')}({_OV_OPS[base]}, {a}, {amount}, {w})")
            if "nuw" in flags:
                bad.append(f"{_rule(op, 'overflow_unsigned')}({_OV_OPS[base]}, {a}, {amount}, {w})")
        for cond in bad:  # in the interpreter's order (a shift amount is checked before an overflow)
            self.emit(ind, f"if {cond}:")
            self.fault(ind + 1, op, [a, b], [0, 1])
        fn = _rule(op, base)
        args = f"{a}, {b}" if base in ("andi", "ori", "xori") else f"{a}, {b}, {w}"
        self.emit(ind, f"{o} = {fn}({args})")

    def g_cmpi(self, op: Any, ind: int) -> None:
        ar = _arith()
        attr = "pred" if op.name == "index.cmp" else "predicate"
        pred = ar.enum_case(op.attributes.get(attr), ar.CMPI_CASES)
        w = self.kind(op.operands[0])
        if not isinstance(w, int):
            raise Unsupported(f"{op.name} on {op.operands[0].type}")
        a, b = self.use(op.operands[0]), self.use(op.operands[1])
        o = self.define(op.results[0])
        self.emit(ind, f"{o} = {_rule(op, 'cmpi')}({_rules.CMPI_PREDICATES.index(pred)}, {a}, {b}, {w})")

    def g_select(self, op: Any, ind: int) -> None:
        c, a, b = (self.use(v) for v in op.operands)
        o = self.define(op.results[0])
        self.emit(ind, f"{o} = {_rule(op, 'select')}({c}, {a}, {b})")

    def g_int_cast(self, op: Any, ind: int) -> None:
        ws, wd = self.kind(op.operands[0]), self.kind(op.results[0])
        if not (isinstance(ws, int) and isinstance(wd, int)):
            raise Unsupported(f"{op.name} on non-integer types")
        x = self.use(op.operands[0])
        o = self.define(op.results[0])
        unsigned = op.name in ("arith.extui", "arith.index_castui", "index.castu")
        self.emit(ind, f"{o} = {_rule(op, 'extui' if unsigned else 'extsi')}({x}, {ws}, {wd})")

    # -------------------------------------------------------------------------------- int <-> float
    def g_itofp(self, op: Any, ind: int) -> None:
        ws, kd = self.kind(op.operands[0]), self.kind(op.results[0])
        if not isinstance(ws, int) or kd not in FLOAT_KINDS:
            raise Unsupported(op.name)
        x = self.use(op.operands[0])
        o = self.define(op.results[0])
        fn = _rule(op, {"f32": "itof32", "f64": "itof64", "f16": "itof16", "bf16": "itobf16"}[kd])
        self.emit(ind, f"{o} = {fn}({x}, {ws}, {op.name == 'arith.sitofp'})")

    def g_fptoi(self, op: Any, ind: int) -> None:
        ks, wd = self.kind(op.operands[0]), self.kind(op.results[0])
        if ks not in FLOAT_KINDS or not isinstance(wd, int):
            raise Unsupported(op.name)
        x = _to_f64(self.use(op.operands[0]), ks)
        o = self.define(op.results[0])
        self.emit(ind, f"{o} = {_rule(op, 'ftoi')}({x}, {wd}, {op.name == 'arith.fptosi'})")

    # -------------------------------------------------------------------------------- floats
    def _fkind(self, op: Any) -> str:
        k = self.kind(op.results[0])
        if k not in FLOAT_KINDS:
            raise Unsupported(f"{op.name} on {op.results[0].type}")
        return k  # type: ignore[return-value]

    def g_float_binary(self, op: Any, ind: int) -> None:
        k = self._fkind(op)
        a, b = (_to_f32(self.use(v), k) if k != "f64" else self.use(v) for v in op.operands)
        o = self.define(op.results[0])
        fn = _rule(op, op.name.split(".", 1)[1])
        self.emit(ind, f"{o} = {_from_op(op, f'{fn}({a}, {b})', k)}")

    def g_float_minmax(self, op: Any, ind: int) -> None:
        k = self._fkind(op)
        a, b = self.use(op.operands[0]), self.use(op.operands[1])
        o = self.define(op.results[0])
        fa, fb = (_to_f32(a, k), _to_f32(b, k)) if k != "f64" else (a, b)
        pick = _rule(op, "pick_" + op.name.split(".", 1)[1][:-1])
        self.emit(ind, f"{o} = {_rule(op, 'select')}({pick}({fa}, {fb}), {b}, {a})")

    def g_sign(self, op: Any, ind: int) -> None:
        k = self._fkind(op)
        fn = _rule(op, {"arith.negf": "flip_sign", "math.absf": "clear_sign", "math.copysign": "copy_sign"}[op.name])
        bits = [_BITS_OF[k].format(self.use(v)) for v in op.operands]
        o = self.define(op.results[0])
        call = f"{fn}({', '.join(bits)}, {_FLOAT_BITS[k]})"
        self.emit(ind, f"{o} = {_OF_BITS[k].format(call)}")

    def g_cmpf(self, op: Any, ind: int) -> None:
        ar = _arith()
        pred = ar.enum_case(op.attributes.get("predicate"), ar.CMPF_CASES)
        k = self.kind(op.operands[0])
        if k not in FLOAT_KINDS:
            raise Unsupported(f"cmpf on {op.operands[0].type}")
        a, b = (_to_f32(self.use(v), k) if k != "f64" else self.use(v) for v in op.operands)
        o = self.define(op.results[0])
        self.emit(ind, f"{o} = {_rule(op, 'cmpf')}({_rules.CMPF_PREDICATES.index(pred)}, {a}, {b})")

    def g_extf(self, op: Any, ind: int) -> None:
        ks, kd = self.kind(op.operands[0]), self._fkind(op)
        fn = {("f16", "f32"): "f16_to_f32", ("f16", "f64"): "f16_to_f64", ("bf16", "f32"): "bf16_to_f32_quiet",
              ("bf16", "f64"): "bf16_to_f64", ("f32", "f64"): "f32_to_f64", ("tf32", "f32"): "tf32_to_f32",
              ("tf32", "f64"): "f32_to_f64"}.get((ks, kd))  # type: ignore[arg-type]
        if fn is None:
            raise Unsupported(f"extf {ks} -> {kd}")
        x = self.use(op.operands[0])
        o = self.define(op.results[0])
        self.emit(ind, f"{o} = {_rule(op, fn)}({x})")

    def g_truncf(self, op: Any, ind: int) -> None:
        ar = _arith()
        mode = ar.enum_case(op.attributes.get("roundingmode"), ar.ROUNDING_CASES, "to_nearest_even")
        if mode != "to_nearest_even":
            raise Unsupported(f"truncf with rounding mode {mode}")
        ks, kd = self.kind(op.operands[0]), self.kind(op.results[0])
        fn = {("f64", "f32"): "narrow_f32", ("f64", "f16"): "f64_to_f16", ("f64", "bf16"): "f64_to_bf16",
              ("f32", "f16"): "f32_to_f16", ("f32", "bf16"): "f32_to_bf16", ("f32", "tf32"): "f32_to_tf32",
              ("f64", "tf32"): "f64_to_tf32"}.get((ks, kd))  # type: ignore[arg-type]
        if fn is None:
            raise Unsupported(f"truncf {ks} -> {kd}")
        x = self.use(op.operands[0])
        o = self.define(op.results[0])
        self.emit(ind, f"{o} = {_rule(op, fn)}({x})")

    def g_bitcast(self, op: Any, ind: int) -> None:
        ks, kd = self.kind(op.operands[0]), self.kind(op.results[0])
        x = self.use(op.operands[0])
        o = self.define(op.results[0])
        bits = f"{_rule(op, 'ubits')}({x}, {ks})" if isinstance(ks, int) else _BITS_OF[ks].format(x)
        if isinstance(kd, int):
            expr = f"{_rule(op, 'wrap')}({bits}, {kd})"
        else:
            expr = _OF_BITS[kd].format(bits)
        self.emit(ind, f"{o} = {expr}")

    def g_math_unary(self, op: Any, ind: int) -> None:
        k = self._fkind(op)
        name = op.name.split(".", 1)[1]
        x = self.use(op.operands[0])
        o = self.define(op.results[0])
        if name == "sqrt":
            expr = _from_op(op, f"{_rule(op, 'sqrtf')}({_to_f32(x, k) if k != 'f64' else x})", k)
        elif name in _LIBM:
            _libm_check(op)
            expr = _from_f64(op, f"libm_{name}({_to_f64(x, k)})", k)
        else:
            expr = _from_f64(op, f"{_rule(op, _UNARY_RULES[name])}({_to_f64(x, k)})", k)
        self.emit(ind, f"{o} = {expr}")

    def g_math_binary(self, op: Any, ind: int) -> None:
        """``math.powf``/``math.atan2``: the libm function of the float64 operands, rounded once (as
        ``mathfuncs.binary``)."""
        k = self._fkind(op)
        _libm_check(op)
        name = op.name.split(".", 1)[1]
        a, b = (_to_f64(self.use(v), k) for v in op.operands)
        o = self.define(op.results[0])
        self.emit(ind, f"{o} = {_from_f64(op, f'libm_{name}({a}, {b})', k)}")

    def g_fma(self, op: Any, ind: int) -> None:
        k = self._fkind(op)
        if k == "f64":
            raise Unsupported("math.fma on f64 (the interpreter rounds with exact integer arithmetic)")
        a, b, c = (_to_f64(self.use(v), k) for v in op.operands)
        o = self.define(op.results[0])
        call = f"{_rule(op, 'fma_odd')}({a}, {b}, {c})"
        self.emit(ind, f"{o} = {_from_f64(op, call, k)}")

    def g_remf(self, op: Any, ind: int) -> None:
        k = self._fkind(op)
        a, b = (_to_f64(self.use(v), k) for v in op.operands)
        o = self.define(op.results[0])
        call = f"{_rule(op, 'remf')}({a}, {b})"
        self.emit(ind, f"{o} = {_from_f64(op, call, k)}")

    def g_isclass(self, op: Any, ind: int) -> None:
        k = self.kind(op.operands[0])
        if k not in FLOAT_KINDS:
            raise Unsupported(f"{op.name} on {op.operands[0].type}")
        x = _to_f64(self.use(op.operands[0]), k)
        o = self.define(op.results[0])
        name = op.name.split(".", 1)[1]
        fn = _rule(op, f"{name}f")
        if name == "isnormal":
            tiny = {"f16": 2.0 ** -14, "bf16": 2.0 ** -126, "f32": 2.0 ** -126, "f64": 2.0 ** -1022}[k]
            self.emit(ind, f"{o} = {fn}({x}, {tiny!r})")
        else:
            self.emit(ind, f"{o} = {fn}({x})")

    def g_int_unary(self, op: Any, ind: int) -> None:
        w = self.kind(op.results[0])
        if not isinstance(w, int):
            raise Unsupported(f"{op.name} on {op.results[0].type}")
        x = self.use(op.operands[0])
        o = self.define(op.results[0])
        self.emit(ind, f"{o} = {_rule(op, op.name.split('.', 1)[1])}({x}, {w})")

    # -------------------------------------------------------------------------------- memory
    def _address(self, op: Any, m: MemrefArg, idx_vals: list, ind: int, positions: list[int]) -> str:
        """Index check (a fault site) and the element's position in the view.  The run-time glue only
        passes descriptors whose every in-bounds element lies inside the allocation (else the interpreter
        runs the nest), so in-range indices need no second check and the int64 arithmetic cannot overflow."""
        idx = [self.use(v) for v in idx_vals]
        if len(idx) != m.rank:
            raise Unsupported(f"{op.name} with {len(idx)} indices on a rank-{m.rank} memref")
        if idx:
            conds = " & ".join(f"({i} >= 0) & ({i} < {m.name}s{d})" for d, i in enumerate(idx))
            self.emit(ind, f"if not ({conds}):")
            self.fault(ind + 1, op, idx, positions)
        e = self.fresh("e")
        lin = " + ".join([f"{m.name}o"] + [f"{i} * {m.name}t{d}" for d, i in enumerate(idx)])
        self.emit(ind, f"{e} = {lin}")
        return e

    def g_load(self, op: Any, ind: int) -> None:
        m = self.mem(op.operands[0])
        k = kind_of(op.results[0].type)
        if k != m.kind:
            raise Unsupported("memref.load with a mismatched element type")
        n = len(op.operands) - 1
        e = self._address(op, m, list(op.operands[1:]), ind, list(range(1, 1 + n)))
        o = self.define(op.results[0])
        if isinstance(k, int) or k in ("f16", "bf16"):
            self.emit(ind, f"{o} = np.int64({m.name}[{e}])")
        else:
            self.emit(ind, f"{o} = {m.name}[{e}]")

    def g_store(self, op: Any, ind: int) -> None:
        v = self.use(op.operands[0])
        m = self.mem(op.operands[1])
        if self.kind(op.operands[0]) != m.kind:
            raise Unsupported("memref.store with a mismatched element type")
        n = len(op.operands) - 2
        e = self._address(op, m, list(op.operands[2:]), ind, list(range(2, 2 + n)))
        self.emit(ind, f"{m.name}[{e}] = {v}")
        self.nest.stores.append(op)

    def g_dim(self, op: Any, ind: int) -> None:
        m = self.mem(op.operands[0])
        src = op.operands[1].owner_op
        if src is None or src.name not in ("arith.constant", "index.constant"):
            raise Unsupported("memref.dim with a non-constant index")
        d = int(getattr(src.attributes["value"], "value", -1))
        if not 0 <= d < m.rank:
            raise Unsupported("memref.dim with an out-of-range index")
        self.names[id(op.results[0])] = f"{m.name}s{d}"
        self.kinds[id(op.results[0])] = 64


_OPS: dict[str, Any] = {
    "scf.for": _Gen.g_for,
    "scf.if": _Gen.g_if,
    "arith.constant": _Gen.g_constant,
    "index.constant": _Gen.g_constant,
    "index.bool.constant": _Gen.g_constant,
    "arith.cmpi": _Gen.g_cmpi,
    "index.cmp": _Gen.g_cmpi,
    "arith.select": _Gen.g_select,
    "arith.extsi": _Gen.g_int_cast,
    "arith.extui": _Gen.g_int_cast,
    "arith.trunci": _Gen.g_int_cast,
    "arith.index_cast": _Gen.g_int_cast,
    "arith.index_castui": _Gen.g_int_cast,
    "index.casts": _Gen.g_int_cast,
    "index.castu": _Gen.g_int_cast,
    "arith.sitofp": _Gen.g_itofp,
    "arith.uitofp": _Gen.g_itofp,
    "arith.fptosi": _Gen.g_fptoi,
    "arith.fptoui": _Gen.g_fptoi,
    "arith.addf": _Gen.g_float_binary,
    "arith.subf": _Gen.g_float_binary,
    "arith.mulf": _Gen.g_float_binary,
    "arith.divf": _Gen.g_float_binary,
    "arith.minimumf": _Gen.g_float_minmax,
    "arith.maximumf": _Gen.g_float_minmax,
    "arith.minnumf": _Gen.g_float_minmax,
    "arith.maxnumf": _Gen.g_float_minmax,
    "arith.negf": _Gen.g_sign,
    "math.absf": _Gen.g_sign,
    "math.copysign": _Gen.g_sign,
    "arith.cmpf": _Gen.g_cmpf,
    "arith.extf": _Gen.g_extf,
    "arith.truncf": _Gen.g_truncf,
    "arith.bitcast": _Gen.g_bitcast,
    "math.sqrt": _Gen.g_math_unary,
    "math.fma": _Gen.g_fma,
    "arith.remf": _Gen.g_remf,
    "math.isnan": _Gen.g_isclass,
    "math.isinf": _Gen.g_isclass,
    "math.isfinite": _Gen.g_isclass,
    "math.isnormal": _Gen.g_isclass,
    "math.absi": _Gen.g_int_unary,
    "math.ctlz": _Gen.g_int_unary,
    "math.cttz": _Gen.g_int_unary,
    "math.ctpop": _Gen.g_int_unary,
    "memref.load": _Gen.g_load,
    "memref.store": _Gen.g_store,
    "memref.dim": _Gen.g_dim,
}
for _n in _INT_BINARY:
    _OPS[f"arith.{_n}"] = _Gen.g_int_binary
for _n in _INDEX_BINARY:
    _OPS[f"index.{_n}"] = _Gen.g_int_binary
for _n in _UNARY_RULES:
    _OPS[f"math.{_n}"] = _Gen.g_math_unary
for _n in _mathfuncs.LIBM_UNARY:
    _OPS[f"math.{_n}"] = _Gen.g_math_unary
for _n in _mathfuncs.LIBM_BINARY:
    _OPS[f"math.{_n}"] = _Gen.g_math_binary


def generate(root: Any, inline: bool = True) -> Nest:
    """Generate the compiled form of the ``scf.for`` nest rooted at ``root`` (raises :class:`Unsupported`).

    The generated function calls the rules; with ``inline`` (the default; the tests compile both ways) their code
    is inlined into it by :func:`xesim.numerics.specialize.inline_source` -- the specialiser that builds the
    interpreter's steps -- with the constant widths and predicates folded, the primitives (single LLVM
    instructions, ``xesim/exec/jit/rt.py``), the F16C rules and the few long rules of
    ``scalar_rules.CALLED_IN_NESTS`` left as calls.  numba then compiles one function
    per nest instead of one per rule and signature (a cold compile of a typical nest: about 0.35 s instead of
    1.5 s; the machine code is the same, LLVM inlining the calls otherwise)."""
    g = _Gen(root)
    try:
        g.nest.calls = g.function()
    except Unsupported:
        raise
    except (KeyError, ValueError, NotImplementedError, IndexError, AttributeError) as exc:
        raise Unsupported(f"{type(exc).__name__}: {exc}") from None
    g.nest.inline = inline
    return g.nest


def inline_rules(source: str) -> str:
    """``source`` (a generated function calling rules) with the rules' code inlined (see :func:`generate`)."""
    from xesim.exec.jit import rt
    from xesim.numerics.specialize import inline_source

    keep = frozenset(_rules.PRIMITIVES) | rt.HARDWARE_RULES | frozenset(_rules.CALLED_IN_NESTS)
    text, _ = inline_source(source, vars(rt), {}, keep)
    return text + "\n"


def supported_ops() -> list[str]:
    """Names of the ops a compiled nest may contain (besides ``scf.yield``)."""
    return sorted(_OPS)
