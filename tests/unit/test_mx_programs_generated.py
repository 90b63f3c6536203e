"""The MX programs of tests/e2e/mx_*.mlir are what tools/gen_mx_programs.py generates: their CHECK lines and expected
matrices come from the generator's independent numpy / ml_dtypes / Fraction computations, never from xesim."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mx_programs_are_up_to_date_with_their_generator() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_mx_programs.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert len(list((ROOT / "tests" / "e2e").glob("mx_*.mlir"))) == 6


def test_the_generator_does_not_import_xesim() -> None:
    text = (ROOT / "tools" / "gen_mx_programs.py").read_text()
    assert "import xesim" not in text and "from xesim" not in text
