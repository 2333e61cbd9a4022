"""A loaded spec file: its YAML data with the position of every key and value.

Owns `Document` (the data, the source text, where each path of keys stands:
`span(path)`, a value's text with exact positions), `Located` (a value with
its position), `Path` (the keys from the top of the spec), the text of a
YAML scalar mapped back onto its source (`scalar_text`), the value at a path
(`value_at`) and the JSON type of a loaded value (`json_type`, which messages
name). loader.py builds documents from files, and variants.py merges a
variant onto its base; both import this module, which imports neither.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from .diagnostics import Span, Text


Path = tuple[Any, ...]


@dataclass(slots=True)
class Located:
    key: Span | None
    value: Span
    node: Any  # the yaml node, to rebuild Text with exact anchors


@dataclass(slots=True)
class Document:
    """A loaded spec: its data and where every part of it came from."""
    path: str
    source: str
    data: Any
    where: dict[Path, Located] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # path -> text, base files too
    # Texts a variant joined to its base's (`append:`/`prepend:`): the pieces in order,
    # each where it was written and its own text.
    joins: dict[Path, list[tuple[Located, str]]] = field(default_factory=dict)

    def span(self, path: Path, key: bool = False) -> Span | None:
        """The span of the value at `path` (or of its key), or the nearest parent's."""
        p = tuple(path)
        while True:
            loc = self.where.get(p)
            if loc is not None:
                return (loc.key or loc.value) if key else loc.value
            if not p:
                return None
            p = p[:-1]

    def text(self, path: Path) -> Text:
        """The string at `path` as a Text that maps offsets to file positions."""
        pieces = self.joins.get(tuple(path))
        if pieces is not None:
            return self._joined(pieces, str(value_at(self.data, path)))
        loc = self.where[tuple(path)]
        value = value_at(self.data, path)
        return scalar_text(loc.node, str(value), loc.value.path, self.sources.get(loc.value.path, ""))

    def _joined(self, pieces: list[tuple[Located, str]], value: str) -> Text:
        anchors: list[tuple[int, int]] = []
        paths: list[str] = []
        for loc, piece in pieces:
            piece = piece.rstrip("\n")
            t = scalar_text(loc.node, piece, loc.value.path, self.sources.get(loc.value.path, ""))
            n = piece.count("\n") + 1
            got = (t.anchors + [t.anchors[-1]] * n)[:n] if t.anchors else [(loc.value.line, loc.value.col)] * n
            anchors.extend(got)
            paths.extend([loc.value.path] * n)
        return Text(value, pieces[0][0].value.path, anchors, paths=paths)


# In this order: a YAML `true` is an int to Python too.
_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"),
               (dict, "object"), (type(None), "null"))


def json_type(value: Any) -> str | None:
    """The JSON Schema type of a loaded YAML value ("object", "array", "string", "integer", "number",
    "boolean", "null"), or None for a value JSON has no type for (a YAML date)."""
    return next((name for cls, name in _JSON_TYPES if isinstance(value, cls)), None)


def value_at(data: Any, path: Path) -> Any:
    """The value at `path` (keys and list indexes) inside `data`."""
    for k in path:
        data = data[k]
    return data


def _span(path: str, node: yaml.Node) -> Span:
    s, e = node.start_mark, node.end_mark
    return Span(path, s.line + 1, s.column + 1, e.line + 1, e.column + 1)


def scalar_text(node: yaml.ScalarNode, value: str, path: str, source: str) -> Text:
    """Map each line of a scalar's value to its place in the file."""
    mark = node.start_mark
    lines = source.splitlines()
    style = node.style
    if style in ("|", ">"):
        # Block scalar: content starts on the next line at a fixed indent.
        first = mark.line + 1
        indent = 0
        for raw in lines[first:]:
            if raw.strip():
                indent = len(raw) - len(raw.lstrip(" "))
                break
        n = value.count("\n") + 1
        anchors = [(first + 1 + i, indent + 1) for i in range(n)]
        if style == "|":
            return Text(value, path, anchors)
    quote = 1 if style in ("'", '"') else 0
    anchors = [(mark.line + 1, mark.column + 1 + quote)]
    raw = source[mark.index:node.end_mark.index]
    if "\n" not in raw and "\\" not in raw and "''" not in raw:
        return Text(value, path, anchors)  # one line, nothing folded or escaped: the anchor is exact
    return Text(value, path, anchors, _align(value, source, mark.index + quote, node.end_mark.index))


def _align(value: str, source: str, start: int, end: int) -> list[tuple[int, int]]:
    """File (line, col) of every character of a folded or escaped scalar's value.

    YAML folds line breaks into spaces and decodes escapes, so the value and
    the file text differ; walk both, matching characters and skipping what
    folding and escaping removed.
    """
    line_starts = [0]
    for i, ch in enumerate(source):
        if ch == "\n":
            line_starts.append(i + 1)

    def where(pos: int) -> tuple[int, int]:
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return (lo + 1, pos - line_starts[lo] + 1)

    points = []
    r = start
    for ch in value:
        if ch in " \n":
            while r < end and source[r] in " \t\r\n" and ch == "\n" and source[r] != "\n":
                r += 1
            points.append(where(min(r, end)))
            if r < end and source[r] in " \n":
                r += 1
            while r < end and source[r] in " \t\r\n" and (r == 0 or source[r - 1] == "\n"):
                r += 1  # the indentation of a continuation line
            continue
        found = source.find(ch, r, min(end, r + 8))  # an escape sequence is a few characters long
        if found < 0:
            points.append(where(min(r, end)))
            r += 1
        else:
            points.append(where(found))
            r = found + 1
    points.append(where(min(r, end)))  # the end of the value
    return points
