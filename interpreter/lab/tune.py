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
its pruning (a candidate surely outside is told to Optuna as pruned). Under
several policies, the search runs once per policy on the same seeds, each
policy's best variant is played under the others too, and a best variant
that depends on who plays is flagged, as the lab flags a verdict.

Owns too the best candidate written back as a variant spec (`variant_yaml`:
`extends:` the searched spec, setting the defaults of its options and
readings) and checked as the file it will be (`check_variant`), and
stopping a search on request between batches (`stop`: the table's Stop
button). What may vary is tune_space.py's;
a candidate's statistics, ranking and the Pareto set candidates.py's;
rendering the CLI's and tune_report.py's.
"""
from __future__ import annotations

import hashlib
import math
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..spec.diagnostics import SpecError
from . import settings as S
from .candidates import FINISHED, Candidate, Estimate, Sums, pareto, rank, values_of
from .runner import GameSpec, summaries_many
from .targets import INSIDE, OUTSIDE, UNDECIDED, Target
from .tune_space import VARY_SOURCE, Axis, combinations, label, parse_vary

__all__ = ["Axis", "Candidate", "Estimate", "Search", "Stopped", "TuneError", "TuneReport", "VARY_SOURCE",
           "check_variant", "parse_vary", "pareto", "rank", "sensitivity", "tune", "variant_yaml"]
WAVE = 32  # candidates played side by side (and kept compiled) at a time
CONFIRM_OFFSET = 1_000_003  # the master seed of the confirming games is the search's plus this


class TuneError(ValueError):
    """The search cannot run as asked (a usage problem)."""


class Stopped(Exception):
    """The search was asked to stop (its `stop()` turned true) and stopped after the batch being played."""

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
                 progress: Callable[[int], None] | None = None, stop: Callable[[], bool] | None = None):
        self.path, self.spec, self.players, self.seed = path, spec, players, seed
        self.targets, self.agents = targets, agents
        self.games, self.max_games, self.workers, self.level = games, max_games, workers, level
        self.budget = budget
        self.progress, self.stop = progress, stop
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
                if self.stop is not None and self.stop():
                    raise Stopped("the search was stopped")
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
        for name, x in values_of(s, self.players, self.extra).items():
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
                "confirm_seed": (self.seed + CONFIRM_OFFSET
                                 if any(c.confirmed for s in self.searches for c in s.candidates) else None),
                "sensitivity": self.sensitivity, "seconds": round(self.seconds, 3),
                "cpu_seconds": round(self.cpu_seconds, 3)}


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
        lines.append(f"#   {e.target.text}: {e.shown}{verdict} ({e.n} games)")
    body = yaml.safe_dump({"extends": base, "set": sets}, sort_keys=False, allow_unicode=True)
    return "\n".join(lines) + "\n" + body


def check_variant(text: str, out_path: str) -> list:
    """The errors of a variant's text checked, in memory, as the file `out_path` would be (its `extends:` is
    relative to that folder, and must be allowed from there); [] when it checks clean."""
    from ..runtime.pipeline import check_spec
    checked, diags = check_spec(out_path, text)
    return [] if checked is not None else [d for d in diags if d.severity == "error"] or diags


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class _Space:
    """The candidates of one search, each made once (the same options and readings: the same games)."""

    def __init__(self, spec, axes: list[Axis], options: dict, readings: dict):
        self.spec, self.axes, self.options, self.readings = spec, axes, options, readings
        self.made: dict[tuple, Candidate] = {}

    def get(self, o: dict, r: dict) -> Candidate:
        c = Candidate(o, r, label(o, r, self.axes))
        hit = self.made.get(c.key)
        if hit is not None:
            return hit
        changed = [a for a in self.axes if (o[a.name] != self.spec.options[a.name].default if a.kind == "option"
                                            else r[a.name] != self.spec.ambiguities[a.name].default)]
        c.changes = label(o, r, changed) if changed else "(the defaults)"
        c.against_text = [f"{n}={v}" for n, v in r.items() if v in self.spec.ambiguities[n].contradicts_text]
        self.made[c.key] = c
        return c


def _exhaustive(runner: Runner, space: _Space) -> None:
    cands = [space.get(o, r) for o, r in combinations(space.axes, space.options, space.readings)]
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
         search: str = "auto", budget: int | None = None, confirm: int = 0,
         progress: Callable[[str, int], Callable[[int], None] | None] | None = None,
         stop: Callable[[], bool] | None = None) -> TuneReport:
    """Search the variants of the spec at `path` (every combination of the `axes`' values, with `options` and
    `readings` fixed) for those that meet `targets`; once per policy in `policies` (seat -> agent; {} is random).

    `search`: exhaustive, optuna, or auto (exhaustive when the space has at most `trials` candidates).
    `confirm`: play the first `confirm` candidates of each ranking that meet or may meet the targets again, on
    other seeds (master seed CONFIRM_OFFSET + seed), judged afresh: their intervals do not carry the optimism
    of having been picked as the best of many.
    `progress(policy, expected)` -> a callback told of each candidate finished.
    `stop()`: checked before every batch; when it turns true the search raises Stopped.
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
        runner = Runner(path, spec, players, seed, targets, agents, games, max_games, workers, level, budget, update,
                        stop)
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
        if confirm > 0:
            ts, tc = time.perf_counter(), _cpu()
            s.games += _confirm(runner, s, confirm, seed + CONFIRM_OFFSET)
            s.seconds += time.perf_counter() - ts
            s.cpu_seconds += _cpu() - tc
    game = spec.name
    return TuneReport(path, game, players, seed, targets, axes, options, readings, searches, level, games,
                      max_games, size, notes, time.perf_counter() - t0, _cpu() - c0)


def _confirm(runner: Runner, s: Search, k: int, seed: int) -> int:
    """Play the first k candidates that meet or may meet the targets again on the games of master seed `seed`;
    each gets `confirmed`, a fresh Candidate judged on those games alone. Returns the games played."""
    picks = [c for c in s.ranked if c.error is None and c.meets != "false"][:k]
    fresh = Runner(runner.path, runner.spec, runner.players, seed, runner.targets, runner.agents, runner.games,
                   runner.max_games, runner.workers, runner.level, runner.budget, stop=runner.stop)
    twins = [Candidate(dict(c.options), dict(c.readings), c.label, c.changes, list(c.against_text)) for c in picks]
    fresh.play(twins)
    for c, t in zip(picks, twins):
        c.confirmed = t
    return fresh.played


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
