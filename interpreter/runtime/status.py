"""The words a game is told in: its status, a pending decision, its result, and the errors of playing it.

Owns `Status`, `Decision` (what is asked, of whom, with which options),
`Result` (how a game stands or ended, with its seed and choices), a turn's
program (`TurnProgram`), the step budget by default, and the errors
`IllegalChoice`, `SetupError` and `Stalled`. Every module of the runtime and
every face may import it; it imports no other module of the runtime.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..compile.compiler import Program


DEFAULT_BUDGET = 200_000  # steps: turns, loop iterations, calls, fired triggers, decisions


class Status(StrEnum):
    """Where a game stands: `running` (a decision is pending), `finished` (it ended by its rules),
    `stalled` (it cannot go on: the step budget ran out, or nobody can move; a finding about the rules,
    with the seed that reproduces it), `error` (a rule failed while it ran; `State.reason` says which)."""
    RUNNING = "running"
    FINISHED = "finished"
    STALLED = "stalled"
    ERROR = "error"


class Stalled(Exception):
    """The game cannot go on: budget exhausted or no way forward."""


class IllegalChoice(ValueError):
    """apply() was given an option that is not among the legal ones."""


class SetupError(ValueError):
    """new_game() was asked for something the spec does not allow."""


@dataclass(slots=True)
class Decision:
    """The pending decision: who must choose, and among which options.

    Attributes:
        player: the seat that chooses, numbered from 0 (seat 0 is `P1` in narration, the CLI and specs).
        kind: `action` (which action of the turn), `value` (a `choose ... from` a list: a card, a
            player, a number), `option` (a `choose` among named options), `subset` (some cards at once).
        prompt: the question, as the spec words it (`"your action"` for the turn's action).
        labels: one readable label per option, in the order `apply(i)` numbers them from 0; unique
            (a repeated label gets ` (2)`, ` (3)` ...); cards appear by their labels (`2 of clubs`).

    `State.decision()` formats every label: for reading a position. A loop that only picks needs
    `State.option_count` and `State.to_move`, which format nothing (`State.label(i)` for one label).
    """
    player: int
    kind: str
    prompt: str
    labels: list[str]


@dataclass(slots=True)
class TurnProgram:
    start: Program
    end: Program
    actions: list[tuple[str, str, list, Program]]  # name, label, parameter names, program


@dataclass(slots=True, repr=False)
class Result:
    """How one game ended (`State.result()`).

    Attributes:
        status: `finished`, `stalled` or `error` (`running` for a game not over yet), as `Status` text.
        winners: the winning seats, numbered from 0 like every seat in the Python API (`[1]` is the
            player narration calls `P2`); empty when nobody won, several on a shared win.
        turns: turns played.
        decisions: decisions taken (the length of `choices`).
        steps: steps charged to the game's step budget (turns, decisions, loop iterations, calls).
        scores: each seat's value of the spec's `end.score` variable at the end (by seat from 0), or
            None when the spec has no score.
        reason: why a stalled or failed game stopped; None for a finished one.
        seed: the game's seed.
        players: the number of players.
        choices: the option index taken at every decision, in order: with `seed` and `players`, the game
            itself (`Game.resume(players, seed, choices)`). The repr shows only how many there are.
    """
    status: str
    winners: list[int]
    turns: int
    decisions: int
    steps: int
    scores: list[int] | None
    reason: str | None
    seed: int
    players: int
    choices: list[int] = field(default_factory=list)

    def __repr__(self) -> str:
        shown = ", ".join(f"P{p + 1}" for p in self.winners) or "nobody"
        return (f"Result({self.status}, winners={self.winners!r} ({shown}), turns={self.turns}, "
                f"decisions={self.decisions}, scores={self.scores!r}, seed={self.seed}, players={self.players}"
                + (f", reason={self.reason!r}" if self.reason else "") + f", choices=<{len(self.choices)} choices>)")
