"""Where a game starts: the cards in their zones and the first values, for one player count.

Owns `Start` (what every game with a given number of players starts from,
built once per count by `Game.start`), `start_zones` (each card type's copies
dealt to their starting zones, the options and player count deciding how
many), and the start values of variables, coerced to their types.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..lang.model import Spec


@dataclass(slots=True)
class Start:
    """The starting position of a player count: seats, each seat's others, cards per zone, kept zone sums."""
    seats: list[int]
    others: list[list[int]]
    zones: list[list[int]]
    zsum: list[list[int]]
    where: list[int]  # each card's zone; -1 for a card this player count leaves out (lang/decks.py)
    in_play: int  # the cards in play


def _start(v: Any, boards: dict) -> Any:
    """A variable's start value as the state holds it: a `type: cell` variable's is a cell of this game's board
    (its `start:` cell, else the board's first cell in reading order)."""
    if v.type != "cell":
        return v.start
    board = boards[v.board]
    return board.named.get(v.start, board.cells[0]) if v.start is not None else board.cells[0]


def start_zones(spec: Spec, n: int, n_ids: int, options: dict | None = None) -> tuple[list[list[int]], list[int]]:
    """Each zone's cards when a game with `n` players starts, and each card's zone (-1: not in this game).

    A type's cards take its first ids; a per-seat type (`in:` a player zone) gives each seat its own
    block of ids, and a count per player count leaves the rest of the block out of the game."""
    S, P = spec.n_shared, spec.n_player_zones
    zones: list[list[int]] = [[] for _ in range(S + P * n)]
    where = [-1] * n_ids
    for ct in spec.cards.values():
        z = spec.zones[ct.zone]
        k = ct.in_play(n, options)
        if ct.per_seat:
            block = ct.ids // max(spec.max_players, 1)
            for seat in range(n):
                zid = S + seat * P + z.index
                for c in range(ct.first_id + seat * block, ct.first_id + seat * block + k):
                    zones[zid].append(c)
                    where[c] = zid
        else:
            for c in range(ct.first_id, ct.first_id + k):
                zones[z.index].append(c)
                where[c] = z.index
    return zones, where


def _coerce(v: Any, allowed: list) -> Any:
    """Command-line option values arrive as text."""
    if isinstance(v, str):
        for a in allowed:
            if str(a).lower() == v.lower():
                return a
    return v


def _zone_sums(tables: list[tuple], zones: list[list[int]]) -> list[list[int]]:
    """Per kept property (its table of values per card), the sum over each zone's cards."""
    return [[sum(map(t.__getitem__, z)) for z in zones] for t in tables]
