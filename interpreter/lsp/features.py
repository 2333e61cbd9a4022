"""The editor features, as plain functions of a checked text and a cursor position.

Owns: diagnostics placed in the document being edited (those of a base file
shown at its `extends:`), completion of the names valid at the cursor
inside rule text (locals, variables, zones, card properties, procedures,
functions, builtins, options, readings and their values, labels in
examples), hover (a builtin's signature, doc and example; a name's
declaration; the rulebook sentence of the rule under the cursor),
go-to-definition and document symbols. Positions here are 1-based (line,
column in characters) like every Span; server.py converts to the protocol's.
Nothing here touches the protocol or files, so it is tested directly too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..lang import nodes as N
from ..lang.builtins import BUILTINS, NAMESPACES, SPECIAL_NAMES
from ..lang.kinds import T
from ..lang.model import Spec
from ..lang.model import codes
from ..lang.reference import builtin_markdown, keywords
from ..runtime.pipeline import Analysis
from ..spec.diagnostics import Diagnostic, SourceCache, Span
from ..spec.diagnostics import SpecError
from ..spec.loader import Document, load_source
from .names import SECTIONS_WITH_ENTRIES, Index, Name, builtin_names, path_at, rule_sentence

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LOCALS = [re.compile(p) for p in (r"\blet\s+([A-Za-z_]\w*)", r"\bfor\s+each\s+([A-Za-z_]\w*)",
                                   r"\bchoose\s+(?:subset\s+)?([A-Za-z_]\w*)\s+(?:from|of)\b",
                                   r"\boption\s+for\s+([A-Za-z_]\w*)", r"\[\s*([A-Za-z_]\w*)\s+in\b")]


@dataclass(slots=True)
class Item:
    """A completion: the text, what it is, a line about it."""
    label: str
    kind: str
    detail: str = ""
    insert: str | None = None


@dataclass(slots=True)
class Symbol:
    name: str
    kind: str
    span: Span  # the whole entry
    key: Span  # its name
    children: list["Symbol"] = field(default_factory=list)


class Workspace:
    """What the server knows about one open document: the latest analysis, and the last one whose YAML loaded."""

    def __init__(self, path: str):
        self.path = path
        self.analysis: Analysis | None = None
        self.doc: Document | None = None  # the last document that loaded (names survive a broken edit)
        self.index: Index | None = None
        self.spec: Spec | None = None  # the last model that built (its names carry their checked kinds)
        self.text = ""

    def update(self, text: str, analysis: Analysis) -> None:
        self.text = text
        self.analysis = analysis
        if analysis.doc is not None:
            self.doc = analysis.doc
            self.index = Index(analysis.doc)
        if analysis.spec is not None:
            self.spec = analysis.spec


# -- diagnostics -------------------------------------------------------------------
def diagnostics(ws: Workspace) -> list[Diagnostic]:
    """The analysis's diagnostics, each placed in this document."""
    out = []
    a = ws.analysis
    if a is None:
        return out
    extends = ws.doc.span(("extends",)) if ws.doc is not None and isinstance(ws.doc.data, dict) \
        and "extends" in ws.doc.data else None
    for d in a.diagnostics:
        s = d.span
        if s is None:
            out.append(Diagnostic(d.code, d.message, Span(ws.path, 1, 1, 1, 2), d.hint, d.note, d.severity))
        elif s.path == ws.path:
            out.append(d)
        else:  # in a base file: shown at `extends:`, with where it is
            at = extends or Span(ws.path, 1, 1, 1, 2)
            out.append(Diagnostic(d.code, f"in {s.path}:{s.line}:{s.col}: {d.message}", at, d.hint, d.note,
                                  d.severity))
    return out


def message(d: Diagnostic) -> str:
    """The text an editor shows: the message, then its help and note lines, as `check` prints them."""
    return d.message + (f"\nhelp: {d.hint}" if d.hint else "") + (f"\nnote: {d.note}" if d.note else "")


# -- where the cursor is -------------------------------------------------------------
def _line(ws: Workspace, line: int) -> str:
    lines = ws.text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _cursor_path(ws: Workspace, line: int, col: int) -> tuple:
    return path_at(ws.doc, ws.path, line, col) if ws.doc is not None else ()


def _value(doc: Document | None, path: tuple) -> Any:
    data: Any = doc.data if doc is not None else None
    for k in path:
        try:
            data = data[k]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _local_names(ws: Workspace, path: tuple) -> list[Item]:
    """Names a rule text binds itself (let, for each, choose ..., filters) and the parameters around it."""
    doc = ws.doc
    items: dict[str, Item] = {}
    text = _value(doc, path)
    if isinstance(text, str):
        for rx in _LOCALS:
            for m in rx.finditer(text):
                items.setdefault(m.group(1), Item(m.group(1), "local", "a local name of this rule"))
    if len(path) >= 2 and doc is not None:
        entry = _value(doc, path[:2])
        if isinstance(entry, dict):
            if path[0] in ("procedures", "functions") and isinstance(entry.get("params"), dict):
                for p, t in entry["params"].items():
                    items[str(p)] = Item(str(p), "parameter", f"parameter: {t}")
            if path[0] == "actions" and isinstance(entry.get("choose"), dict):
                for p in entry["choose"]:
                    items[str(p)] = Item(str(p), "parameter", "chosen by the player (`choose:`)")
            if path[0] == "triggers":
                items["card"] = Item("card", "parameter", "the card that entered the zone")
                items["owner"] = Item("owner", "parameter", "the owner of the zone (a player zone)")
    return list(items.values())


def _labels(ws: Workspace) -> list[Item]:
    """What an example's `do:` can name: action labels and the labels of `choose` options."""
    out: dict[str, Item] = {}
    spec = ws.analysis.spec if ws.analysis is not None else None
    if ws.index is not None:
        for n in ws.index.of("action"):
            entry = _value(ws.doc, ("actions", n.name))
            label = entry.get("label", n.name) if isinstance(entry, dict) else n.name
            out.setdefault(str(label), Item(str(label), "label", f"action {n.name}"))
    if spec is not None:
        for code in codes(spec):
            for node in N.walk(code.ast) if code.ast is not None else ():
                if isinstance(node, N.Option) and all(isinstance(p, str) for p in node.label.parts):
                    text = "".join(node.label.parts)
                    out.setdefault(text, Item(text, "label", "an option of a `choose`"))
    return list(out.values())


def _kind_of(ws: Workspace, path: tuple, name: str) -> T | None:
    """The checked kind of `name` in the rule text at `path`, from the last model that built."""
    if name in SPECIAL_NAMES:
        return SPECIAL_NAMES[name][0]
    if ws.spec is None:
        return None
    for code in codes(ws.spec):
        if tuple(code.path) == tuple(path) and code.ast is not None:
            for node in N.walk(code.ast):
                if isinstance(node, N.Name) and node.id == name and node.ty in (T.PLAYER, T.CARD, T.CELL):
                    return node.ty
    return None


def _kind_items(names: list[Name]) -> list[Item]:
    return [Item(n.name, n.kind, n.detail) for n in names]


# -- completion --------------------------------------------------------------------
def complete(ws: Workspace, line: int, col: int) -> list[Item]:
    """The names valid at the cursor (1-based line and column)."""
    before = _line(ws, line)[:col - 1]
    path = _cursor_path(ws, line, col)
    idx = ws.index
    if path[:1] == ("examples",) and len(path) >= 3 and path[2] == "do":
        return _labels(ws)
    if idx is None:
        return _kind_items(builtin_names())
    m = re.search(r"\breading\.([A-Za-z_]\w*)\s*[!=]=\s*[\"']\w*$", before)
    if m:
        return [Item(i, "value", f"an interpretation of {m.group(1)}") for i in idx.interpretations(m.group(1))]
    m = re.search(r"\boption\.([A-Za-z_]\w*)\s*[!=]=\s*[\"']\w*$", before)
    if m:
        return [Item(v, "value", f"a value of option {m.group(1)}") for v in idx.option_values(m.group(1))]
    m = re.search(r"([A-Za-z_]\w*)\s*\.\s*\w*$", before)
    if m:
        q = m.group(1)
        if q == "option":
            return _kind_items(idx.of("option"))
        if q == "reading":
            return _kind_items(idx.of("ambiguity"))
        if q == "turn":
            return _kind_items(idx.of("turn variable"))
        player = _kind_items(idx.of("player variable", "player zone")) + [
            Item("seat", "player field", "the player's seat number, from 1")]
        card = _kind_items(idx.of("card property")) + [Item("type", "card field", "the card's type name")]
        kind = _kind_of(ws, path, q)
        if kind is T.PLAYER:
            return player
        if kind is T.CARD:
            return card
        if kind is T.CELL:  # a cell of a board (interpreter/lang/boards.py)
            return [Item("row", "cell field", "the cell's row, from 1 at the top"),
                    Item("column", "cell field", "the cell's column, from 1 at the left")]
        return player + card  # a name whose kind the checker has not seen here yet
    items = _local_names(ws, path)
    items += _kind_items(idx.of("global variable", "zone", "procedure", "function", "action", "card type", "board"))
    items += [Item(n, "builtin", b.doc, f"{n}(") for n, b in BUILTINS.items()]
    items += [Item(n, "special", what) for n, (_t, what) in SPECIAL_NAMES.items()]
    items += [Item(n, "namespace", what) for n, what in NAMESPACES.items()]
    items += [Item(k, "keyword", "") for k in keywords()]
    seen: set[str] = set()
    out = []
    for it in items:
        if it.label not in seen:
            seen.add(it.label)
            out.append(it)
    return out


# -- hover and definition ------------------------------------------------------------
def word_at(text: str, col: int) -> tuple[str, str | None, int, int] | None:
    """The name under column `col` (1-based) of a line, its qualifier (`option` in `option.x`), and its columns."""
    for m in _WORD.finditer(text):
        if m.start() <= col - 1 <= m.end():  # on the word, or just after its last character
            q = re.search(r"([A-Za-z_]\w*|\])\s*\.\s*$", text[:m.start()])
            return m.group(0), (q.group(1) if q else None), m.start() + 1, m.end() + 1
    return None


def resolve(ws: Workspace, line: int, col: int) -> tuple[str, Name | None]:
    """What the name under the cursor is: ("builtin"/"name", the declaration) or ("", None)."""
    w = word_at(_line(ws, line), col)
    idx = ws.index
    if w is None or idx is None:
        return "", None
    name, q, start, end = w
    rest = _line(ws, line)[end - 1:]
    if q == "option":
        return "name", idx.find(name, "option")
    if q == "reading":
        return "name", idx.find(name, "ambiguity")
    if q == "turn":
        return "name", idx.find(name, "turn variable")
    if q is not None:
        return "name", idx.find(name, "player variable", "player zone", "card property")
    if name in BUILTINS and rest.lstrip().startswith("(") and idx.find(name, "function") is None:
        return "builtin", Name(name, "builtin", BUILTINS[name].doc, None)
    path = _cursor_path(ws, line, col)
    if "actions" in path[:-1] and path[:1] != ("actions",):  # a turn's list of actions names actions
        found = idx.find(name, "action")
        if found is not None:
            return "name", found
    found = idx.find(name, "procedure", "function", "zone", "board", "global variable", "action", "card type", "ambiguity",
                     "option", "player zone", "player variable", "turn variable", "card property", "example")
    if found is not None:
        return "name", found
    if name in BUILTINS:
        return "builtin", Name(name, "builtin", BUILTINS[name].doc, None)
    if name in SPECIAL_NAMES:
        return "name", Name(name, "special", SPECIAL_NAMES[name][1], None)
    return "", None


def hover(ws: Workspace, line: int, col: int, sources: SourceCache | None = None) -> str | None:
    """Markdown for the cursor: the name under it, then the rulebook sentence of the rule around it."""
    parts = []
    what, n = resolve(ws, line, col)
    if what == "builtin" and n is not None:
        parts.append(builtin_markdown(n.name))
    elif n is not None:
        head = f"**{n.kind}** `{n.name}`: {n.detail}"
        if n.span is not None:
            sources = sources or SourceCache()
            if n.span.path == ws.path:
                sources.add(ws.path, ws.text)
            src = sources.line(n.span.path, n.span.line)
            head += f"\n\n```yaml\n{(src or '').strip()}\n```\ndeclared at {n.span.path}:{n.span.line}:{n.span.col}"
        parts.append(head)
    if ws.doc is not None:
        found = rule_sentence(ws.doc, _cursor_path(ws, line, col))
        if found is not None:
            sentence, where = found
            parts.append(f"**Rulebook** ({where}):\n\n> {sentence}")
    return "\n\n---\n\n".join(parts) if parts else None


def definition(ws: Workspace, line: int, col: int) -> Span | None:
    """Where the name under the cursor is declared (in a variant's base file for what it inherits)."""
    what, n = resolve(ws, line, col)
    return n.span if n is not None and what == "name" else None


# -- symbols ----------------------------------------------------------------------------
_SYMBOL_KIND = {"boards": "board", "zones": "zone", "actions": "action", "procedures": "procedure", "functions": "function",
                "triggers": "trigger", "options": "option", "ambiguities": "ambiguity", "assumptions": "assumption",
                "examples": "example", "invariants": "invariant", "measures": "measure"}


def symbols(ws: Workspace) -> list[Symbol]:
    """The outline of this document: its sections and their entries (what a variant inherits is not here)."""
    doc = ws.doc
    if doc is None or not isinstance(doc.data, dict):
        return []
    if doc.where.get(()) is not None and "extends:" in ws.text:
        try:  # a variant: its own file's entries (the merged document's are mostly the base's)
            doc = load_source(ws.path, ws.text)
        except SpecError:
            pass
        if not isinstance(doc.data, dict):
            return []

    def sym(name: str, kind: str, path: tuple) -> Symbol | None:
        loc = doc.where.get(path)
        if loc is None or loc.value.path != ws.path:
            return None
        key = loc.key or loc.value
        v = loc.value
        whole = Span(ws.path, key.line, key.col, v.end_line, v.end_col) if key.path == v.path else v
        return Symbol(name, kind, whole, key)

    out = []
    for sec, value in doc.data.items():
        top = sym(str(sec), "section", (sec,))
        if top is None:
            continue
        if sec in SECTIONS_WITH_ENTRIES and isinstance(value, dict):
            top.children = [s for k in value if (s := sym(str(k), _SYMBOL_KIND[sec], (sec, k)))]
        elif sec == "state" and isinstance(value, dict):
            for scope, vs in value.items():
                sc = sym(str(scope), "scope", (sec, scope))
                if sc is not None and isinstance(vs, dict):
                    sc.children = [s for k in vs if (s := sym(str(k), f"{scope} variable", (sec, scope, k)))]
                    top.children.append(sc)
        elif sec == "components" and isinstance(value, dict) and isinstance(value.get("cards"), dict):
            top.children = [s for k in value["cards"] if (s := sym(str(k), "card type", (sec, "cards", k)))]
        elif sec == "flow" and isinstance(value, dict) and isinstance(value.get("phases"), list):
            for i, ph in enumerate(value["phases"]):
                if isinstance(ph, dict) and (s := sym(str(ph.get("name", i)), "phase", (sec, "phases", i))):
                    top.children.append(s)
        out.append(top)
    return out
