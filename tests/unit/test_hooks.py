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
    assert names(grf="off", engine="reference") == []
