"""printMemref / vector.print formats against the worked examples of spec/programs-and-runner.md §1."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from xesim.print_formats import (
    element_formatter,
    format_g,
    memref_data_text,
    memref_header,
    memref_text,
    vector_print_text,
)

F = element_formatter("f")
I = element_formatter("i")


@pytest.mark.parametrize(
    "value,text",
    [
        (0.1, "0.1"), (11.11, "11.11"), (-0.0, "-0"), (1e-05, "1e-05"), (123456, "123456"), (1234567, "1.23457e+06"),
        (3.14159265, "3.14159"), (1 / 3, "0.333333"), (100000, "100000"), (999999.5, "1e+06"),
        (0.0009765625, "0.000976562"), (65504, "65504"), (float("inf"), "inf"), (float("-inf"), "-inf"),
        (float("nan"), "nan"), (-float("nan"), "-nan"), (16.0, "16"), (1e-7, "1e-07"),
    ],
)
def test_format_g_matches_spec_examples(value: float, text: str) -> None:
    assert format_g(value) == text


def test_narrow_floats_print_their_exact_value() -> None:
    assert F(np.float16(11.11)) == "11.1094"
    assert F(np.float16(8.796875)) == "8.79688"
    assert F(ml_dtypes.bfloat16(1.0) / ml_dtypes.bfloat16(3.0)) == format_g(float(ml_dtypes.bfloat16(1 / 3)))


def test_2d_worked_example() -> None:
    text = memref_text(False, 0x55D0C0FFEE00, 0, [2, 3], [3, 1], np.array([[1, 2, 3], [4, 5, 6]], np.float32), "f")
    assert text == (
        "Unranked Memref base@ = 0x55d0c0ffee00 rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = \n"
        "[[1,   2,   3], \n"
        " [4,   5,   6]]\n"
    )


def test_1d_3d_rank0_and_degenerate_shapes() -> None:
    one = np.array([1.5, -0.0, 1e-7, 123456789], np.float32)
    assert memref_data_text(one, F) == "[1.5,  -0,  1e-07,  1.23457e+08]"
    assert memref_data_text(np.array([[7]], np.float32), F) == "[[7]]"
    assert memref_data_text(np.array([[1, 2, 3]], np.float32), F) == "[[1,   2,   3]]"
    cube = np.arange(8, dtype=np.int32).reshape(2, 2, 2)
    assert memref_data_text(cube, I) == "[[[0,    1], \n  [2,    3]], \n [[4,    5], \n  [6,    7]]]"
    ones = np.ones((4, 1, 1), np.float32)
    assert memref_data_text(ones, F) == "[[[1]], \n [[1]], \n [[1]], \n [[1]]]"
    assert memref_data_text(np.array(5, np.float32), F) == "[5]"
    four = np.arange(16, dtype=np.int32).reshape(2, 2, 2, 2)
    assert memref_data_text(four, I).splitlines()[0] == "[[[[0,     1], "


def test_header_rank0_and_null() -> None:
    assert memref_header(False, 0, 0, [], []) == "Unranked Memref base@ = 0 rank = 0 offset = 0 sizes = [] strides = [] data = "
    assert memref_header(True, 16, 3, [4], [2]).startswith("Memref base@ = 0x10 rank = 1 offset = 3")


def test_vector_print_examples() -> None:
    assert vector_print_text(np.array([1, 2.5, -3, 0.1], np.float32), F, True) == "( 1, 2.5, -3, 0.1 )\n"
    assert vector_print_text(np.array([[1, 2], [3, 4]], np.float32), F, True) == "( ( 1, 2 ), ( 3, 4 ) )\n"
    assert vector_print_text(np.array(5, np.float32), F, True) == "( 5 )\n"
    assert vector_print_text(np.float32(5), F, False) == "5\n"
    assert vector_print_text(np.array([1, 0, 1], np.int64), I, True) == "( 1, 0, 1 )\n"
    assert vector_print_text(np.array([0.1, 65504], np.float16), F, True) == "( 0.0999756, 65504 )\n"
    assert vector_print_text(np.array([1, 2], np.int32), I, True, punctuation=", ") == "( 1, 2 ), "
