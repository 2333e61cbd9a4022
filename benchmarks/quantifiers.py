"""What `any`/`all` and `[x in list while cond]` cost: the same random games of a corpus game before and
after it was rewritten with them.

Connect Four's four-in-a-row was two helper functions of `count([...]) > 0` over lines of four
(`count([start in line(c, back, 4) where four_from(start, way, seat)]) > 0`); it is now the length of
two runs taken `while` the discs are the player's. Tic-tac-toe's three-in-a-row was
`count([c in cells(grid) where count([...]) > 0]) > 0`; it is now `any c in cells(grid) where any ...`.
The old specs are taken from git (`--old-rev`, default 1be111e, the last commit before the rewrite).
Both versions play the same seeds with random players, in alternating rounds in one process; the table
gives each side's best round (games per second), the spread of its rounds, and the ratio new / old.

    python benchmarks/quantifiers.py [--games 300] [--rounds 5] [--old-rev 1be111e]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.boards import play_all  # noqa: E402
from interpreter.api import load_game  # noqa: E402

GAMES = ("connect_four", "tic_tac_toe")


def old_spec(rev: str, name: str) -> str:
    text = subprocess.run(["git", "show", f"{rev}:games/{name}.yaml"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    fd, path = tempfile.mkstemp(suffix=".yaml", dir=str(ROOT / "games"))  # beside the rulebook path it names
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--old-rev", default="1be111e")
    args = ap.parse_args()
    print(f"| game | old (games/s, best of {args.rounds}) | new | new / old |")
    print("|---|---|---|---|")
    for name in GAMES:
        path = old_spec(args.old_rev, name)
        try:
            old, new = load_game(path), load_game(str(ROOT / "games" / f"{name}.yaml"))
            times: dict[str, list[float]] = {"old": [], "new": []}
            for _ in range(args.rounds):
                for side, game in (("old", old), ("new", new)):
                    times[side].append(args.games / play_all(game, args.games, args.seed))
        finally:
            os.unlink(path)
        best = {k: max(v) for k, v in times.items()}
        spread = {k: f"{min(v):.0f}-{max(v):.0f}" for k, v in times.items()}
        print(f"| {name} | {best['old']:.0f} ({spread['old']}) | {best['new']:.0f} ({spread['new']}) | "
              f"{best['new'] / best['old']:.2f} |")


if __name__ == "__main__":
    main()
