"""What a board costs: the same random games of a game written with a board and with hand-numbered keys.

Dots and Boxes is in the corpus both ways: `games/dots_and_boxes.yaml` on a board of dots (cells,
`can_step`, `step`), and the keyed-variable version it replaced (lines numbered by hand, `left(b)`
computed), taken from git (`--old-rev`, default 214d705, the last commit before the migration) or a file (`--old`). Both play the same
seeds with random players, in alternating rounds in one process; the table gives each side's best
round (games per second), the spread of its rounds, and the ratio board / keyed. Connect Four and
Tic-tac-toe (boards only) are timed too, for scale.

    python benchmarks/boards.py [--games 300] [--rounds 5] [--size 3] [--old-rev 214d705 | --old FILE]
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter.api import load_game  # noqa: E402
from interpreter.runtime.engine import Status  # noqa: E402


def play_all(game, games: int, seed: int) -> float:
    """Seconds to play `games` random games (seeds seed..seed+games-1)."""
    t = time.perf_counter()
    for s in range(seed, seed + games):
        st = game.new_game(2, s)
        rng = random.Random(s)
        while st.status is Status.RUNNING:
            st.apply(rng.randrange(len(st.popts)))
    return time.perf_counter() - t


def old_spec(args) -> str:
    if args.old:
        return args.old
    text = subprocess.run(["git", "show", f"{args.old_rev}:games/dots_and_boxes.yaml"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    if "cells: dots" in text:
        sys.exit(f"{args.old_rev}:games/dots_and_boxes.yaml is already the board version: give --old-rev or --old")
    fd, path = tempfile.mkstemp(suffix=".yaml", dir=str(ROOT / "games"))  # beside the rulebook path it names
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size", type=int, default=3, help="Dots and Boxes: boxes a side")
    ap.add_argument("--old-rev", default="214d705", help="a commit whose Dots and Boxes is the keyed version")
    ap.add_argument("--old", help="the keyed-variable Dots and Boxes spec (instead of --old-rev)")
    args = ap.parse_args()
    path = old_spec(args)
    try:
        sides = {"dots and boxes, board": load_game(str(ROOT / "games/dots_and_boxes.yaml"),
                                                    options={"size": args.size}),
                 "dots and boxes, keyed": load_game(path, options={"size": args.size})}
    finally:
        if not args.old:
            os.unlink(path)
    extra = {"connect four": load_game(str(ROOT / "games/connect_four.yaml")),
             "tic-tac-toe": load_game(str(ROOT / "games/tic_tac_toe.yaml"))}
    times: dict[str, list[float]] = {k: [] for k in [*sides, *extra]}
    for _ in range(args.rounds):  # alternate, so load on the machine falls on both sides alike
        for name, game in [*sides.items(), *extra.items()]:
            times[name].append(play_all(game, args.games, args.seed))
    print(f"{args.games} random games a round, {args.rounds} rounds, seeds from {args.seed}; "
          f"Dots and Boxes {args.size}x{args.size}")
    print(f"{'game':24} {'games/s (best)':>15} {'spread of rounds':>18}")
    for name, ts in times.items():
        best, worst = min(ts), max(ts)
        print(f"{name:24} {args.games / best:15.0f} {f'{(worst - best) / best:+.0%}':>18}")
    board, keyed = min(times["dots and boxes, board"]), min(times["dots and boxes, keyed"])
    print(f"ratio board / keyed (speed): {keyed / board:.2f}")


if __name__ == "__main__":
    main()
