"""The cautious agent: risk-averse one-step lookahead, for finders that random play cannot serve.

Owns `CautiousAgent`: at each decision with more than one option it plays
every option on the same few determinizations (`determinize()`: re-deals of
what its player cannot see, never the true state) and takes the option whose
*worst* resulting position is best (maximin on the spec's heuristic, else its
score variable), ties broken by its own seeded RNG. Where `greedy` averages,
this one fears the worst: in a push-your-luck game it stops early and keeps
what it has, which is how positions random players never reach are reached
(six STUN players each holding 4 chips). It is a finder's player
(`rulewright lint`, benchmarks/invariants.py), not a strong one.
"""
from __future__ import annotations

import random

from .determinize import Determinizer
from .heuristics import position_value, value_function
from ..runtime.engine import State
from ..runtime.seeds import agent_seed

_SALT = 0xCA71  # its own stream, apart from the random and search agents'


class CautiousAgent:
    """The option with the best worst case one decision later, over a few re-deals."""
    name = "cautious"

    def __init__(self, game_seed: int = 0, seat: int = 0, samples: int = 4):
        if samples < 1:
            raise ValueError("cautious: samples must be at least 1")
        self.samples = samples
        self.rng = random.Random(agent_seed(game_seed, seat) ^ _SALT)

    def pick(self, state: State) -> int:
        n = len(state.popts)
        if n == 1:
            return 0
        me = state.pplayer
        value = value_function(state.g)
        worst = [float("inf")] * n
        dets = Determinizer(state, me)  # one decision's re-deal work, shared by its samples (as greedy does)
        for _ in range(self.samples):
            det = dets.sample(self.rng)
            for i in range(n):
                s = det.clone() if i < n - 1 else det
                s.apply(i)
                worst[i] = min(worst[i], position_value(s, me, value))
        best = max(worst)
        return self.rng.choice([i for i, w in enumerate(worst) if w >= best - 1e-9])
