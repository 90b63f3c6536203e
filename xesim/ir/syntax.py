"""Token-level regular expressions of MLIR's syntax and the in-place type parse they are used with, shared by the
compiled fast path of the assembly formats (:mod:`xesim.ir.fastformat`) and the custom directives
(:mod:`xesim.ir.directives`)."""

from __future__ import annotations

from typing import Any

from xesim.ir import types as T  # noqa: N812 - the codebase-wide alias


class Miss(Exception):
    """The fast path does not apply to this op instance: re-parse it with the format interpreter."""



WS = r"[ \t\r\n]*+"  # blanks between tokens (a comment makes the regex fail: the interpreter handles it)
WSC = r"(?:[ \t\r\n]++|//[^\n]*+)*+"  # blanks and comments, for lookaheads that mirror the parser's peeks
BARE_END = r"(?![A-Za-z0-9_$.])"
NAME = r"%[A-Za-z0-9_$.\-]++(?!\#)"
INT = r"-?[0-9]++(?![x.A-Za-z_$])"
_ANGLE = r"<(?:[^<>]|<[^<>]*+>)*+>"
TYPE = r"(?:[A-Za-z_][A-Za-z0-9_$.]*+|![A-Za-z0-9_$.\-]++)(?:" + _ANGLE + r")?"
_TYPE_START = r"[A-Za-z_(!]"
_FUNC = r"\([^()]*+\)" + WS + r"->" + WS + r"(?:\([^()]*+\)|" + TYPE + r")"


def memo_type(p: Any, start: int, end: int) -> T.Type:
    """The type spelled at ``text[start:end]`` (parsed in place on first sight, then memoised)."""
    key = p.source.text[start:end]
    ty = p.type_memo.get(key)
    if ty is None:
        p.lex.reset(start)
        ty = p.parse_type()
        if p.lex.pos != end:
            raise Miss
        p.type_memo[key] = ty
    return ty
