"""Interchangeable cards: a choice that differs only by identical cards is offered once.

Two Fighting 1 in a hand are the same card to the player: a meld of
"Fighting 1, Fighting 1, Fighting 2" is one meld, not two, and a random
player must not weight it double. Owns the general rule behind `choose c
from CARDS` and `choose subset cards of CARDS`:

- two cards are interchangeable when they are of the same card type and lie
  in the same zone, and that zone's order is never read by a rule (no `top`,
  `bottom`, `first`, `last`, `position` or `after` of it, and no `for each`
  over it): in such a zone the cards are a heap, not a sequence. The rules
  are those of the lowered game (lower/ir.py: its blocks, conditions,
  functions, triggers and invariants, not its measures), so both backends
  (the Python engine's compiler and the kernel) take the answer from the
  one intermediate form; an action no turn offers is in no lowered game and
  reads nothing;
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

from ..lower import ir

ORDER_READERS = frozenset({"top", "bottom", "first", "last", "position", "after"})


def _zones_in(x: ir.X) -> set[tuple[bool, int]]:
    return {(n.owner is not None, n.index) for n in ir.walk(x) if isinstance(n, ir.Zone)}


def ordered_zones(g: ir.Game) -> set[tuple[bool, int]]:
    """Zones some rule of the lowered game reads in order, each as (a player's zone?, its index among the
    shared or the per-player zones). Its measures are not rules (they read a game, they do not play it),
    nor are an example's `expect` or a heuristic (a lowered game holds neither); its invariants are."""
    rules = [g.procedures, g.functions, g.setup, g.first, g.phases, g.end_when, g.winners, g.skip_if,
             g.triggers, g.invariants]
    out: set[tuple[bool, int]] = set()
    for n in ir.walk(rules):
        if isinstance(n, ir.Builtin) and n.name in ORDER_READERS and n.args:
            out |= _zones_in(n.args[0])
        elif isinstance(n, ir.ForEach):
            out |= _zones_in(n.coll)
    return out


class Interchange:
    """The per-spec rule: which zone ids hold interchangeable cards, and the merging of options."""

    def __init__(self, g: ir.Game):
        ordered = ordered_zones(g)
        self.card_type = card_type = g.card_type
        kinds = {name: k for k, name in enumerate(dict.fromkeys(card_type))}
        self.kind = [kinds[name] for name in card_type]  # per card id, its type as a number
        self.kinds = max(len(kinds), 1)
        self.shared = [(False, k) not in ordered for k in range(g.n_shared)]
        self.player = [(True, k) not in ordered for k in range(g.n_player_zones)]
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
