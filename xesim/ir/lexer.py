"""MLIR tokenizer.

Tokens follow MLIR's lexical grammar (mlir/lib/AsmParser/Lexer.cpp, as documented in the MLIR LangRef):
bare identifiers, ``%`` value ids, ``^`` block ids, ``@`` symbols, ``#`` attribute ids, ``!`` type ids,
integer / float / string literals and punctuation.  The lexer is on-demand and position-based so the
parser can re-lex from any offset (needed for dimension lists such as ``8x16xf32``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xesim.diagnostics import Location, SourceFile, error

_SUFFIX = r"[A-Za-z0-9_$.\-]+"
# Every match consumes the blanks/comments before a token.  ``dims`` is a dimension-list prefix such as
# ``8x16x`` / ``?x?x`` / ``2x[4]x`` (MLIR's lexer splits these inside shaped types); ``hex`` comes first so
# ``0x1F`` stays an integer (a zero-sized dimension like ``0x16xf32`` is split again by the parser).
_TOKEN_RE = re.compile(
    r"""(?:[ \t\r\n]++|//[^\n]*+)*+(?:
    (?P<percent>%(?:""" + _SUFFIX + r"""|"(?:[^"\\\n]|\\.)*"))
  | (?P<bare>[A-Za-z_][A-Za-z0-9_$.]*)
  | (?P<hex>0x[0-9a-fA-F]+)
  | (?P<dims>(?:(?:[0-9]+|\?|\[[0-9]+\])x)+)
  | (?P<punct>->|::|\.\.\.|\{-\#|\#-\}|[()\[\]{}<>,:=?*+\-|])
  | (?P<float>[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?)
  | (?P<int>[0-9]+)
  | (?P<caret>\^""" + _SUFFIX + r""")
  | (?P<at>@(?:[A-Za-z0-9_$.\-]+|"(?:[^"\\\n]|\\.)*"))
  | (?P<hash>\#(?:[A-Za-z0-9_$.\-]+))
  | (?P<excl>!(?:[A-Za-z0-9_$.\-]+))
  | (?P<string>"(?:[^"\\\n]|\\.)*")
    )""",
    re.VERBOSE,
)
_WS_RE = re.compile(r"(?:[ \t\r\n]++|//[^\n]*+)*+")


@dataclass(slots=True)
class Token:
    """A token: ``kind`` is one of float, int, bare, percent, caret, at, hash, excl, string, punct, eof."""

    kind: str
    text: str
    start: int
    end: int

    def is_punct(self, p: str) -> bool:
        return self.kind == "punct" and self.text == p

    def is_keyword(self, kw: str) -> bool:
        return self.kind == "bare" and self.text == kw


class Lexer:
    """Lexer over a :class:`SourceFile`; ``peek``/``next``/``reset`` drive it.

    Tokens are produced on demand (one compiled-regex match per token, the peeked token cached), so parts of
    the text that the parser consumes directly (compiled op formats match whole ops with one regex, see
    :mod:`xesim.ir.fastformat`) are never tokenized.  ``reset`` moves to any offset.  A character that starts
    no token is reported when the parser reaches it.
    """

    __slots__ = ("source", "text", "pos", "_peeked", "_len")

    def __init__(self, source: SourceFile) -> None:
        self.source = source
        self.text = source.text
        self._len = len(source.text)
        self.pos = 0
        self._peeked: Token | None = None

    def loc(self, offset: int) -> Location:
        return Location(self.source, offset)

    def _lex(self, pos: int) -> Token:
        m = _TOKEN_RE.match(self.text, pos)
        if m is None:
            ws_end = _WS_RE.match(self.text, pos).end()  # type: ignore[union-attr]
            if ws_end >= self._len:
                return Token("eof", "", self._len, self._len)
            self._raise_bad_char(ws_end)
        kind = m.lastgroup  # type: ignore[union-attr]
        if kind == "hex":
            return Token("int", m.group(kind), m.start(kind), m.end())  # type: ignore[union-attr]
        return Token(kind, m.group(kind), m.start(kind), m.end())  # type: ignore[union-attr, arg-type]

    def _raise_bad_char(self, pos: int) -> None:
        ch = self.text[pos]
        if ch == '"':
            raise error(self.loc(pos), "expected '\"' in string literal")
        raise error(self.loc(pos), f"unexpected character '{ch}'")

    def peek(self) -> Token:
        tok = self._peeked
        if tok is None:
            tok = self._peeked = self._lex(self.pos)
        return tok

    def next(self) -> Token:
        tok = self._peeked
        if tok is None:
            tok = self._lex(self.pos)
        else:
            self._peeked = None
        self.pos = tok.end
        return tok

    def reset(self, pos: int) -> None:
        if pos != self.pos:
            self.pos = pos
            self._peeked = None

    def skip_ws(self) -> int:
        """Offset of the next non-blank, non-comment character."""
        return self.peek().start


def unescape_string(tok_text: str) -> str:
    """Decode an MLIR string literal (with quotes) into its value (\\n, \\t, \\", \\\\, \\XX hex)."""
    body = tok_text[1:-1]
    if "\\" not in body:
        return body
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = body[i + 1] if i + 1 < len(body) else ""
        simple = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
        if nxt in simple:
            out.append(simple[nxt])
            i += 2
        elif re.match(r"[0-9a-fA-F]{2}", body[i + 1 : i + 3]):
            out.append(chr(int(body[i + 1 : i + 3], 16)))
            i += 3
        else:
            out.append(nxt)
            i += 2
    return "".join(out)


def escape_string(value: str) -> str:
    """Encode a string value as an MLIR string literal (with quotes)."""
    out = ['"']
    for c in value:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\0A")
        elif c == "\t":
            out.append("\\09")
        elif ord(c) < 32 or ord(c) == 127:
            out.append(f"\\{ord(c):02X}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)
