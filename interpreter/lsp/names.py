"""What a spec declares, and where: the index behind completion, hover and go-to-definition.

Owns: from a loaded `Document` (and the model, when it built), every name a
rule can use with its kind, a one-line description and the span of its
declaration (in the base file for what a variant inherits); and which YAML
path a file position falls in. It reads only what the pipeline produced.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..lang.builtins import BUILTINS, NAMESPACES, SPECIAL_NAMES
from ..spec.diagnostics import Span
from ..spec.loader import Document

SECTIONS_WITH_ENTRIES = ("boards", "zones", "actions", "procedures", "functions", "triggers", "options", "ambiguities",
                         "assumptions", "examples", "invariants", "measures")


@dataclass(slots=True, frozen=True)
class Name:
    name: str
    kind: str  # zone, player zone, global variable, player variable, turn variable, procedure, function,
    #            action, option, ambiguity, card type, card property, builtin, special, namespace
    detail: str
    span: Span | None  # its declaration
    path: tuple = ()  # its YAML path


def _mapping(data: Any, *path: Any) -> dict:
    for k in path:
        if not isinstance(data, dict):
            return {}
        data = data.get(k)
    return data if isinstance(data, dict) else {}


class Index:
    """Every name of one spec, by kind."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.names: list[Name] = []
        d = doc.data if isinstance(doc.data, dict) else {}

        def add(kind: str, name: Any, detail: str, *path: Any) -> None:
            self.names.append(Name(str(name), kind, detail, doc.span(path, key=True), tuple(path)))

        for z, v in _mapping(d, "zones").items():
            v = v if isinstance(v, dict) else {}
            owner = v.get("owner", "shared")
            add("player zone" if owner == "player" else "zone", z,
                f"{'a zone of each player' if owner == 'player' else 'a shared zone'}, "
                f"visibility {v.get('visibility', 'public')}", "zones", z)
        for b, v in _mapping(d, "boards").items():
            v = v if isinstance(v, dict) else {}
            add("board", b, f"a board of {v.get('rows')} rows and {v.get('columns')} columns (`a1` top left)", "boards", b)
        for scope in ("global", "player", "turn"):
            for n, v in _mapping(d, "state", scope).items():
                v = v if isinstance(v, dict) else {}
                keys = f", one per key of {v['keys']}" if "keys" in v else ""
                keys += f", one per cell of board {v['cells']}" if "cells" in v else ""
                add(f"{scope} variable", n, f"{v.get('type', 'int')}, starts at {v.get('start')}{keys}",
                    "state", scope, n)
        for sec, kind in (("procedures", "procedure"), ("functions", "function")):
            for n, v in _mapping(d, sec).items():
                params = _mapping(v, "params")
                add(kind, n, f"{kind} {n}({', '.join(f'{p}: {t}' for p, t in params.items())})", sec, n)
        for n, v in _mapping(d, "actions").items():
            label = v.get("label", n) if isinstance(v, dict) else n
            add("action", n, f"action, offered as \"{label}\"", "actions", n)
        for n, v in _mapping(d, "options").items():
            v = v if isinstance(v, dict) else {}
            add("option", n, f"option: {v.get('values')}, default {v.get('default')}", "options", n)
        for n, v in _mapping(d, "ambiguities").items():
            v = v if isinstance(v, dict) else {}
            quote = f" \"{v['quote']}\"" if isinstance(v.get("quote"), str) else ""
            add("ambiguity", n, f"ambiguity{quote}: {', '.join(map(str, _mapping(v, 'interpretations')))}; "
                                f"default {v.get('default')}", "ambiguities", n)
        seen_props: set[str] = set()
        for n, v in _mapping(d, "components", "cards").items():
            v = v if isinstance(v, dict) else {}
            add("card type", n, f"card type: {v.get('count')} in {v.get('in')}", "components", "cards", n)
            for p, val in _mapping(v, "props").items():
                if p not in seen_props:
                    seen_props.add(p)
                    add("card property", p, f"card property ({type(val).__name__}, e.g. {val!r} on {n})",
                        "components", "cards", n, "props", p)
        for p in _mapping(d, "components", "defaults"):
            if p not in seen_props:
                seen_props.add(p)
                add("card property", p, "card property (with a default)", "components", "defaults", p)
        for n, v in _mapping(d, "examples").items():
            add("example", n, "example", "examples", n)

    def of(self, *kinds: str) -> list[Name]:
        return [n for n in self.names if n.kind in kinds]

    def find(self, name: str, *kinds: str) -> Name | None:
        for n in self.names:
            if n.name == name and (not kinds or n.kind in kinds):
                return n
        return None

    def interpretations(self, ambiguity: str) -> list[str]:
        return [str(k) for k in _mapping(self.doc.data, "ambiguities", ambiguity, "interpretations")]

    def option_values(self, option: str) -> list[str]:
        from ..lang.model import option_values
        return [str(x) for x in option_values(_mapping(self.doc.data, "options", option).get("values"))]


def builtin_names() -> list[Name]:
    return ([Name(n, "builtin", b.doc, None) for n, b in BUILTINS.items()]
            + [Name(n, "special", f"{what}", None) for n, (_t, what) in SPECIAL_NAMES.items()]
            + [Name(n, "namespace", what, None) for n, what in NAMESPACES.items()])


def path_at(doc: Document, path: str, line: int, col: int) -> tuple:
    """The deepest YAML path whose value (or key) holds file position (line, col), 1-based; () if none."""
    best: tuple = ()
    best_size = None
    for p, loc in doc.where.items():
        for span in (loc.value, loc.key):
            if span is None or span.path != path or not _inside(span, line, col):
                continue
            size = (span.end_line - span.line, span.end_col - span.col if span.end_line == span.line else 0)
            if best_size is None or len(p) > len(best) or (len(p) == len(best) and size < best_size):
                best, best_size = p, size
    return best


def _inside(s: Span, line: int, col: int) -> bool:
    if (line, col) < (s.line, s.col):
        return False
    return (line, col) <= (s.end_line, s.end_col)


def rule_sentence(doc: Document, path: tuple) -> tuple[str, str] | None:
    """The rulebook sentence (`rule:` or `quote:`) of the nearest entry around `path`, and that entry's name."""
    data = doc.data
    nodes = [data]
    for k in path:
        try:
            data = data[k]
        except (KeyError, IndexError, TypeError):
            break
        nodes.append(data)
    for i in range(len(nodes) - 1, -1, -1):
        n = nodes[i]
        if isinstance(n, dict):
            for key in ("rule", "quote"):
                if isinstance(n.get(key), str):
                    return n[key], ".".join(map(str, path[:i])) or "the spec"
    return None
