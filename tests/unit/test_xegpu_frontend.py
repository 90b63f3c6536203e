"""Front end of the xegpu dialect: layout helpers (xesim/verify/xegpu_layout.py: reading #xegpu.layout /
#xegpu.slice / legacy #xegpu.sg_map, the LayoutAttr/SliceAttr rules, even distribution, SIMT fragment shapes,
id delinearisation), how ops are stored after parsing (upstream and legacy syntax give the same op), the
TensorDescType rules, and robustness (bad input gives a located diagnostic, never a Python exception).

The dialect is tested against a registry holding only builtin, func and xegpu, so these tests do not depend
on the other dialect files."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xesim.diagnostics import DiagnosticError, SourceFile
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.opdefs import ISA_DIR, load_registry
from xesim.ir.parser import Parser, parse_source
from xesim.ir.printer import print_module
from xesim.verify import rules_xegpu as R  # noqa: N812 - short alias
from xesim.verify import xegpu_layout as xl
from xesim.verify.structural import verify_module

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"  # copies of shared/examples/*.mlir


@pytest.fixture(scope="module")
def reg(tmp_path_factory):
    d = tmp_path_factory.mktemp("isa") / "dialects"
    d.mkdir()
    for name in ("builtin", "func", "xegpu"):
        (d / f"{name}.toml").write_text((ISA_DIR / "dialects" / f"{name}.toml").read_text())
    return load_registry(str(d.parent))


def attr(reg, text: str) -> A.Attribute:
    return Parser(SourceFile("attr", text), reg).parse_attribute()


def layout(reg, text: str) -> xl.Layout:
    return xl.read_layout(attr(reg, text))


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
    """Messages of the errors and warnings produced by parsing and verifying ``text`` (whole functions)."""
    try:
        module = parse_source(text, "test", registry=reg)
    except DiagnosticError as exc:
        return [d.message for d in exc.diagnostics]
    ctx = verify_module(module, reg, raise_on_error=False)
    return [d.message for d in ctx.diagnostics]


# ================================================================================== layout: reading


def test_read_layout_fields(reg) -> None:
    lay = layout(reg, "#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16], inst_data = [8, 16], "
                      "lane_layout = [1, 16], lane_data = [1, 1], order = [0, 1]>")
    assert lay.kind == "layout"
    assert lay.sg_layout == (2, 4) and lay.sg_data == (16, 16) and lay.inst_data == (8, 16)
    assert lay.lane_layout == (1, 16) and lay.lane_data == (1, 1) and lay.order == (0, 1)
    assert lay.rank == 2 and lay.is_for_workgroup and not lay.is_for_subgroup
    assert xl.layout_error(lay) is None


def test_read_layout_dense_arrays(reg) -> None:
    lay = layout(reg, "#xegpu.layout<lane_layout = array<i32: 1, 16>, lane_data = array<i32: 2, 1>>")
    assert lay.lane_layout == (1, 16) and lay.lane_data == (2, 1)
    assert lay.is_for_subgroup and lay.effective_order == [1, 0]


@pytest.mark.parametrize("text", [
    "#xegpu.sg_map<wi_layout = [1, 16], wi_data = [2, 1]>",
    "#xegpu.sg_map<{wi_layout = [1, 16], wi_data = [2, 1]}>",  # the RFC spelling
])
def test_read_legacy_sg_map(reg, text: str) -> None:
    lay = layout(reg, text)
    assert lay.kind == "sg_map"
    assert lay.effective_lane_layout == [1, 16] and lay.effective_lane_data == [2, 1]
    assert xl.layout_error(lay) is None


def test_read_slice(reg) -> None:
    lay = layout(reg, "#xegpu.slice<#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], "
                      "lane_layout = [2, 8], lane_data = [1, 1]>, dims = [0]>")
    assert lay.kind == "slice" and lay.rank == 1 and lay.dims == (0,)
    assert lay.effective_sg_layout == [4] and lay.effective_sg_data == [32]
    assert lay.effective_lane_layout == [8] and lay.effective_order == [0]
    assert lay.is_for_workgroup
    nested = layout(reg, "#xegpu.slice<#xegpu.slice<#xegpu.layout<sg_layout = [2, 4, 8], sg_data = [8, 8, 8]>, "
                         "dims = [2]>, dims = [0]>")
    assert nested.rank == 1 and nested.effective_sg_layout == [4]


@pytest.mark.parametrize("text,message", [
    ("#xegpu.layout<lane_layot = [1, 16]>", "unknown parameter 'lane_layot'"),
    ("#xegpu.layout<sg_layout = [a, b]>", None),  # not integers: parse or read error
    ("#xegpu.layout<sg_layout = 4>", "expected a list of integers for 'sg_layout'"),
    ("#xegpu.slice<dims = [0]>", "expected parent layout and dims attribute"),
    ("#xegpu.sg_map<lane_layout = [1, 16]>", "unknown parameter 'lane_layout' in #xegpu.sg_map"),
])
def test_read_layout_errors(reg, text: str, message: str | None) -> None:
    try:
        a = attr(reg, text)
    except DiagnosticError:
        assert message is None
        return
    with pytest.raises(xl.LayoutError) as exc:
        xl.read_layout(a)
    if message is not None:
        assert message in str(exc.value)


# ================================================================================== layout: rules


@pytest.mark.parametrize("text,message", [
    ("#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>", None),
    ("#xegpu.layout<inst_data = [8, 16]>", None),
    ("#xegpu.layout<lane_layout = [16], lane_data = [1]>", None),
    ("#xegpu.layout<order = [1, 0]>", "expected at least one of sg_layout, inst_data or lane_layout"),
    ("#xegpu.layout<sg_layout = [2, 4]>", "sg_layout and sg_data must be used together"),
    ("#xegpu.layout<sg_data = [2, 4], lane_layout = [1, 16], lane_data = [1, 1]>",
     "sg_layout and sg_data must be used together"),
    ("#xegpu.layout<lane_layout = [1, 16]>", "lane_layout and lane_data must be used together"),
    ("#xegpu.layout<inst_data = [8, 16], lane_data = [1, 1]>", "lane_layout and lane_data must be used together"),
    ("#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16], inst_data = [16]>",
     "expected sg_layout and inst_data to have the same rank"),
    ("#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16], lane_layout = [16], lane_data = [1]>",
     "expected sg_layout and lane_layout to have the same rank"),
    ("#xegpu.layout<inst_data = [8, 16], lane_layout = [16], lane_data = [1]>",
     "expected inst_data and lane_layout to have the same rank"),
    ("#xegpu.layout<sg_layout = [2, 4], sg_data = [16]>", "expected sg_data and sg_layout to have the same rank"),
    ("#xegpu.layout<lane_layout = [1, 16], lane_data = [1]>",
     "expected lane_data and lane_layout to have the same rank"),
    ("#xegpu.layout<inst_data = [8, 16], order = [1, 0]>", "expected sg_layout/lane_layout being used with order"),
    ("#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16], order = [0]>",
     "expected order and sg_layout to have the same rank"),
    ("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1], order = [0]>",
     "expected order and lane_layout to have the same rank"),
    ("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1], order = [1, 1]>", "permutation"),
    ("#xegpu.layout<lane_layout = [0, 16], lane_data = [1, 1]>", "expected positive values in lane_layout"),
    ("#xegpu.slice<#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32]>, dims = [1, 1]>",
     "repeated dim (1) in slice attribute."),
    ("#xegpu.slice<#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32]>, dims = [-1]>",
     "invalid dim (-1) in slice attribute."),
    ("#xegpu.slice<#xegpu.layout<sg_layout = [8, 4]>, dims = [0]>", "sg_layout and sg_data must be used together"),
    ("#xegpu.sg_map<wi_layout = [16], wi_data = [1, 1]>", "expected wi_layout of size 2"),
    ("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1]>", "expected wi_data of size 2"),
])
def test_layout_rules(reg, text: str, message: str | None) -> None:
    err = xl.layout_error(layout(reg, text))
    if message is None:
        assert err is None
    else:
        assert err is not None and message in err


# ================================================================================== layout: distribution


@pytest.mark.parametrize("shape,text,ok", [
    # workgroup level: shape / sg_layout, then sg_data
    ([32, 64], "#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>", True),
    ([128, 96], "#xegpu.layout<sg_layout = [4, 4], sg_data = [32, 32]>", False),
    # round-robin: a subgroup owns sg_data in several units (16/2 = 8 divides... sg_data 16 is a multiple of 8)
    ([16, 16], "#xegpu.layout<sg_layout = [2, 2], sg_data = [16, 16]>", True),
    # more subgroups than data: the layout is a multiple of the shape, subgroups share
    ([4, 4], "#xegpu.layout<sg_layout = [8, 8], sg_data = [1, 1]>", True),
    ([2, 64], "#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16]>", False),
    ([256, 128], "#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], inst_data = [8, 16], "
                 "lane_layout = [1, 16], lane_data = [1, 1]>", True),
    ([256, 128], "#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], inst_data = [24, 16]>", False),
    # subgroup level: no round-robin for lanes
    ([8, 16], "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>", True),
    ([4, 8], "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>", False),
    ([16, 16], "#xegpu.layout<lane_layout = [1, 16], lane_data = [2, 1]>", True),
    ([15, 16], "#xegpu.layout<lane_layout = [1, 16], lane_data = [2, 1]>", False),
    ([24, 16], "#xegpu.layout<inst_data = [16, 16]>", False),
    ([32, 16], "#xegpu.layout<inst_data = [16, 16]>", True),
    ([8, 16], "#xegpu.layout<lane_layout = [16], lane_data = [1]>", False),  # rank mismatch
    ([128], "#xegpu.slice<#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32]>, dims = [0]>", True),
    ([96], "#xegpu.slice<#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32]>, dims = [0]>", False),
    ([16], "#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>", True),  # legacy: 2-D map on 1-D data
])
def test_is_evenly_distributable(reg, shape: list[int], text: str, ok: bool) -> None:
    assert xl.is_evenly_distributable(shape, layout(reg, text)) is ok


@pytest.mark.parametrize("shape,text,array_length,chunk,fragment", [
    # spec §3.2 SIMT shapes (PVC lane layouts of spec §3.4)
    ([8, 16], "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>", 1, None, [8]),
    ([16, 16], "#xegpu.layout<lane_layout = [1, 16], lane_data = [2, 1]>", 1, None, [16]),
    ([8, 32], "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 2]>", 1, None, [16]),  # A, 8-bit
    ([32, 16], "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>", 2, None, [64]),
    ([16, 8], "#xegpu.layout<lane_layout = [16, 1], lane_data = [1, 1]>", 1, None, [8]),
    ([8, 16], "#xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1]>", 1, None, [8]),
    ([32], "#xegpu.layout<lane_layout = [16], lane_data = [2]>", 1, None, [2]),
    ([16, 8], "#xegpu.layout<lane_layout = [16, 1], lane_data = [1, 2]>", 1, 8, [8]),
    ([8, 16], "#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>", 1, None, [8]),
    # not distributable / not a subgroup layout
    ([4, 8], "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>", 1, None, None),
    ([16, 8], "#xegpu.layout<lane_layout = [8, 1], lane_data = [1, 1]>", 1, 8, None),
    ([32, 64], "#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>", 1, None, None),
    ([8, 16], "#xegpu.layout<inst_data = [8, 16]>", 1, None, None),
])
def test_distributed_fragment_shape(reg, shape, text, array_length, chunk, fragment) -> None:
    assert xl.distributed_fragment_shape(shape, layout(reg, text), array_length, chunk) == fragment


def test_lane_layout_distributed_shape(reg) -> None:
    lay = layout(reg, "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>")
    assert xl.lane_layout_distributed_shape([32, 16], lay) == [32, 1]
    assert xl.lane_layout_distributed_shape([2, 32, 16], lay) == [2, 32, 1]
    assert xl.lane_layout_distributed_shape([32, 8], lay) is None
    assert xl.lane_layout_distributed_shape([16], lay) is None


def test_delinearize_follows_order(reg) -> None:
    # xegpu dialect docs: lane_layout [2, 8] is [[0..7], [8..15]]; with order [0, 1] it is
    # [[0, 2, ..., 14], [1, 3, ..., 15]].
    row_major = layout(reg, "#xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1]>")
    col_major = layout(reg, "#xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1], order = [0, 1]>")
    dims = list(row_major.lane_layout)
    assert [xl.delinearize(i, dims, row_major.effective_order) for i in (0, 5, 9)] == [[0, 0], [0, 5], [1, 1]]
    assert [xl.delinearize(i, dims, col_major.effective_order) for i in (0, 5, 9)] == [[0, 0], [1, 2], [1, 4]]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([1, 2, 4, 8, 16]), st.sampled_from([1, 2, 4]),
                          st.integers(1, 4)), min_size=1, max_size=3))
def test_fragment_covers_tile_exactly(dims) -> None:
    """For any lane layout that distributes a tile, lanes × fragment elements == tile elements, and
    delinearisation visits every lane coordinate exactly once."""
    ll = tuple(d[0] for d in dims)
    ld = tuple(d[1] for d in dims)
    shape = [lane * data * k for lane, data, k in dims]
    lay = xl.Layout(lane_layout=ll, lane_data=ld)
    assert xl.layout_error(lay) is None
    assert xl.is_evenly_distributable(shape, lay)
    frag = xl.distributed_fragment_shape(shape, lay)
    assert frag is not None and frag[0] * xl.subgroup_size(lay) == T.VectorType(tuple(shape), T.F32).num_elements
    coords = {tuple(xl.delinearize(i, list(ll), lay.effective_order)) for i in range(xl.subgroup_size(lay))}
    assert len(coords) == xl.subgroup_size(lay)


# ================================================================================== TensorDescType


def tdesc(reg, text: str) -> T.TensorDescType:
    t = Parser(SourceFile("type", text), reg).parse_type()
    assert isinstance(t, T.TensorDescType)
    return t


@pytest.mark.parametrize("text,message", [
    ("!xegpu.tensor_desc<8x16xf16>", None),
    ("!xegpu.tensor_desc<16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>", None),
    ("!xegpu.tensor_desc<16x8xf16, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>", None),
    ("!xegpu.tensor_desc<f32>", "expected non-zero rank tensor"),
    ("!xegpu.tensor_desc<8x16xf32, #xegpu.block_tdesc_attr<memory_space = slm>>",
     "SLM is only supported for 1D block tensor"),
    ("!xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<chunk_size = 2 : i64>>",
     "expected non-contiguous elements for 1D tensor"),
    ("!xegpu.tensor_desc<16x4xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>",
     "expected last dim of tensor to match chunk size"),
    ("!xegpu.tensor_desc<16x1xi8, #xegpu.scatter_tdesc_attr<chunk_size = 1 : i64>>", None),
    ("!xegpu.tensor_desc<16x2xi8, #xegpu.scatter_tdesc_attr<chunk_size = 2 : i64>>",
     "expected last dim of tensor to be a multiple of 4"),
    ("!xegpu.tensor_desc<8x16xf32, #xegpu.layout<lane_layout = [16], lane_data = [1]>>",
     "expected layout rank to match tensor rank"),
    ("!xegpu.tensor_desc<4x8xf32, #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>>",
     "cannot distribute [4, 8] using #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>"),
    ("!xegpu.tensor_desc<8x16xf32, #xegpu.block_tdesc_attr<array_length = 0 : i64>>", "positive integer"),
    ("!xegpu.tensor_desc<8x16xf32, #xegpu.block_tdesc_attr<chunk_size = 2 : i64>>", "unknown parameter"),
    ("!xegpu.tensor_desc<8x16xf32, #xegpu.block_tdesc_attr<memory_space = shared>>", "global or slm"),
    ("!xegpu.tensor_desc<8x16xf16, #xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>>", None),
])
def test_tensor_desc_type_rules(reg, text: str, message: str | None) -> None:
    t = tdesc(reg, text)
    if message is None:
        R.check_tensor_desc_type(t)
        return
    with pytest.raises(Exception) as exc:
        R.check_tensor_desc_type(t)
    assert message in str(exc.value)


def test_tensor_desc_properties(reg) -> None:
    t = tdesc(reg, "!xegpu.tensor_desc<32x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>")
    assert R.array_length(t) == 2 and not t.is_scattered and R.tdesc_memory_space(t) == 0
    s = tdesc(reg, "!xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<memory_space = slm, chunk_size = 8 : i64>>")
    assert s.is_scattered and s.chunk_size == 8 and R.tdesc_memory_space(s) == 3


# ================================================================================== stored forms


def test_load_nd_stored_form(reg) -> None:
    op = only_op(reg, "%0 = xegpu.load_nd %t[%x, 8] <{l1_hint = #xegpu.cache_hint<cached>, packed}> "
                      ": !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>", "xegpu.load_nd")
    assert isinstance(op.attributes["packed"], A.UnitAttr)
    assert str(op.attributes["l1_hint"]) == "#xegpu.cache_hint<cached>"
    assert A.int_list(op.attributes["const_offsets"])[1] == 8
    assert len(op.operand_group("offsets")) == 1


def test_legacy_attribute_dictionary_is_the_same_op(reg) -> None:
    upstream = "%0 = xegpu.load_nd %t <{l1_hint = #xegpu.cache_hint<cached>, packed}> : " \
               "!xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>"
    legacy = "%0 = xegpu.load_nd %t {packed, l1_hint = #xegpu.cache_hint<cached>} : " \
             "!xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>"
    assert round_trip(reg, legacy) == upstream
    assert round_trip(reg, upstream) == upstream


def test_legacy_transpose_array_is_normalised(reg) -> None:
    op = only_op(reg, "%0 = xegpu.load_nd %t {transpose = [1, 0], transpose_bit_width = 32 : i32} "
                      ": !xegpu.tensor_desc<16x16xf16> -> vector<8x16x2xf16>", "xegpu.load_nd")
    assert op.attributes["transpose"] == A.DenseArrayAttr(T.I64, (1, 0))
    assert op.attributes["transpose_bit_width"] == A.IntegerAttr(32, T.I32)


def test_legacy_create_nd_tdesc_forms(reg) -> None:
    upstream = ("%0 = xegpu.create_nd_tdesc %src[%x, %y], shape : [%h, %w], strides : [%w, 1] "
                ": memref<?x?xf32> -> !xegpu.tensor_desc<8x16xf32>")
    oldest = ("%0 = xegpu.create_nd_tdesc %src[%x, %y], [%h, %w], [%w, 1] "
              ": memref<?x?xf32> -> !xegpu.tensor_desc<8x16xf32>")
    assert round_trip(reg, oldest) == upstream
    op = only_op(reg, oldest, "xegpu.create_nd_tdesc")
    assert [len(op.operand_group(n)) for n in ("source", "offsets", "shape", "strides")] == [1, 2, 2, 1]
    assert A.int_list(op.attributes["const_strides"])[1] == 1


def test_enum_storage(reg) -> None:
    op = only_op(reg, "%0 = xegpu.atomic_rmw maxs %t, %m, %v : !xegpu.tensor_desc<16xi32, "
                      "#xegpu.scatter_tdesc_attr<>>, vector<16xi1>, vector<16xi32> -> vector<16xi32>",
                 "xegpu.atomic_rmw")
    assert op.attributes["kind"] == A.IntegerAttr(6, T.I64)  # arith::AtomicRMWKind::maxs
    fence = only_op(reg, "xegpu.fence memory_kind = slm, fence_scope = gpu", "xegpu.fence")
    assert str(fence.attributes["memory_kind"]) == "#xegpu.memory_space<slm>"
    assert str(fence.attributes["fence_scope"]) == "#xegpu.fence_scope<gpu>"


def test_simt_scatter_scalar_forms(reg) -> None:
    op = only_op(reg, "%0 = xegpu.load %src[%off], %mask <{chunk_size = 2 : i64}> : memref<128xf32>, index, i1 "
                      "-> vector<2xf32>", "xegpu.load")
    assert op.operand_group("offsets")[0].type == T.INDEX
    assert op.operand_group("mask")[0].type == T.I1


def test_warnings_are_reported(reg) -> None:
    msgs = diagnostics(reg, "func.func @f(%t: !xegpu.tensor_desc<32xf16>) {\n"
                            "  %0 = xegpu.load_nd %t <{packed}> : !xegpu.tensor_desc<32xf16> -> vector<32xf16>\n"
                            "  return\n}\n")
    assert msgs == ["'xegpu.load_nd' op Invalid Packed Attr. It is ignored (available for 2D TensorDesc only)."]


@pytest.mark.parametrize("path", sorted(p for p in EXAMPLES.glob("*.mlir") if "xegpu." in p.read_text()),
                         ids=lambda p: p.name)
def test_example_programs_xegpu_lines(reg, path: Path) -> None:
    """Every xegpu op of the shared example programs parses, verifies and prints back unchanged."""
    lines = [ln.strip() for ln in path.read_text().splitlines() if "xegpu." in ln and not ln.strip().startswith("//")]
    assert lines
    for line in lines:
        assert round_trip(reg, line) == line


# ================================================================================== robustness


@pytest.mark.parametrize("text", [
    "%0 = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16",
    "%0 = xegpu.load_nd %t[ : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>",
    "%0 = xegpu.load_nd %t <{packed> : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>",
    "%0 = xegpu.create_nd_tdesc %src, shape : [%h], strides : : i64 -> !xegpu.tensor_desc<8xf32>",
    "%0 = xegpu.dpas %a, %b : vector<8x16xf16> -> vector<8x16xf32>",
    "%0 = xegpu.atomic_rmw subf %t, %m, %v : !xegpu.tensor_desc<16xf32>, vector<16xi1>, vector<16xf32> -> vector<16xf32>",
    "xegpu.fence memory_kind = local, fence_scope = workgroup",
    "%0 = xegpu.load_nd %t <{l1_hint = #xegpu.cache_hint<lukewarm>}> : !xegpu.tensor_desc<8xf32> -> vector<8xf32>",
    "%0 = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf32, #xegpu.layout<sg_layout = [1, 16, 1]>> -> vector<8x16xf32>",
    "%0 = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf32, #xegpu.layout<lane_layout = [x]>> -> vector<8x16xf32>",
    "%0 = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf32, #xegpu.slice<#xegpu.layout<lane_layout = [16], "
    "lane_data = [1]>, dims = [0]>> -> vector<8x16xf32>",
    "%0 = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xvector<2xf32>> -> vector<8x16xf32>",
    "%0 = xegpu.load %t, %m : !xegpu.tensor_desc<16xf32, #xegpu.scatter_tdesc_attr<>>, vector<16xi1> -> f32",
    "%0 = xegpu.dpas %a, %b : vector<f16>, vector<f16> -> vector<f32>",
    "%0 = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf32> -> vector<f32>",
    "%0 = xegpu.load_matrix %md[0, 0] <{layout = #xegpu.layout<lane_layout = [1, 1, 16], lane_data = [1, 1, 1]>, "
    "subgroup_block_io}> : !xegpu.mem_desc<32x64xf16, #xegpu.mem_layout<block = [16, 16]>> -> vector<16x16xf16>",
    "%0 = xegpu.mem_desc_subview %md[0] : !xegpu.mem_desc<32x64xf16> -> !xegpu.mem_desc<16xf16>",
    "%0 = xegpu.create_mem_desc %m : memref<4096xi8, 3> -> !xegpu.mem_desc<32x64xf16, #xegpu.mem_layout<stride = 1>>",
    "%0 = xegpu.convert_layout %v <{input_layout = #xegpu.cache_hint<cached>, target_layout = "
    "#xegpu.layout<inst_data = [8]>}> : vector<8xf32>",
])
def test_bad_input_is_a_diagnostic(reg, text: str) -> None:
    with pytest.raises(DiagnosticError) as exc:
        parse_ok(reg, text)
    assert exc.value.diagnostics and exc.value.diagnostics[0].loc.known
