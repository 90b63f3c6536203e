"""Specialisation of scalar rules for CPython: constant parameters bound, callees inlined.

The scalar rules of :mod:`xesim.numerics.scalar_rules` are plain Python functions that numba compiles for the
compiled host loops, where LLVM inlines them and folds their constant parameters (bit widths, predicates).
The interpreter runs the *same* functions in CPython, where a call costs as much as the operation itself and a
width computed at run time (``(1 << w) - 1``) costs more.  :func:`build` closes that gap without writing
anything twice: it takes a small function written as source text (a *template*, e.g. an interpreter step
``fr[o] = addi(fr[a], fr[b], 64)``), and rewrites its syntax tree

* binding the given names to constants,
* inlining every call of a function registered with :func:`inlinable` (the rules and the CPython side of their
  primitives): the callee's parameters become fresh local variables (or are replaced by the argument when it is
  a constant or a name the callee never assigns), its local variables are renamed apart, and each ``return e``
  becomes an assignment of ``e`` to the call's result, the statements that follow an ``if`` containing a return
  being moved into the branches that do not return (so no early exit is needed),
* folding constant sub-expressions (evaluated by CPython itself, so exactly as at run time) and dropping the
  branches of ``if`` statements and conditional expressions whose condition is a constant,

then compiles the result once.  The generated code *is* the rule's code (the same syntax tree, with parameters
substituted), so it computes what calling the rule computes; ``tests/numerics/test_scalar_rules.py`` checks this
on the edge cases anyway.

Only calls in unconditional positions are inlined (not inside ``and``/``or``, conditional expressions, or
comparison chains after the first comparison), and a call is hoisted out of its statement into a temporary in
evaluation order: the rules and their operands are side-effect free, so hoisting does not change results.
Callees may use ``if``/``else``, assignments and ``return``; a callee with a loop, ``try``, ``with``, nested
functions or ``*args`` is called, not inlined.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import linecache
import operator
import textwrap
import threading
from collections.abc import Callable
from typing import Any

#: functions :func:`build` inlines, by identity: id -> function (kept alive here)
_INLINABLE: dict[int, Callable] = {}
_AST_CACHE: dict[int, ast.FunctionDef] = {}
_COUNTER = itertools.count()
_LOCK = threading.Lock()
_BUILT: dict[tuple, Callable] = {}
_SAME_GLOBALS: dict[tuple[int, int], bool] = {}
_MISSING = object()


def inlinable(fn: Callable) -> Callable:
    """Mark ``fn`` (a plain module-level function) as one :func:`build` may inline; returns ``fn``."""
    _INLINABLE[id(fn)] = fn
    return fn


class NotInlinable(Exception):
    """The callee's body uses a construct the inliner does not handle (it is called instead)."""


# ------------------------------------------------------------------------------------------------ syntax helpers
_MODULE_DEFS: dict[str, dict[str, ast.FunctionDef]] = {}


def _module_level_def(fn: Callable) -> ast.FunctionDef | None:
    """``fn``'s definition from its module's source parsed once (module-level functions; much faster than
    ``inspect.getsource`` per function)."""
    try:
        path = inspect.getsourcefile(fn)
    except TypeError:
        return None
    if path is None or fn.__qualname__ != fn.__name__:
        return None
    if path not in _MODULE_DEFS and sum(f.__globals__ is fn.__globals__ for f in _INLINABLE.values()) < 10:
        return None  # a module with a few inlinable functions: inspect.getsource is cheaper than parsing it
    defs = _MODULE_DEFS.get(path)
    if defs is None:
        try:
            text = "".join(linecache.getlines(path)) or open(path).read()  # noqa: SIM115
        except OSError:
            return None
        defs = _MODULE_DEFS[path] = {d.name: d for d in ast.parse(text).body if isinstance(d, ast.FunctionDef)}
    d = defs.get(fn.__name__)
    if d is None or d.lineno > fn.__code__.co_firstlineno + len(d.decorator_list) + 1 \
            or d.lineno < fn.__code__.co_firstlineno:
        return None  # not the definition this function object was made from
    return d


def _function_ast(fn: Callable) -> ast.FunctionDef:
    tree = _AST_CACHE.get(id(fn))
    if tree is None:
        d = _module_level_def(fn)
        if d is not None:
            tree = _deepcopy(d)
        else:
            mod = ast.parse(textwrap.dedent(inspect.getsource(fn)))
            tree = mod.body[0]
        if not isinstance(tree, ast.FunctionDef):
            raise NotInlinable(f"{fn.__name__} is not a plain function")
        tree.decorator_list = []
        _check_inlinable(tree)
        _AST_CACHE[id(fn)] = tree
    return tree


def _check_inlinable(fd: ast.FunctionDef) -> None:
    a = fd.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
        raise NotInlinable(f"{fd.name}: only plain positional parameters are inlined")
    for node in ast.walk(fd):
        if node is fd:
            continue
        if isinstance(node, (ast.For, ast.While, ast.Try, ast.With, ast.FunctionDef, ast.Lambda, ast.ClassDef,
                             ast.Global, ast.Nonlocal, ast.Yield, ast.YieldFrom, ast.AsyncFunctionDef,
                             ast.NamedExpr, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
                             ast.Delete)):
            raise NotInlinable(f"{fd.name}: {type(node).__name__} is not inlined")


def _assigned_names(stmts: list[ast.stmt]) -> set[str]:
    out: set[str] = set()
    for s in stmts:
        for node in ast.walk(s):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                out.add(node.id)
    return out


class _Rename(ast.NodeTransformer):
    """Replace names: ``subst`` maps a name to an expression node (copied at each use)."""

    def __init__(self, subst: dict[str, ast.expr]) -> None:
        self.subst = subst

    def visit_Name(self, node: ast.Name) -> ast.expr:
        rep = self.subst.get(node.id)
        if rep is None:
            return node
        if isinstance(node.ctx, ast.Store):
            if not isinstance(rep, ast.Name):
                raise NotInlinable(f"assignment to bound name {node.id}")
            return ast.Name(rep.id, ast.Store())
        if isinstance(rep, ast.Name):
            return ast.Name(rep.id, ast.Load())
        if isinstance(rep, ast.Constant):
            return ast.Constant(rep.value)
        return _copy(rep)


def _copy(node: ast.AST) -> Any:
    return ast.fix_missing_locations(_deepcopy(node))


def _deepcopy(node: Any) -> Any:
    if isinstance(node, ast.AST):
        new = type(node)()
        for f, v in ast.iter_fields(node):
            setattr(new, f, _deepcopy(v))
        for a in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if hasattr(node, a):
                setattr(new, a, getattr(node, a))
        return new
    if isinstance(node, list):
        return [_deepcopy(x) for x in node]
    return node


# ------------------------------------------------------------------------------------------------ constant folding
_SAFE_CALLS: dict[str, Callable] = {"float": float, "int": int, "abs": abs, "min": min, "max": max}
_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
           ast.Mod: operator.mod, ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
           ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.BitAnd: operator.and_, ast.Div: operator.truediv}
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not}
_UNOPS = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_, ast.Invert: operator.invert}


def _const(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant)


def _mk(v: Any) -> ast.expr:
    if isinstance(v, bool) or v is None or isinstance(v, (int, float, str)):
        return ast.Constant(v)
    raise TypeError(type(v))


class _Fold(ast.NodeTransformer):
    """Fold operations whose operands are all constants (evaluated by CPython, as at run time)."""

    def __init__(self, globals_: dict) -> None:
        self.globals = globals_

    def _try(self, fn: Callable, *args: Any) -> Any:
        try:
            v = fn(*args)
        except Exception:  # noqa: BLE001 - e.g. a negative shift in a branch that is pruned later
            return None
        try:
            return _mk(v)
        except TypeError:
            return None

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        if _const(node.left) and _const(node.right):
            if isinstance(node.op, ast.Pow) and isinstance(node.right.value, int) and node.right.value > 256:
                return node
            r = self._try(_BINOPS[type(node.op)], node.left.value, node.right.value)
            if r is not None:
                return r
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        if _const(node.operand):
            r = self._try(_UNOPS[type(node.op)], node.operand.value)
            if r is not None:
                return r
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        if _const(node.left) and all(_const(c) for c in node.comparators):
            vals = [node.left.value] + [c.value for c in node.comparators]
            try:
                ok = all(_CMPOPS[type(o)](x, y) for o, x, y in zip(node.ops, vals, vals[1:]))
            except Exception:  # noqa: BLE001
                return node
            return ast.Constant(bool(ok))
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        self.generic_visit(node)
        skip = isinstance(node.op, ast.And)  # a truthy constant is skipped by `and`, a falsy one by `or`
        vals: list[ast.expr] = []
        for i, v in enumerate(node.values):
            if _const(v) and i < len(node.values) - 1:
                if bool(v.value) == skip:
                    continue
                vals.append(v)  # decides the result: later values are never evaluated
                break
            vals.append(v)
        if len(vals) == 1:
            return vals[0]
        return ast.BoolOp(node.op, vals)

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)
        if _const(node.test):
            return node.body if node.test.value else node.orelse
        return node

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id.isupper() and node.id in self.globals:
            v = self.globals[node.id]
            if type(v) in (int, float, bool):
                return ast.Constant(v)
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and not node.keywords and all(_const(a) for a in node.args):
            fn = _SAFE_CALLS.get(node.func.id)
            g = self.globals.get(node.func.id)
            if g is not None and _INLINABLE.get(id(g)) is g:
                fn = g  # a rule of constants: pure, so its value now is its value at run time
            if fn is not None and self.globals.get(node.func.id, fn) is fn:
                r = self._try(fn, *[a.value for a in node.args])
                if r is not None:
                    return r
        return node


def _prune(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """Drop ``if`` branches with constant conditions and statements after a ``return`` (recursively)."""
    out: list[ast.stmt] = []
    for s in stmts:
        if isinstance(s, ast.If):
            if _const(s.test):
                out.extend(_prune(s.body if s.test.value else s.orelse))
                if out and isinstance(out[-1], ast.Return):
                    return out
                continue
            s.body = _prune(s.body) or [ast.Pass()]
            s.orelse = _prune(s.orelse)
        elif isinstance(s, (ast.While, ast.For)):
            s.body = _prune(s.body) or [ast.Pass()]
            s.orelse = _prune(s.orelse)
        out.append(s)
        if isinstance(s, ast.Return):
            break
    return out


def _store_names(target: ast.AST, out: list[str]) -> None:
    for t in ast.walk(target):
        if isinstance(t, ast.Name):
            out.append(t.id)


def _scan(stmts: list[ast.stmt], order: list[int], stores: dict[str, list[int]], moves: list) -> bool:
    """Number the statements in pre-order and record where each name is bound and every ``t = s`` /
    ``t = constant``; False when there is a nested scope (the pass then leaves the function alone)."""
    for st in stmts:
        pos = order[0]
        order[0] += 1
        names: list[str] = []
        if isinstance(st, ast.Assign):
            for t in st.targets:
                _store_names(t, names)
            if len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                    and isinstance(st.value, (ast.Name, ast.Constant)):
                moves.append((st, pos))
        elif isinstance(st, (ast.AugAssign, ast.AnnAssign, ast.For)):
            _store_names(st.target, names)
        elif isinstance(st, (ast.FunctionDef, ast.ClassDef, ast.With, ast.Try, ast.Global, ast.Nonlocal)):
            return False
        for n in names:
            stores.setdefault(n, []).append(10**9 if isinstance(st, ast.For) else pos)
        for f in ("body", "orelse", "finalbody"):
            sub = getattr(st, f, None)
            if isinstance(sub, list) and not _scan(sub, order, stores, moves):
                return False
    return True


def _drop_statements(stmts: list[ast.stmt], ids: set[int], top: bool = True) -> list[ast.stmt]:
    out = []
    for st in stmts:
        if id(st) in ids:
            continue
        for f in ("body", "orelse", "finalbody"):
            sub = getattr(st, f, None)
            if isinstance(sub, list):
                kept = _drop_statements(sub, ids, False)
                setattr(st, f, kept or ([ast.Pass()] if f == "body" else []))
        out.append(st)
    return out


def _copy_propagate(fd: ast.FunctionDef, globals_: dict) -> None:
    """Remove ``t = s`` moves where ``t`` is bound once and ``s`` is a constant or a local name bound only by
    statements that come before the move (a parameter, one assignment, or the branches of an earlier ``if``),
    replacing ``t`` by ``s`` everywhere: ``t`` is only read after its one binding (the generated code is in SSA
    form: MLIR values and the inliner's temporaries), where ``s`` holds the same value; then fold again."""
    for _ in range(8):
        stores: dict[str, list[int]] = {a.arg: [-1] for a in fd.args.args}
        moves: list = []
        if not _scan(fd.body, [0], stores, moves):
            return
        subst: dict[str, ast.expr] = {}
        ids: set[int] = set()
        for st, pos in moves:
            t = st.targets[0].id
            v = st.value
            if len(stores.get(t, ())) != 1 or t in subst:
                continue
            if isinstance(v, ast.Name) and not (v.id in stores and max(stores[v.id]) < pos and v.id not in subst):
                continue
            subst[t] = v
            ids.add(id(st))
        if not subst:
            return
        for t in list(subst):  # follow chains t -> s -> ... to their end
            v = subst[t]
            seen = {t}
            while isinstance(v, ast.Name) and v.id in subst and v.id not in seen:
                seen.add(v.id)
                v = subst[v.id]
            subst[t] = v
        fd.body = _drop_statements(fd.body, ids) or [ast.Pass()]
        _Rename(subst).visit(fd)
        if any(isinstance(v, ast.Constant) for v in subst.values()):
            fd.body = _simplify(fd.body, globals_) or [ast.Pass()]


def _simplify(stmts: list[ast.stmt], globals_: dict) -> list[ast.stmt]:
    folder = _Fold(globals_)
    stmts = [folder.visit(s) for s in stmts]
    return _prune(stmts)


# ------------------------------------------------------------------------------------------------ returns
def _has_return(stmts: list[ast.stmt]) -> bool:
    return any(isinstance(n, ast.Return) for s in stmts for n in ast.walk(s))


def _lower_returns(stmts: list[ast.stmt], target: str) -> tuple[list[ast.stmt], bool]:
    """Rewrite ``return e`` as ``target = e`` without early exits; the flag says every path returned."""
    out: list[ast.stmt] = []
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Return):
            out.append(ast.Assign([ast.Name(target, ast.Store())], s.value or ast.Constant(None)))
            return out, True
        if isinstance(s, ast.If) and _has_return([s]):
            rest = stmts[i + 1:]
            body, bt = _lower_returns(s.body + rest, target)
            orelse, ot = _lower_returns(s.orelse + rest, target)
            out.append(ast.If(s.test, body or [ast.Pass()], orelse))
            return out, bt and ot
        out.append(s)
    return out, False


# ------------------------------------------------------------------------------------------------ inlining
class _Builder:
    def __init__(self, globals_: dict, keep: frozenset[str] = frozenset()) -> None:
        self.globals = globals_
        self.keep = keep  # names of inlinable functions to call rather than inline
        self.n = 0
        self.used: list[Callable] = []  # functions inlined (in order, with repetitions removed)

    def fresh(self, base: str) -> str:
        self.n += 1
        return f"_{base}_{self.n}"

    def resolve(self, node: ast.expr) -> Callable | None:
        if isinstance(node, ast.Name) and node.id not in self.keep:
            fn = self.globals.get(node.id)
            if fn is not None and id(fn) in _INLINABLE and _INLINABLE[id(fn)] is fn:
                return fn
        return None

    def same_globals(self, fn: Callable, fd: ast.FunctionDef) -> bool:
        """Every global name ``fn`` reads means the same object in the generated code's globals (else the
        inlined body would read something else: ``fn`` is then called, not inlined)."""
        key = (id(fn), id(self.globals))
        ok = _SAME_GLOBALS.get(key)
        if ok is None:
            local = {a.arg for a in fd.args.args} | _assigned_names(fd.body)
            g = fn.__globals__
            b = g.get("__builtins__", {})
            b = b if isinstance(b, dict) else vars(b)
            ok = True
            for node in (n for st in fd.body for n in ast.walk(st)):  # the body: annotations are not run
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in local:
                    want = g[node.id] if node.id in g else b.get(node.id, _MISSING)
                    have = self.globals[node.id] if node.id in self.globals else b.get(node.id, _MISSING)
                    if want is not have:
                        ok = False
                        break
            _SAME_GLOBALS[key] = ok
        return ok

    # -------------------------------------------------------------------------- finding calls
    def first_call(self, node: ast.AST) -> ast.Call | None:
        """The first inlinable call evaluated unconditionally by expression ``node`` (post-order)."""
        if isinstance(node, ast.BoolOp):
            return self.first_call(node.values[0])
        if isinstance(node, ast.IfExp):
            return self.first_call(node.test)
        if isinstance(node, ast.Compare):
            c = self.first_call(node.left)
            if c is None and node.comparators:
                c = self.first_call(node.comparators[0])
            return c
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return None
        if isinstance(node, ast.Call):
            for a in node.args:
                c = self.first_call(a)
                if c is not None:
                    return c
            for k in node.keywords:
                c = self.first_call(k.value)
                if c is not None:
                    return c
            fn = self.resolve(node.func)
            if fn is not None:
                try:
                    fd = _function_ast(fn)
                except (NotInlinable, OSError, TypeError):
                    return None
                if not self.same_globals(fn, fd):
                    return None
                return node
            return None
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                c = self.first_call(child)
                if c is not None:
                    return c
        return None

    # -------------------------------------------------------------------------- statements
    def block(self, stmts: list[ast.stmt], depth: int = 0) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for s in stmts:
            out.extend(self.stmt(s, depth))
        return out

    def stmt(self, s: ast.stmt, depth: int) -> list[ast.stmt]:
        if isinstance(s, ast.If):
            pre, s.test = self.hoist_all(s.test, depth)
            s.body = self.block(s.body, depth) or [ast.Pass()]
            s.orelse = self.block(s.orelse, depth)
            return pre + [s]
        if isinstance(s, (ast.For, ast.While, ast.With, ast.Try)):
            for f in ("body", "orelse", "finalbody"):
                if hasattr(s, f):
                    setattr(s, f, self.block(getattr(s, f), depth))
            return [s]
        pre: list[ast.stmt] = []
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and isinstance(s.value, ast.Call) and self.first_call(s.value) is s.value:
            # `x = f(...)`: inline straight into x
            return self.inline(s.value, s.targets[0].id, depth)
        if isinstance(s, ast.Return) and s.value is not None:
            pre, s.value = self.hoist_all(s.value, depth)
        elif isinstance(s, ast.Assign):
            pre, s.value = self.hoist_all(s.value, depth)
        elif isinstance(s, ast.Expr):
            pre, s.value = self.hoist_all(s.value, depth)
        elif isinstance(s, ast.Raise) and s.exc is not None:
            pre, s.exc = self.hoist_all(s.exc, depth)
        return pre + [s]

    def hoist_all(self, expr: ast.expr, depth: int) -> tuple[list[ast.stmt], ast.expr]:
        pre: list[ast.stmt] = []
        while True:
            call = self.first_call(expr)
            if call is None:
                return pre, expr
            t = self.fresh("r")
            pre.extend(self.inline(call, t, depth))
            expr = _Replace(call, ast.Name(t, ast.Load())).visit(expr)

    def inline(self, call: ast.Call, target: str, depth: int) -> list[ast.stmt]:
        if depth > 40:
            raise RecursionError("rule inlining too deep")
        fn = self.resolve(call.func)
        assert fn is not None
        fd = _function_ast(fn)
        if fn not in self.used:
            self.used.append(fn)
        params = [a.arg for a in fd.args.args]
        defaults = fd.args.defaults
        args: dict[str, ast.expr] = {}
        for p, a in zip(params, call.args):
            args[p] = a
        for k in call.keywords:
            if k.arg is None or k.arg not in params or k.arg in args:
                raise NotInlinable(f"call of {fn.__name__} with unsupported keywords")
            args[k.arg] = k.value
        for p, d in zip(params[len(params) - len(defaults):], defaults):
            args.setdefault(p, d)
        if set(args) != set(params):
            raise NotInlinable(f"call of {fn.__name__}: missing arguments")
        body = _deepcopy(fd.body)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]  # docstring
        assigned = _assigned_names(body)
        pre: list[ast.stmt] = []
        subst: dict[str, ast.expr] = {}
        for p in params:  # arguments are evaluated in order before the body
            a = args[p]
            if isinstance(a, ast.Constant) and p not in assigned:
                subst[p] = a
            else:
                a_pre, a = self.hoist_all(_deepcopy(a), depth)
                pre.extend(a_pre)
                if isinstance(a, ast.Name) and p not in assigned:
                    subst[p] = ast.Name(a.id, ast.Load())
                else:
                    v = self.fresh(p)
                    pre.append(ast.Assign([ast.Name(v, ast.Store())], a))
                    subst[p] = ast.Name(v, ast.Load())
        for name in assigned:
            if name not in subst:
                subst[name] = ast.Name(self.fresh(name), ast.Load())
        body = [_Rename(subst).visit(s) for s in body]
        body = _simplify(body, self.globals)
        body, _ = _lower_returns(body, target)
        body = _simplify(body, self.globals)
        body = self.block(body, depth + 1)
        return pre + body


class _Replace(ast.NodeTransformer):
    def __init__(self, old: ast.AST, new: ast.expr) -> None:
        self.old, self.new = old, new

    def visit(self, node: ast.AST) -> Any:
        if node is self.old:
            return self.new
        return super().visit(node)


class _Bind(ast.NodeTransformer):
    def __init__(self, consts: dict[str, Any]) -> None:
        self.consts = consts

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.consts:
            return _mk(self.consts[node.id])
        return node


# ------------------------------------------------------------------------------------------------ entry points
def build(source: str, globals_: dict, consts: dict[str, Any] | None = None, name: str = "step",
          persist: bool = False) -> Callable:
    """Compile the function defined by ``source`` (one ``def``; outer ``def`` of a factory allowed) with
    the names in ``consts`` bound to those constants and every call of an :func:`inlinable` function (looked
    up in ``globals_``) inlined.  Results are cached in the process by (source, constants, globals identity),
    and with ``persist`` also as generated source text in the user cache (``$XESIM_CACHE_DIR/rules``, keyed by
    the template, the constants and a digest of the sources of every inlinable function), which saves the
    syntax-tree work in later processes.

    The returned function's ``__rules__`` lists the inlinable functions the generated code came from."""
    consts = dict(consts or {})
    key = (source, tuple(sorted(consts.items(), key=lambda kv: kv[0])), id(globals_))
    with _LOCK:
        fn = _BUILT.get(key)
        if fn is not None:
            return fn
    text = used = None
    path = _persist_path(source, key[1]) if persist else None
    if path is not None:
        try:
            cached = path.read_text()
        except OSError:
            cached = None
        if cached is not None and cached.startswith("# rules: "):
            head, _, text = cached.partition("\n")
            used = [globals_[n] for n in head[len("# rules: "):].split() if n in globals_]
    if text is None:
        text, used = inline_source(source, globals_, consts)
        if path is not None:
            from xesim.user_cache import write_atomically

            write_atomically(path, (f"# rules: {' '.join(f.__name__ for f in used)}\n{text}").encode())
    fn = _compile(text, ast.parse(textwrap.dedent(source)).body[0].name, globals_)  # type: ignore[attr-defined]
    fn.__rules__ = used
    with _LOCK:
        _BUILT[key] = fn
    return fn


_DIGEST: tuple[int, str] | None = None


def _persist_path(source: str, consts: tuple) -> Any:
    """The cache file of a generated function (None when the user cache is not writable)."""
    global _DIGEST
    import hashlib

    from xesim.user_cache import cache_subdir

    if _DIGEST is None or _DIGEST[0] != len(_INLINABLE):
        h = hashlib.sha256()
        files = {__file__}
        for fn in list(_INLINABLE.values()):
            f = inspect.getsourcefile(fn)
            if f:
                files.add(f)
        for f in sorted(files):
            try:
                h.update(open(f, "rb").read())  # noqa: SIM115
            except OSError:
                return None
        _DIGEST = (len(_INLINABLE), h.hexdigest()[:16])
    d = cache_subdir(f"rules/{_DIGEST[1]}")
    if d is None:
        return None
    k = hashlib.sha256(repr((source, consts)).encode()).hexdigest()[:32]
    return d / f"s_{k}.py"


def _compile(text: str, name: str, globals_: dict) -> Callable:
    filename = f"<xesim rule code {next(_COUNTER)}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    ns: dict[str, Any] = {}
    exec(compile(text, filename, "exec"), globals_, ns)  # noqa: S102 - our own generated code
    fn = ns[name]
    fn.__source__ = text
    return fn


def inline_source(source: str, globals_: dict, consts: dict[str, Any] | None = None,
                  keep: frozenset[str] = frozenset()) -> tuple[str, list[Callable]]:
    """The source text of :func:`build`'s function (not compiled) and the functions inlined into it; calls of the
    functions named in ``keep`` stay calls.  Compiled host loops use it to give numba one function per loop nest
    (with the primitives, whose numba lowering is an instruction, kept as calls)."""
    mod = ast.parse(textwrap.dedent(source))
    if len(mod.body) != 1 or not isinstance(mod.body[0], ast.FunctionDef):
        raise ValueError("a template is one function definition")
    fd = mod.body[0]
    b = _Builder(globals_, keep)
    fd = _Bind(dict(consts or {})).visit(fd)

    def rewrite(f: ast.FunctionDef) -> None:
        # the innermost function (a step inside a factory) gets the inlining; outer code is left alone
        inner = [s for s in f.body if isinstance(s, ast.FunctionDef)]
        for s in inner:
            rewrite(s)
        if not inner:
            f.body = b.block(_simplify(f.body, globals_))
            f.body = _simplify(f.body, globals_) or [ast.Pass()]
            _copy_propagate(f, globals_)

    rewrite(fd)
    ast.fix_missing_locations(mod)
    return ast.unparse(mod), list(b.used)


def generate(source: str, globals_: dict, consts: dict[str, Any]) -> tuple[Callable, list[Callable]]:
    """:func:`build` without the caches: returns the function and the inlined functions."""
    text, used = inline_source(source, globals_, consts)
    fn = _compile(text, ast.parse(textwrap.dedent(source)).body[0].name, globals_)  # type: ignore[attr-defined]
    fn.__rules__ = used
    return fn, used


def specialize(fn: Callable, **consts: Any) -> Callable:
    """``fn`` with the parameters in ``consts`` bound (removed from the signature) and its callees inlined."""
    fd = _function_ast(fn)
    params = [a.arg for a in fd.args.args]
    unknown = set(consts) - set(params)
    if unknown:
        raise TypeError(f"{fn.__name__} has no parameters {sorted(unknown)}")
    free = [p for p in params if p not in consts]
    bound = {f"_c_{p}": v for p, v in consts.items()}
    args = ", ".join(p if p in free else f"_c_{p}" for p in params)
    src = f"def {fn.__name__}_spec({', '.join(free)}):\n    return {fn.__name__}({args})\n"
    return build(src, fn.__globals__, bound)
