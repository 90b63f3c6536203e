"""Runner output read back into values: the inverse of the print formats of spec/programs-and-runner.md §1.

A program's stdout is cut into *records*, each one thing a runtime utility or ``vector.print`` wrote:

* ``memref`` — a ``printMemref*`` block (§1.1): the header line (``[Unranked ]Memref base@ = … data = ``) and the
  nested data lines up to the bracket that closes the outermost block.  Its shape is the header's ``sizes``; its
  elements are the number tokens of the data, in row-major order.
* ``vector`` — a line that starts with ``( `` (a ``vector.print`` of a vector, §1.2): the shape is read from the
  nesting of the parentheses.
* ``line`` — any other line (``[ALLCLOSE: TRUE]``, scalar ``vector.print``, printf text): its numbers are its
  elements, in order, and everything else is its *skeleton*, compared as text.

Numbers are what ``%g`` prints (``-1.5``, ``1e-07``, ``inf``, ``-nan``…) and decimal integers.  The base pointer
of a memref header is never compared (it differs between runs); ``rank``, ``offset``, ``sizes`` and ``strides``
are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: A number as the runner prints it: %g floats (with exponent), integers, inf and nan with an optional sign.
NUMBER = r"[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf|nan)"
_NUMBER_RE = re.compile(rf"(?<![\w.]){NUMBER}(?![\w.])")
_HEADER_RE = re.compile(
    r"^(?P<kind>(?:Unranked )?Memref) base@ = (?P<ptr>\S+) rank = (?P<rank>\d+) offset = (?P<offset>-?\d+) "
    r"sizes = \[(?P<sizes>[^\]]*)\] strides = \[(?P<strides>[^\]]*)\] data = ?$")


@dataclass
class Record:
    """One printed thing: ``kind`` (``memref``, ``vector``, ``line``), the 1-based ``line`` where it starts,
    its ``text``, its number ``tokens`` (as printed; a memref's data elements only), their ``shape`` and its
    ``skeleton``, what two outputs must share for their records to be compared element by element: the text with
    every number replaced by ``#`` and whitespace runs collapsed for a ``line``; just the kind for a ``memref`` or
    ``vector`` record, whose shapes are compared separately."""

    kind: str
    line: int
    text: str
    tokens: list[str]
    shape: tuple[int, ...]
    skeleton: str
    header: dict = field(default_factory=dict)  # memref: rank, offset, sizes, strides

    @property
    def size(self) -> int:
        return len(self.tokens)

    def index(self, flat: int) -> tuple[int, ...]:
        """The multi-index of element ``flat`` (row-major in :attr:`shape`)."""
        if not self.shape:
            return (flat,)
        out = []
        for dim in reversed(self.shape):
            out.append(flat % dim if dim else 0)
            flat //= dim if dim else 1
        return tuple(reversed(out))


def _skeleton(text: str) -> str:
    return " ".join(_NUMBER_RE.sub("#", text).split())


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(t) for t in text.replace(",", " ").split())


def _vector_shape(text: str) -> tuple[int, ...]:
    """The shape of a ``vector.print`` of a vector, from the nesting of its ``( … )`` groups."""
    counts: list[int] = []  # elements (or sub-groups) seen at each open depth
    shape: dict[int, int] = {}
    depth = 0
    for tok in re.findall(rf"\(|\)|{NUMBER}", text):
        if tok == "(":
            if depth > 0:
                counts[depth - 1] += 1
            depth += 1
            counts.append(0)
        elif tok == ")":
            if depth == 0:
                break
            shape.setdefault(depth - 1, counts.pop())
            depth -= 1
        elif depth > 0:
            counts[depth - 1] += 1
    return tuple(shape[d] for d in sorted(shape))


def parse_output(text: str) -> list[Record]:
    """The records of a program's stdout, in order (see the module docstring)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out: list[Record] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _HEADER_RE.match(line)
        if m:
            start = i
            data: list[str] = []
            depth = 0
            i += 1
            while i < len(lines):
                data.append(lines[i])
                depth += lines[i].count("[") - lines[i].count("]")
                i += 1
                if depth <= 0:
                    break
            body = "\n".join(data)
            header = {"rank": int(m["rank"]), "offset": int(m["offset"]), "sizes": _ints(m["sizes"]),
                      "strides": _ints(m["strides"]), "ranked": not m["kind"].startswith("Unranked")}
            tokens = _NUMBER_RE.findall(body)
            sizes = header["sizes"]
            out.append(Record("memref", start + 1, line + "\n" + body, tokens, sizes, "printMemref", header))
            continue
        tokens = _NUMBER_RE.findall(line)
        if line.lstrip().startswith("( "):
            out.append(Record("vector", i + 1, line, tokens, _vector_shape(line), "( vector )"))
        else:
            out.append(Record("line", i + 1, line, tokens, (len(tokens),), _skeleton(line)))
        i += 1
    return out
