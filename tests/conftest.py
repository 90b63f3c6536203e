"""pytest plugin: every ``tests/**/*.mlir`` file with ``// RUN:`` lines is a test.

Supported RUN lines (``%s`` = the file):
  ``xesim verify [--split-input-file] [--verify-diagnostics] %s``   exit status must be 0
  ``xesim fmt %s | filecheck %s``                                  output checked with the file's CHECK lines
  ``xesim <cmd> ... %s | filecheck [--check-prefix P] %s``          any xesim command piped to filecheck
  ``not xesim ... %s``                                             exit status must be non-zero
  ``... %s 2>&1 | filecheck %s``                                  stderr (diagnostics) checked with the output
CHECK lines are checked by the ``filecheck`` package (a Python port of LLVM FileCheck).
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from xesim.numerics import tiers

# Property tests are derandomized so CI runs are reproducible (a failure found once is found every time);
# set HYPOTHESIS_PROFILE=explore to search with fresh random seeds.
settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Every kernel of the test suite runs with the checked register-file model (xesim/observe/registers.py): each read of a
# value compares the GRF bytes with the SSA value.  XESIM_GRF=off (or track) in the environment overrides it.
os.environ.setdefault("XESIM_GRF", "checked")
# Launches run in one process unless a test asks for more (tests/unit/test_jobs.py); XESIM_JOBS=N overrides it.
os.environ.setdefault("XESIM_JOBS", "1")
# In-process runs take the compiled forms of the numba kernels, which the tests were written for (counters of compiled
# nests, B decodings, ...); the uncompiled twins that small launches take on a fresh install (xesim/numerics/tiers.py)
# are compared with them where the tests force them (tests/numerics/test_dpas_twin.py, tests/unit/test_twins.py), and
# xesim processes started by tests decide per call.
tiers.set_default(tiers.COMPILED)


def pytest_collect_file(parent, file_path: Path):
    # tests/fuzz_corpus holds mutants (some not UTF-8, some with their seed's RUN lines): test_fuzz_corpus.py runs them
    if file_path.suffix in (".mlir", ".xegpu") and "fuzz_corpus" not in file_path.parts \
            and b"RUN:" in file_path.read_bytes():
        return MlirFile.from_parent(parent, path=file_path)
    return None


class MlirFile(pytest.File):
    def collect(self):
        for i, line in enumerate(self.path.read_text().splitlines()):
            if "// RUN:" in line:
                cmd = line.split("// RUN:", 1)[1].strip()
                yield MlirRunItem.from_parent(self, name=f"RUN{i + 1}", command=cmd)


def in_sweeps(path: Path) -> bool:
    """Whether the whole-repository sweeps (every program under ``XESIM_ENGINE=both``, under ``--check-races``,
    batched against unbatched) include program ``path``.  They leave out the XeTile 1024^3 GEMMs
    (``tests/e2e/xetile_gemm_1k_*``) and the 4096^3 workgroup GEMM (``xetile_wg_gemm_4k_f16``): their own RUN lines
    check them (1k: 2-9 s each, 4k: about 30 s on the 2-core VM), but the sweeps' slow modes cost too much for the
    CI budget -- ``both`` also interprets the host fill loops (1M elements each) and runs every subgroup on the
    reference path, ``--check-races`` runs subgroups one at a time: about 21 s and 22 s per 1k GEMM (about 10 min
    for the eleven), hours for the 4k.  The smaller XeTile programs (including the 1k workgroup GEMM) cover the
    same ops in the sweeps, and tests/unit/test_xetile_fast_paths.py compares the fast load/store paths with the
    reference ones."""
    return not (path.name.startswith("xetile_gemm_1k_") or path.name == "xetile_wg_gemm_4k_f16.mlir")


def run_xesim(argv: list[str]) -> tuple[int, str, str]:
    from xesim.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse errors
            status = int(exc.code or 0)
    return status, out.getvalue(), err.getvalue()


class MlirRunItem(pytest.Item):
    def __init__(self, *, command: str, **kw) -> None:
        super().__init__(**kw)
        self.command = command

    def runtest(self) -> None:
        path = str(self.path)
        stages = [s.strip() for s in self.command.split("|")]
        first = shlex.split(stages[0].replace("%s", path))
        expect_fail = first[0] == "not"
        if expect_fail:
            first = first[1:]
        merge_stderr = "2>&1" in first  # the shell's: diagnostics go down the pipe with the output
        first = [a for a in first if a != "2>&1"]
        if first[0] != "xesim":
            raise MlirTestFailure(f"unsupported RUN command: {self.command}")
        status, out, err = run_xesim(first[1:])
        if expect_fail:
            if status == 0:
                raise MlirTestFailure(f"expected failure, got success\nstderr:\n{err}")
        elif status != 0:
            raise MlirTestFailure(f"xesim exited with {status}\nstderr:\n{err}")
        for stage in stages[1:]:
            argv = shlex.split(stage.replace("%s", path))
            if argv[0] != "filecheck":
                raise MlirTestFailure(f"unsupported pipeline stage: {stage}")
            exe = Path(sys.executable).with_name("filecheck")
            proc = subprocess.run([str(exe), *argv[1:]], input=out + err if merge_stderr else out,
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                raise MlirTestFailure(f"filecheck failed:\n{proc.stdout}{proc.stderr}\n--- xesim output ---\n{out}{err}")

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, MlirTestFailure):
            return f"{self.path.name}: {self.command}\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"{self.path.name}::{self.name}"


class MlirTestFailure(Exception):
    pass
