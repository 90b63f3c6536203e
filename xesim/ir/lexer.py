"""MLIR tokenizer.

Tokens follow MLIR's lexical grammar (mlir/lib/AsmParser/Lexer.cpp, as documented in the MLIR LangRef):
bare identifiers, ``%`` value ids, ``^`` block ids, ``@`` symbols, ``#`` attribute ids, ``!`` type ids,
integer / float / string literals and punctuation.  The lexer is on-demand and position-based so the
parser can re-lex from any offset (needed for dimension lists such as ``8x16xf32``).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from xesim.diagnostics import Location, SourceFile, error

_SUFFIX = r"[A-Za-z0-9_$.\-]+"
_TOKEN_RE = re.compile(
    r"""
    (?P<ws>(?:[ \t\r\n]+|//[^\n]*)+)
  | (?P<float>[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?)
  | (?P<hex>0x[0-9a-fA-F]+)
  | (?P<int>[0-9]+)
  | (?P<bare>[A-Za-z_][A-Za-z0-9_$.]*)
  | (?P<percent>%(?:""" + _SUFFIX + r"""|"(?:[^"\\\n]|\\.)*"))
  | (?P<caret>\^""" + _SUFFIX + r""")
  | (?P<at>@(?:[A-Za-z0-9_$.\-]+|"(?:[^"\\\n]|\\.)*"))
  | (?P<hash>\#(?:[A-Za-z0-9_$.\-]+))
  | (?P<excl>!(?:[A-Za-z0-9_$.\-]+))
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<punct>->|::|\.\.\.|\{-\#|\#-\}|[()\[\]{}<>,:=?*+\-|])
    """,
    re.VERBOSE,
)


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

    The whole text is tokenized once up front (fast); ``reset`` to an offset that is a token boundary
    continues in that token array, and ``reset`` into the middle of a token (dimension lists such as
    ``8x16xf32`` are split by the parser at character level) lexes on demand until the stream is back on a
    boundary of the array.
    """

    __slots__ = ("source", "text", "pos", "_toks", "_starts", "_ends", "_i", "_peeked", "_error_at")

    def __init__(self, source: SourceFile) -> None:
        self.source = source
        self.text = source.text
        self.pos = 0
        toks: list[Token] = []
        error_at = -1
        expected = 0
        text = self.text
        for m in _TOKEN_RE.finditer(text):
            s = m.start()
            if s != expected:
                error_at = expected
                break
            expected = m.end()
            kind = m.lastgroup
            if kind == "ws":
                continue
            if kind == "hex":
                kind = "int"
            toks.append(Token(kind, m.group(), s, expected))  # type: ignore[arg-type]
        else:
            if expected != len(text):
                error_at = expected
        end = len(text) if error_at < 0 else error_at
        toks.append(Token("eof", "", end, end))
        self._toks = toks
        self._starts = [t.start for t in toks]
        self._ends = [t.end for t in toks]
        self._i = 0  # index of the next token in array mode, -1 in on-demand mode
        self._peeked: Token | None = None
        self._error_at = error_at

    def loc(self, offset: int) -> Location:
        return Location(self.source, offset)

    def _lex(self, pos: int) -> Token:
        text = self.text
        m = _TOKEN_RE.match(text, pos)
        while m is not None and m.lastgroup == "ws":
            pos = m.end()
            m = _TOKEN_RE.match(text, pos)
        if m is None:
            if pos >= len(text):
                return Token("eof", "", len(text), len(text))
            self._raise_bad_char(pos)
        kind = m.lastgroup  # type: ignore[union-attr]
        assert kind is not None
        if kind == "hex":
            kind = "int"
        return Token(kind, m.group(), m.start(), m.end())  # type: ignore[union-attr]

    def _raise_bad_char(self, pos: int) -> None:
        ch = self.text[pos]
        if ch == '"':
            raise error(self.loc(pos), "expected '\"' in string literal")
        raise error(self.loc(pos), f"unexpected character '{ch}'")

    def peek(self) -> Token:
        tok = self._peeked
        if tok is None:
            i = self._i
            if i >= 0:
                tok = self._toks[i]
                if tok.kind == "eof" and self._error_at >= 0:
                    self._raise_bad_char(self._error_at)
            else:
                tok = self._lex(self.pos)
            self._peeked = tok
        return tok

    def next(self) -> Token:
        tok = self.peek()
        self.pos = tok.end
        self._peeked = None
        if self._i >= 0:
            if tok.kind != "eof":
                self._i += 1
        else:
            self._resync(tok.end)
        return tok

    def _resync(self, offset: int) -> None:
        j = bisect.bisect_left(self._starts, offset)
        if j == 0 or self._ends[j - 1] <= offset:
            self._i = j
        else:
            self._i = -1

    def reset(self, pos: int) -> None:
        self.pos = pos
        self._peeked = None
        self._resync(pos)

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
