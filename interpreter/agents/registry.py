"""Agents: who makes each decision.

Owns the `Agent` protocol (`pick(state) -> option index`), the registry of
agents by name (`AGENTS`), reading an agent named on the command line
(`mcts:400`, `greedy:samples=8`) and the simple agents: random (uniform
among legal options, with its own seeded RNG), first-legal, and scripted
(replays a list of choices). The search agents (greedy, mcts) live in
`search.py` beside this module. Agents read the state's pending decision only (search agents
simulate on clones re-dealt from their player's view); they never change
the state.
"""
from __future__ import annotations

from typing import Protocol

from ..runtime.rng import Stream
from ..runtime.seeds import agent_seed


class Agent(Protocol):
    """Anything with a `name` and `pick(state) -> option index` (from 0) of `state`'s pending decision.

    An agent reads the state (its own seat's view, for a fair one) and never changes it."""
    name: str

    def pick(self, state) -> int: ...


class RandomAgent:
    """Uniform among the legal options."""
    name = "random"

    def __init__(self, game_seed: int, seat: int):
        self.rng = Stream(agent_seed(game_seed, seat))

    def pick(self, state) -> int:
        # self.rng.randrange(n), word for word (the hand-written baselines replay this stream), its common
        # case inlined: one Python call less at every decision of random play.
        n = len(state.popts)
        s = self.rng
        i = s.i
        if i < len(s.words):
            m = s.words[i] * n
            if m & 0xFFFF >= n:
                s.i = i + 1
                return m >> 16
        return s.randrange(n)


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


from .search import GreedyAgent, MctsAgent, parse_params  # noqa: E402  (they use this module's seeds only)
from .cautious import CautiousAgent  # noqa: E402

AGENTS = {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent, "mcts": MctsAgent,
          "cautious": CautiousAgent}
"""Agent name -> class built as `cls(game_seed, seat, **settings)`."""

SETTINGS: dict[str, tuple[str | None, dict]] = {
    "random": (None, {}),
    "first": (None, {}),
    "greedy": ("samples", {"samples": 16, "turn": 1, "sure": 2.0}),
    "mcts": ("iterations", {"iterations": 200, "c": 0.7, "max_playout": 5000, "depth": -1, "tau": 0.0, "tied": 1,
                        "time": ""}),
    "cautious": ("samples", {"samples": 4}),
}
"""Agent name -> (the setting a bare number sets, the settings with their defaults)."""


class AgentError(ValueError):
    """An agent name or setting that does not exist."""


def parse_agent(text: str) -> tuple[str, dict]:
    """`mcts`, `mcts:400` or `mcts:iterations=400,c=1.0` -> (name, settings)."""
    name, _, rest = text.strip().partition(":")
    if name not in AGENTS:
        raise AgentError(f"unknown agent '{name}' (known: {', '.join(AGENTS)})")
    positional, defaults = SETTINGS.get(name, (None, {}))
    if rest and not defaults:
        raise AgentError(f"agent '{name}' takes no settings")
    try:
        settings = parse_params(rest, defaults, positional or "")
    except ValueError as exc:
        raise AgentError(f"agent '{name}': {exc}") from None
    if name == "mcts" and settings.get("time") and "iterations" not in settings:
        settings["iterations"] = MCTS_TIMED_CAP  # `mcts:time=50ms`: the time budget alone stops the search
    return name, settings


MCTS_TIMED_CAP = 1_000_000  # iterations of an `mcts:time=...` decision when no iteration budget is given

_parsed: dict[str, tuple[str, dict]] = {}  # agent text -> (name, settings): a sweep reads each name once


def make_agent(text: str, game_seed: int, seat: int):
    """A fresh agent for one seat (from 0) of one game, seeded from the game's seed and the seat.

    `text` names it as `--agent` does: `random`, `first`, `greedy[:SAMPLES]`, `cautious[:SAMPLES]`,
    `mcts[:ITERATIONS]`, or with settings (`mcts:iterations=400,c=0.7`). Raises `AgentError` for a name
    or setting it does not know."""
    if text == "random":  # the common case, at the start of every game of a sweep
        return RandomAgent(game_seed, seat)
    got = _parsed.get(text)
    if got is None:
        got = _parsed[text] = parse_agent(text)
    name, settings = got
    try:
        return AGENTS[name](game_seed, seat, **settings)
    except ValueError as exc:
        raise AgentError(str(exc)) from None
