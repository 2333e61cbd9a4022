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
    "stun_minus_and_stun": ("all_turned_up", "where_it_lies"),
    "stun_minus_own_pile": ("held_pile", "this_turns_cards"),
    "stun_plus_chip_and_stun": ("kept_without_fifteen", "always_lost"),
    "dead_end_winner": ("no_winner", "most_chips"),
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
    minus_back = r["stun_minus_and_stun"] == "all_turned_up"
    own_held = r["stun_minus_own_pile"] == "held_pile"
    keep_plus = r["stun_plus_chip_and_stun"] == "kept_without_fifteen"
    # Every card that adds to a count held (42 cards, so at most 10 left to turn up): no chip can move any
    # more and the game ends (the spec's dead_end). A STUN discards held piles under the advanced rule, and
    # fewer than six piles of at most 14 cannot hold 72 points.
    dead_possible = not advanced and 14 * n_players >= 72
    dead = False
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
        if dead_possible and len(draw) + len(discard) <= 10 and not any(POINTS[c] > 0 for c in draw) and not any(
                POINTS[c] > 0 for c in discard):
            dead = True
            break
        pile: list[int] = []
        count = held_pts[p]
        won = flips = 0
        traded = False
        given: list[tuple[int, int]] = []  # (seat, card): STUN MINUS cards put on held piles this turn
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
                if minus_back:
                    for q, c in given:
                        if c in held[q]:  # not when the advanced rule discarded p's own held pile
                            held[q].remove(c)
                            held_pts[q] += 2
                            discard.append(c)
                if won and not traded and keep_plus:
                    break
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
                i = 0
                if k:
                    decisions += 1
                    i = int(rnd() * k)
                if k and not (any_pile and i == 0):
                    q = targets[i - any_pile]
                    pile.pop()
                    held[q].append(card)
                    held_pts[q] -= 2
                    given.append((q, card))
                    count += 2
                elif own_held and held[p]:  # "his own pile": his held pile
                    pile.pop()
                    held[p].append(card)
                    held_pts[p] -= 2
                    given.append((p, card))
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
                traded = True
            if at_once and chips[p] >= win_chips:
                winner = p
                break
        if winner is None and not at_once and chips[p] >= win_chips:
            winner = p
        if winner is not None:
            break
        cur = (cur + 1) % n
    if dead and r["dead_end_winner"] == "most_chips" and chips.count(max(chips)) == 1:
        winner = chips.index(max(chips))  # a shared most-chips win is no single winner
    return {"status": "finished" if winner is not None or dead else "stalled", "winner": winner, "turns": turns,
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
