"""MLIR tokenizer.

Tokens follow MLIR's lexical grammar (mlir/lib/AsmParser/Lexer.cpp, as documented in the MLIR LangRef):
bare identifiers, ``%`` value ids, ``^`` block ids, ``@`` symbols, ``#`` attribute ids, ``!`` type ids,
integer / float / string literals and punctuation.  The lexer is on-demand and position-based so the
parser can re-lex from any offset (needed for dimension lists such as ``8x16xf32``).
"""

from __future__ import annotations

import bisect
import operator
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
_LASTGROUP = operator.attrgetter("lastgroup")
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

    The whole text is tokenized once up front; ``reset`` to an offset that is a token boundary continues
    in that token array, and ``reset`` into the middle of a token lexes on demand until the stream is back
    on a boundary of the array.  A character that starts no token is reported when the parser reaches it.
    """

    __slots__ = ("source", "text", "pos", "_toks", "_starts", "_ends", "_i", "_last", "_peeked", "_error_at")

    def __init__(self, source: SourceFile) -> None:
        self.source = source
        text = self.text = source.text
        self.pos = 0
        ms = list(_TOKEN_RE.finditer(text))
        kinds = list(map(_LASTGROUP, ms))
        toks = list(map(Token, kinds, map(re.Match.group, ms, kinds), map(re.Match.start, ms, kinds),
                        map(re.Match.end, ms)))
        error_at = -1
        covered = sum(map(len, map(re.Match.group, ms)))  # C-level iteration: no gap means full coverage
        last_end = ms[-1].end() if ms else 0
        if covered != last_end or ms and ms[0].start() != 0:
            expected = 0
            for k, m in enumerate(ms):
                if m.start() != expected:
                    # no token could start at `expected`: only blanks/comments up to the end, or a bad character
                    ws_end = _WS_RE.match(text, expected).end()  # type: ignore[union-attr]
                    error_at = ws_end if ws_end < len(text) else -1
                    last_end = expected
                    del toks[k:]
                    break
                expected = m.end()
        if error_at < 0:
            tail = _WS_RE.match(text, last_end).end()  # type: ignore[union-attr]
            if tail != len(text):
                error_at = tail
        for t in toks:
            if t.kind == "hex":
                t.kind = "int"
        end = len(text) if error_at < 0 else error_at
        toks.append(Token("eof", "", end, end))
        self._toks = toks
        self._starts = [t.start for t in toks]
        self._ends = [t.end for t in toks]
        self._i = 0  # index of the next token in array mode, -1 in on-demand mode
        self._last = len(toks) - 1
        self._peeked: Token | None = None
        self._error_at = error_at

    def loc(self, offset: int) -> Location:
        return Location(self.source, offset)

    def _lex(self, pos: int) -> Token:
        m = _TOKEN_RE.match(self.text, pos)
        if m is None:
            ws_end = _WS_RE.match(self.text, pos).end()  # type: ignore[union-attr]
            if ws_end >= len(self.text):
                return Token("eof", "", len(self.text), len(self.text))
            self._raise_bad_char(ws_end)
        kind = m.lastgroup  # type: ignore[union-attr]
        assert kind is not None
        if kind == "hex":
            kind = "int"
        return Token(kind, m.group(m.lastgroup), m.start(m.lastgroup), m.end())  # type: ignore[union-attr]

    def _raise_bad_char(self, pos: int) -> None:
        ch = self.text[pos]
        if ch == '"':
            raise error(self.loc(pos), "expected '\"' in string literal")
        raise error(self.loc(pos), f"unexpected character '{ch}'")

    def peek(self) -> Token:
        i = self._i
        if i >= 0:
            if i == self._last and self._error_at >= 0:
                self._raise_bad_char(self._error_at)
            return self._toks[i]
        tok = self._peeked
        if tok is None:
            tok = self._peeked = self._lex(self.pos)
        return tok

    def next(self) -> Token:
        i = self._i
        if i >= 0:
            if i == self._last:
                if self._error_at >= 0:
                    self._raise_bad_char(self._error_at)
                tok = self._toks[i]
            else:
                tok = self._toks[i]
                self._i = i + 1
            self.pos = tok.end
            return tok
        tok = self.peek()
        self.pos = tok.end
        self._peeked = None
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
