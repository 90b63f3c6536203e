"""The one hook (xesim/exec/hooks.py): observers written outside the executor see every op it runs and may wrap
launches; the standard ones (race detector, register-file model, engine cross-check) are subscribed from the run
configuration only."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from xesim.api import load, make_engine, standard_observers
from xesim.config import RunConfig
from xesim.exec.hooks import Observer

ROOT = Path(__file__).resolve().parents[2]
SAXPY = ROOT / "examples" / "lane_saxpy.mlir"


class Counting(Observer):
    """Counts the ops of kernels it sees execute and the launches it wraps."""

    def __init__(self, log: list) -> None:
        self.log = log
        self.ops: dict[str, int] = {}

    def instrument(self, op, cx, step, is_term):  # noqa: ANN001, ANN201 - the hook's signature
        if step is None or is_term or cx.func_op.name != "gpu.func":
            return step

        def counted(fr: list) -> None:
            self.ops[op.name] = self.ops.get(op.name, 0) + 1
            step(fr)

        return counted

    def wrap_launch(self, engine, launch):  # noqa: ANN001, ANN201 - the hook's signature
        def wrapped(kernel, name, *rest) -> None:  # noqa: ANN001
            self.log.append((id(self), "begin", name))
            launch(kernel, name, *rest)
            self.log.append((id(self), "end", name))

        return wrapped


def _engine(monkeypatch: pytest.MonkeyPatch, **options: object):  # noqa: ANN202
    monkeypatch.setenv("XESIM_GRF", "off")
    monkeypatch.setenv("XESIM_JOBS", "1")
    out = io.StringIO()
    return make_engine(load(str(SAXPY)).module, out=out, err=io.StringIO(), **options), out


def test_a_user_observer_sees_the_kernel_ops_execute_and_the_output_is_unchanged(
        monkeypatch: pytest.MonkeyPatch) -> None:
    plain, plain_out = _engine(monkeypatch)
    plain.run("main")
    engine, out = _engine(monkeypatch)
    log: list = []
    obs = engine.subscribe(Counting(log))
    engine.run("main")
    assert out.getvalue() == plain_out.getvalue()
    # lane_saxpy: one kernel launch; its body loads, multiplies-adds and stores with memref ops at lane level
    assert [entry[1:] for entry in log] == [("begin", "@kernels::@saxpy"), ("end", "@kernels::@saxpy")]
    assert obs.ops.get("memref.store", 0) >= 1 and obs.ops.get("memref.load", 0) >= 1
    assert not any(name.startswith("func.") for name in obs.ops)  # host code is not a gpu.func


def test_launch_wrappers_nest_in_subscription_order(monkeypatch: pytest.MonkeyPatch) -> None:
    engine, _ = _engine(monkeypatch)
    log: list = []
    first, second = engine.subscribe(Counting(log)), engine.subscribe(Counting(log))
    engine.run("main")
    assert log == [(id(second), "begin", "@kernels::@saxpy"), (id(first), "begin", "@kernels::@saxpy"),
                   (id(first), "end", "@kernels::@saxpy"), (id(second), "end", "@kernels::@saxpy")]


def test_the_standard_observers_come_from_the_configuration_only() -> None:
    def names(**options: object) -> list[str]:
        return [type(o).__name__ for o in standard_observers(RunConfig(**options))]

    assert names(grf="off") == []
    assert names(grf="checked", check_races=True, engine="both") == ["RaceObserver", "RegisterFileObserver",
                                                                       "EngineCrossCheck"]
    assert names(grf="checked", check_races=True, check_memory="init", engine="both") == [
        "RaceObserver", "MemoryChecker", "RegisterFileObserver", "EngineCrossCheck"]
    assert names(grf="off", engine="reference") == []


HOST_LOOP = """func.func @main(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xindex>
  scf.for %i = %c0 to %n step %c1 {
    %j = arith.remui %i, %c1 : index
    memref.store %i, %a[%j] : memref<4xindex>
  }
  %r = memref.load %a[%c0] : memref<4xindex>
  %q = arith.divui %r, %n : index
  return %q : index
}
"""


class HostOps(Observer):
    """Counts the host ``memref.store`` steps it sees and the ends of runs."""

    def __init__(self, sees: bool) -> None:
        self.sees_host_ops = sees
        self.stores = 0
        self.ends = 0

    def instrument(self, op, cx, step, is_term):  # noqa: ANN001, ANN201 - the hook's signature
        if op.name != "memref.store":
            return step

        def counted(fr: list) -> None:
            self.stores += 1
            step(fr)

        return counted

    def run_end(self, engine) -> None:  # noqa: ANN001 - the hook's signature
        self.ends += 1


@pytest.mark.parametrize("sees", [False, True])
def test_host_loops_are_interpreted_for_an_observer_that_sees_host_ops(monkeypatch: pytest.MonkeyPatch,
                                                                     sees: bool) -> None:
    monkeypatch.setenv("XESIM_ENGINE", "fast")
    engine = make_engine(load(HOST_LOOP).module, out=io.StringIO(), err=io.StringIO())
    obs = engine.subscribe(HostOps(sees))
    assert engine.run("main", [5]) == [0]  # a[0] = 4 at the end; 4 / 5
    # compiled, the loop's stores happen inside one step the observer never sees; interpreted, each is a step
    assert obs.stores == (5 if sees else 0)
    assert obs.ends == 1


def test_run_end_is_not_called_when_the_run_faults(monkeypatch: pytest.MonkeyPatch) -> None:
    from xesim.diagnostics import DiagnosticError

    engine = make_engine(load(HOST_LOOP).module, out=io.StringIO(), err=io.StringIO())
    obs = engine.subscribe(HostOps(True))
    with pytest.raises(DiagnosticError, match="division by zero"):
        engine.run("main", [0])
    assert obs.ends == 0
