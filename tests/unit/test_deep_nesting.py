"""No recursion limit that real or generated programs reach (issue 27 item 2): regions, parentheses and types
nested 10,000 deep go through parse, verify, fmt and run; recursion is bounded by ``max_call_depth`` with a
located "call depth exceeded" error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import xesim
from tests.conftest import run_xesim
from xesim.deep import SUPPORTED_DEPTH, call_deep
from xesim.diagnostics import DiagnosticError
from xesim.ir.parser import parse_source

N = SUPPORTED_DEPTH


def _write(tmp_path: Path, name: str, text: str) -> Path:
    f = tmp_path / name
    f.write_text(text)
    return f


def _fmt_fixed_point(f: Path) -> str:
    status, once, err = run_xesim(["fmt", str(f)])
    assert status == 0, err[:2000]
    again = f.with_suffix(".fmt.mlir")
    again.write_text(once)
    status, twice, err = run_xesim(["fmt", str(again)])
    assert status == 0, err[:2000]
    assert twice == once
    return once


def test_regions_10000_deep(tmp_path: Path) -> None:
    """scf.if and scf.for nested N deep in host code: parsed, verified, printed to a fixed point and run."""
    ifs = "scf.if %t {\n" * N + "vector.print %c1 : index\n" + "}\n" * N
    fors = "".join(f"scf.for %i{i} = %c0 to %c1 step %c1 {{\n" for i in range(N)) + \
        "vector.print %c0 : index\n" + "}\n" * N
    f = _write(tmp_path, "regions.mlir", "func.func @main() {\n%t = arith.constant true\n"
               "%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n" + ifs + fors + "return\n}\n")
    status, out, err = run_xesim(["run", str(f)])
    assert status == 0 and out == "1\n0\n", err[:2000]
    once = _fmt_fixed_point(f)
    assert once.count("scf.if %t {") == N and once.count("scf.for %i") == N
    assert xesim.load(f).run().output == "1\n0\n"


def test_parentheses_10000_deep(tmp_path: Path) -> None:
    expr = "(" * N + "d0 + 1" + ")" * N
    f = _write(tmp_path, "parens.mlir", f"#m = affine_map<(d0) -> ({expr})>\nfunc.func @main() {{\n"
               "%c = arith.constant 41 : index\n%x = affine.apply #m(%c)\nvector.print %x : index\nreturn\n}\n")
    status, out, err = run_xesim(["run", str(f)])
    assert status == 0 and out == "42\n", err[:2000]
    _fmt_fixed_point(f)


def test_types_10000_deep(tmp_path: Path) -> None:
    ty = "tuple<" * N + "i32" + ">" * N
    f = _write(tmp_path, "types.mlir", f"func.func private @f({ty})\nfunc.func @main() {{\n"
               "%c = arith.constant 5 : index\nvector.print %c : index\nreturn\n}\n")
    status, out, err = run_xesim(["run", str(f)])
    assert status == 0 and out == "5\n", err[:2000]
    once = _fmt_fixed_point(f)
    assert once.count("tuple<") == N


def test_nesting_beyond_the_stack_is_a_located_error() -> None:
    """Far past the supported depth (and Python's limit outside xesim.deep) the parser reports where it stopped."""
    text = "func.func private @f(" + "tuple<" * 3000 + "i32" + ">" * 3000 + ")\n"
    with pytest.raises(DiagnosticError, match="nesting too deep to parse") as info:
        parse_source(text, "deep.mlir")  # on the test's own thread: the default recursion limit
    assert info.value.diagnostics[0].loc.known
    call_deep(parse_source, text, "deep.mlir")  # the same text with xesim.deep's room


RECURSIVE = """func.func @f(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %z -> index {
    scf.yield %c0 : index
  } else {
    %m = arith.subi %n, %c1 : index
    %x = func.call @f(%m) : (index) -> index
    %y = arith.addi %x, %c1 : index
    scf.yield %y : index
  }
  return %r : index
}
func.func @main() {
  %n = arith.constant DEPTH : index
  %r = func.call @f(%n) : (index) -> index
  vector.print %r : index
  return
}
"""


def test_recursion_within_the_call_depth_runs(tmp_path: Path) -> None:
    f = _write(tmp_path, "rec.mlir", RECURSIVE.replace("DEPTH", str(N - 1)))  # N calls with main's
    status, out, err = run_xesim(["run", str(f)])
    assert status == 0 and out == f"{N - 1}\n", err[:2000]


def test_call_depth_exceeded_is_located_and_configurable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = _write(tmp_path, "rec.mlir", RECURSIVE.replace("DEPTH", "300"))
    status, _, err = run_xesim(["run", "--max-call-depth", "100", str(f)])
    assert status == 1
    assert err.startswith(f"{f}:9:5: error: 'func.call' op call depth exceeded: more than 100 nested calls"), err
    assert err.splitlines()[1].strip() == "%x = func.call @f(%m) : (index) -> index"
    monkeypatch.setenv("XESIM_MAX_CALL_DEPTH", "301")
    status, out, err = run_xesim(["run", str(f)])
    assert status == 0 and out == "300\n", err
    monkeypatch.setenv("XESIM_MAX_CALL_DEPTH", "300")
    status, _, err = run_xesim(["run", str(f)])
    assert status == 1 and "more than 300 nested calls" in err
    monkeypatch.delenv("XESIM_MAX_CALL_DEPTH")
    with pytest.raises(DiagnosticError, match="call depth exceeded: more than 50"):
        xesim.load(f).run(max_call_depth=50)


def test_deep_input_under_an_address_space_limit(tmp_path: Path) -> None:
    """Under `ulimit -v` too small for the 1 GiB stack reservation, xesim.deep takes a smaller stack (a fuzzing
    worker with a memory limit reported "can't start new thread" as an internal error)."""
    f = _write(tmp_path, "types.mlir", "func.func private @f(" + "tuple<" * 3000 + "i32" + ">" * 3000 + ")\n")
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (900 << 20, 900 << 20))\n"
            "from xesim.cli import main\n"
            f"sys.exit(main(['verify', {str(f)!r}]))\n")
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr[-2000:]
