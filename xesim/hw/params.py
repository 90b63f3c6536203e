"""Target hardware parameters loaded from ``isa/targets/<target>.toml`` (ARCHITECTURE.md principle 2).

Every parameter is a leaf table ``{ value = ..., source = "..." }`` — the source names a section of
``shared/spec/*.md`` or the public document behind it.  A parameter whose value is not established by a
source is marked ``assumed = true`` with its ``evidence``; ``xesim run --explain-assumptions`` lists those a
run used.  Access: ``target.grf.register_bytes`` (the value), ``target.source_of("grf.register_bytes")``.
No hardware number is hard-coded in Python.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xesim.paths import ISA_DIR


class TargetError(Exception):
    pass


@dataclass(frozen=True)
class Param:
    path: str
    value: Any
    source: str
    assumed: bool = False
    evidence: str = ""
    doc: str = ""  # what the value means; "a | b | c" lists the values a parameter accepts


class Section:
    """Read-only attribute access to a section of parameters (values only)."""

    def __init__(self, target: Target, prefix: str, data: dict) -> None:
        self._target = target
        self._prefix = prefix
        self._data = data

    def __getattr__(self, name: str) -> Any:
        try:
            node = self._data[name]
        except KeyError:
            raise AttributeError(f"target '{self._target.name}' has no parameter '{self._prefix}{name}'") from None
        if _is_leaf(node):
            self._target.used.add(f"{self._prefix}{name}")
            return node["value"]
        return Section(self._target, f"{self._prefix}{name}.", node)

    def __contains__(self, name: str) -> bool:
        return name in self._data

    def keys(self) -> list[str]:
        return list(self._data)


def _is_leaf(node: Any) -> bool:
    return isinstance(node, dict) and "value" in node


def _choices(leaf: dict) -> list[str]:
    """The values a parameter accepts when its ``doc`` lists them (``"a | b | c"`` of single words), else []."""
    doc = str(leaf.get("doc", ""))
    words = [w.strip() for w in doc.split("|")]
    if len(words) < 2 or not all(w and w.replace("_", "").replace("-", "").isalnum() for w in words):
        return []
    return [w.lower() for w in words]


class Target:
    """A loaded target.  ``used`` collects the parameter paths read during a run."""

    def __init__(self, name: str, data: dict, path: Path) -> None:
        self.name = name
        self.path = path
        self._data = data
        self.used: set[str] = set()
        self.params: dict[str, Param] = {}
        self._collect("", data)

    def _collect(self, prefix: str, node: dict) -> None:
        for key, val in node.items():
            path = f"{prefix}{key}"
            if _is_leaf(val):
                if "source" not in val or not str(val["source"]).strip():
                    raise TargetError(f"{self.path.name}: parameter '{path}' has no source")
                unknown = set(val) - {"value", "source", "assumed", "evidence", "doc"}
                if unknown:
                    raise TargetError(f"{self.path.name}: parameter '{path}' has unknown keys {sorted(unknown)}")
                if val.get("assumed") and not val.get("evidence"):
                    raise TargetError(f"{self.path.name}: assumed parameter '{path}' needs 'evidence'")
                self.params[path] = Param(path, val["value"], val["source"], bool(val.get("assumed")),
                                          val.get("evidence", ""), val.get("doc", ""))
            elif isinstance(val, dict):
                if key == "target" and not prefix:
                    continue
                self._collect(path + ".", val)
            else:
                raise TargetError(f"{self.path.name}: '{path}' must be a table or a {{ value, source }} parameter")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(Section(self, "", self._data), name)

    def source_of(self, path: str) -> str:
        return self.params[path].source

    def get(self, path: str) -> Any:
        """Value of a dotted parameter path (recorded as used)."""
        self.used.add(path)
        return self.params[path].value

    def assumptions(self, only_used: bool = False) -> list[Param]:
        return [p for k, p in sorted(self.params.items()) if p.assumed and (not only_used or k in self.used)]

    def with_overrides(self, overrides: dict[str, Any]) -> Target:
        """A copy with some values replaced (e.g. ``--dpas-model``); overridden values are marked as user choices."""
        import copy

        data = copy.deepcopy(self._data)
        for path, value in overrides.items():
            node = data
            parts = path.split(".")
            for p in parts[:-1]:
                node = node.get(p) if isinstance(node, dict) and not _is_leaf(node) else None
                if node is None:
                    break
            if not isinstance(node, dict) or not _is_leaf(node.get(parts[-1])):
                raise TargetError(f"unknown parameter '{path}' for target '{self.name}'")
            choices = _choices(node[parts[-1]])
            if choices and str(value).lower() not in choices:
                raise TargetError(f"parameter '{path}' is one of {' | '.join(choices)}, not {value!r}")
            node[parts[-1]] = {"value": value, "source": "command-line override"}
        return Target(self.name, data, self.path)


def targets_dir() -> Path:
    return ISA_DIR / "targets"


def available_targets() -> list[str]:
    return sorted(p.stem for p in targets_dir().glob("*.toml"))


@functools.cache
def _load(name: str) -> tuple[dict, Path]:
    """A target's data: ``name`` is one of isa/targets (``pvc``) or the path of a ``.toml`` file in the same
    format, such as the overlay ``xesim calibrate`` writes (``inherits`` names the target it refines)."""
    if name.endswith(".toml"):
        path = Path(name)
        if not path.is_file():
            raise TargetError(f"no target file {name}")
    else:
        path = targets_dir() / f"{name}.toml"
        if not path.exists():
            raise TargetError(f"unknown target '{name}' (available: {', '.join(available_targets())}, or a .toml "
                              "file)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise TargetError(f"{path}: not a valid target file: {exc}") from None
    base = data.get("target", {}).get("inherits")
    if base:
        parent, _ = _load(base)
        data = _merge(parent, data)
    return data, path


def base_target(name: str) -> str:
    """The target file ``name`` refines: itself for one of isa/targets, else the one its ``inherits`` chain ends
    at (a calibration overlay of pvc -> ``pvc``)."""
    if not name.endswith(".toml"):
        return name
    path = Path(name)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return name  # load_target reports the problem
    parent = data.get("target", {}).get("inherits")
    if not parent:
        return name
    return base_target(str(path.parent / parent) if str(parent).endswith(".toml") else parent)


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and not _is_leaf(v) and isinstance(out.get(k), dict) and not _is_leaf(out[k]):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def load_target(name: str = "pvc") -> Target:
    """Load (a fresh copy of) target ``name``; raises TargetError on bad data."""
    data, path = _load(name)
    import copy

    return Target(name, copy.deepcopy(data), path)
