"""The engine's two types as the modules below it see them: what a game and a state offer.

Owns `GameShape` and `StateShape`, structural types (`typing.Protocol`) of
engine.Game and engine.State holding what chance.py and redact.py read of
them. The engine imports those modules, so they cannot import it back, not
even for their type hints (tests/test_layout.py); `Game` and `State` fit
these shapes as they are.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

from ..lang.model import Spec
from .status import Status


class GameShape(Protocol):
    """A compiled game (engine.Game), as far as chance and redaction read it."""
    spec: Spec
    S: int  # shared zones
    P: int  # zones per player
    card_type: list[str]
    card_label: list[str]
    zone_vis: dict[tuple[str, int], str]
    gvar_vis: list[str]
    pvar_vis: list[str]
    secret_vars: bool
    sight: dict[tuple[int, int], list[bool]]

    def zone_name(self, zid: int) -> str: ...

    def sides(self, n: int) -> list[list[int]]: ...

    def side_index(self, n: int) -> list[int]: ...


class StateShape(Protocol):
    """One game being played (engine.State), as far as chance and redaction read it."""
    g: GameShape
    n: int
    seats: list[int]
    zones: list[list[int]]
    where: list[int]
    gvars: list[Any]
    pvars: list[list[Any]]
    tvars: list[Any]
    cur: int
    turn: int
    phase: str | None
    pplayer: int
    status: Status
    marking: bool
    moved: dict[int, int]
    shown: frozenset[tuple[int, int]]
    rig: Callable[[Any, int], None] | None
    scripted: Any  # a chance.Chance, or None

    def labels(self) -> list[str]: ...

    def _labels(self) -> list[str]: ...

    def _prompt(self) -> str: ...
