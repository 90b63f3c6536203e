"""Reading a lit test file: RUN lines, REQUIRES / UNSUPPORTED / XFAIL, substitutions (issue 26 item 2).

lit's conventions (as lit's ``TestRunner.parseIntegratedTestScript`` applies them):

* ``RUN: cmd`` anywhere on a line (usually ``// RUN:``); a line ending with ``\\`` continues on the next RUN line.
  ``RUN-DISABLED:`` and other spellings are not RUN lines.
* ``REQUIRES: a, b`` — every expression must hold, else the test is UNSUPPORTED; ``UNSUPPORTED: a, b`` — the test is
  UNSUPPORTED if any holds; ``XFAIL: a, b`` — the test is expected to fail if any holds (``*`` always).
  Expressions: feature names, ``!``, ``&&``, ``||``, parentheses, ``true``, ``false`` over the available features
  (``isa/runner.toml`` ``lit.features`` plus those a ``lit.local.cfg`` adds).
* Substitutions: ``%s`` (the file), ``%S`` / ``%p`` (its directory), ``%t`` / ``%T`` (a temporary file / directory),
  ``%python_executable``, ``%%`` (a ``%``), and the table ``lit.substitutions``; any other ``%name`` is reported as
  unknown, never guessed.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from xesim.testing.conventions import value

_KEYWORD = re.compile(r"(?<![\w-])(RUN|REQUIRES|UNSUPPORTED|XFAIL):(.*)$")
_UNKNOWN_SUBST = re.compile(r"%[A-Za-z_][\w-]*|%\{[^}]*\}")


class RunLineError(ValueError):
    """A test file lit would not run: an unterminated RUN continuation, a malformed feature expression or an
    unknown substitution (the message names the line)."""


@dataclass
class LitTestFile:
    """A test file's RUN lines (1-based line number, command before substitution) and conditions."""

    path: Path
    text: str
    runs: list[tuple[int, str]] = field(default_factory=list)
    requires: list[str] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    xfail: list[str] = field(default_factory=list)


def read_test(path: Path, text: str | None = None) -> LitTestFile:
    """The RUN lines and conditions of the test file ``path`` (its ``text`` when given)."""
    text = path.read_text() if text is None else text
    tf = LitTestFile(path, text)
    pending: tuple[int, str] | None = None
    for no, line in enumerate(text.splitlines(), start=1):
        m = _KEYWORD.search(line)
        if m is None:
            continue
        key, rest = m.group(1), m.group(2).strip()
        if key != "RUN":
            {"REQUIRES": tf.requires, "UNSUPPORTED": tf.unsupported, "XFAIL": tf.xfail}[key].extend(
                x.strip() for x in rest.split(",") if x.strip())
            continue
        if pending is not None:
            start, cmd = pending
            rest = f"{cmd} {rest}"
            no = start
        if rest.endswith("\\"):
            pending = (no, rest[:-1].rstrip())
            continue
        pending = None
        tf.runs.append((no, rest))
    if pending is not None:
        raise RunLineError(f"{path}:{pending[0]}: RUN line ends with '\\' but no RUN line follows")
    return tf


def evaluate(expr: str, features: set[str] | frozenset[str]) -> bool:
    """lit's boolean feature expression ``expr`` over ``features`` (``*`` is true)."""
    tokens = re.findall(r"\|\||&&|!|\(|\)|[-+=._a-zA-Z0-9*]+|\S", expr)
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        if pos >= len(tokens):
            raise RunLineError(f"feature expression '{expr}' ends early")
        pos += 1
        return tokens[pos - 1]

    def or_expr() -> bool:
        v = and_expr()
        while peek() == "||":
            take()
            v = and_expr() or v
        return v

    def and_expr() -> bool:
        v = not_expr()
        while peek() == "&&":
            take()
            v = not_expr() and v
        return v

    def not_expr() -> bool:
        t = take()
        if t == "!":
            return not not_expr()
        if t == "(":
            v = or_expr()
            if take() != ")":
                raise RunLineError(f"feature expression '{expr}': ')' expected")
            return v
        if not re.fullmatch(r"[-+=._a-zA-Z0-9*]+", t):
            raise RunLineError(f"feature expression '{expr}': unexpected '{t}'")
        return t == "*" or t == "true" or (t != "false" and t in features)

    result = or_expr()
    if pos != len(tokens):
        raise RunLineError(f"feature expression '{expr}': unexpected '{tokens[pos]}'")
    return result


def substitutions(path: Path, tmp: Path, extra: list[tuple[str, str]] | tuple = ()) -> list[tuple[str, str]]:
    """The substitutions of test ``path`` (temporary files under ``tmp``), longest names first: lit's own, the
    table ``lit.substitutions``, and ``extra`` ones (a lit.local.cfg's ``config.substitutions``)."""
    table = {"%python_executable": sys.executable, **value("lit.substitutions"), **dict(extra)}
    table.update({"%s": str(path), "%S": str(path.parent), "%p": str(path.parent), "%t": str(tmp / path.name) + ".tmp",
                  "%T": str(tmp)})
    return sorted(table.items(), key=lambda kv: -len(kv[0]))


def substitute(command: str, subs: list[tuple[str, str]], where: str) -> str:
    """``command`` with ``subs`` applied (one left-to-right pass; ``%%`` is a literal ``%``); an unknown
    ``%name`` is a :class:`RunLineError` naming it and ``where`` (file:line)."""
    out, i = [], 0
    while i < len(command):
        if command[i] != "%":
            out.append(command[i])
            i += 1
            continue
        if command.startswith("%%", i):
            out.append("%")
            i += 2
            continue
        for name, repl in subs:
            if command.startswith(name, i) and not re.match(r"[\w-]", command[i + len(name): i + len(name) + 1]):
                out.append(repl)
                i += len(name)
                break
        else:
            m = _UNKNOWN_SUBST.match(command, i)
            if m:
                known = ", ".join(sorted(n for n, _ in subs))
                raise RunLineError(f"{where}: unknown lit substitution '{m.group(0)}' (known: {known})")
            out.append("%")
            i += 1
    return "".join(out)
