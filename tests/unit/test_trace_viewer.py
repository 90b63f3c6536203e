"""``xesim trace view`` (issue 28 item 2), used the way a person uses it: headless with textual's pilot (keys in,
pane text out) and once in a real pseudo-terminal under tmux.  Expected contents come from the programs'
definitions (examples/sg_gemm_f16.mlir, examples/simt_dpas_f16.mlir, tests/e2e/xegpu_sg_plain_oob.mlir), not from
the viewer's code."""

from __future__ import annotations

import asyncio
import html
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import run_xesim
from xesim.trace import load

ROOT = Path(__file__).resolve().parents[2]
SG_GEMM = ROOT / "examples" / "sg_gemm_f16.mlir"
SIMT = ROOT / "examples" / "simt_dpas_f16.mlir"
OOB = ROOT / "tests" / "e2e" / "xegpu_sg_plain_oob.mlir"
GEMM_A = np.fromfunction(lambda i, k: (i + k) % 8, (32, 32)).astype(np.float32)
GEMM_B = np.fromfunction(lambda k, j: ((j == k) | (j == k + 1)).astype(np.float32), (32, 32))


def record(tmp_path_factory, program: Path) -> Path:
    path = tmp_path_factory.mktemp("v") / f"{program.stem}.xetrace"
    status, _, err = run_xesim(["run", "-q", "--trace", str(path), str(program)])
    assert status == 0, err
    return path


@pytest.fixture(scope="module")
def gemm(tmp_path_factory):
    return record(tmp_path_factory, SG_GEMM)


GEMM_STEPS = {  # one session of keys on the SG GEMM trace; the snapshot after each step by name
    "jjk": ["j", "j", "k"],
    "find 13": None,
    "next 13": ["n"],
    "registers": ["2"],
    "store": None,
    "next store": ["n"],
    "help": ["question_mark"],
    "help closed": ["escape"],
}


GEMM_STEPS["find 13"] = ["slash", "1", "3", "enter"]
GEMM_STEPS["store"] = ["slash", *"store_nd", "enter", "3"]


@pytest.fixture(scope="module")
def gemm_views(gemm):
    return dict(zip(GEMM_STEPS, drive(gemm, list(GEMM_STEPS.values()))))


def drive(path: Path, steps: list[list[str]], size: tuple[int, int] = (120, 40)) -> list[dict]:
    """Open the viewer on ``path`` headless and press the keys of each step in turn; after each step, what it shows:
    each pane's text, the selected event and subgroup, the active pane, the screen's class and the screen as text
    (from its SVG screenshot)."""
    from xesim.trace.viewer import TraceViewer

    async def run() -> list[dict]:
        app = TraceViewer(load(path))
        out = []
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for keys in steps:
                for k in keys:
                    await pilot.press(k)
                    await pilot.pause()
                panes = {p: str(app.query_one(f"#{p}-text").content) for p in ("op", "regs", "mem", "dpas")}
                panes["timeline"] = str(app.query_one("#timeline").content)
                svg = app.export_screenshot()
                screen = html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")
                regions = [app.query_one(q).region for q in ("#status", "#tree", "#ops", "#timeline-box", "#panes",
                                                              "Footer")]
                out.append({"panes": panes, "event": app.event, "instance": app.instance,
                            "screen_class": type(app.screen).__name__, "pane": app.query_one("#panes").active,
                            "screen": screen, "regions": regions})
        return out

    return asyncio.run(run())


def search(text: str) -> list[str]:
    return ["slash", *[{" ": "space", ".": "full_stop", ":": "colon"}.get(c, c) for c in text], "enter"]


def test_op_pane_shows_the_source_caret_lanes_and_values(gemm_views):
    got = gemm_views["next 13"]  # the first xegpu.dpas
    op = got["panes"]["op"]
    assert op.startswith("xegpu.dpas  ") and "sg_gemm_f16.mlir:25:9" in op
    lines = op.splitlines()
    src = [i for i, ln in enumerate(lines) if "%d = xegpu.dpas %av, %bv, %sum" in ln][0]
    assert lines[src].startswith("   25 | ")
    assert lines[src + 1] == "      | " + " " * 8 + "^"  # under column 9
    assert "0xffff (16 of 16 lanes)" in op
    # result %d of the first K step = A[0:8, 0:16] @ B[0:16, 0:16]; row 1 as printed
    d = GEMM_A[:8, :16] @ GEMM_B[:16, :16]
    row1 = [ln for ln in lines[lines.index(" %d: 8x16 float32"):] if ln.strip().startswith("1 ")][0]
    assert [float(x) for x in row1.split()[1:]] == d[1].tolist()


def test_register_pane_shows_exactly_the_bytes_of_the_dpas_result(gemm_views):
    got = gemm_views["registers"]
    assert got["pane"] == "regs"
    regs = got["panes"]["regs"]
    hexrows = re.findall(r"^r(\d+) +\+(\d+) +([0-9a-f]{64})$", regs, re.M)
    assert hexrows
    dump = "".join(h for _, _, h in hexrows)
    d = (GEMM_A[:8, :16] @ GEMM_B[:16, :16]).astype(np.float32)
    assert d.tobytes().hex() in dump  # the 8x16 f32 result, row after row, in its registers
    # the owner map: %d's letter fills whole registers, one row of 16 elements each
    legend = re.search(r"^ (\w) %d \(xegpu\.dpas at \S+\): r(\d+)-r(\d+), elements 0-127$", regs, re.M)
    assert legend is not None
    letter, first, last = legend.group(1), int(legend.group(2)), int(legend.group(3))
    assert last - first + 1 == 8  # 512 bytes in 64-byte registers
    for k, r in enumerate(range(first, last + 1)):
        assert re.search(rf"^r{r} +{letter * 64}  el {16 * k}-{16 * k + 15}$", regs, re.M)


def test_memory_pane_ownership_is_the_launch_geometry(gemm_views):
    got = gemm_views["store"]
    assert got["pane"] == "mem"
    mem = got["panes"]["mem"]
    legend = dict(re.findall(r" (\w)=wg \((\d+,\d+,\d+)\)", mem))
    rows = re.findall(r"^ *(\d+) ([A-Za-z0-9·]{32})$", mem, re.M)
    assert len(rows) == 32
    for r, cells in rows:
        for c, sym in enumerate(cells):
            # examples/sg_gemm_f16.mlir: workgroup (bx, by) writes C[8bx:8bx+8, 16by:16by+16]
            assert legend[sym] == f"{int(r) // 8},{c // 16},0", (r, c)
    # the store's window: rows 0..7, columns 0..15 of the 32x32 f32 surface, nothing out of bounds
    assert "window rows 0..7, columns 0..15 (8x16) over a 32x32 surface" in mem and "out of bounds: 0 of 128" in mem


def test_block_window_shows_offsets_and_padding(tmp_path_factory):
    path = record(tmp_path_factory, OOB)
    # tests/e2e/xegpu_sg_plain_oob.mlir: S is 16x32 f32; load 8x16 at [-2, -4]: rows -2, -1 and columns -4..-1 pad
    at26, at21 = drive(path, [[*search(":26:"), "3"], search(":21:")])
    mem = at26["panes"]["mem"]
    assert "window rows -2..5, columns -4..11 (8x16) over a 16x32 surface" in mem
    assert "out of bounds: 56 of 128 elements (read as 0)" in mem
    window = mem.split("\nallocation ")[0]  # the window drawing comes before the ownership heatmap
    grid = dict(re.findall(r"^ *(-?\d+) ([█░· ]+)$", window, re.M))
    for r in range(-2, 6):
        cells = grid[str(r)][:16]
        if r < 0:
            assert cells == "░" * 16
        else:
            assert cells == "░" * 4 + "█" * 12
    # load 8x16 at [12, 24]: rows 16..19 and columns 32..39 are outside
    assert "out of bounds: 96 of 128 elements (read as 0)" in at21["panes"]["mem"]


def test_barrier_alignment_and_subgroup_ownership(tmp_path_factory):
    """tests/e2e/sched_slm_exchange_8sg.mlir: 8 subgroups; subgroup s writes SLM row s and (after one gpu.barrier)
    global row s; before the barrier subgroups run different numbers of ops only in their loops' trip counts (equal
    here), so every subgroup's barrier sits in one column of the timeline."""
    path = record(tmp_path_factory, ROOT / "tests" / "e2e" / "sched_slm_exchange_8sg.mlir")
    slm, first, glob = drive(path, [["3"], ["m"], ["m"]])
    timeline = slm["panes"]["timeline"].splitlines()[1:]
    assert len(timeline) == 8
    bars = {ln.index("|") for ln in timeline}
    assert len(bars) == 1  # aligned
    for view, space in ((slm, "slm"), (first, "slm"), (glob, "global")):
        mem = view["panes"]["mem"]
        assert f"({space}, 512 bytes) as 8x16 elements of 4 bytes: the workgroup and subgroup" in mem
        legend = dict(re.findall(r" (\w)=wg \(0,0,0\) sg (\d)", mem))
        rows = re.findall(r"^ *(\d+) (\w{16})$", mem, re.M)
        assert len(rows) == 8
        for r, cells in rows:
            assert {legend[c] for c in cells} == {r}  # row s written by subgroup s


def test_simt_fragments_and_dpas_pane(tmp_path_factory):
    path = record(tmp_path_factory, SIMT)
    (got,) = drive(path, [[*search("xegpu.dpas"), "4"]])
    dpas = got["panes"]["dpas"]
    assert got["pane"] == "dpas" and "A: 16x8 float16 [lane, fragment]" in dpas
    # A[i][k] = i + 1: lane l's A fragment is column l of A's rows: 1 .. 8 for every lane
    a_rows = re.findall(r"^  lane +(\d+) ((?: *\d+){8})$", dpas.split("B:")[0], re.M)
    assert len(a_rows) == 16 and all([int(x) for x in row.split()] == list(range(1, 9)) for _, row in a_rows)
    op = got["panes"]["op"]
    assert "lane 15" in op and "per lane" in op


def test_help_search_by_value_and_switching_subgroups(gemm, gemm_views):
    v = gemm_views
    assert v["help"]["screen_class"] == "HelpScreen" and "search: an op name, a location (:LINE" in v["help"]["screen"]
    assert v["help closed"]["screen_class"] == "Screen"
    tr = load(gemm)
    name = lambda snap: tr.ops["name"][tr.events["op"][snap["event"]]]  # noqa: E731
    assert v["jjk"]["event"] == 1
    # the value 13 first appears (after event 1) in a result of workgroup (0,0,0)'s scf.for (the final accumulator:
    # its event begins before the loop body), then in its first dpas (C[0][8] = A[0][8] + A[0][7] = 13)
    assert name(v["find 13"]) == "scf.for" and v["find 13"]["instance"] == (0, 0, 0, 0, 0)
    assert name(v["next 13"]) == "xegpu.dpas" and v["next 13"]["instance"] == (0, 0, 0, 0, 0)
    # n: the next store_nd is workgroup (1,0,0)'s: the viewer switches subgroup
    assert name(v["store"]) == "xegpu.store_nd" and v["store"]["instance"] == (0, 0, 0, 0, 0)
    assert name(v["next store"]) == "xegpu.store_nd" and v["next store"]["instance"] == (0, 1, 0, 0, 0)
    assert "wg (1,0,0) sg 0" in v["next store"]["panes"]["op"]


def test_fits_80x24(gemm):
    (got,) = drive(gemm, [[*search("xegpu.dpas"), "2"]], size=(80, 24))
    assert all(r.right <= 80 and r.bottom <= 24 for r in got["regions"])
    screen = got["screen"]
    for text in ("launch 0 @gemm", "xegpu.dpas", "2 Registers", "GRF after event", "? help"):
        assert text in screen, text


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (installed in the project's environment)")
def test_viewer_in_a_real_terminal(gemm, tmp_path):
    """Run ``xesim trace view`` in a tmux pseudo-terminal, type a search and a pane key, read the screen, quit."""
    session = "view"
    tmux = ["tmux", "-S", str(tmp_path / "tmux.sock"), "-f", "/dev/null"]  # a server of its own
    env_cmd = (f"cd {ROOT} && PYTHONPATH={ROOT} TERM=xterm-256color {sys.executable} -c "
               f"'import sys; from xesim.cli import main; sys.exit(main())' trace view {gemm}; "
               f"echo EXIT=$? > {tmp_path / 'exit'}")
    subprocess.run([*tmux, "new-session", "-d", "-s", session, "-x", "100", "-y", "32", env_cmd], check=True)
    try:
        def screen() -> str:
            return subprocess.run([*tmux, "capture-pane", "-p", "-t", session], capture_output=True,
                                  text=True).stdout

        def wait_for(text: str, timeout: float = 60) -> str:
            end = time.monotonic() + timeout
            while time.monotonic() < end:
                s = screen()
                if text in s:
                    return s
                time.sleep(0.2)
            raise AssertionError(f"{text!r} not on the screen:\n{screen()}")

        wait_for("launch 0 @gemm")
        subprocess.run([*tmux, "send-keys", "-t", session, "/"], check=True)
        wait_for("search: op name")  # the search box is open (on a busy machine this takes a while)
        subprocess.run([*tmux, "send-keys", "-t", session, "-l", "xegpu.dpas"], check=True)
        subprocess.run([*tmux, "send-keys", "-t", session, "Enter"], check=True)
        s = wait_for("%d = xegpu.dpas")
        assert "0xffff" in s  # every lane active
        subprocess.run([*tmux, "send-keys", "-t", session, "2"], check=True)
        s = wait_for("GRF after event")
        assert re.search(r"r\d+ +([A-Z])\1{20,}", s)  # a register row held by one value (the dpas result's)
        subprocess.run([*tmux, "send-keys", "-t", session, "q"], check=True)
        end = time.monotonic() + 30
        while not (tmp_path / "exit").exists() and time.monotonic() < end:
            time.sleep(0.2)
        assert (tmp_path / "exit").read_text().strip() == "EXIT=0"
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
