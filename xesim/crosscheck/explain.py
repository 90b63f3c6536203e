"""Explaining a mismatch (issue 29 item 2): rerun the program under every DPAS model preset and every variant of
the assumed hardware parameters the run used, and say which settings make xesim's output match the recording.

Variants of an assumed parameter (``isa/targets/*.toml``): a boolean is flipped; a parameter whose ``doc`` lists
its values (``"own | zero"``) takes each other value; the others cannot be varied automatically and are listed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xesim.crosscheck.compare import Report

_CHOICES_RE = re.compile(r"^\s*[\w.-]+(\s*\|\s*[\w.-]+)+\s*$")


@dataclass
class Variant:
    """One setting to try: how it reads (``label``) and the run options that make it."""

    label: str
    options: dict[str, Any]


def variants(engine: Any, dpas_model: str | None) -> tuple[list[Variant], list[str]]:
    """The DPAS presets other than the one used, and the variants of the assumed parameters ``engine``'s run read;
    also the assumed parameters that have no enumerable alternatives."""
    from xesim.numerics.dpas_models import PRESETS

    out = [Variant(f"dpas model = {name}", {"dpas_model": name}) for name in PRESETS
           if name != (dpas_model or "default")]
    fixed: list[str] = []
    for p in engine.target.assumptions(only_used=True):
        if p.path.startswith("dpas.numerics."):
            continue  # the presets vary these together
        doc = p.doc
        if isinstance(p.value, bool):
            out.append(Variant(f"{p.path} = {str(not p.value).lower()}", {"overrides": ((p.path, not p.value),)}))
        elif isinstance(p.value, str) and doc and _CHOICES_RE.match(doc):
            for choice in (c.strip() for c in doc.split("|")):
                if choice != p.value:
                    out.append(Variant(f"{p.path} = {choice}", {"overrides": ((p.path, choice),)}))
        else:
            fixed.append(p.path)
    return out, fixed


def explain(baseline: Report, engine: Any, options: dict[str, Any],
            rerun: Callable[[dict[str, Any]], Report]) -> list[str]:
    """Lines saying, per variant, how many of the baseline's mismatches and structural differences remain when
    the program runs with it (``rerun(options)`` compares such a run with the recording); variants that make the
    outputs identical come first."""
    total = len(baseline.mismatches) + len(baseline.problems)
    vs, fixed = variants(engine, options.get("dpas_model"))
    results = []
    for v in vs:
        try:
            r = rerun({**options, **v.options, "overrides": tuple(options.get("overrides", ())) +
                       tuple(v.options.get("overrides", ()))})
        except Exception as exc:  # a variant the program cannot run under is reported, not fatal
            results.append((total + 1, f"  {v.label}: the run failed ({type(exc).__name__}: {exc})"))
            continue
        left = len(r.mismatches) + len(r.problems)
        if left == 0:
            text = f"  {v.label}: all {total} differences vanish"
        else:
            text = f"  {v.label}: {left} of {total} remain" + (f" (max {r.max_ulp} ulp)" if r.max_ulp else "")
        results.append((left, text))
    results.sort(key=lambda t: t[0])
    lines = [f"explain: {total} differences; {len(vs)} variants tried (each a rerun of the program)"]
    lines += [t for _, t in results]
    matched = [t for n, t in results if n == 0]
    if not matched:
        lines.append("  no single variant makes the outputs identical")
    if fixed:
        lines.append(f"  not varied (no enumerated alternatives): {', '.join(fixed)}")
    return lines


def feeding_ops(report: Report, run_with_writes: Callable[[], tuple[Any, Any]], limit: int = 3) -> list[str]:
    """For the first ``limit`` mismatching elements of printed memrefs: the ops that wrote them and what they
    stored (xesim/crosscheck/provenance.py).  ``run_with_writes()`` reruns the program with a
    :class:`~xesim.crosscheck.printlog.PrintLog` and a :class:`~xesim.crosscheck.provenance.WriterLog` and returns
    both."""
    from xesim.crosscheck.provenance import explain_element

    wanted = [m for m in report.mismatches if m.entry is not None and m.flat is not None][:limit]
    if not wanted:
        return []
    log, writes = run_with_writes()
    lines = ["where the mismatching elements come from (a rerun that records every write):"]
    for m in wanted:
        entry = log.entries[m.entry] if m.entry < len(log.entries) else None
        if entry is None or entry.addresses is None:
            continue
        idx = "[" + ", ".join(str(i) for i in m.index) + "]"
        lines.append(f"  {m.where} element {idx}:")
        lines += [f"    {t}" for t in explain_element(writes, int(entry.addresses[m.flat]))]
    return lines if len(lines) > 1 else []
