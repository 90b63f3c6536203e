"""Front end of the memref and vector dialects: the strided-layout helpers of xesim/verify/rules_memref.py
(MLIR getStridesAndOffset, SubViewOp::inferResultType, collapse/expand layouts, cast compatibility), how
ops are stored after parsing (static index lists, defaulted transfer attributes, inferred mask and shuffle
types, contraction kinds and iterator types), generic-form input, multi-result printing, the shared example
programs, and robustness (bad input gives a located diagnostic, never a Python exception).

The dialects are tested against a registry holding builtin, func, arith (constants, fastmath flags), memref
and vector only, so these tests do not depend on the other dialect files."""

from __future__ import annotations

from pathlib import Path

import pytest

from xesim.diagnostics import DiagnosticError
from xesim.ir import affine as AF  # noqa: N812 - short alias
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.directives.common import DYNAMIC_INDEX
from xesim.ir.directives.vector import is_minor_identity, transfer_mask_type
from xesim.ir.opdefs import ISA_DIR, load_registry
from xesim.ir.parser import parse_source
from xesim.ir.printer import print_module
from xesim.verify import rules_memref as M  # noqa: N812 - short alias
from xesim.verify.structural import verify_module

EXAMPLES = Path("/work/shared/examples")
D = T.DYNAMIC
F32 = T.F32


@pytest.fixture(scope="module")
def reg(tmp_path_factory):
    d = tmp_path_factory.mktemp("isa") / "dialects"
    d.mkdir()
    for name in ("builtin", "func", "arith", "memref", "vector"):
        (d / f"{name}.toml").write_text((ISA_DIR / "dialects" / f"{name}.toml").read_text())
    return load_registry(str(d.parent))


def parse_ok(reg, text: str):
    module = parse_source(text, "test", fragment=True, registry=reg)
    verify_module(module, reg)
    return module


def only_op(reg, text: str, name: str):
    ops = [op for top in parse_ok(reg, text).body.ops for op in top.walk() if op.name == name]
    assert len(ops) == 1
    return ops[0]


def round_trip(reg, text: str) -> str:
    return print_module(parse_ok(reg, text), reg).strip()


def diagnostics(reg, text: str) -> list[str]:
    """Messages of the errors produced by parsing and verifying ``text`` (a fragment)."""
    try:
        module = parse_source(text, "test", fragment=True, registry=reg)
    except DiagnosticError as exc:
        return [d.message for d in exc.diagnostics]
    return [d.message for d in verify_module(module, reg, raise_on_error=False).errors]


def memref(shape, layout=None, space=None, elem=F32) -> T.MemRefType:
    return T.MemRefType(tuple(shape), elem, layout, space)


def strided(strides, offset=0) -> A.StridedLayoutAttr:
    return A.StridedLayoutAttr(tuple(strides), offset)


# ================================================================================== layout helpers


def test_canonical_strides() -> None:
    assert M.canonical_strides([4, 8, 16]) == [128, 16, 1]
    assert M.canonical_strides([4, D, 16]) == [D, 16, 1]
    assert M.canonical_strides([D, 4]) == [4, 1]
    assert M.canonical_strides([]) == []


def test_strides_and_offset_of_each_layout_kind() -> None:
    assert M.strides_and_offset(memref([4, 4])) == ([4, 1], 0)
    assert M.strides_and_offset(memref([4, 4], strided([8, 1], D))) == ([8, 1], D)
    amap = AF.AffineMap(2, 1, (AF.BinOp("+", AF.BinOp("+", AF.BinOp("*", AF.Dim(0), AF.Const(32)), AF.Dim(1)),
                                        AF.Sym(0)),))
    assert M.strides_and_offset(memref([4, 4], A.AffineMapAttr(amap))) == ([32, 1], D)
    nonlinear = AF.AffineMap(1, 0, (AF.BinOp("mod", AF.Dim(0), AF.Const(4)),))
    assert M.strides_and_offset(memref([4], A.AffineMapAttr(nonlinear))) is None


def test_subview_result_type_follows_mlir_inference() -> None:
    src = memref([16, 16])
    assert M.subview_result_type(src, [4, 8], [4, 4], [1, 1]) == memref([4, 4], strided([16, 1], 72))
    assert M.subview_result_type(src, [D, 0], [D, 16], [2, 1]) == memref([D, 16], strided([32, 1], D))
    src2 = memref([8, 8], strided([D, 1], 5))
    assert M.subview_result_type(src2, [1, 2], [2, 2], [1, 1]) == memref([2, 2], strided([D, 1], D))


def test_rank_reduction_masks_enumerate_ambiguous_unit_dims() -> None:
    assert M.compute_rank_reduction_masks([1, 8], [8]) == [{0}]
    assert M.compute_rank_reduction_masks([1, 1], [1]) == [{0}, {1}]
    assert M.compute_rank_reduction_masks([2, 8], [8]) == []


def test_collapsed_and_expanded_layouts() -> None:
    src = memref([8, 32], strided([32, 1], 128))
    assert M.collapsed_layout(src, [[0, 1]]) == strided([1], 128)
    assert M.collapsed_layout(memref([4, 4], strided([8, 1])), [[0, 1]]) is None  # rows not contiguous
    assert M.collapsed_layout(memref([4, 1, 4], strided([99, 7, 1])), [[0, 1, 2]]) is None
    assert M.collapsed_layout(memref([4, 1, 4], strided([4, 7, 1])), [[0], [1, 2]]) == strided([4, 1])
    assert M.expanded_layout(memref([16], strided([2], 3)), (4, 4), [[0, 1]]) == strided([8, 2], 3)
    assert M.expanded_layout(memref([D], strided([1], D)), (D, 4), [[0, 1]]) == strided([4, 1], D)


@pytest.mark.parametrize(
    "a,b,ok",
    [
        (memref([4, 4]), memref([D, 4]), True),
        (memref([4, 4]), memref([4, 8]), False),
        (memref([4, 4]), memref([4, 4], strided([4, 1], D)), True),
        (memref([4, 4]), memref([4, 4], strided([8, 1])), False),
        (memref([4, 4]), T.UnrankedMemRefType(F32), True),
        (T.UnrankedMemRefType(F32), memref([2, 2]), True),
        (T.UnrankedMemRefType(F32), T.UnrankedMemRefType(F32), False),
        (memref([4]), T.UnrankedMemRefType(T.F16), False),
        (memref([4], space=A.IntegerAttr(3)), memref([4]), False),
        (memref([4], space=A.IntegerAttr(0)), memref([4]), True),  # default memory space
    ],
)
def test_cast_compatibility(a, b, ok) -> None:
    assert M.cast_compatible(a, b) is ok


def test_transfer_mask_type_inference() -> None:
    vec = T.VectorType((8, 4), F32)
    transpose = AF.AffineMap(2, 0, (AF.Dim(1), AF.Dim(0)))
    assert transfer_mask_type(vec, transpose) == T.VectorType((4, 8), T.I1)
    bcast = AF.AffineMap(1, 0, (AF.Const(0), AF.Dim(0)))
    assert transfer_mask_type(vec, bcast) == T.VectorType((4,), T.I1)
    all_bcast = AF.AffineMap(1, 0, (AF.Const(0),))
    assert transfer_mask_type(T.VectorType((8,), F32), all_bcast) == T.VectorType((1,), T.I1)
    assert is_minor_identity(AF.AffineMap(3, 0, (AF.Dim(1), AF.Dim(2))))
    assert not is_minor_identity(transpose)


# ================================================================================== stored form


def test_subview_static_lists_and_operand_groups(reg) -> None:
    op = only_op(reg, "%s = memref.subview %m[%i, 4] [8, %n] [1, 1] : memref<16x?xf32> to "
                      "memref<8x?xf32, strided<[?, 1], offset: ?>>", "memref.subview")
    assert A.int_list(op.attributes["static_offsets"]) == [DYNAMIC_INDEX, 4]
    assert A.int_list(op.attributes["static_sizes"]) == [8, DYNAMIC_INDEX]
    assert [v.name for v in op.operand_group("offsets")] == ["i"]
    assert [v.name for v in op.operand_group("sizes")] == ["n"]
    assert op.operand_group("strides") == []


def test_global_initializer_takes_the_memref_type(reg) -> None:
    op = only_op(reg, 'memref.global "private" constant @c : memref<2x2xi32> = dense<[[1, 2], [3, 4]]>',
                 "memref.global")
    init = op.attributes["initial_value"]
    assert isinstance(init, A.DenseElementsAttr)
    assert init.type == memref([2, 2], elem=T.I32)
    assert init.flat_values() == [1, 2, 3, 4]
    assert isinstance(op.attributes["constant"], A.UnitAttr)


def test_get_global_resolves_through_the_symbol_table(reg) -> None:
    text = ("module {\n  memref.global @g : memref<4xf32> = uninitialized\n  func.func @f() {\n"
            "    %0 = memref.get_global @g : memref<4xf32>\n    return\n  }\n}")
    module = parse_source(text, "t", registry=reg)
    assert verify_module(module, reg, raise_on_error=False).errors == []


def test_transfer_read_defaults_are_stored_and_elided(reg) -> None:
    text = "%v = vector.transfer_read %m[%i, %j], %p : memref<16x16xf32>, vector<8xf32>"
    op = only_op(reg, text, "vector.transfer_read")
    assert str(op.attributes["permutation_map"]) == "affine_map<(d0, d1) -> (d1)>"
    assert op.attributes["in_bounds"] == A.ArrayAttr((A.BoolAttr(False),))
    assert op.operand("padding").type == F32
    assert op.operand("mask") is None
    assert round_trip(reg, text) == text


def test_transfer_read_mask_type_is_inferred(reg) -> None:
    op = only_op(reg, "%v = vector.transfer_read %m[%i, %j], %p, %k {permutation_map = affine_map<(d0, d1) -> "
                      "(d1, d0)>} : memref<16x16xf32>, vector<8x4xf32>", "vector.transfer_read")
    assert op.operand("mask").type == T.VectorType((4, 8), T.I1)
    assert op.operand_segments == [1, 2, 1, 1]


def test_contract_defaults_kind_and_stores_iterator_type_attrs(reg) -> None:
    text = ("%r = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, "
            "affine_map<(d0) -> ()>], iterator_types = [\"reduction\"]} %a, %b, %c : vector<8xf32>, "
            "vector<8xf32> into f32")
    op = only_op(reg, text, "vector.contract")
    assert str(op.attributes["kind"]) == "#vector.kind<add>"
    assert [str(a) for a in op.attributes["iterator_types"].elements] == ["#vector.iterator_type<reduction>"]
    assert round_trip(reg, text) == text.replace("]} %a", "], kind = #vector.kind<add>} %a")


def test_legacy_extract_syntax_infers_the_result(reg) -> None:
    assert round_trip(reg, "%a = vector.extract %v[0] : vector<4x8xf32>") == (
        "%a = vector.extract %v[0] : vector<8xf32> from vector<4x8xf32>")
    assert round_trip(reg, "%a = vector.extract %v[01, 2] : vector<4x8xf32>") == (
        "%a = vector.extract %v[1, 2] : f32 from vector<4x8xf32>")


def test_shuffle_result_type_comes_from_the_mask(reg) -> None:
    op = only_op(reg, "%s = vector.shuffle %a, %b [0, 3, 1] : vector<2x8xf16>, vector<2x8xf16>", "vector.shuffle")
    assert op.results[0].type == T.VectorType((3, 8), T.F16)


def test_reduction_kind_and_fastmath(reg) -> None:
    op = only_op(reg, "%r = vector.reduction <maxnumf>, %v fastmath<nnan, ninf> : vector<16xf16> into f16",
                 "vector.reduction")
    assert str(op.attributes["kind"]) == "#vector.kind<maxnumf>"
    assert str(op.attributes["fastmath"]) == "#arith.fastmath<nnan, ninf>"


def test_extract_strided_metadata_result_groups_print_back(reg) -> None:
    text = ("%base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<4x?xf32> -> "
            "memref<f32>, index, index, index, index, index\n%x = arith.addi %sizes#1, %strides#0 : index")
    assert round_trip(reg, text) == text
    text0 = "%0:4 = memref.extract_strided_metadata %m : memref<4xf32> -> memref<f32>, index, index, index"
    assert round_trip(reg, text0) == text0


@pytest.mark.parametrize(
    "generic,custom",
    [
        ('%t = "vector.transpose"(%v) <{permutation = array<i64: 1, 0>}> : (vector<4x8xf32>) -> vector<8x4xf32>',
         "%t = vector.transpose %v, [1, 0] : vector<4x8xf32> to vector<8x4xf32>"),
        ('%e = "vector.extract"(%v, %i) <{static_position = array<i64: -9223372036854775808, 2>}> : '
         "(vector<4x4xf32>, index) -> f32",
         "%e = vector.extract %v[%i, 2] : f32 from vector<4x4xf32>"),
        ('%r = "vector.reduction"(%v) <{kind = #vector.kind<mul>}> : (vector<8xi32>) -> i32',
         "%r = vector.reduction <mul>, %v : vector<8xi32> into i32"),
        ('%s = "memref.subview"(%m) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, '
         "static_sizes = array<i64: 4>, static_strides = array<i64: 1>}> : (memref<8xf32>) -> memref<4xf32, "
         "strided<[1]>>",
         "%s = memref.subview %m[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>"),
        ('%c = "vector.contract"(%a, %b, %c0) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,'
         " affine_map<(d0) -> ()>], iterator_types = [#vector.iterator_type<reduction>], kind = #vector.kind<add>}>"
         " : (vector<4xf32>, vector<4xf32>, f32) -> f32",
         "%c = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) "
         '-> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %a, %b, %c0 : vector<4xf32>, '
         "vector<4xf32> into f32"),
    ],
)
def test_generic_form_prints_in_custom_form(reg, generic: str, custom: str) -> None:
    assert round_trip(reg, generic) == custom


# ================================================================================== verifier (generic-only cases)


def test_transfer_mask_type_mismatch_in_generic_form(reg) -> None:
    text = ('%v = "vector.transfer_read"(%m, %i, %p, %k) <{in_bounds = [false], operandSegmentSizes = '
            "array<i32: 1, 1, 1, 1>, permutation_map = affine_map<(d0) -> (d0)>}> : (memref<16xf32>, index, f32, "
            "vector<4xi1>) -> vector<8xf32>")
    assert diagnostics(reg, text) == ["'vector.transfer_read' op inferred mask type ('vector<8xi1>') and mask "
                                      "operand type ('vector<4xi1>') don't match"]


def test_transfer_padding_type_in_generic_form(reg) -> None:
    text = ('%v = "vector.transfer_read"(%m, %i, %p) <{in_bounds = [false], operandSegmentSizes = '
            "array<i32: 1, 1, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>}> : (memref<16xf32>, index, f16) "
            "-> vector<8xf32>")
    assert diagnostics(reg, text) == ["'vector.transfer_read' op requires formal padding and source of the same "
                                      "elemental type"]


def test_subview_dynamic_count_in_generic_form(reg) -> None:
    text = ('%s = "memref.subview"(%m) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = '
            "array<i64: -9223372036854775808>, static_sizes = array<i64: 4>, static_strides = array<i64: 1>}> : "
            "(memref<8xf32>) -> memref<4xf32, strided<[1], offset: ?>>")
    assert diagnostics(reg, text) == ["'memref.subview' op expected 1 dynamic offset values"]


def test_alloc_symbol_operands(reg) -> None:
    ok = "%m = memref.alloc(%n)[%s] : memref<?x4xf32, strided<[4, 1], offset: ?>>"
    assert round_trip(reg, ok) == ok
    assert diagnostics(reg, "%m = memref.alloc(%n) : memref<?x4xf32, strided<[4, 1], offset: ?>>") == [
        "'memref.alloc' op symbol operand count does not equal memref symbol count: expected 1, got 0"]


def test_expand_shape_legacy_syntax_without_output_shape(reg) -> None:
    text = "%e = memref.expand_shape %m [[0, 1]] : memref<16xf32> into memref<4x4xf32>"
    assert round_trip(reg, text) == text
    assert diagnostics(reg, "%e = memref.expand_shape %m [[0, 1]] : memref<?xf32> into memref<?x4xf32>") == [
        "'memref.expand_shape' op expected output_shape operands for the dynamic dimensions of the result"]


def test_scalable_vectors_are_rejected_once(reg) -> None:
    msgs = diagnostics(reg, "%t = vector.transpose %v, [1, 0] : vector<4x[8]xf32> to vector<[8]x4xf32>")
    assert msgs == ["'vector.transpose' op scalable vectors are not supported by xesim (found 'vector<4x[8]xf32>')"]


# ================================================================================== real programs


@pytest.mark.skipif(not EXAMPLES.exists(), reason="shared example programs not available")
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.mlir")) if EXAMPLES.exists() else [], ids=lambda p: p.name)
def test_shared_examples_parse_verify_and_print_stably(path: Path) -> None:
    full = load_registry()
    module = parse_source(path.read_text(), str(path), registry=full)
    verify_module(module, full)
    printed = print_module(module, full)
    assert print_module(parse_source(printed, "reprint", registry=full), full) == printed
    names = {op.name for op in module.walk()}
    assert names & {"memref.alloc", "vector.shape_cast", "vector.broadcast", "memref.store"}


# ================================================================================== robustness


def _examples(reg) -> list[str]:
    return [ex for name, od in sorted(reg.ops.items()) if od.dialect in ("memref", "vector") for ex in od.examples]


def test_truncated_examples_give_diagnostics_not_exceptions(reg) -> None:
    for ex in _examples(reg):
        for cut in range(1, len(ex), 3):
            try:
                module = parse_source(ex[:cut], "cut", fragment=True, registry=reg)
                verify_module(module, reg, raise_on_error=False)
            except DiagnosticError:
                pass


def test_type_swapped_examples_give_diagnostics_not_exceptions(reg) -> None:
    swaps = [("f32", "i1"), ("index", "f16"), ("vector<", "memref<"), ("memref<", "vector<"), ("16", "3"),
             ("[1, 0]", "[0]"), ("4x", "")]
    for ex in _examples(reg):
        for old, new in swaps:
            if old not in ex:
                continue
            try:
                module = parse_source(ex.replace(old, new, 1), "swap", fragment=True, registry=reg)
                verify_module(module, reg, raise_on_error=False)
            except DiagnosticError:
                pass
