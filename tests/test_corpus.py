"""The classic-games corpus of issue 14: each game checks clean, its examples pass, random games end,
invariants hold at every step, and a search agent (which determinizes what it cannot see, including
the sealed choices of a `choose together`) plays it to the end."""
from __future__ import annotations

import pytest

from interpreter import api
from interpreter.lab.runner import play
from interpreter.runtime.engine import Game, Status
from interpreter.runtime.scenarios import run_examples

CORPUS = {  # spec: players for the quick games
    "games/mancala.yaml": 2, "games/dots_and_boxes.yaml": 2, "games/maedn.yaml": 2, "games/oh_hell.yaml": 4,
    "games/uno.yaml": 3, "games/love_letter.yaml": 4, "games/sushi_go.yaml": 3, "games/cant_stop.yaml": 3,
    "games/goofspiel.yaml": 3, "games/no_thanks.yaml": 5,
}


@pytest.mark.parametrize("path", sorted(CORPUS))
def test_checks_clean_and_every_example_passes(path):
    spec, diags = api.check_spec(path)
    assert spec is not None and diags == [], [d.message for d in diags]
    failed = {o.name: o.message for o in run_examples(spec) if not o.ok}
    assert failed == {}
    assert len(spec.examples) >= 4
    assert all(a.rule for a in spec.actions.values())  # every action quotes the rules summary


@pytest.mark.parametrize("path", sorted(CORPUS))
def test_random_games_end_with_invariants_checked(path):
    spec, _ = api.load_spec(path)
    game = Game(spec)
    for seed in range(8):
        st = play(game, CORPUS[path], seed, check=True)
        assert st.status is Status.FINISHED, (seed, st.status, st.reason)
        assert st.winners


@pytest.mark.parametrize("path", ["games/sushi_go.yaml", "games/love_letter.yaml", "games/cant_stop.yaml",
                                  "games/goofspiel.yaml", "games/no_thanks.yaml",
                                  "games/oh_hell.yaml"])
def test_a_search_agent_plays_to_the_end(path):
    spec, _ = api.load_spec(path)
    st = play(Game(spec), CORPUS[path], 1, {0: "greedy:samples=2"})
    assert st.status is Status.FINISHED, st.reason


@pytest.mark.parametrize("path", sorted(CORPUS))
def test_explain_shows_the_game(path):
    from interpreter.lab.explain import explain
    spec, _ = api.load_spec(path)
    text = explain(spec)
    assert text.startswith(f"# {spec.name}") and "## End" in text
    if any(c.decl != c.name for c in spec.cards.values()):  # a deck product: one row per declaration
        assert "types, each of" in text
