"""Decode once (xesim/decode/xegpu.py, ARCHITECTURE.md "Decode once"): what block accesses, scattered accesses and
DPAS ops ask for, read from their types and attributes once; the expected values are read off the op text by hand
(spec/programs-and-runner.md §3.3, spec/pvc-hardware.md §1-§3)."""

from __future__ import annotations

from xesim.decode.xegpu import decode_block_access, decode_dpas, decode_scatter_access
from xesim.ir.parser import parse_source

SCATTER8 = "!xegpu.tensor_desc<16x8xf32, #xegpu.scatter_tdesc_attr<chunk_size = 8 : i64>>"


def _op(args: str, body: str, name: str):  # noqa: ANN202 - an IR operation
    module = parse_source(f"func.func @f({args}) {{\n{body}\n  return\n}}\n")
    return next(op for op in module.walk() if op.name == name)


def test_block_access_of_a_packed_load_and_of_a_lane_fragment() -> None:
    td = "!xegpu.tensor_desc<16x16xf16, #xegpu.block_tdesc_attr<array_length = 2 : i64>>"
    op = _op(f"%t: {td}", f"  %v = xegpu.load_nd %t <{{packed}}> : {td} -> vector<2x8x16x2xf16>", "xegpu.load_nd")
    acc = decode_block_access(op)
    assert (acc.kind, acc.rows, acc.cols, acc.array_length, acc.elem_bits) == ("load", 16, 16, 2, 16)
    assert acc.packed and acc.packed_result and not acc.transpose and not acc.simt
    assert acc.mode(4) == ("vnni", 2)
    assert decode_block_access(op) is acc  # one decoding per op
    lane = _op("%t: !xegpu.tensor_desc<8x16xf16>",
               "  %v = xegpu.load_nd %t : !xegpu.tensor_desc<8x16xf16> -> vector<8xf16>", "xegpu.load_nd")
    assert decode_block_access(lane).simt  # 8 of the tile's 128 elements: one lane's fragment


def test_scatter_access_through_a_descriptor_with_chunks() -> None:
    op = _op(f"%t: {SCATTER8}, %m: vector<16xi1>",
             f"  %v = xegpu.load %t, %m : {SCATTER8}, vector<16xi1> -> vector<16x8xf32>", "xegpu.load")
    acc = decode_scatter_access(op)
    assert (acc.kind, acc.through_tdesc, acc.chunk, acc.lane_shape, acc.value_shape, acc.simt) == \
        ("load", True, 8, (16,), (16, 8), False)
    lane = _op(f"%t: {SCATTER8}, %m: i1", f"  %v = xegpu.load %t, %m : {SCATTER8}, i1 -> vector<8xf32>", "xegpu.load")
    assert decode_scatter_access(lane).simt  # a scalar mask: written per lane


def test_scatter_access_of_a_buffer_with_offsets() -> None:
    op = _op("%p: i64, %o: vector<16xindex>, %m: vector<16xi1>",
             "  %v = xegpu.load %p[%o], %m <{chunk_size = 4 : i64}> : i64, vector<16xindex>, vector<16xi1> "
             "-> vector<16x4xf16>", "xegpu.load")
    acc = decode_scatter_access(op)
    assert (acc.through_tdesc, acc.chunk, acc.lane_shape, acc.simt) == (False, 4, (16,), False)
    lane = _op("%s: memref<128xf32>, %o: index, %m: i1",
               "  %v = xegpu.load %s[%o], %m <{chunk_size = 2 : i64}> : memref<128xf32>, index, i1 -> vector<2xf32>",
               "xegpu.load")
    acc = decode_scatter_access(lane)
    assert (acc.chunk, acc.lane_shape, acc.simt) == (2, None, True)  # one lane's offset


def test_dpas_shapes_types_and_forms() -> None:
    op = _op("%a: vector<8x16xf16>, %b: vector<8x16x2xf16>",
             "  %d = xegpu.dpas %a, %b : vector<8x16xf16>, vector<8x16x2xf16> -> vector<8x16xf32>", "xegpu.dpas")
    shape = decode_dpas(op)
    assert (shape.simt, shape.vnni, shape.k, shape.a_shape, shape.d_shape) == (False, True, 16, (8, 16), (8, 16))
    assert (shape.a_type, shape.b_type, shape.c_type, shape.d_type, shape.has_acc) == \
        ("f16", "f16", "f32", "f32", False)  # no accumulator: C is the null register, typed as D
    ints = _op("%a: vector<8xi8>, %b: vector<16xui8>, %c: vector<8xi32>",
               "  %d = xegpu.dpas %a, %b, %c : vector<8xi8>, vector<16xui8>, vector<8xi32> -> vector<8xi32>",
               "xegpu.dpas")
    shape = decode_dpas(ints)
    assert shape.simt and (shape.a_type, shape.b_type, shape.c_type) == ("s8", "u8", "s32")
