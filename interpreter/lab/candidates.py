"""The candidates of a variant search and what their games show.

Owns, for one candidate (a variant: options and readings), the running sums
of the per-game values every target can name, each target's interval (an
anytime-valid confidence sequence, verdicts.sequence_half) and verdict, the
candidate's `meets` (true, false, undecided), its place in the ranking, the
Pareto set, and which candidates played exactly the same games.

The ranking: those that meet, then the undecided, then those that fail; then
by how far their means miss the bands, then by the objectives; among equals,
readings the rulebook's words allow before those it rules out, then the
fewest changes from the spec's defaults. The Pareto set: the candidates no
other beats, where one beats another when its interval of "how bad" lies
wholly below the other's on some target and wholly above it on none. Playing them
is tune.py's; the targets and their verdicts are targets.py's.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

from . import verdicts as V
from .targets import UNDECIDED, Target

FINISHED, STALLED = "finished", "stalled"
MEETS_ORDER = {"true": 0, "undecided": 1, "false": 2}


@dataclass(slots=True)
class Sums:
    """A running sum and sum of squares."""
    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def interval(self, alpha: float, t_star: float, rate: bool) -> tuple[float | None, float, float]:
        """(mean, lo, hi): an anytime-valid (1 - alpha) confidence sequence at this many games. A rate gets one
        pseudo-game each way in its spread (a rate seen to be 0 in few games is not known to be 0)."""
        n = self.n
        if n == 0:
            return None, -math.inf, math.inf
        mean = self.total / n
        ss = max(0.0, self.squares - self.total * self.total / n)
        if rate:
            sd = math.sqrt((ss + mean ** 2 + (1 - mean) ** 2) / (n + 1))
        else:
            sd = math.sqrt(ss / (n - 1)) if n > 1 else math.inf
        half = V.sequence_half(sd, n, alpha, t_star) if math.isfinite(sd) else math.inf
        lo, hi = mean - half, mean + half
        if rate:
            lo, hi = max(0.0, lo), min(1.0, hi)
        return mean, lo, hi


@dataclass(slots=True)
class Estimate:
    """One target of one candidate: its measure's mean and interval, and the verdict."""
    target: Target
    mean: float | None
    lo: float
    hi: float
    n: int
    verdict: str

    @property
    def half(self) -> float:
        return (self.hi - self.lo) / 2

    @property
    def shown(self) -> str:
        """The mean and its interval as every report shows them: `77.7 [76.3, 79]`, `1.2pt [0.0pt, 7.4pt]`."""
        t = self.target
        return f"{t.show(self.mean)} [{t.show(self.lo)}, {t.show(self.hi)}]"

    def as_dict(self) -> dict:
        def num(x: float | None) -> float | None:
            return x if x is not None and math.isfinite(x) else None
        d = {"target": self.target.text, "measure": self.target.measure, "mean": num(self.mean),
             "lo": num(self.lo), "hi": num(self.hi), "n": self.n, "shown": self.shown}
        if not self.target.objective:
            d["verdict"] = self.verdict
        return d


@dataclass(slots=True)
class Candidate:
    """One variant: its options and readings, what its games measured so far, and what that says."""
    options: dict[str, Any]
    readings: dict[str, str]
    label: str
    changes: str = ""  # what differs from the spec's defaults, among the varied names
    against_text: list[str] = field(default_factory=list)  # readings the rulebook's words rule out (contradicts_text)
    games: int = 0
    finished: int = 0
    sums: dict[str, Sums] = field(default_factory=dict)
    estimates: list[Estimate] = field(default_factory=list)
    meets: str = UNDECIDED
    stopped: str = ""  # why it stopped playing
    done: bool = False
    error: str | None = None  # it could not be compiled
    rank: int = 0
    pareto: bool = False
    extra: bool = False  # played only to check another policy's best variant
    digest: Any = None  # a hash of every game's summary, in order: equal digests, the same games
    same_as: str | None = None  # the better-ranked candidate whose games were exactly these
    confirmed: "Candidate | None" = None  # the same variant played again on other seeds (tune's `confirm`)

    @property
    def key(self) -> tuple:
        return (tuple(sorted(self.options.items(), key=lambda kv: kv[0])), tuple(sorted(self.readings.items())))

    @property
    def shortfall(self) -> float:
        """How far the means miss the bands, in points of a share and percent of a bound (0: every mean inside)."""
        return sum(e.target.shortfall(e.mean) for e in self.estimates if e.mean is not None and not e.target.objective)

    def objectives(self) -> tuple:
        out = []
        for e in self.estimates:
            if e.target.objective:
                m = e.mean if e.mean is not None else math.inf
                out.append(m if e.target.direction == "min" else -m)
        return tuple(out)

    def sort_key(self) -> tuple:
        """Meeting first, then how far the means miss, the objectives; among equals the readings the rulebook's
        words allow, then the fewest changes from the spec's defaults (the smallest rule change that does it)."""
        changed = 0 if self.changes == "(the defaults)" else self.changes.count("=")
        return (MEETS_ORDER[self.meets], round(self.shortfall, 9), self.objectives(), len(self.against_text),
                changed, self.label)

    def meets_json(self) -> bool | str:
        return {"true": True, "false": False}.get(self.meets, UNDECIDED)

    def as_dict(self) -> dict:
        return {"rank": self.rank, "label": self.label, "changes": self.changes, "options": self.options,
                "readings": self.readings, "against_text": self.against_text,
                "games": self.games, "finished": self.finished, "meets": self.meets_json(), "pareto": self.pareto,
                "stopped": self.stopped, "error": self.error, "checked_for_another_policy": self.extra,
                "same_games_as": self.same_as,
                "confirmed": None if self.confirmed is None else
                {"meets": self.confirmed.meets_json(), "games": self.confirmed.games, "stopped": self.confirmed.stopped,
                 "targets": [e.as_dict() for e in self.confirmed.estimates]},
                "targets": [e.as_dict() for e in self.estimates]}


def values_of(summary: tuple, players: int, extra: Sequence[str]) -> dict[str, float | None]:
    """The per-game values of the measures targets can name (None: not measured in this game)."""
    status, winners, turns, decisions, scores = summary[:5]
    finished = status == FINISHED
    out: dict[str, float | None] = {"decisions": decisions, "stalled": float(status == STALLED),
                                    "errors": float(status not in (FINISHED, STALLED))}
    out["turns"] = turns if finished else None
    for k in range(players):
        out[f"win P{k + 1}"] = ((1 / len(winners)) if k in winners else 0.0) if finished else None
    margin = None
    if finished and scores and len(scores) > 1:
        top = sorted(scores, reverse=True)
        margin = top[0] - top[1]
    out["margin"] = margin
    measures = summary[7] if len(summary) > 7 else ()
    for k, name in enumerate(extra):
        out[name] = measures[k] if finished and len(measures) == len(extra) else None
    return out


def pareto(cands: list[Candidate]) -> None:
    """Mark the Pareto set: the candidates no other beats, where A beats B when A is surely better on some
    target (its interval of badness lies wholly below B's) and surely worse on none."""
    ok = [c for c in cands if c.error is None and c.estimates]
    bad = {id(c): [e.target.badness(e.lo, e.hi) for e in c.estimates] for c in ok}
    for c in cands:
        c.pareto = False
    for b in ok:
        beaten = False
        for a in ok:
            if a is b:
                continue
            pa, pb = bad[id(a)], bad[id(b)]
            if any(x[1] < y[0] for x, y in zip(pa, pb)) and not any(x[0] > y[1] for x, y in zip(pa, pb)):
                beaten = True
                break
        b.pareto = not beaten


def rank(cands: list[Candidate]) -> None:
    """Number the candidates by sort_key, mark the Pareto set, and note which played exactly the games of a
    better-ranked one (a reading the game never reaches, or one that changes nothing)."""
    first: dict[tuple, Candidate] = {}
    for k, c in enumerate(sorted(cands, key=lambda c: (c.error is not None, c.sort_key())), start=1):
        c.rank = k
        c.same_as = None
        if c.digest is not None:
            twin = first.setdefault((c.games, c.digest.digest()), c)
            if twin is not c:
                c.same_as = twin.label
    pareto(cands)
