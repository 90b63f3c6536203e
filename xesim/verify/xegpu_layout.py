"""XeGPU distribution layouts: ``#xegpu.layout<...>``, ``#xegpu.slice<...>`` and the legacy ``#xegpu.sg_map<...>``.

Reads the attribute parameters into a :class:`Layout`, checks them (upstream ``LayoutAttr::verify`` and
``SliceAttr::verify`` in ``mlir/lib/Dialect/XeGPU/IR/XeGPUDialect.cpp``, with the newest wording of
``shared/spec/programs-and-runner.md`` §4.4), and answers the distribution questions the verifier and the
executor ask: is a shape evenly distributable (``XeGPUDialect::isEvenlyDistributable``), what is the SIMT
fragment of a tensor descriptor (``xegpu::getDistributedVectorType``, ``XeGPUUtils.h``), how are subgroup/lane
ids delinearised (spec §3.4).  Pure functions of plain integers and attributes; no IR walking here.

Legacy ``#xegpu.sg_map<wi_layout = [..], wi_data = [..]>`` (IMEX XeGPU RFC; also the ``<{...}>`` dictionary
spelling of the RFC) is read as a subgroup layout with ``lane_layout = wi_layout`` and ``lane_data = wi_data``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias

LAYOUT_NAMES = ("layout", "slice", "sg_map")
_LAYOUT_FIELDS = ("sg_layout", "sg_data", "inst_data", "lane_layout", "lane_data", "order")
_SG_MAP_FIELDS = {"wi_layout": "lane_layout", "wi_data": "lane_data"}


class LayoutError(Exception):
    """A malformed layout attribute; the message is the diagnostic text."""


@dataclass(frozen=True)
class Layout:
    """The parameters of one layout attribute.  Absent fields are ``None``.

    ``kind`` is ``"layout"``, ``"slice"`` (then ``parent`` and ``dims`` are set) or ``"sg_map"`` (legacy).
    """

    kind: str = "layout"
    sg_layout: tuple[int, ...] | None = None
    sg_data: tuple[int, ...] | None = None
    inst_data: tuple[int, ...] | None = None
    lane_layout: tuple[int, ...] | None = None
    lane_data: tuple[int, ...] | None = None
    order: tuple[int, ...] | None = None
    parent: Layout | None = None
    dims: tuple[int, ...] = field(default=())
    text: str = ""

    def __str__(self) -> str:
        return self.text

    # -------------------------------------------------------------- effective values (SliceAttr drops dims)
    def _effective(self, name: str) -> list[int]:
        if self.kind == "slice":
            assert self.parent is not None
            vals = self.parent._effective(name)
            if not vals:
                return []
            return [v for i, v in enumerate(vals) if i not in self.dims]
        v = getattr(self, name)
        return list(v) if v else []

    @property
    def effective_sg_layout(self) -> list[int]:
        return self._effective("sg_layout")

    @property
    def effective_sg_data(self) -> list[int]:
        return self._effective("sg_data")

    @property
    def effective_inst_data(self) -> list[int]:
        return self._effective("inst_data")

    @property
    def effective_lane_layout(self) -> list[int]:
        return self._effective("lane_layout")

    @property
    def effective_lane_data(self) -> list[int]:
        return self._effective("lane_data")

    @property
    def effective_order(self) -> list[int]:
        """``order`` (fastest dim first); the default is ``[rank-1, ..., 0]`` (row-major)."""
        if self.kind == "slice":
            assert self.parent is not None
            porder = self.parent.effective_order
            kept = [d for d in porder if d not in self.dims]
            # renumber the remaining parent dims densely
            remaining = sorted(kept)
            return [remaining.index(d) for d in kept]
        if self.order:
            return list(self.order)
        return list(range(self.rank - 1, -1, -1))

    @property
    def rank(self) -> int:
        if self.kind == "slice":
            assert self.parent is not None
            return self.parent.rank - len(self.dims)
        for name in _LAYOUT_FIELDS:
            v = getattr(self, name)
            if v:
                return len(v)
        return 0

    @property
    def is_for_workgroup(self) -> bool:
        """A workgroup layout has ``sg_layout`` (spec §3.4)."""
        return bool(self.effective_sg_layout)

    @property
    def is_for_subgroup(self) -> bool:
        """Upstream ``LayoutAttr::isForSubgroup``: every layout that is not a workgroup layout."""
        return not self.is_for_workgroup


# ------------------------------------------------------------------------------------------ reading


def is_layout_attr(attr: A.Attribute | None) -> bool:
    return isinstance(attr, A.DialectAttr) and attr.dialect == "xegpu" and attr.name in LAYOUT_NAMES


def _int_tuple(key: str, v: A.Attribute) -> tuple[int, ...]:
    try:
        vals = A.int_list(v)
    except TypeError:
        vals = None
    if vals is None:
        raise LayoutError(f"expected a list of integers for '{key}', got {v}")
    return tuple(vals)


def read_layout(attr: A.Attribute) -> Layout:
    """Parameters of a ``#xegpu.layout`` / ``#xegpu.slice`` / ``#xegpu.sg_map`` attribute.

    Raises :class:`LayoutError` for unknown or malformed parameters (not for rule violations: see
    :func:`layout_error`)."""
    if not is_layout_attr(attr):
        raise LayoutError(f"expected an XeGPU layout attribute, got {attr}")
    assert isinstance(attr, A.DialectAttr)
    text = str(attr)
    if attr.name == "slice":
        parent_attr = attr.positional(0)
        if parent_attr is None:
            parent_attr = attr.get_param("parent")
        dims_attr = attr.get_param("dims")
        if dims_attr is None:
            dims_attr = attr.get_param("dim")
        if parent_attr is None or dims_attr is None:
            raise LayoutError("expected parent layout and dims attribute")
        if not is_layout_attr(parent_attr) or getattr(parent_attr, "name", "") == "sg_map":
            raise LayoutError(f"expected a layout or slice attribute as the parent of a slice, got {parent_attr}")
        for k, _ in attr.params:
            if k not in (None, "parent", "dims", "dim"):
                raise LayoutError(f"unknown parameter '{k}' in #xegpu.slice")
        return Layout(kind="slice", parent=read_layout(parent_attr), dims=_int_tuple("dims", dims_attr), text=text)
    values: dict[str, tuple[int, ...]] = {}
    params = list(attr.params)
    if attr.name == "sg_map" and len(params) == 1 and params[0][0] is None and isinstance(params[0][1], A.DictAttr):
        params = [(k, v) for k, v in params[0][1].entries]  # RFC spelling: #xegpu.sg_map<{wi_layout = ...}>
    for k, v in params:
        if attr.name == "sg_map":
            if k not in _SG_MAP_FIELDS:
                raise LayoutError(f"unknown parameter '{k}' in #xegpu.sg_map (expected wi_layout, wi_data)")
            key = _SG_MAP_FIELDS[k]
        else:
            if k not in _LAYOUT_FIELDS:
                raise LayoutError(
                    f"unknown parameter '{k}' in #xegpu.layout (expected {', '.join(_LAYOUT_FIELDS)})")
            key = k
        if key in values:
            raise LayoutError(f"duplicate parameter '{k}'")
        values[key] = _int_tuple(k, v)
    return Layout(kind="sg_map" if attr.name == "sg_map" else "layout", text=text, **values)


def layout_error(layout: Layout) -> str | None:
    """The first rule the layout violates, in upstream wording, or None (spec §4.4 "Layout attribute")."""
    if layout.kind == "slice":
        assert layout.parent is not None
        perr = layout_error(layout.parent)
        if perr is not None:
            return perr
        rank = layout.parent.rank
        seen: set[int] = set()
        for d in layout.dims:
            if d < 0 or d >= rank:
                return f"invalid dim ({d}) in slice attribute."
            if d in seen:
                return f"repeated dim ({d}) in slice attribute."
            seen.add(d)
        return None
    if layout.kind == "sg_map":
        if layout.lane_layout is None or len(layout.lane_layout) != 2:
            return "expected wi_layout of size 2"
        if layout.lane_data is None or len(layout.lane_data) != 2:
            return "expected wi_data of size 2"
        return _positive(layout)
    sg_layout, sg_data, inst = layout.sg_layout, layout.sg_data, layout.inst_data
    lane_layout, lane_data, order = layout.lane_layout, layout.lane_data, layout.order
    if not sg_layout and not inst and not lane_layout:
        return "expected at least one of sg_layout, inst_data or lane_layout"
    # LayoutAttr::verify's order (shared/spec/upstream-xegpu-xevm.md §3.4)
    if sg_layout and inst and len(sg_layout) != len(inst):
        return "expected sg_layout and inst_data to have the same rank"
    if sg_layout and lane_layout and len(sg_layout) != len(lane_layout):
        return "expected sg_layout and lane_layout to have the same rank"
    if inst and lane_layout and len(inst) != len(lane_layout):
        return (f"expected inst_data and lane_layout to have the same rank, got inst_data {len(inst)}, "
                f"lane_layout {len(lane_layout)}")
    if (sg_layout is None) != (sg_data is None):
        return "sg_layout and sg_data must be used together"
    if sg_data is not None and sg_layout is not None and len(sg_data) != len(sg_layout):
        return "expected sg_data and sg_layout to have the same rank"
    if (lane_layout is None) != (lane_data is None):
        return "lane_layout and lane_data must be used together"
    if lane_data is not None and lane_layout is not None and len(lane_data) != len(lane_layout):
        return "expected lane_data and lane_layout to have the same rank"
    if order is not None:
        if not sg_layout and not lane_layout:
            return "expected sg_layout/lane_layout being used with order"
        if sg_layout and len(order) != len(sg_layout):
            return "expected order and sg_layout to have the same rank"
        if lane_layout and len(order) != len(lane_layout):
            return "expected order and lane_layout to have the same rank"
        if sorted(order) != list(range(len(order))):
            return f"expected order to be a permutation of [0, {len(order)}), got {list(order)}"
    return _positive(layout)


def _positive(layout: Layout) -> str | None:
    for name in ("sg_layout", "sg_data", "inst_data", "lane_layout", "lane_data"):
        v = getattr(layout, name)
        if v and any(x <= 0 for x in v):
            key = name
            if layout.kind == "sg_map":
                key = {"lane_layout": "wi_layout", "lane_data": "wi_data"}.get(name, name)
            return f"expected positive values in {key}, got {list(v)}"
    return None


# ------------------------------------------------------------------------------------------ distribution


def shape_str(shape: list[int] | tuple[int, ...]) -> str:
    """``[4, 8]`` (MLIR's ``makeString`` / ``interleaveComma`` spelling)."""
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _ratio(shape: list[int], sub: list[int]) -> list[int] | None:
    """``computeShapeRatio``: shape[i] / sub[i] when every dim divides evenly (same rank), else None."""
    if len(shape) != len(sub) or any(s <= 0 for s in sub):
        return None
    if any(a % b for a, b in zip(shape, sub, strict=True)):
        return None
    return [a // b for a, b in zip(shape, sub, strict=True)]


def _try_distribute(shape: list[int], layout: list[int], data: list[int], rr: bool) -> list[int] | None:
    new = list(shape)
    if layout:
        if len(layout) != len(shape):
            return None
        r = _ratio(shape, layout)
        if r is not None:
            new = r
        elif not rr or _ratio(layout, shape) is None:
            return None
    if data:
        if len(data) != len(shape):
            return None
        r = _ratio(new, data)
        if r is None and rr:
            r = _ratio(data, new)
        if r is None:
            return None
        new = list(data)
    return new


def is_evenly_distributable(shape: list[int] | tuple[int, ...], layout: Layout) -> bool:
    """``XeGPUDialect::isEvenlyDistributable``: sg_layout/sg_data (round-robin allowed: the data may be
    smaller than layout·data when the layout is a multiple of it), then inst_data, then lane_layout/lane_data
    (no round-robin) must each divide the shape left by the previous level."""
    shape = list(shape)
    if layout.rank != len(shape) and not (layout.kind == "sg_map" and len(shape) == 1):
        return False
    if layout.kind == "sg_map" and len(shape) == 1:
        ll, ld = layout.effective_lane_layout[1:], layout.effective_lane_data[1:]
        return _try_distribute(shape, ll, ld, False) is not None
    sg = _try_distribute(shape, layout.effective_sg_layout, layout.effective_sg_data, True)
    if sg is None:
        return False
    inst = _try_distribute(sg, [], layout.effective_inst_data, False)
    if inst is None:
        return False
    return _try_distribute(inst, layout.effective_lane_layout, layout.effective_lane_data, False) is not None


def subgroup_size(layout: Layout) -> int:
    """Number of lanes the layout describes (product of lane_layout)."""
    return prod(layout.effective_lane_layout) if layout.effective_lane_layout else 0


def distributed_fragment_shape(
    shape: list[int] | tuple[int, ...],
    layout: Layout,
    array_length: int = 1,
    chunk_size: int | None = None,
) -> list[int] | None:
    """SIMT fragment of a tensor descriptor (``xegpu::getDistributedVectorType``, spec §4.4).

    Only subgroup layouts with a lane layout distribute.  Scattered descriptors (``chunk_size`` given):
    ``shape[0] == lane_layout[0]`` and the fragment is ``[chunk_size]``.  Block descriptors: every
    ``shape[i] % (lane_layout[i]·lane_data[i]) == 0`` and the fragment is the 1-D
    ``[(Πshape·array_length) / subgroup_size]`` (= ``/ (sg·lane_data_size) · lane_data_size``).
    Returns None when the layout does not distribute the shape."""
    if not layout.is_for_subgroup:
        return None
    ll = layout.effective_lane_layout
    ld = layout.effective_lane_data or [1] * len(ll)
    if not ll:
        return None
    shape = list(shape)
    if layout.kind == "sg_map" and len(shape) == 1 and len(ll) == 2:
        ll, ld = ll[1:], ld[1:]
    if chunk_size is not None:
        if shape[0] != ll[0]:
            return None
        return [chunk_size]
    if len(ll) != len(shape) or len(ld) != len(shape):
        return None
    for s, lane, data in zip(shape, ll, ld, strict=True):
        if s % (lane * data):
            return None
    total = prod(shape) * array_length
    sg = prod(ll)
    data_size = prod(ld)
    return [total // (sg * data_size) * data_size]


def lane_layout_distributed_shape(shape: list[int] | tuple[int, ...], layout: Layout) -> list[int] | None:
    """``getDistVecTypeBasedOnLaneLayout``: divide the trailing dims of ``shape`` by the lane layout
    (e.g. 32x16 with [1, 16] -> 32x1; 2x32x16 -> 2x32x1).  None if a dim does not divide."""
    ll = layout.effective_lane_layout
    if not ll or len(ll) > len(shape):
        return None
    out = list(shape)
    k = len(shape) - len(ll)
    for i, lane in enumerate(ll):
        if out[k + i] % lane:
            return None
        out[k + i] //= lane
    return out


def delinearize(linear_id: int, dims: list[int], order: list[int]) -> list[int]:
    """Coordinates of ``linear_id`` in a ``dims`` grid whose ``order`` lists dims fastest first
    (spec §3.4: ``coord[order[i]] = rem % dims[order[i]]; rem //= dims[order[i]]``)."""
    coord = [0] * len(dims)
    rem = linear_id
    for d in order:
        coord[d] = rem % dims[d]
        rem //= dims[d]
    return coord
