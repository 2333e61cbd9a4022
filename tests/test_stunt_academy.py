"""Stunt Academy: the spec checks clean, its examples pass, and it plays the same games as the hand-written baseline."""
import pytest

from benchmarks import stunt_academy_handwritten as hand
from interpreter import api
from interpreter.agents.registry import RandomAgent
from interpreter.runtime.engine import SetupError, Status
from interpreter.runtime.scenarios import run_examples

SPEC = "games/stunt-academy.yaml"


def test_checks_without_warnings():
    spec, diags = api.check_spec(SPEC)
    assert spec is not None
    assert [d.message for d in diags] == []


def test_examples_pass():
    spec, _ = api.load_spec(SPEC)
    failed = {o.name: o.message for o in run_examples(spec) if not o.ok}
    assert failed == {}


def test_every_ambiguity_has_its_readings_in_the_baseline():
    spec, _ = api.load_spec(SPEC)
    assert {n: tuple(a.interpretations) for n, a in spec.ambiguities.items()} == hand.READINGS
    assert all(hand.READINGS[n][0] == a.default for n, a in spec.ambiguities.items())


@pytest.mark.parametrize("players", [2, 5])
def test_other_player_counts_are_refused(players):
    game = api.load_game(SPEC)
    with pytest.raises(SetupError, match="Stunt Academy is for 3 to 4 players"):
        game.new_game(players, 1)


CASES = [
    (3, {}), (4, {}),
    (4, {"meld_cost": "per_card", "examiner_cost": "per_reveal", "refill_order": "near_end_first"}),
    (3, {"semester_end": "one_more_turn", "second_deck_order": "turned_over", "empty_edge": "nearest_discarded",
         "film_agent_cost": "two_ap", "final_tie": "checks_then_ep"}),
    (4, {"melds_after_exam": "out_of_game", "negative_floor": "per_semester", "unexamined_players": "not_ranked",
         "zero_best_collection": "bonus", "final_bonus": "four_players_plus_one", "examiner_cost": "free"}),
]


@pytest.mark.parametrize("players, readings", CASES, ids=["3p", "4p", "4p-variants", "3p-variants", "4p-more"])
def test_same_games_as_the_hand_written_baseline(players, readings):
    game = api.load_game(SPEC, readings=readings)
    for seed in range(6):
        st = game.new_game(players, seed, check_invariants=seed == 0)
        agents = [RandomAgent(seed, k) for k in range(players)]
        while st.status is Status.RUNNING:
            st.apply(agents[st.pplayer].pick(st))
        assert st.status is Status.FINISHED, st.reason
        h = hand.play(players, seed, readings=readings, check=seed == 0)
        assert (st.scores(), st.winners, st.turn, st.decisions) == (h["vp"], h["winners"], h["turns"], h["decisions"])


def test_lint_finds_nothing():
    # Also covers coverage mode: readings under builtins' arguments, and procedures inlined
    # into branches that only some readings take (they count when they run).
    from interpreter.lab.lint import lint
    # Two games under each other reading, option value and player count (and the examples) keep it quick.
    assert [(d.code, d.message) for d in lint(SPEC, 4, 60, 0, {}, {}, other_games=2)] == []
