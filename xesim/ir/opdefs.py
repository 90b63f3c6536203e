"""Op definitions loaded from ``isa/dialects/<dialect>.toml`` (ARCHITECTURE.md, principle 1).

The TOML schema is documented in ``isa/README.md``.  :func:`load_registry` reads every dialect file,
compiles the assembly formats and checks the data: unknown constraint names, attribute kinds, inference
rules, verifier predicates or custom directives, a format that does not mention every operand, attribute,
region and successor, duplicate ops.  Problems raise :class:`OpDefError` naming the file and op.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xesim.ir import format as fmt
from xesim.ir.constraints import CONSTRAINTS, INFER_FUNCTIONS, INFER_LITERALS, constraint_names
from xesim.paths import ISA_DIR  # noqa: E402
from xesim.user_cache import cache_subdir, write_atomically

ATTR_KINDS = {
    "int", "i64", "i32", "i8", "index", "bool", "unit", "string", "symbol", "symbol_ref", "type",
    "function_type", "array", "dense_i64", "dense_i32", "dense_bool", "typed", "dense", "dict", "affine_map",
    "layout", "attr", "float", "strided",
}

TRAITS = {
    "pure", "terminator", "reads_memory", "writes_memory", "barrier", "isolated_from_above", "symbol",
    "symbol_table", "no_terminator", "return_like", "elementwise", "same_operands_and_result_type",
    "single_block", "collective", "host_only", "kernel_only", "allocates", "frees", "recursive_memory",
    "attr_sized_operands", "default_dialect_func", "default_dialect_gpu", "graph_region", "legacy",
    # effects the executor's policies read (isa/README.md "Traits"): an atomic read-modify-write, output of the
    # program, a result aliasing the memory of operand 0, reading only a memref's descriptor, the effects of
    # another function, the storage of a memref.global made on first use
    "atomic", "prints", "view", "inspects", "calls", "materializes_global",
}


class OpDefError(Exception):
    pass


@dataclass
class OperandDef:
    name: str
    type: str = "Any"
    variadic: bool = False
    optional: bool = False


@dataclass
class AttrDef:
    name: str
    kind: str = "attr"
    optional: bool = False
    default: Any = None
    enum: str | None = None


@dataclass
class RegionDef:
    name: str
    terminators: list[str] = field(default_factory=list)
    single_block: bool = False
    variadic: bool = False
    optional: bool = False


@dataclass
class EnumDef:
    name: str
    cases: list[str]
    storage: str = "int"  # int | attr | flags
    attr: str | None = None  # dialect attr name for storage "attr"/"flags", e.g. "arith.fastmath"


@dataclass
class OpDef:
    name: str
    dialect: str
    summary: str = ""
    operands: list[OperandDef] = field(default_factory=list)
    attributes: list[AttrDef] = field(default_factory=list)
    results: list[OperandDef] = field(default_factory=list)
    regions: list[RegionDef] = field(default_factory=list)
    successors: list[str] = field(default_factory=list)
    formats: list[list] = field(default_factory=list)
    format_texts: list[str] = field(default_factory=list)
    infer: dict[str, str] = field(default_factory=dict)
    traits: set[str] = field(default_factory=set)
    verifiers: list[str] = field(default_factory=list)
    parents: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    source: str = ""

    def __hash__(self) -> int:
        return hash(self.name)

    @functools.cached_property
    def attr_by_name(self) -> dict[str, AttrDef]:
        return {a.name: a for a in self.attributes}

    @functools.cached_property
    def has_flexible_operands(self) -> bool:
        return any(o.variadic or o.optional for o in self.operands)

    @functools.cached_property
    def operand_names(self) -> list[str]:
        return [o.name for o in self.operands]

    @functools.cached_property
    def operand_index(self) -> dict[str, int]:
        """Operand group name -> its position among the definition's operand groups."""
        return {o.name: i for i, o in enumerate(self.operands)}

    @functools.cached_property
    def result_names(self) -> list[str]:
        return [r.name for r in self.results]

    @functools.cached_property
    def region_names(self) -> list[str]:
        return [r.name for r in self.regions]

    def kind_of(self, name: str) -> str:
        if name in self.operand_names:
            return "operand"
        if name in self.result_names:
            return "result"
        if name in self.attr_by_name:
            return "attribute"
        if name in self.region_names:
            return "region"
        if name in self.successors:
            return "successor"
        return ""

    def has_trait(self, t: str) -> bool:
        return t in self.traits

    @property
    def is_terminator(self) -> bool:
        return "terminator" in self.traits


@dataclass
class Registry:
    ops: dict[str, OpDef]
    enums: dict[str, EnumDef]

    def get(self, name: str) -> OpDef | None:
        return self.ops.get(name)


_INFER_TOKEN = re.compile(r"^(?:(?P<fn>[a-z0-9_]+)\((?P<args>[^)]*)\)|\$(?P<ref>[A-Za-z_][A-Za-z0-9_]*)|(?P<lit>.+))$")


@functools.cache
def parse_infer(expr: str) -> tuple[str, list[str]]:
    """``"$x"`` -> ("ref", [x]); ``"elem($x)"`` -> ("elem", [x]); ``"index"`` -> ("lit", ["index"])."""
    m = _INFER_TOKEN.match(expr.strip())
    if m is None:
        raise OpDefError(f"bad inference rule {expr!r}")
    if m.group("fn"):
        args = [a.strip().lstrip("$") for a in m.group("args").split(",") if a.strip()]
        return m.group("fn"), args
    if m.group("ref"):
        return "ref", [m.group("ref")]
    return "lit", [m.group("lit")]


def _operand_list(items: list[dict], where: str) -> list[OperandDef]:
    out = []
    for it in items:
        unknown = set(it) - {"name", "type", "variadic", "optional", "doc"}
        if unknown:
            raise OpDefError(f"{where}: unknown operand keys {sorted(unknown)}")
        d = OperandDef(it["name"], it.get("type", "Any"), it.get("variadic", False), it.get("optional", False))
        for c in constraint_names(d.type):
            if c not in CONSTRAINTS:
                raise OpDefError(f"{where}: unknown type constraint '{c}' for '{d.name}'")
        out.append(d)
    return out


def _load_dialect_file(path: Path, ops: dict[str, OpDef], enums: dict[str, EnumDef],
                       text: str | None = None) -> None:
    from xesim.ir import directives  # registry of custom<...> directives

    data = tomllib.loads(path.read_text() if text is None else text)
    dialect = data.get("dialect", {}).get("name", path.stem)
    for ename, e in data.get("enums", {}).items():
        enums[ename] = EnumDef(ename, list(e["cases"]), e.get("storage", "int"), e.get("attr"))
    for raw in data.get("op", []):
        name = raw.get("name")
        where = f"{path.name}: op '{name}'"
        if not name or "." not in name:
            raise OpDefError(f"{path.name}: op without a qualified name: {raw}")
        if name in ops:
            raise OpDefError(f"{where}: duplicate definition (also in {ops[name].source})")
        known_keys = {
            "name", "summary", "operands", "attributes", "results", "regions", "successors", "format",
            "legacy_formats", "infer", "traits", "verifiers", "parents", "examples", "doc",
        }
        unknown = set(raw) - known_keys
        if unknown:
            raise OpDefError(f"{where}: unknown keys {sorted(unknown)}")
        od = OpDef(name=name, dialect=dialect, summary=raw.get("summary", ""), source=path.name)
        od.operands = _operand_list(raw.get("operands", []), where)
        od.results = _operand_list(raw.get("results", []), where)
        for a in raw.get("attributes", []):
            kind = a.get("kind", "attr")
            enum = None
            if kind.startswith("enum:"):
                enum = kind[5:]
            elif kind not in ATTR_KINDS:
                raise OpDefError(f"{where}: unknown attribute kind '{kind}' for '{a.get('name')}'")
            od.attributes.append(AttrDef(a["name"], kind, a.get("optional", False), a.get("default"), enum))
        for r in raw.get("regions", []):
            od.regions.append(
                RegionDef(r["name"], list(r.get("terminators", [])), r.get("single_block", False),
                          r.get("variadic", False), r.get("optional", False))
            )
        od.successors = list(raw.get("successors", []))
        od.infer = dict(raw.get("infer", {}))
        od.traits = set(raw.get("traits", []))
        bad = od.traits - TRAITS
        if bad:
            raise OpDefError(f"{where}: unknown traits {sorted(bad)}")
        od.verifiers = list(raw.get("verifiers", []))
        # the predicate names are the verifier's to resolve (xesim/verify/structural.py): the IR knows no verifier
        od.parents = list(raw.get("parents", []))
        od.examples = list(raw.get("examples", []))
        if not od.examples:
            raise OpDefError(f"{where}: no example")
        texts = [raw["format"]] if "format" in raw else []
        texts += list(raw.get("legacy_formats", []))
        if not texts:
            raise OpDefError(f"{where}: no assembly format")
        od.format_texts = texts
        for t in texts:
            try:
                elements = fmt.parse_format(t)
            except fmt.FormatError as exc:
                raise OpDefError(f"{where}: bad format {t!r}: {exc}") from None
            _check_format(od, elements, where, directives.DIRECTIVES)
            od.formats.append(elements)
        for key, expr in od.infer.items():
            if od.kind_of(key) not in ("operand", "result"):
                raise OpDefError(f"{where}: inference rule for unknown operand/result '{key}'")
            fn, args = parse_infer(expr)
            if fn == "lit":
                if args[0] not in INFER_LITERALS:
                    raise OpDefError(f"{where}: unknown literal type '{args[0]}' in inference rule")
            elif fn != "ref" and fn not in INFER_FUNCTIONS:
                raise OpDefError(f"{where}: unknown inference function '{fn}'")
            if fn != "lit":
                for a in args:
                    if od.kind_of(a) not in ("operand", "result"):
                        raise OpDefError(f"{where}: inference rule refers to unknown '{a}'")
        for a in od.attributes:
            if a.enum is not None and a.enum not in enums:
                raise OpDefError(f"{where}: unknown enum '{a.enum}'")
        ops[name] = od


def _resolve_kinds(od: OpDef, elements: list, where: str, directives_table: dict) -> None:
    for e in elements:
        if isinstance(e, fmt.Ref):
            e.kind = od.kind_of(e.name)
            if not e.kind:
                raise OpDefError(f"{where}: format refers to unknown '${e.name}'")
        elif isinstance(e, fmt.TypeOf):
            if e.target not in ("operands", "results") and od.kind_of(e.target) not in ("operand", "result"):
                raise OpDefError(f"{where}: type() of unknown '{e.target}'")
        elif isinstance(e, fmt.Custom):
            if e.name not in directives_table:
                raise OpDefError(f"{where}: unknown custom directive '{e.name}'")
            for a in e.args:
                if isinstance(a, fmt.Ref):
                    a.kind = od.kind_of(a.name)
                    if not a.kind:
                        raise OpDefError(f"{where}: custom<{e.name}> refers to unknown '${a.name}'")
        elif isinstance(e, fmt.Optional):
            _resolve_kinds(od, e.elements, where, directives_table)
            _resolve_kinds(od, e.else_elements, where, directives_table)


def _check_format(od: OpDef, elements: list, where: str, directives_table: dict) -> None:
    _resolve_kinds(od, elements, where, directives_table)
    names = fmt.referenced_names(elements)
    has_dict = fmt.has_element(elements, fmt.AttrDict) or fmt.has_element(elements, fmt.PropDict)
    for o in od.operands:
        if o.name not in names:
            raise OpDefError(f"{where}: format does not mention operand '{o.name}'")
    for r in od.regions:
        if r.name not in names:
            raise OpDefError(f"{where}: format does not mention region '{r.name}'")
    for s in od.successors:
        if s not in names:
            raise OpDefError(f"{where}: format does not mention successor '{s}'")
    for a in od.attributes:
        if a.name not in names and not has_dict:
            raise OpDefError(f"{where}: format does not mention attribute '{a.name}' and has no attr-dict")
    typed_all_operands = "type:operands" in names
    typed_all_results = "type:results" in names
    for o in od.operands:
        if not typed_all_operands and "type:" + o.name not in names and o.name not in od.infer:
            if not _custom_types(elements, o.name):
                raise OpDefError(f"{where}: type of operand '{o.name}' is neither printed nor inferred")
    for r in od.results:
        if not typed_all_results and "type:" + r.name not in names and r.name not in od.infer:
            if not _custom_types(elements, r.name):
                raise OpDefError(f"{where}: type of result '{r.name}' is neither printed nor inferred")


def _custom_types(elements: list, name: str) -> bool:
    """True when a custom directive that takes ``$name`` also handles its type (declared by the directive)."""
    from xesim.ir.directives import DIRECTIVES

    for e in elements:
        if isinstance(e, fmt.Custom):
            d = DIRECTIVES[e.name]
            if getattr(d, "handles_types", False) and any(isinstance(a, fmt.Ref) and a.name == name for a in e.args):
                return True
        if isinstance(e, fmt.Optional) and (_custom_types(e.elements, name) or _custom_types(e.else_elements, name)):
            return True
    return False


@functools.lru_cache(maxsize=1)
def load_registry(isa_dir: str | None = None) -> Registry:
    """Load and check every dialect definition (cached in the process, and across processes in the user cache).

    Parsing and checking the TOML files takes about 0.1 s, an eighth of a small program's run; the checked
    :class:`Registry` is therefore also kept as a pickle in ``<cache>/registry`` (:mod:`xesim.user_cache`),
    named by a digest of everything it is derived from (:func:`_registry_digest`): a changed dialect file or a
    changed xesim gives a new name, so a stale registry is never read.  An unreadable or damaged cache file
    is ignored and rewritten; definitions with errors raise :class:`OpDefError` every time (only checked
    registries are cached).  Only xesim's own definitions (``isa/dialects``) are cached: another ``isa_dir``
    (tests, experiments) is parsed every time and leaves nothing behind."""
    base = Path(isa_dir) if isa_dir else ISA_DIR
    files = sorted((base / "dialects").glob("*.toml"))
    if not files:
        raise OpDefError(f"no dialect definitions found in {base / 'dialects'}")
    texts = [(path, path.read_bytes()) for path in files]
    digest = _registry_digest(texts) if base.resolve() == ISA_DIR.resolve() else None  # xesim's own ISA only
    cached = _read_cached_registry(digest) if digest else None
    if cached is not None:
        return cached
    ops: dict[str, OpDef] = {}
    enums: dict[str, EnumDef] = {}
    for path, data in texts:
        _load_dialect_file(path, ops, enums, data.decode())
    registry = Registry(ops, enums)
    if digest:
        _write_cached_registry(digest, registry)
    return registry


#: bumped when the cached registry's layout changes in a way the source digest would not notice
REGISTRY_CACHE_VERSION = "1"


def _registry_digest(texts: list[tuple[Path, bytes]]) -> str:
    """sha256 of the dialect files (names and bytes) and of the Python sources a registry is built by or
    refers to (the IR package, the verifier's predicates), the Python version and the cache version."""
    h = hashlib.sha256(f"registry {REGISTRY_CACHE_VERSION} {sys.version}".encode())
    for path, data in texts:
        h.update(path.name.encode() + b"\0" + data + b"\0")
    here = Path(__file__).resolve().parent
    sources = sorted(here.rglob("*.py")) + sorted((here.parent / "verify").glob("*.py"))
    for src in sources:
        h.update(str(src.relative_to(here.parent)).encode() + b"\0" + src.read_bytes() + b"\0")
    return h.hexdigest()[:32]


def _read_cached_registry(digest: str) -> Registry | None:
    d = cache_subdir("registry")
    path = d / f"registry-{digest}.pickle" if d is not None else None
    if path is None or not path.exists():
        return None
    try:
        registry = pickle.loads(path.read_bytes())
    except Exception:  # noqa: BLE001 - a damaged or foreign file: rebuilt and rewritten
        return None
    return registry if isinstance(registry, Registry) else None


def _write_cached_registry(digest: str, registry: Registry) -> None:
    """Write the registry under its digest and remove the registries of other digests (older xesims or
    definitions); best effort: a cache that refuses writes only costs the next process the parse."""
    d = cache_subdir("registry")
    if d is None:
        return
    name = f"registry-{digest}.pickle"
    if write_atomically(d / name, pickle.dumps(registry, protocol=pickle.HIGHEST_PROTOCOL)):
        for old in d.glob("registry-*.pickle"):
            if old.name != name:
                try:
                    old.unlink()
                except OSError:
                    pass
