"""The benchmark program generators of tools/bench_programs.py (issue 7 §1 workloads (c) VC/WG, (d), (e)): each
generated program, at tiny sizes, parses, verifies and runs with the output predicted by numpy."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

import xesim

ROOT = Path(__file__).resolve().parents[2]


def _load_tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


bp = _load_tool("bench_programs")

FLASH_SMALL = {"s": 128, "d": 64, "heads": 1, "show": [(0, 0), (0, 1), (5, 9), (42, 7), (127, 63)]}


def _run(text: str) -> str:
    return xesim.load(text).run().output


# ------------------------------------------------------------------------------------- expected values themselves
def test_gemm_corners_match_a_full_integer_product():
    m, n, k = 40, 24, 33
    a = (np.arange(m)[:, None] + np.arange(k)[None, :]) % 7
    b = (3 * np.arange(k)[:, None] + np.arange(n)[None, :]) % 5
    c = a.astype(np.int64) @ b.astype(np.int64)
    assert bp.gemm_corners(m, n, k) == (float(c[0, 0]), float(c[m - 1, n - 1]))
    assert bp.xegpu_gemm_expected({"m": m, "n": n, "k": k}) == f"{c[0, 0]}\n{c[m - 1, n - 1]}\n"


def test_e2e_inputs_round_to_f16():
    a, b = bp.e2e_inputs(8, 8, 8)
    # A[1][2] = ((131 + 142) mod 257 - 128) / 257 = (16 - 128) / 257 -> f16
    assert a[1, 2] == np.float16(np.float32(-112.0) / np.float32(257.0))
    assert b[3, 0] == np.float16(np.float32(291 % 263 - 131) / np.float32(263.0))
    assert np.any(a.astype(np.float64) * 257 != np.round(a.astype(np.float64) * 257))  # they really round


def test_imex_allclose_rule():
    ref = np.array([1.0, 0.0], np.float32)
    assert bp.imex_allclose(np.array([1.001, 0.00009], np.float32), ref)
    assert not bp.imex_allclose(np.array([1.0012, 0.0], np.float32), ref)
    assert not bp.imex_allclose(np.array([1.0, 0.00011], np.float32), ref)


# ------------------------------------------------------------------------------------- generated programs run
@pytest.mark.parametrize("p", [{"m": 128, "n": 128, "k": 64, "type": "f16"},
                               {"m": 128, "n": 256, "k": 48, "type": "bf16"}])
def test_vc_gemm_program(p):
    text = bp.vc_gemm_program(p)
    assert "VectorComputeFunctionINTEL" in text and "xegpu.update_nd_offset" in text
    m, n, k = p["m"], p["n"], p["k"]
    kk = np.arange(k)
    want = [np.sum(((i + kk) % 7) * ((3 * kk + j) % 5)) for i, j in ((0, 0), (m - 1, n - 1))]
    assert _run(text) == "".join(f"{w}\n" for w in want)


@pytest.mark.parametrize("p", [{"m": 256, "n": 256, "k": 64, "type": "f16"},
                               {"m": 256, "n": 256, "k": 32, "type": "bf16"}])
def test_wg_gemm_program(p):
    text = bp.wg_gemm_program(p)
    assert "sg_layout = [8, 4], sg_data = [32, 64]" in text and "xegpu.prefetch_nd" in text
    assert _run(text) == bp.xegpu_gemm_expected(p)


def test_gemm_generators_reject_untileable_sizes():
    with pytest.raises(ValueError):
        bp.vc_gemm_program({"n": 96, "type": "f16"})
    with pytest.raises(ValueError):
        bp.wg_gemm_program({"n": 128, "type": "f16"})


def test_e2e_gemm_program():
    p = {"n": 256, "k": 64}
    text = bp.e2e_gemm_program(p)
    assert text.rstrip().endswith("// CHECK: [ALLCLOSE: TRUE]")
    assert bp.e2e_gemm_expected(p) == "[ALLCLOSE: TRUE]\n"
    assert _run(text) == "[ALLCLOSE: TRUE]\n"


def _printed_vector(line: str) -> np.ndarray:
    m = re.fullmatch(r"\( (.*) \)", line.strip())
    assert m, line
    return np.array([float(x) for x in m.group(1).split(", ")])


def test_flash_attention_program_elements_against_numpy():
    out = _run(bp.flash_attention_program(FLASH_SMALL)).splitlines()
    assert out[0] == "[ALLCLOSE: TRUE]" == bp.flash_attention_expected(FLASH_SMALL).strip()
    got = _printed_vector(out[1])
    # numpy in float64, written out here (not through the module under test)
    q, k, v = (x.astype(np.float64) for x in bp.flash_attention_inputs(128, 64))
    sc = q @ k.T / 8.0
    p = np.exp(sc - sc.max(axis=1, keepdims=True))
    o = (p @ v) / p.sum(axis=1, keepdims=True)
    want = np.array([o[i, j] for i, j in FLASH_SMALL["show"]])
    assert np.allclose(got, want, rtol=1e-3, atol=1e-4), (got, want)
    # and not a plain average of V (the softmax matters)
    assert not np.allclose(got, [v[:, j].mean() for _, j in FLASH_SMALL["show"]], rtol=1e-2, atol=1e-3)


def test_flash_attention_inputs_formula():
    q, k, v = bp.flash_attention_inputs(128, 64)
    assert q[2, 3] == np.float16(np.float32((2 * 37 + 3 * 11) % 101 - 50) / np.float32(12))
    assert k[5, 1] == np.float16(np.float32((5 * 53 + 29) % 103 - 51) / np.float32(13))
    assert v[7, 2] == np.float16(np.float32((7 * 19 + 82) % 107 - 40) / np.float32(53))


def test_flash_attention_small_file_is_the_generator_output():
    """tests/e2e/flash_attention_small.mlir (run by its RUN line) is the generated program with its CHECK lines."""
    text = (ROOT / "tests" / "e2e" / "flash_attention_small.mlir").read_text()

    def code(t: str) -> list[str]:
        return [ln for ln in t.splitlines() if ln.strip() and not ln.lstrip().startswith("//")]

    assert code(text) == code(bp.flash_attention_program(FLASH_SMALL))
    assert "// CHECK: [ALLCLOSE: TRUE]" in text


def test_flash_attention_generator_rejects_bad_shapes():
    with pytest.raises(ValueError):
        bp.flash_attention_program({"s": 100, "d": 64})
    with pytest.raises(ValueError):
        bp.flash_attention_program({"s": 128, "d": 32})  # 1/sqrt(32) is not a power of two


@pytest.mark.parametrize("et", ["f16", "bf16"])
def test_random_inputs_variant_checks_against_the_reference_utility(et):
    """tools/bench.py takes its (c) figures on random inputs (issue 32): A and B from fillResource1DRandom, the
    kernel's C compared with the utility reference; swapping A and B in the reference makes the check fail."""
    p = {"m": 128, "n": 128, "k": 128, "type": et, "random": True}
    text = bp.vc_gemm_program(p)
    assert "fillResource1DRandom" in text and "arith.remui" not in text
    assert _run(text) == bp.xegpu_gemm_expected(p) == "[ALLCLOSE: TRUE]\n"
    ref = "gemmF16F16F32" if et == "f16" else "gemmBF16BF16F32"
    swapped = text.replace(f"call @{ref}(%Au, %Bu, %Ru)", f"call @{ref}(%Bu, %Au, %Ru)")
    assert swapped != text and _run(swapped) == "[ALLCLOSE: FALSE]\n"
