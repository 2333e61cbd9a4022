"""Hand-written First in Flight (minimal base) and Stunt Pack with random agents.

This module owns one plain-Python implementation of the First in Flight pair:
the assumed minimal base game `games/first-in-flight.yaml` and, with
`expansion=True`, the Stunt Pack `games/first-in-flight-stunt-pack.yaml` on
top of it, with the same rules, assumptions, options and readings of every
ambiguity. It exists for two reasons:

* `benchmarks/bench.py` times it against the interpreter running the specs;
  it is written the way a competent Python programmer would write the game by
  hand, without tricks, so the speed ratio means something.
* both sides play the same seeds and must play the same games, so every
  random draw and every decision happens in exactly the spec's order (see
  "Random streams" and "Decisions" below); `tests/test_first_in_flight_differential.py`
  compares the two. Changing that order breaks the agreement, not just this file.

It deliberately does not log, narrate, expose a decision()/apply() protocol or
support non-random agents: those belong to the interpreter.

Random streams (the shared convention):
* game: `random.Random(seed)`. Setup shuffles the Upgrade deck, then the Skill
  cards, then picks the first player with `randrange(n)`. Every Flight
  shuffles the flyer's deck; every resolved Stunt that revealed Upgrades
  shuffles the Upgrade deck after putting them back.
* agent of seat k: `Stream(seed * 1000 + k + 1)`; each decision calls
  `randrange(len(options))` once, even when there is a single option.

Decisions, each with its options in the spec's order:
* the action: fly; fundraise; buy each market Upgrade that the player can
  afford (market order); repair, when the player has 2 coins and more than 4
  Basic Flight Problems in the deck. In the final phase: take the Final
  Flight (a one-option decision).
* each step of a Flight with cards left in the deck: flip the next card;
  descend; use each usable ready Skill (in order); with the Stunt Pack, attempt
  each available Stunt Card that may be attempted (in order).
* each step of a Stunt Attempt with fewer than 4 Flight Cards after the
  Stunt Card and cards in the deck: flip; descend (the Stunt fails); use each
  usable Skill. With 4 or more: complete the Stunt; draw a 5th card for the
  Motorcar Race (reading motorcar_fifth=own_draw, once, deck not empty); use
  each usable Skill.
* a won Motorcycle Race: one of the revealed Upgrades (in order).
* a lost Stunt, with reading loss_penalty=choice, 2 coins and a Problem in the
  supply: pay 2 coins; gain a Basic Flight Problem.

Cards are the interpreter's card ids (spec order) and zones lists of ids whose
top is the end of the list, so every shuffle sees the same list.
"""

from __future__ import annotations

import argparse
import random
import time

from interpreter.runtime.rng import Stream  # the random agents' streams, defined there

# Card types in spec order: (type, count, kind, distance, problems, cost, flaw, target).
CARD_TYPES = (
    ("basic_flight", 20, "flight", 2, 0, 0, 0, 0),
    ("basic_problem", 36, "flight", 1, 1, 0, 0, 0),
    ("descend", 4, "descend", 5, 0, 0, 0, 0),
    ("upgrade_2", 8, "flight", 2, 0, 2, 0, 0),
    ("upgrade_3", 8, "flight", 3, 0, 3, 0, 0),
    ("upgrade_4", 6, "flight", 4, 0, 4, 1, 0),
    ("upgrade_5", 2, "flight", 5, 1, 3, 0, 0),
    ("tailwind", 2, "skill", 0, 0, 0, 0, 0),
    ("steady_hands", 2, "skill", 0, 0, 0, 0, 0),
    ("full_throttle", 2, "skill", 0, 0, 0, 0, 0),
    # the Stunt Pack's cards come after the base game's
    ("horse_race", 1, "stunt", 0, 0, 0, 0, 2),
    ("motorcar_race", 1, "stunt", 0, 0, 0, 0, 3),
    ("motorcycle_race", 1, "stunt", 0, 0, 0, 0, 4),
)
TYPE: list[str] = []
IS_FLIGHT: list[bool] = []  # kind == "flight": what Steady Hands removes and a Stunt Attempt counts
DISTANCE: list[int] = []
PROBLEMS: list[int] = []
COST: list[int] = []
FLAW: list[int] = []
TARGET: list[int] = []
FIRST_ID: dict[str, int] = {}
for _type, _count, _kind, _distance, _problems, _cost, _flaw, _target in CARD_TYPES:
    FIRST_ID[_type] = len(TYPE)
    for _ in range(_count):
        TYPE.append(_type)
        IS_FLIGHT.append(_kind == "flight")
        DISTANCE.append(_distance)
        PROBLEMS.append(_problems)
        COST.append(_cost)
        FLAW.append(_flaw)
        TARGET.append(_target)
IS_DESCEND = [t == "descend" for t in TYPE]
IS_STUNT = [t in ("horse_race", "motorcar_race", "motorcycle_race") for t in TYPE]
IS_BASIC_PROBLEM = [t == "basic_problem" for t in TYPE]
N_BASE_CARDS = FIRST_ID["horse_race"]  # 90
N_PACK_CARDS = len(TYPE)  # 93
UPGRADE_IDS = range(FIRST_ID["upgrade_2"], FIRST_ID["tailwind"])
SKILL_IDS = range(FIRST_ID["tailwind"], FIRST_ID["horse_race"])
STUNT_IDS = range(FIRST_ID["horse_race"], N_PACK_CARDS)
HORSE_RACE, MOTORCAR_RACE, MOTORCYCLE_RACE = STUNT_IDS

START_COINS = 3
MARKET = 3
SUPPLY = 20
DECK_FLIGHTS, DECK_PROBLEMS = 5, 4
ROUNDS_PER_YEAR = 4
MAX_YEARS = 4  # the year phase's `repeat`

OPTIONS: dict[str, tuple[int, ...]] = {  # default first
    "years": (4, 3),
    "end_record": (40, 30),
    "crash_at": (4, 5),
}
BASE_READINGS: dict[str, tuple[str, ...]] = {
    "winner": ("highest_record", "final_flight"),
}
PACK_READINGS: dict[str, tuple[str, ...]] = {
    **BASE_READINGS,
    "stunts_per_flight": ("one", "several"),
    "stunt_window": ("any_time", "after_first_card"),
    "final_flight_stunts": ("allowed", "not_allowed"),
    "short_upgrade_deck": ("reveal_what_is_left", "no_attempt"),
    "motorcar_fifth": ("own_draw", "any_fifth"),
    "descend_in_stunt": ("lose_at_once", "lose_after_landing"),
    "crash_in_stunt": ("penalty_too", "crash_only"),
    "loss_penalty": ("choice", "pay_if_able"),
    "penalty_problem": ("kept", "returned"),
    "stunt_card_after_attempt": ("stays_in_flight", "only_horse_race_stays"),
    "descend_by_choice_in_stunt": ("offered", "only_when_forced"),
}


def resolve_readings(readings: dict[str, str] | None, expansion: bool) -> dict[str, str]:
    """A full reading per ambiguity, defaults first, unknown names rejected."""
    known = PACK_READINGS if expansion else BASE_READINGS
    chosen = {name: values[0] for name, values in known.items()}
    for name, value in (readings or {}).items():
        if name not in known:
            raise ValueError(f"unknown ambiguity {name!r}; known: {', '.join(known)}")
        if value not in known[name]:
            raise ValueError(f"unknown reading {value!r} for {name!r}; known: {', '.join(known[name])}")
        chosen[name] = value
    return chosen


def resolve_options(options: dict) -> dict[str, int]:
    chosen = {name: values[0] for name, values in OPTIONS.items()}
    for name, value in options.items():
        if name not in OPTIONS:
            raise ValueError(f"unknown option {name!r}; known: {', '.join(OPTIONS)}")
        if value not in OPTIONS[name]:
            raise ValueError(f"option {name}={value!r} is not one of {OPTIONS[name]}")
        chosen[name] = value
    return chosen


class _Game:
    def __init__(self, n: int, seed: int, expansion: bool, r: dict[str, str], o: dict[str, int]):
        self.n = n
        self.expansion = expansion
        self.years = o["years"]
        self.end_record = o["end_record"]
        self.crash_at = o["crash_at"]
        self.winner_by_record = r["winner"] == "highest_record"
        if expansion:
            self.several_stunts = r["stunts_per_flight"] == "several"
            self.stunt_any_time = r["stunt_window"] == "any_time"
            self.final_stunts = r["final_flight_stunts"] == "allowed"
            self.reveal_what_is_left = r["short_upgrade_deck"] == "reveal_what_is_left"
            self.own_fifth = r["motorcar_fifth"] == "own_draw"
            self.lose_at_once = r["descend_in_stunt"] == "lose_at_once"
            self.crash_only = r["crash_in_stunt"] == "crash_only"
            self.penalty_choice = r["loss_penalty"] == "choice"
            self.return_penalty = r["penalty_problem"] == "returned"
            self.all_stunts_stay = r["stunt_card_after_attempt"] == "stays_in_flight"
            self.descend_offered = r["descend_by_choice_in_stunt"] == "offered"
        self.rng = random.Random(seed)
        self.agents = [Stream(seed * 1000 + k + 1) for k in range(n)]
        self.decisions = 0
        # shared zones
        self.upgrades = list(UPGRADE_IDS)
        self.market: list[int] = []
        self.supply: list[int] = []
        self.skill_pile = list(SKILL_IDS)
        self.stunts = list(STUNT_IDS) if expansion else []
        self.flipped: list[int] = []
        self.revealed: list[int] = []
        # player zones
        self.deck: list[list[int]] = [[] for _ in range(n)]
        self.flight: list[list[int]] = [[] for _ in range(n)]
        self.hangar: list[list[int]] = [[] for _ in range(n)]
        self.skills: list[list[int]] = [[] for _ in range(n)]
        self.used_skills: list[list[int]] = [[] for _ in range(n)]
        self.set_aside: list[list[int]] = [[] for _ in range(n)]
        self.won_stunts: list[list[int]] = [[] for _ in range(n)]
        # player state
        self.coins = [START_COINS] * n
        self.record = [0] * n
        self.grounded = [False] * n
        self.final_distance = [0] * n
        self.final_done = [False] * n
        # global state
        self.year = 1
        self.turns_in_year = 0
        self.flights = 0
        self.crashes = 0
        self.upgrades_bought = 0
        self.stunts_attempted = 0
        self.stunts_won = 0
        self.stunt_crashes = 0
        self.penalty_coins = 0
        self.penalty_problems = 0
        # the current Flight (turn state; a turn has at most one Flight)
        self.flying = False
        self.crashed = False
        self.bonus = 0
        self.final = False
        self.problems = 0  # Problems showing in the Flight
        self.turn_stunts = 0
        self.in_stunt = False
        self.target = 0
        self.stunt_descended = False
        self.stunt_resolved = False
        self.fifth = False
        self.penalty_cards = 0

    def choose(self, seat: int, n_options: int) -> int:
        self.decisions += 1
        return self.agents[seat].randrange(n_options)

    # -- setup ----------------------------------------------------------------------------
    def setup(self) -> None:
        self.rng.shuffle(self.upgrades)
        for _ in range(MARKET):
            self.market.append(self.upgrades.pop())
        self.rng.shuffle(self.skill_pile)
        flights, problems, descends = FIRST_ID["basic_flight"], FIRST_ID["basic_problem"], FIRST_ID["descend"]
        for p in range(self.n):
            self.deck[p] = list(range(flights, flights + DECK_FLIGHTS)) + list(range(problems, problems + DECK_PROBLEMS))
            flights += DECK_FLIGHTS
            problems += DECK_PROBLEMS
            self.hangar[p].append(descends + p)
            self.skills[p].append(self.skill_pile.pop())
        self.supply = list(range(problems, problems + SUPPLY))

    # -- a turn of the Years -------------------------------------------------------------
    def play_turn(self, p: int) -> None:
        if self.grounded[p]:
            self.grounded[p] = False
            return
        coins = self.coins[p]
        buys = [c for c in self.market if COST[c] <= coins]
        can_repair = coins >= 2 and sum(IS_BASIC_PROBLEM[c] for c in self.deck[p]) > DECK_PROBLEMS
        k = self.choose(p, 2 + len(buys) + can_repair)
        if k == 0:
            self.fly(p, final=False)
        elif k == 1:
            self.coins[p] += 2
        elif k - 2 < len(buys):
            self.buy(p, buys[k - 2])
        else:
            self.coins[p] -= 2
            deck = self.deck[p]
            c = next(c for c in deck if IS_BASIC_PROBLEM[c])
            deck.remove(c)
            self.supply.append(c)

    def buy(self, p: int, upgrade: int) -> None:
        self.coins[p] -= COST[upgrade]
        self.market.remove(upgrade)
        self.deck[p].append(upgrade)
        self.upgrades_bought += 1
        if FLAW[upgrade] and self.supply:
            self.deck[p].append(self.supply.pop())
        if self.upgrades:
            self.market.append(self.upgrades.pop())

    # -- a Flight --------------------------------------------------------------------------
    def fly(self, p: int, final: bool) -> None:
        self.rng.shuffle(self.deck[p])
        self.flights += 1
        self.flying, self.crashed, self.bonus, self.final, self.problems = True, False, 0, final, 0
        self.turn_stunts = self.penalty_cards = 0
        while self.flying:
            self.flight_step(p)
        self.land(p)

    def usable_skills(self, p: int) -> list[int]:
        found = []
        for s in self.skills[p]:
            t = TYPE[s]
            if (t == "tailwind"
                    or t == "steady_hands" and any(IS_FLIGHT[c] for c in self.flight[p])
                    or t == "full_throttle" and self.deck[p]):
                found.append(s)
        return found

    def can_attempt(self, p: int, stunt: int) -> bool:
        return ((self.turn_stunts == 0 or self.several_stunts)
                and (not self.final or self.final_stunts)
                and (self.stunt_any_time or any(IS_FLIGHT[c] for c in self.flight[p]))
                and (self.reveal_what_is_left or len(self.upgrades) >= TARGET[stunt]))

    def flight_step(self, p: int) -> None:
        if not self.deck[p]:
            self.descend(p)
            return
        skills = self.usable_skills(p)
        stunts = [s for s in self.stunts if self.can_attempt(p, s)] if self.expansion else []
        k = self.choose(p, 2 + len(skills) + len(stunts))
        if k == 0:
            self.flip(p)
        elif k == 1:
            self.descend(p)
        elif k - 2 < len(skills):
            self.use_skill(p, skills[k - 2])
        else:
            self.stunt(p, stunts[k - 2 - len(skills)])

    def flip(self, p: int) -> None:
        c = self.deck[p].pop()
        self.flight[p].append(c)
        self.problems += PROBLEMS[c]
        self.check_crash(p)

    def check_crash(self, p: int) -> None:
        if not self.crashed and self.problems >= self.crash_at:
            self.crashed = True
            self.flying = False
            self.crashes += 1
            self.descend_card_to_hangar(p)

    def descend_card_to_hangar(self, p: int) -> None:
        flight = self.flight[p]
        for c in [c for c in flight if IS_DESCEND[c]]:
            flight.remove(c)
            self.hangar[p].append(c)

    def descend(self, p: int) -> None:
        for _ in range(2):
            if not self.crashed and self.deck[p]:
                self.flip(p)
        if not self.crashed:
            self.flight[p].append(self.hangar[p].pop())
        self.flying = False

    def use_skill(self, p: int, s: int) -> None:
        self.skills[p].remove(s)
        self.used_skills[p].append(s)
        t = TYPE[s]
        if t == "tailwind":
            self.bonus += 2
        elif t == "steady_hands":
            flight = self.flight[p]
            i = max(i for i, c in enumerate(flight) if IS_FLIGHT[c])
            c = flight.pop(i)
            self.problems -= PROBLEMS[c]
            self.set_aside[p].append(c)
        else:
            self.flip(p)

    def land(self, p: int) -> None:
        d = sum(DISTANCE[c] for c in self.flight[p]) + self.bonus
        if self.crashed and not self.final:
            self.grounded[p] = True
        if self.final:
            self.final_distance[p] = d
        if d > self.record[p]:
            self.record[p] = d
            self.coins[p] += 2
        self.clear_flight(p)

    def clear_flight(self, p: int) -> None:
        flight, deck, set_aside = self.flight[p], self.deck[p], self.set_aside[p]
        if self.expansion:
            self.flipped += self.won_stunts[p]
            self.won_stunts[p].clear()
            stunts = [c for c in flight if IS_STUNT[c]]
            for c in stunts:
                flight.remove(c)
            self.stunts += stunts
            if self.return_penalty and self.penalty_cards > 0:
                gained = [c for c in flight + set_aside if IS_BASIC_PROBLEM[c]][:self.penalty_cards]
                for c in gained:
                    (flight if c in flight else set_aside).remove(c)
                    self.supply.append(c)
        self.descend_card_to_hangar(p)
        deck += flight
        flight.clear()
        deck += set_aside
        set_aside.clear()
        self.skills[p] += self.used_skills[p]
        self.used_skills[p].clear()

    # -- the Stunt Pack ---------------------------------------------------------------------
    def stunt(self, p: int, s: int) -> None:
        self.stunts.remove(s)
        self.flight[p].append(s)
        self.turn_stunts += 1
        self.stunts_attempted += 1
        self.in_stunt = True
        self.stunt_descended = self.stunt_resolved = self.fifth = False
        for _ in range(TARGET[s]):
            if self.upgrades:
                self.revealed.append(self.upgrades.pop())
        self.target = sum(DISTANCE[c] for c in self.revealed)
        while self.in_stunt:
            self.stunt_step(p, s)
        if not self.stunt_resolved:
            self.resolve_stunt(p, s)

    def attempt_cards(self, p: int, s: int) -> list[int]:
        """The Flight Cards after the Stunt Card, in order (all of them)."""
        flight = self.flight[p]
        if s not in flight:
            return []
        return [c for c in flight[flight.index(s) + 1:] if IS_FLIGHT[c]]

    def attempt_distance(self, p: int, s: int) -> int:
        counted = 5 if self.fifth or not self.own_fifth and s == MOTORCAR_RACE else 4
        return sum(DISTANCE[c] for c in self.attempt_cards(p, s)[:counted])

    def stunt_step(self, p: int, s: int) -> None:
        if self.crashed:
            self.in_stunt = False
            return
        after = len(self.attempt_cards(p, s))
        deck = self.deck[p]
        if after < 4:
            if not deck:
                self.stunt_descend(p, s)
                return
            skills = self.usable_skills(p)
            offered = 1 if self.descend_offered else 0  # the voluntary descend, when the reading offers it
            k = self.choose(p, 1 + offered + len(skills))
            if k == 0:
                self.flip(p)
            elif offered and k == 1:
                self.stunt_descend(p, s)
            else:
                self.use_skill(p, skills[k - 1 - offered])
        else:
            may_draw = self.own_fifth and s == MOTORCAR_RACE and not self.fifth and after == 4 and bool(deck)
            skills = self.usable_skills(p)
            k = self.choose(p, 1 + may_draw + len(skills))
            if k == 0:
                self.in_stunt = False
            elif may_draw and k == 1:
                self.fifth = True
                self.flip(p)
            else:
                self.use_skill(p, skills[k - 1 - may_draw])

    def stunt_descend(self, p: int, s: int) -> None:
        self.stunt_descended = True
        self.in_stunt = False
        if self.lose_at_once:
            self.resolve_stunt(p, s)
            if not self.crashed:
                self.descend(p)
        else:
            self.descend(p)

    def resolve_stunt(self, p: int, s: int) -> None:
        self.stunt_resolved = True
        if self.crashed:
            self.stunt_crashes += 1
            self.lose_stunt(p, s)
        elif self.stunt_descended:
            self.lose_stunt(p, s)
        elif self.attempt_distance(p, s) > self.target:
            self.win_stunt(p, s)
        else:
            self.lose_stunt(p, s)
        if self.revealed:
            self.upgrades += self.revealed
            self.revealed.clear()
            self.rng.shuffle(self.upgrades)

    def keeps_card(self, s: int) -> bool:
        return self.all_stunts_stay or s == HORSE_RACE

    def win_stunt(self, p: int, s: int) -> None:
        self.stunts_won += 1
        if s == HORSE_RACE:
            self.bonus += 1
        elif s == MOTORCAR_RACE:
            self.coins[p] += 2
        elif self.revealed:
            # Identical Upgrades are one choice (the engine's interchangeable cards): the first of each type.
            firsts = [i for i, c in enumerate(self.revealed) if TYPE[c] not in {TYPE[x] for x in self.revealed[:i]}]
            u = self.revealed.pop(firsts[self.choose(p, len(firsts))])
            self.flight[p].append(u)
            self.problems += PROBLEMS[u]
            self.check_crash(p)
        self.flight[p].remove(s)
        (self.won_stunts[p] if self.keeps_card(s) else self.flipped).append(s)

    def lose_stunt(self, p: int, s: int) -> None:
        if self.crashed and self.crash_only:
            pass
        elif self.coins[p] >= 2 and self.supply and self.penalty_choice:
            if self.choose(p, 2) == 0:
                self.pay_penalty(p)
            else:
                self.gain_penalty_problem(p)
        elif self.coins[p] >= 2:
            self.pay_penalty(p)
        elif self.supply:
            self.gain_penalty_problem(p)
        if not self.keeps_card(s):
            self.flight[p].remove(s)
            self.stunts.append(s)

    def pay_penalty(self, p: int) -> None:
        self.coins[p] -= 2
        self.penalty_coins += 1

    def gain_penalty_problem(self, p: int) -> None:
        c = self.supply.pop()
        self.flight[p].append(c)
        self.problems += PROBLEMS[c]
        self.penalty_problems += 1
        self.penalty_cards += 1
        self.check_crash(p)

    # -- Years and the end ----------------------------------------------------------------------
    def year_over(self) -> bool:
        n = self.n
        return (self.turns_in_year >= ROUNDS_PER_YEAR * n
                or self.turns_in_year % n == 0 and max(self.record) >= self.end_record)

    def end_of_year(self) -> None:
        self.year += 1
        self.turns_in_year = 0
        if self.flipped:
            self.stunts += self.flipped
            self.flipped.clear()

    def winners(self) -> list[int]:
        score = self.record if self.winner_by_record else self.final_distance
        top = max(score)
        return [p for p in range(self.n) if score[p] == top]

    def counters(self) -> dict[str, int]:
        found = {"year": self.year, "turns_in_year": self.turns_in_year, "flights": self.flights,
                 "crashes": self.crashes, "upgrades_bought": self.upgrades_bought}
        if self.expansion:
            found.update(stunts_attempted=self.stunts_attempted, stunts_won=self.stunts_won,
                         stunt_crashes=self.stunt_crashes, penalty_coins=self.penalty_coins,
                         penalty_problems=self.penalty_problems)
        return found

    def check_invariants(self) -> None:
        n = self.n
        places = self.upgrades + self.market + self.supply + self.skill_pile + self.stunts + self.flipped
        places += self.revealed
        for p in range(n):
            places += (self.deck[p] + self.flight[p] + self.hangar[p] + self.skills[p] + self.used_skills[p]
                       + self.set_aside[p] + self.won_stunts[p])
            assert not self.flight[p] and not self.set_aside[p] and not self.used_skills[p], "a Flight left cards"
            assert [IS_DESCEND[c] for c in self.hangar[p]] == [True], "a Descend card is lost"
            assert self.coins[p] >= 0
        box = set(range(N_PACK_CARDS if self.expansion else N_BASE_CARDS)) - set(places)
        assert len(places) == len(set(places)), "a card is in two places"
        assert all(TYPE[c] in ("basic_flight", "basic_problem", "descend") for c in box), "a card is lost"
        assert len(self.stunts) + len(self.flipped) == (3 if self.expansion else 0)


def play(n_players: int, seed: int, *, expansion: bool = False, readings: dict[str, str] | None = None,
         check: bool = False, **options) -> dict:
    """Play one game of First in Flight (with the Stunt Pack if `expansion`) with random agents.

    `options` are the spec's: years, end_record, crash_at. Returns {"status":
    "finished", "winners": seats, "winner": the seat when there is exactly one
    winner else None, "turns", "decisions", "records", "coins" and
    "final_distances": per seat, "counters": the spec's global variables}. `check` asserts card conservation after
    every turn (slow).
    """
    if not 3 <= n_players <= 4:
        raise ValueError(f"First in Flight is for 3 to 4 players, not {n_players}")
    g = _Game(n_players, seed, expansion, resolve_readings(readings, expansion), resolve_options(options))
    g.setup()
    current = g.rng.randrange(n_players)
    turns = 0
    for _ in range(MAX_YEARS):
        if not (g.year <= g.years and max(g.record) < g.end_record):
            break
        while True:  # one Year
            turns += 1
            g.play_turn(current)
            g.turns_in_year += 1
            if check:
                g.check_invariants()
            current = (current + 1) % n_players
            if g.year_over():
                break
        g.end_of_year()
    while True:  # the Final Flights, one per player
        turns += 1
        g.choose(current, 1)  # "take the Final Flight", the only action
        g.fly(current, final=True)
        g.final_done[current] = True
        if check:
            g.check_invariants()
        current = (current + 1) % n_players
        if all(g.final_done):
            break
    winners = g.winners()
    return {
        "status": "finished",
        "winners": winners,
        "winner": winners[0] if len(winners) == 1 else None,
        "turns": turns,
        "decisions": g.decisions,
        "records": list(g.record),
        "coins": list(g.coins),
        "final_distances": list(g.final_distance),
        "counters": g.counters(),
    }


def play_stunt_pack(n_players: int, seed: int, *, readings: dict[str, str] | None = None, check: bool = False,
                    **options) -> dict:
    """`play` with the Stunt Pack (bench.py passes only the spec's options)."""
    return play(n_players, seed, expansion=True, readings=readings, check=check, **options)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Hand-written First in Flight with random agents.")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1, help="game i uses seed + i")
    parser.add_argument("--expansion", action="store_true", help="with the Stunt Pack")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--reading", action="append", default=[], metavar="AMBIGUITY=READING")
    parser.add_argument("--check", action="store_true", help="assert invariants after every turn")
    args = parser.parse_args(argv)
    options = {k: int(v) for k, v in (item.split("=", 1) for item in args.option)}
    readings = dict(item.split("=", 1) for item in args.reading)

    start = time.perf_counter()
    decisions = 0
    for i in range(args.games):
        decisions += play(args.players, args.seed + i, expansion=args.expansion, readings=readings,
                          check=args.check, **options)["decisions"]
    seconds = time.perf_counter() - start
    print(f"{args.games} games, {args.players} players: {seconds:.3f} s, "
          f"{args.games / seconds:,.0f} games/s, {decisions / seconds:,.0f} decisions/s")


if __name__ == "__main__":
    main()
