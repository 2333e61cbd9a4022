"""The rules language described for people: builtin signatures and keywords.

Owns the readable form of what builtins.py and the grammar define (a
builtin's signature as `sum(list, PROP) -> a number`), so the language
server's hover and completion and the documentation site's reference say
the same thing. It restates nothing: every word comes from the builtins
table, the kinds, or grammar/rules.lark.
"""
from __future__ import annotations

import os
import re

from .builtins import BUILTINS, PROP, Builtin
from .kinds import T, word

GRAMMAR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "grammar",
                       "rules.lark")

_PARAM_WORDS = {T.INT: "n", T.ZONE: "zone", T.PLAYER: "player", T.ANY: "x", T.INTS: "numbers", T.BOOL: "cond",
                T.STR: "text", T.CARD: "card"}


def _param(p, i: int) -> str:
    if p == PROP:
        return "PROP"
    if isinstance(p, frozenset):
        return "list"
    return _PARAM_WORDS.get(p, str(p))


def signature(b: Builtin) -> str:
    """`name(arg, arg[, optional]) -> kind of result`; PROP is a property or player-variable name."""
    lo = b.min_args if b.min_args is not None else len(b.params)
    names = [_param(p, i) for i, p in enumerate(b.params)]
    shown = ", ".join(names[:lo])
    if lo < len(names):
        shown += "".join(f"[, {n}]" for n in names[lo:]) if lo else "[" + ", ".join(names[lo:]) + "]"
    return f"{b.name}({shown})"


def param_words(b: Builtin) -> list[str]:
    """What each parameter accepts, in words."""
    out = []
    for p in b.params:
        if p == PROP:
            out.append("a property name: a card property for cards, a player variable for players")
        else:
            out.append(word(p))
    return out


def builtin_markdown(name: str) -> str:
    """A builtin's signature, doc and example as Markdown (hover, docs)."""
    b = BUILTINS[name]
    args = "\n".join(f"- `{n}`: {w}" for n, w in zip(signature(b)[len(b.name) + 1:-1].replace("[", "").replace(
        "]", "").split(", "), param_words(b)) if n)
    return f"```text\n{signature(b)}\n```\n{b.doc}\n\n{args}\n\nExample: `{b.example}`"


def grammar_text() -> str:
    with open(GRAMMAR, encoding="utf-8") as fh:
        return fh.read()


def keywords() -> list[str]:
    """Every word the grammar reserves (`move`, `choose`, `where` ...), from grammar/rules.lark."""
    words = set(re.findall(r'"([a-z]+)"', grammar_text()))
    return sorted(words)


def grammar_rules() -> dict[str, str]:
    """Each rule of the grammar (statements and expressions) with its definition text, in file order."""
    out: dict[str, str] = {}
    name = None
    for line in grammar_text().splitlines():
        m = re.match(r"^[?!]?([a-z_][a-z0-9_]*)\s*:(.*)$", line)
        if m:
            name = m.group(1)
            out[name] = m.group(2).strip()
        elif name and line.startswith((" ", "\t")) and line.strip().startswith("|"):
            out[name] += "\n" + line.strip()
        elif not line.strip() or line.startswith("//"):
            name = None
    return out
