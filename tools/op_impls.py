#!/usr/bin/env python3
"""Where each op's semantics lives: its implementations, counted from the source (issue 25; ARCHITECTURE.md).

For every op defined in isa/dialects this prints

* the implementation registered for it (``@impl``, xesim/exec/registry.py): file, function, and whether it handles
  the instance axis itself (``axis``) or is written for one instance and lifted onto the axis (``lifted``);
* every registration of the op's name with another decorator anywhere in ``xesim/`` — a second implementation (the
  lane-level and batched forms once registered with ``@lane_impl`` / ``@batch_impl`` were); ``@impl`` itself
  refuses a second implementation of a name (xesim/exec/registry.py);
* the compiled host-loop form when the numba loop compiler handles the op (xesim/exec/jit/codegen.py ``_OPS``): the
  scalar rules it calls, which must be the very rules the interpreter's implementation calls
  (xesim/numerics/scalar_rules.py ``OP_RULES``), or ``structural`` for control flow, constants and memory access,
  which the compiled code translates and ``XESIM_ENGINE=both`` checks against the interpreter;
* the other tables keyed by op names (race footprints, rule tables), for information.

An op has exactly one semantic implementation when it has one ``@impl``, no other registration, and a compiled form,
if any, that takes its rules from the shared scalar rules.  The last line is the summary (quoted in ARCHITECTURE.md);
the exit status is 1 when some op has no implementation or more than one.

    python tools/op_impls.py [--quiet] [OP ...]
"""

from __future__ import annotations

import argparse
import ast
import inspect
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _decorator_registrations(ops: set[str]) -> dict[str, list[str]]:
    """op -> ``file:line decorator`` of every decorator call in xesim/ naming the op (``@impl("x")``, ...)."""
    out: dict[str, list[str]] = defaultdict(list)
    for path in sorted((ROOT / "xesim").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            calls = []
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                calls = [d for d in node.decorator_list if isinstance(d, ast.Call)]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Call):  # impl("x")(fn)
                calls = [node.func]
            for call in calls:
                name = ast.unparse(call.func)
                for arg in call.args:
                    if isinstance(arg, ast.Constant) and arg.value in ops:
                        out[arg.value].append(f"{path.relative_to(ROOT)}:{call.lineno} {name}")
    return out


def _op_tables(ops: set[str]) -> dict[str, list[str]]:
    """op -> the module-level dicts keyed by op names (at least two keys) that mention it."""
    out: dict[str, list[str]] = defaultdict(list)
    for path in sorted((ROOT / "xesim").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if not isinstance(node, (ast.Assign, ast.AnnAssign)) or not isinstance(node.value, ast.Dict):
                continue
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            keys = [k.value for k in node.value.keys if isinstance(k, ast.Constant) and k.value in ops]
            if len(keys) < 2:
                continue
            where = f"{path.relative_to(ROOT)} {ast.unparse(target)}"
            for k in keys:
                out[k].append(where)
    return out


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT))
    import xesim.exec.ops  # noqa: F401  (registers every implementation)
    from xesim.exec.jit import codegen
    from xesim.exec.registry import AXIS, IMPLS
    from xesim.ir.opdefs import load_registry
    from xesim.numerics import scalar_rules

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ops", nargs="*", help="only these ops (default: all)")
    ap.add_argument("--quiet", action="store_true", help="print the summary line only")
    args = ap.parse_args(argv)

    defined = set(load_registry().ops)
    registrations = _decorator_registrations(defined)
    tables = _op_tables(defined)
    compiled = set(getattr(codegen, "_OPS", {}))
    rules = scalar_rules.OP_RULES
    single = axis = lifted = jit_rules = jit_structural = 0
    problems: list[str] = []
    rows = []
    for op in sorted(defined):
        fn = IMPLS.get(op)
        regs = registrations.get(op, [])
        where = "-"
        if fn is not None:
            src = Path(inspect.getsourcefile(fn) or "?")
            line = inspect.getsourcelines(fn)[1]
            where = f"{src.relative_to(ROOT) if src.is_relative_to(ROOT) else src}:{line} {fn.__qualname__}"
        kind = "axis" if op in AXIS else "lifted"
        if op in compiled:
            if op in rules:
                jit = "rules " + ", ".join(rules[op])
                jit_rules += 1
            else:
                jit = "structural"
                jit_structural += 1
        else:
            jit = ""
        others = [r for r in regs if not r.endswith(" impl")]  # registrations other than @impl
        ok = fn is not None and not others and (op not in compiled or op in rules or jit == "structural")
        if ok:
            single += 1
            axis += op in AXIS
            lifted += op not in AXIS
        else:
            problems.append(f"{op}: {'no @impl' if fn is None else 'an @impl'}; other registrations: "
                            f"{'; '.join(others) or 'none'}")
        rows.append((op, where, kind, jit, [t for t in tables.get(op, []) if "OP_RULES" not in t], others))
    if not args.quiet:
        shown = [r for r in rows if not args.ops or r[0] in args.ops]
        for op, where, kind, jit, tabs, _ in shown:
            print(f"{op:34} {kind:6} {where}")
            if jit:
                print(f"{'':34} compiled host loops: {jit}")
            for t in tabs:
                print(f"{'':34} keyed by name in {t}")
        for p in problems:
            print("NOT ONE IMPLEMENTATION:", p)
        print()
    print(f"{len(defined)} ops defined; {single} with exactly one semantic implementation ({axis} handle the instance "
          f"axis, {lifted} are lifted onto it); {jit_rules + jit_structural} also compiled in host loop nests "
          f"({jit_rules} through the interpreter's scalar rules, {jit_structural} structural: loops, constants, "
          f"memory access)")
    return 0 if single == len(defined) else 1


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        sys.stderr.close()
        raise SystemExit(0) from None
