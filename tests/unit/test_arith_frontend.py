"""Front end of the arith, math, index, affine and cf dialects: how ops are stored after parsing (enum
encodings, inferred types, operand groups, successors), printing, verifier predicates, and robustness
(malformed input gives a located diagnostic, never a Python exception)."""

from __future__ import annotations

import pytest

from xesim.diagnostics import DiagnosticError
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.opdefs import load_registry
from xesim.ir.parser import parse_source
from xesim.ir.printer import print_module
from xesim.verify.structural import verify_module

F32 = T.FloatType("f32")


def parse_fragment(text: str):
    module = parse_source(text, "test", fragment=True)
    verify_module(module)
    return module


def only_op(text: str, name: str):
    module = parse_fragment(text)
    ops = [op for top in module.body.ops for op in top.walk() if op.name == name]
    assert len(ops) == 1
    return ops[0]


def round_trip(text: str) -> str:
    return print_module(parse_fragment(text)).strip()


def errors_of(text: str) -> list[str]:
    """Messages of the diagnostics produced by parsing and verifying ``text`` (a whole function)."""
    try:
        module = parse_source(text, "test")
    except DiagnosticError as exc:
        return [d.message for d in exc.diagnostics]
    ctx = verify_module(module, raise_on_error=False)
    return [d.message for d in ctx.errors]


# ------------------------------------------------------------------------------------------ constants


@pytest.mark.parametrize(
    "text,ty",
    [
        ("%c = arith.constant 42 : i32", T.IntegerType(32)),
        ("%c = arith.constant 0 : index", T.INDEX),
        ("%c = arith.constant true", T.I1),
        ("%c = arith.constant 1.000000e+00 : f32", F32),
        ("%c = arith.constant 5 : i64", T.I64),
        ("%c = arith.constant dense<[1, 2]> : vector<2xi8>", T.VectorType((2,), T.IntegerType(8))),
    ],
)
def test_constant_result_type_is_value_type(text: str, ty: T.Type) -> None:
    op = only_op(text, "arith.constant")
    assert op.results[0].type == ty
    assert op.attributes["value"].type == ty
    assert round_trip(text) == text


def test_constant_without_type_defaults_like_mlir() -> None:
    # An untyped integer literal is i64 and a float literal f64; the printer spells the type out.
    assert round_trip("%c = arith.constant 7") == "%c = arith.constant 7 : i64"
    assert round_trip("%c = arith.constant 0.5") == "%c = arith.constant 5.000000e-01 : f64"


def test_constant_splat_and_list() -> None:
    splat = only_op("%c = arith.constant dense<2.000000e+00> : vector<4xf16>", "arith.constant").attributes["value"]
    assert splat.splat and splat.flat_values() == [2.0] * 4
    lst = only_op("%c = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>", "arith.constant").attributes["value"]
    assert not lst.splat and lst.flat_values() == [1, 2, 3, 4]


def test_constant_attr_dict_comes_first() -> None:
    text = "%c = arith.constant {tag} 1 : i32"
    op = only_op(text, "arith.constant")
    assert "tag" in op.attributes
    assert round_trip(text) == text


# ------------------------------------------------------------------------------------------ enums

CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]


@pytest.mark.parametrize("index,pred", list(enumerate(CMPI)))
def test_cmpi_predicates_are_i64_case_indices(index: int, pred: str) -> None:
    text = f"%r = arith.cmpi {pred}, %a, %b : i32"
    op = only_op(text, "arith.cmpi")
    assert op.attributes["predicate"] == A.IntegerAttr(index, T.I64)
    assert op.results[0].type == T.I1
    assert round_trip(text) == text


@pytest.mark.parametrize("index,pred", list(enumerate(CMPF)))
def test_cmpf_predicates_are_i64_case_indices(index: int, pred: str) -> None:
    text = f"%r = arith.cmpf {pred}, %a, %b : vector<4xf32>"
    op = only_op(text, "arith.cmpf")
    assert op.attributes["predicate"] == A.IntegerAttr(index, T.I64)
    assert op.results[0].type == T.VectorType((4,), T.I1)
    assert round_trip(text) == text


def test_fastmath_flags_are_arith_fastmath_attrs() -> None:
    op = only_op("%r = arith.addf %a, %b fastmath<nnan, ninf> : f32", "arith.addf")
    fm = op.attributes["fastmath"]
    assert isinstance(fm, A.DialectAttr) and fm.qualified_name == "arith.fastmath"
    assert [str(v) for _, v in fm.params] == ["nnan", "ninf"]
    # the default (none) is not printed
    generic = '%r = "arith.mulf"(%a, %b) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32'
    assert round_trip(generic) == "%r = arith.mulf %a, %b : f32"


def test_overflow_flags() -> None:
    op = only_op("%r = arith.muli %a, %b overflow<nsw, nuw> : i32", "arith.muli")
    assert str(op.attributes["overflowFlags"]) == "#arith.overflow<nsw, nuw>"
    plain = only_op("%r = arith.muli %a, %b : i32", "arith.muli")
    assert "overflowFlags" not in plain.attributes


def test_truncf_rounding_mode_and_fastmath() -> None:
    text = "%r = arith.truncf %x to_nearest_even fastmath<fast> : f32 to bf16"
    op = only_op(text, "arith.truncf")
    assert op.attributes["roundingmode"] == A.IntegerAttr(0, T.I64)
    assert op.results[0].type == T.FloatType("bf16")
    assert round_trip(text) == text


def test_math_uses_arith_fastmath() -> None:
    op = only_op("%r = math.exp %x fastmath<fast> : vector<16xf16>", "math.exp")
    assert str(op.attributes["fastmath"]) == "#arith.fastmath<fast>"


def test_index_cmp_predicate_spelling() -> None:
    op = only_op("%r = index.cmp slt(%a, %b)", "index.cmp")
    assert str(op.attributes["pred"]) == "#index<cmp_predicate slt>"
    assert [v.type for v in op.operands] == [T.INDEX, T.INDEX]
    assert op.results[0].type == T.I1


def test_every_enum_is_registered() -> None:
    enums = load_registry().enums
    for name in ("CmpIPredicate", "CmpFPredicate", "FastMathFlags", "IntegerOverflowFlags", "RoundingMode",
                 "IndexCmpPredicate"):
        assert name in enums
    assert enums["CmpFPredicate"].cases == CMPF


# ------------------------------------------------------------------------------------------ types


def test_select_scalar_condition_is_i1() -> None:
    op = only_op("%r = arith.select %c, %a, %b : vector<4xf32>", "arith.select")
    assert op.operands[0].type == T.I1
    assert op.results[0].type == T.VectorType((4,), F32)


def test_select_vector_condition() -> None:
    text = "%r = arith.select %c, %a, %b : vector<4xi1>, vector<4xf32>"
    op = only_op(text, "arith.select")
    assert op.operands[0].type == T.VectorType((4,), T.I1)
    assert round_trip(text) == text


def test_binary_operand_types_are_inferred_from_the_result() -> None:
    op = only_op("%r = arith.addi %a, %b : vector<8xi16>", "arith.addi")
    assert all(v.type == T.VectorType((8,), T.IntegerType(16)) for v in op.operands)


def test_index_ops_are_all_index() -> None:
    op = only_op("%r = index.floordivs %a, %b", "index.floordivs")
    assert [v.type for v in op.operands] + [op.results[0].type] == [T.INDEX] * 3
    c = only_op("%r = index.constant -3", "index.constant")
    assert c.attributes["value"] == A.IntegerAttr(-3, T.INDEX)


# ------------------------------------------------------------------------------------------ affine


def test_affine_apply_dims_and_symbols() -> None:
    text = "%r = affine.apply affine_map<(d0, d1)[s0] -> (d0 * 16 + d1 + s0)>(%i, %j)[%k]"
    op = only_op(text, "affine.apply")
    amap = op.attributes["map"].map
    assert (amap.num_dims, amap.num_syms) == (2, 1)
    assert [v.name for v in op.operands] == ["i", "j", "k"]
    assert amap.evaluate([1, 2], [3]) == [21]
    assert round_trip(text) == text


def test_affine_apply_through_alias_prints_alias() -> None:
    text = "#m = affine_map<(d0) -> (d0 mod 8)>\n%r = affine.apply #m(%i)"
    assert round_trip(text) == text


# ------------------------------------------------------------------------------------------ cf

CFG = """func.func @f(%c: i1, %a: i32, %b: f32) {
  cf.cond_br %c, ^bb1(%a : i32), ^bb2
^bb1(%x: i32):
  cf.br ^bb2
^bb2:
  return
}"""


def test_cond_br_operand_groups_and_successors() -> None:
    module = parse_fragment(CFG)
    func = module.body.ops[0]
    blocks = func.regions[0].blocks
    br = blocks[0].terminator
    assert br.name == "cf.cond_br"
    assert br.operand_segments == [1, 1, 0]
    assert br.operand_group("trueDestOperands")[0].name == "a"
    assert br.operand_group("falseDestOperands") == []
    assert br.successors == [blocks[1], blocks[2]]
    assert blocks[1].terminator.successors == [blocks[2]]
    assert print_module(module).strip() == CFG


def test_generic_cond_br_prints_custom() -> None:
    generic = CFG.replace(
        "cf.cond_br %c, ^bb1(%a : i32), ^bb2",
        '"cf.cond_br"(%c, %a) [^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()',
    )
    assert round_trip(generic) == CFG


def test_successor_operand_checks() -> None:
    bad_count = CFG.replace("^bb1(%a : i32)", "^bb1")
    assert any("branch has 0 operands for successor #0, but target block has 1" in m for m in errors_of(bad_count))
    bad_type = CFG.replace("^bb1(%a : i32)", "^bb1(%b : f32)")
    assert any("type mismatch for bb argument #0 of successor #0" in m for m in errors_of(bad_type))


@pytest.mark.parametrize(
    "body,message",
    [
        ("%0 = arith.extsi %a : i32 to i16", "result type 'i16' must be wider than operand type 'i32'"),
        ("%0 = arith.trunci %a : i32 to i64", "result type 'i64' must be shorter than operand type 'i32'"),
        ("%0 = arith.bitcast %a : i32 to f16", "are cast incompatible"),
        ("%0 = arith.index_cast %a : i32 to i64", "are cast incompatible"),
        ("%0 = arith.sitofp %a : i32 to vector<2xf32>", "requires the same shape for all operands and results"),
        ('%0 = "arith.constant"() <{value = 1 : i32}> : () -> i64', "all of {value, result} have same type"),
    ],
)
def test_verifier_predicates(body: str, message: str) -> None:
    text = f"func.func @f(%a: i32) {{\n  {body}\n  return\n}}"
    assert any(message in m for m in errors_of(text))


# ------------------------------------------------------------------------------------------ robustness

PROGRAM = """#tile = affine_map<(d0)[s0] -> (d0 * 16 + s0)>
func.func @loop(%n: index, %x: f32, %v: vector<4xf32>, %m: vector<4xi1>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : vector<4xf32>
  %f = arith.constant 0.000000e+00 : f32
  cf.br ^header(%c0, %f : index, f32)
^header(%i: index, %acc: f32):
  %cond = arith.cmpi slt, %i, %n : index
  cf.cond_br %cond weights([9, 1]), ^body(%i : index), ^exit(%acc : f32)
^body(%j: index):
  %off = affine.apply #tile(%j)[%c1]
  %ji = arith.index_cast %off : index to i32
  %jf = arith.sitofp %ji : i32 to f32
  %p = arith.mulf %jf, %x fastmath<fast> : f32
  %h = arith.truncf %p to_nearest_even : f32 to bf16
  %e = arith.extf %h : bf16 to f32
  %s = math.fma %e, %x, %acc fastmath<contract> : f32
  %sel = arith.select %m, %v, %zero : vector<4xi1>, vector<4xf32>
  %k = arith.addi %i, %c1 overflow<nsw> : index
  %in = index.cmp ult(%k, %n)
  cf.assert %in, "bound"
  cf.br ^header(%k, %s : index, f32)
^exit(%r: f32):
  return %r : f32
}
"""


def test_program_round_trips() -> None:
    module = parse_source(PROGRAM, "program")
    verify_module(module)
    printed = print_module(module)
    again = print_module(parse_source(printed, "reprint"))
    assert printed == again


def test_truncated_input_gives_diagnostics_not_exceptions() -> None:
    """Every prefix of a valid program either parses or fails with a located DiagnosticError."""
    cuts = sorted({i for i, ch in enumerate(PROGRAM) if ch in " ,:()[]<>{}\n"})
    for cut in cuts:
        text = PROGRAM[:cut]
        try:
            module = parse_source(text, "prefix")
            verify_module(module, raise_on_error=False)
        except DiagnosticError as exc:
            assert exc.diagnostics and exc.diagnostics[0].loc.known, text
