"""Hand-written Stunt Academy with random agents: the speed baseline and differential oracle.

This module owns one plain-Python implementation of Stunt Academy
(rulebooks/stunt-academy.txt) with the same rules, assumptions and readings as
`games/stunt-academy.yaml`, every decision taken by a seeded random agent. It
exists for two reasons:

* `benchmarks/bench.py` times it against the interpreter running the spec; it
  is written the way a competent Python programmer would write the game by
  hand, without tricks, so the speed ratio means something.
* both sides play the same seeds and must play the same games, so every
  random draw and every decision happens in exactly the spec's order (see
  "Random streams" and "Decisions" below). Changing that order breaks the
  agreement, not just this file.

It deliberately does not log, narrate, expose a decision()/apply() protocol or
support non-random agents: those belong to the interpreter.

Random streams (the shared convention):
* game: `random.Random(seed)`. Setup shuffles the Course + Film Agent deck
  (card ids in spec order), then the Examiner deck, then picks the first
  player with `randrange(n)`. Between semesters the new draw pile and the
  Examiner deck are shuffled, in that order.
* agent of seat k: `Stream(seed * 1000 + k + 1)`; each decision calls
  `randrange(len(options))` once, even when there is a single option.

Decisions, each with its options in the spec's order:
* the action: take a course (each affordable course in the row, position 1
  first) if the hand has fewer than 7 cards; take a Film Agent (each in the
  row); meld (each discipline that can be melded, fight/auto/moto/pyro/fall);
  choose an Examiner (each on offer); reveal an Examiner (reading per_reveal);
  end the turn.
* meld: every subset of the hand's cards of the discipline and Training
  Units (hand order) that makes a valid collection, smallest first, in
  `itertools.combinations` order, each collection once: two subsets with
  the same card types are the same meld (the first one found is kept).
* two Film Agents: the discipline of one of them (display order).
* between semesters, each player with cards in hand (seat order): keep
  nothing, or one card of each kind in the hand (first of each, hand order).

Piles are lists of card ids whose top is the end of the list; the row's
position 1 (next to the discard pile) is index 0.
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import combinations

from interpreter.runtime.rng import Stream  # the random agents' streams, defined there

DISCIPLINES = ("fight", "auto", "moto", "pyro", "fall")
NEUTRALS = ("fitness", "strength")
# Examiners: the disciplines at +4, +2 and +0 (the spec's assumed table).
EXAMINERS = (
    ("fight", "auto", "moto"), ("pyro", "auto", "fight"), ("auto", "fight", "fall"), ("moto", "fight", "pyro"),
    ("moto", "fall", "fight"), ("fight", "fall", "pyro"), ("auto", "pyro", "moto"), ("fall", "moto", "auto"),
    ("fall", "pyro", "auto"), ("pyro", "moto", "fall"),
)

# Card ids in spec order: courses (two of each value per suit), Film Agents, Examiners.
KIND: list[str] = []
SUIT: list[str] = []
VALUE: list[int] = []
TYPE: list[str] = []
for _suit in DISCIPLINES + NEUTRALS:
    for _v in (1, 2, 3):
        for _ in range(2):
            KIND.append("course"), SUIT.append(_suit), VALUE.append(_v), TYPE.append(f"{_suit}{_v}")
for _suit in DISCIPLINES:
    KIND.append("agent"), SUIT.append(_suit), VALUE.append(0), TYPE.append(f"agent_{_suit}")
N_DECK = len(KIND)  # 47 Course and Film Agent cards
EXAMINER_IDS = list(range(N_DECK, N_DECK + len(EXAMINERS)))
JOKER = tuple(s in NEUTRALS for s in SUIT)
BONUS = {e: {d: (4 if t[0] == d else 2 if t[1] == d else 0 if t[2] == d else -2) for d in DISCIPLINES}
         for e, t in zip(EXAMINER_IDS, EXAMINERS)}
HAND_LIMIT = 7
AP_MAX = 9
ROW = 4

READINGS: dict[str, tuple[str, ...]] = {
    "meld_cost": ("per_meld", "per_card"),
    "examiner_cost": ("face_up_count", "per_reveal", "free"),
    "film_agent_cost": ("one_ap", "free", "two_ap"),
    "empty_edge": ("nothing_discarded", "nearest_discarded"),
    "refill_order": ("far_end_first", "near_end_first"),
    "second_deck_order": ("as_it_lies", "turned_over"),
    "semester_end": ("after_this_turn", "one_more_turn"),
    "negative_floor": ("per_collection", "per_semester"),
    "unexamined_players": ("ranked", "not_ranked"),
    "zero_best_collection": ("bonus", "no_bonus"),
    "negative_best_collection": ("bonus", "no_bonus"),
    "final_bonus": ("tied_one_each", "tied_three_each", "four_players_plus_one"),
    "melds_after_exam": ("back_into_deck", "out_of_game"),
    "final_tie": ("shared", "checks_then_ep"),
}

# Action options; the parameter (a card id or a discipline) rides along.
COURSE, AGENT, MELD, EXAMINER, REVEAL, END = range(6)


def resolve_readings(readings: dict[str, str] | None) -> dict[str, str]:
    """A full reading per ambiguity, defaults first, unknown names rejected."""
    chosen = {name: values[0] for name, values in READINGS.items()}
    for name, value in (readings or {}).items():
        if name not in READINGS:
            raise ValueError(f"unknown ambiguity {name!r}; known: {', '.join(READINGS)}")
        if value not in READINGS[name]:
            raise ValueError(f"unknown reading {value!r} for {name!r}; known: {', '.join(READINGS[name])}")
        chosen[name] = value
    return chosen


class _Game:
    def __init__(self, n: int, seed: int, r: dict[str, str]):
        self.n = n
        self.r = r
        self.per_meld = r["meld_cost"] == "per_meld"
        self.agent_cost = {"one_ap": 1, "free": 0, "two_ap": 2}[r["film_agent_cost"]]
        self.rng = random.Random(seed)
        self.agents = [Stream(seed * 1000 + k + 1) for k in range(n)]
        self.decisions = 0
        self.draw = list(range(N_DECK))
        self.examiner_deck = list(EXAMINER_IDS)
        self.row: list[int] = []
        self.discard: list[int] = []
        self.examiners: list[int] = []
        self.box: list[int] = []
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.melds: list[list[int]] = [[] for _ in range(n)]
        self.examiner: list[int | None] = [None] * n
        self.display: list[list[int]] = [[] for _ in range(n)]
        self.ap = [0] * n
        self.melded = [dict.fromkeys(DISCIPLINES, False) for _ in range(n)]
        self.checks = [dict.fromkeys(DISCIPLINES, 0) for _ in range(n)]
        self.check_total = [0] * n
        self.ep = [0] * n
        self.top_ep = [0] * n
        self.ep_total = [0] * n
        self.vp = [0] * n
        self.semester = 1
        self.deck = 1
        self.last_turn = False
        self.semester_over = False
        self.edge_taken = False

    def decide(self, seat: int, options: list):
        self.decisions += 1
        return options[self.agents[seat].randrange(len(options))]

    # -- the deck and the row ------------------------------------------------------
    def reveal(self, to: list[int]) -> None:
        if self.draw:
            to.append(self.draw.pop())
            if not self.draw:
                self.deck_used_up()

    def deck_used_up(self) -> None:
        if self.deck == 1:
            self.deck = 2
            if self.r["second_deck_order"] == "as_it_lies":
                self.draw, self.discard = self.discard, []
            else:
                self.draw = self.discard[::-1]
                self.discard = []
        if not self.draw:
            if self.r["semester_end"] == "after_this_turn":
                self.semester_over = True
            else:
                self.last_turn = True

    def deal_row(self) -> None:
        # "The next spot in the row is intended as the discard pile": the fourth card lies next to it.
        incoming: list[int] = []
        for _ in range(ROW):
            self.reveal(incoming)
        self.row.extend(reversed(incoming))

    def reveal_examiners(self) -> None:
        for _ in range(self.n):
            self.examiners.append(self.examiner_deck.pop())

    def migrate(self) -> None:
        row = self.row
        if row and (self.r["empty_edge"] == "nearest_discarded" or not self.edge_taken):
            self.discard.append(row.pop(0))
        vacant = ROW - len(row)
        if self.r["refill_order"] == "far_end_first":
            incoming: list[int] = []
            for _ in range(vacant):
                self.reveal(incoming)
            row.extend(reversed(incoming))
        else:
            for _ in range(vacant):
                self.reveal(row)

    # -- melding --------------------------------------------------------------------
    def minimum(self) -> int:
        return self.semester + 3

    def can_meld(self, p: int, d: str) -> bool:
        if self.melded[p][d] or self.ap[p] < 2:
            return False
        hand = self.hand[p]
        stunts = [c for c in hand if SUIT[c] == d]
        if not stunts:
            return False
        pool = [c for c in hand if SUIT[c] == d or JOKER[c]]
        if self.per_meld:
            return sum(VALUE[c] for c in pool) >= self.minimum()
        best_value = max(VALUE[c] for c in stunts)
        best = next(c for c in stunts if VALUE[c] == best_value)
        k = self.ap[p] // 2 - 1
        rest = sorted((VALUE[c] for c in pool if c != best), reverse=True)[:k] if k > 0 else []
        return best_value + sum(rest) >= self.minimum()

    def meld_cost(self, cards: tuple[int, ...]) -> int:
        return 2 if self.per_meld else 2 * len(cards)

    def meld(self, p: int, d: str) -> None:
        pool = [c for c in self.hand[p] if SUIT[c] == d or JOKER[c]]
        minimum, ap = self.minimum(), self.ap[p]
        subsets, kinds = [], set()
        for k in range(len(pool) + 1):
            for combo in combinations(pool, k):
                if (any(SUIT[c] == d for c in combo) and sum(VALUE[c] for c in combo) >= minimum
                        and self.meld_cost(combo) <= ap):
                    kind = tuple(sorted(TYPE[c] for c in combo))
                    if kind not in kinds:  # Fighting 1, Fighting 1, Fighting 2 is one meld, not two
                        kinds.add(kind)
                        subsets.append(combo)
        cards = self.decide(p, subsets)
        self.ap[p] -= self.meld_cost(cards)
        for c in cards:
            self.hand[p].remove(c)
            self.melds[p].append(c)
        self.melded[p][d] = True

    # -- a turn ---------------------------------------------------------------------------
    def examiner_cost(self) -> int:
        return len(self.examiners) if self.r["examiner_cost"] == "face_up_count" else 0

    def options(self, p: int) -> list[tuple[int, object]]:
        ap, row = self.ap[p], self.row
        found: list[tuple[int, object]] = []
        if len(self.hand[p]) < HAND_LIMIT:
            found += [(COURSE, c) for c in row if KIND[c] == "course" and VALUE[c] <= ap]
        if ap >= self.agent_cost:
            found += [(AGENT, c) for c in row if KIND[c] == "agent"]
        if ap >= 2:
            found += [(MELD, d) for d in DISCIPLINES if self.can_meld(p, d)]
        if self.examiner[p] is None and ap >= self.examiner_cost():
            found += [(EXAMINER, e) for e in self.examiners]
        if (self.r["examiner_cost"] == "per_reveal" and self.examiner[p] is None and ap >= 1
                and self.examiner_deck):
            found.append((REVEAL, None))
        found.append((END, None))
        return found

    def taking(self, card: int) -> None:
        if self.row.index(card) == 0:
            self.edge_taken = True

    def play_turn(self, p: int) -> None:
        self.edge_taken = False
        self.ap[p] = min(self.ap[p] + 3, AP_MAX)
        while True:
            what, x = self.decide(p, self.options(p))
            if what == END:
                break
            if what == COURSE:
                self.taking(x)
                self.row.remove(x)
                self.hand[p].append(x)
                self.ap[p] -= VALUE[x]
            elif what == AGENT:
                self.taking(x)
                self.row.remove(x)
                shown = self.display[p]
                shown.append(x)
                self.ap[p] -= self.agent_cost
                if len(shown) == 2:
                    d = SUIT[self.decide(p, list(shown))]
                    self.checks[p][d] += 1
                    self.check_total[p] += 1
                    self.discard.extend(shown)
                    shown.clear()
            elif what == MELD:
                self.meld(p, x)
            elif what == EXAMINER:
                cost = self.examiner_cost()
                self.examiners.remove(x)
                self.examiner[p] = x
                self.ap[p] -= cost
            else:  # REVEAL
                self.examiners.append(self.examiner_deck.pop())
                self.ap[p] -= 1
        final = self.last_turn
        self.migrate()
        if final:
            self.semester_over = True

    # -- between turns: exams, semesters, the end ------------------------------------------
    def exams(self) -> None:
        per_collection = self.r["negative_floor"] == "per_collection"
        for p in range(self.n):
            ep = top = collections = 0
            for d in DISCIPLINES:
                if self.melded[p][d]:
                    raw = sum(VALUE[c] for c in self.melds[p] if SUIT[c] == d)
                    e = self.examiner[p]
                    raw += BONUS[e][d] if e is not None else -2
                    points = max(raw, 0) if per_collection else raw
                    ep += points
                    if collections == 0 or points > top:
                        top = points
                    collections += 1
                    self.checks[p][d] += 1
                    self.check_total[p] += 1
            self.ep[p] = ep if per_collection else max(ep, 0)
            self.top_ep[p] = top
            self.ep_total[p] += self.ep[p]
        self.victory_points()

    def victory_points(self) -> None:
        n = self.n
        table = [5, 3, 1] if n == 3 else [6, 4, 2, 0]
        examined = [p for p in range(n) if self.melds[p]]
        ranked = list(range(n)) if self.r["unexamined_players"] == "ranked" else examined
        gained = [0] * n
        for p in ranked:
            mine = self.ep[p]
            above = sum(1 for q in ranked if self.ep[q] > mine)
            tied = sum(1 for q in ranked if self.ep[q] == mine)
            gained[p] = sum(table[above:above + tied]) // tied
        if examined:
            top = max(self.top_ep[p] for p in examined)
            if top > 0 or self.r["zero_best_collection"] == "bonus" and (
                    top == 0 or self.r["negative_best_collection"] == "bonus"):
                leaders = [p for p in examined if self.top_ep[p] == top]
                for p in leaders:
                    gained[p] += 3 if len(leaders) == 1 else 1
        for p in range(n):
            self.vp[p] += gained[p]

    def next_semester(self) -> None:
        for p in range(self.n):
            hand = self.hand[p]
            if not hand:
                continue
            distinct, seen = [], set()
            for c in hand:
                if TYPE[c] not in seen:
                    seen.add(TYPE[c])
                    distinct.append(c)
            kept = self.decide(p, [None] + distinct)
            self.discard.extend(c for c in hand if c != kept)
            self.hand[p] = [] if kept is None else [kept]
        for p in range(self.n):
            (self.draw if self.r["melds_after_exam"] == "back_into_deck" else self.box).extend(self.melds[p])
            self.melds[p] = []
            self.draw.extend(self.display[p])
            self.display[p] = []
            if self.examiner[p] is not None:
                self.examiner_deck.append(self.examiner[p])
                self.examiner[p] = None
            self.melded[p] = dict.fromkeys(DISCIPLINES, False)
        self.draw.extend(self.row)
        self.row = []
        self.draw.extend(self.discard)
        self.discard = []
        self.examiner_deck.extend(self.examiners)
        self.examiners = []
        self.rng.shuffle(self.draw)
        self.rng.shuffle(self.examiner_deck)
        self.semester += 1
        self.deck = 1
        self.last_turn = self.semester_over = False
        self.reveal_examiners()
        self.deal_row()

    def final_bonus(self) -> None:
        r = self.r["final_bonus"]
        for d in DISCIPLINES:
            most = max(0, max(self.checks[p][d] for p in range(self.n)))
            if most == 0:
                continue
            leaders = [p for p in range(self.n) if self.checks[p][d] == most]
            if len(leaders) == 1:
                self.vp[leaders[0]] += 3 if r == "four_players_plus_one" and self.n > 3 else 2
            elif r == "tied_one_each":
                for p in leaders:
                    self.vp[p] += 1
            elif r == "tied_three_each":
                for p in leaders:
                    self.vp[p] += 3

    def winners(self) -> list[int]:
        def best(players: list[int], score: list[int]) -> list[int]:
            top = max(score[p] for p in players)
            return [p for p in players if score[p] == top]
        found = best(list(range(self.n)), self.vp)
        if self.r["final_tie"] == "checks_then_ep":
            found = best(best(found, self.check_total), self.ep_total)
        return found

    def check_invariants(self) -> None:
        places = self.draw + self.row + self.discard + self.box
        for p in range(self.n):
            places += self.hand[p] + self.melds[p] + self.display[p]
            assert len(self.hand[p]) <= HAND_LIMIT and 0 <= self.ap[p] <= AP_MAX
        assert sorted(places) == list(range(N_DECK)), "a card is lost or duplicated"
        assert len(self.row) <= ROW


def play(n_players: int, seed: int, *, readings: dict[str, str] | None = None, check: bool = False) -> dict:
    """Play one game of Stunt Academy with random agents.

    Returns {"status": "finished", "winners": seats, "winner": the seat when
    there is exactly one winner else None, "turns", "decisions", "vp": per seat}.
    `check` asserts card conservation and the limits after every turn (slow).
    """
    if not 3 <= n_players <= 4:
        raise ValueError(f"Stunt Academy is for 3 to 4 players, not {n_players}")
    g = _Game(n_players, seed, resolve_readings(readings))
    g.rng.shuffle(g.draw)
    g.rng.shuffle(g.examiner_deck)
    g.reveal_examiners()
    g.deal_row()
    current = g.rng.randrange(n_players)
    turns = 0
    while True:
        turns += 1
        g.play_turn(current)
        if check:
            g.check_invariants()
        current = (current + 1) % n_players
        if g.semester_over:
            g.exams()
            if g.semester == 4:
                break
            g.next_semester()
    g.final_bonus()
    winners = g.winners()
    return {
        "status": "finished",
        "winners": winners,
        "winner": winners[0] if len(winners) == 1 else None,
        "turns": turns,
        "decisions": g.decisions,
        "vp": list(g.vp),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Hand-written Stunt Academy with random agents.")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1, help="game i uses seed + i")
    parser.add_argument("--reading", action="append", default=[], metavar="AMBIGUITY=READING")
    parser.add_argument("--check", action="store_true", help="assert invariants after every turn")
    args = parser.parse_args(argv)
    readings = dict(item.split("=", 1) for item in args.reading)

    start = time.perf_counter()
    decisions = 0
    for i in range(args.games):
        decisions += play(args.players, args.seed + i, readings=readings, check=args.check)["decisions"]
    seconds = time.perf_counter() - start
    print(f"{args.games} games, {args.players} players: {seconds:.3f} s, "
          f"{args.games / seconds:,.0f} games/s, {decisions / seconds:,.0f} decisions/s")


if __name__ == "__main__":
    main()
