"""``xesim test PATH...``: a lit-style test suite run by xesim (issue 26 item 2).

Discovery follows lit: a directory is walked (``Inputs`` directories and names starting with ``.`` skipped); each
directory's ``lit.local.cfg`` runs on a copy of its parent's configuration (lit's ``config``: ``unsupported``,
``suffixes``, ``excludes``, ``available_features``, ``substitutions``, ``root`` and the attributes of
``isa/runner.toml`` ``lit.config_attributes``), and files with a configured suffix (``.mlir`` by default) that are
not excluded are tests.  A file named on the command line is a test whatever its suffix.  Reading an attribute the
configuration does not define is reported, naming it (the directory's tests are UNRESOLVED), never guessed.

Each test runs through :func:`xesim.testing.pipeline.run_test`; ``jobs`` > 1 runs tests in that many worker
processes.  Reports: :func:`junit_xml`, :func:`json_report`, and the terminal view of :mod:`xesim.testing.report`.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from xesim.testing.conventions import value
from xesim.testing.pipeline import FAILING, VERDICTS, Context, Outcome, run_test
from xesim.testing.procs import die_with_parent


class SuiteConfig:
    """The ``config`` object a ``lit.local.cfg`` sees (lit's attributes plus ``lit.config_attributes``); reading
    any other attribute raises an AttributeError naming it."""

    def __init__(self) -> None:
        self.unsupported = False
        self.suffixes: set[str] = {".mlir"}
        self.excludes: set[str] = set()
        self.available_features: set[str] = set(value("lit.features"))
        self.substitutions: list[tuple[str, str]] = []
        self.environment: dict[str, str] = {}
        self.name = "xesim"
        self.test_format = None
        for k, v in value("lit.config_attributes").items():
            setattr(self, k, v)
        self.root = SimpleNamespace(targets=set(), **value("lit.config_attributes"))

    def __getattr__(self, name: str) -> Any:  # only for attributes that were never set
        raise AttributeError(f"config.{name} is not defined by xesim's lit configuration (isa/runner.toml "
                             "lit.config_attributes lists what it defines)")


@dataclass(frozen=True)
class TestCase:
    """One discovered test: the file, its name relative to the suite root it was found under, its context."""

    path: Path
    name: str
    context: Context = field(default_factory=Context)
    error: str = ""  # a lit.local.cfg that could not be run: the test is UNRESOLVED with this reason


def _run_local_cfg(cfg_path: Path, parent: SuiteConfig) -> SuiteConfig:
    cfg = copy.deepcopy(parent)
    cfg.excludes = set()  # lit: excludes apply to the directory that sets them
    lit_config = SimpleNamespace(params={}, note=lambda *a: None, warning=lambda *a: None,
                                 fatal=lambda msg: (_ for _ in ()).throw(RuntimeError(msg)))
    code = compile(cfg_path.read_text(), str(cfg_path), "exec")
    exec(code, {"config": cfg, "lit_config": lit_config, "__file__": str(cfg_path), "os": os})
    return cfg


def _context(cfg: SuiteConfig) -> Context:
    unsupported = "lit.local.cfg marks the directory unsupported" if cfg.unsupported else ""
    return Context(frozenset(cfg.available_features), tuple(cfg.substitutions), unsupported)


def discover(paths: list[str | Path]) -> list[TestCase]:
    """The tests under ``paths`` (directories walked as lit does, files taken as they are), sorted by name."""
    out: list[TestCase] = []
    for p in map(Path, paths):
        if not p.exists():
            raise FileNotFoundError(str(p))
        if p.is_file():
            cfg, err = _config_for(p.parent)
            out.append(TestCase(p, p.name, _context(cfg), err))
        else:
            out.extend(_walk(p, p, *_config_for(p)))
    return sorted(out, key=lambda t: str(t.path))


def _config_for(directory: Path) -> tuple[SuiteConfig, str]:
    """The configuration of ``directory``: the lit.local.cfg files from the suite root (the nearest ancestor with
    a lit.cfg.py / lit.cfg, else ``directory`` itself) down."""
    directory = directory.resolve()
    chain = [directory]
    d = directory
    while not any((d / n).exists() for n in ("lit.cfg.py", "lit.cfg")) and d.parent != d:
        d = d.parent
        chain.append(d)
    if not any((d / n).exists() for n in ("lit.cfg.py", "lit.cfg")):
        chain = [directory]
    cfg = SuiteConfig()
    for d in reversed(chain):
        if (d / "lit.local.cfg").exists():
            try:
                cfg = _run_local_cfg(d / "lit.local.cfg", cfg)
            except Exception as exc:  # the user's configuration file: report it, run nothing under it
                return cfg, f"{d / 'lit.local.cfg'}: {type(exc).__name__}: {exc}"
    return cfg, ""


def _walk(root: Path, d: Path, cfg: SuiteConfig, err: str) -> Iterator[TestCase]:
    for entry in sorted(d.iterdir()):
        if entry.name.startswith(".") or entry.name in ("Inputs", "lit.local.cfg", "lit.cfg.py", "lit.cfg",
                                                        "lit.site.cfg.py"):
            continue
        if entry.is_dir():
            sub_cfg, sub_err = cfg, err
            if not err and (entry / "lit.local.cfg").exists():
                try:
                    sub_cfg = _run_local_cfg(entry / "lit.local.cfg", cfg)
                except Exception as exc:
                    sub_err = f"{entry / 'lit.local.cfg'}: {type(exc).__name__}: {exc}"
            yield from _walk(root, entry, sub_cfg, sub_err)
        elif entry.suffix in cfg.suffixes and entry.name not in cfg.excludes:
            yield TestCase(entry, str(entry.relative_to(root)), _context(cfg), err)


@dataclass(frozen=True)
class Result:
    """A test and its outcome, with the time it took (seconds)."""

    test: TestCase
    outcome: Outcome
    seconds: float


def _run_one(test: TestCase) -> Result:
    import time

    t0 = time.perf_counter()
    outcome = Outcome("UNRESOLVED", test.error) if test.error else run_test(test.path, test.context)
    return Result(test, outcome, time.perf_counter() - t0)


def _worker_init(parent_pid: int) -> None:
    # one of `jobs` worker processes: its launches stay in it (no nested worker processes); it dies with the
    # parent (xesim/testing/procs.py); Ctrl-C is the parent's to handle (it terminates the pool)
    os.environ["XESIM_JOBS"] = "1"
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent_pid)


def _run_indexed(item: tuple[int, TestCase]) -> tuple[int, Result]:
    return item[0], _run_one(item[1])


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def run_tests(tests: list[TestCase], jobs: int = 1,
              on_result: Callable[[Result], None] | None = None) -> list[Result]:
    """Run ``tests`` (``jobs`` worker processes when > 1), calling ``on_result`` as each finishes; results in the
    order of ``tests``.  SIGTERM (a CI timeout) ends the run with SystemExit(143) and Ctrl-C with
    KeyboardInterrupt, the workers terminated either way (and killed by the kernel should this process die)."""
    results: dict[int, Result] = {}
    if jobs <= 1 or len(tests) <= 1:
        for i, t in enumerate(tests):
            results[i] = _run_one(t)
            if on_result:
                on_result(results[i])
        return [results[i] for i in range(len(tests))]
    in_main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGTERM, _terminated) if in_main else None
    try:
        # Pool.__exit__ terminates the workers, also when an exception (SIGTERM, Ctrl-C) leaves the block
        with get_context("fork").Pool(jobs, initializer=_worker_init, initargs=(os.getpid(),)) as pool:
            for i, r in pool.imap_unordered(_run_indexed, list(enumerate(tests))):
                results[i] = r
                if on_result:
                    on_result(r)
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, old)
    return [results[i] for i in range(len(tests))]


def counts(results: list[Result]) -> dict[str, int]:
    """How many results have each verdict (every verdict listed, in lit's order)."""
    out = dict.fromkeys(VERDICTS, 0)
    for r in results:
        out[r.outcome.verdict] += 1
    return out


def exit_status(results: list[Result]) -> int:
    """1 when any test FAILed, XPASSed or was UNRESOLVED (lit's rule), else 0."""
    return 1 if any(r.outcome.verdict in FAILING for r in results) else 0


def junit_xml(results: list[Result], suite: str = "xesim") -> str:
    """A JUnit XML report: one testcase per test (classname: its directory, dotted), ``failure`` for FAIL, XPASS
    and UNRESOLVED (message: the reason; text: the details), ``skipped`` for UNSUPPORTED."""
    c = counts(results)
    ts = ET.Element("testsuite", name=suite, tests=str(len(results)), failures=str(sum(c[v] for v in FAILING)),
                    skipped=str(c["UNSUPPORTED"]), errors="0", time=f"{sum(r.seconds for r in results):.3f}")
    for r in results:
        parent, _, base = r.test.name.replace(os.sep, "/").rpartition("/")
        tc = ET.SubElement(ts, "testcase", classname=f"{suite}.{parent.replace('/', '.')}" if parent else suite,
                           name=base, time=f"{r.seconds:.3f}")
        o = r.outcome
        if o.failed:
            f = ET.SubElement(tc, "failure", message=f"{o.verdict}: {o.reason}", type=o.verdict)
            f.text = o.details
        elif o.verdict == "UNSUPPORTED":
            ET.SubElement(tc, "skipped", message=o.reason)
    ET.indent(ts)
    return ET.tostring(ts, encoding="unicode", xml_declaration=True) + "\n"


def json_report(results: list[Result]) -> str:
    """A JSON report: ``{"summary": {verdict: count}, "exit_status": n, "tests": [{name, path, verdict, reason,
    details, check_line, check_text, seconds}]}``."""
    return json.dumps({
        "summary": counts(results),
        "exit_status": exit_status(results),
        "tests": [{"name": r.test.name, "path": str(r.test.path), "verdict": r.outcome.verdict,
                   "reason": r.outcome.reason, "details": r.outcome.details, "check_line": r.outcome.check_line,
                   "check_text": r.outcome.check_text, "seconds": round(r.seconds, 3)} for r in results],
    }, indent=2) + "\n"
