"""Chance from outside: dice outcomes and deck orders given to a game instead of drawn from its seed.

Owns `Chance`, a script of chance outcomes (the numbers of the next rolls, the order of the next
shuffles of named zones), how a game takes them (`take_number`, `after_shuffle`, called by the
builtins' dice and by `State.shuffle`), and `ChanceError`, raised when a script runs out or does
not fit. A script is how a game is driven in lockstep with another engine (OpenSpiel), replays a
recorded real game, or fixes a test's luck; a spec's examples (`given: rolls:`, `after_shuffle:`)
use the same machinery with their own, more forgiving rules (`Chance.example`).

What a script scripts, in the order the game meets it:
- every number a rule draws: each die of `roll(n, sides)` and `dice(n, sides)`, each
  `random(lo, hi)`, and the first seat when the spec draws it at random (`flow.first: random`, the
  default), as a number from 1 to the player count;
- every shuffle of a zone the script gives an order for: the listed cards come out on top, the first
  listed on top (drawn first), the rest of the zone stays below them as the shuffle left it.
It does not script agents' choices (those are `apply()`'s) nor the chance search agents imagine
(their copies draw from their own generators, never from the script).

It never reads files and knows nothing of agents.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine import Game, State


class ChanceError(ValueError):
    """A chance script ran out (the game drew more than it gave) or does not fit (a number outside the
    roll's range, a card the shuffled zone does not hold, a zone or card type the spec does not have).

    Raised by `Game.new_game`, `State.apply` and `State.script_chance`; when it is raised from inside the
    game, the game has stopped first (`status` is `error`, `reason` is the same message), so the state is
    never left half-way through a rule.
    """


class Chance:
    """A script of chance outcomes: the numbers of the next rolls, in order, and the orders of the next
    shuffles of named zones.

    Args:
        dice: the next numbers drawn, in order: one per die rolled (`roll(2, 6)` takes two), one per
            `random(lo, hi)`, and one (from 1 to the player count) for a first seat drawn at random.
        decks: per zone, the order its next shuffle leaves on top, top card first. A zone is named as
            `view()` names it (`deck`, `P2.hand`) or as a spec's examples do (`hand@2`); a card by its
            card type (`card_2_clubs`, as in `components` and `given:`) or by its label (`2 of clubs`, as
            in narration, `view()` and option labels) when that label belongs to one card type only.
            A list of orders (`{"deck": [order1, order2]}`) scripts several shuffles of that zone.
        strict: True (the default): every chance outcome must come from the script, and a roll or a
            shuffle with no order left for its zone raises `ChanceError` ("ran out").
            False: what the script does not give is drawn from the game's seed. (A shuffle always permutes
            the zone by the seed first; an order then brings the cards it lists to the top.)

    A game keeps its own copy (`Game.new_game(..., chance=script)`); `State.script_chance()` adds
    outcomes to it as the game goes, and `State.chance_left()` says what it has not used yet.
    `clone()` copies it with the state.
    """
    __slots__ = ("dice", "decks", "strict", "seats", "_example")

    def __init__(self, dice: Iterable[int] = (), decks: Mapping[str, Sequence] | None = None, *,
                 strict: bool = True):
        self.dice: list[int] = [int(x) for x in dice]
        #: zone name -> the orders of its next shuffles (each top card first), as given
        self.decks: dict[str, list[list[str]]] = {}
        self.strict = strict
        self.seats = True  # a first seat drawn at random is a number of the script
        self._example = False
        for zone, orders in (decks or {}).items():
            self.add_order(zone, orders)

    @classmethod
    def example(cls, rolls: Iterable[int]) -> "Chance":
        """A spec example's `given: rolls:`: taken first, then the seed; the first seat is not scripted."""
        c = cls(rolls, strict=False)
        c.seats = False
        c._example = True
        return c

    def add_order(self, zone: str, orders: Sequence) -> None:
        """Queue one order (a list of cards) or several (a list of lists) for the next shuffles of `zone`."""
        if isinstance(orders, str) or not isinstance(orders, Sequence):
            raise ChanceError(f"decks[{zone!r}]: give a list of cards, top card first (or a list of such lists)")
        several = bool(orders) and all(isinstance(o, Sequence) and not isinstance(o, str) for o in orders)
        for order in (orders if several else [orders]):
            self.decks.setdefault(zone, []).append([str(c) for c in order])

    def copy(self) -> "Chance":
        c = Chance.__new__(Chance)
        c.dice, c.decks, c.strict = self.dice[:], {z: [o[:] for o in q] for z, q in self.decks.items()}, self.strict
        c.seats, c._example = self.seats, self._example
        return c

    def __len__(self) -> int:
        """How many outcomes are left: dice plus shuffle orders."""
        return len(self.dice) + sum(len(q) for q in self.decks.values())

    def __repr__(self) -> str:
        decks = {z: len(q) for z, q in self.decks.items() if q}
        return (f"Chance(dice={self.dice!r}" + (f", decks={{{', '.join(f'{z!r}: {n} order(s)' for z, n in decks.items())}}}"
                                               if decks else "") + f", strict={self.strict})")

    # -- taken by the game ---------------------------------------------------------------------------------
    def take_number(self, lo: int, hi: int) -> int | None:
        """The next scripted number for a draw from `lo` to `hi`; None: draw it from the seed instead."""
        if self.dice:
            v = self.dice[0]
            if not lo <= v <= hi:
                if self._example:
                    from ..lang.builtins import RuleError
                    raise RuleError(f"the example's next roll is {v}, but this roll gives {lo} to {hi}")
                raise ChanceError(f"the chance script does not fit: its next number is {v}, but this draw gives "
                                  f"{lo} to {hi}")
            del self.dice[0]
            return v
        if self.strict:
            raise ChanceError(f"the chance script ran out: the game draws a number from {lo} to {hi} and the "
                              "script has none left (add more with State.script_chance(dice=[...]))")
        return None


def resolve_zone(game: "Game", n: int, name: str) -> int:
    """A zone id from `view()`'s naming (`deck`, `P2.hand`) or an example's (`hand@2`)."""
    spec = game.spec
    base, seat = name, None
    if name.startswith("P") and "." in name and name[1:].split(".", 1)[0].isdigit():
        s, base = name[1:].split(".", 1)
        seat = int(s)
    elif "@" in name:
        base, s = name.split("@", 1)
        seat = int(s) if s.isdigit() else -1
    z = spec.zones.get(base)
    if z is None:
        raise ChanceError(f"the chance script names a zone '{name}' the spec does not have "
                          f"(zones: {', '.join(spec.zones)})")
    if z.owner == "shared":
        if seat is not None:
            raise ChanceError(f"'{base}' is a shared zone: write '{base}', without a seat")
        return z.index
    if seat is None or not 1 <= seat <= n:
        raise ChanceError(f"'{base}' belongs to each player: write P1.{base} to P{n}.{base} (or {base}@1 ...)")
    return game.S + (seat - 1) * game.P + z.index


def resolve_card(game: "Game", name: str) -> str:
    """A card type name from a card type name or a label that belongs to one card type only."""
    spec = game.spec
    if name in spec.cards:
        return name
    types = [t for t, ct in spec.cards.items() if ct.label == name]
    if len(types) == 1:
        return types[0]
    if types:
        raise ChanceError(f"the label '{name}' belongs to several card types ({', '.join(types)}): name one of them")
    raise ChanceError(f"the chance script names a card '{name}' that is neither a card type nor a card label "
                      "of this spec")


def install(st: "State", script: Chance, add: bool = False) -> None:
    """Give `st` its own copy of `script` (`add`: append it to the script `st` has), its zone names
    written as `view()` writes them and its cards as card types, both checked against the game."""
    g = st.g
    own = script.copy()
    decks: dict[str, list[list[str]]] = {}
    for zone, orders in own.decks.items():
        zid = resolve_zone(g, st.n, zone)
        queue = decks.setdefault(g.zone_name(zid), [])
        for order in orders:
            order = [resolve_card(g, c) for c in order]
            for t in set(order):
                have = sum(1 for c, z in enumerate(st.where) if z >= 0 and g.card_type[c] == t)
                if order.count(t) > have:
                    raise ChanceError(f"the chance script does not fit: its order for {g.zone_name(zid)} has "
                                      f"{order.count(t)} '{t}', but a game with {st.n} players has {have}")
            queue.append(order)
    own.decks = decks
    if add and st.scripted is not None:
        st.scripted.dice += own.dice
        for zone, queue in decks.items():
            st.scripted.decks.setdefault(zone, []).extend(queue)
    else:
        st.scripted = own
    st.rig = after_shuffle


def after_shuffle(st: "State", zid: int) -> None:
    """`State.shuffle`'s hook: bring the script's next order for this zone to its top."""
    script = st.scripted
    if script is None:  # a search agent's copy: its chance is its own
        return
    g = st.g
    queue = script.decks.get(g.zone_name(zid))
    if not queue:
        if script.strict:
            raise ChanceError(f"the chance script ran out: the game shuffles {g.zone_name(zid)} and the script "
                              "has no order left for it (add one with State.script_chance(decks={...}))")
        return
    types = queue.pop(0)
    zone = st.zones[zid]
    picked: list[int] = []
    for t in types:
        found = next((c for c in reversed(zone) if g.card_type[c] == t and c not in picked), None)
        if found is None:
            held = sum(1 for c in zone if g.card_type[c] == t)
            raise ChanceError(f"the chance script does not fit: its order for {g.zone_name(zid)} has "
                              f"{types.count(t)} '{t}', but the zone holds {held} when it is shuffled")
        picked.append(found)
    zone[:] = [c for c in zone if c not in picked] + picked[::-1]
