"""The kernel against everything else, in one run: ratios of random games per second of CPU time.

For each spec: the kernel (interpreter/kernel, numba, compiled once and cached) against the Python
engine (`simulate --engine python`'s loop: `lab.runner.play` with random agents); for STUN against the
lean hand-written Python STUN (benchmarks/stun_lean.py); for the games OpenSpiel also implements,
against OpenSpiel's C++ game driven by a plain Python random loop (`pyspiel`, as a Python user would
drive it). Then the ambiguity lab on STUN on the kernel: every reading, N games each, and what the first
(compiling) run costs.

Every figure is CPU time of this process (`time.process_time`), so other load on the machine disturbs it
less than wall time; sides run one after the other in rounds, and the best round of each side is kept.

    python benchmarks/kernel.py                      # every row, 2,000 games a side
    python benchmarks/kernel.py --games 5000 --rounds 3 --lab-games 20000
    python benchmarks/kernel.py --only stun --json
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from interpreter.kernel.run import kernel_for  # noqa: E402
from interpreter.lab.runner import play  # noqa: E402
from interpreter.runtime.pipeline import load_game  # noqa: E402
from interpreter.runtime.seeds import game_seed  # noqa: E402

# name, spec, players, options, OpenSpiel game (None: no counterpart)
ROWS = [
    ("stun", "games/stun.yaml", 4, {}, None),
    ("stun-2p", "games/stun.yaml", 2, {}, None),
    ("tic-tac-toe", "games/tic_tac_toe.yaml", 2, {}, "tic_tac_toe"),
    ("connect-four", "games/connect_four.yaml", 2, {}, "connect_four"),
    ("kalah", "games/mancala.yaml", 2, {}, "mancala"),
    ("dots-and-boxes", "games/dots_and_boxes.yaml", 2, {"size": 2}, "dots_and_boxes(num_rows=2,num_cols=2)"),
    ("cant-stop", "games/cant_stop.yaml", 2, {}, None),
    ("no-thanks", "games/no_thanks.yaml", 3, {}, None),
    ("maedn", "games/maedn.yaml", 4, {}, None),
    ("breakthrough", "games/breakthrough.yaml", 2, {}, "breakthrough"),
    ("checkers", "games/checkers.yaml", 2, {}, "checkers"),
    ("backgammon", "games/backgammon.yaml", 2, {}, "backgammon"),
    ("euchre", "games/euchre.yaml", 4, {}, "euchre"),
    ("liars-dice", "games/liars_dice.yaml", 2, {}, "liars_dice(numdice=5)"),
]


def _cpu(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def kernel_side(game, players: int, games: int):
    k = kernel_for(game.spec)
    seeds = [game_seed(1, i) for i in range(games)]
    return lambda: k.batch(game, players, seeds)


def python_side(game, players: int, games: int):
    return lambda: [play(game, players, game_seed(1, i)) for i in range(games)]


def openspiel_side(name: str, games: int):
    import pyspiel
    g = pyspiel.load_game(name)

    def run():
        rng = random.Random(1)
        choice = rng.choice
        for _ in range(games):
            s = g.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    actions, probs = zip(*s.chance_outcomes())
                    s.apply_action(rng.choices(actions, probs)[0])
                else:
                    s.apply_action(choice(s.legal_actions()))
    return run


def lean_side(players: int, games: int):
    from benchmarks.stun_lean import play as lean
    return lambda: [lean(players, i) for i in range(games)]


def best(fn, rounds: int) -> float:
    return min(_cpu(fn) for _ in range(rounds))


def lab(games: int) -> dict:
    """The ambiguity lab on STUN (4 players), every reading, on the kernel: wall and CPU seconds."""
    from interpreter.lab.ambiguities import ambiguity_lab
    w, c = time.perf_counter(), time.process_time()
    rep = ambiguity_lab("games/stun.yaml", 4, games, 1, engine="kernel")
    arms = 1 + sum(len(a.readings) for a in rep.ambiguities)
    return {"games_per_reading": games, "arms": arms, "games": arms * games,
            "wall_s": round(time.perf_counter() - w, 2), "cpu_s": round(time.process_time() - c, 2),
            "verdicts": {a.name: a.verdict for a in rep.ambiguities}}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per side and round (the Python engine: a tenth)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--only", default=None, help="comma-separated row names")
    ap.add_argument("--lab-games", type=int, default=20000, help="games per reading for the lab row (0: skip)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    only = set(a.only.split(",")) if a.only else None
    out = []
    for name, path, players, options, os_name in ROWS:
        if only and name not in only:
            continue
        game = load_game(path, options)
        t = time.perf_counter()
        kernel_for(game.spec).batch(game, players, [1])  # compile or load from the cache
        ready = time.perf_counter() - t
        g_py = max(50, a.games // 10)
        k_s = best(kernel_side(game, players, a.games), a.rounds) / a.games
        p_s = best(python_side(game, players, g_py), a.rounds) / g_py
        row = {"row": name, "players": players, "kernel_games_per_s": round(1 / k_s), "python_games_per_s":
               round(1 / p_s), "kernel_vs_python": round(p_s / k_s, 1), "kernel_ready_s": round(ready, 2)}
        if name == "stun":
            l_s = best(lean_side(players, g_py), a.rounds) / g_py
            row["lean_games_per_s"] = round(1 / l_s)
            row["kernel_vs_lean"] = round(l_s / k_s, 1)
        if os_name:
            try:
                o_s = best(openspiel_side(os_name, a.games // 2), a.rounds) / (a.games // 2)
                row["openspiel_games_per_s"] = round(1 / o_s)
                row["kernel_vs_openspiel"] = round(o_s / k_s, 2)
            except ImportError:
                row["openspiel_games_per_s"] = None
        out.append(row)
        if not a.json:
            print("  ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    result = {"rows": out}
    if a.lab_games:
        result["lab"] = lab(a.lab_games)
        if not a.json:
            print("lab:", result["lab"], flush=True)
    if a.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
