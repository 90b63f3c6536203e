"""Program levels: what a kernel's IR implies about how it executes (ARCHITECTURE.md "Program levels";
spec/programs-and-runner.md §3.1–§3.5).  No flag is needed: VC kernels carry ``VectorComputeFunctionINTEL``,
workgroup-level ones ``sg_layout`` layouts, SIMT ones per-lane fragments; other XeGPU kernels are subgroup level and
plain GPU kernels lane level."""

from __future__ import annotations

from typing import Any

from xesim.decode.xegpu import decode_block_access, decode_dpas, decode_scatter_access
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias


def kernel_level(kernel: Any) -> str:
    """The program level implied by the kernel's IR (no flag needed): ``vc``, ``subgroup``, ``lane`` or
    ``workgroup`` (see :func:`classify_kernel`)."""
    return classify_kernel(kernel)[0]


def classify_kernel(kernel: Any) -> tuple[str, Any]:
    """``(level, evidence op)`` for a kernel (spec/programs-and-runner.md §3.1–§3.2, §3.5):

    * ``vc``: the kernel carries ``VectorComputeFunctionINTEL`` (one hardware thread per launched thread);
    * ``workgroup``: an XeGPU op or tensor_desc type carries a layout with ``sg_layout`` (§3.4);
    * ``lane`` with an XeGPU evidence op: SIMT code — per-lane fragments (a 1-D ``load_nd``/``store_nd`` value
      smaller than the descriptor's tile, ``dpas`` on 1-D operands, scattered access with scalar offsets or
      masks or a chunk-sized 1-D value, a non-2-D ``load_matrix``/``store_matrix`` value);
    * ``subgroup``: other XeGPU code (ops on whole subgroup tiles);
    * ``lane`` without evidence: plain GPU code without XeGPU ops (every work-item executes).
    """
    xetile = xetile_level(kernel)
    if xetile == "workgroup":
        return xetile, None
    if "VectorComputeFunctionINTEL" in kernel.attributes:
        return "vc", None
    if xetile is not None:
        return xetile, None
    first_xegpu = None
    simt = None
    for op in kernel.walk():
        if not op.name.startswith("xegpu."):
            continue
        if first_xegpu is None:
            first_xegpu = op
        if workgroup_layout_in(op):
            return "workgroup", op
        if simt is None and _simt_form(op):
            simt = op
    if simt is not None:
        return "lane", simt
    if first_xegpu is not None:
        return "subgroup", None
    return "lane", None


def xetile_level(kernel: Any) -> str | None:
    """XeTile kernels (shared/spec/xetile.md §1.3): ``workgroup`` when a tile type or an op carries a ``wg_map`` (the
    program is written once for the whole workgroup: one whole-tile execution per workgroup), ``subgroup`` for other
    XeTile code (one execution per subgroup, or per VC thread when the kernel is a VC kernel), None without XeTile."""
    from xesim.ir.xetile_attrs import XeTileMap

    found = None
    for op in kernel.walk():
        if not op.name.startswith("xetile."):
            continue
        found = "subgroup"
        if any(isinstance(a, XeTileMap) and a.kind == "wg_map" for a in op.attributes.values()):
            return "workgroup"
        for v in (*op.operands, *op.results):
            if isinstance(v.type, T.TileType) and v.type.wg_map is not None:
                return "workgroup"
    return found


def workgroup_layout_in(op: Any) -> bool:
    """True when the op's attributes or tensor_desc operand/result types carry a workgroup layout
    (``sg_layout``, spec §3.4)."""
    from xesim.verify import xegpu_layout as xl

    def wg(attr: Any) -> bool:
        if attr is None or not xl.is_layout_attr(attr):
            return False
        try:
            return xl.read_layout(attr).is_for_workgroup
        except xl.LayoutError:
            return False

    if any(wg(a) for a in op.attributes.values()):
        return True
    return any(isinstance(v.type, T.TensorDescType) and wg(v.type.layout) for v in (*op.operands, *op.results))


def _simt_form(op: Any) -> bool:
    """The op is written on per-lane fragments (SIMT level, spec §3.2 "SIMT / lane level"), as its decoding says
    (:mod:`xesim.decode.xegpu`)."""
    name = op.name
    if name in ("xegpu.load_nd", "xegpu.store_nd"):
        return decode_block_access(op).simt
    if name in ("xegpu.dpas", "xegpu.dpas_mx"):
        return decode_dpas(op).simt
    if name == "xegpu.lane_shuffle":  # exists only at lane level (upstream-xegpu-xevm.md §2.11)
        return True
    if name in ("xegpu.load", "xegpu.store", "xegpu.prefetch", "xegpu.atomic_rmw"):
        return decode_scatter_access(op).simt
    if name in ("xegpu.load_matrix", "xegpu.store_matrix"):
        vt = op.results[0].type if name == "xegpu.load_matrix" else op.operand_group("data")[0].type
        return not (isinstance(vt, T.VectorType) and vt.rank == 2)
    return False
