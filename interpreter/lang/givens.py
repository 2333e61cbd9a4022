"""Examples' `given.zones`: the names in each entry, checked before any example runs.

Owns E462: an entry of `given.zones` (`hand@1: [king, queen from deck]`) that names an unknown zone,
a seat the game cannot have, or a card type the spec does not declare, at the entry's position, with
a did-you-mean. Where the cards are when the example runs (an ambiguous or impossible take) is only
known then: runtime/scenarios.py reports that, at the same position.
"""
from __future__ import annotations

import re
from typing import Iterator

from ..spec.diagnostics import Diagnostic, did_you_mean

_ZONE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:@([0-9]+))?$")


def zone_problem(spec, name: str) -> tuple[str, str] | None:
    """(message, hint) when `name` (`deck`, `hand@2`) is not a zone an example can name, else None."""
    m = _ZONE.match(name.strip())
    z = spec.zones.get(m.group(1)) if m else None
    if z is None:
        return (f"unknown zone '{name}'", did_you_mean(m.group(1) if m else name, list(spec.zones))
                or f"zones: {', '.join(spec.zones)}")
    if z.owner == "player" and not m.group(2):
        return f"'{name}' belongs to a player", f"write {name}@SEAT, e.g. {name}@1"
    if z.owner == "player" and not 1 <= int(m.group(2)) <= spec.max_players:
        return (f"seat {m.group(2)} does not exist (the game is for at most {spec.max_players} players)",
                f"seats are 1 to {spec.max_players}")
    if z.owner == "shared" and m.group(2):
        return f"'{m.group(1)}' is a shared zone: it has no seats", f"write {m.group(1)}"
    return None


def check(spec) -> Iterator[Diagnostic]:
    for ex in spec.examples.values():
        zones = (ex.given or {}).get("zones") or {}
        if not isinstance(zones, dict):
            continue
        for zname, entries in zones.items():
            at = ("examples", ex.name, "given", "zones", zname)
            bad = zone_problem(spec, str(zname))
            if bad:
                yield Diagnostic("E462", f"example '{ex.name}': given.zones: {bad[0]}", spec.doc.span(at, key=True),
                                 hint=bad[1])
            for i, entry in enumerate(entries or []):
                t, sep, src = (x.strip() for x in str(entry).partition(" from "))
                if t not in spec.cards:
                    yield Diagnostic("E462", f"example '{ex.name}': given.zones.{zname}: unknown card type '{t}'",
                                     spec.doc.span(at + (i,)),
                                     hint=did_you_mean(t, list(spec.cards)) or "a card type's name, as `explain` lists them")
                if sep and (bad := zone_problem(spec, src)):
                    yield Diagnostic("E462", f"example '{ex.name}': given.zones.{zname}: takes from {bad[0]}",
                                     spec.doc.span(at + (i,)), hint=bad[1])
