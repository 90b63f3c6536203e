"""The scalar rule table: for every scalar arith/index/math op, the rules of xesim/numerics/scalar_rules.py that
define it (``OP_RULES``), and -- with ``--check`` -- the rules each engine actually used for it when running one
loop nest holding every op on every type under ``XESIM_ENGINE=both`` (xesim/exec/rule_table.py).  The interpreter
and the compiled code must have used the same rules (the same function objects); exits 1 if not.

    python tools/rule_table.py [--check]
"""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    from xesim.exec import rule_table

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="run the sample nest in both engines and compare")
    args = ap.parse_args(argv)
    usage = rule_table.engine_usage() if args.check else None
    print(rule_table.format_table(usage))
    if usage is None:
        return 0
    diff = sorted(op for op, (i, c) in usage.items() if i != c)
    verdict = "rules differ for " + ", ".join(diff) if diff else "same rules for every op"
    print(f"\n{len(usage)} ops run by both engines; {verdict}")
    return 1 if diff else 0


if __name__ == "__main__":
    raise SystemExit(main())
