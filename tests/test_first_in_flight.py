"""First in Flight (assumed base) and its Stunt Pack expansion: examples, playouts, readings."""
import dataclasses

import pytest

from interpreter import api
from interpreter.runtime.engine import SetupError
from interpreter.lab.measures import measure
from interpreter.lab.runner import play
from interpreter.runtime.scenarios import run_example, run_examples

BASE = "games/first-in-flight.yaml"
PACK = "games/first-in-flight-stunt-pack.yaml"


@pytest.mark.parametrize("path", [BASE, PACK], ids=["base", "stunt_pack"])
def test_checks_clean_and_every_example_passes(path):
    spec, diags = api.check_spec(path)
    assert spec is not None and diags == []
    failed = [(o.name, o.message) for o in run_examples(spec) if not o.ok]
    assert failed == []


def test_the_expansion_keeps_the_base_examples():
    base, _ = api.load_spec(BASE)
    pack, _ = api.load_spec(PACK)
    assert set(base.examples) < set(pack.examples)
    assert pack.procedures["fly"].do.span.path == BASE  # inherited text stays the base's
    assert pack.procedures["flight_step"].do.span.path == PACK  # replaced text is the expansion's
    clear = pack.procedures["clear_flight"].do.text
    assert clear.paths[0] == PACK and clear.paths[-1] == BASE  # prepended lines, then the base's


@pytest.mark.parametrize("path", [BASE, PACK], ids=["base", "stunt_pack"])
@pytest.mark.parametrize("players", [3, 4])
def test_random_playouts_finish_with_invariants(path, players):
    game = api.load_game(path)
    for seed in range(12):
        st = play(game, players, seed, check=True)
        assert st.status == "finished", (seed, st.reason)
        assert st.winners
        assert len(st.zones) == game.S + game.P * players


def test_same_seed_same_game():
    game = api.load_game(PACK)
    a = play(game, 3, 11, log=True)
    b = play(game, 3, 11, log=True)
    assert a.log == b.log


def test_stunt_measures_are_consistent():
    game = api.load_game(PACK)
    names = list(game.spec.measures)
    for seed in range(10):
        st = play(game, 3, seed)
        m = dict(zip(names, measure(game, st)))
        assert m["stunts_won"] + m["penalty_coins"] + m["penalty_problems"] <= m["stunts_attempted"]
        assert m["stunts_attempted"] <= m["flights"] or game.readings["stunts_per_flight"] == "several"


@pytest.mark.parametrize("path", [BASE, PACK], ids=["base", "stunt_pack"])
def test_two_players_are_not_supported(path):
    # "Look for the upcoming First in Flight: Barnstorming Expansion for more stunts, and rules for
    # playing solo or with Gustave Whitehead at two players!"
    with pytest.raises(SetupError, match="3 to 4 players"):
        api.load_game(path).new_game(2, 1)


@pytest.mark.parametrize("name", ["stunts_per_flight", "stunt_window", "final_flight_stunts", "short_upgrade_deck",
                                  "motorcar_fifth", "descend_in_stunt", "crash_in_stunt", "loss_penalty",
                                  "penalty_problem", "stunt_card_after_attempt"])
def test_every_other_reading_changes_some_example(name):
    """Each ambiguity's other reading fails at least one example written for the default."""
    spec, _ = api.load_spec(PACK)
    amb = spec.ambiguities[name]
    for interp in amb.interpretations:
        if interp == amb.default:
            continue
        # the examples that mention the reading in their name or rule first: they are the likely ones
        order = sorted(spec.examples.values(), key=lambda ex: name.split("_")[0] not in (ex.name + (ex.rule or "")))
        assert any(not run_example(spec, dataclasses.replace(ex, readings={name: interp})).ok
                   for ex in order if not ex.readings), f"{name}={interp} changes no example"


@pytest.mark.parametrize("reading", ["stunts_per_flight=several", "stunt_window=after_first_card",
                                     "motorcar_fifth=any_fifth", "descend_in_stunt=lose_after_landing",
                                     "loss_penalty=pay_if_able", "penalty_problem=returned",
                                     "stunt_card_after_attempt=only_horse_race_stays",
                                     "short_upgrade_deck=no_attempt", "crash_in_stunt=crash_only"])
def test_every_reading_plays_to_the_end(reading):
    k, v = reading.split("=")
    game = api.load_game(PACK, readings={k: v})
    for seed in range(6):
        st = play(game, 4, seed, check=True)
        assert st.status == "finished", (seed, st.reason)
