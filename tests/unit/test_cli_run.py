"""`xesim run` / `xesim check`: runtime faults are located diagnostics with exit code 1 (issue 3 "Done when")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_xesim

PROGRAMS = {
    "oob_load": ("""func.func @main() {
  %m = memref.alloc() : memref<4xf32>
  %c4 = arith.constant 4 : index
  %v = memref.load %m[%c4] : memref<4xf32>
  return
}
""", 4, "'memref.load' op index 4 is out of bounds for dimension 0 of size 4"),
    "use_after_dealloc": ("""func.func @main() {
  %m = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  memref.dealloc %m : memref<4xf32>
  %v = memref.load %m[%c0] : memref<4xf32>
  return
}
""", 5, "use after free"),
    "double_free": ("""func.func @main() {
  %m = gpu.alloc () : memref<4xf32>
  gpu.dealloc %m : memref<4xf32>
  gpu.dealloc %m : memref<4xf32>
  return
}
""", 4, "double free"),
    "div_by_zero": ("""func.func @main() {
  %a = arith.constant 7 : i32
  %z = arith.constant 0 : i32
  %q = arith.divsi %a, %z : i32
  return
}
""", 4, "division by zero"),
    "unknown_external": ("""func.func private @mysteryFunction(i32)
func.func @main() {
  %a = arith.constant 7 : i32
  call @mysteryFunction(%a) : (i32) -> ()
  return
}
""", 4, "calls external function @mysteryFunction, which xesim does not provide"),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_runtime_fault_is_located_with_exit_1(tmp_path: Path, name: str) -> None:
    text, line, message = PROGRAMS[name]
    f = tmp_path / f"{name}.mlir"
    f.write_text(text)
    status, out, err = run_xesim(["run", str(f)])
    assert status == 1, err
    assert "Traceback" not in err
    first = err.splitlines()[0]
    assert first.startswith(f"{f}:{line}:"), err
    assert message in first, err
    assert err.splitlines()[2].strip() == "^"


def test_fault_inside_kernel_names_the_instance(tmp_path: Path) -> None:
    f = tmp_path / "k.mlir"
    f.write_text("""module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<16xi32>) kernel {
      %t = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %i = arith.addi %t, %c1 : index
      %v = arith.constant 5 : i32
      memref.store %v, %m[%i] : memref<16xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %m = gpu.alloc () : memref<16xi32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%m : memref<16xi32>)
    return
  }
}
""")
    status, _, err = run_xesim(["run", str(f)])
    assert status == 1
    first = err.splitlines()[0]
    assert f"{f}:8:7: error: 'memref.store' op index 16 is out of bounds" in first
    assert "kernel @kernels::@k, workgroup (0, 0, 0), subgroup 0, lane 15" in first


def test_check_passes_and_fails(tmp_path: Path) -> None:
    body = """func.func @main() {
  %a = arith.constant 3 : i32
  vector.print %a : i32
  return
}
"""
    good = tmp_path / "good.mlir"
    good.write_text(body + "// CHECK: 3\n")
    status, _, err = run_xesim(["check", str(good)])
    assert status == 0, err
    bad = tmp_path / "bad.mlir"
    bad.write_text(body + "// CHECK: 4\n")
    status, _, err = run_xesim(["check", str(bad)])
    assert status == 1
    assert "CHECK: 4" in err or "error" in err.lower()
    other = tmp_path / "prefix.mlir"
    other.write_text(body + "// MINE: 3\n// CHECK: 5\n")
    status, _, err = run_xesim(["check", "--check-prefix", "MINE", str(other)])
    assert status == 0, err


def test_run_prints_program_output_only_on_stdout(tmp_path: Path) -> None:
    f = tmp_path / "p.xegpu"
    f.write_text("""func.func @main() {
  %a = arith.constant 2.5 : f32
  vector.print %a : f32
  vector.print str "done"
  return
}
""")
    status, out, err = run_xesim(["run", str(f)])
    assert status == 0 and err == ""
    assert out == "2.5\ndone"


def test_barrier_in_divergent_code_is_a_located_error(tmp_path: Path) -> None:
    # lanes 0..7 reach the barrier, lanes 8..15 skip it: on the hardware the workgroup hangs
    f = tmp_path / "dl.mlir"
    f.write_text(DEADLOCK)
    status, _, err = run_xesim(["run", str(f)])
    assert status == 1
    first = err.splitlines()[0]
    assert f"{f}:8:9: error: 'gpu.barrier' op is reached by only lanes [0, 1, 2, 3, 4, 5, 6, 7] of subgroup 0" in first
    assert "divergent control flow" in first


DEADLOCK = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<16xi32>) kernel {
      %t = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %lt = arith.cmpi ult, %t, %c8 : index
      scf.if %lt {
        gpu.barrier
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %m = gpu.alloc () : memref<16xi32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%m : memref<16xi32>)
    return
  }
}
"""


def test_explain_assumptions_lists_math_and_target(tmp_path: Path) -> None:
    f = tmp_path / "m.mlir"
    f.write_text("""func.func @main() {
  %a = arith.constant 1.0 : f32
  %e = math.exp %a : f32
  vector.print %e : f32
  return
}
""")
    status, out, err = run_xesim(["run", "--explain-assumptions", str(f)])
    assert status == 0
    assert out == "2.71828\n"
    assert "target 'pvc'" in err and "math.exp: computed in f64" in err


def test_unknown_target_is_an_error(tmp_path: Path) -> None:
    f = tmp_path / "m.mlir"
    f.write_text("func.func @main() {\n  return\n}\n")
    status, _, err = run_xesim(["run", "--target", "nope", str(f)])
    assert status == 1 and "unknown target 'nope'" in err


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_dpas_model_option_selects_a_preset() -> None:
    gemm = str(EXAMPLES / "sg_gemm_f16.mlir")
    status, _, err = run_xesim(["check", "--dpas-model", "single_rounding", gemm])
    assert status == 0, err
    status, _, err = run_xesim(["run", "--dpas-model", "nope", gemm])
    assert status == 1
    assert "'xegpu.dpas' op no DPAS model: unknown DPAS model 'nope'" in err.splitlines()[0]


def test_explain_assumptions_lists_used_dpas_parameters() -> None:
    status, _, err = run_xesim(["run", "--explain-assumptions", str(EXAMPLES / "sg_gemm_f16.mlir")])
    assert status == 0
    assert "dpas.numerics.group = 'stage'" in err
    assert "evidence:" in err


def test_an_internal_error_is_still_located(tmp_path: Path, monkeypatch) -> None:
    """A bug inside an op implementation is reported at the op that was executing, never as a bare traceback."""
    import xesim.exec.ops  # noqa: F401  (register the real implementations before replacing one)
    from xesim.exec.registry import IMPLS

    def broken(op, cx):
        def step(fr):
            raise TypeError("simulated bug")

        return step

    monkeypatch.setitem(IMPLS, "arith.muli", broken)
    f = tmp_path / "bug.mlir"
    f.write_text("func.func @main() {\n  %a = arith.constant 3 : i32\n  %b = arith.muli %a, %a : i32\n  return\n}\n")
    status, _, err = run_xesim(["run", str(f)])
    assert status == 1, err
    first = err.splitlines()[0]
    assert first.startswith(f"{f}:3:3: error: 'arith.muli' op internal error while executing this op (TypeError: simulated bug)")
    assert "Traceback" not in err
    status, _, err = run_xesim(["--debug", "run", str(f)])
    assert "Traceback" in err and "simulated bug" in err
