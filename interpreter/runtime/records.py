"""The layouts of the plain dicts the engine hands out: a seat's view and a save.

Owns `View` (`State.view(seat)`) and `Save` (`State.save()`) as `TypedDict`s, so that a type checker
and the API reference know every key. Both are plain JSON-ready dicts at run time; nothing here
builds one (the engine does).
"""
from __future__ import annotations

from typing import Any, TypedDict

# `global` is a Python keyword: that key is declared in the functional form, and View inherits it.
_Global = TypedDict("_Global", {"global": "dict[str, Any]"})


class View(_Global):
    """What one seat may see (`State.view(seat)`), a JSON-ready dict. Seats are numbered from 0.

    Attributes:
        player: the seat this view is for.
        current: the seat whose turn it is.
        turn: turns played so far.
        phase: the current phase's name, or None (a spec without phases).
        zones: every zone by name (`deck`; a player's zone as `P2.hand`, P and the seat from 1): the
            labels of its cards (`2 of clubs`), bottom to top (the last is the top card), when the seat
            may look into it; else how many cards it holds (an int).
        global: every global variable by name ("(hidden)" for one this seat may not read: `visible: nobody`).
        players: per seat (from 0), every player variable by name; "(hidden)" for one this seat may not read
            (`visible: owner` of another seat, `side` of another side, `nobody`), until a rule reveals it.
        turn_vars: every turn variable by name (public too).
        decision: the labels of the pending decision when this seat must choose now, else None; as the seat
            may read them (a card or a value hidden from it reads "a hidden card", "(hidden)").
    """
    player: int
    current: int
    turn: int
    phase: str | None
    zones: dict[str, list[str] | int]
    players: list[dict[str, Any]]
    turn_vars: dict[str, Any]
    decision: list[str] | None


class Save(TypedDict):
    """A game as `State.save()` gives it, a JSON-ready dict: `Game.resume(save["players"], save["seed"],
    save["choices"])` of a game loaded with the same options and readings rebuilds it exactly.

    Attributes:
        spec: the spec's `game.name`.
        players: the number of players.
        seed: the game's seed.
        options: every option's value.
        readings: every ambiguity's interpretation.
        choices: the option index (from 0) taken at every decision, in order.
    """
    spec: str
    players: int
    seed: int
    options: dict[str, Any]
    readings: dict[str, str]
    choices: list[int]
