"""Paired statistics for comparing two ways of playing the same games.

Owns: the per-game measures two configurations are compared on (game
length, each seat's win share, stall and error rates, winning margin), their
paired differences over common random numbers (the same seeds on both
sides), normal-approximation confidence intervals with a Bonferroni
correction over the measures of one comparison (so the chance that a no-op
is called material stays within the stated level), and the verdict.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Sequence

FINISHED, STALLED = "finished", "stalled"


@dataclass(slots=True)
class Interval:
    measure: str
    mean: float
    lo: float
    hi: float
    n: int
    rate: bool  # a share or a rate (precision is absolute), or a length (relative)

    @property
    def half(self) -> float:
        return (self.hi - self.lo) / 2

    @property
    def excludes_zero(self) -> bool:
        return self.lo > 0 or self.hi < 0

    @property
    def z(self) -> float:
        if self.half == 0:
            return math.inf if self.mean else 0.0
        return abs(self.mean) / self.half

    def as_dict(self) -> dict:
        return {"measure": self.measure, "mean": round(self.mean, 5), "lo": round(self.lo, 5),
                "hi": round(self.hi, 5), "n": self.n}


def _wins(summary: tuple, players: int) -> list[float]:
    status, winners = summary[0], summary[1]
    out = [0.0] * players
    if status == FINISHED and winners:
        for w in winners:
            out[w] += 1 / len(winners)
    return out


def _margin(summary: tuple) -> float | None:
    scores = summary[4]
    if summary[0] != FINISHED or not scores or len(scores) < 2:
        return None
    top = sorted(scores, reverse=True)
    return top[0] - top[1]


def measures(players: int, extra: Sequence[str] = ()) -> list[str]:
    return ["turns"] + [f"win P{k + 1}" for k in range(players)] + ["stalled", "errors", "margin"] + list(extra)


def compare(base: Sequence[tuple], other: Sequence[tuple], players: int, level: float = 0.95,
            extra: Sequence[str] = ()) -> list[Interval]:
    """Paired intervals of (other - base) for every measure; both lists hold one summary per seed, in order.

    `extra` names the spec's own measures (a summary's 8th field), compared over games both sides finished.
    """
    names = measures(players, extra)
    z = NormalDist().inv_cdf(1 - (1 - level) / (2 * len(names)))
    diffs: dict[str, list[float]] = {m: [] for m in names}
    for a, b in zip(base, other):
        if a[0] == FINISHED and b[0] == FINISHED:
            diffs["turns"].append(b[2] - a[2])
            if extra and len(a) > 7 and len(b) > 7 and len(a[7]) == len(b[7]) == len(extra):
                for name, x, y in zip(extra, a[7], b[7]):
                    diffs[name].append(y - x)
            ma, mb = _margin(a), _margin(b)
            if ma is not None and mb is not None:
                diffs["margin"].append(mb - ma)
        wa, wb = _wins(a, players), _wins(b, players)
        for k in range(players):
            diffs[f"win P{k + 1}"].append(wb[k] - wa[k])
        diffs["stalled"].append((b[0] == STALLED) - (a[0] == STALLED))
        diffs["errors"].append((b[0] not in (FINISHED, STALLED)) - (a[0] not in (FINISHED, STALLED)))
    out = []
    for m in names:
        d = diffs[m]
        if not d:
            continue
        n = len(d)
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
        half = z * math.sqrt(var / n)
        out.append(Interval(m, mean, mean - half, mean + half, n,
                            m.startswith("win ") or m in ("stalled", "errors")))
    return out


def verdict(intervals: list[Interval], reached: bool) -> str:
    if not reached:
        return "unreachable"
    return "material" if any(i.excludes_zero for i in intervals) else "immaterial"


def impact(intervals: list[Interval]) -> float:
    """How clearly something moved: the largest |mean| / half-width among the measures."""
    return max((i.z for i in intervals), default=0.0)


def precise_enough(intervals: list[Interval], precision: float, base_turns: float) -> bool:
    """Every share/rate interval narrower than ±precision; game length within ±precision x its mean."""
    for i in intervals:
        limit = precision if i.rate else precision * max(base_turns, 1.0)
        if i.half > limit:
            return False
    return True
