"""Launch reuse (xesim/exec/launch_reuse.py): a launch identical to its kernel's previous one takes that launch's
writes; results are bit-identical to executing every launch, and only identical, deterministic launches reuse."""

from __future__ import annotations

import io

import pytest

from xesim.api import load, make_engine
from xesim.diagnostics import DiagnosticError
from xesim.exec.hooks import Observer
from xesim.exec.launch_reuse import kernel_reason, reuse_state

# One subgroup computes an 8x16 f32 tile from A (8x16 f16) and B (16x16 f16) with DPAS.  @acc reads C (C += A.B),
# @set does not (C = A.B).  The host fills A and B with random values, then runs the {body} once per iteration.
PROGRAM = """
module @reuse attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @acc(%a: memref<8x16xf16>, %b: memref<16x16xf16>, %c: memref<8x16xf32>) kernel {{
      %ta = xegpu.create_nd_tdesc %a : memref<8x16xf16> -> !xegpu.tensor_desc<8x16xf16>
      %tb = xegpu.create_nd_tdesc %b : memref<16x16xf16> -> !xegpu.tensor_desc<16x16xf16>
      %tc = xegpu.create_nd_tdesc %c : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %va = xegpu.load_nd %ta[0, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
      %vb = xegpu.load_nd %tb[0, 0] <{{packed}}> : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
      %vc = xegpu.load_nd %tc[0, 0] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %d = xegpu.dpas %va, %vb, %vc : vector<8x16xf16>, vector<8x16x2xf16>, vector<8x16xf32> -> vector<8x16xf32>
      xegpu.store_nd %d, %tc[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }}
    gpu.func @set(%a: memref<8x16xf16>, %b: memref<16x16xf16>, %c: memref<8x16xf32>) kernel {{
      %ta = xegpu.create_nd_tdesc %a : memref<8x16xf16> -> !xegpu.tensor_desc<8x16xf16>
      %tb = xegpu.create_nd_tdesc %b : memref<16x16xf16> -> !xegpu.tensor_desc<16x16xf16>
      %tc = xegpu.create_nd_tdesc %c : memref<8x16xf32> -> !xegpu.tensor_desc<8x16xf32>
      %va = xegpu.load_nd %ta[0, 0] : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
      %vb = xegpu.load_nd %tb[0, 0] <{{packed}}> : !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>
      %d = xegpu.dpas %va, %vb : vector<8x16xf16>, vector<8x16x2xf16> -> vector<8x16xf32>
      xegpu.store_nd %d, %tc[0, 0] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }}
  }}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %n = arith.constant {n} : index
    %lo = arith.constant -2.0 : f32
    %hi = arith.constant 2.0 : f32
    %zero = arith.constant 0.0 : f32
    %false = arith.constant false
    %A = memref.alloc() : memref<8x16xf16>
    %B = memref.alloc() : memref<16x16xf16>
    %C = memref.alloc() : memref<8x16xf32>
    %Au = memref.cast %A : memref<8x16xf16> to memref<*xf16>
    %Bu = memref.cast %B : memref<16x16xf16> to memref<*xf16>
    %Cu = memref.cast %C : memref<8x16xf32> to memref<*xf32>
    call @fillResource1DRandomF16(%Au, %lo, %hi, %false) : (memref<*xf16>, f32, f32, i1) -> ()
    call @fillResource1DRandomF16(%Bu, %lo, %hi, %false) : (memref<*xf16>, f32, f32, i1) -> ()
    call @fillResource1DF32(%Cu, %zero) : (memref<*xf32>, f32) -> ()
    %dA = gpu.alloc () : memref<8x16xf16>
    %dB = gpu.alloc () : memref<16x16xf16>
    %dC = gpu.alloc () : memref<8x16xf32>
    gpu.memcpy %dA, %A : memref<8x16xf16>, memref<8x16xf16>
    gpu.memcpy %dB, %B : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %dC, %C : memref<8x16xf32>, memref<8x16xf32>
    scf.for %i = %c0 to %n step %c1 {{
      {body}
      gpu.memcpy %C, %dC : memref<8x16xf32>, memref<8x16xf32>
      call @printMemrefF32(%Cu) : (memref<*xf32>) -> ()
    }}
    return
  }}
  func.func private @printMemrefF32(memref<*xf32>) attributes {{llvm.emit_c_interface}}
  func.func private @fillResource1DRandomF16(memref<*xf16>, f32, f32, i1) attributes {{llvm.emit_c_interface}}
  func.func private @fillResource1DF32(memref<*xf32>, f32) attributes {{llvm.emit_c_interface}}
}}
"""

ARGS = "args(%dA : memref<8x16xf16>, %dB : memref<16x16xf16>, %dC : memref<8x16xf32>)"
LAUNCH = "gpu.launch_func @kernels::@{k} blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) " + ARGS
RESET = "gpu.memcpy %dC, %Z : memref<8x16xf32>, memref<8x16xf32>"


def program(body: str, n: int = 4) -> str:
    text = PROGRAM.format(body=body, n=n)
    if "%Z" in body:  # a zero buffer to reset C from
        text = text.replace("    %dA = gpu.alloc", "    %Z = memref.alloc() : memref<8x16xf32>\n    %dA = gpu.alloc", 1)
    return text


def run(text: str, reuse: bool, **options) -> tuple[str, object]:
    out = io.StringIO()
    engine = make_engine(load(text).module, out=out, grf="off", launch_reuse=reuse, **options)
    engine.run("main")
    return out.getvalue(), reuse_state(engine)


def blocks(output: str) -> list[str]:
    """The printed memrefs, one per iteration (base addresses are equal between the runs)."""
    parts = output.split("Unranked Memref")
    return parts[1:]


def test_accumulating_kernel_is_not_reused_while_c_changes() -> None:
    """C += A.B launched 4 times: each launch reads the C the previous one wrote, so none is identical."""
    text = program(LAUNCH.format(k="acc"))
    with_reuse, st = run(text, True)
    without, st_off = run(text, False)
    assert with_reuse == without
    assert st.launches == 4 and st.reused == 0
    printed = blocks(with_reuse)
    assert len(printed) == 4 and len(set(printed)) == 4  # C = A.B, 2 A.B, ...: every launch changed C
    assert st_off.reused == 0 and "turned off (--no-launch-reuse)" in st_off.report()


def test_accumulating_kernel_is_reused_once_its_inputs_repeat() -> None:
    """C reset to zero before each C += A.B: launches 2..4 start from launch 1's bytes and take its writes."""
    text = program(f"{RESET}\n      " + LAUNCH.format(k="acc"))
    with_reuse, st = run(text, True)
    without, _ = run(text, False)
    assert with_reuse == without
    assert (st.launches, st.reused) == (4, 3)
    assert len(set(blocks(with_reuse))) == 1


def test_write_only_output_is_compared_too() -> None:
    """C = A.B does not read C, yet launch 2 starts from other C bytes than launch 1 (zeros): it executes; launches
    3 and 4 start from launch 2's bytes and reuse.  A host write into C between launches (the reset in the second
    program) makes every launch start from zeros again: all but the first reuse."""
    text = program(LAUNCH.format(k="set"))
    with_reuse, st = run(text, True)
    assert with_reuse == run(text, False)[0]
    assert (st.launches, st.reused) == (4, 2)
    text = program(f"{RESET}\n      " + LAUNCH.format(k="set"))
    with_reuse, st = run(text, True)
    assert with_reuse == run(text, False)[0]
    assert (st.launches, st.reused) == (4, 3)


def test_changed_input_between_launches_executes_again() -> None:
    """Refilling A with new random values between launches makes each launch differ: no reuse, and the results
    are those of executing (C changes every iteration)."""
    body = ("call @fillResource1DRandomF16(%Au, %lo, %hi, %false) : (memref<*xf16>, f32, f32, i1) -> ()\n"
            "      gpu.memcpy %dA, %A : memref<8x16xf16>, memref<8x16xf16>\n      " + LAUNCH.format(k="set"))
    text = program(body)
    with_reuse, st = run(text, True)
    assert with_reuse == run(text, False)[0]
    assert st.reused == 0 and len(set(blocks(with_reuse))) == 4


def test_different_grid_is_a_different_launch() -> None:
    """@set over 1 workgroup, then over 2 (both write the same tile with the same values), 3 times: each grid
    keeps its own latest launch.  Grid 1 starts from zeros, then from A.B twice; grid 2 always from A.B."""
    two = LAUNCH.format(k="set").replace("blocks in (%c1, %c1, %c1)", "blocks in (%c2, %c1, %c1)")
    text = program(LAUNCH.format(k="set") + "\n      " + two, n=3)
    text = text.replace("    %c16 = arith.constant 16 : index", "    %c16 = arith.constant 16 : index\n"
                        "    %c2 = arith.constant 2 : index", 1)
    out, st = run(text, True)
    assert out == run(text, False)[0]
    assert (st.launches, st.reused) == (6, 3)


ATOMIC = """
module @atomics attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<16xi32>) kernel attributes {VectorComputeFunctionINTEL, spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %mask = arith.constant dense<true> : vector<16xi1>
      %v = arith.constant dense<7> : vector<16xi32>
      %o = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xindex>
      %t = xegpu.create_tdesc %m, %o : memref<16xi32>, vector<16xindex> -> !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>
      %r = xegpu.atomic_rmw OP %t, %mask, %v : !xegpu.tensor_desc<16xi32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %M = memref.alloc() : memref<16xi32>
    %dM = gpu.alloc () : memref<16xi32>
    gpu.memcpy %dM, %M : memref<16xi32>, memref<16xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dM : memref<16xi32>)
    }
    gpu.memcpy %M, %dM : memref<16xi32>, memref<16xi32>
    %p = memref.cast %M : memref<16xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
}
"""


@pytest.mark.parametrize("op,value", [("addi", 28), ("assign", 7)])
def test_kernel_with_atomics_is_never_reused(op, value) -> None:
    """``assign`` leaves memory equal after launch 2, so launches 3 and 4 would be identical: the atomic trait
    alone keeps them executing."""
    text = ATOMIC.replace("OP", op)
    out, st = run(text, True)
    assert out == run(text, False)[0]
    assert "[" + ",  ".join([str(value)] * 16) + "]" in out
    assert (st.launches, st.reused) == (4, 0)
    assert "xegpu.atomic_rmw (atomic read-modify-writes)" in st.report()


def test_kernel_reason_reads_traits() -> None:
    mod = load(ATOMIC.replace("OP", "addi")).module
    kernel = next(op for op in mod.walk() if op.name == "gpu.func")
    assert "atomic" in kernel_reason(kernel)
    mod = load(program(LAUNCH.format(k="set"))).module
    assert all(kernel_reason(op) is None for op in mod.walk() if op.name == "gpu.func")


class Watcher(Observer):
    name = "a test watcher"

    def __init__(self) -> None:
        self.launches = 0

    def launch_begin(self, engine, kernel, name, level) -> None:  # noqa: ANN001
        self.launches += 1


def test_an_observer_that_needs_execution_sees_every_launch() -> None:
    text = program(f"{RESET}\n      " + LAUNCH.format(k="acc"))
    out = io.StringIO()
    engine = make_engine(load(text).module, out=out, grf="off")
    watcher = engine.subscribe(Watcher())
    engine.run("main")
    st = reuse_state(engine)
    assert watcher.launches == 4 and st.reused == 0
    assert "a test watcher watches every launch" in st.report()


def test_observer_that_does_not_need_execution_allows_reuse() -> None:
    class Passive(Watcher):
        needs_execution = False

    text = program(f"{RESET}\n      " + LAUNCH.format(k="acc"))
    engine = make_engine(load(text).module, out=io.StringIO(), grf="off")
    watcher = engine.subscribe(Passive())
    engine.run("main")
    assert reuse_state(engine).reused == 3 and watcher.launches == 1


def test_cross_check_and_register_file_turn_reuse_off() -> None:
    text = program(f"{RESET}\n      " + LAUNCH.format(k="acc"))
    for options in ({"engine": "both"}, {"grf": "checked"}):
        out = io.StringIO()
        engine = make_engine(load(text).module, out=out, **{"grf": "off", **options})
        engine.run("main")
        assert reuse_state(engine).reused == 0


def test_random_schedule_turns_reuse_off() -> None:
    text = program(f"{RESET}\n      " + LAUNCH.format(k="acc"))
    _, st = run(text, True, schedule="random", seed=3)
    assert st.reused == 0 and "random schedule" in st.report()


def test_environment_alias_and_bad_value() -> None:
    from xesim.api import config_from_environment

    assert config_from_environment({"XESIM_NO_LAUNCH_REUSE": "1"}).launch_reuse is False
    assert config_from_environment({"XESIM_NO_LAUNCH_REUSE": "0"}).launch_reuse is True
    assert config_from_environment({}).launch_reuse is True
    assert config_from_environment({"XESIM_NO_LAUNCH_REUSE": "1"}, launch_reuse=True).launch_reuse is True
    with pytest.raises(DiagnosticError, match="XESIM_NO_LAUNCH_REUSE"):
        config_from_environment({"XESIM_NO_LAUNCH_REUSE": "maybe"})


def test_cli_flag_and_stats_report(tmp_path, capsys, monkeypatch) -> None:
    from xesim.cli import main as cli_main

    path = tmp_path / "reuse.mlir"
    path.write_text(program(f"{RESET}\n      " + LAUNCH.format(k="acc")))
    monkeypatch.setenv("XESIM_GRF", "off")

    def cli(*flags: str) -> tuple[str, str]:
        assert cli_main(["run", *flags, str(path)]) == 0
        got = capsys.readouterr()
        return got.out, got.err

    on, off = cli(), cli("--no-launch-reuse")
    assert on[0] == off[0] and on[0].count("Unranked Memref") == 4
    monkeypatch.setenv("XESIM_NO_LAUNCH_REUSE", "1")
    assert cli()[0] == on[0]
    monkeypatch.delenv("XESIM_NO_LAUNCH_REUSE")
    # --stats runs the register-file model; its figures of a reused launch are the identical earlier launch's, so
    # reuse stays on and the report counts the launches of both kinds
    out, err = cli("--stats")
    assert out == on[0]
    assert "xesim: launches: 1 executed, 3 reused" in err
    _, err_off = cli("--stats", "--no-launch-reuse")
    assert "xesim: launches: 4 executed, 0 reused" in err_off
    assert "4 launch(es) not eligible: turned off (--no-launch-reuse)" in err_off
    # the register figures (peak, its place, 4 instances, spills) are the same whether launches ran or were reused
    grf = [e[: e.index("xesim: launches:")] for e in (err, err_off)]
    assert grf[0] == grf[1] and "@kernels::@acc: peak " in grf[0] and "; 4 instance(s)" in grf[0]
    # the checking model compares registers with values on every read: it must see every launch run
    monkeypatch.setenv("XESIM_GRF", "checked")
    err = cli("--stats")[1]
    assert "xesim: launches: 4 executed, 0 reused" in err
    assert "4 launch(es) not eligible: the register-file model (XESIM_GRF, --stats) watches every launch" in err


def test_register_file_model_counts_reused_launches_as_executed_ones() -> None:
    """grf=track: reused launches add their instances (and spills) to the kernel's figures like executed ones."""
    from xesim.api import register_file

    text = program(f"{RESET}\n      " + LAUNCH.format(k="acc"), n=5)
    figures = []
    for reuse in (True, False):
        engine = make_engine(load(text).module, out=io.StringIO(), grf="track", launch_reuse=reuse)
        engine.run("main")
        st = register_file(engine).stats["@kernels::@acc"]
        figures.append((st.peak, st.peak_label, st.peak_where, st.instances, st.spills, st.spilled_instances))
        assert reuse_state(engine).reused == (4 if reuse else 0)
    assert figures[0] == figures[1] and figures[0][3] == 5 and figures[0][0] > 0


def test_tracer_still_sees_every_launch_run(tmp_path) -> None:
    """The tracer extends the register-file model but records what runs: no launch is reused under it."""
    from xesim.trace.spec import TraceSpec

    text = program(f"{RESET}\n      " + LAUNCH.format(k="acc"))
    engine = make_engine(load(text).module, out=io.StringIO(), grf="off",
                         trace=TraceSpec(str(tmp_path / "t.xetrace")))
    engine.run("main")
    st = reuse_state(engine)
    assert st.reused == 0 and "the tracer (--trace) watches every launch" in st.report()


def test_read_analysis_of_the_two_kernels() -> None:
    """@acc loads C (read), @set only stores it: the read analysis keeps C out of @set's read arguments."""
    from xesim.exec.kernel_writes import read_arguments, written_arguments

    mod = load(program(LAUNCH.format(k="set"))).module
    kernels = {op.attributes["sym_name"].value: op for op in mod.walk() if op.name == "gpu.func"}
    assert read_arguments(kernels["acc"]) == {0, 1, 2} and written_arguments(kernels["acc"]) == {2}
    assert read_arguments(kernels["set"]) == {0, 1} and written_arguments(kernels["set"]) == {2}


def test_kept_changes_are_positions_or_whole_images() -> None:
    """The mechanism alone, with a stand-in for the launch: a launch that changes one byte keeps that position, one
    that rewrites a buffer keeps its image; a reuse writes them without running, a changed input byte runs."""
    from xesim.exec.values import MemRefValue
    from xesim.ir import types as irt

    engine = make_engine(load(program(LAUNCH.format(k="set"))).module, out=io.StringIO(), grf="off")
    kernel = next(op for op in engine.module.walk() if op.name == "gpu.func" and "set" in str(op.attributes["sym_name"]))
    allocs = [engine.memory.allocate(1024, "device") for _ in range(3)]
    args = [MemRefValue(engine.memory, a, a.base, 0, (256,), (1,), irt.FloatType("f32")) for a in allocs]
    runs = []

    def one_byte(*_a) -> None:  # noqa: ANN002
        runs.append("one")
        allocs[2].data[5] = 7

    def everything(*_a) -> None:  # noqa: ANN002
        runs.append("all")
        allocs[2].data[:] = 9

    st = reuse_state(engine)
    st.launch(engine, one_byte, kernel, "set", (1, 1, 1), (16, 1, 1), args, None)
    kept = st.kept[next(iter(st.kept))]
    assert [w.tolist() for _, w, _ in kept.changes] == [[5]]
    allocs[2].data[5] = 0  # the host puts the starting bytes back
    st.launch(engine, one_byte, kernel, "set", (1, 1, 1), (16, 1, 1), args, None)
    assert runs == ["one"] and allocs[2].data[5] == 7 and st.reused == 1
    allocs[2].data[5] = 0
    allocs[0].data[100] = 1  # an input byte differs: the launch runs
    st.launch(engine, everything, kernel, "set", (1, 1, 1), (16, 1, 1), args, None)
    assert runs == ["one", "all"]
    kept = st.kept[next(iter(st.kept))]
    assert isinstance(kept.changes[0][1], slice)
    allocs[2].data[:] = 0
    st.launch(engine, one_byte, kernel, "set", (1, 1, 1), (16, 1, 1), args, None)
    assert runs == ["one", "all"] and (allocs[2].data == 9).all() and st.reused == 2


def test_progress_bar_does_not_turn_reuse_off() -> None:
    """xesim run draws the bar whenever stderr is a terminal: it must not cost interactive runs their reuse."""
    from xesim.observe.progress import LaunchProgress

    text = program(f"{RESET}\n      " + LAUNCH.format(k="acc"))
    engine = make_engine(load(text).module, out=io.StringIO(), grf="off")
    bar = engine.subscribe(LaunchProgress(delay=60.0))
    engine.run("main")
    assert reuse_state(engine).reused == 3 and bar.shown == 0
