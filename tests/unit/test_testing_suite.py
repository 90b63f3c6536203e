"""The test-suite directory written for issue 26 (examples/ci-suite) gives the same verdicts under `xesim test`,
`lit` with the shipped configuration and `pytest --xesim`, and the deliberately failing test's report names its
first unmatched CHECK line in each.  Expected verdicts are the ones examples/ci-suite/README.md states."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "examples" / "ci-suite"
EXPECTED = {
    "xegpu/saxpy_lane.mlir": "PASS",
    "xegpu/answer_i32.mlir": "PASS",
    "imex/saxpy_vc.mlir": "PASS",
    "dialect/invalid.mlir": "PASS",
    "dialect/lowering.mlir": "UNSUPPORTED",
    "dialect/requires_cuda.mlir": "UNSUPPORTED",
    "vulkan/saxpy.mlir": "UNSUPPORTED",
    "failing/wrong_check.mlir": "FAIL",
}
FIRST_UNMATCHED = "line 15: // CHECK-NEXT: 5"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "XESIM_JOBS": "1"}


def _run(argv: list[str], **kw) -> subprocess.CompletedProcess:
    env = {**_env(), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, **kw)


@pytest.fixture(scope="module")
def xesim_test_json(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess, dict, Path]:
    out = tmp_path_factory.mktemp("reports")
    proc = _run([sys.executable, "-m", "xesim", "test", str(SUITE), "-j", "2", "--json", str(out / "r.json"),
                 "--junit-xml", str(out / "r.xml")])
    return proc, json.loads((out / "r.json").read_text()), out / "r.xml"


def test_xesim_test_verdicts(xesim_test_json) -> None:
    proc, report, _ = xesim_test_json
    assert proc.returncode == 1, proc.stderr      # one test fails: CI sees a failure
    assert {t["name"]: t["verdict"] for t in report["tests"]} == EXPECTED
    assert report["summary"] == {"PASS": 4, "FAIL": 1, "UNSUPPORTED": 3, "XFAIL": 0, "XPASS": 0, "UNRESOLVED": 0}
    failing = next(t for t in report["tests"] if t["verdict"] == "FAIL")
    assert (failing["check_line"], failing["check_text"]) == (15, "// CHECK-NEXT: 5")
    assert FIRST_UNMATCHED in proc.stdout
    assert re.search(r"│ FAIL\s+│\s+1 │", proc.stdout) and re.search(r"│ total\s+│\s+8 │", proc.stdout)
    # the excluded file is not a test at all; reasons say what xesim stood in for
    assert "huge_gemm" not in proc.stdout
    reasons = {t["name"]: t["reason"] for t in report["tests"]}
    assert "in place of mlir-opt --gpu-lower-to-xevm-pipeline=xegpu-op-level=lane" in reasons["xegpu/saxpy_lane.mlir"]
    assert "in place of imex_runner xegpu-to-func-vc.pp" in reasons["imex/saxpy_vc.mlir"]
    assert "does not implement the lowering passes" in reasons["dialect/lowering.mlir"]


def test_junit_xml(xesim_test_json) -> None:
    _, _, xml_path = xesim_test_json
    suite = ET.parse(xml_path).getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("8", "1", "3")
    cases = {f"{c.get('classname')}/{c.get('name')}": c for c in suite.iter("testcase")}
    failure = cases["xesim.failing/wrong_check.mlir"].find("failure")
    assert failure is not None and FIRST_UNMATCHED in failure.get("message")
    assert "Couldn't match \"5\"" in failure.text
    assert cases["xesim.vulkan/saxpy.mlir"].find("skipped") is not None
    assert cases["xesim.xegpu/answer_i32.mlir"].find("failure") is None


def test_lit_gives_the_same_verdicts(tmp_path: Path) -> None:
    suite = tmp_path / "ci-suite"   # a copy: lit records test times in the suite directory
    shutil.copytree(SUITE, suite)
    proc = _run([str(Path(sys.executable).with_name("lit")), "-v", str(suite)])
    assert proc.returncode == 1
    got = dict((name, verdict) for verdict, name in re.findall(r"^(\w+): xesim :: (\S+) \(", proc.stdout, re.M))
    assert got == EXPECTED, proc.stdout + proc.stderr
    assert FIRST_UNMATCHED in proc.stdout


def test_pytest_xesim_gives_the_same_verdicts() -> None:
    # this worktree's plugin (-p), not an installed copy's pytest11 entry point
    proc = _run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "xesim.testing.pytest_plugin",
                 "--xesim", str(SUITE), "-v", "-rs"])
    assert proc.returncode == 1
    got: dict[str, set[str]] = {}
    for name, verdict in re.findall(r"^examples/ci-suite/\S+::(\S+?)(?:\[split \d+\])? (PASSED|FAILED|SKIPPED)", proc.stdout, re.M):
        got.setdefault(name, set()).add({"PASSED": "PASS", "FAILED": "FAIL", "SKIPPED": "UNSUPPORTED"}[verdict])
    assert {k: v.pop() for k, v in got.items() if len(v) == 1} == EXPECTED, proc.stdout
    # one item per split of the -split-input-file diagnostic test
    assert len(re.findall(r"dialect/invalid.mlir\[split \d\] PASSED", proc.stdout)) == 2
    assert f"first unmatched CHECK line {FIRST_UNMATCHED.removeprefix('line ')}" in proc.stdout


def test_xesim_test_reports_unknown_things_by_name(tmp_path: Path) -> None:
    (tmp_path / "lit.cfg.py").write_text("")
    (tmp_path / "a.mlir").write_text("// RUN: mlir-runner %s --shared-libs=%mlir_cuda_runtime | FileCheck %s\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "lit.local.cfg").write_text("if not config.enable_cuda_runner:\n    config.unsupported = True\n")
    (sub / "b.mlir").write_text("// RUN: mlir-runner %s | FileCheck %s\n")
    (tmp_path / "c.mlir").write_text("// RUN: mlir-translate %s --mlir-to-llvmir | FileCheck %s\n")
    proc = _run([sys.executable, "-m", "xesim", "test", str(tmp_path), "-j", "1", "--json", "-"])
    report = json.loads(proc.stdout)
    got = {t["name"]: (t["verdict"], t["reason"]) for t in report["tests"]}
    assert got["a.mlir"][0] == "UNRESOLVED" and "unknown lit substitution '%mlir_cuda_runtime'" in got["a.mlir"][1]
    assert got["sub/b.mlir"][0] == "UNRESOLVED" and "config.enable_cuda_runner is not defined" in got["sub/b.mlir"][1]
    assert got["c.mlir"] == ("UNSUPPORTED", "xesim does not stand in for 'mlir-translate'")
    assert proc.returncode == 1


def test_xesim_test_usage_errors(tmp_path: Path) -> None:
    assert _run([sys.executable, "-m", "xesim", "test"]).returncode == 2
    empty = _run([sys.executable, "-m", "xesim", "test", str(tmp_path)])
    assert empty.returncode == 2 and "no tests found" in empty.stderr
    missing = _run([sys.executable, "-m", "xesim", "test", str(tmp_path / "nope")])
    assert missing.returncode == 1 and "no such file" in missing.stderr and "Traceback" not in missing.stderr


def test_explain_assumptions_lists_the_runner_conventions() -> None:
    proc = _run([sys.executable, "-m", "xesim", "test", "--explain-assumptions"])
    assert proc.returncode == 0
    assert "entry_point.float_format = '%.6e'" in proc.stdout and "evidence:" in proc.stdout
