"""Affine maps and expressions (MLIR LangRef, "Affine Dialect": affine-map, affine-expr).

``AffineMap`` is immutable and hashable; ``str()`` prints MLIR's canonical spelling; ``evaluate`` computes
the results for integer dims and symbols with MLIR's floordiv/ceildiv/mod semantics (mod is non-negative
for a positive divisor).
"""

from __future__ import annotations

from dataclasses import dataclass


class AffineExpr:
    __slots__ = ()

    def evaluate(self, dims: list[int], syms: list[int]) -> int:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Dim(AffineExpr):
    index: int

    def __str__(self) -> str:
        return f"d{self.index}"

    def evaluate(self, dims: list[int], syms: list[int]) -> int:
        return dims[self.index]


@dataclass(frozen=True, slots=True)
class Sym(AffineExpr):
    index: int

    def __str__(self) -> str:
        return f"s{self.index}"

    def evaluate(self, dims: list[int], syms: list[int]) -> int:
        return syms[self.index]


@dataclass(frozen=True, slots=True)
class Const(AffineExpr):
    value: int

    def __str__(self) -> str:
        return str(self.value)

    def evaluate(self, dims: list[int], syms: list[int]) -> int:
        return self.value


_PREC = {"+": 1, "-": 1, "*": 2, "floordiv": 2, "ceildiv": 2, "mod": 2}


@dataclass(frozen=True, slots=True)
class BinOp(AffineExpr):
    op: str  # + - * floordiv ceildiv mod
    lhs: AffineExpr
    rhs: AffineExpr

    def __str__(self) -> str:
        def wrap(e: AffineExpr, right: bool) -> str:
            s = str(e)
            if isinstance(e, BinOp) and (_PREC[e.op] < _PREC[self.op] or (right and _PREC[e.op] == _PREC[self.op])):
                return f"({s})"
            return s

        return f"{wrap(self.lhs, False)} {self.op} {wrap(self.rhs, True)}"

    def evaluate(self, dims: list[int], syms: list[int]) -> int:
        a = self.lhs.evaluate(dims, syms)
        b = self.rhs.evaluate(dims, syms)
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        if self.op == "*":
            return a * b
        if b == 0:
            raise ZeroDivisionError(f"division by zero in affine expression '{self}'")
        if self.op == "floordiv":
            return a // b
        if self.op == "ceildiv":
            return -((-a) // b)
        return a % b  # mod: Python's % matches MLIR for positive divisors


@dataclass(frozen=True, slots=True)
class AffineMap:
    num_dims: int
    num_syms: int
    results: tuple[AffineExpr, ...]

    def __str__(self) -> str:
        dims = ", ".join(f"d{i}" for i in range(self.num_dims))
        s = f"({dims})"
        if self.num_syms:
            s += "[" + ", ".join(f"s{i}" for i in range(self.num_syms)) + "]"
        return s + " -> (" + ", ".join(str(r) for r in self.results) + ")"

    def evaluate(self, dims: list[int], syms: list[int] | None = None) -> list[int]:
        syms = syms or []
        return [r.evaluate(dims, syms) for r in self.results]

    @property
    def is_identity(self) -> bool:
        return self.num_syms == 0 and self.results == tuple(Dim(i) for i in range(self.num_dims))


class AffineParseError(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def parse_affine_map(text: str, start: int = 0) -> tuple[AffineMap, int]:
    """Parse ``(d0, d1)[s0] -> (exprs)`` from ``text[start:]``; return the map and the end offset.

    Stops after the closing parenthesis of the result list."""
    import re

    pos = start
    tok_re = re.compile(r"\s*(->|[()\[\],+\-*]|[A-Za-z_][A-Za-z0-9_]*|\d+)")

    def peek() -> tuple[str, int]:
        m = tok_re.match(text, pos)
        if m is None:
            return "", pos
        return m.group(1), m.end()

    def take(expected: str | None = None) -> str:
        nonlocal pos
        t, end = peek()
        if t == "" or (expected is not None and t != expected):
            raise AffineParseError(f"expected '{expected}' in affine map" if expected else "unexpected end of affine map", pos)
        pos = end
        return t

    def id_list(open_: str, close: str) -> list[str]:
        take(open_)
        names: list[str] = []
        if peek()[0] == close:
            take(close)
            return names
        while True:
            names.append(take())
            t = take()
            if t == close:
                return names
            if t != ",":
                raise AffineParseError(f"expected ',' or '{close}'", pos)

    dim_names = id_list("(", ")")
    sym_names = id_list("[", "]") if peek()[0] == "[" else []
    take("->")
    env = {n: Dim(i) for i, n in enumerate(dim_names)}
    env.update({n: Sym(i) for i, n in enumerate(sym_names)})

    def primary() -> AffineExpr:
        t = take()
        if t == "(":
            e = expr()
            take(")")
            return e
        if t == "-":
            return BinOp("*", Const(-1), primary()) if not peek()[0].isdigit() else Const(-int(take()))
        if t.isdigit():
            return Const(int(t))
        if t in env:
            return env[t]
        raise AffineParseError(f"use of undeclared identifier '{t}' in affine map", pos)

    def term() -> AffineExpr:
        e = primary()
        while peek()[0] in ("*", "floordiv", "ceildiv", "mod"):
            op = take()
            e = BinOp(op, e, primary())
        return e

    def expr() -> AffineExpr:
        e = term()
        while peek()[0] in ("+", "-"):
            op = take()
            e = BinOp(op, e, term())
        return e

    take("(")
    results: list[AffineExpr] = []
    if peek()[0] != ")":
        while True:
            results.append(expr())
            t = take()
            if t == ")":
                break
            if t != ",":
                raise AffineParseError("expected ',' or ')' in affine map results", pos)
    else:
        take(")")
    return AffineMap(len(dim_names), len(sym_names), tuple(results)), pos
