"""The directive protocol and registry (:mod:`xesim.ir.directives`)."""

from __future__ import annotations

from typing import Any

DIRECTIVES: dict[str, Any] = {}


def directive(name: str):
    """Class decorator registering a directive instance under ``name``."""

    def wrap(cls):
        DIRECTIVES[name] = cls()
        return cls

    return wrap


class Directive:
    handles_types = False

    def parse(self, p: Any, st: Any, args: list) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def present(self, p: Any, st: Any, args: list) -> bool:
        return True

    def print(self, pr: Any, op: Any, args: list, fp: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def print_present(self, pr: Any, op: Any, args: list) -> bool:
        return True

    def can_print(self, pr: Any, op: Any, args: list) -> bool:
        return True
