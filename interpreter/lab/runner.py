"""Running games: one with its log, or many with statistics.

Owns: seating agents, playing a game to its end, and sweeps of many games
(in this process or over a process pool) with per-game seeds derived from
the master seed, so every number but the timings is the same for any number
of workers. Statistics stream: a sweep keeps counts and one small record per
game, never logs.
"""
from __future__ import annotations

import atexit
import math
import multiprocessing as mp
import os
import time
from collections import Counter, OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..agents.registry import ScriptedAgent, make_agent
from ..runtime.engine import DEFAULT_BUDGET, Game, State, Status
from .estimates import mean_estimate, share_estimate
from .measures import measure
from ..runtime.seeds import game_seed


@dataclass(slots=True)
class GameSpec:
    """Everything a worker needs to rebuild the same game (picklable)."""
    path: str
    options: dict[str, Any] = field(default_factory=dict)
    readings: dict[str, str] = field(default_factory=dict)
    budget: int = DEFAULT_BUDGET
    agents: dict[int, str] = field(default_factory=dict)  # seat (0-based) -> agent name
    coverage: bool = False  # count which rules, branches and readings run (slower)
    engine: str = "python"  # "kernel": the games run natively (interpreter/kernel; every agent of the registry)

    def load(self) -> Game:
        from ..runtime.pipeline import load_game
        return load_game(self.path, self.options, self.readings, self.budget, coverage=self.coverage)

    def key(self) -> str:
        return repr((self.path, sorted(self.options.items()), sorted(self.readings.items()), self.budget,
                     self.coverage, self.engine))


def make_agents(names: dict[int, str], players: int, seed: int) -> list:
    return [make_agent(names.get(seat, "random"), seed, seat) for seat in range(players)]


def play(game: Game, players: int, seed: int, agents: dict[int, str] | None = None, *, log: bool = False,
         check: bool = False, script: list[int] | None = None) -> State:
    """Play one game to its end; returns the final `State`.

    Args:
        game: a compiled game.
        players: how many play.
        seed: the game's seed (each agent is seeded from it and its seat).
        agents: agent names by seat, numbered from 0 (`{0: "mcts:100"}`); a seat not listed plays `random`.
        log: keep the event log.
        check: check the invariants after every step.
        script: recorded choices to replay instead of agents (shared by every seat, in order)."""
    seated = [ScriptedAgent(script)] * players if script is not None else make_agents(agents or {}, players, seed)
    # Rulewright's own agents decide inside the run. Not when invariants are checked at every decision,
    # nor for a script (recorded choices are input: apply() checks each of them).
    inside = seated if not check and script is None else None
    st = game.new_game(players, seed, log=log, check_invariants=check, auto=inside)
    while st.status is Status.RUNNING:
        st.apply(seated[st.pplayer].pick(st))
    return st


def _summary(st, measures: tuple = ()) -> tuple:
    """One finished game in a sweep (what its `Result` would say, without copying its choices); `measures`
    (last, so readers by position are unaffected) are the spec's measures."""
    i = st.g.score_idx
    sides = st.side_scores()  # a game of sides scores by side: the winning margin is between sides
    scores = None if i is None else tuple(sides) if sides is not None else tuple(st.pvars[i])
    return (str(st.status), tuple(st.winners), st.turn, st.decisions, scores, st.reason, st.seed, measures)


@dataclass(slots=True)
class Stats:
    """What a sweep of games measured, with the sums of squares that give every mean its uncertainty.

    A shared win (k winners) credits each winner 1/k of a win, so the seats' win shares add up to the share of
    finished games somebody won; `draws` counts the finished games with a shared win and `no_winner` those
    nobody won. In a game of sides (`game.teams`, `for_game` sets `sides`) a win is a side's: `side_wins`
    credits each of k winning sides 1/k, and `draws` counts the games two or more sides won together (the
    seats of one side winning together is no draw).
    """
    players: int
    games: int = 0
    finished: int = 0
    stalled: int = 0
    errors: int = 0
    turns: Counter = field(default_factory=Counter)  # a histogram: memory stays flat however many games
    decisions: int = 0
    wins: list[float] = field(default_factory=list)  # per seat, ties split
    margin_sum: float = 0.0
    margin_n: int = 0
    stalled_seeds: list[int] = field(default_factory=list)
    error_samples: list[tuple[int, str]] = field(default_factory=list)
    stall_reasons: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    measure_names: list[str] = field(default_factory=list)  # the spec's measures, in order
    measure_labels: list[str] = field(default_factory=list)
    measure_sums: list[float] = field(default_factory=list)  # over finished games
    measure_min: list[float] = field(default_factory=list)
    measure_max: list[float] = field(default_factory=list)
    decisions_sq: int = 0
    wins_sq: list[float] = field(default_factory=list)  # per seat, of the per-game win credit
    margin_sq: float = 0.0
    measure_sqs: list[float] = field(default_factory=list)
    draws: int = 0  # finished games won by two or more seats together (sides, in a game of sides)
    no_winner: int = 0  # finished games nobody won
    sides: list[list[int]] = field(default_factory=list)  # a game of sides: each side's seats (0-based)
    side_names: list[str] = field(default_factory=list)
    side_wins: list[float] = field(default_factory=list)
    side_wins_sq: list[float] = field(default_factory=list)

    @classmethod
    def for_game(cls, game: Game, players: int) -> "Stats":
        """Empty statistics for games of `game` with `players` players (its sides and measures known)."""
        stats = cls(players)
        spec = game.spec
        stats.measure_names = list(spec.measures)
        stats.measure_labels = [m.label for m in spec.measures.values()]
        if spec.teams is not None:
            stats.sides = game.sides(players)
            stats.side_names = [spec.teams.name(k) for k in range(len(stats.sides))]
            stats.side_wins = [0.0] * len(stats.sides)
            stats.side_wins_sq = [0.0] * len(stats.sides)
        return stats

    def add(self, s: tuple) -> None:
        status, winners, turns, decisions, scores, reason, seed = s[:7]
        measures = s[7] if len(s) > 7 else ()
        if not self.wins:
            self.wins = [0.0] * self.players
        if not self.wins_sq:
            self.wins_sq = [0.0] * self.players
        self.games += 1
        self.decisions += decisions
        self.decisions_sq += decisions * decisions
        if status == Status.FINISHED:
            self.finished += 1
            self.turns[turns] += 1
            for w in winners:
                self.wins[w] += 1 / len(winners)
                self.wins_sq[w] += 1 / len(winners) ** 2
            won = [k for k, side in enumerate(self.sides) if any(w in side for w in winners)]
            for k in won:
                self.side_wins[k] += 1 / len(won)
                self.side_wins_sq[k] += 1 / len(won) ** 2
            if (len(won) if self.sides else len(winners)) > 1:
                self.draws += 1
            elif not winners:
                self.no_winner += 1
            if scores and len(scores) > 1:
                top = sorted(scores, reverse=True)
                self.margin_sum += top[0] - top[1]
                self.margin_sq += (top[0] - top[1]) ** 2
                self.margin_n += 1
            if measures:
                if not self.measure_sums:
                    self.measure_sums = [0.0] * len(measures)
                    self.measure_sqs = [0.0] * len(measures)
                    self.measure_min = list(measures)
                    self.measure_max = list(measures)
                for i, v in enumerate(measures):
                    self.measure_sums[i] += v
                    self.measure_sqs[i] += v * v
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
        values = sorted(self.turns)
        n = sum(self.turns.values())

        def pct(q: float) -> int:
            if not n:
                return 0
            rank = min(n, max(1, math.ceil(q * n)))  # nearest-rank percentile over the histogram
            seen = 0
            for v in values:
                seen += self.turns[v]
                if seen >= rank:
                    return v
            return values[-1]
        finished = max(self.finished, 1)
        total = sum(v * c for v, c in self.turns.items())
        squares = sum(v * v * c for v, c in self.turns.items())
        turns_est = mean_estimate(total, squares, n)
        wins = self.wins or [0.0] * self.players
        wins_est = [share_estimate(w, self.finished) for w in wins]
        margin_est = mean_estimate(self.margin_sum, self.margin_sq, self.margin_n)
        decisions_est = mean_estimate(self.decisions, self.decisions_sq, self.games)

        def measure_entry(i: int, label: str) -> dict:
            if not self.measure_sums:
                return {"label": label, "mean": None, "min": None, "max": None, "se": None, "ci95": None}
            e = mean_estimate(self.measure_sums[i], self.measure_sqs[i], self.finished)
            return {"label": label, "mean": e["mean"], "min": self.measure_min[i], "max": self.measure_max[i],
                    "se": e["se"], "ci95": e["ci95"]}
        return {
            "games": self.games, "finished": self.finished, "stalled": self.stalled, "errors": self.errors,
            "turns": {"mean": total / n if n else 0, "p50": pct(0.5), "p95": pct(0.95),
                      "max": values[-1] if values else 0,
                      "sd": turns_est["sd"], "se": turns_est["se"], "ci95": turns_est["ci95"]},
            "wins": [w / finished for w in wins],
            "wins_se": [e["se"] for e in wins_est],
            "wins_ci95": [e["ci95"] for e in wins_est],
            "draws": self.draws, "no_winner": self.no_winner,
            "wins_credit": "a shared win credits each of its k winners 1/k; shares are of finished games",
            **({"sides": [{"name": name, "seats": [p + 1 for p in side], "wins": w / finished,
                           "wins_se": e["se"], "wins_ci95": e["ci95"]}
                          for name, side, w, e in zip(self.side_names, self.sides, self.side_wins,
                                                      [share_estimate(w, self.finished) for w in self.side_wins])],
                "draws_are": "finished games two or more sides won together"} if self.sides else {}),
            "stalled_rate": share_estimate(self.stalled, self.games),
            "errors_rate": share_estimate(self.errors, self.games),
            "decisions_per_game": self.decisions / max(self.games, 1),
            "decisions": decisions_est,
            "margin": {"mean": margin_est["mean"], "se": margin_est["se"], "ci95": margin_est["ci95"]},
            "stalled_seeds": self.stalled_seeds, "stall_reasons": self.stall_reasons,
            "error_samples": [{"seed": s, "reason": r} for s, r in self.error_samples],
            "measures": {name: measure_entry(i, lab)
                         for i, (name, lab) in enumerate(zip(self.measure_names, self.measure_labels))},
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds > 0 else None,
        }


_worker_games: "OrderedDict[str, Game]" = OrderedDict()  # the games this process loaded, by GameSpec.key()
_KEEP_GAMES = 32  # the lab's arms: every reading of every ambiguity, under each policy


def _remember(key: str, game: Game) -> Game:
    _worker_games[key] = game
    _worker_games.move_to_end(key)
    while len(_worker_games) > _KEEP_GAMES:
        _worker_games.popitem(last=False)
    return game


def _run_chunk(args: tuple) -> tuple[list[tuple], list[int] | None]:
    """Games start..stop-1 of a sweep: their summaries, and coverage counts if measured."""
    gs, players, master, start, stop = args
    key = gs.key()
    game = _worker_games.get(key)
    game = _remember(key, game if game is not None else gs.load())
    if gs.engine == "kernel":
        from ..kernel.agents import search_kernel_for, searching
        if searching(gs.agents):  # search agents: the search kernel (kernel/agents.py)
            return search_kernel_for(game.spec).summaries(game, players, master, start, stop, gs.agents,
                                                          coverage=gs.coverage)
        from ..kernel.run import kernel_for
        return kernel_for(game.spec).summaries(game, players, master, start, stop, coverage=gs.coverage)
    before = game.hits[:]
    out = []
    measured = bool(game.spec.measures)
    for i in range(start, stop):
        st = play(game, players, game_seed(master, i), gs.agents)
        out.append(_summary(st, measure(game, st) if measured and st.status is Status.FINISHED else ()))
    hits = [a - b for a, b in zip(game.hits, before)] if gs.coverage else None
    return out, hits


def _chunk_cap(gs: GameSpec) -> int:
    """Games per task at most: a kernel batch is cheap per game and costs a call, a Python game the reverse."""
    return 5000 if gs.engine == "kernel" else 250


def summaries(gs: GameSpec, players: int, master: int, start: int, stop: int, workers: int = 1,
              game: Game | None = None) -> tuple[list[tuple], list[int] | None]:
    """Per-game summaries of games start..stop-1 (in order, independent of `workers`), and coverage."""
    chunk = max(1, min(_chunk_cap(gs), (stop - start) // max(1, workers * 4) or 1))
    if gs.engine == "kernel" and workers > 1:  # built (or loaded) here once, not by every worker at once
        from ..kernel.run import kernel_for
        kernel_for((game or gs.load()).spec).module
    tasks = [(gs, players, master, a, min(stop, a + chunk)) for a in range(start, stop, chunk)]
    if game is not None and workers <= 1:
        _remember(gs.key(), game)
    results: list[tuple] = []
    hits: list[int] | None = None
    for part, h in _map(tasks, workers):
        results.extend(part)
        if h is not None:
            hits = h if hits is None else [a + b for a, b in zip(hits, h)]
    return results, hits


class Backend:
    """Where the games of a sweep run: this process, a process pool, or a Ray cluster."""

    def __init__(self, kind: str = "local", address: str | None = None):
        if kind not in ("local", "ray"):
            raise ValueError(f"unknown backend '{kind}' (local or ray)")
        self.kind, self.address = kind, address


_backend = Backend()


def use_backend(kind: str = "local", address: str | None = None) -> None:
    """Run later sweeps on `kind` ("local": processes of this machine; "ray": a Ray cluster)."""
    global _backend
    _backend = Backend(kind, address)


def require_ray():
    """The ray module, or a RuntimeError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("--backend ray needs Ray: pip install 'rulewright[ray]'") from None
    return ray


def _map_ray(tasks: list, address: str | None, in_flight: int) -> Iterable:
    """Chunks on Ray, at most `in_flight` of them submitted and unfinished at any time (`--workers`)."""
    ray = require_ray()
    if not ray.is_initialized():
        # An address joins a running cluster ("auto", "ray://host:10001"); none starts a local Ray.
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                 include_dashboard=False, configure_logging=False)
    remote = ray.remote(_run_chunk)
    pending: deque = deque()
    todo = iter(tasks)
    for t in todo:
        pending.append(remote.remote(t))
        if len(pending) >= in_flight:
            break
    while pending:
        done = ray.get(pending.popleft())  # in order: the same results as a local run
        for t in todo:  # one finished, one more in flight
            pending.append(remote.remote(t))
            break
        yield done


def _map(tasks: list, workers: int) -> Iterable:
    if _backend.kind == "ray":
        yield from _map_ray(tasks, _backend.address, max(1, workers))
        return
    if workers <= 1:
        yield from map(_run_chunk, tasks)
        return
    yield from _pool(workers).imap(_run_chunk, tasks)  # ordered: the same results for any worker count


_pools: dict[tuple, Any] = {}


def _pool(workers: int):
    """This process's pool of `workers` processes, started once and kept: a lab run with
    `--until-decided` asks for hundreds of batches, and each new pool paid for its processes and for
    loading every arm's game again in each (a STUN greedy lab: 17 minutes, most of it starting pools).
    Its workers keep the games they loaded (`_worker_games`). A pool is replaced when the environment
    changes (a kernel cache or engine set since it started)."""
    env = hash(tuple(sorted(os.environ.items())))
    pool = _pools.get((workers, env))
    if pool is None:
        for key in [k for k in _pools if k[0] == workers]:
            _pools.pop(key).terminate()
        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        pool = _pools[(workers, env)] = ctx.Pool(workers)
    return pool


@atexit.register
def _close_pools() -> None:
    for pool in _pools.values():
        pool.terminate()
    _pools.clear()


def sweep(gs: GameSpec, players: int, games: int, seed: int, workers: int = 1,
          progress: Callable[[int], None] | None = None, game: Game | None = None) -> Stats:
    """Play `games` games; results are independent of `workers`."""
    game = game or gs.load()
    stats = Stats.for_game(game, players)
    if gs.engine == "kernel":  # built (or loaded from the disk cache) once here, before any worker starts
        from ..kernel.agents import search_kernel_for, searching
        from ..kernel.run import kernel_for
        kernel_for(game.spec).module
        if searching(gs.agents):
            search_kernel_for(game.spec).module
    t0 = time.perf_counter()  # after the build: `seconds` and games/s measure play, not a first run's compiling
    chunk = max(1, min(_chunk_cap(gs), games // max(1, workers * 8) or 1))
    tasks = [(gs, players, seed, a, min(games, a + chunk)) for a in range(0, games, chunk)]
    if game is not None and workers <= 1:
        _remember(gs.key(), game)
    for part, _hits in _map(tasks, workers):
        for s in part:
            stats.add(s)
        if progress:
            progress(len(part))
    stats.seconds = time.perf_counter() - t0
    return stats


def summaries_many(jobs: list[tuple[GameSpec, int, int]], players: int, master: int, workers: int = 1,
                   games: dict[str, Game] | None = None) -> list[list[tuple]]:
    """Per-game summaries of several configurations at once (the candidates of a search): for each job
    (gs, start, stop), games start..stop-1 from the same master seed, in order, independent of `workers`.

    All the jobs go to one pool or Ray run together, so candidates play side by side; in this process
    `games` (GameSpec.key() -> its compiled Game) spares compiling a configuration again.
    """
    if workers <= 1 and _backend.kind == "local":
        return [summaries(gs, players, master, a, b, 1, game=(games or {}).get(gs.key()))[0] for gs, a, b in jobs]
    total = sum(b - a for _gs, a, b in jobs)
    chunk = max(1, min(250, -(-total // max(1, workers * 4))))
    tasks, owner = [], []
    for j, (gs, a, b) in enumerate(jobs):
        for s in range(a, b, chunk):
            tasks.append((gs, players, master, s, min(b, s + chunk)))
            owner.append(j)
    out: list[list[tuple]] = [[] for _ in jobs]
    for j, (part, _hits) in zip(owner, _map(tasks, workers)):
        out[j].extend(part)
    return out
