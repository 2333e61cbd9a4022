"""The ambiguity lab: what each reading of an unclear rule does to the game.

Owns: running the default configuration and every other interpretation of
every ambiguity on the same seeds (common random numbers), in coverage mode
so it knows whether the rule text that depends on an ambiguity ever ran;
comparing them with paired intervals (paired.py); a verdict per
interpretation and per ambiguity (material, immaterial, unreachable);
sorting by impact; and the run-until-precise loop. It also backs `compare`
(whole spec files and options) and `lint` (rules that never ran, stalls,
broken invariants). Rendering is the CLI's and report.py's job.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from . import paired
from .runner import GameSpec, summaries


@dataclass(slots=True)
class Arm:
    """One way of playing: a spec file with options and readings."""
    label: str
    gs: GameSpec
    results: list[tuple] = field(default_factory=list)
    hits: list[int] | None = None


@dataclass(slots=True)
class Reading:
    ambiguity: str
    interpretation: str
    description: str
    verdict: str = "immaterial"
    impact: float = 0.0
    intervals: list[paired.Interval] = field(default_factory=list)
    reached: int = 0  # times the rule text reading this ambiguity ran under this interpretation
    contradicts_text: bool = False  # the spec marks it as ruled out by the rulebook's words

    def as_dict(self) -> dict:
        return {"interpretation": self.interpretation, "description": self.description, "verdict": self.verdict,
                "contradicts_text": self.contradicts_text,
                "impact": round(self.impact, 3) if self.impact != float("inf") else "inf",
                "reached": self.reached, "differences": [i.as_dict() for i in self.intervals]}


@dataclass(slots=True)
class AmbiguityResult:
    name: str
    quote: str
    default: str
    readings: list[Reading]
    verdict: str = "immaterial"
    impact: float = 0.0

    def as_dict(self) -> dict:
        return {"ambiguity": self.name, "quote": self.quote, "default": self.default, "verdict": self.verdict,
                "impact": round(self.impact, 3) if self.impact != float("inf") else "inf",
                "interpretations": [r.as_dict() for r in self.readings]}


@dataclass(slots=True)
class LabReport:
    spec: str
    players: int
    seed: int
    games: int
    baseline: dict
    ambiguities: list[AmbiguityResult]
    level: float

    def as_dict(self) -> dict:
        return {"spec": self.spec, "players": self.players, "seed": self.seed, "games": self.games,
                "confidence": self.level, "baseline": self.baseline,
                "ambiguities": [a.as_dict() for a in self.ambiguities]}


def _reading_hits(arm: Arm, game_points: list, ambiguity: str) -> int:
    if arm.hits is None:
        return 0
    return sum(h for (kind, what, _span), h in zip(game_points, arm.hits) if kind == "reading" and what == ambiguity)


def baseline_summary(results: list[tuple], players: int) -> dict:
    finished = [r for r in results if r[0] == paired.FINISHED]
    turns = sorted(r[2] for r in finished)
    wins = [0.0] * players
    for r in finished:
        for w in r[1]:
            wins[w] += 1 / len(r[1])
    return {"games": len(results), "finished": len(finished),
            "stalled": sum(r[0] == paired.STALLED for r in results),
            "errors": sum(r[0] not in (paired.FINISHED, paired.STALLED) for r in results),
            "turns_mean": round(sum(turns) / len(turns), 2) if turns else 0,
            "wins": [round(w / max(len(finished), 1), 4) for w in wins]}


def run_arms(arms: list[Arm], players: int, seed: int, games: int, workers: int, precision: float | None,
             max_games: int, batch: int, progress: Callable[[int, int], None] | None,
             compare_to: Callable[[], list[list[paired.Interval]]] | None = None,
             level: float = 0.95) -> int:
    """Play every arm on the same seeds, in batches; return how many games each played."""
    done = 0
    target = games if precision is None else max_games
    while done < target:
        step = min(batch if precision is not None else target, target - done)
        for arm in arms:
            res, hits = summaries(arm.gs, players, seed, done, done + step, workers)
            arm.results.extend(res)
            if hits is not None:
                arm.hits = hits if arm.hits is None else [a + b for a, b in zip(arm.hits, hits)]
        done += step
        if progress:
            progress(done, target)
        if precision is not None and compare_to is not None:
            base_turns = baseline_summary(arms[0].results, players)["turns_mean"]
            if all(paired.precise_enough(iv, precision, base_turns) for iv in compare_to()):
                break
    return done


def ambiguity_lab(path: str, players: int, games: int, seed: int, *, options: dict | None = None,
                  workers: int = 1, precision: float | None = None, max_games: int = 100_000,
                  level: float = 0.95, only: list[str] | None = None,
                  progress: Callable[[int, int], None] | None = None) -> LabReport:
    from ..runtime.pipeline import load_game, load_spec
    spec, _ = load_spec(path)
    options = dict(options or {})
    names = [n for n in spec.ambiguities if not only or n in only]
    base = Arm("default", GameSpec(path, options, {}, coverage=True))
    arms = [base]
    wanted: list[tuple[str, str, Arm]] = []
    for name in names:
        a = spec.ambiguities[name]
        for interp in a.interpretations:
            if interp == a.default:
                continue
            arm = Arm(f"{name}={interp}", GameSpec(path, options, {name: interp}, coverage=True))
            arms.append(arm)
            wanted.append((name, interp, arm))

    extra = list(spec.measures)  # the spec's own measures are compared too

    def intervals() -> list[list[paired.Interval]]:
        return [paired.compare(base.results, arm.results, players, level, extra) for _, _, arm in wanted]

    played = run_arms(arms, players, seed, games, workers, precision, max_games, batch=max(100, games),
                      progress=progress, compare_to=intervals, level=level)
    points = load_game(path, options, coverage=True).points
    results = []
    for name in names:
        a = spec.ambiguities[name]
        readings = []
        for amb, interp, arm in wanted:
            if amb != name:
                continue
            iv = paired.compare(base.results, arm.results, players, level, extra)
            reached = _reading_hits(arm, points, name)
            r = Reading(name, interp, a.interpretations[interp], intervals=iv, reached=reached,
                        contradicts_text=interp in a.contradicts_text)
            r.verdict = paired.verdict(iv, reached > 0)
            r.impact = paired.impact(iv) if reached else 0.0
            readings.append(r)
        verdicts = {r.verdict for r in readings}
        verdict = ("material" if "material" in verdicts else
                   "unreachable" if verdicts == {"unreachable"} else "immaterial")
        results.append(AmbiguityResult(name, a.quote, a.default, sorted(readings, key=lambda r: -r.impact),
                                       verdict, max((r.impact for r in readings), default=0.0)))
    order = {"material": 0, "immaterial": 1, "unreachable": 2}
    results.sort(key=lambda r: (order[r.verdict], -r.impact, r.name))
    return LabReport(path, players, seed, played, baseline_summary(base.results, players), results, level)


@dataclass(slots=True)
class Comparison:
    label: str
    summary: dict
    intervals: list[paired.Interval]
    verdict: str


def compare_arms(arms: list[Arm], players: int, games: int, seed: int, *, workers: int = 1,
                 precision: float | None = None, max_games: int = 100_000, level: float = 0.95,
                 progress: Callable[[int, int], None] | None = None) -> tuple[int, list[Comparison]]:
    """Whole variants side by side on paired seeds: each arm against the first."""
    base = arms[0]

    def intervals() -> list[list[paired.Interval]]:
        return [paired.compare(base.results, arm.results, players, level) for arm in arms[1:]]

    played = run_arms(arms, players, seed, games, workers, precision, max_games, batch=max(100, games),
                      progress=progress, compare_to=intervals, level=level)
    out = [Comparison(base.label, baseline_summary(base.results, players), [], "baseline")]
    for arm in arms[1:]:
        iv = paired.compare(base.results, arm.results, players, level)
        out.append(Comparison(arm.label, baseline_summary(arm.results, players), iv, paired.verdict(iv, True)))
    return played, out
