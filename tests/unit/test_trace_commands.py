"""``xesim trace summary`` and ``xesim trace log`` (issue 28 item 2): what they print for the SG GEMM example, worked
out from the program (examples/sg_gemm_f16.mlir: grid 4x2, one subgroup each, K = 32 in two steps of 16), and their
errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_xesim

ROOT = Path(__file__).resolve().parents[2]
SG_GEMM = ROOT / "examples" / "sg_gemm_f16.mlir"
NBARRIER = ROOT / "tests" / "e2e" / "sched_nbarrier_pipeline.mlir"


@pytest.fixture(scope="module")
def gemm(tmp_path_factory):
    path = tmp_path_factory.mktemp("c") / "gemm.xetrace"
    status, _, err = run_xesim(["run", "--trace", str(path), str(SG_GEMM)])
    assert status == 0, err
    return path


def test_summary_counts_ops_bytes_dpas_and_the_register_peak(gemm):
    status, out, err = run_xesim(["trace", "summary", str(gemm)])
    assert status == 0 and err == ""
    text = re.sub(r"\s+", " ", out)
    assert "184 op executions" in text  # 8 subgroups x 23 ops
    assert "grid (4, 2, 1), block (16, 1, 1)" in text and "recorded: 8 workgroup(s), 8 subgroup(s)" in text
    counts = dict(re.findall(r"│? ?([a-z_]+\.[a-z_]+) +│ +(\d+) +│", out))
    assert counts == {"arith.constant": "40", "gpu.block_id": "16", "arith.muli": "16",
                      "xegpu.create_nd_tdesc": "24", "scf.for": "8", "xegpu.load_nd": "32", "xegpu.dpas": "16",
                      "scf.yield": "16", "xegpu.store_nd": "8", "gpu.return": "8"}
    # read: 8 subgroups x 2 steps x (8x16 + 16x16) f16; written: 8 x 8x16 f32
    assert re.search(r"global +│ +12,288 +│ +4,096 +│ +0", out)
    assert "DPAS: 16 x (8x16 · 16x16 · 8x16 -> 8x16)" in text
    assert re.search(r"GRF peak: \d+ of 128 registers \(64 B\)", text)


def test_summary_reports_named_barrier_phases(tmp_path):
    path = tmp_path / "n.xetrace"
    run_xesim(["run", "-q", "--trace", str(path), str(NBARRIER)])
    _, out, _ = run_xesim(["trace", "summary", str(path)])
    assert "named barriers: 16 arrival(s), 16 acquisition(s)" in re.sub(r"\s+", " ", out)


def test_log_is_one_line_per_op_execution_and_diffs_cleanly(gemm, tmp_path):
    status, out, _ = run_xesim(["trace", "log", str(gemm)])
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 184
    assert lines[0] == f"L0 wg(0,0,0) sg0 arith.constant {SG_GEMM.relative_to(ROOT)}:10:7 : %c0 = 0" or \
        lines[0].endswith("sg_gemm_f16.mlir:10:7 : %c0 = 0")
    # workgroup (1,0): %m = 8 * block_id x = 8; the loop body is indented
    wg1 = [ln for ln in lines if ln.startswith("L0 wg(1,0,0) sg0")]
    assert any(re.search(r"arith\.muli \S+:16:7 : %m = 8$", ln) for ln in wg1)
    assert sum("   xegpu.dpas" in ln for ln in wg1) == 2
    # C[0][0..7] of the first tile = A[0][j] + A[0][j-1] = 0, 1, 3, 5, ...: the final accumulator
    dpas = [ln for ln in lines if ln.startswith("L0 wg(0,0,0)") and "xegpu.dpas" in ln]
    assert "%d = 8x16 float32 [0, 1, 3, 5, 7, 9, 11, 13, ...] #" in dpas[-1]
    # a second run of the same program gives the same log (no times, no addresses)
    again = tmp_path / "again.xetrace"
    run_xesim(["run", "-q", "--trace", str(again), str(SG_GEMM)])
    assert run_xesim(["trace", "log", str(again)])[1] == out
    _, short, _ = run_xesim(["trace", "log", "--elements", "2", str(gemm)])
    assert "[0, 1, ...] #" in short


def test_log_to_a_closed_pipe_ends_quietly(gemm):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = "import sys; from xesim.cli import main; sys.exit(main())"
    p = subprocess.run(f"{sys.executable} -c '{code}' trace log {gemm} | head -n 1", shell=True, env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.stdout.count("\n") == 1 and p.stderr == ""


@pytest.mark.parametrize("cmd", [["summary"], ["log"], ["export", "--perfetto", "OUT"], ["view"]])
def test_what_is_not_a_trace_is_one_error_line(tmp_path, cmd):
    bad = tmp_path / "bad.xetrace"
    bad.write_text("not a trace\n")
    cmd = [str(tmp_path / "o.json") if c == "OUT" else c for c in cmd]
    for path, message in ((bad, "not an xesim trace"), (tmp_path / "missing.xetrace", "no such file")):
        status, out, err = run_xesim(["trace", *cmd, str(path)])
        assert status == 1 and out == ""
        assert err.startswith("xesim: error: ") and message in err and "Traceback" not in err
    assert not (tmp_path / "o.json").exists()


def test_view_without_a_terminal_says_so(gemm):
    status, out, err = run_xesim(["trace", "view", str(gemm)])
    assert status == 1 and out == "" and "xesim trace view needs a terminal" in err


def test_a_trace_with_nothing_recorded(tmp_path):
    path, out = tmp_path / "e.xetrace", tmp_path / "e.json"
    assert run_xesim(["run", "-q", "--trace", str(path), "--trace-kernel", "nothing*", str(SG_GEMM)])[0] == 0
    status, text, _ = run_xesim(["trace", "summary", str(path)])
    flat = re.sub(r"\s+", " ", text)  # rich wraps the summary at the console width, which depends on the path
    assert status == 0 and "0 op executions" in flat and "not recorded (filters)" in flat
    assert run_xesim(["trace", "log", str(path)])[:2] == (0, "")
    assert run_xesim(["trace", "export", "--perfetto", str(out), str(path)])[0] == 0
    import json

    assert [e["ph"] for e in json.loads(out.read_text())["traceEvents"]] == ["M"]  # the launch's name only
