"""Stalled games by policy: does every legal game of a spec end, for players that play badly on purpose?

For one spec and player count, plays G games per policy (every seat that agent; the lab's `last`
policy always takes the last legal option, which in STUN is "stop right after the forced first
card") on the same seeds, and prints per policy the stalled games and the games that finished
without a winner, each with its 95% Wilson interval. The target of issue 30: no six-player STUN game
stalls under random play or under `last` (the second rulebook audit found 5 in 100 and 18 in 100
before the spec's assumption dead_end ended them).

    python benchmarks/stalls.py games/stun.yaml -p 6 --games 2000 --policy random --policy last
    python benchmarks/stalls.py games/stun.yaml -p 6 --games 500 --option advanced=true --json

Exit status 1 when some game stalled (so a script can use it as a check).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from interpreter.lab.estimates import share_estimate  # noqa: E402
from interpreter.lab.runner import GameSpec, summaries  # noqa: E402
import interpreter.lab  # noqa: E402,F401  (registers the lab policy `last`)


def measure(spec: str, players: int, games: int, seed: int, policy: str, options: dict | None = None,
            readings: dict | None = None, workers: int = 1) -> dict:
    """Stalled games and games without a winner under `policy` at every seat."""
    agents = {} if policy == "random" else {s: policy for s in range(players)}
    t0 = time.perf_counter()
    rows, _ = summaries(GameSpec(spec, options or {}, readings or {}, agents=agents), players, seed, 0, games,
                        workers)
    seconds = time.perf_counter() - t0
    stalled = [r for r in rows if r[0] == "stalled"]
    no_winner = sum(1 for r in rows if r[0] == "finished" and not r[1])
    return {"policy": policy, "games": len(rows), "stalled": len(stalled),
            "stalled_ci95": share_estimate(len(stalled), len(rows))["ci95"],
            "stalled_seeds": [r[6] for r in stalled[:5]],
            "no_winner": no_winner, "no_winner_ci95": share_estimate(no_winner, len(rows))["ci95"],
            "errors": sum(1 for r in rows if r[0] == "error"), "seconds": seconds}


def _pairs(items: list[str]) -> dict:
    out = {}
    for item in items:
        k, _, v = item.partition("=")
        out[k] = {"true": True, "false": False}.get(v, int(v) if v.lstrip("-").isdigit() else v)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec")
    ap.add_argument("-p", "--players", type=int, required=True)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--policy", action="append", default=[], help="an agent at every seat (default: random, last)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--reading", action="append", default=[], metavar="AMBIGUITY=INTERPRETATION")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    found = [measure(args.spec, args.players, args.games, args.seed, p, _pairs(args.option),
                     _pairs(args.reading), args.workers) for p in args.policy or ["random", "last"]]
    if args.json:
        print(json.dumps({"spec": args.spec, "players": args.players, "seed": args.seed, "results": found}))
    else:
        print(f"{args.spec}, {args.players} players, {args.games} games per policy, master seed {args.seed}")
        print("| policy | stalled | 95% interval | no winner | 95% interval | errors | seconds |")
        print("|---|---:|---|---:|---|---:|---:|")
        for r in found:
            s, w = r["stalled_ci95"], r["no_winner_ci95"]
            print(f"| {r['policy']} | {r['stalled']} | {s[0]:.2%} to {s[1]:.2%} | {r['no_winner']} "
                  f"| {w[0]:.2%} to {w[1]:.2%} | {r['errors']} | {r['seconds']:.1f} |")
            if r["stalled_seeds"]:
                print(f"  stalled, e.g.: rulewright run {args.spec} -p {args.players} --seed {r['stalled_seeds'][0]}")
    return 1 if any(r["stalled"] for r in found) else 0


if __name__ == "__main__":
    sys.exit(main())
