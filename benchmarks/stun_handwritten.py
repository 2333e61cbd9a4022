"""Hand-written STUN with random agents: the speed baseline and differential oracle.

This module owns one plain-Python implementation of the STUN card game
(rulebooks/stun-card-game.txt) with every decision taken by a seeded random
agent. It exists for two reasons:

* `benchmarks/bench.py` times it against the interpreter running
  `games/stun.yaml`; it is written the way a competent Python programmer would
  write the game by hand, without tricks, so the ratio means something.
* tests replay the same seeds through both and compare the results, so every
  draw from a random generator happens in exactly the order the spec's engine
  uses (see "Random streams" below). Changing that order breaks the
  differential test, not just this file.

It deliberately does not log events, expose a decision()/apply() protocol,
support non-random agents or validate anything beyond its arguments: those
belong to the interpreter.

Random streams (the shared convention):
* game: `random.Random(seed)`; setup shuffles `list(range(52))`, then picks the
  first player with `randrange(n)`; every reshuffle of the discard pile uses it.
* agent of seat k: `Stream(seed * 1000 + k + 1)`; each decision calls
  `randrange(len(options))` once, even when there is a single option.

Piles are lists of card ids whose top is the end of the list.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field
from enum import StrEnum

from interpreter.runtime.rng import Stream  # the random agents' streams, defined there


class Kind(StrEnum):
    CHIP1 = "chip1"
    CHIP2 = "chip2"
    CHIP3 = "chip3"
    STUN_PLUS = "stun_plus"
    STUN_MINUS = "stun_minus"
    STUN = "stun"


# (kind, points, copies) in card-id order: ids 0..18 are chip1, 19..32 chip2, ...
DECK: tuple[tuple[Kind, int, int], ...] = (
    (Kind.CHIP1, 1, 19),
    (Kind.CHIP2, 2, 14),
    (Kind.CHIP3, 3, 7),
    (Kind.STUN_PLUS, 4, 2),
    (Kind.STUN_MINUS, -2, 2),
    (Kind.STUN, 0, 8),
)
KIND: tuple[Kind, ...] = tuple(kind for kind, _, copies in DECK for _ in range(copies))
POINTS: tuple[int, ...] = tuple(points for _, points, copies in DECK for _ in range(copies))
N_CARDS = len(KIND)
SUPPLY = 25
TRADE_AT = 15
MAX_TURNS = 5000

# Every ambiguity of the rulebook this game branches on, default reading first.
READINGS: dict[str, tuple[str, ...]] = {
    "stun_plus_eligibility": ("not_sole_leader", "strictly_behind"),
    "lost_chips": ("to_pile", "to_victim"),
    "first_flip": ("forced", "optional"),
    "stun_minus_target": ("opponent_first", "any_pile"),
    "win_timing": ("immediately", "end_of_turn"),
    "empty_centre": ("no_chip", "from_a_player"),
    "stun_minus_and_stun": ("all_turned_up", "where_it_lies"),
    "reshuffle": ("when_depleted", "when_needed"),
    "stun_minus_own_pile": ("held_pile", "this_turns_cards"),
    "stun_plus_chip_and_stun": ("kept_without_fifteen", "always_lost"),
    "dead_end_winner": ("no_winner", "most_chips"),
}

# Option labels offered to agents. Seats appear as ints in the same lists.
FLIP = "flip"
STOP = "stop"
PILE = "pile"
OWN = "own"


def resolve_readings(readings: dict[str, str] | None) -> dict[str, str]:
    """Return a full reading per ambiguity, defaults filled in, unknown names rejected."""
    chosen = {name: values[0] for name, values in READINGS.items()}
    for name, value in (readings or {}).items():
        if name not in READINGS:
            raise ValueError(f"unknown ambiguity {name!r}; known: {', '.join(READINGS)}")
        if value not in READINGS[name]:
            raise ValueError(
                f"unknown reading {value!r} for {name!r}; known: {', '.join(READINGS[name])}"
            )
        chosen[name] = value
    return chosen


@dataclass(slots=True)
class _Game:
    n: int
    win_chips: int
    advanced: bool
    strictly_behind: bool
    to_victim: bool
    forced_first_flip: bool
    any_pile: bool
    win_at_once: bool
    chip_from_player: bool  # empty_centre == from_a_player
    minus_back: bool  # stun_minus_and_stun == all_turned_up
    reshuffle_at_once: bool  # reshuffle == when_depleted
    own_held: bool  # stun_minus_own_pile == held_pile
    keep_plus_chips: bool  # stun_plus_chip_and_stun == kept_without_fifteen
    check: bool
    rng: random.Random
    agents: list[Stream]
    draw: list[int]
    discard: list[int] = field(default_factory=list)
    supply: int = SUPPLY
    chips: list[int] = field(default_factory=list)
    held: list[list[int]] = field(default_factory=list)
    decisions: int = 0
    winner: int | None = None
    dead_end: bool = False  # no card left to turn up adds to a count (the spec's assumption dead_end): over
    # State of the turn in progress.
    turn_pile: list[int] = field(default_factory=list)
    count: int = 0  # points of the current player's held pile + turn pile
    turn_chips: int = 0
    traded: bool = False  # a chip was collected for a count of 15 this turn
    flips: int = 0
    taken: list[int] = field(default_factory=list)  # chips stolen per seat this turn
    given: list[int] = field(default_factory=list)  # STUN MINUS cards put on each seat's held pile this turn

    def decide(self, seat: int, options: list[str | int]) -> str | int:
        self.decisions += 1
        return options[self.agents[seat].randrange(len(options))]

    def play_turn(self, p: int) -> None:
        self.turn_pile = []
        self.turn_chips = 0
        self.traded = False
        self.flips = 0
        if self.to_victim or self.chip_from_player:
            self.taken = [0] * self.n
        self.given = [0] * self.n
        self.count = sum(POINTS[c] for c in self.held[p])
        if not self.advanced and len(self.draw) + len(self.discard) <= 10 and all(
                POINTS[c] <= 0 for c in self.draw) and all(POINTS[c] <= 0 for c in self.discard):
            # Every card that adds to a count is held, and a STUN leaves held piles alone: nobody can reach
            # 15 or turn up a STUN PLUS again, so no chip can move any more.
            self.dead_end = True
            return
        if self.forced_first_flip and not self.flip(p):
            return
        while self.winner is None:
            # The 8 STUN cards always return to the discard pile: there is always a card to turn up.
            options: list[str | int] = [FLIP]
            if self.flips >= 1 or not self.forced_first_flip:
                options.append(STOP)
            if self.decide(p, options) == STOP:
                self.held[p].extend(self.turn_pile)
                return
            if not self.flip(p):
                return

    def flip(self, p: int) -> bool:
        """Flip one card for player p; return False when the turn is over."""
        if not self.draw:
            self.draw, self.discard = self.discard, []
            self.rng.shuffle(self.draw)
        card = self.draw.pop()
        self.turn_pile.append(card)
        self.flips += 1
        if self.reshuffle_at_once and not self.draw and self.discard:
            # "When the DRAW PILE is depleted": at once, before this card's trade-in reaches the discard pile.
            self.draw, self.discard = self.discard, []
            self.rng.shuffle(self.draw)
        kind = KIND[card]
        if kind is Kind.STUN:
            self.stunned(p)
            if self.check:
                self.check_invariants(None)
            return False
        self.count += POINTS[card]
        if kind is Kind.STUN_PLUS:
            self.stun_plus(p)
        elif kind is Kind.STUN_MINUS:
            self.stun_minus(p, card)
        if self.count >= TRADE_AT:
            if self.supply > 0:
                self.supply -= 1
                self.chips[p] += 1
                self.turn_chips += 1
                self.traded = True
            elif self.chip_from_player:
                # The centre is empty: the chip comes from another player who holds one.
                sources = [q for q in range(self.n) if q != p and self.chips[q] > 0]
                if sources:
                    source = self.decide(p, sources)
                    self.chips[source] -= 1
                    self.taken[source] += 1
                    self.chips[p] += 1
                    self.turn_chips += 1
                    self.traded = True
            self.discard.extend(self.held[p])
            self.discard.extend(self.turn_pile)
            self.held[p] = []
            self.turn_pile = []
            self.count = 0
        if self.check:
            self.check_invariants(p)
        if self.win_at_once and self.chips[p] >= self.win_chips:
            self.winner = p
            return False
        return True

    def stunned(self, p: int) -> None:
        if self.advanced:
            self.discard.extend(self.held[p])
            self.held[p] = []
        self.discard.extend(self.turn_pile)
        self.turn_pile = []
        if self.minus_back:
            for q in range(self.n):
                if self.given[q]:
                    minus = [c for c in self.held[q] if KIND[c] is Kind.STUN_MINUS][:self.given[q]]
                    for c in minus:
                        self.held[q].remove(c)
                    self.discard.extend(minus)
        if self.turn_chips and not self.traded and self.keep_plus_chips:
            return  # STUN PLUS chips of a turn with no count of 15: "this only affects the playees cards"
        self.chips[p] -= self.turn_chips
        returned = 0
        if self.to_victim:
            for q, stolen in enumerate(self.taken):
                self.chips[q] += stolen
                returned += stolen
        self.supply += self.turn_chips - returned

    def stun_plus(self, p: int) -> None:
        mine = self.chips[p]
        best_other = max(c for q, c in enumerate(self.chips) if q != p)
        # not_sole_leader: only a player ahead of everyone else is refused.
        eligible = best_other > mine if self.strictly_behind else best_other >= mine
        if not eligible:
            return
        options: list[str | int] = [PILE] if self.supply > 0 else []
        options += [q for q in range(self.n) if q != p and self.chips[q] > 0]
        if not options:
            return
        source = self.decide(p, options)
        if source == PILE:
            self.supply -= 1
        else:
            self.chips[source] -= 1
            if self.to_victim:
                self.taken[source] += 1
        self.chips[p] += 1
        self.turn_chips += 1

    def stun_minus(self, p: int, card: int) -> None:
        options: list[str | int] = [OWN] if self.any_pile else []
        options += [q for q in range(self.n) if q != p and self.held[q]]
        target = self.decide(p, options) if options else OWN  # no other pile: his own
        if target == OWN:
            if self.own_held and self.held[p]:  # "his own pile": his held pile, when he has one
                self.turn_pile.remove(card)
                self.held[p].append(card)
                self.given[p] += 1
        else:
            self.turn_pile.remove(card)
            self.held[target].append(card)
            self.given[target] += 1
            self.count -= POINTS[card]

    def check_invariants(self, p: int | None) -> None:
        """Assert conservation; with p, also that the running count of p's turn is right."""
        if p is not None:
            turn_points = sum(POINTS[c] for c in self.held[p] + self.turn_pile)
            assert self.count == turn_points, (self.count, turn_points)
        assert self.supply >= 0 and min(self.chips) >= 0, (self.supply, self.chips)
        assert sum(self.chips) + self.supply == SUPPLY, (self.chips, self.supply)
        places = self.draw + self.discard + self.turn_pile
        for pile in self.held:
            places += pile
        assert sorted(places) == list(range(N_CARDS)), "a card is lost or duplicated"


def play(
    n_players: int,
    seed: int,
    *,
    win_chips: int = 5,
    advanced: bool = False,
    readings: dict[str, str] | None = None,
    check: bool = False,
    max_turns: int = MAX_TURNS,
) -> dict:
    """Play one game of STUN with random agents.

    Returns {"status": "finished" | "stalled", "winner": seat or None, "winners": seats (several only when
    the game ends in a dead end under dead_end_winner most_chips),
    "turns": turns played, "decisions": agent decisions, "chips": per seat}.
    `check` asserts chip and card conservation after every flip (slow).
    """
    # The rulebook says 2 to 6; with more, the 25 chips could run out.
    if not 2 <= n_players <= 6:
        raise ValueError(f"STUN is for 2 to 6 players, not {n_players}")
    chosen = resolve_readings(readings)
    rng = random.Random(seed)
    draw = list(range(N_CARDS))
    rng.shuffle(draw)
    current = rng.randrange(n_players)
    game = _Game(
        n=n_players,
        win_chips=win_chips,
        advanced=advanced,
        strictly_behind=chosen["stun_plus_eligibility"] == "strictly_behind",
        to_victim=chosen["lost_chips"] == "to_victim",
        forced_first_flip=chosen["first_flip"] == "forced",
        any_pile=chosen["stun_minus_target"] == "any_pile",
        win_at_once=chosen["win_timing"] == "immediately",
        chip_from_player=chosen["empty_centre"] == "from_a_player",
        minus_back=chosen["stun_minus_and_stun"] == "all_turned_up",
        reshuffle_at_once=chosen["reshuffle"] == "when_depleted",
        own_held=chosen["stun_minus_own_pile"] == "held_pile",
        keep_plus_chips=chosen["stun_plus_chip_and_stun"] == "kept_without_fifteen",
        check=check,
        rng=rng,
        agents=[Stream(seed * 1000 + k + 1) for k in range(n_players)],
        draw=draw,
        chips=[0] * n_players,
        held=[[] for _ in range(n_players)],
    )
    turns = 0
    status = "stalled"
    # A turn that would be number max_turns + 1 is not played: turns <= max_turns.
    while turns < max_turns:
        turns += 1
        game.play_turn(current)
        if game.winner is None and not game.win_at_once:
            # Only the player whose turn ended can have gained chips, so one winner at most.
            if game.chips[current] >= win_chips:
                game.winner = current
        if game.winner is not None or game.dead_end:
            status = "finished"
            break
        current = (current + 1) % n_players
    winners = [game.winner] if game.winner is not None else []
    if game.dead_end and chosen["dead_end_winner"] == "most_chips":
        winners = [q for q in range(n_players) if game.chips[q] == max(game.chips)]
    return {
        "status": status,
        "winner": game.winner,
        "winners": winners,
        "turns": turns,
        "decisions": game.decisions,
        "chips": list(game.chips),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Hand-written STUN with random agents.")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1, help="game i uses seed + i")
    parser.add_argument("--win-chips", type=int, default=5)
    parser.add_argument("--advanced", action="store_true")
    parser.add_argument("--check", action="store_true", help="assert invariants after every flip")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    finished = decisions = 0
    for i in range(args.games):
        result = play(
            args.players,
            args.seed + i,
            win_chips=args.win_chips,
            advanced=args.advanced,
            check=args.check,
        )
        finished += result["status"] == "finished"
        decisions += result["decisions"]
    seconds = time.perf_counter() - start
    print(
        f"{args.games} games, {args.players} players: {seconds:.3f} s, "
        f"{args.games / seconds:,.0f} games/s, {decisions / seconds:,.0f} decisions/s, "
        f"{args.games - finished} stalled"
    )


if __name__ == "__main__":
    main()
