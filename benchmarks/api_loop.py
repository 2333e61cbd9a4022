"""The Python API's documented loop against `play_random`, on every shipped spec, side by side in one run.

Owns measuring what a notebook user pays for driving a game from Python (docs/guides/api.md) rather
than letting the engine play it (`play_random`, whose random agents decide inside the engine's run):

- `play_random`: `api.play_random(game, players, seed)`, the reference (time per game = 1.00);
- `agents loop`: the guide's loop, `state.apply(bots[state.to_move].pick(state))`, with the same
  random agents `play_random` seats (so it plays the very same games), no label formatted;
- `randrange loop`: the guide's loop picking by index itself,
  `state.apply(rng.randrange(state.option_count))` with a `random.Random`;
- `decision() loop`: `d = state.decision()` then `state.apply(rng.randrange(len(d.labels)))`, the
  loop this guide taught before: every option's label formatted at every decision.

Each column is the CPU time (`time.process_time`) of the same games (seeds 0..G-1, the spec's
fewest players unless `--players`), best of `--rounds` alternating rounds, as a ratio to
`play_random`. The goal (issue 25): both loops of the guide within 1.5x of `play_random` on every
spec; the last column says whether they are, and the exit status is 1 when a spec misses it. Games per spec
adapt to `--seconds` (a first round measures the pace).

    python benchmarks/api_loop.py                       # every spec in games/
    python benchmarks/api_loop.py games/uno.yaml:3 --rounds 5 --seconds 1
    python benchmarks/api_loop.py --json
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)

from interpreter.api import Status, load_game, make_agent, play_random  # noqa: E402

GOAL = 1.5


def _play_random(game, players, seeds):
    for seed in seeds:
        play_random(game, players, seed)


def _fast_loop(game, players, seeds):
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        while state.status is Status.RUNNING:
            state.apply(rng.randrange(state.option_count))
        state.result()


def _agents_loop(game, players, seeds):
    for seed in seeds:
        state = game.new_game(players, seed)
        bots = [make_agent("random", seed, seat) for seat in range(players)]
        while state.status is Status.RUNNING:
            state.apply(bots[state.to_move].pick(state))
        state.result()


def _decision_loop(game, players, seeds):
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        while state.status is Status.RUNNING:
            d = state.decision()
            state.apply(rng.randrange(len(d.labels)))
        state.result()


SIDES = {"play_random": _play_random, "agents loop": _agents_loop, "randrange loop": _fast_loop,
         "decision() loop": _decision_loop}
GUIDE = ("agents loop", "randrange loop")  # the loops docs/guides/api.md teaches


def _timed(fn, game, players, seeds) -> float:
    t = time.process_time()
    fn(game, players, seeds)
    return time.process_time() - t


def measure(path: str, players: int | None, rounds: int, seconds: float) -> dict:
    game = load_game(path)
    n = players or game.spec.min_players
    pace = _timed(_play_random, game, n, range(5)) / 5 or 1e-4
    games = max(5, min(2000, int(seconds / 3 / pace)))  # a round of play_random takes about seconds/3
    seeds = range(games)
    best = {side: float("inf") for side in SIDES}
    for _ in range(rounds):
        for side, fn in SIDES.items():
            best[side] = min(best[side], _timed(fn, game, n, seeds))
    ref = best["play_random"]
    return {"spec": os.path.relpath(path, HERE), "players": n, "games": games,
            "play_random_ms": 1000 * ref / games,
            **{side: best[side] / ref for side in SIDES if side != "play_random"}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("specs", nargs="*", help="SPEC or SPEC:PLAYERS (default: every spec in games/)")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=0.6, help="about how long one round of play_random takes")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    targets = a.specs or sorted(glob.glob(os.path.join(HERE, "games", "*.yaml")))
    rows = []
    for t in targets:
        path, _, p = t.partition(":")
        rows.append(measure(path, int(p) if p else a.players, a.rounds, a.seconds))
        if not a.json:
            r = rows[-1]
            if len(rows) == 1:
                print(f"{'spec':40s} {'p':>2s} {'games':>6s} {'play_random':>12s} {'agents loop':>12s} "
                      f"{'randrange loop':>15s} {'decision() loop':>16s}  within {GOAL}x")
            print(f"{r['spec']:40s} {r['players']:2d} {r['games']:6d} {r['play_random_ms']:9.2f} ms "
                  f"{r['agents loop']:11.2f}x {r['randrange loop']:14.2f}x {r['decision() loop']:15.2f}x  "
                  f"{'yes' if _within(r) else 'NO'}", flush=True)
    if a.json:
        print(json.dumps(rows, indent=1))
    return 0 if all(_within(r) for r in rows) else 1


def _within(row: dict) -> bool:
    return all(row[side] <= GOAL for side in GUIDE)


if __name__ == "__main__":
    sys.exit(main())
