"""``xesim calibrate DIR``: fit the DPAS numerics model to what the probe programs printed on a GPU (issue 29
item 3; spec/dpas-numerics.md §6-§7).

Each probe program ``NAME.mlir`` of :mod:`xesim.probe.emit` names its test vectors; its output ``NAME.mlir.out``
holds, per vector, the bits of D at its two placements.  The candidates are the named presets
(:data:`xesim.numerics.dpas_models.PRESETS`) and every model that differs from one of them in a single parameter
(each parameter over the values of :data:`DOMAINS`).  A candidate fits when xesim's DPAS numerics give exactly the
observed bits for every vector.  A parameter is *measured* when all fitting candidates agree on its value, and
*undecidable* otherwise (the data cannot tell those values apart: more vectors would be needed).  The measured
values are written as a target overlay (``pvc-measured.toml``: the base target's parameters with these replaced,
each with the observations as evidence), which ``--target FILE.toml`` accepts.
"""

from __future__ import annotations

import datetime
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from xesim.numerics.dpas_models import PARAM_NAMES, PRESETS, DpasModel
from xesim.numerics.dpas_vectors import VECTORS, VECTORS_16

#: the values each parameter is tried with (spec/dpas-numerics.md §5)
DOMAINS: dict[str, tuple] = {
    "tf32_in": ("truncate", "rne", "full"), "prod_round": (False, True), "group": ("stage", "all", 1, 8),
    "align_bits": (0, 25, 27), "rounding": ("rne", "rna", "rz", "rd", "ru"), "acc_format": ("f32", "dst"),
    "src0_order": ("first", "last"), "stage_order": ("forward", "reverse"), "in_ftz_bf16": (False, True),
    "in_ftz_f16": (False, True), "in_ftz_tf32": (False, True), "src0_ftz": (False, True), "out_ftz": (False, True),
    "out_ftz_test": ("result", "exact"), "final_rounding": ("rne", "rna", "rz", "rd", "ru"),
    "nan_bits": (0x7FC00000, 0x7FFFFFFF), "int_overflow": ("wrap", "saturate_stage", "saturate_final"),
}

_PROBE_RE = re.compile(r"^// PROBE: dpas a=(\w+) dst=(\w+) vectors=([\w,]+)\s*$", re.M)
_NUMPY_TYPES = {"bf16": "bfloat16", "fp16": "float16", "tf32": "float32"}  # input format -> its values' dtype


class CalibrationError(Exception):
    """Probe outputs that cannot be used (the message names the file and the problem)."""


@dataclass
class Observations:
    """What the probe programs printed: per (input format, result type), vector id -> result bits; and notes
    about programs without output or with disagreeing placements."""

    by_group: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.by_group.values())


def read_outputs(directory: str) -> Observations:
    """The observations of the probe programs in ``directory`` (``NAME.mlir`` with ``NAME.mlir.out``)."""
    from xesim.crosscheck.printed import parse_output

    obs = Observations()
    d = Path(directory)
    if not d.is_dir():
        raise CalibrationError(f"{directory}: not a directory")
    for prog in sorted(d.glob("*.mlir")):
        m = _PROBE_RE.search(prog.read_text(errors="replace"))
        if m is None:
            continue
        fmt, dst, ids = m[1], m[2], m[3].split(",")
        out = prog.with_name(prog.name + ".out")
        if not out.is_file():
            obs.notes.append(f"{prog.name}: no {out.name} (not run); its vectors give no data")
            continue
        recs = [r for r in parse_output(out.read_text(errors="replace")) if r.kind == "memref"]
        if not recs or recs[0].shape != (len(ids), 2):
            raise CalibrationError(f"{out}: expected the printMemrefI32 of a {len(ids)}x2 memref (one row per vector "
                                   f"of {prog.name}), found {'no memref' if not recs else recs[0].shape}")
        try:
            vals = [int(t) & 0xFFFFFFFF for t in recs[0].tokens]
        except ValueError:
            raise CalibrationError(f"{out}: the printed memref holds non-integers") from None
        group = obs.by_group.setdefault((fmt, dst), {})
        for i, vid in enumerate(ids):
            first, second = vals[2 * i], vals[2 * i + 1]
            if first != second:
                obs.notes.append(f"{prog.name}: {vid} gave {first:#010x} at D[0][0] but {second:#010x} at D[1][15]; "
                                 "the first is used")
            group[vid] = first
    if not obs.by_group:
        raise CalibrationError(f"{directory}: no probe program with an output (NAME.mlir + NAME.mlir.out); "
                               "write them with `xesim probe emit`")
    return obs


def _inputs(vid: str) -> tuple[str, dict[int, int], dict[int, int], int]:
    if vid in VECTORS:
        return VECTORS[vid]
    if vid in VECTORS_16:
        return VECTORS_16[vid]
    raise CalibrationError(f"unknown test vector {vid!r}")


@functools.cache
def _target() -> Any:
    from xesim.hw.params import load_target

    return load_target("pvc")


def predict(model: DpasModel, fmt: str, dst: str, ids: tuple[str, ...]) -> dict[str, int]:
    """xesim's result bits of each vector under ``model`` (memoised on the parameters: every calibration tries
    the same candidates on the same vectors)."""
    return dict(_predict(tuple(getattr(model, p) for p in PARAM_NAMES), fmt, dst, ids))


@functools.lru_cache(maxsize=4096)
def _predict(params: tuple, fmt: str, dst: str, ids: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """Up to eight vectors share one DPAS instruction, vector i in row i and column i: an element of D depends
    only on its row of A, its column of B and its C."""
    import ml_dtypes

    from xesim.numerics.dpas import dpas_instruction
    from xesim.probe.emit import FORMATS, dpas_k

    t, dname = FORMATS[fmt][0], _NUMPY_TYPES[fmt]
    k = dpas_k(t)
    dtype = np.dtype(getattr(ml_dtypes, dname, None) or dname)
    udt = np.uint16 if dtype.itemsize == 2 else np.uint32
    if dst == "f32":
        cdt, cu, ctype = np.dtype(np.float32), np.uint32, "f32"
    else:
        cdt, cu, ctype = dtype, np.uint16, t
    out: dict[str, int] = {}
    for start in range(0, len(ids), 8):
        chunk = ids[start:start + 8]
        a = np.zeros((8, k), udt)
        b = np.zeros((k, 16), udt)
        c = np.zeros((8, 16), cu)
        for i, vid in enumerate(chunk):
            _, an, bn, cb = _inputs(vid)
            for kk, bits in an.items():
                a[i, kk] = bits
            for kk, bits in bn.items():
                b[kk, i] = bits
            c[i, i] = cb
        model = DpasModel(**dict(zip(PARAM_NAMES, params)))
        d = dpas_instruction(a.view(dtype), b.view(dtype), c.view(cdt), t, t, ctype, ctype, model, _target())
        bits = d.view(cu)
        for i, vid in enumerate(chunk):
            out[vid] = int(bits[i, i])
    return tuple(out.items())


def candidates() -> list[DpasModel]:
    """The presets and their single-parameter variants (distinct parameter sets only)."""
    seen: set[tuple] = set()
    out: list[DpasModel] = []
    options = [(name, params) for name, params in PRESETS.items()]  # presets first: they keep their names
    for name, params in PRESETS.items():
        for p, values in DOMAINS.items():
            options += [(f"{name}+{p}={v}", {**params, p: v}) for v in values if params[p] != v]
    for label, ps in options:
        key = tuple(ps[p] for p in PARAM_NAMES)
        if key in seen:
            continue
        seen.add(key)
        try:
            out.append(DpasModel(name=label, **ps))
        except ValueError:
            continue
    return out


@dataclass
class Fit:
    """The outcome: the fitting candidates, per parameter the measured value or the values that all fit, and
    which vectors each measured parameter rests on."""

    fitting: list[DpasModel]
    measured: dict[str, Any]
    undecidable: dict[str, list]
    evidence: dict[str, list[str]]
    observations: Observations

    def render(self) -> str:
        lines = [f"calibrate: {self.observations.count} observations; {len(self.fitting)} of "
                 f"{len(candidates())} candidate models fit them"]
        lines += [f"  note: {n}" for n in self.observations.notes]
        if not self.fitting:
            lines.append("  no candidate model reproduces every observation: the hardware behaves unlike every "
                         "model xesim implements (see spec/dpas-numerics.md §7); nothing is written")
            return "\n".join(lines)
        presets = [m.name for m in self.fitting if m.name in PRESETS]
        lines.append(f"  presets that fit: {', '.join(presets) if presets else 'none (only variants)'}")
        for p, v in self.measured.items():
            why = ", ".join(self.evidence.get(p, [])) or "no vector tells the tried values apart from this one"
            lines.append(f"  measured  {p} = {_show(v)}   (decided by {why})")
        for p, vs in self.undecidable.items():
            lines.append(f"  undecidable  {p}: {', '.join(_show(v) for v in vs)} all fit")
        return "\n".join(lines)


def _show(v: Any) -> str:
    return f"{v:#010x}" if isinstance(v, int) and not isinstance(v, bool) and v > 0xFFFF else repr(v)


def fit(obs: Observations) -> Fit:
    """Which candidate models reproduce ``obs`` exactly, and what that says about each parameter."""
    fitting = [m for m in candidates() if _agrees(m, obs)]
    measured: dict[str, Any] = {}
    undecidable: dict[str, list] = {}
    evidence: dict[str, list[str]] = {}
    for p in PARAM_NAMES:
        values = sorted({getattr(m, p) for m in fitting}, key=repr)
        if len(values) == 1:
            measured[p] = values[0]
            evidence[p] = _deciding_vectors(fitting[0], p, obs)
        elif values:
            undecidable[p] = values
    return Fit(fitting, measured, undecidable, evidence, obs)


def _agrees(m: DpasModel, obs: Observations) -> bool:
    for (fmt, dst), seen in obs.by_group.items():
        want = predict(m, fmt, dst, tuple(seen))
        if want != seen:
            return False
    return True


def _deciding_vectors(model: DpasModel, p: str, obs: Observations) -> list[str]:
    """The observed vectors whose result changes when ``p`` of ``model`` takes another tried value."""
    import dataclasses

    out: set[str] = set()
    for v in DOMAINS[p]:
        if v == getattr(model, p):
            continue
        try:
            other = dataclasses.replace(model, **{p: v})
        except ValueError:
            continue
        for (fmt, dst), seen in obs.by_group.items():
            got = predict(other, fmt, dst, tuple(seen))
            out |= {vid for vid in seen if got[vid] != seen[vid]}
    return sorted(out)


def chosen_model(result: Fit, base: dict[str, Any]) -> DpasModel:
    """The fitting model to write: the one that keeps the most of the base target's values (a preset first on
    ties), so an undecidable parameter keeps the base value whenever that value fits."""
    return max(result.fitting, key=lambda m: (sum(getattr(m, p) == base[p] for p in PARAM_NAMES), m.name in PRESETS))


def overlay_text(result: Fit, base: str, directory: str) -> str:
    """A target overlay (``isa/targets`` format) inheriting ``base``: the measured parameters, and the undecidable
    ones whose base value does not fit (set to the value of :func:`chosen_model`, marked assumed)."""
    from xesim.hw.params import load_target
    from xesim.numerics.dpas_models import model_from_target

    base_params = model_from_target(load_target(base)).params()
    chosen = chosen_model(result, base_params)
    date = datetime.date.today().isoformat()
    source = f"measured: xesim calibrate {directory} ({date})"
    lines = ["# Written by `xesim calibrate` from the probe kit's outputs; use it with --target FILE.toml.",
             f"# Observations: {result.observations.count} test-vector results in {directory} ({date}).",
             "# Parameters the observations cannot decide (the base target's value is kept where it fits):"]
    lines += [f"#   {p}: {', '.join(_show(v) for v in vs)} all fit" for p, vs in result.undecidable.items()]
    lines += ["", "[target]", f'name = "{base}-measured"', f'inherits = "{base}"',
              f'description = "{base} with the DPAS numerics measured by xesim calibrate"', "", "[dpas.numerics]"]
    for p in PARAM_NAMES:
        v = getattr(chosen, p)
        if p in result.measured:
            why = ", ".join(result.evidence.get(p, [])) or "no tried alternative changes any observed vector"
            lines.append(f'{p} = {{ value = {_toml(p, v)}, source = "{source}", '
                         f'evidence = "decided by test vectors: {why}" }}')
        elif v != base_params[p]:
            fits = ", ".join(_show(x) for x in result.undecidable.get(p, [v]))
            lines.append(f'{p} = {{ value = {_toml(p, v)}, source = "{source}", assumed = true, evidence = '
                         f'"the observations allow {fits}; the base value {_show(base_params[p])} does not fit, '
                         f'so the value of the fitting model {chosen.name} is used" }}')
    return "\n".join(lines) + "\n"


def _toml(p: str, v: Any) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, str):
        return f'"{v}"'
    return f"0x{v:08X}" if p == "nan_bits" else str(v)


_CHECK_RE = re.compile(r"^// CHECK-PROBE: (\w+)\s*$", re.M)


def run_checks(directory: str, target: str = "pvc") -> list[str]:
    """Lines comparing the GPU's output of each check probe (:mod:`xesim.probe.checks`) in ``directory`` with
    xesim's run of it: identical, or which elements differ (for ``math_points``: per function, how many points
    and the largest ULP distance)."""
    from xesim.crosscheck.compare import Report, compare_output
    from xesim.crosscheck.runs import run_logged
    from xesim.ir.parser import parse_source
    from xesim.verify.structural import verify_module

    lines: list[str] = []
    for prog in sorted(Path(directory).glob("*.mlir")):
        text = prog.read_text(errors="replace")
        m = _CHECK_RE.search(text)
        if m is None:
            continue
        out = prog.with_name(prog.name + ".out")
        if not out.is_file():
            lines.append(f"  {m[1]}: no {out.name} (not run)")
            continue
        module = parse_source(text, str(prog))
        verify_module(module)
        sim, log, _ = run_logged(module, target=target, jobs=1)
        rep = compare_output(Report(prog.name, out.name), out.read_text(errors="replace"), sim, log)
        if m[1] == "math_points" and not rep.problems:
            lines += _math_lines(rep)
        elif rep.passed():
            lines.append(f"  {m[1]}: the GPU printed what xesim predicts ({rep.elements} elements)")
        else:
            lines.append(f"  {m[1]}: {len(rep.mismatches)} of {rep.elements} elements differ from xesim's prediction"
                         + (f", {len(rep.problems)} structural differences" if rep.problems else ""))
            lines += [f"    {p}" for p in rep.problems[:5]] + [f"    {x.render()}" for x in rep.mismatches[:5]]
    return ["checks (what the GPU printed against what xesim predicts):"] + lines if lines else []


def _math_lines(rep: Any) -> list[str]:
    from xesim.crosscheck.compare import ulp_distance
    from xesim.probe.checks import MATH_FUNCTIONS

    per: dict[int, list] = {}
    for mm in rep.mismatches:
        per.setdefault(mm.index[0] // 8, []).append(mm)
    out = []
    for f, name in enumerate(MATH_FUNCTIONS):
        ms = per.get(f, [])
        if not ms:
            out.append(f"  math.{name}: identical to xesim at all 128 points")
            continue
        ulps = []
        for mm in ms:
            a = np.array(int(mm.recorded) & 0xFFFFFFFF, np.uint32).view(np.float32)
            b = np.array(int(mm.xesim) & 0xFFFFFFFF, np.uint32).view(np.float32)
            ulps.append(ulp_distance(a, b))
        known = [u for u in ulps if u is not None]
        worst = f"max {max(known)} ulp" if known else "NaNs differ"
        out.append(f"  math.{name}: {len(ms)} of 128 points differ from xesim ({worst})")
    return out
