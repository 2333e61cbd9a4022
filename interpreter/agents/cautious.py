"""The cautious agent: risk-averse one-step lookahead, for finders that random play cannot serve.

Owns `CautiousAgent`: at each decision with more than one option it plays
every option on the same few determinizations (`determinize()`: re-deals of
what its player cannot see, never the true state) and takes the option whose
*worst* resulting position is best (maximin on the spec's heuristic, else its
score variable), ties broken by its own seeded RNG. Where `greedy` averages,
this one fears the worst: in a push-your-luck game it stops early and keeps
what it has, which is how positions random players never reach are reached
(six STUN players each holding 4 chips). It is a finder's player
(`rulewright lint`, benchmarks/invariants.py), not a strong one. The lookahead
itself is greedy's (`GreedyAgent.rows`, judged one decision later, every
sample taken); this module owns only the judging by the worst case.
"""
from __future__ import annotations

from typing import Iterator

from .search import GreedyAgent


class CautiousAgent(GreedyAgent):
    """The option with the best worst case one decision later, over a few re-deals."""
    name = "cautious"
    salt = 0xCA71  # its own stream, apart from the random and search agents'

    def __init__(self, game_seed: int = 0, seat: int = 0, samples: int = 4):
        super().__init__(game_seed, seat, samples, turn=0, sure=0.0)

    def judge(self, rows: Iterator[list[float]], n: int) -> list[float]:
        worst = [float("inf")] * n
        for row in rows:
            worst = [min(w, v) for w, v in zip(worst, row)]
        return worst
