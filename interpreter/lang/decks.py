"""Decks as a product of attributes: one card type declared `each:` over suits x ranks.

Owns expanding a card type with `each: {suit: [...], rank: {from: 2, to: 14}}` into one card type
per combination (in the order written: the first attribute varies slowest), each with the attributes
as card properties, a name `<type>_<value>_<value>` (what examples and `given.zones` use) and a label
whose `{attribute}` holes are filled in (`"{rank} of {suit}"`), and the diagnostics of a product
that cannot be expanded (E447: an attribute with no values, a hole naming no attribute, a product
past the card limit). Expansion is bounded by MAX_CARDS before any list is built.

Also owns card counts that depend on the number of players (`count: {3-5: 11, 6: 9, 7: 7}`, one count
per player count or range of them; E461 for a count map that leaves a player count out, names one the
game is not for, or gives one twice) and what a count means for a type that starts in a per-player
zone (`in: hand`: that many cards in each player's own zone).
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


_RANGE = re.compile(r"^\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?$")


def count_map(count: Any) -> tuple[dict[int, int], list[tuple[Any, str]]]:
    """A `count:` map as {player count: cards}, and its problems (key, message) for the checker.

    A key is a player count (`6: 9`) or a range of them (`3-5: 11`, both ends included)."""
    out: dict[int, int] = {}
    problems: list[tuple[Any, str]] = []
    for key, n in count.items():
        m = _RANGE.match(str(key))
        if m is None or isinstance(key, bool):
            problems.append((key, f"'{key}' is not a player count (write `4: 10`, or a range `3-5: 11`)"))
            continue
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo or hi - lo > 1000:
            why = "the first number is the smaller" if hi < lo else "a range spans at most 1,000 player counts"
            problems.append((key, f"'{key}' is not a range of player counts ({why})"))
            continue
        for k in range(lo, hi + 1):
            if k in out:
                problems.append((key, f"the count for {k} players is given twice"))
            out[k] = n
    return out, problems


def counts_for(count: Any, lo: int, hi: int) -> dict[int, int] | None:
    """Cards per player count from `lo` to `hi` (a missing one counts 0), or None for a fixed count."""
    if not isinstance(count, dict):
        return None
    table = count_map(count)[0]
    return {n: table.get(n, 0) for n in range(lo, hi + 1)}


def check_counts(doc, min_players: int, max_players: int) -> Iterator[Diagnostic]:
    """E461: a `count:` map that does not give exactly one count for each player count of the game."""
    cards = ((doc.data.get("components") or {}).get("cards") or {})
    for name, card in cards.items():
        count = card.get("count")
        if not isinstance(count, dict):
            continue
        table, problems = count_map(count)
        for key, msg in problems:
            yield Diagnostic("E461", f"card type '{name}': {msg}",
                             doc.span(("components", "cards", name, "count", key), key=True),
                             hint="give one count per player count the game is for")
        for k in sorted(table):
            if not min_players <= k <= max_players:
                key = next((key for key in count if _covers(key, k)), None)
                yield Diagnostic("E461", f"card type '{name}': a count for {k} players, but the game is for "
                                 f"{min_players} to {max_players}",
                                 doc.span(("components", "cards", name, "count", key), key=True),
                                 hint=f"player counts: {min_players}-{max_players} (game.players)")
                break
        missing = [k for k in range(min_players, max_players + 1) if k not in table]
        if missing and not problems:
            yield Diagnostic("E461", f"card type '{name}': no count for {_ranges(missing)} players",
                             doc.span(("components", "cards", name, "count"), key=True),
                             hint=f"give every player count from {min_players} to {max_players} a count "
                                  f"(`{min_players}-{max_players}: 10`), 0 where there are none")


def _covers(key: Any, k: int) -> bool:
    m = _RANGE.match(str(key))
    return bool(m) and int(m.group(1)) <= k <= int(m.group(2) or m.group(1))


def _ranges(ns: list[int]) -> str:
    out, i = [], 0
    while i < len(ns):
        j = i
        while j + 1 < len(ns) and ns[j + 1] == ns[j] + 1:
            j += 1
        out.append(str(ns[i]) if i == j else f"{ns[i]}-{ns[j]}")
        i = j + 1
    return ", ".join(out)


def describe_count(ct) -> str:
    """A card type's count as `explain` shows it: `11`, `11 per player`, `3-5 players: 11, 6: 9 per player`."""
    each = " per player" if ct.per_seat else ""
    if ct.count_code is not None:
        return f"`{ct.count_code.text.value}`{each}"
    if ct.counts is None:
        return f"{ct.count}{each}"
    groups: list[tuple[int, int, int]] = []
    for n, c in sorted(ct.counts.items()):
        if groups and groups[-1][2] == c and groups[-1][1] == n - 1:
            groups[-1] = (groups[-1][0], n, c)
        else:
            groups.append((n, n, c))
    return ", ".join(f"{a if a == b else f'{a}-{b}'} players: {c}" for a, b, c in groups) + each
