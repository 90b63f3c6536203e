"""Every input error is a located diagnostic, never an internal error (issue 27 item 1): bytes that are not UTF-8,
a byte-order mark, directories and unreadable paths, out-of-range literals (index with MLIR's 64-bit rule, hex
floats wider than their type), and a diagnostic on a huge line that does not echo it."""

from __future__ import annotations

from pathlib import Path

import pytest

import xesim
from tests.conftest import run_xesim
from xesim.diagnostics import SHOWN_LINE, DiagnosticError

PROGRAM = "func.func @main() {\n  %c = arith.constant 7 : index\n  vector.print %c : index\n  return\n}\n"


def _no_internal_error(err: str) -> None:
    assert "internal error" not in err and "Traceback" not in err, err


def test_latin1_byte_in_a_comment_is_located_and_named(tmp_path: Path) -> None:
    f = tmp_path / "latin1.mlir"
    f.write_bytes(b"// caf\xe9\n" + PROGRAM.encode())
    status, _, err = run_xesim(["verify", str(f)])
    _no_internal_error(err)
    assert status == 1
    first = err.splitlines()[0]
    assert first.startswith(f"{f}:1:7: error: invalid UTF-8 at byte offset 6: byte 0xe9"), first
    assert err.splitlines()[2] == " " * 6 + "^"


def test_utf16_file_is_named_as_such(tmp_path: Path) -> None:
    f = tmp_path / "utf16.mlir"
    f.write_bytes(PROGRAM.encode("utf-16"))
    status, _, err = run_xesim(["run", str(f)])
    _no_internal_error(err)
    assert status == 1 and f"{f}:1:1: error: invalid UTF-8 at byte offset 0: UTF-16 text" in err


def test_binary_garbage_is_a_diagnostic(tmp_path: Path) -> None:
    f = tmp_path / "garbage.mlir"
    f.write_bytes(bytes(range(256)) * 4)
    for command in ("verify", "fmt", "run"):
        status, _, err = run_xesim([command, str(f)])
        _no_internal_error(err)
        assert status == 1 and ": error: " in err


def test_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    f = tmp_path / "bom.mlir"
    f.write_bytes(b"\xef\xbb\xbf" + PROGRAM.encode())
    status, out, err = run_xesim(["run", str(f)])
    assert status == 0 and out == "7\n", err
    assert xesim.load(f).run().output == "7\n"


def test_directory_and_unreadable_paths(tmp_path: Path) -> None:
    status, _, err = run_xesim(["verify", str(tmp_path)])
    _no_internal_error(err)
    assert status == 1 and err.strip() == f"{tmp_path}: error: is a directory, not a file"
    plain = tmp_path / "plain.mlir"
    plain.write_text(PROGRAM)
    below_a_file = plain / "x.mlir"  # reading it fails with ENOTDIR (a permission test would pass as root)
    status, _, err = run_xesim(["run", str(below_a_file)])
    _no_internal_error(err)
    assert status == 1 and err.startswith(f"{below_a_file}: error: cannot be read")
    with pytest.raises(DiagnosticError, match="is a directory"):
        xesim.load(tmp_path)


@pytest.mark.parametrize("literal, message", [
    ("36893488147419103232 : index", "integer constant out of range for type 'index'"),  # 2^65: wrapped to 0
    ("100000000000000000000000000000 : index", "integer constant out of range for type 'index'"),
    ("-9223372036854775809 : index", "integer constant out of range for type 'index'"),
    ("0x7fffffff : f16", "hexadecimal float constant out of range for type 'f16'"),
    ("0x1ffffffff : f32", "hexadecimal float constant out of range for type 'f32'"),
    ("dense<0xffffffffffffffff> : vector<1xbf16>", "hexadecimal float constant out of range for type 'bf16'"),
    ("dense<36893488147419103232> : vector<2xindex>", "integer constant out of range for type 'index'"),
    ("256 : i8", "integer constant out of range for type 'i8'"),
])
def test_out_of_range_literals_are_located(tmp_path: Path, literal: str, message: str) -> None:
    f = tmp_path / "lit.mlir"
    f.write_text(f"func.func @main() {{\n  %c = arith.constant {literal}\n  return\n}}\n")
    status, _, err = run_xesim(["verify", str(f)])
    _no_internal_error(err)
    assert status == 1 and f"{f}:2:" in err and message in err, err


def test_index_literals_follow_mlir_64_bit_signless_rule(tmp_path: Path) -> None:
    """The unsigned 64-bit range is accepted and stored as the signed value (as for i64); it runs as such."""
    f = tmp_path / "idx.mlir"
    f.write_text("func.func @main() {\n  %c = arith.constant 18446744073709551615 : index\n"
                 "  %m = arith.constant 9223372036854775807 : index\n"
                 "  vector.print %c : index\n  vector.print %m : index\n  return\n}\n")
    status, out, err = run_xesim(["fmt", str(f)])
    assert status == 0 and "arith.constant -1 : index" in out, err
    status, out, err = run_xesim(["run", str(f)])
    assert status == 0, err
    assert out.split() == ["18446744073709551615", "9223372036854775807"]  # index prints unsigned (printU64)


def test_diagnostic_on_a_10_mb_line_shows_a_window(tmp_path: Path) -> None:
    f = tmp_path / "long.mlir"
    values = ", ".join(["1"] * 3_500_000)  # 10.5 MB on one line, the bad element near the end
    f.write_text("func.func @main() {\n  %c = arith.constant dense<[" + values + ", 4294967296, 1]> : "
                 "vector<3500002xi32>\n  return\n}\n")
    status, _, err = run_xesim(["verify", str(f)])
    _no_internal_error(err)
    assert status == 1 and len(err) < 1000, len(err)
    head, shown, caret = err.splitlines()[:3]
    assert "integer constant out of range for type 'i32'" in head
    assert shown.startswith("...") and len(shown) <= SHOWN_LINE + 6
    assert shown[caret.index("^"):].startswith("4294967296")


def test_standard_input_bytes_are_decoded_like_files() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-m", "xesim.cli", "run", "-"], input=b"\xef\xbb\xbf" + PROGRAM.encode(),
                          capture_output=True, cwd=root)
    assert proc.returncode == 0 and proc.stdout == b"7\n", proc.stderr
    proc = subprocess.run([sys.executable, "-m", "xesim.cli", "verify", "-"], input=b"// \xff\n" + PROGRAM.encode(),
                          capture_output=True, cwd=root)
    assert proc.returncode == 1
    assert proc.stderr.decode().startswith("<stdin>:1:4: error: invalid UTF-8 at byte offset 3: byte 0xff")
