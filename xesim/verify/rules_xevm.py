"""XeVM verifier rules (shared/spec/upstream-xegpu-xevm.md §4, upstream ``XeVMDialect.cpp``): messages verbatim and
in upstream's order where the spec quotes them.

Every rule first checks the ODS attribute constraints MLIR checks before the op's verifier: ``I32Attr`` properties
must be ``i32`` integers (a bare ``16`` is an ``i64``, §4.0) and ``I1Attr`` ones ``true``/``false``.

Messages that are xesim's own (the spec gives none): the contents of ``mma``'s ``shape``/``types`` structs (upstream
rejects a malformed struct while parsing it), the ``src_etype``/``dst_etype`` pairing of ``truncf``/``extf``, and
the element-count rule that replaced the vector/scalar rule of ``truncf``/``extf`` in PR #217768, whose texts could
not be read (§4.7 [?]); isa/README.md lists them.
"""

from __future__ import annotations

from math import prod
from typing import Any

from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.core import Operation
from xesim.verify.predicates import RuleError, rule_registrar

SUBGROUP_SIZE = 16  # hard-coded in the XeVM verifiers (§4.0)

I32_PROPS = ("elem_size_in_bits", "tile_width", "tile_height", "v_blocks")
BOOL_PROPS = ("transpose", "pack_register")

#: the element types of ``xevm::ElemType`` and their bit widths (§4.0)
ELEM_BITS = {"bf16": 16, "f16": 16, "s8": 8, "u8": 8, "s4": 4, "u4": 4, "tf32": 32, "f32": 32, "s32": 32,
             "e2m1": 4, "bf8": 8, "f8": 8}


def _check_props(op: Operation) -> None:
    for name in I32_PROPS:
        a = op.attributes.get(name)
        if a is not None and not (isinstance(a, A.IntegerAttr) and a.type == T.I32):
            raise RuleError(f"attribute '{name}' failed to satisfy constraint: 32-bit signless integer attribute")
    for name in BOOL_PROPS:
        a = op.attributes.get(name)
        if a is not None and not (isinstance(a, A.IntegerAttr) and a.type == T.I1):
            raise RuleError(f"attribute '{name}' failed to satisfy constraint: 1-bit signless integer attribute")


_rule = rule_registrar(_check_props)


def _int(op: Operation, name: str, default: int = 0) -> int:
    a = op.attributes.get(name)
    return a.value if isinstance(a, A.IntegerAttr) else default


def _flag(op: Operation, name: str) -> bool:
    return bool(_int(op, name))


def constant_int(v: Any) -> int | None:
    """The value of an SSA value defined by ``arith.constant`` / ``llvm.mlir.constant`` of an integer, else None."""
    d = v.owner_op if v is not None else None
    if d is None or d.name not in ("arith.constant", "llvm.mlir.constant"):
        return None
    a = d.attributes.get("value")
    return a.value if isinstance(a, A.IntegerAttr) else None


def _operand(op: Operation, name: str) -> Any:
    g = op.operand_group(name)
    return g[0] if g else None


def _is_pow2_upto(n: int, top: int) -> bool:
    return 1 <= n <= top and n & (n - 1) == 0


# ============================================================================== 2D block messages
def _common_2d(op: Operation) -> None:
    """§4.1 step 2, the checks shared by the three 2D block ops."""
    pitch, width = constant_int(_operand(op, "base_pitch")), constant_int(_operand(op, "base_width"))
    if pitch is not None and width is not None and pitch < width:
        raise RuleError("4th operand (base pitch) should be >= 2nd operand (base width)")
    if _int(op, "elem_size_in_bits") not in (8, 16, 32):
        raise RuleError("expecting 'elem_size_in_bits' to be 8, 16, or 32")
    if not _is_pow2_upto(_int(op, "tile_height"), 32):
        raise RuleError("expecting tile_height to be 1, 2, 4, 8, 16, or 32")
    if not _is_pow2_upto(_int(op, "v_blocks", 1), 8):
        raise RuleError("expecting v_blocks to be 1, 2, 4, or 8")


def _between(what: str, v: int, lo: int, hi: int) -> None:
    if not lo <= v <= hi:
        raise RuleError(f"expecting {what} to be between {lo} and {hi}")


def _load_restrictions(op: Operation) -> None:
    """§4.1 step 1."""
    rt = op.results[0].type
    et = rt.element_type
    if not isinstance(et, (T.IntegerType, T.FloatType)):
        raise RuleError("expecting result element type to be int or float")
    esz, tw, th, vb = (_int(op, n) for n in I32_PROPS)
    transpose, pack = _flag(op, "transpose"), _flag(op, "pack_register")
    got = rt.num_elements * T.bit_width(et)
    want = esz * th * tw * vb // SUBGROUP_SIZE
    if got != want:
        raise RuleError(f"result size of {got} bits does not match the expected size of {want} bits")
    if transpose and pack:
        raise RuleError("transpose and pack_register are mutually exclusive")
    if transpose:
        if vb != 1:
            raise RuleError("expecting v_blocks to be 1")
        if esz == 32:
            _between("tile_height", th, 1, 32)
            _between("tile_width", tw, 1, 8)
        elif esz == 64:
            if th != 8:
                raise RuleError("expecting tile_height to be 8 for 64 bit elements")
            if tw not in (1, 2, 4):
                raise RuleError("expecting tile_width to be 1, 2, or 4")
        else:
            raise RuleError("transpose is only supported for 32 and 64 bit elements")
    elif pack:
        if vb not in (1, 2, 4):
            raise RuleError("expecting v_blocks to be 1, 2, or 4")
        if esz == 8:
            _between("tile_height", th, 4, 32)
            _between("tile_width", tw, 4, 16)
        elif esz == 16:
            _between("tile_height", th, 2, 32)
            _between("tile_width", tw, 2, 16)
            if tw * vb > 32:
                raise RuleError("tile_width * v_blocks should be less than or equal to 32 for 16 bit elements")
        else:
            raise RuleError("pack_register is only supported for 8 and 16 bit elements")
    else:
        _between("tile_height", th, 1, 32)
        limits = {8: (4, 64, (1, 2, 4), "1, 2, or 4"), 16: (2, 32, (1, 2, 4), "1, 2, or 4"),
                  32: (1, 16, (1, 2), "1 or 2"), 64: (1, 8, (1,), "1")}
        if esz not in limits:
            raise RuleError("expecting elem_size_in_bits to be 8, 16, 32, or 64")
        lo, hi, blocks, text = limits[esz]
        _between("tile_width", tw, lo, hi)
        if vb not in blocks:
            raise RuleError(f"expecting v_blocks to be {text}")
        if esz != 64 and tw * vb > hi:
            raise RuleError(f"tile_width * v_blocks should be less than or equal to {hi} for {esz} bit elements")


@_rule("xevm_blockload2d")
def _blockload2d(op: Operation, ctx: Any) -> None:
    """BlockLoad2dOp::verify (§4.1): load restrictions, the common 2D checks, the 32-bit result rules."""
    _load_restrictions(op)
    _common_2d(op)
    et = op.results[0].type.element_type
    if not isinstance(et, (T.IntegerType, T.FloatType)):
        raise RuleError("expecting result element type to be int of float")
    if _int(op, "elem_size_in_bits") == 32 or _flag(op, "pack_register"):
        if T.bit_width(et) != 32:
            raise RuleError("expecting result element type to be 32 bits")
        if _flag(op, "pack_register") and _int(op, "tile_width") != SUBGROUP_SIZE:
            raise RuleError("tile_width when pack_register is true should be equal to subgroup size (16 elements)")


def _store_widths(op: Operation, widths: dict[int, tuple[int, ...]], what: dict[int, str]) -> None:
    esz, tw = _int(op, "elem_size_in_bits"), _int(op, "tile_width")
    if esz in widths and tw not in widths[esz]:
        raise RuleError(f"tile_width for {esz} bit elements should be equal to {what[esz]}")


@_rule("xevm_blockstore2d")
def _blockstore2d(op: Operation, ctx: Any) -> None:
    """BlockStore2dOp::verify (§4.2); the size of the stored value is not checked (as upstream)."""
    esz, tw, th = _int(op, "elem_size_in_bits"), _int(op, "tile_width"), _int(op, "tile_height")
    _between("tile_height", th, 1, 8)
    ranges = {8: (4, 64), 16: (2, 32), 32: (1, 16), 64: (1, 8)}
    if esz not in ranges:
        raise RuleError("expecting elem_size_in_bits to be 8, 16, 32, or 64")
    _between("tile_width", tw, *ranges[esz])
    _common_2d(op)
    _store_widths(op, {8: (16, 32), 16: (16,), 32: (16,)}, {8: "16 or 32", 16: "16", 32: "16"})


@_rule("xevm_blockprefetch2d")
def _blockprefetch2d(op: Operation, ctx: Any) -> None:
    """BlockPrefetch2dOp::verify (§4.3)."""
    _common_2d(op)
    _store_widths(op, {8: (16, 32), 16: (16,), 32: (8, 16)}, {8: "16 or 32", 16: "16", 32: "8 or 16"})


@_rule("xevm_block_io")
def _block_io(op: Operation, ctx: Any) -> None:
    """BlockLoadOp / BlockStoreOp::verify (§4.4): allowed vector lengths; scalars always pass."""
    t = op.results[0].type if op.results else _operand(op, "val").type
    if not isinstance(t, T.VectorType):
        return
    n = t.num_elements
    if T.bit_width(t.element_type) == 8:
        if n not in (2, 4, 8, 16):
            raise RuleError("vector size must be 2, 4, 8 or 16 for 8-bit element type")
    elif n not in (2, 4, 8):
        raise RuleError("vector size must be 2, 4 or 8 for element type > 8 bits")


@_rule("xevm_prefetch")
def _prefetch(op: Operation, ctx: Any) -> None:
    """PrefetchOp's operand constraint (§4.10): a pointer in address space 1 (global) or 4 (generic)."""
    t = _operand(op, "ptr").type
    if t.address_space not in (1, 4):
        raise RuleError(f"operand #0 must be LLVM pointer in address space 1 or LLVM pointer in address space 4, "
                        f"but got '{t}'")


# ============================================================================== DPAS
def struct_fields(op: Operation, name: str) -> dict[str, Any]:
    """The fields of ``mma``'s ``shape`` / ``types`` struct (:mod:`xesim.ir.directives.xevm`): ints / keywords."""
    a = op.attributes.get(name)
    if not isinstance(a, A.DictAttr):
        return {}
    return {k: v.value for k, v in a.entries}


@_rule("xevm_mma")
def _mma(op: Operation, ctx: Any) -> None:
    """MMAOp / MMAMxOp::verify (§4.5, §4.6): C's type equals the result's.  Then xesim's checks of the structs
    (upstream's attribute parsers reject them): m, n, k positive integers; d, a, b (and c with a C operand) element
    type keywords of ``xevm::ElemType``."""
    c = _operand(op, "c")
    if c is not None and c.type != op.results[0].type:
        raise RuleError("type of C operand must match result type")
    shape, types = struct_fields(op, "shape"), struct_fields(op, "types")
    if set(shape) != {"m", "n", "k"} or not all(isinstance(v, int) and v > 0 for v in shape.values()):
        raise RuleError("shape must be <m = M, n = N, k = K> with positive integers")
    want = {"d", "a", "b"} | ({"c"} if c is not None else set())
    if not want <= set(types) <= want | {"c"}:
        raise RuleError(f"types must name {', '.join(sorted(want))}")
    bad = [f"{k} = {v}" for k, v in types.items() if v not in ELEM_BITS]
    if bad:
        raise RuleError(f"unknown element type in types: {', '.join(bad)} (expected one of {', '.join(ELEM_BITS)})")


# ============================================================================== conversions
_FP_CODES = ("bf8", "f8", "e2m1")
_HALVES = ("f16", "bf16")


def _count(t: T.Type) -> tuple[int, int]:
    """(elements, element bits) of a scalar or 1-D vector."""
    if isinstance(t, T.VectorType):
        return t.num_elements, T.bit_width(t.element_type)
    return 1, T.bit_width(t)


def _conversion(op: Operation, narrowing: bool) -> None:
    src_t, dst_t = _operand(op, "src").type, op.results[0].type
    half_t, code_t = (src_t, dst_t) if narrowing else (dst_t, src_t)
    half_e, code_e = (op.attributes.get("src_etype"), op.attributes.get("dst_etype"))
    if not narrowing:
        half_e, code_e = code_e, half_e
    half_name, code_name = _enum_case(half_e), _enum_case(code_e)
    if T.bit_width(T.element_type_of(dst_t)) >= T.bit_width(T.element_type_of(src_t)) if narrowing else \
            T.bit_width(T.element_type_of(dst_t)) <= T.bit_width(T.element_type_of(src_t)):
        raise RuleError("dst element bitwidth should be less than src element bitwidth" if narrowing
                        else "dst element bitwidth should be greater than src element bitwidth", on_op=False)
    side = "src_etype" if narrowing else "dst_etype"
    if half_name not in _HALVES or str(T.element_type_of(half_t)) != half_name:
        raise RuleError(f"{side} must be f16 or bf16 and match the {'source' if narrowing else 'result'} element "
                        f"type {T.element_type_of(half_t)}")
    side = "dst_etype" if narrowing else "src_etype"
    if code_name not in _FP_CODES:
        raise RuleError(f"{side} must be bf8, f8 or e2m1")
    n, _ = _count(half_t)
    m, bits = _count(code_t)
    codes = m * bits // (4 if code_name == "e2m1" else 8)
    if codes != n or (code_name != "e2m1" and bits != 8) or m * bits % (4 if code_name == "e2m1" else 8):
        raise RuleError(f"{n} {half_name} value(s) need exactly {n} {code_name} code(s), but {code_t} holds "
                        f"{codes} (upstream-xegpu-xevm.md §4.7: fp8 one i8 per value, e2m1 two per i8 or one i4)")


def _enum_case(a: Any) -> str:
    """The case of an ``XeVMElemType`` attribute (a bare keyword in the format)."""
    if isinstance(a, A.EnumValue):
        return a.enum_value
    if isinstance(a, A.DialectAttr):
        p = a.positional(0)
        return str(p) if p is not None else a.name
    if isinstance(a, A.StringAttr):
        return a.value
    return ""


@_rule("xevm_truncf")
def _truncf(op: Operation, ctx: Any) -> None:
    """TruncfOp::verify (§4.7) and xesim's pairing and packed-width rules (module docstring)."""
    _conversion(op, True)


@_rule("xevm_extf")
def _extf(op: Operation, ctx: Any) -> None:
    """ExtfOp::verify (§4.8) and xesim's pairing and packed-width rules (module docstring)."""
    _conversion(op, False)


@_rule("xevm_bitcast_shuffle")
def _bitcast_shuffle(op: Operation, ctx: Any) -> None:
    """BitcastShuffleOp::verify (§4.9)."""
    s, r = _operand(op, "src").type, op.results[0].type
    if isinstance(s, T.VectorType) == isinstance(r, T.VectorType):
        raise RuleError("expected exactly one of src and res to be a vector: a pack takes a vector and returns a "
                        "scalar, an unpack takes a scalar and returns a vector")
    if prod(_count(s)) != prod(_count(r)):
        raise RuleError("src and res types must have the same total bit width")
