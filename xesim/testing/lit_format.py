"""A lit test format that runs a test directory through xesim (issue 26 item 2), for ``lit`` itself.

A suite's ``lit.cfg.py`` needs two lines::

    import xesim.testing.lit_format
    xesim.testing.lit_format.configure(config)

Then ``lit DIR`` discovers the ``.mlir`` files (lit's own discovery, ``lit.local.cfg`` files included) and runs
each with :func:`xesim.testing.pipeline.run_test`, the same function ``xesim test`` and ``pytest --xesim`` use, so
the three give the same verdicts.  This module imports ``lit`` (the ``test`` extra); nothing else in xesim does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lit.formats
import lit.Test

from xesim.testing.conventions import value
from xesim.testing.pipeline import Context, run_test

_CODES = {"PASS": lit.Test.PASS, "FAIL": lit.Test.FAIL, "UNSUPPORTED": lit.Test.UNSUPPORTED,
          "XFAIL": lit.Test.XFAIL, "XPASS": lit.Test.XPASS, "UNRESOLVED": lit.Test.UNRESOLVED}


class XesimTestFormat(lit.formats.FileBasedTest):
    """lit's file-based discovery; each test's RUN lines run through xesim."""

    def execute(self, test: Any, lit_config: Any) -> lit.Test.Result:
        cfg = test.config
        ctx = Context(frozenset(cfg.available_features), tuple(tuple(s) for s in cfg.substitutions),
                      "lit.local.cfg marks the directory unsupported" if cfg.unsupported else "")
        outcome = run_test(Path(test.getSourcePath()), ctx)
        text = outcome.reason + (f"\n{outcome.details}" if outcome.details else "")
        return lit.Test.Result(_CODES[outcome.verdict], text)


def configure(config: Any, name: str = "xesim") -> None:
    """Make lit's ``config`` (of a suite's lit.cfg.py) run its tests through xesim: the test format, ``.mlir``
    suffixes, the features xesim provides (``isa/runner.toml`` ``lit.features``) and the configuration
    attributes upstream ``lit.local.cfg`` files read (``lit.config_attributes``)."""
    config.name = name
    config.test_format = XesimTestFormat()
    config.suffixes = {".mlir"}
    config.available_features.update(value("lit.features"))
    for attr, val in value("lit.config_attributes").items():
        setattr(config, attr, val)
