"""Interchangeable cards: a choice that differs only by identical cards is offered once.

Two Fighting 1 in a hand are the same card to the player: a meld of
"Fighting 1, Fighting 1, Fighting 2" is one meld, not two, and a random
player must not weight it double. Owns the general rule behind `choose c
from CARDS` and `choose subset cards of CARDS`:

- two cards are interchangeable when they are of the same card type and lie
  in the same zone, and that zone's order is never read by a rule (no `top`,
  `bottom`, `first`, `last`, `position` or `after` of it, and no `for each`
  over it): in such a zone the cards are a heap, not a sequence;
- a value choice keeps the first card of each interchangeable kind, in the
  source's order; a subset choice keeps the first subset of each multiset of
  kinds (subsets are listed smallest first, in the source's order).

What it deliberately does not do: merge `option for c in ...` branches (a
spec can list distinct cards itself, as Stunt Academy's `distinct_cards`
does), or merge cards of an ordered zone (the second Fighting 2 of the row
costs more than the first). Which of two identical cards moves can still
change the order of the cards left behind; in a zone no rule reads in order
that is invisible to the rules.
"""
from __future__ import annotations

from typing import Any

from ..lang import nodes as N
from ..lang.kinds import T
from ..lang.model import Spec, codes

ORDER_READERS = frozenset({"top", "bottom", "first", "last", "position", "after"})


def _zones_in(e: Any) -> set[str]:
    out = set()
    for n in N.walk(e):
        if getattr(n, "ty", None) is T.ZONE:
            if isinstance(n, N.Attr):
                out.add(n.name)
            elif isinstance(n, N.Name):
                out.add(n.id)
    return out


_NOT_RULES = ("examples", "measures", "heuristic")  # they read a game, they do not play it


def ordered_zones(spec: Spec) -> set[str]:
    """Zones some rule reads in order (an example's `expect`, a measure or a heuristic is not a rule)."""
    skip = {id(c) for c in codes(spec, _NOT_RULES)}
    out: set[str] = set()
    for code in codes(spec):
        if code is None or code.ast is None or id(code) in skip:
            continue
        for n in N.walk(code.ast):
            if isinstance(n, N.Call) and n.func in ORDER_READERS and n.args:
                out |= _zones_in(n.args[0])
            elif isinstance(n, N.ForEach):
                out |= _zones_in(n.coll)
    return out & set(spec.zones)


class Interchange:
    """The per-spec rule: which zone ids hold interchangeable cards, and the merging of options."""

    def __init__(self, spec: Spec, card_type: list[str]):
        ordered = ordered_zones(spec)
        self.card_type = card_type
        kinds = {name: k for k, name in enumerate(dict.fromkeys(card_type))}
        self.kind = [kinds[name] for name in card_type]  # per card id, its type as a number
        self.kinds = max(len(kinds), 1)
        shared = sorted((z for z in spec.zones.values() if z.owner == "shared"), key=lambda z: z.index)
        player = sorted((z for z in spec.zones.values() if z.owner == "player"), key=lambda z: z.index)
        self.shared = [z.name not in ordered for z in shared]
        self.player = [z.name not in ordered for z in player]
        self.any = any(self.shared) or any(self.player)

    def _loose(self, zid: int) -> bool:
        S = len(self.shared)
        return self.shared[zid] if zid < S else self.player[(zid - S) % len(self.player)]

    def _key(self, st, c: int):
        z = st.where[c]
        return (self.card_type[c], z) if self._loose(z) else c

    def values(self, st, cards: list) -> list:
        """One card of each interchangeable kind, in the source's order."""
        if not self.any or len(cards) < 2:
            return cards
        seen, out = set(), []
        for c in cards:
            k = self._key(st, c)
            if k not in seen:
                seen.add(k)
                out.append(c)
        return out

    def subsets(self, st, found: list[list]) -> list[list]:
        """One subset of each multiset of interchangeable kinds, in the order found."""
        if not self.any or len(found) < 2:
            return found
        seen, out = set(), []
        where, kind, kinds, loose = st.where, self.kind, self.kinds, self._loose
        for combo in found:
            # each card as a number: its id, or (an interchangeable one) -1 - its zone and type, both exact
            k = tuple(sorted([-1 - where[c] * kinds - kind[c] if loose(where[c]) else c for c in combo]))
            if k not in seen:
                seen.add(k)
                out.append(combo)
        return out
