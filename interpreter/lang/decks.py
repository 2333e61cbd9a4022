"""Decks as a product of attributes: one card type declared `each:` over suits x ranks.

Owns expanding a card type with `each: {suit: [...], rank: {from: 2, to: 14}}` into one card type
per combination (in the order written: the first attribute varies slowest), each with the attributes
as card properties, a name `<type>_<value>_<value>` (what examples and `given.zones` use) and a label
whose `{attribute}` holes are filled in (`"{rank} of {suit}"`), and the diagnostics of a product
that cannot be expanded (E447: an attribute with no values, a hole naming no attribute, a product
past the card limit). Expansion is bounded by MAX_CARDS before any list is built.
"""
from __future__ import annotations

import re
from itertools import product
from typing import Any, Iterator

from ..spec.diagnostics import Diagnostic

_HOLE = re.compile(r"\{([^{}]*)\}")
MAX_CARDS = 10_000  # as limits.MAX_CARDS (limits imports the model, which imports this module)


def attribute_values(spec: Any) -> list[Any]:
    """The values of one attribute: a list, or a range `{from: a, to: b}` (both ends included)."""
    if isinstance(spec, dict):
        lo, hi = spec.get("from", 0), spec.get("to", -1)
        if not isinstance(lo, int) or not isinstance(hi, int) or hi - lo + 1 > MAX_CARDS:
            return []
        return list(range(lo, hi + 1))
    return list(spec or [])


def product_size(each: dict) -> int:
    n = 1
    for v in each.values():
        n *= max(len(attribute_values(v)), 0)
        if n > MAX_CARDS:
            return n
    return n


def expand(name: str, card: dict) -> list[tuple[str, str, dict[str, Any]]]:
    """(type name, label, attribute properties) of every card type a declaration stands for."""
    each = card.get("each")
    if not each:
        return [(name, card.get("label", name), {})]
    if not 1 <= product_size(each) <= MAX_CARDS:
        return []  # the checker says why (E447)
    attrs = list(each)
    label = card.get("label", "{" + "} {".join(attrs) + "}")
    out = []
    for combo in product(*(attribute_values(each[a]) for a in attrs)):
        values = dict(zip(attrs, combo))
        tname = "_".join([name] + [_slug(v) for v in combo])
        shown = _HOLE.sub(lambda m: str(values.get(m.group(1).strip(), m.group(0))), label)
        out.append((tname, shown, values))
    return out


def _slug(v: Any) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", str(v).lower()) if not isinstance(v, bool) else str(v).lower()


def check(doc) -> Iterator[Diagnostic]:
    """E447: a product that cannot be expanded, or a label hole that names no attribute."""
    cards = ((doc.data.get("components") or {}).get("cards") or {})
    for name, card in cards.items():
        each = card.get("each")
        if not each:
            continue
        for a, v in each.items():
            if not attribute_values(v):
                yield Diagnostic("E447", f"card type '{name}': attribute '{a}' has no values",
                                 doc.span(("components", "cards", name, "each", a)),
                                 hint="list the values (`[red, green]`) or give a range `{from: 1, to: 9}` with "
                                      "`to` not below `from`")
        n = product_size(each)
        if n > MAX_CARDS:
            yield Diagnostic("E447", f"card type '{name}': {' x '.join(str(len(attribute_values(v))) for v in each.values())}"
                             f" makes more than {MAX_CARDS:,} card types", doc.span(("components", "cards", name, "each")),
                             hint="a deck is a few attributes with a few values each")
        for m in _HOLE.finditer(str(card.get("label", ""))):
            if m.group(1).strip() not in each:
                yield Diagnostic("E447", f"card type '{name}': the label's {{{m.group(1)}}} is not an attribute of `each`",
                                 doc.span(("components", "cards", name, "label")),
                                 hint=f"attributes: {', '.join(each)}")
        clash = set(each) & set(card.get("props") or {})
        if clash:
            yield Diagnostic("E447", f"card type '{name}': {', '.join(sorted(clash))} is both an attribute and a property",
                             doc.span(("components", "cards", name, "props")), hint="keep it in one place")
