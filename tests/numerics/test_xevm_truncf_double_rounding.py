"""``xevm.truncf`` from bf16: the lowering rounds bf16 -> f16 -> fp8 / e2m1 (shared/spec/upstream-xegpu-xevm.md §4.7,
§5.2 C), the target parameter ``xevm.truncf_bf16_via_f16`` (pvc.toml, assumed).  With round-to-nearest-even
conversions the double rounding gives the same code as one rounding for every bf16 value: f16 holds exactly every
bf16 value of magnitude >= 2^-16 up to its own range, values below 2^-16 round to 0 or the smallest fp8 subnormal
the same way through f16, and above f16's range both ways overflow alike.  Checked exhaustively here, so the
parameter only matters once the hardware builtins' own rounding is known (§6.2 item 5)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from tests.conftest import run_xesim
from xesim.numerics import conversions as C


@pytest.mark.parametrize("fmt", ["f8E5M2", "f8E4M3FN", "f4E2M1FN"])
def test_bf16_through_f16_gives_the_direct_code_for_every_bf16_value(fmt: str) -> None:
    x = np.arange(1 << 16, dtype=np.uint16).view(ml_dtypes.bfloat16)
    direct = np.asarray(C.round_float(x, fmt)).view(np.uint8)
    twice = np.asarray(C.round_float(C.round_float(x, "f16"), fmt)).view(np.uint8)
    nan = np.isnan(np.asarray(C.round_float(x, fmt)).astype(np.float32))
    assert np.array_equal(direct[~nan], twice[~nan])
    assert np.isnan(np.asarray(C.round_float(C.round_float(x, "f16"), fmt)).astype(np.float32)[nan]).all()


def test_the_parameter_is_listed_when_a_bf16_truncf_runs(tmp_path) -> None:
    prog = tmp_path / "t.mlir"
    prog.write_text("""func.func @main() {
  %h = arith.constant dense<[1.0, 2.0]> : vector<2xbf16>
  %q = xevm.truncf %h {src_etype = bf16, dst_etype = bf8} : (vector<2xbf16>) -> vector<2xi8>
  %u = arith.extui %q : vector<2xi8> to vector<2xi32>
  vector.print %u : vector<2xi32>
  return
}
""")
    status, out, err = run_xesim(["run", "--explain-assumptions", str(prog)])
    assert status == 0, err
    assert out.splitlines()[0] == "( 60, 64 )"  # E5M2 codes of 1.0 and 2.0: exponent 15 / 16, mantissa 0
    assert "xevm.truncf_bf16_via_f16 = True" in out + err
