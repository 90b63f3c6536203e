"""XeTile memory ops (shared/spec/xetile.md §3.1–§3.5, §3.7, §3.12–§3.13): ``init_tile``, ``update_tile_offset``,
``load_tile``, ``store_tile``, ``prefetch_tile``, ``atomic_rmw``, ``load`` (gather), ``store`` (scatter).  The
value ops (``tile_mma``, ``reduction``, ...) are in :mod:`xesim.exec.ops.xetile_compute`.

Each op is written for one instance (a subgroup at SG level, a whole workgroup at WG level: §1.3 "recommended
execution model") and lifted onto the instance axis.  Descriptors are :mod:`xesim.exec.tiles` values; every block
access goes through the one address / in-bounds rule of §3.1 (:class:`~xesim.exec.tiles.BlockTile`), and the bytes
move through the hardware models: the 2-D block model (:mod:`xesim.hw.block2d`: per-element boundary check,
out-of-bounds elements read 0 and are dropped on store, pvc-hardware.md §1.4) for row-major and column-major
surfaces, the scattered-access model (:mod:`xesim.hw.scatter`) for gathers/scatters, the atomics model
(:mod:`xesim.hw.atomics`) for ``atomic_rmw``.

Decisions the spec leaves open are target parameters ``[xetile...]`` (§5; ``--explain-assumptions`` lists them):
``load_tile.oob_value`` (Q1), ``load.masked_value`` (Q2), ``honor_memref_offset`` (Q7, with a warning when the
offset is not zero), ``narrow_surface_oob`` (Q9, with a warning when an out-of-bounds element of a narrow surface is
touched), ``atomic_rmw.oob`` (Q11).  SLM tiles are not bounds-checked by IMEX: an out-of-bounds SLM element is a
fault (Q10).  A surface whose fast dimension is strided (neither stride 1) is a fault (§3.1 recommendation: the
hardware cannot stride it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.blocks import window_view
from xesim.exec.faults import ExecFault
from xesim.exec.ops.memref import compile_error, enum_text, mixed_list
from xesim.exec.registry import impl
from xesim.exec.tiles import BlockTile, ScatterTile, pack_blocks, unpack_blocks
from xesim.exec.values import MemRefValue, dtype_of
from xesim.hw import block2d, scatter
from xesim.hw.atomics import atomic_options
from xesim.hw.atomics import atomic_rmw as hw_atomic_rmw
from xesim.hw.memory import MemoryFault
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.verify.rules_xetile import inner_blocks_of

ADDR_MASK = (1 << 64) - 1
SLM_SPACE = 3
NARROW_PITCH_MIN, NARROW_PITCH_MULTIPLE = 64, 16  # §3.2 / §5 Q9: IMEX BlockOpFallback's surface rule (bytes)


def refuse_lenient_ops(kernel: Any, target: Any) -> None:
    """Read the verifier's settings from the target (``xetile.verify.*``, xesim/verify/settings.py; so
    ``--explain-assumptions`` lists them) for a kernel with XeTile ops.  A program verified with
    ``xetile.verify.strict = false`` may hold ops that fail a check the spec recommends (§5 Q16): the first such op
    is a located error here, before the kernel runs, never a value computed from IR without a meaning."""
    from xesim.verify.rules_xetile import recommended_problem
    from xesim.verify.settings import VerifySettings

    settings = VerifySettings.from_target(target)
    if settings.xetile_strict:
        return
    for op in kernel.walk():
        if op.name.startswith("xetile."):
            problem = recommended_problem(op, settings)
            if problem is not None:
                raise ExecFault(f"cannot execute this op: {problem} (the verifier accepted it because "
                                "xetile.verify.strict = false; xetile.md §5 Q16)", op)


def _operand(op: Any, name: str) -> Any:
    g = op.operand_group(name)
    return g[0] if g else None


def elem_info(op: Any, t: T.Type) -> tuple[np.dtype, int]:
    """numpy dtype and byte size of a tile element (tf32 in a 32-bit container, §5 Q19)."""
    try:
        dt = dtype_of(t)
    except NotImplementedError as exc:
        raise compile_error(op, str(exc)) from None
    return dt, dt.itemsize


def _space(engine: Any, slm: bool) -> Any:
    if not slm:
        return engine.memory
    ks = engine.kstate
    if ks.slm is None:
        raise ExecFault("shared local memory is not available here (SLM exists only inside a kernel)")
    return ks.slm


def _param(engine: Any, name: str) -> Any:
    return engine.target.get(f"xetile.{name}")


# ============================================================================ descriptors
@impl("xetile.init_tile")
def _init_tile(op: Any, cx: Any):
    """§3.1: a block tile over a memref (static, dynamic, strided) or a raw byte address, or a scattered tile."""
    engine = cx.engine
    src = _operand(op, "source")
    src_t = src.type
    tile: T.TileType = op.results[0].type
    _, esz = elem_info(op, tile.element_type)
    s_src, res = cx.slot(src), cx.slot(op.results[0])
    name = f"%{src.name}" if getattr(src, "name", None) else "the source"
    slm = tile.memory_space == SLM_SPACE
    honor = bool(_param(engine, "honor_memref_offset"))
    indices = _operand(op, "indices")

    def base_of(m: MemRefValue) -> int:
        if m.offset and honor:
            engine.warn(op, f"{name} has a layout offset of {m.offset} elements: xesim honours it "
                            "(xetile.honor_memref_offset), IMEX's lowering ignores it and the GPU result differs")
        return m.aligned + (m.offset * m.itemsize if honor else 0)

    if indices is not None:
        s_idx = cx.slot(indices)

        def scattered(fr: list) -> None:
            m: MemRefValue = fr[s_src]
            limit = m.sizes[0] if m.rank == 1 else 1
            idx = np.asarray(fr[s_idx], np.int64).reshape(tile.shape)
            fr[res] = ScatterTile(m.space, base_of(m), idx, esz, limit, slm, name)

        return scattered

    get_off, _ = mixed_list(cx, op, ("offsets",), ("const_offsets",))
    get_sizes, st_sizes = mixed_list(cx, op, ("sizes",), ("const_sizes",))
    get_strides, _ = mixed_list(cx, op, ("strides",), ("const_strides",))
    explicit = bool(st_sizes)
    is_memref = isinstance(src_t, T.MemRefType)

    def block(fr: list) -> None:
        s = fr[s_src]
        if is_memref:
            m: MemRefValue = s
            sizes = list(get_sizes(fr)) if explicit else list(m.sizes)
            strides = list(get_strides(fr)) if explicit else list(m.strides)
            base, space = base_of(m), m.space
        else:
            sizes, strides = list(get_sizes(fr)), list(get_strides(fr))
            base = int(s) & ADDR_MASK
            space = _space(engine, slm)
        offs = list(get_off(fr))
        r = len(sizes)
        if len(strides) != r or len(offs) != r or r < 2:
            raise ExecFault(f"sizes {sizes}, strides {strides} and offsets {offs} do not describe a 2-D surface")
        if strides[r - 1] != 1 and strides[r - 2] != 1:
            raise ExecFault(f"the surface's strides {strides[r - 2:]} leave neither dimension contiguous: the 2-D "
                            "block hardware cannot stride the fast dimension (xetile.md §3.1)")
        for o, t in zip(offs[: r - 2], strides[: r - 2]):
            base += o * t * esz
        fr[res] = BlockTile(space, base, sizes[r - 2], sizes[r - 1], strides[r - 2], strides[r - 1],
                            offs[r - 2], offs[r - 1], esz, slm, name)

    return block


@impl("xetile.update_tile_offset")
def _update_tile_offset(op: Any, cx: Any):
    """§3.5: the window moved by (row delta, column delta), or a scattered tile's indices plus a delta vector."""
    s_t, res = cx.slot(_operand(op, "tile")), cx.slot(op.results[0])
    idx = _operand(op, "indices")
    if idx is not None:
        s_i = cx.slot(idx)

        def vec(fr: list) -> None:
            fr[res] = fr[s_t].moved(fr[s_i])

        return vec
    s_x, s_y = cx.slot(_operand(op, "offset_x")), cx.slot(_operand(op, "offset_y"))

    def step(fr: list) -> None:
        fr[res] = fr[s_t].moved(int(fr[s_x]), int(fr[s_y]))

    return step


# ============================================================================ block access
class _Surface:
    """How a block tile's window meets the 2-D block model: a row-major surface is the model's surface as is; a
    column-major one (T[r-2] = 1) is the transposed view (IMEX Canonicalization: a row-major tile on the
    transposed source, then a transpose of the value, §1.4 step 2), so the model reads [w, h] and the value is its
    transpose."""

    def __init__(self, t: BlockTile, h: int, w: int) -> None:
        self.t = t
        self.col = t.col_stride != 1
        if self.col:
            self.surface = block2d.Surface(t.base, t.rows * t.esz, t.cols, t.col_stride * t.esz)
            self.block = block2d.Block(t.esz, h, w)
            self.x, self.y = t.row0, t.col0
        else:
            self.surface = block2d.Surface(t.base, t.cols * t.esz, t.rows, t.row_stride * t.esz)
            self.block = block2d.Block(t.esz, w, h)
            self.x, self.y = t.col0, t.row0

    @property
    def narrow(self) -> bool:
        p = self.surface.pitch_bytes
        return p < NARROW_PITCH_MIN or p % NARROW_PITCH_MULTIPLE != 0

    def load(self, dt: np.dtype) -> np.ndarray:
        v = block2d.load_values(self.t.space, self.surface, self.block, self.x, self.y, dt)[0]
        return np.ascontiguousarray(v.T) if self.col else v

    def store(self, values: np.ndarray) -> None:
        v = np.ascontiguousarray(values.T if self.col else values)
        block2d.store_values(self.t.space, self.surface, self.block, self.x, self.y, v)


def _window(t: BlockTile, h: int, w: int) -> np.ndarray | None:
    """The fast path of load_tile / store_tile: the ``h`` x ``w`` window as a view of memory -- ``[h, w·esz]`` bytes
    for a row-major surface, ``[w, h·esz]`` (the transposed view, as :class:`_Surface`) for a column-major one --
    when it lies wholly inside its surface and one live allocation (:func:`xesim.exec.blocks.window_view`: every
    element is then in bounds and the bytes are the block model's); None otherwise, and the op takes the model."""
    if t.row0 < 0 or t.col0 < 0 or t.row0 + h > t.rows or t.col0 + w > t.cols:
        return None
    if t.col_stride != 1:
        return window_view(t.space, t.base, t.col_stride * t.esz, t.row0, t.col0, w, h, t.esz)
    return window_view(t.space, t.base, t.row_stride * t.esz, t.col0, t.row0, h, w, t.esz)


def _check_bounds(op: Any, engine: Any, t: BlockTile, h: int, w: int, what: str, narrow: bool) -> np.ndarray | None:
    """The in-bounds mask of a window that reaches outside its surface (None when it is inside): an SLM tile is a
    fault (§5 Q10), a narrow global surface a warning or a fault (§5 Q9)."""
    if 0 <= t.row0 and t.row0 + h <= t.rows and 0 <= t.col0 and t.col0 + w <= t.cols:
        return None
    y, x, inb = t.coordinates(h, w)
    if t.slm:
        i, j = np.argwhere(~inb)[0]
        raise ExecFault(f"{what} of an SLM tile reaches outside its surface at tile element ({i}, {j}) = surface "
                        f"({y[i, j]}, {x[i, j]}) of {t.describe()}: IMEX does not bounds-check SLM tiles "
                        "(xetile.md §5 Q10)")
    if narrow:
        rule = (f"{what} touches out-of-bounds elements of a narrow surface ({t.describe()}; row pitch "
                f"{t.row_stride * t.esz if t.col_stride == 1 else t.col_stride * t.esz} B is below "
                f"{NARROW_PITCH_MIN} B or not a multiple of {NARROW_PITCH_MULTIPLE} B): IMEX turns the access into "
                "unmasked gathers/scatters that touch real memory (xetile.md §5 Q9)")
        if _param(engine, "narrow_surface_oob") == "error":
            raise ExecFault(rule)
        engine.warn(op, rule + "; xesim gives the dialect's 0 / dropped elements (xetile.narrow_surface_oob)")
    return inb


def _fault(exc: MemoryFault, t: BlockTile) -> ExecFault:
    return ExecFault(f"{exc} ({t.describe()})")


@impl("xetile.load_tile")
def _load_tile(op: Any, cx: Any):
    """§3.2: result k = the k-th w-wide block of the window; out-of-bounds elements read 0 (IMEX) or the padding
    (``xetile.load_tile.oob_value``); legacy ``transpose = [1, 0]`` (Appendix A) gives the transposed value."""
    engine = cx.engine
    tile: T.TileType = op.operands[0].type
    dt, _ = elem_info(op, tile.element_type)
    h, w = tile.shape
    n = tile.array_length
    s_t = cx.slot(op.operands[0])
    outs = cx.slots(op.results)
    pad_attr = op.attributes.get("padding")
    tr = op.attributes.get("transpose")
    transpose = tr is not None and A.int_list(tr) == [1, 0]
    pad = None
    if _param(engine, "load_tile.oob_value") == "padding_attr" and pad_attr is not None:
        pad = np.array(getattr(pad_attr, "value", 0)).astype(dt)
    ib = inner_blocks_of(tile) if op.results[0].type.rank == 4 else None  # legacy 4-D result (Appendix A.1)

    def step(fr: list) -> None:
        t: BlockTile = fr[s_t]
        view = None if engine.config.kernel_reference else _window(t, h, n * w)
        if view is not None:
            v = view.copy().view(dt)
            if t.col_stride != 1:
                v = np.ascontiguousarray(v.T)
        else:
            sf = _Surface(t, h, n * w)
            inb = _check_bounds(op, engine, t, h, n * w, "load_tile", sf.narrow)
            try:
                v = sf.load(dt)
            except MemoryFault as exc:
                raise _fault(exc, t) from None
            if pad is not None and inb is not None:
                v = np.where(inb, v, pad).astype(dt)
        if ib is not None:
            fr[outs[0]] = pack_blocks(v, *ib)
            return
        for k, s in enumerate(outs):
            part = v[:, k * w:(k + 1) * w]
            fr[s] = np.ascontiguousarray(part.T if transpose else part)

    return step


@impl("xetile.store_tile")
def _store_tile(op: Any, cx: Any):
    """§3.3: in-bounds elements written, out-of-bounds ones dropped (global tiles)."""
    engine = cx.engine
    tile: T.TileType = _operand(op, "tile").type
    dt, _ = elem_info(op, tile.element_type)
    h, w = tile.shape
    s_v, s_t = cx.slot(_operand(op, "value")), cx.slot(_operand(op, "tile"))

    def step(fr: list) -> None:
        t: BlockTile = fr[s_t]
        value = np.asarray(fr[s_v], dt)
        if value.ndim == 4:  # legacy 4-D value (Appendix A.1)
            value = unpack_blocks(value)
        view = None if engine.config.kernel_reference else _window(t, h, w)
        if view is not None:
            view[...] = np.ascontiguousarray(value.T if t.col_stride != 1 else value).view(np.uint8).reshape(view.shape)
            return
        sf = _Surface(t, h, w)
        _check_bounds(op, engine, t, h, w, "store_tile", sf.narrow)
        try:
            sf.store(value)
        except MemoryFault as exc:
            raise _fault(exc, t) from None

    return step


@impl("xetile.prefetch_tile")
def _prefetch_tile(op: Any, cx: Any):
    """§3.4: a cache hint, no functional effect (nothing is read or checked)."""
    return None


# ============================================================================ atomics
@impl("xetile.atomic_rmw")
def _atomic_rmw(op: Any, cx: Any):
    """§3.7: per element, in row-major order, one atomic step on its address (block tiles: §3.1; scattered tiles:
    base + index); returns the old values.  Out-of-bounds elements of a block tile: ``xetile.atomic_rmw.oob``."""
    engine = cx.engine
    tile: T.TileType = _operand(op, "tile").type
    dt, _ = elem_info(op, tile.element_type)
    kind = enum_text(op, "kind")
    kind = {"maxf": "maximumf", "minf": "minimumf"}.get(kind, kind)
    opts = atomic_options(engine.target)
    s_v, s_t, res = cx.slot(_operand(op, "value")), cx.slot(_operand(op, "tile")), cx.slot(op.results[0])
    h, w = tile.shape
    oob_mode = _param(engine, "atomic_rmw.oob")

    def step(fr: list) -> None:
        t = fr[s_t]
        vals = np.asarray(fr[s_v], dt).reshape(-1)
        if isinstance(t, ScatterTile):
            offs = t.indices.reshape(-1)
            mask = np.ones(offs.size, bool)
            _check_scatter_limit(t, offs, mask, "atomic_rmw")
        else:
            y, x, inb = t.coordinates(h, w)
            if not inb.all():
                i, j = np.argwhere(~inb)[0]
                if oob_mode == "error":
                    raise ExecFault(f"atomic_rmw element ({i}, {j}) = surface ({y[i, j]}, {x[i, j]}) is outside "
                                    f"{t.describe()}: IMEX makes it an unchecked access (xetile.md §3.7; "
                                    "xetile.atomic_rmw.oob = drop skips such elements)")
            offs = t.element_offsets(y, x).reshape(-1)
            mask = inb.reshape(-1)
        try:
            old = hw_atomic_rmw(t.space, t.base, offs, mask, kind, vals, dt, **opts)
        except MemoryFault as exc:
            raise ExecFault(f"atomic_rmw: {exc}") from None
        fr[res] = np.asarray(old, dt).reshape(h, w)

    return step


# ============================================================================ gather / scatter
def _check_scatter_limit(t: ScatterTile, offs: np.ndarray, mask: np.ndarray, what: str) -> None:
    """§3.12: an enabled element outside the source memref is a fault (disabled ones are not accessed)."""
    if t.limit is None:
        return
    bad = mask & ((offs < 0) | (offs >= t.limit))
    if bad.any():
        e = int(np.flatnonzero(bad)[0])
        idx = np.unravel_index(e, t.indices.shape)
        raise ExecFault(f"{what}: enabled element {tuple(int(i) for i in idx)} has index {int(offs[e])}, outside "
                        f"{t.origin} of {t.limit} elements")


@impl("xetile.load")
def _gather(op: Any, cx: Any):
    """§3.12: ``v[e] = mask[e] ? mem[base + indices[e]] : P`` (P per ``xetile.load.masked_value``)."""
    engine = cx.engine
    tile: T.TileType = _operand(op, "tile").type
    vt: T.VectorType = op.results[0].type
    dt, _ = elem_info(op, tile.element_type)
    s_t, s_m, res = cx.slot(_operand(op, "tile")), cx.slot(_operand(op, "mask")), cx.slot(op.results[0])
    pad_attr = op.attributes.get("padding")
    pad = None
    if _param(engine, "load.masked_value") == "padding_attr" and pad_attr is not None:
        pad = np.array(getattr(pad_attr, "value", 0)).astype(dt)

    def step(fr: list) -> None:
        t: ScatterTile = fr[s_t]
        offs = t.indices.reshape(-1)
        mask = np.asarray(fr[s_m], bool).reshape(-1)
        _check_scatter_limit(t, offs, mask, "xetile.load")
        try:
            v = scatter.gather(t.space, t.base, offs, mask, 1, dt).reshape(-1)
        except MemoryFault as exc:
            raise ExecFault(f"xetile.load: {exc}") from None
        if pad is not None:
            v = np.where(mask, v, pad).astype(dt)
        fr[res] = v.reshape(vt.shape)

    return step


@impl("xetile.store")
def _scatter(op: Any, cx: Any):
    """§3.13: every enabled element writes ``base + indices[e]``, in row-major order (the last enabled element
    on an address wins)."""
    tile: T.TileType = _operand(op, "tile").type
    dt, _ = elem_info(op, tile.element_type)
    s_v, s_t, s_m = cx.slot(_operand(op, "value")), cx.slot(_operand(op, "tile")), cx.slot(_operand(op, "mask"))

    def step(fr: list) -> None:
        t: ScatterTile = fr[s_t]
        offs = t.indices.reshape(-1)
        mask = np.asarray(fr[s_m], bool).reshape(-1)
        _check_scatter_limit(t, offs, mask, "xetile.store")
        vals = np.asarray(fr[s_v], dt).reshape(-1, 1)
        try:
            scatter.scatter(t.space, t.base, offs, mask, 1, vals)
        except MemoryFault as exc:
            raise ExecFault(f"xetile.store: {exc}") from None

    return step
