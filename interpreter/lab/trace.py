"""Traceability: which sentences of the rulebook the spec encodes.

Owns: reading the rulebook text a spec names (`game.rulebook.source`),
splitting it into paragraphs (its non-empty lines; a line with no letter
or digit, a lone list dash or a table's |---| rule, is layout and no
paragraph), collecting every quote in the spec (each `rule:`, each
ambiguity's `quote`, the `game.rulebook.flavour` list of text that states no
rule, and the `game.rulebook.notes` of text the spec does not encode, each
with its reason), and matching them: a quote may leave words out with "...",
and may run over several paragraphs. Each paragraph is encoded (and by which
entries), flavour, noted (not encoded, and the note says why), or not
accounted for.

"Encoded" must be true, so only meaningful fragments mark a paragraph: a
whole quote, or a piece of a quote cut at "..." that has at least
`_MIN_WORDS` words (a single word like "semester" marks nothing) and, when it
is shorter than `_UNIQUE_WORDS` words, occurs in one paragraph only.

It also owns the verbatim check (`misquotes`): every `rule:` and `quote:`
must occur in the rulebook text as written, typos kept, with only
whitespace, letter case and the curly forms of quote marks normalised; a
quote that does not is returned with the spec position of its text, so
`lint` can warn there.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..lang.model import Spec
from ..spec import files

_WS = re.compile(r"\s+")
_MIN_FRAGMENT = 8
_BULLET = re.compile(r"(^|(?<=\s))[-*\u2022](?=\s|$)", re.M)  # a list item's dash or bullet: layout, not words
_MIN_WORDS = 3  # a piece of a quote cut at "..." marks a paragraph only with this many words
_UNIQUE_WORDS = 6  # ... and, below this many, only if one paragraph alone holds it
_WORD = re.compile(r"\w")  # a line without one is layout


def _norm(s: str) -> str:
    s = s.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'").replace("\u2018", "'")
    return _WS.sub(" ", s).strip().lower()


@dataclass(slots=True)
class Paragraph:
    line: int
    text: str
    encoded_by: list[str] = field(default_factory=list)
    flavour: bool = False
    note: str | None = None  # why the spec does not encode it (`game.rulebook.notes`)

    @property
    def status(self) -> str:
        return ("encoded" if self.encoded_by else "flavour" if self.flavour else
                "noted" if self.note is not None else "not encoded")


def _quotes(data: Any, path: tuple = ()) -> Iterator[tuple[str, str]]:
    for where, _path, quote in _quotes_at(data, path):
        yield where, quote


def _quotes_at(data: Any, path: tuple = ()) -> Iterator[tuple[str, tuple, str]]:
    """(dotted name, key path of the text, text) of every `rule:` and `quote:`."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k in ("rule", "quote") and isinstance(v, str):
                yield ".".join(map(str, path)) or k, path + (k,), v
            else:
                yield from _quotes_at(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _quotes_at(v, path + (i,))


def _pieces(quote: str) -> list[str]:
    parts = re.split(r"\.\.\.|\u2026", quote)
    return [f for f in (_norm(p).strip(" .,;:-\"'") for p in parts) if f]


def _fragments(quote: str) -> list[str]:
    pieces = [f for f in _pieces(quote) if len(f) >= _MIN_FRAGMENT]
    if len(pieces) <= 1:
        return pieces  # a whole quote is meaningful as it stands
    return [f for f in pieces if len(f.split()) >= _MIN_WORDS]


def _meaningful(frag: str, normed: list[str]) -> bool:
    """A short piece of a cut quote that several paragraphs hold tells nothing about which one it encodes."""
    if len(frag.split()) >= _UNIQUE_WORDS:
        return True
    return sum(frag in n for n in normed) <= 1


def rulebook_path(spec: Spec) -> str | None:
    src = spec.rulebook.get("source")
    if not src or not isinstance(src, str):
        return None
    return os.path.normpath(os.path.join(os.path.dirname(spec.doc.path), src))


def _rulebook(spec: Spec) -> tuple[str | None, str | None]:
    """(the text of the rulebook the spec names, why it is not read): a .txt or .md file in the spec's
    folder or project (or RULEWRIGHT_ALLOW), a regular file of at most MAX_RULEBOOK_BYTES (spec/files.py)."""
    path = rulebook_path(spec)
    if path is None:
        return None, None
    problem = files.named_file_problem(path, files.allowed_folders(os.path.dirname(os.path.abspath(spec.doc.path))),
                                       files.RULEBOOK_SUFFIXES)
    if problem:
        return None, problem
    if not os.path.exists(path):
        return None, None
    try:
        return files.read_text(path, files.MAX_RULEBOOK_BYTES, "rulebook"), None
    except OSError as exc:
        return None, exc.strerror or str(exc)


def rulebook_problem(spec: Spec) -> str | None:
    """Why the rulebook text the spec names is not read, or None (also when it names none)."""
    return _rulebook(spec)[1]


def rulebook_text(spec: Spec) -> str | None:
    """The text of the rulebook the spec names, if it may be read; None otherwise (rulebook_problem says why)."""
    return _rulebook(spec)[0]


def trace(spec: Spec) -> list[Paragraph] | None:
    text = rulebook_text(spec)
    if text is None:
        return None
    lines = text.splitlines()
    paras = [Paragraph(i + 1, ln.strip()) for i, ln in enumerate(lines) if _WORD.search(ln)]
    normed = [_norm(p.text) for p in paras]
    whole = " \n ".join(normed)
    starts = []
    pos = 0
    for n in normed:
        starts.append(pos)
        pos += len(n) + 3
    flavour = [(_norm(q).strip(" .\"'")) for q in spec.rulebook.get("flavour", [])]
    for where, quote in _quotes(spec.doc.data):
        cut = len(_pieces(quote)) > 1
        for frag in _fragments(quote):
            if cut and not _meaningful(frag, normed):
                continue
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
    notes = [(piece, str(note.get("why", ""))) for note in _notes(spec)
             for piece in _pieces(str(note.get("text", "")))]
    for k, n in enumerate(normed):
        if any(_covers(f, n) for f in flavour):
            paras[k].flavour = True
        for piece, why in notes:
            if _covers(piece, n):
                paras[k].note = why
                break
    return paras


def _covers(text: str, para: str) -> bool:
    """`text` (flavour or a note) accounts for the paragraph: it is the paragraph, or one holds the other.

    Short text counts only word for word: a heading like "Components" in the flavour list does not
    account for a paragraph that says "the Components list", nor does a note that mentions the
    "Scoring Chart" account for the heading "Scoring Chart"."""
    text, para = text.strip(" .\"'"), para.strip(" .\"'")
    if not text:
        return False
    return (text == para or (len(text.split()) >= _UNIQUE_WORDS and text in para)
            or (len(para.split()) >= _MIN_WORDS and para in text))


def _notes(spec: Spec) -> list[dict]:
    return [n for n in spec.rulebook.get("notes") or [] if isinstance(n, dict)]


def _flat(s: str) -> str:
    s = s.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'").replace("\u2018", "'")
    return _WS.sub(" ", s).strip().lower()


def misquotes(spec: Spec) -> list[tuple[tuple, str, str]] | None:
    """(key path, where, the piece not found) for every quote that is not the rulebook's words.

    A quote may leave words out with "..." (each piece must occur, in any order: a rule may cite
    sentences of several paragraphs); the flavour list is checked too. None when the spec names
    no rulebook text."""
    raw = rulebook_text(spec)
    if raw is None:
        return None
    text = _flat(_BULLET.sub(" ", raw))
    out = []
    found = list(_quotes_at(spec.doc.data))
    flavour = spec.rulebook.get("flavour") or []
    found += [("game.rulebook.flavour", ("game", "rulebook", "flavour", i), q)
              for i, q in enumerate(flavour) if isinstance(q, str)]
    found += [("game.rulebook.notes", ("game", "rulebook", "notes", i, "text"), n["text"])
              for i, n in enumerate(spec.rulebook.get("notes") or [])
              if isinstance(n, dict) and isinstance(n.get("text"), str)]
    home = spec.doc.span(("game", "rulebook", "source"))
    for where, at, quote in found:
        span = spec.doc.span(at)
        if home is not None and span is not None and span.path != home.path:
            continue  # a base's quotes cite the base's own rulebook, not this one
        for piece in re.split(r"\.\.\.|\u2026", quote):
            piece = _flat(_BULLET.sub(" ", piece)).strip(" .,;:-\"'")
            if piece and piece not in text:
                out.append((at, where, piece))
                break
    return out
