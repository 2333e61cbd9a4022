"""The Python API: load a spec into a playable game, play games.

The stable front door: everything a script or a notebook needs is importable
from here. The pipeline itself (load -> schema -> model -> check -> compile,
and its cache of checked specs) is runtime/pipeline.py; this module re-exports
it and adds playing.
"""
from __future__ import annotations

from .agents.registry import make_agent
from .lab.ambiguities import ambiguity_lab
from .lab.policies import policy_lab
from .lab.runner import play
from .runtime.engine import Game, Result, SetupError, State, Status
from .runtime.pipeline import Analysis, analyse, check_spec, compile_game, load_game, load_spec
from .spec.diagnostics import Diagnostic, SpecError

__all__ = ["load_spec", "load_game", "play_random", "Game", "State", "Result", "Status", "SpecError",
           "SetupError", "Diagnostic", "check_spec", "compile_game", "make_agent", "analyse", "Analysis",
           "ambiguity_lab", "policy_lab"]


def play_random(game: Game, players: int, seed: int, log: bool = False, check: bool = False) -> Result:
    """One game where every seat picks uniformly among its legal options."""
    return play(game, players, seed, log=log, check=check).result()
