"""``xesim crosscheck`` (issue 29 items 1, 2, 4): recordings read back value by value, mismatches named with
element, values and ULP distance, ``--explain`` finding the DPAS model a recording was made with, and a program's
CHECK lines used as a recording.  Expected outputs are written by hand from the spec's print formats
(spec/programs-and-runner.md §1) and the test vector's table (spec/dpas-test-vectors.md, T1)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xesim.cli import main
from xesim.crosscheck.compare import Mismatch, Tolerance, ulp_distance
from xesim.crosscheck.printed import parse_output

HERE = Path(__file__).parent
SPECIALS = str(HERE / "specials.mlir")
T1 = str(HERE / "dpas_t1_bf16.mlir")

#: What specials.mlir prints (pointers as mlir-runner would print them: the cross-check ignores them; · marks the
#: trailing spaces of spec/programs-and-runner.md §1.1).
SPECIALS_OUT = """\
Unranked Memref base@ = 0x55d0c0ffee00 rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =·
[[nan,   -0,   1.5],·
 [3,   0.1,   65504]]
( 0.0999756, -2.5, 0.0010004, 3 )
Unranked Memref base@ = 0x55d0c0ffef00 rank = 1 offset = 0 sizes = [4] strides = [1] data =·
[0.0999756,  -2.5,  0.0010004,  3]
""".replace("·", " ")


def line_of(program: str, text: str) -> int:
    """The 1-based line of ``program`` holding ``text`` (where the print op the report names is)."""
    return next(i for i, line in enumerate(Path(program).read_text().split("\n"), 1) if text in line)


def crosscheck(capsys, *args: str) -> tuple[int, str]:
    rc = main(["crosscheck", *args])
    cap = capsys.readouterr()
    return rc, cap.out + cap.err


# ------------------------------------------------------------------------------------------- reading output
def test_parse_output_reads_records_shapes_and_elements():
    recs = parse_output(SPECIALS_OUT + "[ALLCLOSE: TRUE]\n( ( 1, 2 ), ( 3, 4 ), ( 5, 6 ) )\n")
    assert [r.kind for r in recs] == ["memref", "vector", "memref", "line", "vector"]
    m = recs[0]
    assert m.shape == (2, 3) and m.tokens == ["nan", "-0", "1.5", "3", "0.1", "65504"]
    assert m.header == {"rank": 2, "offset": 0, "sizes": (2, 3), "strides": (3, 1), "ranked": False}
    assert m.index(4) == (1, 1)
    assert recs[1].shape == (4,) and recs[1].tokens[2] == "0.0010004"
    assert recs[3].tokens == [] and recs[3].skeleton == "[ALLCLOSE: TRUE]"
    assert recs[4].shape == (3, 2) and recs[4].index(3) == (1, 1)


def test_ulp_distance_counts_representable_values_and_treats_the_zeros_as_equal_distance():
    f32 = np.float32
    assert ulp_distance(np.asarray(f32(1.0)), np.asarray(np.nextafter(f32(1.0), f32(2.0)))) == 1
    assert ulp_distance(np.asarray(f32(-0.0)), np.asarray(f32(0.0))) == 0
    # across zero: the smallest subnormals of both signs are 2 apart
    tiny = np.asarray(np.uint32(1)).view(f32)
    assert ulp_distance(np.asarray(-tiny), np.asarray(tiny)) == 2
    assert ulp_distance(np.asarray(f32("nan")), np.asarray(f32(1.0))) is None


def test_tolerance_parses_ulps_and_relative_differences():
    assert Tolerance.parse("4") == Tolerance(ulp=4) == Tolerance.parse("4ulp")
    assert Tolerance.parse("1e-5") == Tolerance(rel=1e-5)
    m = Mismatch("x", (0,), "1", "1.00001", ulp=84, recorded_value=1.0, xesim_value=1.00001)
    assert Tolerance(ulp=100).admits(m) and not Tolerance(ulp=83).admits(m)
    assert Tolerance(rel=2e-5).admits(m) and not Tolerance(rel=5e-6).admits(m)
    with pytest.raises(ValueError):
        Tolerance.parse("-3")


# ------------------------------------------------------------------------------------------- stdout recordings
def test_identical_stdout_recording_passes(tmp_path, capsys):
    rec = tmp_path / "out.txt"
    rec.write_text(SPECIALS_OUT)
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", str(rec))
    assert rc == 0, text
    assert "3 records, 14 elements compared, 14 identical, 0 differ" in text and "result: identical" in text


def _mutated(tmp_path: Path, old: str, new: str) -> str:
    assert old in SPECIALS_OUT
    p = tmp_path / "out.txt"
    p.write_text(SPECIALS_OUT.replace(old, new, 1))
    return str(p)


def test_a_single_bit_flip_in_an_f16_element_is_named_with_values_and_ulps(tmp_path, capsys):
    # f16 -2.5 = 0xc100; flipping the lowest mantissa bit gives 0xc101 = -2.50195 (printed with %g)
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", _mutated(tmp_path, "( 0.0999756, -2.5,",
                                                                   "( 0.0999756, -2.50195,"))
    assert rc == 1
    line = line_of(SPECIALS, "vector.print %h")
    assert (f"vector.print at {SPECIALS}:{line}:5 element [1]: recorded -2.50195 (f16 0xc101), xesim -2.5 (0xc100): "
            "1 ulp") in text
    assert "1 differ (max 1 ulp)" in text


def test_a_sign_of_zero_swap_is_reported(tmp_path, capsys):
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", _mutated(tmp_path, "[[nan,   -0,", "[[nan,   0,"))
    assert rc == 1
    line = line_of(SPECIALS, "@printMemrefF32(%cast)")
    assert (f"printMemrefF32 at {SPECIALS}:{line}:5 element [0, 1]: recorded 0 (f32 0x00000000), xesim -0 "
            "(0x80000000): 0 ulp; the sign of zero differs") in text
    assert f"mismatch map of printMemrefF32 at {SPECIALS}:{line}:5 (2 x 3 elements, each cell 1 x 1):\n    .X." in text


def test_a_missing_line_and_an_extra_line_are_reported_as_such(tmp_path, capsys):
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", _mutated(tmp_path, "( 0.0999756, -2.5, 0.0010004, 3 )\n",
                                                                   ""))
    assert rc == 1
    assert "xesim printed line 4, which the recording does not have: '( 0.0999756, -2.5, 0.0010004, 3 )'" in text
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", _mutated(tmp_path, "( 0.0999756", "hello\n( 0.0999756"))
    assert rc == 1
    assert "recorded line 4 is missing from xesim's output: 'hello'" in text


def test_a_shape_change_is_reported(tmp_path, capsys):
    rec = _mutated(tmp_path, "sizes = [4] strides = [1] data = \n[0.0999756,  -2.5,  0.0010004,  3]",
                   "sizes = [5] strides = [1] data = \n[0.0999756,  -2.5,  0.0010004,  3,  7]")
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", rec)
    assert rc == 1
    line = line_of(SPECIALS, "@printMemrefF16(%hcast)")
    assert f"printMemrefF16 at {SPECIALS}:{line}:5 (recorded line 5): sizes [5] recorded, [4] by xesim" in text


def test_tolerance_lets_small_differences_pass(tmp_path, capsys):
    rec = _mutated(tmp_path, "( 0.0999756, -2.5,", "( 0.0999756, -2.50195,")
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", rec, "--tolerance", "1ulp")
    assert rc == 0 and "(within tolerance)" in text and "result: within tolerance" in text
    rc, _ = crosscheck(capsys, SPECIALS, "--recorded", rec, "--tolerance", "0")
    assert rc == 1


# ------------------------------------------------------------------------------------------- buffer dumps
def _recording_dir(tmp_path: Path, capsys, program: str, *extra: str) -> Path:
    d = tmp_path / "rec"
    rc, text = crosscheck(capsys, program, "--record", str(d), *extra)
    assert rc == 0, text
    return d


def test_a_recording_of_the_same_run_is_identical_including_its_buffers(tmp_path, capsys):
    d = _recording_dir(tmp_path, capsys, SPECIALS)
    with np.load(d / "buffers.npz") as z:
        assert sorted(z.files) == ["print0", "print1"]
        assert z["print0"].shape == (2, 3) and z["print0"].view(np.uint32)[0, 0] == 0x7FC00001
    assert 'device = "xesim' in (d / "meta.toml").read_text()
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", str(d))
    assert rc == 0, text


def _edit_buffer(d: Path, key: str, edit) -> None:
    with np.load(d / "buffers.npz") as z:
        bufs = {k: z[k].copy() for k in z.files}
    edit(bufs[key])
    np.savez(d / "buffers.npz", **bufs)


def test_a_changed_nan_payload_is_found_in_a_buffer_dump(tmp_path, capsys):
    d = _recording_dir(tmp_path, capsys, SPECIALS)
    _edit_buffer(d, "print0", lambda a: a.view(np.uint32).__setitem__((0, 0), 0x7FC00002))
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", str(d))
    assert rc == 1
    line = line_of(SPECIALS, "@printMemrefF32(%cast)")
    assert (f"printMemrefF32 at {SPECIALS}:{line}:5 (print0) element [0, 0]: recorded nan (f32 0x7fc00002), xesim nan "
            "(0x7fc00001): no ULP distance (NaN); NaN payloads differ") in text


def test_a_single_bit_flip_in_an_f32_buffer_is_found_even_where_the_printed_text_is_the_same(tmp_path, capsys):
    d = _recording_dir(tmp_path, capsys, SPECIALS)
    _edit_buffer(d, "print0", lambda a: a.view(np.uint32).__setitem__((1, 1), a.view(np.uint32)[1, 1] ^ 1))
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", str(d))
    assert rc == 1
    # 0.1f = 0x3dcccccd; with the lowest bit flipped 0x3dcccccc, both print 0.1
    assert "element [1, 1]: recorded 0.09999999403953552 (f32 0x3dcccccc), xesim 0.10000000149011612 " \
           "(0x3dcccccd): 1 ulp" in text


def test_bf16_buffers_are_stored_as_bits(tmp_path, capsys):
    d = _recording_dir(tmp_path, capsys, T1)
    with np.load(d / "buffers.npz") as z:
        assert z.files == ["print0"] and z["print0"].dtype == np.float32


# ------------------------------------------------------------------------------------------- explain
def test_explain_finds_the_dpas_model_a_recording_was_made_with(tmp_path, capsys):
    d = _recording_dir(tmp_path, capsys, T1, "--dpas-model", "single_rounding")
    # T1: per-stage rounding keeps 1.0 (0x3F800000); a single rounding gives 0x3F800004 (spec table, M0 vs M4)
    assert "1065353220" in (d / "stdout.txt").read_text()
    rc, text = crosscheck(capsys, T1, "--recorded", str(d), "--explain")
    assert rc == 1
    assert "recorded 1065353220 (i32 0x3f800004), xesim 1065353216 (0x3f800000): 4 ulp" in text
    assert "dpas model = single_rounding: all 2 differences vanish" in text
    assert "dpas model = fma_chain: 2 of 2 remain" in text
    # where the printed element came from: the host copy, the kernel's store, the DPAS and its operands
    feed = text[text.index("where the mismatching elements come from"):]
    assert f"copied by gpu.memcpy at {T1}:{line_of(T1, 'gpu.memcpy %C, %dC')}:5 on the host" in feed
    assert (f"written by xegpu.store_nd at {T1}:{line_of(T1, 'xegpu.store_nd %dv')}:7 in kernel @dpas, workgroup "
            "(0, 0, 0), subgroup 0") in feed
    loads = "; ".join(f"xegpu.load_nd at {T1}:{line_of(T1, f'%{v} = xegpu.load_nd')}:7" for v in ("av", "bv", "cv"))
    assert f"the stored value is xegpu.dpas at {T1}:{line_of(T1, 'xegpu.dpas')}:7, which uses {loads}" in feed


def test_explain_follows_a_loop_carried_accumulator_to_the_dpas(tmp_path, capsys):
    gemm = str(HERE.parents[1] / "examples" / "sg_gemm_f16.mlir")
    rc, text = crosscheck(capsys, gemm, "--record", str(tmp_path / "r"))
    out = (tmp_path / "r" / "stdout.txt").read_text().replace("\n [1,   3,", "\n [2,   3,", 1)
    (tmp_path / "r" / "stdout.txt").write_text(out)
    (tmp_path / "r" / "buffers.npz").unlink()
    rc, text = crosscheck(capsys, gemm, "--recorded", str(tmp_path / "r"), "--explain")
    assert rc == 1 and "element [1, 0]: recorded 2" in text
    dpas = f"xegpu.dpas at {gemm}:{line_of(gemm, 'xegpu.dpas')}:9"
    assert (f"the stored value is the result of scf.for at {gemm}:{line_of(gemm, 'scf.for %k')}:7, yielded by "
            f"{dpas}, which uses xegpu.load_nd") in text
    assert f"the value carried by scf.for at {gemm}:{line_of(gemm, 'scf.for %k')}:7, yielded by {dpas}" in text


# ------------------------------------------------------------------------------------------- CHECK lines
CHECKED = """\
// CHECK: Unranked Memref base@ = {{(0x)?[-9a-f]*}}
// CHECK-SAME: rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\\[}}[nan,   -0,   1.5],
// CHECK-NEXT: [3,   0.1,   65504]]
// CHECK: ( 0.0999756, -2.5,
// CHECK-COUNT-2: 0.0010004
"""


def _checked_program(tmp_path: Path, checks: str) -> str:
    p = tmp_path / "prog.mlir"
    p.write_text(Path(SPECIALS).read_text() + checks)
    return str(p)


def test_check_lines_that_hold_are_an_identical_recording(tmp_path, capsys):
    prog = _checked_program(tmp_path, CHECKED)
    rc, text = crosscheck(capsys, prog, "--recorded", "check-lines")
    assert rc == 0, text
    assert "7 records, 16 elements compared, 16 identical, 0 differ" in text


def test_check_lines_that_differ_give_element_values_and_ulps(tmp_path, capsys):
    prog = _checked_program(tmp_path, CHECKED.replace("( 0.0999756, -2.5,", "( 0.0999756, -2.50195,")
                            .replace("[3,   0.1,", "[3.00001,   0.1,"))
    rc, text = crosscheck(capsys, prog, "--recorded", "check-lines")
    assert rc == 1
    bits = int(np.float32(3.00001).view(np.uint32))  # the f32 nearest to the recorded text
    assert "printMemrefF32 at" in text and f"element [1, 0]: recorded 3.00001 (f32 0x{bits:08x}), xesim 3 " \
           f"(0x40400000): ~{bits - 0x40400000} ulp" in text
    assert "vector.print at" in text and "element [1]: recorded -2.50195 (f16 0xc101), xesim -2.5 (0xc100): 1 ulp" \
           in text


def test_a_check_line_with_nothing_like_it_is_a_missing_line(tmp_path, capsys):
    prog = _checked_program(tmp_path, CHECKED + "// CHECK: [ALLCLOSE: TRUE]\n")
    rc, text = crosscheck(capsys, prog, "--recorded", "check-lines")
    assert rc == 1
    assert "CHECK '[ALLCLOSE: TRUE]' matches nothing in xesim's output even with its numbers free" in text


def test_a_number_before_a_regex_is_a_prefix(tmp_path, capsys):
    prog = _checked_program(tmp_path, "// CHECK: ( 0.09{{[0-9]*}}, -2.5\n")
    rc, text = crosscheck(capsys, prog, "--recorded", "check-lines")
    assert rc == 0, text
    prog = _checked_program(tmp_path, "// CHECK: ( 0.07{{[0-9]*}}, -2.5\n")
    rc, text = crosscheck(capsys, prog, "--recorded", "check-lines")
    assert rc == 1 and "element [0]: recorded 0.07..., xesim 0.0999756" in text


# ------------------------------------------------------------------------------------------- errors
def test_bad_recordings_and_options_are_clear_errors(tmp_path, capsys):
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", str(tmp_path / "nope"))
    assert rc == 1 and f"xesim: error: no such recording: {tmp_path / 'nope'}" in text
    d = tmp_path / "r"
    d.mkdir()
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", str(d))
    assert rc == 1 and "a recording directory needs stdout.txt" in text
    (d / "stdout.txt").write_text(SPECIALS_OUT)
    (d / "meta.toml").write_text('gpu = "x"\n')
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", str(d))
    assert rc == 1 and "unknown key(s) gpu" in text
    (d / "meta.toml").unlink()
    np.save(d / "print0.bf16.npy", np.zeros(3, np.float32))
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", str(d))
    assert rc == 1 and "buffer 'print0.bf16' must hold bf16 bits as uint16, not float32" in text
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", "check-lines", "--tolerance", "lots")
    assert rc == 1 and "--tolerance must be N, Nulp or a relative difference, not 'lots'" in text


def test_explain_varies_booleans_and_listed_choices_and_names_the_rest():
    from types import SimpleNamespace

    from xesim.crosscheck.explain import variants
    from xesim.hw.params import Param

    params = [Param("a.flag", False, "s", True, "e"), Param("a.mode", "own", "s", True, "e", "own | zero | keep"),
              Param("a.free", "x", "s", True, "e", "any text"), Param("dpas.numerics.group", "stage", "s", True, "e")]
    engine = SimpleNamespace(target=SimpleNamespace(assumptions=lambda only_used: params))
    vs, fixed = variants(engine, "default")
    labels = [v.label for v in vs]
    assert "dpas model = default" not in labels and "dpas model = single_rounding" in labels
    assert labels[-3:] == ["a.flag = true", "a.mode = zero", "a.mode = keep"]
    assert vs[-1].options == {"overrides": (("a.mode", "keep"),)}
    assert fixed == ["a.free"]  # dpas.numerics.* are varied by the presets


def test_a_bad_target_and_a_program_without_check_lines_are_errors(capsys, tmp_path):
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", str(HERE / "specials.mlir"), "--target", "nope")
    assert rc == 1 and "xesim: error: unknown target 'nope'" in text
    rc, text = crosscheck(capsys, SPECIALS, "--recorded", "check-lines")
    assert rc == 1 and f"xesim: error: {SPECIALS} has no CHECK lines to use as the recording" in text
    assert main(["probe", "emit", "/proc/no/such/dir"]) == 1
    assert "xesim: error: cannot write the probe programs to /proc/no/such/dir" in capsys.readouterr().err
