"""The ambiguity lab: what each reading of an unclear rule does to the game.

Owns: running the default configuration and every other interpretation of
every ambiguity on the same seeds (common random numbers), in coverage mode
so it knows whether the rule text that depends on an ambiguity ever ran;
comparing them with paired intervals (paired.py); a verdict per
interpretation and per ambiguity against practical margins (verdicts.py,
settings.py): material, immaterial, undecided (with the games that would
decide it) or unreachable; sorting by impact; the run-until-precise and
play-until-decided loops; and the players (random unless `agents` or the
spec's `lab.agents` say otherwise). It also backs `lint` (rules that never
ran, stalls, broken invariants). Measuring under several policies is
policies.py's; rendering is the CLI's and report.py's job.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from . import paired, settings as S, verdicts as V
from .runner import GameSpec, summaries


def _impact_json(impact: float) -> float | str:
    """An impact as the JSON report gives it: rounded, and "inf" for one without bound (JSON has no infinity)."""
    return round(impact, 3) if impact != float("inf") else "inf"


def _impact_of(v: float | str) -> float:
    """An impact back from the JSON report (`_impact_json`)."""
    return float("inf") if v == "inf" else float(v)


@dataclass(slots=True)
class Arm:
    """One way of playing: a spec file with options and readings."""
    label: str
    gs: GameSpec
    results: list[tuple] = field(default_factory=list)
    hits: list[int] | None = None
    pairing: paired.Pairing | None = None  # its differences from the default's games, kept between looks


@dataclass(slots=True)
class Reading:
    ambiguity: str
    interpretation: str
    description: str
    verdict: str = V.UNDECIDED
    impact: float = 0.0
    intervals: list[paired.Interval] = field(default_factory=list)
    reached: int = 0  # times the rule text reading this ambiguity ran under this interpretation
    contradicts_text: bool = False  # the spec marks it as ruled out by the rulebook's words
    games_to_decide: int | None = None  # undecided: games per interpretation that would likely decide it
    identical: bool = False  # every paired game came out exactly as under the default
    games: int = 0  # games played under this interpretation (play until decided stops each once it is decided)

    def as_dict(self) -> dict:
        return {"interpretation": self.interpretation, "description": self.description, "verdict": self.verdict,
                "contradicts_text": self.contradicts_text,
                "impact": _impact_json(self.impact),
                "reached": self.reached, "games_to_decide": self.games_to_decide, "identical": self.identical,
                "games": self.games, "differences": [i.as_dict() for i in self.intervals]}

    @classmethod
    def from_dict(cls, ambiguity: str, d: dict) -> "Reading":
        """An interpretation of `ambiguity` back from its `as_dict()`."""
        return cls(ambiguity, d["interpretation"], d["description"], d["verdict"], _impact_of(d["impact"]),
                   [paired.Interval.from_dict(x) for x in d["differences"]], d["reached"],
                   contradicts_text=d.get("contradicts_text", False), games_to_decide=d.get("games_to_decide"),
                   identical=d.get("identical", False), games=d.get("games", 0))


@dataclass(slots=True)
class AmbiguityResult:
    name: str
    quote: str
    default: str
    readings: list[Reading]
    verdict: str = V.UNDECIDED
    impact: float = 0.0
    games_to_decide: int | None = None

    def as_dict(self) -> dict:
        return {"ambiguity": self.name, "quote": self.quote, "default": self.default, "verdict": self.verdict,
                "impact": _impact_json(self.impact), "games_to_decide": self.games_to_decide,
                "interpretations": [r.as_dict() for r in self.readings]}

    @classmethod
    def from_dict(cls, d: dict) -> "AmbiguityResult":
        """An ambiguity's results back from its `as_dict()`."""
        readings = [Reading.from_dict(d["ambiguity"], r) for r in d["interpretations"]]
        return cls(d["ambiguity"], d["quote"], d["default"], readings, d["verdict"], _impact_of(d["impact"]),
                   d.get("games_to_decide"))


@dataclass(slots=True)
class LabReport:
    spec: str
    players: int
    seed: int
    games: int
    baseline: dict
    ambiguities: list[AmbiguityResult]
    level: float
    margins: dict[str, dict] = field(default_factory=dict)  # name -> {set, relative, value}
    agents: dict[int, str] = field(default_factory=dict)  # seat (0-based) -> agent; absent seats play random
    mode: str = "fixed"  # fixed (--games), precision (--precision) or sequential (play until decided)
    max_games: int | None = None
    seconds: float = 0.0
    engine: str = "python"  # where the games ran: the kernel (interpreter/kernel) or the Python engine
    engine_note: str | None = None  # why not the kernel, when it was wanted

    @property
    def policy(self) -> str:
        return S.policy_label(self.agents, self.players)

    @property
    def decided(self) -> bool:
        return all(a.verdict != V.UNDECIDED for a in self.ambiguities)

    @classmethod
    def from_dict(cls, d: dict) -> "LabReport":
        """A report back from its `as_dict()` (JSON): to render a saved run again."""
        ambs = [AmbiguityResult.from_dict(a) for a in d["ambiguities"]]
        return cls(d["spec"], d["players"], d["seed"], d["games"], d["baseline"], ambs, d["confidence"],
                   d.get("margins", {}), {int(k) - 1: v for k, v in d.get("agents", {}).items()},
                   d.get("mode", "fixed"), d.get("max_games"), d.get("seconds", 0.0), d.get("engine", "python"),
                   d.get("engine_note"))

    def as_dict(self) -> dict:
        return {"spec": self.spec, "players": self.players, "seed": self.seed, "games": self.games,
                "confidence": self.level, "baseline": self.baseline,
                "policy": self.policy, "agents": {str(s + 1): a for s, a in self.agents.items()},
                "mode": self.mode, "max_games": self.max_games, "decided": self.decided,
                "seconds": self.seconds, "engine": self.engine,
                **({"engine_note": self.engine_note} if self.engine_note else {}), "margins": self.margins,
                "intervals": ("anytime-valid confidence sequences" if self.mode == "sequential" else
                              "fixed-sample intervals") + ", Bonferroni over the measures of each comparison",
                "ambiguities": [a.as_dict() for a in self.ambiguities]}


def _reading_hits(arm: Arm, game_points: list, ambiguity: str) -> int:
    if arm.hits is None:
        return 0
    return sum(h for (kind, what, _span), h in zip(game_points, arm.hits) if kind == "reading" and what == ambiguity)


def baseline_summary(results: list[tuple], players: int, teams: Any = None) -> dict:
    """Counts of an arm's games; in a game of sides (`teams`, lang/teams.TeamsDef) each side's win share too."""
    finished = [r for r in results if r[0] == paired.FINISHED]
    turns = sorted(r[2] for r in finished)
    wins = [0.0] * players
    for r in finished:
        for w in r[1]:
            wins[w] += 1 / len(r[1])
    out = {"games": len(results), "finished": len(finished),
           "stalled": sum(r[0] == paired.STALLED for r in results),
           "errors": sum(r[0] not in (paired.FINISHED, paired.STALLED) for r in results),
           "turns_mean": round(sum(turns) / len(turns), 2) if turns else 0,
           "wins": [round(w / max(len(finished), 1), 4) for w in wins]}
    if teams is not None:  # a side wins together: its share is its seats' shares added up
        out["side_wins"] = [{"name": teams.name(k), "seats": [p + 1 for p in side],
                             "wins": round(sum(wins[p] for p in side) / max(len(finished), 1), 4)}
                            for k, side in enumerate(teams.sides(players))]
    return out


def base_means(results: list[tuple], extra: list[str]) -> dict[str, float]:
    """The default configuration's means a relative margin is a fraction of (over its finished games)."""
    finished = [r for r in results if r[0] == paired.FINISHED]
    out: dict[str, float] = {}
    if finished:
        out["turns"] = sum(r[2] for r in finished) / len(finished)
        margins = [m for m in (paired.winning_margin(r) for r in finished) if m is not None]
        if margins:
            out["margin"] = sum(margins) / len(margins)
        with_measures = [r for r in finished if len(r) > 7 and len(r[7]) == len(extra)]
        for k, name in enumerate(extra):
            if with_measures:
                out[name] = sum(r[7][k] for r in with_measures) / len(with_measures)
    return out


def judged(base: list[tuple], other: list[tuple], players: int, level: float, extra: list[str],
           margins: Mapping[str, float], t_star: float | None, teams: Any = None,
           pairing: paired.Pairing | None = None) -> list[paired.Interval]:
    """Paired intervals of other - base, each judged against its margin (wins by side in a game of sides).
    `pairing`: the differences kept from an earlier look at the same two lists (only new games are added)."""
    pairing = pairing or paired.Pairing(players, extra, teams)
    ivs = pairing.add(base, other).intervals(level, t_star)
    for iv in ivs:
        iv.judge(margins.get(S.margin_key(iv.measure), 0.0))
    return ivs


def run_arms(arms: list[Arm], players: int, seed: int, games: int, workers: int, precision: float | None,
             max_games: int, batch: int, progress: Callable[[int, int], None] | None,
             compare_to: Callable[[], list[list[paired.Interval]]] | None = None,
             level: float = 0.95, open_arms: Callable[[], set[int]] | None = None) -> int:
    """Play every arm on the same seeds, in batches; return how many games the first arm (the default) played.

    Fixed mode plays `games`. With `precision`, batches go on until every interval is that narrow; with
    `open_arms` (play until decided), the arms it names (indices after the first) go on until it names none,
    and an arm it no longer names stops where it is: each arm's games are always seeds 0 to its count, so
    a settled arm is paired with the default's first games, and an arm named again later catches up.
    Every loop stops at `max_games`.
    """
    done = 0
    looping = precision is not None or open_arms is not None
    target = max_games if looping else games
    wanted = set(range(1, len(arms)))
    while done < target and wanted:
        step = min(games if done == 0 or not looping else batch, target - done)
        for k, arm in enumerate(arms):
            if k and k not in wanted:
                continue
            res, hits = summaries(arm.gs, players, seed, len(arm.results), done + step, workers)
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
        if open_arms is not None:
            wanted = open_arms()
    return done


def same_games(arm: Arm, base: Arm) -> bool:
    """Whether an arm's games all came out exactly as the default's on the same seeds (its pairing keeps
    that as its games come in, so a look does not compare every game again)."""
    return arm.pairing.add(base.results, arm.results).identical


def ambiguity_lab(path: str, players: int, games: int, seed: int, *, options: dict | None = None,
                  workers: int = 1, precision: float | None = None, max_games: int = 100_000,
                  level: float = 0.95, only: list[str] | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  margins: Mapping[str, str] | None = None, agents: dict[int, str] | None = None,
                  until_decided: bool = False, batch: int | None = None, budget: int | None = None,
                  engine: str | None = "python") -> LabReport:
    """Measure every ambiguity of the spec at `path` (or those in `only`).

    `margins`: name -> margin text (`wins=0.02`, `turns=5%`), over the spec's `lab.margins` and the defaults.
    `agents`: seat (0-based) -> agent name; None takes the spec's `lab.agents` (random where it names none).
    `until_decided`: after the first `games`, play `batch` more at a time (default: as many again) until
    every reading is decided or `max_games` is reached, judging with confidence sequences.
    `budget`: steps per game before it counts as stalled (search agents make a stalled game costly: a reading
    that lets them stop every turn forever plays the whole budget, with a search at every decision).
    `engine`: "python" (the reference), "kernel", or None: the kernel where it applies (kernel.choose says
    why not; the command line's default).
    """
    from ..runtime.pipeline import load_game, load_spec
    t0 = time.perf_counter()
    spec, _ = load_spec(path)
    options = dict(options or {})
    seats = S.spec_agents(spec, players) if agents is None else dict(agents)
    wanted_margins = S.margins_for(spec, margins)
    names = [n for n in spec.ambiguities if not only or n in only]
    from ..kernel import choose
    engine, engine_note = choose(spec, seats, engine)
    kw: dict = {"budget": budget} if budget else {}
    kw["engine"] = engine
    base = Arm("default", GameSpec(path, options, {}, coverage=True, agents=seats, **kw))
    arms = [base]
    wanted: list[tuple[str, str, Arm]] = []
    for name in names:
        a = spec.ambiguities[name]
        for interp in a.interpretations:
            if interp == a.default:
                continue
            arm = Arm(f"{name}={interp}", GameSpec(path, options, {name: interp}, coverage=True, agents=seats, **kw))
            arm.pairing = paired.Pairing(players, spec.measures, spec.teams)
            arms.append(arm)
            wanted.append((name, interp, arm))

    extra = list(spec.measures)  # the spec's own measures are compared too
    t_star = float(games) if until_decided else None
    points: list = []

    def resolved() -> dict[str, float]:
        return S.resolve(wanted_margins, base_means(base.results, extra))

    def intervals() -> list[list[paired.Interval]]:
        m = resolved()
        return [judged(base.results, arm.results, players, level, extra, m, t_star, spec.teams, arm.pairing)
                for _, _, arm in wanted]

    def undecided() -> set[int]:
        """The arms (indices in `arms`) whose reading ran and is still undecided: those play on."""
        if not points:
            points.extend(load_game(path, options, coverage=True).points)
        return {k + 1 for k, ((name, _interp, arm), ivs) in enumerate(zip(wanted, intervals()))
                if not same_games(arm, base) and _reading_hits(arm, points, name)
                and paired.verdict(ivs, True)[0] == V.UNDECIDED}

    played = run_arms(arms, players, seed, games, workers, precision, max_games,
                      batch=batch or max(100, games), progress=progress, compare_to=intervals, level=level,
                      open_arms=undecided if until_decided else None)
    if not points:
        points.extend(load_game(path, options, coverage=True).points)
    m = resolved()
    results = []
    for name in names:
        a = spec.ambiguities[name]
        readings = []
        for amb, interp, arm in wanted:
            if amb != name:
                continue
            iv = judged(base.results, arm.results, players, level, extra, m, t_star, spec.teams, arm.pairing)
            reached = _reading_hits(arm, points, name)
            r = Reading(name, interp, a.interpretations[interp], intervals=iv, reached=reached,
                        contradicts_text=interp in a.contradicts_text,
                        identical=same_games(arm, base), games=len(arm.results))
            r.verdict, r.games_to_decide = paired.verdict(iv, reached > 0)
            r.impact = paired.impact(iv) if reached else 0.0
            readings.append(r)
        verdict = V.ambiguity_verdict([r.verdict for r in readings])
        open_ = [r.games_to_decide for r in readings if r.verdict == V.UNDECIDED]
        need = None if verdict != V.UNDECIDED or None in open_ else max(open_, default=None)
        results.append(AmbiguityResult(name, a.quote, a.default, sorted(readings, key=lambda r: -r.impact),
                                       verdict, max((r.impact for r in readings), default=0.0), need))
    results.sort(key=lambda r: (V.ORDER[r.verdict], -r.impact, r.name))
    mode = "sequential" if until_decided else "precision" if precision is not None else "fixed"
    return LabReport(path, players, seed, played, baseline_summary(base.results, players, spec.teams), results, level,
                     S.describe(wanted_margins, m), seats, mode, max_games if mode != "fixed" else None,
                     time.perf_counter() - t0, engine, engine_note)
