"""Lean hand-written STUN: random play written for speed, the honest speed reference.

This module owns a second plain-Python STUN (rulebooks/stun-card-game.txt),
written the way a performance-minded Python programmer writes a random-play
simulator: one function, local variables, no option lists, no agent objects,
one generator for everything, `random() < 0.5` for a flip-or-stop decision.
It plays the same rules, options and readings as `games/stun.yaml` and
`benchmarks/stun_handwritten.py`, and its random players choose uniformly
among the legal options like Rulewright's random agent, so its games are
statistically the same games (tests/test_stun_lean.py compares win shares,
turns and decisions), not the same games seed by seed: it does not follow
the shared random streams of the differential baselines, which is what makes
it fast. `benchmarks/bench.py` prints the interpreter's ratio against it.

It deliberately does not check invariants, log, or validate beyond its
arguments.
"""
from __future__ import annotations

import argparse
import random
import time

# Card ids in the order of stun_handwritten.DECK: 19 x 1, 14 x 2, 7 x 3, 2 STUN PLUS (+4), 2 STUN MINUS (-2), 8 STUN.
POINTS = (1,) * 19 + (2,) * 14 + (3,) * 7 + (4,) * 2 + (-2,) * 2 + (0,) * 8
PLUS, MINUS, STUN = 1, 2, 3
KIND = (0,) * 40 + (PLUS,) * 2 + (MINUS,) * 2 + (STUN,) * 8
SUPPLY = 25
MAX_TURNS = 5000
READINGS = {
    "stun_plus_eligibility": ("not_sole_leader", "strictly_behind"),
    "lost_chips": ("to_pile", "to_victim"),
    "first_flip": ("forced", "optional"),
    "stun_minus_target": ("opponent_first", "any_pile"),
    "win_timing": ("immediately", "end_of_turn"),
}


def play(n_players: int, seed: int, *, win_chips: int = 5, advanced: bool = False,
         readings: dict[str, str] | None = None, max_turns: int = MAX_TURNS) -> dict:
    """One game with uniform random players: {"status", "winner", "turns", "decisions", "chips"}."""
    r = {k: v[0] for k, v in READINGS.items()}
    for k, v in (readings or {}).items():
        if k not in READINGS or v not in READINGS[k]:
            raise ValueError(f"unknown reading {k}={v}")
        r[k] = v
    behind = r["stun_plus_eligibility"] == "strictly_behind"
    victim = r["lost_chips"] == "to_victim"
    forced = r["first_flip"] == "forced"
    any_pile = r["stun_minus_target"] == "any_pile"
    at_once = r["win_timing"] == "immediately"
    rng = random.Random(seed)
    rnd = rng.random
    n = n_players
    draw = list(range(52))
    rng.shuffle(draw)
    discard: list[int] = []
    held: list[list[int]] = [[] for _ in range(n)]
    held_pts = [0] * n
    chips = [0] * n
    supply = SUPPLY
    cur = int(rnd() * n)
    decisions = turns = 0
    winner = None
    while turns < max_turns:
        turns += 1
        p = cur
        pile: list[int] = []
        count = held_pts[p]
        won = flips = 0
        lent = [0] * n if victim else None
        first = forced
        while True:
            if not first:  # a decision: flip or stop
                can_flip = bool(draw or discard)
                can_stop = flips > 0 or not forced
                if not can_flip and not can_stop:
                    break
                if can_stop:
                    decisions += 1
                    if not can_flip or rnd() < 0.5:
                        held[p] += pile
                        held_pts[p] = count
                        break
                else:
                    decisions += 1
            first = False
            if not draw:
                draw, discard = discard, []
                rng.shuffle(draw)
                if not draw:
                    break
            card = draw.pop()
            pile.append(card)
            flips += 1
            kind = KIND[card]
            if kind == STUN:
                if advanced:
                    discard += held[p]
                    held[p] = []
                    held_pts[p] = 0
                discard += pile
                back = won
                if victim:
                    for q in range(n):
                        chips[q] += lent[q]
                        back -= lent[q]
                supply += back
                chips[p] -= won
                break
            count += POINTS[card]
            if kind == PLUS:
                mine = chips[p]
                top = max(chips[q] for q in range(n) if q != p)
                if (top > mine) if behind else (top >= mine):
                    k = (supply > 0) + sum(1 for q in range(n) if q != p and chips[q] > 0)
                    if k:
                        decisions += 1
                        i = int(rnd() * k)
                        if supply > 0 and i == 0:
                            supply -= 1
                        else:
                            i -= supply > 0
                            for q in range(n):
                                if q != p and chips[q] > 0:
                                    if i == 0:
                                        break
                                    i -= 1
                            chips[q] -= 1
                            if victim:
                                lent[q] += 1
                        chips[p] += 1
                        won += 1
            elif kind == MINUS:
                targets = [q for q in range(n) if q != p and held[q]]
                k = len(targets) + any_pile
                if k:
                    decisions += 1
                    i = int(rnd() * k)
                    if not (any_pile and i == 0):
                        q = targets[i - any_pile]
                        pile.pop()
                        held[q].append(card)
                        held_pts[q] -= 2
                        count += 2
            if count >= 15:
                discard += held[p]
                discard += pile
                held[p] = []
                held_pts[p] = 0
                pile = []
                count = 0
                supply -= 1
                chips[p] += 1
                won += 1
            if at_once and chips[p] >= win_chips:
                winner = p
                break
        if winner is None and not at_once and chips[p] >= win_chips:
            winner = p
        if winner is not None:
            break
        cur = (cur + 1) % n
    return {"status": "finished" if winner is not None else "stalled", "winner": winner, "turns": turns,
            "decisions": decisions, "chips": chips}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Lean hand-written STUN with random players.")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1, help="game i uses seed + i")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    decisions = 0
    for i in range(args.games):
        decisions += play(args.players, args.seed + i)["decisions"]
    s = time.perf_counter() - t0
    print(f"{args.games} games, {args.players} players: {s:.3f} s, {args.games / s:,.0f} games/s, "
          f"{decisions / s:,.0f} decisions/s")


if __name__ == "__main__":
    main()
