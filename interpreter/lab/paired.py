"""Paired statistics for comparing two ways of playing the same games.

Owns: the per-game measures two configurations are compared on (game
length, each seat's win share, stall and error rates, winning margin, the
spec's measures), their paired differences over common random numbers (the
same seeds on both sides), and their intervals, with a Bonferroni correction
over the measures of one comparison (so the chance that a no-op is called
material stays within the stated level): for a fixed number of games, or an
anytime-valid confidence sequence when the lab plays until decided
(verdicts.py holds the formulas and the three verdicts against a margin).

Two guards against false confidence: a share or rate (bounded by 1) gets one
pseudo-game each way in its spread, so "no game stalled on either side, in 20
games" does not read as "the stall rate surely did not change"; and two runs
whose games are all identical (same summaries, seed by seed) differ by exactly
zero, with no uncertainty: a reading that changes nothing is shown so at once.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from . import verdicts as V

FINISHED, STALLED = "finished", "stalled"


@dataclass(slots=True)
class Interval:
    measure: str
    mean: float
    lo: float
    hi: float
    n: int
    rate: bool  # a share or a rate (precision is absolute), or a length (relative)
    sd: float = 0.0  # spread of the per-game differences (with the pseudo-games of a rate)
    alpha: float = 0.05  # the error level of this interval (after Bonferroni)
    t_star: float | None = None  # set for a confidence sequence (play until decided): where it is tightest
    margin: float | None = None  # the practical margin, in the measure's unit, once judged
    verdict: str = ""
    games_to_decide: int | None = None

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

    def judge(self, margin: float) -> "Interval":
        """Set the verdict against `margin` and, when undecided, the games that would decide it."""
        self.margin = margin
        self.verdict = V.judge(self.lo, self.hi, margin)
        self.games_to_decide = (V.games_to_decide(self.mean, self.sd, self.n, margin, self.alpha, self.t_star)
                                if self.verdict == V.UNDECIDED else None)
        return self

    @property
    def heading_material(self) -> bool:
        return self.margin is not None and abs(self.mean) > self.margin

    def as_dict(self) -> dict:
        """For JSON: a bound that is not known yet (too few games) is null, never Infinity."""
        def num(x: float) -> float | None:
            return x if math.isfinite(x) else None
        d = {"measure": self.measure, "mean": self.mean, "lo": num(self.lo), "hi": num(self.hi), "n": self.n,
             "sd": num(self.sd)}
        if self.margin is not None:
            d.update(margin=self.margin, verdict=self.verdict, games_to_decide=self.games_to_decide)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Interval":
        """An interval back from its `as_dict()`: a bound not known yet (null) is infinite again."""
        m = d["measure"]
        return cls(m, d["mean"], -math.inf if d["lo"] is None else d["lo"], math.inf if d["hi"] is None else d["hi"],
                   d["n"], is_rate(m), d.get("sd") or 0.0, margin=d.get("margin"), verdict=d.get("verdict", ""),
                   games_to_decide=d.get("games_to_decide"))


def is_rate(measure: str) -> bool:
    """Whether a measure is a share or a rate (a side's wins, the stalls, the errors): its precision is absolute."""
    return measure.startswith("win ") or measure in ("stalled", "errors")


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


winning_margin = _margin  # the first score minus the second, of a finished game (None without scores)


def measures(players: int, extra: Sequence[str] = (), sides: Sequence[str] = ()) -> list[str]:
    """The measures compared: in a game of sides (`sides`: their names) a win is a side's, so the wins are
    by side (partners' win shares are the same: measuring each seat would only widen every interval)."""
    wins = [f"win {name}" for name in sides] if sides else [f"win P{k + 1}" for k in range(players)]
    return ["turns"] + wins + ["stalled", "errors", "margin"] + list(extra)


class Pairing:
    """The paired differences of two growing lists of game summaries (one per seed, in order), kept as they
    grow: `add` takes only the pairs not seen yet, so looking after every batch costs the new games, not
    all of them again (play until decided looks often). `intervals` are `compare`'s."""

    def __init__(self, players: int, extra: Sequence[str] = (), teams: Any = None):
        self.players, self.extra = players, list(extra)
        self.sides = teams.sides(players) if teams is not None else []
        self.side_names = [teams.name(k) for k in range(len(self.sides))] if self.sides else []
        self.names = measures(players, extra, self.side_names)
        self.diffs: dict[str, list[float]] = {m: [] for m in self.names}
        self.seen = 0  # pairs taken so far
        self.identical = True  # every pair so far the same summary on both sides

    def add(self, base: Sequence[tuple], other: Sequence[tuple]) -> "Pairing":
        """Take the pairs of seeds both lists now hold and this has not taken yet (a prefix of the longer)."""
        players, extra, diffs, sides = self.players, self.extra, self.diffs, self.sides
        upto = min(len(base), len(other))
        for k in range(self.seen, upto):
            a, b = base[k], other[k]
            if a != b:
                self.identical = False
            if a[0] == FINISHED and b[0] == FINISHED:
                diffs["turns"].append(b[2] - a[2])
                if extra and len(a) > 7 and len(b) > 7 and len(a[7]) == len(b[7]) == len(extra):
                    for name, x, y in zip(extra, a[7], b[7]):
                        diffs[name].append(y - x)
                ma, mb = _margin(a), _margin(b)
                if ma is not None and mb is not None:
                    diffs["margin"].append(mb - ma)
            wa, wb = _wins(a, players), _wins(b, players)
            if sides:  # a side's credit: its seats' together
                for name, side in zip(self.side_names, sides):
                    diffs[f"win {name}"].append(sum(wb[p] for p in side) - sum(wa[p] for p in side))
            else:
                for p in range(players):
                    diffs[f"win P{p + 1}"].append(wb[p] - wa[p])
            diffs["stalled"].append((b[0] == STALLED) - (a[0] == STALLED))
            diffs["errors"].append((b[0] not in (FINISHED, STALLED)) - (a[0] not in (FINISHED, STALLED)))
        self.seen = max(self.seen, upto)
        return self

    def intervals(self, level: float = 0.95, t_star: float | None = None) -> list[Interval]:
        """Paired intervals of (other - base) for every measure (see `compare`)."""
        alpha = (1 - level) / len(self.names)
        out = []
        for m in self.names:
            d = self.diffs[m]
            if not d:
                continue
            n = len(d)
            rate = is_rate(m)
            mean = sum(d) / n
            if self.identical:
                sd, half = 0.0, 0.0
            else:
                ss = sum((x - mean) ** 2 for x in d)
                if rate:  # one pseudo-game each way (+1, -1): a rate seen to be 0 in few games is not known to be 0
                    ss += (1 - mean) ** 2 + (-1 - mean) ** 2
                    sd = math.sqrt(ss / (n + 1))
                else:
                    sd = math.sqrt(ss / (n - 1)) if n > 1 else math.inf
                half = (V.sequence_half(sd, n, alpha, t_star) if t_star else V.fixed_half(sd, n, alpha))
            out.append(Interval(m, mean, mean - half, mean + half, n, rate, sd, alpha, t_star))
        return out


def compare(base: Sequence[tuple], other: Sequence[tuple], players: int, level: float = 0.95,
            extra: Sequence[str] = (), t_star: float | None = None, teams: Any = None) -> list[Interval]:
    """Paired intervals of (other - base) for every measure; both lists hold one summary per seed, in order
    (the pairs are the seeds both hold: a prefix of the longer).

    `extra` names the spec's own measures (a summary's 8th field), compared over games both sides finished.
    `t_star`: give confidence sequences (valid however often the games are looked at) tightest near that
    many games, instead of fixed-sample intervals.
    `teams`: a game of sides (lang/teams.TeamsDef): the wins are compared by side.
    """
    return Pairing(players, extra, teams).add(base, other).intervals(level, t_star)


def verdict(intervals: list[Interval], reached: bool) -> tuple[str, int | None]:
    """A reading's verdict from its judged intervals (see verdicts.combine), and the games that would decide it."""
    if not reached:
        return V.UNREACHABLE, None
    return V.combine([i.verdict for i in intervals], [i.games_to_decide for i in intervals],
                     [i.heading_material for i in intervals])


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
