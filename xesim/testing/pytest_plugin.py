"""The pytest plugin (entry point ``pytest11``: ``xesim``; issue 26 item 3).

``pytest --xesim PATH`` collects the ``.mlir`` test files under PATH (discovered as ``xesim test`` discovers them,
``lit.local.cfg`` files included) as test items: one per file, or one per ``// -----`` split of a
``-split-input-file -verify-diagnostics`` test.  Each runs through :func:`xesim.testing.pipeline.run_test`, so the
verdicts are those of ``xesim test`` and ``lit``: UNSUPPORTED is a skip (with the reason), XFAIL an xfail, FAIL,
XPASS and UNRESOLVED failures whose report starts with the first unmatched CHECK line, then FileCheck's report
(expected text, where it looked in the output) and the output.  Without ``--xesim`` the plugin collects nothing.

Fixtures for a project's own tests (numpy arrays in, xesim's bit-exact results out, compared with a diff):

* ``xesim_run(program, entry="main", **options)`` -> :class:`xesim.api.RunResult` (``program``: a path, MLIR
  text or a loaded :class:`xesim.api.Program`; options as :meth:`xesim.api.Program.run`);
* ``xesim_launch(program, kernel, grid, block, args, **options)`` -> :class:`XesimLaunch`: xesim's
  :class:`xesim.api.LaunchResult` plus ``assert_same(i, yours, ulp=0)``, which fails with
  :func:`xesim.testing.arraydiff.array_diff`'s report (first differing elements, ULP distances, a mismatch map).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from xesim.testing.arraydiff import assert_same
from xesim.testing.pipeline import Outcome, run_test, split_count
from xesim.testing.suite import TestCase, discover


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("xesim", "xesim: lit-style .mlir tests run by the simulator")
    group.addoption("--xesim", action="append", default=[], metavar="PATH",
                    help="collect the .mlir tests under PATH (RUN lines as lit reads them) and run them in xesim")


def pytest_configure(config: pytest.Config) -> None:
    paths = config.getoption("xesim", default=[])
    if not paths:
        return
    config._xesim_tests = {t.path.resolve(): t for t in discover(paths)}  # type: ignore[attr-defined]
    # `pytest --xesim DIR` alone collects DIR's tests (not the project's testpaths)
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args[:] = [str(Path(p)) for p in paths]
    else:
        config.args.extend(str(Path(p)) for p in paths if str(Path(p)) not in config.args)


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.File | None:
    tests: dict[Path, TestCase] = getattr(parent.config, "_xesim_tests", {})
    case = tests.get(file_path.resolve())
    if case is None:
        return None
    return XesimFile.from_parent(parent, path=file_path, case=case)


class XesimFile(pytest.File):
    """A test file: one item, or one per split of a -split-input-file diagnostic test."""

    def __init__(self, *, case: TestCase, **kw: Any) -> None:
        super().__init__(**kw)
        self.case = case

    def collect(self):
        n = split_count(self.case.path)
        if n == 0:
            yield XesimItem.from_parent(self, name=self.case.name, case=self.case, chunk=None)
        else:
            for k in range(n):
                yield XesimItem.from_parent(self, name=f"{self.case.name}[split {k + 1}]", case=self.case, chunk=k)


class XesimTestFailure(Exception):
    """A FAIL / XPASS / UNRESOLVED outcome."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.reason)
        self.outcome = outcome


class XesimItem(pytest.Item):
    def __init__(self, *, case: TestCase, chunk: int | None, **kw: Any) -> None:
        super().__init__(**kw)
        self.case, self.chunk = case, chunk

    def runtest(self) -> None:
        outcome = Outcome("UNRESOLVED", self.case.error) if self.case.error else \
            run_test(self.case.path, self.case.context, self.chunk)
        if outcome.verdict == "UNSUPPORTED":
            pytest.skip(f"UNSUPPORTED: {outcome.reason}")
        if outcome.verdict == "XFAIL":
            pytest.xfail(outcome.reason)
        if outcome.failed:
            raise XesimTestFailure(outcome)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, XesimTestFailure):
            o = excinfo.value.outcome
            head = f"{o.verdict}: {self.case.path}"
            if o.check_line:
                head += f"\nfirst unmatched CHECK line {o.check_line}: {o.check_text}"
            return "\n".join([head, o.reason, o.details]).rstrip()
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, None, str]:
        return self.path, None, ""  # the node id names the test (a domain with dots would be shown as "::")


@dataclass
class XesimLaunch:
    """xesim's result of a kernel launch (``result``: :class:`xesim.api.LaunchResult`) and a comparison."""

    result: Any

    @property
    def arrays(self) -> list[np.ndarray]:
        return self.result.arrays

    @property
    def output(self) -> str:
        return self.result.output

    def assert_same(self, index: int, yours: np.ndarray, ulp: int = 0) -> None:
        """Fail unless ``yours`` equals xesim's array argument ``index`` after the launch (bit for bit, or within
        ``ulp`` ULPs), with the first differing elements, ULP distances and a mismatch map."""
        __tracebackhide__ = True
        assert_same(self.result.arrays[index], np.asarray(yours), ulp, what=f"array argument {index}")


def _program(program: Any) -> Any:
    import xesim

    return program if isinstance(program, xesim.Program) else xesim.load(program)


@pytest.fixture
def xesim_run() -> Callable[..., Any]:
    """``xesim_run(program, entry="main", **options)``: run a program's entry function in xesim."""

    def run(program: Any, entry: str = "main", **options: Any) -> Any:
        return _program(program).run(entry, **options)

    return run


@pytest.fixture
def xesim_launch() -> Callable[..., XesimLaunch]:
    """``xesim_launch(program, kernel, grid, block, args, **options)``: launch one kernel on numpy arrays."""

    def launch(program: Any, kernel: str, grid: tuple = (1, 1, 1), block: tuple = (16, 1, 1),
               args: list | tuple = (), **options: Any) -> XesimLaunch:
        import xesim

        return XesimLaunch(xesim.launch(_program(program), kernel, grid, block, args, **options))

    return launch
