"""Directives for the vector dialect's hand-written syntaxes (MLIR ``VectorOps.cpp``).

* ``custom<ShuffleTypes>($v1, $v2, $result)``: ``: T1, T2`` after ``vector.shuffle``; the result type is
  inferred from the mask (``ShuffleOp::inferReturnTypes``: leading dim = mask length, trailing dims of v1).
* ``custom<TransferReadOp>(...)`` / ``custom<TransferWriteOp>(...)``: the whole syntax of
  ``vector.transfer_read %src[%i, %j], %pad[, %mask] {attrs} : memref<..>, vector<..>`` and
  ``vector.transfer_write %v, %dst[%i, %j][, %mask] {attrs} : vector<..>, memref<..>``
  (``TransferReadOp::parse/print``): a missing ``permutation_map`` is the minor identity, a missing
  ``in_bounds`` all false; both are elided when printing in those cases.  The mask type is inferred from the
  vector type and the permutation map (``inferTransferOpMaskType``).
* ``custom<ContractionOp>(...)``: ``vector.contract {indexing_maps = [...], iterator_types = ["parallel",
  ...], kind = #vector.kind<add>} %lhs, %rhs, %acc {attrs} : L, R into Res`` (``ContractionOp::parse/print``;
  iterator types are stored as ``#vector.iterator_type<..>`` and printed as strings; ``kind`` defaults to add).
"""

from __future__ import annotations

from typing import Any

from xesim.diagnostics import error
from xesim.ir import affine as AF  # noqa: N812 - the codebase-wide alias
from xesim.ir import attributes as A  # noqa: N812 - the codebase-wide alias
from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias
from xesim.ir.directives.base import Directive, directive

ITERATOR_TYPES = ("parallel", "reduction")


# ------------------------------------------------------------------------------------------ shared helpers


def minor_identity_map(num_dims: int, num_results: int) -> AF.AffineMap:
    """``(d0, ..., d{n-1}) -> (d{n-k}, ..., d{n-1})`` (MLIR AffineMap::getMinorIdentityMap)."""
    return AF.AffineMap(num_dims, 0, tuple(AF.Dim(num_dims - num_results + i) for i in range(num_results)))


def is_minor_identity(m: AF.AffineMap) -> bool:
    return m.num_dims >= len(m.results) and m == minor_identity_map(m.num_dims, len(m.results))


def effective_vector_rank(shaped: T.Type, vec: T.VectorType) -> int:
    """Vector rank minus the rank of a vector element type of the memref (getEffectiveVectorRankForXferOp)."""
    et = T.element_type_of(shaped)
    return vec.rank - (et.rank if isinstance(et, T.VectorType) else 0)


def transfer_mask_type(vec: T.VectorType, pmap: AF.AffineMap) -> T.VectorType:
    """MLIR inferTransferOpMaskType: the i1 mask has one dimension per memref dim used by the permutation map
    (in memref-dim order), sized like the vector dim it maps to; broadcast results are not masked."""
    used = sorted({r.index for r in pmap.results if isinstance(r, AF.Dim)})
    shape = []
    for d in used:
        pos = next(i for i, r in enumerate(pmap.results) if r == AF.Dim(d))
        shape.append(vec.shape[pos] if pos < vec.rank else 1)
    return T.VectorType(tuple(shape) if shape else (1,), T.I1)


def _bool_array(n: int, value: bool = False) -> A.ArrayAttr:
    return A.ArrayAttr(tuple(A.BoolAttr(value) for _ in range(n)))


def _merge(st: Any, entries: dict[str, A.Attribute]) -> None:
    for k, v in entries.items():
        if k in st.attrs:
            raise error(st.loc, f"attribute '{k}' occurs twice")
        st.attrs[k] = v


def _parse_type_pair(p: Any) -> tuple[Any, list[T.Type]]:
    p.expect(":")
    loc = p.loc()
    types = [p.parse_type()]
    while p.accept(","):
        types.append(p.parse_type())
    return loc, types


def _ref_list(p: Any) -> list:
    p.expect("[")
    refs = [] if p.at_punct("]") else p.parse_comma_list(p.parse_ssa_use_ref)
    p.expect("]")
    return refs


def _transfer_attrs(p: Any, st: Any, shaped: T.Type, vec: T.VectorType, tloc: Any, pmap_name: str,
                    inb_name: str) -> AF.AffineMap | None:
    """Default permutation_map / in_bounds as MLIR's transfer parsers do; returns the permutation map."""
    pm = st.attrs.get(pmap_name)
    if pm is None:
        if not isinstance(shaped, T.MemRefType):
            return None
        eff = effective_vector_rank(shaped, vec)
        if shaped.rank < eff:
            raise error(tloc, "expected a custom permutation_map when rank(source) != rank(destination)")
        st.attrs[pmap_name] = A.AffineMapAttr(minor_identity_map(shaped.rank, eff))
        pm = st.attrs[pmap_name]
    if not isinstance(pm, A.AffineMapAttr):
        return None
    if inb_name not in st.attrs:
        st.attrs[inb_name] = _bool_array(len(pm.map.results))
    return pm.map


def _mask_type(p: Any, shaped: T.Type, vec: T.VectorType, pmap: AF.AffineMap | None, mloc: Any, tloc: Any) -> T.Type:
    if isinstance(T.element_type_of(shaped), T.VectorType):
        raise error(mloc, "does not support masks with vector element type")
    if pmap is None:
        raise error(tloc, "expected permutation_map to be an affine map")
    if vec.rank != len(pmap.results):
        raise error(tloc, "expected the same rank for the vector and the results of the permutation map")
    return transfer_mask_type(vec, pmap)


def transfer_attr_text(pr: Any, op: Any, pmap_name: str, inb_name: str) -> str:
    """The attribute dictionary of a transfer op: permutation_map elided when it is a minor identity,
    in_bounds when every entry is false; entries sorted by name as MLIR prints them."""
    items = []
    for k, v in sorted(op.attributes.items()):
        if k == pmap_name and isinstance(v, A.AffineMapAttr) and is_minor_identity(v.map):
            continue
        if k == inb_name and isinstance(v, A.ArrayAttr) and not any(
            isinstance(e, A.IntegerAttr) and e.value for e in v.elements
        ):
            continue
        items.append((k, v))
    return " " + pr.attr_dict_text(items) if items else ""


# ------------------------------------------------------------------------------------------ directives


@directive("ShuffleTypes")
class ShuffleTypes(Directive):
    """``T1, T2`` of ``vector.shuffle``; the result type follows from the mask and T1."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        t1 = p.parse_type()
        p.expect(",")
        t2 = p.parse_type()
        st.types[args[0].name] = [t1]
        st.types[args[1].name] = [t2]
        mask = A.int_list(st.attrs.get("mask")) or []
        trailing = t1.shape[1:] if isinstance(t1, T.VectorType) else ()
        st.types[args[2].name] = [T.VectorType((len(mask), *trailing), T.element_type_of(t1))]

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        fp.element(f"{pr.type_text(op.operands[0].type)}, {pr.type_text(op.operands[1].type)}")


@directive("TransferReadOp")
class TransferReadOp(Directive):
    """``%base[%indices], %padding[, %mask] {attrs} : memref<..>, vector<..>``."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        base, indices, padding, mask, pmap_name, inb_name, result = (a.name for a in args)
        st.operand_refs[base] = [p.parse_ssa_use_ref()]
        st.operand_refs[indices] = _ref_list(p)
        p.expect(",")
        st.operand_refs[padding] = [p.parse_ssa_use_ref()]
        mloc = None
        st.operand_refs[mask] = []
        if p.accept(","):
            mloc = p.loc()
            st.operand_refs[mask] = [p.parse_ssa_use_ref()]
        if p.at_punct("{"):
            _merge(st, p.parse_attr_dict_entries())
        tloc, types = _parse_type_pair(p)
        if len(types) != 2:
            raise error(tloc, "requires two types")
        shaped, vec = types
        if not isinstance(shaped, T.MemRefType):
            raise error(tloc, "requires memref or ranked tensor type")
        if not isinstance(vec, T.VectorType):
            raise error(tloc, "requires vector type")
        pmap = _transfer_attrs(p, st, shaped, vec, tloc, pmap_name, inb_name)
        st.types[base] = [shaped]
        st.types[indices] = [T.INDEX] * len(st.operand_refs[indices])
        st.types[padding] = [shaped.element_type]
        st.types[mask] = [_mask_type(p, shaped, vec, pmap, mloc, tloc)] if mloc is not None else []
        st.types[result] = [vec]

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        base, indices, padding, mask, pmap_name, inb_name, _ = (a.name for a in args)
        text = f"{pr.value_name(op.operand(base))}[{', '.join(pr.value_name(v) for v in op.operand_group(indices))}]"
        text += f", {pr.value_name(op.operand(padding))}"
        m = op.operand(mask)
        if m is not None:
            text += f", {pr.value_name(m)}"
        text += transfer_attr_text(pr, op, pmap_name, inb_name)
        text += f" : {pr.type_text(op.operand(base).type)}, {pr.type_text(op.results[0].type)}"
        fp.element(text)


@directive("TransferWriteOp")
class TransferWriteOp(Directive):
    """``%vector, %base[%indices][, %mask] {attrs} : vector<..>, memref<..>``."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        value, base, indices, mask, pmap_name, inb_name = (a.name for a in args)
        st.operand_refs[value] = [p.parse_ssa_use_ref()]
        p.expect(",")
        st.operand_refs[base] = [p.parse_ssa_use_ref()]
        st.operand_refs[indices] = _ref_list(p)
        mloc = None
        st.operand_refs[mask] = []
        if p.accept(","):
            mloc = p.loc()
            st.operand_refs[mask] = [p.parse_ssa_use_ref()]
        if p.at_punct("{"):
            _merge(st, p.parse_attr_dict_entries())
        tloc, types = _parse_type_pair(p)
        if len(types) != 2:
            raise error(tloc, "requires two types")
        vec, shaped = types
        if not isinstance(vec, T.VectorType):
            raise error(tloc, "requires vector type")
        if not isinstance(shaped, T.MemRefType):
            raise error(tloc, "requires memref or ranked tensor type")
        pmap = _transfer_attrs(p, st, shaped, vec, tloc, pmap_name, inb_name)
        st.types[value] = [vec]
        st.types[base] = [shaped]
        st.types[indices] = [T.INDEX] * len(st.operand_refs[indices])
        st.types[mask] = [_mask_type(p, shaped, vec, pmap, mloc, tloc)] if mloc is not None else []

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        value, base, indices, mask, pmap_name, inb_name = (a.name for a in args)
        text = f"{pr.value_name(op.operand(value))}, {pr.value_name(op.operand(base))}"
        text += f"[{', '.join(pr.value_name(v) for v in op.operand_group(indices))}]"
        m = op.operand(mask)
        if m is not None:
            text += f", {pr.value_name(m)}"
        text += transfer_attr_text(pr, op, pmap_name, inb_name)
        text += f" : {pr.type_text(op.operand(value).type)}, {pr.type_text(op.operand(base).type)}"
        fp.element(text)


def iterator_type_attr(name: str) -> A.DialectAttr:
    return A.DialectAttr("vector", "iterator_type", ((None, A.EnumValue(name)),))


def iterator_type_name(a: A.Attribute) -> str | None:
    """``parallel`` / ``reduction`` from ``#vector.iterator_type<..>`` (or a plain string), else None."""
    if isinstance(a, A.StringAttr):
        return a.value if a.value in ITERATOR_TYPES else None
    if isinstance(a, A.DialectAttr) and a.qualified_name == "vector.iterator_type":
        v = a.positional(0)
        if v is not None and str(v) in ITERATOR_TYPES:
            return str(v)
    return None


@directive("ContractionOp")
class ContractionOp(Directive):
    """``{traits} %lhs, %rhs, %acc {attrs} : L, R into Res`` of ``vector.contract``."""

    handles_types = True
    TRAIT_ATTRS = ("indexing_maps", "iterator_types", "kind")

    def parse(self, p: Any, st: Any, args: list) -> None:
        from xesim.ir.enums import make_enum, normalize_enum

        lhs, rhs, acc, maps_name, iters_name, kind_name, result = (a.name for a in args)
        loc = p.loc()
        if not p.at_punct("{"):
            raise p.fail("expected '{' to begin the contraction attributes (indexing_maps, iterator_types, kind)")
        traits = p.parse_attr_dict_entries()
        st.operand_refs[lhs] = [p.parse_ssa_use_ref()]
        p.expect(",")
        st.operand_refs[rhs] = [p.parse_ssa_use_ref()]
        p.expect(",")
        st.operand_refs[acc] = [p.parse_ssa_use_ref()]
        if p.at_punct(","):
            raise p.fail("vector.contract mask operands are not supported by xesim (use vector.mask)")
        if p.at_punct("{"):
            _merge(st, p.parse_attr_dict_entries())
        p.expect(":")
        lt = p.parse_type()
        p.expect(",")
        rt = p.parse_type()
        p.expect_keyword("into")
        res = p.parse_type()
        _merge(st, traits)
        iters = st.attrs.get(iters_name)
        if not isinstance(iters, A.ArrayAttr):
            raise error(loc, f"expected {iters_name} array attribute")
        converted = []
        for a in iters.elements:
            name = iterator_type_name(a)
            if name is None:
                shown = a.value if isinstance(a, A.StringAttr) else str(a)
                raise error(loc, f"unexpected iterator_type ({shown})")
            converted.append(iterator_type_attr(name))
        st.attrs[iters_name] = A.ArrayAttr(tuple(converted))
        ad = st.od.attr_by_name[kind_name]
        if kind_name in st.attrs:
            st.attrs[kind_name] = normalize_enum(p, st.od, ad, st.attrs[kind_name], loc)
        else:
            st.attrs[kind_name] = make_enum(p.registry.enums[ad.enum], ["add"])
        st.types[lhs] = [lt]
        st.types[rhs] = [rt]
        st.types[acc] = [res]
        st.types[result] = [res]

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        lhs, rhs, acc, maps_name, iters_name, kind_name, _ = (a.name for a in args)
        traits = []
        for k in sorted(op.attributes):
            if k not in (maps_name, iters_name, kind_name):
                continue
            v = op.attributes[k]
            if k == iters_name and isinstance(v, A.ArrayAttr):
                names = [iterator_type_name(e) for e in v.elements]
                if all(n is not None for n in names):
                    v = A.ArrayAttr(tuple(A.StringAttr(n) for n in names if n is not None))
            traits.append((k, v))
        text = pr.attr_dict_text(traits)
        text += f" {pr.value_name(op.operand(lhs))}, {pr.value_name(op.operand(rhs))}, {pr.value_name(op.operand(acc))}"
        rest = [(k, v) for k, v in op.attributes.items() if k not in (maps_name, iters_name, kind_name)]
        if rest:
            text += " " + pr.attr_dict_text(rest)
        text += (f" : {pr.type_text(op.operand(lhs).type)}, {pr.type_text(op.operand(rhs).type)} into "
                 f"{pr.type_text(op.results[0].type)}")
        fp.element(text)


@directive("ExtractLegacyType")
class ExtractLegacyType(Directive):
    """``: vector<4x4xf32>`` of the pre-2023 ``vector.extract %v[0] : vector<4x4xf32>`` syntax: only the source
    type is written; the result is the element (every dim indexed) or the trailing sub-vector
    (``ExtractOp::inferReturnTypes``).  Printing always uses the current syntax."""

    handles_types = True

    def parse(self, p: Any, st: Any, args: list) -> None:
        vt = p.parse_type()
        st.types[args[0].name] = [vt]
        n = len(A.int_list(st.attrs.get("static_position")) or [])
        if isinstance(vt, T.VectorType) and n < vt.rank:
            st.types[args[1].name] = [T.VectorType(vt.shape[n:], vt.element_type)]
        else:
            st.types[args[1].name] = [T.element_type_of(vt)]

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:
        fp.element(pr.type_text(op.operand(args[0].name).type))

    def can_print(self, pr: Any, op: Any, args: list) -> bool:
        return False
