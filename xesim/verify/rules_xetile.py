"""XeTile verifier rules (shared/spec/xetile.md §2–§3: IMEX lib/Dialect/XeTile/IR/XeTileOps.cpp and
XeTileDialect.cpp at 8d0c177e^).  Messages are IMEX's, word for word, where the spec gives them.

Every XeTile predicate first checks what IMEX checks when it builds types and attributes: the ``tile_attr``,
``wg_map`` and ``sg_map`` verifiers (§2.2–§2.4; IMEX emits them but returns success — MLIR tools still fail, so
they are errors here, §5 Q17) for every tile type the op uses and every map attribute on it.  Those carry no
``'xetile.op' op`` prefix, as in MLIR.  Then the op's own checks, in IMEX's order, then the checks the spec
recommends (§5 Q16, "strict"): they reject IR that IMEX accepts but cannot give a meaning to (a load whose
result shape differs from the tile, a transpose that is not a permutation, ...), each with its own message.

Two settings (xesim/verify/settings.py, target parameters ``xetile.verify.*``): with ``strict`` false a failed
recommended check is a warning that ends the op's checks (IMEX accepts the IR) and the executor refuses to run the
op (:func:`recommended_problem`); ``imex_quirks`` chooses IMEX's stride check for column-major tiles on integer
sources (§5 Q6) or the check of the layout the strides describe.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xesim.diagnostics import Diagnostic
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.core import Operation
from xesim.ir.directives.common import DYNAMIC_INDEX
from xesim.ir.xetile_attrs import TileAttr, XeTileMap, attr_problems
from xesim.verify.predicates import RuleError, rule_registrar

INT_KINDS = ("minui", "minsi", "maxui", "maxsi", "and", "or", "xor")
FLOAT_KINDS = ("minnumf", "maxnumf", "minimumf", "maximumf")
DPAS_COMBOS = {  # spec §3.6 table (IMEX lib/Utils/XeArch.cpp checkSupportedDpasTypes)
    ("f16", "f32"), ("f16", "f16"), ("bf16", "f32"), ("bf16", "bf16"), ("tf32", "f32"),
}


_RuleError = RuleError
_register = rule_registrar(lambda op: None)
#: predicate name -> the rule (with the type/attribute checks), for :func:`recommended_problem`
_RULES: dict[str, Callable[[Operation], None]] = {}
LENIENT_NOTE = " (accepted because xetile.verify.strict = false: IMEX accepts it; xesim will not execute the op)"


class _Recommended(RuleError):
    """A check the spec recommends beyond IMEX's verifier (§5 Q16): an error when ``xetile.verify.strict``, else a
    warning that ends the op's checks."""


def _rule(name: str) -> Callable[[Callable[[Operation, Any], None]], Callable[[Operation, Any], None]]:
    """Registers a rule, preceded by the type/attribute checks every XeTile op gets (xesim/verify/predicates.py);
    a :class:`_Recommended` failure follows ``xetile.verify.strict`` (xesim/verify/settings.py)."""
    def wrap(fn: Callable[[Operation, Any], None]) -> Callable[[Operation, Any], None]:
        def checks(op: Operation, ctx: Any) -> None:
            _check_types_and_attrs(op)
            fn(op, ctx)

        def checked(op: Operation, ctx: Any) -> None:
            try:
                checks(op, ctx)
            except _Recommended as r:
                if ctx.settings.xetile_strict:
                    raise RuleError(r.message, r.on_op) from None
                if r.on_op:
                    ctx.warning(op, r.message + LENIENT_NOTE)
                else:
                    ctx.diagnostics.append(Diagnostic("warning", op.loc, r.message + LENIENT_NOTE))

        checked.__doc__ = fn.__doc__
        _register(name)(checked)
        _RULES[name] = checks
        return fn

    return wrap


def recommended_problem(op: Operation, settings: Any) -> str | None:
    """The message of the first recommended check (§5 Q16) ``op`` fails, or None: what the executor reports when a
    program verified with ``xetile.verify.strict = false`` reaches such an op (xetile ops only).  ``settings``: the
    :class:`~xesim.verify.settings.VerifySettings` the program was verified with."""
    from types import SimpleNamespace

    probe = SimpleNamespace(settings=settings)
    od = op.opdef
    for name in od.verifiers if od is not None else ():
        rule = _RULES.get(name)
        if rule is None:
            continue
        try:
            rule(op, probe)
        except _Recommended as r:
            return r.message
        except RuleError:
            return None
    return None


def _check_types_and_attrs(op: Operation) -> None:
    """§2.1–§2.4 type and attribute verifiers, plus the recommended static, positive tile dimensions."""
    for v in (*op.operands, *op.results):
        t = v.type
        if isinstance(t, T.TileType):
            if t.encoding is not None and not isinstance(t.encoding, TileAttr):
                raise _RuleError("expect xetile::XeTileAttr for encoding", on_op=False)
            for msg in attr_problems(t.encoding):
                raise _RuleError(msg, on_op=False)
            if any(d == T.DYNAMIC or d <= 0 for d in t.shape):
                raise _Recommended(f"tile shape must be static and positive, got {t}")
            order = t.encoding.order if isinstance(t.encoding, TileAttr) else None
            if order is not None and len(order) == 2 and tuple(order) not in ((1, 0), (0, 1)):
                raise _Recommended(f"order must be [1, 0] or [0, 1], got {list(order)}")
    for a in op.attributes.values():
        for msg in attr_problems(a):
            raise _RuleError(msg, on_op=False)


# ============================================================================ helpers
def _operand(op: Operation, name: str) -> Any:
    g = op.operand_group(name)
    return g[0] if g else None


def _static(op: Operation, name: str) -> list[int] | None:
    a = op.attributes.get(name)
    return A.int_list(a) if a is not None else None


def _mixed(op: Operation, dyn: str, static: str) -> list[int | None]:
    """The list's entries: an int for a literal, the constant's value for an ``arith.constant`` operand, else
    None (dynamic)."""
    vals = op.operand_group(dyn)
    st = _static(op, static)
    if st is None:
        st = [DYNAMIC_INDEX] * len(vals)
    out: list[int | None] = []
    it = iter(vals)
    for s in st:
        if s != DYNAMIC_INDEX:
            out.append(s)
            continue
        v = next(it, None)
        owner = getattr(v, "owner", None)
        const = owner.attributes.get("value") if owner is not None and owner.name == "arith.constant" else None
        out.append(const.value if isinstance(const, A.IntegerAttr) else None)
    return out


def _count(op: Operation, dyn: str, static: str) -> int:
    st = _static(op, static)
    return len(st) if st is not None else len(op.operand_group(dyn))


def _memref_space(t: T.Type) -> int:
    if isinstance(t, T.MemRefType):
        v = getattr(t.memory_space, "value", 0)
        return v if isinstance(v, int) and not isinstance(v, bool) else 0
    return 0


def _strides(t: T.MemRefType) -> list[int] | None:
    """Static strides of a memref layout (identity, ``strided<>``), None for other affine maps or dynamic ones."""
    from xesim.verify import rules_memref

    so = rules_memref.strides_and_offset(t)
    if so is None:
        return None
    strides = list(so[0])
    return None if any(s == T.DYNAMIC for s in strides) else strides


def _map_distributes(shape: tuple[int, ...], m: XeTileMap) -> bool:
    """§3.3: every dim d has shape_d % D_d == 0 and (shape_d / D_d) % L_d == 0."""
    if len(shape) != 2 or len(m.first) != 2 or len(m.second) != 2:
        return False
    for s, lay, dat in zip(shape, m.first, m.second):
        if dat <= 0 or lay <= 0 or s % dat or (s // dat) % lay:
            return False
    return True


def inner_blocks_of(tile: T.TileType) -> tuple[int, int] | None:
    """The legacy ``inner_blocks = [bh, bw]`` of a tile (Appendix A.1), None when absent or malformed."""
    enc = tile.encoding
    ib = getattr(enc, "inner_blocks", None) if isinstance(enc, TileAttr) else None
    return (int(ib[0]), int(ib[1])) if ib is not None and len(ib) == 2 else None


def _blocked_shape(shape: tuple[int, ...] | list[int], ib: tuple[int, int]) -> list[int]:
    """Appendix A.1: the 4-D shape ``[H/bh, W/bw, bh, bw]`` of an ``[H, W]`` value blocked by ``ib``."""
    return [shape[0] // ib[0], shape[1] // ib[1], ib[0], ib[1]]


def _check_blocked(op: Operation, v: Any, what: str, ib: tuple[int, int] | None, tile: T.TileType) -> bool:
    """Appendix A.1 for a load result / stored value ``v``: a 4-D vector needs the tile's ``inner_blocks`` and the
    blocked shape; a tile with ``inner_blocks`` needs a 4-D vector.  True when ``v`` is a valid 4-D value."""
    vt = _vec(v.type)
    if ib is None:
        if vt.rank == 4:
            raise _RuleError(f"{what} must be 2D vector of scalar values, but got '{vt}' (a 4-D blocked vector needs "
                             "inner_blocks in the tile_attr, xetile.md Appendix A.1)")
        return False
    if op.name == "xetile.store_tile" and vt.rank != 4:
        raise _RuleError("value must be a 4D vector if inner_blocks is used in tile_attr.")
    want = _blocked_shape(tile.shape, ib)
    if vt.rank != 4 or ib[0] <= 0 or ib[1] <= 0 or tile.shape[0] % ib[0] or tile.shape[1] % ib[1] or \
            list(vt.shape) != want:
        raise _RuleError(f"shapes of the source tile, output value and inner_blocks must satisfy : "
                         f"{list(tile.shape)} = {want} blocked by {list(ib)}")
    if vt.element_type != tile.element_type:
        raise _Recommended(f"{what} element type {vt.element_type} must equal the tile element type "
                           f"{tile.element_type}")
    return True


def _vec(t: T.Type) -> T.VectorType:
    assert isinstance(t, T.VectorType)
    return t


# ============================================================================ descriptors
@_rule("xetile_init_tile")
def _init_tile(op: Operation, ctx: Any) -> None:
    """§3.1: OffsetSizeAndStrideOpInterface, then InitTileOp::verify (memory space, scattered form, dynamic
    shapes, layout/order consistency), then the recommended rank checks."""
    src_t = _operand(op, "source").type
    tile: T.TileType = op.results[0].type
    indices = _operand(op, "indices")
    n_off = _count(op, "offsets", "const_offsets")
    n_sizes = _count(op, "sizes", "const_sizes")
    n_strides = _count(op, "strides", "const_strides")
    if indices is not None:
        if n_off or n_sizes or n_strides:
            raise _RuleError(f"expected 0 offset values, got {n_off}" if n_off else
                             "a scattered tile takes no sizes or strides")
    else:
        if isinstance(src_t, T.MemRefType) and n_off != src_t.rank:
            raise _RuleError(f"expected {src_t.rank} offset values, got {n_off}")
        if n_sizes or n_strides:
            if n_off != n_sizes:
                raise _RuleError(f"expected mixed offsets rank to match mixed sizes rank ({n_off} vs {n_sizes}) so "
                                 "the rank of the result type is well-formed.")
            if n_sizes != n_strides:
                raise _RuleError(f"expected mixed sizes rank to match mixed strides rank ({n_sizes} vs {n_strides}) "
                                 "so the rank of the result type is well-formed.")
        for name, st in (("offsets", _static(op, "const_offsets")), ("sizes", _static(op, "const_sizes"))):
            for s in st or []:
                if s != DYNAMIC_INDEX and s < 0:
                    raise _RuleError(f"expected {name} to be non-negative, but got {s}")
    if _memref_space(src_t) != tile.memory_space:
        raise _RuleError("memory space of the tile doesn't match with the source.")
    if indices is not None:
        if not (isinstance(src_t, T.MemRefType) and src_t.rank <= 1):
            raise _RuleError("Expecting a 0-D or 1-D memref as source.")
        if not (isinstance(tile.encoding, TileAttr) and tile.encoding.scattered is not None):
            raise _RuleError("Expecting a scattered TileType.")
        if tile.rank not in (1, 2):
            raise _Recommended(f"a scattered tile must have rank 1 or 2, got {tile}")
        it = _vec(indices.type)
        if tuple(it.shape) != tuple(tile.shape):
            raise _Recommended(f"indices shape {list(it.shape)} must equal the tile shape {list(tile.shape)}")
        return
    static_memref = isinstance(src_t, T.MemRefType) and src_t.has_static_shape
    if static_memref and n_sizes:
        raise _RuleError("dynamic sizes are not allowed with a static shaped memref as source")
    sizes = list(src_t.shape) if static_memref else _mixed(op, "sizes", "const_sizes")
    strides_n = len(sizes) if static_memref else n_strides
    if len(sizes) != strides_n or (not static_memref and n_strides != n_off) or len(sizes) < tile.rank:
        raise _RuleError("memref with a dynamic shape or raw address is used as source but dynamic shape argument "
                         "missing or it is not of valid rank")
    col = tile.column_major
    if static_memref:
        strides = _strides(src_t)
        r = src_t.rank
        if strides is not None:
            if not col and not (strides[r - 2] == src_t.shape[r - 1] and strides[r - 1] == 1):
                raise _RuleError("memref operand is expected to have a row-major layout")
            if col and not (strides[r - 2] == 1 and strides[r - 1] == src_t.shape[r - 2]):
                raise _RuleError("memref operand is expected to have a column-major layout")
        else:
            layout = src_t.layout
            if not col:
                raise _RuleError("memref operand is expected to have a row-major layout")
            if not isinstance(layout, A.AffineMapAttr):
                raise _RuleError("expected a valid affine map in the layout")
            if str(layout.map) != "(d0, d1) -> (d1, d0)":
                raise _RuleError("memref operand is expected to have a column-major layout")
    elif isinstance(src_t, T.IntegerType):
        if not n_sizes or not n_strides:
            raise _RuleError("dynamic shape and strides must not be empty")
        strides = _mixed(op, "strides", "const_strides")
        if len(sizes) >= 2 and all(v is not None for v in (*sizes, *strides)):
            if ctx.settings.xetile_imex_quirks:  # IMEX's check, sic: S[1] (spec §5 Q6)
                col_major = list(strides) == [1, sizes[1]]
                row_ok, col_ok = not col_major, col_major
            else:  # the layout the strides describe (xetile.verify.imex_quirks = false)
                row_ok = strides[-1] == 1
                col_ok = strides[-2:] == [1, sizes[-2]]
            if not col and not row_ok:
                raise _RuleError("memref operand is expected to have a row-major layout")
            if col and not col_ok:
                raise _RuleError("memref operand is expected to have a column-major layout")
    if tile.rank != 2:
        raise _Recommended(f"a block tile must have rank 2, got {tile}")
    if tile.scattered:
        raise _Recommended("a block init_tile (offsets) cannot create a scattered tile")


@_rule("xetile_update_tile_offset")
def _update_tile_offset(op: Operation, ctx: Any) -> None:
    """§3.5 (recommended): the bracket form on block tiles, the vector form on scattered tiles of the same shape."""
    tile: T.TileType = _operand(op, "tile").type
    indices = _operand(op, "indices")
    has_xy = _operand(op, "offset_x") is not None
    if has_xy == (indices is not None) or has_xy != (_operand(op, "offset_y") is not None):
        raise _Recommended("expects either both row and column offsets or an index vector")
    if has_xy and tile.scattered:
        raise _Recommended("row and column offsets apply to block tiles; a scattered tile takes an index vector")
    if indices is not None:
        if not tile.scattered:
            raise _Recommended("an index vector applies to scattered tiles; a block tile takes [row, column] offsets")
        if tuple(_vec(indices.type).shape) != tuple(tile.shape):
            raise _Recommended(f"index vector shape {list(_vec(indices.type).shape)} must equal the tile shape "
                             f"{list(tile.shape)}")


# ============================================================================ block memory access
def _check_hints(op: Operation) -> None:
    for name in ("l1_hint", "l2_hint", "l3_hint"):
        a = op.attributes.get(name)
        if a is not None and not (isinstance(a, A.DialectAttr) and a.qualified_name == "xetile.cache_hint"):
            raise _RuleError(f"attribute '{name}' failed to satisfy constraint: XeTile cache hint attribute")


def _check_padding(op: Operation) -> None:
    a = op.attributes.get("padding")
    if a is None:
        return
    ok = (isinstance(a, A.IntegerAttr) and a.type == T.I32) or (isinstance(a, A.FloatAttr) and a.type == T.F32)
    if not ok:
        raise _RuleError("attribute 'padding' failed to satisfy constraint: 32-bit signless integer attribute or "
                         "32-bit float attribute")


@_rule("xetile_load_tile")
def _load_tile(op: Operation, ctx: Any) -> None:
    """§3.2: ODS only in IMEX; recommended: one result per array_length block, each of the tile's shape and
    element type (legacy ``transpose = [1, 0]``: the swapped shape)."""
    _check_padding(op)
    _check_hints(op)
    tile: T.TileType = op.operands[0].type
    if tile.scattered:
        raise _Recommended("load_tile expects a block tile; use xetile.load for a scattered tile")
    n = tile.array_length
    if len(op.results) != n:
        raise _Recommended(f"expected {n} result(s) (array_length), got {len(op.results)}")
    ib = inner_blocks_of(tile)
    if any(_check_blocked(op, r, f"result #{i}", ib, tile) for i, r in enumerate(op.results)):
        if n != 1 or "transpose" in op.attributes:
            raise _Recommended("a tile with inner_blocks loads one 4-D value (no array_length, no transpose)")
        return
    shape = list(tile.shape)
    tr = op.attributes.get("transpose")
    if tr is not None:
        perm = A.int_list(tr) if isinstance(tr, (A.ArrayAttr, A.DenseArrayAttr)) else None
        if perm not in ([1, 0], [0, 1]):
            raise _Recommended(f"transpose must be [1, 0] or [0, 1], got {tr}")
        if perm == [1, 0]:
            shape = shape[::-1]
    for r in op.results:
        vt = _vec(r.type)
        if list(vt.shape) != shape:
            raise _Recommended(f"result shape {list(vt.shape)} must equal the tile shape {shape}")
        if vt.element_type != tile.element_type:
            raise _Recommended(f"result element type {vt.element_type} must equal the tile element type "
                             f"{tile.element_type}")


@_rule("xetile_store_tile")
def _store_tile(op: Operation, ctx: Any) -> None:
    """§3.3: equal element types and shapes (traits), even distribution of a wg_map tile (StoreTileOp::verify);
    recommended: array_length 1."""
    _check_hints(op)
    vt = _vec(_operand(op, "value").type)
    tile: T.TileType = _operand(op, "tile").type
    if _check_blocked(op, _operand(op, "value"), "operand #0", inner_blocks_of(tile), tile):
        if tile.array_length > 1 or tile.wg_map is not None:
            raise _Recommended("a tile with inner_blocks stores one 4-D value (no array_length, no wg_map)")
        return
    if vt.element_type != tile.element_type:
        raise _RuleError("failed to verify that all of {value, tile} have same element type")
    if tuple(vt.shape) != tuple(tile.shape):
        raise _RuleError("failed to verify that all of {value, tile} have same shape")
    if tile.wg_map is not None and not _map_distributes(tile.shape, tile.wg_map):
        raise _RuleError("data is not evenly distributed to each subgroup.")
    if tile.array_length > 1:
        raise _Recommended("store_tile writes one block: array_length must be 1")
    if tile.scattered:
        raise _Recommended("store_tile expects a block tile; use xetile.store for a scattered tile")


@_rule("xetile_prefetch_tile")
def _prefetch_tile(op: Operation, ctx: Any) -> None:
    """§3.4: ODS only."""
    _check_hints(op)


@_rule("xetile_atomic_rmw")
def _atomic_rmw(op: Operation, ctx: Any) -> None:
    """§3.7 (recommended): value type = result type, value shape = tile shape, equal element types,
    array_length 1; the kind must suit the element type."""
    vt = _vec(_operand(op, "value").type)
    tile: T.TileType = _operand(op, "tile").type
    if op.results[0].type != vt:
        raise _Recommended("result type must equal the value type")
    if tuple(vt.shape) != tuple(tile.shape) or vt.element_type != tile.element_type:
        raise _Recommended("value shape and element type must equal the tile's")
    if tile.array_length != 1:
        raise _Recommended("atomic_rmw expects array_length 1")
    kind = _atomic_kind(op)
    is_float = isinstance(vt.element_type, T.FloatType)
    if kind is not None and kind.endswith("f") != is_float and kind != "assign":
        raise _Recommended(f"atomic kind '{kind}' does not apply to {vt.element_type} elements")


def _atomic_kind(op: Operation) -> str | None:
    from xesim.ir.opdefs import load_registry

    a = op.attributes.get("kind")
    enum = load_registry().enums["XeTileAtomicRMWKind"]
    if isinstance(a, A.IntegerAttr) and 0 <= a.value < len(enum.cases):
        return enum.cases[a.value]
    return None


# ============================================================================ gather / scatter
def _check_scatter(op: Operation, value_t: T.VectorType, tile: T.TileType, mask_t: T.VectorType,
                   tile_first: bool) -> None:
    if value_t.element_type != tile.element_type:
        names = "{tile, value}" if tile_first else "{value, tile}"
        raise _RuleError(f"failed to verify that all of {names} have same element type")
    if tuple(value_t.shape) != tuple(mask_t.shape):
        raise _RuleError("failed to verify that all of {value, mask} have same shape")
    if not tile.scattered:
        raise _Recommended("expects a scattered tile")
    if tuple(tile.shape) != tuple(value_t.shape):
        raise _Recommended(f"value shape {list(value_t.shape)} must equal the tile shape {list(tile.shape)}")


@_rule("xetile_load")
def _load(op: Operation, ctx: Any) -> None:
    """§3.12: equal element types of tile and value, equal shapes of value and mask (traits); recommended: a
    scattered tile of the value's shape."""
    _check_padding(op)
    _check_hints(op)
    _check_scatter(op, _vec(op.results[0].type), _operand(op, "tile").type, _vec(_operand(op, "mask").type), True)


@_rule("xetile_store")
def _store(op: Operation, ctx: Any) -> None:
    """§3.13: as §3.12 with the names swapped."""
    _check_hints(op)
    _check_scatter(op, _vec(_operand(op, "value").type), _operand(op, "tile").type,
                   _vec(_operand(op, "mask").type), False)


# ============================================================================ compute
@_rule("xetile_tile_mma")
def _tile_mma(op: Operation, ctx: Any) -> None:
    """§3.6 TileMMAOp::verify in order, then the recommended type combinations (table of §3.6)."""
    a = _vec(_operand(op, "a").type)
    b = _vec(_operand(op, "b").type)
    c_v = _operand(op, "c")
    d = _vec(op.results[0].type)
    if a.rank != b.rank:
        raise _RuleError("A and B inputs must have the same rank.")
    if a.element_type != b.element_type:
        raise _RuleError("A and B inputs must have the same type.")
    if c_v is not None and _vec(c_v.type).element_type != d.element_type:
        raise _RuleError("C and output vector must have the same type.")
    if a.rank == 4 or d.rank == 4:  # legacy blocked operands (Appendix A.1)
        (m, k, bm, bk), (k2, n, bk2, bn) = (a.shape if a.rank == 4 else (0,) * 4), b.shape
        if not (a.rank == b.rank == d.rank == 4 and k == k2 and bk == bk2 and list(d.shape) == [m, n, bm, bn]):
            raise _RuleError("incompatible A, B and output sizes for 4D tile mma op. 4D tile mma should have the "
                             "shape (m x k x Bm x Bk) x (k x n x Bk x Bn) = (m x n x Bm x Bn).")
    elif not (a.shape[1] == b.shape[0] and d.shape[0] == a.shape[0] and d.shape[1] == b.shape[1]):
        raise _RuleError("incompatible A, B and output sizes for 2D tile mma op. 2D tile mma should have the shape "
                         "(m x k) x (k x n) = (m x n).")
    if c_v is not None and tuple(_vec(c_v.type).shape) != tuple(d.shape):
        raise _RuleError("input C must have the same shape as output.")
    et, ot = a.element_type, d.element_type
    if isinstance(et, T.IntegerType):
        ok = et.width == 8 and isinstance(ot, T.IntegerType) and ot.width == 32
    else:
        ok = (str(et), str(ot)) in DPAS_COMBOS
    if not ok:
        raise _Recommended(f"unsupported tile_mma types: {et} inputs with {ot} output (DPAS takes f16/bf16 -> f32 or "
                         "same, tf32 -> f32, 8-bit integers -> i32)")


@_rule("xetile_transpose")
def _transpose(op: Operation, ctx: Any) -> None:
    """§3.8 TransposeOp::verify; recommended: a permutation of [0, 1], equal element types."""
    src = _vec(op.operands[0].type)
    res = _vec(op.results[0].type)
    perm = A.int_list(op.attributes["permutation"]) or []
    expected = list(src.shape)
    for i, p in enumerate(perm):
        if p >= src.rank or p < 0:
            raise _RuleError("permutation index out of bounds")
        if i < len(expected):
            expected[i] = src.shape[p]
    if expected != list(res.shape):
        raise _RuleError("Incorrect transpose permutation")
    if sorted(perm) != [0, 1]:
        raise _Recommended(f"permutation must be [1, 0] or [0, 1], got {perm}")
    if src.element_type != res.element_type:
        raise _Recommended("source and result element types must be equal")


def _combining_kind(op: Operation) -> str | None:
    a = op.attributes.get("kind")
    if isinstance(a, A.DialectAttr):
        p = a.positional(0)
        return str(p) if p is not None else None
    return None


@_rule("xetile_reduction")
def _reduction(op: Operation, ctx: Any) -> None:
    """§3.9 ReductionOp::verify; recommended: dims in [0, 1], kept dims unchanged, equal element types, kind
    suited to the element type, the reduced dim divisible by reduction_size."""
    if _blocked_form(op):
        return
    src = _vec(op.operands[0].type)
    res = _vec(op.results[0].type)
    dims_attr = op.attributes.get("reduction_dims", op.attributes.get("reduction_dim"))
    dims = A.int_list(dims_attr) or []
    size = A.attr_int(op.attributes.get("reduction_size"), 0) or 0
    if size > 0:
        if len(dims) != 1:
            raise _RuleError("when reduction size is specified, only a single reduction dimension is allowed.")
        if src.rank != 2:
            raise _RuleError("when reduction size is specified, source must be a 2D vector.")
        d = dims[0]
        if 0 <= d < 2 and res.shape[d] != src.shape[d] // size:
            raise _RuleError("reduction size does not match the expected size of the result dimension after "
                             "reduction.")
    else:
        for d in dims:
            if 0 <= d < res.rank and res.shape[d] != 1:
                raise _RuleError("reduction dimension of result must have size 1")
    for d in dims:
        if d not in (0, 1):
            raise _Recommended(f"reduction dimension {d} out of range [0, 1]")
    if len(set(dims)) != len(dims):
        raise _Recommended("reduction dimensions must be distinct")
    for d in (0, 1):
        if d not in dims and res.shape[d] != src.shape[d]:
            raise _Recommended(f"dimension {d} is not reduced: result size {res.shape[d]} must equal source size "
                             f"{src.shape[d]}")
    if size > 0 and src.shape[dims[0]] % size:
        raise _Recommended(f"source dimension {dims[0]} ({src.shape[dims[0]]}) is not a multiple of reduction_size "
                         f"{size}")
    if src.element_type != res.element_type:
        raise _Recommended("source and result element types must be equal")
    _check_kind(_combining_kind(op), src.element_type)


def _blocked_form(op: Operation) -> bool:
    """A legacy 4-D ``reduction``/``broadcast`` (Appendix A.1: they "act element-wise on the unpacked 2-D data"): the
    2-D rules do not apply and the legacy verifier's rules are not in the spec, so it is accepted here; the executor
    refuses to run it, with the reason (xesim/exec/ops/xetile_compute.py)."""
    return any(isinstance(v.type, T.VectorType) and v.type.rank == 4 for v in (*op.operands, *op.results))


def _check_kind(kind: str | None, et: T.Type) -> None:
    is_float = isinstance(et, T.FloatType)
    if kind in INT_KINDS and is_float:
        raise _Recommended(f"combining kind '{kind}' applies to integers, not {et}")
    if kind in FLOAT_KINDS and not is_float:
        raise _Recommended(f"combining kind '{kind}' applies to floats, not {et}")


@_rule("xetile_broadcast")
def _broadcast(op: Operation, ctx: Any) -> None:
    """§3.10 BroadcastOp::verify; recommended: dims in [0, 1], the other dimension unchanged, equal element
    types, and no ``broadcast_size`` (seed 002, never implemented: §5 Q20)."""
    if _blocked_form(op):
        return
    src = _vec(op.operands[0].type)
    res = _vec(op.results[0].type)
    dims = A.int_list(op.attributes["broadcast_dim"]) or []
    for d in dims:
        if 0 <= d < src.rank and src.shape[d] != 1:
            raise _RuleError("broadcast dimension of source must have size 1")
    if "broadcast_size" in op.attributes:
        raise _Recommended("'broadcast_size' is not implemented by XeTile (seed 002 only); the result type gives the "
                         "size")
    for d in dims:
        if d not in (0, 1):
            raise _Recommended(f"broadcast dimension {d} out of range [0, 1]")
    for d in (0, 1):
        if d not in dims and res.shape[d] != src.shape[d]:
            raise _Recommended(f"dimension {d} is not broadcast: result size {res.shape[d]} must equal source size "
                             f"{src.shape[d]}")
    if src.element_type != res.element_type:
        raise _Recommended("source and result element types must be equal")


@_rule("xetile_convert_layout")
def _convert_layout(op: Operation, ctx: Any) -> None:
    """§3.11: the source evenly distributed by ``wg_map_source`` when given; maps must be ``#xetile.wg_map``."""
    for name in ("wg_map_result", "wg_map_source"):
        a = op.attributes.get(name)
        if a is not None and not (isinstance(a, XeTileMap) and a.kind == "wg_map"):
            raise _RuleError(f"attribute '{name}' failed to satisfy constraint: XeTile WorkGroup Map")
    src = op.attributes.get("wg_map_source")
    if isinstance(src, XeTileMap) and not _map_distributes(_vec(op.operands[0].type).shape, src):
        raise _RuleError("data is not evenly distributed to each subgroup.")


# ============================================================================ legacy (Appendix A.1)
def _inner_blocks(op: Operation) -> list[int]:
    a = op.attributes.get("inner_blocks")
    try:
        ib = A.int_list(a)
    except TypeError:
        ib = None
    if ib is None or len(ib) != 2:
        raise _RuleError("inner_blocks must be two integers")
    return ib


@_rule("xetile_tile_pack")
def _tile_pack(op: Operation, ctx: Any) -> None:
    """Appendix A.1 (legacy tile_pack verifier)."""
    src = _vec(op.operands[0].type)
    res = _vec(op.results[0].type)
    bh, bw = _inner_blocks(op)
    if src.element_type != res.element_type:
        raise _RuleError("input and output vector element type mismatch.")
    if src.rank != 2 or res.rank != 4 or bh <= 0 or bw <= 0:
        raise _RuleError("tile_pack takes a 2-D vector to a 4-D vector")
    if list(res.shape[2:]) != [bh, bw]:
        raise _RuleError(f"innermost 2 dimensions of output vector must satisfy : [{bh}, {bw}]")
    if list(res.shape[:2]) != [src.shape[0] // bh, src.shape[1] // bw]:
        raise _RuleError(f"outermost 2 dimensions of the output vector must satisfy : "
                         f"[{src.shape[0] // bh}, {src.shape[1] // bw}]")


@_rule("xetile_tile_unpack")
def _tile_unpack(op: Operation, ctx: Any) -> None:
    """Appendix A.1 (legacy tile_unpack verifier)."""
    src = _vec(op.operands[0].type)
    res = _vec(op.results[0].type)
    bh, bw = _inner_blocks(op)
    if src.element_type != res.element_type:
        raise _RuleError("input and output vector element type mismatch.")
    if src.rank != 4 or res.rank != 2 or list(src.shape[2:]) != [bh, bw]:
        raise _RuleError("tile_unpack takes a 4-D vector blocked by inner_blocks to a 2-D vector")
    if list(res.shape) != [src.shape[0] * bh, src.shape[1] * bw]:
        raise _RuleError(f"output vector must satisfy : [{src.shape[0] * bh}, {src.shape[1] * bw}]")
