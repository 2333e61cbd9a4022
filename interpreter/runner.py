"""Running games: one with its log, or many with statistics.

Owns: seating agents, playing a game to its end, and sweeps of many games
(in this process or over a process pool) with per-game seeds derived from
the master seed, so every number but the timings is the same for any number
of workers. Statistics stream: a sweep keeps counts and one small record per
game, never logs.
"""
from __future__ import annotations

import math
import multiprocessing as mp
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .agents import AGENTS, ScriptedAgent
from .engine import DEFAULT_BUDGET, Game, Result, Status
from .measures import measure
from .seeds import game_seed


@dataclass(slots=True)
class GameSpec:
    """Everything a worker needs to rebuild the same game (picklable)."""
    path: str
    options: dict[str, Any] = field(default_factory=dict)
    readings: dict[str, str] = field(default_factory=dict)
    budget: int = DEFAULT_BUDGET
    agents: dict[int, str] = field(default_factory=dict)  # seat (0-based) -> agent name

    def load(self) -> Game:
        from .api import load_game
        return load_game(self.path, self.options, self.readings, self.budget)


def make_agents(names: dict[int, str], players: int, seed: int) -> list:
    return [AGENTS[names.get(seat, "random")](seed, seat) for seat in range(players)]


def play(game: Game, players: int, seed: int, agents: dict[int, str] | None = None, *, log: bool = False,
         check: bool = False, script: list[int] | None = None):
    """Play one game to its end; returns the final State."""
    seated = [ScriptedAgent(script)] * players if script is not None else make_agents(agents or {}, players, seed)
    st = game.new_game(players, seed, log=log, check_invariants=check)
    while st.status is Status.RUNNING:
        st.apply(seated[st.pplayer].pick(st))
    return st


def _summary(r: Result, measures: tuple = ()) -> tuple:
    return (r.status, tuple(r.winners), r.turns, r.decisions, tuple(r.scores) if r.scores else None, r.reason, r.seed,
            measures)


@dataclass(slots=True)
class Stats:
    """What a sweep of games measured."""
    players: int
    games: int = 0
    finished: int = 0
    stalled: int = 0
    errors: int = 0
    turns: list[int] = field(default_factory=list)
    decisions: int = 0
    wins: list[float] = field(default_factory=list)  # per seat, ties split
    margins: list[int] = field(default_factory=list)
    stalled_seeds: list[int] = field(default_factory=list)
    error_samples: list[tuple[int, str]] = field(default_factory=list)
    stall_reasons: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    measure_names: list[str] = field(default_factory=list)  # the spec's measures, in order
    measure_labels: list[str] = field(default_factory=list)
    measure_sums: list[float] = field(default_factory=list)  # over finished games
    measure_min: list[float] = field(default_factory=list)
    measure_max: list[float] = field(default_factory=list)

    def add(self, s: tuple) -> None:
        status, winners, turns, decisions, scores, reason, seed, measures = s
        if not self.wins:
            self.wins = [0.0] * self.players
        self.games += 1
        self.decisions += decisions
        if status == Status.FINISHED:
            self.finished += 1
            self.turns.append(turns)
            for w in winners:
                self.wins[w] += 1 / len(winners)
            if scores and len(scores) > 1:
                top = sorted(scores, reverse=True)
                self.margins.append(top[0] - top[1])
            if measures:
                if not self.measure_sums:
                    self.measure_sums = [0.0] * len(measures)
                    self.measure_min = list(measures)
                    self.measure_max = list(measures)
                for i, v in enumerate(measures):
                    self.measure_sums[i] += v
                    self.measure_min[i] = min(self.measure_min[i], v)
                    self.measure_max[i] = max(self.measure_max[i], v)
        elif status == Status.STALLED:
            self.stalled += 1
            if len(self.stalled_seeds) < 10:
                self.stalled_seeds.append(seed)
            self.stall_reasons[reason or "?"] = self.stall_reasons.get(reason or "?", 0) + 1
        else:
            self.errors += 1
            if len(self.error_samples) < 10:
                self.error_samples.append((seed, reason or "?"))

    def as_dict(self) -> dict:
        t = sorted(self.turns)

        def pct(q: float) -> float:
            if not t:
                return 0
            return t[min(len(t) - 1, max(0, math.ceil(q * len(t)) - 1))]
        finished = max(self.finished, 1)
        return {
            "games": self.games, "finished": self.finished, "stalled": self.stalled, "errors": self.errors,
            "turns": {"mean": round(sum(t) / len(t), 3) if t else 0, "p50": pct(0.5), "p95": pct(0.95),
                      "max": t[-1] if t else 0},
            "wins": [round(w / finished, 4) for w in (self.wins or [0.0] * self.players)],
            "decisions_per_game": round(self.decisions / max(self.games, 1), 2),
            "margin": {"mean": round(sum(self.margins) / len(self.margins), 3) if self.margins else None},
            "stalled_seeds": self.stalled_seeds, "stall_reasons": self.stall_reasons,
            "error_samples": [{"seed": s, "reason": r} for s, r in self.error_samples],
            "measures": {n: {"label": lab,
                             "mean": round(self.measure_sums[i] / self.finished, 4) if self.measure_sums else None,
                             "min": self.measure_min[i] if self.measure_sums else None,
                             "max": self.measure_max[i] if self.measure_sums else None}
                         for i, (n, lab) in enumerate(zip(self.measure_names, self.measure_labels))},
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds > 0 else None,
        }


_worker_game: dict[str, Any] = {}


def _run_chunk(args: tuple) -> list[tuple]:
    gs, players, master, start, stop = args
    key = repr((gs.path, sorted(gs.options.items()), sorted(gs.readings.items()), gs.budget))
    if _worker_game.get("key") != key:
        _worker_game["key"], _worker_game["game"] = key, gs.load()
    game = _worker_game["game"]
    out = []
    for i in range(start, stop):
        seed = game_seed(master, i)
        st = play(game, players, seed, gs.agents)
        out.append(_summary(st.result(), measure(game, st) if st.status is Status.FINISHED else ()))
    return out


def sweep(gs: GameSpec, players: int, games: int, seed: int, workers: int = 1,
          progress: Callable[[int], None] | None = None, game: Game | None = None) -> Stats:
    """Play `games` games; results are independent of `workers`."""
    stats = Stats(players)
    spec = (game or gs.load()).spec
    stats.measure_names = list(spec.measures)
    stats.measure_labels = [m.label for m in spec.measures.values()]
    t0 = time.perf_counter()
    chunk = max(1, min(250, games // max(1, workers * 8) or 1))
    tasks = [(gs, players, seed, a, min(games, a + chunk)) for a in range(0, games, chunk)]
    if workers <= 1:
        if game is not None:
            _worker_game["key"] = repr((gs.path, sorted(gs.options.items()), sorted(gs.readings.items()), gs.budget))
            _worker_game["game"] = game
        results: Iterable[list[tuple]] = map(_run_chunk, tasks)
        for part in results:
            for s in part:
                stats.add(s)
            if progress:
                progress(len(part))
    else:
        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        with ctx.Pool(workers) as pool:
            for part in pool.imap(_run_chunk, tasks):  # ordered: same stats for any worker count
                for s in part:
                    stats.add(s)
                if progress:
                    progress(len(part))
    stats.seconds = time.perf_counter() - t0
    return stats
