"""Agents: who makes each decision.

Owns the `Agent` protocol (`pick(state) -> option index`) and the built-in
agents: random (uniform among legal options, with its own seeded RNG),
first-legal, and scripted (replays a list of choices). Agents read the
state's pending decision only; they never change the state.
"""
from __future__ import annotations

import random
from typing import Protocol

from .seeds import agent_seed


class Agent(Protocol):
    name: str

    def pick(self, state) -> int: ...


class RandomAgent:
    """Uniform among the legal options."""
    name = "random"

    def __init__(self, game_seed: int, seat: int):
        self.rng = random.Random(agent_seed(game_seed, seat))

    def pick(self, state) -> int:
        return self.rng.randrange(len(state.popts))


class FirstAgent:
    """Always the first legal option (a deterministic, dumb baseline)."""
    name = "first"

    def __init__(self, game_seed: int = 0, seat: int = 0):
        pass

    def pick(self, state) -> int:
        return 0


class ScriptedAgent:
    """Replays recorded choices, shared by all seats (a log's choice list)."""
    name = "scripted"

    def __init__(self, choices: list[int]):
        self.choices = list(choices)
        self.pos = 0

    def pick(self, state) -> int:
        if self.pos >= len(self.choices):
            raise IndexError("the script has no more choices")
        i = self.choices[self.pos]
        self.pos += 1
        return i


AGENTS = {"random": RandomAgent, "first": FirstAgent}
