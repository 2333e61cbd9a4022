"""The Python API: load a spec into a playable game, play it, script its chance, read its results.

The stable front door: everything a script or a notebook needs is importable from here, and what is
listed in `__all__` is the public API (its reference page is `docs/reference/python.md`, generated
from these docstrings). The pipeline itself (load -> schema -> model -> check -> compile, and its
cache of checked specs) is runtime/pipeline.py, the engine runtime/engine.py; this module
re-exports them and adds playing.

Numbering, once for the whole API:
- **Seats are numbered from 0** everywhere in Python: `Decision.player`, `State.to_move`,
  `State.cur`, `Result.winners`, `Result.scores[seat]`, `State.view(seat)` and the `View`'s
  `player`, `current` and `players[seat]`, `make_agent(..., seat)`. Specs, the command line and
  narration say `P1` for seat 0 (`--agent 1=mcts`, `given: first: 1`, `held@2`, `P2.hand`).
- **Options are numbered from 0** in the order `Decision.labels` lists them: `State.apply(i)`,
  `State.label(i)`, `Result.choices`, `Save["choices"]`.
- **Cards have two names**: the card type (`card_2_clubs`: `components`, examples' `given:`,
  `Chance` deck orders, `Game.card_type`) and the label (`2 of clubs`: narration, logs, option
  labels, `View["zones"]`, `Game.card_label`). A `Chance` order takes either.
"""
from __future__ import annotations

from .agents.registry import Agent, make_agent
from .lab.ambiguities import ambiguity_lab
from .lab.policies import policy_lab
from .lab.runner import play
from .runtime.chance import Chance, ChanceError
from .runtime.engine import Decision, Game, IllegalChoice, Result, SetupError, State, Status
from .runtime.pipeline import Analysis, analyse, check_spec, compile_game, load_game, load_spec
from .runtime.records import Save, View
from .spec.diagnostics import Diagnostic, SpecError

__all__ = ["load_spec", "load_game", "check_spec", "analyse", "compile_game", "play_random", "play", "make_agent",
           "Game", "State", "Decision", "Result", "Status", "View", "Save", "Chance", "ChanceError",
           "IllegalChoice", "SetupError", "SpecError", "Diagnostic", "Analysis", "Agent",
           "ambiguity_lab", "policy_lab"]


def play_random(game: Game, players: int, seed: int, log: bool = False, check: bool = False) -> Result:
    """One game where every seat picks uniformly among its legal options, played to its end.

    Args:
        game: a compiled game (`load_game`).
        players: how many play.
        seed: the game's seed; each seat's random agent is seeded from it and the seat.
        log: keep the event log.
        check: check the invariants after every step.

    Returns:
        The game's `Result` (seats numbered from 0).
    """
    return play(game, players, seed, log=log, check=check).result()
