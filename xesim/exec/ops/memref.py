"""memref dialect semantics (MLIR ``memref`` dialect docs; ARCHITECTURE.md "Values and memory";
spec/programs-and-runner.md §1.1 (descriptor offset/sizes/strides as printMemref shows them) and §3.2
(host-side facts: flat integer addresses, zero-filled allocations, SLM in address space 3)).

A memref value is a :class:`xesim.exec.values.MemRefValue` descriptor (MLIR's runtime ABI: allocation,
aligned pointer, offset, sizes, strides, in elements).  Memory lives in an
:class:`xesim.hw.memory.AddressSpace`:

* host code and kernel code use ``engine.memory`` (the global space);
* inside a kernel (``engine.kstate.active``) a memref in address space 3 / ``#gpu.address_space<workgroup>``
  is shared local memory: each ``memref.alloc`` / ``memref.alloca`` op allocates it once per workgroup in
  ``kstate.slm`` (cached in ``kstate.slm_allocs[id(op)]`` so that every subgroup of the workgroup sees the
  same buffer); ``memref.dealloc`` of SLM is a no-op (the workgroup's SLM dies with the workgroup).

Every allocation is aligned to at least 64 bytes (more when the op's ``alignment`` asks), zero-filled and
labelled with the result's SSA name for error messages.  Accesses (``memref.load`` / ``memref.store``,
``vector.load`` / ``vector.store`` / transfers in :mod:`xesim.exec.ops.vector`) check every index against
its dimension and fault with a message naming the index, the dimension size, the address and the
allocation's extent; use after ``memref.dealloc`` and double frees are faults too.

Decisions where MLIR leaves behaviour undefined (each reported, never silently given a value):
* a subview that reaches outside its source's sizes, ``memref.dim`` with an out-of-range index, a
  ``memref.cast`` to a static shape the runtime sizes do not have, ``memref.copy`` between different
  shapes: ExecFault.
* ``memref.alloca`` memory is not released when its scope ends (it stays valid; each execution of the op
  allocates afresh); ``memref.dealloc`` of alloca or global memory: ExecFault.
* constant ``memref.global`` memory is not write-protected.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xesim.diagnostics import Diagnostic, DiagnosticError
from xesim.exec.axis import Varying, lift
from xesim.exec.faults import ExecFault
from xesim.exec.registry import impl
from xesim.exec.values import MemRefValue, dtype_of, identity_strides, is_workgroup_space, wrap_int
from xesim.hw.memory import MemoryFault
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias

DYNAMIC_INDEX = -(2**63)  # MLIR's ShapedType::kDynamic in static offset/size/stride lists
MIN_ALIGNMENT = 64


# ============================================================================ compile-time helpers
def compile_error(op: Any, message: str) -> DiagnosticError:
    """A located error raised while compiling ``op`` (unsupported form)."""
    return DiagnosticError(Diagnostic("error", op.loc, f"'{op.name}' op {message}"))


def group(op: Any, *names: str) -> list:
    """Operands of the first named operand group that the op definition has (names follow upstream MLIR;
    alternatives cover older spellings)."""
    for n in names:
        try:
            return op.operand_group(n)
        except KeyError:
            continue
    raise compile_error(op, f"has no operand group named {' or '.join(names)}")


def opt_operand(op: Any, *names: str) -> Any:
    try:
        g = group(op, *names)
    except DiagnosticError:
        return None
    return g[0] if g else None


def int_list_attr(op: Any, *names: str) -> list[int] | None:
    for n in names:
        a = op.attributes.get(n)
        if a is not None:
            return A.int_list(a)
    return None


def enum_text(op: Any, name: str, default: str | None = None) -> str | None:
    """The case name of an enum attribute, whatever its stored form (integer index, ``#dialect.attr<case>``,
    bare keyword, string)."""
    a = op.attributes.get(name)
    if a is None:
        return default
    if isinstance(a, A.DialectAttr):
        p = a.positional(0)
        if p is not None:
            return str(p)
        return a.name
    if isinstance(a, A.EnumValue):
        return a.enum_value
    if isinstance(a, A.StringAttr):
        return a.value
    if isinstance(a, A.IntegerAttr):
        ad = op.opdef.attr_by_name.get(name) if op.opdef is not None else None
        if ad is not None and ad.enum is not None:
            from xesim.ir.opdefs import load_registry

            cases = load_registry().enums[ad.enum].cases
            if 0 <= a.value < len(cases):
                return cases[a.value]
        return str(a.value)
    text = str(a)
    if "<" in text and text.endswith(">"):
        return text[text.index("<") + 1 : -1].strip()
    return text


def mixed_list(cx: Any, op: Any, dyn_names: tuple[str, ...], static_names: tuple[str, ...]) -> Any:
    """Compile a static-or-dynamic index list (``static_offsets`` + ``offsets`` operands).  Returns
    ``get(fr) -> list[int]`` and the static list (DYNAMIC_INDEX entries are dynamic)."""
    template, static = mixed_list_template(cx, op, dyn_names, static_names)
    if DYNAMIC_INDEX not in static:
        const = list(static)
        return (lambda fr: const), static

    def get(fr: list) -> list[int]:
        return [fr[v] if d else v for d, v in template]

    return get, static


def mixed_list_template(cx: Any, op: Any, dyn_names: tuple[str, ...], static_names: tuple[str, ...]
                        ) -> tuple[list[tuple[bool, int]], list[int]]:
    """Per entry of a static-or-dynamic index list, ``(True, slot)`` (the value of an operand) or ``(False,
    value)``; and the static list (DYNAMIC_INDEX entries are dynamic)."""
    static = int_list_attr(op, *static_names)
    try:
        dyn = cx.slots(group(op, *dyn_names))
    except DiagnosticError:
        dyn = []
    if static is None:
        static = [DYNAMIC_INDEX] * len(dyn)
    it = iter(dyn)
    return [(True, next(it)) if s == DYNAMIC_INDEX else (False, s) for s in static], static


def type_layout(t: Any) -> tuple[tuple[int, ...], int]:
    """Strides and offset a ranked memref type implies (``T.DYNAMIC`` where unknown): identity layouts give
    the canonical row-major strides (spec §1.1), ``strided<[...], offset: o>`` its values."""
    layout = t.layout
    if layout is None or (isinstance(layout, A.AffineMapAttr) and layout.map.is_identity):
        if T.DYNAMIC in t.shape:
            strides = []
            acc: int | None = 1
            for d in reversed(t.shape):
                strides.append(T.DYNAMIC if acc is None else acc)
                acc = None if (acc is None or d == T.DYNAMIC) else acc * d
            return tuple(reversed(strides)), 0
        return identity_strides(t.shape), 0
    if isinstance(layout, A.StridedLayoutAttr):
        return tuple(layout.strides), layout.offset
    if isinstance(layout, A.AffineMapAttr):
        return _affine_strides(layout.map, t.rank)
    raise NotImplementedError(f"memref layout {layout} is not supported")


def _affine_strides(m: Any, rank: int) -> tuple[tuple[int, ...], int]:
    """Strides/offset of a linear single-result affine layout map (``d0 * 16 + d1 + s0``)."""
    from xesim.ir import affine as F  # noqa: N812

    if len(m.results) != 1:
        raise NotImplementedError(f"layout map {m} is not a strided layout")
    strides = [0] * rank
    offset = [0]

    def visit(e: Any, scale: int | None) -> None:
        if isinstance(e, F.Dim):
            strides[e.index] = T.DYNAMIC if scale is None else strides[e.index] + scale
        elif isinstance(e, F.Sym):
            offset[0] = T.DYNAMIC
        elif isinstance(e, F.Const):
            if offset[0] != T.DYNAMIC:
                offset[0] += e.value * (1 if scale is None else scale)
        elif isinstance(e, F.BinOp) and e.op == "+":
            visit(e.lhs, scale)
            visit(e.rhs, scale)
        elif isinstance(e, F.BinOp) and e.op == "*":
            if isinstance(e.rhs, F.Const):
                visit(e.lhs, None if scale is None else scale * e.rhs.value)
            elif isinstance(e.lhs, F.Const):
                visit(e.rhs, None if scale is None else scale * e.lhs.value)
            else:
                visit(e.lhs, None)
        else:
            raise NotImplementedError(f"layout map {m} is not a strided layout")

    visit(m.results[0], 1)
    return tuple(strides), offset[0]


def label_of(op: Any) -> str:
    r = op.results[0] if op.results else None
    return f"%{r.name}" if r is not None and r.name else op.name


# ============================================================================ run-time access helpers
def fault(exc: MemoryFault) -> ExecFault:
    return ExecFault(str(exc))


def typed_view(m: MemRefValue) -> tuple[np.ndarray, int]:
    """``(view, e0)``: a typed numpy view of ``m``'s allocation and the index in it of ``m``'s element 0
    (aligned pointer + offset).  Cached on the descriptor (on the allocation, per bank, for a banked one); raises
    the address space's use-after-free / unknown-address fault when the allocation is not live."""
    c = m.__dict__.get("_xs_tv")
    if c is not None:
        if c[2].alive:
            return c[0], c[1]
    a = m.alloc
    dt = m.dtype
    isz = dt.itemsize
    if a is None or not a.alive:
        try:
            m.space.resolve(m.aligned + m.offset * isz, isz)
        except MemoryFault as exc:
            raise fault(exc) from None
        raise ExecFault(f"access through a memref that has no allocation (address 0x{m.aligned:x})")
    shift = (m.aligned - a.base) % isz
    key = (dt.str, shift, a.bank()) if a.banked else (dt.str, shift)  # a view of the current bank's copy
    view = a.extra.get(key)
    if view is None:
        n = (a.size - shift) // isz
        view = a.data[shift : shift + n * isz].view(dt) if n > 0 else np.zeros(0, dt)
        a.extra[key] = view
    e0 = (m.aligned - a.base - shift) // isz + m.offset
    if not a.banked:
        m.__dict__["_xs_tv"] = (view, e0, a)
    return view, e0


def oob_index(m: MemRefValue, idx: list | tuple, what: str = "index") -> ExecFault:
    """The fault for a multi-index outside ``m``'s sizes (names the index, the dimension, its size, the
    address and the allocation's extent)."""
    bad = [d for d, (i, s) in enumerate(zip(idx, m.sizes)) if not 0 <= i < s]
    d = bad[0] if bad else 0
    i, s = idx[d], m.sizes[d]
    addr = m.element_address(idx)
    where = m.alloc.describe() if m.alloc is not None else f"{m.space.name} memory"
    return ExecFault(
        f"{what} {i} is out of bounds for dimension {d} of size {s} "
        f"(indices [{', '.join(map(str, idx))}], address 0x{addr:x}, {where})"
    )


def outside_alloc(m: MemRefValue, e: int, view: np.ndarray) -> ExecFault:
    """The fault for element ``e`` of ``view`` lying outside the allocation (a descriptor made by
    reinterpret_cast can reach past its buffer)."""
    shift = (m.aligned - m.alloc.base) % m.itemsize if m.alloc is not None else 0
    addr = m.alloc.base + shift + e * m.itemsize if m.alloc is not None else m.aligned
    where = m.alloc.describe() if m.alloc is not None else "memory"
    return ExecFault(f"access at 0x{addr:x} is outside {where}")


def scalar_reader(t: T.Type):
    """Convert an element read from a typed view to the runtime scalar representation."""
    if isinstance(t, T.FloatType):
        return None  # numpy scalar as is
    return int


def elem_dtype(op: Any, t: T.Type) -> np.dtype:
    try:
        return dtype_of(t)
    except NotImplementedError as exc:
        raise compile_error(op, str(exc)) from None


# ============================================================================ allocation
def _alloc_common(op: Any, cx: Any, kind: str, stack: bool = False):
    engine = cx.engine
    t = op.results[0].type
    et = t.element_type
    dt = elem_dtype(op, et)
    try:
        ty_strides, ty_offset = type_layout(t)
    except NotImplementedError as exc:
        raise compile_error(op, str(exc)) from None
    dyn = cx.slots(group(op, "dynamicSizes", "dynamic_sizes"))
    res = cx.slot(op.results[0])
    label = label_of(op)
    align = A.attr_int(op.attributes.get("alignment"), 0) or 0
    align = max(align, MIN_ALIGNMENT)
    shape = t.shape
    identity = t.layout is None or (isinstance(t.layout, A.AffineMapAttr) and t.layout.map.is_identity)
    if not identity and (T.DYNAMIC in ty_strides or ty_offset == T.DYNAMIC):
        raise compile_error(op, f"cannot allocate a memref with a dynamic layout ({t})")
    slm = is_workgroup_space(t.memory_space)
    ks = engine.kstate
    key = id(op)
    isz = dt.itemsize

    def sizes_of(fr: list) -> tuple[int, ...]:
        if not dyn:
            return shape
        it = iter(dyn)
        out = []
        for d in shape:
            if d == T.DYNAMIC:
                v = fr[next(it)]
                if v < 0:
                    raise ExecFault(f"negative dynamic size {v}")
                out.append(v)
            else:
                out.append(d)
        return tuple(out)

    def make(fr: list, space: Any, akind: str) -> MemRefValue:
        sizes = sizes_of(fr)
        if identity:
            strides = identity_strides(sizes)
            off = 0
            n = 1
            for s in sizes:
                n *= s
        else:
            strides, off = ty_strides, ty_offset
            n = off + 1 + sum((s - 1) * st for s, st in zip(sizes, strides)) if all(sizes) else 0
        try:
            alloc = space.allocate(n * isz, akind, label, align)
        except MemoryFault as exc:
            raise fault(exc) from None
        if stack:
            alloc.extra["alloca"] = True
        return MemRefValue(space, alloc, alloc.base, off, sizes, tuple(strides), et)

    def step(fr: list) -> None:
        if slm and ks.active:
            m = ks.slm_allocs.get(key)
            if m is None:
                if ks.slm is None:
                    raise ExecFault("shared local memory is not available in this kernel")
                m = ks.slm_allocs[key] = make(fr, ks.slm, "slm")
            fr[res] = m
            return
        fr[res] = make(fr, engine.memory, kind)

    return step


@impl("memref.alloc")
def _alloc(op: Any, cx: Any):
    return _alloc_common(op, cx, "host")


@impl("memref.alloca")
def _alloca(op: Any, cx: Any):
    return _alloc_common(op, cx, "host", stack=True)


@impl("memref.dealloc")
def _dealloc(op: Any, cx: Any):
    ms = cx.slot(op.operands[0])
    by = f"{op.name} at {op.loc}"

    def step(fr: list) -> None:
        m = fr[ms]
        a = m.alloc
        if a is not None and a.kind == "slm":
            return
        if a is not None and (a.kind == "global" or a.extra.get("alloca")):
            what = "a memref.global" if a.kind == "global" else "memref.alloca memory"
            raise ExecFault(f"dealloc of {what} ({a.describe()}), which memref.alloc did not allocate")
        addr = a.base if a is not None else m.aligned
        try:
            m.space.free(addr, by)
        except MemoryFault as exc:
            raise fault(exc) from None

    return step


# ============================================================================ load / store
def _load_one(op: Any, cx: Any):
    """``memref.load`` for one instance."""
    ms = cx.slot(op.operands[0])
    idx = cx.slots(group(op, "indices"))
    res = cx.slot(op.results[0])
    et = op.results[0].type
    elem_dtype(op, et)
    conv = scalar_reader(et)
    rank = len(idx)

    if rank == 0:
        def step0(fr: list) -> None:
            m = fr[ms]
            tv, e0 = typed_view(m)
            if not 0 <= e0 < tv.shape[0]:
                raise outside_alloc(m, e0, tv)
            v = tv[e0]
            fr[res] = conv(v) if conv else v
        return step0

    if rank == 1:
        (i0,) = idx

        def step1(fr: list) -> None:
            m = fr[ms]
            i = fr[i0]
            if not 0 <= i < m.sizes[0]:
                raise oob_index(m, [i])
            tv, e0 = typed_view(m)
            e = e0 + i * m.strides[0]
            if not 0 <= e < tv.shape[0]:
                raise outside_alloc(m, e, tv)
            v = tv[e]
            fr[res] = conv(v) if conv else v
        return step1

    if rank == 2:
        i0, i1 = idx

        def step2(fr: list) -> None:
            m = fr[ms]
            i = fr[i0]
            j = fr[i1]
            s0, s1 = m.sizes
            if not (0 <= i < s0 and 0 <= j < s1):
                raise oob_index(m, [i, j])
            tv, e0 = typed_view(m)
            t0, t1 = m.strides
            e = e0 + i * t0 + j * t1
            if not 0 <= e < tv.shape[0]:
                raise outside_alloc(m, e, tv)
            v = tv[e]
            fr[res] = conv(v) if conv else v
        return step2

    def stepn(fr: list) -> None:
        m = fr[ms]
        ii = [fr[s] for s in idx]
        e = 0
        for i, s, t in zip(ii, m.sizes, m.strides):
            if not 0 <= i < s:
                raise oob_index(m, ii)
            e += i * t
        tv, e0 = typed_view(m)
        e += e0
        if not 0 <= e < tv.shape[0]:
            raise outside_alloc(m, e, tv)
        v = tv[e]
        fr[res] = conv(v) if conv else v
    return stepn


def _store_one(op: Any, cx: Any):
    """``memref.store`` for one instance."""
    vs = cx.slot(op.operands[0])
    ms = cx.slot(op.operands[1])
    idx = cx.slots(group(op, "indices"))
    elem_dtype(op, op.operands[0].type)
    rank = len(idx)

    if rank == 1:
        (i0,) = idx

        def step1(fr: list) -> None:
            m = fr[ms]
            i = fr[i0]
            if not 0 <= i < m.sizes[0]:
                raise oob_index(m, [i])
            tv, e0 = typed_view(m)
            e = e0 + i * m.strides[0]
            if not 0 <= e < tv.shape[0]:
                raise outside_alloc(m, e, tv)
            tv[e] = fr[vs]
        return step1

    if rank == 2:
        i0, i1 = idx

        def step2(fr: list) -> None:
            m = fr[ms]
            i = fr[i0]
            j = fr[i1]
            s0, s1 = m.sizes
            if not (0 <= i < s0 and 0 <= j < s1):
                raise oob_index(m, [i, j])
            tv, e0 = typed_view(m)
            t0, t1 = m.strides
            e = e0 + i * t0 + j * t1
            if not 0 <= e < tv.shape[0]:
                raise outside_alloc(m, e, tv)
            tv[e] = fr[vs]
        return step2

    def stepn(fr: list) -> None:
        m = fr[ms]
        ii = [fr[s] for s in idx]
        e = 0
        for i, s, t in zip(ii, m.sizes, m.strides):
            if not 0 <= i < s:
                raise oob_index(m, ii)
            e += i * t
        tv, e0 = typed_view(m)
        e += e0
        if not 0 <= e < tv.shape[0]:
            raise outside_alloc(m, e, tv)
        tv[e] = fr[vs]
    return stepn


# ============================================================================ views and casts
def _check_static_shape(m: MemRefValue, t: Any) -> None:
    if isinstance(t, T.MemRefType):
        if len(t.shape) != len(m.sizes):
            raise ExecFault(f"cast of a rank-{len(m.sizes)} memref to {t}")
        for d, (want, got) in enumerate(zip(t.shape, m.sizes)):
            if want != T.DYNAMIC and want != got:
                raise ExecFault(f"cast to {t}: dimension {d} has runtime size {got}")


@impl("memref.cast")
def _cast(op: Any, cx: Any):
    """Ranked <-> unranked and static <-> dynamic casts keep the descriptor (sizes are checked against a
    static destination shape)."""
    src = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    t = op.results[0].type
    if isinstance(t, T.MemRefType) and any(d != T.DYNAMIC for d in t.shape):
        def step(fr: list) -> None:
            m = fr[src]
            _check_static_shape(m, t)
            fr[res] = m
        return step

    def plain(fr: list) -> None:
        fr[res] = fr[src]
    return plain


@impl("memref.memory_space_cast")
def _memory_space_cast(op: Any, cx: Any):
    src = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[res] = fr[src]
    return step


def _dropped_dims(op: Any, static_sizes: list[int], result_shape: tuple[int, ...]) -> list[bool]:
    """Which source dims a rank-reducing subview drops: MLIR's computeRankReductionMask (greedily keep a
    source dim when it matches the next result dim, dynamic sizes matching anything but 1; drop unit
    dims otherwise)."""
    if len(static_sizes) == len(result_shape):
        return [False] * len(static_sizes)
    drop = []
    j = 0
    for s in static_sizes:
        if j < len(result_shape) and s != 1 and (s == DYNAMIC_INDEX or result_shape[j] == T.DYNAMIC):
            drop.append(False)
            j += 1
        elif j < len(result_shape) and s == result_shape[j]:
            drop.append(False)
            j += 1
        elif s == 1:
            drop.append(True)
        else:
            raise compile_error(op, f"cannot match sizes {static_sizes} to the result shape {list(result_shape)}")
    if j != len(result_shape):
        raise compile_error(op, f"cannot match sizes {static_sizes} to the result shape {list(result_shape)}")
    return drop


@impl("memref.subview")
def _subview(op: Any, cx: Any):
    """offset' = offset + Σ off_i·stride_i, stride'_i = stride_i·step_i, sizes as given; rank-reducing
    subviews drop unit dims."""
    src = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    get_off, _ = mixed_list(cx, op, ("offsets",), ("static_offsets",))
    get_size, static_sizes = mixed_list(cx, op, ("sizes",), ("static_sizes",))
    get_stride, _ = mixed_list(cx, op, ("strides",), ("static_strides",))
    rt = op.results[0].type
    drop = _dropped_dims(op, static_sizes, rt.shape)
    keep = [i for i, d in enumerate(drop) if not d]
    reducing = len(keep) != len(drop)

    def step(fr: list) -> None:
        m = fr[src]
        offs = get_off(fr)
        sizes = get_size(fr)
        steps = get_stride(fr)
        off = m.offset
        new_sizes = []
        new_strides = []
        for d, (o, n, s, dim, st) in enumerate(zip(offs, sizes, steps, m.sizes, m.strides)):
            if n < 0:
                raise ExecFault(f"negative size {n} in dimension {d}")
            if n > 0 and (o < 0 or o + (n - 1) * s >= dim or o + (n - 1) * s < 0):
                raise ExecFault(
                    f"subview [offset {o}, size {n}, stride {s}] reaches outside dimension {d} of size {dim}"
                )
            off += o * st
            new_sizes.append(n)
            new_strides.append(st * s)
        if reducing:
            new_sizes = [new_sizes[i] for i in keep]
            new_strides = [new_strides[i] for i in keep]
        fr[res] = MemRefValue(m.space, m.alloc, m.aligned, off, tuple(new_sizes), tuple(new_strides), m.element_type)

    return step


@impl("memref.reinterpret_cast")
def _reinterpret_cast(op: Any, cx: Any):
    src = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    get_off, _ = mixed_list(cx, op, ("offsets",), ("static_offsets",))
    get_size, _ = mixed_list(cx, op, ("sizes",), ("static_sizes",))
    get_stride, _ = mixed_list(cx, op, ("strides",), ("static_strides",))
    et = T.element_type_of(op.results[0].type)

    def step(fr: list) -> None:
        m = fr[src]
        offs = get_off(fr)
        sizes = tuple(get_size(fr))
        for d, n in enumerate(sizes):
            if n < 0:
                raise ExecFault(f"negative size {n} in dimension {d}")
        fr[res] = MemRefValue(m.space, m.alloc, m.aligned, offs[0] if offs else 0, sizes, tuple(get_stride(fr)), et)

    return step


def _reassociation(op: Any) -> list[list[int]]:
    a = op.attributes.get("reassociation")
    if a is None:
        raise compile_error(op, "has no reassociation")
    return [A.int_list(g) or [] for g in a.elements]  # type: ignore[union-attr]


@impl("memref.collapse_shape")
def _collapse_shape(op: Any, cx: Any):
    """Each group becomes one dim of size Π sizes; its stride is the smallest stride of the group's
    non-unit dims (MLIR ExpandStridedMetadata getCollapsedStride); the group must be contiguous."""
    src = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    groups = _reassociation(op)
    rt = op.results[0].type
    try:
        rstrides, _ = type_layout(rt)
    except NotImplementedError as exc:
        raise compile_error(op, str(exc)) from None

    def step(fr: list) -> None:
        m = fr[src]
        sizes = []
        strides = []
        for gi, g in enumerate(groups):
            n = 1
            for d in g:
                n *= m.sizes[d]
            nonunit = [d for d in g if m.sizes[d] != 1]
            for a, b in zip(nonunit, nonunit[1:]):
                if m.strides[a] != m.strides[b] * m.sizes[b]:
                    raise ExecFault(
                        f"collapse of non-contiguous dims {g} (sizes {[m.sizes[d] for d in g]}, "
                        f"strides {[m.strides[d] for d in g]})"
                    )
            if nonunit:
                st = min(m.strides[d] for d in nonunit)
            elif gi < len(rstrides) and rstrides[gi] != T.DYNAMIC:
                st = rstrides[gi]
            else:
                st = m.strides[g[-1]] if g else 1
            sizes.append(n)
            strides.append(st)
        fr[res] = MemRefValue(m.space, m.alloc, m.aligned, m.offset, tuple(sizes), tuple(strides), m.element_type)

    return step


@impl("memref.expand_shape")
def _expand_shape(op: Any, cx: Any):
    """Each source dim splits into its group's sizes; strides from the innermost outwards multiply by the
    sizes (MLIR ExpandStridedMetadata getExpandedStrides)."""
    src = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])
    groups = _reassociation(op)
    rt = op.results[0].type
    has_shape = op.attributes.get("static_output_shape") is not None
    if has_shape:
        get_shape, _ = mixed_list(cx, op, ("output_shape",), ("static_output_shape",))
    else:
        rshape = list(rt.shape)

        def get_shape(fr: list) -> list[int]:
            return rshape

    def step(fr: list) -> None:
        m = fr[src]
        shape = list(get_shape(fr))
        strides = [0] * len(shape)
        for sd, g in enumerate(groups):
            dyn = [d for d in g if shape[d] in (T.DYNAMIC, DYNAMIC_INDEX)]
            if dyn:
                known = 1
                for d in g:
                    if d not in dyn:
                        known *= shape[d]
                if len(dyn) > 1 or known == 0:
                    raise ExecFault(f"cannot infer the expanded sizes of group {g}")
                shape[dyn[0]] = m.sizes[sd] // known
            n = 1
            for d in g:
                n *= shape[d]
            if n != m.sizes[sd]:
                raise ExecFault(f"expanded sizes {[shape[d] for d in g]} do not multiply to source size {m.sizes[sd]}")
            acc = m.strides[sd]
            for d in reversed(g):
                strides[d] = acc
                acc *= shape[d]
        fr[res] = MemRefValue(m.space, m.alloc, m.aligned, m.offset, tuple(shape), tuple(strides), m.element_type)

    return step


@impl("memref.view")
def _view(op: Any, cx: Any):
    """``memref.view %buf[%shift][%sizes]``: a contiguous memref starting ``shift`` bytes into an i8 buffer."""
    src = cx.slot(op.operands[0])
    shift = cx.slot(group(op, "byte_shift")[0])
    dyn = cx.slots(group(op, "sizes"))
    res = cx.slot(op.results[0])
    rt = op.results[0].type
    et = rt.element_type
    isz = elem_dtype(op, et).itemsize

    def step(fr: list) -> None:
        m = fr[src]
        it = iter(dyn)
        sizes = tuple(fr[next(it)] if d == T.DYNAMIC else d for d in rt.shape)
        b = fr[shift]
        n = 1
        for s in sizes:
            n *= s
        if b < 0 or (b + n * isz > m.sizes[0] if m.sizes else False):
            raise ExecFault(f"view of {n * isz} bytes at byte shift {b} exceeds the {m.sizes[0]}-byte source")
        fr[res] = MemRefValue(m.space, m.alloc, m.aligned + m.offset * m.itemsize + b, 0, sizes,
                              identity_strides(sizes), et)

    return step


@impl("memref.extract_aligned_pointer_as_index")
def _aligned_ptr(op: Any, cx: Any):
    src = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[res] = wrap_int(fr[src].aligned, T.INDEX)
    return step


@impl("memref.extract_strided_metadata")
def _strided_metadata(op: Any, cx: Any):
    """Results: the base buffer (rank 0, offset 0, same allocation and aligned pointer), offset, sizes,
    strides."""
    src = cx.slot(op.operands[0])
    rs = cx.slots(op.results)
    base, off = rs[0], rs[1]
    n = (len(rs) - 2) // 2
    size_slots, stride_slots = rs[2 : 2 + n], rs[2 + n :]

    def step(fr: list) -> None:
        m = fr[src]
        fr[base] = MemRefValue(m.space, m.alloc, m.aligned, 0, (), (), m.element_type)
        fr[off] = m.offset
        for s, v in zip(size_slots, m.sizes):
            fr[s] = v
        for s, v in zip(stride_slots, m.strides):
            fr[s] = v

    return step


@impl("memref.dim")
def _dim(op: Any, cx: Any):
    src = cx.slot(op.operands[0])
    ix = cx.slot(op.operands[1])
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        m = fr[src]
        i = fr[ix]
        if not 0 <= i < len(m.sizes):
            raise ExecFault(f"dimension index {i} is out of range for a rank-{len(m.sizes)} memref")
        fr[res] = m.sizes[i]
    return step


@impl("memref.rank")
def _rank(op: Any, cx: Any):
    src = cx.slot(op.operands[0])
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        fr[res] = len(fr[src].sizes)
    return step


@impl("memref.copy")
def _copy(op: Any, cx: Any):
    """Element-wise copy in logical index order; source and target shapes must match."""
    src = cx.slot(op.operands[0])
    dst = cx.slot(op.operands[1])

    def step(fr: list) -> None:
        a = fr[src]
        b = fr[dst]
        if tuple(a.sizes) != tuple(b.sizes):
            raise ExecFault(f"copy between shapes {list(a.sizes)} and {list(b.sizes)}")
        try:
            b.write_logical(a.logical_array())
        except MemoryFault as exc:
            raise fault(exc) from None

    return step


# ============================================================================ globals
def _find_global(op: Any, name: str) -> Any:
    scope = op.parent_op()
    while scope is not None:
        for region in scope.regions:
            for block in region.blocks:
                for o in block.ops:
                    sym = o.attributes.get("sym_name")
                    if o.name == "memref.global" and sym is not None and getattr(sym, "value", None) == name:
                        return o
        scope = scope.parent_op()
    return None


def global_initial_values(gop: Any, t: Any) -> np.ndarray | None:
    """The global's dense initializer as an array of its element dtype (None when uninitialized)."""
    init = gop.attributes.get("initial_value")
    if not isinstance(init, A.DenseElementsAttr):
        return None
    dt = dtype_of(t.element_type)
    vals = init.flat_values()
    n = t.num_elements
    if len(vals) == 1 and n != 1:
        vals = vals * n
    if dt.kind in "iu" or dt.kind == "b":
        arr = np.array([wrap_int(int(v), t.element_type) for v in vals], dtype=object).astype(dt)
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            arr = np.array([float(v) for v in vals], dtype=np.float64).astype(dt)
    return arr


@impl("memref.global")
def _global(op: Any, cx: Any) -> None:
    return None


@impl("memref.get_global")
def _get_global(op: Any, cx: Any):
    """A memref on the global's memory: allocated (and initialised from its dense initializer, zeros when
    uninitialized) the first time any ``get_global`` of it runs in the engine; workgroup-space globals
    inside kernels are allocated once per workgroup in SLM."""
    engine = cx.engine
    ref = op.attributes.get("name")
    name = ref.leaf if isinstance(ref, A.SymbolRefAttr) else str(ref).lstrip("@")
    gop = _find_global(op, name)
    if gop is None:
        raise compile_error(op, f"'@{name}' does not reference a memref.global")
    ta = gop.attributes.get("type")
    t = ta.type if isinstance(ta, A.TypeAttr) else op.results[0].type
    et = t.element_type
    dt = elem_dtype(op, et)
    try:
        strides, offset = type_layout(t)
    except NotImplementedError as exc:
        raise compile_error(op, str(exc)) from None
    init = global_initial_values(gop, t)
    align = max(A.attr_int(gop.attributes.get("alignment"), 0) or 0, MIN_ALIGNMENT)
    res = cx.slot(op.results[0])
    slm = is_workgroup_space(t.memory_space)
    key = id(gop)
    ks = engine.kstate
    nbytes = t.num_elements * dt.itemsize

    def make(space: Any, kind: str) -> MemRefValue:
        try:
            alloc = space.allocate(nbytes, kind, f"@{name}", align)
        except MemoryFault as exc:
            raise fault(exc) from None
        if init is not None:
            alloc.data[:nbytes] = init.view(np.uint8)
        return MemRefValue(space, alloc, alloc.base, offset, tuple(t.shape), tuple(strides), et)

    def step(fr: list) -> None:
        if slm and ks.active:
            m = ks.slm_allocs.get(key)
            if m is None:
                if ks.slm is None:
                    raise ExecFault("shared local memory is not available in this kernel")
                m = ks.slm_allocs[key] = make(ks.slm, "slm")
            fr[res] = m
            return
        cache = engine.__dict__.setdefault("memref_globals", {})
        m = cache.get(key)
        if m is None:
            m = cache[key] = make(engine.memory, "global")
        fr[res] = m

    return step


# ============================================================================ many instances
def _index_arrays(fr: list, idx: list[int], n: int) -> list | None:
    """Per-dimension index arrays (uniform dims stay ints); None when no index varies."""
    out: list = []
    any_varying = False
    for s in idx:
        v = fr[s]
        if isinstance(v, Varying):
            any_varying = True
            out.append(v.arr if v.arr is not None and v.arr.ndim == 1 else np.array(v.lanes, np.int64))
        else:
            out.append(v)
    return out if any_varying else None


def _element_indices(m: Any, ii: list, n: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(typed view, element index per lane) when every lane's index is in bounds, else None."""
    e = None
    for i, size, stride in zip(ii, m.sizes, m.strides):
        if isinstance(i, np.ndarray):
            if i.dtype.kind not in "iu" or (i < 0).any() or (i >= size).any():
                return None
        elif not 0 <= i < size:
            return None
        term = i * stride
        e = term if e is None else e + term
    tv, e0 = typed_view(m)
    e = np.asarray(e, np.int64) + e0
    if e.shape != (n,) or (e < 0).any() or (e >= tv.shape[0]).any():
        return None
    return tv, e


def _all_lanes(fr: list, ks: Any, ms: int, idx: list[int]) -> tuple[np.ndarray, np.ndarray] | None:
    """(typed view, element index per lane) when the fast path applies: a uniform memref, every lane active,
    some index lane-dependent and every lane in bounds; else None."""
    m = fr[ms]
    n = ks.slots
    if isinstance(m, Varying) or len(ks.mask) != n:
        return None
    ii = _index_arrays(fr, idx, n)
    return None if ii is None else _element_indices(m, ii, n)


def _fast_ok(cx: Any) -> bool:
    return not cx.engine.config.check_races  # the race detector watches the ordinary per-instance accesses


@impl("memref.load", axis=True)
def _load(op: Any, cx: Any):
    """Element read; many instances with one memref and per-instance indices, all active and in bounds, are one
    gather (:func:`_all_lanes`), anything else runs per instance (:func:`xesim.exec.axis.lift`)."""
    ordinary = _load_one(op, cx)
    if cx.width == 1:
        return ordinary
    slow = lift(op, cx, ordinary)
    if not _fast_ok(cx):
        return slow
    engine = cx.engine
    ks = engine.kstate
    ms = cx.slot(op.operands[0])
    idx = cx.slots(group(op, "indices"))
    res = cx.slot(op.results[0])

    def step(fr: list) -> None:
        found = None if engine.config.kernel_reference else _all_lanes(fr, ks, ms, idx)
        if found is None:
            slow(fr)
            return
        tv, e = found
        fr[res] = Varying(None, tv[e])

    return step


@impl("memref.store", axis=True)
def _store(op: Any, cx: Any):
    """Element write; many instances as one scatter when :func:`_all_lanes` holds and no two write one element
    (instance order would decide), else per instance in instance order."""
    ordinary = _store_one(op, cx)
    if cx.width == 1:
        return ordinary
    slow = lift(op, cx, ordinary)
    if not _fast_ok(cx):
        return slow
    engine = cx.engine
    ks = engine.kstate
    vs = cx.slot(op.operands[0])
    ms = cx.slot(op.operands[1])
    idx = cx.slots(group(op, "indices"))

    def step(fr: list) -> None:
        found = None if engine.config.kernel_reference else _all_lanes(fr, ks, ms, idx)
        if found is None:
            slow(fr)
            return
        tv, e = found
        if np.unique(e).size != e.size:  # several lanes store to one element: lane order decides
            slow(fr)
            return
        v = fr[vs]
        if isinstance(v, Varying):
            vals = v.arr if v.arr is not None and v.arr.ndim == 1 else v.lanes
            tv[e] = np.asarray(vals).astype(tv.dtype, copy=False)
        else:
            tv[e] = v

    return step
