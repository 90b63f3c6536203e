"""Numerics: every rounding decision xesim makes, as pure functions on numpy values (ARCHITECTURE.md,
principles 3-4 and "Numerics").  Nothing in this package imports the IR.

* :mod:`xesim.numerics.conversions` -- float formats, exact float <-> float rounding with MLIR's five
  rounding modes, integer -> float (one rounding), float -> integer (saturating, the Intel GPU rule).
* :mod:`xesim.numerics.mathfuncs` -- math functions (float64 evaluation, one rounding; accuracy stated
  there as an assumption), exact fma, IEEE minimum/maximum/minNum/maxNum, fmod and sign-bit operations.

Basic arithmetic (+, -, *, /) on f16/bf16/f32 is computed by numpy/ml_dtypes or in float64 and rounded
once to the type; either is correctly rounded because the wider format carries >= 2p + 2 bits (see
``xesim/exec/ops/arith.py`` for where that argument is applied).
"""

from xesim.numerics.conversions import (
    FORMATS,
    ROUNDING_MODES,
    FloatFormat,
    extend_float,
    float_format,
    float_to_int_sat,
    int_to_float,
    round_float,
)

__all__ = [
    "FORMATS",
    "ROUNDING_MODES",
    "FloatFormat",
    "extend_float",
    "float_format",
    "float_to_int_sat",
    "int_to_float",
    "round_float",
]
