"""Variant search (`rulewright tune`): the options and readings that give the game a designer asks for.

Owns searching a space of variants (every combination of the values of the
options and the interpretations of the ambiguities being varied) against
design targets (targets.py): each candidate plays the same game seeds as
every other (common random numbers, the lab's runner), in growing batches
(the first `games`, then twice as many in all, and so on up to `max_games`);
after each batch every target gets an interval of its measure and a verdict
(inside, outside, undecided). The intervals are anytime-valid confidence
sequences (verdicts.sequence_half, as the lab's play-until-decided mode), so
looking after every batch and stopping early does not raise the error rate,
Bonferroni-corrected over the targets of a candidate. A candidate stops when
a band is surely missed (pruned: it cannot meet the targets), when every band
is surely met and every objective is as precise as the lab's margin for its
measure, or at `max_games`. It *meets* the targets when every band is inside,
fails when one is outside, and is undecided otherwise.

A small space is searched exhaustively; a large one by Optuna's TPE sampler
(seeded: the same seed gives the same trials), with the statistical stop as
its pruning (a candidate surely outside is told to Optuna as pruned). The
candidates are ranked (those that meet, then the undecided, then those that
fail; then by how far their means miss the bands, then by the objectives;
among equals, readings the rulebook's words allow before those it rules out,
then the fewest changes from the spec's defaults),
and the Pareto set is the candidates no other beats (one beats another when
its interval of "how bad" lies wholly below the other's on some target, and
wholly above it on none). Under several policies, the search runs once per policy on the same
seeds, each policy's best variant is checked under the others, and a best
variant that depends on who plays is flagged, as the lab flags a verdict.

Only options and readings vary: a constant is made tunable by declaring it
as an option with the `values:` to try (rules read `option.NAME`), which a
variant file can do for a base spec (`set: options.NAME.values: [...]`).
Rendering is the CLI's and tune_report.py's; writing the best variant as a
spec is `variant_yaml`'s.
"""
from __future__ import annotations

import hashlib
import math
import os
import time
from dataclasses import dataclass, field
from itertools import product
from typing import Any, Callable, Sequence

from ..spec.diagnostics import Diagnostic, Span, SpecError, did_you_mean
from . import settings as S, verdicts as V
from .runner import GameSpec, summaries_many
from .targets import INSIDE, OUTSIDE, UNDECIDED, Target

FINISHED, STALLED = "finished", "stalled"
MEETS_ORDER = {"true": 0, "undecided": 1, "false": 2}
VARY_SOURCE = "--vary"  # the pseudo-file --vary diagnostics point into: line k is the k-th --vary
WAVE = 32  # candidates played side by side (and kept compiled) at a time


class TuneError(ValueError):
    """The search cannot run as asked (a usage problem)."""


@dataclass(slots=True)
class Axis:
    """One varied name: an option (its values) or an ambiguity (its interpretations)."""
    name: str
    kind: str  # "option" or "reading"
    values: list[Any]

    def as_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "values": self.values}


def _vary_span(line: int, start: int, end: int) -> Span:
    return Span(VARY_SOURCE, line, start + 1, line, max(end, start + 1) + 1)


def _value_matches(text: str, v: Any) -> bool:
    if isinstance(v, bool):
        return text.lower() == str(v).lower()
    return text == str(v)


def parse_vary(texts: Sequence[str], spec) -> list[Axis]:
    """Each `--vary NAME`, `NAME=V1,V2,...` or `NAME=LO..HI` (a range of an integer option's values) -> an Axis;
    raises SpecError (E704) with every one that names nothing the spec declares or a value it does not have."""
    axes: list[Axis] = []
    diags: list[Diagnostic] = []
    seen: set[str] = set()
    for k, text in enumerate(texts, start=1):
        name, eq, rest = text.partition("=")
        name = name.strip()
        start = len(text) - len(text.lstrip())
        if name in spec.options and name in spec.ambiguities:
            diags.append(Diagnostic("E704", f"'{name}' is both an option and an ambiguity", _vary_span(k, start, start + len(name)),
                                    hint="rename one of them in the spec"))
            continue
        if name in spec.options:
            kind, declared = "option", list(spec.options[name].values)
        elif name in spec.ambiguities:
            kind, declared = "reading", list(spec.ambiguities[name].interpretations)
        else:
            valid = list(spec.options) + list(spec.ambiguities)
            diags.append(Diagnostic("E704", f"no option or ambiguity '{name}'", _vary_span(k, start, start + len(name)),
                                    hint=did_you_mean(name, valid) or ("options and ambiguities: " + ", ".join(valid)
                                                                       if valid else "the spec declares none")))
            continue
        if name in seen:
            diags.append(Diagnostic("E704", f"'{name}' is varied twice", _vary_span(k, start, len(text.rstrip())),
                                    hint="list every value in one --vary NAME=A,B,C"))
            continue
        seen.add(name)
        if not eq:
            values = declared
        else:
            values, offset = [], len(name) + 1 + (len(text) - len(text.lstrip()))
            pieces = rest.split(",")
            if len(pieces) == 1 and ".." in rest and all(isinstance(v, int) and not isinstance(v, bool) for v in declared):
                lo_t, _, hi_t = rest.partition("..")
                try:
                    lo, hi = int(lo_t), int(hi_t)
                except ValueError:
                    diags.append(Diagnostic("E704", f"'{rest.strip()}' is not a range of whole numbers",
                                            _vary_span(k, offset, len(text.rstrip())), hint="write LO..HI, e.g. 3..6"))
                    continue
                values = [v for v in declared if lo <= v <= hi]
                if not values:
                    diags.append(Diagnostic("E704", f"no value of {name} lies in {lo}..{hi}",
                                            _vary_span(k, offset, len(text.rstrip())),
                                            hint=f"{name} takes {', '.join(map(str, declared))}"))
                    continue
            else:
                pos = offset
                for piece in pieces:
                    t = piece.strip()
                    hit = [v for v in declared if _value_matches(t, v)]
                    if not hit:
                        what = "value" if kind == "option" else "interpretation"
                        hint = (did_you_mean(t, [str(v) for v in declared]) or
                                f"{name} takes {', '.join(map(str, declared))}")
                        if kind == "option":
                            hint += (f"; to try other values, widen them in a variant: "
                                     f"`set: options.{name}.values: [...]`")
                        diags.append(Diagnostic("E704", f"'{t}' is not a{'n' if what[0] == 'i' else ''} {what} of "
                                                f"{name}", _vary_span(k, pos + len(piece) - len(piece.lstrip()),
                                                                      pos + len(piece.rstrip())), hint=hint))
                    elif hit[0] not in values:
                        values.append(hit[0])
                    pos += len(piece) + 1
                if not values:
                    continue
        axes.append(Axis(name, kind, values))
    if diags:
        raise SpecError(diags)
    return axes


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

    def as_dict(self) -> dict:
        def num(x: float | None) -> float | None:
            return x if x is not None and math.isfinite(x) else None
        d = {"target": self.target.text, "measure": self.target.measure, "mean": num(self.mean),
             "lo": num(self.lo), "hi": num(self.hi), "n": self.n}
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
                "targets": [e.as_dict() for e in self.estimates]}


def _values(summary: tuple, players: int, extra: Sequence[str]) -> dict[str, float | None]:
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


@dataclass(slots=True)
class Search:
    """One policy's search: the candidates it played and how."""
    policy: str
    agents: dict[int, str]
    mode: str = "exhaustive"  # or "optuna"
    candidates: list[Candidate] = field(default_factory=list)
    games: int = 0  # games played in all
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def ranked(self) -> list[Candidate]:
        return sorted(self.candidates, key=lambda c: c.rank)

    @property
    def best(self) -> Candidate | None:
        ranked = [c for c in self.ranked if c.error is None]
        return ranked[0] if ranked else None

    def as_dict(self) -> dict:
        best = self.best
        return {"policy": self.policy, "agents": {str(s + 1): a for s, a in self.agents.items()}, "mode": self.mode,
                "games": self.games, "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
                "tried": len(self.candidates),
                "meeting": [c.label for c in self.ranked if c.meets == "true"],
                "pareto": [c.label for c in self.ranked if c.pareto], "best": best.label if best else None,
                "best_changes": best.changes if best else None,
                "candidates": [c.as_dict() for c in self.ranked]}


class Runner:
    """Plays candidates in growing batches on the same seeds and judges them against the targets."""

    def __init__(self, path: str, spec, players: int, seed: int, targets: list[Target], agents: dict[int, str],
                 games: int, max_games: int, workers: int, level: float, budget: int | None,
                 progress: Callable[[int], None] | None = None):
        self.path, self.spec, self.players, self.seed = path, spec, players, seed
        self.targets, self.agents = targets, agents
        self.games, self.max_games, self.workers, self.level = games, max_games, workers, level
        self.budget = budget
        self.progress = progress
        self.extra = list(spec.measures)
        self.alpha = (1 - level) / max(1, len(targets))  # Bonferroni over the targets of a candidate
        self.t_star = float(games)
        self.margins = S.margins_for(spec)
        self.played = 0

    def _gs(self, c: Candidate) -> GameSpec:
        kw = {"budget": self.budget} if self.budget else {}
        return GameSpec(self.path, dict(c.options), dict(c.readings), agents=dict(self.agents), **kw)

    def _next(self, n: int) -> int:
        """Games in all after the next batch: the first batch, then doubling, up to max_games."""
        return min(self.max_games, self.games if n == 0 else 2 * n)

    def play(self, cands: list[Candidate], on_batch: Callable[[Candidate], None] | None = None) -> None:
        """Play every candidate until it stops (see the module docstring), WAVE of them side by side."""
        from ..runtime.engine import SetupError
        from ..runtime.pipeline import load_game
        for w in range(0, len(cands), WAVE):
            wave = [c for c in cands[w:w + WAVE] if not c.done]
            compiled = {}
            for c in wave:
                gs = self._gs(c)
                try:
                    g = load_game(self.path, c.options, c.readings, **({"budget": self.budget} if self.budget else {}))
                except (SpecError, SetupError) as exc:
                    c.error = (exc.diagnostics[0].message if isinstance(exc, SpecError) and exc.diagnostics
                               else str(exc))
                    c.done, c.meets, c.stopped = True, "false", "does not compile"
                    continue
                compiled[gs.key()] = g
            live = [c for c in wave if not c.done]
            while live:
                jobs = [(self._gs(c), c.games, self._next(c.games)) for c in live]
                results = summaries_many(jobs, self.players, self.seed, self.workers, compiled)
                for c, (_gs, a, b), res in zip(live, jobs, results):
                    for s in res:
                        self._add(c, s)
                    self.played += b - a
                    self.judge(c)
                    if on_batch:
                        on_batch(c)
                    if c.done and self.progress:
                        self.progress(1)
                live = [c for c in live if not c.done]

    def _add(self, c: Candidate, s: tuple) -> None:
        if c.digest is None:
            c.digest = hashlib.blake2b(digest_size=16)
        c.digest.update(repr(s[:5] + s[7:]).encode())  # not the seed (the same for all) nor the reason text
        c.games += 1
        c.finished += s[0] == FINISHED
        for name, x in _values(s, self.players, self.extra).items():
            if x is not None:
                c.sums.setdefault(name, Sums()).add(float(x))

    def estimate(self, c: Candidate, t: Target) -> Estimate:
        if t.measure == "wins spread":  # each seat's share at alpha / seats: the spread's interval holds with all
            a = self.alpha / self.players
            seats = [c.sums.get(f"win P{k + 1}", Sums()).interval(a, self.t_star, True) for k in range(self.players)]
            if any(m is None for m, _lo, _hi in seats):
                mean, lo, hi = None, 0.0, 1.0
            else:
                means = [m for m, _lo, _hi in seats]
                mean = max(means) - min(means)
                lo = max(0.0, max(x[1] for x in seats) - min(x[2] for x in seats))
                hi = min(1.0, max(x[2] for x in seats) - min(x[1] for x in seats))
            n = c.finished
        else:
            s = c.sums.get(t.measure, Sums())
            mean, lo, hi = s.interval(self.alpha, self.t_star, t.share)
            n = s.n
        verdict = t.judge(lo, hi) if mean is not None else UNDECIDED
        return Estimate(t, mean, lo, hi, n, verdict)

    def _precise(self, e: Estimate) -> bool:
        """An objective is known well enough when its interval is within the lab's margin for its measure."""
        if e.mean is None or not math.isfinite(e.half):
            return False
        key = "wins" if e.target.measure == "wins spread" else S.margin_key(e.target.measure)
        margin = self.margins.get(key, S.MEASURE_DEFAULT).resolve(e.mean)
        return e.half <= max(margin, 1e-9)

    def judge(self, c: Candidate) -> None:
        c.estimates = [self.estimate(c, t) for t in self.targets]
        bands = [e for e in c.estimates if not e.target.objective]
        out = [e for e in bands if e.verdict == OUTSIDE]
        if out:
            c.meets = "false"
        elif all(e.verdict == INSIDE for e in bands):
            c.meets = "true"
        else:
            c.meets = UNDECIDED
        if out:
            c.done, c.stopped = True, "outside " + "; ".join(e.target.text for e in out)
        elif c.meets == "true" and all(self._precise(e) for e in c.estimates if e.target.objective):
            c.done, c.stopped = True, "decided"
        elif c.games >= self.max_games:
            c.done, c.stopped = True, f"{self.max_games} games (the cap)"


def _label(options: dict, readings: dict, axes: list[Axis]) -> str:
    parts = []
    for a in axes:
        v = options[a.name] if a.kind == "option" else readings[a.name]
        parts.append(f"{a.name}={str(v).lower() if isinstance(v, bool) else v}")
    return ", ".join(parts) or "(the spec as it is)"


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


@dataclass(slots=True)
class TuneReport:
    spec: str
    game: str
    players: int
    seed: int
    targets: list[Target]
    axes: list[Axis]
    options: dict[str, Any]  # fixed by --option
    readings: dict[str, str]  # fixed by --reading
    searches: list[Search]
    level: float
    games: int
    max_games: int
    space: int
    sensitivity: list[str] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def first(self) -> Search:
        return self.searches[0]

    @property
    def best(self) -> Candidate | None:
        return self.first.best

    def as_dict(self) -> dict:
        first = self.first.as_dict()
        return {"spec": self.spec, "game": self.game, "players": self.players, "seed": self.seed,
                "confidence": self.level,
                "intervals": "anytime-valid confidence sequences (valid after every batch), Bonferroni over the "
                             "targets of a candidate; a seat's share of finished games, a shared win split",
                "targets": [t.as_dict() for t in self.targets], "vary": [a.as_dict() for a in self.axes],
                "fixed": {"options": self.options, "readings": self.readings},
                "space": self.space, "first_batch": self.games, "max_games": self.max_games,
                "mode": self.first.mode, "policy": self.first.policy,
                "best": first["best"], "meeting": first["meeting"], "pareto": first["pareto"],
                "candidates": first["candidates"],
                "policies": [s.as_dict() for s in self.searches] if len(self.searches) > 1 else None,
                "sensitivity": self.sensitivity, "seconds": round(self.seconds, 3),
                "cpu_seconds": round(self.cpu_seconds, 3)}


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _space(axes: list[Axis], options: dict, readings: dict) -> list[tuple[dict, dict]]:
    out = []
    for combo in product(*[a.values for a in axes]):
        o, r = dict(options), dict(readings)
        for a, v in zip(axes, combo):
            (o if a.kind == "option" else r)[a.name] = v
        out.append((o, r))
    return out


class _Space:
    """The candidates of one search, each made once (the same options and readings: the same games)."""

    def __init__(self, spec, axes: list[Axis], options: dict, readings: dict):
        self.spec, self.axes, self.options, self.readings = spec, axes, options, readings
        self.made: dict[tuple, Candidate] = {}

    def get(self, o: dict, r: dict) -> Candidate:
        c = Candidate(o, r, _label(o, r, self.axes))
        hit = self.made.get(c.key)
        if hit is not None:
            return hit
        changed = [a for a in self.axes if (o[a.name] != self.spec.options[a.name].default if a.kind == "option"
                                            else r[a.name] != self.spec.ambiguities[a.name].default)]
        c.changes = _label(o, r, changed) if changed else "(the defaults)"
        c.against_text = [f"{n}={v}" for n, v in r.items() if v in self.spec.ambiguities[n].contradicts_text]
        self.made[c.key] = c
        return c


def _exhaustive(runner: Runner, space: _Space) -> None:
    cands = [space.get(o, r) for o, r in _space(space.axes, space.options, space.readings)]
    runner.play(cands)


def _optuna(runner: Runner, space: _Space, trials: int, seed: int, size: int) -> None:
    try:
        import optuna
    except ImportError:
        raise TuneError("a space this large is searched with Optuna: pip install 'rulewright[tune]' "
                        "(or --search exhaustive)") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=seed))
    first_mean: dict[int, float] = {}

    def score(c: Candidate) -> float:
        """One number for the sampler, lower better: the bands' shortfall first, then the objectives."""
        s = c.shortfall * 1000.0
        for k, e in enumerate(x for x in c.estimates if x.target.objective):
            if e.mean is None:
                return math.inf
            base = first_mean.setdefault(k, max(abs(e.mean), 1e-9))
            s += (e.mean if e.target.direction == "min" else -e.mean) / base
        return s

    distinct, asks = 0, 0
    while distinct < min(trials, size) and asks < 4 * trials:
        asks += 1
        trial = study.ask()
        o, r = dict(space.options), dict(space.readings)
        for a in space.axes:
            v = trial.suggest_categorical(f"{a.kind}:{a.name}", a.values)
            (o if a.kind == "option" else r)[a.name] = v
        c = space.get(o, r)
        if not c.done:
            distinct += 1
            runner.play([c], on_batch=lambda x: trial.report(score(x), x.games) if x.error is None else None)
        value = score(c) if c.error is None else math.inf
        if c.meets == "false" or not math.isfinite(value):
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
        else:
            study.tell(trial, value)


def tune(path: str, players: int, seed: int, targets: list[Target], axes: list[Axis], *,
         options: dict | None = None, readings: dict | None = None, policies: list[dict[int, str]] | None = None,
         games: int = 200, max_games: int = 3200, workers: int = 1, level: float = 0.95, trials: int = 100,
         search: str = "auto", budget: int | None = None,
         progress: Callable[[str, int], Callable[[int], None] | None] | None = None) -> TuneReport:
    """Search the variants of the spec at `path` (every combination of the `axes`' values, with `options` and
    `readings` fixed) for those that meet `targets`; once per policy in `policies` (seat -> agent; {} is random).

    `search`: exhaustive, optuna, or auto (exhaustive when the space has at most `trials` candidates).
    `progress(policy, expected)` -> a callback told of each candidate finished.
    """
    from ..runtime.pipeline import load_spec
    t0, c0 = time.perf_counter(), _cpu()
    spec, _ = load_spec(path)
    options, readings = dict(options or {}), dict(readings or {})
    clash = [a.name for a in axes if a.name in options or a.name in readings]
    if clash:
        raise TuneError(f"'{clash[0]}' is both varied and fixed (--vary and --option/--reading): give one")
    if not targets:
        raise TuneError("give at least one --target")
    if games > max_games:
        raise TuneError(f"the first batch ({games} games) is larger than --max-games ({max_games})")
    size = math.prod(len(a.values) for a in axes)
    if search == "auto":
        search = "exhaustive" if size <= trials else "optuna"
    if search not in ("exhaustive", "optuna"):
        raise TuneError(f"unknown search '{search}' (auto, exhaustive or optuna)")
    policies = policies or [{}]
    searches: list[Search] = []
    spaces: list[_Space] = []
    runners: list[Runner] = []
    for agents in policies:
        s = Search(S.policy_label(agents, players), dict(agents), search)
        expected = size if search == "exhaustive" else min(trials, size)
        update = progress(s.policy, expected) if progress else None
        runner = Runner(path, spec, players, seed, targets, agents, games, max_games, workers, level, budget, update)
        space = _Space(spec, axes, options, readings)
        ts, tc = time.perf_counter(), _cpu()
        if search == "exhaustive":
            _exhaustive(runner, space)
        else:
            _optuna(runner, space, trials, seed, size)
        s.seconds, s.cpu_seconds = time.perf_counter() - ts, _cpu() - tc
        searches.append(s)
        spaces.append(space)
        runners.append(runner)
    for s, space in zip(searches, spaces):  # each policy's best, played under every other policy too
        s.candidates = list(space.made.values())
        rank(s.candidates)
    notes: list[str] = []
    if len(searches) > 1:
        bests = [s.best for s in searches]
        for s, space, runner in zip(searches, spaces, runners):
            more = []
            for b in bests:
                if b is None:
                    continue
                c = space.get(dict(b.options), dict(b.readings))
                if not c.done:
                    c.extra = True
                    more.append(c)
            ts, tc = time.perf_counter(), _cpu()
            runner.play(more)
            s.seconds += time.perf_counter() - ts
            s.cpu_seconds += _cpu() - tc
            s.candidates = list(space.made.values())
            rank(s.candidates)
        notes = sensitivity(searches)
    for s, runner in zip(searches, runners):
        s.games = runner.played
    game = spec.name
    return TuneReport(path, game, players, seed, targets, axes, options, readings, searches, level, games,
                      max_games, size, notes, time.perf_counter() - t0, _cpu() - c0)


def sensitivity(searches: list[Search]) -> list[str]:
    """The lab's policy-sensitivity warning, for a search: a best variant that depends on who plays."""
    notes = []
    bests = {s.policy: s.best for s in searches}
    labels = {p: b.label for p, b in bests.items() if b is not None}
    if len(set(labels.values())) > 1:
        notes.append("the best variant depends on who plays: " +
                     "; ".join(f"{p} players: {lab}" for p, lab in labels.items()))
    for p, b in bests.items():
        if b is None or b.meets != "true":
            continue
        for s in searches:
            if s.policy == p:
                continue
            other = next((c for c in s.candidates if c.key == b.key), None)
            if other is not None and other.meets != "true":
                notes.append(f"{b.label} meets the targets under {p} players but "
                             f"{'fails them' if other.meets == 'false' else 'is undecided'} under {s.policy} players")
    return notes


def variant_yaml(rep: TuneReport, c: Candidate, out_path: str) -> str:
    """The candidate as a variant file that `extends:` the searched spec (path relative to `out_path`'s folder)."""
    import yaml
    from ..runtime.pipeline import load_spec
    spec, _ = load_spec(rep.spec)
    base = os.path.relpath(os.path.abspath(rep.spec), os.path.dirname(os.path.abspath(out_path)))
    sets: dict[str, Any] = {"game.name": f"{spec.name} (tuned)"}
    for name, v in c.options.items():
        if spec.options[name].default != v:
            sets[f"options.{name}.default"] = v
    for name, v in c.readings.items():
        if spec.ambiguities[name].default != v:
            sets[f"ambiguities.{name}.default"] = v
    lines = [f"# Written by `rulewright tune` (seed {rep.seed}, {rep.players} players, {rep.first.policy} players):",
             f"# {c.label}: meets the targets: {c.meets} (rank {c.rank} of {len(rep.first.candidates)}).",
             "# Each target, the mean and its interval (anytime-valid, "
             f"{rep.level:.0%} over the targets together):"]
    for e in c.estimates:
        verdict = "" if e.target.objective else f": {e.verdict}"
        lines.append(f"#   {e.target.text}: {e.target.show(e.mean)} [{e.target.show(e.lo)}, {e.target.show(e.hi)}]"
                     f"{verdict} ({e.n} games)")
    body = yaml.safe_dump({"extends": base, "set": sets}, sort_keys=False, allow_unicode=True)
    return "\n".join(lines) + "\n" + body
