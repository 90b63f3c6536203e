"""xegpu dialect semantics at subgroup level (VC and SG programs: one execution per subgroup, ops on whole
subgroup tiles; spec/programs-and-runner.md §3.2–§3.3, spec/pvc-hardware.md §1–§4).

Descriptors are the run-time values of :mod:`xesim.exec.tdesc`.  The op implementations decode attributes
and types at compile time and call the hardware models at run time:

* **2D block loads/stores/prefetches** (``load_nd``/``store_nd``/``prefetch_nd`` on 2-D descriptors): the
  subgroup tile is split by :func:`xesim.hw.block2d.split_tile` into legal hardware messages, in the order
  the hardware issues them; every message is checked with :func:`xesim.hw.block2d.check_block` against the
  target's rules (spec/pvc-hardware.md §1.2–§1.3): an ``error`` violation is a located fault naming the rule
  and its source, a ``warning`` goes through ``Engine.warn`` (an error under ``--strict``).  Each message's
  values come from the block model (out-of-bounds elements read 0, stores drop them, §1.4) and are put
  together into the tile the op defines (§3.3):

  - plain: ``[R, C]``;
  - ``packed`` (VNNI, 8/16-bit): ``[R/v, C, v]``, ``res[k][n][p] = T[v·k + p][n]``, v = 32 / bits;
  - ``transpose = [1, 0]`` on 32/64-bit data: ``[C, R]`` (native transposed message);
  - ``transpose = [1, 0]`` on 8/16-bit data with ``transpose_bit_width = 32`` (legacy VC) or ``packed``:
    ``[C/v, R, v]``, ``res[k][n][p] = T[n][v·k + p]`` (the VNNI form of Tᵀ) — a 32-bit transposed message
    over v-element units, as XeGPU→XeVM and IMEX lower it (§1.3 "8/16-bit transpose is not native");
  - ``transpose = [1, 0]`` alone on 8/16-bit data: ``[C, R]``, loaded by the same 32-bit transposed
    messages (X2X rewrites it so) and split back;
  - ``array_length = a``: a blocks side by side in memory (block j starts at column x + j·C); the result is
    ``[a, ...]`` (VC convention) or the blocks stacked along the first dimension (SG convention) — both are
    the same row-major data.

  ``boundary_check = false`` declares the block in bounds (IMEX XeGPU RFC): a block reaching outside the
  surface is reported as undefined behaviour instead of being padded.  Offsets given on the op are added
  to the descriptor's own offsets (legacy ``create_nd_tdesc`` offsets / ``update_nd_offset``); in both upstream
  forms one of the two is zero.
* **1-D descriptors** (global or SLM) lower to subgroup block reads/writes, not 2D messages
  (spec/pvc-hardware.md §1.7): elements ``x .. x + W`` of the 1-D surface; out-of-surface elements read 0
  and are dropped on store (the descriptor's boundary check), and the start address must meet the
  alignment of ``[block1d]`` in the target.
* **Scattered access** (``create_tdesc``/``update_offset``, ``load``/``store``/``prefetch`` in the descriptor and
  the memref/pointer + offsets forms): lane i accesses ``chunk`` consecutive elements at element offset
  ``offsets[i]`` (spec §2.1); masked-off lanes do not access memory and loads return 0 for them (XeGPU→XeVM
  lowering, spec §2.2); an unmasked lane outside its memref or allocation is a located fault naming the
  lane.  Values are ``[lanes, chunk]`` (``[chunk, lanes]`` with the legacy ``transpose`` unit attribute).
* **atomic_rmw**: all 16 ``arith::AtomicRMWKind``\\ s under the mask, returning the old values
  (:func:`xesim.hw.atomics.atomic_rmw`).  Kinds PVC has no native instruction for still execute by their
  definition (a compiler emulates them with compare-and-swap loops); such uses are recorded in
  ``engine.notes``.
* **dpas**: ``D = A·B + C`` through :func:`xesim.numerics.dpas.dpas` (the target's DPAS numerics model,
  larger tiles decomposed into hardware instructions in increasing K order); B is plain ``[K, N]`` or VNNI
  ``[K/v, N, v]`` with ``B2d[k][n] = B3d[k/v][n][k%v]``; an absent accumulator is zero.  Signless integer
  operands are signed (``i8`` = s8), ``ui*`` unsigned.
* ``fence``, ``compile_hint``, ``prefetch``: no value effect; ``convert_layout``: identity.
* **Named barriers**: ``alloc_nbarrier`` checks the count against the target, ``init_nbarrier`` makes a
  :class:`~xesim.exec.tdesc.NamedBarrier`, ``nbarrier_arrive`` signals the current phase and ``nbarrier_wait``
  blocks until that phase completed (the launcher's Scheduler, spec §4.1: producers = consumers =
  participants); ``fence`` is a scheduling point without value effect.
* **SLM matrices** (``create_mem_desc``/``mem_desc_subview``/``load_matrix``/``store_matrix``): element
  ``[i, j]`` of the view lives at the linear offset ``#xegpu.mem_layout<stride, block>`` gives it
  (:func:`xesim.exec.tdesc.blocked_strides`; row-major by default).

Lane-level (SIMT fragment) forms run through :mod:`xesim.exec.ops.lane_xegpu`, which reuses the block paths here
(``compile_load_nd`` / ``compile_store_nd``); compiled outside a lane-level kernel they are a located error.
``dpas_mx`` (block-scaled DPAS) is not supported yet.

Workgroup-level ops (``sg_layout`` layouts) run here on the whole workgroup tile (the launcher runs a WG kernel
once per workgroup; xesim/exec/workgroup.py explains why that equals the distributed program); their layouts must
distribute their tiles, and a scattered access is checked as one message per ``inst_data``/``sg_data`` tile.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.exec.interpreter import ExecFault
from xesim.exec.ops.memref import compile_error, enum_text, int_list_attr, mixed_list
from xesim.exec.registry import impl
from xesim.exec.tdesc import MemDesc, NamedBarrier, NdDesc, ScatterDesc, blocked_strides, linear_offsets
from xesim.exec.values import MemRefValue, dtype_of
from xesim.hw.memory import MemoryFault
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

ADDR_MASK = (1 << 64) - 1
LANE_LEVEL = "lane-level XeGPU programs are not supported yet"
WG_LEVEL = "workgroup-level XeGPU programs are not supported yet"


# ============================================================================ compile-time helpers
def _operand(op: Any, name: str) -> Any:
    try:
        g = op.operand_group(name)
    except KeyError:
        return None
    return g[0] if g else None


def _elem_info(op: Any, et: T.Type) -> tuple[np.dtype, int]:
    """numpy dtype and byte size of an element; sub-byte elements are not block-addressable here."""
    try:
        dt = dtype_of(et)
    except NotImplementedError as exc:
        raise compile_error(op, str(exc)) from None
    bits = T.bit_width(et)
    if bits < 8:
        raise compile_error(op, f"{bits}-bit elements in memory descriptors are not supported yet")
    return dt, bits // 8


def _level_guard(op: Any) -> None:
    """Workgroup-level layouts (with ``sg_layout``): the op runs on the whole workgroup tile (whole-tile view,
    xesim/exec/workgroup.py); its layouts must distribute the tiles they describe (spec §3.4)."""
    from xesim.exec.launcher import workgroup_layout_in

    if workgroup_layout_in(op):
        from xesim.exec.workgroup import layout_problem

        problem = layout_problem(op)
        if problem:
            raise compile_error(op, problem)


def _report(engine: Any, op: Any, violations: list, what: str) -> None:
    """Hardware-rule violations of one message: errors fault (``what`` names the message and where it was
    issued), warnings go through ``engine.warn`` (once per op and rule: the text leaves out the position)."""
    for v in violations:
        if v.severity == "error":
            raise ExecFault(f"{what}: {v.rule} ({v.source})")
        kind = what.split(" at ")[0]
        engine.warn(op, f"{kind}: {v.rule} ({v.source})")


def _note(engine: Any, text: str) -> None:
    notes = engine.__dict__.setdefault("notes", [])
    if text not in notes:
        notes.append(text)


def _space_of(engine: Any, slm: bool) -> Any:
    if not slm:
        return engine.memory
    ks = engine.kstate
    if ks.slm is None:
        raise ExecFault("shared local memory is not available here (SLM exists only inside a kernel)")
    return ks.slm


def _addr_origin(space: Any, addr: int) -> str:
    a = space.allocation_at(addr)
    if a is None:
        return f"address 0x{addr:x}"
    return f"address 0x{addr:x} in {a.describe()}"


class _BlockChecker:
    """``check_block`` with a memo.  Its rules read the start offsets only through the signed-range check
    (``block2d.offset_bits``) and ``x mod block2d.x_multiple`` (spec/pvc-hardware.md §1.1–§1.2), so the result
    is cached per (surface, block, kind, x mod L, offsets in range) with L the lcm of the target's
    ``x_multiple`` values; everything else it reads is the surface and the block.  Violations that mention the
    offsets (reported as errors) are recomputed, so messages stay exact."""

    def __init__(self, target: Any) -> None:
        from math import lcm

        self.target = target
        mult = target.get("block2d.x_multiple")
        self.modulus = lcm(*[int(v) for v in mult.values()]) if isinstance(mult, dict) else int(mult)
        bits = target.get("block2d.offset_bits")
        self.lo, self.hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        self.memo: dict[tuple, list] = {}
        #: (surface, plan, kind, x mod L * 2 + in range) whose every message had no violation (batched loads)
        self.clean: set[tuple] = set()

    def __call__(self, surf: Any, blk: Any, x: int, y: int, kind: str) -> list:
        from xesim.hw.block2d import check_block

        inside = self.lo <= x <= self.hi and self.lo <= y <= self.hi
        key = (surf, blk, kind, x % self.modulus, inside)
        v = self.memo.get(key)
        if v is None:
            v = check_block(self.target, surf, blk, x, y, kind)
            if len(self.memo) < 65536:
                self.memo[key] = v
        elif any(e.severity == "error" for e in v):
            v = check_block(self.target, surf, blk, x, y, kind)
        return v


def _checker(engine: Any) -> _BlockChecker:
    c = engine.__dict__.get("_xegpu_block_checker")
    if c is None or c.target is not engine.target:
        c = engine.__dict__["_xegpu_block_checker"] = _BlockChecker(engine.target)
    return c


#: Force every block load/store through the per-message GRF model (tests compare it with the direct in-bounds path);
#: ``engine.config.kernel_reference`` (XESIM_ENGINE=reference, and the second run under both) does the same per engine.
REFERENCE_LOADS = False


def _surface(d: NdDesc) -> Any:
    s = d._surface
    if s is None:
        from xesim.hw.block2d import Surface

        s = d._surface = Surface(d.base, d.width_bytes, d.height, d.pitch_bytes)
    return s


# ============================================================================ block descriptors
@impl("xegpu.create_nd_tdesc")
def _create_nd_tdesc(op: Any, cx: Any):
    """Descriptor of a 1-D/2-D block of a memref or raw address (spec/pvc-hardware.md §1.1, §1.7): shape and
    strides from the operands when given, else from the memref descriptor; leading dims folded into the base."""
    engine = cx.engine
    _level_guard(op)
    src = _operand(op, "source")
    src_t = src.type
    td: T.TensorDescType = op.results[0].type
    dt, isz = _elem_info(op, td.element_type)
    if td.rank not in (1, 2):
        raise compile_error(op, "expects a 1D or 2D tensor descriptor")
    s_src = cx.slot(src)
    res = cx.slot(op.results[0])
    get_off, static_off = mixed_list(cx, op, ("offsets",), ("const_offsets",))
    get_shape, static_shape = mixed_list(cx, op, ("shape",), ("const_shape",))
    get_strides, static_strides = mixed_list(cx, op, ("strides",), ("const_strides",))
    has_off, has_shape = bool(static_off), bool(static_shape)
    is_memref = isinstance(src_t, T.MemRefType)
    slm = td.memory_space == "slm"
    td_rank = td.rank
    name = f"%{src.name}" if getattr(src, "name", None) else "the source"

    def step(fr: list) -> None:
        s = fr[s_src]
        if is_memref:
            m: MemRefValue = s
            shape = tuple(get_shape(fr)) if has_shape else tuple(m.sizes)
            strides = tuple(get_strides(fr)) if has_shape else tuple(m.strides)
            base = m.aligned + m.offset * isz
            space = m.space
            origin = name
        else:
            addr = int(s) & ADDR_MASK
            shape, strides = tuple(get_shape(fr)), tuple(get_strides(fr))
            space = _space_of(engine, slm)
            a = space.allocation_at(addr)
            if a is None or not a.alive:
                what = "freed memory" if a is not None else f"no {space.name} allocation"
                raise ExecFault(f"source address 0x{addr:x} points to {what}")
            base = addr
            origin = f"address 0x{addr:x} ({a.describe()})"
        rank = len(shape)
        if len(strides) != rank or rank < td_rank:
            raise ExecFault(f"shape {list(shape)} and strides {list(strides)} do not describe a {td_rank}-D surface")
        if strides[-1] != 1:
            raise ExecFault(f"the innermost stride of a block tensor descriptor must be 1, got {strides[-1]}")
        offs = list(get_off(fr)) if has_off else [0] * rank
        if len(offs) != rank:
            raise ExecFault(f"{len(offs)} offsets for a {rank}-D source")
        lead = rank - td_rank
        for o, st in zip(offs[:lead], strides[:lead]):
            base += o * st * isz
        if td_rank == 2:
            height, width, pitch = shape[-2], shape[-1], strides[-2]
        else:
            height, width, pitch = 1, shape[-1], shape[-1]
        fr[res] = NdDesc(space, base, height, width, pitch, tuple(offs[lead:]), isz, origin)

    return step


@impl("xegpu.update_nd_offset")
def _update_nd_offset(op: Any, cx: Any):
    """The descriptor with its offsets moved by the operands (legacy VC programs)."""
    td = cx.slot(_operand(op, "TensorDesc"))
    res = cx.slot(op.results[0])
    get_off, _ = mixed_list(cx, op, ("offsets",), ("const_offsets",))

    def step(fr: list) -> None:
        fr[res] = fr[td].moved(get_off(fr))

    return step


def _offsets_getter(cx: Any, op: Any, rank: int):
    get_off, static = mixed_list(cx, op, ("offsets",), ("const_offsets",))
    if not static:
        zero = [0] * rank
        return lambda fr: zero
    return get_off


def _simt_value(op: Any, td: T.TensorDescType, vt: Any) -> bool:
    """A 1-D value with fewer elements than the descriptor's tile: a SIMT (lane) fragment."""
    return isinstance(vt, T.VectorType) and vt.rank == 1 and vt.num_elements < td.num_elements * td.array_length


def _oob_region(d: NdDesc, x: int, y: int, h: int, w: int) -> str | None:
    if x < 0 or y < 0 or x + w > d.width or y + h > d.height:
        return (f"the {h}x{w} block at [{y}, {x}] reaches outside the {d.height}x{d.width} surface, "
                f"but the descriptor has boundary_check = false (undefined behaviour)")
    return None


def _image_to_memory(vals: np.ndarray, blk: Any) -> np.ndarray:
    """A message's values in memory order ``[count, H, W]`` (the inverse of the block load's layout)."""
    if blk.transpose:
        return vals.transpose(0, 2, 1)
    if blk.vnni:
        b, rows, w, k = vals.shape
        return vals.transpose(0, 1, 3, 2).reshape(b, rows * k, w)[:, : blk.height, :]
    return vals


class _BlockPlan:
    """The hardware messages covering a subgroup tile (compile-time) and the unit they are counted in."""

    def __init__(self, op: Any, engine: Any, isz: int, rows: int, cols: int, kind: str, array_length: int = 1,
                 transpose: bool = False, vnni: bool = False) -> None:
        from xesim.hw.block2d import split_tile

        self.unit = isz
        try:
            self.messages = split_tile(engine.target, isz, rows, cols, kind, array_length=array_length,
                                       transpose=transpose, vnni=vnni)
        except ValueError as exc:
            raise compile_error(op, f"cannot split the {rows}x{cols} tile into 2D block {kind} messages: {exc}") from None


def _load_2d_memory(engine: Any, op: Any, plan: _BlockPlan, d: NdDesc, x: int, y: int, rows: int, cols: int,
                    mdt: np.dtype) -> np.ndarray:
    """Issue the plan's load messages at (x, y) (message units) and return the memory-order tile
    ``[rows, cols]`` they read (0 outside the surface).

    Every message is validated.  Its values come from the block model (GRF image of spec §1.5, per-element
    bounds of §1.4) — or, when the whole tile lies inside the surface and inside one live allocation, straight
    from memory: every element is then in bounds and the messages tile the block exactly, so the memory-order
    tile is the same (``REFERENCE_LOADS`` forces the model path; the tests compare the two)."""
    from xesim.hw.block2d import load_values

    surf = _surface(d)
    target = engine.target
    check = _checker(engine)
    space = d.space
    for msg in plan.messages:
        blk = msg.block
        bx, by = x + msg.x_off, y + msg.y_off
        v = check(surf, blk, bx, by, "load")
        if v:
            _report(engine, op, v, f"2D block load of {blk.height}x{blk.width}x{blk.count} at [{by}, {bx}]")
    unit = mdt.itemsize
    if (not (REFERENCE_LOADS or engine.config.kernel_reference) and x >= 0 and y >= 0
            and (x + cols) * unit <= d.width_bytes and y + rows <= d.height):
        pitch = d.pitch_bytes
        start = d.base + y * pitch + x * unit
        nbytes = (rows - 1) * pitch + cols * unit
        try:
            alloc, off = space.resolve(start, nbytes)
        except MemoryFault:
            alloc = None
        if alloc is not None and pitch % unit == 0 and off % unit == 0:
            view = np.ndarray((rows, cols * unit), np.uint8, alloc.data, off, (pitch, 1))
            return view.copy().view(mdt)
    out = np.zeros((rows, cols), mdt)
    for msg in plan.messages:
        blk = msg.block
        bx, by = x + msg.x_off, y + msg.y_off
        vals = load_values(space, surf, blk, bx, by, mdt, target=target)
        mem = _image_to_memory(np.asarray(vals), blk)
        w = blk.width
        for b in range(blk.count):
            c0 = msg.x_off + b * w
            out[msg.y_off : msg.y_off + blk.height, c0 : c0 + w] = mem[b]
    return out


@impl("xegpu.load_nd")
def _load_nd(op: Any, cx: Any):
    """Block load of the descriptor's tile (see the module docstring for the value conventions)."""
    _level_guard(op)
    td = _operand(op, "TensorDesc").type
    vt = op.results[0].type
    if _simt_value(op, td, vt):
        raise compile_error(op, LANE_LEVEL)
    return compile_load_nd(op, cx, cx.slot(op.results[0]), tuple(vt.shape))


def compile_load_nd(op: Any, cx: Any, res: int, out_shape: tuple[int, ...] | None, info: dict | None = None) -> Any:
    """The step of a ``load_nd`` writing its value to slot ``res``: the subgroup tile in the SG conventions with
    shape ``out_shape``, or (``out_shape`` None, for lane-level fragments) the blocks in memory order:
    ``[array_length, R, C]`` for 2-D descriptors (before any VNNI or transpose), ``[array_length·W]`` for 1-D.

    ``info`` (optional, 2-D descriptors) receives what batched execution (:mod:`xesim.exec.batch`) needs to load
    many instances' tiles at once: the message ``plan``, the memory-order tile ``rows`` x ``width_units`` in
    units of ``mdt``, ``per_unit`` (elements per unit of a transposed narrow load), ``check`` (boundary_check),
    ``cols`` and ``arrange`` (memory-order tiles ``[..., rows, width_units]`` -> the result, leading axes kept)."""
    engine = cx.engine
    td_v = _operand(op, "TensorDesc")
    td: T.TensorDescType = td_v.type
    vt = op.results[0].type
    raw = out_shape is None
    dt, isz = _elem_info(op, td.element_type)
    a = td.array_length
    s_td = cx.slot(td_v)
    get_off = _offsets_getter(cx, op, td.rank)
    check = td.boundary_check
    if td.rank == 1:
        if raw:
            out_shape = (td.shape[0] * a,)
        return _load_1d(op, cx, engine, s_td, res, get_off, dt, isz, td.shape[0], a, check, out_shape)
    rows, cols = td.shape
    trans = int_list_attr(op, "transpose")
    transposed = trans == [1, 0]
    if trans is not None and trans not in ([1, 0], [0, 1]):
        transposed = False  # the verifier warned: invalid permutations are ignored
    tbw = A.attr_int(op.attributes.get("transpose_bit_width"), None)
    packed = "packed" in op.attributes
    bits = isz * 8
    emu = engine.target.get("block2d.transpose_emulation_bytes")
    if transposed and isz < emu:
        # spec §1.3: X2X / IMEX load narrow data transposed as emu-byte units (X and W scaled)
        v = emu // isz
        mode = "tvnni" if (packed or tbw == 32) else "tnarrow"
        if cols % v:
            raise compile_error(op, f"a transposed {bits}-bit load needs a multiple of {v} columns, got {cols}")
        unit, mcols = emu, cols // v
        plan = _BlockPlan(op, engine, emu, rows, a * mcols, "load", a, transpose=True)
        mdt = np.dtype(f"u{emu}")
    elif transposed:
        mode, v, unit, mcols, mdt = "transpose", 1, isz, cols, dt
        plan = _BlockPlan(op, engine, isz, rows, a * cols, "load", a, transpose=True)
    elif packed:
        vnni_bytes = engine.target.block2d.load_vnni.element_bytes
        if isz not in vnni_bytes:
            raise compile_error(op, f"packed (VNNI) loads need {' or '.join(f'{8 * b}-bit' for b in vnni_bytes)} "
                                    f"elements, not {bits}-bit ({engine.target.source_of('block2d.load_vnni.element_bytes')})")
        v = 32 // bits
        mode, unit, mcols, mdt = "vnni", isz, cols, dt
        plan = _BlockPlan(op, engine, isz, rows, a * cols, "load", a, vnni=True)
    else:
        mode, v, unit, mcols, mdt = "plain", 1, isz, cols, dt
        plan = _BlockPlan(op, engine, isz, rows, a * cols, "load", a)
    per_unit = unit // isz if unit > isz else 1
    if not raw:
        if mode in ("vnni", "tvnni") and out_shape[-1] != v:
            raise compile_error(op, f"expected a packed result with {v} elements in the last dimension")
        want = {"plain": rows * cols, "transpose": rows * cols, "tnarrow": rows * cols, "tvnni": rows * cols,
                "vnni": -(-rows // v) * v * cols}[mode] * a
        if int(np.prod(out_shape)) != want:
            raise compile_error(op, f"result {vt} does not hold the {a} x {rows}x{cols} block(s) of the descriptor")
    width_units = a * mcols

    def arrange(mem: np.ndarray) -> np.ndarray:
        """Memory-order tiles ``[..., rows, width_units]`` (``mdt``) -> the op's value (leading axes kept)."""
        if mdt != dt:
            mem = mem.view(dt)  # little-endian: the lower-addressed element is in the lower bits
        lead = mem.shape[:-2]
        blocks = np.swapaxes(mem.reshape(*lead, rows, a, cols), -2, -3)  # [..., a, R, C]
        if raw:
            return np.ascontiguousarray(blocks)
        if mode == "plain":
            out = blocks
        elif mode == "vnni":
            rp = -(-rows // v) * v
            if rp != rows:
                blocks = np.concatenate([blocks, np.zeros((*lead, a, rp - rows, cols), dt)], axis=-2)
            from xesim.exec import vnni  # numba: imported when a packed load first runs

            out = vnni.pack(blocks, v)  # [..., a, rp/v, C, v]
        elif mode in ("transpose", "tnarrow"):
            out = np.swapaxes(blocks, -1, -2)
        else:  # tvnni: res[k][n][p] = T[n][v*k + p]
            out = np.swapaxes(blocks.reshape(*lead, a, rows, cols // v, v), -3, -2)
        return np.ascontiguousarray(out).reshape(*lead, *out_shape)

    if info is not None:
        info.update(plan=plan, rows=rows, width_units=width_units, mdt=mdt, per_unit=per_unit, check=check,
                    cols=a * cols, arrange=arrange, bits=bits)

    def step(fr: list) -> None:
        d: NdDesc = fr[s_td]
        off = get_off(fr)
        y = d.offsets[0] + off[0]
        x = d.offsets[1] + off[1]
        if not check:
            bad = _oob_region(d, x, y, rows, a * cols)
            if bad:
                raise ExecFault(bad)
        if per_unit > 1:
            if x % per_unit:
                raise ExecFault(f"the column offset {x} of a transposed {bits}-bit load must be a multiple of "
                                f"{per_unit} (it is loaded as 32-bit units)")
            xm = x // per_unit
        else:
            xm = x
        fr[res] = arrange(_load_2d_memory(engine, op, plan, d, xm, y, rows, width_units, mdt))

    return step


def _check_1d(engine: Any, op: Any, d: NdDesc, x: int, n: int, kind: str, check: bool) -> tuple[int, int]:
    """Validate a 1-D block access of ``n`` elements at column ``x`` (start alignment from the target's
    ``[block1d]``); return the in-surface element range."""
    if not check and (x < 0 or x + n > d.width):
        raise ExecFault(f"the {n}-element block at [{x}] reaches outside the {d.width}-element surface, but the "
                        f"descriptor has boundary_check = false (undefined behaviour)")
    target = engine.target
    key = "slm_alignment_bytes" if d.space is not engine.memory else f"{kind}_alignment_bytes"
    align = target.get(f"block1d.{key}")
    addr = d.base + x * d.elem_bytes
    if addr % align:
        msg = (f"1-D block {kind} at address 0x{addr:x} is not {align}-byte aligned "
               f"({target.source_of(f'block1d.{key}')})")
        if target.get("block1d.severity") == "error":
            raise ExecFault(msg)
        engine.warn(op, msg)
    return max(x, 0), min(x + n, d.width)


def _load_1d(op: Any, cx: Any, engine: Any, s_td: int, res: int, get_off: Any, dt: np.dtype, isz: int, w: int,
             a: int, check: bool, out_shape: tuple[int, ...]):
    n = w * a
    if int(np.prod(out_shape)) != n:
        raise compile_error(op, f"result does not hold the {a} x {w} elements of the descriptor")

    def step(fr: list) -> None:
        d: NdDesc = fr[s_td]
        x = d.offsets[0] + get_off(fr)[0]
        lo, hi = _check_1d(engine, op, d, x, n, "load", check)
        out = np.zeros(n, dt)
        if hi > lo:
            out[lo - x : hi - x] = d.space.read(d.base + lo * isz, (hi - lo) * isz).view(dt)
        fr[res] = out.reshape(out_shape)

    return step


@impl("xegpu.store_nd")
def _store_nd(op: Any, cx: Any):
    """Block store: the value's in-surface elements are written, the rest dropped (spec §1.4); 2-D tiles are
    split into legal store messages (at most 8 rows, 64 bytes wide on PVC, §1.3)."""
    _level_guard(op)
    val = _operand(op, "value")
    if _simt_value(op, _operand(op, "TensorDesc").type, val.type):
        raise compile_error(op, LANE_LEVEL)
    return compile_store_nd(op, cx, cx.slot(val))


def compile_store_nd(op: Any, cx: Any, s_val: int) -> Any:
    """The step of a ``store_nd`` storing the subgroup tile held in slot ``s_val`` (any shape with the
    descriptor's element count, in row-major memory order)."""
    engine = cx.engine
    td_v = _operand(op, "TensorDesc")
    td: T.TensorDescType = td_v.type
    dt, isz = _elem_info(op, td.element_type)
    s_td = cx.slot(td_v)
    get_off = _offsets_getter(cx, op, td.rank)
    check = td.boundary_check
    if td.rank == 1:
        w = td.shape[0]

        def step1(fr: list) -> None:
            d: NdDesc = fr[s_td]
            x = d.offsets[0] + get_off(fr)[0]
            lo, hi = _check_1d(engine, op, d, x, w, "store", check)
            if hi > lo:
                v = np.asarray(fr[s_val], dt).reshape(w)
                d.space.write(d.base + lo * isz, v[lo - x : hi - x])

        return step1
    rows, cols = td.shape
    plan = _BlockPlan(op, engine, isz, rows, cols, "store")

    def step(fr: list) -> None:
        from xesim.hw.block2d import store_values

        d: NdDesc = fr[s_td]
        off = get_off(fr)
        y = d.offsets[0] + off[0]
        x = d.offsets[1] + off[1]
        if not check:
            bad = _oob_region(d, x, y, rows, cols)
            if bad:
                raise ExecFault(bad)
        v = np.asarray(fr[s_val], dt).reshape(rows, cols)
        surf = _surface(d)
        check_msg = _checker(engine)
        for msg in plan.messages:
            blk = msg.block
            bx, by = x + msg.x_off, y + msg.y_off
            viol = check_msg(surf, blk, bx, by, "store")
            if viol:
                _report(engine, op, viol, f"2D block store of {blk.height}x{blk.width} at [{by}, {bx}]")
        if _store_in_place(engine, d, x, y, v, isz):
            return
        for msg in plan.messages:
            blk = msg.block
            bx, by = x + msg.x_off, y + msg.y_off
            part = v[msg.y_off : msg.y_off + blk.height, msg.x_off : msg.x_off + blk.width * blk.count]
            store_values(d.space, surf, blk, bx, by, part)

    return step


def _store_in_place(engine: Any, d: NdDesc, x: int, y: int, v: np.ndarray, isz: int) -> bool:
    """Write a validated store tile straight into memory when it lies wholly inside the surface and one live
    allocation: every element is then in bounds and the messages tile the block exactly, so memory ends up the
    same as with the block model's message-by-message stores (``REFERENCE_LOADS`` forces the model path, and so
    does ``--check-races``, whose detector watches the model's accesses)."""
    rows, cols = v.shape
    if REFERENCE_LOADS or engine.config.kernel_reference or engine.config.check_races:
        return False
    if x < 0 or y < 0 or (x + cols) * isz > d.width_bytes or y + rows > d.height:
        return False
    pitch = d.pitch_bytes
    start = d.base + y * pitch + x * isz
    try:
        alloc, off = d.space.resolve(start, (rows - 1) * pitch + cols * isz)
    except MemoryFault:
        return False
    if pitch % isz or off % isz:
        return False
    view = np.ndarray((rows, cols * isz), np.uint8, alloc.data, off, (pitch, 1))
    view[...] = np.ascontiguousarray(v).view(np.uint8).reshape(rows, cols * isz)
    return True


@impl("xegpu.prefetch_nd")
def _prefetch_nd(op: Any, cx: Any):
    """Prefetch: the messages are validated like loads; no architectural effect (spec §1.3 Prefetch)."""
    engine = cx.engine
    _level_guard(op)
    td_v = _operand(op, "TensorDesc")
    td: T.TensorDescType = td_v.type
    _, isz = _elem_info(op, td.element_type)
    s_td = cx.slot(td_v)
    get_off = _offsets_getter(cx, op, td.rank)
    if td.rank == 1:
        def step1(fr: list) -> None:
            d: NdDesc = fr[s_td]
            if d.space is not engine.memory:
                raise ExecFault("prefetch of a shared local memory descriptor (prefetch is for global memory)")

        return step1
    rows, cols = td.shape
    plan = _BlockPlan(op, engine, isz, rows, cols * td.array_length, "prefetch")

    def step(fr: list) -> None:
        d: NdDesc = fr[s_td]
        off = get_off(fr)
        y = d.offsets[0] + off[0]
        x = d.offsets[1] + off[1]
        surf = _surface(d)
        for msg in plan.messages:
            blk = msg.block
            bx, by = x + msg.x_off, y + msg.y_off
            viol = _checker(engine)(surf, blk, bx, by, "prefetch")
            if viol:
                _report(engine, op, viol, f"2D block prefetch of {blk.height}x{blk.width}x{blk.count} at [{by}, {bx}]")

    return step


# ============================================================================ scattered access
def _scatter_source(op: Any, cx: Any, src: Any, slm: bool):
    """Compile a scattered-access source (1-D memref or integer address): ``get(fr) -> (space, base,
    limit_elems | None, origin)``."""
    engine = cx.engine
    s = cx.slot(src)
    t = src.type
    if isinstance(t, T.MemRefType):
        _, isz = _elem_info(op, t.element_type)
        name = f"%{src.name}" if getattr(src, "name", None) else "the memref"

        def get_m(fr: list) -> tuple:
            m: MemRefValue = fr[s]
            n = 1
            for d in m.sizes:
                n *= d
            if m.rank == 1 and m.strides and m.strides[0] != 1:
                n = (m.sizes[0] - 1) * m.strides[0] + 1
            return m.space, m.aligned + m.offset * isz, n, name

        return get_m
    if isinstance(t, (T.IntegerType, T.IndexType)):
        def get_p(fr: list) -> tuple:
            addr = int(fr[s]) & ADDR_MASK
            space = _space_of(engine, slm)
            return space, addr, None, f"address 0x{addr:x}"

        return get_p
    raise compile_error(op, f"unsupported scattered source type {t}")


def _lane_check(space: Any, base: int, offs: np.ndarray, mask: np.ndarray, chunk: int, isz: int,
                limit: int | None, origin: str) -> None:
    """Every unmasked lane's ``chunk`` elements lie inside the source: its memref (element range) or, for a
    raw address, one live allocation.  The fault names the lane (spec §6 item 16: undefined on hardware)."""
    flat_o = offs.reshape(-1)
    flat_m = mask.reshape(-1)
    if limit is not None:
        bad = np.nonzero(flat_m & ((flat_o < 0) | (flat_o + chunk > limit)))[0]
        if bad.size:
            i = int(bad[0])
            o = int(flat_o[i])
            raise ExecFault(f"lane {i}: elements [{o}, {o + chunk}) are out of bounds of {origin} "
                            f"({limit} elements); the lane is not masked off")
        return
    for i in np.nonzero(flat_m)[0]:
        o = int(flat_o[i])
        try:
            space.resolve(base + o * isz, chunk * isz)
        except MemoryFault as exc:
            raise ExecFault(f"lane {int(i)}: element offset {o} from {origin}: {exc}") from None


def _scatter_checks(engine: Any, op: Any, isz: int, chunk: int, lanes: int, space: Any, kind: str,
                    base: int, offs: np.ndarray, mask: np.ndarray) -> int:
    """The message rules (``check_scatter``) and natural alignment (``check_alignment``) of a scattered access;
    returns the address width of the space (``[scatter]`` target parameters, spec §2.1–§2.3)."""
    from xesim.hw.scatter import check_alignment, check_scatter

    if "layout" in op.attributes:  # workgroup level: one message per instruction tile (xesim/exec/workgroup.py)
        from xesim.exec.workgroup import scatter_message_lanes

        lanes = scatter_message_lanes(op, tuple(offs.shape), chunk, lanes)
    target = engine.target
    slm = space is not engine.memory
    bits = target.scatter.slm_address_bits if slm else 64
    _report(engine, op, check_scatter(target, isz, chunk, lanes, "slm" if slm else "global", kind),
            f"scattered {kind} of {lanes} lanes x {chunk} elements")
    if target.scatter.natural_alignment:
        _report(engine, op, check_alignment(base, offs.reshape(-1), mask.reshape(-1), isz, address_bits=bits,
                                            severity=target.scatter.severity.alignment), f"scattered {kind}")
    return bits


def _lane_fault(exc: Exception) -> ExecFault:
    lane = getattr(exc, "lane", None)
    if lane is None:
        return ExecFault(str(exc))
    return ExecFault(f"lane {lane} (address 0x{exc.address:x}) is not masked off but: {exc}")  # type: ignore[attr-defined]


@impl("xegpu.create_tdesc")
def _create_tdesc(op: Any, cx: Any):
    """Scattered descriptor: base + per-lane element offsets (+ chunk size from the type)."""
    _level_guard(op)
    src = _operand(op, "source")
    td: T.TensorDescType = op.results[0].type
    _, isz = _elem_info(op, td.element_type)
    get_src = _scatter_source(op, cx, src, td.memory_space == "slm")
    s_off = cx.slot(_operand(op, "offsets"))
    res = cx.slot(op.results[0])
    chunk = td.chunk_size

    def step(fr: list) -> None:
        space, base, limit, origin = get_src(fr)
        offs = np.asarray(fr[s_off], np.int64).copy()
        fr[res] = ScatterDesc(space, base, offs, chunk, isz, limit, origin)

    return step


@impl("xegpu.update_offset")
def _update_offset(op: Any, cx: Any):
    """A scattered descriptor with its per-lane offsets moved."""
    s_td = cx.slot(_operand(op, "TensorDesc"))
    s_off = cx.slot(_operand(op, "offsets"))
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[res] = fr[s_td].moved(np.asarray(fr[s_off], np.int64))

    return step


def _scatter_operands(op: Any, cx: Any, src_name: str, vt: Any):
    """Common decoding of xegpu.load / store / prefetch: returns ``get(fr) -> (space, base, offsets, limit,
    origin)`` plus the element info, chunk, lane shape and the legacy transpose flag."""
    src = _operand(op, src_name)
    st = src.type
    offsets = _operand(op, "offsets")
    if isinstance(st, T.TensorDescType):
        if not st.is_scattered:
            raise compile_error(op, "expects a scattered tensor descriptor")
        _, isz = _elem_info(op, st.element_type)
        chunk = st.chunk_size
        lane_shape = tuple(st.shape[:-1]) if chunk > 1 else tuple(st.shape)
        s = cx.slot(src)

        def get_td(fr: list) -> tuple:
            d: ScatterDesc = fr[s]
            return d.space, d.base, d.offsets, d.limit, d.origin

        return get_td, isz, chunk, lane_shape
    if offsets is None:
        raise compile_error(op, "expects offsets")
    if not isinstance(offsets.type, T.VectorType):
        raise compile_error(op, LANE_LEVEL)
    et = st.element_type if isinstance(st, T.MemRefType) else T.element_type_of(vt) if vt is not None else T.I8
    _, isz = _elem_info(op, et)
    chunk = A.attr_int(op.attributes.get("chunk_size"), 1) or 1
    lane_shape = tuple(offsets.type.shape)
    get_src = _scatter_source(op, cx, src, False)
    s_off = cx.slot(offsets)

    def get_buf(fr: list) -> tuple:
        space, base, limit, origin = get_src(fr)
        return space, base, np.asarray(fr[s_off], np.int64), limit, origin

    return get_buf, isz, chunk, lane_shape


def _mask_getter(cx: Any, op: Any, lane_shape: tuple[int, ...]):
    m = _operand(op, "mask")
    if not isinstance(m.type, T.VectorType):
        s = cx.slot(m)
        return lambda fr: np.full(lane_shape, bool(fr[s]))
    s = cx.slot(m)
    if m.type.num_elements == 1 and tuple(m.type.shape) != lane_shape:
        return lambda fr: np.full(lane_shape, bool(np.asarray(fr[s]).reshape(-1)[0]))
    return lambda fr: np.asarray(fr[s], bool)


@impl("xegpu.load")
def _load(op: Any, cx: Any):
    """Gather: ``[lanes, chunk]`` elements, 0 for masked-off lanes (spec §3.3 Scatter)."""
    engine = cx.engine
    _level_guard(op)
    vt = op.results[0].type
    if not isinstance(vt, T.VectorType) or not isinstance(_operand(op, "mask").type, T.VectorType):
        raise compile_error(op, LANE_LEVEL)
    get, isz, chunk, lane_shape = _scatter_operands(op, cx, "source", vt)
    if isinstance(_operand(op, "source").type, T.TensorDescType):
        td = _operand(op, "source").type
        if chunk > 1 and vt.rank == 1 and vt.num_elements == chunk and td.num_elements > chunk:
            raise compile_error(op, LANE_LEVEL)
    dt = dtype_of(vt.element_type)
    get_mask = _mask_getter(cx, op, lane_shape)
    res = cx.slot(op.results[0])
    lanes = int(np.prod(lane_shape))
    transposed = "transpose" in op.attributes
    out_shape = tuple(vt.shape)

    masked = engine.target.scatter.masked_load_value
    zeros = np.zeros((lanes, chunk), dt)

    def step(fr: list) -> None:
        from xesim.hw.scatter import gather

        space, base, offs, limit, origin = get(fr)
        mask = get_mask(fr)
        _lane_check(space, base, offs, mask, chunk, isz, limit, origin)
        bits = _scatter_checks(engine, op, isz, chunk, lanes, space, "load", base, offs, mask)
        try:
            # "unchanged" keeps the destination registers, which an SSA result does not have: they read 0
            vals = gather(space, base, offs.reshape(-1), mask.reshape(-1), chunk, dt, masked_value=masked,
                          previous=zeros, address_bits=bits)
        except MemoryFault as exc:
            raise _lane_fault(exc) from None
        vals = np.asarray(vals).reshape(lanes, chunk)
        if transposed:
            vals = vals.T
        fr[res] = np.ascontiguousarray(vals).reshape(out_shape)

    return step


@impl("xegpu.store")
def _store(op: Any, cx: Any):
    """Scatter: unmasked lanes write their ``chunk`` elements (spec §3.3 Scatter)."""
    engine = cx.engine
    _level_guard(op)
    val = _operand(op, "value")
    vt = val.type
    if not isinstance(vt, T.VectorType) or not isinstance(_operand(op, "mask").type, T.VectorType):
        raise compile_error(op, LANE_LEVEL)
    get, isz, chunk, lane_shape = _scatter_operands(op, cx, "dest", vt)
    if isinstance(_operand(op, "dest").type, T.TensorDescType):
        td = _operand(op, "dest").type
        if chunk > 1 and vt.rank == 1 and vt.num_elements == chunk and td.num_elements > chunk:
            raise compile_error(op, LANE_LEVEL)
    dt = dtype_of(vt.element_type)
    get_mask = _mask_getter(cx, op, lane_shape)
    s_val = cx.slot(val)
    lanes = int(np.prod(lane_shape))
    transposed = "transpose" in op.attributes

    order = engine.target.scatter.store_lane_order

    def step(fr: list) -> None:
        from xesim.hw.scatter import scatter

        space, base, offs, limit, origin = get(fr)
        mask = get_mask(fr)
        _lane_check(space, base, offs, mask, chunk, isz, limit, origin)
        bits = _scatter_checks(engine, op, isz, chunk, lanes, space, "store", base, offs, mask)
        v = np.asarray(fr[s_val], dt)
        v = v.T if transposed else v
        try:
            scatter(space, base, offs.reshape(-1), mask.reshape(-1), chunk,
                    np.ascontiguousarray(v).reshape(lanes, chunk), lane_order=order, address_bits=bits)
        except MemoryFault as exc:
            raise _lane_fault(exc) from None

    return step


@impl("xegpu.prefetch")
def _prefetch(op: Any, cx: Any):
    """Scattered prefetch: no architectural effect (the addresses are not checked: prefetches of bad
    addresses are dropped by the hardware)."""
    _level_guard(op)
    src = _operand(op, "source")
    offsets = _operand(op, "offsets")
    if offsets is not None and not isinstance(offsets.type, T.VectorType):
        raise compile_error(op, LANE_LEVEL)
    if not isinstance(src.type, (T.TensorDescType, T.MemRefType, T.IntegerType, T.IndexType)):
        raise compile_error(op, f"unsupported prefetch source {src.type}")
    return None


_INT_KINDS = {"addi", "andi", "maxs", "maxu", "mins", "minu", "muli", "ori", "xori"}


@impl("xegpu.atomic_rmw")
def _atomic_rmw(op: Any, cx: Any):
    """Atomic read-modify-write per element under the mask; returns the old values (spec §2.4)."""
    engine = cx.engine
    _level_guard(op)
    td_v = _operand(op, "tensorDesc")
    td: T.TensorDescType = td_v.type
    val = _operand(op, "value")
    vt = val.type
    chunk = td.chunk_size
    if vt.rank == 1 and vt.num_elements == chunk and td.num_elements > chunk:
        raise compile_error(op, LANE_LEVEL)
    kind = enum_text(op, "kind")
    et = td.element_type
    dt, isz = _elem_info(op, et)
    dtype_name = str(et)  # MLIR spelling (i32, ui32, f16, ...), as atomics.type_name reads it
    lane_shape = tuple(td.shape[:-1]) if chunk > 1 else tuple(td.shape)
    lanes = int(np.prod(lane_shape))
    get_mask = _mask_getter(cx, op, lane_shape)
    s_td, s_val = cx.slot(td_v), cx.slot(val)
    res = cx.slot(op.results[0])
    out_shape = tuple(vt.shape)
    noted: set[str] = set()
    target = engine.target
    ks = engine.kstate

    def step(fr: list) -> None:
        from xesim.hw.atomics import atomic_lane_mask, atomic_notes, atomic_options, atomic_rmw

        d: ScatterDesc = fr[s_td]
        mask = get_mask(fr).reshape(-1)
        # VC programs go through IMEX's VC lowering, which honours the mask; otherwise the target decides
        # (atomics.honour_mask: the upstream XeGPU->XeVM lowering ignores it, spec §6 item 8)
        if ks.level != "vc":
            mask = atomic_lane_mask(target, mask, lanes)
        _lane_check(d.space, d.base, d.offsets, mask, chunk, isz, d.limit, d.origin)
        slm = d.space is not engine.memory
        sname = "slm" if slm else "global"
        if sname not in noted:
            noted.add(sname)
            try:
                texts = atomic_notes(target, kind, dtype_name, sname)
            except ValueError as exc:
                raise ExecFault(str(exc)) from None
            for text in texts:
                _note(engine, f"{op.loc}: {text}")
        offs = d.offsets.reshape(lanes, 1)
        if chunk > 1:
            offs = offs + np.arange(chunk, dtype=np.int64)[None, :]
        m = np.repeat(mask.reshape(lanes, 1), chunk, axis=1)
        v = np.asarray(fr[s_val], dt).reshape(lanes * chunk)
        try:
            old = atomic_rmw(d.space, d.base, offs.reshape(-1), m.reshape(-1), kind, v, dt,
                             address_bits=target.scatter.slm_address_bits if slm else 64, **atomic_options(target))
        except MemoryFault as exc:
            raise _lane_fault(exc) from None
        except ValueError as exc:
            raise ExecFault(str(exc)) from None
        fr[res] = np.asarray(old, dt).reshape(out_shape)

    return step


# ============================================================================ dpas
def _type_name(t: T.Type) -> str:
    """DPAS / atomics type name of an MLIR element type (signless integers are signed)."""
    if isinstance(t, T.FloatType):
        return t.name
    if isinstance(t, T.IntegerType):
        return f"{'u' if t.signedness == 'u' else 's'}{t.width}"
    return str(t)


@impl("xegpu.dpas")
def _dpas(op: Any, cx: Any):
    """``D = A·B + C`` by the target's DPAS model (spec/pvc-hardware.md §3, spec/dpas-numerics.md)."""
    from xesim.numerics.dpas import dpas, model_from_target

    engine = cx.engine
    _level_guard(op)
    lhs, rhs, acc = _operand(op, "lhs"), _operand(op, "rhs"), _operand(op, "acc")
    lt, bt, rt = lhs.type, rhs.type, op.results[0].type
    if lt.rank == 1 and bt.rank == 1 and rt.rank == 1:
        raise compile_error(op, LANE_LEVEL)
    a_name, b_name, d_name = _type_name(lt.element_type), _type_name(bt.element_type), _type_name(rt.element_type)
    c_name = _type_name(acc.type.element_type) if acc is not None else d_name
    try:
        model = model_from_target(engine.target, engine.config.dpas_model)
    except (ValueError, KeyError) as exc:
        raise compile_error(op, f"no DPAS model: {exc}") from None
    m, k = lt.shape
    n = rt.shape[1]
    vnni = bt.rank == 3
    s_a, s_b = cx.slot(lhs), cx.slot(rhs)
    s_c = cx.slot(acc) if acc is not None else None
    res = cx.slot(op.results[0])
    rdt = dtype_of(rt.element_type)
    target = engine.target

    def step(fr: list) -> None:
        b = fr[s_b]
        if vnni:
            b = b.transpose(0, 2, 1).reshape(k, n)
        c = fr[s_c] if s_c is not None else None  # no accumulator = the null Src0 register (+0)
        try:
            d = dpas(fr[s_a], b, c, a_name, b_name, c_name, d_name, model, target)
        except ValueError as exc:
            raise ExecFault(str(exc)) from None
        fr[res] = np.asarray(d).astype(rdt, copy=False).reshape(m, n)

    return step


@impl("xegpu.dpas_mx")
def _dpas_mx(op: Any, cx: Any):
    raise compile_error(op, "block-scaled DPAS (dpas_mx) is not supported yet")


# ============================================================================ misc
@impl("xegpu.convert_layout")
def _convert_layout(op: Any, cx: Any):
    """Identity on values (spec §3.3); the layouts only steer distribution."""
    src = cx.slot(_operand(op, "source"))
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[res] = fr[src]

    return step


@impl("xegpu.compile_hint")
def _compile_hint(op: Any, cx: Any):
    return None


@impl("xegpu.fence")
def _fence(op: Any, cx: Any):
    """Memory fence: the simulator is sequentially consistent, so no value effect (spec §4.3); the memory
    kind and scope are checked when compiled."""
    kind = enum_text(op, "memory_kind")
    scope = enum_text(op, "fence_scope")
    if kind not in ("global", "slm") or scope not in ("workgroup", "gpu"):
        raise compile_error(op, f"unknown fence memory_kind {kind} / fence_scope {scope}")
    ks = cx.engine.kstate

    def step(fr: list) -> None:
        ks.yield_point(op)  # no value effect (sequentially consistent memory); a scheduling point

    return step


# ============================================================================ named barriers
@impl("xegpu.alloc_nbarrier")
def _alloc_nbarrier(op: Any, cx: Any):
    """Allocates named barriers for the workgroup; at most ``nbarrier.count`` (PVC: 32, spec §4.1)."""
    engine = cx.engine
    n = A.attr_int(op.attributes.get("nbarrier_num"), 0) or 0
    limit = engine.target.nbarrier.count
    if not 1 <= n <= limit:
        raise compile_error(op, f"{n} named barriers requested; the target has {limit} "
                                f"({engine.target.source_of('nbarrier.count')})")
    ks = engine.kstate

    def step(fr: list) -> None:
        ks.__dict__["nbarrier_count"] = (ks.kernel_name, ks.block_id, n)  # per workgroup of this launch

    return step


@impl("xegpu.init_nbarrier")
def _init_nbarrier(op: Any, cx: Any):
    """Binds barrier ``nbarrier_id`` shared by ``participant_thread_num`` threads (subgroups)."""
    engine = cx.engine
    ks = engine.kstate
    s_id = cx.slot(_operand(op, "nbarrier_id"))
    s_n = cx.slot(_operand(op, "participant_thread_num"))
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        bid, n = int(fr[s_id]) & 0xFF, int(fr[s_n]) & 0xFF
        alloc = ks.__dict__.get("nbarrier_count")
        if alloc is not None and alloc[:2] == (ks.kernel_name, ks.block_id):
            limit = alloc[2]
        else:  # no xegpu.alloc_nbarrier in this workgroup: the target's count bounds the id
            limit = engine.target.nbarrier.count
        if bid >= limit:
            raise ExecFault(f"named barrier id {bid} is not below the {limit} barriers allocated")
        if n < 1:
            raise ExecFault(f"a named barrier needs at least one participating thread, got {n}")
        fr[res] = NamedBarrier(bid, n)

    return step


@impl("xegpu.nbarrier_arrive")
def _nbarrier_arrive(op: Any, cx: Any):
    """Signal the named barrier (spec/pvc-hardware.md §4.1): counts towards the current phase."""
    ks = cx.engine.kstate
    s = cx.slot(_operand(op, "nbarrier"))

    def step(fr: list) -> None:
        nb: NamedBarrier = fr[s]
        ks.nbarrier_arrive(nb.barrier_id, nb.participants, op)

    return step


@impl("xegpu.nbarrier_wait")
def _nbarrier_wait(op: Any, cx: Any):
    """Wait until the phase this thread signalled in has been signalled by all participants (§4.1); a wait
    without a preceding signal is an error; the scheduler yields here."""
    ks = cx.engine.kstate
    s = cx.slot(_operand(op, "nbarrier"))

    def step(fr: list) -> None:
        nb: NamedBarrier = fr[s]
        ks.nbarrier_wait(nb.barrier_id, op)

    return step


# ============================================================================ SLM matrices
def _mem_layout(t: T.MemDescType) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    ml = t.mem_layout
    if not isinstance(ml, A.DialectAttr):
        return None, None
    st, bl = ml.get_param("stride"), ml.get_param("block")
    return (tuple(A.int_list(st)) if st is not None else None, tuple(A.int_list(bl)) if bl is not None else None)


@impl("xegpu.create_mem_desc")
def _create_mem_desc(op: Any, cx: Any):
    """A matrix view of an SLM byte buffer with ``#xegpu.mem_layout<stride, block>`` (row-major default)."""
    src = _operand(op, "source")
    md: T.MemDescType = op.results[0].type
    _, isz = _elem_info(op, md.element_type)
    stride, block = _mem_layout(md)
    shape = tuple(md.shape)
    strides, blk = blocked_strides(shape, stride, block)
    s = cx.slot(src)
    res = cx.slot(op.results[0])
    name = f"%{src.name}" if getattr(src, "name", None) else "the buffer"

    def step(fr: list) -> None:
        m: MemRefValue = fr[s]
        nbytes = 1
        for d in m.sizes:
            nbytes *= d
        fr[res] = MemDesc(m.space, m.aligned + m.offset, shape, strides, blk, (0,) * len(shape), isz, nbytes, name)

    return step


@impl("xegpu.mem_desc_subview")
def _mem_desc_subview(op: Any, cx: Any):
    """A view at the given offsets; a lower-rank result keeps the source's trailing dimensions."""
    s = cx.slot(_operand(op, "src"))
    res = cx.slot(op.results[0])
    get_off, _ = mixed_list(cx, op, ("offsets",), ("const_offsets",))

    def step(fr: list) -> None:
        d: MemDesc = fr[s]
        offs = get_off(fr)
        n = len(d.coords)
        coords = tuple(c + o for c, o in zip(d.coords, list(offs)[-n:]))
        fr[res] = MemDesc(d.space, d.base, d.root_shape, d.strides, d.block, coords, d.elem_bytes,
                          d.limit_bytes, d.origin)

    return step


def _matrix_access(op: Any, cx: Any, md_v: Any, vt: Any):
    md: T.MemDescType = md_v.type
    if not isinstance(vt, T.VectorType) or vt.rank != 2:
        raise compile_error(op, LANE_LEVEL)
    lay = op.attributes.get("layout")
    if lay is not None:
        from xesim.verify import xegpu_layout as xl

        if xl.is_layout_attr(lay) and xl.read_layout(lay).is_for_workgroup:
            raise compile_error(op, WG_LEVEL)
    dt, isz = _elem_info(op, md.element_type)
    s = cx.slot(md_v)
    get_off, _ = mixed_list(cx, op, ("offsets",), ("const_offsets",))
    rows, cols = vt.shape
    rr = np.arange(rows, dtype=np.int64)[:, None]
    cc = np.arange(cols, dtype=np.int64)[None, :]
    view_rank = md.rank

    def addresses(fr: list) -> tuple[MemDesc, np.ndarray]:
        d: MemDesc = fr[s]
        offs = list(get_off(fr))
        root_rank = len(d.root_shape)
        full = list(d.coords)
        for i, o in enumerate(offs):
            full[root_rank - view_rank + i] += o
        y0, x0 = full[-2], full[-1]
        if y0 < 0 or x0 < 0 or y0 + rows > d.root_shape[-2] or x0 + cols > d.root_shape[-1]:
            raise ExecFault(f"the {rows}x{cols} block at [{y0}, {x0}] is outside the "
                            f"{d.root_shape[-2]}x{d.root_shape[-1]} matrix")
        lin = linear_offsets(d.strides, d.block, rr + y0, cc + x0, tuple(full[:-2]))
        if lin.min() < 0 or (lin.max() + 1) * isz > d.limit_bytes:
            raise ExecFault(f"the block at [{y0}, {x0}] reaches outside the {d.limit_bytes}-byte buffer {d.origin}")
        return d, lin

    return addresses, dt, isz


@impl("xegpu.load_matrix")
def _load_matrix(op: Any, cx: Any):
    """Load a 2-D block of an SLM matrix (element-wise through the mem_layout)."""
    md_v = _operand(op, "mem_desc")
    vt = op.results[0].type
    addresses, dt, isz = _matrix_access(op, cx, md_v, vt)
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        d, lin = addresses(fr)
        lo, hi = int(lin.min()), int(lin.max()) + 1
        raw = d.space.read(d.base + lo * isz, (hi - lo) * isz).view(dt)
        fr[res] = raw[lin - lo].copy()

    return step


@impl("xegpu.store_matrix")
def _store_matrix(op: Any, cx: Any):
    """Store a 2-D block into an SLM matrix (element-wise through the mem_layout)."""
    md_v = _operand(op, "mem_desc")
    val = _operand(op, "data")
    addresses, dt, isz = _matrix_access(op, cx, md_v, val.type)
    s_val = cx.slot(val)

    def step(fr: list) -> None:
        d, lin = addresses(fr)
        lo, hi = int(lin.min()), int(lin.max()) + 1
        raw = d.space.read(d.base + lo * isz, (hi - lo) * isz).view(dt).copy()
        raw[lin - lo] = np.asarray(fr[s_val], dt)
        d.space.write(d.base + lo * isz, raw)

    return step
