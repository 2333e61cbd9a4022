"""What starting a game costs, counted in decisions: per spec, a game's start beside one decision.

Issue 16 asks that starting a game cost "no more than a handful of decisions". For each spec this
times, in one process and in alternating rounds (CPU time, best round):

- start: `Game.new_game(players, seed)` (the state, the game's seeded RNG, the setup up to the first
  decision), per game;
- a decision: whole random-play games (`runner.play`, which also seats one random agent per seat),
  less their starts, divided by their decisions;

and prints both with their ratio ("start = N decisions"). A game that makes few decisions (the
two-decision duel) shows how much of a tiny game the start is.

    python benchmarks/start.py                       # duel, STUN, Stunt Academy, Kalah, UNO
    python benchmarks/start.py games/stun.yaml:4 --games 2000 --rounds 5
"""
from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from interpreter.lab.runner import play  # noqa: E402
from interpreter.runtime.pipeline import load_game  # noqa: E402
from interpreter.runtime.seeds import game_seed  # noqa: E402

DEFAULT = ("tests/specs/duel.yaml:2", "games/stun.yaml:4", "games/stunt-academy.yaml:3", "games/mancala.yaml:2",
           "games/uno.yaml:3")


def measure(path: str, players: int, games: int, rounds: int) -> dict:
    game = load_game(path)
    clock = time.process_time
    seeds = [game_seed(1, k) for k in range(games)]
    best_start, best_game, decisions = float("inf"), float("inf"), 0
    for r in range(rounds):
        for part in ((0, 1) if r % 2 == 0 else (1, 0)):  # alternate which is timed first
            t = clock()
            if part == 0:
                for s in seeds:
                    game.new_game(players, s)
                best_start = min(best_start, (clock() - t) / games)
            else:
                decisions = 0
                for s in seeds:
                    decisions += play(game, players, s).decisions
                best_game = min(best_game, (clock() - t) / games)
    per_game = decisions / games
    decision = max(best_game - best_start, 1e-12) / max(per_game, 1)
    return {"spec": path, "players": players, "start_us": best_start * 1e6, "decision_us": decision * 1e6,
            "decisions_per_game": per_game, "start_in_decisions": best_start / decision,
            "start_share": best_start / best_game}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="*", default=list(DEFAULT), help="SPEC:PLAYERS (default: five specs)")
    ap.add_argument("--games", type=int, default=1000, help="games per round and part")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    print(f"{'spec':<28} {'start':>9} {'decision':>9} {'decisions/game':>14} {'start =':>8} {'of a game':>9}")
    for item in args.specs:
        path, _, n = item.rpartition(":")
        if not path or not n.isdigit():
            print(f"{item}: give SPEC:PLAYERS, e.g. games/stun.yaml:4", file=sys.stderr)
            return 2
        m = measure(path, int(n), args.games, args.rounds)
        print(f"{os.path.basename(path) + ' -p ' + n:<28} {m['start_us']:>7.1f}us {m['decision_us']:>7.1f}us "
              f"{m['decisions_per_game']:>14.1f} {m['start_in_decisions']:>6.1f}d {100 * m['start_share']:>8.0f}%")
    print("(CPU time, best of the rounds; start = the start's cost in decisions of random play; "
          "'of a game' = the start's share of a random game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
