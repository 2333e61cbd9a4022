"""Random playouts of games/stun.yaml (hypothesis): every choice index is drawn from the strategy.

Players, seed, options and ambiguity readings are drawn too, so a failure
shrinks to a small game with its first choices near 0. Checked at every
decision: options non-empty with unique labels; after every step: status is
never "error" (the engine also checks the spec's invariants and card
placement, `check_invariants=True`), every card is in exactly one zone, the
25 chips are conserved and within bounds. Each game ends finished or as a
reported stall (the step budget makes sure it ends). Same seed and choices
give the same log; save/resume and clone give equal positions.
"""
from __future__ import annotations

import functools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.api import load_game, load_spec
from interpreter.runtime.engine import Status

from helpers import STUN

BUDGET = 5_000  # steps: hundreds of turns, more than a STUN game with random choices needs
DRAWN = 250  # choices drawn from hypothesis; later ones come from a seeded RNG (a game can be long)
CHIPS = 25

PROPERTY = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CHEAP = settings(PROPERTY, max_examples=25)


def _spec():
    return load_spec(STUN)[0]


@st.composite
def configs(draw):
    spec = _spec()
    readings = {name: draw(st.sampled_from(sorted(a.interpretations))) for name, a in spec.ambiguities.items()}
    options = {name: draw(st.sampled_from(o.values)) for name, o in spec.options.items()}
    return draw(st.integers(2, 6)), draw(st.integers(0, 2**32)), options, readings


@functools.lru_cache(maxsize=None)
def _game(options: tuple, readings: tuple):
    return load_game(STUN, dict(options), dict(readings), budget=BUDGET)


def game_for(options: dict, readings: dict):
    return _game(tuple(sorted(options.items())), tuple(sorted(readings.items())))


class Chooser:
    """Choice indices drawn from hypothesis (one list, taken modulo the number of options, so they shrink
    towards the first option), then from an RNG seeded by the game's seed."""

    def __init__(self, data, seed: int):
        self.drawn = data.draw(st.lists(st.integers(0, 5), max_size=DRAWN), label="choices")
        self.rng, self.k = random.Random(seed), 0

    def __call__(self, n: int) -> int:
        self.k += 1
        if self.k <= len(self.drawn):
            return self.drawn[self.k - 1] % n
        return self.rng.randrange(n)


def check_position(s) -> None:
    assert s.status is not Status.ERROR, s.reason
    cards = sorted(c for z in s.zones for c in z)
    assert cards == list(range(len(s.where))), "a card is lost or duplicated"
    for zid, z in enumerate(s.zones):
        assert all(s.where[c] == zid for c in z), f"card misplaced in zone {zid}"
    spec = s.g.spec
    supply = s.gvars[spec.vars["global"]["supply"].index]
    chips = s.pvars[spec.vars["player"]["chips"].index]
    assert supply + sum(chips) == CHIPS, (supply, chips)
    assert 0 <= supply <= CHIPS and all(0 <= c <= CHIPS for c in chips), (supply, chips)


def check_decision(s) -> int:
    d = s.decision()
    assert d is not None and 0 <= d.player < s.n
    assert d.labels, "a decision without options"
    assert len(set(d.labels)) == len(d.labels), f"labels not unique: {d.labels}"
    assert all(isinstance(x, str) and x for x in d.labels)
    return len(d.labels)


@PROPERTY
@given(configs(), st.data())
def test_random_playout_keeps_every_invariant_and_ends(config, data):
    n, seed, options, readings = config
    game = game_for(options, readings)
    s = game.new_game(n, seed, check_invariants=True)
    choose = Chooser(data, seed)
    check_position(s)
    while s.status is Status.RUNNING:
        s.apply(choose(check_decision(s)))
        check_position(s)
        assert s.steps <= BUDGET + 1
    r = s.result()
    assert r.status in ("finished", "stalled"), r.reason
    assert r.decisions == len(r.choices) == len(s.choices)
    if r.status == "finished":
        chips = s.pvars[game.spec.vars["player"]["chips"].index]
        assert r.winners, "a finished game without a winner"
        if any(c >= game.options["win_chips"] for c in chips[:n]) or readings["dead_end_winner"] != "most_chips":
            assert all(chips[w] >= game.options["win_chips"] for w in r.winners)
        else:  # a dead end under the reading that gives it a winner: whoever holds the most chips
            assert sorted(r.winners) == [p for p in range(n) if chips[p] == max(chips[:n])]
        assert r.scores == chips
    else:
        # a reported stall: the step budget, no legal option, or rounds in which nobody had a choice to make
        assert "steps" in r.reason or "legal" in r.reason or "no way out" in r.reason, r.reason


@CHEAP
@given(configs(), st.data())
def test_same_seed_and_choices_same_log(config, data):
    n, seed, options, readings = config
    game = game_for(options, readings)
    s = game.new_game(n, seed, log=True)
    choose = Chooser(data, seed)
    while s.status is Status.RUNNING:
        s.apply(choose(len(s.decision().labels)))
    again = game.resume(n, seed, s.choices, log=True)
    assert again.log == s.log
    assert again.fingerprint() == s.fingerprint()


@CHEAP
@given(configs(), st.data(), st.integers(0, 60))
def test_save_and_resume_gives_the_same_position(config, data, cut):
    n, seed, options, readings = config
    game = game_for(options, readings)
    s = game.new_game(n, seed)
    choose = Chooser(data, seed)
    while s.status is Status.RUNNING and len(s.choices) < cut:
        s.apply(choose(len(s.decision().labels)))
    save = s.save()
    resumed = game.resume(save["players"], save["seed"], save["choices"])
    assert resumed.fingerprint() == s.fingerprint()
    assert resumed.decision() == s.decision()
    rest = random.Random(seed + 1)
    while s.status is Status.RUNNING:
        i = rest.randrange(len(s.decision().labels))
        s.apply(i)
        resumed.apply(i)
    assert resumed.fingerprint() == s.fingerprint()
    assert resumed.result() == s.result()


@CHEAP
@given(configs(), st.data(), st.integers(0, 60))
def test_clone_is_independent_and_plays_identically(config, data, cut):
    n, seed, options, readings = config
    game = game_for(options, readings)
    s = game.new_game(n, seed)
    choose = Chooser(data, seed)
    while s.status is Status.RUNNING and len(s.choices) < cut:
        s.apply(choose(len(s.decision().labels)))
    before = s.fingerprint()
    twin = s.clone()
    assert twin.fingerprint() == before
    later: list[int] = []
    rest = random.Random(seed + 2)
    while twin.status is Status.RUNNING:
        later.append(rest.randrange(len(twin.decision().labels)))
        twin.apply(later[-1])
    assert s.fingerprint() == before, "playing on a clone changed the original"
    for i in later:
        s.apply(i)
    assert s.fingerprint() == twin.fingerprint()
    assert s.result() == twin.result()


@CHEAP
@given(configs(), st.data(), st.integers(0, 80))
def test_view_hides_the_draw_pile(config, data, cut):
    n, seed, options, readings = config
    s = game_for(options, readings).new_game(n, seed)
    choose = Chooser(data, seed)
    while s.status is Status.RUNNING and len(s.choices) < cut:
        s.apply(choose(len(s.decision().labels)))
    g = s.g
    for p in range(n):
        v = s.view(p)
        assert v["zones"]["draw"] == len(s.zones[0])  # face down: a count, never the cards
        assert v["zones"]["discard"] == [g.card_label[c] for c in s.zones[1]]
        for seat in range(n):
            for k, zname in enumerate(g.player_zone_names):
                assert v["zones"][f"P{seat + 1}.{zname}"] == [g.card_label[c] for c in s.zones[g.S + seat * g.P + k]]
        assert (v["decision"] is not None) == (s.status is Status.RUNNING and s.pplayer == p)
