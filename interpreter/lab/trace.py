"""Traceability: which sentences of the rulebook the spec encodes.

Owns: reading the rulebook text a spec names (`game.rulebook.source`),
splitting it into paragraphs (its non-empty lines), collecting every quote
in the spec (each `rule:`, each ambiguity's `quote`, and the
`game.rulebook.flavour` list of text that states no rule), and matching them:
a quote may leave words out with "...", and may run over several
paragraphs. Each paragraph is encoded (and by which entries), flavour, or
not accounted for.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..lang.model import Spec

_WS = re.compile(r"\s+")
_MIN_FRAGMENT = 8


def _norm(s: str) -> str:
    s = s.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'").replace("\u2018", "'")
    return _WS.sub(" ", s).strip().lower()


@dataclass(slots=True)
class Paragraph:
    line: int
    text: str
    encoded_by: list[str] = field(default_factory=list)
    flavour: bool = False

    @property
    def status(self) -> str:
        return "encoded" if self.encoded_by else "flavour" if self.flavour else "not encoded"


def _quotes(data: Any, path: tuple = ()) -> Iterator[tuple[str, str]]:
    if isinstance(data, dict):
        for k, v in data.items():
            if k in ("rule", "quote") and isinstance(v, str):
                yield ".".join(map(str, path)) or k, v
            else:
                yield from _quotes(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _quotes(v, path + (i,))


def _fragments(quote: str) -> list[str]:
    parts = re.split(r"\.\.\.|\u2026", quote)
    return [f for f in (_norm(p).strip(" .,;:-\"'") for p in parts) if len(f) >= _MIN_FRAGMENT]


def rulebook_path(spec: Spec) -> str | None:
    src = spec.rulebook.get("source")
    if not src:
        return None
    return os.path.normpath(os.path.join(os.path.dirname(spec.doc.path), src))


def trace(spec: Spec) -> list[Paragraph] | None:
    path = rulebook_path(spec)
    if path is None or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    paras = [Paragraph(i + 1, ln.strip()) for i, ln in enumerate(lines) if ln.strip()]
    normed = [_norm(p.text) for p in paras]
    whole = " \n ".join(normed)
    starts = []
    pos = 0
    for n in normed:
        starts.append(pos)
        pos += len(n) + 3
    flavour = [(_norm(q).strip(" .\"'")) for q in spec.rulebook.get("flavour", [])]
    for where, quote in _quotes(spec.doc.data):
        for frag in _fragments(quote):
            for k, n in enumerate(normed):
                if frag in n or (len(n) >= _MIN_FRAGMENT and n in frag):
                    if where not in paras[k].encoded_by:
                        paras[k].encoded_by.append(where)
            # a fragment that runs over several lines of the text
            if not any(frag in n for n in normed):
                at = whole.replace(" \n ", " ").find(frag)
                if at >= 0:
                    flat = 0
                    for k, n in enumerate(normed):
                        if flat <= at + len(frag) and at <= flat + len(n):
                            if where not in paras[k].encoded_by:
                                paras[k].encoded_by.append(where)
                        flat += len(n) + 1
    for k, n in enumerate(normed):
        if any(f and (f in n or n in f) for f in flavour):
            paras[k].flavour = True
    return paras
