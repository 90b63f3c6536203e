"""Unit tests of the front-end building blocks: lexer, types, attribute printing, affine maps, diagnostics."""

from __future__ import annotations

import pytest

from xesim.diagnostics import Diagnostic, DiagnosticError, Location, SourceFile
from xesim.ir import attributes as A
from xesim.ir import types as T
from xesim.ir.affine import parse_affine_map
from xesim.ir.lexer import Lexer, escape_string, unescape_string
from xesim.ir.parser import Parser


def lex_all(text: str) -> list[tuple[str, str]]:
    lex = Lexer(SourceFile("t", text))
    out = []
    while True:
        t = lex.next()
        if t.kind == "eof":
            return out
        out.append((t.kind, t.text))


def test_lexer_token_kinds() -> None:
    toks = lex_all('%0 = "x.y"(%a#1) : () -> i32 // comment\n^bb0 @sym #attr !type 0x1F 1.5e3 -> ...')
    assert toks == [
        ("percent", "%0"), ("punct", "="), ("string", '"x.y"'), ("punct", "("), ("percent", "%a"), ("hash", "#1"),
        ("punct", ")"), ("punct", ":"), ("punct", "("), ("punct", ")"), ("punct", "->"), ("bare", "i32"),
        ("caret", "^bb0"), ("at", "@sym"), ("hash", "#attr"), ("excl", "!type"), ("int", "0x1F"),
        ("float", "1.5e3"), ("punct", "->"), ("punct", "..."),
    ]


def test_lexer_bad_character_is_located() -> None:
    with pytest.raises(DiagnosticError) as exc:
        lex_all("%a = \n  `oops")
    d = exc.value.diagnostics[0]
    assert d.loc.line_col() == (2, 3)
    assert "unexpected character" in d.message


def test_string_escapes_round_trip() -> None:
    for s in ['plain', 'quote " and \\ backslash', "newline\nand\ttab"]:
        assert unescape_string(escape_string(s)) == s
    assert unescape_string('"\\41\\42"') == "AB"


def parse_type(text: str) -> T.Type:
    return Parser(SourceFile("t", text)).parse_type()


@pytest.mark.parametrize(
    "text",
    [
        "i32", "si8", "ui64", "index", "f16", "bf16", "tf32", "f8E4M3FN", "f8E5M2", "f8E8M0FNU", "f4E2M1FN",
        "vector<8x16xf32>", "vector<4xi1>", "vector<f32>", "memref<32x32xf16>", "memref<?x?xf32>",
        "memref<*xf32>", "memref<16xf32, 3>", "memref<4x4xf32, strided<[8, 1], offset: ?>>",
        "memref<2048xi8, #gpu.address_space<workgroup>>", "(i32, f32) -> (index, i1)", "() -> ()",
        "!xegpu.tensor_desc<8x16xf16>", "!xegpu.nbarrier", "!gpu.async.token",
        "!xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>",
        "!xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>",
        "!xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>",
        "!xegpu.tensor_desc<32x64xf32, #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>>",
        "!xegpu.mem_desc<128x128xf16, #xegpu.mem_layout<stride = [1, 128], block = [8, 8]>>",
        "!llvm.ptr<1>", "vector<[4]xf32>",
    ],
)
def test_types_print_as_parsed(text: str) -> None:
    assert str(parse_type(text)) == text


def test_tensor_desc_accessors() -> None:
    t = parse_type("!xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64, boundary_check = false>>")
    assert isinstance(t, T.TensorDescType)
    assert (t.array_length, t.boundary_check, t.memory_space, t.is_scattered) == (2, False, "global", False)
    s = parse_type("!xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64, memory_space = slm>>")
    assert (s.chunk_size, s.memory_space, s.is_scattered) == (8, "slm", True)


def parse_attr(text: str) -> A.Attribute:
    return Parser(SourceFile("t", text)).parse_attribute()


@pytest.mark.parametrize(
    "text,printed",
    [
        ("1.0 : f32", "1.000000e+00 : f32"),
        ("0.1 : f32", "1.000000e-01 : f32"),
        ("-0.0 : f16", "-0.000000e+00 : f16"),
        ("3.14159265358979", "3.14159265358979e+00 : f64"),
        ("11.11 : f16", "1.110938e+01 : f16"),
        ("0x7FC00000 : f32", "0x7FC00000 : f32"),
        ("0x7C00 : f16", "0x7C00 : f16"),
        ("5", "5 : i64"),
        ("5 : i32", "5 : i32"),
        ("-1 : i8", "-1 : i8"),
        ("255 : i8", "-1 : i8"),
        ("true", "true"),
        ("array<i64: 1, 0>", "array<i64: 1, 0>"),
        ("array<i32>", "array<i32>"),
        ("dense<0.000000e+00> : vector<8x16xf32>", "dense<0.000000e+00> : vector<8x16xf32>"),
        ("dense<[[1, 2], [3, 4]]> : vector<2x2xi32>", "dense<[[1, 2], [3, 4]]> : vector<2x2xi32>"),
        ("dense<[true, false]> : vector<2xi1>", "dense<[true, false]> : vector<2xi1>"),
        ('dense<"0x0000803F00000040"> : vector<2xf32>', 'dense<"0x0000803F00000040"> : vector<2xf32>'),
        ("@a::@b", "@a::@b"),
        ('"str\\0A"', '"str\\0A"'),
        ("[1, [2, 3], unit]", "[1, [2, 3], unit]"),
        ("{a = 1, b}", "{a = 1 : i64, b}"),
        ("affine_map<(d0, d1)[s0] -> (d0 * 4 + s0, d1 mod 2)>", "affine_map<(d0, d1)[s0] -> (d0 * 4 + s0, d1 mod 2)>"),
        ("#xegpu.cache_hint<cached>", "#xegpu.cache_hint<cached>"),
        ("#xegpu.slice<#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32]>, dims = [0]>",
         "#xegpu.slice<#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32]>, dims = [0]>"),
        ("#spirv.vce<v1.4, [Addresses, Float16Buffer], [SPV_INTEL_vector_compute]>",
         "#spirv.vce<v1.4, [Addresses, Float16Buffer], [SPV_INTEL_vector_compute]>"),
        ("#gpu<dim x>", "#gpu<dim x>"),
    ],
)
def test_attributes_print_canonically(text: str, printed: str) -> None:
    a = parse_attr(text)
    assert str(a) == printed
    assert str(parse_attr(printed)) == printed  # fixed point


def test_dense_values() -> None:
    a = parse_attr("dense<[[1, 2], [3, 4]]> : vector<2x2xi32>")
    assert isinstance(a, A.DenseElementsAttr) and a.flat_values() == [1, 2, 3, 4]
    s = parse_attr("dense<1.5> : vector<4xf16>")
    assert s.splat and s.flat_values() == [1.5] * 4


@pytest.mark.parametrize(
    "text,msg",
    [
        ("dense<[1, 2, 3]> : vector<2xi32>", "does not match type"),
        ("300 : i8", "out of range"),
        ("1.5 : i32", "not valid for specified type"),
        ("#undefined_alias", "undefined symbol alias"),
    ],
)
def test_bad_attributes_are_diagnosed(text: str, msg: str) -> None:
    with pytest.raises(DiagnosticError) as exc:
        parse_attr(text)
    assert msg in exc.value.diagnostics[0].message


def test_affine_map_evaluation() -> None:
    m, _ = parse_affine_map("(d0, d1)[s0] -> (d0 floordiv 4, d1 ceildiv 3, (d0 + s0) mod 5, -d1)")
    assert m.evaluate([-7, 7], [3]) == [-2, 3, 1, -7]
    assert str(m) == "(d0, d1)[s0] -> (d0 floordiv 4, d1 ceildiv 3, (d0 + s0) mod 5, -1 * d1)" or "d0 floordiv 4" in str(m)


def test_diagnostic_rendering_has_caret() -> None:
    src = SourceFile("f.mlir", "line one\n  bad token here\n")
    d = Diagnostic("error", Location(src, src.offset_of_line(2) + 2), "something is wrong")
    assert d.render() == "f.mlir:2:3: error: something is wrong\n  bad token here\n  ^"
