# lit configuration: this directory's tests run through xesim (issue 26; README "Running a test suite in CI").
import xesim.testing.lit_format

xesim.testing.lit_format.configure(config)
