"""Fuzzing harness (issue 27 item 7): mutate every program under ``examples/`` and ``tests/``, run ``verify``,
``fmt`` and ``run`` on each mutant in-process, and save every internal error, hang or resource blow-up as a
reproducer.

Mutations (one to three per mutant, seeded): line and token deletions, duplications and swaps; a number set to
0, -1, 2^63 or 1e309; a type changed; truncation; random bytes and bytes that are not UTF-8 inserted; two SSA
names swapped.  A mutant runs in a forked worker process (the parent keeps the imported xesim, so a case costs no
start-up) through :func:`xesim.cli.main`, with an address-space limit (``--memory-mb``) and a per-case time
limit (``--timeout``, enforced by the parent, which kills and replaces a worker that overruns).  Findings:

- ``internal``: exit status 2, "internal error" or a Python traceback on stderr;
- ``fmt``: ``fmt`` succeeded but is not a fixed point (``fmt(fmt(x)) != fmt(x)``);
- ``hang``: the case overran its time limit (``run`` of a seed program that itself takes longer is not tried);
- ``memory``: MemoryError, or the worker died (killed by the address-space limit).

Each finding is saved as ``<corpus>/<finding>-<command>-<sha1 prefix>.mlir`` (the mutant's bytes); the test suite
runs every saved file as a regression test (tests/unit/test_fuzz_corpus.py).  The summary's last line is
``fuzz: N mutants, I internal errors, F fmt differences, H hangs, M memory blow-ups``; exit status 1 when any.

    python tools/fuzz.py --count 5000 [--seed 0] [--timeout 10] [--memory-mb 3000] [--no-save]
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import random
import re
import resource
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from multiprocessing import Pipe, Process
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "fuzz_corpus"
NUMBERS = ("0", "-1", "9223372036854775808", "1e309")
TYPES = ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "index")
TYPE_RE = re.compile(r"\b(?:i1|i8|i16|i32|i64|f16|bf16|f32|f64|index)\b")
NUMBER_RE = re.compile(r"(?<![A-Za-z0-9_%#@^.])-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\b")
SSA_RE = re.compile(r"%[A-Za-z0-9_]+")
TOKEN_RE = re.compile(r"\s+|[A-Za-z0-9_%#@^!.$-]+|\"(?:[^\"\\\n]|\\.)*\"|.", re.S)
NOT_UTF8 = (b"\xff", b"\xe9", b"\xc3", b"\xed\xa0\x80", b"\xfe\xff", b"\x80")
RUN_BUDGET_S = 1.0  # seed programs that run longer are only verified and formatted (their mutants too)


def seed_programs() -> list[Path]:
    """Every .mlir program of the project (examples and tests) plus the saved reproducers."""
    out = sorted((ROOT / "examples").rglob("*.mlir")) + sorted((ROOT / "tests").rglob("*.mlir"))
    return [p for p in out if p.is_file()]


# ---------------------------------------------------------------------------------------------- mutations
def _lines(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    kind = rng.choice(("delete", "duplicate", "swap"))
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _tokens(rng: random.Random, text: str) -> str:
    toks = TOKEN_RE.findall(text)
    idx = [k for k, t in enumerate(toks) if not t.isspace()]
    if len(idx) < 2:
        return text
    i, j = rng.choice(idx), rng.choice(idx)
    kind = rng.choice(("delete", "duplicate", "swap"))
    if kind == "delete":
        toks[i] = ""
    elif kind == "duplicate":
        toks[i] = toks[i] + " " + toks[i]
    else:
        toks[i], toks[j] = toks[j], toks[i]
    return "".join(toks)


def _replace_one(rng: random.Random, text: str, pattern: re.Pattern, choices: tuple[str, ...]) -> str:
    found = list(pattern.finditer(text))
    if not found:
        return text
    m = rng.choice(found)
    return text[:m.start()] + rng.choice(choices) + text[m.end():]


def _number(rng: random.Random, text: str) -> str:
    return _replace_one(rng, text, NUMBER_RE, NUMBERS)


def _type(rng: random.Random, text: str) -> str:
    return _replace_one(rng, text, TYPE_RE, TYPES)


def _ssa_swap(rng: random.Random, text: str) -> str:
    found = list(SSA_RE.finditer(text))
    names = sorted({m.group() for m in found})
    if len(names) < 2:
        return text
    a, b = rng.sample(names, 2)
    m = rng.choice([m for m in found if m.group() == a])
    return text[:m.start()] + b + text[m.end():]


def _truncate(rng: random.Random, text: str) -> str:
    return text[:rng.randrange(len(text) + 1)]


TEXT_MUTATIONS = (_lines, _tokens, _number, _type, _ssa_swap, _truncate)


def mutate(rng: random.Random, data: bytes) -> tuple[bytes, list[str]]:
    """One to three mutations of ``data``; returns the mutant and the mutations' names."""
    text = data.decode("utf-8", errors="replace")
    names = []
    raw: list[tuple[int, bytes]] = []
    for _ in range(rng.randint(1, 3)):
        pick = rng.randrange(len(TEXT_MUTATIONS) + 2)
        if pick < len(TEXT_MUTATIONS):
            fn = TEXT_MUTATIONS[pick]
            text = fn(rng, text)
            names.append(fn.__name__.lstrip("_"))
        elif pick == len(TEXT_MUTATIONS):
            raw.append((rng.randrange(len(text) + 1), bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))))
            names.append("random_bytes")
        else:
            raw.append((rng.randrange(len(text) + 1), rng.choice(NOT_UTF8)))
            names.append("not_utf8")
    out = text.encode("utf-8")
    for pos, blob in raw:
        cut = len(text[:pos].encode("utf-8"))
        out = out[:cut] + blob + out[cut:]
    return out, names


# ---------------------------------------------------------------------------------------------- running
def run_case(path: str, command: str) -> tuple[int, str, str]:
    """``xesim <command> path`` in this process: (exit status, stdout, stderr)."""
    from xesim.cli import main

    out, err = io.StringIO(), io.StringIO()
    argv = [command, path] + (["--jobs", "1"] if command == "run" else [])
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:
            status = int(exc.code or 0) if isinstance(exc.code, int) else 1
        except MemoryError:
            return -2, "", "MemoryError"
        except BaseException as exc:  # noqa: BLE001 - a finding, reported by the parent
            return 2, "", f"escaped xesim.cli.main: {type(exc).__name__}: {exc}"
    return status, out.getvalue(), err.getvalue()


def _worker(conn, parent_end, memory_mb: int) -> None:
    parent_end.close()  # so that the parent's exit (even killed) ends recv() here: no orphan worker
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        conn.send(run_case(*job))


class Runner:
    """A forked worker running cases in-process; replaced when a case overruns or kills it."""

    def __init__(self, memory_mb: int) -> None:
        self.memory_mb = memory_mb
        self.proc: Process | None = None

    def _start(self) -> None:
        self.conn, child = Pipe()
        self.proc = Process(target=_worker, args=(child, self.conn, self.memory_mb), daemon=True)
        self.proc.start()
        child.close()

    def run(self, path: str, command: str, timeout: float) -> tuple[int, str, str] | str:
        """The case's (status, stdout, stderr), or ``"hang"`` / ``"memory"`` when the worker overran or died."""
        if self.proc is None or not self.proc.is_alive():
            self._start()
        self.conn.send((path, command))
        if not self.conn.poll(timeout):
            self.stop()
            return "hang"
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            self.stop()
            return "memory"

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.join()
            self.proc = None


def classify(result: tuple[int, str, str] | str) -> str | None:
    """The finding a case's result is (None: a diagnostic or success)."""
    if isinstance(result, str):
        return result
    status, _, err = result
    if status == -2 or "MemoryError" in err:
        return "memory"
    if status not in (0, 1) or "internal error" in err or "Traceback" in err:
        return "internal"
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=500, help="mutants to try (default 500)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per command of a mutant (default 10)")
    ap.add_argument("--memory-mb", type=int, default=3000, help="address-space limit of the worker (default 3000)")
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="where reproducers are saved")
    ap.add_argument("--no-save", action="store_true", help="report findings without saving reproducers")
    ap.add_argument("--no-run", action="store_true", help="verify and fmt only")
    args = ap.parse_args(argv)

    import tempfile

    rng = random.Random(args.seed)
    runner = Runner(args.memory_mb)
    seeds = seed_programs()
    fast: dict[Path, bool] = {}
    counts = {"internal": 0, "fmt": 0, "hang": 0, "memory": 0}
    tried = {"verify": 0, "fmt": 0, "run": 0}
    saved: list[str] = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="xesim-fuzz-") as tmp:
        case = Path(tmp) / "case.mlir"
        again = Path(tmp) / "again.mlir"
        for n in range(args.count):
            seed = rng.choice(seeds)
            data, names = mutate(rng, seed.read_bytes())
            case.write_bytes(data)
            findings: list[tuple[str, str, str]] = []
            status = None
            for command in ("verify", "fmt", "run"):
                if command == "run":
                    if args.no_run or status != 0:
                        break
                    if seed not in fast:  # time the unmutated program once
                        start = time.perf_counter()
                        r = runner.run(str(seed), "run", args.timeout)
                        fast[seed] = not isinstance(r, str) and time.perf_counter() - start < RUN_BUDGET_S
                    if not fast[seed]:
                        break
                result = runner.run(str(case), command, args.timeout)
                tried[command] += 1
                kind = classify(result)
                if kind is not None:
                    detail = result if isinstance(result, str) else result[2].strip().splitlines()[-1:]
                    findings.append((kind, command, str(detail)))
                    break
                status = result[0]  # type: ignore[index]
                if command == "fmt" and status == 0:
                    once = result[1]  # type: ignore[index]
                    again.write_text(once)
                    second = runner.run(str(again), "fmt", args.timeout)
                    if classify(second) is not None or second[0] != 0 or second[1] != once:  # type: ignore[index]
                        findings.append(("fmt", "fmt", "not a fixed point"))
                        break
            for kind, command, detail in findings:
                counts[kind] += 1
                print(f"[{n}] {kind} in {command}: {seed.relative_to(ROOT)} {'+'.join(names)}: {detail}", flush=True)
                if not args.no_save:
                    args.corpus.mkdir(parents=True, exist_ok=True)
                    name = f"{kind}-{command}-{hashlib.sha1(data).hexdigest()[:12]}.mlir"
                    (args.corpus / name).write_bytes(data)
                    saved.append(name)
    runner.stop()
    took = time.perf_counter() - t0
    if saved:
        print(f"saved {len(saved)} reproducer(s) in {args.corpus}")
    print(f"commands: {tried['verify']} verify, {tried['fmt']} fmt, {tried['run']} run")
    print(f"fuzz: {args.count} mutants in {took:.0f} s, {counts['internal']} internal errors, {counts['fmt']} fmt "
          f"differences, {counts['hang']} hangs, {counts['memory']} memory blow-ups")
    return 1 if any(counts.values()) else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("XESIM_JOBS", "1")
    sys.exit(main())
