"""How strong the bots are: win share against random agents, per shipped spec.

For every spec in games/ (or those given), one agent plays against random
agents in all other seats; its seat rotates from game to game so no seat's
advantage counts for it. It reports the agent's win share (ties split),
a 95% confidence interval (Wilson score) and what a random agent would
expect (1/players); and, for mcts, how the share grows with its budget.
Games are spread over processes with per-game seeds from the master seed,
so the numbers do not depend on --workers.

    python benchmarks/agents.py                         # every spec, default matchups
    python benchmarks/agents.py games/stun.yaml --games 200 --budgets 10,30,100,300 --workers 2
    python benchmarks/agents.py --json results.json
"""
from __future__ import annotations

import argparse
import glob
import json
import math
import multiprocessing as mp
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from interpreter.api import load_game  # noqa: E402
from interpreter.spec.diagnostics import SpecError  # noqa: E402
from interpreter.runtime.engine import Status  # noqa: E402
from interpreter.lab.runner import play  # noqa: E402
from interpreter.runtime.seeds import game_seed  # noqa: E402

_games: dict = {}


def _one(task: tuple) -> tuple[float, bool, float]:
    """(the agent's win share, finished, seconds) of one game."""
    path, players, agent, master, i = task
    if path not in _games:
        _games[path] = load_game(path)
    seat = i % players
    t0 = time.perf_counter()
    st = play(_games[path], players, game_seed(master, i), {seat: agent})
    share = (1.0 / len(st.winners)) if seat in st.winners else 0.0
    return share, st.status is Status.FINISHED, time.perf_counter() - t0


def wilson(share_sum: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (fractional successes from ties are fine)."""
    if n == 0:
        return 0.0, 1.0
    p = share_sum / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def match(pool, path: str, players: int, agent: str, games: int, seed: int) -> dict:
    tasks = [(path, players, agent, seed, i) for i in range(games)]
    t0 = time.perf_counter()
    results = list(pool.imap(_one, tasks)) if pool else [_one(t) for t in tasks]
    wall = time.perf_counter() - t0
    wins = sum(r[0] for r in results)
    lo, hi = wilson(wins, games)
    return {"spec": path, "players": players, "agent": agent, "games": games, "seed": seed,
            "win_share": round(wins / games, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "random_expects": round(1 / players, 4), "unfinished": sum(not r[1] for r in results),
            "seconds_per_game": round(sum(r[2] for r in results) / games, 3), "wall_seconds": round(wall, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="*", help="specs to measure (default: every games/*.yaml)")
    ap.add_argument("--players", type=int, default=None, help="players per game (default: each spec's minimum)")
    ap.add_argument("--games", type=int, default=100, help="games per matchup")
    ap.add_argument("--agents", default="greedy,mcts:100", help="agents measured against random, comma-separated "
                    "(settings with ';' instead of ',': mcts:100;depth=10)")
    ap.add_argument("--budgets", default="10,30,100,300", help="mcts iterations for the strength-vs-budget curve "
                    "('' to skip)")
    ap.add_argument("--budget-agent", default="mcts:{}", help="the agent of the curve, {} is the budget")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", dest="json_path", help="also write every result to this file")
    args = ap.parse_args(argv)
    specs = args.specs or sorted(glob.glob(os.path.join(ROOT, "games", "*.yaml")))
    agents = [a.replace(";", ",") for a in args.agents.split(",") if a]
    budgets = [int(b) for b in args.budgets.split(",") if b]
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    pool = ctx.Pool(args.workers) if args.workers > 1 else None
    out = []
    try:
        for path in specs:
            rel = os.path.relpath(path, ROOT)
            try:
                game = load_game(path)
            except SpecError:
                print(f"\n{rel}: skipped, the spec has errors (rulewright check {rel})")
                continue
            n = args.players or game.spec.min_players
            print(f"\n{game.spec.name} ({rel}), {n} players, {args.games} games per row, seed {args.seed}")
            print(f"{'agent vs random':<28} {'win share':>9}  {'95% CI':<15} {'random':>6} {'s/game':>7}")
            curve = args.budget_agent.replace(";", ",")
            rows = [(a, "matchup") for a in agents] + [(curve.format(b), "budget") for b in budgets]
            for agent, kind in rows:
                r = match(pool, path, n, agent, args.games, args.seed)
                r["kind"] = kind
                out.append(r)
                ci = f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]"
                print(f"{agent:<28} {r['win_share']:>9.3f}  {ci:<15} {r['random_expects']:>6.3f} "
                      f"{r['seconds_per_game']:>7.2f}" + (f"  ({r['unfinished']} unfinished)" if r["unfinished"] else ""),
                      flush=True)
    finally:
        if pool:
            pool.close()
            pool.join()
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
